//! Inline PTX over pairs of 16-bit values in one 32-bit register: the
//! `half2` and `nv_bfloat162` moves and lane-wise arithmetic of the CUDA
//! toolkit's headers (`__halves2half2`, `__low2half`, `__hadd2`,
//! `__hfma2`, ...).
//!
//! Left to [`crate::ptx`]'s general rule, each such template would be one
//! uninterpreted function of the whole register, so `__low2half` of
//! `__halves2half2(a, b)` would not be `a`, and `__hadd2` would not be two
//! `__hadd`s: vectorized `half2` code could never match scalar `__half`
//! code. Here the moves are exact (bit fields of the register), and an
//! arithmetic instruction on `.f16x2`/`.bf16x2` is its scalar instruction
//! on each lane: the same uninterpreted function, named by the scalar
//! template (`add.f16 $0,$1,$2`), that the scalar intrinsic lowers to. So
//! `__hfma2` is two `__hfma`s, and it stays different from a `__hmul2`
//! followed by a `__hadd2`, as it is on the hardware (one rounding, not
//! two).
//!
//! Templates outside this small language (immediate operands, predicates,
//! conversions between the lanes and other types) are left to the general
//! rule: [`lower_pairs`] answers `false` for them.

use std::collections::HashMap;

use llvm_sys::prelude::*;

use lockstep_kir::*;

use crate::lower::{CallLowering, Unsupported};

type Result<T> = std::result::Result<T, Unsupported>;

/// Lane-wise arithmetic opcodes: the result's lane `i` depends only on the
/// operands' lanes `i`.
const LANE_WISE: &[&str] = &["add", "sub", "mul", "fma", "min", "max", "neg", "abs"];

/// One instruction of a template, braces of vector operands kept: its
/// opcode (`mov.b32`) and operands (`{low,high}`, `$1`).
struct Inst {
    opcode: String,
    operands: Vec<String>,
}

/// The instructions of `template`, or `None` when one has a shape this
/// module does not read (a predicate guard, a missing opcode).
fn parse(template: &str) -> Option<Vec<Inst>> {
    let mut out = Vec::new();
    for piece in template.split([';', '\n']) {
        // A block's own braces open and close the template; a vector
        // operand's braces come after the opcode, in pairs.
        let mut s = piece.trim().trim_start_matches(|c: char| c == '{' || c.is_whitespace()).trim().to_string();
        while s.ends_with('}') && s.matches('}').count() > s.matches('{').count() {
            s.pop();
            s = s.trim_end().to_string();
        }
        if s.is_empty() || s.starts_with(".reg") {
            continue;
        }
        if s.starts_with('@') {
            return None;
        }
        let (opcode, rest) = s.split_once(char::is_whitespace)?;
        let mut operands = Vec::new();
        let (mut depth, mut cur) = (0, String::new());
        for c in rest.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    operands.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            if !c.is_whitespace() {
                cur.push(c);
            }
        }
        operands.push(cur);
        out.push(Inst { opcode: opcode.to_string(), operands });
    }
    Some(out)
}

/// The registers of one template being lowered: `$k` operands and the
/// template's own `.reg` names.
struct Regs {
    named: HashMap<String, ValueId>,
    inputs: Vec<ValueId>,
    output: Option<ValueId>,
}

impl Regs {
    /// The value of a source operand: `$k` (k ≥ 1) is input `k - 1`, `$0`
    /// the output once written, anything else a named register.
    fn get(&self, op: &str) -> Option<ValueId> {
        match op.strip_prefix('$') {
            Some("0") => self.output,
            Some(k) => self.inputs.get(k.parse::<usize>().ok()?.checked_sub(1)?).copied(),
            None => self.named.get(op).copied(),
        }
    }

    fn set(&mut self, op: &str, v: ValueId) -> Option<()> {
        match op {
            "$0" => self.output = Some(v),
            _ if op.starts_with('$') => return None,
            _ => {
                self.named.insert(op.to_string(), v);
            }
        }
        Some(())
    }
}

/// The two names of a vector operand `{lo,hi}`.
fn pair(op: &str) -> Option<(&str, &str)> {
    op.strip_prefix('{')?.strip_suffix('}')?.split_once(',')
}

