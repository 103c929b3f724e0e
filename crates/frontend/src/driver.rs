//! Runs clang-19 on a kernel file and returns LLVM bitcode.
//!
//! The prelude headers are embedded in the binary and written once to a
//! per-version cache directory, so the installed tool needs nothing beside
//! it. Clang's diagnostics are parsed into `Diagnostic`s so that a syntax
//! error in the user's kernel is reported with its location, like a compiler.

use std::path::{Path, PathBuf};
use std::process::Command;

use lockstep_diag::{Diagnostic, Severity, Span};
use lockstep_kir::Language;

use crate::toolkit::{find_toolkit, Toolkit};

include!(concat!(env!("OUT_DIR"), "/prelude_files.rs"));

/// How to compile one file.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// `-I` directories, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions, as given (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// The language; `None` picks it from the file extension.
    pub language: Option<Language>,
    /// The clang executable; `None` looks for `clang-19`.
    pub clang: Option<PathBuf>,
    /// Which side of a CUDA program to compile: the kernels (device, the
    /// default) or the host program that launches them.
    pub side: Side,
    /// The user's `--cuda-path`: the CUDA toolkit whose headers to use.
    pub cuda_path: Option<PathBuf>,
    /// Which headers a CUDA file is compiled against.
    pub cuda_headers: CudaHeaders,
}

/// Which headers a CUDA compilation uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CudaHeaders {
    /// The prelude when it compiles the file; otherwise the CUDA toolkit's
    /// headers (see `toolkit`), which real code needs for what the prelude
    /// does not declare (bf16, CUB, cooperative groups' algorithms...).
    #[default]
    Auto,
    /// Only lockstep's prelude (`-nocudainc`).
    Prelude,
    /// Only the CUDA toolkit's headers, with lockstep's annotation language.
    Toolkit,
}

/// The headers a successful compilation used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeadersUsed {
    Prelude,
    Toolkit(Toolkit),
}

/// The side of a CUDA compilation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// Kernels and device functions (`--cuda-device-only`).
    #[default]
    Device,
    /// Host code (`--cuda-host-only`): `main`, the CUDA runtime API calls
    /// and the launch stubs. Only meaningful for CUDA.
    Host,
}

/// The result of a successful compilation.
pub struct Compiled {
    pub language: Language,
    pub bitcode: Vec<u8>,
    /// Clang's warnings, passed through.
    pub warnings: Vec<Diagnostic>,
    /// The headers the file was compiled against (always the prelude for
    /// OpenCL).
    pub headers: HeadersUsed,
    /// The GPU architecture a CUDA file's device code was compiled for
    /// (`DEFAULT_GPU_ARCH` or `NEWER_GPU_ARCH`; meaningless for OpenCL).
    pub gpu_arch: &'static str,
}

/// Why compilation failed.
#[derive(Debug)]
pub enum CompileError {
    /// The input is invalid: clang's errors, or a file we cannot read.
    Rejected(Vec<Diagnostic>),
    /// The tool itself is broken (no clang, cannot write the cache).
    Environment(String),
    /// Valid CUDA that clang cannot compile (see `clang_limitation`).
    Unsupported(crate::lower::Unsupported),
}

/// The language of a file from its extension.
pub fn language_of(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "cu" | "cuh" => Some(Language::Cuda),
        "cl" => Some(Language::OpenCl),
        _ => None,
    }
}

/// Finds clang-19: `$LOCKSTEP_CLANG`, then `clang-19` on the path, then
/// Debian's LLVM directory.
pub fn find_clang() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LOCKSTEP_CLANG") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join("clang-19");
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    let debian = PathBuf::from("/usr/lib/llvm-19/bin/clang");
    debian.is_file().then_some(debian)
}

