//! Inlining: replaces every `Call` of a function by the callee's body, so
//! that the engines (which reason about one kernel at a time) see all the
//! code a kernel runs.
//!
//! The pass builds a new `Function` and leaves the module untouched. At each
//! call site the block holding the call is split: its first part jumps to a
//! copy of the callee's entry block, and every `return` of the copy jumps to
//! a fresh *continuation* block whose one parameter (for a callee that
//! returns a value) is the call's result; the instructions after the call
//! continue there. Callees are inlined recursively, and a call chain that
//! reaches a function already being inlined is rejected with
//! `InlineError::Recursion`, which names that function.
//!
//! What is preserved: source locations of instructions and terminators (the
//! jump into an inlined body carries the call's location, the jumps out of it
//! the locations of the `return`s), value names, and private memory objects,
//! which are copied once per call site (each activation has its own) and
//! renamed `callee.name`. Blocks unreachable from an entry are dropped.
//!
//! Contracts of the callee become checks at the call site:
//!
//! - `requires(c)` (and `global_requires`) becomes `assert(c)`
//!   (`global_assert`) in place. Preconditions stand at the top of the
//!   callee's body, so the copy runs right after the jump from the call
//!   site, before any effect of the callee: the caller must establish them.
//! - `ensures(c)` (and `global_ensures`) becomes `assume(c)` in the
//!   continuation block, right after the call returns. The instructions that
//!   compute `c` only for the postcondition are moved there with it, so that
//!   `__return_val_*()` can read the returned value (the continuation's
//!   parameter) and loads see memory as the callee left it; `__old_*(x)`
//!   keeps `x`, which SSA makes the value on entry. The postcondition is
//!   *assumed*, not checked: the inlined body is what the engines verify,
//!   and a postcondition is the callee's claim about it. A postcondition
//!   that depends on a value that cannot be moved after the call (one
//!   computed on only some paths of the callee) is dropped, which only
//!   weakens what is assumed, and listed in `Inlined::dropped_ensures`.
//!   A `__return_val_*()` left outside any postcondition has no meaning in
//!   the caller and becomes `havoc`.
//!
//! Invariant: if the module passes `verify_module`, so does the module with
//! the inlined function written back in place of the original.

pub mod in_place;

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use lockstep_kir::{
    AnnotFn, AnnotKind, BlockCall, BlockId, FuncId, Function, InstId, InstKind, LocalId, Module,
    SecondaryMap, SrcLoc, Terminator, ValueDef, ValueId,
};

use crate::cfg::Cfg;
use crate::dom::DomTree;

/// Why a function could not be inlined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InlineError {
    /// A call chain returns to a function it started from. `function` is
    /// that function; `chain` lists the calls from the inlined function down
    /// to the repeated one.
    Recursion { function: String, chain: Vec<String> },
    /// A call names a function that is not in the module.
    MissingCallee { caller: String, callee: FuncId },
    /// A call passes the wrong number of arguments.
    ArityMismatch { caller: String, callee: String, expected: usize, found: usize },
}

impl fmt::Display for InlineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InlineError::Recursion { function, chain } => {
                write!(f, "cannot inline recursive function `{function}` (call chain: {})", chain.join(" -> "))
            }
            InlineError::MissingCallee { caller, callee } => {
                write!(f, "`{caller}` calls {callee}, which does not exist")
            }
            InlineError::ArityMismatch { caller, callee, expected, found } => {
                write!(f, "`{caller}` calls `{callee}` with {found} arguments, but it takes {expected}")
            }
        }
    }
}

impl std::error::Error for InlineError {}

/// A postcondition that could not be moved after its call.
#[derive(Clone, Debug, PartialEq)]
pub struct DroppedEnsures {
    /// The callee whose postcondition it is.
    pub callee: String,
    /// Where the postcondition was written.
    pub loc: Option<SrcLoc>,
}

/// The result of inlining.
#[derive(Clone, Debug)]
pub struct Inlined {
    /// The function with no `Call` left.
    pub function: Function,
    /// How many call sites were inlined, nested ones included.
    pub calls_inlined: usize,
    pub dropped_ensures: Vec<DroppedEnsures>,
}

