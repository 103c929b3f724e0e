//! `cargo xtask fuzz --time S`: a structure-aware mutator over the
//! conformance kernels and the corpora (issue 17), run against the binary
//! as a hostile user would run it.
//!
//! Each input is a seed file (a conformance test with its flags, or a CUDA
//! sample with `-I Common`) changed by one to three mutations: delete a
//! line, duplicate a line, swap two tokens of a line, replace an integer
//! literal (in the source or in a sizing flag) with 0, -1, 2^31-1, 2^32 or
//! 2^64-1, remove a barrier, flip a comparison. The mutant is written to a
//! fresh folder of the worker's under the system's temporary folder (never
//! into the repository) and checked with `--timeout` and `--format=json`,
//! with `TMPDIR` pointing at an empty folder of its own. A run fails when
//! it
//!
//! - panics (an `internal error` report or a panic message),
//! - ends by a signal (an abort) or with an exit status outside 0-3,
//! - prints anything but one JSON document,
//! - takes more than twice its `--timeout`,
//! - leaves a process behind (the fuzzer is the subreaper of everything
//!   it starts, so a child that outlives lockstep becomes the fuzzer's), or
//! - leaves a file in its `TMPDIR`.
//!
//! Failing inputs are kept (with the command line) under `--keep`.

use std::collections::HashSet;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::conformance::suite::{self, Suite};

const USAGE: &str = "\
usage: cargo xtask fuzz [options]

Mutates the conformance kernels and the corpora's CUDA files and checks
each mutant: no panic, exit status 0-3, one JSON document, no run past
twice its --timeout, no process or temporary file left behind.

options:
  --time SECS        how long to fuzz (default: 60)
  --timeout SECS     lockstep's --timeout for each input (default: 10)
  --jobs N           inputs checked in parallel (default: number of CPUs)
  --seed N           the mutator's seed (default: from the clock)
  --lockstep PATH    the binary (default: $LOCKSTEP_BIN, else
                     $CARGO_TARGET_DIR or target/ + release/lockstep)
  --shared DIR       the shared folder (default: ../shared beside the workspace)
  --keep DIR         where failing inputs are kept (default: the system's
                     temporary folder, lockstep-fuzz-failures)
  --kir              the in-process mode (`fuzz_kir.rs`): mutate the KIR of
                     conformance kernels lowered once, and run the parser,
                     verifier, printer and engines in this process
  --seeds N          with --kir: kernels lowered to seed the run (default: 60)
  --full-every N     with --kir: one input in N gets the whole check, solvers
                     included; the others the concrete search (default: 20)
  --recheck N        with --kir: one input in N is checked twice and the
                     reports compared (default: 50)

exit status: 0 no failure, 1 failures, 2 usage or setup error.
";

struct Options {
    time: Duration,
    timeout: u64,
    jobs: usize,
    seed: u64,
    lockstep: Option<PathBuf>,
    shared: Option<PathBuf>,
    keep: PathBuf,
    kir: bool,
    seeds: usize,
    full_every: u64,
    recheck: u64,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        time: Duration::from_secs(60),
        timeout: 10,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64),
        lockstep: None,
        shared: None,
        keep: std::env::temp_dir().join("lockstep-fuzz-failures"),
        kir: false,
        seeds: 60,
        full_every: 20,
        recheck: 50,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> { inline.clone().or_else(|| rest.next().cloned()).ok_or_else(|| format!("{flag} needs a value")) };
        let number = |v: String| -> Result<u64, String> { v.parse().map_err(|_| format!("{flag} needs a number, got {v:?}")) };
        match flag {
            "--time" => o.time = Duration::from_secs(number(value()?)?),
            "--timeout" => o.timeout = number(value()?)?.max(1),
            "--jobs" | "-j" => o.jobs = number(value()?)?.max(1) as usize,
            "--seed" => o.seed = number(value()?)?,
            "--lockstep" => o.lockstep = Some(PathBuf::from(value()?)),
            "--shared" => o.shared = Some(PathBuf::from(value()?)),
            "--keep" => o.keep = PathBuf::from(value()?),
            "--kir" => o.kir = true,
            "--seeds" => o.seeds = number(value()?)?.max(1) as usize,
            "--full-every" => o.full_every = number(value()?)?.max(1),
            "--recheck" => o.recheck = number(value()?)?.max(1),
            "--help" | "-h" => return Ok(None),
            _ => return Err(format!("unknown option {arg:?}")),
        }
    }
    Ok(Some(o))
}

