//! Lowering of calls: direct calls, calls through function pointers (a
//! comparison against every function of the pointer's type, and a violation
//! where none matches), inline assembly and LLVM intrinsics, and the
//! `CallLowering` accessors the builtin tables use.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;

use lockstep_kir::*;

use super::*;

impl FnLower<'_> {
    pub(super) unsafe fn lower_call(&mut self, call: LLVMValueRef) -> Result<()> {
        let callee = LLVMGetCalledValue(call);
        if !LLVMIsAInlineAsm(callee).is_null() {
            let nargs = LLVMGetNumArgOperands(call);
            let args: Vec<LLVMValueRef> = (0..nargs).map(|i| LLVMGetOperand(call, i)).collect();
            return crate::ptx::lower_inline_asm(self, call, callee, &args);
        }
        if LLVMIsAFunction(callee).is_null() {
            return self.lower_indirect_call(call, callee);
        }
        let name = value_name(callee);
        let nargs = LLVMGetNumArgOperands(call);
        let args: Vec<LLVMValueRef> = (0..nargs).map(|i| LLVMGetOperand(call, i)).collect();
        if let Some(rest) = name.strip_prefix("llvm.") {
            return self.lower_llvm_intrinsic(call, rest, &args);
        }
        // The C library's assertion failure is the failing assertion itself,
        // even where a header defines it (clang's CUDA wrapper defines
        // `__assert_fail` to call `__assertfail` with the message's address).
        let assertion_failure = matches!(base_identifier(&name).as_str(), "__assert_fail" | "__assertfail");
        if let Some(&fid) = self.cx.funcs.get(&callee).filter(|_| !assertion_failure) {
            let r = self.lower_direct_call(call, callee, fid, &args)?;
            if let Some(r) = r {
                self.vals.insert(call, Lowered::Scalar(r));
            }
            return Ok(());
        }
        // The launch stub's `cudaLaunch(stub)`: the stub passed each
        // argument's bytes to `cudaSetupArgument` before it.
        if self.cx.host && name == "cudaLaunch" {
            if let Some(kernel) = args.first().filter(|a| !LLVMIsAFunction(**a).is_null()).and_then(|a| stub_kernel_symbol(&value_name(*a))) {
                let ret = self.result_type(call)?;
                if let Some(r) = self.emit(InstKind::CallExternal { name: format!("{LAUNCH_PREFIX}{kernel}"), args: Vec::new() }, ret) {
                    self.vals.insert(call, Lowered::Scalar(r));
                }
                return Ok(());
            }
        }
        // A marker of an uninitialised variable (`uninit_markers`) is its
        // unspecified value, which keeps the declaration's location.
        if self.cx.host && name.starts_with(crate::uninit_markers::MARKER_PREFIX) {
            if let Some(ty) = self.result_type(call)? {
                let v = self.f.make_value(ty, ValueDef::Undef);
                self.f.undef_locs.set(v, self.cur_loc);
                let name = value_name(call);
                if let Some((variable, _)) = name.rsplit_once(crate::uninit_markers::SUFFIX).filter(|(n, _)| !n.is_empty()) {
                    self.f.values[v].name = Some(variable.to_string());
                }
                self.vals.insert(call, Lowered::Scalar(v));
            }
            return Ok(());
        }
        // `cudaLaunchKernel` and friends with a kernel's stub: a launch.
        if self.cx.host && crate::runtime_launch::lower(self, call, &name, &args)? {
            return Ok(());
        }
        let base = base_identifier(&name);
        crate::builtins::lower_named_call(self, call, &name, &base, &args)
    }

    /// A call of a function of this module; returns its result.
    pub(super) unsafe fn lower_direct_call(
        &mut self,
        call: LLVMValueRef,
        callee: LLVMValueRef,
        fid: FuncId,
        args: &[LLVMValueRef],
    ) -> Result<Option<ValueId>> {
            let mut kargs = Vec::new();
            for &a in args {
                kargs.extend(self.lanes(a)?);
            }

            let callee_params: Vec<Type> = {
                // The callee may not be lowered yet: compute its parameter
                // types from LLVM, as its own lowering will.
                let mut tys = Vec::new();
                for i in 0..LLVMCountParams(callee) {
                    let p = LLVMGetParam(callee, i);
                    let shape = self.callee_param_shape(callee, p)?;
                    match shape {
                        Shape::Scalar(t) => tys.push(t),
                        Shape::Lanes(l) => tys.extend(l.iter().map(|(t, _)| *t)),
                        Shape::Void => {}
                    }
                }
                tys
            };
            if callee_params.len() != kargs.len() {
                return self.unsupported("a call with a different number of arguments than the callee has parameters");
            }
            for (a, ty) in kargs.iter_mut().zip(&callee_params) {
                *a = self.coerce(*a, *ty);
            }
            let ret = match self.shape_of_type(LLVMTypeOf(call), None)? {
                Shape::Void => None,
                Shape::Scalar(t) => Some(t),
                Shape::Lanes(_) => return self.unsupported("a call returning a vector or struct by value"),
            };
            Ok(self.emit(InstKind::Call { callee: fid, args: kargs }, ret))
    }

    /// A call through a function pointer: compared with the address of
    /// every function of the module with the call's type, each match a
    /// direct call; then with the address of every function without a body
    /// whose address the module takes (`float (*f)(float) = cosf`), each
    /// match a call of that function by name, as a direct call of it would
    /// be lowered (the modelled library function); a pointer that matches
    /// none (null, say) reaches an `invalid_call`, which the engines report
    /// where the call is.
    /// Ends the current block with a branch on `a == b`: lowering goes on
    /// in the new block where they are equal, and the block where they are
    /// not is returned.
    pub(super) fn branch_if_equal(&mut self, a: ValueId, b: ValueId) -> BlockId {
        let equal = self.emit_value(InstKind::Icmp { cc: IntCC::Eq, lhs: a, rhs: b }, Type::BOOL);
        let (then_b, else_b) = (self.f.add_block(), self.f.add_block());
        self.f.set_terminator(
            self.cur,
            Terminator::Branch {
                cond: equal,
                then_dest: BlockCall { block: then_b, args: vec![] },
                else_dest: BlockCall { block: else_b, args: vec![] },
            },
            self.cur_loc,
        );
        self.cur = then_b;
        else_b
    }

    pub(super) unsafe fn lower_indirect_call(&mut self, call: LLVMValueRef, callee: LLVMValueRef) -> Result<()> {
        let nargs = LLVMGetNumArgOperands(call);
        let args: Vec<LLVMValueRef> = (0..nargs).map(|i| LLVMGetOperand(call, i)).collect();
        let fn_type = LLVMGetCalledFunctionType(call);
        let mut candidates: Vec<(LLVMValueRef, FuncId)> = self
            .cx
            .funcs
            .iter()
            .filter(|(f, _)| !self.cx.kernels.contains(*f) && LLVMGlobalGetValueType(**f) == fn_type)
            .map(|(f, id)| (*f, *id))
            .collect();
        candidates.sort_by_key(|(_, id)| *id);
        let target = self.scalar(callee)?;
        let target_bits = self.emit_value(InstKind::Cast { op: CastOp::PtrToInt, arg: target }, Type::I64);
        let ret = match self.shape_of_type(LLVMTypeOf(call), None)? {
            Shape::Void => None,
            Shape::Scalar(t) => Some(t),
            Shape::Lanes(_) => return self.unsupported("an indirect call returning a vector or struct by value"),
        };
        let join = self.f.add_block();
        let result = ret.map(|t| self.f.add_block_param(join, t));
        for (g, fid) in candidates {
            let address = self.const_int(Type::I64, function_address(fid) as u128);
            let else_b = self.branch_if_equal(target_bits, address);
            let r = self.lower_direct_call(call, g, fid, &args)?;
            self.f.set_terminator(self.cur, Terminator::Jump(BlockCall { block: join, args: r.into_iter().collect() }), self.cur_loc);
            self.cur = else_b;
        }
        let mut externs: Vec<(LLVMValueRef, usize)> = self
            .cx
            .externs
            .iter()
            .filter(|(f, _)| LLVMGlobalGetValueType(**f) == fn_type)
            .map(|(f, n)| (*f, *n))
            .collect();
        externs.sort_by_key(|(_, n)| *n);
        for (g, n) in externs {
            let address = self.const_int(Type::I64, external_function_address(n) as u128);
            let else_b = self.branch_if_equal(target_bits, address);
            let name = value_name(g);
            crate::builtins::lower_named_call(self, call, &name, &base_identifier(&name), &args)?;
            // The named call defined the call's value; each candidate gives
            // its own to the join instead.
            let r = match (ret, self.vals.remove(&call)) {
                (Some(t), Some(Lowered::Scalar(v))) => Some(self.coerce(v, t)),
                (Some(_), _) => return self.unsupported(format!("a call through a pointer to `{}` without a result", base_identifier(&name))),
                (None, _) => None,
            };
            self.f.set_terminator(self.cur, Terminator::Jump(BlockCall { block: join, args: r.into_iter().collect() }), self.cur_loc);
            self.cur = else_b;
        }
        // No function of this type, defined or not, has this address (null,
        // a data pointer, an address made by arithmetic): the call jumps
        // nowhere. That is a
        // violation in every engine, and nothing after it is executed, so
        // the engines neither assume the pointer is one of the functions
        // nor report what follows a call that cannot happen.
        self.emit(InstKind::InvalidCall { target }, None);
        self.f.set_terminator(self.cur, Terminator::Unreachable, self.cur_loc);
        self.cur = join;
        if let Some(r) = result {
            self.vals.insert(call, Lowered::Scalar(r));
        }
        Ok(())
    }

    /// The KIR type a callee gives its parameter: pointer parameters of
    /// kernels are global, of device functions generic (in CUDA).
    pub(super) unsafe fn callee_param_shape(&mut self, callee: LLVMValueRef, p: LLVMValueRef) -> Result<Shape> {
        let ty = LLVMTypeOf(p);
        if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind {
            let space = match self.cx.spaces.space(LLVMGetPointerAddressSpace(ty)) {
                Some(s) => s,
                None if !LLVMGetEnumAttributeAtIndex(callee, param_index(callee, p) + 1, self.cx.byval_kind).is_null() => {
                    MemSpace::Private
                }
                None if self.cx.kernels.contains(&callee) => MemSpace::Global,
                None => MemSpace::Generic,
            };
            return Ok(Shape::Scalar(Type::Ptr(space)));
        }
        self.shape_of_type(ty, None)
    }

    pub(super) unsafe fn lower_llvm_intrinsic(&mut self, call: LLVMValueRef, name: &str, args: &[LLVMValueRef]) -> Result<()> {
        crate::builtins::lower_llvm_intrinsic(self, call, name, args)
    }
}

