//! Whole-program checking: a CUDA program's host `main` with its kernels.
//!
//! The host module is appended to the device module and `main` runs in the
//! interpreter with the host model (`lockstep_host`) as its environment;
//! every launch runs there too, on the program's own memory. Then:
//!
//! - whatever went wrong in that run is a confirmed violation: failing host
//!   assertions, API misuse, and the races, out-of-bounds accesses and
//!   other violations of each launch, reported with both the kernel
//!   location and the host call site;
//! - a kernel is `verified` by that run when the run is the program's only
//!   behaviour: nothing nondeterministic happened before or during its
//!   launches (no value the run does not determine, such as the clock,
//!   input or memory never written, reached a branch, an address or an
//!   assertion; no unmodelled function) and the kernel's outcome cannot
//!   depend on the schedule (no atomic whose result it uses), because the
//!   interpreter's race detection covers every schedule of one input;
//! - otherwise each distinct launch configuration goes to the prover, with
//!   the launch's sizes and the sizes of the buffers the program passed
//!   (and its scalar arguments when they are the only possible ones:
//!   an undetermined one, such as an uninitialised variable, stays open);
//! - the host program itself is `verified` when its run is its only
//!   behaviour and nothing went wrong, `unknown` when the run was cut short
//!   or could have gone otherwise.
//!
//! Kernels that `main` never launches are not part of the program's
//! behaviour; the report says so in a note rather than checking them with
//! an invented launch.

use std::collections::{BTreeMap, HashSet};

use lockstep_diag::{Diagnostic, KernelReport, Related, Span, Verdict, Violation, ViolationKind as Kind, Witness};
use lockstep_host::{HostFindingKind, LaunchRecord, ProgramRun};
use lockstep_kir::{append_module, FuncId, InstKind, MemSpace, Module, Type};
use lockstep_replay::{Loc, ObjId};

use crate::config::{CheckConfig, Mode};
use crate::input_paths::Exploration;
use crate::locate::span_at;

/// The outcome of checking a program.
pub struct ProgramReport {
    /// The host program first, then each launched kernel.
    pub kernels: Vec<KernelReport>,
    pub notes: Vec<Diagnostic>,
}

/// How many of the values a run compared undetermined ones with are tried
/// for the program's uninitialised variables in further runs.
const MAX_VALUE_TRIES: usize = 3;

/// The name of the host program's entry in reports.
pub const HOST_ENTRY: &str = "main (host program)";

/// Checks the program made of `device` (the kernels) and `host` (its host
/// compilation, with `main`).
pub fn check_program(device: &Module, host: &Module, config: &CheckConfig) -> ProgramReport {
    let mut linked = device.clone();
    let map = append_module(&mut linked, host, |dst, obj| {
        // A host shadow of a `__device__`/`__constant__` variable is that
        // variable.
        dst.globals
            .iter()
            .find(|(_, g)| g.name == obj.name && matches!(g.space, MemSpace::Global | MemSpace::Constant))
            .map(|(id, _)| id)
    });
    let Some(host_main) = host.function_by_name("main") else {
        return ProgramReport {
            kernels: vec![KernelReport::unknown(HOST_ENTRY, "the host compilation has no `main`", None)],
            notes: Vec::new(),
        };
    };
    let main = map.function(host_main);
    let run = match lockstep_host::run_program_with(&linked, main, 0, 0, Some(config.memory_limit)) {
        Ok(run) => run,
        Err(e) => {
            return ProgramReport {
                kernels: vec![KernelReport::unknown(HOST_ENTRY, format!("the host program could not be run: {e:?}"), None)],
                notes: Vec::new(),
            }
        }
    };
    // A program that reads input is run once per path through it
    // (`input_paths`): when the runs cover every path, they decide the
    // program for every input; a run that goes wrong is a behaviour of
    // the program. Otherwise the one-run checks below say what they can.
    let mut unexplored = None;
    if run.input_reads > 0 && !run.is_deterministic() && !went_wrong(&run) {
        match crate::input_paths::explore(&linked, main, config, went_wrong) {
            Exploration::Complete(runs) => return explored_reports(&linked, device, &runs),
            Exploration::WentWrong(run) => return reports_of(&linked, device, &run, config),
            Exploration::Incomplete(why) => unexplored = Some(why),
        }
    }
    let mut report = check_one_run(&linked, device, main, run, config);
    if let (Some(why), false) = (unexplored, report.kernels.iter().any(|k| k.verdict == Verdict::Errors)) {
        report.notes.push(Diagnostic::note(format!("the program's paths through its input were not all explored, so it is not decided for every input: {why}")));
    }
    report
}

