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
