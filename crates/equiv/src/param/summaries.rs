//! Loops without a barrier whose trip count is symbolic, summarised by the
//! one-thread run ([`sym::LoopSummary`]): the induction that says what
//! their exit symbols equal.
//!
//! Both kernels' loops are related to a *recurrence*: the values a plain
//! loop (counter stepping by one) carries, as uninterpreted functions
//! `R_m(thread, j)` of the counter value `j`, one per accumulator. The
//! first such loop that no existing recurrence explains defines one:
//! `R(k0) = acc0` (its values on entry), and, for an arbitrary `j` at
//! which the loop runs an iteration, `R(j + 1) = T(R(j), j)` with `T` its
//! iteration. The definition is consistent (R is defined by induction on
//! `j - k0`, the instances being asserted only where `j - k0 + 1` does not
//! wrap around), and it is exactly the values of the loop at the counters
//! it reaches. Every summarised loop of either kernel (the plain loop
//! itself, a loop unrolled by `c` and its remainder loop) is then proved
//! to keep `acc = R(k)`:
//!
//! - on entry (from the facts known at that point, an earlier loop's exit
//!   facts included: a remainder loop starts where the unrolled one
//!   stopped);
//! - through an arbitrary iteration that starts from a state satisfying
//!   the counter invariants (inferred Houdini-style) and runs, given the
//!   recurrence's instances at `k, k + 1, ..., k + c - 1`: `T_L(R(k), k) =
//!   R(k + c)`.
//!
//! Then, for every thread that reaches the loop, its exit symbols satisfy
//! `¬stay`, the counter invariants, and `acc = R(k)`: per-thread facts for
//! every later query. Exit values exist because a counter that strictly
//! increases without wrapping around reaches the exit: that the counter's
//! step does not wrap around is a stated assumption (as the comparison
//! that bounds it is signed or unsigned). Reassociated floating-point
//! iterations do not match the recurrence (floats are uninterpreted), so
//! the proof does not apply to them, and testing reports the difference.

use super::*;

use crate::sym::LoopSummary;

/// A recurrence defined by a plain loop (see the module docs).
struct Recurrence {
    /// The defining loop's counter: its symbol and width.
    counter: TermId,
    /// The defining loop's accumulators (its other carried symbols).
    accs: Vec<TermId>,
    /// Its iteration, per accumulator, over `counter` and `accs`.
    step: Vec<TermId>,
    /// Its condition for running an iteration, over `counter`.
    stay: TermId,
    /// Its counter on entry.
    k0: TermId,
    /// `R_m`, one uninterpreted function per accumulator.
    funs: Vec<lockstep_smt::FunId>,
    /// The offsets its iteration reads, over `counter` and `accs`.
    read_offs: Vec<TermId>,
}

/// The shape of one summarised loop: which carried value is the counter,
/// and by how much it steps.
struct Shape {
    counter: usize,
    step: u128,
    accs: Vec<usize>,
    signed: bool,
}

