//! The predicated lockstep product of two threads, built directly as SMT
//! terms (GPUVerify's two-thread reduction, adapted to SSA KIR).
//!
//! Both threads traverse the CFG once, in reverse postorder: every block has
//! one predicate per thread (is this thread executing it), block parameters
//! are merged per thread over the incoming edges, and every effect (memory
//! access, barrier, annotation) is guarded by the predicate. Values are
//! computed unconditionally; SSA dominance makes the junk values of a thread
//! that did not execute a block irrelevant, because every use is guarded by a
//! predicate that implies the definition's.
//!
//! Loops are cut at their headers (see `encode_loop`): invariants are checked
//! on entry, the loop state (header parameters and predicates of both
//! threads, race logs) is havocked and the invariants assumed, one iteration
//! of the body is encoded, and the invariants are checked on the back-edge
//! state, where a thread that does not take a back edge keeps (freezes) its
//! values. After the loop, a fresh state satisfying the invariants with both
//! threads out of the loop continues.
//!
//! The result is a [`Problem`]: global definitions, a tree of assumptions
//! (each obligation is checked under the assumptions on its path only, never
//! under those made later or in another loop's body), proof obligations and
//! Houdini candidates.
//!
//! The encoder is one state (`Enc`) whose methods are grouped by job in the
//! submodules: `setup` (objects, threads, launch sizes), `flow` (blocks,
//! edges and loop cutting), `insts` (values and instructions), `loads`
//! (what loads return), `access` (race instrumentation, bounds, barriers),
//! `annot` (annotations), `no_wrap` (signed arithmetic that does not
//! overflow, and products of two symbolic values), `cells` (distinct
//! cells of a row-major array have distinct offsets) and `choices` (case
//! splits of back-edge obligations on thread 1's logging choices). The pre-analyses the encoding rests on are
//! side tables of `lockstep_analysis::{memory, relevance, pointers}`.

use std::collections::{HashMap, HashSet};

use lockstep_diag::ViolationKind;
use lockstep_kir::{
    AnnotFn, AnnotKind, BarrierScope, BinOp, BlockId, CastOp, FuncId, Function, InstId, InstKind, IntCC,
    MemSpace, Module, SrcLoc, Terminator, Type, ValueDef, ValueId,
};
use lockstep_smt::{FunId, Sort, TermId, TermKind, TermStore};

use lockstep_analysis::block_order::{BlockOrder, LoopNest};
use crate::inlined::Inlined;
use crate::race::{overlap, AccessKind, Log, LogState, Own};
use crate::ProveConfig;
use lockstep_analysis::memory as premem;
use lockstep_analysis::pointers::Root;

pub(crate) mod access;
mod annot;
mod cells;
mod choices;
mod collective;
mod flow;
mod insts;
mod loads;
mod no_wrap;
mod setup;
mod slots;
mod stride;
mod warp;

/// Why a kernel cannot be encoded (it becomes `Unknown`).
#[derive(Debug)]
pub struct EncodeError {
    pub reason: String,
    pub at: Option<SrcLoc>,
}

pub(crate) type Res<T> = Result<T, EncodeError>;

/// The symbolic value of a KIR value in one thread.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Sym {
    /// `Int(1)` values.
    Bool(TermId),
    /// Other integers and floats (floats as their bit patterns).
    Bv(TermId),
    /// A pointer: object id (bv16, 0 is null) and byte offset (bv64).
    Ptr { base: TermId, off: TermId },
}

/// Width of object ids.
pub const BASE_BITS: u32 = 16;

/// The width of a written value in the race logs: integers and floats are
/// zero-extended, pointers are their base above their offset.
pub const VAL_BITS: u32 = 64 + BASE_BITS;

/// A memory object pointers may point to.
#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub space: MemSpace,
    /// Index into the log state, for objects whose races are tracked.
    pub tracked: Option<usize>,
    /// Size in bytes, for arrays of a statically known size (module-level
    /// objects and the kernel's locals); `None` for memory behind pointer
    /// parameters and unsized arrays.
    pub size: Option<u64>,
    /// The size in bytes that every access to the object is checked
    /// against, when one is: a statically sized array's under
    /// `--check-array-bounds`, and the buffer behind a pointer parameter
    /// whose size the launch gives (`ProveConfig::param_sizes`).
    pub bounds: Option<u64>,
}

