//! Loop summaries for the one-thread run: a loop without a barrier whose
//! trip count depends on symbolic values (a row sum over `n` columns, a
//! dot product, a matrix product's k-loop, the same loop unrolled by four
//! with a remainder loop) is not unrolled but *summarised*.
//!
//! When the thread reaches the exit branch of such a loop's header with a
//! condition that is not a literal, the engine runs ONE arbitrary
//! iteration from fresh symbols for the values the header carries (the
//! counter and the accumulators), recording what they become (`update`)
//! and under which condition the iteration runs (`stay`), and then leaves
//! the loop with the carried values replaced by *exit symbols*:
//! uninterpreted functions of the thread's ids, one per carried value.
//! Nothing is assumed about the exit symbols here; `param::summaries`
//! proves, by induction over the iterations, what they equal (the value of
//! a recurrence that both kernels' loops compute) and adds those facts for
//! every thread, or the proof does not apply.
//!
//! The iteration may read input buffers and private memory, but may not
//! write memory, read `__shared__` memory, pass a barrier, state a
//! precondition, leave the loop other than through the header's branch,
//! or contain another loop that needs a summary: any of these makes the
//! run `Unsupported` (never a wrong answer).

use super::*;

/// One summarised loop of the one-thread run (see the module docs).
#[derive(Clone, Debug)]
pub struct LoopSummary {
    /// The loop's header, for reports.
    pub loc: Option<SrcLoc>,
    /// The path condition under which the thread reaches the loop.
    pub pc: TermId,
    /// The header's parameters on entry (after any iterations unrolled
    /// while the condition was a literal).
    pub init: Vec<TermId>,
    /// The symbols the arbitrary iteration starts from, one per parameter.
    pub carried: Vec<TermId>,
    /// The parameters after the iteration, over `carried`.
    pub update: Vec<TermId>,
    /// The condition (over `carried`) under which the iteration runs.
    pub stay: TermId,
    /// The parameters after the loop: uninterpreted functions of the
    /// thread's ids, which the proof relates to the other kernel's.
    pub exit: Vec<TermId>,
    /// Pointer parameters whose buffers the iteration reads: the proof
    /// requires that the kernel writes none of them.
    pub reads: HashSet<usize>,
    /// The byte offsets of those reads, over `carried`: the proof assumes
    /// that their 32-bit index arithmetic does not wrap around.
    pub read_offs: Vec<TermId>,
}

/// The loop being summarised: the iteration's routing.
pub(super) struct SummaryPlan {
    header: BlockId,
    blocks: HashSet<BlockId>,
    pub(super) reads: HashSet<usize>,
    pub(super) read_offs: Vec<TermId>,
}

/// The loops that may be summarised, by header: no barrier, no
/// instruction that may write memory, and left only through the header.
pub(super) fn summarisable_loops(func: &Function) -> HashMap<BlockId, HashSet<BlockId>> {
    lockstep_analysis::loop_shapes::LoopShapes::compute(func).pure_single_exit()
}

