//! Per-function lowering state (`FnLower`) and the walk over a function:
//! its signature, the shapes of its values, the spaces of its pointers, its
//! blocks in reverse post-order and the instructions that end them.

use std::collections::HashMap;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

use lockstep_kir::*;

use super::*;

/// Per-function lowering state.
pub(super) struct FnLower<'a> {
    pub(super) cx: &'a mut ModuleCx,
    pub(super) module: &'a mut Module,
    pub(super) llvm_fn: LLVMValueRef,
    pub(super) f: Function,
    pub(super) vals: HashMap<LLVMValueRef, Lowered>,
    pub(super) blocks: HashMap<LLVMBasicBlockRef, BlockId>,
    pub(super) space_memo: HashMap<LLVMValueRef, Option<MemSpace>>,
    pub(super) cur: BlockId,
    pub(super) cur_loc: Option<SrcLoc>,
    /// The pointer of a block-scoped atomic announced by the prelude's
    /// marker (`__lockstep_block_scoped_atomic(p)`), which the next atomic
    /// lowered must be made on (see `CallLowering::atomic_scope`).
    pub(super) pending_block_scope: Option<LLVMValueRef>,
}

/// `v` without the address-space casts around it: the prelude's marker
/// takes a generic pointer where `infer-address-spaces` may have given the
/// atomic itself a shared one.
pub(super) unsafe fn without_space_casts(mut v: LLVMValueRef) -> LLVMValueRef {
    loop {
        let cast = if !LLVMIsAAddrSpaceCastInst(v).is_null() {
            true
        } else {
            !LLVMIsAConstantExpr(v).is_null() && LLVMGetConstOpcode(v) == LLVMOpcode::LLVMAddrSpaceCast
        };
        if !cast {
            return v;
        }
        v = LLVMGetOperand(v, 0);
    }
}

impl<'a> FnLower<'a> {
    pub(super) unsafe fn lower(cx: &'a mut ModuleCx, module: &'a mut Module, llvm_fn: LLVMValueRef, id: FuncId) -> Result<Function> {
        let template = &module.functions[id];
        let mut f = Function::new(template.name.clone(), template.link_name.clone(), template.is_kernel);
        f.loc = template.loc;
        let mut this = FnLower {
            cx,
            module,
            llvm_fn,
            f,
            vals: HashMap::new(),
            blocks: HashMap::new(),
            space_memo: HashMap::new(),
            cur: BlockId::from_u32(0),
            cur_loc: None,
            pending_block_scope: None,
        };
        this.cur = this.f.entry;
        this.lower_signature()?;
        this.lower_body()?;
        if this.pending_block_scope.is_some() {
            return this.unsupported("a block-scoped atomic whose operation does not follow it");
        }
        Ok(this.f)
    }

    pub(super) fn unsupported<T>(&self, what: impl Into<String>) -> Result<T> {
        let loc = self.cur_loc.or(self.f.loc).map(|l| (self.module.files[l.file].clone(), l.line, l.col));
        Err(Unsupported { what: what.into(), loc })
    }

    pub(super) unsafe fn lower_signature(&mut self) -> Result<()> {
        let n = LLVMCountParams(self.llvm_fn);
        // A kernel's function-pointer parameter holds whatever the host
        // passes: an integer (see `fnptr`), made a pointer at the entry.
        let function_pointers = if self.f.is_kernel {
            crate::fnptr::function_pointer_params(self.llvm_fn)
        } else {
            vec![false; n as usize]
        };
        for i in 0..n {
            let p = LLVMGetParam(self.llvm_fn, i);
            let name = value_name(p);
            let name = if name.is_empty() { format!("arg{i}") } else { name };
            match self.shape_of_value(p)? {
                Shape::Scalar(ty) if ty.is_ptr() && function_pointers[i as usize] => {
                    let bits = self.f.add_param(name, Type::I64, None);
                    let null = self.zero_of(ty);
                    let v = self.emit_value(InstKind::PtrAdd { base: null, offset: bits }, ty);
                    self.vals.insert(p, Lowered::Scalar(v));
                }
                Shape::Scalar(ty) => {
                    let pointee = ty.is_ptr().then(PointeeInfo::default);
                    let v = self.f.add_param(name, ty, pointee);
                    self.vals.insert(p, Lowered::Scalar(v));
                }
                Shape::Lanes(lanes) => {
                    let vs = lanes
                        .iter()
                        .enumerate()
                        .map(|(k, (ty, _))| self.f.add_param(format!("{name}.{k}"), *ty, None))
                        .collect();
                    self.vals.insert(p, Lowered::Lanes(vs));
                }
                Shape::Void => return self.unsupported("a void parameter"),
            }
        }
        let ret = LLVMGetReturnType(LLVMGlobalGetValueType(self.llvm_fn));
        self.f.ret = match self.shape_of_type(ret, None)? {
            Shape::Void => None,
            Shape::Scalar(ty) => Some(ty),
            Shape::Lanes(_) => return self.unsupported("a function returning a vector or struct by value"),
        };
        Ok(())
    }

