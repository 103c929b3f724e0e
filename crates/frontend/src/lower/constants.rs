//! The bytes of constant initialisers (globals' contents, with the
//! pointers inside them listed apart), by the target's data layout.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::LLVMTypeKind;

use super::*;

pub(super) unsafe fn element_size(td: LLVMTargetDataRef, ty: LLVMTypeRef) -> Option<u64> {
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
pub(super) unsafe fn constant_bytes(cx: &ModuleCx, c: LLVMValueRef) -> Option<(Vec<u8>, Vec<(usize, LLVMValueRef)>)> {
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

pub(super) unsafe fn fill_constant(cx: &ModuleCx, c: LLVMValueRef, out: &mut [u8], at: usize, pointers: &mut Vec<(usize, LLVMValueRef)>) -> bool {
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
