//! The prover's solver queries: light and heavy background facts, queries
//! run in parallel on several solver processes, timing, and models with
//! small values first (so that the interpreter can confirm them).

use super::*;
use lockstep_smt::SolverConfig;

/// Why a query did not run: the proof was stopped because differential
/// testing, running beside it, had already found a difference
/// ([`EquivConfig::cancel`]); the answer is never shown.
const CANCELLED: &str = "the proof was stopped (testing found a difference)";

impl Prover<'_> {
    /// A background fact that is expensive to bit-blast: a 64-bit product
    /// of non-literals (the launch limits, the no-wrap assumptions for
    /// multiplications) or the block's thread count.
    pub(super) fn heavy(&self, f: TermId) -> bool {
        f == self.block_product || has_nonlinear(&self.inp.st, f)
    }

    /// [`Self::sat`] for independent queries, on several solver processes
    /// at once (as many as the machine has cores, at most four): Houdini's
    /// candidates and the race checks are independent, and most of a
    /// query's time is the solver's.
    pub(super) fn sat_many(&mut self, queries: &[Vec<TermId>]) -> Res<Vec<SatResult>> {
        let queries: Vec<Vec<TermId>> = queries.iter().map(|q| self.prepare(q)).collect();
        let plans: Vec<(Option<Vec<TermId>>, &Vec<TermId>)> = queries.iter().map(|facts| (self.light_facts(facts), facts)).collect();
        let configs: Vec<[SolverConfig; 2]> = plans.iter().map(|_| [self.next_solver_config(), self.next_solver_config()]).collect();
        let st = &self.inp.st;
        let config_run = self.config;
        let run = |facts: &[TermId], config: &SolverConfig| -> Result<SatResult, String> {
            if config_run.cancelled() {
                return Err(CANCELLED.to_string());
            }
            let mut solver = Solver::spawn(config.clone()).map_err(|e| format!("solver error: {e}"))?;
            for &f in facts {
                solver.assert(st, f).map_err(|e| format!("solver error: {e}"))?;
            }
            solver.check_sat().map_err(|e| format!("solver error: {e}"))
        };
        // A solver log (LOCKSTEP_EQUIV_LOG) is one file: one process at a time.
        let workers = if self.solver.config().log_path.is_some() { 1 } else { std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 4) };
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<std::sync::Mutex<Option<Result<SatResult, String>>>> = plans.iter().map(|_| std::sync::Mutex::new(None)).collect();
        let start = std::time::Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..workers.min(plans.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((light, full)) = plans.get(i) else { break };
                    let t0 = std::time::Instant::now();
                    let lr = light.as_deref().map(|l| run(l, &configs[i][0]));
                    let t1 = t0.elapsed();
                    let r = match lr {
                        Some(Ok(SatResult::Unsat)) => Ok(SatResult::Unsat),
                        _ => run(full, &configs[i][1]),
                    };
                    crate::trace(&format!("  query {i}: light {:?} in {t1:?}, total {:?}: {:?}", light.is_some(), t0.elapsed(), r));
                    *results[i].lock().expect("no panics while holding the lock") = Some(r);
                });
            }
        });
        crate::trace(&format!("param queries ({}, {} at once): in {:?}", self.label, plans.len(), start.elapsed()));
        results
            .into_iter()
            .map(|m| match m.into_inner().expect("no panics while holding the lock") {
                Some(Ok(r)) => Ok(r),
                Some(Err(e)) => Err((e, None)),
                None => Err(("a solver query did not run".to_string(), None)),
            })
            .collect()
    }

    /// Is the conjunction of `facts` satisfiable? First without the
    /// [`Self::heavy`] facts ([`Self::light_facts`]): dropping hypotheses
    /// only weakens the query, so an `unsat` answer stands, and most
    /// queries do not need them; they are expensive to bit-blast.
    pub(super) fn sat(&mut self, facts: &[TermId]) -> Res<SatResult> {
        if self.sampled_model(facts) {
            crate::trace(&format!("param query ({}): sat on a sample point", self.label));
            return Ok(SatResult::Sat);
        }
        if let Some(light) = self.light_facts(facts) {
            if let Ok(SatResult::Unsat) = self.sat_timed(&light) {
                return Ok(SatResult::Unsat);
            }
        }
        self.sat_timed(facts)
    }

    /// Does one of a few concrete launches ([`sample_points`]) satisfy
    /// every fact? Then the conjunction is satisfiable, and the solver,
    /// which takes long on the heavy facts to find that out, is spared
    /// (failed alignment and uniformity checks are the common case).
    fn sampled_model(&mut self, facts: &[TermId]) -> bool {
        let points = sample_points(&mut self.inp.st, facts);
        points.iter().any(|p| fold_under(&mut self.inp.st, facts, p) == Some(true))
    }

    /// `facts` without the [`Self::heavy`] ones, for a first attempt;
    /// `None` when none is heavy, or when the goal (the last fact, always
    /// kept) is itself nonlinear (an affine inverse's division, a product
    /// of ids): such a goal usually needs the heavy no-wrap facts, so the
    /// light attempt would only add a query.
    pub(super) fn light_facts(&self, facts: &[TermId]) -> Option<Vec<TermId>> {
        let n = facts.len();
        if facts.last().is_some_and(|&g| has_nonlinear(&self.inp.st, g)) {
            return None;
        }
        let light: Vec<TermId> =
            facts.iter().enumerate().filter(|&(i, &f)| i + 1 == n || !self.heavy(f)).map(|(_, &f)| f).collect();
        (light.len() < n).then_some(light)
    }

    /// As [`Self::sat`], but only the query without the heavy facts: an
    /// `unsat` answer stands; `sat` may not be one of the full query.
    pub(super) fn sat_light(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let n = facts.len();
        let light: Vec<TermId> =
            facts.iter().enumerate().filter(|&(i, &f)| i + 1 == n || !self.heavy(f)).map(|(_, &f)| f).collect();
        self.sat_timed(&light)
    }

    /// Small launches and arguments, for models the interpreter can run.
    /// Is the conjunction of `facts` (the last one the goal) satisfiable?
    /// When it is, the candidate comes from a model with a small launch
    /// and small arguments if there is one, which the interpreter can run
    /// to confirm it, and from any model otherwise. The unrestricted query
    /// goes first: proofs (unsatisfiable queries) are the common case, and
    /// then the small one would be wasted. When the caller already knows
    /// the query is satisfiable (`known_sat`: the solver said so), the
    /// small queries go first and the unrestricted one runs only when
    /// they have no model: the same candidate, one query fewer in the
    /// common case.
    pub(super) fn model_small_first(&mut self, facts: &[TermId], t: Inst, what: String, known_sat: bool) -> Res<(SatResult, Option<(Candidate, [u32; 3])>)> {
        let goal = *facts.last().expect("the goal");
        if known_sat {
            if let Some(c) = self.small_model(facts, t, &what)? {
                return Ok((SatResult::Sat, Some(c)));
            }
            return self.sat_then(facts, |pr| pr.candidate(t, what.clone(), goal));
        }
        let any = self.sat_then(facts, |pr| pr.candidate(t, what.clone(), goal))?;
        if any.0 != SatResult::Sat {
            return Ok(any);
        }
        Ok(match self.small_model(facts, t, &what)? {
            Some(c) => (SatResult::Sat, Some(c)),
            None => any,
        })
    }

    /// A candidate from a model of `facts` with a small launch and small
    /// arguments ([`Self::small_bounds`]), if the solver finds one.
    fn small_model(&mut self, facts: &[TermId], t: Inst, what: &str) -> Res<Option<(Candidate, [u32; 3])>> {
        let goal = *facts.last().expect("the goal");
        // Small launches first; then any block size (a difference that
        // only large blocks show) with few groups, which the interpreter
        // can still run.
        let label = self.label;
        self.label = "small model";
        for max_block in [64, 1024] {
            let mut small = facts.to_vec();
            small.pop();
            small.push(self.small_bounds(max_block));
            small.push(goal);
            if let (SatResult::Sat, Some(c)) = self.sat_then(&small, |pr| pr.candidate(t, what.to_string(), goal))? {
                self.label = label;
                return Ok(Some(c));
            }
        }
        self.label = label;
        Ok(None)
    }

    /// At most `max_block` threads per dimension (and 32 groups, or 4 for
    /// blocks over 64 threads) and small scalar arguments.
    pub(super) fn small_bounds(&mut self, max_block: u128) -> TermId {
        let st = &mut self.inp.st;
        let mut c = Vec::new();
        for d in 0..3 {
            let max = st.bv_const(32, if max_block > 64 { 4 } else { 32 });
            c.push(st.bvule(self.inp.num_groups[d], max));
            let max = st.bv_const(32, max_block);
            c.push(st.bvule(self.inp.local_size[d], max));
        }
        for s in self.inp.scalars.iter().flatten() {
            if let Some(w) = st.sort_of(*s).bv_width() {
                if (16..=64).contains(&w) {
                    let max = st.bv_const(w, 8192);
                    c.push(st.bvule(*s, max));
                }
            }
        }
        st.and(&c)
    }

    /// As [`Self::sat`], each solver attempt under `limit` (a work limit in
    /// proportion, so the answer does not depend on the machine's load):
    /// for a query that only decides whether a fast path applies, whose
    /// `sat` or `unknown` answer costs nothing but the fast path. A query
    /// that fails that way can take seconds (the solver looks for a model
    /// among the 64-bit products).
    pub(super) fn sat_within(&mut self, facts: &[TermId], limit: std::time::Duration) -> Res<SatResult> {
        if self.sampled_model(facts) {
            crate::trace(&format!("param query ({}): sat on a sample point", self.label));
            return Ok(SatResult::Sat);
        }
        let start = std::time::Instant::now();
        let mut attempts = Vec::new();
        if let Some(light) = self.light_facts(facts) {
            attempts.push(light);
        }
        attempts.push(facts.to_vec());
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        let mut r = SatResult::Unknown("not run".into());
        for attempt in attempts {
            if self.config.cancelled() {
                return Err((CANCELLED.to_string(), None));
            }
            self.solver = Solver::spawn(self.next_solver_config()).map_err(err)?;
            for f in self.prepare(&attempt) {
                self.solver.assert(&self.inp.st, f).map_err(err)?;
            }
            r = self.solver.check_sat_within(limit).map_err(err)?;
            if r == SatResult::Unsat {
                break;
            }
        }
        crate::trace(&format!("param query ({}, within {limit:?}): {r:?} in {:?}", self.label, start.elapsed()));
        Ok(r)
    }

    pub(super) fn sat_timed(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let start = std::time::Instant::now();
        let r = self.sat_inner(facts);
        crate::trace(&format!("param query ({}): {:?} in {:?}", self.label, r.as_ref().ok(), start.elapsed()));
        r
    }

    pub(super) fn sat_inner(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        if self.config.cancelled() {
            return Err((CANCELLED.to_string(), None));
        }
        // A fresh process per query, without `push`: once a scope is
        // opened, z3 answers with its incremental core, which skips the
        // bit-vector preprocessing that makes these queries easy
        // (measured: a value comparison that a fresh z3 refutes in 20 ms
        // timed out after 10 s in a scope). Starting z3 costs ~15 ms.
        self.solver = Solver::spawn(self.next_solver_config()).map_err(err)?;
        for f in self.prepare(facts) {
            self.solver.assert(&self.inp.st, f).map_err(err)?;
        }
        self.solver.check_sat().map_err(err)
    }

    /// As [`Self::sat`], and when satisfiable, `model` reads the model
    /// before the query is popped.
    pub(super) fn sat_then<T>(&mut self, facts: &[TermId], model: impl FnOnce(&mut Self) -> Res<T>) -> Res<(SatResult, Option<T>)> {
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        if self.config.cancelled() {
            return Err((CANCELLED.to_string(), None));
        }
        let start = std::time::Instant::now();
        // A fresh process per query, without `push`: once a scope is
        // opened, z3 answers with its incremental core, which skips the
        // bit-vector preprocessing that makes these queries easy
        // (measured: a value comparison that a fresh z3 refutes in 20 ms
        // timed out after 10 s in a scope). Starting z3 costs ~15 ms.
        self.solver = Solver::spawn(self.next_solver_config()).map_err(err)?;
        for f in self.prepare(facts) {
            self.solver.assert(&self.inp.st, f).map_err(err)?;
        }
        let r = match self.solver.check_sat() {
            Ok(r) => r,
            Err(e) => {
                let _ = self.solver.restart();
                return Err(err(e));
            }
        };
        let m = if r == SatResult::Sat { model(self).ok() } else { None };
        crate::trace(&format!("param query ({}, with model): {:?} in {:?}", self.label, r, start.elapsed()));
        Ok((r, m))
    }

    /// The configuration of the next solver process: the proof's, with
    /// a numbered log file when the proof logs (`LOCKSTEP_EQUIV_LOG`), so
    /// that one process's log does not overwrite another's.
    pub(super) fn next_solver_config(&mut self) -> SolverConfig {
        let config = self.solver.config().clone();
        match self.query_log.clone() {
            Some(path) => {
                self.log_seq += 1;
                let mut numbered = path.into_os_string();
                numbered.push(format!(".{}", self.log_seq));
                config.with_log(numbered)
            }
            None => config,
        }
    }

    /// `terms` as the solver gets them: with the loop counters proved
    /// powers of two written as shifts ([`shifts`]); unchanged otherwise.
    pub(super) fn prepare(&mut self, terms: &[TermId]) -> Vec<TermId> {
        if self.shifts.is_empty() {
            return terms.to_vec();
        }
        terms.iter().map(|&t| shifts::shift_counters(&mut self.inp.st, t, &self.shifts, &mut self.shift_memo)).collect()
    }
}
