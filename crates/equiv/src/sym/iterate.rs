//! Loops with writes whose trip count is symbolic, for the one-thread run:
//! a grid-stride loop over rows (`for (r = gid; r < m; r += stride)`),
//! each iteration computing one row (with an inner loop, summarised) and
//! writing it.
//!
//! Such a loop cannot be unrolled (its trip count depends on `m` and the
//! launch) nor summarised (it writes). Instead each of its iterations is
//! made a thread of its own, in the spirit of PUG_para: the iteration
//! number `q` (the shared symbol `iter.q`) joins the thread's ids, and
//! the iteration runs ONCE with its counter `init + q * step`, under the
//! condition that the loop's condition holds there. Its writes are the
//! thread's conditional assignments for every `q` at once; the proof
//! (`param`) substitutes a fresh `q` for each instance, as it does for the
//! thread's ids, so that "distinct writers write distinct elements" ranges
//! over (thread, iteration) pairs.
//!
//! This is exact when:
//! - the counter is the only value the header carries, so that an
//!   iteration depends on nothing but its counter (and the thread's ids);
//! - the counter steps by a term `step` that the iteration does not change
//!   (found by running one iteration from a fresh counter first: the
//!   *probe*, whose records are discarded), and the counter values
//!   `init + q * step` are exact (no wrap-around: a reported assumption,
//!   with `step != 0`);
//! - the loop's condition is an upper bound on the counter (`r < m`, `r
//!   <= m`, conjunctions of them), all unsigned or all signed, so that an
//!   iteration `q` runs exactly when the condition holds at `init + q *
//!   step` (the earlier counters, being smaller, satisfy it too);
//! - with a signed bound (`int` counters, `for (int r = gid; r < m; r +=
//!   stride)`), the counters must increase in the signed order: the step
//!   is positive and `init + q * step` is exact as a signed value. Signed
//!   overflow is undefined in C, and on a GPU `r += stride` past INT_MAX
//!   gives a negative row that the loop then writes: a real difference.
//!   So it is not assumed away: the run records the obligation
//!   [`LoopIteration::signed_next`] (whenever the loop stays in at a
//!   counter, the step is positive and the next counter does not
//!   overflow), and the proof
//!   (`param::iterations`) must prove it, or it does not apply. By
//!   induction from `q = 0`, the counters the loop really takes are then
//!   exactly the modelled ones.
//! - an iteration that reads a buffer the kernel writes sees the buffer
//!   as the loop found it plus its own writes: the proof must show that no
//!   other iteration, of this thread or another, writes what it reads
//!   (`param::inplace`); after the loop the thread does not touch the
//!   buffers the loop writes.
//!
//! Anything else is `Unsupported` (never a wrong answer). Only one such
//! loop per kernel is modelled, and none inside another or inside a
//! summarised loop.

use super::*;

use lockstep_smt::{Op, TermKind};

/// The iterated loop of a one-thread run (see the module docs).
#[derive(Clone, Debug)]
pub struct LoopIteration {
    /// The loop's header, for reports.
    pub loc: Option<SrcLoc>,
    /// The iteration symbol `iter.q`.
    pub q: TermId,
    /// The counter of iteration `q`.
    pub counter: TermId,
    /// What the counter steps by.
    pub step: TermId,
    /// The part of `guard` that says the counter of iteration `q` is
    /// exact (no wrap-around).
    pub exact: TermId,
    /// The condition under which iteration `q` runs.
    pub guard: TermId,
    /// For a signed counter: "whenever the loop stays in at a counter
    /// `k`, the step is positive and `k + step` does not overflow", which
    /// the proof must show (see the module docs): then the next counter of
    /// every iteration that runs is exact.
    pub signed_next: Option<TermId>,
}

/// The loop whose iteration is running: its routing.
pub(super) struct IterPlan {
    header: BlockId,
    blocks: HashSet<BlockId>,
}

/// The loops that may be iterated, by header: no barrier, left only
/// through the header, and writing memory (a loop that writes nothing is
/// summarised instead): the `analysis` crate's side table.
pub(super) fn iterable_loops(func: &Function) -> HashMap<BlockId, HashSet<BlockId>> {
    lockstep_analysis::loop_shapes::LoopShapes::compute(func).writing_single_exit()
}

/// What the engine records, saved before the probe iteration and restored
/// after it.
struct Snapshot {
    objs: Vec<Obj>,
    obj_index: HashMap<ObjKey, usize>,
    defs: usize,
    requires: usize,
    misaligned: usize,
    reads: HashSet<usize>,
    records: usize,
    cas: usize,
    shared_reads: usize,
    global_reads: usize,
    summaries: usize,
}

