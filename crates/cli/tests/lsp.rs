//! `lockstep lsp` driven by a scripted client over stdio: initialize, open a
//! racy kernel (diagnostics on both lines of the race, the witness in the
//! related information), fix it and save (no diagnostics), shut down.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn send(stdin: &mut impl Write, message: Value) {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stdin.flush().unwrap();
}

/// Reads messages until one satisfies `want`, or fails after `limit`.
fn read_until(reader: &mut impl BufRead, limit: Duration, want: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < limit, "no expected message within {limit:?}");
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            assert!(reader.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let message: Value = serde_json::from_slice(&body).unwrap();
        if want(&message) {
            return message;
        }
    }
}

const RACY: &str = "// lockstep's LSP test: a race between two lines.
__global__ void shift(int *a) {
  unsigned t = threadIdx.x;
  int next = a[t + 1];
  a[t] = next;
}
";

const FIXED: &str = "// lockstep's LSP test: the race fixed with a barrier.
__global__ void shift(int *a) {
  unsigned t = threadIdx.x;
  int next = a[t + 1];
  __syncthreads();
  a[t] = next;
}
";

#[test]
fn the_server_publishes_races_on_both_lines_and_clears_them_when_fixed() {
    let dir = std::env::temp_dir().join(format!("lockstep-lsp-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("shift.cu");
    std::fs::write(&file, RACY).unwrap();
    std::fs::write(dir.join("lockstep.toml"), "flags = [\"--blockDim=64\", \"--gridDim=1\", \"--timeout=120\"]\n").unwrap();
    let uri = format!("file://{}", file.display());

    let mut server = Command::new(env!("CARGO_BIN_EXE_lockstep")).arg("lsp").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut reader = BufReader::new(server.stdout.take().unwrap());
    let limit = Duration::from_secs(240);

    send(&mut stdin, json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    let init = read_until(&mut reader, limit, |m| m["id"] == 1);
    assert_eq!(init["result"]["capabilities"]["textDocumentSync"]["save"]["includeText"], false, "{init}");
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": RACY}}}));
    let published = read_until(&mut reader, limit, |m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(published["params"]["uri"], uri.as_str());
    let diags = published["params"]["diagnostics"].as_array().unwrap();
    let lines: Vec<u64> = diags.iter().filter(|d| d["code"] == "data-race").map(|d| d["range"]["start"]["line"].as_u64().unwrap()).collect();
    assert!(lines.contains(&3) && lines.contains(&4), "the race's two lines (0-based 3 and 4): {published}");
    let primary = diags.iter().find(|d| d["code"] == "data-race").unwrap();
    assert_eq!(primary["severity"], 1, "a confirmed race is an error: {primary}");
    let related = primary["relatedInformation"].as_array().unwrap();
    assert!(related.iter().any(|r| r["message"].as_str().unwrap().starts_with("witness: ")), "{primary}");

    // Two saves in a row: the first check is cancelled, the second's
    // result (the fixed kernel: nothing to report) is published.
    std::fs::write(&file, FIXED).unwrap();
    for _ in 0..2 {
        send(&mut stdin, json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}}}));
    }
    let cleared = read_until(&mut reader, limit, |m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(cleared["params"]["diagnostics"], json!([]), "{cleared}");

    send(&mut stdin, json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}));
    read_until(&mut reader, limit, |m| m["id"] == 2);
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    drop(stdin);
    let status = server.wait().unwrap();
    assert!(status.success(), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
}
