//! The tables that turn calls into KIR instructions: LLVM intrinsics, OpenCL
//! builtins, and the `__lockstep_*` prelude intrinsics of `INTRINSICS.md`.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use lockstep_kir::*;

use crate::lower::{CallLowering, Unsupported};

type Result<T> = std::result::Result<T, Unsupported>;

const BOTH_FENCES: FenceFlags = FenceFlags { shared: true, global: true };

unsafe fn const_arg(v: LLVMValueRef) -> Option<u64> {
    if LLVMIsAConstantInt(v).is_null() {
        None
    } else {
        Some(LLVMConstIntGetZExtValue(v))
    }
}

/// The memory a barrier or fence orders, from its flags argument. Flags
/// that are not a constant may differ between threads, and a barrier orders
/// a space only if every thread's flags name it: assuming it orders nothing
/// is the sound choice (more accesses may race).
fn fence_from_flags(flags: Option<u64>, shared_bit: u64, global_bit: u64) -> FenceFlags {
    match flags {
        Some(f) => FenceFlags { shared: f & shared_bit != 0, global: f & global_bit != 0 },
        None => FenceFlags::default(),
    }
}

/// Lowers a call of an `llvm.*` intrinsic (`name` without the prefix).
pub(crate) unsafe fn lower_llvm_intrinsic<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    name: &str,
    args: &[LLVMValueRef],
) -> Result<()> {
    // Debug-info, lifetime and optimisation hints carry no semantics here.
    const IGNORED: &[&str] = &[
        "dbg.", "lifetime.", "experimental.noalias.scope.decl", "invariant.start", "invariant.end", "var.annotation",
        "ptr.annotation", "annotation", "donothing", "sideeffect", "stacksave", "stackrestore", "prefetch",
        "nvvm.membar", "nvvm.fence",
    ];
    if let Some(sreg) = name.strip_prefix("nvvm.read.ptx.sreg.") {
        return lower_sreg(l, call, sreg);
    }
    if name.starts_with("nvvm.membar") || name.starts_with("nvvm.fence") {
        l.emit_inst(InstKind::Fence { fence: BOTH_FENCES }, None);
        return Ok(());
    }
    if IGNORED.iter().any(|p| name.starts_with(p)) {
        return match l.result_type(call)? {
            None => Ok(()),
            Some(ty) => {
                let v = l.emit_inst(InstKind::Havoc, Some(ty)).expect("result");
                l.define(call, v);
                Ok(())
            }
        };
    }
    match name {
        "nvvm.barrier0" | "nvvm.barrier.sync" | "nvvm.barrier.n" => {
            l.emit_inst(InstKind::Barrier { scope: BarrierScope::Group, fence: BOTH_FENCES, mask: None }, None);
            return Ok(());
        }
        // `__syncthreads_count/and/or`: a group barrier, then the
        // collective that combines every thread's predicate (KIR keeps the
        // two together; the operand is computed before the barrier).
        "nvvm.barrier0.popc" | "nvvm.barrier0.and" | "nvvm.barrier0.or" => {
            let op = match name {
                "nvvm.barrier0.popc" => CollectiveOp::Count,
                "nvvm.barrier0.and" => CollectiveOp::And,
                _ => CollectiveOp::Or,
            };
            let Some(&pred) = args.first() else { return l.fail(format!("`llvm.{name}` without its predicate")) };
            let arg = l.arg_scalar(pred)?;
            if !l.type_of(arg).is_int() {
                return l.fail(format!("`llvm.{name}` of a non-integer predicate"));
            }
            l.emit_inst(InstKind::Barrier { scope: BarrierScope::Group, fence: BOTH_FENCES, mask: None }, None);
            let v = l.emit_inst(InstKind::Collective { op, arg }, Some(Type::I32)).expect("result");
            l.define(call, v);
            return Ok(());
        }
        "nvvm.bar.warp.sync" => {
            warp_barrier(l, args.first().copied())?;
            return Ok(());
        }
        "assume" => {
            let c = l.arg_scalar(args[0])?;
            let c = l.coerce_to(c, Type::BOOL);
            l.emit_inst(InstKind::Annot { kind: AnnotKind::Assume, args: vec![c] }, None);
            return Ok(());
        }
        "trap" | "debugtrap" => {
            let f = l.int_const(Type::BOOL, 0);
            l.emit_inst(InstKind::Annot { kind: AnnotKind::Assert, args: vec![f] }, None);
            return Ok(());
        }
        _ => {}
    }
    if let Some(space) = name.strip_prefix("nvvm.isspacep.") {
        // Which memory a generic pointer points into. The lowering knows
        // when the pointer's type names its space; otherwise the answer is
        // open, except for `local`: the libraries ask it only to take a
        // faster path for a thread's own memory that means the same as the
        // general one, so "not local" loses no behaviour.
        let p = l.arg_scalar(args[0])?;
        let known = match l.type_of(p) {
            Type::Ptr(MemSpace::Generic) => None,
            Type::Ptr(s) => Some(s),
            _ => None,
        };
        let answer = match (space, known) {
            ("local", None) => Some(false),
            (_, None) => None,
            ("global", Some(s)) => Some(s == MemSpace::Global),
            ("shared", Some(s)) => Some(s == MemSpace::Shared),
            ("const", Some(s)) => Some(s == MemSpace::Constant),
            ("local", Some(s)) => Some(s == MemSpace::Private),
            _ => None,
        };
        let v = match answer {
            Some(b) => l.int_const(Type::BOOL, b as u128),
            None => l.emit_inst(InstKind::Havoc, Some(Type::BOOL)).expect("result"),
        };
        l.define(call, v);
        return Ok(());
    }
    if name.starts_with("nvvm.shfl.sync.") || name.starts_with("nvvm.vote.") || name.starts_with("nvvm.read.ptx.sreg.lanemask") {
        return lower_nvvm_warp(l, call, name, args);
    }
    if let Some(rest) = name.strip_prefix("nvvm.atomic.") {
        if scoped_nvvm_atomic(l, call, rest, args)? {
            return Ok(());
        }
    }
    if name == "nvvm.activemask" {
        let v = l.emit_inst(InstKind::Warp { op: WarpOp::ActiveMask, args: vec![] }, Some(Type::I32)).expect("result");
        l.define(call, v);
        return Ok(());
    }
    if name.starts_with("nvvm.match.any.sync.") && args.len() == 2 {
        let mask = l.arg_scalar(args[0])?;
        let value = l.arg_scalar(args[1])?;
        crate::warp_masks::check_caller_in_mask(l, mask);
        let v = l.emit_inst(InstKind::Warp { op: WarpOp::MatchAny, args: vec![mask, value] }, Some(Type::I32)).expect("result");
        l.define(call, v);
        return Ok(());
    }
    // `__match_{any,all}_sync(mask, value)` and `__reduce_*_sync(mask,
    // value)` (`llvm.nvvm.redux.sync.OP(value, mask)`) stay uninterpreted
    // functions of their operands below; their masks are checked here.
    if name.starts_with("nvvm.match.") || name.starts_with("nvvm.redux.sync.") {
        let at = if name.starts_with("nvvm.match.") { 0 } else { 1 };
        if let Some(&mask) = args.get(at) {
            let mask = l.arg_scalar(mask)?;
            crate::warp_masks::check_caller_in_mask(l, mask);
        }
    }
    if name.starts_with("memcpy") || name.starts_with("memmove") {
        let dst = l.arg_scalar(args[0])?;
        let src = l.arg_scalar(args[1])?;
        let len = l.arg_scalar(args[2])?;
        let len = l.coerce_to(len, Type::I64);
        l.emit_inst(InstKind::MemCopy { dst, src, len }, None);
        return Ok(());
    }
    if name.starts_with("memset") {
        let dst = l.arg_scalar(args[0])?;
        let byte = l.arg_scalar(args[1])?;
        let len = l.arg_scalar(args[2])?;
        let len = l.coerce_to(len, Type::I64);
        l.emit_inst(InstKind::MemSet { dst, byte, len }, None);
        return Ok(());
    }
    // Integer min/max/abs are exact; lower them to compare-and-select so
    // that engines need not know them.
    for (prefix, cc) in [("smax.", IntCC::Sgt), ("smin.", IntCC::Slt), ("umax.", IntCC::Ugt), ("umin.", IntCC::Ult)] {
        if name.starts_with(prefix) {
            let a = l.arg_scalar(args[0])?;
            let b = l.arg_scalar(args[1])?;
            let ty = l.type_of(a);
            let c = l.emit_inst(InstKind::Icmp { cc, lhs: a, rhs: b }, Some(Type::BOOL)).expect("result");
            let v = l.emit_inst(InstKind::Select { cond: c, then_value: a, else_value: b }, Some(ty)).expect("result");
            l.define(call, v);
            return Ok(());
        }
    }
    // `{result, overflowed}` of LLVM's checked arithmetic (what `new T[n]`
    // computes its size with, and `__builtin_*_overflow`): the wrapped
    // result, and the overflow as a comparison of exact values. Signed
    // multiplication is left to the generic path (an unmodelled call).
    for (prefix, op) in [("uadd.", BinOp::Add), ("usub.", BinOp::Sub), ("umul.", BinOp::Mul), ("sadd.", BinOp::Add), ("ssub.", BinOp::Sub)] {
        if name.strip_prefix(prefix).is_some_and(|rest| rest.starts_with("with.overflow.")) && args.len() == 2 {
            let a = l.arg_scalar(args[0])?;
            let b = l.arg_scalar(args[1])?;
            let ty = l.type_of(a);
            let res = l.emit_inst(InstKind::Binary { op, lhs: a, rhs: b }, Some(ty)).expect("result");
            let cmp = |l: &mut L, cc, lhs, rhs| l.emit_inst(InstKind::Icmp { cc, lhs, rhs }, Some(Type::BOOL)).expect("result");
            let bin = |l: &mut L, op, lhs, rhs| l.emit_inst(InstKind::Binary { op, lhs, rhs }, Some(ty)).expect("result");
            let zero = l.int_const(ty, 0);
            let overflowed = match prefix {
                // The sum wrapped below an operand; the difference needed
                // a borrow.
                "uadd." => cmp(l, IntCC::Ult, res, a),
                "usub." => cmp(l, IntCC::Ult, a, b),
                // A product wrapped when dividing it by a nonzero `b` does
                // not give `a` back (`b` is replaced by 1 where it is 0, so
                // that no division by zero is executed).
                "umul." => {
                    let one = l.int_const(ty, 1);
                    let b_zero = cmp(l, IntCC::Eq, b, zero);
                    let divisor = l.emit_inst(InstKind::Select { cond: b_zero, then_value: one, else_value: b }, Some(ty)).expect("result");
                    let back = bin(l, BinOp::UDiv, res, divisor);
                    let differs = cmp(l, IntCC::Ne, back, a);
                    let b_nonzero = cmp(l, IntCC::Ne, b, zero);
                    l.emit_inst(InstKind::Binary { op: BinOp::And, lhs: differs, rhs: b_nonzero }, Some(Type::BOOL)).expect("result")
                }
                // Signed: the result's sign differs from what the operands'
                // signs force (both operands' for a sum; `a`'s, against a
                // `b` of the other sign, for a difference).
                "sadd." => {
                    let x = bin(l, BinOp::Xor, a, res);
                    let y = bin(l, BinOp::Xor, b, res);
                    let both = bin(l, BinOp::And, x, y);
                    cmp(l, IntCC::Slt, both, zero)
                }
                _ => {
                    let x = bin(l, BinOp::Xor, a, b);
                    let y = bin(l, BinOp::Xor, a, res);
                    let both = bin(l, BinOp::And, x, y);
                    cmp(l, IntCC::Slt, both, zero)
                }
            };
            l.define_lanes(call, vec![res, overflowed]);
            return Ok(());
        }
    }
    if name.starts_with("abs.") {
        let a = l.arg_scalar(args[0])?;
        let ty = l.type_of(a);
        let zero = l.int_const(ty, 0);
        let neg = l.emit_inst(InstKind::Binary { op: BinOp::Sub, lhs: zero, rhs: a }, Some(ty)).expect("result");
        let c = l.emit_inst(InstKind::Icmp { cc: IntCC::Slt, lhs: a, rhs: zero }, Some(Type::BOOL)).expect("result");
        let v = l.emit_inst(InstKind::Select { cond: c, then_value: neg, else_value: a }, Some(ty)).expect("result");
        l.define(call, v);
        return Ok(());
    }
    if (name == "ctpop.i32" || name == "cttz.i32") && !args.is_empty() {
        let x = l.arg_scalar(args[0])?;
        let v = if name == "ctpop.i32" { crate::bits::popc32(l, x) } else { crate::bits::cttz32(l, x) };
        l.define(call, v);
        return Ok(());
    }
    if name.starts_with("fmuladd.") || name.starts_with("fma.") {
        let a = l.arg_scalar(args[0])?;
        let b = l.arg_scalar(args[1])?;
        let c = l.arg_scalar(args[2])?;
        let ty = l.type_of(a);
        let m = l.emit_inst(InstKind::Float { op: FloatOp::Mul, args: vec![a, b] }, Some(ty)).expect("result");
        let v = l.emit_inst(InstKind::Float { op: FloatOp::Add, args: vec![m, c] }, Some(ty)).expect("result");
        l.define(call, v);
        return Ok(());
    }
    if name.starts_with("objectsize") || name.starts_with("is.constant") || name.starts_with("expect") {
        // `expect` returns its first argument; the others are compile-time
        // queries whose value we may leave unspecified.
        if name.starts_with("expect") {
            let v = l.arg_scalar(args[0])?;
            l.define(call, v);
        } else if let Some(ty) = l.result_type(call)? {
            let v = l.emit_inst(InstKind::Havoc, Some(ty)).expect("result");
            l.define(call, v);
        }
        return Ok(());
    }
    // Tensor-core fragments (`mma.h`'s `wmma::load_matrix_sync`,
    // `mma_sync`, `store_matrix_sync`; PTX `mma`, `ldmatrix`) and sm_80's
    // asynchronous copies move memory as a warp or after the call returns:
    // not a function of the arguments, so the kernels that reach them are
    // unsupported, with the call's location.
    if name.starts_with("nvvm.wmma.") || name.starts_with("nvvm.mma.") || name.starts_with("nvvm.ldmatrix.") {
        return l.fail("a tensor-core operation (`wmma` fragments, `mma`, `ldmatrix`), which lockstep does not model".into());
    }
    if name.starts_with("nvvm.cp.async.") {
        return l.fail("an asynchronous copy (`cp.async`), which lockstep does not model".into());
    }
    // Everything else (fabs, sqrt, ctpop, nvvm math...) is an uninterpreted
    // function of its arguments.
    external_call(l, call, &format!("llvm.{name}"), args)
}

