//! The bounded unrolling of a kernel's control-flow graph into a DAG.
//!
//! Symbolic execution walks a DAG whose nodes are *block instances*: a block
//! together with the iteration number of every natural loop that contains
//! it. Entering a loop starts its count at 0; a back edge to the header of a
//! loop increments that loop's count; leaving a loop forgets its count. A
//! back edge that would reach `unwind` iterations is *cut*: paths that take
//! it are dropped, which under-approximates the executions (the caller then
//! reports the search as incomplete if such a path is feasible). Retreating
//! edges of irreducible regions are cut the same way.
//!
//! The DAG is explored from the entry and listed in topological order, so
//! that every node is visited after all of its predecessors.

use std::collections::HashMap;

use lockstep_analysis::{Cfg, DomTree, LoopId, LoopInfo};
use lockstep_kir::{BlockId, Function};

/// One block instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub block: BlockId,
    /// The iteration count of each loop containing `block`, outermost first.
    pub iters: Vec<u32>,
}

/// Where one successor slot of a node's terminator leads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Another node of the DAG.
    Node(usize),
    /// A back edge beyond the unwinding bound.
    Bound,
    /// A retreating edge of an irreducible region, or an edge beyond the
    /// node limit.
    Unsupported,
}

/// The unrolled DAG of one function.
#[derive(Debug)]
pub struct Unrolled {
    pub nodes: Vec<Node>,
    /// For each node, the target of each successor slot of its terminator
    /// (slot 0 is the `then` side of a branch).
    pub succs: Vec<Vec<Target>>,
    /// For each node, its incoming edges as (predecessor node, slot).
    pub preds: Vec<Vec<(usize, usize)>>,
    /// Every node, predecessors first.
    pub order: Vec<usize>,
    /// Whether the node limit stopped the exploration.
    pub truncated: bool,
}

/// Nodes beyond this many are not created (their edges are cut), which
/// keeps deeply nested loops from blowing up the encoding.
const MAX_NODES: usize = 4000;

impl Unrolled {
    /// Unrolls `func`, keeping at most `unwind` iterations of every loop.
    pub fn compute(func: &Function, unwind: u32) -> Unrolled {
        let cfg = Cfg::compute(func);
        let dom = DomTree::compute(&cfg);
        let loops = LoopInfo::compute(func, &cfg, &dom);
        let unwind = unwind.max(1);

        // The loops containing a block, outermost first.
        let chain = |b: BlockId| -> Vec<LoopId> {
            let mut out: Vec<LoopId> = match loops.innermost(b) {
                Some(l) => loops.ancestors(l).collect(),
                None => Vec::new(),
            };
            // `ancestors` may or may not include the loop itself and may list
            // innermost first; normalise to outermost-first by depth.
            if let Some(l) = loops.innermost(b) {
                if !out.contains(&l) {
                    out.push(l);
                }
            }
            out.sort_by_key(|&l| loops.get(l).depth);
            out.dedup();
            out
        };

        let mut nodes: Vec<Node> = Vec::new();
        let mut index: HashMap<Node, usize> = HashMap::new();
        let mut succs: Vec<Vec<Target>> = Vec::new();
        let mut truncated = false;
        let entry = Node { block: func.entry, iters: vec![0; chain(func.entry).len()] };
        index.insert(entry.clone(), 0);
        nodes.push(entry);
        let mut next = 0;
        while next < nodes.len() {
            let node = nodes[next].clone();
            next += 1;
            let from_chain = chain(node.block);
            let mut slots = Vec::new();
            for target in func.blocks[node.block].term.successors() {
                let to_chain = chain(target);
                let mut iters = Vec::with_capacity(to_chain.len());
                let mut outcome = None;
                for (depth, &l) in to_chain.iter().enumerate() {
                    let shared = from_chain.get(depth) == Some(&l);
                    if !shared {
                        iters.push(0);
                        continue;
                    }
                    let count = node.iters[depth];
                    let is_innermost_shared =
                        to_chain.get(depth + 1).map_or(true, |m| from_chain.get(depth + 1) != Some(m));
                    if loops.get(l).header == target && is_innermost_shared {
                        // A back edge of loop `l`.
                        if count + 1 >= unwind {
                            outcome = Some(Target::Bound);
                            break;
                        }
                        iters.push(count + 1);
                    } else {
                        iters.push(count);
                    }
                }
                if outcome.is_none()
                    && cfg.is_retreating(node.block, target)
                    && loops.loop_with_header(target).is_none()
                {
                    outcome = Some(Target::Unsupported);
                }
                let slot = match outcome {
                    Some(t) => t,
                    None => {
                        let key = Node { block: target, iters };
                        match index.get(&key) {
                            Some(&i) => Target::Node(i),
                            None if nodes.len() >= MAX_NODES => {
                                truncated = true;
                                Target::Unsupported
                            }
                            None => {
                                let i = nodes.len();
                                index.insert(key.clone(), i);
                                nodes.push(key);
                                Target::Node(i)
                            }
                        }
                    }
                };
                slots.push(slot);
            }
            succs.push(slots);
        }

        let mut preds = vec![Vec::new(); nodes.len()];
        for (n, slots) in succs.iter().enumerate() {
            for (slot, t) in slots.iter().enumerate() {
                if let Target::Node(m) = t {
                    preds[*m].push((n, slot));
                }
            }
        }

        // Kahn's algorithm; the graph is acyclic because every edge either
        // goes forward in the CFG within one iteration vector or increments
        // a loop counter.
        let mut indegree: Vec<usize> = preds.iter().map(|p| p.len()).collect();
        let mut ready: Vec<usize> = (0..nodes.len()).filter(|&n| indegree[n] == 0).collect();
        ready.reverse();
        let mut order = Vec::with_capacity(nodes.len());
        while let Some(n) = ready.pop() {
            order.push(n);
            for t in &succs[n] {
                if let Target::Node(m) = *t {
                    indegree[m] -= 1;
                    if indegree[m] == 0 {
                        ready.push(m);
                    }
                }
            }
        }
        // Nodes on a cycle (which should not exist) are left out of `order`
        // and so never executed; `truncated` records the loss.
        if order.len() != nodes.len() {
            truncated = true;
        }
        Unrolled { nodes, succs, preds, order, truncated }
    }
}
