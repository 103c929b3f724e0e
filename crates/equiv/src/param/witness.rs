//! Witness threads: for a thread that reads or writes an element, the
//! candidate threads (permutations of ids, affine inverses) of which the
//! solver must prove one writes that element.

use super::*;

impl Prover<'_> {
    /// Candidate writers for thread `t`: identity first, then permutations
    /// of local ids (within the group), of group ids, and of the global
    /// coordinates `blockIdx * blockDim + tid`.
    pub(super) fn candidates(&mut self, t: Inst, same_group: bool) -> Vec<Inst> {
        let active = |x: TermId, st: &TermStore| st.as_bv(x).is_none();
        let st = &self.inp.st;
        let tid_active: Vec<bool> = (0..3).map(|d| active(self.base_inst.tid[d], st)).collect();
        let bid_active: Vec<bool> = (0..3).map(|d| active(self.base_inst.bid[d], st)).collect();
        // A permutation is useful when it moves active components onto active ones.
        let fits = |p: &[usize; 3], act: &[bool]| (0..3).all(|d| act[d] == act[p[d]]);
        let mut out = Vec::new();
        for pt in PERMS.iter().filter(|p| fits(p, &tid_active)) {
            let bperms: Vec<&[usize; 3]> =
                if same_group { vec![&PERMS[0]] } else { PERMS.iter().filter(|p| fits(p, &bid_active)).collect() };
            for pb in bperms {
                out.push(Inst { tid: pt.map(|d| t.tid[d]), bid: pb.map(|d| t.bid[d]), q: t.q });
            }
        }
        if !same_group {
            let both: Vec<bool> = (0..3).map(|d| tid_active[d] || bid_active[d]).collect();
            for p in PERMS.iter().skip(1).filter(|p| fits(p, &both)) {
                let st = &mut self.inp.st;
                let global: Vec<TermId> = (0..3)
                    .map(|d| {
                        let m = st.bvmul(t.bid[d], self.inp.local_size[d]);
                        st.bvadd(m, t.tid[d])
                    })
                    .collect();
                let mut c = Inst { tid: t.tid, bid: t.bid, q: t.q };
                for d in 0..3 {
                    let x = global[p[d]];
                    c.bid[d] = st.bvudiv(x, self.inp.local_size[d]);
                    c.tid[d] = st.bvurem(x, self.inp.local_size[d]);
                }
                out.push(c);
            }
        }
        out
    }

    /// One more witness candidate, for an address term `to.off` that
    /// depends on one local id dimension only: if it is affine in that
    /// id, `α * tid + β`, the thread with `tid = (addr - β) / α` (and the
    /// other ids of `t`) writes `addr`. This inverts strided indexing
    /// (`2 * s * tid` against `tid`, as in reductions), which no
    /// permutation of ids does. The witness query checks the candidate, so
    /// an address term that is not affine only costs a refuted query.
    pub(super) fn affine_inverse(&mut self, t: Inst, addr: TermId, to: &Ca) -> Option<Inst> {
        let syms = self.inp.st.free_symbols(&[to.off]);
        let depends = |st: &TermStore, x: TermId| match st.kind(x) {
            TermKind::Const(f) => syms.funs.contains(f),
            _ => false,
        };
        let dims: Vec<usize> = (0..3).filter(|&d| depends(&self.inp.st, self.base_inst.tid[d])).collect();
        let [d] = dims[..] else { return None };
        let at_value = |this: &mut Self, v: u128| {
            let mut i = t;
            i.tid[d] = this.inp.st.bv_const(32, v);
            this.at(to.off, i)
        };
        let beta = at_value(self, 0);
        let next = at_value(self, 1);
        let tid = affine_index(&mut self.inp.st, addr, beta, next)?;
        let mut c = t;
        c.tid[d] = tid;
        Some(c)
    }

    /// A thread (from [`Self::candidates`]) that writes, with `to`, the
    /// element that thread `t` writes with `from`, whenever `t` writes.
    pub(super) fn witness(&mut self, t: Inst, from: &Ca, to: &Ca, same_group: bool) -> Res<Option<Inst>> {
        let g = self.at(from.guard, t);
        let a = self.at(from.off, t);
        self.find_writer(t, g, a, to, same_group)
    }

    pub(super) fn find_writer(&mut self, t: Inst, when: TermId, addr: TermId, to: &Ca, same_group: bool) -> Res<Option<Inst>> {
        let (cands, queries) = self.writer_queries(t, when, addr, to, same_group);
        self.pick_writer(&cands, &queries, None)
    }

    /// The candidate writers of `addr` with `to` for thread `t` (when
    /// `when` holds), most likely first, each with the query whose
    /// unsatisfiability shows that it writes `addr` whenever `t` does.
    pub(super) fn writer_queries(&mut self, t: Inst, when: TermId, addr: TermId, to: &Ca, same_group: bool) -> (Vec<Inst>, Vec<Vec<TermId>>) {
        // Candidates whose address is syntactically the one sought first:
        // a refuted candidate costs a satisfiable (slow) nonlinear query.
        let mut cands = self.candidates(t, same_group);
        let mut matches = Vec::new();
        for c in &cands {
            matches.push(self.at(to.off, *c) == addr);
        }
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by_key(|&i| !matches[i]);
        let matching = matches.iter().filter(|&&m| m).count();
        cands = order.into_iter().map(|i| cands[i]).collect();
        // The inverse of an affine address comes right after the
        // syntactic matches: when none matches, the permutations are
        // usually refuted (slow satisfiable queries).
        if let Some(c) = self.affine_inverse(t, addr, to) {
            cands.insert(matching, c);
        }
        let queries: Vec<Vec<TermId>> = cands
            .iter()
            .map(|&c| {
                let mut facts = self.ctx(t);
                facts.push(when);
                facts.push(self.if_valid(c));
                let mut ok = vec![self.valid(c)];
                ok.push(self.at(to.guard, c));
                let w = self.at(to.off, c);
                ok.push(self.inp.st.eq(w, addr));
                let ok = self.inp.st.and(&ok);
                facts.push(self.inp.st.not(ok));
                facts
            })
            .collect();
        (cands, queries)
    }

    /// The first candidate (in order) whose query is unsatisfiable. The
    /// first usually is: it alone first (unless `first` already answers
    /// it), then the others at once.
    pub(super) fn pick_writer(&mut self, cands: &[Inst], queries: &[Vec<TermId>], first: Option<SatResult>) -> Res<Option<Inst>> {
        self.label = "witness";
        let mut answers = Vec::new();
        match (first, queries.first()) {
            (Some(r), _) => answers.push(r),
            (None, Some(q)) => answers.push(self.sat(q)?),
            (None, None) => {}
        }
        if answers.first() != Some(&SatResult::Unsat) && queries.len() > 1 {
            answers.extend(self.sat_many(&queries[1..])?);
        }
        let mut gave_up = None;
        for (c, r) in cands.iter().zip(answers) {
            match r {
                SatResult::Unsat => return Ok(Some(*c)),
                SatResult::Sat => {}
                SatResult::Unknown(why) => gave_up = Some(why),
            }
        }
        match gave_up {
            Some(why) => na(format!("looking for the thread that writes an element: the solver gave up ({why})")),
            None => Ok(None),
        }
    }
}
