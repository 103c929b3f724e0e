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
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate, LLVMTypeKind};

use lockstep_kir::*;

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

unsafe fn element_size(td: LLVMTargetDataRef, ty: LLVMTypeRef) -> Option<u64> {
    let mut t = ty;
    while LLVMGetTypeKind(t) == LLVMTypeKind::LLVMArrayTypeKind {
        t = LLVMGetElementType(t);
    }
    (LLVMTypeIsSized(t) != 0).then(|| LLVMABISizeOfType(td, t))
}

/// The bytes of a constant initialiser, when it is made of integers,
/// floats and function addresses (enough for `__constant__` tables), and,
/// in a host compilation, addresses of other globals (a table of names):
/// those bytes are left zero and each such pointer is listed with its
/// offset, for `store_initial_pointers` to write at the start of `main`.
unsafe fn constant_bytes(cx: &ModuleCx, c: LLVMValueRef) -> Option<(Vec<u8>, Vec<(usize, LLVMValueRef)>)> {
    let td = cx.td;
    if c.is_null() || LLVMIsUndef(c) != 0 {
        return None;
    }
    let ty = LLVMTypeOf(c);
    let size = LLVMABISizeOfType(td, ty) as usize;
    if size > (1 << 20) {
        return None;
    }
    let mut bytes = vec![0u8; size];
    let mut pointers = Vec::new();
    fill_constant(cx, c, &mut bytes, 0, &mut pointers).then_some((bytes, pointers))
}

unsafe fn fill_constant(cx: &ModuleCx, c: LLVMValueRef, out: &mut [u8], at: usize, pointers: &mut Vec<(usize, LLVMValueRef)>) -> bool {
    let td = cx.td;
    let ty = LLVMTypeOf(c);
    if LLVMIsNull(c) != 0 {
        return true;
    }
    match LLVMGetTypeKind(ty) {
        LLVMTypeKind::LLVMPointerTypeKind if cx.host && !LLVMIsAGlobalVariable(c).is_null() => {
            pointers.push((at, c));
            at + 8 <= out.len()
        }
        // A table of functions (device functions, or library functions
        // such as `cosf`): their addresses as the lowering numbers them.
        LLVMTypeKind::LLVMPointerTypeKind if !LLVMIsAFunction(c).is_null() => match address_of_function(cx, c) {
            Some(a) => out.get_mut(at..at + 8).map(|dst| dst.copy_from_slice(&a.to_le_bytes())).is_some(),
            None => false,
        },
        LLVMTypeKind::LLVMIntegerTypeKind if !LLVMIsAConstantInt(c).is_null() => {
            let v = LLVMConstIntGetZExtValue(c).to_le_bytes();
            let n = LLVMStoreSizeOfType(td, ty) as usize;
            out.get_mut(at..at + n).map(|dst| dst.copy_from_slice(&v[..n])).is_some()
        }
        LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMDoubleTypeKind if !LLVMIsAConstantFP(c).is_null() => {
            let mut lossy = 0;
            let d = LLVMConstRealGetDouble(c, &mut lossy);
            let bytes: Vec<u8> = if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMFloatTypeKind {
                (d as f32).to_le_bytes().to_vec()
            } else {
                d.to_le_bytes().to_vec()
            };
            out.get_mut(at..at + bytes.len()).map(|dst| dst.copy_from_slice(&bytes)).is_some()
        }
        LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
            let elem = LLVMGetElementType(ty);
            let stride = LLVMABISizeOfType(td, elem) as usize;
            let n = if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMArrayTypeKind {
                LLVMGetArrayLength2(ty) as usize
            } else {
                LLVMGetVectorSize(ty) as usize
            };
            (0..n).all(|i| {
                let e = LLVMGetAggregateElement(c, i as u32);
                !e.is_null() && fill_constant(cx, e, out, at + i * stride, pointers)
            })
        }
        LLVMTypeKind::LLVMStructTypeKind => {
            let n = LLVMCountStructElementTypes(ty);
            (0..n).all(|i| {
                let e = LLVMGetAggregateElement(c, i);
                let off = LLVMOffsetOfElement(td, ty, i) as usize;
                !e.is_null() && fill_constant(cx, e, out, at + off, pointers)
            })
        }
        _ => false,
    }
}

unsafe fn file_of_scope(cx: &mut ModuleCx, out: &mut Module, scope: LLVMMetadataRef) -> Option<FileId> {
    if scope.is_null() {
        return None;
    }
    let file = LLVMDIScopeGetFile(scope);
    if file.is_null() {
        return None;
    }
    if let Some(&id) = cx.files.get(&file) {
        return Some(id);
    }
    let mut len = 0u32;
    let name = cstr(LLVMDIFileGetFilename(file, &mut len), len as usize);
    let mut dlen = 0u32;
    let dir = cstr(LLVMDIFileGetDirectory(file, &mut dlen), dlen as usize);
    let path = if name.starts_with('/') || dir.is_empty() { name } else { format!("{dir}/{name}") };
    let id = out.file(&path);
    cx.files.insert(file, id);
    Some(id)
}

/// Where `f` is first called, as the outermost call site of the inlined
/// code around the call (the user's line that led to it).
unsafe fn first_call_site(f: LLVMValueRef) -> Option<(String, u32, u32)> {
    let mut u = LLVMGetFirstUse(f);
    while !u.is_null() {
        let user = LLVMGetUser(u);
        u = LLVMGetNextUse(u);
        if LLVMIsACallInst(user).is_null() {
            continue;
        }
        let mut loc = LLVMInstructionGetDebugLoc(user);
        if loc.is_null() {
            continue;
        }
        loop {
            let outer = LLVMDILocationGetInlinedAt(loc);
            if outer.is_null() {
                break;
            }
            loc = outer;
        }
        let file = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
        if file.is_null() {
            continue;
        }
        let mut len = 0u32;
        let name = cstr(LLVMDIFileGetFilename(file, &mut len), len as usize);
        let mut dlen = 0u32;
        let dir = cstr(LLVMDIFileGetDirectory(file, &mut dlen), dlen as usize);
        let path = if name.starts_with('/') || dir.is_empty() { name } else { format!("{dir}/{name}") };
        return Some((path, LLVMDILocationGetLine(loc), LLVMDILocationGetColumn(loc)));
    }
    None
}

/// The path of the file that defines `f`, from its debug information.
///
/// # Safety
/// `f` must be a function of a valid LLVM module.
pub unsafe fn defining_file(f: LLVMValueRef) -> Option<String> {
    let sp = LLVMGetSubprogram(f);
    if sp.is_null() {
        return None;
    }
    let file = LLVMDIScopeGetFile(sp);
    if file.is_null() {
        return None;
    }
    let mut len = 0u32;
    let name = cstr(LLVMDIFileGetFilename(file, &mut len), len as usize);
    let mut dlen = 0u32;
    let dir = cstr(LLVMDIFileGetDirectory(file, &mut dlen), dlen as usize);
    Some(if name.starts_with('/') || dir.is_empty() { name } else { format!("{dir}/{name}") })
}

unsafe fn subprogram_loc(cx: &mut ModuleCx, out: &mut Module, f: LLVMValueRef) -> Option<SrcLoc> {
    let sp = LLVMGetSubprogram(f);
    if sp.is_null() {
        return None;
    }
    let file = file_of_scope(cx, out, sp)?;
    Some(SrcLoc { file, line: LLVMDISubprogramGetLine(sp), col: 0 })
}

/// The source location of an instruction: the outermost call site when the
/// instruction was inlined, so that reports point at the user's code.
unsafe fn inst_loc(cx: &mut ModuleCx, out: &mut Module, inst: LLVMValueRef) -> Option<SrcLoc> {
    if LLVMIsAInstruction(inst).is_null() {
        return None;
    }
    let mut loc = LLVMInstructionGetDebugLoc(inst);
    if loc.is_null() {
        return None;
    }
    loop {
        let outer = LLVMDILocationGetInlinedAt(loc);
        if outer.is_null() {
            break;
        }
        loc = outer;
    }
    let line = LLVMDILocationGetLine(loc);
    if line == 0 {
        return None;
    }
    let file = file_of_scope(cx, out, LLVMDILocationGetScope(loc))?;
    Some(SrcLoc { file, line, col: LLVMDILocationGetColumn(loc) })
}

/// Per-function lowering state.
struct FnLower<'a> {
    cx: &'a mut ModuleCx,
    module: &'a mut Module,
    llvm_fn: LLVMValueRef,
    f: Function,
    vals: HashMap<LLVMValueRef, Lowered>,
    blocks: HashMap<LLVMBasicBlockRef, BlockId>,
    space_memo: HashMap<LLVMValueRef, Option<MemSpace>>,
    cur: BlockId,
    cur_loc: Option<SrcLoc>,
    /// The pointer of a block-scoped atomic announced by the prelude's
    /// marker (`__lockstep_block_scoped_atomic(p)`), which the next atomic
    /// lowered must be made on (see `CallLowering::atomic_scope`).
    pending_block_scope: Option<LLVMValueRef>,
}

