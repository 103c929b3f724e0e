//! Tests of `uniformity`: value levels, divergent branches, joins, loops
//! with thread-dependent exits, loads, and barrier-divergence candidates.

mod common;

use common::*;
use lockstep_analysis::uniformity::{Uniformity, UniformityInfo};
use lockstep_analysis::{inline_module, Cfg};
use lockstep_kir::BarrierScope;

use Uniformity::{GroupUniform, Uniform, Varying};

fn analyse(text: &str) -> (lockstep_kir::Module, UniformityInfo) {
    let m = module(text);
    let (_, f) = func(&m, "k");
    let info = UniformityInfo::compute(&m, f);
    (m, info)
}

#[test]
fn branch_on_thread_id_is_divergent_and_its_barrier_a_candidate() {
    // if (threadIdx.x < 32) barrier;   if (blockDim.x > 32) barrier;
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" () entry block0 {
  v0: i32 = const 32
block0:
  v1: i32 = builtin local_id x
  v2: i1 = icmp ult v1, v0
  br v2, block1, block2
block1:
  barrier group shared
  jump block2
block2:
  v3: i32 = builtin local_size x
  v4: i1 = icmp ugt v3, v0
  br v4, block3, block4
block3:
  barrier group shared
  jump block4
block4:
  barrier group shared
  return
}
"#,
    );
    assert_eq!(u.level(v(1)), Varying);
    assert_eq!(u.level(v(2)), Varying);
    assert_eq!(u.level(v(3)), Uniform);
    assert_eq!(u.branch_level(b(0)), Some(Varying));
    assert_eq!(u.branch_level(b(2)), Some(Uniform));
    assert_eq!(u.branch_level(b(1)), None);
    assert_eq!(u.divergent_branches(), blocks(&[0]));
    assert_eq!(u.control_level(b(1)), Varying);
    assert_eq!(u.controlling_branches(b(1)), blocks(&[0]).as_slice());
    // The reconvergence point is reached by every thread.
    assert_eq!(u.control_level(b(2)), Uniform);
    assert_eq!(u.control_level(b(3)), Uniform);
    let sites = u.barriers();
    assert_eq!(sites.len(), 3);
    let candidates: Vec<_> = u.divergence_candidates().map(|s| s.block).collect();
    assert_eq!(candidates, blocks(&[1]));
}

#[test]
fn group_id_is_group_uniform() {
    // if (blockIdx.x == 0) { barrier; grid barrier; }
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" () entry block0 {
  v0: i32 = const 0
block0:
  v1: i32 = builtin group_id x
  v2: i32 = builtin num_groups x
  v3: i32 = mul v1, v2
  v4: i1 = icmp eq v3, v0
  br v4, block1, block2
block1:
  barrier group shared
  barrier grid global
  jump block2
block2:
  return
}
"#,
    );
    assert_eq!(u.level(v(1)), GroupUniform);
    assert_eq!(u.level(v(2)), Uniform);
    assert_eq!(u.level(v(3)), GroupUniform);
    assert!(u.is_group_uniform(v(4)));
    assert!(!u.is_uniform(v(4)));
    assert!(u.divergent_branches().is_empty());
    assert_eq!(u.non_uniform_branches(), vec![(b(0), GroupUniform)]);
    let sites = u.barriers();
    assert_eq!(sites.len(), 2);
    let group = sites.iter().find(|s| s.scope == BarrierScope::Group).unwrap();
    let grid = sites.iter().find(|s| s.scope == BarrierScope::Grid).unwrap();
    assert_eq!(group.control, GroupUniform);
    assert!(!group.is_divergence_candidate(), "all threads of a group agree");
    assert!(grid.is_divergence_candidate(), "groups disagree");
}

#[test]
fn join_of_a_divergent_branch_merges_varying_values() {
    // x = tid < 4 ? 1 : 2 (as control flow); y = same value on both arms;
    // z = uniform arguments but a join of a uniform branch.
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32) entry block0 {
  v1: i32 = const 1
  v2: i32 = const 2
  v3: i32 = const 4
block0:
  v4: i32 = builtin local_id x
  v5: i1 = icmp ult v4, v3
  br v5, block1, block2
block1:
  jump block3(v1, v0)
block2:
  jump block3(v2, v0)
block3(v6 "x": i32, v7 "y": i32):
  v8: i1 = icmp ult v0, v3
  br v8, block4, block5
block4:
  jump block6(v1)
block5:
  jump block6(v2)
block6(v9 "z": i32):
  v10: i32 = add v6, v9
  return
}
"#,
    );
    assert_eq!(u.level(v(6)), Varying, "x depends on which arm ran");
    assert_eq!(u.level(v(7)), Uniform, "y is n on both arms");
    assert_eq!(u.level(v(9)), Uniform, "z joins a uniform branch");
    assert_eq!(u.level(v(10)), Varying);
}

