//! The text form of KIR: a printer (this module) and a parser (`parse`).
//!
//! The text form exists so that tests, bug reports and debugging sessions can
//! read and write KIR without going through clang. It is line-oriented: every
//! definition, instruction and terminator sits on its own line, `;` starts a
//! comment that runs to the end of the line, and every entity is named by its
//! index with the prefix of its id type (`v3`, `block1`, `fn0`, `global2`,
//! `local0`, `file0`). A module prints as:
//!
//! ```text
//! language cuda
//!
//! file0 = "add.cu"
//!
//! global0 = shared "tile" size 1024 align 4 elem_size 4 @file0:3:12
//!
//! kernel fn0 "add" link "_Z3addPfi" (v0 "a": ptr.global pointee(elem_size 4 elem_type "float"), v1 "n": i32) entry block0 @file0:5:1 {
//!   local0 = private "tmp" size 16 align 4
//!   v2: i32 = const 1
//!   v3: f32 = const 0x3f800000 ; 1.0
//!   v4: ptr.shared = global_addr global0
//! block0:
//!   v5 "i": i32 = builtin local_id x @file0:6:11
//!   v6: i1 = icmp slt v5, v1
//!   br v6, block1(v5), block2 @file0:7:3
//! block1(v7: i32):
//!   v8: i64 = sext v7
//!   v9: ptr.global = ptradd v0, v8
//!   store v9, v3 align 4 @file0:8:5
//!   jump block2
//! block2:
//!   return
//! }
//! ```
//!
//! Values that no instruction defines — constants, `undef`, null pointers and
//! the addresses of memory objects — are listed at the top of each function
//! body, so an operand is always just a value name. Source locations follow
//! an instruction or terminator as `@fileN:LINE:COL`. Value names from debug
//! info are kept as a quoted string after the value (`v5 "i"`).
//!
//! Instruction syntax, one form per `InstKind` (`RES = ` present when the
//! instruction defines a value, `RES` being `vN ["name"]: TYPE`):
//!
//! | kind | syntax |
//! | --- | --- |
//! | Binary | `add v1, v2` (`sub mul udiv sdiv urem srem shl lshr ashr and or xor`); `add nuw nsw v1, v2` with no-wrap flags (`add sub mul shl`) |
//! | Icmp | `icmp slt v1, v2` |
//! | Select | `select cond, then, else` |
//! | Cast | `zext v1` (the target type is the result type) |
//! | Float | `fadd v1, v2`, `fneg v1` |
//! | Fcmp | `fcmp olt v1, v2` |
//! | PtrAdd | `ptradd base, offset` |
//! | Load | `load ptr align 4` |
//! | Store | `store ptr, value align 4` (pointer first, as in `InstKind`) |
//! | Atomic | `atomic add ptr, value`; block-scoped: `atomic.block add ptr, value` |
//! | CmpXchg | `cmpxchg ptr, expected, new` (`cmpxchg.block` block-scoped) |
//! | MemCopy / MemSet | `memcpy dst, src, len` / `memset dst, byte, len` |
//! | Barrier | `barrier group shared global` (fence flags optional); a warp barrier's member mask after them: `barrier warp shared global mask v3` |
//! | Fence | `fence global` |
//! | Builtin | `builtin local_id x` (`x y z`, or a number for other dims; `rank` after it marks a library rank read, `Function::rank_reads`) |
//! | Warp | `warp shfl v1, v2, v3, v4`, `warp lane_id` |
//! | Collective | `collective or v1` (`and`, `count`; directly after `barrier group`) |
//! | Call | `call fn1(v1, v2)` |
//! | CallExternal | `call_external "sinf"(v1)` |
//! | Annot | `annot assert(v1)` |
//! | AnnotValue | `annot_value read(v1)` |
//! | Havoc | `havoc` |
//! | InvalidCall | `invalid_call v1` |
//! | Nop | `nop "printf"` |
//!
//! Terminators are `jump block1(v2)`, `br cond, block1(v2), block2`,
//! `return`, `return v3` and `unreachable`.
//!
//! Malformed IR (which `verify` rejects) still prints without panicking:
//! references out of range print as their raw index, and a value whose
//! definition points at nothing that claims it prints as an `orphan`
//! definition (`v9: i32 = orphan inst4`), so that a broken module can be
//! inspected. Such text does not necessarily parse back to the same module.

