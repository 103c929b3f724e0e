//! `lockstep`: the command-line entry point.
//!
//! Parses the command line, runs the front-end and the engines on each
//! kernel, and renders one report. Exit status (DESIGN.md): 0 verified,
//! 1 errors or possible errors, 2 rejected, 3 unknown.

mod equiv;
mod interrupt;
mod lsp;
mod options;
mod partial;
mod pool;
mod project;
mod render;
mod sites;

use std::io::Write;
use std::time::{Duration, Instant};

use lockstep_diag::{Diagnostic, KernelReport, Report, Span};
use lockstep_frontend::{CompileOptions, FrontError};
use options::{CheckOptions, Format};

const USAGE: &str = "\
lockstep: a static verifier for CUDA and OpenCL kernels

usage:
  lockstep check FILE [options]          check every kernel in FILE (.cu or .cl)
  lockstep check PATH... [options]       check every .cu/.cl file of a project (see below)
  lockstep check -p BUILD_DIR            check the files of BUILD_DIR/compile_commands.json
  lockstep lsp                           a language server over stdio, for editors
  lockstep equiv A[:KERNEL] B[:KERNEL]   prove two kernels equivalent (exit 0 equivalent, 1 different)
  lockstep equiv A[:KERNEL]              check a kernel against its __ensures
  lockstep --version | --help

options of check:
  --kernel NAME            check only this kernel (repeatable)
  -I DIR, -D NAME[=VALUE]  passed to clang
  -x cuda|opencl           the language, when the extension does not say
  --cuda-path=DIR          the CUDA toolkit whose headers CUDA files use (else
                           CUDA_PATH, CUDA_HOME, /usr/local/cuda, then the
                           default toolkit scripts/setup.sh installs)
  --cuda-headers=auto|prelude|toolkit
                           compile CUDA against lockstep's prelude, the
                           toolkit's headers, or the prelude and, when it
                           lacks what the file uses, the toolkit (default auto)
  --blockDim=N|[X,Y,Z]|*   threads per block (OpenCL: --local_size)
  --gridDim=N|[X,Y,Z]|*    blocks per grid (OpenCL: --num_groups, or --global_size)
  --global_offset=N|[X,Y,Z]
                           OpenCL global offset (unlisted dimensions: 0)
  --format=human|json|sarif
                           output format (default human)
  --dump-kir               print the kernel IR and stop
  --mode=prove|find|both   which engines run (default both)
  --solver=z3|cvc5         SMT solver (default z3)
  --timeout=SECS           give up with `unknown` after SECS seconds
  --cross-check            re-prove a `verified` kernel with the other solver
                           (z3 and cvc5); `unknown` unless both prove it
  --memory-limit=MIB       memory for lockstep and its solvers together
                           (default 1024); `unknown` when it is spent
  --kernel-jobs=N          check N of the file's kernels at once (default: the
                           number of cores; project runs share -j among them);
                           with 1, the host side compiles after the device side
  --only-divergence --only-intra-group --check-array-bounds --equality-abstraction
  --adversarial-abstraction --warp-sync=N --no-infer --loop-unwind=N
  --kernel-args=... --kernel-arrays=... --no-inline --only-log
  --vcgen-opt=/checkArrays:A,B
                           GPUVerify's flags, with GPUVerify's meaning
  --disable-rule=TAG,...   turn off invariant-inference rules (the tags the
                           `verified` report lists)
  --no-daikon              do not drop the candidate invariants a concrete run
                           falsifies before inference (the Daikon filter)
  --smt-log=DIR            write every solver session to DIR/KERNEL.ENGINE*.smt2
                           (replayable with z3 or cvc5)