pub fn main(args: &[String]) -> i32 {
    crate::run_subcommand(args, USAGE, parse, run)
}

/// A file to mutate, with the flags it is checked with.
#[derive(Clone, Debug)]
pub struct Seed {
    pub file: PathBuf,
    pub text: String,
    pub args: Vec<String>,
}

/// The conformance tests and the corpora's CUDA files under `shared`.
fn seeds(shared: &Path) -> Vec<Seed> {
    let mut seeds = Vec::new();
    for suite in Suite::ALL {
        let Ok(found) = suite::discover(suite, &shared.join("conformance").join(suite.name())) else { continue };
        for case in found.cases {
            let file = case.dir.join(&case.file);
            if let Ok(text) = std::fs::read_to_string(&file) {
                let mut args = case.args.clone();
                args.extend(["-I".to_string(), case.dir.display().to_string()]);
                seeds.push(Seed { file, text, args });
            }
        }
    }
    let corpus = shared.join("corpora/cuda-samples");
    let common = corpus.join("Common");
    let mut stack = vec![corpus.join("Samples")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "cu") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    let args = vec!["-I".into(), common.display().to_string(), "-I".into(), dir.display().to_string()];
                    seeds.push(Seed { file: path, text, args });
                }
            }
        }
    }
    seeds
}

/// A small deterministic generator (xorshift64*): runs are reproducible
/// from `--seed`.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// The integer values that break sizes: zero, negative, the 32-bit edges,
/// the 64-bit edge.
pub const HOSTILE: [&str; 6] = ["0", "-1", "2147483647", "4294967296", "18446744073709551615", "1099511627776"];

/// Applies one mutation to `seed`'s text or flags; returns its name.
pub fn mutate(text: &mut String, args: &mut [String], rng: &mut Rng) -> &'static str {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let what = match rng.below(8) {
        0 => {
            lines.remove(rng.below(lines.len()));
            "delete a line"
        }
        1 => {
            let i = rng.below(lines.len());
            lines.insert(i, lines[i].clone());
            "duplicate a line"
        }
        2 => {
            let i = rng.below(lines.len());
            let mut tokens: Vec<&str> = lines[i].split(' ').collect();
            if tokens.len() >= 2 {
                let (a, b) = (rng.below(tokens.len()), rng.below(tokens.len()));
                tokens.swap(a, b);
            }
            lines[i] = tokens.join(" ");
            "swap tokens"
        }
        3 | 4 => {
            let value = HOSTILE[rng.below(HOSTILE.len())];
            // A literal in the source, or a number in a flag.
            let literals = integer_literals(text);
            let flag_numbers: Vec<usize> = args.iter().enumerate().filter(|(_, a)| a.starts_with("--") && a.contains('=') && a.bytes().any(|b| b.is_ascii_digit())).map(|(i, _)| i).collect();
            if !flag_numbers.is_empty() && (literals.is_empty() || rng.below(4) == 0) {
                let i = flag_numbers[rng.below(flag_numbers.len())];
                let numbers = integer_literals(&args[i]);
                if let Some(&(start, end)) = numbers.get(rng.below(numbers.len())) {
                    args[i].replace_range(start..end, value);
                }
                return "replace a number in a flag";
            }
            if let Some(&(start, end)) = literals.get(rng.below(literals.len())) {
                text.replace_range(start..end, value);
            }
            return "replace an integer literal";
        }
        5 => {
            let barriers: Vec<usize> = (0..lines.len()).filter(|&i| ["__syncthreads", "barrier(", "__syncwarp", ".sync()", "grid.sync"].iter().any(|b| lines[i].contains(b))).collect();
            if let Some(&i) = barriers.get(rng.below(barriers.len())) {
                lines.remove(i);
            }
            "remove a barrier"
        }
        _ => {
            const FLIPS: [(&str, &str); 6] = [("<=", ">"), (">=", "<"), ("==", "!="), ("!=", "=="), (" < ", " >= "), (" > ", " <= ")];
            let with: Vec<usize> = (0..lines.len()).filter(|&i| FLIPS.iter().any(|(a, _)| lines[i].contains(a))).collect();
            if let Some(&i) = with.get(rng.below(with.len())) {
                if let Some((a, b)) = FLIPS.iter().find(|(a, _)| lines[i].contains(a)) {
                    lines[i] = lines[i].replacen(a, b, 1);
                }
            }
            "flip a comparison"
        }
    };
    *text = lines.join("\n") + "\n";
    what
}

