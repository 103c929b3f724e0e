//! lockstep-host: the host-program model.
//!
//! A whole CUDA program is its host `main` plus its kernels. The host side
//! is compiled separately (clang's host compilation) and linked with the
//! device module into one KIR module (`lockstep_kir::append_module`), so
//! that host code and kernels share one memory. `run_program` then executes
//! `main` in the concrete interpreter as a single thread, with this crate
//! as the interpreter's environment (`HavocOracle::call_external`):
//!
//! - the C library that programs use on the host (`malloc`, `calloc`,
//!   `free`, `memcpy`, `memset`, `rand`/`srand` exactly as glibc computes
//!   them, `time`, `exit`);
//! - the CUDA runtime API (`cudaMalloc`, `cudaMallocManaged`, `cudaMemcpy`
//!   of every kind, `cudaMemset`, `cudaFree`, `cudaMemcpyToSymbol`/
//!   `FromSymbol`, synchronisation, error codes), checked for misuse: copies
//!   larger than an allocation, use after free, double free, null or host
//!   pointers where device pointers are due, a wrong copy direction;
//! - kernel launches (`k<<<grid, block, shared>>>(args)`, which the
//!   front-end turns into `cudaConfigureCall` and a launch call): each is
//!   run in the interpreter on the program's own memory, with every thread
//!   of the launch, and recorded with its configuration, arguments and the
//!   sizes of the buffers its pointer arguments point into.
//!
//! The run also records where the program's behaviour could differ between
//! runs. Values the run does not determine (uninitialised variables,
//! memory never written, input, the clock, `rand` seeded from the clock)
//! are followed bit by bit (`lockstep_replay::definedness`); only their
//! uses (a branch, an address, an assertion, a call that acts on one)
//! make the run nondeterministic, and so do functions lockstep does not
//! model. A run without such nondeterminism stands for every behaviour of
//! the program as far as verdicts go, so its outcome is a proof for this
//! program; with it, the run is one behaviour among several, good for
//! finding bugs but not for proving their absence.
//!
//! Invariant: a `ProgramRun` never claims determinism that the run did not
//! have: every source of nondeterminism the run met is in `nondeterminism`.

pub mod inputs;
pub mod libc;
pub mod rand;
mod kernel_env;
use kernel_env::KernelEnv;
mod runtime_launch;

use std::collections::HashMap;

use lockstep_kir::{FuncId, MemSpace, Module, Type};
use lockstep_replay::{
    replay_with_oracle, ExternalCall, ExternalOutcome, HavocOracle, HavocSite, Launch, Loc, Memory,
    ObjId, Pointer, ReplayOptions, ReplayResult, SeededHavoc, Val,
};

pub use lockstep_kir::link::LinkMap;
use lockstep_replay::terms::TermId;

/// The prefix of the calls that stand for launches (see the front-end).
pub const LAUNCH_PREFIX: &str = "__lockstep_launch:";
/// Launches through an argument array (`cudaLaunchKernel`,
/// `cudaLaunchCooperativeKernel`; `cudaLaunchKernelEx`): see
/// `runtime_launch`.
pub const LAUNCH_ARGV_PREFIX: &str = "__lockstep_launch_argv:";
pub const LAUNCH_EX_PREFIX: &str = "__lockstep_launch_ex:";

/// Launches with more threads than this are not executed: the interpreter
/// runs every thread. Their effect on memory is then unknown to the rest of
/// the run, which becomes nondeterministic. The interpreter's race log
/// costs about 24 bytes per byte a launch touches (`replay::races`): a
/// vector add of 2^20 floats runs in about 4 s and 435 MB, within the
/// gigabyte a run may hold; 2^22 would not be.
pub const MAX_LAUNCH_THREADS: u64 = 1 << 20;

/// MTGP32's parameter sets (`CURAND_NUM_MTGP32_PARAMS`), and the size of
/// one `curandStateMtgp32_t` in the prelude.
const MTGP32_PARAMETER_SETS: i32 = 200;
const MTGP32_STATE_BYTES: u64 = 1024 * 4 + 4 + 4 + 8 + 8;
const CURAND_STATUS_ALLOCATION_FAILED: u64 = 102;

/// Interpreter steps all the launches of one run may take together: enough
/// for a launch of `MAX_LAUNCH_THREADS` threads that each run a loop of a
/// few dozen steps (a block reduction of 2^20 elements takes about 100
/// million).
pub const LAUNCH_STEP_BUDGET: u64 = 200_000_000;

/// Interpreter steps `main` itself may take (its host code; launches count
/// against `LAUNCH_STEP_BUDGET`). A host loop is run, not summarised, so a
/// program whose deterministic loops take more steps stops `unknown`.
/// Measured on the release build: about 50 million steps a second (a loop
/// of 8 million iterations of `s += i ^ (i >> 3)` a second), with memory
/// flat (113 MB at 10 and at 50 million iterations: a step allocates
/// nothing that outlives it). 200 million steps are therefore about 4
/// seconds, which a program that never leaves a loop (a validation loop
/// waiting for other input) spends once per run; the ten-fold raise from
/// 20 million lets host loops of some 25 million iterations finish.
pub const HOST_STEP_BUDGET: u64 = 200_000_000;

/// Calls of input functions (`scanf`, `getchar`...) one run may make. Every
/// read of a run gives the same value, so a loop that waits for other input
/// (`do scanf(...); while (c != 7);`) never ends; an input call costs far
/// more than a step, and such a loop would spend the whole step budget
/// (some 40 seconds over a program's three runs). The run stops here
/// instead, incomplete: the program's other runs read other values.
pub const MAX_INPUT_READS: u64 = 100_000;

/// What kind of memory an allocation is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum AllocKind {
    /// `malloc`, `calloc`, `cudaMallocHost`: host memory.
    Host,
    /// `cudaMalloc`: device memory.
    Device,
    /// `cudaMallocManaged`: visible to both.
    Managed,
}

