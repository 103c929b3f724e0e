//! A value-based model of the half-precision operations that lockstep's
//! CUDA prelude declares without bodies (`<cuda_fp16.h>`: `__hadd`,
//! `operator+` on `__half`, `__hfma2`, `__float2half`, ...).
//!
//! `__half` and `__half2` are structs, so the front-end passes them to
//! these functions by address: a by-value argument is a private copy
//! (`agg.tmp`) made just before the call, and a `const __half &` operand
//! of an operator is the address of the element itself. A model of the
//! call as a function of its argument bits would therefore see addresses,
//! not values: `__hadd(x[i], y[i])` and `__hadd(x[i], x[i])` would hash the
//! same two private copies' addresses and agree, and `x[i] + y[i]` would
//! differ from `a + y[i]` with `a` a copy of `x[i]`. So the interpreter
//! first replaces each pointer argument by the bytes it points to
//! ([`pointee_size`] says how many), and the operations this module knows
//! are then computed with IEEE half-precision arithmetic (round to nearest
//! even, through `f64`, which is exact for one addition, subtraction,
//! multiplication or division of halves); the others keep the generic
//! model of `math::call_external` (a hash of the argument values).
//!
//! A result of struct type is returned lane by lane: the front-end calls
//! `NAME.laneI` once per 16-bit field, and lane `i` of a `__half2` operand
//! is its bits `16 i .. 16 i + 15` (a `__half` operand is used for every
//! lane).

use lockstep_kir::Type;

use crate::math::call_external;
use crate::memory::Memory;
use crate::value::{f64_to_float, float_to_f64, mask, sext, Val};

/// The value of a call of the body-less function `name` that no
/// environment answered: for a half operation, its arguments' pointees
/// read from `memory` and the operation computed on them (or, for one this
/// module does not compute, `math::call_external` on the values read);
/// for any other function, `math::call_external` on the arguments as they
/// are.
pub fn external_value(memory: &Memory, name: &str, vals: &[Val], types: &[Type], ret: Option<Type>) -> Option<Val> {
    if !is_half_op(name) && !(name.starts_with("_Z") && name.contains("__half")) {
        return call_external(name, vals, types, ret);
    }
    let mut args = Vec::with_capacity(vals.len());
    for (&v, &t) in vals.iter().zip(types) {
        args.push(match t {
            Type::Ptr(_) => {
                let p = v.as_ptr();
                let object_size = p.obj.and_then(|id| memory.get(id)).map(|o| o.size());
                let read = pointee_size(name, p.offset, object_size).and_then(|n| Some((n, memory.read(v, n)?)));
                match read {
                    Some((n, bytes)) => {
                        let bits = bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
                        Arg { bits, width: 8 * n as u32, float: false }
                    }
                    // A pointer this module cannot read through keeps the
                    // generic model.
                    None => return call_external(name, vals, types, ret),
                }
            }
            Type::Float(w) => Arg { bits: v.bits(), width: w as u32, float: true },
            Type::Int(w) => Arg { bits: v.bits(), width: w as u32, float: false },
        });
    }
    if let Some(r) = ret.and_then(|t| half_call(name, &args, t)) {
        return Some(r);
    }
    let values: Vec<Val> = args.iter().map(|a| Val::Bits(a.bits)).collect();
    let widths: Vec<Type> = args.iter().map(|a| if a.float { Type::Float(a.width as u16) } else { Type::Int(a.width as u16) }).collect();
    call_external(name, &values, &widths, ret)
}

/// The bytes that the pointer argument of `name` points to: 4 for a
/// `__half2` and 2 for a `__half` named in the mangled symbol (operators
/// taking references), else the whole of a small private object that the
/// pointer points to the start of (a by-value copy; `object_size`), else
/// `None` (the pointer itself stays the argument).
pub fn pointee_size(name: &str, offset: i64, object_size: Option<u64>) -> Option<u64> {
    let symbol = name.split('.').next().unwrap_or(name);
    if symbol.starts_with("_Z") {
        if symbol.contains("7__half2") {
            return Some(4);
        }
        if symbol.contains("6__half") {
            return Some(2);
        }
    }
    match object_size {
        Some(size) if offset == 0 && size <= 16 && is_half_op(name) => Some(size),
        _ => None,
    }
}

