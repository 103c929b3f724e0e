//! `cargo xtask determinism`: checks every conformance test twice and
//! compares the two JSON reports, timings aside (issue 17: same input, same
//! report).
//!
//! The two rounds run one after the other over the whole selection, not
//! side by side, so that they compete for the machine as a normal run does.
//! A report that mentions a time limit (`--timeout`, an engine's budget, a
//! solver query that timed out) depends on the machine's speed by design;
//! such pairs are listed apart and do not fail the command. Any other
//! difference does, with the first place where the reports differ.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::conformance::exec::{self, Exit, RawRun};
use crate::conformance::suite::{self, Suite, TestCase};

const USAGE: &str = "\
usage: cargo xtask determinism [options]

Checks every conformance test twice and compares the JSON reports, with
`elapsed_ms` and `timings_ms` left out.

options:
  --filter SUBSTR       only tests whose key (suite/test-id) contains SUBSTR
  --jobs N              tests run in parallel (default: number of CPUs)
  --timeout SECS        wall-clock limit per run (default: 60)
  --lockstep PATH       the binary (default: $LOCKSTEP_BIN, else
                        $CARGO_TARGET_DIR or target/ + release/lockstep)
  --shared DIR          the shared folder (default: ../shared beside the workspace)
  --lockstep-arg ARG    pass ARG to every run (repeatable)

exit status: 0 every pair identical (time-limited pairs aside), 1 a pair
differs, 2 usage or setup error.
";

struct Options {
    filter: Option<String>,
    jobs: usize,
    timeout: Duration,
    lockstep: Option<PathBuf>,
    shared: Option<PathBuf>,
    lockstep_args: Vec<String>,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        filter: None,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(60),
        lockstep: None,
        shared: None,
        lockstep_args: Vec::new(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> { inline.clone().or_else(|| rest.next().cloned()).ok_or_else(|| format!("{flag} needs a value")) };
        match flag {
            "--filter" => o.filter = Some(value()?),
            "--jobs" | "-j" => o.jobs = value()?.parse().ok().filter(|&n| n > 0).ok_or("--jobs needs a positive number")?,
            "--timeout" => o.timeout = Duration::from_secs(value()?.parse().ok().filter(|&n| n > 0).ok_or("--timeout needs positive seconds")?),
            "--lockstep" => o.lockstep = Some(PathBuf::from(value()?)),
            "--shared" => o.shared = Some(PathBuf::from(value()?)),
            "--lockstep-arg" => o.lockstep_args.push(value()?),
            "--help" | "-h" => return Ok(None),
            _ => return Err(format!("unknown option {arg:?}")),
        }
    }
    Ok(Some(o))
}

pub fn main(args: &[String]) -> i32 {
    crate::run_subcommand(args, USAGE, parse, run)
}

