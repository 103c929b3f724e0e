//! Golden tests: every kernel in `examples/` and `crates/cli/tests/golden/`
//! is checked with the flags in its `// flags:` header, and lockstep's human
//! output must equal the `.expected` file beside it.
//!
//! `cargo xtask bless` (which sets `LOCKSTEP_BLESS=1`) rewrites the expected
//! files from the current output and prints what changed. Whatever the
//! expected file says, a kernel whose header says `// expect: errors` must
//! never come out `verified`: blessing cannot hide a soundness bug.
//! `LOCKSTEP_GOLDEN=SUBSTRING` runs (or blesses) only the kernels whose path
//! contains it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn kernels(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["examples", "crates/cli/tests/golden"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if matches!(p.extension().and_then(|x| x.to_str()), Some("cu" | "cl")) {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn header(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix(&format!("// {key}:")).map(|v| v.trim().to_string()))
}

/// Removes what changes from run to run: timings (in human output and in
/// machine output's `elapsed_ms`), and the values in the witness tables of
/// unconfirmed violations (`warning[...]`). Those are the prover's abstract
/// counterexamples: any model the solver finds, which may depend on which
/// of z3's engines answers first. Confirmed witnesses are kept whole.
fn normalise(output: &str) -> String {
    let mut out = String::new();
    let mut in_warning = false;
    let mut in_witness = false;
    for line in output.lines() {
        if line.starts_with("warning[") {
            in_warning = true;
        } else if line.starts_with("error[") || line.starts_with("kernel `") {
            in_warning = false;
        }
        if line.trim_start().starts_with("= witness:") {
            in_witness = true;
        } else if line.trim().is_empty() {
            in_witness = false;
        } else if in_witness && in_warning {
            // Keep the row's name (`thread 1`, `arg n`), drop its value.
            let words: Vec<&str> = line.split_whitespace().collect();
            let name = words.iter().take(2).copied().collect::<Vec<_>>().join(" ");
            out.push_str(&format!("       {name}  …\n"));
            continue;
        }
        let line = match (line.rfind(" ("), line.ends_with(" ms)")) {
            (Some(i), true) => format!("{} (… ms)", &line[..i]),
            _ => match line.find("\"elapsed_ms\": ") {
                Some(i) => format!("{}\"elapsed_ms\": …{}", &line[..i], if line.ends_with(',') { "," } else { "" }),
                None => line.to_string(),
            },
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn run(root: &Path, rel: &Path, flags: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .current_dir(root)
        .arg("check")
        .arg(rel)
        .args(flags.split_whitespace())
        .output()
        .expect("lockstep runs");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    if !err.trim().is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&err);
    }
    text.push_str(&format!("--- exit status {}\n", out.status.code().map_or("signal".into(), |c| c.to_string())));
    normalise(&text)
}

#[test]
fn golden_outputs_match() {
    let root = workspace_root();
    let bless = std::env::var_os("LOCKSTEP_BLESS").is_some();
    let mut failures = Vec::new();
    let mut files = kernels(&root);
    assert!(!files.is_empty(), "no golden kernels found under {}", root.display());
    if let Some(only) = std::env::var_os("LOCKSTEP_GOLDEN") {
        files.retain(|f| f.to_string_lossy().contains(&*only.to_string_lossy()));
    }
    for rel in files {
        let source = std::fs::read_to_string(root.join(&rel)).unwrap();
        let flags = header(&source, "flags").unwrap_or_default();
        let actual = run(&root, &rel, &flags);
        let verdict_line = actual.lines().rev().find(|l| l.starts_with(&rel.display().to_string())).unwrap_or("");
        if header(&source, "expect").as_deref() == Some("errors") && verdict_line.contains(": verified") {
            failures.push(format!("{}: a kernel with a known defect was verified", rel.display()));
        }
        let expected_path = root.join(format!("{}.expected", rel.display()));
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            if bless {
                std::fs::write(&expected_path, &actual).unwrap();
                println!("blessed {}:\n{}", rel.display(), diff(&expected, &actual));
            } else {
                failures.push(format!("{} differs from {}.expected:\n{}", rel.display(), rel.display(), diff(&expected, &actual)));
            }
        }
    }
    assert!(failures.is_empty(), "{}\n(run `cargo xtask bless` to accept new outputs)", failures.join("\n"));
}

/// A line diff: good enough for short outputs.
fn diff(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let mut out = String::new();
    for l in &old {
        if !new.contains(l) {
            out.push_str(&format!("  - {l}\n"));
        }
    }
    for l in &new {
        if !old.contains(l) {
            out.push_str(&format!("  + {l}\n"));
        }
    }
    out
}
