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

/// The shared memory of a block on the largest current NVIDIA devices:
/// 228 KiB (compute capability 9.0; a block may use 227 KiB of it, and
/// static shared memory is limited to 48 KiB on every CUDA device). A
/// `__shared__` (OpenCL `__local`) variable beyond it gets a note: no device
/// runs the kernel, but GPUVerify's tests declare such arrays (up to 4 MiB)
/// and expect them checked.
pub const DEVICE_SHARED_BYTES: u64 = 228 << 10;

/// The largest `__shared__` variable lockstep checks at all: 1 GiB. One
/// instance exists per group, so larger ones are refused.
pub const MAX_SHARED_BYTES: u64 = 1 << 30;

/// A message and where it applies.
pub type Located = (String, Option<Span>);

/// Declared objects larger than lockstep models, to be rejected, and
/// `__shared__` variables larger than a device holds, to be noted: each
/// with a message and where it is used. `__shared__` variables are
/// refused beyond `MAX_SHARED_BYTES`, every other object (globals, private
/// arrays) beyond the largest allocation the interpreter backs.
pub fn oversized_objects(module: &Module) -> (Vec<Located>, Vec<Located>) {
    let cap = lockstep_replay::memory::MAX_ALLOCATION_BYTES;
    let (mut errors, mut notes) = (Vec::new(), Vec::new());
    let globals = module.globals.iter().map(|(g, obj)| (obj, obj.loc.or_else(|| first_use(module, g))));
    let locals = module.functions.values().flat_map(|f| f.locals.values().map(move |obj| (obj, obj.loc.or(f.loc))));
    for (obj, loc) in globals.chain(locals) {
        let Some(size) = obj.size else { continue };
        let span = || loc.map(|l| span_of(module, l));
        let (limit, what) = match obj.space {
            MemSpace::Shared => (MAX_SHARED_BYTES, "the largest shared variable lockstep checks (1 GiB)"),
            _ => (cap, "the largest object lockstep models (64 GiB)"),
        };
        if size > limit {
            errors.push((format!("`{}` takes {size} bytes, more than {what}", obj.name), span()));
        } else if obj.space == MemSpace::Shared && size > DEVICE_SHARED_BYTES {
            notes.push((
                format!("`{}` takes {size} bytes: no device holds more than 228 KiB of shared memory per block; it is checked as declared, as GPUVerify does", obj.name),
                span(),
            ));
        }
    }
    (errors, notes)
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
