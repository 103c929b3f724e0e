//! `lockstep lsp`: a language server over stdio, for editors.
//!
//! A file is checked when it is opened and each time it is saved, in the
//! background (a child `lockstep check FILE --format=json`, with the flags
//! its project's `lockstep.toml` gives), and a newer save cancels the
//! check still running for that file. The findings are published as
//! diagnostics: a violation on its line, and on the other line of a race
//! too, each pointing at the other and carrying the witness in the related
//! information; an `unknown` kernel's reason is information; a rejected
//! file's compiler errors are errors. What is checked is the file on disk
//! (the last save), not unsaved edits.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use lsp_server::{Connection, Message, Notification, Response};
use serde_json::{json, Value};

use crate::project::parallel::{self, Interrupt};

/// `file:///a%20b.cu` to `/a b.cu`.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&rest[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// `/a b.cu` to `file:///a%20b.cu`.
pub fn path_to_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.display().to_string().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// An LSP range covering `line` (1-based) of `lines` from `column` (1-based).
fn range(lines: &[String], line: u64, column: u64) -> Value {
    let l = line.saturating_sub(1);
    let len = lines.get(l as usize).map_or(1, |t| t.chars().count() as u64);
    let start = column.saturating_sub(1).min(len);
    let start = if column == 0 { lines.get(l as usize).map_or(0, |t| (t.len() - t.trim_start().len()) as u64) } else { start };
    json!({"start": {"line": l, "character": start}, "end": {"line": l, "character": len.max(start + 1)}})
}

