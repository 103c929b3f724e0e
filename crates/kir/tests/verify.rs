//! The verifier accepts well-formed IR and reports every error of broken IR
//! at once.

mod common;

use common::val;
use lockstep_kir::*;

fn messages(m: &Module) -> Vec<String> {
    match verify_module(m) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(|e| e.to_string()).collect(),
    }
}

/// Asserts that each needle occurs in some message, and that there are
/// exactly `count` messages.
fn assert_errors(found: &[String], needles: &[&str], count: usize) {
    let all = found.join("\n");
    for needle in needles {
        assert!(found.iter().any(|m| m.contains(needle)), "no error mentions {needle:?}; errors:\n{all}");
    }
    assert_eq!(found.len(), count, "unexpected number of errors:\n{all}");
}

/// A module with one broken kernel that violates many rules at once.
fn broken() -> Module {
    let mut m = Module::new(Language::Cuda);
    let mut helper = Function::new("helper", "helper", false);
    helper.ret = Some(Type::I32);
    let hx = helper.add_param("x", Type::I32, None);
    let he = helper.entry;
    helper.set_terminator(he, Terminator::Return(Some(hx)), None);
    let helper_id = m.functions.push(helper);

    let mut f = Function::new("broken", "broken", true);
    let n = f.add_param("n", Type::I32, None);
    let p = f.add_param("p", Type::Ptr(MemSpace::Global), None);
    let x = f.add_param("x", Type::Float(32), None);
    let c7 = f.const_int(Type::I32, 7);
    let c64 = f.const_int(Type::I64, 64);
    let b0 = f.entry;
    let b1 = f.add_block();
    let b2 = f.add_block();
    let b3 = f.add_block();

    // inst0: operands of different widths.
    let (i0, _) = f.append_inst(b0, InstKind::Binary { op: BinOp::Add, lhs: n, rhs: c64 }, Some(Type::I32), None);
    // inst1: a comparison that yields i32.
    val(&mut f, b0, InstKind::Icmp { cc: IntCC::Slt, lhs: n, rhs: c7 }, Type::I32);
    // inst2: a select with an i32 condition and arms of different types.
    val(&mut f, b0, InstKind::Select { cond: n, then_value: c7, else_value: x }, Type::I32);
    // inst3: zext that narrows.
    val(&mut f, b0, InstKind::Cast { op: CastOp::Zext, arg: c64 }, Type::I32);
    // inst4: ptradd with an i32 offset.
    val(&mut f, b0, InstKind::PtrAdd { base: p, offset: c7 }, Type::Ptr(MemSpace::Global));
    // inst5: load from an integer.
    val(&mut f, b0, InstKind::Load { ptr: n, align: 4 }, Type::I32);
    // inst6: builtin with dimension 3 and an i64 result.
    val(&mut f, b0, InstKind::Builtin { var: BuiltinVar::LocalId, dim: 3 }, Type::I64);
    // inst7: call with too many arguments and the wrong result type.
    val(&mut f, b0, InstKind::Call { callee: helper_id, args: vec![n, n] }, Type::Float(32));
    // inst8: a store that defines a value.
    f.append_inst(b0, InstKind::Store { ptr: p, value: n, align: 4 }, Some(Type::I32), None);
    // inst9: an operand that does not exist.
    val(&mut f, b0, InstKind::Binary { op: BinOp::Mul, lhs: n, rhs: ValueId::new(9999) }, Type::I32);
    // inst10 uses inst11's result, which comes after it in the same block.
    let later = f.insts.next_key();
    let later_value = f.values.next_key();
    let _ = later;
    let (i10, _) =
        f.append_inst(b0, InstKind::Binary { op: BinOp::Sub, lhs: later_value, rhs: c7 }, Some(Type::I32), None);
    let (_, v11) = f.append_inst(b0, InstKind::Havoc, Some(Type::I32), None);
    // The value for inst10 was allocated first, so make inst10 use inst11's.
    f.insts[i10].kind = InstKind::Binary { op: BinOp::Sub, lhs: v11.unwrap(), rhs: c7 };
    f.set_terminator(
        b0,
        Terminator::Branch {
            // An i32 condition, an argument for a block with no parameters,
            // and an f32 argument for an i32 parameter.
            cond: n,
            then_dest: BlockCall { block: b1, args: vec![c7] },
            else_dest: BlockCall { block: b2, args: vec![x] },
        },
        None,
    );

    let late = val(&mut f, b1, InstKind::Binary { op: BinOp::Add, lhs: n, rhs: c7 }, Type::I32);
    f.set_terminator(b1, Terminator::Jump(BlockCall { block: b3, args: vec![late] }), None);

    f.add_block_param(b2, Type::I32);
    // A use of `late` in a block that block1 does not dominate.
    val(&mut f, b2, InstKind::Binary { op: BinOp::Add, lhs: late, rhs: c7 }, Type::I32);
    // A return with a value from a kernel that returns nothing.
    f.set_terminator(b2, Terminator::Return(Some(c7)), None);

    f.add_block_param(b3, Type::I32);
    f.set_terminator(b3, Terminator::Return(None), None);
    // inst0 also appears in block3.
    f.blocks[b3].insts.push(i0);
    // A value that claims to be inst0's result, and two that claim to be
    // parameters.
    f.make_value(Type::I32, ValueDef::Inst(i0));
    f.make_value(Type::I32, ValueDef::Param(0));
    f.make_value(Type::I32, ValueDef::Param(9));
    // An instruction in no block (which also lacks its result).
    f.insts.push(InstData { kind: InstKind::Havoc, result: None });
    m.functions.push(f);
    m
}

