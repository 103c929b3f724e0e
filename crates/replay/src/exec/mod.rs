//! Execution of one thread: frames, instructions and terminators.
//!
//! A thread is a stack of frames; a frame holds one slot per value of its
//! function (constants pre-filled from a per-function template) and a
//! position in a block. `Ctx::run_thread` executes a thread until it blocks
//! (at a barrier or a warp intrinsic, which `sched` resolves once the
//! threads involved have all arrived), returns from the kernel, is stopped,
//! or has executed its quantum of instructions.
//!
//! Semantic choices, where KIR or the languages leave room:
//!
//! - Integers wrap at their width. Shifts by the width or more give 0
//!   (`shl`, `lshr`) or the sign fill (`ashr`), as if shifting one bit at a
//!   time; they are not reported.
//! - Division by zero and `INT_MIN / -1` are reported and yield 0 (`sdiv`
//!   of `INT_MIN / -1` yields `INT_MIN`).
//! - `undef` is 0.
//! - An invalid memory access is reported, a load then yields 0 and a store
//!   is dropped, and the thread goes on.
//! - Float arithmetic is IEEE arithmetic of the operands' width (`f16` is
//!   computed in `f32` and rounded, which is exact for the basic operations).
//! - Float-to-integer conversions saturate (NaN gives 0).
//! - `Enabled` is true and `Implies` is computed; the other annotation
//!   values that only the two-thread engines understand (`__other_int`,
//!   `__uniform_int`, `__read`, `__return_val`, `__old` ...) yield 0 and are
//!   listed in `ReplayResult::unsupported`; annotations that fail in a thread
//!   that evaluated one are listed there instead of reported.

use std::collections::{HashMap, HashSet};

use lockstep_kir::*;

use crate::memory::{Memory, ObjOrigin};
use crate::options::{ExternalCall, ExternalOutcome, HavocOracle, HavocSite, Launch, ReplayOptions};
use crate::async_copy::{AsyncGroup, ASYNC_COPY, WAIT_EVENTS};
use crate::races::{Access, Geometry, OwnWrites, RaceLog, Unfenced, WarpClocks};
use crate::result::*;
use crate::value::*;

mod access;
mod arith;

pub(crate) use arith::convert;
use arith::*;

/// Facts about a function computed once per replay.
pub(crate) struct FuncInfo {
    /// The initial value slots of a frame: constants, `undef` (0), null
    /// pointers and the addresses of non-shared globals.
    template: Vec<Val>,
    /// The undetermined bits of those slots: all of an `undef`'s.
    undef_template: Vec<u128>,
    /// Values that hold the address of a `__shared__` global: filled per
    /// group when a frame is created.
    shared_addrs: Vec<(ValueId, GlobalId)>,
    /// Values that hold the address of a private object: filled with the
    /// frame's own instance.
    local_addrs: Vec<(ValueId, LocalId)>,
    /// Loads that only serve annotations: not accesses of the program, so
    /// never logged for race detection.
    specification_loads: std::collections::HashSet<InstId>,
    /// Writes whose value depends on no memory read: only these can be
    /// benign races (see `lockstep_analysis::ghost`).
    benign_candidates: std::collections::HashSet<InstId>,
    /// A specification function (`__writes_to`, `__reads_from`) without a
    /// postcondition: nothing restricts which part of the object a call
    /// accesses.
    unconstrained_spec: bool,
    /// The instructions and terminators that use an unspecified value,
    /// counted when executed (see `ReplayResult::unspecified_uses`).
    unspecified: lockstep_analysis::unspecified::UnspecifiedUses,
}

pub(crate) struct Frame {
    pub func: FuncId,
    pub block: BlockId,
    /// Index of the next instruction in the block; the block's length means
    /// the terminator.
    pub pos: u32,
    pub vals: Vec<Val>,
    /// With definedness tracked, the undetermined bits of each value (see
    /// `definedness`); empty otherwise.
    pub undef: Vec<u128>,
    /// With definedness tracked, the term of each value (`terms`), which
    /// means something only while the value is undetermined (its `undef`
    /// is not 0); empty otherwise.
    pub sym: Vec<crate::terms::TermId>,
    /// After a branch on an undetermined condition whose ways meet again
    /// (`definedness::branch_join`): the block they meet in and the
    /// parameters that become undetermined there.
    pub pending_join: Option<(BlockId, Vec<usize>)>,
    /// The caller's value that receives the result.
    ret_to: Option<ValueId>,
    /// The private objects of this frame, dead once it returns.
    locals: Vec<ObjId>,
    /// A hash of the call sites leading to this frame, which tells apart the
    /// instances of one barrier reached through different calls.
    pub path: u64,
}

/// What a blocked thread waits for.
#[derive(Clone, Debug)]
pub(crate) struct Wait {
    pub loc: Loc,
    pub path: u64,
    /// How many times this thread reached this instruction on this path.
    pub occurrence: u32,
    pub scope: BarrierScope,
    /// Which memory the barrier orders.
    pub fence: FenceFlags,
    /// For a warp intrinsic: the operation (`None`: `__syncwarp`), its
    /// arguments, and the value that receives the result.
    pub op: Option<WarpOp>,
    pub args: Vec<Val>,
    pub result: Option<(ValueId, Type)>,
    /// For a group collective (which waits like a group barrier without
    /// fences): how the group's operands (`args[0]`) combine into `result`.
    pub collective: Option<CollectiveOp>,
}

#[derive(Clone, Debug)]
pub(crate) enum Status {
    Runnable,
    /// At a group or grid barrier.
    Barrier(Wait),
    /// At a warp intrinsic or warp barrier.
    Warp(Wait),
    Exited,
    /// Stopped early: `unreachable`, a failing `assume`, a budget.
    Stopped,
}

pub(crate) struct Thread {
    /// Global linear index.
    pub index: u32,
    pub id: ThreadId,
    /// Linear index of the group.
    pub group: u32,
    /// Linear index within the group.
    pub lane: u32,
    pub frames: Vec<Frame>,
    pub status: Status,
    pub steps: u64,
    /// Arrivals at barriers and warp intrinsics, per (instruction, path).
    counts: HashMap<(Loc, u64), u32>,
    pub warp_epoch: u32,
    havocs: u64,
    /// Set once the thread evaluated an annotation value the replay cannot
    /// compute; its later annotation failures are not trusted.
    tainted: bool,
    /// How many async copies and waits for events the thread made (see
    /// `async_copy`).
    pub async_copies: u32,
    pub async_waits: u32,
    /// The flags of the thread's next barrier, when the program computed
    /// them (`__lockstep_barrier_flags`); they replace the barrier's own.
    barrier_flags: Option<FenceFlags>,
}