/// The operation a (possibly mangled) name of the prelude stands for, and
/// the result lane it computes.
fn operation(name: &str) -> (String, usize) {
    let (symbol, lane) = match name.rsplit_once(".lane") {
        Some((s, l)) => (s, l.parse().unwrap_or(0)),
        None => (name, 0),
    };
    // Itanium operator names: `_ZplRK6__halfS1_` is `operator+`.
    let op = match symbol.strip_prefix("_Z").map(|s| s.get(..2).unwrap_or("")) {
        Some("pl") => "add",
        Some("mi") => "sub_or_neg",
        Some("ml") => "mul",
        Some("dv") => "div",
        Some("ng") => "neg",
        Some("eq") => "eq",
        Some("ne") => "ne",
        Some("lt") => "lt",
        Some("le") => "le",
        Some("gt") => "gt",
        Some("ge") => "ge",
        _ => {
            // A plain or mangled function name: `__hadd`, `_Z6__hadd6__halfS_`.
            let plain = match symbol.strip_prefix("_Z") {
                Some(rest) => {
                    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                    let len: usize = rest[..digits].parse().unwrap_or(0);
                    rest.get(digits..digits + len).unwrap_or(rest)
                }
                None => symbol,
            };
            match plain {
                "__hadd" | "__hadd2" => "add",
                "__hsub" | "__hsub2" => "sub",
                "__hmul" | "__hmul2" => "mul",
                "__hdiv" | "__h2div" => "div",
                "__hfma" | "__hfma2" => "fma",
                "__hneg" | "__hneg2" => "neg",
                "__habs" | "__habs2" => "abs",
                "__hmax" | "__hmax2" => "max",
                "__hmin" | "__hmin2" => "min",
                "__heq" => "eq",
                "__hne" => "ne",
                "__hlt" => "lt",
                "__hle" => "le",
                "__hgt" => "gt",
                "__hge" => "ge",
                "__hisnan" => "isnan",
                "__float2half" | "__float2half_rn" | "__float2half2_rn" | "__floats2half2_rn" => "from_float",
                "__half2float" | "__low2float" => "to_float_low",
                "__high2float" => "to_float_high",
                "__half22float2" => "to_float_lanes",
                "__low2half" => "low",
                "__high2half" => "high",
                "__halves2half2" => "halves",
                "__half2half2" => "low",
                "__half_as_ushort" | "__ushort_as_half" => "bits",
                "__int2half_rn" => "from_int",
                "__half2int_rn" => "to_int_rn",
                "__half2int_rz" => "to_int_rz",
                _ => "",
            }
        }
    };
    (op.to_string(), lane)
}

/// The operation a (possibly mangled) name of the prelude stands for
/// (`add`, `sub`, `sub_or_neg`, `mul`, `div`, `fma`, `neg`, `abs`, ...; empty
/// when this module does not model it) and the result lane it computes:
/// for engines that model the same operations otherwise (the equivalence
/// checker's symbolic floats).
pub fn operation_and_lane(name: &str) -> (String, usize) {
    operation(name)
}

/// Whether this module models `name`.
pub fn is_half_op(name: &str) -> bool {
    !operation(name).0.is_empty()
}

/// An argument after its pointee was read: its bits and width in bits, and
/// whether it is a float of that width (a `float` argument of a
/// conversion) rather than the bits of halves.
#[derive(Clone, Copy, Debug)]
pub struct Arg {
    pub bits: u128,
    pub width: u32,
    pub float: bool,
}

