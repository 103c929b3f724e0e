//! `lockstep equiv FILE_A[:KERNEL] [FILE_B[:KERNEL]] [options]`.
//!
//! Compiles both files, picks the kernels, runs `lockstep-equiv` and renders
//! its outcome. With one kernel, checks it against its `__ensures`.
//!
//! The sizing and solver flags are `check`'s (parsed by `options::parse_check`
//! so that both commands accept exactly the same spellings).
//!
//! JSON output (one object on stdout), mirroring `check`'s:
//!
//! ```text
//! {"file": A, "files": [A, B], "kernels": [KA, KB], "verdict": "equivalent|different|unknown|rejected",
//!  "reason": null | "...", "location": null | {"file","line","column"},
//!  "difference": null | {"launch": {"blockDim": [x,y,z], "gridDim": [x,y,z]}, "arguments": {name: value},
//!                        "buffer", "index", "value_a", "value_b", "inputs", "confirmed": true},
//!  "postcondition_failure": null | {"kernel", "location", "launch", "thread": {"local", "group"}, "arguments", "confirmed": true},
//!  "shape_dependency": null | "...", "launches_tested": [{"blockDim", "gridDim", "differs": true|false|null}],
//!  "proved": [...], "assumptions": [...], "notes": [...], "elapsed_ms": N, "error": null | "..."}
//! ```
//!
//! Exit status: 0 equivalent, 1 different, 2 rejected, 3 unknown.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use lockstep_equiv::{EquivConfig, KernelRef, Outcome, Verdict};
use lockstep_frontend::{CompileOptions, FrontError};
use serde_json::{json, Value};

use crate::options::{self, Format};

/// Flags of `check` that take their value as the next argument.
const VALUE_FLAGS: &[&str] = &[
    "-I", "-D", "-x", "--language", "--cuda-path", "--cuda-headers", "--kernel", "--format", "--mode", "--solver", "--timeout", "--blockDim",
    "--local_size", "--gridDim", "--num_groups", "--global_size", "--global_offset", "--warp-sync", "--loop-unwind",
    "--kernel-args", "--kernel-arrays", "--clang-opt", "--memory-limit",
];

/// A kernel named on the command line: `FILE[:KERNEL]`.
struct Spec {
    text: String,
    file: PathBuf,
    kernel: Option<String>,
}

fn parse_spec(text: &str) -> Spec {
    if let Some((file, kernel)) = text.rsplit_once(':') {
        let ident = !kernel.is_empty() && kernel.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident && !file.is_empty() {
            return Spec { text: text.to_string(), file: PathBuf::from(file), kernel: Some(kernel.to_string()) };
        }
    }
    Spec { text: text.to_string(), file: PathBuf::from(text), kernel: None }
}

struct Request {
    specs: Vec<Spec>,
    options: options::CheckOptions,
    float_ieee: bool,
    /// Whether `--solver` was given (`--float=ieee` otherwise prefers cvc5).
    solver_chosen: bool,
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut specs = Vec::new();
    let mut rest = Vec::new();
    let mut float_ieee = false;
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if let Some(v) = a.strip_prefix("--float=") {
            match v {
                "uf" | "uninterpreted" => float_ieee = false,
                "ieee" => float_ieee = true,
                other => return Err(format!("--float: unknown model `{other}` (expected uf or ieee)")),
            }
            continue;
        }
        if a.starts_with('-') {
            rest.push(a.clone());
            if VALUE_FLAGS.contains(&a.as_str()) {
                if let Some(v) = iter.next() {
                    rest.push(v.clone());
                }
            }
            continue;
        }
        specs.push(parse_spec(a));
    }
    if specs.is_empty() || specs.len() > 2 {
        return Err("usage: lockstep equiv FILE_A[:KERNEL] [FILE_B[:KERNEL]] [options]".into());
    }
    let mut check_args = vec![specs[0].file.display().to_string()];
    check_args.extend(rest);
    let solver_chosen = check_args.iter().any(|a| a == "--solver" || a.starts_with("--solver="));
    let options = options::parse_check(&check_args).map_err(|e| e.0)?;
    Ok(Request { specs, options, float_ieee, solver_chosen })
}

