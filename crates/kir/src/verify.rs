//! The KIR verifier: checks the invariants every engine relies on.
//!
//! Like Cranelift's verifier, it does not stop at the first problem: it
//! collects every error it can find in one pass, so that a broken lowering
//! shows all of its mistakes at once. Checks that depend on something already
//! found broken (for example the type of an operand that is out of range) are
//! skipped rather than reported twice.
//!
//! What is checked, per function:
//!
//! - every entity reference (value, block, instruction, callee, global,
//!   local, file) is in range;
//! - every instruction sits in exactly one block, exactly once;
//! - every value's definition agrees with the site that defines it: the
//!   result of an instruction has `ValueDef::Inst(that inst)`, parameter `i`
//!   of the function (or of a block) has `Param(i)` (or `BlockParam(b, i)`),
//!   and no value claims a site that does not list it;
//! - every type is well formed (integers 1 to 128 bits, floats 16, 32 or 64)
//!   and constants, null pointers and addresses have suitable types;
//! - every instruction's operands and result have the types it requires (see
//!   `check_inst`), every branch condition is `i1`, every jump passes
//!   arguments matching its target's parameters, every return matches the
//!   function's return type, and every call matches its callee's signature;
//! - the entry block has no parameters and no predecessors (as in LLVM:
//!   nothing could supply its parameters, and engines assume a function
//!   starts there exactly once);
//! - SSA dominance: every use of a value is dominated by its definition.
//!   Function parameters and constants are defined everywhere, block
//!   parameters at the entry of their block. Uses in unreachable blocks are
//!   not checked (they never execute), but a reachable use of a value defined
//!   in an unreachable block is an error.

use std::fmt;

use crate::entity::{EntityRef, SecondaryMap};
use crate::ir::*;

