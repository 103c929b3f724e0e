//! KIR, the kernel IR of lockstep.
//!
//! Every engine (prover, bug finder, interpreter, equivalence checker) reads
//! KIR and nothing else. KIR depends on no LLVM, solver or serialization
//! crate; the front-end is the only code that builds it from LLVM IR, and the
//! text form (`text`) lets tests build it without clang.
//!
//! Invariant: a `Module` that passed `verify::verify_module` is in SSA form,
//! every value is defined before use along every path, every operand has the
//! type its instruction requires, and every block ends in a terminator whose
//! arguments match its target's parameters.

pub mod entity;
pub mod ir;
pub mod link;
pub mod parse;
pub mod text;
pub mod verify;

pub use entity::{EntityRef, PrimaryMap, SecondaryMap};
pub use ir::*;
pub use link::{append_module, LinkMap};
pub use parse::{parse_module, ParseError};
pub use text::{print_function, print_module};
pub use verify::{verify_function, verify_module, Dominators, VerifyError};

/// Whether the memory object named `object` is what a user means by
/// `wanted`: the same name, or the same last component of a qualified name
/// (clang names an OpenCL kernel's `local int C[]` `foo.C`).
pub fn object_named(object: &str, wanted: &str) -> bool {
    object == wanted || object.rsplit_once('.').is_some_and(|(_, last)| last == wanted)
}
