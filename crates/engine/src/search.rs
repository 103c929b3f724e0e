//! Concrete search: run the kernel in the interpreter on the user's launch
//! (or a small instance of a symbolic one) with simple inputs, and turn what
//! the interpreter sees into confirmed violations with witnesses.
//!
//! Every violation reported here happened in a concrete execution, so it is
//! a real defect for that launch and those inputs. Two filters keep it that
//! way: runs whose inputs break the kernel's preconditions or assumptions
//! are discarded (the inputs were not allowed), and out-of-bounds accesses to
//! argument buffers whose size the user did not give are dropped (the buffer
//! size was our invention, not the program's).

use std::collections::HashSet;

use lockstep_diag::{Related, Violation, ViolationKind as Kind, Witness, WitnessThread};
use lockstep_kir::{AnnotKind, FuncId, MemSpace, Module, Type};
use lockstep_replay::{
    replay_with_oracle, HavocOracle, HavocSite, Launch, SeededHavoc, Loc, Memory, ObjId, ObjOrigin, Pointer, ReplayOptions, ReplayResult, ReplayViolation, ThreadId, Val,
    ViolationKind as RKind,
};

use crate::config::CheckConfig;
use crate::locate::span_at;

/// Launches with more threads than this are not searched concretely: the
/// interpreter runs every thread, and the search must stay within seconds.
const MAX_THREADS: u64 = 1 << 16;
/// Bytes of a by-value struct argument.
const BY_VALUE_BYTES: u64 = 256;
/// Bytes of each argument buffer whose size the user did not give.
const DEFAULT_BUFFER_BYTES: u64 = 1 << 16;

pub struct SearchOutcome {
    pub violations: Vec<Violation>,
    /// Why the search did not run, or what limited it.
    pub notes: Vec<String>,
    /// The loop-head states `Inputs::observe` asked for, when the run was
    /// clean: feasible, without overflow the source promises not to
    /// happen, and without a violation other than those the search itself
    /// discards as artefacts of its inputs (see `observe`).
    pub observations: Option<lockstep_analysis::observe::Observations>,
    /// Whether a thread of the run stopped at an access past the end of an
    /// argument buffer whose size the search chose (not the user): an
    /// artefact of the inputs, which a larger buffer would not have.
    pub left_chosen_buffer: bool,
}

/// The concrete launch to search: the user's sizes, with small ones in
/// place of `*`.
fn concrete_launch(config: &CheckConfig) -> Launch {
    let pick = |v: Option<u64>, default: u64| v.unwrap_or(default).min(u32::MAX as u64) as u32;
    let mut launch = Launch {
        group_size: [pick(config.group_size[0], 32), pick(config.group_size[1], 1), pick(config.group_size[2], 1)],
        num_groups: [pick(config.num_groups[0], 2), pick(config.num_groups[1], 1), pick(config.num_groups[2], 1)],
        global_offset: config.global_offset.map(|o| o.min(u32::MAX as u64) as u32),
    };
    // A given global size decides what the other size is, and the default
    // group size gives way to a divisor of it.
    for d in 0..3 {
        let Some(global) = config.global_size[d].filter(|&g| g > 0 && g <= u32::MAX as u64) else { continue };
        let size = match (config.group_size[d], config.num_groups[d]) {
            (Some(s), _) => s,
            (None, Some(n)) if n > 0 && global % n == 0 => global / n,
            _ => (1..=u64::from(launch.group_size[d]).min(global)).rev().find(|s| global % s == 0).unwrap_or(1),
        };
        if size > 0 && global % size == 0 {
            launch.group_size[d] = size as u32;
            launch.num_groups[d] = (global / size) as u32;
        }
    }
    launch
}

fn total_threads(launch: &Launch) -> u64 {
    // Six 32-bit sizes can multiply past 64 bits: saturate.
    launch.group_size.iter().chain(&launch.num_groups).fold(1u64, |n, &d| n.saturating_mul(d as u64))
}

pub fn search(module: &Module, kernel: FuncId, config: &CheckConfig) -> SearchOutcome {
    let launch = concrete_launch(config);
    let threads = total_threads(&launch);
    if threads > MAX_THREADS {
        // Too many threads for a whole run, but a few groups may fit. A
        // run of some groups only is a real execution too: the schedule in
        // which the other groups have not started yet. Grid barriers are
        // the exception (every group must reach them), so such kernels are
        // not searched partially.
        let per_group = launch.threads_per_group();
        let groups = threads / per_group.max(1);
        if per_group > MAX_THREADS || has_grid_barrier(module) {
            return SearchOutcome {
                violations: Vec::new(),
                notes: vec![format!("concrete search skipped: the launch has {threads} threads")],
                observations: None,
                left_chosen_buffer: false,
            };
        }
        // The first and the last group: edge conditions on group ids are
        // where bugs hide.
        let mut only = vec![0u32];
        if 2 * per_group <= MAX_THREADS {
            only.push((groups - 1).min(u32::MAX as u64) as u32);
        }
        only.dedup();
        return run_twice(module, kernel, config, &launch, Inputs { only_groups: Some(only), ..Inputs::default() });
    }
    run_twice(module, kernel, config, &launch, Inputs::default())
}

