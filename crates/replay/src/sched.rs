//! The schedule: groups, barriers and warp intrinsics.
//!
//! Groups run one after another; inside a group, warps run one after
//! another; inside a warp, each runnable thread runs until it blocks (or, in
//! warp-synchronous mode, the warp's threads take turns executing one
//! instruction each, which is lock-step execution for convergent code). The
//! race detector (`races`) does not depend on this order, so any
//! deterministic order would do; this one keeps threads' working sets warm.
//!
//! Rendezvous points are resolved once every thread involved is blocked:
//!
//! - Warp intrinsics (shuffles, ballots, votes, `__activemask`,
//!   `__syncwarp`): when no thread of a warp can run, the threads of the
//!   warp waiting at the same operation — the same shuffle variant, vote,
//!   match or a warp barrier, at any site, as lanes meet since Volta; for
//!   `__activemask`, the same instance of one site — are the participating
//!   lanes; the intrinsic is computed over them and they continue. A lane
//!   that shuffles from a lane that does not participate (inactive,
//!   exited, or elsewhere) reads its own value, and the read is reported
//!   as warp divergence: CUDA leaves its value undefined. A mask that
//!   names a lane which has exited or waits at a group barrier is reported
//!   too (CUDA requires every lane a mask names to take part). The
//!   front-end lowers CUDA's other rules for masks (the caller and a
//!   shuffle's source lane are named) to assertions
//!   (`frontend/src/warp_masks.rs`). `__syncwarp` advances the warp epoch
//!   of its participants, separating their accesses for race detection.
//! - Group barriers: when no thread of a group can run and some wait at a
//!   group barrier, the group's threads must all wait at the same barrier
//!   instance (same instruction, call path and occurrence count) or a grid
//!   barrier, with none exited; anything else is barrier divergence. The
//!   waiting threads are released either way (so that the replay can go on
//!   and find more), and the group's epoch advances.
//! - Grid barriers: when every group is finished or waiting at grid
//!   barriers, the same check runs over the whole grid, then every thread is
//!   released and the grid and group epochs advance.
//!
//! Threads stopped early (by `unreachable`, a failing `assume` or a budget)
//! take no part in divergence checks, so that one violation does not cascade
//! into reports of divergence.

use std::collections::{BTreeMap, HashMap};

use lockstep_kir::*;

use crate::exec::{loc_key, Ctx, Status, Thread, Wait};
use crate::memory::{Memory, ObjOrigin};
use crate::options::{HavocOracle, Launch, ReplayOptions, SeededHavoc};
use crate::races::{Geometry, WarpArrival};
use crate::result::*;
use crate::value::{mask, ObjId, Val};

/// The most groups a replay launches: it keeps a few words per group
/// (barrier epochs, scheduling state, instances of `__shared__` variables),
/// even for groups that do not run, about 150 MB at this bound.
pub const MAX_GROUPS: u64 = 1 << 22;

/// Replays `kernel` of `module` for every thread of `launch` with the given
/// arguments (one per kernel parameter) and memory, drawing `havoc` values
/// from the default seeded generator.
pub fn replay(
    module: &Module,
    kernel: FuncId,
    launch: &Launch,
    args: &[Val],
    memory: Memory,
    options: &ReplayOptions,
) -> Result<ReplayResult, ReplayError> {
    let mut oracle = SeededHavoc {
        seed: options.havoc_seed,
    };
    replay_with_oracle(module, kernel, launch, args, memory, options, &mut oracle)
}