/// A misuse of the CUDA runtime API or the C library on the host.
#[derive(Clone, Debug)]
pub struct HostFinding {
    /// `api-misuse`, `null-pointer` or `out-of-bounds`.
    pub kind: HostFindingKind,
    pub message: String,
    /// The host call site.
    pub loc: Loc,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum HostFindingKind {
    ApiMisuse,
    NullPointer,
    OutOfBounds,
}

/// One kernel launch of the program.
#[derive(Clone, Debug)]
pub struct LaunchRecord {
    pub kernel: FuncId,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory (`extern __shared__`).
    pub shared_bytes: u64,
    /// The arguments, as the kernel receives them.
    pub args: Vec<Val>,
    /// For each pointer argument, the bytes from the pointer to the end of
    /// the allocation it points into (`None` for other arguments).
    pub arg_sizes: Vec<Option<u64>>,
    /// The host call site of the launch.
    pub site: Loc,
    /// Whether everything the program did before the launch was
    /// deterministic (so the arguments and memory are the only possible ones).
    pub deterministic_before: bool,
    /// The interpreter's run of the launch (memory moved back into the
    /// program's), or why it did not run.
    pub outcome: Result<ReplayResult, String>,
    /// Whether the launch read memory never written, or the kernel uses an
    /// uninitialised variable.
    pub read_undefined: bool,
    /// Whether the recorded run gave uninitialised variables all-ones bits
    /// (the first run, with zeros, went right).
    pub undefined_all_ones: bool,
    /// The undetermined bits of each argument (an uninitialised variable,
    /// memory never written, input).
    pub arg_undefined: Vec<u128>,
    /// The term of each undetermined argument (0: none), in the run's
    /// `Memory::terms` (see `lockstep_replay::terms`).
    pub arg_terms: Vec<TermId>,
    /// The host's path condition at the launch: the branches on
    /// undetermined values it took, as terms with the way taken. Every
    /// execution of the program that reaches this launch the same way
    /// satisfies them.
    pub path: Vec<(TermId, bool)>,
}

/// Everything one run of the program saw.
pub struct ProgramRun {
    /// The run of `main` (its violations are host-code violations: failing
    /// assertions, out-of-bounds host accesses); its memory is the final
    /// memory of the program.
    pub host: ReplayResult,
    pub launches: Vec<LaunchRecord>,
    pub findings: Vec<HostFinding>,
    /// Questionable but defined uses of the API (reported as notes).
    pub notes: Vec<(String, Loc)>,
    /// Why another run could behave differently, with where.
    pub nondeterminism: Vec<(String, Loc)>,
    /// The calls whose effect on memory the run did not model (a library
    /// function lockstep does not model, a launch the interpreter did not
    /// run), with where; each is also in `nondeterminism`. Memory the
    /// program reads after one may not hold what the real program would
    /// see, so what goes wrong after it is not confirmed.
    pub unknown_effects: Vec<(String, Loc)>,
    /// The `main` that ran.
    pub main: FuncId,
    /// Whether the run consumed a value `choice` steers (input, the clock,
    /// never-written memory): only then can another choice change it.
    pub choice_matters: bool,
    /// The bits the host's uninitialised variables held (see
    /// `run_program_with`).
    pub undefined_value: u128,
    /// The determined values that undetermined ones were compared with,
    /// in `main` and in the launches (see
    /// `lockstep_replay::ReplayResult::compared_values`).
    pub compared_values: Vec<u128>,
    /// The `choice` the run was made with: every value it read as input
    /// was this number.
    pub choice: u32,
    /// How many input calls (`scanf`, `getchar`...) the run made.
    pub input_reads: u64,
    /// In a run that explores the program's input (`run_program_on`):
    /// every value it consumed as input, in order (see `inputs`).
    pub draws: Option<Vec<inputs::InputDraw>>,
}

impl ProgramRun {
    pub fn is_deterministic(&self) -> bool {
        self.nondeterminism.is_empty()
    }
}

/// Why the program could not be run at all.
#[derive(Debug)]
pub enum HostError {
    NoMain,
    Replay(String),
}

/// Runs the program's `main` (in `module`, the device module with the host
/// module appended) with the host model as its environment. `choice`
/// steers what a nondeterministic program sees: every value it reads as
/// input is `choice`, the clock reads a time `choice` seconds later, and
/// memory never written reads as 0x00, 0x01 or 0xA5 bytes, and
/// uninitialised values (`undef`) are 0, all ones or 0xA5 bytes.
pub fn run_program(module: &Module, main: FuncId, choice: u32) -> Result<ProgramRun, HostError> {
    run_program_with(module, main, choice, 0, None)
}

/// The interpreter's memory limits under a memory limit of `limit` bytes
/// for the whole check (`--memory-limit`), as the concrete search of a
/// kernel takes them: a quarter of it for what the program writes, and the
/// process may hold three quarters (its logs and thread states cost as much
/// again); past either, the run stops, incomplete. `None` keeps the
/// interpreter's defaults.
fn with_memory_limit(options: ReplayOptions, limit: Option<u64>) -> ReplayOptions {
    match limit {
        Some(limit) => ReplayOptions { memory_budget: limit / 4, process_memory_limit: Some(limit / 4 * 3), ..options },
        None => options,
    }
}

/// `run_program` with the host's uninitialised variables holding
/// `undefined_value` (its low bits, as wide as each variable) instead of 0:
/// one of the values an indeterminate variable may hold; `memory_limit`
/// bounds what `main` and its launches may use (see `with_memory_limit`).
pub fn run_program_with(module: &Module, main: FuncId, choice: u32, undefined_value: u128, memory_limit: Option<u64>) -> Result<ProgramRun, HostError> {
    run_program_inner(module, main, choice, undefined_value, memory_limit, None)
}

/// A run that explores the program's input: the `k`-th value it reads is
/// `plan.values[k]` (see `inputs`), its launches record their branches on
/// undetermined values in the path condition too, and `ProgramRun::draws`
/// lists what it read.
pub fn run_program_on(module: &Module, main: FuncId, plan: inputs::InputPlan, memory_limit: Option<u64>) -> Result<ProgramRun, HostError> {
    run_program_inner(module, main, 0, 0, memory_limit, Some(inputs::Draws { plan, draws: Vec::new() }))
}

fn run_program_inner(
    module: &Module,
    main: FuncId,
    choice: u32,
    undefined_value: u128,
    memory_limit: Option<u64>,
    draws: Option<inputs::Draws>,
) -> Result<ProgramRun, HostError> {
    let func = module.functions.get(main).ok_or(HostError::NoMain)?;
    let mut env = HostEnv::new(module);
    env.choice = choice;
    env.memory_limit = memory_limit;
    env.draws = draws;
    let mut memory = Memory::new();
    // `main(argc, argv)`: one argument, the program's name.
    let mut args = Vec::new();
    if !func.params.is_empty() {
        let name = memory.alloc_named("argv[0]", MemSpace::Private, 8, Some(b"program\0"));
        let argv_bytes: Vec<u8> = [name.as_ptr().encode(), 0].iter().flat_map(|w| w.to_le_bytes()).collect();
        let argv = memory.alloc_named("argv", MemSpace::Private, 16, Some(&argv_bytes));
        for (i, p) in func.params.iter().enumerate() {
            args.push(match (i, p.ty) {
                (0, Type::Int(_)) => Val::i32(1),
                (1, Type::Ptr(_)) => argv,
                _ => Val::Bits(0),
            });
        }
    }
    let options = ReplayOptions {
        check_races: false,
        step_budget_per_thread: HOST_STEP_BUDGET,
        step_budget_total: HOST_STEP_BUDGET,
        host_code: true,
        undefined_value,
        track_definedness: true,
        record_path: env.draws.is_some(),
        input_loops: match &env.draws {
            Some(d) if !d.plan.no_rounds => inputs::loops(module),
            _ => Vec::new(),
        },
        ..with_memory_limit(ReplayOptions::default(), memory_limit)
    };
    let host = replay_with_oracle(module, main, &Launch::linear(1, 1), &args, memory, &options, &mut env)
        .map_err(|e| HostError::Replay(format!("{e:?}")))?;
    let mut nondeterminism = env.nondeterminism;
    // The host's own uses of unspecified values, as the run met them (the
    // launches' are in `nondeterminism` already).
    if let Some(loc) = host.first_unspecified_use.filter(|_| host.unspecified_uses > 0) {
        let line = line_of(module, loc);
        nondeterminism.push((
            format!("the host program uses a value the run does not determine (an uninitialised variable, memory never written, input or the clock){line}"),
            loc,
        ));
    }
    if host.memory.undefined_reads > 0 && !nondeterminism.iter().any(|(r, _)| r.contains("never written")) {
        nondeterminism.push(("the program reads memory that was never written".into(), env.last_loc.unwrap_or(Loc {
            func: main,
            block: func.entry,
            inst: None,
        })));
    }
    let choice_matters = env.choice_used || host.memory.undefined_reads > 0 || host.unspecified_uses > 0;
    let mut compared_values = host.compared_values.clone();
    for launch in &env.launches {
        if let Ok(result) = &launch.outcome {
            for &v in &result.compared_values {
                if !compared_values.contains(&v) {
                    compared_values.push(v);
                }
            }
        }
    }
    Ok(ProgramRun {
        host,
        launches: env.launches,
        findings: env.findings,
        notes: env.notes,
        nondeterminism,
        unknown_effects: env.unknown_effects,
        main,
        choice_matters,
        undefined_value,
        compared_values,
        choice,
        input_reads: env.input_reads,
        draws: env.draws.map(|d| d.draws),
    })
}

/// The interpreter's environment while `main` runs.
struct HostEnv<'m> {
    module: &'m Module,
    kernels: HashMap<&'m str, FuncId>,
    /// What `malloc`/`cudaMalloc` and friends created (a freed one is an
    /// object that is no longer `live`).
    allocs: HashMap<ObjId, AllocKind>,
    /// The configuration of the next launch (`cudaConfigureCall`), and
    /// where it was given: the `<<<...>>>` in the caller, the launch's site
    /// (the launch itself happens in the stub clang generates at the kernel).
    pending: Option<([u32; 3], [u32; 3], u64, Loc)>,
    /// The next launch's arguments as `cudaSetupArgument` gave them:
    /// (offset, bytes).
    /// With each, which of its bytes are undetermined.
    /// With each, which of its bytes are undetermined, and its term.
    pending_args: Vec<(u64, Vec<u8>, Vec<bool>, TermId)>,
    rand: rand::GlibcRand,
    /// Set once `rand` was seeded from the clock or another unknown value.
    rand_unknown: bool,
    last_error: u32,
    launches: Vec<LaunchRecord>,
    findings: Vec<HostFinding>,
    notes: Vec<(String, Loc)>,
    nondeterminism: Vec<(String, Loc)>,
    unknown_effects: Vec<(String, Loc)>,
    last_loc: Option<Loc>,
    havoc: SeededHavoc,
    /// See `run_program`.
    choice: u32,
    /// See `run_program_with`.
    memory_limit: Option<u64>,
    /// Interpreter steps the remaining launches may take together, so that
    /// a program launching many large kernels still finishes in seconds.
    launch_steps_left: u64,
    /// Set when a value `choice` steers was read.
    choice_used: bool,
    /// Calls of input functions so far (see `MAX_INPUT_READS`).
    input_reads: u64,
    /// The undetermined bits of the last call's result: input, the clock,
    /// `rand` seeded from the clock (see `HavocOracle::result_undefined`).
    result_undefined: u128,
    /// Bytes left in the device heap that kernels' `malloc` and `new` draw
    /// from (`DEVICE_HEAP_BYTES`, or what `cudaDeviceSetLimit` with
    /// `cudaLimitMallocHeapSize` set; see `KernelEnv`).
    device_heap_left: u64,
    /// The term of the last call's result when it is an input draw (see
    /// `HavocOracle::result_term`).
    result_term: TermId,
    /// In a run that explores the input: its draws (see `inputs`).
    draws: Option<inputs::Draws>,
}

