//! The wrapper kernels of GPUVerify's modular checks: a kernel that calls a
//! function no kernel calls once in every thread (`--no-inline`), and one
//! that calls a function once under an arbitrary caller, in which the
//! function's contract is checked. The prover inlines the wrapper like any
//! kernel.

use lockstep_kir::{BlockCall, BlockId, FuncId, Function, InstKind, Module, Terminator, ValueId};

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
