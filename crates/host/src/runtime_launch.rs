//! Launches through the runtime API's argument arrays: `cudaLaunchKernel`,
//! `cudaLaunchCooperativeKernel` and `cudaLaunchKernelEx`, which the
//! front-end lowers to `__lockstep_launch_argv:<kernel>` and
//! `__lockstep_launch_ex:<kernel>` (see `frontend/src/runtime_launch.rs`
//! for their arguments). Each is run as `<<<>>>` is: the configuration
//! becomes the pending one (`cudaConfigureCall`), each parameter's bytes
//! are read through the array's pointer as `cudaSetupArgument` reads them,
//! and the launch follows.

use lockstep_replay::terms::TermId;
use lockstep_replay::{ExternalCall, ExternalOutcome, Loc, Memory, Pointer, Val};

use crate::{int, ptr, HostEnv, HostFindingKind, CUDA_SUCCESS, MAX_ARGUMENT_BYTES};

/// `cudaErrorInvalidValue`.
const INVALID_VALUE: u64 = 1;

impl HostEnv<'_> {
    /// Reads `len` bytes at `p`, checked as the host checks an API's
    /// arguments (a finding naming `what` when they are not all in one live
    /// object).
    fn read_checked(&mut self, memory: &Memory, p: Pointer, len: u64, what: &str, loc: Loc) -> Option<(Vec<u8>, Vec<bool>, TermId)> {
        let (id, off) = self.check_range(memory, p, len, what, loc)?;
        let bytes = memory.object(id).bytes.read(off, len).unwrap_or_default();
        let flags = memory.undefined_flags(id, off, bytes.len());
        let term = memory.tag_at(id, off, len).unwrap_or(0);
        Some((bytes, flags, term))
    }

    /// A launch through an argument array. `ex` says whether the
    /// configuration is a `cudaLaunchConfig_t` in memory (first argument)
    /// or the values `cudaConfigureCall` takes (the first six).
    pub(crate) fn launch_through_array(
        &mut self,
        memory: &mut Memory,
        symbol: &str,
        call: &ExternalCall<'_>,
        ex: bool,
        loc: Loc,
    ) -> ExternalOutcome {
        let a = call.args;
        let fail = |code: u64| ExternalOutcome::Return(call.ret.map(|_| Val::Bits(code as u128)));
        let split = |xy: u64, z: u64| [xy as u32, (xy >> 32) as u32, z as u32];
        let (config, argv, rest) = if ex {
            // `cudaLaunchConfig_t`: grid and block (three 32-bit words each),
            // then the dynamic shared size (64 bits, at offset 24).
            let Some((bytes, _, _)) = self.read_checked(memory, ptr(&a[0]), 32, "the configuration of cudaLaunchKernelEx", loc) else {
                return fail(INVALID_VALUE);
            };
            let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
            let shared = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
            (([word(0), word(1), word(2)], [word(3), word(4), word(5)], shared), ptr(&a[1]), &a[2..])
        } else {
            ((split(int(&a[0]), int(&a[1])), split(int(&a[2]), int(&a[3])), int(&a[4])), ptr(&a[6]), &a[7..])
        };
        self.pending_args.clear();
        self.pending = Some((config.0, config.1, config.2, loc));
        for (k, piece) in rest.chunks(2).enumerate() {
            let (size, offset) = (int(&piece[0]), int(&piece[1]));
            let slot = argv.offset_by(8 * k as i64);
            let Some((word, _, _)) = self.read_checked(memory, slot, 8, "the argument array of a launch", loc) else {
                self.pending = None;
                return fail(INVALID_VALUE);
            };
            let arg = Pointer::decode(u64::from_le_bytes(word[..8].try_into().unwrap()));
            if size > MAX_ARGUMENT_BYTES {
                self.pending = None;
                return fail(INVALID_VALUE);
            }
            let what = format!("argument {k} of the launch (through the argument array)");
            let Some((bytes, flags, term)) = self.read_checked(memory, arg, size, &what, loc) else {
                self.pending = None;
                return fail(INVALID_VALUE);
            };
            self.pending_args.push((offset, bytes, flags, term));
        }
        if rest.len() % 2 != 0 {
            self.finding(HostFindingKind::ApiMisuse, loc, "a launch whose argument sizes are malformed".into());
        }
        // The call returns this launch's error (an invalid configuration),
        // which `cudaGetLastError` reports too; an earlier error stays
        // pending when this launch has none.
        let earlier = std::mem::replace(&mut self.last_error, CUDA_SUCCESS);
        match self.launch(memory, symbol, loc, call.uses_so_far) {
            ExternalOutcome::Return(_) => {
                let error = self.last_error;
                if error == CUDA_SUCCESS {
                    self.last_error = earlier;
                }
                ExternalOutcome::Return(call.ret.map(|_| Val::Bits(error as u128)))
            }
            other => other,
        }
    }
}
