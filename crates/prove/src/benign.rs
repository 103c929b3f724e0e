//! The silent-write part of the benign-race rule (stated once for the three
//! engines in `lockstep_analysis::ghost`): under the equality abstraction, a
//! plain write that leaves its bytes as they were — a thread writing back
//! the value it just read, `v = A[0]; A[0] = v` — races with no read,
//! since no read can tell whether it happened.
//!
//! In the prover a write of thread `t` is silent when the two threads are
//! in one group (where the equality abstraction applies) and the written
//! value equals the object's contents at the write's offset, the value
//! `Enc::equal_load` gives a load of the same bytes at the current version
//! of the object (before the write renews it). A thread that read those
//! bytes and has written none of the object since read exactly that value;
//! a write of another thread to the bytes in between races with the read,
//! which is checked, so the abstraction hides no first race.

use lockstep_kir::{InstId, InstKind, MemSpace};
use lockstep_smt::TermId;

use crate::encode::{Enc, Res, Sym};

impl Enc<'_> {
    /// For each thread, whether its store `i` to tracked object `m` (index
    /// `oi` in the objects), at offset `offs[t]`, writes back the contents
    /// it finds there; false where the rule does not apply.
    pub(crate) fn silent_write(&mut self, i: InstId, oi: usize, m: usize, offs: [TermId; 2]) -> Res<[TermId; 2]> {
        let no = [self.st.false_(), self.st.false_()];
        let obj = &self.objects[oi];
        let applies = self.config.equality_abstraction
            && self.config.warp_size.is_none()
            && !self.config.only_divergence
            && (obj.space == MemSpace::Shared || !self.config.only_intra_group)
            && self.config.races_checked_on(&obj.name);
        let InstKind::Store { value, .. } = self.func.insts[i].kind else { return Ok(no) };
        let Some(sort) = crate::encode::scalar_sort(self.func.value_type(value)) else { return Ok(no) };
        if !applies {
            return Ok(no);
        }
        let mut out = no;
        for (t, &off) in offs.iter().enumerate() {
            let contents = self.uf(&format!("contents{m}"), &[self.mem_version[m], off], sort.clone());
            let same = match self.val(t, value)? {
                Sym::Bool(v) | Sym::Bv(v) => self.st.eq(v, contents),
                Sym::Ptr { .. } => return Ok(no),
            };
            out[t] = self.st.and(&[self.same_group, same]);
        }
        Ok(out)
    }
}
