//! Aligned loops with a barrier (PUG_para's loop matching): the induction
//! that lets both kernels share the loop counter and `__shared__` contents
//! of one arbitrary iteration, the races between an iteration's reads and
//! writes, and the counter invariants inferred Houdini-style.

use super::*;

impl Prover<'_> {
    /// The equivalence of the outputs (see the module docs): `Some` with a
    /// model when the solver finds inputs on which an output may differ.
    /// The premises of an aligned loop (see [`sym::LoopRun`]): the two
    /// loops run the same iterations (their carried values start equal,
    /// step by the same function and stop under the same condition), both
    /// kernels enter the loop with the same `__shared__` contents (they
    /// write the same elements with the same values before it), and an
    /// iteration that starts from the same contents ends with the same
    /// contents (it writes the same elements with the same values). By
    /// induction over the iterations, both leave the loop with the same
    /// contents, which the symbols after the loop stand for.
    pub(super) fn check_aligned_loops(
        &mut self,
        a: KernelRef,
        b: KernelRef,
        runs: &[ThreadRun],
        resolved: &[HashMap<TermId, TermId>],
        proved: &mut Vec<String>,
    ) -> Res<Option<(Candidate, [u32; 3])>> {
        let (Some(la), Some(lb)) = (&runs[0].aligned, &runs[1].aligned) else {
            return na("only one of the kernels has its loop aligned");
        };
        // 1. The same iterations.
        if la.init.len() != lb.init.len() {
            return na("the loops with a barrier carry different numbers of values from one iteration to the next");
        }
        let t = self.base_inst;
        let mut differ = Vec::new();
        for i in 0..la.init.len() {
            if self.inp.st.sort_of(la.init[i]) != self.inp.st.sort_of(lb.init[i]) {
                return na("the loops with a barrier carry values of different types");
            }
            let (ia, ib) = (self.resolve(la.init[i], &resolved[0]), self.resolve(lb.init[i], &resolved[1]));
            let same_init = self.inp.st.eq(ia, ib);
            differ.push(self.inp.st.not(same_init));
            let same_step = self.inp.st.eq(la.update[i], lb.update[i]);
            let step_differs = self.inp.st.not(same_step);
            differ.push(self.inp.st.and(&[la.stay, step_differs]));
        }
        let same_stay = self.inp.st.eq(la.stay, lb.stay);
        differ.push(self.inp.st.not(same_stay));
        let mut facts = self.ctx(t);
        facts.push(self.inp.st.or(&differ));
        self.label = "loop alignment";
        match self.sat(&facts)? {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return na("the loops with a barrier do not run the same iterations (their counters start, step or stop differently)")
            }
            SatResult::Unknown(why) => return na(format!("comparing the loops with a barrier: the solver gave up ({why})")),
        }
        // Every thread must run the same iterations (else the barrier in
        // the loop diverges): the loop's condition may not depend on the
        // thread's ids.
        for (k, lr) in [(a, la), (b, lb)] {
            let (t1, t2) = (self.fresh_inst("u1", true), self.fresh_inst("u2", true));
            let mut facts = self.ctx(t1);
            facts.extend(self.ctx(t2));
            let (s1, s2) = (self.at(lr.stay, t1), self.at(lr.stay, t2));
            let same = self.inp.st.eq(s1, s2);
            facts.push(self.inp.st.not(same));
            self.label = "uniform loop";
            if self.sat(&facts)? != SatResult::Unsat {
                return na(format!("whether `{}` runs another iteration of its loop with a barrier may depend on the thread", k.func().name));
            }
        }
        let invariants = self.loop_invariants(la)?;
        let line = |l: &Option<lockstep_kir::SrcLoc>| l.map(|l| format!("line {}", l.line)).unwrap_or_else(|| "?".into());
        proved.push(format!(
            "the loops with a barrier (`{}` {}, `{}` {}) run the same iterations: their counters start equal, step alike and stop under the same condition",
            a.func().name,
            line(&la.loc),
            b.func().name,
            line(&lb.loc)
        ));
        if !invariants.is_empty() {
            proved.push(format!("the loop's counters satisfy {} in every iteration (inferred, and proved inductive)", invariants.join(", ")));
        }
        // Reads in the iteration and after the loop see their interval's
        // start state: no other thread may write what they read.
        self.loop_read_races(&[(a, &runs[0], la), (b, &runs[1], lb)])?;
        proved.push(
            "in the loop and after it, no thread reads a `__shared__` element that another thread writes in the same barrier interval, and every thread runs the same iterations"
                .to_string(),
        );
        // 2. Equal shared memory on entry, 3. an iteration keeps it equal.
        for (before, what) in [(true, "on entry to the loop"), (false, "in an iteration of the loop")] {
            let pick = |k: KernelRef, r: &ThreadRun, lr: &sym::LoopRun| -> HashMap<String, Vec<Assignment>> {
                let mut out: HashMap<String, Vec<Assignment>> = HashMap::new();
                for c in &r.cas {
                    let Target::Shared(g) = c.target else { continue };
                    if (before && c.interval < lr.body_interval) || (!before && c.interval == lr.body_interval) {
                        out.entry(k.module.globals[g].name.clone()).or_default().push(c.clone());
                    }
                }
                out
            };
            let (wa, wb) = (pick(a, &runs[0], la), pick(b, &runs[1], lb));
            let mut names: Vec<&String> = wa.keys().chain(wb.keys()).collect();
            names.sort();
            names.dedup();
            for name in names {
                let (Some(ca), Some(cb)) = (wa.get(name), wb.get(name)) else {
                    return na(format!("only one of the kernels writes `{name}` {what}"));
                };
                let mut merged = Vec::new();
                for (k, cas, res) in [(a, ca, &resolved[0]), (b, cb, &resolved[1])] {
                    if cas.iter().any(|c| c.interval != cas[0].interval) {
                        return na(format!("`{}` writes `{name}` in several barrier intervals {what}", k.func().name));
                    }
                    let refs: Vec<&Assignment> = cas.iter().collect();
                    let Some(m) = self.merge(&refs, res) else {
                        return na(format!("`{}` writes `{name}` through several address terms {what}", k.func().name));
                    };
                    merged.push(m);
                }
                let label = format!("`{name}` {what}");
                if let Some(c) = self.compare_cas(a, b, &label, &merged[0], &merged[1], true)? {
                    return Ok(Some(c));
                }
                proved.push(if before {
                    format!("`{name}` holds the same values in both kernels on entry to the loop: both write the same elements with the same values before it")
                } else {
                    format!("an iteration of the loop that starts from the same `{name}` in both kernels ends with the same `{name}` (so, by induction, the loops leave the same `{name}`)")
                });
            }
        }
        Ok(None)
    }

    /// Proves that no read of `__shared__` memory in the aligned loop's
    /// iteration or after it reads an element that another thread of the
    /// group writes in the same barrier interval (a read-write race, which
    /// would make the read see something other than the interval's start
    /// state, as the encoding has it).
    pub(super) fn loop_read_races(&mut self, kernels: &[(KernelRef, &ThreadRun, &sym::LoopRun)]) -> Res<()> {
        let mut queries = Vec::new();
        let mut about = Vec::new();
        for &(k, run, lr) in kernels {
            for read in &lr.reads {
                let writes: Vec<&Assignment> =
                    run.cas.iter().filter(|c| c.target == Target::Shared(read.global) && c.interval == read.interval).collect();
                for w in writes {
                    // A thread reading the element it then writes, under the
                    // write's own condition (`x[i] += y` in the iteration):
                    // another thread writes that element only if two threads
                    // write one element, which the comparison of the
                    // iteration's writes proves impossible (injectivity).
                    if read.interval == lr.body_interval && read.off == w.off && read.pc == w.guard {
                        continue;
                    }
                    let (t1, t2) = (self.fresh_inst("r", true), self.fresh_inst("w", true));
                    let mut facts = self.ctx(t1);
                    facts.extend(self.ctx(t2));
                    let mut same = Vec::new();
                    for d in 0..3 {
                        same.push(self.inp.st.eq(t1.tid[d], t2.tid[d]));
                    }
                    let same = self.inp.st.and(&same);
                    facts.push(self.inp.st.not(same));
                    facts.push(self.at(read.pc, t1));
                    facts.push(self.at(w.guard, t2));
                    let (ro, wo) = (self.at(read.off, t1), self.at(w.off, t2));
                    facts.push(self.inp.st.eq(ro, wo));
                    queries.push(facts);
                    about.push((k, read));
                }
            }
        }
        self.label = "loop read race";
        let answers = self.sat_many(&queries)?;
        if let Some(((k, read), _)) = about.iter().zip(&answers).find(|(_, r)| **r != SatResult::Unsat) {
            let name = &k.module.globals[read.global].name;
            return Err((
                format!("`{}` may read an element of `{name}` that another thread writes in the same barrier interval (a data race?)", k.func().name),
                k.describe(read.loc),
            ));
        }
        Ok(())
    }

    /// Facts about the values the aligned loop carries that hold in every
    /// iteration, found Houdini-style among candidates (not zero, on one
    /// side of the initial value, a power of two) and kept when inductive:
    /// true on entry, and preserved by an iteration. The iteration is then
    /// checked only from states that satisfy them (an arbitrary counter
    /// value includes unreachable ones such as 0 for `s *= 2`). The
    /// surviving facts join the base facts; returns them in words.
    pub(super) fn loop_invariants(&mut self, lr: &sym::LoopRun) -> Res<Vec<String>> {
        type Build = fn(&mut TermStore, TermId, TermId) -> TermId;
        let not_zero: Build = |st, k, _| {
            let w = st.sort_of(k).bv_width().unwrap_or(32);
            let zero = st.bv_const(w, 0);
            let eq = st.eq(k, zero);
            st.not(eq)
        };
        let at_least_init: Build = |st, k, init| st.bvuge(k, init);
        let at_most_init: Build = |st, k, init| st.bvule(k, init);
        let power_of_two: Build = |st, k, _| {
            let w = st.sort_of(k).bv_width().unwrap_or(32);
            let one = st.bv_const(w, 1);
            let below = st.bvsub(k, one);
            let and = st.bvand(k, below);
            let zero = st.bv_const(w, 0);
            st.eq(and, zero)
        };
        // At most the largest block's thread count: a tree reduction's
        // counter, which then gets a narrow shift amount ([`shifts`]).
        let at_most_block: Build = |st, k, _| {
            let w = st.sort_of(k).bv_width().unwrap_or(32);
            if w <= 10 {
                return st.true_();
            }
            let max = st.bv_const(w, 1024);
            st.bvule(k, max)
        };
        let rules: [(&str, Build); 5] = [
            ("not zero", not_zero),
            ("at least its initial value", at_least_init),
            ("at most its initial value", at_most_init),
            ("a power of two", power_of_two),
            ("at most 1024", at_most_block),
        ];
        // (carried index, rule index)
        let mut alive: Vec<(usize, usize)> = Vec::new();
        for (i, &k) in lr.carried.iter().enumerate() {
            if self.inp.st.sort_of(k).bv_width().is_some() {
                alive.extend((0..rules.len()).map(|r| (i, r)));
            }
        }
        // A candidate false after the first iteration from literal initial
        // values is dropped without a query (`s <= 1` for `s = 1; s *= 2`).
        let literal = |st: &TermStore, t: TermId| st.as_bv(t).is_some() || st.as_bool(t).is_some();
        if lr.init.iter().all(|&v| literal(&self.inp.st, v)) {
            let map: HashMap<TermId, TermId> = lr.carried.iter().copied().zip(lr.init.iter().copied()).collect();
            alive.retain(|&(i, r)| {
                let second = substitute(&mut self.inp.st, lr.update[i], &map, &mut HashMap::new());
                let holds = rules[r].1(&mut self.inp.st, second, lr.init[i]);
                self.inp.st.as_bool(holds) != Some(false)
            });
        }
        let t = self.base_inst;
        self.label = "loop invariant";
        loop {
            let holds = |this: &mut Self, at: &dyn Fn(usize) -> TermId, alive: &[(usize, usize)]| -> Vec<TermId> {
                alive.iter().map(|&(i, r)| rules[r].1(&mut this.inp.st, at(i), lr.init[i])).collect()
            };
            let before = alive.len();
            let now = holds(self, &|i| lr.carried[i], &alive);
            let next = holds(self, &|i| lr.update[i], &alive);
            let first = holds(self, &|i| lr.init[i], &alive);
            // Per candidate: the entry check (unless a literal initial
            // value folds it) and the step check, all at once.
            let mut queries = Vec::new();
            let mut owner = Vec::new();
            let mut folded_false = vec![false; alive.len()];
            for n in 0..alive.len() {
                match self.inp.st.as_bool(first[n]) {
                    Some(true) => {}
                    Some(false) => folded_false[n] = true,
                    None => {
                        let mut entry = self.ctx(t);
                        entry.push(self.inp.st.not(first[n]));
                        queries.push(entry);
                        owner.push(n);
                    }
                }
                let mut step = self.ctx(t);
                step.extend(now.iter().copied());
                step.push(lr.stay);
                step.push(self.inp.st.not(next[n]));
                queries.push(step);
                owner.push(n);
            }
            let answers = self.sat_many(&queries)?;
            let mut fails = folded_false;
            for (n, r) in owner.iter().zip(answers) {
                if r != SatResult::Unsat {
                    fails[*n] = true;
                }
            }
            alive = alive.iter().zip(&fails).filter(|(_, &f)| !f).map(|(&c, _)| c).collect();
            if alive.len() == before {
                break;
            }
        }
        let mut words = Vec::new();
        for &(i, r) in &alive {
            let f = rules[r].1(&mut self.inp.st, lr.carried[i], lr.init[i]);
            self.base.push(f);
            words.push(format!("counter {i} is {}", rules[r].0));
        }
        // A counter proved a non-zero power of two is a shift in every
        // later query, all of which assume these invariants ([`shifts`]).
        for (i, &k) in lr.carried.iter().enumerate() {
            if !(alive.contains(&(i, 0)) && alive.contains(&(i, 3))) {
                continue;
            }
            let width = self.inp.st.sort_of(k).bv_width().unwrap_or(0);
            let small = alive.contains(&(i, 4));
            if let Some(shift) = shifts::power_of_two_counter(&mut self.inp.st, width, small, &format!("loop.log{i}")) {
                self.shifts.insert(k, shift);
                self.shift_memo.clear();
            }
        }
        Ok(words)
    }
}