/// `replay` with `havoc` values drawn from `oracle`.
pub fn replay_with_oracle(
    module: &Module,
    kernel: FuncId,
    launch: &Launch,
    args: &[Val],
    mut memory: Memory,
    options: &ReplayOptions,
    oracle: &mut dyn HavocOracle,
) -> Result<ReplayResult, ReplayError> {
    let func = module
        .functions
        .get(kernel)
        .ok_or(ReplayError::NoSuchKernel(kernel))?;
    if func.params.len() != args.len() {
        return Err(ReplayError::ArgumentCount {
            expected: func.params.len(),
            found: args.len(),
        });
    }
    if launch.group_size.contains(&0) || launch.num_groups.contains(&0) {
        return Err(ReplayError::BadLaunch("a dimension is zero".into()));
    }
    let per_group = launch.threads_per_group();
    let groups = launch.groups();
    if per_group
        .checked_mul(groups)
        .filter(|&n| n <= u32::MAX as u64)
        .is_none()
    {
        return Err(ReplayError::BadLaunch("more than 2^32 threads".into()));
    }
    // The replay keeps a few words per group (barrier epochs, instances of
    // `__shared__` variables), even for groups that do not run.
    if groups > MAX_GROUPS {
        return Err(ReplayError::BadLaunch(format!("more than {MAX_GROUPS} groups")));
    }
    if options.warp_size == Some(0) || options.warp_lanes == 0 {
        return Err(ReplayError::BadLaunch("a warp of zero lanes".into()));
    }

    // Every module global gets its instances before any thread runs.
    let mut global_objs: Vec<Vec<ObjId>> = Vec::with_capacity(module.globals.len());
    for (g, obj) in module.globals.iter() {
        if obj.space == MemSpace::Shared {
            let size = obj.size.unwrap_or(options.dynamic_shared_size);
            // Groups that will not run share one placeholder instance.
            let mut placeholder: Option<ObjId> = None;
            let instances = (0..groups as u32)
                .map(|group| {
                    let runs = options.only_groups.as_ref().map_or(true, |only| only.contains(&group));
                    if !runs {
                        if let Some(p) = placeholder {
                            return p;
                        }
                    }
                    let id = memory.alloc_filled(
                        obj.name.clone(),
                        MemSpace::Shared,
                        ObjOrigin::Shared { global: g, group },
                        size,
                        options.global_fill,
                        obj.init.as_deref(),
                    );
                    if !runs {
                        placeholder = Some(id);
                    }
                    id
                })
                .collect();
            global_objs.push(instances);
        } else {
            let id = memory.instantiate_global(
                module,
                g,
                options.global_fill,
                options.unsized_global_size,
            );
            global_objs.push(vec![id]);
        }
    }

    let group_args = per_group_args(module, kernel, args, &mut memory, groups as u32, options.only_groups.as_ref());

    let warp_lanes = options.warp_size.unwrap_or(options.warp_lanes);
    let geometry = Geometry {
        threads_per_group: per_group as u32,
        warp_lanes,
        warp_sync: options.warp_size.is_some(),
        inter_group: options.check_inter_group_races,
    };
    let mut ctx = Ctx::new(
        module,
        *launch,
        options,
        oracle,
        memory,
        global_objs,
        geometry,
        groups as usize,
    );
    ctx.observer = options.observe.clone().map(|plan| {
        crate::observe::Recorder::new(plan, kernel, launch.group_size, launch.num_groups, &ctx.global_objs, args, &group_args)
    });
    let mut sched = Scheduler {
        kernel,
        args: args.to_vec(),
        group_args,
        groups: (0..groups).map(|_| GroupState::NotStarted).collect(),
    };
    sched.run(&mut ctx);

    let completed = ctx.report.incomplete.is_empty() && !ctx.aborted;
    Ok(ReplayResult {
        violations: ctx.report.violations,
        violations_truncated: ctx.report.truncated,
        completed,
        incomplete: ctx.report.incomplete,
        infeasible: ctx.report.infeasible,
        unsupported: ctx.report.unsupported,
        steps: ctx.total_steps,
        threads_exited: ctx.threads_exited,
        unspecified_uses: ctx.unspecified_uses,
        untracked_uses: ctx.untracked_uses,
        cut_at_input_loop: ctx.cut_at_input_loop,
        first_unspecified_use: ctx.first_unspecified_use,
        no_wrap_overflows: ctx.no_wrap_overflows,
        first_no_wrap_overflow: ctx.first_no_wrap_overflow,
        compared_values: ctx.compared_values,
        observations: ctx.observer.map(|r| r.out),
        memory: ctx.memory,
    })
}

/// OpenCL kernels take `__local` buffers as pointer parameters; each group
/// must get its own instance. For every parameter of a shared-space pointer
/// type whose argument points into a caller's buffer of shared space, group
/// 0 uses the buffer itself and every other group a copy, named after it
/// with the group's index. Returns the arguments of each group that has
/// its own, by group; the others take `args`. (Only the groups that run
/// get a list, so a launch of millions of groups of which two run costs
/// two lists.)
fn per_group_args(
    module: &Module,
    kernel: FuncId,
    args: &[Val],
    memory: &mut Memory,
    groups: u32,
    only_groups: Option<&Vec<u32>>,
) -> BTreeMap<u32, Vec<Val>> {
    let func = &module.functions[kernel];
    let mut lists: BTreeMap<u32, Vec<Val>> = BTreeMap::new();
    let running: Vec<u32> = match only_groups {
        Some(only) => only.iter().copied().filter(|&g| g > 0 && g < groups).collect(),
        None => (1..groups).collect(),
    };
    for (i, param) in func.params.iter().enumerate() {
        let Type::Ptr(MemSpace::Shared) = param.ty else {
            continue;
        };
        let p = args[i].as_ptr();
        let Some(object) = p.obj.and_then(|obj| memory.get(obj)) else {
            continue;
        };
        if object.space != MemSpace::Shared || object.origin != ObjOrigin::Buffer {
            continue;
        }
        let (name, bytes) = (object.name.clone(), object.bytes.clone());
        // Groups that will not run need no buffer of their own.
        for &g in &running {
            let list = lists.entry(g).or_insert_with(|| args.to_vec());
            let copy = memory.alloc_copy(format!("{name}[group {g}]"), MemSpace::Shared, ObjOrigin::Buffer, bytes.clone());
            list[i] = Val::Ptr(crate::value::Pointer {
                obj: Some(copy),
                offset: p.offset,
            });
        }
    }
    lists
}