/// `v` without the address-space casts around it: the prelude's marker
/// takes a generic pointer where `infer-address-spaces` may have given the
/// atomic itself a shared one.
unsafe fn without_space_casts(mut v: LLVMValueRef) -> LLVMValueRef {
    loop {
        let cast = if !LLVMIsAAddrSpaceCastInst(v).is_null() {
            true
        } else {
            !LLVMIsAConstantExpr(v).is_null() && LLVMGetConstOpcode(v) == LLVMOpcode::LLVMAddrSpaceCast
        };
        if !cast {
            return v;
        }
        v = LLVMGetOperand(v, 0);
    }
}

impl<'a> FnLower<'a> {
    unsafe fn lower(cx: &'a mut ModuleCx, module: &'a mut Module, llvm_fn: LLVMValueRef, id: FuncId) -> Result<Function> {
        let template = &module.functions[id];
        let mut f = Function::new(template.name.clone(), template.link_name.clone(), template.is_kernel);
        f.loc = template.loc;
        let mut this = FnLower {
            cx,
            module,
            llvm_fn,
            f,
            vals: HashMap::new(),
            blocks: HashMap::new(),
            space_memo: HashMap::new(),
            cur: BlockId::from_u32(0),
            cur_loc: None,
            pending_block_scope: None,
        };
        this.cur = this.f.entry;
        this.lower_signature()?;
        this.lower_body()?;
        if this.pending_block_scope.is_some() {
            return this.unsupported("a block-scoped atomic whose operation does not follow it");
        }
        Ok(this.f)
    }

    fn unsupported<T>(&self, what: impl Into<String>) -> Result<T> {
        let loc = self.cur_loc.or(self.f.loc).map(|l| (self.module.files[l.file].clone(), l.line, l.col));
        Err(Unsupported { what: what.into(), loc })
    }

    unsafe fn lower_signature(&mut self) -> Result<()> {
        let n = LLVMCountParams(self.llvm_fn);
        // A kernel's function-pointer parameter holds whatever the host
        // passes: an integer (see `fnptr`), made a pointer at the entry.
        let function_pointers = if self.f.is_kernel {
            crate::fnptr::function_pointer_params(self.llvm_fn)
        } else {
            vec![false; n as usize]
        };
        for i in 0..n {
            let p = LLVMGetParam(self.llvm_fn, i);
            let name = value_name(p);
            let name = if name.is_empty() { format!("arg{i}") } else { name };
            match self.shape_of_value(p)? {
                Shape::Scalar(ty) if ty.is_ptr() && function_pointers[i as usize] => {
                    let bits = self.f.add_param(name, Type::I64, None);
                    let null = self.zero_of(ty);
                    let v = self.emit_value(InstKind::PtrAdd { base: null, offset: bits }, ty);
                    self.vals.insert(p, Lowered::Scalar(v));
                }
                Shape::Scalar(ty) => {
                    let pointee = ty.is_ptr().then(PointeeInfo::default);
                    let v = self.f.add_param(name, ty, pointee);
                    self.vals.insert(p, Lowered::Scalar(v));
                }
                Shape::Lanes(lanes) => {
                    let vs = lanes
                        .iter()
                        .enumerate()
                        .map(|(k, (ty, _))| self.f.add_param(format!("{name}.{k}"), *ty, None))
                        .collect();
                    self.vals.insert(p, Lowered::Lanes(vs));
                }
                Shape::Void => return self.unsupported("a void parameter"),
            }
        }
        let ret = LLVMGetReturnType(LLVMGlobalGetValueType(self.llvm_fn));
        self.f.ret = match self.shape_of_type(ret, None)? {
            Shape::Void => None,
            Shape::Scalar(ty) => Some(ty),
            Shape::Lanes(_) => return self.unsupported("a function returning a vector or struct by value"),
        };
        Ok(())
    }

