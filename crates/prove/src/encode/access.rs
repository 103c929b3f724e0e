//! Access instrumentation: the race logs (thread 1 logs an access
//! nondeterministically, thread 2's accesses are checked against the log),
//! benign-race comparisons, bounds checks, async copies and barriers.

use super::*;

/// The threads of a CUDA warp (the interpreter's `warp_lanes`).
pub(crate) const WARP_LANES: u32 = 32;

impl<'a> Enc<'a> {
    /// The value a store writes, as a bv80 per thread (`VAL_BITS`), when
    /// it can be compared (integers and floats of at most 64 bits,
    /// booleans, pointers).
    pub(crate) fn written_value(&mut self, value: ValueId) -> Res<Option<[TermId; 2]>> {
        let mut out = [self.st.bv_const(VAL_BITS, 0); 2];
        for t in 0..2 {
            out[t] = match self.val(t, value)? {
                Sym::Bool(x) => {
                    let one = self.st.bv_const(VAL_BITS, 1);
                    let zero = self.st.bv_const(VAL_BITS, 0);
                    self.st.ite(x, one, zero)
                }
                Sym::Bv(x) => match self.st.sort_of(x).bv_width() {
                    Some(w) if w <= 64 => self.resize(x, VAL_BITS, false),
                    _ => return err("a benign-race candidate store of an unexpected width", None),
                },
                Sym::Ptr { base, off } => {
                    let base = self.resize(base, BASE_BITS, false);
                    let off = self.resize(off, 64, false);
                    self.st.concat(base, off)
                }
            };
        }
        Ok(Some(out))
    }

