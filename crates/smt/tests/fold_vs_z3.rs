//! Checks the constant folder against z3: for many operators, widths and
//! operand values, the folded literal must equal what z3 computes for the
//! unfolded application.

mod common;

use lockstep_smt::{Op, SatResult, Sort, TermId, TermStore};

/// A small deterministic generator (no dependency on `rand`).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u128 {
        let mut word = || {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 11
        };
        (word() as u128) << 64 | word() as u128 ^ (word() as u128) << 40
    }
}

#[test]
fn constant_folding_agrees_with_z3() {
    let binary = [
        Op::BvAdd,
        Op::BvSub,
        Op::BvMul,
        Op::BvUdiv,
        Op::BvSdiv,
        Op::BvUrem,
        Op::BvSrem,
        Op::BvShl,
        Op::BvLshr,
        Op::BvAshr,
        Op::BvAnd,
        Op::BvOr,
        Op::BvXor,
        Op::BvUlt,
        Op::BvUle,
        Op::BvUgt,
        Op::BvUge,
        Op::BvSlt,
        Op::BvSle,
        Op::BvSgt,
        Op::BvSge,
    ];
    let mut folded_store = TermStore::new();
    let mut raw = TermStore::without_simplification();
    let mut rng = Lcg(0x5eed);
    let mut cases: Vec<(TermId, String)> = Vec::new();
    let mut check = |raw: &mut TermStore, folded: &mut TermStore, op: Op, args: &[(u32, u128)]| {
        let fa: Vec<TermId> = args.iter().map(|&(w, v)| folded.bv_const(w, v)).collect();
        let ra: Vec<TermId> = args.iter().map(|&(w, v)| raw.bv_const(w, v)).collect();
        let f = folded.app(op.clone(), &fa);
        assert!(
            folded.as_bv(f).is_some() || folded.as_bool(f).is_some(),
            "{op:?} on literals did not fold: {}",
            folded.display(f)
        );
        // Rebuild the folded literal in the raw store and compare there.
        let lit = match folded.as_bv(f) {
            Some(v) => raw.bv_value(v.clone()),
            None => raw.bool_const(folded.as_bool(f).unwrap()),
        };
        let app = raw.app(op, &ra);
        let differs = raw.distinct(&[app, lit]);
        cases.push((differs, raw.display(differs).to_string()));
    };
    for w in [1u32, 3, 8, 13, 32, 64, 127, 128] {
        let m = if w == 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        };
        let specials = [0, 1, m, m >> 1, (m >> 1) + 1, 2 & m];
        for op in &binary {
            for i in 0..12 {
                let (a, b) = if i < specials.len() {
                    (rng.next() & m, specials[i] & m)
                } else {
                    (rng.next() & m, rng.next() & m)
                };
                check(&mut raw, &mut folded_store, op.clone(), &[(w, a), (w, b)]);
                // Small shift amounts are the interesting ones.
                check(
                    &mut raw,
                    &mut folded_store,
                    op.clone(),
                    &[(w, b), (w, a % (w as u128 + 2))],
                );
            }
        }
        for _ in 0..4 {
            let a = rng.next() & m;
            check(&mut raw, &mut folded_store, Op::BvNot, &[(w, a)]);
            check(&mut raw, &mut folded_store, Op::BvNeg, &[(w, a)]);
            check(
                &mut raw,
                &mut folded_store,
                Op::Extract {
                    hi: w - 1,
                    lo: w / 2,
                },
                &[(w, a)],
            );
            if w <= 64 {
                check(
                    &mut raw,
                    &mut folded_store,
                    Op::ZeroExtend(64 - w + 1),
                    &[(w, a)],
                );
                check(
                    &mut raw,
                    &mut folded_store,
                    Op::SignExtend(64 - w + 1),
                    &[(w, a)],
                );
                check(
                    &mut raw,
                    &mut folded_store,
                    Op::Concat,
                    &[(w, a), (64, rng.next() & u64::MAX as u128)],
                );
            }
        }
    }

    // One query for all cases: any wrong fold makes the disjunction satisfiable.
    let mut s = common::solver(lockstep_smt::SolverKind::Z3);
    let all: Vec<TermId> = cases.iter().map(|(t, _)| *t).collect();
    let any_wrong = raw.or(&all);
    s.assert(&raw, any_wrong).unwrap();
    if s.check_sat().unwrap() != SatResult::Unsat {
        // Find the culprits for the message.
        let values = s.get_value(&raw, &all).unwrap();
        let wrong: Vec<&String> = cases
            .iter()
            .zip(values)
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|((_, text), _)| text)
            .collect();
        panic!(
            "{} wrong folds, e.g. {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
    }
    assert!(cases.len() > 3000, "{} cases", cases.len());
    let _ = Sort::Bool;
}

