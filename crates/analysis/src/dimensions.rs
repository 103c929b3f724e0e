//! Which dimensions of the thread and block ids a kernel reads.
//!
//! A kernel that reads only the `x` components of its thread and block ids
//! and sizes (`threadIdx.x`, `blockIdx.x`, `blockDim.x`, `gridDim.x`, or
//! OpenCL's ids and sizes of dimension 0) is written for one-dimensional
//! launches: in a launch with more than one thread along `y` or `z`, threads
//! that differ only there would do the same work on the same data. Likewise
//! a kernel that reads `x` and `y` but not `z` is written for 2-D launches.
//! The CLI checks a kernel for the launches of the dimensions it reads when
//! no sizes are given.

use lockstep_kir::{BuiltinVar, FuncId, InstKind, Module};

/// How many dimensions of the thread and block ids and sizes `kernel`, and
/// every function it calls, reads: 1 when it reads only `x`, 2 when it reads
/// `y` but not `z`, 3 otherwise. (A lane id, computed from the linear local
/// id, does not count: it reads no dimension by itself; nor do the reads a
/// library makes to fold the dimensions into a linear rank,
/// `Function::rank_reads`: in a 1-D launch they add nothing to it.)
pub fn dimensions_read(module: &Module, kernel: FuncId) -> u8 {
    let mut seen = vec![kernel];
    let mut stack = vec![kernel];
    let mut highest = 0u8;
    while let Some(f) = stack.pop() {
        let func = &module.functions[f];
        for (id, inst) in func.insts.iter() {
            match &inst.kind {
                InstKind::Builtin { var, dim }
                    if matches!(var, BuiltinVar::LocalId | BuiltinVar::GroupId | BuiltinVar::LocalSize | BuiltinVar::NumGroups | BuiltinVar::GlobalOffset)
                        && !*func.rank_reads.get(id) =>
                {
                    highest = highest.max(*dim);
                }
                InstKind::Call { callee, .. } if !seen.contains(callee) => {
                    seen.push(*callee);
                    stack.push(*callee);
                }
                _ => {}
            }
        }
    }
    highest.min(2) + 1
}
