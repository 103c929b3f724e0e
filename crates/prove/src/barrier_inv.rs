//! Barrier invariants (`__barrier_invariant_N`, `__barrier_invariant_binary_N`),
//! checked, never trusted: GPUVerify's shared-state abstraction for
//! data-dependent kernels (Chong et al., OOPSLA 2013; section 4.4 of the
//! seed chapter on GPUVerify).
//!
//! Without barrier invariants every load returns an arbitrary value (the
//! adversarial abstraction). A kernel with barrier invariants gets a memory
//! model for the shared arrays its invariants read (the *modelled* objects):
//!
//! - Each barrier interval has an *epoch*; the contents at the start of an
//!   epoch are an uninterpreted function of the group and the byte offset
//!   (`bimem_o_e(group, offset)`), so two threads of one group see one
//!   instance of the array and threads of different groups different ones.
//!   The two threads' stores in the interval are kept as a list and a load
//!   reads the latest matching store of its own group, or the epoch's
//!   contents. Reading a store of another thread of the same interval is a
//!   race, which the race checks report, so this is exact for race-free
//!   executions; other threads' stores only matter at barriers.
//! - *Known* bytes: those the two threads accessed (by program loads and
//!   stores) since the last barrier. No other thread can have written them
//!   without a race that some pair of threads reports.
//! - At a barrier, each invariant stated just before it is checked for the
//!   two threads on the state where known bytes keep their values and every
//!   other byte is arbitrary (a fresh function: other threads may have
//!   written it). A unary invariant is checked for each enabled thread, a
//!   binary one for the pair when both are in one group. Because the two
//!   threads are arbitrary, this proves it for all threads (pairs).
//! - After the barrier a new epoch starts with unconstrained contents, and
//!   each invariant is assumed for its instantiations: the invariant with
//!   the local id (x) replaced by an instantiation expression (for a binary
//!   one, the pair's ids, `__other_int(e)` meaning `e` for the second), only
//!   where that is a thread of the group (`< local size`), and for a binary
//!   one only for two distinct threads, as the check covered nothing else.
//!
//! So that the substitution means "the invariant for that thread", an
//! invariant may depend only on the local id, values uniform in the group
//! (constants, scalar arguments, sizes and group ids), pure computations and
//! loads from modelled objects; anything else makes the kernel `Unknown`, as
//! do the constructs this model leaves out: a modelled object accessed by a
//! pointer that is not statically its own, by atomics or bulk copies, or in
//! a loop that accesses it or has a barrier; a barrier invariant not
//! directly before a group barrier that fences shared memory.
//!
//! `__read_permission`/`__write_permission` (which mark bytes known without
//! accessing them) are not modelled: the front-end drops them, so invariants
//! that rely on them fail their check (a false alarm, never a missed bug).

use std::collections::HashMap;

use lockstep_kir::{
    AnnotFn, AnnotKind, BarrierScope, BlockId, BuiltinVar, FenceFlags, InstId, InstKind, MemSpace, Type, ValueDef,
    ValueId,
};
use lockstep_diag::ViolationKind;
use lockstep_smt::{Sort, TermId};

use crate::encode::{EncodeError, Enc, ObKind, Sym};

type Res<T> = Result<T, EncodeError>;

fn err<T>(reason: impl Into<String>, at: Option<lockstep_kir::SrcLoc>) -> Res<T> {
    Err(EncodeError { reason: reason.into(), at })
}

/// A store of the current interval to a modelled object.
#[derive(Clone, Debug)]
struct BiWrite {
    /// The storing thread.
    thread: usize,
    guard: TermId,
    obj: usize,
    off: TermId,
    /// The stored bytes (bv8), lowest address first.
    bytes: Vec<TermId>,
}

/// An access of the current interval to a modelled object (for known bytes).
#[derive(Clone, Debug)]
struct BiAccess {
    thread: usize,
    guard: TermId,
    obj: usize,
    off: TermId,
    width: TermId,
}