/// `known_trailing_zeros` is a lower bound: for terms of many shapes over
/// free variables, z3 finds no model where one of the low bits it claims
/// zero is set. Shapes whose count is known are also checked to be
/// counted (the analysis would be useless if it always said 0).
#[test]
fn known_trailing_zeros_are_zero_in_every_model() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(32));
    let y = st.declare_const("y", Sort::bv(32));
    let c = st.declare_const("c", Sort::Bool);
    let k4 = st.bv_const(32, 4);
    let k12 = st.bv_const(32, 12);
    let k3 = st.bv_const(32, 3);
    let x4 = st.bvmul(x, k4);
    let y12 = st.bvmul(k12, y);
    let ys = st.bvshl(y, k3);
    let sum = st.bvadd(x4, y12);
    let diff = st.bvsub(ys, x4);
    let pick = st.ite(c, sum, ys);
    let wide = st.zero_extend(32, pick);
    let two = st.bv_const(64, 2);
    let wide = st.bvmul(wide, two);
    let hi_lo = st.concat(x, ys);
    let low = st.extract(15, 1, ys);
    let masked = st.bvand(x, y12);
    let neg = st.bvneg(diff);
    let cases: Vec<(TermId, u32)> = vec![
        (x4, 2),
        (y12, 2),
        (ys, 3),
        (sum, 2),
        (diff, 2),
        (pick, 2),
        (wide, 3),
        (hi_lo, 3),
        (low, 2),
        (masked, 2),
        (neg, 2),
        (x, 0),
    ];
    let mut wrong = Vec::new();
    for &(t, expected) in &cases {
        let known = st.known_trailing_zeros(t);
        assert_eq!(known, expected, "trailing zeros of {}", st.display(t));
        if known == 0 {
            continue;
        }
        let w = st.sort_of(t).bv_width().unwrap();
        // Built without the store's own folding of `t & mask`, which relies
        // on the analysis under test.
        let mut raw = TermStore::without_simplification();
        let t_raw = copy_term(&st, &mut raw, t);
        let mask = raw.bv_const(w, (1u128 << known) - 1);
        let low_bits = raw.bvand(t_raw, mask);
        let zero = raw.bv_const(w, 0);
        let set = raw.distinct(&[low_bits, zero]);
        let mut s = common::solver(lockstep_smt::SolverKind::Z3);
        s.assert(&raw, set).unwrap();
        if s.check_sat().unwrap() != SatResult::Unsat {
            wrong.push(st.display(t).to_string());
        }
    }
    assert!(wrong.is_empty(), "claimed zero bits that can be set: {wrong:?}");
    // The store folds a mask of known-zero bits away.
    let m3 = st.bv_const(32, 3);
    let folded = st.bvand(x4, m3);
    assert_eq!(st.as_bv(folded).and_then(|v| v.to_u128()), Some(0));
    let m7 = st.bv_const(32, 7);
    let kept = st.bvand(x4, m7);
    assert!(st.as_bv(kept).is_none(), "bit 2 of 4 * x is not known");
}

/// `x + k1 = x + k2` folds to false for different literals, and z3 agrees
/// that no model satisfies the unfolded equality; sums of different bases
/// are left to the solver.
#[test]
fn sums_with_different_constants_are_never_equal() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(32));
    let y = st.declare_const("y", Sort::bv(32));
    let k = |st: &mut TermStore, v| st.bv_const(32, v);
    let (k0, k5, k7) = (k(&mut st, 0xfc00_0000), k(&mut st, 5), k(&mut st, 7));
    let x5 = st.bvadd(x, k5);
    let x7 = st.bvadd(k7, x);
    let x_big = st.bvadd(x, k0);
    let y5 = st.bvadd(y, k5);
    for (a, b) in [(x5, x7), (x, x5), (x_big, x), (x7, x_big)] {
        let e = st.eq(a, b);
        assert_eq!(st.as_bool(e), Some(false), "{} = {}", st.display(a), st.display(b));
        let mut raw = TermStore::without_simplification();
        let (ra, rb) = (copy_term(&st, &mut raw, a), copy_term(&st, &mut raw, b));
        let eq = raw.eq(ra, rb);
        let mut s = common::solver(lockstep_smt::SolverKind::Z3);
        s.assert(&raw, eq).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Unsat, "{} = {}", st.display(a), st.display(b));
    }
    let e = st.eq(x5, y5);
    assert!(st.as_bool(e).is_none(), "x + 5 = y + 5 holds when x = y");
}

/// `t` rebuilt in `to`, operator by operator (constants by name).
fn copy_term(from: &TermStore, to: &mut TermStore, t: TermId) -> TermId {
    match from.kind(t).clone() {
        lockstep_smt::TermKind::Bool(b) => to.bool_const(b),
        lockstep_smt::TermKind::BitVec(v) => to.bv_value(v),
        lockstep_smt::TermKind::Const(f) => {
            let d = from.fun(f);
            to.declare_const(&d.name, d.ret.clone())
        }
        lockstep_smt::TermKind::App(op, args) => {
            let a: Vec<TermId> = args.iter().map(|&a| copy_term(from, to, a)).collect();
            to.app(op, &a)
        }
        other => panic!("unexpected term {other:?}"),
    }
}
