//! lockstep-equiv: is an optimised kernel equivalent to its reference, and
//! does a kernel meet its postconditions?
//!
//! Two kernels are *equivalent* when, launched with the same geometry on
//! the same scalar arguments and the same initial buffer contents, they
//! leave the same values in every buffer either of them writes. A kernel
//! *meets its postconditions* when every `__ensures(e)` holds for every
//! thread, evaluated on the memory the whole launch leaves behind (so `e`
//! may state properties of whole output arrays, one element per thread).
//!
//! Three engines decide this (see ARCHITECTURE.md), in this order:
//!
//! - [`testing`]: differential testing with the concrete interpreter
//!   (`lockstep-replay`) on a set of small launches allowed by the
//!   configuration, with chosen and random inputs. Every `different`
//!   verdict comes from here or is confirmed here: the two kernels are run
//!   on one concrete launch and input and their outputs compared byte for
//!   byte. It also records which launch shapes show the difference.
//! - [`param`]: the parameterized proof (PUG_para), for any block size and
//!   any number of groups: one symbolic thread per kernel, its conditional
//!   assignments per barrier interval, writers found among candidate thread
//!   permutations. It proves equivalence and postconditions: a
//!   postcondition is evaluated for one arbitrary thread, each read of an
//!   output resolving to the element's unique writer (which must exist
//!   where the value matters), so `__ensures` over whole output arrays
//!   (`out[i * height + j] == in[j * width + i]`) hold for any number of
//!   threads.
//! - [`sym`]: the bounded proof. One *arbitrary* group (symbolic group id,
//!   symbolic or concrete number of groups) of each kernel is executed
//!   symbolically, every thread of it, barrier interval by barrier
//!   interval, with scalar arguments and input buffers as SMT constants and
//!   arrays shared by both kernels. Integers are exact bit-vectors; floats
//!   are uninterpreted functions of their bits (with commutativity of `+`
//!   and `*`), or IEEE arithmetic under [`FloatModel::Ieee`]. A solver query per output buffer asks for an offset where
//!   the two final arrays differ; `unsat` proves equivalence for every
//!   number of groups. Block sizes must be concrete, or finitely many: when
//!   `blockDim.x` is `*` and the preconditions restrict it to powers of two
//!   (`__requires((blockDim.x & (blockDim.x - 1)) == 0)`, proved by the
//!   solver), each of the at most eleven sizes up to 1024 is proved in turn
//!   (tree reductions, whose loops depend on `blockDim.x`).
//!
//! Soundness first: a proof rests on stated assumptions (race freedom, no
//! out-of-bounds accesses, non-aliasing buffers, no group reading what
//! another group writes); anything outside the encoding, a timeout or an
//! unconfirmed solver model gives `Unknown` with the reason. `Equivalent` is
//! only returned when every query answered `unsat`.

pub mod param;
pub mod sym;
pub mod testing;

use std::collections::HashSet;
use std::time::Duration;

use lockstep_kir::{FuncId, Function, Module, SrcLoc, Type};
use lockstep_smt::{SatResult, Solver, SolverConfig, TermId};

pub use lockstep_smt::SolverKind;

/// The verdicts of `lockstep equiv` (DESIGN.md).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    Equivalent,
    Different,
    Unknown,
    Rejected,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Equivalent => "equivalent",
            Verdict::Different => "different",
            Verdict::Unknown => "unknown",
            Verdict::Rejected => "rejected",
        }
    }

    /// 0 equivalent, 1 different, 2 rejected, 3 unknown (as `check`).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Equivalent => 0,
            Verdict::Different => 1,
            Verdict::Rejected => 2,
            Verdict::Unknown => 3,
        }
    }
}

/// One kernel to compare: a module and the kernel's id in it.
#[derive(Clone, Copy)]
pub struct KernelRef<'a> {
    pub module: &'a Module,
    pub kernel: FuncId,
    /// The file the module was compiled from (for locations).
    pub file: &'a str,
}

impl KernelRef<'_> {
    pub fn func(&self) -> &Function {
        &self.module.functions[self.kernel]
    }

    /// A source location as `file:line:column`.
    pub fn describe(&self, loc: Option<SrcLoc>) -> Option<(String, u32, u32)> {
        let loc = loc?;
        let file = self.module.files.get(loc.file).cloned().unwrap_or_else(|| self.file.to_string());
        Some((file, loc.line, loc.col))
    }
}

/// How the proofs model float arithmetic (`--float=uf|ieee`). Testing and
/// confirmation always compute real IEEE floats in the interpreter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatModel {
    /// Float operations are uninterpreted functions of their operands'
    /// bits, with `+` and `*` commutative: fast, and enough for rewrites
    /// that keep each float operation (index arithmetic, tiling, memory
    /// layout), but a rewrite of the arithmetic itself is `unknown`.
    Uninterpreted,
    /// SMT-LIB's FloatingPoint theory: IEEE binary32/binary64 arithmetic
    /// rounding to nearest even, exact to the bit (`+`, `-`, `*`, `/`,
    /// `sqrt`, `fma`, `fabs`, comparisons and conversions); other math
    /// functions stay uninterpreted.
    Ieee,
}

