//! The baseline of known conformance gaps and its comparison with a run.
//!
//! The baseline is a committed, human-edited text file with one line per test
//! that does not (yet) agree with its expected verdict:
//!
//! ```text
//! gpuverify/CUDA/align  unknown  # needs byte-level memory model
//! ```
//!
//! Lines starting with `#` and blank lines are comments. Every entry needs a
//! reason; `--bless` writes `# TODO: reason` on new entries so that a missing
//! reason is visible in review.

use std::collections::{BTreeMap, BTreeSet};

use super::outcome::Outcome;

/// The reason `--bless` gives new entries.
pub const TODO_REASON: &str = "TODO: reason";

/// One line of the baseline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub outcome: Outcome,
    pub reason: String,
}

/// All entries, keyed and sorted by `suite/test-id`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    pub entries: BTreeMap<String, Entry>,
}

impl Baseline {
    /// Parses the file's text; errors name the offending line.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let mut entries = BTreeMap::new();
        for (index, raw) in text.lines().enumerate() {
            let line_no = index + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (fields, reason) = match line.split_once('#') {
                Some((fields, reason)) => (fields, reason.trim()),
                None => (line, ""),
            };
            let fields: Vec<&str> = fields.split_whitespace().collect();
            let [key, outcome] = fields[..] else {
                return Err(format!(
                    "line {line_no}: expected `suite/test-id  outcome  # reason`, got {raw:?}"
                ));
            };
            let outcome = Outcome::from_name(outcome)
                .ok_or_else(|| format!("line {line_no}: unknown outcome {outcome:?}"))?;
            if outcome.agrees() {
                return Err(format!(
                    "line {line_no}: {key} is listed as {outcome}, which agrees with the \
                     expectation; only disagreeing tests belong in the baseline"
                ));
            }
            let entry = Entry {
                outcome,
                reason: reason.to_string(),
            };
            if entries.insert(key.to_string(), entry).is_some() {
                return Err(format!("line {line_no}: {key} is listed twice"));
            }
        }
        Ok(Baseline { entries })
    }

    /// Renders the file: a fixed header, then the entries sorted by key.
    pub fn render(&self) -> String {
        let mut text = String::from(
            "# lockstep conformance baseline: tests whose outcome does not (yet) agree\n\
             # with the expected verdict. One line per test:\n\
             #     suite/test-id  outcome  # reason\n\
             # `cargo xtask conformance --check` fails on any disagreeing test not listed\n\
             # here, and on a new missed, crash or timeout. `--bless` rewrites this file\n\
             # from a run (keeping reasons; other comment lines are not kept).\n",
        );
        for (key, entry) in &self.entries {
            let reason = if entry.reason.is_empty() {
                TODO_REASON
            } else {
                &entry.reason
            };
            text.push_str(&format!("{key}  {}  # {reason}\n", entry.outcome.name()));
        }
        text
    }
}

/// The scope of a run, needed to tell a stale entry from one that simply
/// was not run this time.
pub struct Scope<'a> {
    /// Suite names that were run in full (no `--filter`).
    pub full_suites: &'a BTreeSet<String>,
    /// Keys of tests that exist but could not be run (malformed headers);
    /// their entries are neither checked nor stale.
    pub unrunnable: &'a BTreeSet<String>,
}

impl Scope<'_> {
    /// Whether `key` belongs to a suite that was run in full, so that its
    /// absence from the results means the test no longer exists.
    fn is_stale(&self, key: &str) -> bool {
        let suite = key.split('/').next().unwrap_or("");
        self.full_suites.contains(suite) && !self.unrunnable.contains(key)
    }
}

/// How a run compares with the baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// Disagreeing tests that are not in the baseline: `(key, outcome)`.
    pub regressions: Vec<(String, Outcome)>,
    /// Baselined tests whose (still disagreeing) outcome changed:
    /// `(key, baselined, now)`. Fatal when `now.always_fatal()`.
    pub changed: Vec<(String, Outcome, Outcome)>,
    /// Baselined tests that now agree: `(key, now)`.
    pub closed: Vec<(String, Outcome)>,
    /// Baselined tests that still disagree in the same way.
    pub known: usize,
    /// Entries for tests that no longer exist.
    pub stale: Vec<String>,
}

