//! The arithmetic of one instruction: integer operations (with division by
//! zero reported), comparisons, float operations, casts and atomic
//! read-modify-writes, on values' bits at their width.

use lockstep_kir::*;

use crate::value::*;

use super::*;

impl Ctx<'_> {
    pub(super) fn binary(&mut self, th: &Thread, loc: Loc, op: BinOp, a: u128, b: u128, w: u32) -> u128 {
        let m = mask(w);
        let (sa, sb) = (sext(a, w), sext(b, w));
        let r = match op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem if b == 0 => {
                self.violation(th, loc, ViolationKind::DivisionByZero, 12, |_| format!("`{}` by zero in {}", op.name(), th.id));
                0
            }
            BinOp::UDiv => a / b,
            BinOp::URem => a % b,
            BinOp::SDiv | BinOp::SRem if w > 0 && sa == sext(1u128 << (w - 1), w) && sb == -1 => {
                self.violation(th, loc, ViolationKind::DivisionOverflow, 13, |_| {
                    format!("`{}` of the minimum {w}-bit value by -1 in {}", op.name(), th.id)
                });
                if op == BinOp::SDiv {
                    a
                } else {
                    0
                }
            }
            BinOp::SDiv => sa.wrapping_div(sb) as u128,
            BinOp::SRem => sa.wrapping_rem(sb) as u128,
            BinOp::Shl => {
                if b >= w as u128 {
                    0
                } else {
                    a << b
                }
            }
            BinOp::LShr => {
                if b >= w as u128 {
                    0
                } else {
                    a >> b
                }
            }
            BinOp::AShr => (sa >> b.min(127)) as u128,
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
        };
        r & m
    }
}

/// `v` as a value of type `ty`: pointers for pointer types (integers are
/// decoded as by `inttoptr`), bits masked to the width otherwise.
pub(crate) fn convert(v: Val, ty: Type) -> Val {
    match ty {
        Type::Ptr(_) => Val::Ptr(v.as_ptr()),
        t => Val::Bits(v.bits() & mask(t.bits())),
    }
}

pub(super) fn icmp(cc: IntCC, a: u128, b: u128, w: u32) -> bool {
    let (sa, sb) = (sext(a, w), sext(b, w));
    match cc {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
    }
}

pub(super) fn fcmp(cc: FloatCC, a: f64, b: f64) -> bool {
    let uno = a.is_nan() || b.is_nan();
    match cc {
        FloatCC::False => false,
        FloatCC::True => true,
        FloatCC::Ord => !uno,
        FloatCC::Uno => uno,
        FloatCC::Oeq => !uno && a == b,
        FloatCC::Ogt => !uno && a > b,
        FloatCC::Oge => !uno && a >= b,
        FloatCC::Olt => !uno && a < b,
        FloatCC::Ole => !uno && a <= b,
        FloatCC::One => !uno && a != b,
        FloatCC::Ueq => uno || a == b,
        FloatCC::Ugt => uno || a > b,
        FloatCC::Uge => uno || a >= b,
        FloatCC::Ult => uno || a < b,
        FloatCC::Ule => uno || a <= b,
        FloatCC::Une => uno || a != b,
    }
}

