//! A minimal inliner: replaces every `Call` of a kernel by a copy of the
//! callee's body, so that the product encoding sees one function.
//!
//! This is a private version written because the shared analysis crate's
//! inliner was not available yet. The kernel's own instructions keep their
//! ids; copied instructions get new ids, and `origin` maps every instruction
//! of the result back to the function and instruction it came from, so that
//! reports can name module-level locations.

use std::collections::{HashMap, HashSet};

use lockstep_kir::{
    AnnotFn, AnnotKind, BlockCall, BlockId, FuncId, Function, InstData, InstId, InstKind, LocalId, Module,
    Terminator, ValueData, ValueDef, ValueId,
};

/// At most this many calls are inlined; more means recursion (or a program
/// too large to prove this way).
const MAX_INLINES: usize = 2000;

/// The kernel with all calls inlined.
pub struct Inlined {
    pub func: Function,
    /// For every instruction of `func`: the module function and instruction
    /// it is a copy of.
    pub origin: HashMap<InstId, (FuncId, InstId)>,
    /// Callees' `__ensures` annotations moved to their call's return point
    /// (with `__return_val_*` replaced by the call's result): each is a
    /// postcondition to check there.
    pub postconditions: HashSet<InstId>,
    /// For a contract check (see `contract_wrapper`): the function whose
    /// preconditions are assumed rather than checked.
    pub contract_of: Option<FuncId>,
    /// Set by `function_wide::place`: the function-wide invariants have been
    /// copied to the loop headers, so the encoding skips the originals (which
    /// stay in place so that the loads feeding them still count as
    /// annotation reads, not program accesses).
    pub function_wide_placed: bool,
}

/// Inlines every call in `kernel`. Fails (with the call's instruction) on
/// recursion or calls of functions without a body.
pub fn inline_kernel(module: &Module, kernel: FuncId) -> Result<Inlined, (String, InstId)> {
    let mut f = module.functions[kernel].clone();
    let mut origin: HashMap<InstId, (FuncId, InstId)> =
        f.insts.keys().map(|i| (i, (kernel, i))).collect();
    let mut count = 0usize;
    let mut postconditions = HashSet::new();
    loop {
        let found = f.blocks.iter().find_map(|(b, block)| {
            block.insts.iter().enumerate().find_map(|(pos, &i)| match &f.insts[i].kind {
                InstKind::Call { callee, args } => Some((b, pos, i, *callee, args.clone())),
                _ => None,
            })
        });
        let Some((block, pos, call, callee_id, args)) = found else { break };
        count += 1;
        if count > MAX_INLINES {
            return Err(("recursive calls (or too many calls to inline)".into(), call));
        }
        let callee = &module.functions[callee_id];
        if args.len() != callee.params.len() {
            return Err((format!("call of `{}` with a wrong number of arguments", callee.name), call));
        }
        inline_one(&mut f, &mut origin, &mut postconditions, block, pos, call, callee_id, callee, &args);
    }
    Ok(Inlined { func: f, origin, postconditions, contract_of: None, function_wide_placed: false })
}