options of project runs (several inputs, a directory, or any of these):
  -j N, --jobs=N           check N files at once (default: the number of cores)
  -p DIR, --compile-commands=FILE
                           each file's -I/-D flags from a compilation database
  --no-cache               check every file again (results are otherwise reused
                           while a file and its headers are unchanged)
  --cache-dir=DIR          where results are kept (default .lockstep-cache beside
                           lockstep.toml, else the user's cache directory)
  --baseline=FILE          findings recorded in FILE do not fail the run
  --write-baseline[=FILE]  record the run's findings (default lockstep-baseline.json)
  --config=FILE, --no-config
                           this lockstep.toml (default: found walking up), or none
  --progress=auto|lines|off
                           a bar on a terminal, else one line per file (stderr)
  every other option applies to each file; --format=json prints one document
  for the run, --format=sarif one SARIF log; exit status: the worst verdict's

options of equiv: check's sizing, --kernel-args, --solver and --format, and
  --float=uf|ieee          floats as uninterpreted functions (default) or as
                           exact IEEE arithmetic (decided by cvc5 unless --solver)

exit status: 0 verified, 1 errors or possible errors, 2 rejected, 3 unknown
  (equiv: 0 equivalent, 1 different, 2 rejected, 3 unknown)
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // A panic is a bug, but the caller still gets one report in the format
    // it asked for, with the verdict `unknown` (exit 3), never an empty
    // stdout. The hook keeps the message and where it arose for that
    // report instead of printing it.
    std::panic::set_hook(Box::new(|info| {
        let message = match (info.payload().downcast_ref::<&str>(), info.payload().downcast_ref::<String>()) {
            (Some(s), _) => s.to_string(),
            (_, Some(s)) => s.clone(),
            _ => "a panic without a message".to_string(),
        };
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        // One line on stderr for whoever debugs it; stdout stays the report.
        eprintln!("lockstep: internal error: {message}{at}");
        if let Ok(mut slot) = PANIC_MESSAGE.lock() {
            slot.get_or_insert(format!("{message}{at}"));
        }
    }));
    let code = match std::panic::catch_unwind(|| run(&args)) {
        Ok(code) => code,
        Err(_) => report_panic(&args),
    };
    stop_children();
    std::process::exit(code);
}

/// Stops every compiler and solver the run still has (a host compilation
/// running beside a device side that was rejected, say) and removes their
/// scratch files: nothing this run started outlives it, whichever way it
/// ends.
fn stop_children() {
    lockstep_frontend::driver::kill_running_compilers();
    lockstep_smt::solver::kill_running_solvers();
}

/// The first panic's message and location (see `main`).
static PANIC_MESSAGE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Reports a panic as an `unknown` verdict for the file on the command line.
fn report_panic(args: &[String]) -> i32 {
    let message = PANIC_MESSAGE.lock().ok().and_then(|m| m.clone()).unwrap_or_else(|| "a panic".into());
    let file = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned().unwrap_or_default();
    let mut report = Report::new(file);
    report.kernels.push(KernelReport::unknown("*", format!("internal error (please report it): {message}"), None));
    emit(&report, requested_format(args))
}

fn run(args: &[String]) -> i32 {
    // Help and version in JSON too, when asked for: a script that always
    // passes `--format=json` always gets one JSON document.
    let json = requested_format(args) == Format::Json;
    match args.first().map(String::as_str) {
        None | Some("--help") | Some("-h") | Some("help") => {
            match json {
                true => println!("{}", serde_json::json!({ "usage": USAGE, "error": null })),
                false => print!("{USAGE}"),
            }
            0
        }
        Some("--version") | Some("-V") => {
            match json {
                true => println!("{}", serde_json::json!({ "version": env!("CARGO_PKG_VERSION"), "error": null })),
                false => println!("lockstep {}", env!("CARGO_PKG_VERSION")),
            }
            0
        }
        Some("check") => run_check(&args[1..]),
        Some("equiv") => run_equiv(&args[1..]),
        Some("lsp") => lsp::run(&args[1..]),
        Some(other) if other.ends_with(".cu") || other.ends_with(".cl") => run_check(args),
        Some(other) => {
            let message = format!("unknown command `{other}` (expected `check` or `equiv`; see `lockstep --help`)");
            let format = requested_format(args);
            if format == Format::Human {
                eprintln!("error: {message}");
                return 2;
            }
            let mut report = Report::new(String::new());
            report.errors.push(Diagnostic::error(message, None));
            emit(&report, format)
        }
    }
}

/// The output format requested anywhere on the command line, so that even
/// a command-line error is reported in the format a script expects.
fn requested_format(args: &[String]) -> Format {
    let asked = |f: &str| args.iter().any(|a| a.strip_prefix("--format=") == Some(f)) || args.windows(2).any(|w| w[0] == "--format" && w[1] == f);
    if asked("json") {
        Format::Json
    } else if asked("sarif") {
        Format::Sarif
    } else {
        Format::Human
    }
}

fn emit(report: &Report, format: Format) -> i32 {
    let text = match format {
        Format::Json => render::json(report),
        Format::Sarif => render::sarif(report),
        Format::Human => {
            use std::io::IsTerminal;
            let styled = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            render::human(report, styled)
        }
    };
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", text.trim_end());
    let _ = stdout.flush();
    report.verdict().exit_code()
}

