//! What a replay reports: violations with the threads and instructions
//! involved, why a replay is incomplete, and the final memory.
//!
//! Locations are KIR locations (`Loc`: function, block, instruction);
//! callers map them to source positions through `Function::inst_locs` (or
//! `term_locs` for a terminator, whose `inst` is `None`).

use std::fmt;

use lockstep_kir::{AnnotKind, BarrierScope, BlockId, FuncId, InstId, MemSpace};

use crate::memory::Memory;
use crate::value::{ObjId, Pointer};

/// A thread of the launch.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ThreadId {
    /// The thread's id within its group (`threadIdx`).
    pub local: [u32; 3],
    /// The group's id (`blockIdx`).
    pub group: [u32; 3],
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.local;
        let [gx, gy, gz] = self.group;
        write!(f, "thread ({x},{y},{z}) of group ({gx},{gy},{gz})")
    }
}

/// A point of execution: an instruction, or the terminator of `block` when
/// `inst` is `None`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Loc {
    pub func: FuncId,
    pub block: BlockId,
    pub inst: Option<InstId>,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inst {
            Some(i) => write!(f, "{}:{}", self.func, i),
            None => write!(f, "{}:{}:terminator", self.func, self.block),
        }
    }
}

/// One side of a data race.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RaceAccess {
    pub loc: Loc,
    pub thread: ThreadId,
    pub write: bool,
    pub atomic: bool,
    pub object: ObjId,
    /// The byte both accesses touch (the first such byte of this access).
    pub offset: u64,
}

/// Where a set of threads stood when a barrier could not be passed
/// uniformly.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Arrival {
    /// The barrier the threads wait at (`None`: the threads had exited).
    pub barrier: Option<Loc>,
    /// How many times each of these threads had reached that barrier
    /// (counting this time), per call path.
    pub occurrence: u32,
    /// Up to four of the threads.
    pub threads: Vec<ThreadId>,
    /// How many threads stood there.
    pub count: usize,
}

/// The kinds of violation a replay detects.
#[derive(Clone, PartialEq, Debug)]
pub enum ViolationKind {
    /// Two threads access one byte, at least one writes, not both
    /// atomically, and no barrier both passed separates them. `first` is the
    /// access executed first in the replay's schedule; the violation's
    /// `loc` and `thread` are those of `second`.
    DataRace {
        first: RaceAccess,
        second: RaceAccess,
        inter_group: bool,
        space: MemSpace,
    },
    /// The threads of a group (or of the grid, for a grid barrier) did not
    /// all reach the same barrier the same number of times.
    BarrierDivergence {
        scope: BarrierScope,
        arrivals: Vec<Arrival>,
    },
    /// A warp operation's mask names a lane that never executes it: the
    /// lane has exited or waits at a group barrier (CUDA requires every
    /// lane a mask names to execute the operation). `arrivals`: the caller
    /// at the operation, then the absent lane where it is (`None`: exited).
    NamedLaneAbsent {
        arrivals: Vec<Arrival>,
    },
    /// An access outside its object (negative offset or past the end).
    OutOfBounds {
        object: ObjId,
        offset: i64,
        width: u64,
        size: u64,
        write: bool,
    },
    /// An access through a pointer into no object.
    NullDereference { offset: i64, write: bool },
    /// An access to a private object whose frame has returned.
    DeadObject { object: ObjId, write: bool },
    /// A store, atomic or memset/memcpy into `__constant__` memory.
    ConstantWrite { object: ObjId, offset: i64 },
    /// Host code (`ReplayOptions::host_code`) read or wrote device memory
    /// directly instead of through the runtime API.
    DeviceMemoryFromHost { object: ObjId, write: bool },
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// Signed division or remainder of the minimum value by -1.
    DivisionOverflow,
    /// A failing `assert` (or `requires`/`ensures`/invariant checked where
    /// it appears).
    AssertionFailed { annot: AnnotKind },
    /// An `unreachable` terminator was reached.
    Unreachable,
    /// A call through a function pointer that is the address of no
    /// function of the call's type (`InstKind::InvalidCall`): `target` is
    /// the pointer, null or not.
    InvalidCall { target: Pointer },
    /// The work-items of a group made a group-wide call (`what`, e.g.
    /// `async_work_group_copy`) with arguments that differ between them.
    NonUniformGroupCall { what: &'static str },
}

impl ViolationKind {
    /// The name DESIGN.md's JSON output uses for this kind.
    pub fn name(&self) -> &'static str {
        match self {
            ViolationKind::DataRace { .. } => "data-race",
            ViolationKind::BarrierDivergence { .. } | ViolationKind::NamedLaneAbsent { .. } => "barrier-divergence",
            ViolationKind::OutOfBounds { .. } | ViolationKind::DeadObject { .. } => "out-of-bounds",
            ViolationKind::NullDereference { .. } => "null-pointer",
            ViolationKind::ConstantWrite { .. } => "constant-write",
            ViolationKind::DeviceMemoryFromHost { .. } => "api-misuse",
            ViolationKind::DivisionByZero => "division-by-zero",
            ViolationKind::DivisionOverflow => "overflow",
            ViolationKind::AssertionFailed { annot } => match annot {
                AnnotKind::Requires | AnnotKind::GlobalRequires => "precondition",
                AnnotKind::Ensures | AnnotKind::GlobalEnsures => "postcondition",
                AnnotKind::Invariant
                | AnnotKind::GlobalInvariant
                | AnnotKind::FunctionWideInvariant => "invariant",
                _ => "assertion",
            },
            ViolationKind::Unreachable => "assertion",
            ViolationKind::InvalidCall { .. } => "null-pointer",
            ViolationKind::NonUniformGroupCall { .. } => "barrier-divergence",
        }
    }
}

