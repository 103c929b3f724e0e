//! The string, number-parsing and formatting functions of the C library,
//! executed on the interpreter's memory. Host code calls them, and so do
//! kernels (device code may call `memcmp`, or `strcmp` through a helper of
//! its own). Each reports an argument that points to no object, so the
//! caller can report the misuse.

use lockstep_replay::{Memory, ObjId, Pointer, Val};

/// The object and offset of `p`, and how many bytes lie from it to the end
/// of its object, when `p` points into a live object.
fn tail(memory: &Memory, p: Pointer) -> Option<(ObjId, u64, u64)> {
    let id = p.obj?;
    let obj = memory.get(id)?;
    let offset = u64::try_from(p.offset).ok()?;
    if !obj.live || offset > obj.size() {
        return None;
    }
    Some((id, offset, obj.size() - offset))
}

/// The NUL-terminated string at `p` (without the NUL); `None` when it runs
/// off its object.
fn c_string(memory: &Memory, p: Pointer) -> Option<Vec<u8>> {
    let (id, offset, _) = tail(memory, p)?;
    let bytes = &memory.object(id).bytes;
    let end = bytes.position(offset, 0)?;
    bytes.read(offset, end - offset)
}

/// The NUL-terminated string at `p`, if it lies within its object.
pub fn read_c_string(memory: &Memory, p: Pointer) -> Option<Vec<u8>> {
    c_string(memory, p)
}

/// `compare` of two ranges of memory, read a page at a time.
fn compare_ranges(memory: &Memory, (ida, offa, lena): (ObjId, u64, u64), (idb, offb, lenb): (ObjId, u64, u64)) -> i32 {
    const CHUNK: u64 = 4096;
    let (mut x, mut y) = (vec![0u8; CHUNK as usize], vec![0u8; CHUNK as usize]);
    let mut at = 0;
    while at < lena.min(lenb) {
        let n = (lena.min(lenb) - at).min(CHUNK) as usize;
        memory.read_at(ida, offa + at, &mut x[..n]);
        memory.read_at(idb, offb + at, &mut y[..n]);
        let c = compare(&x[..n], &y[..n]);
        if c != 0 {
            return c;
        }
        at += n as u64;
    }
    lena.cmp(&lenb) as i32
}

fn compare(a: &[u8], b: &[u8]) -> i32 {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return *x as i32 - *y as i32;
        }
    }
    a.len() as i32 - b.len() as i32
}

/// What a call computed.
pub enum LibcResult {
    /// The call's value (`None` for a void call), or a misuse message.
    Value(Option<Val>),
    /// An argument is a null pointer or runs off its object.
    BadArgument(String),
}