/// Inlines every call of function `id` of `module`, recursively.
pub fn inline_calls(module: &Module, id: FuncId) -> Result<Inlined, InlineError> {
    let Some(func) = module.functions.get(id) else {
        return Err(InlineError::MissingCallee { caller: "<module>".to_string(), callee: id });
    };
    let mut out = Function::new(func.name.clone(), func.link_name.clone(), func.is_kernel);
    out.ret = func.ret;
    out.loc = func.loc;
    let mut inliner = Inliner { module, out, stack: vec![id], calls_inlined: 0, dropped: Vec::new() };
    let mut params = Vec::with_capacity(func.params.len());
    for p in &func.params {
        let v = inliner.out.add_param(p.name.clone(), p.ty, p.pointee.clone());
        inliner.out.values[v].name = func.values.get(p.value).and_then(|d| d.name.clone());
        params.push(v);
    }
    let entry = inliner.out.entry;
    inliner.emit(id, &params, Some(entry))?;
    Ok(Inlined { function: inliner.out, calls_inlined: inliner.calls_inlined, dropped_ensures: inliner.dropped })
}

/// A copy of `module` in which every kernel has had its calls inlined.
/// Device functions are kept unchanged, so that a later pass can still
/// analyse them on their own.
pub fn inline_module(module: &Module) -> Result<Module, InlineError> {
    let mut result = module.clone();
    for (id, _) in module.kernels() {
        result.functions[id] = inline_calls(module, id)?.function;
    }
    Ok(result)
}

/// Whether an instruction can be recomputed at another point without
/// changing what the program does (it has no effect and is not collective),
/// so that a postcondition's computation may move after the call.
fn relocatable(kind: &InstKind) -> bool {
    kind.is_pure_computation() || matches!(kind, InstKind::Load { .. } | InstKind::AnnotValue { .. })
}

fn is_ensures(kind: &InstKind) -> bool {
    matches!(kind, InstKind::Annot { kind: AnnotKind::Ensures | AnnotKind::GlobalEnsures, .. })
}

struct Inliner<'m> {
    module: &'m Module,
    out: Function,
    /// The functions being inlined, outermost first.
    stack: Vec<FuncId>,
    calls_inlined: usize,
    dropped: Vec<DroppedEnsures>,
}

/// The state of copying one function body into `out`.
struct Copy<'m> {
    func: &'m Function,
    args: Vec<ValueId>,
    values: HashMap<ValueId, ValueId>,
    blocks: SecondaryMap<BlockId, Option<BlockId>>,
    locals: SecondaryMap<LocalId, Option<LocalId>>,
}

