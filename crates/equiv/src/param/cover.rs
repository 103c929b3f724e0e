//! Outputs whose address terms do not pair one to one: one kernel writes
//! an element per thread, the other several (a `float4` store and a scalar
//! tail, four elements in one branch and up to three in another, several
//! rows per thread), so the two kernels write through different numbers of
//! address terms, and an element's writers are different threads in the
//! two kernels.
//!
//! The rule: in each kernel every element has at most one writer (each
//! address term is injective over the threads of the grid, and writes
//! through two different terms never meet: [`Prover::distinct_terms`]),
//! and for each kernel `X`, each of its terms `x` and an arbitrary thread
//! `t` that writes element `e` through `x`, the other kernel `Y` writes
//! `e` through one of its terms `y`, from a candidate thread `c(t, y)`,
//! with the same value. The candidates are explicit terms (the thread
//! itself, the inverse of an affine address in one local id, and the
//! inverse of an affine address in the global id, whose group is then in
//! general another than `t`'s), so each direction is one quantifier-free
//! query per term: the disjunction over `y` and the candidates. Both
//! directions together: the kernels write the same elements, each once,
//! with the same values.
//!
//! The global inverse `q = (e - β) / α` of an address `α * g + β` with
//! `g = blockIdx * blockDim + threadIdx` is split into a group `b` and a
//! local id `l` by facts `b * blockDim + l = q` and `l < blockDim`
//! (exact, in 64 bits) over fresh constants: such `b` and `l` exist for
//! every `q`, so the facts exclude no thread `t`, and the products they
//! mention are the ones the address mentions, which the abstraction of
//! nonlinear terms then treats alike.

use super::*;

