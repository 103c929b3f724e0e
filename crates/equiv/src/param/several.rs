//! Outputs written through several address terms per thread: a loop
//! unrolled by a constant (`out[4 * t + j]` for `j < 4`), a vectorized
//! `float4` store (four 4-byte stores at `16 * t + 4 * j`), a thread that
//! handles a few rows.
//!
//! Each kernel's writes to the buffer are grouped by address term (one
//! [`Ca`] per term). The terms of the two kernels are paired one to one:
//! term `j` of A with the term of B that has the same value for the same
//! thread wherever either writes (a solver query, so `zext(4t + 1) * 4`
//! pairs with `zext(t) * 16 + 4` under the no-wrap assumption). Each pair
//! is compared as a single-term output ([`Prover::compare_cas`]: unique
//! writers, witness writers both ways, equal values), and for each kernel
//! writes through two different terms never hit one element, whichever
//! threads make them. Together: every element has one writer (thread and
//! term) in each kernel, the two kernels write the same elements, and the
//! writers write the same values.
//!
//! A `__shared__` variable written through several address terms (a
//! stencil's tile and its halo) is read the same way
//! ([`Prover::read_of_several`]): each term's writes are distinct, writes
//! through different terms never meet, and for the reading thread one
//! candidate writer per term, one of which must write the element read.

use std::collections::HashMap;

use lockstep_smt::{SatResult, TermId};

use super::{na, Ca, Inst, Prover, Res};
use crate::sym::{Assignment, SharedRead, Target, ThreadRun};
use crate::{Candidate, KernelRef};