enum GroupState {
    NotStarted,
    /// Started; every thread is exited, stopped or waiting at a grid barrier.
    Waiting(Vec<Thread>),
    /// Every thread exited or stopped. Keeps up to four exited threads and
    /// the count, for grid-barrier divergence reports.
    Done {
        exited: Vec<ThreadId>,
        count: usize,
    },
}

struct Scheduler {
    kernel: FuncId,
    /// The kernel's arguments.
    args: Vec<Val>,
    /// The arguments of the groups that have their own (see
    /// `per_group_args`: they differ only in per-group buffers); the others
    /// take `args`.
    group_args: BTreeMap<u32, Vec<Val>>,
    groups: Vec<GroupState>,
}

/// The identity of a barrier instance a thread waits at; `None` for a thread
/// that exited.
type Site = Option<(Loc, u64, u32)>;

impl Scheduler {
    fn run(&mut self, ctx: &mut Ctx) {
        let per_group = ctx.launch.threads_per_group() as u32;
        loop {
            let mut any_waiting = false;
            for g in 0..self.groups.len() {
                let excluded = ctx.opts.only_groups.as_ref().is_some_and(|only| !only.contains(&(g as u32)));
                if excluded && matches!(self.groups[g], GroupState::NotStarted) {
                    self.groups[g] = GroupState::Done { count: 0, exited: Vec::new() };
                    continue;
                }
                if ctx.aborted && matches!(self.groups[g], GroupState::NotStarted) {
                    // The budget is spent: groups that never started stay so.
                    continue;
                }
                let mut threads =
                    match std::mem::replace(&mut self.groups[g], GroupState::NotStarted) {
                        GroupState::NotStarted => {
                            let args = self.group_args.get(&(g as u32)).unwrap_or(&self.args);
                            (0..per_group)
                                .map(|i| {
                                    ctx.new_thread(g as u32 * per_group + i, self.kernel, args)
                                })
                                .collect()
                        }
                        GroupState::Waiting(threads) => threads,
                        done @ GroupState::Done { .. } => {
                            self.groups[g] = done;
                            continue;
                        }
                    };
                run_group(ctx, g, &mut threads);
                if threads
                    .iter()
                    .any(|t| matches!(t.status, Status::Barrier(_)))
                {
                    any_waiting = true;
                    self.groups[g] = GroupState::Waiting(threads);
                } else {
                    let exited: Vec<ThreadId> = threads
                        .iter()
                        .filter(|t| matches!(t.status, Status::Exited))
                        .map(|t| t.id)
                        .collect();
                    self.groups[g] = GroupState::Done {
                        count: exited.len(),
                        exited: exited.into_iter().take(4).collect(),
                    };
                }
            }
            if !any_waiting {
                return;
            }
            if ctx.aborted {
                self.abort(ctx);
                return;
            }
            self.release_grid(ctx);
        }
    }

