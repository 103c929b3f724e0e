//! Printing, parsing and printing again gives the same text.

mod common;

use lockstep_kir::*;

/// Asserts `print(parse(print(m))) == print(m)` and returns the text.
fn assert_round_trip(m: &Module) -> String {
    let text = print_module(m);
    let parsed = match parse_module(&text) {
        Ok(p) => p,
        Err(e) => panic!("{e}\n--- text ---\n{}", numbered(&text)),
    };
    let again = print_module(&parsed);
    assert_eq!(text, again, "round trip changed the text");
    text
}

fn numbered(text: &str) -> String {
    text.lines().enumerate().map(|(i, l)| format!("{:4} {l}\n", i + 1)).collect()
}

#[test]
fn everything_round_trips() {
    let m = common::everything();
    let text = assert_round_trip(&m);
    // Spot checks of the syntax.
    for needle in [
        "language cuda",
        "file1 = \"odd \\\"dir\\\"\\\\name\\n\\t.h\"",
        "global1 = constant \"table\" size 4 align 4 elem_size 1 init x\"0001feff\"",
        "global2 = shared \"dyn_smem\" align 16 init x\"\" @file1:4:1",
        "(v0 \"a\": ptr.global pointee(elem_size 4 elem_type \"float\" const restrict), v1 \"n\": i32",
        "v11 \"gp.value\": ptr.generic name \"gp\"",
        "v12: i128 name \"huge\"",
        "  local0 = private \"arr\" size 64 align 16 elem_size 4 @file0:21:9",
        "v19 \"garbage\": i32 = undef",
        "  invalid_call v0",
        "= null",
        "= global_addr global0",
        "= local_addr local0",
        "v24 \"tid\": i32 = builtin local_id x @file0:22:15",
        "store v",
        "align 4 @file1:7:2",
        "barrier group shared",
        "barrier grid global",
        "barrier warp shared global",
        "barrier warp mask v",
        "  fence\n",
        "warp lane_id\n",
        "call fn0(v24, v11)",
        "call_external \"__trap\"()",
        "annot barrier_invariant(",
        "annot_value enabled()",
        "nop \"printf(\\\"%d\\\\n\\\")\"",
        "br v",
        "block1(v",
        "unreachable",
        "return\n",
        "-> i32 entry block0 @file0:1:1 {",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{}", numbered(&text));
    }
}

#[test]
fn the_reference_module_is_valid() {
    let m = common::everything();
    if let Err(errors) = verify_module(&m) {
        let text = print_module(&m);
        panic!(
            "{}\n--- text ---\n{}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"),
            numbered(&text)
        );
    }
    // The parsed copy is valid too.
    let parsed = parse_module(&print_module(&m)).unwrap();
    verify_module(&parsed).unwrap();
}

#[test]
fn parsed_module_has_same_structure() {
    let m = common::everything();
    let p = parse_module(&print_module(&m)).unwrap();
    assert_eq!(p.language, m.language);
    assert_eq!(p.files, m.files);
    assert_eq!(p.globals, m.globals);
    assert_eq!(p.functions.len(), m.functions.len());
    for (a, b) in m.functions.values().zip(p.functions.values()) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.link_name, b.link_name);
        assert_eq!(a.is_kernel, b.is_kernel);
        assert_eq!(a.params, b.params);
        assert_eq!(a.ret, b.ret);
        assert_eq!(a.entry, b.entry);
        assert_eq!(a.loc, b.loc);
        assert_eq!(a.locals, b.locals);
        // Every builder above appends instructions in block order, so even
        // the instruction numbering survives.
        assert_eq!(a.blocks, b.blocks);
        assert_eq!(a.insts, b.insts);
        assert_eq!(a.values, b.values);
        for i in a.insts.keys() {
            assert_eq!(a.inst_locs[i], b.inst_locs[i]);
        }
        for blk in a.blocks.keys() {
            assert_eq!(a.term_locs[blk], b.term_locs[blk]);
        }
    }
}

#[test]
fn empty_and_minimal_modules_round_trip() {
    assert_eq!(assert_round_trip(&Module::new(Language::OpenCl)), "language opencl\n");
    let mut m = Module::new(Language::Cuda);
    m.functions.push(Function::new("k", "k", true));
    assert_eq!(
        assert_round_trip(&m),
        "language cuda\n\nkernel fn0 \"k\" link \"k\" () entry block0 {\nblock0:\n  return\n}\n"
    );
}

#[test]
fn every_type_round_trips() {
    let mut m = Module::new(Language::Cuda);
    let mut f = Function::new("types", "types", false);
    let mut types = vec![Type::Int(1), Type::Int(8), Type::Int(16), Type::Int(32), Type::Int(64), Type::Int(128)];
    types.extend([Type::Float(16), Type::Float(32), Type::Float(64)]);
    types.extend(MemSpace::ALL.iter().map(|s| Type::Ptr(*s)));
    for (i, ty) in types.iter().enumerate() {
        f.add_param(format!("p{i}"), *ty, None);
        let b = f.add_block();
        f.add_block_param(b, *ty);
    }
    m.functions.push(f);
    let text = assert_round_trip(&m);
    for ty in &types {
        assert!(text.contains(&format!(": {ty}")), "{ty} not printed");
    }
}