/// One violated invariant.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VerifyError {
    /// The function, or `None` for a module-level error (about a global).
    pub func: Option<FuncId>,
    /// The function's source-level name, for messages.
    pub func_name: Option<String>,
    pub block: Option<BlockId>,
    pub inst: Option<InstId>,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.func, &self.func_name) {
            (Some(id), Some(name)) => write!(f, "{id} `{name}`")?,
            (Some(id), None) => write!(f, "{id}")?,
            (None, _) => f.write_str("module")?,
        }
        if let Some(block) = self.block {
            write!(f, ", {block}")?;
        }
        if let Some(inst) = self.inst {
            write!(f, ", {inst}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Checks every invariant of `module`; returns all the errors found.
pub fn verify_module(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    for (id, obj) in module.globals.iter() {
        check_mem_object(module, obj, &format!("{id}"), &mut |message| {
            errors.push(VerifyError { func: None, func_name: None, block: None, inst: None, message })
        });
    }
    for (id, func) in module.functions.iter() {
        FunctionVerifier::new(module, id, func, &mut errors).run();
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks one function of a module; returns all the errors found in it.
pub fn verify_function(module: &Module, id: FuncId) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    if let Some(func) = module.functions.get(id) {
        FunctionVerifier::new(module, id, func, &mut errors).run();
    } else {
        errors.push(VerifyError {
            func: Some(id),
            func_name: None,
            block: None,
            inst: None,
            message: format!("{id} is not a function of the module"),
        });
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Why a type is malformed, if it is.
fn type_problem(ty: Type) -> Option<String> {
    match ty {
        Type::Int(w) if w == 0 || w > 128 => Some(format!("integer width {w} is not in 1..=128")),
        Type::Float(w) if !matches!(w, 16 | 32 | 64) => Some(format!("float width {w} is not 16, 32 or 64")),
        _ => None,
    }
}

/// Whether a pointer of space `ptr` may hold the address of an object in
/// space `obj`: the same space, or the generic space.
fn space_fits(ptr: MemSpace, obj: MemSpace) -> bool {
    ptr == obj || ptr == MemSpace::Generic
}

fn check_mem_object(module: &Module, obj: &MemObject, what: &str, report: &mut dyn FnMut(String)) {
    if obj.align != 0 && !obj.align.is_power_of_two() {
        report(format!("{what} `{}`: alignment {} is not a power of two", obj.name, obj.align));
    }
    if let (Some(init), Some(size)) = (&obj.init, obj.size) {
        if init.len() as u64 > size {
            report(format!("{what} `{}`: {} bytes of initial contents exceed its size {size}", obj.name, init.len()));
        }
    }
    if let Some(loc) = obj.loc {
        if !module.files.is_valid(loc.file) {
            report(format!("{what} `{}`: location names unknown file {}", obj.name, loc.file));
        }
    }
}

/// Where an instruction sits: its block and its index in that block.
type Place = (BlockId, usize);

struct FunctionVerifier<'a> {
    module: &'a Module,
    id: FuncId,
    func: &'a Function,
    errors: &'a mut Vec<VerifyError>,
    /// The first place each instruction was found at.
    inst_place: SecondaryMap<InstId, Option<Place>>,
}

/// The index of a use in its block that stands for the terminator: after
/// every instruction.
const TERMINATOR_INDEX: usize = usize::MAX;

impl<'a> FunctionVerifier<'a> {
    fn new(module: &'a Module, id: FuncId, func: &'a Function, errors: &'a mut Vec<VerifyError>) -> Self {
        FunctionVerifier { module, id, func, errors, inst_place: SecondaryMap::new() }
    }

    fn error(&mut self, block: Option<BlockId>, inst: Option<InstId>, message: String) {
        self.errors.push(VerifyError {
            func: Some(self.id),
            func_name: Some(self.func.name.clone()),
            block,
            inst,
            message,
        });
    }

    fn run(mut self) {
        let func = self.func;
        if !func.blocks.is_valid(func.entry) {
            self.error(None, None, format!("entry block {} does not exist", func.entry));
        } else if !func.blocks[func.entry].params.is_empty() {
            self.error(Some(func.entry), None, "the entry block has parameters, which no jump can supply".to_string());
        }
        if let Some(ret) = func.ret {
            if let Some(problem) = type_problem(ret) {
                self.error(None, None, format!("return type: {problem}"));
            }
        }
        self.check_loc(None, None, func.loc, "the function's location");
        for (lid, obj) in func.locals.iter() {
            let mut messages = Vec::new();
            check_mem_object(self.module, obj, &format!("{lid}"), &mut |m| messages.push(m));
            for m in messages {
                self.error(None, None, m);
            }
        }
        self.check_params();
        self.check_placement();
        self.check_values();
        for inst in func.insts.keys() {
            self.check_inst(inst);
        }
        for block in func.blocks.keys() {
            self.check_terminator(block);
        }
        self.check_dominance();
    }

    fn check_loc(&mut self, block: Option<BlockId>, inst: Option<InstId>, loc: Option<SrcLoc>, what: &str) {
        if let Some(loc) = loc {
            if !self.module.files.is_valid(loc.file) {
                self.error(block, inst, format!("{what} names unknown file {}", loc.file));
            }
        }
    }

    fn check_params(&mut self) {
        let func = self.func;
        for (i, param) in func.params.iter().enumerate() {
            if let Some(problem) = type_problem(param.ty) {
                self.error(None, None, format!("parameter {i} `{}`: {problem}", param.name));
            }
            if param.pointee.is_some() && !param.ty.is_ptr() {
                self.error(
                    None,
                    None,
                    format!("parameter {i} `{}` has pointee information but type {}", param.name, param.ty),
                );
            }
            match func.values.get(param.value) {
                None => self.error(
                    None,
                    None,
                    format!("parameter {i} `{}` is value {}, which does not exist", param.name, param.value),
                ),
                Some(data) => {
                    if data.def != ValueDef::Param(i as u32) {
                        self.error(
                            None,
                            None,
                            format!(
                                "parameter {i} `{}` is value {} whose definition is {:?}, not Param({i})",
                                param.name, param.value, data.def
                            ),
                        );
                    }
                    if data.ty != param.ty {
                        self.error(
                            None,
                            None,
                            format!(
                                "parameter {i} `{}` has type {} but its value {} has type {}",
                                param.name, param.ty, param.value, data.ty
                            ),
                        );
                    }
                }
            }
        }
        for (b, block) in func.blocks.iter() {
            for (i, &v) in block.params.iter().enumerate() {
                match func.values.get(v) {
                    None => self.error(Some(b), None, format!("parameter {i} is value {v}, which does not exist")),
                    Some(data) if data.def != ValueDef::BlockParam(b, i as u32) => self.error(
                        Some(b),
                        None,
                        format!(
                            "parameter {i} is value {v} whose definition is {:?}, not BlockParam({b}, {i})",
                            data.def
                        ),
                    ),
                    Some(_) => {}
                }
            }
        }
    }

    /// Every instruction in exactly one block, exactly once.
    fn check_placement(&mut self) {
        let func = self.func;
        for (b, block) in func.blocks.iter() {
            for (index, &inst) in block.insts.iter().enumerate() {
                if !func.insts.is_valid(inst) {
                    self.error(Some(b), None, format!("instruction {inst} does not exist"));
                    continue;
                }
                match *self.inst_place.get(inst) {
                    Some((first, _)) if first == b => {
                        self.error(Some(b), Some(inst), format!("instruction appears twice in {b}"))
                    }
                    Some((first, _)) => {
                        self.error(Some(b), Some(inst), format!("instruction appears in both {first} and {b}"))
                    }
                    None => self.inst_place.set(inst, Some((b, index))),
                }
            }
            self.check_loc(Some(b), None, *func.term_locs.get(b), "the terminator's location");
        }
        for inst in func.insts.keys() {
            if self.inst_place.get(inst).is_none() {
                self.error(None, Some(inst), "instruction is in no block".to_string());
            }
            let loc = *func.inst_locs.get(inst);
            let block = self.block_of(inst);
            self.check_loc(block, Some(inst), loc, "the instruction's location");
        }
        // No-wrap flags belong to integer `add`, `sub`, `mul` and `shl`;
        // anywhere else they are a promise about an operation that does not
        // exist (`Function::no_wrap_of` ignores them, but a pass that left
        // them there has lost track of its instructions).
        // A rank read is a fact about a builtin read of `y` or `z`.
        for (inst, &rank) in func.rank_reads.iter() {
            let fits = matches!(func.insts.get(inst).map(|d| &d.kind), Some(InstKind::Builtin { dim: 1 | 2, .. }));
            if rank && !fits {
                let block = if func.insts.is_valid(inst) { self.block_of(inst) } else { None };
                self.error(block, None, format!("{inst} is marked a rank read, but it reads no `y` or `z` id or size"));
            }
        }
        for (inst, flags) in func.no_wrap.iter() {
            if flags.is_none() {
                continue;
            }
            let fits = matches!(
                func.insts.get(inst).map(|d| &d.kind),
                Some(InstKind::Binary { op, .. }) if NoWrap::applies_to(*op)
            );
            if !fits {
                let block = if func.insts.is_valid(inst) { self.block_of(inst) } else { None };
                self.error(block, None, format!("no-wrap flags on {inst}, which is no integer add, sub, mul or shl"));
            }
        }
    }

    fn block_of(&self, inst: InstId) -> Option<BlockId> {
        self.inst_place.get(inst).map(|(b, _)| b)
    }

    /// Each value's type and definition.
    fn check_values(&mut self) {
        let func = self.func;
        for (v, data) in func.values.iter() {
            if let Some(problem) = type_problem(data.ty) {
                self.error(None, None, format!("value {v}: {problem}"));
            }
            let ty = data.ty;
            match &data.def {
                ValueDef::Param(i) => match func.params.get(*i as usize) {
                    None => self.error(
                        None,
                        None,
                        format!(
                            "value {v} claims to be parameter {i}, but there are only {} parameters",
                            func.params.len()
                        ),
                    ),
                    Some(p) if p.value != v => {
                        self.error(None, None, format!("value {v} claims to be parameter {i}, which is {}", p.value))
                    }
                    Some(_) => {}
                },
                ValueDef::BlockParam(b, i) => match func.blocks.get(*b) {
                    None => self.error(
                        None,
                        None,
                        format!("value {v} claims to be a parameter of {b}, which does not exist"),
                    ),
                    Some(block) => match block.params.get(*i as usize) {
                        Some(&p) if p == v => {}
                        Some(&p) => self.error(
                            Some(*b),
                            None,
                            format!("value {v} claims to be parameter {i} of {b}, which is {p}"),
                        ),
                        None => self.error(
                            Some(*b),
                            None,
                            format!(
                                "value {v} claims to be parameter {i} of {b}, which has {} parameters",
                                block.params.len()
                            ),
                        ),
                    },
                },
                ValueDef::Inst(i) => match func.insts.get(*i) {
                    None => self.error(
                        None,
                        None,
                        format!("value {v} claims to be the result of {i}, which does not exist"),
                    ),
                    Some(inst) if inst.result != Some(v) => self.error(
                        self.block_of(*i),
                        Some(*i),
                        format!("value {v} claims to be the result of {i}, whose result is {:?}", inst.result),
                    ),
                    Some(_) => {}
                },
                ValueDef::Const(bits) => {
                    if ty.is_ptr() {
                        self.error(None, None, format!("constant {v} has pointer type {ty}"));
                    } else if ty.bits() < 128 && bits >> ty.bits() != 0 {
                        self.error(None, None, format!("constant {v} = {bits} does not fit in {ty}"));
                    }
                }
                ValueDef::Undef => {}
                ValueDef::Null => {
                    if !ty.is_ptr() {
                        self.error(None, None, format!("null {v} has non-pointer type {ty}"));
                    }
                }
                ValueDef::GlobalAddr(g) => match self.module.globals.get(*g) {
                    None => self.error(None, None, format!("value {v} is the address of {g}, which does not exist")),
                    Some(obj) => self.check_address(v, ty, obj, &format!("{g}")),
                },
                ValueDef::LocalAddr(l) => match func.locals.get(*l) {
                    None => self.error(None, None, format!("value {v} is the address of {l}, which does not exist")),
                    Some(obj) => self.check_address(v, ty, obj, &format!("{l}")),
                },
            }
        }
        // Results: the value an instruction defines must say so.
        for (inst, data) in func.insts.iter() {
            let Some(result) = data.result else { continue };
            let block = self.block_of(inst);
            match func.values.get(result) {
                None => self.error(block, Some(inst), format!("result {result} does not exist")),
                Some(vd) if vd.def != ValueDef::Inst(inst) => self.error(
                    block,
                    Some(inst),
                    format!("result {result} has definition {:?}, not Inst({inst})", vd.def),
                ),
                Some(_) => {}
            }
        }
    }

    fn check_address(&mut self, v: ValueId, ty: Type, obj: &MemObject, what: &str) {
        match ty {
            Type::Ptr(space) if space_fits(space, obj.space) => {}
            _ => self.error(
                None,
                None,
                format!("value {v} is the address of {what} in {} memory but has type {ty}", obj.space.name()),
            ),
        }
    }

    /// The type of an operand, or `None` (after reporting) if it is out of range.
    fn operand_type(&mut self, block: Option<BlockId>, inst: Option<InstId>, v: ValueId) -> Option<Type> {
        match self.func.values.get(v) {
            Some(data) => Some(data.ty),
            None => {
                self.error(block, inst, format!("operand {v} does not exist"));
                None
            }
        }
    }

    fn check_inst(&mut self, inst: InstId) {
        let func = self.func;
        let data = &func.insts[inst];
        let block = self.block_of(inst);
        let mut types = Vec::new();
        let mut all_valid = true;
        for v in data.kind.operands() {
            match self.operand_type(block, Some(inst), v) {
                Some(t) => types.push(t),
                None => all_valid = false,
            }
        }
        let result = match data.result {
            Some(r) => match func.values.get(r) {
                Some(vd) => Some(vd.ty),
                // Already reported by `check_values`.
                None => return,
            },
            None => None,
        };
        if !all_valid {
            return;
        }
        let mut problems: Vec<String> = Vec::new();
        check_inst_types(self.module, func, &data.kind, &types, result, &mut problems);
        if matches!(data.kind, InstKind::Collective { .. }) && !self.follows_group_barrier(block, inst) {
            problems.push("does not stand directly after a group barrier of its block".to_string());
        }
        let name = inst_name(&data.kind);
        for p in problems {
            self.error(block, Some(inst), format!("{name}: {p}"));
        }
    }

    /// Whether `inst` stands directly after a `barrier group` in `block`:
    /// a collective is that barrier's combining step, and the engines rely
    /// on the pair (the interpreter's threads meet at the barrier with the
    /// collective's operand already computed).
    fn follows_group_barrier(&self, block: Option<BlockId>, inst: InstId) -> bool {
        let Some(b) = block else { return false };
        let insts = &self.func.blocks[b].insts;
        let Some(k) = insts.iter().position(|&i| i == inst) else { return false };
        k > 0 && matches!(self.func.insts[insts[k - 1]].kind, InstKind::Barrier { scope: BarrierScope::Group, .. })
    }

    fn check_terminator(&mut self, b: BlockId) {
        let func = self.func;
        let term = &func.blocks[b].term;
        if let Terminator::Branch { cond, .. } = term {
            if let Some(t) = self.operand_type(Some(b), None, *cond) {
                if t != Type::BOOL {
                    self.error(Some(b), None, format!("branch condition {cond} has type {t}, not i1"));
                }
            }
        }
        for call in term.block_calls() {
            let mut arg_types = Vec::new();
            for &a in &call.args {
                arg_types.push(self.operand_type(Some(b), None, a));
            }
            let Some(target) = func.blocks.get(call.block) else {
                self.error(Some(b), None, format!("jump to {}, which does not exist", call.block));
                continue;
            };
            if call.block == func.entry {
                // Jumping back to the entry is legal in principle, but the
                // engines assume the entry block has no predecessors.
                self.error(Some(b), None, format!("jump to the entry block {}", call.block));
            }
            if target.params.len() != call.args.len() {
                self.error(
                    Some(b),
                    None,
                    format!(
                        "jump to {} passes {} arguments but it has {} parameters",
                        call.block,
                        call.args.len(),
                        target.params.len()
                    ),
                );
                continue;
            }
            for (i, (&p, arg_ty)) in target.params.iter().zip(arg_types).enumerate() {
                let (Some(arg_ty), Some(pd)) = (arg_ty, func.values.get(p)) else { continue };
                if arg_ty != pd.ty {
                    self.error(
                        Some(b),
                        None,
                        format!(
                            "argument {i} of the jump to {} is {} of type {arg_ty}, but the parameter has type {}",
                            call.block, call.args[i], pd.ty
                        ),
                    );
                }
            }
        }
        if let Terminator::Return(value) = term {
            match (value, func.ret) {
                (None, None) => {}
                (None, Some(ret)) => {
                    self.error(Some(b), None, format!("return without a value in a function returning {ret}"))
                }
                (Some(v), None) => self.error(Some(b), None, format!("return of {v} in a function returning nothing")),
                (Some(v), Some(ret)) => {
                    if let Some(t) = self.operand_type(Some(b), None, *v) {
                        if t != ret {
                            self.error(
                                Some(b),
                                None,
                                format!("return of {v} of type {t} in a function returning {ret}"),
                            );
                        }
                    }
                }
            }
        }
    }

    fn check_dominance(&mut self) {
        let func = self.func;
        if !func.blocks.is_valid(func.entry) {
            return;
        }
        let doms = Dominators::compute(func);
        for (b, block) in func.blocks.iter() {
            if !doms.is_reachable(b) {
                continue;
            }
            for (index, &inst) in block.insts.iter().enumerate() {
                // Only the first placement of an instruction is checked: a
                // duplicate was reported already.
                if *self.inst_place.get(inst) != Some((b, index)) {
                    continue;
                }
                for v in unique(func.insts[inst].kind.operands()) {
                    self.check_use(&doms, v, b, index, Some(inst));
                }
            }
            for v in unique(block.term.operands()) {
                self.check_use(&doms, v, b, TERMINATOR_INDEX, None);
            }
        }
    }

    /// Checks that the definition of `v` dominates its use at `index` in `b`.
    fn check_use(&mut self, doms: &Dominators, v: ValueId, b: BlockId, index: usize, inst: Option<InstId>) {
        let Some(data) = self.func.values.get(v) else { return };
        let ok = match &data.def {
            ValueDef::Param(_)
            | ValueDef::Const(_)
            | ValueDef::Undef
            | ValueDef::GlobalAddr(_)
            | ValueDef::LocalAddr(_)
            | ValueDef::Null => true,
            ValueDef::BlockParam(db, _) => {
                if !self.func.blocks.is_valid(*db) {
                    return;
                }
                doms.dominates(*db, b)
            }
            ValueDef::Inst(di) => {
                // A value whose defining instruction is misplaced or does not
                // name it was reported already; its dominance is meaningless.
                let Some((db, dindex)) = *self.inst_place.get(*di) else { return };
                if self.func.insts.get(*di).and_then(|d| d.result) != Some(v) {
                    return;
                }
                if db == b {
                    dindex < index
                } else {
                    doms.dominates(db, b)
                }
            }
        };
        if !ok {
            let site = match &data.def {
                ValueDef::Inst(di) => format!("{di} in {}", self.block_of(*di).map_or("?".into(), |x| x.to_string())),
                ValueDef::BlockParam(db, _) => format!("the parameters of {db}"),
                _ => String::new(),
            };
            let user = if index == TERMINATOR_INDEX { "the terminator".to_string() } else { "this use".to_string() };
            self.error(Some(b), inst, format!("use of {v} is not dominated by its definition ({site}) at {user}"));
        }
    }
}

/// The values of `values` without repetitions, in first-seen order, so that
/// an instruction using one value twice gets one error about it.
fn unique(mut values: Vec<ValueId>) -> Vec<ValueId> {
    let mut seen = std::collections::HashSet::new();
    values.retain(|v| seen.insert(*v));
    values
}

/// The name of an instruction in messages: its text-form opcode.
fn inst_name(kind: &InstKind) -> String {
    match kind {
        InstKind::Binary { op, .. } => op.name().to_string(),
        InstKind::Icmp { .. } => "icmp".to_string(),
        InstKind::Select { .. } => "select".to_string(),
        InstKind::Cast { op, .. } => op.name().to_string(),
        InstKind::Float { op, .. } => op.name().to_string(),
        InstKind::Fcmp { .. } => "fcmp".to_string(),
        InstKind::PtrAdd { .. } => "ptradd".to_string(),
        InstKind::Load { .. } => "load".to_string(),
        InstKind::Store { .. } => "store".to_string(),
        InstKind::Atomic { op, .. } => format!("atomic {}", op.name()),
        InstKind::CmpXchg { .. } => "cmpxchg".to_string(),
        InstKind::MemCopy { .. } => "memcpy".to_string(),
        InstKind::MemSet { .. } => "memset".to_string(),
        InstKind::Barrier { .. } => "barrier".to_string(),
        InstKind::Fence { .. } => "fence".to_string(),
        InstKind::Builtin { var, .. } => format!("builtin {}", var.name()),
        InstKind::Warp { op, .. } => format!("warp {}", op.name()),
        InstKind::Collective { op, .. } => format!("collective {}", op.name()),
        InstKind::Call { callee, .. } => format!("call {callee}"),
        InstKind::CallExternal { name, .. } => format!("call_external `{name}`"),
        InstKind::Annot { kind, .. } => format!("annot {}", kind.name()),
        InstKind::AnnotValue { func, .. } => format!("annot_value {}", func.name()),
        InstKind::Havoc => "havoc".to_string(),
        InstKind::InvalidCall { .. } => "invalid_call".to_string(),
        InstKind::Nop { .. } => "nop".to_string(),
    }
}

/// Whether an instruction must, may or must not define a value.
enum ResultRule {
    Required,
    Forbidden,
    Optional,
}

/// Checks the operand and result types of one instruction. `ops` are the
/// operand types in `InstKind::operands` order (all in range); `result` is
/// the result's type if it has one. Problems are pushed to `out`.
fn check_inst_types(
    module: &Module,
    func: &Function,
    kind: &InstKind,
    ops: &[Type],
    result: Option<Type>,
    out: &mut Vec<String>,
) {
    use InstKind as K;
    let rule = match kind {
        K::Store { .. }
        | K::MemCopy { .. }
        | K::MemSet { .. }
        | K::Barrier { .. }
        | K::Fence { .. }
        | K::Annot { .. }
        | K::InvalidCall { .. } => ResultRule::Forbidden,
        K::Call { .. } | K::CallExternal { .. } | K::Nop { .. } => ResultRule::Optional,
        _ => ResultRule::Required,
    };
    match (&rule, result) {
        (ResultRule::Required, None) => out.push("must define a value".to_string()),
        (ResultRule::Forbidden, Some(_)) => out.push("defines a value but produces none".to_string()),
        _ => {}
    }
    // `want(cond, message)` records a problem when `cond` is false.
    let mut want = |cond: bool, message: String| {
        if !cond {
            out.push(message);
        }
    };
    let same_result = |want: &mut dyn FnMut(bool, String), ty: Type| {
        if let Some(r) = result {
            want(r == ty, format!("result has type {r}, expected {ty}"));
        }
    };
    let bool_result = |want: &mut dyn FnMut(bool, String)| same_result(want, Type::BOOL);
    let count = |want: &mut dyn FnMut(bool, String), n: usize| -> bool {
        want(ops.len() == n, format!("takes {n} operands, found {}", ops.len()));
        ops.len() == n
    };
    match kind {
        K::Binary { .. } => {
            // The result is compared only with well-typed operands, so that
            // one mistake is reported once.
            let ok = ops[0].is_int() && ops[0] == ops[1];
            want(ok, format!("operands must have one integer type, found {} and {}", ops[0], ops[1]));
            if ok {
                same_result(&mut want, ops[0]);
            }
        }
        K::Icmp { .. } => {
            // Pointer equality (`p != NULL`) is an integer comparison in LLVM.
            want(
                (ops[0].is_int() || ops[0].is_ptr()) && ops[0] == ops[1],
                format!("operands must have one integer or pointer type, found {} and {}", ops[0], ops[1]),
            );
            bool_result(&mut want);
        }
        K::Select { .. } => {
            want(ops[0] == Type::BOOL, format!("condition has type {}, not i1", ops[0]));
            want(ops[1] == ops[2], format!("arms have different types {} and {}", ops[1], ops[2]));
            same_result(&mut want, ops[1]);
        }
        K::Cast { op, .. } => {
            if let Some(to) = result {
                check_cast(*op, ops[0], to, &mut want);
            }
        }
        K::Float { op, .. } => {
            let n = if *op == FloatOp::Neg { 1 } else { 2 };
            if count(&mut want, n) {
                let ok = ops[0].is_float() && ops.iter().all(|&t| t == ops[0]);
                want(ok, format!("operands must have one float type, found {}", list(ops)));
                if ok {
                    same_result(&mut want, ops[0]);
                }
            }
        }
        K::Fcmp { .. } => {
            want(
                ops[0].is_float() && ops[0] == ops[1],
                format!("operands must have one float type, found {} and {}", ops[0], ops[1]),
            );
            bool_result(&mut want);
        }
        K::PtrAdd { .. } => {
            want(ops[0].is_ptr(), format!("base has type {}, not a pointer", ops[0]));
            want(ops[1] == Type::I64, format!("offset has type {}, not i64", ops[1]));
            same_result(&mut want, ops[0]);
        }
        K::Load { align, .. } => {
            want(ops[0].is_ptr(), format!("address has type {}, not a pointer", ops[0]));
            want(*align == 0 || align.is_power_of_two(), format!("alignment {align} is not a power of two"));
        }
        K::Store { align, .. } => {
            want(ops[0].is_ptr(), format!("address has type {}, not a pointer", ops[0]));
            want(*align == 0 || align.is_power_of_two(), format!("alignment {align} is not a power of two"));
        }
        K::Atomic { op, .. } => {
            want(ops[0].is_ptr(), format!("address has type {}, not a pointer", ops[0]));
            let value_ok = match op {
                AtomicOp::FAdd | AtomicOp::FSub => ops[1].is_float(),
                // Exchange moves bits of any type.
                AtomicOp::Xchg => true,
                _ => ops[1].is_int(),
            };
            want(value_ok, format!("operand has type {}, which `atomic {}` does not take", ops[1], op.name()));
            same_result(&mut want, ops[1]);
        }
        K::CmpXchg { .. } => {
            want(ops[0].is_ptr(), format!("address has type {}, not a pointer", ops[0]));
            want(
                !ops[1].is_float() && ops[1] == ops[2],
                format!(
                    "expected and new values must have one integer or pointer type, found {} and {}",
                    ops[1], ops[2]
                ),
            );
            same_result(&mut want, ops[1]);
        }
        K::MemCopy { .. } => {
            want(ops[0].is_ptr(), format!("destination has type {}, not a pointer", ops[0]));
            want(ops[1].is_ptr(), format!("source has type {}, not a pointer", ops[1]));
            want(ops[2].is_int(), format!("length has type {}, not an integer", ops[2]));
        }
        K::MemSet { .. } => {
            want(ops[0].is_ptr(), format!("destination has type {}, not a pointer", ops[0]));
            want(ops[1].is_int(), format!("byte has type {}, not an integer", ops[1]));
            want(ops[2].is_int(), format!("length has type {}, not an integer", ops[2]));
        }
        K::Barrier { scope, mask, .. } => {
            if mask.is_some() {
                want(*scope == BarrierScope::Warp, format!("a {} barrier has a member mask; only a warp barrier takes one", scope.name()));
                want(ops.first().is_some_and(|t| t.is_int()), "mask is not an integer".to_string());
            }
        }
        K::Fence { .. } | K::Havoc | K::CallExternal { .. } | K::Nop { .. } => {}
        K::InvalidCall { .. } => want(ops[0].is_ptr(), format!("call target has type {}, not a pointer", ops[0])),
        K::Builtin { dim, .. } => {
            want(*dim < 3, format!("dimension {dim} is not 0, 1 or 2"));
            same_result(&mut want, Type::I32);
        }
        K::Warp { op, .. } => match op {
            WarpOp::ActiveMask | WarpOp::LaneId => {
                count(&mut want, 0);
                same_result(&mut want, Type::I32);
            }
            WarpOp::Ballot | WarpOp::All | WarpOp::Any | WarpOp::MatchAny => {
                if count(&mut want, 2) {
                    want(ops[0].is_int(), format!("mask has type {}, not an integer", ops[0]));
                    want(ops[1].is_int(), format!("operand has type {}, not an integer", ops[1]));
                }
                if let Some(r) = result {
                    want(r.is_int(), format!("result has type {r}, not an integer"));
                }
            }
            WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => {
                // (mask, value, lane or delta [, width])
                want(ops.len() == 3 || ops.len() == 4, format!("takes 3 or 4 operands, found {}", ops.len()));
                if ops.len() >= 3 {
                    want(ops[0].is_int(), format!("mask has type {}, not an integer", ops[0]));
                    want(ops[2].is_int(), format!("lane has type {}, not an integer", ops[2]));
                    if let Some(&width) = ops.get(3) {
                        want(width.is_int(), format!("width has type {width}, not an integer"));
                    }
                    same_result(&mut want, ops[1]);
                }
            }
        },
        K::Collective { .. } => {
            want(ops[0].is_int(), format!("operand has type {}, not an integer", ops[0]));
            same_result(&mut want, Type::I32);
        }
        K::Call { callee, .. } => match module.functions.get(*callee) {
            None => want(false, format!("callee {callee} does not exist")),
            Some(target) => {
                if count(&mut want, target.params.len()) {
                    for (i, (p, &t)) in target.params.iter().zip(ops).enumerate() {
                        want(p.ty == t, format!("argument {i} has type {t}, but `{}` takes {}", target.name, p.ty));
                    }
                }
                // A result may be dropped, but one that is kept must match.
                match (result, target.ret) {
                    (Some(r), Some(ret)) => {
                        want(r == ret, format!("result has type {r}, but `{}` returns {ret}", target.name))
                    }
                    (Some(_), None) => want(false, format!("defines a value, but `{}` returns nothing", target.name)),
                    _ => {}
                }
            }
        },
        K::Annot { kind, .. } => match kind {
            AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary => {
                want(!ops.is_empty(), "needs the invariant as its first operand".to_string());
                if let Some(&first) = ops.first() {
                    want(first == Type::BOOL, format!("invariant has type {first}, not i1"));
                }
            }
            AnnotKind::NoRead | AnnotKind::NoWrite | AnnotKind::FreshArray | AnnotKind::WritesTo | AnnotKind::ReadsFrom => {
                if count(&mut want, 1) {
                    want(ops[0].is_ptr(), format!("operand has type {}, not a pointer", ops[0]));
                }
            }
            _ => {
                if count(&mut want, 1) {
                    want(ops[0] == Type::BOOL, format!("condition has type {}, not i1", ops[0]));
                }
            }
        },
        K::AnnotValue { func: f, .. } => check_annot_value(*f, ops, result, func.ret, &mut want),
    }
}

/// The type rules of annotation expressions.
fn check_annot_value(
    f: AnnotFn,
    ops: &[Type],
    result: Option<Type>,
    ret: Option<Type>,
    want: &mut dyn FnMut(bool, String),
) {
    use AnnotFn as A;
    let arity = match f {
        A::Enabled | A::ReturnVal => Some(0),
        A::Implies => Some(2),
        A::AtomicHasTakenValue => Some(3),
        A::SameGroup => None,
        _ => Some(1),
    };
    if let Some(n) = arity {
        if ops.len() != n {
            want(false, format!("takes {n} operands, found {}", ops.len()));
            return;
        }
    }
    let result_is = |want: &mut dyn FnMut(bool, String), ty: Type| {
        if let Some(r) = result {
            want(r == ty, format!("result has type {r}, expected {ty}"));
        }
    };
    match f {
        A::Read | A::Write | A::AtomicHasTakenValue => {
            want(ops[0].is_ptr(), format!("operand has type {}, not a pointer", ops[0]));
            result_is(want, Type::BOOL);
        }
        A::ReadOffset | A::WriteOffset | A::PtrOffset | A::PtrBase => {
            want(ops[0].is_ptr(), format!("operand has type {}, not a pointer", ops[0]));
        }
        A::OtherInt => {
            want(ops[0].is_int(), format!("operand has type {}, not an integer", ops[0]));
            result_is(want, ops[0]);
        }
        A::OtherPtr => {
            want(ops[0].is_ptr(), format!("operand has type {}, not a pointer", ops[0]));
            result_is(want, ops[0]);
        }
        A::OtherBool => {
            want(ops[0] == Type::BOOL, format!("operand has type {}, not i1", ops[0]));
            result_is(want, Type::BOOL);
        }
        A::UniformInt | A::DistinctInt => {
            want(ops[0].is_int(), format!("operand has type {}, not an integer", ops[0]));
            result_is(want, Type::BOOL);
        }
        A::UniformBool | A::DistinctBool => {
            want(ops[0] == Type::BOOL, format!("operand has type {}, not i1", ops[0]));
            result_is(want, Type::BOOL);
        }
        A::Implies => {
            want(
                ops[0] == Type::BOOL && ops[1] == Type::BOOL,
                format!("operands have types {} and {}, not i1", ops[0], ops[1]),
            );
            result_is(want, Type::BOOL);
        }
        A::Enabled => result_is(want, Type::BOOL),
        A::ReturnVal => match ret {
            Some(ret) => result_is(want, ret),
            None => want(false, "used in a function that returns nothing".to_string()),
        },
        A::Old => result_is(want, ops[0]),
        A::SameGroup => {}
    }
}

/// The rules of each conversion.
fn check_cast(op: CastOp, from: Type, to: Type, want: &mut dyn FnMut(bool, String)) {
    use CastOp as C;
    let ok = match op {
        C::Zext | C::Sext => from.is_int() && to.is_int() && to.bits() > from.bits(),
        C::Trunc => from.is_int() && to.is_int() && to.bits() < from.bits(),
        C::FpToUi | C::FpToSi => from.is_float() && to.is_int(),
        C::UiToFp | C::SiToFp => from.is_int() && to.is_float(),
        C::FpExt => from.is_float() && to.is_float() && to.bits() > from.bits(),
        C::FpTrunc => from.is_float() && to.is_float() && to.bits() < from.bits(),
        C::Bitcast => !from.is_ptr() && !to.is_ptr() && from.bits() == to.bits(),
        C::PtrToInt => from.is_ptr() && to.is_int(),
        C::IntToPtr => from.is_int() && to.is_ptr(),
        C::AddrSpaceCast => from.is_ptr() && to.is_ptr(),
    };
    want(ok, format!("cannot convert {from} to {to}"));
}

fn list(types: &[Type]) -> String {
    types.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
}

/// Dominator tree of the blocks reachable from the entry, by the iterative
/// algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
/// Algorithm"): immediate dominators are refined over the reverse postorder
/// until nothing changes.
pub struct Dominators {
    /// Immediate dominator of each reachable block; the entry is its own.
    idom: SecondaryMap<BlockId, Option<BlockId>>,
    /// Position of each reachable block in reverse postorder.
    rpo_index: SecondaryMap<BlockId, usize>,
}

impl Dominators {
    /// Computes the dominators of `func`, whose entry block must exist.
    /// Jumps to blocks out of range are ignored.
    pub fn compute(func: &Function) -> Dominators {
        let n = func.blocks.len();
        let succs = |b: BlockId| -> Vec<BlockId> {
            func.blocks[b].term.successors().into_iter().filter(|s| func.blocks.is_valid(*s)).collect()
        };
        // Iterative depth-first search for the postorder.
        let mut visited = vec![false; n];
        let mut postorder = Vec::with_capacity(n);
        let mut stack: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
        if func.blocks.is_valid(func.entry) {
            visited[func.entry.index()] = true;
            stack.push((func.entry, succs(func.entry)));
        }
        while let Some((b, pending)) = stack.last_mut() {
            match pending.pop() {
                Some(s) if !visited[s.index()] => {
                    visited[s.index()] = true;
                    let next = succs(s);
                    stack.push((s, next));
                }
                Some(_) => {}
                None => {
                    postorder.push(*b);
                    stack.pop();
                }
            }
        }
        let rpo: Vec<BlockId> = postorder.iter().rev().copied().collect();
        let mut rpo_index = SecondaryMap::with_default(usize::MAX);
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index.set(b, i);
        }
        let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); n];
        for &b in &rpo {
            for s in succs(b) {
                preds[s.index()].push(b);
            }
        }
        let mut idom: SecondaryMap<BlockId, Option<BlockId>> = SecondaryMap::new();
        if let Some(&entry) = rpo.first() {
            idom.set(entry, Some(entry));
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom: Option<BlockId> = None;
                for &p in &preds[b.index()] {
                    if idom.get(p).is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo_index, p, cur),
                    });
                }
                if *idom.get(b) != new_idom {
                    idom.set(b, new_idom);
                    changed = true;
                }
            }
        }
        Dominators { idom, rpo_index }
    }

    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.idom.get(b).is_some()
    }

    /// The immediate dominator of `b`; `None` for the entry and for
    /// unreachable blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        self.idom.get(b).filter(|&d| d != b)
    }

    /// Whether `a` dominates `b` (every block dominates itself). Unreachable
    /// blocks dominate nothing and are dominated by nothing.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let mut cur = b;
        loop {
            if cur == a {
                return true;
            }
            match self.idom(cur) {
                Some(up) => cur = up,
                None => return false,
            }
        }
    }

    /// Position of `b` in reverse postorder (`usize::MAX` if unreachable).
    pub fn rpo_index(&self, b: BlockId) -> usize {
        *self.rpo_index.get(b)
    }
}

fn intersect(
    idom: &SecondaryMap<BlockId, Option<BlockId>>,
    rpo_index: &SecondaryMap<BlockId, usize>,
    mut a: BlockId,
    mut b: BlockId,
) -> BlockId {
    while a != b {
        while rpo_index[a] > rpo_index[b] {
            a = idom.get(a).expect("processed blocks have a dominator");
        }
        while rpo_index[b] > rpo_index[a] {
            b = idom.get(b).expect("processed blocks have a dominator");
        }
    }
    a
}
