//! Term utilities of the parameterized proof: no-wrap conditions and
//! bounds of address arithmetic, abstraction of non-linear terms, and
//! substitution.

use super::*;

/// Conditions under which no 32-bit `+` or `*` inside `roots` wraps
/// around. Additions of a literal with its top bit set are subtractions
/// after [`sym`]'s normalisation (`x - 1` is `x + 0xffffffff`) and are left
/// exact: assuming they do not wrap would exclude every input.
pub(super) fn no_wrap(st: &mut TermStore, roots: &[TermId]) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<TermId> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let TermKind::App(op, args) = st.kind(t).clone() else { continue };
        stack.extend(args.iter().copied());
        if st.sort_of(t).bv_width() != Some(32) || args.len() != 2 {
            continue;
        }
        let (x, y) = (args[0], args[1]);
        let top = |st: &TermStore, v: TermId| st.as_bv(v).and_then(|b| b.to_u128()).is_some_and(|c| c >> 31 == 1);
        match op {
            Op::BvAdd if !top(st, x) && !top(st, y) => {
                // No carry out: the sum is at least an operand.
                out.push(st.bvuge(t, x));
            }
            Op::BvMul => {
                let (x64, y64) = (st.zero_extend(32, x), st.zero_extend(32, y));
                let prod = st.bvmul(x64, y64);
                let high = st.extract(63, 32, prod);
                let zero = st.bv_const(32, 0);
                out.push(st.eq(high, zero));
            }
            _ => {}
        }
    }
    out
}

/// An upper bound of a 64-bit offset built from zero-extended 32-bit
/// values, literals, `+` and `*`, when the bound shows that the term
/// cannot wrap around; `None` otherwise.
pub(super) fn bound64(st: &TermStore, t: TermId) -> Option<u128> {
    let limit = u64::MAX as u128;
    if let Some(v) = st.as_bv(t).and_then(|v| v.to_u128()) {
        return Some(v);
    }
    let TermKind::App(op, args) = st.kind(t) else { return None };
    let b = match (op, &args[..]) {
        (Op::ZeroExtend(n), [g]) => {
            let w = st.sort_of(*g).bv_width()?;
            let _ = n;
            if w > 32 {
                return None;
            }
            (1u128 << w) - 1
        }
        (Op::BvAdd, [x, y]) => bound64(st, *x)?.checked_add(bound64(st, *y)?)?,
        (Op::BvMul, [x, y]) => bound64(st, *x)?.checked_mul(bound64(st, *y)?)?,
        _ => return None,
    };
    (b <= limit).then_some(b)
}

/// A bound of the magnitude of a 64-bit term read as a signed number,
/// for terms built from sign- and zero-extended values of at most 32 bits,
/// literals, `+` and `*`, when the bound shows that the term cannot
/// overflow as a signed 64-bit value; `None` otherwise.
pub(super) fn magnitude64(st: &TermStore, t: TermId) -> Option<u128> {
    let limit = 1u128 << 63;
    if let Some(v) = st.as_bv(t).and_then(|v| v.to_u128()) {
        let w = st.sort_of(t).bv_width()?;
        let sign = 1u128 << (w - 1);
        let m = if v & sign != 0 { (1u128 << w) - v } else { v };
        return (m < limit).then_some(m);
    }
    let TermKind::App(op, args) = st.kind(t) else { return None };
    let b = match (op, &args[..]) {
        (Op::SignExtend(_), [g]) => {
            let w = st.sort_of(*g).bv_width()?;
            if w > 32 {
                return None;
            }
            1u128 << (w - 1)
        }
        (Op::ZeroExtend(_), [g]) => {
            let w = st.sort_of(*g).bv_width()?;
            if w > 32 {
                return None;
            }
            (1u128 << w) - 1
        }
        (Op::BvAdd, [x, y]) => magnitude64(st, *x)?.checked_add(magnitude64(st, *y)?)?,
        (Op::BvMul, [x, y]) => magnitude64(st, *x)?.checked_mul(magnitude64(st, *y)?)?,
        _ => return None,
    };
    (b < limit).then_some(b)
}

