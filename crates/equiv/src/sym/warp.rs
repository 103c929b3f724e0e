//! Warps in the bounded engine: `__syncwarp` and the shuffles
//! (`__shfl_sync`, `__shfl_up_sync`, `__shfl_down_sync`,
//! `__shfl_xor_sync`).
//!
//! Threads run one after the other to their next synchronisation point
//! ([`Executor::run`]); a warp barrier or a shuffle is one, for the
//! thread's warp (32 consecutive threads of the group in linear order).
//! When every live thread of a warp waits at the same one, the warp goes on
//! within the barrier interval: after a warp barrier the threads simply
//! continue (the kernel is assumed race-free, so running them one after
//! the other from there is one of its schedules), and at a shuffle each
//! thread's result is the value argument of its source lane, computed from
//! the lane ids, which are concrete. A shuffle whose lane offset, width or
//! mask is symbolic, or that reads a lane that is not at the shuffle, is
//! outside the engine (its value would be undefined or schedule-dependent).

use lockstep_kir::{BarrierScope, InstId, InstKind, WarpOp};
use lockstep_smt::TermId;

use super::{unsupported, Executor, Path, Res, SV};

/// Threads per warp.
pub(super) const WARP: u32 = 32;

/// The linear id of local id `lid` in a group of `group` threads.
pub(super) fn linear(group: [u32; 3], lid: [u32; 3]) -> u32 {
    lid[0] + group[0] * (lid[1] + group[1] * lid[2])
}

impl Executor<'_> {
    /// Is `inst` a synchronisation point of a warp?
    fn warp_point(&self, inst: InstId) -> bool {
        match &self.func.insts[inst].kind {
            InstKind::Barrier { scope, .. } => *scope == BarrierScope::Warp,
            InstKind::Warp { op, .. } => matches!(op, WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor),
            _ => false,
        }
    }

    /// Lets the warps whose live threads all wait at one warp
    /// synchronisation point go on (marking them `ready`); `Ok(false)`
    /// when no thread waits at one.
    pub(super) fn resume_warps(&mut self, threads: &[[u32; 3]], states: &mut [Option<Path>], ready: &mut [bool]) -> Res<bool> {
        let group = self.inp.group_size;
        let waiting: Vec<usize> =
            (0..threads.len()).filter(|&t| states[t].as_ref().and_then(|p| p.at).is_some_and(|i| self.warp_point(i))).collect();
        if waiting.is_empty() {
            return Ok(false);
        }
        let warp_of = |t: usize| linear(group, threads[t]) / WARP;
        let mut warps: Vec<u32> = waiting.iter().map(|&t| warp_of(t)).collect();
        warps.dedup();
        for w in warps {
            let members: Vec<usize> = (0..threads.len()).filter(|&t| warp_of(t) == w && states[t].is_some()).collect();
            let at = states[members[0]].as_ref().and_then(|p| p.at);
            if members.iter().any(|&t| states[t].as_ref().and_then(|p| p.at) != at) {
                let loc = at.and_then(|i| self.func.inst_locs.get(i).clone());
                return unsupported("the threads of a warp reach different synchronisation points (warp divergence)", loc);
            }
            let inst = at.expect("a waiting thread is at an instruction");
            if let InstKind::Warp { op, args } = self.func.insts[inst].kind.clone() {
                self.shuffle(inst, op, &args, threads, &members, states)?;
            }
            for &t in &members {
                ready[t] = true;
            }
        }
        Ok(true)
    }

    /// Every member's result of the shuffle `inst`.
    fn shuffle(
        &mut self,
        inst: InstId,
        op: WarpOp,
        args: &[lockstep_kir::ValueId],
        threads: &[[u32; 3]],
        members: &[usize],
        states: &mut [Option<Path>],
    ) -> Res<()> {
        let loc = self.func.inst_locs.get(inst).clone();
        let group = self.inp.group_size;
        let [mask, value, lane_arg, width_arg] = args[..] else {
            return unsupported("a shuffle without its four arguments", loc);
        };
        let mut values: Vec<(u32, TermId)> = Vec::new();
        let mut params: Vec<(u32, u32, u32)> = Vec::new();
        for &t in members {
            let p = states[t].as_ref().expect("members are live");
            let concrete = |ex: &mut Self, v| -> Res<u32> {
                let x = ex.bv(p, v, loc)?;
                match ex.inp.st.as_bv(x).and_then(|b| b.to_u128()) {
                    Some(c) => Ok(c as u32),
                    None => unsupported("a shuffle whose mask, lane or width depends on symbolic values", loc),
                }
            };
            let (m, l, w) = (concrete(self, mask)?, concrete(self, lane_arg)?, concrete(self, width_arg)?);
            let v = self.bv(p, value, loc)?;
            values.push((linear(group, threads[t]) % WARP, v));
            params.push((m, l, w));
        }
        for (k, &t) in members.iter().enumerate() {
            let (lane, own) = values[k];
            let (m, l, w) = params[k];
            if w == 0 || w > WARP || !w.is_power_of_two() {
                return unsupported("a shuffle width that is not a power of two up to 32", loc);
            }
            let base = lane & !(w - 1);
            let inner = lane & (w - 1);
            let src = match op {
                WarpOp::Shfl => Some(base + (l & (w - 1))),
                WarpOp::ShflUp => (inner >= l).then(|| lane - l),
                WarpOp::ShflDown => (inner + l < w).then(|| lane + l),
                WarpOp::ShflXor => {
                    let s = lane ^ l;
                    (s & !(w - 1) == base).then_some(s)
                }
                _ => return unsupported("warp-level operations", loc),
            };
            let result = match src {
                None => own,
                Some(s) => {
                    if m & (1 << s) == 0 || m & (1 << lane) == 0 {
                        return unsupported("a shuffle whose mask leaves out a lane that takes part", loc);
                    }
                    match values.iter().find(|(l2, _)| *l2 == s) {
                        Some(&(_, v)) => v,
                        None => return unsupported("a shuffle reads a lane that does not take part (its value is undefined)", loc),
                    }
                }
            };
            if let Some(r) = self.func.insts[inst].result {
                states[t].as_mut().expect("members are live").env.insert(r, SV::Bv(result));
            }
        }
        Ok(())
    }
}