#[test]
fn every_error_is_reported_at_once() {
    let found = messages(&broken());
    let expected = [
        "fn1 `broken`, block0, inst0: add: operands must have one integer type, found i32 and i64",
        "inst1: icmp: result has type i32, expected i1",
        "inst2: select: condition has type i32, not i1",
        "inst2: select: arms have different types i32 and f32",
        "inst3: zext: cannot convert i64 to i32",
        "inst4: ptradd: offset has type i32, not i64",
        "inst5: load: address has type i32, not a pointer",
        "inst6: builtin local_id: dimension 3 is not 0, 1 or 2",
        "inst6: builtin local_id: result has type i64, expected i32",
        "inst7: call fn0: takes 1 operands, found 2",
        "inst7: call fn0: result has type f32, but `helper` returns i32",
        "inst8: store: defines a value but produces none",
        "inst9: operand v9999 does not exist",
        "block0, inst10: use of v",
        "block0: branch condition v0 has type i32, not i1",
        "block0: jump to block1 passes 1 arguments but it has 0 parameters",
        "block0: argument 0 of the jump to block2 is v2 of type f32, but the parameter has type i32",
        "block2, inst13: use of v",
        "block2: return of v3 in a function returning nothing",
        "block3, inst0: instruction appears in both block0 and block3",
        "claims to be the result of inst0",
        "claims to be parameter 0, which is v0",
        "claims to be parameter 9, but there are only 3 parameters",
        "inst14: instruction is in no block",
        "inst14: havoc: must define a value",
    ];
    assert_errors(&found, &expected, expected.len());
}

#[test]
fn errors_carry_their_location() {
    let errors = verify_module(&broken()).unwrap_err();
    let e = &errors[0];
    assert_eq!(e.func, Some(FuncId::new(1)));
    assert_eq!(e.func_name.as_deref(), Some("broken"));
    assert!(errors.iter().all(|e| e.func == Some(FuncId::new(1))));
    let branch = errors.iter().find(|e| e.message.contains("branch condition")).unwrap();
    assert_eq!((branch.block, branch.inst), (Some(BlockId::new(0)), None));
    // `verify_function` gives the same errors for the function alone.
    assert_eq!(verify_function(&broken(), FuncId::new(1)).unwrap_err(), errors);
    verify_function(&broken(), FuncId::new(0)).unwrap();
}