/// Accessors the builtin tables (`builtins.rs`) use.
pub(crate) trait CallLowering {
    unsafe fn arg_scalar(&mut self, v: LLVMValueRef) -> Result<ValueId>;
    unsafe fn arg_lanes(&mut self, v: LLVMValueRef) -> Result<Vec<ValueId>>;
    unsafe fn result_type(&mut self, call: LLVMValueRef) -> Result<Option<Type>>;
    /// The lane types of a call returning a vector or struct, `None` for a
    /// scalar or void result.
    unsafe fn result_lanes(&mut self, call: LLVMValueRef) -> Result<Option<Vec<Type>>>;
    fn emit_inst(&mut self, kind: InstKind, result: Option<Type>) -> Option<ValueId>;
    fn define(&mut self, call: LLVMValueRef, value: ValueId);
    fn define_lanes(&mut self, call: LLVMValueRef, values: Vec<ValueId>);
    fn int_const(&mut self, ty: Type, bits: u128) -> ValueId;
    fn coerce_to(&mut self, v: ValueId, ty: Type) -> ValueId;
    fn type_of(&self, v: ValueId) -> Type;
    fn fail<T>(&self, what: String) -> Result<T>;
    /// Announces that the next atomic lowered is block-scoped and made on
    /// `ptr` (the prelude's `__lockstep_block_scoped_atomic(p)` marker).
    unsafe fn expect_block_scoped_atomic(&mut self, ptr: LLVMValueRef) -> Result<()>;
    /// The scope of an atomic made on `ptr`: block when the marker
    /// announced it, the device otherwise. An announced atomic made on
    /// another pointer is unsupported: calling it device-wide would hide
    /// the races between blocks that its scope allows.
    unsafe fn atomic_scope(&mut self, ptr: LLVMValueRef) -> Result<AtomicScope>;
    /// Emits the read of a special register's component `dim` for `call`,
    /// marking it a rank read (`Function::rank_reads`) when it was inlined
    /// from a cooperative-groups rank or size computation.
    unsafe fn emit_special_register(&mut self, call: LLVMValueRef, var: BuiltinVar, dim: u8) -> ValueId;
}

