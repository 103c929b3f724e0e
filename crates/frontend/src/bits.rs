//! Bit-counting functions (`__popc`, `__ffs`, LLVM's `ctpop`/`cttz` on 32
//! bits) lowered to exact KIR arithmetic.
//!
//! As calls of external functions they would be uninterpreted in the
//! symbolic engines, which then could not relate a warp mask to the lanes
//! it names: a coalesced group's leader is `__ffs(mask) - 1`, its rank
//! `__popc(mask & lanemask_lt)`. The SWAR formulas below are plain
//! bit-vector operations (shifts, masks, additions and one multiplication
//! by a constant) that every engine computes exactly.

use lockstep_kir::*;

use crate::lower::CallLowering;

fn bin<L: CallLowering>(l: &mut L, op: BinOp, lhs: ValueId, rhs: ValueId) -> ValueId {
    l.emit_inst(InstKind::Binary { op, lhs, rhs }, Some(Type::I32)).expect("result")
}

fn k<L: CallLowering>(l: &mut L, v: u32) -> ValueId {
    l.int_const(Type::I32, v as u128)
}

/// The number of set bits of the 32-bit `x`.
pub(crate) fn popc32<L: CallLowering>(l: &mut L, x: ValueId) -> ValueId {
    let one = k(l, 1);
    let two = k(l, 2);
    let four = k(l, 4);
    let m1 = k(l, 0x5555_5555);
    let m2 = k(l, 0x3333_3333);
    let m4 = k(l, 0x0f0f_0f0f);
    let h01 = k(l, 0x0101_0101);
    let twenty_four = k(l, 24);
    // v - ((v >> 1) & 0x55555555): counts of each pair of bits.
    let s1 = bin(l, BinOp::LShr, x, one);
    let a1 = bin(l, BinOp::And, s1, m1);
    let v = bin(l, BinOp::Sub, x, a1);
    // Counts of each nibble.
    let lo = bin(l, BinOp::And, v, m2);
    let s2 = bin(l, BinOp::LShr, v, two);
    let hi = bin(l, BinOp::And, s2, m2);
    let v = bin(l, BinOp::Add, lo, hi);
    // Counts of each byte, then their sum in the top byte.
    let s4 = bin(l, BinOp::LShr, v, four);
    let v = bin(l, BinOp::Add, v, s4);
    let v = bin(l, BinOp::And, v, m4);
    let v = bin(l, BinOp::Mul, v, h01);
    bin(l, BinOp::LShr, v, twenty_four)
}

/// The number of trailing zero bits of the 32-bit `x` (32 for 0).
pub(crate) fn cttz32<L: CallLowering>(l: &mut L, x: ValueId) -> ValueId {
    // The bits below the lowest set one: `~x & (x - 1)`.
    let one = k(l, 1);
    let ones = k(l, u32::MAX);
    let below = bin(l, BinOp::Sub, x, one);
    let not_x = bin(l, BinOp::Xor, x, ones);
    let zeros = bin(l, BinOp::And, not_x, below);
    popc32(l, zeros)
}

/// CUDA's `__ffs`: one more than the position of the lowest set bit, 0 for 0.
pub(crate) fn ffs32<L: CallLowering>(l: &mut L, x: ValueId) -> ValueId {
    let zero = k(l, 0);
    let one = k(l, 1);
    let tz = cttz32(l, x);
    let pos = bin(l, BinOp::Add, tz, one);
    let is_zero = l.emit_inst(InstKind::Icmp { cc: IntCC::Eq, lhs: x, rhs: zero }, Some(Type::BOOL)).expect("result");
    l.emit_inst(InstKind::Select { cond: is_zero, then_value: zero, else_value: pos }, Some(Type::I32)).expect("result")
}
