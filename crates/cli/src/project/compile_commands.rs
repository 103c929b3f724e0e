//! `compile_commands.json` (the JSON compilation database CMake and Bear
//! write, which clang-tidy reads with `-p`): each kernel source's own
//! include folders and definitions, from its compiler command line.
//!
//! nvcc's command lines are read as well as clang's and gcc's: what
//! lockstep's front-end can use (`-I`, `-isystem`, `-D`, `-x cu`) is
//! translated, and everything else (`-gencode`, `-arch`, `-Xcompiler`,
//! `--expt-extended-lambda`, `-std`, `-O2`...) is ignored with a note,
//! never an error: those steer code generation, not what a kernel means.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::inputs::absolute;

/// One source's translated flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub file: PathBuf,
    /// `-IDIR`, `-DNAME=VALUE`, `--language=cuda` for lockstep's check.
    pub flags: Vec<String>,
    /// Options of the command line that lockstep ignored.
    pub ignored: Vec<String>,
}

/// Options whose value is the next argument and that lockstep ignores.
const SKIP_WITH_VALUE: &[&str] = &[
    "-Xcompiler", "-Xptxas", "-Xlinker", "-Xnvlink", "-Xfatbin", "-Xarchive", "-gencode", "-arch", "-code", "-ccbin",
    "--compiler-bindir", "--compiler-options", "--linker-options", "--ptxas-options", "-MF", "-MT", "-MQ", "-MJ",
    "--generate-code", "--gpu-architecture", "--gpu-code", "-maxrregcount", "--maxrregcount", "--options-file", "-optf",
    "-isysroot", "--sysroot", "-target", "--target", "-Xclang", "-Xarch_device", "-Xarch_host", "-t", "--threads",
    "--output-file", "-odir", "--output-directory", "-rdc", "--relocatable-device-code", "-std", "--std",
    "--default-stream", "-default-stream", "-Wno-deprecated-gpu-targets", "-ftz", "-prec-div", "-prec-sqrt", "-fmad",
    "--machine", "-m",
];

