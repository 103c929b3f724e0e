//! Where a function uses an unspecified value: LLVM's `undef` (a variable
//! read before it was assigned, a device function returning a local it
//! never set) or the result of a `havoc` (a value the model leaves open,
//! such as what `printf` returns).
//!
//! Every engine treats such a value as nondeterministic: the prover and the
//! finder give it a fresh unconstrained value, and the interpreter, which
//! must pick one concrete value, counts each executed use (see
//! `lockstep_replay::ReplayResult::unspecified_uses`), so that a run that
//! met one is not taken for a program's only behaviour. This module says
//! which instructions and terminators are such uses, once for all of them.

use std::collections::HashSet;

use lockstep_kir::{BinOp, BlockId, Function, InstId, InstKind, ValueDef, ValueId};

/// The instructions and terminators of one function that use an
/// unspecified value.
#[derive(Clone, Debug, Default)]
pub struct UnspecifiedUses {
    pub insts: HashSet<InstId>,
    pub terms: HashSet<BlockId>,
}

impl UnspecifiedUses {
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty() && self.terms.is_empty()
    }
}

/// Whether `v` is an unspecified value of `func`.
pub fn is_unspecified(func: &Function, v: ValueId) -> bool {
    match func.values[v].def {
        ValueDef::Undef => true,
        ValueDef::Inst(i) => matches!(func.insts[i].kind, InstKind::Havoc),
        _ => false,
    }
}

/// The uses of unspecified values in `func`. An operand of a bitwise `and`
/// or `or` does not count: that is the front-end's way of building an
/// aggregate field by field from `undef` (the other operand masks the
/// unspecified bits), and counting it would make every program that fills
/// a struct in registers nondeterministic.
pub fn unspecified_uses(func: &Function) -> UnspecifiedUses {
    let mut out = UnspecifiedUses::default();
    for (id, inst) in func.insts.iter() {
        if matches!(inst.kind, InstKind::Binary { op: BinOp::And | BinOp::Or, .. }) {
            continue;
        }
        let mut found = false;
        inst.kind.for_each_operand(|v| found |= is_unspecified(func, v));
        if found {
            out.insts.insert(id);
        }
    }
    for (b, block) in func.blocks.iter() {
        if block.term.operands().into_iter().any(|v| is_unspecified(func, v)) {
            out.terms.insert(b);
        }
    }
    out
}