/// The CUDA device heap's default size (`cudaLimitMallocHeapSize`): 8 MiB.
const DEVICE_HEAP_BYTES: u64 = 8 << 20;
/// `cudaLimitMallocHeapSize` in `enum cudaLimit`.
const CUDA_LIMIT_MALLOC_HEAP_SIZE: u64 = 2;

const CUDA_SUCCESS: u32 = 0;
const CUDA_ERROR_INVALID_VALUE: u32 = 1;
const CUDA_ERROR_MEMORY_ALLOCATION: u32 = 2;
/// The most bytes of parameters a kernel takes (CUDA 12.1 and later).
const MAX_ARGUMENT_BYTES: u64 = 32 << 10;
const CUDA_ERROR_INVALID_CONFIGURATION: u32 = 9;
const CUDA_ERROR_INVALID_DEVICE_POINTER: u32 = 17;
const CUDA_ERROR_INVALID_MEMCPY_DIRECTION: u32 = 21;

impl<'m> HostEnv<'m> {
    fn new(module: &'m Module) -> HostEnv<'m> {
        let kernels = module.kernels().map(|(id, f)| (f.link_name.as_str(), id)).collect();
        HostEnv {
            module,
            kernels,
            allocs: HashMap::new(),
            pending: None,
            device_heap_left: DEVICE_HEAP_BYTES,
            pending_args: Vec::new(),
            rand: rand::GlibcRand::default(),
            rand_unknown: false,
            last_error: CUDA_SUCCESS,
            launches: Vec::new(),
            findings: Vec::new(),
            notes: Vec::new(),
            nondeterminism: Vec::new(),
            unknown_effects: Vec::new(),
            last_loc: None,
            havoc: SeededHavoc { seed: 0x686f_7374 },
            choice: 0,
            memory_limit: None,
            launch_steps_left: LAUNCH_STEP_BUDGET,
            choice_used: false,
            input_reads: 0,
            result_undefined: 0,
            result_term: 0,
            draws: None,
        }
    }

    fn finding(&mut self, kind: HostFindingKind, loc: Loc, message: String) {
        self.findings.push(HostFinding { kind, message, loc });
    }

    fn nondeterministic(&mut self, why: String, loc: Loc) {
        if !self.nondeterminism.iter().any(|(w, _)| *w == why) {
            self.nondeterminism.push((why, loc));
        }
    }

    /// A call whose effect on memory the run does not model: another run
    /// could differ, and the memory after it is the model's guess.
    fn effect_unknown(&mut self, why: String, loc: Loc) {
        if !self.unknown_effects.iter().any(|(w, _)| *w == why) {
            self.unknown_effects.push((why.clone(), loc));
        }
        self.nondeterministic(why, loc);
    }

    /// The allocation a pointer points into, with the object's size, if it
    /// is a live object.
    fn object_of(&self, memory: &Memory, p: Pointer) -> Option<(ObjId, u64)> {
        let id = p.obj.filter(|id| (id.0 as usize) < memory.len())?;
        Some((id, memory.object(id).size()))
    }

    /// Checks that `[p, p + len)` lies in one live object; reports a finding
    /// naming `what` (e.g. "the source of cudaMemcpy") otherwise.
    fn check_range(&mut self, memory: &Memory, p: Pointer, len: u64, what: &str, loc: Loc) -> Option<(ObjId, u64)> {
        if p.is_null() {
            if len > 0 {
                self.finding(HostFindingKind::NullPointer, loc, format!("{what} is a null pointer"));
            }
            return None;
        }
        if p.obj.is_none() {
            self.finding(HostFindingKind::ApiMisuse, loc, format!("{what} points to no allocation"));
            return None;
        }
        let (id, size) = self.object_of(memory, p)?;
        let obj = memory.object(id);
        if !obj.live {
            self.finding(HostFindingKind::ApiMisuse, loc, format!("{what} points to `{}`, which was freed", obj.name));
            return None;
        }
        let end = u64::try_from(p.offset).ok().and_then(|off| off.checked_add(len));
        if end.is_none_or(|e| e > size) {
            self.finding(
                HostFindingKind::OutOfBounds,
                loc,
                format!(
                    "{what}: {len} bytes at offset {} of `{}`, which has {size} bytes",
                    p.offset, obj.name
                ),
            );
            return None;
        }
        Some((id, p.offset as u64))
    }

    fn kind_of(&self, memory: &Memory, id: ObjId) -> AllocKind {
        match self.allocs.get(&id) {
            Some(&kind) => kind,
            None => match memory.object(id).space {
                // Module globals: `__device__`/`__constant__` variables.
                MemSpace::Global | MemSpace::Constant | MemSpace::Shared | MemSpace::Generic => AllocKind::Device,
                MemSpace::Private => AllocKind::Host,
            },
        }
    }

    fn store_pointer(&mut self, memory: &mut Memory, at: Pointer, value: Val, what: &str, loc: Loc) -> bool {
        let Some((id, off)) = self.check_range(memory, at, 8, what, loc) else {
            return false;
        };
        let bytes = value.as_ptr().encode().to_le_bytes();
        memory.write(id, off, &bytes);
        true
    }

    /// An allocation of `size` bytes, or `None` when the model cannot
    /// back it (see `MAX_ALLOCATION_BYTES`): the call then fails as it
    /// would on a machine without the memory. A request of 2^47 bytes or
    /// more (a negative size converted to `size_t`, say) fails on every
    /// machine, since no process has that much address space; a smaller
    /// one might succeed elsewhere, so its failure is one behaviour of
    /// several and is recorded as such.
    fn try_allocate(&mut self, memory: &mut Memory, kind: AllocKind, size: u64, name: String, call: &str, loc: Loc) -> Option<Val> {
        if size <= lockstep_replay::memory::MAX_ALLOCATION_BYTES {
            return Some(self.allocate(memory, kind, size, name));
        }
        if size < 1 << 47 {
            let limit = lockstep_replay::memory::MAX_ALLOCATION_BYTES >> 30;
            self.nondeterministic(
                format!("`{call}` of {size} bytes fails in this run (the model backs at most {limit} GiB per allocation); a machine with more memory may succeed"),
                loc,
            );
        }
        None
    }

    fn allocate(&mut self, memory: &mut Memory, kind: AllocKind, size: u64, name: String) -> Val {
        // Host memory is private to the host; device memory is global;
        // managed memory is both (generic: kernels log it as global).
        let space = match kind {
            AllocKind::Host => MemSpace::Private,
            AllocKind::Device => MemSpace::Global,
            AllocKind::Managed => MemSpace::Generic,
        };
        // What never-written bytes read as: zero first, other patterns in
        // the further runs of a nondeterministic program.
        let fill = [0x00, 0x01, 0xA5][self.choice as usize % 3];
        let p = memory.alloc_undefined(&name, space, size, fill);
        self.allocs.insert(p.as_ptr().obj.expect("allocated"), kind);
        p
    }

    fn free(&mut self, memory: &mut Memory, p: Pointer, device: bool, what: &str, loc: Loc) -> u32 {
        if p.is_null() {
            return CUDA_SUCCESS;
        }
        let Some(id) = p.obj.filter(|id| (id.0 as usize) < memory.len()) else {
            self.finding(HostFindingKind::ApiMisuse, loc, format!("{what} of a pointer to no allocation"));
            return CUDA_ERROR_INVALID_DEVICE_POINTER;
        };
        let name = memory.object(id).name.clone();
        let Some(&kind) = self.allocs.get(&id) else {
            let message = format!("{what} of `{name}`, which was not allocated by {}", if device { "cudaMalloc" } else { "malloc" });
            if device {
                // CUDA rejects it with an error code and frees nothing: a
                // leak and a sign of confusion (`cudaFree(&p)` for
                // `cudaFree(p)`), but defined behaviour.
                self.notes.push((format!("{message}: CUDA returns an error and frees nothing"), loc));
            } else {
                self.finding(HostFindingKind::ApiMisuse, loc, message);
            }
            return CUDA_ERROR_INVALID_DEVICE_POINTER;
        };
        if !memory.object(id).live {
            self.finding(HostFindingKind::ApiMisuse, loc, format!("double free: {what} of `{name}`, which was already freed"));
            return CUDA_ERROR_INVALID_DEVICE_POINTER;
        }
        let right_kind = match kind {
            AllocKind::Host => !device,
            AllocKind::Device | AllocKind::Managed => device,
        };
        if !right_kind || p.offset != 0 {
            self.finding(
                HostFindingKind::ApiMisuse,
                loc,
                if p.offset != 0 {
                    format!("{what} of a pointer into the middle of `{name}`")
                } else {
                    format!("{what} of `{name}`, which was allocated by {}", if device { "malloc" } else { "cudaMalloc" })
                },
            );
            return CUDA_ERROR_INVALID_DEVICE_POINTER;
        }
        memory.object_mut(id).live = false;
        CUDA_SUCCESS
    }

    /// `cudaMemcpy` and its relatives: checks both ranges and the
    /// direction, then copies.
    #[allow(clippy::too_many_arguments)]
    fn memcpy(&mut self, memory: &mut Memory, dst: Pointer, src: Pointer, len: u64, kind: Option<u32>, name: &str, loc: Loc) -> u32 {
        if len == 0 {
            return CUDA_SUCCESS;
        }
        let d = self.check_range(memory, dst, len, &format!("the destination of {name}"), loc);
        let s = self.check_range(memory, src, len, &format!("the source of {name}"), loc);
        let (Some((dobj, doff)), Some((sobj, soff))) = (d, s) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if let Some(kind) = kind {
            let (dk, sk) = (self.kind_of(memory, dobj), self.kind_of(memory, sobj));
            let device = |k: AllocKind| k != AllocKind::Host;
            let host = |k: AllocKind| k != AllocKind::Device;
            let ok = match kind {
                0 => host(dk) && host(sk),
                1 => device(dk) && host(sk),
                2 => host(dk) && device(sk),
                3 => device(dk) && device(sk),
                4 => true,
                _ => false,
            };
            if !ok {
                let names = ["cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault"];
                let side = |k: AllocKind| match k {
                    AllocKind::Host => "host",
                    AllocKind::Device => "device",
                    AllocKind::Managed => "managed",
                };
                self.finding(
                    HostFindingKind::ApiMisuse,
                    loc,
                    format!(
                        "{name} with {} copies from {} memory `{}` to {} memory `{}`",
                        names.get(kind as usize).copied().unwrap_or("an invalid cudaMemcpyKind"),
                        side(sk),
                        memory.object(sobj).name,
                        side(dk),
                        memory.object(dobj).name
                    ),
                );
                return CUDA_ERROR_INVALID_MEMCPY_DIRECTION;
            }
        }
        memory.copy_bytes(dobj, doff, sobj, soff, len);
        CUDA_SUCCESS
    }

    /// The kernel's arguments from the bytes `cudaSetupArgument` received:
    /// scalars and pointers decoded, a by-value struct copied into a
    /// private object that the kernel's parameter points to. With them,
    /// the undetermined bits of each (a struct's undetermined bytes stay
    /// undetermined in its copy).
    fn kernel_args(&mut self, memory: &mut Memory, kernel: FuncId) -> Result<(Vec<Val>, Vec<u128>, Vec<TermId>), String> {
        let func = &self.module.functions[kernel];
        let pieces = std::mem::take(&mut self.pending_args);
        if pieces.len() != func.params.len() {
            return Err(format!("the launch passes {} arguments for {} parameters", pieces.len(), func.params.len()));
        }
        let mut args = Vec::new();
        let mut undefined = Vec::new();
        let mut terms = Vec::new();
        for (param, (_, bytes, flags, term)) in func.params.iter().zip(pieces) {
            terms.push(term);
            let mut word = [0u8; 16];
            let n = bytes.len().min(16);
            word[..n].copy_from_slice(&bytes[..n]);
            let bits = u128::from_le_bytes(word);
            let width = param.ty.bits();
            args.push(match param.ty {
                Type::Ptr(MemSpace::Private) => {
                    let copy = memory.alloc_named(&param.name, MemSpace::Private, bytes.len() as u64, Some(&bytes));
                    if let Some(id) = copy.as_ptr().obj {
                        memory.note_undefined(id, 0, &flags);
                    }
                    undefined.push(0);
                    args.push(copy);
                    continue;
                }
                Type::Ptr(_) => Val::Ptr(Pointer::decode(bits as u64)),
                Type::Int(w) | Type::Float(w) => Val::Bits(bits & lockstep_replay::value::mask(w as u32)),
            });
            undefined.push(lockstep_replay::definedness::from_byte_flags(&flags, width));
        }
        Ok((args, undefined, terms))
    }

    /// A launch; `host_uses` counts the host's uses of undetermined values
    /// so far.
    fn launch(&mut self, memory: &mut Memory, symbol: &str, loc: Loc, host_uses: u64) -> ExternalOutcome {
        let Some(&kernel) = self.kernels.get(symbol) else {
            return ExternalOutcome::Unsupported(format!("a launch of `{symbol}`, which is not a kernel of the device compilation"));
        };
        let Some((grid, block, shared_bytes, site)) = self.pending.take() else {
            return ExternalOutcome::Unsupported("a launch without a configuration".into());
        };
        let (args, arg_undefined, arg_terms) = match self.kernel_args(memory, kernel) {
            Ok(args) => args,
            Err(why) => return ExternalOutcome::Unsupported(why),
        };
        let args = &args[..];
        let func = &self.module.functions[kernel];
        let arg_sizes = args
            .iter()
            .zip(&func.params)
            .map(|(a, p)| match (p.ty, a) {
                (Type::Ptr(_), Val::Ptr(ptr)) => self
                    .object_of(memory, *ptr)
                    .map(|(_, size)| size.saturating_sub(ptr.offset.max(0) as u64)),
                _ => None,
            })
            .collect();
        let deterministic_before = self.nondeterminism.is_empty() && memory.undefined_reads == 0 && host_uses == 0;
        let mut record = LaunchRecord {
            kernel,
            grid,
            block,
            shared_bytes,
            args: args.to_vec(),
            arg_sizes,
            site,
            deterministic_before,
            outcome: Err(String::new()),
            read_undefined: false,
            undefined_all_ones: false,
            arg_undefined: arg_undefined.clone(),
            arg_terms,
            path: memory.terms.path.clone(),
        };
        // In 128 bits, so that no grid of 32-bit sizes can wrap the count.
        let threads: u128 = grid.iter().chain(&block).map(|&d| d as u128).product();
        if !(Launch { group_size: block, num_groups: grid, global_offset: [0; 3] }).cuda_launchable() {
            // CUDA refuses the launch: the kernel does not run.
            self.last_error = CUDA_ERROR_INVALID_CONFIGURATION;
            record.outcome = Err(format!(
                "the launch configuration is invalid (grid {grid:?}, block {block:?}): CUDA does not run the kernel"
            ));
            self.launches.push(record);
            return ExternalOutcome::Return(None);
        }
        let not_run = if self.launch_steps_left == 0 {
            Some("the interpreter's budget for the program's launches is spent".to_string())
        } else if threads > MAX_LAUNCH_THREADS as u128 {
            Some(format!("the launch has {threads} threads, more than the interpreter runs ({MAX_LAUNCH_THREADS})"))
        } else {
            None
        };
        if let Some(why) = not_run {
            // The kernel's effect on memory is unknown to the rest of the run.
            self.effect_unknown(format!("the effect of launching `{}` is unknown: {why}", func.name), loc);
            record.outcome = Err(why);
            self.launches.push(record);
            return ExternalOutcome::Return(None);
        }
        let launch = Launch { group_size: block, num_groups: grid, global_offset: [0; 3] };
        // Two writes of the same value to a byte are benign. The values are
        // the program's own, and any read that could see another value under
        // another schedule races with a write and is reported itself.
        let options = ReplayOptions {
            undefined_value: undefined_value(self.choice),
            dynamic_shared_size: shared_bytes,
            benign_writes_from_memory: true,
            step_budget_total: self.launch_steps_left.min(ReplayOptions::default().step_budget_total),
            // Undetermined values (uninitialised variables, memory never
            // written, a cuRAND draw) are followed through the kernel:
            // only their uses make the launch one behaviour among several.
            track_definedness: true,
            arg_undefined,
            // Exploring the program's input, the arguments' terms go with
            // them, so that a kernel's branches on input have terms.
            arg_terms: if self.draws.is_some() { record.arg_terms.clone() } else { Vec::new() },
            // Exploring the program's input, a kernel's branches on it are
            // part of the path.
            record_path: self.draws.is_some(),
            ..with_memory_limit(ReplayOptions::default(), self.memory_limit)
        };
        let uses_undefined = undefined_value_use(self.module, kernel).is_some();
        // A kernel that uses uninitialised variables may get a second run;
        // only then is the memory before the launch worth a copy.
        let snapshot = uses_undefined.then(|| memory.clone());
        let taken = std::mem::take(memory);
        let fill = [0x00, 0x01, 0xA5][self.choice as usize % 3];
        let mut kernel_env = KernelEnv { havoc: SeededHavoc { seed: options.havoc_seed }, heap_left: self.device_heap_left, fill };
        let replayed = replay_with_oracle(self.module, kernel, &launch, args, taken, &options, &mut kernel_env);
        self.device_heap_left = kernel_env.heap_left;
        match replayed {
            Ok(mut result) => {
                if let (Some(snapshot), true) = (snapshot, result.violations.is_empty()) {
                    // Uninitialised variables read 0 in that run; any value is
                    // possible, so run again with all ones, and keep that
                    // run if it goes wrong (its memory too).
                    let other = ReplayOptions { undefined_value: u128::MAX, ..options.clone() };
                    let mut env = KernelEnv { havoc: SeededHavoc { seed: options.havoc_seed }, heap_left: self.device_heap_left, fill };
                    if let Ok(second) = replay_with_oracle(self.module, kernel, &launch, args, snapshot, &other, &mut env) {
                        self.launch_steps_left = self.launch_steps_left.saturating_sub(second.steps);
                        if !second.violations.is_empty() {
                            result = second;
                            record.undefined_all_ones = true;
                        }
                    }
                }
                *memory = std::mem::take(&mut result.memory);
                self.launch_steps_left = self.launch_steps_left.saturating_sub(result.steps);
                if !result.is_feasible() {
                    // A thread stopped at an assumption its values broke (a
                    // modelled function's range, or the kernel's own
                    // `__assume`): what follows is no execution of the
                    // program, so nothing it shows may be reported.
                    let why = format!(
                        "the launch of `{}` broke an assumption (its values are not ones the program can produce), so the run stops there",
                        func.name
                    );
                    record.outcome = Err(why.clone());
                    self.launches.push(record);
                    return ExternalOutcome::Unsupported(why);
                }
                // A run that used an uninitialised value (or another value
                // the model leaves open) computed with one value among
                // many: like a read of memory never written, it makes the
                // program's run one behaviour among several.
                if let Some(at) = result.first_unspecified_use.filter(|_| result.unspecified_uses > 0) {
                    // Another run of the program gives them other values.
                    self.choice_used = true;
                    let line = line_of(self.module, at);
                    self.nondeterministic(
                        format!("the launch of `{}` uses a value the run does not determine (an uninitialised variable, memory never written, input or the clock){line}", func.name),
                        at,
                    );
                }
                record.read_undefined = result.unspecified_uses > 0;
                if !result.completed {
                    self.effect_unknown(format!("the launch of `{}` did not run to completion", func.name), loc);
                }
                record.outcome = Ok(result);
            }
            Err(e) => {
                // The checks above leave no launch the interpreter refuses;
                // should one slip through, the program's memory went with it
                // and the run cannot go on.
                record.outcome = Err(format!("{e:?}"));
                self.launches.push(record);
                return ExternalOutcome::Unsupported(format!("the interpreter refused the launch of `{}`: {e:?}", func.name));
            }
        }
        self.launches.push(record);
        ExternalOutcome::Return(None)
    }
}

fn int(v: &Val) -> u64 {
    v.bits() as u64
}

fn ptr(v: &Val) -> Pointer {
    v.as_ptr()
}

impl HavocOracle for HostEnv<'_> {
    fn havoc(&mut self, site: &HavocSite) -> u128 {
        self.havoc.havoc(site)
    }

