//! `lockstep`: the command-line entry point.
//!
//! Parses the command line, runs the front-end and the engines on each
//! kernel, and renders one report. Exit status (DESIGN.md): 0 verified,
//! 1 errors or possible errors, 2 rejected, 3 unknown.

mod options;
mod render;

use std::io::Write;
use std::time::{Duration, Instant};

use lockstep_diag::{Diagnostic, KernelReport, Report, Span, Verdict};
use lockstep_frontend::{CompileOptions, FrontError};
use options::{CheckOptions, Format};

const USAGE: &str = "\
lockstep: a static verifier for CUDA and OpenCL kernels

usage:
  lockstep check FILE [options]          check every kernel in FILE (.cu or .cl)
  lockstep equiv A[:KERNEL] B[:KERNEL]   prove two kernels equivalent (not implemented yet)
  lockstep --version | --help

options of check:
  --kernel NAME            check only this kernel (repeatable)
  -I DIR, -D NAME[=VALUE]  passed to clang
  -x cuda|opencl           the language, when the extension does not say
  --blockDim=N|[X,Y,Z]|*   threads per block (OpenCL: --local_size)
  --gridDim=N|[X,Y,Z]|*    blocks per grid (OpenCL: --num_groups, or --global_size)
  --global_offset=...      OpenCL global offset
  --format=human|json      output format (default human)
  --dump-kir               print the kernel IR and stop
  --mode=prove|find|both   which engines run (default both)
  --solver=z3|cvc5         SMT solver (default z3)
  --timeout=SECS           give up with `unknown` after SECS seconds
  --only-divergence --only-intra-group --check-array-bounds --equality-abstraction
  --adversarial-abstraction --warp-sync=N --no-infer --loop-unwind=N
  --kernel-args=... --kernel-arrays=... --no-inline
                           GPUVerify's flags, with GPUVerify's meaning

exit status: 0 verified, 1 errors or possible errors, 2 rejected, 3 unknown
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        None | Some("--help") | Some("-h") | Some("help") => {
            print!("{USAGE}");
            0
        }
        Some("--version") | Some("-V") => {
            println!("lockstep {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("check") => run_check(&args[1..]),
        Some("equiv") => run_equiv(&args[1..]),
        Some(other) if other.ends_with(".cu") || other.ends_with(".cl") => run_check(&args),
        Some(other) => {
            eprintln!("error: unknown command `{other}` (expected `check` or `equiv`; see `lockstep --help`)");
            2
        }
    };
    std::process::exit(code);
}

/// The output format requested anywhere on the command line, so that even
/// a command-line error is reported in the format a script expects.
fn requested_format(args: &[String]) -> Format {
    if args.iter().any(|a| a == "--format=json") || args.windows(2).any(|w| w[0] == "--format" && w[1] == "json") {
        Format::Json
    } else {
        Format::Human
    }
}

fn emit(report: &Report, format: Format) -> i32 {
    let text = match format {
        Format::Json => render::json(report),
        Format::Human => render::human(report),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", text.trim_end());
    let _ = stdout.flush();
    report.verdict().exit_code()
}

fn run_check(args: &[String]) -> i32 {
    let start = Instant::now();
    let format = requested_format(args);
    let options = match options::parse_check(args) {
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
    if let Some(secs) = options.timeout_secs {
        start_watchdog(&options, Duration::from_secs(secs));
    }
    let mut report = check(&options);
    report.elapsed_ms = start.elapsed().as_millis() as u64;
    if options.format == Format::Human && !report.errors.is_empty() {
        // Compiler-style errors go to stderr as well, where users look.
        for d in &report.errors {
            eprintln!("{d}");
        }
    }
    emit(&report, options.format)
}

/// Never hang: after the user's time limit, report `unknown` and exit, even
/// if a solver or clang is still running.
fn start_watchdog(options: &CheckOptions, limit: Duration) {
    let file = options.file.display().to_string();
    let format = options.format;
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        let mut report = Report::new(file);
        report.kernels.push(KernelReport::unknown("*", format!("timed out after {} s (--timeout)", limit.as_secs()), None));
        report.elapsed_ms = limit.as_millis() as u64;
        let code = emit(&report, format);
        std::process::exit(code);
    });
}

fn check(options: &CheckOptions) -> Report {
    let mut report = Report::new(options.file.display().to_string());
    for flag in &options.ignored {
        report.notes.push(Diagnostic::note(format!("ignoring `{flag}`: it steers GPUVerify's internals and means nothing to lockstep")));
    }
    let compile = CompileOptions {
        include_dirs: options.include_dirs.clone(),
        defines: options.defines.clone(),
        language: options.language,
        clang: None,
    };
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
    report.timings.push(("lower".into(), loaded.lower_time.as_secs_f64() * 1000.0));
    report.notes.extend(loaded.warnings.iter().filter(|d| d.span.as_ref().is_some_and(|s| s.file == report.file)).cloned());
    let module = &loaded.module;

    let mut selected: Vec<_> = module.kernels().collect();
    if !options.kernels.is_empty() {
        for wanted in &options.kernels {
            if !selected.iter().any(|(_, k)| &k.name == wanted || &k.link_name == wanted) {
                let names: Vec<&str> = module.kernels().map(|(_, k)| k.name.as_str()).collect();
                report.errors.push(Diagnostic::error(
                    format!("no kernel named `{wanted}` (the file has: {})", if names.is_empty() { "none".into() } else { names.join(", ") }),
                    None,
                ));
                return report;
            }
        }
        selected.retain(|(_, k)| options.kernels.iter().any(|w| w == &k.name || w == &k.link_name));
    }
    if options.dump_kir {
        print!("{}", lockstep_kir::print_module(module));
        std::process::exit(0);
    }
    if selected.is_empty() {
        report.kernels.push(KernelReport::unknown("*", "the file defines no kernel (__global__ or __kernel function)", None));
        return report;
    }
    for (_, kernel) in selected {
        // No verification engine exists yet: say so rather than claim a
        // result. The kernel did reach KIR, which is what this records.
        let insts: usize = kernel.blocks.values().map(|b| b.insts.len()).sum();
        report.kernels.push(KernelReport {
            name: kernel.name.clone(),
            verdict: Verdict::Unknown,
            violations: vec![],
            proved: vec![],
            reason: Some((
                format!(
                    "no verification engine is implemented yet; the kernel was lowered to KIR ({} blocks, {} instructions)",
                    kernel.blocks.len(),
                    insts
                ),
                None,
            )),
        });
    }
    report
}

fn run_equiv(args: &[String]) -> i32 {
    let format = requested_format(args);
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if files.len() != 2 {
        eprintln!("error: usage: lockstep equiv FILE_A[:KERNEL] FILE_B[:KERNEL] [options]");
        return 2;
    }
    let mut report = Report::new(files[0].clone());
    report.kernels.push(KernelReport::unknown("*", "equivalence checking is not implemented yet", None));
    emit(&report, format)
}
