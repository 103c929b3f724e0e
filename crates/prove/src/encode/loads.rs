//! The values loads return: the memory model's refinements of the
//! adversarial abstraction (read consistency within a thread and between
//! the two threads, the equality abstraction, unwritten objects, read-only
//! by-value arguments, initialised OpenCL constants, and store-to-load
//! forwarding in private memory). Which loads qualify is decided by the
//! pre-analyses of `lockstep_analysis::memory`.

use super::*;

impl<'a> Enc<'a> {
    /// Cross-thread read consistency: when both threads of one group
    /// execute a load of a shared or global object at the same address,
    /// they read the same value (assumed on the path). Both reads lie in one barrier interval (threads of a
    /// group pass barriers together, and barrier divergence is checked),
    /// so they can only differ if some thread wrote the bytes in that
    /// interval between them; such a write races with one of the two reads
    /// (with thread 1's if another thread wrote, with thread 2's if thread
    /// 1 did), and the race checks report it, unless it wrote the value the
    /// reader's own latest write left there (a benign race), which changes
    /// nothing. So, like `find_consistent_loads` and the equality
    /// abstraction, this hides no first race, and it rests on the same
    /// condition: `every_race_checked_on` the object. It makes
    /// a branch on a shared value all threads read after a barrier
    /// (`if (p[0] == 22) barrier()`) uniform. Loads of pointers stay
    /// adversarial, and so do loads whose values only flow back into memory
    /// (`control_relevant`): there the fact could change no verdict and
    /// only costs the solver time.
    pub(crate) fn same_read(&mut self, b: BlockId, ptr: ValueId, v1: Sym, v2: Sym) -> Res<()> {
        if matches!(v1, Sym::Ptr { .. }) {
            return Ok(());
        }
        let Some(o) = self.static_object(ptr) else { return Ok(()) };
        if self.objects[o].tracked.is_none() || !self.every_race_checked_on(o) {
            return Ok(());
        }
        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (self.val(0, ptr)?, self.val(1, ptr)?) else {
            return Ok(());
        };
        const SAME_READ: &str = "two threads of one group that read one location at the same instruction read the same value (a write between the reads races with one of them, which is checked)";
        if !self.assumptions.iter().any(|a| a == SAME_READ) {
            self.assumptions.push(SAME_READ.into());
        }
        let p = self.preds[&b];
        let same_base = self.st.eq(b1, b2);
        let same_off = self.st.eq(o1, o2);
        let same = self.st.and(&[p[0], p[1], self.same_group, same_base, same_off]);
        // Assumed rather than substituted: thread 2's value may already be
        // tied to its own earlier read (`consistent_load`), and both hold.
        let equal = self.eq_sym(v1, v2);
        let fact = self.st.implies(same, equal);
        self.assume(fact);
        Ok(())
    }

    /// GPUVerify's equality abstraction (`--equality-abstraction`): two
    /// loads of the same bytes by the two threads of one group, with no
    /// write of either thread to the object (nor a barrier) between them,
    /// return the same value, a function of the object's version and the
    /// offset. That holds in every execution in which no race is reported
    /// before the loads: a write of another thread to those bytes in the
    /// interval races with a load (unless the loading thread wrote the
    /// bytes itself, and then all such writes wrote its value), and the
    /// two threads' own writes of them race unless they are equal. So the
    /// abstraction can hide no first race. It relies on every race being
    /// checked: not with `--only-intra-group` for global memory (another
    /// group's writes are not checked), nor with `--warp-sync` (threads of
    /// one warp do not race), `--only-divergence` or for objects
    /// `/checkArrays` leaves out. Loads of pointers stay adversarial.
    pub(crate) fn equal_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        if !self.config.equality_abstraction || self.config.warp_size.is_some() || self.config.only_divergence {
            return Ok(otherwise);
        }
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        let Some(sort) = scalar_sort(ty) else { return Ok(otherwise) };
        let mut acc = otherwise;
        for (o, obj) in self.objects.clone().iter().enumerate() {
            let Some(m) = obj.tracked else { continue };
            if obj.space != MemSpace::Shared && self.config.only_intra_group {
                continue;
            }
            // Races on objects `/checkArrays` leaves out are not checked.
            if !self.config.races_checked_on(&obj.name) {
                continue;
            }
            let id = self.st.bv_const(BASE_BITS, o as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            let args = [self.mem_version[m], off];
            let v = self.uf(&format!("contents{m}"), &args, sort.clone());
            let v = if sort == Sort::Bool { Sym::Bool(v) } else { Sym::Bv(v) };
            // Threads of different groups share no interval.
            let v = self.ite_sym(self.same_group, v, otherwise);
            acc = self.ite_sym(is, v, acc);
        }
        Ok(acc)
    }

