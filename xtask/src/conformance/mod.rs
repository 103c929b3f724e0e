//! `cargo xtask conformance`: runs `lockstep` over the peer suites in
//! `$SHARED/conformance/`, prints how its verdicts compare with the suites'
//! expectations, and checks the result against the committed baseline of
//! known gaps (`conformance/baseline.txt`).
//!
//! The pieces: [`suite`] finds tests and reads their expectations, [`exec`]
//! runs the binary under a timeout, [`outcome`] reads its JSON report and
//! classifies the result, [`baseline`] compares with (and rewrites) the
//! baseline, and [`report`] prints the tables and the `--json` file.

pub mod baseline;
pub mod exec;
pub mod memory;
pub mod outcome;
pub mod report;
pub mod suite;

use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use std::{env, fs};

use baseline::{Baseline, Scope};
use outcome::{judge, Outcome};
use report::{Figures, TestResult};
use suite::{Suite, TestCase};

/// Usage text for `cargo xtask conformance --help`.
pub const USAGE: &str = "\
usage: cargo xtask conformance [options]

Runs lockstep on the conformance suites in $SHARED/conformance and compares
each verdict with the suite's expectation (for esbmc-gpu, the truth column of
esbmc-gpu/truth.tsv where it lists the test, else test.desc).

options:
  --suite gpuverify|esbmc-gpu|all   suites to run (default: all)
  --filter SUBSTR                   only tests whose key (suite/test-id) contains SUBSTR
  --jobs N                          tests run in parallel (default: number of CPUs)
  --timeout SECS                    limit per test (default: 60): a test is
                                    stopped once both the wall clock and its
                                    process tree's CPU time reach it, or the
                                    wall clock reaches three times it
  --lockstep PATH                   the binary (default: $LOCKSTEP_BIN, else
                                    $CARGO_TARGET_DIR or target/ + release/lockstep)
  --shared DIR                      the shared folder (default: $LOCKSTEP_SHARED,
                                    else ../shared beside the workspace)
  --baseline FILE                   known gaps (default: conformance/baseline.txt)
  --check                           exit 1 if a test outside the baseline disagrees,
                                    or a baselined test newly misses, crashes or times out
  --bless                           rewrite the baseline from this run
  --json OUT                        write every result (and the figures) as JSON
  --lockstep-arg ARG                pass ARG to every lockstep run (repeatable)
  --cross-check                     the same as --lockstep-arg --cross-check: a
                                    verdict `verified` is re-checked by the other solver
  -v, --verbose                     print each result as it completes
  -h, --help                        this text

exit status: 0 done (and --check passed), 1 --check failed, 2 usage or setup error.
";

/// Parsed command-line options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub suites: Vec<Suite>,
    pub jobs: usize,
    pub timeout: Duration,
    pub filter: Option<String>,
    pub lockstep: Option<PathBuf>,
    pub shared: Option<PathBuf>,
    pub baseline: Option<PathBuf>,
    pub check: bool,
    pub bless: bool,
    pub json: Option<PathBuf>,
    pub verbose: bool,
    pub help: bool,
    /// Arguments added to every run's command line (`--lockstep-arg`).
    pub lockstep_args: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            suites: Suite::ALL.to_vec(),
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            timeout: Duration::from_secs(60),
            filter: None,
            lockstep: None,
            shared: None,
            baseline: None,
            check: false,
            bless: false,
            json: None,
            verbose: false,
            help: false,
            lockstep_args: Vec::new(),
        }
    }
}

