//! Concrete values: bit-vector constants of any width, and the values a
//! solver reports for terms (`get-value`, models).

use std::fmt;

use crate::sexp::SExpr;

/// A bit-vector constant: a width and an unsigned value below `2^width`.
///
/// Widths up to 128 bits are stored inline as a `u128` (the common case, and
/// the one that constant folding handles); wider values are stored as 64-bit
/// limbs, least significant first. The representation is canonical, so
/// derived equality and hashing are value equality.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BvValue {
    width: u32,
    repr: Repr,
}

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    /// Used exactly when `width <= 128`; bits above `width` are zero.
    Small(u128),
    /// Used exactly when `width > 128`; `ceil(width / 64)` limbs, least
    /// significant first, bits above `width` zero.
    Wide(Box<[u64]>),
}

/// The mask of the low `width` bits, for `1 <= width <= 128`.
pub(crate) fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl BvValue {
    /// The widest value stored inline and handled by constant folding.
    pub const MAX_SMALL_WIDTH: u32 = 128;

    /// A value of width `width` (1 to 128) holding `value` modulo `2^width`.
    ///
    /// # Panics
    /// If `width` is 0 or above 128 (use [`BvValue::from_limbs`] for wider
    /// values); a width is a programmer's choice, never input data.
    pub fn new(width: u32, value: u128) -> BvValue {
        assert!(
            (1..=Self::MAX_SMALL_WIDTH).contains(&width),
            "BvValue::new: width {width} is not in 1..=128"
        );
        BvValue {
            width,
            repr: Repr::Small(value & mask(width)),
        }
    }

    /// The two's complement representation of `value` in `width` (1 to 128) bits.
    pub fn from_i128(width: u32, value: i128) -> BvValue {
        BvValue::new(width, value as u128)
    }

    /// A value of any positive width from little-endian 64-bit limbs; missing
    /// limbs are zero and bits above `width` are dropped.
    ///
    /// # Panics
    /// If `width` is 0.
    pub fn from_limbs(width: u32, limbs: &[u64]) -> BvValue {
        assert!(width > 0, "BvValue::from_limbs: width 0");
        let limb = |i: usize| limbs.get(i).copied().unwrap_or(0);
        if width <= Self::MAX_SMALL_WIDTH {
            let v = limb(0) as u128 | (limb(1) as u128) << 64;
            return BvValue::new(width, v);
        }
        let n = width.div_ceil(64) as usize;
        let mut out: Vec<u64> = (0..n).map(limb).collect();
        let top_bits = width % 64;
        if top_bits != 0 {
            out[n - 1] &= (1u64 << top_bits) - 1;
        }
        BvValue {
            width,
            repr: Repr::Wide(out.into_boxed_slice()),
        }
    }

    /// The all-zeros value of any positive width.
    pub fn zero(width: u32) -> BvValue {
        BvValue::from_limbs(width, &[])
    }

    /// The all-ones value of any positive width.
    pub fn ones(width: u32) -> BvValue {
        BvValue::from_limbs(width, &vec![u64::MAX; width.div_ceil(64) as usize])
    }

    /// Parses binary digits (the part after `#b`); the width is the number of digits.
    pub fn from_binary(digits: &str) -> Option<BvValue> {
        Self::from_radix_digits(digits, 1)
    }

    /// Parses hexadecimal digits (the part after `#x`); the width is four
    /// times the number of digits.
    pub fn from_hex(digits: &str) -> Option<BvValue> {
        Self::from_radix_digits(digits, 4)
    }

    fn from_radix_digits(digits: &str, bits_per_digit: u32) -> Option<BvValue> {
        let width = u32::try_from(digits.len())
            .ok()?
            .checked_mul(bits_per_digit)?;
        if width == 0 {
            return None;
        }
        let mut limbs = vec![0u64; width.div_ceil(64) as usize];
        // Walk from the least significant digit so bit positions are direct.
        for (i, c) in digits.chars().rev().enumerate() {
            let d = c.to_digit(1 << bits_per_digit)? as u64;
            let pos = i as u32 * bits_per_digit;
            // A digit never straddles limbs because 64 is a multiple of 1 and 4.
            limbs[(pos / 64) as usize] |= d << (pos % 64);
        }
        Some(BvValue::from_limbs(width, &limbs))
    }

    /// Parses a decimal numeral as a value of width `width`, as in SMT-LIB's
    /// `(_ bvN width)`. Returns `None` if the text is not a numeral or the
    /// value does not fit.
    pub fn from_decimal(width: u32, digits: &str) -> Option<BvValue> {
        if width == 0 || digits.is_empty() {
            return None;
        }
        let mut limbs = vec![0u64; width.div_ceil(64) as usize + 1];
        for c in digits.chars() {
            let mut carry = c.to_digit(10)? as u128;
            for limb in limbs.iter_mut() {
                let x = *limb as u128 * 10 + carry;
                *limb = x as u64;
                carry = x >> 64;
            }
            if carry != 0 {
                return None;
            }
        }
        let v = BvValue::from_limbs(width, &limbs);
        // The value fits iff truncation to `width` bits lost nothing.
        let fits = (0..limbs.len()).all(|i| v.limb(i) == limbs[i]);
        fits.then_some(v)
    }

    /// Parses an SMT-LIB bit-vector literal `#b...` or `#x...`.
    pub fn parse_literal(text: &str) -> Option<BvValue> {
        if let Some(d) = text.strip_prefix("#b") {
            BvValue::from_binary(d)
        } else if let Some(d) = text.strip_prefix("#x") {
            BvValue::from_hex(d)
        } else {
            None
        }
    }

    /// The width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The 64-bit limb `i` (least significant first), zero beyond the width.
    pub fn limb(&self, i: usize) -> u64 {
        match &self.repr {
            Repr::Small(v) => match i {
                0 => *v as u64,
                1 => (*v >> 64) as u64,
                _ => 0,
            },
            Repr::Wide(limbs) => limbs.get(i).copied().unwrap_or(0),
        }
    }

    /// Bit `i` (0 is the least significant).
    pub fn bit(&self, i: u32) -> bool {
        (self.limb((i / 64) as usize) >> (i % 64)) & 1 == 1
    }

    /// The unsigned value, if it fits in a `u128` (always for width <= 128).
    pub fn to_u128(&self) -> Option<u128> {
        match &self.repr {
            Repr::Small(v) => Some(*v),
            Repr::Wide(limbs) => limbs[2..]
                .iter()
                .all(|&l| l == 0)
                .then(|| self.limb(0) as u128 | (self.limb(1) as u128) << 64),
        }
    }

    /// The unsigned value as `u64`, if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// The value read as two's complement, for widths up to 128.
    pub fn to_i128(&self) -> Option<i128> {
        match &self.repr {
            Repr::Small(v) => Some(to_signed(*v, self.width)),
            Repr::Wide(_) => None,
        }
    }

    /// The inline value for widths up to 128 (used by constant folding).
    pub(crate) fn small(&self) -> Option<u128> {
        match &self.repr {
            Repr::Small(v) => Some(*v),
            Repr::Wide(_) => None,
        }
    }

    /// Whether every bit is zero.
    pub fn is_zero(&self) -> bool {
        (0..self.width.div_ceil(64) as usize).all(|i| self.limb(i) == 0)
    }

    /// Whether every bit is one.
    pub fn is_ones(&self) -> bool {
        *self == BvValue::ones(self.width)
    }
}

