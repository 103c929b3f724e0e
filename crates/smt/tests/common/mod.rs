//! Helpers shared by the integration tests that run real solvers.
//!
//! The project installs z3 and cvc5, so a missing solver fails these tests
//! instead of skipping them.

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use lockstep_smt::{Solver, SolverConfig, SolverKind};

/// Starts `kind` with a generous per-query timeout.
pub fn solver(kind: SolverKind) -> Solver {
    solver_with(SolverConfig::new(kind, Duration::from_secs(10)))
}

/// Starts a solver from `config`, failing the test if it cannot run.
pub fn solver_with(config: SolverConfig) -> Solver {
    let kind = config.kind;
    Solver::spawn(config)
        .unwrap_or_else(|e| panic!("{kind} must be installed for these tests: {e}"))
}

/// A fresh path under Cargo's scratch directory for integration tests.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lockstep-smt-tests");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir.join(format!("{}-{name}", std::process::id()))
}