impl Diff {
    /// The changes that fail `--check`: regressions, and changes to an
    /// outcome that is never acceptable silently.
    pub fn failures(&self) -> impl Iterator<Item = &(String, Outcome, Outcome)> {
        self.changed.iter().filter(|(_, _, now)| now.always_fatal())
    }

    pub fn is_failure(&self) -> bool {
        !self.regressions.is_empty() || self.failures().next().is_some()
    }
}

/// Compares `results` (`(key, outcome)` of every test run) with `baseline`.
pub fn diff(baseline: &Baseline, results: &[(String, Outcome)], scope: &Scope) -> Diff {
    let mut d = Diff::default();
    let mut seen = BTreeSet::new();
    for (key, now) in results {
        seen.insert(key.as_str());
        match (baseline.entries.get(key), now.agrees()) {
            (None, true) => {}
            (None, false) => d.regressions.push((key.clone(), *now)),
            (Some(_), true) => d.closed.push((key.clone(), *now)),
            (Some(entry), false) if entry.outcome == *now => d.known += 1,
            (Some(entry), false) => d.changed.push((key.clone(), entry.outcome, *now)),
        }
    }
    d.stale = baseline
        .entries
        .keys()
        .filter(|key| !seen.contains(key.as_str()) && scope.is_stale(key))
        .cloned()
        .collect();
    d.regressions.sort();
    d.changed.sort();
    d.closed.sort();
    d
}

