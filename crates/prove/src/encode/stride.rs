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
//!
//! Two-dimensional indexing `row * n + col` with `0 <= col < n` is kept
//! apart by the product lemmas of `no_wrap`, which need the column to be
//! non-negative; when the column is a global id stored in an `int`
//! (`blockIdx.x * blockDim.x + threadIdx.x`), that holds only for launches
//! with fewer than 2^31 threads in the dimension, which is assumed (and
//! stated) where a kernel executes a signed product of two symbolic values.

use super::*;

/// The assumption `launch_facts` states with `signed`.
const SIGNED_IDS: &str = "symbolic launch sizes: fewer than 2^31 threads in each dimension of the grid (global ids fit in a signed int)";

impl Enc<'_> {
    /// States, once, that each thread's global id `group * size + local`
    /// (either operand order) is below `size * groups` in every dimension
    /// with a symbolic size; with `signed`, also that this number of
    /// threads is below 2^31, so that a global id is a non-negative `int`
    /// (stated as an assumption: CUDA's limits allow 2^41 threads).
    pub(crate) fn launch_facts(&mut self, signed: bool) {
        let first = !self.launch_facts_done;
        let add_signed = signed && !self.signed_ids_done;
        if !first && !add_signed {
            return;
        }
        self.launch_facts_done = true;
        self.signed_ids_done |= signed;
        for d in 0..3 {
            let (gs, ng) = (self.gs[d], self.ng[d]);
            if self.st.as_bv(gs).is_some() && self.st.as_bv(ng).is_some() {
                continue;
            }
            let threads = self.mul(gs, ng);
            if add_signed {
                let limit = self.st.bv_const(32, 1 << 31);
                let below = self.st.bvult(threads, limit);
                self.defs.push(below);
                self.state_assumption(SIGNED_IDS);
            }
            if !first {
                continue;
            }
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
