//! Differential testing with the concrete interpreter, and confirmation of
//! solver models.
//!
//! Both kernels run on the same concrete launch, scalar arguments and
//! buffer contents; their final buffers are compared byte for byte. A
//! difference found this way is real (for the interpreter's semantics), so
//! every `different` verdict comes from here. Launches come from the
//! configuration: concrete dimensions are kept, `*` dimensions are drawn
//! from a fixed list of small shapes (square and non-square), so that the
//! report can say which shapes a difference depends on.
//!
//! A launch on which either kernel goes wrong in a way that makes its
//! outputs meaningless (out-of-bounds access, failing precondition,
//! division by zero, divergence) is *invalid* for the comparison and
//! skipped. A data race is reported: it makes the outputs depend on the
//! schedule.
//!
//! Postconditions are checked concretely by running, after the kernel, a
//! copy of the module whose stores are removed: its `__ensures` (at the top
//! of the kernel) then read the memory the launch left behind.

use std::time::Instant;

use lockstep_kir::{AnnotKind, InstKind, MemSpace, Module, Type};
use lockstep_replay::{replay, Launch, Memory, ReplayOptions, Val, ViolationKind};

use crate::{Candidate, Difference, EquivConfig, KernelRef, LaunchShape, PostFailure, ShapeResult};

/// What differential testing found.
#[derive(Default)]
pub struct Tested {
    pub shapes: Vec<ShapeResult>,
    pub difference: Option<Difference>,
    pub post_failure: Option<PostFailure>,
    /// A data race seen in either kernel.
    pub race: Option<String>,
    pub notes: Vec<String>,
}

/// The outcome of confirming a solver model.
pub enum Confirmed {
    Difference(Difference),
    Post(PostFailure),
    /// Not confirmed, and why.
    No(String),
}

