//! Symbolic execution of every thread of one arbitrary group.
//!
//! The group's id and the number of groups are SMT constants (concrete when
//! the launch fixes them), the local ids are concrete: the block size must be
//! known, the grid need not be. Scalar arguments and the initial contents
//! of the pointer arguments' buffers are SMT constants and arrays shared by
//! the two kernels (`Inputs`), so that both read the same inputs.
//!
//! Execution follows the barrier intervals: every thread runs to its next
//! barrier (or its end) in turn, then the next interval starts. The result
//! of one interval does not depend on this order when the kernel is free of
//! data races, which is an assumption of every proof (stated in reports, and
//! tested by the interpreter's race detector during differential testing).
//!
//! A thread forks at a branch whose condition is not a literal; its paths
//! run on, each with its path condition, and are merged (values by `ite` on
//! the conditions) when they all meet at the same barrier. Memory effects are
//! guarded by the path condition, so the paths of a thread can share one
//! memory. Loops unroll as long as their conditions are literals (the usual
//! case once thread ids and block sizes are concrete); a loop whose exit
//! depends on symbolic values exhausts the path or step budget and makes the
//! run `Unsupported`, never a wrong answer; in the one-thread mode such a
//! loop with a barrier can instead be aligned with the other kernel's
//! ([`Executor::run_param_aligned`]), and one without a barrier or a write
//! summarised ([`Executor::with_summaries`]).
//!
//! Memory: one object per pointer parameter, `__shared__` global and private
//! object. An object's contents are an SMT array from byte offset (bv64) to
//! elements of one width (every access of an object must use that width and
//! an aligned offset: the alignment conditions are returned, and a proof
//! must show they cannot fail). Writes to literal offsets stay in an overlay
//! map so that reads at literal offsets resolve to values without the
//! solver; a write or read at a symbolic offset first folds the overlay into
//! a named array (a fresh constant defined by an equation in `defs`), which
//! keeps every term small when printed.

use std::collections::{BTreeMap, HashMap, HashSet};

use lockstep_kir::{
    AnnotFn, AnnotKind, BinOp, BlockId, BuiltinVar, CastOp, FloatCC, FloatOp, Function, InstId, InstKind, IntCC,
    MemSpace, SrcLoc, Terminator, Type, ValueDef, ValueId,
};
use lockstep_smt::{FpOp, Sort, TermId, TermStore};

use crate::FloatModel;

mod float;
mod half;
mod inputs;
mod iterate;
mod memory;
mod normalise;
mod prune;
mod summary;
mod warp;

use inputs::{float_format, sort_tag};
pub use inputs::{BufferRead, Inputs};
use normalise::{extract_known, normalise};
pub use prune::Pruner;
pub use iterate::LoopIteration;
use iterate::IterPlan;
pub use summary::LoopSummary;
use summary::SummaryPlan;

/// Why a kernel is outside what the symbolic engine handles.
#[derive(Clone, Debug)]
pub struct Unsupported {
    pub what: String,
    pub loc: Option<SrcLoc>,
}

type Res<T> = Result<T, Unsupported>;

fn unsupported<T>(what: impl Into<String>, loc: Option<SrcLoc>) -> Res<T> {
    Err(Unsupported { what: what.into(), loc })
}

/// A symbolic value.
#[derive(Clone, Debug, PartialEq)]
enum SV {
    /// An `i1`, as an SMT Bool.
    Bool(TermId),
    /// Integers and floats (their IEEE bits).
    Bv(TermId),
    /// A pointer into memory object `obj` at byte offset `off` (bv64).
    Ptr { obj: usize, off: TermId },
}

/// Who a memory object belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ObjKey {
    Param(usize),
    Shared(lockstep_kir::GlobalId),
    Local(usize, lockstep_kir::LocalId),
}

#[derive(Clone)]
struct Obj {
    key: ObjKey,
    name: String,
    /// Element width, fixed by the first access.
    bits: Option<u32>,
    /// The contents below the overlay (None until the first access).
    base: Option<TermId>,
    /// Writes at literal offsets since `base` was last named.
    overlay: BTreeMap<u128, TermId>,
    written: bool,
}

#[derive(Clone)]
struct Path {
    pc: TermId,
    env: HashMap<ValueId, SV>,
    block: BlockId,
    idx: usize,
    /// The barrier the path waits at, or None when it returned.
    at: Option<InstId>,
    /// The block the path just jumped from (for the aligned loop's rules).
    came_from: Option<BlockId>,
    /// The path stopped on arriving at the aligned loop's header.
    at_header: bool,
    /// In the aligned loop's body: the barrier the path passed.
    after_barrier: Option<InstId>,
}

/// A postcondition that fails when `violated` holds.
#[derive(Clone, Debug)]
pub struct Obligation {
    pub violated: TermId,
    pub loc: Option<SrcLoc>,
    pub thread: [u32; 3],
}

/// The writes to one output element (one address term), merged over the
/// threads and paths that make them: the element is written when `guard`
/// holds, and then holds `value`.
#[derive(Clone, Debug)]
pub struct ElementWrite {
    pub off: TermId,
    pub guard: TermId,
    pub value: TermId,
}

/// The writes of a kernel to one pointer parameter, element by element:
/// the per-element view of PUG_para. Valid (`Some`) only when every write
/// happens in one barrier interval, so that, for a race-free kernel, the
/// final value of an element is the value of its unique writer.
#[derive(Clone, Debug, Default)]
pub struct Writes {
    pub elements: Vec<ElementWrite>,
    /// Conditions under which two writes of one thread with different
    /// address terms hit the same element (which the merge by address term
    /// would miss); the per-element view is only sound when none can hold.
    pub self_overlap: Vec<TermId>,
}

struct Record {
    obj: usize,
    interval: u32,
    thread: usize,
    pc: TermId,
    off: TermId,
    value: TermId,
}

/// What a conditional assignment writes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The buffer of a pointer parameter.
    Param(usize),
    /// A `__shared__` variable.
    Shared(lockstep_kir::GlobalId),
}

/// A conditional assignment of the one symbolic thread: in barrier interval
/// `interval`, when `guard` holds, the element at byte offset `off` of
/// `target` becomes `value`. All three are terms over the thread's ids.
#[derive(Clone, Debug)]
pub struct Assignment {
    pub target: Target,
    pub interval: u32,
    pub guard: TermId,
    pub off: TermId,
    pub value: TermId,
}

/// A read of shared memory by the one symbolic thread: `placeholder`
/// stands for the value read until the writer is found.
#[derive(Clone, Debug)]
pub struct SharedRead {
    pub placeholder: TermId,
    pub global: lockstep_kir::GlobalId,
    pub interval: u32,
    pub pc: TermId,
    pub off: TermId,
    pub loc: Option<SrcLoc>,
}

/// A read of a pointer parameter's buffer by the one symbolic thread, in
/// program order with its own writes: `param` shows that no other thread
/// writes the element read, so that the value the thread sees is the input
/// or its own write (a read-modify-write output such as `y[i] += x[i]`).
#[derive(Clone, Debug)]
pub struct GlobalRead {
    pub param: usize,
    pub pc: TermId,
    pub off: TermId,
    pub loc: Option<SrcLoc>,
    /// Made inside an aligned loop (its terms mention the loop's symbols).
    pub in_loop: bool,
}