impl Options {
    /// Parses the arguments after `conformance`. Values may be given as
    /// `--flag VALUE` or `--flag=VALUE`.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
                _ => (arg.as_str(), None),
            };
            let mut value = || -> Result<String, String> {
                match &inline {
                    Some(v) => Ok(v.clone()),
                    None => rest
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("{flag} needs a value")),
                }
            };
            match flag {
                "--suite" => {
                    let v = value()?;
                    o.suites = match v.as_str() {
                        "all" => Suite::ALL.to_vec(),
                        name => vec![Suite::from_name(name)
                            .ok_or_else(|| format!("unknown suite {name:?}"))?],
                    };
                }
                "--jobs" | "-j" => {
                    let v = value()?;
                    o.jobs = v
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--jobs needs a positive number, got {v:?}"))?;
                }
                "--timeout" => {
                    let v = value()?;
                    let secs: f64 = v
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && *s > 0.0)
                        .ok_or_else(|| format!("--timeout needs positive seconds, got {v:?}"))?;
                    o.timeout = Duration::from_secs_f64(secs);
                }
                "--filter" => o.filter = Some(value()?),
                "--lockstep" => o.lockstep = Some(PathBuf::from(value()?)),
                "--shared" => o.shared = Some(PathBuf::from(value()?)),
                "--baseline" => o.baseline = Some(PathBuf::from(value()?)),
                "--json" => o.json = Some(PathBuf::from(value()?)),
                "--lockstep-arg" => o.lockstep_args.push(value()?),
                "--cross-check" if inline.is_some() => return Err(format!("{flag} takes no value")),
                "--cross-check" => o.lockstep_args.push("--cross-check".to_string()),
                "--check" | "--bless" | "--verbose" | "-v" | "--help" | "-h"
                    if inline.is_some() =>
                {
                    return Err(format!("{flag} takes no value"));
                }
                "--check" => o.check = true,
                "--bless" => o.bless = true,
                "--verbose" | "-v" => o.verbose = true,
                "--help" | "-h" => o.help = true,
                _ => return Err(format!("unknown option {arg:?}")),
            }
        }
        if o.check && o.bless {
            return Err("--check and --bless are exclusive: check, then bless".to_string());
        }
        Ok(o)
    }
}

