//! Calls through function pointers that are the address of no function.
//!
//! The front-end lowers a call through a function pointer as a comparison
//! with the address of every function of the call's type, each match a
//! direct call; when none matches, an `invalid_call` executes (and nothing
//! after it). The prover must not assume that the pointer is one of the
//! functions: a pointer parameter, a pointer loaded from memory or one made
//! by arithmetic may be anything, null included. So the `invalid_call` is
//! an obligation of its own, that no enabled thread reaches it, checked
//! like every other (GPUVerify reports such a call as a possible null
//! pointer access), and past it the thread is assumed not to go on (the
//! block ends in `unreachable`).

use lockstep_diag::ViolationKind;
use lockstep_kir::InstId;
use lockstep_smt::TermId;

use crate::encode::{Enc, ObKind};

impl Enc<'_> {
    /// Obliges that neither thread, where enabled (`enabled`, the block's
    /// predicates), executes the `invalid_call` `i`.
    pub(crate) fn invalid_call(&mut self, i: InstId, enabled: [TermId; 2]) {
        let not_reached: Vec<TermId> = enabled.iter().map(|&p| self.st.not(p)).collect();
        let ok = self.st.and(&not_reached);
        self.oblige(
            ok,
            ObKind::Annotation(ViolationKind::NullPointer),
            Some(i),
            "possible call through a pointer that is no function's address (null pointer access)".into(),
            None,
        );
    }
}