/// Deduplication key of a violation: kind tag and up to two locations.
type Key = (u8, [u32; 3], [u32; 3]);

pub(crate) fn loc_key(loc: Option<Loc>) -> [u32; 3] {
    match loc {
        Some(l) => [
            l.func.as_u32(),
            l.block.as_u32(),
            l.inst.map_or(u32::MAX, |i| i.as_u32()),
        ],
        None => [u32::MAX; 3],
    }
}

/// Collects violations and events, deduplicated.
#[derive(Default)]
pub(crate) struct Reporter {
    pub violations: Vec<ReplayViolation>,
    seen: HashSet<Key>,
    pub truncated: bool,
    pub incomplete: Vec<(IncompleteReason, ThreadEvent)>,
    pub infeasible: Vec<ThreadEvent>,
    pub unsupported: Vec<(String, Loc)>,
    seen_events: HashSet<(u8, [u32; 3], String)>,
    /// Barriers already named by a divergence report.
    pub diverged: HashSet<[u32; 3]>,
}

impl Reporter {
    pub fn report(&mut self, key: Key, max: usize, make: impl FnOnce() -> ReplayViolation) {
        if self.seen.contains(&key) {
            return;
        }
        if self.violations.len() >= max {
            self.truncated = true;
            return;
        }
        self.seen.insert(key);
        self.violations.push(make());
    }

    pub fn incomplete(&mut self, reason: IncompleteReason, loc: Loc, thread: ThreadId) {
        if self
            .seen_events
            .insert((0, loc_key(Some(loc)), format!("{reason:?}")))
        {
            self.incomplete.push((reason, ThreadEvent { loc, thread }));
        }
    }

    fn infeasible(&mut self, loc: Loc, thread: ThreadId) {
        if self
            .seen_events
            .insert((1, loc_key(Some(loc)), String::new()))
        {
            self.infeasible.push(ThreadEvent { loc, thread });
        }
    }

    fn unsupported(&mut self, what: String, loc: Loc) {
        if self
            .seen_events
            .insert((2, loc_key(Some(loc)), what.clone()))
        {
            self.unsupported.push((what, loc));
        }
    }
}

/// The state shared by all threads of a replay.
pub(crate) struct Ctx<'a> {
    pub module: &'a Module,
    pub launch: Launch,
    pub opts: &'a ReplayOptions,
    pub oracle: &'a mut dyn HavocOracle,
    pub infos: Vec<FuncInfo>,
    pub memory: Memory,
    /// The instances of each module global: one, or one per group for
    /// `__shared__` globals.
    pub global_objs: Vec<Vec<ObjId>>,
    pub races: RaceLog,
    /// What each running thread wrote since its last barrier, for benign
    /// write-read races (see `races`).
    pub(crate) own_writes: OwnWrites,
    pub geometry: Geometry,
    pub grid_epoch: u32,
    /// Per group, how many barriers ordering shared memory it has passed.
    pub group_epochs: Vec<u32>,
    /// Per group, how many barriers ordering global memory it has passed
    /// (a barrier fencing only local memory does not order global
    /// accesses, as in OpenCL and GPUVerify).
    pub global_group_epochs: Vec<u32>,
    pub epoch_version: u64,
    /// What the warp barriers tell of each warp's lanes (see `races`).
    pub(crate) warp_clocks: WarpClocks,
    pub report: Reporter,
    pub total_steps: u64,
    /// Set when the total step budget ran out: every thread stops.
    pub aborted: bool,
    pub threads_exited: u64,
    /// See `ReplayResult::unspecified_uses`.
    pub unspecified_uses: u64,
    /// See `ReplayResult::untracked_uses`.
    pub untracked_uses: u64,
    /// See `ReplayResult::cut_at_input_loop`.
    pub cut_at_input_loop: bool,
    /// Per input loop (`ReplayOptions::input_loops`, by index), how many
    /// times the run went round it since it last entered it.
    input_loop_rounds: std::collections::HashMap<usize, u32>,
    /// The bytes a plain store is about to overwrite, with their offset,
    /// while the store is logged (see `races::Access::silent`); `None` for
    /// a byte of no known value (never written, or undetermined).
    silent_prior: Option<(u64, Vec<Option<u8>>)>,
    /// Set while a write of undetermined bytes is logged: two writes of
    /// one value are benign only when the value is the same in every run,
    /// and an undetermined one may differ in another.
    writing_undetermined: bool,
    /// Set while a block-scoped atomic's accesses are logged (see
    /// `races::Access::block_scoped`).
    block_scoped_atomic: bool,
    pub first_unspecified_use: Option<Loc>,
    /// See `ReplayResult::no_wrap_overflows`.
    pub no_wrap_overflows: u64,
    pub first_no_wrap_overflow: Option<(Loc, ThreadId)>,
    /// The term of the undetermined result of the instruction executing
    /// (see `terms`), from `undefined_before` to `undefined_after`.
    pub(crate) result_term: crate::terms::TermId,
    /// See `ReplayResult::compared_values`.
    pub compared_values: Vec<u128>,
    /// The undetermined bits of the entry function's arguments (see
    /// `ReplayOptions::arg_undefined`).
    entry_undefined: Vec<u128>,
    /// Their terms (`ReplayOptions::arg_terms`).
    entry_terms: Vec<crate::terms::TermId>,
    race_scratch: Vec<Access>,
    arg_scratch: Vec<Val>,
    /// Per thread, the objects it read or wrote (non-atomically), with the
    /// epochs of each access, for `__read(p)` and `__write(p)`. `None` when
    /// the module never asks, so that ordinary replays pay nothing.
    touched: Option<HashMap<u32, Vec<Touch>>>,
    /// Threads whose barrier flags fenced less than another's (see
    /// `races::Unfenced`).
    pub(crate) unfenced: Unfenced,
    /// Per group, its async copies and waits (see `async_copy`).
    pub(crate) async_groups: HashMap<u32, AsyncGroup>,
    /// Records loop-head states when `ReplayOptions::observe` asks.
    pub(crate) observer: Option<crate::observe::Recorder>,
}

/// One object a thread accessed, and when (see `Ctx::touched`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Touch {
    obj: ObjId,
    write: bool,
    /// The object is `__shared__` memory (ordered by the group's shared
    /// epoch) rather than global memory.
    shared: bool,
    grid_epoch: u32,
    /// The group epoch of the object's kind (shared or global memory) at
    /// the access.
    group_epoch: u32,
}

