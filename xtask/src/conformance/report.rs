//! Summary figures, the printed tables and the `--json` file.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{json, Value};

use super::exec::{command_args, Exit, RawRun};
use super::outcome::{Judgement, Outcome};
use super::suite::{Expected, TestCase};

/// A test with its run and judgement.
pub struct TestResult {
    pub case: TestCase,
    pub run: RawRun,
    pub judgement: Judgement,
}

impl TestResult {
    pub fn outcome(&self) -> Outcome {
        self.judgement.outcome
    }
}

/// A ratio shown as `n/d  pct%`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ratio {
    pub num: usize,
    pub den: usize,
}

impl Ratio {
    pub fn percent(self) -> Option<f64> {
        (self.den > 0).then(|| 100.0 * self.num as f64 / self.den as f64)
    }

    fn cell(self) -> String {
        match self.percent() {
            Some(p) => format!("{}/{} {:5.1}%", self.num, self.den, p),
            None => "-".to_string(),
        }
    }

    fn to_json(self) -> Value {
        json!({"num": self.num, "den": self.den, "percent": self.percent()})
    }
}

/// The figures for one group of results (a suite, or all of them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    pub total: usize,
    pub counts: BTreeMap<Outcome, usize>,
    /// Expected-pass tests that were proved.
    pub pass_verified: Ratio,
    /// Expected-fail tests that were reported (`found`).
    pub fail_found: Ratio,
    /// Expected-fail tests reported with a confirmed error.
    pub fail_confirmed: Ratio,
    /// Expected-pass tests reported with a confirmed error: each is a wrong
    /// confirmation (or a wrong expectation), so this should be 0.
    pub pass_confirmed: usize,
    /// Of the found tests whose expected kind is known, those where a
    /// reported kind matches.
    pub kind_matched: Ratio,
    /// Of the found tests with expected message fragments, those where every
    /// fragment matched (informational only).
    pub fragments_matched: Ratio,
    /// Tests not expected to be rejected that got through the front end
    /// (outcome neither `rejected` nor `crash`).
    pub front_end: Ratio,
    /// Tests whose outcome agrees with the expectation.
    pub agreeing: Ratio,
    pub missed: usize,
    pub wall_median: Option<Duration>,
    pub wall_p95: Option<Duration>,
    /// Front-end time (clang and lowering) as lockstep reports it.
    pub frontend_median: Option<Duration>,
    pub frontend_p95: Option<Duration>,
    /// Peak memory (`RawRun::max_rss_kib`): the 95th percentile and the
    /// largest, in KiB, over the runs that were measured.
    pub rss_p95_kib: Option<u64>,
    pub rss_max_kib: Option<u64>,
    /// The same over each run's whole process tree together
    /// (`RawRun::max_tree_rss_kib`).
    pub tree_rss_p95_kib: Option<u64>,
    pub tree_rss_max_kib: Option<u64>,
}

