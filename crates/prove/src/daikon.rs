//! The Daikon filter: candidate invariants that a concrete run falsifies
//! are dropped before Houdini asks the solver anything (GPUVerify's
//! "dynamic analysis" step, after Ernst et al.'s Daikon).
//!
//! Houdini keeps the largest inductive subset of the candidates, and an
//! inductive set holds in every state the encoded two-thread program can
//! reach at a loop head. A state that a real execution of the kernel goes
//! through, with two distinct threads at the same iteration of the same run
//! of a loop, is such a state (the encoding over-approximates real runs), so
//! a candidate it falsifies is not in that subset: dropping it here changes
//! no verdict and saves the solver rounds that would drop it. It is also
//! sound whatever the run is, since dropping a candidate never makes a proof
//! unsound; a run outside what the encoding models (a race, an overflow the
//! source promises not to happen, broken preconditions) could only cost
//! precision, which is why the engine gives only clean runs.
//!
//! The encoder records, per loop, which SMT constants stand for what a run
//! can observe (`DaikonLoop::binds`: a header parameter now or at the loop's
//! entry, a value defined before the loop, the thread's ids, the launch
//! sizes, whether the thread is in the loop); [`plan`] turns that into the
//! interpreter's `ObservePlan`, and [`falsified`] evaluates each candidate
//! (`lockstep_smt::eval`, three-valued: constants nobody observed, like the
//! race logs, leave a candidate undecided unless the rest decides it) on
//! each recorded thread as either thread of the pair, the other unknown, and
//! on pairs of distinct threads at the same position in the loop nest.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use lockstep_analysis::observe::{LogEntry, LogObject, LogPlan, LoopPlan, ObservePlan, Observations, Snapshot};
use lockstep_kir::{BlockId, ValueDef, ValueId};
use lockstep_smt::{eval, Concrete, TermId, TermKind, TermStore};

use crate::encode::{Enc, LoopState, Problem, Sym};

/// What an SMT constant of a loop's candidates stands for, in one thread.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Bind {
    /// Header parameter `k` at this arrival.
    Param(usize),
    /// Header parameter `k` at the first arrival of this run of the loop.
    Entry(usize),
    /// The thread is in the loop (its predicate at the header).
    InLoop,
    /// The thread reached the loop (its entry predicate).
    Entered,
    /// Value `k` of the loop's `values`.
    Value(usize),
    LocalId(usize),
    GroupId(usize),
    GroupSize(usize),
    NumGroups(usize),
    /// A field of the first thread's race log of tracked object `m` and
    /// access kind `k` (`AccessKind::index`).
    Log { m: usize, k: u8, field: LogField },
}

/// The fields of a race log that a recorded access gives values to.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LogField {
    Has,
    Offset,
    Width,
    Site,
    Ghost(usize),
}

/// One encoded loop: what to observe, and what its candidates' constants
/// stand for.
#[derive(Clone, Debug)]
pub struct DaikonLoop {
    /// The prover's loop index (`LoopNest`).
    pub index: usize,
    pub parent: Option<usize>,
    pub header: BlockId,
    pub body: std::collections::BTreeSet<BlockId>,
    pub values: Vec<ValueId>,
    /// The candidates made at this loop (indices into `Problem::candidates`).
    pub cands: Range<usize>,
    /// Per constant: (thread 0 or 1, what it stands for). A constant that
    /// both threads share (a scalar argument) has a bind for each.
    pub binds: HashMap<TermId, Vec<(usize, Bind)>>,
}

