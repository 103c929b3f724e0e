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