/// The scoped atomics of NVVM, as clang's CUDA headers write
/// `atomicAdd_system` and `atomicAdd_block`:
/// `llvm.nvvm.atomic.OP.gen.{i,f}.{sys,cta}.TYPE.PTR(ptr, value)` and
/// `llvm.nvvm.atomic.cas.gen.i.{sys,cta}.TYPE.PTR(ptr, expected, new)`.
/// A system-scoped atomic is atomic for every thread of the grid (and the
/// host), as the engines model atomics; a block-scoped one only within a
/// block (`AtomicScope::Block`). `max` and `min` are left out: clang
/// gives the signed and the unsigned forms one intrinsic, so the operation
/// cannot be told from the call. `Ok(false)` for a form this does not cover.
unsafe fn scoped_nvvm_atomic<L: CallLowering>(l: &mut L, call: LLVMValueRef, rest: &str, args: &[LLVMValueRef]) -> Result<bool> {
    // The device-scoped wrapping increment and decrement, as clang's CUDA
    // headers write `atomicInc` and `atomicDec`:
    // `llvm.nvvm.atomic.load.{inc,dec}.32.PTR(ptr, limit)`.
    let wrapping = if rest.starts_with("load.inc.32") {
        Some(AtomicOp::UIncWrap)
    } else if rest.starts_with("load.dec.32") {
        Some(AtomicOp::UDecWrap)
    } else {
        None
    };
    if let (Some(aop), [ptr, value]) = (wrapping, args) {
        let ptr = l.arg_scalar(*ptr)?;
        let value = l.arg_scalar(*value)?;
        let ty = l.type_of(value);
        let old = l.emit_inst(InstKind::Atomic { op: aop, ptr, value, scope: AtomicScope::Device }, Some(ty)).expect("result");
        l.define(call, old);
        return Ok(true);
    }
    let parts: Vec<&str> = rest.split('.').collect();
    let (Some(&op), Some(&"gen"), Some(&kind), Some(&scope)) = (parts.first(), parts.get(1), parts.get(2), parts.get(3)) else {
        return Ok(false);
    };
    if !matches!(scope, "sys" | "cta") || !matches!(kind, "i" | "f") {
        return Ok(false);
    }
    let Some(&ptr_arg) = args.first() else { return Ok(false) };
    let ptr = l.arg_scalar(ptr_arg)?;
    let scope = if scope == "cta" { AtomicScope::Block } else { AtomicScope::Device };
    if op == "cas" {
        let (Some(&expected), Some(&new)) = (args.get(1), args.get(2)) else { return Ok(false) };
        let expected = l.arg_scalar(expected)?;
        let new = l.arg_scalar(new)?;
        let ty = l.type_of(new);
        let expected = l.coerce_to(expected, ty);
        let old = l.emit_inst(InstKind::CmpXchg { ptr, expected, new, scope }, Some(ty)).expect("result");
        l.define(call, old);
        return Ok(true);
    }
    let aop = match (op, kind) {
        ("add", "f") => AtomicOp::FAdd,
        ("add", _) => AtomicOp::Add,
        ("exch", _) => AtomicOp::Xchg,
        ("and", "i") => AtomicOp::And,
        ("or", "i") => AtomicOp::Or,
        ("xor", "i") => AtomicOp::Xor,
        ("inc", "i") => AtomicOp::UIncWrap,
        ("dec", "i") => AtomicOp::UDecWrap,
        _ => return Ok(false),
    };
    let Some(&value) = args.get(1) else { return Ok(false) };
    let value = l.arg_scalar(value)?;
    let ty = l.type_of(value);
    let old = l.emit_inst(InstKind::Atomic { op: aop, ptr, value, scope }, Some(ty)).expect("result");
    l.define(call, old);
    Ok(true)
}