impl Enc<'_> {
    /// Records what the candidates of loop `l` (`cands`) can be evaluated
    /// on: called once the loop's candidates exist, while `vals` still maps
    /// the values defined before the loop to their terms.
    pub(crate) fn record_daikon_loop(&mut self, l: usize, state: &LoopState, entry: &LoopState, pe: [TermId; 2], cands: Range<usize>) {
        let header = self.loops.loops[l].header;
        let body = self.loops.loops[l].blocks.clone();
        let mut binds: HashMap<TermId, Vec<(usize, Bind)>> = HashMap::new();
        let is_const = |st: &TermStore, t: TermId| matches!(st.kind(t), TermKind::Const(_));
        let mut bind = |st: &TermStore, t: TermId, th: usize, b: Bind| {
            if is_const(st, t) {
                let e = binds.entry(t).or_default();
                if !e.contains(&(th, b)) {
                    e.push((th, b));
                }
            }
        };
        let scalar = |s: &Sym| match *s {
            Sym::Bool(x) | Sym::Bv(x) => Some(x),
            Sym::Ptr { .. } => None,
        };
        for th in 0..2 {
            for (k, s) in state.hp[th].iter().enumerate() {
                if let Some(x) = scalar(s) {
                    bind(&self.st, x, th, Bind::Param(k));
                }
            }
            for (k, s) in entry.hp[th].iter().enumerate() {
                if let Some(x) = scalar(s) {
                    bind(&self.st, x, th, Bind::Entry(k));
                }
            }
            bind(&self.st, state.q[th], th, Bind::InLoop);
            // The race logs are the first thread's. A `__syncwarp` in a
            // loop clears them for threads of one warp that meet at the same
            // occurrence of it (`LogState::warp`), which the interpreter's
            // logs (kept since the last group barrier) do not show: in such
            // kernels the candidates about logs are left to the solver.
            if th == 0 && self.logs.warp.is_empty() {
                for (m, logs) in state.logs.objs.iter().enumerate() {
                    for (k, log) in logs.iter().enumerate() {
                        let k = k as u8;
                        bind(&self.st, log.has, 0, Bind::Log { m, k, field: LogField::Has });
                        bind(&self.st, log.off, 0, Bind::Log { m, k, field: LogField::Offset });
                        bind(&self.st, log.width, 0, Bind::Log { m, k, field: LogField::Width });
                        bind(&self.st, log.site, 0, Bind::Log { m, k, field: LogField::Site });
                        for (slot, &g) in log.ghosts.iter().enumerate() {
                            bind(&self.st, g, 0, Bind::Log { m, k, field: LogField::Ghost(slot) });
                        }
                    }
                }
            }
            bind(&self.st, pe[th], th, Bind::Entered);
            for d in 0..3 {
                bind(&self.st, self.lid[th][d], th, Bind::LocalId(d));
                bind(&self.st, self.gid[th][d], th, Bind::GroupId(d));
                bind(&self.st, self.gs[d], th, Bind::GroupSize(d));
                bind(&self.st, self.ng[d], th, Bind::NumGroups(d));
            }
        }
        // Values defined before the loop, on every path to it: their
        // current values at the header are the ones the encoding gave them.
        let mut values: Vec<ValueId> = Vec::new();
        let mut index_of: HashMap<ValueId, usize> = HashMap::new();
        for th in 0..2 {
            let mut entries: Vec<(ValueId, Sym)> = self.vals[th].iter().map(|(&v, &s)| (v, s)).collect();
            entries.sort_by_key(|&(v, _)| v);
            for (v, s) in entries {
                let Some(x) = scalar(&s) else { continue };
                if !is_const(&self.st, x) {
                    continue;
                }
                let before = match self.func.values[v].def {
                    ValueDef::Param(_) => true,
                    ValueDef::Inst(_) | ValueDef::BlockParam(..) => self
                        .def_block(v)
                        .is_some_and(|b| !body.contains(&b) && self.cfg.is_reachable(b) && self.cfg.dominates(b, header)),
                    _ => false,
                };
                if !before {
                    continue;
                }
                let k = *index_of.entry(v).or_insert_with(|| {
                    values.push(v);
                    values.len() - 1
                });
                bind(&self.st, x, th, Bind::Value(k));
            }
        }
        self.daikon.push(DaikonLoop { index: l, parent: self.loops.loops[l].parent, header, body, values, cands, binds });
    }

    /// What a concrete run must record of the race logs for the candidates
    /// about them: the tracked objects as the interpreter finds them, the
    /// logged sites with the ghost slots each sets, and the header
    /// parameter behind each ghost slot.
    pub(crate) fn daikon_log_plan(&self) -> LogPlan {
        let mut objects = vec![LogObject::Other; self.logs.objs.len()];
        for (&g, &oi) in &self.global_obj {
            if let Some(m) = self.objects[oi].tracked {
                objects[m] = LogObject::Global(g);
            }
        }
        for (&k, &oi) in &self.param_obj {
            if let Some(m) = self.objects[oi].tracked {
                objects[m] = LogObject::Param(k);
            }
        }
        let mut ghosts = Vec::new();
        let mut slots: Vec<(usize, ValueId)> = self
            .ghost_slot
            .iter()
            .map(|(&(l, j), &slot)| (slot, self.func.blocks[self.loops.loops[l].header].params[j]))
            .collect();
        slots.sort_by_key(|&(slot, _)| slot);
        for (slot, v) in slots {
            debug_assert_eq!(slot, ghosts.len());
            ghosts.push(v);
        }
        let mut sites = std::collections::BTreeMap::new();
        for s in &self.sites {
            let hp_len = |l: usize| self.func.blocks[self.loops.loops[l].header].params.len();
            let set: Vec<usize> =
                s.loops.iter().flat_map(|&l| (0..hp_len(l)).filter_map(move |j| self.ghost_slot.get(&(l, j)).copied())).collect();
            sites.insert(s.inst, (s.kind.index() as u8, set));
        }
        LogPlan { objects, sites, ghosts, per_log: LOG_ENTRIES }
    }
}