fn run_check(args: &[String]) -> i32 {
    // The tests of the panic report need a panic: this variable makes one.
    if std::env::var_os("LOCKSTEP_TEST_PANIC").is_some() {
        panic!("LOCKSTEP_TEST_PANIC is set");
    }
    // Several inputs, a directory or a run option: a project run
    // (`project`), which checks each file in a child of its own.
    if project::is_project_run(args) {
        return project::run(args);
    }
    let start = Instant::now();
    let format = requested_format(args);
    let mut options = match options::parse_check(args) {
        Ok(o) => o,
        Err(e) => {
            let file = args.iter().find(|a| !a.starts_with('-')).cloned().unwrap_or_default();
            let mut report = Report::new(file);
            report.errors.push(Diagnostic::error(e.0, None));
            if format == Format::Human {
                eprintln!("error: {}", report.errors[0].message);
                return 2;
            }
            return emit(&report, format);
        }
    };
    {
        let file = options.file.display().to_string();
        let format = options.format;
        interrupt::install(move || {
            let why = "interrupted (SIGINT or SIGTERM) before the check ended".to_string();
            stop_run_with(file.clone(), format, why, start.elapsed(), Some(interrupt::INTERRUPTED));
        });
    }
    if let Some(secs) = options.timeout_secs {
        options.deadline = Some(start + Duration::from_secs(secs));
        start_watchdog(&options, Duration::from_secs(secs));
    }
    start_memory_watchdog(&options, options.memory_limit_mib.map_or(lockstep_engine::config::DEFAULT_MEMORY_LIMIT, |m| m << 20), start);
    let mut report = check(&options);
    report.elapsed_ms = start.elapsed().as_millis() as u64;
    // One report per run: once the watchdog has fired (it may have stopped
    // the compiler or solver this run was waiting for, and so ended the check
    // early), its report is the run's, and this thread waits for its exit.
    let mut emitted = EMITTED.lock().unwrap_or_else(|e| e.into_inner());
    if *emitted || TIMED_OUT.load(std::sync::atomic::Ordering::SeqCst) {
        drop(emitted);
        loop {
            std::thread::park();
        }
    }
    *emitted = true;
    if options.format == Format::Human && !report.errors.is_empty() {
        // Compiler-style errors go to stderr as well, where users look.
        for d in &report.errors {
            eprintln!("{}", render::relative_diag(d));
        }
    }
    emit(&report, options.format)
}

/// Whether the run's report has been printed (by the check or by the
/// watchdog, whichever comes first), held while it is printed.
static EMITTED: std::sync::Mutex<bool> = std::sync::Mutex::new(false);

/// Set when a watchdog (`--timeout`, `--memory-limit`) fires.
static TIMED_OUT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Never hang: after the user's time limit, report `unknown` and exit, even
/// if a solver or clang is still running.
fn start_watchdog(options: &CheckOptions, limit: Duration) {
    let file = options.file.display().to_string();
    let format = options.format;
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        stop_run(file, format, format!("timed out after {} s (--timeout)", limit.as_secs()), limit);
    });
}

/// Never exhaust the machine: when this process and its solvers together
/// hold more than the memory limit (which the engines' own budgets should
/// keep them below), report `unknown` and exit before the operating system's
/// out-of-memory killer would act.
fn start_memory_watchdog(options: &CheckOptions, limit: u64, start: Instant) {
    let file = options.file.display().to_string();
    let format = options.format;
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(100));
        let used = lockstep_engine::memory::run_resident_bytes();
        if used > limit {
            let why = format!("the memory limit of {} MiB was reached (lockstep and its solvers held {} MiB; --memory-limit)", limit >> 20, used >> 20);
            stop_run(file, format, why, start.elapsed());
            return;
        }
    });
}

/// Ends the run from a watchdog: stops every child, prints the one report
/// (`unknown` for `why`) unless the check printed its own, and exits.
fn stop_run(file: String, format: Format, why: String, elapsed: Duration) {
    stop_run_with(file, format, why, elapsed, None);
}

/// `stop_run`, exiting with `code` instead of the report's status when
/// given (a signal's).
fn stop_run_with(file: String, format: Format, why: String, elapsed: Duration, code: Option<i32>) {
    TIMED_OUT.store(true, std::sync::atomic::Ordering::SeqCst);
    // Nothing this run started outlives it.
    stop_children();
    let mut emitted = EMITTED.lock().unwrap_or_else(|e| e.into_inner());
    if *emitted {
        // The check printed its report just in time and is exiting.
        return;
    }
    *emitted = true;
    // The kernels already decided keep their verdicts; the others are
    // `unknown` for `why`.
    let mut report = partial::report(&why).unwrap_or_else(|| {
        let mut report = Report::new(file);
        report.kernels.push(KernelReport::unknown("*", why, None));
        report
    });
    report.elapsed_ms = elapsed.as_millis() as u64;
    let status = emit(&report, format);
    std::process::exit(code.unwrap_or(status));
}

