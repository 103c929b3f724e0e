//! Launches through the CUDA runtime API in a host program.
//!
//! Besides `k<<<grid, block, shared, stream>>>(args)`, programs launch with
//! `cudaLaunchKernel(func, grid, block, args, shared, stream)`, its
//! cooperative twin `cudaLaunchCooperativeKernel` (required for
//! `grid_group::sync()`), and `cudaLaunchKernelEx(&config, kernel, args...)`,
//! which the toolkit's header turns into `cudaLaunchKernelExC(&config, func,
//! argv)`. Each passes the kernel's arguments as an array of pointers, one
//! per parameter, to the argument's bytes.
//!
//! When `func` is a kernel's launch stub (the host symbol of `k`, once the
//! headers' template wrappers are inlined), the call is lowered to an
//! external call that the host interpreter (`crates/host`) runs as the
//! launch `<<<>>>` would be: `__lockstep_launch_argv:<kernel>` with the
//! configuration as `cudaConfigureCall` takes it (grid, block, shared
//! bytes, stream), the argument array, then each parameter's size and
//! offset; `__lockstep_launch_ex:<kernel>` with the configuration's address
//! instead of its fields. The sizes and offsets are the ones the stub gives
//! `cudaSetupArgument` for `<<<>>>`, read from its body: they are the C
//! sizes of the parameters, whatever the host ABI does to the stub's own
//! parameters. A launch whose kernel is not a constant, or whose stub does
//! not have that shape, is left as the call it is (which the host
//! interpreter reports as not modelled).

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use lockstep_kir::*;

use crate::lower::{stub_kernel_symbol, CallLowering, Unsupported};

/// The prefix of a launch through an argument array with the configuration
/// as separate values.
pub const LAUNCH_ARGV_PREFIX: &str = "__lockstep_launch_argv:";
/// The prefix of a launch through an argument array with the
/// configuration in a `cudaLaunchConfig_t` in memory.
pub const LAUNCH_EX_PREFIX: &str = "__lockstep_launch_ex:";

fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    if p.is_null() {
        return String::new();
    }
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(p as *const u8, len) }).into_owned()
}

/// The (size, offset) of each argument the stub passes to
/// `cudaSetupArgument`, in order, when all are constants.
unsafe fn stub_arguments(stub: LLVMValueRef) -> Option<Vec<(u64, u64)>> {
    if LLVMIsDeclaration(stub) != 0 {
        return None;
    }
    let mut out = Vec::new();
    let mut bb = LLVMGetFirstBasicBlock(stub);
    while !bb.is_null() {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            if !LLVMIsACallInst(i).is_null() {
                let callee = LLVMGetCalledValue(i);
                if !callee.is_null() && !LLVMIsAFunction(callee).is_null() && value_name(callee) == "cudaSetupArgument" {
                    let (size, offset) = (LLVMGetOperand(i, 1), LLVMGetOperand(i, 2));
                    if LLVMIsAConstantInt(size).is_null() || LLVMIsAConstantInt(offset).is_null() {
                        return None;
                    }
                    out.push((LLVMConstIntGetZExtValue(size), LLVMConstIntGetZExtValue(offset)));
                }
            }
            i = LLVMGetNextInstruction(i);
        }
        bb = LLVMGetNextBasicBlock(bb);
    }
    Some(out)
}

/// The kernel symbol and the stub's arguments when `func` is a launch stub.
unsafe fn kernel_of(func: LLVMValueRef) -> Option<(String, Vec<(u64, u64)>)> {
    if func.is_null() || LLVMIsAFunction(func).is_null() {
        return None;
    }
    let kernel = stub_kernel_symbol(&value_name(func))?;
    Some((kernel, stub_arguments(func)?))
}

/// Lowers `call` of the runtime function `name` as a launch when it is one
/// this module models; returns whether it did.
pub(crate) unsafe fn lower<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    name: &str,
    args: &[LLVMValueRef],
) -> Result<bool, Unsupported> {
    // `cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
    // size_t shared, cudaStream_t stream)`: on the host ABI each `dim3` is
    // two values (x and y packed in 64 bits, then z), as `cudaConfigureCall`
    // receives them.
    let (prefix, func, config): (&str, LLVMValueRef, Vec<LLVMValueRef>) = match name {
        "cudaLaunchKernel" | "cudaLaunchCooperativeKernel" if args.len() == 8 => {
            (LAUNCH_ARGV_PREFIX, args[0], vec![args[1], args[2], args[3], args[4], args[6], args[7], args[5]])
        }
        // `cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void
        // *func, void **args)`.
        "cudaLaunchKernelExC" if args.len() == 3 => (LAUNCH_EX_PREFIX, args[1], vec![args[0], args[2]]),
        _ => return Ok(false),
    };
    let Some((kernel, pieces)) = kernel_of(func) else { return Ok(false) };
    let mut kargs = Vec::new();
    for a in config {
        kargs.push(l.arg_scalar(a)?);
    }
    for (size, offset) in pieces {
        kargs.push(l.int_const(Type::I64, size as u128));
        kargs.push(l.int_const(Type::I64, offset as u128));
    }
    let ret = l.result_type(call)?;
    if let Some(v) = l.emit_inst(InstKind::CallExternal { name: format!("{prefix}{kernel}"), args: kargs }, ret) {
        l.define(call, v);
    }
    Ok(true)
}