/// How control continues after one step.
enum Flow {
    /// Keep running this thread.
    Continue,
    /// The thread blocked, exited or stopped.
    Yield,
}

impl<'a> Ctx<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        module: &'a Module,
        launch: Launch,
        opts: &'a ReplayOptions,
        oracle: &'a mut dyn HavocOracle,
        memory: Memory,
        global_objs: Vec<Vec<ObjId>>,
        geometry: Geometry,
        groups: usize,
    ) -> Ctx<'a> {
        let infos = module
            .functions
            .values()
            .map(|f| func_info(module, f, &global_objs, opts.undefined_value))
            .collect();
        Ctx {
            module,
            launch,
            opts,
            oracle,
            infos,
            memory,
            global_objs,
            races: RaceLog::default(),
            own_writes: OwnWrites::default(),
            geometry,
            grid_epoch: 0,
            group_epochs: vec![0; groups],
            global_group_epochs: vec![0; groups],
            epoch_version: 0,
            warp_clocks: WarpClocks::default(),
            report: Reporter::default(),
            total_steps: 0,
            aborted: false,
            threads_exited: 0,
            unspecified_uses: 0,
            untracked_uses: 0,
            cut_at_input_loop: false,
            input_loop_rounds: std::collections::HashMap::new(),
            first_unspecified_use: None,
            no_wrap_overflows: 0,
            first_no_wrap_overflow: None,
            result_term: 0,
            compared_values: Vec::new(),
            entry_undefined: opts.arg_undefined.clone(),
            entry_terms: opts.arg_terms.clone(),
            silent_prior: None,
            writing_undetermined: false,
            block_scoped_atomic: false,
            race_scratch: Vec::new(),
            arg_scratch: Vec::new(),
            touched: uses_access_predicates(module).then(HashMap::new),
            async_groups: HashMap::new(),
            unfenced: Unfenced::default(),
            observer: None,
        }
    }

    /// Creates thread `index` positioned at the entry of `kernel`.
    pub fn new_thread(&mut self, index: u32, kernel: FuncId, args: &[Val]) -> Thread {
        let id = self.launch.thread_id(index);
        let per_group = self.launch.threads_per_group() as u32;
        let mut th = Thread {
            index,
            id,
            group: index / per_group,
            lane: index % per_group,
            frames: Vec::new(),
            status: Status::Runnable,
            steps: 0,
            counts: HashMap::new(),
            warp_epoch: 0,
            havocs: 0,
            tainted: false,
            async_copies: 0,
            async_waits: 0,
            barrier_flags: None,
        };
        let arg_undefined = std::mem::take(&mut self.entry_undefined);
        let arg_terms = std::mem::take(&mut self.entry_terms);
        let frame = self.new_frame(&th, kernel, args, &arg_undefined, &arg_terms, None, 0);
        self.entry_undefined = arg_undefined;
        self.entry_terms = arg_terms;
        th.frames.push(frame);
        th
    }

    fn new_frame(
        &mut self,
        th: &Thread,
        fid: FuncId,
        args: &[Val],
        arg_undefined: &[u128],
        arg_terms: &[crate::terms::TermId],
        ret_to: Option<ValueId>,
        path: u64,
    ) -> Frame {
        let func = &self.module.functions[fid];
        let info = &self.infos[fid.index()];
        let mut vals = info.template.clone();
        for (param, &arg) in func.params.iter().zip(args) {
            vals[param.value.index()] = convert(arg, param.ty);
        }
        let mut undef = Vec::new();
        let mut sym = Vec::new();
        if self.opts.track_definedness {
            undef = info.undef_template.clone();
            sym = vec![0; undef.len()];
            for (param, &u) in func.params.iter().zip(arg_undefined) {
                undef[param.value.index()] = u & mask(param.ty.bits());
            }
            for (param, &t) in func.params.iter().zip(arg_terms) {
                sym[param.value.index()] = t;
            }
        }
        for &(v, g) in &info.shared_addrs {
            let instances = &self.global_objs[g.index()];
            let obj = instances[(th.group as usize).min(instances.len() - 1)];
            vals[v.index()] = Val::Ptr(Pointer::new(obj, 0));
        }
        let mut locals = Vec::new();
        for &(v, l) in &info.local_addrs {
            let obj = &func.locals[l];
            let size = obj.size.unwrap_or(self.opts.unsized_global_size);
            let id = self.memory.alloc_object(
                obj.name.clone(),
                MemSpace::Private,
                ObjOrigin::Local {
                    func: fid,
                    local: l,
                    thread: th.index,
                },
                size,
                obj.init.as_deref(),
            );
            // A variable without an initialiser holds an undetermined
            // value until it is written.
            if self.opts.track_definedness && obj.init.is_none() {
                self.memory.note_undefined_range(id, 0, size);
            }
            locals.push(id);
            vals[v.index()] = Val::Ptr(Pointer::new(id, 0));
        }
        Frame {
            func: fid,
            block: func.entry,
            pos: 0,
            vals,
            undef,
            sym,
            pending_join: None,
            ret_to,
            locals,
            path,
        }
    }

    /// Runs `th` until it blocks, ends, or has executed `quantum`
    /// instructions.
    pub fn run_thread(&mut self, th: &mut Thread, quantum: u64) {
        let mut left = quantum;
        while matches!(th.status, Status::Runnable) && left > 0 && !self.aborted {
            left -= 1;
            if let Flow::Yield = self.step(th) {
                break;
            }
        }
        // A barrier (of any scope) ends the interval in which the thread's
        // own writes make its reads of them benign; an ended thread reads
        // nothing more.
        let interval_ends = match &th.status {
            Status::Runnable => false,
            Status::Warp(w) => w.op.is_none(),
            Status::Barrier(_) | Status::Exited | Status::Stopped => true,
        };
        if interval_ends {
            self.own_writes.forget(th.index);
        }
    }

    fn current_loc(th: &Thread) -> Loc {
        let f = th.frames.last().expect("a live thread has a frame");
        Loc {
            func: f.func,
            block: f.block,
            inst: None,
        }
    }

    /// Stops a thread for `reason`, recording why the replay is incomplete.
    pub fn stop(&mut self, th: &mut Thread, reason: IncompleteReason) {
        let loc = Self::current_loc(th);
        self.report.incomplete(reason, loc, th.id);
        th.status = Status::Stopped;
    }

    /// Records a violation of `kind` at `loc` by `th`, unless one with the
    /// same tag was already recorded there. The message is only built for
    /// a violation that is recorded (from the memory it may name): a run
    /// that repeats one violation millions of times, an access past an
    /// argument buffer in a long loop, spent most of its time formatting
    /// messages that were then thrown away.
    pub(crate) fn violation(
        &mut self,
        th: &Thread,
        loc: Loc,
        kind: ViolationKind,
        tag: u8,
        message: impl FnOnce(&Memory) -> String,
    ) {
        let key = (tag, loc_key(Some(loc)), [0; 3]);
        let thread = th.id;
        let memory = &self.memory;
        self.report
            .report(key, self.opts.max_violations, || ReplayViolation {
                kind,
                loc,
                thread,
                message: message(memory),
            });
    }

    /// Records an executed use of an unspecified value at `loc`.
    pub(crate) fn met_unspecified(&mut self, loc: Loc) {
        self.unspecified_uses += 1;
        self.untracked_uses += 1;
        self.first_unspecified_use.get_or_insert(loc);
    }

    /// A use that the path condition records (a branch whose way is in
    /// `Terms::path`): counted as a use, not as an untracked one.
    fn met_recorded_use(&mut self, loc: Loc) {
        self.unspecified_uses += 1;
        self.first_unspecified_use.get_or_insert(loc);
    }

    /// Executes one instruction or terminator of `th`.
    fn step(&mut self, th: &mut Thread) -> Flow {
        th.steps += 1;
        self.total_steps += 1;
        if th.steps > self.opts.step_budget_per_thread {
            self.stop(th, IncompleteReason::StepBudget);
            return Flow::Yield;
        }
        if self.total_steps > self.opts.step_budget_total {
            self.stop(th, IncompleteReason::TotalStepBudget);
            self.aborted = true;
            return Flow::Yield;
        }
        if self.opts.host_code && !self.report.violations.is_empty() {
            // A host program that went wrong (an access out of bounds, a
            // failed assertion) has undefined behaviour from there on: it
            // stops, as under a sanitizer, instead of running on, say, to
            // its step budget in a loop that looks for a sentinel it read
            // past.
            self.stop(th, IncompleteReason::Unsupported("the host program stops at its first error".into()));
            return Flow::Yield;
        }
        let process_full = || {
            let limit = self.opts.process_memory_limit?;
            crate::memory::resident_bytes(None).filter(|&used| used > limit).map(|used| (limit, used))
        };
        if self.total_steps % 4096 == 0 {
            if self.opts.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                self.stop(th, IncompleteReason::Unsupported("the check's time limit ran out (--timeout)".into()));
                self.aborted = true;
                return Flow::Yield;
            }
            if let Some((limit, used)) = process_full() {
                let why = format!("lockstep holds {} MiB, more than the {} MiB the replay may use (--memory-limit)", used >> 20, limit >> 20);
                self.stop(th, IncompleteReason::Unsupported(why));
                self.aborted = true;
                return Flow::Yield;
            }
        }
        if self.memory.exhausted(self.opts.memory_budget) {
            // Lazily backed memory costs what the program writes; past the
            // model's limit the run stops, incomplete, rather than taking
            // the verifier's machine down.
            let limit = self.opts.memory_budget >> 20;
            self.stop(th, IncompleteReason::Unsupported(format!("the program writes more than {limit} MiB of memory, the model's limit")));
            self.aborted = true;
            return Flow::Yield;
        }
        let module = self.module;
        let cur = th.frames.len() - 1;
        let (fid, bid, pos) = {
            let f = &th.frames[cur];
            (f.func, f.block, f.pos as usize)
        };
        let func = &module.functions[fid];
        let block = &func.blocks[bid];
        let unspecified = &self.infos[fid.index()].unspecified;
        let track = self.opts.track_definedness;
        if pos >= block.insts.len() {
            if !track && unspecified.terms.contains(&bid) {
                self.met_unspecified(Loc { func: fid, block: bid, inst: None });
            }
            return self.terminator(th, func, bid);
        }
        let inst = block.insts[pos];
        let loc = Loc {
            func: fid,
            block: bid,
            inst: Some(inst),
        };
        if !track && unspecified.insts.contains(&inst) {
            self.met_unspecified(loc);
        }
        let data = &func.insts[inst];
        let result_undefined = if track { self.undefined_before(th, func, data, loc) } else { 0 };
        let result_ty = data.result.map(|r| func.values[r].ty);
        macro_rules! val {
            ($v:expr) => {
                th.frames[cur].vals[$v.index()]
            };
        }
        let ty_of = |v: ValueId| func.values[v].ty;

        let result: Option<Val> = match &data.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let w = ty_of(*lhs).bits();
                let (a, b) = (val!(lhs).bits() & mask(w), val!(rhs).bits() & mask(w));
                let r = self.binary(th, loc, *op, a, b, w);
                // The run goes on with the wrapped result (what the hardware
                // computes), but an operation whose no-wrap promise fails
                // is undefined behaviour: the run is no behaviour the
                // engines that assume the promise must account for.
                if let Some(i) = loc.inst {
                    let flags = func.no_wrap_of(i);
                    if !flags.is_none() && crate::value::wraps(*op, a, b, w, flags) {
                        self.no_wrap_overflows += 1;
                        self.first_no_wrap_overflow.get_or_insert((loc, th.id));
                    }
                }
                Some(Val::Bits(r))
            }
            InstKind::Icmp { cc, lhs, rhs } => {
                let w = ty_of(*lhs).bits();
                let (a, b) = (val!(lhs).bits() & mask(w), val!(rhs).bits() & mask(w));
                Some(Val::Bits(icmp(*cc, a, b, w) as u128))
            }
            InstKind::Select {
                cond,
                then_value,
                else_value,
            } => Some(if val!(cond).as_bool() {
                val!(then_value)
            } else {
                val!(else_value)
            }),
            InstKind::Cast { op, arg } => Some(cast(
                *op,
                val!(arg),
                ty_of(*arg),
                result_ty.unwrap_or(Type::I64),
            )),
            InstKind::Float { op, args } => {
                let w = ty_of(args[0]).bits();
                let a = val!(args[0]).bits();
                let b = args.get(1).map_or(0, |v| val!(v).bits());
                Some(Val::Bits(float_op(*op, a, b, w)))
            }
            InstKind::Fcmp { cc, lhs, rhs } => {
                let w = ty_of(*lhs).bits();
                let a = float_to_f64(val!(lhs).bits(), w);
                let b = float_to_f64(val!(rhs).bits(), w);
                Some(Val::Bits(fcmp(*cc, a, b) as u128))
            }
            InstKind::PtrAdd { base, offset } => {
                let delta = sext(val!(offset).bits(), 64) as i64;
                Some(Val::Ptr(val!(base).as_ptr().offset_by(delta)))
            }
            InstKind::Load { ptr, .. } => {
                let ty = result_ty.unwrap_or(Type::I32);
                let p = val!(ptr).as_ptr();
                let specification = loc.inst.is_some_and(|i| {
                    self.infos[loc.func.index()].specification_loads.contains(&i)
                });
                Some(self.load(th, loc, p, ty, false, specification))
            }
            InstKind::Store { ptr, value, .. } => {
                let p = val!(ptr).as_ptr();
                let v = val!(value);
                self.writing_undetermined = track && th.frames[cur].undef[value.index()] != 0;
                self.store(th, loc, p, v, ty_of(*value), false);
                self.writing_undetermined = false;
                None
            }
            InstKind::Atomic { op, ptr, value, scope } => {
                let ty = ty_of(*value);
                let p = val!(ptr).as_ptr();
                let v = val!(value);
                self.block_scoped_atomic = *scope == AtomicScope::Block;
                let old = self.load(th, loc, p, ty, true, false);
                let new = atomic_op(*op, old, v, ty);
                self.store(th, loc, p, new, ty, true);
                self.block_scoped_atomic = false;
                Some(old)
            }
            InstKind::CmpXchg { ptr, expected, new, scope } => {
                let ty = ty_of(*expected);
                let p = val!(ptr).as_ptr();
                self.block_scoped_atomic = *scope == AtomicScope::Block;
                let old = self.load(th, loc, p, ty, true, false);
                let m = mask(ty.bits());
                // The access is logged as an atomic write even when the
                // comparison fails: another schedule could make it succeed.
                let stored = if old.bits() & m == val!(expected).bits() & m {
                    val!(new)
                } else {
                    old
                };
                self.store(th, loc, p, stored, ty, true);
                self.block_scoped_atomic = false;
                Some(old)
            }
            InstKind::MemCopy { dst, src, len } => {
                let (d, s, n) = (
                    val!(dst).as_ptr(),
                    val!(src).as_ptr(),
                    val!(len).bits() as u64,
                );
                self.memcopy(th, loc, d, s, n);
                None
            }
            InstKind::MemSet { dst, byte, len } => {
                let (d, b, n) = (
                    val!(dst).as_ptr(),
                    val!(byte).bits() as u8,
                    val!(len).bits() as u64,
                );
                self.memset(th, loc, d, b, n);
                None
            }
            InstKind::Barrier { scope, fence, mask } => {
                let args = mask.iter().map(|m| val!(m)).collect();
                let path = th.frames[cur].path;
                let occurrence = bump(&mut th.counts, loc, path);
                let wait = Wait {
                    loc,
                    path,
                    occurrence,
                    scope: *scope,
                    fence: th.barrier_flags.take().unwrap_or(*fence),
                    op: None,
                    args,
                    result: None,
                    collective: None,
                };
                th.frames[cur].pos += 1;
                th.status = match scope {
                    BarrierScope::Warp => Status::Warp(wait),
                    _ => Status::Barrier(wait),
                };
                return Flow::Yield;
            }
            InstKind::Fence { .. } | InstKind::Nop { .. } => None,
            InstKind::Builtin { var, dim } => {
                let d = (*dim as usize).min(2);
                Some(Val::u32(match var {
                    BuiltinVar::LocalId => th.id.local[d],
                    BuiltinVar::GroupId => th.id.group[d],
                    BuiltinVar::LocalSize => self.launch.group_size[d],
                    BuiltinVar::NumGroups => self.launch.num_groups[d],
                    BuiltinVar::GlobalOffset => self.launch.global_offset[d],
                }))
            }
            InstKind::Warp {
                op: WarpOp::LaneId, ..
            } => Some(Val::u32(th.lane % self.geometry.warp_lanes)),
            InstKind::Warp { op, args } => {
                let path = th.frames[cur].path;
                let occurrence = bump(&mut th.counts, loc, path);
                let args = args.iter().map(|v| val!(v)).collect();
                let result = data.result.zip(result_ty);
                th.frames[cur].pos += 1;
                th.status = Status::Warp(Wait {
                    loc,
                    path,
                    occurrence,
                    scope: BarrierScope::Warp,
                    fence: FenceFlags::default(),
                    op: Some(*op),
                    args,
                    result,
                    collective: None,
                });
                return Flow::Yield;
            }
            // The group meets again right after the barrier before it (the
            // verifier keeps the pair together), now with every thread's
            // operand: the scheduler combines them when the group is
            // released (`sched::combine_collectives`). The wait orders no
            // memory; the barrier did.
            InstKind::Collective { op, arg } => {
                let path = th.frames[cur].path;
                let occurrence = bump(&mut th.counts, loc, path);
                let args = vec![val!(arg)];
                let result = data.result.zip(result_ty);
                th.frames[cur].pos += 1;
                th.status = Status::Barrier(Wait {
                    loc,
                    path,
                    occurrence,
                    scope: BarrierScope::Group,
                    fence: FenceFlags::default(),
                    op: None,
                    args,
                    result,
                    collective: Some(*op),
                });
                return Flow::Yield;
            }
            InstKind::Call { callee, args } => {
                if th.frames.len() >= self.opts.max_call_depth {
                    self.stop(th, IncompleteReason::CallDepth);
                    return Flow::Yield;
                }
                let mut scratch = std::mem::take(&mut self.arg_scratch);
                scratch.clear();
                scratch.extend(args.iter().map(|v| val!(v)));
                let path = th.frames[cur].path.wrapping_mul(0x100_0000_01b3)
                    ^ (inst.as_u32() as u64 + 1)
                    ^ ((fid.as_u32() as u64) << 32);
                let arg_undefined: Vec<u128> = if track { args.iter().map(|v| th.frames[cur].undef[v.index()]).collect() } else { Vec::new() };
                let arg_terms: Vec<crate::terms::TermId> = if track { args.iter().map(|v| th.frames[cur].sym[v.index()]).collect() } else { Vec::new() };
                let frame = self.new_frame(th, *callee, &scratch, &arg_undefined, &arg_terms, data.result, path);
                self.arg_scratch = scratch;
                th.frames.push(frame);
                // The caller's position advances when the callee returns.
                return Flow::Continue;
            }
            InstKind::CallExternal { name, args } => {
                let vals: Vec<Val> = args.iter().map(|v| val!(v)).collect();
                if let (true, Some(r)) = (track, data.result) {
                    // Results the model computes below are determined.
                    th.frames[cur].undef[r.index()] = 0;
                }
                let types: Vec<Type> = args.iter().map(|&v| ty_of(v)).collect();
                if name == BARRIER_FLAGS {
                    // OpenCL's flags: CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2.
                    let bits = vals.first().map_or(0, |v| v.bits());
                    th.barrier_flags = Some(FenceFlags { shared: bits & 1 != 0, global: bits & 2 != 0 });
                    th.frames[cur].pos += 1;
                    return Flow::Continue;
                }
                if name == ASYNC_COPY || name == WAIT_EVENTS {
                    if name == ASYNC_COPY {
                        let event = self.async_copy(th, loc, &vals);
                        if let Some(r) = data.result {
                            th.frames[cur].vals[r.index()] = convert(event, result_ty.unwrap_or(Type::I64));
                        }
                    } else {
                        self.wait_group_events(th, loc, &vals);
                    }
                    th.frames[cur].pos += 1;
                    return Flow::Continue;
                }
                if let Some(result) = self.output_pointer_math(th, loc, name, &vals, &types, result_ty) {
                    if let Some(r) = data.result {
                        th.frames[cur].vals[r.index()] = result;
                    }
                    th.frames[cur].pos += 1;
                    return Flow::Continue;
                }
                if name == "get_work_dim" {
                    let bits = self.opts.work_dim as u128 & mask(result_ty.map_or(32, |t| t.bits()));
                    th.frames[cur].vals[data.result.expect("get_work_dim returns a value").index()] = Val::Bits(bits);
                    th.frames[cur].pos += 1;
                    return Flow::Continue;
                }
                let arg_undefined: Vec<u128> = if track { args.iter().map(|v| th.frames[cur].undef[v.index()]).collect() } else { Vec::new() };
                let call = ExternalCall { name, args: &vals, arg_types: &types, ret: result_ty, loc, arg_undefined: &arg_undefined, uses_so_far: self.unspecified_uses };
                let outcome = self.oracle.call_external(&call, &mut self.memory);
                if let (true, Some(r)) = (track, data.result) {
                    // The interpreter's own model (math functions) is a
                    // function of its arguments; the environment says what
                    // its results are.
                    let width = mask(result_ty.map_or(64, |t| t.bits()));
                    th.frames[cur].undef[r.index()] = match &outcome {
                        None if arg_undefined.iter().any(|&u| u != 0) => width,
                        None => 0,
                        Some(_) => self.oracle.result_undefined() & width,
                    };
                    // What the environment leaves open is a draw of its
                    // own; the interpreter's library functions get no
                    // term (the device's and the host's versions differ).
                    let undefined = th.frames[cur].undef[r.index()];
                    let given = self.oracle.result_term();
                    th.frames[cur].sym[r.index()] = match &outcome {
                        Some(ExternalOutcome::Return(Some(_))) if undefined != 0 && given != 0 => given,
                        Some(ExternalOutcome::Return(Some(v))) if undefined != 0 => {
                            self.memory.terms.fresh_known(v.bits(), undefined, result_ty.map_or(64, |t| t.bits()))
                        }
                        Some(_) if undefined != 0 => self.memory.terms.fresh(),
                        _ => 0,
                    };
                }
                match outcome {
                    None => crate::half::external_value(&self.memory, name, &vals, &types, result_ty),
                    Some(ExternalOutcome::Return(v)) => v,
                    Some(ExternalOutcome::Exit) => {
                        th.status = Status::Exited;
                        self.threads_exited += 1;
                        return Flow::Yield;
                    }
                    Some(ExternalOutcome::Unsupported(why)) => {
                        self.stop(th, IncompleteReason::Unsupported(why));
                        return Flow::Yield;
                    }
                }
            }
            InstKind::Annot { kind, args } => {
                let holds = match args.first() {
                    Some(v) => val!(v).as_bool(),
                    None => true,
                };
                match kind {
                    AnnotKind::Assert
                    | AnnotKind::WarpMask
                    | AnnotKind::Requires
                    | AnnotKind::Ensures
                    | AnnotKind::Invariant
                    | AnnotKind::GlobalInvariant
                    | AnnotKind::FunctionWideInvariant
                    | AnnotKind::GlobalRequires
                    | AnnotKind::GlobalEnsures
                    | AnnotKind::GlobalAssert => {
                        if !holds {
                            if th.tainted {
                                self.report.unsupported(
                                    format!(
                                        "`{}` depends on an annotation value replay cannot compute",
                                        kind.name()
                                    ),
                                    loc,
                                );
                            } else {
                                self.violation(
                                    th,
                                    loc,
                                    ViolationKind::AssertionFailed { annot: *kind },
                                    10,
                                    |_| format!("`{}` fails in {}", kind.name(), th.id),
                                );
                            }
                        }
                    }
                    AnnotKind::Assume | AnnotKind::Axiom => {
                        if !holds && !th.tainted {
                            self.report.infeasible(loc, th.id);
                            th.status = Status::Stopped;
                            return Flow::Yield;
                        }
                    }
                    // Candidates are guesses for invariant inference, not
                    // claims; the rest describe memory or specification
                    // functions and have nothing to check at run time.
                    AnnotKind::CandidateInvariant
                    | AnnotKind::CandidateGlobalInvariant
                    | AnnotKind::FunctionWideCandidateInvariant
                    | AnnotKind::FreshArray => {}
                    // A call of a specification function may read (write)
                    // any part of the object: when no postcondition says
                    // which, accessing its first bytes from the pointer is
                    // one of its behaviours (a bounded part keeps the cost
                    // low), logged for race detection with the contents
                    // left as they are.
                    AnnotKind::WritesTo | AnnotKind::ReadsFrom => {
                        let p = args.first().map_or(Pointer::NULL, |v| val!(v).as_ptr());
                        let object = p.obj.and_then(|obj| Some((obj, self.memory.get(obj)?.size())));
                        if let (true, Some((obj, size))) = (self.infos[fid.index()].unconstrained_spec, object) {
                            if p.offset >= 0 && (p.offset as u64) < size {
                                let width = (size - p.offset as u64).min(SPEC_ACCESS_BYTES);
                                let write = *kind == AnnotKind::WritesTo;
                                self.log_access(th, loc, obj, p.offset as u64, width, write, false);
                            }
                        }
                    }
                    AnnotKind::BarrierInvariant
                    | AnnotKind::BarrierInvariantBinary
                    | AnnotKind::NoRead
                    | AnnotKind::NoWrite => {
                        self.report
                            .unsupported(format!("annotation `{}`", kind.name()), loc);
                    }
                }
                None
            }
            InstKind::AnnotValue { func: afn, args } => {
                let arg = |i: usize| args.get(i).map(|v| th.frames[cur].vals[v.index()]);
                let ty = result_ty.unwrap_or(Type::BOOL);
                match afn {
                    AnnotFn::Enabled => Some(Val::Bits(1)),
                    AnnotFn::Implies => {
                        let a = arg(0).is_some_and(|v| v.as_bool());
                        let b = arg(1).is_some_and(|v| v.as_bool());
                        Some(Val::Bits((!a || b) as u128))
                    }
                    AnnotFn::PtrOffset => {
                        let off = arg(0).map_or(0, |v| v.as_ptr().offset);
                        Some(Val::Bits(off as u64 as u128 & mask(ty.bits())))
                    }
                    AnnotFn::Read | AnnotFn::Write if self.touched.is_some() => {
                        let p = arg(0).map_or(Pointer::NULL, |v| v.as_ptr());
                        let write = *afn == AnnotFn::Write;
                        Some(Val::Bits(self.accessed_since_barrier(th, p, write) as u128))
                    }
                    AnnotFn::PtrBase => {
                        let base = Pointer {
                            offset: 0,
                            ..arg(0).map_or(Pointer::NULL, |v| v.as_ptr())
                        };
                        Some(convert(Val::Ptr(base), ty))
                    }
                    other => {
                        th.tainted = true;
                        self.report
                            .unsupported(format!("annotation value `{}`", other.name()), loc);
                        Some(convert(Val::Bits(0), ty))
                    }
                }
            }
            InstKind::InvalidCall { target } => {
                // The call jumps to no function: report it, and stop the
                // thread, whose behaviour past this point is undefined.
                let target = val!(target).as_ptr();
                let what = match target.obj {
                    None if target.offset == 0 => "a null function pointer".to_string(),
                    None => format!("address {:#x}, which is no function's address,", target.offset as u64),
                    // A pointer made from an integer may name no object.
                    Some(o) => match self.memory.get(o) {
                        Some(object) => format!("a pointer into `{}` (offset {}), which is no function's address,", object.name, target.offset),
                        None => format!("address {:#x}, which is no function's address,", target.encode()),
                    },
                };
                self.violation(th, loc, ViolationKind::InvalidCall { target }, 14, |_| format!("call through {what} by {}", th.id));
                th.status = Status::Stopped;
                return Flow::Yield;
            }
            InstKind::Havoc => {
                let ty = result_ty.unwrap_or(Type::I32);
                let site = HavocSite {
                    func: fid,
                    inst,
                    thread: th.id,
                    count: th.havocs,
                    ty,
                };
                th.havocs += 1;
                let bits = self.oracle.havoc(&site) & mask(ty.bits());
                Some(convert(Val::Bits(bits), ty))
            }
        };
        if track {
            self.undefined_after(th, func, data, result_undefined);
        }
        let frame = &mut th.frames[cur];
        if let (Some(r), Some(v)) = (data.result, result) {
            frame.vals[r.index()] = v;
        }
        frame.pos += 1;
        Flow::Continue
    }

    fn terminator(&mut self, th: &mut Thread, func: &Function, bid: BlockId) -> Flow {
        let cur = th.frames.len() - 1;
        let fid = th.frames[cur].func;
        match &func.blocks[bid].term {
            Terminator::Jump(call) => self.jump(th, func, call),
            Terminator::Branch {
                cond,
                then_dest,
                else_dest,
            } => {
                if self.opts.track_definedness && th.frames[cur].undef[cond.index()] != 0 {
                    // A run that records its path for exploration records a
                    // branch with a term rather than joining its ways: the
                    // join would leave the values it merges without terms.
                    let record_instead = self.opts.record_path && th.frames[cur].sym[cond.index()] != 0;
                    let join = if record_instead { None } else { crate::definedness::branch_join(func, then_dest, else_dest) };
                    match join {
                        Some(join) => th.frames[cur].pending_join = Some(join),
                        None => {
                            // The host's way is its path condition, which the
                            // launches that follow may assume.
                            let at = Loc { func: fid, block: bid, inst: None };
                            let recorded = (self.opts.host_code || self.opts.record_path) && {
                                let taken = th.frames[cur].vals[cond.index()].as_bool();
                                self.memory.terms.note_path(th.frames[cur].sym[cond.index()], taken)
                            };
                            if recorded {
                                self.met_recorded_use(at);
                            } else {
                                self.met_unspecified(at);
                            }
                        }
                    }
                }
                let taken = if th.frames[cur].vals[cond.index()].as_bool() {
                    then_dest
                } else {
                    else_dest
                };
                self.jump(th, func, taken);
            }
            Terminator::Return(value) => {
                let ret = value.map(|v| th.frames[cur].vals[v.index()]);
                let ret_undefined = value.and_then(|v| th.frames[cur].undef.get(v.index()).copied()).unwrap_or(0);
                let ret_term = value.and_then(|v| th.frames[cur].sym.get(v.index()).copied()).unwrap_or(0);
                let frame = th.frames.pop().expect("a returning thread has a frame");
                for id in frame.locals {
                    self.memory.release(id);
                }
                match th.frames.last_mut() {
                    None => {
                        th.status = Status::Exited;
                        self.threads_exited += 1;
                        return Flow::Yield;
                    }
                    Some(caller) => {
                        if let (Some(r), Some(v)) = (frame.ret_to, ret) {
                            caller.vals[r.index()] = v;
                            if let Some(u) = caller.undef.get_mut(r.index()) {
                                *u = ret_undefined;
                            }
                            if let Some(t) = caller.sym.get_mut(r.index()) {
                                *t = ret_term;
                            }
                        }
                        caller.pos += 1;
                    }
                }
            }
            Terminator::Unreachable => {
                let loc = Loc {
                    func: fid,
                    block: bid,
                    inst: None,
                };
                self.violation(th, loc, ViolationKind::Unreachable, 11, |_| format!("`unreachable` reached by {}", th.id));
                th.status = Status::Stopped;
                return Flow::Yield;
            }
        }
        Flow::Continue
    }

    fn jump(&mut self, th: &mut Thread, func: &Function, call: &BlockCall) {
        let frame = th.frames.last_mut().expect("a running thread has a frame");
        let params = &func.blocks[call.block].params;
        // Block arguments are assigned in parallel: read them all first.
        let mut scratch = std::mem::take(&mut self.arg_scratch);
        scratch.clear();
        scratch.extend(call.args.iter().map(|v| frame.vals[v.index()]));
        for (p, v) in params.iter().zip(&scratch) {
            frame.vals[p.index()] = *v;
        }
        self.arg_scratch = scratch;
        if !frame.undef.is_empty() {
            let masks: Vec<u128> = call.args.iter().map(|v| frame.undef[v.index()]).collect();
            for (p, u) in params.iter().zip(masks) {
                frame.undef[p.index()] = u;
            }
            let terms: Vec<crate::terms::TermId> = call.args.iter().map(|v| frame.sym[v.index()]).collect();
            for (p, t) in params.iter().zip(terms) {
                frame.sym[p.index()] = t;
            }
            // The ways of a branch on an undetermined value met: what they
            // may set differently is undetermined.
            if frame.pending_join.as_ref().is_some_and(|(join, _)| *join == call.block) {
                let (_, differing) = frame.pending_join.take().expect("checked");
                for i in differing {
                    if let Some(p) = params.get(i) {
                        frame.undef[p.index()] = mask(func.values[*p].ty.bits());
                        frame.sym[p.index()] = 0;
                    }
                }
            }
        }
        let from = frame.block;
        frame.block = call.block;
        frame.pos = 0;
        if self.observer.is_some() && th.frames.len() == 1 {
            let now = crate::observe::CurrentEpochs {
                grid: self.grid_epoch,
                global: self.group_epoch(th.group, false),
                shared: self.group_epoch(th.group, true),
            };
            if let Some(rec) = self.observer.as_mut() {
                let frame = th.frames.last().expect("checked");
                rec.arrive(th.index, th.lane, th.id, frame.func, from, call.block, params, &frame.vals, now);
            }
        }
        if !self.opts.input_loops.is_empty() {
            self.input_loop_edge(th, func, from, call.block);
        }
    }

    /// An edge `from` -> `to` of the running function: at an input loop's
    /// header, counts the rounds (see `ReplayOptions::input_loops`).
    fn input_loop_edge(&mut self, th: &mut Thread, func: &Function, from: BlockId, to: BlockId) {
        let fid = th.frames.last().expect("a running thread has a frame").func;
        let Some(index) = self.opts.input_loops.iter().position(|l| l.func == fid && l.header == to) else { return };
        let l = &self.opts.input_loops[index];
        let (back_edge, locals) = (l.blocks.contains(&from), l.targets.clone());
        if !back_edge {
            // Entered afresh: a new count.
            self.input_loop_rounds.insert(index, 0);
            return;
        }
        let rounds = self.input_loop_rounds.entry(index).or_insert(0);
        *rounds += 1;
        if *rounds >= 2 {
            self.cut_at_input_loop = true;
            th.status = Status::Exited;
            self.threads_exited += 1;
            return;
        }
        // The first time round: the targets take any values.
        let frame = th.frames.last().expect("a running thread has a frame");
        let targets: Option<Vec<(ObjId, u64)>> = locals
            .into_iter()
            .map(|local| {
                let addr = func.values.iter().find(|(_, d)| matches!(d.def, ValueDef::LocalAddr(x) if x == local)).map(|(v, _)| v);
                let obj = addr.and_then(|v| frame.vals[v.index()].as_ptr().obj);
                obj.and_then(|o| self.memory.get(o).map(|object| (o, object.size())))
            })
            .collect();
        let Some(targets) = targets else {
            self.stop(th, IncompleteReason::Unsupported("a variable an input loop reads into has no storage".into()));
            return;
        };
        if !self.oracle.input_round(&targets, &mut self.memory) {
            self.stop(th, IncompleteReason::Unsupported("the values an input loop reads could not be made input again".into()));
        }
    }
}

