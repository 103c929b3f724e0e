//! `cargo xtask mutants`: the soundness harness. It takes the kernels
//! lockstep verifies (the conformance suites' `pass` tests, the examples
//! and goldens that expect `verified`, and on request the CUDA samples
//! corpus's files with the sizes their launch sites use), introduces one
//! real defect at a time (`ops`), and asks two questions of each mutant:
//! does the interpreter show it defective (a violation whose witness the
//! replay confirmed, from the normal check or from `--mode=find`, the
//! concrete search and the bounded finder), and what does the normal check
//! say. A mutant the interpreter shows defective that the check calls
//! `verified` is a soundness bug, listed and failing the run: the fix
//! belongs in the engine, never here.
//!
//! Mutants are written to a temporary folder (a copy of the test's folder
//! with the kernel replaced) and removed after their run; nothing of the
//! suites is copied into the repository.

pub mod ops;
pub mod sources;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::conformance::exec::{run_one, Exit};
use crate::conformance::suite::{Suite, TestCase};
use sources::Source;
use crate::conformance::{absolute, resolve, workspace_root};

const USAGE: &str = "\
usage: cargo xtask mutants [options]

Mutates every `pass` kernel of the conformance suites that lockstep
verifies, runs each mutant in the interpreter (the replay-confirmed
search of --mode=find) and through the normal check, and reports every
mutant the interpreter shows defective that the check calls verified.

options:
  --suite gpuverify|esbmc-gpu|all   suites to take kernels from (default: all)
  --sources LIST                    comma-separated sources: suites, goldens (examples
                                    and goldens expecting `verified`), samples (the
                                    cuda-samples corpus, slow) (default: suites,goldens)
  --dry-run                         list how many mutants each candidate kernel has,
                                    without running anything
  --filter SUBSTR                   only tests whose key contains SUBSTR
  --per-kernel N                    mutants per kernel, spread over the operators (default: 6)
  --max-kernels N                   stop after N verified kernels (default: all)
  --jobs N                          runs in parallel (default: 2)
  --timeout SECS                    wall-clock limit per run (default: 30)
  --lockstep PATH                   the binary (as for `conformance`)
  --shared DIR                      the shared folder (as for `conformance`)
  --log FILE                        append one JSON line per mutant as it completes
  -v, --verbose                     print every mutant's result
  -h, --help                        this text

exit status: 0 no verified defective mutant, 1 some, 2 usage or setup error.
";

struct Options {
    suites: Vec<Suite>,
    filter: Option<String>,
    per_kernel: usize,
    max_kernels: usize,
    jobs: usize,
    timeout: Duration,
    lockstep: Option<PathBuf>,
    shared: Option<PathBuf>,
    log: Option<PathBuf>,
    verbose: bool,
    sources: Vec<String>,
    dry_run: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        suites: Suite::ALL.to_vec(),
        filter: None,
        per_kernel: 6,
        max_kernels: usize::MAX,
        jobs: 2,
        timeout: Duration::from_secs(30),
        lockstep: None,
        shared: None,
        log: None,
        verbose: false,
        sources: vec!["suites".into(), "goldens".into()],
        dry_run: false,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || inline.clone().or_else(|| rest.next().cloned()).ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| v.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| format!("{flag} needs a positive number, got {v:?}"));
        match flag {
            "--suite" => {
                let v = value()?;
                o.suites = match v.as_str() {
                    "all" => Suite::ALL.to_vec(),
                    name => vec![Suite::from_name(name).ok_or_else(|| format!("unknown suite {name:?}"))?],
                };
            }
            "--filter" => o.filter = Some(value()?),
            "--per-kernel" => o.per_kernel = number(value()?)?,
            "--max-kernels" => o.max_kernels = number(value()?)?,
            "--jobs" | "-j" => o.jobs = number(value()?)?,
            "--timeout" => o.timeout = Duration::from_secs(number(value()?)? as u64),
            "--lockstep" => o.lockstep = Some(PathBuf::from(value()?)),
            "--shared" => o.shared = Some(PathBuf::from(value()?)),
            "--log" => o.log = Some(PathBuf::from(value()?)),
            "--verbose" | "-v" => o.verbose = true,
            "--dry-run" => o.dry_run = true,
            "--sources" => {
                o.sources = value()?.split(',').map(|x| x.trim().to_string()).collect();
                if let Some(bad) = o.sources.iter().find(|x| !["suites", "goldens", "samples"].contains(&x.as_str())) {
                    return Err(format!("unknown source {bad:?} (suites, goldens, samples)"));
                }
            }
            "--help" | "-h" => return Ok(None),
            _ => return Err(format!("unknown option {arg:?}")),
        }
    }
    Ok(Some(o))
}

