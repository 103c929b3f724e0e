//! Inlining in place, for the prover: replaces every `Call` of a kernel by a
//! copy of the callee's body inside a copy of the kernel, so that the
//! two-thread product encoding sees one function.
//!
//! It differs from the engines' inliner (`inline_calls`, the parent module)
//! in three ways the prover relies on:
//!
//! - The kernel's own instructions, values and blocks keep their ids, and
//!   copied instructions get new ids after them; `origin` maps every
//!   instruction of the result back to the module function and instruction
//!   it came from, so that reports and side tables computed on the module
//!   (the finder's facts, the Daikon filter's plan) name the same places.
//! - A callee's `__ensures` is *checked* where the call returns, not
//!   assumed: it moves to the call's continuation with the instructions that
//!   compute it, and its instruction is listed in `InPlace::postconditions`
//!   (GPUVerify checks a postcondition against the inlined body). A
//!   postcondition that cannot be moved stays in the callee's copy, where
//!   the prover does not support it and gives up.
//! - `__requires` stays where the callee wrote it, at the top of its copy;
//!   the prover checks it there.
//!
//! Blocks are not reordered and unreachable ones are kept (the prover's
//! `BlockOrder` skips them).

use std::collections::{HashMap, HashSet};

use lockstep_kir::{
    AnnotFn, AnnotKind, BlockCall, BlockId, FuncId, Function, InstData, InstId, InstKind, LocalId, Module,
    Terminator, ValueData, ValueDef, ValueId,
};

/// At most this many calls are inlined; more means recursion (or a program
/// too large to prove this way).
const MAX_INLINES: usize = 2000;

/// The kernel with all calls inlined.
pub struct InPlace {
    pub func: Function,
    /// For every instruction of `func`: the module function and instruction
    /// it is a copy of.
    pub origin: HashMap<InstId, (FuncId, InstId)>,
    /// Callees' `__ensures` annotations moved to their call's return point
    /// (with `__return_val_*` replaced by the call's result): each is a
    /// postcondition to check there.
    pub postconditions: HashSet<InstId>,
}

/// Inlines every call in `kernel`. Fails (with the call's instruction) on
/// recursion or calls of functions without a body.
pub fn inline_in_place(module: &Module, kernel: FuncId) -> Result<InPlace, (String, InstId)> {
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
    Ok(InPlace { func: f, origin, postconditions })
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
