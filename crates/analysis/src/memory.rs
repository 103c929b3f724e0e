//! Pre-analyses of memory the prover's encoding rests on, each a side
//! table computed once per (inlined) kernel before any block is encoded:
//!
//! - `readonly_private_params`: by-value (private) pointer parameters no
//!   write of the kernel reaches;
//! - `written_memory`: which statically named objects, and which spaces
//!   through pointers of unknown origin, the kernel may write (the objects
//!   it never writes read the same contents in every thread);
//! - `consistent_loads`: for a load, the earlier loads of the same object
//!   that it reads the value of when the addresses are equal (read
//!   consistency between barriers);
//! - `constant_initialised_locals`: private arrays initialised by one copy
//!   of an OpenCL constant and never written otherwise;
//! - `control_relevant`: the values that may decide control flow, an
//!   address or an annotation (the others only flow into stored data).
//!
//! They only read KIR; which facts the encoding may assume from them (and
//! under which options) is the prover's business.

use std::collections::{BTreeSet, HashMap, HashSet};

use lockstep_kir::{
    BlockId, CastOp, Function, GlobalId, InstId, InstKind, Language, LocalId, MemSpace, Module, Type,
    ValueDef, ValueId,
};

use crate::cfg::Cfg;
use crate::dom::DomTree;
use crate::loops::LoopInfo;
use crate::pointers::{local_root, pointer_space, space_compatible, static_root, Root};

/// The private pointer parameters (by-value structs) that no write of
/// the kernel may reach. A write may reach one unless its pointer is
/// built (by pointer arithmetic and casts) from a private local's
/// address or from a non-private pointer.
pub fn readonly_private_params(func: &Function, cfg: &Cfg) -> Vec<u32> {
    let private_params: Vec<u32> = func
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.ty == Type::Ptr(MemSpace::Private))
        .map(|(k, _)| k as u32)
        .collect();
    if private_params.is_empty() {
        return private_params;
    }
    // Where a pointer comes from, following pointer arithmetic and casts.
    #[derive(PartialEq)]
    enum Origin {
        Addr,
        Param(u32),
        Loaded,
        Unknown,
    }
    let root = |mut v: ValueId| -> Origin {
        for _ in 0..64 {
            match &func.values[v].def {
                ValueDef::LocalAddr(_) | ValueDef::GlobalAddr(_) => return Origin::Addr,
                ValueDef::Param(k) => return Origin::Param(*k),
                ValueDef::Inst(i) => match &func.insts[*i].kind {
                    InstKind::PtrAdd { base, .. } => v = *base,
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                    InstKind::Load { .. } => return Origin::Loaded,
                    _ => return Origin::Unknown,
                },
                _ => return Origin::Unknown,
            }
        }
        Origin::Unknown
    };
    let mut keep: Vec<u32> = private_params;
    // A parameter whose address escapes (is stored, or goes somewhere
    // this check does not follow) may be written through any pointer.
    for b in cfg.rpo() {
        for &i in &func.blocks[*b].insts {
            for v in func.insts[i].kind.operands() {
                if !func.value_type(v).is_ptr() {
                    continue;
                }
                let escapes = match &func.insts[i].kind {
                    InstKind::Store { value, .. } => *value == v,
                    InstKind::PtrAdd { .. } | InstKind::Load { .. } => false,
                    InstKind::Atomic { value, .. } => *value == v,
                    InstKind::CmpXchg { expected, new, .. } => *expected == v || *new == v,
                    InstKind::MemCopy { .. } | InstKind::MemSet { .. } | InstKind::Icmp { .. } => false,
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, .. } => false,
                    InstKind::Annot { .. } | InstKind::AnnotValue { .. } => false,
                    _ => true,
                };
                if escapes {
                    match root(v) {
                        Origin::Param(k) => keep.retain(|&x| x != k),
                        Origin::Addr | Origin::Loaded => {}
                        Origin::Unknown => return Vec::new(),
                    }
                }
            }
        }
        let term_ops = func.blocks[*b].term.operands();
        if term_ops.iter().any(|&v| func.value_type(v).is_ptr()) {
            // Pointers passed between blocks are not followed.
            for &v in &term_ops {
                if func.value_type(v).is_ptr() {
                    match root(v) {
                        Origin::Param(k) => keep.retain(|&x| x != k),
                        Origin::Addr | Origin::Loaded => {}
                        Origin::Unknown => return Vec::new(),
                    }
                }
            }
        }
    }
    for b in cfg.rpo() {
        for &i in &func.blocks[*b].insts {
            let Some(ptr) = func.insts[i].kind.written_pointer() else { continue };
            match root(ptr) {
                Origin::Param(k) => keep.retain(|&x| x != k),
                // Loaded pointers cannot point to a parameter whose
                // address never escapes.
                Origin::Addr | Origin::Loaded => {}
                Origin::Unknown => return Vec::new(),
            }
        }
    }
    keep
}

