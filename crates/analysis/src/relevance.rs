//! Control relevance: which values may decide a branch, an address, a
//! barrier, a call or an annotation. A value outside the set only ever
//! flows into stored data (or nowhere), so facts about it cannot change
//! which paths run or which locations are accessed; the prover uses this
//! to skip refinements that would only cost solver time.

use std::collections::{HashMap, HashSet};

use lockstep_kir::{Function, InstKind, Terminator, ValueDef, ValueId};

/// The values that may decide a branch, an address, a barrier, a call or
/// an annotation, directly or through the instructions and block
/// parameters computing them. A value outside the set only ever flows
/// into stored data (or nowhere).
/// (See the module documentation.)
pub fn control_relevant(func: &Function) -> HashSet<ValueId> {
    let mut relevant: HashSet<ValueId> = HashSet::new();
    let mut work: Vec<ValueId> = Vec::new();
    // The incoming arguments of each block parameter.
    let mut incoming: HashMap<ValueId, Vec<ValueId>> = HashMap::new();
    for (_, block) in func.blocks.iter() {
        if let Terminator::Branch { cond, .. } = &block.term {
            work.push(*cond);
        }
        if let Terminator::Return(Some(v)) = &block.term {
            work.push(*v);
        }
        for call in block.term.block_calls() {
            let params = &func.blocks[call.block].params;
            for (&p, &a) in params.iter().zip(&call.args) {
                incoming.entry(p).or_default().push(a);
            }
        }
    }
    for (_, inst) in func.insts.iter() {
        // Addresses count, stored values do not; computations count
        // only when their results do.
        match &inst.kind {
            InstKind::Load { ptr, .. }
            | InstKind::Store { ptr, .. }
            | InstKind::Atomic { ptr, .. }
            | InstKind::CmpXchg { ptr, .. } => work.push(*ptr),
            k if k.is_pure_computation() || matches!(k, InstKind::Warp { .. } | InstKind::Collective { .. } | InstKind::AnnotValue { .. }) => {}
            other => work.extend(other.operands()),
        }
    }
    // A relevant value makes what computes it relevant: the operands of
    // its instruction, or the incoming arguments of a block parameter.
    while let Some(v) = work.pop() {
        if !relevant.insert(v) {
            continue;
        }
        match &func.values[v].def {
            ValueDef::Inst(i) => work.extend(func.insts[*i].kind.operands()),
            _ => work.extend(incoming.get(&v).into_iter().flatten().copied()),
        }
    }
    relevant
}
