//! lockstep-find: a bounded symbolic bug finder for GPU kernels.
//!
//! The finder executes a kernel symbolically for two threads whose local and
//! group ids are symbolic (in the style of Sarkar et al. and SESA's
//! parametric flows), so the cost of a search does not grow with the number
//! of threads launched. Loops are unrolled up to a bound; every property is
//! then checked with its own solver query, so that one run reports every
//! violation it can find, each with a concrete witness: thread ids, launch
//! sizes, scalar arguments and the initial memory bytes the path read.
//!
//! Witnesses are meant to be confirmed by concrete replay: the encoding
//! over-approximates what *other* threads write (memory becomes arbitrary
//! at barriers), so a witness can occasionally fail to replay, while the
//! unwinding bound and timeouts make the search incomplete (reported in
//! [`FindOutcome::complete`]), never unsound in the "no bug" direction.
//!
//! Modules:
//!
//! - [`unroll`]: the bounded unrolling of the CFG into a DAG of block instances;
//! - [`relevance`]: taint analysis deciding which values need modelling;
//! - [`objects`]: the memory objects and their numbering;
//! - [`terms`]: the term context (naming of subterms, uninterpreted functions);
//! - [`encode`]: symbolic execution of one thread over the DAG;
//! - [`query`]: the checks (races, divergence, properties), solver queries
//!   and witness extraction.
//!
//! What is checked: data races (intra-group on shared and global memory,
//! inter-group on global memory; atomics do not race with atomics; two
//! writes of the same value at the same offset, where the value is not
//! computed from memory, are benign and not reported, and so is a read of
//! bytes its thread itself wrote, with such a store of exactly those bytes,
//! since its last barrier, against the other thread's store of the same
//! value there: GPUVerify's benign write-read race, as the replay defines
//! it),
//! barrier divergence, failing `assert`s and loop invariants, out-of-bounds
//! accesses of objects of known size (shared, private and constant arrays,
//! and pointer parameters sized by [`FindConfig::array_sizes`]), null
//! dereferences, division by zero, `MIN / -1` signed division, writes to
//! constant memory and, with [`FindConfig::check_overflow`], signed overflow
//! of every 8- to 64-bit `add`, `sub` and `mul`. KIR carries no `nsw` flags,
//! so that last check also flags unsigned wrap-around that C defines; it is
//! off by default.

pub mod encode;
pub mod objects;
pub mod query;
pub mod relevance;
pub mod terms;
pub mod unroll;

use std::time::Duration;

use lockstep_diag::ViolationKind;
use lockstep_kir::{FuncId, Function, InstId, Module, SrcLoc};
pub use lockstep_smt::SolverKind;

pub use objects::MemRef;

/// How to search. Every field is explicit; [`FindConfig::default`] gives a
/// symbolic launch, 4 loop iterations and z3.
#[derive(Clone, Debug)]
pub struct FindConfig {
    /// Threads per group in each dimension; `None` leaves it symbolic
    /// (between 1 and [`FindConfig::max_symbolic_size`]).
    pub group_size: [Option<u64>; 3],
    /// Groups in each dimension; `None` leaves it symbolic.
    pub num_groups: [Option<u64>; 3],
    /// Iterations of each loop explored before the path is cut.
    pub loop_unwind: u32,
    pub solver: SolverKind,
    /// The limit of each solver query.
    pub query_timeout: Duration,
    /// The wall-clock limit of the whole search.
    pub total_timeout: Duration,
    /// The CPU-time limit of the whole search (its thread and its solver
    /// processes, [`lockstep_smt::CpuStopwatch`]), when given: unlike
    /// `total_timeout`, a busy machine does not shrink it.
    pub total_cpu: Option<Duration>,
    /// Check signed overflow of add/sub/mul (see the crate docs).
    pub check_overflow: bool,
    /// Sizes in bytes of the objects pointer parameters point to, by name.
    pub array_sizes: Vec<(String, u64)>,
    /// Warp-synchronous execution with this warp size: threads of one warp
    /// run in lock-step, so accesses by different instructions of one warp
    /// do not race.
    pub warp_size: Option<u32>,
    /// Only look for races between threads of the same group.
    pub only_intra_group: bool,
    /// Check barrier divergence and the single-thread properties, but not
    /// data races (GPUVerify's `--only-divergence`).
    pub only_divergence: bool,
    /// Look for races only on the objects of these source names
    /// (GPUVerify's `/checkArrays:`); `None` looks at every object.
    pub race_arrays: Option<Vec<String>>,
    /// Where to write a replayable log of the solver session, if anywhere.
    pub replay_log: Option<std::path::PathBuf>,
    /// Stop after this many violations.
    pub max_violations: usize,
    /// The largest value a symbolic launch size may take in the witness.
    pub max_symbolic_size: u64,
    /// OpenCL's global offset in each dimension (`get_global_offset`), as
    /// `--global_offset` gives it: 0 in the dimensions it does not list.
    pub global_offset: [u64; 3],
    /// OpenCL's `--global_size`, when given: the group size times the
    /// number of groups in that dimension.
    pub global_size: [Option<u64>; 3],
    /// GPUVerify's `--equality-abstraction`: writes of values read from
    /// memory may be benign too, and a write that leaves its bytes as they
    /// were races with no read (the rule of `lockstep_analysis::ghost`, as
    /// the replay applies it under `benign_writes_from_memory`).
    pub equality_abstraction: bool,
    /// The most address space the solver may use, in bytes.
    pub solver_memory: Option<u64>,
    /// How many times a query's time limit the solver's timer allows when
    /// its work is limited (`lockstep_smt::SolverConfig::timer_factor`):
    /// [`lockstep_smt::TIMER_FACTOR`], so that load does not change
    /// answers, or 1 under a deadline the user set (`--timeout`).
    pub solver_timer_factor: u32,
    /// Kinds of violation not to look for, because another engine has
    /// already established that the kernel has none (the engine's prover,
    /// when it proved the kernel): the finder's time then goes only to
    /// what is still open. Empty by default: every kind is looked for.
    pub skip_kinds: Vec<ViolationKind>,
}

