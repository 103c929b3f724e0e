//! Facts for block- and grid-stride loops under symbolic launch sizes.
//!
//! A loop `for (i = start; i < n; i += step)` whose step is a launch size
//! (`blockDim.x`, `blockDim.x * gridDim.x`) keeps two threads apart because
//! each thread's counter stays congruent to its start modulo the step, and
//! the starts (`threadIdx.x`, the global id) are distinct and below the
//! step. The stride rule states the congruence over an uninterpreted
//! remainder (`candidates::stride_congruence`), which keeps the queries
//! free of bit-vector division by a symbolic value (z3 does not finish
//! those). What the congruence needs from the launch is here: a thread's
//! global id in a dimension is below the number of threads in that
//! dimension, which follows from the stated assumption that the thread
//! counts fit in 32 bits and is out of reach of the solver otherwise
//! (products of symbolic sizes are uninterpreted, see `no_wrap`). The
//! other half, that the step does not wrap the counter around, is the
//! assumption `no_wrap::assume_no_wrap` makes for the updates the analysis
//! crate's `launch_steps` finds.

use super::*;

impl Enc<'_> {
    /// States, once, that each thread's global id `group * size + local`
    /// (either operand order) is below `size * groups` in every dimension
    /// with a symbolic size.
    pub(crate) fn launch_facts(&mut self) {
        if self.launch_facts_done {
            return;
        }
        self.launch_facts_done = true;
        for d in 0..3 {
            let (gs, ng) = (self.gs[d], self.ng[d]);
            if self.st.as_bv(gs).is_some() && self.st.as_bv(ng).is_some() {
                continue;
            }
            let threads = self.mul(gs, ng);
            for t in 0..2 {
                let m = self.mul(self.gid[t][d], gs);
                let ids = [self.st.bvadd(m, self.lid[t][d]), self.st.bvadd(self.lid[t][d], m)];
                for id in ids {
                    let below = self.st.bvult(id, threads);
                    self.defs.push(below);
                }
            }
        }
    }
}
