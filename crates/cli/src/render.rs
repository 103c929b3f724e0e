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
        "primary_label": v.primary_label,
        "related": v.related.iter().map(|r| json!({"file": r.span.file, "line": r.span.line, "column": r.span.column, "message": r.label})).collect::<Vec<_>>(),
        "witness": v.witness.as_ref().map(witness_json),
    })
}

fn kernel_json(k: &KernelReport) -> Value {
    let mut v = json!({
        "name": k.name,
        "verdict": k.verdict.name(),
        "violations": k.violations.iter().map(violation_json).collect::<Vec<_>>(),
        "proved": k.proved,
        "reason": k.reason.as_ref().map(|(r, s)| json!({"message": r, "location": span_json(s)})),
    });
    if k.uncalled_function {
        v["uncalled_function"] = json!(true);
    }
    v
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

/// A SARIF 2.1.0 log (the format code-scanning services read): one run,
/// one result per violation. A confirmed violation is an `error`, an
/// unconfirmed prover alarm a `warning`; the witness, the kernel and
/// whether a replay confirmed the violation go in the result's
/// `properties`. Kernels that ended `unknown`, and the front-end's
/// diagnostics, are the invocation's notifications, and the verdicts are
/// the run's `properties`, so that no outcome is lost.
pub fn sarif(report: &Report) -> String {
    let location = |span: &Span, message: Option<&str>| {
        let mut loc = json!({
            "physicalLocation": {
                "artifactLocation": {"uri": display_path(&span.file)},
                "region": {"startLine": span.line.max(1), "startColumn": span.column.max(1)},
            }
        });
        if let Some(m) = message {
            loc["message"] = json!({"text": m});
        }
        loc
    };
    let mut rules: Vec<&'static str> = Vec::new();
    let mut results = Vec::new();
    for k in &report.kernels {
        for v in &k.violations {
            let kind = v.kind.name();
            if !rules.contains(&kind) {
                rules.push(kind);
            }
            let mut result = json!({
                "ruleId": kind,
                "level": if v.confirmed { "error" } else { "warning" },
                "message": {"text": v.message},
                "locations": v.primary.iter().map(|s| location(s, v.primary_label.as_deref())).collect::<Vec<_>>(),
                "relatedLocations": v.related.iter().enumerate().map(|(i, r)| {
                    let mut loc = location(&r.span, Some(&r.label));
                    loc["id"] = json!(i);
                    loc
                }).collect::<Vec<_>>(),
                "properties": {"kernel": k.name, "confirmed": v.confirmed},
            });
            if let Some(w) = &v.witness {
                result["properties"]["witness"] = witness_json(w);
            }
            results.push(result);
        }
    }
    let mut notifications: Vec<Value> = report
        .errors
        .iter()
        .chain(&report.notes)
        .map(|d| {
            let level = match d.severity.name() {
                "error" => "error",
                "warning" => "warning",
                _ => "note",
            };
            let mut n = json!({"level": level, "message": {"text": d.message}});
            if let Some(s) = &d.span {
                n["locations"] = json!([location(s, None)]);
            }
            n
        })
        .collect();
    for k in &report.kernels {
        if let Some((reason, span)) = &k.reason {
            let mut n = json!({"level": "warning", "message": {"text": format!("kernel `{}`: {}: {reason}", k.name, k.verdict.name())}});
            if let Some(s) = span {
                n["locations"] = json!([location(s, None)]);
            }
            notifications.push(n);
        }
    }
    let invocation = json!({
        "executionSuccessful": report.errors.is_empty(),
        "toolExecutionNotifications": notifications,
    });
    let properties = json!({
        "verdict": report.verdict().name(),
        "kernels": report.kernels.iter().map(|k| json!({"name": k.name, "verdict": k.verdict.name(), "proved": k.proved})).collect::<Vec<_>>(),
        "assumptions": report.assumptions,
        "elapsed_ms": report.elapsed_ms,
    });
    sarif_log(&rules, results, invocation, properties)
}

/// A SARIF 2.1.0 log of one lockstep run: its rules (by id), results, one
/// invocation and the run's properties.
pub fn sarif_log(rules: &[&str], results: Vec<Value>, invocation: Value, properties: Value) -> String {
    let value = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "lockstep",
                "version": env!("CARGO_PKG_VERSION"),
                // SARIF wants a rule's `name` readable and different from
                // its opaque `id` (the multitool's SARIF1001): `DataRace`.
                "rules": rules.iter().map(|r| json!({"id": r, "name": rule_display_name(r)})).collect::<Vec<_>>(),
            }},
            "invocations": [invocation],
            "results": results,
            "properties": properties,
        }],
    });
    serde_json::to_string_pretty(&value).expect("a JSON value always serialises")
}