/// The warp intrinsics of NVVM, as the CUDA toolkit's headers and clang's
/// own produce them: `llvm.nvvm.shfl.sync.{idx,up,down,bfly}.{i32,f32}(mask,
/// value, lane or delta, clamp)` (the clamp packs `(32 - width) << 8`),
/// `llvm.nvvm.vote.{ballot,all,any}.sync(mask, predicate)` and the lane-mask
/// special registers. The same KIR warp operations as the prelude's
/// `__lockstep_shfl*` and `__lockstep_ballot`, so every engine gives them the
/// same meaning.
unsafe fn lower_nvvm_warp<L: CallLowering>(l: &mut L, call: LLVMValueRef, name: &str, args: &[LLVMValueRef]) -> Result<()> {
    if let Some(which) = name.strip_prefix("nvvm.read.ptx.sreg.lanemask.") {
        let Some(v) = lane_mask(l, which) else { return l.fail(format!("the special register `lanemask.{which}`")) };
        l.define(call, v);
        return Ok(());
    }
    if let Some(rest) = name.strip_prefix("nvvm.shfl.sync.") {
        let mut parts = rest.split('.');
        let op = match parts.next() {
            Some("idx") => WarpOp::Shfl,
            Some("up") => WarpOp::ShflUp,
            Some("down") => WarpOp::ShflDown,
            Some("bfly") => WarpOp::ShflXor,
            _ => return l.fail(format!("the intrinsic `llvm.{name}`")),
        };
        // The `...p` forms also return whether the source lane was in
        // range, as a struct: not modelled.
        if parts.next().is_some_and(|t| t.ends_with('p')) || args.len() != 4 {
            return l.fail(format!("the intrinsic `llvm.{name}`"));
        }
        let mask = l.arg_scalar(args[0])?;
        let value = l.arg_scalar(args[1])?;
        let lane = l.arg_scalar(args[2])?;
        let clamp = l.arg_scalar(args[3])?;
        let width = shuffle_width(l, clamp);
        crate::warp_masks::check_warp_op(l, op, &[mask, value, lane, width]);
        let ty = l.result_type(call)?;
        if let Some(v) = l.emit_inst(InstKind::Warp { op, args: vec![mask, value, lane, width] }, ty) {
            l.define(call, v);
        }
        return Ok(());
    }
    let op = match name {
        "nvvm.vote.ballot.sync" => WarpOp::Ballot,
        "nvvm.vote.all.sync" => WarpOp::All,
        "nvvm.vote.any.sync" => WarpOp::Any,
        _ => return l.fail(format!("the intrinsic `llvm.{name}`")),
    };
    let mask = l.arg_scalar(args[0])?;
    let pred = l.arg_scalar(args[1])?;
    // The prelude's votes take an `int` predicate; NVVM's an `i1`.
    let pred = l.coerce_to(pred, Type::I32);
    crate::warp_masks::check_warp_op(l, op, &[mask, pred]);
    let v = l.emit_inst(InstKind::Warp { op, args: vec![mask, pred] }, Some(Type::I32)).expect("result");
    // `all` and `any` return an `i1` in NVVM and an `int` in the prelude.
    let v = if l.result_type(call)? == Some(Type::BOOL) {
        let zero = l.int_const(Type::I32, 0);
        l.emit_inst(InstKind::Icmp { cc: IntCC::Ne, lhs: v, rhs: zero }, Some(Type::BOOL)).expect("result")
    } else {
        v
    };
    l.define(call, v);
    Ok(())
}

/// A warp barrier (`__syncwarp(mask)`, `__syncwarp()` in the prelude). The
/// calling lane must be in its mask (an assertion, as for every `*_sync`
/// operation), and the barrier keeps the mask so that the engines order
/// only lanes that name each other; a constant mask of all 32 lanes is
/// stored as no mask, which names every lane.
unsafe fn warp_barrier<L: CallLowering>(l: &mut L, mask: Option<LLVMValueRef>) -> Result<()> {
    let full = mask.is_none_or(|m| const_arg(m).is_some_and(|bits| bits & 0xffff_ffff == 0xffff_ffff));
    let mask = match mask {
        Some(m) => {
            let m = l.arg_scalar(m)?;
            crate::warp_masks::check_caller_in_mask(l, m);
            (!full).then(|| l.coerce_to(m, Type::I32))
        }
        None => None,
    };
    l.emit_inst(InstKind::Barrier { scope: BarrierScope::Warp, fence: BOTH_FENCES, mask }, None);
    Ok(())
}

/// The lane mask PTX names `%lanemask_WHICH` (`eq`, `le`, `lt`, `ge`,
/// `gt`): the lanes at, at or below, below, at or above, or above this one.
pub(crate) fn lane_mask<L: CallLowering>(l: &mut L, which: &str) -> Option<ValueId> {
    let i32 = Type::I32;
    let lane = l.emit_inst(InstKind::Warp { op: WarpOp::LaneId, args: vec![] }, Some(i32)).expect("result");
    let one = l.int_const(i32, 1);
    let ones = l.int_const(i32, 0xffff_ffff);
    let bit = l.emit_inst(InstKind::Binary { op: BinOp::Shl, lhs: one, rhs: lane }, Some(i32)).expect("result");
    let below = l.emit_inst(InstKind::Binary { op: BinOp::Sub, lhs: bit, rhs: one }, Some(i32)).expect("result");
    let at_or_below = l.emit_inst(InstKind::Binary { op: BinOp::Or, lhs: below, rhs: bit }, Some(i32)).expect("result");
    Some(match which {
        "eq" => bit,
        "lt" => below,
        "le" => at_or_below,
        "ge" => l.emit_inst(InstKind::Binary { op: BinOp::Xor, lhs: below, rhs: ones }, Some(i32)).expect("result"),
        "gt" => l.emit_inst(InstKind::Binary { op: BinOp::Xor, lhs: at_or_below, rhs: ones }, Some(i32)).expect("result"),
        _ => return None,
    })
}

/// The width of a shuffle's segment from PTX's clamp operand, which packs
/// `(32 - width) << 8` above the lane bound: `32 - (clamp >> 8)`.
pub(crate) fn shuffle_width<L: CallLowering>(l: &mut L, clamp: ValueId) -> ValueId {
    let eight = l.int_const(Type::I32, 8);
    let thirty_two = l.int_const(Type::I32, 32);
    let shifted = l.emit_inst(InstKind::Binary { op: BinOp::LShr, lhs: clamp, rhs: eight }, Some(Type::I32)).expect("result");
    l.emit_inst(InstKind::Binary { op: BinOp::Sub, lhs: thirty_two, rhs: shifted }, Some(Type::I32)).expect("result")
}

unsafe fn lower_sreg<L: CallLowering>(l: &mut L, call: LLVMValueRef, sreg: &str) -> Result<()> {
    let (var_name, dim) = match sreg.rsplit_once('.') {
        Some((v, d)) => (v, d),
        None => (sreg, ""),
    };
    let dim = match dim {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        _ => {
            let v = match sreg {
                "warpsize" => l.int_const(Type::I32, 32),
                "laneid" => l.emit_inst(InstKind::Warp { op: WarpOp::LaneId, args: vec![] }, Some(Type::I32)).expect("result"),
                // Registers that time or the hardware decide (`clock()`,
                // `clock64()`, `%globaltimer`, the SM's id): any value.
                "clock" | "clock64" | "globaltimer" | "smid" | "nsmid" | "warpid" | "nwarpid" | "gridid" => {
                    let ty = l.result_type(call)?.unwrap_or(Type::I32);
                    l.emit_inst(InstKind::Havoc, Some(ty)).expect("result")
                }
                other => return l.fail(format!("the special register `{other}`")),
            };
            l.define(call, v);
            return Ok(());
        }
    };
    let var = match var_name {
        "tid" => BuiltinVar::LocalId,
        "ctaid" => BuiltinVar::GroupId,
        "ntid" => BuiltinVar::LocalSize,
        "nctaid" => BuiltinVar::NumGroups,
        other => return l.fail(format!("the special register `{other}`")),
    };
    let v = l.emit_special_register(call, var, dim);
    l.define(call, v);
    Ok(())
}