/// Splits a shell command line as the compilation database's `command`
/// field holds it (quotes and backslash escapes, as POSIX sh).
pub fn split_command(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => match chars.next() {
                Some(n @ ('"' | '\\' | '$' | '`')) => word.push(n),
                Some(n) => {
                    word.push('\\');
                    word.push(n);
                }
                None => word.push('\\'),
            },
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Translates one command line (its words, compiler first) run in
/// `directory`.
pub fn translate(words: &[String], directory: &Path) -> (Vec<String>, Vec<String>) {
    let mut flags = Vec::new();
    let mut ignored = Vec::new();
    let dir = |d: &str| {
        let p = Path::new(d);
        let full = if p.is_absolute() { p.to_path_buf() } else { directory.join(p) };
        absolute(&full).display().to_string()
    };
    let mut iter = words.iter().skip(1).peekable();
    while let Some(word) = iter.next() {
        let w = word.as_str();
        // `-I DIR`, `-IDIR`, `-isystem DIR`, `--include-path=DIR`...
        let include = ["-isystem", "-iquote", "-idirafter", "--include-path", "--system-include", "-I"]
            .iter()
            .find_map(|p| w.strip_prefix(p).map(|rest| rest.strip_prefix('=').unwrap_or(rest)));
        if let Some(rest) = include {
            let value = if rest.is_empty() { iter.next().cloned() } else { Some(rest.to_string()) };
            if let Some(v) = value {
                flags.push(format!("-I{}", dir(&v)));
            }
            continue;
        }
        if let Some(rest) = w.strip_prefix("--define-macro").or_else(|| w.strip_prefix("-D")) {
            let rest = rest.strip_prefix('=').unwrap_or(rest);
            let value = if rest.is_empty() { iter.next().cloned() } else { Some(rest.to_string()) };
            if let Some(v) = value {
                flags.push(format!("-D{v}"));
            }
            continue;
        }
        if w == "-x" || w == "--x" {
            match iter.next().map(String::as_str) {
                Some("cu" | "cuda") => flags.push("--language=cuda".into()),
                Some("cl") => flags.push("--language=opencl".into()),
                Some(other) => ignored.push(format!("-x {other}")),
                None => {}
            }
            continue;
        }
        if ["-include", "--pre-include", "-U", "--undefine-macro", "-imacros"].contains(&w) {
            let value = iter.next().cloned().unwrap_or_default();
            ignored.push(format!("{w} {value}"));
            continue;
        }
        if w == "-o" {
            // The object file: nothing to say about it.
            iter.next();
            continue;
        }
        if SKIP_WITH_VALUE.contains(&w) {
            let value = iter.next().cloned().unwrap_or_default();
            ignored.push(format!("{w} {value}"));
            continue;
        }
        if w.starts_with('-') {
            // `-c`, `-O2`, `-g`, `-std=c++17`, `--expt-extended-lambda`,
            // `-gencode=arch=...`: code generation, not meaning.
            if !matches!(w, "-c" | "-g" | "-G" | "-lineinfo") && !w.starts_with("-O") && !w.starts_with("-W") && !w.starts_with("-f") {
                ignored.push(w.to_string());
            }
            continue;
        }
        // A positional word: the source itself (or an object file).
    }
    (flags, ignored)
}

/// Reads the compilation database at `path`: the entries of CUDA and
/// OpenCL sources (other languages' entries are skipped), in its order,
/// one per file (the first entry of a file wins, as clang-tidy takes it).
pub fn load(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not a compilation database: {e}", path.display()))?;
    let entries = value.as_array().ok_or_else(|| format!("{}: a compilation database is a JSON array", path.display()))?;
    let base = absolute(path.parent().unwrap_or(Path::new(".")));
    let mut out: Vec<Entry> = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        let field = |k: &str| e.get(k).and_then(Value::as_str);
        let (Some(directory), Some(file)) = (field("directory"), field("file")) else {
            return Err(format!("{}: entry {i} lacks `directory` or `file`", path.display()));
        };
        let directory = if Path::new(directory).is_absolute() { PathBuf::from(directory) } else { base.join(directory) };
        let file = absolute(&if Path::new(file).is_absolute() { PathBuf::from(file) } else { directory.join(file) });
        let words: Vec<String> = match (e.get("arguments").and_then(Value::as_array), field("command")) {
            (Some(args), _) => args.iter().filter_map(|a| a.as_str().map(str::to_string)).collect(),
            (None, Some(command)) => split_command(command),
            (None, None) => return Err(format!("{}: entry {i} has neither `arguments` nor `command`", path.display())),
        };
        let (flags, ignored) = translate(&words, &directory);
        let language_given = flags.iter().any(|f| f.starts_with("--language="));
        if !(super::inputs::is_kernel_source(&file) || language_given) || !seen.insert(file.clone()) {
            continue;
        }
        out.push(Entry { file, flags, ignored });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split_command(s)
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(words(r#"nvcc -DNAME="a b" -I'x y' a\ b.cu"#), vec!["nvcc", "-DNAME=a b", "-Ix y", "a b.cu"]);
    }

    #[test]
    fn translates_nvcc_command_lines() {
        let cmd = "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DUSE_FAST=1 -I/p/include -isystem /p/ext \
                   -O3 -std=c++17 --expt-extended-lambda -gencode arch=compute_80,code=sm_80 -Xcompiler -fPIC -x cu -rdc=true \
                   -c /p/src/a.cu -o CMakeFiles/a.o";
        let (flags, ignored) = translate(&words(cmd), Path::new("/p/build"));
        assert_eq!(flags, vec!["-DUSE_FAST=1", "-I/p/include", "-I/p/ext", "--language=cuda"]);
        for flag in ["--expt-extended-lambda", "-gencode arch=compute_80,code=sm_80", "-Xcompiler -fPIC", "-rdc=true", "-std=c++17"] {
            assert!(ignored.iter().any(|i| i == flag), "{flag} not in {ignored:?}");
        }
        let (flags, _) = translate(&words("clang++ -Iinc -D X -c ../a.cu"), Path::new("/p/build"));
        assert_eq!(flags, vec!["-I/p/build/inc", "-DX"]);
    }
}
