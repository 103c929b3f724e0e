//! Instruction encoding: the symbolic values of KIR values in each thread,
//! and the pure operations (arithmetic, comparisons, casts) as SMT terms;
//! `encode_inst` dispatches effects to the access, barrier and annotation
//! modules.

use super::*;

impl<'a> Enc<'a> {
    /// Whether the atomic `i` (in block `b`) is a counting increment whose
    /// executions by two threads on one location return different values:
    /// an integer `atomic add` of a positive constant, outside loops (each
    /// thread executes it at most once), on an object statically known
    /// whose every atomic is such an increment, with a concrete launch small
    /// enough that all the increments together cannot wrap around. Within a
    /// barrier interval (threads of one group execute the instruction in the
    /// same interval; for other groups the whole run is one), a plain write
    /// to the location concurrent with the increments is a race, which is
    /// checked separately; so the location only grows between the two
    /// executions and the old values differ.
    pub(crate) fn distinct_increments(&self, i: InstId, b: BlockId) -> bool {
        let positive_add = |enc: &Self, k: &InstKind| -> Option<(ValueId, u128)> {
            // Any scope: a block-scoped increment that two blocks reach is
            // a race of its own, checked by `check_access`.
            let InstKind::Atomic { op: lockstep_kir::AtomicOp::Add, ptr, value, .. } = k else { return None };
            let Type::Int(w) = enc.func.value_type(*value) else { return None };
            let ValueDef::Const(c) = enc.func.values[*value].def else { return None };
            let signed = signed_const(c, w as u32);
            (signed > 0).then_some((*ptr, c))
        };
        if self.loops.innermost(b).is_some() {
            return false;
        }
        let Some((ptr, _)) = positive_add(self, &self.func.insts[i].kind) else { return false };
        let Some(obj) = self.static_object(ptr) else { return false };
        let Type::Int(width) = self.func.value_type(self.func.insts[i].result.expect("atomic result")) else {
            return false;
        };
        // Every atomic that may reach the object is such an increment.
        let mut sites = 0u128;
        let mut max_c = 0u128;
        for block in self.func.blocks.values() {
            for &j in &block.insts {
                let k = &self.func.insts[j].kind;
                let p = match k {
                    InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => *ptr,
                    _ => continue,
                };
                let reaches = self.atomic_may_reach(p, obj);
                if !reaches {
                    continue;
                }
                match positive_add(self, k) {
                    Some((_, c)) => {
                        sites += 1;
                        max_c = max_c.max(c);
                    }
                    None => return false,
                }
            }
        }
        // The threads that may increment it: a group for shared objects,
        // the launch otherwise; each at most once per site.
        let dims = self.config.dims.clamp(1, 3) as usize;
        let mut threads: u128 = 1;
        for d in 0..dims {
            let Some(g) = self.config.group_size[d] else { return false };
            threads = threads.saturating_mul(g as u128);
            if self.objects[obj].space != MemSpace::Shared {
                let Some(n) = self.config.num_groups[d] else { return false };
                threads = threads.saturating_mul(n as u128);
            }
        }
        let total = threads.saturating_mul(sites).saturating_mul(max_c);
        width < 128 && total < (1u128 << width)
    }