    /// The no-wrap promises assumed for thread 1 (`no_wrap_t1`) of the
    /// pure arithmetic that computes `ptr` (casts, binary operations,
    /// selects and pointer additions, back to block parameters, loads and
    /// other sources). Every instruction of that slice dominates the access,
    /// so a thread executing the access has executed each of them, with
    /// the operands the promise is stated over.
    fn address_no_wrap(&self, ptr: ValueId) -> Vec<TermId> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut work = vec![ptr];
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            let ValueDef::Inst(i) = self.func.values[v].def else { continue };
            match self.func.insts[i].kind {
                InstKind::Binary { lhs, rhs, .. } => {
                    if let Some(&f) = self.no_wrap_t1.get(&i) {
                        out.push(f);
                    }
                    work.extend([lhs, rhs]);
                }
                InstKind::Cast { arg, .. } => work.push(arg),
                InstKind::Select { then_value, else_value, .. } => work.extend([then_value, else_value]),
                InstKind::PtrAdd { base, offset } => work.extend([base, offset]),
                _ => {}
            }
        }
        out
    }

    /// The conjuncts of a predicate `p`, looking through conjunctions, the
    /// names (`Enc::name`) that stand for them and disjunctions (a conjunct
    /// of every disjunct is one of the whole: the predicate of a block after
    /// a ternary's two branches is the disjunction of theirs). A bounded
    /// walk (depth 32, at most 64 conjuncts), since they only feed
    /// candidates.
    pub(crate) fn path_conjuncts(&self, p: TermId) -> Vec<TermId> {
        let mut memo = HashMap::new();
        let mut out = self.conjuncts_rec(p, 32, &mut memo);
        out.truncate(64);
        out
    }

    fn conjuncts_rec(&self, t: TermId, depth: u32, memo: &mut HashMap<TermId, Vec<TermId>>) -> Vec<TermId> {
        if let Some(v) = memo.get(&t) {
            return v.clone();
        }
        let out = if depth == 0 {
            vec![t]
        } else if let Some(&def) = self.named.get(&t) {
            self.conjuncts_rec(def, depth - 1, memo)
        } else if let Some(pe) = self.loop_data.iter().find_map(|d| match (&d.state, d.pe) {
            (Some(st), Some(pe)) if st.q[0] == t => Some(pe[0]),
            _ => None,
        }) {
            // Thread 1's predicate in a loop implies its predicate where it
            // entered the loop (assumed at the header): a guard `t < 32`
            // around the loop holds of every access in it.
            self.conjuncts_rec(pe, depth - 1, memo)
        } else {
            match self.st.kind(t) {
                TermKind::Bool(true) => Vec::new(),
                TermKind::App(lockstep_smt::Op::And, args) => {
                    let mut v: Vec<TermId> = Vec::new();
                    for &a in args.iter() {
                        for c in self.conjuncts_rec(a, depth - 1, memo) {
                            if !v.contains(&c) {
                                v.push(c);
                            }
                        }
                    }
                    v
                }
                TermKind::App(lockstep_smt::Op::Or, args) if !args.is_empty() => {
                    let mut common = self.conjuncts_rec(args[0], depth - 1, memo);
                    for &a in args[1..].iter() {
                        let other = self.conjuncts_rec(a, depth - 1, memo);
                        common.retain(|c| other.contains(c));
                    }
                    common
                }
                _ => vec![t],
            }
        };
        memo.insert(t, out.clone());
        out
    }

    /// Instruments an access: thread 1 may log it, thread 2 checks it.
    /// `value` is the written value of each thread for a store that may be
    /// part of a benign race (two writes of the same value to the same
    /// location by two such stores are not a race).
    pub(crate) fn access(
        &mut self,
        i: InstId,
        b: BlockId,
        ptr: ValueId,
        width: [TermId; 2],
        kind: AccessKind,
        value: Option<[TermId; 2]>,
    ) -> Res<()> {
        let space = match self.func.value_type(ptr) {
            Type::Ptr(s) => s,
            _ => return err("access through a non-pointer", self.loc(i)),
        };
        let p = self.preds[&b];
        let ps = [self.val(0, ptr)?, self.val(1, ptr)?];
        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (ps[0], ps[1]) else {
            return err("access through a non-pointer", self.loc(i));
        };
        let site = self.st.bv_const(32, i.as_u32() as u128);
        let enclosing = self.loops.enclosing(b);
        let no_wrap1 = self.address_no_wrap(ptr);
        let path1 = self.path_conjuncts(p[0]);
        // Memory safety checks the prover can make cheaply: no access
        // through a null pointer, no write to constant memory.
        let null = self.st.bv_const(BASE_BITS, 0);
        let conj = self.no_enabled_thread_on(p, [b1, b2], null);
        let ok = self.st.and(&conj);
        self.oblige(
            ok,
            ObKind::Annotation(ViolationKind::NullPointer),
            Some(i),
            "possible null pointer access".into(),
            None,
        );
        if self.objects.iter().any(|o| o.bounds.is_some()) {
            self.bounds_check(i, p, [b1, b2], [o1, o2], width);
        }
        if kind != AccessKind::Read {
            let mut conj = Vec::new();
            for (oi, obj) in self.objects.clone().iter().enumerate() {
                if obj.space != MemSpace::Constant {
                    continue;
                }
                let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
                conj.extend(self.no_enabled_thread_on(p, [b1, b2], id));
            }
            let ok = self.st.and(&conj);
            self.oblige(
                ok,
                ObKind::Annotation(ViolationKind::ConstantWrite),
                Some(i),
                "possible attempt to modify constant memory".into(),
                None,
            );
        }
        for (oi, obj) in self.objects.clone().iter().enumerate() {
            let Some(m) = obj.tracked else { continue };
            if !space_compatible(space, obj.space) {
                continue;
            }
            let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
            let is1 = self.st.eq(b1, id);
            let is2 = self.st.eq(b2, id);
            if self.st.as_bool(is1) == Some(false) {
                continue;
            }
            // Whether each thread's write leaves its bytes as they were
            // (`benign`), for a store whose value may be benign.
            let silent = match (kind, value) {
                (AccessKind::Write, Some(_)) => self.silent_write(i, oi, m, [o1, o2])?,
                _ => [self.st.false_(), self.st.false_()],
            };
            // A read of an object that nothing in the kernel writes races
            // with nothing: the object's write and atomic logs stay empty,
            // so thread 1 need not log it (and its loops carry no log of
            // it, see `havoc_state`). Thread 2's check below still runs.
            if kind == AccessKind::Read && self.read_log_unused(m) {
                if !self.config.only_divergence && self.config.races_checked_on(&obj.name) {
                    self.check_access(oi, m, i, p, is2, o2, width[1], site, kind, value, silent[1])?;
                }
                continue;
            }
            // Row-major cells `k * (row * n + col)` of the two threads'
            // offsets get the lemma that tells them apart (see `cells`).
            self.cell_lemmas_of(o1, m, cells::CellRole::First);
            self.cell_lemmas_of(o2, m, cells::CellRole::Second);
            // Thread 1 logs (a nondeterministic choice among its accesses).
            let choice = self.st.fresh_const("log", Sort::Bool);
            let c1 = self.st.and(&[p[0], is1, choice]);
            let c1 = self.name(c1);
            self.log_choices.insert(c1);
            let old = self.logs.objs[m][kind.index()].clone();
            let mut ghosts = old.ghosts.clone();
            for &l in &enclosing {
                let hp = self.func.blocks[self.loops.loops[l].header].params.clone();
                for (j, &pv) in hp.iter().enumerate() {
                    if let Some(&slot) = self.ghost_slot.get(&(l, j)) {
                        let cur = self.vals[0][&pv];
                        let cur = match cur {
                            Sym::Bool(x) | Sym::Bv(x) => x,
                            Sym::Ptr { off, .. } => off,
                        };
                        let g = self.st.ite(c1, cur, ghosts[slot]);
                        ghosts[slot] = self.name(g);
                    }
                }
            }
            let has = self.st.or(&[c1, old.has]);
            let off = self.st.ite(c1, o1, old.off);
            let wid = self.st.ite(c1, width[0], old.width);
            let st = self.st.ite(c1, site, old.site);
            let val = match value {
                Some(v) => {
                    let x = self.st.ite(c1, v[0], old.val);
                    self.name(x)
                }
                None => old.val,
            };
            // A logged read records whether thread 1's own latest write of
            // the object covers exactly its bytes, and what it wrote.
            let (val, own) = if kind == AccessKind::Read && !self.benign_sites.is_empty() {
                let mine = self.own[0][m].clone();
                let same_off = self.st.eq(mine.off, o1);
                let same_width = self.st.eq(mine.width, width[0]);
                let covered = self.st.and(&[mine.has, same_off, same_width]);
                let own = self.st.ite(c1, covered, old.own);
                let val = self.st.ite(c1, mine.val, old.val);
                (self.name(val), self.name(own))
            } else {
                (val, old.own)
            };
            let silent1 = if kind == AccessKind::Write {
                let s = self.st.ite(c1, silent[0], old.silent);
                self.name(s)
            } else {
                old.silent
            };
            let new = Log {
                has: self.name(has),
                off: self.name(off),
                width: self.name(wid),
                site: self.name(st),
                val,
                own,
                silent: silent1,
                ghosts,
            };
            self.logs.objs[m][kind.index()] = new;
            self.sites.push(Site {
                inst: i,
                tracked: m,
                kind,
                off1: o1,
                width1: width[0],
                val1: value.map(|v| v[0]),
                no_wrap1: no_wrap1.clone(),
                path1: path1.clone(),
                loops: enclosing.clone(),
            });

            // Thread 2 checks against thread 1's logs.
            if !self.config.only_divergence && self.config.races_checked_on(&obj.name) {
                self.check_access(oi, m, i, p, is2, o2, width[1], site, kind, value, silent[1])?;
            }

            if kind != AccessKind::Read {
                self.new_version(m);
            }

            // Each thread's latest write of the object (see `race::Own`):
            // a store that may be benign fills the slot, any other write
            // clears it. Without such stores nothing reads the slots.
            if kind != AccessKind::Read && !self.benign_sites.is_empty() {
                for (t, (is, off)) in [(is1, o1), (is2, o2)].into_iter().enumerate() {
                    let g = self.st.and(&[p[t], is]);
                    if self.st.as_bool(g) == Some(false) {
                        continue;
                    }
                    let old = self.own[t][m].clone();
                    let new = match (kind, value) {
                        (AccessKind::Write, Some(v)) => {
                            let has = self.st.or(&[g, old.has]);
                            let off = self.st.ite(g, off, old.off);
                            let width = self.st.ite(g, width[t], old.width);
                            let val = self.st.ite(g, v[t], old.val);
                            Own { has: self.name(has), off: self.name(off), width: self.name(width), val: self.name(val) }
                        }
                        _ => {
                            let ng = self.st.not(g);
                            let has = self.st.and(&[ng, old.has]);
                            Own { has: self.name(has), ..old }
                        }
                    };
                    self.own[t][m] = new;
                }
            }
        }
        Ok(())
    }

    /// Thread 2's access of kind `kind` at `i` (site `site`, offset `o2`,
    /// width `w2`, on object `oi` when `is2`; `value`: both threads' written
    /// values for a store that may be benign; `silent2`: thread 2's write
    /// leaves its bytes as they were, see `benign`) checked against thread
    /// 1's logs of tracked object `m`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_access(
        &mut self,
        oi: usize,
        m: usize,
        i: InstId,
        p: [TermId; 2],
        is2: TermId,
        o2: TermId,
        w2: TermId,
        site: TermId,
        kind: AccessKind,
        value: Option<[TermId; 2]>,
        silent2: TermId,
    ) -> Res<()> {
        let obj = self.objects[oi].clone();
        let mut guard = vec![p[1], is2];
        if obj.space == MemSpace::Shared {
            guard.push(self.same_group);
        }
        let slot_counter = if kind == AccessKind::Write { self.slot_site(i) } else { None };
        for &k1 in kind.conflicts() {
            let log = self.logs.objs[m][k1.index()].clone();
            let exact_empty = !self.async_copies.memcopy_of.is_empty();
            let ov = overlap(&mut self.st, log.off, log.width, o2, w2, exact_empty);
            let mut all = guard.clone();
            all.push(log.has);
            all.push(ov);
            if let (AccessKind::Write, Some(counter)) = (k1, slot_counter) {
                // Two writes at queue slot sites of one counter and array
                // layout by distinct threads are at distinct slots
                // (`slots.rs`).
                let sites = self.slot_sites_like(i);
                let here = self.site_among(log.site, &sites);
                all.push(self.st.not(here));
                let text = format!(
                    "the atomic increments of `{}` in one launch are fewer than its range (its counts do not wrap around), so the slots they return to distinct threads are distinct",
                    self.objects[counter].name
                );
                if !self.assumptions.contains(&text) {
                    self.assumptions.push(text);
                }
            }
            if let Some(w) = self.config.warp_size {
                // Warp-synchronous semantics (`--warp-sync`, SESA's
                // rule): threads of one warp execute in lockstep, so two
                // of them race only at the same instruction.
                let same_warp = self.same_warp(w);
                let same_site = self.st.eq(log.site, site);
                let apart = self.st.not(same_warp);
                all.push(self.st.or(&[apart, same_site]));
            }
            let same_off = self.st.eq(log.off, o2);
            let same_width = self.st.eq(log.width, w2);
            match (k1, kind, value) {
                (AccessKind::Write, AccessKind::Write, Some(v)) => {
                    // A benign race: the logged write also came from a
                    // benign-capable store and wrote the same value to the
                    // same bytes.
                    let from_benign = self.from_benign_site(log.site);
                    let same_val = self.st.eq(log.val, v[1]);
                    let benign = self.st.and(&[from_benign, same_off, same_width, same_val]);
                    all.push(self.st.not(benign));
                }
                (AccessKind::Write, AccessKind::Read, _) if !self.benign_sites.is_empty() => {
                    // A benign write-read race: thread 2's own latest write
                    // since its last barrier covers exactly the bytes it
                    // reads and wrote the value of the logged write, which
                    // came from a benign-capable store. Any other write of
                    // another value to those bytes races with thread 2's
                    // read too, so the read returns that value in every
                    // interleaving.
                    let from_benign = self.from_benign_site(log.site);
                    let mine = self.own[1][m].clone();
                    let own_off = self.st.eq(mine.off, o2);
                    let own_width = self.st.eq(mine.width, w2);
                    let same_val = self.st.eq(mine.val, log.val);
                    let own_value =
                        self.st.and(&[from_benign, same_off, same_width, mine.has, own_off, own_width, same_val]);
                    // Or the logged write left its bytes as they were.
                    let silent = self.st.and(&[from_benign, log.silent]);
                    let benign = self.st.or(&[own_value, silent]);
                    all.push(self.st.not(benign));
                }
                (AccessKind::Read, AccessKind::Write, Some(v)) => {
                    // The same benign race the other way round: thread 1's
                    // logged read came after its own write of exactly those
                    // bytes, of the value thread 2 writes.
                    let same_val = self.st.eq(log.val, v[1]);
                    let own_value = self.st.and(&[log.own, same_off, same_width, same_val]);
                    // Or thread 2's write leaves its bytes as they were.
                    let benign = self.st.or(&[own_value, silent2]);
                    all.push(self.st.not(benign));
                }
                _ => {}
            }
            let race = self.st.and(&all);
            let ok = self.st.not(race);
            let msg = format!("possible {}-{} race on `{}` ({})", k1.name(), kind.name(), obj.name, obj.space.name());
            self.oblige(
                ok,
                ObKind::Race { obj: oi, k1, k2: kind, off1: log.off, off2: o2, site1: log.site },
                Some(i),
                msg,
                None,
            );
        }
        if kind == AccessKind::Atomic && obj.space != MemSpace::Shared && !self.block_scoped_atomics.is_empty() {
            self.check_block_scoped_atomics(oi, m, i, p, is2, o2, w2);
        }
        Ok(())
    }

    /// Thread 2's atomic at `i` against thread 1's logged atomic: atomics
    /// do not race with atomics, unless one of the two is block-scoped
    /// (`atomicAdd_block`, scope `cta`) and the threads are in different
    /// blocks, which it is not atomic with respect to. Shared memory is
    /// reached by one block only, so only other spaces are checked.
    #[allow(clippy::too_many_arguments)]
    fn check_block_scoped_atomics(&mut self, oi: usize, m: usize, i: InstId, p: [TermId; 2], is2: TermId, o2: TermId, w2: TermId) {
        let log = self.logs.objs[m][AccessKind::Atomic.index()].clone();
        let scoped = if self.block_scoped_atomics.contains(&i) {
            self.st.true_()
        } else {
            let sites = self.block_scoped_atomics.clone();
            self.site_among(log.site, &sites)
        };
        let exact_empty = !self.async_copies.memcopy_of.is_empty();
        let ov = overlap(&mut self.st, log.off, log.width, o2, w2, exact_empty);
        let other_group = self.st.not(self.same_group);
        let race = self.st.and(&[p[1], is2, log.has, ov, other_group, scoped]);
        let ok = self.st.not(race);
        let name = self.objects[oi].name.clone();
        let space = self.objects[oi].space.name();
        self.oblige(
            ok,
            ObKind::Race { obj: oi, k1: AccessKind::Atomic, k2: AccessKind::Atomic, off1: log.off, off2: o2, site1: log.site },
            Some(i),
            format!("possible atomic-atomic race on `{name}` ({space}): a block-scoped atomic is atomic only among its own block's threads"),
            None,
        );
    }

    /// Whether a logged write's `site` is a store that may take part in a
    /// benign race.
    pub(crate) fn from_benign_site(&mut self, site: TermId) -> TermId {
        let mut benign_sites: Vec<InstId> = self.benign_sites.iter().copied().collect();
        benign_sites.sort();
        self.site_among(site, &benign_sites)
    }

    /// Whether a logged access's `site` (bv32) is one of `sites`.
    pub(crate) fn site_among(&mut self, site: TermId, sites: &[InstId]) -> TermId {
        let mut is = Vec::new();
        for s in sites {
            let id = self.st.bv_const(32, s.as_u32() as u128);
            is.push(self.st.eq(site, id));
        }
        self.st.or(&is)
    }

    /// An enabled thread's access to an object with bounds lies within
    /// them: arrays of statically known size under `--check-array-bounds`
    /// (GPUVerify's meaning), and buffers behind pointer parameters whose
    /// size the launch gives. Other memory behind pointer parameters has no
    /// known size and is not checked (the proof lists that as an
    /// assumption).
    pub(crate) fn bounds_check(&mut self, i: InstId, p: [TermId; 2], bases: [TermId; 2], offs: [TermId; 2], width: [TermId; 2]) {
        let mut conj = Vec::new();
        let mut names = Vec::new();
        for (oi, obj) in self.objects.clone().iter().enumerate() {
            let Some(size) = obj.bounds else { continue };
            let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
            let size = self.st.bv_const(64, size as u128);
            for t in 0..2 {
                let on = self.st.eq(bases[t], id);
                if self.st.as_bool(on) == Some(false) {
                    continue;
                }
                if !names.contains(&obj.name) {
                    names.push(obj.name.clone());
                }
                // `off + width <= size` without wrapping around.
                let fits_off = self.st.bvule(offs[t], size);
                let room = self.st.bvsub(size, offs[t]);
                let fits_width = self.st.bvule(width[t], room);
                let inside = self.st.and(&[fits_off, fits_width]);
                let guard = self.st.and(&[p[t], on]);
                conj.push(self.st.implies(guard, inside));
            }
        }
        if conj.is_empty() {
            return;
        }
        let ok = self.st.and(&conj);
        let what = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ");
        self.oblige(
            ok,
            ObKind::Annotation(ViolationKind::OutOfBounds),
            Some(i),
            format!("possible array out-of-bounds access on array {what}"),
            None,
        );
    }

    /// Whether the two threads are in the same warp of `size` threads: the
    /// same group, and the same quotient of their linear local ids (x
    /// fastest). Computed with exact multiplication (not the uninterpreted
    /// product of `mul`): an abstract product could put two threads of
    /// different warps in one, and hide their races.
    pub(crate) fn same_warp(&mut self, size: u32) -> TermId {
        let lin = [self.linear_local_id(0), self.linear_local_id(1)];
        let w = self.st.bv_const(64, size.max(1) as u128);
        let q1 = self.st.bvudiv(lin[0], w);
        let q2 = self.st.bvudiv(lin[1], w);
        let same = self.st.eq(q1, q2);
        self.st.and(&[self.same_group, same])
    }

    /// Thread `t`'s linear local id (x fastest), 64 bits wide, computed
    /// with exact multiplication.
    pub(crate) fn linear_local_id(&mut self, t: usize) -> TermId {
        let mut acc = self.st.bv_const(64, 0);
        for d in (0..3).rev() {
            let g = self.resize(self.gs[d], 64, false);
            let l = self.resize(self.lid[t][d], 64, false);
            let scaled = self.st.bvmul(acc, g);
            acc = self.st.bvadd(scaled, l);
        }
        acc
    }

    /// For each thread: "if the thread is enabled, its pointer base is not
    /// `object`" — the conjuncts of a memory-safety obligation.
    pub(crate) fn no_enabled_thread_on(&mut self, enabled: [TermId; 2], bases: [TermId; 2], object: TermId) -> Vec<TermId> {
        (0..2)
            .map(|t| {
                let on = self.st.eq(bases[t], object);
                let bad = self.st.and(&[enabled[t], on]);
                self.st.not(bad)
            })
            .collect()
    }

    /// An async copy is one operation of the group, made with the
    /// arguments of whichever work-item starts it; the `MemCopy` models it
    /// with the first work-item's. Both are right only when every
    /// work-item of the group passes the same destination, source and
    /// length (the interpreter's `NonUniformGroupCall`, a divergence of the
    /// group). The events are the same by construction (see
    /// `async_copy`).
    pub(crate) fn async_copy_uniform(&mut self, i: InstId, p: [TermId; 2], args: &[ValueId]) -> Res<()> {
        let at = self.loc(i);
        let Some(&m) = self.async_copies.memcopy_of.get(&i) else {
            return err("internal: an async copy without its data movement", at);
        };
        let InstKind::MemCopy { dst, src, .. } = self.func.insts[m].kind else {
            return err("internal: an async copy without its data movement", at);
        };
        let Some(&len) = args.get(2) else { return err("internal: an async copy without its length", at) };
        let mut same = Vec::new();
        for v in [dst, src] {
            let (a, c) = (self.val(0, v)?, self.val(1, v)?);
            same.push(self.eq_sym(a, c));
        }
        let (a, c) = (self.val_bv(0, len)?, self.val_bv(1, len)?);
        same.push(self.st.eq(a, c));
        let same = self.st.and(&same);
        let both = self.st.and(&[p[0], p[1], self.same_group]);
        let ok = self.st.implies(both, same);
        self.oblige(
            ok,
            ObKind::Divergence,
            Some(i),
            "possible non-uniform `async_work_group_copy`: the work-items of a group may pass different arguments".into(),
            None,
        );
        Ok(())
    }

    /// Whether each of the two threads is in the other's warp-barrier mask
    /// `mask` (bit `l` names lane `l`): only then does the barrier order
    /// their accesses.
    pub(crate) fn lanes_name_each_other(&mut self, mask: ValueId) -> Res<TermId> {
        let mut named = Vec::with_capacity(2);
        for t in 0..2 {
            let m = self.val_bv(t, mask)?;
            let m = self.resize(m, 32, false);
            named.push(self.names_lane(m, 1 - t));
        }
        Ok(self.st.and(&named))
    }

    /// For warp instruction `i` in a loop, whose executions each thread
    /// counts (`LogState::warp`): whether the two threads are at the same
    /// occurrence of it, as they execute it now; each enabled thread's count
    /// then advances. `None` when `i` has no counter.
    pub(crate) fn warp_occurrence(&mut self, i: InstId, p: [TermId; 2]) -> Option<TermId> {
        let w = self.logs.warp.iter().position(|(x, _)| *x == i)?;
        let [c1, c2] = self.logs.warp[w].1;
        let same = self.st.eq(c1, c2);
        for t in 0..2 {
            let c = self.logs.warp[w].1[t];
            let one = self.st.bv_const(32, 1);
            let next = self.st.bvadd(c, one);
            let n = self.st.ite(p[t], next, c);
            self.logs.warp[w].1[t] = self.name(n);
        }
        Some(same)
    }

    /// `named`: for a warp barrier with a member mask, whether the two
    /// threads name each other in it (`lanes_name_each_other`); `None`
    /// when every lane is named.
    pub(crate) fn barrier(&mut self, i: InstId, p: [TermId; 2], scope: BarrierScope, fence: lockstep_kir::FenceFlags, named: Option<TermId>) {
        // Any barrier ends the interval in which a thread's own writes make
        // its reads of them benign (as in the interpreter and the finder).
        // Clearing the slots of a thread that does not execute the barrier
        // only forgets facts, which is sound.
        self.clear_own();
        let both = self.st.and(&[p[0], p[1]]);
        // The `MemCopy` sites of async copies that may still be in flight
        // here: the barrier does not end their accesses, so their logs stay.
        let flying: Vec<InstId> = self.async_copies.in_flight.get(&i).cloned().unwrap_or_default();
        match scope {
            BarrierScope::Warp => {
                // A `__syncwarp` orders the accesses of the threads of one
                // warp that take part in it (the interpreter's warp epochs).
                // The product can pair the two threads' executions of it
                // only where each thread executes it at most once, outside
                // every loop: there both executing it means both are at the
                // same instance, and thread 1's earlier accesses are ordered
                // before thread 2's later ones. In a loop the two threads'
                // iterations need not correspond (no divergence check holds
                // them together), so there it synchronises nothing, which
                // only keeps more of the log.
                //
                // In a loop, each thread counts its executions of the
                // `__syncwarp` (`LogState::warp`, loop state with candidate
                // invariants such as `same_warp => c1 == c2`): two threads of
                // one warp that execute it at the same occurrence meet at the
                // same instance, as the interpreter pairs them, and that
                // orders thread 1's earlier accesses before thread 2's later
                // ones. A warp-synchronous tail loop (`v = m[t + s];
                // __syncwarp(); m[t] = v; __syncwarp();`) needs it.
                //
                // A barrier with a member mask orders the two threads only
                // when each names the other: lanes that pass masks of their
                // own half of the warp do not wait for the other half.
                // (CUDA requires every lane a mask names to pass the same
                // mask; masks naming each other one way only are treated
                // as naming neither, which keeps more of the log.)
                let in_loop = self.inst_block.get(&i).is_none_or(|&b| self.loops.innermost(b).is_some());
                let same_occurrence = self.warp_occurrence(i, p);
                if (!in_loop || same_occurrence.is_some()) && !self.config.only_divergence {
                    let lanes = self.config.warp_size.unwrap_or(WARP_LANES);
                    let same_warp = self.same_warp(lanes);
                    let mut parts = vec![both, same_warp];
                    parts.extend(same_occurrence);
                    parts.extend(named);
                    let reset = self.st.and(&parts);
                    let keep = self.st.not(reset);
                    for obj in self.objects.clone() {
                        let Some(m) = obj.tracked else { continue };
                        for k in 0..3 {
                            let n = self.st.and(&[keep, self.logs.objs[m][k].has]);
                            self.logs.objs[m][k].has = self.name(n);
                        }
                    }
                }
            }
            BarrierScope::Group | BarrierScope::Grid => {
                let same = self.st.eq(p[0], p[1]);
                let cond = if scope == BarrierScope::Group { self.st.implies(self.same_group, same) } else { same };
                self.oblige(
                    cond,
                    ObKind::Divergence,
                    Some(i),
                    "possible barrier divergence: the threads of a group may not all reach this barrier".into(),
                    None,
                );
                // GPUVerify (seed chapter 4, "Barriers" and the KPL barrier
                // semantics of chapter 5): a barrier executed by both threads
                // clears the access logs of the memory spaces it fences;
                // threads of different groups are not synchronised by a group
                // barrier, so global logs are only cleared within a group.
                for (oi, obj) in self.objects.clone().iter().enumerate() {
                    let _ = oi;
                    let Some(m) = obj.tracked else { continue };
                    let fenced = match obj.space {
                        MemSpace::Shared => fence.shared || scope == BarrierScope::Grid,
                        _ => fence.global || scope == BarrierScope::Grid,
                    };
                    if !fenced {
                        continue;
                    }
                    let reset = if scope == BarrierScope::Group && obj.space != MemSpace::Shared {
                        self.st.and(&[both, self.same_group])
                    } else if scope == BarrierScope::Group {
                        // Thread 1's log of a shared object is cleared when it
                        // passes the barrier; with thread 2 in another group
                        // (which cannot race on this group's shared memory)
                        // that does not depend on thread 2.
                        let other_group = self.st.not(self.same_group);
                        let second = self.st.or(&[p[1], other_group]);
                        self.st.and(&[p[0], second])
                    } else {
                        both
                    };
                    let keep = self.st.not(reset);
                    for k in 0..3 {
                        let h = self.logs.objs[m][k].has;
                        let mut kept = keep;
                        if !flying.is_empty() {
                            let mut any = vec![keep];
                            for &s in &flying {
                                let id = self.st.bv_const(32, s.as_u32() as u128);
                                any.push(self.st.eq(self.logs.objs[m][k].site, id));
                            }
                            kept = self.st.or(&any);
                        }
                        let n = self.st.and(&[kept, h]);
                        self.logs.objs[m][k].has = self.name(n);
                    }
                }
            }
        }
    }
}
