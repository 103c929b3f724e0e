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

use std::collections::HashMap;

use lockstep_smt::{SatResult, TermId};

use super::{na, Ca, Prover, Res};
use crate::sym::{Assignment, Target, ThreadRun};
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
        if cas_a.len() != cas_b.len() {
            return na(format!(
                "`{}` writes `{name}` through {} address terms and `{}` through {}",
                a.func().name,
                cas_a.len(),
                b.func().name,
                cas_b.len()
            ));
        }
        for (k, cas) in [(a, &cas_a), (b, &cas_b)] {
            self.distinct_terms(k, &name, cas)?;
        }
        let mut left: Vec<Ca> = cas_b;
        for ca in &cas_a {
            let Some(j) = self.pair_term(ca, &left)? else {
                return na(format!(
                    "cannot pair an address term with which `{}` writes `{name}` with one of `{}`",
                    a.func().name,
                    b.func().name
                ));
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
    /// element, whichever threads (the same or two) make them.
    fn distinct_terms(&mut self, k: KernelRef, name: &str, cas: &[Ca]) -> Res<()> {
        let mut queries = Vec::new();
        for i in 0..cas.len() {
            for j in i + 1..cas.len() {
                let t1 = self.fresh_inst("d1", false);
                let t2 = self.fresh_inst("d2", false);
                let mut facts = self.ctx(t1);
                facts.extend(self.ctx(t2));
                let (g1, g2) = (self.at(cas[i].guard, t1), self.at(cas[j].guard, t2));
                facts.extend([g1, g2]);
                let (o1, o2) = (self.at(cas[i].off, t1), self.at(cas[j].off, t2));
                facts.push(self.inp.st.eq(o1, o2));
                queries.push(facts);
            }
        }
        self.label = "distinct address terms";
        let mut answers = Vec::new();
        for q in &queries {
            answers.push(self.sat_abstracted(q)?);
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
}
