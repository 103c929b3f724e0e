//! `cargo xtask fuzz --kir`: the in-process fuzz mode (issue 17). The
//! source-level mode (`fuzz.rs`) pays for clang on every input (about one
//! input a second); this one lowers a sample of the conformance kernels to
//! KIR once, through the binary's `--dump-kir`, then mutates the KIR text
//! and runs the parser, the IR verifier, the printer and the engines in
//! this process, hundreds of times faster.
//!
//! Each input is a seed's KIR with one to three mutations: delete or
//! duplicate an instruction, replace a constant with a hostile value (0,
//! -1, 2^31-1, 2^32, 2^64-1, 2^40), make an operand another value of the
//! function, flip a comparison, change an arithmetic operator, swap the
//! targets of a branch, remove a barrier, change a memory space or an
//! integer width. An input fails when
//!
//! - the parser, the verifier or an engine panics (`catch_unwind`),
//! - a module that parsed and verified prints to a text that does not parse
//!   back to the same text,
//! - a kernel's report breaks the verdict invariants (`verified` with a
//!   violation, `errors` with no confirmed violation, `possible-errors`
//!   with none or with a confirmed one, `unknown` without its reason), or
//!   two checks of one input (one in `--recheck`) give different reports,
//! - a check runs past its deadline by more than its hang limit (the
//!   input is reported and kept while it still runs; a worker that hangs
//!   is replaced, and the run ends with a failure).
//!
//! Most inputs run the concrete search alone (the interpreter, no solver);
//! one in `--full-every` runs the whole check (search, finder, prover) with
//! short solver budgets, since solver processes cost tens of milliseconds.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lockstep_diag::{KernelReport, Verdict};
use lockstep_engine::{CheckConfig, Mode};
use lockstep_kir::{parse_module, print_module, verify_module, Module};

use crate::fuzz::{integer_literals, Rng, Seed, HOSTILE};

/// What the in-process mode is asked to do (see `fuzz.rs`'s options).
pub struct KirOptions {
    pub time: Duration,
    pub jobs: usize,
    pub seed: u64,
    pub keep: PathBuf,
    /// How many conformance kernels are lowered to seed the run.
    pub seeds: usize,
    /// One input in this many gets the whole check, solvers included.
    pub full_every: u64,
    /// One input in this many is checked twice, and the reports compared.
    pub recheck: u64,
}

/// A kernel lowered once: its KIR and the launch its test gives.
#[derive(Clone)]
pub struct KirSeed {
    pub name: String,
    pub kir: String,
    pub group_size: [u64; 3],
    pub num_groups: [u64; 3],
}

/// How one input ended, when it did not fail.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ended {
    /// The mutant is not KIR text (a parse error, reported as such).
    Unparsable,
    /// The mutant parses but is not valid IR (the verifier's errors).
    Invalid,
    /// An object no device holds, refused before any engine runs.
    Rejected,
    /// The engines ran on every kernel.
    Checked,
}

/// Seeds whose own concrete search takes this long or more are left out.
const SLOW_SEED: Duration = Duration::from_millis(250);

/// The time a check may take past its deadline before it counts as hung.
const HANG_LIMIT: Duration = Duration::from_secs(60);

/// Lowers up to `o.seeds` conformance tests (chosen with the run's seed)
/// with `bin --dump-kir`, caching each KIR in the system's temporary folder
/// (keyed by the binary, the file and its flags).
pub fn lower_seeds(bin: &Path, seeds: &[Seed], count: usize, rng: &mut Rng) -> Vec<KirSeed> {
    let conformance: Vec<&Seed> = seeds.iter().filter(|s| s.file.components().any(|c| c.as_os_str() == "conformance")).collect();
    let cache = std::env::temp_dir().join("lockstep-fuzz-kir-cache");
    let _ = std::fs::create_dir_all(&cache);
    let stamp = std::fs::metadata(bin).and_then(|m| m.modified()).ok();
    let mut chosen = Vec::new();
    let mut tried = 0;
    while chosen.len() < count && tried < count * 4 && !conformance.is_empty() {
        tried += 1;
        let seed = conformance[rng.below(conformance.len())];
        let mut h = DefaultHasher::new();
        (bin, stamp, &seed.file, &seed.args, &seed.text).hash(&mut h);
        let cached = cache.join(format!("{:016x}.kir", h.finish()));
        let kir = match std::fs::read_to_string(&cached) {
            Ok(kir) => kir,
            Err(_) => {
                let Some(kir) = dump_kir(bin, seed) else { continue };
                let _ = std::fs::write(&cached, &kir);
                kir
            }
        };
        if kir.trim().is_empty() || chosen.iter().any(|c: &KirSeed| c.kir == kir) {
            continue;
        }
        let (group_size, num_groups) = launch_of(&seed.args);
        chosen.push(KirSeed { name: seed.file.display().to_string(), kir, group_size, num_groups });
    }
    chosen
}

