//! Control-flow facts the product encoding needs: reverse postorder,
//! predecessors, dominators, natural loops and a reducibility check.
//!
//! This is a minimal private version: the shared analysis crate
//! (`lockstep-analysis`) was still being written when this crate was, and its
//! loop analysis was not available. Only blocks reachable from the entry are
//! considered; unreachable blocks are never encoded.

use std::collections::{BTreeSet, HashMap};

use lockstep_kir::{BlockId, EntityRef, Function, Terminator, ValueId};

/// Successors, predecessors and a reverse postorder of the reachable blocks.
pub struct Cfg {
    pub rpo: Vec<BlockId>,
    pub rpo_index: HashMap<BlockId, usize>,
    pub preds: HashMap<BlockId, Vec<BlockId>>,
    idom: HashMap<BlockId, BlockId>,
}

/// A natural loop: a header and the blocks that reach a back edge to it
/// without passing through the header.
#[derive(Clone, Debug)]
pub struct NaturalLoop {
    pub header: BlockId,
    pub blocks: BTreeSet<BlockId>,
    /// The loop immediately containing this one, by index into `Loops::loops`.
    pub parent: Option<usize>,
}

/// All natural loops of a function.
pub struct Loops {
    pub loops: Vec<NaturalLoop>,
    /// The loop whose header is this block.
    pub by_header: HashMap<BlockId, usize>,
}

impl Cfg {
    pub fn compute(func: &Function) -> Cfg {
        let succs = |b: BlockId| func.blocks[b].term.successors();
        let mut visited = vec![false; func.blocks.len()];
        let mut post = Vec::new();
        let mut stack: Vec<(BlockId, Vec<BlockId>)> = vec![(func.entry, {
            let mut s = succs(func.entry);
            s.reverse();
            s
        })];
        visited[func.entry.index()] = true;
        while let Some((b, pending)) = stack.last_mut() {
            match pending.pop() {
                Some(s) if !visited[s.index()] => {
                    visited[s.index()] = true;
                    let mut next = succs(s);
                    next.reverse();
                    stack.push((s, next));
                }
                Some(_) => {}
                None => {
                    post.push(*b);
                    stack.pop();
                }
            }
        }
        let rpo: Vec<BlockId> = post.into_iter().rev().collect();
        let rpo_index: HashMap<BlockId, usize> = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut preds: HashMap<BlockId, Vec<BlockId>> = rpo.iter().map(|&b| (b, Vec::new())).collect();
        for &b in &rpo {
            for s in succs(b) {
                let list = preds.get_mut(&s).expect("successor of a reachable block is reachable");
                if !list.contains(&b) {
                    list.push(b);
                }
            }
        }
        // Cooper, Harvey and Kennedy's iterative dominator algorithm.
        let mut idom: HashMap<BlockId, BlockId> = HashMap::new();
        idom.insert(func.entry, func.entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<BlockId> = None;
                for &p in &preds[&b] {
                    if !idom.contains_key(&p) {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => {
                            let (mut x, mut y) = (cur, p);
                            while x != y {
                                while rpo_index[&x] > rpo_index[&y] {
                                    x = idom[&x];
                                }
                                while rpo_index[&y] > rpo_index[&x] {
                                    y = idom[&y];
                                }
                            }
                            x
                        }
                    });
                }
                if let Some(n) = new {
                    if idom.get(&b) != Some(&n) {
                        idom.insert(b, n);
                        changed = true;
                    }
                }
            }
        }
        Cfg { rpo, rpo_index, preds, idom }
    }

    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.rpo_index.contains_key(&b)
    }

    /// Whether `a` dominates `b` (both reachable).
    pub fn dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        loop {
            if a == b {
                return true;
            }
            let up = self.idom[&b];
            if up == b {
                return false;
            }
            b = up;
        }
    }

    /// Finds the natural loops, or the first edge that makes the CFG
    /// irreducible (a retreating edge whose target does not dominate its
    /// source).
    pub fn loops(&self, func: &Function) -> Result<Loops, (BlockId, BlockId)> {
        let mut bodies: Vec<(BlockId, BTreeSet<BlockId>)> = Vec::new();
        let mut by_header: HashMap<BlockId, usize> = HashMap::new();
        for &b in &self.rpo {
            for s in func.blocks[b].term.successors() {
                if self.rpo_index[&s] > self.rpo_index[&b] {
                    continue;
                }
                if !self.dominates(s, b) {
                    return Err((b, s));
                }
                // Back edge b -> s: collect the natural loop.
                let idx = *by_header.entry(s).or_insert_with(|| {
                    bodies.push((s, BTreeSet::from([s])));
                    bodies.len() - 1
                });
                let mut work = vec![b];
                while let Some(x) = work.pop() {
                    if bodies[idx].1.insert(x) {
                        work.extend(self.preds[&x].iter().copied());
                    }
                }
            }
        }
        let mut loops: Vec<NaturalLoop> =
            bodies.into_iter().map(|(header, blocks)| NaturalLoop { header, blocks, parent: None }).collect();
        for i in 0..loops.len() {
            let mut best: Option<usize> = None;
            for j in 0..loops.len() {
                if i != j
                    && loops[j].blocks.contains(&loops[i].header)
                    && loops[j].blocks.len() > loops[i].blocks.len()
                    && best.map_or(true, |k| loops[j].blocks.len() < loops[k].blocks.len())
                {
                    best = Some(j);
                }
            }
            loops[i].parent = best;
        }
        Ok(Loops { loops, by_header })
    }
}

impl Cfg {
    /// For parameter `k` of block `blk` when `blk` is reached from the two
    /// sides of one branch (directly, or through a block that only jumps
    /// on): the branch's condition and the values passed on its then and
    /// else sides. This is how `c ? a : b` looks once compiled to branches.
    pub fn gated_param(&self, func: &Function, blk: BlockId, k: usize) -> Option<(ValueId, ValueId, ValueId)> {
        // (branching block, taken on the then side, value passed)
        let mut edges: Vec<(BlockId, bool, ValueId)> = Vec::new();
        for &x in self.preds.get(&blk)? {
            match &func.blocks[x].term {
                Terminator::Jump(call) if call.block == blk => {
                    let preds = self.preds.get(&x)?;
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
}

impl Loops {
    /// The innermost loop containing `b`, if any.
    pub fn innermost(&self, b: BlockId) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, l) in self.loops.iter().enumerate() {
            if l.blocks.contains(&b) && best.map_or(true, |k| l.blocks.len() < self.loops[k].blocks.len()) {
                best = Some(i);
            }
        }
        best
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
