//! Findings a project has accepted: in-source suppressions with a reason,
//! and a baseline file of known findings.
//!
//! A suppression is a comment `// lockstep: allow(data-race) the reason`
//! (several kinds separated by commas, or `all`) on a line of the finding
//! (its primary line or one of its related lines, such as a race's other
//! access), on the line above it, or above the kernel's declaration for
//! every finding of that kernel. A suppression without a reason is not
//! honoured, and says so. The baseline (`--write-baseline`) records each
//! finding by file, kernel, kind and the text of its line, so that findings
//! survive edits that move lines, and a new finding fails the run.
//!
//! A suppressed or baselined finding stays in the report, marked with its
//! `suppression`; it no longer counts towards the run's exit status. The
//! kernel's verdict is not changed: a kernel with a suppressed race is not
//! `verified`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The suppression comments of one file: line (1-based) to the kinds it
/// allows and the reason (empty when none was given), and whether the
/// comment stands alone on its line (it then covers the line below).
fn suppressions(text: &str) -> HashMap<u32, (Vec<String>, String, bool)> {
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find("lockstep: allow(") else { continue };
        let rest = &line[at + "lockstep: allow(".len()..];
        let Some(close) = rest.find(')') else { continue };
        let kinds = rest[..close].split(',').map(|k| k.trim().to_string()).filter(|k| !k.is_empty()).collect();
        let reason = rest[close + 1..].trim().trim_end_matches("*/").trim().to_string();
        let alone = line.trim_start().starts_with("//") || line.trim_start().starts_with("/*");
        out.insert(i as u32 + 1, (kinds, reason, alone));
    }
    out
}

/// The line where kernel `name` is declared: the line with its name and a
/// `(` that is, or follows, a line with `__global__` or `__kernel`.
fn kernel_line(lines: &[&str], name: &str) -> Option<u32> {
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find(name) else { continue };
        let after = line[at + name.len()..].trim_start();
        let before_ok = line[..at].chars().last().map_or(true, |c| !(c.is_alphanumeric() || c == '_'));
        if !before_ok || !after.starts_with('(') {
            continue;
        }
        let qualified = |l: &str| l.contains("__global__") || l.contains("__kernel") || l.contains("kernel void");
        if qualified(line) || (i > 0 && qualified(lines[i - 1])) {
            return Some(if qualified(line) { i as u32 + 1 } else { i as u32 });
        }
    }
    None
}

/// Whether a suppression's kinds cover `kind`.
fn allows(kinds: &[String], kind: &str) -> bool {
    kinds.iter().any(|k| k == kind || k == "all")
}

/// The primary and related lines of a violation in `file`.
fn violation_lines(v: &Value, file: &str) -> Vec<u32> {
    let mut lines = Vec::new();
    let mut add = |loc: &Value| {
        let same_file = loc.get("file").and_then(Value::as_str).map_or(true, |f| f == file || Path::new(f).ends_with(file) || Path::new(file).ends_with(f));
        if let (true, Some(l)) = (same_file, loc.get("line").and_then(Value::as_u64)) {
            lines.push(l as u32);
        }
    };
    add(&v["primary"]);
    for r in v.get("related").and_then(Value::as_array).into_iter().flatten() {
        add(r);
    }
    lines
}

/// The text of `line` (1-based) of `lines`, trimmed.
fn line_text<'a>(lines: &[&'a str], line: u32) -> &'a str {
    line.checked_sub(1).and_then(|i| lines.get(i as usize)).map_or("", |l| l.trim())
}

/// The baseline fingerprint of a violation of `kernel` in `file` (shown
/// relative to `root`).
fn fingerprint(root: &Path, file: &Path, kernel: &str, v: &Value, lines: &[&str]) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file).display().to_string();
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    let line = v["primary"].get("line").and_then(Value::as_u64).unwrap_or(0) as u32;
    format!("{rel}|{kernel}|{kind}|{}", line_text(lines, line))
}