/// The byte ranges of the decimal integer literals of `text` (digits not
/// inside an identifier).
pub fn integer_literals(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b'.')) {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i >= bytes.len() || !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'.' || bytes[i] == b'_') {
                found.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    found
}

/// What went wrong with one input, if anything.
fn failure(status: Option<std::process::ExitStatus>, stdout: &str, stderr: &str, wall: Duration, limit: Duration) -> Option<String> {
    let Some(status) = status else {
        return Some(format!("still running after {:.0} s: killed", wall.as_secs_f64()));
    };
    if let Some(signal) = status.signal() {
        return Some(format!("ended by signal {signal}"));
    }
    let code = status.code().unwrap_or(-1);
    if !(0..=3).contains(&code) {
        return Some(format!("exit status {code}"));
    }
    if stderr.contains("panicked") || stdout.contains("internal error") {
        return Some("panic".into());
    }
    if serde_json::from_str::<serde_json::Value>(stdout.trim()).is_err() {
        return Some("stdout is not one JSON document".into());
    }
    if wall > limit * 2 {
        return Some(format!("ran {:.1} s, more than twice its --timeout", wall.as_secs_f64()));
    }
    None
}

#[derive(Default)]
struct Tally {
    inputs: u64,
    failures: Vec<String>,
}

fn run(o: &Options) -> Result<i32, String> {
    let bin = crate::conformance::binary(&o.lockstep)?;
    let shared = crate::conformance::shared_dir(&o.shared);
    let seeds = seeds(&shared);
    if seeds.is_empty() {
        return Err(format!("no seed files under {}", shared.display()));
    }
    if o.kir {
        let kir = crate::fuzz_kir::KirOptions { time: o.time, jobs: o.jobs, seed: o.seed, keep: o.keep.clone(), seeds: o.seeds, full_every: o.full_every, recheck: o.recheck };
        return crate::fuzz_kir::run(&kir, &bin, &seeds);
    }
    become_subreaper();
    println!("lockstep fuzz: {} seed files, {} jobs, --timeout={} per input, seed {}, for {} s", seeds.len(), o.jobs, o.timeout, o.seed, o.time.as_secs());
    let started = Instant::now();
    let tally = Mutex::new(Tally::default());
    let counter = AtomicU64::new(0);
    let running: Arc<Mutex<HashSet<u32>>> = Arc::default();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for worker in 0..o.jobs {
            let (seeds, bin, tally, counter, running, stop) = (&seeds, &bin, &tally, &counter, &running, &stop);
            scope.spawn(move || {
                let mut rng = Rng::new(o.seed ^ (worker as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                let dir = std::env::temp_dir().join(format!("lockstep-fuzz-{}-{worker}", std::process::id()));
                while started.elapsed() < o.time && !stop.load(Ordering::Relaxed) {
                    let n = counter.fetch_add(1, Ordering::Relaxed);
                    let seed = &seeds[rng.below(seeds.len())];
                    let (mut text, mut args) = (seed.text.clone(), seed.args.clone());
                    let mut applied = Vec::new();
                    for _ in 0..1 + rng.below(3) {
                        applied.push(mutate(&mut text, &mut args, &mut rng));
                    }
                    let outcome = check_one(bin, &dir, seed, &text, &args, o.timeout, running);
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    t.inputs += 1;
                    if let Some(why) = outcome {
                        let kept = keep(&o.keep, n, seed, &text, &args);
                        let line = format!("{why}: {} ({}), kept in {}", seed.file.display(), applied.join(", "), kept.display());
                        println!("FAIL {line}");
                        t.failures.push(line);
                    }
                    if t.inputs % 100 == 0 {
                        println!("{} inputs, {} failures, {:.0} s", t.inputs, t.failures.len(), started.elapsed().as_secs_f64());
                    }
                }
                let _ = std::fs::remove_dir_all(&dir);
            });
        }
    });
    let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    println!("{} inputs in {:.0} s: {} failures", t.inputs, started.elapsed().as_secs_f64(), t.failures.len());
    Ok(if t.failures.is_empty() { 0 } else { 1 })
}