/// Accesses kept per thread and logged object at one loop arrival.
const LOG_ENTRIES: usize = 4;

/// The interpreter's plan for `p`'s loops (the engine, which chooses the
/// launch, chooses the lanes); `None` when there is nothing to observe.
pub fn plan(p: &Problem) -> Option<ObservePlan> {
    if p.daikon.is_empty() {
        return None;
    }
    let slot: HashMap<usize, usize> = p.daikon.iter().enumerate().map(|(i, d)| (d.index, i)).collect();
    let loops = p
        .daikon
        .iter()
        .map(|d| {
            // Every loop around an encoded loop is encoded (the inner one
            // is encoded within the outer one's body).
            let mut enclosing = Vec::new();
            let mut up = d.parent;
            while let Some(s) = up.and_then(|l| slot.get(&l).copied()) {
                enclosing.push(s);
                up = p.daikon[s].parent;
            }
            enclosing.reverse();
            LoopPlan { header: d.header, body: d.body.clone(), enclosing, values: d.values.clone() }
        })
        .collect();
    // The logs are recorded when some candidate may be about them.
    let logs = (!p.daikon_logs.sites.is_empty() && p.daikon_logs.objects.iter().any(|o| *o != LogObject::Other))
        .then(|| p.daikon_logs.clone());
    Some(ObservePlan { loops, lanes: Vec::new(), per_instance: 24, per_loop: 4096, logs })
}

/// The most pairs of threads evaluated at one position, and per loop.
const PAIRS_PER_POSITION: usize = 12;
const PAIRS_PER_LOOP: usize = 2048;

/// The most arrivals per loop, and pairs, on which the candidates about
/// the logs are evaluated with each recorded access in the log.
const LOG_ARRIVALS: usize = 256;
const LOG_PAIRS: usize = 64;

/// Whether candidate `c` of loop `d` mentions a race log's field (through
/// names, as deep as `Env::leaf` follows them).
fn mentions_log(p: &Problem, d: &DaikonLoop, c: usize) -> bool {
    let Some(t) = p.candidates[c].term else { return false };
    let mut stack = vec![(t, 0u32)];
    let mut seen = std::collections::HashSet::new();
    while let Some((x, depth)) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if let Some(binds) = d.binds.get(&x) {
            if binds.iter().any(|(_, b)| matches!(b, Bind::Log { .. })) {
                return true;
            }
            continue;
        }
        match p.st.kind(x) {
            TermKind::App(_, args) => stack.extend(args.iter().map(|&a| (a, depth))),
            TermKind::Const(_) if depth < NAME_DEPTH => {
                if let Some(&def) = p.named.get(&x) {
                    stack.push((def, depth + 1));
                }
            }
            _ => {}
        }
    }
    false
}