/// What a failed obligation means.
#[derive(Clone, Debug)]
pub enum ObKind {
    /// Thread 2's access of kind `k2` at the obligation's instruction races
    /// with thread 1's logged access of kind `k1` on object `obj` (index into
    /// `Problem::objects`).
    Race { obj: usize, k1: AccessKind, k2: AccessKind, off1: TermId, off2: TermId, site1: TermId },
    Divergence,
    Annotation(ViolationKind),
    /// A loop invariant's entry (`entry`) or preservation check.
    Invariant { entry: bool },
}

/// A property to prove: `cond` holds under the assumptions of `ctx`.
#[derive(Clone, Debug)]
pub struct Obligation {
    pub cond: TermId,
    pub ctx: Option<usize>,
    pub kind: ObKind,
    /// The instruction of the inlined kernel (for invariants: the
    /// annotation, if a user invariant).
    pub inst: Option<InstId>,
    pub message: String,
    /// The Houdini candidate this obligation belongs to.
    pub cand: Option<usize>,
}

/// A candidate invariant, assumed when its guard literal is.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub tag: String,
    pub text: String,
    pub guard: TermId,
    /// The assumption-tree nodes (indices into `Problem::nodes`) whose
    /// literals gate every assumption of the candidate: its guard occurs
    /// only in definitions of the form `gate => (... guard => ...)`. A query
    /// whose path passes through none of them is unaffected by the guard
    /// (Houdini's `dependents`). Empty means unknown: the candidate is then
    /// taken to affect every query.
    pub gates: Vec<usize>,
    /// The invariant, over its loop's havocked state (see `LoopState`),
    /// for the Daikon filter (`crate::daikon`).
    pub term: Option<TermId>,
}

/// Everything the solver stage needs.
pub struct Problem {
    pub st: TermStore,
    /// Definitions of fresh names: always asserted.
    pub defs: Vec<TermId>,
    /// Assumption tree nodes: (literal, assumption, parent). The solver
    /// asserts `literal => (assumption and parent literal)`.
    pub nodes: Vec<(TermId, TermId, Option<usize>)>,
    pub obligations: Vec<Obligation>,
    pub candidates: Vec<Candidate>,
    pub lid: [[TermId; 3]; 2],
    pub gid: [[TermId; 3]; 2],
    pub group_size: [TermId; 3],
    pub num_groups: [TermId; 3],
    pub objects: Vec<Object>,
    pub func: Function,
    pub kernel: FuncId,
    pub origin: HashMap<InstId, (FuncId, InstId)>,
    /// Assumptions the encoding made, for the report.
    pub assumptions: Vec<String>,
    /// Uninterpreted functions the solver stage replaces by constants and
    /// congruence lemmas (see `ackermann`).
    pub expand_funs: Vec<lockstep_smt::FunId>,
    /// Per encoded loop, what its candidates can be evaluated on in a
    /// concrete run (see `crate::daikon`).
    pub daikon: Vec<crate::daikon::DaikonLoop>,
    /// What a concrete run records of the race logs for the Daikon filter.
    pub daikon_logs: lockstep_analysis::observe::LogPlan,
    /// The term each name made by `Enc::name` stands for.
    pub named: HashMap<TermId, TermId>,
}

/// A recorded thread-1 access, for access-pattern candidates.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub inst: InstId,
    pub tracked: usize,
    pub kind: AccessKind,
    pub off1: TermId,
    pub width1: TermId,
    /// Thread 1's written value (bv64), for writes that may be benign.
    pub val1: Option<TermId>,
    /// The no-wrap promises (`nsw`/`nuw`, see `no_wrap`) of the arithmetic
    /// that computes the access's address, over thread 1's values: one
    /// term per flagged instruction. They hold whenever thread 1 executes
    /// the access, so they also hold of a logged access's ghost values
    /// (see the `access-offset` candidates).
    pub no_wrap1: Vec<TermId>,
    /// The conjuncts of thread 1's predicate at the access (its names
    /// expanded, see `Enc::path_conjuncts`): the conditions under which
    /// thread 1 executes it, such as a column guard `col < n` tested
    /// around the access. Like the no-wrap promises, they hold of a logged
    /// access's ghost values (the `access-offset` candidates).
    pub path1: Vec<TermId>,
    pub loops: Vec<usize>,
}