/// Verifies a one-kernel module written in the text form; `body` is the
/// entry block's body (with a terminator).
fn verify_text(body: &str) -> Vec<String> {
    let text = format!(
        "language cuda
global0 = shared \"s\" size 16 align 4
global1 = global \"g\" size 16 align 8 init x\"000102030405060708090a0b0c0d0e0f\"
device fn1 \"f\" link \"f\" (v0: i32) -> i32 entry block0 {{
block0:
  return v0
}}
kernel fn0 \"k\" link \"k\" (v0 \"n\": i32, v1 \"p\": ptr.global, v2 \"x\": f32, v3 \"w\": i64, v4 \"s\": ptr.shared, v5 \"b\": i1) entry block0 {{
  local0 = private \"l\" size 4 align 4
block0:
{body}
}}
"
    );
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    messages(&m)
}

#[test]
fn module_level_errors() {
    let mut m = Module::new(Language::Cuda);
    m.globals.push(MemObject {
        name: "g".into(),
        space: MemSpace::Global,
        size: Some(2),
        align: 3,
        elem_size: None,
        init: Some(vec![0, 1, 2]),
        loc: Some(SrcLoc { file: FileId::new(4), line: 1, col: 1 }),
    });
    let found = messages(&m);
    assert_errors(
        &found,
        &[
            "module: global0 `g`: alignment 3 is not a power of two",
            "module: global0 `g`: 3 bytes of initial contents exceed its size 2",
            "module: global0 `g`: location names unknown file file4",
        ],
        3,
    );
}

#[test]
fn valid_snippets_pass() {
    for body in [
        "  v10: i32 = add v0, v0\n  return",
        "  v10: i1 = icmp eq v1, v1\n  return",
        "  v10: f32 = fneg v2\n  v11: f64 = fpext v10\n  v12: f32 = fptrunc v11\n  return",
        "  v10: i32 = atomic add v4, v0\n  v11: f32 = atomic fadd v1, v2\n  v12: f32 = atomic xchg v1, v2\n  return",
        "  v10: ptr.global = cmpxchg v1, v1, v1\n  return",
        "  v10: ptr.generic = global_addr global0\n  v11: ptr.private = local_addr local0\n  memcpy v11, v10, v3\n  return",
        "  v10: i64 = call fn1(v0)\n  return",
        "  call fn1(v0)\n  return",
        "  annot barrier_invariant_binary(v5, v0, v0)\n  return",
        "  v10: i1 = annot_value implies(v5, v5)\n  annot assert(v10)\n  return",
    ] {
        let found = verify_text(body);
        // `call fn1` returning i64 is the one deliberate mismatch above.
        if body.contains("v10: i64 = call") {
            assert_errors(&found, &["result has type i64, but `f` returns i32"], 1);
        } else {
            assert!(found.is_empty(), "{body}: {found:?}");
        }
    }
}

