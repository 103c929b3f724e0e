//! The check driver: runs lockstep's engines on one kernel and merges what
//! they find into one `KernelReport`.
//!
//! - `search` runs the kernel in the concrete interpreter (`replay`) on
//!   concrete launches and inputs; anything it finds is a real defect with a
//!   witness (`confirmed`).
//! - The prover (`prove`) decides `verified` for any number of threads; its
//!   alarms stay `possible-errors` unless a replay confirms them.
//!
//! Invariant: a kernel is `verified` only when the prover proved every
//! property and no engine confirmed a violation; a confirmed violation
//! always makes the kernel `errors`, whatever another engine claims.

pub mod annotations;
pub mod confirm;
pub mod config;
pub mod host_path;
pub mod input_paths;
pub mod limits;
pub mod locate;
pub mod memory;
pub mod program;
pub mod prove;
pub mod search;
pub mod uninit;

pub use config::{CheckConfig, Mode};
/// The tags of the prover's invariant-inference rules (for `--disable-rule`).
pub use lockstep_prove::candidates::RULES as INFERENCE_RULES;

use lockstep_diag::{KernelReport, Verdict, Violation};
use lockstep_kir::{FuncId, Module};

/// The stack of the thread the prover runs on beside the concrete search.
const PROVER_STACK: usize = 64 << 20;