/// Executes `name` if it is a string function this module knows.
pub fn call(name: &str, args: &[Val], memory: &mut Memory) -> Option<LibcResult> {
    let p = |i: usize| args.get(i).map_or(Pointer::NULL, |v| v.as_ptr());
    let n = |i: usize| args.get(i).map_or(0, |v| v.bits() as u64);
    let bad = |what: &str| Some(LibcResult::BadArgument(format!("{what} of `{name}` is not a valid string")));
    let int = |v: i32| Some(LibcResult::Value(Some(Val::i32(v))));
    match name {
        "strlen" => match c_string(memory, p(0)) {
            Some(s) => Some(LibcResult::Value(Some(Val::i64(s.len() as i64)))),
            None => bad("the argument"),
        },
        "strcmp" => match (c_string(memory, p(0)), c_string(memory, p(1))) {
            (Some(a), Some(b)) => int(compare(&a, &b).signum()),
            _ => bad("an argument"),
        },
        "strncmp" | "memcmp" => {
            let len = n(2);
            // Each side as (object, offset, length compared): never read
            // whole, since `len` is the program's and may be huge.
            let range = |q: Pointer| -> Option<(ObjId, u64, u64)> {
                let (id, offset, room) = tail(memory, q)?;
                if name == "memcmp" {
                    return (len <= room).then_some((id, offset, len));
                }
                // The string ends at its NUL, at `len` or at the end of the
                // object, whichever comes first.
                let end = memory.object(id).bytes.position(offset, 0).map_or(room, |nul| nul - offset);
                Some((id, offset, end.min(len)))
            };
            match (range(p(0)), range(p(1))) {
                (Some(a), Some(b)) => int(compare_ranges(memory, a, b).signum()),
                _ => bad("an argument"),
            }
        }
        "strcpy" | "strcat" => {
            let Some(src) = c_string(memory, p(1)) else {
                return bad("the source");
            };
            let dst = p(0);
            let start = if name == "strcat" {
                match c_string(memory, dst) {
                    Some(s) => s.len() as i64,
                    None => return bad("the destination"),
                }
            } else {
                0
            };
            let Some((id, offset, room)) = tail(memory, dst) else {
                return bad("the destination");
            };
            if start as u64 + src.len() as u64 + 1 > room {
                return Some(LibcResult::BadArgument(format!("`{name}` writes past the end of its destination")));
            }
            let mut terminated = src;
            terminated.push(0);
            memory.write(id, offset + start as u64, &terminated);
            Some(LibcResult::Value(Some(args[0])))
        }
        // Numbers parsed from strings, as C parses them: leading blanks, a
        // sign, the longest prefix that is a number; `end` (strtol's second
        // argument) receives where the number ends.
        "atoi" | "atol" | "atoll" | "strtol" | "strtoll" | "strtoul" | "strtoull" | "atof" | "strtod" | "strtof" => {
            let Some(text) = c_string(memory, p(0)) else {
                return bad("the argument");
            };
            let float = matches!(name, "atof" | "strtod" | "strtof");
            let base = if name.starts_with("strto") && !float { n(2) as u32 } else { 10 };
            let (value, used) = if float {
                let (v, used) = parse_c_float(&text);
                (Val::f64(v), used)
            } else {
                let (v, used) = parse_c_integer(&text, base)?;
                (Val::i64(v), used)
            };
            if name.starts_with("strto") {
                let end = p(1);
                if !end.is_null() {
                    let Some((id, offset, room)) = tail(memory, end) else {
                        return bad("the end pointer");
                    };
                    if room < 8 {
                        return bad("the end pointer");
                    }
                    let start = p(0);
                    let at = Pointer { offset: start.offset + used as i64, ..start };
                    memory.write(id, offset, &at.encode().to_le_bytes());
                }
            }
            Some(LibcResult::Value(Some(match name {
                "atoi" => Val::i32(value.bits() as i64 as i32),
                "strtof" => Val::f32(f64::from_bits(value.bits() as u64) as f32),
                _ => value,
            })))
        }
        // Formatted output into a buffer: the bytes C's formatting writes,
        // checked against the destination (`sprintf` past its end is a
        // buffer overflow; `snprintf` writes at most `n` bytes, its
        // terminating NUL included, and returns the untruncated length).
        "sprintf" | "snprintf" => {
            let (fmt_at, limit) = if name == "snprintf" { (2, Some(n(1))) } else { (1, None) };
            let Some(format) = c_string(memory, p(fmt_at)) else {
                return bad("the format");
            };
            let text = format_printf(&format, &args[fmt_at + 1..], memory)?;
            let mut written = text.clone();
            if let Some(limit) = limit {
                written.truncate(limit.saturating_sub(1) as usize);
            }
            if limit != Some(0) {
                let Some((id, offset, room)) = tail(memory, p(0)) else {
                    return bad("the destination");
                };
                if written.len() as u64 + 1 > room {
                    return Some(LibcResult::BadArgument(format!("`{name}` writes past the end of its destination")));
                }
                written.push(0);
                memory.write(id, offset, &written);
            }
            int(text.len() as i32)
        }
        _ => None,
    }
}