impl Prover<'_> {
    /// Proves what the exit symbols of every summarised loop equal, and
    /// adds those facts (for a thread that reaches the loop) to the
    /// per-thread facts. Returns the assumptions the proof made.
    pub(super) fn check_summaries(&mut self, kernels: &[KernelRef], runs: &[ThreadRun], proved: &mut Vec<String>) -> Res<Vec<String>> {
        let mut recs: Vec<Recurrence> = Vec::new();
        let mut any = false;
        for (k, r) in kernels.iter().zip(runs) {
            for s in &r.summaries {
                any = true;
                let line = s.loc.map(|l| format!("line {}", l.line)).unwrap_or_else(|| "?".into());
                let what = format!("the loop of `{}` at {line}", k.func().name);
                for &p in &s.reads {
                    if r.cas.iter().any(|c| c.target == Target::Param(p)) {
                        return na(format!("{what} reads `{}`, which the kernel writes", k.func().params[p].name));
                    }
                }
                let Some(shape) = self.shape(s) else {
                    return na(format!("{what}: no counter stepping by a constant that alone decides whether the loop goes on"));
                };
                let invs = self.counter_invariants(s, &shape)?;
                // An existing recurrence, or a new one from a plain loop.
                let mut done = None;
                for (i, rec) in recs.iter().enumerate() {
                    if let Some(perm) = self.follows(s, &shape, &invs, rec)? {
                        done = Some((i, perm));
                        break;
                    }
                }
                if done.is_none() && shape.step == 1 {
                    let rec = self.define_recurrence(s, &shape, recs.len());
                    let ident: Vec<usize> = (0..shape.accs.len()).collect();
                    if self.follows_perm(s, &shape, &invs, &rec, &ident)? {
                        done = Some((recs.len(), ident));
                    }
                    recs.push(rec);
                }
                let Some((ri, perm)) = done else {
                    return na(format!(
                        "{what} (a loop whose trip count is symbolic) computes no recurrence the proof can relate to the other loops"
                    ));
                };
                // The exit facts, for a thread that reaches the loop.
                let ck = s.carried[shape.counter];
                let xk = s.exit[shape.counter];
                let map: HashMap<TermId, TermId> = s.carried.iter().copied().zip(s.exit.iter().copied()).collect();
                let mut facts = Vec::new();
                let stay = substitute(&mut self.inp.st, s.stay, &map, &mut HashMap::new());
                facts.push(self.inp.st.not(stay));
                for &inv in &invs {
                    let m: HashMap<TermId, TermId> = [(ck, xk)].into_iter().collect();
                    facts.push(substitute(&mut self.inp.st, inv, &m, &mut HashMap::new()));
                }
                for (i, &a) in shape.accs.iter().enumerate() {
                    let r = self.rec_at(&recs[ri], perm[i], xk);
                    facts.push(self.inp.st.eq(s.exit[a], r));
                }
                // A loop unrolled by `c > 1` stops up to `c - 1` steps
                // before the end, and a remainder written as an `if` (not
                // a loop) takes one more step: the recurrence's instance
                // at the exit counter (true wherever its guard holds, by
                // the recurrence's definition) relates that step to
                // `R(k + 1)`.
                if shape.step > 1 {
                    let (g, eqs) = self.instance(&recs[ri], xk);
                    facts.push(self.inp.st.implies(g, eqs));
                }
                let all = self.inp.st.and(&facts);
                let f = self.inp.st.implies(s.pc, all);
                self.per_thread.push(f);
                proved.push(format!(
                    "{what} (a loop whose trip count is symbolic) computes the recurrence of {}: its values equal the recurrence's at its counter on entry and after an arbitrary iteration{}",
                    if ri == 0 { "the first plain loop".to_string() } else { format!("plain loop {}", ri + 1) },
                    if invs.is_empty() { String::new() } else { format!(" (with {} counter invariant(s), inferred and proved inductive)", invs.len()) }
                ));
            }
        }
        Ok(if any {
            vec![
                "a loop counter of a loop whose trip count is symbolic does not wrap around when it steps (unsigned or signed, as the loop's condition compares it)".to_string(),
                "the 32-bit additions and multiplications that compute the indices of reads in such loops do not wrap around".to_string(),
            ]
        } else {
            Vec::new()
        })
    }

    /// The counter (a carried value that becomes itself plus a non-zero
    /// literal, and on which alone, among the carried values, the loop's
    /// condition depends) and the accumulators.
    fn shape(&mut self, s: &LoopSummary) -> Option<Shape> {
        let st = &self.inp.st;
        let in_stay: HashSet<lockstep_smt::FunId> = st.free_symbols(&[s.stay]).funs.into_iter().collect();
        let fun_of = |t: TermId| match st.kind(t) {
            TermKind::Const(f) => Some(*f),
            _ => None,
        };
        let mentioned: Vec<usize> = (0..s.carried.len()).filter(|&i| fun_of(s.carried[i]).is_some_and(|f| in_stay.contains(&f))).collect();
        let [counter] = mentioned[..] else { return None };
        let step = match st.kind(s.update[counter]) {
            TermKind::App(Op::BvAdd, args) if args.len() == 2 => {
                let (x, c) = if args[0] == s.carried[counter] { (args[0], args[1]) } else { (args[1], args[0]) };
                if x != s.carried[counter] {
                    return None;
                }
                st.as_bv(c).and_then(|v| v.to_u128())?
            }
            _ => return None,
        };
        let w = st.sort_of(s.carried[counter]).bv_width()?;
        if step == 0 || step > 64 || w > 64 {
            return None;
        }
        let accs: Vec<usize> = (0..s.carried.len()).filter(|&i| i != counter).collect();
        // Signed when the condition compares the counter with a signed
        // comparison.
        let mut signed = false;
        let mut stack = vec![s.stay];
        let mut seen = HashSet::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if let TermKind::App(op, args) = st.kind(t) {
                if matches!(op, Op::BvSlt | Op::BvSle | Op::BvSgt | Op::BvSge) {
                    signed = true;
                }
                stack.extend(args.iter().copied());
            }
        }
        Some(Shape { counter, step, accs, signed })
    }

    /// The stated assumption on the counter `k` of a loop of shape `sh`:
    /// `k + step` does not wrap around.
    fn no_wrap_step(&mut self, k: TermId, sh: &Shape) -> TermId {
        let st = &mut self.inp.st;
        let w = st.sort_of(k).bv_width().expect("a bit-vector counter");
        let max = if sh.signed { (1u128 << (w - 1)) - 1 } else { u128::MAX >> (128 - w) };
        let lim = st.bv_const(w, max - sh.step);
        if sh.signed {
            st.bvsle(k, lim)
        } else {
            st.bvule(k, lim)
        }
    }

    /// Counter invariants, Houdini-style: candidates (at least its initial
    /// value, at most each bound the condition compares it with, unsigned
    /// and signed, and its initial value modulo the step) kept while true
    /// on entry and preserved by an iteration. Terms over the counter's
    /// symbol.
    fn counter_invariants(&mut self, s: &LoopSummary, sh: &Shape) -> Res<Vec<TermId>> {
        let k = s.carried[sh.counter];
        let init = s.init[sh.counter];
        let w = self.inp.st.sort_of(k).bv_width().expect("a bit-vector counter");
        let mut bounds = Vec::new();
        let mut stack = vec![s.stay];
        let mut seen = HashSet::new();
        let kf = self.inp.st.free_symbols(&[k]).funs;
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if let TermKind::App(op, args) = self.inp.st.kind(t).clone() {
                if matches!(op, Op::BvUlt | Op::BvUle | Op::BvUgt | Op::BvUge | Op::BvSlt | Op::BvSle | Op::BvSgt | Op::BvSge | Op::Eq) && args.len() == 2 {
                    for &side in &args {
                        let fs = self.inp.st.free_symbols(&[side]).funs;
                        if !fs.iter().any(|f| kf.contains(f)) && self.inp.st.sort_of(side).bv_width() == Some(w) {
                            bounds.push(side);
                        }
                    }
                }
                stack.extend(args);
            }
        }
        let st = &mut self.inp.st;
        // Comparisons of the loop's own signedness.
        let mut cands = vec![if sh.signed { st.bvsge(k, init) } else { st.bvuge(k, init) }];
        for &b in &bounds {
            let below = if sh.signed { st.bvsle(k, b) } else { st.bvule(k, b) };
            cands.push(below);
            // A loop that may not run at all (`k < n` with `n` negative)
            // stays at its initial value or below the bound.
            let at_init = st.eq(k, init);
            cands.push(st.or(&[at_init, below]));
        }
        if sh.step > 1 {
            let d = st.bvsub(k, init);
            let c = st.bv_const(w, sh.step);
            let r = st.bvurem(d, c);
            let zero = st.bv_const(w, 0);
            cands.push(st.eq(r, zero));
        }
        cands.sort();
        cands.dedup();
        let t = self.base_inst;
        let mut ctx = self.ctx(t);
        ctx.push(s.pc);
        // On entry.
        self.label = "summary invariant (entry)";
        let entry: Vec<Vec<TermId>> = cands
            .iter()
            .map(|&c| {
                let m: HashMap<TermId, TermId> = [(k, init)].into_iter().collect();
                let at = substitute(&mut self.inp.st, c, &m, &mut HashMap::new());
                let mut q = ctx.clone();
                q.push(self.inp.st.not(at));
                q
            })
            .collect();
        let answers = self.sat_many_abstracted_only(&entry)?;
        let mut alive: Vec<TermId> = cands.iter().zip(answers).filter(|(_, a)| *a == SatResult::Unsat).map(|(c, _)| *c).collect();
        // Preserved.
        let nw = self.no_wrap_step(k, sh);
        self.label = "summary invariant (step)";
        loop {
            let mut base = ctx.clone();
            base.extend(alive.iter().copied());
            base.push(s.stay);
            base.push(nw);
            let m: HashMap<TermId, TermId> = [(k, s.update[sh.counter])].into_iter().collect();
            let queries: Vec<Vec<TermId>> = alive
                .iter()
                .map(|&c| {
                    let next = substitute(&mut self.inp.st, c, &m, &mut HashMap::new());
                    let mut q = base.clone();
                    q.push(self.inp.st.not(next));
                    q
                })
                .collect();
            let answers = self.sat_many_abstracted_only(&queries)?;
            let before = alive.len();
            alive = alive.iter().zip(answers).filter(|(_, a)| *a == SatResult::Unsat).map(|(c, _)| *c).collect();
            if alive.len() == before {
                crate::trace(&format!("summary invariants: {} of {}", alive.len(), cands.len()));
                return Ok(alive);
            }
        }
    }

    /// A new recurrence from plain loop `s` (step one), with its
    /// definition `R(k0) = acc0` added to the per-thread facts.
    fn define_recurrence(&mut self, s: &LoopSummary, sh: &Shape, n: usize) -> Recurrence {
        let counter = s.carried[sh.counter];
        // The thread's ids, its iteration of an iterated loop (each row of
        // a grid-stride loop has its own recurrence), and the counter.
        let mut sorts: Vec<Sort> = vec![Sort::bv(32); if self.base_inst.q.is_some() { 7 } else { 6 }];
        sorts.push(self.inp.st.sort_of(counter).clone());
        let funs: Vec<lockstep_smt::FunId> = sh
            .accs
            .iter()
            .enumerate()
            .map(|(m, &a)| {
                let ret = self.inp.st.sort_of(s.carried[a]).clone();
                self.inp.st.declare_fun(&format!("rec{n}.{m}"), &sorts, ret)
            })
            .collect();
        let rec = Recurrence {
            counter,
            accs: sh.accs.iter().map(|&a| s.carried[a]).collect(),
            step: sh.accs.iter().map(|&a| s.update[a]).collect(),
            stay: s.stay,
            k0: s.init[sh.counter],
            funs,
            read_offs: s.read_offs.clone(),
        };
        let mut defs = Vec::new();
        for (m, &a) in sh.accs.iter().enumerate() {
            let r = self.rec_at(&rec, m, rec.k0);
            defs.push(self.inp.st.eq(r, s.init[a]));
        }
        let all = self.inp.st.and(&defs);
        self.per_thread.push(all);
        rec
    }

    /// [`Self::sat_many`], first with nonlinear terms abstracted (an
    /// over-approximation whose `unsat` stands: the products of the
    /// launch and of a row's index rarely matter to a loop's induction),
    /// then the queries not proved that way in full. The abstraction is by
    /// fresh constants when the only products are the launch's, and by
    /// uninterpreted functions ([`abstract_nonlinear_uf`]) when others
    /// occur (two kernels' `row * n` for one element); fresh constants
    /// that fail are retried with the functions before the full query.
    pub(super) fn sat_many_abstracted(&mut self, queries: &[Vec<TermId>]) -> Res<Vec<SatResult>> {
        let mut memo = HashMap::new();
        // Products other than the launch's (`row * n`, `a * x[i]`) are
        // what the fresh constants lose: then the uninterpreted functions
        // go first.
        let launch: Vec<TermId> = self.inp.local_size.iter().chain(&self.inp.num_groups).copied().collect();
        let uf_first = queries.iter().any(|q| q.iter().any(|&f| has_product(&self.inp.st, f, &launch)));
        let abstracted: Vec<Vec<TermId>> =
            queries.iter().map(|q| q.iter().map(|&f| if uf_first { abstract_nonlinear_uf(&mut self.inp.st, f, &launch, &mut memo) } else { abstract_nonlinear(&mut self.inp.st, f, &mut memo) }).collect()).collect();
        let mut answers = self.sat_many(&abstracted)?;
        // Then with the products as uninterpreted functions, which keep
        // equal products of equal operands (`row * n` of two kernels'
        // writers of one element, `a * x[i]` computed alike) without
        // bit-blasting them.
        let open: Vec<usize> = (0..answers.len()).filter(|&i| answers[i] != SatResult::Unsat).collect();
        if !uf_first && !open.is_empty() && open.iter().any(|&i| queries[i].iter().any(|&f| has_product(&self.inp.st, f, &[]))) {
            let mut memo = HashMap::new();
            let uf: Vec<Vec<TermId>> =
                open.iter().map(|&i| queries[i].iter().map(|&f| abstract_nonlinear_uf(&mut self.inp.st, f, &launch, &mut memo)).collect()).collect();
            for (i, a) in open.iter().zip(self.sat_many(&uf)?) {
                answers[*i] = a;
            }
        }
        let open: Vec<usize> = (0..answers.len()).filter(|&i| answers[i] != SatResult::Unsat).collect();
        if !open.is_empty() {
            let rest: Vec<Vec<TermId>> = open.iter().map(|&i| queries[i].clone()).collect();
            for (i, a) in open.into_iter().zip(self.sat_many(&rest)?) {
                answers[i] = a;
            }
        }
        Ok(answers)
    }

    /// The abstracted queries of [`Self::sat_many_abstracted`] only: for
    /// Houdini's candidates, where an answer other than `unsat` only drops
    /// a candidate (a weaker invariant, never a wrong one).
    fn sat_many_abstracted_only(&mut self, queries: &[Vec<TermId>]) -> Res<Vec<SatResult>> {
        let mut memo = HashMap::new();
        let abstracted: Vec<Vec<TermId>> =
            queries.iter().map(|q| q.iter().map(|&f| abstract_nonlinear(&mut self.inp.st, f, &mut memo)).collect()).collect();
        self.sat_many(&abstracted)
    }

    /// `R_m(base thread, j)`.
    fn rec_at(&mut self, rec: &Recurrence, m: usize, j: TermId) -> TermId {
        let t = self.base_inst;
        let mut args: Vec<TermId> = t.tid.iter().chain(&t.bid).copied().collect();
        args.extend(t.q);
        args.push(j);
        self.inp.st.apply(rec.funs[m], &args)
    }

    /// The recurrence's instance at `j`: where the defining loop runs an
    /// iteration at counter `j` (and `j - k0 + 1` does not wrap around),
    /// `R(j + 1) = T(R(j), j)`: the guard and the equations.
    fn instance(&mut self, rec: &Recurrence, j: TermId) -> (TermId, TermId) {
        let w = self.inp.st.sort_of(j).bv_width().expect("a bit-vector counter");
        let mut map: HashMap<TermId, TermId> = HashMap::new();
        map.insert(rec.counter, j);
        for m in 0..rec.accs.len() {
            let r = self.rec_at(rec, m, j);
            map.insert(rec.accs[m], r);
        }
        let stay = substitute(&mut self.inp.st, rec.stay, &map, &mut HashMap::new());
        let st = &mut self.inp.st;
        let d = st.bvsub(j, rec.k0);
        let max = st.bv_const(w, u128::MAX >> (128 - w));
        let fresh = st.bvult(d, max);
        let guard = st.and(&[stay, fresh]);
        let next = add_literal(st, j, 1);
        // The reads of that iteration: their index arithmetic does not
        // wrap around (the stated assumption), which puts their offsets in
        // one canonical form.
        let offs: Vec<TermId> = rec.read_offs.iter().map(|&o| substitute(&mut self.inp.st, o, &map, &mut HashMap::new())).collect();
        let reads: HashSet<TermId> = offs.iter().copied().collect();
        let mut exact = Vec::new();
        let mut eqs = Vec::new();
        let mut memo = HashMap::new();
        for m in 0..rec.accs.len() {
            let v = substitute(&mut self.inp.st, rec.step[m], &map, &mut HashMap::new());
            let v = canonical_reads(&mut self.inp.st, v, &reads, &mut memo, &mut exact);
            let r = self.rec_at(rec, m, next);
            eqs.push(self.inp.st.eq(r, v));
        }
        eqs.extend(exact);
        let all = self.inp.st.and(&eqs);
        (guard, all)
    }

    /// Does loop `s` keep its accumulators equal to `rec`'s recurrence,
    /// under some matching of accumulators (of equal sorts)? The matching.
    fn follows(&mut self, s: &LoopSummary, sh: &Shape, invs: &[TermId], rec: &Recurrence) -> Res<Option<Vec<usize>>> {
        let n = sh.accs.len();
        if n != rec.accs.len() || n > 3 || self.inp.st.sort_of(s.carried[sh.counter]) != self.inp.st.sort_of(rec.counter) {
            return Ok(None);
        }
        let mut perms: Vec<Vec<usize>> = vec![(0..n).collect()];
        if n == 2 {
            perms.push(vec![1, 0]);
        } else if n == 3 {
            perms.extend([vec![0, 2, 1], vec![1, 0, 2], vec![1, 2, 0], vec![2, 0, 1], vec![2, 1, 0]]);
        }
        for perm in perms {
            let sorts_match = (0..n).all(|i| self.inp.st.sort_of(s.carried[sh.accs[i]]) == self.inp.st.sort_of(rec.accs[perm[i]]));
            if sorts_match && self.follows_perm(s, sh, invs, rec, &perm)? {
                return Ok(Some(perm));
            }
        }
        Ok(None)
    }

    /// [`Self::follows`] for one matching: on entry, and through an
    /// arbitrary iteration.
    fn follows_perm(&mut self, s: &LoopSummary, sh: &Shape, invs: &[TermId], rec: &Recurrence, perm: &[usize]) -> Res<bool> {
        let t = self.base_inst;
        let mut ctx = self.ctx(t);
        ctx.push(s.pc);
        // On entry.
        let mut differ = Vec::new();
        for (i, &a) in sh.accs.iter().enumerate() {
            let r = self.rec_at(rec, perm[i], s.init[sh.counter]);
            let same = self.inp.st.eq(s.init[a], r);
            differ.push(self.inp.st.not(same));
        }
        let mut entry = ctx.clone();
        entry.push(self.inp.st.or(&differ));
        // Through an iteration.
        let k = s.carried[sh.counter];
        let mut map: HashMap<TermId, TermId> = HashMap::new();
        for (i, &a) in sh.accs.iter().enumerate() {
            let r = self.rec_at(rec, perm[i], k);
            map.insert(s.carried[a], r);
        }
        let mut step = ctx;
        step.extend(invs.iter().copied());
        let stay = substitute(&mut self.inp.st, s.stay, &map, &mut HashMap::new());
        step.push(stay);
        step.push(self.no_wrap_step(k, sh));
        // The instances' guards follow from the premises (a query of its
        // own): the iteration's query then has them as plain equations,
        // which the solver substitutes instead of splitting cases.
        let mut guards = Vec::new();
        for d in 0..sh.step {
            let j = add_literal(&mut self.inp.st, k, d);
            let (g, eqs) = self.instance(rec, j);
            guards.push(g);
            step.push(eqs);
        }
        let mut guarded = step[..step.len() - sh.step as usize].to_vec();
        let all = self.inp.st.and(&guards);
        guarded.push(self.inp.st.not(all));
        let offs: Vec<TermId> = s.read_offs.iter().map(|&o| substitute(&mut self.inp.st, o, &map, &mut HashMap::new())).collect();
        let reads: HashSet<TermId> = offs.iter().copied().collect();
        let mut memo = HashMap::new();
        let mut exact = Vec::new();
        let mut differ = Vec::new();
        for (i, &a) in sh.accs.iter().enumerate() {
            let v = substitute(&mut self.inp.st, s.update[a], &map, &mut HashMap::new());
            let v = canonical_reads(&mut self.inp.st, v, &reads, &mut memo, &mut exact);
            let r = self.rec_at(rec, perm[i], s.update[sh.counter]);
            let same = self.inp.st.eq(v, r);
            differ.push(self.inp.st.not(same));
        }
        step.extend(exact);
        step.push(self.inp.st.or(&differ));
        self.label = "summary recurrence";
        let answers = self.sat_many_abstracted(&[entry, guarded, step])?;
        crate::trace(&format!("summary recurrence: entry {:?}, instances {:?}, iteration {:?}", answers[0], answers[1], answers[2]));
        Ok(answers.iter().all(|a| *a == SatResult::Unsat))
    }
}

