//! Loop counters proved to be powers of two, written as shifts.
//!
//! A tree reduction's counter (`s *= 2`, `s >>= 1`) multiplies, divides
//! and takes remainders by the symbolic counter: `2 * s * tid`,
//! `tid % (2 * s)`. Bit-blasted, each is a 32-bit multiplier or divider
//! circuit, and the queries of the aligned-loop proof that contain them
//! take seconds. Once [`Prover::loop_invariants`] has proved the counter a
//! non-zero power of two in every iteration, the counter is `1 << k` for
//! a fresh `k` with `log2(width)` bits (so `k < width` by construction,
//! and every non-zero power of two is such a shift): substituting it into
//! a query that assumes the invariant keeps its satisfiability exactly.
//! The products, quotients and remainders by it then become shifts and
//! masks, by identities that hold for every value of `k`:
//!
//! - `x * (c << k) = (x * c) << k` (multiplication modulo 2^w is
//!   associative and commutative);
//! - `x % m = x & (m - 1)` when `m` is a power of two or zero (`x % 0` is
//!   `x` in SMT-LIB, and `m - 1` is then all ones), which `c << k` is for a
//!   literal power of two `c`;
//! - `x / (c << k) = (x >> log2(c)) >> k` when `c << k` never loses a bit
//!   (`k` is a narrow value zero-extended, as the counter's is), so that the
//!   divisor is never zero;
//! - `ext(c << k) = ext(c) << ext(k)` under the same condition (the 64-bit
//!   byte offsets of 32-bit indices).
//!
//! A counter also proved at most 1024 (a block's thread count bounds a
//! tree reduction's) gets a 4-bit `k`, so that `2 << k` never loses a bit
//! either.

use super::*;

/// The term `1 << k` for a fresh `k` of `log2(width)` bits, zero-extended
/// to `width`, or of 4 bits when the counter is `small` (at most 1024,
/// so `k <= 10`); `None` for widths that are not powers of two.
pub(super) fn power_of_two_counter(st: &mut TermStore, width: u32, small: bool, name: &str) -> Option<TermId> {
    if !width.is_power_of_two() || width < 2 {
        return None;
    }
    let bits = if small { width.trailing_zeros().min(4) } else { width.trailing_zeros() };
    let k = st.fresh_const(name, Sort::bv(bits));
    let wide = st.zero_extend(width - bits, k);
    let one = st.bv_const(width, 1);
    Some(st.app(Op::BvShl, &[one, wide]))
}

/// `t` with the counters of `map` replaced by their shifts, and the
/// products, quotients and remainders by a shift rewritten as in the
/// module docs. `memo` must only ever be used with the same `map`.
pub(super) fn shift_counters(st: &mut TermStore, t: TermId, map: &HashMap<TermId, TermId>, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = map.get(&t) {
        return r;
    }
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let new: Vec<TermId> = args.iter().map(|&a| shift_counters(st, a, map, memo)).collect();
            match rewrite(st, &op, &new) {
                Some(r) => r,
                None if new[..] == args[..] => t,
                None => st.app(op, &new),
            }
        }
        TermKind::ConstArray(v) => {
            let nv = shift_counters(st, v, map, memo);
            if nv == v {
                t
            } else {
                let index = st.sort_of(t).array_parts().expect("array").0.clone();
                st.const_array(index, nv)
            }
        }
        _ => t,
    };
    memo.insert(t, r);
    r
}

/// `(c, k)` when `t` is `c << k` with `c` a literal.
fn literal_shift(st: &TermStore, t: TermId) -> Option<(u128, TermId)> {
    let TermKind::App(Op::BvShl, args) = st.kind(t) else { return None };
    let c = st.as_bv(args[0])?.to_u128()?;
    Some((c, args[1]))
}

/// The largest value the shift amount `k` can take: a literal, or a narrow
/// value zero-extended (a counter's `k`).
fn max_shift(st: &TermStore, k: TermId) -> Option<u128> {
    if let Some(v) = st.as_bv(k).and_then(|v| v.to_u128()) {
        return Some(v);
    }
    let TermKind::App(Op::ZeroExtend(_), inner) = st.kind(k) else { return None };
    let bits = st.sort_of(inner[0]).bv_width()?;
    (bits < 16).then(|| (1u128 << bits) - 1)
}

/// `c << k` (of `width` bits) never loses a bit: `c << max_shift(k)` fits.
fn shift_fits(st: &TermStore, c: u128, k: TermId, width: u32) -> bool {
    let Some(m) = max_shift(st, k) else { return false };
    let bits = 128 - c.leading_zeros() as u128;
    c == 0 || bits + m <= width as u128
}

