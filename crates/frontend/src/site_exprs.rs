//! The integer values of a launch site as expressions of the host code:
//! the scalar arguments passed to the kernel, the grid and block sizes, and
//! the conditions that hold whenever the launch runs (an `assert` or an
//! early return before it).
//!
//! A kernel checked alone is otherwise checked for every argument value,
//! and the engines then report races and out-of-bounds accesses for values
//! no launch passes: a pitch smaller than the row it strides over, a width
//! that makes `y * width + x` wrap, a constant the wrapper fixes. Read here
//! as expressions over the values the site does not compute (the enclosing
//! function's parameters, loads, calls' results), they say how arguments
//! relate to each other, to constants and to the launch sizes; see
//! `launch_preconditions` for how they restrict the kernel.
//!
//! Only operations whose meaning is the same on both sides are followed
//! (integer arithmetic, comparisons, casts, selects); any other value is
//! `Opaque`, identified so that two uses of one host value are known to be
//! equal.

use std::collections::HashMap;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use lockstep_kir::{BinOp, CastOp, IntCC};

use crate::lower::int_cc;

/// How deep an expression is followed before the rest is `Opaque`.
const MAX_DEPTH: u32 = 12;

/// An integer expression of the host code at a launch site.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SiteExpr {
    Const {
        width: u32,
        bits: u128,
    },
    /// A value the site does not compute; one id is one host value.
    Opaque {
        width: u32,
        id: u32,
    },
    Binary {
        op: BinOp,
        lhs: Box<SiteExpr>,
        rhs: Box<SiteExpr>,
    },
    /// A comparison, of width 1.
    Icmp {
        cc: IntCC,
        lhs: Box<SiteExpr>,
        rhs: Box<SiteExpr>,
    },
    /// `Zext`, `Sext` or `Trunc` to `width` bits.
    Cast {
        op: CastOp,
        width: u32,
        arg: Box<SiteExpr>,
    },
    Select {
        cond: Box<SiteExpr>,
        then_value: Box<SiteExpr>,
        else_value: Box<SiteExpr>,
    },
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

fn sign_extend(bits: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((bits << shift) as i128) >> shift
}

impl SiteExpr {
    pub fn width(&self) -> u32 {
        match self {
            SiteExpr::Const { width, .. }
            | SiteExpr::Opaque { width, .. }
            | SiteExpr::Cast { width, .. } => *width,
            SiteExpr::Binary { lhs, .. } => lhs.width(),
            SiteExpr::Icmp { .. } => 1,
            SiteExpr::Select { then_value, .. } => then_value.width(),
        }
    }

    pub fn as_const(&self) -> Option<u128> {
        match self {
            SiteExpr::Const { bits, .. } => Some(*bits),
            _ => None,
        }
    }

    /// Every opaque value the expression uses.
    pub fn opaques(&self, out: &mut Vec<u32>) {
        match self {
            SiteExpr::Const { .. } => {}
            SiteExpr::Opaque { id, .. } => out.push(*id),
            SiteExpr::Binary { lhs, rhs, .. } | SiteExpr::Icmp { lhs, rhs, .. } => {
                lhs.opaques(out);
                rhs.opaques(out);
            }
            SiteExpr::Cast { arg, .. } => arg.opaques(out),
            SiteExpr::Select {
                cond,
                then_value,
                else_value,
            } => {
                cond.opaques(out);
                then_value.opaques(out);
                else_value.opaques(out);
            }
        }
    }

