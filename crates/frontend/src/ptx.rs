//! Inline PTX: the `asm` statements that the CUDA toolkit's headers use,
//! turned into KIR by rules over the assembly template.
//!
//! The toolkit's headers write a few operations in inline PTX: lane ids and
//! lane masks, the active mask, warp shuffles (cooperative groups), half and
//! bfloat16 conversions and arithmetic, texture fetches, `trap`. Each rule
//! below covers a class of templates, not a header's exact text:
//!
//! - special registers that name a lane (`%laneid`, `%lanemask_*`) and the
//!   active mask are the KIR warp operations they are;
//! - `shfl.sync.{idx,up,down,bfly}.b32` is the KIR shuffle, with the width
//!   decoded from the clamp operand as PTX defines it;
//! - a template whose every instruction computes its outputs from its inputs
//!   alone (conversions, arithmetic, moves between registers, texture
//!   fetches, which read memory no kernel may write while it runs) is an
//!   uninterpreted function of its inputs, one per output, named by the
//!   template: equal inputs give equal outputs, and nothing else is assumed;
//! - registers that only time or the environment decide (`%clock`,
//!   `%globaltimer`, `%envreg*`) are arbitrary values;
//! - `trap` fails like `__trap()`, and `nanosleep` does nothing;
//! - fences are fences, and the memory model's atomics, atomic loads and
//!   atomic stores (libcu++) are KIR atomics (`memory_order_op`).
//!
//! Any other template (plain loads and stores, asynchronous copies) is
//! unsupported, with its location: the caller makes only the kernels that
//! reach it `unknown`.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use lockstep_kir::*;

use crate::lower::{CallLowering, Unsupported};

type Result<T> = std::result::Result<T, Unsupported>;

/// The template of an inline-assembly callee.
pub(crate) unsafe fn asm_template(callee: LLVMValueRef) -> String {
    let mut len = 0usize;
    let ptr = LLVMGetInlineAsmAsmString(callee, &mut len);
    if ptr.is_null() {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
    String::from_utf8_lossy(bytes).into_owned()
}

/// The instructions of a template: `{`, `}` and `.reg` declarations dropped,
/// whitespace collapsed.
fn instructions(template: &str) -> Vec<String> {
    template
        .split([';', '\n'])
        .map(|s| s.replace(['{', '}'], " "))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty() && !s.starts_with(".reg"))
        .collect()
}

/// Opcodes (before the first `.`) that compute their destination from their
/// source operands alone.
const PURE_OPCODES: &[&str] = &[
    "cvt", "mov", "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "neg", "abs", "and", "or", "xor",
    "not", "shl", "shr", "bfind", "brev", "popc", "clz", "bfe", "bfi", "prmt", "vabsdiff", "vabsdiff2", "vabsdiff4",
    "vadd", "vsub", "vmin", "vmax", "ex2", "lg2", "rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", "testp", "set",
    "setp", "selp", "slct", "copysign", "cnot", "lop3", "dp4a", "dp2a", "fns", "szext", "tex", "tld4",
];

/// Special registers whose value nothing in the program decides.
const ARBITRARY_REGISTERS: &[&str] = &["%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%envreg", "%smid", "%nsmid", "%warpid", "%nwarpid", "%gridid", "%pm"];

