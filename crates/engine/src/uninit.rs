//! Which uninitialised variables a use in the host program depends on.
//!
//! The front-end gives each uninitialised host variable's unspecified value
//! its declaration (`Function::undef_locs`). When a run of the program goes
//! wrong with uninitialised variables holding some value, the report names
//! the declarations whose value reached the failing use: the values the use
//! computes from, followed back through computations and block parameters
//! (SSA data flow) to the unspecified values they start from. Memory is not
//! followed: a variable whose address is taken is named only where its
//! value flows in registers.

use std::collections::HashSet;

use lockstep_kir::{BlockId, Function, InstKind, Module, SrcLoc, ValueDef, ValueId};
use lockstep_replay::Loc;

/// How many values one search may visit.
const MAX_VISITED: usize = 20_000;

/// An uninitialised variable: its declaration and its name, when known.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    pub loc: SrcLoc,
    pub name: Option<String>,
}

/// The uninitialised variables whose values the instruction or terminator
/// at `loc` uses, and the branches that lead to its block, depend on (in
/// order of their declarations).
pub fn declarations_reaching(module: &Module, loc: &Loc) -> Vec<Declaration> {
    let func = &module.functions[loc.func];
    let mut start = Vec::new();
    match loc.inst {
        Some(i) => func.insts[i].kind.for_each_operand(|v| start.push(v)),
        None => start.extend(func.blocks[loc.block].term.operands()),
    }
    // A failing `assert` is a call in a block that the assertion's branch
    // leads to: the branch's condition is what failed.
    for (_, block) in func.blocks.iter() {
        if block.term.successors().contains(&loc.block) {
            start.extend(block.term.operands());
        }
    }
    let mut out: Vec<Declaration> = Vec::new();
    for d in search(func, start) {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out.sort_by_key(|d| (d.loc.line, d.loc.col));
    out
}

fn search(func: &Function, start: Vec<ValueId>) -> Vec<Declaration> {
    let mut seen: HashSet<ValueId> = HashSet::new();
    let mut stack = start;
    let mut out = Vec::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) || seen.len() > MAX_VISITED {
            continue;
        }
        match &func.values[v].def {
            ValueDef::Undef => {
                if let Some(loc) = *func.undef_locs.get(v) {
                    let name = func.values[v].name.clone();
                    out.push(Declaration { loc, name });
                }
            }
            ValueDef::Inst(i) => match &func.insts[*i].kind {
                // Memory and calls are not followed (see the module
                // documentation).
                InstKind::Load { .. } | InstKind::Call { .. } | InstKind::CallExternal { .. } => {}
                kind => kind.for_each_operand(|o| stack.push(o)),
            },
            ValueDef::BlockParam(b, index) => stack.extend(incoming(func, *b, *index as usize)),
            _ => {}
        }
    }
    out
}

/// The values the jumps into block `b` pass as its parameter `index`.
fn incoming(func: &Function, b: BlockId, index: usize) -> Vec<ValueId> {
    let mut out = Vec::new();
    for (_, block) in func.blocks.iter() {
        for call in block.term.block_calls() {
            if call.block == b {
                if let Some(&v) = call.args.get(index) {
                    out.push(v);
                }
            }
        }
    }
    out
}