pub(super) fn float_op(op: FloatOp, a: u128, b: u128, w: u32) -> u128 {
    macro_rules! arith {
        ($x:expr, $y:expr) => {
            match op {
                FloatOp::Add => $x + $y,
                FloatOp::Sub => $x - $y,
                FloatOp::Mul => $x * $y,
                FloatOp::Div => $x / $y,
                FloatOp::Rem => $x % $y,
                FloatOp::Neg => -$x,
            }
        };
    }
    match w {
        64 => arith!(f64::from_bits(a as u64), f64::from_bits(b as u64)).to_bits() as u128,
        32 => arith!(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits() as u128,
        16 if op == FloatOp::Neg => a ^ 0x8000,
        _ => {
            let r = arith!(f16_to_f32(a as u16), f16_to_f32(b as u16));
            f32_to_f16(r) as u128
        }
    }
}

pub(super) fn cast(op: CastOp, v: Val, from: Type, to: Type) -> Val {
    let (fw, tw) = (from.bits(), to.bits());
    let bits = v.bits() & mask(fw);
    let out = match op {
        CastOp::Zext | CastOp::Trunc | CastOp::Bitcast => bits,
        CastOp::Sext => sext(bits, fw) as u128,
        CastOp::FpToUi => {
            let x = float_to_f64(bits, fw);
            if x.is_nan() || x <= 0.0 {
                0
            } else {
                (x as u128).min(mask(tw))
            }
        }
        CastOp::FpToSi => {
            let x = float_to_f64(bits, fw);
            let lo = -(1i128 << (tw.max(1) - 1).min(126));
            let hi = (1i128 << (tw.max(1) - 1).min(126)) - 1;
            if x.is_nan() {
                0
            } else {
                (x as i128).clamp(lo, hi) as u128
            }
        }
        CastOp::UiToFp => int_to_float(bits as f64, bits as f32, tw),
        CastOp::SiToFp => {
            let s = sext(bits, fw);
            int_to_float(s as f64, s as f32, tw)
        }
        CastOp::FpExt | CastOp::FpTrunc => {
            if fw == 32 && tw == 64 {
                (f32::from_bits(bits as u32) as f64).to_bits() as u128
            } else {
                f64_to_float(float_to_f64(bits, fw), tw)
            }
        }
        CastOp::PtrToInt => v.as_ptr().encode() as u128,
        CastOp::IntToPtr | CastOp::AddrSpaceCast => return Val::Ptr(v.as_ptr()),
    };
    convert(Val::Bits(out), to)
}

/// An integer converted to a float of width `w`; the `f32` conversion is
/// done directly so that it is rounded once.
pub(super) fn int_to_float(as_f64: f64, as_f32: f32, w: u32) -> u128 {
    match w {
        32 => as_f32.to_bits() as u128,
        16 => f32_to_f16(as_f32) as u128,
        _ => as_f64.to_bits() as u128,
    }
}

pub(super) fn atomic_op(op: AtomicOp, old: Val, v: Val, ty: Type) -> Val {
    let w = ty.bits();
    let m = mask(w);
    let (a, b) = (old.bits() & m, v.bits() & m);
    let r = match op {
        AtomicOp::Xchg => return convert(v, ty),
        AtomicOp::Add => a.wrapping_add(b),
        AtomicOp::Sub => a.wrapping_sub(b),
        AtomicOp::And => a & b,
        AtomicOp::Or => a | b,
        AtomicOp::Xor => a ^ b,
        AtomicOp::Max => {
            if sext(a, w) >= sext(b, w) {
                a
            } else {
                b
            }
        }
        AtomicOp::Min => {
            if sext(a, w) <= sext(b, w) {
                a
            } else {
                b
            }
        }
        AtomicOp::UMax => a.max(b),
        AtomicOp::UMin => a.min(b),
        AtomicOp::FAdd => float_op(FloatOp::Add, a, b, w),
        AtomicOp::FSub => float_op(FloatOp::Sub, a, b, w),
        AtomicOp::UIncWrap => {
            if a >= b {
                0
            } else {
                a + 1
            }
        }
        AtomicOp::UDecWrap => {
            if a == 0 || a > b {
                b
            } else {
                a - 1
            }
        }
    };
    convert(Val::Bits(r & m), ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts() {
        let f = Type::Float(32);
        assert_eq!(
            cast(CastOp::SiToFp, Val::i32(-2), Type::I32, f),
            Val::f32(-2.0)
        );
        assert_eq!(
            cast(CastOp::FpToSi, Val::f32(-2.7), f, Type::I32),
            Val::i32(-2)
        );
        assert_eq!(
            cast(CastOp::FpToUi, Val::f32(-2.7), f, Type::I32),
            Val::u32(0)
        );
        assert_eq!(
            cast(CastOp::Sext, Val::Bits(0x80), Type::I8, Type::I32),
            Val::u32(0xffff_ff80)
        );
        assert_eq!(
            cast(CastOp::Trunc, Val::u32(0x1234), Type::I32, Type::I8),
            Val::Bits(0x34)
        );
        assert_eq!(
            cast(CastOp::FpExt, Val::f32(1.5), f, Type::Float(64)),
            Val::f64(1.5)
        );
    }

    #[test]
    fn atomics() {
        let t = Type::I32;
        assert_eq!(
            atomic_op(AtomicOp::Max, Val::i32(-1), Val::i32(3), t),
            Val::i32(3)
        );
        assert_eq!(
            atomic_op(AtomicOp::UIncWrap, Val::u32(5), Val::u32(5), t),
            Val::u32(0)
        );
        assert_eq!(
            atomic_op(AtomicOp::UDecWrap, Val::u32(0), Val::u32(7), t),
            Val::u32(7)
        );
    }
}
