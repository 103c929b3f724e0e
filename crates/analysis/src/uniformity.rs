//! Uniformity: which values are the same in every thread, and which branches
//! and barriers are reached by only some threads of a group.
//!
//! Each value gets one of three levels, ordered `Uniform < GroupUniform <
//! Varying`: the same in every thread of the grid; the same in every thread
//! of one group but possibly different across groups (`blockIdx`, data in
//! never-written shared memory); or possibly different between two threads
//! of one group. The engines use this to share uniform variables between
//! the two modelled threads and to find barriers that only some threads of
//! a group may reach (barrier divergence).
//!
//! The analysis is a monotone fixpoint over two kinds of dependence:
//!
//! - data: an instruction is as varying as its most varying operand, except
//!   for sources of variance (`threadIdx`, lane ids, shuffles and votes,
//!   atomics, `havoc`, loads from memory that threads may write, calls of
//!   module functions, thread-local annotation values), and group
//!   collectives (`__syncthreads_or`), which are group-uniform;
//! - control: a branch on a non-uniform condition makes threads take
//!   different paths. Its *divergent region* is every block reachable from
//!   its arms before the reconvergence point (its immediate post-dominator;
//!   without one, everything reachable). A block parameter of a *join* — a
//!   block of the region, or the reconvergence point, reached from two
//!   different arms — merges values from different paths and is at least as
//!   varying as the condition. When an arm leads back round a loop holding
//!   the branch, the threads meet again only in different iterations, and
//!   the region extends to the loop's exit. A loop with an exit inside such
//!   a region, or that a region wraps around, lets threads leave after
//!   different numbers of iterations (temporal divergence), so its header
//!   parameters are at least that varying too.
//!   Every block parameter of an irreducible region holding a non-uniform
//!   branch is treated the same way, conservatively.
//!
//! A block parameter whose incoming arguments are all the same value is
//! that value, whatever the control flow; this keeps `phi(x, x)` uniform.
//!
//! Uniformity here is the strong notion that two-thread reduction needs: a
//! uniform value is equal in both threads at every point of the predicated
//! product program, even when one of them is waiting at a reconvergence
//! point. That is why a loop counter of a loop with a thread-dependent exit
//! is varying, although threads still in the loop agree on it.
//!
//! Invariant: levels only grow during the fixpoint, so it terminates; values
//! of unreachable blocks keep the lowest level (they never execute); kernel
//! parameters are uniform, and parameters of device functions (analysed on
//! their own, without their call sites) are varying.

use std::collections::BTreeSet;

use lockstep_kir::{
    AnnotFn, BarrierScope, BlockId, BuiltinVar, CastOp, EntityRef, Function, GlobalId, InstId, InstKind, LocalId,
    MemSpace, Module, SecondaryMap, Terminator, Type, ValueDef, ValueId, WarpOp,
};

use crate::cfg::Cfg;
use crate::dom::{DomTree, PostDomTree};
use crate::loops::{LoopId, LoopInfo};

/// How far a value or a control decision may differ between threads.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Uniformity {
    /// The same in every thread of the grid.
    #[default]
    Uniform,
    /// The same in every thread of a group; may differ between groups.
    GroupUniform,
    /// May differ between threads of one group.
    Varying,
}

impl Uniformity {
    pub fn name(self) -> &'static str {
        match self {
            Uniformity::Uniform => "uniform",
            Uniformity::GroupUniform => "group-uniform",
            Uniformity::Varying => "varying",
        }
    }
}

/// A barrier and the control that decides whether a thread reaches it.
#[derive(Clone, Debug, PartialEq)]
pub struct BarrierSite {
    pub inst: InstId,
    pub block: BlockId,
    pub scope: BarrierScope,
    /// The most varying condition among the branches whose divergent region
    /// holds the barrier; `Uniform` when every thread reaches it together.
    pub control: Uniformity,
    /// Those branch blocks, in reverse postorder.
    pub branches: Vec<BlockId>,
}

impl BarrierSite {
    /// Whether the threads this barrier synchronises may disagree on
    /// reaching it: a group or warp barrier under a `Varying` branch, or a
    /// grid barrier under any non-uniform branch. Such a site needs a proof
    /// (or a witness) of barrier divergence; the others cannot diverge.
    pub fn is_divergence_candidate(&self) -> bool {
        match self.scope {
            BarrierScope::Group | BarrierScope::Warp => self.control == Uniformity::Varying,
            BarrierScope::Grid => self.control != Uniformity::Uniform,
        }
    }
}

