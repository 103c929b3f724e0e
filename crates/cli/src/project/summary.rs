//! The end of a project run: its verdict (the worst of its files', after
//! suppressions), the human listing of its findings with the summary
//! table, and the one JSON document of `--format=json`.

use std::fmt::Write;

use lockstep_diag::Verdict;
use serde_json::{json, Value};

use super::inputs::display;
use super::parallel::Outcome;
use super::report::{rejection, verdict_named, verdict_of};
use super::suppress::all_suppressed;

/// A file's verdict for the run's exit status: its reported verdict, where
/// a kernel whose findings are all suppressed or baselined no longer
/// counts as failing (but is not `verified` either: see `suppress`).
pub fn effective_verdict(report: &Value) -> Verdict {
    let reported = verdict_of(report);
    if reported == Verdict::Rejected {
        return reported;
    }
    let kernels = report.get("kernels").and_then(Value::as_array);
    let Some(kernels) = kernels.filter(|k| !k.is_empty()) else { return reported };
    kernels
        .iter()
        .map(|k| {
            let v = verdict_named(k.get("verdict").and_then(Value::as_str).unwrap_or("unknown"));
            match v {
                Verdict::Errors | Verdict::PossibleErrors if all_suppressed(k) => Verdict::Verified,
                other => other,
            }
        })
        .max()
        .unwrap_or(reported)
}

/// The run's figures.
pub struct Summary<'a> {
    pub outcomes: &'a [Outcome],
    pub elapsed_ms: u64,
    pub jobs: usize,
    pub interrupted: bool,
    /// Notes of the run (flags a compile database had that were ignored...).
    pub notes: &'a [String],
}