#[test]
fn select_and_same_block_branch_on_varying_condition() {
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" () entry block0 {
  v0: i32 = const 0
  v1: i32 = const 1
block0:
  v2: i32 = builtin local_id y
  v3: i1 = icmp eq v2, v0
  v4: i32 = select v3, v0, v1
  br v3, block1(v0), block1(v1)
block1(v5: i32):
  return
}
"#,
    );
    assert_eq!(u.level(v(4)), Varying);
    assert_eq!(u.level(v(5)), Varying);
}

#[test]
fn loop_with_thread_dependent_exit_makes_its_counter_varying() {
    // i = 0; while (i < tid) i++;   then, inside if (tid < 8), a loop
    // for (j = 0; j < n; j++) whose exit is uniform.
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32) entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
  v3: i32 = const 8
block0:
  v4: i32 = builtin local_id x
  jump block1(v1)
block1(v5 "i": i32):
  v6: i1 = icmp slt v5, v4
  br v6, block2, block3
block2:
  barrier group shared
  v7: i32 = add v5, v2
  jump block1(v7)
block3:
  v8: i1 = icmp ult v4, v3
  br v8, block4, block7
block4:
  jump block5(v1)
block5(v9 "j": i32):
  v10: i1 = icmp slt v9, v0
  br v10, block6, block7
block6:
  v11: i32 = add v9, v2
  jump block5(v11)
block7:
  return
}
"#,
    );
    assert_eq!(u.level(v(5)), Varying, "threads leave after different iterations");
    assert_eq!(u.level(v(7)), Varying);
    assert_eq!(u.branch_level(b(1)), Some(Varying));
    assert_eq!(u.divergent_loops().len(), 1);
    // The barrier in the loop is reached a thread-dependent number of times.
    let cands: Vec<_> = u.divergence_candidates().map(|s| s.block).collect();
    assert_eq!(cands, blocks(&[2]));
    // The counter of a loop with a uniform exit stays uniform, even though
    // only some threads run that loop.
    assert_eq!(u.level(v(9)), Uniform);
    assert_eq!(u.branch_level(b(5)), Some(Uniform));
    assert_eq!(u.control_level(b(6)), Varying);
}

#[test]
fn loop_exit_under_a_divergent_branch_is_a_divergent_exit() {
    // while (true) { if (tid & 1) { if (i > n) break; } i++; }
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32) entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
block0:
  v3: i32 = builtin local_id x
  v4: i32 = and v3, v2
  v5: i1 = icmp ne v4, v1
  jump block1(v1)
block1(v6 "i": i32):
  br v5, block2, block3
block2:
  v7: i1 = icmp sgt v6, v0
  br v7, block4, block3
block3:
  v8: i32 = add v6, v2
  jump block1(v8)
block4:
  return
}
"#,
    );
    // Threads of odd and even ids reach the exit test in different
    // iterations, so `i` (and with it the exit test) is varying.
    assert_eq!(u.level(v(6)), Varying);
    assert_eq!(u.branch_level(b(2)), Some(Varying));
    assert_eq!(u.divergent_loops().len(), 1);
}

#[test]
fn divergent_if_inside_a_loop_keeps_the_counter_uniform() {
    // for (i = 0; i < n; i++) { if (tid < i) x = 1; barrier; }
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32) entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
block0:
  v3: i32 = builtin local_id x
  jump block1(v1)
block1(v4 "i": i32):
  v5: i1 = icmp slt v4, v0
  br v5, block2, block5
block2:
  v6: i1 = icmp ult v3, v4
  br v6, block3, block4(v1)
block3:
  jump block4(v2)
block4(v7: i32):
  barrier group shared
  v8: i32 = add v4, v2
  jump block1(v8)
block5:
  return
}
"#,
    );
    assert_eq!(u.level(v(4)), Uniform);
    assert_eq!(u.level(v(7)), Varying);
    assert!(u.divergent_loops().is_empty());
    assert_eq!(u.divergence_candidates().count(), 0);
}

#[test]
fn early_return_makes_the_following_barrier_a_candidate() {
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" () entry block0 {
  v1: i32 = const 4
block0:
  v0: i32 = builtin local_id x
  v2: i1 = icmp ult v0, v1
  br v2, block1, block2
block1:
  return
block2:
  barrier group shared
  return
}
"#,
    );
    let cands: Vec<_> = u.divergence_candidates().map(|s| s.block).collect();
    assert_eq!(cands, blocks(&[2]));
}

