//! Row-cell lemmas: two offsets of one row-major array that name cells
//! `(a1, b1)` and `(a2, b2)` of rows of `f` elements are equal only when
//! the cells are.
//!
//! A 2-D access `out[row * n + col]` (or `y + (size_t)r * cols` then
//! `yr[c]`) has a byte offset `k * (row * n + col)` in which the product is
//! the uninterpreted `mul` (see `no_wrap`). The product lemmas there keep
//! two rows `n` apart, but a solver still has to combine that with the
//! column bound `col < n`, the scaling by the element size and the
//! extensions to 64 bits, which z3 does by bit-blasting 64-bit sums and
//! comparisons: most of the work of the race checks of row kernels
//! (softmax, layer norm, row-wise maps). The lemma states the conclusion
//! directly, per pair of logged offsets of one object:
//!
//! `k * (a1 * f + b1) == k * (a2 * f + b2)`, with `a1, a2, f >= 0`,
//! `0 <= b1, b2 < f`, the products not overflowing (`nsw_mul_ok`) and the
//! scaled sums below `2^w`, implies `a1 == a2 && b1 == b2`,
//!
//! after which what is left is linear (rows congruent to different group
//! ids, columns to different local ids). It is a fact of integer
//! arithmetic for the real product whenever its premises hold, so it is
//! sound to assert everywhere: with `0 <= b < f`, `a * f + b` determines
//! `a` and `b`; the premises (`Cell::conds`) are exactly what makes each
//! offset's bit-vector value its integer value, so that equal bit-vectors
//! are equal integers.

use super::*;
use lockstep_smt::Op;

/// The most offsets that get lemmas: the lemmas grow with the product of
/// the numbers of thread 2's and thread 1's offsets.
const MAX_CELLS: usize = 32;

/// Whose offset a cell is: thread 2's current access, or thread 1's (its
/// current access or a log's ghost copy of an earlier one). The race checks
/// compare thread 2's offsets with thread 1's only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CellRole {
    First,
    Second,
}

/// An offset read as `scale * (a * f + col)`, where `product` is the
/// uninterpreted `mul(x, y)` of two symbolic values (`a` and `f` are its
/// two arguments, in either order).
#[derive(Clone, Debug)]
pub(crate) struct Cell {
    /// The offset.
    term: TermId,
    /// The tracked object whose offset it is.
    obj: usize,
    role: CellRole,
    scale: u128,
    product: TermId,
    factors: [TermId; 2],
    /// The column, of the product's width.
    col: TermId,
    /// The conditions under which the offset's unsigned value is exactly
    /// `scale * (a * f + col)`, given the lemma's premises on the factors
    /// and the column: no scaling or sum wraps around, no sign extension
    /// of a negative value.
    conds: Vec<TermId>,
}