/// One violation found by a replay.
#[derive(Clone, PartialEq, Debug)]
pub struct ReplayViolation {
    pub kind: ViolationKind,
    /// Where it happened (for a race, the second access; for a divergence,
    /// the first barrier listed).
    pub loc: Loc,
    /// The thread that executed `loc` (for a divergence, a thread of the
    /// first arrival).
    pub thread: ThreadId,
    /// A one-line description.
    pub message: String,
}

/// Why a thread or the replay stopped before finishing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IncompleteReason {
    /// The thread exceeded `step_budget_per_thread`.
    StepBudget,
    /// All threads together exceeded `step_budget_total`.
    TotalStepBudget,
    /// The call stack exceeded `max_call_depth`.
    CallDepth,
    /// A construct the interpreter cannot execute (the reason says which).
    Unsupported(String),
}

impl fmt::Display for IncompleteReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IncompleteReason::StepBudget => f.write_str("a thread ran out of its step budget"),
            IncompleteReason::TotalStepBudget => f.write_str("the run ran out of its step budget"),
            IncompleteReason::CallDepth => f.write_str("the call stack grew past its limit"),
            IncompleteReason::Unsupported(why) => f.write_str(why),
        }
    }
}

/// A thread that stopped early, and where.
#[derive(Clone, PartialEq, Debug)]
pub struct ThreadEvent {
    pub loc: Loc,
    pub thread: ThreadId,
}