/// Lowers a call of inline assembly.
pub(crate) unsafe fn lower_inline_asm<L: CallLowering>(l: &mut L, call: LLVMValueRef, callee: LLVMValueRef, args: &[LLVMValueRef]) -> Result<()> {
    let template = asm_template(callee);
    let insts = instructions(&template);
    let shown = || insts.join("; ");
    match insts.as_slice() {
        [] => return Ok(()),
        [one] if one == "trap" => {
            let f = l.int_const(Type::BOOL, 0);
            l.emit_inst(InstKind::Annot { kind: AnnotKind::Assert, args: vec![f] }, None);
            return Ok(());
        }
        [one] if one.starts_with("nanosleep") || one.starts_with("pmevent") => return Ok(()),
        [one] if one.starts_with("activemask.b32") => return define_warp(l, call, WarpOp::ActiveMask, Vec::new()),
        [one] if one.starts_with("mov.u32 $0, %laneid") => return define_warp(l, call, WarpOp::LaneId, Vec::new()),
        [one] if one.starts_with("mov.u32 $0, %lanemask_") => {
            let which = one.trim_start_matches("mov.u32 $0, %lanemask_");
            return lane_mask(l, call, which, &template);
        }
        [one] if one.starts_with("shfl.sync.") && one.contains(".b32") => return shuffle(l, call, one, args),
        [one] if one.starts_with("fence.") || one.starts_with("membar.") => {
            l.emit_inst(InstKind::Fence { fence: FenceFlags { shared: true, global: true } }, None);
            return Ok(());
        }
        [one] if ["atom.", "red.", "ld.relaxed.", "ld.acquire.", "st.relaxed.", "st.release."].iter().any(|p| one.starts_with(p)) => {
            if memory_order_op(l, call, one, args)? {
                return Ok(());
            }
        }
        [shfl, step, result] if shfl.starts_with("shfl.sync.") && shfl.contains(" r0|p,") => {
            if let Some(done) = shuffle_step(l, call, shfl, step, result, args)? {
                return Ok(done);
            }
        }
        _ => {}
    }
    if ARBITRARY_REGISTERS.iter().any(|r| template.contains(r)) && insts.iter().all(|i| opcode(i).is_some_and(|o| o == "mov" || o == "cvt")) {
        return havoc_outputs(l, call);
    }
    if crate::ptx_pairs::lower_pairs(l, call, &template, args)? {
        return Ok(());
    }
    let pure = insts.iter().all(|i| {
        let Some(op) = opcode(i) else { return false };
        PURE_OPCODES.contains(&op) && !i.contains('%') && (!i.contains('[') || op == "tex" || op == "tld4")
    });
    if pure {
        return uninterpreted(l, call, &template, args);
    }
    l.fail(format!("inline assembly `{}`", shown()))
}

/// The opcode of an instruction (`cvt` of `cvt.rn.f16.f32 $0, $1`), with a
/// predicate guard (`@p`) skipped.
fn opcode(inst: &str) -> Option<&str> {
    let mut words = inst.split_whitespace();
    let mut first = words.next()?;
    if first.starts_with('@') {
        first = words.next()?;
    }
    first.split('.').next()
}

unsafe fn define_warp<L: CallLowering>(l: &mut L, call: LLVMValueRef, op: WarpOp, args: Vec<ValueId>) -> Result<()> {
    let ty = l.result_type(call)?;
    if let Some(v) = l.emit_inst(InstKind::Warp { op, args }, ty) {
        l.define(call, v);
    }
    Ok(())
}

/// `%lanemask_{eq,le,lt,ge,gt}`: the lanes below, at or above this one.
unsafe fn lane_mask<L: CallLowering>(l: &mut L, call: LLVMValueRef, which: &str, template: &str) -> Result<()> {
    let Some(v) = crate::builtins::lane_mask(l, which) else { return l.fail(format!("inline assembly `{}`", template.trim())) };
    l.define(call, v);
    Ok(())
}

/// `shfl.sync.MODE.b32 $0, $1, $2, $3, $4;`: destination, value, lane or
/// delta, clamp, member mask (PTX's operand order). The clamp packs
/// `(32 - width) << 8` above the lane bound, so the width is
/// `32 - (clamp >> 8)`.
unsafe fn shuffle<L: CallLowering>(l: &mut L, call: LLVMValueRef, inst: &str, args: &[LLVMValueRef]) -> Result<()> {
    let mode = inst.trim_start_matches("shfl.sync.").split('.').next().unwrap_or("");
    let op = match mode {
        "idx" => WarpOp::Shfl,
        "up" => WarpOp::ShflUp,
        "down" => WarpOp::ShflDown,
        "bfly" => WarpOp::ShflXor,
        _ => return l.fail(format!("inline assembly `{inst}`")),
    };
    let operands: Vec<&str> = inst.split_once(' ').map(|(_, rest)| rest.split(',').map(str::trim).collect()).unwrap_or_default();
    let input = |name: &str| -> Option<usize> { name.strip_prefix('$')?.parse::<usize>().ok()?.checked_sub(1) };
    let [dst, value, lane, clamp, mask] = operands.as_slice() else {
        return l.fail(format!("inline assembly `{inst}`"));
    };
    let (Some(value), Some(lane), Some(clamp), Some(mask)) = (input(value), input(lane), input(clamp), input(mask)) else {
        return l.fail(format!("inline assembly `{inst}`"));
    };
    if *dst != "$0" || [value, lane, clamp, mask].iter().any(|&i| i >= args.len()) {
        return l.fail(format!("inline assembly `{inst}`"));
    }
    let value = l.arg_scalar(args[value])?;
    let lane = l.arg_scalar(args[lane])?;
    let clamp = l.arg_scalar(args[clamp])?;
    let mask = l.arg_scalar(args[mask])?;
    let width = crate::builtins::shuffle_width(l, clamp);
    define_warp(l, call, op, vec![mask, value, lane, width])
}