/// A barrier invariant waiting for its barrier.
#[derive(Clone, Debug)]
struct Pending {
    inst: InstId,
    binary: bool,
    /// The invariant.
    cond: ValueId,
    /// The instantiations, as each thread's values (pairs for binary ones).
    inst_vals: [Vec<TermId>; 2],
}

/// The memory model of a kernel with barrier invariants.
#[derive(Clone, Debug, Default)]
pub struct BiState {
    /// Modelled objects (indices into `Enc::objects`).
    objs: Vec<usize>,
    epoch: usize,
    writes: Vec<BiWrite>,
    accesses: Vec<BiAccess>,
    pending: Vec<Pending>,
}

/// How a re-evaluated invariant reads memory.
#[derive(Copy, Clone)]
enum View {
    /// Known bytes as they are, other bytes from this barrier's fresh
    /// contents (the check).
    Known(usize),
    /// The current contents (the assumption, at the start of an epoch).
    Current,
}

/// The context of one re-evaluation of an invariant.
#[derive(Copy, Clone)]
struct Ctx {
    /// The thread whose group (memory, group ids) and uniform values are used.
    t: usize,
    /// The local id (x) the invariant is instantiated for (bv32).
    lid: TermId,
    /// For binary invariants: the second thread's local id (x).
    other: Option<TermId>,
    view: View,
}

