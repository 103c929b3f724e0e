//! Concrete values: bit-vectors and pointers.
//!
//! Every KIR value is represented by a `Val`: integers and floats by their
//! bits (the low `width` bits of a `u128` are meaningful, the rest are kept
//! zero), pointers by an (object, byte offset) pair. Pointers must also be
//! storable in memory and convertible to integers (`ptrtoint`, `inttoptr`),
//! so they have a 64-bit encoding, described at `Pointer::encode`.

use std::fmt;

/// A memory object of a replay: a caller's buffer, a module global (or one
/// group's instance of a `__shared__` global), or a private object of one
/// call frame. Ids index `Memory::objects`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ObjId(pub u32);

impl fmt::Display for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "obj{}", self.0)
    }
}

/// A pointer: a byte offset into a memory object, or into no object at all
/// (`obj == None`), which is the null pointer when the offset is 0 and an
/// integer cast to a pointer otherwise. Dereferencing a pointer with no
/// object is a null dereference.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pointer {
    pub obj: Option<ObjId>,
    pub offset: i64,
}

/// Bits of the encoded offset; the object id (plus one) sits above them.
const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

impl Pointer {
    pub const NULL: Pointer = Pointer {
        obj: None,
        offset: 0,
    };

    pub fn new(obj: ObjId, offset: i64) -> Pointer {
        Pointer {
            obj: Some(obj),
            offset,
        }
    }

    pub fn is_null(self) -> bool {
        self.obj.is_none()
    }

    /// This pointer moved by `delta` bytes (wrapping, as LLVM's `getelementptr`
    /// without `inbounds` does).
    pub fn offset_by(self, delta: i64) -> Pointer {
        Pointer {
            obj: self.obj,
            offset: self.offset.wrapping_add(delta),
        }
    }

    /// The 64-bit encoding used when a pointer is stored to memory or cast to
    /// an integer: the object id plus one in the high 24 bits and the offset
    /// (two's complement, 40 bits) in the low bits. A pointer into no object
    /// encodes as its offset, so `null` is 0 and `inttoptr(ptrtoint(p))`
    /// round-trips. Offsets beyond +-2^39 bytes wrap; no GPU object is that
    /// large.
    pub fn encode(self) -> u64 {
        match self.obj {
            None => self.offset as u64,
            Some(ObjId(id)) => {
                ((id as u64 + 1) << OFFSET_BITS) | (self.offset as u64 & OFFSET_MASK)
            }
        }
    }

    /// The inverse of `encode`.
    pub fn decode(bits: u64) -> Pointer {
        let high = bits >> OFFSET_BITS;
        if high == 0 {
            return Pointer {
                obj: None,
                offset: bits as i64,
            };
        }
        // Sign-extend the 40-bit offset.
        let offset = ((bits << (64 - OFFSET_BITS)) as i64) >> (64 - OFFSET_BITS);
        Pointer {
            obj: Some(ObjId((high - 1) as u32)),
            offset,
        }
    }
}

/// A concrete value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Val {
    /// An integer or float: its bits, zero above the type's width.
    Bits(u128),
    /// A pointer.
    Ptr(Pointer),
}

impl Default for Val {
    fn default() -> Val {
        Val::Bits(0)
    }
}

impl Val {
    /// An integer value (callers mask it to the parameter's width).
    pub fn int(bits: u128) -> Val {
        Val::Bits(bits)
    }

    /// A signed 32-bit integer, as its two's-complement bits.
    pub fn i32(x: i32) -> Val {
        Val::Bits(x as u32 as u128)
    }

    pub fn u32(x: u32) -> Val {
        Val::Bits(x as u128)
    }

    pub fn i64(x: i64) -> Val {
        Val::Bits(x as u64 as u128)
    }

    pub fn f32(x: f32) -> Val {
        Val::Bits(x.to_bits() as u128)
    }

    pub fn f64(x: f64) -> Val {
        Val::Bits(x.to_bits() as u128)
    }

    pub fn ptr(p: Pointer) -> Val {
        Val::Ptr(p)
    }

    pub const NULL: Val = Val::Ptr(Pointer::NULL);

    /// The bits of this value; a pointer gives its encoding.
    pub fn bits(self) -> u128 {
        match self {
            Val::Bits(b) => b,
            Val::Ptr(p) => p.encode() as u128,
        }
    }

    /// This value as a pointer; bits are decoded as by `inttoptr`.
    pub fn as_ptr(self) -> Pointer {
        match self {
            Val::Ptr(p) => p,
            Val::Bits(b) => Pointer::decode(b as u64),
        }
    }

    /// The value as a boolean (its lowest bit).
    pub fn as_bool(self) -> bool {
        self.bits() & 1 == 1
    }
}

/// The mask of the low `width` bits.
#[inline]
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The signed value of the low `width` bits.
#[inline]
pub fn sext(bits: u128, width: u32) -> i128 {
    if width == 0 {
        return 0;
    }
    if width >= 128 {
        return bits as i128;
    }
    let shift = 128 - width;
    ((bits << shift) as i128) >> shift
}

