//! Natural loops, their nesting, and irreducible regions.
//!
//! A back edge is an edge `latch -> header` whose target dominates its
//! source. The natural loop of a header is the header plus every block that
//! reaches one of its latches without passing through the header; back edges
//! that share a header form one loop with several latches. A retreating edge
//! (one that goes backwards in reverse postorder) whose target does *not*
//! dominate its source enters a cycle at more than one block: the CFG is then
//! irreducible, and the strongly connected component holding that edge is
//! reported as an `IrreducibleRegion` instead of being forced into a loop.
//!
//! Invariant: loops are numbered so that a parent comes before its children
//! (by header reverse-postorder); `blocks` of a loop include the blocks of
//! its nested loops; every block is mapped to its innermost loop. Natural
//! loops with distinct headers are either disjoint or nested, so the nesting
//! is a forest.

use std::collections::BTreeSet;

use lockstep_kir::{BlockId, EntityRef, Function, InstId, InstKind, PrimaryMap, SecondaryMap, ValueId};

use crate::cfg::Cfg;
use crate::dom::DomTree;

lockstep_kir::entity!(
    /// A natural loop of a `LoopInfo`.
    LoopId, "loop");

/// One natural loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// The single entry of the loop; it dominates every block of the loop.
    pub header: BlockId,
    /// Every block of the loop, nested loops included, in reverse postorder
    /// (so the header comes first).
    pub blocks: Vec<BlockId>,
    /// The sources of the back edges to the header, in reverse postorder.
    pub latches: Vec<BlockId>,
    /// Edges `(inside, outside)` that leave the loop, in reverse postorder of
    /// their sources.
    pub exits: Vec<(BlockId, BlockId)>,
    /// The innermost enclosing loop.
    pub parent: Option<LoopId>,
    /// 1 for an outermost loop, 2 for a loop nested in it, and so on.
    pub depth: u32,
    /// The header's block parameters: the values carried from one iteration
    /// to the next.
    pub carried: Vec<ValueId>,
    /// Instructions of the loop that may write memory: stores, atomics,
    /// compare-and-swap, `memcpy`/`memset`, and calls of module functions
    /// (whose effects are unknown until they are inlined).
    pub writes: Vec<InstId>,
    /// Instructions of the loop that are or may contain barriers: barriers
    /// of any scope and calls of module functions.
    pub barriers: Vec<InstId>,
}

impl Loop {
    /// Whether `b` belongs to this loop (or a loop nested in it).
    pub fn contains(&self, b: BlockId) -> bool {
        self.blocks.contains(&b)
    }
}

/// A strongly connected region of the CFG with more than one entry.
#[derive(Clone, Debug, PartialEq)]
pub struct IrreducibleRegion {
    /// Blocks of the region with a predecessor outside it (or the function
    /// entry), in reverse postorder. There are at least two.
    pub entries: Vec<BlockId>,
    /// Every block of the strongly connected component, in reverse postorder.
    pub blocks: Vec<BlockId>,
    /// The retreating edges of the region whose target does not dominate
    /// their source.
    pub retreating_edges: Vec<(BlockId, BlockId)>,
}

/// The loops of one function.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    loops: PrimaryMap<LoopId, Loop>,
    innermost: SecondaryMap<BlockId, Option<LoopId>>,
    irreducible: Vec<IrreducibleRegion>,
}

/// Whether an instruction may write memory (see `Loop::writes`).
pub fn may_write_memory(kind: &InstKind) -> bool {
    matches!(
        kind,
        InstKind::Store { .. }
            | InstKind::Atomic { .. }
            | InstKind::CmpXchg { .. }
            | InstKind::MemCopy { .. }
            | InstKind::MemSet { .. }
            | InstKind::Call { .. }
    )
}

/// Whether an instruction is or may contain a barrier (see `Loop::barriers`).
pub fn may_be_barrier(kind: &InstKind) -> bool {
    matches!(kind, InstKind::Barrier { .. } | InstKind::Call { .. })
}

impl LoopInfo {
    /// Finds the loops of `func` given its CFG and dominator tree.
    pub fn compute(func: &Function, cfg: &Cfg, dom: &DomTree) -> LoopInfo {
        // Back edges grouped by header, headers in reverse postorder so that
        // outer loops (whose headers dominate inner ones) come first.
        let mut headers: Vec<BlockId> = Vec::new();
        let mut latches: SecondaryMap<BlockId, Vec<BlockId>> = SecondaryMap::new();
        let mut bad_edges: Vec<(BlockId, BlockId)> = Vec::new();
        for &b in cfg.rpo() {
            for &s in cfg.succs(b) {
                if !cfg.is_retreating(b, s) {
                    continue;
                }
                if dom.dominates(s, b) {
                    if latches[s].is_empty() {
                        headers.push(s);
                    }
                    latches[s].push(b);
                } else {
                    bad_edges.push((b, s));
                }
            }
        }
        headers.sort_by_key(|&h| cfg.rpo_index(h));

        let mut loops: PrimaryMap<LoopId, Loop> = PrimaryMap::new();
        for &h in &headers {
            // Walk backwards from the latches; the header stops the walk.
            let mut body: BTreeSet<BlockId> = BTreeSet::new();
            body.insert(h);
            let mut work: Vec<BlockId> = latches[h].clone();
            while let Some(b) = work.pop() {
                if body.insert(b) {
                    work.extend(cfg.reachable_preds(b));
                }
            }
            let mut blocks: Vec<BlockId> = body.iter().copied().collect();
            blocks.sort_by_key(|&b| cfg.rpo_index(b));
            let mut exits = Vec::new();
            for &b in &blocks {
                for &s in cfg.succs(b) {
                    if !body.contains(&s) {
                        exits.push((b, s));
                    }
                }
            }
            let mut lat = latches[h].clone();
            lat.sort_by_key(|&b| cfg.rpo_index(b));
            let mut writes = Vec::new();
            let mut barriers = Vec::new();
            for &b in &blocks {
                for &i in &func.blocks[b].insts {
                    let kind = &func.insts[i].kind;
                    if may_write_memory(kind) {
                        writes.push(i);
                    }
                    if may_be_barrier(kind) {
                        barriers.push(i);
                    }
                }
            }
            loops.push(Loop {
                header: h,
                blocks,
                latches: lat,
                exits,
                parent: None,
                depth: 1,
                carried: func.blocks[h].params.clone(),
                writes,
                barriers,
            });
        }

        // Nesting: the parent of a loop is the smallest other loop holding
        // its header. Parents have smaller ids, so depths are final when read.
        let ids: Vec<LoopId> = loops.keys().collect();
        for &l in &ids {
            let header = loops[l].header;
            let parent = ids
                .iter()
                .copied()
                .filter(|&o| o != l && loops[o].contains(header))
                .min_by_key(|&o| loops[o].blocks.len());
            let depth = parent.map_or(1, |p| loops[p].depth + 1);
            loops[l].parent = parent;
            loops[l].depth = depth;
        }
        let mut innermost: SecondaryMap<BlockId, Option<LoopId>> = SecondaryMap::new();
        // Outer loops come first, so a later (deeper) loop overwrites.
        let mut by_depth = ids.clone();
        by_depth.sort_by_key(|&l| loops[l].depth);
        for &l in &by_depth {
            for &b in &loops[l].blocks {
                innermost.set(b, Some(l));
            }
        }

        let irreducible = irreducible_regions(cfg, &bad_edges);
        LoopInfo { loops, innermost, irreducible }
    }