/// One rewrite of `op(args)` (arguments already rewritten), if it applies.
fn rewrite(st: &mut TermStore, op: &Op, args: &[TermId]) -> Option<TermId> {
    if let (Op::ZeroExtend(n) | Op::SignExtend(n), [x]) = (op, args) {
        // A shift that never loses a bit (nor sets the sign bit, for a
        // sign extension) is the same shift of the extended literal.
        let width = st.sort_of(*x).bv_width()?;
        let (c, k) = literal_shift(st, *x)?;
        let room = if matches!(op, Op::SignExtend(_)) { width - 1 } else { width };
        if !shift_fits(st, c, k, room) {
            return None;
        }
        let c = st.bv_const(width + n, c);
        let k = st.zero_extend(*n, k);
        return Some(st.app(Op::BvShl, &[c, k]));
    }
    let [x, y] = args[..] else { return None };
    let width = st.sort_of(x).bv_width()?;
    match op {
        Op::BvMul => {
            for (a, b) in [(x, y), (y, x)] {
                if let Some((c, k)) = literal_shift(st, b) {
                    let c = st.bv_const(width, c);
                    let product = st.bvmul(a, c);
                    return Some(st.app(Op::BvShl, &[product, k]));
                }
                // (x << k) * y = (x * y) << k, for a literal y (`2 * s`).
                if let (TermKind::App(Op::BvShl, sargs), Some(_)) = (st.kind(b).clone(), st.as_bv(a)) {
                    let product = st.bvmul(sargs[0], a);
                    return Some(st.app(Op::BvShl, &[product, sargs[1]]));
                }
            }
            None
        }
        Op::BvUrem => {
            let (c, _) = literal_shift(st, y)?;
            if !c.is_power_of_two() {
                return None;
            }
            let one = st.bv_const(width, 1);
            let mask = st.bvsub(y, one);
            Some(st.bvand(x, mask))
        }
        Op::BvUdiv => {
            // Only for a divisor `2^a << k` that is never zero: the
            // quotient is then `(x >> a) >> k`.
            let (c, k) = literal_shift(st, y)?;
            if !c.is_power_of_two() || !shift_fits(st, c, k, width) {
                return None;
            }
            let a = st.bv_const(width, c.trailing_zeros() as u128);
            let first = st.app(Op::BvLshr, &[x, a]);
            Some(st.app(Op::BvLshr, &[first, k]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_smt::{SatResult, Solver, SolverConfig, SolverKind};

    /// Is `a = b` for every value of their free constants (`a != b` unsat)?
    fn always_equal(st: &mut TermStore, a: TermId, b: TermId) -> bool {
        let mut solver = Solver::spawn(SolverConfig::new(SolverKind::Z3, std::time::Duration::from_secs(20))).expect("z3");
        let eq = st.eq(a, b);
        let differ = st.not(eq);
        solver.assert(st, differ).expect("assert");
        solver.check_sat().expect("check") == SatResult::Unsat
    }

    /// Every rewrite keeps the value, for every counter and operand (the
    /// counter's invariant is the substitution itself), including a 5-bit
    /// `k` for which `2 << k` loses its bit.
    #[test]
    fn rewrites_are_exact() {
        for small in [true, false] {
            let mut st = TermStore::new();
            let s = st.fresh_const("s", Sort::bv(32));
            let x = st.fresh_const("x", Sort::bv(32));
            let shift = power_of_two_counter(&mut st, 32, small, "k").expect("32 bits");
            let map: HashMap<TermId, TermId> = [(s, shift)].into_iter().collect();
            let two = st.bv_const(32, 2);
            let four = st.bv_const(64, 4);
            let two_s = st.bvmul(two, s);
            let wide_x = st.zero_extend(32, x);
            let wide_2s = st.zero_extend(32, two_s);
            let byte_x = st.bvmul(wide_x, four);
            let byte_2s = st.bvmul(wide_2s, four);
            let terms = [
                st.bvmul(two_s, x),
                st.app(Op::BvUrem, &[x, two_s]),
                st.app(Op::BvUdiv, &[x, s]),
                st.app(Op::BvUdiv, &[x, two_s]),
                st.app(Op::BvUdiv, &[byte_x, byte_2s]),
                st.sign_extend(32, two_s),
                st.bvmul(wide_x, wide_2s),
            ];
            for t in terms {
                let original = substitute(&mut st, t, &map, &mut HashMap::new());
                let rewritten = shift_counters(&mut st, t, &map, &mut HashMap::new());
                let shown = st.display(t).to_string();
                assert!(always_equal(&mut st, original, rewritten), "small={small}: {shown}");
            }
            // The rewrites do apply (no division left for the counter).
            let q = st.app(Op::BvUrem, &[x, two_s]);
            let r = shift_counters(&mut st, q, &map, &mut HashMap::new());
            assert!(!format!("{}", st.display(r)).contains("bvurem"));
        }
    }
}
