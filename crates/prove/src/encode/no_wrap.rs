//! Integer operations that do not wrap: the front-end's no-wrap facts
//! (`Function::no_wrap`, LLVM's `nsw`/`nuw`) as assumptions of the product,
//! and what they buy for products of two symbolic values.
//!
//! Clang marks `add`, `sub`, `mul` and `shl` of signed C/C++ integers `nsw`:
//! their overflow is undefined behaviour, so the compiler itself reasons as
//! if the result were the mathematical one. The encoding does the same: a
//! thread that executes such an operation is assumed not to overflow it
//! (guarded by the thread's predicate of the block, so an operation a
//! thread does not execute constrains nothing), and the report states the
//! assumption. Unsigned arithmetic is never marked `nsw` by clang, and its
//! wrap-around is defined, so it stays modular.
//!
//! A product of two non-constant values is an uninterpreted function
//! (`Enc::mul`); it is related to the product by the lemmas of
//! `product_lemmas`, which hold for the real product whenever the
//! uninterpreted predicate `nsw_mul_ok(a, b)` does, and that predicate is
//! assumed exactly where an executed `mul nsw` promises it. This is what
//! proves `out[row * n + col]` with `0 <= col < n` race-free: two rows
//! `r1 < r2` give products at least `n` apart.

use super::*;

/// The most products of two symbolic values that get lemmas; the lemmas
/// grow with the square of their number.
const MAX_PRODUCTS: usize = 48;

/// The assumption the report states when a signed operation is assumed not
/// to overflow.
const SIGNED: &str = "signed integer arithmetic does not overflow (undefined behaviour in C/C++)";
/// The same for operations the compiler marks `nuw`.
const UNSIGNED: &str = "integer arithmetic the compiler marks as not wrapping (`nuw`) does not wrap";
/// The same for a loop counter stepped by symbolic launch sizes.
const LAUNCH_STEP: &str =
    "a loop counter stepped by symbolic launch sizes (a block- or grid-stride loop) does not wrap around past 2^32 (it would have run past every array first)";
/// The same for a signed counter of such a loop.
const SIGNED_LAUNCH_STEP: &str =
    "a signed loop counter stepped by the launch's sizes (`for (int i = threadIdx.x; i < n; i += blockDim.x)`) does not pass INT_MAX: the loop's bound is more than one step below 2^31";

impl<'a> Enc<'a> {
    /// Assumes, for each thread executing instruction `i` (predicates `p`),
    /// that `op` on its operands `args[t]` keeps its no-wrap promise.
    pub(crate) fn assume_no_wrap(&mut self, i: InstId, op: BinOp, p: [TermId; 2], args: [(Sym, Sym); 2]) {
        let flags = self.func.no_wrap_of(i);
        // A block- or grid-stride step by symbolic sizes: the counter's
        // remainder modulo the step, which keeps two threads' counters
        // apart, only survives a step that does not wrap (see
        // `stride::launch_facts`). Clang marks no such `add` (the sizes are
        // unsigned), so the promise is the prover's own, and stated.
        let launch_step = op == BinOp::Add && self.launch_steps.contains(&i);
        // A block- or grid-stride counter its loop tests as an `int`: were
        // it to pass INT_MAX, it would turn negative and pass the test
        // (`c < n`) again; the counter candidates (`c >= start`) and with
        // them the rows that `base + c` of a logged iteration stays in need
        // it not to. Assumed (and stated) like the wrap-around above, for
        // concrete sizes too: clang marks the unsigned step no `nsw`.
        let signed_step = op == BinOp::Add && self.signed_launch_steps.contains(&i);
        if flags.is_none() && !launch_step {
            return;
        }
        for (t, &(a, b)) in args.iter().enumerate() {
            let (Sym::Bv(x), Sym::Bv(y)) = (a, b) else { return };
            let mut conds = Vec::new();
            if launch_step && (self.st.as_bv(x).is_none() && self.st.as_bv(y).is_none()) {
                if let Some(c) = self.fits(op, x, y, false) {
                    conds.push(c);
                    self.state_assumption(LAUNCH_STEP);
                }
            }
            if signed_step && !flags.signed && (self.st.as_bv(x).is_none() || self.st.as_bv(y).is_none()) {
                if let Some(c) = self.fits(op, x, y, true) {
                    conds.push(c);
                    self.state_assumption(SIGNED_LAUNCH_STEP);
                }
            }
            if flags.signed {
                if let Some(c) = self.fits(op, x, y, true) {
                    conds.push(c);
                    self.state_assumption(SIGNED);
                }
            }
            if flags.unsigned {
                if let Some(c) = self.fits(op, x, y, false) {
                    conds.push(c);
                    self.state_assumption(UNSIGNED);
                }
            }
            if conds.is_empty() {
                continue;
            }
            let all = self.st.and(&conds);
            if t == 0 {
                self.no_wrap_t1.insert(i, all);
            }
            let guarded = self.st.implies(p[t], all);
            self.assume(guarded);
        }
    }

