//! Warp operations in the two-thread product: what `__activemask` is known
//! to contain, the check that a shuffle reads only lanes that execute it,
//! and the check that every lane a member mask names executes the
//! operation.
//!
//! A shuffle's result is a fresh value in the prover (values read from
//! other lanes are not modelled, which is sound for races and bounds). The
//! shuffle itself may still be undefined: CUDA leaves the value unspecified
//! when the source lane does not execute the same shuffle (it is inactive,
//! has exited, or waits elsewhere). The front-end asserts, per thread,
//! that the caller and its source lane are in the mask; whether the source
//! lane executes the shuffle relates two threads and is checked here.

use super::*;
use lockstep_kir::WarpOp;

/// The lanes of a warp, as CUDA numbers them.
const LANES: u128 = 32;

impl<'a> Enc<'a> {
    /// Thread `t`'s lane (its linear local id modulo 32), 32 bits wide.
    pub(crate) fn lane32(&mut self, t: usize) -> TermId {
        let lin = self.linear_local_id(t);
        let w = self.st.bv_const(64, LANES);
        let lane = self.st.bvurem(lin, w);
        self.resize(lane, 32, false)
    }

    /// `__activemask()`: any set of lanes that includes the caller's.
    pub(crate) fn active_mask(&mut self, t: usize) -> TermId {
        let f = self.fresh("active_mask", Sort::bv(32));
        let lane = self.lane32(t);
        let one = self.st.bv_const(32, 1);
        let bit = self.st.bvshl(one, lane);
        self.st.bvor(f, bit)
    }

    /// The lanes `__activemask()` names execute it with the caller: when the
    /// other thread of the pair is in the same warp and in one thread's mask
    /// (`masks`, with predicates `p`), it executes this instruction too.
    /// Assumed only outside loops (the caller's check), where both threads
    /// execute the instruction at most once.
    pub(crate) fn active_lanes_execute(&mut self, p: [TermId; 2], masks: [TermId; 2]) {
        let same_warp = self.same_warp(LANES as u32);
        for t in 0..2 {
            let o = 1 - t;
            let lane = self.lane32(o);
            let shifted = self.st.bvlshr(masks[t], lane);
            let one = self.st.bv_const(32, 1);
            let bit = self.st.bvand(shifted, one);
            let named = self.st.eq(bit, one);
            let premise = self.st.and(&[same_warp, p[t], named]);
            let fact = self.st.implies(premise, p[o]);
            self.assume(fact);
        }
    }

    /// `__match_any_sync(mask, v)`: lanes of `mask`, the caller's among
    /// them (values from other lanes are not modelled).
    pub(crate) fn match_any(&mut self, t: usize, mask: TermId) -> TermId {
        let f = self.fresh("match_any", Sort::bv(32));
        let lane = self.lane32(t);
        let one = self.st.bv_const(32, 1);
        let bit = self.st.bvshl(one, lane);
        let within = self.st.bvand(f, mask);
        self.st.bvor(within, bit)
    }

    /// Thread `t`'s source lane of a shuffle and whether it reads another
    /// lane at all, as the interpreter and the front-end's assertions
    /// compute them (`arg`: lane, delta or xor mask; `width`: the segment,
    /// outside 1..=32 the whole warp).
    pub(crate) fn shuffle_source(&mut self, t: usize, op: WarpOp, arg: ValueId, width: ValueId) -> Res<(TermId, TermId)> {
        let a = self.val_bv(t, arg)?;
        let a = self.resize(a, 32, false);
        let w = self.val_bv(t, width)?;
        let w = self.resize(w, 32, false);
        let one = self.st.bv_const(32, 1);
        let full = self.st.bv_const(32, LANES);
        let less_one = self.st.bvsub(w, one);
        let valid = self.st.bvult(less_one, full);
        let w = self.st.ite(valid, w, full);
        let lane = self.lane32(t);
        let lane_in = self.st.bvurem(lane, w);
        let seg = self.st.bvsub(lane, lane_in);
        let yes = self.st.bool_const(true);
        Ok(match op {
            WarpOp::Shfl => {
                let off = self.st.bvurem(a, w);
                (self.st.bvadd(seg, off), yes)
            }
            WarpOp::ShflUp => (self.st.bvsub(lane, a), self.st.bvuge(lane_in, a)),
            WarpOp::ShflDown => {
                let room = self.st.bvsub(w, lane_in);
                (self.st.bvadd(lane, a), self.st.bvult(a, room))
            }
            _ => {
                let src = self.st.bvxor(lane, a);
                let src_in = self.st.bvurem(src, w);
                let src_seg = self.st.bvsub(src, src_in);
                (src, self.st.eq(src_seg, seg))
            }
        })
    }

