//! GPUVerify-style proofs that a kernel is free of data races, barrier
//! divergence and annotation failures for any number of threads.
//!
//! The method (GPUVerify, Betts et al., see DESIGN.md and the seed chapter on
//! the two-thread reduction) in this crate's terms:
//!
//! 1. [`inlined`]: all calls of the kernel are inlined in place
//!    (`lockstep_analysis::inline::in_place`), and the analysis crate's
//!    `BlockOrder` finds the natural loops and rejects irreducible control
//!    flow.
//! 2. [`encode`]: two arbitrary distinct threads execute the kernel in
//!    lockstep as one predicated, sequential program (every block has one
//!    predicate per thread), expressed directly as SMT terms. Loops are cut at
//!    their headers with havocked state and invariants.
//! 3. [`race`]: quantifier-free race instrumentation: thread 1 may log one of
//!    its accesses per memory object and access kind; thread 2 checks each
//!    of its accesses against the log.
//! 4. [`candidates`]: tagged rules propose loop invariants; [`houdini`] keeps
//!    the inductive ones and then checks every proof obligation separately so
//!    that every failing one can be reported.
//! 5. [`report`]: converts the outcome into a `lockstep_diag::KernelReport`.
//!
//! Soundness comes first: every construct the encoding does not model makes
//! the kernel `Unknown`, never `Verified`, and a solver timeout or failure is
//! never a proof.
//!
//! What is modelled, and how:
//!
//! - Memory contents are adversarial (every load from shared, global or
//!   private memory returns a fresh value per thread; with
//!   `--equality-abstraction`, shared and global bytes give both threads
//!   of a group one value while neither writes the object), except by-value kernel
//!   arguments the kernel never writes (the same for both threads),
//!   initialised OpenCL `__constant` objects (their known contents), and
//!   objects no write of the kernel can reach (a function of the offset, the
//!   same for every thread; per group for shared objects), and, in kernels
//!   with barrier invariants, the shared arrays [`barrier_inv`] models.
//! - Benign races: two writes of the same value to the same bytes do not
//!   race when both stores' values are computed without reading memory the
//!   kernel writes (GPUVerify's rule, `lockstep_analysis::ghost`); with
//!   `--equality-abstraction`, when both are plain stores (pointers count
//!   when equal values are equal addresses for both threads). A read does
//!   not race with such a write when its thread's own latest write of the
//!   object since its last barrier was such a store of exactly the read's
//!   bytes with the same value (GPUVerify's benign write-read race; see
//!   [`race`]). Loads that only feed annotations are not accesses.
//! - Callees' `__ensures` (with `__return_val_*`) are checked at each
//!   inlined return, and modularly: for arbitrary arguments satisfying the
//!   callee's `__requires` (see `modular::contract_wrapper`).
//! - Floats are bit patterns under uninterpreted functions; products of two
//!   non-constant integers are uninterpreted too (an over-approximation that
//!   keeps solver queries fast), related to the real product by lemmas that
//!   hold where signed arithmetic does not overflow (see `encode::no_wrap`:
//!   clang's `nsw` operations are assumed not to overflow, and the proof
//!   says so); calls of functions without a body return
//!   fresh values. They may take pointers to the thread's own private
//!   objects (by-value structs are passed that way), with the assumption,
//!   listed in the proof, that they reach no other memory through them;
//!   any other pointer argument makes the kernel `Unknown`.
//! - A pointer is an object and an offset; null and absolute addresses
//!   (integer constants cast to pointers, such as the front end's function
//!   addresses for indirect calls) point into no object, and converting
//!   them back to integers gives their offset, so an indirect call through
//!   a pointer that holds one of several functions reaches only those.
//!   The integer value of an object's address is unknown.
//! - Besides races, divergence and annotations, the prover checks accesses
//!   through explicit null pointers and writes to constant memory, and with
//!   `--check-array-bounds` that accesses to arrays of known size are in
//!   bounds (memory behind pointer parameters has no known size; the proof
//!   lists that among its assumptions).
//! - Function-wide invariants become user invariants (or candidates) at
//!   every loop header ([`function_wide`]).
//! - Barrier invariants are checked at their barrier and assumed after it
//!   for their instantiations, over a memory model of the shared arrays
//!   ([`barrier_inv`]); kernels without them keep adversarial memory.
//! - With `--warp-sync=N`, threads of one warp race only at the same
//!   instruction (they execute in lockstep).
//! - OpenCL's async copies (`async_copy`): a copy's accesses (logged as
//!   the group's first work-item's) stay in the race logs from its call
//!   until the first barrier after the wait for its event, so barriers
//!   before the wait do not end them; the arguments must be the same
//!   across a group (checked), and the events of copies and waits must be
//!   traceable through private memory to the copies that made them.
//! - `Unknown` (with the location) for: irreducible control flow, recursion,
//!   other external calls with pointers, function-wide invariants that
//!   cannot be stated at a loop header, barrier invariants outside what
//!   [`barrier_inv`] models, a kernel's own
//!   `__ensures`, postconditions not at the start of a callee, `__old`,
//!   invariants that read memory or are not in a loop header, async copies
//!   or waits whose events cannot be traced to their copies, timeouts.
//!
//! The control-flow facts and the inliner come from the analysis crate;
//! [`modular`] builds the wrapper kernels of GPUVerify's modular checks.