fn run(o: &Options) -> Result<i32, String> {
    let bin = crate::conformance::binary(&o.lockstep)?;
    let shared = crate::conformance::shared_dir(&o.shared);
    let mut cases: Vec<TestCase> = Vec::new();
    for suite in Suite::ALL {
        let dir = shared.join("conformance").join(suite.name());
        let found = suite::discover(suite, &dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
        cases.extend(found.cases.into_iter().filter(|c| o.filter.as_ref().is_none_or(|f| c.key().contains(f.as_str()))));
    }
    if cases.is_empty() {
        return Err("no tests selected".into());
    }
    for case in &mut cases {
        case.args.extend(o.lockstep_args.iter().cloned());
    }
    println!("lockstep determinism: {} tests, each checked twice, binary {}, {} jobs", cases.len(), bin.display(), o.jobs);
    let first = exec::run_all(&bin, &cases, o.jobs, o.timeout, |_, _| {});
    let second = exec::run_all(&bin, &cases, o.jobs, o.timeout, |_, _| {});
    let (mut same, mut timed, mut differ) = (0, Vec::new(), Vec::new());
    for ((case, a), b) in cases.iter().zip(&first).zip(&second) {
        match compare(a, b) {
            Comparison::Same => same += 1,
            Comparison::TimeLimited(why) => timed.push(format!("{}: {why}", case.key())),
            Comparison::Differ(why) => differ.push(format!("{}: {why}", case.key())),
        }
    }
    for line in &timed {
        println!("time-limited  {line}");
    }
    for line in &differ {
        println!("DIFFERENT     {line}");
    }
    println!("{same} identical, {} time-limited (not compared), {} different", timed.len(), differ.len());
    Ok(if differ.is_empty() { 0 } else { 1 })
}

/// How two runs of one test compare.
#[derive(Debug, PartialEq)]
pub enum Comparison {
    Same,
    /// They differ, or could not be compared, and a time limit was involved.
    TimeLimited(String),
    Differ(String),
}

/// Compares two runs: their exit and their reports without timings.
pub fn compare(a: &RawRun, b: &RawRun) -> Comparison {
    let time_limited = |r: &RawRun| r.exit == Exit::TimedOut || mentions_a_time_limit(&r.stdout);
    let verdict = |r: &RawRun| serde_json::from_str::<Value>(r.stdout.trim()).map(without_timings);
    let difference = match (verdict(a), verdict(b)) {
        _ if a.exit != b.exit => Some(format!("exit {:?} then {:?}", a.exit, b.exit)),
        (Ok(x), Ok(y)) => first_difference(&x, &y, "$"),
        (Err(e), _) | (_, Err(e)) => Some(format!("output is not one JSON document: {e}")),
    };
    match difference {
        None => Comparison::Same,
        Some(why) if time_limited(a) || time_limited(b) => Comparison::TimeLimited(why),
        Some(why) => Comparison::Differ(why),
    }
}

/// Whether a report's text says a time limit ended some work.
fn mentions_a_time_limit(stdout: &str) -> bool {
    ["timed out", "timeout", "time budget", "time limit", "too little time", "no time was left"].iter().any(|m| stdout.contains(m))
}

/// The report without the fields that measure time.
pub fn without_timings(mut v: Value) -> Value {
    if let Value::Object(map) = &mut v {
        map.remove("elapsed_ms");
        map.remove("timings_ms");
        for (_, child) in map.iter_mut() {
            *child = without_timings(child.take());
        }
    } else if let Value::Array(items) = &mut v {
        for item in items {
            *item = without_timings(item.take());
        }
    }
    v
}

/// The path and values of the first place where `a` and `b` differ.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                let (u, v) = (x.get(key).unwrap_or(&Value::Null), y.get(key).unwrap_or(&Value::Null));
                if let Some(d) = first_difference(u, v, &format!("{path}.{key}")) {
                    return Some(d);
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (u, v))| first_difference(u, v, &format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!("{path}: {} then {}", short(a), short(b))),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 120 {
        format!("{}...", text.chars().take(120).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stdout: &str) -> RawRun {
        RawRun { exit: Exit::Code(1), stdout: stdout.into(), stderr: String::new(), wall: Duration::ZERO, max_rss_kib: None, max_tree_rss_kib: None }
    }

    #[test]
    fn timings_aside_equal_reports_are_the_same() {
        let a = run(r#"{"verdict":"errors","elapsed_ms":5,"kernels":[{"name":"k","timings_ms":{"x":1}}]}"#);
        let b = run(r#"{"verdict":"errors","elapsed_ms":9,"kernels":[{"name":"k","timings_ms":{"x":2}}]}"#);
        assert_eq!(compare(&a, &b), Comparison::Same);
    }

    #[test]
    fn a_different_witness_is_a_difference_unless_a_time_limit_was_involved() {
        let a = run(r#"{"verdict":"errors","kernels":[{"violations":[{"witness":{"thread":1}}]}]}"#);
        let b = run(r#"{"verdict":"errors","kernels":[{"violations":[{"witness":{"thread":2}}]}]}"#);
        match compare(&a, &b) {
            Comparison::Differ(why) => assert!(why.contains("$.kernels[0].violations[0].witness.thread: 1 then 2"), "{why}"),
            other => panic!("{other:?}"),
        }
        let c = run(r#"{"verdict":"unknown","kernels":[{"reason":"time budget exceeded"}]}"#);
        assert!(matches!(compare(&a, &c), Comparison::TimeLimited(_)));
        let d = RawRun { exit: Exit::Code(3), ..run(&a.stdout) };
        assert!(matches!(compare(&a, &d), Comparison::Differ(_)));
    }
}
