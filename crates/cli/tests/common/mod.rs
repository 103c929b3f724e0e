//! Helpers shared by the CLI's integration tests: run the binary, and write
//! an input to a fresh temporary directory of its own.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `lockstep` with `args`.
pub fn lockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep")).args(args).output().expect("lockstep runs")
}

/// Writes `contents` to a file `name` in a directory unique to this test
/// binary (`suite`) and file, and returns its path.
pub fn scratch_in(suite: &str, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-{suite}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one JSON document on stdout.
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!("stdout is not one JSON document ({e}): {}\nstderr: {}", String::from_utf8_lossy(&o.stdout), stderr(o))
    })
}
