//! Loops with writes whose trip count is symbolic, iterated by the
//! one-thread run ([`sym::LoopIteration`]): each iteration `q` is a thread
//! of its own, so the iteration symbol joins the thread's identity
//! ([`Inst::q`]) in every later query: substituted with the thread's ids,
//! fresh for each fresh instance, and compared by the injectivity proof
//! (two iterations of one thread are distinct writers).
//!
//! A signed counter (`int r`) is modelled only while it does not
//! overflow; [`Prover::check_signed_counters`] proves from the
//! preconditions that it never does, so that no iteration the kernel
//! really runs is left out (signed `r += stride` past INT_MAX would give a
//! negative row: a real difference, not an assumption to make).
//!
//! The per-element comparison of outputs (one address term per kernel)
//! and the comparisons of outputs written through several address terms
//! (paired, or element by element in [`cover`](super::cover), whose
//! candidate writers include the inverse of a grid-stride counter: an
//! element's iteration and thread) know about iterations; a run with an
//! iterated loop that needs anything else (shared memory,
//! postconditions) makes the proof not apply. Reads of a buffer the
//! kernel writes (in place, `y[r] += ...`) are justified per (thread,
//! iteration) by [`inplace`](super::inplace).

use super::*;

impl Prover<'_> {
    /// Makes the iteration symbol part of every thread instance, after
    /// checking that the runs need nothing the iterations are not modelled
    /// in. Returns the report lines.
    pub(super) fn iterated(&mut self, kernels: &[KernelRef], runs: &[ThreadRun]) -> Res<()> {
        let mut q = None;
        for (k, r) in kernels.iter().zip(runs) {
            let name = &k.func().name;
            if let Some(it) = &r.iteration {
                q = Some(it.q);
                if it.signed_next.is_none() {
                    self.iter_loops.push(it.clone());
                }
            }
            if !r.shared_reads.is_empty() || r.cas.iter().any(|c| matches!(c.target, Target::Shared(_))) {
                return na(format!("`{name}` uses __shared__ memory, and a kernel has a loop with writes whose trip count is symbolic"));
            }
            if !r.obligations.is_empty() {
                return na(format!("`{name}` has postconditions, and a kernel has a loop with writes whose trip count is symbolic"));
            }
        }
        self.base_inst.q = q;
        if q.is_some() {
            // A grid-stride counter `gid + q * (blockDim * gridDim)` has
            // the global id as its low digit: the facts that a global id
            // is below the grid's size (true as the launch facts bound the
            // grid below 2^32), on the 32-bit terms kernels compute, in
            // both operand orders, so that the digit bound needs no
            // nonlinear reasoning.
            let t = self.base_inst;
            for d in 0..3 {
                let st = &mut self.inp.st;
                let (bd, gd) = (self.inp.local_size[d], self.inp.num_groups[d]);
                for total in [st.bvmul(bd, gd), st.bvmul(gd, bd)] {
                    for base in [st.bvmul(t.bid[d], bd), st.bvmul(bd, t.bid[d])] {
                        for gid in [st.bvadd(base, t.tid[d]), st.bvadd(t.tid[d], base)] {
                            let f = st.bvult(gid, total);
                            self.per_thread.push(f);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Proves, for each iterated loop with a signed counter, that whenever
    /// its iteration `q` runs the step is positive and the next counter
    /// does not overflow ([`sym::LoopIteration::signed_next`]), for an
    /// arbitrary thread under the kernels' preconditions; the proof does
    /// not apply otherwise.
    pub(super) fn check_signed_counters(&mut self, kernels: &[KernelRef], runs: &[ThreadRun], proved: &mut Vec<String>) -> Res<()> {
        for (k, r) in kernels.iter().zip(runs) {
            let Some(it) = &r.iteration else { continue };
            let Some(next) = it.signed_next else { continue };
            let t = self.base_inst;
            let mut facts = self.ctx(t);
            facts.push(self.inp.st.not(next));
            self.label = "signed counter";
            let line = it.loc.map(|l| format!("line {}", l.line)).unwrap_or_else(|| "?".into());
            let name = &k.func().name;
            match self.sat(&facts)? {
                SatResult::Unsat => proved.push(format!(
                    "the signed counter of the loop of `{name}` at {line} steps by a positive amount and never overflows (checked under the preconditions)"
                )),
                SatResult::Sat => {
                    return Err((
                        format!("the signed counter of the loop of `{name}` at {line} may overflow past INT_MAX (or its step may not be positive): signed overflow is undefined, and on a GPU it makes the loop run on with negative counters; a precondition bounding the loop (e.g. `m <= INT_MAX - stride`) makes it provable"),
                        k.describe(it.loc),
                    ))
                }
                SatResult::Unknown(why) => return na(format!("proving that a signed loop counter does not overflow: the solver gave up ({why})")),
            }
        }
        Ok(())
    }

    /// Does one of `terms` mention the constant `c`?
    pub(super) fn mentions(&self, terms: &[TermId], c: TermId) -> bool {
        let TermKind::Const(f) = self.inp.st.kind(c) else { return false };
        self.inp.st.free_symbols(terms).funs.contains(f)
    }

    /// The report lines and assumptions of the iterated loops.
    pub(super) fn iteration_lines(&self, kernels: &[KernelRef], runs: &[ThreadRun]) -> (Vec<String>, Vec<String>) {
        let mut proved = Vec::new();
        for (k, r) in kernels.iter().zip(runs) {
            if let Some(it) = &r.iteration {
                let line = it.loc.map(|l| format!("line {}", l.line)).unwrap_or_else(|| "?".into());
                proved.push(format!(
                    "the loop of `{}` at {line} (a loop with writes whose trip count is symbolic) is compared iteration by iteration: each iteration is a writer of its own",
                    k.func().name
                ));
            }
        }
        let unsigned = runs.iter().any(|r| r.iteration.as_ref().is_some_and(|it| it.signed_next.is_none()));
        let assumptions = if !unsigned {
            Vec::new()
        } else {
            vec!["the counter of a loop with writes whose trip count is symbolic does not wrap around (its value in iteration q, init + q * step, fits in 32 bits) and steps by a non-zero amount".to_string()]
        };
        (proved, assumptions)
    }
}
