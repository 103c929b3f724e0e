//! Project automation for the lockstep workspace, run as `cargo xtask ...`
//! (an alias defined in `.cargo/config.toml`).
//!
//! Subcommands:
//! - `conformance`: run lockstep over the peer suites in
//!   `../shared/conformance/` and compare with the committed baseline of
//!   known gaps (see [`conformance`]).
//! - `determinism`: check every conformance test twice and compare the
//!   reports (see [`determinism`]).
//! - `fuzz`: a structure-aware mutator over the conformance kernels and the
//!   corpora (see [`fuzz`]).
//! - `bless`: rewrite the golden tests' expected outputs from the current
//!   binary and show what changed.
//! - `mutants`: the soundness harness: mutate the kernels lockstep
//!   verifies and require that no mutant the interpreter shows defective
//!   is verified (see [`mutants`]).
//! - `help`: list the subcommands.

mod conformance;
mod mutants;
mod determinism;
mod fuzz;
mod fuzz_kir;

use std::process::ExitCode;

const HELP: &str = "\
usage: cargo xtask <subcommand> [options]

subcommands:
  conformance   run lockstep over the conformance suites in ../shared/conformance,
                print the outcome table and figures, and compare with the
                baseline of known gaps (conformance/baseline.txt);
                `cargo xtask conformance --help` for its options
  mutants       mutate the suites' verified pass kernels, run each mutant in the
                interpreter and through the check, and list every defective
                mutant called verified; `cargo xtask mutants --help`
  determinism   check every conformance test twice and compare the JSON
                reports, timings aside; `cargo xtask determinism --help`
  fuzz          mutate the conformance kernels and the corpora and check that
                no input crashes, hangs or leaks; `cargo xtask fuzz --help`
  bless         rewrite the golden tests' .expected files (examples/,
                examples/equiv/ and crates/cli/tests/golden/) from the current
                output, showing the diff
  help          this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("conformance") => conformance::main(&args[1..]),
        Some("mutants") => mutants::main(&args[1..]),
        Some("determinism") => determinism::main(&args[1..]),
        Some("fuzz") => fuzz::main(&args[1..]),
        Some("bless") => bless(),
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            0
        }
        Some(other) => {
            eprintln!("error: unknown subcommand {other:?}\n\n{HELP}");
            2
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// Runs the golden tests with `LOCKSTEP_BLESS=1`, which rewrites every
/// `.expected` file that differs and prints the differences: `golden`
/// (`lockstep check` over examples/ and crates/cli/tests/golden/) and
/// `equiv_golden` (`lockstep equiv` over examples/equiv/). Both run even
/// when the first fails, so one bless brings every expected file up to date.
fn bless() -> i32 {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut worst = 0;
    for test in ["golden", "equiv_golden"] {
        let status = std::process::Command::new(&cargo)
            .args(["test", "--quiet", "--package", "lockstep", "--test", test, "--", "--nocapture"])
            .env("LOCKSTEP_BLESS", "1")
            .status();
        let code = match status {
            Ok(s) if s.success() => 0,
            Ok(_) => 1,
            Err(e) => {
                eprintln!("error: cannot run cargo: {e}");
                2
            }
        };
        worst = worst.max(code);
    }
    worst
}

/// Runs a subcommand whose options `parse` reads (`None` for `--help`) and
/// `run` carries out: usage on `--help`, exit status 2 with the usage on a
/// bad option, 2 with the error when the run fails.
fn run_subcommand<O>(
    args: &[String],
    usage: &str,
    parse: impl FnOnce(&[String]) -> Result<Option<O>, String>,
    run: impl FnOnce(&O) -> Result<i32, String>,
) -> i32 {
    match parse(args) {
        Ok(Some(o)) => run(&o).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            2
        }),
        Ok(None) => {
            print!("{usage}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{usage}");
            2
        }
    }
}
