//! The configuration of a replay: the launch geometry, the options that
//! steer the interpreter, and where `havoc` values come from.

use crate::memory::Memory;
use crate::result::Loc;
use crate::value::Val;
use lockstep_kir::{FuncId, InstId, Type};

use crate::result::ThreadId;

/// A kernel launch: the thread geometry.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Launch {
    /// Threads per group (CUDA `blockDim`, OpenCL local size).
    pub group_size: [u32; 3],
    /// Groups in the grid (CUDA `gridDim`, OpenCL number of groups).
    pub num_groups: [u32; 3],
    /// OpenCL's global offset (`get_global_offset`); zero for CUDA.
    pub global_offset: [u32; 3],
}

impl Launch {
    /// A one-dimensional launch of `groups` groups of `group_size` threads.
    pub fn linear(group_size: u32, groups: u32) -> Launch {
        Launch {
            group_size: [group_size, 1, 1],
            num_groups: [groups, 1, 1],
            global_offset: [0; 3],
        }
    }

    /// Threads per group; saturates at `u64::MAX` (three 32-bit sizes can
    /// multiply past 64 bits), which no launch the replay accepts reaches.
    pub fn threads_per_group(&self) -> u64 {
        self.group_size.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64))
    }

    /// Whether CUDA runs this launch: every device since compute
    /// capability 2.0 allows at most 1024 threads per block, 1024 in x and
    /// y and 64 in z, and grids below 2^31 in x and 65536 in y and z; no
    /// size may be zero. The runtime refuses any other launch, so a
    /// witness that needs one is no behaviour of a CUDA program.
    pub fn cuda_launchable(&self) -> bool {
        let [bx, by, bz] = self.group_size;
        let [gx, gy, gz] = self.num_groups;
        let sizes_positive = self.group_size.iter().chain(&self.num_groups).all(|&d| d > 0);
        let block_ok = self.threads_per_group() <= 1024 && bx <= 1024 && by <= 1024 && bz <= 64;
        let grid_ok = gx < 1 << 31 && gy < 1 << 16 && gz < 1 << 16;
        sizes_positive && block_ok && grid_ok
    }

    /// Groups in the grid; saturates like `threads_per_group`.
    pub fn groups(&self) -> u64 {
        self.num_groups.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64))
    }

    /// The id of the thread with global linear index `index` (groups in
    /// row-major x-fastest order, threads likewise inside each group).
    pub fn thread_id(&self, index: u32) -> ThreadId {
        let per_group = self.threads_per_group() as u32;
        ThreadId {
            local: unlinear(index % per_group, self.group_size),
            group: unlinear(index / per_group, self.num_groups),
        }
    }

    /// The global linear index of a thread (the inverse of `thread_id`).
    pub fn thread_index(&self, id: ThreadId) -> u32 {
        let per_group = self.threads_per_group() as u32;
        linear(id.group, self.num_groups) * per_group + linear(id.local, self.group_size)
    }
}

pub(crate) fn unlinear(mut i: u32, dims: [u32; 3]) -> [u32; 3] {
    let x = i % dims[0];
    i /= dims[0];
    let y = i % dims[1];
    i /= dims[1];
    [x, y, i]
}

pub(crate) fn linear(id: [u32; 3], dims: [u32; 3]) -> u32 {
    id[0] + dims[0] * (id[1] + dims[1] * id[2])
}

