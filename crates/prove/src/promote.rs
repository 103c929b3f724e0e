//! Promotion of private locals to SSA values, after inlining.
//!
//! The front end runs LLVM's `mem2reg`, but a local whose address is passed
//! to a function (an out-parameter, a by-reference argument) stays in
//! memory until the prover inlines the call. The encoding keeps the values
//! of private memory only within a block (store-to-load forwarding); across
//! blocks a load from private memory is arbitrary, so such a local loses its
//! value at every branch. This pass gives it SSA form instead (a scalar
//! replacement of aggregates): a local whose address is only ever, directly
//! or at constant offsets, the address of loads and stores (never stored,
//! passed on, compared or offset by a variable), each offset with one type
//! and the fields not overlapping, becomes one value per field, with a block
//! parameter where definitions meet (the iterated dominance frontier of its
//! stores), and its loads and stores disappear. A load before any store
//! reads an unspecified value, as the memory would; a local with initial
//! contents is left in memory.
//!
//! The fields matter for closures: a device lambda's captures are a private
//! struct the kernel fills and the lambda's body reads through `this`; once
//! promoted, a captured pointer is the kernel's parameter again, not a
//! pointer loaded from memory that could point anywhere.

use std::collections::{HashMap, HashSet};

use lockstep_analysis::{Cfg, DomTree};
use lockstep_kir::{AnnotKind, BlockId, CastOp, Function, InstId, InstKind, LocalId, MemSpace, Terminator, Type, ValueDef, ValueId};

/// Whether `f` has annotations that hold for threads that are not enabled
/// (`__global_requires` and the like). Such a thread's view of a promoted
/// local in a region it skips would be the value the region computes, not
/// the one its memory holds (a store it skipped did not happen), so these
/// functions keep their locals in memory.
fn observes_disabled_threads(f: &Function) -> bool {
    f.insts.values().any(|i| {
        matches!(
            i.kind,
            InstKind::Annot {
                kind: AnnotKind::GlobalRequires
                    | AnnotKind::GlobalEnsures
                    | AnnotKind::GlobalAssert
                    | AnnotKind::GlobalInvariant
                    | AnnotKind::CandidateGlobalInvariant,
                ..
            }
        )
    })
}

/// A field of a private local: the local and its byte offset.
type Slot = (LocalId, u64);

/// Promotes every promotable private local of `f`, in rounds until none
/// is left (promoting a local that held another's address can make that
/// one promotable); returns how many fields became values.
pub fn promote_private_locals(f: &mut Function) -> usize {
    let mut total = 0;
    loop {
        let n = promote_round(f);
        if n == 0 {
            return total;
        }
        total += n;
    }
}