/// What to check and how hard to try.
#[derive(Clone, Debug)]
pub struct EquivConfig {
    /// Threads per group in each dimension; `None` is any size.
    pub group_size: [Option<u64>; 3],
    /// Groups in each dimension; `None` is any number.
    pub num_groups: [Option<u64>; 3],
    /// Fixed scalar arguments by parameter index (`--kernel-args`).
    pub scalar_args: Vec<Option<u128>>,
    /// How the proofs model float arithmetic.
    pub floats: FloatModel,
    pub solver: SolverKind,
    pub query_timeout: Duration,
    /// Interpreter steps spent on differential testing before the proof
    /// starts (launches are tested until this many have run).
    pub test_steps: u64,
    /// A safety net on the time spent testing, for a machine so slow that
    /// `test_steps` would take long.
    pub test_budget: Duration,
    pub seed: u64,
    /// The memory the whole run may use, in bytes (`--memory-limit`): each
    /// solver gets three quarters of it as its address space, and each
    /// test run of a kernel a quarter for what it writes (stopping when the
    /// process holds three quarters), as in a check.
    pub memory_limit: u64,
    /// How many times a query's time limit the solver's timer allows when
    /// its work is limited (`lockstep_smt::SolverConfig::timer_factor`):
    /// [`lockstep_smt::TIMER_FACTOR`], so that load does not change
    /// answers, or 1 under a deadline the user set (`--timeout`).
    pub solver_timer_factor: u32,
    /// Set while the parameterized proof runs beside differential testing
    /// ([`check_inner`]): once testing has found a difference (or a race)
    /// the proof's answer is not needed, and the proof stops at its next
    /// solver query. `None` (the default): never stopped.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl EquivConfig {
    /// Whether the run this configuration belongs to was stopped (see
    /// [`EquivConfig::cancel`]).
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The configuration of a solver whose queries take at most `timeout`.
    pub fn solver_config(&self, timeout: Duration) -> SolverConfig {
        let mut config = SolverConfig::new(self.solver, timeout);
        config.memory_limit = Some(self.memory_limit / 4 * 3);
        config.timer_factor = self.solver_timer_factor;
        config
    }
}

/// The default testing budget in interpreter steps: about 0.4 s of
/// testing on an idle machine.
pub const DEFAULT_TEST_STEPS: u64 = 4_000_000;

impl Default for EquivConfig {
    fn default() -> EquivConfig {
        EquivConfig {
            group_size: [None; 3],
            num_groups: [None; 3],
            scalar_args: Vec::new(),
            floats: FloatModel::Uninterpreted,
            solver: SolverKind::Z3,
            query_timeout: Duration::from_secs(10),
            test_steps: DEFAULT_TEST_STEPS,
            test_budget: Duration::from_secs(4),
            seed: 0x5eed_0f_e9u64,
            memory_limit: 1 << 30,
            solver_timer_factor: lockstep_smt::TIMER_FACTOR,
            cancel: None,
        }
    }
}

/// A concrete launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    pub group_size: [u32; 3],
    pub num_groups: [u32; 3],
}

impl std::fmt::Display for LaunchShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = |v: [u32; 3]| {
            let n = if v[2] > 1 { 3 } else if v[1] > 1 { 2 } else { 1 };
            let parts: Vec<String> = v[..n].iter().map(|x| x.to_string()).collect();
            format!("[{}]", parts.join(","))
        };
        write!(f, "blockDim={} gridDim={}", d(self.group_size), d(self.num_groups))
    }
}

/// A concrete difference, confirmed by running both kernels.
#[derive(Clone, Debug)]
pub struct Difference {
    pub launch: LaunchShape,
    /// Scalar arguments as (name, value).
    pub args: Vec<(String, String)>,
    /// The output buffer (parameter name) and element index that differ first.
    pub buffer: String,
    pub index: u64,
    pub value_a: String,
    pub value_b: String,
    /// How the inputs were chosen.
    pub inputs: String,
}

/// A postcondition that fails on a concrete launch (confirmed by replay).
#[derive(Clone, Debug)]
pub struct PostFailure {
    /// `a` or `b`.
    pub side: char,
    pub kernel: String,
    pub loc: Option<(String, u32, u32)>,
    pub launch: LaunchShape,
    pub thread: ([u32; 3], [u32; 3]),
    pub args: Vec<(String, String)>,
}

/// Per launch shape: did the kernels agree in testing?
#[derive(Clone, Debug)]
pub struct ShapeResult {
    pub launch: LaunchShape,
    /// `Some(true)`: a difference; `Some(false)`: agreement on every test;
    /// `None`: the launch is invalid for the kernels (out-of-bounds access,
    /// failing precondition...) or could not run.
    pub differs: Option<bool>,
}

/// The answer.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// Why `unknown` or `rejected`, with a location when a construct is to blame.
    pub reason: Option<(String, Option<(String, u32, u32)>)>,
    pub difference: Option<Difference>,
    pub post_failure: Option<PostFailure>,
    /// What was proved (for `equivalent`).
    pub proved: Vec<String>,
    /// What the proof assumed.
    pub assumptions: Vec<String>,
    /// Launch shapes tested and whether they showed a difference.
    pub shapes: Vec<ShapeResult>,
    /// A sentence on the launch shapes a difference depends on.
    pub shape_summary: Option<String>,
    pub notes: Vec<String>,
}

impl Outcome {
    /// An outcome with only a verdict (the rest to be filled in).
    pub fn new(verdict: Verdict) -> Outcome {
        Outcome {
            verdict,
            reason: None,
            difference: None,
            post_failure: None,
            proved: Vec::new(),
            assumptions: Vec::new(),
            shapes: Vec::new(),
            shape_summary: None,
            notes: Vec::new(),
        }
    }