/// The results of the uniformity analysis of one function.
#[derive(Clone, Debug)]
pub struct UniformityInfo {
    values: SecondaryMap<ValueId, Uniformity>,
    branches: SecondaryMap<BlockId, Option<Uniformity>>,
    control: SecondaryMap<BlockId, Uniformity>,
    controlling: SecondaryMap<BlockId, Vec<BlockId>>,
    divergent_loops: Vec<(LoopId, Uniformity)>,
    barriers: Vec<BarrierSite>,
}

impl UniformityInfo {
    /// Analyses `func`, a function of `module` (the module supplies the
    /// memory objects that loads may read).
    pub fn compute(module: &Module, func: &Function) -> UniformityInfo {
        let cfg = Cfg::compute(func);
        let dom = DomTree::compute(&cfg);
        let pdom = PostDomTree::compute(func, &cfg);
        let loops = LoopInfo::compute(func, &cfg, &dom);
        Self::compute_with(module, func, &cfg, &pdom, &loops)
    }

    /// Like `compute`, reusing analyses the caller already has.
    pub fn compute_with(
        module: &Module,
        func: &Function,
        cfg: &Cfg,
        pdom: &PostDomTree,
        loops: &LoopInfo,
    ) -> UniformityInfo {
        Analysis::new(module, func, cfg, pdom, loops).run()
    }

    /// The level of `v` (`Uniform` for values of unreachable code).
    pub fn level(&self, v: ValueId) -> Uniformity {
        *self.values.get(v)
    }

    /// Whether `v` is the same in every thread of the grid.
    pub fn is_uniform(&self, v: ValueId) -> bool {
        self.level(v) == Uniformity::Uniform
    }

    /// Whether `v` is the same in every thread of a group.
    pub fn is_group_uniform(&self, v: ValueId) -> bool {
        self.level(v) <= Uniformity::GroupUniform
    }

    /// The level of the condition of `b`'s conditional branch; `None` when
    /// `b` does not end in a (reachable) two-way branch.
    pub fn branch_level(&self, b: BlockId) -> Option<Uniformity> {
        *self.branches.get(b)
    }

    /// Branches on a `Varying` condition: the threads of one group may split.
    pub fn divergent_branches(&self) -> Vec<BlockId> {
        self.branches.iter().filter(|(_, l)| **l == Some(Uniformity::Varying)).map(|(b, _)| b).collect()
    }

    /// Branches whose condition is not grid-uniform, with its level.
    pub fn non_uniform_branches(&self) -> Vec<(BlockId, Uniformity)> {
        self.branches
            .iter()
            .filter_map(|(b, l)| l.filter(|&l| l != Uniformity::Uniform).map(|l| (b, l)))
            .collect()
    }

    /// The most varying branch condition controlling whether a thread
    /// reaches `b` (see `BarrierSite::control`).
    pub fn control_level(&self, b: BlockId) -> Uniformity {
        *self.control.get(b)
    }

    /// The non-uniform branches whose divergent region contains `b`.
    pub fn controlling_branches(&self, b: BlockId) -> &[BlockId] {
        self.controlling.get(b)
    }

    /// Loops that threads may leave after different numbers of iterations,
    /// with the level of the condition responsible.
    pub fn divergent_loops(&self) -> &[(LoopId, Uniformity)] {
        &self.divergent_loops
    }

    /// Every reachable barrier, in reverse postorder.
    pub fn barriers(&self) -> &[BarrierSite] {
        &self.barriers
    }

    /// The barriers that threads may reach divergently.
    pub fn divergence_candidates(&self) -> impl Iterator<Item = &BarrierSite> {
        self.barriers.iter().filter(|s| s.is_divergence_candidate())
    }
}

/// The memory object a pointer may be based on.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Root {
    Global(GlobalId),
    Local(LocalId),
    /// The pointer parameter with this index.
    Param(u32),
    /// A pointer whose origin the analysis cannot follow (loaded from
    /// memory, made from an integer, returned by a call).
    Unknown,
}

/// The blocks a divergent branch governs (see `Analysis::region`).
struct Region {
    blocks: BTreeSet<BlockId>,
    joins: BTreeSet<BlockId>,
    /// Loops holding the branch whose iterations the threads may disagree on.
    wrapped: Vec<LoopId>,
}