/// The checks of a program from one run (`run`, made with the first
/// choice), and the further runs it asks for.
fn check_one_run(linked: &Module, device: &Module, main: FuncId, run: ProgramRun, config: &CheckConfig) -> ProgramReport {
    // A nondeterministic program gets a few more runs with other inputs
    // and clock readings, to find the bugs the first run's choices hide;
    // the report follows the first run that went wrong.
    // A run that waits forever for other input (a validation loop) gives
    // way to one that completes.
    let mut run = run;
    if run.choice_matters && !went_wrong(&run) {
        for choice in 1..=2 {
            let Ok(other) = lockstep_host::run_program_with(&linked, main, choice, 0, Some(config.memory_limit)) else { continue };
            if went_wrong(&other) {
                run = other;
                break;
            }
            // A run that completes, or that reaches launches the first did
            // not (input the first run's zeros turned away), shows more of
            // the program.
            if other.host.completed && (!run.host.completed || other.launches.len() > run.launches.len()) {
                run = other;
            }
        }
    }
    // A host program that uses an uninitialised variable ran with 0 in it.
    // The variable's value is indeterminate: any bits are possible, and
    // with all of them set (-1) an assertion that held for 0 may fail. Such
    // a run is one of the program's behaviours, so what goes wrong in it
    // is a confirmed error, with the value in the witness.
    if !went_wrong(&run) && run.nondeterminism.iter().any(|(why, _)| why.contains("uninitialised variable")) {
        // All ones first, then the values the run compared undetermined
        // ones with (an assertion `x != 48` on an uninitialised `x` fails
        // only for 48).
        let mut tries = vec![u128::MAX];
        tries.extend(run.compared_values.iter().copied().filter(|&v| v != 0 && v != u128::MAX).take(MAX_VALUE_TRIES));
        for value in tries {
            if let Ok(other) = lockstep_host::run_program_with(&linked, main, 0, value, Some(config.memory_limit)) {
                if went_wrong(&other) {
                    run = other;
                    break;
                }
            }
        }
    }
    let report = reports_of(&linked, device, &run, config);
    // A kernel whose proof failed for an input value the host lets through
    // (`host_path`) is run again with that input: what goes wrong then
    // happened, with the value in the witness.
    if went_wrong(&run) || run.input_reads == 0 {
        return report;
    }
    for value in input_candidates(&report, &run, device) {
        if let Ok(other) = lockstep_host::run_program(&linked, main, value) {
            if went_wrong(&other) {
                return reports_of(&linked, device, &other, config);
            }
        }
    }
    report
}

/// The values of the kernels' input-fed scalar arguments in the witnesses
/// of the prover's unconfirmed findings.
fn input_candidates(report: &ProgramReport, run: &ProgramRun, device: &Module) -> Vec<u32> {
    let mut out = Vec::new();
    if !report.kernels.iter().any(|k| k.verdict == Verdict::PossibleErrors) {
        return out;
    }
    for kernel in report.kernels.iter().filter(|k| k.verdict == Verdict::PossibleErrors) {
        let Some(launch) = run.launches.iter().find(|l| device.functions[l.kernel].name == kernel.name) else { continue };
        let func = &device.functions[launch.kernel];
        for v in kernel.violations.iter().filter(|v| !v.confirmed) {
            let Some(witness) = &v.witness else { continue };
            for (name, value) in &witness.args {
                let Some(i) = func.params.iter().position(|p| &p.name == name) else { continue };
                let fed = launch.arg_terms.get(i).is_some_and(|&t| t != 0) && launch.arg_undefined.get(i).is_some_and(|&u| u != 0);
                let parsed = value.trim().parse::<i64>().ok().map(|v| v as u32);
                if let (true, Some(value)) = (fed, parsed) {
                    if !out.contains(&value) && out.len() < MAX_VALUE_TRIES {
                        out.push(value);
                    }
                }
            }
        }
    }
    // The values the run compared its input with, and their neighbours,
    // are where the host's branches change their way.
    for &v in &run.compared_values {
        let v = v as u32;
        if v != run.choice && !out.contains(&v) && out.len() < 2 * MAX_VALUE_TRIES {
            out.push(v);
        }
    }
    out
}

