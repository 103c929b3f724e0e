//! Proofs over kernels written in KIR's text form (no clang needed).

use std::time::Duration;

use lockstep_diag::ViolationKind;
use lockstep_kir::parse_module;
use lockstep_prove::{prove_kernel, ProveConfig, ProveOutcome};

/// `tile[tid] = tid; barrier; A[tid] = tile[0]`, with or without the barrier.
fn tile_kernel(barrier: &str) -> String {
    format!(
        r#"language cuda

file0 = "tile.cu"

global0 = shared "tile" size 256 align 4 elem_size 4

kernel fn0 "k" link "k" (v0 "A": ptr.global pointee()) entry block0 @file0:1:0 {{
  v2: i64 = const 4
  v6: ptr.shared = global_addr global0
block0:
  v1: i32 = builtin local_id x @file0:2:3
  v3: i64 = zext v1 @file0:2:3
  v4: i64 = mul v3, v2 @file0:2:3
  v5: ptr.shared = ptradd v6, v4 @file0:2:3
  store v5, v1 align 4 @file0:2:3
  {barrier}
  v7: i32 = load v6 align 4 @file0:4:3
  v8: ptr.global = ptradd v0, v4 @file0:4:3
  store v8, v7 align 4 @file0:4:3
  return @file0:5:1
}}
"#
    )
}

fn config() -> ProveConfig {
    ProveConfig {
        group_size: [Some(64), Some(1), Some(1)],
        num_groups: [Some(1), Some(1), Some(1)],
        query_timeout: Duration::from_secs(20),
        ..ProveConfig::default()
    }
}