    /// Every group is done or waits at a grid barrier: check that the grid
    /// agrees on the barrier and release it.
    fn release_grid(&mut self, ctx: &mut Ctx) {
        let mut arrivals: Vec<(Site, Vec<ThreadId>, usize)> = Vec::new();
        let mut add = |site: Site, thread: Option<ThreadId>, count: usize| {
            let i = match arrivals.iter().position(|(s, _, _)| *s == site) {
                Some(i) => i,
                None => {
                    arrivals.push((site, Vec::new(), 0));
                    arrivals.len() - 1
                }
            };
            let entry = &mut arrivals[i];
            entry.2 += count;
            if let Some(t) = thread {
                if entry.1.len() < 4 {
                    entry.1.push(t);
                }
            }
        };
        for state in &self.groups {
            match state {
                GroupState::Waiting(threads) => {
                    for t in threads {
                        match &t.status {
                            Status::Barrier(w) => {
                                add(Some((w.loc, w.path, w.occurrence)), Some(t.id), 1)
                            }
                            Status::Exited => add(None, Some(t.id), 1),
                            _ => {}
                        }
                    }
                }
                GroupState::Done { exited, count } if *count > 0 => {
                    for (i, &t) in exited.iter().enumerate() {
                        add(None, Some(t), if i == 0 { *count } else { 0 });
                    }
                }
                _ => {}
            }
        }
        report_divergence(ctx, BarrierScope::Grid, arrivals);
        ctx.grid_epoch += 1;
        for e in ctx.group_epochs.iter_mut() {
            *e += 1;
        }
        ctx.epoch_version += 1;
        for state in &mut self.groups {
            if let GroupState::Waiting(threads) = state {
                for t in threads {
                    if matches!(t.status, Status::Barrier(_)) {
                        t.status = Status::Runnable;
                    }
                }
            }
        }
    }

    /// The total budget ran out: stop every waiting thread.
    fn abort(&mut self, ctx: &mut Ctx) {
        for state in &mut self.groups {
            if let GroupState::Waiting(threads) = state {
                for t in threads.iter_mut() {
                    if matches!(
                        t.status,
                        Status::Barrier(_) | Status::Warp(_) | Status::Runnable
                    ) {
                        ctx.stop(t, IncompleteReason::TotalStepBudget);
                    }
                }
            }
        }
    }
}

/// Runs group `g` until every thread has exited, stopped, or waits at a grid
/// barrier, resolving warp intrinsics and group barriers on the way.
fn run_group(ctx: &mut Ctx, g: usize, threads: &mut [Thread]) {
    let lanes = ctx.geometry.warp_lanes as usize;
    let quantum = if ctx.opts.warp_size.is_some() {
        1
    } else {
        u64::MAX
    };
    loop {
        for warp in threads.chunks_mut(lanes) {
            loop {
                loop {
                    let mut ran = false;
                    for t in warp.iter_mut() {
                        if matches!(t.status, Status::Runnable) {
                            ctx.run_thread(t, quantum);
                            ran = true;
                        }
                    }
                    if !ran || ctx.aborted {
                        break;
                    }
                }
                if ctx.aborted {
                    for t in threads.iter_mut() {
                        if !matches!(t.status, Status::Exited | Status::Stopped) {
                            ctx.stop(t, IncompleteReason::TotalStepBudget);
                        }
                    }
                    return;
                }
                if !resolve_warp_ops(ctx, warp) {
                    break;
                }
            }
        }
        let group_waiters = threads
            .iter()
            .any(|t| matches!(&t.status, Status::Barrier(w) if w.scope == BarrierScope::Group));
        if !group_waiters {
            // Every thread exited, stopped, or waits at a grid barrier; the
            // grid-level check judges the latter.
            return;
        }
        let mut arrivals: Vec<(Site, Vec<ThreadId>, usize)> = Vec::new();
        for t in threads.iter() {
            let site = match &t.status {
                Status::Barrier(w) => Some((w.loc, w.path, w.occurrence)),
                Status::Exited => None,
                _ => continue,
            };
            match arrivals.iter_mut().find(|(s, _, _)| *s == site) {
                Some(entry) => {
                    entry.2 += 1;
                    if entry.1.len() < 4 {
                        entry.1.push(t.id);
                    }
                }
                None => arrivals.push((site, vec![t.id], 1)),
            }
        }
        report_divergence(ctx, BarrierScope::Group, arrivals);
        combine_collectives(threads);
        // The barrier orders a memory kind when some waiting thread's flags
        // fence it; but only the accesses of threads whose own flags fence
        // it: the others are recorded as unfenced at this barrier (see
        // `races`), as GPUVerify resets only the logs of a thread whose
        // flags fence the memory.
        let mut fence = FenceFlags { shared: false, global: false };
        for t in threads.iter() {
            if let Status::Barrier(w) = &t.status {
                if w.scope == BarrierScope::Group {
                    fence.shared |= w.fence.shared;
                    fence.global |= w.fence.global;
                }
            }
        }
        for t in threads.iter_mut() {
            if let Status::Barrier(w) = &t.status {
                if w.scope == BarrierScope::Group {
                    if fence.shared && !w.fence.shared {
                        ctx.unfenced.record(t.index, true, ctx.group_epochs[g]);
                    }
                    if fence.global && !w.fence.global {
                        ctx.unfenced.record(t.index, false, ctx.global_group_epochs[g]);
                    }
                    t.status = Status::Runnable;
                }
            }
        }
        if fence.shared {
            ctx.group_epochs[g] += 1;
        }
        if fence.global {
            ctx.global_group_epochs[g] += 1;
        }
        ctx.epoch_version += 1;
        // A barrier does not complete an async copy: one still in flight
        // races with the accesses of the new interval too.
        if fence.shared || fence.global {
            ctx.relog_copies_in_flight(g as u32);
        }
    }
}