/// The reports of one run of the program.
fn reports_of(linked: &Module, device: &Module, run: &ProgramRun, config: &CheckConfig) -> ProgramReport {
    let mut kernels = vec![host_report(linked, run)];
    let mut notes: Vec<Diagnostic> = run
        .notes
        .iter()
        .map(|(message, loc)| Diagnostic { span: span(linked, loc), ..Diagnostic::note(message.clone()) })
        .collect();

    let mut by_kernel: BTreeMap<FuncId, Vec<&LaunchRecord>> = BTreeMap::new();
    for launch in &run.launches {
        by_kernel.entry(launch.kernel).or_default().push(launch);
    }
    for (id, f) in device.kernels() {
        if !by_kernel.contains_key(&id) {
            notes.push(Diagnostic::note(format!(
                "kernel `{}` is never launched by this run of `main`, so it is not part of the program's behaviour (check it alone with --kernel={})",
                f.name, f.name
            )));
        }
    }
    for (kernel, launches) in by_kernel {
        kernels.push(kernel_report(linked, device, kernel, &launches, run, config));
    }
    ProgramReport { kernels, notes }
}

/// Whether a run saw a violation, on the host or in a launch.
fn went_wrong(run: &ProgramRun) -> bool {
    !run.host.violations.is_empty()
        || !run.findings.is_empty()
        || run.launches.iter().any(|l| l.outcome.as_ref().is_ok_and(|r| !r.violations.is_empty()))
}

/// Whether the run met a call whose effect on memory it did not model: a
/// library function lockstep does not model, or a launch the interpreter
/// did not run (see `ProgramRun::unknown_effects`).
fn met_unknown_effects(run: &ProgramRun) -> bool {
    !run.unknown_effects.is_empty()
}

fn span(module: &Module, loc: &Loc) -> Option<Span> {
    span_at(module, loc.func, loc.block, loc.inst)
}

fn host_report(module: &Module, run: &ProgramRun) -> KernelReport {
    let mut report = KernelReport::new(HOST_ENTRY);
    let all_buffers: HashSet<ObjId> = (0..run.host.memory.len() as u32).map(ObjId).collect();
    let mut evidence = Witness {
        memory: vec![("run".into(), "one execution of the host program from main".into())],
        ..Witness::default()
    };
    for (why, _) in run.nondeterminism.iter().filter(|(why, _)| !explained_by_input(run, why)) {
        evidence.memory.push(("choice".into(), why.clone()));
    }
    // The uninitialised variables whose values reached what went wrong
    // (the failing use, or the first use of an undetermined value).
    let mut declared: Vec<crate::uninit::Declaration> = Vec::new();
    if run.undefined_value != 0 {
        let uses = run.host.violations.iter().map(|v| v.loc).chain(run.host.first_unspecified_use);
        for loc in uses {
            for d in crate::uninit::declarations_reaching(module, &loc) {
                if !declared.contains(&d) {
                    declared.push(d);
                }
            }
        }
    }
    if let Some(value) = undefined_value_text(run.undefined_value, &declared) {
        evidence.memory.push(("value".into(), value));
    }
    if let Some(input) = input_text(run) {
        evidence.memory.push(("input".into(), input));
    }
    for v in &run.host.violations {
        if let Some(mut converted) = crate::search::convert(module, &run.host, v, &all_buffers, &evidence) {
            converted.message = converted.message.replace(" by thread 0 of block 0", " in the host program").replace(" for thread 0 of block 0", " in the host program");
            converted.witness = Some(evidence.clone());
            // The report points at the declarations too: that is where the
            // variable was left without a value.
            for d in &declared {
                converted.related.push(Related {
                    span: crate::locate::span_of(module, d.loc),
                    label: match &d.name {
                        Some(name) => format!("`{name}` is declared here without a value"),
                        None => "declared here without a value".into(),
                    },
                });
            }
            // A failing `assert` is followed by `unreachable`: one report.
            if !report.violations.iter().any(|o| o.primary == converted.primary) {
                report.violations.push(converted);
            }
        }
    }
    for f in &run.findings {
        let kind = match f.kind {
            HostFindingKind::ApiMisuse => Kind::ApiMisuse,
            HostFindingKind::NullPointer => Kind::NullPointer,
            HostFindingKind::OutOfBounds => Kind::OutOfBounds,
        };
        let primary = span(module, &f.loc);
        if report.violations.iter().any(|v| v.kind == kind && v.primary == primary) {
            continue;
        }
        report.violations.push(Violation {
            kind,
            confirmed: true,
            message: f.message.clone(),
            primary,
            primary_label: None,
            related: Vec::new(),
            witness: Some(evidence.clone()),
        });
    }
    if !report.violations.is_empty() {
        // A library function lockstep does not model may have set memory
        // the program then used (an allocation's out-pointer, a mapped
        // buffer), and a launch the interpreter did not run left memory as
        // it was before the kernel: what went wrong after such a call may
        // be the model's doing, not the program's. It is a possible error,
        // not a confirmed one.
        // (The witness lists the call among its choices.)
        if met_unknown_effects(run) {
            for v in &mut report.violations {
                v.confirmed = false;
            }
            report.verdict = Verdict::PossibleErrors;
            return report;
        }
        report.verdict = Verdict::Errors;
        return report;
    }
    if let Some((reason, event)) = run.host.incomplete.first() {
        report.reason = Some((format!("the run of the host program stopped early: {reason}"), span(module, &event.loc)));
        return report;
    }
    if let Some((why, loc)) = run.nondeterminism.first() {
        report.reason = Some((
            format!(
                "the host program was run once and nothing went wrong, but another run could differ: {why}{}",
                if run.nondeterminism.len() > 1 { format!(" (and {} more)", run.nondeterminism.len() - 1) } else { String::new() }
            ),
            span(module, loc),
        ));
        return report;
    }
    report.verdict = Verdict::Verified;
    report.proved = vec![
        "host assertions".into(),
        "CUDA runtime API use (allocation sizes, copy directions, frees)".into(),
        "host memory safety".into(),
    ];
    report.assumptions = vec![format!(
        "no value the run does not determine (an uninitialised variable, memory never written, input, the clock) decides an address, an assertion, a call that acts on it or a branch with effects beyond the values it computes, so the program's one execution ({} launch{}) stands for all its behaviours",
        run.launches.len(),
        if run.launches.len() == 1 { "" } else { "es" }
    )];
    report
}