impl<'m> Inliner<'m> {
    /// Copies the body of `fid` into `out`, with its parameters bound to
    /// `args`. With `top` (the function being inlined into) the copy keeps
    /// its `return`s and contracts and starts in that block; otherwise the
    /// copy is a call site's callee and this returns its entry block, its
    /// continuation block, and the continuation's parameter.
    fn emit(
        &mut self,
        fid: FuncId,
        args: &[ValueId],
        top: Option<BlockId>,
    ) -> Result<(BlockId, BlockId, Option<ValueId>), InlineError> {
        let module = self.module;
        let func = &module.functions[fid];
        let nested = top.is_none();
        let cfg = Cfg::compute(func);
        let dom = DomTree::compute(&cfg);

        let mut copy = Copy {
            func,
            args: args.to_vec(),
            values: HashMap::new(),
            blocks: SecondaryMap::new(),
            locals: SecondaryMap::new(),
        };
        for (l, obj) in func.locals.iter() {
            let mut obj = obj.clone();
            if nested {
                obj.name = format!("{}.{}", func.name, obj.name);
            }
            let nl = self.out.locals.push(obj);
            copy.locals.set(l, Some(nl));
        }
        for &b in cfg.rpo() {
            let ob = match top {
                Some(entry) if b == func.entry => entry,
                _ => self.out.add_block(),
            };
            copy.blocks.set(b, Some(ob));
            for &p in &func.blocks[b].params {
                let ty = func.values[p].ty;
                let np = self.out.add_block_param(ob, ty);
                self.out.values[np].name = func.values[p].name.clone();
                copy.values.insert(p, np);
            }
        }

        let moved = if nested { ensures_only(func, &cfg) } else { BTreeSet::new() };
        let mut returns: Vec<(BlockId, Option<ValueId>, Option<SrcLoc>)> = Vec::new();
        let mut ensures: Vec<InstId> = Vec::new();

        for &b in cfg.rpo() {
            let mut cur = copy.blocks[b].expect("every reachable block was created");
            for &i in &func.blocks[b].insts {
                let data = &func.insts[i];
                let loc = *func.inst_locs.get(i);
                if nested && is_ensures(&data.kind) {
                    ensures.push(i);
                    continue;
                }
                if moved.contains(&i) {
                    continue;
                }
                if let InstKind::Call { callee, args: call_args } = &data.kind {
                    cur = self.inline_call(&mut copy, fid, *callee, call_args, data.result, cur, loc)?;
                    continue;
                }
                let mut kind = data.kind.clone();
                if nested {
                    kind = match kind {
                        InstKind::Annot { kind: AnnotKind::Requires, args } => {
                            InstKind::Annot { kind: AnnotKind::Assert, args }
                        }
                        InstKind::Annot { kind: AnnotKind::GlobalRequires, args } => {
                            InstKind::Annot { kind: AnnotKind::GlobalAssert, args }
                        }
                        InstKind::AnnotValue { func: AnnotFn::ReturnVal, .. } => InstKind::Havoc,
                        other => other,
                    };
                }
                kind.map_operands(|v| self.map_value(&mut copy, v));
                let ty = data.result.map(|r| func.values[r].ty);
                let (ni, nr) = self.out.append_inst(cur, kind, ty, loc);
                let no_wrap = func.no_wrap_of(i);
                if !no_wrap.is_none() {
                    self.out.no_wrap.set(ni, no_wrap);
                }
                if let (Some(r), Some(nr)) = (data.result, nr) {
                    self.out.values[nr].name = func.values[r].name.clone();
                    copy.values.insert(r, nr);
                }
            }
            let loc = *func.term_locs.get(b);
            let term = match &func.blocks[b].term {
                Terminator::Jump(call) => Terminator::Jump(self.map_block_call(&mut copy, call)),
                Terminator::Branch { cond, then_dest, else_dest } => Terminator::Branch {
                    cond: self.map_value(&mut copy, *cond),
                    then_dest: self.map_block_call(&mut copy, then_dest),
                    else_dest: self.map_block_call(&mut copy, else_dest),
                },
                Terminator::Return(v) => {
                    let v = v.map(|v| self.map_value(&mut copy, v));
                    if nested {
                        returns.push((cur, v, loc));
                        continue;
                    }
                    Terminator::Return(v)
                }
                Terminator::Unreachable => Terminator::Unreachable,
            };
            self.out.set_terminator(cur, term, loc);
        }

        let entry = copy.blocks[func.entry].unwrap_or(self.out.entry);
        if !nested {
            return Ok((entry, entry, None));
        }

        // Every `return` of the copy jumps to the continuation.
        let cont = self.out.add_block();
        let result = func.ret.map(|ty| self.out.add_block_param(cont, ty));
        for &(site, value, loc) in &returns {
            let args = match (result, value) {
                (Some(_), Some(v)) => vec![v],
                // A `return` without a value in a function that returns one
                // (rejected by `verify`) passes an unspecified value.
                (Some(r), None) => vec![self.out.make_value(self.out.values[r].ty, ValueDef::Undef)],
                (None, _) => vec![],
            };
            self.out.set_terminator(site, Terminator::Jump(BlockCall { block: cont, args }), loc);
        }

        // Postconditions, assumed after the call. Values the postcondition
        // reads but that cannot move must be available on every path to a
        // `return`: their block must dominate every returning block.
        let return_blocks: Vec<BlockId> =
            cfg.rpo().iter().copied().filter(|&b| matches!(func.blocks[b].term, Terminator::Return(_))).collect();
        let mut slice: HashMap<ValueId, Option<ValueId>> = HashMap::new();
        for &e in &ensures {
            let InstKind::Annot { args, .. } = &func.insts[e].kind else { continue };
            let loc = *func.inst_locs.get(e);
            let mut moved_args = Vec::with_capacity(args.len());
            for &a in args {
                match self.move_value(&mut copy, &dom, &return_blocks, &mut slice, cont, result, a) {
                    Some(v) => moved_args.push(v),
                    None => break,
                }
            }
            if moved_args.len() == args.len() {
                self.out.append_inst(cont, InstKind::Annot { kind: AnnotKind::Assume, args: moved_args }, None, loc);
            } else {
                self.dropped.push(DroppedEnsures { callee: func.name.clone(), loc });
            }
        }
        Ok((entry, cont, result))
    }

