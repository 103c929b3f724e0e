//! Which accesses count, and how, for race checking, and the benign-race
//! rule the three engines share.
//!
//! # Benign races
//!
//! Two accesses of the same bytes by different threads, at least one a
//! write, not both atomic and not ordered by a barrier, race, except in
//! three cases, in each of which every read returns the same value in
//! every interleaving and the final contents do not depend on the order:
//!
//! 1. two plain writes of the same value to the same bytes, by
//!    *value-tracked* stores;
//! 2. a plain read and another thread's plain value-tracked write of the
//!    value that the reader's own latest write of those bytes since its
//!    last barrier (any barrier) left there, that write being a
//!    value-tracked store too (GPUVerify's `WRITE_READ_BENIGN_FLAG`);
//! 3. under the equality abstraction only, a plain read and another
//!    thread's plain write that leaves the bytes as they were: the writer
//!    writes back the value it finds there (`v = A[0]; A[0] = v`).
//!
//! Value-tracked stores are those of memory-independent values
//! (`input_independent_stores`), extended, in a kernel, to values read
//! from global or constant objects that no write of the kernel reaches
//! (`value_tracked_stores`: every thread reads the same contents there at
//! any time, so equal addresses give equal values), and under `--equality-abstraction` every
//! plain store (there the threads of a group read one value from bytes
//! nobody wrote, so values derived from memory are equal by construction).
//! Any write that would make a read return something else races with that
//! read, with the reader's own write, or with the read a write-back copied,
//! and is reported: a benign race never hides a first real race.
//!
//! The interpreter applies the rule byte by byte on concrete values
//! (`lockstep_replay`'s `races`); the finder and the prover compare whole
//! accesses (same offset and width) on symbolic values, the prover taking
//! "the value it finds there" from the equality abstraction's contents of
//! the object (`lockstep_prove`'s `benign`), which relate the two threads
//! of one group only.
//!
//! Specification-only loads: memory reads that exist only to state an
//! annotation, such as the reads of `A[__other_int(tid)]` inside a barrier
//! invariant. They are not accesses of the program: GPUVerify never logs
//! them for race checking, and neither may lockstep's engines.
//!
//! A load is specification-only when its value, followed through pure
//! operations, reaches an annotation (`Annot`, `AnnotValue`) and nothing
//! else. Any other use — a store, a branch, a block argument, a call, a
//! return — makes it a real read, and so does having no use at all (a
//! dead read is still a read of the program).

use std::collections::HashSet;

use lockstep_kir::{EntityRef, Function, InstId, InstKind, MemSpace, Module, ValueDef, ValueId};

use crate::memory::written_memory;
use crate::pointers::static_root;

/// The loads of `func` whose values serve only annotations.
pub fn specification_loads(func: &Function) -> HashSet<InstId> {
    // Values the program uses: operands of anything but pure instructions
    // and annotations, and of terminators.
    let mut program_uses = Vec::new();
    // Values annotations use.
    let mut annotation_uses = Vec::new();
    for block in func.blocks.values() {
        for &inst in &block.insts {
            let kind = &func.insts[inst].kind;
            if matches!(kind, InstKind::Annot { .. } | InstKind::AnnotValue { .. }) {
                kind.for_each_operand(|v| annotation_uses.push(v));
            } else if !is_pure(kind) {
                kind.for_each_operand(|v| program_uses.push(v));
            }
        }
        program_uses.extend(block.term.operands());
    }
    let real = backward_closure(func, program_uses);
    let for_spec = backward_closure(func, annotation_uses);
    func.insts
        .iter()
        .filter(|(_, data)| matches!(data.kind, InstKind::Load { .. }))
        .filter(|(_, data)| data.result.is_some_and(|r| for_spec[r.index()] && !real[r.index()]))
        .map(|(id, _)| id)
        .collect()
}

/// The values `seeds` depend on through pure instructions (the seeds
/// included), as a table indexed by value.
fn backward_closure(func: &Function, seeds: Vec<ValueId>) -> Vec<bool> {
    let mut marked = vec![false; func.values.len()];
    let mut work = Vec::new();
    for v in seeds {
        if !std::mem::replace(&mut marked[v.index()], true) {
            work.push(v);
        }
    }
    while let Some(v) = work.pop() {
        if let ValueDef::Inst(inst) = func.values[v].def {
            let kind = &func.insts[inst].kind;
            if is_pure(kind) {
                kind.for_each_operand(|o| {
                    if !std::mem::replace(&mut marked[o.index()], true) {
                        work.push(o);
                    }
                });
            }
        }
    }
    marked
}