impl Enc<'_> {
    /// Sets up the memory model if the kernel has barrier invariants, and
    /// rejects what the model does not cover.
    pub(crate) fn setup_barrier_invariants(&mut self) -> Res<()> {
        let mut annots = Vec::new();
        for b in self.cfg.rpo.clone() {
            for &i in &self.func.blocks[b].insts {
                if let InstKind::Annot { kind: AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary, args } =
                    &self.func.insts[i].kind
                {
                    annots.push((b, i, args[0]));
                }
            }
        }
        if annots.is_empty() || self.config.no_annotations || self.config.only_requires {
            return Ok(());
        }
        // The modelled objects: those the invariants load from.
        let mut objs: Vec<usize> = Vec::new();
        for &(_, i, cond) in &annots {
            let mut stack = vec![cond];
            let mut seen = std::collections::HashSet::new();
            while let Some(v) = stack.pop() {
                if !seen.insert(v) {
                    continue;
                }
                if let ValueDef::Inst(d) = self.func.values[v].def {
                    let kind = &self.func.insts[d].kind;
                    if let InstKind::Load { ptr, .. } = kind {
                        let o = self.static_object(*ptr).filter(|&o| {
                            self.objects[o].space == MemSpace::Shared && self.objects[o].size.is_some()
                        });
                        let Some(o) = o else {
                            return err(
                                "barrier invariant that reads memory other than a shared array of known size",
                                self.loc(i),
                            );
                        };
                        if !objs.contains(&o) {
                            objs.push(o);
                        }
                    }
                    stack.extend(kind.operands());
                } else if let ValueDef::BlockParam(blk, k) = self.func.values[v].def {
                    // A conditional expression compiled to branches.
                    if let Some((c, a, e)) = self.cfg.gated_param(self.func, blk, k as usize) {
                        stack.extend([c, a, e]);
                    }
                }
            }
        }
        // Other shared arrays of known size are modelled too when they can
        // be (what a thread reads back of its own writes after a barrier
        // can matter as much as what the invariants say).
        let mut candidates = objs.clone();
        for (o, obj) in self.objects.iter().enumerate() {
            if obj.space == MemSpace::Shared && obj.size.is_some() && !candidates.contains(&o) {
                candidates.push(o);
            }
        }
        let mut modelled = Vec::new();
        for o in candidates {
            match self.modelling_obstacle(o) {
                None => modelled.push(o),
                Some((reason, at)) if objs.contains(&o) => return err(reason, at),
                Some(_) => {}
            }
        }
        let objs = modelled;
        // Each invariant must directly precede its barrier (in its block,
        // with only annotations and pure computations in between).
        for &(b, i, _) in &annots {
            let insts = &self.func.blocks[b].insts;
            let pos = insts.iter().position(|&x| x == i).expect("annotation in its block");
            let next = insts[pos + 1..].iter().find(|&&x| {
                let k = &self.func.insts[x].kind;
                let spec_load = matches!(k, InstKind::Load { .. }) && self.is_spec_load(x);
                !(spec_load
                    || k.is_pure_computation()
                    || matches!(k, InstKind::Annot { .. } | InstKind::AnnotValue { .. }))
            });
            let ok = next.is_some_and(|&x| {
                matches!(self.func.insts[x].kind, InstKind::Barrier { scope: BarrierScope::Group, fence, .. } if fence.shared)
            });
            if !ok {
                return err("barrier invariant not directly before a barrier that fences shared memory", self.loc(i));
            }
        }
        self.assumptions.push(
            "shared arrays read by barrier invariants are modelled (their contents at each barrier satisfy the checked invariants)"
                .into(),
        );
        self.bi = Some(BiState { objs, ..BiState::default() });
        Ok(())
    }

    /// Why object `o` cannot be modelled, if it cannot: every access that
    /// may reach it must be a plain load or store through a pointer
    /// statically into it, outside loops (the loop state does not include
    /// memory contents), and no loop may hold a barrier.
    fn modelling_obstacle(&self, o: usize) -> Option<(String, Option<lockstep_kir::SrcLoc>)> {
        for &b in &self.cfg.rpo {
            let in_loop = self.loops.innermost(b).is_some();
            for &i in &self.func.blocks[b].insts {
                let at = self.loc(i);
                let kind = &self.func.insts[i].kind;
                let ptrs: Vec<ValueId> = match kind {
                    InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } => vec![*ptr],
                    InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => vec![*ptr],
                    InstKind::MemCopy { dst, src, .. } => vec![*dst, *src],
                    InstKind::MemSet { dst, .. } => vec![*dst],
                    InstKind::Barrier { .. } if in_loop => {
                        return Some(("barrier invariants in a kernel with a barrier in a loop are not supported".into(), at))
                    }
                    _ => continue,
                };
                let plain = matches!(kind, InstKind::Load { .. } | InstKind::Store { .. });
                for p in ptrs {
                    let stat = self.static_object(p);
                    let reaches = match stat {
                        Some(x) => x == o,
                        None => {
                            let space = match self.func.value_type(p) {
                                Type::Ptr(s) => s,
                                _ => MemSpace::Generic,
                            };
                            crate::encode::space_compatible(space, self.objects[o].space)
                        }
                    };
                    if !reaches {
                        continue;
                    }
                    if stat.is_none() {
                        return Some((
                            "barrier invariants over an array that a pointer of unknown target may reach".into(),
                            at,
                        ));
                    }
                    if !plain {
                        return Some(("barrier invariants over an array accessed by atomics or bulk copies".into(), at));
                    }
                    if in_loop {
                        return Some(("barrier invariants over an array accessed in a loop are not supported".into(), at));
                    }
                }
            }
        }
        None
    }

    fn modelled(&self, ptr: ValueId) -> Option<usize> {
        let bi = self.bi.as_ref()?;
        self.static_object(ptr).filter(|o| bi.objs.contains(o))
    }

    /// The value of a load of `ty` through `ptr` by thread `t`, if it reads
    /// a modelled object; a program load (`program`) also makes its bytes
    /// known.
    pub(crate) fn bi_load(&mut self, t: usize, b: BlockId, ptr: ValueId, ty: Type, program: bool) -> Res<Option<Sym>> {
        let Some(o) = self.modelled(ptr) else { return Ok(None) };
        let Sym::Ptr { off, .. } = self.val(t, ptr)? else { return Ok(None) };
        let n = ty.store_size();
        if program {
            let guard = self.preds[&b][t];
            let width = self.st.bv_const(64, n as u128);
            self.bi.as_mut().expect("modelled").accesses.push(BiAccess { thread: t, guard, obj: o, off, width });
        }
        if ty.is_ptr() {
            // Pointers are not modelled: an arbitrary one, as without the model.
            return Ok(None);
        }
        let v = self.read_bytes(t, o, off, n, View::Current);
        Ok(Some(self.bytes_to_sym(v, ty)))
    }

    /// Records the stores of both threads to a modelled object.
    pub(crate) fn bi_store(&mut self, b: BlockId, ptr: ValueId, value: ValueId) -> Res<()> {
        let Some(o) = self.modelled(ptr) else { return Ok(()) };
        let ty = self.func.value_type(value);
        let n = ty.store_size();
        for t in 0..2 {
            let Sym::Ptr { off, .. } = self.val(t, ptr)? else { return err("store through a non-pointer", None) };
            let bits = match self.val(t, value)? {
                Sym::Bool(x) => {
                    let one = self.st.bv_const(8, 1);
                    let zero = self.st.bv_const(8, 0);
                    self.st.ite(x, one, zero)
                }
                Sym::Bv(x) => x,
                Sym::Ptr { .. } => return err("a pointer stored into an array read by a barrier invariant", None),
            };
            let w = self.st.sort_of(bits).bv_width().unwrap_or(8);
            let bits = if w < 8 * n as u32 { self.st.zero_extend(8 * n as u32 - w, bits) } else { bits };
            let bytes: Vec<TermId> = (0..n as u32).map(|k| self.st.extract(8 * k + 7, 8 * k, bits)).collect();
            let guard = self.preds[&b][t];
            let width = self.st.bv_const(64, n as u128);
            let bi = self.bi.as_mut().expect("modelled");
            bi.writes.push(BiWrite { thread: t, guard, obj: o, off, bytes });
            bi.accesses.push(BiAccess { thread: t, guard, obj: o, off, width });
        }
        Ok(())
    }

    /// Whether the store or access of `thread` affects what thread `t` sees
    /// (its own, or one of its group).
    fn applies(&mut self, thread: usize, t: usize) -> TermId {
        if thread == t {
            self.st.true_()
        } else {
            self.same_group
        }
    }

    /// One byte of object `o` at `addr` as thread `t` sees it.
    fn read_byte(&mut self, t: usize, o: usize, addr: TermId, view: View) -> TermId {
        let bi = self.bi.clone().expect("modelled");
        let mut args = self.gid[t].to_vec();
        args.push(addr);
        let current = {
            let mut acc = self.uf(&format!("bimem{o}_{}", bi.epoch), &args, Sort::bv(8));
            for w in bi.writes.iter().filter(|w| w.obj == o) {
                let applies = self.applies(w.thread, t);
                for (k, &byte) in w.bytes.iter().enumerate() {
                    let k = self.st.bv_const(64, k as u128);
                    let at = self.st.bvadd(w.off, k);
                    let here = self.st.eq(addr, at);
                    let c = self.st.and(&[applies, w.guard, here]);
                    acc = self.st.ite(c, byte, acc);
                }
            }
            acc
        };
        match view {
            View::Current => current,
            View::Known(barrier) => {
                let mut known = Vec::new();
                for a in bi.accesses.iter().filter(|a| a.obj == o) {
                    let applies = self.applies(a.thread, t);
                    let d = self.st.bvsub(addr, a.off);
                    let inside = self.st.bvult(d, a.width);
                    known.push(self.st.and(&[applies, a.guard, inside]));
                }
                let known = self.st.or(&known);
                let unknown = self.uf(&format!("biother{o}_{barrier}"), &args, Sort::bv(8));
                self.st.ite(known, current, unknown)
            }
        }
    }

    /// `n` bytes (little-endian) as one bit-vector.
    fn read_bytes(&mut self, t: usize, o: usize, off: TermId, n: u64, view: View) -> TermId {
        let mut acc: Option<TermId> = None;
        for k in 0..n.max(1) {
            let kk = self.st.bv_const(64, k as u128);
            let addr = self.st.bvadd(off, kk);
            let byte = self.read_byte(t, o, addr, view);
            acc = Some(match acc {
                None => byte,
                Some(low) => self.st.concat(byte, low),
            });
        }
        acc.expect("at least one byte")
    }

    fn bytes_to_sym(&mut self, v: TermId, ty: Type) -> Sym {
        match ty {
            Type::Int(1) => {
                let low = self.st.extract(0, 0, v);
                let one = self.st.bv_const(1, 1);
                Sym::Bool(self.st.eq(low, one))
            }
            Type::Int(w) | Type::Float(w) => {
                let have = self.st.sort_of(v).bv_width().unwrap_or(8);
                Sym::Bv(if have == w as u32 { v } else { self.st.extract(w as u32 - 1, 0, v) })
            }
            Type::Ptr(_) => unreachable!("pointers are not modelled"),
        }
    }

    /// Records a barrier invariant for the next barrier.
    pub(crate) fn bi_annot(&mut self, i: InstId, kind: AnnotKind, args: &[ValueId]) -> Res<()> {
        let at = self.loc(i);
        if self.bi.is_none() {
            return err("internal: barrier invariant without its memory model", at);
        }
        let binary = kind == AnnotKind::BarrierInvariantBinary;
        let insts = &args[1..];
        if binary && !insts.len().is_multiple_of(2) {
            return err("binary barrier invariant with an odd number of instantiations", at);
        }
        let mut inst_vals = [Vec::new(), Vec::new()];
        for t in 0..2 {
            for &e in insts {
                let v = self.val_bv(t, e)?;
                inst_vals[t].push(self.resize_u(v, 32));
            }
        }
        self.bi.as_mut().expect("checked").pending.push(Pending { inst: i, binary, cond: args[0], inst_vals });
        Ok(())
    }

    fn resize_u(&mut self, v: TermId, to: u32) -> TermId {
        let w = self.st.sort_of(v).bv_width().unwrap_or(1);
        if w == to {
            v
        } else if w < to {
            self.st.zero_extend(to - w, v)
        } else {
            // An instantiation that does not fit 32 bits is no thread id:
            // map it to one that fails the `< local size` test.
            let hi = self.st.extract(w - 1, to, v);
            let zero = self.st.bv_const(w - to, 0);
            let fits = self.st.eq(hi, zero);
            let low = self.st.extract(to - 1, 0, v);
            let big = self.st.bv_const(to, u32::MAX as u128);
            self.st.ite(fits, low, big)
        }
    }

    /// A barrier: checks the pending invariants, starts a new epoch and
    /// assumes their instantiations. `p` are the threads' predicates.
    pub(crate) fn bi_barrier(&mut self, i: InstId, p: [TermId; 2], scope: BarrierScope, fence: FenceFlags) -> Res<()> {
        let Some(bi) = self.bi.clone() else { return Ok(()) };
        let at = self.loc(i);
        let synchronises_shared = scope == BarrierScope::Group && fence.shared;
        if !bi.pending.is_empty() && !synchronises_shared {
            return err("barrier invariant before a barrier that does not fence shared memory", at);
        }
        let barrier = bi.epoch;
        // 1. The checks, on the state with unknown bytes arbitrary.
        for pd in &bi.pending {
            let what = self.loc_text(self.loc(pd.inst));
            let mut conj = Vec::new();
            if pd.binary {
                let both = self.st.and(&[p[0], p[1], self.same_group]);
                let ctx = Ctx { t: 0, lid: self.lid[0][0], other: Some(self.lid[1][0]), view: View::Known(barrier) };
                let c = self.bi_eval_bool(pd.cond, ctx)?;
                conj.push(self.st.implies(both, c));
            } else {
                for t in 0..2 {
                    let ctx = Ctx { t, lid: self.lid[t][0], other: None, view: View::Known(barrier) };
                    let c = self.bi_eval_bool(pd.cond, ctx)?;
                    conj.push(self.st.implies(p[t], c));
                }
            }
            let ok = self.st.and(&conj);
            self.oblige(
                ok,
                ObKind::Annotation(ViolationKind::Assertion),
                Some(pd.inst),
                format!("barrier invariant at {what} may not hold at the barrier"),
                None,
            );
        }
        // 2. A new epoch: other threads' stores are now visible, so the
        //    contents are unconstrained...
        {
            let bi = self.bi.as_mut().expect("modelled");
            bi.epoch += 1;
            bi.writes.clear();
            bi.accesses.clear();
            bi.pending.clear();
        }
        // 3. ...except for what the invariants say.
        let gs_x = self.gs[0];
        for pd in &bi.pending {
            for t in 0..2 {
                let mut conj = Vec::new();
                if pd.binary {
                    for pair in pd.inst_vals[t].chunks(2) {
                        let (a, b) = (pair[0], pair[1]);
                        let ctx = Ctx { t, lid: a, other: Some(b), view: View::Current };
                        let c = self.bi_eval_bool(pd.cond, ctx)?;
                        let ia = self.st.bvult(a, gs_x);
                        let ib = self.st.bvult(b, gs_x);
                        let same = self.st.eq(a, b);
                        let distinct = self.st.not(same);
                        let pre = self.st.and(&[p[t], ia, ib, distinct]);
                        conj.push(self.st.implies(pre, c));
                    }
                } else {
                    for &x in &pd.inst_vals[t] {
                        let ctx = Ctx { t, lid: x, other: None, view: View::Current };
                        let c = self.bi_eval_bool(pd.cond, ctx)?;
                        let ix = self.st.bvult(x, gs_x);
                        let pre = self.st.and(&[p[t], ix]);
                        conj.push(self.st.implies(pre, c));
                    }
                }
                let all = self.st.and(&conj);
                self.assume(all);
            }
        }
        Ok(())
    }

    fn bi_eval_bool(&mut self, v: ValueId, ctx: Ctx) -> Res<TermId> {
        let mut memo = HashMap::new();
        let s = self.bi_eval(v, ctx, &mut memo)?;
        Ok(self.as_bool(s))
    }

    /// Re-evaluates the invariant's value `v` in `ctx` (see the module docs
    /// for what it may depend on).
    fn bi_eval(&mut self, v: ValueId, ctx: Ctx, memo: &mut HashMap<ValueId, Sym>) -> Res<Sym> {
        if let Some(&s) = memo.get(&v) {
            return Ok(s);
        }
        let ty = self.func.value_type(v);
        let s = match self.func.values[v].def.clone() {
            ValueDef::Inst(i) => {
                let at = self.loc(i);
                let kind = self.func.insts[i].kind.clone();
                match kind {
                    InstKind::Builtin { var: BuiltinVar::LocalId, dim: 0 } => {
                        let w = ty.bits();
                        Sym::Bv(self.resize_u(ctx.lid, w))
                    }
                    InstKind::Builtin { var: BuiltinVar::LocalId, .. } => {
                        // The instantiated thread shares y and z with thread t.
                        self.val(ctx.t, v)?
                    }
                    InstKind::Builtin { .. } => self.val(ctx.t, v)?,
                    InstKind::Binary { op, lhs, rhs } => {
                        let a = self.bi_eval(lhs, ctx, memo)?;
                        let b = self.bi_eval(rhs, ctx, memo)?;
                        self.binary(op, a, b)
                    }
                    InstKind::Icmp { cc, lhs, rhs } => {
                        let a = self.bi_eval(lhs, ctx, memo)?;
                        let b = self.bi_eval(rhs, ctx, memo)?;
                        Sym::Bool(self.icmp(cc, a, b))
                    }
                    InstKind::Select { cond, then_value, else_value } => {
                        let c = self.bi_eval(cond, ctx, memo)?;
                        let c = self.as_bool(c);
                        let a = self.bi_eval(then_value, ctx, memo)?;
                        let b = self.bi_eval(else_value, ctx, memo)?;
                        self.ite_sym(c, a, b)
                    }
                    InstKind::Cast { op, arg } => {
                        let a = self.bi_eval(arg, ctx, memo)?;
                        let from = self.func.value_type(arg);
                        self.cast(op, a, from, ty)
                    }
                    InstKind::PtrAdd { base, offset } => {
                        let b = self.bi_eval(base, ctx, memo)?;
                        let o = self.bi_eval(offset, ctx, memo)?;
                        let o = self.as_bv(o);
                        let w = self.st.sort_of(o).bv_width().unwrap_or(64);
                        let o = if w < 64 { self.st.sign_extend(64 - w, o) } else { o };
                        match b {
                            Sym::Ptr { base, off } => Sym::Ptr { base, off: self.st.bvadd(off, o) },
                            _ => return err("pointer arithmetic on a non-pointer", at),
                        }
                    }
                    InstKind::Load { ptr, .. } => {
                        let Some(o) = self.modelled(ptr) else {
                            return err("barrier invariant that reads memory other than a shared array of known size", at);
                        };
                        if ty.is_ptr() {
                            return err("barrier invariant that reads a pointer", at);
                        }
                        let Sym::Ptr { off, .. } = self.bi_eval(ptr, ctx, memo)? else {
                            return err("load through a non-pointer", at);
                        };
                        let bytes = self.read_bytes(ctx.t, o, off, ty.store_size(), ctx.view);
                        self.bytes_to_sym(bytes, ty)
                    }
                    InstKind::AnnotValue { func: AnnotFn::OtherInt | AnnotFn::OtherBool, args } => {
                        let Some(other) = ctx.other else {
                            return err("`__other_*` in a unary barrier invariant", at);
                        };
                        // The argument for the second thread: its own memo,
                        // since the same values mean something else there.
                        let octx = Ctx { lid: other, other: None, ..ctx };
                        let mut omemo = HashMap::new();
                        let s = self.bi_eval(args[0], octx, &mut omemo)?;
                        match (s, ty) {
                            (Sym::Bv(x), Type::Int(1)) => Sym::Bool(self.as_bool(Sym::Bv(x))),
                            (Sym::Bool(x), Type::Int(w)) if w > 1 => {
                                let b = self.as_bv(Sym::Bool(x));
                                Sym::Bv(self.resize_u(b, w as u32))
                            }
                            _ => s,
                        }
                    }
                    InstKind::AnnotValue { func: AnnotFn::Implies, args } => {
                        let a = self.bi_eval(args[0], ctx, memo)?;
                        let a = self.as_bool(a);
                        let c = self.bi_eval(args[1], ctx, memo)?;
                        let c = self.as_bool(c);
                        let r = self.st.implies(a, c);
                        match ty {
                            Type::Int(w) if w > 1 => {
                                let one = self.st.bv_const(w as u32, 1);
                                let zero = self.st.bv_const(w as u32, 0);
                                Sym::Bv(self.st.ite(r, one, zero))
                            }
                            _ => Sym::Bool(r),
                        }
                    }
                    InstKind::AnnotValue { func: AnnotFn::SameGroup, .. } => Sym::Bool(self.same_group),
                    _ => return err("barrier invariant with a construct it cannot be instantiated with", at),
                }
            }
            ValueDef::BlockParam(blk, k) => {
                // A conditional expression (`c ? a : b`, `__ite`) compiled
                // to a branch: the value chosen by the branch's condition.
                let Some((cond, then_v, else_v)) = self.cfg.gated_param(self.func, blk, k as usize) else {
                    return err(
                        "barrier invariant that depends on a value other than thread ids, sizes and memory",
                        None,
                    );
                };
                let c = self.bi_eval(cond, ctx, memo)?;
                let c = self.as_bool(c);
                let a = self.bi_eval(then_v, ctx, memo)?;
                let b = self.bi_eval(else_v, ctx, memo)?;
                self.ite_sym(c, a, b)
            }
            ValueDef::Param(k) if matches!(ty, Type::Ptr(MemSpace::Private)) => {
                let _ = k;
                return err("barrier invariant that depends on a by-value struct argument", None);
            }
            // Constants, scalar arguments (the same for every thread) and
            // addresses of objects.
            _ => self.val(ctx.t, v)?,
        };
        memo.insert(v, s);
        Ok(s)
    }
}