/// A one-line account of a witness: launch, threads and arguments.
fn witness_text(w: &Value) -> String {
    let triple = |v: &Value| v.as_array().map(|a| a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")).unwrap_or_default();
    let mut parts = Vec::new();
    if !w["block_dim"].is_null() {
        parts.push(format!("blockDim=({}) gridDim=({})", triple(&w["block_dim"]), triple(&w["grid_dim"])));
    }
    for t in w.get("threads").and_then(Value::as_array).into_iter().flatten() {
        parts.push(format!("thread ({}) of block ({})", triple(&t["local_id"]), triple(&t["group_id"])));
    }
    for a in w.get("args").and_then(Value::as_array).into_iter().flatten() {
        parts.push(format!("{} = {}", a["name"].as_str().unwrap_or(""), a["value"].as_str().unwrap_or("")));
    }
    format!("witness: {}", parts.join("; "))
}

/// The diagnostics of `file` from its check's JSON report.
pub fn diagnostics(file: &Path, report: &Value) -> Vec<Value> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let here = |loc: &Value| loc.get("file").and_then(Value::as_str).is_some_and(|f| Path::new(f) == file || file.ends_with(f));
    let info = |loc: &Value, message: &str| {
        let f = loc.get("file").and_then(Value::as_str).unwrap_or("");
        let path = crate::project::inputs::absolute(Path::new(f));
        let other: Vec<String> = std::fs::read_to_string(&path).unwrap_or_default().lines().map(str::to_string).collect();
        json!({"location": {"uri": path_to_uri(&path), "range": range(&other, loc["line"].as_u64().unwrap_or(1), loc["column"].as_u64().unwrap_or(0))}, "message": message})
    };
    let mut out = Vec::new();
    for k in report.get("kernels").and_then(Value::as_array).into_iter().flatten() {
        let kernel = k["name"].as_str().unwrap_or("");
        for v in k.get("violations").and_then(Value::as_array).into_iter().flatten() {
            let kind = v["kind"].as_str().unwrap_or("");
            let severity = if v["confirmed"] == true { 1 } else { 2 };
            let message = format!("{kind} in kernel `{kernel}`: {}", v["message"].as_str().unwrap_or(""));
            let related: Vec<&Value> = v.get("related").and_then(Value::as_array).into_iter().flatten().collect();
            let primary = &v["primary"];
            let mut related_info: Vec<Value> = related.iter().map(|r| info(r, r["message"].as_str().unwrap_or("related"))).collect();
            if let Some(w) = v.get("witness").filter(|w| !w.is_null()) {
                if !primary.is_null() {
                    related_info.push(info(primary, &witness_text(w)));
                }
            }
            if here(primary) {
                out.push(json!({
                    "range": range(&lines, primary["line"].as_u64().unwrap_or(1), primary["column"].as_u64().unwrap_or(0)),
                    "severity": severity, "source": "lockstep", "code": kind, "message": message,
                    "relatedInformation": related_info,
                }));
            }
            // The other lines of the violation (a race's other access) get
            // a diagnostic too, pointing back at the first.
            for r in related.iter().filter(|r| here(r) && r["line"] != primary["line"]) {
                let mut back = vec![];
                if !primary.is_null() {
                    back.push(info(primary, v["primary_label"].as_str().unwrap_or("the other access")));
                }
                back.extend(related_info.iter().filter(|i| i["message"].as_str().is_some_and(|m| m.starts_with("witness"))).cloned());
                out.push(json!({
                    "range": range(&lines, r["line"].as_u64().unwrap_or(1), r["column"].as_u64().unwrap_or(0)),
                    "severity": severity, "source": "lockstep", "code": kind,
                    "message": format!("{message} ({})", r["message"].as_str().unwrap_or("related access")),
                    "relatedInformation": back,
                }));
            }
        }
        if let Some(reason) = k["reason"]["message"].as_str() {
            let loc = &k["reason"]["location"];
            let (line, column) = if here(loc) { (loc["line"].as_u64().unwrap_or(1), loc["column"].as_u64().unwrap_or(0)) } else { (1, 0) };
            out.push(json!({
                "range": range(&lines, line, column), "severity": 3, "source": "lockstep",
                "message": format!("kernel `{kernel}`: {}: {reason}", k["verdict"].as_str().unwrap_or("unknown")),
            }));
        }
    }
    for d in report.get("diagnostics").and_then(Value::as_array).into_iter().flatten() {
        let severity = match d["severity"].as_str() {
            Some("error") => 1,
            Some("warning") => 2,
            _ => continue,
        };
        let loc = &d["location"];
        let (line, column) = if here(loc) { (loc["line"].as_u64().unwrap_or(1), loc["column"].as_u64().unwrap_or(0)) } else { (1, 0) };
        out.push(json!({"range": range(&lines, line, column), "severity": severity, "source": "lockstep", "message": d["message"]}));
    }
    out
}

/// The checks running, by document: a generation number (a newer save
/// makes older results stale) and the way to stop the running child.
#[derive(Default)]
struct Running {
    generation: AtomicU64,
    checks: Mutex<HashMap<String, (u64, Arc<Interrupt>)>>,
}

/// Starts a check of the document `uri`, cancelling the one running.
fn start_check(uri: String, running: Arc<Running>, send: impl Fn(Message) + Send + 'static) {
    let Some(path) = uri_to_path(&uri) else { return };
    // Headers are checked through the files that include them.
    if !crate::project::inputs::is_kernel_source(&path) {
        return;
    }
    let generation = running.generation.fetch_add(1, Ordering::SeqCst) + 1;
    let interrupt = Arc::new(Interrupt::default());
    let previous = running.checks.lock().ok().and_then(|mut c| c.insert(uri.clone(), (generation, interrupt.clone())));
    if let Some((_, old)) = previous {
        std::thread::spawn(move || old.stop());
    }
    std::thread::spawn(move || {
        let args = crate::project::config_for(&path).map(|c| c.flags_for(&path)).unwrap_or_default();
        let (report, _) = parallel::run_child(&path, &args, None, &interrupt);
        let current = running.checks.lock().ok().and_then(|c| c.get(&uri).map(|(g, _)| *g)) == Some(generation);
        if !current || interrupt.stopped.load(Ordering::SeqCst) {
            return;
        }
        let params = json!({"uri": uri, "diagnostics": diagnostics(&path, &report)});
        send(Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)));
    });
}