/// Checks one kernel as `config` asks.
pub fn check_kernel(module: &Module, kernel: FuncId, config: &CheckConfig) -> KernelReport {
    if let Some(why) = limits::unsupported_launch(config) {
        return KernelReport::unknown(module.functions[kernel].name.clone(), why, None);
    }
    // Scalar arguments the user fixed are assumed by every engine.
    let fixed = annotations::with_fixed_scalars(module, kernel, &config.scalar_args);
    let module = fixed.as_ref().unwrap_or(module);
    let name = module.functions[kernel].name.clone();
    let mut confirmed: Vec<Violation> = Vec::new();
    let mut notes: Vec<String> = Vec::new();

    // The prover's answer when it ran before the finder (see below).
    let mut proved_first: Option<prove::Proof> = None;
    // Set LOCKSTEP_PROVE_DEBUG to see how long each engine took.
    let timed = StageTimer::new(&name);
    if config.mode != Mode::Prove {
        // Without a deadline, the prover runs beside the concrete search
        // (on a thread of its own, its solvers in processes of their own):
        // its answer is the one it would give after the search, since
        // neither reads what the other does. When the search confirms a
        // violation, the prover is stopped and its answer discarded, and
        // it runs again below with the short budget it gets then, as
        // before; otherwise its answer is the one used below.
        let beside = config.mode == Mode::Both && config.deadline.is_none();
        let (outcome, proof) = if beside {
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let prover_config = CheckConfig { stop_prover: Some(stop.clone()), ..config.clone() };
            std::thread::scope(|scope| {
                // The stack of a main thread (8 MiB is usual) and more: the
                // encoder and the term printer recurse over the kernel.
                let prover = std::thread::Builder::new()
                    .name("prover".into())
                    .stack_size(PROVER_STACK)
                    .spawn_scoped(scope, || timed.stage("prover", || run_prover(module, kernel, &prover_config, config.prove_budget)));
                let outcome = timed.stage("concrete search", || search::search(module, kernel, config));
                if !outcome.violations.is_empty() {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                // A prover thread that could not start or panicked leaves
                // the proof to the sequential path below.
                let proof = prover.ok().and_then(|h| h.join().ok());
                (outcome, proof.filter(|_| !stop.load(std::sync::atomic::Ordering::Relaxed)))
            })
        } else {
            (timed.stage("concrete search", || search::search(module, kernel, config)), None)
        };
        // Set LOCKSTEP_FIND_DEBUG to see what the concrete search found.
        if std::env::var_os("LOCKSTEP_FIND_DEBUG").is_some() {
            eprintln!("concrete search: {} violation(s); {}", outcome.violations.len(), outcome.notes.join("; "));
        }
        confirmed.extend(outcome.violations);
        notes.extend(outcome.notes);
        // When the concrete search found nothing, the prover decides the
        // verdict, and it runs before the bounded finder, with the budget
        // it would have had anyway (its full one, nothing being confirmed
        // yet). When it proves the kernel, the kinds of violation it
        // proved absent (`PROVED_KINDS`) are not the finder's to look for:
        // the finder looks only for the others (division by zero,
        // overflow, out-of-bounds accesses of objects of known size),
        // which the prover does not check, and starts no solver when the
        // kernel has none of them. When it does not prove the kernel, the
        // finder looks for everything, as before, and its confirmed
        // findings come with the prover's alarms beside them. Under a
        // deadline (`--timeout`) the old order stays: the finder's half of
        // the time comes first, so that a prover that never answers cannot
        // hold back what the finder would find.
        if confirmed.is_empty() && config.mode == Mode::Both && config.deadline.is_none() {
            proved_first = Some(match proof {
                Some(proof) => proof,
                None => timed.stage("prover", || run_prover(module, kernel, config, config.prove_budget)),
            });
        }
        let skip: &[lockstep_diag::ViolationKind] = match proved_first {
            Some(prove::Proof::Verified { .. }) => PROVED_KINDS,
            _ => &[],
        };
        match memory::spent(config.memory_limit) {
            Some(why) => notes.push(format!("bounded symbolic search skipped: {why}")),
            None => notes.extend(timed.stage("bounded finder", || find_and_confirm(module, kernel, config, skip, &mut confirmed))),
        }
    }
    // The prover's budget: its full share when it decides the verdict, a
    // short one when a confirmed error already decides it (its alarms then
    // only add possible violations to the report).
    // Under a deadline (`--timeout`) it gets the time left, so that a solver
    // that never answers cannot hold back what the search found.
    let proof = match proved_first {
        Some(proof) => Some(proof),
        None => (config.mode != Mode::Find).then(|| {
            let budget = if confirmed.is_empty() { config.prove_budget } else { Some(std::time::Duration::from_secs(5)) };
            timed.stage("prover", || run_prover(module, kernel, config, budget))
        }),
    };

    let mut report = KernelReport::new(name);
    match proof {
        // A confirmed violation wins over any proof: it happened.
        _ if !confirmed.is_empty() => {
            report.verdict = Verdict::Errors;
            report.violations = confirmed;
            // Prover alarms the confirmed findings do not already cover are
            // reported too, as possible violations.
            if let Some(prove::Proof::Alarms(alarms)) = proof {
                for alarm in alarms {
                    if !report.violations.iter().any(|v| same_finding(v, &alarm)) {
                        report.violations.push(alarm);
                    }
                }
            }
        }
        Some(prove::Proof::Verified { proved, assumptions }) => {
            report.verdict = Verdict::Verified;
            report.proved = proved;
            report.assumptions = assumptions;
            if fixed.is_some() {
                let func = &module.functions[kernel];
                let given: Vec<String> = func
                    .params
                    .iter()
                    .zip(&config.scalar_args)
                    .filter_map(|(p, v)| match (p.ty, v) {
                        (lockstep_kir::Type::Int(_), Some(v)) => Some(format!("{} = {v}", p.name)),
                        (lockstep_kir::Type::Ptr(lockstep_kir::MemSpace::Private), Some(v)) => Some(format!("{} = bytes {v:#x}", p.name)),
                        _ => None,
                    })
                    .collect();
                report.assumptions.push(format!("scalar arguments as `--kernel-args` gives them: {}", given.join(", ")));
            }
        }
        Some(prove::Proof::Alarms(alarms)) => {
            report.verdict = Verdict::PossibleErrors;
            report.violations = alarms;
        }
        Some(prove::Proof::Unknown { reason, span }) => {
            let searched = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) };
            report.reason = Some((format!("{reason}; no violation found by concrete search{searched}"), span));
        }
        None => {
            let searched = if notes.is_empty() { "no engine ran".to_string() } else { notes.join("; ") };
            report.reason = Some((format!("no violation found by concrete search ({searched}), and no proof was attempted (--mode=find)"), None));
        }
    }
    report
}

