//! The control-flow graph of a function: successors and predecessors of each
//! block, a reverse postorder, and the set of blocks reachable from the entry.
//!
//! Invariant: every edge list is free of duplicates (a branch whose two arms
//! name the same block contributes one edge) and names only blocks that exist;
//! the reverse postorder lists exactly the reachable blocks, entry first.
//! Predecessor lists include unreachable predecessors, because a jump from
//! dead code is still an edge; use `reachable_preds` to skip them.

use lockstep_kir::{BlockId, EntityRef, Function, SecondaryMap, Terminator, ValueId};

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

/// For parameter `k` of block `blk` when `blk` is reached from the two
/// sides of one branch (directly, or through a block that only jumps
/// on): the branch's condition and the values passed on its then and
/// else sides. This is how `c ? a : b` looks once compiled to branches.
pub fn gated_param(func: &Function, cfg: &Cfg, blk: BlockId, k: usize) -> Option<(ValueId, ValueId, ValueId)> {
    // (branching block, taken on the then side, value passed)
    let mut edges: Vec<(BlockId, bool, ValueId)> = Vec::new();
    if !cfg.is_reachable(blk) {
        return None;
    }
    for x in cfg.reachable_preds(blk) {
        match &func.blocks[x].term {
            Terminator::Jump(call) if call.block == blk => {
                let preds: Vec<BlockId> = cfg.reachable_preds(x).collect();
                let [d] = preds.as_slice() else { return None };
                let Terminator::Branch { then_dest, else_dest, .. } = &func.blocks[*d].term else {
                    return None;
                };
                if then_dest.block == else_dest.block {
                    return None;
                }
                let side = if then_dest.block == x {
                    true
                } else if else_dest.block == x {
                    false
                } else {
                    return None;
                };
                edges.push((*d, side, *call.args.get(k)?));
            }
            Terminator::Branch { then_dest, else_dest, .. } => {
                if then_dest.block == blk {
                    edges.push((x, true, *then_dest.args.get(k)?));
                }
                if else_dest.block == blk {
                    edges.push((x, false, *else_dest.args.get(k)?));
                }
            }
            _ => return None,
        }
    }
    let [(d1, s1, v1), (d2, s2, v2)] = edges.as_slice() else { return None };
    if d1 != d2 || s1 == s2 {
        return None;
    }
    let Terminator::Branch { cond, .. } = &func.blocks[*d1].term else { return None };
    Some(if *s1 { (*cond, *v1, *v2) } else { (*cond, *v2, *v1) })
}