    /// The value of a load that may read an unwritten object: the same for
    /// both threads and at all times (a function of the offset), `otherwise`
    /// elsewhere.
    pub(crate) fn unwritten_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        let Some(sort) = scalar_sort(ty) else { return Ok(otherwise) };
        let mut acc = otherwise;
        for o in self.unwritten.clone() {
            let id = self.st.bv_const(BASE_BITS, o as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            // Each group has its own instance of a shared object.
            let mut args = vec![off];
            if self.objects[o].space == MemSpace::Shared {
                args.extend(self.gid[t]);
            }
            let v = self.uf(&format!("unwritten{o}"), &args, sort.clone());
            let v = if sort == Sort::Bool { Sym::Bool(v) } else { Sym::Bv(v) };
            acc = self.ite_sym(is, v, acc);
        }
        Ok(acc)
    }

    /// The value of a load that may read a by-value kernel argument (a
    /// struct passed to the kernel) that the kernel never writes: the same
    /// for every thread, so a function of the offset shared by both threads
    /// (`otherwise` when the pointer points elsewhere). This is what makes
    /// pointers stored in struct arguments equal in both threads.
    pub(crate) fn argument_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        let mut acc = otherwise;
        for k in self.readonly_args.clone() {
            let id = self.st.bv_const(BASE_BITS, self.param_obj[&k] as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            let v = match ty {
                Type::Ptr(space) => {
                    let b = self.uf(&format!("argmem{k}_base"), &[off], Sort::bv(BASE_BITS));
                    let o = self.uf(&format!("argmem{k}_off"), &[off], Sort::bv(64));
                    // It points to some object of its space (not null, like
                    // any pointer loaded from memory).
                    let mut options = Vec::new();
                    for (i, obj) in self.objects.clone().iter().enumerate() {
                        if space_compatible(space, obj.space) {
                            let id = self.st.bv_const(BASE_BITS, i as u128 + 1);
                            options.push(self.st.eq(b, id));
                        }
                    }
                    let c = self.st.or(&options);
                    self.assume(c);
                    Sym::Ptr { base: b, off: o }
                }
                Type::Int(1) => Sym::Bool(self.uf(&format!("argmem{k}"), &[off], Sort::Bool)),
                Type::Int(w) | Type::Float(w) => Sym::Bv(self.uf(&format!("argmem{k}"), &[off], Sort::bv(w as u32))),
            };
            acc = self.ite_sym(is, v, acc);
        }
        Ok(acc)
    }

    /// The value of a load that may read an initialised OpenCL `__constant`
    /// object: its known contents (for objects of at most 256 elements of the loaded
    /// width, at aligned offsets), `otherwise` elsewhere.
    pub(crate) fn constant_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        // In CUDA the host may overwrite `__constant__` memory before the
        // launch (`cudaMemcpyToSymbol`): initial contents are only known in
        // OpenCL, where program-scope constants are immutable.
        if self.module.language != lockstep_kir::Language::OpenCl {
            return Ok(otherwise);
        }
        let Sym::Bv(mut acc) = otherwise else { return Ok(otherwise) };
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        for (g, obj) in self.module.globals.iter() {
            if obj.init.is_none() || obj.space != MemSpace::Constant {
                continue;
            }
            let id = self.st.bv_const(BASE_BITS, self.global_obj[&g] as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            let Some(named) = self.init_contents(g, off, ty, acc) else { continue };
            acc = self.st.ite(is, named, acc);
        }
        Ok(Sym::Bv(acc))
    }

    /// The value of type `ty` at byte offset `off` of the initialised
    /// global `g` (aligned reads of its elements), `otherwise` elsewhere;
    /// `None` when the type or the size does not suit this encoding.
    pub(crate) fn init_contents(&mut self, g: lockstep_kir::GlobalId, off: TermId, ty: Type, otherwise: TermId) -> Option<TermId> {
        let bytes = ty.store_size() as usize;
        if bytes == 0 || bytes > 8 || ty.bits() as usize != bytes * 8 {
            return None;
        }
        let init = self.module.globals[g].init.clone()?;
        if init.len() / bytes > 256 {
            return None;
        }
        let mut chain = otherwise;
        for k in (0..init.len() / bytes).rev() {
            let mut v: u128 = 0;
            for (j, &byte) in init[k * bytes..(k + 1) * bytes].iter().enumerate() {
                v |= (byte as u128) << (8 * j);
            }
            let at = self.st.bv_const(64, (k * bytes) as u128);
            let here = self.st.eq(off, at);
            let val = self.st.bv_const(ty.bits(), v);
            chain = self.st.ite(here, val, chain);
        }
        Some(self.name(chain))
    }