/// Whether `op` on the `width`-bit operands `a` and `b` breaks the promise
/// of `flags` (LLVM's `nsw`/`nuw`): the mathematical result of the operands
/// read as signed (`nsw`) or unsigned (`nuw`) integers does not fit. Widths
/// above 64 bits are not checked (no promise is reported broken).
pub fn wraps(op: lockstep_kir::BinOp, a: u128, b: u128, width: u32, flags: lockstep_kir::NoWrap) -> bool {
    use lockstep_kir::BinOp;
    if width == 0 || width > 64 {
        return false;
    }
    let (sa, sb) = (sext(a, width), sext(b, width));
    let signed_fits = |x: i128| -(1i128 << (width - 1)) <= x && x < (1i128 << (width - 1));
    let unsigned_fits = |x: i128| 0 <= x && x < (1i128 << width);
    let (ua, ub) = (a as i128, b as i128);
    match op {
        BinOp::Add => (flags.signed && !signed_fits(sa + sb)) || (flags.unsigned && !unsigned_fits(ua + ub)),
        BinOp::Sub => (flags.signed && !signed_fits(sa - sb)) || (flags.unsigned && !unsigned_fits(ua - ub)),
        BinOp::Mul => (flags.signed && !signed_fits(sa * sb)) || (flags.unsigned && !unsigned_fits(ua * ub)),
        // A shift by the width or more has no defined result at all.
        BinOp::Shl if b >= width as u128 => true,
        BinOp::Shl => {
            (flags.signed && !signed_fits(sa << b)) || (flags.unsigned && !unsigned_fits(ua << b))
        }
        _ => false,
    }
}

/// Converts an IEEE half to single precision (exactly).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = match (exp, frac) {
        (0, 0) => sign,
        (0, _) => {
            // A subnormal half is exactly representable as a normal single.
            let value = frac as f32 * f32::powi(2.0, -24);
            return if sign != 0 { -value } else { value };
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, _) => sign | 0x7fc0_0000 | (frac << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (frac << 13),
    };
    f32::from_bits(bits)
}

/// Converts single precision to an IEEE half, rounding to nearest even.
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < f32::powi(2.0, -14) {
        // Subnormal or zero: scale to units of 2^-24 and round to even.
        let units = a * f32::powi(2.0, 24);
        let r = units.round_ties_even_compat();
        return sign | r as u16;
    }
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let frac = bits & 0x7f_ffff;
    let mut half = ((exp as u32) << 10) | (frac >> 13);
    let rest = frac & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && half & 1 == 1) {
        half += 1;
    }
    sign | half as u16
}

/// `f32::round_ties_even` exists only from Rust 1.77; this keeps the crate
/// within the workspace's declared `rust-version` without relying on it.
trait RoundTiesEven {
    fn round_ties_even_compat(self) -> Self;
}

impl RoundTiesEven for f32 {
    fn round_ties_even_compat(self) -> f32 {
        let r = self.round();
        if (self - self.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
            r - self.signum()
        } else {
            r
        }
    }
}

/// Reads the float of width `width` held in `bits` as an `f64`.
pub fn float_to_f64(bits: u128, width: u32) -> f64 {
    match width {
        16 => f16_to_f32(bits as u16) as f64,
        32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits as u64),
    }
}

/// The bits of `x` rounded to a float of width `width`.
pub fn f64_to_float(x: f64, width: u32) -> u128 {
    match width {
        16 => f32_to_f16(x as f32) as u128,
        32 => (x as f32).to_bits() as u128,
        _ => x.to_bits() as u128,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_encoding_round_trips() {
        for p in [
            Pointer::NULL,
            Pointer::new(ObjId(0), 0),
            Pointer::new(ObjId(7), -4),
            Pointer::new(ObjId(3), 1 << 30),
        ] {
            assert_eq!(Pointer::decode(p.encode()), p);
        }
        assert_eq!(Pointer::NULL.encode(), 0);
    }

    #[test]
    fn half_conversions() {
        for x in [0.0f32, 1.0, -2.5, 65504.0, 0.000061035156, 5.9604645e-8] {
            assert_eq!(f16_to_f32(f32_to_f16(x)), x);
        }
        assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
        assert_eq!(f16_to_f32(f32_to_f16(1.0e6)), f32::INFINITY);
    }

    #[test]
    fn sign_extension() {
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(sext(1, 1), -1);
    }
}

#[cfg(test)]
mod no_wrap_tests {
    use super::*;
    use lockstep_kir::{BinOp, NoWrap};

    const NSW: NoWrap = NoWrap { signed: true, unsigned: false };
    const NUW: NoWrap = NoWrap { signed: false, unsigned: true };

    #[test]
    fn signed_overflow_is_seen_at_the_limits() {
        let max = 0x7fff_ffffu128;
        assert!(!wraps(BinOp::Add, max - 1, 1, 32, NSW));
        assert!(wraps(BinOp::Add, max, 1, 32, NSW));
        // -1 + -1 = -2 fits as signed but wraps as unsigned.
        assert!(!wraps(BinOp::Add, 0xffff_ffff, 0xffff_ffff, 32, NSW));
        assert!(wraps(BinOp::Add, 0xffff_ffff, 0xffff_ffff, 32, NUW));
        assert!(wraps(BinOp::Sub, 0x8000_0000, 1, 32, NSW));
        assert!(wraps(BinOp::Sub, 0, 1, 32, NUW));
        assert!(!wraps(BinOp::Mul, 46340, 46340, 32, NSW));
        assert!(wraps(BinOp::Mul, 46341, 46341, 32, NSW));
        // -1 * MIN is 2^31, one past the largest 32-bit signed value.
        assert!(wraps(BinOp::Mul, 0xffff_ffff, 0x8000_0000, 32, NSW));
        assert!(wraps(BinOp::Shl, 1, 31, 32, NSW));
        assert!(!wraps(BinOp::Shl, 1, 31, 32, NUW));
        assert!(!wraps(BinOp::Add, 5, 7, 32, NoWrap::NONE));
    }
}