/// Everything the renderer needs.
struct Answer {
    files: Vec<String>,
    kernels: Vec<String>,
    outcome: Outcome,
    error: Option<String>,
    elapsed_ms: u64,
}

impl Answer {
    fn rejected(files: Vec<String>, error: String) -> Answer {
        let mut outcome = Outcome::new(Verdict::Rejected);
        outcome.reason = Some((error.clone(), None));
        Answer { files, kernels: Vec::new(), outcome, error: Some(error), elapsed_ms: 0 }
    }
}


pub fn run(args: &[String]) -> i32 {
    let start = Instant::now();
    let format = crate::requested_format(args);
    let request = match parse(args) {
        Ok(r) => r,
        Err(e) => {
            let files = args.iter().filter(|a| !a.starts_with('-')).cloned().collect();
            return emit(&Answer::rejected(files, e), format);
        }
    };
    let format = request.options.format;
    let files: Vec<String> = request.specs.iter().map(|s| s.file.display().to_string()).collect();
    if let Some(secs) = request.options.timeout_secs {
        let files = files.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(secs));
            stop(files, format, format!("timed out after {secs} s (--timeout)"), secs * 1000);
        });
    }
    // As in a check: when lockstep and its solvers together hold more than
    // the memory limit, the run ends `unknown` before the operating system's
    // out-of-memory killer would end it.
    let limit = request.options.memory_limit_mib.map_or(lockstep_engine::config::DEFAULT_MEMORY_LIMIT, |m| m << 20);
    {
        let files = files.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(100));
            let used = lockstep_engine::memory::run_resident_bytes();
            if used > limit {
                let why = format!("the memory limit of {} MiB was reached (lockstep and its solvers held {} MiB; --memory-limit)", limit >> 20, used >> 20);
                stop(files, format, why, start.elapsed().as_millis() as u64);
            }
        });
    }
    let mut answer = decide(&request, files);
    answer.elapsed_ms = start.elapsed().as_millis() as u64;
    emit(&answer, format)
}

/// Ends the run from a watchdog: `unknown` for `why`, with nothing this
/// run started left running.
fn stop(files: Vec<String>, format: Format, why: String, elapsed_ms: u64) -> ! {
    let mut outcome = Outcome::new(Verdict::Unknown);
    outcome.reason = Some((why, None));
    let answer = Answer { files, kernels: Vec::new(), outcome, error: None, elapsed_ms };
    lockstep_frontend::driver::kill_running_compilers();
    lockstep_smt::solver::kill_running_solvers();
    std::process::exit(emit(&answer, format));
}

