//! Uninitialised host variables keep the location of their declaration.
//!
//! A host variable declared without an initialiser (`int odd;`) holds an
//! indeterminate value until it is written. After `sroa`/`mem2reg` that
//! value is LLVM's `undef`, a constant with no location, so a report about
//! it could only point at the place it was used. Before the passes run,
//! this module therefore writes a marker into every such scalar variable
//! at its declaration (where clang puts the variable's `dbg.declare`): a
//! call of `__lockstep_uninit.N()` with the declaration's debug location,
//! stored into the variable. The promotion then carries the marker where
//! it carried `undef`, and the lowering turns each marker back into an
//! unspecified value (`ValueDef::Undef`) that records the declaration in
//! `Function::undef_locs`.
//!
//! The semantics are C's: each time a declaration without an initialiser
//! is reached, the object's value becomes indeterminate (a variable
//! declared in a loop body is indeterminate again in each iteration). An
//! initialiser, or a parameter's incoming value, is stored after the
//! marker, or before the declaration is recorded; a parameter's variable is
//! left alone for that reason.

use std::collections::HashMap;

use llvm_sys::core::*;
use llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use llvm_sys::prelude::{LLVMModuleRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;
use llvm_sys::LLVMTypeKind::*;

/// The prefix of the marker functions' names.
pub const MARKER_PREFIX: &str = "__lockstep_uninit.";

/// What a marker's name adds to its variable's (LLVM may number it on).
pub const SUFFIX: &str = ".uninit";

/// Adds the markers to every function of `module` with a body.
///
/// # Safety
/// `module` must be a valid LLVM module.
pub unsafe fn mark_uninitialised(module: LLVMModuleRef) {
    // `dbg.declare` is a record, not an instruction, in LLVM 19's debug
    // format; the old format makes it a call the C API can read.
    let was_new = LLVMIsNewDbgInfoFormat(module) != 0;
    if was_new {
        LLVMSetIsNewDbgInfoFormat(module, 0);
    }
    let context = LLVMGetModuleContext(module);
    let builder = LLVMCreateBuilderInContext(context);
    let mut markers: HashMap<LLVMTypeRef, LLVMValueRef> = HashMap::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        let mut declares = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                if is_declare(inst) {
                    declares.push(inst);
                }
                inst = LLVMGetNextInstruction(inst);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        for declare in declares {
            let slot = LLVMGetOperand(LLVMGetOperand(declare, 0), 0);
            if slot.is_null() || LLVMIsAAllocaInst(slot).is_null() {
                continue;
            }
            let ty = LLVMGetAllocatedType(slot);
            let scalar = matches!(
                LLVMGetTypeKind(ty),
                LLVMIntegerTypeKind | LLVMFloatTypeKind | LLVMDoubleTypeKind | LLVMHalfTypeKind | LLVMPointerTypeKind
            );
            if !scalar || stored_before(declare, slot) || LLVMInstructionGetDebugLoc(declare).is_null() {
                continue;
            }
            let next = LLVMGetNextInstruction(declare);
            if next.is_null() {
                continue;
            }
            let count = markers.len();
            let marker = *markers.entry(ty).or_insert_with(|| {
                let name = std::ffi::CString::new(format!("{MARKER_PREFIX}{count}")).expect("no NUL in the name");
                LLVMAddFunction(module, name.as_ptr(), LLVMFunctionType(ty, std::ptr::null_mut(), 0, 0))
            });
            LLVMPositionBuilderBefore(builder, next);
            let fn_ty = LLVMGlobalGetValueType(marker);
            // The marker is named after the variable (`odd.uninit`), so that
            // reports can name it.
            let mut len = 0usize;
            let slot_name = LLVMGetValueName2(slot, &mut len);
            let slot_name = if slot_name.is_null() { Vec::new() } else { std::slice::from_raw_parts(slot_name as *const u8, len).to_vec() };
            let name = std::ffi::CString::new([slot_name.as_slice(), SUFFIX.as_bytes()].concat()).unwrap_or_default();
            let value = LLVMBuildCall2(builder, fn_ty, marker, std::ptr::null_mut(), 0, name.as_ptr());
            LLVMInstructionSetDebugLoc(value, LLVMInstructionGetDebugLoc(declare));
            let store = LLVMBuildStore(builder, value, slot);
            LLVMSetAlignment(store, LLVMGetAlignment(slot));
            LLVMInstructionSetDebugLoc(store, LLVMInstructionGetDebugLoc(declare));
        }
        f = LLVMGetNextFunction(f);
    }
    LLVMDisposeBuilder(builder);
    if was_new {
        LLVMSetIsNewDbgInfoFormat(module, 1);
    }
}

/// Whether `inst` is a call of `llvm.dbg.declare`.
unsafe fn is_declare(inst: LLVMValueRef) -> bool {
    if LLVMGetInstructionOpcode(inst) != LLVMOpcode::LLVMCall {
        return false;
    }
    let callee = LLVMGetCalledValue(inst);
    if callee.is_null() || LLVMIsAFunction(callee).is_null() {
        return false;
    }
    let mut len = 0usize;
    let name = LLVMGetValueName2(callee, &mut len);
    !name.is_null() && std::slice::from_raw_parts(name as *const u8, len) == b"llvm.dbg.declare"
}

/// Whether a store into `slot` comes before `declare` in its block (a
/// parameter's value, spilled before its variable is declared).
unsafe fn stored_before(declare: LLVMValueRef, slot: LLVMValueRef) -> bool {
    let mut inst = LLVMGetPreviousInstruction(declare);
    while !inst.is_null() {
        if LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMStore && LLVMGetOperand(inst, 1) == slot {
            return true;
        }
        inst = LLVMGetPreviousInstruction(inst);
    }
    false
}