/// What a kernel may write: the statically named objects its writes'
/// pointers are derived from, and the spaces it writes through pointers of
/// unknown origin (which may reach every object of a compatible space).
/// `everything` when a call may write anything (a call left after inlining,
/// or an external call given pointers).
#[derive(Clone, Debug, Default)]
pub struct WrittenMemory {
    pub everything: bool,
    pub roots: BTreeSet<Root>,
    pub through_unknown: Vec<MemSpace>,
}

impl WrittenMemory {
    /// Whether a write may reach the object `root` of space `space`.
    pub fn may_write(&self, root: Option<Root>, space: MemSpace) -> bool {
        self.everything
            || root.is_some_and(|r| self.roots.contains(&r))
            || self.through_unknown.iter().any(|&s| space_compatible(s, space))
    }
}

/// The memory `func` may write (see `WrittenMemory`).
pub fn written_memory(func: &Function) -> WrittenMemory {
    let mut out = WrittenMemory::default();
    for block in func.blocks.values() {
        for &i in &block.insts {
            let kind = &func.insts[i].kind;
            let ptr = match kind {
                InstKind::Call { .. } => {
                    out.everything = true;
                    return out;
                }
                InstKind::CallExternal { args, .. } if args.iter().any(|&a| func.value_type(a).is_ptr()) => {
                    out.everything = true;
                    return out;
                }
                _ => match kind.written_pointer() {
                    Some(ptr) => ptr,
                    None => continue,
                },
            };
            match static_root(func, ptr) {
                Some(r) => {
                    out.roots.insert(r);
                }
                None => {
                    let space = pointer_space(func, ptr);
                    if !out.through_unknown.contains(&space) {
                        out.through_unknown.push(space);
                    }
                }
            }
        }
    }
    out
}

