//! Lowering of an LLVM module (after our passes) to KIR.
//!
//! This is the only code in lockstep that knows LLVM. It walks the module
//! through the LLVM C API (llvm-sys), because lowering needs every
//! instruction's opcode and operands and inkwell's typed wrappers get in the
//! way of that. The prelude contract it implements is `INTRINSICS.md`.
//!
//! Shape of the translation:
//! - phi nodes become block parameters, passed by each predecessor's branch;
//! - blocks are lowered in reverse post-order, so a value is lowered before
//!   every use that it dominates; unreachable blocks are dropped;
//! - `getelementptr` becomes byte arithmetic (`PtrAdd`), with constant
//!   strides from the data layout;
//! - vectors and small structs are scalarised into lanes; a bitcast that
//!   changes the number of lanes (`<4 x float>` to `<16 x i8>`) becomes
//!   shifts, truncations and extensions of the lanes' bits;
//! - OpenCL images are pointers to global objects of their own and samplers
//!   opaque integers (see `builtins::IMAGE_TYPE`);
//! - CUDA's generic pointers get the space of the object they are derived
//!   from when that is known statically (kernel pointer parameters point to
//!   global memory);
//! - anything else it does not understand is an `Unsupported` error naming
//!   the construct and its source location — never a panic.

use std::collections::{HashMap, HashSet};
use std::ffi::CStr;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate, LLVMTypeKind};

use lockstep_kir::*;

mod calls;
mod constants;
mod debug_locs;
mod function;
mod inline_origin;
mod operations;

pub(crate) use calls::CallLowering;
use constants::*;
use debug_locs::*;
pub use debug_locs::defining_file;
use function::*;

/// A construct the lowering does not handle, with where it was found.
#[derive(Clone, Debug)]
pub struct Unsupported {
    pub what: String,
    pub loc: Option<(String, u32, u32)>,
}

type Result<T> = std::result::Result<T, Unsupported>;

/// A lowered LLVM value: one KIR value, or one per lane of a vector or
/// field of a struct.
#[derive(Clone, Debug)]
enum Lowered {
    Scalar(ValueId),
    Lanes(Vec<ValueId>),
}

/// The KIR shape of an LLVM type.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Scalar(Type),
    /// Lanes with their byte offsets within the in-memory value.
    Lanes(Vec<(Type, u64)>),
    Void,
}

fn cstr(p: *const libc::c_char, len: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    cstr(p, len)
}

/// The identifier of a possibly Itanium-mangled symbol: `_Z3fooPi` → `foo`,
/// `_ZN2cg4syncEv` → `sync`, `_ZZ6kernelE3buf` (a function-local static) →
/// `buf`. Anything else is returned unchanged.
pub fn base_identifier(symbol: &str) -> String {
    fn read_ident(s: &str) -> Option<(&str, &str)> {
        let digits = s.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let len: usize = s[..digits].parse().ok()?;
        let rest = &s[digits..];
        (rest.len() >= len).then(|| (&rest[..len], &rest[len..]))
    }
    if let Some(rest) = symbol.strip_prefix("_ZZ") {
        // Local entity: _ZZ <function encoding> E <entity name>.
        if let Some(pos) = rest.rfind('E') {
            if let Some((ident, _)) = read_ident(&rest[pos + 1..]) {
                return ident.to_string();
            }
        }
        return symbol.to_string();
    }
    if let Some(rest) = symbol.strip_prefix("_ZN") {
        // Nested name: N [qualifiers] <source-name>+ E; keep the last.
        let mut s = rest.trim_start_matches(['K', 'V', 'r']);
        let mut last = None;
        while let Some((ident, tail)) = read_ident(s) {
            last = Some(ident);
            s = tail;
        }
        return last.map(str::to_string).unwrap_or_else(|| symbol.to_string());
    }
    if let Some(rest) = symbol.strip_prefix("_Z") {
        // `_ZL`: a name with internal linkage (a `static` function).
        let rest = rest.strip_prefix('L').unwrap_or(rest);
        if let Some((ident, _)) = read_ident(rest) {
            return ident.to_string();
        }
    }
    symbol.to_string()
}

/// Which language's address-space numbering applies.
#[derive(Copy, Clone)]
struct SpaceMap {
    language: Language,
}

