//! Terms: what an undetermined value is, as a function of the run's draws.
//!
//! Definedness tracking (`definedness`) knows *which* bits of a value the
//! run does not determine; a comparison of two undetermined values is then
//! a use, since another run could send it the other way. Yet a program
//! often compares a value with another computation of the same value: a
//! host that fills `a` and `b` from `rand()` seeded with the clock, and
//! checks the kernel's `c[i] == a[i] + b[i]`. Whatever the draws, both
//! sides are equal, and the comparison is determined.
//!
//! So every undetermined value also carries a term (`TermId`), hash-consed
//! in `Terms`: a fresh symbol per draw (a read of memory never written, an
//! input, a result the environment leaves open), and an operation node per
//! instruction that computes with undetermined operands. The invariant:
//! **two values with the same term are equal in every run that takes the
//! same path**, because a term is built only from the run's draws,
//! constants, and operations that are functions of their operands (the
//! same on the host and on the device: integer operations, and IEEE's
//! correctly rounded float addition, subtraction and multiplication; not
//! library functions, whose device and host versions differ). An identical
//! pair compared for equality is then determined; NaN, which is not equal
//! to itself, is excluded by a magnitude bound on float terms.
//!
//! Term `0` means "no term": such a value is never identical to another.
//! Terms live in `Memory`, so that they cross from the host's run into its
//! launches and back; memory keeps the term of stored undetermined values
//! (`Memory::tag`), cleared by any later write of those bytes.

use std::collections::HashMap;

use lockstep_kir::{BinOp, CastOp, FloatCC, FloatOp, IntCC};

/// A term's index in `Terms`; 0 is no term.
pub type TermId = u32;

/// How many terms one run may create: past it, values get no term (a
/// host loop over millions of undetermined values would otherwise hold
/// gigabytes of terms; a million take about 100 MiB, within the default
/// memory limit). Without a term a comparison stays a use: only precision
/// is lost.
const MAX_TERMS: usize = 1_000_000;

/// One term: a draw, a constant, or an operation on other terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// The run's `n`-th draw: a value the run does not determine.
    Fresh(u32),
    /// A determined operand: its bits and width.
    Const(u128, u32),
    Bin(BinOp, TermId, TermId, u32),
    Cmp(IntCC, TermId, TermId),
    Cast(CastOp, TermId, u32, u32),
    /// A float operation (unary ones have 0 as their second operand).
    Float(FloatOp, TermId, TermId, u32),
    Select(TermId, TermId, TermId),
}

/// What a term's values may be, in every run: an interval of the signed
/// integers its bits stand for, or of the finite floats (never NaN).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Range {
    Unknown,
    Int(i128, i128),
    Float(f64, f64),
}

/// The signed values of width `w`.
fn signed_limits(w: u32) -> (i128, i128) {
    if w >= 128 {
        (i128::MIN, i128::MAX)
    } else {
        (-(1i128 << (w - 1).min(126)), (1i128 << (w - 1).min(126)) - 1)
    }
}

/// `[lo, hi]` as an integer range of width `w`, when it fits.
fn int_range(lo: Option<i128>, hi: Option<i128>, w: u32) -> Range {
    let (min, max) = signed_limits(w.max(1));
    match (lo, hi) {
        (Some(lo), Some(hi)) if min <= lo && lo <= hi && hi <= max => Range::Int(lo, hi),
        _ => Range::Unknown,
    }
}

/// `[lo, hi]` as a float range of width `w`, widened for rounding (a
/// correctly rounded result is within one part in 2^10 of the exact one,
/// even in half precision), when it is finite.
fn float_range(lo: f64, hi: f64, w: u32) -> Range {
    let widen = |v: f64| v.abs() / 1024.0;
    let (lo, hi) = (lo - widen(lo), hi + widen(hi));
    match largest_float(w) {
        Some(max) if lo.is_finite() && hi.is_finite() && -max < lo && hi < max && lo <= hi => Range::Float(lo, hi),
        _ => Range::Unknown,
    }
}

