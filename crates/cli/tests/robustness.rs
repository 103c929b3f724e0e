//! Never crash, hang or leak, whatever the input (issue 17): host
//! allocations the model cannot back fail as libc and CUDA fail, pointers
//! made from integers are invalid accesses, arrays and launches larger than
//! a device allows are refused, only regular files of bounded size are read,
//! and `--format=json` prints one JSON document on every exit, a panic
//! included. Each test writes its input to a fresh temporary directory.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{json, lockstep, stderr};

fn scratch(name: &str, contents: &str) -> PathBuf {
    common::scratch_in("robust", name, contents)
}

/// Checks `file` with `flags` in JSON; returns the exit status and report.
fn check_json(file: &PathBuf, flags: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut args = vec!["check", file.to_str().unwrap(), "--format=json"];
    args.extend_from_slice(flags);
    let out = lockstep(&args);
    (out.status.code(), json(&out))
}

fn kinds(report: &serde_json::Value) -> Vec<String> {
    report["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|k| k["violations"].as_array().cloned().unwrap_or_default())
        .map(|v| v["kind"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A racy kernel that the programs below launch only when an allocation
/// behaved differently from libc or CUDA: a `verified` program shows that
/// the failing allocation failed.
const RACY: &str = "__global__ void racy(int *a) { a[0] = threadIdx.x; }\n";

#[test]
fn malloc_of_a_negative_size_returns_null() {
    let program = format!(
        "#include <stdlib.h>\n{RACY}int main() {{\n  int *h = (int *)malloc(-1 * sizeof(int));\n  if (h != NULL) {{ int *d; cudaMalloc((void **)&d, 4); racy<<<1, 2>>>(d); }}\n  return 0;\n}}\n"
    );
    let file = scratch("negative_malloc.cu", &program);
    let (code, report) = check_json(&file, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["verdict"], "verified");
}

#[test]
fn cuda_malloc_beyond_any_device_fails_with_cuda_error_memory_allocation() {
    let program = format!(
        "{RACY}int main() {{\n  int *d = 0;\n  cudaError_t e = cudaMalloc((void **)&d, 1ull << 50);\n  if (e != cudaErrorMemoryAllocation || d != 0) racy<<<1, 2>>>(d);\n  return 0;\n}}\n"
    );
    let file = scratch("huge_cuda_malloc.cu", &program);
    let (code, report) = check_json(&file, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["verdict"], "verified");
}

/// An allocation some machine might grant but the model does not back
/// fails in the run, and the run is then not the program's only behaviour.
#[test]
fn malloc_beyond_the_model_fails_and_says_so() {
    let program = format!("#include <stdlib.h>\n{RACY}int main() {{\n  char *h = (char *)malloc(1ull << 44);\n  if (h == NULL) return 1;\n  h[5] = 1;\n  return 0;\n}}\n");
    let file = scratch("huge_malloc.cu", &program);
    let (code, report) = check_json(&file, &[]);
    assert_eq!(code, Some(3), "{report:#}");
    let text = report.to_string();
    assert!(text.contains("fails in this run"), "{report:#}");
}

/// A gigabyte allocated, set and copied costs only what was written: the
/// run finishes (the memory is lazily backed; RSS is measured in the
/// report of issue 17, not here).
#[test]
fn large_allocations_are_backed_lazily() {
    let program = "#include <stdlib.h>\n#include <string.h>\n__global__ void k(char *a) { a[threadIdx.x] = 1; }\nint main() {\n  size_t n = 1 << 30;\n  char *h = (char *)malloc(n);\n  memset(h, 7, n);\n  h[12345] = 1;\n  char *d;\n  cudaMalloc((void **)&d, n);\n  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n  k<<<1, 32>>>(d);\n  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);\n  cudaFree(d);\n  free(h);\n  return 0;\n}\n";
    let file = scratch("gigabyte.cu", program);
    let (code, report) = check_json(&file, &[]);
    assert_eq!(code, Some(0), "{report:#}");
}

#[test]
fn a_pointer_made_from_an_integer_is_an_invalid_access() {
    let file = scratch("intptr.cu", "__global__ void k(int *v) { int *p = (int *)-1; v[threadIdx.x] = *p; }\n");
    let (code, report) = check_json(&file, &["--blockDim=32", "--gridDim=1"]);
    assert_eq!(code, Some(1), "{report:#}");
    assert!(kinds(&report).iter().any(|k| k == "null-pointer"), "{report:#}");

    let file = scratch("intcall.cu", "typedef int (*fn)(int);\n__global__ void k(int *v) { fn f = (fn)-1; v[threadIdx.x] = f(threadIdx.x); }\n");
    let (code, report) = check_json(&file, &["--blockDim=32", "--gridDim=1"]);
    assert_eq!(code, Some(1), "{report:#}");

    let file = scratch("intatomic.cl", "__kernel void k(__global int *v) { atomic_inc((__global int *)0x80000000); v[get_global_id(0)] = 1; }\n");
    let (code, report) = check_json(&file, &["--local_size=32", "--num_groups=1"]);
    assert_eq!(code, Some(1), "{report:#}");
    assert!(kinds(&report).iter().any(|k| k == "null-pointer"), "{report:#}");
}

#[test]
fn arrays_larger_than_a_device_are_rejected_where_they_are_used() {
    let file = scratch(
        "huge_local.cl",
        "__kernel void k(__global float *v) {\n  __local float a[10][10][10][10][4294967296];\n  a[0][0][0][0][get_local_id(0)] = 1;\n  v[get_global_id(0)] = a[0][0][0][0][0];\n}\n",
    );
    let (code, report) = check_json(&file, &["--local_size=32", "--num_groups=1"]);
    assert_eq!(code, Some(2), "{report:#}");
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("huge_local.cl:3:") && error.contains("1 GiB"), "{error}");

    let file = scratch("huge_shared.cu", "__global__ void k(float *v) {\n  __shared__ float a[1u << 30];\n  a[threadIdx.x] = 1;\n  __syncthreads();\n  v[threadIdx.x] = a[0];\n}\n");
    let (code, report) = check_json(&file, &["--blockDim=32", "--gridDim=1"]);
    assert_eq!(code, Some(2), "{report:#}");
    assert!(report["error"].as_str().unwrap().contains("shared variable"), "{report:#}");

    // Beyond a device but within what lockstep checks (GPUVerify's tests
    // declare such arrays): checked, with a note.
    let file = scratch("big_shared.cu", "__global__ void k(float *v) {\n  __shared__ float a[1 << 18];\n  a[threadIdx.x] = 1;\n  v[threadIdx.x] = a[0];\n}\n");
    let (code, report) = check_json(&file, &["--blockDim=32", "--gridDim=1"]);
    assert_eq!(code, Some(1), "{report:#}");
    assert!(report.to_string().contains("no device holds"), "{report:#}");
}

/// A block of 2^32 threads used to wrap to none and verify a racy kernel.
#[test]
fn launch_sizes_no_device_runs_are_rejected() {
    let file = scratch("race.cu", "__global__ void k(int *a) { a[0] = threadIdx.x; }\n");
    for flags in [
        ["--blockDim=4294967296", "--gridDim=1"],
        ["--blockDim=32", "--gridDim=99999999999"],
        ["--blockDim=32", "--gridDim=18446744073709551615"],
        ["--blockDim=32", "--gridDim=[1,65536]"],
    ] {
        let out = lockstep(&["check", file.to_str().unwrap(), flags[0], flags[1]]);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("at most"), "{flags:?}: {}", stderr(&out));
    }
    let (code, report) = check_json(&file, &["--blockDim=32", "--gridDim=1"]);
    assert_eq!(code, Some(1), "{report:#}");
}

#[test]
fn only_regular_files_are_read() {
    let out = lockstep(&["check", "/dev/zero", "-x", "cuda"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a regular file"), "stderr: {}", stderr(&out));

    let dir = std::env::temp_dir().join(format!("lockstep-robust-{}-fifo", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("kernel.cu");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if made {
        // Opening a FIFO blocks until a writer comes: the check must not open it.
        let out = lockstep(&["check", fifo.to_str().unwrap(), "--format=json"]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(json(&out)["verdict"], "rejected");
    }

    let big = scratch("big.cu", &"// padding\n".repeat((16 << 20) / 11 + 1));
    let out = lockstep(&["check", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("16 MiB"), "stderr: {}", stderr(&out));
}

#[test]
fn json_is_printed_on_every_exit() {
    let out = lockstep(&["frob", "--format=json"]);
    assert_eq!(out.status.code(), Some(2));
    let report = json(&out);
    assert_eq!(report["verdict"], "rejected");
    assert!(report["error"].as_str().unwrap().contains("unknown command `frob`"));

    for flag in ["--help", "--version"] {
        let out = lockstep(&[flag, "--format=json"]);
        assert_eq!(out.status.code(), Some(0));
        json(&out);
    }

    let file = scratch("dump.cu", "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let out = lockstep(&["check", file.to_str().unwrap(), "--dump-kir", "--format=json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(json(&out)["kir"].as_str().unwrap().contains("kernel"));
}

#[test]
fn a_panic_is_reported_as_unknown_in_every_format() {
    let file = scratch("panic.cu", "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_lockstep"))
            .args(["check", file.to_str().unwrap(), format])
            .env("LOCKSTEP_TEST_PANIC", "1")
            .output()
            .unwrap()
    };
    let out = run("--format=json");
    assert_eq!(out.status.code(), Some(3));
    let report = json(&out);
    assert_eq!(report["verdict"], "unknown");
    assert!(report.to_string().contains("internal error"), "{report:#}");
    let out = run("--format=human");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("internal error"));
}

/// The same input gives the same report: confirmed witnesses (thread ids,
/// byte offsets) come from the deterministic replay. (Unconfirmed prover
/// alarms are deterministic too since z3's queries are bounded by work,
/// not time: see `a_sample_of_kernels_gets_the_same_report_twice`.)
#[test]
fn a_racy_kernel_gets_the_same_report_twice() {
    let cuda = scratch(
        "twice.cu",
        "__global__ void k(int *a, int *b) {\n  __shared__ int s[64];\n  s[threadIdx.x % 7] = a[threadIdx.x];\n  b[blockIdx.x] = s[(threadIdx.x + 1) % 64];\n}\n",
    );
    let opencl = scratch("twice.cl", "__kernel void k(__global int *a) {\n  a[get_global_id(0) / 3] = get_local_id(0);\n}\n");
    for (file, flags) in [(&cuda, ["--blockDim=64", "--gridDim=4"]), (&opencl, ["--local_size=16", "--num_groups=4"])] {
        let run = || {
            let (code, mut report) = check_json(file, &flags);
            report.as_object_mut().unwrap().remove("elapsed_ms");
            report.as_object_mut().unwrap().remove("timings_ms");
            (code, report)
        };
        let (first, second) = (run(), run());
        assert_eq!(first.0, Some(1), "{:#}", first.1);
        let violations = first.1["kernels"].as_array().unwrap().iter().flat_map(|k| k["violations"].as_array().unwrap().clone()).collect::<Vec<_>>();
        assert!(violations.iter().all(|v| v["confirmed"] == true), "{:#}", first.1);
        assert_eq!(first, second, "{}: the reports differ", file.display());
    }
}

/// A clang that never returns is stopped at `--timeout`, with everything it
/// started (it runs in a process group of its own): lockstep answers
/// `unknown` and leaves no process behind.
#[cfg(unix)]
#[test]
fn a_hung_clang_is_stopped_at_the_timeout_with_its_children() {
    use std::os::unix::fs::PermissionsExt;
    let marker = format!("{}", 900_000 + std::process::id() % 90_000);
    let fake = scratch("hung-clang.sh", &format!("#!/bin/sh\nsleep {marker} &\nsleep {marker}\n"));
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kernel = scratch("hung.cu", "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["check", kernel.to_str().unwrap(), "--format=json", "--timeout=2", "--blockDim=32", "--gridDim=1"])
        .env("LOCKSTEP_CLANG", &fake)
        .output()
        .expect("lockstep runs");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "lockstep waited for the hung clang");
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(json(&out)["verdict"], "unknown");
    let left = left_behind(&format!("sleep {marker}"));
    assert!(left.is_empty(), "processes left behind: {}", left);
}

/// A solver that never answers (z3 and cvc5 both hang) cannot hold back
/// what the solver-free concrete search found: under `--timeout=20` a racy
/// kernel is reported with its witness before the deadline, and the hung
/// solvers are gone afterwards.
#[cfg(unix)]
#[test]
fn a_hung_solver_does_not_starve_the_concrete_search() {
    use std::os::unix::fs::PermissionsExt;
    let marker = format!("{}", 800_000 + std::process::id() % 90_000);
    // A folder of its own: another test puts a fake `z3` on its PATH too.
    let fake = common::scratch_in("robust-hung", "z3", format!("#!/bin/sh\nsleep {marker} &\nexec sleep {marker}\n"));
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::copy(&fake, fake.with_file_name("cvc5")).unwrap();
    let bin = fake.parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let kernel = scratch("stuck-solver.cu", "__global__ void k(int *a) { a[0] = threadIdx.x; }\n");
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["check", kernel.to_str().unwrap(), "--format=json", "--timeout=20", "--blockDim=32", "--gridDim=1"])
        .env("PATH", &path)
        .output()
        .expect("lockstep runs");
    let elapsed = started.elapsed();
    let report = json(&out);
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    assert!(elapsed < std::time::Duration::from_secs(20), "took {elapsed:?}");
    let race = &report["kernels"][0]["violations"][0];
    assert_eq!(race["kind"], "data-race", "{report:#}");
    assert_eq!(race["confirmed"], true, "{report:#}");
    assert!(race["witness"].is_object(), "{report:#}");
    let left = left_behind(&format!("sleep {marker}"));
    assert!(left.is_empty(), "processes left behind: {}", left);
}

/// Runs `lockstep check FILE FLAGS --format=json` under `/usr/bin/time`
/// and returns the exit status, the report and the peak resident memory
/// of the largest process of the run (lockstep or a solver) in bytes; the
/// peak is `None` where `/usr/bin/time` is missing.
fn check_measured(file: &PathBuf, flags: &[&str]) -> (Option<i32>, serde_json::Value, Option<u64>) {
    let time = std::path::Path::new("/usr/bin/time");
    let peak_file = file.with_extension("peak");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "%M", "-o"]).arg(&peak_file).arg(env!("CARGO_BIN_EXE_lockstep"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_lockstep"))
    };
    let out = cmd.args(["check", file.to_str().unwrap(), "--format=json"]).args(flags).output().expect("lockstep runs");
    let peak = std::fs::read_to_string(&peak_file).ok().and_then(|t| t.lines().last()?.trim().parse::<u64>().ok()).map(|kib| kib << 10);
    (out.status.code(), json(&out), peak)
}

/// A loop squaring `double2` values over an arbitrary trip count on a big
/// launch (the shape of an SDK kernel that once grew to 21 GB): within a
/// small `--memory-limit` the run ends with a verdict, the solver stopped
/// by its own limit when it needs more, and no process of the run grows
/// past the limit.
#[test]
fn a_squaring_loop_stays_within_the_memory_limit() {
    let file = scratch(
        "square.cl",
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n__kernel void square(__global double2 *out, int nIters) {\n  double2 s0 = (double2)((double)get_global_id(0), 1.0);\n  double2 s1 = (double2)(1.0, (double)get_local_id(0));\n  for (int i = 0; i < nIters; i++) {\n    s0 = s0 * s0 * 1.01;\n    s1 = s1 * s1 * 1.01;\n    s0 = s0 * s1 * 1.01;\n    s1 = s1 * s0 * 1.01;\n  }\n  out[get_global_id(0)] = s0 + s1;\n}\n",
    );
    let (code, report, peak) = check_measured(&file, &["--local_size=128", "--num_groups=16384", "--memory-limit=256"]);
    assert!(matches!(code, Some(0) | Some(3)), "{report:#}");
    if code == Some(3) {
        assert!(report.to_string().contains("memory"), "{report:#}");
    }
    assert!(peak.is_none_or(|p| p <= 256 << 20), "peak {peak:?} bytes");
}

/// Long straight-line floating-point code (the shape of molecular-dynamics
/// rate kernels): a verdict within the default memory limit.
#[test]
fn long_straight_line_float_code_stays_within_the_default_memory_limit() {
    let mut kernel = String::from("__global__ void rates(float *out, const float *in, float t) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float a = in[i], b = in[i + 1], c = t;\n");
    for k in 0..600 {
        kernel.push_str(&format!("  a = a * b + {k}.5f * c; b = b * a - c / (a + 1.0f); c = c * c + a * b;\n"));
    }
    kernel.push_str("  out[i] = a + b + c;\n}\n");
    let file = scratch("rates.cu", &kernel);
    let (code, report, peak) = check_measured(&file, &["--blockDim=256", "--gridDim=1024"]);
    assert!(matches!(code, Some(0) | Some(3)), "{report:#}");
    assert!(peak.is_none_or(|p| p <= 1 << 30), "peak {peak:?} bytes");
}

/// A kernel whose threads each write a page of their own: the concrete
/// search stops at its share of `--memory-limit` instead of backing them all.
#[test]
fn the_concrete_search_stops_at_its_share_of_the_memory_limit() {
    let file = scratch("pages.cu", "__global__ void spread(char *big) {\n  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  big[(unsigned long long)i * 4096] = 1;\n}\n");
    let arrays = format!("--kernel-arrays=spread,{}", 1u64 << 30);
    let (code, report, peak) = check_measured(&file, &["--blockDim=256", "--gridDim=256", "--memory-limit=256", &arrays]);
    assert!(matches!(code, Some(0) | Some(3)), "{report:#}");
    assert!(peak.is_none_or(|p| p <= 256 << 20), "peak {peak:?} bytes");
    let out = lockstep(&["check", file.to_str().unwrap(), "--memory-limit=10"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--memory-limit"), "{}", stderr(&out));
}

/// `verified` rests on the solver's `unsat`: a z3 that answers `unsat` to
/// everything proves a racy kernel. `--cross-check` re-proves with cvc5,
/// which finds the race, and the verdict is `unknown` with both answers
/// named; a kernel both solvers prove stays `verified`.
#[cfg(unix)]
#[test]
fn the_cross_check_catches_a_lying_solver() {
    use std::os::unix::fs::PermissionsExt;
    let liar = common::scratch_in(
        "robust-liar",
        "z3",
        "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    *\"(check-sat\"*) echo unsat ;;\n    *\"(get-\"*) echo '(error \"unsupported\")' ;;\n    *\"(exit\"*) exit 0 ;;\n    \"\") ;;\n    *) echo success ;;\n  esac\ndone\n",
    );
    std::fs::set_permissions(&liar, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", liar.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let race = scratch("liar-race.cu", "__global__ void k(int *a) { a[0] = threadIdx.x; }\n");
    let run = |flags: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
            .args(["check", race.to_str().unwrap(), "--format=json", "--mode=prove"])
            .args(flags)
            .env("PATH", &path)
            .output()
            .expect("lockstep runs");
        (out.status.code(), json(&out))
    };
    let (code, report) = run(&[]);
    assert_eq!((code, report["verdict"].as_str()), (Some(0), Some("verified")), "the fake solver no longer lies: {report:#}");
    let (code, report) = run(&["--cross-check"]);
    assert_eq!(code, Some(3), "{report:#}");
    let reason = report["kernels"][0]["reason"]["message"].as_str().unwrap_or_default();
    // cvc5 finds the race; on a machine so loaded that its query times out,
    // the kernel is still not `verified`, for want of a second answer.
    assert!((reason.contains("the solvers disagree") || reason.contains("not cross-checked")) && reason.contains("z3") && reason.contains("cvc5"), "{report:#}");

    let fine = scratch("cross-fine.cu", "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    let (code, report) = check_json(&fine, &["--cross-check"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(report.to_string().contains("again by cvc5"), "{report:#}");
}

/// A whole program whose device side is rejected while its host side still
/// compiles: lockstep reports the rejection and stops the host compiler
/// (with its children) and removes its scratch files before it exits (the
/// fuzzer found this one).
#[cfg(unix)]
#[test]
fn a_host_compilation_does_not_outlive_a_rejected_device_side() {
    use std::os::unix::fs::PermissionsExt;
    let marker = format!("{}", 700_000 + std::process::id() % 90_000);
    let fake = scratch(
        "slow-host-clang.sh",
        &format!(
            "#!/bin/sh\ncase \"$*\" in\n  *--cuda-host-only*) for a in \"$@\"; do out=\"$a\"; done; : > \"$out.tmp\"; sleep {marker} & sleep {marker} ;;\n  *) echo \"prog.cu:1:1: error: rejected on purpose\" >&2; exit 1 ;;\nesac\n"
        ),
    );
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let program = scratch("prog.cu", "__global__ void k(int *a) { a[threadIdx.x] = 1; }\nint main() { return 0; }\n");
    let tmp = program.parent().unwrap().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["check", program.to_str().unwrap(), "--format=json"])
        .env("LOCKSTEP_CLANG", &fake)
        .env("TMPDIR", &tmp)
        .output()
        .expect("lockstep runs");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let left = left_behind(&format!("sleep {marker}"));
    assert!(left.is_empty(), "processes left behind: {}", left);
    let files: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(files.is_empty(), "files left behind: {files:?}");
}

/// The determinism check (`cargo xtask determinism` runs it on every
/// conformance test) on a small sample: a verified kernel with a loop whose
/// invariants are inferred, a whole program, and prover alarms that no
/// replay confirms (`--mode=prove`: their witnesses are z3's models, which
/// depended on the machine's load while z3 switched solvers on a timer),
/// each checked twice, give the same report, timings aside.
#[test]
fn a_sample_of_kernels_gets_the_same_report_twice() {
    let looped = scratch(
        "twice-loop.cu",
        "__global__ void k(int *a, int n) {\n  for (int i = threadIdx.x; i < n; i += blockDim.x) {\n    a[i] = 2 * i;\n  }\n}\n",
    );
    let program = scratch(
        "twice-program.cu",
        "#include <stdlib.h>\n__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }\nint main() {\n  int *d;\n  cudaMalloc((void **)&d, 64 * sizeof(int));\n  k<<<1, 64>>>(d);\n  cudaFree(d);\n  return 0;\n}\n",
    );
    let alarms = scratch(
        "twice-alarms.cu",
        "__global__ void k(int *a, int *b, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[(i * 7 + n) % 96] = b[i];\n  b[i / 3] = a[i % n];\n}\n",
    );
    for (file, flags, code) in [
        (&looped, vec!["--blockDim=32", "--gridDim=1"], 0),
        (&program, vec![], 0),
        (&alarms, vec!["--blockDim=64", "--gridDim=4", "--mode=prove"], 1),
    ] {
        let run = || {
            let (code, report) = check_json(file, &flags);
            (code, without_timings(report))
        };
        let (first, second) = (run(), run());
        assert_eq!(first.0, Some(code), "{:#}", first.1);
        assert_eq!(first, second, "{}: the reports differ", file.display());
    }
}

/// A file's kernels checked at once (`--kernel-jobs`) give the report they
/// give one after another: the same verdicts, violations, notes and
/// assumptions, in the file's order.
#[test]
fn kernels_checked_at_once_give_the_report_of_kernels_checked_in_turn() {
    let kernels = scratch(
        "kernel-jobs.cu",
        "__global__ void fill(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n\
         __global__ void racy(int *a) { a[0] = threadIdx.x; }\n\
         __global__ void shifted(int *a, int n) {\n  int i = threadIdx.x;\n  if (i + 1 < n) a[i] = a[i + 1];\n}\n\
         __global__ void looped(int *a, int n) {\n  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i] += i;\n}\n",
    );
    let run = |jobs: &str| {
        let (code, report) = check_json(&kernels, &["--blockDim=32", "--gridDim=2", jobs]);
        (code, without_timings(report))
    };
    let (alone, together) = (run("--kernel-jobs=1"), run("--kernel-jobs=3"));
    assert_eq!(alone.0, Some(1), "{:#}", alone.1);
    let names: Vec<&str> = alone.1["kernels"].as_array().unwrap().iter().filter_map(|k| k["name"].as_str()).collect();
    assert_eq!(names, ["fill", "racy", "shifted", "looped"], "{:#}", alone.1);
    assert_eq!(alone, together, "the reports differ");
}

/// The processes whose command line matches `pattern` still running after
/// the ones a run killed have had time to go (a killed process disappears
/// asynchronously, and later on a loaded machine): empty when none are.
fn left_behind(pattern: &str) -> String {
    let started = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let found = Command::new("pgrep").args(["-f", pattern]).output().expect("pgrep runs");
        let left = String::from_utf8_lossy(&found.stdout).into_owned();
        if left.is_empty() || started.elapsed() > std::time::Duration::from_secs(5) {
            return left;
        }
    }
}

/// A report without the fields that measure time.
fn without_timings(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(map) = v.as_object_mut() {
        map.remove("elapsed_ms");
        map.remove("timings_ms");
        for child in map.values_mut() {
            *child = without_timings(child.take());
        }
    } else if let Some(items) = v.as_array_mut() {
        for item in items {
            *item = without_timings(item.take());
        }
    }
    v
}

/// Ctrl-C (SIGINT) or SIGTERM in a single-file check, while clang or a
/// solver runs (fake ones that never answer, each with a child): lockstep
/// kills them with their children, removes its scratch files, prints one
/// report (`unknown`, interrupted) in the requested format, and exits 130.
#[cfg(unix)]
#[test]
fn an_interrupted_check_stops_its_children_and_removes_its_files() {
    use std::os::unix::fs::PermissionsExt;
    for (signal, stuck) in [("-INT", "clang"), ("-TERM", "solver")] {
        let marker = format!("{}", 600_000 + std::process::id() % 90_000 + if stuck == "clang" { 0 } else { 1 });
        let hang = format!("#!/bin/sh\nsleep {marker} &\nexec sleep {marker}\n");
        let fake = scratch(&format!("interrupt-{stuck}"), &hang);
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let bin = fake.parent().unwrap().join(format!("interrupt-bin-{stuck}"));
        std::fs::create_dir_all(&bin).unwrap();
        for solver in ["z3", "cvc5"] {
            std::fs::copy(&fake, bin.join(solver)).unwrap();
        }
        let tmp = fake.parent().unwrap().join(format!("interrupt-tmp-{stuck}"));
        std::fs::create_dir_all(&tmp).unwrap();
        let kernel = scratch(&format!("interrupted-{stuck}.cu"), "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_lockstep"));
        cmd.args(["check", kernel.to_str().unwrap(), "--format=json", "--blockDim=32", "--gridDim=1"])
            .env("TMPDIR", &tmp)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if stuck == "clang" {
            cmd.env("LOCKSTEP_CLANG", &fake);
        } else {
            cmd.env("PATH", format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default()));
        }
        let child = cmd.spawn().expect("lockstep runs");
        // Wait until the fake program runs, then interrupt.
        let started = std::time::Instant::now();
        while Command::new("pgrep").args(["-f", &format!("sleep {marker}")]).output().unwrap().stdout.is_empty() {
            assert!(started.elapsed() < std::time::Duration::from_secs(60), "the fake {stuck} never ran");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill runs");
        let out = child.wait_with_output().expect("lockstep ends");
        assert_eq!(out.status.code(), Some(130), "{stuck}: {}", String::from_utf8_lossy(&out.stdout));
        let report = json(&out);
        assert_eq!(report["verdict"], "unknown", "{report:#}");
        assert!(report.to_string().contains("interrupted"), "{report:#}");
        let left = left_behind(&format!("sleep {marker}"));
        assert!(left.is_empty(), "{stuck}: processes left behind: {}", left);
        let files: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(files.is_empty(), "{stuck}: files left behind: {files:?}");
    }
}

/// `--memory-limit` bounds the host run of a whole program too: a `main`
/// that writes 96 MiB (a page of distinct bytes, doubled by `memcpy`) runs
/// to its racy launch under the default limit (a quarter of 1 GiB for what
/// the run writes), and stops, `unknown` with the reason, under 256 MiB.
#[test]
fn the_host_run_stays_within_the_memory_limit() {
    let program = scratch(
        "host-memory.cu",
        "#include <stdlib.h>\n#include <string.h>\n__global__ void racy(int *a) { a[0] = threadIdx.x; }\nint main() {\n  size_t n = 96 << 20;\n  char *p = (char *)malloc(n);\n  for (int i = 0; i < 4096; i++) p[i] = (char)(i * 7);\n  for (size_t done = 4096; done < n; done *= 2) memcpy(p + done, p, done);\n  int *d;\n  cudaMalloc((void **)&d, sizeof(int));\n  racy<<<1, 32>>>(d);\n  return 0;\n}\n",
    );
    let (code, report) = check_json(&program, &[]);
    assert_eq!(code, Some(1), "{report:#}");
    assert!(kinds(&report).contains(&"data-race".to_string()), "{report:#}");
    let (code, report) = check_json(&program, &["--memory-limit=256"]);
    assert_eq!(code, Some(3), "{report:#}");
    assert!(report.to_string().contains("64 MiB"), "{report:#}");
}

/// `lockstep equiv` takes `--memory-limit` like `check` (in both of its
/// spellings) and answers within it.
#[test]
fn equiv_takes_the_memory_limit() {
    let a = scratch("equiv-mem-a.cu", "__global__ void k(int *a) { a[threadIdx.x] = 2 * threadIdx.x; }\n");
    let b = scratch("equiv-mem-b.cu", "__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x + threadIdx.x; }\n");
    for flag in [vec!["--memory-limit", "300"], vec!["--memory-limit=300"]] {
        let mut args = vec!["equiv", a.to_str().unwrap(), b.to_str().unwrap(), "--blockDim=32", "--gridDim=1", "--format=json"];
        args.extend(flag);
        let out = lockstep(&args);
        let report = json(&out);
        assert_eq!(report["verdict"], "equivalent", "{report:#}");
        assert_eq!(out.status.code(), Some(0), "{report:#}");
    }
}

/// Failures of the tools and the machine are `unknown` (exit 3) with a
/// message that says what broke, never a rejection that blames the kernel:
/// a clang that fails without a word, a temporary folder that cannot take
/// the scratch file, and a cached prelude header damaged by hand (which is
/// noticed and written again, so the check goes on as if nothing happened).
#[test]
fn environment_failures_are_not_blamed_on_the_kernel() {
    let racy = scratch("env.cl", "__kernel void k(__global int *a) { a[0] = get_local_id(0); }\n");
    let file = racy.to_str().unwrap();
    let with_env = |vars: &[(&str, &std::ffi::OsStr)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_lockstep"));
        command.args(["check", file, "--local_size=2", "--num_groups=1", "--format=json"]);
        for (name, value) in vars {
            command.env(name, value);
        }
        command.output().unwrap()
    };

    let dir = racy.parent().unwrap();
    let silent_clang = dir.join("silent-clang");
    std::fs::write(&silent_clang, "#!/bin/sh\nexit 1\n").unwrap();
    Command::new("chmod").arg("+x").arg(&silent_clang).status().unwrap();
    let out = with_env(&[("LOCKSTEP_CLANG", silent_clang.as_os_str())]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(json(&out).to_string().contains("without an error message"), "{}", json(&out));

    let out = with_env(&[("TMPDIR", std::ffi::OsStr::new("/nonexistent/lockstep-tmp"))]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(json(&out).to_string().contains("TMPDIR"), "{}", json(&out));

    let cache = dir.join("cache");
    let _ = std::fs::remove_dir_all(&cache);
    let out = with_env(&[("XDG_CACHE_HOME", cache.as_os_str())]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let prelude = std::fs::read_dir(cache.join("lockstep"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("prelude-")))
        .expect("the prelude was cached");
    let mut damaged = 0;
    for entry in std::fs::read_dir(&prelude).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "h") {
            std::fs::write(entry.path(), "#error damaged\n").unwrap();
            damaged += 1;
        }
    }
    assert!(damaged > 0, "no header in {}", prelude.display());
    let out = with_env(&[("XDG_CACHE_HOME", cache.as_os_str())]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(json(&out)["verdict"], "errors");
}