/// The KIR of `seed` as the binary lowers it, if it does.
fn dump_kir(bin: &Path, seed: &Seed) -> Option<String> {
    let out = std::process::Command::new(bin)
        .arg("check")
        .arg(&seed.file)
        .args(&seed.args)
        .args(["--dump-kir", "--format=json", "--timeout=60"])
        .current_dir(seed.file.parent().unwrap_or(Path::new(".")))
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    v["kir"].as_str().map(str::to_string)
}

/// The launch a test's flags give (`--blockDim`/`--gridDim`, or OpenCL's
/// `--local_size` with `--num_groups` or `--global_size`); 32 threads in 2
/// groups where they give none, and small sizes in place of `*`.
pub fn launch_of(args: &[String]) -> ([u64; 3], [u64; 3]) {
    let dims = |name: &str| -> Option<[u64; 3]> {
        let value = args.iter().find_map(|a| a.strip_prefix(name).and_then(|v| v.strip_prefix('=')))?;
        let parts: Vec<u64> = value
            .trim_matches(|c| c == '[' || c == ']' || c == '{' || c == '}')
            .split(',')
            .map(|p| p.trim().parse::<u64>().unwrap_or(2))
            .collect();
        let mut d = [1; 3];
        for (i, p) in parts.iter().take(3).enumerate() {
            d[i] = (*p).clamp(1, 1 << 20);
        }
        Some(d)
    };
    let group = dims("--blockDim").or_else(|| dims("--local_size")).unwrap_or([32, 1, 1]);
    let groups = dims("--gridDim").or_else(|| dims("--num_groups")).or_else(|| {
        dims("--global_size").map(|g| [0, 1, 2].map(|i| (g[i] / group[i]).max(1)))
    });
    (group, groups.unwrap_or([2, 1, 1]))
}

