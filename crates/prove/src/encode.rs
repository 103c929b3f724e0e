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

use std::collections::{HashMap, HashSet};

use lockstep_diag::ViolationKind;
use lockstep_kir::{
    AnnotFn, AnnotKind, BarrierScope, BinOp, BlockId, CastOp, FuncId, Function, InstId, InstKind, IntCC,
    MemSpace, Module, SrcLoc, Terminator, Type, ValueDef, ValueId,
};
use lockstep_smt::{FunId, Sort, TermId, TermKind, TermStore};

use crate::cfg::{Cfg, Loops};
use crate::inline::Inlined;
use crate::race::{overlap, AccessKind, Log, LogState, Own};
use crate::ProveConfig;

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
    /// User invariants: (is candidate, text, term over the state, inst).
    pub user: Vec<(bool, String, TermId, InstId)>,
    /// Entry predicates of both threads.
    pub pe: Option<[TermId; 2]>,
}

#[derive(Clone, Debug)]
struct Edge {
    act: [TermId; 2],
    args: [Vec<Sym>; 2],
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
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
    pub cfg: Cfg,
    pub loops: Loops,
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
    inst_block: HashMap<InstId, BlockId>,
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
}

/// Builds the proof problem of a kernel.
pub fn encode(module: &Module, kernel: FuncId, inlined: &Inlined, config: &ProveConfig) -> Res<Problem> {
    let func = &inlined.func;
    let cfg = Cfg::compute(func);
    let loops = cfg.loops(func).map_err(|(from, _)| EncodeError {
        reason: "irreducible control flow".into(),
        at: *func.term_locs.get(from),
    })?;
    let mut enc = Enc::new(module, kernel, inlined, config, cfg, loops)?;
    enc.contract_of = inlined.contract_of;
    enc.encode_region(None)?;
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
        cfg: Cfg,
        loops: Loops,
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
            logs: LogState { objs: Vec::new() },
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
            lockstep_analysis::ghost::input_independent_stores(func).into_iter().filter(|&i| comparable(i)).collect()
        };
        for (b, block) in func.blocks.iter() {
            for &i in &block.insts {
                enc.inst_block.insert(i, b);
            }
        }
        enc.check_supported()?;
        enc.async_copies = crate::async_copy::analyse(func, &enc.cfg)
            .map_err(|e| EncodeError { reason: e.reason, at: e.at })?;
        enc.readonly_args = enc.find_readonly_args();
        enc.setup_objects();
        enc.add_pointer_benign_sites(config.equality_abstraction);
        enc.unwritten = enc.find_unwritten_objects();
        enc.const_locals = enc.find_const_locals();
        enc.consistent_loads = enc.find_consistent_loads();
        enc.control_relevant = enc.find_control_relevant();
        if !enc.consistent_loads.is_empty() {
            enc.assumptions.push("two reads by one thread of one location between barriers, with no write of its own to the object between them, return the same value (a write by another thread between them is a data race, which is checked)".into());
        }
        enc.extend_benign_sites();
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

    // ----- set-up ------------------------------------------------------------

    /// Rejects (as `Unknown`) what the encoding does not model.
    fn check_supported(&self) -> Res<()> {
        for b in self.cfg.rpo.iter() {
            for &i in &self.func.blocks[*b].insts {
                let at = self.loc(i);
                match &self.func.insts[i].kind {
                    InstKind::Call { .. } => return err("call left after inlining", at),
                    InstKind::CallExternal { name, args } => {
                        // A call may take pointers to the calling thread's
                        // own private objects (a by-value struct argument is
                        // passed that way): whatever it does to them cannot
                        // race, and their contents are adversarial anyway.
                        // Any other pointer could let it access shared or
                        // global memory unseen by the race checks.
                        if args.iter().any(|&a| self.func.value_type(a).is_ptr() && !self.is_private_local(a))
                            || self.func.insts[i].result.is_some_and(|r| self.func.value_type(r).is_ptr())
                        {
                            return err(format!("call of `{name}` (without a body) with pointers"), at);
                        }
                    }
                    InstKind::Annot { .. } | InstKind::AnnotValue { .. } if self.config.no_annotations => {}
                    InstKind::Annot { kind, .. } => match kind {
                        AnnotKind::Assert
                        | AnnotKind::Assume
                        | AnnotKind::Requires
                        | AnnotKind::Invariant
                        | AnnotKind::CandidateInvariant
                        | AnnotKind::NoRead
                        | AnnotKind::NoWrite
                        | AnnotKind::GlobalRequires
                        | AnnotKind::GlobalInvariant
                        | AnnotKind::CandidateGlobalInvariant
                        | AnnotKind::GlobalAssert
                        | AnnotKind::Axiom
                        | AnnotKind::FreshArray => {}
                        AnnotKind::Ensures | AnnotKind::GlobalEnsures if self.postconditions.contains(&i) => {}
                        AnnotKind::FunctionWideInvariant | AnnotKind::FunctionWideCandidateInvariant
                            if self.function_wide_placed => {}
                        AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary => {}
                        other => return err(format!("annotation `{}` not supported yet", other.name()), at),
                    },
                    InstKind::AnnotValue { func, .. } => match func {
                        AnnotFn::ReturnVal | AnnotFn::Old => {
                            return err(format!("annotation `{}` not supported yet", func.name()), at)
                        }
                        _ => {}
                    },
                    InstKind::Builtin { dim, .. } if *dim > 2 => return err("builtin with dimension > 2", at),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Whether the atomic `i` (in block `b`) is a counting increment whose
    /// executions by two threads on one location return different values:
    /// an integer `atomic add` of a positive constant, outside loops (each
    /// thread executes it at most once), on an object statically known
    /// whose every atomic is such an increment, with a concrete launch small
    /// enough that all the increments together cannot wrap around. Within a
    /// barrier interval (threads of one group execute the instruction in the
    /// same interval; for other groups the whole run is one), a plain write
    /// to the location concurrent with the increments is a race, which is
    /// checked separately; so the location only grows between the two
    /// executions and the old values differ.
    fn distinct_increments(&self, i: InstId, b: BlockId) -> bool {
        let positive_add = |enc: &Self, k: &InstKind| -> Option<(ValueId, u128)> {
            let InstKind::Atomic { op: lockstep_kir::AtomicOp::Add, ptr, value } = k else { return None };
            let Type::Int(w) = enc.func.value_type(*value) else { return None };
            let ValueDef::Const(c) = enc.func.values[*value].def else { return None };
            let signed = signed_const(c, w as u32);
            (signed > 0).then_some((*ptr, c))
        };
        if self.loops.innermost(b).is_some() {
            return false;
        }
        let Some((ptr, _)) = positive_add(self, &self.func.insts[i].kind) else { return false };
        let Some(obj) = self.static_object(ptr) else { return false };
        let Type::Int(width) = self.func.value_type(self.func.insts[i].result.expect("atomic result")) else {
            return false;
        };
        // Every atomic that may reach the object is such an increment.
        let mut sites = 0u128;
        let mut max_c = 0u128;
        for block in self.func.blocks.values() {
            for &j in &block.insts {
                let k = &self.func.insts[j].kind;
                let p = match k {
                    InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => *ptr,
                    _ => continue,
                };
                let reaches = match self.static_object(p) {
                    Some(o) => o == obj,
                    None => {
                        let space = match self.func.value_type(p) {
                            Type::Ptr(s) => s,
                            _ => MemSpace::Generic,
                        };
                        space_compatible(space, self.objects[obj].space)
                    }
                };
                if !reaches {
                    continue;
                }
                match positive_add(self, k) {
                    Some((_, c)) => {
                        sites += 1;
                        max_c = max_c.max(c);
                    }
                    None => return false,
                }
            }
        }
        // The threads that may increment it: a group for shared objects,
        // the launch otherwise; each at most once per site.
        let dims = self.config.dims.clamp(1, 3) as usize;
        let mut threads: u128 = 1;
        for d in 0..dims {
            let Some(g) = self.config.group_size[d] else { return false };
            threads = threads.saturating_mul(g as u128);
            if self.objects[obj].space != MemSpace::Shared {
                let Some(n) = self.config.num_groups[d] else { return false };
                threads = threads.saturating_mul(n as u128);
            }
        }
        let total = threads.saturating_mul(sites).saturating_mul(max_c);
        width < 128 && total < (1u128 << width)
    }

    /// Whether `v` is (by pointer arithmetic and casts) the address of one of
    /// the kernel's private local objects.
    fn is_private_local(&self, v: ValueId) -> bool {
        match self.pointer_root(v) {
            Some(ValueDef::LocalAddr(l)) => self.func.locals[*l].space == MemSpace::Private,
            _ => false,
        }
    }

    /// The definition a pointer is derived from by pointer arithmetic and
    /// casts (a parameter, a global's or a local's address), when the
    /// chain is short and ends in one.
    fn pointer_root(&self, mut v: ValueId) -> Option<&ValueDef> {
        for _ in 0..64 {
            match &self.func.values[v].def {
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::PtrAdd { base, .. } => v = *base,
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                    _ => return None,
                },
                def => return Some(def),
            }
        }
        None
    }

    /// The private pointer parameters (by-value structs) that no write of
    /// the kernel may reach. A write may reach one unless its pointer is
    /// built (by pointer arithmetic and casts) from a private local's
    /// address or from a non-private pointer.
    fn find_readonly_args(&self) -> Vec<u32> {
        let private_params: Vec<u32> = self
            .func
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.ty == Type::Ptr(MemSpace::Private))
            .map(|(k, _)| k as u32)
            .collect();
        if private_params.is_empty() {
            return private_params;
        }
        // Where a pointer comes from, following pointer arithmetic and casts.
        #[derive(PartialEq)]
        enum Root {
            Addr,
            Param(u32),
            Loaded,
            Unknown,
        }
        let root = |mut v: ValueId| -> Root {
            for _ in 0..64 {
                match &self.func.values[v].def {
                    ValueDef::LocalAddr(_) | ValueDef::GlobalAddr(_) => return Root::Addr,
                    ValueDef::Param(k) => return Root::Param(*k),
                    ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                        InstKind::PtrAdd { base, .. } => v = *base,
                        InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                        InstKind::Load { .. } => return Root::Loaded,
                        _ => return Root::Unknown,
                    },
                    _ => return Root::Unknown,
                }
            }
            Root::Unknown
        };
        let mut keep: Vec<u32> = private_params;
        // A parameter whose address escapes (is stored, or goes somewhere
        // this check does not follow) may be written through any pointer.
        for b in &self.cfg.rpo {
            for &i in &self.func.blocks[*b].insts {
                for v in self.func.insts[i].kind.operands() {
                    if !self.func.value_type(v).is_ptr() {
                        continue;
                    }
                    let escapes = match &self.func.insts[i].kind {
                        InstKind::Store { value, .. } => *value == v,
                        InstKind::PtrAdd { .. } | InstKind::Load { .. } => false,
                        InstKind::Atomic { value, .. } => *value == v,
                        InstKind::CmpXchg { expected, new, .. } => *expected == v || *new == v,
                        InstKind::MemCopy { .. } | InstKind::MemSet { .. } | InstKind::Icmp { .. } => false,
                        InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, .. } => false,
                        InstKind::Annot { .. } | InstKind::AnnotValue { .. } => false,
                        _ => true,
                    };
                    if escapes {
                        match root(v) {
                            Root::Param(k) => keep.retain(|&x| x != k),
                            Root::Addr | Root::Loaded => {}
                            Root::Unknown => return Vec::new(),
                        }
                    }
                }
            }
            let term_ops = self.func.blocks[*b].term.operands();
            if term_ops.iter().any(|&v| self.func.value_type(v).is_ptr()) {
                // Pointers passed between blocks are not followed.
                for &v in &term_ops {
                    if self.func.value_type(v).is_ptr() {
                        match root(v) {
                            Root::Param(k) => keep.retain(|&x| x != k),
                            Root::Addr | Root::Loaded => {}
                            Root::Unknown => return Vec::new(),
                        }
                    }
                }
            }
        }
        for b in &self.cfg.rpo {
            for &i in &self.func.blocks[*b].insts {
                let Some(ptr) = self.func.insts[i].kind.written_pointer() else { continue };
                match root(ptr) {
                    Root::Param(k) => keep.retain(|&x| x != k),
                    // Loaded pointers cannot point to a parameter whose
                    // address never escapes.
                    Root::Addr | Root::Loaded => {}
                    Root::Unknown => return Vec::new(),
                }
            }
        }
        keep
    }

    /// The parameter or global a pointer is derived from (by pointer
    /// arithmetic and casts), as an object index.
    pub(crate) fn static_object(&self, v: ValueId) -> Option<usize> {
        match self.pointer_root(v)? {
            ValueDef::GlobalAddr(g) => self.global_obj.get(g).copied(),
            ValueDef::Param(k) => self.param_obj.get(k).copied(),
            _ => None,
        }
    }

    /// The objects no write can reach (see `unwritten`). A
    /// write through a pointer of unknown origin may reach every object of
    /// its space.
    fn find_unwritten_objects(&self) -> Vec<usize> {
        let mut written = vec![false; self.objects.len()];
        for block in self.func.blocks.values() {
            for &i in &block.insts {
                let kind = &self.func.insts[i].kind;
                let ptr = match kind {
                    // (External calls with pointers make the kernel
                    // `Unknown` anyway.)
                    InstKind::Call { .. } => return Vec::new(),
                    InstKind::CallExternal { args, .. } if args.iter().any(|&a| self.func.value_type(a).is_ptr()) => {
                        return Vec::new()
                    }
                    _ => match kind.written_pointer() {
                        Some(ptr) => ptr,
                        None => continue,
                    },
                };
                match self.static_object(ptr) {
                    Some(o) => written[o] = true,
                    None => {
                        let space = match self.func.value_type(ptr) {
                            Type::Ptr(s) => s,
                            _ => MemSpace::Generic,
                        };
                        for (o, obj) in self.objects.iter().enumerate() {
                            if space_compatible(space, obj.space) {
                                written[o] = true;
                            }
                        }
                    }
                }
            }
        }
        (0..self.objects.len())
            .filter(|&o| !written[o])
            .filter(|&o| matches!(self.objects[o].space, MemSpace::Global | MemSpace::Constant | MemSpace::Shared))
            .filter(|&o| !self.unknown_objs.contains(&o))
            .collect()
    }

    /// A slot that says a thread wrote nothing (see `race::Own`).
    fn no_own(&mut self) -> Own {
        Own {
            has: self.st.false_(),
            off: self.st.bv_const(64, 0),
            width: self.st.bv_const(64, 0),
            val: self.st.bv_const(VAL_BITS, 0),
        }
    }

    /// Forgets both threads' own writes (a barrier, or a loop whose body
    /// may write), and starts new versions of every object's contents.
    fn clear_own(&mut self) {
        for t in 0..2 {
            for o in self.own[t].iter_mut() {
                o.has = self.st.false_();
            }
        }
        for m in 0..self.mem_version.len() {
            self.new_version(m);
        }
    }

    fn new_version(&mut self, m: usize) {
        if self.config.equality_abstraction {
            self.mem_version[m] = self.fresh(&format!("version{m}"), Sort::bv(32));
        }
    }

    /// Whether every race on object `o` is checked, for every pair of
    /// threads that could race on it: what read consistency, within one
    /// thread (`find_consistent_loads`) and between two (`same_read`),
    /// rests on. Not under `--only-divergence` or `--warp-sync` (threads
    /// of one warp do not race), not for global memory under
    /// `--only-intra-group` (another group's writes are not checked), not
    /// for objects `/checkArrays` leaves out, and only for shared and
    /// global memory.
    fn every_race_checked_on(&self, o: usize) -> bool {
        let c = self.config;
        let obj = &self.objects[o];
        let space_checked = match obj.space {
            MemSpace::Shared => true,
            MemSpace::Global => !c.only_intra_group,
            _ => false,
        };
        !c.only_divergence && c.warp_size.is_none() && space_checked && c.races_checked_on(&obj.name)
    }

    /// The values that may decide a branch, an address, a barrier, a call or
    /// an annotation, directly or through the instructions and block
    /// parameters computing them. A value outside the set only ever flows
    /// into stored data (or nowhere).
    fn find_control_relevant(&self) -> HashSet<ValueId> {
        let mut relevant: HashSet<ValueId> = HashSet::new();
        let mut work: Vec<ValueId> = Vec::new();
        // The incoming arguments of each block parameter.
        let mut incoming: HashMap<ValueId, Vec<ValueId>> = HashMap::new();
        for (_, block) in self.func.blocks.iter() {
            if let Terminator::Branch { cond, .. } = &block.term {
                work.push(*cond);
            }
            if let Terminator::Return(Some(v)) = &block.term {
                work.push(*v);
            }
            for call in block.term.block_calls() {
                let params = &self.func.blocks[call.block].params;
                for (&p, &a) in params.iter().zip(&call.args) {
                    incoming.entry(p).or_default().push(a);
                }
            }
        }
        for (_, inst) in self.func.insts.iter() {
            // Addresses count, stored values do not; computations count
            // only when their results do.
            match &inst.kind {
                InstKind::Load { ptr, .. }
                | InstKind::Store { ptr, .. }
                | InstKind::Atomic { ptr, .. }
                | InstKind::CmpXchg { ptr, .. } => work.push(*ptr),
                k if k.is_pure_computation() || matches!(k, InstKind::Warp { .. } | InstKind::AnnotValue { .. }) => {}
                other => work.extend(other.operands()),
            }
        }
        // A relevant value makes what computes it relevant: the operands of
        // its instruction, or the incoming arguments of a block parameter.
        while let Some(v) = work.pop() {
            if !relevant.insert(v) {
                continue;
            }
            match &self.func.values[v].def {
                ValueDef::Inst(i) => work.extend(self.func.insts[*i].kind.operands()),
                _ => work.extend(incoming.get(&v).into_iter().flatten().copied()),
            }
        }
        relevant
    }

    /// Cross-thread read consistency: when both threads of one group
    /// execute a load of a shared or global object at the same address,
    /// they read the same value (assumed on the path). Both reads lie in one barrier interval (threads of a
    /// group pass barriers together, and barrier divergence is checked),
    /// so they can only differ if some thread wrote the bytes in that
    /// interval between them; such a write races with one of the two reads
    /// (with thread 1's if another thread wrote, with thread 2's if thread
    /// 1 did), and the race checks report it, unless it wrote the value the
    /// reader's own latest write left there (a benign race), which changes
    /// nothing. So, like `find_consistent_loads` and the equality
    /// abstraction, this hides no first race, and it rests on the same
    /// condition: `every_race_checked_on` the object. It makes
    /// a branch on a shared value all threads read after a barrier
    /// (`if (p[0] == 22) barrier()`) uniform. Loads of pointers stay
    /// adversarial, and so do loads whose values only flow back into memory
    /// (`control_relevant`): there the fact could change no verdict and
    /// only costs the solver time.
    fn same_read(&mut self, b: BlockId, ptr: ValueId, v1: Sym, v2: Sym) -> Res<()> {
        if matches!(v1, Sym::Ptr { .. }) {
            return Ok(());
        }
        let Some(o) = self.static_object(ptr) else { return Ok(()) };
        if self.objects[o].tracked.is_none() || !self.every_race_checked_on(o) {
            return Ok(());
        }
        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (self.val(0, ptr)?, self.val(1, ptr)?) else {
            return Ok(());
        };
        const SAME_READ: &str = "two threads of one group that read one location at the same instruction read the same value (a write between the reads races with one of them, which is checked)";
        if !self.assumptions.iter().any(|a| a == SAME_READ) {
            self.assumptions.push(SAME_READ.into());
        }
        let p = self.preds[&b];
        let same_base = self.st.eq(b1, b2);
        let same_off = self.st.eq(o1, o2);
        let same = self.st.and(&[p[0], p[1], self.same_group, same_base, same_off]);
        // Assumed rather than substituted: thread 2's value may already be
        // tied to its own earlier read (`consistent_load`), and both hold.
        let equal = self.eq_sym(v1, v2);
        let fact = self.st.implies(same, equal);
        self.assume(fact);
        Ok(())
    }

    /// GPUVerify's equality abstraction (`--equality-abstraction`): two
    /// loads of the same bytes by the two threads of one group, with no
    /// write of either thread to the object (nor a barrier) between them,
    /// return the same value, a function of the object's version and the
    /// offset. That holds in every execution in which no race is reported
    /// before the loads: a write of another thread to those bytes in the
    /// interval races with a load (unless the loading thread wrote the
    /// bytes itself, and then all such writes wrote its value), and the
    /// two threads' own writes of them race unless they are equal. So the
    /// abstraction can hide no first race. It relies on every race being
    /// checked: not with `--only-intra-group` for global memory (another
    /// group's writes are not checked), nor with `--warp-sync` (threads of
    /// one warp do not race), `--only-divergence` or for objects
    /// `/checkArrays` leaves out. Loads of pointers stay adversarial.
    fn equal_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        if !self.config.equality_abstraction || self.config.warp_size.is_some() || self.config.only_divergence {
            return Ok(otherwise);
        }
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        let Some(sort) = scalar_sort(ty) else { return Ok(otherwise) };
        let mut acc = otherwise;
        for (o, obj) in self.objects.clone().iter().enumerate() {
            let Some(m) = obj.tracked else { continue };
            if obj.space != MemSpace::Shared && self.config.only_intra_group {
                continue;
            }
            // Races on objects `/checkArrays` leaves out are not checked.
            if !self.config.races_checked_on(&obj.name) {
                continue;
            }
            let id = self.st.bv_const(BASE_BITS, o as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            let args = [self.mem_version[m], off];
            let v = self.uf(&format!("contents{m}"), &args, sort.clone());
            let v = if sort == Sort::Bool { Sym::Bool(v) } else { Sym::Bv(v) };
            // Threads of different groups share no interval.
            let v = self.ite_sym(self.same_group, v, otherwise);
            acc = self.ite_sym(is, v, acc);
        }
        Ok(acc)
    }

    /// Adds to `benign_sites` the stores of pointers computed without
    /// reading memory (with `--equality-abstraction`, every store of a
    /// pointer), when equal pointer values are equal addresses for the two
    /// threads: the store writes a `__shared__` object (so two threads that
    /// race on it are in one group), or the stored pointer points into a
    /// module or parameter object that is not `__shared__` (one instance
    /// for every group). A pointer to a `__shared__` array stored to
    /// global memory by two groups names two different instances.
    fn add_pointer_benign_sites(&mut self, equality_abstraction: bool) {
        let independent = lockstep_analysis::ghost::input_independent_stores(self.func);
        let mut add = Vec::new();
        for (i, data) in self.func.insts.iter() {
            let InstKind::Store { ptr, value, .. } = data.kind else { continue };
            if !self.func.value_type(value).is_ptr() || !(equality_abstraction || independent.contains(&i)) {
                continue;
            }
            let target_shared = self.static_object(ptr).is_some_and(|o| self.objects[o].space == MemSpace::Shared);
            let value_unique = self.static_object(value).is_some_and(|o| self.objects[o].space != MemSpace::Shared);
            if target_shared || value_unique {
                add.push(i);
            }
        }
        self.benign_sites.extend(add);
    }

    /// Adds to `benign_sites` the stores whose value is computed from
    /// constants, parameters, thread geometry and reads of unwritten global
    /// objects only: every thread reads the same contents there, so equal values
    /// are equal by construction (GPUVerify does not abstract arrays the
    /// kernel never writes).
    fn extend_benign_sites(&mut self) {
        if self.unwritten.is_empty() {
            return;
        }
        fn independent(enc: &Enc, v: ValueId, memo: &mut HashMap<ValueId, bool>, depth: u32) -> bool {
            if let Some(&known) = memo.get(&v) {
                return known;
            }
            if depth > 64 {
                return false;
            }
            let r = match &enc.func.values[v].def {
                ValueDef::Param(_) | ValueDef::Const(_) | ValueDef::Null | ValueDef::GlobalAddr(_) | ValueDef::LocalAddr(_) => {
                    true
                }
                ValueDef::Inst(i) => match &enc.func.insts[*i].kind {
                    InstKind::Load { ptr, .. } => {
                        enc.static_object(*ptr).is_some_and(|o| {
                            enc.unwritten.contains(&o)
                                && matches!(enc.objects[o].space, MemSpace::Global | MemSpace::Constant)
                        })
                            && independent(enc, *ptr, memo, depth + 1)
                    }
                    k @ (InstKind::Binary { .. }
                    | InstKind::Icmp { .. }
                    | InstKind::Select { .. }
                    | InstKind::Cast { .. }
                    | InstKind::Float { .. }
                    | InstKind::Fcmp { .. }
                    | InstKind::PtrAdd { .. }
                    | InstKind::Builtin { .. }) => {
                        let mut ok = true;
                        for o in k.operands() {
                            ok &= independent(enc, o, memo, depth + 1);
                        }
                        ok
                    }
                    _ => false,
                },
                _ => false,
            };
            memo.insert(v, r);
            r
        }
        let mut memo = HashMap::new();
        let mut add = Vec::new();
        for block in self.func.blocks.values() {
            for &i in &block.insts {
                if let InstKind::Store { value, .. } = self.func.insts[i].kind {
                    let comparable = matches!(self.func.value_type(value), Type::Int(w) | Type::Float(w) if w <= 64);
                    if comparable && independent(self, value, &mut memo, 0) {
                        add.push(i);
                    }
                }
            }
        }
        self.benign_sites.extend(add);
    }

    /// The value of a load that may read an unwritten object: the same for
    /// both threads and at all times (a function of the offset), `otherwise`
    /// elsewhere.
    fn unwritten_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        let Some(sort) = scalar_sort(ty) else { return Ok(otherwise) };
        let mut acc = otherwise;
        for o in self.unwritten.clone() {
            let id = self.st.bv_const(BASE_BITS, o as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            // Each group has its own instance of a shared object.
            let mut args = vec![off];
            if self.objects[o].space == MemSpace::Shared {
                args.extend(self.gid[t]);
            }
            let v = self.uf(&format!("unwritten{o}"), &args, sort.clone());
            let v = if sort == Sort::Bool { Sym::Bool(v) } else { Sym::Bv(v) };
            acc = self.ite_sym(is, v, acc);
        }
        Ok(acc)
    }

    fn setup_objects(&mut self) {
        let add = |enc: &mut Enc, name: String, space: MemSpace, size: Option<u64>| -> usize {
            let tracked = if matches!(space, MemSpace::Private) {
                None
            } else {
                Some(enc.logs.objs.len())
            };
            if tracked.is_some() {
                enc.logs.objs.push(std::array::from_fn(|_| Log {
                    has: enc.st.false_(),
                    off: enc.st.bv_const(64, 0),
                    width: enc.st.bv_const(64, 0),
                    site: enc.st.bv_const(32, 0),
                    val: enc.st.bv_const(VAL_BITS, 0),
                    own: enc.st.false_(),
                    silent: enc.st.false_(),
                    ghosts: Vec::new(),
                }));
                for t in 0..2 {
                    let own = enc.no_own();
                    enc.own[t].push(own);
                }
                let v = enc.st.bv_const(32, 0);
                enc.mem_version.push(v);
            }
            enc.objects.push(Object { name, space, tracked, size });
            enc.objects.len() - 1
        };
        for (g, obj) in self.module.globals.iter() {
            let i = add(self, obj.name.clone(), obj.space, obj.size);
            self.global_obj.insert(g, i);
        }
        for (k, p) in self.func.params.iter().enumerate() {
            if let Type::Ptr(space) = p.ty {
                let space = if space == MemSpace::Generic { MemSpace::Global } else { space };
                let i = add(self, p.name.clone(), space, None);
                self.param_obj.insert(k as u32, i);
            }
        }
        // Memory the kernel reaches only through pointers it loads from
        // memory or makes from integers (say, buffers whose addresses are
        // stored in a struct parameter): one object per space, so that
        // accesses through such pointers are still checked for races.
        add(self, "memory reached through a loaded pointer".into(), MemSpace::Global, None);
        add(self, "shared memory reached through a loaded pointer".into(), MemSpace::Shared, None);
        self.unknown_objs = self.objects.len() - 2..self.objects.len();
        for (l, obj) in self.func.locals.iter() {
            let i = add(self, obj.name.clone(), MemSpace::Private, obj.size);
            self.local_obj.insert(l, i);
        }
        // Ghost slots: one per non-pointer header parameter of every loop.
        let mut slots = Vec::new();
        for (li, l) in self.loops.loops.iter().enumerate() {
            for (j, &p) in self.func.blocks[l.header].params.iter().enumerate() {
                let ty = self.func.value_type(p);
                if !ty.is_ptr() {
                    self.ghost_slot.insert((li, j), slots.len());
                    slots.push(Self::sort_of_type(ty));
                }
            }
        }
        for logs in self.logs.objs.iter_mut() {
            for log in logs.iter_mut() {
                log.ghosts = slots
                    .iter()
                    .map(|s| match s {
                        Sort::Bool => self.st.false_(),
                        s => self.st.bv_const(s.bv_width().unwrap_or(1), 0),
                    })
                    .collect();
            }
        }
        self.assumptions.push("pointer parameters do not alias each other or any global".into());
        self.assumptions.push("pointers loaded from memory are not null".into());
        self.assumptions.push("pointers stored in by-value kernel arguments point to some object of their memory space".into());
    }

    fn setup_threads(&mut self) {
        /// The most threads per block in each dimension a CUDA launch may
        /// have, and the most blocks.
        const CUDA_MAX_BLOCK: [u64; 3] = [1024, 1024, 64];
        const CUDA_MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];
        let c = self.config;
        let dims = c.dims.clamp(1, 3) as usize;
        let mut symbolic = false;
        for d in 0..3 {
            for (sizes, out, name) in [(&c.group_size, 0, "group_size"), (&c.num_groups, 1, "num_groups")] {
                let t = if d >= dims {
                    self.st.bv_const(32, 1)
                } else {
                    match sizes[d] {
                        Some(n) => self.st.bv_const(32, n as u128),
                        None => {
                            symbolic = true;
                            let t = self.fresh(&format!("{name}_{d}"), Sort::bv(32));
                            let z = self.st.bv_const(32, 0);
                            let pos = self.st.bvugt(t, z);
                            self.assume(pos);
                            // No CUDA device launches more (the runtime
                            // refuses the launch); OpenCL's limits are the
                            // device's own.
                            if self.module.language == lockstep_kir::Language::Cuda {
                                let limit = if out == 0 { CUDA_MAX_BLOCK[d] } else { CUDA_MAX_GRID[d] };
                                let max = self.st.bv_const(32, limit as u128);
                                let within = self.st.bvule(t, max);
                                self.assume(within);
                            }
                            t
                        }
                    }
                };
                if out == 0 {
                    self.gs[d] = t;
                } else {
                    self.ng[d] = t;
                }
            }
        }
        // OpenCL's `--global_size` with a symbolic local size: the sizes
        // multiply to the global size. Stated as the list of its factor
        // pairs (`size == d && groups == G / d` for each divisor `d`), which
        // says exactly that without a non-linear product; a global size with
        // very many divisors gets the product (computed in 64 bits).
        for d in 0..dims {
            let Some(global) = c.global_size[d] else { continue };
            if c.group_size[d].is_some() && c.num_groups[d].is_some() {
                continue;
            }
            let divisors: Vec<u64> = (1..=global.isqrt()).filter(|k| global % k == 0).flat_map(|k| [k, global / k]).collect();
            let fact = if global > 0 && divisors.len() <= 512 {
                let mut pairs = Vec::new();
                for k in divisors {
                    let size = self.st.bv_const(32, k as u128);
                    let groups = self.st.bv_const(32, (global / k) as u128);
                    let a = self.st.eq(self.gs[d], size);
                    let b = self.st.eq(self.ng[d], groups);
                    pairs.push(self.st.and(&[a, b]));
                }
                self.st.or(&pairs)
            } else {
                let gs = self.resize(self.gs[d], 64, false);
                let ng = self.resize(self.ng[d], 64, false);
                let product = self.st.bvmul(gs, ng);
                let g = self.st.bv_const(64, global as u128);
                self.st.eq(product, g)
            };
            self.assume(fact);
        }
        if c.global_size[..dims].iter().any(Option::is_some) {
            let sizes: Vec<String> = c.global_size[..dims].iter().map(|x| x.map_or("*".to_string(), |n| n.to_string())).collect();
            self.assumptions.push(format!("global size [{}]: group size times number of groups", sizes.join(",")));
        }
        if symbolic {
            // The number of threads of a group, and of the grid in each
            // dimension, fits in 32 bits. Stating this with multiplications
            // makes every query non-linear and slow, so only its consequences
            // that proofs need are assumed: each size and global id is below
            // 2^32 (true of 32-bit values) and the global-id lemma below.
            self.assumptions.push("symbolic launch sizes are positive and the thread counts fit in 32 bits".into());
            if self.module.language == lockstep_kir::Language::Cuda {
                self.assumptions.push("symbolic launch sizes are within CUDA's limits (blockDim.x and .y at most 1024, .z at most 64; gridDim.x below 2^31, .y and .z below 65536)".into());
            }
        }
        for t in 0..2 {
            for d in 0..3 {
                let l = self.fresh(&format!("lid{}_{d}", t + 1), Sort::bv(32));
                let g = self.fresh(&format!("gid{}_{d}", t + 1), Sort::bv(32));
                let lb = self.st.bvult(l, self.gs[d]);
                let gb = self.st.bvult(g, self.ng[d]);
                self.assume(lb);
                self.assume(gb);
                self.lid[t][d] = l;
                self.gid[t][d] = g;
            }
        }
        // Lemmas (true under the launch constraints, which rule out
        // overflow): the global id `group * size + local` determines the
        // pair (group, local), and, for known sizes, it is below the number
        // of threads. Solvers struggle to derive them from non-linear
        // bit-vector arithmetic, and also from a product with a constant
        // that is not a power of two (the race check of `mirror[gid]` at
        // 1000x1000 took z3 1.4 s without them, 0.04 s with them). Stating
        // them for both operand orders lets them match the kernel's own
        // terms.
        for d in 0..3 {
            let threads = match (c.group_size[d], c.num_groups[d]) {
                (Some(size), Some(groups)) => {
                    let threads = size as u128 * groups as u128;
                    // A power-of-two size makes the product a shift, which
                    // solvers see through at once (the lemmas slowed the
                    // 1024x65535 launch of `race_free.cu` from 0.9 s to
                    // 1.3 s); a grid of more than 2^32 threads wraps the
                    // 32-bit id around, and nothing holds.
                    if size.is_power_of_two() || threads > 1 << 32 {
                        continue;
                    }
                    Some(threads)
                }
                _ => None,
            };
            let mut ids = [Vec::new(), Vec::new()];
            for t in 0..2 {
                let m = self.mul(self.gid[t][d], self.gs[d]);
                ids[t].push(self.st.bvadd(m, self.lid[t][d]));
                ids[t].push(self.st.bvadd(self.lid[t][d], m));
            }
            let same = {
                let a = self.st.eq(self.gid[0][d], self.gid[1][d]);
                let b = self.st.eq(self.lid[0][d], self.lid[1][d]);
                self.st.and(&[a, b])
            };
            for k in 0..ids[0].len() {
                let e = self.st.eq(ids[0][k], ids[1][k]);
                let lemma = self.st.implies(e, same);
                self.assume(lemma);
            }
            if let Some(threads) = threads.filter(|&n| n < 1 << 32) {
                let bound = self.st.bv_const(32, threads);
                for id in ids.iter().flatten().copied().collect::<Vec<_>>() {
                    let below = self.st.bvult(id, bound);
                    self.assume(below);
                }
            }
        }
        let mut same_l = Vec::new();
        let mut same_g = Vec::new();
        for d in 0..3 {
            same_l.push(self.st.eq(self.lid[0][d], self.lid[1][d]));
            same_g.push(self.st.eq(self.gid[0][d], self.gid[1][d]));
        }
        let sg = self.st.and(&same_g);
        self.same_group = self.name(sg);
        let sl = self.st.and(&same_l);
        let same_thread = self.st.and(&[sl, self.same_group]);
        let distinct = self.st.not(same_thread);
        self.assume(distinct);
        if let Some(w) = c.warp_size {
            self.assumptions.push(format!(
                "warp-synchronous execution (--warp-sync={w}): threads of one warp race only at the same instruction"
            ));
        }
        if c.only_divergence {
            self.assumptions.push("data races are not checked (--only-divergence or --only-log)".into());
        } else if let Some(names) = &c.race_arrays {
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            self.assumptions.push(format!("data races are checked, and accesses logged for `__read`/`__write`, only on {} (/checkArrays)", list.join(", ")));
        }
        if c.only_intra_group {
            self.assume(self.same_group);
            self.assumptions.push("only threads of the same group are considered (--only-intra-group)".into());
        }
        let fmt = |s: &[Option<u64>; 3]| {
            s[..dims].iter().map(|x| x.map_or("*".to_string(), |n| n.to_string())).collect::<Vec<_>>().join(",")
        };
        self.assumptions.push(format!(
            "launch configuration: group size [{}], number of groups [{}]",
            fmt(&c.group_size),
            fmt(&c.num_groups)
        ));
        self.assumptions.push("every loop terminates (partial correctness)".into());
        if c.check_array_bounds {
            self.assumptions.push(
                "array bounds are checked for arrays of known size only, not for memory behind pointer parameters".into(),
            );
        }
        let other = if self.consistent_loads.is_empty() { "" } else { "otherwise, " };
        if !c.equality_abstraction {
            self.assumptions.push(format!("{other}values read from memory are arbitrary (adversarial abstraction of memory contents)"));
        } else {
            self.assumptions.push(
                "values read from memory are arbitrary, except that the two threads of a group read one value from the same bytes when neither wrote the object in between (equality abstraction; it holds until a first race, which is checked)"
                    .into(),
            );
        }
    }

    fn compute_log_dependent(&mut self) {
        let mut changed = true;
        while changed {
            changed = false;
            for (i, data) in self.func.insts.iter() {
                let Some(r) = data.result else { continue };
                if self.log_dependent.contains(&r) {
                    continue;
                }
                let direct = matches!(
                    data.kind,
                    InstKind::AnnotValue {
                        func: AnnotFn::Read | AnnotFn::Write | AnnotFn::ReadOffset | AnnotFn::WriteOffset,
                        ..
                    }
                );
                let _ = i;
                if direct || data.kind.operands().iter().any(|v| self.log_dependent.contains(v)) {
                    self.log_dependent.insert(r);
                    changed = true;
                }
            }
        }
    }

    // ----- values ------------------------------------------------------------

    pub fn val(&mut self, t: usize, v: ValueId) -> Res<Sym> {
        if let Some(s) = self.vals[t].get(&v) {
            return Ok(*s);
        }
        let data = &self.func.values[v];
        let ty = data.ty;
        let s = match &data.def {
            ValueDef::Param(i) => {
                if let Some(s) = self.params_shared.get(i) {
                    *s
                } else {
                    let s = match ty {
                        Type::Ptr(_) => {
                            let id = self.param_obj[i] as u128 + 1;
                            Sym::Ptr { base: self.st.bv_const(BASE_BITS, id), off: self.st.bv_const(64, 0) }
                        }
                        // Not numbered (`fresh` would): an argument is a
                        // constant of the whole kernel, and for every loop,
                        // even when first used inside one.
                        Type::Int(1) => Sym::Bool(self.st.fresh_const(&format!("arg{i}"), Sort::Bool)),
                        Type::Int(w) | Type::Float(w) => {
                            Sym::Bv(self.st.fresh_const(&format!("arg{i}"), Sort::bv(w as u32)))
                        }
                    };
                    self.params_shared.insert(*i, s);
                    s
                }
            }
            ValueDef::Const(bits) => match ty {
                Type::Int(1) => Sym::Bool(self.st.bool_const(bits & 1 == 1)),
                Type::Int(w) | Type::Float(w) => Sym::Bv(self.st.bv_const(w as u32, *bits)),
                Type::Ptr(_) => Sym::Ptr { base: self.st.bv_const(BASE_BITS, 0), off: self.st.bv_const(64, *bits) },
            },
            ValueDef::Undef => self.fresh_sym(ty, "undef"),
            ValueDef::GlobalAddr(g) => {
                let id = self.global_obj[g] as u128 + 1;
                Sym::Ptr { base: self.st.bv_const(BASE_BITS, id), off: self.st.bv_const(64, 0) }
            }
            ValueDef::LocalAddr(l) => {
                let id = self.local_obj[l] as u128 + 1;
                Sym::Ptr { base: self.st.bv_const(BASE_BITS, id), off: self.st.bv_const(64, 0) }
            }
            ValueDef::Null => Sym::Ptr { base: self.st.bv_const(BASE_BITS, 0), off: self.st.bv_const(64, 0) },
            ValueDef::Inst(_) | ValueDef::BlockParam(..) => {
                return err(format!("internal: value {v} used before its definition was encoded"), None)
            }
        };
        self.vals[t].insert(v, s);
        Ok(s)
    }

    pub(crate) fn val_bv(&mut self, t: usize, v: ValueId) -> Res<TermId> {
        let s = self.val(t, v)?;
        Ok(self.as_bv(s))
    }

    fn val_bool(&mut self, t: usize, v: ValueId) -> Res<TermId> {
        let s = self.val(t, v)?;
        Ok(self.as_bool(s))
    }

    /// An uninterpreted function of bit-vectors (floats, math library).
    pub(crate) fn uf(&mut self, name: &str, args: &[TermId], ret: Sort) -> TermId {
        let sorts: Vec<Sort> = args.iter().map(|&a| self.st.sort_of(a).clone()).collect();
        let mut full = name.to_string();
        for s in &sorts {
            full.push('_');
            full.push_str(&s.to_string().replace(['(', ')', ' '], ""));
        }
        full.push_str("__");
        full.push_str(&ret.to_string().replace(['(', ')', ' '], ""));
        let f = match self.st.lookup_fun(&full) {
            Some(f) => f,
            None => self.st.declare_fun(&full, &sorts, ret),
        };
        self.st.apply(f, args)
    }

    fn resize(&mut self, t: TermId, to: u32, signed: bool) -> TermId {
        let w = self.st.sort_of(t).bv_width().unwrap_or(1);
        if w == to {
            t
        } else if w < to {
            if signed {
                self.st.sign_extend(to - w, t)
            } else {
                self.st.zero_extend(to - w, t)
            }
        } else {
            self.st.extract(to - 1, 0, t)
        }
    }

    // ----- regions and loops -------------------------------------------------

    /// The region a block is encoded in: for a loop header, the loop around
    /// its loop; for other blocks, their innermost loop.
    fn region_of(&self, b: BlockId) -> Option<usize> {
        match self.loops.by_header.get(&b) {
            Some(&l) => self.loops.loops[l].parent,
            None => self.loops.innermost(b),
        }
    }

    fn encode_region(&mut self, region: Option<usize>) -> Res<()> {
        let mut blocks: Vec<BlockId> = Vec::new();
        if let Some(l) = region {
            blocks.push(self.loops.loops[l].header);
        }
        for &b in &self.cfg.rpo {
            if self.region_of(b) == region {
                blocks.push(b);
            }
        }
        for b in blocks {
            let header_of = self.loops.by_header.get(&b).copied();
            if let Some(l) = header_of.filter(|&l| Some(l) != region) {
                self.encode_loop(l)?;
                continue;
            }
            if header_of.is_none() {
                if b == self.func.entry {
                    let t = self.st.true_();
                    self.preds.insert(b, [t, t]);
                } else {
                    self.merge_incoming(b)?;
                }
            }
            self.encode_insts(b, Mode::Normal)?;
            self.encode_term(b)?;
        }
        Ok(())
    }

    /// Merges the recorded incoming edges of `b`: its predicates and
    /// parameters.
    fn merge_incoming(&mut self, b: BlockId) -> Res<[TermId; 2]> {
        let edges = self.incoming.remove(&b).unwrap_or_default();
        let params = self.func.blocks[b].params.clone();
        let mut preds = [self.st.false_(); 2];
        for t in 0..2 {
            let acts: Vec<TermId> = edges.iter().map(|e| e.act[t]).collect();
            let p = self.st.or(&acts);
            preds[t] = self.name(p);
            for (k, &pv) in params.iter().enumerate() {
                let mut acc: Option<Sym> = None;
                for e in edges.iter().rev() {
                    acc = Some(match acc {
                        None => e.args[t][k],
                        Some(rest) => self.ite_sym(e.act[t], e.args[t][k], rest),
                    });
                }
                let s = match acc {
                    Some(s) => self.name_sym(s),
                    None => self.fresh_sym(self.func.value_type(pv), "dead"),
                };
                self.vals[t].insert(pv, s);
            }
        }
        self.preds.insert(b, preds);
        Ok(preds)
    }

    fn add_edge(&mut self, from: BlockId, to: BlockId, edge: Edge) {
        if let Some(&l) = self.loops.by_header.get(&to) {
            if self.loops.loops[l].blocks.contains(&from) {
                self.back.entry(l).or_default().push(edge);
                return;
            }
        }
        if let Some(&r) = self.region_stack.last() {
            if !self.loops.loops[r].blocks.contains(&to) {
                // An exit of the loop being encoded: its post-loop state
                // provides the exit values (see `encode_loop`).
                return;
            }
        }
        self.incoming.entry(to).or_default().push(edge);
    }

    fn encode_term(&mut self, b: BlockId) -> Res<()> {
        let p = self.preds[&b];
        match self.func.blocks[b].term.clone() {
            Terminator::Jump(c) => {
                let args = self.call_args(&c.args)?;
                self.add_edge(b, c.block, Edge { act: p, args });
            }
            Terminator::Branch { cond, then_dest, else_dest } => {
                let c = [self.val_bool(0, cond)?, self.val_bool(1, cond)?];
                let mut then_act = [p[0]; 2];
                let mut else_act = [p[0]; 2];
                for t in 0..2 {
                    then_act[t] = self.st.and(&[p[t], c[t]]);
                    let nc = self.st.not(c[t]);
                    else_act[t] = self.st.and(&[p[t], nc]);
                }
                let a1 = self.call_args(&then_dest.args)?;
                let a2 = self.call_args(&else_dest.args)?;
                self.add_edge(b, then_dest.block, Edge { act: then_act, args: a1 });
                self.add_edge(b, else_dest.block, Edge { act: else_act, args: a2 });
            }
            Terminator::Return(_) => {}
            Terminator::Unreachable => {
                // No thread gets here: assume so.
                for t in 0..2 {
                    let n = self.st.not(p[t]);
                    self.assume(n);
                }
            }
        }
        Ok(())
    }

    fn call_args(&mut self, args: &[ValueId]) -> Res<[Vec<Sym>; 2]> {
        let mut out = [Vec::new(), Vec::new()];
        for t in 0..2 {
            for &a in args {
                let s = self.val(t, a)?;
                out[t].push(s);
            }
        }
        Ok(out)
    }

    /// The kinds of log (indexed by `AccessKind::index`) that the body of
    /// loop `l` may change: those of its accesses, and every kind if it has
    /// a barrier (which clears logs) or an instruction this list does not
    /// know. The logs of other kinds keep their values through the loop, as
    /// GPUVerify's loops only havoc the variables their body modifies; this
    /// matters most without inferred invariants (`--no-infer`), where a
    /// havocked atomic log of a loop without atomics would be unconstrained.
    fn loop_log_kinds(&self, l: usize) -> [bool; 3] {
        let mut changed = [false; 3];
        for &b in &self.loops.loops[l].blocks {
            for &i in &self.func.blocks[b].insts {
                match &self.func.insts[i].kind {
                    InstKind::Load { .. } => changed[AccessKind::Read.index()] = true,
                    InstKind::Store { .. } | InstKind::MemSet { .. } => changed[AccessKind::Write.index()] = true,
                    InstKind::MemCopy { .. } => {
                        changed[AccessKind::Read.index()] = true;
                        changed[AccessKind::Write.index()] = true;
                    }
                    InstKind::Atomic { .. } | InstKind::CmpXchg { .. } => changed[AccessKind::Atomic.index()] = true,
                    k if k.is_pure_computation() => {}
                    InstKind::Fence { .. }
                    | InstKind::Nop { .. }
                    | InstKind::Havoc
                    | InstKind::InvalidCall { .. }
                    | InstKind::CallExternal { .. }
                    | InstKind::Annot { .. }
                    | InstKind::AnnotValue { .. } => {}
                    _ => return [true; 3],
                }
            }
        }
        changed
    }

    /// A fresh loop state shaped like `shape_hp` and `logs`; the logs of the
    /// kinds not in `changed` are kept as they are in `logs`.
    fn havoc_state(&mut self, shape_hp: &[ValueId], logs: &LogState, prefix: &str, changed: [bool; 3]) -> LoopState {
        let mut hp = [Vec::new(), Vec::new()];
        for t in 0..2 {
            for &p in shape_hp {
                let ty = self.func.value_type(p);
                let s = self.fresh_sym(ty, &format!("{prefix}_t{}", t + 1));
                hp[t].push(s);
            }
        }
        let q = [self.fresh(&format!("{prefix}_q1"), Sort::Bool), self.fresh(&format!("{prefix}_q2"), Sort::Bool)];
        let mut logs_out = logs.havoc(&mut self.st, prefix, !self.benign_sites.is_empty());
        // Log symbols are numbered too (they belong to the loop state).
        for t in logs_out.terms() {
            if let TermKind::Const(f) = self.st.kind(t) {
                self.seq.insert(*f, self.seq_counter);
                self.seq_counter += 1;
            }
        }
        // The kept logs are the terms from before the loop (with their
        // numbers from there: constants for the loop).
        for (m, kinds) in logs_out.objs.iter_mut().enumerate() {
            for k in 0..3 {
                if !changed[k] {
                    kinds[k] = logs.objs[m][k].clone();
                }
            }
        }
        LoopState { hp, q, logs: logs_out }
    }

    /// Substitutes the symbols of `from` by the terms of `to` in `t`.
    pub fn subst_state(&mut self, t: TermId, from: &LoopState, to: &LoopState) -> TermId {
        let map: HashMap<TermId, TermId> = from.terms().into_iter().zip(to.terms()).collect();
        self.subst(t, &map)
    }

    pub fn subst(&mut self, t: TermId, map: &HashMap<TermId, TermId>) -> TermId {
        let mut memo: HashMap<TermId, TermId> = HashMap::new();
        self.subst_rec(t, map, &mut memo)
    }

    fn subst_rec(&mut self, t: TermId, map: &HashMap<TermId, TermId>, memo: &mut HashMap<TermId, TermId>) -> TermId {
        if let Some(&r) = map.get(&t) {
            return r;
        }
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let r = match self.st.kind(t).clone() {
            TermKind::App(op, args) => {
                let new: Vec<TermId> = args.iter().map(|&a| self.subst_rec(a, map, memo)).collect();
                if new.iter().zip(args.iter()).all(|(a, b)| a == b) {
                    t
                } else {
                    self.st.app(op, &new)
                }
            }
            _ => t,
        };
        memo.insert(t, r);
        r
    }

    /// Whether every free symbol of `t` is a constant for the body of a loop
    /// whose symbols below `mark` are constants.
    pub fn allowed(&self, t: TermId, mark: usize) -> bool {
        let fs = self.st.free_symbols(&[t]);
        fs.funs.iter().all(|f| self.seq.get(f).map_or(true, |&s| s < mark))
    }

    fn encode_loop(&mut self, l: usize) -> Res<()> {
        let header = self.loops.loops[l].header;
        let hparams = self.func.blocks[header].params.clone();
        // Entry: merge the edges from outside the loop.
        let pe = self.merge_incoming(header)?;
        let entry = LoopState {
            hp: [
                hparams.iter().map(|&p| self.vals[0][&p]).collect(),
                hparams.iter().map(|&p| self.vals[1][&p]).collect(),
            ],
            q: pe,
            logs: self.logs.clone(),
        };
        let ctx_entry = self.cur;

        // The havocked state of the body pass.
        let body_lit = self.st.fresh_const("inv_body", Sort::Bool);
        self.assume(body_lit);
        let changed = self.loop_log_kinds(l);
        let state = self.havoc_state(&hparams, &entry.logs, &format!("L{l}"), changed);
        let mark = self.seq_counter;
        for t in 0..2 {
            let imp = self.st.implies(state.q[t], pe[t]);
            self.assume(imp);
            for (k, &p) in hparams.iter().enumerate() {
                self.vals[t].insert(p, state.hp[t][k]);
            }
        }
        self.loop_data[l].state = Some(state.clone());
        self.loop_data[l].entry = Some(entry.clone());
        self.loop_data[l].mark = mark;
        self.loop_data[l].pe = Some(pe);
        self.loop_data[l].param_cands = self.param_candidates(l);
        self.logs = state.logs.clone();
        // The threads' own-write slots are not part of the loop state: a
        // loop that may write or synchronise starts each iteration, and
        // ends, knowing nothing about them (which is sound: they only ever
        // make races benign).
        let may_write = changed[AccessKind::Write.index()] || changed[AccessKind::Atomic.index()];
        if may_write {
            self.clear_own();
        }
        self.preds.insert(header, state.q);

        self.region_stack.push(l);
        self.encode_region(Some(l))?;
        self.region_stack.pop();

        // The back-edge state: threads that do not take a back edge freeze.
        let ctx_end = self.cur;
        let backs = self.back.remove(&l).unwrap_or_default();
        let mut next = state.clone();
        next.logs = self.logs.clone();
        // The logs kept through the loop must have come back unchanged;
        // otherwise `loop_log_kinds` missed a way of changing them and
        // keeping them would be unsound.
        for (m, kinds) in state.logs.objs.iter().enumerate() {
            for k in 0..3 {
                if !changed[k] && kinds[k] != next.logs.objs[m][k] {
                    return err("internal: a loop changed a race log its instructions should not change", None);
                }
            }
        }
        for t in 0..2 {
            let acts: Vec<TermId> = backs.iter().map(|e| e.act[t]).collect();
            let q = self.st.or(&acts);
            next.q[t] = self.name(q);
            for k in 0..hparams.len() {
                let mut acc = state.hp[t][k];
                for e in backs.iter().rev() {
                    acc = self.ite_sym(e.act[t], e.args[t][k], acc);
                }
                next.hp[t][k] = self.name_sym(acc);
            }
        }

        // Invariants: candidates (guarded) and user invariants.
        let back_args: Vec<[Vec<Sym>; 2]> = backs.iter().map(|e| e.args.clone()).collect();
        let cands = self.loop_candidates(l, &state, &entry, &back_args);
        let mut body_conj = Vec::new();
        let mut checks: Vec<(TermId, Option<usize>, Option<InstId>, String)> = Vec::new();
        for (tag, text, term) in cands {
            let guard = self.st.fresh_const("cand", Sort::Bool);
            self.candidates.push(Candidate { tag: tag.to_string(), text: text.clone(), guard });
            let ci = self.candidates.len() - 1;
            let g = self.st.implies(guard, term);
            body_conj.push(g);
            checks.push((term, Some(ci), None, text));
        }
        for (is_cand, text, term, inst) in self.loop_data[l].user.clone() {
            if is_cand {
                let guard = self.st.fresh_const("cand", Sort::Bool);
                self.candidates.push(Candidate { tag: "user".into(), text: text.clone(), guard });
                let ci = self.candidates.len() - 1;
                let g = self.st.implies(guard, term);
                body_conj.push(g);
                checks.push((term, Some(ci), Some(inst), text));
            } else {
                body_conj.push(term);
                checks.push((term, None, Some(inst), text));
            }
        }
        let conj = self.st.and(&body_conj);
        let d = self.st.implies(body_lit, conj);
        self.defs.push(d);
        let loop_loc = self.loc_text(*self.func.term_locs.get(header));
        // When no thread reaches the loop, its invariants need not hold on
        // entry: the state after it is then the entry state itself (below),
        // and nothing is assumed about it.
        let any_enter = self.st.or(&[pe[0], pe[1]]);
        for (term, cand, inst, text) in &checks {
            let e = self.subst_state(*term, &state, &entry);
            let e = self.st.implies(any_enter, e);
            let p = self.subst_state(*term, &state, &next);
            self.obligations.push(Obligation {
                cond: e,
                ctx: ctx_entry,
                kind: ObKind::Invariant { entry: true },
                inst: *inst,
                message: format!("loop invariant `{text}` (loop at {loop_loc}) may not hold on entry"),
                cand: *cand,
            });
            self.obligations.push(Obligation {
                cond: p,
                ctx: ctx_end,
                kind: ObKind::Invariant { entry: false },
                inst: *inst,
                message: format!("loop invariant `{text}` (loop at {loop_loc}) may not be maintained"),
                cand: *cand,
            });
        }

        // After the loop: a fresh state satisfying the invariants, with both
        // threads out of the loop.
        self.cur = ctx_entry;
        let post_lit = self.st.fresh_const("inv_post", Sort::Bool);
        self.assume(post_lit);
        let mut post = self.havoc_state(&hparams, &entry.logs, &format!("P{l}"), changed);
        for t in 0..2 {
            let nq = self.st.not(post.q[t]);
            self.assume(nq);
        }
        // The race logs after the loop: as on entry if thread 1 did not
        // reach it, because they are thread 1's: every change to them (its
        // logged accesses, the clearing at a barrier it passes) is guarded
        // by thread 1's predicate.
        let enter1 = pe[0];
        for (m, kinds) in post.logs.objs.iter_mut().enumerate() {
            for k in 0..3 {
                if !changed[k] {
                    continue;
                }
                let before = &entry.logs.objs[m][k];
                let log = &mut kinds[k];
                let pick = |enc: &mut Self, after: TermId, before: TermId| {
                    let t = enc.st.ite(enter1, after, before);
                    enc.name(t)
                };
                log.has = pick(self, log.has, before.has);
                log.off = pick(self, log.off, before.off);
                log.width = pick(self, log.width, before.width);
                log.site = pick(self, log.site, before.site);
                log.val = pick(self, log.val, before.val);
                log.own = pick(self, log.own, before.own);
                for (g, &b) in log.ghosts.iter_mut().zip(&before.ghosts) {
                    *g = pick(self, *g, b);
                }
            }
        }
        let mut post_conj = Vec::new();
        for (term, cand, _, _) in &checks {
            let s = self.subst_state(*term, &state, &post);
            let s = self.st.implies(any_enter, s);
            post_conj.push(match cand {
                Some(ci) => {
                    let g = self.candidates[*ci].guard;
                    self.st.implies(g, s)
                }
                None => s,
            });
        }
        let conj = self.st.and(&post_conj);
        let d = self.st.implies(post_lit, conj);
        self.defs.push(d);
        self.logs = post.logs.clone();
        if may_write {
            self.clear_own();
        }

        // Values of the header after the loop: the frozen parameters, and
        // the header's instructions re-evaluated on them.
        for t in 0..2 {
            for (k, &p) in hparams.iter().enumerate() {
                self.vals[t].insert(p, post.hp[t][k]);
            }
        }
        self.encode_insts(header, Mode::Pure)?;
        // Everything else defined in the loop and used after it is havocked.
        let body = self.loops.loops[l].blocks.clone();
        let used_outside = self.used_outside(&body);
        for v in used_outside {
            let def_block = self.def_block(v);
            if def_block == Some(header) {
                continue;
            }
            let ty = self.func.value_type(v);
            for t in 0..2 {
                let s = self.fresh_sym(ty, "after_loop");
                self.vals[t].insert(v, s);
            }
        }
        // Exit edges: each thread that entered leaves by exactly one.
        let mut exits: Vec<(BlockId, usize, BlockId)> = Vec::new();
        for &x in &body {
            for (k, s) in self.func.blocks[x].term.successors().into_iter().enumerate() {
                if !body.contains(&s) {
                    exits.push((x, k, s));
                }
            }
        }
        let mut ex: Vec<[TermId; 2]> = Vec::new();
        for _ in &exits {
            ex.push([self.fresh("exit1", Sort::Bool), self.fresh("exit2", Sort::Bool)]);
        }
        for t in 0..2 {
            let all: Vec<TermId> = ex.iter().map(|e| e[t]).collect();
            let any = self.st.or(&all);
            let e = self.st.eq(any, pe[t]);
            self.assume(e);
            for i in 0..all.len() {
                for j in i + 1..all.len() {
                    let both = self.st.and(&[all[i], all[j]]);
                    let n = self.st.not(both);
                    self.assume(n);
                }
            }
        }
        for (e, &(x, k, s)) in exits.iter().enumerate() {
            let term = self.func.blocks[x].term.clone();
            let call = term.block_calls()[k].clone();
            let mut args = [Vec::new(), Vec::new()];
            for t in 0..2 {
                if x == header {
                    if let Terminator::Branch { cond, .. } = term {
                        let c = self.val_bool(t, cond)?;
                        let c = if k == 0 { c } else { self.st.not(c) };
                        let imp = self.st.implies(ex[e][t], c);
                        self.assume(imp);
                    }
                    for &a in &call.args {
                        let v = self.val(t, a)?;
                        args[t].push(v);
                    }
                } else {
                    for &a in &call.args {
                        let s = self.fresh_sym(self.func.value_type(a), "exit_arg");
                        args[t].push(s);
                    }
                }
            }
            self.add_edge(x, s, Edge { act: ex[e], args });
        }
        Ok(())
    }

    fn def_block(&self, v: ValueId) -> Option<BlockId> {
        match &self.func.values[v].def {
            ValueDef::BlockParam(b, _) => Some(*b),
            ValueDef::Inst(i) => self.inst_block.get(i).copied(),
            _ => None,
        }
    }

    fn used_outside(&self, body: &std::collections::BTreeSet<BlockId>) -> Vec<ValueId> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for &b in &self.cfg.rpo {
            if body.contains(&b) {
                continue;
            }
            let block = &self.func.blocks[b];
            let mut ops: Vec<ValueId> = block.term.operands();
            for &i in &block.insts {
                ops.extend(self.func.insts[i].kind.operands());
            }
            for v in ops {
                if let Some(db) = self.def_block(v) {
                    if body.contains(&db) && seen.insert(v) {
                        out.push(v);
                    }
                }
            }
        }
        out
    }

    // ----- instructions ------------------------------------------------------

    fn encode_insts(&mut self, b: BlockId, mode: Mode) -> Res<()> {
        let insts = self.func.blocks[b].insts.clone();
        for i in insts {
            self.encode_inst(b, i, mode)?;
        }
        Ok(())
    }

    fn encode_inst(&mut self, b: BlockId, i: InstId, mode: Mode) -> Res<()> {
        let data = self.func.insts[i].clone();
        let at = self.loc(i);
        let rty = data.result.map(|r| self.func.value_type(r));
        let p = self.preds[&b];
        let mut out: [Option<Sym>; 2] = [None, None];
        if let InstKind::CallExternal { name, args } = &data.kind {
            if name == crate::async_copy::ASYNC_COPY && mode == Mode::Normal {
                self.async_copy_uniform(i, p, args)?;
            }
        }
        match &data.kind {
            InstKind::Binary { op, lhs, rhs } => {
                for t in 0..2 {
                    let a = self.val(t, *lhs)?;
                    let c = self.val(t, *rhs)?;
                    out[t] = Some(self.binary(*op, a, c));
                }
            }
            InstKind::Icmp { cc, lhs, rhs } => {
                for t in 0..2 {
                    let a = self.val(t, *lhs)?;
                    let c = self.val(t, *rhs)?;
                    out[t] = Some(Sym::Bool(self.icmp(*cc, a, c)));
                }
            }
            InstKind::Select { cond, then_value, else_value } => {
                for t in 0..2 {
                    let c = self.val_bool(t, *cond)?;
                    let a = self.val(t, *then_value)?;
                    let e = self.val(t, *else_value)?;
                    out[t] = Some(self.ite_sym(c, a, e));
                }
            }
            InstKind::Cast { op, arg } => {
                let rty = rty.expect("cast has a result");
                for t in 0..2 {
                    let a = self.val(t, *arg)?;
                    out[t] = Some(self.cast(*op, a, self.func.value_type(*arg), rty));
                }
            }
            InstKind::Float { op, args } => {
                let rty = rty.expect("float op has a result");
                for t in 0..2 {
                    let mut a = Vec::new();
                    for &x in args {
                        a.push(self.val_bv(t, x)?);
                    }
                    out[t] = Some(Sym::Bv(self.uf(op.name(), &a, Self::sort_of_type(rty))));
                }
            }
            InstKind::Fcmp { cc, lhs, rhs } => {
                for t in 0..2 {
                    let a = self.val_bv(t, *lhs)?;
                    let c = self.val_bv(t, *rhs)?;
                    let name = format!("fcmp_{}", cc.name());
                    out[t] = Some(Sym::Bool(self.uf(&name, &[a, c], Sort::Bool)));
                }
            }
            InstKind::PtrAdd { base, offset } => {
                for t in 0..2 {
                    let bsym = self.val(t, *base)?;
                    let o = self.val_bv(t, *offset)?;
                    let o = self.resize(o, 64, true);
                    out[t] = Some(match bsym {
                        Sym::Ptr { base, off } => Sym::Ptr { base, off: self.st.bvadd(off, o) },
                        _ => return err("pointer arithmetic on a non-pointer", at),
                    });
                }
            }
            InstKind::Load { ptr, .. } => {
                let rty = rty.expect("load has a result");
                if mode == Mode::Normal && !self.spec_loads.contains(&i) {
                    let w = self.st.bv_const(64, rty.store_size() as u128);
                    self.access(i, b, *ptr, [w, w], AccessKind::Read, None)?;
                }
                // A pointer loaded from memory points to some object (like
                // GPUVerify, which treats it as an arbitrary array); only
                // explicit null pointers are caught by the null check.
                let mut special = false;
                for t in 0..2 {
                    // Arrays read by barrier invariants have contents.
                    let program = mode == Mode::Normal && !self.spec_loads.contains(&i);
                    if let Some(v) = self.bi_load(t, b, *ptr, rty, program)? {
                        out[t] = Some(v);
                        special = true;
                        continue;
                    }
                    let fresh = self.fresh_sym_null(rty, "load", false);
                    if let Some(v) = self.forwarded_private_load(t, i, b, *ptr, rty)? {
                        // Only a thread that executes the block stored the
                        // value; for another, the load's value is what
                        // annotations about disabled threads see: arbitrary.
                        let p = self.preds[&b][t];
                        out[t] = Some(self.ite_sym(p, v, fresh));
                        continue;
                    }
                    let fresh = if program { self.equal_load(t, *ptr, rty, fresh)? } else { fresh };
                    let fresh = self.const_local_load(t, i, b, *ptr, rty, fresh)?;
                    let fresh = self.unwritten_load(t, *ptr, rty, fresh)?;
                    let v = self.constant_load(t, *ptr, rty, fresh)?;
                    let v = self.argument_load(t, *ptr, rty, v)?;
                    out[t] = Some(self.consistent_load(t, i, b, *ptr, v)?);
                }
                let relevant = self.func.insts[i].result.is_some_and(|r| self.control_relevant.contains(&r));
                if mode == Mode::Normal && !special && relevant && !self.spec_loads.contains(&i) {
                    if let (Some(v1), Some(v2)) = (out[0], out[1]) {
                        self.same_read(b, *ptr, v1, v2)?;
                    }
                }
            }
            InstKind::Store { ptr, value, .. } => {
                if mode == Mode::Normal {
                    let w = self.st.bv_const(64, self.func.value_type(*value).store_size() as u128);
                    let v = if self.benign_sites.contains(&i) { self.written_value(*value)? } else { None };
                    self.access(i, b, *ptr, [w, w], AccessKind::Write, v)?;
                    self.bi_store(b, *ptr, *value)?;
                }
            }
            InstKind::Atomic { ptr, value, .. } | InstKind::CmpXchg { ptr, expected: value, .. } => {
                if mode == Mode::Normal {
                    let w = self.st.bv_const(64, self.func.value_type(*value).store_size() as u128);
                    self.access(i, b, *ptr, [w, w], AccessKind::Atomic, None)?;
                }
                if let Some(rty) = rty {
                    for t in 0..2 {
                        out[t] = Some(self.fresh_sym(rty, "atomic"));
                    }
                    if mode == Mode::Normal && self.distinct_increments(i, b) {
                        // Two executions of one counting increment on one
                        // location return different old values.
                        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) =
                            (self.val(0, *ptr)?, self.val(1, *ptr)?)
                        else {
                            return err("atomic through a non-pointer", at);
                        };
                        let same_base = self.st.eq(b1, b2);
                        let same_off = self.st.eq(o1, o2);
                        let mut same = vec![p[0], p[1], same_base, same_off];
                        if self.static_object(*ptr).is_some_and(|o| self.objects[o].space == MemSpace::Shared) {
                            same.push(self.same_group);
                        }
                        let same = self.st.and(&same);
                        let (Some(Sym::Bv(r1)), Some(Sym::Bv(r2))) = (out[0], out[1]) else {
                            return err("internal: an atomic increment without an integer result", at);
                        };
                        let eq = self.st.eq(r1, r2);
                        let differ = self.st.not(eq);
                        let fact = self.st.implies(same, differ);
                        self.assume(fact);
                        let text = "atomic increments by a positive constant return distinct values to distinct threads (no wrap-around)".to_string();
                        if !self.assumptions.contains(&text) {
                            self.assumptions.push(text);
                        }
                    }
                }
            }
            InstKind::MemCopy { dst, src, len } | InstKind::MemSet { dst, byte: src, len } => {
                if mode == Mode::Normal {
                    let mut w = [self.st.bv_const(64, 0); 2];
                    for t in 0..2 {
                        let l = self.val_bv(t, *len)?;
                        w[t] = self.resize(l, 64, false);
                    }
                    if matches!(data.kind, InstKind::MemCopy { .. }) {
                        self.access(i, b, *src, w, AccessKind::Read, None)?;
                    }
                    self.access(i, b, *dst, w, AccessKind::Write, None)?;
                }
            }
            InstKind::Barrier { scope, fence } => {
                if mode == Mode::Normal {
                    self.bi_barrier(i, p, *scope, *fence)?;
                    self.barrier(i, p, *scope, *fence);
                }
            }
            InstKind::Fence { .. } | InstKind::Nop { .. } => {}
            InstKind::Builtin { var, dim } => {
                let d = *dim as usize;
                for t in 0..2 {
                    let v = match var {
                        lockstep_kir::BuiltinVar::LocalId => self.lid[t][d],
                        lockstep_kir::BuiltinVar::GroupId => self.gid[t][d],
                        lockstep_kir::BuiltinVar::LocalSize => self.gs[d],
                        lockstep_kir::BuiltinVar::NumGroups => self.ng[d],
                        lockstep_kir::BuiltinVar::GlobalOffset => self.st.bv_const(32, self.config.global_offset[d] as u32 as u128),
                    };
                    let w = rty.map_or(32, |t| t.bits());
                    out[t] = Some(Sym::Bv(self.resize(v, w, false)));
                }
            }
            // A thread's lane is its linear local id modulo the warp size
            // (CUDA numbers lanes so): lane-indexed accesses, such as a
            // tile's first lane writing its warp's slot, are then told apart.
            InstKind::Warp { op: lockstep_kir::WarpOp::LaneId, .. } if rty.is_some_and(|t| t.is_int()) => {
                let bits = rty.expect("checked").bits();
                for t in 0..2 {
                    let lin = self.linear_local_id(t);
                    let w = self.st.bv_const(64, 32);
                    let lane = self.st.bvurem(lin, w);
                    out[t] = Some(Sym::Bv(self.resize(lane, bits, false)));
                }
            }
            InstKind::Warp { .. } | InstKind::Havoc => {
                if let Some(rty) = rty {
                    for t in 0..2 {
                        out[t] = Some(self.fresh_sym(rty, "warp"));
                    }
                }
            }
            InstKind::Call { .. } => return err("call left after inlining", at),
            InstKind::InvalidCall { .. } => {
                if mode == Mode::Normal {
                    self.invalid_call(i, p);
                }
            }
            InstKind::CallExternal { name, .. } if name == "get_work_dim" && rty.is_some_and(|t| t.is_int()) => {
                // OpenCL's `get_work_dim()`: the launch's dimensions.
                let rty = rty.expect("checked");
                for t in 0..2 {
                    out[t] = Some(Sym::Bv(self.st.bv_const(rty.bits(), self.config.dims.clamp(1, 3) as u128)));
                }
            }
            InstKind::CallExternal { name, args } => {
                // Only pointers to the thread's private objects get here
                // (see `check_supported`); the proof relies on the callee
                // not reaching other memory through what they contain.
                if args.iter().any(|&a| self.func.value_type(a).is_ptr()) {
                    let text = format!(
                        "`{name}` (no body) accesses only the private objects passed to it, not memory reachable from their contents"
                    );
                    if !self.assumptions.contains(&text) {
                        self.assumptions.push(text);
                    }
                }
                // A function without a body may return anything (it may be
                // impure, like a random number generator): a fresh value per
                // call and thread.
                if let Some(rty) = rty {
                    for t in 0..2 {
                        out[t] = Some(self.fresh_sym(rty, "ext"));
                    }
                }
            }
            InstKind::Annot { kind, args } => {
                if mode == Mode::Normal {
                    self.annot(b, i, *kind, args)?;
                }
            }
            InstKind::AnnotValue { func, args } => {
                let rty = rty.expect("annotation value has a result");
                for t in 0..2 {
                    out[t] = Some(self.annot_value(t, b, *func, args, rty, at)?);
                }
            }
        }
        if let Some(r) = data.result {
            for t in 0..2 {
                let s = match out[t] {
                    Some(s) => s,
                    None => self.fresh_sym(self.func.value_type(r), "v"),
                };
                self.vals[t].insert(r, s);
            }
        }
        Ok(())
    }

    pub(crate) fn binary(&mut self, op: BinOp, a: Sym, b: Sym) -> Sym {
        if let (Sym::Bool(x), Sym::Bool(y)) = (a, b) {
            match op {
                BinOp::And => return Sym::Bool(self.st.and(&[x, y])),
                BinOp::Or => return Sym::Bool(self.st.or(&[x, y])),
                BinOp::Xor | BinOp::Add | BinOp::Sub => return Sym::Bool(self.st.xor(x, y)),
                _ => {}
            }
        }
        let boolean = matches!(a, Sym::Bool(_));
        let x = self.as_bv(a);
        let y = self.as_bv(b);
        let r = match op {
            BinOp::Add => self.st.bvadd(x, y),
            BinOp::Sub => self.st.bvsub(x, y),
            BinOp::Mul => self.mul(x, y),
            BinOp::UDiv => self.st.bvudiv(x, y),
            BinOp::SDiv => self.st.bvsdiv(x, y),
            BinOp::URem => self.st.bvurem(x, y),
            BinOp::SRem => self.st.bvsrem(x, y),
            BinOp::Shl => self.st.bvshl(x, y),
            BinOp::LShr => self.st.bvlshr(x, y),
            BinOp::AShr => self.st.bvashr(x, y),
            BinOp::And => self.st.bvand(x, y),
            BinOp::Or => self.st.bvor(x, y),
            BinOp::Xor => self.st.bvxor(x, y),
        };
        if boolean {
            let one = self.st.bv_const(1, 1);
            Sym::Bool(self.st.eq(r, one))
        } else {
            Sym::Bv(r)
        }
    }

    /// Multiplication. A product of two non-constant values is abstracted
    /// by an uninterpreted (commutative) function: non-linear bit-vector
    /// arithmetic makes solvers time out, and an uninterpreted function is
    /// an over-approximation, so proofs stay sound.
    pub fn mul(&mut self, x: TermId, y: TermId) -> TermId {
        if self.st.as_bv(x).is_some() || self.st.as_bv(y).is_some() {
            return self.st.bvmul(x, y);
        }
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        let w = self.st.sort_of(a).bv_width().unwrap_or(32);
        // The global size (`get_global_size`, `blockDim * gridDim`) of a
        // launch whose global size is known is that size, whatever the
        // factors (`--global_size` with `--local_size=*`).
        let (sa, sb) = (self.without_zero_extension(a), self.without_zero_extension(b));
        for d in 0..3 {
            if let Some(global) = self.config.global_size[d] {
                let (gs, ng) = (self.gs[d], self.ng[d]);
                if (sa == gs && sb == ng) || (sa == ng && sb == gs) {
                    return self.st.bv_const(w, global as u128);
                }
            }
        }
        self.uf("mul", &[a, b], Sort::bv(w))
    }

    fn without_zero_extension(&self, t: TermId) -> TermId {
        match self.st.kind(t) {
            lockstep_smt::TermKind::App(lockstep_smt::Op::ZeroExtend(_), args) => args[0],
            _ => t,
        }
    }

    pub(crate) fn icmp(&mut self, cc: IntCC, a: Sym, b: Sym) -> TermId {
        if let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (a, b) {
            let same = self.eq_sym(a, b);
            return match cc {
                IntCC::Eq => same,
                IntCC::Ne => self.st.not(same),
                _ => {
                    let _ = (b1, b2);
                    self.icmp(cc, Sym::Bv(o1), Sym::Bv(o2))
                }
            };
        }
        if let (Sym::Bool(x), Sym::Bool(y)) = (a, b) {
            match cc {
                IntCC::Eq => return self.st.eq(x, y),
                IntCC::Ne => return self.st.xor(x, y),
                _ => {}
            }
        }
        let x = self.as_bv(a);
        let y = self.as_bv(b);
        match cc {
            IntCC::Eq => self.st.eq(x, y),
            IntCC::Ne => {
                let e = self.st.eq(x, y);
                self.st.not(e)
            }
            IntCC::Ult => self.st.bvult(x, y),
            IntCC::Ule => self.st.bvule(x, y),
            IntCC::Ugt => self.st.bvugt(x, y),
            IntCC::Uge => self.st.bvuge(x, y),
            IntCC::Slt => self.st.bvslt(x, y),
            IntCC::Sle => self.st.bvsle(x, y),
            IntCC::Sgt => self.st.bvsgt(x, y),
            IntCC::Sge => self.st.bvsge(x, y),
        }
    }

    pub(crate) fn cast(&mut self, op: CastOp, a: Sym, from: Type, to: Type) -> Sym {
        match op {
            CastOp::Zext | CastOp::Sext => match (a, to) {
                (Sym::Bool(b), Type::Int(w)) => {
                    let one = if op == CastOp::Zext { 1u128 } else { u128::MAX };
                    let one = self.st.bv_const(w as u32, one);
                    let zero = self.st.bv_const(w as u32, 0);
                    Sym::Bv(self.st.ite(b, one, zero))
                }
                _ => {
                    let x = self.as_bv(a);
                    Sym::Bv(self.resize(x, to.bits(), op == CastOp::Sext))
                }
            },
            CastOp::Trunc => {
                let x = self.as_bv(a);
                let r = self.st.extract(to.bits() - 1, 0, x);
                if to == Type::BOOL {
                    let one = self.st.bv_const(1, 1);
                    Sym::Bool(self.st.eq(r, one))
                } else {
                    Sym::Bv(r)
                }
            }
            CastOp::Bitcast | CastOp::AddrSpaceCast => match (a, to) {
                (Sym::Ptr { .. }, Type::Ptr(_)) => a,
                (Sym::Ptr { off, .. }, _) => Sym::Bv(self.resize(off, to.bits(), false)),
                (_, Type::Int(1)) => Sym::Bool(self.as_bool(a)),
                (_, Type::Ptr(_)) => self.fresh_sym(to, "cast"),
                _ => {
                    let x = self.as_bv(a);
                    Sym::Bv(self.resize(x, to.bits(), false))
                }
            },
            CastOp::PtrToInt => match a {
                Sym::Ptr { base, off } => {
                    // A pointer into no object (null, or an absolute address
                    // such as the front end's function addresses) is its
                    // offset; an object's address is unknown.
                    let r = self.uf("ptrtoint", &[base, off], Self::sort_of_type(to));
                    if to == Type::BOOL {
                        Sym::Bool(r)
                    } else {
                        let zero = self.st.bv_const(BASE_BITS, 0);
                        let absolute = self.st.eq(base, zero);
                        let value = self.resize(off, to.bits(), false);
                        Sym::Bv(self.st.ite(absolute, value, r))
                    }
                }
                _ => self.fresh_sym(to, "p2i"),
            },
            // A constant becomes an absolute address, like a pointer
            // constant; any other integer may point anywhere.
            CastOp::IntToPtr => match a {
                Sym::Bv(x) if self.st.as_bv(x).is_some() => {
                    let off = self.resize(x, 64, false);
                    Sym::Ptr { base: self.st.bv_const(BASE_BITS, 0), off }
                }
                _ => self.fresh_sym(to, "i2p"),
            },
            _ => {
                // Float conversions: uninterpreted.
                let x = self.as_bv(a);
                let r = self.uf(&format!("{}_{}", op.name(), from.bits()), &[x], Self::sort_of_type(to));
                if to == Type::BOOL {
                    Sym::Bool(r)
                } else {
                    Sym::Bv(r)
                }
            }
        }
    }

    // ----- memory accesses -----------------------------------------------------

    /// The value of a load that may read a by-value kernel argument (a
    /// struct passed to the kernel) that the kernel never writes: the same
    /// for every thread, so a function of the offset shared by both threads
    /// (`otherwise` when the pointer points elsewhere). This is what makes
    /// pointers stored in struct arguments equal in both threads.
    fn argument_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        let mut acc = otherwise;
        for k in self.readonly_args.clone() {
            let id = self.st.bv_const(BASE_BITS, self.param_obj[&k] as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            let v = match ty {
                Type::Ptr(space) => {
                    let b = self.uf(&format!("argmem{k}_base"), &[off], Sort::bv(BASE_BITS));
                    let o = self.uf(&format!("argmem{k}_off"), &[off], Sort::bv(64));
                    // It points to some object of its space (not null, like
                    // any pointer loaded from memory).
                    let mut options = Vec::new();
                    for (i, obj) in self.objects.clone().iter().enumerate() {
                        if space_compatible(space, obj.space) {
                            let id = self.st.bv_const(BASE_BITS, i as u128 + 1);
                            options.push(self.st.eq(b, id));
                        }
                    }
                    let c = self.st.or(&options);
                    self.assume(c);
                    Sym::Ptr { base: b, off: o }
                }
                Type::Int(1) => Sym::Bool(self.uf(&format!("argmem{k}"), &[off], Sort::Bool)),
                Type::Int(w) | Type::Float(w) => Sym::Bv(self.uf(&format!("argmem{k}"), &[off], Sort::bv(w as u32))),
            };
            acc = self.ite_sym(is, v, acc);
        }
        Ok(acc)
    }

    /// The value of a load that may read an initialised OpenCL `__constant`
    /// object: its known contents (for objects of at most 256 elements of the loaded
    /// width, at aligned offsets), `otherwise` elsewhere.
    fn constant_load(&mut self, t: usize, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        // In CUDA the host may overwrite `__constant__` memory before the
        // launch (`cudaMemcpyToSymbol`): initial contents are only known in
        // OpenCL, where program-scope constants are immutable.
        if self.module.language != lockstep_kir::Language::OpenCl {
            return Ok(otherwise);
        }
        let Sym::Bv(mut acc) = otherwise else { return Ok(otherwise) };
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(otherwise) };
        for (g, obj) in self.module.globals.iter() {
            if obj.init.is_none() || obj.space != MemSpace::Constant {
                continue;
            }
            let id = self.st.bv_const(BASE_BITS, self.global_obj[&g] as u128 + 1);
            let is = self.st.eq(base, id);
            if self.st.as_bool(is) == Some(false) {
                continue;
            }
            let Some(named) = self.init_contents(g, off, ty, acc) else { continue };
            acc = self.st.ite(is, named, acc);
        }
        Ok(Sym::Bv(acc))
    }

    /// The value of type `ty` at byte offset `off` of the initialised
    /// global `g` (aligned reads of its elements), `otherwise` elsewhere;
    /// `None` when the type or the size does not suit this encoding.
    fn init_contents(&mut self, g: lockstep_kir::GlobalId, off: TermId, ty: Type, otherwise: TermId) -> Option<TermId> {
        let bytes = ty.store_size() as usize;
        if bytes == 0 || bytes > 8 || ty.bits() as usize != bytes * 8 {
            return None;
        }
        let init = self.module.globals[g].init.clone()?;
        if init.len() / bytes > 256 {
            return None;
        }
        let mut chain = otherwise;
        for k in (0..init.len() / bytes).rev() {
            let mut v: u128 = 0;
            for (j, &byte) in init[k * bytes..(k + 1) * bytes].iter().enumerate() {
                v |= (byte as u128) << (8 * j);
            }
            let at = self.st.bv_const(64, (k * bytes) as u128);
            let here = self.st.eq(off, at);
            let val = self.st.bv_const(ty.bits(), v);
            chain = self.st.ite(here, val, chain);
        }
        Some(self.name(chain))
    }

    /// The local a pointer is derived from (by pointer arithmetic and casts).
    fn local_root(&self, mut v: ValueId) -> Option<lockstep_kir::LocalId> {
        for _ in 0..64 {
            match &self.func.values[v].def {
                ValueDef::LocalAddr(l) => return Some(*l),
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::PtrAdd { base, .. } => v = *base,
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                    _ => return None,
                },
                _ => return None,
            }
        }
        None
    }

    /// Read consistency, GPUVerify's model of memory between barriers: when
    /// a thread reads a location twice, and between the reads it passes no
    /// barrier and makes no call, and writes nothing that may be the read
    /// object, the second read returns what the first did, unless another
    /// thread wrote the location in between, which is a data race that the
    /// race checks report. So it is only assumed for objects whose races
    /// are checked for every pair of threads that could write them (not
    /// under `--only-divergence`, `/checkArrays` without the object,
    /// `--only-intra-group` for global memory, or `--warp-sync`).
    ///
    /// Found statically: load `b` may reuse the value of load `a` when `a`
    /// reads the same object with the same type, `a` comes first in a block
    /// that dominates `b`'s, both lie in the same loops, and no instruction
    /// on a path from `a` to `b` (within one iteration of those loops) may
    /// write the object, is a barrier, or is a call. The encoding compares
    /// the addresses: equal ones read the same value.
    fn find_consistent_loads(&self) -> HashMap<InstId, Vec<InstId>> {
        let mut out: HashMap<InstId, Vec<InstId>> = HashMap::new();
        let mut loads = Vec::new();
        for &b in &self.cfg.rpo {
            for &i in &self.func.blocks[b].insts {
                let InstKind::Load { ptr, .. } = self.func.insts[i].kind else { continue };
                if self.spec_loads.contains(&i) {
                    continue;
                }
                let Some(ty) = self.func.insts[i].result.map(|r| self.func.values[r].ty) else { continue };
                if ty.is_ptr() {
                    continue;
                }
                let Some(o) = self.static_object(ptr) else { continue };
                if self.every_race_checked_on(o) {
                    loads.push((i, b, o, ty));
                }
            }
        }
        // Quadratic in the loads; kernels with very many are left alone.
        if loads.len() > 400 {
            return out;
        }
        for (k, &(ib, bb, ob, tb)) in loads.iter().enumerate() {
            for &(ia, ba, oa, ta) in &loads[..k] {
                if oa != ob || ta != tb || ia == ib {
                    continue;
                }
                let ordered = if ba == bb {
                    let insts = &self.func.blocks[ba].insts;
                    insts.iter().position(|&x| x == ia) < insts.iter().position(|&x| x == ib)
                } else {
                    self.cfg.is_reachable(ba) && self.cfg.dominates(ba, bb)
                };
                if ordered && self.loops.enclosing(ba) == self.loops.enclosing(bb) && self.nothing_writes_between(ia, ba, ib, bb, ob) {
                    out.entry(ib).or_default().push(ia);
                }
            }
        }
        out
    }

    /// Whether no instruction on a path from `ia` (in block `ba`) to `ib`
    /// (in `bb`), within one iteration of the loops containing both, may
    /// write object `o`, is a barrier or is a call (see
    /// `find_consistent_loads`).
    fn nothing_writes_between(&self, ia: InstId, ba: BlockId, ib: InstId, bb: BlockId, o: usize) -> bool {
        let insts = |b: BlockId| &self.func.blocks[b].insts;
        let interferes = |i: InstId| -> bool {
            let kind = &self.func.insts[i].kind;
            if matches!(kind, InstKind::Barrier { .. } | InstKind::Call { .. } | InstKind::CallExternal { .. }) {
                return true;
            }
            let Some(target) = kind.written_pointer() else { return false };
            match self.static_object(target) {
                Some(t) => t == o,
                None => match self.func.value_type(target) {
                    Type::Ptr(space) => space_compatible(space, self.objects[o].space),
                    _ => true,
                },
            }
        };
        let pos = |b: BlockId, i: InstId| insts(b).iter().position(|&x| x == i).unwrap_or(0);
        if ba == bb {
            return insts(ba)[pos(ba, ia) + 1..pos(bb, ib)].iter().all(|&i| !interferes(i));
        }
        if insts(ba)[pos(ba, ia) + 1..].iter().any(|&i| interferes(i)) || insts(bb)[..pos(bb, ib)].iter().any(|&i| interferes(i)) {
            return false;
        }
        // The blocks between: reachable from `ba` and reaching `bb` without
        // taking a back edge of a loop containing both.
        let common: Vec<BlockId> = self.loops.enclosing(ba).iter().map(|&l| self.loops.loops[l].header).collect();
        let mut forward: HashSet<BlockId> = HashSet::new();
        let mut stack = vec![ba];
        while let Some(x) = stack.pop() {
            for y in self.func.blocks[x].term.successors() {
                if !common.contains(&y) && y != bb && y != ba && forward.insert(y) {
                    stack.push(y);
                }
            }
        }
        let mut backward: HashSet<BlockId> = HashSet::new();
        let mut stack = vec![bb];
        while let Some(x) = stack.pop() {
            if common.contains(&x) {
                continue;
            }
            for &y in self.cfg.preds.get(&x).map(Vec::as_slice).unwrap_or(&[]) {
                if y != ba && y != bb && backward.insert(y) {
                    stack.push(y);
                }
            }
        }
        forward.intersection(&backward).all(|&x| insts(x).iter().all(|&i| !interferes(i)))
    }

    /// A load's value under read consistency (`find_consistent_loads`):
    /// the value of an earlier load of the same object at an equal address.
    /// Only a thread that executes the load is concerned: for another, the
    /// value stays arbitrary.
    fn consistent_load(&mut self, t: usize, i: InstId, b: BlockId, ptr: ValueId, v: Sym) -> Res<Sym> {
        let Some(earlier) = self.consistent_loads.get(&i).cloned() else { return Ok(v) };
        let Sym::Ptr { base, off } = self.val(t, ptr)? else { return Ok(v) };
        let enabled = self.preds[&b][t];
        let mut acc = v;
        for a in earlier {
            let (InstKind::Load { ptr: pa, .. }, Some(ra)) = (&self.func.insts[a].kind, self.func.insts[a].result) else { continue };
            let Sym::Ptr { base: ba, off: oa } = self.val(t, *pa)? else { continue };
            let value = self.val(t, ra)?;
            let same_base = self.st.eq(base, ba);
            let same_off = self.st.eq(off, oa);
            let same = self.st.and(&[enabled, same_base, same_off]);
            acc = self.ite_sym(same, value, acc);
        }
        Ok(acc)
    }

    /// `v` as a private local and a constant byte offset into it (modulo
    /// 2^64), when it is one.
    fn local_at(&self, mut v: ValueId) -> Option<(lockstep_kir::LocalId, u64)> {
        let mut off: u64 = 0;
        for _ in 0..64 {
            match &self.func.values[v].def {
                ValueDef::LocalAddr(l) => return Some((*l, off)),
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::PtrAdd { base, offset } => {
                        let ValueDef::Const(c) = self.func.values[*offset].def else { return None };
                        off = off.wrapping_add(c as u64);
                        v = *base;
                    }
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                    _ => return None,
                },
                _ => return None,
            }
        }
        None
    }

    /// The value of a load from a private local at a constant offset that
    /// an earlier store of the same block wrote with the same type (store
    /// to load forwarding). Private memory belongs to its thread, so only
    /// the thread's own instructions between the two can change it: the
    /// search stops (no forwarding) at any that might, a store that may
    /// overlap, a store through a private pointer of unknown target, an
    /// atomic, a copy or a call.
    fn forwarded_private_load(&mut self, t: usize, i: InstId, b: BlockId, ptr: ValueId, ty: Type) -> Res<Option<Sym>> {
        let Some((local, off)) = self.local_at(ptr) else { return Ok(None) };
        let size = ty.store_size() as u128;
        let insts = &self.func.blocks[b].insts;
        let Some(pos) = insts.iter().position(|&x| x == i) else { return Ok(None) };
        for &j in insts[..pos].iter().rev() {
            match &self.func.insts[j].kind {
                InstKind::Store { ptr: p, value, .. } => match self.local_at(*p) {
                    Some((l2, o2)) if l2 == local => {
                        let vty = self.func.value_type(*value);
                        if o2 == off && vty == ty {
                            return Ok(Some(self.val(t, *value)?));
                        }
                        let (a, w2) = (off as u128, vty.store_size() as u128);
                        if (o2 as u128) + w2 <= a || a + size <= o2 as u128 {
                            continue;
                        }
                        return Ok(None);
                    }
                    Some(_) => continue,
                    None if matches!(self.func.value_type(*p), Type::Ptr(MemSpace::Private | MemSpace::Generic)) => return Ok(None),
                    None => continue,
                },
                InstKind::Atomic { .. }
                | InstKind::CmpXchg { .. }
                | InstKind::MemCopy { .. }
                | InstKind::MemSet { .. }
                | InstKind::Call { .. }
                | InstKind::CallExternal { .. } => return Ok(None),
                _ => continue,
            }
        }
        Ok(None)
    }

    /// Private arrays initialised from a constant (clang lowers `int x[10] =
    /// {...}` to a copy of a `__constant` initialiser): locals whose only
    /// write is one copy of their whole size from an initialised OpenCL
    /// constant, and whose address never escapes (is stored, passed to a
    /// call or between blocks) nor is written through a pointer of unknown
    /// target. A load the copy dominates reads the constant's contents.
    fn find_const_locals(&self) -> HashMap<lockstep_kir::LocalId, (lockstep_kir::GlobalId, InstId)> {
        let mut out = HashMap::new();
        if self.module.language != lockstep_kir::Language::OpenCl {
            return out;
        }
        let direct = |mut v: ValueId| -> ValueId {
            while let ValueDef::Inst(i) = &self.func.values[v].def {
                match &self.func.insts[*i].kind {
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                    _ => break,
                }
            }
            v
        };
        let mut copies: HashMap<lockstep_kir::LocalId, Vec<(InstId, Option<lockstep_kir::GlobalId>)>> = HashMap::new();
        let mut bad: HashSet<lockstep_kir::LocalId> = HashSet::new();
        for b in &self.cfg.rpo {
            for &i in &self.func.blocks[*b].insts {
                let kind = &self.func.insts[i].kind;
                // Writes through a pointer of unknown target may reach any
                // private object.
                let written = match kind {
                    InstKind::Store { ptr, .. } | InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => Some(*ptr),
                    InstKind::MemCopy { dst, .. } | InstKind::MemSet { dst, .. } => Some(*dst),
                    _ => None,
                };
                if let Some(w) = written {
                    match self.local_root(w) {
                        Some(l) => {
                            let copy = match kind {
                                InstKind::MemCopy { dst, src, len } => {
                                    let src_g = match self.func.values[direct(*src)].def {
                                        ValueDef::GlobalAddr(g) => Some(g),
                                        _ => None,
                                    };
                                    let size = self.func.locals[l].size;
                                    let whole = matches!(self.func.values[direct(*dst)].def, ValueDef::LocalAddr(_))
                                        && matches!(self.func.values[*len].def, ValueDef::Const(n) if Some(n as u64) == size);
                                    let good = src_g.filter(|&g| {
                                        let obj = &self.module.globals[g];
                                        whole
                                            && obj.space == MemSpace::Constant
                                            && obj.init.as_ref().is_some_and(|d| Some(d.len() as u64) >= size)
                                    });
                                    Some(good)
                                }
                                _ => None,
                            };
                            match copy {
                                Some(Some(g)) => copies.entry(l).or_default().push((i, Some(g))),
                                _ => {
                                    bad.insert(l);
                                }
                            }
                        }
                        None => {
                            let space = match self.func.value_type(w) {
                                Type::Ptr(s) => s,
                                _ => MemSpace::Generic,
                            };
                            if space_compatible(space, MemSpace::Private) {
                                return HashMap::new();
                            }
                        }
                    }
                }
                // Escapes: a local's address used other than as an address.
                let escapes: Vec<ValueId> = match kind {
                    InstKind::Store { value, .. } => vec![*value],
                    InstKind::Atomic { value, .. } => vec![*value],
                    InstKind::CmpXchg { expected, new, .. } => vec![*expected, *new],
                    InstKind::CallExternal { args, .. } => args.clone(),
                    InstKind::Select { then_value, else_value, .. } => vec![*then_value, *else_value],
                    _ => vec![],
                };
                for v in escapes {
                    if let Some(l) = self.local_root(v) {
                        bad.insert(l);
                    }
                }
            }
            for v in self.func.blocks[*b].term.operands() {
                if let Some(l) = self.local_root(v) {
                    bad.insert(l);
                }
            }
        }
        for (l, list) in copies {
            if bad.contains(&l) || list.len() != 1 {
                continue;
            }
            if let (i, Some(g)) = list[0] {
                out.insert(l, (g, i));
            }
        }
        out
    }

    /// A load from a constant-initialised private array (see
    /// `find_const_locals`) after its initialisation: the initial contents.
    fn const_local_load(&mut self, t: usize, i: InstId, b: BlockId, ptr: ValueId, ty: Type, otherwise: Sym) -> Res<Sym> {
        let Sym::Bv(other) = otherwise else { return Ok(otherwise) };
        let Some(l) = self.local_root(ptr) else { return Ok(otherwise) };
        let Some(&(g, copy)) = self.const_locals.get(&l) else { return Ok(otherwise) };
        let copy_block = self.inst_block[&copy];
        let dominated = if copy_block == b {
            let insts = &self.func.blocks[b].insts;
            insts.iter().position(|&x| x == copy) < insts.iter().position(|&x| x == i)
        } else {
            self.cfg.is_reachable(copy_block) && self.cfg.dominates(copy_block, b)
        };
        if !dominated {
            return Ok(otherwise);
        }
        let Sym::Ptr { off, .. } = self.val(t, ptr)? else { return Ok(otherwise) };
        Ok(self.init_contents(g, off, ty, other).map_or(otherwise, Sym::Bv))
    }

    /// The value a store writes, as a bv80 per thread (`VAL_BITS`), when
    /// it can be compared (integers and floats of at most 64 bits,
    /// booleans, pointers).
    fn written_value(&mut self, value: ValueId) -> Res<Option<[TermId; 2]>> {
        let mut out = [self.st.bv_const(VAL_BITS, 0); 2];
        for t in 0..2 {
            out[t] = match self.val(t, value)? {
                Sym::Bool(x) => {
                    let one = self.st.bv_const(VAL_BITS, 1);
                    let zero = self.st.bv_const(VAL_BITS, 0);
                    self.st.ite(x, one, zero)
                }
                Sym::Bv(x) => match self.st.sort_of(x).bv_width() {
                    Some(w) if w <= 64 => self.resize(x, VAL_BITS, false),
                    _ => return err("a benign-race candidate store of an unexpected width", None),
                },
                Sym::Ptr { base, off } => {
                    let base = self.resize(base, BASE_BITS, false);
                    let off = self.resize(off, 64, false);
                    self.st.concat(base, off)
                }
            };
        }
        Ok(Some(out))
    }

    /// Instruments an access: thread 1 may log it, thread 2 checks it.
    /// `value` is the written value of each thread for a store that may be
    /// part of a benign race (two writes of the same value to the same
    /// location by two such stores are not a race).
    fn access(
        &mut self,
        i: InstId,
        b: BlockId,
        ptr: ValueId,
        width: [TermId; 2],
        kind: AccessKind,
        value: Option<[TermId; 2]>,
    ) -> Res<()> {
        let space = match self.func.value_type(ptr) {
            Type::Ptr(s) => s,
            _ => return err("access through a non-pointer", self.loc(i)),
        };
        let p = self.preds[&b];
        let ps = [self.val(0, ptr)?, self.val(1, ptr)?];
        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (ps[0], ps[1]) else {
            return err("access through a non-pointer", self.loc(i));
        };
        let site = self.st.bv_const(32, i.as_u32() as u128);
        let enclosing = self.loops.enclosing(b);
        // Memory safety checks the prover can make cheaply: no access
        // through a null pointer, no write to constant memory.
        let null = self.st.bv_const(BASE_BITS, 0);
        let conj = self.no_enabled_thread_on(p, [b1, b2], null);
        let ok = self.st.and(&conj);
        self.oblige(
            ok,
            ObKind::Annotation(ViolationKind::NullPointer),
            Some(i),
            "possible null pointer access".into(),
            None,
        );
        if self.config.check_array_bounds {
            self.bounds_check(i, p, [b1, b2], [o1, o2], width);
        }
        if kind != AccessKind::Read {
            let mut conj = Vec::new();
            for (oi, obj) in self.objects.clone().iter().enumerate() {
                if obj.space != MemSpace::Constant {
                    continue;
                }
                let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
                conj.extend(self.no_enabled_thread_on(p, [b1, b2], id));
            }
            let ok = self.st.and(&conj);
            self.oblige(
                ok,
                ObKind::Annotation(ViolationKind::ConstantWrite),
                Some(i),
                "possible attempt to modify constant memory".into(),
                None,
            );
        }
        for (oi, obj) in self.objects.clone().iter().enumerate() {
            let Some(m) = obj.tracked else { continue };
            if !space_compatible(space, obj.space) {
                continue;
            }
            let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
            let is1 = self.st.eq(b1, id);
            let is2 = self.st.eq(b2, id);
            if self.st.as_bool(is1) == Some(false) {
                continue;
            }
            // Whether each thread's write leaves its bytes as they were
            // (`benign`), for a store whose value may be benign.
            let silent = match (kind, value) {
                (AccessKind::Write, Some(_)) => self.silent_write(i, oi, m, [o1, o2])?,
                _ => [self.st.false_(), self.st.false_()],
            };
            // Thread 1 logs (a nondeterministic choice among its accesses).
            let choice = self.st.fresh_const("log", Sort::Bool);
            let c1 = self.st.and(&[p[0], is1, choice]);
            let c1 = self.name(c1);
            let old = self.logs.objs[m][kind.index()].clone();
            let mut ghosts = old.ghosts.clone();
            for &l in &enclosing {
                let hp = self.func.blocks[self.loops.loops[l].header].params.clone();
                for (j, &pv) in hp.iter().enumerate() {
                    if let Some(&slot) = self.ghost_slot.get(&(l, j)) {
                        let cur = self.vals[0][&pv];
                        let cur = match cur {
                            Sym::Bool(x) | Sym::Bv(x) => x,
                            Sym::Ptr { off, .. } => off,
                        };
                        let g = self.st.ite(c1, cur, ghosts[slot]);
                        ghosts[slot] = self.name(g);
                    }
                }
            }
            let has = self.st.or(&[c1, old.has]);
            let off = self.st.ite(c1, o1, old.off);
            let wid = self.st.ite(c1, width[0], old.width);
            let st = self.st.ite(c1, site, old.site);
            let val = match value {
                Some(v) => {
                    let x = self.st.ite(c1, v[0], old.val);
                    self.name(x)
                }
                None => old.val,
            };
            // A logged read records whether thread 1's own latest write of
            // the object covers exactly its bytes, and what it wrote.
            let (val, own) = if kind == AccessKind::Read && !self.benign_sites.is_empty() {
                let mine = self.own[0][m].clone();
                let same_off = self.st.eq(mine.off, o1);
                let same_width = self.st.eq(mine.width, width[0]);
                let covered = self.st.and(&[mine.has, same_off, same_width]);
                let own = self.st.ite(c1, covered, old.own);
                let val = self.st.ite(c1, mine.val, old.val);
                (self.name(val), self.name(own))
            } else {
                (val, old.own)
            };
            let silent1 = if kind == AccessKind::Write {
                let s = self.st.ite(c1, silent[0], old.silent);
                self.name(s)
            } else {
                old.silent
            };
            let new = Log {
                has: self.name(has),
                off: self.name(off),
                width: self.name(wid),
                site: self.name(st),
                val,
                own,
                silent: silent1,
                ghosts,
            };
            self.logs.objs[m][kind.index()] = new;
            self.sites.push(Site {
                inst: i,
                tracked: m,
                kind,
                off1: o1,
                width1: width[0],
                val1: value.map(|v| v[0]),
                loops: enclosing.clone(),
            });

            // Thread 2 checks against thread 1's logs.
            if !self.config.only_divergence && self.config.races_checked_on(&obj.name) {
                self.check_access(oi, m, i, p, is2, o2, width[1], site, kind, value, silent[1])?;
            }

            if kind != AccessKind::Read {
                self.new_version(m);
            }

            // Each thread's latest write of the object (see `race::Own`):
            // a store that may be benign fills the slot, any other write
            // clears it. Without such stores nothing reads the slots.
            if kind != AccessKind::Read && !self.benign_sites.is_empty() {
                for (t, (is, off)) in [(is1, o1), (is2, o2)].into_iter().enumerate() {
                    let g = self.st.and(&[p[t], is]);
                    if self.st.as_bool(g) == Some(false) {
                        continue;
                    }
                    let old = self.own[t][m].clone();
                    let new = match (kind, value) {
                        (AccessKind::Write, Some(v)) => {
                            let has = self.st.or(&[g, old.has]);
                            let off = self.st.ite(g, off, old.off);
                            let width = self.st.ite(g, width[t], old.width);
                            let val = self.st.ite(g, v[t], old.val);
                            Own { has: self.name(has), off: self.name(off), width: self.name(width), val: self.name(val) }
                        }
                        _ => {
                            let ng = self.st.not(g);
                            let has = self.st.and(&[ng, old.has]);
                            Own { has: self.name(has), ..old }
                        }
                    };
                    self.own[t][m] = new;
                }
            }
        }
        Ok(())
    }

    /// Thread 2's access of kind `kind` at `i` (site `site`, offset `o2`,
    /// width `w2`, on object `oi` when `is2`; `value`: both threads' written
    /// values for a store that may be benign; `silent2`: thread 2's write
    /// leaves its bytes as they were, see `benign`) checked against thread
    /// 1's logs of tracked object `m`.
    #[allow(clippy::too_many_arguments)]
    fn check_access(
        &mut self,
        oi: usize,
        m: usize,
        i: InstId,
        p: [TermId; 2],
        is2: TermId,
        o2: TermId,
        w2: TermId,
        site: TermId,
        kind: AccessKind,
        value: Option<[TermId; 2]>,
        silent2: TermId,
    ) -> Res<()> {
        let obj = self.objects[oi].clone();
        let mut guard = vec![p[1], is2];
        if obj.space == MemSpace::Shared {
            guard.push(self.same_group);
        }
        for &k1 in kind.conflicts() {
            let log = self.logs.objs[m][k1.index()].clone();
            let exact_empty = !self.async_copies.memcopy_of.is_empty();
            let ov = overlap(&mut self.st, log.off, log.width, o2, w2, exact_empty);
            let mut all = guard.clone();
            all.push(log.has);
            all.push(ov);
            if let Some(w) = self.config.warp_size {
                // Warp-synchronous semantics (`--warp-sync`, SESA's
                // rule): threads of one warp execute in lockstep, so two
                // of them race only at the same instruction.
                let same_warp = self.same_warp(w);
                let same_site = self.st.eq(log.site, site);
                let apart = self.st.not(same_warp);
                all.push(self.st.or(&[apart, same_site]));
            }
            let same_off = self.st.eq(log.off, o2);
            let same_width = self.st.eq(log.width, w2);
            match (k1, kind, value) {
                (AccessKind::Write, AccessKind::Write, Some(v)) => {
                    // A benign race: the logged write also came from a
                    // benign-capable store and wrote the same value to the
                    // same bytes.
                    let from_benign = self.from_benign_site(log.site);
                    let same_val = self.st.eq(log.val, v[1]);
                    let benign = self.st.and(&[from_benign, same_off, same_width, same_val]);
                    all.push(self.st.not(benign));
                }
                (AccessKind::Write, AccessKind::Read, _) if !self.benign_sites.is_empty() => {
                    // A benign write-read race: thread 2's own latest write
                    // since its last barrier covers exactly the bytes it
                    // reads and wrote the value of the logged write, which
                    // came from a benign-capable store. Any other write of
                    // another value to those bytes races with thread 2's
                    // read too, so the read returns that value in every
                    // interleaving.
                    let from_benign = self.from_benign_site(log.site);
                    let mine = self.own[1][m].clone();
                    let own_off = self.st.eq(mine.off, o2);
                    let own_width = self.st.eq(mine.width, w2);
                    let same_val = self.st.eq(mine.val, log.val);
                    let own_value =
                        self.st.and(&[from_benign, same_off, same_width, mine.has, own_off, own_width, same_val]);
                    // Or the logged write left its bytes as they were.
                    let silent = self.st.and(&[from_benign, log.silent]);
                    let benign = self.st.or(&[own_value, silent]);
                    all.push(self.st.not(benign));
                }
                (AccessKind::Read, AccessKind::Write, Some(v)) => {
                    // The same benign race the other way round: thread 1's
                    // logged read came after its own write of exactly those
                    // bytes, of the value thread 2 writes.
                    let same_val = self.st.eq(log.val, v[1]);
                    let own_value = self.st.and(&[log.own, same_off, same_width, same_val]);
                    // Or thread 2's write leaves its bytes as they were.
                    let benign = self.st.or(&[own_value, silent2]);
                    all.push(self.st.not(benign));
                }
                _ => {}
            }
            let race = self.st.and(&all);
            let ok = self.st.not(race);
            let msg = format!("possible {}-{} race on `{}` ({})", k1.name(), kind.name(), obj.name, obj.space.name());
            self.oblige(
                ok,
                ObKind::Race { obj: oi, k1, k2: kind, off1: log.off, off2: o2, site1: log.site },
                Some(i),
                msg,
                None,
            );
        }
        Ok(())
    }

    /// Whether a logged write's `site` is a store that may take part in a
    /// benign race.
    fn from_benign_site(&mut self, site: TermId) -> TermId {
        let mut benign_sites: Vec<InstId> = self.benign_sites.iter().copied().collect();
        benign_sites.sort();
        let mut from_benign = Vec::new();
        for s in benign_sites {
            let id = self.st.bv_const(32, s.as_u32() as u128);
            from_benign.push(self.st.eq(site, id));
        }
        self.st.or(&from_benign)
    }

    /// `--check-array-bounds` (GPUVerify's meaning): an enabled thread's
    /// access to an array of statically known size lies within it. Memory
    /// behind pointer parameters has no known size and is not checked (the
    /// proof lists that as an assumption).
    fn bounds_check(&mut self, i: InstId, p: [TermId; 2], bases: [TermId; 2], offs: [TermId; 2], width: [TermId; 2]) {
        let mut conj = Vec::new();
        let mut names = Vec::new();
        for (oi, obj) in self.objects.clone().iter().enumerate() {
            let Some(size) = obj.size else { continue };
            let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
            let size = self.st.bv_const(64, size as u128);
            for t in 0..2 {
                let on = self.st.eq(bases[t], id);
                if self.st.as_bool(on) == Some(false) {
                    continue;
                }
                if !names.contains(&obj.name) {
                    names.push(obj.name.clone());
                }
                // `off + width <= size` without wrapping around.
                let fits_off = self.st.bvule(offs[t], size);
                let room = self.st.bvsub(size, offs[t]);
                let fits_width = self.st.bvule(width[t], room);
                let inside = self.st.and(&[fits_off, fits_width]);
                let guard = self.st.and(&[p[t], on]);
                conj.push(self.st.implies(guard, inside));
            }
        }
        if conj.is_empty() {
            return;
        }
        let ok = self.st.and(&conj);
        let what = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ");
        self.oblige(
            ok,
            ObKind::Annotation(ViolationKind::OutOfBounds),
            Some(i),
            format!("possible array out-of-bounds access on array {what}"),
            None,
        );
    }

    /// Whether the two threads are in the same warp of `size` threads: the
    /// same group, and the same quotient of their linear local ids (x
    /// fastest). Computed with exact multiplication (not the uninterpreted
    /// product of `mul`): an abstract product could put two threads of
    /// different warps in one, and hide their races.
    fn same_warp(&mut self, size: u32) -> TermId {
        let lin = [self.linear_local_id(0), self.linear_local_id(1)];
        let w = self.st.bv_const(64, size.max(1) as u128);
        let q1 = self.st.bvudiv(lin[0], w);
        let q2 = self.st.bvudiv(lin[1], w);
        let same = self.st.eq(q1, q2);
        self.st.and(&[self.same_group, same])
    }

    /// Thread `t`'s linear local id (x fastest), 64 bits wide, computed
    /// with exact multiplication.
    fn linear_local_id(&mut self, t: usize) -> TermId {
        let mut acc = self.st.bv_const(64, 0);
        for d in (0..3).rev() {
            let g = self.resize(self.gs[d], 64, false);
            let l = self.resize(self.lid[t][d], 64, false);
            let scaled = self.st.bvmul(acc, g);
            acc = self.st.bvadd(scaled, l);
        }
        acc
    }

    /// For each thread: "if the thread is enabled, its pointer base is not
    /// `object`" — the conjuncts of a memory-safety obligation.
    fn no_enabled_thread_on(&mut self, enabled: [TermId; 2], bases: [TermId; 2], object: TermId) -> Vec<TermId> {
        (0..2)
            .map(|t| {
                let on = self.st.eq(bases[t], object);
                let bad = self.st.and(&[enabled[t], on]);
                self.st.not(bad)
            })
            .collect()
    }

    /// An async copy is one operation of the group, made with the
    /// arguments of whichever work-item starts it; the `MemCopy` models it
    /// with the first work-item's. Both are right only when every
    /// work-item of the group passes the same destination, source and
    /// length (the interpreter's `NonUniformGroupCall`, a divergence of the
    /// group). The events are the same by construction (see
    /// `async_copy`).
    fn async_copy_uniform(&mut self, i: InstId, p: [TermId; 2], args: &[ValueId]) -> Res<()> {
        let at = self.loc(i);
        let Some(&m) = self.async_copies.memcopy_of.get(&i) else {
            return err("internal: an async copy without its data movement", at);
        };
        let InstKind::MemCopy { dst, src, .. } = self.func.insts[m].kind else {
            return err("internal: an async copy without its data movement", at);
        };
        let Some(&len) = args.get(2) else { return err("internal: an async copy without its length", at) };
        let mut same = Vec::new();
        for v in [dst, src] {
            let (a, c) = (self.val(0, v)?, self.val(1, v)?);
            same.push(self.eq_sym(a, c));
        }
        let (a, c) = (self.val_bv(0, len)?, self.val_bv(1, len)?);
        same.push(self.st.eq(a, c));
        let same = self.st.and(&same);
        let both = self.st.and(&[p[0], p[1], self.same_group]);
        let ok = self.st.implies(both, same);
        self.oblige(
            ok,
            ObKind::Divergence,
            Some(i),
            "possible non-uniform `async_work_group_copy`: the work-items of a group may pass different arguments".into(),
            None,
        );
        Ok(())
    }

    fn barrier(&mut self, i: InstId, p: [TermId; 2], scope: BarrierScope, fence: lockstep_kir::FenceFlags) {
        // Any barrier ends the interval in which a thread's own writes make
        // its reads of them benign (as in the interpreter and the finder).
        // Clearing the slots of a thread that does not execute the barrier
        // only forgets facts, which is sound.
        self.clear_own();
        let both = self.st.and(&[p[0], p[1]]);
        // The `MemCopy` sites of async copies that may still be in flight
        // here: the barrier does not end their accesses, so their logs stay.
        let flying: Vec<InstId> = self.async_copies.in_flight.get(&i).cloned().unwrap_or_default();
        match scope {
            BarrierScope::Warp => {
                // Without warp-synchronous semantics a warp barrier
                // synchronises nothing the two-thread model relies on.
            }
            BarrierScope::Group | BarrierScope::Grid => {
                let same = self.st.eq(p[0], p[1]);
                let cond = if scope == BarrierScope::Group { self.st.implies(self.same_group, same) } else { same };
                self.oblige(
                    cond,
                    ObKind::Divergence,
                    Some(i),
                    "possible barrier divergence: the threads of a group may not all reach this barrier".into(),
                    None,
                );
                // GPUVerify (seed chapter 4, "Barriers" and the KPL barrier
                // semantics of chapter 5): a barrier executed by both threads
                // clears the access logs of the memory spaces it fences;
                // threads of different groups are not synchronised by a group
                // barrier, so global logs are only cleared within a group.
                for (oi, obj) in self.objects.clone().iter().enumerate() {
                    let _ = oi;
                    let Some(m) = obj.tracked else { continue };
                    let fenced = match obj.space {
                        MemSpace::Shared => fence.shared || scope == BarrierScope::Grid,
                        _ => fence.global || scope == BarrierScope::Grid,
                    };
                    if !fenced {
                        continue;
                    }
                    let reset = if scope == BarrierScope::Group && obj.space != MemSpace::Shared {
                        self.st.and(&[both, self.same_group])
                    } else if scope == BarrierScope::Group {
                        // Thread 1's log of a shared object is cleared when it
                        // passes the barrier; with thread 2 in another group
                        // (which cannot race on this group's shared memory)
                        // that does not depend on thread 2.
                        let other_group = self.st.not(self.same_group);
                        let second = self.st.or(&[p[1], other_group]);
                        self.st.and(&[p[0], second])
                    } else {
                        both
                    };
                    let keep = self.st.not(reset);
                    for k in 0..3 {
                        let h = self.logs.objs[m][k].has;
                        let mut kept = keep;
                        if !flying.is_empty() {
                            let mut any = vec![keep];
                            for &s in &flying {
                                let id = self.st.bv_const(32, s.as_u32() as u128);
                                any.push(self.st.eq(self.logs.objs[m][k].site, id));
                            }
                            kept = self.st.or(&any);
                        }
                        let n = self.st.and(&[kept, h]);
                        self.logs.objs[m][k].has = self.name(n);
                    }
                }
            }
        }
    }

    // ----- annotations -----------------------------------------------------------

    fn annot(&mut self, b: BlockId, i: InstId, kind: AnnotKind, args: &[ValueId]) -> Res<()> {
        let at = self.loc(i);
        // Annotations the user asked to ignore: ignoring an assertion is what
        // was asked for, ignoring an assumption is sound.
        if self.config.no_annotations || (self.config.only_requires && kind != AnnotKind::Requires) {
            return Ok(());
        }
        let kind = match kind {
            AnnotKind::Invariant if self.config.invariants_as_candidates => AnnotKind::CandidateInvariant,
            AnnotKind::GlobalInvariant if self.config.invariants_as_candidates => AnnotKind::CandidateGlobalInvariant,
            other => other,
        };
        let p = self.preds[&b];
        let threads: Vec<usize> =
            if args.iter().any(|a| self.log_dependent.contains(a)) { vec![0] } else { vec![0, 1] };
        let from_kernel = self.origin.get(&i).is_none_or(|(f, _)| *f == self.kernel || Some(*f) == self.contract_of);
        let what = self.loc_text(at);
        match kind {
            AnnotKind::Assert | AnnotKind::Requires | AnnotKind::Ensures
                if kind != AnnotKind::Requires || !from_kernel =>
            {
                let (vk, msg) = if kind == AnnotKind::Assert {
                    (ViolationKind::Assertion, format!("assertion at {what} may fail"))
                } else if kind == AnnotKind::Ensures {
                    if !self.postconditions.contains(&i) {
                        return err("annotation `ensures` not supported yet", at);
                    }
                    (ViolationKind::Postcondition, format!("postcondition at {what} may not hold"))
                } else {
                    (ViolationKind::Precondition, format!("precondition at {what} may not hold"))
                };
                let mut conj = Vec::new();
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    conj.push(self.st.implies(p[t], c));
                }
                let ok = self.st.and(&conj);
                self.oblige(ok, ObKind::Annotation(vk), Some(i), msg, None);
            }
            AnnotKind::Assume | AnnotKind::Requires => {
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    let ok = self.st.implies(p[t], c);
                    self.assume(ok);
                }
            }
            AnnotKind::NoRead | AnnotKind::NoWrite => {
                let k = if kind == AnnotKind::NoRead { AccessKind::Read } else { AccessKind::Write };
                let has = self.log_has(0, args[0], k)?;
                let n = self.st.not(has);
                let ok = self.st.implies(p[0], n);
                self.oblige(
                    ok,
                    ObKind::Annotation(ViolationKind::Assertion),
                    Some(i),
                    format!("`__no_{}` at {what} may fail", k.name()),
                    None,
                );
            }
            AnnotKind::GlobalRequires | AnnotKind::GlobalAssert | AnnotKind::GlobalEnsures
                if kind != AnnotKind::GlobalRequires || !from_kernel =>
            {
                // A global assertion, a callee's global precondition
                // (GPUVerify's `__global_requires`) and a callee's global
                // postcondition (moved to its return by the inliner) must
                // hold for every thread, enabled or not.
                let (violation, message) = if kind == AnnotKind::GlobalAssert {
                    (ViolationKind::Assertion, format!("global assertion at {what} may fail"))
                } else if kind == AnnotKind::GlobalEnsures {
                    if !self.postconditions.contains(&i) {
                        return err("annotation `global_ensures` not supported yet", at);
                    }
                    (ViolationKind::Postcondition, format!("global postcondition at {what} may not hold"))
                } else {
                    (ViolationKind::Precondition, format!("global precondition at {what} may not hold"))
                };
                let mut conj = Vec::new();
                for &t in &threads {
                    conj.push(self.val_bool(t, args[0])?);
                }
                let ok = self.st.and(&conj);
                self.oblige(ok, ObKind::Annotation(violation), Some(i), message, None);
            }
            AnnotKind::GlobalRequires | AnnotKind::FreshArray => {
                // Dropping an assumption is sound: it only weakens the proof.
            }
            AnnotKind::FunctionWideInvariant | AnnotKind::FunctionWideCandidateInvariant
                if self.function_wide_placed =>
            {
                // Checked at the loop headers (see `function_wide`).
            }
            AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary => {
                // Checked and assumed at the next barrier (see `barrier_inv`).
                self.bi_annot(i, kind, args)?;
            }
            AnnotKind::Axiom => {
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    self.assume(c);
                }
            }
            AnnotKind::Invariant
            | AnnotKind::CandidateInvariant
            | AnnotKind::GlobalInvariant
            | AnnotKind::CandidateGlobalInvariant => {
                let global = matches!(kind, AnnotKind::GlobalInvariant | AnnotKind::CandidateGlobalInvariant);
                let candidate = matches!(kind, AnnotKind::CandidateInvariant | AnnotKind::CandidateGlobalInvariant);
                let l = match self.loops.by_header.get(&b) {
                    Some(&l) if self.region_stack.last() == Some(&l) => l,
                    _ => return err("loop invariant outside a loop header", at),
                };
                // A loop invariant holds for the threads that entered the
                // loop (their header values are frozen when they leave); a
                // global invariant holds for both threads unconditionally.
                let pe = self.loop_data[l].pe.expect("loop entry is set");
                let mut conj = Vec::new();
                for &t in &threads {
                    let c = self.val_bool(t, args[0])?;
                    conj.push(if global { c } else { self.st.implies(pe[t], c) });
                }
                let term = self.st.and(&conj);
                if !self.allowed(term, self.loop_data[l].mark) {
                    if candidate {
                        return Ok(());
                    }
                    return err("loop invariant that reads memory is not supported", at);
                }
                let text = format!("user invariant at {what}");
                self.loop_data[l].user.push((candidate, text, term, i));
            }
            other => return err(format!("annotation `{}` not supported yet", other.name()), at),
        }
        Ok(())
    }

    /// Whether thread 1 has a logged access of kind `k` to the object `ptr`
    /// points to (`__read`/`__write`).
    fn log_has(&mut self, t: usize, ptr: ValueId, k: AccessKind) -> Res<TermId> {
        let Sym::Ptr { base, .. } = self.val(t, ptr)? else { return err("`__read`/`__write` of a non-pointer", None) };
        let mut opts = Vec::new();
        for (oi, obj) in self.objects.clone().iter().enumerate() {
            let Some(m) = obj.tracked else { continue };
            let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
            let is = self.st.eq(base, id);
            let h = self.logs.objs[m][k.index()].has;
            opts.push(self.st.and(&[is, h]));
        }
        Ok(self.st.or(&opts))
    }

    fn annot_value(&mut self, t: usize, b: BlockId, f: AnnotFn, args: &[ValueId], rty: Type, at: Option<SrcLoc>) -> Res<Sym> {
        let o = 1 - t;
        Ok(match f {
            AnnotFn::Enabled => Sym::Bool(self.preds[&b][t]),
            AnnotFn::SameGroup => Sym::Bool(self.same_group),
            AnnotFn::OtherInt | AnnotFn::OtherBool | AnnotFn::OtherPtr => {
                let s = self.val(o, args[0])?;
                match (s, rty) {
                    (Sym::Bv(x), Type::Int(1)) => Sym::Bool(self.as_bool(Sym::Bv(x))),
                    (Sym::Bool(x), Type::Int(w)) if w > 1 => {
                        let b = self.as_bv(Sym::Bool(x));
                        Sym::Bv(self.resize(b, w as u32, false))
                    }
                    _ => s,
                }
            }
            AnnotFn::UniformInt | AnnotFn::UniformBool | AnnotFn::DistinctInt | AnnotFn::DistinctBool => {
                let a = self.val(0, args[0])?;
                let c = self.val(1, args[0])?;
                let e = self.eq_sym(a, c);
                let r = if matches!(f, AnnotFn::DistinctInt | AnnotFn::DistinctBool) { self.st.not(e) } else { e };
                self.bool_result(r, rty)
            }
            AnnotFn::Implies => {
                let a = self.val_bool(t, args[0])?;
                let c = self.val_bool(t, args[1])?;
                let r = self.st.implies(a, c);
                self.bool_result(r, rty)
            }
            AnnotFn::Read | AnnotFn::Write => {
                let k = if f == AnnotFn::Read { AccessKind::Read } else { AccessKind::Write };
                let r = self.log_has(0, args[0], k)?;
                self.bool_result(r, rty)
            }
            AnnotFn::ReadOffset | AnnotFn::WriteOffset => {
                let k = if f == AnnotFn::ReadOffset { AccessKind::Read } else { AccessKind::Write };
                let Sym::Ptr { base, .. } = self.val(0, args[0])? else {
                    return err("offset annotation of a non-pointer", at);
                };
                let mut acc = self.st.bv_const(64, 0);
                for (oi, obj) in self.objects.clone().iter().enumerate() {
                    let Some(m) = obj.tracked else { continue };
                    let id = self.st.bv_const(BASE_BITS, oi as u128 + 1);
                    let is = self.st.eq(base, id);
                    acc = self.st.ite(is, self.logs.objs[m][k.index()].off, acc);
                }
                Sym::Bv(self.resize(acc, rty.bits(), false))
            }
            AnnotFn::PtrBase | AnnotFn::PtrOffset => {
                let Sym::Ptr { base, off } = self.val(t, args[0])? else {
                    return err("pointer annotation of a non-pointer", at);
                };
                let x = if f == AnnotFn::PtrBase { base } else { off };
                Sym::Bv(self.resize(x, rty.bits(), false))
            }
            other => return err(format!("annotation `{}` not supported yet", other.name()), at),
        })
    }

    fn bool_result(&mut self, r: TermId, rty: Type) -> Sym {
        match rty {
            Type::Int(1) => Sym::Bool(r),
            Type::Int(w) => {
                let one = self.st.bv_const(w as u32, 1);
                let zero = self.st.bv_const(w as u32, 0);
                Sym::Bv(self.st.ite(r, one, zero))
            }
            _ => Sym::Bool(r),
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

/// Whether a pointer of static space `ptr` may point to an object of space
/// `obj`.
pub fn space_compatible(ptr: MemSpace, obj: MemSpace) -> bool {
    ptr == MemSpace::Generic || obj == MemSpace::Generic || ptr == obj
}

/// The sort of a loaded scalar (`None` for a pointer, whose value is not
/// one term).
pub(crate) fn scalar_sort(ty: Type) -> Option<Sort> {
    match ty {
        Type::Ptr(_) => None,
        Type::Int(1) => Some(Sort::Bool),
        Type::Int(w) | Type::Float(w) => Some(Sort::bv(w as u32)),
    }
}