/// Writes the prelude to a cache directory keyed by its contents and returns
/// the directory. Writing goes through a temporary directory and a rename, so
/// concurrent runs never see a half-written prelude.
pub fn prelude_dir() -> Result<PathBuf, String> {
    let mut hash: u64 = 0xcbf29ce484222325;
    for (name, text) in PRELUDE_FILES {
        for b in name.bytes().chain(text.bytes()) {
            hash = (hash ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    let base = crate::toolkit::cache_dir();
    let dir = base.join(format!("prelude-{hash:016x}"));
    // A cached prelude is used only while every file still holds what this
    // binary embeds: a file changed or truncated by hand (or by a full disk)
    // would otherwise make every later run blame the user's kernel.
    if dir.join(".complete").is_file() {
        let intact = PRELUDE_FILES.iter().all(|(name, text)| std::fs::read(dir.join(name)).is_ok_and(|b| b == text.as_bytes()));
        if intact {
            return Ok(dir);
        }
        let _ = std::fs::remove_file(dir.join(".complete"));
        let stale = base.join(format!(".prelude-{hash:016x}-stale-{}", std::process::id()));
        if std::fs::rename(&dir, &stale).is_ok() {
            let _ = std::fs::remove_dir_all(&stale);
        }
    }
    // Unique per process and per call: a program's two compilations may
    // write the prelude at the same time from two threads.
    static WRITERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let writer = WRITERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = base.join(format!(".prelude-{hash:016x}-{}-{writer}", std::process::id()));
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        for (name, text) in PRELUDE_FILES {
            let path = tmp.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, text)?;
        }
        std::fs::write(tmp.join(".complete"), b"")?;
        Ok(())
    };
    write().map_err(|e| format!("cannot write the prelude to {}: {e}", tmp.display()))?;
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another process or thread won the race; its copy is identical.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if dir.join(".complete").is_file() {
        Ok(dir)
    } else {
        Err(format!("cannot create the prelude directory {}", dir.display()))
    }
}

/// The clang arguments for a language (without the force-included header
/// and the output kind), fixed by DESIGN.md: `-O0` without
/// `optnone`, so that our own mem2reg/sroa give SSA with the source's loop
/// shape (`-O1` rotates loops and may delete racy accesses).
fn language_args(language: Language, side: Side, toolkit: Option<&Toolkit>, gpu_arch: &str) -> Vec<String> {
    let common = ["-g", "-gcolumn-info", "-O0", "-Xclang", "-disable-O0-optnone", "-fno-builtin", "-fno-discard-value-names", "-fno-color-diagnostics", "-fno-caret-diagnostics", "-ferror-limit=20"];
    let side_flag = if side == Side::Host { "--cuda-host-only" } else { "--cuda-device-only" };
    let mut args: Vec<String> = match (language, toolkit) {
        (Language::Cuda, None) => {
            let mut args: Vec<String> = ["-x", "cuda", side_flag, "-nocudainc", "-nocudalib"].map(String::from).to_vec();
            args.push(format!("--cuda-gpu-arch={gpu_arch}"));
            args
        }
        (Language::Cuda, Some(toolkit)) => {
            // The device side targets the toolkit's own version, so that
            // clang uses the launch API CUB's launcher was written for. The
            // host side keeps the CUDA 9.0 launch sequence
            // (`cudaConfigureCall`, `cudaSetupArgument`, `cudaLaunch`), which
            // is what the host lowering turns into launches; the prelude's
            // `lockstep_toolkit.h` declares those three functions.
            let sdk = if side == Side::Host { "9.0".to_string() } else { toolkit.version.clone() };
            // Clang's own always-inliner would inline the headers'
            // `__forceinline__` functions before lockstep sees them; lockstep
            // runs the same pass itself (`PASSES`), after redirecting the
            // calls it models (`host_models::redirect_grid_sync`).
            let no_llvm_passes: &[&str] = if side == Side::Device { &["-Xclang", "-disable-llvm-passes"] } else { &[] };
            let mut args: Vec<String> = vec![
                "-x".into(),
                "cuda".into(),
                side_flag.into(),
                format!("--cuda-path={}", toolkit.root.display()),
                "-nocudalib".into(),
                format!("--cuda-gpu-arch={gpu_arch}"),
                "-Xclang".into(),
                format!("-target-sdk-version={sdk}"),
                "-Wno-unknown-cuda-version".into(),
            ];
            args.extend(no_llvm_passes.iter().map(|s| s.to_string()));
            args
        }
        (Language::OpenCl, _) => ["-x", "cl", "-cl-std=CL1.2", "--target=spir64", "-Xclang", "-finclude-default-header"]
            .map(String::from)
            .to_vec(),
    };
    args.extend(common.map(String::from));
    args
}

/// The GPU architecture device code is compiled for: sm_70 (Volta), whose
/// semantics every engine models (independent thread scheduling, warp
/// operations with masks) and whose headers take the plain paths (no
/// `cp.async`, no `redux.sync` in cooperative groups' algorithms).
pub const DEFAULT_GPU_ARCH: &str = "sm_70";

/// The architecture a CUDA file is compiled for, against a toolkit, when it
/// does not compile for `DEFAULT_GPU_ARCH`: the toolkit's headers declare
/// some features only for newer GPUs (the int8 and bf16 tensor-core
/// fragments of `mma.h` need sm_72 and sm_80), and code written for today's
/// GPUs uses them. What the headers then do with inline PTX that sm_70 did
/// not use is unsupported, with its location, like any other unknown
/// template (`ptx.rs`).
pub const NEWER_GPU_ARCH: &str = "sm_80";

/// The prelude header force-included before the file: the CUDA or OpenCL
/// surface language, or, against a toolkit, only what no toolkit has.
fn forced_header(language: Language, toolkit: Option<&Toolkit>) -> &'static str {
    match (language, toolkit) {
        (Language::Cuda, None) => "lockstep_cuda.h",
        (Language::Cuda, Some(_)) => "lockstep_toolkit.h",
        (Language::OpenCl, _) => "lockstep_opencl.h",
    }
}

/// How long clang may take on one file before lockstep gives up on it. Real
/// headers with CUB take clang a few seconds; a clang that runs for minutes
/// is stuck, and a verifier that waits forever on it is worse than useless.
pub const CLANG_DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

