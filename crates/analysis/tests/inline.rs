//! Tests of `inline`: nested calls, several returns, contracts, locals,
//! source locations, recursion, and verification of the result.

mod common;

use common::*;
use lockstep_analysis::{inline_calls, inline_module, InlineError};
use lockstep_kir::{verify_module, AnnotFn, AnnotKind, Function, InstKind, Module, Terminator, ValueDef};

/// Writes `f` back over function `name` of a clone of `m` and verifies it.
fn verify_in_place(m: &Module, name: &str, f: Function) -> Module {
    let mut out = m.clone();
    let (id, _) = func(m, name);
    out.functions[id] = f;
    if let Err(errors) = verify_module(&out) {
        panic!("inlined module does not verify: {errors:?}\n{}", lockstep_kir::print_module(&out));
    }
    out
}

fn count(f: &Function, pred: impl Fn(&InstKind) -> bool) -> usize {
    f.blocks.values().flat_map(|b| &b.insts).filter(|&&i| pred(&f.insts[i].kind)).count()
}

const NESTED: &str = r#"
language cuda
file0 = "nested.cu"
device fn0 "clamp" link "clamp" (v0 "x": i32, v1 "lo": i32, v2 "hi": i32) -> i32 entry block0 @file0:1:1 {
block0:
  v3: i1 = icmp slt v0, v1 @file0:2:7
  br v3, block1, block2 @file0:2:3
block1:
  return v1 @file0:2:15
block2:
  v4: i1 = icmp sgt v0, v2 @file0:3:7
  br v4, block3, block4 @file0:3:3
block3:
  return v2 @file0:3:15
block4:
  return v0 @file0:4:3
}
device fn1 "twice" link "twice" (v0 "p": ptr.global, v1 "i": i32) -> i32 entry block0 @file0:6:1 {
  local0 = private "buf" size 8 align 4
  v2: i32 = const 0
  v3: i32 = const 100
  v4: ptr.private = local_addr local0
block0:
  v5: i32 = call fn0(v1, v2, v3) @file0:7:11
  store v4, v5 align 4 @file0:7:3
  v6: i32 = call fn0(v5, v2, v1) @file0:8:11
  v7: i1 = icmp eq v6, v2 @file0:9:7
  br v7, block1, block2 @file0:9:3
block1:
  return v2 @file0:9:15
block2:
  v8: i32 = load v4 align 4 @file0:10:10
  return v8 @file0:10:3
}
kernel fn2 "k" link "k" (v0 "p": ptr.global) entry block0 @file0:12:1 {
  v1: i32 = const 5
block0:
  v2: i32 = builtin local_id x @file0:13:11
  v3: i32 = call fn1(v0, v2) @file0:14:11
  v4: i32 = call fn1(v0, v3) @file0:15:11
  v5: i64 = sext v4 @file0:16:3
  v6: ptr.global = ptradd v0, v5 @file0:16:3
  store v6, v1 align 4 @file0:16:3
  call fn1(v0, v1) @file0:17:3
  return @file0:18:1
}
"#;

#[test]
fn nested_calls_with_several_returns() {
    let m = module(NESTED);
    let (id, _) = func(&m, "k");
    let inlined = inline_calls(&m, id).expect("inlines");
    // Three calls of `twice`, each with two calls of `clamp`.
    assert_eq!(inlined.calls_inlined, 9);
    let f = inlined.function;
    assert_eq!(count(&f, |k| matches!(k, InstKind::Call { .. })), 0);
    // Each copy of `clamp` keeps its three returns, now jumps.
    assert_eq!(count(&f, |k| matches!(k, InstKind::Store { .. })), 4);
    let returns = f.blocks.values().filter(|b| matches!(b.term, Terminator::Return(_))).count();
    assert_eq!(returns, 1, "only the kernel's own return is left");
    // Every call site has its own copy of `buf`, renamed after the callee.
    assert_eq!(f.locals.len(), 3);
    assert!(f.locals.values().all(|l| l.name == "twice.buf"));
    assert_eq!(f.params.len(), 1);
    assert_eq!(f.params[0].name, "p");
    // Source locations survive: the callee's instructions keep theirs, and
    // the jump into each inlined body carries the call's location.
    let lines: Vec<u32> = f.inst_locs.iter().filter_map(|(_, l)| l.map(|l| l.line)).collect();
    assert!(lines.contains(&2) && lines.contains(&10) && lines.contains(&16));
    let term_lines: Vec<u32> = f.term_locs.iter().filter_map(|(_, l)| l.map(|l| l.line)).collect();
    for line in [7, 8, 14, 15, 17, 2, 3, 4, 9, 10] {
        assert!(term_lines.contains(&line), "no terminator at line {line}");
    }
    let out = verify_in_place(&m, "k", f);
    // The text form of the result parses back.
    let text = lockstep_kir::print_module(&out);
    lockstep_kir::parse_module(&text).expect("reparses");
}

#[test]
fn inline_module_inlines_every_kernel_and_keeps_device_functions() {
    let m = module(NESTED);
    let out = inline_module(&m).expect("inlines");
    verify_module(&out).expect("verifies");
    let (_, twice) = func(&out, "twice");
    assert_eq!(count(twice, |k| matches!(k, InstKind::Call { .. })), 2);
    let (_, k) = func(&out, "k");
    assert_eq!(count(k, |k| matches!(k, InstKind::Call { .. })), 0);
}