#[test]
fn constants_print_in_canonical_form() {
    let text = "language cuda
kernel fn0 \"k\" link \"k\" () entry block0 {
  v0: i8 = const -1
  v1: i32 = const 0x10
  v2: i1 = const 1
  v3: f32 = const 0x40490fdb
  v4: i128 = const -170141183460469231731687303715884105728
block0:
  return
}
";
    let m = parse_module(text).unwrap();
    let printed = print_module(&m);
    assert!(printed.contains("v0: i8 = const 255\n"), "{printed}");
    assert!(printed.contains("v1: i32 = const 16\n"));
    assert!(printed.contains("v3: f32 = const 0x40490fdb ; 3.1415927\n"));
    assert!(printed.contains("v4: i128 = const 170141183460469231731687303715884105728\n"));
    assert_round_trip(&m);
}

#[test]
fn hand_written_text_is_renumbered_densely() {
    // Gaps, blocks out of order, a forward reference to a later block and a
    // call to a function defined later, comments and blank lines.
    let text = "
; a comment
language opencl

kernel fn7 \"k\" link \"k\" (v10 \"n\": i32) entry block5 {
block9(v40: i32):   ; the exit
  return
block5:
  v30: i32 = call fn3(v10)
  v31: i1 = icmp eq v30, v12
  br v31, block9(v30), block9(v12)

  v12: i32 = const 3
}

device fn3 \"f\" link \"f\" (v2: i32) -> i32 entry block0 {
block0:
  return v2
}
";
    let m = parse_module(text).unwrap();
    verify_module(&m).unwrap();
    let printed = print_module(&m);
    let expected = "language opencl

device fn0 \"f\" link \"f\" (v0: i32 name \"\") -> i32 entry block0 {
block0:
  return v0
}

kernel fn1 \"k\" link \"k\" (v0 \"n\": i32) entry block0 {
  v1: i32 = const 3
block0:
  v2: i32 = call fn0(v0)
  v3: i1 = icmp eq v2, v1
  br v3, block1(v2), block1(v1)
block1(v4: i32):
  return
}
";
    assert_eq!(printed, expected);
    assert_round_trip(&m);
}

#[test]
fn malformed_ir_prints_without_panicking() {
    let mut m = common::everything();
    let f = &mut m.functions[FuncId::new(2)];
    let b0 = f.entry;
    // An orphan value, a detached instruction, references out of range.
    f.make_value(Type::I32, ValueDef::Inst(InstId::new(9999)));
    f.make_value(Type::I32, ValueDef::Param(77));
    f.make_value(Type::I32, ValueDef::BlockParam(BlockId::new(1), 5));
    f.insts.push(InstData { kind: InstKind::Havoc, result: None });
    f.blocks[b0].insts.push(InstId::new(123_456));
    f.blocks[b0].term = Terminator::Jump(BlockCall { block: BlockId::new(99), args: vec![ValueId::new(5000)] });
    let text = print_module(&m);
    assert!(text.contains("= orphan inst9999"));
    assert!(text.contains("= orphan param 77"));
    assert!(text.contains("= orphan block1 param 5"));
    assert!(text.contains("; missing instruction inst123456"));
    assert!(text.contains("jump block99(v5000)"));
    // Orphans parse back as written.
    let orphan_only = "language cuda
device fn0 \"f\" link \"f\" () entry block0 {
  v0: i32 = orphan inst4
  v1: i32 = orphan param 2
  v2: i32 = orphan block0 param 1
block0:
  return
}
";
    let parsed = parse_module(orphan_only).unwrap();
    assert_eq!(print_module(&parsed), orphan_only.replace("language cuda\n", "language cuda\n\n"));
    assert!(verify_module(&parsed).is_err());
}

#[test]
fn names_round_trip_through_the_ir_helpers() {
    for op in BinOp::ALL {
        assert_eq!(BinOp::from_name(op.name()), Some(*op));
    }
    for cc in IntCC::ALL {
        assert_eq!(IntCC::from_name(cc.name()), Some(*cc));
    }
    for op in FloatOp::ALL {
        assert_eq!(FloatOp::from_name(op.name()), Some(*op));
    }
    for cc in FloatCC::ALL {
        assert_eq!(FloatCC::from_name(cc.name()), Some(*cc));
    }
    for op in CastOp::ALL {
        assert_eq!(CastOp::from_name(op.name()), Some(*op));
    }
    for op in AtomicOp::ALL {
        assert_eq!(AtomicOp::from_name(op.name()), Some(*op));
    }
    for s in BarrierScope::ALL {
        assert_eq!(BarrierScope::from_name(s.name()), Some(*s));
    }
    for v in BuiltinVar::ALL {
        assert_eq!(BuiltinVar::from_name(v.name()), Some(*v));
    }
    for op in WarpOp::ALL {
        assert_eq!(WarpOp::from_name(op.name()), Some(*op));
    }
    for k in AnnotKind::ALL {
        assert_eq!(AnnotKind::from_name(k.name()), Some(*k));
    }
    for f in AnnotFn::ALL {
        assert_eq!(AnnotFn::from_name(f.name()), Some(*f));
    }
    assert_eq!(Language::from_name("opencl"), Some(Language::OpenCl));
    // Integer and float operator names never collide, so a bare opcode is
    // never ambiguous in the text form.
    for op in BinOp::ALL {
        assert!(FloatOp::from_name(op.name()).is_none());
        assert!(CastOp::from_name(op.name()).is_none());
    }
}