    /// Takes the interpreter's answer on a solver model: a confirmed
    /// difference or failing postcondition makes the verdict `different`
    /// (`Ok`); an unconfirmed model gives back why (`Err`).
    fn take_confirmation(&mut self, confirmed: testing::Confirmed) -> Result<(), String> {
        match confirmed {
            testing::Confirmed::Difference(d) => self.difference = Some(d),
            testing::Confirmed::Post(p) => self.post_failure = Some(p),
            testing::Confirmed::No(why) => return Err(why),
        }
        self.verdict = Verdict::Different;
        Ok(())
    }

    fn unknown(reason: impl Into<String>, loc: Option<(String, u32, u32)>) -> Outcome {
        let mut o = Outcome::new(Verdict::Unknown);
        o.reason = Some((reason.into(), loc));
        o
    }
}

/// Compares kernel `a` with kernel `b` (and checks the postconditions of
/// both), or, when `b` is `None`, checks `a` against its postconditions.
pub fn check(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Outcome {
    let run = std::panic::AssertUnwindSafe(|| check_inner(a, b, config));
    std::panic::catch_unwind(run).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".into());
        Outcome::unknown(format!("internal error in the equivalence checker: {what}"), None)
    })
}

/// Prints `what` on stderr when `LOCKSTEP_EQUIV_TRACE` is set (timings of
/// the engines and of each solver query, for benchmarks).
pub(crate) fn trace(what: &str) {
    if std::env::var_os("LOCKSTEP_EQUIV_TRACE").is_some() {
        eprintln!("{what}");
    }
}

fn has_postconditions(f: &Function) -> bool {
    f.insts.values().any(|i| matches!(i.kind, lockstep_kir::InstKind::Annot { kind: lockstep_kir::AnnotKind::Ensures, .. }))
}