impl SpaceMap {
    /// The space of an LLVM address space, `None` for CUDA's generic space
    /// (resolved per value).
    fn space(self, addrspace: u32) -> Option<MemSpace> {
        match (self.language, addrspace) {
            (Language::Cuda, 0) => None,
            (Language::Cuda, 1) => Some(MemSpace::Global),
            (Language::Cuda, 3) => Some(MemSpace::Shared),
            (Language::Cuda, 4) => Some(MemSpace::Constant),
            (Language::Cuda, 5) => Some(MemSpace::Private),
            (Language::OpenCl, 0) => Some(MemSpace::Private),
            (Language::OpenCl, 1) => Some(MemSpace::Global),
            (Language::OpenCl, 2) => Some(MemSpace::Constant),
            (Language::OpenCl, 3) => Some(MemSpace::Shared),
            _ => Some(MemSpace::Generic),
        }
    }
}

/// Module-wide state of the lowering.
struct ModuleCx {
    td: LLVMTargetDataRef,
    spaces: SpaceMap,
    globals: HashMap<LLVMValueRef, GlobalId>,
    funcs: HashMap<LLVMValueRef, FuncId>,
    /// Functions without a body whose address the module takes (a pointer
    /// to `cosf`), numbered for `external_function_address`.
    externs: HashMap<LLVMValueRef, usize>,
    kernels: HashSet<LLVMValueRef>,
    files: HashMap<LLVMMetadataRef, FileId>,
    byval_kind: u32,
    /// Lowering a host compilation: every memory object is host memory
    /// (`Private`), string literals included.
    host: bool,
}

/// Function addresses are integers from here on, 16 apart: below 2^40, so
/// the interpreter's pointer encoding reads them as addresses of no object,
/// and far above any small integer a program would cast to a pointer.
pub const FUNCTION_ADDRESS_BASE: u64 = 0xF0_0000_0000;

fn function_address(f: FuncId) -> u64 {
    FUNCTION_ADDRESS_BASE + 16 * f.index() as u64
}

/// The address of the `n`th function without a body whose address is
/// taken: above every defined function's (2^31 of them fit below) and
/// still below 2^40.
fn external_function_address(n: usize) -> u64 {
    FUNCTION_ADDRESS_BASE + 0x8_0000_0000 + 16 * n as u64
}

/// The address a function has in KIR, defined or not.
fn address_of_function(cx: &ModuleCx, f: LLVMValueRef) -> Option<u64> {
    match cx.funcs.get(&f) {
        Some(&id) => Some(function_address(id)),
        None => cx.externs.get(&f).map(|&n| external_function_address(n)),
    }
}

/// The declarations (functions without a body, intrinsics aside) whose
/// address `module` takes: used other than as the callee of a call. A call
/// through a pointer may reach only these among the declarations.
unsafe fn address_taken_declarations(module: LLVMModuleRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        if LLVMIsDeclaration(f) != 0 && !value_name(f).starts_with("llvm.") {
            let mut u = LLVMGetFirstUse(f);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                let direct = !LLVMIsACallInst(user).is_null() && LLVMGetCalledValue(user) == f && !call_passes(user, f);
                if !direct {
                    out.push(f);
                    break;
                }
                u = LLVMGetNextUse(u);
            }
        }
        f = LLVMGetNextFunction(f);
    }
    out
}

/// Whether `call` passes `f` as one of its arguments.
unsafe fn call_passes(call: LLVMValueRef, f: LLVMValueRef) -> bool {
    (0..LLVMGetNumArgOperands(call)).any(|i| LLVMGetOperand(call, i) == f)
}

/// Lowers every defined function and memory object of `module`.
///
/// # Safety
/// `module` must be a valid LLVM module that outlives the call.
pub unsafe fn lower_module(module: LLVMModuleRef, language: Language) -> Result<Module> {
    let (out, failures) = lower_module_from(module, language, None, false)?;
    match failures.into_iter().next() {
        Some((_, why)) => Err(why),
        None => Ok(out),
    }
}

/// A kernel left out of a module because it reaches a construct the lowering
/// does not support.
#[derive(Debug)]
pub struct UnsupportedKernel {
    /// The kernel's source name.
    pub name: String,
    /// Its symbol (which tells template instantiations apart).
    pub link_name: String,
    pub why: Unsupported,
}