/// Gives every thread of a group waiting at a group collective the value
/// the collective combines over the threads waiting at the same instance
/// (same instruction, call path and occurrence; when the group diverged,
/// each instance combines the threads that reached it, and the divergence
/// is reported separately).
fn combine_collectives(threads: &mut [Thread]) {
    let mut combined: HashMap<(Loc, u64, u32), (bool, bool, u64)> = HashMap::new();
    for t in threads.iter() {
        if let Status::Barrier(w) = &t.status {
            if w.collective.is_some() {
                let set = w.args.first().is_some_and(|v| v.bits() != 0);
                let e = combined.entry((w.loc, w.path, w.occurrence)).or_insert((false, true, 0));
                e.0 |= set;
                e.1 &= set;
                e.2 += set as u64;
            }
        }
    }
    if combined.is_empty() {
        return;
    }
    for t in threads.iter_mut() {
        let Status::Barrier(w) = &t.status else { continue };
        let (Some(op), Some((r, _))) = (w.collective, w.result) else { continue };
        let (any, all, count) = combined[&(w.loc, w.path, w.occurrence)];
        let value = match op {
            CollectiveOp::Or => any as u64,
            CollectiveOp::And => all as u64,
            CollectiveOp::Count => count,
        };
        let frame = t.frames.last_mut().expect("a waiting thread has a frame");
        frame.vals[r.index()] = Val::u32(value as u32);
        if let Some(u) = frame.undef.get_mut(r.index()) {
            *u = 0;
        }
    }
}

/// Reports a divergence when the threads stand at more than one place.
fn report_divergence(
    ctx: &mut Ctx,
    scope: BarrierScope,
    arrivals: Vec<(Site, Vec<ThreadId>, usize)>,
) {
    if arrivals.len() <= 1 {
        return;
    }
    let arrivals: Vec<Arrival> = arrivals
        .into_iter()
        .map(|(site, threads, count)| Arrival {
            barrier: site.map(|(loc, _, _)| loc),
            occurrence: site.map_or(0, |(_, _, o)| o),
            threads,
            count,
        })
        .collect();
    // One divergence usually repeats in later iterations and at later
    // barriers, as the threads that went astray come back (a thread-dependent
    // trip count shows at every iteration). Only the first report that names
    // a barrier is kept.
    let barriers: Vec<[u32; 3]> = arrivals
        .iter()
        .filter(|a| a.barrier.is_some())
        .map(|a| loc_key(a.barrier))
        .collect();
    if barriers.iter().any(|b| ctx.report.diverged.contains(b)) {
        return;
    }
    ctx.report.diverged.extend(barriers.iter().copied());
    let mut keys: Vec<[u32; 3]> = arrivals.iter().map(|a| loc_key(a.barrier)).collect();
    keys.sort();
    keys.dedup();
    let second = keys.get(1).copied().unwrap_or(keys[0]);
    let key = (2, keys[0], second);
    let first = &arrivals[0];
    let loc = arrivals
        .iter()
        .find_map(|a| a.barrier)
        .expect("some thread waits at a barrier");
    let thread = arrivals
        .iter()
        .find(|a| a.barrier.is_some())
        .map_or(first.threads[0], |a| a.threads[0]);
    let describe = |a: &Arrival| match a.barrier {
        Some(l) => format!(
            "{} thread(s) at barrier {} (occurrence {}), e.g. {}",
            a.count, l, a.occurrence, a.threads[0]
        ),
        None => format!("{} thread(s) exited, e.g. {}", a.count, a.threads[0]),
    };
    let message = format!(
        "{} barrier divergence: {}",
        scope.name(),
        arrivals.iter().map(describe).collect::<Vec<_>>().join("; ")
    );
    ctx.report
        .report(key, ctx.opts.max_violations, || ReplayViolation {
            kind: ViolationKind::BarrierDivergence { scope, arrivals },
            loc,
            thread,
            message,
        });
}

