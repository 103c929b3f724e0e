//! What a check is asked to do: the launch and the engines' switches.
//! Built by the CLI from the command line and passed down explicitly.

use std::time::{Duration, Instant};

/// Time kept between the end of the engines and the deadline, for
/// building and printing the report.
const REPORT_RESERVE: Duration = Duration::from_millis(700);
/// How long after a query's limit the solver layer abandons a solver that
/// does not answer (`lockstep_smt::SolverConfig::watchdog_margin`).
const SOLVER_MARGIN: Duration = Duration::from_secs(1);
/// The least time worth giving a solver-backed engine.
const MIN_SOLVER_SLOT: Duration = Duration::from_secs(2);

/// The memory a check may use unless `--memory-limit` says otherwise: 1 GiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 1 << 30;

/// Which engines run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Both,
    Prove,
    Find,
}

#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Threads per group in each dimension; `None` is unconstrained (`*`).
    pub group_size: [Option<u64>; 3],
    /// Groups in each dimension; `None` is unconstrained.
    pub num_groups: [Option<u64>; 3],
    pub global_offset: [u64; 3],
    /// OpenCL's `--global_size`, when given: the group size times the
    /// number of groups in each dimension (the prover assumes it where a
    /// size is symbolic).
    pub global_size: [Option<u64>; 3],
    pub mode: Mode,
    /// Per-query solver time limit.
    pub query_timeout: Duration,
    pub use_cvc5: bool,
    pub only_divergence: bool,
    /// Check races only on the objects of these source names (GPUVerify's
    /// `--vcgen-opt=/checkArrays:A,B`); `None` checks every object.
    pub race_arrays: Option<Vec<String>>,
    pub only_intra_group: bool,
    pub check_array_bounds: bool,
    pub equality_abstraction: bool,
    pub warp_sync: Option<u32>,
    pub no_infer: bool,
    /// The prover's Daikon filter (`lockstep_prove::daikon`): drop the
    /// candidate invariants the concrete run falsifies before inference.
    pub daikon: bool,
    pub disabled_rules: Vec<String>,
    pub loop_unwind: Option<u32>,
    /// Scalar argument values (GPUVerify's `--kernel-args`), by position.
    pub scalar_args: Vec<Option<u128>>,
    /// A launch size the bounded search must be able to try for a
    /// symbolic size, when larger than its own limit (a few dozen): the
    /// kernel's preconditions name it.
    pub largest_searched_size: Option<u64>,
    /// Sizes in bytes of pointer arguments' buffers (`--kernel-arrays`), by
    /// position among the pointer parameters.
    pub array_sizes: Vec<Option<u64>>,
    /// Bytes of dynamic `extern __shared__` memory.
    pub dynamic_shared_bytes: Option<u64>,
    /// How many dimensions the launch has (OpenCL's `get_work_dim()`): the
    /// number of sizes the user gave, 3 when unknown.
    pub work_dim: u8,
    /// A directory that receives a replayable SMT-LIB2 log of every solver
    /// session: `KERNEL.prove.smt2` (and `KERNEL.prove.contract-F.smt2`
    /// for the contract of a function `F`, `KERNEL.prove.checks.smt2` when
    /// the prover checks the obligations in a second session),
    /// `KERNEL.find.smt2`.
    pub smt_log_dir: Option<std::path::PathBuf>,
    /// Wall-clock budget for the prover on one kernel.
    pub prove_budget: Option<Duration>,
    /// Wall-clock budget for the bounded finder on one kernel.
    pub find_budget: Duration,
    /// When the whole run must have ended (`--timeout`): the solver-backed
    /// engines get shares of the time left, so that what the concrete
    /// search found is reported before the deadline even when a solver
    /// never answers.
    pub deadline: Option<Instant>,
    /// The memory the whole check may use, in bytes (`--memory-limit`):
    /// each solver gets three quarters of it as its address space, the
    /// concrete search a quarter of it for the memory a kernel writes
    /// (its logs and thread states cost as much again) and stops when the
    /// process holds three quarters.
    pub memory_limit: u64,
    /// Re-do a proof that succeeded with the other solver (z3 and cvc5),
    /// so that `verified` does not rest on one solver's `unsat` alone.
    pub cross_check: bool,
    /// Stops the prover at its next query once set (see
    /// `lockstep_prove::ProveConfig::stop`): the engine sets it when the
    /// concrete search, run beside the prover, confirms a violation.
    pub stop_prover: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for CheckConfig {
    fn default() -> CheckConfig {
        CheckConfig {
            group_size: [None; 3],
            num_groups: [None; 3],
            global_offset: [0; 3],
            global_size: [None; 3],
            mode: Mode::Both,
            query_timeout: Duration::from_secs(20),
            use_cvc5: false,
            only_divergence: false,
            race_arrays: None,
            only_intra_group: false,
            check_array_bounds: false,
            equality_abstraction: false,
            warp_sync: None,
            no_infer: false,
            daikon: true,
            disabled_rules: Vec::new(),
            loop_unwind: None,
            scalar_args: Vec::new(),
            largest_searched_size: None,
            array_sizes: Vec::new(),
            dynamic_shared_bytes: None,
            work_dim: 3,
            smt_log_dir: None,
            prove_budget: Some(Duration::from_secs(30)),
            find_budget: Duration::from_secs(20),
            deadline: None,
            memory_limit: DEFAULT_MEMORY_LIMIT,
            cross_check: false,
            stop_prover: None,
        }
    }
}

