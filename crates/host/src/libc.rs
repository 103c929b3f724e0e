//! The string and memory functions of the C library, executed on the
//! interpreter's memory. Host code calls them, and so do kernels (device
//! code may call `memcmp`, or `strcmp` through a helper of its own). Each
//! returns `None` when an argument points to no object, so the caller can
//! report the misuse.

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
        _ => None,
    }
}
