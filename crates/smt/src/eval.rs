//! Evaluation of terms over concrete values, without a solver.
//!
//! The prover's Daikon filter (`lockstep_prove::daikon`) asks whether a
//! candidate invariant holds in a state a concrete run went through. Such a
//! state gives values to some of the candidate's free constants only (the
//! race logs, say, are not observed), so evaluation is three-valued: a term
//! whose value depends on a constant without a value has none (`None`),
//! except where the known arguments decide it (`false and x`, `true or x`,
//! `false => x`, `ite` on a known condition). A value computed here is the
//! term's value in every model that gives the known constants their values,
//! which is what makes a `false` answer a counterexample to the candidate.
//!
//! Bit-vectors up to 128 bits are evaluated; wider ones, arrays, floating
//! point and uninterpreted functions have no value.

use std::collections::HashMap;

use crate::term::{fold_bv_binary, fold_bv_compare, Op, TermId, TermKind, TermStore};
use crate::value::{mask, to_signed};

/// A concrete value of a Boolean or bit-vector term (bits above the width
/// are zero).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Concrete {
    Bool(bool),
    Bv { width: u32, bits: u128 },
}

impl Concrete {
    /// A bit-vector value of `width` bits, masked to it.
    pub fn bv(width: u32, bits: u128) -> Concrete {
        Concrete::Bv { width, bits: bits & mask(width) }
    }

    fn as_bool(self) -> Option<bool> {
        match self {
            Concrete::Bool(b) => Some(b),
            Concrete::Bv { .. } => None,
        }
    }

    fn as_bits(self) -> Option<(u32, u128)> {
        match self {
            Concrete::Bv { width, bits } => Some((width, bits)),
            Concrete::Bool(_) => None,
        }
    }
}

/// Evaluates `t` in `st`, asking `leaf` for the value of each free constant
/// it meets (`None`: unknown). `memo` caches the values of subterms for
/// one assignment of the leaves; reuse it only with the same `leaf`.
pub fn eval(
    st: &TermStore,
    t: TermId,
    leaf: &mut dyn FnMut(TermId) -> Option<Concrete>,
    memo: &mut HashMap<TermId, Option<Concrete>>,
) -> Option<Concrete> {
    if let Some(&v) = memo.get(&t) {
        return v;
    }
    let v = eval_uncached(st, t, leaf, memo);
    memo.insert(t, v);
    v
}

fn eval_uncached(
    st: &TermStore,
    t: TermId,
    leaf: &mut dyn FnMut(TermId) -> Option<Concrete>,
    memo: &mut HashMap<TermId, Option<Concrete>>,
) -> Option<Concrete> {
    match st.kind(t) {
        TermKind::Bool(b) => Some(Concrete::Bool(*b)),
        TermKind::BitVec(v) => Some(Concrete::bv(v.width(), v.to_u128()?)),
        TermKind::Const(_) => {
            let v = leaf(t)?;
            // A leaf of the wrong sort is the caller's mistake; treat it as
            // unknown rather than compute with it.
            match (v, st.sort_of(t).bv_width()) {
                (Concrete::Bool(_), None) => Some(v),
                (Concrete::Bv { width, .. }, Some(w)) if width == w => Some(v),
                _ => None,
            }
        }
        TermKind::App(op, args) => {
            let args = args.clone();
            eval_app(st, op, &args, leaf, memo)
        }
        _ => None,
    }
}