#[allow(clippy::too_many_arguments)]
fn inline_one(
    f: &mut Function,
    origin: &mut HashMap<InstId, (FuncId, InstId)>,
    postconditions: &mut HashSet<InstId>,
    block: BlockId,
    pos: usize,
    call: InstId,
    callee_id: FuncId,
    callee: &Function,
    args: &[ValueId],
) {
    // Split the calling block: the continuation takes the call's result as
    // its parameter.
    let cont = f.add_block();
    let rest: Vec<InstId> = f.blocks[block].insts.split_off(pos + 1);
    f.blocks[block].insts.pop();
    f.blocks[cont].insts = rest;
    f.blocks[cont].term = std::mem::replace(&mut f.blocks[block].term, Terminator::Unreachable);
    let term_loc = *f.term_locs.get(block);
    f.term_locs.set(cont, term_loc);
    if let Some(res) = f.insts[call].result {
        f.values[res].def = ValueDef::BlockParam(cont, 0);
        f.blocks[cont].params.push(res);
    }
    let call_loc = *f.inst_locs.get(call);
    let has_result = f.insts[call].result.is_some();

    // Map the callee's blocks, locals, instructions and values.
    let block_map: HashMap<BlockId, BlockId> = callee.blocks.keys().map(|b| (b, f.add_block())).collect();
    let local_map: HashMap<LocalId, LocalId> =
        callee.locals.iter().map(|(l, obj)| (l, f.locals.push(obj.clone()))).collect();
    let inst_base = f.insts.len() as u32;
    let inst_map = |i: InstId| InstId::from_u32(inst_base + i.as_u32());
    let mut value_map: HashMap<ValueId, ValueId> = HashMap::new();
    for (v, data) in callee.values.iter() {
        let def = match &data.def {
            ValueDef::Param(i) => {
                value_map.insert(v, args[*i as usize]);
                continue;
            }
            ValueDef::BlockParam(b, i) => ValueDef::BlockParam(block_map[b], *i),
            ValueDef::Inst(i) => ValueDef::Inst(inst_map(*i)),
            ValueDef::LocalAddr(l) => ValueDef::LocalAddr(local_map[l]),
            other => other.clone(),
        };
        let new = f.values.push(ValueData { ty: data.ty, def, name: data.name.clone() });
        value_map.insert(v, new);
    }
    let vm = |v: ValueId| value_map[&v];
    for (i, data) in callee.insts.iter() {
        let mut kind = data.kind.clone();
        kind.map_operands(vm);
        let new = f.insts.push(InstData { kind, result: data.result.map(vm) });
        debug_assert_eq!(new, inst_map(i));
        origin.insert(new, (callee_id, i));
        let loc = callee.inst_locs.get(i).or(call_loc);
        f.inst_locs.set(new, Some(loc).flatten());
        let no_wrap = callee.no_wrap_of(i);
        if !no_wrap.is_none() {
            f.no_wrap.set(new, no_wrap);
        }
    }
    let map_call = |c: &BlockCall| BlockCall { block: block_map[&c.block], args: c.args.iter().map(|&a| vm(a)).collect() };
    for (b, data) in callee.blocks.iter() {
        let nb = block_map[&b];
        f.blocks[nb].params = data.params.iter().map(|&p| vm(p)).collect();
        f.blocks[nb].insts = data.insts.iter().map(|&i| inst_map(i)).collect();
        f.blocks[nb].term = match &data.term {
            Terminator::Jump(c) => Terminator::Jump(map_call(c)),
            Terminator::Branch { cond, then_dest, else_dest } => Terminator::Branch {
                cond: vm(*cond),
                then_dest: map_call(then_dest),
                else_dest: map_call(else_dest),
            },
            Terminator::Return(v) => {
                let args = if has_result { v.iter().map(|&v| vm(v)).collect() } else { vec![] };
                Terminator::Jump(BlockCall { block: cont, args })
            }
            Terminator::Unreachable => Terminator::Unreachable,
        };
        let loc = *callee.term_locs.get(b);
        f.term_locs.set(nb, loc);
    }
    f.blocks[block].term = Terminator::Jump(BlockCall { block: block_map[&callee.entry], args: vec![] });
    f.term_locs.set(block, call_loc);
    let result = f.insts[call].result;
    move_postconditions(f, postconditions, block_map[&callee.entry], cont, result);
}

/// Moves the `__ensures` (and `__global_ensures`) annotations of an inlined
/// callee's entry block
/// (where GPUVerify's annotations are written) to the start of the call's
/// continuation `cont`, which only the callee's returns reach, together
/// with the instructions of the entry block that depend on
/// `__return_val_*`; those are replaced by the call's `result`. Every other
/// operand is defined in the callee's entry block or before the call, so
/// it still dominates its use. Postconditions anywhere else are left where
/// they are (and make the prover give up).
fn move_postconditions(
    f: &mut Function,
    postconditions: &mut HashSet<InstId>,
    entry: BlockId,
    cont: BlockId,
    result: Option<ValueId>,
) {
    let insts = f.blocks[entry].insts.clone();
    let is_post = |k: &InstKind| matches!(k, InstKind::Annot { kind: AnnotKind::Ensures | AnnotKind::GlobalEnsures, .. });
    if !insts.iter().any(|&i| is_post(&f.insts[i].kind)) {
        return;
    }
    // Values that stand for, or depend on, the return value.
    let mut ret_vals: HashSet<ValueId> = HashSet::new();
    let mut return_val_insts = Vec::new();
    let mut moved = Vec::new();
    for &i in &insts {
        let data = &f.insts[i];
        if let InstKind::AnnotValue { func: AnnotFn::ReturnVal, .. } = data.kind {
            let Some(r) = data.result else { return };
            if result.is_none_or(|res| f.values[res].ty != f.values[r].ty) {
                // A `void` callee or a mismatched type: leave it unsupported.
                return;
            }
            ret_vals.insert(r);
            return_val_insts.push(i);
            continue;
        }
        let mut uses_ret = false;
        data.kind.for_each_operand(|o| uses_ret |= ret_vals.contains(&o));
        let is_ensures = is_post(&data.kind);
        if uses_ret || is_ensures {
            if let Some(r) = data.result {
                ret_vals.insert(r);
            }
            moved.push(i);
        }
    }
    // Values of moved instructions (other than postconditions) must not be
    // used by what stays behind: a moved value is only defined after the
    // call.
    let moved_set: HashSet<InstId> = moved.iter().copied().collect();
    let defined_later: HashSet<ValueId> =
        moved.iter().filter_map(|&i| f.insts[i].result).chain(ret_vals.iter().copied()).collect();
    for (b, block) in f.blocks.iter() {
        for &i in &block.insts {
            if moved_set.contains(&i) || (b == entry && return_val_insts.contains(&i)) {
                continue;
            }
            let mut bad = false;
            f.insts[i].kind.for_each_operand(|o| bad |= defined_later.contains(&o));
            if bad {
                return;
            }
        }
        let mut bad = false;
        for o in block.term.operands() {
            bad |= defined_later.contains(&o);
        }
        if bad {
            return;
        }
    }
    let ret_value_map: HashSet<ValueId> =
        return_val_insts.iter().filter_map(|&i| f.insts[i].result).collect();
    let res = result.unwrap_or(ValueId::from_u32(0));
    for &i in &moved {
        f.insts[i].kind.map_operands(|o| if ret_value_map.contains(&o) { res } else { o });
        if is_post(&f.insts[i].kind) {
            postconditions.insert(i);
        }
    }
    f.blocks[entry].insts.retain(|i| !moved_set.contains(i) && !return_val_insts.contains(i));
    let rest = std::mem::take(&mut f.blocks[cont].insts);
    f.blocks[cont].insts = moved.into_iter().chain(rest).collect();
}