/// Does `t` multiply, divide or take the remainder of two 64-bit non-literals?
pub(super) fn has_nonlinear(st: &TermStore, t: TermId) -> bool {
    any_division_or_product(st, t, |x, args| st.sort_of(x).bv_width() == Some(64) && args.iter().all(|&a| st.as_bv(a).is_none()))
}

/// Does `t` multiply, divide or take the remainder of two non-literals,
/// neither of which is one of `except` (the launch's sizes)?
pub(super) fn has_product(st: &TermStore, t: TermId, except: &[TermId]) -> bool {
    any_division_or_product(st, t, |_, args| {
        args.len() == 2 && args.iter().all(|&a| st.as_bv(a).is_none() && !except.contains(&a))
    })
}

/// Does some product, quotient or remainder in `t` (each shared subterm
/// visited once) satisfy `hit`, given the application and its arguments?
fn any_division_or_product(st: &TermStore, t: TermId, hit: impl Fn(TermId, &[TermId]) -> bool) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if let TermKind::App(op, args) = st.kind(x) {
            if matches!(op, Op::BvMul | Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem) && hit(x, args) {
                return true;
            }
            stack.extend(args.iter().copied());
        }
    }
    false
}

/// A row-major write address: the byte offset `off` as `scale(row * width
/// + col)`, where `scale` is a chain of 64-bit extensions and products by
/// non-zero literals (an element size) that cannot wrap around, so that
/// two offsets with the same chain are equal exactly when their 32-bit
/// indices are. `width` is the factor of the one summand of the index that
/// is a product with a thread-independent term (`is_uniform` says which
/// terms are); `col` is the sum of the other summands.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RowMajor {
    /// The peeled operations, outermost first, for comparing two chains.
    pub chain: Vec<(Op, Option<u128>)>,
    pub row: TermId,
    pub width: TermId,
    pub col: TermId,
}

/// The candidate [`RowMajor`] forms of `off` (none when it has no such form).
pub(super) fn row_major(st: &mut TermStore, off: TermId, is_uniform: &dyn Fn(&TermStore, TermId) -> bool) -> Vec<RowMajor> {
    let mut chain = Vec::new();
    let mut t = off;
    loop {
        let Some(w) = st.sort_of(t).bv_width() else { return Vec::new() };
        if w == 32 {
            break;
        }
        let TermKind::App(op, args) = st.kind(t).clone() else { return Vec::new() };
        match (&op, &args[..]) {
            (Op::ZeroExtend(32) | Op::SignExtend(32), [g]) if w == 64 => {
                chain.push((op.clone(), None));
                t = *g;
            }
            (Op::BvMul, [x, y]) if w == 64 => {
                let (g, c) = match (st.as_bv(*x).and_then(|v| v.to_u128()), st.as_bv(*y).and_then(|v| v.to_u128())) {
                    (_, Some(c)) => (*x, c),
                    (Some(c), None) => (*y, c),
                    _ => return Vec::new(),
                };
                if c == 0 || (bound64(st, t).is_none() && magnitude64(st, t).is_none()) {
                    return Vec::new();
                }
                chain.push((Op::BvMul, Some(c)));
                t = g;
            }
            _ => return Vec::new(),
        }
    }
    // The summands of the 32-bit index.
    let mut summands = Vec::new();
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        match st.kind(x).clone() {
            TermKind::App(Op::BvAdd, args) if args.len() == 2 => stack.extend(args.iter().rev().copied()),
            _ => summands.push(x),
        }
    }
    // Every summand that is a product of a thread-dependent and a
    // thread-independent term is a candidate split (`blockIdx.x *
    // blockDim.x` in the column is one too): the caller keeps the one
    // whose column it proves below the width.
    let mut out = Vec::new();
    for (i, &x) in summands.iter().enumerate() {
        let TermKind::App(Op::BvMul, args) = st.kind(x).clone() else { continue };
        let [p, q] = args[..] else { continue };
        for (row, width) in [(p, q), (q, p)] {
            if st.as_bv(width).is_none() && is_uniform(st, width) && !is_uniform(st, row) {
                let rest: Vec<TermId> = summands.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
                let col = match rest.split_first() {
                    None => st.bv_const(32, 0),
                    Some((&first, others)) => others.iter().fold(first, |acc, &x| st.bvadd(acc, x)),
                };
                out.push(RowMajor { chain: chain.clone(), row, width, col });
                break;
            }
        }
    }
    out
}