/// The bytes C's `printf` family writes for `format` with `args`; `None`
/// for a conversion this does not know (`%n`, wide strings), which leaves
/// the call unmodelled.
fn format_printf(format: &[u8], args: &[Val], memory: &Memory) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut next = args.iter();
    let mut i = 0;
    while i < format.len() {
        let c = format[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let mut flags = Vec::new();
        while i < format.len() && b"-+ #0".contains(&format[i]) {
            flags.push(format[i]);
            i += 1;
        }
        let mut number = |i: &mut usize| -> Option<Option<usize>> {
            if *i < format.len() && format[*i] == b'*' {
                *i += 1;
                return Some(Some(next.next()?.bits() as i32 as usize));
            }
            let start = *i;
            while *i < format.len() && format[*i].is_ascii_digit() {
                *i += 1;
            }
            Some(std::str::from_utf8(&format[start..*i]).ok()?.parse().ok())
        };
        let width = number(&mut i)?;
        let precision = if i < format.len() && format[i] == b'.' {
            i += 1;
            Some(number(&mut i)?.unwrap_or(0))
        } else {
            None
        };
        // The length modifier says how wide the integer argument is (an
        // `int` by default: the argument's bits above 32 are not its own).
        let modifier_start = i;
        while i < format.len() && b"hlLqjzt".contains(&format[i]) {
            i += 1;
        }
        let bits: u32 = match &format[modifier_start..i] {
            b"hh" => 8,
            b"h" => 16,
            b"" => 32,
            _ => 64,
        };
        let signed = |v: &Val| ((v.bits() as u64) << (64 - bits)) as i64 >> (64 - bits);
        let unsigned = |v: &Val| ((v.bits() as u64) << (64 - bits)) >> (64 - bits);
        let conversion = *format.get(i)?;
        i += 1;
        let left = flags.contains(&b'-');
        let zero = flags.contains(&b'0') && !left;
        let body: Vec<u8> = match conversion {
            b'%' => {
                out.push(b'%');
                continue;
            }
            b'd' | b'i' => {
                let v = signed(next.next()?);
                let digits = v.unsigned_abs().to_string();
                let sign = if v < 0 { "-" } else if flags.contains(&b'+') { "+" } else if flags.contains(&b' ') { " " } else { "" };
                format!("{sign}{}", pad_digits(&digits, precision)).into_bytes()
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = unsigned(next.next()?);
                let digits = match conversion {
                    b'u' => v.to_string(),
                    b'x' => format!("{v:x}"),
                    b'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                let prefix = match (flags.contains(&b'#') && v != 0, conversion) {
                    (true, b'x') => "0x",
                    (true, b'X') => "0X",
                    (true, b'o') => "0",
                    _ => "",
                };
                format!("{prefix}{}", pad_digits(&digits, precision)).into_bytes()
            }
            b'c' => vec![next.next()?.bits() as u8],
            b's' => {
                let mut s = c_string(memory, next.next()?.as_ptr())?;
                if let Some(p) = precision {
                    s.truncate(p);
                }
                s
            }
            b'p' => format!("{:#x}", next.next()?.bits() as u64).into_bytes(),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let v = f64::from_bits(next.next()?.bits() as u64);
                let p = precision.unwrap_or(6);
                let text = match conversion {
                    b'f' | b'F' => format!("{v:.p$}"),
                    b'e' | b'E' => c_exponent(&format!("{v:.p$e}")),
                    // `%g`: the shorter of the two forms, as C chooses it
                    // (exponent below -4 or at least the precision).
                    _ => {
                        let p = p.max(1);
                        let exponent = if v == 0.0 { 0 } else { v.abs().log10().floor() as i32 };
                        let s = if exponent < -4 || exponent >= p as i32 {
                            c_exponent(&format!("{v:.*e}", p - 1))
                        } else {
                            format!("{v:.*}", (p as i32 - 1 - exponent).max(0) as usize)
                        };
                        if flags.contains(&b'#') || !s.contains('.') {
                            s
                        } else {
                            let (mantissa, rest) = s.split_once('e').map_or((s.as_str(), None), |(m, r)| (m, Some(r)));
                            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
                            match rest {
                                Some(r) => format!("{mantissa}e{r}"),
                                None => mantissa.to_string(),
                            }
                        }
                    }
                };
                let text = if conversion.is_ascii_uppercase() { text.to_uppercase() } else { text };
                let sign = if v >= 0.0 && flags.contains(&b'+') { "+" } else { "" };
                format!("{sign}{text}").into_bytes()
            }
            _ => return None,
        };
        let pad = width.unwrap_or(0).saturating_sub(body.len());
        if left {
            out.extend(&body);
            out.extend(std::iter::repeat_n(b' ', pad));
        } else if zero && conversion != b's' && conversion != b'c' {
            // Zeros go after the sign or the `0x` prefix.
            let split = body.iter().take_while(|b| matches!(b, b'-' | b'+' | b' ')).count();
            let split = if body[split..].starts_with(b"0x") || body[split..].starts_with(b"0X") { split + 2 } else { split };
            out.extend(&body[..split]);
            out.extend(std::iter::repeat_n(b'0', pad));
            out.extend(&body[split..]);
        } else {
            out.extend(std::iter::repeat_n(b' ', pad));
            out.extend(&body);
        }
    }
    Some(out)
}