/// The outcome of `cc` on integers from `a` and `b` (signed ranges of
/// width `w`), when every pair gives the same.
pub fn int_outcome_ranges(cc: IntCC, a: (i128, i128), b: (i128, i128)) -> Option<bool> {
    let unsigned = matches!(cc, IntCC::Ult | IntCC::Ule | IntCC::Ugt | IntCC::Uge);
    if unsigned && (a.0 < 0 || b.0 < 0) {
        // Negative values are large unsigned ones: not ordered as ranges.
        return None;
    }
    let lt = if a.1 < b.0 { Some(true) } else if a.0 >= b.1 { Some(false) } else { None };
    let le = if a.1 <= b.0 { Some(true) } else if a.0 > b.1 { Some(false) } else { None };
    let gt = if a.0 > b.1 { Some(true) } else if a.1 <= b.0 { Some(false) } else { None };
    let ge = if a.0 >= b.1 { Some(true) } else if a.1 < b.0 { Some(false) } else { None };
    let eq = if a.1 < b.0 || b.1 < a.0 { Some(false) } else if a.0 == a.1 && b.0 == b.1 && a.0 == b.0 { Some(true) } else { None };
    match cc {
        IntCC::Eq => eq,
        IntCC::Ne => eq.map(|e| !e),
        IntCC::Ult | IntCC::Slt => lt,
        IntCC::Ule | IntCC::Sle => le,
        IntCC::Ugt | IntCC::Sgt => gt,
        IntCC::Uge | IntCC::Sge => ge,
    }
}

/// The outcome of `cc` on floats from `a` and `b` (finite, never NaN), when
/// every pair gives the same.
pub fn float_outcome_ranges(cc: FloatCC, a: (f64, f64), b: (f64, f64)) -> Option<bool> {
    let lt = if a.1 < b.0 { Some(true) } else if a.0 >= b.1 { Some(false) } else { None };
    let le = if a.1 <= b.0 { Some(true) } else if a.0 > b.1 { Some(false) } else { None };
    let gt = if a.0 > b.1 { Some(true) } else if a.1 <= b.0 { Some(false) } else { None };
    let ge = if a.0 >= b.1 { Some(true) } else if a.1 < b.0 { Some(false) } else { None };
    let eq = if a.1 < b.0 || b.1 < a.0 { Some(false) } else if a.0 == a.1 && b.0 == b.1 && a.0 == b.0 { Some(true) } else { None };
    // Without NaN, ordered and unordered comparisons agree.
    match cc {
        FloatCC::False | FloatCC::Uno => Some(false),
        FloatCC::True | FloatCC::Ord => Some(true),
        FloatCC::Oeq | FloatCC::Ueq => eq,
        FloatCC::One | FloatCC::Une => eq.map(|e| !e),
        FloatCC::Olt | FloatCC::Ult => lt,
        FloatCC::Ole | FloatCC::Ule => le,
        FloatCC::Ogt | FloatCC::Ugt => gt,
        FloatCC::Oge | FloatCC::Uge => ge,
    }
}

/// The hash-consed terms of a run (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Terms {
    nodes: Vec<Node>,
    /// Per term, the values it may take (see `Range`).
    ranges: Vec<Range>,
    /// Per term, a bound on its magnitude as a float of its width, when
    /// one is known (infinity otherwise): a term under the largest finite
    /// float of its width is never NaN.
    bounds: Vec<f64>,
    index: HashMap<Node, TermId>,
    fresh: u32,
    /// The host's path condition: each branch of the host program on an
    /// undetermined condition that has a term, with the way it took (see
    /// `note_path`).
    pub path: Vec<(TermId, bool)>,
    path_seen: std::collections::HashSet<(TermId, bool)>,
}

/// How many branches of a host run `Terms::path` keeps: dropping later
/// ones only weakens what a launch may assume.
const MAX_PATH: usize = 4096;

/// Whether integer `op` gives the same result with its operands swapped.
fn commutes(op: BinOp) -> bool {
    matches!(op, BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor)
}

/// The largest finite float of `bits` bits (none for other widths).
fn largest_float(bits: u32) -> Option<f64> {
    match bits {
        16 => Some(65504.0),
        32 => Some(f32::MAX as f64),
        64 => Some(f64::MAX),
        _ => None,
    }
}

impl Terms {
    fn intern(&mut self, node: Node) -> TermId {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        if self.nodes.len() >= MAX_TERMS {
            return 0;
        }
        let bound = self.bound_of(&node);
        let range = self.range_of(&node);
        self.nodes.push(node);
        self.bounds.push(bound);
        self.ranges.push(range);
        let id = self.nodes.len() as TermId;
        self.index.insert(node, id);
        id
    }

