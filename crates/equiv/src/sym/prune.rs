//! Path pruning for the one-thread run ([`Pruner`]): at a branch inside a
//! loop without a barrier, a side whose path condition the launch facts
//! and the kernel's preconditions contradict is dropped.

use std::collections::{HashMap, HashSet};

use lockstep_kir::{BlockId, Function, InstKind};
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
    /// Queries that dropped nothing; the pruner gives up after a few.
    misses: u32,
    pub(super) loop_blocks: HashSet<BlockId>,
}

impl Pruner {
    pub fn new(func: &Function, config: lockstep_smt::SolverConfig, facts: Vec<TermId>) -> Pruner {
        let cfg = lockstep_analysis::cfg::Cfg::compute(func);
        let dom = lockstep_analysis::dom::DomTree::compute(&cfg);
        let info = lockstep_analysis::loops::LoopInfo::compute(func, &cfg, &dom);
        // Loops with a barrier are aligned instead (`run_param_aligned`):
        // their trip counts depend on the block size, not on facts that
        // drop paths.
        let has_barrier = |l: &lockstep_analysis::loops::Loop| {
            l.blocks.iter().any(|&b| func.blocks[b].insts.iter().any(|&i| matches!(func.insts[i].kind, InstKind::Barrier { .. })))
        };
        let loop_blocks = info.loops().filter(|(_, l)| !has_barrier(l)).flat_map(|(_, l)| l.blocks.iter().copied()).collect();
        Pruner { config, facts, dropped: 0, misses: 0, loop_blocks }
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
        let dropped = self.check(st, extra, pc);
        if !dropped {
            self.misses += 1;
        }
        dropped
    }

    fn check(&mut self, st: &mut TermStore, extra: &[TermId], pc: TermId) -> bool {
        let Ok(mut solver) = lockstep_smt::Solver::spawn(self.config.clone()) else { return false };
        let mut memo = HashMap::new();
        let all: Vec<TermId> = self.facts.iter().chain(extra).chain(std::iter::once(&pc)).copied().collect();
        let abstracted: Vec<TermId> = all.iter().map(|&f| crate::param::abstract_nonlinear(st, f, &mut memo)).collect();
        for &f in &abstracted {
            if solver.assert(st, f).is_err() {
                return false;
            }
        }
        matches!(solver.check_sat(), Ok(lockstep_smt::SatResult::Unsat))
    }
}