/// The workspace root: the parent of this crate's folder.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// An option, else an environment variable, else a default.
pub(crate) fn resolve(option: &Option<PathBuf>, var: &str, default: impl FnOnce() -> PathBuf) -> PathBuf {
    option
        .clone()
        .or_else(|| {
            env::var_os(var)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(default)
}

/// Makes `path` absolute against the current directory, because tests run
/// with their own folder as working directory.
pub(crate) fn absolute(path: PathBuf) -> PathBuf {
    std::path::absolute(&path).unwrap_or(path)
}

/// The lockstep binary to run: `option`, else `$LOCKSTEP_BIN`, else the
/// release build of the target folder; an error when it is not a file.
pub fn binary(option: &Option<PathBuf>) -> Result<PathBuf, String> {
    let root = workspace_root();
    let bin = absolute(resolve(option, "LOCKSTEP_BIN", || {
        let target = env::var_os("CARGO_TARGET_DIR")
            .filter(|v| !v.is_empty())
            .map_or_else(|| root.join("target"), PathBuf::from);
        target.join("release/lockstep")
    }));
    if !bin.is_file() {
        return Err(format!(
            "lockstep binary not found at {}\n\
             build it with `cargo build --release -p lockstep`, or pass --lockstep PATH \
             (or set LOCKSTEP_BIN)",
            bin.display()
        ));
    }
    Ok(bin)
}

/// The shared folder: `option`, else `$LOCKSTEP_SHARED`, else `../shared`
/// beside the workspace; canonical, so that `..` does not show up in every
/// test's path.
pub fn shared_dir(option: &Option<PathBuf>) -> PathBuf {
    let shared = resolve(option, "LOCKSTEP_SHARED", || workspace_root().join("../shared"));
    fs::canonicalize(&shared).unwrap_or_else(|_| absolute(shared))
}

/// Runs the subcommand and returns the process exit status.
pub fn main(args: &[String]) -> i32 {
    let options = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return 2;
        }
    };
    if options.help {
        print!("{USAGE}");
        return 0;
    }
    match run(&options) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Whether `--filter` selects the test with this key.
fn selected(o: &Options, key: &str) -> bool {
    o.filter.as_ref().map_or(true, |f| key.contains(f.as_str()))
}

fn run(o: &Options) -> Result<i32, String> {
    let root = workspace_root();
    let bin = binary(&o.lockstep)?;
    let shared = shared_dir(&o.shared);
    let baseline_path = o
        .baseline
        .clone()
        .unwrap_or_else(|| root.join("conformance/baseline.txt"));
    let baseline = match fs::read_to_string(&baseline_path) {
        Ok(text) => {
            Baseline::parse(&text).map_err(|e| format!("{}: {e}", baseline_path.display()))?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "note: no baseline at {}; treating it as empty",
                baseline_path.display()
            );
            Baseline::default()
        }
        Err(e) => return Err(format!("cannot read {}: {e}", baseline_path.display())),
    };

    // Discovery.
    let mut cases: Vec<TestCase> = Vec::new();
    let mut unrunnable = BTreeSet::new();
    for &suite in &o.suites {
        let dir = shared.join("conformance").join(suite.name());
        if !dir.is_dir() {
            return Err(format!(
                "suite folder {} not found (pass --shared DIR or set LOCKSTEP_SHARED)",
                dir.display()
            ));
        }
        let found =
            suite::discover(suite, &dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
        if o.filter.is_none() {
            for note in &found.notes {
                eprintln!("note: {note}");
            }
        }
        for m in found.malformed {
            if selected(o, &m.key) {
                eprintln!("warning: skipping {}: {}", m.key, m.reason);
            }
            unrunnable.insert(m.key);
        }
        cases.extend(found.cases.into_iter().filter(|c| selected(o, &c.key())));
    }
    let full_suites: BTreeSet<String> = if o.filter.is_some() {
        BTreeSet::new()
    } else {
        o.suites.iter().map(|s| s.name().to_string()).collect()
    };
    if cases.is_empty() {
        return Err("no tests selected".to_string());
    }
    for case in &mut cases {
        case.args.extend(o.lockstep_args.iter().cloned());
    }

    let skipped = match unrunnable.iter().filter(|key| selected(o, key)).count() {
        0 => String::new(),
        n => format!(" ({n} skipped: unreadable expectation)"),
    };
    println!(
        "lockstep conformance: {} tests{skipped}, binary {}, {} jobs, timeout {:.0}s",
        cases.len(),
        bin.display(),
        o.jobs,
        o.timeout.as_secs_f64()
    );

    // Running.
    let started = Instant::now();
    let total = cases.len();
    let show_progress = !o.verbose && std::io::stderr().is_terminal();
    let mut done = 0;
    let runs = exec::run_all(&bin, &cases, o.jobs, o.timeout, |index, run| {
        done += 1;
        if o.verbose {
            let j = judge(&cases[index], run);
            eprintln!(
                "[{done:>width$}/{total}] {:<13} {:>7.2}s  {}  {}",
                j.outcome,
                run.wall.as_secs_f64(),
                cases[index].key(),
                j.detail,
                width = total.to_string().len()
            );
        } else if show_progress {
            eprint!("\r[{done}/{total}]");
            let _ = std::io::stderr().flush();
        }
    });
    if show_progress {
        eprintln!();
    }
    let results: Vec<TestResult> = cases
        .into_iter()
        .zip(runs)
        .map(|(case, run)| {
            let judgement = judge(&case, &run);
            TestResult {
                case,
                run,
                judgement,
            }
        })
        .collect();

    // Tables.
    let mut columns: Vec<(String, Figures)> = o
        .suites
        .iter()
        .map(|&s| {
            (
                s.name().to_string(),
                Figures::of(results.iter().filter(|r| r.case.suite == s)),
            )
        })
        .collect();
    if columns.len() > 1 {
        columns.push(("all".to_string(), Figures::of(&results)));
    }
    let all: Vec<&TestResult> = results.iter().collect();
    println!();
    print!("{}", report::render_tables(&columns, &all));
    if let Some(largest) = results.iter().filter(|r| r.run.max_rss_kib.is_some()).max_by_key(|r| r.run.max_rss_kib) {
        println!(
            "largest peak memory: {} MiB ({})",
            largest.run.max_rss_kib.unwrap_or(0).div_ceil(1024),
            largest.case.key()
        );
    }
    if let Some(largest) = results.iter().filter(|r| r.run.max_tree_rss_kib.is_some()).max_by_key(|r| r.run.max_tree_rss_kib) {
        println!(
            "largest peak memory of a whole run (lockstep and its children together): {} MiB ({})",
            largest.run.max_tree_rss_kib.unwrap_or(0).div_ceil(1024),
            largest.case.key()
        );
    }
    println!("elapsed {:.1}s", started.elapsed().as_secs_f64());

    // Baseline.
    let keyed: Vec<(String, Outcome)> = results
        .iter()
        .map(|r| (r.case.key(), r.outcome()))
        .collect();
    let scope = Scope {
        full_suites: &full_suites,
        unrunnable: &unrunnable,
    };
    let diff = baseline::diff(&baseline, &keyed, &scope);
    println!();
    println!(
        "baseline {}: {} known gaps, {} new disagreements, {} changed, {} closed, {} stale",
        baseline_path.display(),
        diff.known,
        diff.regressions.len(),
        diff.changed.len(),
        diff.closed.len(),
        diff.stale.len()
    );
    let detail_of = |key: &str| {
        results
            .iter()
            .find(|r| r.case.key() == key)
            .map_or(String::new(), |r| r.judgement.detail.clone())
    };
    // The full lists are printed when checking or blessing; otherwise the
    // counts above are enough and `--json` has the details.
    if o.check || o.bless {
        for (key, now) in &diff.regressions {
            println!("  regression: {key}  {now}  # {}", detail_of(key));
        }
        for (key, was, now) in &diff.changed {
            let fatal = if now.always_fatal() {
                " (fails the check)"
            } else {
                ""
            };
            println!(
                "  changed: {key}  {was} -> {now}{fatal}  # {}",
                detail_of(key)
            );
        }
        for (key, now) in &diff.closed {
            println!("  gap closed: remove from baseline: {key}  (now {now})");
        }
        for key in &diff.stale {
            println!("  stale: {key} no longer exists; remove it from the baseline");
        }
    }

    if let Some(path) = &o.json {
        let summary: serde_json::Map<String, serde_json::Value> = columns
            .iter()
            .map(|(name, f)| (name.clone(), f.to_json()))
            .collect();
        let document = serde_json::json!({
            "lockstep": bin.to_string_lossy(),
            "shared": shared.to_string_lossy(),
            "jobs": o.jobs,
            "timeout_s": o.timeout.as_secs_f64(),
            "summary": summary,
            "results": results.iter().map(|r| {
                let entry = baseline.entries.get(&r.case.key());
                report::result_json(r, entry.map(|e| (e.outcome, e.reason.as_str())))
            }).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&document).map_err(|e| e.to_string())?;
        fs::write(path, text + "\n").map_err(|e| format!("writing {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }

    if o.bless {
        let new = baseline::bless(&baseline, &keyed, &scope);
        fs::write(&baseline_path, new.render())
            .map_err(|e| format!("writing {}: {e}", baseline_path.display()))?;
        println!(
            "blessed {} ({} entries)",
            baseline_path.display(),
            new.entries.len()
        );
        return Ok(0);
    }
    if o.check {
        let failed = diff.regressions.len() + diff.failures().count();
        if diff.is_failure() {
            println!(
                "conformance check FAILED: {} regression(s), {} newly missed/crashed/timed out; \
                 fix them, or add them to the baseline with a reason (--bless)",
                diff.regressions.len(),
                diff.failures().count()
            );
        } else {
            println!("conformance check passed");
        }
        // The closing line, in the plain `N passed, N failed` form that CI
        // reads: a test fails when it regressed against the baseline.
        println!("conformance: {} passed, {} failed", keyed.len() - failed, failed);
        return Ok(if diff.is_failure() { 1 } else { 0 });
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_all_options_in_both_spellings() {
        let o = Options::parse(&args(&[
            "--suite",
            "gpuverify",
            "--jobs=3",
            "--timeout",
            "2.5",
            "--filter=CUDA/",
            "--lockstep",
            "/bin/l",
            "--shared=/s",
            "--baseline",
            "b.txt",
            "--check",
            "--json",
            "out.json",
            "-v",
        ]))
        .unwrap();
        assert_eq!(o.suites, [Suite::GpuVerify]);
        assert_eq!(o.jobs, 3);
        assert_eq!(o.timeout, Duration::from_millis(2500));
        assert_eq!(o.filter.as_deref(), Some("CUDA/"));
        assert_eq!(o.lockstep, Some(PathBuf::from("/bin/l")));
        assert_eq!(o.shared, Some(PathBuf::from("/s")));
        assert_eq!(o.baseline, Some(PathBuf::from("b.txt")));
        assert_eq!(o.json, Some(PathBuf::from("out.json")));
        assert!(o.check && o.verbose && !o.bless);

        let o = Options::parse(&args(&["--suite=all", "--bless"])).unwrap();
        assert_eq!(o.suites, Suite::ALL);
        assert_eq!(o.timeout, Duration::from_secs(60));
    }

    #[test]
    fn rejects_bad_options() {
        for bad in [
            &["--suite", "cuda"][..],
            &["--jobs", "0"],
            &["--timeout", "-1"],
            &["--filter"],
            &["--check", "--bless"],
            &["--check=yes"],
            &["--frobnicate"],
        ] {
            assert!(Options::parse(&args(bad)).is_err(), "{bad:?}");
        }
    }
}
