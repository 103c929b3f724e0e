//! What a device can hold and launch, checked before any engine runs.
//!
//! The engines take sizes from the program (declared arrays) and from the
//! command line (launch sizes). A size no device allows would either cost
//! the verifier its memory (an interpreter that allocates a 4 GB
//! `__shared__` array per group) or, worse, wrap around in the 32-bit
//! encodings of ids and sizes and make a check vacuous. Such inputs are
//! refused here, with the limit named.

use lockstep_diag::Span;
use lockstep_kir::{GlobalId, MemSpace, Module, SrcLoc, ValueDef};

use crate::locate::span_of;
use crate::CheckConfig;

/// The largest `__shared__` (OpenCL `__local`) variable: 228 KiB, the
/// shared memory of one multiprocessor of the largest current NVIDIA
/// devices (compute capability 9.0; a block may use 227 KiB of it). Static
/// shared memory is limited to 48 KiB per block on every CUDA device; the
/// larger bound accepts kernels written for dynamic shared memory and
/// GPUVerify's tests, which declare more than real devices allow.
pub const MAX_SHARED_BYTES: u64 = 228 << 10;

/// Declared objects larger than a device allows: each with a message and
/// where it is declared. `__shared__` variables are bounded by
/// `MAX_SHARED_BYTES`, every other object (globals, private arrays) by the
/// largest allocation the interpreter backs.
pub fn oversized_objects(module: &Module) -> Vec<(String, Option<Span>)> {
    let cap = lockstep_replay::memory::MAX_ALLOCATION_BYTES;
    let mut out = Vec::new();
    let globals = module.globals.iter().map(|(g, obj)| (obj, obj.loc.or_else(|| first_use(module, g))));
    let locals = module.functions.values().flat_map(|f| f.locals.values().map(move |obj| (obj, obj.loc.or(f.loc))));
    for (obj, loc) in globals.chain(locals) {
        let Some(size) = obj.size else { continue };
        let (limit, what) = match obj.space {
            MemSpace::Shared => (MAX_SHARED_BYTES, "shared memory of a block (228 KiB)"),
            _ => (cap, "the largest object lockstep models (64 GiB)"),
        };
        if size > limit {
            out.push((
                format!("`{}` takes {size} bytes, more than {what}", obj.name),
                loc.map(|l| span_of(module, l)),
            ));
        }
    }
    out
}

/// Why the launch sizes of `config` cannot be checked, if they cannot: a
/// concrete size must be positive and fit the 32 bits in which the engines
/// (like CUDA's `dim3` and OpenCL devices in practice) hold it. The
/// command line refuses such sizes already; this guards every other caller,
/// since a size that wrapped to 0 would make every check vacuous.
pub fn unsupported_launch(config: &CheckConfig) -> Option<String> {
    let sizes = config.group_size.iter().chain(&config.num_groups).flatten();
    for &n in sizes {
        if n == 0 || n > u32::MAX as u64 {
            return Some(format!("a launch size of {n} is not positive or does not fit in 32 bits"));
        }
    }
    None
}

/// Where global `g` is first used (the lowering records no declaration
/// site for module globals): the first located instruction that reads its
/// address, else the location of a function that does.
fn first_use(module: &Module, g: GlobalId) -> Option<SrcLoc> {
    for f in module.functions.values() {
        let addrs: Vec<_> = f.values.iter().filter(|(_, v)| v.def == ValueDef::GlobalAddr(g)).map(|(id, _)| id).collect();
        if addrs.is_empty() {
            continue;
        }
        let located = f.insts.iter().find_map(|(i, data)| {
            let uses = data.kind.operands().iter().any(|v| addrs.contains(v));
            if uses { *f.inst_locs.get(i) } else { None }
        });
        if let Some(loc) = located.or(f.loc) {
            return Some(loc);
        }
    }
    None
}