/// Prints how long each engine took on one kernel, to standard error,
/// when `LOCKSTEP_PROVE_DEBUG` is set (a profiling aid: the figures say
/// where a check's time goes before any deeper measurement).
struct StageTimer<'a> {
    kernel: &'a str,
    on: bool,
}

impl<'a> StageTimer<'a> {
    fn new(kernel: &'a str) -> Self {
        StageTimer { kernel, on: std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some() }
    }

    fn stage<T>(&self, what: &str, f: impl FnOnce() -> T) -> T {
        let start = std::time::Instant::now();
        let cpu = if self.on { own_cpu_ms() } else { None };
        let out = f();
        if self.on {
            let cpu = match (cpu, own_cpu_ms()) {
                (Some(a), Some(b)) => format!(", {} ms of lockstep's CPU (all threads)", b.saturating_sub(a)),
                _ => String::new(),
            };
            eprintln!("engine: `{}`: {what}: {:.0} ms{cpu}", self.kernel, start.elapsed().as_secs_f64() * 1000.0);
        }
        out
    }
}

/// The CPU time this process has used so far (user and system, all its
/// threads, not its solver processes), in milliseconds, where Linux's
/// `/proc` says it.
fn own_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel's clock ticks are 100 per second on every Linux
    // configuration this runs on (USER_HZ).
    Some(ticks * 10)
}

/// The kinds of violation a `verified` proof rules out, for every launch
/// the configuration allows: the prover checks races, barrier divergence,
/// assertions (`assert`, warp masks, global assertions), loop invariants,
/// null and invalid pointers and writes to constant memory. It does not
/// check division by zero or overflow, and bounds only under
/// `--check-array-bounds` or given sizes, so those stay the finder's.
const PROVED_KINDS: &[lockstep_diag::ViolationKind] = {
    use lockstep_diag::ViolationKind as K;
    &[K::DataRace, K::BarrierDivergence, K::Assertion, K::Invariant, K::NullPointer, K::ConstantWrite]
};

/// Runs the prover on `kernel` with `budget` (within the time left under
/// `--timeout`, and not once the memory budget is spent), cross-checked
/// with the other solver under `--cross-check`.
fn run_prover(module: &Module, kernel: FuncId, config: &CheckConfig, budget: Option<std::time::Duration>) -> prove::Proof {
    match config.solver_limits(budget, config.query_timeout, 1.0) {
        _ if memory::spent(config.memory_limit).is_some() => {
            prove::Proof::Unknown { reason: memory::spent(config.memory_limit).unwrap_or_default(), span: None }
        }
        Some((prove_budget, query_timeout)) => {
            let proof = prove::prove(module, kernel, &CheckConfig { prove_budget, query_timeout, ..config.clone() });
            cross_checked(proof, config, |c| prove::prove(module, kernel, c))
        }
        None => prove::Proof::Unknown { reason: "no time was left for the prover (--timeout)".into(), span: None },
    }
}

/// The functions with a body that no function calls and that are not
/// kernels, defined in a file that defines a kernel (library code a header
/// brings in is not the user's to check).
pub fn uncalled_functions(module: &Module) -> Vec<FuncId> {
    let called: std::collections::HashSet<FuncId> = module
        .functions
        .values()
        .flat_map(|f| f.insts.values())
        .filter_map(|i| match &i.kind {
            lockstep_kir::InstKind::Call { callee, .. } => Some(*callee),
            _ => None,
        })
        .collect();
    let kernel_files: std::collections::HashSet<_> = module.kernels().filter_map(|(_, k)| k.loc.map(|l| l.file)).collect();
    module
        .functions
        .iter()
        .filter(|(id, f)| !f.is_kernel && !called.contains(id) && f.loc.is_some_and(|l| kernel_files.contains(&l.file)))
        .map(|(id, _)| id)
        .collect()
}