/// The 32-bit index `q` with `addr == beta + q * (next - beta)`, for an
/// address affine in one index whose value at index 0 is `beta` and at
/// index 1 is `next`: the writer of `addr` found by inverting the address.
/// A power-of-two stride (an element size) divides as a shift, which the
/// solver bit-blasts cheaply. `None` for a zero stride or an address
/// narrower than 32 bits.
pub(super) fn affine_index(st: &mut TermStore, addr: TermId, beta: TermId, next: TermId) -> Option<TermId> {
    let w = st.sort_of(addr).bv_width()?;
    let alpha = st.bvsub(next, beta);
    let rel = st.bvsub(addr, beta);
    let q = match st.as_bv(alpha).and_then(|v| v.to_u128()) {
        Some(0) => return None,
        Some(a) if a.is_power_of_two() => {
            // With `beta = s + c` (`c` a literal, `c = k * a + r`, `r <
            // a`), a written address `a * q + beta` is `a * (q + k) + r +
            // s`, so `q = (addr - s) / a - k` exactly where the thread
            // writes `addr`: the remainder `r` drops out, and the lanes of
            // a vector store (`16 * t + 4 * j`) and the iterations of an
            // unrolled loop share one candidate writer instead of one
            // each, which keeps the query that tries them all small.
            let (s, c) = split_literal(st, beta);
            let rel = match s {
                Some(s) => st.bvsub(addr, s),
                None => addr,
            };
            let sh = st.bv_const(w, a.trailing_zeros() as u128);
            let q = st.bvlshr(rel, sh);
            let mask = u128::MAX >> (128 - w);
            let k = (c & mask) / a;
            if k == 0 {
                q
            } else {
                let k = st.bv_const(w, k);
                st.bvsub(q, k)
            }
        }
        _ => st.bvudiv(rel, alpha),
    };
    match w {
        32 => Some(q),
        w if w > 32 => Some(st.extract(31, 0, q)),
        _ => None,
    }
}

/// `t` as a non-literal part and a literal addend (`s + c`, either
/// order): `(Some(s), c)`, or `(None, t)` for a literal, or `(Some(t), 0)`.
fn split_literal(st: &TermStore, t: TermId) -> (Option<TermId>, u128) {
    if let Some(v) = st.as_bv(t).and_then(|v| v.to_u128()) {
        return (None, v);
    }
    if let TermKind::App(Op::BvAdd, args) = st.kind(t) {
        if let [x, y] = args[..] {
            for (s, c) in [(x, y), (y, x)] {
                if let Some(v) = st.as_bv(c).and_then(|v| v.to_u128()) {
                    return (Some(s), v);
                }
            }
        }
    }
    (Some(t), 0)
}

/// `t` with every multiplication, division and remainder of two
/// non-literal operands replaced by a fresh constant (the same one for the
/// same term). The result is implied by `t` being satisfiable, so an
/// `unsat` answer for it is one for `t`; it avoids nonlinear bit-vector
/// arithmetic when the facts at stake do not need it.
pub(crate) fn abstract_nonlinear(st: &mut TermStore, t: TermId, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let lit = |st: &TermStore, x: TermId| st.as_bv(x).is_some();
            let nonlinear = matches!(op, Op::BvMul | Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem)
                && args.len() == 2
                && !lit(st, args[0])
                && !lit(st, args[1]);
            if nonlinear {
                let sort = st.sort_of(t).clone();
                st.fresh_const("nonlinear", sort)
            } else {
                let new: Vec<TermId> = args.iter().map(|&a| abstract_nonlinear(st, a, memo)).collect();
                if new[..] == args[..] {
                    t
                } else {
                    st.app(op, &new)
                }
            }
        }
        _ => t,
    };
    memo.insert(t, r);
    r
}

