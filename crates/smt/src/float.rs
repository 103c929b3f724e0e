//! Operators of SMT-LIB's FloatingPoint theory (IEEE 754 arithmetic).
//!
//! Every operator that rounds uses round-to-nearest-even, the rounding of
//! C's, CUDA's and OpenCL's default float arithmetic, and conversions to
//! integers round toward zero, as C's casts do; the rounding mode is part of
//! the operator rather than a term, so no term of sort `RoundingMode` is
//! ever built. Float terms are made from IEEE bit patterns with
//! [`FpOp::FromBits`]: SMT-LIB has no standard way back (its single NaN has
//! many bit patterns), so callers that need the bits of a result decide how
//! to represent them.

use crate::sort::Sort;

/// A FloatingPoint operator; [`crate::Op::Fp`] applies it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    /// `fp.add RNE`.
    Add,
    /// `fp.sub RNE`.
    Sub,
    /// `fp.mul RNE`.
    Mul,
    /// `fp.div RNE`.
    Div,
    /// `fp.fma RNE`: `a * b + c` rounded once.
    Fma,
    /// `fp.sqrt RNE`.
    Sqrt,
    /// `fp.rem`: IEEE remainder (the quotient rounded to nearest even).
    Rem,
    /// `fp.neg`.
    Neg,
    /// `fp.abs`.
    Abs,
    /// `fp.min`.
    Min,
    /// `fp.max`.
    Max,
    /// `fp.eq`: IEEE equality (false on NaN, `+0 == -0`).
    Eq,
    /// `fp.lt`.
    Lt,
    /// `fp.leq`.
    Leq,
    /// `fp.gt`.
    Gt,
    /// `fp.geq`.
    Geq,
    /// `fp.isNaN`.
    IsNaN,
    /// `(_ to_fp eb sb)` of a bit-vector: reinterprets IEEE bits.
    FromBits { exponent: u32, significand: u32 },
    /// `(_ to_fp eb sb) RNE` of a float: conversion between formats.
    Convert { exponent: u32, significand: u32 },
    /// `(_ to_fp eb sb) RNE` of a bit-vector read as a signed integer.
    FromSigned { exponent: u32, significand: u32 },
    /// `(_ to_fp_unsigned eb sb) RNE` of a bit-vector.
    FromUnsigned { exponent: u32, significand: u32 },
    /// `(_ fp.to_sbv w) RTZ`: to a signed integer of `w` bits (unspecified
    /// when out of range, as in C).
    ToSigned(u32),
    /// `(_ fp.to_ubv w) RTZ`.
    ToUnsigned(u32),
}

impl FpOp {
    /// The operator's head as printed before its arguments: the name and
    /// indices, and the rounding mode where the operator takes one.
    pub fn head(&self) -> String {
        use FpOp::*;
        match *self {
            Add => "fp.add RNE".into(),
            Sub => "fp.sub RNE".into(),
            Mul => "fp.mul RNE".into(),
            Div => "fp.div RNE".into(),
            Fma => "fp.fma RNE".into(),
            Sqrt => "fp.sqrt RNE".into(),
            Rem => "fp.rem".into(),
            Neg => "fp.neg".into(),
            Abs => "fp.abs".into(),
            Min => "fp.min".into(),
            Max => "fp.max".into(),
            Eq => "fp.eq".into(),
            Lt => "fp.lt".into(),
            Leq => "fp.leq".into(),
            Gt => "fp.gt".into(),
            Geq => "fp.geq".into(),
            IsNaN => "fp.isNaN".into(),
            FromBits { exponent, significand } => format!("(_ to_fp {exponent} {significand})"),
            Convert { exponent, significand } | FromSigned { exponent, significand } => {
                format!("(_ to_fp {exponent} {significand}) RNE")
            }
            FromUnsigned { exponent, significand } => format!("(_ to_fp_unsigned {exponent} {significand}) RNE"),
            ToSigned(w) => format!("(_ fp.to_sbv {w}) RTZ"),
            ToUnsigned(w) => format!("(_ fp.to_ubv {w}) RTZ"),
        }
    }

    /// The result sort of the operator applied to arguments of `sorts`, or
    /// what is wrong with them.
    pub(crate) fn result_sort(&self, sorts: &[&Sort]) -> Result<Sort, String> {
        use FpOp::*;
        let arity = match self {
            Fma => 3,
            Add | Sub | Mul | Div | Rem | Min | Max | Eq | Lt | Leq | Gt | Geq => 2,
            _ => 1,
        };
        if sorts.len() != arity {
            return Err(format!("expects exactly {arity} argument(s), got {}", sorts.len()));
        }
        let float = |i: usize| -> Result<Sort, String> {
            match sorts[i] {
                s @ Sort::Float { .. } => Ok(s.clone()),
                s => Err(format!("argument {i} has sort {s}, expected a float")),
            }
        };
        let same_floats = || -> Result<Sort, String> {
            let first = float(0)?;
            for i in 1..sorts.len() {
                if float(i)? != first {
                    return Err(format!("argument {i} has sort {}, but argument 0 has sort {first}", sorts[i]));
                }
            }
            Ok(first)
        };
        let format = |exponent: u32, significand: u32| -> Result<Sort, String> {
            if exponent < 2 || significand < 2 {
                return Err(format!("float format ({exponent}, {significand}) is too small"));
            }
            Ok(Sort::Float { exponent, significand })
        };
        match *self {
            Add | Sub | Mul | Div | Fma | Sqrt | Rem | Neg | Abs | Min | Max => same_floats(),
            Eq | Lt | Leq | Gt | Geq | IsNaN => same_floats().map(|_| Sort::Bool),
            FromBits { exponent, significand } => {
                let want = exponent + significand;
                match sorts[0].bv_width() {
                    Some(w) if w == want => format(exponent, significand),
                    _ => Err(format!("argument has sort {}, expected (_ BitVec {want})", sorts[0])),
                }
            }
            FromSigned { exponent, significand } | FromUnsigned { exponent, significand } => match sorts[0].bv_width() {
                Some(_) => format(exponent, significand),
                None => Err(format!("argument has sort {}, expected a bit-vector", sorts[0])),
            },
            Convert { exponent, significand } => {
                float(0)?;
                format(exponent, significand)
            }
            ToSigned(w) | ToUnsigned(w) => {
                float(0)?;
                if w == 0 {
                    return Err("result width 0".into());
                }
                Ok(Sort::BitVec(w))
            }
        }
    }
}