/// One round of promotion.
fn promote_round(f: &mut Function) -> usize {
    // Each address of a promotable kind: the local and the byte offset.
    let mut addr_of: HashMap<ValueId, Slot> = f
        .values
        .iter()
        .filter_map(|(v, d)| match d.def {
            ValueDef::LocalAddr(l) if f.locals[l].space == MemSpace::Private && f.locals[l].init.is_none() => {
                Some((v, (l, 0)))
            }
            _ => None,
        })
        .collect();
    // Address-space casts of an address (CUDA passes a local's address to
    // a function as a generic pointer) are the same address, and a constant
    // offset from one (a field of a struct) is the field's address.
    let mut aliases: HashSet<InstId> = HashSet::new();
    let mut fielded: HashSet<LocalId> = HashSet::new();
    loop {
        let before = addr_of.len();
        for (i, inst) in f.insts.iter() {
            let Some(r) = inst.result else { continue };
            if addr_of.contains_key(&r) {
                continue;
            }
            let target = match &inst.kind {
                InstKind::Cast { op: CastOp::AddrSpaceCast, arg } => addr_of.get(arg).copied(),
                InstKind::PtrAdd { base, offset } => match (addr_of.get(base), &f.values[*offset].def) {
                    (Some(&(l, off)), &ValueDef::Const(c)) => {
                        let field = off as i64 + c as u64 as i64;
                        fielded.insert(l);
                        u64::try_from(field).ok().map(|field| (l, field))
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some(t) = target {
                addr_of.insert(r, t);
                aliases.insert(i);
            }
        }
        if addr_of.len() == before {
            break;
        }
    }
    if addr_of.is_empty() || observes_disabled_threads(f) {
        return 0;
    }
    let cfg = Cfg::compute(f);
    // A jump back to the entry would need a parameter there, which the
    // entry cannot have (the front end never makes one).
    if !cfg.preds(cfg.entry()).is_empty() {
        return 0;
    }
    let dom = DomTree::compute(&cfg);

    // Which fields qualify, with their type and the blocks that store to
    // them; a local is promoted whole or not at all.
    let mut ty: HashMap<Slot, Type> = HashMap::new();
    let mut bad: HashSet<LocalId> = HashSet::new();
    let mut def_blocks: HashMap<Slot, Vec<BlockId>> = HashMap::new();
    // Pointers of different spaces are one kind of value to the encoding
    // (a base and an offset); a field that holds both is generic.
    let mut note_type = |s: Slot, t: Type, bad: &mut HashSet<LocalId>| {
        let seen = ty.entry(s).or_insert(t);
        match (*seen, t) {
            (a, b) if a == b => {}
            (Type::Ptr(_), Type::Ptr(_)) => *seen = Type::Ptr(MemSpace::Generic),
            _ => {
                bad.insert(s.0);
            }
        }
    };
    for (b, block) in f.blocks.iter() {
        for &i in &block.insts {
            let kind = &f.insts[i].kind;
            match kind {
                InstKind::Load { ptr, .. } if addr_of.contains_key(ptr) => {
                    let Some(r) = f.insts[i].result else {
                        bad.insert(addr_of[ptr].0);
                        continue;
                    };
                    note_type(addr_of[ptr], f.value_type(r), &mut bad);
                }
                InstKind::Store { ptr, value, .. } if addr_of.contains_key(ptr) => {
                    // A local's address stored in another (a closure that
                    // captures by reference) escapes for this round; once
                    // the holder is promoted, the next round sees the
                    // address used directly.
                    if let Some(&(held, _)) = addr_of.get(value) {
                        bad.insert(held);
                    }
                    let s = addr_of[ptr];
                    note_type(s, f.value_type(*value), &mut bad);
                    def_blocks.entry(s).or_default().push(b);
                }
                _ if aliases.contains(&i) => {}
                _ => kind.for_each_operand(|v| {
                    if let Some(&(l, _)) = addr_of.get(&v) {
                        bad.insert(l);
                    }
                }),
            }
        }
        for v in block.term.operands() {
            if let Some(&(l, _)) = addr_of.get(&v) {
                bad.insert(l);
            }
        }
    }
    // The encoding lets a store through a private pointer of unknown
    // origin write any private object; a local reached at offsets keeps
    // its memory then (whole locals are promoted as they always were).
    let unknown_private_store = f.insts.values().any(|i| {
        matches!(i.kind, InstKind::Store { ptr, .. }
            if f.value_type(ptr) == Type::Ptr(MemSpace::Private) && !addr_of.contains_key(&ptr))
    });
    if unknown_private_store {
        bad.extend(fielded.iter().copied());
    }
    // Fields of one local must not overlap (a store of an `i64` read back
    // as two `i32`s would need the bytes) and must lie inside the local.
    let mut fields: Vec<(Slot, u64)> = ty.iter().map(|(&s, t)| (s, t.store_size())).collect();
    fields.sort();
    for pair in fields.windows(2) {
        let (((l, off), size), ((m, next), _)) = (pair[0], pair[1]);
        if l == m && off + size > next {
            bad.insert(l);
        }
    }
    for &((l, off), size) in &fields {
        if f.locals[l].size.is_some_and(|total| off + size > total) {
            bad.insert(l);
        }
    }
    let mut promoted: Vec<Slot> = ty.keys().copied().filter(|s| !bad.contains(&s.0)).collect();
    promoted.sort();
    if promoted.is_empty() {
        return 0;
    }

    // Dominance frontiers (Cooper, Harvey and Kennedy), reachable blocks only.
    let mut frontier: HashMap<BlockId, HashSet<BlockId>> = HashMap::new();
    for &b in cfg.rpo() {
        let preds: Vec<BlockId> = cfg.reachable_preds(b).collect();
        if preds.len() < 2 {
            continue;
        }
        let Some(idom) = dom.idom(b) else { continue };
        for p in preds {
            let mut runner = p;
            while runner != idom {
                frontier.entry(runner).or_default().insert(b);
                match dom.idom(runner) {
                    Some(up) => runner = up,
                    None => break,
                }
            }
        }
    }

    // Block parameters where definitions meet, per block in promotion order.
    let mut phis: HashMap<BlockId, Vec<(Slot, ValueId)>> = HashMap::new();
    for &l in &promoted {
        let mut placed: HashSet<BlockId> = HashSet::new();
        let mut work: Vec<BlockId> = def_blocks.get(&l).cloned().unwrap_or_default();
        while let Some(b) = work.pop() {
            for &d in frontier.get(&b).into_iter().flatten() {
                if placed.insert(d) {
                    work.push(d);
                }
            }
        }
        let mut placed: Vec<BlockId> = placed.into_iter().collect();
        placed.sort();
        for b in placed {
            let p = f.add_block_param(b, ty[&l]);
            phis.entry(b).or_default().push((l, p));
        }
    }

    // Renaming, in dominator-tree preorder.
    let mut replace: HashMap<ValueId, ValueId> = HashMap::new();
    let mut removed: HashSet<InstId> = HashSet::new();
    let mut initial: HashMap<Slot, ValueId> = HashMap::new();
    for &l in &promoted {
        initial.insert(l, f.make_value(ty[&l], ValueDef::Undef));
    }
    let resolve = |replace: &HashMap<ValueId, ValueId>, mut v: ValueId| {
        while let Some(&w) = replace.get(&v) {
            v = w;
        }
        v
    };
    let mut stack: Vec<(BlockId, HashMap<Slot, ValueId>)> = vec![(cfg.entry(), initial)];
    while let Some((b, mut current)) = stack.pop() {
        for &(l, p) in phis.get(&b).into_iter().flatten() {
            current.insert(l, p);
        }
        for &i in &f.blocks[b].insts {
            match f.insts[i].kind {
                InstKind::Load { ptr, .. } => {
                    if let Some(l) = addr_of.get(&ptr).filter(|l| current.contains_key(l)) {
                        let r = f.insts[i].result.expect("checked above");
                        replace.insert(r, current[l]);
                        removed.insert(i);
                    }
                }
                InstKind::Store { ptr, value, .. } => {
                    if let Some(&l) = addr_of.get(&ptr).filter(|l| current.contains_key(l)) {
                        current.insert(l, resolve(&replace, value));
                        removed.insert(i);
                    }
                }
                _ => {}
            }
        }
        for call in f.blocks[b].term.block_calls_mut() {
            for &(l, _) in phis.get(&call.block).into_iter().flatten() {
                call.args.push(resolve(&replace, current[&l]));
            }
        }
        for child in dom.children(b) {
            stack.push((child, current.clone()));
        }
    }

    // Unreachable blocks never ran the renaming: their jumps to blocks that
    // gained parameters pass unspecified values.
    for b in f.blocks.keys().collect::<Vec<_>>() {
        if dom.is_reachable(b) {
            continue;
        }
        let mut term = f.blocks[b].term.clone();
        for call in term.block_calls_mut() {
            let extra: Vec<Type> = phis.get(&call.block).into_iter().flatten().map(|&(l, _)| ty[&l]).collect();
            for t in extra {
                let u = f.make_value(t, ValueDef::Undef);
                call.args.push(u);
            }
        }
        f.blocks[b].term = term;
    }

    // The promoted loads and stores (reachable ones) become no-ops, and
    // every use of a load's result reads the value it was replaced by.
    for &i in &removed {
        let local = match f.insts[i].kind {
            InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } => addr_of.get(&ptr).map(|&(l, _)| f.locals[l].name.clone()),
            _ => None,
        };
        f.insts[i].kind = InstKind::Nop { what: format!("promoted access to `{}`", local.unwrap_or_default()) };
        // The load's result has no use left; it stops naming the no-op.
        if let Some(r) = f.insts[i].result.take() {
            f.values[r].def = ValueDef::Undef;
        }
    }
    for inst in f.insts.values_mut() {
        inst.kind.map_operands(|v| resolve(&replace, v));
    }
    for block in f.blocks.values_mut() {
        match &mut block.term {
            Terminator::Branch { cond, .. } => *cond = resolve(&replace, *cond),
            Terminator::Return(Some(v)) => *v = resolve(&replace, *v),
            Terminator::Jump(_) | Terminator::Return(None) | Terminator::Unreachable => {}
        }
        for call in block.term.block_calls_mut() {
            call.args.iter_mut().for_each(|a| *a = resolve(&replace, *a));
        }
    }
    promoted.len()
}
