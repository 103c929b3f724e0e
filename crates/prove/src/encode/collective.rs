//! Values that a group or a warp computes together, in the two-thread
//! product: group collectives (`__syncthreads_or/and/count`) and warp votes
//! and broadcasts (`__ballot_sync`, `__any_sync`, `__all_sync`, a shuffle).
//!
//! Each thread's result is a fresh value, related to the other thread's
//! where both are known to take part in the same instance:
//!
//! - A group collective stands directly after a group barrier (KIR's
//!   verifier keeps the pair), whose divergence check makes two threads of
//!   one group that both execute it meet at the same instance: their
//!   results are equal. Each result also agrees with the thread's own
//!   operand (`or` holds when the operand is nonzero, `and` fails when it is
//!   zero, `count` is at least 1 then and at most the group's size), and
//!   `count` is at least the number of the two threads whose operand holds.
//! - A warp vote or shuffle is equal in two threads of one warp that execute
//!   the same instance with the same mask, each naming the other (CUDA
//!   makes the lanes of a mask meet at the operation); a shuffle must also
//!   read the same source lane. Outside loops each thread executes the
//!   instruction at most once, so both executing it means the same
//!   instance; in a loop, each thread counts its executions
//!   (`LogState::warp`, loop state with candidate invariants such as
//!   `same_warp => c1 == c2`), and equal counts mean the same instance, as
//!   the interpreter pairs lanes by their occurrence counts.
//!
//! Nothing here is assumed for the re-evaluation of a loop header after the
//! loop (`Mode::Pure`), where the two threads' last executions need not be
//! one instance.

use super::*;
use lockstep_kir::{CollectiveOp, WarpOp};

/// The lanes of a warp, as CUDA numbers them.
const LANES: u128 = 32;

impl<'a> Enc<'a> {
    /// The results of the group collective `op` over `arg`, executed under
    /// predicates `p`.
    pub(crate) fn group_collective(&mut self, op: CollectiveOp, arg: ValueId, p: [TermId; 2], mode: Mode) -> Res<[Sym; 2]> {
        let mut v = [self.st.bv_const(32, 0); 2];
        let mut set = [self.st.bool_const(false); 2];
        for t in 0..2 {
            v[t] = self.fresh("collective", Sort::bv(32));
            let a = self.val(t, arg)?;
            set[t] = self.as_bool(a);
        }
        let zero = self.st.bv_const(32, 0);
        let one = self.st.bv_const(32, 1);
        let size = self.group_size_bv32();
        for t in 0..2 {
            // Facts about one thread's result that hold whatever the other
            // thread does (a thread that does not execute it has no result).
            let fact = match op {
                CollectiveOp::Or | CollectiveOp::And => {
                    let is_one = self.st.eq(v[t], one);
                    let is_zero = self.st.eq(v[t], zero);
                    let boolean = self.st.or(&[is_zero, is_one]);
                    let own = if op == CollectiveOp::Or {
                        self.st.implies(set[t], is_one)
                    } else {
                        let unset = self.st.not(set[t]);
                        self.st.implies(unset, is_zero)
                    };
                    self.st.and(&[boolean, own])
                }
                CollectiveOp::Count => {
                    let at_most = self.st.bvule(v[t], size);
                    let positive = self.st.bvuge(v[t], one);
                    let own = self.st.implies(set[t], positive);
                    self.st.and(&[at_most, own])
                }
            };
            let fact = self.st.implies(p[t], fact);
            self.assume(fact);
        }
        if mode == Mode::Normal {
            let both = self.st.and(&[p[0], p[1], self.same_group]);
            let equal = self.st.eq(v[0], v[1]);
            let mut facts = vec![equal];
            if op == CollectiveOp::Count {
                // Two distinct threads of the group (the product's pair):
                // the count includes each whose operand holds.
                let c = [self.st.ite(set[0], one, zero), self.st.ite(set[1], one, zero)];
                let sum = self.st.bvadd(c[0], c[1]);
                facts.push(self.st.bvuge(v[0], sum));
            }
            let all = self.st.and(&facts);
            let fact = self.st.implies(both, all);
            self.assume(fact);
        }
        Ok([Sym::Bv(v[0]), Sym::Bv(v[1])])
    }

