//! Library functions modelled in C++: the prelude defines
//! `__lockstep_model_NAME` for a runtime function `NAME` whose answer
//! depends on the layout of the headers' types (`cudaGetDeviceProperties`
//! fills a `cudaDeviceProp`, whose fields lie elsewhere in a real toolkit's
//! headers than in lockstep's own). Compiled with the program, the model
//! writes each field by name; this pass sends the program's calls of `NAME`
//! to it before the host side is lowered.

use llvm_sys::core::*;
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
