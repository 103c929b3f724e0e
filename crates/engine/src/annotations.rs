//! GPUVerify's switches that change what the source annotations mean:
//! `--no-annotations` ignores them, `--only-requires` keeps only
//! preconditions, and `--invariants-as-candidates` turns loop invariants
//! into candidates that inference may drop. Applied to the module once,
//! before any engine runs, so that every engine sees the same kernel.

use lockstep_kir::{AnnotKind, InstKind, Module};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AnnotationFlags {
    pub no_annotations: bool,
    pub only_requires: bool,
    pub invariants_as_candidates: bool,
}

/// Rewrites the annotations of every function as `flags` ask. A dropped
/// annotation becomes a `Nop` naming it, so the instruction (and its
/// location) stays in place.
pub fn apply(module: &mut Module, flags: AnnotationFlags) {
    if flags == AnnotationFlags::default() {
        return;
    }
    for func in module.functions.values_mut() {
        for inst in func.insts.values_mut() {
            let InstKind::Annot { kind, .. } = &mut inst.kind else { continue };
            let keep = if flags.no_annotations {
                false
            } else if flags.only_requires {
                matches!(kind, AnnotKind::Requires | AnnotKind::GlobalRequires)
            } else {
                true
            };
            if !keep {
                let what = format!("ignored {}", kind.name());
                inst.kind = InstKind::Nop { what };
                continue;
            }
            if flags.invariants_as_candidates {
                *kind = match *kind {
                    AnnotKind::Invariant => AnnotKind::CandidateInvariant,
                    AnnotKind::GlobalInvariant => AnnotKind::CandidateGlobalInvariant,
                    AnnotKind::FunctionWideInvariant => AnnotKind::FunctionWideCandidateInvariant,
                    other => other,
                };
            }
        }
    }
}