/// A rule's readable name: `data-race` is `DataRace`.
fn rule_display_name(id: &str) -> String {
    id.split('-').map(|w| {
        let mut c = w.chars();
        c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
    }).collect()
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

/// Human-readable text: compiler-style diagnostics; per kernel its verdict,
/// each violation as a source snippet with both locations annotated (as
/// rustc renders errors) and its witness as a table; then the file's
/// verdict.
pub fn human(report: &Report, styled: bool) -> String {
    let mut out = String::new();
    let mut sources = Sources::default();
    for d in report.errors.iter().chain(&report.notes) {
        let _ = writeln!(out, "{}", relative_diag(d));
    }
    for k in &report.kernels {
        if k.uncalled_function {
            let _ = writeln!(out, "function `{}` (called by no kernel): {}", k.name, k.verdict);
        } else {
            let _ = writeln!(out, "kernel `{}`: {}", k.name, k.verdict);
        }
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
            out.push_str(&violation_snippet(v, &mut sources, styled));
            if let Some(w) = &v.witness {
                out.push_str(&witness_table(w));
            }
            out.push('\n');
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
    let _ = writeln!(out, "{}: {} ({} ms)", display_path(&report.file), report.verdict(), report.elapsed_ms);
    out
}

/// Source files read once per report, for snippets.
#[derive(Default)]
struct Sources {
    files: std::collections::HashMap<String, Option<String>>,
}

impl Sources {
    fn get(&mut self, path: &str) -> Option<&str> {
        self.files.entry(path.to_string()).or_insert_with(|| std::fs::read_to_string(path).ok()).as_deref()
    }
}

/// The byte range a span points at: from its column to the end of the
/// identifier or number there (at least one character).
fn span_range(source: &str, span: &Span) -> Option<std::ops::Range<usize>> {
    let line_start: usize = source.split_inclusive('\n').take(span.line.saturating_sub(1) as usize).map(str::len).sum();
    let line = source[line_start..].lines().next()?;
    let col = (span.column.max(1) - 1) as usize;
    if col > line.len() {
        return None;
    }
    let rest = &line[col..];
    // An identifier or number, or else a run of operator characters (`+=`).
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let operator = |c: char| "+-*/%&|^!<>=~".contains(c);
    let len = match rest.chars().next() {
        Some(c) if word(c) => rest.find(|c: char| !word(c)).unwrap_or(rest.len()),
        Some(c) if operator(c) => rest.find(|c: char| !operator(c)).unwrap_or(rest.len()),
        _ => 1,
    }
    .max(1);
    let start = line_start + col;
    Some(start..(start + len).min(source.len()))
}

fn violation_snippet(v: &Violation, sources: &mut Sources, styled: bool) -> String {
    use annotate_snippets::{Level, Renderer, Snippet};
    let level = if v.confirmed { Level::Error } else { Level::Warning };
    let possible = !v.confirmed && !v.message.starts_with("possible");
    let title = format!("{}{}", if possible { "possible " } else { "" }, v.message);
    let id = v.kind.name();
    let renderer = if styled { Renderer::styled() } else { Renderer::plain() };
    let Some(primary) = &v.primary else {
        return format!("{}\n", renderer.render(level.title(&title).id(id)));
    };
    let path = display_path(&primary.file);
    let source = sources.get(&primary.file).map(str::to_string);
    let related_labels: Vec<(Span, String)> = v.related.iter().map(|r| (r.span.clone(), r.label.clone())).collect();
    let mut footers = Vec::new();
    let rendered = match source.as_deref().and_then(|src| span_range(src, primary).map(|r| (src, r))) {
        Some((src, range)) => {
            let primary_annotation = match &v.primary_label {
                Some(label) => level.span(range).label(label),
                None => level.span(range),
            };
            let mut snippet = Snippet::source(src).origin(&path).fold(true).annotation(primary_annotation);
            for (span, label) in &related_labels {
                match (span.file == primary.file).then(|| span_range(src, span)).flatten() {
                    Some(r) => snippet = snippet.annotation(Level::Info.span(r).label(label)),
                    None => footers.push(format!("{}: {label}", relative(span))),
                }
            }
            let footer_messages: Vec<_> = footers.iter().map(|f| Level::Note.title(f)).collect();
            renderer.render(level.title(&title).id(id).snippet(snippet).footers(footer_messages)).to_string()
        }
        None => {
            let mut text = format!("{}: {}", relative(primary), renderer.render(level.title(&title).id(id)));
            for (span, label) in &related_labels {
                text.push_str(&format!("\n  {}: {label}", relative(span)));
            }
            text
        }
    };
    format!("{rendered}\n")
}

fn dims(d: [u64; 3]) -> String {
    format!("({},{},{})", d[0], d[1], d[2])
}

/// The witness as a small table under the snippet.
fn witness_table(w: &Witness) -> String {
    let mut rows: Vec<(String, String)> = Vec::new();
    if let (Some(b), Some(g)) = (w.block_dim, w.grid_dim) {
        rows.push(("launch".into(), format!("blockDim {}, gridDim {}", dims(b), dims(g))));
    }
    for (i, t) in w.threads.iter().enumerate() {
        rows.push((format!("thread {}", i + 1), format!("threadIdx {}, blockIdx {}", dims(t.local_id), dims(t.group_id))));
    }
    for (name, value) in &w.args {
        rows.push((format!("arg {name}"), value.clone()));
    }
    for (cell, value) in &w.memory {
        rows.push((cell.clone(), value.clone()));
    }
    if rows.is_empty() {
        return String::new();
    }
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut out = String::from("   = witness:\n");
    for (k, v) in rows {
        let _ = writeln!(out, "       {k:<width$}  {v}");
    }
    out
}
