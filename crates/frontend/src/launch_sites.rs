//! The launch sites of a CUDA file's host code, read from its host
//! compilation: for each `k<<<grid, block, shared>>>(args)`, the kernel and
//! the parts of the configuration that are compile-time constants.
//!
//! A kernel checked alone (the file has no `main`, or its host program is
//! not supported) would otherwise be checked for every launch size, while
//! most kernels are written for the block shape their launch sites use
//! (`dim3 threads(16, 4)`, a shared tile of `[BLOCK][BLOCK]`). The engines
//! then report races and out-of-bounds accesses at sizes no launch in the
//! program makes. These sites let the caller check the kernel as the file
//! launches it, and say so in the report.
//!
//! Clang turns a launch into `cudaConfigureCall(grid, block, shared,
//! stream)` (the CUDA 9.0 sequence the host side is compiled for), a branch
//! on its result, and a call of the kernel's stub `__device_stub__k(args)`.
//! After the pre-lowering passes (`sroa`, `mem2reg`, with `dim3`'s
//! constructor inlined) a configuration made of constants is made of
//! constants here too: the host ABI passes a `dim3` as an `i64` holding x
//! and y and an `i32` holding z.
//!
//! `cudaLaunchKernel(stub, grid, block, args, shared, stream)` and
//! `cudaLaunchCooperativeKernel` with a stub are sites too (their arguments,
//! in an array, are not read). A kernel whose stub is used in any other way
//! (`cudaLaunchKernelEx`, whose configuration is in memory, a table) may
//! be launched in ways no site shows (the occupancy API and the function
//! attributes, which launch nothing, do not count): it is listed in
//! `LaunchSites::other_uses`, and callers must not restrict it.

use std::collections::{BTreeMap, BTreeSet};

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use crate::lower::stub_kernel_symbol;
use crate::site_exprs::{conditions_before, ExprReader, SiteExpr};

/// One `k<<<grid, block, shared>>>(args)` of the host code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSite {
    /// The source line of the launch (the outermost inlined call site).
    pub line: u32,
    /// Each grid and block dimension when it is a constant.
    pub grid: [Option<u32>; 3],
    pub block: [Option<u32>; 3],
    /// The dynamic shared memory size when it is a constant.
    pub shared_bytes: Option<u64>,
    /// Each grid and block dimension as an expression of the host code.
    pub grid_exprs: [Option<SiteExpr>; 3],
    pub block_exprs: [Option<SiteExpr>; 3],
    /// What the launch passes to the stub, operand by operand, in the host
    /// ABI (a small struct may be split or packed: see `HostArg`).
    pub args: Vec<HostArg>,
    /// Conditions that hold whenever the launch runs (`site_exprs`).
    pub conditions: Vec<SiteExpr>,
}

/// One operand of a stub call: its type in the host ABI and, for an
/// integer, its expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostArg {
    Int {
        width: u32,
        expr: SiteExpr,
    },
    Float {
        width: u32,
    },
    /// A pointer; `by_value` when it carries a struct passed by value.
    Ptr {
        by_value: bool,
    },
    /// Anything else (a vector, a struct the ABI passes whole).
    Other,
}

/// The launch sites of a host module, by the device symbol of the kernel.
#[derive(Clone, Debug, Default)]
pub struct LaunchSites {
    pub by_kernel: BTreeMap<String, Vec<LaunchSite>>,
    /// Kernels (device symbols) whose stub is used other than by a launch
    /// site: they may be launched with sizes no site shows.
    pub other_uses: BTreeSet<String>,
}

impl LaunchSites {
    /// The sites of the kernel with device symbol `symbol`, when every
    /// launch of it goes through a site of this file.
    pub fn only_sites_of(&self, symbol: &str) -> Option<&[LaunchSite]> {
        if self.other_uses.contains(symbol) {
            return None;
        }
        self.by_kernel.get(symbol).map(Vec::as_slice)
    }
}

fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    if p.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The bits of an integer value that are known at compile time: `known`
/// marks them, `bits` holds their values (0 elsewhere).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct KnownBits {
    known: u64,
    bits: u64,
}

impl KnownBits {
    const UNKNOWN: KnownBits = KnownBits { known: 0, bits: 0 };

    fn constant(v: u64) -> KnownBits {
        KnownBits {
            known: u64::MAX,
            bits: v,
        }
    }

    /// The `width` bits at `shift`, when all are known.
    fn field(self, shift: u32, width: u32) -> Option<u64> {
        let mask = low_mask(width) << shift;
        (self.known & mask == mask).then_some((self.bits & mask) >> shift)
    }
}

fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// What is known of an integer value of the host code: constants, and the
/// `zext`/`shl`/`and`/`or` chains with which SROA packs a `dim3`'s fields
/// into the `i64` the host ABI passes (`and undef, mask` among them, so that
/// fields set one at a time are tracked bit by bit). Arithmetic is
/// evaluated when its operands are wholly known.
unsafe fn known_bits(v: LLVMValueRef, depth: u32) -> KnownBits {
    use llvm_sys::LLVMOpcode::*;
    let ty = LLVMTypeOf(v);
    if LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind {
        return KnownBits::UNKNOWN;
    }
    let width = LLVMGetIntTypeWidth(ty);
    if width > 64 {
        return KnownBits::UNKNOWN;
    }
    let width_mask = low_mask(width);
    if !LLVMIsAConstantInt(v).is_null() {
        return KnownBits::constant(LLVMConstIntGetZExtValue(v) & width_mask);
    }
    if LLVMIsAInstruction(v).is_null() || depth > 24 {
        return KnownBits::UNKNOWN;
    }
    let operand = |i: u32| known_bits(LLVMGetOperand(v, i), depth + 1);
    let full = |k: KnownBits| k.known & width_mask == width_mask;
    let result = match LLVMGetInstructionOpcode(v) {
        LLVMZExt => {
            let src = LLVMGetOperand(v, 0);
            let from = LLVMGetIntTypeWidth(LLVMTypeOf(src)).min(64);
            let k = known_bits(src, depth + 1);
            KnownBits {
                known: k.known | !low_mask(from),
                bits: k.bits & low_mask(from),
            }
        }
        LLVMTrunc => operand(0),
        LLVMAnd => {
            let (a, b) = (operand(0), operand(1));
            let zeros = (a.known & !a.bits) | (b.known & !b.bits);
            KnownBits {
                known: (a.known & b.known) | zeros,
                bits: a.bits & b.bits,
            }
        }
        LLVMOr => {
            let (a, b) = (operand(0), operand(1));
            let ones = (a.known & a.bits) | (b.known & b.bits);
            KnownBits {
                known: (a.known & b.known) | ones,
                bits: a.bits | b.bits,
            }
        }
        LLVMShl | LLVMLShr => {
            let (a, by) = (operand(0), operand(1));
            match by.field(0, width).filter(|&n| n < u64::from(width)) {
                Some(n) if LLVMGetInstructionOpcode(v) == LLVMShl => KnownBits {
                    known: (a.known << n) | low_mask(n as u32),
                    bits: a.bits << n,
                },
                Some(n) => {
                    let vacated = !(width_mask >> n) & width_mask;
                    KnownBits {
                        known: ((a.known & width_mask) >> n) | vacated,
                        bits: (a.bits & width_mask) >> n,
                    }
                }
                None => KnownBits::UNKNOWN,
            }
        }
        op @ (LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMURem) => {
            let (a, b) = (operand(0), operand(1));
            if !full(a) || !full(b) {
                return KnownBits::UNKNOWN;
            }
            let (x, y) = (a.bits & width_mask, b.bits & width_mask);
            let value = match op {
                LLVMAdd => Some(x.wrapping_add(y)),
                LLVMSub => Some(x.wrapping_sub(y)),
                LLVMMul => Some(x.wrapping_mul(y)),
                LLVMUDiv => x.checked_div(y),
                _ => x.checked_rem(y),
            };
            value.map_or(KnownBits::UNKNOWN, KnownBits::constant)
        }
        _ => KnownBits::UNKNOWN,
    };
    KnownBits {
        known: result.known | !width_mask,
        bits: result.bits & width_mask,
    }
}

/// The value of an integer operand when all its bits are known.
unsafe fn constant(v: LLVMValueRef) -> Option<u128> {
    known_bits(v, 0).field(0, 64).map(u128::from)
}

/// A `dim3` passed as its `i64` (x, y) and `i32` (z) halves.
unsafe fn dim3(xy: LLVMValueRef, z: LLVMValueRef) -> [Option<u32>; 3] {
    let xy = known_bits(xy, 0);
    let field = |k: KnownBits, shift| k.field(shift, 32).map(|v| v as u32);
    [field(xy, 0), field(xy, 32), field(known_bits(z, 0), 0)]
}

/// The line of `inst`, at its outermost inlined call site.
unsafe fn line_of(inst: LLVMValueRef) -> u32 {
    let mut loc = LLVMInstructionGetDebugLoc(inst);
    if loc.is_null() {
        return 0;
    }
    loop {
        let outer = LLVMDILocationGetInlinedAt(loc);
        if outer.is_null() {
            break;
        }
        loc = outer;
    }
    LLVMDILocationGetLine(loc)
}