/// Sign-extends the low `width` bits of `v` to an `i128`.
pub(crate) fn to_signed(v: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((v << shift) as i128) >> shift
}

/// Prints the SMT-LIB literal: `#x...` when the width is a multiple of 4,
/// `#b...` otherwise.
impl fmt::Display for BvValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width % 4 == 0 {
            f.write_str("#x")?;
            for nibble in (0..self.width / 4).rev() {
                let pos = nibble * 4;
                let d = (self.limb((pos / 64) as usize) >> (pos % 64)) & 0xf;
                write!(f, "{d:x}")?;
            }
        } else {
            f.write_str("#b")?;
            for i in (0..self.width).rev() {
                f.write_str(if self.bit(i) { "1" } else { "0" })?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for BvValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A value reported by a solver for a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A Boolean value.
    Bool(bool),
    /// A bit-vector value.
    BitVec(BvValue),
    /// Anything else (arrays, uninterpreted-sort elements, floats), kept as
    /// the solver printed it.
    Other(SExpr),
}

impl Value {
    /// Interprets a solver's value expression: `true`, `false`, `#b...`,
    /// `#x...` and `(_ bvN w)` become typed values, anything else `Other`.
    pub fn from_sexpr(e: &SExpr) -> Value {
        match e {
            SExpr::Atom(a) if a == "true" => Value::Bool(true),
            SExpr::Atom(a) if a == "false" => Value::Bool(false),
            SExpr::Atom(a) => match BvValue::parse_literal(a) {
                Some(v) => Value::BitVec(v),
                None => Value::Other(e.clone()),
            },
            SExpr::List(items) => match items.as_slice() {
                [SExpr::Atom(u), SExpr::Atom(n), SExpr::Atom(w)] if u == "_" => {
                    let parsed = n
                        .strip_prefix("bv")
                        .zip(w.parse::<u32>().ok())
                        .and_then(|(digits, width)| BvValue::from_decimal(width, digits));
                    match parsed {
                        Some(v) => Value::BitVec(v),
                        None => Value::Other(e.clone()),
                    }
                }
                _ => Value::Other(e.clone()),
            },
            SExpr::Str(_) => Value::Other(e.clone()),
        }
    }

    /// The Boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The bit-vector, if this is one.
    pub fn as_bv(&self) -> Option<&BvValue> {
        match self {
            Value::BitVec(v) => Some(v),
            _ => None,
        }
    }

    /// The unsigned value of a bit-vector that fits in a `u128`.
    pub fn as_u128(&self) -> Option<u128> {
        self.as_bv().and_then(BvValue::to_u128)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::BitVec(v) => write!(f, "{v}"),
            Value::Other(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_mask_and_print() {
        assert_eq!(BvValue::new(8, 0x1ff).to_u128(), Some(0xff));
        assert_eq!(BvValue::new(8, 5).to_string(), "#x05");
        assert_eq!(BvValue::new(3, 5).to_string(), "#b101");
        assert_eq!(BvValue::from_i128(8, -1).to_u128(), Some(255));
        assert_eq!(BvValue::new(8, 255).to_i128(), Some(-1));
        assert_eq!(BvValue::new(128, u128::MAX).to_i128(), Some(-1));
    }

    #[test]
    fn literals_round_trip_at_all_widths() {
        assert_eq!(BvValue::parse_literal("#b0101").unwrap().to_string(), "#x5");
        for text in [
            "#b1",
            "#b01011",
            "#x0",
            "#xdeadbeef",
            &format!("#x{}", "f".repeat(40)),
            &format!("#b1{}", "0".repeat(200)),
        ] {
            let v = BvValue::parse_literal(text).unwrap();
            assert_eq!(v.to_string(), text);
        }
        let wide = BvValue::parse_literal(&format!("#b1{}", "0".repeat(200))).unwrap();
        assert_eq!(wide.width(), 201);
        assert!(wide.bit(200) && !wide.bit(199));
        assert_eq!(wide.to_u128(), None);
        assert_eq!(BvValue::ones(130).to_string().len(), 2 + 130);
        assert!(BvValue::parse_literal("#b102").is_none());
        assert!(BvValue::parse_literal("#x").is_none());
    }

    #[test]
    fn decimal_values() {
        assert_eq!(BvValue::from_decimal(8, "255"), Some(BvValue::new(8, 255)));
        assert_eq!(BvValue::from_decimal(8, "256"), None);
        let big = BvValue::from_decimal(192, "340282366920938463463374607431768211456").unwrap(); // 2^128
        assert!(big.bit(128));
        assert_eq!(big.to_u128(), None);
        assert_eq!(
            Value::from_sexpr(&SExpr::List(vec![
                SExpr::atom("_"),
                SExpr::atom("bv7"),
                SExpr::atom("4")
            ])),
            Value::BitVec(BvValue::new(4, 7))
        );
    }
}
