//! Source locations from LLVM debug information: an instruction's location
//! is its outermost inlined frame's (the user's line that led to it), and a
//! function's is its subprogram's.

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use lockstep_kir::*;

use super::*;

pub(super) unsafe fn file_of_scope(cx: &mut ModuleCx, out: &mut Module, scope: LLVMMetadataRef) -> Option<FileId> {
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
    let id = out.file(&file_path(file));
    cx.files.insert(file, id);
    Some(id)
}

/// Where `f` is first called, as the outermost call site of the inlined
/// code around the call (the user's line that led to it).
pub(super) unsafe fn first_call_site(f: LLVMValueRef) -> Option<(String, u32, u32)> {
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
        return Some((file_path(file), LLVMDILocationGetLine(loc), LLVMDILocationGetColumn(loc)));
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
    Some(file_path(file))
}

/// The path of a debug-information file: its name, under its directory
/// when the name is relative.
pub(super) unsafe fn file_path(file: LLVMMetadataRef) -> String {
    let mut len = 0u32;
    let name = cstr(LLVMDIFileGetFilename(file, &mut len), len as usize);
    let mut dlen = 0u32;
    let dir = cstr(LLVMDIFileGetDirectory(file, &mut dlen), dlen as usize);
    if name.starts_with('/') || dir.is_empty() {
        name
    } else {
        format!("{dir}/{name}")
    }
}

pub(super) unsafe fn subprogram_loc(cx: &mut ModuleCx, out: &mut Module, f: LLVMValueRef) -> Option<SrcLoc> {
    let sp = LLVMGetSubprogram(f);
    if sp.is_null() {
        return None;
    }
    let file = file_of_scope(cx, out, sp)?;
    Some(SrcLoc { file, line: LLVMDISubprogramGetLine(sp), col: 0 })
}

/// The source location of an instruction: the outermost call site when the
/// instruction was inlined, so that reports point at the user's code.
pub(super) unsafe fn inst_loc(cx: &mut ModuleCx, out: &mut Module, inst: LLVMValueRef) -> Option<SrcLoc> {
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
