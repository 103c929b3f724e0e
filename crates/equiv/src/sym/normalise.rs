//! Canonical forms of integer index arithmetic, so that rewritten address
//! terms coincide syntactically.

use super::*;

/// Rewrites index arithmetic with literal operands into one canonical
/// form, so that the address terms of a kernel and of its strength-reduced
/// version coincide syntactically (which the per-element check relies on):
/// `x << c` becomes `x * 2^c`, `x - c` becomes `x + (-c)`, literals go to
/// the right of `+` and `*`, two symbolic operands of `+` and `*` are put
/// in one order, and nested literals fold (`(x + 1) + 1` is
/// `x + 2`). Every rewrite is an identity of modular arithmetic.
pub(super) fn normalise(st: &mut TermStore, op: BinOp, a: TermId, b: TermId) -> Option<TermId> {
    use lockstep_smt::{Op, TermKind};
    let w = st.sort_of(a).bv_width()?;
    if w > 64 {
        return None;
    }
    let lit = |st: &TermStore, t: TermId| st.as_bv(t).and_then(|v| v.to_u128());
    let m = lockstep_replay::value::mask(w);
    let (op, a, b) = match (op, lit(st, a), lit(st, b)) {
        (_, Some(_), Some(_)) => return None,
        // Unsigned division and remainder by a power of two are a shift and
        // a mask: solvers bit-blast those cheaply, while proving facts
        // about a division circuit is slow (and `(x / 4) * 4 + x % 4`
        // against `(x & ~3) + (x & 3)` is a typical strength reduction).
        (BinOp::UDiv, None, Some(c)) if c.is_power_of_two() => {
            let k = st.bv_const(w, c.trailing_zeros() as u128);
            return Some(st.bvlshr(a, k));
        }
        (BinOp::URem, None, Some(c)) if c.is_power_of_two() => {
            let m = st.bv_const(w, c - 1);
            return Some(st.bvand(a, m));
        }
        (BinOp::Shl, None, Some(c)) if c < w as u128 => (BinOp::Mul, a, st.bv_const(w, (1u128 << c) & m)),
        (BinOp::Sub, None, Some(c)) => (BinOp::Add, a, st.bv_const(w, c.wrapping_neg() & m)),
        (BinOp::Add | BinOp::Mul, Some(_), None) => (op, b, a),
        (BinOp::Add | BinOp::Mul, None, Some(_)) => (op, a, b),
        // Two symbolic operands in one canonical order (the term store is
        // shared by both kernels, so `y * w` and `w * y` become one term:
        // index linearizations written either way coincide).
        (BinOp::Add, None, None) => return Some(if a <= b { st.bvadd(a, b) } else { st.bvadd(b, a) }),
        (BinOp::Mul, None, None) => return Some(if a <= b { st.bvmul(a, b) } else { st.bvmul(b, a) }),
        _ => return None,
    };
    let c = lit(st, b)?;
    let inner_op = if op == BinOp::Add { Op::BvAdd } else { Op::BvMul };
    if let TermKind::App(o, args) = st.kind(a) {
        if *o == inner_op && args.len() == 2 {
            let (x, y) = (args[0], args[1]);
            if let Some(c1) = lit(st, y) {
                let folded = if op == BinOp::Add { c1.wrapping_add(c) } else { c1.wrapping_mul(c) } & m;
                let k = st.bv_const(w, folded);
                return Some(if op == BinOp::Add { st.bvadd(x, k) } else { st.bvmul(x, k) });
            }
        }
    }
    Some(if op == BinOp::Add { st.bvadd(a, b) } else { st.bvmul(a, b) })
}