use std::fmt::{self, Write};

use crate::entity::EntityRef;
use crate::ir::*;

/// Prints a module in the text form; `parse::parse_module` reads it back.
pub fn print_module(module: &Module) -> String {
    module.to_string()
}

/// Prints one function of a module, as it appears in `print_module`.
pub fn print_function(func: &Function, id: FuncId) -> String {
    let mut out = String::new();
    write_function(&mut out, func, id).expect("writing to a String cannot fail");
    out
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "language {}", self.language.name())?;
        if !self.files.is_empty() {
            writeln!(f)?;
            for (id, path) in self.files.iter() {
                writeln!(f, "{id} = {}", Quoted(path))?;
            }
        }
        if !self.globals.is_empty() {
            writeln!(f)?;
            for (id, obj) in self.globals.iter() {
                writeln!(f, "{id} = {}", MemObjectText(obj))?;
            }
        }
        for (id, func) in self.functions.iter() {
            writeln!(f)?;
            write_function(f, func, id)?;
        }
        Ok(())
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int(w) => write!(f, "i{w}"),
            Type::Float(w) => write!(f, "f{w}"),
            Type::Ptr(space) => write!(f, "ptr.{}", space.name()),
        }
    }
}

impl fmt::Display for SrcLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A string literal with the escapes the parser understands.
pub(crate) struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\t' => f.write_str("\\t")?,
                '\r' => f.write_str("\\r")?,
                c if c.is_control() => write!(f, "\\u{{{:x}}}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// The fields of a memory object after `globalN = ` or `localN = `.
struct MemObjectText<'a>(&'a MemObject);

impl fmt::Display for MemObjectText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let obj = self.0;
        write!(f, "{} {}", obj.space.name(), Quoted(&obj.name))?;
        if let Some(size) = obj.size {
            write!(f, " size {size}")?;
        }
        write!(f, " align {}", obj.align)?;
        if let Some(elem) = obj.elem_size {
            write!(f, " elem_size {elem}")?;
        }
        if let Some(init) = &obj.init {
            f.write_str(" init x\"")?;
            for byte in init {
                write!(f, "{byte:02x}")?;
            }
            f.write_char('"')?;
        }
        write_loc(f, obj.loc)
    }
}

fn write_loc(f: &mut impl Write, loc: Option<SrcLoc>) -> fmt::Result {
    match loc {
        Some(loc) => write!(f, " @{loc}"),
        None => Ok(()),
    }
}

/// Writes a value at its definition: `v3 "name": i32`. A value out of range
/// (malformed IR) prints with a `?` type so that printing never panics.
fn write_value_def(f: &mut impl Write, func: &Function, v: ValueId) -> fmt::Result {
    write!(f, "{v}")?;
    match func.values.get(v) {
        Some(data) => {
            if let Some(name) = &data.name {
                write!(f, " {}", Quoted(name))?;
            }
            write!(f, ": {}", data.ty)
        }
        None => f.write_str(": ?"),
    }
}

/// Writes a comma-separated list of values.
fn write_list(f: &mut impl Write, values: &[ValueId]) -> fmt::Result {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{v}")?;
    }
    Ok(())
}

fn write_block_call(f: &mut impl Write, call: &BlockCall) -> fmt::Result {
    write!(f, "{}", call.block)?;
    if !call.args.is_empty() {
        f.write_char('(')?;
        write_list(f, &call.args)?;
        f.write_char(')')?;
    }
    Ok(())
}

fn write_fence(f: &mut impl Write, fence: FenceFlags) -> fmt::Result {
    if fence.shared {
        f.write_str(" shared")?;
    }
    if fence.global {
        f.write_str(" global")?;
    }
    Ok(())
}

