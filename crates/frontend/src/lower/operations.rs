//! Lowering of the instructions and constant expressions that compute a
//! value: arithmetic, comparisons, casts (with relaning bitcasts),
//! `getelementptr` as byte arithmetic, and aggregate lanes.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMAtomicRMWBinOp, LLVMOpcode, LLVMTypeKind};

use lockstep_kir::*;

use super::*;

impl FnLower<'_> {
    /// Lowers an instruction or constant expression that computes a value.
    /// Returns `None` for instructions without a result.
    pub(super) unsafe fn lower_operation(&mut self, v: LLVMValueRef, op: LLVMOpcode) -> Result<Option<Lowered>> {
        use LLVMOpcode::*;
        let result = match op {
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr
            | LLVMAnd | LLVMOr | LLVMXor => {
                let bop = match op {
                    LLVMAdd => BinOp::Add,
                    LLVMSub => BinOp::Sub,
                    LLVMMul => BinOp::Mul,
                    LLVMUDiv => BinOp::UDiv,
                    LLVMSDiv => BinOp::SDiv,
                    LLVMURem => BinOp::URem,
                    LLVMSRem => BinOp::SRem,
                    LLVMShl => BinOp::Shl,
                    LLVMLShr => BinOp::LShr,
                    LLVMAShr => BinOp::AShr,
                    LLVMAnd => BinOp::And,
                    LLVMOr => BinOp::Or,
                    _ => BinOp::Xor,
                };
                let no_wrap = no_wrap_flags(v, op);
                self.lanewise2(v, |this, a, b| {
                    let ty = this.f.value_type(a);
                    let r = this.emit_value(InstKind::Binary { op: bop, lhs: a, rhs: b }, ty);
                    if !no_wrap.is_none() {
                        if let ValueDef::Inst(inst) = this.f.values[r].def {
                            this.f.no_wrap.set(inst, no_wrap);
                        }
                    }
                    r
                })?
            }
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem => {
                let fop = match op {
                    LLVMFAdd => FloatOp::Add,
                    LLVMFSub => FloatOp::Sub,
                    LLVMFMul => FloatOp::Mul,
                    LLVMFDiv => FloatOp::Div,
                    _ => FloatOp::Rem,
                };
                self.lanewise2(v, |this, a, b| {
                    let ty = this.f.value_type(a);
                    this.emit_value(InstKind::Float { op: fop, args: vec![a, b] }, ty)
                })?
            }
            LLVMFNeg => {
                let xs = self.lanes(LLVMGetOperand(v, 0))?;
                let out: Vec<_> = xs
                    .into_iter()
                    .map(|a| {
                        let ty = self.f.value_type(a);
                        self.emit_value(InstKind::Float { op: FloatOp::Neg, args: vec![a] }, ty)
                    })
                    .collect();
                self.pack(v, out)
            }
            LLVMICmp => {
                let cc = int_cc(LLVMGetICmpPredicate(v));
                self.lanewise2(v, |this, a, b| {
                    let (a, b) = this.unify_pointers(a, b);
                    this.emit_value(InstKind::Icmp { cc, lhs: a, rhs: b }, Type::BOOL)
                })?
            }
            LLVMFCmp => {
                let cc = float_cc(LLVMGetFCmpPredicate(v));
                self.lanewise2(v, |this, a, b| this.emit_value(InstKind::Fcmp { cc, lhs: a, rhs: b }, Type::BOOL))?
            }
            LLVMSelect => {
                let conds = self.lanes(LLVMGetOperand(v, 0))?;
                let xs = self.lanes(LLVMGetOperand(v, 1))?;
                let ys = self.lanes(LLVMGetOperand(v, 2))?;
                let shape = self.shape_of_value(v)?;
                let tys: Vec<Type> = match &shape {
                    Shape::Scalar(t) => vec![*t],
                    Shape::Lanes(l) => l.iter().map(|(t, _)| *t).collect(),
                    Shape::Void => return self.unsupported("a void select"),
                };
                if xs.len() != tys.len() || ys.len() != tys.len() {
                    return self.unsupported("a select of mismatched shapes");
                }
                let mut out = Vec::new();
                for i in 0..tys.len() {
                    let c = conds[if conds.len() == 1 { 0 } else { i }];
                    let cond = self.to_bool(c);
                    let a = self.coerce(xs[i], tys[i]);
                    let b = self.coerce(ys[i], tys[i]);
                    out.push(self.emit_value(InstKind::Select { cond, then_value: a, else_value: b }, tys[i]));
                }
                self.pack(v, out)
            }
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc
            | LLVMFPExt | LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast | LLVMAddrSpaceCast => self.lower_cast(v, op)?,
            LLVMGetElementPtr => Lowered::Scalar(self.lower_gep(v)?),
            LLVMFreeze => self.operand(LLVMGetOperand(v, 0))?,
            LLVMLoad => {
                let ptr = self.scalar(LLVMGetOperand(v, 0))?;
                let align = LLVMGetAlignment(v);
                match self.shape_of_value(v)? {
                    Shape::Scalar(ty) => Lowered::Scalar(self.emit_value(InstKind::Load { ptr, align }, ty)),
                    Shape::Lanes(lanes) => {
                        let mut out = Vec::new();
                        for (ty, off) in lanes {
                            let p = self.offset_ptr(ptr, off);
                            out.push(self.emit_value(InstKind::Load { ptr: p, align: lane_align(align, off) }, ty));
                        }
                        Lowered::Lanes(out)
                    }
                    Shape::Void => return self.unsupported("a void load"),
                }
            }
            LLVMStore => {
                let value = LLVMGetOperand(v, 0);
                let ptr = self.scalar(LLVMGetOperand(v, 1))?;
                let align = LLVMGetAlignment(v);
                match self.shape_of_type(LLVMTypeOf(value), Some(MemSpace::Generic))? {
                    Shape::Scalar(_) => {
                        let x = self.scalar(value)?;
                        self.emit(InstKind::Store { ptr, value: x, align }, None);
                    }
                    Shape::Lanes(lanes) => {
                        let xs = self.lanes(value)?;
                        for ((_, off), x) in lanes.into_iter().zip(xs) {
                            let p = self.offset_ptr(ptr, off);
                            self.emit(InstKind::Store { ptr: p, value: x, align: lane_align(align, off) }, None);
                        }
                    }
                    Shape::Void => return self.unsupported("a void store"),
                }
                return Ok(None);
            }
            LLVMAtomicRMW => {
                let aop = match LLVMGetAtomicRMWBinOp(v) {
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXchg => AtomicOp::Xchg,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd => AtomicOp::Add,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpSub => AtomicOp::Sub,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAnd => AtomicOp::And,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpOr => AtomicOp::Or,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXor => AtomicOp::Xor,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpMax => AtomicOp::Max,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpMin => AtomicOp::Min,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUMax => AtomicOp::UMax,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUMin => AtomicOp::UMin,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd => AtomicOp::FAdd,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFSub => AtomicOp::FSub,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUIncWrap => AtomicOp::UIncWrap,
                    LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpUDecWrap => AtomicOp::UDecWrap,
                    other => return self.unsupported(format!("the atomic operation {other:?}")),
                };
                let scope = self.atomic_scope(LLVMGetOperand(v, 0))?;
                let ptr = self.scalar(LLVMGetOperand(v, 0))?;
                let value = self.scalar(LLVMGetOperand(v, 1))?;
                let ty = self.f.value_type(value);
                Lowered::Scalar(self.emit_value(InstKind::Atomic { op: aop, ptr, value, scope }, ty))
            }
            LLVMAtomicCmpXchg => {
                let scope = self.atomic_scope(LLVMGetOperand(v, 0))?;
                let ptr = self.scalar(LLVMGetOperand(v, 0))?;
                let expected = self.scalar(LLVMGetOperand(v, 1))?;
                let new = self.scalar(LLVMGetOperand(v, 2))?;
                let ty = self.f.value_type(new);
                let expected = self.coerce(expected, ty);
                let old = self.emit_value(InstKind::CmpXchg { ptr, expected, new, scope }, ty);
                let ok = self.emit_value(InstKind::Icmp { cc: IntCC::Eq, lhs: old, rhs: expected }, Type::BOOL);
                Lowered::Lanes(vec![old, ok])
            }
            LLVMFence => {
                self.emit(InstKind::Fence { fence: FenceFlags { shared: true, global: true } }, None);
                return Ok(None);
            }
            LLVMExtractValue | LLVMInsertValue => return self.lower_aggregate_op(v, op).map(Some),
            LLVMExtractElement => {
                let xs = self.lanes(LLVMGetOperand(v, 0))?;
                let idx = LLVMGetOperand(v, 1);
                if LLVMIsAConstantInt(idx).is_null() {
                    return self.unsupported("a vector element selected by a variable index");
                }
                let i = LLVMConstIntGetZExtValue(idx) as usize;
                match xs.get(i) {
                    Some(&x) => Lowered::Scalar(x),
                    None => Lowered::Scalar(self.undef_like(v)?),
                }
            }
            LLVMInsertElement => {
                let mut xs = self.lanes(LLVMGetOperand(v, 0))?;
                let x = self.scalar(LLVMGetOperand(v, 1))?;
                let idx = LLVMGetOperand(v, 2);
                if LLVMIsAConstantInt(idx).is_null() {
                    return self.unsupported("a vector element written at a variable index");
                }
                let i = LLVMConstIntGetZExtValue(idx) as usize;
                if i < xs.len() {
                    xs[i] = x;
                }
                Lowered::Lanes(xs)
            }
            LLVMShuffleVector => {
                let a = self.lanes(LLVMGetOperand(v, 0))?;
                let b = self.lanes(LLVMGetOperand(v, 1))?;
                let n = LLVMGetNumMaskElements(v);
                let elem_ty = match self.shape_of_value(v)? {
                    Shape::Lanes(l) if !l.is_empty() => l[0].0,
                    _ => return self.unsupported("a shufflevector of unusual shape"),
                };
                let mut out = Vec::new();
                for i in 0..n {
                    let m = LLVMGetMaskValue(v, i);
                    let lane = if m < 0 {
                        self.f.make_value(elem_ty, ValueDef::Undef)
                    } else if (m as usize) < a.len() {
                        a[m as usize]
                    } else {
                        match b.get(m as usize - a.len()) {
                            Some(&x) => x,
                            None => self.f.make_value(elem_ty, ValueDef::Undef),
                        }
                    };
                    out.push(lane);
                }
                Lowered::Lanes(out)
            }
            LLVMVAArg => return self.unsupported("variadic arguments"),
            other => return self.unsupported(format!("the `{}` instruction", opcode_name(other))),
        };
        Ok(Some(result))
    }

    pub(super) unsafe fn undef_like(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        match self.shape_of_value(v)? {
            Shape::Scalar(ty) => Ok(self.f.make_value(ty, ValueDef::Undef)),
            _ => self.unsupported("an undefined aggregate"),
        }
    }

    /// Packs lanes into the shape of `v`: a scalar when `v` is a scalar.
    pub(super) unsafe fn pack(&self, v: LLVMValueRef, xs: Vec<ValueId>) -> Lowered {
        let kind = LLVMGetTypeKind(LLVMTypeOf(v));
        if matches!(kind, LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind) {
            Lowered::Lanes(xs)
        } else {
            Lowered::Scalar(xs[0])
        }
    }

    pub(super) unsafe fn lanewise2(
        &mut self,
        v: LLVMValueRef,
        mut f: impl FnMut(&mut Self, ValueId, ValueId) -> ValueId,
    ) -> Result<Lowered> {
        let xs = self.lanes(LLVMGetOperand(v, 0))?;
        let ys = self.lanes(LLVMGetOperand(v, 1))?;
        if xs.len() != ys.len() {
            return self.unsupported("operands of different vector lengths");
        }
        let out: Vec<_> = xs.into_iter().zip(ys).map(|(a, b)| f(self, a, b)).collect();
        Ok(self.pack(v, out))
    }

    /// Gives two pointers one type (generic if their spaces differ).
    pub(super) fn unify_pointers(&mut self, a: ValueId, b: ValueId) -> (ValueId, ValueId) {
        match (self.f.value_type(a), self.f.value_type(b)) {
            (Type::Ptr(x), Type::Ptr(y)) if x != y => {
                let g = Type::Ptr(MemSpace::Generic);
                (self.coerce(a, g), self.coerce(b, g))
            }
            _ => (a, b),
        }
    }

    pub(super) fn offset_ptr(&mut self, ptr: ValueId, off: u64) -> ValueId {
        if off == 0 {
            return ptr;
        }
        let ty = self.f.value_type(ptr);
        let offset = self.const_int(Type::I64, off as u128);
        self.emit_value(InstKind::PtrAdd { base: ptr, offset }, ty)
    }

    pub(super) unsafe fn lower_cast(&mut self, v: LLVMValueRef, op: LLVMOpcode) -> Result<Lowered> {
        use LLVMOpcode::*;
        let src = LLVMGetOperand(v, 0);
        let xs = self.lanes(src)?;
        let dst_shape = self.shape_of_value(v)?;
        let dst_tys: Vec<Type> = match &dst_shape {
            Shape::Scalar(t) => vec![*t],
            Shape::Lanes(l) => l.iter().map(|(t, _)| *t).collect(),
            Shape::Void => return self.unsupported("a cast to void"),
        };
        if xs.len() != dst_tys.len() {
            if op != LLVMBitCast {
                return self.unsupported("a cast that changes the number of vector lanes");
            }
            let out = self.relane_bitcast(xs, &dst_tys)?;
            return Ok(self.pack(v, out));
        }
        let cop = match op {
            LLVMTrunc => CastOp::Trunc,
            LLVMZExt => CastOp::Zext,
            LLVMSExt => CastOp::Sext,
            LLVMFPToUI => CastOp::FpToUi,
            LLVMFPToSI => CastOp::FpToSi,
            LLVMUIToFP => CastOp::UiToFp,
            LLVMSIToFP => CastOp::SiToFp,
            LLVMFPTrunc => CastOp::FpTrunc,
            LLVMFPExt => CastOp::FpExt,
            LLVMPtrToInt => CastOp::PtrToInt,
            LLVMIntToPtr => CastOp::IntToPtr,
            LLVMAddrSpaceCast => CastOp::AddrSpaceCast,
            _ => CastOp::Bitcast,
        };
        let mut out = Vec::new();
        for (x, ty) in xs.into_iter().zip(dst_tys) {
            let have = self.f.value_type(x);
            let lowered = match cop {
                // A cast to the same type (a pointer bitcast, or an address
                // space cast that resolution already made a no-op) is the
                // value itself.
                _ if have == ty => x,
                CastOp::AddrSpaceCast | CastOp::Bitcast if have.is_ptr() && ty.is_ptr() => {
                    self.emit_value(InstKind::Cast { op: CastOp::AddrSpaceCast, arg: x }, ty)
                }
                CastOp::Bitcast if have.bits() != ty.bits() || have.is_ptr() || ty.is_ptr() => {
                    return self.unsupported("a bitcast between types of different sizes");
                }
                _ => self.emit_value(InstKind::Cast { op: cop, arg: x }, ty),
            };
            out.push(lowered);
        }
        Ok(self.pack(v, out))
    }

    /// A bitcast between vectors (or a vector and a scalar) of equal size
    /// but different lane counts, such as `<4 x float>` to `<16 x i8>` or
    /// `<2 x i32>` to `i64`, lowered into per-lane integer arithmetic so
    /// that the later stages see only same-width bitcasts, shifts,
    /// truncations and extensions. Every source lane is cut into pieces of
    /// the greatest common width of all lanes and the pieces are joined
    /// again into the destination lanes; the targets are little-endian
    /// (spir64, nvptx), so lane 0 holds the lowest bits of the whole.
    pub(super) fn relane_bitcast(&mut self, xs: Vec<ValueId>, dst_tys: &[Type]) -> Result<Vec<ValueId>> {
        let src_tys: Vec<Type> = xs.iter().map(|&x| self.f.value_type(x)).collect();
        if src_tys.iter().chain(dst_tys).any(|t| t.is_ptr()) {
            return self.unsupported("a bitcast that changes the number of vector lanes of pointers");
        }
        let total = |tys: &[Type]| tys.iter().map(|t| t.bits() as u64).sum::<u64>();
        if total(&src_tys) != total(dst_tys) {
            return self.unsupported("a bitcast between types of different sizes");
        }
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        let piece = src_tys.iter().chain(dst_tys).fold(0u32, |g, t| gcd(g, t.bits()));
        let piece_ty = Type::Int(piece as u16);
        let mut pieces = Vec::new();
        for (&x, &ty) in xs.iter().zip(&src_tys) {
            let int_ty = Type::Int(ty.bits() as u16);
            let x = if ty == int_ty { x } else { self.emit_value(InstKind::Cast { op: CastOp::Bitcast, arg: x }, int_ty) };
            for k in 0..ty.bits() / piece {
                let shifted = if k == 0 {
                    x
                } else {
                    let amount = self.const_int(int_ty, (k * piece) as u128);
                    self.emit_value(InstKind::Binary { op: BinOp::LShr, lhs: x, rhs: amount }, int_ty)
                };
                pieces.push(if int_ty == piece_ty { shifted } else { self.emit_value(InstKind::Cast { op: CastOp::Trunc, arg: shifted }, piece_ty) });
            }
        }
        let mut pieces = pieces.into_iter();
        let mut out = Vec::new();
        for &ty in dst_tys {
            let int_ty = Type::Int(ty.bits() as u16);
            let mut acc: Option<ValueId> = None;
            for k in 0..ty.bits() / piece {
                let p = pieces.next().expect("the pieces cover the destination lanes, whose sizes add up to the source's");
                let wide = if int_ty == piece_ty { p } else { self.emit_value(InstKind::Cast { op: CastOp::Zext, arg: p }, int_ty) };
                let placed = if k == 0 {
                    wide
                } else {
                    let amount = self.const_int(int_ty, (k * piece) as u128);
                    self.emit_value(InstKind::Binary { op: BinOp::Shl, lhs: wide, rhs: amount }, int_ty)
                };
                acc = Some(match acc {
                    None => placed,
                    Some(a) => self.emit_value(InstKind::Binary { op: BinOp::Or, lhs: a, rhs: placed }, int_ty),
                });
            }
            let lane = acc.expect("a lane has at least one piece");
            out.push(if ty == int_ty { lane } else { self.emit_value(InstKind::Cast { op: CastOp::Bitcast, arg: lane }, ty) });
        }
        Ok(out)
    }

    /// `getelementptr` as byte arithmetic on the base pointer.
    pub(super) unsafe fn lower_gep(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        let base = self.scalar(LLVMGetOperand(v, 0))?;
        if LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMTypeKind::LLVMVectorTypeKind {
            return self.unsupported("a vector of pointers");
        }
        let mut ty = LLVMGetGEPSourceElementType(v);
        let n = LLVMGetNumOperands(v);
        let mut constant: i64 = 0;
        let mut variable: Option<ValueId> = None;
        for i in 1..n {
            let idx = LLVMGetOperand(v, i as u32);
            let stride: u64;
            if i == 1 {
                stride = LLVMABISizeOfType(self.cx.td, ty);
            } else {
                match LLVMGetTypeKind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        if LLVMIsAConstantInt(idx).is_null() {
                            return self.unsupported("a struct field selected by a variable");
                        }
                        let field = LLVMConstIntGetZExtValue(idx) as u32;
                        constant = constant.wrapping_add(LLVMOffsetOfElement(self.cx.td, ty, field) as i64);
                        ty = LLVMStructGetTypeAtIndex(ty, field);
                        continue;
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        ty = LLVMGetElementType(ty);
                        stride = LLVMABISizeOfType(self.cx.td, ty);
                    }
                    _ => return self.unsupported("a getelementptr into a non-aggregate type"),
                }
            }
            if !LLVMIsAConstantInt(idx).is_null() {
                let k = LLVMConstIntGetSExtValue(idx);
                constant = constant.wrapping_add(k.wrapping_mul(stride as i64));
                continue;
            }
            let x = self.scalar(idx)?;
            let x = match self.f.value_type(x) {
                Type::Int(64) => x,
                Type::Int(w) if w < 64 => self.emit_value(InstKind::Cast { op: CastOp::Sext, arg: x }, Type::I64),
                Type::Int(_) => self.emit_value(InstKind::Cast { op: CastOp::Trunc, arg: x }, Type::I64),
                _ => return self.unsupported("a non-integer getelementptr index"),
            };
            let scaled = if stride == 1 {
                x
            } else {
                let k = self.const_int(Type::I64, stride as u128);
                self.emit_value(InstKind::Binary { op: BinOp::Mul, lhs: x, rhs: k }, Type::I64)
            };
            variable = Some(match variable {
                None => scaled,
                Some(acc) => self.emit_value(InstKind::Binary { op: BinOp::Add, lhs: acc, rhs: scaled }, Type::I64),
            });
        }
        let offset = match (variable, constant) {
            (None, 0) => {
                let want = match self.shape_of_value(v)? {
                    Shape::Scalar(t) => t,
                    _ => return self.unsupported("a getelementptr of unusual shape"),
                };
                return Ok(self.coerce(base, want));
            }
            (None, k) => self.const_int(Type::I64, k as u64 as u128),
            (Some(x), 0) => x,
            (Some(x), k) => {
                let kv = self.const_int(Type::I64, k as u64 as u128);
                self.emit_value(InstKind::Binary { op: BinOp::Add, lhs: x, rhs: kv }, Type::I64)
            }
        };
        let ty = self.f.value_type(base);
        let p = self.emit_value(InstKind::PtrAdd { base, offset }, ty);
        let want = match self.shape_of_value(v)? {
            Shape::Scalar(t) => t,
            _ => ty,
        };
        Ok(self.coerce(p, want))
    }

    pub(super) unsafe fn lower_aggregate_op(&mut self, v: LLVMValueRef, op: LLVMOpcode) -> Result<Lowered> {
        let agg = LLVMGetOperand(v, 0);
        let agg_ty = LLVMTypeOf(agg);
        let n = LLVMGetNumIndices(v) as usize;
        let idx = std::slice::from_raw_parts(LLVMGetIndices(v), n).to_vec();
        // The range of flattened lanes that the index path selects.
        let (start, len) = self.lane_range(agg_ty, &idx)?;
        let lanes = self.lanes(agg)?;
        if op == LLVMOpcode::LLVMExtractValue {
            let picked = lanes.get(start..start + len).map(|s| s.to_vec());
            let Some(picked) = picked else { return self.unsupported("an extractvalue out of range") };
            Ok(if len == 1 && matches!(self.shape_of_value(v)?, Shape::Scalar(_)) {
                Lowered::Scalar(picked[0])
            } else {
                Lowered::Lanes(picked)
            })
        } else {
            let mut lanes = lanes;
            let inserted = self.lanes(LLVMGetOperand(v, 1))?;
            if inserted.len() != len || start + len > lanes.len() {
                return self.unsupported("an insertvalue of mismatched shape");
            }
            lanes[start..start + len].copy_from_slice(&inserted);
            Ok(Lowered::Lanes(lanes))
        }
    }

    pub(super) unsafe fn lane_count(&self, ty: LLVMTypeRef) -> Result<usize> {
        Ok(match self.shape_of_type(ty, Some(MemSpace::Generic))? {
            Shape::Scalar(_) => 1,
            Shape::Lanes(l) => l.len(),
            Shape::Void => 0,
        })
    }

    pub(super) unsafe fn lane_range(&self, mut ty: LLVMTypeRef, path: &[u32]) -> Result<(usize, usize)> {
        let mut start = 0;
        for &i in path {
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    for k in 0..i {
                        start += self.lane_count(LLVMStructGetTypeAtIndex(ty, k))?;
                    }
                    ty = LLVMStructGetTypeAtIndex(ty, i);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    let elem = LLVMGetElementType(ty);
                    start += i as usize * self.lane_count(elem)?;
                    ty = elem;
                }
                _ => return self.unsupported("an aggregate index into a scalar"),
            }
        }
        Ok((start, self.lane_count(ty)?))
    }
}
