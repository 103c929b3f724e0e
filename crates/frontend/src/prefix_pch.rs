//! Precompiled leading includes of CUDA files compiled against the prelude.
//!
//! A whole program's two compilations (device and host) each parse the same
//! C and C++ library headers that its first lines include (`stdio.h`,
//! `cuda.h`, ESBMC-GPU's `call_kernel.h`, which brings `<cmath>`): about
//! 23,000 lines and 0.2 s of clang's CPU per side, ten times what the
//! program itself costs. Those lines are the same in most files, so the
//! first compilation with a given list of leading includes builds a
//! precompiled header of them (after the force-included `lockstep_cuda.h`,
//! as the file would see them), and later compilations load it instead.
//!
//! Loading the header must mean compiling the file as it would have been
//! compiled without it. That holds when
//! - the file's text before its first declaration is only those includes,
//!   comments and blank lines (`leading_includes`), so nothing of the file
//!   comes before them;
//! - the includes resolve to the same files: the key holds every flag but
//!   the user's folders (the file's own folder, `-I` folders, the working
//!   folder, which change from file to file), and the header is shared only
//!   while it read nothing from those folders and none of them holds a file
//!   that one of its includes could have found there first
//!   (`shadowing`); clang itself refuses a header whose files changed since
//!   it was built;
//! - every header it holds has an include guard, so that the file's own
//!   includes of them add nothing (the prelude's have, the C library's and
//!   libstdc++'s too; `assert.h`, which has none, defines only `assert`).
//!
//! One assumption is not checked: a library header that only probes for a
//! file with `__has_include` (libstdc++'s parallel algorithms look for TBB)
//! is assumed not to find a different answer in the user's folders.
//!
//! Any failure of the compilation that loads the header makes the caller
//! compile the file again without it, so that clang's diagnostics are
//! always those of the plain compilation.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::driver::{run_with_deadline, Side, CLANG_DEADLINE};

/// The `#include` lines at the top of `source`, before anything else but
/// comments and blank lines, each as `#include <name>` or `#include "name"`;
/// empty when the file does not start that way.
pub(crate) fn leading_includes(source: &str) -> Vec<String> {
    let mut includes = Vec::new();
    let mut in_comment = false;
    for raw in source.lines() {
        let mut line = raw.trim();
        if in_comment {
            match line.find("*/") {
                Some(end) => {
                    in_comment = false;
                    line = line[end + 2..].trim();
                }
                None => continue,
            }
        }
        // A block comment that opens (and perhaps closes) at the start of
        // the line; anything after it must itself be a comment or nothing.
        while let Some(rest) = line.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) => line = rest[end + 2..].trim(),
                None => {
                    in_comment = true;
                    line = "";
                }
            }
        }
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        match include_directive(line) {
            Some(directive) => includes.push(directive),
            None => break,
        }
    }
    includes
}

/// `#include <name>` or `#include "name"`, optionally followed by a `//`
/// comment, normalised; `None` for any other line (a macro, a continuation
/// line, a `/*` after the name, which could hide anything).
fn include_directive(line: &str) -> Option<String> {
    let rest = line.strip_prefix('#')?.trim_start().strip_prefix("include")?;
    let rest = rest.trim_start();
    let (open, close) = match rest.chars().next()? {
        '<' => ('<', '>'),
        '"' => ('"', '"'),
        _ => return None,
    };
    let body = &rest[1..];
    let end = body.find(close)?;
    let name = &body[..end];
    let after = body[end + 1..].trim();
    let name_ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-/+".contains(c));
    (name_ok && (after.is_empty() || after.starts_with("//"))).then(|| format!("#include {open}{name}{close}"))
}

/// What the compilation of one file needs to find, or build, the
/// precompiled header of its leading includes.
pub(crate) struct PrefixRequest<'a> {
    pub clang: &'a Path,
    pub side: Side,
    pub prelude: &'a Path,
    /// The compilation's flags without the force-included header, the
    /// output and the input (`driver::language_args`).
    pub language_args: &'a [String],
    /// `-I` folders and `-D` definitions, as the compilation passes them.
    pub search_args: &'a [OsString],
    /// The prelude header the compilation force-includes.
    pub forced: &'a str,
    /// The file's leading includes (`leading_includes`), not empty.
    pub includes: &'a [String],
    /// The user's folders, which are not part of the key: the file's own,
    /// the `-I` folders and the working folder.
    pub user_dirs: &'a [PathBuf],
}

