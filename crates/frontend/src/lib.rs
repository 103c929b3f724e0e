//! The front-end: CUDA/OpenCL source → LLVM IR (clang-19) → KIR.
//!
//! `driver` runs clang with our prelude headers; `lower` (with the tables in
//! `builtins`) is the only code in lockstep that reads LLVM IR. Between the
//! two, `load` runs LLVM's own passes in-process: `always-inline` (prelude
//! wrappers), `lower-switch`, `sroa`, `mem2reg` and `infer-address-spaces`.
//!
//! Invariant: every `Module` this crate returns passed `lockstep_kir`'s
//! verifier, and every construct it could not lower was reported as
//! `FrontError::Unsupported` with its source location, never a panic.

pub mod builtins;
mod bits;
mod block_barrier;
pub mod driver;
mod fnptr;
mod host_models;
pub mod launch_preconditions;
pub mod launch_sites;
pub mod site_exprs;
pub mod lower;
mod pch;
mod prefix_pch;
mod ptx;
mod ptx_pairs;
pub mod runtime_launch;
pub mod toolkit;
mod uninit_markers;
mod warp_masks;

use std::path::Path;
use std::time::{Duration, Instant};

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module as LlvmModule;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::values::AsValueRef;
use inkwell::OptimizationLevel;

use lockstep_diag::Diagnostic;
use lockstep_kir::{Language, Module};

pub use driver::{language_of, CompileOptions, CudaHeaders, HeadersUsed, Side};
pub use launch_sites::{HostArg, LaunchSite, LaunchSites};
pub use site_exprs::SiteExpr;
pub use lower::{Unsupported, UnsupportedKernel};

/// Why the front-end produced no KIR.
#[derive(Debug)]
pub enum FrontError {
    /// The input is invalid (clang's errors, a missing or binary file).
    Rejected(Vec<Diagnostic>),
    /// Valid input using a construct lockstep does not support yet.
    Unsupported(Unsupported),
    /// The tool or its environment is broken.
    Environment(String),
}

impl From<driver::CompileError> for FrontError {
    fn from(e: driver::CompileError) -> FrontError {
        match e {
            driver::CompileError::Rejected(d) => FrontError::Rejected(d),
            driver::CompileError::Environment(m) => FrontError::Environment(m),
            driver::CompileError::Unsupported(u) => FrontError::Unsupported(u),
        }
    }
}

/// What the front-end produced, with timings for the conformance figures.
pub struct Loaded {
    pub module: Module,
    pub warnings: Vec<Diagnostic>,
    pub clang_time: Duration,
    pub lower_time: Duration,
    /// The headers clang compiled the file against.
    pub headers: driver::HeadersUsed,
    /// The GPU architecture the device code was compiled for (see
    /// `driver::NEWER_GPU_ARCH`).
    pub gpu_arch: &'static str,
    /// Kernels left out of `module` because they reach a construct the
    /// lowering does not support (device side only).
    pub unsupported_kernels: Vec<lower::UnsupportedKernel>,
}

/// The LLVM pass pipeline run before lowering.
const PASSES: &str = "always-inline,lower-switch,sroa,mem2reg,infer-address-spaces";

/// Compiles and lowers `file`.
pub fn load(file: &Path, options: &CompileOptions) -> Result<Loaded, FrontError> {
    let start = Instant::now();
    let compiled = driver::compile(file, options);
    lower_compiled(compiled, options.side, start.elapsed())
}

/// Lowers what `driver::compile` produced for `side`, which took
/// `clang_time`. Separate from `load` so that the two compilations of a
/// whole program (clang subprocesses) can overlap.
pub fn lower_compiled(
    compiled: Result<driver::Compiled, driver::CompileError>,
    side: Side,
    clang_time: Duration,
) -> Result<Loaded, FrontError> {
    let compiled = compiled?;
    let start = Instant::now();
    let language = compiled.language;
    let library_dirs = library_dirs(&compiled.headers);
    let (module, unsupported_kernels) = match side {
        Side::Device => lower_with(&compiled.bitcode, &library_dirs, false, |llvm| unsafe { lower::lower_module_keeping_supported(llvm, language) })?,
        Side::Host => lower_with(&compiled.bitcode, &library_dirs, true, |llvm| unsafe { lower::lower_host_module(llvm).map(|m| (m, Vec::new())) })?,
    };
    Ok(Loaded {
        module,
        warnings: compiled.warnings,
        clang_time,
        lower_time: start.elapsed(),
        headers: compiled.headers,
        gpu_arch: compiled.gpu_arch,
        unsupported_kernels,
    })
}