/// Compiles `file` to bitcode.
///
/// A CUDA file is compiled against the prelude first (see `CudaHeaders`):
/// when clang rejects it and a CUDA toolkit is found, it is compiled again
/// against the toolkit's headers, and the toolkit's verdict on the file is
/// the one reported (its errors are what nvcc would say).
pub fn compile(file: &Path, options: &CompileOptions) -> Result<Compiled, CompileError> {
    match compile_against_headers(file, options) {
        Err(CompileError::Rejected(errors)) => match clang_limitation(&errors) {
            Some(unsupported) => Err(CompileError::Unsupported(unsupported)),
            None => Err(CompileError::Rejected(errors)),
        },
        other => other,
    }
}

/// Whether the line of clang's error `e` declares a variable with a CUDA
/// memory-space qualifier followed by `alignas`: the qualifiers are GNU
/// attributes, after which C++ allows no `alignas`, and clang says so where
/// nvcc accepts the declaration.
fn memory_space_before_alignas(e: &Diagnostic) -> bool {
    let Some(span) = &e.span else { return false };
    let Ok(text) = std::fs::read_to_string(&span.file) else { return false };
    let Some(line) = text.lines().nth(span.line.saturating_sub(1) as usize) else { return false };
    ["__shared__", "__device__", "__constant__", "__managed__"]
        .iter()
        .filter_map(|q| line.find(q))
        .any(|at| line[at..].contains("alignas"))
}

/// The text of the source line clang's error `e` points at.
fn error_line(e: &Diagnostic) -> Option<String> {
    let span = e.span.as_ref()?;
    let text = std::fs::read_to_string(&span.file).ok()?;
    text.lines().nth(span.line.checked_sub(1)? as usize).map(str::to_string)
}

/// Whether clang's "expected ')'" error `e` is in an `asm` statement whose
/// operands are not separated by commas (`:: "r"(v) "l"(p)`): nvcc's front
/// end accepts the missing comma (CUDA's own samples have it), GCC and clang
/// do not.
fn asm_operands_without_comma(e: &Diagnostic) -> bool {
    if e.message != "expected ')'" {
        return false;
    }
    let Some(line) = error_line(e) else { return false };
    let Some(at) = line.find("asm") else { return false };
    // An operand ends with `(expression)`; the next begins with its
    // constraint string, with no comma between.
    let operands = &line[at..];
    operands.match_indices(')').any(|(i, _)| operands[i + 1..].trim_start().starts_with('"'))
}

/// Clang's errors on valid CUDA that nvcc compiles and clang 19 cannot: a
/// kernel launched from device code (dynamic parallelism, which clang does
/// not implement), a `__shared__` variable of a class with a constructor
/// (nvcc accepts it with a warning that CUDA's own samples silence; the
/// toolkit's `cuda::barrier` has its own model, see `toolkit_models`),
/// `alignas` after a memory-space qualifier, an initialised variable-length
/// array (GNU C++, which nvcc's host compiler accepts: `T a[n] = {0}`),
/// `asm` operands without the commas between them, and a PTX register
/// written with one `%` in an `asm` with operands. When every error is one
/// of these, the file is not at fault: it is unsupported, not rejected.
fn clang_limitation(errors: &[Diagnostic]) -> Option<crate::lower::Unsupported> {
    let limitations: Vec<crate::lower::Unsupported> = errors.iter().filter_map(|e| {
        let what = if (e.message.starts_with("reference to __global__ function") || e.message.contains("'__cudaPushCallConfiguration'"))
            && e.message.contains("in __global__ function")
        {
            "a kernel launched from device code (CUDA dynamic parallelism), which clang cannot compile"
        } else if e.message.starts_with("initialization is not supported for __shared__ variables") {
            "a `__shared__` variable with a constructor (as `cuda::barrier`), which nvcc accepts and clang cannot compile"
        } else if e.message.starts_with("an attribute list cannot appear here") && memory_space_before_alignas(e) {
            "`alignas` after a memory-space qualifier (`__shared__ alignas(16) float a[...]`), which nvcc accepts and clang cannot compile"
        } else if e.message == "variable-sized object may not be initialized" {
            "an initialised variable-length array (`T a[n] = {0}`, a GNU C++ extension), which nvcc's host compiler accepts and clang cannot compile"
        } else if e.message == "invalid % escape in inline assembly string" {
            "a PTX register written `%name` in an `asm` statement with operands (`%globaltimer`), which nvcc accepts and clang wants written `%%name`"
        } else if asm_operands_without_comma(e) {
            "`asm` operands without a comma between them (`: \"r\"(v) \"l\"(p)`), which nvcc accepts and clang cannot compile"
        } else {
            return None;
        };
        let loc = e.span.as_ref().map(|s| (s.file.clone(), s.line, s.column));
        Some(crate::lower::Unsupported { what: what.into(), loc })
    }).collect();
    // Clang follows a device-side launch it refused with "no matching
    // function for call to 'kernel'" at the launch: that error is part of
    // the same limitation.
    let follow_on = |e: &Diagnostic| {
        e.message.starts_with("no matching function for call to")
            && e.span.as_ref().is_some_and(|at| {
                limitations.iter().any(|u| u.loc.as_ref().is_some_and(|(file, line, _)| *file == at.file && line.abs_diff(at.line) <= 1))
            })
    };
    if limitations.is_empty() || limitations.len() + errors.iter().filter(|e| follow_on(e)).count() < errors.len() {
        return None;
    }
    limitations.into_iter().next()
}