/// The byte offsets of the reads in `t` (the `select`s whose index is in
/// `reads`, the loop's own reads) in one linear canonical form, so that a
/// loop's reads and the recurrence's coincide as terms: `zext(r * n + (k +
/// 1)) * 4` and `zext(r * n) * 4 + zext(k + 1) * 4` both become
/// `4·zext(r * n) + 4·zext(k) + 4`. A zero or sign extension is pushed
/// through a 32-bit `+` (or a product by a literal) only with the fact that
/// this is exact (`ext(x + y) = ext(x) + ext(y)`: the operation does not
/// wrap around, unsigned or signed as the extension reads it), which is
/// added to `facts`: the queries that use these terms assume them (the
/// stated assumption on reads in a loop whose trip count is symbolic).
/// Every other step is an identity of modular arithmetic.
pub(super) fn canonical_reads(
    st: &mut TermStore,
    t: TermId,
    reads: &HashSet<TermId>,
    memo: &mut HashMap<TermId, TermId>,
    facts: &mut Vec<TermId>,
) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let out = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let new: Vec<TermId> = args.iter().map(|&a| canonical_reads(st, a, reads, memo, facts)).collect();
            let idx = if matches!(op, Op::Select) && new.len() == 2 && reads.contains(&args[1]) && st.sort_of(new[1]).bv_width() == Some(64) {
                let mut terms: Vec<(TermId, u128)> = Vec::new();
                let mut c = 0u128;
                linear(st, new[1], 1, &mut terms, &mut c, facts);
                Some(rebuild(st, terms, c))
            } else {
                None
            };
            if new[..] == args[..] && idx.is_none() {
                t
            } else if let Some(i) = idx {
                st.select(new[0], i)
            } else {
                st.app(op, &new)
            }
        }
        _ => t,
    };
    memo.insert(t, out);
    out
}