/// Runs the subcommand and returns the process exit status.
pub fn main(args: &[String]) -> i32 {
    crate::run_subcommand(args, USAGE, parse, run)
}

/// What one run of the binary said, from its JSON report.
#[derive(Clone, Debug, Default)]
struct Outcome {
    /// The file's verdict (`verified`, `errors`, ...), or how the run ended
    /// (`timeout`, `crash`).
    verdict: String,
    /// Whether some violation's witness was confirmed by the replay.
    confirmed: bool,
    /// The kinds of the confirmed violations.
    kinds: BTreeSet<String>,
}

fn outcome(bin: &Path, case: &TestCase, extra: &[&str], timeout: Duration) -> Outcome {
    let mut case = case.clone();
    case.args.extend(extra.iter().map(|s| s.to_string()));
    let raw = run_one(bin, &case, timeout);
    match raw.exit {
        Exit::TimedOut => return Outcome { verdict: "timeout".into(), ..Default::default() },
        Exit::Code(_) => {}
        _ => return Outcome { verdict: "crash".into(), ..Default::default() },
    }
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&raw.stdout) else {
        return Outcome { verdict: "crash".into(), ..Default::default() };
    };
    let mut out = Outcome { verdict: json["verdict"].as_str().unwrap_or("crash").to_string(), ..Default::default() };
    for kernel in json["kernels"].as_array().into_iter().flatten() {
        for v in kernel["violations"].as_array().into_iter().flatten() {
            if v["confirmed"].as_bool() == Some(true) {
                out.confirmed = true;
                out.kinds.insert(v["kind"].as_str().unwrap_or("?").to_string());
            }
        }
    }
    out
}

/// One mutant's result.
#[derive(Clone, Debug)]
struct Record {
    key: String,
    op: &'static str,
    line: usize,
    check: Outcome,
    /// Shown defective by the interpreter (a replay-confirmed violation).
    defective: bool,
}

/// A copy of the test's folder (or of its file alone) with the kernel
/// replaced by `text`, under `scratch`; the case to run it.
fn materialise(source: &Source, text: &str, scratch: &Path) -> std::io::Result<TestCase> {
    let case = &source.case;
    let _ = fs::remove_dir_all(scratch);
    fs::create_dir_all(scratch)?;
    if source.whole_dir {
        copy_dir(&case.dir, scratch, 0)?;
    }
    fs::write(scratch.join(&case.file), text)?;
    let mut m = case.clone();
    m.dir = scratch.to_path_buf();
    // The suites' flags may name the folder (`-I` paths were substituted).
    let from = case.dir.to_string_lossy().into_owned();
    let to = scratch.to_string_lossy().into_owned();
    m.args = case.args.iter().map(|a| a.replace(&from, &to)).collect();
    Ok(m)
}

/// Copies the regular files of a test's folder (and of its subfolders, a
/// few levels deep): headers it includes, inputs its `main` reads.
fn copy_dir(from: &Path, to: &Path, depth: u32) -> std::io::Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_file() && entry.metadata()?.len() <= 16 << 20 {
            fs::copy(entry.path(), &target)?;
        } else if kind.is_dir() && depth < 3 {
            fs::create_dir_all(&target)?;
            copy_dir(&entry.path(), &target, depth + 1)?;
        }
    }
    Ok(())
}