/// One state of a loop: header parameters and predicates of both threads,
/// and the race logs.
#[derive(Clone, Debug)]
pub(crate) struct LoopState {
    pub hp: [Vec<Sym>; 2],
    pub q: [TermId; 2],
    pub logs: LogState,
}

impl LoopState {
    pub fn terms(&self) -> Vec<TermId> {
        let mut out = Vec::new();
        for t in 0..2 {
            for s in &self.hp[t] {
                match *s {
                    Sym::Bool(x) | Sym::Bv(x) => out.push(x),
                    Sym::Ptr { base, off } => out.extend([base, off]),
                }
            }
            out.push(self.q[t]);
        }
        out.extend(self.logs.terms());
        out
    }
}

/// Facts about a loop gathered while encoding it.
#[derive(Clone, Debug, Default)]
pub(crate) struct LoopData {
    /// The havocked state of the body pass.
    pub state: Option<LoopState>,
    /// The entry state.
    pub entry: Option<LoopState>,
    /// Symbols numbered below this are constants for the loop body (they
    /// include the havocked state).
    pub mark: usize,
    /// Per-parameter candidates over thread 1 and thread 2 (for ghosting).
    pub param_cands: Vec<crate::candidates::ParamCand>,
    /// The header parameters (by index) with a congruence stride candidate
    /// (see `Enc::stride_congruence`).
    pub congruence_params: Vec<usize>,
    /// The header parameters (by index) doubled (`true`) or logically
    /// halved (`false`) on the loop's one back edge, for the
    /// `last-iteration` candidates.
    pub pow2_steps: Vec<(usize, bool)>,
    /// User invariants: (is candidate, text, term over the state, inst).
    pub user: Vec<(bool, String, TermId, InstId)>,
    /// Entry predicates of both threads.
    pub pe: Option<[TermId; 2]>,
}

#[derive(Clone, Debug)]
pub(crate) struct Edge {
    act: [TermId; 2],
    args: [Vec<Sym>; 2],
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Effects are encoded.
    Normal,
    /// Re-evaluation of a loop header after the loop: values only.
    Pure,
}

