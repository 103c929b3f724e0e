//! Hand-built modules shared by the integration tests.

#![allow(dead_code)]

use lockstep_kir::*;

pub fn loc(file: FileId, line: u32, col: u32) -> Option<SrcLoc> {
    Some(SrcLoc { file, line, col })
}

/// Appends an instruction that defines a value and returns the value.
pub fn val(f: &mut Function, b: BlockId, kind: InstKind, ty: Type) -> ValueId {
    f.append_inst(b, kind, Some(ty), None).1.unwrap()
}

/// Appends an instruction that defines no value.
pub fn stmt(f: &mut Function, b: BlockId, kind: InstKind) -> InstId {
    f.append_inst(b, kind, None, None).0
}

/// A device function `helper(x: i32, g: ptr.generic) -> i32` returning `x + 1`,
/// with a postcondition on its return value.
fn helper(file: FileId) -> Function {
    let mut f = Function::new("helper", "_Z6helperiPv", false);
    f.ret = Some(Type::I32);
    f.loc = loc(file, 1, 1);
    let x = f.add_param("x", Type::I32, None);
    let _g = f.add_param("g", Type::Ptr(MemSpace::Generic), None);
    let b = f.entry;
    let one = f.const_int(Type::I32, 1);
    let sum = val(&mut f, b, InstKind::Binary { op: BinOp::Add, lhs: x, rhs: one }, Type::I32);
    f.values[sum].name = Some("sum".into());
    let rv = val(&mut f, b, InstKind::AnnotValue { func: AnnotFn::ReturnVal, args: vec![] }, Type::I32);
    let same = val(&mut f, b, InstKind::Icmp { cc: IntCC::Eq, lhs: rv, rhs: sum }, Type::BOOL);
    stmt(&mut f, b, InstKind::Annot { kind: AnnotKind::Ensures, args: vec![same] });
    f.set_terminator(b, Terminator::Return(Some(sum)), loc(file, 2, 3));
    f
}

/// A device function with a counting loop: block parameters, a back edge and
/// a value that flows around it.
fn counter(file: FileId) -> Function {
    let mut f = Function::new("count", "count", false);
    f.ret = Some(Type::I32);
    let n = f.add_param("n", Type::I32, None);
    let entry = f.entry;
    let header = f.add_block();
    let body = f.add_block();
    let exit = f.add_block();
    let zero = f.const_int(Type::I32, 0);
    let one = f.const_int(Type::I32, 1);
    f.set_terminator(entry, Terminator::Jump(BlockCall { block: header, args: vec![zero] }), None);
    let i = f.add_block_param(header, Type::I32);
    f.values[i].name = Some("i".into());
    let c = val(&mut f, header, InstKind::Icmp { cc: IntCC::Slt, lhs: i, rhs: n }, Type::BOOL);
    f.set_terminator(
        header,
        Terminator::Branch {
            cond: c,
            then_dest: BlockCall { block: body, args: vec![] },
            else_dest: BlockCall { block: exit, args: vec![i] },
        },
        loc(file, 10, 5),
    );
    let next = val(&mut f, body, InstKind::Binary { op: BinOp::Add, lhs: i, rhs: one }, Type::I32);
    stmt(&mut f, body, InstKind::Annot { kind: AnnotKind::Invariant, args: vec![c] });
    f.set_terminator(body, Terminator::Jump(BlockCall { block: header, args: vec![next] }), None);
    let r = f.add_block_param(exit, Type::I32);
    f.set_terminator(exit, Terminator::Return(Some(r)), None);
    f
}