/// Which waiting lanes of a warp meet at one warp operation.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum MeetingKey {
    /// Lanes waiting at the same instance of one site (same instruction,
    /// call path and occurrence): `__activemask` and `__lanemask`, which
    /// do not wait for other lanes.
    Site(Loc, u64, u32),
    /// Lanes waiting at any site of one synchronising operation: a shuffle
    /// variant, a vote, a match, or a warp barrier (`None`). Since Volta a
    /// lane waits for the lanes its mask names to reach such an operation,
    /// not necessarily the same one: CUDA's programming guide shows two
    /// halves of a warp exchanging values through `__shfl_xor_sync`s in
    /// the two branches of an `if`.
    Operation(Option<WarpOp>),
}

fn meeting_key(w: &Wait) -> MeetingKey {
    match w.op {
        Some(WarpOp::ActiveMask | WarpOp::LaneId) => MeetingKey::Site(w.loc, w.path, w.occurrence),
        op => MeetingKey::Operation(op),
    }
}

/// Resolves the warp intrinsics the threads of one warp wait at; returns
/// whether any thread was released.
fn resolve_warp_ops(ctx: &mut Ctx, warp: &mut [Thread]) -> bool {
    let mut sets: HashMap<MeetingKey, Vec<usize>> = HashMap::new();
    let mut order = Vec::new();
    for (i, t) in warp.iter().enumerate() {
        if let Status::Warp(w) = &t.status {
            let key = meeting_key(w);
            let set = sets.entry(key).or_default();
            if set.is_empty() {
                order.push(key);
            }
            set.push(i);
        }
    }
    if order.is_empty() {
        return false;
    }
    // The lanes waiting at warp barriers meet, whichever `__syncwarp` each
    // waits at: since Volta a lane waits for the lanes of its mask to reach
    // a warp barrier, not necessarily the same one.
    let at_barrier: Vec<usize> =
        (0..warp.len()).filter(|&i| matches!(&warp[i].status, Status::Warp(w) if w.op.is_none())).collect();
    if !at_barrier.is_empty() {
        synchronise_warp(ctx, warp, &at_barrier);
    }
    let lanes = ctx.geometry.warp_lanes;
    for key in order {
        let members = &sets[&key];
        let waits: Vec<Wait> = members
            .iter()
            .map(|&i| match &warp[i].status {
                Status::Warp(w) => w.clone(),
                _ => unreachable!("members wait at a warp intrinsic"),
            })
            .collect();
        let lane_ids: Vec<u32> = warp.iter().map(|t| t.lane % lanes).collect();
        let lane_of = |i: usize| lane_ids[i];
        let active: u128 = members
            .iter()
            .fold(0, |m, &i| m | (1u128 << lane_of(i).min(127)));
        // The value each participating lane offers (a shuffle's operand).
        let mut offered: HashMap<u32, Val> = HashMap::new();
        for (&i, w) in members.iter().zip(&waits) {
            if let Some(&v) = w.args.get(1) {
                offered.insert(lane_of(i), v);
            }
        }
        let pred = |w: &Wait| w.args.get(1).is_some_and(|v| v.bits() != 0);
        // Shuffling lanes whose source lane does not take part, with the
        // shuffle each executes.
        let mut absent: Vec<(usize, u32, Loc)> = Vec::new();
        for (&i, w) in members.iter().zip(&waits) {
            let lane = lane_of(i);
            let arg = |k: usize| w.args.get(k).map_or(0, |v| v.bits() as u64);
            // The segment width of a shuffle: a power of two up to the warp.
            let width = match w.args.get(3) {
                Some(v) if v.bits() > 0 => {
                    (v.bits() as u32).min(lanes).next_power_of_two().min(lanes)
                }
                _ => lanes,
            };
            let own = w.args.get(1).copied().unwrap_or_default();
            let from = |src: Option<u32>| src.and_then(|s| offered.get(&s).copied()).unwrap_or(own);
            let seg = lane - lane % width;
            // The lane a shuffle reads from (`None`: it keeps its own value).
            let source = match w.op {
                Some(WarpOp::Shfl) => Some(seg + (arg(2) as u32 % width)),
                Some(WarpOp::ShflUp) => {
                    let delta = arg(2) as u32;
                    (lane % width >= delta).then(|| lane - delta)
                }
                Some(WarpOp::ShflDown) => {
                    let delta = arg(2) as u32;
                    (lane % width)
                        .checked_add(delta)
                        .filter(|&d| d < width)
                        .map(|_| lane + delta)
                }
                Some(WarpOp::ShflXor) => {
                    let src = lane ^ arg(2) as u32;
                    (src / width == lane / width).then_some(src)
                }
                _ => None,
            };
            if let Some(src) = source.filter(|s| *s != lane && !offered.contains_key(s)) {
                absent.push((i, src, w.loc));
            }
            let value = match w.op {
                None => {
                    warp[i].warp_epoch += 1;
                    None
                }
                Some(WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor) => Some(from(source)),
                Some(WarpOp::Ballot) => {
                    let bits = members
                        .iter()
                        .zip(&waits)
                        .filter(|(_, w)| pred(w))
                        .fold(0u128, |m, (&j, _)| m | (1u128 << lane_of(j).min(127)));
                    Some(Val::Bits(bits))
                }
                Some(WarpOp::All) => Some(Val::Bits(waits.iter().all(pred) as u128)),
                Some(WarpOp::Any) => Some(Val::Bits(waits.iter().any(pred) as u128)),
                Some(WarpOp::ActiveMask) => Some(Val::Bits(active)),
                Some(WarpOp::MatchAny) => {
                    let mine = w.args.get(1).map(|v| v.bits());
                    let bits = members
                        .iter()
                        .zip(&waits)
                        .filter(|(_, o)| o.args.get(1).map(|v| v.bits()) == mine)
                        .fold(0u128, |m, (&j, _)| m | (1u128 << lane_of(j).min(127)));
                    Some(Val::Bits(bits & w.args.first().map_or(u128::MAX, |m| m.bits())))
                }
                Some(WarpOp::LaneId) => Some(Val::u32(lane)),
            };
            let t = &mut warp[i];
            if let (Some((r, ty)), Some(v)) = (w.result, value) {
                let v = match ty {
                    Type::Int(bits) => Val::Bits(v.bits() & mask(bits as u32)),
                    _ => v,
                };
                let frame = t.frames.last_mut().expect("a waiting thread has a frame");
                frame.vals[r.index()] = v;
                // A warp operation with undetermined operands was counted
                // as a use when the thread arrived.
                if let Some(u) = frame.undef.get_mut(r.index()) {
                    *u = 0;
                }
            }
            t.status = Status::Runnable;
        }
        for (i, src, loc) in absent {
            report_absent_source(ctx, warp, i, src, loc);
        }
        // The lanes that took part in this instance: for a warp barrier,
        // every lane waiting at one (they meet whichever `__syncwarp` each
        // waits at); for a vote or shuffle, the lanes at this instance.
        let barrier = waits.first().is_some_and(|w| w.op.is_none());
        let took_part: u128 = if barrier { &at_barrier } else { members }
            .iter()
            .fold(0, |m, &i| m | (1u128 << lane_of(i).min(127)));
        for (&i, w) in members.iter().zip(&waits) {
            if let Some(mask) = member_mask(w) {
                report_named_absent(ctx, warp, i, mask & !took_part, w.loc);
            }
        }
    }
    true
}