pub(crate) struct Enc<'a> {
    pub module: &'a Module,
    pub kernel: FuncId,
    pub func: &'a Function,
    pub origin: &'a HashMap<InstId, (FuncId, InstId)>,
    pub config: &'a ProveConfig,
    pub cfg: BlockOrder,
    pub loops: LoopNest,
    pub st: TermStore,
    pub defs: Vec<TermId>,
    pub nodes: Vec<(TermId, TermId, Option<usize>)>,
    pub cur: Option<usize>,
    pub obligations: Vec<Obligation>,
    pub candidates: Vec<Candidate>,
    pub seq: HashMap<FunId, usize>,
    pub seq_counter: usize,
    pub vals: [HashMap<ValueId, Sym>; 2],
    pub preds: HashMap<BlockId, [TermId; 2]>,
    incoming: HashMap<BlockId, Vec<Edge>>,
    back: HashMap<usize, Vec<Edge>>,
    region_stack: Vec<usize>,
    pub objects: Vec<Object>,
    pub param_obj: HashMap<u32, usize>,
    pub global_obj: HashMap<lockstep_kir::GlobalId, usize>,
    pub local_obj: HashMap<lockstep_kir::LocalId, usize>,
    pub logs: LogState,
    /// Per thread and tracked object, the thread's latest write since its
    /// last barrier (see `race::Own`), for benign write-read races.
    pub own: [Vec<Own>; 2],
    /// Per tracked object, the version of its contents for
    /// `--equality-abstraction` (see `equal_load`): a new symbol after
    /// every write of either thread to it, every barrier, and around loops
    /// that may write.
    pub(crate) mem_version: Vec<TermId>,
    /// Ghost slot of (loop, header parameter index).
    pub ghost_slot: HashMap<(usize, usize), usize>,
    pub sites: Vec<Site>,
    pub loop_data: Vec<LoopData>,
    pub lid: [[TermId; 3]; 2],
    pub gid: [[TermId; 3]; 2],
    pub gs: [TermId; 3],
    pub ng: [TermId; 3],
    pub same_group: TermId,
    pub(crate) inst_block: HashMap<InstId, BlockId>,
    /// Instructions whose value depends on the race logs (annotations that
    /// use them are instantiated for thread 1 only).
    log_dependent: HashSet<ValueId>,
    params_shared: HashMap<u32, Sym>,
    pub assumptions: Vec<String>,
    /// The objects standing for memory reached through loaded pointers.
    pub unknown_objs: std::ops::Range<usize>,
    /// By-value (private) kernel arguments the kernel never writes.
    pub readonly_args: Vec<u32>,
    /// Stores that may take part in a benign write-write race: two threads
    /// writing the same value to the same location do not race. Without
    /// `--equality-abstraction` only stores whose value depends on no memory
    /// read qualify (GPUVerify's rule; see `lockstep_analysis::ghost`).
    pub benign_sites: HashSet<InstId>,
    /// Loads that only feed annotations: not accesses of the program.
    spec_loads: HashSet<InstId>,
    /// Callees' `__ensures` moved to their return points by the inliner.
    postconditions: &'a HashSet<InstId>,
    /// See `Inlined::contract_of`.
    contract_of: Option<FuncId>,
    /// See `Inlined::function_wide_placed`.
    function_wide_placed: bool,
    /// The memory model of a kernel with barrier invariants.
    pub(crate) bi: Option<crate::barrier_inv::BiState>,
    /// Constant-initialised private arrays (see `find_const_locals`).
    const_locals: HashMap<lockstep_kir::LocalId, (lockstep_kir::GlobalId, InstId)>,
    /// For a load, the earlier loads of the same object whose value it
    /// reads when the addresses are equal (see `find_consistent_loads`).
    consistent_loads: HashMap<InstId, Vec<InstId>>,
    /// Values that may decide control flow, an address, or an annotation
    /// (see `find_control_relevant`); others only flow into memory.
    control_relevant: HashSet<ValueId>,
    /// The static uniformity analysis of `func`, computed when needed.
    pub uniformity: Option<lockstep_analysis::UniformityInfo>,
    /// Objects (pointer parameters and globals, not private) that no write
    /// of the kernel can reach: every thread reads the same contents from
    /// them at any time (for shared objects: every thread of a group).
    pub unwritten: Vec<usize>,
    /// OpenCL's async copies: which may be in flight at each barrier.
    async_copies: crate::async_copy::AsyncCopies,
    /// See `Problem::expand_funs`.
    pub expand_funs: Vec<lockstep_smt::FunId>,
    /// The term each name made by `name` stands for.
    pub named: HashMap<TermId, TermId>,
    /// Whether an annotation of the kernel uses `__enabled()`.
    pub uses_enabled: bool,
    /// Per instruction with a no-wrap promise that the encoding assumes,
    /// the promise over thread 1's operands (see `no_wrap::assume_no_wrap`),
    /// for the facts of logged addresses (`Site::no_wrap1`).
    pub(crate) no_wrap_t1: HashMap<InstId, TermId>,
    /// Products of two symbolic values with lemmas (see `no_wrap`).
    pub(crate) products: Vec<(TermId, TermId, TermId)>,
    /// The havocked loop counters that step by doubling or halving (the
    /// `pow2` rule's), whose products get the power-of-two factor lemmas
    /// (see `no_wrap::pow2_factor_lemmas`).
    pub(crate) pow2_counters: HashSet<TermId>,
    /// The objects whose every write is an atomic addition (the analysis
    /// crate's `atomics::add_only_counters`), for `slots::reservation_ranges`.
    pub(crate) add_only_counters: HashSet<usize>,
    /// Logged offsets with row-cell lemmas (see `cells`).
    pub(crate) cells: Vec<cells::Cell>,
    /// Thread 1's choices to log an access (see `choices`).
    pub(crate) log_choices: HashSet<TermId>,
    /// Per term, the logging choices it depends on through names (a memo
    /// of `choices::choices_reaching`).
    pub(crate) choice_reach: HashMap<TermId, Vec<TermId>>,
    /// See `Problem::daikon`.
    pub(crate) daikon: Vec<crate::daikon::DaikonLoop>,
    /// The loop-counter updates that step by the launch's sizes (the
    /// analysis crate's `launch_steps`); see `no_wrap::assume_no_wrap`.
    pub(crate) launch_steps: HashSet<InstId>,
    /// Those of `launch_steps` whose counter its loop tests as a signed
    /// integer (`LaunchSteps::signed_tested`).
    pub(crate) signed_launch_steps: HashSet<InstId>,
    /// The block-scoped atomics of the function (`AtomicScope::Block`),
    /// whose accesses race with other blocks' atomics (see
    /// `access::check_block_scoped_atomics`).
    pub(crate) block_scoped_atomics: Vec<InstId>,
    /// Whether the facts relating symbolic launch sizes to the global ids
    /// (`stride::launch_facts`) have been stated.
    pub(crate) launch_facts_done: bool,
    /// Whether the number of threads per dimension has been assumed below
    /// 2^31 (`stride::launch_facts` with `signed`).
    pub(crate) signed_ids_done: bool,
}