    /// The shape of an LLVM type; `space` is the space to give pointers.
    unsafe fn shape_of_type(&self, ty: LLVMTypeRef, space: Option<MemSpace>) -> Result<Shape> {
        let scalar = |ty: LLVMTypeRef| -> Option<Type> {
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMIntegerTypeKind => Some(Type::Int(LLVMGetIntTypeWidth(ty) as u16)),
                LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => Some(Type::Float(16)),
                LLVMTypeKind::LLVMFloatTypeKind => Some(Type::Float(32)),
                LLVMTypeKind::LLVMDoubleTypeKind => Some(Type::Float(64)),
                LLVMTypeKind::LLVMPointerTypeKind => Some(Type::Ptr(
                    space.unwrap_or_else(|| self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)).unwrap_or(MemSpace::Generic)),
                )),
                // OpenCL's `event_t` is an opaque handle: a 64-bit value.
                LLVMTypeKind::LLVMTargetExtTypeKind if type_string(ty).contains("spirv.Event") => Some(Type::I64),
                // OpenCL images and samplers: see `builtins::IMAGE_TYPE`.
                LLVMTypeKind::LLVMTargetExtTypeKind
                    if crate::builtins::image_access_of_type_string(&type_string(ty)).is_some() =>
                {
                    Some(crate::builtins::IMAGE_TYPE)
                }
                LLVMTypeKind::LLVMTargetExtTypeKind if type_string(ty) == "target(\"spirv.Sampler\")" => {
                    Some(crate::builtins::SAMPLER_TYPE)
                }
                _ => None,
            }
        };
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMVoidTypeKind => Ok(Shape::Void),
            LLVMTypeKind::LLVMVectorTypeKind => {
                let elem = LLVMGetElementType(ty);
                let Some(ety) = scalar(elem) else { return self.unsupported("a vector of non-scalar elements") };
                let stride = LLVMABISizeOfType(self.cx.td, elem);
                Ok(Shape::Lanes((0..LLVMGetVectorSize(ty) as u64).map(|i| (ety, i * stride)).collect()))
            }
            LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind => {
                let mut lanes = Vec::new();
                self.flatten(ty, 0, &mut lanes)?;
                if lanes.len() > 64 {
                    return self.unsupported("an aggregate value with more than 64 fields");
                }
                Ok(Shape::Lanes(lanes))
            }
            _ => match scalar(ty) {
                Some(t) => Ok(Shape::Scalar(t)),
                None => self.unsupported(format!("a value of type {}", type_string(ty))),
            },
        }
    }

    unsafe fn flatten(&self, ty: LLVMTypeRef, at: u64, out: &mut Vec<(Type, u64)>) -> Result<()> {
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMStructTypeKind => {
                for i in 0..LLVMCountStructElementTypes(ty) {
                    let field = LLVMStructGetTypeAtIndex(ty, i);
                    self.flatten(field, at + LLVMOffsetOfElement(self.cx.td, ty, i), out)?;
                }
            }
            LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                let elem = LLVMGetElementType(ty);
                let stride = LLVMABISizeOfType(self.cx.td, elem);
                let n = if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMArrayTypeKind {
                    LLVMGetArrayLength2(ty)
                } else {
                    LLVMGetVectorSize(ty) as u64
                };
                if n > 64 {
                    return self.unsupported("an aggregate value with more than 64 fields");
                }
                for i in 0..n {
                    self.flatten(elem, at + i * stride, out)?;
                }
            }
            _ => match self.shape_of_type(ty, None)? {
                Shape::Scalar(t) => out.push((t, at)),
                _ => return self.unsupported(format!("a value of type {}", type_string(ty))),
            },
        }
        Ok(())
    }

    /// The shape of a value, resolving CUDA generic pointers.
    unsafe fn shape_of_value(&mut self, v: LLVMValueRef) -> Result<Shape> {
        let ty = LLVMTypeOf(v);
        if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind {
            let space = self.pointer_space(v).unwrap_or(MemSpace::Generic);
            return self.shape_of_type(ty, Some(space));
        }
        self.shape_of_type(ty, None)
    }

    /// The memory space a pointer value points into, when it can be known
    /// statically. `None` means "no constraint" (null, undef, or a cycle
    /// being resolved); callers treat a final `None` as generic.
    unsafe fn pointer_space(&mut self, v: LLVMValueRef) -> Option<MemSpace> {
        let ty = LLVMTypeOf(v);
        if let Some(space) = self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)) {
            return Some(space);
        }
        if let Some(&memo) = self.space_memo.get(&v) {
            return memo;
        }
        // Provisional answer for cycles through phis.
        self.space_memo.insert(v, None);
        let join = |a: Option<MemSpace>, b: Option<MemSpace>| match (a, b) {
            (None, x) | (x, None) => x,
            (Some(x), Some(y)) if x == y => Some(x),
            _ => Some(MemSpace::Generic),
        };
        let result = if !LLVMIsAArgument(v).is_null() {
            if LLVMGetEnumAttributeAtIndex(self.llvm_fn, param_index(self.llvm_fn, v) + 1, self.cx.byval_kind).is_null() {
                Some(if self.f.is_kernel { MemSpace::Global } else { MemSpace::Generic })
            } else {
                Some(MemSpace::Private)
            }
        } else if !LLVMIsAAllocaInst(v).is_null() {
            Some(MemSpace::Private)
        } else if !LLVMIsAGlobalVariable(v).is_null() {
            Some(if self.cx.host { MemSpace::Private } else { self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)).unwrap_or(MemSpace::Global) })
        } else if LLVMIsNull(v) != 0 || LLVMIsUndef(v) != 0 {
            None
        } else if !LLVMIsAPHINode(v).is_null() {
            let mut acc = None;
            for i in 0..LLVMCountIncoming(v) {
                let s = self.pointer_space(LLVMGetIncomingValue(v, i));
                acc = join(acc, s);
            }
            acc
        } else if !LLVMIsASelectInst(v).is_null() {
            let a = self.pointer_space(LLVMGetOperand(v, 1));
            let b = self.pointer_space(LLVMGetOperand(v, 2));
            join(a, b)
        } else if !LLVMIsAGetElementPtrInst(v).is_null() || !LLVMIsACastInst(v).is_null() {
            let base = LLVMGetOperand(v, 0);
            if LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMTypeKind::LLVMPointerTypeKind {
                self.pointer_space(base)
            } else {
                Some(MemSpace::Generic)
            }
        } else if !LLVMIsAConstantExpr(v).is_null() {
            let base = LLVMGetOperand(v, 0);
            if LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMTypeKind::LLVMPointerTypeKind {
                self.pointer_space(base)
            } else {
                Some(MemSpace::Generic)
            }
        } else {
            Some(MemSpace::Generic)
        };
        self.space_memo.insert(v, result);
        result
    }

    unsafe fn lower_body(&mut self) -> Result<()> {
        let order = reverse_postorder(self.llvm_fn);
        // Create blocks and their parameters (one per phi lane) up front.
        for (i, &bb) in order.iter().enumerate() {
            let block = if i == 0 { self.f.entry } else { self.f.add_block() };
            self.blocks.insert(bb, block);
        }
        for &bb in &order {
            let block = self.blocks[&bb];
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() && !LLVMIsAPHINode(inst).is_null() {
                self.cur_loc = inst_loc(self.cx, self.module, inst);
                let lowered = match self.shape_of_value(inst)? {
                    Shape::Scalar(ty) => {
                        let v = self.f.add_block_param(block, ty);
                        Lowered::Scalar(v)
                    }
                    Shape::Lanes(lanes) => {
                        Lowered::Lanes(lanes.iter().map(|(ty, _)| self.f.add_block_param(block, *ty)).collect())
                    }
                    Shape::Void => return self.unsupported("a void phi"),
                };
                let name = value_name(inst);
                if let Lowered::Scalar(v) = lowered {
                    if !name.is_empty() {
                        self.f.values[v].name = Some(name);
                    }
                }
                self.vals.insert(inst, lowered);
                inst = LLVMGetNextInstruction(inst);
            }
        }
        for &bb in &order {
            self.cur = self.blocks[&bb];
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                self.cur_loc = inst_loc(self.cx, self.module, inst);
                if LLVMIsAPHINode(inst).is_null() {
                    self.lower_inst(inst)?;
                }
                inst = LLVMGetNextInstruction(inst);
            }
        }
        Ok(())
    }

    fn emit(&mut self, kind: InstKind, result: Option<Type>) -> Option<ValueId> {
        self.f.append_inst(self.cur, kind, result, self.cur_loc).1
    }

    fn emit_value(&mut self, kind: InstKind, ty: Type) -> ValueId {
        self.emit(kind, Some(ty)).expect("an instruction with a result type defines a value")
    }

    fn const_int(&mut self, ty: Type, bits: u128) -> ValueId {
        self.f.const_int(ty, bits)
    }

    /// Converts `v` to `ty` where the two differ only in pointer space or
    /// the IR expects a boolean where C gave an integer.
    fn coerce(&mut self, v: ValueId, ty: Type) -> ValueId {
        let have = self.f.value_type(v);
        if have == ty {
            return v;
        }
        match (have, ty) {
            (Type::Ptr(_), Type::Ptr(_)) => self.emit_value(InstKind::Cast { op: CastOp::AddrSpaceCast, arg: v }, ty),
            (Type::Int(w), Type::Int(1)) if w > 1 => {
                let zero = self.const_int(have, 0);
                self.emit_value(InstKind::Icmp { cc: IntCC::Ne, lhs: v, rhs: zero }, Type::BOOL)
            }
            (Type::Int(a), Type::Int(b)) if a < b => self.emit_value(InstKind::Cast { op: CastOp::Zext, arg: v }, ty),
            (Type::Int(a), Type::Int(b)) if a > b => self.emit_value(InstKind::Cast { op: CastOp::Trunc, arg: v }, ty),
            _ => v,
        }
    }

    /// A condition as a boolean.
    fn to_bool(&mut self, v: ValueId) -> ValueId {
        self.coerce(v, Type::BOOL)
    }

    unsafe fn operand(&mut self, v: LLVMValueRef) -> Result<Lowered> {
        if let Some(l) = self.vals.get(&v) {
            return Ok(l.clone());
        }
        if LLVMIsConstant(v) == 0 {
            if !LLVMIsAInstruction(v).is_null() {
                return self.unsupported("a value used where its definition does not dominate");
            }
            return self.unsupported(format!("an operand of kind {}", value_kind(v)));
        }
        let shape = self.shape_of_value(v)?;
        // Constants are not memoised: a constant expression is lowered into
        // instructions at each use, so it must dominate that use.
        match shape {
            Shape::Void => self.unsupported("a void constant"),
            Shape::Scalar(ty) => Ok(Lowered::Scalar(self.scalar_constant(v, ty)?)),
            Shape::Lanes(lanes) => {
                // A vector constant expression (a bitcast of a constant
                // vector that SROA left behind) is lowered like the
                // instruction it stands for.
                if !LLVMIsAConstantExpr(v).is_null() && LLVMIsUndef(v) == 0 && LLVMIsPoison(v) == 0 {
                    let op = LLVMGetConstOpcode(v);
                    return match self.lower_operation(v, op)? {
                        Some(Lowered::Lanes(xs)) if xs.len() == lanes.len() => Ok(Lowered::Lanes(xs)),
                        _ => self.unsupported("a constant expression of vector or struct type"),
                    };
                }
                let mut out = Vec::new();
                for (i, (ty, _)) in lanes.iter().enumerate() {
                    if LLVMIsUndef(v) != 0 || LLVMIsPoison(v) != 0 {
                        out.push(self.f.make_value(*ty, ValueDef::Undef));
                    } else if LLVMIsNull(v) != 0 {
                        out.push(self.zero_of(*ty));
                    } else if !LLVMIsAConstantExpr(v).is_null() {
                        return self.unsupported("a constant expression of vector or struct type");
                    } else {
                        let e = LLVMGetAggregateElement(v, i as u32);
                        if e.is_null() || LLVMGetTypeKind(LLVMTypeOf(e)) == LLVMTypeKind::LLVMStructTypeKind {
                            return self.unsupported("a nested aggregate constant");
                        }
                        out.push(self.scalar_constant(e, *ty)?);
                    }
                }
                Ok(Lowered::Lanes(out))
            }
        }
    }

    fn zero_of(&mut self, ty: Type) -> ValueId {
        match ty {
            Type::Ptr(_) => self.f.make_value(ty, ValueDef::Null),
            _ => self.f.make_value(ty, ValueDef::Const(0)),
        }
    }

    unsafe fn scalar(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        match self.operand(v)? {
            Lowered::Scalar(x) => Ok(x),
            Lowered::Lanes(_) => self.unsupported("a vector or struct value where a scalar is expected"),
        }
    }

    unsafe fn lanes(&mut self, v: LLVMValueRef) -> Result<Vec<ValueId>> {
        Ok(match self.operand(v)? {
            Lowered::Scalar(x) => vec![x],
            Lowered::Lanes(xs) => xs,
        })
    }

    unsafe fn scalar_constant(&mut self, v: LLVMValueRef, ty: Type) -> Result<ValueId> {
        if LLVMIsUndef(v) != 0 || LLVMIsPoison(v) != 0 {
            return Ok(self.f.make_value(ty, ValueDef::Undef));
        }
        if !LLVMIsAConstantInt(v).is_null() {
            if ty.bits() > 64 {
                return self.unsupported("an integer constant wider than 64 bits");
            }
            return Ok(self.const_int(ty, LLVMConstIntGetZExtValue(v) as u128));
        }
        if !LLVMIsAConstantFP(v).is_null() {
            let mut lossy = 0;
            let d = LLVMConstRealGetDouble(v, &mut lossy);
            let bits = match ty.bits() {
                32 => (d as f32).to_bits() as u128,
                64 => d.to_bits() as u128,
                16 => half_bits(d as f32) as u128,
                _ => return self.unsupported("a float constant of unusual width"),
            };
            return Ok(self.f.make_value(ty, ValueDef::Const(bits)));
        }
        if LLVMIsNull(v) != 0 {
            return Ok(self.zero_of(ty));
        }
        if !LLVMIsAGlobalVariable(v).is_null() {
            return match self.cx.globals.get(&v) {
                Some(&g) => Ok(self.f.make_value(ty, ValueDef::GlobalAddr(g))),
                None => self.unsupported(format!("the address of `{}`", value_name(v))),
            };
        }
        if !LLVMIsAFunction(v).is_null() {
            // A function's address: an integer that is no object's address
            // (see `FUNCTION_ADDRESS_BASE`); indirect calls compare with it.
            // A library function without a body (`cosf`) has an address of
            // its own; a call through it is a call of the function by name.
            let Some(address) = address_of_function(self.cx, v) else {
                return self.unsupported(format!("a pointer to function `{}`, which has no body", base_identifier(&value_name(v))));
            };
            let bits = self.const_int(Type::I64, address as u128);
            return Ok(self.emit_value(InstKind::Cast { op: CastOp::IntToPtr, arg: bits }, ty));
        }
        if !LLVMIsAConstantExpr(v).is_null() {
            let op = LLVMGetConstOpcode(v);
            return match self.lower_operation(v, op)? {
                Some(Lowered::Scalar(x)) => Ok(x),
                _ => self.unsupported("a constant expression of vector type"),
            };
        }
        self.unsupported(format!("a constant of kind {}", value_kind(v)))
    }

    /// Lowers one instruction (not a phi).
    unsafe fn lower_inst(&mut self, inst: LLVMValueRef) -> Result<()> {
        let op = LLVMGetInstructionOpcode(inst);
        use LLVMOpcode::*;
        match op {
            LLVMRet => {
                let value = if LLVMGetNumOperands(inst) > 0 {
                    let v = self.scalar(LLVMGetOperand(inst, 0))?;
                    let ty = self.f.ret.unwrap_or(self.f.value_type(v));
                    Some(self.coerce(v, ty))
                } else {
                    None
                };
                self.f.set_terminator(self.cur, Terminator::Return(value), self.cur_loc);
            }
            LLVMBr => {
                let bb = LLVMGetInstructionParent(inst);
                if LLVMIsConditional(inst) != 0 {
                    let c = self.scalar(LLVMGetCondition(inst))?;
                    let cond = self.to_bool(c);
                    let then_dest = self.block_call(bb, LLVMGetSuccessor(inst, 0))?;
                    let else_dest = self.block_call(bb, LLVMGetSuccessor(inst, 1))?;
                    self.f.set_terminator(self.cur, Terminator::Branch { cond, then_dest, else_dest }, self.cur_loc);
                } else {
                    let dest = self.block_call(bb, LLVMGetSuccessor(inst, 0))?;
                    self.f.set_terminator(self.cur, Terminator::Jump(dest), self.cur_loc);
                }
            }
            LLVMUnreachable => self.f.set_terminator(self.cur, Terminator::Unreachable, self.cur_loc),
            LLVMSwitch => return self.unsupported("a switch statement that was not lowered"),
            // Host C++ calls that may throw (`new` of a class, anything with
            // a destructor in scope): the call, then its normal successor.
            // The unwinding successor is never lowered (`reverse_postorder`
            // does not follow it), and a throw stops the host run as
            // unsupported (the host model of `__cxa_throw`), so a run never
            // goes on past an exception as if the call had returned.
            LLVMInvoke if self.cx.host => {
                self.lower_call(inst)?;
                let bb = LLVMGetInstructionParent(inst);
                let dest = self.block_call(bb, LLVMGetNormalDest(inst))?;
                self.f.set_terminator(self.cur, Terminator::Jump(dest), self.cur_loc);
            }
            LLVMIndirectBr | LLVMInvoke | LLVMCallBr | LLVMResume | LLVMLandingPad | LLVMCleanupRet | LLVMCatchRet
            | LLVMCatchPad | LLVMCleanupPad | LLVMCatchSwitch => {
                return self.unsupported(format!("the `{}` instruction (exceptions or computed goto)", opcode_name(op)))
            }
            LLVMAlloca => {
                let ty = LLVMGetAllocatedType(inst);
                let count_v = LLVMGetOperand(inst, 0);
                if LLVMIsAConstantInt(count_v).is_null() {
                    return self.unsupported("a variable-length array");
                }
                let count = LLVMConstIntGetZExtValue(count_v);
                let size = LLVMABISizeOfType(self.cx.td, ty) * count;
                let name = value_name(inst);
                let local = self.f.locals.push(MemObject {
                    name: if name.is_empty() { "local".into() } else { name },
                    space: MemSpace::Private,
                    size: Some(size),
                    align: LLVMGetAlignment(inst),
                    elem_size: element_size(self.cx.td, ty),
                    init: None,
                    loc: self.cur_loc,
                });
                let v = self.f.make_value(Type::Ptr(MemSpace::Private), ValueDef::LocalAddr(local));
                self.vals.insert(inst, Lowered::Scalar(v));
            }
            LLVMCall => self.lower_call(inst)?,
            _ => {
                if let Some(l) = self.lower_operation(inst, op)? {
                    if let Lowered::Scalar(v) = l {
                        let name = value_name(inst);
                        if !name.is_empty() && self.f.values[v].name.is_none() && matches!(self.f.values[v].def, ValueDef::Inst(_)) {
                            self.f.values[v].name = Some(name);
                        }
                    }
                    self.vals.insert(inst, l);
                }
            }
        }
        Ok(())
    }

    /// The branch from `from` to `to`, passing the phi values of `to`.
    unsafe fn block_call(&mut self, from: LLVMBasicBlockRef, to: LLVMBasicBlockRef) -> Result<BlockCall> {
        let block = self.blocks[&to];
        let params = self.f.blocks[block].params.clone();
        let mut args = Vec::new();
        let mut inst = LLVMGetFirstInstruction(to);
        while !inst.is_null() && !LLVMIsAPHINode(inst).is_null() {
            let mut found = None;
            for i in 0..LLVMCountIncoming(inst) {
                if LLVMGetIncomingBlock(inst, i) == from {
                    found = Some(LLVMGetIncomingValue(inst, i));
                    break;
                }
            }
            let Some(incoming) = found else { return self.unsupported("a phi without a value for one of its predecessors") };
            let lanes = self.lanes(incoming)?;
            args.extend(lanes);
            inst = LLVMGetNextInstruction(inst);
        }
        if args.len() != params.len() {
            return self.unsupported("a phi whose incoming value has the wrong shape");
        }
        for (arg, param) in args.iter_mut().zip(&params) {
            let ty = self.f.value_type(*param);
            *arg = self.coerce(*arg, ty);
        }
        Ok(BlockCall { block, args })
    }

    /// Lowers an instruction or constant expression that computes a value.
    /// Returns `None` for instructions without a result.
    unsafe fn lower_operation(&mut self, v: LLVMValueRef, op: LLVMOpcode) -> Result<Option<Lowered>> {
        use LLVMOpcode::*;
        let result = match op {
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr
            | LLVMAnd | LLVMOr | LLVMXor => {
                let bop = match op {
                    LLVMAdd => BinOp::Add,
                    LLVMSub => BinOp::Sub,
                    LLVMMul => BinOp::Mul,
                    LLVMUDiv => BinOp::UDiv,
                    LLVMSDiv => BinOp::SDiv,
                    LLVMURem => BinOp::URem,
                    LLVMSRem => BinOp::SRem,
                    LLVMShl => BinOp::Shl,
                    LLVMLShr => BinOp::LShr,
                    LLVMAShr => BinOp::AShr,
                    LLVMAnd => BinOp::And,
                    LLVMOr => BinOp::Or,
                    _ => BinOp::Xor,
                };
                let no_wrap = no_wrap_flags(v, op);
                self.lanewise2(v, |this, a, b| {
                    let ty = this.f.value_type(a);
                    let r = this.emit_value(InstKind::Binary { op: bop, lhs: a, rhs: b }, ty);
                    if !no_wrap.is_none() {
                        if let ValueDef::Inst(inst) = this.f.values[r].def {
                            this.f.no_wrap.set(inst, no_wrap);
                        }
                    }
                    r
                })?
            }
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem => {
                let fop = match op {
                    LLVMFAdd => FloatOp::Add,
                    LLVMFSub => FloatOp::Sub,
                    LLVMFMul => FloatOp::Mul,
                    LLVMFDiv => FloatOp::Div,
                    _ => FloatOp::Rem,
                };
                self.lanewise2(v, |this, a, b| {
                    let ty = this.f.value_type(a);
                    this.emit_value(InstKind::Float { op: fop, args: vec![a, b] }, ty)
                })?
            }
            LLVMFNeg => {
                let xs = self.lanes(LLVMGetOperand(v, 0))?;
                let out: Vec<_> = xs
                    .into_iter()
                    .map(|a| {
                        let ty = self.f.value_type(a);
                        self.emit_value(InstKind::Float { op: FloatOp::Neg, args: vec![a] }, ty)
                    })
                    .collect();
                self.pack(v, out)
            }
            LLVMICmp => {
                let cc = int_cc(LLVMGetICmpPredicate(v));
                self.lanewise2(v, |this, a, b| {
                    let (a, b) = this.unify_pointers(a, b);
                    this.emit_value(InstKind::Icmp { cc, lhs: a, rhs: b }, Type::BOOL)
                })?
            }
            LLVMFCmp => {
                let cc = float_cc(LLVMGetFCmpPredicate(v));
                self.lanewise2(v, |this, a, b| this.emit_value(InstKind::Fcmp { cc, lhs: a, rhs: b }, Type::BOOL))?
            }
            LLVMSelect => {
                let conds = self.lanes(LLVMGetOperand(v, 0))?;
                let xs = self.lanes(LLVMGetOperand(v, 1))?;
                let ys = self.lanes(LLVMGetOperand(v, 2))?;
                let shape = self.shape_of_value(v)?;
                let tys: Vec<Type> = match &shape {
                    Shape::Scalar(t) => vec![*t],
                    Shape::Lanes(l) => l.iter().map(|(t, _)| *t).collect(),
                    Shape::Void => return self.unsupported("a void select"),
                };
                if xs.len() != tys.len() || ys.len() != tys.len() {
                    return self.unsupported("a select of mismatched shapes");
                }
                let mut out = Vec::new();
                for i in 0..tys.len() {
                    let c = conds[if conds.len() == 1 { 0 } else { i }];
                    let cond = self.to_bool(c);
                    let a = self.coerce(xs[i], tys[i]);
                    let b = self.coerce(ys[i], tys[i]);
                    out.push(self.emit_value(InstKind::Select { cond, then_value: a, else_value: b }, tys[i]));
                }
                self.pack(v, out)
            }
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc
            | LLVMFPExt | LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast | LLVMAddrSpaceCast => self.lower_cast(v, op)?,
            LLVMGetElementPtr => Lowered::Scalar(self.lower_gep(v)?),
            LLVMFreeze => self.operand(LLVMGetOperand(v, 0))?,
            LLVMLoad => {
                let ptr = self.scalar(LLVMGetOperand(v, 0))?;
                let align = LLVMGetAlignment(v);
                match self.shape_of_value(v)? {
                    Shape::Scalar(ty) => Lowered::Scalar(self.emit_value(InstKind::Load { ptr, align }, ty)),
                    Shape::Lanes(lanes) => {
                        let mut out = Vec::new();
                        for (ty, off) in lanes {
                            let p = self.offset_ptr(ptr, off);
                            out.push(self.emit_value(InstKind::Load { ptr: p, align: lane_align(align, off) }, ty));
                        }
                        Lowered::Lanes(out)
                    }
                    Shape::Void => return self.unsupported("a void load"),
                }
            }
            LLVMStore => {
                let value = LLVMGetOperand(v, 0);
                let ptr = self.scalar(LLVMGetOperand(v, 1))?;
                let align = LLVMGetAlignment(v);
                match self.shape_of_type(LLVMTypeOf(value), Some(MemSpace::Generic))? {
                    Shape::Scalar(_) => {
                        let x = self.scalar(value)?;
                        self.emit(InstKind::Store { ptr, value: x, align }, None);
                    }
                    Shape::Lanes(lanes) => {
                        let xs = self.lanes(value)?;
                        for ((_, off), x) in lanes.into_iter().zip(xs) {
                            let p = self.offset_ptr(ptr, off);
                            self.emit(InstKind::Store { ptr: p, value: x, align: lane_align(align, off) }, None);
                        }
                    }
                    Shape::Void => return self.unsupported("a void store"),
                }
                return Ok(None);
            }
            LLVMAtomicRMW => {
                let aop = match LLVMGetAtomicRMWBinOp(v) {
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXchg => AtomicOp::Xchg,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd => AtomicOp::Add,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpSub => AtomicOp::Sub,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAnd => AtomicOp::And,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpOr => AtomicOp::Or,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXor => AtomicOp::Xor,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpMax => AtomicOp::Max,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpMin => AtomicOp::Min,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUMax => AtomicOp::UMax,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUMin => AtomicOp::UMin,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd => AtomicOp::FAdd,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFSub => AtomicOp::FSub,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUIncWrap => AtomicOp::UIncWrap,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUDecWrap => AtomicOp::UDecWrap,
                    other => return self.unsupported(format!("the atomic operation {other:?}")),
                };
                let scope = self.atomic_scope(LLVMGetOperand(v, 0))?;
                let ptr = self.scalar(LLVMGetOperand(v, 0))?;
                let value = self.scalar(LLVMGetOperand(v, 1))?;
                let ty = self.f.value_type(value);
                Lowered::Scalar(self.emit_value(InstKind::Atomic { op: aop, ptr, value, scope }, ty))
            }
            LLVMAtomicCmpXchg => {
                let scope = self.atomic_scope(LLVMGetOperand(v, 0))?;
                let ptr = self.scalar(LLVMGetOperand(v, 0))?;
                let expected = self.scalar(LLVMGetOperand(v, 1))?;
                let new = self.scalar(LLVMGetOperand(v, 2))?;
                let ty = self.f.value_type(new);
                let expected = self.coerce(expected, ty);
                let old = self.emit_value(InstKind::CmpXchg { ptr, expected, new, scope }, ty);
                let ok = self.emit_value(InstKind::Icmp { cc: IntCC::Eq, lhs: old, rhs: expected }, Type::BOOL);
                Lowered::Lanes(vec![old, ok])
            }
            LLVMFence => {
                self.emit(InstKind::Fence { fence: FenceFlags { shared: true, global: true } }, None);
                return Ok(None);
            }
            LLVMExtractValue | LLVMInsertValue => return self.lower_aggregate_op(v, op).map(Some),
            LLVMExtractElement => {
                let xs = self.lanes(LLVMGetOperand(v, 0))?;
                let idx = LLVMGetOperand(v, 1);
                if LLVMIsAConstantInt(idx).is_null() {
                    return self.unsupported("a vector element selected by a variable index");
                }
                let i = LLVMConstIntGetZExtValue(idx) as usize;
                match xs.get(i) {
                    Some(&x) => Lowered::Scalar(x),
                    None => Lowered::Scalar(self.undef_like(v)?),
                }
            }
            LLVMInsertElement => {
                let mut xs = self.lanes(LLVMGetOperand(v, 0))?;
                let x = self.scalar(LLVMGetOperand(v, 1))?;
                let idx = LLVMGetOperand(v, 2);
                if LLVMIsAConstantInt(idx).is_null() {
                    return self.unsupported("a vector element written at a variable index");
                }
                let i = LLVMConstIntGetZExtValue(idx) as usize;
                if i < xs.len() {
                    xs[i] = x;
                }
                Lowered::Lanes(xs)
            }
            LLVMShuffleVector => {
                let a = self.lanes(LLVMGetOperand(v, 0))?;
                let b = self.lanes(LLVMGetOperand(v, 1))?;
                let n = LLVMGetNumMaskElements(v);
                let elem_ty = match self.shape_of_value(v)? {
                    Shape::Lanes(l) if !l.is_empty() => l[0].0,
                    _ => return self.unsupported("a shufflevector of unusual shape"),
                };
                let mut out = Vec::new();
                for i in 0..n {
                    let m = LLVMGetMaskValue(v, i);
                    let lane = if m < 0 {
                        self.f.make_value(elem_ty, ValueDef::Undef)
                    } else if (m as usize) < a.len() {
                        a[m as usize]
                    } else {
                        match b.get(m as usize - a.len()) {
                            Some(&x) => x,
                            None => self.f.make_value(elem_ty, ValueDef::Undef),
                        }
                    };
                    out.push(lane);
                }
                Lowered::Lanes(out)
            }
            LLVMVAArg => return self.unsupported("variadic arguments"),
            other => return self.unsupported(format!("the `{}` instruction", opcode_name(other))),
        };
        Ok(Some(result))
    }

    unsafe fn undef_like(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        match self.shape_of_value(v)? {
            Shape::Scalar(ty) => Ok(self.f.make_value(ty, ValueDef::Undef)),
            _ => self.unsupported("an undefined aggregate"),
        }
    }

    /// Packs lanes into the shape of `v`: a scalar when `v` is a scalar.
    unsafe fn pack(&self, v: LLVMValueRef, xs: Vec<ValueId>) -> Lowered {
        let kind = LLVMGetTypeKind(LLVMTypeOf(v));
        if matches!(kind, LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind) {
            Lowered::Lanes(xs)
        } else {
            Lowered::Scalar(xs[0])
        }
    }

    unsafe fn lanewise2(
        &mut self,
        v: LLVMValueRef,
        mut f: impl FnMut(&mut Self, ValueId, ValueId) -> ValueId,
    ) -> Result<Lowered> {
        let xs = self.lanes(LLVMGetOperand(v, 0))?;
        let ys = self.lanes(LLVMGetOperand(v, 1))?;
        if xs.len() != ys.len() {
            return self.unsupported("operands of different vector lengths");
        }
        let out: Vec<_> = xs.into_iter().zip(ys).map(|(a, b)| f(self, a, b)).collect();
        Ok(self.pack(v, out))
    }

    /// Gives two pointers one type (generic if their spaces differ).
    fn unify_pointers(&mut self, a: ValueId, b: ValueId) -> (ValueId, ValueId) {
        match (self.f.value_type(a), self.f.value_type(b)) {
            (Type::Ptr(x), Type::Ptr(y)) if x != y => {
                let g = Type::Ptr(MemSpace::Generic);
                (self.coerce(a, g), self.coerce(b, g))
            }
            _ => (a, b),
        }
    }

    fn offset_ptr(&mut self, ptr: ValueId, off: u64) -> ValueId {
        if off == 0 {
            return ptr;
        }
        let ty = self.f.value_type(ptr);
        let offset = self.const_int(Type::I64, off as u128);
        self.emit_value(InstKind::PtrAdd { base: ptr, offset }, ty)
    }

    unsafe fn lower_cast(&mut self, v: LLVMValueRef, op: LLVMOpcode) -> Result<Lowered> {
        use LLVMOpcode::*;
        let src = LLVMGetOperand(v, 0);
        let xs = self.lanes(src)?;
        let dst_shape = self.shape_of_value(v)?;
        let dst_tys: Vec<Type> = match &dst_shape {
            Shape::Scalar(t) => vec![*t],
            Shape::Lanes(l) => l.iter().map(|(t, _)| *t).collect(),
            Shape::Void => return self.unsupported("a cast to void"),
        };
        if xs.len() != dst_tys.len() {
            if op != LLVMBitCast {
                return self.unsupported("a cast that changes the number of vector lanes");
            }
            let out = self.relane_bitcast(xs, &dst_tys)?;
            return Ok(self.pack(v, out));
        }
        let cop = match op {
            LLVMTrunc => CastOp::Trunc,
            LLVMZExt => CastOp::Zext,
            LLVMSExt => CastOp::Sext,
            LLVMFPToUI => CastOp::FpToUi,
            LLVMFPToSI => CastOp::FpToSi,
            LLVMUIToFP => CastOp::UiToFp,
            LLVMSIToFP => CastOp::SiToFp,
            LLVMFPTrunc => CastOp::FpTrunc,
            LLVMFPExt => CastOp::FpExt,
            LLVMPtrToInt => CastOp::PtrToInt,
            LLVMIntToPtr => CastOp::IntToPtr,
            LLVMAddrSpaceCast => CastOp::AddrSpaceCast,
            _ => CastOp::Bitcast,
        };
        let mut out = Vec::new();
        for (x, ty) in xs.into_iter().zip(dst_tys) {
            let have = self.f.value_type(x);
            let lowered = match cop {
                // A cast to the same type (a pointer bitcast, or an address
                // space cast that resolution already made a no-op) is the
                // value itself.
                _ if have == ty => x,
                CastOp::AddrSpaceCast | CastOp::Bitcast if have.is_ptr() && ty.is_ptr() => {
                    self.emit_value(InstKind::Cast { op: CastOp::AddrSpaceCast, arg: x }, ty)
                }
                CastOp::Bitcast if have.bits() != ty.bits() || have.is_ptr() || ty.is_ptr() => {
                    return self.unsupported("a bitcast between types of different sizes");
                }
                _ => self.emit_value(InstKind::Cast { op: cop, arg: x }, ty),
            };
            out.push(lowered);
        }
        Ok(self.pack(v, out))
    }

    /// A bitcast between vectors (or a vector and a scalar) of equal size
    /// but different lane counts, such as `<4 x float>` to `<16 x i8>` or
    /// `<2 x i32>` to `i64`, lowered into per-lane integer arithmetic so
    /// that the later stages see only same-width bitcasts, shifts,
    /// truncations and extensions. Every source lane is cut into pieces of
    /// the greatest common width of all lanes and the pieces are joined
    /// again into the destination lanes; the targets are little-endian
    /// (spir64, nvptx), so lane 0 holds the lowest bits of the whole.
    fn relane_bitcast(&mut self, xs: Vec<ValueId>, dst_tys: &[Type]) -> Result<Vec<ValueId>> {
        let src_tys: Vec<Type> = xs.iter().map(|&x| self.f.value_type(x)).collect();
        if src_tys.iter().chain(dst_tys).any(|t| t.is_ptr()) {
            return self.unsupported("a bitcast that changes the number of vector lanes of pointers");
        }
        let total = |tys: &[Type]| tys.iter().map(|t| t.bits() as u64).sum::<u64>();
        if total(&src_tys) != total(dst_tys) {
            return self.unsupported("a bitcast between types of different sizes");
        }
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        let piece = src_tys.iter().chain(dst_tys).fold(0u32, |g, t| gcd(g, t.bits()));
        let piece_ty = Type::Int(piece as u16);
        let mut pieces = Vec::new();
        for (&x, &ty) in xs.iter().zip(&src_tys) {
            let int_ty = Type::Int(ty.bits() as u16);
            let x = if ty == int_ty { x } else { self.emit_value(InstKind::Cast { op: CastOp::Bitcast, arg: x }, int_ty) };
            for k in 0..ty.bits() / piece {
                let shifted = if k == 0 {
                    x
                } else {
                    let amount = self.const_int(int_ty, (k * piece) as u128);
                    self.emit_value(InstKind::Binary { op: BinOp::LShr, lhs: x, rhs: amount }, int_ty)
                };
                pieces.push(if int_ty == piece_ty { shifted } else { self.emit_value(InstKind::Cast { op: CastOp::Trunc, arg: shifted }, piece_ty) });
            }
        }
        let mut pieces = pieces.into_iter();
        let mut out = Vec::new();
        for &ty in dst_tys {
            let int_ty = Type::Int(ty.bits() as u16);
            let mut acc: Option<ValueId> = None;
            for k in 0..ty.bits() / piece {
                let p = pieces.next().expect("the pieces cover the destination lanes, whose sizes add up to the source's");
                let wide = if int_ty == piece_ty { p } else { self.emit_value(InstKind::Cast { op: CastOp::Zext, arg: p }, int_ty) };
                let placed = if k == 0 {
                    wide
                } else {
                    let amount = self.const_int(int_ty, (k * piece) as u128);
                    self.emit_value(InstKind::Binary { op: BinOp::Shl, lhs: wide, rhs: amount }, int_ty)
                };
                acc = Some(match acc {
                    None => placed,
                    Some(a) => self.emit_value(InstKind::Binary { op: BinOp::Or, lhs: a, rhs: placed }, int_ty),
                });
            }
            let lane = acc.expect("a lane has at least one piece");
            out.push(if ty == int_ty { lane } else { self.emit_value(InstKind::Cast { op: CastOp::Bitcast, arg: lane }, ty) });
        }
        Ok(out)
    }

    /// `getelementptr` as byte arithmetic on the base pointer.
    unsafe fn lower_gep(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        let base = self.scalar(LLVMGetOperand(v, 0))?;
        if LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMTypeKind::LLVMVectorTypeKind {
            return self.unsupported("a vector of pointers");
        }
        let mut ty = LLVMGetGEPSourceElementType(v);
        let n = LLVMGetNumOperands(v);
        let mut constant: i64 = 0;
        let mut variable: Option<ValueId> = None;
        for i in 1..n {
            let idx = LLVMGetOperand(v, i as u32);
            let stride: u64;
            if i == 1 {
                stride = LLVMABISizeOfType(self.cx.td, ty);
            } else {
                match LLVMGetTypeKind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        if LLVMIsAConstantInt(idx).is_null() {
                            return self.unsupported("a struct field selected by a variable");
                        }
                        let field = LLVMConstIntGetZExtValue(idx) as u32;
                        constant = constant.wrapping_add(LLVMOffsetOfElement(self.cx.td, ty, field) as i64);
                        ty = LLVMStructGetTypeAtIndex(ty, field);
                        continue;
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        ty = LLVMGetElementType(ty);
                        stride = LLVMABISizeOfType(self.cx.td, ty);
                    }
                    _ => return self.unsupported("a getelementptr into a non-aggregate type"),
                }
            }
            if !LLVMIsAConstantInt(idx).is_null() {
                let k = LLVMConstIntGetSExtValue(idx);
                constant = constant.wrapping_add(k.wrapping_mul(stride as i64));
                continue;
            }
            let x = self.scalar(idx)?;
            let x = match self.f.value_type(x) {
                Type::Int(64) => x,
                Type::Int(w) if w < 64 => self.emit_value(InstKind::Cast { op: CastOp::Sext, arg: x }, Type::I64),
                Type::Int(_) => self.emit_value(InstKind::Cast { op: CastOp::Trunc, arg: x }, Type::I64),
                _ => return self.unsupported("a non-integer getelementptr index"),
            };
            let scaled = if stride == 1 {
                x
            } else {
                let k = self.const_int(Type::I64, stride as u128);
                self.emit_value(InstKind::Binary { op: BinOp::Mul, lhs: x, rhs: k }, Type::I64)
            };
            variable = Some(match variable {
                None => scaled,
                Some(acc) => self.emit_value(InstKind::Binary { op: BinOp::Add, lhs: acc, rhs: scaled }, Type::I64),
            });
        }
        let offset = match (variable, constant) {
            (None, 0) => {
                let want = match self.shape_of_value(v)? {
                    Shape::Scalar(t) => t,
                    _ => return self.unsupported("a getelementptr of unusual shape"),
                };
                return Ok(self.coerce(base, want));
            }
            (None, k) => self.const_int(Type::I64, k as u64 as u128),
            (Some(x), 0) => x,
            (Some(x), k) => {
                let kv = self.const_int(Type::I64, k as u64 as u128);
                self.emit_value(InstKind::Binary { op: BinOp::Add, lhs: x, rhs: kv }, Type::I64)
            }
        };
        let ty = self.f.value_type(base);
        let p = self.emit_value(InstKind::PtrAdd { base, offset }, ty);
        let want = match self.shape_of_value(v)? {
            Shape::Scalar(t) => t,
            _ => ty,
        };
        Ok(self.coerce(p, want))
    }

    unsafe fn lower_aggregate_op(&mut self, v: LLVMValueRef, op: LLVMOpcode) -> Result<Lowered> {
        let agg = LLVMGetOperand(v, 0);
        let agg_ty = LLVMTypeOf(agg);
        let n = LLVMGetNumIndices(v) as usize;
        let idx = std::slice::from_raw_parts(LLVMGetIndices(v), n).to_vec();
        // The range of flattened lanes that the index path selects.
        let (start, len) = self.lane_range(agg_ty, &idx)?;
        let lanes = self.lanes(agg)?;
        if op == LLVMOpcode::LLVMExtractValue {
            let picked = lanes.get(start..start + len).map(|s| s.to_vec());
            let Some(picked) = picked else { return self.unsupported("an extractvalue out of range") };
            Ok(if len == 1 && matches!(self.shape_of_value(v)?, Shape::Scalar(_)) {
                Lowered::Scalar(picked[0])
            } else {
                Lowered::Lanes(picked)
            })
        } else {
            let mut lanes = lanes;
            let inserted = self.lanes(LLVMGetOperand(v, 1))?;
            if inserted.len() != len || start + len > lanes.len() {
                return self.unsupported("an insertvalue of mismatched shape");
            }
            lanes[start..start + len].copy_from_slice(&inserted);
            Ok(Lowered::Lanes(lanes))
        }
    }

    unsafe fn lane_count(&self, ty: LLVMTypeRef) -> Result<usize> {
        Ok(match self.shape_of_type(ty, Some(MemSpace::Generic))? {
            Shape::Scalar(_) => 1,
            Shape::Lanes(l) => l.len(),
            Shape::Void => 0,
        })
    }

    unsafe fn lane_range(&self, mut ty: LLVMTypeRef, path: &[u32]) -> Result<(usize, usize)> {
        let mut start = 0;
        for &i in path {
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    for k in 0..i {
                        start += self.lane_count(LLVMStructGetTypeAtIndex(ty, k))?;
                    }
                    ty = LLVMStructGetTypeAtIndex(ty, i);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    let elem = LLVMGetElementType(ty);
                    start += i as usize * self.lane_count(elem)?;
                    ty = elem;
                }
                _ => return self.unsupported("an aggregate index into a scalar"),
            }
        }
        Ok((start, self.lane_count(ty)?))
    }

    unsafe fn lower_call(&mut self, call: LLVMValueRef) -> Result<()> {
        let callee = LLVMGetCalledValue(call);
        if !LLVMIsAInlineAsm(callee).is_null() {
            let nargs = LLVMGetNumArgOperands(call);
            let args: Vec<LLVMValueRef> = (0..nargs).map(|i| LLVMGetOperand(call, i)).collect();
            return crate::ptx::lower_inline_asm(self, call, callee, &args);
        }
        if LLVMIsAFunction(callee).is_null() {
            return self.lower_indirect_call(call, callee);
        }
        let name = value_name(callee);
        let nargs = LLVMGetNumArgOperands(call);
        let args: Vec<LLVMValueRef> = (0..nargs).map(|i| LLVMGetOperand(call, i)).collect();
        if let Some(rest) = name.strip_prefix("llvm.") {
            return self.lower_llvm_intrinsic(call, rest, &args);
        }
        // The C library's assertion failure is the failing assertion itself,
        // even where a header defines it (clang's CUDA wrapper defines
        // `__assert_fail` to call `__assertfail` with the message's address).
        let assertion_failure = matches!(base_identifier(&name).as_str(), "__assert_fail" | "__assertfail");
        if let Some(&fid) = self.cx.funcs.get(&callee).filter(|_| !assertion_failure) {
            let r = self.lower_direct_call(call, callee, fid, &args)?;
            if let Some(r) = r {
                self.vals.insert(call, Lowered::Scalar(r));
            }
            return Ok(());
        }
        // The launch stub's `cudaLaunch(stub)`: the stub passed each
        // argument's bytes to `cudaSetupArgument` before it.
        if self.cx.host && name == "cudaLaunch" {
            if let Some(kernel) = args.first().filter(|a| !LLVMIsAFunction(**a).is_null()).and_then(|a| stub_kernel_symbol(&value_name(*a))) {
                let ret = self.result_type(call)?;
                if let Some(r) = self.emit(InstKind::CallExternal { name: format!("{LAUNCH_PREFIX}{kernel}"), args: Vec::new() }, ret) {
                    self.vals.insert(call, Lowered::Scalar(r));
                }
                return Ok(());
            }
        }
        // A marker of an uninitialised variable (`uninit_markers`) is its
        // unspecified value, which keeps the declaration's location.
        if self.cx.host && name.starts_with(crate::uninit_markers::MARKER_PREFIX) {
            if let Some(ty) = self.result_type(call)? {
                let v = self.f.make_value(ty, ValueDef::Undef);
                self.f.undef_locs.set(v, self.cur_loc);
                let name = value_name(call);
                if let Some((variable, _)) = name.rsplit_once(crate::uninit_markers::SUFFIX).filter(|(n, _)| !n.is_empty()) {
                    self.f.values[v].name = Some(variable.to_string());
                }
                self.vals.insert(call, Lowered::Scalar(v));
            }
            return Ok(());
        }
        // `cudaLaunchKernel` and friends with a kernel's stub: a launch.
        if self.cx.host && crate::runtime_launch::lower(self, call, &name, &args)? {
            return Ok(());
        }
        let base = base_identifier(&name);
        crate::builtins::lower_named_call(self, call, &name, &base, &args)
    }

    /// A call of a function of this module; returns its result.
    unsafe fn lower_direct_call(
        &mut self,
        call: LLVMValueRef,
        callee: LLVMValueRef,
        fid: FuncId,
        args: &[LLVMValueRef],
    ) -> Result<Option<ValueId>> {
            let mut kargs = Vec::new();
            for &a in args {
                kargs.extend(self.lanes(a)?);
            }

            let callee_params: Vec<Type> = {
                // The callee may not be lowered yet: compute its parameter
                // types from LLVM, as its own lowering will.
                let mut tys = Vec::new();
                for i in 0..LLVMCountParams(callee) {
                    let p = LLVMGetParam(callee, i);
                    let shape = self.callee_param_shape(callee, p)?;
                    match shape {
                        Shape::Scalar(t) => tys.push(t),
                        Shape::Lanes(l) => tys.extend(l.iter().map(|(t, _)| *t)),
                        Shape::Void => {}
                    }
                }
                tys
            };
            if callee_params.len() != kargs.len() {
                return self.unsupported("a call with a different number of arguments than the callee has parameters");
            }
            for (a, ty) in kargs.iter_mut().zip(&callee_params) {
                *a = self.coerce(*a, *ty);
            }
            let ret = match self.shape_of_type(LLVMTypeOf(call), None)? {
                Shape::Void => None,
                Shape::Scalar(t) => Some(t),
                Shape::Lanes(_) => return self.unsupported("a call returning a vector or struct by value"),
            };
            Ok(self.emit(InstKind::Call { callee: fid, args: kargs }, ret))
    }

    /// A call through a function pointer: compared with the address of
    /// every function of the module with the call's type, each match a
    /// direct call; then with the address of every function without a body
    /// whose address the module takes (`float (*f)(float) = cosf`), each
    /// match a call of that function by name, as a direct call of it would
    /// be lowered (the modelled library function); a pointer that matches
    /// none (null, say) reaches an `invalid_call`, which the engines report
    /// where the call is.
    /// Ends the current block with a branch on `a == b`: lowering goes on
    /// in the new block where they are equal, and the block where they are
    /// not is returned.
    fn branch_if_equal(&mut self, a: ValueId, b: ValueId) -> BlockId {
        let equal = self.emit_value(InstKind::Icmp { cc: IntCC::Eq, lhs: a, rhs: b }, Type::BOOL);
        let (then_b, else_b) = (self.f.add_block(), self.f.add_block());
        self.f.set_terminator(
            self.cur,
            Terminator::Branch {
                cond: equal,
                then_dest: BlockCall { block: then_b, args: vec![] },
                else_dest: BlockCall { block: else_b, args: vec![] },
            },
            self.cur_loc,
        );
        self.cur = then_b;
        else_b
    }

    unsafe fn lower_indirect_call(&mut self, call: LLVMValueRef, callee: LLVMValueRef) -> Result<()> {
        let nargs = LLVMGetNumArgOperands(call);
        let args: Vec<LLVMValueRef> = (0..nargs).map(|i| LLVMGetOperand(call, i)).collect();
        let fn_type = LLVMGetCalledFunctionType(call);
        let mut candidates: Vec<(LLVMValueRef, FuncId)> = self
            .cx
            .funcs
            .iter()
            .filter(|(f, _)| !self.cx.kernels.contains(*f) && LLVMGlobalGetValueType(**f) == fn_type)
            .map(|(f, id)| (*f, *id))
            .collect();
        candidates.sort_by_key(|(_, id)| *id);
        let target = self.scalar(callee)?;
        let target_bits = self.emit_value(InstKind::Cast { op: CastOp::PtrToInt, arg: target }, Type::I64);
        let ret = match self.shape_of_type(LLVMTypeOf(call), None)? {
            Shape::Void => None,
            Shape::Scalar(t) => Some(t),
            Shape::Lanes(_) => return self.unsupported("an indirect call returning a vector or struct by value"),
        };
        let join = self.f.add_block();
        let result = ret.map(|t| self.f.add_block_param(join, t));
        for (g, fid) in candidates {
            let address = self.const_int(Type::I64, function_address(fid) as u128);
            let else_b = self.branch_if_equal(target_bits, address);
            let r = self.lower_direct_call(call, g, fid, &args)?;
            self.f.set_terminator(self.cur, Terminator::Jump(BlockCall { block: join, args: r.into_iter().collect() }), self.cur_loc);
            self.cur = else_b;
        }
        let mut externs: Vec<(LLVMValueRef, usize)> = self
            .cx
            .externs
            .iter()
            .filter(|(f, _)| LLVMGlobalGetValueType(**f) == fn_type)
            .map(|(f, n)| (*f, *n))
            .collect();
        externs.sort_by_key(|(_, n)| *n);
        for (g, n) in externs {
            let address = self.const_int(Type::I64, external_function_address(n) as u128);
            let else_b = self.branch_if_equal(target_bits, address);
            let name = value_name(g);
            crate::builtins::lower_named_call(self, call, &name, &base_identifier(&name), &args)?;
            // The named call defined the call's value; each candidate gives
            // its own to the join instead.
            let r = match (ret, self.vals.remove(&call)) {
                (Some(t), Some(Lowered::Scalar(v))) => Some(self.coerce(v, t)),
                (Some(_), _) => return self.unsupported(format!("a call through a pointer to `{}` without a result", base_identifier(&name))),
                (None, _) => None,
            };
            self.f.set_terminator(self.cur, Terminator::Jump(BlockCall { block: join, args: r.into_iter().collect() }), self.cur_loc);
            self.cur = else_b;
        }
        // No function of this type, defined or not, has this address (null,
        // a data pointer, an address made by arithmetic): the call jumps
        // nowhere. That is a
        // violation in every engine, and nothing after it is executed, so
        // the engines neither assume the pointer is one of the functions
        // nor report what follows a call that cannot happen.
        self.emit(InstKind::InvalidCall { target }, None);
        self.f.set_terminator(self.cur, Terminator::Unreachable, self.cur_loc);
        self.cur = join;
        if let Some(r) = result {
            self.vals.insert(call, Lowered::Scalar(r));
        }
        Ok(())
    }

    /// The KIR type a callee gives its parameter: pointer parameters of
    /// kernels are global, of device functions generic (in CUDA).
    unsafe fn callee_param_shape(&mut self, callee: LLVMValueRef, p: LLVMValueRef) -> Result<Shape> {
        let ty = LLVMTypeOf(p);
        if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind {
            let space = match self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)) {
                Some(s) => s,
                None if !LLVMGetEnumAttributeAtIndex(callee, param_index(callee, p) + 1, self.cx.byval_kind).is_null() => {
                    MemSpace::Private
                }
                None if self.cx.kernels.contains(&callee) => MemSpace::Global,
                None => MemSpace::Generic,
            };
            return Ok(Shape::Scalar(Type::Ptr(space)));
        }
        self.shape_of_type(ty, None)
    }

    unsafe fn lower_llvm_intrinsic(&mut self, call: LLVMValueRef, name: &str, args: &[LLVMValueRef]) -> Result<()> {
        crate::builtins::lower_llvm_intrinsic(self, call, name, args)
    }
}