/// Like `lower_module`, but a construct the lowering does not support makes
/// only the kernels that can reach it unsupported: the function holding it,
/// and every function that calls or takes the address of such a function,
/// are left out, and the other kernels are lowered as usual. When a left-out
/// function's address is taken, so that an indirect call might reach it,
/// every function making an indirect call is left out too.
///
/// # Safety
/// `module` must be a valid LLVM module that outlives the call.
pub unsafe fn lower_module_keeping_supported(module: LLVMModuleRef, language: Language) -> Result<(Module, Vec<UnsupportedKernel>)> {
    let (out, failures) = lower_module_from(module, language, None, false)?;
    if failures.is_empty() {
        return Ok((out, Vec::new()));
    }
    // Who references whom, among defined functions.
    let mut referrers: HashMap<LLVMValueRef, Vec<LLVMValueRef>> = HashMap::new();
    let mut indirect_callers = Vec::new();
    let mut address_taken = HashSet::new();
    let mut defined = Vec::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        if LLVMIsDeclaration(f) == 0 {
            defined.push(f);
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut inst = LLVMGetFirstInstruction(bb);
                while !inst.is_null() {
                    let is_call = !LLVMIsACallInst(inst).is_null() || !LLVMIsAInvokeInst(inst).is_null();
                    if is_call {
                        let callee = LLVMGetCalledValue(inst);
                        if LLVMIsAFunction(callee).is_null() && LLVMIsAInlineAsm(callee).is_null() {
                            indirect_callers.push(f);
                        }
                    }
                    for i in 0..LLVMGetNumOperands(inst) {
                        let op = LLVMGetOperand(inst, i as u32);
                        if !op.is_null() && !LLVMIsAFunction(op).is_null() {
                            referrers.entry(op).or_default().push(f);
                            if !(is_call && LLVMGetCalledValue(inst) == op) {
                                address_taken.insert(op);
                            }
                        }
                    }
                    inst = LLVMGetNextInstruction(inst);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
        }
        f = LLVMGetNextFunction(f);
    }
    // Functions referenced from global initialisers (tables of function
    // pointers) have their address taken too.
    let mut g = LLVMGetFirstGlobal(module);
    while !g.is_null() {
        if LLVMIsDeclaration(g) == 0 {
            collect_functions(LLVMGetInitializer(g), &mut address_taken);
        }
        g = LLVMGetNextGlobal(g);
    }
    // The reason each left-out function inherits: the first failure it reaches.
    let mut reason: HashMap<LLVMValueRef, Unsupported> = HashMap::new();
    let mut work: Vec<LLVMValueRef> = Vec::new();
    for (f, why) in failures {
        work.push(f);
        reason.insert(f, why);
    }
    let mut indirect_tainted = false;
    while let Some(f) = work.pop() {
        let why = reason[&f].clone();
        if address_taken.contains(&f) && !indirect_tainted {
            indirect_tainted = true;
            for &caller in &indirect_callers {
                if !reason.contains_key(&caller) {
                    reason.insert(caller, why.clone());
                    work.push(caller);
                }
            }
        }
        for &caller in referrers.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
            if !reason.contains_key(&caller) {
                reason.insert(caller, why.clone());
                work.push(caller);
            }
        }
    }
    let kernels = kernel_functions(module);
    let mut left_out: Vec<UnsupportedKernel> = defined
        .iter()
        .filter(|f| kernels.contains(f))
        .filter_map(|f| {
            reason.get(f).map(|why| {
                let link_name = value_name(*f);
                UnsupportedKernel { name: base_identifier(&link_name), link_name, why: why.clone() }
            })
        })
        .collect();
    left_out.sort_by(|a, b| a.name.cmp(&b.name));
    let keep: HashSet<LLVMValueRef> = defined.into_iter().filter(|f| !reason.contains_key(f)).collect();
    let (out, failures) = lower_module_from(module, language, Some(keep), false)?;
    // Lowering a function does not depend on which others are lowered, so
    // nothing kept can fail now; should it, the whole module is unsupported.
    if let Some((_, why)) = failures.into_iter().next() {
        return Err(why);
    }
    Ok((out, left_out))
}