impl Prover<'_> {
    /// Compares buffer `p`, written through several address terms by at
    /// least one of the kernels. `Ok(Some(..))` is a model in which a value
    /// differs.
    pub(super) fn compare_several(
        &mut self,
        a: KernelRef,
        b: KernelRef,
        runs: &[ThreadRun],
        resolved: &[HashMap<TermId, TermId>],
        p: usize,
    ) -> Res<Option<(Candidate, [u32; 3])>> {
        let name = a.func().params[p].name.clone();
        let cas_a = self.output_terms(a, &runs[0], &resolved[0], p)?;
        let cas_b = self.output_terms(b, &runs[1], &resolved[1], p)?;
        for (k, cas) in [(a, &cas_a), (b, &cas_b)] {
            self.distinct_terms(k, &name, cas, false)?;
        }
        // Terms that do not pair one to one (a `float4` store and a scalar
        // tail against one element per thread) are compared element by
        // element, each element's writer found among candidate threads
        // and terms ([`cover`](super::cover)).
        if cas_a.len() != cas_b.len() {
            self.compare_cover(a, b, &name, &cas_a, &cas_b)?;
            return Ok(None);
        }
        let mut left: Vec<Ca> = cas_b.clone();
        for ca in &cas_a {
            let Some(j) = self.pair_term(ca, &left)? else {
                self.compare_cover(a, b, &name, &cas_a, &cas_b)?;
                return Ok(None);
            };
            let cb = left.remove(j);
            if self.same_thread_agrees(ca, &cb)? {
                continue;
            }
            if let Some(c) = self.compare_cas(a, b, &name, ca, &cb, false)? {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// Kernel `k`'s writes to buffer `p`, one per address term (all in one
    /// barrier interval), resolved.
    fn output_terms(&mut self, k: KernelRef, run: &ThreadRun, resolved: &HashMap<TermId, TermId>, p: usize) -> Res<Vec<Ca>> {
        let name = &k.func().params[p].name;
        let cas: Vec<&Assignment> = run.cas.iter().filter(|c| c.target == Target::Param(p)).collect();
        let Some(first) = cas.first() else {
            return na(format!("only one of the kernels writes `{name}`"));
        };
        if cas.iter().any(|c| c.interval != first.interval) {
            return na(format!("`{}` writes `{name}` in several barrier intervals", k.func().name));
        }
        let mut offs: Vec<TermId> = Vec::new();
        for c in &cas {
            if !offs.contains(&c.off) {
                offs.push(c.off);
            }
        }
        let mut out = Vec::new();
        for off in offs {
            let group: Vec<&Assignment> = cas.iter().copied().filter(|c| c.off == off).collect();
            let Some(ca) = self.merge(&group, resolved) else {
                return na(format!("`{}` writes `{name}` through several address terms", k.func().name));
            };
            self.in_encoding(k, name, &ca)?;
            out.push(ca);
        }
        Ok(out)
    }

    /// No two writes of `k` through different address terms hit one
    /// element, whichever threads (the same or two, of one group when
    /// `same_group`) make them.
    fn distinct_terms(&mut self, k: KernelRef, name: &str, cas: &[Ca], same_group: bool) -> Res<()> {
        let mut queries = Vec::new();
        let mut bits = HashMap::new();
        for i in 0..cas.len() {
            for j in i + 1..cas.len() {
                // Terms whose low bits differ (the lanes of a vector
                // store) never meet: no query.
                if super::terms::never_equal(&self.inp.st, cas[i].off, cas[j].off, &mut bits) {
                    continue;
                }
                let t1 = self.fresh_inst("d1", same_group);
                let t2 = self.fresh_inst("d2", same_group);
                let mut facts = self.ctx(t1);
                facts.extend(self.ctx(t2));
                let (g1, g2) = (self.at(cas[i].guard, t1), self.at(cas[j].guard, t2));
                facts.extend([g1, g2]);
                // Row-major addresses of one width (`row * n + col` and
                // `row * n + col + 1`) meet exactly when their rows and
                // columns do: linear equations, where the addresses'
                // products would make the solver bit-blast them.
                let (di, dj) = (self.digits(cas[i].off, cas[i].guard)?, self.digits(cas[j].off, cas[j].guard)?);
                match (di, dj) {
                    (Some(x), Some(y)) if x.chain == y.chain && x.width == y.width => {
                        let (r1, r2) = (self.at(x.row, t1), self.at(y.row, t2));
                        let (c1, c2) = (self.at(x.col, t1), self.at(y.col, t2));
                        facts.push(self.inp.st.eq(r1, r2));
                        facts.push(self.inp.st.eq(c1, c2));
                    }
                    _ => {
                        let (o1, o2) = (self.at(cas[i].off, t1), self.at(cas[j].off, t2));
                        facts.push(self.inp.st.eq(o1, o2));
                    }
                }
                queries.push(facts);
            }
        }
        self.label = "distinct address terms";
        // The abstracted queries at once (independent; most are refuted
        // there), then the rest in full, one by one.
        let mut memo = HashMap::new();
        let abstracted: Vec<Vec<TermId>> =
            queries.iter().map(|q| q.iter().map(|&f| super::abstract_nonlinear(&mut self.inp.st, f, &mut memo)).collect()).collect();
        let mut answers = self.sat_many(&abstracted)?;
        for (i, q) in queries.iter().enumerate() {
            if answers[i] != SatResult::Unsat {
                answers[i] = self.sat(q)?;
            }
        }
        for r in answers {
            match r {
                SatResult::Unsat => {}
                SatResult::Sat => {
                    return na(format!(
                        "the solver cannot prove that the writes of `{}` to `{name}` through different address terms go to distinct elements",
                        k.func().name
                    ))
                }
                SatResult::Unknown(why) => return na(format!("proving that writes to `{name}` go to distinct elements: the solver gave up ({why})")),
            }
        }
        Ok(())
    }

    /// The fast case of a pair of terms equal for the same thread: each
    /// kernel's term writes distinct elements from distinct threads, and
    /// every thread writes under the same condition the same value in
    /// both. The same thread is then the witness writer both ways.
    fn same_thread_agrees(&mut self, ca: &Ca, cb: &Ca) -> Res<bool> {
        if self.inp.st.sort_of(ca.value) != self.inp.st.sort_of(cb.value) {
            return Ok(false);
        }
        let queries = vec![self.injectivity_query(ca, false)?, self.injectivity_query(cb, false)?];
        self.label = "injective";
        if self.sat_many(&queries)?.iter().any(|r| *r != SatResult::Unsat) {
            return Ok(false);
        }
        let t = self.base_inst;
        let same_guard = self.inp.st.eq(ca.guard, cb.guard);
        let same_value = self.inp.st.eq(ca.value, cb.value);
        let value_differs = self.inp.st.not(same_value);
        let bad_value = self.inp.st.and(&[ca.guard, value_differs]);
        let bad_guard = self.inp.st.not(same_guard);
        let bad = self.inp.st.or(&[bad_guard, bad_value]);
        let mut facts = self.ctx(t);
        facts.push(bad);
        self.label = "same thread, same write";
        Ok(self.sat_abstracted(&facts)? == SatResult::Unsat)
    }

    /// [`Self::sat`], first with every nonlinear term of the facts
    /// replaced by a fresh constant (consistently across the facts): an
    /// over-approximation, so its `unsat` stands, and it spares the
    /// solver the products of the launch (`blockIdx.x * blockDim.x`) that
    /// the question rarely needs.
    pub(super) fn sat_abstracted(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let mut memo = HashMap::new();
        let abstracted: Vec<TermId> = facts.iter().map(|&f| super::abstract_nonlinear(&mut self.inp.st, f, &mut memo)).collect();
        if self.sat_timed(&abstracted)? == SatResult::Unsat {
            return Ok(SatResult::Unsat);
        }
        self.sat(facts)
    }

    /// The index in `cands` of the term equal to `ca`'s for every thread
    /// that makes either write.
    fn pair_term(&mut self, ca: &Ca, cands: &[Ca]) -> Res<Option<usize>> {
        // The same term first: no query needed.
        if let Some(j) = cands.iter().position(|c| c.off == ca.off) {
            return Ok(Some(j));
        }
        for (j, cb) in cands.iter().enumerate() {
            let t = self.base_inst;
            let mut facts = self.ctx(t);
            let either = self.inp.st.or(&[ca.guard, cb.guard]);
            facts.push(either);
            let same = self.inp.st.eq(ca.off, cb.off);
            facts.push(self.inp.st.not(same));
            self.label = "pair address terms";
            if self.sat_abstracted(&facts)? == SatResult::Unsat {
                return Ok(Some(j));
            }
        }
        Ok(None)
    }

    /// The value that the base thread's read `r` of `__shared__` variable
    /// `name` sees, when the variable is written (in one earlier barrier
    /// interval, `writes`) through several address terms. Proved first
    /// (once per variable, `first`): each term's writes go to distinct
    /// elements for distinct threads of the group, and writes through
    /// different terms never meet. So an element has at most one writer
    /// (thread and term). Then, per term, one candidate writer of the
    /// element read (a thread whose address is syntactically the one read,
    /// the inverse of an affine address, or the reader itself); the solver
    /// must prove that one of them writes it whenever the read happens.
    /// The value is that of the first candidate that does: by uniqueness,
    /// the element's writer.
    pub(super) fn read_of_several(
        &mut self,
        k: KernelRef,
        name: &str,
        r: &SharedRead,
        writes: &[&Assignment],
        resolved: &HashMap<TermId, TermId>,
        first: bool,
    ) -> Res<TermId> {
        let fail = |what: String| Err((what, k.describe(r.loc)));
        let mut offs: Vec<TermId> = Vec::new();
        for c in writes {
            if !offs.contains(&c.off) {
                offs.push(c.off);
            }
        }
        let mut cas = Vec::new();
        for off in offs {
            let group: Vec<&Assignment> = writes.iter().copied().filter(|c| c.off == off).collect();
            let Some(ca) = self.merge(&group, resolved) else {
                return fail(format!("`{}` writes `{name}` through several address terms", k.func().name));
            };
            cas.push(ca);
        }
        if first {
            for ca in &cas {
                if !self.injective(ca, true)? {
                    return fail(format!("the solver cannot prove that distinct threads of `{}` write distinct elements of `{name}`", k.func().name));
                }
            }
            self.distinct_terms(k, name, &cas, true)?;
        }
        let t = self.base_inst;
        let pc = self.resolve(r.pc, resolved);
        let addr = self.resolve(r.off, resolved);
        let mut conds = Vec::new();
        let mut values = Vec::new();
        let mut facts = self.ctx(t);
        facts.push(pc);
        for ca in &cas {
            let c = match self.unify_local_ids(ca.off, addr) {
                Some(c) => c,
                None => self.affine_inverse(t, addr, ca).unwrap_or(t),
            };
            let mut writes_it = vec![self.valid(c)];
            writes_it.push(self.at(ca.guard, c));
            let w = self.at(ca.off, c);
            writes_it.push(self.inp.st.eq(w, addr));
            conds.push(self.inp.st.and(&writes_it));
            values.push(self.at(ca.value, c));
            facts.push(self.if_valid(c));
        }
        let some = self.inp.st.or(&conds);
        facts.push(self.inp.st.not(some));
        self.label = "witness (several terms)";
        match self.sat_abstracted(&facts)? {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return fail(format!(
                    "cannot find, for an arbitrary thread of `{}`, the thread that wrote the element of `{name}` it reads",
                    k.func().name
                ))
            }
            SatResult::Unknown(why) => return fail(format!("looking for the thread that writes an element of `{name}`: the solver gave up ({why})")),
        }
        let mut value = *values.last().expect("at least two address terms");
        for (c, v) in conds.iter().zip(&values).rev().skip(1) {
            value = self.inp.st.ite(*c, *v, value);
        }
        Ok(value)
    }

    /// The thread of the base thread's group whose address term `off` is
    /// `addr`: `off` with its local ids replaced by subterms of `addr`
    /// (`tile[t]` written, `tile[t + 1]` read: the thread `t + 1`), or by
    /// the solution of `x + k = y` for a part `x + k` of `off` whose `k`
    /// does not depend on the ids (`tile[blockDim.x + t]` written,
    /// `tile[t + 2]` read: the thread `t + 2 - blockDim.x`). `None` when
    /// the terms differ elsewhere. The caller's query checks the thread.
    fn unify_local_ids(&mut self, off: TermId, addr: TermId) -> Option<Inst> {
        fn mentions(st: &lockstep_smt::TermStore, tids: &[TermId; 3], t: TermId) -> bool {
            let syms = st.free_symbols(&[t]);
            tids.iter().any(|&i| matches!(st.kind(i), lockstep_smt::TermKind::Const(f) if syms.funs.contains(f)))
        }
        fn walk(st: &mut lockstep_smt::TermStore, tids: &[TermId; 3], p: TermId, t: TermId, out: &mut [Option<TermId>; 3]) -> bool {
            // Local ids the launch fixes are literals, not variables.
            if let Some(d) = tids.iter().position(|&x| x == p && st.as_bv(x).is_none()) {
                return match out[d] {
                    Some(e) => e == t,
                    None => {
                        out[d] = Some(t);
                        true
                    }
                };
            }
            if p == t || !mentions(st, tids, p) {
                return p == t;
            }
            let (pk, tk) = (st.kind(p).clone(), st.kind(t).clone());
            if let (lockstep_smt::TermKind::App(o1, a1), lockstep_smt::TermKind::App(o2, a2)) = (&pk, &tk) {
                if o1 == o2 && a1.len() == a2.len() {
                    let saved = *out;
                    if a1.iter().zip(a2.iter()).all(|(&x, &y)| walk(st, tids, x, y, out)) {
                        return true;
                    }
                    *out = saved;
                }
            }
            if let lockstep_smt::TermKind::App(lockstep_smt::Op::BvAdd, args) = pk {
                for (x, k) in [(args[0], args[1]), (args[1], args[0])] {
                    if mentions(st, tids, k) {
                        continue;
                    }
                    let rest = st.bvsub(t, k);
                    let saved = *out;
                    if walk(st, tids, x, rest, out) {
                        return true;
                    }
                    *out = saved;
                }
            }
            false
        }
        let t = self.base_inst;
        let mut out = [None; 3];
        if !walk(&mut self.inp.st, &t.tid, off, addr, &mut out) {
            return None;
        }
        let mut c = t;
        for d in 0..3 {
            if let Some(e) = out[d] {
                c.tid[d] = e;
            }
        }
        Some(c)
    }
}
