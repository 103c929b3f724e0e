//! Concrete semantics of external functions (`CallExternal`).
//!
//! The front-end keeps calls of math-library functions and compiler
//! intrinsics as named external calls. Names come in several spellings for
//! one function (`sqrtf`, `sqrt`, `llvm.sqrt.f32`, `__nv_sqrtf`, `__fsqrt_rn`,
//! `__expf`), so a name is first reduced to a base name. The common float
//! functions are computed in `f64` and rounded to the result's width (which
//! is exact for the correctly rounded ones and within the usual error of the
//! device's fast variants for the rest); the common integer functions are
//! computed at the argument's width. Any other function yields a
//! deterministic hash of its name and arguments, so that replays are
//! reproducible and equal inputs give equal outputs, as for an
//! uninterpreted function.

use lockstep_kir::Type;

use crate::options::splitmix;
use crate::value::{f64_to_float, float_to_f64, mask, sext, Val};

/// Reduces a spelling to its base name: `llvm.sqrt.f32` and `sqrtf` and
/// `__nv_sqrtf` all become `sqrt`.
pub fn base_name(name: &str) -> String {
    let mut s = name;
    if let Some(rest) = s.strip_prefix("llvm.") {
        s = rest.split('.').next().unwrap_or(rest);
    }
    for prefix in ["__nv_", "__builtin_", "_Z"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest;
        }
    }
    // Itanium-mangled overloads (`_Z4sqrtf` was stripped to `4sqrtf`):
    // drop the length prefix and keep the name itself.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let len: usize = s[..digits].parse().unwrap_or(0);
        s = s.get(digits..digits + len).unwrap_or(&s[digits..]);
    }
    let s = s.trim_start_matches('_');
    // CUDA's rounding-mode variants: `__fsqrt_rn`, `__fadd_rz`.
    let s = ["_rn", "_rz", "_ru", "_rd"]
        .iter()
        .fold(s, |s, suffix| s.strip_suffix(suffix).unwrap_or(s));
    let mut base = s.to_string();
    if base.len() > 1 && base.ends_with('f') && is_known(&base[..base.len() - 1]) {
        base.pop();
    }
    if let Some(rest) = base.strip_prefix('f') {
        // `fsqrt`, `fdiv` (from `__fsqrt_rn`, `__fdiv_rn`) name the plain ops.
        if matches!(rest, "sqrt" | "div" | "add" | "sub" | "mul" | "rsqrt") {
            base = rest.to_string();
        }
    }
    base
}

const FLOAT1: &[&str] = &[
    "sqrt",
    "rsqrt",
    "exp",
    "exp2",
    "exp10",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "fabs",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rint",
    "nearbyint",
    "roundeven",
    "cbrt",
    "rcp",
    "saturate",
    "canonicalize",
];
const FLOAT2: &[&str] = &[
    "pow", "powi", "fmin", "fmax", "minnum", "maxnum", "minimum", "maximum", "atan2", "hypot",
    "copysign", "fdim", "fmod", "div", "fdivide", "add", "sub", "mul",
];
const INT: &[&str] = &[
    "min",
    "max",
    "umin",
    "umax",
    "smin",
    "smax",
    "llmin",
    "llmax",
    "ullmin",
    "ullmax",
    "abs",
    "llabs",
    "popc",
    "popcll",
    "popcount",
    "ctpop",
    "clz",
    "clzll",
    "ctlz",
    "cttz",
    "ffs",
    "ffsll",
    "brev",
    "brevll",
    "bitreverse",
    "bswap",
    "mul24",
    "umul24",
    "mulhi",
    "umulhi",
    "mul64hi",
    "umul64hi",
    "sad",
    "usad",
];

fn is_known(name: &str) -> bool {
    FLOAT1.contains(&name)
        || FLOAT2.contains(&name)
        || INT.contains(&name)
        || matches!(name, "fma" | "fmuladd")
}