fn eval_app(
    st: &TermStore,
    op: &Op,
    args: &[TermId],
    leaf: &mut dyn FnMut(TermId) -> Option<Concrete>,
    memo: &mut HashMap<TermId, Option<Concrete>>,
) -> Option<Concrete> {
    let arg = |i: usize, leaf: &mut dyn FnMut(TermId) -> Option<Concrete>, memo: &mut HashMap<TermId, Option<Concrete>>| {
        eval(st, args[i], leaf, memo)
    };
    let b = |v: bool| Some(Concrete::Bool(v));
    match op {
        Op::Not => b(!arg(0, leaf, memo)?.as_bool()?),
        Op::And | Op::Or => {
            // The absorbing value decides, whatever the unknown arguments.
            let absorbing = matches!(op, Op::Or);
            let mut unknown = false;
            for i in 0..args.len() {
                match arg(i, leaf, memo).and_then(Concrete::as_bool) {
                    Some(v) if v == absorbing => return b(absorbing),
                    Some(_) => {}
                    None => unknown = true,
                }
            }
            if unknown {
                None
            } else {
                b(!absorbing)
            }
        }
        Op::Implies => {
            // Right associative: `a => (b => c)`, true when any premise is
            // false or the conclusion is true.
            let n = args.len();
            let mut unknown = false;
            for i in 0..n {
                let v = arg(i, leaf, memo).and_then(Concrete::as_bool);
                match v {
                    Some(false) if i + 1 < n => return b(true),
                    Some(true) if i + 1 == n => return b(true),
                    Some(_) => {}
                    None => unknown = true,
                }
            }
            if unknown {
                None
            } else {
                b(false)
            }
        }
        Op::Xor => {
            let mut acc = false;
            for i in 0..args.len() {
                acc ^= arg(i, leaf, memo)?.as_bool()?;
            }
            b(acc)
        }
        Op::Ite => match arg(0, leaf, memo).and_then(Concrete::as_bool) {
            Some(true) => arg(1, leaf, memo),
            Some(false) => arg(2, leaf, memo),
            None => {
                let x = arg(1, leaf, memo)?;
                (arg(2, leaf, memo)? == x).then_some(x)
            }
        },
        Op::Eq | Op::Distinct => {
            let mut vals = Vec::with_capacity(args.len());
            for i in 0..args.len() {
                vals.push(arg(i, leaf, memo)?);
            }
            if matches!(op, Op::Eq) {
                b(vals.windows(2).all(|w| w[0] == w[1]))
            } else {
                let mut distinct = true;
                for i in 0..vals.len() {
                    for j in i + 1..vals.len() {
                        distinct &= vals[i] != vals[j];
                    }
                }
                b(distinct)
            }
        }
        Op::BvAdd
        | Op::BvSub
        | Op::BvMul
        | Op::BvUdiv
        | Op::BvSdiv
        | Op::BvUrem
        | Op::BvSrem
        | Op::BvShl
        | Op::BvLshr
        | Op::BvAshr
        | Op::BvAnd
        | Op::BvOr
        | Op::BvXor => {
            // n-ary uses fold left, as SMT-LIB defines the associative ones.
            let (w, mut acc) = arg(0, leaf, memo)?.as_bits()?;
            if w == 0 || w > 128 {
                return None;
            }
            for i in 1..args.len() {
                let (w2, x) = arg(i, leaf, memo)?.as_bits()?;
                if w2 != w {
                    return None;
                }
                acc = fold_bv_binary(op, acc, x, w);
            }
            Some(Concrete::bv(w, acc))
        }
        Op::BvNot | Op::BvNeg => {
            let (w, x) = arg(0, leaf, memo)?.as_bits()?;
            let r = if matches!(op, Op::BvNot) { !x } else { x.wrapping_neg() };
            Some(Concrete::bv(w, r))
        }
        Op::BvUlt | Op::BvUle | Op::BvUgt | Op::BvUge | Op::BvSlt | Op::BvSle | Op::BvSgt | Op::BvSge => {
            let (w, x) = arg(0, leaf, memo)?.as_bits()?;
            let (w2, y) = arg(1, leaf, memo)?.as_bits()?;
            if w != w2 || w == 0 || w > 128 {
                return None;
            }
            b(fold_bv_compare(op, x, y, w))
        }
        Op::Concat => {
            let mut width = 0u32;
            let mut bits = 0u128;
            for i in 0..args.len() {
                let (w, x) = arg(i, leaf, memo)?.as_bits()?;
                width += w;
                if width > 128 {
                    return None;
                }
                bits = if w >= 128 { x } else { (bits << w) | x };
            }
            Some(Concrete::bv(width, bits))
        }
        Op::Extract { hi, lo } => {
            let (_, x) = arg(0, leaf, memo)?.as_bits()?;
            Some(Concrete::bv(hi - lo + 1, x >> lo))
        }
        Op::ZeroExtend(n) => {
            let (w, x) = arg(0, leaf, memo)?.as_bits()?;
            (w + n <= 128).then(|| Concrete::bv(w + n, x))
        }
        Op::SignExtend(n) => {
            let (w, x) = arg(0, leaf, memo)?.as_bits()?;
            (w + n <= 128).then(|| Concrete::bv(w + n, to_signed(x, w) as u128))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sort::Sort;

    fn run(st: &TermStore, t: TermId, env: &HashMap<TermId, Concrete>) -> Option<Concrete> {
        let mut memo = HashMap::new();
        eval(st, t, &mut |c| env.get(&c).copied(), &mut memo)
    }

    /// Known leaves give values; an unknown leaf leaves a term without one
    /// unless the known arguments decide it.
    #[test]
    fn three_valued_evaluation() {
        let mut st = TermStore::new();
        let x = st.fresh_const("x", Sort::bv(32));
        let y = st.fresh_const("y", Sort::bv(32));
        let p = st.fresh_const("p", Sort::Bool);
        let one = st.bv_const(32, 1);
        let sum = st.bvadd(x, one);
        let lt = st.bvslt(sum, y);
        let env = HashMap::from([(x, Concrete::bv(32, 0xffff_ffff)), (y, Concrete::bv(32, 3))]);
        // -1 + 1 = 0 < 3, signed.
        assert_eq!(run(&st, lt, &env), Some(Concrete::Bool(true)));
        let ult = st.bvult(y, x);
        assert_eq!(run(&st, ult, &env), Some(Concrete::Bool(true)));
        // `p` is unknown: `p and false` is false, `p and true` unknown.
        let f = st.bvult(x, y);
        let a = st.and(&[p, f]);
        assert_eq!(run(&st, a, &env), Some(Concrete::Bool(false)));
        let a2 = st.and(&[p, lt]);
        assert_eq!(run(&st, a2, &env), None);
        // `p => true` is true; `p => false` unknown.
        let i1 = st.implies(p, lt);
        assert_eq!(run(&st, i1, &env), Some(Concrete::Bool(true)));
        let i2 = st.implies(p, f);
        assert_eq!(run(&st, i2, &env), None);
        // Extensions, extraction and remainders.
        let ext = st.sign_extend(32, x);
        let low = st.extract(63, 32, ext);
        assert_eq!(run(&st, low, &env), Some(Concrete::bv(32, 0xffff_ffff)));
        let three = st.bv_const(32, 3);
        let seven = st.bv_const(32, 7);
        let r = st.bvurem(seven, three);
        assert_eq!(run(&st, r, &HashMap::new()), Some(Concrete::bv(32, 1)));
    }
}