/// Whether the kernel's outcome could depend on the order threads run in
/// beyond what race detection covers: an atomic whose old value is used.
pub(crate) fn schedule_dependent(module: &Module, kernel: FuncId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![kernel];
    while let Some(f) = stack.pop() {
        if !seen.insert(f) {
            continue;
        }
        let func = &module.functions[f];
        let used = func.used_values(|_| true);
        for inst in func.insts.values() {
            match &inst.kind {
                InstKind::Atomic { .. } | InstKind::CmpXchg { .. } if inst.result.is_some_and(|r| used.contains(&r)) => return true,
                InstKind::Call { callee, .. } => stack.push(*callee),
                _ => {}
            }
        }
    }
    false
}

/// Whether the nondeterminism `why` of `run` is its use of the input its
/// witness lists: a run that explored the input (`ProgramRun::draws`)
/// names every value it read, and its uses of them need no other word.
fn explained_by_input(run: &ProgramRun, why: &str) -> bool {
    run.draws.is_some() && (why.contains("uses a value the run does not determine") || why.contains("reads memory that was never written"))
}

/// What the run's uninitialised variables held, for a witness (nothing for
/// the first run's zeros), naming the `declared` ones the report is about.
fn undefined_value_text(value: u128, declared: &[crate::uninit::Declaration]) -> Option<String> {
    let which = if declared.is_empty() {
        "the uninitialised variable".to_string()
    } else {
        let names: Vec<String> = declared
            .iter()
            .map(|d| match &d.name {
                Some(name) => format!("`{name}` (declared at line {})", d.loc.line),
                None => format!("declared at line {}", d.loc.line),
            })
            .collect();
        format!("the uninitialised variable{} {}", if names.len() == 1 { "" } else { "s" }, names.join(", "))
    };
    let plural = declared.len() > 1;
    match value {
        0 => None,
        u128::MAX => Some(format!("{which} {} all-ones bits (-1 as a signed integer)", if plural { "hold" } else { "holds" })),
        v if declared.is_empty() => Some(format!("the uninitialised variables hold {v} (in the low bits of each)")),
        v => Some(format!("{which} {} {v} (in the low bits{})", if plural { "hold" } else { "holds" }, if plural { " of each" } else { "" })),
    }
}