impl CheckConfig {
    /// `array_sizes` by parameter name, for the engines that name objects:
    /// the sizes count the pointer parameters that are not by-value structs
    /// (private pointers), in order.
    pub fn named_array_sizes(&self, kernel: &lockstep_kir::Function) -> Vec<(String, u64)> {
        kernel
            .params
            .iter()
            .filter(|p| matches!(p.ty, lockstep_kir::Type::Ptr(space) if space != lockstep_kir::MemSpace::Private))
            .zip(&self.array_sizes)
            .filter_map(|(p, size)| size.map(|s| (p.name.clone(), s)))
            .collect()
    }

    /// Whether every size of the launch is concrete.
    pub fn launch_is_concrete(&self) -> bool {
        self.group_size.iter().chain(&self.num_groups).all(Option::is_some)
    }

    /// The time left before the deadline, less what reporting needs;
    /// `None` without a deadline.
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()).saturating_sub(REPORT_RESERVE))
    }

    /// The limits of a solver-backed engine that may use `share` of the time
    /// left (`budget` and `query` being what it would use without a
    /// deadline; no budget is no limit): `(budget, per-query limit)`, or
    /// `None` when too little time is left to start a solver at all. An
    /// engine checks its budget between queries, and a query that does not
    /// answer is abandoned only `SOLVER_MARGIN` after its limit, so the
    /// budget leaves room for one whole query after it.
    pub fn solver_limits(&self, budget: Option<Duration>, query: Duration, share: f64) -> Option<(Option<Duration>, Duration)> {
        let Some(left) = self.time_left() else {
            return Some((budget, query));
        };
        let mut slot = left.mul_f64(share.clamp(0.0, 1.0));
        if let Some(budget) = budget {
            slot = slot.min(budget.saturating_add(query + SOLVER_MARGIN));
        }
        if slot < MIN_SOLVER_SLOT {
            return None;
        }
        let query = query.min((slot / 2).saturating_sub(SOLVER_MARGIN).max(Duration::from_millis(500)));
        let within = slot.saturating_sub(query + SOLVER_MARGIN);
        Some((Some(budget.map_or(within, |b| b.min(within))), query))
    }

    /// How many times a query's limit the solvers' timers allow: the
    /// default factor (work decides, not load), or 1 under a deadline
    /// (`--timeout`), which the user's clock bounds.
    pub fn solver_timer_factor(&self) -> u32 {
        if self.deadline.is_some() { 1 } else { lockstep_smt::TIMER_FACTOR }
    }

    /// The address space each solver process may use.
    pub fn solver_memory(&self) -> u64 {
        self.memory_limit / 4 * 3
    }

    /// The log file of one solver session (`engine` is `prove` or `find`)
    /// on `kernel`, when `--smt-log` asks for logs.
    pub fn smt_log(&self, kernel: &str, engine: &str) -> Option<std::path::PathBuf> {
        self.smt_log_dir.as_ref().map(|dir| dir.join(format!("{kernel}.{engine}.smt2")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_limits_fit_the_time_left() {
        let free = CheckConfig::default();
        assert_eq!(free.solver_limits(Some(Duration::from_secs(30)), Duration::from_secs(20), 0.5), Some((Some(Duration::from_secs(30)), Duration::from_secs(20))));
        let soon = CheckConfig { deadline: Some(Instant::now() + Duration::from_secs(20)), ..CheckConfig::default() };
        let (budget, query) = soon.solver_limits(None, Duration::from_secs(20), 0.5).unwrap();
        // A query started at the end of the budget, abandoned a margin
        // after its limit, still ends within the share.
        assert!(budget.unwrap() + query + SOLVER_MARGIN <= Duration::from_secs(10), "{budget:?} {query:?}");
        let (budget, query) = soon.solver_limits(Some(Duration::from_secs(5)), Duration::from_secs(20), 1.0).unwrap();
        assert!(budget.unwrap() <= Duration::from_secs(5) && budget.unwrap() + query + SOLVER_MARGIN <= Duration::from_secs(20));
        let late = CheckConfig { deadline: Some(Instant::now() + Duration::from_secs(1)), ..CheckConfig::default() };
        assert_eq!(late.solver_limits(None, Duration::from_secs(20), 1.0), None);
    }
}
