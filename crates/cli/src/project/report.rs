//! Files' reports as the project run handles them: the JSON object of
//! DESIGN.md that each file's check prints, read back and combined.

use std::path::Path;

use lockstep_diag::Verdict;
use serde_json::{json, Value};

/// The verdict named `name` (`unknown` for a name no check prints).
pub fn verdict_named(name: &str) -> Verdict {
    match name {
        "verified" => Verdict::Verified,
        "errors" => Verdict::Errors,
        "possible-errors" => Verdict::PossibleErrors,
        "rejected" => Verdict::Rejected,
        _ => Verdict::Unknown,
    }
}

/// A report's top-level verdict.
pub fn verdict_of(report: &Value) -> Verdict {
    verdict_named(report.get("verdict").and_then(Value::as_str).unwrap_or("unknown"))
}

/// The report of a file whose check gave no report of its own.
pub fn unknown(file: &Path, reason: &str) -> Value {
    json!({
        "file": file.display().to_string(),
        "verdict": "unknown",
        "kernels": [{"name": "*", "verdict": "unknown", "violations": [], "proved": [],
                     "reason": {"message": reason, "location": null}}],
        "assumptions": [],
        "elapsed_ms": 0,
        "error": null,
        "diagnostics": [],
    })
}

/// The worst verdict of a report's kernels, or `rejected` when it has an
/// error (DESIGN.md's order), or `unknown` when it has no kernel.
pub fn recompute_verdict(report: &Value) -> Verdict {
    if !report.get("error").map_or(true, Value::is_null) {
        return Verdict::Rejected;
    }
    let kernels = report.get("kernels").and_then(Value::as_array);
    match kernels {
        Some(ks) if !ks.is_empty() => {
            ks.iter().map(|k| verdict_named(k.get("verdict").and_then(Value::as_str).unwrap_or("unknown"))).max().unwrap_or(Verdict::Unknown)
        }
        _ => Verdict::Unknown,
    }
}

/// Combines a file's report with the report of one of its kernels checked
/// with flags of its own: that kernel's entry replaces the file report's.
/// A rejected kernel run (its flags are wrong) is an error of the file.
pub fn merge_kernel_run(mut base: Value, run: Value) -> Value {
    if !run.get("error").map_or(true, Value::is_null) {
        let error = run["error"].as_str().unwrap_or("").to_string();
        let previous = base.get("error").and_then(Value::as_str).map(str::to_string);
        base["error"] = json!(match previous {
            Some(p) => format!("{p}\n{error}"),
            None => error,
        });
    }
    let run_kernels = run.get("kernels").and_then(Value::as_array).cloned().unwrap_or_default();
    if let Some(kernels) = base.get_mut("kernels").and_then(Value::as_array_mut) {
        for k in run_kernels {
            let name = k.get("name").cloned();
            match kernels.iter_mut().find(|b| b.get("name") == name.as_ref()) {
                Some(slot) => *slot = k,
                None => kernels.push(k),
            }
        }
    }
    if let (Some(a), Some(b)) = (base.get_mut("assumptions").and_then(Value::as_array_mut), run.get("assumptions").and_then(Value::as_array)) {
        for x in b {
            if !a.contains(x) {
                a.push(x.clone());
            }
        }
    }
    let elapsed = base.get("elapsed_ms").and_then(Value::as_u64).unwrap_or(0) + run.get("elapsed_ms").and_then(Value::as_u64).unwrap_or(0);
    base["elapsed_ms"] = json!(elapsed);
    let verdict = recompute_verdict(&base);
    base["verdict"] = json!(verdict.name());
    base
}

/// A one-line reason a file was rejected: its error's first line.
pub fn rejection(report: &Value) -> String {
    report.get("error").and_then(Value::as_str).and_then(|e| e.lines().next()).unwrap_or("rejected").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_run_replaces_the_kernels_entry() {
        let base = json!({"verdict": "errors", "error": null, "assumptions": [],
            "kernels": [{"name": "a", "verdict": "errors"}, {"name": "b", "verdict": "verified"}]});
        let run = json!({"verdict": "verified", "error": null, "assumptions": ["x"], "kernels": [{"name": "a", "verdict": "verified"}]});
        let merged = merge_kernel_run(base, run);
        assert_eq!(merged["verdict"], "verified");
        assert_eq!(merged["assumptions"], json!(["x"]));
        let empty = json!({"verdict": "unknown", "error": null, "kernels": []});
        assert_eq!(recompute_verdict(&empty), Verdict::Unknown);
    }
}
