//! Taint/relevance analysis (after SESA): which values can influence what
//! the checks look at.
//!
//! A value is *relevant* if it can flow into an address, a branch condition,
//! an annotation, a checked operand (divisors, and the operands of checked
//! arithmetic) or the length of a memory operation. Everything else — for
//! example floats computed only to be stored — need not be modelled: the
//! encoder gives it a constant, which keeps the queries small. Flow through
//! memory is handled coarsely: if any load is relevant, every stored value
//! is.
//!
//! The analysis also marks *prover-only* values: those computed from
//! annotation expressions that only make sense to the two-thread prover
//! (`__other_int`, `__read`, `__uniform_int`, ...). Assertions over them are
//! not checked by the bug finder, because a fresh value would make them fail
//! spuriously.

use std::collections::HashMap;

use lockstep_kir::{AnnotFn, BinOp, Function, InstKind, SecondaryMap, Terminator, ValueDef, ValueId};

/// The facts of the analysis.
#[derive(Debug)]
pub struct Relevance {
    relevant: SecondaryMap<ValueId, bool>,
    prover_only: SecondaryMap<ValueId, bool>,
    from_memory: SecondaryMap<ValueId, bool>,
    /// Whether memory contents can influence a relevant value.
    pub memory: bool,
}

impl Relevance {
    pub fn is_relevant(&self, v: ValueId) -> bool {
        *self.relevant.get(v)
    }

    pub fn is_prover_only(&self, v: ValueId) -> bool {
        *self.prover_only.get(v)
    }

    /// Whether `v` may depend on a value read from memory. Two threads that
    /// write such a value are not considered to write "the same value"
    /// (other threads may have changed what they read, as GPUVerify's
    /// abstraction of loaded values assumes).
    pub fn is_from_memory(&self, v: ValueId) -> bool {
        *self.from_memory.get(v)
    }

