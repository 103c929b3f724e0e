//! From KIR positions to source spans, through the location side tables.

use lockstep_diag::Span;
use lockstep_kir::{BlockId, FuncId, InstId, Module, SrcLoc};

pub fn span_of(module: &Module, loc: SrcLoc) -> Span {
    Span { file: module.files[loc.file].clone(), line: loc.line, column: loc.col }
}

/// The source span of an instruction, or of a block's terminator when
/// `inst` is `None`; falls back to the function's own location.
pub fn span_at(module: &Module, func: FuncId, block: BlockId, inst: Option<InstId>) -> Option<Span> {
    let f = &module.functions[func];
    let loc = match inst {
        Some(i) => *f.inst_locs.get(i),
        None => *f.term_locs.get(block),
    };
    loc.or(f.loc).map(|l| span_of(module, l))
}
