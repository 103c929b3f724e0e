//! Renderers of a `Report`: one per output format. This is the only code
//! that knows output formats (DESIGN.md).

use std::fmt::Write;

use lockstep_diag::{Diagnostic, KernelReport, Report, Span, Verdict, Violation, Witness};
use serde_json::{json, Value};

fn span_json(span: &Option<Span>) -> Value {
    match span {
        Some(s) => json!({"file": s.file, "line": s.line, "column": s.column}),
        None => Value::Null,
    }
}

fn witness_json(w: &Witness) -> Value {
    json!({
        "block_dim": w.block_dim,
        "grid_dim": w.grid_dim,
        "threads": w.threads.iter().map(|t| json!({"local_id": t.local_id, "group_id": t.group_id})).collect::<Vec<_>>(),
        "args": w.args.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
        "memory": w.memory.iter().map(|(k, v)| json!({"cell": k, "value": v})).collect::<Vec<_>>(),
    })
}

fn violation_json(v: &Violation) -> Value {
    json!({
        "kind": v.kind.name(),
        "confirmed": v.confirmed,
        "message": v.message,
        "primary": span_json(&v.primary),
        "related": v.related.iter().map(|r| json!({"file": r.span.file, "line": r.span.line, "column": r.span.column, "message": r.label})).collect::<Vec<_>>(),
        "witness": v.witness.as_ref().map(witness_json),
    })
}

fn kernel_json(k: &KernelReport) -> Value {
    json!({
        "name": k.name,
        "verdict": k.verdict.name(),
        "violations": k.violations.iter().map(violation_json).collect::<Vec<_>>(),
        "proved": k.proved,
        "reason": k.reason.as_ref().map(|(r, s)| json!({"message": r, "location": span_json(s)})),
    })
}

fn diagnostic_json(d: &Diagnostic) -> Value {
    json!({"severity": d.severity.name(), "message": d.message, "location": span_json(&d.span)})
}

/// The JSON object of DESIGN.md: exactly one per run, on stdout.
pub fn json(report: &Report) -> String {
    let error = if report.errors.is_empty() {
        Value::Null
    } else {
        Value::String(report.errors.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))
    };
    let value = json!({
        "file": report.file,
        "verdict": report.verdict().name(),
        "kernels": report.kernels.iter().map(kernel_json).collect::<Vec<_>>(),
        "assumptions": report.assumptions,
        "elapsed_ms": report.elapsed_ms,
        "timings_ms": report.timings.iter().map(|(k, v)| (k.clone(), json!((v * 1000.0).round() / 1000.0))).collect::<serde_json::Map<_, _>>(),
        "error": error,
        "diagnostics": report.errors.iter().chain(&report.notes).map(diagnostic_json).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&value).expect("a JSON value always serialises")
}

/// A path as the user would write it: relative to the working directory
/// when it lies below it, like a compiler's messages.
fn display_path(path: &str) -> String {
    if let Ok(cwd) = std::env::current_dir() {
        if let Ok(rest) = std::path::Path::new(path).strip_prefix(&cwd) {
            return rest.display().to_string();
        }
    }
    path.to_string()
}

fn relative(span: &Span) -> Span {
    Span { file: display_path(&span.file), ..span.clone() }
}

pub fn relative_diag(d: &Diagnostic) -> Diagnostic {
    Diagnostic { span: d.span.as_ref().map(relative), ..d.clone() }
}

/// Human-readable text: compiler-style diagnostics, then one line per
/// kernel and the file's verdict.
pub fn human(report: &Report) -> String {
    let mut out = String::new();
    for d in report.errors.iter().chain(&report.notes) {
        let _ = writeln!(out, "{}", relative_diag(d));
    }
    for k in &report.kernels {
        let _ = writeln!(out, "kernel `{}`: {}", k.name, k.verdict);
        if let Some((reason, span)) = &k.reason {
            match span {
                Some(s) => {
                    let _ = writeln!(out, "  {}: {reason}", relative(s));
                }
                None => {
                    let _ = writeln!(out, "  {reason}");
                }
            }
        }
        for v in &k.violations {
            let confirmed = if v.confirmed { "confirmed" } else { "possible" };
            let at = v.primary.as_ref().map(|s| format!("{}: ", relative(s))).unwrap_or_default();
            let _ = writeln!(out, "  {at}{confirmed} {}: {}", v.kind.name(), v.message);
            for r in &v.related {
                let _ = writeln!(out, "    {}: {}", relative(&r.span), r.label);
            }
        }
        for p in &k.proved {
            let _ = writeln!(out, "  proved: {p}");
        }
    }
    if report.verdict() == Verdict::Verified && !report.assumptions.is_empty() {
        let _ = writeln!(out, "assuming:");
        for a in &report.assumptions {
            let _ = writeln!(out, "  - {a}");
        }
    }
    let _ = writeln!(out, "{}: {} ({} ms)", report.file, report.verdict(), report.elapsed_ms);
    out
}
