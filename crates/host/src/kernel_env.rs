//! The environment of a launch made by a host program: the interpreter's
//! defaults, the C library's string functions that device code may call,
//! and the device heap that kernels' `malloc` and `new` draw from.

use lockstep_kir::{MemSpace, Type};
use lockstep_replay::{ExternalCall, ExternalOutcome, HavocOracle, HavocSite, Memory, Pointer, SeededHavoc, Val};

use crate::{int, libc};

/// The environment of a launch: the interpreter's defaults, plus the C
/// library's string functions that device code may call.
pub(crate) struct KernelEnv {
    pub(crate) havoc: SeededHavoc,
    /// Bytes left in the device heap (`HostEnv::device_heap_left`), read
    /// back after the launch.
    pub(crate) heap_left: u64,
    /// What never-written heap bytes read as in this run (as for
    /// `cudaMalloc`).
    pub(crate) fill: u8,
}

impl KernelEnv {
    /// A kernel's `malloc`, `new` and `new[]`: memory from the device heap,
    /// global like `cudaMalloc`'s and uninitialised, or null once the heap
    /// (8 MiB unless `cudaDeviceSetLimit` said otherwise) cannot hold it,
    /// as CUDA's device-side allocator does. `free` and `delete` keep the
    /// memory (a use after them is not detected).
    fn heap_call(&mut self, name: &str, args: &[Val], memory: &mut Memory) -> Option<Option<Val>> {
        match name {
            "malloc" | "_Znwm" | "_Znam" => {
                let bytes = int(args.first()?);
                if bytes > self.heap_left || bytes > lockstep_replay::memory::MAX_ALLOCATION_BYTES {
                    return Some(Some(Val::Ptr(Pointer::NULL)));
                }
                self.heap_left -= bytes;
                let name = format!("device heap block {}", memory.len());
                Some(Some(memory.alloc_undefined(&name, MemSpace::Global, bytes.max(1), self.fill)))
            }
            "free" | "_ZdlPv" | "_ZdaPv" | "_ZdlPvm" | "_ZdaPvm" => Some(None),
            _ => None,
        }
    }
}

impl HavocOracle for KernelEnv {
    /// The interpreter's seeded values, except that floating-point ones lie
    /// in (0, 1]. A kernel's unconstrained values come from modelled
    /// library functions, and cuRAND's uniform generators assume exactly
    /// that range: a value outside it would stop the thread at the
    /// assumption, and the launch would then be no behaviour of the program.
    fn havoc(&mut self, site: &HavocSite) -> u128 {
        let h = self.havoc.havoc(site);
        let fraction = ((h as u64) & 0xff_ffff) + 1;
        match site.ty {
            Type::Float(32) => (fraction as f32 / (1u64 << 24) as f32).to_bits() as u128,
            Type::Float(64) => (fraction as f64 / (1u64 << 24) as f64).to_bits() as u128,
            _ => h,
        }
    }

    fn call_external(&mut self, call: &ExternalCall<'_>, memory: &mut Memory) -> Option<ExternalOutcome> {
        if let Some(result) = self.heap_call(call.name, call.args, memory) {
            return Some(ExternalOutcome::Return(call.ret.and(result)));
        }
        match libc::call(call.name, call.args, memory)? {
            libc::LibcResult::Value(v) => Some(ExternalOutcome::Return(call.ret.and(v))),
            libc::LibcResult::BadArgument(message) => Some(ExternalOutcome::Unsupported(message)),
        }
    }
}