/// OpenCL built-in functions that apply to vectors lane by lane: lane `i` of
/// the result is the function of lane `i` of each vector argument (scalar
/// arguments apply to every lane). `cross`, `normalize` and the like are not.
const ELEMENTWISE: &[&str] = &[
    "min", "max", "clamp", "abs", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd", "mad_hi", "mad_sat", "mul_hi",
    "mad24", "mul24", "rotate", "clz", "popcount", "fmin", "fmax", "fabs", "fma", "mad", "mix", "step", "sign",
    "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "floor", "ceil", "round", "trunc", "rint", "pow", "pown",
    "powr", "fmod", "copysign", "hypot", "degrees", "radians",
];

unsafe fn external_call<L: CallLowering>(l: &mut L, call: LLVMValueRef, name: &str, args: &[LLVMValueRef]) -> Result<()> {
    let mut per_arg = Vec::new();
    for &a in args {
        let mut lanes = l.arg_lanes(a)?;
        // An image is passed as the integer of its address: the function
        // sees which image it is given, and has no pointer through which
        // it could reach memory unseen by the race checks.
        if image_access(a).is_some() {
            for v in &mut lanes {
                *v = l.emit_inst(InstKind::Cast { op: CastOp::PtrToInt, arg: *v }, Some(Type::I64)).expect("result");
            }
        }
        per_arg.push(lanes);
    }
    let kargs: Vec<ValueId> = per_arg.iter().flatten().copied().collect();
    // A function returning a vector (OpenCL's `ceil(float4)`) is modelled as
    // one function per lane: of that lane of each argument for the
    // element-wise built-ins, of all the arguments otherwise.
    if let Some(lanes) = l.result_lanes(call)? {
        let width = lanes.len();
        if ELEMENTWISE.contains(&name) && per_arg.iter().all(|a| a.len() == width || a.len() == 1) {
            let values = lanes
                .into_iter()
                .enumerate()
                .map(|(i, ty)| {
                    let lane_args = per_arg.iter().map(|a| if a.len() == 1 { a[0] } else { a[i] }).collect();
                    l.emit_inst(InstKind::CallExternal { name: name.to_string(), args: lane_args }, Some(ty)).expect("result")
                })
                .collect();
            l.define_lanes(call, values);
            return Ok(());
        }
        let values = lanes
            .into_iter()
            .enumerate()
            .map(|(i, ty)| {
                let kind = InstKind::CallExternal { name: format!("{name}.lane{i}"), args: kargs.clone() };
                l.emit_inst(kind, Some(ty)).expect("result")
            })
            .collect();
        l.define_lanes(call, values);
        return Ok(());
    }
    let ret = l.result_type(call)?;
    if let Some(v) = l.emit_inst(InstKind::CallExternal { name: name.to_string(), args: kargs }, ret) {
        l.define(call, v);
    }
    Ok(())
}

/// Lowers a call of a function without a body, by name.
pub(crate) unsafe fn lower_named_call<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    symbol: &str,
    base: &str,
    args: &[LLVMValueRef],
) -> Result<()> {
    if let Some(op) = base.strip_prefix("__lockstep_") {
        return lower_prelude_intrinsic(l, call, op, args);
    }
    if lower_opencl_builtin(l, call, symbol, base, args)? {
        return Ok(());
    }
    // CUDA surface reads and writes (`surf2Dwrite`...): memory lockstep does
    // not model yet. A write is a store and a read a load of the surface's
    // memory; as uninterpreted calls they would hide the races between them,
    // so a kernel that reaches one is unsupported (and only that kernel).
    if base.starts_with("surf") && (base.ends_with("write") || base.ends_with("read")) && symbol.starts_with("_Z") {
        return l.fail(format!("the surface access `{base}` (surface memory is not modelled)"));
    }
    match base {
        "__assert_fail" | "__assertfail" | "__assert_rtn" | "__assert" | "abort" => {
            let f = l.int_const(Type::BOOL, 0);
            l.emit_inst(InstKind::Annot { kind: AnnotKind::Assert, args: vec![f] }, None);
            Ok(())
        }
        "printf" | "vprintf" | "puts" | "fprintf" => {
            l.emit_inst(InstKind::Nop { what: base.to_string() }, None);
            if let Some(ty) = l.result_type(call)? {
                let v = l.emit_inst(InstKind::Havoc, Some(ty)).expect("result");
                l.define(call, v);
            }
            Ok(())
        }
        "__nv_popc" | "__popc" | "__nv_ffs" | "__ffs" if args.len() == 1 => {
            let x = l.arg_scalar(args[0])?;
            if l.type_of(x) != Type::I32 || l.result_type(call)? != Some(Type::I32) {
                return external_call(l, call, base, args);
            }
            let v = if base.ends_with("popc") { crate::bits::popc32(l, x) } else { crate::bits::ffs32(l, x) };
            l.define(call, v);
            Ok(())
        }
        "min" | "max" if integer_signedness(symbol).is_some() => {
            let signed = integer_signedness(symbol) == Some(true);
            lower_integer_min_max(l, call, base == "min", signed, args)
        }
        _ => external_call(l, call, base, args),
    }
}

/// Whether the first parameter of an Itanium-mangled OpenCL built-in
/// (`_Z3minii`, `_Z3maxDv4_jS_`) is a signed (`Some(true)`) or unsigned
/// (`Some(false)`) integer, scalar or vector; `None` for anything else
/// (floats, unmangled names).
fn integer_signedness(symbol: &str) -> Option<bool> {
    let rest = symbol.strip_prefix("_Z")?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let len: usize = rest[..digits].parse().ok()?;
    let params = rest.get(digits + len..)?;
    // A vector parameter is `Dv<lanes>_<element>`.
    let element = match params.strip_prefix("Dv") {
        Some(v) => v.split_once('_')?.1,
        None => params,
    };
    match element.chars().next()? {
        'a' | 'c' | 's' | 'i' | 'l' | 'x' => Some(true),
        'h' | 't' | 'j' | 'm' | 'y' => Some(false),
        _ => None,
    }
}

/// OpenCL's integer `min`/`max`, lane by lane, as compare-and-select (the
/// signedness comes from the mangled name: KIR integers have none). A
/// scalar second argument applies to every lane (`min(int4, int)`).
unsafe fn lower_integer_min_max<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    is_min: bool,
    signed: bool,
    args: &[LLVMValueRef],
) -> Result<()> {
    if args.len() != 2 {
        return external_call(l, call, if is_min { "min" } else { "max" }, args);
    }
    let a = l.arg_lanes(args[0])?;
    let b = l.arg_lanes(args[1])?;
    if b.len() != a.len() && b.len() != 1 {
        return external_call(l, call, if is_min { "min" } else { "max" }, args);
    }
    let cc = match (is_min, signed) {
        (true, true) => IntCC::Slt,
        (true, false) => IntCC::Ult,
        (false, true) => IntCC::Sgt,
        (false, false) => IntCC::Ugt,
    };
    let mut values = Vec::with_capacity(a.len());
    for (i, &x) in a.iter().enumerate() {
        let y = if b.len() == 1 { b[0] } else { b[i] };
        let ty = l.type_of(x);
        let c = l.emit_inst(InstKind::Icmp { cc, lhs: x, rhs: y }, Some(Type::BOOL)).expect("result");
        values.push(l.emit_inst(InstKind::Select { cond: c, then_value: x, else_value: y }, Some(ty)).expect("result"));
    }
    if l.result_lanes(call)?.is_some() {
        l.define_lanes(call, values);
    } else {
        l.define(call, values[0]);
    }
    Ok(())
}

