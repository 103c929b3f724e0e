//! Project automation for the lockstep workspace, run as `cargo xtask ...`
//! (an alias defined in `.cargo/config.toml`).
//!
//! Subcommands:
//! - `conformance`: run lockstep over the peer suites in
//!   `../shared/conformance/` and compare with the committed baseline of
//!   known gaps (see [`conformance`]).
//! - `help`: list the subcommands.

mod conformance;

use std::process::ExitCode;

const HELP: &str = "\
usage: cargo xtask <subcommand> [options]

subcommands:
  conformance   run lockstep over the conformance suites in ../shared/conformance,
                print the outcome table and figures, and compare with the
                baseline of known gaps (conformance/baseline.txt);
                `cargo xtask conformance --help` for its options
  help          this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("conformance") => conformance::main(&args[1..]),
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