/// The candidates (indices into `p.candidates`, among `alive`) that some
/// state of `obs` falsifies. `only_intra_group`: the encoding pairs
/// threads of one group only.
pub fn falsified(p: &Problem, obs: &Observations, alive: &[bool], only_intra_group: bool) -> Vec<usize> {
    let per_group: u64 = obs.group_size.iter().map(|&x| x as u64).product();
    let total = per_group * obs.num_groups.iter().map(|&x| x as u64).product::<u64>();
    // The encoding's two threads are distinct: with no second thread (in
    // the group, when only groups are paired) it has no state at all.
    let partner_exists = if only_intra_group { per_group >= 2 } else { total >= 2 };
    if !partner_exists || obs.loops.len() != p.daikon.len() {
        return Vec::new();
    }
    let mut dropped = vec![false; p.candidates.len()];
    for (d, snaps) in p.daikon.iter().zip(&obs.loops) {
        let cands: Vec<usize> = d.cands.clone().filter(|&c| alive[c]).collect();
        if cands.is_empty() || snaps.is_empty() {
            continue;
        }
        // The candidates that mention the race logs: only they are also
        // evaluated with a recorded access in the log.
        let log_cands: Vec<usize> = cands.iter().copied().filter(|&c| mentions_log(p, d, c)).collect();
        let check = |a: Option<&Snapshot>, b: Option<&Snapshot>, choice: Option<(usize, &LogEntry)>, which: &[usize], dropped: &mut Vec<bool>| {
            let env = Env { p, d, obs, threads: [a, b], choice, named: RefCell::new(HashMap::new()) };
            let mut memo = HashMap::new();
            for &c in which {
                if dropped[c] {
                    continue;
                }
                let t = candidate_term(p, c);
                if let Some(t) = t {
                    if eval(&p.st, t, &mut |x| env.leaf(x, 0), &mut memo) == Some(Concrete::Bool(false)) {
                        dropped[c] = true;
                    }
                }
            }
        };
        // The first thread's log may hold any one of its recorded accesses
        // (its choice of which access to log is free): each is tried, the
        // other logs unknown. A bounded number of arrivals, since every
        // access multiplies the work.
        // With the second thread in another group, the first one's logs of
        // global objects are those a group barrier does not clear
        // (`Snapshot::logs_across_groups`).
        let with_logs = |a: Option<&Snapshot>, b: Option<&Snapshot>, dropped: &mut Vec<bool>| {
            let Some(s) = a else { return };
            if log_cands.iter().all(|&c| dropped[c]) {
                return;
            }
            let across = b.is_some_and(|b| b.group_id != s.group_id) && !s.logs_across_groups.is_empty();
            let logs = if across { &s.logs_across_groups } else { &s.logs };
            for (m, entries) in logs.iter().enumerate() {
                for e in entries {
                    check(a, b, Some((m, e)), &log_cands, dropped);
                }
            }
        };
        // Each recorded arrival as either thread, the other unknown.
        for (n, s) in snaps.iter().enumerate() {
            check(Some(s), None, None, &cands, &mut dropped);
            check(None, Some(s), None, &cands, &mut dropped);
            if n < LOG_ARRIVALS {
                with_logs(Some(s), None, &mut dropped);
            }
        }
        // Pairs of distinct threads at the same iteration of the same run.
        let mut by_position: BTreeMap<&[u32], Vec<&Snapshot>> = BTreeMap::new();
        for s in snaps {
            by_position.entry(&s.position).or_default().push(s);
        }
        // At each position, pairs of one group and pairs of two groups
        // take turns, so that both kinds are evaluated within the limits
        // (the threads are recorded group by group).
        let mut pairs = 0;
        'positions: for group in by_position.values() {
            let mut same = Vec::new();
            let mut across = Vec::new();
            for (i, a) in group.iter().enumerate() {
                for (j, b) in group.iter().enumerate() {
                    if i == j || (a.local_id == b.local_id && a.group_id == b.group_id) {
                        continue;
                    }
                    if a.group_id == b.group_id {
                        if same.len() < PAIRS_PER_POSITION {
                            same.push((*a, *b));
                        }
                    } else if !only_intra_group && across.len() < PAIRS_PER_POSITION {
                        across.push((*a, *b));
                    }
                }
            }
            let (mut same, mut across) = (same.into_iter(), across.into_iter());
            let turns = std::iter::from_fn(|| match (same.next(), across.next()) {
                (None, None) => None,
                (x, y) => Some([x, y]),
            });
            for (here, (a, b)) in turns.flatten().flatten().enumerate() {
                if here >= PAIRS_PER_POSITION {
                    continue 'positions;
                }
                if pairs >= PAIRS_PER_LOOP {
                    break 'positions;
                }
                pairs += 1;
                check(Some(a), Some(b), None, &cands, &mut dropped);
                if pairs <= LOG_PAIRS {
                    with_logs(Some(a), Some(b), &mut dropped);
                }
            }
        }
    }
    (0..p.candidates.len()).filter(|&c| dropped[c]).collect()
}

