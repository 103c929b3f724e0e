//! Setting up the product before any block is encoded: what the encoding
//! supports, the memory objects with their race logs, the two threads' ids
//! and the launch sizes, the benign-race sites, and the annotation values
//! that depend on the race logs.

use super::*;

impl<'a> Enc<'a> {
    /// Rejects (as `Unknown`) what the encoding does not model.
    pub(crate) fn check_supported(&self) -> Res<()> {
        for b in self.cfg.rpo.iter() {
            for &i in &self.func.blocks[*b].insts {
                let at = self.loc(i);
                match &self.func.insts[i].kind {
                    InstKind::Call { .. } => return err("call left after inlining", at),
                    InstKind::CallExternal { name, args } => {
                        // A call may take pointers to the calling thread's
                        // own private objects (a by-value struct argument is
                        // passed that way): whatever it does to them cannot
                        // race, and their contents are adversarial anyway.
                        // Any other pointer could let it access shared or
                        // global memory unseen by the race checks.
                        if args.iter().any(|&a| self.func.value_type(a).is_ptr() && !lockstep_analysis::pointers::is_private_local(self.func, a))
                            || self.func.insts[i].result.is_some_and(|r| self.func.value_type(r).is_ptr())
                        {
                            return err(format!("call of `{name}` (without a body) with pointers"), at);
                        }
                    }
                    InstKind::Annot { .. } | InstKind::AnnotValue { .. } if self.config.no_annotations => {}
                    InstKind::Annot { kind, .. } => match kind {
                        AnnotKind::Assert
                        | AnnotKind::WarpMask
                        | AnnotKind::Assume
                        | AnnotKind::Requires
                        | AnnotKind::Invariant
                        | AnnotKind::CandidateInvariant
                        | AnnotKind::NoRead
                        | AnnotKind::NoWrite
                        | AnnotKind::GlobalRequires
                        | AnnotKind::GlobalInvariant
                        | AnnotKind::CandidateGlobalInvariant
                        | AnnotKind::GlobalAssert
                        | AnnotKind::Axiom
                        | AnnotKind::FreshArray => {}
                        AnnotKind::Ensures | AnnotKind::GlobalEnsures if self.postconditions.contains(&i) => {}
                        AnnotKind::FunctionWideInvariant | AnnotKind::FunctionWideCandidateInvariant
                            if self.function_wide_placed => {}
                        AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary => {}
                        other => return err(format!("annotation `{}` not supported yet", other.name()), at),
                    },
                    InstKind::AnnotValue { func, .. } => match func {
                        AnnotFn::ReturnVal | AnnotFn::Old => {
                            return err(format!("annotation `{}` not supported yet", func.name()), at)
                        }
                        _ => {}
                    },
                    InstKind::Builtin { dim, .. } if *dim > 2 => return err("builtin with dimension > 2", at),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The parameter or global a pointer is derived from (by pointer
    /// arithmetic and casts), as an object index.
    pub(crate) fn static_object(&self, v: ValueId) -> Option<usize> {
        Some(self.root_object(lockstep_analysis::pointers::static_root(self.func, v)?))
    }

    /// The object standing for a statically named root.
    pub(crate) fn root_object(&self, r: Root) -> usize {
        match r {
            Root::Global(g) => self.global_obj[&g],
            Root::Param(k) => self.param_obj[&k],
        }
    }

    /// The objects no write can reach (see `unwritten`): shared, global and
    /// constant objects named statically.
    pub(crate) fn unwritten_objects(&self, written: &premem::WrittenMemory) -> Vec<usize> {
        let root_of: HashMap<usize, Root> = self
            .global_obj
            .iter()
            .map(|(&g, &o)| (o, Root::Global(g)))
            .chain(self.param_obj.iter().map(|(&k, &o)| (o, Root::Param(k))))
            .collect();
        (0..self.objects.len())
            .filter(|&o| !written.may_write(root_of.get(&o).copied(), self.objects[o].space))
            .filter(|&o| matches!(self.objects[o].space, MemSpace::Global | MemSpace::Constant | MemSpace::Shared))
            .filter(|&o| !self.unknown_objs.contains(&o))
            .collect()
    }

    /// Whether the read log of tracked object `m` is never needed: every
    /// object it tracks is one no write of the kernel reaches (`unwritten`),
    /// so no access could race with a logged read. Such reads are not
    /// logged, and the log stays empty through every loop. Not in kernels
    /// whose annotations read the logs (`__read(p)` and the like), where
    /// a logged read is part of what the annotation means.
    pub(crate) fn read_log_unused(&self, m: usize) -> bool {
        if !self.log_dependent.is_empty() {
            return false;
        }
        let mut objs = self.objects.iter().enumerate().filter(|(_, o)| o.tracked == Some(m)).peekable();
        objs.peek().is_some() && objs.all(|(oi, _)| self.unwritten.contains(&oi))
    }

    /// A slot that says a thread wrote nothing (see `race::Own`).
    pub(crate) fn no_own(&mut self) -> Own {
        Own {
            has: self.st.false_(),
            off: self.st.bv_const(64, 0),
            width: self.st.bv_const(64, 0),
            val: self.st.bv_const(VAL_BITS, 0),
        }
    }

    /// Forgets both threads' own writes (a barrier, or a loop whose body
    /// may write), and starts new versions of every object's contents.
    pub(crate) fn clear_own(&mut self) {
        for t in 0..2 {
            for o in self.own[t].iter_mut() {
                o.has = self.st.false_();
            }
        }
        for m in 0..self.mem_version.len() {
            self.new_version(m);
        }
    }

    pub(crate) fn new_version(&mut self, m: usize) {
        if self.config.equality_abstraction {
            self.mem_version[m] = self.fresh(&format!("version{m}"), Sort::bv(32));
        }
    }

    /// Whether every race on object `o` is checked, for every pair of
    /// threads that could race on it: what read consistency, within one
    /// thread (`find_consistent_loads`) and between two (`same_read`),
    /// rests on. Not under `--only-divergence` or `--warp-sync` (threads
    /// of one warp do not race), not for global memory under
    /// `--only-intra-group` (another group's writes are not checked), not
    /// for objects `/checkArrays` leaves out, and only for shared and
    /// global memory.
    pub(crate) fn every_race_checked_on(&self, o: usize) -> bool {
        let c = self.config;
        let obj = &self.objects[o];
        let space_checked = match obj.space {
            MemSpace::Shared => true,
            MemSpace::Global => !c.only_intra_group,
            _ => false,
        };
        !c.only_divergence && c.warp_size.is_none() && space_checked && c.races_checked_on(&obj.name)
    }

    /// Adds to `benign_sites` the stores of pointers computed without
    /// reading memory (with `--equality-abstraction`, every store of a
    /// pointer), when equal pointer values are equal addresses for the two
    /// threads: the store writes a `__shared__` object (so two threads that
    /// race on it are in one group), or the stored pointer points into a
    /// module or parameter object that is not `__shared__` (one instance
    /// for every group). A pointer to a `__shared__` array stored to
    /// global memory by two groups names two different instances.
    pub(crate) fn add_pointer_benign_sites(&mut self, equality_abstraction: bool) {
        let independent = lockstep_analysis::ghost::input_independent_stores(self.func);
        let mut add = Vec::new();
        for (i, data) in self.func.insts.iter() {
            let InstKind::Store { ptr, value, .. } = data.kind else { continue };
            if !self.func.value_type(value).is_ptr() || !(equality_abstraction || independent.contains(&i)) {
                continue;
            }
            let target_shared = self.static_object(ptr).is_some_and(|o| self.objects[o].space == MemSpace::Shared);
            let value_unique = self.static_object(value).is_some_and(|o| self.objects[o].space != MemSpace::Shared);
            if target_shared || value_unique {
                add.push(i);
            }
        }
        self.benign_sites.extend(add);
    }

    pub(crate) fn setup_objects(&mut self) {
        let static_bounds = self.config.check_array_bounds;
        let add = |enc: &mut Enc, name: String, space: MemSpace, size: Option<u64>, bounds: Option<u64>| -> usize {
            let tracked = if matches!(space, MemSpace::Private) {
                None
            } else {
                Some(enc.logs.objs.len())
            };
            if tracked.is_some() {
                enc.logs.objs.push(std::array::from_fn(|_| Log {
                    has: enc.st.false_(),
                    off: enc.st.bv_const(64, 0),
                    width: enc.st.bv_const(64, 0),
                    site: enc.st.bv_const(32, 0),
                    val: enc.st.bv_const(VAL_BITS, 0),
                    own: enc.st.false_(),
                    silent: enc.st.false_(),
                    ghosts: Vec::new(),
                }));
                for t in 0..2 {
                    let own = enc.no_own();
                    enc.own[t].push(own);
                }
                let v = enc.st.bv_const(32, 0);
                enc.mem_version.push(v);
            }
            enc.objects.push(Object { name, space, tracked, size, bounds });
            enc.objects.len() - 1
        };
        for (g, obj) in self.module.globals.iter() {
            let i = add(self, obj.name.clone(), obj.space, obj.size, obj.size.filter(|_| static_bounds));
            self.global_obj.insert(g, i);
        }
        let mut pointer_index = 0;
        for (k, p) in self.func.params.iter().enumerate() {
            if let Type::Ptr(space) = p.ty {
                // A by-value struct (a private pointer) is the kernel's own
                // copy; the launch's buffer sizes count the others.
                let bounds = if space == MemSpace::Private {
                    None
                } else {
                    pointer_index += 1;
                    self.config.param_sizes.get(pointer_index - 1).copied().flatten()
                };
                let space = if space == MemSpace::Generic { MemSpace::Global } else { space };
                let i = add(self, p.name.clone(), space, None, bounds);
                self.param_obj.insert(k as u32, i);
            }
        }
        // Memory the kernel reaches only through pointers it loads from
        // memory or makes from integers (say, buffers whose addresses are
        // stored in a struct parameter): one object per space, so that
        // accesses through such pointers are still checked for races.
        add(self, "memory reached through a loaded pointer".into(), MemSpace::Global, None, None);
        add(self, "shared memory reached through a loaded pointer".into(), MemSpace::Shared, None, None);
        self.unknown_objs = self.objects.len() - 2..self.objects.len();
        for (l, obj) in self.func.locals.iter() {
            let i = add(self, obj.name.clone(), MemSpace::Private, obj.size, obj.size.filter(|_| static_bounds));
            self.local_obj.insert(l, i);
        }
        // Ghost slots: one per non-pointer header parameter of every loop.
        let mut slots = Vec::new();
        for (li, l) in self.loops.loops.iter().enumerate() {
            for (j, &p) in self.func.blocks[l.header].params.iter().enumerate() {
                let ty = self.func.value_type(p);
                if !ty.is_ptr() {
                    self.ghost_slot.insert((li, j), slots.len());
                    slots.push(Self::sort_of_type(ty));
                }
            }
        }
        for logs in self.logs.objs.iter_mut() {
            for log in logs.iter_mut() {
                log.ghosts = slots
                    .iter()
                    .map(|s| match s {
                        Sort::Bool => self.st.false_(),
                        s => self.st.bv_const(s.bv_width().unwrap_or(1), 0),
                    })
                    .collect();
            }
        }
        self.assumptions.push("pointer parameters do not alias each other or any global".into());
        self.assumptions.push("pointers loaded from memory are not null".into());
        self.assumptions.push("pointers stored in by-value kernel arguments point to some object of their memory space".into());
    }

    pub(crate) fn setup_threads(&mut self) {
        /// The most threads per block in each dimension a CUDA launch may
        /// have, and the most blocks.
        const CUDA_MAX_BLOCK: [u64; 3] = [1024, 1024, 64];
        const CUDA_MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];
        let c = self.config;
        let dims = c.dims.clamp(1, 3) as usize;
        let mut symbolic = false;
        for d in 0..3 {
            for (sizes, out, name) in [(&c.group_size, 0, "group_size"), (&c.num_groups, 1, "num_groups")] {
                let t = if d >= dims {
                    self.st.bv_const(32, 1)
                } else {
                    match sizes[d] {
                        Some(n) => self.st.bv_const(32, n as u128),
                        None => {
                            symbolic = true;
                            let t = self.fresh(&format!("{name}_{d}"), Sort::bv(32));
                            let z = self.st.bv_const(32, 0);
                            let pos = self.st.bvugt(t, z);
                            self.assume(pos);
                            // No CUDA device launches more (the runtime
                            // refuses the launch); OpenCL's limits are the
                            // device's own.
                            if self.module.language == lockstep_kir::Language::Cuda {
                                let limit = if out == 0 { CUDA_MAX_BLOCK[d] } else { CUDA_MAX_GRID[d] };
                                let max = self.st.bv_const(32, limit as u128);
                                let within = self.st.bvule(t, max);
                                self.assume(within);
                            }
                            t
                        }
                    }
                };
                if out == 0 {
                    self.gs[d] = t;
                } else {
                    self.ng[d] = t;
                }
            }
        }
        // OpenCL's `--global_size` with a symbolic local size: the sizes
        // multiply to the global size. Stated as the list of its factor
        // pairs (`size == d && groups == G / d` for each divisor `d`), which
        // says exactly that without a non-linear product; a global size with
        // very many divisors gets the product (computed in 64 bits).
        for d in 0..dims {
            let Some(global) = c.global_size[d] else { continue };
            if c.group_size[d].is_some() && c.num_groups[d].is_some() {
                continue;
            }
            let divisors: Vec<u64> = (1..=global.isqrt()).filter(|k| global % k == 0).flat_map(|k| [k, global / k]).collect();
            let fact = if global > 0 && divisors.len() <= 512 {
                let mut pairs = Vec::new();
                for k in divisors {
                    let size = self.st.bv_const(32, k as u128);
                    let groups = self.st.bv_const(32, (global / k) as u128);
                    let a = self.st.eq(self.gs[d], size);
                    let b = self.st.eq(self.ng[d], groups);
                    pairs.push(self.st.and(&[a, b]));
                }
                self.st.or(&pairs)
            } else {
                let gs = self.resize(self.gs[d], 64, false);
                let ng = self.resize(self.ng[d], 64, false);
                let product = self.st.bvmul(gs, ng);
                let g = self.st.bv_const(64, global as u128);
                self.st.eq(product, g)
            };
            self.assume(fact);
        }
        if c.global_size[..dims].iter().any(Option::is_some) {
            let sizes: Vec<String> = c.global_size[..dims].iter().map(|x| x.map_or("*".to_string(), |n| n.to_string())).collect();
            self.assumptions.push(format!("global size [{}]: group size times number of groups", sizes.join(",")));
        }
        if symbolic {
            // The number of threads of a group, and of the grid in each
            // dimension, fits in 32 bits. Stating this with multiplications
            // makes every query non-linear and slow, so only its consequences
            // that proofs need are assumed: each size and global id is below
            // 2^32 (true of 32-bit values) and the global-id lemma below.
            self.assumptions.push("symbolic launch sizes are positive and the thread counts fit in 32 bits".into());
            if self.module.language == lockstep_kir::Language::Cuda {
                self.assumptions.push("symbolic launch sizes are within CUDA's limits (blockDim.x and .y at most 1024, .z at most 64; gridDim.x below 2^31, .y and .z below 65536)".into());
            }
        }
        for t in 0..2 {
            for d in 0..3 {
                let l = self.fresh(&format!("lid{}_{d}", t + 1), Sort::bv(32));
                let g = self.fresh(&format!("gid{}_{d}", t + 1), Sort::bv(32));
                let lb = self.st.bvult(l, self.gs[d]);
                let gb = self.st.bvult(g, self.ng[d]);
                self.assume(lb);
                self.assume(gb);
                self.lid[t][d] = l;
                self.gid[t][d] = g;
            }
        }
        // Lemmas (true under the launch constraints, which rule out
        // overflow): the global id `group * size + local` determines the
        // pair (group, local), and, for known sizes, it is below the number
        // of threads. Solvers struggle to derive them from non-linear
        // bit-vector arithmetic, and also from a product with a constant
        // that is not a power of two (the race check of `mirror[gid]` at
        // 1000x1000 took z3 1.4 s without them, 0.04 s with them). Stating
        // them for both operand orders lets them match the kernel's own
        // terms.
        for d in 0..3 {
            let threads = match (c.group_size[d], c.num_groups[d]) {
                (Some(size), Some(groups)) => {
                    let threads = size as u128 * groups as u128;
                    // A power-of-two size makes the product a shift, which
                    // solvers see through at once (the lemmas slowed the
                    // 1024x65535 launch of `race_free.cu` from 0.9 s to
                    // 1.3 s); a grid of more than 2^32 threads wraps the
                    // 32-bit id around, and nothing holds.
                    if size.is_power_of_two() || threads > 1 << 32 {
                        continue;
                    }
                    Some(threads)
                }
                _ => None,
            };
            let mut ids = [Vec::new(), Vec::new()];
            for t in 0..2 {
                let m = self.mul(self.gid[t][d], self.gs[d]);
                ids[t].push(self.st.bvadd(m, self.lid[t][d]));
                ids[t].push(self.st.bvadd(self.lid[t][d], m));
            }
            let same = {
                let a = self.st.eq(self.gid[0][d], self.gid[1][d]);
                let b = self.st.eq(self.lid[0][d], self.lid[1][d]);
                self.st.and(&[a, b])
            };
            for k in 0..ids[0].len() {
                let e = self.st.eq(ids[0][k], ids[1][k]);
                let lemma = self.st.implies(e, same);
                self.assume(lemma);
            }
            if let Some(threads) = threads.filter(|&n| n < 1 << 32) {
                let bound = self.st.bv_const(32, threads);
                for id in ids.iter().flatten().copied().collect::<Vec<_>>() {
                    let below = self.st.bvult(id, bound);
                    self.assume(below);
                }
            }
        }
        let mut same_l = Vec::new();
        let mut same_g = Vec::new();
        for d in 0..3 {
            same_l.push(self.st.eq(self.lid[0][d], self.lid[1][d]));
            same_g.push(self.st.eq(self.gid[0][d], self.gid[1][d]));
        }
        let sg = self.st.and(&same_g);
        self.same_group = self.name(sg);
        let sl = self.st.and(&same_l);
        let same_thread = self.st.and(&[sl, self.same_group]);
        let distinct = self.st.not(same_thread);
        self.assume(distinct);
        if let Some(w) = c.warp_size {
            self.assumptions.push(format!(
                "warp-synchronous execution (--warp-sync={w}): threads of one warp race only at the same instruction"
            ));
        }
        if c.only_divergence {
            self.assumptions.push("data races are not checked (--only-divergence or --only-log)".into());
        } else if let Some(names) = &c.race_arrays {
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            self.assumptions.push(format!("data races are checked, and accesses logged for `__read`/`__write`, only on {} (/checkArrays)", list.join(", ")));
        }
        if c.only_intra_group {
            self.assume(self.same_group);
            self.assumptions.push("only threads of the same group are considered (--only-intra-group)".into());
        }
        let fmt = |s: &[Option<u64>; 3]| {
            s[..dims].iter().map(|x| x.map_or("*".to_string(), |n| n.to_string())).collect::<Vec<_>>().join(",")
        };
        self.assumptions.push(format!(
            "launch configuration: group size [{}], number of groups [{}]",
            fmt(&c.group_size),
            fmt(&c.num_groups)
        ));
        self.assumptions.push("every loop terminates (partial correctness)".into());
        let sized: Vec<String> = self
            .objects
            .iter()
            .filter(|o| o.size.is_none())
            .filter_map(|o| o.bounds.map(|b| format!("`{}` ({b} bytes)", o.name)))
            .collect();
        if c.check_array_bounds && sized.is_empty() {
            self.assumptions.push(
                "array bounds are checked for arrays of known size only, not for memory behind pointer parameters".into(),
            );
        } else if !sized.is_empty() {
            self.assumptions.push(format!(
                "array bounds are checked for {}the buffers behind {}, not for memory reached through pointers loaded from memory",
                if c.check_array_bounds { "arrays of known size and " } else { "" },
                sized.join(", ")
            ));
        }
        let other = if self.consistent_loads.is_empty() { "" } else { "otherwise, " };
        if !c.equality_abstraction {
            self.assumptions.push(format!("{other}values read from memory are arbitrary (adversarial abstraction of memory contents)"));
        } else {
            self.assumptions.push(
                "values read from memory are arbitrary, except that the two threads of a group read one value from the same bytes when neither wrote the object in between (equality abstraction; it holds until a first race, which is checked)"
                    .into(),
            );
        }
    }

    pub(crate) fn compute_log_dependent(&mut self) {
        let mut changed = true;
        while changed {
            changed = false;
            for (i, data) in self.func.insts.iter() {
                let Some(r) = data.result else { continue };
                if self.log_dependent.contains(&r) {
                    continue;
                }
                let direct = matches!(
                    data.kind,
                    InstKind::AnnotValue {
                        func: AnnotFn::Read | AnnotFn::Write | AnnotFn::ReadOffset | AnnotFn::WriteOffset,
                        ..
                    }
                );
                let _ = i;
                if direct || data.kind.operands().iter().any(|v| self.log_dependent.contains(v)) {
                    self.log_dependent.insert(r);
                    changed = true;
                }
            }
        }
    }
}
