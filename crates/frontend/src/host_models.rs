//! Library functions modelled in C++: the prelude defines
//! `__lockstep_model_NAME` for a runtime function `NAME` whose answer
//! depends on the layout of the headers' types (`cudaGetDeviceProperties`
//! fills a `cudaDeviceProp`, whose fields lie elsewhere in a real toolkit's
//! headers than in lockstep's own). Compiled with the program, the model
//! writes each field by name; this pass sends the program's calls of `NAME`
//! to it before the host side is lowered. `redirect_grid_sync` does the same
//! for the toolkit's `grid_group::sync()` on the device side.

use llvm_sys::core::*;
use llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use llvm_sys::prelude::*;

pub(crate) const PREFIX: &str = "__lockstep_model_";

/// Replaces every use of a function `NAME` of `module` by
/// `__lockstep_model_NAME`, where both exist with the same type.
///
/// # Safety
/// `module` must be a valid LLVM module.
pub(crate) unsafe fn redirect_to_models(module: LLVMModuleRef) {
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let next = LLVMGetNextFunction(f);
        let mut len = 0usize;
        let p = LLVMGetValueName2(f, &mut len);
        let name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned();
        if let Some(modelled) = name.strip_prefix(PREFIX) {
            if let Ok(modelled) = std::ffi::CString::new(modelled) {
                let original = LLVMGetNamedFunction(module, modelled.as_ptr());
                let same_type = !original.is_null() && LLVMGlobalGetValueType(original) == LLVMGlobalGetValueType(f);
                if same_type && LLVMIsDeclaration(original) != 0 {
                    LLVMReplaceAllUsesWith(original, f);
                }
            }
        }
        f = next;
    }
}

/// Sends the toolkit's `cooperative_groups::grid_group::sync()` to the
/// prelude's `__lockstep_grid_sync()` (a grid barrier in KIR), call by
/// call, before inlining. The toolkit's own method spins on a counter in a
/// workspace that only the driver's cooperative launch provides (read from
/// `%envreg` registers), which no engine can model; the barrier is what it
/// means, for the cooperative launch that `grid.sync()` requires.
///
/// # Safety
/// `module` must be a valid LLVM module.
pub(crate) unsafe fn redirect_grid_sync(module: LLVMModuleRef) {
    let mut targets = Vec::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let mut len = 0usize;
        let p = LLVMGetValueName2(f, &mut len);
        let name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned();
        if name.starts_with("_ZNK18cooperative_groups") && name.ends_with("10grid_group4syncEv") {
            targets.push(f);
        }
        f = LLVMGetNextFunction(f);
    }
    if targets.is_empty() {
        return;
    }
    let context = LLVMGetModuleContext(module);
    let mut decl = LLVMGetNamedFunction(module, c"__lockstep_grid_sync".as_ptr());
    if decl.is_null() {
        let fty = LLVMFunctionType(LLVMVoidTypeInContext(context), std::ptr::null_mut(), 0, 0);
        decl = LLVMAddFunction(module, c"__lockstep_grid_sync".as_ptr(), fty);
    }
    let fty = LLVMGlobalGetValueType(decl);
    if LLVMCountParamTypes(fty) != 0 {
        return;
    }
    let builder = LLVMCreateBuilderInContext(context);
    for target in targets {
        let mut calls = Vec::new();
        let mut u = LLVMGetFirstUse(target);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if !LLVMIsACallInst(user).is_null() && LLVMGetCalledValue(user) == target {
                calls.push(user);
            }
            u = LLVMGetNextUse(u);
        }
        for call in calls {
            LLVMPositionBuilderBefore(builder, call);
            let new = LLVMBuildCall2(builder, fty, decl, std::ptr::null_mut(), 0, c"".as_ptr());
            LLVMInstructionSetDebugLoc(new, LLVMInstructionGetDebugLoc(call));
            LLVMInstructionEraseFromParent(call);
        }
    }
    LLVMDisposeBuilder(builder);
}