/// Options of the interpreter. `Default` gives the portable semantics of
/// DESIGN.md: no warp lock-step, every check on.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// Warp-synchronous execution (GPUVerify's `--warp-sync=N`). When set,
    /// the threads of each warp of `N` consecutive threads (by linear local
    /// id) execute in lock-step, one instruction per lane in turn, and two
    /// accesses by threads of the same warp never race. When unset, threads
    /// run independently between barriers.
    pub warp_size: Option<u32>,
    /// How many lanes form a warp for warp intrinsics (shuffles, ballots,
    /// `__syncwarp`, lane ids) when `warp_size` is unset.
    pub warp_lanes: u32,
    /// Instructions one thread may execute before it is stopped and the
    /// replay reported incomplete.
    pub step_budget_per_thread: u64,
    /// Instructions all threads together may execute.
    pub step_budget_total: u64,
    /// Violations recorded before further ones are dropped (and
    /// `ReplayResult::violations_truncated` set).
    pub max_violations: usize,
    /// Deepest call stack before a thread is stopped as incomplete.
    pub max_call_depth: usize,
    /// Bytes of an unsized `__shared__` array (CUDA `extern __shared__`,
    /// the launch's dynamic shared memory).
    pub dynamic_shared_size: u64,
    /// Bytes of any other unsized global.
    pub unsized_global_size: u64,
    /// The byte that fills `__device__`/`__constant__` globals with no
    /// initialiser and `__shared__` arrays at the start of each group.
    pub global_fill: u8,
    /// Seed of the default `havoc` generator.
    pub havoc_seed: u64,
    /// Whether to log accesses and report data races (off: faster when only
    /// outputs matter).
    pub check_races: bool,
    /// Whether to report races between threads of different groups.
    pub check_inter_group_races: bool,
    /// Whether two plain writes of the same value to a byte are benign, not
    /// a race, and so is a read of a byte its thread itself wrote since its
    /// last barrier against another thread's write of the value it wrote
    /// (GPUVerify's default; its `--no-benign` turns this off; see
    /// `races`).
    pub tolerate_benign_races: bool,
    /// Whether a write of a value read from memory can be benign too. Off
    /// by default (GPUVerify's adversarial abstraction lets two threads read
    /// different values); on under `--equality-abstraction`, where threads
    /// reading one location in an interval see one value.
    pub benign_writes_from_memory: bool,
    /// Run only these groups (by linear group index); the others do not
    /// execute. Confirming a witness needs only the groups of its threads, so
    /// its cost does not grow with the grid. `None` runs every group.
    pub only_groups: Option<Vec<u32>>,
    /// The bits every unspecified value (an uninitialised variable, LLVM's
    /// `undef`) holds, masked to its type. Any value is possible; 0 is the
    /// default, and a second run with all ones shows what depends on it.
    pub undefined_value: u128,
    /// The code runs on the host (a program's `main`): device memory
    /// (`Global`, `Constant` and `Shared` objects) may only be reached
    /// through the runtime API, and a direct access is a violation.
    pub host_code: bool,
    /// Records branches on undetermined values that have a term in the
    /// path condition (`Terms::path`) also outside host code, rather than
    /// joining their ways (`definedness::branch_join`, which leaves the
    /// values it merges without terms): a whole program's runs and
    /// launches when its paths through its input are explored, so that a
    /// kernel's branches on input join the host's.
    pub record_path: bool,
    /// Loops that only read input (`lockstep_analysis::input_loops`), in
    /// a run that explores a program's paths through its input: the first
    /// time the run goes round one, the environment gives its targets
    /// fresh input values (`HavocOracle::input_round`); the second time,
    /// the run ends there (`ReplayResult::cut_at_input_loop`), since what
    /// follows is what follows the first time, for some input.
    pub input_loops: Vec<lockstep_analysis::input_loops::InputLoop>,
    /// What OpenCL's `get_work_dim()` returns: the launch's dimensions.
    pub work_dim: u32,
    /// The most bytes all objects together may have written (backed
    /// pages); past it the replay stops, incomplete. Default:
    /// `memory::MAX_RESIDENT_BYTES`.
    pub memory_budget: u64,
    /// The most resident memory the whole process may hold while the
    /// replay runs (looked at every few thousand steps); past it the
    /// replay stops, incomplete. The memory an interpreter needs besides
    /// the program's (race logs, thread states) is bounded so. `None`: no
    /// such check.
    pub process_memory_limit: Option<u64>,
    /// When the replay must stop, incomplete, whatever its budgets say (the
    /// check's `--timeout`): looked at every few thousand steps, so that a
    /// loop of billions of iterations ends on time. `None`: no deadline.
    pub deadline: Option<std::time::Instant>,
    /// Track which bits of each value are undetermined, and count only
    /// their uses (see `definedness`); off, every executed `undef` operand
    /// and read of never-written memory counts.
    pub track_definedness: bool,
    /// With `track_definedness`: the undetermined bits of each argument of
    /// the entry function (missing ones are determined).
    pub arg_undefined: Vec<u128>,
    /// With `track_definedness`: the term of each undetermined argument of
    /// the entry function (`terms`; missing ones have none), in the
    /// replay's `Memory::terms`.
    pub arg_terms: Vec<crate::terms::TermId>,
    /// Record the states of the entry function's loop heads that the plan
    /// asks for (`ReplayResult::observations`; see
    /// `lockstep_analysis::observe`).
    pub observe: Option<std::sync::Arc<lockstep_analysis::observe::ObservePlan>>,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            warp_size: None,
            warp_lanes: 32,
            step_budget_per_thread: 1_000_000,
            step_budget_total: 200_000_000,
            max_violations: 100,
            max_call_depth: 256,
            dynamic_shared_size: 0,
            unsized_global_size: 0,
            global_fill: 0,
            havoc_seed: 0x6c6f_636b_7374_6570,
            check_races: true,
            check_inter_group_races: true,
            tolerate_benign_races: true,
            benign_writes_from_memory: false,
            only_groups: None,
            undefined_value: 0,
            host_code: false,
            record_path: false,
            input_loops: Vec::new(),
            work_dim: 3,
            memory_budget: crate::memory::MAX_RESIDENT_BYTES,
            process_memory_limit: None,
            deadline: None,
            track_definedness: false,
            arg_undefined: Vec::new(),
            arg_terms: Vec::new(),
            observe: None,
        }
    }
}