/// The baseline `--bless` writes: every disagreeing test of this run with
/// its current outcome (keeping an existing reason), plus the old entries
/// this run did not cover (other suites, filtered-out or unrunnable tests).
pub fn bless(old: &Baseline, results: &[(String, Outcome)], scope: &Scope) -> Baseline {
    let run: BTreeSet<&str> = results.iter().map(|(key, _)| key.as_str()).collect();
    let mut entries: BTreeMap<String, Entry> = old
        .entries
        .iter()
        .filter(|(key, _)| !run.contains(key.as_str()) && !scope.is_stale(key))
        .map(|(key, entry)| (key.clone(), entry.clone()))
        .collect();
    for (key, outcome) in results {
        if outcome.agrees() {
            continue;
        }
        let reason = old
            .entries
            .get(key)
            .map(|e| e.reason.clone())
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| TODO_REASON.to_string());
        entries.insert(
            key.clone(),
            Entry {
                outcome: *outcome,
                reason,
            },
        );
    }
    Baseline { entries }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    const TEXT: &str = "# header comment\n\
        \n\
        gpuverify/CUDA/b  unknown  # loops need invariants\n\
        esbmc-gpu/x/y\tcrash # clang segfault # on purpose\n\
        gpuverify/CUDA/a  false-alarm\n";

    fn results(list: &[(&str, Outcome)]) -> Vec<(String, Outcome)> {
        list.iter().map(|(k, o)| (k.to_string(), *o)).collect()
    }

    #[test]
    fn parse_and_render_round_trip_sorted() {
        let b = Baseline::parse(TEXT).unwrap();
        assert_eq!(b.entries.len(), 3);
        assert_eq!(
            b.entries["esbmc-gpu/x/y"].reason,
            "clang segfault # on purpose"
        );
        assert_eq!(b.entries["gpuverify/CUDA/a"].reason, "");
        let text = b.render();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(
            lines,
            [
                "esbmc-gpu/x/y  crash  # clang segfault # on purpose",
                "gpuverify/CUDA/a  false-alarm  # TODO: reason",
                "gpuverify/CUDA/b  unknown  # loops need invariants",
            ]
        );
        let again = Baseline::parse(&text).unwrap();
        assert_eq!(
            again.entries["gpuverify/CUDA/b"],
            b.entries["gpuverify/CUDA/b"]
        );
    }

    #[test]
    fn parse_errors() {
        assert!(Baseline::parse("gpuverify/a\n")
            .unwrap_err()
            .contains("line 1"));
        assert!(Baseline::parse("gpuverify/a  weird  # r\n")
            .unwrap_err()
            .contains("unknown outcome"));
        assert!(Baseline::parse("gpuverify/a  proved  # r\n")
            .unwrap_err()
            .contains("agrees"));
        assert!(Baseline::parse("a  crash\na  unknown\n")
            .unwrap_err()
            .contains("twice"));
        assert!(Baseline::parse("a b crash\n").is_err());
    }

    #[test]
    fn diff_classifies_every_case() {
        let baseline = Baseline::parse(
            "g/known  unknown  # r\n\
             g/closed  unknown  # r\n\
             g/changed  unknown  # r\n\
             g/worse  false-alarm  # r\n\
             g/gone  unknown  # r\n\
             g/bad-header  unknown  # r\n\
             e/elsewhere  crash  # r\n",
        )
        .unwrap();
        let run = results(&[
            ("g/known", Unknown),
            ("g/closed", Proved),
            ("g/changed", Rejected),
            ("g/worse", Missed),
            ("g/new", Timeout),
            ("g/fine", Found),
        ]);
        let full: BTreeSet<String> = ["g".to_string()].into();
        let unrunnable: BTreeSet<String> = ["g/bad-header".to_string()].into();
        let scope = Scope {
            full_suites: &full,
            unrunnable: &unrunnable,
        };
        let d = diff(&baseline, &run, &scope);
        assert_eq!(d.known, 1);
        assert_eq!(d.regressions, [("g/new".to_string(), Timeout)]);
        assert_eq!(d.closed, [("g/closed".to_string(), Proved)]);
        assert_eq!(
            d.changed,
            [
                ("g/changed".to_string(), Unknown, Rejected),
                ("g/worse".to_string(), FalseAlarm, Missed)
            ]
        );
        assert_eq!(
            d.failures().map(|c| c.0.as_str()).collect::<Vec<_>>(),
            ["g/worse"]
        );
        assert_eq!(d.stale, ["g/gone"]);
        assert!(d.is_failure());
    }

    #[test]
    fn changed_but_not_fatal_and_closed_gaps_pass_the_check() {
        let baseline =
            Baseline::parse("g/a  unknown  # r\ng/b  crash  # r\ng/c  timeout  # r\n").unwrap();
        let run = results(&[("g/a", FalseAlarm), ("g/b", Proved), ("g/c", Timeout)]);
        let none = BTreeSet::new();
        let d = diff(
            &baseline,
            &run,
            &Scope {
                full_suites: &none,
                unrunnable: &none,
            },
        );
        assert!(!d.is_failure(), "{d:?}");
        assert_eq!(d.changed.len(), 1);
        assert_eq!(d.closed.len(), 1);
        assert_eq!(d.known, 1);

        // A crash that was baselined as something else fails.
        let run = results(&[("g/a", Crash)]);
        assert!(diff(
            &baseline,
            &run,
            &Scope {
                full_suites: &none,
                unrunnable: &none
            }
        )
        .is_failure());
    }

    #[test]
    fn bless_keeps_reasons_and_out_of_scope_entries() {
        let old = Baseline::parse(
            "g/stays  unknown  # kept reason\n\
             g/closes  unknown  # r\n\
             g/gone  unknown  # r\n\
             e/other-suite  crash  # other\n",
        )
        .unwrap();
        let run = results(&[
            ("g/stays", FalseAlarm),
            ("g/closes", Proved),
            ("g/new", Unknown),
        ]);
        let full: BTreeSet<String> = ["g".to_string()].into();
        let none = BTreeSet::new();
        let new = bless(
            &old,
            &run,
            &Scope {
                full_suites: &full,
                unrunnable: &none,
            },
        );
        let keys: Vec<&str> = new.entries.keys().map(String::as_str).collect();
        assert_eq!(keys, ["e/other-suite", "g/new", "g/stays"]);
        assert_eq!(
            new.entries["g/stays"],
            Entry {
                outcome: FalseAlarm,
                reason: "kept reason".into()
            }
        );
        assert_eq!(new.entries["g/new"].reason, TODO_REASON);
        assert_eq!(new.entries["e/other-suite"].reason, "other");

        // With a filter, suite `g` is not run in full, so `g/gone` stays.
        let new = bless(
            &old,
            &run,
            &Scope {
                full_suites: &none,
                unrunnable: &none,
            },
        );
        assert!(new.entries.contains_key("g/gone"));
    }
}