/// The host side's compilation of a whole program: running beside the
/// device side's, or, with one job, waiting for it (`finish` runs it then).
enum HostCompilation {
    Running(std::thread::JoinHandle<(Result<lockstep_frontend::driver::Compiled, lockstep_frontend::driver::CompileError>, Duration)>),
    Deferred(CompileOptions),
}

impl HostCompilation {
    /// The host compilation's result and clang's time. A deferred one
    /// compiles now: against the toolkit's headers directly when the device
    /// side needed them (`--cuda-headers=auto`), since the prelude that
    /// lacked what the device side used would be tried and rejected again.
    fn finish(
        self,
        file: &std::path::Path,
        device_used_toolkit: bool,
    ) -> std::thread::Result<(Result<lockstep_frontend::driver::Compiled, lockstep_frontend::driver::CompileError>, Duration)> {
        match self {
            HostCompilation::Running(thread) => thread.join(),
            HostCompilation::Deferred(mut host_compile) => {
                if device_used_toolkit && host_compile.cuda_headers == lockstep_frontend::CudaHeaders::Auto {
                    host_compile.cuda_headers = lockstep_frontend::CudaHeaders::Toolkit;
                }
                let started = std::time::Instant::now();
                let compiled = lockstep_frontend::driver::compile(file, &host_compile);
                Ok((compiled, started.elapsed()))
            }
        }
    }
}