/// The functions a constant refers to, through any nesting of aggregates
/// and constant expressions.
/// The functions `v` refers to: itself, the operands of a constant
/// expression, and what the initialisers of the global variables it names
/// refer to (each global searched once: `seen`).
unsafe fn functions_referenced(v: LLVMValueRef, seen: &mut HashSet<LLVMValueRef>, out: &mut HashSet<LLVMValueRef>) {
    if v.is_null() {
        return;
    }
    if !LLVMIsAFunction(v).is_null() {
        out.insert(v);
        return;
    }
    if !LLVMIsAGlobalVariable(v).is_null() {
        if seen.insert(v) && LLVMIsDeclaration(v) == 0 {
            functions_referenced(LLVMGetInitializer(v), seen, out);
        }
        return;
    }
    if LLVMIsAConstant(v).is_null() || !LLVMIsAGlobalValue(v).is_null() {
        return;
    }
    for i in 0..LLVMGetNumOperands(v).max(0) {
        functions_referenced(LLVMGetOperand(v, i as u32), seen, out);
    }
}

unsafe fn collect_functions(c: LLVMValueRef, out: &mut HashSet<LLVMValueRef>) {
    if c.is_null() {
        return;
    }
    if !LLVMIsAFunction(c).is_null() {
        out.insert(c);
        return;
    }
    if LLVMIsAConstant(c).is_null() || !LLVMIsAGlobalValue(c).is_null() {
        return;
    }
    for i in 0..LLVMGetNumOperands(c).max(0) {
        collect_functions(LLVMGetOperand(c, i as u32), out);
    }
}

/// The prefix of the external calls that stand for kernel launches in a
/// host module: `__lockstep_launch:<kernel link name>`. Clang's host
/// compilation turns `k<<<g, b>>>(args)` into `cudaConfigureCall(g, b, ...)`
/// followed by a call of the launch stub `__device_stub__k(args)`, which
/// passes each argument's bytes to `cudaSetupArgument(&arg, size, offset)`
/// and then calls `cudaLaunch(stub)`. That last call becomes the launch,
/// naming the kernel as the device compilation spells it; the arguments'
/// bytes are those given to `cudaSetupArgument` (whatever the host ABI did
/// to by-value structs on the way to the stub).
pub const LAUNCH_PREFIX: &str = "__lockstep_launch:";

/// The device symbol of the kernel that a host launch stub launches:
/// `_Z16__device_stub__kPii` → `_Z1kPii`, `__device_stub__k` → `k`.
pub fn stub_kernel_symbol(stub: &str) -> Option<String> {
    const MARK: &str = "__device_stub__";
    let at = stub.find(MARK)?;
    let (before, after) = (&stub[..at], &stub[at + MARK.len()..]);
    // A mangled name has the identifier's length just before it.
    let digits = before.bytes().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Some(format!("{before}{after}"));
    }
    let prefix = &before[..before.len() - digits];
    let len: usize = before[before.len() - digits..].parse().ok()?;
    let new_len = len.checked_sub(MARK.len())?;
    Some(format!("{prefix}{new_len}{after}"))
}

/// Lowers the host side of a CUDA program: the functions reachable from
/// `main` (the rest of the host compilation, C++ library code included, is
/// never executed and is left out) and the memory objects they use.
///
/// # Safety
/// `module` must be a valid LLVM module that outlives the call.
pub unsafe fn lower_host_module(module: LLVMModuleRef) -> Result<Module> {
    let main = LLVMGetNamedFunction(module, c"main".as_ptr());
    if main.is_null() || LLVMIsDeclaration(main) != 0 {
        return Err(Unsupported { what: "the program has no host `main` function".into(), loc: None });
    }
    let mut reachable = HashSet::new();
    let mut stack = vec![main];
    // Globals whose initialisers were searched for functions: a function
    // whose address is in a table the program reads (a class's virtual
    // table, reached through the constructor's store of its address) is
    // reachable too, and must be lowered for the table to be filled in.
    let mut tables = HashSet::new();
    while let Some(f) = stack.pop() {
        if !reachable.insert(f) || LLVMIsDeclaration(f) != 0 {
            continue;
        }
        // Only the blocks a run can reach: what only an exception's
        // landing pad calls is never lowered.
        for bb in reverse_postorder(f) {
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                for i in 0..LLVMGetNumOperands(inst) {
                    let op = LLVMGetOperand(inst, i as u32);
                    let mut found = HashSet::new();
                    functions_referenced(op, &mut tables, &mut found);
                    stack.extend(found);
                }
                inst = LLVMGetNextInstruction(inst);
            }
        }
    }
    let (out, failures) = lower_module_from(module, Language::Cuda, Some(reachable), true)?;
    match failures.into_iter().next() {
        Some((_, why)) => Err(why),
        None => Ok(out),
    }
}

