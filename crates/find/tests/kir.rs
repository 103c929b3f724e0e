//! Tests on kernels written in KIR's text form (no compiler involved).

use std::time::Duration;

use lockstep_diag::ViolationKind;
use lockstep_find::{find_bugs, FindConfig, FindOutcome};
use lockstep_kir::parse_module;

fn run(text: &str, block: u64, grid: u64) -> FindOutcome {
    let module = parse_module(text).unwrap_or_else(|e| panic!("{e:?}"));
    let (kernel, _) = module.kernels().next().expect("a kernel");
    let config = FindConfig {
        group_size: [Some(block), Some(1), Some(1)],
        num_groups: [Some(grid), Some(1), Some(1)],
        query_timeout: Duration::from_secs(20),
        ..FindConfig::default()
    };
    let out = find_bugs(&module, kernel, &config);
    eprintln!("{out:#?}");
    out
}

/// `A[0] = tid` by every thread.
const WRITE_WRITE: &str = r#"language cuda

kernel fn0 "k" link "k" (v0 "A": ptr.global pointee()) entry block0 {
block0:
  v1: i32 = builtin local_id x
  store v0, v1 align 4
  return
}
"#;

#[test]
fn write_write_race_in_kir() {
    let out = run(WRITE_WRITE, 16, 1);
    assert_eq!(out.violations.len(), 1);
    let race = &out.violations[0];
    assert_eq!(race.kind, ViolationKind::DataRace);
    assert_eq!(race.sites.len(), 2);
    assert!(out.complete);
}

/// `A[tid] = tid`: race-free, and complete (no loop).
const OWN_ELEMENT: &str = r#"language cuda

kernel fn0 "k" link "k" (v0 "A": ptr.global pointee()) entry block0 {
  v4: i64 = const 4
block0:
  v1: i32 = builtin local_id x
  v2: i64 = zext v1
  v3: i64 = mul v2, v4
  v5: ptr.global = ptradd v0, v3
  store v5, v1 align 4
  return
}
"#;

#[test]
fn own_element_is_race_free_and_complete() {
    let out = run(OWN_ELEMENT, 1024, 1);
    assert!(out.violations.is_empty());
    assert!(out.complete, "{:?}", out.notes);
}

/// Only threads below 4 reach the barrier.
const DIVERGENT: &str = r#"language cuda

kernel fn0 "k" link "k" (v0 "A": ptr.global pointee()) entry block0 {
  v2: i32 = const 4
block0:
  v1: i32 = builtin local_id x
  v3: i1 = icmp ult v1, v2
  br v3, block1, block2
block1:
  barrier group shared global
  jump block2
block2:
  return
}
"#;

#[test]
fn divergent_barrier_in_kir() {
    let out = run(DIVERGENT, 8, 1);
    assert_eq!(out.violations.len(), 1);
    assert_eq!(out.violations[0].kind, ViolationKind::BarrierDivergence);
    let w = &out.violations[0].witness;
    assert!((w.threads[0].0[0] < 4) != (w.threads[1].0[0] < 4));
}

/// A loop `for (i = 0; i < 100; i++)` with nothing in it: the bound cuts it.
const LONG_LOOP: &str = r#"language cuda

kernel fn0 "k" link "k" (v0 "A": ptr.global pointee()) entry block0 {
  v1: i32 = const 0
  v3: i32 = const 100
  v5: i32 = const 1
block0:
  jump block1(v1)
block1(v2: i32):
  v4: i1 = icmp slt v2, v3
  br v4, block2, block3
block2:
  v6: i32 = add v2, v5
  jump block1(v6)
block3:
  return
}
"#;

#[test]
fn loop_bound_makes_the_search_incomplete() {
    let out = run(LONG_LOOP, 8, 1);
    assert!(out.violations.is_empty());
    assert!(!out.complete);
}