impl Enc<'_> {
    /// Records `t`, an offset into tracked object `obj`, when it has the
    /// shape of a cell of a row-major array, and states the lemma between
    /// it and every recorded offset of the same object of the other role
    /// whose product shares a factor with its own.
    pub(crate) fn cell_lemmas_of(&mut self, t: TermId, obj: usize, role: CellRole) {
        if self.cells.len() >= MAX_CELLS || self.cells.iter().any(|c| c.term == t && c.obj == obj && c.role == role) {
            return;
        }
        let Some(Shape { scale, product, col, conds, .. }) = self.row_cell(t, 0) else { return };
        let lockstep_smt::TermKind::App(Op::Apply(_), args) = self.st.kind(product).clone() else { return };
        let cell = Cell { term: t, obj, role, scale, product, factors: [args[0], args[1]], col, conds };
        for other in self.cells.clone() {
            if other.obj == obj && other.role != role && other.term != t {
                self.cell_lemma(&cell, &other);
            }
        }
        self.cells.push(cell);
    }

    /// States the lemma for two cells, once per factor their products
    /// share (the row length `f`).
    fn cell_lemma(&mut self, c1: &Cell, c2: &Cell) {
        if c1.scale != c2.scale || self.st.sort_of(c1.term) != self.st.sort_of(c2.term) {
            return;
        }
        let Some(w) = self.st.sort_of(c1.product).bv_width() else { return };
        if self.st.sort_of(c2.product).bv_width() != Some(w) {
            return;
        }
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            if c1.factors[i] != c2.factors[j] {
                continue;
            }
            let f = c1.factors[i];
            let (a1, a2) = (c1.factors[1 - i], c2.factors[1 - j]);
            let zero = self.st.bv_const(w, 0);
            let mut pre = Vec::new();
            for c in [c1, c2] {
                pre.push(self.uf("nsw_mul_ok", &c.factors, Sort::Bool));
                pre.push(self.st.bvsle(zero, c.col));
                pre.push(self.st.bvslt(c.col, f));
                pre.extend(c.conds.iter().copied());
            }
            pre.push(self.st.bvsle(zero, a1));
            pre.push(self.st.bvsle(zero, a2));
            pre.push(self.st.bvsle(zero, f));
            pre.push(self.st.eq(c1.term, c2.term));
            let pre = self.st.and(&pre);
            let same_row = self.st.eq(a1, a2);
            let same_col = self.st.eq(c1.col, c2.col);
            let post = self.st.and(&[same_row, same_col]);
            let lemma = self.st.implies(pre, post);
            self.defs.push(lemma);
        }
    }

    /// Reads `t` as `scale * (product + col)`: the scale, the product, the
    /// column and the conditions under which `t`'s unsigned value is that
    /// integer exactly (see `Cell::conds`), given that the product does not
    /// overflow and its factors and the column are non-negative with the
    /// column below the row length. Recognised: `m + col` (either order),
    /// `m * k + col * k`, a constant scaling (`* k`, `<< s`) and a sign or
    /// zero extension of any of these, and a name for one.
    fn row_cell(&mut self, t: TermId, depth: u32) -> Option<Shape> {
        if depth > 8 {
            return None;
        }
        if let Some(&inner) = self.named.get(&t) {
            return self.row_cell(inner, depth + 1);
        }
        let w = self.st.sort_of(t).bv_width()?;
        if !(2..=64).contains(&w) {
            return None;
        }
        let lockstep_smt::TermKind::App(op, args) = self.st.kind(t).clone() else { return None };
        match op {
            Op::BvAdd if args.len() == 2 => {
                for (m, col) in [(args[0], args[1]), (args[1], args[0])] {
                    if self.is_product(m) {
                        // `m + col` is below 2^w when both are below
                        // 2^(w-1), which the premises give.
                        let largest = self.largest_product(m).checked_add(largest_nonneg(&self.st, col));
                        return Some(Shape { scale: 1, product: m, col, conds: Vec::new(), largest });
                    }
                }
                for (x, y) in [(args[0], args[1]), (args[1], args[0])] {
                    let (Some((m, k)), Some((col, k2))) = (self.scaled(x), self.scaled(y)) else { continue };
                    if k != k2 || !self.is_product(m) {
                        continue;
                    }
                    // `m * k + col * k` is `(m + col) * k` when that does
                    // not wrap around, which the largest values the
                    // premises allow may already show (`(size_t)row * cols
                    // + col` of `int`s is below 2^62).
                    let sum_largest = self.largest_product(m).checked_add(largest_nonneg(&self.st, col));
                    let largest = sum_largest.and_then(|l| l.checked_mul(k));
                    let mut conds = Vec::new();
                    if largest.is_none_or(|l| l > low_mask(w)) {
                        let sum = self.st.bvadd(m, col);
                        let limit = self.st.bv_const(w, low_mask(w) / k);
                        conds.push(self.st.bvule(sum, limit));
                    }
                    return Some(Shape { scale: k, product: m, col, conds, largest: largest.map(|l| l.min(low_mask(w))) });
                }
                None
            }
            Op::BvMul | Op::BvShl => {
                let (x, k) = self.scaled(t)?;
                let mut shape = self.row_cell(x, depth + 1)?;
                shape.scale = shape.scale.checked_mul(k).filter(|&s| s <= low_mask(w))?;
                let largest = shape.largest.and_then(|l| l.checked_mul(k));
                if largest.is_none_or(|l| l > low_mask(w)) {
                    let limit = self.st.bv_const(w, low_mask(w) / k);
                    shape.conds.push(self.st.bvule(x, limit));
                }
                shape.largest = largest.map(|l| l.min(low_mask(w)));
                Some(shape)
            }
            Op::SignExtend(_) => {
                let x = args[0];
                let mut shape = self.row_cell(x, depth + 1)?;
                let xw = self.st.sort_of(x).bv_width()?;
                // The extension keeps the value when its sign bit is clear.
                if shape.largest.is_none_or(|l| l >= 1u128 << (xw - 1)) {
                    let zero = self.st.bv_const(xw, 0);
                    shape.conds.push(self.st.bvsle(zero, x));
                    shape.largest = Some((1u128 << (xw - 1)) - 1);
                }
                Some(shape)
            }
            Op::ZeroExtend(_) => self.row_cell(args[0], depth + 1),
            _ => None,
        }
    }

    /// The largest value of the product `m = mul(a, b)` under the lemma's
    /// premises (non-negative factors whose product does not overflow).
    fn largest_product(&self, m: TermId) -> u128 {
        let w = self.st.sort_of(m).bv_width().unwrap_or(64);
        let top = (1u128 << (w - 1)) - 1;
        let lockstep_smt::TermKind::App(_, args) = self.st.kind(m) else { return top };
        let (a, b) = (largest_nonneg(&self.st, args[0]), largest_nonneg(&self.st, args[1]));
        a.checked_mul(b).map_or(top, |p| p.min(top))
    }

    /// `x * k` or `x << s` with a constant `k >= 1` (`2^s`): `(x, k)`.
    fn scaled(&self, t: TermId) -> Option<(TermId, u128)> {
        let w = self.st.sort_of(t).bv_width()?;
        let lockstep_smt::TermKind::App(op, args) = self.st.kind(t) else { return None };
        let konst = |u: TermId| self.st.as_bv(u).and_then(|v| v.to_u128());
        match op {
            Op::BvMul if args.len() == 2 => match (konst(args[0]), konst(args[1])) {
                (Some(k), None) if k >= 1 => Some((args[1], k)),
                (None, Some(k)) if k >= 1 => Some((args[0], k)),
                _ => None,
            },
            Op::BvShl if args.len() == 2 => {
                let s = konst(args[1])?;
                (s < w as u128 && konst(args[0]).is_none()).then(|| (args[0], 1u128 << s))
            }
            _ => None,
        }
    }

    /// Whether `t` is a product of two symbolic values (`Enc::mul`).
    fn is_product(&self, t: TermId) -> bool {
        match self.st.kind(t) {
            lockstep_smt::TermKind::App(Op::Apply(f), args) => args.len() == 2 && self.st.fun(*f).name.starts_with("mul_"),
            _ => false,
        }
    }
}

/// What `row_cell` reads a term as (see `Cell`), with the largest value
/// of `scale * (product + col)` that the lemma's premises allow, when its
/// form shows one: a condition it already implies is left out.
struct Shape {
    scale: u128,
    product: TermId,
    col: TermId,
    conds: Vec<TermId>,
    largest: Option<u128>,
}

/// The largest value of a term the lemma's premises make non-negative:
/// that of its signed width, or of the value a sign or zero extension
/// extends.
fn largest_nonneg(st: &lockstep_smt::TermStore, t: TermId) -> u128 {
    let w = st.sort_of(t).bv_width().unwrap_or(64).clamp(1, 127);
    match st.kind(t) {
        lockstep_smt::TermKind::App(Op::SignExtend(_), args) => {
            let j = st.sort_of(args[0]).bv_width().unwrap_or(w).clamp(1, 127);
            (1u128 << (j - 1)) - 1
        }
        lockstep_smt::TermKind::App(Op::ZeroExtend(_), args) => {
            let j = st.sort_of(args[0]).bv_width().unwrap_or(w).clamp(1, 126);
            (1u128 << j) - 1
        }
        _ => (1u128 << (w - 1)) - 1,
    }
}

/// `2^w - 1`.
fn low_mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}