/// The outcome of a replay.
#[derive(Clone, Debug)]
pub struct ReplayResult {
    /// Every distinct violation (deduplicated by kind and instruction
    /// pair), in the order found.
    pub violations: Vec<ReplayViolation>,
    /// True when the limit `max_violations` dropped some.
    pub violations_truncated: bool,
    /// True when every thread ran to its end (or was stopped by a
    /// violation such as `unreachable`); false when a budget or an
    /// unsupported construct cut the replay short.
    pub completed: bool,
    /// Why threads stopped early, deduplicated by reason and location.
    pub incomplete: Vec<(IncompleteReason, ThreadEvent)>,
    /// Threads stopped by a failing `assume`: the concrete inputs violate an
    /// assumption, so the replay does not witness anything past that point.
    pub infeasible: Vec<ThreadEvent>,
    /// Annotation constructs the replay cannot evaluate (they only make
    /// sense for the two-thread engines), deduplicated by location. They
    /// evaluate to 0 (false); annotations of a thread that evaluated one are
    /// not reported as failures but listed here too.
    pub unsupported: Vec<(String, Loc)>,
    /// Instructions executed (terminators included), all threads together.
    pub steps: u64,
    /// Threads that returned from the kernel.
    pub threads_exited: u64,
    /// Executed uses of unspecified values (`undef`, `havoc` results; see
    /// `lockstep_analysis::unspecified`), all threads together. The
    /// interpreter gives each such value one concrete value
    /// (`ReplayOptions::undefined_value`, the oracle's havoc), so a run
    /// with a use is one behaviour among several, like a run that reads
    /// memory never written (`Memory::undefined_reads`).
    pub unspecified_uses: u64,
    /// Those of `unspecified_uses` that the path condition does not record
    /// (`Terms::path`): every use but a branch on a value with a term, in
    /// a run that records its path (`ReplayOptions::host_code` or
    /// `record_path`). A run without any took, for every choice of its
    /// undetermined values that satisfies its path condition, the same
    /// way.
    pub untracked_uses: u64,
    /// The run ended where it went round an input loop a second time
    /// (`ReplayOptions::input_loops`): what would follow was covered from
    /// the first time round.
    pub cut_at_input_loop: bool,
    /// Where the first of those uses was.
    pub first_unspecified_use: Option<Loc>,
    /// Executions of integer operations whose no-wrap promise failed
    /// (`Function::no_wrap`: a signed `nsw` operation that overflowed, an
    /// `nuw` one that wrapped), all threads together. The interpreter
    /// computes the wrapped result and goes on, but the run has undefined
    /// behaviour (C/C++ signed overflow): the prover assumes the promise,
    /// so what such a run shows confirms nothing.
    pub no_wrap_overflows: u64,
    /// Where the first of those was, and the thread that executed it.
    pub first_no_wrap_overflow: Option<(Loc, ThreadId)>,
    /// With definedness tracked: the determined values that undetermined
    /// ones were compared with (at most `definedness::MAX_COMPARED`), the
    /// values most worth trying for them in another run.
    pub compared_values: Vec<u128>,
    /// The loop-head states `ReplayOptions::observe` asked for.
    pub observations: Option<lockstep_analysis::observe::Observations>,
    /// The final contents of every memory object.
    pub memory: Memory,
}

impl ReplayResult {
    /// True when no failing `assume` stopped a thread.
    pub fn is_feasible(&self) -> bool {
        self.infeasible.is_empty()
    }

    /// The violations of the kind named `name` (`ViolationKind::name`).
    pub fn violations_named<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = &'a ReplayViolation> + 'a {
        self.violations
            .iter()
            .filter(move |v| v.kind.name() == name)
    }

    /// The data races found.
    pub fn races(&self) -> impl Iterator<Item = &ReplayViolation> {
        self.violations
            .iter()
            .filter(|v| matches!(v.kind, ViolationKind::DataRace { .. }))
    }
}

/// A replay that could not start.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// The function id names no function, or not a kernel.
    NoSuchKernel(FuncId),
    /// The number of arguments differs from the kernel's parameters.
    ArgumentCount { expected: usize, found: usize },
    /// A launch dimension is zero or the launch has more than 2^32 threads.
    BadLaunch(String),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::NoSuchKernel(id) => write!(f, "{id} is not a function of the module"),
            ReplayError::ArgumentCount { expected, found } => {
                write!(f, "the kernel takes {expected} arguments, {found} given")
            }
            ReplayError::BadLaunch(why) => write!(f, "invalid launch: {why}"),
        }
    }
}

impl std::error::Error for ReplayError {}