    /// The shape of an LLVM type; `space` is the space to give pointers.
    pub(super) unsafe fn shape_of_type(&self, ty: LLVMTypeRef, space: Option<MemSpace>) -> Result<Shape> {
        let scalar = |ty: LLVMTypeRef| -> Option<Type> {
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMIntegerTypeKind => Some(Type::Int(LLVMGetIntTypeWidth(ty) as u16)),
                LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => Some(Type::Float(16)),
                LLVMTypeKind::LLVMFloatTypeKind => Some(Type::Float(32)),
                LLVMTypeKind::LLVMDoubleTypeKind => Some(Type::Float(64)),
                LLVMTypeKind::LLVMPointerTypeKind => Some(Type::Ptr(
                    space.unwrap_or_else(|| self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)).unwrap_or(MemSpace::Generic)),
                )),
                // OpenCL's `event_t` is an opaque handle: a 64-bit value.
                LLVMTypeKind::LLVMTargetExtTypeKind if type_string(ty).contains("spirv.Event") => Some(Type::I64),
                // OpenCL images and samplers: see `builtins::IMAGE_TYPE`.
                LLVMTypeKind::LLVMTargetExtTypeKind
                    if crate::builtins::image_access_of_type_string(&type_string(ty)).is_some() =>
                {
                    Some(crate::builtins::IMAGE_TYPE)
                }
                LLVMTypeKind::LLVMTargetExtTypeKind if type_string(ty) == "target(\"spirv.Sampler\")" => {
                    Some(crate::builtins::SAMPLER_TYPE)
                }
                _ => None,
            }
        };
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMVoidTypeKind => Ok(Shape::Void),
            LLVMTypeKind::LLVMVectorTypeKind => {
                let elem = LLVMGetElementType(ty);
                let Some(ety) = scalar(elem) else { return self.unsupported("a vector of non-scalar elements") };
                let stride = LLVMABISizeOfType(self.cx.td, elem);
                Ok(Shape::Lanes((0..LLVMGetVectorSize(ty) as u64).map(|i| (ety, i * stride)).collect()))
            }
            LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind => {
                let mut lanes = Vec::new();
                self.flatten(ty, 0, &mut lanes)?;
                if lanes.len() > 64 {
                    return self.unsupported("an aggregate value with more than 64 fields");
                }
                Ok(Shape::Lanes(lanes))
            }
            _ => match scalar(ty) {
                Some(t) => Ok(Shape::Scalar(t)),
                None => self.unsupported(format!("a value of type {}", type_string(ty))),
            },
        }
    }

    pub(super) unsafe fn flatten(&self, ty: LLVMTypeRef, at: u64, out: &mut Vec<(Type, u64)>) -> Result<()> {
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMStructTypeKind => {
                for i in 0..LLVMCountStructElementTypes(ty) {
                    let field = LLVMStructGetTypeAtIndex(ty, i);
                    self.flatten(field, at + LLVMOffsetOfElement(self.cx.td, ty, i), out)?;
                }
            }
            LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                let elem = LLVMGetElementType(ty);
                let stride = LLVMABISizeOfType(self.cx.td, elem);
                let n = if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMArrayTypeKind {
                    LLVMGetArrayLength2(ty)
                } else {
                    LLVMGetVectorSize(ty) as u64
                };
                if n > 64 {
                    return self.unsupported("an aggregate value with more than 64 fields");
                }
                for i in 0..n {
                    self.flatten(elem, at + i * stride, out)?;
                }
            }
            _ => match self.shape_of_type(ty, None)? {
                Shape::Scalar(t) => out.push((t, at)),
                _ => return self.unsupported(format!("a value of type {}", type_string(ty))),
            },
        }
        Ok(())
    }

    /// The shape of a value, resolving CUDA generic pointers.
    pub(super) unsafe fn shape_of_value(&mut self, v: LLVMValueRef) -> Result<Shape> {
        let ty = LLVMTypeOf(v);
        if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind {
            let space = self.pointer_space(v).unwrap_or(MemSpace::Generic);
            return self.shape_of_type(ty, Some(space));
        }
        self.shape_of_type(ty, None)
    }

    /// The memory space a pointer value points into, when it can be known
    /// statically. `None` means "no constraint" (null, undef, or a cycle
    /// being resolved); callers treat a final `None` as generic.
    pub(super) unsafe fn pointer_space(&mut self, v: LLVMValueRef) -> Option<MemSpace> {
        let ty = LLVMTypeOf(v);
        if let Some(space) = self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)) {
            return Some(space);
        }
        if let Some(&memo) = self.space_memo.get(&v) {
            return memo;
        }
        // Provisional answer for cycles through phis.
        self.space_memo.insert(v, None);
        let join = |a: Option<MemSpace>, b: Option<MemSpace>| match (a, b) {
            (None, x) | (x, None) => x,
            (Some(x), Some(y)) if x == y => Some(x),
            _ => Some(MemSpace::Generic),
        };
        let result = if !LLVMIsAArgument(v).is_null() {
            if LLVMGetEnumAttributeAtIndex(self.llvm_fn, param_index(self.llvm_fn, v) + 1, self.cx.byval_kind).is_null() {
                Some(if self.f.is_kernel { MemSpace::Global } else { MemSpace::Generic })
            } else {
                Some(MemSpace::Private)
            }
        } else if !LLVMIsAAllocaInst(v).is_null() {
            Some(MemSpace::Private)
        } else if !LLVMIsAGlobalVariable(v).is_null() {
            Some(if self.cx.host { MemSpace::Private } else { self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)).unwrap_or(MemSpace::Global) })
        } else if LLVMIsNull(v) != 0 || LLVMIsUndef(v) != 0 {
            None
        } else if !LLVMIsAPHINode(v).is_null() {
            let mut acc = None;
            for i in 0..LLVMCountIncoming(v) {
                let s = self.pointer_space(LLVMGetIncomingValue(v, i));
                acc = join(acc, s);
            }
            acc
        } else if !LLVMIsASelectInst(v).is_null() {
            let a = self.pointer_space(LLVMGetOperand(v, 1));
            let b = self.pointer_space(LLVMGetOperand(v, 2));
            join(a, b)
        } else if !LLVMIsAGetElementPtrInst(v).is_null() || !LLVMIsACastInst(v).is_null() {
            let base = LLVMGetOperand(v, 0);
            if LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMTypeKind::LLVMPointerTypeKind {
                self.pointer_space(base)
            } else {
                Some(MemSpace::Generic)
            }
        } else if !LLVMIsAConstantExpr(v).is_null() {
            let base = LLVMGetOperand(v, 0);
            if LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMTypeKind::LLVMPointerTypeKind {
                self.pointer_space(base)
            } else {
                Some(MemSpace::Generic)
            }
        } else {
            Some(MemSpace::Generic)
        };
        self.space_memo.insert(v, result);
        result
    }

    pub(super) unsafe fn lower_body(&mut self) -> Result<()> {
        let order = reverse_postorder(self.llvm_fn);
        // Create blocks and their parameters (one per phi lane) up front.
        for (i, &bb) in order.iter().enumerate() {
            let block = if i == 0 { self.f.entry } else { self.f.add_block() };
            self.blocks.insert(bb, block);
        }
        for &bb in &order {
            let block = self.blocks[&bb];
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() && !LLVMIsAPHINode(inst).is_null() {
                self.cur_loc = inst_loc(self.cx, self.module, inst);
                let lowered = match self.shape_of_value(inst)? {
                    Shape::Scalar(ty) => {
                        let v = self.f.add_block_param(block, ty);
                        Lowered::Scalar(v)
                    }
                    Shape::Lanes(lanes) => {
                        Lowered::Lanes(lanes.iter().map(|(ty, _)| self.f.add_block_param(block, *ty)).collect())
                    }
                    Shape::Void => return self.unsupported("a void phi"),
                };
                let name = value_name(inst);
                if let Lowered::Scalar(v) = lowered {
                    if !name.is_empty() {
                        self.f.values[v].name = Some(name);
                    }
                }
                self.vals.insert(inst, lowered);
                inst = LLVMGetNextInstruction(inst);
            }
        }
        for &bb in &order {
            self.cur = self.blocks[&bb];
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                self.cur_loc = inst_loc(self.cx, self.module, inst);
                if LLVMIsAPHINode(inst).is_null() {
                    self.lower_inst(inst)?;
                }
                inst = LLVMGetNextInstruction(inst);
            }
        }
        Ok(())
    }

    pub(super) fn emit(&mut self, kind: InstKind, result: Option<Type>) -> Option<ValueId> {
        self.f.append_inst(self.cur, kind, result, self.cur_loc).1
    }

    pub(super) fn emit_value(&mut self, kind: InstKind, ty: Type) -> ValueId {
        self.emit(kind, Some(ty)).expect("an instruction with a result type defines a value")
    }

    pub(super) fn const_int(&mut self, ty: Type, bits: u128) -> ValueId {
        self.f.const_int(ty, bits)
    }

    /// Converts `v` to `ty` where the two differ only in pointer space or
    /// the IR expects a boolean where C gave an integer.
    pub(super) fn coerce(&mut self, v: ValueId, ty: Type) -> ValueId {
        let have = self.f.value_type(v);
        if have == ty {
            return v;
        }
        match (have, ty) {
            (Type::Ptr(_), Type::Ptr(_)) => self.emit_value(InstKind::Cast { op: CastOp::AddrSpaceCast, arg: v }, ty),
            (Type::Int(w), Type::Int(1)) if w > 1 => {
                let zero = self.const_int(have, 0);
                self.emit_value(InstKind::Icmp { cc: IntCC::Ne, lhs: v, rhs: zero }, Type::BOOL)
            }
            (Type::Int(a), Type::Int(b)) if a < b => self.emit_value(InstKind::Cast { op: CastOp::Zext, arg: v }, ty),
            (Type::Int(a), Type::Int(b)) if a > b => self.emit_value(InstKind::Cast { op: CastOp::Trunc, arg: v }, ty),
            _ => v,
        }
    }

    /// A condition as a boolean.
    pub(super) fn to_bool(&mut self, v: ValueId) -> ValueId {
        self.coerce(v, Type::BOOL)
    }

    pub(super) unsafe fn operand(&mut self, v: LLVMValueRef) -> Result<Lowered> {
        if let Some(l) = self.vals.get(&v) {
            return Ok(l.clone());
        }
        if LLVMIsConstant(v) == 0 {
            if !LLVMIsAInstruction(v).is_null() {
                return self.unsupported("a value used where its definition does not dominate");
            }
            return self.unsupported(format!("an operand of kind {}", value_kind(v)));
        }
        let shape = self.shape_of_value(v)?;
        // Constants are not memoised: a constant expression is lowered into
        // instructions at each use, so it must dominate that use.
        match shape {
            Shape::Void => self.unsupported("a void constant"),
            Shape::Scalar(ty) => Ok(Lowered::Scalar(self.scalar_constant(v, ty)?)),
            Shape::Lanes(lanes) => {
                // A vector constant expression (a bitcast of a constant
                // vector that SROA left behind) is lowered like the
                // instruction it stands for.
                if !LLVMIsAConstantExpr(v).is_null() && LLVMIsUndef(v) == 0 && LLVMIsPoison(v) == 0 {
                    let op = LLVMGetConstOpcode(v);
                    return match self.lower_operation(v, op)? {
                        Some(Lowered::Lanes(xs)) if xs.len() == lanes.len() => Ok(Lowered::Lanes(xs)),
                        _ => self.unsupported("a constant expression of vector or struct type"),
                    };
                }
                let mut out = Vec::new();
                for (i, (ty, _)) in lanes.iter().enumerate() {
                    if LLVMIsUndef(v) != 0 || LLVMIsPoison(v) != 0 {
                        out.push(self.f.make_value(*ty, ValueDef::Undef));
                    } else if LLVMIsNull(v) != 0 {
                        out.push(self.zero_of(*ty));
                    } else if !LLVMIsAConstantExpr(v).is_null() {
                        return self.unsupported("a constant expression of vector or struct type");
                    } else {
                        let e = LLVMGetAggregateElement(v, i as u32);
                        if e.is_null() || LLVMGetTypeKind(LLVMTypeOf(e)) == LLVMTypeKind::LLVMStructTypeKind {
                            return self.unsupported("a nested aggregate constant");
                        }
                        out.push(self.scalar_constant(e, *ty)?);
                    }
                }
                Ok(Lowered::Lanes(out))
            }
        }
    }

    pub(super) fn zero_of(&mut self, ty: Type) -> ValueId {
        match ty {
            Type::Ptr(_) => self.f.make_value(ty, ValueDef::Null),
            _ => self.f.make_value(ty, ValueDef::Const(0)),
        }
    }

    pub(super) unsafe fn scalar(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        match self.operand(v)? {
            Lowered::Scalar(x) => Ok(x),
            Lowered::Lanes(_) => self.unsupported("a vector or struct value where a scalar is expected"),
        }
    }

    pub(super) unsafe fn lanes(&mut self, v: LLVMValueRef) -> Result<Vec<ValueId>> {
        Ok(match self.operand(v)? {
            Lowered::Scalar(x) => vec![x],
            Lowered::Lanes(xs) => xs,
        })
    }

    pub(super) unsafe fn scalar_constant(&mut self, v: LLVMValueRef, ty: Type) -> Result<ValueId> {
        if LLVMIsUndef(v) != 0 || LLVMIsPoison(v) != 0 {
            return Ok(self.f.make_value(ty, ValueDef::Undef));
        }
        if !LLVMIsAConstantInt(v).is_null() {
            if ty.bits() > 64 {
                return self.unsupported("an integer constant wider than 64 bits");
            }
            return Ok(self.const_int(ty, LLVMConstIntGetZExtValue(v) as u128));
        }
        if !LLVMIsAConstantFP(v).is_null() {
            let mut lossy = 0;
            let d = LLVMConstRealGetDouble(v, &mut lossy);
            let bits = match ty.bits() {
                32 => (d as f32).to_bits() as u128,
                64 => d.to_bits() as u128,
                16 => half_bits(d as f32) as u128,
                _ => return self.unsupported("a float constant of unusual width"),
            };
            return Ok(self.f.make_value(ty, ValueDef::Const(bits)));
        }
        if LLVMIsNull(v) != 0 {
            return Ok(self.zero_of(ty));
        }
        if !LLVMIsAGlobalVariable(v).is_null() {
            return match self.cx.globals.get(&v) {
                Some(&g) => Ok(self.f.make_value(ty, ValueDef::GlobalAddr(g))),
                None => self.unsupported(format!("the address of `{}`", value_name(v))),
            };
        }
        if !LLVMIsAFunction(v).is_null() {
            // A function's address: an integer that is no object's address
            // (see `FUNCTION_ADDRESS_BASE`); indirect calls compare with it.
            // A library function without a body (`cosf`) has an address of
            // its own; a call through it is a call of the function by name.
            let Some(address) = address_of_function(self.cx, v) else {
                return self.unsupported(format!("a pointer to function `{}`, which has no body", base_identifier(&value_name(v))));
            };
            let bits = self.const_int(Type::I64, address as u128);
            return Ok(self.emit_value(InstKind::Cast { op: CastOp::IntToPtr, arg: bits }, ty));
        }
        if !LLVMIsAConstantExpr(v).is_null() {
            let op = LLVMGetConstOpcode(v);
            return match self.lower_operation(v, op)? {
                Some(Lowered::Scalar(x)) => Ok(x),
                _ => self.unsupported("a constant expression of vector type"),
            };
        }
        self.unsupported(format!("a constant of kind {}", value_kind(v)))
    }

    /// Lowers one instruction (not a phi).
    pub(super) unsafe fn lower_inst(&mut self, inst: LLVMValueRef) -> Result<()> {
        let op = LLVMGetInstructionOpcode(inst);
        use LLVMOpcode::*;
        match op {
            LLVMRet => {
                let value = if LLVMGetNumOperands(inst) > 0 {
                    let v = self.scalar(LLVMGetOperand(inst, 0))?;
                    let ty = self.f.ret.unwrap_or(self.f.value_type(v));
                    Some(self.coerce(v, ty))
                } else {
                    None
                };
                self.f.set_terminator(self.cur, Terminator::Return(value), self.cur_loc);
            }
            LLVMBr => {
                let bb = LLVMGetInstructionParent(inst);
                if LLVMIsConditional(inst) != 0 {
                    let c = self.scalar(LLVMGetCondition(inst))?;
                    let cond = self.to_bool(c);
                    let then_dest = self.block_call(bb, LLVMGetSuccessor(inst, 0))?;
                    let else_dest = self.block_call(bb, LLVMGetSuccessor(inst, 1))?;
                    self.f.set_terminator(self.cur, Terminator::Branch { cond, then_dest, else_dest }, self.cur_loc);
                } else {
                    let dest = self.block_call(bb, LLVMGetSuccessor(inst, 0))?;
                    self.f.set_terminator(self.cur, Terminator::Jump(dest), self.cur_loc);
                }
            }
            LLVMUnreachable => self.f.set_terminator(self.cur, Terminator::Unreachable, self.cur_loc),
            LLVMSwitch => return self.unsupported("a switch statement that was not lowered"),
            // Host C++ calls that may throw (`new` of a class, anything with
            // a destructor in scope): the call, then its normal successor.
            // The unwinding successor is never lowered (`reverse_postorder`
            // does not follow it), and a throw stops the host run as
            // unsupported (the host model of `__cxa_throw`), so a run never
            // goes on past an exception as if the call had returned.
            LLVMInvoke if self.cx.host => {
                self.lower_call(inst)?;
                let bb = LLVMGetInstructionParent(inst);
                let dest = self.block_call(bb, LLVMGetNormalDest(inst))?;
                self.f.set_terminator(self.cur, Terminator::Jump(dest), self.cur_loc);
            }
            LLVMIndirectBr | LLVMInvoke | LLVMCallBr | LLVMResume | LLVMLandingPad | LLVMCleanupRet | LLVMCatchRet
            | LLVMCatchPad | LLVMCleanupPad | LLVMCatchSwitch => {
                return self.unsupported(format!("the `{}` instruction (exceptions or computed goto)", opcode_name(op)))
            }
            LLVMAlloca => {
                let ty = LLVMGetAllocatedType(inst);
                let count_v = LLVMGetOperand(inst, 0);
                if LLVMIsAConstantInt(count_v).is_null() {
                    return self.unsupported("a variable-length array");
                }
                let count = LLVMConstIntGetZExtValue(count_v);
                let size = LLVMABISizeOfType(self.cx.td, ty) * count;
                let name = value_name(inst);
                let local = self.f.locals.push(MemObject {
                    name: if name.is_empty() { "local".into() } else { name },
                    space: MemSpace::Private,
                    size: Some(size),
                    align: LLVMGetAlignment(inst),
                    elem_size: element_size(self.cx.td, ty),
                    init: None,
                    loc: self.cur_loc,
                });
                let v = self.f.make_value(Type::Ptr(MemSpace::Private), ValueDef::LocalAddr(local));
                self.vals.insert(inst, Lowered::Scalar(v));
            }
            LLVMCall => self.lower_call(inst)?,
            _ => {
                if let Some(l) = self.lower_operation(inst, op)? {
                    if let Lowered::Scalar(v) = l {
                        let name = value_name(inst);
                        if !name.is_empty() && self.f.values[v].name.is_none() && matches!(self.f.values[v].def, ValueDef::Inst(_)) {
                            self.f.values[v].name = Some(name);
                        }
                    }
                    self.vals.insert(inst, l);
                }
            }
        }
        Ok(())
    }

    /// The branch from `from` to `to`, passing the phi values of `to`.
    pub(super) unsafe fn block_call(&mut self, from: LLVMBasicBlockRef, to: LLVMBasicBlockRef) -> Result<BlockCall> {
        let block = self.blocks[&to];
        let params = self.f.blocks[block].params.clone();
        let mut args = Vec::new();
        let mut inst = LLVMGetFirstInstruction(to);
        while !inst.is_null() && !LLVMIsAPHINode(inst).is_null() {
            let mut found = None;
            for i in 0..LLVMCountIncoming(inst) {
                if LLVMGetIncomingBlock(inst, i) == from {
                    found = Some(LLVMGetIncomingValue(inst, i));
                    break;
                }
            }
            let Some(incoming) = found else { return self.unsupported("a phi without a value for one of its predecessors") };
            let lanes = self.lanes(incoming)?;
            args.extend(lanes);
            inst = LLVMGetNextInstruction(inst);
        }
        if args.len() != params.len() {
            return self.unsupported("a phi whose incoming value has the wrong shape");
        }
        for (arg, param) in args.iter_mut().zip(&params) {
            let ty = self.f.value_type(*param);
            *arg = self.coerce(*arg, ty);
        }
        Ok(BlockCall { block, args })
    }
}