    /// The bits of the expression's value known whatever its opaque values
    /// are, as `(known, bits)`: `iw & ~3` has its two low bits known to be 0.
    pub fn known_bits(&self) -> (u128, u128) {
        let w = mask(self.width());
        let (known, bits) = match self {
            SiteExpr::Const { bits, .. } => (w, *bits),
            SiteExpr::Binary {
                op: BinOp::And,
                lhs,
                rhs,
            } => {
                let ((ka, a), (kb, b)) = (lhs.known_bits(), rhs.known_bits());
                let zeros = (ka & !a) | (kb & !b);
                ((ka & kb) | zeros, a & b)
            }
            SiteExpr::Binary {
                op: BinOp::Or,
                lhs,
                rhs,
            } => {
                let ((ka, a), (kb, b)) = (lhs.known_bits(), rhs.known_bits());
                let ones = (ka & a) | (kb & b);
                ((ka & kb) | ones, a | b)
            }
            SiteExpr::Binary {
                op: BinOp::Shl,
                lhs,
                rhs,
            } => match rhs.as_const() {
                Some(n) if n < u128::from(self.width()) => {
                    let (k, a) = lhs.known_bits();
                    ((k << n) | mask(n as u32), a << n)
                }
                _ => (0, 0),
            },
            // A multiple of 2^k has its k low bits zero.
            SiteExpr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => {
                let low = |e: &SiteExpr| {
                    e.as_const()
                        .map_or(0, |c| if c == 0 { 0 } else { c.trailing_zeros() })
                };
                let zeros = low(lhs).max(low(rhs)).min(self.width());
                (mask(zeros), 0)
            }
            SiteExpr::Cast {
                op: CastOp::Zext,
                arg,
                ..
            } => {
                let (k, a) = arg.known_bits();
                (k | !mask(arg.width()), a)
            }
            _ => (0, 0),
        };
        (known & w, bits & known & w)
    }

    /// Folds operations on constants.
    fn folded(self) -> SiteExpr {
        match &self {
            SiteExpr::Binary { op, lhs, rhs } => {
                let (Some(a), Some(b)) = (lhs.as_const(), rhs.as_const()) else {
                    return self;
                };
                let width = lhs.width();
                let (sa, sb) = (sign_extend(a, width), sign_extend(b, width));
                let value = match op {
                    BinOp::Add => Some(a.wrapping_add(b)),
                    BinOp::Sub => Some(a.wrapping_sub(b)),
                    BinOp::Mul => Some(a.wrapping_mul(b)),
                    BinOp::UDiv => a.checked_div(b),
                    BinOp::URem => a.checked_rem(b),
                    BinOp::SDiv => sa.checked_div(sb).map(|v| v as u128),
                    BinOp::SRem => sa.checked_rem(sb).map(|v| v as u128),
                    BinOp::Shl => (b < u128::from(width)).then(|| a << b),
                    BinOp::LShr => (b < u128::from(width)).then(|| a >> b),
                    BinOp::AShr => (b < u128::from(width)).then(|| (sa >> b) as u128),
                    BinOp::And => Some(a & b),
                    BinOp::Or => Some(a | b),
                    BinOp::Xor => Some(a ^ b),
                };
                match value {
                    Some(v) => SiteExpr::Const {
                        width,
                        bits: v & mask(width),
                    },
                    None => self,
                }
            }
            SiteExpr::Icmp { cc, lhs, rhs } => {
                let (Some(a), Some(b)) = (lhs.as_const(), rhs.as_const()) else {
                    return self;
                };
                let width = lhs.width();
                let (sa, sb) = (sign_extend(a, width), sign_extend(b, width));
                let holds = match cc {
                    IntCC::Eq => a == b,
                    IntCC::Ne => a != b,
                    IntCC::Ult => a < b,
                    IntCC::Ule => a <= b,
                    IntCC::Ugt => a > b,
                    IntCC::Uge => a >= b,
                    IntCC::Slt => sa < sb,
                    IntCC::Sle => sa <= sb,
                    IntCC::Sgt => sa > sb,
                    IntCC::Sge => sa >= sb,
                };
                SiteExpr::Const {
                    width: 1,
                    bits: u128::from(holds),
                }
            }
            SiteExpr::Cast { op, width, arg } => {
                let Some(a) = arg.as_const() else { return self };
                let bits = match op {
                    CastOp::Sext => sign_extend(a, arg.width()) as u128,
                    _ => a,
                };
                SiteExpr::Const {
                    width: *width,
                    bits: bits & mask(*width),
                }
            }
            SiteExpr::Select {
                cond,
                then_value,
                else_value,
            } => match cond.as_const() {
                Some(1) => (**then_value).clone(),
                Some(_) => (**else_value).clone(),
                None => self,
            },
            _ => self,
        }
    }
}