/// Adds `k · t` (64-bit) to the linear form `terms + c`, with the facts
/// its extensions rely on.
fn linear(st: &mut TermStore, t: TermId, k: u128, terms: &mut Vec<(TermId, u128)>, c: &mut u128, facts: &mut Vec<TermId>) {
    let m64 = u64::MAX as u128;
    let lit = |st: &TermStore, t: TermId| st.as_bv(t).and_then(|v| v.to_u128());
    if let Some(v) = lit(st, t) {
        *c = c.wrapping_add(k.wrapping_mul(v)) & m64;
        return;
    }
    let literal_operand = |st: &TermStore, args: &[TermId]| match (lit(st, args[0]), lit(st, args[1])) {
        (_, Some(v)) => Some((args[0], v)),
        (Some(v), None) => Some((args[1], v)),
        _ => None,
    };
    match st.kind(t).clone() {
        TermKind::App(Op::BvAdd, args) if args.len() == 2 => {
            linear(st, args[0], k, terms, c, facts);
            linear(st, args[1], k, terms, c, facts);
        }
        TermKind::App(Op::BvMul, args) if args.len() == 2 && literal_operand(st, &args).is_some() => {
            let (x, v) = literal_operand(st, &args).expect("checked");
            linear(st, x, k.wrapping_mul(v) & m64, terms, c, facts);
        }
        TermKind::App(op @ (Op::ZeroExtend(32) | Op::SignExtend(32)), args) if args.len() == 1 => {
            let signed = matches!(op, Op::SignExtend(_));
            let ext = |st: &mut TermStore, x: TermId| if signed { st.sign_extend(32, x) } else { st.zero_extend(32, x) };
            let inner = args[0];
            if let Some(v) = lit(st, inner) {
                let v = if signed && v >> 31 == 1 { v | (m64 ^ 0xffff_ffff) } else { v };
                *c = c.wrapping_add(k.wrapping_mul(v)) & m64;
                return;
            }
            match st.kind(inner).clone() {
                TermKind::App(Op::BvAdd, xs) if xs.len() == 2 => {
                    let (a, b) = (ext(st, xs[0]), ext(st, xs[1]));
                    let sum = st.bvadd(a, b);
                    facts.push(st.eq(t, sum));
                    linear(st, a, k, terms, c, facts);
                    linear(st, b, k, terms, c, facts);
                }
                TermKind::App(Op::BvMul, xs) if xs.len() == 2 && literal_operand(st, &xs).is_some() => {
                    let (x, v) = literal_operand(st, &xs).expect("checked");
                    let l = st_lit(st, v);
                    let (a, b) = (ext(st, x), ext(st, l));
                    let prod = st.bvmul(a, b);
                    facts.push(st.eq(t, prod));
                    linear(st, prod, k, terms, c, facts);
                }
                _ => add_term(terms, t, k),
            }
        }
        _ => add_term(terms, t, k),
    }
}

