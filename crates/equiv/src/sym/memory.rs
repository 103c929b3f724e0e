//! The engine's memory: objects as SMT arrays of elements of one width,
//! an overlay of writes at literal offsets, guarded writes, alignment
//! conditions, and the per-element writes of each output buffer that the
//! per-element equivalence check compares. An access wider than its
//! buffer's elements (a `half2` access to a `__half` buffer) is made
//! element by element.

use super::*;

impl Executor<'_> {
    /// The value that a load (`inst`) of an element of type `ty` at `off`
    /// of object `obj` reads, on path `p`.
    pub(super) fn load_at(&mut self, p: &Path, inst: InstId, obj: usize, off: TermId, ty: Type, loc: Option<SrcLoc>) -> Res<TermId> {
        let bits = self.access(p, obj, off, ty, loc)?;
        if let ObjKey::Param(i) = self.objs[obj].key {
            if self.iter_plan.is_none() && self.iter_written.contains(&i) {
                return unsupported("a read, after a loop with writes whose trip count is symbolic, of a buffer the loop writes", loc);
            }
        }
        let x = match self.objs[obj].key {
            ObjKey::Param(i) if self.post && self.param && self.objs[obj].written => {
                let ph = self.inp.st.fresh_const(&format!("{}.post.{}", self.tag, self.objs[obj].name), Sort::bv(bits));
                self.post_reads.push(PostRead { placeholder: ph, param: i, pc: p.pc, off, loc });
                ph
            }
            ObjKey::Shared(_) if self.post && self.param => {
                return unsupported("a postcondition that reads shared memory", loc);
            }
            ObjKey::Param(i) if self.post => self.final_element(i, obj, off),
            ObjKey::Shared(_) if self.summary_plan.is_some() => {
                return unsupported("a read of __shared__ memory in a loop whose trip count is symbolic", loc);
            }
            ObjKey::Param(i) if self.summary_plan.is_some() => {
                // The input, unless the kernel writes the buffer,
                // which the proof rules out.
                if let Some(plan) = self.summary_plan.as_mut() {
                    plan.reads.insert(i);
                    plan.read_offs.push(off);
                }
                self.read(obj, off)
            }
            ObjKey::Shared(g) if self.param && matches!(self.phase(), Some(Phase::Body | Phase::Suffix)) => {
                self.loop_shared_read(p, g, obj, off, bits, loc)?
            }
            ObjKey::Shared(g) if self.param => {
                // Another thread wrote what this one reads: a
                // placeholder that `param` resolves to the value of
                // the element's writer in an earlier round.
                if self.cas.iter().any(|c| c.target == Target::Shared(g) && c.interval == self.interval) {
                    return unsupported(
                        format!("`{}` is read in the barrier interval that writes it", self.objs[obj].name),
                        loc,
                    );
                }
                let ph = self.inp.st.fresh_const(&format!("{}.read.{}", self.tag, self.objs[obj].name), Sort::bv(bits));
                self.shared_reads.push(SharedRead {
                    placeholder: ph,
                    global: g,
                    interval: self.interval,
                    pc: p.pc,
                    off,
                    loc,
                });
                ph
            }
            ObjKey::Param(i) if self.param && !self.spec_loads.contains(&inst) => {
                // The thread's own view of the buffer: the input
                // with its own earlier writes. `param` proves that
                // no other thread writes the element read, which
                // makes this view the real one.
                let in_loop = matches!(self.phase(), Some(Phase::Body | Phase::Suffix));
                self.global_reads.push(GlobalRead { param: i, pc: p.pc, off, loc, in_loop });
                self.read(obj, off)
            }
            _ => self.read(obj, off),
        };
        // Reads that only state a postcondition are not reads of the
        // program.
        if let (ObjKey::Param(i), false, false) = (&self.objs[obj].key, self.post, self.spec_loads.contains(&inst)) {
            self.reads.insert(*i);
        }
        Ok(x)
    }

    /// A load of `k` elements of `eb` bits at once (a `half2` read of a
    /// `__half` buffer): the elements, lowest address in the lowest bits.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_split(&mut self, p: &Path, inst: InstId, obj: usize, off: TermId, k: u32, eb: u32, loc: Option<SrcLoc>) -> Res<TermId> {
        // The whole access must be aligned, as on the device.
        self.check_alignment(p, off, k * eb);
        let mut x = None;
        for i in 0..k {
            let step = self.inp.st.bv_const(64, (i * eb / 8) as u128);
            let o = self.inp.st.bvadd(off, step);
            let e = self.load_at(p, inst, obj, o, Type::Int(eb as u16), loc)?;
            x = Some(match x {
                None => e,
                Some(lo) => self.inp.st.concat(e, lo),
            });
        }
        Ok(x.expect("at least two elements"))
    }

    /// A store of `k` elements of `eb` bits at once: one write per
    /// element, the lowest address from the lowest bits of `v`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_split(&mut self, p: &Path, obj: usize, off: TermId, v: TermId, k: u32, eb: u32, loc: Option<SrcLoc>) -> Res<()> {
        self.check_alignment(p, off, k * eb);
        for i in 0..k {
            let step = self.inp.st.bv_const(64, (i * eb / 8) as u128);
            let o = self.inp.st.bvadd(off, step);
            self.access(p, obj, o, Type::Int(eb as u16), loc)?;
            let e = self.inp.st.extract(i * eb + eb - 1, i * eb, v);
            self.write(obj, o, e, p.pc);
        }
        Ok(())
    }

    /// A store of `v` (of type `ty`) at `off` of `obj` on path `p`: the
    /// checks of the modes that restrict writes, then the write (element
    /// by element when it is wider than the buffer's elements).
    pub(super) fn store_value(&mut self, p: &Path, obj: usize, off: TermId, v: TermId, ty: Type, loc: Option<SrcLoc>) -> Res<()> {
        if self.summary_plan.is_some() {
            return unsupported("a write in a loop whose trip count is symbolic", loc);
        }
        if let ObjKey::Param(i) = self.objs[obj].key {
            if self.iter_plan.is_none() && self.iter_written.contains(&i) {
                return unsupported("a write, after a loop with writes whose trip count is symbolic, to a buffer the loop writes", loc);
            }
        }
        if self.phase() == Some(Phase::Body) {
            if p.after_barrier.is_some() {
                return unsupported("a write between the loop's barrier and its next iteration", loc);
            }
            if !matches!(self.objs[obj].key, ObjKey::Shared(_)) {
                return unsupported(format!("the loop with a barrier writes `{}` (only __shared__ memory is aligned)", self.objs[obj].name), loc);
            }
        }
        if let Some((k, eb)) = self.split_access(obj, ty) {
            self.store_split(p, obj, off, v, k, eb, loc)?;
            return Ok(());
        }
        let bits = self.access(p, obj, off, ty, loc)?;
        debug_assert_eq!(self.inp.st.sort_of(v).bv_width(), Some(bits));
        self.write(obj, off, v, p.pc);
        Ok(())
    }

    /// A `memcpy` of a literal number of bytes (the copy of a small struct
    /// such as the prelude's `__half`, passed by value): element by element,
    /// a load and a store each, in the elements' width: the width either
    /// object already uses (they must agree), else the widest of 8, 4, 2
    /// and 1 bytes that divides the length.
    pub(super) fn mem_copy(&mut self, p: &Path, inst: InstId, dst: ValueId, src: ValueId, len: ValueId, loc: Option<SrcLoc>) -> Res<()> {
        let n = self.bv(p, len, loc)?;
        let Some(n) = self.inp.st.as_bv(n).and_then(|v| v.to_u128()) else {
            return unsupported("a memcpy of a symbolic number of bytes", loc);
        };
        if n > 64 {
            return unsupported("a memcpy of more than 64 bytes", loc);
        }
        let (sobj, soff) = self.pointer(p, src, loc)?;
        let (dobj, doff) = self.pointer(p, dst, loc)?;
        let known = |this: &Self, obj: usize| match (this.objs[obj].bits, &this.objs[obj].key) {
            (Some(b), _) => Some(b),
            (None, ObjKey::Param(i)) => this.inp.buffers.get(i).map(|b| b.0),
            _ => None,
        };
        let eb = match (known(self, sobj), known(self, dobj)) {
            (Some(a), Some(b)) if a != b => return unsupported("a memcpy between objects of different element widths", loc),
            (Some(a), _) | (None, Some(a)) => a,
            (None, None) => [64u32, 32, 16, 8].into_iter().find(|w| n % u128::from(w / 8) == 0).unwrap_or(8),
        };
        let size = u128::from((eb / 8).max(1));
        if n % size != 0 {
            return unsupported("a memcpy whose length is not a whole number of elements", loc);
        }
        if self.post && self.objs[sobj].written {
            return unsupported("a postcondition depends on a read of a written buffer outside the annotation", loc);
        }
        if matches!(self.objs[dobj].key, ObjKey::Local(..)) && self.inp.st.as_bv(doff).and_then(|v| v.to_u128()) == Some(0) {
            self.copied.insert(dobj, n);
        }
        let ty = Type::Int(eb as u16);
        for i in 0..n / size {
            let d = self.inp.st.bv_const(64, i * size);
            let (so, dof) = (self.inp.st.bvadd(soff, d), self.inp.st.bvadd(doff, d));
            let v = self.load_at(p, inst, sobj, so, ty, loc)?;
            self.store_value(p, dobj, dof, v, ty, loc)?;
        }
        Ok(())
    }

    /// `(k, bits)` when an access of type `ty` to `obj` covers `k > 1`
    /// elements of the `bits` wide elements that the object (or, for a
    /// buffer argument, the other kernel) already uses: the access is then
    /// made element by element. Vectorized `half2` code reads and writes a
    /// `__half` buffer 32 bits at a time.
    pub(super) fn split_access(&self, obj: usize, ty: Type) -> Option<(u32, u32)> {
        let Type::Int(bits) = ty else { return None };
        let bits = u32::from(bits);
        let known = match (self.objs[obj].bits, &self.objs[obj].key) {
            (Some(b), _) => b,
            (None, ObjKey::Param(i)) => self.inp.buffers.get(i)?.0,
            _ => return None,
        };
        (known >= 8 && bits > known && bits % known == 0 && bits / known <= 8).then_some((bits / known, known))
    }

    pub(super) fn pointer(&mut self, p: &Path, ptr: ValueId, loc: Option<SrcLoc>) -> Res<(usize, TermId)> {
        if let Some(SV::Ptr { obj, off }) = p.env.get(&ptr) {
            return Ok((*obj, *off));
        }
        match self.val(p, ptr, loc)? {
            SV::Ptr { obj, off } => Ok((obj, off)),
            _ => unsupported("an access through a non-pointer", loc),
        }
    }

    /// Checks an access's width against its object and records the
    /// condition under which its offset is misaligned.
    pub(super) fn access(&mut self, p: &Path, obj: usize, off: TermId, ty: Type, loc: Option<SrcLoc>) -> Res<u32> {
        let bits = if ty == Type::Int(1) { 8 } else { ty.bits() };
        match self.objs[obj].bits {
            Some(b) if b != bits => {
                return unsupported(format!("`{}` is accessed with {b}- and {bits}-bit values", self.objs[obj].name), loc)
            }
            Some(_) => {}
            None => {
                self.objs[obj].bits = Some(bits);
                let base = match self.objs[obj].key.clone() {
                    ObjKey::Param(i) => self.inp.buffer(i, bits, loc)?,
                    _ => {
                        let name = format!("{}.{}.init", self.tag, self.objs[obj].name);
                        self.inp.st.fresh_const(&name, Sort::array(Sort::bv(64), Sort::bv(bits)))
                    }
                };
                self.objs[obj].base = Some(base);
            }
        }
        self.check_alignment(p, off, bits);
        Ok(bits)
    }

    /// Records the condition under which an access of `bits` at `off` is
    /// misaligned (which the proof must rule out).
    pub(super) fn check_alignment(&mut self, p: &Path, off: TermId, bits: u32) {
        let size = (bits / 8).max(1) as u128;
        if size > 1 {
            let m = self.inp.st.bv_const(64, size - 1);
            let low = self.inp.st.bvand(off, m);
            let zero = self.inp.st.bv_const(64, 0);
            let aligned = self.inp.st.eq(low, zero);
            let bad = self.inp.st.not(aligned);
            let cond = self.inp.st.and(&[p.pc, bad]);
            if self.inp.st.as_bool(cond) != Some(false) {
                self.misaligned.push(cond);
            }
        }
    }

    pub(super) fn read(&mut self, obj: usize, off: TermId) -> TermId {
        self.read_bits(obj, off)
    }

    /// A postcondition's read of an output element. When the group writes
    /// the element (its address term is one the kernel writes), the value
    /// is that of its unique writer; otherwise another group or nobody
    /// wrote it, and the value is left unconstrained (sound: the proof then
    /// holds whatever that value is).
    pub(super) fn final_element(&mut self, param: usize, obj: usize, off: TermId) -> TermId {
        let found = match self.writes.get(&param) {
            Some(Some(w)) if w.self_overlap.is_empty() => w.elements.iter().find(|e| e.off == off).cloned(),
            _ => None,
        };
        match found {
            Some(e) => {
                let sort = self.inp.st.sort_of(e.value).clone();
                let other = self.inp.st.fresh_const("unwritten", sort);
                self.inp.st.ite(e.guard, e.value, other)
            }
            None => self.read(obj, off),
        }
    }

    /// Merges the recorded writes by parameter and address term.
    pub(super) fn element_writes(&mut self) -> HashMap<usize, Option<Writes>> {
        let mut out: HashMap<usize, Option<Writes>> = HashMap::new();
        let mut intervals: HashMap<usize, u32> = HashMap::new();
        let records = std::mem::take(&mut self.records);
        for r in &records {
            let ObjKey::Param(p) = self.objs[r.obj].key else { continue };
            let entry = out.entry(p).or_insert_with(|| Some(Writes::default()));
            if *intervals.entry(p).or_insert(r.interval) != r.interval {
                *entry = None;
            }
            let Some(w) = entry else { continue };
            match w.elements.iter_mut().find(|e| e.off == r.off) {
                Some(e) => {
                    e.value = self.inp.st.ite(r.pc, r.value, e.value);
                    e.guard = self.inp.st.or(&[e.guard, r.pc]);
                }
                None => w.elements.push(ElementWrite { off: r.off, guard: r.pc, value: r.value }),
            }
        }
        // Two writes of one thread at different address terms may still
        // hit one element.
        for (i, a) in records.iter().enumerate() {
            for b in &records[i + 1..] {
                if a.thread != b.thread || a.obj != b.obj || a.off == b.off {
                    continue;
                }
                let ObjKey::Param(p) = self.objs[a.obj].key else { continue };
                let same = self.inp.st.eq(a.off, b.off);
                let c = self.inp.st.and(&[a.pc, b.pc, same]);
                if self.inp.st.as_bool(c) != Some(false) {
                    if let Some(Some(w)) = out.get_mut(&p) {
                        w.self_overlap.push(c);
                    }
                }
            }
        }
        out
    }

    pub(super) fn read_bits(&mut self, obj: usize, off: TermId) -> TermId {
        if let Some(c) = self.inp.st.as_bv(off).and_then(|v| v.to_u128()) {
            if let Some(&v) = self.objs[obj].overlay.get(&c) {
                return v;
            }
        } else {
            self.flush(obj);
        }
        let base = self.objs[obj].base.expect("accessed objects have a base");
        self.inp.st.select(base, off)
    }

    pub(super) fn write(&mut self, obj: usize, off: TermId, v: TermId, pc: TermId) {
        self.objs[obj].written = true;
        if self.param {
            let target = match self.objs[obj].key {
                ObjKey::Param(p) => Some(Target::Param(p)),
                ObjKey::Shared(g) => Some(Target::Shared(g)),
                ObjKey::Local(..) => None,
            };
            if let Some(target) = target {
                self.cas.push(Assignment { target, interval: self.interval, guard: pc, off, value: v });
            }
        }
        if matches!(self.objs[obj].key, ObjKey::Param(_)) {
            self.records.push(Record { obj, interval: self.interval, thread: self.thread, pc, off, value: v });
        }
        let guarded = if self.inp.st.as_bool(pc) == Some(true) {
            v
        } else {
            let old = self.read_bits(obj, off);
            self.inp.st.ite(pc, v, old)
        };
        match self.inp.st.as_bv(off).and_then(|v| v.to_u128()) {
            Some(c) => {
                self.objs[obj].overlay.insert(c, guarded);
            }
            None => {
                self.flush(obj);
                let base = self.objs[obj].base.expect("accessed objects have a base");
                let stored = self.inp.st.store(base, off, guarded);
                self.name_base(obj, stored);
            }
        }
    }

    /// Folds the overlay into the base array, under a fresh name.
    pub(super) fn flush(&mut self, obj: usize) {
        if self.objs[obj].overlay.is_empty() {
            return;
        }
        let overlay = std::mem::take(&mut self.objs[obj].overlay);
        let mut arr = self.objs[obj].base.expect("accessed objects have a base");
        for (c, v) in overlay {
            let i = self.inp.st.bv_const(64, c);
            arr = self.inp.st.store(arr, i, v);
        }
        self.name_base(obj, arr);
    }

    pub(super) fn name_base(&mut self, obj: usize, arr: TermId) {
        // The one-thread mode hands over terms, not definitions: keep the
        // stores (reads over them simplify when the index is the same term).
        if self.param {
            self.objs[obj].base = Some(arr);
            return;
        }
        let sort = self.inp.st.sort_of(arr).clone();
        let name = format!("{}.{}", self.tag, self.objs[obj].name);
        let fresh = self.inp.st.fresh_const(&name, sort);
        let def = self.inp.st.eq(fresh, arr);
        self.defs.push(def);
        self.objs[obj].base = Some(fresh);
    }
}
