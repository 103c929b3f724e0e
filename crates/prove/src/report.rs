//! Conversion of a [`ProveOutcome`] into the shared report model
//! (`lockstep_diag::KernelReport`), for the CLI.
//!
//! Failed checks of the prover are never confirmed by this crate (no replay
//! here), so a failed proof is `possible-errors`: the counterexample is
//! abstract (memory values are adversarial, invariants may be too weak).

use lockstep_diag::{KernelReport, Related, Span, Verdict, Violation, Witness, WitnessThread};
use lockstep_kir::{FuncId, Module, SrcLoc};

use crate::{FailedCheck, ProveOutcome};

/// The source span of a KIR location.
pub fn span(module: &Module, loc: Option<SrcLoc>) -> Option<Span> {
    let loc = loc?;
    Some(Span { file: module.files.get(loc.file)?.clone(), line: loc.line, column: loc.col })
}

/// The report of `kernel` for `outcome`.
pub fn kernel_report(module: &Module, kernel: FuncId, outcome: &ProveOutcome) -> KernelReport {
    let name = module.functions[kernel].name.clone();
    match outcome {
        ProveOutcome::Verified { proved, assumptions, .. } => KernelReport {
            name,
            verdict: Verdict::Verified,
            violations: Vec::new(),
            proved: proved.clone(),
            assumptions: assumptions.clone(),
            reason: None,
            uncalled_function: false,
        },
        ProveOutcome::Unknown { reason, at } => KernelReport::unknown(name, reason.clone(), span(module, *at)),
        ProveOutcome::Failed { violations } => KernelReport {
            name,
            verdict: Verdict::PossibleErrors,
            violations: violations.iter().map(|f| violation(module, f)).collect(),
            proved: Vec::new(),
            assumptions: Vec::new(),
            reason: None,
            uncalled_function: false,
        },
    }
}

/// A failed check as a (possible, unconfirmed) violation.
pub fn violation(module: &Module, f: &FailedCheck) -> Violation {
    let mut related = Vec::new();
    if let Some(first) = &f.first {
        if let Some(span) = span(module, first.at.as_ref().and_then(|l| l.src)) {
            related.push(Related { span, label: format!("{} by the other thread", first.kind) });
        }
    }
    let mut memory = Vec::new();
    if let (Some(obj), Some(first), Some(second)) = (&f.object, &f.first, &f.second) {
        if let Some(o) = first.byte_offset {
            memory.push((format!("{obj}: byte offset of the {} by thread 1", first.kind), o.to_string()));
        }
        if let Some(o) = second.byte_offset {
            memory.push((format!("{obj}: byte offset of the {} by thread 2", second.kind), o.to_string()));
        }
    }
    Violation {
        kind: f.kind,
        confirmed: false,
        message: f.message.clone(),
        primary: span(module, f.at.as_ref().and_then(|l| l.src)),
        primary_label: f.second.as_ref().map(|second| format!("{} by thread 2", second.kind)),
        related,
        witness: Some(Witness {
            block_dim: f.group_size,
            grid_dim: f.num_groups,
            threads: f
                .threads
                .iter()
                .map(|t| WitnessThread { local_id: t.local_id, group_id: t.group_id })
                .collect(),
            args: Vec::new(),
            memory,
        }),
    }
}
