//! Tests of `atomics::add_only_counters`: the counters whose every atomic
//! update is an `atomicAdd` that is not of a negative constant.

mod common;

use common::*;
use lockstep_analysis::atomics::add_only_counters;
use lockstep_analysis::pointers::Root;

#[test]
fn counters_of_additions_only_are_found_and_others_are_not() {
    // pos = atomicAdd(total, k); atomicAdd(neg, -1); atomicAdd(cas, 1);
    // atomicCAS(cas, 0, 1); *total = 0 (a plain write does not count).
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "total": ptr.global, v1 "neg": ptr.global, v2 "cas": ptr.global, v3 "k": i32) entry block0 {
  v4: i32 = const 4294967295
  v5: i32 = const 1
  v6: i32 = const 0
block0:
  v7: i32 = atomic add v0, v3
  v8: i32 = atomic add v1, v4
  v9: i32 = atomic add v2, v5
  v10: i32 = cmpxchg v2, v6, v5
  store v0, v6 align 4
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let counters = add_only_counters(&m, f);
    assert!(counters.contains(&Root::Param(0)), "{counters:?}");
    assert!(!counters.contains(&Root::Param(1)), "a negative constant addition: {counters:?}");
    assert!(!counters.contains(&Root::Param(2)), "a compare-and-swap: {counters:?}");
}

#[test]
fn an_atomic_through_an_unknown_pointer_removes_the_counters_it_may_reach() {
    // int *p = *pp; atomicExch(p, 0); atomicAdd(total, 1);
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "total": ptr.global, v1 "pp": ptr.global) entry block0 {
  v2: i32 = const 1
  v3: i32 = const 0
block0:
  v4: ptr.global = load v1 align 8
  v5: i32 = atomic xchg v4, v3
  v6: i32 = atomic add v0, v2
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    assert!(add_only_counters(&m, f).is_empty());
}