#[test]
fn recursion_is_rejected_with_the_function_named() {
    let m = module(
        r#"
language cuda
device fn0 "even" link "even" (v0 "n": i32) -> i32 entry block0 {
block0:
  v1: i32 = call fn1(v0)
  return v1
}
device fn1 "odd" link "odd" (v0 "n": i32) -> i32 entry block0 {
block0:
  v1: i32 = call fn0(v0)
  return v1
}
kernel fn2 "k" link "k" (v0 "n": i32) entry block0 {
block0:
  v1: i32 = call fn0(v0)
  return
}
"#,
    );
    let (id, _) = func(&m, "k");
    let err = inline_calls(&m, id).unwrap_err();
    match &err {
        InlineError::Recursion { function, chain } => {
            assert_eq!(function, "even");
            assert_eq!(chain, &["even", "odd", "even"]);
        }
        other => panic!("unexpected error {other:?}"),
    }
    assert!(err.to_string().contains("`even`"));
    assert!(inline_module(&m).is_err());
}

#[test]
fn contracts_become_assert_before_and_assume_after() {
    let m = module(
        r#"
language cuda
device fn0 "inc" link "inc" (v0 "x": i32) -> i32 entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
block0:
  v3: i1 = icmp sge v0, v1
  annot requires(v3)
  v4: i32 = annot_value return_val()
  v5: i32 = annot_value old(v0)
  v6: i1 = icmp sgt v4, v5
  annot ensures(v6)
  v7: i32 = add v0, v2
  return v7
}
kernel fn1 "k" link "k" (v0 "n": i32) entry block0 {
block0:
  v1: i32 = call fn0(v0)
  v2: i32 = call fn0(v1)
  return
}
"#,
    );
    let (id, _) = func(&m, "k");
    let inlined = inline_calls(&m, id).unwrap();
    assert!(inlined.dropped_ensures.is_empty());
    let f = inlined.function;
    let annots: Vec<AnnotKind> = f
        .blocks
        .values()
        .flat_map(|b| &b.insts)
        .filter_map(|&i| match f.insts[i].kind {
            InstKind::Annot { kind, .. } => Some(kind),
            _ => None,
        })
        .collect();
    assert_eq!(count(&f, |k| matches!(k, InstKind::Annot { kind: AnnotKind::Assert, .. })), 2);
    assert_eq!(count(&f, |k| matches!(k, InstKind::Annot { kind: AnnotKind::Assume, .. })), 2);
    assert!(!annots.contains(&AnnotKind::Requires) && !annots.contains(&AnnotKind::Ensures));
    assert_eq!(count(&f, |k| matches!(k, InstKind::AnnotValue { func: AnnotFn::ReturnVal, .. })), 0);
    // Each assumption sits in a continuation block and reads the returned
    // value, which is that block's parameter.
    for block in f.blocks.values() {
        for &i in &block.insts {
            if let InstKind::Annot { kind: AnnotKind::Assume, args } = &f.insts[i].kind {
                let InstKind::Icmp { lhs, .. } = &f.insts[def_inst(&f, args[0])].kind else { panic!() };
                assert!(matches!(f.values[*lhs].def, ValueDef::BlockParam(..)));
                assert_eq!(block.params, vec![*lhs]);
            }
        }
    }
    verify_in_place(&m, "k", f);
}

fn def_inst(f: &Function, v: lockstep_kir::ValueId) -> lockstep_kir::InstId {
    match f.values[v].def {
        ValueDef::Inst(i) => i,
        ref d => panic!("{v} is {d:?}"),
    }
}

#[test]
fn postcondition_on_a_path_value_is_dropped_not_misplaced() {
    // The postcondition reads a havoc made on one path only.
    let m = module(
        r#"
language cuda
device fn0 "f" link "f" (v0 "c": i1) entry block0 {
block0:
  br v0, block1, block2
block1:
  v1: i1 = havoc
  annot ensures(v1)
  return
block2:
  return
}
kernel fn1 "k" link "k" (v0 "c": i1) entry block0 {
block0:
  call fn0(v0)
  return
}
"#,
    );
    let (id, _) = func(&m, "k");
    let inlined = inline_calls(&m, id).unwrap();
    assert_eq!(inlined.dropped_ensures.len(), 1);
    assert_eq!(inlined.dropped_ensures[0].callee, "f");
    verify_in_place(&m, "k", inlined.function);
}

#[test]
fn inlining_real_cuda() {
    let m = fixture("calls.kir");
    let (id, _) = func(&m, "k");
    let inlined = inline_calls(&m, id).expect("inlines");
    assert_eq!(inlined.calls_inlined, 2);
    assert!(inlined.dropped_ensures.is_empty());
    let f = inlined.function;
    assert_eq!(count(&f, |k| matches!(k, InstKind::Call { .. })), 0);
    assert_eq!(count(&f, |k| matches!(k, InstKind::Annot { kind: AnnotKind::Assert, .. })), 1);
    assert_eq!(count(&f, |k| matches!(k, InstKind::Annot { kind: AnnotKind::Assume, .. })), 1);
    assert_eq!(f.locals.len(), 1);
    assert_eq!(f.locals.values().next().unwrap().name, "pick.tmp");
    // Every instruction of the original functions kept its location.
    assert!(f.blocks.values().flat_map(|b| &b.insts).all(|&i| f.inst_locs.get(i).is_some()));
    verify_in_place(&m, "k", f);
    let all = inline_module(&m).unwrap();
    verify_module(&all).unwrap();
}