/// Runs `work` on every item with `jobs` threads; results in item order.
fn parallel<T: Sync, R: Send>(items: &[T], jobs: usize, work: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= items.len() {
                    break;
                }
                let r = work(k, &items[k]);
                results.lock().expect("no worker panics holding the lock")[k] = Some(r);
            });
        }
    });
    results.into_inner().expect("workers done").into_iter().map(|r| r.expect("every item ran")).collect()
}

fn run(o: &Options) -> Result<i32, String> {
    let root = workspace_root();
    let bin = absolute(resolve(&o.lockstep, "LOCKSTEP_BIN", || {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .filter(|v| !v.is_empty())
            .map_or_else(|| root.join("target"), PathBuf::from);
        target.join("release/lockstep")
    }));
    if !bin.is_file() {
        return Err(format!("lockstep binary not found at {} (build it, or pass --lockstep PATH)", bin.display()));
    }
    let shared = resolve(&o.shared, "LOCKSTEP_SHARED", || root.join("../shared"));
    let shared = fs::canonicalize(&shared).unwrap_or_else(|_| absolute(shared));
    let filter = o.filter.as_deref();
    let mut cases: Vec<Source> = Vec::new();
    for source in &o.sources {
        match source.as_str() {
            "suites" => cases.extend(sources::suites(&shared, &o.suites, filter)?),
            "goldens" => cases.extend(sources::goldens(&root, filter)),
            _ => cases.extend(sources::samples(&shared, filter)),
        }
    }
    if o.dry_run {
        return Ok(dry_run(&cases, o.per_kernel));
    }
    let start = Instant::now();
    eprintln!("mutants: {} candidate kernels; checking which lockstep verifies ({} jobs)", cases.len(), o.jobs);
    let verdicts = parallel(&cases, o.jobs, |_, c| outcome(&bin, &c.case, &[], o.timeout).verdict);
    let verified: Vec<&Source> =
        cases.iter().zip(&verdicts).filter(|(_, v)| *v == "verified").map(|(c, _)| c).take(o.max_kernels).collect();
    // The mutants of every verified kernel, sampled per kernel.
    let mut work: Vec<(&Source, ops::Mutant)> = Vec::new();
    for c in &verified {
        let Ok(src) = fs::read_to_string(c.case.dir.join(&c.case.file)) else { continue };
        for m in ops::sample(ops::mutants(&src), o.per_kernel) {
            work.push((c, m));
        }
    }
    eprintln!(
        "mutants: {} verified kernels, {} mutants ({:.0}s so far)",
        verified.len(),
        work.len(),
        start.elapsed().as_secs_f64()
    );
    let scratch_root = std::env::temp_dir().join(format!("lockstep-mutants-{}", std::process::id()));
    let log = o.log.as_ref().map(|p| Mutex::new(fs::OpenOptions::new().create(true).append(true).open(p)));
    let done = AtomicUsize::new(0);
    let records = parallel(&work, o.jobs, |k, (case, m)| {
        let scratch = scratch_root.join(k.to_string());
        let record = match materialise(case, &m.text, &scratch) {
            Ok(mcase) => {
                let check = outcome(&bin, &mcase, &[], o.timeout);
                // A confirmed violation of the check is the interpreter's
                // own finding; otherwise ask the interpreter alone.
                let defective = check.confirmed
                    || (check.verdict != "rejected" && outcome(&bin, &mcase, &["--mode=find"], o.timeout).confirmed);
                Record { key: case.key.clone(), op: m.op, line: m.line, check, defective }
            }
            Err(e) => Record {
                key: case.key.clone(),
                op: m.op,
                line: m.line,
                check: Outcome { verdict: format!("setup failed: {e}"), ..Default::default() },
                defective: false,
            },
        };
        let _ = fs::remove_dir_all(&scratch);
        let n = done.fetch_add(1, Ordering::SeqCst) + 1;
        let bug = record.defective && record.check.verdict == "verified";
        if o.verbose || bug {
            eprintln!(
                "{}{} {}:{} {} -> {}{}",
                if bug { "SOUNDNESS BUG: " } else { "" },
                record.key,
                case.case.file,
                record.line,
                record.op,
                record.check.verdict,
                if record.defective { " (defective)" } else { "" }
            );
        }
        if n % 50 == 0 {
            eprintln!("mutants: {n}/{} done ({:.0}s)", work.len(), start.elapsed().as_secs_f64());
        }
        if let Some(log) = &log {
            if let Ok(Ok(f)) = log.lock().as_deref_mut().map(|f| f.as_mut().map_err(|_| ())) {
                use std::io::Write;
                let line = serde_json::json!({
                    "test": record.key, "op": record.op, "line": record.line,
                    "verdict": record.check.verdict, "confirmed": record.check.confirmed,
                    "defective": record.defective,
                });
                let _ = writeln!(f, "{line}");
            }
        }
        record
    });
    let _ = fs::remove_dir_all(&scratch_root);
    Ok(report(&verified, &records, start.elapsed()))
}