/// What the run read as input, for a witness (nothing for the first run's
/// zeros, or a run that read none).
fn input_text(run: &ProgramRun) -> Option<String> {
    if let Some(draws) = &run.draws {
        return crate::input_paths::input_text(draws);
    }
    (run.input_reads > 0 && run.choice != 0).then(|| format!("every number the program reads as input is {}", run.choice))
}

/// The reports of a program whose runs cover every path through its input
/// (`input_paths::Exploration::Complete`): nothing went wrong in any, so the
/// host program and every kernel they launch are verified.
fn explored_reports(linked: &Module, device: &Module, runs: &[ProgramRun]) -> ProgramReport {
    let paths = runs.len();
    let plural = |n: usize, word: &str, many: &str| if n == 1 { format!("{n} {word}") } else { format!("{n} {many}") };
    let mut host = KernelReport::new(HOST_ENTRY);
    host.verdict = Verdict::Verified;
    host.proved = vec![
        "host assertions".into(),
        "CUDA runtime API use (allocation sizes, copy directions, frees)".into(),
        "host memory safety".into(),
    ];
    host.assumptions = vec![format!(
        "every input: the program's {} through what it reads (its branches on input, in the host and in its kernels) were each run, and the solver showed no other way feasible; input reaches nothing but those branches, so each run stands for every input that takes its path",
        plural(paths, "path", "paths")
    )];
    let mut notes: Vec<Diagnostic> = Vec::new();
    let mut launches: BTreeMap<FuncId, usize> = BTreeMap::new();
    for run in runs {
        for (message, loc) in &run.notes {
            if !notes.iter().any(|n| &n.message == message) {
                notes.push(Diagnostic { span: span(linked, loc), ..Diagnostic::note(message.clone()) });
            }
        }
        for launch in &run.launches {
            *launches.entry(launch.kernel).or_default() += 1;
        }
    }
    let mut kernels = vec![host];
    for (id, f) in device.kernels() {
        if !launches.contains_key(&id) {
            notes.push(Diagnostic::note(format!(
                "kernel `{}` is never launched by the program, whatever its input, so it is not part of the program's behaviour (check it alone with --kernel={})",
                f.name, f.name
            )));
        }
    }
    for (kernel, count) in launches {
        let mut report = KernelReport::new(device.functions[kernel].name.clone());
        report.verdict = Verdict::Verified;
        report.proved.push(format!(
            "race freedom, barrier divergence freedom, memory safety and assertions for {} over the program's {} through its input, by executing every thread on the program's own data",
            plural(count, "launch", "launches"),
            plural(paths, "path", "paths")
        ));
        report.assumptions.push("the program's input reaches the kernel only in branches, whose every way was explored, and the kernel's results do not depend on the order of its atomics".into());
        kernels.push(report);
    }
    ProgramReport { kernels, notes }
}

fn dims(d: [u32; 3]) -> String {
    if d[1] == 1 && d[2] == 1 {
        d[0].to_string()
    } else {
        format!("({},{},{})", d[0], d[1], d[2])
    }
}

