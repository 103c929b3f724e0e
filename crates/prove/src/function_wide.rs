//! Loop invariants placed at loop headers: function-wide invariants
//! (`__function_wide_invariant` and `__function_wide_candidate_invariant`,
//! GPUVerify's shorthand for a loop invariant stated once for every loop of
//! the function), and invariants of a loop condition that the compiler
//! split over several blocks (see `relocate_invariants`).
//!
//! The annotation can be written anywhere in the function (usually at its
//! end), so its SSA expression is computed at that point. This pass, run on
//! the inlined kernel before the encoding, moves it: for every loop header it
//! rebuilds the expression at the start of the header and places an ordinary
//! `invariant` (or `candidate_invariant`) annotation there, which the encoding
//! then checks on loop entry and preservation like any user invariant. The
//! original annotation stays where it is (the loads that feed it remain
//! annotation reads, not program accesses) but the encoding skips it
//! (`Inlined::function_wide_placed`): GPUVerify checks a function-wide
//! invariant at loop heads only, and a function without loops has nothing to
//! check.
//!
//! Rebuilding is sound whatever the expression means at the source level:
//! the placed invariant is a well-defined predicate of the state at the
//! header and is checked, never trusted. Values available at the header
//! (parameters, constants, the header's own parameters, and results of
//! instructions in blocks that strictly dominate it) are used as they are;
//! pure computations and annotation values (which read the race logs at
//! their position) are copied into the header. An expression that reads
//! memory or depends on a value not available at the header cannot be placed:
//! a candidate is then dropped for that loop (dropping a candidate is sound),
//! and an invariant makes the kernel `Unknown`, because an invariant the user
//! asked for must not be silently skipped.

use std::collections::HashMap;

use lockstep_kir::{AnnotKind, BlockId, Function, InstData, InstId, InstKind, ValueDef, ValueId};

use lockstep_analysis::block_order::{BlockOrder, LoopNest};
use crate::inlined::Inlined;

/// Copies every function-wide (candidate) invariant of the inlined kernel
/// to an invariant (candidate) annotation at each loop header, and marks
/// them placed. `origin` gets entries for the new instructions (those of the
/// annotation they come from). Fails with the reason and the annotation when
/// a function-wide invariant (not a candidate) cannot be placed at some loop
/// header.
pub fn place(inlined: &mut Inlined) -> Result<(), (String, InstId)> {
    let origin = &mut inlined.origin;
    let f = &mut inlined.func;
    let mut found: Vec<(InstId, AnnotKind, ValueId)> = Vec::new();
    for block in f.blocks.values() {
        for &i in &block.insts {
            if let InstKind::Annot { kind, args } = &f.insts[i].kind {
                if matches!(kind, AnnotKind::FunctionWideInvariant | AnnotKind::FunctionWideCandidateInvariant) {
                    found.push((i, *kind, args[0]));
                }
            }
        }
    }
    if found.is_empty() {
        inlined.function_wide_placed = true;
        return Ok(());
    }
    let cfg = BlockOrder::compute(f);
    // Irreducible control flow is reported by the encoding; leave the
    // function as it is (and the invariants unplaced) until then.
    let Ok(loops) = cfg.loops(f) else { return Ok(()) };
    let inst_blocks = f.inst_blocks();
    let mut headers: Vec<BlockId> = loops.loops.iter().map(|l| l.header).collect();
    headers.sort();
    for &(annot, kind, cond) in &found {
        let candidate = kind == AnnotKind::FunctionWideCandidateInvariant;
        for &h in &headers {
            let mut placer = Placer { f, cfg: &cfg, inst_blocks: &inst_blocks, header: h, copies: HashMap::new(), new_insts: Vec::new() };
            match placer.value(cond) {
                Ok(v) => {
                    let mut new_insts = placer.new_insts;
                    let loc = *f.inst_locs.get(annot);
                    let placed_kind = if candidate { AnnotKind::CandidateInvariant } else { AnnotKind::Invariant };
                    let inv = f.insts.push(InstData { kind: InstKind::Annot { kind: placed_kind, args: vec![v] }, result: None });
                    f.inst_locs.set(inv, loc);
                    new_insts.push((inv, annot));
                    for &(new, from) in &new_insts {
                        if let Some(&o) = origin.get(&from) {
                            origin.insert(new, o);
                        }
                    }
                    let mut insts: Vec<InstId> = new_insts.iter().map(|&(n, _)| n).collect();
                    insts.extend(f.blocks[h].insts.iter().copied());
                    f.blocks[h].insts = insts;
                }
                Err(reason) if !candidate => {
                    return Err((format!("function-wide invariant that {reason} is not supported"), annot));
                }
                // A candidate that cannot be stated at this loop is simply
                // not offered for it.
                Err(_) => {}
            }
        }
    }
    inlined.function_wide_placed = true;
    Ok(())
}