/// Where one `havoc` instruction is executed.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct HavocSite {
    pub func: FuncId,
    pub inst: InstId,
    pub thread: ThreadId,
    /// How many `havoc` instructions this thread executed before this one.
    pub count: u64,
    pub ty: Type,
}

/// One call of a function without a body, as the environment sees it.
pub struct ExternalCall<'c> {
    pub name: &'c str,
    pub args: &'c [Val],
    pub arg_types: &'c [Type],
    pub ret: Option<Type>,
    /// Where the call is, for reports.
    pub loc: Loc,
    /// The undetermined bits of each argument (empty unless the replay
    /// tracks definedness).
    pub arg_undefined: &'c [u128],
    /// Uses of unspecified values the replay counted before this call.
    pub uses_so_far: u64,
}

/// What the environment made of an external call.
pub enum ExternalOutcome {
    /// The call returned (with this value, for a non-void call).
    Return(Option<Val>),
    /// The call ended the program (`exit`): the thread stops normally.
    Exit,
    /// The call cannot be executed: the replay is incomplete for this reason.
    Unsupported(String),
}

/// The environment of a replay: a source of `havoc` values (for callers that
/// replay a witness whose solver model fixed them) and, optionally, the
/// semantics of external functions (the host-program model implements the
/// CUDA runtime API and the C library this way). Returned havoc bits are
/// masked to the type's width; for pointer types they are decoded as by
/// `inttoptr`.
pub trait HavocOracle {
    fn havoc(&mut self, site: &HavocSite) -> u128;

    /// Executes an external call, or returns `None` to leave it to the
    /// interpreter's own model (math functions; anything else becomes an
    /// uninterpreted function of its arguments).
    fn call_external(&mut self, _call: &ExternalCall<'_>, _memory: &mut Memory) -> Option<ExternalOutcome> {
        None
    }

    /// With definedness tracked: the undetermined bits of the value the
    /// last `call_external` returned (asked once, after the call).
    fn result_undefined(&mut self) -> u128 {
        0
    }

    /// With definedness tracked: the term the environment gave the value
    /// the last `call_external` returned (an input draw it numbers itself),
    /// or 0 to let the interpreter make a fresh draw (asked once, after
    /// the call).
    fn result_term(&mut self) -> crate::terms::TermId {
        0
    }

    /// A run went round an input loop (`ReplayOptions::input_loops`) for
    /// the first time: give the `(object, size)` targets fresh input
    /// values, marked undetermined with terms of their own. `false` when
    /// the environment cannot, which stops the run.
    fn input_round(&mut self, _targets: &[(crate::value::ObjId, u64)], _memory: &mut Memory) -> bool {
        false
    }
}

/// The default oracle: a hash of the seed and the site, so that the value a
/// thread sees does not depend on the schedule.
#[derive(Copy, Clone, Debug)]
pub struct SeededHavoc {
    pub seed: u64,
}

impl HavocOracle for SeededHavoc {
    fn havoc(&mut self, site: &HavocSite) -> u128 {
        let mut h = self.seed;
        for word in [
            site.func.as_u32() as u64,
            site.inst.as_u32() as u64,
            ((site.thread.local[0] as u64) << 32) | site.thread.group[0] as u64,
            ((site.thread.local[1] as u64) << 32) | site.thread.group[1] as u64,
            ((site.thread.local[2] as u64) << 32) | site.thread.group[2] as u64,
            site.count,
        ] {
            h = splitmix(h ^ word);
        }
        ((splitmix(h) as u128) << 64) | h as u128
    }
}

/// SplitMix64's finaliser: a fast, well-mixing 64-bit hash step.
pub(crate) fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