/// Lowers the functions of `only` (every defined function when `None`) of
/// a device module, or of a host module when `host`. A function whose body
/// cannot be lowered is listed with the reason, and the module returned
/// beside the list is then incomplete.
unsafe fn lower_module_from(
    module: LLVMModuleRef,
    language: Language,
    only: Option<HashSet<LLVMValueRef>>,
    host: bool,
) -> Result<(Module, Vec<(LLVMValueRef, Unsupported)>)> {
    let mut out = Module::new(language);
    let mut cx = ModuleCx {
        td: LLVMGetModuleDataLayout(module),
        spaces: SpaceMap { language },
        globals: HashMap::new(),
        funcs: HashMap::new(),
        externs: address_taken_declarations(module).into_iter().enumerate().map(|(n, f)| (f, n)).collect(),
        kernels: kernel_functions(module),
        files: HashMap::new(),
        byval_kind: LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5),
        host,
    };

    // Create every defined function first, so calls can name their callee.
    let mut defined = Vec::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let wanted = only.as_ref().map_or(true, |set| set.contains(&f));
        // A function returning an aggregate by value was inlined into its
        // callers before lowering (see `mark_for_inlining` in lib.rs); once
        // nothing calls it, its body (whose return KIR cannot express) is
        // not needed. (Such a function that no kernel calls is then not
        // checked on its own under --no-inline.)
        let inlined_away = !cx.kernels.contains(&f) && returns_aggregate(f) && LLVMGetFirstUse(f).is_null();
        if LLVMIsDeclaration(f) == 0 && wanted && !inlined_away {
            let link_name = value_name(f);
            let is_kernel = cx.kernels.contains(&f);
            let mut func = Function::new(base_identifier(&link_name), link_name, is_kernel);
            func.loc = subprogram_loc(&mut cx, &mut out, f);
            let id = out.functions.push(func);
            cx.funcs.insert(f, id);
            defined.push((f, id));
        }
        f = LLVMGetNextFunction(f);
    }
    // Pointers to globals in globals' initial contents (host only).
    let mut initial_pointers: Vec<(GlobalId, u64, LLVMValueRef)> = Vec::new();
    let mut g = LLVMGetFirstGlobal(module);
    while !g.is_null() {
        let name = value_name(g);
        let vty = LLVMGlobalGetValueType(g);
        let is_builtin_var = matches!(name.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "warpSize");
        let addrspace = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        if !is_builtin_var && !name.starts_with("llvm.") && (cx.host || !name.starts_with(".str")) {
            let space = if cx.host { MemSpace::Private } else { cx.spaces.space(addrspace).unwrap_or(MemSpace::Global) };
            let sized = LLVMTypeIsSized(vty) != 0;
            let size = sized.then(|| LLVMABISizeOfType(cx.td, vty));
            // An `extern __shared__` array is a zero-length array whose size
            // the launch gives.
            let size = match size {
                Some(0) if LLVMGetTypeKind(vty) == LLVMTypeKind::LLVMArrayTypeKind => None,
                other => other,
            };
            let elem_size = element_size(cx.td, vty);
            let is_extern = LLVMIsDeclaration(g) != 0;
            let (init, pointers) = match constant_bytes(&cx, LLVMGetInitializer(g)).filter(|_| !is_extern) {
                Some((bytes, pointers)) => (Some(bytes), pointers),
                None => (None, Vec::new()),
            };
            let id = out.globals.push(MemObject {
                name: base_identifier(&name),
                space,
                size,
                align: LLVMGetAlignment(g),
                elem_size,
                init,
                loc: None,
            });
            cx.globals.insert(g, id);
            initial_pointers.extend(pointers.into_iter().map(|(offset, target)| (id, offset as u64, target)));
        }
        g = LLVMGetNextGlobal(g);
    }

    let mut failures = Vec::new();
    for (f, id) in defined {
        if let Some(what) = unmodelled_async_copy(&value_name(f)) {
            failures.push((f, Unsupported { what: what.into(), loc: first_call_site(f) }));
            continue;
        }
        match FnLower::lower(&mut cx, &mut out, f, id) {
            Ok(func) => out.functions[id] = func,
            Err(why) => failures.push((f, why)),
        }
    }
    if !initial_pointers.is_empty() {
        let main = LLVMGetNamedFunction(module, c"main".as_ptr());
        match cx.funcs.get(&main) {
            Some(&main) => {
                // A pointer to a global that was not lowered leaves its
                // table unspecified.
                let unknown: HashSet<GlobalId> =
                    initial_pointers.iter().filter(|(_, _, t)| !cx.globals.contains_key(t)).map(|&(g, _, _)| g).collect();
                for &g in &unknown {
                    out.globals[g].init = None;
                }
                initial_pointers.retain(|(g, _, _)| !unknown.contains(g));
                store_initial_pointers(&mut out.functions[main], &cx, &initial_pointers);
            }
            // Without a `main` to run them, the tables stay unspecified.
            None => {
                for &(g, _, _) in &initial_pointers {
                    out.globals[g].init = None;
                }
            }
        }
    }
    Ok((out, failures))
}