/// Builds the proof problem of a kernel.
pub fn encode(module: &Module, kernel: FuncId, inlined: &Inlined, config: &ProveConfig) -> Res<Problem> {
    let func = &inlined.func;
    let cfg = BlockOrder::compute(func);
    let loops = cfg.loops(func).map_err(|(from, _)| EncodeError {
        reason: "irreducible control flow".into(),
        at: *func.term_locs.get(from),
    })?;
    let mut enc = Enc::new(module, kernel, inlined, config, cfg, loops)?;
    enc.contract_of = inlined.contract_of;
    enc.encode_region(None)?;
    let daikon_logs = enc.daikon_log_plan();
    Ok(Problem {
        st: enc.st,
        defs: enc.defs,
        nodes: enc.nodes,
        obligations: enc.obligations,
        candidates: enc.candidates,
        lid: enc.lid,
        gid: enc.gid,
        group_size: enc.gs,
        num_groups: enc.ng,
        objects: enc.objects,
        func: func.clone(),
        kernel,
        origin: inlined.origin.clone(),
        assumptions: enc.assumptions,
        expand_funs: enc.expand_funs,
        daikon: enc.daikon,
        daikon_logs,
        named: enc.named,
    })
}

fn err<T>(reason: impl Into<String>, at: Option<SrcLoc>) -> Res<T> {
    Err(EncodeError { reason: reason.into(), at })
}