/// Whether `v` is claimed by the definition site its `def` names: the
/// parameter list, a block's parameter list, or an instruction that sits in
/// a block. Values for which this is false are printed as `orphan` lines so
/// that every value of the arena appears in the text.
fn is_claimed(func: &Function, v: ValueId, def: &ValueDef, placed: &[bool]) -> bool {
    match def {
        ValueDef::Param(i) => func.params.get(*i as usize).is_some_and(|p| p.value == v),
        ValueDef::BlockParam(b, i) => func.blocks.get(*b).and_then(|blk| blk.params.get(*i as usize)) == Some(&v),
        ValueDef::Inst(i) => {
            func.insts.get(*i).is_some_and(|d| d.result == Some(v)) && placed.get(i.index()).copied().unwrap_or(false)
        }
        _ => true,
    }
}

fn write_function(f: &mut impl Write, func: &Function, id: FuncId) -> fmt::Result {
    let kind = if func.is_kernel { "kernel" } else { "device" };
    write!(f, "{kind} {id} {} link {} (", Quoted(&func.name), Quoted(&func.link_name))?;
    for (i, param) in func.params.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", param.value)?;
        let value_name = func.values.get(param.value).and_then(|d| d.name.as_deref());
        if let Some(name) = value_name {
            write!(f, " {}", Quoted(name))?;
        }
        write!(f, ": {}", param.ty)?;
        // The parameter's own name is only spelled out when it differs from
        // the value's name, which it almost never does.
        if value_name != Some(param.name.as_str()) {
            write!(f, " name {}", Quoted(&param.name))?;
        }
        if let Some(p) = &param.pointee {
            f.write_str(" pointee(")?;
            let mut items: Vec<String> = Vec::new();
            if let Some(size) = p.elem_size {
                items.push(format!("elem_size {size}"));
            }
            if let Some(ty) = &p.elem_type {
                items.push(format!("elem_type {}", Quoted(ty)));
            }
            if p.is_const {
                items.push("const".to_string());
            }
            if p.is_restrict {
                items.push("restrict".to_string());
            }
            f.write_str(&items.join(" "))?;
            f.write_char(')')?;
        }
    }
    f.write_char(')')?;
    if let Some(ret) = func.ret {
        write!(f, " -> {ret}")?;
    }
    write!(f, " entry {}", func.entry)?;
    write_loc(f, func.loc)?;
    f.write_str(" {\n")?;

    for (lid, obj) in func.locals.iter() {
        writeln!(f, "  {lid} = {}", MemObjectText(obj))?;
    }

    // Which instructions the block bodies will print: an instruction in no
    // block is invisible, and its result must be listed as an orphan.
    let mut placed = vec![false; func.insts.len()];
    for block in func.blocks.values() {
        for inst in &block.insts {
            if let Some(p) = placed.get_mut(inst.index()) {
                *p = true;
            }
        }
    }

    for (v, data) in func.values.iter() {
        let claimed = is_claimed(func, v, &data.def, &placed);
        let body = match &data.def {
            ValueDef::Const(bits) => match data.ty {
                Type::Float(w) => {
                    let mut s = format!("const {bits:#x}");
                    // A decimal rendering helps the reader; the parser skips it.
                    if w == 32 {
                        write!(s, " ; {:?}", f32::from_bits(*bits as u32))?;
                    } else if w == 64 {
                        write!(s, " ; {:?}", f64::from_bits(*bits as u64))?;
                    }
                    s
                }
                _ => format!("const {bits}"),
            },
            ValueDef::Undef => "undef".to_string(),
            ValueDef::Null => "null".to_string(),
            ValueDef::GlobalAddr(g) => format!("global_addr {g}"),
            ValueDef::LocalAddr(l) => format!("local_addr {l}"),
            _ if claimed => continue,
            ValueDef::Param(i) => format!("orphan param {i}"),
            ValueDef::BlockParam(b, i) => format!("orphan {b} param {i}"),
            ValueDef::Inst(i) => format!("orphan {i}"),
        };
        f.write_str("  ")?;
        write_value_def(f, func, v)?;
        writeln!(f, " = {body}")?;
    }

    for (bid, block) in func.blocks.iter() {
        write!(f, "{bid}")?;
        if !block.params.is_empty() {
            f.write_char('(')?;
            for (i, &p) in block.params.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_value_def(f, func, p)?;
            }
            f.write_char(')')?;
        }
        f.write_str(":\n")?;
        for &inst in &block.insts {
            f.write_str("  ")?;
            match func.insts.get(inst) {
                Some(data) => {
                    if let Some(result) = data.result {
                        write_value_def(f, func, result)?;
                        f.write_str(" = ")?;
                    }
                    write_inst_kind_flagged(f, &data.kind, func.no_wrap_of(inst))?;
                    if *func.rank_reads.get(inst) {
                        f.write_str(" rank")?;
                    }
                    write_loc(f, *func.inst_locs.get(inst))?;
                }
                // An out-of-range instruction id cannot be printed as an
                // instruction; a comment keeps the text parseable.
                None => write!(f, "; missing instruction {inst}")?,
            }
            f.write_char('\n')?;
        }
        f.write_str("  ")?;
        write_terminator(f, &block.term)?;
        write_loc(f, *func.term_locs.get(bid))?;
        f.write_char('\n')?;
    }
    f.write_str("}\n")
}

