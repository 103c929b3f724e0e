//! The block-scope `cuda::barrier` as a barrier of the whole block.
//!
//! lockstep's model of libcu++'s `cuda::barrier<thread_scope_block>`
//! (`prelude/toolkit_models/cuda/__barrier/barrier_block_scope.h`) turns
//! `arrive()` into `__lockstep_block_barrier_arrive()` and `wait(token)`
//! into `__lockstep_block_barrier_wait()`; `arrive_and_wait()` is the two
//! calls in a row. The pair means a block barrier (every thread of the
//! block arrives, and the model asserts at `init` that the expected count is
//! the block's size) only when the thread touches no memory between its
//! arrival and its wait: an access there is ordered neither with the other
//! threads' accesses before their arrival (it may run before they arrive)
//! nor with theirs after their wait (their wait may end before it runs), and
//! no single barrier says that. So the lowering accepts an arrival only when
//! its wait follows in the same basic block with no instruction between that
//! may read or write memory, and a wait only when such an arrival precedes
//! it; anything else makes the kernels that reach it `unknown`, naming the
//! call.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode;

const ARRIVE: &str = "__lockstep_block_barrier_arrive";
const WAIT: &str = "__lockstep_block_barrier_wait";

unsafe fn callee_name(inst: LLVMValueRef) -> Option<String> {
    if LLVMIsACallInst(inst).is_null() {
        return None;
    }
    let callee = LLVMGetCalledValue(inst);
    if callee.is_null() || LLVMIsAFunction(callee).is_null() {
        return None;
    }
    let mut len = 0usize;
    let p = LLVMGetValueName2(callee, &mut len);
    Some(String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned())
}

/// Whether `inst` can neither read nor write memory (nor call code that
/// might): arithmetic, casts, address computations, debug records and the
/// special registers.
unsafe fn touches_no_memory(inst: LLVMValueRef) -> bool {
    match LLVMGetInstructionOpcode(inst) {
        LLVMOpcode::LLVMLoad
        | LLVMOpcode::LLVMStore
        | LLVMOpcode::LLVMAtomicRMW
        | LLVMOpcode::LLVMAtomicCmpXchg
        | LLVMOpcode::LLVMFence
        | LLVMOpcode::LLVMVAArg
        | LLVMOpcode::LLVMInvoke
        | LLVMOpcode::LLVMCallBr => false,
        LLVMOpcode::LLVMCall => callee_name(inst).is_some_and(|name| {
            ["llvm.dbg.", "llvm.lifetime.", "llvm.nvvm.read.ptx.sreg.", "llvm.assume"].iter().any(|p| name.starts_with(p))
        }),
        _ => true,
    }
}

/// Whether the call `inst` (an arrival when `forward`, else a wait) has its
/// partner in the same block with no memory access between.
unsafe fn paired(inst: LLVMValueRef, forward: bool) -> bool {
    let partner = if forward { WAIT } else { ARRIVE };
    let mut i = if forward { LLVMGetNextInstruction(inst) } else { LLVMGetPreviousInstruction(inst) };
    while !i.is_null() {
        if callee_name(i).as_deref() == Some(partner) {
            return true;
        }
        if !touches_no_memory(i) {
            return false;
        }
        i = if forward { LLVMGetNextInstruction(i) } else { LLVMGetPreviousInstruction(i) };
    }
    false
}

/// `None` when the arrival `call` (whose argument is the arrival count) is
/// a block barrier; otherwise why not.
pub(crate) unsafe fn arrival_unsupported(call: LLVMValueRef, update: LLVMValueRef) -> Option<String> {
    if LLVMIsAConstantInt(update).is_null() || LLVMConstIntGetZExtValue(update) != 1 {
        return Some(
            "`cuda::barrier::arrive(n)` with a count other than 1 (lockstep models a block-scope `cuda::barrier` only \
             as a barrier of the whole block, each thread arriving once)"
                .to_string(),
        );
    }
    (!paired(call, true)).then(|| {
        "a `cuda::barrier` arrival whose `wait` does not follow it directly (lockstep models a block-scope barrier's \
         `arrive()` and `wait()` as one block barrier only with no memory access between them)"
            .to_string()
    })
}

/// `None` when the wait `call` ends an arrival that was lowered as the block
/// barrier; otherwise why it is not modelled.
pub(crate) unsafe fn wait_unsupported(call: LLVMValueRef) -> Option<String> {
    (!paired(call, false)).then(|| {
        "a `cuda::barrier` wait that does not directly follow its `arrive()` (lockstep models a block-scope barrier's \
         `arrive()` and `wait()` as one block barrier only with no memory access between them)"
            .to_string()
    })
}

/// What a `__lockstep_unmodelled_barrier_*` intrinsic of the model stands
/// for, named for the message that makes its kernels `unknown`.
pub(crate) fn unmodelled(op: &str) -> Option<&'static str> {
    Some(match op {
        "arrive_and_drop" => "`cuda::barrier::arrive_and_drop()` (lockstep models a block-scope `cuda::barrier` only as a barrier of the whole block)",
        "wait_parity" => "`cuda::barrier::wait_parity()` (lockstep models a block-scope `cuda::barrier` only through `arrive()` and `wait()`)",
        "try_wait" => "a `cuda::barrier` `try_wait*` call (lockstep models a block-scope `cuda::barrier` only through `arrive()` and `wait()`)",
        _ => return None,
    })
}