/// Checks `func`, a function no kernel calls (see [`uncalled_functions`]),
/// for every caller: `--no-inline`'s modular check. Only the prover runs,
/// since there is no launch to search; its alarms are possible errors.
pub fn check_uncalled_function(module: &Module, func: FuncId, config: &CheckConfig) -> KernelReport {
    let name = &module.functions[func].name;
    if let Some(why) = limits::unsupported_launch(config) {
        return KernelReport { uncalled_function: true, ..KernelReport::unknown(name.clone(), why, None) };
    }
    let mut report = KernelReport { uncalled_function: true, ..KernelReport::new(name.clone()) };
    let proof = match config.solver_limits(config.prove_budget, config.query_timeout, 1.0) {
        Some((prove_budget, query_timeout)) => {
            let proof = prove::prove_uncalled(module, func, &CheckConfig { prove_budget, query_timeout, ..config.clone() });
            cross_checked(proof, config, |c| prove::prove_uncalled(module, func, c))
        }
        None => prove::Proof::Unknown { reason: "no time was left for the prover (--timeout)".into(), span: None },
    };
    match proof {
        prove::Proof::Verified { proved, mut assumptions } => {
            report.verdict = Verdict::Verified;
            report.proved = proved;
            assumptions.push(format!(
                "`{name}` is called by no kernel: it was checked for every thread calling it once, each with its own arguments satisfying its preconditions"
            ));
            report.assumptions = assumptions;
        }
        prove::Proof::Alarms(alarms) => {
            report.verdict = Verdict::PossibleErrors;
            report.violations = alarms;
        }
        prove::Proof::Unknown { reason, span } => {
            report.reason = Some((format!("{reason} (`{name}` is called by no kernel and was checked on its own)"), span));
        }
    }
    report
}

/// Under `--cross-check`, re-does a successful `proof` with the other solver
/// (`prove_with`): the verdict stays `verified` only when both solvers
/// prove every property; when the other one does not, it is `unknown`, with
/// both answers named.
fn cross_checked(proof: prove::Proof, config: &CheckConfig, prove_with: impl FnOnce(&CheckConfig) -> prove::Proof) -> prove::Proof {
    let prove::Proof::Verified { mut proved, assumptions } = proof else {
        return proof;
    };
    if !config.cross_check {
        return prove::Proof::Verified { proved, assumptions };
    }
    let name = |cvc5: bool| if cvc5 { "cvc5" } else { "z3" };
    let (first, other) = (name(config.use_cvc5), name(!config.use_cvc5));
    let limits = config.solver_limits(config.prove_budget, config.query_timeout, 1.0);
    let second = match limits {
        _ if memory::spent(config.memory_limit).is_some() => prove::Proof::Unknown { reason: memory::spent(config.memory_limit).unwrap_or_default(), span: None },
        Some((prove_budget, query_timeout)) => prove_with(&CheckConfig { use_cvc5: !config.use_cvc5, prove_budget, query_timeout, ..config.clone() }),
        None => prove::Proof::Unknown { reason: "no time was left (--timeout)".into(), span: None },
    };
    match second {
        prove::Proof::Verified { .. } => {
            proved.push(format!("every property proved by {first} and again by {other} (--cross-check)"));
            prove::Proof::Verified { proved, assumptions }
        }
        prove::Proof::Alarms(alarms) => {
            let what = alarms.first().map_or_else(String::new, |a| format!(": {}", a.message));
            let span = alarms.first().and_then(|a| a.primary.clone());
            prove::Proof::Unknown {
                reason: format!("the solvers disagree (--cross-check): {first} proved every property, {other} did not prove {} of them{what}", alarms.len()),
                span,
            }
        }
        prove::Proof::Unknown { reason, span } => prove::Proof::Unknown {
            reason: format!("not cross-checked (--cross-check): {first} proved every property, {other} gave no answer: {reason}"),
            span,
        },
    }
}

/// Whether a prover alarm describes a violation already confirmed.
fn same_finding(confirmed: &Violation, alarm: &Violation) -> bool {
    confirmed.kind == alarm.kind && (confirmed.primary == alarm.primary || confirmed.related.iter().any(|r| Some(&r.span) == alarm.primary.as_ref()))
}