/// Prints the figures; the exit status says whether a verified mutant was
/// shown defective.
fn report(verified: &[&Source], records: &[Record], elapsed: Duration) -> i32 {
    let count = |f: &dyn Fn(&Record) -> bool| records.iter().filter(|r| f(r)).count();
    let kernels: BTreeSet<&str> = records.iter().map(|r| r.key.as_str()).collect();
    let bugs: Vec<&Record> = records.iter().filter(|r| r.defective && r.check.verdict == "verified").collect();
    println!("\nfigure                                          count");
    println!("verified kernels mutated                     {:>8}", verified.len());
    println!("distinct kernels with mutants                {:>8}", kernels.len());
    println!("mutants                                      {:>8}", records.len());
    println!("  not compiling (rejected)                   {:>8}", count(&|r| r.check.verdict == "rejected"));
    println!("  defective by the interpreter               {:>8}", count(&|r| r.defective));
    println!("  defective, found with a confirmed witness  {:>8}", count(&|r| r.check.confirmed));
    println!("  defective, possible-errors or unknown      {:>8}", count(&|r| r.defective && !r.check.confirmed && r.check.verdict != "verified"));
    println!("  defective and verified (soundness bugs)    {:>8}", bugs.len());
    println!("  verified, not shown defective              {:>8}", count(&|r| !r.defective && r.check.verdict == "verified"));
    println!("  timeouts or crashes of the check           {:>8}", count(&|r| r.check.verdict == "timeout" || r.check.verdict == "crash"));
    println!("\nper operator: mutants / defective / found / verified-defective");
    for op in ops::OPERATORS {
        let of = |f: &dyn Fn(&Record) -> bool| records.iter().filter(|r| r.op == op && f(r)).count();
        println!(
            "  {op:<16} {:>6} {:>6} {:>6} {:>6}",
            of(&|_| true),
            of(&|r| r.defective),
            of(&|r| r.check.confirmed),
            of(&|r| r.defective && r.check.verdict == "verified")
        );
    }
    println!("elapsed {:.0}s", elapsed.as_secs_f64());
    for b in &bugs {
        println!("SOUNDNESS BUG: {} line {} ({})", b.key, b.line, b.op);
    }
    i32::from(!bugs.is_empty())
}

/// Lists each candidate's number of mutants (all, and the sample taken),
/// and the candidates with none, without running anything.
fn dry_run(cases: &[Source], per_kernel: usize) -> i32 {
    let (mut total, mut sampled, mut none) = (0, 0, Vec::new());
    for c in cases {
        let Ok(src) = fs::read_to_string(c.case.dir.join(&c.case.file)) else { continue };
        let all = ops::mutants(&src);
        total += all.len();
        let n = ops::sample(all, per_kernel).len();
        sampled += n;
        if n == 0 {
            none.push(c.key.as_str());
        }
    }
    for k in &none {
        println!("no mutant: {k}");
    }
    println!("{} candidates, {} mutants, {} sampled at --per-kernel {per_kernel}, {} candidates without mutants", cases.len(), total, sampled, none.len());
    0
}