    pub(crate) fn state_assumption(&mut self, text: &str) {
        if !self.assumptions.iter().any(|a| a == text) {
            self.assumptions.push(text.into());
        }
    }

    /// A term that holds when the mathematical result of `op` on `x` and
    /// `y`, read as signed (`signed`) or unsigned integers, fits their
    /// width; `None` when there is none worth stating (a shift by a
    /// variable amount, an unsigned product of two variables).
    fn fits(&mut self, op: BinOp, x: TermId, y: TermId, signed: bool) -> Option<TermId> {
        let w = self.st.sort_of(x).bv_width()?;
        if w < 2 || w > 64 {
            return None;
        }
        let konst = |enc: &Self, t: TermId| enc.st.as_bv(t).and_then(|v| v.to_u128());
        match op {
            BinOp::Add | BinOp::Sub => {
                // One more bit holds the mathematical result.
                let (xe, ye) = (self.resize(x, w + 1, signed), self.resize(y, w + 1, signed));
                let wide = if op == BinOp::Add { self.st.bvadd(xe, ye) } else { self.st.bvsub(xe, ye) };
                let low = self.st.extract(w - 1, 0, wide);
                let back = self.resize(low, w + 1, signed);
                Some(self.st.eq(wide, back))
            }
            BinOp::Mul => match (konst(self, x), konst(self, y)) {
                (Some(k), _) => Some(self.factor_range(y, k, w, signed)),
                (_, Some(k)) => Some(self.factor_range(x, k, w, signed)),
                (None, None) if signed => {
                    let (a, b) = if x <= y { (x, y) } else { (y, x) };
                    // `row * n + col` with a global id for `col` needs the
                    // id to be a non-negative `int` (see `stride`).
                    self.launch_facts(true);
                    Some(self.uf("nsw_mul_ok", &[a, b], Sort::Bool))
                }
                (None, None) => None,
            },
            BinOp::Shl => {
                let s = konst(self, y)?;
                if s >= w as u128 {
                    return None;
                }
                let s = s as u32;
                Some(if signed {
                    // The bits shifted out and the result's sign bit all
                    // equal the operand's sign bit.
                    let lo = self.st.bv_const(w, (-(1i128 << (w - 1 - s))) as u128 & mask(w));
                    let hi = self.st.bv_const(w, (1u128 << (w - 1 - s)) - 1);
                    let a = self.st.bvsle(lo, x);
                    let b = self.st.bvsle(x, hi);
                    self.st.and(&[a, b])
                } else {
                    let hi = self.st.bv_const(w, mask(w - s));
                    self.st.bvule(x, hi)
                })
            }
            _ => None,
        }
    }

    /// The range of `x` for which `x * k` fits `w` bits.
    fn factor_range(&mut self, x: TermId, k: u128, w: u32, signed: bool) -> TermId {
        if signed {
            let k = sext_i128(k, w);
            if k == 0 {
                return self.st.bool_const(true);
            }
            let (min, max) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
            let floor = |a: i128, d: i128| if d > 0 { a.div_euclid(d) } else { (-a).div_euclid(-d) };
            let ceil = |a: i128, d: i128| -floor(-a, d);
            let (lo, hi) = if k > 0 { (ceil(min, k), floor(max, k)) } else { (ceil(max, k), floor(min, k)) };
            let (lo, hi) = (lo.max(min), hi.min(max));
            let lo = self.st.bv_const(w, lo as u128 & mask(w));
            let hi = self.st.bv_const(w, hi as u128 & mask(w));
            let a = self.st.bvsle(lo, x);
            let b = self.st.bvsle(x, hi);
            self.st.and(&[a, b])
        } else {
            if k == 0 {
                return self.st.bool_const(true);
            }
            let hi = self.st.bv_const(w, mask(w) / k);
            self.st.bvule(x, hi)
        }
    }