unsafe fn lower_prelude_intrinsic<L: CallLowering>(l: &mut L, call: LLVMValueRef, op: &str, args: &[LLVMValueRef]) -> Result<()> {
    let annot = |op: &str| -> Option<AnnotKind> {
        Some(match op {
            "assert" => AnnotKind::Assert,
            "assume" => AnnotKind::Assume,
            "requires" => AnnotKind::Requires,
            "ensures" => AnnotKind::Ensures,
            "invariant" => AnnotKind::Invariant,
            "global_invariant" => AnnotKind::GlobalInvariant,
            "function_wide_invariant" => AnnotKind::FunctionWideInvariant,
            "candidate_invariant" => AnnotKind::CandidateInvariant,
            "global_requires" => AnnotKind::GlobalRequires,
            "global_ensures" => AnnotKind::GlobalEnsures,
            "global_assert" => AnnotKind::GlobalAssert,
            "barrier_invariant" => AnnotKind::BarrierInvariant,
            "barrier_invariant_binary" => AnnotKind::BarrierInvariantBinary,
            "no_read" => AnnotKind::NoRead,
            "no_write" => AnnotKind::NoWrite,
            "fresh_array" => AnnotKind::FreshArray,
            "candidate_global_invariant" => AnnotKind::CandidateGlobalInvariant,
            "function_wide_candidate_invariant" => AnnotKind::FunctionWideCandidateInvariant,
            "axiom" => AnnotKind::Axiom,
            "writes_to" => AnnotKind::WritesTo,
            "reads_from" => AnnotKind::ReadsFrom,
            _ => return None,
        })
    };
    if let Some(kind) = annot(op) {
        let mut kargs = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let v = l.arg_scalar(a)?;
            // The condition of a boolean annotation is compared with zero.
            let is_condition = i == 0
                && !matches!(
                    kind,
                    AnnotKind::NoRead | AnnotKind::NoWrite | AnnotKind::FreshArray | AnnotKind::WritesTo | AnnotKind::ReadsFrom
                );
            kargs.push(if is_condition { l.coerce_to(v, Type::BOOL) } else { v });
        }
        l.emit_inst(InstKind::Annot { kind, args: kargs }, None);
        return Ok(());
    }
    let value_fn = match op {
        "read" => Some(AnnotFn::Read),
        "write" => Some(AnnotFn::Write),
        "read_offset" => Some(AnnotFn::ReadOffset),
        "write_offset" => Some(AnnotFn::WriteOffset),
        "other_int" => Some(AnnotFn::OtherInt),
        "other_bool" => Some(AnnotFn::OtherBool),
        "other_ptr" => Some(AnnotFn::OtherPtr),
        "uniform_int" => Some(AnnotFn::UniformInt),
        "uniform_bool" => Some(AnnotFn::UniformBool),
        "distinct_int" => Some(AnnotFn::DistinctInt),
        "distinct_bool" => Some(AnnotFn::DistinctBool),
        "enabled" => Some(AnnotFn::Enabled),
        "implies" => Some(AnnotFn::Implies),
        "ptr_base" => Some(AnnotFn::PtrBase),
        "ptr_offset" => Some(AnnotFn::PtrOffset),
        "same_group" => Some(AnnotFn::SameGroup),
        "atomic_has_taken_value" => Some(AnnotFn::AtomicHasTakenValue),
        _ if op.starts_with("return_val") => Some(AnnotFn::ReturnVal),
        _ if op.starts_with("old") => Some(AnnotFn::Old),
        _ => None,
    };
    if let Some(func) = value_fn {
        let bool_args = matches!(func, AnnotFn::Implies | AnnotFn::OtherBool | AnnotFn::UniformBool | AnnotFn::DistinctBool);
        let mut kargs = Vec::new();
        for &a in args {
            let v = l.arg_scalar(a)?;
            kargs.push(if bool_args { l.coerce_to(v, Type::BOOL) } else { v });
        }
        let Some(ty) = l.result_type(call)? else { return l.fail(format!("`__lockstep_{op}` without a result")) };
        // Boolean annotation functions return C++ `bool` (i1) or OpenCL `int`;
        // compute the boolean and widen it to what the caller expects.
        let boolean = matches!(
            func,
            AnnotFn::Read | AnnotFn::Write | AnnotFn::UniformInt | AnnotFn::UniformBool | AnnotFn::DistinctInt
                | AnnotFn::DistinctBool | AnnotFn::Enabled | AnnotFn::Implies | AnnotFn::SameGroup
                | AnnotFn::OtherBool | AnnotFn::AtomicHasTakenValue
        );
        let v = if boolean && ty != Type::BOOL {
            let b = l.emit_inst(InstKind::AnnotValue { func, args: kargs }, Some(Type::BOOL)).expect("result");
            l.emit_inst(InstKind::Cast { op: CastOp::Zext, arg: b }, Some(ty)).expect("result")
        } else {
            l.emit_inst(InstKind::AnnotValue { func, args: kargs }, Some(ty)).expect("result")
        };
        l.define(call, v);
        return Ok(());
    }
    if let Some(what) = op.strip_prefix("unmodelled_barrier_").and_then(crate::block_barrier::unmodelled) {
        return l.fail(what.to_string());
    }
    match op {
        "grid_sync" => {
            l.emit_inst(InstKind::Barrier { scope: BarrierScope::Grid, fence: BOTH_FENCES, mask: None }, None);
        }
        // The block-scope `cuda::barrier` (see `block_barrier`): the
        // arrival is the block barrier, its wait directly after it nothing.
        "block_barrier_arrive" => {
            let Some(&update) = args.first() else { return l.fail("`__lockstep_block_barrier_arrive` without its count".into()) };
            if let Some(why) = crate::block_barrier::arrival_unsupported(call, update) {
                return l.fail(why);
            }
            l.emit_inst(InstKind::Barrier { scope: BarrierScope::Group, fence: BOTH_FENCES, mask: None }, None);
        }
        "block_barrier_wait" => {
            if let Some(why) = crate::block_barrier::wait_unsupported(call) {
                return l.fail(why);
            }
        }
        "warp_sync" => warp_barrier(l, args.first().copied())?,
        "barrier" | "fence" => {
            let flags = args.first().and_then(|&a| const_arg(a));
            let fence = fence_from_flags(flags, 1, 2);
            let kind = if op == "barrier" {
                InstKind::Barrier { scope: BarrierScope::Group, fence, mask: None }
            } else {
                InstKind::Fence { fence }
            };
            l.emit_inst(kind, None);
        }
        "memcpy_async" => lower_memcpy_async(l, args)?,
        "wait_all_copies" => lower_wait_all_copies(l),
        "block_scoped_atomic" => l.expect_block_scoped_atomic(args[0])?,
        "atomic_inc" | "atomic_dec" => {
            let scope = l.atomic_scope(args[0])?;
            let ptr = l.arg_scalar(args[0])?;
            let value = l.arg_scalar(args[1])?;
            let ty = l.type_of(value);
            let aop = if op == "atomic_inc" { AtomicOp::UIncWrap } else { AtomicOp::UDecWrap };
            let v = l.emit_inst(InstKind::Atomic { op: aop, ptr, value, scope }, Some(ty)).expect("result");
            l.define(call, v);
        }
        "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" | "ballot" | "all" | "any" | "activemask" | "lane_id" | "match_any" => {
            let wop = match op {
                "shfl" => WarpOp::Shfl,
                "shfl_up" => WarpOp::ShflUp,
                "shfl_down" => WarpOp::ShflDown,
                "shfl_xor" => WarpOp::ShflXor,
                "ballot" => WarpOp::Ballot,
                "all" => WarpOp::All,
                "any" => WarpOp::Any,
                "activemask" => WarpOp::ActiveMask,
                "match_any" => WarpOp::MatchAny,
                _ => WarpOp::LaneId,
            };
            let mut kargs = Vec::new();
            for &a in args {
                kargs.push(l.arg_scalar(a)?);
            }
            crate::warp_masks::check_warp_op(l, wop, &kargs);
            let ty = l.result_type(call)?;
            if let Some(v) = l.emit_inst(InstKind::Warp { op: wop, args: kargs }, ty) {
                l.define(call, v);
            }
        }
        _ if op.starts_with("havoc") => {
            if let Some(ty) = l.result_type(call)? {
                let v = l.emit_inst(InstKind::Havoc, Some(ty)).expect("result");
                l.define(call, v);
            }
        }
        other => return l.fail(format!("the prelude intrinsic `__lockstep_{other}`, unknown to this version of the lowering")),
    }
    Ok(())
}

