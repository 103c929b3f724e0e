//! Recording loop-head states for the prover's Daikon filter (see
//! `lockstep_analysis::observe`, whose side table this fills).
//!
//! Only arrivals in the entry function's own frame are recorded (the prover
//! encodes an inlined kernel, which calls nothing), and only for the plan's
//! sample of lanes, so that recording costs nothing for other threads.
//! With a `LogPlan`, the same threads' accesses at the plan's sites are
//! kept too, each stamped with the barrier epochs current when it was
//! made; an arrival takes those whose epochs are still current (no barrier
//! that orders the object's memory came between).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use lockstep_analysis::observe::{LogEntry, LogObject, ObservePlan, Observations, Snapshot};
use lockstep_kir::{BlockId, EntityRef, FuncId, InstId, ValueId};

use crate::result::ThreadId;
use crate::value::{ObjId, Val};

/// One recorded thread's place in each planned loop.
#[derive(Default)]
struct ThreadState {
    /// Per plan loop: the thread's iteration in the current run of it.
    counts: Vec<u32>,
    /// Per plan loop: the header's parameters at the current run's start.
    entry: Vec<Vec<Option<u128>>>,
    /// Per plan loop: arrivals kept from the current run.
    kept: Vec<usize>,
    /// Per plan loop: the slot of the current run that the latest arrival
    /// overwrites once `per_instance` are kept.
    last: Vec<Option<usize>>,
    /// Per logged object: the thread's accesses, each with the epochs
    /// (grid, group) it was made in.
    logs: Vec<Vec<(LogEntry, Epochs)>>,
    /// Per logged object of global memory: the thread's accesses, each with
    /// the grid epoch it was made in (see `Snapshot::logs_across_groups`).
    across: Vec<Vec<(LogEntry, u32)>>,
}

/// The barrier epochs an access was made in: the grid's, and the group's
/// for the object's memory (see `Ctx::group_epoch`).
pub(crate) type Epochs = (u32, u32);

/// What the interpreter knows of a thread's epochs at an arrival: the
/// grid's, and its group's for global and for shared memory.
#[derive(Copy, Clone)]
pub(crate) struct CurrentEpochs {
    pub grid: u32,
    pub global: u32,
    pub shared: u32,
}

pub(crate) struct Recorder {
    plan: Arc<ObservePlan>,
    func: FuncId,
    by_header: HashMap<BlockId, usize>,
    lanes: HashSet<u32>,
    threads: HashMap<u32, ThreadState>,
    /// The logged objects the run has: object id to (log index, offset of
    /// the parameter's pointer into it).
    log_objs: HashMap<ObjId, (usize, i64)>,
    /// Per logged object: whether its memory is per group (shared), once
    /// an access to it was recorded.
    log_per_group: Vec<Option<bool>>,
    pub out: Observations,
}

fn bits(v: &Val) -> Option<u128> {
    match v {
        Val::Bits(b) => Some(*b),
        Val::Ptr(_) => None,
    }
}

impl Recorder {
    /// A recorder for `plan` in a run of `func`, whose module globals have
    /// the instances `global_objs`, whose arguments are `args` and, for
    /// parameters each group gets its own buffer for, `group_args`.
    pub fn new(
        plan: Arc<ObservePlan>,
        func: FuncId,
        group_size: [u32; 3],
        num_groups: [u32; 3],
        global_objs: &[Vec<ObjId>],
        args: &[Val],
        group_args: &BTreeMap<u32, Vec<Val>>,
    ) -> Recorder {
        let by_header = plan.loops.iter().enumerate().map(|(i, l)| (l.header, i)).collect();
        let lanes = plan.lanes.iter().copied().collect();
        let out = Observations { loops: vec![Vec::new(); plan.loops.len()], group_size, num_groups };
        // Each logged object's instances in this run. An object that two
        // logs claim (two parameters given one buffer) is left out: its
        // accesses could be either's.
        let mut claims: HashMap<ObjId, Vec<(usize, i64)>> = HashMap::new();
        for (m, o) in plan.logs.iter().flat_map(|l| l.objects.iter()).enumerate() {
            match *o {
                LogObject::Global(g) => {
                    let instances = global_objs.get(g.index()).map(Vec::as_slice).unwrap_or(&[]);
                    for &id in instances {
                        claims.entry(id).or_default().push((m, 0));
                    }
                }
                LogObject::Param(k) => {
                    let given = std::iter::once(args.get(k as usize)).chain(group_args.values().map(|list| list.get(k as usize)));
                    for v in given {
                        if let Some(Val::Ptr(p)) = v {
                            if let Some(id) = p.obj {
                                claims.entry(id).or_default().push((m, p.offset));
                            }
                        }
                    }
                }
                LogObject::Other => {}
            }
        }
        // (A buffer is named again in each group's own argument list, and
        // groups that do not run share one instance of a `__shared__`
        // variable: the same claim twice is one claim.)
        let log_objs: HashMap<ObjId, (usize, i64)> =
            claims.into_iter().filter(|(_, c)| c.iter().all(|x| *x == c[0])).map(|(id, c)| (id, c[0])).collect();
        let log_per_group = vec![None; plan.logs.as_ref().map_or(0, |l| l.objects.len())];
        Recorder { plan, func, by_header, lanes, threads: HashMap::new(), log_objs, log_per_group, out }
    }

