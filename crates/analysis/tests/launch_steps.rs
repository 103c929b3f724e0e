//! Tests of `launch_steps`: loop counters stepped by the launch's sizes.

mod common;

use common::*;
use lockstep_analysis::launch_steps::LaunchSteps;

#[test]
fn block_and_grid_strides_are_found_and_other_steps_are_not() {
    // for (i = tid; i < n; i += blockDim.x * gridDim.x) p[i] = 0;
    // for (j = tid; j < n; j += n) p[j] = 0;   (an argument: not a launch size)
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32, v1 "p": ptr.global) entry block0 {
  v2: i32 = const 0
block0:
  v3: i32 = builtin local_id x
  jump block1(v3)
block1(v4 "i": i32):
  v5: i1 = icmp slt v4, v0
  br v5, block2, block3(v3)
block2:
  v6: i64 = sext v4
  v7: ptr.global = ptradd v1, v6
  store v7, v2 align 4
  v8: i32 = builtin local_size x
  v9: i32 = builtin num_groups x
  v10: i32 = mul v8, v9
  v11: i32 = add v4, v10
  jump block1(v11)
block3(v12 "j": i32):
  v13: i1 = icmp slt v12, v0
  br v13, block4, block5
block4:
  v14: i64 = sext v12
  v15: ptr.global = ptradd v1, v14
  store v15, v2 align 4
  v16: i32 = add v12, v0
  jump block3(v16)
block5:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let steps = LaunchSteps::compute(f);
    assert_eq!(steps.updates.len(), 1, "{steps:?}");
    // The one found is the grid-stride update `v11`, not `j += n`.
    let i = *steps.updates.iter().next().unwrap();
    assert_eq!(f.insts[i].result, Some(v(11)));
    // Its counter is tested with `icmp slt`: a signed counter.
    assert!(steps.signed_tested.contains(&i), "{steps:?}");
}

#[test]
fn a_counter_tested_unsigned_is_not_signed_tested() {
    // for (unsigned i = tid; i < n; i += blockDim.x) p[i] = 0;
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32, v1 "p": ptr.global) entry block0 {
  v2: i32 = const 0
block0:
  v3: i32 = builtin local_id x
  jump block1(v3)
block1(v4 "i": i32):
  v5: i1 = icmp ult v4, v0
  br v5, block2, block3
block2:
  v6: i64 = zext v4
  v7: ptr.global = ptradd v1, v6
  store v7, v2 align 4
  v8: i32 = builtin local_size x
  v11: i32 = add v4, v8
  jump block1(v11)
block3:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let steps = LaunchSteps::compute(f);
    assert_eq!(steps.updates.len(), 1, "{steps:?}");
    assert!(steps.signed_tested.is_empty(), "{steps:?}");
}