/// OpenCL work-item functions, barriers, fences and atomics. Returns false
/// when `base` is not one of them.
unsafe fn lower_opencl_builtin<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    symbol: &str,
    base: &str,
    args: &[LLVMValueRef],
) -> Result<bool> {
    let geometry = |var: BuiltinVar| Some(var);
    let var = match base {
        "get_local_id" => geometry(BuiltinVar::LocalId),
        "get_group_id" => geometry(BuiltinVar::GroupId),
        "get_local_size" | "get_enqueued_local_size" => geometry(BuiltinVar::LocalSize),
        "get_num_groups" => geometry(BuiltinVar::NumGroups),
        "get_global_offset" => geometry(BuiltinVar::GlobalOffset),
        _ => None,
    };
    let is_geometry = var.is_some() || matches!(base, "get_global_id" | "get_global_size");
    if is_geometry {
        let ret = l.result_type(call)?.unwrap_or(Type::I64);
        let Some(dim) = args.first().and_then(|&a| const_arg(a)) else {
            return l.fail(format!("`{base}` with a dimension that is not a constant"));
        };
        if dim > 2 {
            // OpenCL defines out-of-range dimensions: id 0, size 1.
            let v = l.int_const(ret, if base.ends_with("size") || base == "get_num_groups" { 1 } else { 0 });
            l.define(call, v);
            return Ok(true);
        }
        let dim = dim as u8;
        let builtin = |l: &mut L, var: BuiltinVar| -> ValueId {
            let v = l.emit_inst(InstKind::Builtin { var, dim }, Some(Type::I32)).expect("result");
            l.coerce_to(v, ret)
        };
        let v = match (var, base) {
            (Some(var), _) => builtin(l, var),
            (None, "get_global_size") => {
                let a = builtin(l, BuiltinVar::LocalSize);
                let b = builtin(l, BuiltinVar::NumGroups);
                l.emit_inst(InstKind::Binary { op: BinOp::Mul, lhs: a, rhs: b }, Some(ret)).expect("result")
            }
            _ => {
                // get_global_id = group_id * local_size + local_id + offset.
                let g = builtin(l, BuiltinVar::GroupId);
                let s = builtin(l, BuiltinVar::LocalSize);
                let t = builtin(l, BuiltinVar::LocalId);
                let o = builtin(l, BuiltinVar::GlobalOffset);
                let gs = l.emit_inst(InstKind::Binary { op: BinOp::Mul, lhs: g, rhs: s }, Some(ret)).expect("result");
                let gst = l.emit_inst(InstKind::Binary { op: BinOp::Add, lhs: gs, rhs: t }, Some(ret)).expect("result");
                l.emit_inst(InstKind::Binary { op: BinOp::Add, lhs: gst, rhs: o }, Some(ret)).expect("result")
            }
        };
        l.define(call, v);
        return Ok(true);
    }
    match base {
        "write_imagef" | "write_imagei" | "write_imageui" | "write_imageh" => {
            lower_image_write(l, base, args)?;
            return Ok(true);
        }
        "read_imagef" | "read_imagei" | "read_imageui" | "read_imageh" => {
            lower_image_read(l, call, base, args)?;
            return Ok(true);
        }
        "__translate_sampler_initializer" => {
            // A sampler is an opaque value only passed to `read_image*`:
            // its initialiser's bits stand for it.
            let Some(&arg) = args.first() else { return l.fail("a sampler initialiser without its value".into()) };
            let v = l.arg_scalar(arg)?;
            let v = l.coerce_to(v, SAMPLER_TYPE);
            l.define(call, v);
            return Ok(true);
        }
        "async_work_group_copy" | "async_work_group_strided_copy" => {
            lower_async_copy(l, call, symbol, base == "async_work_group_strided_copy", args)?;
            return Ok(true);
        }
        "wait_group_events" => {
            lower_wait_group_events(l, args)?;
            return Ok(true);
        }
        "barrier" | "work_group_barrier" => {
            let flags = args.first().and_then(|&a| const_arg(a));
            if let (None, Some(&arg)) = (flags, args.first()) {
                // Flags computed at run time (possibly different in each
                // work-item): the barrier fences nothing for the prover and
                // the finder (the weakest reading), and the interpreter
                // takes each work-item's flags from this call.
                let v = l.arg_scalar(arg)?;
                l.emit_inst(InstKind::CallExternal { name: BARRIER_FLAGS_INTRINSIC.into(), args: vec![v] }, None);
            }
            let fence = fence_from_flags(flags, 1, 2);
            l.emit_inst(InstKind::Barrier { scope: BarrierScope::Group, fence, mask: None }, None);
            return Ok(true);
        }
        "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
            let flags = args.first().and_then(|&a| const_arg(a));
            l.emit_inst(InstKind::Fence { fence: fence_from_flags(flags, 1, 2) }, None);
            return Ok(true);
        }
        _ => {}
    }
    let op = base.strip_prefix("atomic_").or_else(|| base.strip_prefix("atom_"));
    let Some(op) = op else { return Ok(false) };
    // The last mangled parameter type says whether min/max are unsigned
    // (`j` unsigned int, `m` unsigned long).
    let unsigned = symbol.ends_with('j') || symbol.ends_with('m');
    let aop = match op {
        "add" | "inc" => AtomicOp::Add,
        "sub" | "dec" => AtomicOp::Sub,
        "xchg" => AtomicOp::Xchg,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "min" if unsigned => AtomicOp::UMin,
        "max" if unsigned => AtomicOp::UMax,
        "min" => AtomicOp::Min,
        "max" => AtomicOp::Max,
        "cmpxchg" => {
            let ptr = l.arg_scalar(args[0])?;
            let expected = l.arg_scalar(args[1])?;
            let new = l.arg_scalar(args[2])?;
            let ty = l.type_of(new);
            let v = l.emit_inst(InstKind::CmpXchg { ptr, expected, new, scope: AtomicScope::Device }, Some(ty)).expect("result");
            l.define(call, v);
            return Ok(true);
        }
        _ => return Ok(false),
    };
    let ptr = l.arg_scalar(args[0])?;
    let Some(ty) = l.result_type(call)? else { return l.fail(format!("`{base}` without a result")) };
    let value = if op == "inc" || op == "dec" { l.int_const(ty, 1) } else { l.arg_scalar(args[1])? };
    let v = l.emit_inst(InstKind::Atomic { op: aop, ptr, value, scope: AtomicScope::Device }, Some(ty)).expect("result");
    l.define(call, v);
    Ok(true)
}

/// How an OpenCL image may be accessed: the last parameter of its type
/// `target("spirv.Image", void, Dim, Depth, Arrayed, MS, Sampled, Format,
/// Access)`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum ImageAccess {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// The KIR type of an OpenCL image value (`image2d_t` ...): a pointer to
/// the image's pixels, an object of global memory of its own like a buffer
/// argument (see `lower_image_write` for its layout).
pub(crate) const IMAGE_TYPE: Type = Type::Ptr(MemSpace::Global);
/// The KIR type of an OpenCL sampler value: the bits of its initialiser,
/// an opaque value that only `read_image*` takes.
pub(crate) const SAMPLER_TYPE: Type = Type::I32;
/// The bytes one pixel occupies in the model of an image's memory: a
/// vector of four 32-bit lanes, the widest pixel value `write_image*` takes.
const PIXEL_BYTES: u64 = 16;

/// Whether an LLVM type, printed, is an OpenCL image, and how it may be
/// accessed.
pub(crate) fn image_access_of_type_string(ty: &str) -> Option<ImageAccess> {
    let params = ty.strip_prefix("target(\"spirv.Image\"")?.strip_suffix(')')?;
    Some(match params.rsplit(',').next()?.trim() {
        "0" => ImageAccess::ReadOnly,
        "1" => ImageAccess::WriteOnly,
        _ => ImageAccess::ReadWrite,
    })
}

unsafe fn image_access(v: LLVMValueRef) -> Option<ImageAccess> {
    if LLVMGetTypeKind(LLVMTypeOf(v)) != llvm_sys::LLVMTypeKind::LLVMTargetExtTypeKind {
        return None;
    }
    let p = LLVMPrintTypeToString(LLVMTypeOf(v));
    let text = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
    LLVMDisposeMessage(p);
    image_access_of_type_string(&text)
}

/// `write_image{f,i,ui,h}(image, coord, color)`: a store of the colour's
/// lanes into the pixel at `coord`, so that two work-items writing one pixel
/// race and writes of different pixels do not.
///
/// The model of an image's memory needs no dimensions: the pixel at
/// integer coordinates (x[, y[, z]]) lies at byte `PIXEL_BYTES * m`, where
/// `m` interleaves the bits of the coordinates (a Morton code). Equal
/// coordinates always give the same bytes, which is what race freedom rests
/// on; different coordinates give disjoint bytes while each coordinate fits
/// in 30 bits (2D) or 20 bits (3D), far beyond the largest images devices
/// allow, and beyond that they can only collide, which may report a race
/// that is not there but never hides one. Small coordinates give small
/// offsets, so the interpreter's argument buffers hold the first pixels of
/// a launch. A coordinate's fourth lane (`int4` for 3D images and 2D image
/// arrays) is ignored, as OpenCL says; an array's layer is a coordinate
/// like the others.
unsafe fn lower_image_write<L: CallLowering>(l: &mut L, base: &str, args: &[LLVMValueRef]) -> Result<()> {
    let [image, coord, color] = args else {
        return l.fail(format!("`{base}` with {} arguments (a mipmap level?)", args.len()));
    };
    if image_access(*image) != Some(ImageAccess::WriteOnly) {
        return l.fail(format!("`{base}` on an image that is not `write_only`"));
    }
    let image = l.arg_scalar(*image)?;
    let coords = l.arg_lanes(*coord)?;
    let color = l.arg_lanes(*color)?;
    if coords.iter().any(|&c| !l.type_of(c).is_int()) || coords.is_empty() {
        return l.fail(format!("`{base}` with coordinates that are not integers"));
    }
    let used = &coords[..coords.len().min(3)];
    let mut index: Option<ValueId> = None;
    for (k, &c) in used.iter().enumerate() {
        let c = l.coerce_to(c, Type::I64);
        let spread = spread_bits(l, c, used.len());
        let placed = if k == 0 {
            spread
        } else {
            let amount = l.int_const(Type::I64, k as u128);
            l.emit_inst(InstKind::Binary { op: BinOp::Shl, lhs: spread, rhs: amount }, Some(Type::I64)).expect("result")
        };
        index = Some(match index {
            None => placed,
            Some(i) => l.emit_inst(InstKind::Binary { op: BinOp::Or, lhs: i, rhs: placed }, Some(Type::I64)).expect("result"),
        });
    }
    let index = index.expect("at least one coordinate");
    let pixel = l.int_const(Type::I64, PIXEL_BYTES as u128);
    let offset = l.emit_inst(InstKind::Binary { op: BinOp::Mul, lhs: index, rhs: pixel }, Some(Type::I64)).expect("result");
    // The colour's lanes (lane 0 in the lowest bits) as one integer, so
    // that a pixel write is one access: one race check per pair of writes
    // instead of one per pair of lanes, most of which would only show that
    // different lanes of a pixel are different bytes. (The finder's check
    // that two writes of one pixel store the same colour is then a
    // 128-bit comparison, which z3 finds slow when the colours are
    // uninterpreted floats written by different instructions.)
    let bits: u32 = color.iter().map(|&c| l.type_of(c).bits()).sum();
    if bits as u64 > 8 * PIXEL_BYTES || !bits.is_multiple_of(8) {
        return l.fail(format!("`{base}` with a colour of {bits} bits"));
    }
    let wide = Type::Int(bits as u16);
    let mut value: Option<ValueId> = None;
    let mut at = 0u32;
    for c in color {
        let ty = l.type_of(c);
        let int = Type::Int(ty.bits() as u16);
        let c = if ty == int { c } else { l.emit_inst(InstKind::Cast { op: CastOp::Bitcast, arg: c }, Some(int)).expect("result") };
        let c = l.coerce_to(c, wide);
        let c = if at == 0 {
            c
        } else {
            let amount = l.int_const(wide, at as u128);
            l.emit_inst(InstKind::Binary { op: BinOp::Shl, lhs: c, rhs: amount }, Some(wide)).expect("result")
        };
        value = Some(match value {
            None => c,
            Some(v) => l.emit_inst(InstKind::Binary { op: BinOp::Or, lhs: v, rhs: c }, Some(wide)).expect("result"),
        });
        at += ty.bits();
    }
    let value = value.expect("a colour has at least one lane");
    let image_ty = l.type_of(image);
    let ptr = l.emit_inst(InstKind::PtrAdd { base: image, offset }, Some(image_ty)).expect("result");
    l.emit_inst(InstKind::Store { ptr, value, align: 4 }, None);
    Ok(())
}