#[test]
fn instruction_type_rules() {
    let cases: &[(&str, &str)] = &[
        ("  v10: i32 = sext v3\n  return", "sext: cannot convert i64 to i32"),
        ("  v10: i64 = trunc v0\n  return", "trunc: cannot convert i32 to i64"),
        ("  v10: i32 = fptosi v0\n  return", "fptosi: cannot convert i32 to i32"),
        ("  v10: f32 = uitofp v2\n  return", "uitofp: cannot convert f32 to f32"),
        ("  v10: f32 = fpext v2\n  return", "fpext: cannot convert f32 to f32"),
        ("  v10: i64 = bitcast v2\n  return", "bitcast: cannot convert f32 to i64"),
        ("  v10: i64 = ptrtoint v3\n  return", "ptrtoint: cannot convert i64 to i64"),
        ("  v10: ptr.global = inttoptr v1\n  return", "inttoptr: cannot convert ptr.global to ptr.global"),
        ("  v10: ptr.global = addrspacecast v0\n  return", "addrspacecast: cannot convert i32 to ptr.global"),
        ("  v10: f32 = fadd v2\n  return", "fadd: takes 2 operands, found 1"),
        ("  v10: f32 = fadd v0, v0\n  return", "fadd: operands must have one float type, found i32, i32"),
        ("  v10: i1 = fcmp olt v2, v0\n  return", "fcmp: operands must have one float type, found f32 and i32"),
        ("  v10: i32 = icmp eq v0, v0\n  return", "icmp: result has type i32, expected i1"),
        ("  v10: i1 = icmp eq v2, v2\n  return", "icmp: operands must have one integer or pointer type"),
        ("  v10: i32 = atomic add v0, v0\n  return", "atomic add: address has type i32, not a pointer"),
        ("  v10: i32 = atomic fadd v1, v0\n  return", "operand has type i32, which `atomic fadd` does not take"),
        ("  v10: i64 = atomic add v1, v0\n  return", "atomic add: result has type i64, expected i32"),
        (
            "  v10: i32 = cmpxchg v1, v0, v3\n  return",
            "cmpxchg: expected and new values must have one integer or pointer type",
        ),
        ("  memset v1, v2, v3\n  return", "memset: byte has type f32, not an integer"),
        ("  memcpy v1, v0, v3\n  return", "memcpy: source has type i32, not a pointer"),
        ("  v10: i32 = load v1 align 3\n  return", "load: alignment 3 is not a power of two"),
        ("  store v0, v0 align 4\n  return", "store: address has type i32, not a pointer"),
        ("  v10: i32 = warp lane_id v0\n  return", "warp lane_id: takes 0 operands, found 1"),
        ("  v10: f32 = warp shfl v0, v0, v0\n  return", "warp shfl: result has type f32, expected i32"),
        ("  v10: i32 = warp ballot v0\n  return", "warp ballot: takes 2 operands, found 1"),
        ("  annot assert(v0)\n  return", "annot assert: condition has type i32, not i1"),
        ("  annot assume(v5, v5)\n  return", "annot assume: takes 1 operands, found 2"),
        ("  annot no_read(v0)\n  return", "annot no_read: operand has type i32, not a pointer"),
        ("  annot barrier_invariant()\n  return", "annot barrier_invariant: needs the invariant"),
        ("  v10: i1 = annot_value read(v0)\n  return", "annot_value read: operand has type i32, not a pointer"),
        ("  v10: i32 = annot_value enabled()\n  return", "annot_value enabled: result has type i32, expected i1"),
        (
            "  v10: i32 = annot_value return_val()\n  return",
            "annot_value return_val: used in a function that returns nothing",
        ),
        ("  v10: i1 = annot_value other_int(v0)\n  return", "annot_value other_int: result has type i1, expected i32"),
        ("  v10: i32 = call fn1()\n  return", "call fn1: takes 1 operands, found 0"),
        ("  v10: i32 = call fn1(v2)\n  return", "call fn1: argument 0 has type f32, but `f` takes i32"),
        ("  v10: i32 = havoc\n  v11: i32 = add v10, v10 @file0:1:1\n  return", "unknown file"),
        (
            "  v10: ptr.global = global_addr global0\n  return",
            "is the address of global0 in shared memory but has type ptr.global",
        ),
        (
            "  v10: ptr.shared = local_addr local0\n  return",
            "is the address of local0 in private memory but has type ptr.shared",
        ),
        ("  return v0", "return of v0 in a function returning nothing"),
        ("  br v5, block0, block0", "jump to the entry block block0"),
        ("  fence global\n  unreachable", ""),
    ];
    for (body, needle) in cases {
        // An unknown file cannot be parsed; the location case is checked below.
        if needle == &"unknown file" {
            continue;
        }
        let found = verify_text(body);
        if needle.is_empty() {
            assert!(found.is_empty(), "{body}: {found:?}");
            continue;
        }
        let all = found.join("\n");
        assert!(found.iter().any(|m| m.contains(needle)), "{body}: no {needle:?} in\n{all}");
        // Each case breaks one rule; `br` to the entry breaks it twice.
        let expected = if body.starts_with("  br") { 2 } else { 1 };
        assert_eq!(found.len(), expected, "{body}:\n{all}");
    }
}