/// Accessors the builtin tables (`builtins.rs`) use.
pub(crate) trait CallLowering {
    unsafe fn arg_scalar(&mut self, v: LLVMValueRef) -> Result<ValueId>;
    unsafe fn arg_lanes(&mut self, v: LLVMValueRef) -> Result<Vec<ValueId>>;
    unsafe fn result_type(&mut self, call: LLVMValueRef) -> Result<Option<Type>>;
    /// The lane types of a call returning a vector or struct, `None` for a
    /// scalar or void result.
    unsafe fn result_lanes(&mut self, call: LLVMValueRef) -> Result<Option<Vec<Type>>>;
    fn emit_inst(&mut self, kind: InstKind, result: Option<Type>) -> Option<ValueId>;
    fn define(&mut self, call: LLVMValueRef, value: ValueId);
    fn define_lanes(&mut self, call: LLVMValueRef, values: Vec<ValueId>);
    fn int_const(&mut self, ty: Type, bits: u128) -> ValueId;
    fn coerce_to(&mut self, v: ValueId, ty: Type) -> ValueId;
    fn type_of(&self, v: ValueId) -> Type;
    fn fail<T>(&self, what: String) -> Result<T>;
    /// Announces that the next atomic lowered is block-scoped and made on
    /// `ptr` (the prelude's `__lockstep_block_scoped_atomic(p)` marker).
    unsafe fn expect_block_scoped_atomic(&mut self, ptr: LLVMValueRef) -> Result<()>;
    /// The scope of an atomic made on `ptr`: block when the marker
    /// announced it, the device otherwise. An announced atomic made on
    /// another pointer is unsupported: calling it device-wide would hide
    /// the races between blocks that its scope allows.
    unsafe fn atomic_scope(&mut self, ptr: LLVMValueRef) -> Result<AtomicScope>;
    /// Emits the read of a special register's component `dim` for `call`,
    /// marking it a rank read (`Function::rank_reads`) when it was inlined
    /// from a cooperative-groups rank or size computation.
    unsafe fn emit_special_register(&mut self, call: LLVMValueRef, var: BuiltinVar, dim: u8) -> ValueId;
}