/// Applies one mutation to the KIR `text`; returns its name.
pub fn mutate_kir(text: &mut String, rng: &mut Rng) -> &'static str {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Instructions are the indented lines of function bodies.
    let insts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("  ")).collect();
    if insts.is_empty() {
        return "none (no instruction)";
    }
    let pick = |rng: &mut Rng, pred: &dyn Fn(&str) -> bool| -> Option<usize> {
        let with: Vec<usize> = insts.iter().copied().filter(|&i| pred(&lines[i])).collect();
        with.get(rng.below(with.len())).copied()
    };
    let what = match rng.below(10) {
        0 => {
            lines.remove(insts[rng.below(insts.len())]);
            "delete an instruction"
        }
        1 => {
            let i = insts[rng.below(insts.len())];
            lines.insert(i, lines[i].clone());
            "duplicate an instruction"
        }
        2 | 3 => {
            if let Some(i) = pick(rng, &|l| l.contains("= const ")) {
                let value = HOSTILE[rng.below(HOSTILE.len())];
                let start = lines[i].find("= const ").map_or(0, |p| p + 8);
                if let Some(&(s, e)) = integer_literals(&lines[i][start..]).first() {
                    lines[i].replace_range(start + s..start + e, value);
                }
            }
            "replace a constant"
        }
        4 => {
            // An operand becomes another value of the function (often one
            // defined later, or of another type: the verifier's to refuse).
            let i = insts[rng.below(insts.len())];
            let refs = value_refs(&lines[i]);
            let l = &lines;
            let all: Vec<String> = insts.iter().flat_map(|&j| value_refs(&l[j]).into_iter().map(move |(s, e)| l[j][s..e].to_string())).collect();
            if let (Some(&(s, e)), false) = (refs.get(1 + rng.below(refs.len().max(2) - 1)), all.is_empty()) {
                let other = all[rng.below(all.len())].clone();
                lines[i].replace_range(s..e, &other);
            }
            "replace an operand"
        }
        5 => {
            const FLIPS: [(&str, &str); 10] =
                [(" slt ", " sge "), (" sge ", " slt "), (" sle ", " sgt "), (" sgt ", " sle "), (" ult ", " uge "), (" uge ", " ult "), (" ule ", " ugt "), (" ugt ", " ule "), (" eq ", " ne "), (" ne ", " eq ")];
            if let Some(i) = pick(rng, &|l| l.contains("icmp")) {
                if let Some((a, b)) = FLIPS.iter().find(|(a, _)| lines[i].contains(a)) {
                    lines[i] = lines[i].replacen(a, b, 1);
                }
            }
            "flip a comparison"
        }
        6 => {
            const OPS: [(&str, &str); 8] = [("= add ", "= sub "), ("= sub ", "= add "), ("= mul ", "= shl "), ("= urem ", "= udiv "), ("= udiv ", "= sdiv "), ("= srem ", "= urem "), ("= and ", "= or "), ("= shl ", "= lshr ")];
            if let Some(i) = pick(rng, &|l| OPS.iter().any(|(a, _)| l.contains(a))) {
                if let Some((a, b)) = OPS.iter().find(|(a, _)| lines[i].contains(a)) {
                    lines[i] = lines[i].replacen(a, b, 1);
                }
            }
            "change an operator"
        }
        7 => {
            if let Some(i) = pick(rng, &|l| l.trim_start().starts_with("br ")) {
                let l = &lines[i];
                let (head, tail) = l.split_once(" @").map_or((l.as_str(), ""), |(h, t)| (h, t));
                let parts: Vec<&str> = head.splitn(3, ", ").collect();
                if parts.len() == 3 {
                    let at = if tail.is_empty() { String::new() } else { format!(" @{tail}") };
                    lines[i] = format!("{}, {}, {}{at}", parts[0], parts[2], parts[1]);
                }
            }
            "swap branch targets"
        }
        8 => {
            if let Some(i) = pick(rng, &|l| l.contains("barrier")) {
                lines.remove(i);
            }
            "remove a barrier"
        }
        _ => {
            const TYPES: [(&str, &str); 4] = [("ptr.shared", "ptr.global"), ("ptr.global", "ptr.private"), (": i32 ", ": i64 "), (": i64 ", ": i32 ")];
            let (a, b) = TYPES[rng.below(TYPES.len())];
            if let Some(i) = pick(rng, &|l| l.contains(a)) {
                lines[i] = lines[i].replacen(a, b, 1);
            }
            "change a type or space"
        }
    };
    *text = lines.join("\n") + "\n";
    what
}

/// The byte ranges of the value references (`v12`) of a KIR line.
fn value_refs(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'v' && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'"')) && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i >= b.len() || !(b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                found.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    found
}

/// The deadline of an input that runs the concrete search alone. Most
/// mutants take milliseconds; the few that loop for long (a flipped loop
/// condition) end at the deadline, which the interpreter keeps, and would
/// otherwise take most of the run's time.
const SEARCH_DEADLINE: Duration = Duration::from_secs(2);

/// The deadline of an input checked whole (solvers included).
const FULL_DEADLINE: Duration = Duration::from_secs(10);

/// The engines' configuration for a fuzz input: the seed's launch cut to
/// at most 64 threads per dimension and 2 groups per dimension (the
/// interpreter's time grows with the threads, and the engines' handling of
/// sizes is the source-level mode's to fuzz), short budgets, a deadline,
/// and a memory limit of 512 MiB.
fn config(seed: &KirSeed, full: bool) -> CheckConfig {
    CheckConfig {
        group_size: seed.group_size.map(|d| Some(d.min(64))),
        num_groups: seed.num_groups.map(|d| Some(d.min(2))),
        mode: if full { Mode::Both } else { Mode::Find },
        query_timeout: Duration::from_secs(2),
        prove_budget: Some(Duration::from_secs(3)),
        find_budget: Duration::from_secs(2),
        deadline: Some(Instant::now() + if full { FULL_DEADLINE } else { SEARCH_DEADLINE }),
        memory_limit: 512 << 20,
        ..CheckConfig::default()
    }
}

/// Checks one input in this process; `Err` says why it failed.
pub fn check_input(text: &str, seed: &KirSeed, full: bool, recheck: bool) -> Result<Ended, String> {
    let caught = std::panic::catch_unwind(AssertUnwindSafe(|| check_unguarded(text, seed, full, recheck)));
    match caught {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            let at = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
            Err(format!("panic: {message} {at}"))
        }
    }
}