    fn bound(&self, t: TermId) -> f64 {
        if t == 0 {
            return f64::INFINITY;
        }
        self.bounds[t as usize - 1]
    }

    /// A bound on the node's magnitude as a float (see `bounds`). A
    /// correctly rounded result exceeds the exact one by at most one part in
    /// 2^10 even in half precision, hence the margin.
    fn bound_of(&self, node: &Node) -> f64 {
        let margin = 1.0 + 1.0 / 1024.0;
        match *node {
            Node::Const(bits, w) => {
                let v = match w {
                    32 => f32::from_bits(bits as u32) as f64,
                    64 => f64::from_bits(bits as u64),
                    _ => f64::INFINITY,
                };
                if v.is_finite() {
                    v.abs()
                } else {
                    f64::INFINITY
                }
            }
            Node::Cast(CastOp::SiToFp, _, from, _) => 2f64.powi(from.saturating_sub(1) as i32) * margin,
            Node::Cast(CastOp::UiToFp, _, from, _) => 2f64.powi(from as i32) * margin,
            Node::Cast(CastOp::FpExt, a, _, _) => self.bound(a),
            Node::Float(FloatOp::Add | FloatOp::Sub, a, b, _) => (self.bound(a) + self.bound(b)) * margin,
            Node::Float(FloatOp::Mul, a, b, _) => self.bound(a) * self.bound(b) * margin,
            Node::Float(FloatOp::Neg, a, _, _) => self.bound(a),
            _ => f64::INFINITY,
        }
    }

    /// The integer range of term `t`.
    pub fn int_range_of(&self, t: TermId) -> Option<(i128, i128)> {
        if t == 0 {
            return None;
        }
        match self.nodes[t as usize - 1] {
            Node::Const(bits, w) => {
                let v = crate::value::sext(bits, w);
                Some((v, v))
            }
            _ => match self.ranges[t as usize - 1] {
                Range::Int(lo, hi) => Some((lo, hi)),
                _ => None,
            },
        }
    }

    /// The float range of term `t`, as a float of `w` bits.
    pub fn float_range_of(&self, t: TermId, w: u32) -> Option<(f64, f64)> {
        if t == 0 {
            return None;
        }
        match self.nodes[t as usize - 1] {
            Node::Const(bits, cw) if cw == w => {
                let v = match w {
                    32 => f32::from_bits(bits as u32) as f64,
                    64 => f64::from_bits(bits as u64),
                    _ => return None,
                };
                v.is_finite().then_some((v, v))
            }
            _ => match self.ranges[t as usize - 1] {
                Range::Float(lo, hi) => Some((lo, hi)),
                _ => None,
            },
        }
    }