/// Marks the suppressed and baselined violations of a file's report, adds
/// a note for each suppression without a reason, and returns the run's
/// findings of this file as baseline fingerprints.
pub fn apply(report: &mut Value, file: &Path, root: &Path, baseline: &BTreeSet<String>) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let comments = suppressions(&text);
    let file_name = file.display().to_string();
    let mut notes = Vec::new();
    let mut prints = Vec::new();
    let Some(kernels) = report.get_mut("kernels").and_then(Value::as_array_mut) else { return prints };
    for k in kernels.iter_mut() {
        let name = k.get("name").and_then(Value::as_str).unwrap_or("").to_string();
        let kernel_at = kernel_line(&lines, &name);
        let Some(violations) = k.get_mut("violations").and_then(Value::as_array_mut) else { continue };
        for v in violations.iter_mut() {
            let kind = v.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
            // (line, whether a comment there must stand alone to count)
            let mut candidates: Vec<(u32, bool)> = violation_lines(v, &file_name).into_iter().flat_map(|l| [(l, false), (l.saturating_sub(1), true)]).collect();
            if let Some(at) = kernel_at {
                candidates.extend([(at, false), (at.saturating_sub(1), true), (at.saturating_sub(2), true)]);
            }
            let found = candidates.iter().find_map(|(l, needs_alone)| {
                comments.get(l).filter(|(kinds, _, alone)| allows(kinds, &kind) && (*alone || !needs_alone)).map(|c| (*l, c))
            });
            let print = fingerprint(root, file, &name, v, &lines);
            match found {
                Some((_, (_, reason, _))) if !reason.is_empty() => v["suppression"] = json!({"kind": "inSource", "reason": reason}),
                Some((line, _)) => notes.push(json!({
                    "severity": "warning",
                    "message": format!("the suppression of `{kind}` has no reason, so it is not honoured: write `// lockstep: allow({kind}) WHY`"),
                    "location": {"file": file_name, "line": line, "column": 0},
                })),
                None => {}
            }
            if v.get("suppression").is_none() && baseline.contains(&print) {
                v["suppression"] = json!({"kind": "external", "reason": "in the baseline"});
            }
            // A finding suppressed in the source needs no baseline entry.
            if v["suppression"]["kind"] != "inSource" {
                prints.push(print);
            }
        }
    }
    if let Some(d) = report.get_mut("diagnostics").and_then(Value::as_array_mut) {
        d.extend(notes);
    }
    prints
}

/// Whether every violation of a kernel entry is suppressed (so that its
/// `errors` or `possible-errors` no longer fail the run).
pub fn all_suppressed(kernel: &Value) -> bool {
    let vs = kernel.get("violations").and_then(Value::as_array);
    vs.is_some_and(|vs| !vs.is_empty() && vs.iter().all(|v| v.get("suppression").is_some()))
}

/// Reads a baseline file (a JSON object with a `findings` list).
pub fn load_baseline(path: &Path) -> Result<BTreeSet<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not a lockstep baseline: {e}", path.display()))?;
    let findings = value.get("findings").and_then(Value::as_array).ok_or_else(|| format!("{}: not a lockstep baseline (no `findings`)", path.display()))?;
    Ok(findings.iter().filter_map(|f| f.as_str().map(str::to_string)).collect())
}

/// Writes the findings of a run as a baseline.
pub fn write_baseline(path: &PathBuf, findings: &BTreeSet<String>) -> Result<(), String> {
    let value = json!({
        "comment": "findings lockstep reports that do not fail `lockstep check` (written by --write-baseline): file|kernel|kind|line text",
        "findings": findings.iter().collect::<Vec<_>>(),
    });
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_suppressions_and_kernel_lines() {
        let text = "// lockstep: allow(data-race) benign: every thread writes the same value\n__global__ void k(int *a) {\n  a[0] = 1; // lockstep: allow(assertion)\n}\n";
        let s = suppressions(text);
        assert_eq!(s[&1], (vec!["data-race".to_string()], "benign: every thread writes the same value".to_string(), true));
        assert_eq!(s[&3].1, "");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(kernel_line(&lines, "k"), Some(2));
        assert_eq!(kernel_line(&lines, "a"), None);
    }

    #[test]
    fn marks_suppressed_and_baselined_violations() {
        let dir = std::env::temp_dir().join(format!("lockstep-suppress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.cu");
        std::fs::write(&file, "__global__ void k(int *a) {\n  a[0] = threadIdx.x; // lockstep: allow(data-race) tested\n  a[1] = threadIdx.x;\n}\n").unwrap();
        let v = |line: u32| json!({"kind": "data-race", "primary": {"file": file.display().to_string(), "line": line, "column": 3}, "related": []});
        let mut report = json!({"kernels": [{"name": "k", "verdict": "errors", "violations": [v(2), v(3)]}], "diagnostics": []});
        let prints = apply(&mut report, &file, &dir, &BTreeSet::new());
        assert_eq!(report["kernels"][0]["violations"][0]["suppression"]["reason"], "tested");
        assert!(report["kernels"][0]["violations"][1].get("suppression").is_none());
        assert!(!all_suppressed(&report["kernels"][0]));
        assert_eq!(prints, vec!["k.cu|k|data-race|a[1] = threadIdx.x;"]);
        let baseline: BTreeSet<String> = prints.into_iter().collect();
        let mut again = json!({"kernels": [{"name": "k", "verdict": "errors", "violations": [v(2), v(3)]}], "diagnostics": []});
        apply(&mut again, &file, &dir, &baseline);
        assert!(all_suppressed(&again["kernels"][0]));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