/// The toolkit's per-thread asynchronous copies, whose completion lockstep
/// does not model: `cuda::memcpy_async` with a `cuda::pipeline` or a
/// `cuda::barrier` (libcu++'s `__cp_async_fallback_mechanism`) and
/// `__pipeline_memcpy_async`. Compiled for sm_70 they are plain copies, but
/// CUDA lets the copy land at any time until the pipeline's `consumer_wait`
/// (or the barrier's wait), so modelling them as plain copies would miss
/// the races of a thread that reads another's destination too early. They
/// are kept out of line (`mark_for_inlining`), and the kernels that reach
/// them are unsupported.
pub(crate) fn unmodelled_async_copy(link_name: &str) -> Option<&'static str> {
    if link_name.contains("__cp_async_fallback_mechanism") {
        Some("`cuda::memcpy_async` with a `cuda::pipeline` or `cuda::barrier` (the copy completes at the pipeline's or barrier's wait, which lockstep does not model)")
    } else if link_name.contains("pipeline_memcpy_async") {
        Some("`__pipeline_memcpy_async` (the copy completes at `__pipeline_wait_prior`, which lockstep does not model)")
    } else {
        None
    }
}

/// Writes, at the start of `main`, the pointers to globals that globals'
/// initial contents hold (a table of strings, say): KIR's initial contents
/// are bytes, and a global's address is known only when the program runs.
/// The program cannot observe the difference, since no code of it runs
/// before `main` reads them.
unsafe fn store_initial_pointers(main: &mut Function, cx: &ModuleCx, pointers: &[(GlobalId, u64, LLVMValueRef)]) {
    let entry = main.entry;
    let old_insts = std::mem::take(&mut main.blocks[entry].insts);
    let ptr = Type::Ptr(MemSpace::Private);
    for &(global, offset, target) in pointers {
        let target = cx.globals[&target];
        let base = main.make_value(ptr, ValueDef::GlobalAddr(global));
        let offset = main.const_int(Type::Int(64), u128::from(offset));
        let (_, at) = main.append_inst(entry, InstKind::PtrAdd { base, offset }, Some(ptr), None);
        let value = main.make_value(ptr, ValueDef::GlobalAddr(target));
        main.append_inst(entry, InstKind::Store { ptr: at.expect("ptradd has a result"), value, align: 8 }, None, None);
    }
    main.blocks[entry].insts.extend(old_insts);
}

/// Whether `f` returns a struct, vector or array by value.
unsafe fn returns_aggregate(f: LLVMValueRef) -> bool {
    let kind = LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(f)));
    matches!(kind, LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMArrayTypeKind)
}