thread_local! {
    /// Where the last panic of this thread happened (the hook's record).
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Replaces the panic hook with one that records where a panic happened
/// instead of printing it (a caught panic is reported with its input).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let at = info.location().map(|l| format!("at {}:{}", l.file(), l.line())).unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(at));
    }));
}

fn check_unguarded(text: &str, seed: &KirSeed, full: bool, recheck: bool) -> Result<Ended, String> {
    let Ok(module) = parse_module(text) else { return Ok(Ended::Unparsable) };
    if verify_module(&module).is_err() {
        return Ok(Ended::Invalid);
    }
    // The printer and the parser agree: what was printed parses back, and
    // prints the same again.
    let printed = print_module(&module);
    match parse_module(&printed) {
        Ok(again) if print_module(&again) == printed => {}
        Ok(_) => return Err("the printed module prints differently after parsing it back".into()),
        Err(e) => return Err(format!("the printed module does not parse: {e:?}")),
    }
    let (oversized, _) = lockstep_engine::limits::oversized_objects(&module);
    if !oversized.is_empty() {
        return Ok(Ended::Rejected);
    }
    let first = check_kernels(&module, seed, full)?;
    if recheck {
        let second = check_kernels(&module, seed, full)?;
        // As in `cargo xtask determinism`: a report that mentions a time
        // limit (the input's deadline, an engine's budget) depends on the
        // machine's speed by design.
        let timed = |r: &[String]| r.iter().any(|t| ["timed out", "timeout", "time budget", "time limit", "too little time", "no time was left"].iter().any(|m| t.contains(m)));
        if format!("{first:?}") != format!("{second:?}") && !timed(&first) && !timed(&second) {
            return Err("two checks of the same input gave different reports".into());
        }
    }
    Ok(Ended::Checked)
}

/// Runs the engines on every kernel of `module` and checks each report's
/// invariants; the reports are returned for comparison.
fn check_kernels(module: &Module, seed: &KirSeed, full: bool) -> Result<Vec<String>, String> {
    let mut reports = Vec::new();
    for (id, kernel) in module.kernels() {
        let config = config(seed, full);
        // An input whose concrete search already confirms a violation is
        // decided: the solvers' engines would only add to a verdict of
        // `errors`, so the whole check is kept for undecided inputs.
        let full = full && {
            let outcome = lockstep_engine::search::search(module, id, &CheckConfig { mode: Mode::Find, ..config.clone() });
            outcome.violations.is_empty()
        };
        if full {
            let report = lockstep_engine::check_kernel(module, id, &config);
            invariants(&report).map_err(|why| format!("`{}`: {why}", kernel.name))?;
            reports.push(format!("{report:?}"));
        } else {
            let outcome = lockstep_engine::search::search(module, id, &config);
            if let Some(v) = outcome.violations.iter().find(|v| !v.confirmed) {
                return Err(format!("`{}`: the concrete search reported an unconfirmed violation: {}", kernel.name, v.message));
            }
            reports.push(format!("{:?} {:?}", outcome.violations, outcome.notes));
        }
    }
    Ok(reports)
}

/// The invariants of a kernel's report (see `lockstep_engine`'s docs).
pub fn invariants(r: &KernelReport) -> Result<(), String> {
    let confirmed = r.violations.iter().filter(|v| v.confirmed).count();
    match r.verdict {
        Verdict::Verified if !r.violations.is_empty() => Err(format!("verified with {} violation(s)", r.violations.len())),
        Verdict::Errors if confirmed == 0 => Err("errors without a confirmed violation".into()),
        Verdict::PossibleErrors if r.violations.is_empty() => Err("possible-errors without a violation".into()),
        Verdict::PossibleErrors if confirmed > 0 => Err("possible-errors with a confirmed violation".into()),
        Verdict::Unknown if r.reason.is_none() => Err("unknown without a reason".into()),
        _ => Ok(()),
    }
}

/// Counts of how inputs ended, and the failures.
#[derive(Default)]
struct Tally {
    inputs: u64,
    full: u64,
    ended: std::collections::HashMap<String, u64>,
    failures: Vec<String>,
    /// Inputs that ran past twice their deadline (under load, a check may;
    /// past `HANG_LIMIT` it is a failure), and the longest any input took.
    late: u64,
    longest: Duration,
    /// The time each seed's mutants took, in total, and how many there were.
    per_seed: std::collections::HashMap<String, (Duration, u64)>,
}

/// What a worker is doing now: since when, on which input (to tell a hang).
type Busy = Arc<Mutex<Option<(Instant, u64, String, String)>>>;