fn check(options: &CheckOptions) -> Report {
    let mut report = Report::new(options.file.display().to_string());
    if let Some(dir) = &options.smt_log {
        if let Err(e) = std::fs::create_dir_all(dir) {
            report.errors.push(Diagnostic::error(format!("--smt-log: cannot create the directory `{}`: {e}", dir.display()), None));
            return report;
        }
    }
    for note in &options.flag_notes {
        report.notes.push(Diagnostic::note(note.clone()));
    }
    for flag in &options.ignored {
        report.notes.push(Diagnostic::note(format!("ignoring `{flag}`: it steers GPUVerify's internals and means nothing to lockstep")));
    }
    if let Some(file) = &options.axioms_file {
        report.notes.push(Diagnostic::note(format!(
            "the Boogie axioms of `{file}` are not read: functions without a body may return any value, so a proof still holds, but a failure found by choosing their values is only possible"
        )));
    }
    let compile = CompileOptions {
        include_dirs: options.include_dirs.clone(),
        defines: options.defines.clone(),
        language: options.language,
        clang: None,
        side: lockstep_frontend::Side::Device,
        cuda_path: options.cuda_path.clone(),
        cuda_headers: options.cuda_headers,
    };
    // The file is looked at before anything reads it: a device or a FIFO
    // named as the input must not be read forever or waited on.
    match lockstep_frontend::driver::check_readable_source(&options.file) {
        Ok(()) => {}
        Err(lockstep_frontend::driver::CompileError::Rejected(diags)) => {
            report.errors = diags;
            return report;
        }
        Err(lockstep_frontend::driver::CompileError::Environment(msg)) => {
            report.kernels.push(KernelReport::unknown("*", msg, None));
            return report;
        }
        Err(lockstep_frontend::driver::CompileError::Unsupported(u)) => {
            report.kernels.push(KernelReport::unknown("*", format!("unsupported: {}", u.what), None));
            return report;
        }
    }
    // A CUDA file with a host `main` is a whole program (unless the user
    // named kernels): its host side is compiled too, by a second clang
    // running beside the first.
    // A kernel checked alone with no sizes given is checked as the file's
    // own launch sites launch it, which the host compilation shows too.
    let is_cuda = options.language.or_else(|| lockstep_frontend::language_of(&options.file)) == Some(lockstep_kir::Language::Cuda);
    let sized = options.launch.group_size.is_some() || options.launch.num_groups.is_some() || options.launch.global_size.is_some();
    let source = if is_cuda { std::fs::read_to_string(&options.file).ok() } else { None };
    let host_main = source
        .as_deref()
        .filter(|_| options.kernels.is_empty())
        .and_then(lockstep_frontend::driver::host_main_line);
    // (A file with neither the launch syntax, nor the runtime API's
    // launches, nor a header of its own, as most single-kernel files, has
    // no site to read: no second clang.)
    let wants_sites = !sized
        && source.as_deref().is_some_and(|s| s.contains("<<<") || s.contains("cudaLaunch") || s.contains("#include \""));
    let host_compile = CompileOptions { side: lockstep_frontend::Side::Host, ..compile.clone() };
    // With one job (`--kernel-jobs=1`, which a project run gives each file
    // while every worker is busy), one compiler runs at a time: the host
    // side waits for the device side, and it uses the headers the device
    // side needed. A file that needs the toolkit's headers then pays for
    // one failed compilation against the prelude, not two.
    let jobs = if options.kernel_jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { options.kernel_jobs };
    let host_clang = (host_main.is_some() || wants_sites).then(|| {
        if jobs == 1 {
            return HostCompilation::Deferred(host_compile.clone());
        }
        let (file, host_compile) = (options.file.clone(), host_compile.clone());
        HostCompilation::Running(std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let compiled = lockstep_frontend::driver::compile(&file, &host_compile);
            (compiled, started.elapsed())
        }))
    });
    let loaded = match lockstep_frontend::load(&options.file, &compile) {
        Ok(l) => l,
        Err(FrontError::Rejected(diags)) => {
            report.errors = diags;
            return report;
        }
        Err(FrontError::Unsupported(u)) => {
            let span = u.loc.map(|(file, line, column)| Span { file, line, column });
            report.kernels.push(KernelReport::unknown("*", format!("unsupported: {}", u.what), span));
            return report;
        }
        Err(FrontError::Environment(msg)) => {
            report.kernels.push(KernelReport::unknown("*", msg, None));
            return report;
        }
    };
    report.timings.push(("clang".into(), loaded.clang_time.as_secs_f64() * 1000.0));
    let device_used_toolkit = matches!(loaded.headers, lockstep_frontend::HeadersUsed::Toolkit(_));
    if let lockstep_frontend::HeadersUsed::Toolkit(toolkit) = &loaded.headers {
        let why = if options.cuda_headers == lockstep_frontend::CudaHeaders::Auto {
            ": the file uses what lockstep's own CUDA headers do not declare"
        } else {
            ""
        };
        report.notes.push(Diagnostic::note(format!("compiled against the CUDA {} toolkit's headers ({}){why}", toolkit.version, toolkit.origin)));
    }
    if loaded.gpu_arch != lockstep_frontend::driver::DEFAULT_GPU_ARCH {
        report.notes.push(Diagnostic::note(format!(
            "compiled for {} (the file does not compile for lockstep's default {}: it uses what the headers declare only for newer GPUs)",
            loaded.gpu_arch,
            lockstep_frontend::driver::DEFAULT_GPU_ARCH
        )));
    }
    report.timings.push(("lower".into(), loaded.lower_time.as_secs_f64() * 1000.0));
    report.notes.extend(loaded.warnings.iter().filter(|d| d.span.as_ref().is_some_and(|s| s.file == report.file)).cloned());
    // Kernels that reach a construct the lowering does not support are
    // `unknown`, each with the construct and where it is; the file's other
    // kernels are checked.
    let left_out: Vec<String> = loaded.unsupported_kernels.iter().map(|k| k.name.clone()).collect();
    let loaded_unsupported: Vec<(String, String)> = loaded.unsupported_kernels.iter().map(|k| (k.name.clone(), k.link_name.clone())).collect();
    let display_names = kernel_display_names(
        loaded
            .module
            .kernels()
            .map(|(_, k)| (k.name.as_str(), k.link_name.as_str()))
            .chain(loaded.unsupported_kernels.iter().map(|k| (k.name.as_str(), k.link_name.as_str()))),
    );
    // `--kernel` takes a kernel's source name (every instantiation of a
    // template), its symbol, or the name the report shows for one
    // instantiation (`reduce<256>`), which users copy from it.
    let named = |wanted: &str, name: &str, link_name: &str| {
        wanted == name || wanted == link_name || display_names.get(link_name).is_some_and(|shown| shown == wanted)
    };
    for k in &loaded.unsupported_kernels {
        if options.kernels.is_empty() || options.kernels.iter().any(|w| named(w, &k.name, &k.link_name)) {
            let span = k.why.loc.clone().map(|(file, line, column)| Span { file, line, column });
            let name = display_names.get(&k.link_name).unwrap_or(&k.name);
            report.kernels.push(KernelReport::unknown(name, format!("unsupported: {}", k.why.what), span));
        }
    }
    let mut module = loaded.module;
    lockstep_engine::annotations::apply(
        &mut module,
        lockstep_engine::annotations::AnnotationFlags {
            no_annotations: options.no_annotations,
            only_requires: options.only_requires,
            invariants_as_candidates: options.invariants_as_candidates,
        },
    );
    if let Some(names) = &options.race_arrays {
        lockstep_engine::annotations::drop_unlogged_access_claims(&mut module, names);
    }
    let module = &module;

    let mut selected: Vec<_> = module.kernels().collect();
    if !options.kernels.is_empty() {
        for wanted in &options.kernels {
            let left_out_named = loaded_unsupported.iter().any(|(name, link_name)| named(wanted, name, link_name));
            if !selected.iter().any(|(_, k)| named(wanted, &k.name, &k.link_name)) && !left_out_named {
                let names: Vec<&str> = module.kernels().map(|(_, k)| k.name.as_str()).collect();
                report.errors.push(Diagnostic::error(
                    format!("no kernel named `{wanted}` (the file has: {})", if names.is_empty() { "none".into() } else { names.join(", ") }),
                    None,
                ));
                return report;
            }
        }
        selected.retain(|(_, k)| options.kernels.iter().any(|w| named(w, &k.name, &k.link_name)));
    }
    if let Some(names) = &options.race_arrays {
        // GPUVerify rejects a restriction to an array the kernels do not have.
        for wanted in names {
            let known = module.globals.values().any(|g| lockstep_kir::object_named(&g.name, wanted))
                || selected.iter().any(|(_, k)| k.params.iter().any(|p| p.name == *wanted));
            if !known {
                report.errors.push(Diagnostic::error(format!("--vcgen-opt=/checkArrays: no array named `{wanted}` in the checked kernels"), None));
                return report;
            }
        }
    }
    if options.dump_kir {
        let kir = lockstep_kir::print_module(module);
        match options.format {
            // Machine output stays one JSON document.
            Format::Json | Format::Sarif => {
                let value = serde_json::json!({ "file": report.file, "kir": kir, "error": null });
                println!("{}", serde_json::to_string_pretty(&value).expect("a JSON value always serialises"));
            }
            Format::Human => print!("{kir}"),
        }
        stop_children();
        std::process::exit(0);
    }
    // An array larger than a device holds is an invalid program, and one
    // the interpreter must not try to allocate.
    let (oversized, beyond_devices) = lockstep_engine::limits::oversized_objects(module);
    if !oversized.is_empty() {
        report.errors = oversized.into_iter().map(|(message, span)| Diagnostic::error(message, span)).collect();
        return report;
    }
    report.notes.extend(beyond_devices.into_iter().map(|(message, span)| Diagnostic { span, ..Diagnostic::note(message) }));
    if selected.is_empty() {
        if left_out.is_empty() {
            report.kernels.push(KernelReport::unknown("*", "the file defines no kernel (__global__ or __kernel function)", None));
        }
        return report;
    }
    // A CUDA file with a host `main` is a whole program: its kernels are
    // checked as `main` launches them (unless the user named kernels).
    let mut host_unchecked: Option<(String, Option<Span>)> = None;
    let mut launch_sites = lockstep_frontend::LaunchSites::default();
    if let Some(host_clang) = host_clang.filter(|_| module.language == lockstep_kir::Language::Cuda) {
        let main_span = host_main.map(|line| Span { file: options.file.display().to_string(), line, column: 0 });
        let host = match host_clang.finish(&options.file, device_used_toolkit) {
            Ok((compiled, clang_time)) => lockstep_frontend::lower_host_compiled(compiled, clang_time, host_main.is_some()),
            Err(_) => Err(FrontError::Environment("the host compilation's thread failed".into())),
        };
        let program = match host {
            Ok(host) => {
                launch_sites = host.launch_sites;
                host.program
            }
            // Without a `main`, a failed host compilation only costs the
            // launch sites; with one, it is the program's failure.
            Err(e) => host_main.map(|_| Err(e)),
        };
        match program {
            None => {}
            Some(Ok(host)) => {
                report.timings.push(("clang (host)".into(), host.clang_time.as_secs_f64() * 1000.0));
                report.timings.push(("lower (host)".into(), host.lower_time.as_secs_f64() * 1000.0));
                let started = std::time::Instant::now();
                let config = engine_config(options, None);
                let program = lockstep_engine::program::check_program(module, &host.module, &config);
                report.timings.push(("check program".into(), started.elapsed().as_secs_f64() * 1000.0));
                report.notes.extend(program.notes);
                for k in program.kernels {
                    add_entry(&mut report, k);
                }
                return report;
            }
            Some(Err(FrontError::Rejected(diags))) => {
                report.errors = diags;
                return report;
            }
            Some(Err(FrontError::Unsupported(u))) => {
                let span = u.loc.map(|(file, line, column)| Span { file, line, column }).or(main_span);
                host_unchecked = Some((format!("the host program is not checked: unsupported: {}; its kernels were checked alone", u.what), span));
            }
            Some(Err(FrontError::Environment(msg))) => {
                host_unchecked = Some((format!("the host program is not checked: {msg}"), main_span));
            }
        }
    }
    if let Some((reason, span)) = host_unchecked {
        report.kernels.push(KernelReport::unknown(lockstep_engine::program::HOST_ENTRY, reason, span));
    }
    // The kernels are checked at once, each on its own thread
    // (`--kernel-jobs`); what each adds to the report is added in the
    // order of the file, so the report does not depend on the threads.
    let display = |kernel: &lockstep_kir::Function| display_names.get(&kernel.link_name).cloned().unwrap_or_else(|| kernel.name.clone());
    partial::start(&report, selected.iter().map(|&(_, k)| display(k)).collect());
    let indexed: Vec<_> = selected.into_iter().enumerate().collect();
    let checked = pool::map_in_order(&indexed, jobs, |&(index, (id, kernel))| {
        let mut notes = Vec::new();
        let mut config = engine_config(options, Some(kernel));
        // With no sizes given, a kernel gets the sizes this file's own
        // launch sites agree on. Then a kernel written for 1-D (or 2-D)
        // launches, reading only the x (and y) dimension of its ids and
        // sizes, is checked for every such launch, not for 3-D ones no user
        // makes: there, threads that differ only in a dimension the kernel
        // ignores would do the same work and "race".
        let from_sites = if sized { None } else { sites::apply(&mut config, kernel, &launch_sites) };
        let dims = lockstep_analysis::dimensions::dimensions_read(module, id);
        let unfixed = (usize::from(dims)..3).any(|d| config.group_size[d].is_none() || config.num_groups[d].is_none());
        if !sized && dims < 3 && unfixed {
            for d in usize::from(dims)..3 {
                config.group_size[d].get_or_insert(1);
                config.num_groups[d].get_or_insert(1);
            }
            config.work_dim = dims;
            let (read, launches) = if dims == 1 { ("only the x dimension", "1-D") } else { ("only the x and y dimensions", "1-D and 2-D") };
            notes.push(Diagnostic::note(format!(
                "`{}` reads {read} of its thread and block ids: it is checked for every {launches} launch (give --blockDim and --gridDim to check others)",
                kernel.name
            )));
        }
        // The arguments too: a kernel checked alone is checked for the values
        // its launch sites pass, not for every value of every argument.
        let from_arguments = if sized { None } else { sites::preconditions(kernel, &mut config, dims, &launch_sites) };
        let patched;
        let checked_module = match from_arguments.as_ref() {
            Some((function, _)) => {
                patched = with_function(module, id, function.clone());
                &patched
            }
            None => module,
        };
        let started = std::time::Instant::now();
        let mut kernel_report = lockstep_engine::check_kernel(checked_module, id, &config);
        if options.axioms_file.is_some() {
            without_confirmation(&mut kernel_report);
        }
        let timing = (format!("check {}", display(kernel)), started.elapsed().as_secs_f64() * 1000.0);
        for from_sites in from_sites.into_iter().chain(from_arguments.map(|(_, facts)| facts)) {
            notes.push(Diagnostic::note(from_sites.note));
            kernel_report.assumptions.push(from_sites.assumption);
        }
        kernel_report.name = display(kernel);
        let outcome = (notes, timing, kernel_report);
        partial::finished(index, &outcome);
        outcome
    });
    for (notes, timing, kernel_report) in checked {
        report.notes.extend(notes);
        report.timings.push(timing);
        add_entry(&mut report, kernel_report);
    }
    // `--no-inline` asks for GPUVerify's modular check of every function;
    // the functions kernels call are checked where they are called (every
    // caller is known), and the others on their own, for every caller.
    if options.no_inline && options.kernels.is_empty() {
        for func in lockstep_engine::uncalled_functions(module) {
            let config = engine_config(options, None);
            let started = std::time::Instant::now();
            let function_report = lockstep_engine::check_uncalled_function(module, func, &config);
            report.timings.push((format!("check {}", function_report.name), started.elapsed().as_secs_f64() * 1000.0));
            add_entry(&mut report, function_report);
        }
    }
    report
}

