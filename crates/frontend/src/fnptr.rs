//! Which parameters of a function are function pointers, read from the
//! function's debug information.
//!
//! LLVM's pointers are opaque: a kernel parameter of type `int (*)(int)`
//! is a `ptr` like any buffer. Lowered as one, it would be a memory object
//! of its own, which no function's address can equal, so a precondition
//! such as `__requires(f == twice)` would be false and every check after it
//! vacuous. The lowering gives such a parameter an integer instead (the
//! front-end's function addresses are integers, see
//! `lower::FUNCTION_ADDRESS_BASE`), which the host may set to anything.
//!
//! The C API has no accessor for a subroutine type's parameter types, so
//! this reads the metadata operands directly: a `DISubprogram`'s type is
//! operand 4, a `DISubroutineType`'s type array operand 3, a
//! `DIDerivedType`'s base type operand 3 (LLVM 19's layout). Every step
//! checks the node's kind, and anything unexpected means "no function
//! pointer", the lowering's old behaviour.

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

const DW_TAG_POINTER_TYPE: u16 = 0x0f;
const DW_TAG_SUBROUTINE_TYPE: u16 = 0x15;
const DW_TAG_TYPEDEF: u16 = 0x16;
const DW_TAG_CONST_TYPE: u16 = 0x26;
const DW_TAG_VOLATILE_TYPE: u16 = 0x35;
const DW_TAG_RESTRICT_TYPE: u16 = 0x37;

/// For each parameter of `f`, whether its source type is a pointer to a
/// function; all `false` when `f` has no usable debug information.
pub(crate) unsafe fn function_pointer_params(f: LLVMValueRef) -> Vec<bool> {
    let n = LLVMCountParams(f) as usize;
    let found = param_types(f).filter(|types| types.len() == n + 1);
    match found {
        Some(types) => types[1..].iter().map(|&t| !t.is_null() && is_function_pointer(f, t)).collect(),
        None => vec![false; n],
    }
}

/// The subprogram's type array: the return type, then the parameters'.
unsafe fn param_types(f: LLVMValueRef) -> Option<Vec<LLVMMetadataRef>> {
    let sp = LLVMGetSubprogram(f);
    if sp.is_null() || !matches!(LLVMGetMetadataKind(sp), LLVMMetadataKind::LLVMDISubprogramMetadataKind) {
        return None;
    }
    let ty = operand(f, sp, 4)?;
    if !matches!(LLVMGetMetadataKind(ty), LLVMMetadataKind::LLVMDISubroutineTypeMetadataKind) {
        return None;
    }
    let array = operand(f, ty, 3)?;
    if !matches!(LLVMGetMetadataKind(array), LLVMMetadataKind::LLVMMDTupleMetadataKind) {
        return None;
    }
    Some(operands(f, array))
}

/// Whether the type `t` is a pointer to a function, looking through
/// typedefs and qualifiers on either side of the pointer.
unsafe fn is_function_pointer(f: LLVMValueRef, t: LLVMMetadataRef) -> bool {
    let Some(t) = strip(f, t) else { return false };
    if !matches!(LLVMGetMetadataKind(t), LLVMMetadataKind::LLVMDIDerivedTypeMetadataKind) || LLVMGetDINodeTag(t) != DW_TAG_POINTER_TYPE {
        return false;
    }
    let Some(pointee) = operand(f, t, 3).and_then(|b| strip(f, b)) else { return false };
    matches!(LLVMGetMetadataKind(pointee), LLVMMetadataKind::LLVMDISubroutineTypeMetadataKind)
        && LLVMGetDINodeTag(pointee) == DW_TAG_SUBROUTINE_TYPE
}

/// `t` without typedefs and cv-qualifiers.
unsafe fn strip(f: LLVMValueRef, mut t: LLVMMetadataRef) -> Option<LLVMMetadataRef> {
    for _ in 0..64 {
        if !matches!(LLVMGetMetadataKind(t), LLVMMetadataKind::LLVMDIDerivedTypeMetadataKind) {
            return Some(t);
        }
        match LLVMGetDINodeTag(t) {
            DW_TAG_TYPEDEF | DW_TAG_CONST_TYPE | DW_TAG_VOLATILE_TYPE | DW_TAG_RESTRICT_TYPE => t = operand(f, t, 3)?,
            _ => return Some(t),
        }
    }
    None
}

/// Operand `i` of the metadata node `md`, if it exists and is not null.
unsafe fn operand(f: LLVMValueRef, md: LLVMMetadataRef, i: usize) -> Option<LLVMMetadataRef> {
    operands(f, md).get(i).copied().filter(|m| !m.is_null())
}

/// The operands of the metadata node `md` (null for a null operand).
unsafe fn operands(f: LLVMValueRef, md: LLVMMetadataRef) -> Vec<LLVMMetadataRef> {
    let cx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    let node = LLVMMetadataAsValue(cx, md);
    let n = LLVMGetMDNodeNumOperands(node) as usize;
    let mut out = vec![std::ptr::null_mut(); n];
    LLVMGetMDNodeOperands(node, out.as_mut_ptr());
    out.into_iter().map(|v| if v.is_null() { std::ptr::null_mut() } else { LLVMValueAsMetadata(v) }).collect()
}