/// `t` with every multiplication, division and remainder of two
/// non-literal operands replaced by an uninterpreted function of its
/// (abstracted) operands, one per operator and width. Weaker than the
/// original (the real operator is one interpretation of the function), so
/// an `unsat` answer stands; stronger than [`abstract_nonlinear`], since
/// equal operands still give equal results: `a * x[i]` in one kernel and
/// `a * x[j]` in the other are equal wherever `i = j`, without the solver
/// bit-blasting a 32-bit product.
///
/// A product with an operand in `launch` (the launch's sizes: `blockIdx.x *
/// blockDim.x`) becomes a fresh constant, as in [`abstract_nonlinear`]:
/// the queries state what they need of those (global-id bounds, the
/// facts of a candidate writer's ids), and fewer applications keep the
/// solver's congruence reasoning small.
pub(crate) fn abstract_nonlinear_uf(st: &mut TermStore, t: TermId, launch: &[TermId], memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    if let TermKind::App(Op::BvMul, args) = st.kind(t).clone() {
        if args.len() == 2 && args.iter().all(|&a| st.as_bv(a).is_none()) && args.iter().any(|a| launch.contains(a)) {
            let sort = st.sort_of(t).clone();
            let r = st.fresh_const("nonlinear", sort);
            memo.insert(t, r);
            return r;
        }
    }
    let r = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let new: Vec<TermId> = args.iter().map(|&a| abstract_nonlinear_uf(st, a, launch, memo)).collect();
            let name = match op {
                Op::BvMul => Some("mul"),
                Op::BvUdiv => Some("udiv"),
                Op::BvUrem => Some("urem"),
                Op::BvSdiv => Some("sdiv"),
                Op::BvSrem => Some("srem"),
                _ => None,
            };
            let nonlinear = args.len() == 2 && st.as_bv(args[0]).is_none() && st.as_bv(args[1]).is_none();
            match (name, nonlinear) {
                (Some(name), true) => {
                    let sort = st.sort_of(t).clone();
                    let w = sort.bv_width().unwrap_or(0);
                    let f = st.declare_fun(&format!("nonlinear.{name}{w}"), &[sort.clone(), sort.clone()], sort);
                    st.apply(f, &new)
                }
                _ if new[..] == args[..] => t,
                _ => st.app(op, &new),
            }
        }
        _ => t,
    };
    memo.insert(t, r);
    r
}

/// `t` with the constants in `map` replaced.
pub fn substitute(st: &mut TermStore, t: TermId, map: &HashMap<TermId, TermId>, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = map.get(&t) {
        return r;
    }
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let new: Vec<TermId> = args.iter().map(|&a| substitute(st, a, map, memo)).collect();
            if new[..] == args[..] {
                t
            } else {
                st.app(op, &new)
            }
        }
        TermKind::ConstArray(v) => {
            let nv = substitute(st, v, map, memo);
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

/// The truth of the conjunction of `facts` once the symbols in `values` are
/// replaced by their values: `Some` when every fact folds to a literal (or
/// one to `false`), `None` when some fact still mentions other symbols (or
/// operators the term store does not fold).
pub(super) fn fold_under(st: &mut TermStore, facts: &[TermId], values: &HashMap<TermId, TermId>) -> Option<bool> {
    let mut memo = HashMap::new();
    let mut all = true;
    for &f in facts {
        let g = substitute(st, f, values, &mut memo);
        match st.as_bool(g) {
            Some(true) => {}
            Some(false) => return Some(false),
            None => all = false,
        }
    }
    all.then_some(true)
}

/// A few concrete launches for [`fold_under`]: every bit-vector or Boolean
/// constant of `facts` gets a value (0, false), the block and grid sizes 1
/// except `blockDim.x`, which takes each of the common sizes in turn; two
/// more points take iteration 1 of an iterated loop with scalar arguments
/// of 4096.
/// Satisfying assignments found this way are models: a satisfiable query
/// needs no solver when one of them satisfies it.
pub(super) fn sample_points(st: &mut TermStore, facts: &[TermId]) -> Vec<HashMap<TermId, TermId>> {
    // The constants of `facts`, by a walk over their terms.
    let mut consts = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<TermId> = facts.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        match st.kind(t) {
            TermKind::Const(f) => consts.push((t, *f)),
            TermKind::App(_, args) => stack.extend(args.iter().copied()),
            TermKind::ConstArray(v) => stack.push(*v),
            _ => {}
        }
    }
    let mut points = Vec::new();
    // The last two points run a later iteration of an iterated loop
    // (`iter.q` 1) on large scalar arguments, so that a grid-stride
    // counter's digit (`tid + q * stride` against `blockDim`) can exceed
    // a launch size while the iteration still runs: a failed digit bound
    // then needs no solver, which takes long to find that model.
    for (x, later) in [(64u128, false), (256, false), (32, false), (1, false), (64, true), (32, true)] {
        let mut values = HashMap::new();
        for &(c, f) in &consts {
            let name = st.fun(f).name.clone();
            let v = match st.sort_of(c).clone() {
                s if s.bv_width().is_some() => {
                    let w = s.bv_width().expect("a bit-vector");
                    let v = if name == "blockDim.x" {
                        x
                    } else if name.starts_with("blockDim.") || name.starts_with("gridDim.") {
                        1
                    } else if later && name.starts_with("iter.q") {
                        1
                    } else if later && name.starts_with("arg") && w >= 16 {
                        4096
                    } else {
                        0
                    };
                    st.bv_const(w, v)
                }
                Sort::Bool => st.false_(),
                _ => continue,
            };
            values.insert(c, v);
        }
        points.push(values);
    }
    points
}