/// Reads the expressions of one host module; opaque ids are unique in it.
#[derive(Default)]
pub struct ExprReader {
    ids: HashMap<usize, u32>,
}

fn int_width(ty: LLVMTypeRef) -> Option<u32> {
    unsafe {
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMIntegerTypeKind {
            return None;
        }
        let w = LLVMGetIntTypeWidth(ty);
        (w <= 64).then_some(w)
    }
}

impl ExprReader {
    fn opaque(&mut self, v: LLVMValueRef, width: u32) -> SiteExpr {
        let next = self.ids.len() as u32;
        let id = *self.ids.entry(v as usize).or_insert(next);
        SiteExpr::Opaque { width, id }
    }

    /// The expression of an integer value (`None` for other types).
    ///
    /// # Safety
    /// `v` must be a valid LLVM value.
    pub unsafe fn expr(&mut self, v: LLVMValueRef) -> Option<SiteExpr> {
        self.expr_at(v, 0)
    }

    unsafe fn expr_at(&mut self, v: LLVMValueRef, depth: u32) -> Option<SiteExpr> {
        use LLVMOpcode::*;
        let width = int_width(LLVMTypeOf(v))?;
        if !LLVMIsAConstantInt(v).is_null() {
            return Some(SiteExpr::Const {
                width,
                bits: u128::from(LLVMConstIntGetZExtValue(v)) & mask(width),
            });
        }
        if LLVMIsAInstruction(v).is_null() || depth >= MAX_DEPTH {
            return Some(self.opaque(v, width));
        }
        let op = LLVMGetInstructionOpcode(v);
        let operand = |this: &mut Self, i: u32| this.expr_at(LLVMGetOperand(v, i), depth + 1);
        let binary = match op {
            LLVMAdd => Some(BinOp::Add),
            LLVMSub => Some(BinOp::Sub),
            LLVMMul => Some(BinOp::Mul),
            LLVMUDiv => Some(BinOp::UDiv),
            LLVMSDiv => Some(BinOp::SDiv),
            LLVMURem => Some(BinOp::URem),
            LLVMSRem => Some(BinOp::SRem),
            LLVMShl => Some(BinOp::Shl),
            LLVMLShr => Some(BinOp::LShr),
            LLVMAShr => Some(BinOp::AShr),
            LLVMAnd => Some(BinOp::And),
            LLVMOr => Some(BinOp::Or),
            LLVMXor => Some(BinOp::Xor),
            _ => None,
        };
        let e = if let Some(op) = binary {
            let lhs = operand(self, 0)?;
            let rhs = operand(self, 1)?;
            SiteExpr::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            }
        } else {
            match op {
                LLVMICmp => {
                    let lhs = LLVMGetOperand(v, 0);
                    // Pointer comparisons are not followed.
                    if int_width(LLVMTypeOf(lhs)).is_none() {
                        return Some(self.opaque(v, width));
                    }
                    let cc = int_cc(LLVMGetICmpPredicate(v));
                    let lhs = operand(self, 0)?;
                    let rhs = operand(self, 1)?;
                    SiteExpr::Icmp {
                        cc,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    }
                }
                LLVMZExt | LLVMSExt | LLVMTrunc => {
                    let Some(arg) = operand(self, 0) else {
                        return Some(self.opaque(v, width));
                    };
                    let op = match op {
                        LLVMZExt => CastOp::Zext,
                        LLVMSExt => CastOp::Sext,
                        _ => CastOp::Trunc,
                    };
                    SiteExpr::Cast {
                        op,
                        width,
                        arg: Box::new(arg),
                    }
                }
                LLVMPHI => match self.short_circuit(v, depth) {
                    Some(e) => e,
                    None => return Some(self.opaque(v, width)),
                },
                LLVMSelect => {
                    let (Some(cond), Some(then_value), Some(else_value)) =
                        (operand(self, 0), operand(self, 1), operand(self, 2))
                    else {
                        return Some(self.opaque(v, width));
                    };
                    SiteExpr::Select {
                        cond: Box::new(cond),
                        then_value: Box::new(then_value),
                        else_value: Box::new(else_value),
                    }
                }
                _ => return Some(self.opaque(v, width)),
            }
        };
        Some(e.folded())
    }

    /// `a && b` or `a || b` as clang compiles them: `phi i1 [false, %P],
    /// [%b, %Q]` where `P` ends in `br %a, %Q, %here` and `Q` comes only
    /// from `P` (with `true` and the successors swapped for `||`).
    unsafe fn short_circuit(&mut self, phi: LLVMValueRef, depth: u32) -> Option<SiteExpr> {
        if LLVMCountIncoming(phi) != 2 || int_width(LLVMTypeOf(phi)) != Some(1) {
            return None;
        }
        let here = LLVMGetInstructionParent(phi);
        for (k, other) in [(0, 1), (1, 0)] {
            let (constant, from) = (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k));
            let (value, via) = (
                LLVMGetIncomingValue(phi, other),
                LLVMGetIncomingBlock(phi, other),
            );
            if LLVMIsAConstantInt(constant).is_null() {
                continue;
            }
            let is_or = LLVMConstIntGetZExtValue(constant) == 1;
            let term = LLVMGetBasicBlockTerminator(from);
            if term.is_null() || LLVMIsABranchInst(term).is_null() || LLVMIsConditional(term) == 0 {
                continue;
            }
            let (on_true, on_false) = (LLVMGetSuccessor(term, 0), LLVMGetSuccessor(term, 1));
            let shape = if is_or {
                on_true == here && on_false == via
            } else {
                on_true == via && on_false == here
            };
            let via_term = LLVMGetBasicBlockTerminator(via);
            let via_only_from = !via_term.is_null()
                && LLVMIsConditional(via_term) == 0
                && LLVMGetSuccessor(via_term, 0) == here
                && predecessors(via) == [from];
            if !shape || !via_only_from {
                continue;
            }
            let a = self.expr_at(LLVMGetCondition(term), depth + 1)?;
            let b = self.expr_at(value, depth + 1)?;
            let op = if is_or { BinOp::Or } else { BinOp::And };
            return Some(SiteExpr::Binary {
                op,
                lhs: Box::new(a),
                rhs: Box::new(b),
            });
        }
        None
    }

    /// The 32 bits at `shift` of `v`, as an expression: a `dim3` field
    /// packed by the host ABI into an `i64` (`x | y << 32`) or passed as
    /// an `i32` (z). Packing chains (`zext`, `shl`, `or`, `and` with a mask)
    /// are seen through, so that the field of a `dim3` built from host
    /// values is the expression of that value.
    ///
    /// # Safety
    /// `v` must be a valid LLVM value.
    pub unsafe fn field(&mut self, v: LLVMValueRef, shift: u32) -> Option<SiteExpr> {
        self.field_at(v, shift, 0)
    }

    unsafe fn field_at(&mut self, v: LLVMValueRef, shift: u32, depth: u32) -> Option<SiteExpr> {
        use LLVMOpcode::*;
        let width = int_width(LLVMTypeOf(v))?;
        if shift + 32 > width {
            return None;
        }
        if shift == 0 && width == 32 {
            return self.expr(v);
        }
        let generic = |this: &mut Self| -> Option<SiteExpr> {
            let whole = this.expr(v)?;
            let shifted = if shift == 0 {
                whole
            } else {
                SiteExpr::Binary {
                    op: BinOp::LShr,
                    lhs: Box::new(whole),
                    rhs: Box::new(SiteExpr::Const {
                        width,
                        bits: u128::from(shift),
                    }),
                }
                .folded()
            };
            Some(
                SiteExpr::Cast {
                    op: CastOp::Trunc,
                    width: 32,
                    arg: Box::new(shifted),
                }
                .folded(),
            )
        };
        if LLVMIsAInstruction(v).is_null() || depth >= MAX_DEPTH {
            return generic(self);
        }
        let field_bits = mask(32) << shift;
        match LLVMGetInstructionOpcode(v) {
            LLVMOr => {
                let (a, b) = (LLVMGetOperand(v, 0), LLVMGetOperand(v, 1));
                let zero_in_field = |this: &mut Self, x: LLVMValueRef| {
                    this.expr(x).is_some_and(|e| {
                        let (known, bits) = e.known_bits();
                        known & field_bits == field_bits && bits & field_bits == 0
                    })
                };
                if zero_in_field(self, a) {
                    self.field_at(b, shift, depth + 1)
                } else if zero_in_field(self, b) {
                    self.field_at(a, shift, depth + 1)
                } else {
                    generic(self)
                }
            }
            LLVMShl => {
                let by = self.expr(LLVMGetOperand(v, 1)).and_then(|e| e.as_const());
                match by {
                    Some(n) if n as u32 <= shift => {
                        self.field_at(LLVMGetOperand(v, 0), shift - n as u32, depth + 1)
                    }
                    Some(n) if n < u128::from(width) && shift + 32 <= n as u32 => {
                        Some(SiteExpr::Const { width: 32, bits: 0 })
                    }
                    _ => generic(self),
                }
            }
            LLVMAnd => {
                let m = self.expr(LLVMGetOperand(v, 1)).and_then(|e| e.as_const());
                match m {
                    Some(m) if m & field_bits == field_bits => {
                        self.field_at(LLVMGetOperand(v, 0), shift, depth + 1)
                    }
                    Some(m) if m & field_bits == 0 => Some(SiteExpr::Const { width: 32, bits: 0 }),
                    _ => generic(self),
                }
            }
            LLVMZExt => {
                let src = LLVMGetOperand(v, 0);
                let from = int_width(LLVMTypeOf(src))?;
                if shift + 32 <= from {
                    self.field_at(src, shift, depth + 1)
                } else if shift >= from {
                    Some(SiteExpr::Const { width: 32, bits: 0 })
                } else if shift == 0 && from < 32 {
                    let arg = self.expr(src)?;
                    Some(
                        SiteExpr::Cast {
                            op: CastOp::Zext,
                            width: 32,
                            arg: Box::new(arg),
                        }
                        .folded(),
                    )
                } else {
                    generic(self)
                }
            }
            _ => generic(self),
        }
    }
}