/// How many times the finder's CPU budget the wall clock allows without a
/// deadline (a backstop for a machine too loaded for CPU time to say much).
const FIND_WALL_BACKSTOP: u32 = 6;

/// Runs the bounded symbolic finder and adds each finding that a replay of
/// its witness confirms; returns notes on what was not confirmed.
fn find_and_confirm(module: &Module, kernel: FuncId, config: &CheckConfig, skip: &[lockstep_diag::ViolationKind], confirmed: &mut Vec<Violation>) -> Vec<String> {
    // Half of the time left at most, the prover needing the rest.
    let Some((find_budget, query_timeout)) = config.solver_limits(Some(config.find_budget), config.query_timeout.min(std::time::Duration::from_secs(10)), 0.5) else {
        return vec!["bounded symbolic search skipped: too little time was left (--timeout)".into()];
    };
    let find_config = lockstep_find::FindConfig {
        group_size: config.group_size,
        num_groups: config.num_groups,
        global_offset: config.global_offset,
        global_size: config.global_size,
        equality_abstraction: config.equality_abstraction,
        loop_unwind: config.loop_unwind.unwrap_or(4),
        solver: if config.use_cvc5 { lockstep_find::SolverKind::Cvc5 } else { lockstep_find::SolverKind::Z3 },
        query_timeout,
        // Without a deadline, the finder's budget is CPU time (its own and
        // its solver's), which a busy machine does not shrink, and the wall
        // clock only a backstop; under `--timeout` the wall clock decides.
        total_timeout: match config.deadline {
            Some(_) => find_budget.unwrap_or(config.find_budget),
            None => config.find_budget * FIND_WALL_BACKSTOP,
        },
        total_cpu: config.deadline.is_none().then_some(config.find_budget),
        warp_size: config.warp_sync,
        only_intra_group: config.only_intra_group,
        only_divergence: config.only_divergence,
        race_arrays: config.race_arrays.clone(),
        replay_log: config.smt_log(&module.functions[kernel].name, "find"),
        solver_memory: Some(config.solver_memory()),
        solver_timer_factor: config.solver_timer_factor(),
        array_sizes: config.named_array_sizes(&module.functions[kernel]),
        max_symbolic_size: {
            let own = lockstep_find::FindConfig::default().max_symbolic_size;
            config.largest_searched_size.map_or(own, |size| size.max(own))
        },
        skip_kinds: skip.to_vec(),
        ..lockstep_find::FindConfig::default()
    };
    let outcome = lockstep_find::find_bugs(module, kernel, &find_config);
    let mut unconfirmed = 0;
    // The replays get the finder's budget again (under a deadline, what is
    // left of it): confirming is as much of the search as solving.
    let confirm_budget = match config.time_left() {
        Some(left) => left.min(config.find_budget),
        None => config.find_budget,
    };
    let mut replays = confirm::Replays::new(confirm_budget);
    for found in &outcome.violations {
        match replays.confirm(module, kernel, config, found) {
            Some(v) => {
                if !confirmed.iter().any(|c| c.kind == v.kind && c.primary == v.primary) {
                    confirmed.push(v);
                }
            }
            None => {
                // Set LOCKSTEP_FIND_DEBUG to see what replay did not confirm.
                if std::env::var_os("LOCKSTEP_FIND_DEBUG").is_some() {
                    eprintln!("unconfirmed {:?}: {}\n  sites {:?}\n  witness {:?}\n  fallback {:?}", found.kind, found.message, found.locs, found.witness, found.fallback_witness);
                }
                unconfirmed += 1
            }
        }
    }
    let mut notes = Vec::new();
    if unconfirmed > 0 {
        notes.push(format!("{unconfirmed} finding(s) of the bounded search not confirmed by replay"));
    }
    if replays.skipped > 0 {
        notes.push(format!(
            "{} replay(s) of findings not run: the replays' budget ({} s of CPU) was spent",
            replays.skipped,
            confirm_budget.as_secs()
        ));
    }
    notes
}
