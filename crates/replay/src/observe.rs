//! Recording loop-head states for the prover's Daikon filter (see
//! `lockstep_analysis::observe`, whose side table this fills).
//!
//! Only arrivals in the entry function's own frame are recorded (the prover
//! encodes an inlined kernel, which calls nothing), and only for the plan's
//! sample of lanes, so that recording costs nothing for other threads.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use lockstep_analysis::observe::{ObservePlan, Observations, Snapshot};
use lockstep_kir::{BlockId, EntityRef, FuncId, ValueId};

use crate::result::ThreadId;
use crate::value::Val;

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
}

pub(crate) struct Recorder {
    plan: Arc<ObservePlan>,
    func: FuncId,
    by_header: HashMap<BlockId, usize>,
    lanes: HashSet<u32>,
    threads: HashMap<u32, ThreadState>,
    pub out: Observations,
}

fn bits(v: &Val) -> Option<u128> {
    match v {
        Val::Bits(b) => Some(*b),
        Val::Ptr(_) => None,
    }
}

impl Recorder {
    pub fn new(plan: Arc<ObservePlan>, func: FuncId, group_size: [u32; 3], num_groups: [u32; 3]) -> Recorder {
        let by_header = plan.loops.iter().enumerate().map(|(i, l)| (l.header, i)).collect();
        let lanes = plan.lanes.iter().copied().collect();
        let out = Observations { loops: vec![Vec::new(); plan.loops.len()], group_size, num_groups };
        Recorder { plan, func, by_header, lanes, threads: HashMap::new(), out }
    }

    /// Thread `index` (lane `lane` of its group, ids `id`) jumped from block
    /// `from` of `func` to `to`, whose parameters now hold their new values
    /// in `vals` (the frame's values, by value index).
    #[allow(clippy::too_many_arguments)]
    pub fn arrive(&mut self, index: u32, lane: u32, id: ThreadId, func: FuncId, from: BlockId, to: BlockId, params: &[ValueId], vals: &[Val]) {
        if func != self.func || !self.lanes.contains(&lane) {
            return;
        }
        let Some(&l) = self.by_header.get(&to) else { return };
        let n = self.plan.loops.len();
        let st = self.threads.entry(index).or_insert_with(|| ThreadState {
            counts: vec![0; n],
            entry: vec![Vec::new(); n],
            kept: vec![0; n],
            last: vec![None; n],
        });
        let lp = &self.plan.loops[l];
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
        };
        let kept = &mut self.out.loops[l];
        if st.kept[l] < self.plan.per_instance && kept.len() < self.plan.per_loop {
            kept.push(snap);
            st.kept[l] += 1;
            st.last[l] = Some(kept.len() - 1);
        } else if let Some(slot) = st.last[l] {
            kept[slot] = snap;
        }
    }
}