impl Figures {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a TestResult>) -> Figures {
        let mut f = Figures::default();
        let mut walls = Vec::new();
        let mut frontend = Vec::new();
        let mut rss = Vec::new();
        let mut tree_rss = Vec::new();
        for r in results {
            rss.extend(r.run.max_rss_kib);
            tree_rss.extend(r.run.max_tree_rss_kib);
            if let Some(ms) = r.judgement.frontend_ms {
                frontend.push(Duration::from_secs_f64(ms / 1000.0));
            }
            let outcome = r.outcome();
            let j = &r.judgement;
            f.total += 1;
            *f.counts.entry(outcome).or_default() += 1;
            walls.push(r.run.wall);
            f.agreeing.den += 1;
            f.agreeing.num += usize::from(outcome.agrees());
            match r.case.expected {
                Expected::Pass => {
                    f.pass_verified.den += 1;
                    f.pass_verified.num += usize::from(outcome == Outcome::Proved);
                    f.pass_confirmed += usize::from(outcome == Outcome::FalseAlarm && j.confirmed);
                }
                Expected::Fail => {
                    f.fail_found.den += 1;
                    f.fail_confirmed.den += 1;
                    if outcome == Outcome::Found {
                        f.fail_found.num += 1;
                        f.fail_confirmed.num += usize::from(j.confirmed);
                        if !r.case.expected_kinds.is_empty() {
                            f.kind_matched.den += 1;
                            f.kind_matched.num += usize::from(j.kind_match == Some(true));
                        }
                        if !j.fragments.is_empty() {
                            f.fragments_matched.den += 1;
                            f.fragments_matched.num +=
                                usize::from(j.fragments.iter().all(|m| m.matched));
                        }
                    }
                }
                Expected::Rejected(_) => {}
            }
            if !matches!(r.case.expected, Expected::Rejected(_)) {
                f.front_end.den += 1;
                f.front_end.num +=
                    usize::from(!matches!(outcome, Outcome::Rejected | Outcome::Crash));
            }
        }
        f.missed = f.counts.get(&Outcome::Missed).copied().unwrap_or(0);
        walls.sort();
        f.wall_median = percentile(&walls, 50);
        f.wall_p95 = percentile(&walls, 95);
        frontend.sort();
        f.frontend_median = percentile(&frontend, 50);
        f.frontend_p95 = percentile(&frontend, 95);
        rss.sort_unstable();
        f.rss_p95_kib = percentile(&rss, 95);
        f.rss_max_kib = rss.last().copied();
        tree_rss.sort_unstable();
        f.tree_rss_p95_kib = percentile(&tree_rss, 95);
        f.tree_rss_max_kib = tree_rss.last().copied();
        f
    }

    pub fn count(&self, outcome: Outcome) -> usize {
        self.counts.get(&outcome).copied().unwrap_or(0)
    }

    pub fn to_json(&self) -> Value {
        let counts: serde_json::Map<String, Value> = Outcome::ALL
            .iter()
            .map(|o| (o.name().to_string(), json!(self.count(*o))))
            .collect();
        json!({
            "total": self.total,
            "counts": counts,
            "pass_verified": self.pass_verified.to_json(),
            "fail_found": self.fail_found.to_json(),
            "fail_confirmed": self.fail_confirmed.to_json(),
            "kind_matched": self.kind_matched.to_json(),
            "fragments_matched": self.fragments_matched.to_json(),
            "front_end": self.front_end.to_json(),
            "agreeing": self.agreeing.to_json(),
            "missed": self.missed,
            "pass_confirmed": self.pass_confirmed,
            "wall_median_ms": self.wall_median.map(|d| d.as_millis() as u64),
            "wall_p95_ms": self.wall_p95.map(|d| d.as_millis() as u64),
            "frontend_median_ms": self.frontend_median.map(|d| d.as_millis() as u64),
            "frontend_p95_ms": self.frontend_p95.map(|d| d.as_millis() as u64),
            "max_rss_p95_kib": self.rss_p95_kib,
            "max_rss_max_kib": self.rss_max_kib,
            "max_tree_rss_p95_kib": self.tree_rss_p95_kib,
            "max_tree_rss_max_kib": self.tree_rss_max_kib,
        })
    }
}

/// The nearest-rank percentile of sorted values.
pub fn percentile<T: Copy>(sorted: &[T], pct: usize) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    // Nearest rank: the smallest value with at least pct% of values at or
    // below it.
    let rank = (pct * sorted.len()).div_ceil(100).max(1);
    Some(sorted[rank - 1])
}

fn seconds(d: Option<Duration>) -> String {
    match d {
        Some(d) => format!("{:.2}s", d.as_secs_f64()),
        None => "-".to_string(),
    }
}

fn mebibytes(kib: Option<u64>) -> String {
    match kib {
        Some(k) => format!("{} MiB", k.div_ceil(1024)),
        None => "-".to_string(),
    }
}