    fn result_undefined(&mut self) -> u128 {
        std::mem::take(&mut self.result_undefined)
    }

    fn result_term(&mut self) -> TermId {
        std::mem::take(&mut self.result_term)
    }

    fn input_round(&mut self, targets: &[(ObjId, u64)], memory: &mut Memory) -> bool {
        match self.draws.as_mut() {
            Some(draws) => inputs::round(draws, memory, targets),
            None => false,
        }
    }

    fn call_external(&mut self, call: &ExternalCall<'_>, memory: &mut Memory) -> Option<ExternalOutcome> {
        let loc = call.loc;
        self.last_loc = Some(loc);
        self.result_undefined = 0;
        self.result_term = 0;
        let a = call.args;
        let ret = |v: u64| Some(ExternalOutcome::Return(call.ret.map(|_| Val::Bits(v as u128))));
        let ret_err = |code: u32| Some(ExternalOutcome::Return(call.ret.map(|_| Val::Bits(code as u128))));
        if let Some(symbol) = call.name.strip_prefix(LAUNCH_PREFIX) {
            return Some(match self.launch(memory, symbol, loc, call.uses_so_far) {
                ExternalOutcome::Return(_) => ExternalOutcome::Return(call.ret.map(|_| Val::Bits(0))),
                other => other,
            });
        }
        if let Some(symbol) = call.name.strip_prefix(LAUNCH_ARGV_PREFIX) {
            return Some(self.launch_through_array(memory, symbol, call, false, loc));
        }
        if let Some(symbol) = call.name.strip_prefix(LAUNCH_EX_PREFIX) {
            return Some(self.launch_through_array(memory, symbol, call, true, loc));
        }
        let name = call.name;
        if call.arg_undefined.iter().any(|&u| u != 0) && !ignores_undetermined_arguments(name) {
            // The call acts on a value the program never set: what it does
            // is one behaviour among several.
            self.choice_used = true;
            let line = line_of(self.module, loc);
            self.nondeterministic(format!("the program passes a value it never set to `{name}`{line}"), loc);
        }
        match libc::call(name, a, memory) {
            Some(libc::LibcResult::Value(v)) => return Some(ExternalOutcome::Return(call.ret.and(v))),
            Some(libc::LibcResult::BadArgument(message)) => {
                self.finding(HostFindingKind::OutOfBounds, loc, message);
                return Some(ExternalOutcome::Return(call.ret.map(|_| Val::Bits(0))));
            }
            None => {}
        }
        match name {
            "malloc" => {
                let size = int(&a[0]);
                let name = format!("malloc'd buffer {}", memory.len());
                let p = self.try_allocate(memory, AllocKind::Host, size, name, "malloc", loc);
                Some(ExternalOutcome::Return(Some(p.unwrap_or(Val::Ptr(Pointer::NULL)))))
            }
            "calloc" => {
                // A product that overflows is a request calloc refuses
                // (saturated to a size no machine grants).
                let size = int(&a[0]).saturating_mul(int(&a[1]));
                let name = format!("calloc'd buffer {}", memory.len());
                let Some(p) = self.try_allocate(memory, AllocKind::Host, size, name, "calloc", loc) else {
                    return Some(ExternalOutcome::Return(Some(Val::Ptr(Pointer::NULL))));
                };
                // calloc's zeros are defined, whatever never-written bytes
                // read as in this run.
                if let Some(id) = p.as_ptr().obj {
                    memory.fill(id, 0, size, 0);
                }
                Some(ExternalOutcome::Return(Some(p)))
            }
            "free" => {
                self.free(memory, ptr(&a[0]), false, "free", loc);
                Some(ExternalOutcome::Return(None))
            }
            // C++ `new` and `new[]` (`operator new(size_t)`, `operator
            // new[](size_t)`) never return null: a request they cannot meet
            // throws `std::bad_alloc`, which this model does not follow, so
            // the run stops there. The `nothrow` forms return null instead,
            // as `malloc` does.
            "_Znwm" | "_Znam" | "_ZnwmSt11align_val_t" | "_ZnamSt11align_val_t" => {
                let size = int(&a[0]);
                let name = format!("new'd buffer {}", memory.len());
                match self.try_allocate(memory, AllocKind::Host, size, name, "operator new", loc) {
                    Some(p) => Some(ExternalOutcome::Return(Some(p))),
                    None => Some(ExternalOutcome::Unsupported(format!("`operator new` of {size} bytes throws std::bad_alloc here, and exceptions are not modelled"))),
                }
            }
            // A `throw`: the lowering follows only the ways calls return
            // normally (an `invoke` is a call and a jump to its normal
            // successor), so a run that throws stops here, unsupported,
            // rather than go on as if the call had returned.
            // libstdc++'s `std::__throw_length_error` and friends, which its
            // containers call (`vector::at` out of range), throw too.
            _ if throws_exception(name) => {
                Some(ExternalOutcome::Unsupported("the program throws a C++ exception here, and exceptions are not modelled".to_string()))
            }
            "_ZnwmRKSt9nothrow_t" | "_ZnamRKSt9nothrow_t" => {
                let size = int(&a[0]);
                let name = format!("new'd buffer {}", memory.len());
                let p = self.try_allocate(memory, AllocKind::Host, size, name, "operator new", loc);
                Some(ExternalOutcome::Return(Some(p.unwrap_or(Val::Ptr(Pointer::NULL)))))
            }
            // `delete` and `delete[]` of null do nothing, as `free` does.
            "_ZdlPv" | "_ZdaPv" | "_ZdlPvm" | "_ZdaPvm" | "_ZdlPvSt11align_val_t" | "_ZdaPvSt11align_val_t" => {
                self.free(memory, ptr(&a[0]), false, "operator delete", loc);
                Some(ExternalOutcome::Return(None))
            }
            "cudaMalloc" | "cudaMallocManaged" | "cudaMallocHost" | "cudaHostAlloc" => {
                let kind = match name {
                    "cudaMalloc" => AllocKind::Device,
                    "cudaMallocManaged" => AllocKind::Managed,
                    _ => AllocKind::Host,
                };
                let size = int(&a[1]);
                let label = match kind {
                    AllocKind::Device => "device buffer",
                    AllocKind::Managed => "managed buffer",
                    AllocKind::Host => "pinned host buffer",
                };
                // Named after the variable that receives it, when there is one.
                let target = ptr(&a[0]);
                let name = match target.obj.filter(|id| (id.0 as usize) < memory.len()) {
                    Some(id) if target.offset == 0 && memory.object(id).size() == 8 => memory.object(id).name.clone(),
                    _ => format!("{label} {}", memory.len()),
                };
                let Some(p) = self.try_allocate(memory, kind, size, name, call.name, loc) else {
                    // As CUDA does, the pointer is left as it was.
                    return ret_err(CUDA_ERROR_MEMORY_ALLOCATION);
                };
                if !self.store_pointer(memory, ptr(&a[0]), p, &format!("the first argument of {}", call.name), loc) {
                    return ret_err(CUDA_ERROR_INVALID_VALUE);
                }
                ret(0)
            }
            "cudaFree" | "cudaFreeHost" => {
                let device = name == "cudaFree";
                let code = self.free(memory, ptr(&a[0]), device, name, loc);
                ret_err(code)
            }
            "cudaMemcpy" | "cudaMemcpyAsync" => {
                let code = self.memcpy(memory, ptr(&a[0]), ptr(&a[1]), int(&a[2]), Some(int(&a[3]) as u32), name, loc);
                ret_err(code)
            }
            "memcpy" | "memmove" => {
                self.memcpy(memory, ptr(&a[0]), ptr(&a[1]), int(&a[2]), None, name, loc);
                Some(ExternalOutcome::Return(call.ret.map(|_| a[0])))
            }
            "cudaMemcpyToSymbol" | "cudaMemcpyToSymbolAsync" => {
                let symbol = ptr(&a[0]).offset_by(int(&a[3]) as i64);
                let code = self.memcpy(memory, symbol, ptr(&a[1]), int(&a[2]), None, name, loc);
                ret_err(code)
            }
            "cudaMemcpyFromSymbol" | "cudaMemcpyFromSymbolAsync" => {
                let symbol = ptr(&a[1]).offset_by(int(&a[3]) as i64);
                let code = self.memcpy(memory, ptr(&a[0]), symbol, int(&a[2]), None, name, loc);
                ret_err(code)
            }
            "cudaMemset" | "cudaMemsetAsync" | "memset" => {
                let (p, byte, len) = (ptr(&a[0]), int(&a[1]) as u8, int(&a[2]));
                if let Some((id, off)) = self.check_range(memory, p, len, &format!("the destination of {name}"), loc) {
                    memory.fill(id, off, len, byte);
                    if name == "cudaMemset" && self.kind_of(memory, id) == AllocKind::Host {
                        let obj = memory.object(id).name.clone();
                        self.finding(HostFindingKind::ApiMisuse, loc, format!("cudaMemset of host memory `{obj}`"));
                    }
                }
                if name == "memset" {
                    Some(ExternalOutcome::Return(call.ret.map(|_| a[0])))
                } else {
                    ret(0)
                }
            }
            "cudaSetupArgument" => {
                let (p, size, offset) = (ptr(&a[0]), int(&a[1]), int(&a[2]));
                match self.check_range(memory, p, size, "an argument of a launch", loc) {
                    // A kernel's parameters take at most 32 KiB (CUDA 12.1;
                    // 4 KiB before); a larger argument is no argument.
                    Some((id, off)) if size <= MAX_ARGUMENT_BYTES => {
                        let bytes = memory.object(id).bytes.read(off, size).unwrap_or_default();
                        let flags = memory.undefined_flags(id, off, bytes.len());
                        let term = memory.tag_at(id, off, size).unwrap_or(0);
                        self.pending_args.push((offset, bytes, flags, term));
                        ret(0)
                    }
                    Some(_) => ret_err(CUDA_ERROR_INVALID_VALUE),
                    None => ret_err(CUDA_ERROR_INVALID_VALUE),
                }
            }
            "cudaConfigureCall" => {
                self.pending_args.clear();
                // (gridDim.x | gridDim.y << 32, gridDim.z, blockDim..., shared bytes, stream)
                let split = |xy: u64, z: u64| [xy as u32, (xy >> 32) as u32, z as u32];
                self.pending = Some((split(int(&a[0]), int(&a[1])), split(int(&a[2]), int(&a[3])), int(&a[4]), loc));
                ret(0)
            }
            "cudaGetLastError" => {
                let e = std::mem::replace(&mut self.last_error, CUDA_SUCCESS);
                ret(e as u64)
            }
            "cudaPeekAtLastError" => ret(self.last_error as u64),
            // The device heap's size, which kernels' `malloc` and `new`
            // draw from; the other limits change nothing lockstep checks.
            "cudaDeviceSetLimit" if int(&a[0]) == CUDA_LIMIT_MALLOC_HEAP_SIZE => {
                self.device_heap_left = int(&a[1]);
                ret(0)
            }
            "cudaDeviceSynchronize" | "cudaThreadSynchronize" | "cudaDeviceReset" | "cudaThreadExit" | "cudaSetDevice"
            | "cudaStreamSynchronize" | "cudaEventSynchronize" | "cudaEventRecord" | "cudaEventDestroy"
            | "cudaStreamDestroy" | "cudaDeviceSetLimit" | "cudaDeviceSetCacheConfig" | "cudaFuncSetCacheConfig"
            | "cudaSetDeviceFlags" | "cudaProfilerStart" | "cudaProfilerStop" | "cudaDeviceSetSharedMemConfig"
            | "cudaThreadSetCacheConfig" | "cudaHostRegister" | "cudaHostUnregister" | "cudaMemPrefetchAsync"
            | "cudaStreamWaitEvent" => ret(0),
            "cudaGetDeviceCount" | "cudaGetDevice" | "cudaDriverGetVersion" | "cudaRuntimeGetVersion" => {
                // One device, device 0; the versions of the CUDA 12.4
                // toolkit whose headers lockstep compiles against by default.
                let value: u32 = match name {
                    "cudaGetDeviceCount" => 1,
                    "cudaDriverGetVersion" | "cudaRuntimeGetVersion" => 12040,
                    _ => 0,
                };
                if let Some((id, off)) = self.check_range(memory, ptr(&a[0]), 4, &format!("the argument of {name}"), loc) {
                    memory.write(id, off, &value.to_le_bytes());
                }
                ret(0)
            }
            "cudaEventCreate" | "cudaStreamCreate" | "cudaEventCreateWithFlags" | "cudaStreamCreateWithFlags" => {
                let handle = memory.alloc_named("handle", MemSpace::Private, 8, None);
                self.store_pointer(memory, ptr(&a[0]), handle, &format!("the argument of {name}"), loc);
                ret(0)
            }
            "cudaGetErrorString" | "cudaGetErrorName" => {
                let s = memory.alloc_named("error string", MemSpace::Private, 16, Some(b"cuda error\0"));
                Some(ExternalOutcome::Return(Some(s)))
            }
            "rand" | "random" => {
                // Seeded from the clock, `rand`'s numbers are undetermined:
                // they matter only where the program uses them.
                // Its sign bit is 0 (RAND_MAX is 2^31 - 1): a value that is
                // known not to be negative.
                if self.rand_unknown {
                    self.result_undefined = 0x7fff_ffff;
                }
                ret(self.rand.next() as u64)
            }
            "srand" | "srandom" => {
                self.rand = rand::GlibcRand::new(int(&a[0]) as u32);
                self.rand_unknown = call.arg_undefined.first().is_some_and(|&u| u != 0);
                ret(0)
            }
            "time" | "clock" | "gettimeofday" | "clock_gettime" => {
                // The clock's value is unknown; a fixed one stands for it, and
                // `rand` seeded from it is no longer reproducible.
                // Its value is undetermined: it matters only where the
                // program uses it (see `lockstep_replay::definedness`).
                self.rand_unknown = true;
                self.choice_used = true;
                self.result_undefined = u128::MAX;
                let written = match name {
                    "time" => 8,
                    "gettimeofday" | "clock_gettime" => 16,
                    _ => 0,
                };
                let at = usize::from(name == "clock_gettime");
                let target = a.get(at).map_or(Pointer::NULL, ptr);
                if written > 0 && !target.is_null() {
                    if let Some((id, off)) = self.check_range(memory, target, written, &format!("the argument of {name}"), loc) {
                        let now = 1_700_000_000 + self.choice as u64;
                        memory.write(id, off, &now.to_le_bytes());
                        memory.note_undefined(id, off, &vec![true; written as usize]);
                    }
                }
                ret(1_700_000_000 + self.choice as u64)
            }
            "exit" | "_exit" => Some(ExternalOutcome::Exit),
            // Output: nothing the program can observe.
            "fclose" | "fflush" | "fputs" | "fputc" | "putc" | "putchar" | "fwrite" | "perror" | "setbuf" | "setvbuf" => ret(0),
            "fopen" | "fdopen" => {
                let handle = memory.alloc_named("FILE", MemSpace::Private, 64, None);
                Some(ExternalOutcome::Return(Some(handle)))
            }
            // Formatted input: every value read is 0 in this run (a string
            // is empty), and the run is one of many.
            "scanf" | "__isoc99_scanf" | "fscanf" | "__isoc99_fscanf" | "sscanf" | "__isoc99_sscanf" | "getchar" | "getc" | "fgetc" | "getch"
                if self.input_reads >= MAX_INPUT_READS =>
            {
                Some(ExternalOutcome::Unsupported(format!(
                    "the program called `{}` {MAX_INPUT_READS} times, always reading {}: this run's input does not let it go on",
                    name.trim_start_matches("__isoc99_"),
                    self.choice
                )))
            }
            "scanf" | "__isoc99_scanf" | "fscanf" | "__isoc99_fscanf" | "sscanf" | "__isoc99_sscanf" => {
                self.input_reads += 1;
                let first_target = if name.contains("scanf") && !name.ends_with("_scanf") && name != "scanf" { 2 } else { 1 };
                let format = libc::read_c_string(memory, ptr(&a[first_target - 1])).unwrap_or_default();
                let widths = inputs::scanf_widths(&format);
                if self.draws.is_some() {
                    let targets: Vec<_> = a
                        .iter()
                        .skip(first_target)
                        .zip(widths)
                        .map(|(target, width)| (self.check_range(memory, ptr(target), width, &format!("an argument of {name}"), loc), width))
                        .collect();
                    let line = line_of(self.module, loc);
                    let short = name.trim_start_matches("__isoc99_");
                    let draws = self.draws.as_mut().expect("checked");
                    let Some(outcome) = inputs::scanf(draws, memory, &targets, short, &line) else {
                        return Some(ExternalOutcome::Unsupported(format!(
                            "the run read {} values as input: a loop that keeps reading is not explored further",
                            inputs::MAX_DRAWS
                        )));
                    };
                    self.choice_used = true;
                    self.result_undefined = u128::MAX;
                    self.result_term = outcome.term;
                    return ret(outcome.result);
                }
                let mut assigned = 0u64;
                for (target, width) in a.iter().skip(first_target).zip(widths) {
                    if let Some((id, off)) = self.check_range(memory, ptr(target), width, &format!("an argument of {name}"), loc) {
                        let mut value = vec![0u8; width as usize];
                        let n = value.len().min(8);
                        value[..n].copy_from_slice(&(self.choice as u64).to_le_bytes()[..n]);
                        memory.write(id, off, &value);
                        // Input is undetermined: it matters only where the
                        // program uses it, and so does whether the read
                        // succeeded (the count returned).
                        memory.note_undefined(id, off, &vec![true; width as usize]);
                        assigned += 1;
                    }
                }
                self.choice_used = true;
                self.result_undefined = u128::MAX;
                ret(assigned)
            }
            // Input: its value is unknown; it matters only when used.
            "getchar" | "getc" | "fgetc" | "getch" if self.draws.is_some() => {
                self.input_reads += 1;
                let line = line_of(self.module, loc);
                let draws = self.draws.as_mut().expect("checked");
                let Some((value, term)) = inputs::getchar(draws, memory, name, &line) else {
                    return Some(ExternalOutcome::Unsupported(format!(
                        "the run read {} values as input: a loop that keeps reading is not explored further",
                        inputs::MAX_DRAWS
                    )));
                };
                self.choice_used = true;
                self.result_undefined = u128::MAX;
                self.result_term = term;
                ret(value)
            }
            "getchar" | "getc" | "fgetc" | "getch" | "system" | "rand_r" => {
                self.input_reads += u64::from(!matches!(name, "system" | "rand_r"));
                self.choice_used = true;
                self.result_undefined = u128::MAX;
                ret(self.choice as u64)
            }
            // cutil's timers measure the clock.
            _ if name.starts_with("cut") && name.contains("Timer") => {
                if name.contains("Create") {
                    if let Some((id, off)) = self.check_range(memory, ptr(&a[0]), 4, &format!("the argument of {name}"), loc) {
                        memory.write(id, off, &1u32.to_le_bytes());
                    }
                }
                if name.contains("Get") {
                    self.result_undefined = u128::MAX;
                }
                ret(1)
            }
            // cuRAND's MTGP32 set-up: constants into device memory, then
            // `n` states, each using one of the library's 200 parameter sets.
            "curandMakeMTGP32Constants" => {
                let target = ptr(&a[1]);
                if let Some((id, off)) = self.check_range(memory, target, 1, "the destination of curandMakeMTGP32Constants", loc) {
                    let len = memory.object(id).size() - off;
                    memory.note_write(id, off, len);
                }
                ret(0)
            }
            "curandMakeMTGP32KernelState" => {
                let (states, n) = (ptr(&a[0]), int(&a[3]) as i32);
                if n > MTGP32_PARAMETER_SETS || n < 0 {
                    self.finding(
                        HostFindingKind::ApiMisuse,
                        loc,
                        format!("curandMakeMTGP32KernelState sets up {n} states, but MTGP32 has {MTGP32_PARAMETER_SETS} parameter sets (one per state)"),
                    );
                    return ret(CURAND_STATUS_ALLOCATION_FAILED);
                }
                let bytes = n.max(0) as u64 * MTGP32_STATE_BYTES;
                if let Some((id, off)) = self.check_range(memory, states, bytes, "the states of curandMakeMTGP32KernelState", loc) {
                    memory.fill(id, off, bytes, 0);
                }
                ret(0)
            }
            // The prelude's C++ model of the device (lockstep_device_model.h)
            // answers `cudaGetDeviceProperties` and `cudaDeviceGetAttribute`;
            // these two hooks report that it did, or that it did not know
            // the attribute asked for.
            "lockstep_model_device_used" => {
                if !self.notes.iter().any(|(m, _)| m == DEVICE_MODEL_NOTE) {
                    self.notes.push((DEVICE_MODEL_NOTE.into(), loc));
                }
                ret(0)
            }
            "lockstep_model_unknown_attribute" => {
                self.effect_unknown(format!("`cudaDeviceGetAttribute` of attribute {} is not modelled", int(&a[1]) as i32), loc);
                ret(0)
            }
            "cudaLaunchKernel" | "cudaLaunch" | "cudaLaunchCooperativeKernel" => Some(ExternalOutcome::Unsupported(
                format!("`{name}` (launches through the runtime API; use kernel<<<...>>>)"),
            )),
            _ if name.starts_with("cuda") || name.starts_with("curand") => {
                self.effect_unknown(format!("`{name}` is not modelled"), loc);
                ret(0)
            }
            _ => {
                // Math functions are the interpreter's; anything else with
                // pointer arguments could write memory lockstep cannot see.
                if call.arg_types.iter().any(|t| matches!(t, Type::Ptr(_))) || call.ret.is_some_and(|t| matches!(t, Type::Ptr(_))) {
                    self.effect_unknown(format!("`{name}` is not modelled"), loc);
                }
                None
            }
        }
    }
}

