//! Golden tests of `lockstep equiv`: every `examples/equiv/*.equiv` file
//! holds a command line (after `lockstep equiv`) and an `# expect:` verdict;
//! lockstep's output must equal the `.equiv.expected` file beside it.
//!
//! `cargo xtask bless` (which sets `LOCKSTEP_BLESS=1`) rewrites the expected
//! files. Whatever an expected file says, a case whose header expects
//! `different` must never come out `equivalent`: blessing cannot hide a
//! soundness bug.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn cases(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root.join("examples/equiv"))
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "equiv")).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// Removes what changes from run to run (timings).
fn normalise(output: &str) -> String {
    let mut out = String::new();
    for line in output.lines() {
        let mut line = match (line.rfind(" ("), line.ends_with(" ms)")) {
            (Some(i), true) => format!("{} (… ms)", &line[..i]),
            _ => line.to_string(),
        };
        if let Some(i) = line.find("\"elapsed_ms\":") {
            let rest = &line[i + 13..];
            let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            line = format!("{}\"elapsed_ms\":0{}", &line[..i], &rest[end..]);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn equiv_golden_outputs_match() {
    let root = workspace_root();
    let bless = std::env::var_os("LOCKSTEP_BLESS").is_some();
    let mut files = cases(&root);
    assert!(!files.is_empty(), "no equiv cases under examples/equiv");
    // `LOCKSTEP_GOLDEN=SUBSTRING`: only the cases whose path contains it.
    if let Some(only) = std::env::var_os("LOCKSTEP_GOLDEN") {
        files.retain(|f| f.to_string_lossy().contains(&*only.to_string_lossy()));
    }
    let mut failures = Vec::new();
    for case in files {
        let text = std::fs::read_to_string(&case).unwrap();
        let expect = text.lines().find_map(|l| l.strip_prefix("# expect:")).map(|v| v.trim().to_string());
        let args = text.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap_or("");
        let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
            .current_dir(&root)
            .arg("equiv")
            .args(args.split_whitespace())
            .output()
            .expect("lockstep runs");
        let mut actual = String::from_utf8_lossy(&out.stdout).into_owned();
        let err = String::from_utf8_lossy(&out.stderr);
        if !err.trim().is_empty() {
            actual.push_str("--- stderr\n");
            actual.push_str(&err);
        }
        let code = out.status.code();
        actual.push_str(&format!("--- exit status {}\n", code.map_or("signal".into(), |c| c.to_string())));
        let actual = normalise(&actual);
        let name = case.strip_prefix(&root).unwrap().display().to_string();
        if expect.as_deref() == Some("different") && code == Some(0) {
            failures.push(format!("{name}: a pair known to differ was reported equivalent"));
        }
        if let Some(e) = &expect {
            let want = match e.as_str() {
                "equivalent" => 0,
                "different" => 1,
                "rejected" => 2,
                _ => 3,
            };
            if code != Some(want) {
                failures.push(format!("{name}: expected `{e}` (exit {want}), got exit {code:?}"));
            }
        }
        let expected_path = PathBuf::from(format!("{}.expected", case.display()));
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            if bless {
                std::fs::write(&expected_path, &actual).unwrap();
                println!("blessed {name}");
            } else {
                failures.push(format!("{name} differs from its .expected file:\n--- expected\n{expected}--- actual\n{actual}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}\n(run `cargo xtask bless` to accept new outputs)", failures.join("\n"));
}