/// Moves loop invariants written in the loop's condition but not in its
/// header block (a condition with `__ite` or `?:` is compiled to branches,
/// which split it over several blocks) to the start of the header, rebuilt
/// there like function-wide invariants. Only invariants whose block is
/// reached from the header through blocks that compute and annotate (no
/// memory access, barrier or call) are moved. One that cannot be moved
/// stays where it is (and the encoding reports it as not in a loop header).
pub fn relocate_invariants(inlined: &mut Inlined) {
    let f = &mut inlined.func;
    let cfg = BlockOrder::compute(f);
    let Ok(loops) = cfg.loops(f) else { return };
    let inst_blocks = f.inst_blocks();
    let mut found: Vec<(BlockId, InstId, BlockId)> = Vec::new();
    for &b in &cfg.rpo {
        if loops.by_header.contains_key(&b) {
            continue;
        }
        let Some(l) = loops.innermost(b) else { continue };
        let header = loops.loops[l].header;
        for &i in &f.blocks[b].insts {
            if let InstKind::Annot {
                kind:
                    AnnotKind::Invariant
                    | AnnotKind::CandidateInvariant
                    | AnnotKind::GlobalInvariant
                    | AnnotKind::CandidateGlobalInvariant,
                ..
            } = f.insts[i].kind
            {
                found.push((b, i, header));
            }
        }
    }
    for (b, annot, header) in found {
        if !condition_region(f, &cfg, &loops, b, annot, header) {
            continue;
        }
        let InstKind::Annot { kind, args } = f.insts[annot].kind.clone() else { continue };
        let mut placer =
            Placer { f, cfg: &cfg, inst_blocks: &inst_blocks, header, copies: HashMap::new(), new_insts: Vec::new() };
        let Ok(v) = placer.value(args[0]) else { continue };
        let new_insts = placer.new_insts;
        f.blocks[b].insts.retain(|&x| x != annot);
        f.insts[annot].kind = InstKind::Annot { kind, args: vec![v] };
        let origin = &mut inlined.origin;
        for &(new, from) in &new_insts {
            if let Some(&o) = origin.get(&from) {
                origin.insert(new, o);
            }
        }
        let mut insts: Vec<InstId> = new_insts.iter().map(|&(n, _)| n).collect();
        insts.push(annot);
        insts.extend(f.blocks[header].insts.iter().copied());
        f.blocks[header].insts = insts;
    }
}

/// Whether every path from `header` to the annotation `annot` in block `b`
/// inside the loop passes only through code without effects (pure
/// computations and annotations).
fn condition_region(f: &Function, cfg: &BlockOrder, loops: &LoopNest, b: BlockId, annot: InstId, header: BlockId) -> bool {
    let Some(l) = loops.by_header.get(&header).copied() else { return false };
    let body = &loops.loops[l].blocks;
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![b];
    while let Some(x) = work.pop() {
        if x == header || !seen.insert(x) {
            continue;
        }
        if !body.contains(&x) || loops.by_header.contains_key(&x) {
            return false;
        }
        // In the annotation's own block, only what comes before it counts.
        let insts = &f.blocks[x].insts;
        let upto = if x == b { insts.iter().position(|&i| i == annot).unwrap_or(insts.len()) } else { insts.len() };
        let effect_free = insts[..upto].iter().all(|&i| {
            let k = &f.insts[i].kind;
            k.is_pure_computation() || matches!(k, InstKind::Annot { .. } | InstKind::AnnotValue { .. })
        });
        if !effect_free {
            return false;
        }
        let Some(preds) = cfg.preds.get(&x) else { return false };
        work.extend(preds.iter().copied());
    }
    true
}