fn decide(request: &Request, files: Vec<String>) -> Answer {
    let o = &request.options;
    let compile = CompileOptions {
        include_dirs: o.include_dirs.clone(),
        defines: o.defines.clone(),
        language: o.language,
        cuda_path: o.cuda_path.clone(),
        cuda_headers: o.cuda_headers,
        ..CompileOptions::default()
    };
    let mut modules = Vec::new();
    for spec in &request.specs {
        match lockstep_frontend::load(&spec.file, &compile) {
            Ok(l) => {
                let (oversized, _) = lockstep_engine::limits::oversized_objects(&l.module);
                if !oversized.is_empty() {
                    let diags = oversized.into_iter().map(|(message, span)| lockstep_diag::Diagnostic::error(message, span));
                    return Answer::rejected(files, diags.map(|d| d.to_string()).collect::<Vec<_>>().join("\n"));
                }
                modules.push(l.module);
            }
            Err(FrontError::Rejected(diags)) => {
                let msg = diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
                return Answer::rejected(files, msg);
            }
            Err(FrontError::Unsupported(u)) => {
                let mut outcome = Outcome::new(Verdict::Unknown);
                outcome.reason = Some((format!("unsupported: {}", u.what), u.loc.map(|(f, l, c)| (f, l, c))));
                return Answer { files, kernels: Vec::new(), outcome, error: None, elapsed_ms: 0 };
            }
            Err(FrontError::Environment(msg)) => {
                let mut outcome = Outcome::new(Verdict::Unknown);
                outcome.reason = Some((msg, None));
                return Answer { files, kernels: Vec::new(), outcome, error: None, elapsed_ms: 0 };
            }
        }
    }
    let mut refs = Vec::new();
    for (spec, module) in request.specs.iter().zip(&modules) {
        let kernels: Vec<_> = module.kernels().collect();
        let id = match &spec.kernel {
            Some(name) => kernels.iter().find(|(_, k)| &k.name == name || &k.link_name == name).map(|(id, _)| *id),
            None if kernels.len() == 1 => Some(kernels[0].0),
            None => None,
        };
        let Some(id) = id else {
            let names: Vec<&str> = kernels.iter().map(|(_, k)| k.name.as_str()).collect();
            let have = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            let msg = match &spec.kernel {
                Some(k) => format!("{}: no kernel named `{k}` (the file has: {have})", spec.file.display()),
                None => format!("{}: name the kernel to compare as `{}:KERNEL` (the file has: {have})", spec.file.display(), spec.text),
            };
            return Answer::rejected(files, msg);
        };
        refs.push(KernelRef { module, kernel: id, file: spec.file.to_str().unwrap_or("") });
    }
    let kernels: Vec<String> = refs.iter().map(|r| r.func().name.clone()).collect();
    let mut config = equiv_config(o, refs[0].func());
    if request.float_ieee {
        config.floats = lockstep_equiv::FloatModel::Ieee;
        // Debian's z3 4.8 bit-blasts float additions an order of magnitude
        // more slowly than cvc5 (8 s against 0.4 s to find that float
        // addition is not associative), so cvc5 decides IEEE queries
        // unless the user chose a solver.
        if !request.solver_chosen {
            config.solver = lockstep_equiv::SolverKind::Cvc5;
        }
    }
    let outcome = lockstep_equiv::check(refs[0], refs.get(1).copied(), &config);
    Answer { files, kernels, outcome, error: None, elapsed_ms: 0 }
}

fn equiv_config(o: &options::CheckOptions, kernel: &lockstep_kir::Function) -> EquivConfig {
    let three = |d: &Option<options::Dims>| d.as_ref().map_or([None; 3], |d| d.three());
    let mut config = EquivConfig {
        group_size: three(&o.launch.group_size),
        num_groups: three(&o.launch.num_groups),
        solver: match o.solver {
            options::SolverKind::Z3 => lockstep_equiv::SolverKind::Z3,
            options::SolverKind::Cvc5 => lockstep_equiv::SolverKind::Cvc5,
        },
        ..EquivConfig::default()
    };
    if let Some(secs) = o.timeout_secs {
        config.query_timeout = config.query_timeout.min(Duration::from_secs(secs));
        // The user's clock bounds the run, so the solvers' timers are the
        // query limits themselves.
        config.solver_timer_factor = 1;
    }
    if let Some(mib) = o.memory_limit_mib {
        config.memory_limit = mib << 20;
    }
    // `--kernel-args=K,v1,...`: the scalar arguments of kernel K, in order.
    for spec in &o.kernel_args {
        let mut parts = spec.split(',');
        if parts.next().map(str::trim) != Some(kernel.name.as_str()) {
            continue;
        }
        let mut values = parts.map(crate::parse_value);
        config.scalar_args =
            kernel.params.iter().map(|p| if p.ty.is_ptr() { None } else { values.next().flatten() }).collect();
    }
    config
}