/// A module that uses every instruction kind, every type, every kind of
/// value definition, every terminator, block parameters, globals, locals,
/// names with odd characters, source locations and calls between functions.
/// It is well formed: the verifier must accept it.
pub fn everything() -> Module {
    let mut m = Module::new(Language::Cuda);
    let file = m.file("kernels/k.cu");
    let header = m.file("odd \"dir\"\\name\n\t.h");
    let tile = m.globals.push(MemObject {
        name: "tile".into(),
        space: MemSpace::Shared,
        size: Some(1024),
        align: 4,
        elem_size: Some(4),
        init: None,
        loc: loc(file, 3, 12),
    });
    let table = m.globals.push(MemObject {
        name: "table".into(),
        space: MemSpace::Constant,
        size: Some(4),
        align: 4,
        elem_size: Some(1),
        init: Some(vec![0, 1, 0xfe, 0xff]),
        loc: None,
    });
    m.globals.push(MemObject {
        name: "dyn_smem".into(),
        space: MemSpace::Shared,
        size: None,
        align: 16,
        elem_size: None,
        init: Some(vec![]),
        loc: loc(header, 4, 1),
    });
    let helper_id = m.functions.push(helper(file));
    let counter_id = m.functions.push(counter(file));

    let mut f = Function::new("kernel", "_Z6kernelPfifDhdbcxPiS1_S1_PvPvo", true);
    f.loc = loc(file, 20, 1);
    let a = f.add_param(
        "a",
        Type::Ptr(MemSpace::Global),
        Some(PointeeInfo { elem_size: Some(4), elem_type: Some("float".into()), is_const: true, is_restrict: true }),
    );
    let n = f.add_param("n", Type::I32, None);
    let x = f.add_param("x", Type::Float(32), Some(PointeeInfo::default()));
    // (A pointee on a float is odd but printable; it is removed below so the
    // module stays valid.)
    f.params[2].pointee = None;
    let h = f.add_param("h", Type::Float(16), None);
    let d = f.add_param("d", Type::Float(64), None);
    let flag = f.add_param("flag", Type::BOOL, None);
    let byte = f.add_param("byte", Type::I8, None);
    let wide = f.add_param("wide", Type::I64, None);
    let sp = f.add_param("sp", Type::Ptr(MemSpace::Shared), None);
    let cp = f.add_param(
        "cp",
        Type::Ptr(MemSpace::Constant),
        Some(PointeeInfo { elem_size: Some(8), ..Default::default() }),
    );
    let pp = f.add_param("pp", Type::Ptr(MemSpace::Private), None);
    let gp = f.add_param("gp", Type::Ptr(MemSpace::Generic), None);
    let huge = f.add_param("huge", Type::Int(128), None);
    // A parameter whose value carries no name, and one whose names differ.
    f.values[huge].name = None;
    f.values[gp].name = Some("gp.value".into());
    let _ = (h, d, byte, wide, cp, pp, flag);

    let arr = f.locals.push(MemObject {
        name: "arr".into(),
        space: MemSpace::Private,
        size: Some(64),
        align: 16,
        elem_size: Some(4),
        init: None,
        loc: loc(file, 21, 9),
    });

    // Values defined by no instruction.
    let c7 = f.const_int(Type::I32, 7);
    let minus_one = f.const_int(Type::I64, u128::MAX);
    let big = f.const_int(Type::Int(128), u128::MAX - 5);
    let fone = f.make_value(Type::Float(32), ValueDef::Const(0x3f80_0000));
    let dhalf = f.make_value(Type::Float(64), ValueDef::Const(0x3fe0_0000_0000_0000));
    let hone = f.make_value(Type::Float(16), ValueDef::Const(0x3c00));
    let u = f.make_value(Type::I32, ValueDef::Undef);
    f.values[u].name = Some("garbage".into());
    let null = f.make_value(Type::Ptr(MemSpace::Global), ValueDef::Null);
    let tile_addr = f.make_value(Type::Ptr(MemSpace::Shared), ValueDef::GlobalAddr(tile));
    let table_addr = f.make_value(Type::Ptr(MemSpace::Generic), ValueDef::GlobalAddr(table));
    let arr_addr = f.make_value(Type::Ptr(MemSpace::Private), ValueDef::LocalAddr(arr));
    let _ = (minus_one, big, dhalf, hone, table_addr, null);

    let b0 = f.entry;
    let b1 = f.add_block();
    let b2 = f.add_block();
    let b3 = f.add_block();
    let b4 = f.add_block();

    // Builtins, in every dimension.
    let tid = val(&mut f, b0, InstKind::Builtin { var: BuiltinVar::LocalId, dim: 0 }, Type::I32);
    f.values[tid].name = Some("tid".into());
    f.inst_locs.set(f.blocks[b0].insts[0], loc(file, 22, 15));
    for (i, var) in BuiltinVar::ALL.iter().enumerate() {
        val(&mut f, b0, InstKind::Builtin { var: *var, dim: (i % 3) as u8 }, Type::I32);
    }
    for op in BinOp::ALL {
        val(&mut f, b0, InstKind::Binary { op: *op, lhs: tid, rhs: c7 }, Type::I32);
    }
    let mut cond = tid;
    for cc in IntCC::ALL {
        cond = val(&mut f, b0, InstKind::Icmp { cc: *cc, lhs: tid, rhs: n }, Type::BOOL);
    }
    val(&mut f, b0, InstKind::Icmp { cc: IntCC::Ne, lhs: a, rhs: null }, Type::BOOL);
    let sel = val(&mut f, b0, InstKind::Select { cond, then_value: tid, else_value: u }, Type::I32);
    let off = val(&mut f, b0, InstKind::Cast { op: CastOp::Sext, arg: sel }, Type::I64);
    let casts = [
        (CastOp::Zext, tid, Type::I64),
        (CastOp::Trunc, tid, Type::I8),
        (CastOp::FpToUi, x, Type::I32),
        (CastOp::FpToSi, x, Type::I32),
        (CastOp::UiToFp, tid, Type::Float(32)),
        (CastOp::SiToFp, tid, Type::Float(64)),
        (CastOp::FpExt, x, Type::Float(64)),
        (CastOp::FpTrunc, x, Type::Float(16)),
        (CastOp::Bitcast, tid, Type::Float(32)),
        (CastOp::PtrToInt, a, Type::I64),
        (CastOp::IntToPtr, wide, Type::Ptr(MemSpace::Global)),
        (CastOp::AddrSpaceCast, sp, Type::Ptr(MemSpace::Generic)),
    ];
    for (op, arg, ty) in casts {
        val(&mut f, b0, InstKind::Cast { op, arg }, ty);
    }
    for op in FloatOp::ALL {
        let args = if *op == FloatOp::Neg { vec![x] } else { vec![x, fone] };
        val(&mut f, b0, InstKind::Float { op: *op, args }, Type::Float(32));
    }
    for cc in FloatCC::ALL {
        val(&mut f, b0, InstKind::Fcmp { cc: *cc, lhs: x, rhs: fone }, Type::BOOL);
    }
    let elem = val(&mut f, b0, InstKind::PtrAdd { base: a, offset: off }, Type::Ptr(MemSpace::Global));
    let loaded = val(&mut f, b0, InstKind::Load { ptr: elem, align: 4 }, Type::Float(32));
    f.values[loaded].name = Some("a[i]".into());
    f.append_inst(b0, InstKind::Store { ptr: elem, value: loaded, align: 4 }, None, loc(header, 7, 2));
    let slot = val(&mut f, b0, InstKind::PtrAdd { base: tile_addr, offset: off }, Type::Ptr(MemSpace::Shared));
    stmt(&mut f, b0, InstKind::Store { ptr: slot, value: tid, align: 4 });
    for op in AtomicOp::ALL {
        let (value, ty) = match op {
            AtomicOp::FAdd | AtomicOp::FSub => (x, Type::Float(32)),
            _ => (tid, Type::I32),
        };
        val(&mut f, b0, InstKind::Atomic { op: *op, ptr: slot, value, scope: AtomicScope::Device }, ty);
    }
    val(&mut f, b0, InstKind::Atomic { op: AtomicOp::Add, ptr: slot, value: tid, scope: AtomicScope::Block }, Type::I32);
    val(&mut f, b0, InstKind::CmpXchg { ptr: slot, expected: tid, new: c7, scope: AtomicScope::Device }, Type::I32);
    val(&mut f, b0, InstKind::CmpXchg { ptr: slot, expected: tid, new: c7, scope: AtomicScope::Block }, Type::I32);
    stmt(&mut f, b0, InstKind::MemCopy { dst: arr_addr, src: a, len: wide });
    stmt(&mut f, b0, InstKind::MemSet { dst: arr_addr, byte, len: wide });
    for (i, scope) in BarrierScope::ALL.iter().enumerate() {
        let fence = FenceFlags { shared: i != 1, global: i != 0 };
        stmt(&mut f, b0, InstKind::Barrier { scope: *scope, fence, mask: None });
    }
    for (shared, global) in [(false, false), (true, false), (false, true), (true, true)] {
        stmt(&mut f, b0, InstKind::Fence { fence: FenceFlags { shared, global } });
    }
    let mask = val(&mut f, b0, InstKind::Warp { op: WarpOp::ActiveMask, args: vec![] }, Type::I32);
    stmt(&mut f, b0, InstKind::Barrier { scope: BarrierScope::Warp, fence: FenceFlags::default(), mask: Some(mask) });
    val(&mut f, b0, InstKind::Warp { op: WarpOp::LaneId, args: vec![] }, Type::I32);
    val(&mut f, b0, InstKind::Warp { op: WarpOp::Shfl, args: vec![mask, x, c7, c7] }, Type::Float(32));
    for op in [WarpOp::ShflUp, WarpOp::ShflDown, WarpOp::ShflXor] {
        val(&mut f, b0, InstKind::Warp { op, args: vec![mask, tid, c7] }, Type::I32);
    }
    for op in [WarpOp::Ballot, WarpOp::All, WarpOp::Any] {
        val(&mut f, b0, InstKind::Warp { op, args: vec![mask, tid] }, Type::I32);
    }
    let called = val(&mut f, b0, InstKind::Call { callee: helper_id, args: vec![tid, gp] }, Type::I32);
    stmt(&mut f, b0, InstKind::Call { callee: helper_id, args: vec![called, gp] });
    val(&mut f, b0, InstKind::Call { callee: counter_id, args: vec![n] }, Type::I32);
    val(&mut f, b0, InstKind::CallExternal { name: "sinf".into(), args: vec![x] }, Type::Float(32));
    stmt(&mut f, b0, InstKind::CallExternal { name: "__trap".into(), args: vec![] });
    for kind in AnnotKind::ALL {
        let args = match kind {
            AnnotKind::BarrierInvariant | AnnotKind::BarrierInvariantBinary => vec![cond, tid, c7],
            AnnotKind::NoRead
            | AnnotKind::NoWrite
            | AnnotKind::FreshArray
            | AnnotKind::WritesTo
            | AnnotKind::ReadsFrom => vec![a],
            _ => vec![cond],
        };
        stmt(&mut f, b0, InstKind::Annot { kind: *kind, args });
    }
    for func in AnnotFn::ALL {
        let (args, ty) = match func {
            AnnotFn::Read | AnnotFn::Write => (vec![a], Type::BOOL),
            AnnotFn::ReadOffset | AnnotFn::WriteOffset | AnnotFn::PtrOffset => (vec![a], Type::I64),
            AnnotFn::PtrBase => (vec![a], Type::Ptr(MemSpace::Global)),
            AnnotFn::OtherInt => (vec![tid], Type::I32),
            AnnotFn::OtherPtr => (vec![a], Type::Ptr(MemSpace::Global)),
            AnnotFn::OtherBool | AnnotFn::UniformBool | AnnotFn::DistinctBool => (vec![cond], Type::BOOL),
            AnnotFn::UniformInt | AnnotFn::DistinctInt => (vec![tid], Type::BOOL),
            AnnotFn::Enabled => (vec![], Type::BOOL),
            AnnotFn::Implies => (vec![cond, cond], Type::BOOL),
            // The kernel returns nothing; `return_val` appears in `helper`.
            AnnotFn::ReturnVal => continue,
            AnnotFn::Old => (vec![n], Type::I32),
            AnnotFn::SameGroup => (vec![], Type::BOOL),
            AnnotFn::AtomicHasTakenValue => (vec![a, wide, n], Type::BOOL),
        };
        val(&mut f, b0, InstKind::AnnotValue { func: *func, args }, ty);
    }
    val(&mut f, b0, InstKind::Havoc, Type::Int(128));
    stmt(&mut f, b0, InstKind::InvalidCall { target: a });
    stmt(&mut f, b0, InstKind::Nop { what: "printf(\"%d\\n\")".into() });
    val(&mut f, b0, InstKind::Nop { what: "printf".into() }, Type::I32);
    f.set_terminator(
        b0,
        Terminator::Branch {
            cond,
            then_dest: BlockCall { block: b1, args: vec![tid, x] },
            else_dest: BlockCall { block: b2, args: vec![] },
        },
        loc(file, 30, 3),
    );

    let p0 = f.add_block_param(b1, Type::I32);
    let p1 = f.add_block_param(b1, Type::Float(32));
    f.values[p1].name = Some("value".into());
    let sum = val(&mut f, b1, InstKind::Binary { op: BinOp::Add, lhs: p0, rhs: c7 }, Type::I32);
    let _ = p1;
    f.set_terminator(b1, Terminator::Jump(BlockCall { block: b3, args: vec![sum] }), loc(file, 31, 1));
    f.set_terminator(b2, Terminator::Return(None), None);
    f.add_block_param(b3, Type::I32);
    f.set_terminator(b3, Terminator::Unreachable, None);
    // b4 is unreachable from the entry.
    f.set_terminator(b4, Terminator::Jump(BlockCall { block: b3, args: vec![tid] }), None);

    m.functions.push(f);
    m
}