/// CUB's warp-reduction step: `shfl.sync.MODE.b32 r0|p, $v, $l, $c, $m;
/// @p add.T r0, r0, $x; mov.T $0, r0;`: the shuffled value, plus `$x` when
/// the source lane was in the segment (`p`). The source lane is in range
/// when, within the segment of `width` lanes, `lane + delta < width` (down),
/// `lane >= delta` (up) or `lane ^ mask < width` (butterfly); an indexed
/// shuffle always reads a lane of its segment. `Ok(None)` when the template
/// is not of this form.
unsafe fn shuffle_step<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    shfl: &str,
    step: &str,
    result: &str,
    args: &[LLVMValueRef],
) -> Result<Option<()>> {
    let mode = shfl.trim_start_matches("shfl.sync.").split('.').next().unwrap_or("");
    let op = match mode {
        "idx" => WarpOp::Shfl,
        "up" => WarpOp::ShflUp,
        "down" => WarpOp::ShflDown,
        "bfly" => WarpOp::ShflXor,
        _ => return Ok(None),
    };
    let operands: Vec<&str> = shfl.split_once(' ').map(|(_, rest)| rest.split(',').map(str::trim).collect()).unwrap_or_default();
    let input = |name: &str| -> Option<usize> { name.strip_prefix('$')?.parse::<usize>().ok()?.checked_sub(1) };
    let [_, value, lane, clamp, mask] = operands.as_slice() else { return Ok(None) };
    let (Some(value), Some(lane), Some(clamp), Some(mask)) = (input(value), input(lane), input(clamp), input(mask)) else { return Ok(None) };
    // `@p add.T r0, r0, $x`
    let Some(step) = step.strip_prefix("@p add.") else { return Ok(None) };
    let Some((ty, rest)) = step.split_once(' ') else { return Ok(None) };
    let step_operands: Vec<&str> = rest.split(',').map(str::trim).collect();
    let ["r0", "r0", addend] = step_operands.as_slice() else { return Ok(None) };
    let Some(addend) = input(addend) else { return Ok(None) };
    if !result.starts_with("mov.") || !result.ends_with("$0, r0") || !matches!(ty, "f32" | "u32" | "s32") {
        return Ok(None);
    }
    if [value, lane, clamp, mask, addend].iter().any(|&i| i >= args.len()) {
        return Ok(None);
    }
    let value = l.arg_scalar(args[value])?;
    let delta = l.arg_scalar(args[lane])?;
    let clamp = l.arg_scalar(args[clamp])?;
    let mask = l.arg_scalar(args[mask])?;
    let addend = l.arg_scalar(args[addend])?;
    let i32 = Type::I32;
    let bin = |l: &mut L, op: BinOp, lhs: ValueId, rhs: ValueId| l.emit_inst(InstKind::Binary { op, lhs, rhs }, Some(i32)).expect("result");
    let width = crate::builtins::shuffle_width(l, clamp);
    let value_ty = l.type_of(value);
    let shuffled = l.emit_inst(InstKind::Warp { op, args: vec![mask, value, delta, width] }, Some(value_ty)).expect("result");
    // The lane within its segment (widths are powers of two).
    let lane_id = l.emit_inst(InstKind::Warp { op: WarpOp::LaneId, args: Vec::new() }, Some(i32)).expect("result");
    let one = l.int_const(i32, 1);
    let width_mask = bin(l, BinOp::Sub, width, one);
    let in_segment = bin(l, BinOp::And, lane_id, width_mask);
    let in_range = match op {
        WarpOp::ShflDown => {
            let source = bin(l, BinOp::Add, in_segment, delta);
            l.emit_inst(InstKind::Icmp { cc: IntCC::Ult, lhs: source, rhs: width }, Some(Type::BOOL)).expect("result")
        }
        WarpOp::ShflUp => l.emit_inst(InstKind::Icmp { cc: IntCC::Uge, lhs: in_segment, rhs: delta }, Some(Type::BOOL)).expect("result"),
        WarpOp::ShflXor => {
            let source = bin(l, BinOp::Xor, in_segment, delta);
            l.emit_inst(InstKind::Icmp { cc: IntCC::Ult, lhs: source, rhs: width }, Some(Type::BOOL)).expect("result")
        }
        _ => l.int_const(Type::BOOL, 1),
    };
    let sum = if ty == "f32" {
        l.emit_inst(InstKind::Float { op: FloatOp::Add, args: vec![shuffled, addend] }, Some(value_ty)).expect("result")
    } else {
        l.emit_inst(InstKind::Binary { op: BinOp::Add, lhs: shuffled, rhs: addend }, Some(value_ty)).expect("result")
    };
    let out = l.emit_inst(InstKind::Select { cond: in_range, then_value: sum, else_value: shuffled }, Some(value_ty)).expect("result");
    l.define(call, out);
    Ok(Some(()))
}

