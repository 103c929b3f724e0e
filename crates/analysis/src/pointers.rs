//! Where pointers come from: the parameter, global or local a pointer is
//! derived from by pointer arithmetic and casts, and which memory spaces a
//! pointer of a given static space may point into.
//!
//! Every walk follows at most 64 steps, so a chain too long (or a cycle in
//! malformed input) gives "unknown origin", never a hang.

use lockstep_kir::{CastOp, Function, GlobalId, InstKind, LocalId, MemSpace, Module, Type, ValueDef, ValueId};

/// The longest chain of pointer arithmetic and casts followed.
const MAX_CHAIN: usize = 64;

/// A memory object named statically: a module-level object or the memory
/// behind a pointer parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    Global(GlobalId),
    Param(u32),
}

impl Root {
    /// The memory space of the object (a generic pointer parameter points
    /// to global memory).
    pub fn space(self, module: &Module, func: &Function) -> MemSpace {
        match self {
            Root::Global(g) => module.globals[g].space,
            Root::Param(k) => match func.params.get(k as usize).map(|p| p.ty) {
                Some(Type::Ptr(MemSpace::Generic)) | None => MemSpace::Global,
                Some(Type::Ptr(s)) => s,
                Some(_) => MemSpace::Global,
            },
        }
    }
}

/// Whether a pointer of static space `ptr` may point to an object of space
/// `obj`.
pub fn space_compatible(ptr: MemSpace, obj: MemSpace) -> bool {
    ptr == MemSpace::Generic || obj == MemSpace::Generic || ptr == obj
}

/// The static space of a pointer value (`Generic` for a non-pointer).
pub fn pointer_space(func: &Function, v: ValueId) -> MemSpace {
    match func.value_type(v) {
        Type::Ptr(s) => s,
        _ => MemSpace::Generic,
    }
}

/// The definition a pointer is derived from by pointer arithmetic and
/// casts (a parameter, a global's or a local's address), when the chain is
/// short and ends in one.
pub fn pointer_root(func: &Function, mut v: ValueId) -> Option<&ValueDef> {
    for _ in 0..MAX_CHAIN {
        match &func.values[v].def {
            ValueDef::Inst(i) => match &func.insts[*i].kind {
                InstKind::PtrAdd { base, .. } => v = *base,
                InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                _ => return None,
            },
            def => return Some(def),
        }
    }
    None
}

/// The parameter or global a pointer is derived from, when it is one.
/// (A parameter root is a pointer parameter: only pointers are followed.)
pub fn static_root(func: &Function, v: ValueId) -> Option<Root> {
    match pointer_root(func, v)? {
        ValueDef::GlobalAddr(g) => Some(Root::Global(*g)),
        ValueDef::Param(k) if func.params.get(*k as usize).is_some_and(|p| p.ty.is_ptr()) => Some(Root::Param(*k)),
        _ => None,
    }
}

/// The local a pointer is derived from (by pointer arithmetic and casts).
pub fn local_root(func: &Function, v: ValueId) -> Option<LocalId> {
    match pointer_root(func, v)? {
        ValueDef::LocalAddr(l) => Some(*l),
        _ => None,
    }
}

/// Whether `v` is the address of one of the function's private locals.
pub fn is_private_local(func: &Function, v: ValueId) -> bool {
    local_root(func, v).is_some_and(|l| func.locals[l].space == MemSpace::Private)
}

/// `v` as a local and a constant byte offset into it (modulo 2^64), when
/// it is one.
pub fn local_at(func: &Function, mut v: ValueId) -> Option<(LocalId, u64)> {
    let mut off: u64 = 0;
    for _ in 0..MAX_CHAIN {
        match &func.values[v].def {
            ValueDef::LocalAddr(l) => return Some((*l, off)),
            ValueDef::Inst(i) => match &func.insts[*i].kind {
                InstKind::PtrAdd { base, offset } => {
                    let ValueDef::Const(c) = func.values[*offset].def else { return None };
                    off = off.wrapping_add(c as u64);
                    v = *base;
                }
                InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}