    fn state<'a>(threads: &'a mut HashMap<u32, ThreadState>, plan: &ObservePlan, index: u32) -> &'a mut ThreadState {
        let n = plan.loops.len();
        let nlogs = plan.logs.as_ref().map_or(0, |l| l.objects.len());
        threads.entry(index).or_insert_with(|| ThreadState {
            counts: vec![0; n],
            entry: vec![Vec::new(); n],
            kept: vec![0; n],
            last: vec![None; n],
            logs: vec![Vec::new(); nlogs],
            across: vec![Vec::new(); nlogs],
        })
    }

    /// Thread `index` (lane `lane`), in its kernel frame of `func` whose
    /// values are `vals`, accessed `width` bytes at `offset` of object
    /// `obj` (per group: shared memory) at `inst`: a read, a write, or an
    /// atomic (`kind` 0, 1, 2), in the epochs `now`.
    #[allow(clippy::too_many_arguments)]
    pub fn access(
        &mut self,
        index: u32,
        lane: u32,
        func: FuncId,
        inst: InstId,
        (obj, per_group): (ObjId, bool),
        offset: u64,
        width: u64,
        kind: u8,
        now: CurrentEpochs,
        vals: &[Val],
    ) {
        if func != self.func || !self.lanes.contains(&lane) {
            return;
        }
        let plan = self.plan.clone();
        let Some(logs) = plan.logs.as_ref() else { return };
        // Only as the kind of access the prover logs the site as.
        let Some((site_kind, slots)) = logs.sites.get(&inst) else { return };
        if *site_kind != kind {
            return;
        }
        let Some(&(m, base)) = self.log_objs.get(&obj) else { return };
        self.log_per_group[m] = Some(per_group);
        let mut ghosts = vec![None; logs.ghosts.len()];
        for &slot in slots {
            if let Some(v) = logs.ghosts.get(slot) {
                ghosts[slot] = vals.get(v.index()).and_then(bits);
            }
        }
        let entry = LogEntry { kind, offset: offset.wrapping_sub(base as u64), width, site: inst, ghosts };
        let stamp = (now.grid, if per_group { now.shared } else { now.global });
        let per_log = logs.per_log.max(1);
        let st = Self::state(&mut self.threads, &plan, index);
        if !per_group {
            keep_sample(&mut st.across[m], entry.clone(), now.grid, per_log);
        }
        keep_sample(&mut st.logs[m], entry, stamp, per_log);
    }

    /// Thread `index` (lane `lane` of its group, ids `id`) jumped from block
    /// `from` of `func` to `to`, whose parameters now hold their new values
    /// in `vals` (the frame's values, by value index).
    /// `now`: the thread's barrier epochs.
    #[allow(clippy::too_many_arguments)]
    pub fn arrive(&mut self, index: u32, lane: u32, id: ThreadId, func: FuncId, from: BlockId, to: BlockId, params: &[ValueId], vals: &[Val], epochs: CurrentEpochs) {
        if func != self.func || !self.lanes.contains(&lane) {
            return;
        }
        let Some(&l) = self.by_header.get(&to) else { return };
        let plan = self.plan.clone();
        let st = Self::state(&mut self.threads, &plan, index);
        // The accesses still in the logs: made since the last barrier that
        // orders their object's memory.
        let logs: Vec<Vec<LogEntry>> = st
            .logs
            .iter()
            .enumerate()
            .map(|(m, list)| {
                let Some(per_group) = self.log_per_group[m] else { return Vec::new() };
                let stamp = (epochs.grid, if per_group { epochs.shared } else { epochs.global });
                list.iter().filter(|(_, e)| *e == stamp).map(|(entry, _)| entry.clone()).collect()
            })
            .collect();
        let across: Vec<Vec<LogEntry>> = st
            .across
            .iter()
            .enumerate()
            .map(|(m, list)| match self.log_per_group[m] {
                Some(false) => list.iter().filter(|(_, e)| *e == epochs.grid).map(|(entry, _)| entry.clone()).collect(),
                _ => logs[m].clone(),
            })
            .collect();
        let lp = &plan.loops[l];
        let value = |v: &ValueId| vals.get(v.index()).and_then(bits);
        let now: Vec<Option<u128>> = params.iter().map(value).collect();
        if lp.body.contains(&from) {
            st.counts[l] = st.counts[l].saturating_add(1);
        } else {
            st.counts[l] = 1;
            st.entry[l] = now.clone();
            st.kept[l] = 0;
            st.last[l] = None;
        }
        let position: Vec<u32> = lp.enclosing.iter().map(|&e| st.counts[e]).chain(std::iter::once(st.counts[l])).collect();
        let snap = Snapshot {
            local_id: id.local,
            group_id: id.group,
            position,
            params: now,
            entry: st.entry[l].clone(),
            values: lp.values.iter().map(value).collect(),
            logs,
            logs_across_groups: across,
        };
        let kept = &mut self.out.loops[l];
        if st.kept[l] < plan.per_instance && kept.len() < plan.per_loop {
            kept.push(snap);
            st.kept[l] += 1;
            st.last[l] = Some(kept.len() - 1);
        } else if let Some(slot) = st.last[l] {
            kept[slot] = snap;
        }
    }
}

/// Adds `entry`, made in the epochs `stamp`, to a thread's sample of its
/// accesses to one object: the entries of earlier epochs go (a barrier
/// came between), an entry already there is not added again, and past
/// `per_log` entries the newest replaces the last.
fn keep_sample<E: PartialEq + Copy>(list: &mut Vec<(LogEntry, E)>, entry: LogEntry, stamp: E, per_log: usize) {
    list.retain(|(_, e)| *e == stamp);
    if list.iter().any(|(e, _)| *e == entry) {
        return;
    }
    if list.len() < per_log {
        list.push((entry, stamp));
    } else if let Some(last) = list.last_mut() {
        *last = (entry, stamp);
    }
}