/// Lowers `call` when its template (instructions `template`) only moves
/// 16-bit halves and computes lane-wise on them; `Ok(false)` (nothing
/// emitted) otherwise.
pub(crate) unsafe fn lower_pairs<L: CallLowering>(l: &mut L, call: LLVMValueRef, template: &str, args: &[LLVMValueRef]) -> Result<bool> {
    let Some(insts) = parse(template) else { return Ok(false) };
    let pairs_only = insts.iter().all(|i| {
        let base = i.opcode.split('.').next().unwrap_or("");
        i.opcode == "mov.b32" || i.opcode == "mov.b16" || (LANE_WISE.contains(&base) && (i.opcode.ends_with(".f16x2") || i.opcode.ends_with(".bf16x2")))
    });
    if insts.is_empty() || !pairs_only {
        return Ok(false);
    }
    // Several outputs (a struct result) are left to the general rule.
    if l.result_lanes(call)?.is_some() {
        return Ok(false);
    }
    let Some(ret) = l.result_type(call)? else { return Ok(false) };
    if !matches!(ret, Type::Int(16) | Type::Int(32)) {
        return Ok(false);
    }
    let mut inputs = Vec::new();
    for &a in args {
        let lanes = l.arg_lanes(a)?;
        let [v] = lanes[..] else { return Ok(false) };
        if !matches!(l.type_of(v), Type::Int(16) | Type::Int(32)) {
            return Ok(false);
        }
        inputs.push(v);
    }
    let mut regs = Regs { named: HashMap::new(), inputs, output: None };
    for inst in &insts {
        if lower_inst(l, inst, &mut regs).is_none() {
            // Nothing is defined yet, and what was emitted is dead code.
            return Ok(false);
        }
    }
    match regs.output {
        Some(v) if l.type_of(v) == ret => {
            l.define(call, v);
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// One instruction; `None` when its operands are not of the expected
/// widths or not known.
unsafe fn lower_inst<L: CallLowering>(l: &mut L, inst: &Inst, regs: &mut Regs) -> Option<()> {
    let width = |l: &L, v: ValueId| match l.type_of(v) {
        Type::Int(w) => Some(w),
        _ => None,
    };
    let halves = |l: &mut L, v: ValueId| {
        let lo = l.emit_inst(InstKind::Cast { op: CastOp::Trunc, arg: v }, Some(Type::Int(16)))?;
        let sixteen = l.int_const(Type::I32, 16);
        let shifted = l.emit_inst(InstKind::Binary { op: BinOp::LShr, lhs: v, rhs: sixteen }, Some(Type::I32))?;
        let hi = l.emit_inst(InstKind::Cast { op: CastOp::Trunc, arg: shifted }, Some(Type::Int(16)))?;
        Some((lo, hi))
    };
    let join = |l: &mut L, lo: ValueId, hi: ValueId| {
        let lo = l.emit_inst(InstKind::Cast { op: CastOp::Zext, arg: lo }, Some(Type::I32))?;
        let hi = l.emit_inst(InstKind::Cast { op: CastOp::Zext, arg: hi }, Some(Type::I32))?;
        let sixteen = l.int_const(Type::I32, 16);
        let hi = l.emit_inst(InstKind::Binary { op: BinOp::Shl, lhs: hi, rhs: sixteen }, Some(Type::I32))?;
        l.emit_inst(InstKind::Binary { op: BinOp::Or, lhs: lo, rhs: hi }, Some(Type::I32))
    };
    let [dst, srcs @ ..] = inst.operands.as_slice() else { return None };
    match inst.opcode.as_str() {
        "mov.b32" => {
            let [src] = srcs else { return None };
            if let Some((lo, hi)) = pair(dst) {
                // Split a register into its halves.
                let v = regs.get(src)?;
                (width(l, v)? == 32).then_some(())?;
                let (a, b) = halves(l, v)?;
                regs.set(lo, a)?;
                regs.set(hi, b)?;
            } else if let Some((lo, hi)) = pair(src) {
                let (a, b) = (regs.get(lo)?, regs.get(hi)?);
                (width(l, a)? == 16 && width(l, b)? == 16).then_some(())?;
                let v = join(l, a, b)?;
                regs.set(dst, v)?;
            } else {
                let v = regs.get(src)?;
                (width(l, v)? == 32).then_some(())?;
                regs.set(dst, v)?;
            }
        }
        "mov.b16" => {
            let [src] = srcs else { return None };
            let v = regs.get(src)?;
            (width(l, v)? == 16).then_some(())?;
            regs.set(dst, v)?;
        }
        op => {
            // Lane-wise arithmetic: the scalar instruction on each lane.
            let scalar = op.strip_suffix("x2")?;
            let mut lanes = Vec::new();
            for s in srcs {
                let v = regs.get(s)?;
                (width(l, v)? == 32).then_some(())?;
                lanes.push(halves(l, v)?);
            }
            let operands: Vec<String> = (0..=srcs.len()).map(|k| format!("${k}")).collect();
            // The name the general rule gives the scalar intrinsic's
            // template (`{add.f16 %0,%1,%2;}`), so that both meet.
            let name = format!("ptx:{scalar} {}", operands.join(","));
            let lo: Vec<ValueId> = lanes.iter().map(|p| p.0).collect();
            let hi: Vec<ValueId> = lanes.iter().map(|p| p.1).collect();
            let lo = l.emit_inst(InstKind::CallExternal { name: name.clone(), args: lo }, Some(Type::Int(16)))?;
            let hi = l.emit_inst(InstKind::CallExternal { name, args: hi }, Some(Type::Int(16)))?;
            let v = join(l, lo, hi)?;
            regs.set(dst, v)?;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_vector_operands_and_block_braces() {
        let t = parse("{.reg .f16 low,high;\n mov.b32 {low,high}, $1;\n mov.b16 $0, low;}").unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].opcode, "mov.b32");
        assert_eq!(t[0].operands, vec!["{low,high}", "$1"]);
        assert_eq!(t[1].operands, vec!["$0", "low"]);
        let t = parse("{  mov.b32 $0, {$1,$2};}\n").unwrap();
        assert_eq!(t[0].operands, vec!["$0", "{$1,$2}"]);
        let t = parse("{fma.rn.f16x2 $0,$1,$2,$3;\n}").unwrap();
        assert_eq!(t[0].opcode, "fma.rn.f16x2");
        assert_eq!(t[0].operands.len(), 4);
        assert!(parse("@p add.f16x2 $0,$1,$2;").is_none());
    }
}