    pub fn val(&mut self, t: usize, v: ValueId) -> Res<Sym> {
        if let Some(s) = self.vals[t].get(&v) {
            return Ok(*s);
        }
        let data = &self.func.values[v];
        let ty = data.ty;
        let s = match &data.def {
            ValueDef::Param(i) => {
                if let Some(s) = self.params_shared.get(i) {
                    *s
                } else {
                    let s = match ty {
                        Type::Ptr(_) => {
                            let id = self.param_obj[i] as u128 + 1;
                            Sym::Ptr { base: self.st.bv_const(BASE_BITS, id), off: self.st.bv_const(64, 0) }
                        }
                        // Not numbered (`fresh` would): an argument is a
                        // constant of the whole kernel, and for every loop,
                        // even when first used inside one.
                        Type::Int(1) => Sym::Bool(self.st.fresh_const(&format!("arg{i}"), Sort::Bool)),
                        Type::Int(w) | Type::Float(w) => {
                            Sym::Bv(self.st.fresh_const(&format!("arg{i}"), Sort::bv(w as u32)))
                        }
                    };
                    self.params_shared.insert(*i, s);
                    s
                }
            }
            ValueDef::Const(bits) => match ty {
                Type::Int(1) => Sym::Bool(self.st.bool_const(bits & 1 == 1)),
                Type::Int(w) | Type::Float(w) => Sym::Bv(self.st.bv_const(w as u32, *bits)),
                Type::Ptr(_) => Sym::Ptr { base: self.st.bv_const(BASE_BITS, 0), off: self.st.bv_const(64, *bits) },
            },
            ValueDef::Undef => self.fresh_sym(ty, "undef"),
            ValueDef::GlobalAddr(g) => {
                let id = self.global_obj[g] as u128 + 1;
                Sym::Ptr { base: self.st.bv_const(BASE_BITS, id), off: self.st.bv_const(64, 0) }
            }
            ValueDef::LocalAddr(l) => {
                let id = self.local_obj[l] as u128 + 1;
                Sym::Ptr { base: self.st.bv_const(BASE_BITS, id), off: self.st.bv_const(64, 0) }
            }
            ValueDef::Null => Sym::Ptr { base: self.st.bv_const(BASE_BITS, 0), off: self.st.bv_const(64, 0) },
            ValueDef::Inst(_) | ValueDef::BlockParam(..) => {
                return err(format!("internal: value {v} used before its definition was encoded"), None)
            }
        };
        self.vals[t].insert(v, s);
        Ok(s)
    }

    pub(crate) fn val_bv(&mut self, t: usize, v: ValueId) -> Res<TermId> {
        let s = self.val(t, v)?;
        Ok(self.as_bv(s))
    }

    pub(crate) fn val_bool(&mut self, t: usize, v: ValueId) -> Res<TermId> {
        let s = self.val(t, v)?;
        Ok(self.as_bool(s))
    }

    /// An uninterpreted function of bit-vectors (floats, math library).
    pub(crate) fn uf(&mut self, name: &str, args: &[TermId], ret: Sort) -> TermId {
        let sorts: Vec<Sort> = args.iter().map(|&a| self.st.sort_of(a).clone()).collect();
        let mut full = name.to_string();
        for s in &sorts {
            full.push('_');
            full.push_str(&s.to_string().replace(['(', ')', ' '], ""));
        }
        full.push_str("__");
        full.push_str(&ret.to_string().replace(['(', ')', ' '], ""));
        let f = match self.st.lookup_fun(&full) {
            Some(f) => f,
            None => self.st.declare_fun(&full, &sorts, ret),
        };
        self.st.apply(f, args)
    }

    pub(crate) fn resize(&mut self, t: TermId, to: u32, signed: bool) -> TermId {
        let w = self.st.sort_of(t).bv_width().unwrap_or(1);
        if w == to {
            t
        } else if w < to {
            if signed {
                self.st.sign_extend(to - w, t)
            } else {
                self.st.zero_extend(to - w, t)
            }
        } else {
            self.st.extract(to - 1, 0, t)
        }
    }

    pub(crate) fn call_args(&mut self, args: &[ValueId]) -> Res<[Vec<Sym>; 2]> {
        let mut out = [Vec::new(), Vec::new()];
        for t in 0..2 {
            for &a in args {
                let s = self.val(t, a)?;
                out[t].push(s);
            }
        }
        Ok(out)
    }

