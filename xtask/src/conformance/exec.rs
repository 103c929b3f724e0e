//! Running the `lockstep` binary on tests, in parallel and under a timeout.
//!
//! Each test runs in its own process group so that a timeout kills
//! everything the verifier started (Clang, solvers), not just the verifier.
//! Output is drained by reader threads while the main thread polls for exit,
//! so a chatty child can never block on a full pipe.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::suite::TestCase;

/// How a run of the binary ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The process exited with this status.
    Code(i32),
    /// The process was killed by this signal (not by the runner).
    Signal(i32),
    /// The runner killed the process group at its limit (see
    /// `wait_with_timeout`).
    TimedOut,
    /// The process could not be started.
    SpawnFailed(String),
}

/// Everything observed about one run.
#[derive(Clone, Debug)]
pub struct RawRun {
    pub exit: Exit,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
    /// The largest resident set of the verifier or of any process it waited
    /// for (its solvers, clang), in KiB, as `wait4` reports it: the peak of
    /// the largest single process, not of all of them together. `None` when
    /// the run timed out or could not be measured.
    pub max_rss_kib: Option<u64>,
    /// The peak of the verifier and all its descendants together, in KiB
    /// (`memory::tree_usage`, sampled every 100 ms, and never below
    /// `max_rss_kib`). `None` when the run timed out or could not be
    /// measured.
    pub max_tree_rss_kib: Option<u64>,
}

/// The full command line (after the binary) used for `case`.
pub fn command_args(case: &TestCase) -> Vec<String> {
    let mut args = vec!["check".to_string(), case.file.clone()];
    args.extend(case.args.iter().cloned());
    args.push("-I".to_string());
    args.push(case.dir.to_string_lossy().into_owned());
    args.push("--format=json".to_string());
    args
}

/// Runs `bin` on one test with the test's folder as working directory, so
/// the file is named as the suites' own runners name it (`kernel.cu`,
/// `main.cu`) and relative includes resolve.
pub fn run_one(bin: &Path, case: &TestCase, timeout: Duration) -> RawRun {
    let start = Instant::now();
    let mut command = Command::new(bin);
    command
        .args(command_args(case))
        .current_dir(&case.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A fresh process group whose id is the child's pid: killing
        // `-pid` then reaches every process the verifier spawned.
        .process_group(0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            return RawRun {
                exit: Exit::SpawnFailed(e.to_string()),
                stdout: String::new(),
                stderr: String::new(),
                wall: start.elapsed(),
                max_rss_kib: None,
                max_tree_rss_kib: None,
            }
        }
    };
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let (exit, max_rss_kib, tree_kib) = wait_with_timeout(&mut child, start, timeout);
    let max_tree_rss_kib = max_rss_kib.map(|single| single.max(tree_kib));
    let wall = start.elapsed();
    // Whatever the verifier left behind in its group (a Clang it did not
    // wait for) would keep the pipes open and the reader threads blocked, so
    // it goes too. The group id cannot have been reused while such members
    // remain; when none remain the call fails harmlessly.
    kill_group(child.id());
    RawRun {
        exit,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        wall,
        max_rss_kib,
        max_tree_rss_kib,
    }
}

/// Reads a pipe to its end on a separate thread.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Linux's `struct rusage` (x86-64 and aarch64 alike: two `timeval`s, then
/// fourteen `long`s, of which `ru_maxrss` is the first).
#[repr(C)]
struct RUsage {
    times: [i64; 4],
    max_rss: i64,
    rest: [i64; 13],
}

/// How often a running test's process tree is measured.
const TREE_SAMPLE_PERIOD: Duration = Duration::from_millis(100);

/// How many times the limit a test may run by the wall clock while its
/// process tree has used less CPU time than the limit.
const WALL_BACKSTOP: u32 = 3;