/// Instructions whose only effect is their result, through which "used by
/// an annotation" propagates. Loads count: the address of a specification
/// load is itself only specification.
fn is_pure(kind: &InstKind) -> bool {
    kind.is_pure_computation() || matches!(kind, InstKind::Load { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_kir::parse_module;

    #[test]
    fn reads_that_feed_only_annotations_are_specification() {
        let m = parse_module(
            r#"
language opencl
kernel fn0 "k" link "k" (v0 "A": ptr.shared, v1 "out": ptr.global) entry block0 {
  v2: i64 = const 4
block0:
  v3: i32 = builtin local_id x
  v4: i32 = annot_value other_int(v3)
  v5: i64 = zext v4
  v6: i64 = mul v5, v2
  v7: ptr.shared = ptradd v0, v6
  v8: i32 = load v7 align 4
  v9: i64 = zext v3
  v10: i64 = mul v9, v2
  v11: ptr.shared = ptradd v0, v10
  v12: i32 = load v11 align 4
  v13: i1 = icmp ne v12, v8
  annot assert(v13)
  v14: i32 = load v11 align 4
  store v1, v14 align 4
  return
}
"#,
        )
        .unwrap();
        let f = &m.functions[m.kernels().next().unwrap().0];
        let spec = specification_loads(f);
        let loads: Vec<InstId> =
            f.insts.iter().filter(|(_, d)| matches!(d.kind, InstKind::Load { .. })).map(|(i, _)| i).collect();
        assert_eq!(loads.len(), 3);
        assert!(spec.contains(&loads[0]) && spec.contains(&loads[1]), "both reads in the assertion");
        assert!(!spec.contains(&loads[2]), "the read that is stored is real");
    }

    #[test]
    fn reads_of_unwritten_global_memory_are_value_tracked_in_a_kernel() {
        // `out[i] = in[i]`: `in` is never written, so equal addresses read
        // equal values; once the kernel also writes `in`, they need not.
        let text = |extra: &str| {
            format!(
                r#"
language cuda
kernel fn0 "k" link "k" (v0 "in": ptr.global, v1 "out": ptr.global) entry block0 {{
  v2: i64 = const 4
block0:
  v3: i32 = builtin local_id x
  v4: i64 = zext v3
  v5: i64 = mul v4, v2
  v6: ptr.global = ptradd v0, v5
  v7: i32 = load v6 align 4
  v8: ptr.global = ptradd v1, v5
  store v8, v7 align 4
  {extra}
  return
}}
"#
            )
        };
        for (extra, tracked) in [("", true), ("store v6, v3 align 4", false)] {
            let m = parse_module(&text(extra)).unwrap();
            let f = &m.functions[m.kernels().next().unwrap().0];
            let first_store =
                f.insts.iter().find(|(_, d)| matches!(d.kind, InstKind::Store { .. })).map(|(i, _)| i).unwrap();
            assert!(!input_independent_stores(f).contains(&first_store));
            assert_eq!(value_tracked_stores(&m, f).contains(&first_store), tracked, "extra: {extra:?}");
        }
    }

    #[test]
    fn only_writes_of_memory_independent_values_may_be_benign() {
        let m = parse_module(
            r#"
language cuda
kernel fn0 "k" link "k" (v0 "A": ptr.global, v1 "n": i32) entry block0 {
  v2: i32 = const 64
block0:
  v3: i32 = builtin local_id x
  v4: i32 = udiv v3, v2
  store v0, v4 align 4
  v5: i32 = load v0 align 4
  v6: i32 = add v5, v1
  store v0, v6 align 4
  return
}
"#,
        )
        .unwrap();
        let f = &m.functions[m.kernels().next().unwrap().0];
        let stores: Vec<InstId> =
            f.insts.iter().filter(|(_, d)| matches!(d.kind, InstKind::Store { .. })).map(|(i, _)| i).collect();
        let independent = input_independent_stores(f);
        assert!(independent.contains(&stores[0]), "tid / 64 depends on no memory");
        assert!(!independent.contains(&stores[1]), "a value read from memory");
    }

    #[test]
    fn a_dead_read_is_real() {
        let m = parse_module(
            r#"
language cuda
kernel fn0 "k" link "k" (v0 "A": ptr.global) entry block0 {
block0:
  v1: i32 = load v0 align 4
  return
}
"#,
        )
        .unwrap();
        let f = &m.functions[m.kernels().next().unwrap().0];
        assert!(specification_loads(f).is_empty());
    }

    #[test]
    fn a_read_that_decides_a_branch_is_real() {
        let m = parse_module(
            r#"
language cuda
kernel fn0 "k" link "k" (v0 "A": ptr.global) entry block0 {
  v1: i32 = const 0
block0:
  v2: i32 = load v0 align 4
  v3: i1 = icmp eq v2, v1
  annot assert(v3)
  br v3, block1, block1
block1:
  return
}
"#,
        )
        .unwrap();
        let f = &m.functions[m.kernels().next().unwrap().0];
        assert!(specification_loads(f).is_empty());
    }
}

/// Stores whose value is computed from constants, parameters and thread
/// geometry only, never from a memory read, an atomic, a call or a merge of
/// control flow. Only such a write can be part of a benign race: GPUVerify's
/// (adversarial) semantics lets two threads read different values from
/// memory, so equal values derived from memory are equal only by accident.
pub fn input_independent_stores(func: &Function) -> HashSet<InstId> {
    let mut memo: Vec<Option<bool>> = vec![None; func.values.len()];
    func.insts
        .iter()
        .filter_map(|(id, data)| match data.kind {
            InstKind::Store { value, .. } => independent(func, value, &mut memo, 0).then_some(id),
            InstKind::MemSet { byte, .. } => independent(func, byte, &mut memo, 0).then_some(id),
            _ => None,
        })
        .collect()
}

fn independent(func: &Function, v: ValueId, memo: &mut Vec<Option<bool>>, depth: u32) -> bool {
    if let Some(known) = memo[v.as_u32() as usize] {
        return known;
    }
    // Deep expression chains are rare; giving up is the safe answer.
    if depth > 64 {
        return false;
    }
    let result = match &func.values[v].def {
        ValueDef::Param(_) | ValueDef::Const(_) | ValueDef::Null | ValueDef::GlobalAddr(_) | ValueDef::LocalAddr(_) => {
            true
        }
        ValueDef::Undef | ValueDef::BlockParam(..) => false,
        ValueDef::Inst(inst) => {
            let kind = &func.insts[*inst].kind;
            if kind.is_pure_computation() {
                let mut operands = Vec::new();
                kind.for_each_operand(|o| operands.push(o));
                operands.into_iter().all(|o| independent(func, o, memo, depth + 1))
            } else {
                false
            }
        }
    };
    memo[v.as_u32() as usize] = Some(result);
    result
}

/// The value-tracked stores of `func` (see the module documentation): the
/// `input_independent_stores`, and, in a kernel whose writes can all be
/// traced (no call), the stores whose values are computed from constants,
/// parameters, thread geometry and loads of global or constant objects
/// named statically that no write of the kernel reaches. Only a kernel
/// qualifies: in a device function run on its own, memory its caller
/// writes may look unwritten.
pub fn value_tracked_stores(module: &Module, func: &Function) -> HashSet<InstId> {
    let mut out = input_independent_stores(func);
    let written = written_memory(func);
    if !func.is_kernel || written.everything {
        return out;
    }
    let stable = |ptr: ValueId| {
        static_root(func, ptr).is_some_and(|r| {
            let space = r.space(module, func);
            matches!(space, MemSpace::Global | MemSpace::Constant) && !written.may_write(Some(r), space)
        })
    };
    let mut memo: Vec<Option<bool>> = vec![None; func.values.len()];
    for (id, data) in func.insts.iter() {
        let value = match data.kind {
            InstKind::Store { value, .. } => value,
            InstKind::MemSet { byte, .. } => byte,
            _ => continue,
        };
        if !out.contains(&id) && stable_value(func, value, &stable, &mut memo, 0) {
            out.insert(id);
        }
    }
    out
}

/// Whether `v` is computed from constants, parameters, thread geometry and
/// loads through `stable` pointers (themselves so computed) only.
fn stable_value(
    func: &Function,
    v: ValueId,
    stable: &dyn Fn(ValueId) -> bool,
    memo: &mut Vec<Option<bool>>,
    depth: u32,
) -> bool {
    if let Some(known) = memo[v.as_u32() as usize] {
        return known;
    }
    if depth > 64 {
        return false;
    }
    let result = match &func.values[v].def {
        ValueDef::Param(_) | ValueDef::Const(_) | ValueDef::Null | ValueDef::GlobalAddr(_) | ValueDef::LocalAddr(_) => {
            true
        }
        ValueDef::Undef | ValueDef::BlockParam(..) => false,
        ValueDef::Inst(inst) => match &func.insts[*inst].kind {
            InstKind::Load { ptr, .. } => stable(*ptr) && stable_value(func, *ptr, stable, memo, depth + 1),
            kind if kind.is_pure_computation() => {
                let mut operands = Vec::new();
                kind.for_each_operand(|o| operands.push(o));
                operands.into_iter().all(|o| stable_value(func, o, stable, memo, depth + 1))
            }
            _ => false,
        },
    };
    memo[v.as_u32() as usize] = Some(result);
    result
}
