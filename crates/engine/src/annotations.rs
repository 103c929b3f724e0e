//! GPUVerify's switches that change what the source annotations mean:
//! `--no-annotations` ignores them, `--only-requires` keeps only
//! preconditions, and `--invariants-as-candidates` turns loop invariants
//! into candidates that inference may drop. Applied to the module once,
//! before any engine runs, so that every engine sees the same kernel.
//!
//! The same pass makes file-scope axioms (`__axiom(e)`) part of every
//! kernel: the front-end lowers each to a function of its own that nothing
//! calls, and here every kernel calls each of them on entry, so that the
//! prover, the finder and the interpreter all assume them for every thread.
//! Likewise, scalar arguments the user fixed (GPUVerify's `--kernel-args`)
//! become assumptions at the kernel's entry (`with_fixed_scalars`).

use lockstep_kir::{AnnotKind, BlockId, FuncId, Function, InstKind, IntCC, Module, SrcLoc, Type, ValueId};

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
    rewrite(module, flags);
    assume_axioms(module);
}

fn rewrite(module: &mut Module, flags: AnnotationFlags) {
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

/// GPUVerify's `/checkArrays:` keeps access logs only for the arrays it
/// names, so for any other array its `__read(A)` and `__write(A)` (and
/// `__no_read(A)`, `__no_write(A)`) find no access logged. Here they become
/// `false` (the claims `__no_read`/`__no_write` become `Nop`s naming them).
/// Only a predicate whose pointer is plainly an unchecked array (a
/// parameter or a module-level object by name) is rewritten; any other
/// keeps its meaning.
pub fn drop_unlogged_access_claims(module: &mut Module, checked: &[String]) {
    let global_names: Vec<String> = module.globals.values().map(|g| g.name.clone()).collect();
    for func in module.functions.values_mut() {
        let param_names: Vec<String> = func.params.iter().map(|p| p.name.clone()).collect();
        let unlogged = |ptr: ValueId| -> Option<String> {
            let name = match func.values[ptr].def {
                lockstep_kir::ValueDef::Param(i) => param_names.get(i as usize).cloned(),
                lockstep_kir::ValueDef::GlobalAddr(g) => global_names.get(g.as_u32() as usize).cloned(),
                _ => None,
            }?;
            (!checked.iter().any(|c| lockstep_kir::object_named(&name, c))).then_some(name)
        };
        let mut claims = Vec::new();
        let mut predicates = Vec::new();
        for (id, inst) in func.insts.iter() {
            match &inst.kind {
                InstKind::Annot { kind: kind @ (AnnotKind::NoRead | AnnotKind::NoWrite), args } => {
                    if let Some(name) = args.first().and_then(|&p| unlogged(p)) {
                        claims.push((id, format!("ignored {} of `{name}`, whose accesses /checkArrays does not log", kind.name())));
                    }
                }
                InstKind::AnnotValue { func: lockstep_kir::AnnotFn::Read | lockstep_kir::AnnotFn::Write, args } => {
                    if args.first().and_then(|&p| unlogged(p)).is_some() {
                        predicates.push(id);
                    }
                }
                _ => {}
            }
        }
        for (id, what) in claims {
            func.insts[id].kind = InstKind::Nop { what };
        }
        if !predicates.is_empty() {
            // The predicate keeps its result value (its uses stay as they
            // are) but computes `0 != 0`.
            let zero = func.const_int(Type::I32, 0);
            for id in predicates {
                func.insts[id].kind = InstKind::Icmp { cc: IntCC::Ne, lhs: zero, rhs: zero };
            }
        }
    }
}

/// Functions that hold file-scope axioms: functions without parameters or
/// result, not kernels, with an `axiom` annotation.
fn axiom_functions(module: &Module) -> Vec<FuncId> {
    module
        .functions
        .iter()
        .filter(|(_, f)| {
            !f.is_kernel
                && f.params.is_empty()
                && f.ret.is_none()
                && f.insts.values().any(|i| matches!(i.kind, InstKind::Annot { kind: AnnotKind::Axiom, .. }))
        })
        .map(|(id, _)| id)
        .collect()
}

/// Makes every kernel call each axiom function first.
pub fn assume_axioms(module: &mut Module) {
    let axioms = axiom_functions(module);
    if axioms.is_empty() {
        return;
    }
    for func in module.functions.values_mut().filter(|f| f.is_kernel) {
        let entry = func.entry;
        for &callee in axioms.iter().rev() {
            let loc = func.loc;
            insert_inst(func, entry, 0, InstKind::Call { callee, args: Vec::new() }, None, loc);
        }
    }
}

/// Inserts an instruction at position `index` of `block`; returns its
/// value.
fn insert_inst(
    func: &mut Function,
    block: BlockId,
    index: usize,
    kind: InstKind,
    result: Option<Type>,
    loc: Option<SrcLoc>,
) -> Option<ValueId> {
    let (inst, value) = func.append_inst(block, kind, result, loc);
    let insts = &mut func.blocks[block].insts;
    insts.pop();
    insts.insert(index, inst);
    value
}

/// A copy of `module` in which `kernel` assumes, on entry, that each integer
/// parameter given a value in `scalars` (by position, GPUVerify's
/// `--kernel-args`) has it; `None` when no parameter is fixed. With
/// the assumption in the kernel, the prover and the finder consider only
/// those values, and a witness that breaks it is discarded.
///
/// A by-value struct parameter (a pointer to the thread's private copy) is
/// given as its bytes, little-endian, of which the first 16 count (as the
/// interpreter lays them out): the kernel assumes, on entry, that each of
/// its first four 32-bit words holds its part of them.
pub fn with_fixed_scalars(module: &Module, kernel: FuncId, scalars: &[Option<u128>]) -> Option<Module> {
    let func = &module.functions[kernel];
    let fixed: Vec<(ValueId, Type, u128)> = func
        .params
        .iter()
        .zip(scalars)
        .filter_map(|(p, v)| match (p.ty, v) {
            (Type::Int(_) | Type::Ptr(lockstep_kir::MemSpace::Private), Some(v)) => Some((p.value, p.ty, *v)),
            _ => None,
        })
        .collect();
    if fixed.is_empty() {
        return None;
    }
    let mut module = module.clone();
    let func = &mut module.functions[kernel];
    let (entry, loc) = (func.entry, func.loc);
    let mut at = 0;
    let mut insert = |func: &mut Function, kind: InstKind, result: Option<Type>| {
        let v = insert_inst(func, entry, at, kind, result, loc);
        at += 1;
        v
    };
    for &(param, ty, value) in &fixed {
        let mut equalities = Vec::new();
        if ty.is_ptr() {
            for word in 0..4u32 {
                let offset = func.const_int(Type::I64, 4 * word as u128);
                let ptr = insert(func, InstKind::PtrAdd { base: param, offset }, Some(ty)).expect("an address");
                let load = insert(func, InstKind::Load { ptr, align: 4 }, Some(Type::I32)).expect("a loaded value");
                equalities.push((load, func.const_int(Type::I32, (value >> (32 * word)) & 0xffff_ffff)));
            }
        } else {
            equalities.push((param, func.const_int(ty, value)));
        }
        for (lhs, rhs) in equalities {
            let cond = insert(func, InstKind::Icmp { cc: IntCC::Eq, lhs, rhs }, Some(Type::BOOL)).expect("a comparison has a value");
            insert(func, InstKind::Annot { kind: AnnotKind::Assume, args: vec![cond] }, None);
        }
    }
    Some(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_call_axiom_functions_first() {
        let mut module = lockstep_kir::parse_module(
            r#"
language cuda
device fn0 "__lockstep_axiom_fn_0" link "__lockstep_axiom_fn_0" () entry block0 {
  v1: i32 = const 16
block0:
  v0: i32 = builtin group_id x
  v2: i1 = icmp eq v0, v1
  annot axiom(v2)
  return
}
kernel fn1 "k" link "k" () entry block0 {
block0:
  return
}
"#,
        )
        .unwrap();
        apply(&mut module, AnnotationFlags::default());
        let kernel = module.function_by_name("k").unwrap();
        let f = &module.functions[kernel];
        let first = f.blocks[f.entry].insts[0];
        assert!(matches!(&f.insts[first].kind, InstKind::Call { args, .. } if args.is_empty()));
        assert!(lockstep_kir::verify_module(&module).is_ok());
    }

    #[test]
    fn fixed_scalars_become_assumptions() {
        let module = lockstep_kir::parse_module(
            r#"
language opencl
kernel fn0 "k" link "k" (v0 "p": ptr.global, v1 "x": i32) entry block0 {
block0:
  return
}
"#,
        )
        .unwrap();
        let kernel = module.function_by_name("k").unwrap();
        assert!(with_fixed_scalars(&module, kernel, &[None, None]).is_none());
        let fixed = with_fixed_scalars(&module, kernel, &[None, Some(3)]).unwrap();
        assert!(lockstep_kir::verify_module(&fixed).is_ok());
        let f = &fixed.functions[kernel];
        let insts = &f.blocks[f.entry].insts;
        assert!(matches!(f.insts[insts[0]].kind, InstKind::Icmp { cc: IntCC::Eq, .. }));
        assert!(matches!(&f.insts[insts[1]].kind, InstKind::Annot { kind: AnnotKind::Assume, .. }));
    }
}
