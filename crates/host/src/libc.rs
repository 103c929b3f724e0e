//! The string and memory functions of the C library, executed on the
//! interpreter's memory. Host code calls them, and so do kernels (device
//! code may call `memcmp`, or `strcmp` through a helper of its own). Each
//! returns `None` when an argument points to no object, so the caller can
//! report the misuse.

use lockstep_replay::{Memory, Pointer, Val};

/// The bytes from `p` to the end of its object.
fn tail(memory: &Memory, p: Pointer) -> Option<&[u8]> {
    let id = p.obj.filter(|id| (id.0 as usize) < memory.len())?;
    let obj = memory.object(id);
    if !obj.live || p.offset < 0 {
        return None;
    }
    obj.bytes.get(p.offset as usize..)
}

/// The NUL-terminated string at `p` (without the NUL); `None` when it runs
/// off its object.
fn c_string(memory: &Memory, p: Pointer) -> Option<&[u8]> {
    let bytes = tail(memory, p)?;
    let end = bytes.iter().position(|&b| b == 0)?;
    Some(&bytes[..end])
}

/// The NUL-terminated string at `p`, if it lies within its object.
pub fn read_c_string(memory: &Memory, p: Pointer) -> Option<Vec<u8>> {
    c_string(memory, p).map(<[u8]>::to_vec)
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
            (Some(a), Some(b)) => int(compare(a, b).signum()),
            _ => bad("an argument"),
        },
        "strncmp" | "memcmp" => {
            let len = n(2) as usize;
            let read = |q: Pointer| -> Option<Vec<u8>> {
                if name == "memcmp" {
                    tail(memory, q).filter(|t| t.len() >= len).map(|t| t[..len].to_vec())
                } else {
                    let t = tail(memory, q)?;
                    let end = t.iter().take(len).position(|&b| b == 0).unwrap_or(len);
                    (end <= t.len()).then(|| t[..end].to_vec())
                }
            };
            match (read(p(0)), read(p(1))) {
                (Some(a), Some(b)) => int(compare(&a, &b).signum()),
                _ => bad("an argument"),
            }
        }
        "strcpy" | "strcat" => {
            let Some(src) = c_string(memory, p(1)).map(<[u8]>::to_vec) else {
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
            let room = tail(memory, dst).map_or(0, |t| t.len());
            if (start as usize) + src.len() + 1 > room {
                return Some(LibcResult::BadArgument(format!("`{name}` writes past the end of its destination")));
            }
            let id = dst.obj.expect("checked by tail");
            let at = (dst.offset + start) as usize;
            let mut terminated = src;
            terminated.push(0);
            memory.write(id, at as u64, &terminated);
            Some(LibcResult::Value(Some(args[0])))
        }
        _ => None,
    }
}