/// The first use of an unspecified value (LLVM `undef`, an uninitialised
/// variable, or a `havoc`) in `root` or a function it calls, where the value
/// could matter (`lockstep_analysis::unspecified` says which uses count).
/// Static: the run itself counts the uses it executes
/// (`ReplayResult::unspecified_uses`); this only says whether a launch is
/// worth a second run with other uninitialised values.
pub fn undefined_value_use(module: &Module, root: FuncId) -> Option<(FuncId, Option<lockstep_kir::SrcLoc>)> {
    use lockstep_kir::InstKind;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(f) = stack.pop() {
        if !seen.insert(f) {
            continue;
        }
        let func = &module.functions[f];
        let uses = lockstep_analysis::unspecified::unspecified_uses(func);
        for (id, inst) in func.insts.iter() {
            if let InstKind::Call { callee, .. } = &inst.kind {
                stack.push(*callee);
            }
            if uses.insts.contains(&id) {
                return Some((f, *func.inst_locs.get(id)));
            }
        }
        for (b, _) in func.blocks.iter() {
            if uses.terms.contains(&b) {
                return Some((f, *func.term_locs.get(b)));
            }
        }
    }
    None
}

/// The value uninitialised variables hold in the run steered by `choice`.
/// Whether the library function `name` only throws a C++ exception: the
/// C++ ABI's `__cxa_throw` family and libstdc++'s `std::__throw_*` helpers
/// (mangled `_ZSt<length>__throw_...`).
fn throws_exception(name: &str) -> bool {
    matches!(name, "__cxa_allocate_exception" | "__cxa_throw" | "__cxa_rethrow" | "_Unwind_Resume" | "__cxa_rethrow_primary_exception")
        || name.strip_prefix("_ZSt").is_some_and(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()).starts_with("__throw_"))
}