    /// The values a new node may take, from its operands'.
    fn range_of(&self, node: &Node) -> Range {
        let int = |t: TermId| self.int_range_of(t);
        let float = |t: TermId, w: u32| self.float_range_of(t, w);
        match *node {
            Node::Bin(op, a, b, w) => {
                let (Some((al, ah)), Some((bl, bh))) = (int(a), int(b)) else {
                    // A remainder by a positive constant lies below it whatever
                    // the dividend (with its sign for a signed one).
                    if let (BinOp::SRem | BinOp::URem, Some((c, c2))) = (op, int(b)) {
                        if c == c2 && c > 0 {
                            let lo = if op == BinOp::SRem { -(c - 1) } else { 0 };
                            return int_range(Some(lo), Some(c - 1), w);
                        }
                    }
                    // `x & m` with a non-negative `m` lies in [0, m] whatever `x`.
                    if op == BinOp::And {
                        for t in [a, b] {
                            if let Some((lo, hi)) = int(t).filter(|r| r.0 >= 0) {
                                return int_range(Some(0), Some(hi.max(lo)), w);
                            }
                        }
                    }
                    return Range::Unknown;
                };
                match op {
                    BinOp::Add => int_range(al.checked_add(bl), ah.checked_add(bh), w),
                    BinOp::Sub => int_range(al.checked_sub(bh), ah.checked_sub(bl), w),
                    BinOp::Mul => {
                        let products = [al.checked_mul(bl), al.checked_mul(bh), ah.checked_mul(bl), ah.checked_mul(bh)];
                        if products.iter().any(Option::is_none) {
                            return Range::Unknown;
                        }
                        let products = products.map(|p| p.expect("checked"));
                        int_range(products.iter().min().copied(), products.iter().max().copied(), w)
                    }
                    // A remainder by a positive constant is below it, with the
                    // dividend's sign.
                    BinOp::SRem if bl == bh && bl > 0 => {
                        let c = bl - 1;
                        int_range(Some(al.max(-c).min(0)), Some(ah.min(c).max(0)), w)
                    }
                    BinOp::URem if bl == bh && bl > 0 && al >= 0 => int_range(Some(0), Some(ah.min(bl - 1)), w),
                    BinOp::SDiv | BinOp::UDiv if bl == bh && bl > 0 && (al >= 0 || op == BinOp::SDiv) => {
                        int_range(Some(al / bl), Some(ah / bl), w)
                    }
                    BinOp::And if al >= 0 || bl >= 0 => {
                        let hi = if al >= 0 && bl >= 0 { ah.min(bh) } else if al >= 0 { ah } else { bh };
                        int_range(Some(0), Some(hi), w)
                    }
                    BinOp::LShr | BinOp::AShr if bl == bh && (0..w as i128).contains(&bl) && al >= 0 => {
                        int_range(Some(al >> bl), Some(ah >> bl), w)
                    }
                    _ => Range::Unknown,
                }
            }
            // A comparison is one bit, whose signed values are -1 and 0: no
            // range worth keeping.
            Node::Cmp(..) => Range::Unknown,
            Node::Cast(op, a, from, to) => match op {
                CastOp::Sext => int(a).map_or(Range::Unknown, |(lo, hi)| int_range(Some(lo), Some(hi), to)),
                CastOp::Zext | CastOp::Trunc => int(a).filter(|r| r.0 >= 0).map_or(Range::Unknown, |(lo, hi)| int_range(Some(lo), Some(hi), to)),
                CastOp::SiToFp => int(a).map_or(Range::Unknown, |(lo, hi)| float_range(lo as f64, hi as f64, to)),
                CastOp::UiToFp => int(a).filter(|r| r.0 >= 0).map_or(Range::Unknown, |(lo, hi)| float_range(lo as f64, hi as f64, to)),
                CastOp::FpExt => float(a, from).map_or(Range::Unknown, |(lo, hi)| float_range(lo, hi, to)),
                _ => Range::Unknown,
            },
            Node::Float(op, a, b, w) => {
                let Some((al, ah)) = float(a, w) else { return Range::Unknown };
                if op == FloatOp::Neg {
                    return float_range(-ah, -al, w);
                }
                let Some((bl, bh)) = float(b, w) else { return Range::Unknown };
                match op {
                    FloatOp::Add => float_range(al + bl, ah + bh, w),
                    FloatOp::Sub => float_range(al - bh, ah - bl, w),
                    FloatOp::Mul => {
                        let p = [al * bl, al * bh, ah * bl, ah * bh];
                        float_range(p.iter().copied().fold(f64::INFINITY, f64::min), p.iter().copied().fold(f64::NEG_INFINITY, f64::max), w)
                    }
                    _ => Range::Unknown,
                }
            }
            Node::Select(_, a, b) => match (self.ranges.get(a as usize - 1), self.ranges.get(b as usize - 1), int(a), int(b)) {
                (_, _, Some((al, ah)), Some((bl, bh))) => Range::Int(al.min(bl), ah.max(bh)),
                (Some(Range::Float(al, ah)), Some(Range::Float(bl, bh)), _, _) => Range::Float(al.min(*bl), ah.max(*bh)),
                _ => Range::Unknown,
            },
            _ => Range::Unknown,
        }
    }

    /// A fresh draw of `width` bits of which those set in `undefined` are
    /// unknown and the others are those of `bits` (`rand()`'s sign bit is
    /// 0): its range, as a signed value, when the sign bit is known.
    pub fn fresh_known(&mut self, bits: u128, undefined: u128, width: u32) -> TermId {
        let t = self.fresh();
        if t != 0 && width > 0 && width <= 64 {
            let m = crate::value::mask(width);
            let (undefined, known) = (undefined & m, bits & !undefined & m);
            if (undefined | known) >> (width - 1) & 1 == 0 {
                self.ranges[t as usize - 1] = Range::Int(known as i128, (known | undefined) as i128);
            }
        }
        t
    }

