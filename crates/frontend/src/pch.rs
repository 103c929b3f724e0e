//! Precompiled headers for compilations against a CUDA toolkit.
//!
//! A CUDA toolkit's headers cost clang about 0.2 s of CPU for every file,
//! ten times what the file itself costs; they do not change between runs.
//! The first compilation with a given toolkit, side and set of search flags
//! (`-I`, `-D`) builds a precompiled header of `lockstep_toolkit.h` (which
//! includes `cuda_runtime.h` through clang's CUDA wrapper) in lockstep's cache
//! directory; later compilations include it instead of parsing the headers.
//! A precompiled header is keyed by everything that changes what it holds
//! (clang, the toolkit and its version, the side, the prelude, the flags and
//! lockstep's version), and one that clang refuses (a header changed since
//! it was built) is removed and the file compiled without it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::driver::{run_with_deadline, Side, CLANG_DEADLINE};
use crate::toolkit::Toolkit;

/// The precompiled header for these flags, built if it does not exist yet;
/// `None` when it cannot be built (the compilation then goes without).
/// `language_args` are the clang flags of the compilation without the
/// force-included header, the output kind and the input (see
/// `driver::language_args`).
pub(crate) fn precompiled_header(
    clang: &Path,
    toolkit: &Toolkit,
    side: Side,
    prelude: &Path,
    language_args: &[String],
    search_args: &[OsString],
) -> Option<PathBuf> {
    let mut hash: u64 = 0xcbf29ce484222325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes.iter().chain([0u8].iter()) {
            hash = (hash ^ *b as u64).wrapping_mul(0x100000001b3);
        }
    };
    feed(env!("CARGO_PKG_VERSION").as_bytes());
    feed(clang.as_os_str().as_encoded_bytes());
    feed(toolkit.root.as_os_str().as_encoded_bytes());
    feed(toolkit.version.as_bytes());
    feed(if side == Side::Host { b"host" } else { b"device" });
    feed(prelude.as_os_str().as_encoded_bytes());
    for a in language_args {
        feed(a.as_bytes());
    }
    for a in search_args {
        feed(a.as_encoded_bytes());
    }
    let dir = crate::toolkit::cache_dir().join("pch");
    let pch = dir.join(format!("toolkit-{hash:016x}.pch"));
    if pch.is_file() {
        return Some(pch);
    }
    std::fs::create_dir_all(&dir).ok()?;
    // Built under a name of its own and renamed, so that concurrent runs
    // never read a half-written file.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".toolkit-{hash:016x}-{}-{n}.pch", std::process::id()));
    let mut cmd = Command::new(clang);
    cmd.args(language_args).args(search_args);
    cmd.args(["-S", "-emit-llvm", "-Xclang", "-emit-pch", "-o"]).arg(&tmp).arg(prelude.join("lockstep_toolkit.h"));
    let built = matches!(run_with_deadline(&mut cmd, CLANG_DEADLINE), Ok(Some(out)) if out.status.success());
    if !built || std::fs::rename(&tmp, &pch).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return pch.is_file().then_some(pch);
    }
    Some(pch)
}

/// Whether clang's errors say that it could not use a precompiled header.
pub(crate) fn refused(stderr: &str) -> bool {
    stderr.contains("precompiled header") || stderr.contains("PCH file")
}