/// The names kernels are reported under when several share a source name
/// (instantiations of one template): the name with its template arguments,
/// `reduce<int, 256u>`, from the symbol. `--kernel` still takes the source
/// name (all instantiations) or the symbol (one). `kernels` lists every
/// kernel of the file as (source name, symbol).
fn kernel_display_names<'a>(kernels: impl Iterator<Item = (&'a str, &'a str)>) -> std::collections::HashMap<String, String> {
    let kernels: Vec<(&str, &str)> = kernels.collect();
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for &(name, _) in &kernels {
        *count.entry(name).or_default() += 1;
    }
    let options = cpp_demangle::DemangleOptions::new().no_params().no_return_type();
    kernels
        .into_iter()
        .filter(|(name, _)| count[name] > 1)
        .filter_map(|(name, symbol)| {
            let demangled = cpp_demangle::Symbol::new(symbol.as_bytes()).ok()?.demangle(&options).ok()?;
            // Namespaces add nothing the source name does not say.
            let start = demangled.find(&format!("{name}<")).unwrap_or(0);
            Some((symbol.to_string(), demangled[start..].to_string()))
        })
        .collect()
}

/// `module` with function `id` replaced.
fn with_function(module: &lockstep_kir::Module, id: lockstep_kir::FuncId, function: lockstep_kir::Function) -> lockstep_kir::Module {
    let mut copy = module.clone();
    copy.functions[id] = function;
    copy
}