struct Analysis<'a> {
    module: &'a Module,
    func: &'a Function,
    cfg: &'a Cfg,
    pdom: &'a PostDomTree,
    loops: &'a LoopInfo,
    /// For each block parameter, the arguments on each reachable edge.
    incoming: SecondaryMap<ValueId, Vec<ValueId>>,
    /// Memory objects the function may write; `clobber_all` when a write
    /// through an unknown pointer (or a call) may write anything.
    written: BTreeSet<Root>,
    clobber_all: bool,
    values: SecondaryMap<ValueId, Uniformity>,
    /// Floors raised by control divergence (joins, temporal divergence).
    param_floor: SecondaryMap<BlockId, Uniformity>,
    branches: SecondaryMap<BlockId, Option<Uniformity>>,
    control: SecondaryMap<BlockId, Uniformity>,
    controlling: SecondaryMap<BlockId, Vec<BlockId>>,
    divergent_loops: Vec<(LoopId, Uniformity)>,
}

impl<'a> Analysis<'a> {
    fn new(module: &'a Module, func: &'a Function, cfg: &'a Cfg, pdom: &'a PostDomTree, loops: &'a LoopInfo) -> Self {
        let mut incoming: SecondaryMap<ValueId, Vec<ValueId>> = SecondaryMap::new();
        for &b in cfg.rpo() {
            for call in func.blocks[b].term.block_calls() {
                let Some(target) = func.blocks.get(call.block) else { continue };
                for (&param, &arg) in target.params.iter().zip(&call.args) {
                    incoming[param].push(arg);
                }
            }
        }
        let mut analysis = Analysis {
            module,
            func,
            cfg,
            pdom,
            loops,
            incoming,
            written: BTreeSet::new(),
            clobber_all: false,
            values: SecondaryMap::new(),
            param_floor: SecondaryMap::new(),
            branches: SecondaryMap::new(),
            control: SecondaryMap::new(),
            controlling: SecondaryMap::new(),
            divergent_loops: Vec::new(),
        };
        analysis.collect_writes();
        analysis
    }