/// The 16 bits of lane `lane` of a half or half2 argument.
fn lane_bits(a: Arg, lane: usize) -> u16 {
    if a.width >= 32 && !a.float {
        (a.bits >> (16 * lane)) as u16
    } else {
        a.bits as u16
    }
}

fn half(bits: u16) -> f64 {
    float_to_f64(bits as u128, 16)
}

/// `x` rounded to a half. A NaN result is the canonical NaN `0x7fff`, as
/// the device's half arithmetic returns: the payload `f64` arithmetic
/// propagates depends on the operands' order, which would make `a * b`
/// differ from `b * a`.
fn to_half(x: f64) -> u128 {
    if x.is_nan() {
        0x7fff
    } else {
        f64_to_float(x, 16)
    }
}

/// The result of the half operation `name` on `args`, for a result of type
/// `ret`; `None` when this module does not model it.
pub fn half_call(name: &str, args: &[Arg], ret: Type) -> Option<Val> {
    let (op, lane) = operation(name);
    let h = |i: usize| -> Option<f64> { args.get(i).map(|&a| half(lane_bits(a, lane))) };
    let bool_result = |b: bool| Some(Val::Bits(b as u128 & mask(ret.bits())));
    let r: u128 = match op.as_str() {
        "add" => to_half(h(0)? + h(1)?),
        "sub" => to_half(h(0)? - h(1)?),
        "sub_or_neg" if args.len() == 1 => to_half(-h(0)?),
        "sub_or_neg" => to_half(h(0)? - h(1)?),
        "mul" => to_half(h(0)? * h(1)?),
        "div" => to_half(h(0)? / h(1)?),
        // The product of two halves is exact in f64; the sum is rounded
        // once there and once to half (a double rounding that can differ
        // from the hardware's single one only in rare ties, alike for both
        // kernels of a pair).
        "fma" => to_half(h(0)?.mul_add(h(1)?, h(2)?)),
        "neg" => (lane_bits(*args.first()?, lane) ^ 0x8000) as u128,
        "abs" => (lane_bits(*args.first()?, lane) & 0x7fff) as u128,
        "max" | "min" => {
            let (x, y) = (h(0)?, h(1)?);
            if x.is_nan() && y.is_nan() {
                return Some(Val::Bits(0x7fff));
            }
            let pick_x = if x.is_nan() { false } else if y.is_nan() { true } else if op == "max" { x >= y } else { x <= y };
            lane_bits(args[if pick_x { 0 } else { 1 }], lane) as u128
        }
        "eq" => return bool_result(h(0)? == h(1)?),
        "ne" => return bool_result(h(0)? != h(1)?),
        "lt" => return bool_result(h(0)? < h(1)?),
        "le" => return bool_result(h(0)? <= h(1)?),
        "gt" => return bool_result(h(0)? > h(1)?),
        "ge" => return bool_result(h(0)? >= h(1)?),
        "isnan" => return bool_result(h(0)?.is_nan()),
        "from_float" => {
            // `__floats2half2_rn(a, b)`: lane `i` from argument `i`; the
            // one-argument conversions use their argument for every lane.
            let a = if args.len() > 1 { *args.get(lane)? } else { *args.first()? };
            let x = if a.float { float_to_f64(a.bits, a.width) } else { return None };
            to_half(x)
        }
        "to_float_low" | "to_float_high" | "to_float_lanes" => {
            let l = match op.as_str() {
                "to_float_low" => 0,
                "to_float_high" => 1,
                _ => lane,
            };
            let x = half(lane_bits(*args.first()?, l));
            return match ret {
                Type::Float(w) => Some(Val::Bits(f64_to_float(x, w as u32))),
                _ => None,
            };
        }
        "low" => lane_bits(*args.first()?, 0) as u128,
        "high" => lane_bits(*args.first()?, 1) as u128,
        "halves" => lane_bits(*args.get(lane)?, 0) as u128,
        "bits" => lane_bits(*args.first()?, 0) as u128,
        "from_int" => {
            let a = *args.first()?;
            to_half(sext(a.bits, a.width) as f64)
        }
        "to_int_rn" | "to_int_rz" => {
            let x = h(0)?;
            let v = if op == "to_int_rz" { x.trunc() } else { x.round_ties_even() };
            let v = if v.is_nan() { 0 } else { v.clamp(i32::MIN as f64, i32::MAX as f64) as i64 };
            return Some(Val::Bits(v as u128 & mask(ret.bits())));
        }
        _ => return None,
    };
    match ret {
        Type::Int(16) | Type::Float(16) => Some(Val::Bits(r)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(x: f32) -> Arg {
        Arg { bits: to_half(x as f64), width: 16, float: false }
    }

    fn value(v: Val) -> f64 {
        half(v.bits() as u16)
    }

    #[test]
    fn arithmetic_on_values() {
        let i16 = Type::Int(16);
        assert_eq!(value(half_call("__hadd.lane0", &[h(1.5), h(2.25)], i16).unwrap()), 3.75);
        assert_eq!(value(half_call("_ZplRK6__halfS1_.lane0", &[h(1.5), h(2.25)], i16).unwrap()), 3.75);
        assert_eq!(value(half_call("_ZmiRK6__halfS1_.lane0", &[h(1.5), h(2.25)], i16).unwrap()), -0.75);
        assert_eq!(value(half_call("_ZngRK6__half.lane0", &[h(1.5)], i16).unwrap()), -1.5);
        assert_eq!(value(half_call("__hfma.lane0", &[h(2.0), h(3.0), h(1.0)], i16).unwrap()), 7.0);
        // 2048 + 1 is not a half: it rounds to even.
        assert_eq!(value(half_call("__hadd.lane0", &[h(2048.0), h(1.0)], i16).unwrap()), 2048.0);
        assert_eq!(half_call("__hlt", &[h(1.0), h(2.0)], Type::Int(1)).unwrap().bits(), 1);
        // NaN operands in either order give one NaN.
        let nan = Arg { bits: 0x7e01, width: 16, float: false };
        let a = half_call("__hmul.lane0", &[nan, h(2.0)], i16).unwrap();
        let b = half_call("__hmul.lane0", &[h(2.0), nan], i16).unwrap();
        assert_eq!((a.bits(), b.bits()), (0x7fff, 0x7fff));
    }

    #[test]
    fn half2_lanes() {
        let i16 = Type::Int(16);
        let pair = |lo: f32, hi: f32| Arg { bits: to_half(lo as f64) | to_half(hi as f64) << 16, width: 32, float: false };
        let a = pair(1.0, 2.0);
        let b = pair(10.0, 20.0);
        assert_eq!(value(half_call("__hadd2.lane0", &[a, b], i16).unwrap()), 11.0);
        assert_eq!(value(half_call("__hadd2.lane1", &[a, b], i16).unwrap()), 22.0);
        assert_eq!(value(half_call("__high2half.lane0", &[a], i16).unwrap()), 2.0);
        assert_eq!(value(half_call("__halves2half2.lane1", &[h(3.0), h(4.0)], i16).unwrap()), 4.0);
        let f = Arg { bits: 2.5f32.to_bits() as u128, width: 32, float: true };
        assert_eq!(value(half_call("__float2half.lane0", &[f], i16).unwrap()), 2.5);
    }

    #[test]
    fn pointee_sizes() {
        assert_eq!(pointee_size("_ZplRK6__halfS1_.lane0", 8, None), Some(2));
        assert_eq!(pointee_size("_ZplRK7__half2S1_.lane1", 8, None), Some(4));
        assert_eq!(pointee_size("__hadd.lane0", 0, Some(2)), Some(2));
        assert_eq!(pointee_size("__hadd.lane0", 2, Some(4)), None);
        assert_eq!(pointee_size("mystery", 0, Some(4)), None);
    }
}
