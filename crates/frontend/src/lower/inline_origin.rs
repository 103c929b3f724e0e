//! Which library code an instruction was inlined from, read from its debug
//! location's chain of inlined frames.
//!
//! Reports point at the user's line (the outermost frame), but some facts
//! depend on the library function the user called. The one asked today:
//! whether a read of a thread or block id's `y` or `z` component is part of
//! a cooperative-groups rank or size computation (`thread_rank()`,
//! `tiled_partition`, `meta_group_rank()`...). Those fold the three
//! dimensions into one linear number that, in a 1-D launch, is the `x`
//! component alone, so a kernel whose own code reads only `x` is still
//! written for 1-D launches when it uses tiles. The per-dimension accessors
//! (`thread_index()`, `group_index()`, `dim_threads()`...) hand the user
//! the components themselves, so their reads count as the user's.

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use super::cstr;
use super::debug_locs::file_path;

/// Cooperative-groups accessors that return a per-dimension value (a
/// `dim3`): a `y` or `z` read under them is the user's own.
const PER_DIMENSION_ACCESSORS: &[&str] = &[
    "thread_index",
    "group_index",
    "block_index",
    "cluster_index",
    "dim_threads",
    "dim_blocks",
    "dim_clusters",
    "group_dim",
    "block_dim",
    "grid_dim",
];

/// One inlined frame: the function it is in, and that function's file.
struct Frame {
    function: String,
    file: String,
}

/// Whether `inst` (a special-register read) was inlined from a
/// cooperative-groups function that folds the dimensions into a linear
/// rank or size: every frame from the read up to the outermost
/// cooperative-groups frame lies in the library (clang's CUDA wrapper
/// headers or cooperative groups' own), and that outermost frame, the
/// function the user's code called, is not a per-dimension accessor.
///
/// # Safety
/// `inst` must be an instruction of a valid LLVM module.
pub unsafe fn in_cooperative_groups_rank(inst: LLVMValueRef) -> bool {
    let frames = inlined_frames(inst);
    // The innermost frames are clang's builtin-variable helpers; then come
    // the library's functions, then the user's.
    let Some(api) = frames.iter().rposition(|f| is_cooperative_groups(&f.file)) else {
        return false;
    };
    frames[..=api].iter().all(|f| is_cooperative_groups(&f.file) || is_clang_cuda_wrapper(&f.file))
        && !PER_DIMENSION_ACCESSORS.contains(&unqualified(&frames[api].function))
}

fn is_cooperative_groups(path: &str) -> bool {
    path.contains("cooperative_groups")
}

fn is_clang_cuda_wrapper(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.starts_with("__clang_cuda_")
}

/// The function's name without template arguments.
fn unqualified(name: &str) -> &str {
    name.split('<').next().unwrap_or(name).trim()
}

/// The frames of `inst`'s debug location, innermost first.
unsafe fn inlined_frames(inst: LLVMValueRef) -> Vec<Frame> {
    let mut out = Vec::new();
    if LLVMIsAInstruction(inst).is_null() {
        return out;
    }
    let context = LLVMGetTypeContext(LLVMTypeOf(inst));
    let mut loc = LLVMInstructionGetDebugLoc(inst);
    while !loc.is_null() {
        let scope = LLVMDILocationGetScope(loc);
        out.push(Frame { function: subprogram_name(context, scope).unwrap_or_default(), file: scope_file(scope).unwrap_or_default() });
        loc = LLVMDILocationGetInlinedAt(loc);
    }
    out
}

unsafe fn scope_file(scope: LLVMMetadataRef) -> Option<String> {
    if scope.is_null() {
        return None;
    }
    let file = LLVMDIScopeGetFile(scope);
    if file.is_null() {
        return None;
    }
    Some(file_path(file))
}

/// The name of the function a scope lies in: lexical blocks are walked up
/// through their parent scope (operand 1) to the subprogram, whose name is
/// operand 2 (LLVM's layout of `DILexicalBlock` and `DISubprogram`).
unsafe fn subprogram_name(context: LLVMContextRef, mut scope: LLVMMetadataRef) -> Option<String> {
    for _ in 0..64 {
        if scope.is_null() {
            return None;
        }
        let kind = LLVMGetMetadataKind(scope);
        let node = LLVMMetadataAsValue(context, scope);
        let count = LLVMGetMDNodeNumOperands(node) as usize;
        let mut operands = vec![std::ptr::null_mut(); count];
        LLVMGetMDNodeOperands(node, operands.as_mut_ptr());
        match kind {
            LLVMMetadataKind::LLVMDISubprogramMetadataKind => {
                let name = *operands.get(2)?;
                if name.is_null() {
                    return None;
                }
                let mut len = 0u32;
                let s = LLVMGetMDString(name, &mut len);
                return (!s.is_null()).then(|| cstr(s, len as usize));
            }
            LLVMMetadataKind::LLVMDILexicalBlockMetadataKind | LLVMMetadataKind::LLVMDILexicalBlockFileMetadataKind => {
                let parent = *operands.get(1)?;
                if parent.is_null() {
                    return None;
                }
                scope = LLVMValueAsMetadata(parent);
            }
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_arguments_are_not_part_of_the_name() {
        assert_eq!(unqualified("thread_block_tile<cooperative_groups::__v1::thread_block>"), "thread_block_tile");
        assert_eq!(unqualified("thread_index"), "thread_index");
    }

    #[test]
    fn clang_wrapper_headers_are_recognised_by_name() {
        assert!(is_clang_cuda_wrapper("/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_builtin_vars.h"));
        assert!(!is_clang_cuda_wrapper("/home/u/kernel.cu"));
        assert!(is_cooperative_groups("/x/include/cooperative_groups/details/helpers.h"));
    }
}