#[test]
fn barrier_separates_write_and_read() {
    let m = parse_module(&tile_kernel("barrier group shared global @file0:3:3")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
}

#[test]
fn barrier_without_shared_fence_does_not_order_shared_memory() {
    let m = parse_module(&tile_kernel("barrier group global @file0:3:3")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let out = prove_kernel(&m, k, &config());
    let ProveOutcome::Failed { violations } = &out else { panic!("{out:#?}") };
    assert!(violations.iter().all(|v| v.kind == ViolationKind::DataRace));
    let v = &violations[0];
    assert_eq!(v.object.as_deref(), Some("tile"));
    let lines: Vec<u32> = [&v.first, &v.second]
        .iter()
        .map(|a| a.as_ref().and_then(|a| a.at.as_ref()).and_then(|l| l.src).map_or(0, |s| s.line))
        .collect();
    assert!(lines.contains(&2) && lines.contains(&4), "{lines:?}");
    // The two threads of the counterexample are in the same group.
    assert_eq!(v.threads[0].group_id, v.threads[1].group_id);
}

#[test]
fn missing_barrier_is_a_race() {
    let m = parse_module(&tile_kernel("")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Failed { .. }), "{out:#?}");
}

#[test]
fn array_bounds_of_known_sizes_are_checked() {
    let cfg = ProveConfig { check_array_bounds: true, ..config() };
    // 64 threads write one int each into a 256-byte tile: in bounds.
    let m = parse_module(&tile_kernel("barrier group shared global @file0:3:3")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let out = prove_kernel(&m, k, &cfg);
    let ProveOutcome::Verified { proved, assumptions, .. } = &out else { panic!("{out:#?}") };
    assert!(proved.iter().any(|p| p.contains("out-of-bounds")), "{proved:?}");
    assert!(assumptions.iter().any(|a| a.contains("array bounds")), "{assumptions:?}");
    // A 128-byte tile is too small for 64 ints.
    let text = tile_kernel("barrier group shared global @file0:3:3").replace("size 256", "size 128");
    let m = parse_module(&text).expect("parses");
    let out = prove_kernel(&m, k, &cfg);
    let ProveOutcome::Failed { violations } = &out else { panic!("{out:#?}") };
    assert!(violations.iter().all(|v| v.kind == ViolationKind::OutOfBounds), "{violations:#?}");
    assert_eq!(violations[0].at.as_ref().and_then(|l| l.src).map(|s| s.line), Some(2));
    // Without the option nothing is said about bounds.
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
}

#[test]
fn irreducible_control_flow_is_unknown() {
    let text = r#"language cuda

file0 = "irr.cu"

kernel fn0 "k" link "k" (v0 "A": ptr.global pointee(), v1 "c": i1) entry block0 @file0:1:0 {
block0:
  br v1, block1, block2 @file0:2:3
block1:
  br v1, block2, block3 @file0:3:3
block2:
  br v1, block1, block3 @file0:4:3
block3:
  return @file0:5:1
}
"#;
    let m = parse_module(text).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let out = prove_kernel(&m, k, &config());
    let ProveOutcome::Unknown { reason, at } = &out else { panic!("{out:#?}") };
    assert!(reason.contains("irreducible"), "{reason}");
    assert!(at.is_some());
}

/// `x[0] = 5; {between} assert(x[0] == 5)` on a private array: the load is
/// forwarded the stored value unless something between may change it.
fn private_forwarding_kernel(between: &str) -> String {
    format!(
        r#"language opencl

file0 = "fwd.cl"

kernel fn0 "k" link "k" (v9 "p": ptr.private pointee()) entry block0 @file0:1:0 {{
  local0 = private "x" size 8 align 4 elem_size 4
  v0: ptr.private = local_addr local0
  v1: i32 = const 5
  v2: i32 = const 7
  v3: i64 = const 4
block0:
  store v0, v1 align 4 @file0:2:3
  v4: ptr.private = ptradd v0, v3 @file0:3:3
  store v4, v2 align 4 @file0:3:3
  {between}
  v5: i32 = load v0 align 4 @file0:4:3
  v6: i1 = icmp eq v5, v1 @file0:4:3
  annot assert(v6) @file0:4:3
  return @file0:5:1
}}
"#
    )
}

#[test]
fn private_stores_are_forwarded_to_loads_of_the_same_block() {
    // The store to x[1] in between does not overlap x[0].
    let m = parse_module(&private_forwarding_kernel("")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
    // A store through a private pointer of unknown target may write x[0].
    let m = parse_module(&private_forwarding_kernel("store v9, v2 align 4 @file0:3:9")).expect("parses");
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Failed { .. }), "{out:#?}");
}

/// `x = tid & 1 ? 2 : 1` through a private local stored in two branches
/// and read after the join, then `assert(x == 1 || x == 2)`; `{escape}`
/// may store the local's address somewhere.
fn promotion_kernel(escape: &str) -> String {
    format!(
        r#"language cuda

file0 = "promote.cu"

kernel fn0 "k" link "k" (v9 "sink": ptr.global pointee()) entry block0 @file0:1:0 {{
  local0 = private "x" size 4 align 4 elem_size 4
  v0: ptr.private = local_addr local0
  v1: i32 = const 1
  v2: i32 = const 2
  v3: i32 = const 0
block0:
  v4: i32 = builtin local_id x @file0:2:3
  v5: i32 = and v4, v1 @file0:2:3
  v6: i1 = icmp ne v5, v3 @file0:2:3
  {escape}
  br v6, block1, block2 @file0:2:3
block1:
  store v0, v2 align 4 @file0:3:3
  jump block3 @file0:3:3
block2:
  store v0, v1 align 4 @file0:4:3
  jump block3 @file0:4:3
block3:
  v7: i32 = load v0 align 4 @file0:5:3
  v8: i1 = icmp eq v7, v1 @file0:5:3
  v10: i1 = icmp eq v7, v2 @file0:5:3
  v11: i1 = or v8, v10 @file0:5:3
  annot assert(v11) @file0:5:3
  return @file0:6:1
}}
"#
    )
}

#[test]
fn private_locals_are_promoted_across_blocks() {
    let m = parse_module(&promotion_kernel("")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    // The pass itself: the load and both stores are gone, a parameter at
    // the join carries the value, and the result is well-formed KIR.
    let mut promoted = m.clone();
    assert_eq!(lockstep_prove::promote::promote_private_locals(&mut promoted.functions[k]), 1);
    let f = &promoted.functions[k];
    let memory_ops = f
        .blocks
        .values()
        .flat_map(|b| &b.insts)
        .filter(|&&i| matches!(f.insts[i].kind, lockstep_kir::InstKind::Load { .. } | lockstep_kir::InstKind::Store { .. }))
        .count();
    assert_eq!(memory_ops, 0);
    lockstep_kir::verify::verify_function(&promoted, k).expect("promoted KIR verifies");
    // The prover sees the value stored on each path.
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
}

#[test]
fn a_local_whose_address_escapes_stays_in_memory() {
    // Once its address is stored, the local may change behind the
    // prover's back, so its value after the join is unknown.
    let m = parse_module(&promotion_kernel("store v9, v0 align 8 @file0:2:5")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let mut promoted = m.clone();
    assert_eq!(lockstep_prove::promote::promote_private_locals(&mut promoted.functions[k]), 0);
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Failed { .. }), "{out:#?}");
}

/// A closure-like local: a pointer at offset 0 and an `i32` at offset 8,
/// stored in the entry and read after a branch through a generic cast and
/// constant offsets. `{overlap}` adds a read of bytes 4-7, which straddle
/// the pointer field.
fn fields_kernel(overlap: &str) -> String {
    format!(
        r#"language cuda

file0 = "fields.cu"

kernel fn0 "k" link "k" (v9 "out": ptr.global pointee()) entry block0 @file0:1:0 {{
  local0 = private "agg.tmp" size 16 align 8 elem_size 16
  v0: ptr.private = local_addr local0
  v1: i64 = const 8
  v2: i32 = const 7
  v12: i64 = const 4
block0:
  store v0, v9 align 8 @file0:2:3
  v3: ptr.private = ptradd v0, v1 @file0:2:3
  store v3, v2 align 4 @file0:2:3
  v4: i32 = builtin local_id x @file0:3:3
  v5: i1 = icmp eq v4, v2 @file0:3:3
  br v5, block1, block2 @file0:3:3
block1:
  jump block2 @file0:4:3
block2:
  v6: ptr.generic = addrspacecast v0 @file0:5:3
  v7: ptr.generic = ptradd v6, v1 @file0:5:3
  v8: i32 = load v7 align 4 @file0:5:3
  v10: ptr.generic = load v6 align 8 @file0:5:3
  {overlap}
  v11: i1 = icmp eq v8, v2 @file0:5:3
  annot assert(v11) @file0:5:3
  return @file0:6:1
}}
"#
    )
}

#[test]
fn fields_of_a_local_are_promoted_one_by_one() {
    let m = parse_module(&fields_kernel("")).expect("parses");
    let k = m.function_by_name("k").unwrap();
    let mut promoted = m.clone();
    assert_eq!(lockstep_prove::promote::promote_private_locals(&mut promoted.functions[k]), 2);
    lockstep_kir::verify::verify_function(&promoted, k).expect("promoted KIR verifies");
    let out = prove_kernel(&m, k, &config());
    assert!(matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
    // Bytes read across two fields keep the local in memory.
    let m = parse_module(&fields_kernel("v13: ptr.generic = ptradd v6, v12 @file0:5:3\n  v14: i32 = load v13 align 4 @file0:5:3"))
        .expect("parses");
    let mut promoted = m.clone();
    assert_eq!(lockstep_prove::promote::promote_private_locals(&mut promoted.functions[k]), 0);
}