fn check_inner(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Outcome {
    if let Some(b) = b {
        if let Err(why) = compatible(a.func(), b.func()) {
            let mut o = Outcome::new(Verdict::Rejected);
            o.reason = Some((why, None));
            return o;
        }
    } else if !has_postconditions(a.func()) {
        let mut o = Outcome::new(Verdict::Rejected);
        o.reason = Some((
            format!("kernel `{}` has no `__ensures`: give a second kernel to compare with, or postconditions to check", a.func().name),
            None,
        ));
        return o;
    }

    // 1. Differential testing (fast, concrete differences) and, beside it
    // on a thread of its own, 2. the parameterized proof. Most of the
    // proof's time is spent waiting for solver processes, and testing is
    // the interpreter's work in this process, so an equivalent pair no
    // longer waits for both one after the other. Testing's findings come
    // first, as when it ran alone: when it finds a difference (or a race)
    // the proof stops at its next query and its answer is dropped.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let proof_config = EquivConfig { cancel: Some(cancel.clone()), ..config.clone() };
    let (tested, param) = std::thread::scope(|scope| {
        let proof = scope.spawn(|| {
            let started = std::time::Instant::now();
            let param = param::prove(a, b, &proof_config);
            trace(&format!("parameterized proof: {:?}", started.elapsed()));
            param
        });
        let started = std::time::Instant::now();
        let tested = testing::differential(a, b, config);
        trace(&format!("differential testing: {:?}", started.elapsed()));
        if tested.difference.is_some() || tested.post_failure.is_some() || tested.race.is_some() {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let param = proof.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (tested, param)
    });
    let mut outcome = Outcome::new(Verdict::Unknown);
    outcome.shapes = tested.shapes.clone();
    outcome.notes = tested.notes.clone();
    if let Some(d) = tested.difference {
        outcome.verdict = Verdict::Different;
        outcome.shape_summary = testing::shape_summary(&tested.shapes);
        outcome.difference = Some(d);
        return outcome;
    }
    if let Some(p) = tested.post_failure {
        outcome.verdict = Verdict::Different;
        outcome.post_failure = Some(p);
        return outcome;
    }
    if let Some(race) = tested.race {
        outcome.reason = Some((format!("{race}: the outputs depend on the schedule, so equivalence is not defined"), None));
        return outcome;
    }

    // 2. The parameterized proof: one symbolic thread per kernel, for any
    // block size the flags allow (its cost does not grow with the block);
    // postconditions too.
    let not_param: Option<(String, Option<(String, u32, u32)>)>;
    {
        match param {
            param::ParamOutcome::Proved { proved, assumptions } => {
                outcome.verdict = Verdict::Equivalent;
                outcome.proved = proved;
                outcome.assumptions = assumptions;
                return outcome;
            }
            param::ParamOutcome::Model(candidate, group_size) => match outcome.take_confirmation(testing::confirm(a, b, config, group_size, &candidate)) {
                Ok(()) => return outcome,
                Err(why) if candidate.opaque => {
                    // The bounded proof models these functions in the same
                    // way, so it could only find the same model again.
                    let hint = if config.floats == FloatModel::Uninterpreted {
                        "; --float=ieee interprets float arithmetic exactly"
                    } else {
                        ""
                    };
                    outcome.reason = Some((
                        format!("{}, but {why}: the values differ only through operations the proof leaves uninterpreted{hint}", candidate.what),
                        None,
                    ));
                    return outcome;
                }
                Err(why) => not_param = Some((format!("{}, but {why}", candidate.what), None)),
            },
            param::ParamOutcome::NotApplicable(why, loc) => not_param = Some((why, loc)),
        }
    }

    // 3. The bounded proof, for one arbitrary group of a concrete size, or
    // of each size in turn when the preconditions leave finitely many.
    if concrete(config.group_size).is_none() {
        match param::power_of_two_block_sizes(a, b, config) {
            Ok(sizes) => return prove_each_size(a, b, config, &sizes, outcome, not_param),
            Err(why) => trace(&format!("block sizes: {why}")),
        }
    }
    let Some(group_size) = concrete(config.group_size) else {
        outcome.reason = Some(match not_param {
            Some((why, loc)) => (
                format!(
                    "the proof for any block size does not apply ({why}); the bounded proof needs a concrete block size (--blockDim / --local_size), and differential testing found no difference"
                ),
                loc,
            ),
            None => (
                "the proof needs a concrete block size (--blockDim / --local_size); with `*` only differential testing ran, and it found no difference".into(),
                None,
            ),
        });
        return outcome;
    };
    if let Some((why, _)) = &not_param {
        outcome.notes.push(format!("the parameterized proof does not apply ({why}); the bounded proof for one group of this size ran instead"));
    }
    let proof = prove(a, b, group_size, config);
    match proof {
        Proof::Proved { proved, assumptions } => {
            outcome.verdict = Verdict::Equivalent;
            outcome.proved = proved;
            outcome.assumptions = assumptions;
        }
        Proof::Unknown(why, loc) => {
            outcome.reason = Some((why, loc));
        }
        Proof::Different(d) => {
            outcome.verdict = Verdict::Different;
            outcome.difference = Some(d);
        }
        Proof::Model(candidate) => {
            // The solver found a possible difference: confirm it concretely.
            if let Err(why) = outcome.take_confirmation(testing::confirm(a, b, config, group_size, &candidate)) {
                outcome.reason = Some((format!("{}, but {why}", candidate.what), None));
            }
        }
    }
    outcome
}

/// The bounded proof for each `blockDim.x` in `sizes` (every size the
/// preconditions allow, see [`param::power_of_two_block_sizes`]): the
/// kernels are equivalent for every allowed launch when each proof
/// succeeds; the first failure decides otherwise.
fn prove_each_size(
    a: KernelRef,
    b: Option<KernelRef>,
    config: &EquivConfig,
    sizes: &[u32],
    mut outcome: Outcome,
    not_param: Option<(String, Option<(String, u32, u32)>)>,
) -> Outcome {
    let list = sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
    let (y, z) = (config.group_size[1].unwrap_or(1), config.group_size[2].unwrap_or(1));
    let yz = if (y, z) == (1, 1) { String::new() } else { format!(", blockDim.y={y}, blockDim.z={z}") };
    if let Some((why, _)) = &not_param {
        outcome.notes.push(format!(
            "the parameterized proof does not apply ({why}); the preconditions restrict blockDim.x to {{{list}}}, and the bounded proof ran for each"
        ));
    }
    let mut proved: Vec<String> = Vec::new();
    let mut assumptions: Vec<String> = Vec::new();
    for &x in sizes {
        let mut c = config.clone();
        c.group_size[0] = Some(x as u64);
        let Some(group_size) = concrete(c.group_size) else { continue };
        let shape = LaunchShape { group_size, num_groups: [1; 3] }.to_string();
        let block = shape.split(' ').next().unwrap_or("").to_string();
        let started = std::time::Instant::now();
        let proof = prove(a, b, group_size, &c);
        trace(&format!("bounded proof for {block}: {:?}", started.elapsed()));
        match proof {
            Proof::Proved { proved: p, assumptions: s } => {
                for line in p {
                    if !proved.contains(&line) {
                        proved.push(line);
                    }
                }
                for line in s {
                    if !line.starts_with("the launch has ") && !assumptions.contains(&line) {
                        assumptions.push(line);
                    }
                }
            }
            Proof::Unknown(why, loc) => {
                outcome.reason = Some((format!("the preconditions restrict blockDim.x to {{{list}}}, but with {block}: {why}"), loc));
                return outcome;
            }
            Proof::Different(d) => {
                outcome.verdict = Verdict::Different;
                outcome.difference = Some(d);
                return outcome;
            }
            Proof::Model(candidate) => {
                if let Err(why) = outcome.take_confirmation(testing::confirm(a, b, &c, group_size, &candidate)) {
                    outcome.reason = Some((format!("with {block}: {}, but {why}", candidate.what), None));
                }
                return outcome;
            }
        }
    }
    let grid = match concrete(config.num_groups) {
        Some(g) => format!("gridDim={}", LaunchShape { group_size: [1; 3], num_groups: g }.to_string().split("gridDim=").nth(1).unwrap_or("")),
        None => "any number of groups".to_string(),
    };
    proved.push(format!("for every block size the preconditions allow: blockDim.x in {{{list}}}{yz}, each proved for one arbitrary group"));
    assumptions.insert(0, format!("the launch has blockDim.x a power of two up to {} (as the preconditions require){yz} and {grid}", sizes.last().copied().unwrap_or(1)));
    outcome.verdict = Verdict::Equivalent;
    outcome.proved = proved;
    outcome.assumptions = assumptions;
    outcome
}

fn concrete(dims: [Option<u64>; 3]) -> Option<[u32; 3]> {
    let mut out = [1u32; 3];
    for d in 0..3 {
        out[d] = u32::try_from(dims[d]?).ok()?;
    }
    Some(out)
}

/// Both kernels must take the same parameters: the same inputs are given
/// to both.
fn compatible(a: &Function, b: &Function) -> Result<(), String> {
    let kind = |t: Type| match t {
        Type::Ptr(_) => "pointer".to_string(),
        Type::Int(w) => format!("{w}-bit integer"),
        Type::Float(w) => format!("{w}-bit float"),
    };
    if a.params.len() != b.params.len() {
        return Err(format!(
            "`{}` takes {} parameters and `{}` takes {}: equivalent kernels take the same arguments",
            a.name,
            a.params.len(),
            b.name,
            b.params.len()
        ));
    }
    for (i, (p, q)) in a.params.iter().zip(&b.params).enumerate() {
        if kind(p.ty) != kind(q.ty) {
            return Err(format!(
                "parameter {} is a {} (`{}`) in `{}` but a {} (`{}`) in `{}`",
                i + 1,
                kind(p.ty),
                p.name,
                a.name,
                kind(q.ty),
                q.name,
                b.name
            ));
        }
    }
    Ok(())
}

/// A satisfying assignment of a difference or postcondition query.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// What the solver claims, e.g. "the solver found inputs on which `out` may differ".
    pub what: String,
    pub group_id: [u64; 3],
    pub num_groups: [u64; 3],
    pub scalars: Vec<Option<u128>>,
    /// Input buffer elements the model chose: (parameter, byte offset,
    /// value, bits); the other elements are the interpreter's choice.
    pub cells: Vec<(usize, u64, u128, u32)>,
    /// The claim rests on functions the encoding leaves uninterpreted
    /// (float operations under `--float=uf`, calls without a body): the
    /// model may interpret them as no real function does.
    pub opaque: bool,
}

enum Proof {
    Proved { proved: Vec<String>, assumptions: Vec<String> },
    /// A solver model confirmed by running both kernels.
    Different(Difference),
    Unknown(String, Option<(String, u32, u32)>),
    Model(Candidate),
}

/// Runs the symbolic group executor on both kernels and asks the solver
/// for a difference (or a failing postcondition).
fn prove(a: KernelRef, b: Option<KernelRef>, group_size: [u32; 3], config: &EquivConfig) -> Proof {
    let inline = |k: KernelRef| lockstep_analysis::inline_calls(k.module, k.kernel).map(|i| i.function);
    let fa = match inline(a) {
        Ok(f) => f,
        Err(e) => return Proof::Unknown(format!("cannot inline the calls of `{}`: {e}", a.func().name), None),
    };
    let fb = match b.map(inline).transpose() {
        Ok(f) => f,
        Err(e) => return Proof::Unknown(format!("cannot inline the calls of the second kernel: {e}"), None),
    };
    let params: Vec<Type> = fa.params.iter().map(|p| p.ty).collect();
    let mut inputs = sym::Inputs::new(group_size, config.num_groups, &params);
    inputs.fix_scalars(&config.scalar_args);
    inputs.floats = config.floats;
    // Fixed scalar arguments.
    let mut fixed = Vec::new();
    for (i, v) in config.scalar_args.iter().enumerate() {
        if let (Some(v), Some(Some(t))) = (v, inputs.scalars.get(i)) {
            let w = inputs.st.sort_of(*t).bv_width().unwrap_or(32);
            let c = inputs.st.bv_const(w, v & lockstep_replay::value::mask(w));
            let e = inputs.st.eq(*t, c);
            fixed.push(e);
        }
    }
    // Loop branches are pruned with the launch facts, the fixed arguments
    // and, so that an index below the input's length plus a stride of up
    // to twice the grid's size cannot wrap around, fewer than 2^30 threads
    // in each dimension (an assumption, reported when a path was dropped):
    // a grid-stride loop on a launch that covers its input runs once per
    // thread instead of forking at every iteration.
    let mut prune_facts = inputs.launch_constraints();
    prune_facts.extend(fixed.iter().copied());
    let mut below_2_30 = Vec::new();
    for d in 0..3 {
        let st = &mut inputs.st;
        let g64 = st.zero_extend(32, inputs.num_groups[d]);
        let b64 = st.bv_const(64, group_size[d] as u128);
        let total = st.bvmul(g64, b64);
        let lim = st.bv_const(64, 1u128 << 30);
        below_2_30.push(st.bvult(total, lim));
    }
    prune_facts.extend(below_2_30.iter().copied());
    let pruner = |f: &lockstep_kir::Function| {
        let quick = config.solver_config(config.query_timeout.min(Duration::from_secs(2)));
        sym::Pruner::new(f, quick, prune_facts.clone())
    };
    let started = std::time::Instant::now();
    let run_a = match sym::Executor::new(a.module, &fa, "a", &mut inputs).with_pruning(pruner(&fa)).run() {
        Ok(r) => r,
        Err(u) => return Proof::Unknown(format!("`{}` is outside the symbolic engine: {}", a.func().name, u.what), a.describe(u.loc)),
    };
    let run_b = match (b, &fb) {
        (Some(b), Some(fb)) => match sym::Executor::new(b.module, fb, "b", &mut inputs).with_pruning(pruner(fb)).run() {
            Ok(r) => Some(r),
            Err(u) => {
                return Proof::Unknown(format!("`{}` is outside the symbolic engine: {}", b.func().name, u.what), b.describe(u.loc))
            }
        },
        _ => None,
    };

    trace(&format!("bounded runs ({} threads): {:?}", group_size.iter().product::<u32>(), started.elapsed()));

    // A group that reads a buffer some group writes could see another
    // group's writes, which one group's execution does not model.
    let many_groups = config.num_groups.iter().any(|n| *n != Some(1));
    for (k, run) in std::iter::once((a, &run_a)).chain(b.iter().copied().zip(run_b.iter())) {
        if many_groups {
            if let Some(&p) = run.reads.iter().find(|p| run.finals.contains_key(p)) {
                return Proof::Unknown(
                    format!(
                        "`{}` reads the buffer `{}` it also writes, and other groups may write it: the one-group proof does not model that",
                        k.func().name,
                        k.func().params[p].name
                    ),
                    None,
                );
            }
        }
    }

    // The one-group proof assumes that no two groups write one element.
    // When the element addresses of a buffer do not mention the group id of
    // a dimension with several groups, groups that differ only there write
    // the same elements: refuse rather than rest on a false assumption.
    for (k, run) in std::iter::once((a, &run_a)).chain(b.iter().copied().zip(run_b.iter())) {
        for (&p, writes) in &run.writes {
            let Some(w) = writes else { continue };
            let offs: Vec<TermId> = w.elements.iter().map(|e| e.off).collect();
            let used = inputs.st.free_symbols(&offs).funs;
            for d in 0..3 {
                let g = inputs.group_id[d];
                if inputs.st.as_bv(g).is_some() {
                    continue;
                }
                let mentioned = used.iter().any(|&f| inputs.st.fun(f).name == format!("blockIdx.{}", ["x", "y", "z"][d]));
                if !mentioned && !offs.is_empty() {
                    return Proof::Unknown(
                        format!(
                            "the elements of `{}` that `{}` writes do not depend on blockIdx.{}, so groups that differ only there write the same elements (an inter-group race?); give the grid's shape, e.g. --gridDim=[*] for a one-dimensional grid",
                            k.func().params[p].name,
                            k.func().name,
                            ["x", "y", "z"][d]
                        ),
                        None,
                    );
                }
            }
        }
    }

    let mut solver = match Solver::spawn(config.solver_config(config.query_timeout)) {
        Ok(s) => s,
        Err(e) => return Proof::Unknown(format!("cannot start the solver: {e}"), None),
    };
    let mut base = inputs.launch_constraints();
    base.extend(fixed);
    base.extend(run_a.requires.iter().copied());
    // A pruned path kept its condition, which only these facts imply.
    let pruned = run_a.pruned > 0 || run_b.as_ref().is_some_and(|r| r.pruned > 0);
    if pruned {
        base.extend(below_2_30.iter().copied());
    }
    let mut defs: Vec<TermId> = run_a.defs.clone();
    if let Some(r) = &run_b {
        base.extend(r.requires.iter().copied());
        defs.extend(r.defs.iter().copied());
    }
    let mut session = Session::new(&mut solver, &mut inputs, base, &defs);
    let mut proved = Vec::new();

    // Misaligned accesses would break the element-wise memory model.
    let misaligned: Vec<TermId> =
        run_a.misaligned.iter().chain(run_b.iter().flat_map(|r| r.misaligned.iter())).copied().collect();
    if !misaligned.is_empty() {
        let any = session.inputs.st.or(&misaligned);
        match session.query(any) {
            Ok(None) => {}
            Ok(Some(_)) => return Proof::Unknown("an access may be misaligned (not a multiple of its size), which the element-wise memory model does not cover".into(), None),
            Err(e) => return Proof::Unknown(e, None),
        }
    }

    // Outputs: for each buffer either kernel writes, is there an offset
    // where the final contents differ?
    if let Some(run_b) = &run_b {
        let b = b.expect("run_b comes from b");
        let mut written: Vec<usize> = run_a.finals.keys().chain(run_b.finals.keys()).copied().collect();
        written.sort();
        written.dedup();
        if written.is_empty() {
            return Proof::Unknown("neither kernel writes a buffer argument: there is no output to compare".into(), None);
        }
        for p in written {
            let name = a.func().params[p].name.clone();
            let (fa_arr, fb_arr) = match (run_a.finals.get(&p), run_b.finals.get(&p)) {
                (Some(&x), Some(&y)) => (x, y),
                (x, y) => {
                    let init = match session.inputs.buffers.get(&p) {
                        Some(&(_, t)) => t,
                        None => return Proof::Unknown("internal: written buffer without contents".into(), None),
                    };
                    (x.copied().unwrap_or(init), y.copied().unwrap_or(init))
                }
            };
            if session.inputs.st.sort_of(fa_arr) != session.inputs.st.sort_of(fb_arr) {
                return Proof::Unknown(format!("the kernels write `{name}` with elements of different widths"), None);
            }
            // The per-element check first (cheap, no aliasing reasoning),
            // then the whole-array comparison.
            if let Some(sufficient) = element_check(&mut session.inputs.st, run_a.writes.get(&p), run_b.writes.get(&p)) {
                match session.query(sufficient) {
                    Ok(None) => {
                        proved.push(format!(
                            "`{name}` holds the same values after `{}` and `{}` (element by element)",
                            a.func().name,
                            b.func().name
                        ));
                        continue;
                    }
                    Ok(Some(mut c)) => {
                        // A refutation of the sufficient condition is often a
                        // real difference: try it before the harder query.
                        c.what = format!("the solver found inputs on which `{name}` may differ");
                        if let testing::Confirmed::Difference(d) = testing::confirm(a, Some(b), config, group_size, &c) {
                            return Proof::Different(d);
                        }
                    }
                    Err(_) => {}
                }
            }
            let idx = session.inputs.st.fresh_const("offset", lockstep_smt::Sort::bv(64));
            let (x, y) = (session.inputs.st.select(fa_arr, idx), session.inputs.st.select(fb_arr, idx));
            let eq = session.inputs.st.eq(x, y);
            let differs = session.inputs.st.not(eq);
            match session.query(differs) {
                Ok(None) => proved.push(format!("`{name}` holds the same values after `{}` and `{}`", a.func().name, b.func().name)),
                Ok(Some(mut c)) => {
                    c.what = format!("the solver found inputs on which `{name}` may differ");
                    return Proof::Model(c);
                }
                Err(e) => return Proof::Unknown(format!("checking `{name}`: {e}"), None),
            }
        }
    }

    // Postconditions of each kernel, for every thread of the group.
    for (k, run) in std::iter::once((a, &run_a)).chain(b.iter().copied().zip(run_b.iter())) {
        if run.obligations.is_empty() {
            continue;
        }
        let violated: Vec<TermId> = run.obligations.iter().map(|o| o.violated).collect();
        let any = session.inputs.st.or(&violated);
        match session.query(any) {
            Ok(None) => {
                let mut lines: Vec<u32> = run.obligations.iter().filter_map(|o| o.loc.map(|l| l.line)).collect();
                lines.sort();
                lines.dedup();
                let at = lines.iter().map(|l| format!("line {l}")).collect::<Vec<_>>().join(", ");
                proved.push(format!("the postconditions of `{}` ({at}) hold for every thread", k.func().name));
            }
            Ok(Some(mut c)) => {
                c.what = format!("the solver found inputs on which a postcondition of `{}` may fail", k.func().name);
                return Proof::Model(c);
            }
            Err(e) => return Proof::Unknown(format!("checking the postconditions of `{}`: {e}", k.func().name), None),
        }
    }

    let grid = match concrete(config.num_groups) {
        Some(g) => format!("gridDim={}", LaunchShape { group_size, num_groups: g }.to_string().split("gridDim=").nth(1).unwrap_or("")),
        None => "any number of groups".to_string(),
    };
    let shape = LaunchShape { group_size, num_groups: [1; 3] }.to_string();
    let block = shape.split(' ').next().unwrap_or("").to_string();
    let mut assumptions = vec![
        format!("the launch has {block} and {grid}"),
        "both kernels are free of data races (`lockstep check` proves this)".to_string(),
        "every access is within its buffer (no out-of-bounds access)".to_string(),
        "pointer arguments do not alias".to_string(),
        "integer division by zero does not happen".to_string(),
    ];
    if many_groups {
        assumptions.push("no two groups write the same element of an output (each group's writes are its own)".to_string());
    }
    if pruned {
        assumptions.push("the grid has fewer than 2^30 threads in each dimension (a loop's index stepping by up to twice the grid's size does not wrap around)".to_string());
    }
    assumptions.extend(session.inputs.float_assumptions());
    if b.is_none() && proved.is_empty() {
        return Proof::Unknown("nothing to prove".into(), None);
    }
    Proof::Proved { proved, assumptions }
}

/// The per-element sufficient condition for equal outputs, as a formula
/// whose satisfiability refutes it (`None` when it does not apply).
///
/// When both kernels write the buffer in one barrier interval and their
/// written address terms correspond one to one, the final buffers agree if,
/// for every address term, both kernels write it under the same condition
/// and then the same value: by race freedom the writer of an element is
/// unique, so an element either holds the same written value in both or
/// was written by neither. The formula is the negation of that, plus the
/// conditions under which one thread writes one element twice through
/// different address terms (the argument needs them impossible).
fn element_check(
    st: &mut lockstep_smt::TermStore,
    a: Option<&Option<sym::Writes>>,
    b: Option<&Option<sym::Writes>>,
) -> Option<TermId> {
    let (Some(Some(a)), Some(Some(b))) = (a, b) else { return None };
    if a.elements.len() != b.elements.len() {
        return None;
    }
    let mut bad = Vec::new();
    for ea in &a.elements {
        let eb = b.elements.iter().find(|e| e.off == ea.off)?;
        let same_guard = st.eq(ea.guard, eb.guard);
        bad.push(st.not(same_guard));
        let same_value = st.eq(ea.value, eb.value);
        let differs = st.not(same_value);
        bad.push(st.and(&[ea.guard, differs]));
    }
    bad.extend(a.self_overlap.iter().copied());
    bad.extend(b.self_overlap.iter().copied());
    Some(st.or(&bad))
}

struct Session<'s> {
    solver: &'s mut Solver,
    inputs: &'s mut sym::Inputs,
    /// Facts every query needs: the launch, fixed arguments, preconditions.
    base: Vec<TermId>,
    /// The definitions of the named arrays (`name = stores`), sent to the
    /// solver only when a query needs the name.
    defs: Vec<Def>,
}