    /// Gives every product of two symbolic values in `t` (an application
    /// of the uninterpreted `mul` that `Enc::mul` built, here with a race
    /// log's ghost values substituted for a thread's) the lemmas of
    /// `product_lemmas`: the logged `out[row * n + col]` of an earlier
    /// iteration has the product `mul(row', n)` over the log's ghost
    /// `row'`, and only a lemma relating it to thread 2's `mul(row, n)`
    /// keeps the two rows apart.
    pub(crate) fn product_lemmas_of(&mut self, t: TermId) {
        let mut stack = vec![t];
        let mut seen = std::collections::HashSet::new();
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            if let lockstep_smt::TermKind::App(op, args) = self.st.kind(u).clone() {
                if let lockstep_smt::Op::Apply(f) = op {
                    if args.len() == 2 && self.st.fun(f).name.starts_with("mul_") {
                        self.product_lemmas(args[0], args[1], u);
                    }
                }
                stack.extend(args);
            }
        }
    }

    /// Records the product `m = mul(a, b)` of two symbolic values and
    /// states what the real product satisfies when it does not overflow
    /// (`nsw_mul_ok`), alone and against every recorded product sharing a
    /// factor `f` with it: for `f >= 0` and `x < x'`, `x * f + f <= x' * f`.
    /// Each lemma is a fact of integer arithmetic for any values that make
    /// its `nsw_mul_ok` premises true, so it is sound to assert everywhere.
    pub(crate) fn product_lemmas(&mut self, a: TermId, b: TermId, m: TermId) {
        if self.products.iter().any(|&(_, _, p)| p == m) || self.products.len() >= MAX_PRODUCTS {
            return;
        }
        let Some(w) = self.st.sort_of(m).bv_width() else { return };

        if w < 2 || w > 64 {
            return;
        }
        let ok = self.uf("nsw_mul_ok", &[a, b], Sort::Bool);
        // Factors extended from narrower values may not be able to
        // overflow at all: a signed j-bit and a signed k-bit value have a
        // product that fits j + k signed bits (`(size_t)row * cols` of two
        // `int`s, 32 + 32 bits, fits 64), and then the promise is a fact,
        // whether or not the compiler marked the `mul` (an unsigned
        // `size_t` product is never marked).
        if self.signed_bits(a) + self.signed_bits(b) <= w {
            self.defs.push(ok);
        }
        // And two such non-negative factors have a product no larger than
        // the product of their largest values: `(size_t)row * cols + col`
        // with `0 <= col < cols` stays below 2^62, so scaling it by the
        // element size cannot wrap around 2^64 and meet another row.
        if let (Some(ha), Some(hb)) = (self.largest(a), self.largest(b)) {
            if let Some(hm) = ha.checked_mul(hb).filter(|&h| w < 128 && h < (1u128 << (w - 1))) {
                let zero = self.st.bv_const(w, 0);
                let a_nonneg = self.st.bvsle(zero, a);
                let b_nonneg = self.st.bvsle(zero, b);
                let pre = self.st.and(&[a_nonneg, b_nonneg]);
                let hi = self.st.bv_const(w, hm);
                let lo_ok = self.st.bvsle(zero, m);
                let hi_ok = self.st.bvsle(m, hi);
                let post = self.st.and(&[lo_ok, hi_ok]);
                let lemma = self.st.implies(pre, post);
                self.defs.push(lemma);
            }
        }
        let zero = self.st.bv_const(w, 0);
        // Two non-negative factors have a non-negative product.
        let a_nonneg = self.st.bvsle(zero, a);
        let b_nonneg = self.st.bvsle(zero, b);
        let pre = self.st.and(&[ok, a_nonneg, b_nonneg]);
        let m_nonneg = self.st.bvsle(zero, m);
        let lemma = self.st.implies(pre, m_nonneg);
        self.defs.push(lemma);
        let earlier = self.products.clone();
        for (a2, b2, m2) in earlier {
            let shared = if a == a2 {
                Some((a, b, b2))
            } else if a == b2 {
                Some((a, b, a2))
            } else if b == a2 {
                Some((b, a, b2))
            } else if b == b2 {
                Some((b, a, a2))
            } else {
                None
            };
            let Some((f, x, x2)) = shared else { continue };
            if x == x2 {
                continue;
            }
            let ok2 = self.uf("nsw_mul_ok", &[a2, b2], Sort::Bool);
            let f_nonneg = self.st.bvsle(zero, f);
            for (lo_x, lo_m, hi_x, hi_m) in [(x, m, x2, m2), (x2, m2, x, m)] {
                let less = self.st.bvslt(lo_x, hi_x);
                let pre = self.st.and(&[ok, ok2, f_nonneg, less]);
                // In one more bit, so that the solver's values of the
                // abstract products cannot make the sum wrap.
                let (lo_w, f_w, hi_w) = (self.resize(lo_m, w + 1, true), self.resize(f, w + 1, true), self.resize(hi_m, w + 1, true));
                let step = self.st.bvadd(lo_w, f_w);
                let apart = self.st.bvsle(step, hi_w);
                let lemma = self.st.implies(pre, apart);
                self.defs.push(lemma);
            }
        }
        self.products.push((a, b, m));
    }
}