    /// Records that the host took a branch on `cond` (a term; 0 is
    /// ignored) the way `taken` says. Whether the path condition now
    /// implies the branch's way: not for a condition without a term, nor
    /// once the path is full.
    pub fn note_path(&mut self, cond: TermId, taken: bool) -> bool {
        if cond == 0 {
            return false;
        }
        if self.path_seen.contains(&(cond, taken)) {
            return true;
        }
        if self.path.len() >= MAX_PATH {
            return false;
        }
        self.path_seen.insert((cond, taken));
        self.path.push((cond, taken));
        true
    }

    /// The node of term `t`.
    pub fn node(&self, t: TermId) -> Option<Node> {
        (t != 0).then(|| self.nodes.get(t as usize - 1).copied()).flatten()
    }

    /// Whether the float term `t` of `bits` bits is never NaN nor infinite.
    fn finite(&self, t: TermId, bits: u32) -> bool {
        largest_float(bits).is_some_and(|max| self.bound(t) < max)
    }

    /// A fresh draw.
    pub fn fresh(&mut self) -> TermId {
        self.fresh += 1;
        let n = self.fresh;
        self.intern(Node::Fresh(n))
    }

    /// The term of a determined value.
    pub fn constant(&mut self, bits: u128, width: u32) -> TermId {
        self.intern(Node::Const(bits, width))
    }

    pub fn binary(&mut self, op: BinOp, a: TermId, b: TermId, width: u32) -> TermId {
        if a == 0 || b == 0 {
            return 0;
        }
        let (a, b) = if commutes(op) && b < a { (b, a) } else { (a, b) };
        self.intern(Node::Bin(op, a, b, width))
    }

    pub fn compare(&mut self, cc: IntCC, a: TermId, b: TermId) -> TermId {
        if a == 0 || b == 0 {
            return 0;
        }
        self.intern(Node::Cmp(cc, a, b))
    }

    /// A cast that is a function of its operand on host and device alike
    /// (not between pointers and integers: an address differs per run).
    pub fn cast(&mut self, op: CastOp, a: TermId, from: u32, to: u32) -> TermId {
        if a == 0 || matches!(op, CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast) {
            return 0;
        }
        self.intern(Node::Cast(op, a, from, to))
    }

    /// A float operation; only the correctly rounded ones IEEE defines the
    /// same everywhere get a term (division and remainder may be
    /// approximated on the device under fast-math).
    pub fn float(&mut self, op: FloatOp, a: TermId, b: TermId, width: u32) -> TermId {
        match op {
            FloatOp::Neg if a != 0 => self.intern(Node::Float(op, a, 0, width)),
            FloatOp::Add | FloatOp::Mul if a != 0 && b != 0 => {
                let (a, b) = if b < a { (b, a) } else { (a, b) };
                self.intern(Node::Float(op, a, b, width))
            }
            FloatOp::Sub if a != 0 && b != 0 => self.intern(Node::Float(op, a, b, width)),
            _ => 0,
        }
    }

    pub fn select(&mut self, cond: TermId, then_term: TermId, else_term: TermId) -> TermId {
        if cond == 0 || then_term == 0 || else_term == 0 {
            return 0;
        }
        self.intern(Node::Select(cond, then_term, else_term))
    }

    /// The outcome of an integer comparison of two terms when it is the
    /// same in every run: the terms are one value.
    pub fn int_outcome(cc: IntCC, a: TermId, b: TermId) -> Option<bool> {
        if a == 0 || a != b {
            return None;
        }
        Some(matches!(cc, IntCC::Eq | IntCC::Ule | IntCC::Uge | IntCC::Sle | IntCC::Sge))
    }

