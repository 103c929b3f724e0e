//! Symbolic execution of one thread over the unrolled DAG.
//!
//! Each node of the DAG gets a *state*: the thread's path condition, the SSA
//! environment, its view of every memory object (an SMT array from bv64
//! byte addresses to bytes), the log of its writes in the current barrier
//! interval, and its barrier counts. At a join the predecessors' states are
//! merged with `ite` on the absolute conditions of the incoming edges, so the
//! encoding is linear in the size of the DAG rather than in the number of
//! paths.
//!
//! Memory model: global objects start from one initial array shared by both
//! threads (their contents are the witness's input memory); shared and
//! private objects start from a fresh array per thread. At a group barrier
//! other threads may have written shared and global memory, so the thread's
//! view of those objects becomes a fresh array on which the thread's own
//! writes since the previous barrier are replayed. This approximates what the
//! other threads wrote by "anything", which may produce witnesses the replay
//! rejects, but never hides a thread's own writes from itself.
//!
//! What the thread records for the checks: every memory access (for races),
//! every barrier it passes (for divergence), every place where its path was
//! cut (unwinding bound, `unreachable`), every loaded global byte range (for
//! witnesses), and, for the first thread only, the conditions under which a
//! property fails.

use std::collections::HashMap;

use lockstep_diag::ViolationKind;
use lockstep_kir::{
    AnnotFn, AnnotKind, AtomicOp, BarrierScope, BinOp, BlockId, BuiltinVar, CastOp, Function, InstId, InstKind,
    IntCC, MemSpace, Terminator, Type, ValueDef, ValueId, WarpOp,
};
use lockstep_smt::{Sort, TermId};

use crate::objects::Objects;
use crate::relevance::Relevance;
use crate::terms::{Terms, Val, OBJ_BITS};
use crate::unroll::{Target, Unrolled};

/// The launch-wide symbols both threads share.
pub struct Launch {
    pub group_size: [TermId; 3],
    pub num_groups: [TermId; 3],
    /// `get_global_offset` in each dimension (`FindConfig::global_offset`).
    pub global_offset: [TermId; 3],
    pub same_group: TermId,
    /// The value of each kernel parameter (pointer parameters point to their
    /// own object at offset 0).
    pub args: Vec<Val>,
    /// The initial array of every global and constant object, by object
    /// number (index 0 unused).
    pub init: Vec<Option<TermId>>,
}

/// One thread's identifiers.
#[derive(Copy, Clone, Debug)]
pub struct ThreadIds {
    pub local: [TermId; 3],
    pub group: [TermId; 3],
}

/// A memory access by one thread.
#[derive(Clone, Debug)]
pub struct Access {
    pub inst: InstId,
    pub pc: TermId,
    /// The objects it may touch, each with the condition that it does.
    pub objs: Vec<(u16, TermId)>,
    pub off: TermId,
    /// The length in bytes (bv64).
    pub len: TermId,
    pub write: bool,
    pub atomic: bool,
    /// Barriers (group and grid) passed before the access.
    pub count: TermId,
    /// Grid barriers passed before the access.
    pub grid_count: TermId,
    /// Group barriers that order shared (resp. global) memory passed before
    /// the access: a barrier whose flags do not fence a space does not
    /// separate accesses to it.
    pub shared_count: TermId,
    pub global_count: TermId,
    /// For a store, the bits written (`len` bytes): a write-write conflict
    /// that writes the same value at the same place is benign.
    pub value: Option<TermId>,
    /// For a plain read: the condition that the thread itself wrote every
    /// byte of it since its last barrier, with stores whose values may be
    /// benign (`value` above), and the bits those writes left. A store of
    /// the same bits at the same place by the other thread is a benign
    /// write-read race (see `lockstep_replay`'s `races`).
    pub own: Option<(TermId, TermId)>,
    /// For a store under the equality abstraction: the condition that it
    /// leaves its bytes as the thread found them (it writes back what it
    /// read there), so that it races with no read.
    pub silent: Option<TermId>,
    /// For an atomic read-modify-write that changes the value it reads
    /// (add, sub, increment, decrement, exchange), the value it returned and
    /// the condition under which it changes it.
    pub atomic_old: Option<(TermId, TermId)>,
    /// An atomic that is atomic only among its own block's threads
    /// (`atomicAdd_block`): it races with another block's atomics.
    pub block_scoped: bool,
}

/// A barrier the thread passes.
#[derive(Clone, Debug)]
pub struct BarrierEvent {
    pub inst: InstId,
    pub node: usize,
    pub pc: TermId,
    /// Barriers passed before this one.
    pub count: TermId,
}

/// Which warp operations lanes may meet at: since Volta, lanes waiting at
/// two different `__syncwarp`s (or two sites of one kind of vote or
/// shuffle) meet, so a lane a mask names takes part when it reaches any
/// site of the same family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpFamily {
    Barrier,
    Shuffle,
    Vote,
    Match,
}

impl WarpFamily {
    /// The family of a warp operation with a member mask (`None`:
    /// `__activemask`, `__lanemask`, which name no lanes to wait for).
    pub fn of(op: WarpOp) -> Option<WarpFamily> {
        match op {
            WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => Some(WarpFamily::Shuffle),
            WarpOp::Ballot | WarpOp::Any | WarpOp::All => Some(WarpFamily::Vote),
            WarpOp::MatchAny => Some(WarpFamily::Match),
            WarpOp::ActiveMask | WarpOp::LaneId => None,
        }
    }
}

/// A warp operation with a member mask, as a thread's path reaches it.
#[derive(Clone, Debug)]
pub struct WarpEvent {
    pub inst: InstId,
    pub family: WarpFamily,
    pub pc: TermId,
    /// The 32-bit member mask (`None`: every lane, `__syncwarp()`).
    pub mask: Option<TermId>,
}

/// A place where the thread's path was cut.
#[derive(Clone, Debug)]
pub struct Cut {
    pub pc: TermId,
    pub count: TermId,
    /// True for the unwinding bound (as opposed to `unreachable`).
    pub bound: bool,
}

/// A read of a global object, for the witness's initial memory.
#[derive(Clone, Debug)]
pub struct LoadRec {
    pub obj: u16,
    pub cond: TermId,
    pub off: TermId,
    pub len: u64,
}

/// A property that fails when `cond` holds.
#[derive(Clone, Debug)]
pub struct Check {
    pub kind: ViolationKind,
    pub inst: InstId,
    pub message: String,
    pub cond: TermId,
}

/// Everything one thread's execution produced.
#[derive(Default, Debug)]
pub struct Trace {
    pub accesses: Vec<Access>,
    pub barriers: Vec<BarrierEvent>,
    pub warp_ops: Vec<WarpEvent>,
    pub cuts: Vec<Cut>,
    pub loads: Vec<LoadRec>,
    pub checks: Vec<Check>,
    pub notes: Vec<String>,
}

#[derive(Clone)]
struct State {
    pc: TermId,
    env: HashMap<ValueId, Val>,
    views: Vec<TermId>,
    /// Per object, the thread's writes since its last barrier (indices into
    /// `Exec::own_log`, in program order), for `Access::own`.
    owns: Vec<Vec<u32>>,
    /// Barriers of any scope (warp barriers too) passed: an own write
    /// counts only for reads with the same number, even where paths that
    /// passed a barrier and paths that did not merge.
    sync: TermId,
    logs: Vec<Vec<u32>>,
    count: TermId,
    grid_count: TermId,
    shared_count: TermId,
    global_count: TermId,
}

/// One byte written in the current barrier interval.
struct LogEntry {
    guard: TermId,
    addr: TermId,
    byte: TermId,
}