/// The member mask of a warp intrinsic or warp barrier waiting at `w`:
/// the lanes CUDA requires to execute it with the caller (`None`: it has
/// none, as `__activemask`). A `__syncwarp` without a mask argument names
/// every lane.
fn member_mask(w: &Wait) -> Option<u128> {
    match w.op {
        None => Some(w.args.first().map_or(0xffff_ffff, |m| m.bits() & 0xffff_ffff)),
        Some(op) if op.takes_member_mask() => w.args.first().map(|m| m.bits() & 0xffff_ffff),
        Some(_) => None,
    }
}

/// Reports the lanes of `named` (lanes the mask of `warp[waiter]`'s warp
/// operation at `loc` names, which did not take part in it) that can never
/// take part: a lane that has exited, or one that waits at a group barrier
/// (which in turn waits for the caller). CUDA requires every lane a mask
/// names to execute the operation; a mask that names an exited lane is
/// undefined behaviour, and on the hardware the caller may wait forever. A
/// lane that waits at another warp operation is not reported: since Volta
/// lanes at different sites of one operation may meet. Lanes with no thread
/// (a block whose size is not a multiple of 32) and threads stopped by
/// another violation are not reported either.
fn report_named_absent(ctx: &mut Ctx, warp: &[Thread], waiter: usize, named: u128, loc: Loc) {
    if named == 0 {
        return;
    }
    let lanes = ctx.geometry.warp_lanes;
    for other in warp {
        let lane = other.lane % lanes;
        if lane >= 32 || named & (1u128 << lane) == 0 {
            continue;
        }
        let (site, place) = match &other.status {
            Status::Exited => (None, "has exited".to_owned()),
            Status::Barrier(b) => {
                let scope = if b.scope == BarrierScope::Grid { "grid" } else { "block" };
                (Some(b.loc), format!("waits at a {scope} barrier"))
            }
            _ => continue,
        };
        let waiter_id = warp[waiter].id;
        let key = (31, loc_key(Some(loc)), loc_key(site));
        let message = format!(
            "warp divergence: the mask of this warp operation, executed by {waiter_id}, names lane {lane} ({}), which {place}: CUDA requires every lane a mask names to execute the operation (undefined behaviour)",
            other.id
        );
        let arrivals = caller_and_absent(loc, waiter_id, site, other.id);
        ctx.report.report(key, ctx.opts.max_violations, || ReplayViolation {
            kind: ViolationKind::NamedLaneAbsent { arrivals },
            loc,
            thread: waiter_id,
            message,
        });
        // One report per waiter and instance is enough to show the bug.
        return;
    }
}