/// Runs the in-process mode; returns the exit status.
pub fn run(o: &KirOptions, bin: &Path, seeds: &[Seed]) -> Result<i32, String> {
    let mut rng = Rng::new(o.seed);
    let lowering = Instant::now();
    let kir_seeds = Arc::new(lower_seeds(bin, seeds, o.seeds, &mut rng));
    if kir_seeds.is_empty() {
        return Err("no conformance kernel could be lowered to KIR".into());
    }
    // Throughput is the point of this mode: a kernel whose concrete search
    // takes long (a loop of many iterations per thread) would take most of
    // the run's time, so such seeds are left to the source-level mode.
    let lowered = kir_seeds.len();
    quiet_panics();
    let kir_seeds: Arc<Vec<KirSeed>> = Arc::new(
        kir_seeds
            .iter()
            .filter(|s| {
                let began = Instant::now();
                check_input(&s.kir, s, false, false).is_ok() && began.elapsed() < SLOW_SEED
            })
            .cloned()
            .collect(),
    );
    if kir_seeds.is_empty() {
        return Err("every lowered kernel was too slow to fuzz in-process".into());
    }
    println!(
        "lockstep fuzz --kir: {} kernels lowered in {:.0} s ({} left out: their search takes {} ms or more), {} jobs, seed {}, for {} s (one input in {} checked whole, one in {} twice)",
        kir_seeds.len(),
        lowering.elapsed().as_secs_f64(),
        lowered - kir_seeds.len(),
        SLOW_SEED.as_millis(),
        o.jobs,
        o.seed,
        o.time.as_secs(),
        o.full_every,
        o.recheck
    );
    let started = Instant::now();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let counter = Arc::new(AtomicU64::new(0));
    let mut workers = Vec::new();
    for worker in 0..o.jobs {
        let busy: Busy = Arc::default();
        let (kir_seeds, tally, counter, b) = (kir_seeds.clone(), tally.clone(), counter.clone(), busy.clone());
        let (time, seed, full_every, recheck, keep) = (o.time, o.seed, o.full_every.max(1), o.recheck.max(1), o.keep.clone());
        let handle = std::thread::spawn(move || {
            let mut rng = Rng::new(seed ^ (worker as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            while started.elapsed() < time {
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let s = &kir_seeds[rng.below(kir_seeds.len())];
                let mut text = s.kir.clone();
                let mut applied = Vec::new();
                for _ in 0..1 + rng.below(3) {
                    applied.push(mutate_kir(&mut text, &mut rng));
                }
                let full = n % full_every == 0;
                *b.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), n, text.clone(), s.name.clone()));
                let began = Instant::now();
                let outcome = check_input(&text, s, full, n % recheck == 0);
                *b.lock().unwrap_or_else(|e| e.into_inner()) = None;
                let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                t.inputs += 1;
                let took = began.elapsed();
                t.late += u64::from(took > 2 * if full { FULL_DEADLINE } else { SEARCH_DEADLINE });
                t.longest = t.longest.max(took);
                let spent = t.per_seed.entry(s.name.clone()).or_default();
                spent.0 += took;
                spent.1 += 1;
                t.full += u64::from(full);
                match outcome {
                    Ok(ended) => *t.ended.entry(format!("{ended:?}").to_lowercase()).or_default() += 1,
                    Err(why) => {
                        let kept = keep_input(&keep, n, &text);
                        let line = format!("{why}: mutant of {} ({}), kept in {}", s.name, applied.join(", "), kept.display());
                        println!("FAIL {line}");
                        t.failures.push(line);
                    }
                }
                if t.inputs % 1000 == 0 {
                    println!("{} inputs, {} failures, {:.0} s", t.inputs, t.failures.len(), started.elapsed().as_secs_f64());
                }
            }
        });
        workers.push((handle, busy));
    }
    // Watch for hangs: an input still running well past its deadline is
    // reported (and kept) once; the run then ends without waiting for it.
    let mut hung: Vec<u64> = Vec::new();
    loop {
        std::thread::sleep(Duration::from_millis(200));
        for (_, busy) in &workers {
            if let Some((since, n, text, name)) = busy.lock().unwrap_or_else(|e| e.into_inner()).clone() {
                if since.elapsed() > FULL_DEADLINE + HANG_LIMIT && !hung.contains(&n) {
                    hung.push(n);
                    let kept = keep_input(&o.keep, n, &text);
                    let line = format!("hang: still running after {:.0} s: mutant of {name}, kept in {}", since.elapsed().as_secs_f64(), kept.display());
                    println!("FAIL {line}");
                    tally.lock().unwrap_or_else(|e| e.into_inner()).failures.push(line);
                }
            }
        }
        let all_done = workers.iter().all(|(h, _)| h.is_finished());
        let stuck = workers.iter().filter(|(h, _)| !h.is_finished()).all(|(_, b)| b.lock().map(|b| b.as_ref().is_some_and(|(_, n, _, _)| hung.contains(n))).unwrap_or(false));
        if all_done || (started.elapsed() >= o.time && stuck) {
            break;
        }
    }
    let t = tally.lock().unwrap_or_else(|e| e.into_inner());
    let mut ended: Vec<_> = t.ended.iter().collect();
    ended.sort();
    let ended: Vec<String> = ended.iter().map(|(k, v)| format!("{v} {k}")).collect();
    println!(
        "{} inputs in {:.0} s ({:.0}/s; {} checked whole; {}; {} past twice their deadline, the longest {:.1} s): {} failures",
        t.inputs,
        started.elapsed().as_secs_f64(),
        t.inputs as f64 / started.elapsed().as_secs_f64().max(0.001),
        t.full,
        ended.join(", "),
        t.late,
        t.longest.as_secs_f64(),
        t.failures.len()
    );
    let mut slowest: Vec<_> = t.per_seed.iter().collect();
    slowest.sort_by_key(|(_, (spent, _))| std::cmp::Reverse(*spent));
    for (name, (spent, count)) in slowest.iter().take(5) {
        println!("  {:.1} s for {count} mutants of {name}", spent.as_secs_f64());
    }
    let status = if t.failures.is_empty() { 0 } else { 1 };
    if !hung.is_empty() {
        // A hung worker cannot be joined; the process exits around it.
        use std::io::Write;
        let _ = std::io::stdout().flush();
        std::process::exit(status);
    }
    Ok(status)
}

