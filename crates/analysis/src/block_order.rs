//! The control-flow facts of `cfg`, `dom` and `loops` in the form an encoder
//! that walks a function block by block needs: the reverse postorder with
//! each block's position, the reachable predecessors and dominators of the
//! reachable blocks, and the natural loops as numbered block sets, outer
//! loops before the loops they contain (the prover's encoding walks them so).
//!
//! No algorithm lives here: `BlockOrder` and `LoopNest` are views of `Cfg`,
//! `DomTree` and `LoopInfo`. Only blocks reachable from the entry are
//! considered; an irreducible function has no `LoopNest` (the edge that
//! makes it irreducible is returned instead).

use std::collections::{BTreeSet, HashMap};

use crate::{Cfg, DomTree, LoopInfo};
use lockstep_kir::{BlockId, Function, ValueId};

/// Predecessors and a reverse postorder of the reachable blocks.
pub struct BlockOrder {
    pub rpo: Vec<BlockId>,
    pub rpo_index: HashMap<BlockId, usize>,
    pub preds: HashMap<BlockId, Vec<BlockId>>,
    graph: Cfg,
    dom: DomTree,
}

/// A natural loop: a header and the blocks that reach a back edge to it
/// without passing through the header.
#[derive(Clone, Debug)]
pub struct NaturalLoop {
    pub header: BlockId,
    pub blocks: BTreeSet<BlockId>,
    /// The loop immediately containing this one, by index into `LoopNest::loops`.
    pub parent: Option<usize>,
}

/// All natural loops of a function, outer loops before the loops they
/// contain.
pub struct LoopNest {
    pub loops: Vec<NaturalLoop>,
    /// The loop whose header is this block.
    pub by_header: HashMap<BlockId, usize>,
    innermost: HashMap<BlockId, usize>,
}

impl BlockOrder {
    pub fn compute(func: &Function) -> BlockOrder {
        let graph = Cfg::compute(func);
        let dom = DomTree::compute(&graph);
        let rpo = graph.rpo().to_vec();
        let rpo_index = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let preds = rpo.iter().map(|&b| (b, graph.reachable_preds(b).collect())).collect();
        BlockOrder { rpo, rpo_index, preds, graph, dom }
    }

    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.rpo_index.contains_key(&b)
    }

    /// Whether `a` dominates `b` (both reachable).
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        self.dom.dominates(a, b)
    }

    /// The natural loops, or an edge that makes the CFG irreducible (a
    /// retreating edge whose target does not dominate its source).
    pub fn loops(&self, func: &Function) -> Result<LoopNest, (BlockId, BlockId)> {
        let info = LoopInfo::compute(func, &self.graph, &self.dom);
        if let Some(r) = info.irreducible().first() {
            return Err(r.retreating_edges.first().copied().unwrap_or((r.blocks[0], r.entries[0])));
        }
        let ids: Vec<_> = info.loops().map(|(id, _)| id).collect();
        let index: HashMap<_, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let loops: Vec<NaturalLoop> = info
            .loops()
            .map(|(_, l)| NaturalLoop {
                header: l.header,
                blocks: l.blocks.iter().copied().collect(),
                parent: l.parent.map(|p| index[&p]),
            })
            .collect();
        let by_header = loops.iter().enumerate().map(|(i, l)| (l.header, i)).collect();
        let innermost =
            self.rpo.iter().filter_map(|&b| info.innermost(b).map(|l| (b, index[&l]))).collect();
        Ok(LoopNest { loops, by_header, innermost })
    }

    /// See `crate::cfg::gated_param`.
    pub fn gated_param(&self, func: &Function, blk: BlockId, k: usize) -> Option<(ValueId, ValueId, ValueId)> {
        crate::cfg::gated_param(func, &self.graph, blk, k)
    }
}

impl LoopNest {
    /// The innermost loop containing `b`, if any.
    pub fn innermost(&self, b: BlockId) -> Option<usize> {
        self.innermost.get(&b).copied()
    }

    /// The loops containing `b`, innermost first.
    pub fn enclosing(&self, b: BlockId) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = self.innermost(b);
        while let Some(l) = cur {
            out.push(l);
            cur = self.loops[l].parent;
        }
        out
    }
}