/// Checks one mutant; returns why it failed, if it did.
fn check_one(bin: &Path, dir: &Path, seed: &Seed, text: &str, args: &[String], timeout: u64, running: &Mutex<HashSet<u32>>) -> Option<String> {
    let tmp = dir.join("tmp");
    let _ = std::fs::remove_dir_all(dir);
    if std::fs::create_dir_all(&tmp).is_err() {
        return Some(format!("cannot create {}", tmp.display()));
    }
    let name = seed.file.file_name().map_or_else(|| "kernel.cu".into(), |n| n.to_os_string());
    let file = dir.join(name);
    if std::fs::write(&file, text).is_err() {
        return Some(format!("cannot write {}", file.display()));
    }
    let limit = Duration::from_secs(timeout);
    let started = Instant::now();
    let mut cmd = Command::new(bin);
    cmd.arg("check")
        .arg(&file)
        .args(args)
        .arg(format!("--timeout={timeout}"))
        .arg("--format=json")
        .env("TMPDIR", &tmp)
        .current_dir(seed.file.parent().unwrap_or(Path::new(".")))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Some(format!("cannot start lockstep: {e}")),
    };
    let pid = child.id();
    running.lock().unwrap_or_else(|e| e.into_inner()).insert(pid);
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    // Past three times the timeout the run is stopped (a failure already).
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < limit * 3 + Duration::from_secs(5) => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                signal(-(pid as i32));
                let _ = child.wait();
                break None;
            }
        }
    };
    let wall = started.elapsed();
    running.lock().unwrap_or_else(|e| e.into_inner()).remove(&pid);
    let (stdout, stderr) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    let mut why = failure(status, &stdout, &stderr, wall, limit);
    if let Some(left) = leftover_processes(running) {
        why = Some(why.map_or(String::new(), |w| format!("{w}; ")) + &format!("processes left behind: {left}"));
    }
    let files: Vec<String> = std::fs::read_dir(&tmp).map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect()).unwrap_or_default();
    if !files.is_empty() {
        why = Some(why.map_or(String::new(), |w| format!("{w}; ")) + &format!("files left in TMPDIR: {}", files.join(", ")));
    }
    why
}

/// Keeps a failing input: the mutant and the command line.
fn keep(dir: &Path, n: u64, seed: &Seed, text: &str, args: &[String]) -> PathBuf {
    let folder = dir.join(format!("{n:06}"));
    let _ = std::fs::create_dir_all(&folder);
    let name = seed.file.file_name().map_or_else(|| "kernel.cu".into(), |n| n.to_os_string());
    let _ = std::fs::write(folder.join(&name), text);
    let _ = std::fs::write(folder.join("command"), format!("cd {} && lockstep check {} {}\n", seed.file.parent().map_or(String::new(), |p| p.display().to_string()), folder.join(&name).display(), args.join(" ")));
    folder
}