/// A kernel that calls `callee` once in every thread, for a function no
/// kernel calls (`--no-inline`'s modular check, as GPUVerify does it): the
/// wrapper takes `callee`'s parameters as its own, so that each pointer
/// parameter names an object of its own, and each thread passes its own
/// arbitrary offset into that object and its own arbitrary scalars. The
/// check therefore holds for every caller that satisfies the callee's
/// `__requires` (which the wrapper assumes, see `Inlined::contract_of`),
/// including callers whose threads pass different arguments.
pub fn standalone_wrapper(module: &Module, callee: FuncId) -> Function {
    let c = &module.functions[callee];
    let mut w = Function::new(c.name.clone(), String::new(), true);
    w.loc = c.loc;
    let entry = w.entry;
    let mut args = Vec::new();
    for p in &c.params {
        let arg = match p.ty {
            // A private pointer is a by-value aggregate: the thread's own
            // copy, which the callee reads from its start.
            lockstep_kir::Type::Ptr(space) if space != lockstep_kir::MemSpace::Private => {
                let base = w.add_param(p.name.clone(), p.ty, p.pointee.clone());
                let offset = havoc(&mut w, entry, lockstep_kir::Type::I64, c.loc);
                w.append_inst(entry, InstKind::PtrAdd { base, offset }, Some(p.ty), c.loc).1.expect("has a result")
            }
            lockstep_kir::Type::Ptr(_) => w.add_param(p.name.clone(), p.ty, p.pointee.clone()),
            ty => havoc(&mut w, entry, ty, c.loc),
        };
        args.push(arg);
    }
    w.append_inst(entry, InstKind::Call { callee, args }, c.ret, c.loc);
    w.blocks[entry].term = Terminator::Return(None);
    w
}

/// Appends an instruction that gives an arbitrary value of type `ty`.
fn havoc(w: &mut Function, block: BlockId, ty: lockstep_kir::Type, loc: Option<lockstep_kir::SrcLoc>) -> ValueId {
    w.append_inst(block, InstKind::Havoc, Some(ty), loc).1.expect("has a result")
}

/// A kernel that calls `callee` once, with arbitrary arguments for each
/// thread and an arbitrary choice of the threads that make the call: the
/// context in which GPUVerify checks a function's contract (its
/// postconditions must follow from its preconditions whatever the caller).
pub fn contract_wrapper(module: &Module, callee: FuncId) -> Function {
    let c = &module.functions[callee];
    let mut w = Function::new(format!("contract of {}", c.name), String::new(), true);
    w.loc = c.loc;
    let entry = w.entry;
    let call_block = w.add_block();
    let exit = w.add_block();
    let enabled = havoc(&mut w, entry, lockstep_kir::Type::BOOL, c.loc);
    w.blocks[entry].term = Terminator::Branch {
        cond: enabled,
        then_dest: BlockCall { block: call_block, args: vec![] },
        else_dest: BlockCall { block: exit, args: vec![] },
    };
    let args: Vec<ValueId> = c.params.iter().map(|p| havoc(&mut w, call_block, p.ty, c.loc)).collect();
    w.append_inst(call_block, InstKind::Call { callee, args }, c.ret, c.loc);
    w.blocks[call_block].term = Terminator::Jump(BlockCall { block: exit, args: vec![] });
    w.blocks[exit].term = Terminator::Return(None);
    w
}
