//! Which dimensions of the thread and block ids a kernel reads.
//!
//! A kernel that reads only the `x` components of its thread and block ids
//! and sizes (`threadIdx.x`, `blockIdx.x`, `blockDim.x`, `gridDim.x`, or
//! OpenCL's ids and sizes of dimension 0) is written for one-dimensional
//! launches: in a launch with more than one thread along `y` or `z`, threads
//! that differ only there would do the same work on the same data. The CLI
//! checks such a kernel for every 1-D launch when no sizes are given.

use lockstep_kir::{BuiltinVar, FuncId, InstKind, Module};

/// Whether `kernel`, and every function it calls, reads the thread and block
/// ids and sizes of dimension 0 only. (A lane id, computed from the linear
/// local id, does not count: it reads no dimension by itself.)
pub fn reads_only_dimension_x(module: &Module, kernel: FuncId) -> bool {
    let mut seen = vec![kernel];
    let mut stack = vec![kernel];
    while let Some(f) = stack.pop() {
        for inst in module.functions[f].insts.values() {
            match &inst.kind {
                InstKind::Builtin { var, dim } if *dim != 0 => {
                    if matches!(var, BuiltinVar::LocalId | BuiltinVar::GroupId | BuiltinVar::LocalSize | BuiltinVar::NumGroups | BuiltinVar::GlobalOffset) {
                        return false;
                    }
                }
                InstKind::Call { callee, .. } if !seen.contains(callee) => {
                    seen.push(*callee);
                    stack.push(*callee);
                }
                _ => {}
            }
        }
    }
    true
}