/// Read consistency, GPUVerify's model of memory between barriers: when a
/// thread reads a location twice, and between the reads it passes no
/// barrier and makes no call, and writes nothing that may be the read
/// object, the second read returns what the first did, unless another
/// thread wrote the location in between, which is a data race. The caller
/// says (`checked`) for which objects every such race is checked.
///
/// Found statically: load `b` may reuse the value of load `a` when `a`
/// reads the same object with the same type, `a` comes first in a block
/// that dominates `b`'s, both lie in the same loops, and no instruction on
/// a path from `a` to `b` (within one iteration of those loops) may write
/// the object, is a barrier, or is a call. Loads in `skip` (annotation
/// reads) and loads of pointers are left out. The encoding compares the
/// addresses: equal ones read the same value.
pub fn consistent_loads(
    module: &Module,
    func: &Function,
    (cfg, dom, loops): (&Cfg, &DomTree, &LoopInfo),
    skip: &HashSet<InstId>,
    checked: impl Fn(Root) -> bool,
) -> HashMap<InstId, Vec<InstId>> {
    let mut out: HashMap<InstId, Vec<InstId>> = HashMap::new();
    let mut loads = Vec::new();
    for &b in cfg.rpo() {
        for &i in &func.blocks[b].insts {
            let InstKind::Load { ptr, .. } = func.insts[i].kind else { continue };
            if skip.contains(&i) {
                continue;
            }
            let Some(ty) = func.insts[i].result.map(|r| func.values[r].ty) else { continue };
            if ty.is_ptr() {
                continue;
            }
            let Some(o) = static_root(func, ptr) else { continue };
            if checked(o) {
                loads.push((i, b, o, ty));
            }
        }
    }
    // Quadratic in the loads; kernels with very many are left alone.
    if loads.len() > 400 {
        return out;
    }
    for (k, &(ib, bb, ob, tb)) in loads.iter().enumerate() {
        for &(ia, ba, oa, ta) in &loads[..k] {
            if oa != ob || ta != tb || ia == ib {
                continue;
            }
            let ordered = if ba == bb {
                let insts = &func.blocks[ba].insts;
                insts.iter().position(|&x| x == ia) < insts.iter().position(|&x| x == ib)
            } else {
                dom.is_reachable(ba) && dom.dominates(ba, bb)
            };
            if ordered
                && loops.innermost(ba) == loops.innermost(bb)
                && nothing_writes_between(func, cfg, loops, (ia, ba), (ib, bb), ob, ob.space(module, func))
            {
                out.entry(ib).or_default().push(ia);
            }
        }
    }
    out
}

/// Whether no instruction on a path from `ia` (in block `ba`) to `ib`
/// (in `bb`), within one iteration of the loops containing both, may
/// write object `o`, is a barrier or is a call (see
/// `consistent_loads`).
#[allow(clippy::too_many_arguments)]
fn nothing_writes_between(
    func: &Function,
    cfg: &Cfg,
    loops: &LoopInfo,
    (ia, ba): (InstId, BlockId),
    (ib, bb): (InstId, BlockId),
    o: Root,
    o_space: MemSpace,
) -> bool {
    let insts = |b: BlockId| &func.blocks[b].insts;
    let interferes = |i: InstId| -> bool {
        let kind = &func.insts[i].kind;
        if matches!(kind, InstKind::Barrier { .. } | InstKind::Call { .. } | InstKind::CallExternal { .. }) {
            return true;
        }
        let Some(target) = kind.written_pointer() else { return false };
        match static_root(func, target) {
            Some(t) => t == o,
            None => match func.value_type(target) {
                Type::Ptr(space) => space_compatible(space, o_space),
                _ => true,
            },
        }
    };
    let pos = |b: BlockId, i: InstId| insts(b).iter().position(|&x| x == i).unwrap_or(0);
    if ba == bb {
        return insts(ba)[pos(ba, ia) + 1..pos(bb, ib)].iter().all(|&i| !interferes(i));
    }
    if insts(ba)[pos(ba, ia) + 1..].iter().any(|&i| interferes(i)) || insts(bb)[..pos(bb, ib)].iter().any(|&i| interferes(i)) {
        return false;
    }
    // The blocks between: reachable from `ba` and reaching `bb` without
    // taking a back edge of a loop containing both.
    let common: Vec<BlockId> = match loops.innermost(ba) {
        Some(l) => loops.ancestors(l).map(|x| loops.get(x).header).collect(),
        None => Vec::new(),
    };
    let mut forward: HashSet<BlockId> = HashSet::new();
    let mut stack = vec![ba];
    while let Some(x) = stack.pop() {
        for y in func.blocks[x].term.successors() {
            if !common.contains(&y) && y != bb && y != ba && forward.insert(y) {
                stack.push(y);
            }
        }
    }
    let mut backward: HashSet<BlockId> = HashSet::new();
    let mut stack = vec![bb];
    while let Some(x) = stack.pop() {
        if common.contains(&x) {
            continue;
        }
        for &y in cfg.preds(x) {
            if y != ba && y != bb && backward.insert(y) {
                stack.push(y);
            }
        }
    }
    forward.intersection(&backward).all(|&x| insts(x).iter().all(|&i| !interferes(i)))
}