/// Makes this process the reaper of every orphan among its descendants, so
/// that a child lockstep leaves behind shows up as ours.
fn become_subreaper() {
    extern "C" {
        fn prctl(option: i32, ...) -> i32;
    }
    const PR_SET_CHILD_SUBREAPER: i32 = 36;
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag of this
    // process.
    unsafe {
        prctl(PR_SET_CHILD_SUBREAPER, 1u64);
    }
}

fn signal(pid: i32) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    // SAFETY: kill(2) has no memory effects; `pid` names a process group
    // this fuzzer created or an orphan it reaps.
    unsafe {
        kill(pid, 9);
    }
}

/// Children of this process that are not running lockstep runs: orphans a
/// run left behind. Exited ones are reaped; live ones are killed, reaped
/// and named.
fn leftover_processes(running: &Mutex<HashSet<u32>>) -> Option<String> {
    extern "C" {
        fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
    }
    let me = std::process::id();
    let mut named = Vec::new();
    let entries = std::fs::read_dir("/proc").ok()?;
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some(close) = stat.rfind(')') else { continue };
        let fields: Vec<&str> = stat[close + 2..].split_whitespace().collect();
        let (state, ppid) = (fields.first().copied().unwrap_or(""), fields.get(1).and_then(|p| p.parse::<u32>().ok()).unwrap_or(0));
        if ppid != me || running.lock().unwrap_or_else(|e| e.into_inner()).contains(&pid) {
            continue;
        }
        let name = stat[stat.find('(').map_or(0, |i| i + 1)..close].to_string();
        // Our own lockstep children between spawn and registration are not
        // orphans: only other programs are.
        if name == "lockstep" {
            continue;
        }
        // A child lockstep killed as it exited may take an instant to die:
        // only one still alive a second later was left behind.
        if state != "Z" && still_alive_after(pid, Duration::from_secs(1)) {
            named.push(format!("{name} ({pid})"));
            signal(pid as i32);
        }
        let mut status = 0;
        // SAFETY: waitpid on a child of ours that is not a `Child` handle
        // (an orphan we inherited); it writes only `status`.
        unsafe {
            waitpid(pid as i32, &mut status, 0);
        }
    }
    (!named.is_empty()).then(|| named.join(", "))
}

/// Whether process `pid` is still running (not a zombie, not gone) after
/// waiting up to `wait` for it to end.
fn still_alive_after(pid: u32, wait: Duration) -> bool {
    let started = Instant::now();
    loop {
        let alive = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rfind(')').map(|i| s[i + 2..].split_whitespace().next().unwrap_or("") != "Z"))
            .unwrap_or(false);
        if !alive || started.elapsed() >= wait {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals_skip_identifiers_and_floats() {
        let text = "int a1 = 42; float f = 1.5f; x[7] = 0x10;";
        let found: Vec<&str> = integer_literals(text).into_iter().map(|(s, e)| &text[s..e]).collect();
        assert_eq!(found, ["42", "7"]);
    }

    #[test]
    fn mutations_change_the_input_and_are_reproducible() {
        let text = "__global__ void k(int *a) {\n  if (threadIdx.x < 16) a[threadIdx.x] = 3;\n  __syncthreads();\n}\n";
        let args = vec!["--blockDim=32".to_string(), "--gridDim=1".to_string()];
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|_| {
                    let (mut t, mut a) = (text.to_string(), args.clone());
                    mutate(&mut t, &mut a, &mut rng);
                    (t, a)
                })
                .collect::<Vec<_>>()
        };
        let first = run(7);
        assert_eq!(first, run(7));
        assert!(first.iter().filter(|(t, a)| t != text || *a != args).count() > 25);
        assert!(first.iter().any(|(t, _)| !t.contains("__syncthreads") || t.matches("__syncthreads").count() > 1));
    }
}