/// Adds a kernel's (or function's) report to the file's, whose assumptions
/// are those of all its entries.
pub(crate) fn add_entry(report: &mut Report, entry: KernelReport) {
    for a in &entry.assumptions {
        if !report.assumptions.contains(a) {
            report.assumptions.push(a.clone());
        }
    }
    report.kernels.push(entry);
}

/// Marks every violation of `report` unconfirmed: the axioms the user gave
/// (`--boogie-file`) may rule out the function results its witnesses chose.
/// A proof needs no such care: the axioms only restrict what can happen.
fn without_confirmation(report: &mut KernelReport) {
    for v in &mut report.violations {
        v.confirmed = false;
    }
    if report.verdict == lockstep_diag::Verdict::Errors {
        report.verdict = lockstep_diag::Verdict::PossibleErrors;
    }
}

/// The engines' configuration for one kernel, from the command line.
/// With no `kernel`, the per-kernel `--kernel-args`/`--kernel-arrays` are
/// left out (a whole program's launches give them).
fn engine_config(options: &CheckOptions, kernel: Option<&lockstep_kir::Function>) -> lockstep_engine::CheckConfig {
    let three = |d: &Option<options::Dims>| d.as_ref().map_or([None; 3], |d| d.three());
    let mut config = lockstep_engine::CheckConfig {
        group_size: three(&options.launch.group_size),
        num_groups: three(&options.launch.num_groups),
        global_offset: options.launch.global_offset,
        global_size: three(&options.launch.global_size),
        mode: options.mode,
        use_cvc5: options.solver == options::SolverKind::Cvc5,
        only_divergence: options.only_divergence,
        only_intra_group: options.only_intra_group,
        check_array_bounds: options.check_array_bounds,
        equality_abstraction: options.equality_abstraction,
        warp_sync: options.warp_sync,
        no_infer: options.no_infer,
        daikon: !options.no_daikon,
        cross_check: options.cross_check,
        disabled_rules: options.disabled_rules.clone(),
        race_arrays: options.race_arrays.clone(),
        smt_log_dir: options.smt_log.clone(),
        loop_unwind: options.loop_unwind,
        work_dim: [&options.launch.group_size, &options.launch.num_groups]
            .into_iter()
            .flatten()
            .map(|d| match d {
                options::Dims::Sizes(v) => v.len() as u8,
                options::Dims::Any => 3,
            })
            .max()
            .unwrap_or(3),
        ..lockstep_engine::CheckConfig::default()
    };
    if let Some(secs) = options.timeout_secs {
        config.query_timeout = config.query_timeout.min(std::time::Duration::from_secs(secs));
    }
    config.deadline = options.deadline;
    if let Some(mib) = options.memory_limit_mib {
        config.memory_limit = mib << 20;
    }
    // GPUVerify's `--kernel-args=K,v1,...` gives the non-pointer arguments of
    // kernel K in order (a by-value struct counts as one, given as its
    // bytes); `--kernel-arrays=K,s1,...` the sizes of its pointer arguments.
    let Some(kernel) = kernel else {
        return config;
    };
    for spec in &options.kernel_args {
        let mut parts = spec.split(',');
        if parts.next().map(str::trim) != Some(kernel.name.as_str()) {
            continue;
        }
        let mut values = parts.map(parse_value);
        config.scalar_args = kernel
            .params
            .iter()
            .map(|p| match p.ty {
                lockstep_kir::Type::Ptr(lockstep_kir::MemSpace::Private) | lockstep_kir::Type::Int(_) | lockstep_kir::Type::Float(_) => {
                    values.next().flatten()
                }
                _ => None,
            })
            .collect();
    }
    for spec in &options.kernel_arrays {
        let mut parts = spec.split(',');
        if parts.next().map(str::trim) != Some(kernel.name.as_str()) {
            continue;
        }
        config.array_sizes = parts.map(|s| parse_value(s).map(|v| v as u64)).collect();
    }
    config
}

/// A value of `--kernel-args`: decimal or `0x` hexadecimal; `*` is none.
fn parse_value(text: &str) -> Option<u128> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u128::from_str_radix(hex, 16).ok(),
        None => t.parse::<i128>().ok().map(|v| v as u128),
    }
}

fn run_equiv(args: &[String]) -> i32 {
    equiv::run(args)
}