impl CallLowering for FnLower<'_> {
    unsafe fn emit_special_register(&mut self, call: LLVMValueRef, var: BuiltinVar, dim: u8) -> ValueId {
        let (inst, value) = self.f.append_inst(self.cur, InstKind::Builtin { var, dim }, Some(Type::I32), self.cur_loc);
        if dim > 0 && super::inline_origin::in_cooperative_groups_rank(call) {
            self.f.rank_reads.set(inst, true);
        }
        value.expect("a builtin read defines a value")
    }
    unsafe fn expect_block_scoped_atomic(&mut self, ptr: LLVMValueRef) -> Result<()> {
        if self.pending_block_scope.is_some() {
            return self.unsupported("a block-scoped atomic whose operation does not follow it");
        }
        self.pending_block_scope = Some(without_space_casts(ptr));
        Ok(())
    }
    unsafe fn atomic_scope(&mut self, ptr: LLVMValueRef) -> Result<AtomicScope> {
        match self.pending_block_scope.take() {
            None => Ok(AtomicScope::Device),
            Some(p) if p == without_space_casts(ptr) => Ok(AtomicScope::Block),
            Some(_) => self.unsupported("a block-scoped atomic whose operation does not follow it"),
        }
    }
    unsafe fn arg_scalar(&mut self, v: LLVMValueRef) -> Result<ValueId> {
        self.scalar(v)
    }
    unsafe fn arg_lanes(&mut self, v: LLVMValueRef) -> Result<Vec<ValueId>> {
        self.lanes(v)
    }
    unsafe fn result_type(&mut self, call: LLVMValueRef) -> Result<Option<Type>> {
        match self.shape_of_value(call)? {
            Shape::Void => Ok(None),
            Shape::Scalar(t) => Ok(Some(t)),
            Shape::Lanes(_) => self.unsupported("a builtin returning a vector or struct"),
        }
    }
    unsafe fn result_lanes(&mut self, call: LLVMValueRef) -> Result<Option<Vec<Type>>> {
        Ok(match self.shape_of_value(call)? {
            Shape::Lanes(l) => Some(l.into_iter().map(|(t, _)| t).collect()),
            _ => None,
        })
    }
    fn emit_inst(&mut self, kind: InstKind, result: Option<Type>) -> Option<ValueId> {
        self.emit(kind, result)
    }
    fn define(&mut self, call: LLVMValueRef, value: ValueId) {
        self.vals.insert(call, Lowered::Scalar(value));
    }
    fn define_lanes(&mut self, call: LLVMValueRef, values: Vec<ValueId>) {
        self.vals.insert(call, Lowered::Lanes(values));
    }
    fn int_const(&mut self, ty: Type, bits: u128) -> ValueId {
        self.const_int(ty, bits)
    }
    fn coerce_to(&mut self, v: ValueId, ty: Type) -> ValueId {
        self.coerce(v, ty)
    }
    fn type_of(&self, v: ValueId) -> Type {
        self.f.value_type(v)
    }
    fn fail<T>(&self, what: String) -> Result<T> {
        self.unsupported(what)
    }
}
