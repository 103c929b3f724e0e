//! Promotion of private locals to SSA values, after inlining.
//!
//! The front end runs LLVM's `mem2reg`, but a local whose address is passed
//! to a function (an out-parameter, a by-reference argument) stays in
//! memory until the prover inlines the call. The encoding keeps the values
//! of private memory only within a block (store-to-load forwarding); across
//! blocks a load from private memory is arbitrary, so such a local loses its
//! value at every branch. This pass gives it SSA form instead: a local whose
//! address is only ever the address of loads and stores of one type (never
//! offset, stored, passed on or compared) becomes a value, with a block
//! parameter where definitions meet (the iterated dominance frontier of its
//! stores), and its loads and stores disappear. A load before any store
//! reads an unspecified value, as the memory would.

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

/// Promotes every promotable private local of `f`; returns how many.
pub fn promote_private_locals(f: &mut Function) -> usize {
    let mut addr_of: HashMap<ValueId, LocalId> = f
        .values
        .iter()
        .filter_map(|(v, d)| match d.def {
            ValueDef::LocalAddr(l) if f.locals[l].space == MemSpace::Private => Some((v, l)),
            _ => None,
        })
        .collect();
    // Address-space casts of an address (CUDA passes a local's address to
    // a function as a generic pointer) are the same address.
    let mut aliases: HashSet<InstId> = HashSet::new();
    loop {
        let before = addr_of.len();
        for (i, inst) in f.insts.iter() {
            if let (InstKind::Cast { op: CastOp::AddrSpaceCast, arg }, Some(r)) = (&inst.kind, inst.result) {
                if let Some(&l) = addr_of.get(arg) {
                    addr_of.insert(r, l);
                    aliases.insert(i);
                }
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

    // Which locals qualify, with their type and the blocks that store to them.
    let mut ty: HashMap<LocalId, Type> = HashMap::new();
    let mut bad: HashSet<LocalId> = HashSet::new();
    let mut def_blocks: HashMap<LocalId, Vec<BlockId>> = HashMap::new();
    // Pointers of different spaces are one kind of value to the encoding
    // (a base and an offset); a local that holds both is generic.
    let mut note_type = |l: LocalId, t: Type, bad: &mut HashSet<LocalId>| {
        let seen = ty.entry(l).or_insert(t);
        match (*seen, t) {
            (a, b) if a == b => {}
            (Type::Ptr(_), Type::Ptr(_)) => *seen = Type::Ptr(MemSpace::Generic),
            _ => {
                bad.insert(l);
            }
        }
    };
    for (b, block) in f.blocks.iter() {
        for &i in &block.insts {
            let kind = &f.insts[i].kind;
            match kind {
                InstKind::Load { ptr, .. } if addr_of.contains_key(ptr) => {
                    let Some(r) = f.insts[i].result else {
                        bad.insert(addr_of[ptr]);
                        continue;
                    };
                    note_type(addr_of[ptr], f.value_type(r), &mut bad);
                }
                InstKind::Store { ptr, value, .. } if addr_of.contains_key(ptr) && !addr_of.contains_key(value) => {
                    let l = addr_of[ptr];
                    note_type(l, f.value_type(*value), &mut bad);
                    def_blocks.entry(l).or_default().push(b);
                }
                _ if aliases.contains(&i) => {}
                _ => kind.for_each_operand(|v| {
                    if let Some(&l) = addr_of.get(&v) {
                        bad.insert(l);
                    }
                }),
            }
        }
        for v in block.term.operands() {
            if let Some(&l) = addr_of.get(&v) {
                bad.insert(l);
            }
        }
    }
    let mut promoted: Vec<LocalId> = ty.keys().copied().filter(|l| !bad.contains(l)).collect();
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
    let mut phis: HashMap<BlockId, Vec<(LocalId, ValueId)>> = HashMap::new();
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
    let mut initial: HashMap<LocalId, ValueId> = HashMap::new();
    for &l in &promoted {
        initial.insert(l, f.make_value(ty[&l], ValueDef::Undef));
    }
    let resolve = |replace: &HashMap<ValueId, ValueId>, mut v: ValueId| {
        while let Some(&w) = replace.get(&v) {
            v = w;
        }
        v
    };
    let mut stack: Vec<(BlockId, HashMap<LocalId, ValueId>)> = vec![(cfg.entry(), initial)];
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
            InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } => addr_of.get(&ptr).map(|&l| f.locals[l].name.clone()),
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