impl Enc<'_> {
    /// For the product `m = mul(a, b)` of two symbolic values where a
    /// factor mentions a loop counter that steps by doubling or halving
    /// (`Enc::pow2_counters`, such as a scan's `stride`): `f == 1 << k =>
    /// m == g << k` for each `k` below the width, with `f` that factor and
    /// `g` the other. Facts of bit-vector arithmetic (multiplying by
    /// `2^k` is shifting by `k`, modulo the width), so sound everywhere;
    /// they let the invariants that pin the counter to powers of two
    /// (`opposite-steps`) bound `stride * (2 * t + 2)` without the
    /// solver multiplying two unknowns.
    pub(crate) fn pow2_factor_lemmas(&mut self, a: TermId, b: TermId, m: TermId) {
        let Some(w) = self.st.sort_of(m).bv_width() else { return };
        if w > 64 {
            return;
        }
        for (f, g) in [(a, b), (b, a)] {
            if !self.mentions_pow2_counter(f) {
                continue;
            }
            for k in 0..w {
                let power = self.st.bv_const(w, 1u128 << k);
                let is_power = self.st.eq(f, power);
                let shift = self.st.bv_const(w, k as u128);
                let shifted = self.st.bvshl(g, shift);
                let product = self.st.eq(m, shifted);
                let lemma = self.st.implies(is_power, product);
                self.defs.push(lemma);
            }
        }
    }

    /// Whether term `t` has one of `pow2_counters` among its first few
    /// hundred subterms (a counter shifted or offset by constants).
    fn mentions_pow2_counter(&self, t: TermId) -> bool {
        if self.pow2_counters.is_empty() {
            return false;
        }
        let mut stack = vec![t];
        let mut seen = HashSet::new();
        while let Some(u) = stack.pop() {
            if self.pow2_counters.contains(&u) {
                return true;
            }
            if seen.len() > 256 || !seen.insert(u) {
                continue;
            }
            if let lockstep_smt::TermKind::App(_, args) = self.st.kind(u) {
                stack.extend(args.iter().copied());
            }
        }
        false
    }

    /// How many bits `t` needs as a signed value, from its form alone: a
    /// sign extension of a `j`-bit value needs `j`, a zero extension `j +
    /// 1`, anything else its width.
    fn signed_bits(&self, t: TermId) -> u32 {
        let w = self.st.sort_of(t).bv_width().unwrap_or(u32::MAX / 4);
        match self.st.kind(t) {
            lockstep_smt::TermKind::App(lockstep_smt::Op::SignExtend(_), args) => {
                self.signed_bits(args[0]).min(w)
            }
            lockstep_smt::TermKind::App(lockstep_smt::Op::ZeroExtend(_), args) => {
                let inner = self.st.sort_of(args[0]).bv_width().unwrap_or(w);
                (inner + 1).min(w)
            }
            _ => w,
        }
    }

    /// The largest signed value `t` can have, from its form alone (a sign
    /// or zero extension of a narrower value), or `None`.
    fn largest(&self, t: TermId) -> Option<u128> {
        match self.st.kind(t) {
            lockstep_smt::TermKind::App(lockstep_smt::Op::SignExtend(_), args) => {
                let j = self.st.sort_of(args[0]).bv_width()?;
                (j >= 1 && j < 128).then(|| (1u128 << (j - 1)) - 1)
            }
            lockstep_smt::TermKind::App(lockstep_smt::Op::ZeroExtend(_), args) => {
                let j = self.st.sort_of(args[0]).bv_width()?;
                (j < 127).then(|| (1u128 << j) - 1)
            }
            _ => None,
        }
    }
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn sext_i128(bits: u128, w: u32) -> i128 {
    let shift = 128 - w;
    ((bits << shift) as i128) >> shift
}