/// Rebuilds one expression at the start of one loop header.
struct Placer<'a> {
    f: &'a mut Function,
    cfg: &'a BlockOrder,
    inst_blocks: &'a lockstep_kir::SecondaryMap<InstId, Option<BlockId>>,
    header: BlockId,
    /// Values already rebuilt at this header.
    copies: HashMap<ValueId, ValueId>,
    /// The copied instructions in dependency order, each with the
    /// instruction it copies.
    new_insts: Vec<(InstId, InstId)>,
}

impl Placer<'_> {
    fn value(&mut self, v: ValueId) -> Result<ValueId, String> {
        if let Some(&c) = self.copies.get(&v) {
            return Ok(c);
        }
        let def = self.f.values[v].def.clone();
        let out = match def {
            ValueDef::Inst(i) => {
                let def_block = self.inst_blocks.get(i).ok_or("depends on an instruction outside the function")?;
                // A value computed in a block that strictly dominates the
                // header is available there (the header's own instructions
                // come after the placed invariant).
                if def_block != self.header
                    && self.cfg.is_reachable(def_block)
                    && self.cfg.dominates(def_block, self.header)
                {
                    return Ok(v);
                }
                let kind = self.f.insts[i].kind.clone();
                match &kind {
                    k if k.is_pure_computation() => {}
                    InstKind::AnnotValue { .. } => {}
                    InstKind::Load { .. } | InstKind::Atomic { .. } | InstKind::CmpXchg { .. } => return Err("reads memory".into()),
                    _ => return Err("depends on a value not available at a loop header".into()),
                }
                let mut kind = kind;
                let mut failure = None;
                let mut mapped: HashMap<ValueId, ValueId> = HashMap::new();
                for op in kind.operands() {
                    match self.value(op) {
                        Ok(c) => {
                            mapped.insert(op, c);
                        }
                        Err(e) => failure = Some(e),
                    }
                }
                if let Some(e) = failure {
                    return Err(e);
                }
                kind.map_operands(|op| mapped[&op]);
                let ty = self.f.values[v].ty;
                let new = self.f.insts.next_key();
                let result = self.f.make_value(ty, ValueDef::Inst(new));
                self.f.values[result].name = self.f.values[v].name.clone();
                let pushed = self.f.insts.push(InstData { kind, result: Some(result) });
                debug_assert_eq!(pushed, new);
                let loc = *self.f.inst_locs.get(i);
                self.f.inst_locs.set(new, loc);
                self.new_insts.push((new, i));
                result
            }
            ValueDef::BlockParam(b, k) => {
                if self.cfg.is_reachable(b) && self.cfg.dominates(b, self.header) {
                    v
                } else if let Some((cond, then_v, else_v)) = self.cfg.gated_param(self.f, b, k as usize) {
                    // `c ? a : b` compiled to branches: a select at the header.
                    let c = self.value(cond)?;
                    let a = self.value(then_v)?;
                    let e = self.value(else_v)?;
                    let ty = self.f.values[v].ty;
                    let new = self.f.insts.next_key();
                    let result = self.f.make_value(ty, ValueDef::Inst(new));
                    let kind = InstKind::Select { cond: c, then_value: a, else_value: e };
                    let pushed = self.f.insts.push(InstData { kind, result: Some(result) });
                    debug_assert_eq!(pushed, new);
                    // Reported where the branch is.
                    let from = self.f.blocks[b].insts.first().copied();
                    if let Some(from) = from {
                        let loc = *self.f.inst_locs.get(from);
                        self.f.inst_locs.set(new, loc);
                        self.new_insts.push((new, from));
                    } else {
                        self.new_insts.push((new, new));
                    }
                    result
                } else {
                    return Err("depends on a value not available at a loop header".into());
                }
            }
            // Parameters, constants and addresses are the same everywhere.
            _ => v,
        };
        self.copies.insert(v, out);
        Ok(out)
    }
}