/// Records that the lanes `members` of `warp`, each waiting at a warp
/// barrier (whose mask is its first argument; none names every lane), pass
/// it, before their warp epochs advance.
fn synchronise_warp(ctx: &mut Ctx, warp: &[Thread], members: &[usize]) {
    let lanes = ctx.geometry.warp_lanes;
    let lane_of = |i: usize| warp[i].lane % lanes;
    let arrivals: Vec<WarpArrival> = members
        .iter()
        .map(|&i| {
            let mask = match &warp[i].status {
                Status::Warp(w) => w.args.first().map_or(u128::MAX, |m| m.bits()),
                _ => unreachable!("members wait at a warp barrier"),
            };
            WarpArrival { thread: warp[i].index, epoch: warp[i].warp_epoch, mask }
        })
        .collect();
    let member_lanes: u128 = members.iter().fold(0, |m, &i| m | 1u128 << lane_of(i).min(127));
    let everyone_named = arrivals.iter().all(|a| a.mask & member_lanes == member_lanes);
    let everyone_here = warp
        .iter()
        .enumerate()
        .all(|(i, t)| members.contains(&i) || matches!(t.status, Status::Exited | Status::Stopped));
    let exited: Vec<(u32, u32)> =
        warp.iter().filter(|t| matches!(t.status, Status::Exited)).map(|t| (t.index, t.warp_epoch)).collect();
    let all: Vec<(u32, u32)> = warp.iter().map(|t| (t.index, t.warp_epoch)).collect();
    let geometry = ctx.geometry;
    ctx.warp_clocks.synchronise(&geometry, &arrivals, &exited, &all, everyone_named && everyone_here);
}

/// Reports that the lane of `warp[reader]` shuffled at `loc` from lane
/// `src`, which did not execute that shuffle: CUDA leaves the value
/// undefined (the interpreter gave the reader its own). A source lane with
/// no thread (the last warp of a block whose size is not a multiple of 32)
/// or stopped by another violation is not reported.
fn report_absent_source(ctx: &mut Ctx, warp: &[Thread], reader: usize, src: u32, loc: Loc) {
    let lanes = ctx.geometry.warp_lanes;
    let Some(source) = warp.iter().find(|t| t.lane % lanes == src) else { return };
    let site = match &source.status {
        Status::Warp(w) | Status::Barrier(w) => Some(w.loc),
        Status::Exited => None,
        // Released at this instance already: a different instance of the
        // same shuffle (another iteration), or still running.
        Status::Runnable => Some(loc),
        Status::Stopped => return,
    };
    let reader_id = warp[reader].id;
    let key = (30, loc_key(Some(loc)), loc_key(site));
    let place = if site.is_some() { "is elsewhere" } else { "has exited" };
    let message = format!(
        "warp divergence: {reader_id} shuffles from lane {src} ({}), which does not execute this shuffle ({place}): CUDA leaves the value undefined",
        source.id
    );
    let arrivals = caller_and_absent(loc, reader_id, site, source.id);
    ctx.report.report(key, ctx.opts.max_violations, || ReplayViolation {
        kind: ViolationKind::BarrierDivergence { scope: BarrierScope::Warp, arrivals },
        loc,
        thread: reader_id,
        message,
    });
}

/// The arrivals of a warp divergence between two lanes: `caller` at the
/// warp operation at `loc`, and `absent` where it is instead (`None`: it
/// has exited).
fn caller_and_absent(loc: Loc, caller: ThreadId, site: Option<Loc>, absent: ThreadId) -> Vec<Arrival> {
    vec![
        Arrival { barrier: Some(loc), occurrence: 0, threads: vec![caller], count: 1 },
        Arrival { barrier: site, occurrence: 0, threads: vec![absent], count: 1 },
    ]
}