    /// The group's size as a 32-bit value (saturated: a group has fewer
    /// than 2^32 threads on every GPU, and the bound only matters below it).
    fn group_size_bv32(&mut self) -> TermId {
        let mut acc = self.st.bv_const(64, 1);
        for d in 0..3 {
            let g = self.resize(self.gs[d], 64, false);
            acc = self.st.bvmul(acc, g);
        }
        let max = self.st.bv_const(64, u32::MAX as u128);
        let small = self.st.bvule(acc, max);
        let low = self.resize(acc, 32, false);
        let top = self.st.bv_const(32, u32::MAX as u128);
        self.st.ite(small, low, top)
    }

    /// Thread `t`'s bit in a 32-bit mask `m`: whether `m` names its lane.
    pub(crate) fn names_lane(&mut self, m: TermId, t: usize) -> TermId {
        let lane = self.lane32(t);
        let shifted = self.st.bvlshr(m, lane);
        let one = self.st.bv_const(32, 1);
        let bit = self.st.bvand(shifted, one);
        self.st.eq(bit, one)
    }

    /// Whether the two threads execute the same instance of the warp
    /// operation `i` of block `b`, given that both execute it: always
    /// outside loops; in a loop, when their occurrence counters agree (and
    /// the counters advance). `None` when no counter was set up for it.
    fn same_warp_instance(&mut self, i: InstId, b: BlockId, p: [TermId; 2], mode: Mode) -> Option<TermId> {
        if self.loops.innermost(b).is_none() {
            return Some(self.st.bool_const(true));
        }
        if mode == Mode::Normal {
            self.warp_occurrence(i, p)
        } else {
            None
        }
    }

    /// Relates the results `out` of the warp vote or shuffle `i` (`op` with
    /// `args`) of the two threads: equal where both execute the same
    /// instance in one warp with one mask naming both (and, for a shuffle,
    /// the same source lane). A ballot's own bit is the thread's predicate.
    pub(crate) fn relate_warp_results(
        &mut self,
        i: InstId,
        b: BlockId,
        op: WarpOp,
        args: &[ValueId],
        p: [TermId; 2],
        out: [Sym; 2],
        mode: Mode,
    ) -> Res<()> {
        if op == WarpOp::Ballot && args.len() == 2 {
            for t in 0..2 {
                let (Sym::Bv(v), Some(pred)) = (out[t], args.get(1)) else { break };
                if self.st.sort_of(v) != &Sort::bv(32) {
                    break;
                }
                let pr = self.val(t, *pred)?;
                let pr = self.as_bool(pr);
                let mine = self.names_lane(v, t);
                let fact = self.st.eq(mine, pr);
                let fact = self.st.implies(p[t], fact);
                self.assume(fact);
            }
        }
        if mode != Mode::Normal {
            return Ok(());
        }
        let Some(same_instance) = self.same_warp_instance(i, b, p, mode) else { return Ok(()) };
        let Some(&mask) = args.first() else { return Ok(()) };
        let m = [self.val_bv(0, mask)?, self.val_bv(1, mask)?];
        let m = [self.resize(m[0], 32, false), self.resize(m[1], 32, false)];
        let same_mask = self.st.eq(m[0], m[1]);
        let named = [self.names_lane(m[0], 1), self.names_lane(m[1], 0)];
        let same_warp = self.same_warp(LANES as u32);
        let mut premise = vec![p[0], p[1], same_warp, same_instance, same_mask, named[0], named[1]];
        match op {
            WarpOp::Ballot | WarpOp::Any | WarpOp::All => {}
            WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => {
                let (Some(&arg), Some(&width)) = (args.get(2), args.get(3)) else { return Ok(()) };
                let (s0, r0) = self.shuffle_source(0, op, arg, width)?;
                let (s1, r1) = self.shuffle_source(1, op, arg, width)?;
                let same_src = self.st.eq(s0, s1);
                premise.extend([r0, r1, same_src]);
            }
            _ => return Ok(()),
        }
        let equal = self.eq_sym(out[0], out[1]);
        let all = self.st.and(&premise);
        let fact = self.st.implies(all, equal);
        self.assume(fact);
        Ok(())
    }
}