/// Keeps a failing input's KIR.
fn keep_input(dir: &Path, n: u64, text: &str) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let path = dir.join(format!("kir-{n:08}.kir"));
    let _ = std::fs::write(&path, text);
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIR: &str = "language cuda\n\nkernel fn0 \"k\" link \"k\" (v0 \"a\": ptr.global pointee()) entry block0 {\n  v2: i64 = const 4\nblock0:\n  v1: i32 = builtin local_id x\n  v3: i64 = zext v1\n  v4: i64 = mul v3, v2\n  v5: ptr.global = ptradd v0, v4\n  store v5, v1 align 4\n  barrier group shared global\n  return\n}\n";

    fn seed() -> KirSeed {
        KirSeed { name: "test".into(), kir: KIR.into(), group_size: [32, 1, 1], num_groups: [2, 1, 1] }
    }

    #[test]
    fn the_seed_parses_verifies_and_is_checked() {
        assert_eq!(check_input(KIR, &seed(), true, true), Ok(Ended::Checked));
    }

    #[test]
    fn mutants_are_reproducible_and_never_fail_the_checks_on_this_seed() {
        let run = |s| {
            let mut rng = Rng::new(s);
            (0..40)
                .map(|_| {
                    let mut t = KIR.to_string();
                    mutate_kir(&mut t, &mut rng);
                    t
                })
                .collect::<Vec<_>>()
        };
        let mutants = run(3);
        assert_eq!(mutants, run(3));
        assert!(mutants.iter().filter(|m| *m != KIR).count() > 20);
        for m in &mutants {
            assert!(check_input(m, &seed(), false, false).is_ok(), "{m}");
        }
    }

    #[test]
    fn launches_come_from_the_tests_flags() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(launch_of(&args(&["--blockDim=[16,2]", "--gridDim=4"])), ([16, 2, 1], [4, 1, 1]));
        assert_eq!(launch_of(&args(&["--local_size=64", "--global_size=256"])), ([64, 1, 1], [4, 1, 1]));
        assert_eq!(launch_of(&args(&[])), ([32, 1, 1], [2, 1, 1]));
    }

    #[test]
    fn broken_reports_break_the_invariants() {
        let mut r = KernelReport::new("k");
        assert!(invariants(&r).is_err(), "unknown without a reason");
        r.verdict = Verdict::Errors;
        assert!(invariants(&r).is_err(), "errors without a confirmed violation");
        r.verdict = Verdict::Verified;
        assert!(invariants(&r).is_ok());
    }
}