/// One write of the thread, for `Access::own`.
struct OwnEntry {
    /// The write happened on this object.
    guard: TermId,
    /// `State::sync` at the write.
    sync: TermId,
    off: TermId,
    /// bv64 length in bytes.
    len: TermId,
    /// The bits written, for a store whose value may be benign.
    bits: Option<TermId>,
}

/// What the executor needs to know beyond the function.
pub struct Setup<'a> {
    pub func: &'a Function,
    /// The stores the interpreter treats as value-tracked (see
    /// `lockstep_analysis::ghost::value_tracked_stores`): their writes of
    /// equal values do not race.
    pub value_tracked: &'a std::collections::HashSet<InstId>,
    pub dag: &'a Unrolled,
    pub objs: &'a Objects,
    pub rel: &'a Relevance,
    pub launch: &'a Launch,
    pub check_overflow: bool,
    pub warp_size: u32,
    /// See `FindConfig::equality_abstraction`.
    pub equality_abstraction: bool,
}

pub struct Exec<'a, 'b> {
    s: &'b Setup<'a>,
    t: &'b mut Terms,
    ids: ThreadIds,
    tag: &'static str,
    /// Whether to record property checks (done for the first thread only:
    /// the threads are symmetric).
    record_checks: bool,
    log: Vec<LogEntry>,
    own_log: Vec<OwnEntry>,
    trace: Trace,
    /// Whether reads record `Access::own`: only kernels with a store whose
    /// value may be benign can have benign write-read races.
    track_own: bool,
}

fn is_havocked(space: MemSpace) -> bool {
    matches!(space, MemSpace::Shared | MemSpace::Global)
}

impl<'a, 'b> Exec<'a, 'b> {
    pub fn new(s: &'b Setup<'a>, t: &'b mut Terms, ids: ThreadIds, tag: &'static str, record_checks: bool) -> Self {
        let func = s.func;
        let track_own = func.insts.iter().any(|(i, d)| {
            matches!(d.kind, InstKind::Store { value, .. } if !s.rel.is_from_memory(value) || s.value_tracked.contains(&i))
        });
        Exec { s, t, ids, tag, record_checks, log: Vec::new(), own_log: Vec::new(), trace: Trace::default(), track_own }
    }

    /// Executes the whole DAG and returns the thread's trace.
    pub fn run(mut self) -> Trace {
        let dag = self.s.dag;
        let n = dag.nodes.len();
        // The state at the end of each node and, per successor slot, the
        // edge condition and the arguments passed.
        let mut ends: Vec<Option<(State, Vec<(TermId, Vec<Val>)>)>> = (0..n).map(|_| None).collect();
        for &node in &dag.order {
            let state = if node == 0 {
                Some(self.initial_state())
            } else {
                self.merge(node, &ends)
            };
            let Some(mut state) = state else { continue };
            let block = dag.nodes[node].block;
            for &inst in &self.s.func.blocks[block].insts {
                self.exec_inst(&mut state, inst, node);
            }
            let slots = self.exec_term(&state, block, node);
            ends[node] = Some((state, slots));
        }
        self.trace
    }

    fn initial_state(&mut self) -> State {
        let objs = self.s.objs;
        let arr_sort = Sort::array(Sort::bv(64), Sort::bv(8));
        let mut views = vec![self.t.bv(1, 0)];
        for id in objs.ids() {
            let view = match self.s.launch.init[id as usize] {
                Some(a) => a,
                None => {
                    let name = format!("{}_mem{}", self.tag, id);
                    self.t.st.fresh_const(&name, arr_sort.clone())
                }
            };
            views.push(view);
        }
        let zero = self.t.bv(32, 0);
        State {
            pc: self.t.tt(),
            env: HashMap::new(),
            views,
            owns: vec![Vec::new(); objs.objs.len() + 1],
            sync: zero,
            logs: vec![Vec::new(); objs.objs.len() + 1],
            count: zero,
            grid_count: zero,
            shared_count: zero,
            global_count: zero,
        }
    }

    /// Merges the states flowing into `node`; `None` if no edge reaches it.
    fn merge(&mut self, node: usize, ends: &[Option<(State, Vec<(TermId, Vec<Val>)>)>]) -> Option<State> {
        let mut incoming: Vec<(TermId, &State, &Vec<Val>)> = Vec::new();
        for &(p, slot) in &self.s.dag.preds[node] {
            if let Some((st, slots)) = &ends[p] {
                let (cond, args) = &slots[slot];
                if !self.t.is_false(*cond) {
                    incoming.push((*cond, st, args));
                }
            }
        }
        if incoming.is_empty() {
            return None;
        }
        let params = self.s.func.blocks[self.s.dag.nodes[node].block].params.clone();
        if incoming.len() == 1 {
            let (cond, st, args) = incoming[0];
            let mut state = st.clone();
            state.pc = cond;
            for (p, a) in params.iter().zip(args.iter()) {
                state.env.insert(*p, *a);
            }
            return Some(state);
        }
        let conds: Vec<TermId> = incoming.iter().map(|i| i.0).collect();
        let pc = self.t.st.or(&conds);
        let pc = self.t.name(pc);

        // Values: an ite chain over the incoming edges (the last edge is the
        // default, since exactly one edge is taken when `pc` holds).
        let first = incoming[0].1;
        let mut env = HashMap::with_capacity(first.env.len());
        // In value order, not the map's: the merged terms get their names
        // (and the solver its declarations) in the order they are made, and
        // z3's models depend on that order, so a witness would change from
        // run to run.
        let mut merged_values: Vec<(ValueId, Val)> = first.env.iter().map(|(&k, &v)| (k, v)).collect();
        merged_values.sort_unstable_by_key(|&(k, _)| k);
        for (k, v0) in merged_values {
            let mut vals = Vec::with_capacity(incoming.len());
            vals.push(v0);
            for (_, st, _) in &incoming[1..] {
                match st.env.get(&k) {
                    Some(&v) => vals.push(v),
                    None => break,
                }
            }
            if vals.len() != incoming.len() {
                continue;
            }
            let merged = self.ite_chain_val(&conds, &vals);
            env.insert(k, merged);
        }
        for (i, &p) in params.iter().enumerate() {
            let vals: Vec<Val> = incoming.iter().map(|(_, _, args)| args[i]).collect();
            let merged = self.ite_chain_val(&conds, &vals);
            env.insert(p, merged);
        }
        let mut views = Vec::with_capacity(first.views.len());
        for o in 0..first.views.len() {
            let terms: Vec<TermId> = incoming.iter().map(|(_, st, _)| st.views[o]).collect();
            views.push(self.ite_chain(&conds, &terms));
        }
        let owns = (0..first.owns.len()).map(|o| union(incoming.iter().map(|(_, st, _)| &st.owns[o]))).collect();
        let syncs: Vec<TermId> = incoming.iter().map(|(_, st, _)| st.sync).collect();
        let sync = self.ite_chain(&conds, &syncs);
        let logs = (0..first.logs.len()).map(|o| union(incoming.iter().map(|(_, st, _)| &st.logs[o]))).collect();
        let counts: Vec<TermId> = incoming.iter().map(|(_, st, _)| st.count).collect();
        let count = self.ite_chain(&conds, &counts);
        let grids: Vec<TermId> = incoming.iter().map(|(_, st, _)| st.grid_count).collect();
        let grid_count = self.ite_chain(&conds, &grids);
        let shareds: Vec<TermId> = incoming.iter().map(|(_, st, _)| st.shared_count).collect();
        let shared_count = self.ite_chain(&conds, &shareds);
        let globals: Vec<TermId> = incoming.iter().map(|(_, st, _)| st.global_count).collect();
        let global_count = self.ite_chain(&conds, &globals);
        Some(State { pc, env, views, owns, sync, logs, count, grid_count, shared_count, global_count })
    }

