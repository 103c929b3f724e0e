//! Dominator and post-dominator trees.
//!
//! Both trees are computed by the iterative algorithm of Cooper, Harvey and
//! Kennedy ("A Simple, Fast Dominance Algorithm") over a `Cfg`; the
//! post-dominator tree runs it on the reversed graph from a virtual exit node
//! that every `return`/`unreachable` block flows into. `lockstep_kir`'s own
//! `Dominators` (used by the verifier) is forward-only and walks the IR
//! directly, so this module carries a graph-generic version that serves both
//! directions and answers `dominates` in constant time from tree numbering.
//!
//! Invariant: a block has an immediate dominator iff it is reachable and not
//! the entry; a reachable block has an immediate post-dominator iff it is not
//! post-dominated only by the virtual exit. Blocks that cannot reach any exit
//! (the body of an infinite loop) are treated as exits themselves, joined to
//! the virtual exit: they have no immediate post-dominator and post-dominate
//! nothing but themselves, so no branch appears to reconverge at a block
//! that the threads spinning in such a loop never reach.

use lockstep_kir::{BlockId, EntityRef, Function};

use crate::cfg::Cfg;

const NONE: usize = usize::MAX;

/// A dominator tree over dense node numbers, shared by both directions.
#[derive(Clone, Debug)]
struct Tree {
    /// Immediate dominator of each node; `NONE` for the root and for nodes
    /// outside the tree. The root is the only node that is its own parent
    /// in the algorithm; it is stored as `NONE` here.
    idom: Vec<usize>,
    /// Preorder and postorder numbers in the tree, for O(1) ancestry tests.
    pre: Vec<usize>,
    post: Vec<usize>,
    children: Vec<Vec<usize>>,
}

impl Tree {
    /// Runs Cooper–Harvey–Kennedy on the graph with `n` nodes, rooted at
    /// `root`, whose edges are given by `succs` (and reversed in `preds`).
    fn compute(n: usize, root: usize, succs: &[Vec<usize>], preds: &[Vec<usize>]) -> Tree {
        // Reverse postorder from the root, by an iterative depth-first search.
        let mut order_index = vec![NONE; n];
        let mut postorder = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        visited[root] = true;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&s) = succs[v].get(*next) {
                *next += 1;
                if !visited[s] {
                    visited[s] = true;
                    stack.push((s, 0));
                }
            } else {
                postorder.push(v);
                stack.pop();
            }
        }
        let rpo: Vec<usize> = postorder.into_iter().rev().collect();
        for (i, &v) in rpo.iter().enumerate() {
            order_index[v] = i;
        }

        let mut idom = vec![NONE; n];
        idom[root] = root;
        let mut changed = true;
        while changed {
            changed = false;
            for &v in rpo.iter().skip(1) {
                let mut new_idom = NONE;
                for &p in &preds[v] {
                    if idom[p] == NONE {
                        continue;
                    }
                    new_idom = if new_idom == NONE { p } else { intersect(&idom, &order_index, p, new_idom) };
                }
                if idom[v] != new_idom {
                    idom[v] = new_idom;
                    changed = true;
                }
            }
        }
        idom[root] = NONE;

        let mut children = vec![Vec::new(); n];
        for &v in &rpo {
            if idom[v] != NONE {
                children[idom[v]].push(v);
            }
        }
        let mut pre = vec![NONE; n];
        let mut post = vec![NONE; n];
        let (mut pre_n, mut post_n) = (0, 0);
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        pre[root] = pre_n;
        pre_n += 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[v].get(*next) {
                *next += 1;
                pre[c] = pre_n;
                pre_n += 1;
                stack.push((c, 0));
            } else {
                post[v] = post_n;
                post_n += 1;
                stack.pop();
            }
        }
        Tree { idom, pre, post, children }
    }

    fn contains(&self, v: usize) -> bool {
        self.pre[v] != NONE
    }

    /// Whether `a` is an ancestor of `b` (or `b` itself) in the tree.
    fn is_ancestor(&self, a: usize, b: usize) -> bool {
        self.contains(a) && self.contains(b) && self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// The CHK "intersect": walks two fingers up the partial tree until they meet.
fn intersect(idom: &[usize], order_index: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while order_index[a] > order_index[b] {
            a = idom[a];
        }
        while order_index[b] > order_index[a] {
            b = idom[b];
        }
    }
    a
}

/// The dominator tree of the reachable blocks of a function.
#[derive(Clone, Debug)]
pub struct DomTree {
    tree: Tree,
}

impl DomTree {
    /// Computes the dominator tree from the CFG. Only edges from reachable
    /// blocks count: dead code cannot weaken dominance.
    pub fn compute(cfg: &Cfg) -> DomTree {
        let n = cfg.num_blocks();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for &b in cfg.rpo() {
            for &s in cfg.succs(b) {
                succs[b.index()].push(s.index());
                preds[s.index()].push(b.index());
            }
        }
        if n == 0 {
            return DomTree { tree: Tree { idom: vec![], pre: vec![], post: vec![], children: vec![] } };
        }
        DomTree { tree: Tree::compute(n, cfg.entry().index(), &succs, &preds) }
    }