fn compile_against_headers(file: &Path, options: &CompileOptions) -> Result<Compiled, CompileError> {
    let language = match options.language.or_else(|| language_of(file)) {
        Some(l) => l,
        None => {
            return Err(CompileError::Rejected(vec![Diagnostic::error(
                "cannot tell the language from the file extension (expected .cu or .cl); use -x cuda or -x opencl",
                Some(Span { file: file.display().to_string(), line: 0, column: 0 }),
            )]))
        }
    };
    check_readable_source(file)?;
    let clang = match options.clang.clone().or_else(find_clang) {
        Some(c) => c,
        None => return Err(CompileError::Environment("clang-19 not found; install it (see README.md) or set LOCKSTEP_CLANG".into())),
    };
    let prelude = prelude_dir().map_err(CompileError::Environment)?;
    if language == Language::OpenCl {
        return compile_with(file, options, language, &clang, &prelude, None, DEFAULT_GPU_ARCH);
    }
    let with_toolkit = |t: &Toolkit| compile_with_toolkit(file, options, &clang, &prelude, t);
    let toolkit = || -> Result<Toolkit, CompileError> {
        match find_toolkit(options.cuda_path.as_deref()) {
            Ok(Some(t)) => Ok(t),
            Ok(None) => Err(CompileError::Environment(format!(
                "no CUDA toolkit found: pass --cuda-path=DIR, set CUDA_PATH, or run scripts/install-cuda-headers.sh (lockstep's default toolkit, in {})",
                crate::toolkit::default_toolkit_dir().display()
            ))),
            Err(message) => Err(CompileError::Environment(message)),
        }
    };
    match options.cuda_headers {
        CudaHeaders::Prelude => compile_with(file, options, language, &clang, &prelude, None, DEFAULT_GPU_ARCH),
        CudaHeaders::Toolkit => with_toolkit(&toolkit()?),
        CudaHeaders::Auto => {
            // An explicit --cuda-path that holds no toolkit is the user's
            // mistake, reported before any compilation.
            if options.cuda_path.is_some() {
                toolkit()?;
            }
            match compile_with(file, options, language, &clang, &prelude, None, DEFAULT_GPU_ARCH) {
                Err(CompileError::Rejected(prelude_errors)) => match toolkit() {
                    Ok(t) => with_toolkit(&t),
                    // Without a toolkit the prelude's errors are all there
                    // is; say where a toolkit would come from.
                    Err(CompileError::Environment(why)) => {
                        let mut errors = prelude_errors;
                        errors.push(Diagnostic::note(why));
                        Err(CompileError::Rejected(errors))
                    }
                    Err(other) => Err(other),
                },
                other => other,
            }
        }
    }
}

/// Compiles a CUDA file against `toolkit`'s headers for `DEFAULT_GPU_ARCH`,
/// and, when clang rejects it for that architecture, for `NEWER_GPU_ARCH`:
/// a file that compiles only there uses what its headers declare for newer
/// GPUs (int8 tensor-core fragments, say). When both fail, the errors are
/// the default architecture's, so that a file with a real mistake reads as
/// before. Only an error that another architecture can make go away
/// (`may_depend_on_arch`) asks for the second compilation: a file rejected
/// for a redefinition, a syntax error or a missing header is rejected for
/// every architecture, and compiling it again would only double the time
/// it takes to say so.
fn compile_with_toolkit(file: &Path, options: &CompileOptions, clang: &Path, prelude: &Path, toolkit: &Toolkit) -> Result<Compiled, CompileError> {
    match compile_with(file, options, Language::Cuda, clang, prelude, Some(toolkit), DEFAULT_GPU_ARCH) {
        Err(CompileError::Rejected(errors)) if errors.iter().any(may_depend_on_arch) => {
            match compile_with(file, options, Language::Cuda, clang, prelude, Some(toolkit), NEWER_GPU_ARCH) {
                Ok(compiled) => Ok(compiled),
                Err(_) => Err(CompileError::Rejected(errors)),
            }
        }
        other => other,
    }
}