/// Private arrays initialised from a constant (clang lowers `int x[10] =
/// {...}` to a copy of a `__constant` initialiser): locals whose only
/// write is one copy of their whole size from an initialised OpenCL
/// constant, and whose address never escapes (is stored, passed to a
/// call or between blocks) nor is written through a pointer of unknown
/// target. A load the copy dominates reads the constant's contents.
pub fn constant_initialised_locals(module: &Module, func: &Function, cfg: &Cfg) -> HashMap<LocalId, (GlobalId, InstId)> {
    let mut out = HashMap::new();
    if module.language != Language::OpenCl {
        return out;
    }
    let direct = |mut v: ValueId| -> ValueId {
        while let ValueDef::Inst(i) = &func.values[v].def {
            match &func.insts[*i].kind {
                InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                _ => break,
            }
        }
        v
    };
    let mut copies: HashMap<LocalId, Vec<(InstId, Option<GlobalId>)>> = HashMap::new();
    let mut bad: HashSet<LocalId> = HashSet::new();
    for b in cfg.rpo() {
        for &i in &func.blocks[*b].insts {
            let kind = &func.insts[i].kind;
            // Writes through a pointer of unknown target may reach any
            // private object.
            let written = match kind {
                InstKind::Store { ptr, .. } | InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => Some(*ptr),
                InstKind::MemCopy { dst, .. } | InstKind::MemSet { dst, .. } => Some(*dst),
                _ => None,
            };
            if let Some(w) = written {
                match local_root(func, w) {
                    Some(l) => {
                        let copy = match kind {
                            InstKind::MemCopy { dst, src, len } => {
                                let src_g = match func.values[direct(*src)].def {
                                    ValueDef::GlobalAddr(g) => Some(g),
                                    _ => None,
                                };
                                let size = func.locals[l].size;
                                let whole = matches!(func.values[direct(*dst)].def, ValueDef::LocalAddr(_))
                                    && matches!(func.values[*len].def, ValueDef::Const(n) if Some(n as u64) == size);
                                let good = src_g.filter(|&g| {
                                    let obj = &module.globals[g];
                                    whole
                                        && obj.space == MemSpace::Constant
                                        && obj.init.as_ref().is_some_and(|d| Some(d.len() as u64) >= size)
                                });
                                Some(good)
                            }
                            _ => None,
                        };
                        match copy {
                            Some(Some(g)) => copies.entry(l).or_default().push((i, Some(g))),
                            _ => {
                                bad.insert(l);
                            }
                        }
                    }
                    None => {
                        let space = match func.value_type(w) {
                            Type::Ptr(s) => s,
                            _ => MemSpace::Generic,
                        };
                        if space_compatible(space, MemSpace::Private) {
                            return HashMap::new();
                        }
                    }
                }
            }
            // Escapes: a local's address used other than as an address.
            let escapes: Vec<ValueId> = match kind {
                InstKind::Store { value, .. } => vec![*value],
                InstKind::Atomic { value, .. } => vec![*value],
                InstKind::CmpXchg { expected, new, .. } => vec![*expected, *new],
                InstKind::CallExternal { args, .. } => args.clone(),
                InstKind::Select { then_value, else_value, .. } => vec![*then_value, *else_value],
                _ => vec![],
            };
            for v in escapes {
                if let Some(l) = local_root(func, v) {
                    bad.insert(l);
                }
            }
        }
        for v in func.blocks[*b].term.operands() {
            if let Some(l) = local_root(func, v) {
                bad.insert(l);
            }
        }
    }
    for (l, list) in copies {
        if bad.contains(&l) || list.len() != 1 {
            continue;
        }
        if let (i, Some(g)) = list[0] {
            out.insert(l, (g, i));
        }
    }
    out
}