/// The shift-and-mask steps that spread the low bits of a 64-bit value out
/// to every second bit (`SPREAD2`, 32 bits) or every third bit (`SPREAD3`,
/// 21 bits): `v = (v | v << shift) & mask`, the first mask keeping the bits
/// that fit.
const SPREAD2: &[(u32, u64)] = &[
    (0, 0x0000_0000_ffff_ffff),
    (16, 0x0000_ffff_0000_ffff),
    (8, 0x00ff_00ff_00ff_00ff),
    (4, 0x0f0f_0f0f_0f0f_0f0f),
    (2, 0x3333_3333_3333_3333),
    (1, 0x5555_5555_5555_5555),
];
const SPREAD3: &[(u32, u64)] = &[
    (0, 0x0000_0000_001f_ffff),
    (32, 0x001f_0000_0000_ffff),
    (16, 0x001f_0000_ff00_00ff),
    (8, 0x100f_00f0_0f00_f00f),
    (4, 0x10c3_0c30_c30c_30c3),
    (2, 0x1249_2492_4924_9249),
];

/// The bits of `x` (an `Int(64)`) spread out to every `ways`-th bit, from
/// bit 0 up, for a Morton code (see `SPREAD2`).
fn spread_bits<L: CallLowering>(l: &mut L, x: ValueId, ways: usize) -> ValueId {
    let steps = match ways {
        1 => return x,
        2 => SPREAD2,
        _ => SPREAD3,
    };
    let mut v = x;
    for &(shift, mask) in steps {
        if shift > 0 {
            let amount = l.int_const(Type::I64, shift as u128);
            let shifted = l.emit_inst(InstKind::Binary { op: BinOp::Shl, lhs: v, rhs: amount }, Some(Type::I64)).expect("result");
            v = l.emit_inst(InstKind::Binary { op: BinOp::Or, lhs: v, rhs: shifted }, Some(Type::I64)).expect("result");
        }
        let m = l.int_const(Type::I64, mask as u128);
        v = l.emit_inst(InstKind::Binary { op: BinOp::And, lhs: v, rhs: m }, Some(Type::I64)).expect("result");
    }
    v
}

/// `read_image{f,i,ui,h}(image, [sampler,] coord)` of a `read_only` image:
/// an uninterpreted function per lane of the image (as an integer), the
/// sampler and the coordinates. No work-item can write a `read_only`
/// image, so its reads cannot race and are no memory accesses here; what
/// they return (filtered, converted pixels) is not modelled. Reads of
/// images the kernel may also write (OpenCL 2.0's `read_write`) would have
/// to be accesses, and are not supported.
unsafe fn lower_image_read<L: CallLowering>(l: &mut L, call: LLVMValueRef, base: &str, args: &[LLVMValueRef]) -> Result<()> {
    match args.first().map(|&a| image_access(a)) {
        Some(Some(ImageAccess::ReadOnly)) => {}
        Some(Some(_)) => return l.fail(format!("`{base}` on an image that is not `read_only`")),
        _ => return l.fail(format!("`{base}` without an image")),
    }
    external_call(l, call, base, args)
}

/// The size in bytes of the element type of the first pointer parameter of
/// an Itanium-mangled OpenCL builtin, e.g. `f` in
/// `_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event`.
fn first_pointee_size(symbol: &str) -> Option<u64> {
    let at = symbol.find("PU3AS")? + "PU3AS".len() + 1;
    let mut rest = symbol.get(at..)?.trim_start_matches(['K', 'V', 'r']);
    let mut lanes = 1;
    if let Some(vector) = rest.strip_prefix("Dv") {
        let digits = vector.bytes().take_while(u8::is_ascii_digit).count();
        lanes = vector[..digits].parse::<u64>().ok()?;
        rest = vector[digits..].strip_prefix('_')?;
    }
    let scalar = match rest.chars().next()? {
        'c' | 'a' | 'h' | 'b' => 1,
        's' | 't' | 'D' => 2,
        'i' | 'j' | 'f' => 4,
        'l' | 'm' | 'd' | 'x' | 'y' => 8,
        _ => return None,
    };
    // Three-element vectors occupy four elements (OpenCL's size rule).
    Some(scalar * if lanes == 3 { 4 } else { lanes })
}

/// The name of the external call that gives the flags of the next barrier
/// when they are not constant.
pub const BARRIER_FLAGS_INTRINSIC: &str = "__lockstep_barrier_flags";
/// The name of the external call that gives an async copy its event (see
/// `lower_async_copy`); the interpreter gives it its meaning.
pub const ASYNC_COPY_INTRINSIC: &str = "__lockstep_async_copy";
/// The name of the external call that waits for events (see
/// `lower_wait_group_events`).
pub const WAIT_EVENTS_INTRINSIC: &str = "__lockstep_wait_group_events";
/// Events a `wait_group_events` call passes to the interpreter at most; a
/// call with more (or with a count that is not a constant) waits for every
/// copy of the group.
const MAX_WAITED_EVENTS: u64 = 16;

/// A barrier that orders no memory: a point every work-item of the group
/// must reach together (the barrier-divergence check), which separates no
/// accesses. Async copies and waits are such group-wide calls.
fn group_collective<L: CallLowering>(l: &mut L) {
    let none = FenceFlags { shared: false, global: false };
    l.emit_inst(InstKind::Barrier { scope: BarrierScope::Group, fence: none, mask: None }, None);
}

/// `async_work_group_copy(dst, src, n, event)`: one group-wide copy of `n`
/// elements that completes only when a work-item waits for its event.
///
/// Lowered to, in order:
/// - a group collective (`group_collective`): every work-item must make the
///   call, the same number of times;
/// - `MemCopy` by the group's first work-item (zero bytes for the others):
///   the data movement, and the copy's accesses at the call as the finder
///   sees them (the prover keeps them in flight until the wait, see
///   `lockstep_prove`'s `async_copy`, which relies on this `MemCopy`
///   preceding the call in its block); the strided form copies the `n * stride`
///   elements the stride spans (an over-approximation of the bytes
///   touched);
/// - `CallExternal __lockstep_async_copy(dst as int, src as int, bytes,
///   event)` yielding the copy's event: the given event when it is not zero
///   (the copy joins it), else a new one. The interpreter checks that the
///   work-items pass the same arguments, and keeps the copy in flight (its
///   accesses racing with every access of other work-items) until a wait
///   for its event. Pointers travel as integers so that the prover sees no
///   external call with pointers (it models the copy by the `MemCopy`).
unsafe fn lower_async_copy<L: CallLowering>(
    l: &mut L,
    call: LLVMValueRef,
    symbol: &str,
    strided: bool,
    args: &[LLVMValueRef],
) -> Result<()> {
    let Some(elem) = first_pointee_size(symbol) else {
        return l.fail(format!("`{symbol}` with an element type lockstep cannot size"));
    };
    let dst = l.arg_scalar(args[0])?;
    let src = l.arg_scalar(args[1])?;
    let n = l.arg_scalar(args[2])?;
    let n = l.coerce_to(n, Type::I64);
    let mut len = {
        let k = l.int_const(Type::I64, elem as u128);
        l.emit_inst(InstKind::Binary { op: BinOp::Mul, lhs: n, rhs: k }, Some(Type::I64)).expect("result")
    };
    if strided {
        let stride = l.arg_scalar(args[3])?;
        let stride = l.coerce_to(stride, Type::I64);
        len = l.emit_inst(InstKind::Binary { op: BinOp::Mul, lhs: len, rhs: stride }, Some(Type::I64)).expect("result");
    }
    let event_in = match args.get(if strided { 4 } else { 3 }) {
        Some(&e) => {
            let e = l.arg_scalar(e)?;
            l.coerce_to(e, Type::I64)
        }
        None => l.int_const(Type::I64, 0),
    };
    let event = emit_async_copy(l, dst, src, len, event_in);
    if let Some(ty) = l.result_type(call)? {
        let v = l.coerce_to(event, ty);
        l.define(call, v);
    }
    Ok(())
}