fn emit(answer: &Answer, format: Format) -> i32 {
    let text = match format {
        Format::Json => serde_json::to_string(&json_of(answer)).unwrap_or_default(),
        Format::Sarif => sarif_of(answer),
        Format::Human => human(answer),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", text.trim_end());
    let _ = stdout.flush();
    answer.outcome.verdict.exit_code()
}

/// A location with the file relative to the working directory, as the
/// user named it.
fn relative(loc: &Option<(String, u32, u32)>) -> Option<(String, u32, u32)> {
    let (f, l, c) = loc.clone()?;
    let cwd = std::env::current_dir().ok();
    let rel = cwd
        .and_then(|d| std::path::Path::new(&f).strip_prefix(d).ok().map(|p| p.display().to_string()))
        .unwrap_or(f);
    Some((rel, l, c))
}

fn loc_json(loc: &Option<(String, u32, u32)>) -> Value {
    match relative(loc) {
        Some((f, l, c)) => json!({"file": f, "line": l, "column": c}),
        None => Value::Null,
    }
}

fn loc_text(loc: &Option<(String, u32, u32)>) -> String {
    match &relative(loc) {
        Some((f, l, c)) if *c > 0 => format!("{f}:{l}:{c}"),
        Some((f, l, _)) => format!("{f}:{l}"),
        None => String::new(),
    }
}

fn launch_json(l: &lockstep_equiv::LaunchShape) -> Value {
    json!({"blockDim": l.group_size, "gridDim": l.num_groups})
}

fn args_json(args: &[(String, String)]) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in args {
        m.insert(k.clone(), Value::String(v.clone()));
    }
    Value::Object(m)
}

fn json_of(a: &Answer) -> Value {
    let o = &a.outcome;
    let difference = o.difference.as_ref().map_or(Value::Null, |d| {
        json!({
            "launch": launch_json(&d.launch), "arguments": args_json(&d.args), "buffer": d.buffer, "index": d.index,
            "value_a": d.value_a, "value_b": d.value_b, "inputs": d.inputs, "confirmed": true,
        })
    });
    let post = o.post_failure.as_ref().map_or(Value::Null, |p| {
        json!({
            "kernel": p.kernel, "location": loc_json(&p.loc), "launch": launch_json(&p.launch),
            "thread": {"local": p.thread.0, "group": p.thread.1}, "arguments": args_json(&p.args), "confirmed": true,
        })
    });
    let shapes: Vec<Value> = o
        .shapes
        .iter()
        .map(|s| json!({"blockDim": s.launch.group_size, "gridDim": s.launch.num_groups, "differs": s.differs}))
        .collect();
    json!({
        "file": a.files.first().cloned().unwrap_or_default(),
        "files": a.files,
        "kernels": a.kernels,
        "verdict": o.verdict.name(),
        "reason": o.reason.as_ref().map(|r| r.0.clone()),
        "location": loc_json(&o.reason.as_ref().and_then(|r| r.1.clone())),
        "difference": difference,
        "postcondition_failure": post,
        "shape_dependency": o.shape_summary,
        "launches_tested": shapes,
        "proved": o.proved,
        "assumptions": o.assumptions,
        "notes": o.notes,
        "elapsed_ms": a.elapsed_ms,
        "error": a.error,
    })
}

/// The answer as a SARIF 2.1.0 log: a `different` verdict is one `error`
/// result (with the confirmed difference, or the failing postcondition, in
/// its properties); the full answer (the JSON object) is the run's
/// `properties`, so that SARIF consumers lose nothing.
fn sarif_of(a: &Answer) -> String {
    let answer = json_of(a);
    let mut results = Vec::new();
    if a.outcome.verdict == lockstep_equiv::Verdict::Different {
        let loc = a.outcome.post_failure.as_ref().map(|p| p.loc.clone()).unwrap_or(None);
        let uri = loc.as_ref().map_or_else(|| a.files.first().cloned().unwrap_or_default(), |l| l.0.clone());
        let mut region = json!({});
        if let Some((_, line, column)) = &loc {
            region = json!({"startLine": (*line).max(1), "startColumn": (*column).max(1)});
        }
        let what = if a.outcome.post_failure.is_some() { "the kernel violates its postcondition" } else { "the kernels compute different results" };
        results.push(json!({
            "ruleId": "not-equivalent",
            "level": "error",
            "message": {"text": what},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}],
            "properties": {"difference": answer["difference"], "postcondition_failure": answer["postcondition_failure"], "confirmed": true},
        }));
    }
    crate::render::sarif_log(&["not-equivalent"], results, json!({"executionSuccessful": a.error.is_none()}), answer)
}