impl Executor<'_> {
    /// Iterates loops with writes whose trip count is symbolic (one-thread
    /// mode only, see the module docs) instead of giving up on them.
    pub fn with_iterations(mut self) -> Self {
        if self.param {
            self.iterable = Some(iterable_loops(self.func));
        }
        self
    }

    /// Is the path's branch the exit branch of a loop to iterate now?
    pub(super) fn iteration_due(&self, p: &Path) -> bool {
        self.iter_plan.is_none()
            && self.iteration.is_none()
            && self.summary_plan.is_none()
            && self.plan.is_none()
            && !self.post
            && !self.pre
            && self.iterable.as_ref().is_some_and(|m| m.contains_key(&p.block))
    }

    /// The route of a path inside the iteration: `None` when none runs.
    pub(super) fn iteration_route(&self, from: BlockId, to: BlockId, loc: Option<SrcLoc>) -> Option<Res<Route>> {
        let plan = self.iter_plan.as_ref()?;
        Some(match super::summary::route_in_loop(plan.header, &plan.blocks, from, to) {
            Some(route) => Ok(route),
            None => unsupported("a loop with writes whose trip count is symbolic is left other than through its header", loc),
        })
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            objs: self.objs.clone(),
            obj_index: self.obj_index.clone(),
            defs: self.defs.len(),
            requires: self.requires.len(),
            misaligned: self.misaligned.len(),
            reads: self.reads.clone(),
            records: self.records.len(),
            cas: self.cas.len(),
            shared_reads: self.shared_reads.len(),
            global_reads: self.global_reads.len(),
            summaries: self.summaries.len(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.objs = s.objs;
        self.obj_index = s.obj_index;
        self.defs.truncate(s.defs);
        self.requires.truncate(s.requires);
        self.misaligned.truncate(s.misaligned);
        self.reads = s.reads;
        self.records.truncate(s.records);
        self.cas.truncate(s.cas);
        self.shared_reads.truncate(s.shared_reads);
        self.global_reads.truncate(s.global_reads);
        self.summaries.truncate(s.summaries);
    }

    /// Runs the header's instructions and then the loop from `start`
    /// (positioned at the header) until every path is back at the header:
    /// the merged path, or `None` when no iteration runs.
    fn run_iteration(&mut self, t: usize, lid: [u32; 3], header: BlockId, blocks: &HashSet<BlockId>, start: Path, loc: Option<SrcLoc>) -> Res<Option<Path>> {
        self.iter_plan = Some(IterPlan { header, blocks: blocks.clone() });
        let ran = self.run_paths(t, lid, vec![start]);
        self.iter_plan = None;
        let paths = ran?;
        if paths.iter().any(|q| !q.at_header) {
            return unsupported("an iteration of a loop with writes whose trip count is symbolic ends the thread or passes a barrier", loc);
        }
        if paths.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.merge(paths)?))
    }

    /// Iterates the loop whose header `p` stands at (its exit branch on a
    /// symbolic condition next): records its one iteration `q` and returns
    /// the path that leaves the loop.
    pub(super) fn iterate(&mut self, t: usize, lid: [u32; 3], p: &Path, loc: Option<SrcLoc>) -> Res<Path> {
        let header = p.block;
        let blocks = self.iterable.as_ref().and_then(|m| m.get(&header)).cloned().unwrap_or_default();
        let Terminator::Branch { cond, then_dest, else_dest } = self.func.blocks[header].term.clone() else {
            return unsupported("internal: an iterated loop's header does not branch", loc);
        };
        let (stays_then, exit_dest) = match (blocks.contains(&then_dest.block), blocks.contains(&else_dest.block)) {
            (true, false) => (true, else_dest),
            (false, true) => (false, then_dest),
            _ => return unsupported("a loop's header branch that neither stays in nor leaves the loop", loc),
        };
        let params = self.func.blocks[header].params.clone();
        let [counter_v] = params[..] else {
            return unsupported("a loop with writes whose trip count is symbolic carries values other than its counter", loc);
        };
        let init = self.scalar(p, counter_v, loc)?;
        let Some(w) = self.inp.st.sort_of(init).bv_width() else {
            return unsupported("a loop counter that is not an integer", loc);
        };
        if w != 32 {
            return unsupported("a loop with writes whose counter is not 32 bits wide", loc);
        }
        // A path at the header's first instruction with the counter set.
        let start_at = |counter: TermId, pc: TermId| {
            let mut s = p.clone();
            s.pc = pc;
            s.idx = 0;
            s.came_from = None;
            s.at_header = false;
            s.env.insert(counter_v, SV::Bv(counter));
            s
        };

        // The probe: one iteration from a fresh counter, for its step and
        // its condition; what it records is discarded.
        let k = self.inp.st.fresh_const(&format!("{}.iter.k", self.tag), Sort::bv(32));
        let saved = self.snapshot();
        let tru = self.inp.st.true_();
        let probe = start_at(k, tru);
        self.iter_ids = vec![k];
        let mut cond_at_k = None;
        {
            // The header's condition at `k`, from a copy of the path.
            let mut h = probe.clone();
            let header_insts = self.func.blocks[header].insts.clone();
            for &inst in &header_insts {
                if self.exec(t, lid, &mut h, inst)? != Flow::Next {
                    self.iter_ids.clear();
                    self.restore(saved);
                    return unsupported("a loop header that writes memory or waits", loc);
                }
            }
            if let Ok(c) = self.boolean(&h, cond, loc) {
                cond_at_k = Some(c);
            }
        }
        let probed = self.run_iteration(t, lid, header, &blocks, probe, loc);
        self.iter_ids.clear();
        self.restore(saved);
        let Some(merged) = probed? else {
            return unsupported("a loop with writes whose iteration never runs", loc);
        };
        let Some(cond_k) = cond_at_k else {
            return unsupported("a loop condition that is not a boolean", loc);
        };
        let stay_k = if stays_then { cond_k } else { self.inp.st.not(cond_k) };
        let signed = match (upper_bound_only(&self.inp.st, stay_k, k, false), upper_bound_only(&self.inp.st, stay_k, k, true)) {
            (true, _) => false,
            (false, true) => true,
            (false, false) => return unsupported("a loop with writes whose condition is not an upper bound on its counter (all unsigned or all signed)", loc),
        };
        let next = self.scalar(&merged, counter_v, loc)?;
        let Some(step) = step_of(&self.inp.st, next, k) else {
            return unsupported("a loop with writes whose counter does not step by an amount the iteration leaves alone", loc);
        };

        // The iteration `q`: counter `init + q * step`, exact, under the
        // loop's condition there.
        let q = self.inp.st.declare_const("iter.q", Sort::bv(32));
        let st = &mut self.inp.st;
        let qs = st.bvmul(q, step);
        let counter = st.bvadd(init, qs);
        let (i64_, q64, s64) = (st.zero_extend(32, init), st.zero_extend(32, q), st.zero_extend(32, step));
        let prod = st.bvmul(q64, s64);
        let sum = st.bvadd(i64_, prod);
        let max = st.bv_const(64, 0xffff_ffff);
        let exact = st.bvule(sum, max);
        // `q * step` alone fits too (the 64-bit product of two 32-bit
        // values cannot wrap, so `exact` already implies it; stated for
        // the solver's benefit when products are abstracted).
        let max32 = st.bv_const(64, 0xffff_ffff);
        let exact_prod = st.bvule(prod, max32);
        let zero = st.bv_const(32, 0);
        let nonzero = st.eq(step, zero);
        let nonzero = st.not(nonzero);
        let m: HashMap<TermId, TermId> = [(k, counter)].into_iter().collect();
        let stay_q = crate::param::substitute(&mut self.inp.st, stay_k, &m, &mut HashMap::new());
        let (guard, signed_next, exact_part) = if signed {
            // Counters increasing in the signed order: a positive step and
            // `init + q * step` exact as a signed value (in 64 bits, where
            // nothing wraps: |init| < 2^31, q < 2^32, step < 2^31).
            let st = &mut self.inp.st;
            let zero = st.bv_const(32, 0);
            let positive = st.bvsgt(step, zero);
            let in_range = |st: &mut TermStore, n: TermId| {
                let (is64, ss64) = (st.sign_extend(32, init), st.sign_extend(32, step));
                let prod = st.bvmul(n, ss64);
                let sum = st.bvadd(is64, prod);
                let (lo, hi) = (st.bv_const(64, (1u128 << 64) - (1u128 << 31)), st.bv_const(64, 0x7fff_ffff));
                let above = st.bvsge(sum, lo);
                let below = st.bvsle(sum, hi);
                st.and(&[above, below])
            };
            let exact_q = in_range(st, q64);
            let guard = st.and(&[p.pc, positive, exact_q, stay_q]);
            // The obligation, for an ARBITRARY counter `k` at which the
            // loop stays (stronger than for the counters it reaches, and
            // free of the product `q * step`, which the solver finds
            // hard): the step is positive and `k + step` does not
            // overflow.
            let (k64, ss64) = (st.sign_extend(32, k), st.sign_extend(32, step));
            let next = st.bvadd(k64, ss64);
            let hi = st.bv_const(64, 0x7fff_ffff);
            let fits = st.bvsle(next, hi);
            let ok = st.and(&[positive, fits]);
            let runs = st.and(&[p.pc, stay_k]);
            (guard, Some(st.implies(runs, ok)), exact_q)
        } else {
            let exact_part = self.inp.st.and(&[exact_prod, exact]);
            (self.inp.st.and(&[p.pc, nonzero, exact_prod, exact, stay_q]), None, exact_part)
        };
        let start = start_at(counter, guard);
        self.iter_ids = vec![q];
        let before = self.cas.len();
        let ran = self.run_iteration(t, lid, header, &blocks, start, loc);
        self.iter_ids.clear();
        ran?;
        let written: HashSet<usize> = self.cas[before..].iter().filter_map(|c| if let Target::Param(p) = c.target { Some(p) } else { None }).collect();
        if self.cas[before..].iter().any(|c| matches!(c.target, Target::Shared(_))) {
            return unsupported("a loop with writes whose trip count is symbolic writes __shared__ memory", loc);
        }
        self.iter_written = written;
        self.iteration = Some(LoopIteration { loc, q, counter, step, exact: exact_part, guard, signed_next });

        // Leave the loop: the counter becomes an unconstrained exit value.
        let mut ids: Vec<TermId> = self.inp.local_id.map(|l| l.to_vec()).unwrap_or_default();
        ids.extend(self.inp.group_id);
        let x = self.inp.uf(&format!("{}.iter.exit", self.tag), &ids, Sort::bv(32));
        let mut out = p.clone();
        out.idx = 0;
        out.came_from = None;
        out.env.insert(counter_v, SV::Bv(x));
        for &inst in &self.func.blocks[header].insts.clone() {
            if self.exec(t, lid, &mut out, inst)? != Flow::Next {
                return unsupported("a loop header that writes memory or waits", loc);
            }
        }
        self.jump(&mut out, &exit_dest, loc)?;
        Ok(out)
    }
}

