//! The inlined kernel that the prover's stages hand on: the analysis crate's
//! in-place inlining (`lockstep_analysis::inline::in_place`) with the marks
//! the prover's own stages add to it.

use std::collections::{HashMap, HashSet};

use lockstep_analysis::inline::in_place::{inline_in_place, InPlace};
use lockstep_kir::{FuncId, Function, InstId, Module};

/// The kernel with all calls inlined.
pub struct Inlined {
    pub func: Function,
    /// For every instruction of `func`: the module function and instruction
    /// it is a copy of.
    pub origin: HashMap<InstId, (FuncId, InstId)>,
    /// Callees' `__ensures` annotations moved to their call's return point:
    /// each is a postcondition to check there.
    pub postconditions: HashSet<InstId>,
    /// For a contract check (see `modular::contract_wrapper`): the function
    /// whose preconditions are assumed rather than checked.
    pub contract_of: Option<FuncId>,
    /// Set by `function_wide::place`: the function-wide invariants have been
    /// copied to the loop headers, so the encoding skips the originals (which
    /// stay in place so that the loads feeding them still count as
    /// annotation reads, not program accesses).
    pub function_wide_placed: bool,
}

/// Inlines every call in `kernel` (see `inline_in_place`). Fails, with the
/// call's instruction, on recursion or a call with the wrong number of
/// arguments.
pub fn inline_kernel(module: &Module, kernel: FuncId, contract_of: Option<FuncId>) -> Result<Inlined, (String, InstId)> {
    let InPlace { func, origin, postconditions } = inline_in_place(module, kernel)?;
    Ok(Inlined { func, origin, postconditions, contract_of, function_wide_placed: false })
}
