//! The prover's Daikon filter (`lockstep_prove::daikon`): on kernels whose
//! loops have candidates a concrete run falsifies, the filter drops some
//! before inference, and the verdict and the invariants kept are the same
//! as with `--no-daikon` (Houdini's largest inductive set does not depend
//! on what the filter removed first, since it removes only candidates
//! outside that set). How many queries Houdini then asks is not a property:
//! each round drops the candidates the solver's counterexample falsifies,
//! and which model the solver returns decides how many rounds it takes.
//! The count is printed for the benchmark's eyes, not asserted. Each kernel
//! here must need inferred invariants: one that the checks prove without
//! them skips inference, and the filter with it.

use std::path::Path;
use std::process::Command;

struct Run {
    verdict: String,
    kept: Vec<String>,
    dropped_by_filter: usize,
    /// Of those, the candidates about the race logs.
    dropped_about_logs: usize,
    queries: usize,
}

fn check(file: &str, extra: &[&str]) -> Run {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let source = std::fs::read_to_string(root.join(file)).expect("golden kernel");
    let flags: Vec<&str> = source
        .lines()
        .find_map(|l| l.strip_prefix("// flags:"))
        .map(|f| f.split_whitespace().collect())
        .unwrap_or_default();
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .current_dir(&root)
        .env("LOCKSTEP_PROVE_DEBUG", "1")
        .args(["check", file, "--mode=prove", "--format=json"])
        .args(flags)
        .args(extra)
        .output()
        .expect("lockstep runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let verdict = stdout
        .split("\"verdict\":")
        .nth(1)
        .and_then(|rest| rest.split('"').nth(1))
        .unwrap_or("none")
        .to_string();
    let err = String::from_utf8_lossy(&out.stderr);
    let mut kept: Vec<String> = err.lines().filter_map(|l| l.strip_prefix("houdini: kept ")).map(str::to_string).collect();
    kept.sort();
    let dropped_by_filter = err.lines().filter(|l| l.starts_with("houdini: daikon dropped")).count();
    let dropped_about_logs = err.lines().filter(|l| l.starts_with("houdini: daikon dropped") && l.contains("logged")).count();
    let queries = err.lines().filter(|l| l.starts_with("houdini: query ")).count();
    Run { verdict, kept, dropped_by_filter, dropped_about_logs, queries }
}

fn same_outcome(file: &str) {
    let with = check(file, &[]);
    let without = check(file, &["--no-daikon"]);
    assert_eq!(with.verdict, without.verdict, "{file}: the filter changed the verdict");
    assert_eq!(with.kept, without.kept, "{file}: the filter changed the invariants Houdini kept");
    assert!(with.dropped_by_filter > 0, "{file}: the filter dropped nothing");
    assert_eq!(without.dropped_by_filter, 0, "{file}: --no-daikon did not turn the filter off");
    println!("{file}: {} queries with the filter, {} without", with.queries, without.queries);
}

#[test]
fn strided_row_loop() {
    same_outcome("daikon_strided_rows.cu");
}

#[test]
fn grid_stride_tile_loop() {
    same_outcome("daikon_tile_loop.cu");
}

/// The filter also judges the candidates about the race logs, from the
/// accesses a concrete run's threads made since their last barrier: on a
/// kernel with barrier-free loops over a shared array, some of those are
/// dropped before inference, with the same outcome as without the filter.
fn log_candidates_judged(file: &str) {
    let about_logs = check(file, &[]).dropped_about_logs;
    assert!(about_logs > 0, "{file}: no candidate about the race logs was dropped by the filter");
    same_outcome(file);
}

#[test]
fn shared_bins_log_candidates() {
    log_candidates_judged("daikon_log_shared_bins.cu");
}

#[test]
fn shared_rows_log_candidates() {
    log_candidates_judged("daikon_log_rows_tile.cu");
}