/// The host side of a CUDA file: its launch sites, and its host program
/// when one was asked for.
pub struct HostLoaded {
    /// The file's `k<<<...>>>(...)` launches (see `launch_sites`), read
    /// whether or not the host program could be lowered.
    pub launch_sites: LaunchSites,
    /// The host program (`main` and what it calls), when `want_program`.
    pub program: Option<Result<Loaded, FrontError>>,
}

/// Lowers the host compilation that `driver::compile` produced: reads the
/// launch sites and, with `want_program`, lowers `main` and what it calls.
/// An error means clang itself failed, so that not even the sites are known.
pub fn lower_host_compiled(
    compiled: Result<driver::Compiled, driver::CompileError>,
    clang_time: Duration,
    want_program: bool,
) -> Result<HostLoaded, FrontError> {
    let compiled = compiled?;
    let start = Instant::now();
    let library_dirs = library_dirs(&compiled.headers);
    let mut sites = LaunchSites::default();
    let lowered = lower_with(&compiled.bitcode, &library_dirs, want_program, |llvm| unsafe {
        sites = launch_sites::launch_sites(llvm);
        if want_program {
            lower::lower_host_module(llvm).map(|m| (m, ()))
        } else {
            Err(Unsupported { what: "the host program was not asked for".into(), loc: None })
        }
    });
    let program = want_program.then(|| {
        lowered.map(|(module, ())| Loaded {
            module,
            warnings: compiled.warnings,
            clang_time,
            lower_time: start.elapsed(),
            headers: compiled.headers,
            gpu_arch: compiled.gpu_arch,
            unsupported_kernels: Vec::new(),
        })
    });
    Ok(HostLoaded { launch_sites: sites, program })
}

/// The folders whose functions are library code to inline (see
/// `mark_for_inlining`): a toolkit's, and clang's own CUDA headers, when the
/// file was compiled against a toolkit.
fn library_dirs(headers: &driver::HeadersUsed) -> Vec<String> {
    match headers {
        driver::HeadersUsed::Toolkit(t) => {
            let mut dirs = vec![format!("{}/", t.root.display())];
            if let Some(canonical) = t.root.canonicalize().ok().filter(|c| *c != t.root) {
                dirs.push(format!("{}/", canonical.display()));
            }
            dirs
        }
        driver::HeadersUsed::Prelude => Vec::new(),
    }
}

/// Parses bitcode, runs the pass pipeline and lowers to verified KIR.
pub fn lower_bitcode(bitcode: &[u8], language: Language) -> Result<Module, FrontError> {
    lower_with(bitcode, &[], false, |llvm| unsafe { lower::lower_module(llvm, language).map(|m| (m, ())) }).map(|(m, ())| m)
}

/// Like `lower_bitcode`, for the host compilation of a CUDA program: lowers
/// `main` and what it calls (see `lower::lower_host_module`).
pub fn lower_host_bitcode(bitcode: &[u8]) -> Result<Module, FrontError> {
    lower_with(bitcode, &[], true, |llvm| unsafe { lower::lower_host_module(llvm).map(|m| (m, ())) }).map(|(m, ())| m)
}

/// Parses `bitcode`, runs the passes, lowers with `lower` (which returns the
/// module and what else it found) and verifies the module. `host_program`:
/// the module is a host program, whose uninitialised variables keep their
/// declarations (`uninit_markers`).
fn lower_with<T>(
    bitcode: &[u8],
    library_dirs: &[String],
    host_program: bool,
    lower: impl FnOnce(llvm_sys::prelude::LLVMModuleRef) -> Result<(Module, T), Unsupported>,
) -> Result<(Module, T), FrontError> {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(bitcode, "kernel");
    let llvm = LlvmModule::parse_bitcode_from_buffer(&buffer, &context)
        .map_err(|e| FrontError::Environment(format!("cannot read clang's bitcode: {e}")))?;
    // (Only a host compilation has models: they are host code.)
    unsafe { host_models::redirect_to_models(llvm.as_mut_ptr()) };
    unsafe { host_models::redirect_grid_sync(llvm.as_mut_ptr()) };
    mark_for_inlining(&llvm, library_dirs);
    if host_program {
        unsafe { uninit_markers::mark_uninitialised(llvm.as_mut_ptr()) };
    }
    run_passes(&llvm)?;
    let (module, found) = lower(llvm.as_mut_ptr()).map_err(FrontError::Unsupported)?;
    if let Err(errors) = lockstep_kir::verify_module(&module) {
        let first: Vec<String> = errors.iter().take(5).map(|e| e.to_string()).collect();
        return Err(FrontError::Environment(format!(
            "internal error: the lowering produced invalid KIR ({} problems): {}",
            errors.len(),
            first.join("; ")
        )));
    }
    Ok((module, found))
}

