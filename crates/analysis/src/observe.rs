//! Observations of loop heads in a concrete run: the side table that the
//! prover's Daikon filter (`lockstep_prove::daikon`) reads and the
//! interpreter (`lockstep_replay`) fills.
//!
//! The prover asks for the states a concrete run goes through at its loop
//! cut points (an `ObservePlan`: the loops' headers and bodies, and the
//! values each candidate invariant may mention), and the interpreter
//! records, for a sample of threads, each arrival at a header: where in the
//! loop nest the thread is (its iteration of each enclosing loop and of the
//! loop itself), the header's parameters, their values when the loop was
//! entered, and the planned values (`Snapshot`). The table is bounded: at
//! most `per_instance` arrivals of one thread in one run of a loop (the
//! first ones, then the latest replaces the last kept), and at most
//! `per_loop` arrivals per loop in all.
//!
//! With a `LogPlan`, the interpreter also records, for the same threads,
//! the accesses each one made since its last barrier that orders the
//! object's memory (the accesses the prover's race log of that thread may
//! hold at a loop head), each with the values of the loop counters current
//! when it was made (the log's ghost copies), so that the candidates about
//! the logs can be evaluated too (`Snapshot::logs`).
//!
//! Both crates see only block and value ids of the function the prover
//! encodes, which is why the plan names them and the interpreter runs that
//! function.

use std::collections::{BTreeMap, BTreeSet};

use lockstep_kir::{BlockId, GlobalId, InstId, ValueId};

/// What to record: one entry per loop, in the prover's loop order.
#[derive(Clone, Debug, Default)]
pub struct ObservePlan {
    pub loops: Vec<LoopPlan>,
    /// The threads recorded, by linear local id within their group (in
    /// every group that runs).
    pub lanes: Vec<u32>,
    /// Arrivals kept per thread and run of a loop (see the module doc).
    pub per_instance: usize,
    /// Arrivals kept per loop, all threads together.
    pub per_loop: usize,
    /// What to record of the race logs, when anything.
    pub logs: Option<LogPlan>,
}

/// The race logs to record (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct LogPlan {
    /// The objects whose accesses are logged, in the prover's log order.
    pub objects: Vec<LogObject>,
    /// The access instructions the prover logs (no other is recorded),
    /// each with the kind of log it goes to (0 read, 1 write, 2 atomic) and
    /// the ghost slots it sets: those of the loops around it.
    pub sites: BTreeMap<InstId, (u8, Vec<usize>)>,
    /// The ghost slots: the loop-header parameter whose current value each
    /// slot copies at a logged access.
    pub ghosts: Vec<ValueId>,
    /// Accesses kept per thread and object at one arrival (the first
    /// ones, then the latest replaces the last kept).
    pub per_log: usize,
}

/// A memory object of the prover's logs, as the interpreter finds it.
#[derive(Clone, Debug, PartialEq)]
pub enum LogObject {
    /// A module global (each group's instance of a `__shared__` one).
    Global(GlobalId),
    /// The buffer behind pointer parameter `k` (by position).
    Param(u32),
    /// An object the interpreter cannot name (memory reached through a
    /// loaded pointer): nothing is recorded for it.
    Other,
}

/// One recorded access of a thread.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// The prover's kind of access: 0 read, 1 write, 2 atomic.
    pub kind: u8,
    /// Byte offset within the object, and width in bytes.
    pub offset: u64,
    pub width: u64,
    /// The instruction that made it.
    pub site: InstId,
    /// The plan's ghost values at the access (`None` for pointers and for
    /// the slots the site does not set).
    pub ghosts: Vec<Option<u128>>,
}

/// One loop of the plan.
#[derive(Clone, Debug)]
pub struct LoopPlan {
    pub header: BlockId,
    /// The loop's blocks (header included): an arrival from one of them is
    /// the next iteration, from elsewhere a new run of the loop.
    pub body: BTreeSet<BlockId>,
    /// The loops around this one, outermost first (indices into
    /// `ObservePlan::loops`).
    pub enclosing: Vec<usize>,
    /// Values defined before the loop whose current values are recorded at
    /// each arrival.
    pub values: Vec<ValueId>,
}

/// One thread's arrival at a loop header.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub local_id: [u32; 3],
    pub group_id: [u32; 3],
    /// The thread's iteration (1 for the first arrival) of each enclosing
    /// loop, outermost first, then of this loop: two threads with equal
    /// positions are in the same iteration of the same run of the loop.
    pub position: Vec<u32>,
    /// The header's parameters (`None` for pointers).
    pub params: Vec<Option<u128>>,
    /// The header's parameters at the first arrival of this run of the loop.
    pub entry: Vec<Option<u128>>,
    /// The plan's `values` (`None` for pointers).
    pub values: Vec<Option<u128>>,
    /// Per logged object (`LogPlan::objects`), the thread's accesses since
    /// its last barrier that orders the object's memory (a sample of at
    /// most `LogPlan::per_log`); empty without a `LogPlan`.
    pub logs: Vec<Vec<LogEntry>>,
    /// Per logged object, the thread's accesses as a thread of another
    /// group sees them: since its last barrier that orders the object's
    /// memory for the whole grid. A group's barrier clears a global
    /// object's log only for a pair of threads of one group (the prover's
    /// encoding of barriers), so for a pair of threads of two groups the
    /// first one's log may still hold what it accessed before it. For
    /// shared objects (which threads of two groups never share) the same as
    /// `logs`.
    pub logs_across_groups: Vec<Vec<LogEntry>>,
}

/// What a run recorded: per plan loop, its snapshots; and the launch.
#[derive(Clone, Debug, Default)]
pub struct Observations {
    pub loops: Vec<Vec<Snapshot>>,
    pub group_size: [u32; 3],
    pub num_groups: [u32; 3],
}

/// The lanes worth recording in a group of `per_group` threads: the first
/// and last few, and those around the middle and the first warp's end,
/// where thread-dependent bounds change.
pub fn sample_lanes(per_group: u32) -> Vec<u32> {
    let half = per_group / 2;
    let mut lanes: Vec<u32> = [0, 1, 2, 31, 32, half, half + 1, per_group.saturating_sub(2), per_group.saturating_sub(1)]
        .into_iter()
        .filter(|&l| l < per_group)
        .collect();
    lanes.sort();
    lanes.dedup();
    lanes
}