/// The precompiled header for `request`, built when no compilation built
/// it before; `None` when it cannot be shared with this compilation (the
/// file is then compiled as it always was).
pub(crate) fn precompiled_prefix(request: &PrefixRequest) -> Option<PathBuf> {
    let mut hash: u64 = 0xcbf29ce484222325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes.iter().chain([0u8].iter()) {
            hash = (hash ^ *b as u64).wrapping_mul(0x100000001b3);
        }
    };
    feed(env!("CARGO_PKG_VERSION").as_bytes());
    feed(request.clang.as_os_str().as_encoded_bytes());
    feed(if request.side == Side::Host { b"host" } else { b"device" });
    feed(request.prelude.as_os_str().as_encoded_bytes());
    feed(request.forced.as_bytes());
    for a in request.language_args {
        feed(a.as_bytes());
    }
    // The definitions, but not the folders (see the module documentation).
    for a in request.search_args {
        if a.as_encoded_bytes().starts_with(b"-D") {
            feed(a.as_encoded_bytes());
        }
    }
    for line in request.includes {
        feed(line.as_bytes());
    }
    let dir = crate::toolkit::cache_dir().join("pch").join("prefix");
    let stem = format!("prefix-{hash:016x}");
    let pch = dir.join(format!("{stem}.pch"));
    let deps = dir.join(format!("{stem}.deps"));
    // A list of leading includes that cannot be shared (it read the user's
    // files, or clang could not precompile it) is remembered, so that later
    // runs do not pay for building it again.
    let unshareable = dir.join(format!("{stem}.none"));
    if unshareable.exists() {
        return None;
    }
    if !(pch.is_file() && deps.is_file()) {
        build(request, &dir, &stem, &pch, &deps, &unshareable)?;
    }
    let listed = std::fs::read_to_string(&deps).ok()?;
    let inputs = parse_depfile(&listed);
    if inputs.is_empty() || shadowing(&inputs, request.user_dirs) != Shadow::None {
        return None;
    }
    Some(pch)
}