/// Marks for the always-inline pass the functions whose calls KIR cannot
/// express. First, the methods of clang's CUDA builtin variables (`threadIdx`,
/// `blockIdx`, `blockDim`, `gridDim`: objects of the `__cuda_builtin_*_t`
/// types, whose conversions to `uint3` and `dim3` the toolkit's headers call,
/// cooperative groups among them). Inlined, they are reads of the special
/// registers; called, they would take the address of a variable that has
/// none. Second, functions that return an aggregate by value.
fn mark_for_inlining(llvm: &LlvmModule, library_dirs: &[String]) {
    use inkwell::attributes::{Attribute, AttributeLoc};
    let context = llvm.get_context();
    let always = Attribute::get_named_enum_kind_id("alwaysinline");
    let never = Attribute::get_named_enum_kind_id("noinline");
    for function in llvm.get_functions() {
        let named_builtin = function.get_name().to_str().is_ok_and(|n| n.contains("__cuda_builtin_"));
        // Fourth, the prelude's C++ models of library functions (see
        // `host_models`), so that what they report points at the call.
        let model = function.get_name().to_str().is_ok_and(|n| n.starts_with(host_models::PREFIX));
        // KIR functions return one scalar: a function that returns a struct
        // or a vector by value (`float4 load4(...)`, the toolkit's
        // `__float2bfloat16`) is inlined into its callers instead, where
        // SROA splits the aggregate into scalars.
        // (Read through llvm-sys: inkwell's types panic on OpenCL's target
        // extension types.)
        let returns_aggregate = unsafe {
            use llvm_sys::core::{LLVMGetReturnType, LLVMGetTypeKind, LLVMGlobalGetValueType};
            use llvm_sys::LLVMTypeKind::*;
            let kind = LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(function.as_value_ref())));
            matches!(kind, LLVMStructTypeKind | LLVMVectorTypeKind | LLVMArrayTypeKind)
        };
        // Third, library code: the functions of a CUDA toolkit's headers and
        // of clang's CUDA wrappers (cooperative groups' methods, `dim3`'s
        // constructor, CUB's building blocks), inlined into the user's code as
        // the prelude's wrappers are. The engines then see the thread ids and
        // sizes they compute as values, not through the memory of a call's
        // out-parameters, and reports point at the user's lines (the lowering
        // gives inlined code its outermost call site's location).
        let library = !library_dirs.is_empty()
            && unsafe { lower::defining_file(function.as_value_ref()) }.is_some_and(|file| {
                let clang_wrapper = file.contains("/lib/clang/") && file.rsplit('/').next().is_some_and(|name| name.starts_with("__clang_cuda"));
                clang_wrapper || library_dirs.iter().any(|d| file.starts_with(d.as_str()))
            });
        // Asynchronous copies the lowering refuses stay out of line, so that
        // only the kernels that reach them are left out.
        if function.get_name().to_str().is_ok_and(|n| lower::unmodelled_async_copy(n).is_some()) {
            function.remove_enum_attribute(AttributeLoc::Function, always);
            function.add_attribute(AttributeLoc::Function, context.create_enum_attribute(never, 0));
            continue;
        }
        // Fifth, the standard library's `std::move` and `std::forward`:
        // casts of a reference to itself, which (clang compiling with
        // `-fno-builtin`) stay calls that take a local's address, and keep
        // the local out of SSA (`bar.wait(std::move(token))`).
        let std_cast = function.get_name().to_str().is_ok_and(|n| n.starts_with("_ZSt4moveI") || n.starts_with("_ZSt7forwardI"));
        if (named_builtin || returns_aggregate || library || model || std_cast) && function.count_basic_blocks() > 0 {
            function.remove_enum_attribute(AttributeLoc::Function, never);
            function.add_attribute(AttributeLoc::Function, context.create_enum_attribute(always, 0));
        }
    }
}

fn run_passes(llvm: &LlvmModule) -> Result<(), FrontError> {
    Target::initialize_all(&InitializationConfig::default());
    let triple = llvm.get_triple();
    // SPIR has no LLVM target; the host's target machine runs the same
    // target-independent passes (OpenCL 1.2 has no generic address space for
    // infer-address-spaces to resolve).
    let (target, triple) = match Target::from_triple(&triple) {
        Ok(t) => (t, triple),
        Err(_) => {
            let host = TargetMachine::get_default_triple();
            let t = Target::from_triple(&host).map_err(|e| FrontError::Environment(format!("no LLVM target: {e}")))?;
            (t, host)
        }
    };
    let machine = target
        .create_target_machine(&triple, "", "", OptimizationLevel::None, RelocMode::Default, CodeModel::Default)
        .ok_or_else(|| FrontError::Environment("cannot create an LLVM target machine".into()))?;
    llvm.run_passes(PASSES, &machine, PassBuilderOptions::create())
        .map_err(|e| FrontError::Environment(format!("LLVM passes failed: {e}")))
}