/// The result of calling the external function `name` on `args` (whose
/// types are `arg_types`), for a result of type `ret` (`None`: no result).
pub fn call_external(
    name: &str,
    args: &[Val],
    arg_types: &[Type],
    ret: Option<Type>,
) -> Option<Val> {
    let ret = ret?;
    let base = if name == "llvm.nvvm.fns" { "fns".to_string() } else { base_name(name) };
    let known = match ret {
        Type::Float(w) => float_call(&base, args, arg_types, w as u32).map(Val::Bits),
        Type::Int(w) => int_call(&base, args, arg_types, w as u32).map(Val::Bits),
        Type::Ptr(_) => None,
    };
    Some(known.unwrap_or_else(|| hashed(name, args, ret)))
}

fn float_call(base: &str, args: &[Val], types: &[Type], width: u32) -> Option<u128> {
    let arg = |i: usize| -> Option<f64> {
        let v = args.get(i)?;
        match types.get(i)? {
            Type::Float(w) => Some(float_to_f64(v.bits(), *w as u32)),
            Type::Int(w) => Some(sext(v.bits(), *w as u32) as f64),
            Type::Ptr(_) => None,
        }
    };
    let x = arg(0)?;
    let r = match base {
        "sqrt" => x.sqrt(),
        "rsqrt" => 1.0 / x.sqrt(),
        "rcp" => 1.0 / x,
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "exp10" => 10f64.powf(x),
        "expm1" => x.exp_m1(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        "log1p" => x.ln_1p(),
        "fabs" | "abs" => x.abs(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "trunc" => x.trunc(),
        "round" => x.round(),
        "rint" | "nearbyint" | "roundeven" => {
            let r = x.round();
            if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
                r - x.signum()
            } else {
                r
            }
        }
        "cbrt" => x.cbrt(),
        "saturate" => x.clamp(0.0, 1.0),
        "canonicalize" => x,
        "pow" | "powi" => x.powf(arg(1)?),
        "fmin" | "minnum" | "min" => x.min(arg(1)?),
        "fmax" | "maxnum" | "max" => x.max(arg(1)?),
        "minimum" => {
            let y = arg(1)?;
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        }
        "maximum" => {
            let y = arg(1)?;
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        }
        "atan2" => x.atan2(arg(1)?),
        "hypot" => x.hypot(arg(1)?),
        "copysign" => x.copysign(arg(1)?),
        "fdim" => (x - arg(1)?).max(0.0),
        "fmod" => x % arg(1)?,
        "div" | "fdivide" => x / arg(1)?,
        "add" => x + arg(1)?,
        "sub" => x - arg(1)?,
        "mul" => x * arg(1)?,
        "fma" | "fmuladd" => x.mul_add(arg(1)?, arg(2)?),
        _ => return None,
    };
    Some(f64_to_float(r, width))
}

fn int_call(base: &str, args: &[Val], types: &[Type], width: u32) -> Option<u128> {
    let arg_width = |i: usize| match types.get(i) {
        Some(Type::Int(w)) => Some(*w as u32),
        _ => None,
    };
    let w = arg_width(0)?;
    let u = |i: usize| args.get(i).map(|v| v.bits() & mask(w));
    let s = |i: usize| args.get(i).map(|v| sext(v.bits(), w));
    let x = u(0)?;
    let r: u128 = match base {
        "min" | "smin" | "llmin" => s(0)?.min(s(1)?) as u128,
        "max" | "smax" | "llmax" => s(0)?.max(s(1)?) as u128,
        "umin" | "ullmin" => x.min(u(1)?),
        "umax" | "ullmax" => x.max(u(1)?),
        "abs" | "llabs" => s(0)?.unsigned_abs(),
        "popc" | "popcll" | "popcount" | "ctpop" => x.count_ones() as u128,
        "clz" | "clzll" | "ctlz" => (x.leading_zeros() - (128 - w)) as u128,
        "cttz" => x.trailing_zeros().min(w) as u128,
        "ffs" | "ffsll" => {
            if x == 0 {
                0
            } else {
                x.trailing_zeros() as u128 + 1
            }
        }
        "brev" | "brevll" | "bitreverse" => x.reverse_bits() >> (128 - w),
        "bswap" => x.swap_bytes() >> (128 - w),
        "mul24" => (sext(x & 0xff_ffff, 24) * sext(u(1)? & 0xff_ffff, 24)) as u128,
        "umul24" => (x & 0xff_ffff) * (u(1)? & 0xff_ffff),
        "mulhi" | "mul64hi" => ((s(0)? * s(1)?) >> w) as u128,
        "umulhi" | "umul64hi" => {
            if w >= 64 {
                // 64x64 -> 128 bits fits a u128 exactly.
                (x.wrapping_mul(u(1)?)) >> 64
            } else {
                (x * u(1)?) >> w
            }
        }
        "fns" => fns(x as u32, u(1)? as u32, s(2)? as i32) as u128,
        "sad" => (s(0)? - s(1)?).unsigned_abs() + u(2)?,
        "usad" => x.abs_diff(u(1)?) + u(2)?,
        _ => return None,
    };
    Some(r & mask(width))
}

/// PTX's `fns.b32` (CUDA's `__fns`): the position of the `offset`-th set
/// bit of `mask` counting from bit `base` upwards (offset > 0) or downwards
/// (offset < 0), `base` itself if it is set for offset 0; all ones if there
/// is none.
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if offset == 0 {
        return if base < 32 && mask >> base & 1 != 0 { base } else { u32::MAX };
    }
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = base as i64;
    let step = if offset > 0 { 1 } else { -1 };
    while (0..32).contains(&pos) {
        if mask >> pos & 1 != 0 {
            if count == 0 {
                return pos as u32;
            }
            count -= 1;
        }
        pos += step;
    }
    u32::MAX
}