/// What running the one symbolic thread of a kernel produced.
pub struct ThreadRun {
    pub cas: Vec<Assignment>,
    pub shared_reads: Vec<SharedRead>,
    /// Reads of pointer parameters' buffers.
    pub global_reads: Vec<GlobalRead>,
    /// Infeasible paths dropped at loop branches ([`Pruner`]).
    pub pruned: u32,
    /// `__requires`, as conditions on the thread's ids.
    pub requires: Vec<TermId>,
    pub misaligned: Vec<TermId>,
    /// Pointer parameters the kernel reads.
    pub reads: HashSet<usize>,
    /// Barrier intervals (rounds) the thread went through.
    pub intervals: u32,
    /// Postconditions of the one symbolic thread (evaluated after the
    /// run), with reads of written buffers as placeholders (`post_reads`).
    pub obligations: Vec<Obligation>,
    /// The postconditions' reads of buffers the kernel writes: `param`
    /// resolves each to the value of the element's unique writer.
    pub post_reads: Vec<PostRead>,
    /// The run of [`Executor::run_param_aligned`]: its loop with a barrier.
    pub aligned: Option<LoopRun>,
    /// Loops without a barrier whose trip count is symbolic, summarised
    /// ([`Executor::with_summaries`]), in the order the thread met them.
    pub summaries: Vec<LoopSummary>,
    /// The loop with writes whose trip count is symbolic, iterated
    /// ([`Executor::with_iterations`]).
    pub iteration: Option<LoopIteration>,
}

/// The one loop with a barrier of a kernel, as [`Executor::run_param_aligned`]
/// ran it: once into the loop, one arbitrary iteration, once out of it.
///
/// The iteration starts from symbols that both kernels share: `loop.k<i>`
/// for the values the header carries (the loop counter), and
/// `loop.pre.<name>.<bits>` for the contents of each `__shared__` variable.
/// After the loop, the thread continues from `loop.exit.k<i>` and
/// `loop.post.<name>.<bits>`. `param` proves that this is sound: both
/// loops run the same iterations, both kernels enter them with equal
/// shared memory, and an iteration from equal states leaves equal states.
pub struct LoopRun {
    /// The interval of the iteration: the writes before the loop have
    /// smaller intervals, those after it larger ones.
    pub body_interval: u32,
    /// The header's parameters on entry to the loop.
    pub init: Vec<TermId>,
    /// The header's parameters after one iteration, over `loop.k<i>`.
    pub update: Vec<TermId>,
    /// The `loop.k<i>` symbols themselves.
    pub carried: Vec<TermId>,
    /// The condition (over `loop.k<i>`) under which an iteration runs.
    pub stay: TermId,
    /// The loop's header, for reports.
    pub loc: Option<SrcLoc>,
    /// The reads of `__shared__` memory in the iteration and after the
    /// loop: `param` proves that no other thread writes what they read in
    /// the same barrier interval (they read the interval's start state).
    pub reads: Vec<LoopRead>,
}

/// A read of `__shared__` variable `global` in an aligned loop's run.
#[derive(Clone, Debug)]
pub struct LoopRead {
    pub global: lockstep_kir::GlobalId,
    pub interval: u32,
    pub pc: TermId,
    pub off: TermId,
    pub loc: Option<SrcLoc>,
}

/// Which part of the aligned loop's kernel the thread is in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Prefix,
    Body,
    Suffix,
}

/// The loop alignment of one run (see [`LoopRun`]).
struct LoopPlan {
    header: BlockId,
    blocks: HashSet<BlockId>,
    phase: Phase,
    body_interval: u32,
}

/// What happens to a path that jumps from one block to another in the
/// aligned loop's run.
enum Route {
    Go,
    /// Stop at the loop's header.
    Stop,
    /// Drop the path: it leaves the part being run.
    Drop,
}

/// The one outermost loop of `func` whose body has a barrier, when there is
/// exactly one and no other loop with a barrier.
pub fn barrier_loop(func: &Function) -> Option<lockstep_analysis::loops::Loop> {
    lockstep_analysis::loop_shapes::LoopShapes::compute(func).single_barrier_loop().cloned()
}

/// A postcondition's read of element `off` of the written buffer `param`,
/// on the final memory, by the one symbolic thread: `placeholder` stands
/// for the value until its writer is found.
#[derive(Clone, Debug)]
pub struct PostRead {
    pub placeholder: TermId,
    pub param: usize,
    pub pc: TermId,
    pub off: TermId,
    pub loc: Option<SrcLoc>,
}

/// What running one kernel for one group produced.
pub struct GroupRun {
    /// The per-element writes of each written pointer parameter, when
    /// every write to it happens in one barrier interval.
    pub writes: HashMap<usize, Option<Writes>>,
    /// The final contents of each pointer parameter the kernel writes.
    pub finals: HashMap<usize, TermId>,
    /// Equations defining the named arrays.
    pub defs: Vec<TermId>,
    /// `__requires` conditions (guarded by their path conditions).
    pub requires: Vec<TermId>,
    /// Conditions under which an access is misaligned.
    pub misaligned: Vec<TermId>,
    /// Postconditions, one per thread and `__ensures`.
    pub obligations: Vec<Obligation>,
    /// Pointer parameters the kernel reads.
    pub reads: HashSet<usize>,
    /// Infeasible paths dropped at loop branches ([`Pruner`]).
    pub pruned: u32,
}

/// Instructions executed by all threads before the run gives up.
const STEP_BUDGET: u64 = 2_000_000;
/// Paths one thread may have between two barriers.
const PATH_LIMIT: usize = 64;

pub struct Executor<'a> {
    module: &'a lockstep_kir::Module,
    func: &'a Function,
    /// The thread being executed (for its private objects).
    thread: usize,
    tag: &'a str,
    inp: &'a mut Inputs,
    objs: Vec<Obj>,
    obj_index: HashMap<ObjKey, usize>,
    defs: Vec<TermId>,
    requires: Vec<TermId>,
    misaligned: Vec<TermId>,
    obligations: Vec<Obligation>,
    reads: HashSet<usize>,
    records: Vec<Record>,
    interval: u32,
    writes: HashMap<usize, Option<Writes>>,
    steps: u64,
    /// In postcondition mode loads read the final memory and the thread
    /// stops at its first write or barrier.
    post: bool,
    spec_loads: HashSet<InstId>,
    /// The one-thread mode (`Inputs::local_id` is set): record conditional
    /// assignments and shared reads instead of modelling other threads.
    param: bool,
    cas: Vec<Assignment>,
    shared_reads: Vec<SharedRead>,
    global_reads: Vec<GlobalRead>,
    post_reads: Vec<PostRead>,
    /// [`Self::run_preconditions`]: stop at the first write or barrier.
    pre: bool,
    /// [`Self::run_param_aligned`]: the loop and the part being run.
    plan: Option<LoopPlan>,
    loop_reads: Vec<LoopRead>,
    /// The one-thread mode: drops infeasible paths at the branches of loops.
    prune: Option<Pruner>,
    /// [`Self::with_summaries`]: the loops that may be summarised, by
    /// header, with their blocks.
    summarisable: Option<HashMap<BlockId, HashSet<BlockId>>>,
    /// The loop whose arbitrary iteration is running ([`summary`]).
    summary_plan: Option<SummaryPlan>,
    summaries: Vec<LoopSummary>,
    /// [`Self::with_iterations`]: the loops that may be iterated, by
    /// header, with their blocks.
    iterable: Option<HashMap<BlockId, HashSet<BlockId>>>,
    /// The loop whose iteration is running ([`iterate`]).
    iter_plan: Option<IterPlan>,
    /// The iteration symbol while an iteration runs: the summaries inside
    /// it are functions of it as of the thread's ids.
    iter_ids: Vec<TermId>,
    /// The iterated loop, once it ran, and the buffers it writes (which
    /// the thread may not touch after the loop).
    iteration: Option<LoopIteration>,
    iter_written: HashSet<usize>,
    /// Private objects filled by a `memcpy` at their start, with the
    /// number of bytes copied: the by-value copies of `__half` and
    /// `__half2` that the prelude's operations receive by address.
    copied: HashMap<usize, u128>,
}

