//! Checking many files at once: a work queue served by `-j` threads, each
//! running one file's check as a child process of this binary
//! (`lockstep check FILE --format=json`). A child per file keeps files
//! apart: a timeout, a crash or the memory of one file's check never
//! touches another's, and each child's own `--timeout` watchdog applies.
//!
//! Each child runs in a process group of its own. Ctrl-C (or SIGTERM)
//! stops the run: no new check starts, every running child is sent
//! SIGTERM (its handler kills its clang and solver processes, see
//! `crate::interrupt`), and SIGKILL shortly after if it has not exited.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::cache::Cache;
use super::report;

/// One check of a file: all its kernels (`kernel` is `None`), or one
/// kernel with flags of its own.
#[derive(Clone, Debug)]
pub struct Run {
    pub kernel: Option<String>,
    /// The per-file flags (no input, no `--format`).
    pub args: Vec<String>,
}

/// A file and its checks.
#[derive(Clone, Debug)]
pub struct Job {
    pub file: PathBuf,
    pub runs: Vec<Run>,
}

/// A file's result.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: PathBuf,
    /// The file's JSON report (DESIGN.md's single-file object).
    pub report: Value,
    /// Wall-clock time of its checks (0 when cached).
    pub wall_ms: u64,
    pub cached: bool,
}

/// The state Ctrl-C changes: whether the run was interrupted, and the
/// process groups of the running children.
#[derive(Default)]
pub struct Interrupt {
    pub stopped: AtomicBool,
    children: Mutex<Vec<u32>>,
}

extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
}

fn signal_group(pid: u32, sig: i32) {
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) has no memory effects; `pid` leads a process
        // group of a child not yet reaped (it leaves the list first).
        unsafe {
            kill(-pid, sig);
        }
    }
}

const SIGKILL: i32 = 9;
const SIGTERM: i32 = 15;

impl Interrupt {
    /// Stops the run: SIGTERM to every running child's group, SIGKILL a
    /// second later to those still running.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        let pids = self.children.lock().map(|c| c.clone()).unwrap_or_default();
        for &pid in &pids {
            signal_group(pid, SIGTERM);
        }
        std::thread::sleep(Duration::from_secs(1));
        let still = self.children.lock().map(|c| c.clone()).unwrap_or_default();
        for pid in still {
            signal_group(pid, SIGKILL);
        }
    }
}

/// What the workers report as they go.
pub trait Observer: Sync {
    fn started(&self, file: &Path);
    fn finished(&self, outcome: &Outcome);
}

/// Checks every job with `jobs` workers, in the order given; returns the
/// outcomes of the files checked (all of them unless interrupted).
pub fn run_all(
    queue: Vec<Job>,
    jobs: usize,
    cache: Option<&Cache>,
    deadline: Option<Duration>,
    interrupt: &Interrupt,
    observer: &dyn Observer,
) -> Vec<Outcome> {
    let queue = Mutex::new(VecDeque::from(queue));
    let outcomes = Mutex::new(Vec::new());
    let running = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                if interrupt.stopped.load(Ordering::SeqCst) {
                    break;
                }
                // The jobs no other file takes or will take go to this
                // file's kernels: at the end of a run, when fewer files
                // are left than jobs, a file of many kernels gets the
                // cores the finished workers leave idle.
                let Some((job, kernel_jobs)) = queue.lock().ok().and_then(|mut q| {
                    let job = q.pop_front()?;
                    let others = running.fetch_add(1, Ordering::SeqCst) + q.len();
                    Some((job, jobs.saturating_sub(others).max(1)))
                }) else {
                    break;
                };
                observer.started(&job.file);
                let outcome = check_file(&job, kernel_jobs, cache, deadline, interrupt);
                running.fetch_sub(1, Ordering::SeqCst);
                if interrupt.stopped.load(Ordering::SeqCst) {
                    break;
                }
                observer.finished(&outcome);
                if let Ok(mut o) = outcomes.lock() {
                    o.push(outcome);
                }
            });
        }
    });
    outcomes.into_inner().unwrap_or_default()
}