    /// Obliges, for the shuffle `i` with predicates `p`, that when one
    /// thread executes it and reads the other thread's lane (same group,
    /// same warp), the other thread executes it too.
    pub(crate) fn shuffle_participation(&mut self, i: InstId, p: [TermId; 2], op: WarpOp, args: &[ValueId]) -> Res<()> {
        let (Some(&arg), Some(&width)) = (args.get(2), args.get(3)) else { return Ok(()) };
        let same_warp = self.same_warp(LANES as u32);
        let mut needs_other = [same_warp; 2];
        for t in 0..2 {
            let (src, reads) = self.shuffle_source(t, op, arg, width)?;
            let other_lane = self.lane32(1 - t);
            let is_other = self.st.eq(src, other_lane);
            needs_other[t] = self.st.and(&[same_warp, reads, is_other]);
        }
        self.oblige_other_executes(
            i,
            p,
            needs_other,
            "possible warp divergence: this shuffle may read from a lane that does not execute it (inactive, exited or elsewhere), whose value CUDA leaves undefined",
        );
        Ok(())
    }

    /// Obliges, for the warp operation `i` with predicates `p`, that a
    /// thread that executes it where `needs_other[t]` holds (it reads or
    /// names the other thread's lane) does not execute it without the
    /// other thread.
    fn oblige_other_executes(&mut self, i: InstId, p: [TermId; 2], needs_other: [TermId; 2], message: &str) {
        let mut conj = Vec::with_capacity(2);
        for t in 0..2 {
            let premise = self.st.and(&[p[t], needs_other[t]]);
            conj.push(self.st.implies(premise, p[1 - t]));
        }
        let ok = self.st.and(&conj);
        self.oblige(ok, ObKind::Divergence, Some(i), message.into(), None);
    }

    /// Obliges, for the warp operation `i` with predicates `p` and member
    /// mask `mask` (`None`: every lane, as `__syncwarp()`), that when one
    /// thread executes it with a mask naming the other thread's lane (same
    /// group, same warp), the other executes it too. CUDA requires every
    /// lane a mask names to execute the operation: a mask naming a lane
    /// that has exited (`if (i >= n) return;` before a full-mask
    /// reduction) is undefined behaviour, and on the hardware the caller
    /// may wait for ever. Since Volta, lanes at two different `__syncwarp`s
    /// (or shuffles) may meet; the product pairs the threads' executions of
    /// one site, so a kernel that relies on that ends `possible-errors`,
    /// never wrongly `verified`. In a loop, the predicates are those of the
    /// iteration both threads execute, which the loop candidates relate
    /// (`pred-eq` for threads of one warp).
    pub(crate) fn named_lanes_participate(&mut self, i: InstId, p: [TermId; 2], mask: Option<ValueId>) -> Res<()> {
        let lanes = self.config.warp_size.unwrap_or(LANES as u32);
        let same_warp = self.same_warp(lanes);
        let mut needs_other = [same_warp; 2];
        if let Some(m) = mask {
            for t in 0..2 {
                let m = self.val_bv(t, m)?;
                let m = self.resize(m, 32, false);
                let named = self.names_lane(m, 1 - t);
                needs_other[t] = self.st.and(&[same_warp, named]);
            }
        }
        self.oblige_other_executes(
            i,
            p,
            needs_other,
            "possible warp divergence: the mask of this warp operation may name a lane that does not execute it (it has exited or is elsewhere); CUDA requires every lane a mask names to execute the operation",
        );
        Ok(())
    }
}
