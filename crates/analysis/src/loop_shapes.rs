//! Loop shapes: which natural loops an engine that runs a loop's body
//! once, symbolically, can treat as a unit.
//!
//! The equivalence engine's one-thread run handles three kinds of loop
//! whose trip count is symbolic by running one arbitrary iteration: a loop
//! with a barrier (aligned between the two kernels), a loop without a
//! barrier that writes memory (each iteration a writer of its own), and a
//! loop without a barrier that writes nothing (summarised by a
//! recurrence). The last two need the loop to be left only through its
//! header's branch, so that "the loop's condition fails" is the only way
//! out. This module classifies every natural loop of a function once, from
//! [`LoopInfo`], into a side table that the engine consumes.
//!
//! Invariant: the table has one entry per natural loop of `LoopInfo`, in
//! its order (parents before children); blocks unreachable from the entry
//! belong to no loop.

use std::collections::{HashMap, HashSet};

use lockstep_kir::{BlockId, Function, InstKind};

use crate::loops::{Loop, LoopInfo};

/// One natural loop and its shape.
#[derive(Clone, Debug)]
pub struct ShapedLoop {
    /// The loop as [`LoopInfo`] found it.
    pub lp: Loop,
    /// Its blocks, for membership tests.
    pub blocks: HashSet<BlockId>,
    /// Every edge that leaves the loop starts at the header.
    pub exits_at_header: bool,
    /// Some instruction of the loop is or may contain a barrier (a barrier
    /// of any scope, or a call of a module function).
    pub may_wait: bool,
    /// Some block of the loop holds a barrier instruction itself.
    pub has_barrier: bool,
    /// Some instruction of the loop may write memory.
    pub writes: bool,
}

/// The shapes of a function's natural loops.
#[derive(Clone, Debug)]
pub struct LoopShapes {
    loops: Vec<ShapedLoop>,
}

impl LoopShapes {
    /// Classifies the natural loops of `func`.
    pub fn compute(func: &Function) -> LoopShapes {
        let (_, _, info) = crate::loops::analyze(func);
        Self::from_info(func, &info)
    }

    /// Classifies the loops of `info` (computed for `func`).
    pub fn from_info(func: &Function, info: &LoopInfo) -> LoopShapes {
        let loops = info
            .loops()
            .map(|(_, l)| ShapedLoop {
                lp: l.clone(),
                blocks: l.blocks.iter().copied().collect(),
                exits_at_header: l.exits.iter().all(|&(from, _)| from == l.header),
                may_wait: !l.barriers.is_empty(),
                has_barrier: l.blocks.iter().any(|&b| func.blocks[b].insts.iter().any(|&i| matches!(func.insts[i].kind, InstKind::Barrier { .. }))),
                writes: !l.writes.is_empty(),
            })
            .collect();
        LoopShapes { loops }
    }

    /// Every loop with its shape.
    pub fn loops(&self) -> &[ShapedLoop] {
        &self.loops
    }

    /// Loops without a barrier, left only through their header, that write
    /// nothing (summarisable as a recurrence): their blocks by header.
    pub fn pure_single_exit(&self) -> HashMap<BlockId, HashSet<BlockId>> {
        self.select(|l| !l.may_wait && !l.writes && l.exits_at_header)
    }

    /// Loops without a barrier, left only through their header, that write
    /// memory (iterable, each iteration a writer of its own): their blocks
    /// by header.
    pub fn writing_single_exit(&self) -> HashMap<BlockId, HashSet<BlockId>> {
        self.select(|l| !l.may_wait && l.writes && l.exits_at_header)
    }

    /// The one loop with a barrier instruction, when there is exactly one
    /// and it is outermost (a tree reduction's loop).
    pub fn single_barrier_loop(&self) -> Option<&Loop> {
        let mut with = self.loops.iter().filter(|l| l.has_barrier);
        match (with.next(), with.next()) {
            (Some(l), None) if l.lp.depth == 1 => Some(&l.lp),
            _ => None,
        }
    }

    fn select(&self, keep: impl Fn(&ShapedLoop) -> bool) -> HashMap<BlockId, HashSet<BlockId>> {
        self.loops.iter().filter(|l| keep(l)).map(|l| (l.lp.header, l.blocks.clone())).collect()
    }
}