/// Checks one file: each of its runs, from the cache when it can, with
/// `kernel_jobs` of its kernels at once (unless its flags say otherwise).
fn check_file(job: &Job, kernel_jobs: usize, cache: Option<&Cache>, deadline: Option<Duration>, interrupt: &Interrupt) -> Outcome {
    let started = Instant::now();
    let mut merged: Option<Value> = None;
    let mut all_cached = true;
    let mut deps: Option<Option<Vec<PathBuf>>> = None;
    for run in &job.runs {
        let mut args = Vec::new();
        if let Some(k) = &run.kernel {
            args.push(format!("--kernel={k}"));
        }
        args.extend(run.args.iter().cloned());
        let hit = cache.and_then(|c| c.lookup(&job.file, &args));
        let report = match hit {
            Some((report, _)) => report,
            None => {
                all_cached = false;
                // How many threads a check uses does not change its report:
                // the flag stays out of the cache's key.
                let mut child_args = args.clone();
                if !args.iter().any(|a| a.starts_with("--kernel-jobs")) {
                    child_args.push(format!("--kernel-jobs={kernel_jobs}"));
                }
                let (report, cacheable) = run_child(&job.file, &child_args, deadline, interrupt);
                if let (Some(cache), true) = (cache, cacheable && !interrupt.stopped.load(Ordering::SeqCst)) {
                    let deps = deps.get_or_insert_with(|| file_dependencies(&job.file, &args));
                    if let Some(deps) = deps {
                        let exit = report::verdict_of(&report).exit_code();
                        cache.store(&job.file, &args, deps, &report, exit);
                    }
                }
                report
            }
        };
        merged = Some(match merged {
            None => report,
            Some(base) => report::merge_kernel_run(base, report),
        });
    }
    let report = merged.unwrap_or_else(|| report::unknown(&job.file, "nothing was checked"));
    Outcome { file: job.file.clone(), report, wall_ms: if all_cached { 0 } else { started.elapsed().as_millis() as u64 }, cached: all_cached }
}

/// The headers `file` includes, read with the include folders and
/// definitions of `args`.
fn file_dependencies(file: &Path, args: &[String]) -> Option<Vec<PathBuf>> {
    let mut probe = vec![file.display().to_string()];
    probe.extend(args.iter().cloned());
    let options = crate::options::parse_check(&probe).ok()?;
    super::cache::dependencies(file, &options.include_dirs, &options.defines, options.language)
}

/// Runs `lockstep check FILE ARGS --format=json` and reads its report;
/// the flag says whether the report may be cached (a crash, a stop from
/// outside or an internal error is not a property of the file).
pub fn run_child(file: &Path, args: &[String], deadline: Option<Duration>, interrupt: &Interrupt) -> (Value, bool) {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return (report::unknown(file, &format!("cannot find the lockstep binary: {e}")), false),
    };
    let mut cmd = Command::new(exe);
    cmd.arg("check").arg(file).args(args).arg("--format=json");
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return (report::unknown(file, &format!("cannot run the check: {e}")), false),
    };
    let pid = child.id();
    if let Ok(mut c) = interrupt.children.lock() {
        c.push(pid);
    }
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = std::io::Read::read_to_end(s, &mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = std::io::Read::read_to_end(s, &mut buf);
        }
        buf
    });
    let (done, exited) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let _ = done.send(());
        status
    });
    let timed_out = match deadline {
        Some(limit) => exited.recv_timeout(limit).is_err(),
        None => exited.recv().is_err(),
    };
    if timed_out {
        // The child's own watchdog should have stopped it long before:
        // stop it, and whatever it started in its group.
        signal_group(pid, SIGTERM);
        std::thread::sleep(Duration::from_millis(500));
        signal_group(pid, SIGKILL);
    }
    let status = waiter.join().ok().and_then(Result::ok);
    if let Ok(mut c) = interrupt.children.lock() {
        c.retain(|&p| p != pid);
    }
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    if timed_out {
        let secs = deadline.map_or(0, |d| d.as_secs());
        return (report::unknown(file, &format!("the check did not finish within {secs} s and was stopped")), false);
    }
    match serde_json::from_slice::<Value>(&stdout) {
        Ok(report) if report.get("verdict").is_some() => {
            let internal = report.to_string().contains("internal error");
            (report, !internal)
        }
        _ => {
            let how = match status.and_then(|s| s.code()) {
                Some(code) => format!("exit status {code}"),
                None => "killed by a signal".to_string(),
            };
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string();
            let mut r = report::unknown(file, &format!("the check failed without a report ({how}){}", if last.is_empty() { String::new() } else { format!(": {last}") }));
            r["stderr"] = json!(stderr);
            (r, false)
        }
    }
}