/// The called function of a direct call, if `inst` is one.
unsafe fn direct_callee(inst: LLVMValueRef) -> Option<LLVMValueRef> {
    if LLVMIsACallInst(inst).is_null() {
        return None;
    }
    let callee = LLVMGetCalledValue(inst);
    (!LLVMIsAFunction(callee).is_null()).then_some(callee)
}

/// The first call of a launch stub in `block`.
unsafe fn stub_call_in(block: LLVMBasicBlockRef) -> Option<(LLVMValueRef, String)> {
    let mut inst = LLVMGetFirstInstruction(block);
    while !inst.is_null() {
        if let Some(kernel) = direct_callee(inst).and_then(|c| stub_kernel_symbol(&value_name(c))) {
            return Some((inst, kernel));
        }
        inst = LLVMGetNextInstruction(inst);
    }
    None
}

/// The site of the launch configured by `call` in block `bb`, whose grid
/// and block sizes are the two dim3s (each passed as an `xy` word and a
/// `z` word) from operand `first` on, and whose shared bytes are operand
/// `shared`: `cudaConfigureCall(grid, block, shared, stream)` has them
/// from operand 0, and `cudaLaunchKernel(stub, grid, block, args, shared,
/// stream)` from operand 1. The arguments are read (by `args`) after the
/// sizes, since the reader numbers the values it meets in order.
///
/// # Safety
/// `call` must be a valid call instruction of `bb` with those operands.
unsafe fn configured_site(
    reader: &mut ExprReader,
    bb: LLVMBasicBlockRef,
    call: LLVMValueRef,
    first: u32,
    shared: u32,
    args: impl FnOnce(&mut ExprReader) -> Vec<HostArg>,
) -> LaunchSite {
    let mut dim_exprs = |xy: u32, z: u32| {
        let (xy, z) = (LLVMGetOperand(call, xy), LLVMGetOperand(call, z));
        [reader.field(xy, 0), reader.field(xy, 32), reader.field(z, 0)]
    };
    let grid_exprs = dim_exprs(first, first + 1);
    let block_exprs = dim_exprs(first + 2, first + 3);
    let args = args(reader);
    LaunchSite {
        line: line_of(call),
        grid: dim3(LLVMGetOperand(call, first), LLVMGetOperand(call, first + 1)),
        block: dim3(LLVMGetOperand(call, first + 2), LLVMGetOperand(call, first + 3)),
        shared_bytes: constant(LLVMGetOperand(call, shared)).map(|v| v as u64),
        grid_exprs,
        block_exprs,
        args,
        conditions: conditions_before(reader, bb),
    }
}

/// Reads the launch sites of a host module (after the pre-lowering passes).
///
/// # Safety
/// `module` must be a valid LLVM module.
pub unsafe fn launch_sites(module: LLVMModuleRef) -> LaunchSites {
    let mut sites = LaunchSites::default();
    // The stub calls that belong to a site; any other use of a stub is an
    // "other use".
    let mut site_calls: BTreeSet<usize> = BTreeSet::new();
    // The runtime API launches that are sites (the stub is their first
    // argument).
    let mut api_sites: BTreeSet<usize> = BTreeSet::new();
    let mut reader = ExprReader::default();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                let configure =
                    direct_callee(inst).is_some_and(|c| value_name(c) == "cudaConfigureCall");
                if configure && LLVMGetNumArgOperands(inst) >= 5 {
                    if let Some((call, kernel)) = stub_after(bb) {
                        site_calls.insert(call as usize);
                        let args = |reader: &mut ExprReader| {
                            (0..LLVMGetNumArgOperands(call)).map(|i| host_arg(reader, call, i)).collect()
                        };
                        let site = configured_site(&mut reader, bb, inst, 0, 4, args);
                        sites.by_kernel.entry(kernel).or_default().push(site);
                    }
                }
                // `cudaLaunchKernel(stub, grid, block, args, shared, stream)`
                // and its cooperative twin: the same configuration in the
                // same ABI, and the arguments in an array (whose values
                // this reading does not follow).
                let api_launch = direct_callee(inst)
                    .is_some_and(|c| matches!(value_name(c).as_str(), "cudaLaunchKernel" | "cudaLaunchCooperativeKernel"));
                if api_launch && LLVMGetNumArgOperands(inst) == 8 {
                    let stub = LLVMGetOperand(inst, 0);
                    let kernel = (!stub.is_null() && !LLVMIsAFunction(stub).is_null())
                        .then(|| stub_kernel_symbol(&value_name(stub)))
                        .flatten();
                    if let Some(kernel) = kernel {
                        api_sites.insert(inst as usize);
                        let args = |_: &mut ExprReader| (0..LLVMCountParams(stub)).map(|_| HostArg::Other).collect();
                        let site = configured_site(&mut reader, bb, inst, 1, 6, args);
                        sites.by_kernel.entry(kernel).or_default().push(site);
                    }
                }
                inst = LLVMGetNextInstruction(inst);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        f = LLVMGetNextFunction(f);
    }
    // Every other reference to a stub: a call that is no site's, or its
    // address used as a value.
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                let callee = direct_callee(inst);
                for i in 0..LLVMGetNumOperands(inst) {
                    let op = LLVMGetOperand(inst, i as u32);
                    // (A stub passes its own address to `cudaLaunch`.)
                    if op.is_null() || LLVMIsAFunction(op).is_null() || op == f {
                        continue;
                    }
                    let Some(kernel) = stub_kernel_symbol(&value_name(op)) else {
                        continue;
                    };
                    let site_call = (callee == Some(op) && site_calls.contains(&(inst as usize)))
                        || (i == 0 && api_sites.contains(&(inst as usize)))
                        || callee.is_some_and(|c| queries_without_launching(&value_name(c)))
                        // (The toolkit's occupancy templates compare the
                        // kernel with null; a comparison launches nothing.)
                        || !LLVMIsAICmpInst(inst).is_null();
                    if !site_call {
                        sites.other_uses.insert(kernel);
                    }
                }
                inst = LLVMGetNextInstruction(inst);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        f = LLVMGetNextFunction(f);
    }
    // A stub referenced from a global initialiser (a table of kernels).
    let mut g = LLVMGetFirstGlobal(module);
    while !g.is_null() {
        if LLVMIsDeclaration(g) == 0 {
            collect_stubs(LLVMGetInitializer(g), &mut sites.other_uses, 0);
        }
        g = LLVMGetNextGlobal(g);
    }
    sites
}