#[test]
fn bad_constants_and_types() {
    let mut m = Module::new(Language::Cuda);
    let mut f = Function::new("k", "k", true);
    f.make_value(Type::Int(8), ValueDef::Const(300));
    f.make_value(Type::Ptr(MemSpace::Global), ValueDef::Const(0));
    f.make_value(Type::I32, ValueDef::Null);
    f.make_value(Type::Int(0), ValueDef::Undef);
    f.make_value(Type::Float(8), ValueDef::Undef);
    f.make_value(Type::Ptr(MemSpace::Shared), ValueDef::GlobalAddr(GlobalId::new(3)));
    f.inst_locs.set(InstId::new(0), Some(SrcLoc { file: FileId::new(0), line: 1, col: 1 }));
    let e = f.entry;
    f.add_block_param(e, Type::I32);
    f.entry = BlockId::new(0);
    m.functions.push(f);
    let found = messages(&m);
    assert_errors(
        &found,
        &[
            "constant v0 = 300 does not fit in i8",
            "constant v1 has pointer type ptr.global",
            "null v2 has non-pointer type i32",
            "value v3: integer width 0 is not in 1..=128",
            "value v4: float width 8 is not 16, 32 or 64",
            "value v5 is the address of global3, which does not exist",
            "the entry block has parameters",
        ],
        7,
    );
    let mut m2 = Module::new(Language::Cuda);
    let mut g = Function::new("k", "k", true);
    g.entry = BlockId::new(5);
    g.loc = Some(SrcLoc { file: FileId::new(2), line: 1, col: 1 });
    m2.functions.push(g);
    assert_errors(
        &messages(&m2),
        &["entry block block5 does not exist", "the function's location names unknown file file2"],
        2,
    );
}

#[test]
fn dominance_follows_the_cfg() {
    // A use in the join of a diamond of a value defined on one side fails;
    // a value from the dominating head flows to both sides and the join.
    let text = "language cuda
kernel fn0 \"k\" link \"k\" (v0: i32, v1: i1) entry block0 {
block0:
  v2: i32 = add v0, v0
  br v1, block1, block2
block1:
  v3: i32 = add v2, v2
  jump block3
block2:
  v4: i32 = add v2, v2
  jump block3
block3:
  v5: i32 = add v2, v3
  v6: i32 = add v7, v7
  v7: i32 = add v6, v6
  return
block4:
  v8: i32 = add v9, v9
  jump block5
block5:
  v9: i32 = add v0, v0
  v10: i32 = add v8, v8
  return
}
";
    let m = parse_module(text).unwrap();
    let found = messages(&m);
    assert_errors(
        &found,
        &[
            "block3, inst3: use of v3 is not dominated by its definition (inst1 in block1)",
            "block3, inst4: use of v7 is not dominated by its definition (inst5 in block3)",
            // block5 is unreachable: its uses are not checked, but block4's
            // use of its value is not either, since block4 is unreachable too.
        ],
        2,
    );
    let f = &m.functions[FuncId::new(0)];
    let doms = Dominators::compute(f);
    let b = BlockId::new;
    assert!(doms.dominates(b(0), b(3)));
    assert!(!doms.dominates(b(1), b(3)));
    assert_eq!(doms.idom(b(3)), Some(b(0)));
    assert_eq!(doms.idom(b(0)), None);
    assert!(!doms.is_reachable(b(4)));
    assert!(!doms.dominates(b(4), b(5)));
}

/// Only a warp barrier takes a member mask, and the mask is an integer.
#[test]
fn barrier_masks() {
    let mut m = Module::new(Language::Cuda);
    let mut f = Function::new("k", "k", true);
    let n = f.add_param("n", Type::I32, None);
    let x = f.add_param("x", Type::Float(32), None);
    let b0 = f.entry;
    f.append_inst(b0, InstKind::Barrier { scope: BarrierScope::Warp, fence: FenceFlags::default(), mask: Some(n) }, None, None);
    f.append_inst(b0, InstKind::Barrier { scope: BarrierScope::Group, fence: FenceFlags::default(), mask: Some(n) }, None, None);
    f.append_inst(b0, InstKind::Barrier { scope: BarrierScope::Warp, fence: FenceFlags::default(), mask: Some(x) }, None, None);
    f.set_terminator(b0, Terminator::Return(None), None);
    m.functions.push(f);
    assert_errors(&messages(&m), &["a group barrier has a member mask", "mask is not an integer"], 2);
}