    /// Whether `a` dominates `b`; every reachable block dominates itself,
    /// and unreachable blocks neither dominate nor are dominated.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        a.index() < self.tree.pre.len() && b.index() < self.tree.pre.len() && self.tree.is_ancestor(a.index(), b.index())
    }

    /// Whether `a` dominates `b` and differs from it.
    pub fn strictly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The immediate dominator of `b`: `None` for the entry and for
    /// unreachable blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        match self.tree.idom.get(b.index()) {
            Some(&d) if d != NONE => Some(BlockId::new(d)),
            _ => None,
        }
    }

    /// The blocks `b` immediately dominates, in reverse postorder.
    pub fn children(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.tree.children.get(b.index()).into_iter().flatten().map(|&c| BlockId::new(c))
    }

    /// `b` and its dominators, innermost first, ending with the entry.
    pub fn dominators(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        let start = (b.index() < self.tree.pre.len() && self.tree.contains(b.index())).then_some(b);
        std::iter::successors(start, move |&x| self.idom(x))
    }

    /// Whether `b` is reachable (is in the tree).
    pub fn is_reachable(&self, b: BlockId) -> bool {
        b.index() < self.tree.pre.len() && self.tree.contains(b.index())
    }
}

/// The post-dominator tree: `a` post-dominates `b` when every path from `b`
/// to an exit of the function passes through `a`. The tree is rooted at a
/// virtual exit that is not a block, so `ipdom` of a block post-dominated
/// only by that virtual exit is `None`.
///
/// The immediate post-dominator of a conditional branch is its
/// reconvergence point: the first block where the threads that took
/// different arms are certain to meet again.
#[derive(Clone, Debug)]
pub struct PostDomTree {
    tree: Tree,
    num_blocks: usize,
    /// Whether each block can reach a `return` or `unreachable` block.
    reaches: Vec<bool>,
}

impl PostDomTree {
    /// Computes the post-dominator tree of the reachable blocks of `func`.
    pub fn compute(func: &Function, cfg: &Cfg) -> PostDomTree {
        let n = cfg.num_blocks();
        let exit = n;
        // Edges of the reversed graph: block -> its predecessors, and the
        // virtual exit -> every exit block.
        let mut succs = vec![Vec::new(); n + 1];
        let mut preds = vec![Vec::new(); n + 1];
        for &b in cfg.rpo() {
            for &s in cfg.succs(b) {
                succs[s.index()].push(b.index());
                preds[b.index()].push(s.index());
            }
        }
        // Which blocks can reach a real exit: a backward walk from them.
        let mut reaches = vec![false; n];
        let mut work: Vec<usize> = cfg.exit_blocks(func).map(|b| b.index()).collect();
        while let Some(b) = work.pop() {
            if !reaches[b] {
                reaches[b] = true;
                work.extend(succs[b].iter().copied());
            }
        }
        // Exit blocks flow into the virtual exit, and so does every block
        // that never reaches one (the body of an infinite loop): treating it
        // as a way out keeps a branch with an arm that spins forever from
        // "reconverging" at a block the spinning threads never reach.
        for &b in cfg.rpo() {
            let is_exit = cfg.succs(b).is_empty();
            if is_exit || !reaches[b.index()] {
                succs[exit].push(b.index());
                preds[b.index()].push(exit);
            }
        }
        PostDomTree { tree: Tree::compute(n + 1, exit, &succs, &preds), num_blocks: n, reaches }
    }

    fn in_tree(&self, b: BlockId) -> bool {
        b.index() < self.num_blocks && self.tree.contains(b.index())
    }

    /// Whether `a` post-dominates `b` (every block post-dominates itself).
    pub fn post_dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return b.index() < self.num_blocks;
        }
        self.in_tree(a) && self.in_tree(b) && self.tree.is_ancestor(a.index(), b.index())
    }

    /// The immediate post-dominator of `b`: `None` when only the virtual
    /// exit post-dominates it (an exit block, a block that cannot reach an
    /// exit, or a branch one of whose arms leaves the function or spins
    /// forever without meeting the other), and for unreachable blocks.
    pub fn ipdom(&self, b: BlockId) -> Option<BlockId> {
        if !self.in_tree(b) {
            return None;
        }
        match self.tree.idom[b.index()] {
            d if d == NONE || d == self.num_blocks => None,
            d => Some(BlockId::new(d)),
        }
    }

    /// Whether `b` is reachable and can reach a `return` or `unreachable`.
    pub fn reaches_exit(&self, b: BlockId) -> bool {
        self.reaches.get(b.index()).copied().unwrap_or(false)
    }
}

/// Control dependence: `b` is control dependent on branch block `x` when
/// one arm of `x` always leads to `b` and the other may avoid it. Computed
/// from the post-dominator tree by walking, for every edge `x -> s`, from
/// `s` up to (not including) `ipdom(x)`.
///
/// Blocks that cannot reach an exit count as exits (see `PostDomTree`), so
/// nothing inside an infinite loop is control dependent on its own
/// back-edge branches. `uniformity` uses the reachability-based divergent
/// region instead of this table; it is offered to engines that want the
/// classic relation.
#[derive(Clone, Debug, Default)]
pub struct ControlDeps {
    deps: lockstep_kir::SecondaryMap<BlockId, Vec<BlockId>>,
}

impl ControlDeps {
    pub fn compute(cfg: &Cfg, pdom: &PostDomTree) -> ControlDeps {
        let mut deps: lockstep_kir::SecondaryMap<BlockId, Vec<BlockId>> = lockstep_kir::SecondaryMap::new();
        for &x in cfg.rpo() {
            if cfg.succs(x).len() < 2 {
                continue;
            }
            let stop = pdom.ipdom(x);
            for &s in cfg.succs(x) {
                let mut cur = Some(s);
                while let Some(c) = cur {
                    if Some(c) == stop {
                        break;
                    }
                    if !deps[c].contains(&x) {
                        deps[c].push(x);
                    }
                    // A branch can be control dependent on itself (a loop
                    // exit test); walking further up would leave its region.
                    if c == x {
                        break;
                    }
                    cur = pdom.ipdom(c);
                }
            }
        }
        ControlDeps { deps }
    }

    /// The branch blocks `b` is control dependent on.
    pub fn deps(&self, b: BlockId) -> &[BlockId] {
        &self.deps[b]
    }
}