/// Kernels: NVPTX marks them in `!nvvm.annotations` (or with the
/// `ptx_kernel` calling convention); SPIR with the `spir_kernel` convention.
unsafe fn kernel_functions(module: LLVMModuleRef) -> HashSet<LLVMValueRef> {
    const PTX_KERNEL: u32 = 71;
    const SPIR_KERNEL: u32 = 76;
    let mut set = HashSet::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let cc = LLVMGetFunctionCallConv(f);
        if cc == PTX_KERNEL || cc == SPIR_KERNEL {
            set.insert(f);
        }
        f = LLVMGetNextFunction(f);
    }
    let name = c"nvvm.annotations";
    let n = LLVMGetNamedMetadataNumOperands(module, name.as_ptr());
    if n > 0 {
        let mut nodes = vec![std::ptr::null_mut(); n as usize];
        LLVMGetNamedMetadataOperands(module, name.as_ptr(), nodes.as_mut_ptr());
        for node in nodes {
            let k = LLVMGetMDNodeNumOperands(node);
            if k < 2 {
                continue;
            }
            let mut ops = vec![std::ptr::null_mut(); k as usize];
            LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
            let mut len = 0u32;
            let s = if ops[1].is_null() { std::ptr::null() } else { LLVMGetMDString(ops[1], &mut len) };
            if cstr(s, len as usize) == "kernel" && !ops[0].is_null() && !LLVMIsAFunction(ops[0]).is_null() {
                set.insert(ops[0]);
            }
        }
    }
    set
}

unsafe fn param_index(f: LLVMValueRef, p: LLVMValueRef) -> u32 {
    (0..LLVMCountParams(f)).find(|&i| LLVMGetParam(f, i) == p).unwrap_or(0)
}

unsafe fn reverse_postorder(f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    let entry = LLVMGetEntryBasicBlock(f);
    let mut visited = HashSet::new();
    let mut post = Vec::new();
    // Iterative DFS: (block, next successor index).
    let mut stack = vec![(entry, 0u32)];
    visited.insert(entry);
    while let Some((bb, i)) = stack.pop() {
        let term = LLVMGetBasicBlockTerminator(bb);
        // An `invoke`'s second successor is where an exception unwinds to:
        // exceptions are not followed (see `lower_inst`), so neither are
        // the landing pads and the cleanups only they reach.
        let n = if term.is_null() {
            0
        } else if !LLVMIsAInvokeInst(term).is_null() {
            1
        } else {
            LLVMGetNumSuccessors(term)
        };
        if i < n {
            stack.push((bb, i + 1));
            let succ = LLVMGetSuccessor(term, i);
            if visited.insert(succ) {
                stack.push((succ, 0));
            }
        } else {
            post.push(bb);
        }
    }
    post.reverse();
    post
}

fn lane_align(align: u32, off: u64) -> u32 {
    if off == 0 {
        return align;
    }
    let lowest = 1u64 << off.trailing_zeros();
    (align as u64).min(lowest) as u32
}

fn half_bits(x: f32) -> u16 {
    // Round-toward-zero conversion; float constants only matter to the
    // equivalence checker, which works on 32- and 64-bit floats.
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let mant = ((b >> 13) & 0x3ff) as u16;
    if exp <= 0 {
        sign
    } else if exp >= 31 {
        sign | 0x7c00
    } else {
        sign | ((exp as u16) << 10) | mant
    }
}

/// KIR's comparison for an LLVM integer predicate.
pub(crate) fn int_cc(p: LLVMIntPredicate) -> IntCC {
    use LLVMIntPredicate::*;
    match p {
        LLVMIntEQ => IntCC::Eq,
        LLVMIntNE => IntCC::Ne,
        LLVMIntUGT => IntCC::Ugt,
        LLVMIntUGE => IntCC::Uge,
        LLVMIntULT => IntCC::Ult,
        LLVMIntULE => IntCC::Ule,
        LLVMIntSGT => IntCC::Sgt,
        LLVMIntSGE => IntCC::Sge,
        LLVMIntSLT => IntCC::Slt,
        LLVMIntSLE => IntCC::Sle,
    }
}