impl Summary<'_> {
    /// The worst effective verdict of the files (`unknown` for none).
    pub fn verdict(&self) -> Verdict {
        // Nothing checked is nothing verified (as a file without kernels).
        if self.outcomes.is_empty() {
            return Verdict::Unknown;
        }
        let worst = self.outcomes.iter().map(|o| effective_verdict(&o.report)).max().unwrap_or(Verdict::Verified);
        if self.interrupted {
            worst.max(Verdict::Unknown)
        } else {
            worst
        }
    }

    fn counts(&self) -> Vec<(&'static str, usize)> {
        let all = [Verdict::Verified, Verdict::Errors, Verdict::PossibleErrors, Verdict::Unknown, Verdict::Rejected];
        all.iter().map(|v| (v.name(), self.outcomes.iter().filter(|o| verdict_of(&o.report) == *v).count())).collect()
    }

    fn violations(&self) -> impl Iterator<Item = &Value> {
        self.outcomes
            .iter()
            .flat_map(|o| o.report.get("kernels").and_then(Value::as_array).into_iter().flatten())
            .flat_map(|k| k.get("violations").and_then(Value::as_array).into_iter().flatten())
    }

    fn suppressed(&self, kind: &str) -> usize {
        self.violations().filter(|v| v["suppression"]["kind"] == kind).count()
    }

    fn slowest(&self, n: usize) -> Vec<&Outcome> {
        let mut by_time: Vec<&Outcome> = self.outcomes.iter().filter(|o| !o.cached).collect();
        by_time.sort_by(|a, b| b.wall_ms.cmp(&a.wall_ms));
        by_time.truncate(n);
        by_time
    }

    /// The JSON document of the run: every file's report, and the figures.
    pub fn json(&self) -> String {
        let files: Vec<Value> = self
            .outcomes
            .iter()
            .map(|o| {
                let mut r = o.report.clone();
                r["cached"] = json!(o.cached);
                r["wall_ms"] = json!(o.wall_ms);
                r
            })
            .collect();
        let value = json!({
            "verdict": self.verdict().name(),
            "files": files,
            "summary": {
                "files": self.outcomes.len(),
                "verdicts": self.counts().into_iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
                "findings": self.violations().count(),
                "suppressed": self.suppressed("inSource"),
                "baselined": self.suppressed("external"),
                "cached": self.outcomes.iter().filter(|o| o.cached).count(),
                "slowest": self.slowest(10).iter().map(|o| json!({"file": o.file.display().to_string(), "wall_ms": o.wall_ms})).collect::<Vec<_>>(),
                "rejected": self.outcomes.iter().filter(|o| verdict_of(&o.report) == Verdict::Rejected)
                    .map(|o| json!({"file": o.file.display().to_string(), "error": rejection(&o.report)})).collect::<Vec<_>>(),
            },
            "notes": self.notes,
            "jobs": self.jobs,
            "interrupted": self.interrupted,
            "elapsed_ms": self.elapsed_ms,
            "error": null,
        });
        serde_json::to_string_pretty(&value).expect("a JSON value always serialises")
    }

    /// The human listing: each finding in compiler style, each undecided
    /// kernel with its reason, then the summary table.
    pub fn human(&self) -> String {
        let mut out = String::new();
        let mut sorted: Vec<&Outcome> = self.outcomes.iter().collect();
        sorted.sort_by(|a, b| a.file.cmp(&b.file));
        let loc = |l: &Value| -> Option<String> {
            let file = l.get("file")?.as_str()?;
            let rel = display(std::path::Path::new(file));
            Some(format!("{rel}:{}:{}", l.get("line")?.as_u64()?, l.get("column").and_then(Value::as_u64).unwrap_or(0)))
        };
        for o in &sorted {
            let name = display(&o.file);
            if verdict_of(&o.report) == Verdict::Rejected {
                let _ = writeln!(out, "{name}: rejected: {}", o.report.get("error").and_then(Value::as_str).unwrap_or(""));
                continue;
            }
            for k in o.report.get("kernels").and_then(Value::as_array).into_iter().flatten() {
                let kernel = k.get("name").and_then(Value::as_str).unwrap_or("?");
                for v in k.get("violations").and_then(Value::as_array).into_iter().flatten() {
                    let level = if v.get("confirmed").and_then(Value::as_bool) == Some(true) { "error" } else { "warning" };
                    let at = loc(&v["primary"]).unwrap_or_else(|| name.clone());
                    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
                    let message = v.get("message").and_then(Value::as_str).unwrap_or("");
                    let suppressed = match v["suppression"]["reason"].as_str() {
                        Some(r) => format!(" [suppressed: {r}]"),
                        None => String::new(),
                    };
                    let _ = writeln!(out, "{at}: {level}[{kind}]: kernel `{kernel}`: {message}{suppressed}");
                    for r in v.get("related").and_then(Value::as_array).into_iter().flatten() {
                        if let Some(at) = loc(r) {
                            let _ = writeln!(out, "  {at}: note: {}", r.get("message").and_then(Value::as_str).unwrap_or(""));
                        }
                    }
                }
                if let Some(reason) = k["reason"]["message"].as_str() {
                    let at = loc(&k["reason"]["location"]).unwrap_or_else(|| name.clone());
                    let _ = writeln!(out, "{at}: {}: kernel `{kernel}`: {reason}", k.get("verdict").and_then(Value::as_str).unwrap_or("unknown"));
                }
            }
        }
        if !out.is_empty() {
            out.push('\n');
        }
        let counts: Vec<String> = self.counts().into_iter().map(|(k, n)| format!("{n} {k}")).collect();
        let cached = self.outcomes.iter().filter(|o| o.cached).count();
        let _ = writeln!(
            out,
            "{} {} files in {:.1} s (-j {}): {} ({cached} from the cache)",
            if self.interrupted { "interrupted after" } else { "checked" },
            self.outcomes.len(),
            self.elapsed_ms as f64 / 1000.0,
            self.jobs,
            counts.join(", ")
        );
        let (suppressed, baselined) = (self.suppressed("inSource"), self.suppressed("external"));
        if suppressed + baselined > 0 {
            let _ = writeln!(out, "findings: {} ({suppressed} suppressed in the source, {baselined} in the baseline)", self.violations().count());
        }
        let slowest = self.slowest(5);
        if !slowest.is_empty() {
            let _ = writeln!(out, "slowest files:");
            for o in slowest {
                let _ = writeln!(out, "  {:>8.1} s  {:<15}  {}", o.wall_ms as f64 / 1000.0, verdict_of(&o.report).name(), display(&o.file));
            }
        }
        let rejected: Vec<&&Outcome> = sorted.iter().filter(|o| verdict_of(&o.report) == Verdict::Rejected).collect();
        if !rejected.is_empty() {
            let _ = writeln!(out, "rejected files:");
            for o in rejected {
                let _ = writeln!(out, "  {}: {}", display(&o.file), rejection(&o.report));
            }
        }
        for n in self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let _ = writeln!(out, "verdict: {}", self.verdict().name());
        out
    }
}