    /// Inlines one call site whose block has been copied up to `cur`;
    /// returns the block where the caller's copy continues.
    #[allow(clippy::too_many_arguments)]
    fn inline_call(
        &mut self,
        copy: &mut Copy<'m>,
        caller: FuncId,
        callee: FuncId,
        call_args: &[ValueId],
        result: Option<ValueId>,
        cur: BlockId,
        loc: Option<SrcLoc>,
    ) -> Result<BlockId, InlineError> {
        let module = self.module;
        let caller_name = module.functions[caller].name.clone();
        let Some(target) = module.functions.get(callee) else {
            return Err(InlineError::MissingCallee { caller: caller_name, callee });
        };
        if target.params.len() != call_args.len() {
            return Err(InlineError::ArityMismatch {
                caller: caller_name,
                callee: target.name.clone(),
                expected: target.params.len(),
                found: call_args.len(),
            });
        }
        if let Some(pos) = self.stack.iter().position(|&f| f == callee) {
            let mut chain: Vec<String> = self.stack[pos..].iter().map(|&f| module.functions[f].name.clone()).collect();
            chain.push(target.name.clone());
            return Err(InlineError::Recursion { function: target.name.clone(), chain });
        }
        let args: Vec<ValueId> = call_args.iter().map(|&a| self.map_value(copy, a)).collect();
        self.stack.push(callee);
        let (entry, cont, ret) = self.emit(callee, &args, None)?;
        self.stack.pop();
        self.calls_inlined += 1;
        self.out.set_terminator(cur, Terminator::Jump(BlockCall { block: entry, args: vec![] }), loc);
        if let Some(r) = result {
            let nr = match ret {
                Some(p) => p,
                // A kept result of a function returning nothing (rejected by
                // `verify`) becomes unspecified.
                None => self.out.make_value(copy.func.values[r].ty, ValueDef::Undef),
            };
            self.out.values[nr].name = copy.func.values[r].name.clone();
            copy.values.insert(r, nr);
        }
        Ok(cont)
    }

    /// The copy of `v` in `out`. Constants and addresses are created on
    /// first use; block parameters and instruction results were created
    /// before any use, because blocks are copied in reverse postorder.
    fn map_value(&mut self, copy: &mut Copy<'m>, v: ValueId) -> ValueId {
        if let Some(&nv) = copy.values.get(&v) {
            return nv;
        }
        let Some(data) = copy.func.values.get(v) else {
            // A dangling operand (rejected by `verify`): keep going.
            return self.out.make_value(lockstep_kir::Type::BOOL, ValueDef::Undef);
        };
        let nv = match &data.def {
            ValueDef::Param(i) => match copy.args.get(*i as usize) {
                Some(&a) => a,
                None => self.out.make_value(data.ty, ValueDef::Undef),
            },
            ValueDef::LocalAddr(l) => match copy.locals.get(*l) {
                Some(nl) => self.out.make_value(data.ty, ValueDef::LocalAddr(*nl)),
                None => self.out.make_value(data.ty, ValueDef::Undef),
            },
            ValueDef::Const(_) | ValueDef::Undef | ValueDef::Null | ValueDef::GlobalAddr(_) => {
                self.out.make_value(data.ty, data.def.clone())
            }
            // A use not dominated by its definition (only in code that
            // `verify` rejects or that is unreachable): unspecified.
            ValueDef::BlockParam(..) | ValueDef::Inst(_) => self.out.make_value(data.ty, ValueDef::Undef),
        };
        if matches!(data.def, ValueDef::Const(_) | ValueDef::GlobalAddr(_) | ValueDef::LocalAddr(_)) {
            self.out.values[nv].name = data.name.clone();
        }
        copy.values.insert(v, nv);
        nv
    }