fn float_cc(p: LLVMRealPredicate) -> FloatCC {
    use LLVMRealPredicate::*;
    match p {
        LLVMRealPredicateFalse => FloatCC::False,
        LLVMRealOEQ => FloatCC::Oeq,
        LLVMRealOGT => FloatCC::Ogt,
        LLVMRealOGE => FloatCC::Oge,
        LLVMRealOLT => FloatCC::Olt,
        LLVMRealOLE => FloatCC::Ole,
        LLVMRealONE => FloatCC::One,
        LLVMRealORD => FloatCC::Ord,
        LLVMRealUNO => FloatCC::Uno,
        LLVMRealUEQ => FloatCC::Ueq,
        LLVMRealUGT => FloatCC::Ugt,
        LLVMRealUGE => FloatCC::Uge,
        LLVMRealULT => FloatCC::Ult,
        LLVMRealULE => FloatCC::Ule,
        LLVMRealUNE => FloatCC::Une,
        LLVMRealPredicateTrue => FloatCC::True,
    }
}

fn opcode_name(op: LLVMOpcode) -> String {
    format!("{op:?}").trim_start_matches("LLVM").to_lowercase()
}

unsafe fn value_kind(v: LLVMValueRef) -> &'static str {
    if !LLVMIsAConstantExpr(v).is_null() {
        "constant expression"
    } else if !LLVMIsABlockAddress(v).is_null() {
        "block address"
    } else if !LLVMIsAGlobalAlias(v).is_null() {
        "global alias"
    } else if !LLVMIsAConstantTokenNone(v).is_null() {
        "token"
    } else {
        "unknown value"
    }
}

unsafe fn type_string(ty: LLVMTypeRef) -> String {
    let p = LLVMPrintTypeToString(ty);
    let s = CStr::from_ptr(p).to_string_lossy().into_owned();
    LLVMDisposeMessage(p);
    s
}

/// The `nsw`/`nuw` flags of an LLVM instruction `v` with opcode `op` (none
/// for constant expressions, whose flags LLVM's C API cannot read, and for
/// operators that carry none). Clang sets `nsw` where C/C++ signed overflow
/// is undefined behaviour, never on unsigned arithmetic.
unsafe fn no_wrap_flags(v: LLVMValueRef, op: LLVMOpcode) -> NoWrap {
    use LLVMOpcode::*;
    if !matches!(op, LLVMAdd | LLVMSub | LLVMMul | LLVMShl) || LLVMIsAInstruction(v).is_null() {
        return NoWrap::NONE;
    }
    NoWrap { signed: LLVMGetNSW(v) != 0, unsigned: LLVMGetNUW(v) != 0 }
}

#[cfg(test)]
mod tests {
    use super::{base_identifier, stub_kernel_symbol};

    #[test]
    fn base_identifiers_of_mangled_names() {
        assert_eq!(base_identifier("_Z3fooPi"), "foo");
        assert_eq!(base_identifier("_Z15__lockstep_readPU3AS1Kv"), "__lockstep_read");
        assert_eq!(base_identifier("_ZZ1kPiPfiE1s"), "s");
        assert_eq!(base_identifier("_ZN18cooperative_groups4syncEv"), "sync");
        assert_eq!(base_identifier("plain"), "plain");
        assert_eq!(base_identifier("_Z"), "_Z");
        assert_eq!(base_identifier("_Z99x"), "_Z99x");
        assert_eq!(base_identifier("_ZL14add_matrix_gpuPiS_S_i"), "add_matrix_gpu", "a static kernel");
    }

    #[test]
    fn launch_stubs_name_their_kernels() {
        assert_eq!(stub_kernel_symbol("_Z16__device_stub__kPii").as_deref(), Some("_Z1kPii"));
        assert_eq!(stub_kernel_symbol("_Z25__device_stub__vector_addPKiS0_Pii").as_deref(), Some("_Z10vector_addPKiS0_Pii"));
        assert_eq!(stub_kernel_symbol("_ZN2ns21__device_stub__kernelEv").as_deref(), Some("_ZN2ns6kernelEv"));
        assert_eq!(stub_kernel_symbol("__device_stub__c_kernel").as_deref(), Some("c_kernel"));
        assert_eq!(stub_kernel_symbol("_Z3fooPi"), None);
    }
}