// Thread indices (`t` in 0..2) index several per-thread arrays at once.
#![allow(clippy::needless_range_loop)]

pub(crate) mod async_copy;
mod ackermann;
mod benign;
pub mod barrier_inv;
pub mod candidates;
pub mod daikon;
pub mod encode;
pub mod function_wide;
pub mod houdini;
pub mod inlined;
mod invalid_call;
pub mod modular;
pub mod promote;
pub mod race;
pub mod report;

use std::path::PathBuf;
use std::time::Duration;

use lockstep_diag::ViolationKind;
use lockstep_kir::{FuncId, InstId, Module, SrcLoc};
pub use lockstep_smt::SolverKind;

/// How to prove a kernel: the launch configuration and the prover's options.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    /// Threads per group in each dimension; `None` is symbolic (`*`).
    pub group_size: [Option<u64>; 3],
    /// Groups in each dimension; `None` is symbolic (`*`).
    pub num_groups: [Option<u64>; 3],
    /// Work-items in each dimension (OpenCL's `--global_size`), when given:
    /// the group size times the number of groups. Only needed where one of
    /// them is symbolic.
    pub global_size: [Option<u64>; 3],
    /// Dimensions in use (1 to 3); the missing ones have size 1.
    pub dims: u8,
    /// OpenCL's global offset in each dimension (`get_global_offset`), as
    /// `--global_offset` gives it: 0 in the dimensions it does not list.
    pub global_offset: [u64; 3],
    pub solver: SolverKind,
    /// Time limit of each solver query.
    pub query_timeout: Duration,
    /// Check barrier divergence (and annotations) but not races.
    pub only_divergence: bool,
    /// Check races only on the objects of these source names (GPUVerify's
    /// `/checkArrays:`); `None` checks every object.
    pub race_arrays: Option<Vec<String>>,
    /// Only consider two threads of the same group.
    pub only_intra_group: bool,
    /// Do not infer invariants (user invariants are still used).
    pub no_infer: bool,
    /// Candidate rule tags that must not be used (see `candidates::RULES`).
    pub disabled_rules: Vec<String>,
    /// GPUVerify's equality abstraction: any two plain writes of equal
    /// values are a benign race, and the two threads of a group read one
    /// value from the same bytes when neither wrote the object in between
    /// (see `Enc::equal_load`); loads are otherwise adversarial.
    pub equality_abstraction: bool,
    /// Where to write a replayable log of the solver session.
    pub replay_log: Option<PathBuf>,
    /// GPUVerify's `--check-array-bounds`: every access to an array of
    /// statically known size (module-level objects, the kernel's locals) is
    /// checked to lie within it.
    pub check_array_bounds: bool,
    /// Bytes of the buffer behind each pointer parameter that is not a
    /// by-value struct, by position among those parameters, when the launch
    /// gives them (a program's launch, `--kernel-arrays`): every access
    /// through such a parameter is checked to lie within its buffer,
    /// whatever `check_array_bounds` says.
    pub param_sizes: Vec<Option<u64>>,
    /// Give up (`Unknown`) when solving takes longer than this in total
    /// (wall-clock time: a deadline the user set, or a backstop).
    pub time_budget: Option<Duration>,
    /// Give up (`Unknown`) when solving has used more CPU time than this:
    /// the prover's thread and every solver process it started
    /// ([`lockstep_smt::CpuStopwatch`]). Unlike `time_budget`, a busy machine
    /// does not shrink it; it is the safety net of `work_budget`, and the
    /// budget itself where work is not counted (cvc5).
    pub cpu_budget: Option<Duration>,
    /// Give up (`Unknown`) when z3 has done more work than this (`rlimit`
    /// units, summed over the kernel's solver processes) for inference and
    /// the checks after it. Unlike `time_budget`, it gives the same verdict
    /// on a busy machine as on an idle one; `cpu_budget` is then the
    /// safety net. Not counted with cvc5.
    pub work_budget: Option<u64>,
    /// GPUVerify's `--invariants-as-candidates`: user loop invariants are
    /// only candidates (dropped when not inductive).
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--warp-sync=N`: threads of one warp of `N` threads
    /// execute in lockstep, and race only at the same instruction.
    pub warp_size: Option<u32>,
    /// GPUVerify's `--no-annotations`: source annotations are ignored.
    pub no_annotations: bool,
    /// GPUVerify's `--only-requires`: annotations other than preconditions
    /// are ignored.
    pub only_requires: bool,
    /// The most address space each solver may use, in bytes.
    pub solver_memory: Option<u64>,
    /// How many times a query's time limit the solver's timer allows when
    /// its work is limited (`lockstep_smt::SolverConfig::timer_factor`):
    /// [`lockstep_smt::TIMER_FACTOR`], so that load does not change
    /// answers, or 1 under a deadline the user set (`--timeout`).
    pub solver_timer_factor: u32,
    /// Drop the candidate invariants a concrete run falsifies before
    /// Houdini's first query (the Daikon filter, [`daikon`]), when the
    /// caller gives an [`Observer`].
    pub daikon: bool,
    /// Set by the caller when the proof is no longer wanted (the engine's
    /// concrete search, run beside the prover, confirmed a violation):
    /// the prover then stops at its next query and answers `Unknown`,
    /// which the caller discards. Never set, it changes nothing.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl ProveConfig {
    /// Whether races on the object of source name `name` are checked (all
    /// are, unless `/checkArrays` names the checked ones).
    pub fn races_checked_on(&self, name: &str) -> bool {
        self.race_arrays.as_ref().is_none_or(|names| names.iter().any(|n| lockstep_kir::object_named(name, n)))
    }
}

impl Default for ProveConfig {
    fn default() -> Self {
        ProveConfig {
            group_size: [None, Some(1), Some(1)],
            num_groups: [None, Some(1), Some(1)],
            global_size: [None; 3],
            dims: 1,
            global_offset: [0; 3],
            solver: SolverKind::Z3,
            query_timeout: Duration::from_secs(10),
            only_divergence: false,
            race_arrays: None,
            only_intra_group: false,
            no_infer: false,
            disabled_rules: Vec::new(),
            equality_abstraction: false,
            replay_log: None,
            check_array_bounds: false,
            param_sizes: Vec::new(),
            time_budget: None,
            cpu_budget: None,
            work_budget: None,
            solver_memory: Some(lockstep_smt::solver::DEFAULT_MEMORY_LIMIT),
            solver_timer_factor: lockstep_smt::TIMER_FACTOR,
            invariants_as_candidates: false,
            warp_size: None,
            no_annotations: false,
            only_requires: false,
            daikon: true,
            stop: None,
        }
    }
}

/// A location in the module: the function and instruction (of the module,
/// not of the inlined copy), with its source location when known.
#[derive(Clone, Debug, PartialEq)]
pub struct KirLoc {
    pub func: FuncId,
    pub inst: InstId,
    pub src: Option<SrcLoc>,
}

/// One thread of an abstract counterexample.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ThreadIds {
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
}

/// One side of a racing pair.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessInfo {
    pub at: Option<KirLoc>,
    /// `read`, `write` or `atomic`.
    pub kind: &'static str,
    pub byte_offset: Option<u64>,
}

/// A check that could not be proved, with the model's values.
#[derive(Clone, Debug, PartialEq)]
pub struct FailedCheck {
    pub kind: ViolationKind,
    pub message: String,
    /// The statement checked (thread 2's access for a race, the barrier,
    /// the annotation).
    pub at: Option<KirLoc>,
    /// For races: the logged access of thread 1 (`first`) and the checked
    /// access of thread 2 (`second`).
    pub first: Option<AccessInfo>,
    pub second: Option<AccessInfo>,
    /// The memory object, for races.
    pub object: Option<String>,
    /// Thread 1 and thread 2 of the counterexample.
    pub threads: [ThreadIds; 2],
    /// Symbolic launch sizes chosen by the model (block, grid).
    pub group_size: Option<[u64; 3]>,
    pub num_groups: Option<[u64; 3]>,
}

/// The result of [`prove_kernel`].
#[derive(Clone, Debug, PartialEq)]
pub enum ProveOutcome {
    Verified {
        /// The properties proved.
        proved: Vec<String>,
        /// What the proof assumes.
        assumptions: Vec<String>,
        /// The inferred and user invariants used: (rule tag, text).
        invariants: Vec<(String, String)>,
    },
    Failed { violations: Vec<FailedCheck> },
    Unknown { reason: String, at: Option<SrcLoc> },
}

/// Runs `kernel` of a module concretely, on launches and inputs the
/// kernel's preconditions allow, and records the loop-head states the plan
/// asks for: one `Observations` per clean run (without a violation, broken
/// preconditions, or overflow the source promises not to happen). The
/// engine gives one to the prover for the Daikon filter ([`daikon`]).
pub type Observer<'a> = &'a dyn Fn(&Module, FuncId, &lockstep_analysis::observe::ObservePlan) -> Vec<lockstep_analysis::observe::Observations>;

/// Proves `kernel` of `module` race-free, divergence-free and correct with
/// respect to its annotations, for every launch `config` allows.
pub fn prove_kernel(module: &Module, kernel: FuncId, config: &ProveConfig) -> ProveOutcome {
    prove_kernel_observed(module, kernel, config, None)
}

/// [`prove_kernel`], with the candidates that `observer`'s run falsifies
/// dropped before inference (when `config.daikon`).
pub fn prove_kernel_observed(module: &Module, kernel: FuncId, config: &ProveConfig, observer: Option<Observer>) -> ProveOutcome {
    let (inlined, problem) = match prepare(module, kernel, None, config) {
        Ok(prepared) => prepared,
        Err(unknown) => return unknown,
    };
    // Postconditions are checked at each inlined call, and also (like
    // GPUVerify, which checks contracts modularly) for every caller the
    // callee's preconditions allow.
    let mut callees: Vec<FuncId> = inlined.postconditions.iter().filter_map(|i| inlined.origin.get(i)).map(|o| o.0).collect();
    callees.sort();
    callees.dedup();
    let outcome = houdini::solve(module, problem, config, observer);
    if !matches!(outcome, ProveOutcome::Verified { .. }) {
        return outcome;
    }
    for callee in callees {
        match check_contract(module, callee, config) {
            ProveOutcome::Verified { .. } => {}
            other => return other,
        }
    }
    outcome
}

/// The stages before solving, for `entry` of `module`: inlining, placing
/// function-wide invariants, promoting private locals, encoding.
/// `contract_of` is the function whose preconditions a wrapper assumes
/// (see `Inlined::contract_of`). A construct no stage handles makes the
/// outcome `Unknown`.
fn prepare(
    module: &Module,
    entry: FuncId,
    contract_of: Option<FuncId>,
    config: &ProveConfig,
) -> Result<(inlined::Inlined, encode::Problem), ProveOutcome> {
    let mut inlined = inlined::inline_kernel(module, entry, contract_of).map_err(|(reason, inst)| {
        let at = module.functions[entry].inst_locs.get(inst).or(module.functions[entry].loc);
        ProveOutcome::Unknown { reason, at }
    })?;
    function_wide::relocate_invariants(&mut inlined);
    if let Err((reason, inst)) = function_wide::place(&mut inlined) {
        let at = *inlined.func.inst_locs.get(inst);
        return Err(ProveOutcome::Unknown { reason, at });
    }
    promote::promote_private_locals(&mut inlined.func);
    let problem = encode::encode(module, entry, &inlined, config)
        .map_err(|e| ProveOutcome::Unknown { reason: e.reason, at: e.at })?;
    Ok((inlined, problem))
}

/// Proves `func`, a function no kernel calls, race-free, divergence-free and
/// correct with respect to its annotations when every thread calls it once
/// with arguments of its own that satisfy its `__requires` (see
/// `modular::standalone_wrapper`): GPUVerify's modular check of every
/// procedure under `--no-inline`, which a kernel-by-kernel check would skip
/// for a function nothing calls.
pub fn prove_uncalled_function(module: &Module, func: FuncId, config: &ProveConfig) -> ProveOutcome {
    let mut m = module.clone();
    let wrapper = m.functions.push(modular::standalone_wrapper(module, func));
    let problem = match prepare(&m, wrapper, Some(func), config) {
        Ok((_, problem)) => problem,
        Err(unknown) => return unknown,
    };
    houdini::solve(&m, problem, config, None)
}

/// Proves that `callee`'s postconditions follow from its preconditions for
/// any caller (see `modular::contract_wrapper`). Only postconditions and the
/// loop invariants they rely on are checked here; everything else is checked
/// in the context of the actual calls.
fn check_contract(module: &Module, callee: FuncId, config: &ProveConfig) -> ProveOutcome {
    // The contract has its own solver session, so its own log file.
    let contract_config;
    let config = match &config.replay_log {
        Some(path) => {
            let name = format!("contract-{}.smt2", module.functions[callee].name);
            contract_config = ProveConfig { replay_log: Some(path.with_extension(name)), ..config.clone() };
            &contract_config
        }
        None => config,
    };
    let mut m = module.clone();
    let wrapper = m.functions.push(modular::contract_wrapper(module, callee));
    let (inlined, mut problem) = match prepare(&m, wrapper, Some(callee), config) {
        Ok(prepared) => prepared,
        Err(unknown) => return unknown,
    };
    problem.obligations.retain(|o| {
        o.cand.is_some()
            || matches!(o.kind, encode::ObKind::Invariant { .. })
            || (matches!(o.kind, encode::ObKind::Annotation(ViolationKind::Postcondition))
                && o.inst.is_some_and(|i| inlined.postconditions.contains(&i)))
    });
    houdini::solve(&m, problem, config, None)
}