/// A deterministic stand-in for an unknown function: a hash of the name and
/// the argument bits, of the result's width.
fn hashed(name: &str, args: &[Val], ret: Type) -> Val {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    for a in args {
        let bits = a.bits();
        h = splitmix(h ^ bits as u64);
        h = splitmix(h ^ (bits >> 64) as u64);
    }
    let wide = ((splitmix(h) as u128) << 64) | h as u128;
    match ret {
        Type::Ptr(_) => Val::NULL,
        t => Val::Bits(wide & mask(t.bits())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_names() {
        assert_eq!(base_name("sqrtf"), "sqrt");
        assert_eq!(base_name("llvm.sqrt.f32"), "sqrt");
        assert_eq!(base_name("__expf"), "exp");
        assert_eq!(base_name("__nv_fminf"), "fmin");
        assert_eq!(base_name("__fsqrt_rn"), "sqrt");
        assert_eq!(base_name("_Z4sqrtf"), "sqrt");
        assert_eq!(base_name("erf"), "erf");
        assert_eq!(base_name("__popc"), "popc");
    }

    #[test]
    fn find_nth_set_bit() {
        assert_eq!(fns(0b1011_0000, 0, 1), 4);
        assert_eq!(fns(0b1011_0000, 0, 3), 7);
        assert_eq!(fns(0b1011_0000, 7, -2), 5);
        assert_eq!(fns(0b1011_0000, 5, 0), 5);
        assert_eq!(fns(0b1011_0000, 6, 0), u32::MAX);
        assert_eq!(fns(0b1011_0000, 0, 4), u32::MAX);
    }

    #[test]
    fn float_and_int_calls() {
        let f = Type::Float(32);
        let r = call_external("sqrtf", &[Val::f32(9.0)], &[f], Some(f)).unwrap();
        assert_eq!(f32::from_bits(r.bits() as u32), 3.0);
        let i = Type::I32;
        let r = call_external("__clz", &[Val::u32(1)], &[i], Some(i)).unwrap();
        assert_eq!(r.bits(), 31);
        let r = call_external("min", &[Val::i32(-3), Val::i32(2)], &[i, i], Some(i)).unwrap();
        assert_eq!(r.bits() as u32 as i32, -3);
        let a = call_external("mystery", &[Val::u32(1)], &[i], Some(i)).unwrap();
        let b = call_external("mystery", &[Val::u32(1)], &[i], Some(i)).unwrap();
        assert_eq!(a, b);
    }
}