fn kernel_report(
    module: &Module,
    device: &Module,
    kernel: FuncId,
    launches: &[&LaunchRecord],
    run: &ProgramRun,
    config: &CheckConfig,
) -> KernelReport {
    let func = &module.functions[kernel];
    let mut report = KernelReport::new(func.name.clone());
    let all_buffers: HashSet<ObjId> = (0..run.host.memory.len() as u32).map(ObjId).collect();
    let schedule_dependent = schedule_dependent(module, kernel);
    let mut to_prove: Vec<&LaunchRecord> = Vec::new();
    let mut executed = 0usize;
    let mut not_run: Vec<String> = Vec::new();
    for launch in launches {
        let site = span(module, &launch.site);
        let result = match &launch.outcome {
            Ok(result) => result,
            Err(why) if why.contains("configuration is invalid") => {
                not_run.push(why.clone());
                continue;
            }
            Err(_) => {
                to_prove.push(launch);
                continue;
            }
        };
        let witness = Witness {
            block_dim: Some(launch.block.map(u64::from)),
            grid_dim: Some(launch.grid.map(u64::from)),
            threads: Vec::new(),
            args: func
                .params
                .iter()
                .zip(&launch.args)
                .zip(&launch.arg_sizes)
                .map(|((p, a), size)| {
                    let value = match (p.ty, size) {
                        (Type::Ptr(_), Some(size)) => format!("buffer of {size} bytes"),
                        (Type::Ptr(_), None) => "a pointer to no allocation".into(),
                        _ => a.bits().to_string(),
                    };
                    (p.name.clone(), value)
                })
                .collect(),
            memory: vec![("inputs".into(), "the program's own data at the launch".into())],
        };
        let mut witness = witness;
        let declared = if run.undefined_value != 0 { crate::uninit::declarations_reaching(module, &launch.site) } else { Vec::new() };
        if let Some(value) = undefined_value_text(run.undefined_value, &declared) {
            witness.memory.push(("value".into(), value));
        }
        if let Some(input) = input_text(run) {
            witness.memory.push(("input".into(), input));
        }
        if launch.undefined_all_ones {
            witness.memory.push(("choice".into(), "uninitialised variables hold all-ones bits".into()));
        }
        if !launch.deterministic_before {
            for (why, _) in run.nondeterminism.iter().filter(|(why, _)| !explained_by_input(run, why)) {
                witness.memory.push(("choice".into(), why.clone()));
            }
        }
        // The launch's objects live on in the program's final memory (the
        // launch's own result gave its memory back to the program).
        let with_memory = (!result.violations.is_empty())
            .then(|| lockstep_replay::ReplayResult { memory: run.host.memory.clone(), ..result.clone() });
        for v in &result.violations {
            let result = with_memory.as_ref().expect("set when there are violations");
            if let Some(mut converted) = crate::search::convert(module, result, v, &all_buffers, &witness) {
                if let Some(site) = site.clone() {
                    converted.related.push(Related {
                        span: site,
                        label: format!("launched here with <<<{}, {}>>>", dims(launch.grid), dims(launch.block)),
                    });
                }
                let key = (converted.kind, converted.primary.clone());
                if !report.violations.iter().any(|o| (o.kind, o.primary.clone()) == key) {
                    report.violations.push(converted);
                }
            }
        }
        let exact = result.completed && !launch.read_undefined && launch.deterministic_before && !schedule_dependent;
        if exact {
            executed += 1;
        } else {
            to_prove.push(launch);
        }
    }
    if !report.violations.is_empty() {
        // As in the host's report: a pointer the kernel met null or out of
        // bounds may come from a library call lockstep does not model.
        if met_unknown_effects(run) {
            for v in report.violations.iter_mut().filter(|v| matches!(v.kind, Kind::NullPointer | Kind::OutOfBounds)) {
                v.confirmed = false;
            }
        }
        report.verdict = if report.violations.iter().any(|v| v.confirmed) { Verdict::Errors } else { Verdict::PossibleErrors };
        return report;
    }
    // The launches the run does not settle go to the prover, once per
    // distinct configuration.
    // A launch whose arguments came from input assumes what the host's
    // branches before it say about them (`host_path`).
    let mut configs: Vec<(CheckConfig, Option<(Module, Vec<String>, String)>)> = Vec::new();
    for launch in &to_prove {
        let mut c = launch_config(func, launch, config);
        let assumed = crate::host_path::assume_host_path(device, kernel, launch, &run.host.memory.terms);
        if assumed.is_some() {
            // The finder's witness names the arguments' values, which the
            // program, run again with them as input, may confirm.
            c.mode = Mode::Both;
        }
        let key = assumed.as_ref().map(|(_, _, k)| k);
        if !configs.iter().any(|(o, a)| a.as_ref().map(|(_, _, k)| k) == key && same_launch(o, &c)) {
            configs.push((c, assumed));
        }
    }
    let mut proved: Vec<String> = Vec::new();
    let mut assumptions: Vec<String> = Vec::new();
    for (c, assumed) in &configs {
        let module = assumed.as_ref().map_or(device, |(m, _, _)| m);
        let mut sub = crate::check_kernel(module, kernel, c);
        if let (Some((_, names, _)), Verdict::Verified) = (assumed, sub.verdict) {
            sub.assumptions.push(format!(
                "the host's branches before the launch, and the ranges its computations give, on the values it does not determine that it passes as {}: the kernel was checked for the values that take those branches as this run did and lie in those ranges",
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ));
        }
        match sub.verdict {
            Verdict::Verified => {
                for p in sub.proved {
                    if !proved.contains(&p) {
                        proved.push(p);
                    }
                }
                for a in sub.assumptions {
                    if !assumptions.contains(&a) {
                        assumptions.push(a);
                    }
                }
            }
            _ => {
                // The prover's findings hold for some inputs of this launch
                // shape, not necessarily the program's: they stay possible.
                report.verdict = if sub.verdict == Verdict::Unknown { Verdict::Unknown } else { Verdict::PossibleErrors };
                report.violations = sub
                    .violations
                    .into_iter()
                    .map(|mut v| {
                        v.confirmed = false;
                        v
                    })
                    .collect();
                report.reason = sub.reason.or_else(|| {
                    Some((
                        format!(
                            "the program's run found no violation, but it does not cover every behaviour ({}), and the proof for <<<{}, {}>>> failed",
                            why_not_exact(run, to_prove.first().copied(), schedule_dependent),
                            c.num_groups.map(|d| d.unwrap_or(0)).iter().map(u64::to_string).collect::<Vec<_>>().join(","),
                            c.group_size.map(|d| d.unwrap_or(0)).iter().map(u64::to_string).collect::<Vec<_>>().join(",")
                        ),
                        None,
                    ))
                });
                return report;
            }
        }
    }
    if executed == 0 && configs.is_empty() {
        report.reason = Some((format!("the kernel never ran: {}", not_run.join("; ")), None));
        return report;
    }
    report.verdict = Verdict::Verified;
    if executed > 0 {
        report.proved.push(format!(
            "race freedom, barrier divergence freedom, memory safety and assertions for {executed} launch{} of the program, by executing every thread on the program's own data",
            if executed == 1 { "" } else { "es" }
        ));
        report.assumptions.push("the program is deterministic up to these launches (values it does not determine reach no branch or address), and the kernel's results do not depend on the order of its atomics".into());
    }
    report.proved.extend(proved);
    report.assumptions.extend(assumptions);
    report
}

