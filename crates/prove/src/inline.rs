//! A minimal inliner: replaces every `Call` of a kernel by a copy of the
//! callee's body, so that the product encoding sees one function.
//!
//! This is a private version written because the shared analysis crate's
//! inliner was not available yet. The kernel's own instructions keep their
//! ids; copied instructions get new ids, and `origin` maps every instruction
//! of the result back to the function and instruction it came from, so that
//! reports can name module-level locations.

use std::collections::HashMap;

use lockstep_kir::{
    BlockCall, BlockId, FuncId, Function, InstData, InstId, InstKind, LocalId, Module, Terminator, ValueData,
    ValueDef, ValueId,
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
}

/// Inlines every call in `kernel`. Fails (with the call's instruction) on
/// recursion or calls of functions without a body.
pub fn inline_kernel(module: &Module, kernel: FuncId) -> Result<Inlined, (String, InstId)> {
    let mut f = module.functions[kernel].clone();
    let mut origin: HashMap<InstId, (FuncId, InstId)> =
        f.insts.keys().map(|i| (i, (kernel, i))).collect();
    let mut count = 0usize;
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
        inline_one(&mut f, &mut origin, block, pos, call, callee_id, callee, &args);
    }
    Ok(Inlined { func: f, origin })
}

#[allow(clippy::too_many_arguments)]
fn inline_one(
    f: &mut Function,
    origin: &mut HashMap<InstId, (FuncId, InstId)>,
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
}