/// The bits uninitialised values hold in the second run of `run_twice`: not
/// zero, and small, so that a pointer holding them addresses no object.
const SECOND_UNDEFINED_VALUE: u128 = 0xff;

/// Runs the kernel; when that finds nothing and the kernel uses
/// uninitialised values (which may hold anything), runs it again with
/// those values not zero, and keeps the failing annotations of that run:
/// the assertion that an uninitialised pointer is null, say. Memory-safety
/// reports of that run are not kept: a wild value's access says more about
/// our choice of value than about the kernel.
fn run_twice(module: &Module, kernel: FuncId, config: &CheckConfig, launch: &Launch, inputs: Inputs) -> SearchOutcome {
    let mut outcome = run(module, kernel, config, launch, &inputs);
    if !outcome.violations.is_empty() || !uses_undefined_values(module) {
        return outcome;
    }
    let second = run(module, kernel, config, launch, &Inputs { undefined_value: SECOND_UNDEFINED_VALUE, ..inputs });
    for mut v in second.violations {
        if matches!(v.kind, Kind::Assertion | Kind::Precondition | Kind::Postcondition | Kind::Invariant) {
            if let Some(w) = v.witness.as_mut() {
                w.memory.push(("uninitialised values".into(), format!("{SECOND_UNDEFINED_VALUE:#x} (they may hold anything)")));
            }
            outcome.violations.push(v);
        }
    }
    outcome
}

/// Whether some function of `module` uses an unspecified value (LLVM's
/// `undef`, from an uninitialised variable).
fn uses_undefined_values(module: &Module) -> bool {
    module.functions.values().any(|f| {
        let used = f.used_values(|_| true);
        f.values.iter().any(|(v, data)| data.def == lockstep_kir::ValueDef::Undef && used.contains(&v))
    })
}

/// Whether some function of `module` has a grid-wide barrier.
fn has_grid_barrier(module: &Module) -> bool {
    module.functions.values().any(|f| {
        f.insts.values().any(|i| {
            matches!(i.kind, lockstep_kir::InstKind::Barrier { scope: lockstep_kir::BarrierScope::Grid, .. })
        })
    })
}

/// The search's unconstrained values (`havoc`): the interpreter's seeded
/// ones, except that floating-point values lie in (0, 1]. Such values come
/// from modelled library functions (cuRAND's uniform generators assume
/// exactly that range), and a value outside the range an assumption allows
/// would make the whole run infeasible, and so useless.
struct SimpleHavoc(SeededHavoc);

impl HavocOracle for SimpleHavoc {
    fn havoc(&mut self, site: &HavocSite) -> u128 {
        let h = self.0.havoc(site);
        let fraction = ((h as u64) & 0xff_ffff) + 1;
        match site.ty {
            Type::Float(32) => (fraction as f32 / (1u64 << 24) as f32).to_bits() as u128,
            Type::Float(64) => (fraction as f64 / (1u64 << 24) as f64).to_bits() as u128,
            _ => h,
        }
    }
}

/// Inputs that override the search's defaults: a witness to replay.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Values of scalar (and by-value struct) parameters, by index.
    pub scalars: Vec<(usize, u128)>,
    /// Bytes of pointer parameters' buffers: (parameter, offset, byte).
    pub bytes: Vec<(usize, u64, u8)>,
    /// Run only these groups (linear indices).
    pub only_groups: Option<Vec<u32>>,
    /// Bytes of `__device__`/`__constant__` variables whose contents the
    /// host may have changed: (variable, offset, byte).
    pub globals: Vec<(lockstep_kir::GlobalId, u64, u8)>,
    /// The bits uninitialised values hold (see `ReplayOptions`).
    pub undefined_value: u128,
    /// Loop-head states to record (see `SearchOutcome::observations`).
    pub observe: Option<std::sync::Arc<lockstep_analysis::observe::ObservePlan>>,
    /// Instructions all threads together may execute, when not the
    /// search's own budget.
    pub step_budget: Option<u64>,
    /// Bytes of each pointer parameter's buffer whose size the user did not
    /// give, when not `DEFAULT_BUFFER_BYTES` (the confirmation of a witness
    /// that reaches far into a buffer: see `confirm`).
    pub unsized_buffer_bytes: Option<u64>,
}