/// Bits `hi..lo` of `t`, pushed through the bit operations that pack and
/// unpack fields (zero extension, masks by literals, `|`, shifts by
/// literals, nested extractions), so that a field read back from a packed
/// word is the value written into it. Clang's SROA packs a by-value object
/// (a cooperative group's bitfields) into one word, undefined bits and all:
/// without this, `tile.meta_group_rank()` would be a term over those
/// undefined bits rather than the rank. Every step is an identity of
/// bit-vectors; when none applies, the result is the plain extraction.
pub(super) fn extract_known(st: &mut TermStore, hi: u32, lo: u32, t: TermId) -> TermId {
    use lockstep_smt::{Op, TermKind};
    let Some(w) = st.sort_of(t).bv_width() else { return st.extract(hi, lo, t) };
    if lo == 0 && hi + 1 == w {
        return t;
    }
    let n = hi - lo + 1;
    let ones = |bits: u32| if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let lit = |st: &TermStore, t: TermId| st.as_bv(t).and_then(|v| v.to_u128());
    if let Some(c) = lit(st, t) {
        return st.bv_const(n, (c >> lo) & ones(n));
    }
    let plain = |st: &mut TermStore| st.extract(hi, lo, t);
    let TermKind::App(op, args) = st.kind(t).clone() else { return plain(st) };
    match (op, &args[..]) {
        (Op::ZeroExtend(_), [v]) => {
            let fw = st.sort_of(*v).bv_width().unwrap_or(w);
            if hi < fw {
                extract_known(st, hi, lo, *v)
            } else if lo >= fw {
                st.bv_const(n, 0)
            } else {
                let low = extract_known(st, fw - 1, lo, *v);
                st.zero_extend(hi - fw + 1, low)
            }
        }
        (Op::Extract { lo: inner, .. }, [v]) => extract_known(st, hi + inner, lo + inner, *v),
        (Op::BvAnd, [a, b]) => {
            for (x, m) in [(*a, *b), (*b, *a)] {
                if let Some(m) = lit(st, m) {
                    let field = (m >> lo) & ones(n);
                    if field == 0 {
                        return st.bv_const(n, 0);
                    }
                    if field == ones(n) {
                        return extract_known(st, hi, lo, x);
                    }
                }
            }
            let (x, y) = (extract_known(st, hi, lo, *a), extract_known(st, hi, lo, *b));
            st.bvand(x, y)
        }
        (Op::BvOr, [a, b]) => {
            let (x, y) = (extract_known(st, hi, lo, *a), extract_known(st, hi, lo, *b));
            match (lit(st, x), lit(st, y)) {
                (Some(0), _) => y,
                (_, Some(0)) => x,
                _ => st.bvor(x, y),
            }
        }
        // `x << k`, which `normalise` writes `x * 2^k`.
        (Op::BvMul, [a, c]) if lit(st, *c).is_some_and(|c| c.is_power_of_two()) => {
            let k = lit(st, *c).unwrap_or(1).trailing_zeros();
            if hi < k {
                st.bv_const(n, 0)
            } else if lo >= k {
                extract_known(st, hi - k, lo - k, *a)
            } else {
                plain(st)
            }
        }
        (Op::BvLshr, [a, c]) => match lit(st, *c) {
            Some(k) if (hi as u128) + k < w as u128 => extract_known(st, hi + k as u32, lo + k as u32, *a),
            _ => plain(st),
        },
        _ => plain(st),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_smt::{Op, SatResult, Solver, SolverConfig, SolverKind};

    /// A field packed into a word with undefined bits around it is read
    /// back as the value packed, and every extraction keeps its value.
    #[test]
    fn fields_of_packed_words_are_read_back_exactly() {
        let mut st = TermStore::new();
        let undef = st.fresh_const("undef", Sort::bv(64));
        let v = st.fresh_const("v", Sort::bv(16));
        let r = st.fresh_const("r", Sort::bv(8));
        // word = (undef & ~0xffff_0000_0000_00ff) | zext(v) << 48 | zext(r)
        let mask = st.bv_const(64, 0x0000_ffff_ffff_ff00);
        let kept = st.bvand(undef, mask);
        let wide_v = st.zero_extend(48, v);
        let shift = st.bv_const(64, 1 << 48);
        let high = st.bvmul(wide_v, shift);
        let wide_r = st.zero_extend(56, r);
        let with_v = st.bvor(kept, high);
        let word = st.bvor(with_v, wide_r);
        let top = st.bv_const(64, 48);
        let shifted = st.app(Op::BvLshr, &[word, top]);
        assert_eq!(extract_known(&mut st, 15, 0, shifted), v);
        assert_eq!(extract_known(&mut st, 7, 0, word), r);
        let mut solver = Solver::spawn(SolverConfig::new(SolverKind::Z3, std::time::Duration::from_secs(20))).expect("z3");
        let mut differ = Vec::new();
        for (hi, lo) in [(15, 0), (7, 0), (63, 48), (55, 4), (31, 8), (63, 0)] {
            let plain = st.extract(hi, lo, word);
            let known = extract_known(&mut st, hi, lo, word);
            let eq = st.eq(plain, known);
            differ.push(st.not(eq));
        }
        let any = st.or(&differ);
        solver.assert(&st, any).expect("assert");
        assert_eq!(solver.check_sat().expect("check"), SatResult::Unsat);
    }
}