/// What is known of the low bits of a bit-vector term whatever its free
/// constants are: `t ≡ v (mod 2^k)` as `(k, v)` (`k` at most 64). A
/// literal is known entirely, a multiplication by a literal `2^s * o`
/// shifts what is known of the other operand by `s` bits, sums and
/// extensions keep it, and anything else knows nothing. Two terms whose
/// known low bits differ are never equal, for any thread or input: the
/// lanes of a vector store (`4 * t + 1` against `4 * t' + 2`) need no
/// solver query to be told apart.
pub(super) fn low_bits(st: &TermStore, t: TermId, memo: &mut HashMap<TermId, (u32, u128)>) -> (u32, u128) {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let w = st.sort_of(t).bv_width().unwrap_or(0).min(64);
    let mask = |k: u32, v: u128| if k == 0 { 0 } else { v & ((1u128 << k) - 1) };
    let lit = |x: TermId| st.as_bv(x).and_then(|b| b.to_u128());
    let r = if w == 0 {
        (0, 0)
    } else if let Some(c) = lit(t) {
        (w, mask(w, c))
    } else {
        match st.kind(t) {
            TermKind::App(op, args) => match (op, &args[..]) {
                (Op::BvAdd | Op::BvSub, [a, b]) => {
                    let ((ka, va), (kb, vb)) = (low_bits(st, *a, memo), low_bits(st, *b, memo));
                    let k = ka.min(kb);
                    let v = if *op == Op::BvAdd { va.wrapping_add(vb) } else { va.wrapping_sub(vb) };
                    (k, mask(k, v))
                }
                (Op::BvMul, [a, b]) => {
                    let ((ka, va), (kb, vb)) = (low_bits(st, *a, memo), low_bits(st, *b, memo));
                    // A literal factor `2^s * o` makes `s` more low bits
                    // known (zeros below the other operand's known bits).
                    let by_lit = |c: u128, k: u32, v: u128| {
                        let s = if c == 0 { w } else { c.trailing_zeros().min(w) };
                        let k = (k + s).min(w);
                        (k, mask(k, v.wrapping_mul(c)))
                    };
                    match (lit(*a), lit(*b)) {
                        (Some(c), _) => by_lit(c, kb, vb),
                        (_, Some(c)) => by_lit(c, ka, va),
                        _ => {
                            let k = ka.min(kb);
                            (k, mask(k, va.wrapping_mul(vb)))
                        }
                    }
                }
                (Op::BvShl, [a, b]) => match lit(*b) {
                    Some(s) if s < w as u128 => {
                        let (ka, va) = low_bits(st, *a, memo);
                        let k = (ka + s as u32).min(w);
                        (k, mask(k, va << s))
                    }
                    _ => (0, 0),
                },
                (Op::ZeroExtend(_) | Op::SignExtend(_), [a]) => low_bits(st, *a, memo),
                (Op::Extract { hi, lo }, [a]) => {
                    let (ka, va) = low_bits(st, *a, memo);
                    let k = ka.saturating_sub(*lo).min(hi + 1 - lo);
                    (k, mask(k, va >> lo))
                }
                (Op::Ite, [_, a, b]) => {
                    let ((ka, va), (kb, vb)) = (low_bits(st, *a, memo), low_bits(st, *b, memo));
                    // The bits both branches agree on.
                    let mut k = ka.min(kb);
                    let diff = (va ^ vb) & if k == 0 { 0 } else { (1u128 << k) - 1 };
                    if diff != 0 {
                        k = diff.trailing_zeros();
                    }
                    (k, mask(k, va))
                }
                _ => (0, 0),
            },
            _ => (0, 0),
        }
    };
    memo.insert(t, r);
    r
}