/// Two inputs ask for the same run when every field is equal; an
/// observation plan is the same when it is the same shared plan.
impl PartialEq for Inputs {
    fn eq(&self, other: &Inputs) -> bool {
        let Inputs { scalars, bytes, only_groups, globals, undefined_value, observe, step_budget, unsized_buffer_bytes } = self;
        *scalars == other.scalars
            && *bytes == other.bytes
            && *only_groups == other.only_groups
            && *globals == other.globals
            && *undefined_value == other.undefined_value
            && match (observe, &other.observe) {
                (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
            && *step_budget == other.step_budget
            && *unsized_buffer_bytes == other.unsized_buffer_bytes
    }
}

/// Runs the kernel once on `launch` with default inputs overridden by
/// `inputs`, and converts what the interpreter saw.
pub fn run(module: &Module, kernel: FuncId, config: &CheckConfig, launch: &Launch, inputs: &Inputs) -> SearchOutcome {
    let threads = total_threads(launch);
    let func = &module.functions[kernel];
    // The natural size for a kernel's `n`: one element per thread in x.
    let default_int = (launch.group_size[0] as u64 * launch.num_groups[0] as u64) as u128;
    let mut memory = Memory::new();
    let mut args = Vec::new();
    let mut arg_witness = Vec::new();
    let mut sized_buffers: HashSet<ObjId> = HashSet::new();
    let mut pointer_index = 0usize;
    let scalar = |i: usize| {
        inputs.scalars.iter().find(|(p, _)| *p == i).map(|(_, v)| *v).or_else(|| config.scalar_args.get(i).copied().flatten())
    };
    for (i, p) in func.params.iter().enumerate() {
        match p.ty {
            // A by-value struct is a pointer to the thread's private copy;
            // `--kernel-args` gives its bytes.
            Type::Ptr(MemSpace::Private) => {
                let given = scalar(i);
                let value = given.unwrap_or(0);
                let mut bytes = [0u8; BY_VALUE_BYTES as usize];
                bytes[..16].copy_from_slice(&value.to_le_bytes());
                let mut described = format!("bytes {value:#x}");
                // Pointers the kernel reads from the struct point to fresh
                // buffers of their own (unless the user gave the bytes), as
                // a host would pass them; null pointers would only stop
                // the run at their first use.
                if given.is_none() {
                    for offset in pointer_fields(func, p.value) {
                        let name = format!("{}@{offset}", p.name);
                        let buffer = memory.alloc_named(&name, MemSpace::Global, DEFAULT_BUFFER_BYTES, None);
                        let at = offset as usize;
                        bytes[at..at + 8].copy_from_slice(&buffer.as_ptr().encode().to_le_bytes());
                        described.push_str(&format!(", a pointer to a fresh buffer of {DEFAULT_BUFFER_BYTES} bytes at byte {offset}"));
                    }
                }
                let v = memory.alloc_named(&p.name, MemSpace::Private, BY_VALUE_BYTES, Some(&bytes));
                arg_witness.push((p.name.clone(), described));
                args.push(v);
            }
            Type::Ptr(space) => {
                let given = config.array_sizes.get(pointer_index).copied().flatten();
                pointer_index += 1;
                let space = match space {
                    MemSpace::Generic => MemSpace::Global,
                    s => s,
                };
                let size = given.unwrap_or(inputs.unsized_buffer_bytes.unwrap_or(DEFAULT_BUFFER_BYTES));
                // The buffer is zero but for the bytes the inputs set. Its
                // first bytes (all of a buffer of the default size) are
                // given at allocation; a set byte past them is written
                // after, so a large buffer costs only the pages touched.
                let mut contents = vec![0u8; size.min(DEFAULT_BUFFER_BYTES) as usize];
                let mut set = Vec::new();
                let mut far = Vec::new();
                for &(_, offset, byte) in inputs.bytes.iter().filter(|(param, ..)| *param == i) {
                    if offset >= size {
                        continue;
                    }
                    match contents.get_mut(offset as usize) {
                        Some(b) => *b = byte,
                        None => far.push((offset, byte)),
                    }
                    set.push(format!("[{offset}] = {byte}"));
                }
                let v = memory.alloc_named(&p.name, space, size, Some(&contents));
                if let Val::Ptr(Pointer { obj: Some(obj), .. }) = v {
                    for (offset, byte) in far {
                        memory.write(obj, offset, &[byte]);
                    }
                }
                if given.is_some() {
                    if let Val::Ptr(ptr) = v {
                        sized_buffers.extend(ptr.obj);
                    }
                }
                // A buffer of the replay's largest size stands for one as
                // large as the witness's accesses need (see `confirm`).
                let extent = if given.is_none() && inputs.unsized_buffer_bytes.is_some() {
                    "the size the accesses need".to_string()
                } else {
                    format!("{size} bytes")
                };
                let described = if set.is_empty() {
                    format!("buffer of {extent}, zero-filled")
                } else {
                    format!("buffer of {extent}, zero but bytes {}", set.join(", "))
                };
                arg_witness.push((p.name.clone(), described));
                args.push(v);
            }
            Type::Int(w) => {
                let value = scalar(i).unwrap_or(default_int);
                let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
                arg_witness.push((p.name.clone(), (value & mask).to_string()));
                args.push(Val::Bits(value & mask));
            }
            Type::Float(w) => {
                let bits = if w == 64 { 1.0f64.to_bits() as u128 } else { 1.0f32.to_bits() as u128 };
                arg_witness.push((p.name.clone(), "1.0".into()));
                args.push(Val::Bits(bits));
            }
        }
    }
    // A witness may give device variables other contents than their
    // initialisers: the host can write them before the launch.
    for &(g, offset, byte) in &inputs.globals {
        if module.globals.get(g).is_some_and(|o| o.space != MemSpace::Shared) {
            let id = memory.instantiate_global(module, g, 0, 0);
            memory.write(id, offset, &[byte]);
        }
    }
    let options = ReplayOptions {
        warp_size: config.warp_sync,
        max_violations: 64,
        dynamic_shared_size: config.dynamic_shared_bytes.unwrap_or(DEFAULT_BUFFER_BYTES),
        check_inter_group_races: !config.only_intra_group,
        benign_writes_from_memory: config.equality_abstraction,
        step_budget_total: inputs.step_budget.unwrap_or(50_000_000),
        observe: inputs.observe.clone(),
        only_groups: inputs.only_groups.clone(),
        work_dim: config.work_dim as u32,
        undefined_value: inputs.undefined_value,
        memory_budget: config.memory_limit / 4,
        process_memory_limit: Some(config.memory_limit / 4 * 3),
        deadline: config.deadline,
        ..ReplayOptions::default()
    };
    let mut oracle = SimpleHavoc(SeededHavoc { seed: options.havoc_seed });
    let mut result = match replay_with_oracle(module, kernel, launch, &args, memory, &options, &mut oracle) {
        Ok(r) => r,
        Err(e) => return SearchOutcome { violations: Vec::new(), notes: vec![format!("concrete search failed: {e}")], observations: None, left_chosen_buffer: false },
    };
    let mut notes = Vec::new();
    if !result.infeasible.is_empty() || breaks_precondition(&result, kernel) {
        notes.push("concrete search discarded: its inputs break the kernel's preconditions".into());
        return SearchOutcome { violations: Vec::new(), notes, observations: None, left_chosen_buffer: false };
    }
    // A run in which signed arithmetic overflowed has undefined behaviour
    // (clang's `nsw`): the prover assumes it does not happen, and what the
    // wrapped values did next is no behaviour the program must have.
    if let Some((loc, thread)) = result.first_no_wrap_overflow {
        let at = crate::locate::span_at(module, loc.func, loc.block, loc.inst)
            .map_or_else(String::new, |s| format!(" at {}:{}", s.line, s.column));
        notes.push(format!(
            "concrete run discarded: integer arithmetic the source declares non-overflowing (signed, undefined behaviour in C/C++) overflowed{at} in {thread}"
        ));
        return SearchOutcome { violations: Vec::new(), notes, observations: None, left_chosen_buffer: false };
    }
    if !result.completed {
        // The reason that ended the run says which limit it was (a budget,
        // the deadline, memory); a thread's own budget is the usual one.
        let why = result.incomplete.iter().find_map(|(r, _)| match r {
            lockstep_replay::IncompleteReason::Unsupported(why) if why.contains("time limit") => Some(why.clone()),
            _ => None,
        });
        notes.push(match why {
            Some(why) => format!("concrete search stopped early: {why}"),
            None => "concrete search stopped early (step budget)".into(),
        });
    } else {
        let ran = inputs.only_groups.as_ref().map_or(threads, |g| g.len() as u64 * launch.threads_per_group());
        notes.push(format!("concrete search ran {ran} threads"));
    }
    let mut global_witness: Vec<(String, String)> = Vec::new();
    for &(g, offset, byte) in &inputs.globals {
        if let Some(obj) = module.globals.get(g) {
            global_witness.push((format!("{} byte {offset}", obj.name), format!("{byte} (written by the host)")));
        }
    }
    let witness = Witness {
        block_dim: Some(launch.group_size.map(u64::from)),
        grid_dim: Some(launch.num_groups.map(u64::from)),
        threads: Vec::new(),
        args: arg_witness,
        memory: global_witness,
    };
    // Pointers read from the zero-filled inputs are null only because of
    // the inputs we chose; a program would pass real pointers.
    let null_from_inputs = reads_pointers_from_inputs(module);
    let observations = result.observations.take().filter(|_| {
        result.violations.iter().all(|v| {
            let null_call = matches!(v.kind, RKind::InvalidCall { target } if target.is_null());
            (null_from_inputs && (matches!(v.kind, RKind::NullDereference { .. }) || null_call))
                || convert(module, &result, v, &sized_buffers, &witness).is_none()
        })
    });
    let mut seen = HashSet::new();
    let mut violations = Vec::new();
    for v in &result.violations {
        if config.only_divergence && !matches!(v.kind, RKind::BarrierDivergence { .. } | RKind::NamedLaneAbsent { .. }) {
            continue;
        }
        if let (RKind::DataRace { first, .. }, Some(names)) = (&v.kind, &config.race_arrays) {
            if !names.iter().any(|n| lockstep_kir::object_named(&object_name(&result, first.object), n)) {
                continue;
            }
        }
        // A null function pointer read from those inputs is null for the
        // same reason.
        let null_call = matches!(v.kind, RKind::InvalidCall { target } if target.is_null());
        if null_from_inputs && (matches!(v.kind, RKind::NullDereference { .. }) || null_call) {
            continue;
        }
        if let Some(converted) = convert(module, &result, v, &sized_buffers, &witness) {
            let key = (converted.kind, converted.primary.clone(), converted.related.first().map(|r| r.span.clone()));
            if seen.insert(key) {
                violations.push(converted);
            }
        }
    }
    let left_chosen_buffer = result.violations.iter().any(|v| match &v.kind {
        RKind::OutOfBounds { object, .. } => {
            matches!(result.memory.object(*object).origin, ObjOrigin::Buffer) && !sized_buffers.contains(object)
        }
        _ => false,
    });
    SearchOutcome { violations, notes, observations, left_chosen_buffer }
}

/// The runs the prover's Daikon filter observes (`lockstep_prove::Observer`):
/// `module`'s `kernel` (the function the prover encodes) on the search's
/// launch, recording `plan`'s loop heads for a sample of lanes; once with
/// the search's inputs and once with small integer arguments (the group
/// size plus three, unless `--kernel-args` fixes them), so that loops over
/// an argument end within the step budget and the loops after them are
/// reached too. Only clean runs count.
/// Only the launch's first and last groups run; with a grid barrier (which
/// every group must reach), only a launch of at most two groups runs.
pub fn observe(module: &Module, kernel: FuncId, config: &CheckConfig, plan: &lockstep_analysis::observe::ObservePlan) -> Vec<lockstep_analysis::observe::Observations> {
    let launch = concrete_launch(config);
    let threads = total_threads(&launch);
    let per_group = launch.threads_per_group();
    let mut plan = plan.clone();
    plan.lanes = lockstep_analysis::observe::sample_lanes(per_group.min(u32::MAX as u64) as u32);
    let mut inputs = Inputs {
        observe: Some(std::sync::Arc::new(plan)),
        // A prefix of a run is a run too: the states seen before the
        // budget ends are as good as any.
        step_budget: Some(OBSERVE_STEPS),
        ..Inputs::default()
    };
    // The first and the last group only, whatever the launch: a real
    // execution too (the others have not started yet), and the states of
    // a few groups are all the filter evaluates.
    let groups = threads / per_group.max(1);
    if groups > 2 {
        if per_group > MAX_THREADS || has_grid_barrier(module) {
            return Vec::new();
        }
        inputs.only_groups = Some(vec![0, (groups - 1).min(u32::MAX as u64) as u32]);
    }
    let mut runs: Vec<_> = run(module, kernel, config, &launch, &inputs).observations.into_iter().collect();
    let small = per_group.saturating_add(3) as u128;
    inputs.scalars = module.functions[kernel]
        .params
        .iter()
        .enumerate()
        .filter(|&(i, p)| matches!(p.ty, Type::Int(w) if w > 1) && config.scalar_args.get(i).copied().flatten().is_none())
        .map(|(i, _)| (i, small))
        .collect();
    if !inputs.scalars.is_empty() {
        runs.extend(run(module, kernel, config, &launch, &inputs).observations);
        // Sizes past the grid's thread count, so that a grid-stride loop
        // (`i += blockDim.x * gridDim.x`) takes a second iteration in the
        // recorded groups too, and its logs hold an access of a later
        // iteration: the candidates only a first iteration satisfies
        // (`i <= start` of a logged access) are dropped here, not in a
        // query with symbolic sizes.
        let large = (threads as u128).saturating_mul(2).saturating_add(3);
        if large > small && large <= i32::MAX as u128 {
            for (_, v) in inputs.scalars.iter_mut() {
                *v = large;
            }
            runs.extend(run(module, kernel, config, &launch, &inputs).observations);
        }
    }
    runs
}

/// The observed run's step budget: a small share of the search's, since
/// only the first iterations of each loop (and the latest) are kept.
const OBSERVE_STEPS: u64 = 2_000_000;

/// The byte offsets within a by-value struct parameter (`param`) from which
/// `func` loads pointers directly, each with room for the pointer.
fn pointer_fields(func: &lockstep_kir::Function, param: lockstep_kir::ValueId) -> Vec<u64> {
    use lockstep_kir::{InstKind, ValueDef};
    let offset_in_param = |ptr: lockstep_kir::ValueId| -> Option<u64> {
        if ptr == param {
            return Some(0);
        }
        let ValueDef::Inst(def) = func.values[ptr].def else { return None };
        match func.insts[def].kind {
            InstKind::PtrAdd { base, offset } if base == param => match func.values[offset].def {
                ValueDef::Const(c) => Some(c as u64),
                _ => None,
            },
            _ => None,
        }
    };
    let mut offsets: Vec<u64> = func
        .insts
        .values()
        .filter_map(|i| match i.kind {
            InstKind::Load { ptr, .. } if i.result.is_some_and(|r| func.value_type(r).is_ptr()) => offset_in_param(ptr),
            _ => None,
        })
        .filter(|&o| o % 8 == 0 && o + 8 <= BY_VALUE_BYTES)
        .collect();
    offsets.sort();
    offsets.dedup();
    offsets
}

/// Whether the kernel may use a pointer that comes from its inputs rather
/// than from a parameter or a variable: a by-value struct argument, or a
/// pointer loaded from memory.
fn reads_pointers_from_inputs(module: &Module) -> bool {
    module.functions.values().any(|f| {
        (f.is_kernel && f.params.iter().any(|p| p.ty == Type::Ptr(MemSpace::Private)))
            || f.insts.values().any(|i| {
                matches!(i.kind, lockstep_kir::InstKind::Load { .. })
                    && i.result.is_some_and(|r| f.value_type(r).is_ptr())
            })
    })
}

/// A precondition of the kernel that fails in the run means the chosen
/// inputs are not allowed, not that the kernel is wrong. A precondition of
/// a function the kernel calls is different: the call must establish it, so
/// its failure is a violation (reported by `convert`).
fn breaks_precondition(result: &ReplayResult, kernel: FuncId) -> bool {
    result.violations.iter().any(|v| match v.kind {
        RKind::AssertionFailed { annot: AnnotKind::Assume } => true,
        RKind::AssertionFailed { annot: AnnotKind::Requires | AnnotKind::GlobalRequires } => v.loc.func == kernel,
        _ => false,
    })
}

fn thread_of(t: &ThreadId) -> WitnessThread {
    WitnessThread { local_id: t.local.map(u64::from), group_id: t.group.map(u64::from) }
}

fn describe(t: &ThreadId) -> String {
    let [x, y, z] = t.local;
    let [gx, gy, gz] = t.group;
    let dims = |a: u32, b: u32, c: u32| if b == 0 && c == 0 { format!("{a}") } else { format!("({a},{b},{c})") };
    format!("thread {} of block {}", dims(x, y, z), dims(gx, gy, gz))
}

/// The name of `obj`; a pointer made from an integer may name an object
/// that does not exist, and is then described by its id.
fn object_name(result: &ReplayResult, obj: ObjId) -> String {
    result.memory.get(obj).map_or_else(|| format!("no object (id {})", obj.0), |o| o.name.clone())
}

fn span(module: &Module, loc: &Loc) -> Option<lockstep_diag::Span> {
    span_at(module, loc.func, loc.block, loc.inst)
}

pub(crate) fn convert(
    module: &Module,
    result: &ReplayResult,
    v: &ReplayViolation,
    sized_buffers: &HashSet<ObjId>,
    witness: &Witness,
) -> Option<Violation> {
    let mut witness = witness.clone();
    let mut related = Vec::new();
    let mut primary_label = None;
    let (kind, message, primary) = match &v.kind {
        RKind::DataRace { first, second, inter_group, .. } => {
            // Two atomics race only when one is block-scoped and the threads
            // are in different blocks; the message says so.
            let both_atomic = first.atomic && second.atomic;
            let access = |w: bool| match (both_atomic, w) {
                (true, _) => "atomic",
                (false, true) => "write",
                (false, false) => "read",
            };
            let name = object_name(result, first.object);
            witness.threads = vec![thread_of(&first.thread), thread_of(&second.thread)];
            witness.memory.push((format!("{name} byte {}", second.offset), "accessed by both threads".into()));
            let message = format!(
                "{}-{} race on `{}` at byte offset {}: {} and {}{}",
                access(first.write),
                access(second.write),
                name,
                second.offset,
                describe(&first.thread),
                describe(&second.thread),
                match (*inter_group, both_atomic) {
                    (true, true) => " (different blocks: a block-scoped atomic is atomic only among its own block's threads)",
                    (true, false) => " (different blocks)",
                    (false, _) => "",
                }
            );
            let label = |w: bool| if both_atomic { "atomic update" } else { access(w) };
            if let Some(s) = span(module, &first.loc) {
                related.push(Related { span: s, label: format!("{} by {}", label(first.write), describe(&first.thread)) });
            }
            primary_label = Some(format!("{} by {}", label(second.write), describe(&second.thread)));
            (Kind::DataRace, message, span(module, &second.loc))
        }
        RKind::BarrierDivergence { arrivals, scope } => {
            // The interpreter's warp divergence (a shuffle reading a lane that
            // does not execute it) says itself what happened.
            let warp = *scope == lockstep_kir::BarrierScope::Warp;
            let mut parts = Vec::new();
            let primary = span(module, &v.loc);
            for a in arrivals {
                let who = a.threads.first().map(describe).unwrap_or_default();
                let place = match &a.barrier {
                    Some(loc) => {
                        let label = if warp {
                            format!("{who} is here")
                        } else {
                            format!("{} thread(s) wait here, e.g. {who}", a.count)
                        };
                        match span(module, loc) {
                            Some(s) if Some(&s) == primary.as_ref() && primary_label.is_none() => primary_label = Some(label),
                            Some(s) => related.push(Related { span: s, label }),
                            None => {}
                        }
                        "wait at a barrier"
                    }
                    None => "have exited",
                };
                parts.push(format!("{} thread(s) {place} (e.g. {who})", a.count));
                witness.threads.extend(a.threads.first().map(thread_of));
            }
            let message = match (warp, arrivals.first(), arrivals.get(1)) {
                (true, Some(reader), Some(source)) if !reader.threads.is_empty() && !source.threads.is_empty() => format!(
                    "warp divergence: {} shuffles from {}, which does not execute this shuffle ({}): CUDA leaves the value it reads undefined",
                    describe(&reader.threads[0]),
                    describe(&source.threads[0]),
                    if source.barrier.is_some() { "it is elsewhere" } else { "it has exited" }
                ),
                _ => format!("barrier divergence: {}", parts.join(", while ")),
            };
            (Kind::BarrierDivergence, message, primary)
        }
        RKind::NamedLaneAbsent { arrivals } => {
            let (Some(waiter), Some(absent)) = (arrivals.first(), arrivals.get(1)) else { return None };
            let (Some(w), Some(a)) = (waiter.threads.first(), absent.threads.first()) else { return None };
            let primary = span(module, &v.loc);
            primary_label = Some(format!("{} is here", describe(w)));
            let place = match &absent.barrier {
                Some(loc) => {
                    if let Some(s) = span(module, loc) {
                        related.push(Related { span: s, label: format!("{} waits here", describe(a)) });
                    }
                    "it waits at a barrier"
                }
                None => "it has exited",
            };
            witness.threads.extend([thread_of(w), thread_of(a)]);
            let message = format!(
                "warp divergence: the mask of the warp operation {} executes names {}, which never executes it ({place}): CUDA requires every lane a mask names to execute the operation",
                describe(w),
                describe(a)
            );
            (Kind::BarrierDivergence, message, primary)
        }
        RKind::OutOfBounds { object, offset, width, size, write } => {
            let obj = result.memory.object(*object);
            // An argument buffer's size was our choice unless the user gave it.
            if matches!(obj.origin, ObjOrigin::Buffer) && !sized_buffers.contains(object) {
                return None;
            }
            witness.threads = vec![thread_of(&v.thread)];
            let message = format!(
                "out-of-bounds {} of {width} bytes at offset {offset} of `{}` ({size} bytes), by {}",
                if *write { "write" } else { "read" },
                obj.name,
                describe(&v.thread)
            );
            (Kind::OutOfBounds, message, span(module, &v.loc))
        }
        RKind::DeadObject { object, write } => {
            witness.threads = vec![thread_of(&v.thread)];
            let message = format!(
                "{} of `{}` after its function returned, by {}",
                if *write { "write" } else { "read" },
                object_name(result, *object),
                describe(&v.thread)
            );
            (Kind::OutOfBounds, message, span(module, &v.loc))
        }
        RKind::NullDereference { write, .. } => {
            witness.threads = vec![thread_of(&v.thread)];
            let message = format!("null pointer {} by {}", if *write { "write" } else { "read" }, describe(&v.thread));
            (Kind::NullPointer, message, span(module, &v.loc))
        }
        RKind::InvalidCall { target } => {
            witness.threads = vec![thread_of(&v.thread)];
            let what = match target.obj {
                None if target.offset == 0 => "a null function pointer".to_string(),
                None => format!("address {:#x}, which is no function's address,", target.offset as u64),
                Some(o) if result.memory.get(o).is_none() => format!("address {:#x}, which is no function's address,", target.encode()),
                Some(o) => format!("a pointer into `{}`, which is no function's address,", object_name(result, o)),
            };
            (Kind::NullPointer, format!("call through {what} by {}", describe(&v.thread)), span(module, &v.loc))
        }
        RKind::DeviceMemoryFromHost { object, write } => {
            let message = format!(
                "the host {} device memory `{}` directly (use cudaMemcpy, or cudaMallocManaged memory)",
                if *write { "writes" } else { "reads" },
                object_name(result, *object)
            );
            (Kind::ApiMisuse, message, span(module, &v.loc))
        }
        RKind::ConstantWrite { object, .. } => {
            witness.threads = vec![thread_of(&v.thread)];
            let message = format!("write to constant memory `{}` by {}", object_name(result, *object), describe(&v.thread));
            (Kind::ConstantWrite, message, span(module, &v.loc))
        }
        RKind::DivisionByZero => {
            witness.threads = vec![thread_of(&v.thread)];
            (Kind::DivisionByZero, format!("division by zero by {}", describe(&v.thread)), span(module, &v.loc))
        }
        RKind::DivisionOverflow => {
            witness.threads = vec![thread_of(&v.thread)];
            (Kind::Overflow, format!("signed division overflow (INT_MIN / -1) by {}", describe(&v.thread)), span(module, &v.loc))
        }
        RKind::AssertionFailed { annot } => {
            witness.threads = vec![thread_of(&v.thread)];
            let (kind, what) = match annot {
                AnnotKind::Ensures | AnnotKind::GlobalEnsures => (Kind::Postcondition, "postcondition"),
                AnnotKind::Invariant | AnnotKind::GlobalInvariant | AnnotKind::FunctionWideInvariant => {
                    (Kind::Invariant, "loop invariant")
                }
                AnnotKind::Requires | AnnotKind::GlobalRequires => (Kind::Precondition, "precondition of a call"),
                AnnotKind::WarpMask => (Kind::Assertion, "warp mask"),
                _ => (Kind::Assertion, "assertion"),
            };
            let message = if *annot == AnnotKind::WarpMask {
                format!(
                    "the mask of this warp operation does not name the lane of {}, or the lane it reads from (undefined in CUDA)",
                    describe(&v.thread)
                )
            } else {
                format!("{what} fails for {}", describe(&v.thread))
            };
            (kind, message, span(module, &v.loc))
        }
        RKind::Unreachable => {
            witness.threads = vec![thread_of(&v.thread)];
            (Kind::Assertion, format!("unreachable code reached by {}", describe(&v.thread)), span(module, &v.loc))
        }
        // A group-wide call whose arguments differ between work-items is a
        // divergence of the group, like threads at different barriers.
        RKind::NonUniformGroupCall { what } => {
            witness.threads = vec![thread_of(&v.thread)];
            let message = format!("`{what}` called with arguments that differ within a group, e.g. by {}", describe(&v.thread));
            (Kind::BarrierDivergence, message, span(module, &v.loc))
        }
    };
    Some(Violation { kind, confirmed: true, message, primary, primary_label, related, witness: Some(witness) })
}