/// One clang run on `file`: against the prelude (`toolkit` is `None`) or
/// against a CUDA toolkit's headers, with the prelude's folder searched only
/// after the toolkit's and the user's (for the annotation language, ESBMC-GPU's
/// `call_kernel.h` and the legacy SDK's `cutil.h`, which no toolkit has).
fn compile_with(
    file: &Path,
    options: &CompileOptions,
    language: Language,
    clang: &Path,
    prelude: &Path,
    toolkit: Option<&Toolkit>,
    gpu_arch: &'static str,
) -> Result<Compiled, CompileError> {
    // One scratch file per compilation (process id and a counter), so that
    // concurrent compilations, in threads or processes, never share one.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let scratch_dir = std::env::temp_dir();
    let out = ScratchFile(scratch_dir.join(format!("lockstep-{}-{n}.bc", std::process::id())));
    // A temporary folder that cannot take the scratch file is the
    // environment's fault, not the kernel's: clang would report it as an
    // error of the compilation, and the file would be called rejected.
    if let Err(e) = std::fs::File::create(&out.0) {
        return Err(CompileError::Environment(format!(
            "cannot create a scratch file in the temporary folder `{}` ({e}); set TMPDIR to a writable folder",
            scratch_dir.display()
        )));
    }

    // The user's include directories come before lockstep's own headers, so
    // that a header the user passes (a project's own `helper_cuda.h`, say)
    // is never shadowed by the prelude's header of the same name.
    let mut search: Vec<std::ffi::OsString> = Vec::new();
    if let Some(parent) = file.parent() {
        if !parent.as_os_str().is_empty() {
            search.extend(["-I".into(), parent.as_os_str().to_owned()]);
        }
    }
    for dir in &options.include_dirs {
        search.extend(["-I".into(), dir.as_os_str().to_owned()]);
    }
    // Against a toolkit, lockstep's models of a few toolkit headers (the
    // block-scope `cuda::barrier`, whose toolkit class clang cannot place in
    // `__shared__` memory) come after the user's folders and before the
    // toolkit's own; each model falls back to the toolkit's header for a
    // library version it was not written for.
    if toolkit.is_some() {
        search.extend(["-isystem".into(), prelude.join("toolkit_models").into_os_string()]);
    }
    search.extend([if toolkit.is_some() { "-idirafter" } else { "-I" }.into(), prelude.as_os_str().to_owned()]);
    for def in &options.defines {
        search.push(format!("-D{def}").into());
    }
    let args = language_args(language, options.side, toolkit, gpu_arch);
    // Against a toolkit, its headers come precompiled (see `pch`).
    let pch = toolkit.and_then(|t| crate::pch::precompiled_header(clang, t, options.side, prelude, &args, &search));
    let run = |include: &str, header: &std::ffi::OsStr| {
        let mut cmd = Command::new(clang);
        cmd.args(&args).arg(include).arg(header).args(["-emit-llvm", "-c"]).args(&search).arg(file).arg("-o").arg(&out.0);
        run_with_deadline(&mut cmd, CLANG_DEADLINE).map_err(|e| CompileError::Environment(format!("cannot run {}: {e}", clang.display())))
    };
    let mut output = None;
    if let Some(pch) = &pch {
        match run("-include-pch", pch.as_os_str())? {
            Some(o) if !o.status.success() && crate::pch::refused(&String::from_utf8_lossy(&o.stderr)) => {
                let _ = std::fs::remove_file(pch);
            }
            other => output = Some(other),
        }
    }
    // Against the prelude, a file's leading includes come precompiled when
    // they can be shared (see `prefix_pch`). Any failure then compiles the
    // file again without them, so that what clang reports is always what
    // the plain compilation says.
    if toolkit.is_none() && language == Language::Cuda {
        if let Some(pch) = prefix_header(file, options, clang, prelude, &args, &search) {
            match run("-include-pch", pch.as_os_str())? {
                Some(o) if o.status.success() => output = Some(Some(o)),
                Some(o) => {
                    if crate::pch::refused(&String::from_utf8_lossy(&o.stderr)) {
                        let _ = std::fs::remove_file(&pch);
                    }
                }
                None => output = Some(None),
            }
        }
    }
    let output = match output {
        Some(o) => o,
        None => run("-include", std::ffi::OsStr::new(forced_header(language, toolkit)))?,
    };
    let Some(output) = output else {
        return Err(CompileError::Environment(format!(
            "clang did not finish compiling {} within {} s (it was stopped)",
            file.display(),
            CLANG_DEADLINE.as_secs()
        )));
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let diags = parse_clang_diagnostics(&stderr);
    if !output.status.success() {
        let mut errors: Vec<Diagnostic> = diags.into_iter().filter(|d| d.severity == Severity::Error).collect();
        if errors.is_empty() {
            // Clang failed without saying why: a crash or a broken
            // installation, not a fault in the user's file.
            let status = output.status;
            return Err(CompileError::Environment(format!(
                "clang failed on {} without an error message ({status}){}",
                file.display(),
                if stderr.trim().is_empty() { String::new() } else { format!(": {}", stderr.trim()) }
            )));
        }
        if let Some(toolkit) = toolkit {
            add_missing_library_notes(&mut errors, toolkit);
        }
        return Err(CompileError::Rejected(errors));
    }
    let bitcode = std::fs::read(&out.0).map_err(|e| CompileError::Environment(format!("cannot read clang's output: {e}")))?;
    let headers = match toolkit {
        Some(t) => HeadersUsed::Toolkit(t.clone()),
        None => HeadersUsed::Prelude,
    };
    Ok(Compiled { language, bitcode, warnings: diags.into_iter().filter(|d| d.severity != Severity::Error).collect(), headers, gpu_arch })
}

/// The precompiled header of `file`'s leading includes for this
/// compilation against the prelude, when there is one it may share.
fn prefix_header(
    file: &Path,
    options: &CompileOptions,
    clang: &Path,
    prelude: &Path,
    args: &[String],
    search: &[std::ffi::OsString],
) -> Option<PathBuf> {
    let source = std::fs::read_to_string(file).ok()?;
    let includes = crate::prefix_pch::leading_includes(&source);
    if includes.is_empty() {
        return None;
    }
    // The folders a quoted include or `-include` looks in before the
    // prelude: the file's own (the working folder when it has none), the
    // user's `-I` folders, and the working folder.
    let cwd = std::env::current_dir().ok()?;
    let mut user_dirs = vec![match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => cwd.clone(),
    }];
    user_dirs.extend(options.include_dirs.iter().cloned());
    user_dirs.push(cwd);
    crate::prefix_pch::precompiled_prefix(&crate::prefix_pch::PrefixRequest {
        clang,
        side: options.side,
        prelude,
        language_args: args,
        search_args: search,
        forced: forced_header(Language::Cuda, None),
        includes: &includes,
        user_dirs: &user_dirs,
    })
}