impl Default for FindConfig {
    fn default() -> FindConfig {
        FindConfig {
            group_size: [None; 3],
            num_groups: [None; 3],
            loop_unwind: 4,
            solver: SolverKind::Z3,
            query_timeout: Duration::from_secs(10),
            total_timeout: Duration::from_secs(120),
            total_cpu: None,
            solver_memory: Some(lockstep_smt::solver::DEFAULT_MEMORY_LIMIT),
            solver_timer_factor: lockstep_smt::TIMER_FACTOR,
            check_overflow: false,
            array_sizes: Vec::new(),
            warp_size: None,
            only_intra_group: false,
            only_divergence: false,
            race_arrays: None,
            replay_log: None,
            max_violations: 64,
            skip_kinds: Vec::new(),
            max_symbolic_size: 64,
            global_offset: [0; 3],
            global_size: [None; 3],
            equality_abstraction: false,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct FindOutcome {
    pub violations: Vec<Found>,
    /// False when the unwinding bound, a timeout, an unknown answer or an
    /// unsupported construct cut the search: the absence of a violation then
    /// proves nothing.
    pub complete: bool,
    pub notes: Vec<String>,
    /// The function the instruction ids of [`Found::sites`] refer to when it
    /// is not the module's kernel itself (the kernel had calls, which were
    /// inlined into a copy).
    pub analysed: Option<Function>,
}

/// One violation with its witness.
#[derive(Clone, Debug)]
pub struct Found {
    pub kind: ViolationKind,
    pub message: String,
    /// The instructions involved, primary first; for a race, the access of
    /// the first witness thread and then that of the second.
    pub sites: Vec<(FuncId, InstId)>,
    /// The source location of each site, when known.
    pub locs: Vec<Option<SrcLoc>>,
    pub witness: ConcreteWitness,
    /// Another witness of the same finding, to replay when `witness` is not
    /// confirmed: the solver's first model, where the search preferred one
    /// with small scalar arguments as `witness`.
    pub fallback_witness: Option<ConcreteWitness>,
}

/// Concrete values under which the violation happens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConcreteWitness {
    pub group_size: [u64; 3],
    pub num_groups: [u64; 3],
    /// The threads involved as (local id, group id); one thread for
    /// single-thread properties, two for races and divergence.
    pub threads: Vec<([u64; 3], [u64; 3])>,
    /// Values of the scalar parameters (bits), by parameter index. Every
    /// integer and float parameter is listed.
    pub scalar_args: Vec<(usize, u128)>,
    /// Initial bytes of global memory the witness paths read, as
    /// (object, byte offset, value). Bytes not listed do not matter.
    pub memory: Vec<(MemRef, u64, u8)>,
}

/// Searches `kernel` of `module` for violations.
///
/// The search never panics into the caller: an internal failure becomes an
/// incomplete outcome with a note (and whatever it found is lost).
pub fn find_bugs(module: &Module, kernel: FuncId, config: &FindConfig) -> FindOutcome {
    let run = std::panic::AssertUnwindSafe(|| query::run(module, kernel, config));
    std::panic::catch_unwind(run).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".into());
        FindOutcome {
            complete: false,
            notes: vec![format!("internal error in the bug finder: {what}")],
            ..FindOutcome::default()
        }
    })
}
