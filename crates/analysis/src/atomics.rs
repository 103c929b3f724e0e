//! Counters that only grow by atomic additions: the statically named
//! objects (parameters, globals, `__shared__` variables) whose every
//! atomic update in the kernel is an integer `atomicAdd` of a value that is
//! not a negative constant: no exchange, compare-and-swap, subtraction or
//! other read-modify-write, and no call that may write them.
//!
//! On such a counter, the executions of the additions take consecutive
//! ranges of its values: an execution that returns `old` after adding `v`
//! owns `[old, old + v)`, and two distinct executions in which no plain
//! write of the counter comes between own disjoint ranges, as long as the
//! additions do not carry the counter past its largest value. Plain writes
//! (a reset `count = 0` before a barrier) are allowed here: one between two
//! threads' executions of one addition outside loops races with one of
//! them (the two lie in one barrier interval of their group, or in
//! different groups, which no barrier orders), so a user of the table
//! needs every race on the counter checked. The values added are not
//! bounded by the kernel's text; the prover states that they do not wrap
//! the counter as an assumption where it uses the ranges
//! (`lockstep_prove`'s `encode::slots`).

use std::collections::BTreeSet;

use lockstep_kir::{AtomicOp, Function, InstKind, Module, Type, ValueDef};

use crate::pointers::{pointer_space, space_compatible, static_root, Root};

/// The roots of `func` whose every atomic update is an integer
/// `atomicAdd` of a value that is not a negative constant (see the module
/// docs). An atomic through a pointer of unknown origin removes every root
/// of a compatible space, and a call that may write memory removes all of
/// them; plain stores, copies and fills remove nothing.
pub fn add_only_counters(module: &Module, func: &Function) -> BTreeSet<Root> {
    let mut counters = BTreeSet::new();
    for (_, data) in func.insts.iter() {
        if let InstKind::Atomic { op: AtomicOp::Add, ptr, .. } = data.kind {
            if let Some(r) = static_root(func, ptr) {
                counters.insert(r);
            }
        }
    }
    for (_, data) in func.insts.iter() {
        let kind = &data.kind;
        let ptr = match kind {
            InstKind::Call { .. } => return BTreeSet::new(),
            InstKind::CallExternal { args, .. } if args.iter().any(|&a| func.value_type(a).is_ptr()) => {
                return BTreeSet::new()
            }
            InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => *ptr,
            _ => continue,
        };
        let adds = match *kind {
            InstKind::Atomic { op: AtomicOp::Add, value, .. } => match (func.value_type(value), &func.values[value].def) {
                (Type::Int(w), ValueDef::Const(c)) => w < 128 && (c >> (w - 1)) & 1 == 0,
                (Type::Int(_), _) => true,
                _ => false,
            },
            _ => false,
        };
        if adds {
            continue;
        }
        match static_root(func, ptr) {
            Some(r) => {
                counters.remove(&r);
            }
            None => {
                let space = pointer_space(func, ptr);
                counters.retain(|r| !space_compatible(space, r.space(module, func)));
            }
        }
    }
    counters
}