/// A temporary file removed when it goes out of scope, on every path.
struct ScratchFile(PathBuf);

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `cmd` in a process group of its own, collecting its output, and
/// kills the whole group when it runs past `deadline` (`Ok(None)`). clang's
/// driver starts `clang -cc1` as a child: killing only the driver would leave
/// the compiler running.
pub fn run_with_deadline(cmd: &mut Command, deadline: std::time::Duration) -> std::io::Result<Option<std::process::Output>> {
    use std::io::Read;
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    cmd.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    // Spawning and registering happen under the lock that
    // `kill_running_compilers` takes, so a compiler is either started
    // before a stop (and killed by it) or not started at all: a process
    // that exits while another thread spawns cannot leave the new child
    // behind.
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if STOPPING.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(std::io::Error::other("the run is stopping"));
    }
    let mut child = cmd.spawn()?;
    running.push(child.id());
    drop(running);
    // Drain both pipes on threads, so that a chatty clang never blocks on a
    // full pipe while we wait for it.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    });
    // A thread waits for the child and says when it has exited, so that a
    // finished clang is noticed at once (no polling interval added to every
    // compilation); at the deadline the group is killed by its id.
    let pid = child.id();
    let (done, exited) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|&p| p != pid);
        }
        let _ = done.send(());
        status
    });
    let status = match exited.recv_timeout(deadline) {
        Ok(()) => Some(waiter.join().map_err(|_| std::io::Error::other("the wait for clang failed"))??),
        Err(_) => {
            kill_group(pid);
            let _ = waiter.join();
            None
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    Ok(status.map(|status| std::process::Output { status, stdout, stderr }))
}

/// The process groups of the compilers this program has running (see
/// `kill_running_compilers`).
static RUNNING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Set once the run is being stopped: compilers started from then on are
/// killed at once.
static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Kills every compiler this program has running, with its children, and
/// every compiler started later, and removes this process's scratch files
/// (clang's output and the temporary files a killed clang leaves). For a
/// process about to exit (the CLI's `--timeout`): a compiler runs in a
/// process group of its own, so nothing else would stop it, and an exiting
/// process runs no destructors.
pub fn kill_running_compilers() {
    let pids = {
        let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        STOPPING.store(true, std::sync::atomic::Ordering::SeqCst);
        running.clone()
    };
    for &pid in &pids {
        kill_group(pid);
    }
    let prefix = format!("lockstep-{}-", std::process::id());
    let remove_scratch_files = || {
        if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
            for entry in entries.flatten() {
                if entry.file_name().to_str().is_some_and(|n| n.starts_with(&prefix)) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    };
    remove_scratch_files();
    if !pids.is_empty() {
        // A killed compiler may still be running for an instant on another
        // core, and create its temporary file after the first sweep.
        std::thread::sleep(std::time::Duration::from_millis(50));
        remove_scratch_files();
    }
}

/// Kills the process group that `pid` leads (see `run_with_deadline`), and
/// `pid` itself.
fn kill_group(pid: u32) {
    #[cfg(unix)]
    {
        extern "C" {
            fn kill(pid: i32, sig: i32) -> i32;
        }
        if let Ok(pid) = i32::try_from(pid) {
            // SAFETY: kill(2) has no memory effects; a negative pid signals
            // the group, whose leader is a child not yet reaped (the waiting
            // thread reaps it only after it dies).
            unsafe {
                kill(-pid, 9);
                kill(pid, 9);
            }
        }
    }
}

/// Whether clang's diagnostic `e` is an error that compiling for another
/// GPU architecture may not give. The toolkit's headers declare some types,
/// specialisations and functions only for newer GPUs (`#if __CUDA_ARCH__ >=
/// 800`), and code tests `__CUDA_ARCH__` with `#error` or `static_assert`:
/// what such a file gets for an older architecture is a name or a template
/// that is not there, a call that matches nothing, a failed assertion or an
/// `#error`, or a message that names the architecture itself. Any other
/// error (a redefinition, a syntax error, a type mismatch, a kernel that
/// returns a value) is the same for every architecture, and so is a
/// missing header or a runtime API name the toolkit lacks.
fn may_depend_on_arch(e: &Diagnostic) -> bool {
    if e.severity != Severity::Error || e.message.ends_with("' file not found") || named_cuda_api(&e.message).is_some() {
        return false;
    }
    const LOOKUP_FAILURES: [&str; 12] = [
        "implicit instantiation of undefined template",
        "incomplete type",
        "use of undeclared identifier",
        "no matching function for call to",
        "no matching member function for call to",
        "no member named",
        "unknown type name",
        "no template named",
        "no type named",
        "static assertion failed",
        "static_assert failed",
        "is not a template",
    ];
    const NAMES_THE_ARCH: [&str; 4] = ["sm_", "__CUDA_ARCH__", "target feature", "compute capability"];
    LOOKUP_FAILURES.iter().any(|p| e.message.contains(p))
        || NAMES_THE_ARCH.iter().any(|p| e.message.contains(p))
        || is_error_directive(e)
}

/// Whether `e` was raised by an `#error` directive (clang's message is then
/// the directive's own text, so only the line it points at tells).
fn is_error_directive(e: &Diagnostic) -> bool {
    error_line(e).is_some_and(|line| line.trim_start().strip_prefix('#').is_some_and(|rest| rest.trim_start().starts_with("error")))
}

/// The runtime or driver API name (`cudaGraphAddNode`, `CUctxCreateParams`)
/// that clang's error `message` says is undeclared or declared otherwise.
fn named_cuda_api(message: &str) -> Option<&str> {
    // Clang names the identifier between quotes in these errors.
    ["unknown type name '", "use of undeclared identifier '", "no matching function for call to '", "no type named '", "no member named '"]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|rest| rest.split('\'').next())
        .filter(|n| crate::toolkit::is_cuda_api_name(n))
}

/// After clang's "'X' file not found" for a header of an NVIDIA library that
/// the toolkit in use lacks, or of a library no toolkit has, says what
/// provides it; after errors about a runtime or driver API name that the
/// toolkit's headers lack or declare otherwise, says that the code may be
/// written for a newer toolkit than `toolkit`.
fn add_missing_library_notes(errors: &mut Vec<Diagnostic>, toolkit: &Toolkit) {
    let mut notes = Vec::new();
    let mut newer_api: Vec<&str> = Vec::new();
    for e in errors.iter() {
        if let Some(header) = e.message.strip_prefix('\'').and_then(|m| m.strip_suffix("' file not found")) {
            if let Some(what) = crate::toolkit::library_of_header(header) {
                notes.push(Diagnostic::note(format!(
                    "`{header}` belongs to {what}, which lockstep's default CUDA toolkit does not include: pass --cuda-path=DIR of a CUDA toolkit that has it"
                )));
            } else if let Some(what) = crate::toolkit::non_toolkit_header(header) {
                notes.push(Diagnostic::note(format!(
                    "`{header}` belongs to {what}, which is not part of any CUDA toolkit: pass -I DIR of the folder that holds it"
                )));
            }
            continue;
        }
        if let Some(name) = named_cuda_api(&e.message) {
            if !newer_api.contains(&name) {
                newer_api.push(name);
            }
        }
    }
    if !newer_api.is_empty() {
        let names: Vec<String> = newer_api.iter().map(|n| format!("`{n}`")).collect();
        notes.push(Diagnostic::note(format!(
            "the CUDA {} headers lockstep compiled against ({}) do not declare {} as the file uses {}: the code may be written for a newer CUDA toolkit; pass --cuda-path=DIR of one",
            toolkit.version,
            toolkit.origin,
            names.join(", "),
            if names.len() == 1 { "it" } else { "them" }
        )));
    }
    errors.extend(notes);
}

/// The largest source file lockstep reads: 16 MiB (the largest single
/// CUDA files of real projects, generated ones included, are a few MiB).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Rejects missing, empty and binary files before clang sees them, with a
/// message that names the problem rather than clang's confusion about it.
/// Only regular files of at most `MAX_SOURCE_BYTES` are read: a device such
/// as `/dev/zero` never ends and a FIFO may never deliver, and neither must
/// make the verifier grow or wait forever (the file's kind is checked
/// before it is opened, since opening a FIFO blocks).
pub fn check_readable_source(file: &Path) -> Result<(), CompileError> {
    use std::io::Read;
    let span = Some(Span { file: file.display().to_string(), line: 0, column: 0 });
    let reject = |msg: String| Err(CompileError::Rejected(vec![Diagnostic::error(msg, span.clone())]));
    let limit = MAX_SOURCE_BYTES;
    let too_large = |size: u64| format!("the file has {size} bytes, more than the {} MiB lockstep reads", limit >> 20);
    let meta = match std::fs::metadata(file) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return reject("no such file".into()),
        Err(e) => return reject(format!("cannot read the file: {e}")),
    };
    if meta.is_dir() {
        return reject("is a directory, not a source file".into());
    }
    if !meta.is_file() {
        return reject("not a regular file (a device, FIFO or socket): lockstep reads only regular files".into());
    }
    if meta.len() > limit {
        return reject(too_large(meta.len()));
    }
    // The file may grow between the two looks: read one byte past the
    // limit at most.
    let mut bytes = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes));
    if let Err(e) = read {
        return reject(format!("cannot read the file: {e}"));
    }
    if bytes.len() as u64 > limit {
        return reject(too_large(bytes.len() as u64));
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return reject("the file is empty: there is no kernel to check".into());
    }
    if bytes.contains(&0) || std::str::from_utf8(&bytes).is_err() && bytes.iter().take(4096).filter(|b| **b < 9).count() > 0 {
        return reject("the file is binary, not CUDA or OpenCL source".into());
    }
    Ok(())
}