fn human(a: &Answer) -> String {
    let o = &a.outcome;
    let mut s = String::new();
    let who = |i: usize| match (a.kernels.get(i), a.files.get(i)) {
        (Some(k), Some(f)) => format!("`{k}` ({f})"),
        (None, Some(f)) => f.clone(),
        _ => String::new(),
    };
    let pair = if a.files.len() > 1 { format!("{} and {}", who(0), who(1)) } else { format!("{} against its postconditions", who(0)) };
    match o.verdict {
        Verdict::Equivalent => {
            if a.files.len() > 1 {
                s.push_str(&format!("equivalent: {pair}\n"));
            } else {
                s.push_str(&format!("equivalent: {} meets its postconditions\n", who(0)));
            }
            s.push_str("  proved:\n");
            for p in &o.proved {
                s.push_str(&format!("    - {p}\n"));
            }
            s.push_str("  assuming:\n");
            for p in &o.assumptions {
                s.push_str(&format!("    - {p}\n"));
            }
        }
        Verdict::Different => {
            if let Some(d) = &o.difference {
                s.push_str(&format!("different: {pair} leave different values in `{}`\n", d.buffer));
                s.push_str(&format!("  launch: {}\n", d.launch));
                if !d.args.is_empty() {
                    let args: Vec<String> = d.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    s.push_str(&format!("  arguments: {}\n", args.join(", ")));
                }
                s.push_str(&format!("  inputs: {}\n", d.inputs));
                s.push_str(&format!("  first difference: {}[{}] is {} after A, {} after B\n", d.buffer, d.index, d.value_a, d.value_b));
                s.push_str("  confirmed by running both kernels in the interpreter\n");
            }
            if let Some(p) = &o.post_failure {
                s.push_str(&format!("different: a postcondition of `{}` fails at {}\n", p.kernel, loc_text(&p.loc)));
                s.push_str(&format!("  launch: {}\n", p.launch));
                s.push_str(&format!("  thread: {:?} of group {:?}\n", p.thread.0, p.thread.1));
                if !p.args.is_empty() {
                    let args: Vec<String> = p.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    s.push_str(&format!("  arguments: {}\n", args.join(", ")));
                }
                s.push_str("  confirmed by running the kernel in the interpreter\n");
            }
            if let Some(summary) = &o.shape_summary {
                s.push_str(&format!("  {summary}\n"));
            }
        }
        Verdict::Unknown | Verdict::Rejected => {
            let (why, loc) = o.reason.clone().unwrap_or_default();
            let at = loc_text(&loc);
            let at = if at.is_empty() { String::new() } else { format!(" (at {at})") };
            s.push_str(&format!("{}: {pair}\n  {why}{at}\n", o.verdict.name()));
        }
    }
    if !o.shapes.is_empty() && o.verdict != Verdict::Different {
        let agree = o.shapes.iter().filter(|x| x.differs == Some(false)).count();
        s.push_str(&format!("  tested: {} launches, {agree} compared without a difference\n", o.shapes.len()));
    }
    for n in &o.notes {
        s.push_str(&format!("  note: {n}\n"));
    }
    s.push_str(&format!("lockstep equiv: {} ({} ms)\n", o.verdict.name(), a.elapsed_ms));
    s
}