#[test]
fn no_wrap_flags_round_trip_and_are_checked() {
    let text = "language cuda

kernel fn0 \"k\" link \"k\" (v0 \"n\": i32, v1 \"m\": i32) entry block0 {
block0:
  v2: i32 = mul nsw v0, v1
  v3: i32 = add nuw nsw v2, v0
  v4: i32 = shl nuw v3, v1
  v5: i32 = sub v4, v0
  return
}
";
    let m = parse_module(text).unwrap();
    verify_module(&m).unwrap();
    let f = &m.functions[FuncId::new(0)];
    let flags: Vec<NoWrap> = f.insts.keys().map(|i| f.no_wrap_of(i)).collect();
    let (nsw, both, nuw) = (
        NoWrap { signed: true, unsigned: false },
        NoWrap { signed: true, unsigned: true },
        NoWrap { signed: false, unsigned: true },
    );
    assert_eq!(flags, vec![nsw, both, nuw, NoWrap::NONE]);
    assert_eq!(assert_round_trip(&m), text);

    // Only `add`, `sub`, `mul` and `shl` take the flags.
    let bad = text.replace("shl nuw", "lshr nuw");
    let e = parse_module(&bad).unwrap_err().to_string();
    assert!(e.contains("takes no `nuw`/`nsw` flags"), "{e}");

    // A flag left on an instruction that is no longer such an operation
    // is an error of the verifier (and `no_wrap_of` ignores it).
    let mut m = m;
    let f = &mut m.functions[FuncId::new(0)];
    let first = f.insts.keys().next().unwrap();
    if let InstKind::Binary { op, .. } = &mut f.insts[first].kind {
        *op = BinOp::UDiv;
    }
    assert_eq!(f.no_wrap_of(first), NoWrap::NONE);
    let errors = verify_module(&m).unwrap_err();
    assert!(errors.iter().any(|e| e.to_string().contains("no-wrap flags")), "{errors:?}");
}

#[test]
fn atomic_scopes_round_trip() {
    let text = "language cuda

kernel fn0 \"k\" link \"k\" (v0 \"p\": ptr.global, v1 \"x\": i32) entry block0 {
block0:
  v2: i32 = atomic add v0, v1
  v3: i32 = atomic.block max v0, v1
  v4: i32 = cmpxchg.block v0, v1, v3
  v5: i32 = cmpxchg v0, v1, v4
  return
}
";
    let m = parse_module(text).unwrap();
    verify_module(&m).unwrap();
    let f = &m.functions[FuncId::new(0)];
    let scopes: Vec<AtomicScope> = f
        .insts
        .values()
        .filter_map(|data| match data.kind {
            InstKind::Atomic { scope, .. } | InstKind::CmpXchg { scope, .. } => Some(scope),
            _ => None,
        })
        .collect();
    assert_eq!(scopes, vec![AtomicScope::Device, AtomicScope::Block, AtomicScope::Block, AtomicScope::Device]);
    assert_eq!(assert_round_trip(&m), text);
}

#[test]
fn rank_reads_round_trip_and_are_checked() {
    let text = "language cuda

kernel fn0 \"k\" link \"k\" () entry block0 {
block0:
  v0: i32 = builtin local_id x
  v1: i32 = builtin local_id y rank
  v2: i32 = builtin local_size z rank
  v3: i32 = builtin group_id y
  return
}
";
    let m = parse_module(text).unwrap();
    verify_module(&m).unwrap();
    let f = &m.functions[FuncId::new(0)];
    let marked: Vec<bool> = f.insts.keys().map(|i| *f.rank_reads.get(i)).collect();
    assert_eq!(marked, vec![false, true, true, false]);
    assert_eq!(assert_round_trip(&m), text);

    // The mark belongs on a read of `y` or `z`: on the `x` read it says
    // something that cannot hold, and the verifier says so.
    let mut m = m;
    let f = &mut m.functions[FuncId::new(0)];
    let first = f.insts.keys().next().unwrap();
    f.rank_reads.set(first, true);
    let errors = verify_module(&m).unwrap_err();
    assert!(errors.iter().any(|e| e.to_string().contains("marked a rank read")), "{errors:?}");
}