fn write_terminator(f: &mut impl Write, term: &Terminator) -> fmt::Result {
    match term {
        Terminator::Jump(call) => {
            f.write_str("jump ")?;
            write_block_call(f, call)
        }
        Terminator::Branch { cond, then_dest, else_dest } => {
            write!(f, "br {cond}, ")?;
            write_block_call(f, then_dest)?;
            f.write_str(", ")?;
            write_block_call(f, else_dest)
        }
        Terminator::Return(None) => f.write_str("return"),
        Terminator::Return(Some(v)) => write!(f, "return {v}"),
        Terminator::Unreachable => f.write_str("unreachable"),
    }
}

/// Writes the part of an instruction after `RES = `, with its no-wrap
/// flags after the operator (`add nuw nsw v1, v2`).
fn write_inst_kind_flagged(f: &mut impl Write, kind: &InstKind, flags: NoWrap) -> fmt::Result {
    match kind {
        InstKind::Binary { op, lhs, rhs } if !flags.is_none() => {
            f.write_str(op.name())?;
            if flags.unsigned {
                f.write_str(" nuw")?;
            }
            if flags.signed {
                f.write_str(" nsw")?;
            }
            write!(f, " {lhs}, {rhs}")
        }
        _ => write_inst_kind(f, kind),
    }
}