fn undefined_value(choice: u32) -> u128 {
    [0, u128::MAX, u128::from_le_bytes([0xA5; 16])][choice as usize % 3]
}

/// ` (line N)` for the source line of `loc`, or nothing when unknown.
fn line_of(module: &Module, loc: Loc) -> String {
    let func = &module.functions[loc.func];
    let src = match loc.inst {
        Some(i) => *func.inst_locs.get(i),
        None => *func.term_locs.get(loc.block),
    };
    src.map(|l| format!(" (line {})", l.line)).unwrap_or_default()
}

/// Whether the call `name` does nothing a verdict depends on with its
/// arguments' values: output (what it prints is not checked), exit codes,
/// and the calls that only copy bytes, whose undetermined bytes stay
/// undetermined where they arrive.
fn ignores_undetermined_arguments(name: &str) -> bool {
    lockstep_replay::definedness::is_output_only(name)
        || matches!(name, "exit" | "_exit" | "cudaSetupArgument" | "srand" | "srandom")
}

const DEVICE_MODEL_NOTE: &str = "device properties and attributes (cudaGetDeviceProperties, cudaDeviceGetAttribute) are those of a modelled GPU: compute capability 7.0, 80 multiprocessors, 1024 threads and 48 KiB of shared memory per block, 16 GiB of memory; the program was checked for that device";

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_kir::parse_module;

    fn run(text: &str) -> ProgramRun {
        let module = parse_module(text).expect("valid KIR");
        let main = module.function_by_name("main").expect("a main");
        run_program(&module, main, 0).expect("runs")
    }

    #[test]
    fn double_free_and_oversized_copy_are_findings() {
        let run = run(r#"
language cuda
device fn0 "main" link "main" () -> i32 entry block0 {
  local0 = private "dev" size 8 align 8 elem_size 8
  v0: ptr.private = local_addr local0
  v1: i64 = const 16
  v2: i64 = const 32
  v3: i32 = const 2
  v4: i32 = const 0
block0:
  v5: ptr.generic = call_external "malloc"(v2)
  v6: i32 = call_external "cudaMalloc"(v0, v1)
  v7: ptr.generic = load v0 align 8
  v8: i32 = call_external "cudaMemcpy"(v5, v7, v2, v3)
  v9: i32 = call_external "cudaFree"(v7)
  v10: i32 = call_external "cudaFree"(v7)
  return v4
}
"#);
        let messages: Vec<&str> = run.findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(run.findings.len(), 2, "{messages:?}");
        assert!(messages[0].contains("the source of cudaMemcpy: 32 bytes") && messages[0].contains("`dev`, which has 16 bytes"), "{messages:?}");
        assert!(messages[1].starts_with("double free"), "{messages:?}");
        assert!(run.is_deterministic());
    }

    #[test]
    fn wrong_direction_is_a_finding_and_an_unused_clock_reading_is_not_nondeterminism() {
        let run = run(r#"
language cuda
device fn0 "main" link "main" () entry block0 {
  v0: i64 = const 8
  v1: i32 = const 1
  v2: ptr.generic = null
block0:
  v3: ptr.generic = call_external "malloc"(v0)
  v4: ptr.generic = call_external "malloc"(v0)
  v5: i32 = call_external "cudaMemcpy"(v3, v4, v0, v1)
  v6: i64 = call_external "time"(v2)
  return
}
"#);
        assert_eq!(run.findings.len(), 1);
        assert!(run.findings[0].message.contains("cudaMemcpyHostToDevice copies from host memory"), "{}", run.findings[0].message);
        // The clock's value is undetermined, but nothing uses it.
        assert!(run.is_deterministic(), "{:?}", run.nondeterminism);
    }

    #[test]
    fn a_branch_on_the_clock_or_on_never_written_memory_is_nondeterminism() {
        for setup in [
            "  v3: i64 = call_external \"time\"(v2)\n  v4: i64 = add v3, v1",
            "  v3: ptr.generic = call_external \"malloc\"(v0)\n  v4: i64 = load v3 align 8",
        ] {
            let text = format!(
                r#"
language cuda
device fn0 "main" link "main" () entry block0 {{
  v0: i64 = const 8
  v1: i64 = const 5
  v2: ptr.generic = null
block0:
{setup}
  v5: i64 = add v4, v1
  v6: i1 = icmp eq v5, v1
  br v6, block1, block2
block1:
  return
block2:
  return
}}
"#
            );
            let run = run(&text);
            assert!(!run.is_deterministic(), "{text}");
            assert!(run.nondeterminism[0].0.contains("does not determine"), "{:?}", run.nondeterminism);
            // Copied and computed with, but not branched on, the value is
            // no nondeterminism.
            let quiet = text.replace("br v6, block1, block2", "jump block1");
            assert!(run_text_is_deterministic(&quiet), "{quiet}");
        }
    }

    #[test]
    fn a_branch_whose_ways_only_compute_makes_its_join_undetermined_not_the_run() {
        // `count = x != 5 ? count + 1 : count` on a never-written `x`: the
        // ways meet at block2, whose parameter becomes undetermined. Only a
        // branch on that parameter is a use.
        let text = |tail: &str| {
            format!(
                r#"
language cuda
device fn0 "main" link "main" () entry block0 {{
  v0: i64 = const 8
  v1: i64 = const 5
  v2: i64 = const 1
block0:
  v3: ptr.generic = call_external "malloc"(v0)
  v4: i64 = load v3 align 8
  v5: i1 = icmp ne v4, v1
  br v5, block1, block2(v2)
block1:
  v6: i64 = add v2, v2
  jump block2(v6)
block2(v7: i64):
  v8: i1 = icmp eq v7, v1
{tail}
block3:
  return
block4:
  return
}}
"#
            )
        };
        assert!(run_text_is_deterministic(&text("  jump block3")));
        assert!(!run_text_is_deterministic(&text("  br v8, block3, block4")));
    }

    fn run_text_is_deterministic(text: &str) -> bool {
        run(text).is_deterministic()
    }

}