    fn ite_chain(&mut self, conds: &[TermId], terms: &[TermId]) -> TermId {
        if terms.iter().all(|&t| t == terms[0]) {
            return terms[0];
        }
        let mut acc = *terms.last().unwrap();
        for i in (0..terms.len() - 1).rev() {
            acc = self.t.st.ite(conds[i], terms[i], acc);
        }
        self.t.name(acc)
    }

    fn ite_chain_val(&mut self, conds: &[TermId], vals: &[Val]) -> Val {
        if vals.iter().all(|&v| v == vals[0]) {
            return vals[0];
        }
        let mut acc = *vals.last().unwrap();
        for i in (0..vals.len() - 1).rev() {
            acc = self.t.ite_val(conds[i], vals[i], acc);
        }
        self.t.name_val(acc)
    }

    // ----- values -----------------------------------------------------------

    fn zero(&mut self, ty: Type) -> Val {
        match ty {
            Type::Int(1) => Val::B(self.t.ff()),
            Type::Int(w) | Type::Float(w) => Val::V(self.t.bv(w as u32, 0)),
            Type::Ptr(_) => {
                let b = self.t.bv(OBJ_BITS, 0);
                let o = self.t.bv(64, 0);
                Val::P(b, o)
            }
        }
    }

    fn fresh(&mut self, ty: Type, what: &str) -> Val {
        let name = format!("{}_{}", self.tag, what);
        match ty {
            Type::Int(1) => Val::B(self.t.st.fresh_const(&name, Sort::Bool)),
            Type::Int(w) | Type::Float(w) => Val::V(self.t.st.fresh_const(&name, Sort::bv(w as u32))),
            Type::Ptr(_) => {
                let b = self.t.st.fresh_const(&name, Sort::bv(OBJ_BITS));
                let o = self.t.st.fresh_const(&name, Sort::bv(64));
                Val::P(b, o)
            }
        }
    }

    fn get(&mut self, st: &State, v: ValueId) -> Val {
        let data = &self.s.func.values[v];
        let ty = data.ty;
        match &data.def {
            ValueDef::Const(c) => match ty {
                Type::Int(1) => Val::B(self.t.st.bool_const(c & 1 == 1)),
                Type::Int(w) | Type::Float(w) => Val::V(self.t.bv(w as u32, *c)),
                Type::Ptr(_) => {
                    let b = self.t.bv(OBJ_BITS, 0);
                    let o = self.t.bv(64, *c);
                    Val::P(b, o)
                }
            },
            ValueDef::Param(i) => self.s.launch.args[*i as usize],
            ValueDef::GlobalAddr(g) => self.obj_ptr(crate::objects::MemRef::Global(*g)),
            ValueDef::LocalAddr(l) => self.obj_ptr(crate::objects::MemRef::Local(*l)),
            ValueDef::Null => self.zero(Type::Ptr(MemSpace::Generic)),
            ValueDef::Undef => self.fresh(ty, "undef"),
            ValueDef::Inst(_) | ValueDef::BlockParam(..) => match st.env.get(&v) {
                Some(&x) => x,
                // Irrelevant values are not computed; any value will do.
                None => self.zero(ty),
            },
        }
    }

    fn obj_ptr(&mut self, mem: crate::objects::MemRef) -> Val {
        let id = self.s.objs.id_of(mem);
        let b = self.t.bv(OBJ_BITS, id as u128);
        let o = self.t.bv(64, 0);
        Val::P(b, o)
    }

    /// The bits of a value (Booleans as 1 bit, pointers as 64).
    fn bits(&mut self, v: Val) -> TermId {
        match v {
            Val::B(b) => self.t.bool_to_bv(b),
            Val::V(t) => t,
            Val::P(b, o) => self.t.encode_ptr(b, o),
        }
    }

    fn from_bits(&mut self, ty: Type, bits: TermId) -> Val {
        match ty {
            Type::Int(1) => Val::B(self.t.bv_to_bool(bits)),
            Type::Int(w) | Type::Float(w) => Val::V(self.t.resize(bits, w as u32)),
            Type::Ptr(_) => {
                let b = self.t.resize(bits, 64);
                self.t.decode_ptr(b)
            }
        }
    }

    fn as_bool(&mut self, v: Val) -> TermId {
        match v {
            Val::B(b) => b,
            Val::V(t) => self.t.bv_to_bool(t),
            Val::P(b, _) => {
                let z = self.t.bv(OBJ_BITS, 0);
                let e = self.t.st.eq(b, z);
                self.t.st.not(e)
            }
        }
    }

    fn bv_of(&mut self, v: Val) -> TermId {
        self.bits(v)
    }

    fn sort_of(ty: Type) -> Sort {
        match ty {
            Type::Int(1) => Sort::Bool,
            Type::Int(w) | Type::Float(w) => Sort::bv(w as u32),
            Type::Ptr(_) => Sort::bv(64),
        }
    }

    fn linear_local_id(&mut self) -> TermId {
        let [x, y, z] = self.ids.local;
        let [sx, sy, _] = self.s.launch.group_size;
        let sxy = self.t.st.bvmul(sx, sy);
        let a = self.t.st.bvmul(y, sx);
        let b = self.t.st.bvmul(z, sxy);
        let s = self.t.st.bvadd(x, a);
        self.t.st.bvadd(s, b)
    }

    fn check(&mut self, kind: ViolationKind, inst: InstId, message: String, cond: TermId) {
        if self.record_checks && !self.t.is_false(cond) {
            self.trace.checks.push(Check { kind, inst, message, cond });
        }
    }

    /// Records the warp operation `inst` (a `__syncwarp`, vote, shuffle or
    /// match, with its member mask) where this path reaches it, for the
    /// check that every lane a mask names takes part (`query`).
    fn record_warp_event(&mut self, st: &mut State, inst: InstId) {
        let (family, mask) = match &self.s.func.insts[inst].kind {
            InstKind::Barrier { scope: BarrierScope::Warp, mask, .. } => (WarpFamily::Barrier, *mask),
            InstKind::Warp { op, args } => match (WarpFamily::of(*op), args.first()) {
                (Some(f), Some(&m)) => (f, Some(m)),
                _ => return,
            },
            _ => return,
        };
        let mask = match mask {
            Some(m) => match self.get(st, m) {
                Val::V(bits) => Some(self.t.resize(bits, 32)),
                // A mask the search does not model: no event, so no check.
                _ => return,
            },
            None => None,
        };
        self.trace.warp_ops.push(WarpEvent { inst, family, pc: st.pc, mask });
    }

    // ----- instructions -----------------------------------------------------

