//! Path pruning for the one-thread run ([`Pruner`]): at a branch inside a
//! loop without a barrier, a side whose path condition the launch facts
//! and the kernel's preconditions contradict is dropped.

use std::collections::{HashMap, HashSet};

use lockstep_kir::{BlockId, Function};
use lockstep_smt::{TermId, TermStore};

/// Pruning queries that drop nothing before [`Pruner`] stops asking (a
/// loop whose trip count the facts do not bound would otherwise cost a
/// query per iteration up to the path limit).
const PRUNE_MISSES: u32 = 16;

/// Drops, in the one-thread mode, the paths through a loop's branch that
/// the launch facts and the kernel's preconditions make infeasible: a
/// grid-stride loop over `n <= blockDim.x * gridDim.x` elements runs one
/// iteration, which the path's condition alone does not show (it would
/// unroll without end). Dropping an infeasible path is exact; a solver
/// that cannot decide keeps the path.
pub struct Pruner {
    pub config: lockstep_smt::SolverConfig,
    /// Facts about the launch, over the inputs' symbols.
    pub facts: Vec<TermId>,
    /// Paths dropped so far.
    pub dropped: u32,
    /// Queries in a row that dropped nothing; the pruner gives up after a
    /// few.
    misses: u32,
    pub(super) loop_blocks: HashSet<BlockId>,
    /// One solver process for every query, the facts asserted once (the
    /// bounded engine asks a few queries per thread); `None` until the
    /// first query.
    solver: Option<lockstep_smt::Solver>,
    /// The abstraction of products, kept across queries so that a product
    /// is the same constant in the facts and in every path condition.
    memo: HashMap<TermId, TermId>,
    /// The extra facts (preconditions, which hold on every path since each
    /// is guarded by its path's condition) asserted so far, once each.
    asserted: HashSet<TermId>,
}

impl Pruner {
    pub fn new(func: &Function, config: lockstep_smt::SolverConfig, facts: Vec<TermId>) -> Pruner {
        // Loops with a barrier are aligned instead (`run_param_aligned`):
        // their trip counts depend on the block size, not on facts that
        // drop paths.
        let shapes = lockstep_analysis::loop_shapes::LoopShapes::compute(func);
        let loop_blocks = shapes.loops().iter().filter(|l| !l.has_barrier).flat_map(|l| l.blocks.iter().copied()).collect();
        Pruner { config, facts, dropped: 0, misses: 0, loop_blocks, solver: None, memo: HashMap::new(), asserted: HashSet::new() }
    }

    /// Is `pc` (with the facts and `extra`) unsatisfiable?
    ///
    /// Products of symbols (`blockIdx.x * blockDim.x`) are first replaced
    /// by fresh constants, the same for the same product (sound for
    /// `unsat`, and linear: the facts state what the question needs about
    /// the products).
    pub(super) fn infeasible(&mut self, st: &mut TermStore, extra: &[TermId], pc: TermId) -> bool {
        if self.misses >= PRUNE_MISSES {
            return false;
        }
        let dropped = self.check(st, extra, pc).unwrap_or(false);
        if dropped {
            self.misses = 0;
        } else {
            self.misses += 1;
        }
        dropped
    }

    fn check(&mut self, st: &mut TermStore, extra: &[TermId], pc: TermId) -> Option<bool> {
        let memo = &mut self.memo;
        if self.solver.is_none() {
            let mut solver = lockstep_smt::Solver::spawn(self.config.clone()).ok()?;
            for &f in &self.facts {
                let a = crate::param::abstract_nonlinear(st, f, memo);
                solver.assert(st, a).ok()?;
            }
            self.solver = Some(solver);
        }
        let solver = self.solver.as_mut().expect("spawned above");
        for &f in extra {
            if self.asserted.insert(f) {
                let a = crate::param::abstract_nonlinear(st, f, memo);
                if solver.assert(st, a).is_err() {
                    self.solver = None;
                    self.asserted.clear();
                    return None;
                }
            }
        }
        let mut answer = || -> Option<bool> {
            solver.push().ok()?;
            let a = crate::param::abstract_nonlinear(st, pc, memo);
            solver.assert(st, a).ok()?;
            Some(matches!(solver.check_sat(), Ok(lockstep_smt::SatResult::Unsat)))
        };
        let r = answer();
        if solver.pop().is_err() {
            self.solver = None;
            self.asserted.clear();
        }
        r
    }
}