    fn map_block_call(&mut self, copy: &mut Copy<'m>, call: &BlockCall) -> BlockCall {
        let block = copy.blocks.get(call.block).unwrap_or(self.out.entry);
        BlockCall { block, args: call.args.iter().map(|&a| self.map_value(copy, a)).collect() }
    }

    /// A copy of `v`, valid in the continuation block `cont`, for a
    /// postcondition; `None` if it cannot be made available there.
    #[allow(clippy::too_many_arguments)]
    fn move_value(
        &mut self,
        copy: &mut Copy<'m>,
        dom: &DomTree,
        return_blocks: &[BlockId],
        memo: &mut HashMap<ValueId, Option<ValueId>>,
        cont: BlockId,
        ret: Option<ValueId>,
        v: ValueId,
    ) -> Option<ValueId> {
        if let Some(&m) = memo.get(&v) {
            return m;
        }
        let func = copy.func;
        let data = func.values.get(v)?;
        // Whether a value defined in block `b` reaches every `return`.
        let available = |b: BlockId| return_blocks.iter().all(|&r| dom.dominates(b, r));
        let moved = match &data.def {
            ValueDef::Inst(i) => {
                let inst = func.insts.get(*i)?;
                if let InstKind::AnnotValue { func: AnnotFn::ReturnVal, .. } = inst.kind {
                    ret
                } else if relocatable(&inst.kind) {
                    let mut kind = inst.kind.clone();
                    let mut ok = true;
                    let mut operands = Vec::new();
                    for o in inst.kind.operands() {
                        match self.move_value(copy, dom, return_blocks, memo, cont, ret, o) {
                            Some(m) => operands.push(m),
                            None => ok = false,
                        }
                    }
                    if ok {
                        let mut it = operands.into_iter();
                        kind.map_operands(|o| it.next().unwrap_or(o));
                        let (_, nr) = self.out.append_inst(cont, kind, Some(data.ty), *func.inst_locs.get(*i));
                        if let Some(nr) = nr {
                            self.out.values[nr].name = data.name.clone();
                        }
                        nr
                    } else {
                        None
                    }
                } else {
                    let block = func.blocks.keys().find(|&b| func.blocks[b].insts.contains(i));
                    match (block, copy.values.get(&v)) {
                        (Some(b), Some(&nv)) if available(b) => Some(nv),
                        _ => None,
                    }
                }
            }
            ValueDef::BlockParam(b, _) => match copy.values.get(&v) {
                Some(&nv) if available(*b) => Some(nv),
                _ => None,
            },
            _ => Some(self.map_value(copy, v)),
        };
        memo.insert(v, moved);
        moved
    }
}

/// The instructions of `func` that exist only to compute postconditions:
/// relocatable instructions all of whose users are postconditions or other
/// such instructions. They are copied after the call instead of in place.
fn ensures_only(func: &Function, cfg: &Cfg) -> BTreeSet<InstId> {
    // Users of each value, as instructions; a use by a terminator is
    // recorded as `None`.
    let mut users: HashMap<ValueId, Vec<Option<InstId>>> = HashMap::new();
    let mut order: Vec<InstId> = Vec::new();
    for &b in cfg.rpo() {
        for &i in &func.blocks[b].insts {
            order.push(i);
            for v in func.insts[i].kind.operands() {
                users.entry(v).or_default().push(Some(i));
            }
        }
        for v in func.blocks[b].term.operands() {
            users.entry(v).or_default().push(None);
        }
    }
    let mut moved: BTreeSet<InstId> = BTreeSet::new();
    let mut changed = true;
    while changed {
        changed = false;
        for &i in order.iter().rev() {
            if moved.contains(&i) {
                continue;
            }
            let data = &func.insts[i];
            let Some(r) = data.result else { continue };
            if !relocatable(&data.kind) {
                continue;
            }
            let Some(us) = users.get(&r) else { continue };
            let only_ensures = us.iter().all(|u| match u {
                Some(u) => is_ensures(&func.insts[*u].kind) || moved.contains(u),
                None => false,
            });
            if only_ensures {
                moved.insert(i);
                changed = true;
            }
        }
    }
    moved
}