    /// Whether an atomic through pointer `p` may act on object `obj`: the
    /// object itself when `p` is known to point into one, otherwise any
    /// object of a space `p`'s type allows.
    pub(crate) fn atomic_may_reach(&self, p: ValueId, obj: usize) -> bool {
        match self.static_object(p) {
            Some(o) => o == obj,
            None => {
                let space = match self.func.value_type(p) {
                    Type::Ptr(s) => s,
                    _ => MemSpace::Generic,
                };
                space_compatible(space, self.objects[obj].space)
            }
        }
    }

    pub(crate) fn encode_insts(&mut self, b: BlockId, mode: Mode) -> Res<()> {
        let insts = self.func.blocks[b].insts.clone();
        for i in insts {
            self.encode_inst(b, i, mode)?;
        }
        Ok(())
    }

    pub(crate) fn encode_inst(&mut self, b: BlockId, i: InstId, mode: Mode) -> Res<()> {
        let data = self.func.insts[i].clone();
        let at = self.loc(i);
        let rty = data.result.map(|r| self.func.value_type(r));
        let p = self.preds[&b];
        let mut out: [Option<Sym>; 2] = [None, None];
        if let InstKind::CallExternal { name, args } = &data.kind {
            if name == crate::async_copy::ASYNC_COPY && mode == Mode::Normal {
                self.async_copy_uniform(i, p, args)?;
            }
        }
        match &data.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let mut args = [(Sym::Bool(p[0]), Sym::Bool(p[0])); 2];
                for t in 0..2 {
                    let a = self.val(t, *lhs)?;
                    let c = self.val(t, *rhs)?;
                    args[t] = (a, c);
                    out[t] = Some(self.binary(*op, a, c));
                }
                if mode == Mode::Normal {
                    self.assume_no_wrap(i, *op, p, args);
                }
            }
            InstKind::Icmp { cc, lhs, rhs } => {
                for t in 0..2 {
                    let a = self.val(t, *lhs)?;
                    let c = self.val(t, *rhs)?;
                    out[t] = Some(Sym::Bool(self.icmp(*cc, a, c)));
                }
            }
            InstKind::Select { cond, then_value, else_value } => {
                for t in 0..2 {
                    let c = self.val_bool(t, *cond)?;
                    let a = self.val(t, *then_value)?;
                    let e = self.val(t, *else_value)?;
                    out[t] = Some(self.ite_sym(c, a, e));
                }
            }
            InstKind::Cast { op, arg } => {
                let rty = rty.expect("cast has a result");
                for t in 0..2 {
                    let a = self.val(t, *arg)?;
                    out[t] = Some(self.cast(*op, a, self.func.value_type(*arg), rty));
                }
            }
            InstKind::Float { op, args } => {
                let rty = rty.expect("float op has a result");
                for t in 0..2 {
                    let mut a = Vec::new();
                    for &x in args {
                        a.push(self.val_bv(t, x)?);
                    }
                    out[t] = Some(Sym::Bv(self.uf(op.name(), &a, Self::sort_of_type(rty))));
                }
            }
            InstKind::Fcmp { cc, lhs, rhs } => {
                for t in 0..2 {
                    let a = self.val_bv(t, *lhs)?;
                    let c = self.val_bv(t, *rhs)?;
                    let name = format!("fcmp_{}", cc.name());
                    out[t] = Some(Sym::Bool(self.uf(&name, &[a, c], Sort::Bool)));
                }
            }
            InstKind::PtrAdd { base, offset } => {
                for t in 0..2 {
                    let bsym = self.val(t, *base)?;
                    let o = self.val_bv(t, *offset)?;
                    let o = self.resize(o, 64, true);
                    out[t] = Some(match bsym {
                        Sym::Ptr { base, off } => Sym::Ptr { base, off: self.st.bvadd(off, o) },
                        _ => return err("pointer arithmetic on a non-pointer", at),
                    });
                }
            }
            InstKind::Load { ptr, .. } => {
                let rty = rty.expect("load has a result");
                if mode == Mode::Normal && !self.spec_loads.contains(&i) {
                    let w = self.st.bv_const(64, rty.store_size() as u128);
                    self.access(i, b, *ptr, [w, w], AccessKind::Read, None)?;
                }
                // A pointer loaded from memory points to some object (like
                // GPUVerify, which treats it as an arbitrary array); only
                // explicit null pointers are caught by the null check.
                let mut special = false;
                for t in 0..2 {
                    // Arrays read by barrier invariants have contents.
                    let program = mode == Mode::Normal && !self.spec_loads.contains(&i);
                    if let Some(v) = self.bi_load(t, b, *ptr, rty, program)? {
                        out[t] = Some(v);
                        special = true;
                        continue;
                    }
                    let fresh = self.fresh_sym_null(rty, "load", false);
                    if let Some(v) = self.forwarded_private_load(t, i, b, *ptr, rty)? {
                        // Only a thread that executes the block stored the
                        // value; for another, the load's value is what
                        // annotations about disabled threads see: arbitrary.
                        let p = self.preds[&b][t];
                        out[t] = Some(self.ite_sym(p, v, fresh));
                        continue;
                    }
                    let fresh = if program { self.equal_load(t, *ptr, rty, fresh)? } else { fresh };
                    let fresh = self.const_local_load(t, i, b, *ptr, rty, fresh)?;
                    let fresh = self.unwritten_load(t, *ptr, rty, fresh)?;
                    let v = self.constant_load(t, *ptr, rty, fresh)?;
                    let v = self.argument_load(t, *ptr, rty, v)?;
                    out[t] = Some(self.consistent_load(t, i, b, *ptr, v)?);
                }
                let relevant = self.func.insts[i].result.is_some_and(|r| self.control_relevant.contains(&r));
                if mode == Mode::Normal && !special && relevant && !self.spec_loads.contains(&i) {
                    if let (Some(v1), Some(v2)) = (out[0], out[1]) {
                        self.same_read(b, *ptr, v1, v2)?;
                    }
                }
            }
            InstKind::Store { ptr, value, .. } => {
                if mode == Mode::Normal {
                    let w = self.st.bv_const(64, self.func.value_type(*value).store_size() as u128);
                    let v = if self.benign_sites.contains(&i) { self.written_value(*value)? } else { None };
                    self.access(i, b, *ptr, [w, w], AccessKind::Write, v)?;
                    self.bi_store(b, *ptr, *value)?;
                }
            }
            InstKind::Atomic { ptr, value, .. } | InstKind::CmpXchg { ptr, expected: value, .. } => {
                if mode == Mode::Normal {
                    let w = self.st.bv_const(64, self.func.value_type(*value).store_size() as u128);
                    self.access(i, b, *ptr, [w, w], AccessKind::Atomic, None)?;
                }
                if let Some(rty) = rty {
                    for t in 0..2 {
                        out[t] = Some(self.fresh_sym(rty, "atomic"));
                    }
                    if mode == Mode::Normal && self.distinct_increments(i, b) {
                        // Two executions of one counting increment on one
                        // location return different old values.
                        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) =
                            (self.val(0, *ptr)?, self.val(1, *ptr)?)
                        else {
                            return err("atomic through a non-pointer", at);
                        };
                        let same_base = self.st.eq(b1, b2);
                        let same_off = self.st.eq(o1, o2);
                        let mut same = vec![p[0], p[1], same_base, same_off];
                        if self.static_object(*ptr).is_some_and(|o| self.objects[o].space == MemSpace::Shared) {
                            same.push(self.same_group);
                        }
                        let same = self.st.and(&same);
                        let (Some(Sym::Bv(r1)), Some(Sym::Bv(r2))) = (out[0], out[1]) else {
                            return err("internal: an atomic increment without an integer result", at);
                        };
                        let eq = self.st.eq(r1, r2);
                        let differ = self.st.not(eq);
                        let fact = self.st.implies(same, differ);
                        self.assume(fact);
                        let text = "atomic increments by a positive constant return distinct values to distinct threads (no wrap-around)".to_string();
                        if !self.assumptions.contains(&text) {
                            self.assumptions.push(text);
                        }
                    } else if mode == Mode::Normal {
                        self.reservation_ranges(i, b, out)?;
                    }
                }
            }
            InstKind::MemCopy { dst, src, len } | InstKind::MemSet { dst, byte: src, len } => {
                if mode == Mode::Normal {
                    let mut w = [self.st.bv_const(64, 0); 2];
                    for t in 0..2 {
                        let l = self.val_bv(t, *len)?;
                        w[t] = self.resize(l, 64, false);
                    }
                    if matches!(data.kind, InstKind::MemCopy { .. }) {
                        self.access(i, b, *src, w, AccessKind::Read, None)?;
                    }
                    self.access(i, b, *dst, w, AccessKind::Write, None)?;
                }
            }
            InstKind::Barrier { scope, fence, mask } => {
                if mode == Mode::Normal {
                    if *scope == BarrierScope::Warp {
                        self.named_lanes_participate(i, p, *mask)?;
                    }
                    self.bi_barrier(i, p, *scope, *fence)?;
                    let named = match mask {
                        Some(m) => Some(self.lanes_name_each_other(*m)?),
                        None => None,
                    };
                    self.barrier(i, p, *scope, *fence, named);
                }
            }
            InstKind::Fence { .. } | InstKind::Nop { .. } => {}
            InstKind::Builtin { var, dim } => {
                let d = *dim as usize;
                for t in 0..2 {
                    let v = match var {
                        lockstep_kir::BuiltinVar::LocalId => self.lid[t][d],
                        lockstep_kir::BuiltinVar::GroupId => self.gid[t][d],
                        lockstep_kir::BuiltinVar::LocalSize => self.gs[d],
                        lockstep_kir::BuiltinVar::NumGroups => self.ng[d],
                        lockstep_kir::BuiltinVar::GlobalOffset => self.st.bv_const(32, self.config.global_offset[d] as u32 as u128),
                    };
                    let w = rty.map_or(32, |t| t.bits());
                    out[t] = Some(Sym::Bv(self.resize(v, w, false)));
                }
            }
            // A thread's lane is its linear local id modulo the warp size
            // (CUDA numbers lanes so): lane-indexed accesses, such as a
            // tile's first lane writing its warp's slot, are then told apart.
            InstKind::Warp { op: lockstep_kir::WarpOp::LaneId, .. } if rty.is_some_and(|t| t.is_int()) => {
                let bits = rty.expect("checked").bits();
                for t in 0..2 {
                    let lin = self.linear_local_id(t);
                    let w = self.st.bv_const(64, 32);
                    let lane = self.st.bvurem(lin, w);
                    out[t] = Some(Sym::Bv(self.resize(lane, bits, false)));
                }
            }
            InstKind::Warp { op: lockstep_kir::WarpOp::ActiveMask, .. } if rty == Some(Type::I32) => {
                let masks = [self.active_mask(0), self.active_mask(1)];
                // Outside loops only: in a loop, the lanes of one mask may
                // be at different iterations, which the product does not
                // execute in the same step.
                if mode == Mode::Normal && self.loops.innermost(b).is_none() {
                    self.active_lanes_execute(p, masks);
                }
                for t in 0..2 {
                    out[t] = Some(Sym::Bv(masks[t]));
                }
            }
            InstKind::Warp { op: lockstep_kir::WarpOp::MatchAny, args } if rty == Some(Type::I32) && args.len() == 2 => {
                if mode == Mode::Normal {
                    self.named_lanes_participate(i, p, Some(args[0]))?;
                }
                for t in 0..2 {
                    let m = self.val_bv(t, args[0])?;
                    let m = self.resize(m, 32, false);
                    out[t] = Some(Sym::Bv(self.match_any(t, m)));
                }
            }
            InstKind::Warp {
                op: op @ (lockstep_kir::WarpOp::Shfl
                | lockstep_kir::WarpOp::ShflUp
                | lockstep_kir::WarpOp::ShflDown
                | lockstep_kir::WarpOp::ShflXor),
                args,
            } => {
                if mode == Mode::Normal {
                    self.shuffle_participation(i, p, *op, args)?;
                    self.named_lanes_participate(i, p, args.first().copied())?;
                }
                if let Some(rty) = rty {
                    let r = [self.fresh_sym(rty, "warp"), self.fresh_sym(rty, "warp")];
                    self.relate_warp_results(i, b, *op, args, p, r, mode)?;
                    out = [Some(r[0]), Some(r[1])];
                }
            }
            InstKind::Warp { op: op @ (lockstep_kir::WarpOp::Ballot | lockstep_kir::WarpOp::Any | lockstep_kir::WarpOp::All), args }
                if rty.is_some_and(|t| t.is_int()) =>
            {
                let rty = rty.expect("checked");
                if mode == Mode::Normal {
                    self.named_lanes_participate(i, p, args.first().copied())?;
                }
                let r = [self.fresh_sym(rty, "warp"), self.fresh_sym(rty, "warp")];
                self.relate_warp_results(i, b, *op, args, p, r, mode)?;
                out = [Some(r[0]), Some(r[1])];
            }
            InstKind::Collective { op, arg } => {
                let r = self.group_collective(*op, *arg, p, mode)?;
                out = [Some(r[0]), Some(r[1])];
            }
            InstKind::Warp { .. } | InstKind::Havoc => {
                if let Some(rty) = rty {
                    for t in 0..2 {
                        out[t] = Some(self.fresh_sym(rty, "warp"));
                    }
                }
            }
            InstKind::Call { .. } => return err("call left after inlining", at),
            InstKind::InvalidCall { .. } => {
                if mode == Mode::Normal {
                    self.invalid_call(i, p);
                }
            }
            InstKind::CallExternal { name, .. } if name == "get_work_dim" && rty.is_some_and(|t| t.is_int()) => {
                // OpenCL's `get_work_dim()`: the launch's dimensions.
                let rty = rty.expect("checked");
                for t in 0..2 {
                    out[t] = Some(Sym::Bv(self.st.bv_const(rty.bits(), self.config.dims.clamp(1, 3) as u128)));
                }
            }
            InstKind::CallExternal { name, args } => {
                // Only pointers to the thread's private objects get here
                // (see `check_supported`); the proof relies on the callee
                // not reaching other memory through what they contain.
                if args.iter().any(|&a| self.func.value_type(a).is_ptr()) {
                    let text = format!(
                        "`{name}` (no body) accesses only the private objects passed to it, not memory reachable from their contents"
                    );
                    if !self.assumptions.contains(&text) {
                        self.assumptions.push(text);
                    }
                }
                // A function without a body may return anything (it may be
                // impure, like a random number generator): a fresh value per
                // call and thread.
                if let Some(rty) = rty {
                    for t in 0..2 {
                        out[t] = Some(self.fresh_sym(rty, "ext"));
                    }
                }
            }
            InstKind::Annot { kind, args } => {
                if mode == Mode::Normal {
                    self.annot(b, i, *kind, args)?;
                }
            }
            InstKind::AnnotValue { func, args } => {
                let rty = rty.expect("annotation value has a result");
                for t in 0..2 {
                    out[t] = Some(self.annot_value(t, b, *func, args, rty, at)?);
                }
            }
        }
        if let Some(r) = data.result {
            for t in 0..2 {
                let s = match out[t] {
                    Some(s) => s,
                    None => self.fresh_sym(self.func.value_type(r), "v"),
                };
                self.vals[t].insert(r, s);
            }
        }
        Ok(())
    }

    pub(crate) fn binary(&mut self, op: BinOp, a: Sym, b: Sym) -> Sym {
        if let (Sym::Bool(x), Sym::Bool(y)) = (a, b) {
            match op {
                BinOp::And => return Sym::Bool(self.st.and(&[x, y])),
                BinOp::Or => return Sym::Bool(self.st.or(&[x, y])),
                BinOp::Xor | BinOp::Add | BinOp::Sub => return Sym::Bool(self.st.xor(x, y)),
                _ => {}
            }
        }
        let boolean = matches!(a, Sym::Bool(_));
        let x = self.as_bv(a);
        let y = self.as_bv(b);
        let r = match op {
            BinOp::Add => self.st.bvadd(x, y),
            BinOp::Sub => self.st.bvsub(x, y),
            BinOp::Mul => self.mul(x, y),
            BinOp::UDiv => self.st.bvudiv(x, y),
            BinOp::SDiv => self.st.bvsdiv(x, y),
            BinOp::URem => self.st.bvurem(x, y),
            BinOp::SRem => self.st.bvsrem(x, y),
            BinOp::Shl => self.st.bvshl(x, y),
            BinOp::LShr => self.st.bvlshr(x, y),
            BinOp::AShr => self.st.bvashr(x, y),
            BinOp::And => self.st.bvand(x, y),
            BinOp::Or => self.st.bvor(x, y),
            BinOp::Xor => self.st.bvxor(x, y),
        };
        if boolean {
            let one = self.st.bv_const(1, 1);
            Sym::Bool(self.st.eq(r, one))
        } else {
            Sym::Bv(r)
        }
    }

    /// Multiplication. A product of two non-constant values is abstracted
    /// by an uninterpreted (commutative) function: non-linear bit-vector
    /// arithmetic makes solvers time out, and an uninterpreted function is
    /// an over-approximation, so proofs stay sound.
    pub fn mul(&mut self, x: TermId, y: TermId) -> TermId {
        if self.st.as_bv(x).is_some() || self.st.as_bv(y).is_some() {
            return self.st.bvmul(x, y);
        }
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        let w = self.st.sort_of(a).bv_width().unwrap_or(32);
        // The global size (`get_global_size`, `blockDim * gridDim`) of a
        // launch whose global size is known is that size, whatever the
        // factors (`--global_size` with `--local_size=*`).
        let (sa, sb) = (self.without_zero_extension(a), self.without_zero_extension(b));
        for d in 0..3 {
            if let Some(global) = self.config.global_size[d] {
                let (gs, ng) = (self.gs[d], self.ng[d]);
                if (sa == gs && sb == ng) || (sa == ng && sb == gs) {
                    return self.st.bv_const(w, global as u128);
                }
            }
        }
        let m = self.uf("mul", &[a, b], Sort::bv(w));
        self.product_lemmas(a, b, m);
        self.pow2_factor_lemmas(a, b, m);
        m
    }

    pub(crate) fn without_zero_extension(&self, t: TermId) -> TermId {
        match self.st.kind(t) {
            lockstep_smt::TermKind::App(lockstep_smt::Op::ZeroExtend(_), args) => args[0],
            _ => t,
        }
    }

    pub(crate) fn icmp(&mut self, cc: IntCC, a: Sym, b: Sym) -> TermId {
        if let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (a, b) {
            let same = self.eq_sym(a, b);
            return match cc {
                IntCC::Eq => same,
                IntCC::Ne => self.st.not(same),
                _ => {
                    let _ = (b1, b2);
                    self.icmp(cc, Sym::Bv(o1), Sym::Bv(o2))
                }
            };
        }
        if let (Sym::Bool(x), Sym::Bool(y)) = (a, b) {
            match cc {
                IntCC::Eq => return self.st.eq(x, y),
                IntCC::Ne => return self.st.xor(x, y),
                _ => {}
            }
        }
        let x = self.as_bv(a);
        let y = self.as_bv(b);
        match cc {
            IntCC::Eq => self.st.eq(x, y),
            IntCC::Ne => {
                let e = self.st.eq(x, y);
                self.st.not(e)
            }
            IntCC::Ult => self.st.bvult(x, y),
            IntCC::Ule => self.st.bvule(x, y),
            IntCC::Ugt => self.st.bvugt(x, y),
            IntCC::Uge => self.st.bvuge(x, y),
            IntCC::Slt => self.st.bvslt(x, y),
            IntCC::Sle => self.st.bvsle(x, y),
            IntCC::Sgt => self.st.bvsgt(x, y),
            IntCC::Sge => self.st.bvsge(x, y),
        }
    }

    pub(crate) fn cast(&mut self, op: CastOp, a: Sym, from: Type, to: Type) -> Sym {
        match op {
            CastOp::Zext | CastOp::Sext => match (a, to) {
                (Sym::Bool(b), Type::Int(w)) => {
                    let one = if op == CastOp::Zext { 1u128 } else { u128::MAX };
                    let one = self.st.bv_const(w as u32, one);
                    let zero = self.st.bv_const(w as u32, 0);
                    Sym::Bv(self.st.ite(b, one, zero))
                }
                _ => {
                    let x = self.as_bv(a);
                    Sym::Bv(self.resize(x, to.bits(), op == CastOp::Sext))
                }
            },
            CastOp::Trunc => {
                let x = self.as_bv(a);
                let r = self.st.extract(to.bits() - 1, 0, x);
                if to == Type::BOOL {
                    let one = self.st.bv_const(1, 1);
                    Sym::Bool(self.st.eq(r, one))
                } else {
                    Sym::Bv(r)
                }
            }
            CastOp::Bitcast | CastOp::AddrSpaceCast => match (a, to) {
                (Sym::Ptr { .. }, Type::Ptr(_)) => a,
                (Sym::Ptr { off, .. }, _) => Sym::Bv(self.resize(off, to.bits(), false)),
                (_, Type::Int(1)) => Sym::Bool(self.as_bool(a)),
                (_, Type::Ptr(_)) => self.fresh_sym(to, "cast"),
                _ => {
                    let x = self.as_bv(a);
                    Sym::Bv(self.resize(x, to.bits(), false))
                }
            },
            CastOp::PtrToInt => match a {
                Sym::Ptr { base, off } => {
                    // A pointer into no object (null, or an absolute address
                    // such as the front end's function addresses) is its
                    // offset; an object's address is unknown.
                    let r = self.uf("ptrtoint", &[base, off], Self::sort_of_type(to));
                    if to == Type::BOOL {
                        Sym::Bool(r)
                    } else {
                        let zero = self.st.bv_const(BASE_BITS, 0);
                        let absolute = self.st.eq(base, zero);
                        let value = self.resize(off, to.bits(), false);
                        Sym::Bv(self.st.ite(absolute, value, r))
                    }
                }
                _ => self.fresh_sym(to, "p2i"),
            },
            // A constant becomes an absolute address, like a pointer
            // constant; any other integer may point anywhere.
            CastOp::IntToPtr => match a {
                Sym::Bv(x) if self.st.as_bv(x).is_some() => {
                    let off = self.resize(x, 64, false);
                    Sym::Ptr { base: self.st.bv_const(BASE_BITS, 0), off }
                }
                _ => self.fresh_sym(to, "i2p"),
            },
            _ => {
                // Float conversions: uninterpreted.
                let x = self.as_bv(a);
                let r = self.uf(&format!("{}_{}", op.name(), from.bits()), &[x], Self::sort_of_type(to));
                if to == Type::BOOL {
                    Sym::Bool(r)
                } else {
                    Sym::Bv(r)
                }
            }
        }
    }
}