/// Builds the header under names of its own and renames it into place, so
/// that concurrent runs never read a half-written file.
fn build(request: &PrefixRequest, dir: &Path, stem: &str, pch: &Path, deps: &Path, unshareable: &Path) -> Option<()> {
    std::fs::create_dir_all(dir).ok()?;
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let unique = format!("{}-{n}", std::process::id());
    // The generated header stays beside the precompiled one: clang records
    // it as an input. Its folder holds no header a file could include.
    let header = dir.join(format!("{stem}.h"));
    let text: String = request.includes.iter().map(|l| format!("{l}\n")).collect();
    if std::fs::read_to_string(&header).ok().as_deref() != Some(text.as_str()) {
        let tmp = dir.join(format!(".{stem}-{unique}.h"));
        std::fs::write(&tmp, &text).ok()?;
        if std::fs::rename(&tmp, &header).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
    let tmp_pch = dir.join(format!(".{stem}-{unique}.pch"));
    let tmp_deps = dir.join(format!(".{stem}-{unique}.deps"));
    let mut cmd = Command::new(request.clang);
    cmd.args(request.language_args).args(request.search_args).arg("-include").arg(request.forced);
    cmd.args(["-S", "-emit-llvm", "-Xclang", "-emit-pch", "-MD", "-MF"]).arg(&tmp_deps).arg("-o").arg(&tmp_pch).arg(&header);
    let outcome = run_with_deadline(&mut cmd, CLANG_DEADLINE);
    let cleanup = || {
        let _ = std::fs::remove_file(&tmp_pch);
        let _ = std::fs::remove_file(&tmp_deps);
    };
    match outcome {
        Ok(Some(out)) if out.status.success() => {}
        Ok(Some(_)) => {
            // Clang refused the includes on their own: they need something
            // the file defines first, or they are wrong. Either way the file
            // is compiled whole.
            cleanup();
            let _ = std::fs::write(unshareable, b"");
            return None;
        }
        // Stopped or not started: nothing is learnt.
        _ => {
            cleanup();
            return None;
        }
    }
    let inputs = std::fs::read_to_string(&tmp_deps).map(|t| parse_depfile(&t)).unwrap_or_default();
    // A header that read a file the user's folders provide (or hide)
    // would carry this file's folders to others.
    let inputs: Vec<PathBuf> = inputs.into_iter().filter(|p| *p != header).collect();
    if inputs.is_empty() || shadowing(&inputs, request.user_dirs) != Shadow::None {
        cleanup();
        let _ = std::fs::write(unshareable, b"");
        return None;
    }
    prune(dir);
    // The list of inputs first: a header without it is never used.
    if std::fs::rename(&tmp_deps, deps).is_err() || std::fs::rename(&tmp_pch, pch).is_err() {
        cleanup();
        return (pch.is_file() && deps.is_file()).then_some(());
    }
    Some(())
}

/// The files a clang depfile lists (`target: input input \` lines, spaces
/// in names escaped), without the target.
fn parse_depfile(text: &str) -> Vec<PathBuf> {
    let joined = text.replace("\\\n", " ");
    let mut files = Vec::new();
    let mut current = String::new();
    let mut chars = joined.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                current.push(' ');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !current.is_empty() {
                    files.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        files.push(current);
    }
    // The first word is the target, `name.pch:`.
    match files.first() {
        Some(first) if first.ends_with(':') => files.remove(0),
        _ => return Vec::new(),
    };
    files.into_iter().map(PathBuf::from).collect()
}

/// The longest include spelling, in path components, that `shadowing`
/// considers (`bits/types/struct_FILE.h` has three). Longer suffixes of an
/// input's path are folders of the file system, not spellings: a check
/// from the user's home folder must not see `.cache/lockstep/prelude-*/x.h`
/// as a spelling the home folder provides.
const MAX_SPELLING_PARTS: usize = 3;

/// What one of the user's folders holds at a path that ends an input's
/// path (`bits/types.h` for `/usr/include/x86_64-linux-gnu/bits/types.h`),
/// where an include searching that folder first would look.
#[derive(Debug, PartialEq, Eq)]
enum Shadow {
    /// Nothing: the folder cannot change what the includes find.
    None,
    /// The input itself: the folder may be where the include found it.
    Provides,
    /// Another file, which an include would find instead of the input.
    Hides,
}

fn shadowing(inputs: &[PathBuf], user_dirs: &[PathBuf]) -> Shadow {
    use std::os::unix::fs::MetadataExt;
    let identity = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    let mut found = Shadow::None;
    for dir in user_dirs {
        // Only names the folder holds can start a shadowing path.
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let names: std::collections::HashSet<OsString> = entries.flatten().map(|e| e.file_name()).collect();
        if names.is_empty() {
            continue;
        }
        for input in inputs {
            // Suffixes through a `..` are no include's spelling: an include
            // path such as `/usr/lib/gcc/x/12/../../include/c++/12` ends
            // where the last `..` is followed by plain names only.
            let mut tail: Vec<&std::ffi::OsStr> = Vec::new();
            for c in input.components().rev() {
                match c {
                    std::path::Component::Normal(name) if tail.len() < MAX_SPELLING_PARTS => tail.push(name),
                    _ => break,
                }
            }
            tail.reverse();
            for start in 0..tail.len() {
                if !names.contains(tail[start]) {
                    continue;
                }
                let candidate = dir.join(tail[start..].iter().collect::<PathBuf>());
                let Some(there) = identity(&candidate) else { continue };
                if Some(there) == identity(input) {
                    found = Shadow::Provides;
                } else {
                    return Shadow::Hides;
                }
            }
        }
    }
    found
}

/// The most precompiled headers of leading includes kept; past it the
/// oldest half goes (a project's files share a few lists of includes).
const MAX_KEPT: usize = 128;

fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut kept: Vec<(std::time::SystemTime, String)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_prefix("prefix-")?.strip_suffix(".pch")?.to_string();
            Some((e.metadata().ok()?.modified().ok()?, stem))
        })
        .collect();
    if kept.len() < MAX_KEPT {
        return;
    }
    kept.sort();
    for (_, stem) in kept.iter().take(kept.len() / 2) {
        // A run that has chosen one of these and not opened it yet fails
        // to load it and compiles without (see the module documentation).
        for ext in ["pch", "deps", "h"] {
            let _ = std::fs::remove_file(dir.join(format!("prefix-{stem}.{ext}")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_the_leading_includes() {
        let source = "// A program.\n/* with a\n   comment */\n#include <call_kernel.h>\n\n#  include \"cuda.h\" // the runtime\n#include <stdio.h>\n#define N 2\n#include <assert.h>\n";
        assert_eq!(leading_includes(source), vec!["#include <call_kernel.h>", "#include \"cuda.h\"", "#include <stdio.h>"]);
        assert!(leading_includes("#define X 1\n#include <stdio.h>\n").is_empty());
        assert!(leading_includes("#include MACRO\n").is_empty());
        assert!(leading_includes("#include <stdio.h> /* x */\n").is_empty());
        assert_eq!(leading_includes("/* a */ /* b */\n#include <a.h>\nint x;\n#include <b.h>\n"), vec!["#include <a.h>"]);
        assert!(leading_includes("/* a */ int x;\n#include <a.h>\n").is_empty());
    }

    #[test]
    fn parses_depfiles_with_escaped_spaces() {
        let files = parse_depfile("x.pch: a.h /usr/include/b\\ c.h \\\n  /p/d.h\n");
        assert_eq!(files, vec![PathBuf::from("a.h"), PathBuf::from("/usr/include/b c.h"), PathBuf::from("/p/d.h")]);
        assert!(parse_depfile("garbage").is_empty());
    }

    #[test]
    fn a_user_folder_shadows_a_header_it_could_provide() {
        let base = std::env::temp_dir().join(format!("lockstep-prefix-test-{}", std::process::id()));
        let system = base.join("usr/lib/gcc/x/12/../../include/c++/12");
        std::fs::create_dir_all(base.join("usr/include/x86_64-linux-gnu/bits")).unwrap();
        std::fs::create_dir_all(base.join("usr/lib/gcc/x/12")).unwrap();
        std::fs::create_dir_all(base.join("usr/lib/gcc/include/c++/12")).unwrap();
        let types = base.join("usr/include/x86_64-linux-gnu/bits/types.h");
        std::fs::write(&types, "").unwrap();
        std::fs::write(system.join("cmath"), "").unwrap();
        let inputs = vec![types.clone(), system.join("cmath")];
        let user = base.join("user");
        std::fs::create_dir_all(user.join("bits")).unwrap();
        assert_eq!(shadowing(&inputs, &[user.clone()]), Shadow::None);
        std::fs::write(user.join("bits/types.h"), "").unwrap();
        assert_eq!(shadowing(&inputs, &[user.clone()]), Shadow::Hides);
        std::fs::remove_file(user.join("bits/types.h")).unwrap();
        std::fs::write(user.join("cmath"), "").unwrap();
        assert_eq!(shadowing(&inputs, &[user.clone()]), Shadow::Hides);
        std::fs::remove_file(user.join("cmath")).unwrap();
        // A folder above an input provides it under a path with the
        // input's folders in it; only short paths count as spellings.
        assert_eq!(shadowing(&inputs, &[base.join("usr/include/x86_64-linux-gnu")]), Shadow::Provides);
        assert_eq!(shadowing(&inputs, &[base.join("usr")]), Shadow::None);
        // Nothing before a `..` is a spelling.
        assert_eq!(shadowing(&inputs, &[base.join("usr/lib/gcc/include")]), Shadow::Provides);
        assert_eq!(shadowing(&inputs, &[base.join("usr/lib/gcc/x")]), Shadow::None);
        let _ = std::fs::remove_dir_all(&base);
    }
}
