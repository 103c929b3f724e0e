//! The control-flow graph of a function: successors and predecessors of each
//! block, a reverse postorder, and the set of blocks reachable from the entry.
//!
//! Invariant: every edge list is free of duplicates (a branch whose two arms
//! name the same block contributes one edge) and names only blocks that exist;
//! the reverse postorder lists exactly the reachable blocks, entry first.
//! Predecessor lists include unreachable predecessors, because a jump from
//! dead code is still an edge; use `reachable_preds` to skip them.

use lockstep_kir::{BlockId, EntityRef, Function, SecondaryMap, Terminator};

/// Successor and predecessor lists plus a depth-first ordering.
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: BlockId,
    num_blocks: usize,
    succs: SecondaryMap<BlockId, Vec<BlockId>>,
    preds: SecondaryMap<BlockId, Vec<BlockId>>,
    rpo: Vec<BlockId>,
    /// Position of each reachable block in `rpo`; `usize::MAX` otherwise.
    rpo_index: SecondaryMap<BlockId, usize>,
}

impl Cfg {
    /// Computes the CFG of `func`. Jumps to blocks that do not exist (which
    /// `verify` rejects) are ignored rather than followed.
    pub fn compute(func: &Function) -> Cfg {
        let num_blocks = func.blocks.len();
        let mut succs: SecondaryMap<BlockId, Vec<BlockId>> = SecondaryMap::new();
        let mut preds: SecondaryMap<BlockId, Vec<BlockId>> = SecondaryMap::new();
        for (b, block) in func.blocks.iter() {
            let mut out: Vec<BlockId> = Vec::new();
            for s in block.term.successors() {
                if func.blocks.is_valid(s) && !out.contains(&s) {
                    out.push(s);
                }
            }
            for &s in &out {
                preds[s].push(b);
            }
            succs.set(b, out);
        }

        // An iterative depth-first search, so that deep CFGs cannot overflow
        // the stack. Successors are visited in terminator order (the `then`
        // arm first), which makes the order deterministic.
        let mut rpo_index = SecondaryMap::with_default(usize::MAX);
        let mut postorder = Vec::with_capacity(num_blocks);
        if func.blocks.is_valid(func.entry) {
            let mut visited = vec![false; num_blocks];
            let mut stack: Vec<(BlockId, usize)> = vec![(func.entry, 0)];
            visited[func.entry.index()] = true;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                if let Some(&s) = succs[b].get(*next) {
                    *next += 1;
                    if !visited[s.index()] {
                        visited[s.index()] = true;
                        stack.push((s, 0));
                    }
                } else {
                    postorder.push(b);
                    stack.pop();
                }
            }
        }
        let rpo: Vec<BlockId> = postorder.into_iter().rev().collect();
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index.set(b, i);
        }
        Cfg { entry: func.entry, num_blocks, succs, preds, rpo, rpo_index }
    }

    /// The entry block.
    pub fn entry(&self) -> BlockId {
        self.entry
    }

    /// The number of blocks of the function (reachable or not).
    pub fn num_blocks(&self) -> usize {
        self.num_blocks
    }

    /// All blocks of the function, in id order.
    pub fn blocks(&self) -> impl Iterator<Item = BlockId> {
        (0..self.num_blocks).map(BlockId::new)
    }

    /// The distinct successors of `b`, in terminator order.
    pub fn succs(&self, b: BlockId) -> &[BlockId] {
        &self.succs[b]
    }

    /// The distinct predecessors of `b`, reachable or not, in id order.
    pub fn preds(&self, b: BlockId) -> &[BlockId] {
        &self.preds[b]
    }

    /// The predecessors of `b` that are reachable from the entry.
    pub fn reachable_preds(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.preds[b].iter().copied().filter(|&p| self.is_reachable(p))
    }

    /// The reachable blocks in reverse postorder: every block comes before
    /// its successors except along retreating edges.
    pub fn rpo(&self) -> &[BlockId] {
        &self.rpo
    }

    /// Position of `b` in `rpo()`, or `None` if `b` is unreachable.
    pub fn rpo_index(&self, b: BlockId) -> Option<usize> {
        let i = self.rpo_index[b];
        (i != usize::MAX).then_some(i)
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.rpo_index[b] != usize::MAX
    }

    /// The reachable blocks, in id order.
    pub fn reachable_blocks(&self) -> Vec<BlockId> {
        self.blocks().filter(|&b| self.is_reachable(b)).collect()
    }

    /// Reachable blocks that leave the function: those ending in `return` or
    /// `unreachable`. They are the roots of the post-dominator tree.
    pub fn exit_blocks<'a>(&'a self, func: &'a Function) -> impl Iterator<Item = BlockId> + 'a {
        self.rpo.iter().copied().filter(move |&b| {
            matches!(func.blocks[b].term, Terminator::Return(_) | Terminator::Unreachable)
        })
    }

    /// Whether the edge `from -> to` is retreating: it goes to a block that
    /// does not come later in reverse postorder (a back edge of a loop, or
    /// the entry edge of an irreducible cycle).
    pub fn is_retreating(&self, from: BlockId, to: BlockId) -> bool {
        match (self.rpo_index(from), self.rpo_index(to)) {
            (Some(f), Some(t)) => t <= f,
            _ => false,
        }
    }
}