fn why_not_exact(run: &ProgramRun, launch: Option<&LaunchRecord>, schedule_dependent: bool) -> String {
    if schedule_dependent {
        return "the kernel uses the results of atomics".into();
    }
    if let Some(l) = launch {
        if l.read_undefined {
            return "the kernel uses a value the run does not determine (an uninitialised variable, memory never written, input or the clock)".into();
        }
        if let Err(why) = &l.outcome {
            return why.clone();
        }
        if let Ok(r) = &l.outcome {
            if !r.completed {
                return "the launch's run stopped early".into();
            }
        }
    }
    run.nondeterminism.first().map(|(w, _)| w.clone()).unwrap_or_else(|| "the program is nondeterministic".into())
}

/// The prover's configuration for one launch: its sizes, the sizes of the
/// buffers passed, and its scalar arguments when they are the only ones.
fn launch_config(func: &lockstep_kir::Function, launch: &LaunchRecord, base: &CheckConfig) -> CheckConfig {
    let mut c = base.clone();
    c.mode = Mode::Prove;
    c.group_size = launch.block.map(|d| Some(d as u64));
    c.num_groups = launch.grid.map(|d| Some(d as u64));
    c.dynamic_shared_bytes = Some(launch.shared_bytes);
    c.array_sizes = func
        .params
        .iter()
        .zip(&launch.arg_sizes)
        .filter(|(p, _)| matches!(p.ty, Type::Ptr(s) if s != MemSpace::Private))
        .map(|(_, s)| *s)
        .collect();
    c.scalar_args = if launch.deterministic_before {
        func.params
            .iter()
            .zip(&launch.args)
            .enumerate()
            // An argument with undetermined bits (an uninitialised
            // variable) may hold any value: the prover leaves it open.
            .map(|(i, (p, a))| {
                (matches!(p.ty, Type::Int(_) | Type::Float(_)) && launch.arg_undefined.get(i).is_none_or(|&u| u == 0)).then(|| a.bits())
            })
            .collect()
    } else {
        Vec::new()
    };
    c
}

fn same_launch(a: &CheckConfig, b: &CheckConfig) -> bool {
    a.group_size == b.group_size
        && a.num_groups == b.num_groups
        && a.array_sizes == b.array_sizes
        && a.scalar_args == b.scalar_args
        && a.dynamic_shared_bytes == b.dynamic_shared_bytes
}