    /// A load's value under read consistency (`find_consistent_loads`):
    /// the value of an earlier load of the same object at an equal address.
    /// Only a thread that executes the load is concerned: for another, the
    /// value stays arbitrary.
    pub(crate) fn consistent_load(&mut self, t: usize, i: InstId, b: BlockId, ptr: ValueId, v: Sym) -> Res<Sym> {
        let Some(earlier) = self.consistent_loads.get(&i).cloned() else { return Ok(v) };
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(v) };
        let enabled = self.preds[&b][t];
        let mut acc = v;
        for a in earlier {
            let (InstKind::Load { ptr: pa, .. }, Some(ra)) = (&self.func.insts[a].kind, self.func.insts[a].result) else { continue };
            let Sym::Ptr { base: ba, off: oa } = self.val(t, *pa)? else { continue };
            let value = self.val(t, ra)?;
            let same_base = self.st.eq(base, ba);
            let same_off = self.st.eq(off, oa);
            let same = self.st.and(&[enabled, same_base, same_off]);
            acc = self.ite_sym(same, value, acc);
        }
        Ok(acc)
    }

    /// The value of a load from a private local at a constant offset that
    /// an earlier store of the same block wrote with the same type (store
    /// to load forwarding). Private memory belongs to its thread, so only
    /// the thread's own instructions between the two can change it: the
    /// search stops (no forwarding) at any that might, a store that may
    /// overlap, a store through a private pointer of unknown target, an
    /// atomic, a copy or a call.
    pub(crate) fn forwarded_private_load(&mut self, t: usize, i: InstId, b: BlockId, ptr: ValueId, ty: Type) -> Res<Option<Sym>> {
        let Some((local, off)) = lockstep_analysis::pointers::local_at(self.func, ptr) else { return Ok(None) };
        let size = ty.store_size() as u128;
        let insts = &self.func.blocks[b].insts;
        let Some(pos) = insts.iter().position(|&x| x == i) else { return Ok(None) };
        for &j in insts[..pos].iter().rev() {
            match &self.func.insts[j].kind {
                InstKind::Store { ptr: p, value, .. } => match lockstep_analysis::pointers::local_at(self.func, *p) {
                    Some((l2, o2)) if l2 == local => {
                        let vty = self.func.value_type(*value);
                        if o2 == off && vty == ty {
                            return Ok(Some(self.val(t, *value)?));
                        }
                        let (a, w2) = (off as u128, vty.store_size() as u128);
                        if (o2 as u128) + w2 <= a || a + size <= o2 as u128 {
                            continue;
                        }
                        return Ok(None);
                    }
                    Some(_) => continue,
                    None if matches!(self.func.value_type(*p), Type::Ptr(MemSpace::Private | MemSpace::Generic)) => return Ok(None),
                    None => continue,
                },
                InstKind::Atomic { .. }
                | InstKind::CmpXchg { .. }
                | InstKind::MemCopy { .. }
                | InstKind::MemSet { .. }
                | InstKind::Call { .. }
                | InstKind::CallExternal { .. } => return Ok(None),
                _ => continue,
            }
        }
        Ok(None)
    }

    /// A load from a constant-initialised private array (see
    /// `find_const_locals`) after its initialisation: the initial contents.
    pub(crate) fn const_local_load(&mut self, t: usize, i: InstId, b: BlockId, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        let Sym::Bv(other) = otherwise else { return Ok(otherwise) };
        let Some(l) = lockstep_analysis::pointers::local_root(self.func, ptr) else { return Ok(otherwise) };
        let Some(&(g, copy)) = self.const_locals.get(&l) else { return Ok(otherwise) };
        let copy_block = self.inst_block[&copy];
        let dominated = if copy_block == b {
            let insts = &self.func.blocks[b].insts;
            insts.iter().position(|&x| x == copy) < insts.iter().position(|&x| x == i)
        } else {
            self.cfg.is_reachable(copy_block) && self.cfg.dominates(copy_block, b)
        };
        if !dominated {
            return Ok(otherwise);
        }
        let Sym::Ptr { off, .. } = self.val(t, ptr)? else { return Ok(otherwise) };
        Ok(self.init_contents(g, off, ty, other).map_or(otherwise, Sym::Bv))
    }
}