/// The candidate's invariant over its loop's state, when it has one.
fn candidate_term(p: &Problem, c: usize) -> Option<TermId> {
    p.candidates[c].term
}

/// The values of one pair of threads (either may be unknown) at one loop.
struct Env<'a> {
    p: &'a Problem,
    d: &'a DaikonLoop,
    obs: &'a Observations,
    threads: [Option<&'a Snapshot>; 2],
    /// The access in the first thread's log of tracked object `.0`, when
    /// one is chosen; every other log is unknown.
    choice: Option<(usize, &'a LogEntry)>,
    /// Values of named terms computed so far.
    named: RefCell<HashMap<TermId, Option<Concrete>>>,
}

/// How deep definitions of names are followed.
const NAME_DEPTH: u32 = 6;

impl Env<'_> {
    fn leaf(&self, x: TermId, depth: u32) -> Option<Concrete> {
        let sort = self.p.st.sort_of(x);
        let width = sort.bv_width();
        let make = |bits: u128| match width {
            Some(w) => Some(Concrete::bv(w, bits)),
            None => Some(Concrete::Bool(bits != 0)),
        };
        if let Some(binds) = self.d.binds.get(&x) {
            let mut found: Option<u128> = None;
            for &(th, b) in binds {
                let Some(s) = self.threads[th] else { continue };
                let v = match b {
                    Bind::Param(k) => s.params.get(k).copied().flatten(),
                    Bind::Entry(k) => s.entry.get(k).copied().flatten(),
                    Bind::InLoop | Bind::Entered => Some(1),
                    Bind::Value(k) => s.values.get(k).copied().flatten(),
                    Bind::LocalId(dim) => Some(s.local_id[dim] as u128),
                    Bind::GroupId(dim) => Some(s.group_id[dim] as u128),
                    Bind::GroupSize(dim) => Some(self.obs.group_size[dim] as u128),
                    Bind::NumGroups(dim) => Some(self.obs.num_groups[dim] as u128),
                    Bind::Log { m, k, field } => match self.choice {
                        Some((cm, e)) if cm == m && e.kind == k => match field {
                            LogField::Has => Some(1),
                            LogField::Offset => Some(e.offset as u128),
                            LogField::Width => Some(e.width as u128),
                            LogField::Site => Some(e.site.as_u32() as u128),
                            LogField::Ghost(slot) => e.ghosts.get(slot).copied().flatten(),
                        },
                        _ => None,
                    },
                };
                let v = v?;
                // Two observations of one constant that differ say the
                // run is not one the encoding describes: no value.
                let m = width.map_or(1, |w| if w >= 128 { u128::MAX } else { (1u128 << w) - 1 });
                match found {
                    Some(f) if f & m != v & m => return None,
                    _ => found = Some(v),
                }
            }
            return found.and_then(make);
        }
        if depth >= NAME_DEPTH {
            return None;
        }
        let def = *self.p.named.get(&x)?;
        if let Some(v) = self.named.borrow().get(&x) {
            return *v;
        }
        let mut memo = HashMap::new();
        let v = eval(&self.p.st, def, &mut |y| self.leaf(y, depth + 1), &mut memo);
        self.named.borrow_mut().insert(x, v);
        v
    }
}

/// Observes runs of `p`'s kernel through `observer` (the engine's concrete
/// runs of the encoded function) and returns the live candidates (`alive`)
/// that one of them falsifies, or `None` when no run was observed. Each
/// run is evaluated alone: only states of one execution make pairs.
pub fn filter(module: &lockstep_kir::Module, p: &Problem, observer: crate::Observer, alive: &[bool], only_intra_group: bool) -> Option<Vec<usize>> {
    let plan = plan(p)?;
    // The interpreter runs the function the prover encodes (inlined, its
    // private locals promoted), so that block and value ids are the ones
    // the binds name.
    let mut m = module.clone();
    m.functions[p.kernel] = p.func.clone();
    let runs = observer(&m, p.kernel, &plan);
    if runs.is_empty() {
        return None;
    }
    let mut alive = alive.to_vec();
    let mut dropped = Vec::new();
    for obs in &runs {
        for c in falsified(p, obs, &alive, only_intra_group) {
            alive[c] = false;
            dropped.push(c);
        }
    }
    Some(dropped)
}