    /// The memory objects `ptr` may point into.
    fn roots(&self, ptr: ValueId) -> BTreeSet<Root> {
        let mut out = BTreeSet::new();
        let mut seen: BTreeSet<ValueId> = BTreeSet::new();
        let mut work = vec![ptr];
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            let Some(data) = self.func.values.get(v) else {
                out.insert(Root::Unknown);
                continue;
            };
            match &data.def {
                ValueDef::GlobalAddr(g) => {
                    out.insert(Root::Global(*g));
                }
                ValueDef::LocalAddr(l) => {
                    out.insert(Root::Local(*l));
                }
                ValueDef::Param(i) => {
                    out.insert(Root::Param(*i));
                }
                ValueDef::Null => {}
                ValueDef::Const(_) | ValueDef::Undef => {
                    out.insert(Root::Unknown);
                }
                ValueDef::BlockParam(..) => work.extend(self.incoming.get(v).iter().copied()),
                ValueDef::Inst(i) => match self.func.insts.get(*i).map(|d| &d.kind) {
                    Some(InstKind::PtrAdd { base, .. }) => work.push(*base),
                    Some(InstKind::Cast { op: CastOp::AddrSpaceCast, arg }) => work.push(*arg),
                    Some(InstKind::Select { then_value, else_value, .. }) => {
                        work.push(*then_value);
                        work.push(*else_value);
                    }
                    _ => {
                        out.insert(Root::Unknown);
                    }
                },
            }
        }
        out
    }

    /// Finds every memory object the function may write.
    fn collect_writes(&mut self) {
        let func = self.func;
        let mut targets: Vec<ValueId> = Vec::new();
        for &b in self.cfg.rpo() {
            for &i in &func.blocks[b].insts {
                match &func.insts[i].kind {
                    InstKind::Store { ptr, .. } | InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => {
                        targets.push(*ptr)
                    }
                    InstKind::MemCopy { dst, .. } | InstKind::MemSet { dst, .. } => targets.push(*dst),
                    // A call of a module function may write any memory its
                    // callee can reach; inline first for precision.
                    InstKind::Call { .. } => self.clobber_all = true,
                    // An opaque external function may write through the
                    // pointers it is given.
                    InstKind::CallExternal { args, .. } => {
                        targets.extend(args.iter().copied().filter(|&a| self.is_ptr(a)))
                    }
                    _ => {}
                }
            }
        }
        for t in targets {
            let roots = self.roots(t);
            if roots.contains(&Root::Unknown) {
                self.clobber_all = true;
            }
            self.written.extend(roots);
        }
    }

    fn is_ptr(&self, v: ValueId) -> bool {
        self.func.values.get(v).is_some_and(|d| d.ty.is_ptr())
    }

    fn level(&self, v: ValueId) -> Uniformity {
        *self.values.get(v)
    }

    fn join(&self, vals: &[ValueId]) -> Uniformity {
        vals.iter().map(|&v| self.level(v)).max().unwrap_or_default()
    }

    /// The level of a value not defined by an instruction or block parameter.
    fn leaf_level(&self, def: &ValueDef) -> Uniformity {
        match def {
            ValueDef::Param(_) if self.func.is_kernel => Uniformity::Uniform,
            // A device function analysed alone knows nothing of its callers.
            ValueDef::Param(_) => Uniformity::Varying,
            // `undef` may be a different garbage value in every thread.
            ValueDef::Undef => Uniformity::Varying,
            // The address of a private object names "this thread's copy",
            // which is the same (base, offset) pair in every thread; what it
            // points to is another matter (see `load_floor`).
            ValueDef::Const(_) | ValueDef::GlobalAddr(_) | ValueDef::LocalAddr(_) | ValueDef::Null => {
                Uniformity::Uniform
            }
            ValueDef::BlockParam(..) | ValueDef::Inst(_) => Uniformity::Uniform,
        }
    }

    /// The least level of a value loaded through `ptr`, whatever the
    /// address: `Varying` unless the memory cannot change during the kernel,
    /// in which case it is the level at which that memory is shared.
    fn load_floor(&self, ptr: ValueId) -> Uniformity {
        let space = match self.func.values.get(ptr).map(|d| d.ty) {
            Some(Type::Ptr(space)) => space,
            _ => return Uniformity::Varying,
        };
        if space == MemSpace::Constant {
            return Uniformity::Uniform;
        }
        let roots = self.roots(ptr);
        if roots.contains(&Root::Unknown) {
            return Uniformity::Varying;
        }
        let mut floor = Uniformity::Uniform;
        for root in roots {
            let obj_space = match root {
                Root::Global(g) => match self.module.globals.get(g) {
                    Some(obj) => obj.space,
                    None => return Uniformity::Varying,
                },
                Root::Local(l) => match self.func.locals.get(l) {
                    // Uninitialised private memory holds a different
                    // garbage value in each thread.
                    Some(obj) if obj.init.is_some() => MemSpace::Private,
                    _ => return Uniformity::Varying,
                },
                Root::Param(i) => match self.func.params.get(i as usize) {
                    Some(p) => match p.ty {
                        Type::Ptr(s) => s,
                        _ => return Uniformity::Varying,
                    },
                    None => return Uniformity::Varying,
                },
                Root::Unknown => return Uniformity::Varying,
            };
            if obj_space == MemSpace::Constant {
                continue;
            }
            let read_only = match root {
                Root::Param(i) => {
                    self.func.params[i as usize].pointee.as_ref().is_some_and(|p| p.is_const)
                        || (!self.clobber_all && !self.written.contains(&root))
                }
                _ => !self.clobber_all && !self.written.contains(&root),
            };
            if !read_only {
                return Uniformity::Varying;
            }
            floor = floor.max(match obj_space {
                MemSpace::Shared => Uniformity::GroupUniform,
                MemSpace::Private => Uniformity::Uniform,
                MemSpace::Global | MemSpace::Constant | MemSpace::Generic => Uniformity::Uniform,
            });
        }
        floor
    }

    /// The transfer function of one instruction.
    fn inst_level(&self, kind: &InstKind) -> Uniformity {
        use Uniformity::*;
        match kind {
            InstKind::Binary { .. }
            | InstKind::Icmp { .. }
            | InstKind::Select { .. }
            | InstKind::Cast { .. }
            | InstKind::Float { .. }
            | InstKind::Fcmp { .. }
            | InstKind::PtrAdd { .. } => self.join(&kind.operands()),
            InstKind::Load { ptr, .. } => self.level(*ptr).max(self.load_floor(*ptr)),
            InstKind::Atomic { .. } | InstKind::CmpXchg { .. } => Varying,
            InstKind::Builtin { var, .. } => match var {
                BuiltinVar::LocalId => Varying,
                BuiltinVar::GroupId => GroupUniform,
                BuiltinVar::LocalSize | BuiltinVar::NumGroups | BuiltinVar::GlobalOffset => Uniform,
            },
            // Lane ids and shuffles differ per thread; votes and masks are
            // shared by a warp but differ between the warps of a group.
            InstKind::Warp { op, .. } => match op {
                WarpOp::LaneId
                | WarpOp::Shfl
                | WarpOp::ShflUp
                | WarpOp::ShflDown
                | WarpOp::ShflXor
                | WarpOp::Ballot
                | WarpOp::All
                | WarpOp::Any
                | WarpOp::ActiveMask
                | WarpOp::MatchAny => Varying,
            },
            // A group collective combines every thread's operand at the
            // barrier before it: one value for the whole group. (Where only
            // some threads reach it, the barrier before it diverges, which
            // every engine reports.)
            InstKind::Collective { .. } => GroupUniform,
            InstKind::Call { .. } => Varying,
            // An external function is a pure function of its arguments,
            // unless it is given pointers, through which it may read memory
            // other threads write.
            InstKind::CallExternal { args, .. } => {
                if args.iter().any(|&a| self.is_ptr(a)) {
                    Varying
                } else {
                    self.join(args)
                }
            }
            InstKind::AnnotValue { func, args } => match func {
                AnnotFn::Implies | AnnotFn::Old | AnnotFn::PtrBase | AnnotFn::PtrOffset => self.join(args),
                // The others describe this thread (its accesses, whether it
                // is enabled, the other thread's view) or the return value.
                _ => Varying,
            },
            InstKind::Havoc | InstKind::Nop { .. } => Varying,
            InstKind::Store { .. }
            | InstKind::MemCopy { .. }
            | InstKind::MemSet { .. }
            | InstKind::Barrier { .. }
            | InstKind::Fence { .. }
            | InstKind::Annot { .. }
            | InstKind::InvalidCall { .. } => Uniform,
        }
    }

    /// Raises `v` to at least `l`; reports whether it changed.
    fn raise(&mut self, v: ValueId, l: Uniformity) -> bool {
        if l > self.level(v) {
            self.values.set(v, l);
            true
        } else {
            false
        }
    }

    /// One pass over the reachable code in reverse postorder.
    fn propagate_values(&mut self) -> bool {
        let func = self.func;
        let mut changed = false;
        for &b in self.cfg.rpo() {
            let block = &func.blocks[b];
            let floor = *self.param_floor.get(b);
            for &p in &block.params {
                let args = self.incoming.get(p).clone();
                let first = args.first().copied();
                let level = if first.is_some() && args.iter().all(|&a| Some(a) == first) {
                    self.level(args[0])
                } else {
                    self.join(&args).max(floor)
                };
                changed |= self.raise(p, level);
            }
            for &i in &block.insts {
                let data = &func.insts[i];
                let Some(r) = data.result else { continue };
                let level = self.inst_level(&data.kind);
                changed |= self.raise(r, level);
            }
        }
        changed
    }

    /// The divergent region of branch `x`: the blocks reachable from its
    /// arms before the reconvergence point, the joins among them, and the
    /// loops the divergence wraps around (see below).
    ///
    /// The reconvergence point is `x`'s immediate post-dominator, unless an
    /// arm leads back round a loop that holds `x` to that loop's header:
    /// then the threads that took the two arms meet again only in different
    /// iterations, so they are out of step until all of them leave the loop,
    /// and the region extends to the first post-dominator of the loop's
    /// header outside the loop.
    fn region(&self, x: BlockId, then_block: BlockId, else_block: BlockId) -> Region {
        let mut stop = self.pdom.ipdom(x);
        let mut wrapped: Vec<LoopId> = Vec::new();
        loop {
            let reached_from = [then_block, else_block].map(|start| self.walk(x, start, stop));
            let mut blocks: BTreeSet<BlockId> = BTreeSet::new();
            for set in &reached_from {
                blocks.extend(set.iter().copied().filter(|&b| Some(b) != stop));
            }
            // The outermost loop holding `x` whose header the arms lead back to.
            let wrap = self
                .loops
                .innermost(x)
                .into_iter()
                .flat_map(|l| self.loops.ancestors(l))
                .filter(|l| !wrapped.contains(l) && blocks.contains(&self.loops.get(*l).header))
                .last();
            if let Some(outer) = wrap {
                for l in self.loops.ancestors(self.loops.innermost(x).expect("x is in a loop")) {
                    if !wrapped.contains(&l) {
                        wrapped.push(l);
                    }
                    if l == outer {
                        break;
                    }
                }
                let lp = self.loops.get(outer);
                stop = std::iter::successors(self.pdom.ipdom(lp.header), |&b| self.pdom.ipdom(b))
                    .find(|b| !lp.contains(*b));
                continue;
            }
            let joins = if then_block == else_block {
                [then_block].into_iter().collect()
            } else {
                reached_from[0].intersection(&reached_from[1]).copied().collect()
            };
            return Region { blocks, joins, wrapped };
        }
    }

    /// The blocks reachable from `start` without going past `stop` (which is
    /// included if reached) or round through the branch `x` again: a path
    /// that passes `x` again shares the other arm's path from there on, so
    /// it joins nothing new.
    fn walk(&self, x: BlockId, start: BlockId, stop: Option<BlockId>) -> BTreeSet<BlockId> {
        let mut seen: BTreeSet<BlockId> = BTreeSet::new();
        let mut work = vec![start];
        while let Some(b) = work.pop() {
            if !seen.insert(b) {
                continue;
            }
            if Some(b) == stop || b == x {
                continue;
            }
            work.extend(self.cfg.succs(b).iter().copied());
        }
        seen
    }

    /// Recomputes branch levels, regions, joins and loop divergence from the
    /// current value levels; reports whether any floor rose.
    fn propagate_control(&mut self) -> bool {
        let func = self.func;
        let mut changed = false;
        for &x in self.cfg.rpo() {
            let Terminator::Branch { cond, then_dest, else_dest } = &func.blocks[x].term else { continue };
            let mut level = self.level(*cond);
            // A branch whose arms are identical is no branch at all.
            if then_dest == else_dest {
                level = Uniformity::Uniform;
            }
            self.branches.set(x, Some(level));
            if level == Uniformity::Uniform {
                continue;
            }
            let Region { blocks: region, joins, wrapped } = self.region(x, then_dest.block, else_dest.block);
            for &j in &joins {
                if level > *self.param_floor.get(j) {
                    self.param_floor.set(j, level);
                    changed = true;
                }
            }
            for &b in &region {
                if level > *self.control.get(b) {
                    self.control.set(b, level);
                }
                if !self.controlling.get(b).contains(&x) {
                    self.controlling[b].push(x);
                }
            }
            // Temporal divergence: an exit of a loop holding `x` that is
            // `x` itself or lies in its region.
            for (l, lp) in self.loops.loops() {
                if !lp.contains(x) {
                    continue;
                }
                let exits_diverge = lp.exits.iter().any(|&(from, _)| from == x || region.contains(&from));
                if exits_diverge || wrapped.contains(&l) {
                    if level > *self.param_floor.get(lp.header) {
                        self.param_floor.set(lp.header, level);
                        changed = true;
                    }
                    match self.divergent_loops.iter_mut().find(|(dl, _)| *dl == l) {
                        Some(entry) => entry.1 = entry.1.max(level),
                        None => self.divergent_loops.push((l, level)),
                    }
                }
            }
            // Irreducible regions have no single header to reason about:
            // every block parameter in one that holds `x` is a join.
            for r in self.loops.irreducible() {
                if r.blocks.contains(&x) {
                    for &b in &r.blocks {
                        if level > *self.param_floor.get(b) {
                            self.param_floor.set(b, level);
                            changed = true;
                        }
                    }
                }
            }
        }
        changed
    }

    fn run(mut self) -> UniformityInfo {
        // Seed the leaves (parameters, constants, undef, addresses).
        for (v, data) in self.func.values.iter() {
            let l = self.leaf_level(&data.def);
            self.values.set(v, l);
        }
        loop {
            let mut changed = false;
            while self.propagate_values() {
                changed = true;
            }
            if self.propagate_control() {
                changed = true;
            }
            if !changed {
                break;
            }
        }
        // Controlling branches are reported in reverse postorder.
        let cfg = self.cfg;
        for b in cfg.blocks() {
            if !self.controlling.get(b).is_empty() {
                self.controlling[b].sort_by_key(|&x| cfg.rpo_index(x));
            }
        }
        self.divergent_loops.sort_by_key(|(l, _)| l.index());
        let mut barriers = Vec::new();
        for &b in cfg.rpo() {
            for &i in &self.func.blocks[b].insts {
                if let InstKind::Barrier { scope, .. } = self.func.insts[i].kind {
                    barriers.push(BarrierSite {
                        inst: i,
                        block: b,
                        scope,
                        control: *self.control.get(b),
                        branches: self.controlling.get(b).clone(),
                    });
                }
            }
        }
        UniformityInfo {
            values: self.values,
            branches: self.branches,
            control: self.control,
            controlling: self.controlling,
            divergent_loops: self.divergent_loops,
            barriers,
        }
    }
}