impl Executor<'_> {
    /// Summarises loops without a barrier whose trip count is symbolic
    /// (one-thread mode only) instead of giving up on them.
    pub fn with_summaries(mut self) -> Self {
        if self.param {
            self.summarisable = Some(summarisable_loops(self.func));
        }
        self
    }

    /// Is the path's branch the exit branch of a loop to summarise now?
    pub(super) fn summary_due(&self, p: &Path) -> bool {
        self.summary_plan.is_none()
            && self.plan.is_none()
            && !self.post
            && !self.pre
            && self.summarisable.as_ref().is_some_and(|m| m.contains_key(&p.block))
    }

    /// The route of a path inside the iteration being summarised: `None`
    /// when no summary is running.
    pub(super) fn summary_route(&self, from: BlockId, to: BlockId, loc: Option<SrcLoc>) -> Option<Res<Route>> {
        let plan = self.summary_plan.as_ref()?;
        Some(match route_in_loop(plan.header, &plan.blocks, from, to) {
            Some(route) => Ok(route),
            None => unsupported("a loop whose trip count is symbolic is left other than through its header", loc),
        })
    }

    /// Summarises the loop whose header `p` stands at (its instructions
    /// run, its exit branch on a symbolic condition next): records the
    /// summary and returns the path that leaves the loop, positioned at
    /// the exit block with the carried values replaced by exit symbols.
    pub(super) fn summarise(&mut self, t: usize, lid: [u32; 3], p: &Path, loc: Option<SrcLoc>) -> Res<Path> {
        let header = p.block;
        let blocks = self.summarisable.as_ref().and_then(|m| m.get(&header)).cloned().unwrap_or_default();
        let Terminator::Branch { then_dest, else_dest, .. } = self.func.blocks[header].term.clone() else {
            return unsupported("internal: a summarised loop's header does not branch", loc);
        };
        let exit_dest = match (blocks.contains(&then_dest.block), blocks.contains(&else_dest.block)) {
            (true, false) => else_dest,
            (false, true) => then_dest,
            _ => return unsupported("a loop's header branch that neither stays in nor leaves the loop", loc),
        };
        let params = self.func.blocks[header].params.clone();
        let mut init = Vec::new();
        for &v in &params {
            init.push(self.scalar(p, v, loc)?);
        }
        let id = self.summaries.len();
        // The arbitrary iteration, from fresh symbols.
        let mut start = p.clone();
        start.pc = self.inp.st.true_();
        start.idx = 0;
        start.came_from = None;
        let mut carried = Vec::new();
        for (i, &v) in params.iter().enumerate() {
            let sort = self.inp.st.sort_of(init[i]).clone();
            let k = self.inp.st.fresh_const(&format!("{}.sum{id}.k{i}", self.tag), sort);
            let sv = if self.inp.st.sort_of(k).is_bool() { SV::Bool(k) } else { SV::Bv(k) };
            start.env.insert(v, sv);
            carried.push(k);
        }
        self.summary_plan = Some(SummaryPlan { header, blocks, reads: HashSet::new(), read_offs: Vec::new() });
        let ran = self.run_paths(t, lid, vec![start]);
        let plan = self.summary_plan.take().expect("set above");
        let paths = ran?;
        if paths.iter().any(|q| !q.at_header) {
            return unsupported("an iteration of a loop whose trip count is symbolic ends the thread or passes a barrier", loc);
        }
        let (update, stay) = if paths.is_empty() {
            (carried.clone(), self.inp.st.false_())
        } else {
            let merged = self.merge(paths)?;
            let mut update = Vec::new();
            for &v in &params {
                update.push(self.scalar(&merged, v, loc)?);
            }
            (update, merged.pc)
        };
        // Leave the loop: the header's instructions again, on the exit
        // symbols, then the exit edge.
        let mut ids: Vec<TermId> = self.inp.local_id.map(|l| l.to_vec()).unwrap_or_default();
        ids.extend(self.inp.group_id);
        // Inside an iterated loop, the iteration is part of the thread.
        ids.extend(self.iter_ids.iter().copied());
        let mut out = p.clone();
        out.idx = 0;
        out.came_from = None;
        let mut exit = Vec::new();
        for (i, &v) in params.iter().enumerate() {
            let sort = self.inp.st.sort_of(init[i]).clone();
            let it = if self.iter_ids.is_empty() { "" } else { ".it" };
            let x = self.inp.uf(&format!("{}.sum{id}{it}.exit{i}", self.tag), &ids, sort);
            let sv = if self.inp.st.sort_of(x).is_bool() { SV::Bool(x) } else { SV::Bv(x) };
            out.env.insert(v, sv);
            exit.push(x);
        }
        for &inst in &self.func.blocks[header].insts.clone() {
            if self.exec(t, lid, &mut out, inst)? != Flow::Next {
                return unsupported("a loop header that writes memory or waits", loc);
            }
        }
        self.jump(&mut out, &exit_dest, loc)?;
        self.summaries.push(LoopSummary { loc, pc: p.pc, init, carried, update, stay, exit, reads: plan.reads, read_offs: plan.read_offs });
        Ok(out)
    }
}

/// The route of a path step `from -> to` inside one run of a loop's body
/// (header `header`, body `blocks`): back at the header it stops, leaving
/// through the header it is dropped (the iteration does not run), inside
/// it goes on; `None` when it leaves the loop other than through its header.
pub(super) fn route_in_loop(header: BlockId, blocks: &HashSet<BlockId>, from: BlockId, to: BlockId) -> Option<Route> {
    let inside = blocks.contains(&to);
    if to == header {
        Some(Route::Stop)
    } else if from == header && !inside {
        Some(Route::Drop)
    } else if !inside {
        None
    } else {
        Some(Route::Go)
    }
}