/// Block shapes tried for `*` dimensions (x, y, z), and grids for `*` grids.
const BLOCKS: [[u32; 3]; 10] = [
    [8, 8, 1],
    [8, 4, 1],
    [4, 4, 1],
    [4, 8, 1],
    [16, 16, 1],
    [32, 1, 1],
    [64, 1, 1],
    [16, 2, 1],
    [2, 16, 1],
    [1, 1, 1],
];
const GRIDS: [[u32; 3]; 3] = [[2, 2, 1], [3, 1, 1], [1, 2, 1]];
/// The largest grid tested concretely (see `differential`).
const MAX_TESTED_THREADS: u128 = 1 << 21;
/// Random tests per launch.
const TESTS_PER_LAUNCH: usize = 3;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn launches(config: &EquivConfig) -> Vec<LaunchShape> {
    let mut out: Vec<LaunchShape> = Vec::new();
    for (i, blk) in BLOCKS.iter().enumerate() {
        let mut l = LaunchShape { group_size: [1; 3], num_groups: [1; 3] };
        for d in 0..3 {
            l.group_size[d] = config.group_size[d].map_or(blk[d], |v| v.min(u32::MAX as u64) as u32);
            l.num_groups[d] = config.num_groups[d].map_or(GRIDS[i % GRIDS.len()][d], |v| v.min(u32::MAX as u64) as u32);
        }
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// One kernel's concrete run.
struct Run {
    /// Final bytes of each pointer argument's buffer.
    outputs: Vec<Option<Vec<u8>>>,
    race: Option<String>,
    invalid: Option<String>,
    /// A precondition (`__requires`) or assumption fails on the input.
    infeasible: bool,
    /// Failing postconditions: (thread, group, line).
    post: Vec<([u32; 3], [u32; 3], lockstep_replay::Loc)>,
    /// Instructions the interpreter executed (the testing budget's unit).
    steps: u64,
}

/// A test input: scalar values and buffer contents by parameter.
#[derive(Clone)]
struct Input {
    values: Vec<Option<u128>>,
    buffers: Vec<Option<Vec<u8>>>,
}

fn elem_size(k: KernelRef, param: usize) -> u64 {
    k.func()
        .params[param]
        .pointee
        .as_ref()
        .and_then(|p| p.elem_size)
        .or_else(|| access_type(k, param).map(|t| (t.bits() as u64 / 8).max(1)))
        .filter(|s| [1, 2, 4, 8].contains(s))
        .unwrap_or(4)
}

fn elem_is_float(k: KernelRef, param: usize) -> bool {
    match k.func().params[param].pointee.as_ref().and_then(|p| p.elem_type.as_deref()) {
        Some(t) => t.contains("float") || t.contains("double") || t.contains("half"),
        None => matches!(access_type(k, param), Some(Type::Float(_))),
    }
}

/// The type of the kernel's first load or store through parameter
/// `param` (a pointer followed through pointer arithmetic and casts): the
/// element type when the front end did not record it, so that float
/// buffers get float inputs and differences show as float values.
fn access_type(k: KernelRef, param: usize) -> Option<Type> {
    let f = k.func();
    let base_param = |mut v: lockstep_kir::ValueId| -> Option<u32> {
        for _ in 0..64 {
            match f.values[v].def {
                lockstep_kir::ValueDef::Param(i) => return Some(i),
                lockstep_kir::ValueDef::Inst(i) => match f.insts[i].kind {
                    InstKind::PtrAdd { base, .. } => v = base,
                    InstKind::Cast { arg, .. } => v = arg,
                    _ => return None,
                },
                _ => return None,
            }
        }
        None
    };
    for block in f.blocks.values() {
        for &i in &block.insts {
            let data = &f.insts[i];
            let (ptr, ty) = match data.kind {
                InstKind::Load { ptr, .. } => (ptr, data.result.map(|r| f.values[r].ty)),
                InstKind::Store { ptr, value, .. } => (ptr, Some(f.values[value].ty)),
                _ => continue,
            };
            if base_param(ptr) == Some(param as u32) {
                if let Some(t @ (Type::Int(_) | Type::Float(_))) = ty {
                    return Some(t);
                }
            }
        }
    }
    None
}

/// Chooses scalar arguments: the launch's extents first (kernels usually
/// take sizes that match the launch), then the extents off by a few, then
/// random values up to twice the largest extent.
fn choose_input(k: KernelRef, launch: &LaunchShape, test: usize, rng: &mut Rng, config: &EquivConfig, min_elems: u64) -> Input {
    let f = k.func();
    let totals: Vec<u64> = (0..3).map(|d| launch.group_size[d] as u64 * launch.num_groups[d] as u64).collect();
    let largest = *totals.iter().max().unwrap_or(&1);
    let mut values = Vec::new();
    let mut j = 0usize;
    let mut max_scalar = 0u64;
    for (i, p) in f.params.iter().enumerate() {
        let v = match p.ty {
            Type::Ptr(_) => None,
            Type::Int(w) => Some(match config.scalar_args.get(i).copied().flatten() {
                Some(v) => v,
                None => {
                    let ext = totals[j % 3].max(1);
                    let v = match test {
                        0 => ext,
                        1 => ext.saturating_sub(3).max(1),
                        _ => 1 + rng.below(2 * largest),
                    };
                    j += 1;
                    max_scalar = max_scalar.max(v);
                    (v as u128) & lockstep_replay::value::mask(w as u32)
                }
            }),
            Type::Float(w) => Some(match config.scalar_args.get(i).copied().flatten() {
                Some(v) => v,
                None => {
                    let x = (1 + rng.below(16)) as f64 / 2.0;
                    lockstep_replay::value::f64_to_float(x, w as u32)
                }
            }),
        };
        values.push(v);
    }
    let square = (max_scalar + 1).saturating_mul(max_scalar + 1).min(1 << 20);
    let threads: u64 = totals.iter().product();
    let elems = 4096u64.max(threads * 8).max(square).max(min_elems);
    let buffers = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if !p.ty.is_ptr() {
                return None;
            }
            let size = elem_size(k, i);
            let float = elem_is_float(k, i);
            let mut bytes = Vec::with_capacity((elems * size) as usize);
            // The first test uses floats with few significant bits (sums
            // of a few are exact); the others use full mantissas, on which
            // reassociated sums round differently.
            let rough = test > 0;
            for _ in 0..elems {
                let x = rng.below(1 << 12);
                let y = if rough { (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 64.0 - 32.0 } else { x as f64 / 8.0 };
                let v: u64 = match (float, size) {
                    (true, 8) => y.to_bits(),
                    (true, 2) => lockstep_replay::value::f32_to_f16(y as f32) as u64,
                    (true, _) => (y as f32).to_bits() as u64,
                    (false, _) => rng.next() & 0xffff,
                };
                bytes.extend_from_slice(&v.to_le_bytes()[..size as usize]);
            }
            Some(bytes)
        })
        .collect();
    Input { values, buffers }
}

/// A copy of `module` whose stores are removed, so that its postconditions
/// read the memory a previous launch left.
fn post_module(module: &Module) -> Option<Module> {
    let mut m = module.clone();
    for f in m.functions.values_mut() {
        for data in f.insts.values_mut() {
            match data.kind {
                InstKind::Store { .. } => data.kind = InstKind::Nop { what: "store removed to check postconditions".into() },
                InstKind::Atomic { .. } | InstKind::CmpXchg { .. } | InstKind::MemCopy { .. } | InstKind::MemSet { .. } => return None,
                _ => {}
            }
        }
    }
    Some(m)
}

fn has_ensures(k: KernelRef) -> bool {
    k.func().insts.values().any(|i| matches!(i.kind, InstKind::Annot { kind: AnnotKind::Ensures, .. }))
}

fn run(module: &Module, k: KernelRef, launch: &LaunchShape, input: &Input, only_groups: Option<Vec<u32>>, memory_limit: u64) -> Result<(Run, Vec<Option<Vec<u8>>>), String> {
    let mut memory = Memory::new();
    let mut args = Vec::new();
    for (i, p) in k.func().params.iter().enumerate() {
        match (&input.buffers[i], input.values[i]) {
            (Some(bytes), _) => args.push(memory.alloc(MemSpace::Global, bytes.len() as u64, Some(bytes))),
            (None, Some(v)) => args.push(Val::Bits(v)),
            (None, None) => return Err(format!("no value for parameter `{}`", p.name)),
        }
    }
    // The run's share of the memory limit, as a check's concrete search
    // takes it (see `EquivConfig::memory_limit`).
    let options = ReplayOptions { only_groups, memory_budget: memory_limit / 4, process_memory_limit: Some(memory_limit / 4 * 3), ..ReplayOptions::default() };
    let l = Launch { group_size: launch.group_size, num_groups: launch.num_groups, global_offset: [0; 3] };
    let result = replay(module, k.kernel, &l, &args, memory, &options).map_err(|e| e.to_string())?;
    let func = &module.functions[k.kernel];
    let line = |loc: &lockstep_replay::Loc| {
        loc.inst
            .and_then(|i| module.functions[loc.func].inst_locs.get(i).clone())
            .map(|l| format!(" (line {})", l.line))
            .unwrap_or_default()
    };
    let mut out = Run { outputs: Vec::new(), race: None, invalid: None, infeasible: false, post: Vec::new(), steps: result.steps };
    for v in &result.violations {
        match &v.kind {
            ViolationKind::DataRace { .. } => {
                out.race.get_or_insert_with(|| format!("`{}` has a data race{} with {launch}: {}", func.name, line(&v.loc), v.message));
            }
            ViolationKind::AssertionFailed { annot: AnnotKind::Ensures } => out.post.push((v.thread.local, v.thread.group, v.loc)),
            ViolationKind::AssertionFailed { annot: AnnotKind::Requires } => {
                out.infeasible = true;
                out.invalid.get_or_insert_with(|| format!("`{}`: {}{}", func.name, v.message, line(&v.loc)));
            }
            _ => {
                out.invalid.get_or_insert_with(|| format!("`{}`: {}{}", func.name, v.message, line(&v.loc)));
            }
        }
    }
    if !result.is_feasible() {
        out.infeasible = true;
        out.invalid.get_or_insert_with(|| format!("`{}`: an assumption fails on the chosen inputs", func.name));
    }
    if !result.completed {
        out.invalid.get_or_insert_with(|| format!("`{}` did not run to completion in the interpreter", func.name));
    }
    let finals: Vec<Option<Vec<u8>>> = args
        .iter()
        .map(|a| match a {
            Val::Ptr(_) => result.memory.target(*a).map(|o| result.memory.contents(o)),
            _ => None,
        })
        .collect();
    out.outputs = finals.clone();
    Ok((out, finals))
}

/// Runs `k` and, if it has postconditions, its store-free copy on the
/// final memory; returns the run with the failing postconditions filled in.
fn run_with_post(k: KernelRef, post: Option<&Module>, launch: &LaunchShape, input: &Input, only: Option<Vec<u32>>, memory_limit: u64) -> Result<Run, String> {
    let (mut r, finals) = run(k.module, k, launch, input, only.clone(), memory_limit)?;
    // Postconditions evaluated during the real run read memory too early.
    r.post.clear();
    if let (Some(pm), true) = (post, r.invalid.is_none() && r.race.is_none()) {
        let after = Input { values: input.values.clone(), buffers: finals };
        let (p, _) = run(pm, k, launch, &after, only, memory_limit)?;
        r.post = p.post;
    }
    Ok(r)
}

fn render(bytes: &[u8], float: bool) -> String {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    let bits = u64::from_le_bytes(b);
    match (float, bytes.len()) {
        (true, 4) => format!("{}", f32::from_bits(bits as u32)),
        (true, 8) => format!("{}", f64::from_bits(bits)),
        // KIR does not know whether an integer is signed: a negative value
        // also shows its bits, which read as the unsigned value.
        (_, n) => {
            let v = match n {
                1 => bits as u8 as i8 as i64,
                2 => bits as u16 as i16 as i64,
                4 => bits as u32 as i32 as i64,
                _ => bits as i64,
            };
            if v < 0 {
                format!("{v} ({bits:#0w$x})", w = 2 + 2 * n)
            } else {
                v.to_string()
            }
        }
    }
}

fn args_of(k: KernelRef, input: &Input) -> Vec<(String, String)> {
    k.func()
        .params
        .iter()
        .zip(&input.values)
        .filter_map(|(p, v)| {
            let v = (*v)?;
            Some((
                p.name.clone(),
                match p.ty {
                    Type::Int(w) => lockstep_replay::value::sext(v, w as u32).to_string(),
                    Type::Float(w) => lockstep_replay::value::float_to_f64(v, w as u32).to_string(),
                    Type::Ptr(_) => v.to_string(),
                },
            ))
        })
        .collect()
}

/// The first element where the two runs' buffers differ.
fn compare(a: KernelRef, ra: &Run, rb: &Run) -> Option<(String, u64, String, String)> {
    for (i, (x, y)) in ra.outputs.iter().zip(&rb.outputs).enumerate() {
        let (Some(x), Some(y)) = (x, y) else { continue };
        if x == y {
            continue;
        }
        let size = elem_size(a, i) as usize;
        let float = elem_is_float(a, i);
        let first = x.iter().zip(y.iter()).position(|(p, q)| p != q).unwrap_or(0);
        let index = first / size;
        let at = index * size;
        let end = (at + size).min(x.len()).min(y.len());
        return Some((a.func().params[i].name.clone(), index as u64, render(&x[at..end], float), render(&y[at..end], float)));
    }
    None
}

fn post_failure(side: char, k: KernelRef, launch: &LaunchShape, input: &Input, r: &Run) -> Option<PostFailure> {
    let &(local, group, loc) = r.post.first()?;
    let src = loc.inst.and_then(|i| k.module.functions[loc.func].inst_locs.get(i).clone());
    Some(PostFailure {
        side,
        kernel: k.func().name.clone(),
        loc: k.describe(src),
        launch: launch.clone(),
        thread: (local, group),
        args: args_of(k, input),
    })
}

/// What a test run costs beside the instructions it executes (setting up
/// memory, solving preconditions), in interpreter steps.
const LAUNCH_STEPS: u64 = 200_000;

/// Tests the kernels on the launches the configuration allows, within the
/// configured budget of interpreter steps (at least one launch is always
/// tested). Steps, not time, so that what is tested does not depend on the
/// machine's load; the time budget is only a safety net.
pub fn differential(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Tested {
    let start = Instant::now();
    let mut steps = 0u64;
    let mut rng = Rng(config.seed);
    let mut tested = Tested::default();
    let post_a = if has_ensures(a) { post_module(a.module) } else { None };
    let post_b = b.filter(|b| has_ensures(*b)).and_then(|b| post_module(b.module));
    if (has_ensures(a) && post_a.is_none()) || b.is_some_and(|b| has_ensures(b) && post_b.is_none()) {
        tested.notes.push("postconditions were not tested concretely: the kernel uses atomics or memcpy/memset".into());
    }
    for launch in launches(config) {
        if (steps > config.test_steps || start.elapsed() > config.test_budget) && !tested.shapes.is_empty() {
            break;
        }
        // Inputs hold eight elements per thread of the grid: a grid too
        // large for that (or whose size would not even fit 64 bits) is not
        // tested concretely.
        let threads: u128 = launch.group_size.iter().chain(&launch.num_groups).map(|&d| d as u128).product();
        if threads > MAX_TESTED_THREADS {
            tested.notes.push(format!("with {launch}: not tested concretely, the grid has {threads} threads (at most {MAX_TESTED_THREADS})"));
            continue;
        }
        let groups = launch.num_groups.iter().map(|&g| g as u64).product::<u64>();
        let only = (groups > 8).then(|| vec![0, 1, (groups - 1) as u32]);
        let mut differs = Some(false);
        // The solved arguments depend on the launch only: solved once.
        let mut solved_values: Option<Option<Vec<Option<u128>>>> = None;
        for test in 0..TESTS_PER_LAUNCH {
            let drawn = choose_input(a, &launch, test, &mut rng, config, 0);
            // Inputs that break a precondition compare nothing: rounded
            // scalar arguments satisfy the common ones (`n % 4 == 0`, a
            // power-of-two width).
            let mut runs = None;
            let solved = std::iter::once_with(|| {
                let values = solved_values.get_or_insert_with(|| solved_input(a, b, &launch, &drawn, config).map(|i| i.values));
                values.clone().map(|values| Input { values, buffers: drawn.buffers.clone() })
            })
            .flatten();
            for input in std::iter::once(drawn.clone()).chain(rounded_inputs(a, &drawn, config)).chain(solved) {
                let ra = match run_with_post(a, post_a.as_ref(), &launch, &input, only.clone(), config.memory_limit) {
                    Ok(r) => r,
                    Err(e) => {
                        runs = Some(Err(e));
                        break;
                    }
                };
                let rb = match b.map(|b| run_with_post(b, post_b.as_ref(), &launch, &input, only.clone(), config.memory_limit)).transpose() {
                    Ok(r) => r,
                    Err(e) => {
                        runs = Some(Err(e));
                        break;
                    }
                };
                let invalid = ra.invalid.is_some() || rb.as_ref().is_some_and(|r| r.invalid.is_some());
                let infeasible = ra.infeasible || rb.as_ref().is_some_and(|r| r.infeasible);
                // A rounded input is only taken when both kernels run
                // validly on it; otherwise the drawn input's failure is
                // the one to report.
                if runs.is_none() || !invalid {
                    runs = Some(Ok((ra, rb, input)));
                }
                if !infeasible {
                    break;
                }
            }
            let (ra, rb, input) = match runs.expect("at least the drawn input ran") {
                Ok(r) => {
                    steps += LAUNCH_STEPS + r.0.steps + r.1.as_ref().map_or(0, |rb| rb.steps);
                    r
                }
                Err(e) => {
                    tested.notes.push(format!("with {launch}: {e}"));
                    differs = None;
                    break;
                }
            };
            if let Some(why) = ra.invalid.as_ref().or(rb.as_ref().and_then(|r| r.invalid.as_ref())) {
                let note = format!("with {launch} the kernels were not compared: {why}");
                if !tested.notes.contains(&note) {
                    tested.notes.push(note);
                }
                differs = None;
                break;
            }
            if let Some(race) = ra.race.as_ref().or(rb.as_ref().and_then(|r| r.race.as_ref())) {
                tested.race.get_or_insert_with(|| race.clone());
                differs = None;
                break;
            }
            if tested.post_failure.is_none() {
                tested.post_failure = post_failure('a', a, &launch, &input, &ra)
                    .or_else(|| rb.as_ref().and_then(|r| post_failure('b', b.expect("rb from b"), &launch, &input, r)));
            }
            if let Some(rb) = &rb {
                if let Some((buffer, index, value_a, value_b)) = compare(a, &ra, rb) {
                    differs = Some(true);
                    if tested.difference.is_none() {
                        tested.difference = Some(Difference {
                            launch: launch.clone(),
                            args: args_of(a, &input),
                            buffer,
                            index,
                            value_a,
                            value_b,
                            inputs: if input.values != drawn.values {
                                format!("{}; integer arguments changed to satisfy the preconditions", inputs_description(test, config.seed))
                            } else {
                                inputs_description(test, config.seed)
                            },
                        });
                    }
                    break;
                }
            }
        }
        tested.shapes.push(ShapeResult { launch, differs });
    }
    crate::trace(&format!("differential testing: {} launches, {steps} interpreter steps, {:?}", tested.shapes.len(), start.elapsed()));
    tested
}

/// Variants of `input` whose integer scalar arguments (those the
/// configuration leaves free) are rounded down to multiples of 2, 4, ...,
/// 256, to powers of two and, last, halved up to three times: inputs for
/// the kernels' preconditions when the drawn ones break them.
fn rounded_inputs(k: KernelRef, input: &Input, config: &EquivConfig) -> Vec<Input> {
    let free: Vec<usize> = k
        .func()
        .params
        .iter()
        .enumerate()
        .filter(|(i, p)| matches!(p.ty, Type::Int(_)) && config.scalar_args.get(*i).copied().flatten().is_none())
        .map(|(i, _)| i)
        .collect();
    if free.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Input> = Vec::new();
    let variants: Vec<Box<dyn Fn(u128) -> u128>> = (1..=8)
        .map(|s| Box::new(move |v: u128| v >> s << s) as Box<dyn Fn(u128) -> u128>)
        .chain(std::iter::once(Box::new(|v: u128| if v <= 1 { 1 } else { 1u128 << (127 - v.leading_zeros()) }) as Box<dyn Fn(u128) -> u128>))
        .chain((1..=3).map(|s| Box::new(move |v: u128| v >> s) as Box<dyn Fn(u128) -> u128>))
        .collect();
    for f in variants {
        // Rounded down only (the buffers are sized for the drawn values),
        // and never to zero.
        let mut next = input.clone();
        for &i in &free {
            if let Some(v) = next.values[i] {
                let r = f(v);
                if r > 0 {
                    next.values[i] = Some(r);
                }
            }
        }
        if next.values != input.values && !out.iter().any(|o| o.values == next.values) {
            out.push(next);
        }
    }
    out
}

/// `input` with its free integer scalar arguments solved for the
/// preconditions of both kernels on `launch` (evaluated for the first
/// thread of an arbitrary group), when rounding found none: a precondition
/// such as `n == 2 * blockDim.x * gridDim.x` ties an argument to the
/// launch. The values stay below the buffers' sizes in elements; the
/// interpreter checks the preconditions again.
fn solved_input(a: KernelRef, b: Option<KernelRef>, launch: &LaunchShape, input: &Input, config: &EquivConfig) -> Option<Input> {
    let free: Vec<usize> = a
        .func()
        .params
        .iter()
        .enumerate()
        .filter(|(i, p)| matches!(p.ty, Type::Int(_)) && config.scalar_args.get(*i).copied().flatten().is_none())
        .map(|(i, _)| i)
        .collect();
    if free.is_empty() {
        return None;
    }
    let mut funcs = Vec::new();
    for k in std::iter::once(a).chain(b) {
        funcs.push((k, lockstep_analysis::inline_calls(k.module, k.kernel).ok()?.function));
    }
    let params: Vec<Type> = funcs[0].1.params.iter().map(|p| p.ty).collect();
    let grid = launch.num_groups.map(|g| Some(g as u64));
    let mut inp = crate::sym::Inputs::new(launch.group_size, grid, &params);
    let mut facts = inp.launch_constraints();
    // A kernel whose path to its first write the engine cannot run (a
    // loop over symbolic bounds before it) is left out: the values are
    // only a guess that the interpreter checks.
    let mut any = false;
    for (i, (k, f)) in funcs.iter().enumerate() {
        if let Ok(reqs) = crate::sym::Executor::new(k.module, f, ["a", "b"][i], &mut inp).run_preconditions() {
            facts.extend(reqs);
            any = true;
        }
    }
    // Preconditions on the launch alone fold to literals: no argument
    // helps when one is false, and then no solver is needed to say so.
    if !any || facts.iter().any(|&f| inp.st.as_bool(f) == Some(false)) {
        return None;
    }
    // The buffers hold at least this many elements of 8 bytes.
    let largest = input.buffers.iter().flatten().map(|b| b.len() as u128 / 8).min().unwrap_or(1).max(1);
    for (i, v) in input.values.iter().enumerate() {
        let Some(t) = inp.scalars.get(i).copied().flatten() else { continue };
        let w = inp.st.sort_of(t).bv_width()?;
        if free.contains(&i) {
            let (one, max) = (inp.st.bv_const(w, 1), inp.st.bv_const(w, largest));
            facts.push(inp.st.bvuge(t, one));
            facts.push(inp.st.bvule(t, max));
        } else if let Some(v) = v {
            let c = inp.st.bv_const(w, *v);
            facts.push(inp.st.eq(t, c));
        }
    }
    let quick = config.solver_config(config.query_timeout.min(std::time::Duration::from_secs(1)));
    let mut solver = lockstep_smt::Solver::spawn(quick).ok()?;
    for &f in &facts {
        solver.assert(&inp.st, f).ok()?;
    }
    if solver.check_sat().ok()? != lockstep_smt::SatResult::Sat {
        return None;
    }
    let pairs: Vec<(usize, lockstep_smt::TermId)> = free.iter().filter_map(|&i| inp.scalars.get(i).copied().flatten().map(|t| (i, t))).collect();
    let terms: Vec<lockstep_smt::TermId> = pairs.iter().map(|&(_, t)| t).collect();
    let values = solver.get_value(&inp.st, &terms).ok()?;
    let mut out = input.clone();
    for (&(i, _), v) in pairs.iter().zip(values) {
        out.values[i] = Some(v.as_u128()?);
    }
    (out.values != input.values).then_some(out)
}

fn inputs_description(test: usize, seed: u64) -> String {
    let scalars = match test {
        0 => "scalar arguments equal to the launch's extents (x, y, z in turn)",
        1 => "scalar arguments 3 below the launch's extents",
        _ => "random scalar arguments",
    };
    format!("{scalars}; buffers filled by a pseudo-random generator (seed {seed:#x}, test {test})")
}

/// Runs both kernels on the launch and scalar arguments of a solver model,
/// with a few pseudo-random buffer contents.
pub fn confirm(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig, group_size: [u32; 3], c: &Candidate) -> Confirmed {
    let mut launch = LaunchShape { group_size, num_groups: [1; 3] };
    for d in 0..3 {
        launch.num_groups[d] = c.num_groups[d].clamp(1, u32::MAX as u64) as u32;
    }
    let g = c.group_id;
    let linear = g[0] + launch.num_groups[0] as u64 * (g[1] + launch.num_groups[1] as u64 * g[2]);
    let per_group: u64 = group_size.iter().map(|&x| x as u64).product();
    let needed = (linear + 1).saturating_mul(per_group).saturating_mul(8);
    if needed > 1 << 24 || linear > u32::MAX as u64 {
        return Confirmed::No(format!("its launch ({launch}, group {g:?}) is too large for the interpreter to confirm"));
    }
    let post_a = if has_ensures(a) { post_module(a.module) } else { None };
    let post_b = b.filter(|b| has_ensures(*b)).and_then(|b| post_module(b.module));
    let mut rng = Rng(config.seed ^ 0xc0ff_ee);
    for test in 0..4 {
        let mut input = choose_input(a, &launch, 2, &mut rng, config, needed);
        for (i, v) in c.scalars.iter().enumerate() {
            if let (Some(v), Some(slot)) = (v, input.values.get_mut(i)) {
                *slot = Some(*v);
            }
        }
        if test == 0 {
            // All-zero buffers find differences in which element is written.
            for b in input.buffers.iter_mut().flatten() {
                b.iter_mut().for_each(|x| *x = 0);
            }
        }
        // The elements the model chose (little-endian, as on the GPU).
        for &(param, off, value, bits) in &c.cells {
            let Some(Some(buf)) = input.buffers.get_mut(param) else { continue };
            let bytes = value.to_le_bytes();
            let n = (bits as usize / 8).max(1);
            if let Some(dst) = buf.get_mut(off as usize..off as usize + n) {
                dst.copy_from_slice(&bytes[..n]);
            }
        }
        let only = Some(vec![linear as u32]);
        let Ok(ra) = run_with_post(a, post_a.as_ref(), &launch, &input, only.clone(), config.memory_limit) else { break };
        let rb = match b.map(|b| run_with_post(b, post_b.as_ref(), &launch, &input, only.clone(), config.memory_limit)).transpose() {
            Ok(r) => r,
            Err(_) => break,
        };
        if let Some(why) = ra.invalid.as_ref().or(rb.as_ref().and_then(|r| r.invalid.as_ref())) {
            return Confirmed::No(format!("the interpreter cannot confirm it on {launch}: {why}"));
        }
        if let Some(race) = ra.race.as_ref().or(rb.as_ref().and_then(|r| r.race.as_ref())) {
            return Confirmed::No(race.clone());
        }
        if let Some(p) = post_failure('a', a, &launch, &input, &ra)
            .or_else(|| rb.as_ref().and_then(|r| post_failure('b', b.expect("rb from b"), &launch, &input, r)))
        {
            return Confirmed::Post(p);
        }
        if let Some(rb) = &rb {
            if let Some((buffer, index, value_a, value_b)) = compare(a, &ra, rb) {
                return Confirmed::Difference(Difference {
                    launch,
                    args: args_of(a, &input),
                    buffer,
                    index,
                    value_a,
                    value_b,
                    inputs: format!(
                        "launch and scalar arguments from the solver's model (group {g:?} run); buffers {}{}",
                        if test == 0 { "all zero".to_string() } else { format!("pseudo-random (seed {:#x})", config.seed ^ 0xc0ff_ee) },
                        cells_text(a, &c.cells)
                    ),
                });
            }
        }
    }
    Confirmed::No(format!("running both kernels on its launch ({launch}) and arguments showed no difference"))
}

/// The input elements a solver model chose, as ` except in[3] = 0xfffffffe`.
fn cells_text(k: KernelRef, cells: &[(usize, u64, u128, u32)]) -> String {
    if cells.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = cells
        .iter()
        .map(|&(param, off, value, bits)| {
            let name = &k.func().params[param].name;
            format!("{name}[{}] = {value:#x}", off / (bits as u64 / 8).max(1))
        })
        .collect();
    format!(", except {} (from the model)", parts.join(", "))
}

/// A sentence on the launch shapes the difference depends on.
pub fn shape_summary(shapes: &[ShapeResult]) -> Option<String> {
    let differ: Vec<&LaunchShape> = shapes.iter().filter(|s| s.differs == Some(true)).map(|s| &s.launch).collect();
    let agree: Vec<&LaunchShape> = shapes.iter().filter(|s| s.differs == Some(false)).map(|s| &s.launch).collect();
    if differ.is_empty() {
        return None;
    }
    let list = |v: &[&LaunchShape]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>().join("; ");
    let square = |l: &LaunchShape| l.group_size[0] == l.group_size[1];
    if agree.is_empty() {
        return Some(format!("the kernels differ on every launch tested ({})", differ.len()));
    }
    let two_d = shapes.iter().any(|s| s.launch.group_size[1] > 1);
    if two_d && differ.iter().all(|l| !square(l)) && agree.iter().all(|l| square(l)) {
        return Some(format!(
            "the difference depends on the launch shape: only non-square blocks (blockDim.x != blockDim.y) show it ({}); square blocks agree ({})",
            list(&differ),
            list(&agree)
        ));
    }
    Some(format!("the difference depends on the launch shape: it shows with {} but not with {}", list(&differ), list(&agree)))
}