impl Prover<'_> {
    /// Compares buffer `name`, written through the terms `cas_a` by `a`
    /// and `cas_b` by `b`, whose terms the caller could not pair one to one.
    /// The terms of each kernel are already known to hit distinct elements
    /// from one another.
    pub(super) fn compare_cover(&mut self, a: KernelRef, b: KernelRef, name: &str, cas_a: &[Ca], cas_b: &[Ca]) -> Res<()> {
        for cas in [cas_a, cas_b] {
            for ca in cas {
                if self.inp.st.sort_of(ca.value) != self.inp.st.sort_of(cas_a[0].value) {
                    return na(format!("the kernels write `{name}` with elements of different widths"));
                }
            }
        }
        let mut queries = Vec::new();
        for cas in [cas_a, cas_b] {
            for ca in cas {
                queries.push(self.injectivity_query(ca, false)?);
            }
        }
        self.label = "injective (cover)";
        for r in self.sat_many(&queries)? {
            match r {
                SatResult::Unsat => {}
                SatResult::Sat => {
                    return na(format!(
                        "the solver cannot prove that distinct threads write distinct elements of `{name}` through one address term (a write-write race, or index arithmetic that wraps around)"
                    ))
                }
                SatResult::Unknown(why) => return na(format!("proving that writes go to distinct elements: the solver gave up ({why})")),
            }
        }
        let mut queries = Vec::new();
        for (from, to) in [(cas_a, cas_b), (cas_b, cas_a)] {
            for x in from {
                queries.push(self.cover_query(x, to)?);
            }
        }
        self.label = "writer and value (cover)";
        let n_a = cas_a.len();
        for (i, r) in self.sat_many_abstracted(&queries)?.into_iter().enumerate() {
            let (from, to) = if i < n_a { (a, b) } else { (b, a) };
            match r {
                SatResult::Unsat => {}
                SatResult::Sat => {
                    return na(format!(
                        "cannot show that every element of `{name}` that `{}` writes is written by `{}` with the same value (the value may differ, or no candidate thread writes it)",
                        from.func().name,
                        to.func().name
                    ))
                }
                SatResult::Unknown(why) => return na(format!("comparing the elements of `{name}`: the solver gave up ({why})")),
            }
        }
        self.cover_used = true;
        Ok(())
    }

    /// The query whose unsatisfiability shows that, whenever an arbitrary
    /// thread writes an element with `x`, one of the candidate writers
    /// writes the same element with one of the terms `to`, with the same
    /// value.
    fn cover_query(&mut self, x: &Ca, to: &[Ca]) -> Res<Vec<TermId>> {
        let t = self.fresh_inst("C", false);
        let mut facts = self.ctx(t);
        facts.extend(self.global_id_bounds(t));
        let gx = self.at(x.guard, t);
        facts.push(gx);
        let nw = self.guard_no_wrap(x);
        facts.push(self.at(nw, t));
        let addr = self.at(x.off, t);
        let vx = self.at(x.value, t);
        let mut writes = Vec::new();
        // Inverses already made, by the global index they invert: terms
        // that differ only in a literal below their stride (the lanes of
        // a vector store) share one candidate, and its facts are stated
        // once.
        let mut inverses: HashMap<(usize, TermId), (TermId, TermId)> = HashMap::new();
        // Grid-stride inverses already made, by step and counter value:
        // the lanes of a vector store and its scalar tail often invert to
        // one counter value, and then share one candidate.
        let mut strided: HashMap<(TermId, TermId), Inst> = HashMap::new();
        // The row and column of a row-major address, for inverting
        // another row-major address digit by digit: found when first
        // needed (the digit bound is a solver query, which a term with a
        // grid-stride inverse does not need).
        let mut digits = None;
        let mut bits = HashMap::new();
        for y in to {
            // A term whose known low bits differ from `x`'s (another lane
            // of a vector store) writes no element `x` writes, whatever
            // the thread: its candidates would only lengthen the query.
            if super::terms::never_equal(&self.inp.st, x.off, y.off, &mut bits) {
                continue;
            }
            // The thread itself, and the inverse of the address as a
            // function of the global id or, when it is not one, of the
            // local id.
            // The iteration and thread of a grid-stride loop that write
            // `addr` with `y`: when `y` is affine in such a loop's counter,
            // this candidate is its writer, and the inverses in the ids
            // alone (which hold the iteration fixed) are left out. Fewer
            // candidates only make the query harder to refute, never
            // wrong, and each costs the solver dearly (fresh ids, their
            // products, a disjunct).
            let mut cands = vec![t];
            let by_stride = self.stride_inverses(t, addr, y, &mut inverses, &mut strided);
            if !by_stride.is_empty() {
                for (c, split) in by_stride {
                    facts.extend(split);
                    cands.push(c);
                }
            } else if let Some((c, split)) = self.global_inverse(t, addr, y, &mut inverses) {
                facts.extend(split);
                cands.push(c);
            } else if let Some((c, split)) = {
                if digits.is_none() {
                    digits = Some(self.digits(x.off, x.guard)?.map(|d| {
                        let (row, col) = (self.at(d.row, t), self.at(d.col, t));
                        (d, row, col)
                    }));
                }
                self.row_major_inverse(t, digits.as_ref().and_then(|d| d.as_ref()), y, &mut inverses)?
            } {
                facts.extend(split);
                cands.push(c);
            } else if let Some(c) = self.affine_inverse(t, addr, y) {
                cands.push(c);
            }
            let nw = self.guard_no_wrap(y);
            for c in cands {
                if c.tid != t.tid || c.bid != t.bid {
                    facts.push(self.if_valid(c));
                }
                let v = self.valid(c);
                let nw = self.at(nw, c);
                facts.push(self.inp.st.implies(v, nw));
                let mut ok = vec![self.valid(c)];
                ok.push(self.at(y.guard, c));
                let w = self.at(y.off, c);
                ok.push(self.inp.st.eq(w, addr));
                let vy = self.at(y.value, c);
                ok.push(self.inp.st.eq(vy, vx));
                writes.push(self.inp.st.and(&ok));
            }
        }
        let some = self.inp.st.or(&writes);
        facts.push(self.inp.st.not(some));
        Ok(facts)
    }

    /// The thread that writes `addr` with `to` when `to.off` is affine in
    /// the global id of one dimension (`α * (blockIdx.x * blockDim.x +
    /// threadIdx.x) + β`), with the facts that define its ids (see the
    /// module's documentation). The other dimensions' ids are `t`'s. The
    /// caller's query checks the candidate, so a term that is not affine
    /// costs only a refuted disjunct.
    fn global_inverse(&mut self, t: Inst, addr: TermId, to: &Ca, made: &mut HashMap<(usize, TermId), (TermId, TermId)>) -> Option<(Inst, Vec<TermId>)> {
        let [d] = self.id_dims(to.off)[..] else { return None };
        let q = self.global_index(t, d, addr, to.off)?;
        let mut facts = Vec::new();
        let c = self.split_global(t, &[(d, q)], made, &mut facts);
        Some((c, facts))
    }

    /// The writers of `addr` with `to` when `to.off` is affine in the
    /// counter of an iterated grid-stride loop (`α * (gid + q * step) +
    /// β`, [`sym::LoopIteration`]): the counter value `G = (addr - β) / α`
    /// is split into an iteration `q' = G / step` and a global id `G %
    /// step`, which [`Self::split_global`] splits into a group and a local
    /// id. `q'` and the remainder are fresh constants defined by `step !=
    /// 0 → q' * step + r = G ∧ r < step` (exact, in 64 bits): such values
    /// exist for every `G`, so the facts exclude no thread `t`. One
    /// candidate per distinct step of the iterated loops with an unsigned
    /// counter (a signed one's exactness is another matter), shared by the
    /// terms that invert to the same `G` (`strided`); the caller's query
    /// checks each.
    fn stride_inverses(
        &mut self,
        t: Inst,
        addr: TermId,
        to: &Ca,
        made: &mut HashMap<(usize, TermId), (TermId, TermId)>,
        strided: &mut HashMap<(TermId, TermId), Inst>,
    ) -> Vec<(Inst, Vec<TermId>)> {
        let (Some(q), Some(_)) = (self.base_inst.q, t.q) else { return Vec::new() };
        if !self.mentions(&[to.off], q) {
            return Vec::new();
        }
        let [d] = self.id_dims(to.off)[..] else { return Vec::new() };
        if self.inp.st.as_bv(self.base_inst.bid[d]).is_some() || self.inp.st.as_bv(self.base_inst.tid[d]).is_some() {
            return Vec::new();
        }
        // `to.off` at iteration 0 as a function of the global id.
        let at_global = |this: &mut Self, v: u128| {
            let mut i = t;
            i.tid[d] = this.inp.st.bv_const(32, v);
            i.bid[d] = this.inp.st.bv_const(32, 0);
            i.q = Some(this.inp.st.bv_const(32, 0));
            this.at(to.off, i)
        };
        let beta = at_global(self, 0);
        let next = at_global(self, 1);
        let Some(g) = affine_index(&mut self.inp.st, addr, beta, next) else { return Vec::new() };
        // One candidate per distinct step: loops of both kernels that step
        // by the same term (two grid-stride loops) give the same
        // candidate, and a second copy would only lengthen the query.
        let mut steps: Vec<TermId> = Vec::new();
        for it in &self.iter_loops {
            if !steps.contains(&it.step) {
                steps.push(it.step);
            }
        }
        let mut out = Vec::new();
        for step in steps {
            // The same counter value inverted for an earlier term: its
            // candidate, whose facts the query already states.
            if let Some(&c) = strided.get(&(step, g)) {
                out.push((c, Vec::new()));
                continue;
            }
            let mut facts = Vec::new();
            let st = &mut self.inp.st;
            let qc = st.fresh_const("C.iter.q", Sort::bv(32));
            let r = st.fresh_const("C.iter.gid", Sort::bv(32));
            let zero = st.bv_const(32, 0);
            let is_zero = st.eq(step, zero);
            let nonzero = st.not(is_zero);
            let (q64, s64, r64, g64) = (st.zero_extend(32, qc), st.zero_extend(32, step), st.zero_extend(32, r), st.zero_extend(32, g));
            let prod = st.bvmul(q64, s64);
            let sum = st.bvadd(prod, r64);
            let exact = st.eq(sum, g64);
            let below = st.bvult(r, step);
            // The 32-bit forms the loop's counter spells, for the solver's
            // benefit when products are abstracted.
            let prod32 = st.bvmul(qc, step);
            let sum32 = st.bvadd(r, prod32);
            let exact32 = st.eq(sum32, g);
            let defs = st.and(&[exact, below, exact32]);
            facts.push(st.implies(nonzero, defs));
            let mut c = self.split_global(t, &[(d, r)], made, &mut facts);
            c.q = Some(qc);
            // Consequences of the definitions, spelled as each loop with
            // this step spells them (so that the abstraction of products
            // keeps them): the candidate's counter is `G`, and it is
            // exact. They follow from the definitions only for a loop
            // whose counter starts at the global id (`init + q * step`
            // with `init` the global id of dimension `d`): for another
            // start (`gid + 1`) they would contradict the definitions and
            // exclude every thread, so such a loop adds none.
            for it in self.iter_loops.clone() {
                if it.step != step || !self.counts_from_global_id(&it, d) {
                    continue;
                }
                let counter = self.at(it.counter, c);
                let is_g = self.inp.st.eq(counter, g);
                let exact_c = self.at(it.exact, c);
                let implied = self.inp.st.and(&[is_g, exact_c]);
                facts.push(self.inp.st.implies(nonzero, implied));
            }
            strided.insert((step, g), c);
            out.push((c, facts));
        }
        out
    }

    /// Whether the counter of iterated loop `it` is `gid + q * step` for
    /// the global id `gid` of dimension `d` of the base thread, in one of
    /// the operand orders kernels spell (checked on the terms, so that
    /// facts derived from that form are consequences, not assumptions).
    fn counts_from_global_id(&mut self, it: &sym::LoopIteration, d: usize) -> bool {
        let st = &mut self.inp.st;
        let TermKind::App(Op::BvAdd, args) = st.kind(it.counter).clone() else { return false };
        let [init, qs] = args[..] else { return false };
        let q_step = [st.bvmul(it.q, it.step), st.bvmul(it.step, it.q)];
        if !q_step.contains(&qs) {
            return false;
        }
        let (b, l, bd) = (self.base_inst.bid[d], self.base_inst.tid[d], self.inp.local_size[d]);
        let mut gids = Vec::new();
        for m in [st.bvmul(b, bd), st.bvmul(bd, b)] {
            gids.push(st.bvadd(m, l));
            gids.push(st.bvadd(l, m));
        }
        gids.contains(&init)
    }

    /// The writer of the element at row `row` and column `col` (thread
    /// `t`'s digits, [`Prover::digits`]) with `to`, when `to.off` is a
    /// row-major address of the same width whose row is affine in the
    /// global id of one dimension and whose column is affine in that of
    /// another (a 2-D launch over a matrix, `c[row * n + col]` with any
    /// number of rows or columns per thread): each digit is inverted in
    /// its own dimension. Checked by the caller's query like any
    /// candidate.
    fn row_major_inverse(
        &mut self,
        t: Inst,
        from: Option<&(super::terms::RowMajor, TermId, TermId)>,
        to: &Ca,
        made: &mut HashMap<(usize, TermId), (TermId, TermId)>,
    ) -> Res<Option<(Inst, Vec<TermId>)>> {
        let Some((xd, row, col)) = from else { return Ok(None) };
        let Some(yd) = self.digits(to.off, to.guard)? else { return Ok(None) };
        if yd.chain != xd.chain || yd.width != xd.width {
            return Ok(None);
        }
        let ([dr], [dc]) = (&self.id_dims(yd.row)[..], &self.id_dims(yd.col)[..]) else { return Ok(None) };
        let (dr, dc) = (*dr, *dc);
        if dr == dc {
            return Ok(None);
        }
        let (Some(qr), Some(qc)) = (self.global_index(t, dr, *row, yd.row), self.global_index(t, dc, *col, yd.col)) else {
            return Ok(None);
        };
        let mut facts = Vec::new();
        let c = self.split_global(t, &[(dr, qr), (dc, qc)], made, &mut facts);
        Ok(Some((c, facts)))
    }

    /// The dimensions whose ids (local or group) `term` mentions.
    fn id_dims(&self, term: TermId) -> Vec<usize> {
        let syms = self.inp.st.free_symbols(&[term]);
        let depends = |st: &TermStore, x: TermId| match st.kind(x) {
            TermKind::Const(f) => syms.funs.contains(f),
            _ => false,
        };
        (0..3).filter(|&d| depends(&self.inp.st, self.base_inst.tid[d]) || depends(&self.inp.st, self.base_inst.bid[d])).collect()
    }

    /// The global id `q` in dimension `d` at which `term` (affine in that
    /// global id) equals `value`, for the other ids `t`'s; `None` when the
    /// launch fixes the dimension's ids or `term` is not affine.
    fn global_index(&mut self, t: Inst, d: usize, value: TermId, term: TermId) -> Option<TermId> {
        // The group id must be a variable too: a launch of one group
        // leaves nothing to invert.
        if self.inp.st.as_bv(self.base_inst.bid[d]).is_some() || self.inp.st.as_bv(self.base_inst.tid[d]).is_some() {
            return None;
        }
        let at_global = |this: &mut Self, v: u128| {
            let mut i = t;
            i.tid[d] = this.inp.st.bv_const(32, v);
            i.bid[d] = this.inp.st.bv_const(32, 0);
            this.at(term, i)
        };
        let beta = at_global(self, 0);
        let next = at_global(self, 1);
        affine_index(&mut self.inp.st, value, beta, next)
    }

    /// Thread `t` with the ids of each dimension `d` of `globals` replaced
    /// by a group `b` and a local id `l` whose global id is `q` (see the
    /// module's documentation): fresh constants, shared with earlier
    /// calls for the same `(d, q)` (`made`), their defining facts added
    /// to `facts` when new.
    fn split_global(&mut self, t: Inst, globals: &[(usize, TermId)], made: &mut HashMap<(usize, TermId), (TermId, TermId)>, facts: &mut Vec<TermId>) -> Inst {
        let mut c = t;
        for &(d, q) in globals {
            if let Some(&(b, l)) = made.get(&(d, q)) {
                c.tid[d] = l;
                c.bid[d] = b;
                continue;
            }
            let st = &mut self.inp.st;
            let bd = self.inp.local_size[d];
            let b = st.fresh_const(&format!("C.blockIdx.{}", DIMS[d]), Sort::bv(32));
            let l = st.fresh_const(&format!("C.tid.{}", DIMS[d]), Sort::bv(32));
            facts.push(st.bvult(l, bd));
            // The 32-bit forms (both operand orders), as the address spells
            // them, and the exact 64-bit one.
            for m in [st.bvmul(b, bd), st.bvmul(bd, b)] {
                let g = st.bvadd(m, l);
                facts.push(st.eq(g, q));
                let g = st.bvadd(l, m);
                facts.push(st.eq(g, q));
            }
            let (b64, bd64, l64, q64) = (st.zero_extend(32, b), st.zero_extend(32, bd), st.zero_extend(32, l), st.zero_extend(32, q));
            let m64 = st.bvmul(b64, bd64);
            let g64 = st.bvadd(m64, l64);
            facts.push(st.eq(g64, q64));
            // The group is one of the grid's exactly when the global id is
            // below the grid's thread count (which fits in 32 bits): stated
            // for the abstraction of nonlinear terms, which would lose it.
            let gd = self.inp.num_groups[d];
            let in_grid = st.bvult(b, gd);
            for total in [st.bvmul(gd, bd), st.bvmul(bd, gd)] {
                let below = st.bvult(q, total);
                facts.push(st.eq(in_grid, below));
            }
            made.insert((d, q), (b, l));
            c.tid[d] = l;
            c.bid[d] = b;
        }
        c
    }

    /// The assumption that the 32-bit `+` and `*` in the condition of a
    /// write do not wrap around when it holds (for the base thread): a
    /// thread `t` whose `2 * t + 1 < n` holds only because `2 * t + 1`
    /// wraps would write elements far beyond `n`. Reported with the
    /// proof.
    fn guard_no_wrap(&mut self, c: &Ca) -> TermId {
        let nw = no_wrap(&mut self.inp.st, &[c.guard]);
        let all = self.inp.st.and(&nw);
        self.inp.st.implies(c.guard, all)
    }

    /// Facts about thread `i`'s global ids that hold for every thread of
    /// the launch and that the abstraction of nonlinear terms would lose:
    /// `blockIdx * blockDim + threadIdx` (in either operand order) is below
    /// the grid's thread count `gridDim * blockDim` (which fits in 32 bits,
    /// so nothing wraps), and the two orders of that product are equal.
    fn global_id_bounds(&mut self, i: Inst) -> Vec<TermId> {
        let mut out = Vec::new();
        let valid = self.valid(i);
        for d in 0..3 {
            let st = &mut self.inp.st;
            let (bd, gd) = (self.inp.local_size[d], self.inp.num_groups[d]);
            if st.as_bv(bd).is_some() && st.as_bv(gd).is_some() {
                continue;
            }
            let (total, total2) = (st.bvmul(gd, bd), st.bvmul(bd, gd));
            out.push(st.eq(total, total2));
            for m in [st.bvmul(i.bid[d], bd), st.bvmul(bd, i.bid[d])] {
                for g in [st.bvadd(m, i.tid[d]), st.bvadd(i.tid[d], m)] {
                    let below = st.bvult(g, total);
                    out.push(st.implies(valid, below));
                    // The sum does not wrap around either.
                    let no_wrap = st.bvule(m, g);
                    out.push(st.implies(valid, no_wrap));
                }
            }
        }
        out
    }
}