/// The atomics of the PTX memory model, as libcu++ (`cuda::atomic_ref`,
/// `cuda::atomic`) and cooperative groups write them:
/// `atom.OP[.SEM][.SCOPE][.SPACE].TYPE $0,[$1],$2;` (and `atom.cas` with a
/// fourth operand), `red.OP...TYPE [$0],$1;`, and the atomic loads and
/// stores `ld.{relaxed,acquire}...TYPE $0,[$1];` and
/// `st.{relaxed,release}...TYPE [$0],$1;`. Each is the KIR atomic it is (a
/// load as an atomic `or` with 0, a store as an exchange whose result is
/// unused): atomics do not race with atomics, and race with plain accesses
/// as the memory model says. A block-scoped (`.cta`) atomic is atomic only
/// among its block's threads (`AtomicScope::Block`). The orderings and the
/// other scopes are not modelled beyond that (a release/acquire pair does not order plain accesses here,
/// so a race through them is reported: sound, possibly a false alarm).
/// `Ok(false)` for a form this does not cover (vector forms, say).
unsafe fn memory_order_op<L: CallLowering>(l: &mut L, call: LLVMValueRef, inst: &str, args: &[LLVMValueRef]) -> Result<bool> {
    let Some((opcode, operands)) = inst.split_once(' ') else { return Ok(false) };
    let parts: Vec<&str> = opcode.split('.').collect();
    if parts.iter().any(|p| p.starts_with('v') && p[1..].parse::<u32>().is_ok()) {
        return Ok(false);
    }
    let ty = parts.last().copied().unwrap_or("");
    let float = ty.starts_with('f');
    let signed = ty.starts_with('s');
    let operands: Vec<String> = operands.split(',').map(|o| o.trim().trim_start_matches('[').trim_end_matches(']').trim().to_string()).collect();
    // `$k` names the k-th output, then the inputs: with one output `$1` is
    // the first argument.
    let outputs = usize::from(l.result_type(call)?.is_some());
    let arg = |l: &mut L, name: &str| -> Result<Option<ValueId>> {
        let Some(k) = name.strip_prefix('$').and_then(|k| k.parse::<usize>().ok()) else { return Ok(None) };
        match k.checked_sub(outputs).and_then(|i| args.get(i)) {
            Some(&a) => Ok(Some(l.arg_scalar(a)?)),
            None => Ok(None),
        }
    };
    let kind = parts[0];
    // A block-scoped (`.cta`) atomic is atomic only among one block's
    // threads (`AtomicScope::Block`); the other scopes include the device.
    let scope = if parts.contains(&"cta") { AtomicScope::Block } else { AtomicScope::Device };
    let define = |l: &mut L, v: ValueId| {
        if outputs == 1 {
            l.define(call, v);
        }
    };
    match kind {
        "atom" | "red" => {
            let op_name = parts.get(1).copied().unwrap_or("");
            let (ptr_at, value_at) = if kind == "atom" { (1, 2) } else { (0, 1) };
            let (Some(ptr_name), Some(value_name)) = (operands.get(ptr_at), operands.get(value_at)) else { return Ok(false) };
            let (Some(ptr), Some(value)) = (arg(l, ptr_name)?, arg(l, value_name)?) else { return Ok(false) };
            let value_ty = l.type_of(value);
            if op_name == "cas" {
                let Some(new) = operands.get(3).map(String::as_str) else { return Ok(false) };
                let Some(new) = arg(l, new)? else { return Ok(false) };
                let v = l.emit_inst(InstKind::CmpXchg { ptr, expected: value, new, scope }, Some(value_ty)).expect("result");
                define(l, v);
                return Ok(true);
            }
            let op = match op_name {
                "add" if float => AtomicOp::FAdd,
                "add" => AtomicOp::Add,
                "and" => AtomicOp::And,
                "or" => AtomicOp::Or,
                "xor" => AtomicOp::Xor,
                "exch" => AtomicOp::Xchg,
                "min" if signed => AtomicOp::Min,
                "max" if signed => AtomicOp::Max,
                "min" if !float => AtomicOp::UMin,
                "max" if !float => AtomicOp::UMax,
                "inc" => AtomicOp::UIncWrap,
                "dec" => AtomicOp::UDecWrap,
                _ => return Ok(false),
            };
            let v = l.emit_inst(InstKind::Atomic { op, ptr, value, scope }, Some(value_ty)).expect("result");
            define(l, v);
            Ok(true)
        }
        "ld" => {
            let (Some(ty), Some(ptr_name)) = (l.result_type(call)?, operands.get(1)) else { return Ok(false) };
            let Some(ptr) = arg(l, ptr_name)? else { return Ok(false) };
            if !ty.is_int() {
                return Ok(false);
            }
            let zero = l.int_const(ty, 0);
            let v = l.emit_inst(InstKind::Atomic { op: AtomicOp::Or, ptr, value: zero, scope }, Some(ty)).expect("result");
            define(l, v);
            Ok(true)
        }
        "st" => {
            let (Some(ptr_name), Some(value_name)) = (operands.first(), operands.get(1)) else { return Ok(false) };
            let (Some(ptr), Some(value)) = (arg(l, ptr_name)?, arg(l, value_name)?) else { return Ok(false) };
            let value_ty = l.type_of(value);
            if !value_ty.is_int() {
                return Ok(false);
            }
            l.emit_inst(InstKind::Atomic { op: AtomicOp::Xchg, ptr, value, scope }, Some(value_ty));
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Fresh, arbitrary values for every output.
unsafe fn havoc_outputs<L: CallLowering>(l: &mut L, call: LLVMValueRef) -> Result<()> {
    if let Some(lanes) = l.result_lanes(call)? {
        let values = lanes.into_iter().map(|ty| l.emit_inst(InstKind::Havoc, Some(ty)).expect("result")).collect();
        l.define_lanes(call, values);
    } else if let Some(ty) = l.result_type(call)? {
        let v = l.emit_inst(InstKind::Havoc, Some(ty)).expect("result");
        l.define(call, v);
    }
    Ok(())
}

/// One uninterpreted function of every input per output, named by the
/// template.
unsafe fn uninterpreted<L: CallLowering>(l: &mut L, call: LLVMValueRef, template: &str, args: &[LLVMValueRef]) -> Result<()> {
    let mut inputs = Vec::new();
    for &a in args {
        inputs.extend(l.arg_lanes(a)?);
    }
    let name = format!("ptx:{}", instructions(template).join("; "));
    if let Some(lanes) = l.result_lanes(call)? {
        let values = lanes
            .into_iter()
            .enumerate()
            .map(|(i, ty)| l.emit_inst(InstKind::CallExternal { name: format!("{name}.lane{i}"), args: inputs.clone() }, Some(ty)).expect("result"))
            .collect();
        l.define_lanes(call, values);
    } else if let Some(ty) = l.result_type(call)? {
        let v = l.emit_inst(InstKind::CallExternal { name, args: inputs }, Some(ty)).expect("result");
        l.define(call, v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_templates_into_instructions() {
        let t = "{.reg .f16 low,high;\n  mov.b32 {low,high},$1;\n  cvt.f32.f16 $0, low;}\n";
        assert_eq!(instructions(t), vec!["mov.b32 low,high ,$1", "cvt.f32.f16 $0, low"]);
        assert_eq!(opcode("cvt.rn.f16.f32 $0, $1"), Some("cvt"));
        assert_eq!(opcode("@p add.u32 $0, $1, 1"), Some("add"));
    }
}