    /// Computes relevance for `func`; `overflow` says whether the operands of
    /// add/sub/mul are checked.
    pub fn compute(func: &Function, overflow: bool) -> Relevance {
        // Incoming arguments of every block parameter.
        let mut incoming: HashMap<ValueId, Vec<ValueId>> = HashMap::new();
        for (_, block) in func.blocks.iter() {
            for call in block.term.block_calls() {
                let params = &func.blocks[call.block].params;
                for (p, a) in params.iter().zip(&call.args) {
                    incoming.entry(*p).or_default().push(*a);
                }
            }
        }

        let from_memory = forward_taint(func, &incoming, |kind| {
            matches!(kind, InstKind::Load { .. } | InstKind::Atomic { .. } | InstKind::CmpXchg { .. })
        });
        let mut roots: Vec<ValueId> = Vec::new();
        let mut stored: Vec<ValueId> = Vec::new();
        for (_, block) in func.blocks.iter() {
            for &i in &block.insts {
                let kind = &func.insts[i].kind;
                match kind {
                    InstKind::Load { ptr, .. } => {
                        roots.push(*ptr);
                    }
                    // Stored values not read from memory decide whether a
                    // write-write conflict is benign (both threads write the
                    // same value); they are cheap to model.
                    InstKind::Store { ptr, value, .. } => {
                        roots.push(*ptr);
                        if *from_memory.get(*value) {
                            stored.push(*value);
                        } else {
                            roots.push(*value);
                        }
                    }
                    InstKind::Atomic { ptr, value, .. } => {
                        roots.extend([*ptr, *value]);
                    }
                    InstKind::CmpXchg { ptr, expected, new, .. } => {
                        roots.push(*ptr);
                        roots.push(*expected);
                        stored.push(*new);
                    }
                    InstKind::MemCopy { dst, src, len } => {
                        roots.extend([*dst, *src, *len]);
                    }
                    InstKind::MemSet { dst, byte, len } => {
                        roots.extend([*dst, *len]);
                        stored.push(*byte);
                    }
                    InstKind::Annot { args, .. } => roots.extend(args.iter().copied()),
                    // The member masks of warp operations: the search checks
                    // that every lane a mask names takes part.
                    InstKind::Barrier { mask: Some(m), .. } => roots.push(*m),
                    InstKind::Warp { op, args } if op.takes_member_mask() => roots.extend(args.first().copied()),
                    InstKind::Binary { op, lhs, rhs } => match op {
                        BinOp::UDiv | BinOp::URem => roots.push(*rhs),
                        BinOp::SDiv | BinOp::SRem => roots.extend([*lhs, *rhs]),
                        BinOp::Add | BinOp::Sub | BinOp::Mul if overflow => roots.extend([*lhs, *rhs]),
                        _ => {}
                    },
                    _ => {}
                }
            }
            if let Terminator::Branch { cond, .. } = &block.term {
                roots.push(*cond);
            }
        }

        let mut relevant: SecondaryMap<ValueId, bool> = SecondaryMap::new();
        let mut memory = false;
        let mut stack = roots;
        loop {
            while let Some(v) = stack.pop() {
                if *relevant.get(v) {
                    continue;
                }
                relevant.set(v, true);
                match &func.values[v].def {
                    ValueDef::Inst(i) => {
                        let kind = &func.insts[*i].kind;
                        if matches!(kind, InstKind::Load { .. } | InstKind::Atomic { .. } | InstKind::CmpXchg { .. }) {
                            memory = true;
                        }
                        kind.for_each_operand(|o| stack.push(o));
                    }
                    ValueDef::BlockParam(..) => {
                        if let Some(args) = incoming.get(&v) {
                            stack.extend(args.iter().copied());
                        }
                    }
                    _ => {}
                }
            }
            // Flow through memory: once a load matters, so does every
            // stored value (pointers make a finer split unreliable).
            if memory && !stored.is_empty() {
                stack.append(&mut stored);
                continue;
            }
            break;
        }

        // Prover-only values: a forward fixed point over operands.
        let mut prover_only: SecondaryMap<ValueId, bool> = SecondaryMap::new();
        let mut changed = true;
        while changed {
            changed = false;
            for (v, data) in func.values.iter() {
                if *prover_only.get(v) {
                    continue;
                }
                let tainted = match &data.def {
                    ValueDef::Inst(i) => match &func.insts[*i].kind {
                        InstKind::AnnotValue { func: f, args } => {
                            !matches!(f, AnnotFn::Implies | AnnotFn::Enabled | AnnotFn::SameGroup)
                                || args.iter().any(|a| *prover_only.get(*a))
                        }
                        kind => kind.operands().iter().any(|a| *prover_only.get(*a)),
                    },
                    ValueDef::BlockParam(..) => {
                        incoming.get(&v).is_some_and(|args| args.iter().any(|a| *prover_only.get(*a)))
                    }
                    _ => false,
                };
                if tainted {
                    prover_only.set(v, true);
                    changed = true;
                }
            }
        }
        Relevance { relevant, prover_only, from_memory, memory }
    }
}

/// Values computed (through operands and block parameters) from an
/// instruction for which `seed` holds.
fn forward_taint(
    func: &Function,
    incoming: &HashMap<ValueId, Vec<ValueId>>,
    seed: impl Fn(&InstKind) -> bool,
) -> SecondaryMap<ValueId, bool> {
    let mut taint: SecondaryMap<ValueId, bool> = SecondaryMap::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (v, data) in func.values.iter() {
            if *taint.get(v) {
                continue;
            }
            let tainted = match &data.def {
                ValueDef::Inst(i) => {
                    let kind = &func.insts[*i].kind;
                    seed(kind) || kind.operands().iter().any(|a| *taint.get(*a))
                }
                ValueDef::BlockParam(..) => incoming.get(&v).is_some_and(|args| args.iter().any(|a| *taint.get(*a))),
                _ => false,
            };
            if tainted {
                taint.set(v, true);
                changed = true;
            }
        }
    }
    taint
}