/// Writes the part of an instruction after `RES = `.
pub(crate) fn write_inst_kind(f: &mut impl Write, kind: &InstKind) -> fmt::Result {
    match kind {
        InstKind::Binary { op, lhs, rhs } => write!(f, "{} {lhs}, {rhs}", op.name()),
        InstKind::Icmp { cc, lhs, rhs } => write!(f, "icmp {} {lhs}, {rhs}", cc.name()),
        InstKind::Select { cond, then_value, else_value } => {
            write!(f, "select {cond}, {then_value}, {else_value}")
        }
        InstKind::Cast { op, arg } => write!(f, "{} {arg}", op.name()),
        InstKind::Float { op, args } => {
            f.write_str(op.name())?;
            if !args.is_empty() {
                f.write_char(' ')?;
                write_list(f, args)?;
            }
            Ok(())
        }
        InstKind::Fcmp { cc, lhs, rhs } => write!(f, "fcmp {} {lhs}, {rhs}", cc.name()),
        InstKind::PtrAdd { base, offset } => write!(f, "ptradd {base}, {offset}"),
        InstKind::Load { ptr, align } => write!(f, "load {ptr} align {align}"),
        InstKind::Store { ptr, value, align } => write!(f, "store {ptr}, {value} align {align}"),
        InstKind::Atomic { op, ptr, value, scope } => write!(f, "atomic{} {} {ptr}, {value}", scope_suffix(*scope), op.name()),
        InstKind::CmpXchg { ptr, expected, new, scope } => write!(f, "cmpxchg{} {ptr}, {expected}, {new}", scope_suffix(*scope)),
        InstKind::MemCopy { dst, src, len } => write!(f, "memcpy {dst}, {src}, {len}"),
        InstKind::MemSet { dst, byte, len } => write!(f, "memset {dst}, {byte}, {len}"),
        InstKind::Barrier { scope, fence, mask } => {
            write!(f, "barrier {}", scope.name())?;
            write_fence(f, *fence)?;
            match mask {
                Some(m) => write!(f, " mask {m}"),
                None => Ok(()),
            }
        }
        InstKind::Fence { fence } => {
            f.write_str("fence")?;
            write_fence(f, *fence)
        }
        InstKind::Builtin { var, dim } => {
            write!(f, "builtin {} ", var.name())?;
            match dim {
                0 => f.write_char('x'),
                1 => f.write_char('y'),
                2 => f.write_char('z'),
                d => write!(f, "{d}"),
            }
        }
        InstKind::Warp { op, args } => {
            write!(f, "warp {}", op.name())?;
            if !args.is_empty() {
                f.write_char(' ')?;
                write_list(f, args)?;
            }
            Ok(())
        }
        InstKind::Collective { op, arg } => write!(f, "collective {} {arg}", op.name()),
        InstKind::Call { callee, args } => {
            write!(f, "call {callee}(")?;
            write_list(f, args)?;
            f.write_char(')')
        }
        InstKind::CallExternal { name, args } => {
            write!(f, "call_external {}(", Quoted(name))?;
            write_list(f, args)?;
            f.write_char(')')
        }
        InstKind::Annot { kind, args } => {
            write!(f, "annot {}(", kind.name())?;
            write_list(f, args)?;
            f.write_char(')')
        }
        InstKind::AnnotValue { func, args } => {
            write!(f, "annot_value {}(", func.name())?;
            write_list(f, args)?;
            f.write_char(')')
        }
        InstKind::Havoc => f.write_str("havoc"),
        InstKind::InvalidCall { target } => write!(f, "invalid_call {target}"),
        InstKind::Nop { what } => write!(f, "nop {}", Quoted(what)),
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_module, print_module, verify_module};

    /// The example in the module documentation, which must stay accurate.
    const DOC_EXAMPLE: &str = r#"language cuda

file0 = "add.cu"

global0 = shared "tile" size 1024 align 4 elem_size 4 @file0:3:12

kernel fn0 "add" link "_Z3addPfi" (v0 "a": ptr.global pointee(elem_size 4 elem_type "float"), v1 "n": i32) entry block0 @file0:5:1 {
  local0 = private "tmp" size 16 align 4
  v2: i32 = const 1
  v3: f32 = const 0x3f800000 ; 1.0
  v4: ptr.shared = global_addr global0
block0:
  v5 "i": i32 = builtin local_id x @file0:6:11
  v6: i1 = icmp slt v5, v1
  br v6, block1(v5), block2 @file0:7:3
block1(v7: i32):
  v8: i64 = sext v7
  v9: ptr.global = ptradd v0, v8
  store v9, v3 align 4 @file0:8:5
  jump block2
block2:
  return
}
"#;

    #[test]
    fn documented_example_is_printer_output() {
        let m = parse_module(DOC_EXAMPLE).unwrap();
        assert_eq!(print_module(&m), DOC_EXAMPLE);
        verify_module(&m).unwrap();
        let doc = include_str!("text.rs");
        let documented: String = DOC_EXAMPLE.lines().map(|l| format!("//! {l}\n").replace("//! \n", "//!\n")).collect();
        assert!(doc.contains(&documented), "the module documentation differs from DOC_EXAMPLE");
    }
}

/// An atomic's scope as the text form writes it: nothing for the device
/// scope, `.block` for a block-scoped atomic (`atomic.block add %p, %v`).
fn scope_suffix(scope: AtomicScope) -> &'static str {
    match scope {
        AtomicScope::Device => "",
        AtomicScope::Block => ".block",
    }
}