/// Runs the server until the client says `exit`.
pub fn run(args: &[String]) -> i32 {
    if let Some(other) = args.first() {
        eprintln!("error: `lockstep lsp` takes no arguments (got `{other}`); it speaks LSP on stdin and stdout");
        return 2;
    }
    let (connection, io_threads) = Connection::stdio();
    let capabilities = json!({
        "capabilities": {"textDocumentSync": {"openClose": true, "change": 0, "save": {"includeText": false}}},
        "serverInfo": {"name": "lockstep", "version": env!("CARGO_PKG_VERSION")},
    });
    let initialized = connection.initialize_start().and_then(|(id, _params)| connection.initialize_finish(id, capabilities));
    if let Err(e) = initialized {
        eprintln!("lockstep lsp: initialization failed: {e}");
        return 2;
    }
    let running = Arc::new(Running::default());
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).unwrap_or(true) {
                    break;
                }
                let response = Response::new_err(request.id, lsp_server::ErrorCode::MethodNotFound as i32, format!("lockstep does not serve `{}`", request.method));
                let _ = connection.sender.send(Message::Response(response));
            }
            Message::Notification(n) => match n.method.as_str() {
                "textDocument/didOpen" | "textDocument/didSave" => {
                    if let Some(uri) = n.params["textDocument"]["uri"].as_str() {
                        let sender = connection.sender.clone();
                        start_check(uri.to_string(), running.clone(), move |m| {
                            let _ = sender.send(m);
                        });
                    }
                }
                "textDocument/didClose" => {
                    if let Some(uri) = n.params["textDocument"]["uri"].as_str() {
                        if let Some((_, old)) = running.checks.lock().ok().and_then(|mut c| c.remove(uri)) {
                            std::thread::spawn(move || old.stop());
                        }
                        let params = json!({"uri": uri, "diagnostics": []});
                        let _ = connection.sender.send(Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)));
                    }
                }
                _ => {}
            },
            Message::Response(_) => {}
        }
    }
    // Stop what is still running, then let the writer finish.
    if let Ok(checks) = running.checks.lock() {
        for (_, (_, interrupt)) in checks.iter() {
            interrupt.stop();
        }
    }
    drop(connection);
    let _ = io_threads.join();
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths() {
        assert_eq!(uri_to_path("file:///a%20b/c.cu"), Some(PathBuf::from("/a b/c.cu")));
        assert_eq!(path_to_uri(Path::new("/a b/c.cu")), "file:///a%20b/c.cu");
        assert_eq!(uri_to_path("http://x"), None);
    }

    #[test]
    fn a_race_is_shown_on_both_lines() {
        let dir = std::env::temp_dir().join(format!("lockstep-lsp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.cu");
        std::fs::write(&file, "__global__ void k(int *a) {\n  a[0] = 1;\n  int x = a[0];\n}\n").unwrap();
        let f = file.display().to_string();
        let report = json!({"kernels": [{"name": "k", "verdict": "errors", "reason": null, "violations": [{
            "kind": "data-race", "confirmed": true, "message": "write-read race", "primary": {"file": f, "line": 2, "column": 3},
            "primary_label": "write", "related": [{"file": f, "line": 3, "column": 11, "message": "read"}],
            "witness": {"block_dim": [2,1,1], "grid_dim": [1,1,1], "threads": [{"local_id": [0,0,0], "group_id": [0,0,0]}], "args": [], "memory": []}}]}],
            "diagnostics": []});
        let d = diagnostics(&file, &report);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0]["range"]["start"]["line"], 1);
        assert_eq!(d[1]["range"]["start"]["line"], 2);
        assert!(d[0]["relatedInformation"].as_array().unwrap().iter().any(|i| i["message"].as_str().unwrap().starts_with("witness")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