/// The group-wide asynchronous copy of `len` bytes (see `lower_async_copy`
/// for what it is made of); yields its event.
fn emit_async_copy<L: CallLowering>(l: &mut L, dst: ValueId, src: ValueId, len: ValueId, event_in: ValueId) -> ValueId {
    group_collective(l);
    let zero32 = l.int_const(Type::I32, 0);
    let mut first = None;
    for dim in 0..3 {
        let id = l.emit_inst(InstKind::Builtin { var: BuiltinVar::LocalId, dim }, Some(Type::I32)).expect("result");
        let is_zero = l.emit_inst(InstKind::Icmp { cc: IntCC::Eq, lhs: id, rhs: zero32 }, Some(Type::BOOL)).expect("result");
        first = Some(match first {
            None => is_zero,
            Some(acc) => {
                l.emit_inst(InstKind::Binary { op: BinOp::And, lhs: acc, rhs: is_zero }, Some(Type::BOOL)).expect("result")
            }
        });
    }
    let zero64 = l.int_const(Type::I64, 0);
    let cond = first.expect("three dimensions");
    let first_len = l
        .emit_inst(InstKind::Select { cond, then_value: len, else_value: zero64 }, Some(Type::I64))
        .expect("result");
    l.emit_inst(InstKind::MemCopy { dst, src, len: first_len }, None);
    let dst_bits = l.emit_inst(InstKind::Cast { op: CastOp::PtrToInt, arg: dst }, Some(Type::I64)).expect("result");
    let src_bits = l.emit_inst(InstKind::Cast { op: CastOp::PtrToInt, arg: src }, Some(Type::I64)).expect("result");
    l.emit_inst(
        InstKind::CallExternal { name: ASYNC_COPY_INTRINSIC.into(), args: vec![dst_bits, src_bits, len, event_in] },
        Some(Type::I64),
    )
    .expect("result")
}

/// CUDA's `cooperative_groups::memcpy_async(block, dst, src, bytes)` (the
/// prelude's `<cooperative_groups/memcpy_async.h>` calls
/// `__lockstep_memcpy_async(dst, src, bytes)`): the group-wide asynchronous
/// copy of OpenCL's `async_work_group_copy`, with a new event, since CUDA's
/// waits name no copy.
unsafe fn lower_memcpy_async<L: CallLowering>(l: &mut L, args: &[LLVMValueRef]) -> Result<()> {
    let (Some(&dst), Some(&src), Some(&bytes)) = (args.first(), args.get(1), args.get(2)) else {
        return l.fail("`memcpy_async` without its three arguments".into());
    };
    let (dst, src) = (l.arg_scalar(dst)?, l.arg_scalar(src)?);
    let len = l.arg_scalar(bytes)?;
    let len = l.coerce_to(len, Type::I64);
    let no_event = l.int_const(Type::I64, 0);
    emit_async_copy(l, dst, src, len, no_event);
    Ok(())
}

/// CUDA's `cooperative_groups::wait(block)` (the prelude calls
/// `__lockstep_wait_all_copies()`): a wait for every copy of the group
/// (`__lockstep_wait_group_events` with a count of all ones and no events,
/// which the interpreter and the prover read as "every copy"), then the
/// group's barrier, which `cg::wait` includes.
fn lower_wait_all_copies<L: CallLowering>(l: &mut L) {
    group_collective(l);
    let every_copy = l.int_const(Type::I64, u128::from(u64::MAX));
    l.emit_inst(InstKind::CallExternal { name: WAIT_EVENTS_INTRINSIC.into(), args: vec![every_copy] }, None);
    l.emit_inst(InstKind::Barrier { scope: BarrierScope::Group, fence: BOTH_FENCES, mask: None }, None);
}

/// `wait_group_events(n, events)`: a group collective (every work-item
/// waits, the same number of times), then `CallExternal
/// __lockstep_wait_group_events(n, events[0], ..., events[n-1])` with the
/// events loaded here, so that the interpreter can check they are the same
/// in every work-item and complete exactly those copies. The wait is not a
/// barrier: a work-item reading what another work-item's share of a copy
/// wrote still needs one (GPUVerify's semantics). A count that is not a
/// small constant passes no events: the interpreter then completes every
/// copy of the group, which can only hide races.
unsafe fn lower_wait_group_events<L: CallLowering>(l: &mut L, args: &[LLVMValueRef]) -> Result<()> {
    let (Some(&n_arg), Some(&events_arg)) = (args.first(), args.get(1)) else {
        return l.fail("`wait_group_events` without its two arguments".into());
    };
    let n = l.arg_scalar(n_arg)?;
    let n = l.coerce_to(n, Type::I64);
    let events = l.arg_scalar(events_arg)?;
    group_collective(l);
    let mut call_args = vec![n];
    if let Some(count) = const_arg(n_arg).filter(|&c| c as u64 <= MAX_WAITED_EVENTS) {
        for i in 0..count as u64 {
            let offset = l.int_const(Type::I64, (8 * i) as u128);
            let ty = l.type_of(events);
            let at = l.emit_inst(InstKind::PtrAdd { base: events, offset }, Some(ty)).expect("result");
            let e = l.emit_inst(InstKind::Load { ptr: at, align: 8 }, Some(Type::I64)).expect("result");
            call_args.push(e);
        }
    }
    l.emit_inst(InstKind::CallExternal { name: WAIT_EVENTS_INTRINSIC.into(), args: call_args }, None);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{first_pointee_size, image_access_of_type_string, integer_signedness, ImageAccess, SPREAD2, SPREAD3};

    #[test]
    fn integer_signedness_from_mangled_opencl_names() {
        assert_eq!(integer_signedness("_Z3minii"), Some(true));
        assert_eq!(integer_signedness("_Z3maxjj"), Some(false));
        assert_eq!(integer_signedness("_Z3minDv4_iS_"), Some(true));
        assert_eq!(integer_signedness("_Z3maxDv2_mS_"), Some(false));
        assert_eq!(integer_signedness("_Z3minff"), None);
        assert_eq!(integer_signedness("_Z3minDv4_fS_"), None);
        assert_eq!(integer_signedness("min"), None);
    }

    #[test]
    fn element_sizes_from_mangled_opencl_names() {
        assert_eq!(first_pointee_size("_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event"), Some(4));
        assert_eq!(first_pointee_size("_Z21async_work_group_copyPU3AS1cPU3AS3Kcm9ocl_event"), Some(1));
        assert_eq!(first_pointee_size("_Z21async_work_group_copyPU3AS3Dv4_fPU3AS1KS_m9ocl_event"), Some(16));
        assert_eq!(first_pointee_size("_Z21async_work_group_copyPU3AS3Dv3_iPU3AS1KS_m9ocl_event"), Some(16));
        assert_eq!(first_pointee_size("_Z3fooi"), None);
    }

    #[test]
    fn image_access_from_the_type() {
        let ty = |access: &str| format!("target(\"spirv.Image\", void, 1, 0, 0, 0, 0, 0, {access})");
        assert_eq!(image_access_of_type_string(&ty("0")), Some(ImageAccess::ReadOnly));
        assert_eq!(image_access_of_type_string(&ty("1")), Some(ImageAccess::WriteOnly));
        assert_eq!(image_access_of_type_string(&ty("2")), Some(ImageAccess::ReadWrite));
        assert_eq!(image_access_of_type_string("target(\"spirv.Sampler\")"), None);
        assert_eq!(image_access_of_type_string("target(\"spirv.Event\")"), None);
    }

    /// The Morton steps agree with interleaving bit by bit.
    #[test]
    fn spread_steps_interleave_bits() {
        let apply = |steps: &[(u32, u64)], x: u64| {
            steps.iter().fold(x, |v, &(shift, mask)| (v | if shift > 0 { v << shift } else { 0 }) & mask)
        };
        let naive = |x: u64, ways: u32, fits: u32| (0..fits).fold(0u64, |acc, i| acc | ((x >> i) & 1) << (i * ways));
        let samples = [0u64, 1, 2, 3, 0x5a5a_5a5a, 0xffff_ffff, 0x1f_ffff, 0x12_3456, 0xdead_beef_cafe_f00d, u64::MAX];
        for &x in &samples {
            assert_eq!(apply(SPREAD2, x), naive(x, 2, 32), "{x:#x}");
            assert_eq!(apply(SPREAD3, x), naive(x, 3, 21), "{x:#x}");
        }
    }
}