impl CallLowering for FnLower<'_> {
    unsafe fn emit_special_register(&mut self, call: LLVMValueRef, var: BuiltinVar, dim: u8) -> ValueId {
        let (inst, value) = self.f.append_inst(self.cur, InstKind::Builtin { var, dim }, Some(Type::I32), self.cur_loc);
        if dim > 0 && crate::inline_origin::in_cooperative_groups_rank(call) {
            self.f.rank_reads.set(inst, true);
        }
        value.expect("a builtin read defines a value")
    }
    unsafe fn expect_block_scoped_atomic(&mut self, ptr: LLVMValueRef) -> Result<()> {
        if self.pending_block_scope.is_some() {
            return self.unsupported("a block-scoped atomic whose operation does not follow it");
        }
        self.pending_block_scope = Some(without_space_casts(ptr));
        Ok(())
    }
    unsafe fn atomic_scope(&mut self, ptr: LLVMValueRef) -> Result<AtomicScope> {
        match self.pending_block_scope.take() {
            None => Ok(AtomicScope::Device),
            Some(p) if p == without_space_casts(ptr) => Ok(AtomicScope::Block),
            Some(_) => self.unsupported("a block-scoped atomic whose operation does not follow it"),
        }
    }
    unsafe fn arg_scalar(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        self.scalar(v)
    }
    unsafe fn arg_lanes(&mut self, v: LLVMValueRef) -> Result<Vec<ValueId>> {
        self.lanes(v)
    }
    unsafe fn result_type(&mut self, call: LLVMValueRef) -> Result<Option<Type>> {
        match self.shape_of_value(call)? {
            Shape::Void => Ok(None),
            Shape::Scalar(t) => Ok(Some(t)),
            Shape::Lanes(_) => self.unsupported("a builtin returning a vector or struct"),
        }
    }
    unsafe fn result_lanes(&mut self, call: LLVMValueRef) -> Result<Option<Vec<Type>>> {
        Ok(match self.shape_of_value(call)? {
            Shape::Lanes(l) => Some(l.into_iter().map(|(t, _)| t).collect()),
            _ => None,
        })
    }
    fn emit_inst(&mut self, kind: InstKind, result: Option<Type>) -> Option<ValueId> {
        self.emit(kind, result)
    }
    fn define(&mut self, call: LLVMValueRef, value: ValueId) {
        self.vals.insert(call, Lowered::Scalar(value));
    }
    fn define_lanes(&mut self, call: LLVMValueRef, values: Vec<ValueId>) {
        self.vals.insert(call, Lowered::Lanes(values));
    }
    fn int_const(&mut self, ty: Type, bits: u128) -> ValueId {
        self.const_int(ty, bits)
    }
    fn coerce_to(&mut self, v: ValueId, ty: Type) -> ValueId {
        self.coerce(v, ty)
    }
    fn type_of(&self, v: ValueId) -> Type {
        self.f.value_type(v)
    }
    fn fail<T>(&self, what: String) -> Result<T> {
        self.unsupported(what)
    }
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
