//! GPUVerify's annotations: assertions, assumptions, preconditions, loop
//! invariants and candidates, `__read`/`__write` predicates and the other
//! annotation values.

use super::*;

impl<'a> Enc<'a> {
    pub(crate) fn annot(&mut self, b: BlockId, i: InstId, kind: AnnotKind, args: &[ValueId]) -> Res<()> {
        let at = self.loc(i);
        // Annotations the user asked to ignore: ignoring an assertion is what
        // was asked for, ignoring an assumption is sound.
        if self.config.no_annotations || (self.config.only_requires && kind != AnnotKind::Requires) {
            return Ok(());
        }
        let kind = match kind {
            AnnotKind::Invariant if self.config.invariants_as_candidates => AnnotKind::CandidateInvariant,
            AnnotKind::GlobalInvariant if self.config.invariants_as_candidates => AnnotKind::CandidateGlobalInvariant,
            other => other,
        };
        let p = self.preds[&b];
        let threads: Vec<usize> =
            if args.iter().any(|a| self.log_dependent.contains(a)) { vec![0] } else { vec![0, 1] };
        let from_kernel = self.origin.get(&i).is_none_or(|(f, _)| *f == self.kernel || Some(*f) == self.contract_of);
        let what = self.loc_text(at);
        match kind {
            AnnotKind::Assert | AnnotKind::WarpMask | AnnotKind::Requires | AnnotKind::Ensures
                if kind != AnnotKind::Requires || !from_kernel =>
            {
                let (vk, msg) = if kind == AnnotKind::WarpMask {
                    (
                        ViolationKind::Assertion,
                        format!("the mask of the warp operation at {what} may not name the calling lane, or the lane it reads from (undefined in CUDA)"),
                    )
                } else if kind == AnnotKind::Assert {
                    (ViolationKind::Assertion, format!("assertion at {what} may fail"))
                } else if kind == AnnotKind::Ensures {
                    if !self.postconditions.contains(&i) {
                        return err("annotation `ensures` not supported yet", at);
                    }
                    (ViolationKind::Postcondition, format!("postcondition at {what} may not hold"))
                } else {
                    (ViolationKind::Precondition, format!("precondition at {what} may not hold"))
                };
                let mut conj = Vec::new();
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    conj.push(self.st.implies(p[t], c));
                }
                let ok = self.st.and(&conj);
                self.oblige(ok, ObKind::Annotation(vk), Some(i), msg, None);
            }
            AnnotKind::Assume | AnnotKind::Requires => {
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    let ok = self.st.implies(p[t], c);
                    self.assume(ok);
                }
            }
            AnnotKind::NoRead | AnnotKind::NoWrite => {
                let k = if kind == AnnotKind::NoRead { AccessKind::Read } else { AccessKind::Write };
                let has = self.log_has(0, args[0], k)?;
                let n = self.st.not(has);
                let ok = self.st.implies(p[0], n);
                self.oblige(
                    ok,
                    ObKind::Annotation(ViolationKind::Assertion),
                    Some(i),
                    format!("`__no_{}` at {what} may fail", k.name()),
                    None,
                );
            }
            AnnotKind::GlobalRequires | AnnotKind::GlobalAssert | AnnotKind::GlobalEnsures
                if kind != AnnotKind::GlobalRequires || !from_kernel =>
            {
                // A global assertion, a callee's global precondition
                // (GPUVerify's `__global_requires`) and a callee's global
                // postcondition (moved to its return by the inliner) must
                // hold for every thread, enabled or not.
                let (violation, message) = if kind == AnnotKind::GlobalAssert {
                    (ViolationKind::Assertion, format!("global assertion at {what} may fail"))
                } else if kind == AnnotKind::GlobalEnsures {
                    if !self.postconditions.contains(&i) {
                        return err("annotation `global_ensures` not supported yet", at);
                    }
                    (ViolationKind::Postcondition, format!("global postcondition at {what} may not hold"))
                } else {
                    (ViolationKind::Precondition, format!("global precondition at {what} may not hold"))
                };
                let mut conj = Vec::new();
                for &t in &threads {
                    conj.push(self.val_bool(t, args[0])?);
                }
                let ok = self.st.and(&conj);
                self.oblige(ok, ObKind::Annotation(violation), Some(i), message, None);
            }
            AnnotKind::GlobalRequires | AnnotKind::FreshArray => {
                // Dropping an assumption is sound: it only weakens the proof.
            }
            AnnotKind::FunctionWideInvariant | AnnotKind::FunctionWideCandidateInvariant
                if self.function_wide_placed =>
            {
                // Checked at the loop headers (see `function_wide`).
            }
            AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary => {
                // Checked and assumed at the next barrier (see `barrier_inv`).
                self.bi_annot(i, kind, args)?;
            }
            AnnotKind::Axiom => {
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    self.assume(c);
                }
            }
            AnnotKind::Invariant
            | AnnotKind::CandidateInvariant
            | AnnotKind::GlobalInvariant
            | AnnotKind::CandidateGlobalInvariant => {
                let global = matches!(kind, AnnotKind::GlobalInvariant | AnnotKind::CandidateGlobalInvariant);
                let candidate = matches!(kind, AnnotKind::CandidateInvariant | AnnotKind::CandidateGlobalInvariant);
                let l = match self.loops.by_header.get(&b) {
                    Some(&l) if self.region_stack.last() == Some(&l) => l,
                    _ => return err("loop invariant outside a loop header", at),
                };
                // A loop invariant holds for the threads that entered the
                // loop (their header values are frozen when they leave); a
                // global invariant holds for both threads unconditionally.
                let pe = self.loop_data[l].pe.expect("loop entry is set");
                let mut conj = Vec::new();
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    conj.push(if global { c } else { self.st.implies(pe[t], c) });
                }
                let term = self.st.and(&conj);
                if !self.allowed(term, self.loop_data[l].mark) {
                    if candidate {
                        return Ok(());
                    }
                    return err("loop invariant that reads memory is not supported", at);
                }
                let text = format!("user invariant at {what}");
                self.loop_data[l].user.push((candidate, text, term, i));
            }
            other => return err(format!("annotation `{}` not supported yet", other.name()), at),
        }
        Ok(())
    }

    /// Whether thread 1 has a logged access of kind `k` to the object `ptr`
    /// points to (`__read`/`__write`).
    pub(crate) fn log_has(&mut self, t: usize, ptr: ValueId, k: AccessKind) -> Res<TermId> {
        let Sym::Ptr { base, .. } = self.val(t, ptr)? else { return err("`__read`/`__write` of a non-pointer", None) };
        let mut opts = Vec::new();
        for (oi, obj) in self.objects.clone().iter().enumerate() {
            let Some(m) = obj.tracked else { continue };
            let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
            let is = self.st.eq(base, id);
            let h = self.logs.objs[m][k.index()].has;
            opts.push(self.st.and(&[is, h]));
        }
        Ok(self.st.or(&opts))
    }

    pub(crate) fn annot_value(&mut self, t: usize, b: BlockId, f: AnnotFn, args: &[ValueId], rty: Type, at: Option<SrcLoc>) -> Res<Sym> {
        let o = 1 - t;
        Ok(match f {
            AnnotFn::Enabled => Sym::Bool(self.preds[&b][t]),
            AnnotFn::SameGroup => Sym::Bool(self.same_group),
            AnnotFn::OtherInt | AnnotFn::OtherBool | AnnotFn::OtherPtr => {
                let s = self.val(o, args[0])?;
                match (s, rty) {
                    (Sym::Bv(x), Type::Int(1)) => Sym::Bool(self.as_bool(Sym::Bv(x))),
                    (Sym::Bool(x), Type::Int(w)) if w > 1 => {
                        let b = self.as_bv(Sym::Bool(x));
                        Sym::Bv(self.resize(b, w as u32, false))
                    }
                    _ => s,
                }
            }
            AnnotFn::UniformInt | AnnotFn::UniformBool | AnnotFn::DistinctInt | AnnotFn::DistinctBool => {
                let a = self.val(0, args[0])?;
                let c = self.val(1, args[0])?;
                let e = self.eq_sym(a, c);
                let r = if matches!(f, AnnotFn::DistinctInt | AnnotFn::DistinctBool) { self.st.not(e) } else { e };
                self.bool_result(r, rty)
            }
            AnnotFn::Implies => {
                let a = self.val_bool(t, args[0])?;
                let c = self.val_bool(t, args[1])?;
                let r = self.st.implies(a, c);
                self.bool_result(r, rty)
            }
            AnnotFn::Read | AnnotFn::Write => {
                let k = if f == AnnotFn::Read { AccessKind::Read } else { AccessKind::Write };
                let r = self.log_has(0, args[0], k)?;
                self.bool_result(r, rty)
            }
            AnnotFn::ReadOffset | AnnotFn::WriteOffset => {
                let k = if f == AnnotFn::ReadOffset { AccessKind::Read } else { AccessKind::Write };
                let Sym::Ptr { base, .. } = self.val(0, args[0])? else {
                    return err("offset annotation of a non-pointer", at);
                };
                let mut acc = self.st.bv_const(64, 0);
                for (oi, obj) in self.objects.clone().iter().enumerate() {
                    let Some(m) = obj.tracked else { continue };
                    let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
                    let is = self.st.eq(base, id);
                    acc = self.st.ite(is, self.logs.objs[m][k.index()].off, acc);
                }
                Sym::Bv(self.resize(acc, rty.bits(), false))
            }
            AnnotFn::PtrBase | AnnotFn::PtrOffset => {
                let Sym::Ptr { base, off } = self.val(t, args[0])? else {
                    return err("pointer annotation of a non-pointer", at);
                };
                let x = if f == AnnotFn::PtrBase { base } else { off };
                Sym::Bv(self.resize(x, rty.bits(), false))
            }
            other => return err(format!("annotation `{}` not supported yet", other.name()), at),
        })
    }

    pub(crate) fn bool_result(&mut self, r: TermId, rty: Type) -> Sym {
        match rty {
            Type::Int(1) => Sym::Bool(r),
            Type::Int(w) => {
                let one = self.st.bv_const(w as u32, 1);
                let zero = self.st.bv_const(w as u32, 0);
                Sym::Bv(self.st.ite(r, one, zero))
            }
            _ => Sym::Bool(r),
        }
    }
}