#[test]
fn loads_are_uniform_only_from_memory_no_thread_writes() {
    let (_, u) = analyse(
        r#"
language cuda
global0 = constant "table" size 16 align 4
global1 = shared "tile" size 16 align 4
global2 = shared "ro" size 16 align 4
kernel fn0 "k" link "k" (v0 "in": ptr.global, v1 "out": ptr.global) entry block0 {
  v2: i64 = const 0
  v3: ptr.constant = global_addr global0
  v4: ptr.shared = global_addr global1
  v5: ptr.shared = global_addr global2
  v6: i32 = const 1
block0:
  v7: i32 = load v3 align 4
  v8: i32 = load v0 align 4
  v9: i32 = load v4 align 4
  v10: i32 = load v5 align 4
  v11: i32 = load v1 align 4
  v12: i32 = builtin local_id x
  v13: i64 = zext v12
  v14: ptr.constant = ptradd v3, v13
  v15: i32 = load v14 align 4
  v16: i32 = atomic add v1, v6
  store v4, v12 align 4
  store v1, v6 align 4
  v17: f32 = havoc
  v18: f32 = call_external "sqrtf"(v17)
  v19: f32 = uitofp v8
  v20: f32 = call_external "sqrtf"(v19)
  return
}
"#,
    );
    assert_eq!(u.level(v(7)), Uniform, "constant memory");
    assert_eq!(u.level(v(8)), Uniform, "`in` is never written");
    assert_eq!(u.level(v(9)), Varying, "`tile` is written");
    assert_eq!(u.level(v(10)), GroupUniform, "`ro` is per-group memory nobody writes");
    assert_eq!(u.level(v(11)), Varying, "`out` is written");
    assert_eq!(u.level(v(15)), Varying, "thread-dependent address");
    assert_eq!(u.level(v(16)), Varying, "atomics");
    assert_eq!(u.level(v(17)), Varying, "havoc");
    assert_eq!(u.level(v(18)), Varying);
    assert_eq!(u.level(v(20)), Uniform, "pure function of a uniform value");
}

#[test]
fn writes_through_unknown_pointers_clobber_everything() {
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "in": ptr.global, v1 "pp": ptr.global) entry block0 {
  v2: i32 = const 1
block0:
  v3: ptr.global = load v1 align 8
  store v3, v2 align 4
  v4: i32 = load v0 align 4
  return
}
"#,
    );
    assert_eq!(u.level(v(4)), Varying);
}

#[test]
fn irreducible_region_with_divergent_branch_is_conservative() {
    let (_, u) = analyse(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32) entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
block0:
  v3: i32 = builtin local_id x
  v4: i1 = icmp eq v0, v1
  br v4, block1(v1), block2(v1)
block1(v5: i32):
  v6: i1 = icmp slt v5, v3
  v7: i32 = add v5, v2
  br v6, block2(v7), block3
block2(v8: i32):
  v9: i32 = add v8, v2
  jump block1(v9)
block3:
  return
}
"#,
    );
    assert_eq!(u.level(v(5)), Varying);
    assert_eq!(u.level(v(8)), Varying);
}

#[test]
fn device_function_parameters_are_varying() {
    let m = module(
        r#"
language cuda
device fn0 "f" link "f" (v0 "x": i32) -> i32 entry block0 {
block0:
  return v0
}
"#,
    );
    let (_, f) = func(&m, "f");
    let u = UniformityInfo::compute(&m, f);
    assert_eq!(u.level(v(0)), Varying);
}

#[test]
fn uniformity_of_real_cuda_reduction() {
    let m = fixture("racy_reduction.kir");
    let (_, f) = func(&m, "sum");
    let u = UniformityInfo::compute(&m, f);
    assert_eq!(u.level(v(3)), Varying, "t = threadIdx.x");
    assert_eq!(u.level(v(4)), GroupUniform, "blockIdx.x");
    assert_eq!(u.level(v(2)), Uniform, "the stride");
    assert_eq!(u.branch_level(b(1)), Some(Uniform), "stride > 0");
    assert_eq!(u.branch_level(b(5)), Some(Varying), "t < stride");
    assert_eq!(u.branch_level(b(2)), Some(Varying), "t == 0");
    assert_eq!(u.level(v(24)), Varying, "partial[0] is written by threads");
    assert!(u.divergent_loops().is_empty());
    assert_eq!(u.barriers().len(), 1);
    assert_eq!(u.divergence_candidates().count(), 0);
}

#[test]
fn uniformity_of_real_cuda_after_inlining() {
    let m = inline_module(&fixture("calls.kir")).expect("inlines");
    let (_, f) = func(&m, "k");
    let cfg = Cfg::compute(f);
    let u = UniformityInfo::compute(&m, f);
    // `if (t < 32) __syncthreads();` is the only divergent barrier.
    let cands: Vec<_> = u.divergence_candidates().collect();
    assert_eq!(cands.len(), 1);
    assert_eq!(u.barriers().len(), 1);
    // The inner loop breaks on `s[j] == 7`, and `s` is written by every
    // thread: its counter is varying; the outer loop's counter is not.
    let loops = lockstep_analysis::loops::analyze(f).2;
    let mut counters = Vec::new();
    for (_, l) in loops.loops() {
        counters.push((l.depth, u.level(l.carried[0])));
    }
    counters.sort();
    assert_eq!(counters, vec![(1, Uniform), (2, Varying)]);
    assert!(cfg.rpo().len() > 13);
}