    fn exec_inst(&mut self, st: &mut State, inst: InstId, node: usize) {
        let func = self.s.func;
        let data = &func.insts[inst];
        let result = data.result;
        let relevant = result.is_some_and(|r| self.s.rel.is_relevant(r));
        let rty = result.map(|r| func.values[r].ty);
        self.record_warp_event(st, inst);
        let value: Option<Val> = match &data.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let a = self.get(st, *lhs);
                let b = self.get(st, *rhs);
                self.binary_checks(st, inst, *op, a, b);
                if relevant {
                    self.assume_no_wrap(st, inst, *op, a, b);
                    Some(self.binary(*op, a, b))
                } else {
                    None
                }
            }
            InstKind::Icmp { cc, lhs, rhs } if relevant => {
                let a = self.get(st, *lhs);
                let b = self.get(st, *rhs);
                Some(Val::B(self.icmp(*cc, a, b)))
            }
            InstKind::Select { cond, then_value, else_value } if relevant => {
                let c = self.get(st, *cond);
                let c = self.as_bool(c);
                let a = self.get(st, *then_value);
                let b = self.get(st, *else_value);
                Some(self.t.ite_val(c, a, b))
            }
            InstKind::Cast { op, arg } if relevant => {
                let a = self.get(st, *arg);
                let from = func.values[*arg].ty;
                Some(self.cast(*op, a, from, rty.unwrap()))
            }
            InstKind::Float { op, args } if relevant => {
                let bits: Vec<TermId> = args.iter().map(|&a| { let v = self.get(st, a); self.bits(v) }).collect();
                let ty = rty.unwrap();
                let t = self.t.uf(op.name(), &bits, Self::sort_of(ty));
                Some(self.from_sort_term(ty, t))
            }
            InstKind::Fcmp { cc, lhs, rhs } if relevant => {
                let a = self.get(st, *lhs);
                let a = self.bits(a);
                let b = self.get(st, *rhs);
                let b = self.bits(b);
                Some(Val::B(self.t.uf(&format!("fcmp_{}", cc.name()), &[a, b], Sort::Bool)))
            }
            InstKind::PtrAdd { base, offset } if relevant => {
                let p = self.get(st, *base);
                let d = self.get(st, *offset);
                let d = self.bv_of(d);
                let d = self.t.resize(d, 64);
                match p {
                    Val::P(b, o) => Some(Val::P(b, self.t.st.bvadd(o, d))),
                    other => Some(other),
                }
            }
            InstKind::Load { ptr, .. } => {
                let ty = rty.unwrap();
                let p = self.get(st, *ptr);
                let space = self.ptr_space(*ptr);
                let len = ty.store_size();
                let before = self.trace.accesses.len();
                let (cands, off) = self.access(st, inst, p, space, len, false, false);
                if self.track_own {
                    if let Some(own) = self.own_bits(st, &cands, off, len) {
                        if let Some(a) = self.trace.accesses.get_mut(before) {
                            a.own = Some(own);
                        }
                    }
                }
                if relevant && self.s.rel.memory {
                    let bits = self.read(st, &cands, off, len);
                    Some(self.from_bits(ty, bits))
                } else {
                    None
                }
            }
            InstKind::Store { ptr, value, .. } => {
                let v = self.get(st, *value);
                let ty = func.values[*value].ty;
                let p = self.get(st, *ptr);
                let space = self.ptr_space(*ptr);
                let len = ty.store_size();
                let before = self.trace.accesses.len();
                let (cands, off) = self.access(st, inst, p, space, len, true, false);
                let bits = self.bits(v);
                let bits = self.t.resize(bits, (len * 8) as u32);
                let bits = self.t.name(bits);
                let benign = self.s.equality_abstraction
                    || !self.s.rel.is_from_memory(*value)
                    || self.s.value_tracked.contains(&inst);
                // What the thread finds at those bytes before the write.
                let silent = if self.s.equality_abstraction && self.s.rel.memory {
                    let found = self.read(st, &cands, off, len);
                    Some(self.t.st.eq(found, bits))
                } else {
                    None
                };
                if benign {
                    if let Some(a) = self.trace.accesses.get_mut(before) {
                        a.value = Some(bits);
                        a.silent = silent;
                    }
                }
                let l = self.t.bv(64, len as u128);
                self.own_write(st, &cands, off, l, benign.then_some(bits));
                if self.s.rel.memory {
                    self.write(st, &cands, off, len, bits);
                }
                None
            }
            InstKind::Atomic { op, ptr, value, scope } => {
                let v = self.get(st, *value);
                let ty = func.values[*value].ty;
                let p = self.get(st, *ptr);
                let space = self.ptr_space(*ptr);
                let len = ty.store_size();
                let before = self.trace.accesses.len();
                let (cands, off) = self.access(st, inst, p, space, len, true, true);
                self.mark_scope(before, *scope);
                let l = self.t.bv(64, len as u128);
                self.own_write(st, &cands, off, l, None);
                // Other threads' atomics on shared and global memory may come
                // first, so the value read is arbitrary; two threads' updates
                // that change the value see different old values (recorded
                // for the race checks).
                let shareable = cands.iter().any(|&(o, _)| is_havocked(self.s.objs.get(o).space));
                let vb = self.bits(v);
                let vb = self.t.resize(vb, (len * 8) as u32);
                let old = if shareable {
                    let ty = Type::Int((len * 8) as u16);
                    match self.fresh(ty, "atomic_old") {
                        Val::V(t) => t,
                        _ => unreachable!(),
                    }
                } else {
                    self.read(st, &cands, off, len)
                };
                let changes = match op {
                    AtomicOp::Add | AtomicOp::Sub => {
                        let zero = self.t.bv((len * 8) as u32, 0);
                        let z = self.t.st.eq(vb, zero);
                        Some(self.t.st.not(z))
                    }
                    AtomicOp::UIncWrap | AtomicOp::UDecWrap => {
                        let zero = self.t.bv((len * 8) as u32, 0);
                        let z = self.t.st.eq(vb, zero);
                        Some(self.t.st.not(z))
                    }
                    _ => None,
                };
                if let (true, Some(c), Some(a)) = (shareable, changes, self.trace.accesses.get_mut(before)) {
                    a.atomic_old = Some((old, c));
                }
                if self.s.rel.memory {
                    let new = self.atomic_op(*op, old, vb);
                    let new = self.t.name(new);
                    self.write(st, &cands, off, len, new);
                    Some(self.from_bits(rty.unwrap_or(ty), old))
                } else {
                    None
                }
            }
            InstKind::CmpXchg { ptr, expected, new, scope } => {
                let e = self.get(st, *expected);
                let nv = self.get(st, *new);
                let ty = func.values[*expected].ty;
                let p = self.get(st, *ptr);
                let space = self.ptr_space(*ptr);
                let len = ty.store_size();
                let before = self.trace.accesses.len();
                let (cands, off) = self.access(st, inst, p, space, len, true, true);
                self.mark_scope(before, *scope);
                let l = self.t.bv(64, len as u128);
                self.own_write(st, &cands, off, l, None);
                if self.s.rel.memory {
                    let old = self.read(st, &cands, off, len);
                    let eb = self.bits(e);
                    let eb = self.t.resize(eb, (len * 8) as u32);
                    let nb = self.bits(nv);
                    let nb = self.t.resize(nb, (len * 8) as u32);
                    let same = self.t.st.eq(old, eb);
                    let stored = self.t.st.ite(same, nb, old);
                    let stored = self.t.name(stored);
                    self.write(st, &cands, off, len, stored);
                    Some(self.from_bits(rty.unwrap_or(ty), old))
                } else {
                    None
                }
            }
            InstKind::MemCopy { dst, src, len } => {
                let l = self.get(st, *len);
                let l = self.bv_of(l);
                let l = self.t.resize(l, 64);
                let sp = self.get(st, *src);
                let dp = self.get(st, *dst);
                let (scands, soff) = self.access_len(st, inst, sp, self.ptr_space(*src), l, false, false);
                let (dcands, doff) = self.access_len(st, inst, dp, self.ptr_space(*dst), l, true, false);
                self.own_write(st, &dcands, doff, l, None);
                if self.s.rel.memory {
                    match self.t.st.as_bv(l).and_then(|b| b.to_u64()) {
                        Some(n) if n <= 64 => {
                            if n > 0 {
                                let bits = self.read(st, &scands, soff, n);
                                self.write(st, &dcands, doff, n, bits);
                            }
                        }
                        _ => self.havoc_objects(st, &dcands),
                    }
                }
                None
            }
            InstKind::MemSet { dst, byte, len } => {
                let l = self.get(st, *len);
                let l = self.bv_of(l);
                let l = self.t.resize(l, 64);
                let b = self.get(st, *byte);
                let dp = self.get(st, *dst);
                let (dcands, doff) = self.access_len(st, inst, dp, self.ptr_space(*dst), l, true, false);
                self.own_write(st, &dcands, doff, l, None);
                if self.s.rel.memory {
                    match self.t.st.as_bv(l).and_then(|b| b.to_u64()) {
                        Some(n) if n <= 256 => {
                            if n > 0 {
                                let bb = self.bits(b);
                                let bb = self.t.resize(bb, 8);
                                let mut bits = bb;
                                for _ in 1..n {
                                    bits = self.t.st.concat(bb, bits);
                                }
                                self.write(st, &dcands, doff, n, bits);
                            }
                        }
                        _ => self.havoc_objects(st, &dcands),
                    }
                }
                None
            }
            InstKind::Barrier { scope, fence, .. } => {
                match scope {
                    BarrierScope::Group | BarrierScope::Grid => {
                        let one = self.t.bv(32, 1);
                        let grid = *scope == BarrierScope::Grid;
                        if fence.shared || grid {
                            let c = self.t.st.bvadd(st.shared_count, one);
                            st.shared_count = self.t.name(c);
                        }
                        if fence.global || grid {
                            let c = self.t.st.bvadd(st.global_count, one);
                            st.global_count = self.t.name(c);
                        }
                        self.trace.barriers.push(BarrierEvent { inst, node, pc: st.pc, count: st.count });
                        let one = self.t.bv(32, 1);
                        let c = self.t.st.bvadd(st.count, one);
                        st.count = self.t.name(c);
                        if *scope == BarrierScope::Grid {
                            let g = self.t.st.bvadd(st.grid_count, one);
                            st.grid_count = self.t.name(g);
                        }
                        self.barrier_havoc(st);
                    }
                    // Warp barriers order only the threads of one warp;
                    // without warp-level modelling they are ignored, which
                    // can only add reports that the replay then filters.
                    BarrierScope::Warp => {}
                }
                // Any barrier ends the interval in which the thread's own
                // writes make its reads of them benign (as in the replay).
                for o in st.owns.iter_mut() {
                    o.clear();
                }
                let one = self.t.bv(32, 1);
                let sync = self.t.st.bvadd(st.sync, one);
                st.sync = self.t.name(sync);
                None
            }
            InstKind::Builtin { var, dim } if relevant => {
                let d = (*dim as usize).min(2);
                let t = match var {
                    BuiltinVar::LocalId => self.ids.local[d],
                    BuiltinVar::GroupId => self.ids.group[d],
                    BuiltinVar::LocalSize => self.s.launch.group_size[d],
                    BuiltinVar::NumGroups => self.s.launch.num_groups[d],
                    BuiltinVar::GlobalOffset => self.s.launch.global_offset[d],
                };
                let ty = rty.unwrap();
                Some(self.from_bits(ty, t))
            }
            InstKind::Warp { op, .. } if relevant => {
                let ty = rty.unwrap();
                match op {
                    WarpOp::LaneId => {
                        let lin = self.linear_local_id();
                        let w = self.t.bv(32, self.s.warp_size as u128);
                        let lane = self.t.st.bvurem(lin, w);
                        Some(self.from_bits(ty, lane))
                    }
                    // `__activemask()` holds at least the caller's lane, and
                    // `__match_any_sync(mask, v)` lanes of its mask with it.
                    WarpOp::ActiveMask | WarpOp::MatchAny if ty == Type::I32 => {
                        let lin = self.linear_local_id();
                        let w = self.t.bv(32, self.s.warp_size as u128);
                        let lane = self.t.st.bvurem(lin, w);
                        let one = self.t.bv(32, 1);
                        let bit = self.t.st.bvshl(one, lane);
                        let Val::V(mut f) = self.fresh(ty, "active_mask") else { unreachable!("an i32 is a bit-vector") };
                        if let (WarpOp::MatchAny, InstKind::Warp { args, .. }) = (op, &data.kind) {
                            if let Some(Val::V(m)) = args.first().map(|&a| self.get(st, a)) {
                                f = self.t.st.bvand(f, m);
                            }
                        }
                        Some(Val::V(self.t.st.bvor(f, bit)))
                    }
                    // Values from other lanes are not modelled.
                    _ => Some(self.fresh(ty, "warp")),
                }
            }
            InstKind::CallExternal { name, args } => {
                if let (true, Some(ty)) = (relevant, rty) {
                    let bits: Vec<TermId> = args.iter().map(|&a| { let v = self.get(st, a); self.bits(v) }).collect();
                    let t = self.t.uf(name, &bits, Self::sort_of(ty));
                    Some(self.from_sort_term(ty, t))
                } else {
                    None
                }
            }
            InstKind::Call { .. } => {
                self.note("a call was left after inlining; its effects are not modelled");
                rty.map(|ty| self.fresh(ty, "call"))
            }
            InstKind::Annot { kind, args } => {
                self.annot(st, inst, *kind, args);
                None
            }
            InstKind::AnnotValue { func: f, args } if relevant => {
                let ty = rty.unwrap();
                match f {
                    AnnotFn::Implies if args.len() == 2 => {
                        let a = self.get(st, args[0]);
                        let a = self.as_bool(a);
                        let b = self.get(st, args[1]);
                        let b = self.as_bool(b);
                        Some(Val::B(self.t.st.implies(a, b)))
                    }
                    AnnotFn::Enabled => Some(Val::B(self.t.tt())),
                    AnnotFn::SameGroup => Some(Val::B(self.s.launch.same_group)),
                    _ => Some(self.fresh(ty, "annot")),
                }
            }
            InstKind::Havoc if relevant => Some(self.fresh(rty.unwrap(), "havoc")),
            // A group collective's value combines every thread's operand,
            // which the search does not see: a fresh value (a path it opens
            // is confirmed by the replay, which computes the real one).
            InstKind::Collective { .. } if relevant => Some(self.fresh(rty.unwrap(), "collective")),
            // A call through a pointer that matched no function's address:
            // a violation wherever the path reaches it (the block then ends
            // in `unreachable`, which cuts the path).
            InstKind::InvalidCall { .. } => {
                let message = "call through a pointer that is no function's address".to_string();
                self.check(ViolationKind::NullPointer, inst, message, st.pc);
                None
            }
            _ => None,
        };
        if let (Some(r), Some(v)) = (result, value) {
            let v = self.t.name_val(v);
            st.env.insert(r, v);
        }
    }

    fn note(&mut self, text: &str) {
        if !self.trace.notes.iter().any(|n| n == text) {
            self.trace.notes.push(text.to_string());
        }
    }

    fn from_sort_term(&mut self, ty: Type, t: TermId) -> Val {
        match ty {
            Type::Int(1) => Val::B(t),
            Type::Ptr(_) => self.t.decode_ptr(t),
            _ => Val::V(t),
        }
    }

    fn ptr_space(&self, v: ValueId) -> MemSpace {
        match self.s.func.values[v].ty {
            Type::Ptr(s) => s,
            _ => MemSpace::Generic,
        }
    }

    fn binary_checks(&mut self, st: &State, inst: InstId, op: BinOp, a: Val, b: Val) {
        if !self.record_checks {
            return;
        }
        let (Val::V(x), Val::V(y)) = (a, b) else { return };
        let w = self.t.width(x);
        match op {
            BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => {
                let zero = self.t.bv(w, 0);
                let z = self.t.st.eq(y, zero);
                let cond = self.t.st.and(&[st.pc, z]);
                self.check(ViolationKind::DivisionByZero, inst, "division by zero".into(), cond);
                if matches!(op, BinOp::SDiv | BinOp::SRem) && (2..=128).contains(&w) {
                    let min = self.t.bv(w, 1u128 << (w - 1));
                    let ones = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
                    let m1 = self.t.bv(w, ones);
                    let c1 = self.t.st.eq(x, min);
                    let c2 = self.t.st.eq(y, m1);
                    let cond = self.t.st.and(&[st.pc, c1, c2]);
                    self.check(ViolationKind::Overflow, inst, "signed division overflows (MIN / -1)".into(), cond);
                }
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul if self.s.check_overflow && (8..=64).contains(&w) => {
                let ovf = self.signed_overflow(op, x, y, w);
                let cond = self.t.st.and(&[st.pc, ovf]);
                let what = match op {
                    BinOp::Add => "addition",
                    BinOp::Sub => "subtraction",
                    _ => "multiplication",
                };
                self.check(ViolationKind::Overflow, inst, format!("signed {what} overflows ({w}-bit)"), cond);
            }
            _ => {}
        }
    }

    /// Restricts the path to executions in which `op` keeps the no-wrap
    /// promise of `inst` (`Function::no_wrap`, clang's `nsw` on signed
    /// arithmetic): one that breaks it has undefined behaviour, so a
    /// witness through it would show nothing the program must do (the
    /// replay that confirms witnesses discards such runs).
    fn assume_no_wrap(&mut self, st: &mut State, inst: InstId, op: BinOp, a: Val, b: Val) {
        let flags = self.s.func.no_wrap_of(inst);
        if flags.is_none() {
            return;
        }
        let (Val::V(x), Val::V(y)) = (a, b) else { return };
        let w = self.t.width(x);
        if !(2..=64).contains(&w) {
            return;
        }
        let mut fits = Vec::new();
        for signed in [true, false] {
            if (signed && !flags.signed) || (!signed && !flags.unsigned) {
                continue;
            }
            let ext = |t: &mut Self, v: TermId| if signed { t.t.st.sign_extend(w, v) } else { t.t.st.zero_extend(w, v) };
            let konst = |t: &Self, v: TermId| t.t.st.as_bv(v).is_some();
            if op == BinOp::Mul && !konst(self, x) && !konst(self, y) {
                // A product of two unknowns in twice the width made the
                // search's queries time out (a row-major index `row * n`:
                // 0.4 s to 20 s); it is left unconstrained, and a witness
                // whose product overflows is discarded when replayed.
                continue;
            }
            let (xe, ye) = (ext(self, x), ext(self, y));
            let wide = match op {
                BinOp::Add => self.t.st.bvadd(xe, ye),
                BinOp::Sub => self.t.st.bvsub(xe, ye),
                BinOp::Mul => self.t.st.bvmul(xe, ye),
                BinOp::Shl => {
                    // A shift by the width or more has no result at all.
                    let limit = self.t.bv(2 * w, w as u128);
                    let small = self.t.st.bvult(ye, limit);
                    fits.push(small);
                    self.t.st.bvshl(xe, ye)
                }
                _ => return,
            };
            let low = self.t.st.extract(w - 1, 0, wide);
            let back = ext(self, low);
            fits.push(self.t.st.eq(back, wide));
        }
        let c = self.t.st.and(&fits);
        let pc = self.t.st.and(&[st.pc, c]);
        st.pc = self.t.name(pc);
    }

    fn signed_overflow(&mut self, op: BinOp, x: TermId, y: TermId, w: u32) -> TermId {
        let xe = self.t.st.sign_extend(w, x);
        let ye = self.t.st.sign_extend(w, y);
        let wide = match op {
            BinOp::Add => self.t.st.bvadd(xe, ye),
            BinOp::Sub => self.t.st.bvsub(xe, ye),
            _ => self.t.st.bvmul(xe, ye),
        };
        let low = self.t.st.extract(w - 1, 0, wide);
        let back = self.t.st.sign_extend(w, low);
        let same = self.t.st.eq(back, wide);
        self.t.st.not(same)
    }

    fn binary(&mut self, op: BinOp, a: Val, b: Val) -> Val {
        if let (Val::B(x), Val::B(y)) = (a, b) {
            return match op {
                BinOp::And | BinOp::Mul => Val::B(self.t.st.and(&[x, y])),
                BinOp::Or => Val::B(self.t.st.or(&[x, y])),
                BinOp::Xor | BinOp::Add | BinOp::Sub => Val::B(self.t.st.xor(x, y)),
                _ => {
                    let xb = self.t.bool_to_bv(x);
                    let yb = self.t.bool_to_bv(y);
                    let r = self.bv_binary(op, xb, yb);
                    Val::B(self.t.bv_to_bool(r))
                }
            };
        }
        let x = self.bits(a);
        let y = self.bits(b);
        let y = self.t.resize(y, self.t.width(x));
        Val::V(self.bv_binary(op, x, y))
    }

    fn bv_binary(&mut self, op: BinOp, x: TermId, y: TermId) -> TermId {
        let s = &mut self.t.st;
        match op {
            BinOp::Add => s.bvadd(x, y),
            BinOp::Sub => s.bvsub(x, y),
            BinOp::Mul => s.bvmul(x, y),
            BinOp::UDiv => s.bvudiv(x, y),
            BinOp::SDiv => s.bvsdiv(x, y),
            BinOp::URem => s.bvurem(x, y),
            BinOp::SRem => s.bvsrem(x, y),
            BinOp::Shl => s.bvshl(x, y),
            BinOp::LShr => s.bvlshr(x, y),
            BinOp::AShr => s.bvashr(x, y),
            BinOp::And => s.bvand(x, y),
            BinOp::Or => s.bvor(x, y),
            BinOp::Xor => s.bvxor(x, y),
        }
    }

    fn icmp(&mut self, cc: IntCC, a: Val, b: Val) -> TermId {
        if let (Val::B(x), Val::B(y)) = (a, b) {
            match cc {
                IntCC::Eq => return self.t.st.eq(x, y),
                IntCC::Ne => {
                    let e = self.t.st.eq(x, y);
                    return self.t.st.not(e);
                }
                _ => {}
            }
        }
        let x = self.bits(a);
        let y = self.bits(b);
        let y = self.t.resize(y, self.t.width(x));
        let s = &mut self.t.st;
        match cc {
            IntCC::Eq => s.eq(x, y),
            IntCC::Ne => {
                let e = s.eq(x, y);
                s.not(e)
            }
            IntCC::Ult => s.bvult(x, y),
            IntCC::Ule => s.bvule(x, y),
            IntCC::Ugt => s.bvugt(x, y),
            IntCC::Uge => s.bvuge(x, y),
            IntCC::Slt => s.bvslt(x, y),
            IntCC::Sle => s.bvsle(x, y),
            IntCC::Sgt => s.bvsgt(x, y),
            IntCC::Sge => s.bvsge(x, y),
        }
    }

    fn cast(&mut self, op: CastOp, a: Val, from: Type, to: Type) -> Val {
        let to_w = to.bits();
        match op {
            CastOp::Zext | CastOp::Sext => {
                let bits = self.bits(a);
                let w = self.t.width(bits);
                if to_w <= w {
                    return self.from_bits(to, bits);
                }
                let r = if op == CastOp::Zext {
                    self.t.st.zero_extend(to_w - w, bits)
                } else {
                    self.t.st.sign_extend(to_w - w, bits)
                };
                Val::V(r)
            }
            CastOp::Trunc | CastOp::Bitcast | CastOp::PtrToInt | CastOp::IntToPtr => {
                let bits = self.bits(a);
                self.from_bits(to, bits)
            }
            CastOp::AddrSpaceCast => a,
            _ => {
                // Conversions involving floats are uninterpreted.
                let bits = self.bits(a);
                let name = format!("{}_{}_{}", op.name(), from.bits(), to_w);
                let t = self.t.uf(&name, &[bits], Self::sort_of(to));
                self.from_sort_term(to, t)
            }
        }
    }

    fn atomic_op(&mut self, op: AtomicOp, old: TermId, v: TermId) -> TermId {
        let w = self.t.width(old);
        let s = &mut self.t.st;
        match op {
            AtomicOp::Xchg => v,
            AtomicOp::Add => s.bvadd(old, v),
            AtomicOp::Sub => s.bvsub(old, v),
            AtomicOp::And => s.bvand(old, v),
            AtomicOp::Or => s.bvor(old, v),
            AtomicOp::Xor => s.bvxor(old, v),
            AtomicOp::Max => {
                let c = s.bvsgt(old, v);
                s.ite(c, old, v)
            }
            AtomicOp::Min => {
                let c = s.bvslt(old, v);
                s.ite(c, old, v)
            }
            AtomicOp::UMax => {
                let c = s.bvugt(old, v);
                s.ite(c, old, v)
            }
            AtomicOp::UMin => {
                let c = s.bvult(old, v);
                s.ite(c, old, v)
            }
            AtomicOp::UIncWrap => {
                let c = s.bvuge(old, v);
                let zero = s.bv_const(w, 0);
                let one = s.bv_const(w, 1);
                let inc = s.bvadd(old, one);
                s.ite(c, zero, inc)
            }
            AtomicOp::UDecWrap => {
                let zero = s.bv_const(w, 0);
                let one = s.bv_const(w, 1);
                let z = s.eq(old, zero);
                let g = s.bvugt(old, v);
                let c = s.or(&[z, g]);
                let dec = s.bvsub(old, one);
                s.ite(c, v, dec)
            }
            AtomicOp::FAdd | AtomicOp::FSub => {
                let name = if op == AtomicOp::FAdd { "fadd" } else { "fsub" };
                self.t.uf(name, &[old, v], Sort::bv(w))
            }
        }
    }

    // ----- memory -----------------------------------------------------------

    /// Marks the accesses recorded since `before` (one atomic's) with the
    /// atomic's scope.
    fn mark_scope(&mut self, before: usize, scope: lockstep_kir::AtomicScope) {
        if scope == lockstep_kir::AtomicScope::Block {
            for a in &mut self.trace.accesses[before..] {
                a.block_scoped = true;
            }
        }
    }

    /// Records an access of `len` bytes through `p` and its checks; returns
    /// the candidate objects and the offset.
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        st: &State,
        inst: InstId,
        p: Val,
        space: MemSpace,
        len: u64,
        write: bool,
        atomic: bool,
    ) -> (Vec<(u16, TermId)>, TermId) {
        let l = self.t.bv(64, len as u128);
        self.access_len(st, inst, p, space, l, write, atomic)
    }

    #[allow(clippy::too_many_arguments)]
    fn access_len(
        &mut self,
        st: &State,
        inst: InstId,
        p: Val,
        space: MemSpace,
        len: TermId,
        write: bool,
        atomic: bool,
    ) -> (Vec<(u16, TermId)>, TermId) {
        let (base, off) = match p {
            Val::P(b, o) => (b, o),
            other => {
                let bits = self.bits(other);
                let bits = self.t.resize(bits, 64);
                match self.t.decode_ptr(bits) {
                    Val::P(b, o) => (b, o),
                    _ => unreachable!(),
                }
            }
        };
        let known = self.t.st.as_bv(base).and_then(|b| b.to_u64());
        let objs = self.s.objs;
        let cands: Vec<(u16, TermId)> = match known {
            Some(0) => Vec::new(),
            Some(k) if (k as usize) <= objs.objs.len() => vec![(k as u16, self.t.tt())],
            Some(_) => Vec::new(),
            None => objs
                .candidates(space)
                .into_iter()
                .map(|o| {
                    let lit = self.t.bv(OBJ_BITS, o as u128);
                    let c = self.t.st.eq(base, lit);
                    (o, self.t.name(c))
                })
                .collect(),
        };
        let what = if write { "write" } else { "read" };
        // Null (or invalid) pointer.
        if known.map_or(true, |k| k == 0) {
            let z = self.t.bv(OBJ_BITS, 0);
            let isnull = self.t.st.eq(base, z);
            let cond = self.t.st.and(&[st.pc, isnull]);
            self.check(ViolationKind::NullPointer, inst, format!("{what} through a null pointer"), cond);
        }
        for &(o, c) in &cands {
            let info = objs.get(o);
            if let Some(size) = info.size {
                let sz = self.t.bv(64, size as u128);
                let fits_len = self.t.st.bvule(len, sz);
                let room = self.t.st.bvsub(sz, len);
                let fits_off = self.t.st.bvule(off, room);
                let ok = self.t.st.and(&[fits_len, fits_off]);
                let bad = self.t.st.not(ok);
                let cond = self.t.st.and(&[st.pc, c, bad]);
                let message = format!("out-of-bounds {what} of `{}` ({} bytes)", info.name, size);
                self.check(ViolationKind::OutOfBounds, inst, message, cond);
            }
            if write && info.space == MemSpace::Constant {
                let cond = self.t.st.and(&[st.pc, c]);
                let message = format!("write to constant memory `{}`", info.name);
                self.check(ViolationKind::ConstantWrite, inst, message, cond);
            }
        }
        let shareable: Vec<(u16, TermId)> =
            cands.iter().copied().filter(|&(o, _)| objs.get(o).space != MemSpace::Private).collect();
        if !shareable.is_empty() && !self.t.is_false(st.pc) {
            self.trace.accesses.push(Access {
                inst,
                pc: st.pc,
                objs: shareable,
                off,
                len,
                write,
                atomic,
                count: st.count,
                grid_count: st.grid_count,
                shared_count: st.shared_count,
                global_count: st.global_count,
                value: None,
                own: None,
                silent: None,
                atomic_old: None,
                block_scoped: false,
            });
        }
        if !write {
            if let Some(n) = self.t.st.as_bv(len).and_then(|b| b.to_u64()) {
                for &(o, c) in &cands {
                    if matches!(objs.get(o).space, MemSpace::Global | MemSpace::Constant) {
                        let cond = self.t.st.and(&[st.pc, c]);
                        let cond = self.t.name(cond);
                        self.trace.loads.push(LoadRec { obj: o, cond, off, len: n });
                    }
                }
            }
        }
        (cands, off)
    }

    /// Reads `len` bytes (little-endian) at `off` of whichever candidate the
    /// pointer designates.
    fn read(&mut self, st: &State, cands: &[(u16, TermId)], off: TermId, len: u64) -> TermId {
        let mut acc = self.t.bv((len * 8) as u32, 0);
        for &(o, c) in cands.iter().rev() {
            let view = st.views[o as usize];
            let mut bits: Option<TermId> = None;
            for i in 0..len {
                let k = self.t.bv(64, i as u128);
                let a = self.t.st.bvadd(off, k);
                let byte = self.t.st.select(view, a);
                bits = Some(match bits {
                    None => byte,
                    Some(low) => self.t.st.concat(byte, low),
                });
            }
            let v = bits.unwrap_or(acc);
            acc = self.t.st.ite(c, v, acc);
        }
        self.t.name(acc)
    }

    /// Writes `bits` (`len` bytes, little-endian) at `off`.
    fn write(&mut self, st: &mut State, cands: &[(u16, TermId)], off: TermId, len: u64, bits: TermId) {
        let bits = self.t.name(bits);
        for &(o, c) in cands {
            let old = st.views[o as usize];
            let mut arr = old;
            let havocked = is_havocked(self.s.objs.get(o).space);
            for i in 0..len {
                let k = self.t.bv(64, i as u128);
                let a = self.t.st.bvadd(off, k);
                let lo = (8 * i) as u32;
                let byte = self.t.st.extract(lo + 7, lo, bits);
                arr = self.t.st.store(arr, a, byte);
                if havocked {
                    let guard = self.t.st.and(&[st.pc, c]);
                    let guard = self.t.name(guard);
                    let a = self.t.name(a);
                    let byte = self.t.name(byte);
                    st.logs[o as usize].push(self.log.len() as u32);
                    self.log.push(LogEntry { guard, addr: a, byte });
                }
            }
            let new = self.t.st.ite(c, arr, old);
            st.views[o as usize] = self.t.name(new);
        }
    }

    /// The own-write condition and bits of a read of `len` bytes at `off`
    /// (see `Access::own`), or `None` when the thread cannot have written
    /// them itself. The thread's latest write since its barrier that
    /// overlaps the read decides: it must be a store whose value may be
    /// benign, of exactly the read's bytes.
    fn own_bits(&mut self, st: &State, cands: &[(u16, TermId)], off: TermId, len: u64) -> Option<(TermId, TermId)> {
        let n = self.t.bv(64, len as u128);
        let end = self.t.st.bvadd(off, n);
        let mut valid = self.t.ff();
        let mut bits = self.t.bv((len * 8) as u32, 0);
        for &(o, c) in cands.iter().rev() {
            if !is_havocked(self.s.objs.get(o).space) || st.owns[o as usize].is_empty() {
                continue;
            }
            let mut ok = self.t.ff();
            let mut val = self.t.bv((len * 8) as u32, 0);
            for &e in &st.owns[o as usize] {
                let OwnEntry { guard, sync, off: eo, len: el, bits: eb } = self.own_log[e as usize];
                let same_sync = self.t.st.eq(sync, st.sync);
                let e_end = self.t.st.bvadd(eo, el);
                let o1 = self.t.st.bvult(eo, end);
                let o2 = self.t.st.bvult(off, e_end);
                let hit = self.t.st.and(&[guard, same_sync, o1, o2]);
                let exact = match eb {
                    Some(b) if self.t.width(b) == (len * 8) as u32 => {
                        let same_off = self.t.st.eq(eo, off);
                        let same_len = self.t.st.eq(el, n);
                        val = self.t.st.ite(hit, b, val);
                        self.t.st.and(&[same_off, same_len])
                    }
                    _ => self.t.ff(),
                };
                ok = self.t.st.ite(hit, exact, ok);
            }
            valid = self.t.st.ite(c, ok, valid);
            bits = self.t.st.ite(c, val, bits);
        }
        if self.t.is_false(valid) {
            return None;
        }
        Some((self.t.name(valid), self.t.name(bits)))
    }

    /// Records a write of `len` bytes (bv64) at `off` for `Access::own`:
    /// `bits` when it is a store whose value may be benign.
    fn own_write(&mut self, st: &mut State, cands: &[(u16, TermId)], off: TermId, len: TermId, bits: Option<TermId>) {
        if !self.track_own {
            return;
        }
        for &(o, c) in cands {
            if !is_havocked(self.s.objs.get(o).space) {
                continue;
            }
            let guard = self.t.st.and(&[st.pc, c]);
            let guard = self.t.name(guard);
            st.owns[o as usize].push(self.own_log.len() as u32);
            self.own_log.push(OwnEntry { guard, sync: st.sync, off, len, bits });
        }
    }

    fn havoc_objects(&mut self, st: &mut State, cands: &[(u16, TermId)]) {
        let arr_sort = Sort::array(Sort::bv(64), Sort::bv(8));
        for &(o, c) in cands {
            let h = self.t.st.fresh_const(&format!("{}_havoc{}", self.tag, o), arr_sort.clone());
            let old = st.views[o as usize];
            let new = self.t.st.ite(c, h, old);
            st.views[o as usize] = self.t.name(new);
        }
    }

    /// At a barrier: every shared and global object becomes what the other
    /// threads may have left there, except for the bytes this thread wrote
    /// in the interval that just ended. An object no thread writes keeps
    /// its contents: were it havocked, a read after the barrier would be
    /// free of the witness's inputs, and the witness would ask the replay
    /// for a run in which the branch it took is not taken.
    fn barrier_havoc(&mut self, st: &mut State) {
        let arr_sort = Sort::array(Sort::bv(64), Sort::bv(8));
        for o in self.s.objs.ids() {
            let obj = self.s.objs.get(o);
            if !is_havocked(obj.space) || !obj.written {
                continue;
            }
            let mut arr = self.t.st.fresh_const(&format!("{}_after_barrier{}", self.tag, o), arr_sort.clone());
            for &e in &st.logs[o as usize] {
                let LogEntry { guard, addr, byte } = self.log[e as usize];
                let cur = self.t.st.select(arr, addr);
                let v = self.t.st.ite(guard, byte, cur);
                let next = self.t.st.store(arr, addr, v);
                arr = self.t.name(next);
            }
            st.views[o as usize] = arr;
            st.logs[o as usize].clear();
        }
    }

    fn annot(&mut self, st: &mut State, inst: InstId, kind: AnnotKind, args: &[ValueId]) {
        let (checked, assumed) = match kind {
            AnnotKind::Assert | AnnotKind::GlobalAssert | AnnotKind::WarpMask => (Some(ViolationKind::Assertion), false),
            AnnotKind::Invariant | AnnotKind::GlobalInvariant => (Some(ViolationKind::Invariant), false),
            AnnotKind::Assume | AnnotKind::Requires | AnnotKind::GlobalRequires | AnnotKind::Axiom => (None, true),
            _ => (None, false),
        };
        if checked.is_none() && !assumed {
            return;
        }
        if args.iter().any(|&a| self.s.rel.is_prover_only(a)) {
            self.note("an annotation over prover-only expressions (__other_int, __read, ...) was not checked");
            return;
        }
        let mut conds = Vec::new();
        for &a in args.iter().take(1) {
            let v = self.get(st, a);
            conds.push(self.as_bool(v));
        }
        let c = self.t.st.and(&conds);
        if let Some(kind) = checked {
            let bad = self.t.st.not(c);
            let cond = self.t.st.and(&[st.pc, bad]);
            let what = if kind == ViolationKind::Invariant { "loop invariant" } else { "assertion" };
            self.check(kind, inst, format!("{what} may fail"), cond);
        } else {
            let pc = self.t.st.and(&[st.pc, c]);
            st.pc = self.t.name(pc);
        }
    }

    fn exec_term(&mut self, st: &State, block: BlockId, node: usize) -> Vec<(TermId, Vec<Val>)> {
        let term = &self.s.func.blocks[block].term;
        let mut slots: Vec<(TermId, Vec<Val>)> = Vec::new();
        match term {
            Terminator::Jump(call) => {
                let args = call.args.iter().map(|&a| self.get(st, a)).collect();
                slots.push((st.pc, args));
            }
            Terminator::Branch { cond, then_dest, else_dest } => {
                let c = self.get(st, *cond);
                let c = self.as_bool(c);
                let t = self.t.st.and(&[st.pc, c]);
                let t = self.t.name(t);
                let nc = self.t.st.not(c);
                let e = self.t.st.and(&[st.pc, nc]);
                let e = self.t.name(e);
                let ta = then_dest.args.iter().map(|&a| self.get(st, a)).collect();
                let ea = else_dest.args.iter().map(|&a| self.get(st, a)).collect();
                slots.push((t, ta));
                slots.push((e, ea));
            }
            Terminator::Return(_) => {}
            Terminator::Unreachable => {
                self.trace.cuts.push(Cut { pc: st.pc, count: st.count, bound: false });
            }
        }
        for (i, target) in self.s.dag.succs[node].iter().enumerate() {
            if let Target::Bound | Target::Unsupported = target {
                if let Some((cond, _)) = slots.get(i) {
                    if !self.t.is_false(*cond) {
                        self.trace.cuts.push(Cut { pc: *cond, count: st.count, bound: true });
                    }
                }
            }
        }
        slots
    }
}

/// The sorted union of the index lists of the incoming edges' states.
fn union<'a>(lists: impl Iterator<Item = &'a Vec<u32>>) -> Vec<u32> {
    let mut all: Vec<u32> = lists.flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}