/// A definition `name = term` of a fresh constant that no other
/// definition defines.
struct Def {
    name: lockstep_smt::FunId,
    fact: TermId,
    /// The symbols of `term`.
    uses: Vec<lockstep_smt::FunId>,
}

impl<'s> Session<'s> {
    fn new(solver: &'s mut Solver, inputs: &'s mut sym::Inputs, mut base: Vec<TermId>, defs: &[TermId]) -> Session<'s> {
        let st = &inputs.st;
        let mut seen = HashSet::new();
        base.retain(|&f| st.as_bool(f) != Some(true) && seen.insert(f));
        let mut named = Vec::new();
        for &fact in defs {
            match Self::definition(st, fact) {
                Some((name, term)) => named.push(Def { name, fact, uses: st.free_symbols(&[term]).funs }),
                None => base.push(fact),
            }
        }
        Session { solver, inputs, base, defs: named }
    }

    /// The defined constant and its term when `fact` is `c = term` (either
    /// way round) with `c` a constant that `term` does not mention.
    fn definition(st: &lockstep_smt::TermStore, fact: TermId) -> Option<(lockstep_smt::FunId, TermId)> {
        let lockstep_smt::TermKind::App(lockstep_smt::Op::Eq, args) = st.kind(fact) else { return None };
        let [x, y] = args[..] else { return None };
        for (c, term) in [(x, y), (y, x)] {
            if let lockstep_smt::TermKind::Const(f) = st.kind(c) {
                if !st.free_symbols(&[term]).funs.contains(f) {
                    return Some((*f, term));
                }
            }
        }
        None
    }

    /// The facts a query of `goal` needs: the base, and the definitions of
    /// the names they use, transitively. A definition of a fresh constant
    /// that nothing else mentions constrains nothing else (any model of the
    /// rest extends to it), so leaving it out keeps the answer; it spares
    /// the solver the final contents of `__shared__` arrays when only the
    /// outputs matter.
    fn relevant(&self, goal: TermId) -> Vec<TermId> {
        let st = &self.inputs.st;
        let roots: Vec<TermId> = self.base.iter().copied().chain([goal]).collect();
        let mut needed: HashSet<lockstep_smt::FunId> = st.free_symbols(&roots).funs.into_iter().collect();
        let mut taken = vec![false; self.defs.len()];
        loop {
            let mut grew = false;
            for (i, d) in self.defs.iter().enumerate() {
                if !taken[i] && needed.contains(&d.name) {
                    taken[i] = true;
                    grew = true;
                    needed.extend(d.uses.iter().copied());
                }
            }
            if !grew {
                break;
            }
        }
        let mut facts = self.base.clone();
        facts.extend(self.defs.iter().zip(&taken).filter(|(_, &t)| t).map(|(d, _)| d.fact));
        facts
    }

    /// Is `goal` satisfiable together with the base facts? `Ok(None)`: no.
    /// For a satisfiable goal, a candidate with small values when there is
    /// one (so that the interpreter can confirm it), else any.
    fn query(&mut self, goal: TermId) -> Result<Option<Candidate>, String> {
        let err = |e: lockstep_smt::Error| format!("solver error: {e}");
        let started = std::time::Instant::now();
        let facts = self.relevant(goal);
        if std::env::var_os("LOCKSTEP_EQUIV_TRACE").is_some() {
            let bytes: usize = facts.iter().chain([&goal]).map(|&f| lockstep_smt::print::term_to_string(&self.inputs.st, f).len()).sum();
            trace(&format!("bounded query: {} facts, {bytes} bytes", facts.len() + 1));
        }
        self.solver.push().map_err(err)?;
        for &f in &facts {
            self.solver.assert(&self.inputs.st, f).map_err(err)?;
        }
        self.solver.assert(&self.inputs.st, goal).map_err(err)?;
        let answer = self.solver.check_sat().map_err(err)?;
        let result = match answer {
            SatResult::Unsat => Ok(None),
            SatResult::Sat => {
                // Prefer a small witness.
                self.solver.push().map_err(err)?;
                let small = self.small_bounds();
                self.solver.assert(&self.inputs.st, small).map_err(err)?;
                let small_sat = self.solver.check_sat().map_err(err)?;
                let c = if small_sat == SatResult::Sat { self.candidate() } else { Ok(None) };
                self.solver.pop().map_err(err)?;
                match c? {
                    Some(c) => Ok(Some(c)),
                    None => {
                        self.solver.check_sat().map_err(err)?;
                        self.candidate()
                    }
                }
            }
            SatResult::Unknown(why) => Err(format!("the solver gave up ({why})")),
        };
        self.solver.pop().map_err(err)?;
        trace(&format!("bounded query: {:?} in {:?}", result.as_ref().map(|r| r.is_some()), started.elapsed()));
        result
    }

    fn small_bounds(&mut self) -> TermId {
        let st = &mut self.inputs.st;
        let mut c = Vec::new();
        for d in 0..3 {
            let n = self.inputs.num_groups[d];
            let max = st.bv_const(32, 16);
            c.push(st.bvule(n, max));
        }
        for s in self.inputs.scalars.iter().flatten() {
            if let Some(w) = st.sort_of(*s).bv_width() {
                if w >= 16 && w <= 64 {
                    let max = st.bv_const(w, 1024);
                    c.push(st.bvule(*s, max));
                }
            }
        }
        st.and(&c)
    }

    fn candidate(&mut self) -> Result<Option<Candidate>, String> {
        let err = |e: lockstep_smt::Error| format!("solver error: {e}");
        let mut terms: Vec<TermId> = Vec::new();
        terms.extend(self.inputs.group_id);
        terms.extend(self.inputs.num_groups);
        let scalar_terms: Vec<TermId> = self.inputs.scalars.iter().flatten().copied().collect();
        terms.extend(&scalar_terms);
        let values = self.solver.get_value(&self.inputs.st, &terms).map_err(err)?;
        let num = |i: usize| values.get(i).and_then(|v| v.as_u128()).unwrap_or(0) as u64;
        let mut scalars = Vec::new();
        let mut k = 6;
        for s in &self.inputs.scalars {
            scalars.push(s.map(|_| {
                let v = values.get(k).and_then(|v| v.as_u128()).unwrap_or(0);
                k += 1;
                v
            }));
        }
        Ok(Some(Candidate {
            opaque: false,
            cells: Vec::new(),
            what: String::new(),
            group_id: [num(0), num(1), num(2)],
            num_groups: [num(3), num(4), num(5)],
            scalars,
        }))
    }
}

#[cfg(test)]
mod memory_limit_tests {
    use super::*;

    /// Solvers get three quarters of the run's memory limit as their address
    /// space, as in a check.
    #[test]
    fn solvers_get_three_quarters_of_the_memory_limit() {
        let config = EquivConfig { memory_limit: 512 << 20, ..EquivConfig::default() };
        assert_eq!(config.solver_config(Duration::from_secs(1)).memory_limit, Some(384 << 20));
    }
}