    /// Every loop, parents before children.
    pub fn loops(&self) -> impl Iterator<Item = (LoopId, &Loop)> {
        self.loops.iter()
    }

    pub fn len(&self) -> usize {
        self.loops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.loops.is_empty()
    }

    pub fn get(&self, l: LoopId) -> &Loop {
        &self.loops[l]
    }

    /// The innermost loop containing `b`.
    pub fn innermost(&self, b: BlockId) -> Option<LoopId> {
        *self.innermost.get(b)
    }

    /// The loop whose header is `b`.
    pub fn loop_with_header(&self, b: BlockId) -> Option<LoopId> {
        self.innermost(b).filter(|&l| self.loops[l].header == b)
    }

    /// The loop nesting depth of `b` (0 outside every loop).
    pub fn depth(&self, b: BlockId) -> u32 {
        self.innermost(b).map_or(0, |l| self.loops[l].depth)
    }

    /// `l` and its enclosing loops, innermost first.
    pub fn ancestors(&self, l: LoopId) -> impl Iterator<Item = LoopId> + '_ {
        std::iter::successors(Some(l), move |&x| self.loops[x].parent)
    }

    /// Whether every cycle of the CFG is a natural loop.
    pub fn is_reducible(&self) -> bool {
        self.irreducible.is_empty()
    }

    /// The multi-entry cycles found, if the CFG is irreducible.
    pub fn irreducible(&self) -> &[IrreducibleRegion] {
        &self.irreducible
    }
}

/// Groups the retreating non-back edges by the strongly connected component
/// that contains them (Tarjan's algorithm over the reachable CFG).
fn irreducible_regions(cfg: &Cfg, bad_edges: &[(BlockId, BlockId)]) -> Vec<IrreducibleRegion> {
    if bad_edges.is_empty() {
        return Vec::new();
    }
    let scc = scc_ids(cfg);
    let mut regions: Vec<(usize, IrreducibleRegion)> = Vec::new();
    for &(from, to) in bad_edges {
        let id = scc[from.index()];
        if let Some((_, r)) = regions.iter_mut().find(|(sid, _)| *sid == id) {
            r.retreating_edges.push((from, to));
            continue;
        }
        let blocks: Vec<BlockId> = cfg.rpo().iter().copied().filter(|b| scc[b.index()] == id).collect();
        let entries: Vec<BlockId> = blocks
            .iter()
            .copied()
            .filter(|&b| b == cfg.entry() || cfg.reachable_preds(b).any(|p| scc[p.index()] != id))
            .collect();
        regions.push((id, IrreducibleRegion { entries, blocks, retreating_edges: vec![(from, to)] }));
    }
    regions.into_iter().map(|(_, r)| r).collect()
}

/// The strongly connected component of each reachable block (an arbitrary
/// but consistent number; `usize::MAX` for unreachable blocks). Iterative
/// Tarjan, so that deep graphs cannot overflow the stack.
fn scc_ids(cfg: &Cfg) -> Vec<usize> {
    let n = cfg.num_blocks();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut counter = 0;
    let mut comps = 0;
    for &root in cfg.rpo() {
        if index[root.index()] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root.index(), 0)];
        index[root.index()] = counter;
        low[root.index()] = counter;
        counter += 1;
        stack.push(root.index());
        on_stack[root.index()] = true;
        while let Some(&mut (v, ref mut next)) = call.last_mut() {
            let succs = cfg.succs(BlockId::new(v));
            if let Some(&s) = succs.get(*next) {
                *next += 1;
                let w = s.index();
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = comps;
                        if w == v {
                            break;
                        }
                    }
                    comps += 1;
                }
            }
        }
    }
    comp
}

/// Convenience: the CFG, dominator tree and loops of a function at once.
pub fn analyze(func: &Function) -> (Cfg, DomTree, LoopInfo) {
    let cfg = Cfg::compute(func);
    let dom = DomTree::compute(&cfg);
    let loops = LoopInfo::compute(func, &cfg, &dom);
    (cfg, dom, loops)
}