/// Bytes a specification function's call accesses (see `WritesTo`).
const SPEC_ACCESS_BYTES: u64 = 64;

/// The external call that gives the flags of the next barrier when they
/// are not constant (see the front-end's `INTRINSICS.md`).
const BARRIER_FLAGS: &str = "__lockstep_barrier_flags";

/// Whether some function of `module` uses `__read(p)` or `__write(p)`.
fn uses_access_predicates(module: &Module) -> bool {
    module.functions.values().any(|f| {
        f.insts.values().any(|i| {
            matches!(i.kind, InstKind::AnnotValue { func: AnnotFn::Read | AnnotFn::Write, .. })
        })
    })
}

/// Counts one more arrival of a thread at (`loc`, `path`); returns the count.
fn bump(counts: &mut HashMap<(Loc, u64), u32>, loc: Loc, path: u64) -> u32 {
    let c = counts.entry((loc, path)).or_insert(0);
    *c += 1;
    *c
}

fn func_info(module: &Module, func: &Function, global_objs: &[Vec<ObjId>], undefined_value: u128) -> FuncInfo {
    let mut template = vec![Val::Bits(0); func.values.len()];
    let mut undef_template = vec![0u128; func.values.len()];
    let mut shared_addrs = Vec::new();
    let mut local_addrs = Vec::new();
    for (v, data) in func.values.iter() {
        template[v.index()] = match &data.def {
            ValueDef::Const(bits) => convert(Val::Bits(*bits), data.ty),
            ValueDef::Null => Val::NULL,
            ValueDef::Undef => {
                undef_template[v.index()] = mask(data.ty.bits());
                convert(Val::Bits(undefined_value & mask(data.ty.bits())), data.ty)
            }
            ValueDef::GlobalAddr(g) => {
                if module.globals[*g].space == MemSpace::Shared {
                    shared_addrs.push((v, *g));
                    Val::NULL
                } else {
                    Val::Ptr(Pointer::new(global_objs[g.index()][0], 0))
                }
            }
            ValueDef::LocalAddr(l) => {
                local_addrs.push((v, *l));
                Val::NULL
            }
            _ => Val::Bits(0),
        };
    }
    FuncInfo {
        specification_loads: lockstep_analysis::ghost::specification_loads(func),
        benign_candidates: lockstep_analysis::ghost::value_tracked_stores(module, func),
        template,
        undef_template,
        shared_addrs,
        local_addrs,
        unspecified: lockstep_analysis::unspecified::unspecified_uses(func),
        unconstrained_spec: !func.insts.values().any(|i| {
            matches!(i.kind, InstKind::Annot { kind: AnnotKind::Ensures | AnnotKind::GlobalEnsures, .. })
        }),
    }
}