/// `next - k` when `next` is `k + s` (either order) with `s` free of `k`.
fn step_of(st: &TermStore, next: TermId, k: TermId) -> Option<TermId> {
    let TermKind::App(Op::BvAdd, args) = st.kind(next) else { return None };
    if args.len() != 2 {
        return None;
    }
    let s = if args[0] == k {
        args[1]
    } else if args[1] == k {
        args[0]
    } else {
        return None;
    };
    let kf = st.free_symbols(&[k]).funs;
    if st.free_symbols(&[s]).funs.iter().any(|f| kf.contains(f)) {
        return None;
    }
    Some(s)
}

/// Is `c` a conjunction of upper bounds on `k`, each against a term free
/// of `k`: unsigned ones (on `k` or its zero extension) when `signed` is
/// false, signed ones (on `k` or its sign extension) when it is true? Such
/// a condition, true at a counter value, is true at every smaller one in
/// the same order.
fn upper_bound_only(st: &TermStore, c: TermId, k: TermId, signed: bool) -> bool {
    let kf = st.free_symbols(&[k]).funs;
    let free = |t: TermId| !st.free_symbols(&[t]).funs.iter().any(|f| kf.contains(f));
    let is_k = |t: TermId| {
        t == k
            || match st.kind(t) {
                TermKind::App(Op::ZeroExtend(_), a) => !signed && a.len() == 1 && a[0] == k,
                TermKind::App(Op::SignExtend(_), a) => signed && a.len() == 1 && a[0] == k,
                _ => false,
            }
    };
    let (lt, gt) = if signed { ([Op::BvSlt, Op::BvSle], [Op::BvSgt, Op::BvSge]) } else { ([Op::BvUlt, Op::BvUle], [Op::BvUgt, Op::BvUge]) };
    match st.kind(c) {
        TermKind::App(Op::And, args) => args.iter().all(|&a| upper_bound_only(st, a, k, signed)),
        TermKind::App(op, a) if a.len() == 2 && lt.contains(op) => is_k(a[0]) && free(a[1]),
        TermKind::App(op, a) if a.len() == 2 && gt.contains(op) => is_k(a[1]) && free(a[0]),
        TermKind::App(Op::Not, a) if a.len() == 1 => match st.kind(a[0]) {
            TermKind::App(op, b) if b.len() == 2 && lt.contains(op) => is_k(b[1]) && free(b[0]),
            TermKind::App(op, b) if b.len() == 2 && gt.contains(op) => is_k(b[0]) && free(b[1]),
            _ => false,
        },
        _ => free(c),
    }
}