/// The integer at the start of `text` as `strtol` reads it in `base` (0:
/// decimal, octal after `0`, hex after `0x`), with how many bytes it used
/// (0 when there is no number); `None` for a base C does not accept.
fn parse_c_integer(text: &[u8], base: u32) -> Option<(i64, usize)> {
    if base == 1 || base > 36 {
        return None;
    }
    let mut i = text.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let negative = text.get(i) == Some(&b'-');
    if matches!(text.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let hex_prefix = text.get(i) == Some(&b'0') && matches!(text.get(i + 1), Some(b'x' | b'X')) && text.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit());
    let base = match base {
        0 if hex_prefix => 16,
        0 if text.get(i) == Some(&b'0') => 8,
        0 => 10,
        b => b,
    };
    if base == 16 && hex_prefix {
        i += 2;
    }
    let start = i;
    let mut value: i128 = 0;
    while let Some(d) = text.get(i).and_then(|c| (*c as char).to_digit(base)) {
        value = (value * base as i128 + d as i128).min(u64::MAX as i128);
        i += 1;
    }
    if i == start {
        return Some((0, 0));
    }
    // The value as a 64-bit integer (wrapped, as the callers truncate it to
    // their type).
    let bits = if negative { (value as u64 as i64).wrapping_neg() } else { value as u64 as i64 };
    Some((bits, i))
}

/// The float at the start of `text` as `strtod` reads it (decimal forms),
/// with how many bytes it used (0 when there is no number).
fn parse_c_float(text: &[u8]) -> (f64, usize) {
    let blanks = text.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let rest = &text[blanks..];
    // The longest prefix Rust parses as a float is C's number here.
    (1..=rest.len().min(64))
        .rev()
        .find_map(|len| {
            let candidate = std::str::from_utf8(&rest[..len]).ok()?;
            candidate.parse::<f64>().ok().map(|v| (v, blanks + len))
        })
        .unwrap_or((0.0, 0))
}

/// `digits` with leading zeros up to `precision` digits.
fn pad_digits(digits: &str, precision: Option<usize>) -> String {
    match precision {
        Some(p) if p > digits.len() => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits.to_string(),
    }
}

/// Rust's `1.5e2` as C writes it: `1.5e+02`.
fn c_exponent(rust: &str) -> String {
    match rust.split_once('e') {
        Some((mantissa, exponent)) => {
            let (sign, digits) = exponent.strip_prefix('-').map_or(("+", exponent), |d| ("-", d));
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => rust.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(format: &str, args: &[Val]) -> String {
        let memory = Memory::default();
        String::from_utf8(format_printf(format.as_bytes(), args, &memory).expect("known conversions")).unwrap()
    }

    #[test]
    fn printf_conversions_match_c() {
        assert_eq!(formatted("n=%d, %5d|%-4d|%04d", &[Val::i32(-7), Val::i32(42), Val::i32(3), Val::i32(-5)]), "n=-7,    42|3   |-005");
        assert_eq!(formatted("%u %x %#X %o %.3d", &[Val::i32(7), Val::i32(255), Val::i32(255), Val::i32(8), Val::i32(5)]), "7 ff 0XFF 10 005");
        assert_eq!(formatted("%.2f %e %g %g %g", &[Val::f64(3.14159), Val::f64(1500.0), Val::f64(0.0001), Val::f64(1e-5), Val::f64(100.0)]), "3.14 1.500000e+03 0.0001 1e-05 100");
        assert_eq!(formatted("%c%c %% %*d", &[Val::i32(b'o' as i32), Val::i32(b'k' as i32), Val::i32(4), Val::i32(9)]), "ok %    9");
        assert!(format_printf(b"%n", &[Val::i32(0)], &Memory::default()).is_none());
        assert_eq!(formatted("%ld %hhu", &[Val::i64(-1), Val::i32(257)]), "-1 1");
    }

    #[test]
    fn numbers_parse_as_strtol_and_strtod_read_them() {
        assert_eq!(parse_c_integer(b"  -42abc", 10), Some((-42, 5)));
        assert_eq!(parse_c_integer(b"0x1F", 0), Some((31, 4)));
        assert_eq!(parse_c_integer(b"017", 0), Some((15, 3)));
        assert_eq!(parse_c_integer(b"zz", 36), Some((1295, 2)));
        assert_eq!(parse_c_integer(b"x", 10), Some((0, 0)));
        assert_eq!(parse_c_integer(b"1", 1), None);
        assert_eq!(parse_c_float(b" 2.5e3x"), (2500.0, 6));
        assert_eq!(parse_c_float(b"-.5"), (-0.5, 3));
        assert_eq!(parse_c_float(b"abc"), (0.0, 0));
    }
}