/// The blocks of `block`'s function that branch to it.
unsafe fn predecessors(block: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    let mut out = Vec::new();
    let mut bb = LLVMGetFirstBasicBlock(LLVMGetBasicBlockParent(block));
    while !bb.is_null() {
        let term = LLVMGetBasicBlockTerminator(bb);
        if !term.is_null()
            && (0..LLVMGetNumSuccessors(term)).any(|i| LLVMGetSuccessor(term, i) == block)
        {
            out.push(bb);
        }
        bb = LLVMGetNextBasicBlock(bb);
    }
    out
}

/// The conditions that hold whenever `block` runs, read from the branches
/// that lead to it along its chain of single predecessors within its
/// function: the `assert(c)` or `if (!c) return;` before a launch. A block
/// with several predecessors ends the chain (what holds on every way into
/// it is not worked out).
///
/// # Safety
/// `block` must be a valid basic block with a parent function.
pub unsafe fn conditions_before(
    reader: &mut ExprReader,
    block: LLVMBasicBlockRef,
) -> Vec<SiteExpr> {
    let func = LLVMGetBasicBlockParent(block);
    // The predecessors of every block reachable from the entry. Blocks
    // that are not (the `br` clang leaves after a call of a `noreturn`
    // function such as `__assert_fail` or `exit`) are no way in.
    let mut preds: HashMap<usize, Vec<LLVMBasicBlockRef>> = HashMap::new();
    let mut reached = std::collections::HashSet::new();
    let mut work = vec![LLVMGetEntryBasicBlock(func)];
    while let Some(bb) = work.pop() {
        if !reached.insert(bb as usize) {
            continue;
        }
        let term = LLVMGetBasicBlockTerminator(bb);
        if term.is_null() {
            continue;
        }
        for i in 0..LLVMGetNumSuccessors(term) {
            let s = LLVMGetSuccessor(term, i);
            let list = preds.entry(s as usize).or_default();
            if !list.contains(&bb) {
                list.push(bb);
            }
            work.push(s);
        }
    }
    let mut out = Vec::new();
    let mut at = block;
    let mut seen = vec![block];
    while let Some([pred]) = preds.get(&(at as usize)).map(Vec::as_slice) {
        let pred = *pred;
        if seen.contains(&pred) || seen.len() > 64 {
            break;
        }
        seen.push(pred);
        let term = LLVMGetBasicBlockTerminator(pred);
        if !LLVMIsABranchInst(term).is_null() && LLVMIsConditional(term) != 0 {
            let (on_true, on_false) = (LLVMGetSuccessor(term, 0), LLVMGetSuccessor(term, 1));
            if on_true != on_false {
                if let Some(c) = reader.expr(LLVMGetCondition(term)) {
                    out.push(if on_true == at {
                        c
                    } else {
                        SiteExpr::Binary {
                            op: BinOp::Xor,
                            lhs: Box::new(c),
                            rhs: Box::new(SiteExpr::Const { width: 1, bits: 1 }),
                        }
                        .folded()
                    });
                }
            }
        }
        at = pred;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opaque() -> Box<SiteExpr> {
        Box::new(SiteExpr::Opaque { width: 32, id: 0 })
    }

    fn c(bits: u128) -> Box<SiteExpr> {
        Box::new(SiteExpr::Const { width: 32, bits })
    }

    #[test]
    fn known_bits_follow_masks_multiples_and_extensions() {
        let masked = SiteExpr::Binary {
            op: BinOp::And,
            lhs: opaque(),
            rhs: c(0xffff_fffc),
        };
        assert_eq!(masked.known_bits(), (0b11, 0));
        let times8 = SiteExpr::Binary {
            op: BinOp::Mul,
            lhs: c(8),
            rhs: opaque(),
        };
        assert_eq!(times8.known_bits(), (0b111, 0));
        let ored = SiteExpr::Binary {
            op: BinOp::Or,
            lhs: Box::new(times8),
            rhs: c(1),
        };
        assert_eq!(ored.known_bits(), (0b111, 0b001));
        let wide = SiteExpr::Cast {
            op: CastOp::Zext,
            width: 64,
            arg: opaque(),
        };
        assert_eq!(wide.known_bits(), (0xffff_ffff_0000_0000, 0));
    }

    #[test]
    fn constants_fold_with_their_types_signedness() {
        let minus_one = SiteExpr::Const {
            width: 32,
            bits: 0xffff_ffff,
        };
        let div = SiteExpr::Binary {
            op: BinOp::SDiv,
            lhs: Box::new(minus_one.clone()),
            rhs: c(1),
        }
        .folded();
        assert_eq!(div.as_const(), Some(0xffff_ffff));
        let less = SiteExpr::Icmp {
            cc: IntCC::Slt,
            lhs: Box::new(minus_one.clone()),
            rhs: c(0),
        }
        .folded();
        assert_eq!(less.as_const(), Some(1));
        let unsigned_less = SiteExpr::Icmp {
            cc: IntCC::Ult,
            lhs: Box::new(minus_one),
            rhs: c(0),
        }
        .folded();
        assert_eq!(unsigned_less.as_const(), Some(0));
        let by_zero = SiteExpr::Binary {
            op: BinOp::UDiv,
            lhs: c(4),
            rhs: c(0),
        }
        .folded();
        assert!(
            by_zero.as_const().is_none(),
            "a division by zero is left as it is"
        );
    }
}