impl<'a> Executor<'a> {
    pub fn new(module: &'a lockstep_kir::Module, func: &'a Function, tag: &'a str, inp: &'a mut Inputs) -> Executor<'a> {
        let param = inp.local_id.is_some();
        Executor {
            module,
            func,
            thread: 0,
            tag,
            inp,
            objs: Vec::new(),
            obj_index: HashMap::new(),
            defs: Vec::new(),
            requires: Vec::new(),
            misaligned: Vec::new(),
            obligations: Vec::new(),
            reads: HashSet::new(),
            records: Vec::new(),
            interval: 0,
            writes: HashMap::new(),
            steps: 0,
            post: false,
            spec_loads: lockstep_analysis::ghost::specification_loads(func),
            param,
            cas: Vec::new(),
            shared_reads: Vec::new(),
            global_reads: Vec::new(),
            post_reads: Vec::new(),
            pre: false,
            plan: None,
            loop_reads: Vec::new(),
            prune: None,
            summarisable: None,
            summary_plan: None,
            summaries: Vec::new(),
            iterable: None,
            iter_plan: None,
            iter_ids: Vec::new(),
            iteration: None,
            iter_written: HashSet::new(),
            copied: HashMap::new(),
        }
    }

    /// Drops infeasible paths at loop branches ([`Pruner`]).
    pub fn with_pruning(mut self, pruner: Pruner) -> Self {
        self.prune = Some(pruner);
        self
    }

    /// The pruner back (with the number of paths it dropped).
    pub fn take_pruner(&mut self) -> Option<Pruner> {
        self.prune.take()
    }

    /// Runs every thread of the group to its end, then evaluates the
    /// postconditions of every thread on the final memory.
    pub fn run(mut self) -> Res<GroupRun> {
        check_postcondition_placement(self.func)?;
        let [sx, sy, sz] = self.inp.group_size;
        let threads: Vec<[u32; 3]> =
            (0..sz).flat_map(|z| (0..sy).flat_map(move |y| (0..sx).map(move |x| [x, y, z]))).collect();
        let mut states: Vec<Option<Path>> = threads.iter().map(|_| Some(self.entry_path())).collect();
        let mut ready: Vec<bool> = vec![true; threads.len()];
        loop {
            for (t, lid) in threads.iter().enumerate() {
                if !ready[t] {
                    continue;
                }
                ready[t] = false;
                let Some(path) = states[t].take() else { continue };
                let paths = self.run_paths(t, *lid, vec![path])?;
                let merged = self.merge(paths)?;
                states[t] = merged.at.is_some().then_some(merged);
            }
            // Warps whose threads wait at a warp barrier or shuffle go on
            // first, within the barrier interval.
            if self.resume_warps(&threads, &mut states, &mut ready)? {
                continue;
            }
            let mut barrier: Option<InstId> = None;
            for s in states.iter().flatten() {
                match barrier {
                    None => barrier = s.at,
                    Some(b) if Some(b) != s.at => {
                        let loc = s.at.or(Some(b)).and_then(|i| self.func.inst_locs.get(i).clone());
                        return unsupported("threads of a group reach different barriers (barrier divergence)", loc);
                    }
                    _ => {}
                }
            }
            if barrier.is_none() {
                break;
            }
            // Threads that returned while others wait at a barrier.
            if states.iter().any(Option::is_none) {
                let loc = barrier.and_then(|i| self.func.inst_locs.get(i).clone());
                return unsupported("threads of a group reach different barriers (barrier divergence)", loc);
            }
            ready.iter_mut().for_each(|r| *r = true);
            self.interval += 1;
        }
        self.writes = self.element_writes();
        // Postconditions read the final memory.
        for i in 0..self.objs.len() {
            self.flush(i);
        }
        if self.func.blocks.values().any(|b| b.insts.iter().any(|&i| is_ensures(&self.func.insts[i].kind))) {
            self.post = true;
            for (t, lid) in threads.iter().enumerate() {
                let path = self.entry_path();
                self.run_paths(t, *lid, vec![path])?;
            }
        }
        let mut finals = HashMap::new();
        for o in &self.objs {
            if let (ObjKey::Param(p), true, Some(base)) = (&o.key, o.written, o.base) {
                finals.insert(*p, base);
            }
        }
        Ok(GroupRun {
            writes: std::mem::take(&mut self.writes),
            finals,
            defs: self.defs,
            requires: self.requires,
            misaligned: self.misaligned,
            obligations: self.obligations,
            reads: self.reads,
            pruned: self.prune.as_ref().map_or(0, |p| p.dropped),
        })
    }

    /// The one-thread mode: runs the symbolic thread through every barrier
    /// interval and returns its conditional assignments (PUG_para's CAs:
    /// guard, address and value as terms over the thread's ids) and its
    /// reads of shared memory.
    ///
    /// Postconditions are then evaluated for the same thread as in
    /// [`Self::run`] (re-running it up to its first write or barrier),
    /// with every read of a written buffer a placeholder ([`PostRead`]).
    pub fn run_param(mut self) -> Res<ThreadRun> {
        let has_post = self.func.blocks.values().any(|b| b.insts.iter().any(|&i| is_ensures(&self.func.insts[i].kind)));
        if has_post {
            check_postcondition_placement(self.func)?;
        }
        let mut state = Some(self.entry_path());
        while let Some(path) = state.take() {
            let paths = self.run_paths(0, [0; 3], vec![path])?;
            let merged = self.merge(paths)?;
            if merged.at.is_some() {
                state = Some(merged);
                self.interval += 1;
            }
        }
        let intervals = self.interval + 1;
        if has_post {
            self.post = true;
            let path = self.entry_path();
            self.run_paths(0, [0; 3], vec![path])?;
        }
        Ok(self.into_thread_run(intervals, None))
    }

    /// What the one-thread run recorded, as its result.
    fn into_thread_run(self, intervals: u32, aligned: Option<LoopRun>) -> ThreadRun {
        ThreadRun {
            cas: self.cas,
            shared_reads: self.shared_reads,
            global_reads: self.global_reads,
            pruned: self.prune.as_ref().map_or(0, |p| p.dropped),
            requires: self.requires,
            misaligned: self.misaligned,
            reads: self.reads,
            intervals,
            obligations: self.obligations,
            post_reads: self.post_reads,
            aligned,
            summaries: self.summaries,
            iteration: self.iteration,
        }
    }

    /// The one-thread mode for a kernel whose loop with a barrier has a
    /// trip count that depends on symbolic values (a tree reduction over
    /// `blockDim.x`), PUG_para's loop alignment: the thread runs up to the
    /// loop's header, then one arbitrary iteration (from the header, through
    /// the iteration's one barrier, back to the header) from the shared
    /// symbols described at [`LoopRun`], then from the header out of the
    /// loop to its end. The loop may be left only through its header, may
    /// not write private memory or buffers, and may not touch memory between
    /// its barrier and the next iteration.
    pub fn run_param_aligned(mut self) -> Res<ThreadRun> {
        if self.func.blocks.values().any(|b| b.insts.iter().any(|&i| is_ensures(&self.func.insts[i].kind))) {
            return unsupported("postconditions of a kernel whose loop is aligned", self.func.loc);
        }
        let Some(lp) = barrier_loop(self.func) else {
            return unsupported("not exactly one outermost loop with a barrier", self.func.loc);
        };
        let loc = self.func.term_locs.get(lp.header).clone();
        if lp.exits.iter().any(|&(from, _)| from != lp.header) {
            return unsupported("the loop with a barrier is left other than through its header", loc);
        }
        self.plan = Some(LoopPlan { header: lp.header, blocks: lp.blocks.iter().copied().collect(), phase: Phase::Prefix, body_interval: 0 });

        // Up to the loop.
        let mut path = self.entry_path();
        let entry = loop {
            let paths = self.run_paths(0, [0; 3], vec![path])?;
            let merged = self.merge(paths)?;
            if merged.at_header {
                break merged;
            }
            if merged.at.is_none() {
                return unsupported("the thread can end without reaching the loop with a barrier", loc);
            }
            path = merged;
            self.interval += 1;
        };
        let params = self.func.blocks[lp.header].params.clone();
        let mut init = Vec::new();
        for v in &params {
            init.push(self.scalar(&entry, *v, loc)?);
        }
        let start = |this: &mut Self, tag: &str| -> Res<Path> {
            let mut p = entry.clone();
            p.pc = this.inp.st.true_();
            p.block = lp.header;
            p.idx = 0;
            p.at = None;
            p.came_from = None;
            p.at_header = false;
            p.after_barrier = None;
            for (i, v) in params.iter().enumerate() {
                let sort = this.inp.st.sort_of(init[i]).clone();
                let name = format!("loop.{tag}k{i}.{}", sort_tag(&sort));
                let k = this.inp.st.declare_const(&name, sort);
                let sv = if this.inp.st.sort_of(k).is_bool() { SV::Bool(k) } else { SV::Bv(k) };
                p.env.insert(*v, sv);
            }
            Ok(p)
        };

        // One iteration.
        self.interval += 1;
        let body_interval = self.interval;
        if let Some(plan) = &mut self.plan {
            plan.phase = Phase::Body;
            plan.body_interval = body_interval;
        }
        let body = start(&mut self, "")?;
        let carried: Vec<TermId> = params.iter().map(|v| self.scalar(&body, *v, loc)).collect::<Res<_>>()?;
        let paths = self.run_paths(0, [0; 3], vec![body])?;
        if paths.iter().any(|p| !p.at_header) {
            return unsupported("an iteration of the loop with a barrier can end the thread", loc);
        }
        if paths.iter().any(|p| p.after_barrier.is_none()) {
            return unsupported("an iteration of the loop can skip its barrier", loc);
        }
        let merged = self.merge(paths)?;
        let mut update = Vec::new();
        for v in &params {
            update.push(self.scalar(&merged, *v, loc)?);
        }
        let stay = merged.pc;

        // After the loop.
        self.interval += 1;
        if let Some(plan) = &mut self.plan {
            plan.phase = Phase::Suffix;
        }
        let mut state = Some(start(&mut self, "exit.")?);
        while let Some(path) = state.take() {
            let paths = self.run_paths(0, [0; 3], vec![path])?;
            let merged = self.merge(paths)?;
            if merged.at.is_some() {
                state = Some(merged);
                self.interval += 1;
            }
        }
        let reads = std::mem::take(&mut self.loop_reads);
        let intervals = self.interval + 1;
        Ok(self.into_thread_run(intervals, Some(LoopRun { body_interval, init, update, carried, stay, loc, reads })))
    }

    /// The value of `v` on path `p` as a term (integers and booleans only).
    fn scalar(&mut self, p: &Path, v: ValueId, loc: Option<SrcLoc>) -> Res<TermId> {
        match self.val(p, v, loc)? {
            SV::Bv(t) | SV::Bool(t) => Ok(t),
            SV::Ptr { .. } => unsupported("a pointer carried around the loop with a barrier", loc),
        }
    }

    /// The aligned loop's rule for a path that jumps from `from` to its
    /// current block.
    fn route(&self, from: BlockId, to: BlockId, loc: Option<SrcLoc>) -> Res<Route> {
        if let Some(r) = self.summary_route(from, to, loc) {
            return r;
        }
        if let Some(r) = self.iteration_route(from, to, loc) {
            return r;
        }
        let Some(plan) = &self.plan else { return Ok(Route::Go) };
        let inside = |b: BlockId| plan.blocks.contains(&b);
        Ok(match plan.phase {
            Phase::Prefix if to == plan.header => Route::Stop,
            Phase::Prefix => Route::Go,
            Phase::Body if to == plan.header => Route::Stop,
            // Leaving through the header: the iteration does not run.
            Phase::Body if from == plan.header && !inside(to) => Route::Drop,
            Phase::Body if !inside(to) => return unsupported("the loop with a barrier is left other than through its header", loc),
            Phase::Body => Route::Go,
            // Entering the body: the loop has not ended yet.
            Phase::Suffix if from == plan.header && inside(to) => Route::Drop,
            Phase::Suffix if to == plan.header => return unsupported("the loop with a barrier is entered twice", loc),
            Phase::Suffix => Route::Go,
        })
    }

    fn phase(&self) -> Option<Phase> {
        self.plan.as_ref().map(|p| p.phase)
    }

    /// The one-thread mode, up to the thread's first write or barrier
    /// only: the `__requires` met on the way (as conditions on the
    /// thread's ids and the launch). A precondition after that point is
    /// not collected, which only weakens what the caller may assume.
    pub fn run_preconditions(mut self) -> Res<Vec<TermId>> {
        self.pre = true;
        let path = self.entry_path();
        // The preconditions come first (GPUVerify's style); a construct the
        // engine does not model after them (the objects of cooperative
        // groups) ends the run as a write would, with those found so far.
        if let Err(u) = self.run_paths(0, [0; 3], vec![path]) {
            if self.requires.is_empty() {
                return Err(u);
            }
        }
        Ok(self.requires)
    }

    fn entry_path(&mut self) -> Path {
        let mut env = HashMap::new();
        for (i, p) in self.func.params.iter().enumerate() {
            let v = match p.ty {
                Type::Ptr(_) => {
                    let obj = self.object(ObjKey::Param(i), &p.name);
                    let zero = self.inp.st.bv_const(64, 0);
                    SV::Ptr { obj, off: zero }
                }
                _ => match self.inp.scalars.get(i).copied().flatten() {
                    Some(t) => SV::Bv(t),
                    None => continue,
                },
            };
            env.insert(p.value, v);
        }
        let pc = self.inp.st.true_();
        Path { pc, env, block: self.func.entry, idx: 0, at: None, came_from: None, at_header: false, after_barrier: None }
    }

    fn object(&mut self, key: ObjKey, name: &str) -> usize {
        if let Some(&i) = self.obj_index.get(&key) {
            return i;
        }
        let i = self.objs.len();
        self.objs.push(Obj { key: key.clone(), name: name.to_string(), bits: None, base: None, overlay: BTreeMap::new(), written: false });
        self.obj_index.insert(key, i);
        i
    }

    /// Runs paths until each waits at a barrier or has returned.
    fn run_paths(&mut self, t: usize, lid: [u32; 3], mut work: Vec<Path>) -> Res<Vec<Path>> {
        self.thread = t;
        let mut out = Vec::new();
        while let Some(mut p) = work.pop() {
            loop {
                self.steps += 1;
                if self.steps > STEP_BUDGET {
                    return unsupported("the symbolic execution budget was exhausted (a loop whose trip count depends on symbolic values?)", self.func.loc);
                }
                if let Some(from) = p.came_from.take() {
                    let loc = self.func.term_locs.get(from).clone();
                    match self.route(from, p.block, loc)? {
                        Route::Go => {}
                        Route::Stop => {
                            p.at_header = true;
                            out.push(p);
                            break;
                        }
                        Route::Drop => break,
                    }
                }
                let block = &self.func.blocks[p.block];
                if p.idx < block.insts.len() {
                    let inst = block.insts[p.idx];
                    p.idx += 1;
                    match self.exec(t, lid, &mut p, inst)? {
                        Flow::Next => continue,
                        // In the aligned loop's iteration, the path goes on
                        // to the header after its one barrier.
                        Flow::Barrier if self.phase() == Some(Phase::Body) => {
                            if p.after_barrier.is_some() {
                                return unsupported("an iteration of the loop passes two barriers", self.loc(inst));
                            }
                            p.after_barrier = Some(inst);
                            continue;
                        }
                        Flow::Barrier => {
                            p.at = Some(inst);
                            out.push(p);
                        }
                        Flow::Stop => {}
                    }
                    break;
                }
                let loc = self.func.term_locs.get(p.block).clone();
                match block.term.clone() {
                    Terminator::Return(_) => {
                        p.at = None;
                        out.push(p);
                        break;
                    }
                    Terminator::Unreachable => {
                        return unsupported("`unreachable` reached", loc);
                    }
                    Terminator::Jump(call) => self.jump(&mut p, &call, loc)?,
                    Terminator::Branch { cond, then_dest, else_dest } => {
                        let c = self.boolean(&p, cond, loc)?;
                        match self.inp.st.as_bool(c) {
                            Some(true) => self.jump(&mut p, &then_dest, loc)?,
                            Some(false) => self.jump(&mut p, &else_dest, loc)?,
                            None => {
                                let nc = self.inp.st.not(c);
                                let (then_pc, else_pc) = (self.inp.st.and(&[p.pc, c]), self.inp.st.and(&[p.pc, nc]));
                                // A loop whose trip count is symbolic and
                                // which writes nothing: one arbitrary
                                // iteration, then out of it (no pruning
                                // queries: the summary covers every count).
                                if self.summary_due(&p) {
                                    p = self.summarise(t, lid, &p, loc)?;
                                    continue;
                                }
                                if let Some(pr) = self.prune.as_mut().filter(|pr| pr.loop_blocks.contains(&p.block)) {
                                    // The bounded proof assumes every fact of
                                    // the pruner in its queries, under which the
                                    // side taken is implied: its path keeps its
                                    // condition, so that its writes stay
                                    // unguarded terms (the one-thread mode's
                                    // prover does not assume them all).
                                    if pr.infeasible(&mut self.inp.st, &self.requires, else_pc) {
                                        pr.dropped += 1;
                                        if self.param {
                                            p.pc = then_pc;
                                        }
                                        self.jump(&mut p, &then_dest, loc)?;
                                        continue;
                                    }
                                    if pr.infeasible(&mut self.inp.st, &self.requires, then_pc) {
                                        pr.dropped += 1;
                                        if self.param {
                                            p.pc = else_pc;
                                        }
                                        self.jump(&mut p, &else_dest, loc)?;
                                        continue;
                                    }
                                }
                                // A loop with writes whose trip count is
                                // symbolic: its iteration `q` as a thread
                                // of its own, then out of it.
                                if self.iteration_due(&p) {
                                    p = self.iterate(t, lid, &p, loc)?;
                                    continue;
                                }
                                let mut other = p.clone();
                                other.pc = else_pc;
                                p.pc = then_pc;
                                self.jump(&mut other, &else_dest, loc)?;
                                work.push(other);
                                if work.len() + out.len() > PATH_LIMIT {
                                    return unsupported(
                                        "too many paths in one barrier interval (a loop whose trip count depends on symbolic values?)",
                                        loc,
                                    );
                                }
                                self.jump(&mut p, &then_dest, loc)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    fn jump(&mut self, p: &mut Path, call: &lockstep_kir::BlockCall, loc: Option<SrcLoc>) -> Res<()> {
        let args: Vec<SV> = call.args.iter().map(|&a| self.val(p, a, loc)).collect::<Res<_>>()?;
        let params = &self.func.blocks[call.block].params;
        for (&param, a) in params.iter().zip(args) {
            p.env.insert(param, a);
        }
        p.came_from = Some(p.block);
        p.block = call.block;
        p.idx = 0;
        Ok(())
    }

    /// Merges the paths of one thread, which must all wait at the same
    /// barrier or all have returned.
    fn merge(&mut self, mut paths: Vec<Path>) -> Res<Path> {
        let mut merged = match paths.pop() {
            Some(p) => p,
            None => return unsupported("a thread has no feasible path", self.func.loc),
        };
        for p in paths {
            if p.at != merged.at || p.at_header != merged.at_header || p.after_barrier != merged.after_barrier {
                let at = p.at.or(merged.at);
                let loc = at.and_then(|i| self.func.inst_locs.get(i).clone());
                return unsupported("a barrier is reached under a condition on symbolic values (barrier divergence is possible)", loc);
            }
            let mut env = HashMap::new();
            for (k, v) in &p.env {
                let Some(w) = merged.env.get(k) else { continue };
                let m = match (v, w) {
                    _ if v == w => v.clone(),
                    (SV::Bool(a), SV::Bool(b)) => SV::Bool(self.inp.st.ite(p.pc, *a, *b)),
                    (SV::Bv(a), SV::Bv(b)) => SV::Bv(self.inp.st.ite(p.pc, *a, *b)),
                    (SV::Ptr { obj: o1, off: a }, SV::Ptr { obj: o2, off: b }) if o1 == o2 => {
                        SV::Ptr { obj: *o1, off: self.inp.st.ite(p.pc, *a, *b) }
                    }
                    // A value whose object depends on the path: dropped, and
                    // a later use reports it.
                    _ => continue,
                };
                env.insert(*k, m);
            }
            merged.pc = self.inp.st.or(&[p.pc, merged.pc]);
            merged.env = env;
        }
        Ok(merged)
    }

    fn loc(&self, inst: InstId) -> Option<SrcLoc> {
        self.func.inst_locs.get(inst).clone()
    }

    fn val(&mut self, p: &Path, v: ValueId, loc: Option<SrcLoc>) -> Res<SV> {
        if let Some(x) = p.env.get(&v) {
            return Ok(x.clone());
        }
        let data = &self.func.values[v];
        let ty = data.ty;
        match &data.def {
            ValueDef::Const(bits) => Ok(match ty {
                Type::Int(1) => SV::Bool(self.inp.st.bool_const(bits & 1 == 1)),
                Type::Int(w) | Type::Float(w) => SV::Bv(self.inp.st.bv_const(w as u32, *bits)),
                Type::Ptr(_) => return unsupported("a pointer constant", loc),
            }),
            ValueDef::Undef => Ok(match ty {
                Type::Int(1) => SV::Bool(self.inp.st.fresh_const("undef", Sort::Bool)),
                Type::Int(w) | Type::Float(w) => SV::Bv(self.inp.st.fresh_const("undef", Sort::bv(w as u32))),
                // A pointer with no object, only bits: what SROA makes of
                // a by-value object (a cooperative group) whose fields it
                // packs into a pointer-typed value. Any access through it
                // is outside the engine ([`Self::pointer`]).
                Type::Ptr(_) => SV::Bv(self.inp.st.fresh_const("undef", Sort::bv(64))),
            }),
            ValueDef::GlobalAddr(g) => {
                let global = &self.module.globals[*g];
                if global.space != MemSpace::Shared {
                    return unsupported(
                        format!("the {} variable `{}` (only kernel arguments and __shared__ memory are modelled)", global.space.name(), global.name),
                        loc,
                    );
                }
                let name = global.name.clone();
                let obj = self.object(ObjKey::Shared(*g), &name);
                Ok(SV::Ptr { obj, off: self.inp.st.bv_const(64, 0) })
            }
            ValueDef::LocalAddr(l) => {
                let name = format!("{}.t{}", self.func.locals[*l].name, self.thread);
                let obj = self.object(ObjKey::Local(self.thread, *l), &name);
                Ok(SV::Ptr { obj, off: self.inp.st.bv_const(64, 0) })
            }
            ValueDef::Null => unsupported("the null pointer", loc),
            _ => unsupported(format!("a value whose definition depends on the path taken ({v})"), loc),
        }
    }

    fn bv(&mut self, p: &Path, v: ValueId, loc: Option<SrcLoc>) -> Res<TermId> {
        match self.val(p, v, loc)? {
            SV::Bv(t) => Ok(t),
            SV::Bool(b) => {
                let one = self.inp.st.bv_const(1, 1);
                let zero = self.inp.st.bv_const(1, 0);
                Ok(self.inp.st.ite(b, one, zero))
            }
            SV::Ptr { .. } => unsupported("a pointer used as an integer", loc),
        }
    }

    fn boolean(&mut self, p: &Path, v: ValueId, loc: Option<SrcLoc>) -> Res<TermId> {
        match self.val(p, v, loc)? {
            SV::Bool(b) => Ok(b),
            _ => unsupported("internal: a branch on a non-boolean", loc),
        }
    }

    fn exec(&mut self, t: usize, lid: [u32; 3], p: &mut Path, inst: InstId) -> Res<Flow> {
        let data = &self.func.insts[inst];
        let loc = self.loc(inst);
        let result = data.result;
        let rty = result.map(|r| self.func.values[r].ty);
        let value = match data.kind.clone() {
            InstKind::Binary { op, lhs, rhs } => {
                if rty == Some(Type::Int(1)) {
                    let (a, b) = (self.boolean(p, lhs, loc)?, self.boolean(p, rhs, loc)?);
                    SV::Bool(match op {
                        BinOp::And => self.inp.st.and(&[a, b]),
                        BinOp::Or => self.inp.st.or(&[a, b]),
                        BinOp::Xor => self.inp.st.xor(a, b),
                        _ => return unsupported(format!("`{}` on booleans", op.name()), loc),
                    })
                } else {
                    let (a, b) = (self.bv(p, lhs, loc)?, self.bv(p, rhs, loc)?);
                    if let Some(t) = self.unpack_field(op, a, b) {
                        return self.bind(p, result, SV::Bv(t));
                    }
                    if let Some(t) = normalise(&mut self.inp.st, op, a, b) {
                        return self.bind(p, result, SV::Bv(t));
                    }
                    let st = &mut self.inp.st;
                    SV::Bv(match op {
                        BinOp::Add => st.bvadd(a, b),
                        BinOp::Sub => st.bvsub(a, b),
                        BinOp::Mul => st.bvmul(a, b),
                        BinOp::UDiv => st.bvudiv(a, b),
                        BinOp::SDiv => st.bvsdiv(a, b),
                        BinOp::URem => st.bvurem(a, b),
                        BinOp::SRem => st.bvsrem(a, b),
                        BinOp::Shl => st.bvshl(a, b),
                        BinOp::LShr => st.bvlshr(a, b),
                        BinOp::AShr => st.bvashr(a, b),
                        BinOp::And => st.bvand(a, b),
                        BinOp::Or => st.bvor(a, b),
                        BinOp::Xor => st.bvxor(a, b),
                    })
                }
            }
            InstKind::Icmp { cc, lhs, rhs } => {
                let (a, b) = match (self.val(p, lhs, loc)?, self.val(p, rhs, loc)?) {
                    (SV::Ptr { obj: o1, off: a }, SV::Ptr { obj: o2, off: b }) if o1 == o2 => (a, b),
                    (SV::Ptr { .. }, _) | (_, SV::Ptr { .. }) => return unsupported("a comparison of pointers into different objects", loc),
                    (SV::Bool(a), SV::Bool(b)) if matches!(cc, IntCC::Eq | IntCC::Ne) => {
                        let e = self.inp.st.eq(a, b);
                        let r = if cc == IntCC::Eq { e } else { self.inp.st.not(e) };
                        return self.bind(p, result, SV::Bool(r));
                    }
                    _ => (self.bv(p, lhs, loc)?, self.bv(p, rhs, loc)?),
                };
                let st = &mut self.inp.st;
                SV::Bool(match cc {
                    IntCC::Eq => st.eq(a, b),
                    IntCC::Ne => {
                        let e = st.eq(a, b);
                        st.not(e)
                    }
                    IntCC::Ult => st.bvult(a, b),
                    IntCC::Ule => st.bvule(a, b),
                    IntCC::Ugt => st.bvugt(a, b),
                    IntCC::Uge => st.bvuge(a, b),
                    IntCC::Slt => st.bvslt(a, b),
                    IntCC::Sle => st.bvsle(a, b),
                    IntCC::Sgt => st.bvsgt(a, b),
                    IntCC::Sge => st.bvsge(a, b),
                })
            }
            InstKind::Select { cond, then_value, else_value } => {
                let c = self.boolean(p, cond, loc)?;
                match (self.val(p, then_value, loc)?, self.val(p, else_value, loc)?) {
                    (SV::Bool(a), SV::Bool(b)) => SV::Bool(self.inp.st.ite(c, a, b)),
                    (SV::Bv(a), SV::Bv(b)) => SV::Bv(self.inp.st.ite(c, a, b)),
                    (SV::Ptr { obj: o1, off: a }, SV::Ptr { obj: o2, off: b }) if o1 == o2 => {
                        SV::Ptr { obj: o1, off: self.inp.st.ite(c, a, b) }
                    }
                    (x, y) => match self.inp.st.as_bool(c) {
                        Some(true) => x,
                        Some(false) => y,
                        None => return unsupported("a pointer chosen between objects by a symbolic condition", loc),
                    },
                }
            }
            InstKind::Cast { op, arg } => self.cast(p, op, arg, rty.expect("cast has a result"), loc)?,
            InstKind::Float { op, args } => {
                let w = rty.expect("float op has a result").bits();
                let vals: Vec<TermId> = args.iter().map(|&a| self.bv(p, a, loc)).collect::<Res<_>>()?;
                SV::Bv(self.float_op(op, w, vals))
            }
            InstKind::Fcmp { cc, lhs, rhs } => {
                let (a, b) = (self.bv(p, lhs, loc)?, self.bv(p, rhs, loc)?);
                if let Some(r) = self.ieee_compare(cc, a, b) {
                    SV::Bool(r)
                } else {
                    SV::Bool(match cc {
                        FloatCC::True => self.inp.st.true_(),
                        FloatCC::False => self.inp.st.false_(),
                        _ => {
                            self.inp.used.uninterpreted_ops = true;
                            let w = self.inp.st.sort_of(a).bv_width().unwrap_or(32);
                            self.inp.uf(&format!("fcmp.{}{w}", cc.name()), &[a, b], Sort::Bool)
                        }
                    })
                }
            }
            InstKind::PtrAdd { base, offset } => match self.val(p, base, loc)? {
                SV::Ptr { obj, off } => {
                    let d = self.bv(p, offset, loc)?;
                    SV::Ptr { obj, off: self.inp.st.bvadd(off, d) }
                }
                _ => return unsupported("pointer arithmetic on a non-pointer", loc),
            },
            InstKind::Load { ptr, .. } => {
                let ty = rty.expect("load has a result");
                let (obj, off) = self.pointer(p, ptr, loc)?;
                if self.post && !self.spec_loads.contains(&inst) && self.objs[obj].written {
                    return unsupported("a postcondition depends on a read of a written buffer outside the annotation", loc);
                }
                if ty == Type::Int(1) {
                    return unsupported("a load of a boolean", loc);
                }
                // A load wider than the buffer's elements (a `half2` read of
                // a `__half` buffer): its elements, lowest address in the
                // lowest bits.
                let x = match self.split_access(obj, ty) {
                    Some((k, eb)) => self.load_split(p, inst, obj, off, k, eb, loc)?,
                    None => self.load_at(p, inst, obj, off, ty, loc)?,
                };
                SV::Bv(x)
            }
            InstKind::Store { ptr, value, .. } => {
                if self.post || self.pre {
                    return Ok(Flow::Stop);
                }
                let ty = self.func.values[value].ty;
                let (obj, off) = self.pointer(p, ptr, loc)?;
                let v = match self.val(p, value, loc)? {
                    SV::Bv(v) => v,
                    _ => return unsupported("a store of a pointer or a boolean", loc),
                };
                self.store_value(p, obj, off, v, ty, loc)?;
                return Ok(Flow::Next);
            }
            InstKind::MemCopy { dst, src, len } => {
                if self.post || self.pre {
                    return Ok(Flow::Stop);
                }
                self.mem_copy(p, inst, dst, src, len, loc)?;
                return Ok(Flow::Next);
            }
            InstKind::Barrier { scope, .. } => {
                if self.post || self.pre {
                    return Ok(Flow::Stop);
                }
                // A warp barrier stops the thread like a group barrier;
                // `run` resumes its warp once every live thread of it is
                // there (the one-thread mode has no warps).
                if scope != lockstep_kir::BarrierScope::Group && (scope != lockstep_kir::BarrierScope::Warp || self.param) {
                    return unsupported(format!("a {} barrier", scope.name()), loc);
                }
                return Ok(Flow::Barrier);
            }
            InstKind::Fence { .. } | InstKind::Nop { .. } => return Ok(Flow::Next),
            InstKind::Builtin { var, dim } => {
                let d = dim as usize;
                SV::Bv(match var {
                    BuiltinVar::LocalId => match self.inp.local_id {
                        Some(l) => l[d],
                        None => self.inp.st.bv_const(32, lid[d] as u128),
                    },
                    BuiltinVar::LocalSize => self.inp.local_size[d],
                    BuiltinVar::GroupId => self.inp.group_id[d],
                    BuiltinVar::NumGroups => self.inp.num_groups[d],
                    BuiltinVar::GlobalOffset => self.inp.st.bv_const(32, 0),
                })
            }
            InstKind::CallExternal { name, args } => {
                let ty = match rty {
                    Some(t @ (Type::Int(_) | Type::Float(_))) if t != Type::Int(1) => t,
                    _ => return unsupported(format!("a call of `{name}` without a numeric result"), loc),
                };
                if let Some(v) = self.half_call(p, inst, &name, &args, ty, loc)? {
                    return self.bind(p, result, SV::Bv(v));
                }
                let vals: Vec<TermId> = args.iter().map(|&a| self.bv(p, a, loc)).collect::<Res<_>>()?;
                if vals.is_empty() {
                    return unsupported(format!("a call of `{name}` without arguments"), loc);
                }
                if let Some(r) = self.ieee_math(&name, ty.bits(), &vals) {
                    SV::Bv(r)
                } else {
                    self.inp.used.uninterpreted_calls = true;
                    SV::Bv(self.inp.uf(&format!("ext.{name}"), &vals, Sort::bv(ty.bits())))
                }
            }
            InstKind::Annot { kind, args } => {
                let cond = match args.first() {
                    Some(&a) => self.boolean(p, a, loc)?,
                    None => self.inp.st.true_(),
                };
                if (self.summary_plan.is_some() || self.iter_plan.is_some()) && matches!(kind, AnnotKind::Requires | AnnotKind::Assume | AnnotKind::Ensures) {
                    return unsupported("an annotation in a loop whose trip count is symbolic", loc);
                }
                match kind {
                    AnnotKind::Requires | AnnotKind::Assume if !self.post => {
                        let r = self.inp.st.implies(p.pc, cond);
                        self.requires.push(r);
                        // A path on which the condition is false (the
                        // short-circuit side of `__requires(a && b)` where
                        // `a` fails) is excluded by the fact just pushed
                        // (`¬pc`), which every query assumes: it ends here,
                        // so that a conjunction does not become two paths
                        // into the loops that follow.
                        if self.inp.st.as_bool(cond) == Some(false) {
                            return Ok(Flow::Stop);
                        }
                    }
                    AnnotKind::Ensures if self.post => {
                        let nc = self.inp.st.not(cond);
                        let violated = self.inp.st.and(&[p.pc, nc]);
                        self.obligations.push(Obligation { violated, loc, thread: lid });
                    }
                    _ => {}
                }
                return Ok(Flow::Next);
            }
            InstKind::AnnotValue { func: AnnotFn::Implies, args } if args.len() == 2 => {
                let (a, b) = (self.boolean(p, args[0], loc)?, self.boolean(p, args[1], loc)?);
                SV::Bool(self.inp.st.implies(a, b))
            }
            InstKind::AnnotValue { func, .. } => {
                return unsupported(format!("the annotation function `{}`", func.name()), loc);
            }
            InstKind::Havoc => {
                let ty = rty.expect("havoc has a result");
                match ty {
                    Type::Int(1) => SV::Bool(self.inp.st.fresh_const("havoc", Sort::Bool)),
                    Type::Int(w) | Type::Float(w) => SV::Bv(self.inp.st.fresh_const("havoc", Sort::bv(w as u32))),
                    Type::Ptr(_) => return unsupported("a nondeterministic pointer", loc),
                }
            }
            InstKind::Atomic { .. } | InstKind::CmpXchg { .. } => {
                return unsupported("atomic operations (their result depends on the schedule)", loc)
            }
            InstKind::Warp { op: lockstep_kir::WarpOp::LaneId, .. } if !self.param => {
                SV::Bv(self.inp.st.bv_const(32, (warp::linear(self.inp.group_size, lid) % warp::WARP) as u128))
            }
            // The front-end computes a warp operation's lane (for the checks
            // of its mask, `frontend/src/warp_masks.rs`) just before the
            // operation: for the preconditions and postconditions, which
            // end at the first synchronisation, that is where they end.
            InstKind::Warp { op: lockstep_kir::WarpOp::LaneId, .. } if self.post || self.pre => {
                return Ok(Flow::Stop);
            }
            InstKind::Warp { op: lockstep_kir::WarpOp::Shfl | lockstep_kir::WarpOp::ShflUp | lockstep_kir::WarpOp::ShflDown | lockstep_kir::WarpOp::ShflXor, .. }
                if self.post || self.pre || !self.param =>
            {
                // The preconditions and postconditions end at the first
                // synchronisation; otherwise the thread waits here for its
                // warp, and `run` computes the value from the other lanes'
                // arguments.
                return Ok(if self.post || self.pre { Flow::Stop } else { Flow::Barrier });
            }
            InstKind::Warp { .. } => return unsupported("warp-level operations", loc),
            // The value combines every thread's operand, which the
            // per-thread paths compared here do not see together.
            InstKind::Collective { op, .. } => {
                return unsupported(format!("the group collective `{}` (`__syncthreads_{}`)", op.name(), op.name()), loc)
            }
            // A path on which a function pointer is no function's address
            // has no defined outcome to compare.
            InstKind::InvalidCall { .. } => {
                return unsupported("a call through a pointer that may be no function's address", loc)
            }
            InstKind::MemSet { .. } => return unsupported("memset", loc),
            InstKind::Call { .. } => return unsupported("a call that could not be inlined", loc),
        };
        let _ = t;
        self.bind(p, result, value)
    }

    /// A read of `__shared__` variable `g` in the aligned loop's iteration
    /// (the contents at the iteration's start) or after the loop (the
    /// contents the loop leaves): an element of a symbol both kernels share.
    fn loop_shared_read(&mut self, p: &Path, g: lockstep_kir::GlobalId, obj: usize, off: TermId, bits: u32, loc: Option<SrcLoc>) -> Res<TermId> {
        let phase = self.phase();
        let body_interval = self.plan.as_ref().map_or(0, |p| p.body_interval);
        let name = &self.objs[obj].name;
        if p.after_barrier.is_some() {
            return unsupported("a read between the loop's barrier and its next iteration", loc);
        }
        let written_here = self.cas.iter().any(|c| c.target == Target::Shared(g) && c.interval == self.interval);
        let written_after = self.cas.iter().any(|c| c.target == Target::Shared(g) && c.interval > body_interval);
        if written_here || (phase == Some(Phase::Suffix) && written_after) {
            return unsupported(format!("`{name}` is read in the barrier interval that writes it, or after the loop once written after it"), loc);
        }
        self.loop_reads.push(LoopRead { global: g, interval: self.interval, pc: p.pc, off, loc });
        let which = if phase == Some(Phase::Body) { "pre" } else { "post" };
        let arr = self.inp.st.declare_const(&format!("loop.{which}.{name}.{bits}"), Sort::array(Sort::bv(64), Sort::bv(bits)));
        Ok(self.inp.st.select(arr, off))
    }

    fn bind(&mut self, p: &mut Path, result: Option<ValueId>, v: SV) -> Res<Flow> {
        if let Some(r) = result {
            p.env.insert(r, v);
        }
        Ok(Flow::Next)
    }

    /// `x & (2^k - 1)` and `x >> k` when the bits they keep simplify
    /// ([`extract_known`]): a bitfield read from a packed word.
    fn unpack_field(&mut self, op: BinOp, a: TermId, b: TermId) -> Option<TermId> {
        let st = &mut self.inp.st;
        let w = st.sort_of(a).bv_width()?;
        let m = st.as_bv(b).and_then(|v| v.to_u128())?;
        if op == BinOp::LShr {
            // `x >> k`: the high bits of `x`, a field at the top of a word.
            if m == 0 || m >= w as u128 {
                return None;
            }
            let k = m as u32;
            let known = extract_known(st, w - 1, k, a);
            if known == st.extract(w - 1, k, a) {
                return None;
            }
            return Some(st.zero_extend(k, known));
        }
        if op != BinOp::And {
            return None;
        }
        let k = m.trailing_ones();
        if k == 0 || k >= w || m >> k != 0 {
            return None;
        }
        let known = extract_known(st, k - 1, 0, a);
        if known == st.extract(k - 1, 0, a) {
            return None;
        }
        Some(st.zero_extend(w - k, known))
    }

    fn cast(&mut self, p: &Path, op: CastOp, arg: ValueId, to: Type, loc: Option<SrcLoc>) -> Res<SV> {
        let from = self.func.values[arg].ty;
        if op == CastOp::AddrSpaceCast {
            return self.val(p, arg, loc);
        }
        if from == Type::Int(1) && matches!(op, CastOp::Zext | CastOp::Sext) {
            let b = self.boolean(p, arg, loc)?;
            let w = to.bits();
            let one = if op == CastOp::Zext { 1 } else { lockstep_replay::value::mask(w) };
            let (t, f) = (self.inp.st.bv_const(w, one), self.inp.st.bv_const(w, 0));
            return Ok(SV::Bv(self.inp.st.ite(b, t, f)));
        }
        if to == Type::Int(1) && op == CastOp::Trunc {
            let x = self.bv(p, arg, loc)?;
            // `(bool)(c ? 1 : 0)`, C's round trip of a condition through
            // an integer, is `c` itself: keeping it a plain condition lets
            // `param` use preconditions such as `blockDim.x == blockDim.y`
            // as equalities.
            if let lockstep_smt::TermKind::App(lockstep_smt::Op::Ite, args) = self.inp.st.kind(x).clone() {
                let bit = |st: &TermStore, t: TermId| st.as_bv(t).and_then(|v| v.to_u128()).map(|v| v & 1);
                match (bit(&self.inp.st, args[1]), bit(&self.inp.st, args[2])) {
                    (Some(1), Some(0)) => return Ok(SV::Bool(args[0])),
                    (Some(0), Some(1)) => return Ok(SV::Bool(self.inp.st.not(args[0]))),
                    _ => {}
                }
            }
            let bit = self.inp.st.extract(0, 0, x);
            let one = self.inp.st.bv_const(1, 1);
            return Ok(SV::Bool(self.inp.st.eq(bit, one)));
        }
        if from.is_ptr() || to.is_ptr() {
            // Only bits (an integer made a pointer, or a pointer with no
            // object) convert, as bits; a pointer into an object does not.
            let SV::Bv(x) = self.val(p, arg, loc)? else {
                return unsupported("a conversion between pointers and integers", loc);
            };
            let fw = self.inp.st.sort_of(x).bv_width().unwrap_or(64);
            let tw = if to.is_ptr() { 64 } else { to.bits() };
            let st = &mut self.inp.st;
            return Ok(SV::Bv(match fw.cmp(&tw) {
                std::cmp::Ordering::Less => st.zero_extend(tw - fw, x),
                std::cmp::Ordering::Greater => st.extract(tw - 1, 0, x),
                std::cmp::Ordering::Equal => x,
            }));
        }
        let x = self.bv(p, arg, loc)?;
        let (fw, tw) = (from.bits(), to.bits());
        if let Some(r) = self.ieee_cast(op, x, fw, tw) {
            return Ok(SV::Bv(r));
        }
        if !matches!(op, CastOp::Zext | CastOp::Sext | CastOp::Trunc | CastOp::Bitcast) {
            self.inp.used.uninterpreted_ops = true;
        }
        let st = &mut self.inp.st;
        Ok(SV::Bv(match op {
            CastOp::Zext => st.zero_extend(tw - fw, x),
            CastOp::Sext => st.sign_extend(tw - fw, x),
            CastOp::Trunc => extract_known(st, tw - 1, 0, x),
            CastOp::Bitcast => x,
            _ => {
                let name = format!("{}.{fw}.{tw}", op.name());
                self.inp.uf(&name, &[x], Sort::bv(tw))
            }
        }))
    }

}

#[derive(PartialEq, Eq)]
enum Flow {
    Next,
    Barrier,
    /// The path ends here (postcondition mode reached a write, or a
    /// precondition that is false on the path).
    Stop,
}

fn is_ensures(kind: &InstKind) -> bool {
    matches!(kind, InstKind::Annot { kind: AnnotKind::Ensures, .. })
}

/// Postconditions are evaluated on the final memory by re-running each
/// thread up to its first write or barrier, so every `__ensures` must come
/// before any of them (GPUVerify writes contracts at the top of the body).
fn check_postcondition_placement(func: &Function) -> Res<()> {
    let cfg = lockstep_analysis::Cfg::compute(func);
    let effect = |k: &InstKind| {
        matches!(
            k,
            InstKind::Store { .. }
                | InstKind::Barrier { .. }
                | InstKind::Atomic { .. }
                | InstKind::CmpXchg { .. }
                | InstKind::MemCopy { .. }
                | InstKind::MemSet { .. }
        )
    };
    for (b, block) in func.blocks.iter() {
        for (pos, &i) in block.insts.iter().enumerate() {
            if !is_ensures(&func.insts[i].kind) {
                continue;
            }
            let before_here = block.insts[..pos].iter().any(|&j| effect(&func.insts[j].kind));
            // Any block that can reach this one (excluding itself unless in a loop).
            let mut seen = HashSet::new();
            let mut work: Vec<BlockId> = cfg.preds(b).to_vec();
            let mut before = before_here;
            while let Some(x) = work.pop() {
                if !seen.insert(x) {
                    continue;
                }
                if func.blocks[x].insts.iter().any(|&j| effect(&func.insts[j].kind)) {
                    before = true;
                    break;
                }
                work.extend(cfg.preds(x).iter().copied());
            }
            if before {
                return unsupported(
                    "`__ensures` after a write or a barrier: write postconditions at the top of the kernel",
                    func.inst_locs.get(i).clone(),
                );
            }
        }
    }
    Ok(())
}