/// A row of the figures table: its label and how to compute a cell.
type FigureRow = (&'static str, fn(&Figures) -> String);

/// Renders the outcome table and the figures table. `columns` are the named
/// groups to show side by side (each suite, then `all` when there are
/// several); timings per outcome are over every result.
pub fn render_tables(columns: &[(String, Figures)], all: &[&TestResult]) -> String {
    let mut out = String::new();
    let label_width = 38;
    let cell_width = 16;

    let _ = write!(out, "{:<label_width$}", "outcome");
    for (name, _) in columns {
        let _ = write!(out, "{name:>cell_width$}");
    }
    let _ = writeln!(out, "{:>9}{:>9}", "median", "p95");
    for outcome in Outcome::ALL {
        let note = if outcome.agrees() { "" } else { " *" };
        let _ = write!(out, "{:<label_width$}", format!("{outcome}{note}"));
        for (_, figures) in columns {
            let _ = write!(out, "{:>cell_width$}", figures.count(outcome));
        }
        let mut walls: Vec<Duration> = all
            .iter()
            .filter(|r| r.outcome() == outcome)
            .map(|r| r.run.wall)
            .collect();
        walls.sort();
        let _ = writeln!(
            out,
            "{:>9}{:>9}",
            seconds(percentile(&walls, 50)),
            seconds(percentile(&walls, 95))
        );
    }
    let _ = write!(out, "{:<label_width$}", "total");
    for (_, figures) in columns {
        let _ = write!(out, "{:>cell_width$}", figures.total);
    }
    let mut walls: Vec<Duration> = all.iter().map(|r| r.run.wall).collect();
    walls.sort();
    let _ = writeln!(
        out,
        "{:>9}{:>9}",
        seconds(percentile(&walls, 50)),
        seconds(percentile(&walls, 95))
    );
    let _ = writeln!(out, "(* = does not agree with the expected verdict)\n");

    let rows: [FigureRow; 17] = [
        ("agreeing", |f| f.agreeing.cell()),
        ("pass tests verified", |f| f.pass_verified.cell()),
        ("fail tests reported (found)", |f| f.fail_found.cell()),
        ("fail tests with a confirmed error", |f| {
            f.fail_confirmed.cell()
        }),
        ("found with expected kind (when known)", |f| {
            f.kind_matched.cell()
        }),
        ("found with all message fragments", |f| {
            f.fragments_matched.cell()
        }),
        ("front end (not rejected/crash)", |f| f.front_end.cell()),
        ("missed (unsound)", |f| f.missed.to_string()),
        ("confirmed errors on pass tests", |f| {
            f.pass_confirmed.to_string()
        }),
        ("wall time median", |f| seconds(f.wall_median)),
        ("wall time p95", |f| seconds(f.wall_p95)),
        ("front-end time median", |f| seconds(f.frontend_median)),
        ("front-end time p95", |f| seconds(f.frontend_p95)),
        ("peak memory p95 (largest process)", |f| mebibytes(f.rss_p95_kib)),
        ("peak memory max (largest process)", |f| mebibytes(f.rss_max_kib)),
        ("peak memory p95 (all processes)", |f| mebibytes(f.tree_rss_p95_kib)),
        ("peak memory max (all processes)", |f| mebibytes(f.tree_rss_max_kib)),
    ];
    let _ = write!(out, "{:<label_width$}", "figure");
    for (name, _) in columns {
        let _ = write!(out, "{name:>cell_width$}");
    }
    out.push('\n');
    for (label, cell) in rows {
        let _ = write!(out, "{label:<label_width$}");
        for (_, figures) in columns {
            let _ = write!(out, "{:>cell_width$}", cell(figures));
        }
        out.push('\n');
    }
    out
}

/// The last `max` characters of `s`, cut at a character boundary.
fn tail(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

/// One test as a JSON object for `--json`.
pub fn result_json(r: &TestResult, baseline: Option<(Outcome, &str)>) -> Value {
    let c = &r.case;
    let j = &r.judgement;
    let (exit_code, signal) = match &r.run.exit {
        Exit::Code(code) => (Some(*code), None),
        Exit::Signal(signal) => (None, Some(*signal)),
        _ => (None, None),
    };
    let reject_kind = match c.expected {
        Expected::Rejected(kind) => Some(kind.marker()),
        _ => None,
    };
    json!({
        "key": c.key(),
        "suite": c.suite.name(),
        "id": c.id,
        "dir": c.dir.to_string_lossy(),
        "args": command_args(c),
        "expected": c.expected.name(),
        "expected_reject_kind": reject_kind,
        "label": c.label.map(|l| l.name()),
        "expected_kinds": c.expected_kinds,
        "outcome": j.outcome.name(),
        "agrees": j.outcome.agrees(),
        "verdict": j.verdict.map(|v| v.name()),
        "exit_code": exit_code,
        "signal": signal,
        "timed_out": r.run.exit == Exit::TimedOut,
        "wall_ms": r.run.wall.as_millis() as u64,
        "max_rss_kib": r.run.max_rss_kib,
        "max_tree_rss_kib": r.run.max_tree_rss_kib,
        "detail": j.detail,
        "kinds": j.kinds,
        "confirmed": j.confirmed,
        "kind_match": j.kind_match,
        "fragments": j.fragments.iter()
            .map(|m| json!({"pattern": m.pattern, "matched": m.matched}))
            .collect::<Vec<_>>(),
        "baseline": baseline.map(|(o, reason)| json!({"outcome": o.name(), "reason": reason})),
        "stderr_tail": tail(&r.run.stderr, 2000),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::outcome::FragmentMatch;
    use crate::conformance::suite::{RejectKind, Suite};
    use std::path::PathBuf;

    fn result(expected: Expected, outcome: Outcome, ms: u64, confirmed: bool) -> TestResult {
        TestResult {
            case: TestCase {
                suite: Suite::EsbmcGpu,
                id: "t".into(),
                dir: PathBuf::from("/t"),
                file: "main.cu".into(),
                args: vec![],
                expected,
                expected_kinds: vec!["data-race".into()],
                fragments: vec![],
                label: None,
            },
            run: RawRun {
                exit: Exit::Code(0),
                stdout: String::new(),
                stderr: String::new(),
                wall: Duration::from_millis(ms),
                max_rss_kib: None,
                max_tree_rss_kib: None,
            },
            judgement: Judgement {
                outcome,
                verdict: None,
                detail: String::new(),
                kinds: vec![],
                confirmed,
                kind_match: Some(confirmed),
                fragments: vec![FragmentMatch {
                    pattern: "x".into(),
                    matched: true,
                }],
                frontend_ms: Some(ms as f64 / 2.0),
            },
        }
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let d: Vec<Duration> = (1..=20).map(Duration::from_secs).collect();
        assert_eq!(percentile(&d, 50), Some(Duration::from_secs(10)));
        assert_eq!(percentile(&d, 95), Some(Duration::from_secs(19)));
        assert_eq!(percentile(&d[..1], 95), Some(Duration::from_secs(1)));
        assert_eq!(percentile::<Duration>(&[], 50), None);
    }

    #[test]
    fn figures_count_the_right_denominators() {
        let rs = [
            result(Expected::Pass, Outcome::Proved, 10, false),
            result(Expected::Pass, Outcome::FalseAlarm, 15, true),
            result(Expected::Pass, Outcome::Crash, 20, false),
            result(Expected::Fail, Outcome::Found, 30, true),
            result(Expected::Fail, Outcome::Found, 40, false),
            result(Expected::Fail, Outcome::Missed, 50, false),
            result(Expected::Fail, Outcome::Rejected, 60, false),
            result(
                Expected::Rejected(RejectKind::Clang),
                Outcome::RejectedOk,
                70,
                false,
            ),
        ];
        let f = Figures::of(&rs);
        assert_eq!(f.total, 8);
        assert_eq!(f.pass_verified, Ratio { num: 1, den: 3 });
        assert_eq!(f.pass_confirmed, 1);
        assert_eq!(f.fail_found, Ratio { num: 2, den: 4 });
        assert_eq!(f.fail_confirmed, Ratio { num: 1, den: 4 });
        assert_eq!(f.kind_matched, Ratio { num: 1, den: 2 });
        assert_eq!(f.fragments_matched, Ratio { num: 2, den: 2 });
        assert_eq!(f.front_end, Ratio { num: 5, den: 7 });
        assert_eq!(f.agreeing, Ratio { num: 4, den: 8 });
        assert_eq!(f.missed, 1);
        assert_eq!(f.wall_median, Some(Duration::from_millis(30)));
        assert_eq!(f.wall_p95, Some(Duration::from_millis(70)));

        let all: Vec<&TestResult> = rs.iter().collect();
        let table = render_tables(&[("esbmc-gpu".into(), f)], &all);
        assert!(table
            .lines()
            .any(|l| l.starts_with("missed *") && l.contains(" 1 ")));
        assert!(table.contains("1/2  50.0%"));
        assert!(table
            .lines()
            .any(|l| l.starts_with("confirmed errors on pass tests") && l.ends_with(" 1")));
    }

    #[test]
    fn tail_cuts_at_char_boundaries() {
        assert_eq!(tail("abc", 5), "abc");
        assert_eq!(tail("aé", 1), "");
        assert_eq!(tail("abcdef", 2), "ef");
    }
}