/// Whether the runtime function `symbol` (possibly a mangled template of
/// the toolkit's headers) only asks about or configures a kernel it is
/// given, without launching it: the occupancy API and the function
/// attributes. Such a use adds no launch.
fn queries_without_launching(symbol: &str) -> bool {
    let name = crate::lower::base_identifier(symbol);
    name.starts_with("cudaOccupancy")
        || matches!(
            name.as_str(),
            "cudaFuncGetAttributes" | "cudaFuncSetAttribute" | "cudaFuncSetCacheConfig" | "cudaFuncSetSharedMemConfig"
        )
}

/// Operand `i` of the stub call `call`, as the host ABI passes it.
unsafe fn host_arg(reader: &mut ExprReader, call: LLVMValueRef, i: u32) -> HostArg {
    use llvm_sys::LLVMTypeKind::*;
    let v = LLVMGetOperand(call, i);
    let ty = LLVMTypeOf(v);
    match LLVMGetTypeKind(ty) {
        LLVMIntegerTypeKind => match reader.expr(v) {
            Some(expr) => HostArg::Int {
                width: LLVMGetIntTypeWidth(ty),
                expr,
            },
            None => HostArg::Other,
        },
        LLVMFloatTypeKind => HostArg::Float { width: 32 },
        LLVMDoubleTypeKind => HostArg::Float { width: 64 },
        LLVMHalfTypeKind | LLVMBFloatTypeKind => HostArg::Float { width: 16 },
        LLVMPointerTypeKind => {
            // Attribute index i + 1 is operand i's (0 is the result's).
            let byval = llvm_sys::core::LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5);
            let by_value = !LLVMGetCallSiteEnumAttribute(call, i + 1, byval).is_null();
            HostArg::Ptr { by_value }
        }
        _ => HostArg::Other,
    }
}

/// The stub call that a `cudaConfigureCall` in `block` guards: clang
/// branches on the call's result to a block that calls the stub.
unsafe fn stub_after(block: LLVMBasicBlockRef) -> Option<(LLVMValueRef, String)> {
    let term = LLVMGetBasicBlockTerminator(block);
    if term.is_null() {
        return None;
    }
    (0..LLVMGetNumSuccessors(term)).find_map(|i| stub_call_in(LLVMGetSuccessor(term, i)))
}

/// The stubs a constant (a global's initialiser) refers to.
unsafe fn collect_stubs(v: LLVMValueRef, out: &mut BTreeSet<String>, depth: u32) {
    if v.is_null() || depth > 16 {
        return;
    }
    if !LLVMIsAFunction(v).is_null() {
        if let Some(kernel) = stub_kernel_symbol(&value_name(v)) {
            out.insert(kernel);
        }
        return;
    }
    if LLVMIsAConstant(v).is_null() {
        return;
    }
    for i in 0..LLVMGetNumOperands(v).max(0) {
        collect_stubs(LLVMGetOperand(v, i as u32), out, depth + 1);
    }
}
