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
pub mod config;
pub mod locate;
pub mod search;

pub use config::{CheckConfig, Mode};

use lockstep_diag::{KernelReport, Verdict, Violation};
use lockstep_kir::{FuncId, Module};

/// Checks one kernel as `config` asks.
pub fn check_kernel(module: &Module, kernel: FuncId, config: &CheckConfig) -> KernelReport {
    let name = module.functions[kernel].name.clone();
    let mut confirmed: Vec<Violation> = Vec::new();
    let mut notes: Vec<String> = Vec::new();

    if config.mode != Mode::Prove {
        let outcome = search::search(module, kernel, config);
        confirmed.extend(outcome.violations);
        notes.extend(outcome.notes);
    }

    if !confirmed.is_empty() {
        return KernelReport { name, verdict: Verdict::Errors, violations: confirmed, proved: Vec::new(), reason: None };
    }
    let reason = if notes.is_empty() {
        "no engine could decide this kernel: the prover is not available yet".to_string()
    } else {
        format!("no violation found by concrete search ({}), and no proof was attempted", notes.join("; "))
    };
    KernelReport::unknown(name, reason, None)
}