/// Polls the child with `wait4` until it exits or its limit is reached
/// (`timeout` since `start` by the wall clock, and `timeout` of CPU time used
/// by its process tree, or `WALL_BACKSTOP` times `timeout` by the wall
/// clock alone); with the exit, the peak resident set `wait4` reports (see
/// `RawRun::max_rss_kib`), and the largest sample of the whole tree's
/// resident set (0 when none was taken).
///
/// Polling starts at a millisecond and backs off to 20 ms, so quick tests
/// are timed closely without spinning on slow ones. The tree is sampled
/// every 100 ms: reading `/proc` costs a few milliseconds, too much to do
/// at every poll.
fn wait_with_timeout(child: &mut Child, start: Instant, timeout: Duration) -> (Exit, Option<u64>, u64) {
    extern "C" {
        fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut RUsage) -> i32;
    }
    const WNOHANG: i32 = 1;
    let Ok(pid) = i32::try_from(child.id()) else {
        return (Exit::SpawnFailed("no process id".to_string()), None, 0);
    };
    let mut pause = Duration::from_millis(1);
    let (mut tree_peak, mut next_sample) = (0u64, start + TREE_SAMPLE_PERIOD);
    let mut tree_cpu: Option<Duration> = None;
    loop {
        let mut status = 0i32;
        let mut usage = RUsage { times: [0; 4], max_rss: 0, rest: [0; 13] };
        // SAFETY: both pointers are to live locals of the right layout;
        // `pid` is our own child, not yet reaped (std's `Child` is not
        // waited on elsewhere).
        let r = unsafe { wait4(pid, &mut status, WNOHANG, &mut usage) };
        if r == pid {
            let rss = u64::try_from(usage.max_rss).ok();
            let signal = status & 0x7f;
            return if signal == 0 {
                (Exit::Code((status >> 8) & 0xff), rss, tree_peak)
            } else {
                (Exit::Signal(signal), rss, tree_peak)
            };
        }
        if r < 0 {
            return (Exit::SpawnFailed(format!("wait failed: {}", std::io::Error::last_os_error())), None, 0);
        }
        // The limit is the tree's CPU time as well as the wall clock, so a
        // machine running other jobs does not turn a test that ends on its
        // own budgets into a timeout; the wall clock alone stops it at
        // `WALL_BACKSTOP` times the limit. Where `/proc` cannot be read the
        // CPU time is taken to be the wall clock.
        let elapsed = start.elapsed();
        if elapsed >= timeout && (tree_cpu.is_none_or(|cpu| cpu >= timeout) || elapsed >= timeout * WALL_BACKSTOP) {
            kill_group(child.id());
            let _ = child.wait();
            return (Exit::TimedOut, None, 0);
        }
        if Instant::now() >= next_sample {
            let usage = super::memory::tree_usage(child.id());
            tree_peak = tree_peak.max(usage.map_or(0, |u| u.resident_kib));
            tree_cpu = usage.map(|u| u.cpu);
            next_sample = Instant::now() + TREE_SAMPLE_PERIOD;
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Sends SIGKILL to the process group `pgid`.
fn kill_group(pgid: u32) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    let Ok(pgid) = i32::try_from(pgid) else {
        return;
    };
    // SAFETY: `kill` has no memory-safety preconditions; a negative pid
    // addresses the process group, which is the child's own (created by
    // `process_group(0)`), never the runner's.
    unsafe {
        kill(-pgid, SIGKILL);
    }
}

/// Runs every case on `jobs` worker threads and calls `on_done` on the
/// calling thread as each finishes (in completion order). Returns the runs in
/// the order of `cases`.
pub fn run_all(
    bin: &Path,
    cases: &[TestCase],
    jobs: usize,
    timeout: Duration,
    mut on_done: impl FnMut(usize, &RawRun),
) -> Vec<RawRun> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, RawRun)>();
    let bin: PathBuf = bin.to_path_buf();
    let mut runs: Vec<Option<RawRun>> = vec![None; cases.len()];
    thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(cases.len().max(1)) {
            let sender = sender.clone();
            let (next, bin) = (&next, &bin);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(index) else { break };
                let run = run_one(bin, case, timeout);
                if sender.send((index, run)).is_err() {
                    break;
                }
            });
        }
        // Only the workers hold senders now, so the loop ends when they do.
        drop(sender);
        for (index, run) in receiver {
            on_done(index, &run);
            runs[index] = Some(run);
        }
    });
    runs.into_iter()
        .map(|run| run.expect("every test index is run exactly once"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::suite::{Expected, Suite};
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn case(dir: &Path) -> TestCase {
        TestCase {
            suite: Suite::GpuVerify,
            id: "t".into(),
            dir: dir.to_path_buf(),
            file: "kernel.cu".into(),
            args: vec!["--blockDim=2".into()],
            expected: Expected::Pass,
            expected_kinds: vec![],
            fragments: vec![],
            label: None,
        }
    }

    #[test]
    fn runs_in_test_dir_and_captures_output() {
        let dir = std::env::temp_dir().join(format!("xtask-exec-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let bin = script(&dir, "ok.sh", "echo \"$@\"; pwd; echo err >&2; exit 3");
        let run = run_one(&bin, &case(&dir), Duration::from_secs(10));
        assert_eq!(run.exit, Exit::Code(3));
        let expected_args = format!(
            "check kernel.cu --blockDim=2 -I {} --format=json",
            dir.display()
        );
        assert_eq!(run.stdout.lines().next(), Some(expected_args.as_str()));
        assert_eq!(
            fs::canonicalize(run.stdout.lines().nth(1).unwrap()).unwrap(),
            fs::canonicalize(&dir).unwrap()
        );
        assert_eq!(run.stderr, "err\n");

        // The grandchild `sleep` holds the pipes open; the timeout must kill
        // the whole group or the readers would wait for it.
        let slow = script(&dir, "slow.sh", "sleep 30 & sleep 30");
        let run = run_one(&slow, &case(&dir), Duration::from_millis(300));
        assert_eq!(run.exit, Exit::TimedOut);
        assert!(run.wall < Duration::from_secs(10));

        let missing = run_one(&dir.join("absent"), &case(&dir), Duration::from_secs(1));
        assert!(matches!(missing.exit, Exit::SpawnFailed(_)));
        fs::remove_dir_all(&dir).unwrap();
    }
}
