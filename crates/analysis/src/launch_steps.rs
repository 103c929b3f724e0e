//! Loop counters stepped by the launch's sizes: block- and grid-stride
//! loops (`for (i = threadIdx.x; i < n; i += blockDim.x)`, `i +=
//! blockDim.x * gridDim.x`).
//!
//! The prover needs to know these updates for two reasons. With symbolic
//! launch sizes the step is a symbolic value, and the remainder of the
//! counter modulo the step (what makes two threads' counters distinct) is
//! only preserved by a step that does not wrap around; and the update is
//! often unsigned arithmetic (`blockDim.x` is `unsigned`), which the
//! front-end does not mark `nsw` even when the counter is a signed `int`.
//! This side table lists the `add` instructions that step a block
//! parameter (a loop-carried value) by a value computed only from the
//! launch sizes and constants, so that the prover can assume, and state,
//! that such a step does not overflow.
//!
//! It also says which of those counters their loop tests as signed
//! integers (`for (int c = threadIdx.x; c < n; c += blockDim.x)`: the
//! update is unsigned arithmetic, the exit test `icmp slt`). Such a counter
//! passing `INT_MAX` would turn negative and keep the loop running at
//! negative indices; the prover assumes (and states) that it does not,
//! which is what keeps `base + c` of a logged earlier iteration in its row.

use std::collections::HashSet;

use lockstep_kir::{BinOp, BuiltinVar, Function, InstId, InstKind, IntCC, ValueDef, ValueId};

/// The `add` instructions that step a loop-carried value by a launch size.
#[derive(Clone, Debug, Default)]
pub struct LaunchSteps {
    pub updates: HashSet<InstId>,
    /// The updates in `updates` whose counter (the block parameter they
    /// step) is an operand of a signed comparison that decides a branch.
    pub signed_tested: HashSet<InstId>,
}

impl LaunchSteps {
    /// Finds every `v = add p, s` (either operand order) where `p` is a
    /// block parameter, `s` is computed from `blockDim`/`gridDim` (OpenCL:
    /// local sizes and numbers of groups) and constants only, with at
    /// least one size in it, and `v` is passed back to `p`'s block as
    /// that parameter by some jump or branch.
    pub fn compute(func: &Function) -> LaunchSteps {
        let mut updates = HashSet::new();
        let mut signed_tested = HashSet::new();
        let signed = signed_branch_operands(func);
        for (i, inst) in func.insts.iter() {
            let InstKind::Binary { op: BinOp::Add, lhs, rhs } = inst.kind else { continue };
            let Some(result) = inst.result else { continue };
            for (p, s) in [(lhs, rhs), (rhs, lhs)] {
                let ValueDef::BlockParam(block, index) = func.values[p].def else { continue };
                if launch_size_expr(func, s, 0) == Some(true) && passed_back(func, block, index as usize, result) {
                    updates.insert(i);
                    if signed.contains(&p) {
                        signed_tested.insert(i);
                    }
                }
            }
        }
        LaunchSteps { updates, signed_tested }
    }
}

/// `Some(true)` when `v` is computed from launch sizes and constants with
/// at least one size, `Some(false)` for a constant, `None` otherwise. The
/// depth bound keeps the walk short on long expressions.
fn launch_size_expr(func: &Function, v: ValueId, depth: u32) -> Option<bool> {
    if depth > 8 {
        return None;
    }
    match func.values[v].def {
        ValueDef::Inst(i) => match &func.insts[i].kind {
            InstKind::Builtin { var: BuiltinVar::LocalSize | BuiltinVar::NumGroups, .. } => Some(true),
            InstKind::Binary { op: BinOp::Mul | BinOp::Add, lhs, rhs } => {
                let a = launch_size_expr(func, *lhs, depth + 1)?;
                let b = launch_size_expr(func, *rhs, depth + 1)?;
                Some(a || b)
            }
            InstKind::Cast { arg, .. } => launch_size_expr(func, *arg, depth + 1),
            _ => None,
        },
        ValueDef::Const(_) => Some(false),
        _ => None,
    }
}

/// The values compared by a signed `icmp` whose result is the condition of
/// a branch.
fn signed_branch_operands(func: &Function) -> HashSet<ValueId> {
    let conds: HashSet<ValueId> = func
        .blocks
        .iter()
        .filter_map(|(_, b)| match b.term {
            lockstep_kir::Terminator::Branch { cond, .. } => Some(cond),
            _ => None,
        })
        .collect();
    let mut out = HashSet::new();
    for (_, inst) in func.insts.iter() {
        let InstKind::Icmp { cc, lhs, rhs } = inst.kind else { continue };
        let signed = matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
        if signed && inst.result.is_some_and(|r| conds.contains(&r)) {
            out.extend([lhs, rhs]);
        }
    }
    out
}

/// Whether some edge into `block` passes `v` as its parameter `index`.
fn passed_back(func: &Function, block: lockstep_kir::BlockId, index: usize, v: ValueId) -> bool {
    func.blocks.iter().any(|(_, b)| b.term.block_calls().iter().any(|c| c.block == block && c.args.get(index) == Some(&v)))
}
