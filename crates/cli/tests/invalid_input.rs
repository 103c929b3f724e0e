//! Bad input gets a compiler-style message and exit status 2, never a panic
//! (DESIGN.md, "Command line"). Each test writes its input to a fresh
//! temporary directory.

mod common;

use std::path::PathBuf;

use common::{json, lockstep, stderr};

fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    common::scratch_in("invalid", name, contents)
}

#[test]
fn a_syntax_error_is_reported_at_its_location() {
    let file = scratch("syntax.cu", b"__global__ void k(int *a) {\n  a[0] = 1\n}\n");
    let out = lockstep(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("syntax.cu:2:11: error: expected ';'"), "stderr: {err}");

    let out = lockstep(&["check", file.to_str().unwrap(), "--format=json"]);
    assert_eq!(out.status.code(), Some(2));
    let report = json(&out);
    assert_eq!(report["verdict"], "rejected");
    assert!(report["error"].as_str().unwrap().contains("syntax.cu:2:11"));
}

#[test]
fn a_missing_file_is_rejected() {
    let out = lockstep(&["check", "/nonexistent/kernel.cu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/nonexistent/kernel.cu: error: no such file"), "stderr: {}", stderr(&out));
}

#[test]
fn an_unknown_flag_is_rejected_in_one_line() {
    let file = scratch("ok.cu", b"__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).trim(), "error: unknown option `--frobnicate` (see `lockstep --help`)");

    let out = lockstep(&["check", file.to_str().unwrap(), "--frobnicate", "--format=json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(json(&out)["verdict"], "rejected");
}

#[test]
fn inconsistent_sizes_are_rejected_like_gpuverify() {
    let file = scratch("sizes.cl", b"__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--local_size=8", "--global_size=12"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a multiple"), "stderr: {}", stderr(&out));
}

#[test]
fn an_empty_file_is_rejected() {
    let file = scratch("empty.cu", b"  \n\n");
    let out = lockstep(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("empty.cu: error: the file is empty"), "stderr: {}", stderr(&out));
}

#[test]
fn a_binary_file_is_rejected() {
    let file = scratch("binary.cu", &[0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0xff, 0xfe]);
    let out = lockstep(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("binary.cu: error: the file is binary"), "stderr: {}", stderr(&out));
}

#[test]
fn an_unknown_extension_is_rejected_unless_the_language_is_given() {
    let file = scratch("kernel.txt", b"__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot tell the language"));
    let out = lockstep(&["check", file.to_str().unwrap(), "-x", "cuda", "--format=json"]);
    assert_ne!(out.status.code(), Some(2), "stdout: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn an_unknown_kernel_name_is_rejected_with_the_names_there_are() {
    let file = scratch("named.cu", b"__global__ void first(int *a) { a[threadIdx.x] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--kernel", "second", "--format=json"]);
    assert_eq!(out.status.code(), Some(2));
    let report = json(&out);
    assert!(report["error"].as_str().unwrap().contains("no kernel named `second` (the file has: first)"));
}

#[test]
fn a_file_without_kernels_is_not_verified() {
    let file = scratch("nokernel.cu", b"__device__ int twice(int x) { return 2 * x; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--format=json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(json(&out)["verdict"], "unknown");
}

#[test]
fn an_unknown_inference_rule_is_rejected_with_the_rules_there_are() {
    let file = scratch("rules.cu", b"__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--disable-rule=stride,bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("unknown rule `bogus`") && err.contains("stride"), "stderr: {err}");
}

#[test]
fn a_restriction_to_an_array_the_kernel_lacks_is_rejected() {
    let file = scratch("arrays.cl", b"__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--local_size=8", "--num_groups=1", "--vcgen-opt=/checkArrays:b"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no array named `b`"), "stderr: {}", stderr(&out));
}

/// The contents of the session logs in `dir` whose names start with
/// `prefix` (the per-path check sessions of one prover session).
fn logs_starting_with(dir: &std::path::Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("the log folder")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .map(|e| std::fs::read_to_string(e.path()).expect("a check session's log"))
        .collect()
}

/// `--smt-log=DIR` leaves one replayable file per solver session: the
/// prover's (one per path's checks, each holding only its slice of the
/// encoding) and the finder's.
#[test]
fn smt_log_writes_a_replayable_session_per_engine() {
    let file = scratch("logged.cu", b"__global__ void logged(int *a) { a[threadIdx.x] = 1; }\n");
    let dir = std::env::temp_dir().join(format!("lockstep-smt-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = lockstep(&["check", file.to_str().unwrap(), "--blockDim=8", "--gridDim=2", &format!("--smt-log={}", dir.display())]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    // The checks run on solvers of their own, one per path, each logged
    // under the prover's name (`logged.prove.checksN.smt2`).
    let checks = logs_starting_with(&dir, "logged.prove.checks");
    assert!(!checks.is_empty() && checks.iter().all(|c| c.contains("lockstep-smt session log") && c.contains("(check-sat)")), "{checks:?}");
    // After a proof the finder has nothing left to look for in this kernel
    // (it has no division and no array of known size), so its session is
    // logged when it runs alone.
    let out = lockstep(&["check", file.to_str().unwrap(), "--mode=find", "--blockDim=8", "--gridDim=2", &format!("--smt-log={}", dir.display())]);
    assert_eq!(out.status.code(), Some(3), "stderr: {}", stderr(&out));
    let find = std::fs::read_to_string(dir.join("logged.find.smt2")).expect("the finder's log");
    assert!(find.contains("lockstep-smt session log"), "{find}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A prover whose checks run on a second encoding (a grid-stride loop whose
/// step is no power of two, see `ackermann`) logs the per-path check
/// sessions cut from it to files of their own, beside the sessions of
/// inference (the question whether the obligations hold without
/// invariants, and Houdini's rounds).
#[test]
fn smt_log_keeps_the_second_prover_session() {
    let source = b"__global__ void strided(int *a, unsigned n) {\n  __requires(n <= 0x7fffffff);\n  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] = 1;\n}\n";
    let file = scratch("strided.cu", source);
    let dir = std::env::temp_dir().join(format!("lockstep-smt-log-checks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let log = format!("--smt-log={}", dir.display());
    let out = lockstep(&["check", file.to_str().unwrap(), "--mode=prove", "--blockDim=96", "--gridDim=5", &log]);
    assert_eq!(out.status.code(), Some(0), "stdout: {}\nstderr: {}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    let holds = logs_starting_with(&dir, "strided.prove.holds");
    assert!(!holds.is_empty() && holds.iter().all(|c| c.contains("(check-sat)")), "{holds:?}");
    let rounds = logs_starting_with(&dir, "strided.prove.houdini");
    assert!(!rounds.is_empty() && rounds.iter().all(|c| c.contains("(check-sat)")), "{rounds:?}");
    // The checks of the rewritten encoding run on solvers of their own, one
    // per path (`strided.prove.checks.checksN.smt2`).
    let paths = logs_starting_with(&dir, "strided.prove.checks.checks");
    assert!(!paths.is_empty() && paths.iter().all(|c| c.contains("(check-sat)")), "{paths:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With no sizing flags, a kernel that reads only the x dimension of its ids
/// is checked for every 1-D launch: a race that shows in 1-D launches is
/// still found (its witness is a solver model, so only the verdict is
/// checked here), and a kernel reading `threadIdx.y` is still checked for
/// 2-D launches.
#[test]
fn the_default_1d_launch_still_finds_races() {
    let racy = scratch(
        "default_1d_race.cu",
        b"__global__ void scale(float *v, float s, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) v[i] = s * v[i];\n  if (n % 2 == 1) v[0] = s;\n}\n",
    );
    let o = lockstep(&["check", racy.to_str().unwrap(), "--format=json"]);
    let report = json(&o);
    assert_eq!(report["verdict"], "errors", "{report}");
    assert_eq!(o.status.code(), Some(1));
    let rows = scratch("default_2d_race.cu", b"__global__ void rows(int *out) {\n  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.y;\n}\n");
    let o = lockstep(&["check", rows.to_str().unwrap(), "--format=json"]);
    assert_eq!(json(&o)["verdict"], "errors", "{}", json(&o));
}
