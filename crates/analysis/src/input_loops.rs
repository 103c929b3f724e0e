//! Loops that only read input: a side table for exploring a whole
//! program's paths through its input.
//!
//! A validation loop (`do { printf("n? "); scanf("%d", &n); } while (n < 1
//! || n > 8);`) has a path per number of rounds, so an exploration that
//! runs the program once per path never ends. Such a loop changes nothing
//! but the variables its reads write, though: when its blocks hold no
//! store, no call but output and input (`scanf`'s targets being the
//! function's own variables), no value carried from one round to the next
//! (the header has no parameters), and no value the code after it uses,
//! the state at its header after any number of rounds is the state at its
//! entry with the targets holding *some* values. An exploring run can
//! therefore give the targets fresh input values when it first goes
//! around (an over-approximation of every later round's state), and stop
//! when it goes around a second time: that state, and all that follows
//! it, is one the exploration already covers from the first time round.
//!
//! This module finds the loops and their targets; the interpreter
//! (`lockstep_replay`, `ReplayOptions::input_loops`) acts on them.

use std::collections::HashSet;

use lockstep_kir::{BlockId, FuncId, InstKind, LocalId, Module, ValueDef};

/// A loop that only reads input and prints (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct InputLoop {
    pub func: FuncId,
    pub header: BlockId,
    /// The blocks of the loop: an edge into the header from one of them is
    /// a back edge.
    pub blocks: Vec<BlockId>,
    /// The function's variables that the loop's reads write.
    pub targets: Vec<LocalId>,
}

/// The input loops of the module's functions, for a run in which `input`
/// names the functions that read input into the memory their pointer
/// arguments point to (`scanf`), `returns_input` those whose result is
/// input (`getchar`), and `output` those that only print.
pub fn input_loops(module: &Module, input: impl Fn(&str) -> bool, returns_input: impl Fn(&str) -> bool, output: impl Fn(&str) -> bool) -> Vec<InputLoop> {
    let mut out = Vec::new();
    for (fid, func) in module.functions.iter() {
        let reads_input = func.insts.values().any(|d| matches!(&d.kind, InstKind::CallExternal { name, .. } if input(name.as_str()) || returns_input(name.as_str())));
        if !reads_input {
            continue;
        }
        let (_, _, loops) = crate::loops::analyze(func);
        'loops: for (_, l) in loops.loops() {
            if !l.carried.is_empty() {
                continue;
            }
            let mut targets: Vec<LocalId> = Vec::new();
            let mut defined: HashSet<lockstep_kir::ValueId> = HashSet::new();
            let mut any_read = false;
            for &b in &l.blocks {
                let block = &func.blocks[b];
                defined.extend(block.params.iter().copied());
                for &i in &block.insts {
                    let data = &func.insts[i];
                    if let Some(r) = data.result {
                        defined.insert(r);
                    }
                    match &data.kind {
                        kind if kind.is_pure_computation() => {}
                        InstKind::Nop { .. } | InstKind::Havoc => {}
                        // Reads of the function's own variables.
                        InstKind::Load { ptr, .. } if matches!(func.values[*ptr].def, ValueDef::LocalAddr(_)) => {}
                        InstKind::CallExternal { name, .. } if output(name.as_str()) || returns_input(name.as_str()) => {
                            any_read |= returns_input(name.as_str());
                        }
                        InstKind::CallExternal { name, args } if input(name.as_str()) => {
                            any_read = true;
                            // The format (and, for `fscanf`/`sscanf`, the stream
                            // or string before it), then the targets, which
                            // must be variables of the function.
                            let skip = if name.contains("fscanf") || name.contains("sscanf") { 2 } else { 1 };
                            for &a in args.iter().skip(skip) {
                                let ValueDef::LocalAddr(local) = func.values[a].def else { continue 'loops };
                                if !targets.contains(&local) {
                                    targets.push(local);
                                }
                            }
                        }
                        _ => continue 'loops,
                    }
                }
            }
            if !any_read {
                continue;
            }
            // No value of the loop may be used after it.
            for (b, block) in func.blocks.iter() {
                if l.blocks.contains(&b) {
                    continue;
                }
                let uses_inner = block.insts.iter().any(|&i| func.insts[i].kind.operands().iter().any(|v| defined.contains(v)))
                    || block.term.operands().iter().any(|v| defined.contains(v));
                if uses_inner {
                    continue 'loops;
                }
            }
            out.push(InputLoop { func: fid, header: l.header, blocks: l.blocks.clone(), targets });
        }
    }
    out
}