    /// The outcome of a float comparison of two terms of `bits` bits when
    /// it is the same in every run: one value, and never NaN.
    pub fn float_outcome(&self, cc: FloatCC, a: TermId, b: TermId, bits: u32) -> Option<bool> {
        if a == 0 || a != b || !self.finite(a, bits) {
            return None;
        }
        Some(matches!(cc, FloatCC::Oeq | FloatCC::Oge | FloatCC::Ole | FloatCC::Ord | FloatCC::Ueq | FloatCC::Uge | FloatCC::Ule | FloatCC::True))
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_computation_is_one_term() {
        let mut t = Terms::default();
        let (x, y) = (t.fresh(), t.fresh());
        assert_ne!(x, y);
        let ten = t.constant(10, 32);
        let a = t.binary(BinOp::SRem, x, ten, 32);
        let b = t.binary(BinOp::SRem, y, ten, 32);
        // Addition commutes; subtraction does not.
        assert_eq!(t.binary(BinOp::Add, a, b, 32), t.binary(BinOp::Add, b, a, 32));
        assert_ne!(t.binary(BinOp::Sub, a, b, 32), t.binary(BinOp::Sub, b, a, 32));
        let s = t.binary(BinOp::Add, a, b, 32);
        assert_eq!(Terms::int_outcome(IntCC::Eq, s, s), Some(true));
        assert_eq!(Terms::int_outcome(IntCC::Ne, s, s), Some(false));
        assert_eq!(Terms::int_outcome(IntCC::Eq, a, b), None);
        assert_eq!(Terms::int_outcome(IntCC::Eq, 0, 0), None);
    }

    #[test]
    fn floats_from_integers_are_never_nan() {
        let mut t = Terms::default();
        let (x, y) = (t.fresh(), t.fresh());
        let fx = t.cast(CastOp::SiToFp, x, 32, 32);
        let fy = t.cast(CastOp::SiToFp, y, 32, 32);
        let sum = t.float(FloatOp::Add, fx, fy, 32);
        assert_eq!(t.float_outcome(FloatCC::Oeq, sum, sum, 32), Some(true));
        assert_eq!(t.float_outcome(FloatCC::Une, sum, sum, 32), Some(false));
        // A float read from memory may be NaN; a product of large ones may
        // overflow to infinity (and infinity minus itself is NaN).
        let raw = t.fresh();
        assert_eq!(t.float_outcome(FloatCC::Oeq, raw, raw, 32), None);
        let big = t.cast(CastOp::SiToFp, x, 128, 32);
        let square = t.float(FloatOp::Mul, big, big, 32);
        assert_eq!(t.float_outcome(FloatCC::Oeq, square, square, 32), None);
        // Division has no term.
        assert_eq!(t.float(FloatOp::Div, fx, fy, 32), 0);
    }

    #[test]
    fn ranges_follow_the_arithmetic() {
        let mut t = Terms::default();
        // A draw whose sign bit is known to be 0: [0, 2^31 - 1].
        let r = t.fresh_known(5, 0x7fff_ffff, 32);
        assert_eq!(t.int_range_of(r), Some((0, 0x7fff_ffff)));
        let ten = t.constant(10, 32);
        let m = t.binary(BinOp::SRem, r, ten, 32);
        assert_eq!(t.int_range_of(m), Some((0, 9)));
        let two = t.constant(2, 32);
        let d = t.binary(BinOp::Mul, m, two, 32);
        assert_eq!(t.int_range_of(d), Some((0, 18)));
        assert_eq!(int_outcome_ranges(IntCC::Sle, (0, 18), (18, 18)), Some(true));
        assert_eq!(int_outcome_ranges(IntCC::Sle, (0, 18), (17, 17)), None);
        // A comparison's bit has no range: `true` is -1 as a signed bit.
        let one = t.constant(1, 32);
        let cmp = t.compare(IntCC::Slt, r, one);
        assert_eq!(t.int_range_of(cmp), None);
        // Unsigned comparisons of ranges with negative values are not decided.
        assert_eq!(int_outcome_ranges(IntCC::Ult, (-1, 3), (5, 5)), None);
        // A draw whose sign bit is unknown has no range, nor its remainder.
        let any = t.fresh_known(0, u128::MAX, 32);
        let rem = t.binary(BinOp::SRem, any, ten, 32);
        assert_eq!(t.int_range_of(any), None);
        assert_eq!(t.int_range_of(rem), Some((-9, 9)));
        // A product that may overflow its width has no range.
        let big = t.constant(1 << 30, 32);
        let over = t.binary(BinOp::Mul, r, big, 32);
        assert_eq!(t.int_range_of(over), None);
        // Floats from the remainder, added: [0, 18] (widened for rounding).
        let f = t.cast(CastOp::SiToFp, m, 32, 32);
        let g = t.float(FloatOp::Add, f, f, 32);
        let (lo, hi) = t.float_range_of(g, 32).expect("a range");
        assert!(lo <= 0.0 && (18.0..18.1).contains(&hi));
        assert_eq!(float_outcome_ranges(FloatCC::Oge, (lo, hi), (0.0, 0.0)), Some(true));
        assert_eq!(float_outcome_ranges(FloatCC::Olt, (lo, hi), (10.0, 10.0)), None);
    }
}