/// The 32-bit literal `v`.
fn st_lit(st: &mut TermStore, v: u128) -> TermId {
    st.bv_const(32, v & 0xffff_ffff)
}

fn add_term(terms: &mut Vec<(TermId, u128)>, t: TermId, k: u128) {
    match terms.iter_mut().find(|(x, _)| *x == t) {
        Some(e) => e.1 = e.1.wrapping_add(k) & (u64::MAX as u128),
        None => terms.push((t, k)),
    }
}

/// The term of a linear form, summands in the order of their terms.
fn rebuild(st: &mut TermStore, mut terms: Vec<(TermId, u128)>, c: u128) -> TermId {
    terms.retain(|&(_, k)| k != 0);
    terms.sort();
    let mut acc: Option<TermId> = None;
    for (t, k) in terms {
        let s = if k == 1 {
            t
        } else {
            let kk = st.bv_const(64, k);
            st.bvmul(t, kk)
        };
        acc = Some(match acc {
            None => s,
            Some(a) => st.bvadd(a, s),
        });
    }
    let cc = st.bv_const(64, c);
    match acc {
        None => cc,
        Some(a) if c == 0 => a,
        Some(a) => st.bvadd(a, cc),
    }
}

/// `t + c`, with a literal addend of `t` folded in (`(k + 1) + 1` is
/// `k + 2`), so that the recurrence's arguments at consecutive counters
/// coincide as terms with the loops' own `k + c`.
fn add_literal(st: &mut TermStore, t: TermId, c: u128) -> TermId {
    let w = st.sort_of(t).bv_width().expect("a bit-vector");
    let mask = u128::MAX >> (128 - w);
    if c & mask == 0 {
        return t;
    }
    if let TermKind::App(Op::BvAdd, args) = st.kind(t).clone() {
        if args.len() == 2 {
            if let Some(v) = st.as_bv(args[1]).and_then(|v| v.to_u128()) {
                let sum = v.wrapping_add(c) & mask;
                if sum == 0 {
                    return args[0];
                }
                let k = st.bv_const(w, sum);
                return st.bvadd(args[0], k);
            }
        }
    }
    let k = st.bv_const(w, c & mask);
    st.bvadd(t, k)
}