/// Are `a` and `b` different for every value of their free constants, by
/// their known low bits ([`low_bits`])?
pub(super) fn never_equal(st: &TermStore, a: TermId, b: TermId, memo: &mut HashMap<TermId, (u32, u128)>) -> bool {
    if st.sort_of(a) != st.sort_of(b) {
        return false;
    }
    let ((ka, va), (kb, vb)) = (low_bits(st, a, memo), low_bits(st, b, memo));
    let k = ka.min(kb);
    k > 0 && (va ^ vb) & ((1u128 << k) - 1) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_smt::{SatResult, Solver, SolverConfig, SolverKind};

    /// Does `t ≡ v (mod 2^k)` hold for every value of its free constants?
    fn holds(st: &mut TermStore, t: TermId, k: u32, v: u128) -> bool {
        let mut solver = Solver::spawn(SolverConfig::new(SolverKind::Z3, std::time::Duration::from_secs(20))).expect("z3");
        let low = st.extract(k - 1, 0, t);
        let val = st.bv_const(k, v);
        let eq = st.eq(low, val);
        let differ = st.not(eq);
        solver.assert(st, differ).expect("assert");
        solver.check_sat().expect("check") == SatResult::Unsat
    }

    /// The low bits claimed of vector-lane byte addresses, shifted and
    /// scaled indices and a conditional are true for every thread, and
    /// they tell the lanes apart but not a lane from itself elsewhere.
    #[test]
    fn low_bits_are_sound_and_tell_lanes_apart() {
        let mut st = TermStore::new();
        let t = st.fresh_const("t", Sort::bv(32));
        let u = st.fresh_const("u", Sort::bv(32));
        let c = st.fresh_const("c", Sort::Bool);
        let (four, six, one, two) = (st.bv_const(32, 4), st.bv_const(32, 6), st.bv_const(32, 1), st.bv_const(32, 2));
        let four64 = st.bv_const(64, 4);
        let lane = |st: &mut TermStore, x: TermId, l: u128| {
            let base = st.bvmul(four, x);
            let l = st.bv_const(32, l);
            let idx = st.bvadd(base, l);
            let wide = st.zero_extend(32, idx);
            st.bvmul(wide, four64)
        };
        let lanes: Vec<TermId> = (0..4).map(|l| lane(&mut st, t, l)).collect();
        let other = lane(&mut st, u, 1);
        let shifted = st.app(Op::BvShl, &[t, two]);
        let odd = st.bvadd(shifted, one);
        let scaled = st.bvmul(six, u);
        let sub = st.app(Op::BvSub, &[odd, scaled]);
        let ite = st.ite(c, odd, one);
        let ext = st.extract(15, 2, lanes[3]);
        let mut memo = HashMap::new();
        for term in lanes.iter().copied().chain([other, shifted, odd, scaled, sub, ite, ext]) {
            let (k, v) = low_bits(&st, term, &mut memo);
            assert!(k > 0, "{}", st.display(term));
            assert!(holds(&mut st, term, k, v), "{}: claimed ≡ {v} mod 2^{k}", st.display(term));
        }
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(never_equal(&st, lanes[i], lanes[j], &mut memo), i != j, "lanes {i} and {j}");
            }
        }
        // Lane 1 of another thread may be lane 1 of this one.
        assert!(!never_equal(&st, lanes[1], other, &mut memo));
        assert!(never_equal(&st, lanes[2], other, &mut memo));
    }
}