/// The line of a host `main` function defined in CUDA source, if any.
///
/// Whole-program checking (host code, the CUDA runtime API, launches) is not
/// implemented, so a file with a host program cannot be called verified:
/// the caller reports the host program as unchecked. Comments and string
/// literals are skipped so that a `main(` in them does not count.
pub fn host_main_line(source: &str) -> Option<u32> {
    let bytes = source.as_bytes();
    let mut line = 1u32;
    let mut i = 0;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    if bytes[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'm' if bytes[i..].starts_with(b"main") && (i == 0 || !word(bytes[i - 1])) => {
                let mut j = i + 4;
                while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
                    j += 1;
                }
                // `main (` preceded by a type name: a definition or a call;
                // either way the file has a host program.
                let before = source[..i].trim_end();
                if bytes.get(j) == Some(&b'(') && before.ends_with(|c: char| c.is_ascii_alphanumeric()) {
                    return Some(line);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parses clang's `file:line:col: error: message` lines. Notes and lines
/// without a location are attached as plain diagnostics.
pub fn parse_clang_diagnostics(stderr: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        for (tag, severity) in [(": error: ", Severity::Error), (": fatal error: ", Severity::Error), (": warning: ", Severity::Warning)] {
            if let Some(pos) = line.find(tag) {
                let location = &line[..pos];
                let message = line[pos + tag.len()..].to_string();
                let span = parse_location(location);
                out.push(Diagnostic { severity, message, span });
                break;
            }
        }
        if let Some(rest) = line.strip_prefix("error: ") {
            out.push(Diagnostic::error(rest.to_string(), None));
        }
    }
    out
}

fn parse_location(text: &str) -> Option<Span> {
    let mut parts = text.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?.to_string();
    Some(Span { file, line, column })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_clang_errors_with_locations() {
        let diags = parse_clang_diagnostics(
            "k.cu:3:7: error: expected ';' after expression\nk.cu:1:1: warning: unused\n1 error generated when compiling for sm_70.\n",
        );
        assert_eq!(diags.len(), 2);
        assert_eq!(diags[0].severity, Severity::Error);
        assert_eq!(diags[0].span, Some(Span { file: "k.cu".into(), line: 3, column: 7 }));
        assert_eq!(diags[0].message, "expected ';' after expression");
        assert_eq!(diags[1].severity, Severity::Warning);
    }

    #[test]
    fn finds_a_host_main_but_not_in_comments_or_strings() {
        assert_eq!(host_main_line("__global__ void k() {}\nint main(void) {\n}\n"), Some(2));
        assert_eq!(host_main_line("int main (int argc, char **argv) {}"), Some(1));
        assert_eq!(host_main_line("// int main() {}\n/* int main() */ const char *s = \"int main()\";"), None);
        assert_eq!(host_main_line("__device__ int domain(int x) { return x; }"), None);
    }

    #[test]
    fn language_follows_the_extension() {
        assert_eq!(language_of(Path::new("a/k.cu")), Some(Language::Cuda));
        assert_eq!(language_of(Path::new("k.cl")), Some(Language::OpenCl));
        assert_eq!(language_of(Path::new("k.c")), None);
    }

    #[test]
    fn only_errors_another_architecture_may_not_give_ask_for_it() {
        let error = |m: &str| Diagnostic::error(m, None);
        assert!(may_depend_on_arch(&error(
            "implicit instantiation of undefined template 'nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, signed char, nvcuda::wmma::row_major>'"
        )));
        assert!(may_depend_on_arch(&error("use of undeclared identifier '__hmax2'")));
        assert!(may_depend_on_arch(&error("static assertion failed due to requirement '__CUDA_ARCH__ >= 800'")));
        assert!(!may_depend_on_arch(&error("redefinition of 'char1'")));
        assert!(!may_depend_on_arch(&error("expected ';' after expression")));
        assert!(!may_depend_on_arch(&error("kernel function type 'int ()' must have void return type")));
        assert!(!may_depend_on_arch(&error("'cublas_v2.h' file not found")));
        assert!(!may_depend_on_arch(&Diagnostic { severity: Severity::Note, message: "no member named 'x'".into(), span: None }));
        // An `#error` directive is recognised by the line it points at.
        let dir = std::env::temp_dir().join(format!("lockstep-arch-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.cu");
        std::fs::write(&file, "#if __CUDA_ARCH__ < 800\n  #  error this kernel needs bf16\n#endif\n").unwrap();
        let at = |line| Diagnostic::error("this kernel needs bf16", Some(Span { file: file.display().to_string(), line, column: 6 }));
        assert!(may_depend_on_arch(&at(2)));
        assert!(!may_depend_on_arch(&at(1)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