impl<'a> Enc<'a> {
    fn new(
        module: &'a Module,
        kernel: FuncId,
        inlined: &'a Inlined,
        config: &'a ProveConfig,
        cfg: BlockOrder,
        loops: LoopNest,
    ) -> Res<Enc<'a>> {
        let func = &inlined.func;
        let mut st = TermStore::new();
        let zero = st.bv_const(32, 0);
        let mut enc = Enc {
            module,
            kernel,
            func,
            origin: &inlined.origin,
            config,
            cfg,
            loop_data: vec![LoopData::default(); loops.loops.len()],
            loops,
            st,
            defs: Vec::new(),
            nodes: Vec::new(),
            cur: None,
            obligations: Vec::new(),
            candidates: Vec::new(),
            seq: HashMap::new(),
            seq_counter: 0,
            vals: [HashMap::new(), HashMap::new()],
            preds: HashMap::new(),
            incoming: HashMap::new(),
            back: HashMap::new(),
            region_stack: Vec::new(),
            objects: Vec::new(),
            param_obj: HashMap::new(),
            global_obj: HashMap::new(),
            local_obj: HashMap::new(),
            logs: LogState { objs: Vec::new(), warp: Vec::new() },
            own: [Vec::new(), Vec::new()],
            mem_version: Vec::new(),
            ghost_slot: HashMap::new(),
            sites: Vec::new(),
            lid: [[zero; 3]; 2],
            gid: [[zero; 3]; 2],
            gs: [zero; 3],
            ng: [zero; 3],
            same_group: zero,
            inst_block: HashMap::new(),
            log_dependent: HashSet::new(),
            params_shared: HashMap::new(),
            assumptions: Vec::new(),
            unknown_objs: 0..0,
            readonly_args: Vec::new(),
            benign_sites: HashSet::new(),
            spec_loads: lockstep_analysis::ghost::specification_loads(func),
            postconditions: &inlined.postconditions,
            contract_of: None,
            function_wide_placed: inlined.function_wide_placed,
            bi: None,
            const_locals: HashMap::new(),
            consistent_loads: HashMap::new(),
            control_relevant: HashSet::new(),
            unwritten: Vec::new(),
            uniformity: None,
            async_copies: Default::default(),
            expand_funs: Vec::new(),
            named: HashMap::new(),
            uses_enabled: func.insts.iter().any(|(_, inst)| matches!(inst.kind, InstKind::AnnotValue { func: lockstep_kir::AnnotFn::Enabled, .. })),
            no_wrap_t1: HashMap::new(),
            products: Vec::new(),
            pow2_counters: HashSet::new(),
            add_only_counters: HashSet::new(),
            cells: Vec::new(),
            log_choices: HashSet::new(),
            choice_reach: HashMap::new(),
            daikon: Vec::new(),
            launch_steps: HashSet::new(),
            signed_launch_steps: HashSet::new(),
            block_scoped_atomics: func
                .insts
                .iter()
                .filter(|(_, data)| {
                    matches!(
                        data.kind,
                        InstKind::Atomic { scope: lockstep_kir::AtomicScope::Block, .. } | InstKind::CmpXchg { scope: lockstep_kir::AtomicScope::Block, .. }
                    )
                })
                .map(|(id, _)| id)
                .collect(),
            launch_facts_done: false,
            signed_ids_done: false,
        };
        // Only stores of values `written_value` can compare qualify.
        let comparable = |i: InstId| match func.insts[i].kind {
            InstKind::Store { value, .. } => {
                matches!(func.value_type(value), Type::Int(w) | Type::Float(w) if w <= 64)
            }
            _ => false,
        };
        enc.benign_sites = if config.equality_abstraction {
            func.insts.keys().filter(|&i| comparable(i)).collect()
        } else {
            // The rule the interpreter applies to the module's kernel: the
            // extension to reads of unwritten objects holds only where the
            // kernel's own writes are all visible (it calls nothing), so
            // that both engines call the same stores value-tracked.
            let original = module.functions.get(kernel);
            let traceable = original.is_some_and(|f| {
                f.is_kernel && !f.insts.values().any(|d| matches!(d.kind, InstKind::Call { .. }))
            });
            let tracked = if traceable {
                lockstep_analysis::ghost::value_tracked_stores(module, func)
            } else {
                lockstep_analysis::ghost::input_independent_stores(func)
            };
            tracked.into_iter().filter(|&i| comparable(i)).collect()
        };
        let steps = lockstep_analysis::launch_steps::LaunchSteps::compute(func);
        enc.launch_steps = steps.updates;
        enc.signed_launch_steps = steps.signed_tested;
        for (b, block) in func.blocks.iter() {
            for &i in &block.insts {
                enc.inst_block.insert(i, b);
            }
        }
        enc.check_supported()?;
        enc.async_copies = crate::async_copy::analyse(func, &enc.cfg)
            .map_err(|e| EncodeError { reason: e.reason, at: e.at })?;
        // The pre-analyses (`lockstep_analysis::memory`), as side tables.
        let flow = lockstep_analysis::loops::analyze(func);
        enc.readonly_args = premem::readonly_private_params(func, &flow.0);
        enc.setup_objects();
        // An occurrence counter per `__syncwarp`, warp vote and shuffle inside a loop
        // (`LogState::warp`), zero at the start.
        for (b, block) in func.blocks.iter() {
            if enc.loops.innermost(b).is_none() {
                continue;
            }
            for &i in &block.insts {
                // Warp votes and shuffles in a loop get one too: two lanes
                // agree on their results only at the same occurrence
                // (`collective`).
                let counted = matches!(func.insts[i].kind, InstKind::Barrier { scope: BarrierScope::Warp, .. })
                    || matches!(
                        func.insts[i].kind,
                        InstKind::Warp {
                            op: lockstep_kir::WarpOp::Ballot
                                | lockstep_kir::WarpOp::Any
                                | lockstep_kir::WarpOp::All
                                | lockstep_kir::WarpOp::Shfl
                                | lockstep_kir::WarpOp::ShflUp
                                | lockstep_kir::WarpOp::ShflDown
                                | lockstep_kir::WarpOp::ShflXor,
                            ..
                        }
                    );
                if counted {
                    let zero = enc.st.bv_const(32, 0);
                    enc.logs.warp.push((i, [zero, zero]));
                }
            }
        }
        enc.add_pointer_benign_sites(config.equality_abstraction);
        enc.unwritten = enc.unwritten_objects(&premem::written_memory(func));
        enc.add_only_counters = lockstep_analysis::atomics::add_only_counters(module, func)
            .into_iter()
            .filter_map(|r| match r {
                lockstep_analysis::pointers::Root::Global(g) => enc.global_obj.get(&g).copied(),
                lockstep_analysis::pointers::Root::Param(k) => enc.param_obj.get(&k).copied(),
            })
            .collect();
        enc.const_locals = premem::constant_initialised_locals(module, func, &flow.0);
        enc.consistent_loads = premem::consistent_loads(module, func, (&flow.0, &flow.1, &flow.2), &enc.spec_loads, |r| {
            enc.every_race_checked_on(enc.root_object(r))
        });
        enc.control_relevant = lockstep_analysis::relevance::control_relevant(func);
        if !enc.consistent_loads.is_empty() {
            enc.assumptions.push("two reads by one thread of one location between barriers, with no write of its own to the object between them, return the same value (a write by another thread between them is a data race, which is checked)".into());
        }
        enc.setup_threads();
        if !enc.async_copies.memcopy_of.is_empty() {
            // The interpreter makes the same choice (see `lockstep_replay`'s
            // `async_copy`): a missed race at worst, never a false one.
            enc.assumptions.push(
                "an async copy's accesses are its group's first work-item's: they are not checked against that work-item's own accesses or the group's other copies"
                    .into(),
            );
        }
        enc.compute_log_dependent();
        enc.setup_barrier_invariants()?;
        Ok(enc)
    }

    // ----- small helpers ---------------------------------------------------

    /// A fresh constant, numbered so that loop candidates can tell body-local
    /// symbols from loop constants.
    pub fn fresh(&mut self, prefix: &str, sort: Sort) -> TermId {
        let t = self.st.fresh_const(prefix, sort);
        if let TermKind::Const(f) = self.st.kind(t) {
            self.seq.insert(*f, self.seq_counter);
        }
        self.seq_counter += 1;
        t
    }

    /// Names a term by a fresh constant (defined globally) so that printed
    /// queries stay small; leaves and literals are returned as they are.
    pub fn name(&mut self, t: TermId) -> TermId {
        match self.st.kind(t) {
            TermKind::Bool(_) | TermKind::BitVec(_) | TermKind::Const(_) => t,
            _ => {
                let sort = self.st.sort_of(t).clone();
                let x = self.fresh("n", sort);
                let d = self.st.eq(x, t);
                self.defs.push(d);
                self.named.insert(x, t);
                x
            }
        }
    }

    pub fn name_sym(&mut self, s: Sym) -> Sym {
        match s {
            Sym::Bool(t) => Sym::Bool(self.name(t)),
            Sym::Bv(t) => Sym::Bv(self.name(t)),
            Sym::Ptr { base, off } => Sym::Ptr { base: self.name(base), off: self.name(off) },
        }
    }

    /// Adds an assumption on the current path.
    pub fn assume(&mut self, t: TermId) {
        if self.st.as_bool(t) == Some(true) {
            return;
        }
        let lit = self.st.fresh_const("ctx", Sort::Bool);
        self.nodes.push((lit, t, self.cur));
        self.cur = Some(self.nodes.len() - 1);
    }

    pub fn oblige(&mut self, cond: TermId, kind: ObKind, inst: Option<InstId>, message: String, cand: Option<usize>) {
        self.obligations.push(Obligation { cond, ctx: self.cur, kind, inst, message, cand });
    }

    /// Whether `i` is a load that only feeds annotations.
    pub(crate) fn is_spec_load(&self, i: InstId) -> bool {
        self.spec_loads.contains(&i)
    }

    pub(crate) fn loc(&self, inst: InstId) -> Option<SrcLoc> {
        *self.func.inst_locs.get(inst)
    }

    pub fn loc_text(&self, loc: Option<SrcLoc>) -> String {
        match loc {
            Some(l) => {
                let file = self.module.files.get(l.file).map(|s| s.as_str()).unwrap_or("?");
                let file = file.rsplit('/').next().unwrap_or(file);
                if l.col > 0 {
                    format!("{file}:{}:{}", l.line, l.col)
                } else {
                    format!("{file}:{}", l.line)
                }
            }
            None => "unknown location".into(),
        }
    }

    pub fn sort_of_type(ty: Type) -> Sort {
        match ty {
            Type::Int(1) => Sort::Bool,
            Type::Int(w) | Type::Float(w) => Sort::bv(w as u32),
            Type::Ptr(_) => Sort::bv(64),
        }
    }

    pub fn as_bool(&mut self, s: Sym) -> TermId {
        match s {
            Sym::Bool(t) => t,
            Sym::Bv(t) => {
                let w = self.st.sort_of(t).bv_width().unwrap_or(1);
                let z = self.st.bv_const(w, 0);
                let e = self.st.eq(t, z);
                self.st.not(e)
            }
            Sym::Ptr { base, .. } => {
                let z = self.st.bv_const(BASE_BITS, 0);
                let e = self.st.eq(base, z);
                self.st.not(e)
            }
        }
    }

    pub fn as_bv(&mut self, s: Sym) -> TermId {
        match s {
            Sym::Bv(t) => t,
            Sym::Bool(b) => {
                let one = self.st.bv_const(1, 1);
                let zero = self.st.bv_const(1, 0);
                self.st.ite(b, one, zero)
            }
            Sym::Ptr { off, .. } => off,
        }
    }

    pub fn ite_sym(&mut self, c: TermId, a: Sym, b: Sym) -> Sym {
        match (a, b) {
            (Sym::Bool(x), Sym::Bool(y)) => Sym::Bool(self.st.ite(c, x, y)),
            (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) => {
                Sym::Ptr { base: self.st.ite(c, b1, b2), off: self.st.ite(c, o1, o2) }
            }
            (x, y) => {
                let x = self.as_bv(x);
                let y = self.as_bv(y);
                Sym::Bv(self.st.ite(c, x, y))
            }
        }
    }

    pub fn eq_sym(&mut self, a: Sym, b: Sym) -> TermId {
        match (a, b) {
            (Sym::Bool(x), Sym::Bool(y)) => self.st.eq(x, y),
            (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) => {
                let e1 = self.st.eq(b1, b2);
                let e2 = self.st.eq(o1, o2);
                self.st.and(&[e1, e2])
            }
            (x, y) => {
                let x = self.as_bv(x);
                let y = self.as_bv(y);
                self.st.eq(x, y)
            }
        }
    }

    /// A fresh value of type `ty` for one thread; pointers point to some
    /// object of a compatible space (or are null).
    fn fresh_sym(&mut self, ty: Type, prefix: &str) -> Sym {
        self.fresh_sym_null(ty, prefix, true)
    }

    /// A fresh value; pointers may be null only if `may_be_null`.
    fn fresh_sym_null(&mut self, ty: Type, prefix: &str, may_be_null: bool) -> Sym {
        match ty {
            Type::Int(1) => Sym::Bool(self.fresh(prefix, Sort::Bool)),
            Type::Int(w) | Type::Float(w) => Sym::Bv(self.fresh(prefix, Sort::bv(w as u32))),
            Type::Ptr(space) => {
                let base = self.fresh(prefix, Sort::bv(BASE_BITS));
                let off = self.fresh(prefix, Sort::bv(64));
                let mut options = vec![];
                if may_be_null {
                    let z = self.st.bv_const(BASE_BITS, 0);
                    options.push(self.st.eq(base, z));
                }
                for (i, o) in self.objects.clone().iter().enumerate() {
                    if space_compatible(space, o.space) {
                        let id = self.st.bv_const(BASE_BITS, i as u128 + 1);
                        options.push(self.st.eq(base, id));
                    }
                }
                let c = self.st.or(&options);
                self.assume(c);
                Sym::Ptr { base, off }
            }
        }
    }
}

/// `c`, the low `w` bits of a constant, as a signed number.
fn signed_const(c: u128, w: u32) -> i128 {
    if w >= 128 {
        return c as i128;
    }
    let c = c & ((1u128 << w) - 1);
    if w > 0 && c >> (w - 1) & 1 == 1 {
        c as i128 - (1i128 << w)
    } else {
        c as i128
    }
}

pub use lockstep_analysis::pointers::space_compatible;
pub(crate) use cells::CellRole;

/// The sort of a loaded scalar (`None` for a pointer, whose value is not
/// one term).
pub(crate) fn scalar_sort(ty: Type) -> Option<Sort> {
    match ty {
        Type::Ptr(_) => None,
        Type::Int(1) => Some(Sort::Bool),
        Type::Int(w) | Type::Float(w) => Some(Sort::bv(w as u32)),
    }
}
