//! Replays of hand-written KIR kernels, one per behaviour the interpreter
//! must get right: race-free code, each kind of race, barrier divergence,
//! memory-safety violations, annotations, budgets, warp intrinsics, calls.

use lockstep_kir::{parse_module, verify_module, AnnotKind, BarrierScope, MemSpace, Module, Type};
use lockstep_replay::*;

/// Parses and verifies a module; the text must be valid KIR.
fn module(text: &str) -> Module {
    let m = parse_module(text).unwrap_or_else(|e| panic!("parse error {e}\n{text}"));
    if let Err(errors) = verify_module(&m) {
        panic!("invalid KIR: {errors:?}\n{text}");
    }
    m
}

/// Replays the first kernel of `text` with a fresh `out` buffer of `words`
/// i32s as its only argument.
fn run_out(
    text: &str,
    launch: Launch,
    words: usize,
    opts: &ReplayOptions,
) -> (ReplayResult, ObjId) {
    let m = module(text);
    let kernel = m.kernels().next().unwrap().0;
    let mut memory = Memory::new();
    let out = memory.alloc_named("out", MemSpace::Global, 4 * words as u64, None);
    let result = replay(&m, kernel, &launch, &[out], memory, opts).unwrap();
    let obj = result.memory.target(out).unwrap();
    (result, obj)
}

fn kinds(r: &ReplayResult) -> Vec<&'static str> {
    r.violations.iter().map(|v| v.kind.name()).collect()
}

/// Shared-memory exchange: each thread writes `s[t]`, then reads
/// `s[(t + 1) % 8]`; `BARRIER` is replaced by the separating barrier (or
/// nothing).
const EXCHANGE: &str = r#"
language cuda
global0 = shared "s" size 32 align 4 elem_size 4
kernel fn0 "exchange" link "exchange" (v0 "out": ptr.global) entry block0 {
  v1: i64 = const 4
  v2: ptr.shared = global_addr global0
  v3: i32 = const 1
  v4: i32 = const 7
block0:
  v10: i32 = builtin local_id x
  v11: i64 = zext v10
  v12: i64 = mul v11, v1
  v13: ptr.shared = ptradd v2, v12
  store v13, v10 align 4
  BARRIER
  v14: i32 = add v10, v3
  v15: i32 = and v14, v4
  v16: i64 = zext v15
  v17: i64 = mul v16, v1
  v18: ptr.shared = ptradd v2, v17
  v19: i32 = load v18 align 4
  v20: ptr.global = ptradd v0, v12
  store v20, v19 align 4
  return
}
"#;

#[test]
fn race_free_exchange_with_barrier() {
    let text = EXCHANGE.replace("BARRIER", "barrier group shared");
    let (r, out) = run_out(&text, Launch::linear(8, 2), 8, &ReplayOptions::default());
    // Each group writes the same `out` words with the same values: an
    // inter-group write-write race, but nothing on shared memory.
    assert!(r.races().all(|v| matches!(
        v.kind,
        ViolationKind::DataRace {
            inter_group: true,
            ..
        }
    )));
    let (r1, out1) = run_out(&text, Launch::linear(8, 1), 8, &ReplayOptions::default());
    assert!(r1.violations.is_empty(), "{:?}", r1.violations);
    assert!(r1.completed);
    assert_eq!(r1.memory.read_i32s(out1), vec![1, 2, 3, 4, 5, 6, 7, 0]);
    assert_eq!(r.memory.read_i32s(out), vec![1, 2, 3, 4, 5, 6, 7, 0]);
    // Each group had its own instance of `s`.
    let instances = r.memory.objects().iter().filter(|o| o.name == "s").count();
    assert_eq!(instances, 2);
}

#[test]
fn read_write_race_without_barrier() {
    let text = EXCHANGE.replace("BARRIER", "");
    let (r, _) = run_out(&text, Launch::linear(8, 1), 8, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["data-race"]);
    let ViolationKind::DataRace {
        first,
        second,
        inter_group,
        space,
    } = &r.violations[0].kind
    else {
        panic!()
    };
    assert!(!inter_group);
    assert_eq!(*space, MemSpace::Shared);
    assert_ne!(first.write, second.write, "one read and one write");
    assert_ne!(first.thread, second.thread);
    assert_eq!(r.memory.object(first.object).name, "s");
    // The schedule runs thread 0 first: it reads s[1] before thread 1
    // writes it, and the race is still found.
    assert!(first.thread.local[0] == 0 || second.thread.local[0] == 0);
}

#[test]
fn warp_barrier_separates_lanes_of_one_warp() {
    let text = EXCHANGE.replace("BARRIER", "barrier warp shared");
    let (r, _) = run_out(&text, Launch::linear(8, 1), 8, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    // With warps of 4 lanes, thread 3 reads s[4] of the other warp.
    let opts = ReplayOptions {
        warp_lanes: 4,
        ..ReplayOptions::default()
    };
    let (r, _) = run_out(&text, Launch::linear(8, 1), 8, &opts);
    assert_eq!(kinds(&r), vec!["data-race"]);
}

/// Every thread stores its id to `out[0]`.
const WRITE_ALL: &str = r#"
language cuda
kernel fn0 "ww" link "ww" (v0 "out": ptr.global) entry block0 {
block0:
  v1: i32 = builtin local_id x
  store v0, v1 align 4
  return
}
"#;

#[test]
fn write_write_race() {
    let (r, out) = run_out(
        WRITE_ALL,
        Launch::linear(8, 1),
        1,
        &ReplayOptions::default(),
    );
    assert_eq!(kinds(&r), vec!["data-race"]);
    let ViolationKind::DataRace { first, second, .. } = &r.violations[0].kind else {
        panic!()
    };
    assert!(first.write && second.write);
    assert_eq!(first.loc, second.loc, "the same store in two threads");
    assert_eq!(first.offset, 0);
    // The deterministic schedule leaves the last thread's value.
    assert_eq!(r.memory.read_i32s(out), vec![7]);
}

/// Every thread writes the same value to `out[0]`.
const WRITE_SAME: &str = r#"
language cuda
kernel fn0 "same" link "same" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 7
block0:
  store v0, v1 align 4
  return
}
"#;

#[test]
fn writes_of_one_value_are_a_benign_race_unless_told_otherwise() {
    let (r, _) = run_out(WRITE_SAME, Launch::linear(8, 2), 1, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    let strict = ReplayOptions { tolerate_benign_races: false, ..ReplayOptions::default() };
    let (r, _) = run_out(WRITE_SAME, Launch::linear(8, 2), 1, &strict);
    assert_eq!(kinds(&r), vec!["data-race"]);
}

/// Every thread writes `VALUE` to `out[0]` (thread 0 only when `ALL` is
/// 1), then `SYNC` (a barrier or nothing), then reads `out[0]` back into
/// `out[1 + t]`.
const READ_BACK: &str = r#"
language cuda
kernel fn0 "read_back" link "read_back" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const VALUE
  v2: i64 = const 4
  v3: i32 = const 1
  v4: i32 = const 0
  v5: i32 = const ALL
block0:
  v10: i32 = builtin local_id x
  v11: i1 = icmp ne v10, v4
  v12: i1 = icmp eq v5, v3
  v13: i1 = or v11, v12
  br v13, block1, block2
block1:
  v14: i32 = add v1, v4
  store v0, v14 align 4
  jump block2
block2:
  SYNC
  v15: i32 = load v0 align 4
  v16: i32 = add v10, v3
  v17: i64 = zext v16
  v18: i64 = mul v17, v2
  v19: ptr.global = ptradd v0, v18
  store v19, v15 align 4
  return
}
"#;

fn read_back(value: &str, all: bool, sync: &str) -> String {
    READ_BACK.replace("VALUE", value).replace("ALL", if all { "1" } else { "0" }).replace("SYNC", sync)
}

#[test]
fn reading_back_a_value_every_writer_wrote_is_a_benign_race() {
    // Every thread wrote 7 itself: whatever the interleaving, its read
    // returns 7 (GPUVerify's benign write-read race).
    for opts in [ReplayOptions::default(), ReplayOptions { warp_size: Some(4), ..ReplayOptions::default() }] {
        let (r, _) = run_out(&read_back("7", true, ""), Launch::linear(16, 1), 17, &opts);
        assert!(r.violations.is_empty(), "{:?}", r.violations);
    }
    // Without benign races, the reads race with the other threads' writes.
    let strict = ReplayOptions { tolerate_benign_races: false, ..ReplayOptions::default() };
    let (r, _) = run_out(&read_back("7", true, ""), Launch::linear(8, 1), 9, &strict);
    assert!(kinds(&r).contains(&"data-race"));
}

#[test]
fn a_read_back_is_benign_only_for_a_thread_that_wrote_since_its_barrier() {
    // Thread 0 reads without having written: it may see 0 or 7.
    let (r, _) = run_out(&read_back("7", false, ""), Launch::linear(8, 1), 9, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["data-race"]);
    let ViolationKind::DataRace { first, second, .. } = &r.violations[0].kind else { panic!() };
    assert_ne!(first.write, second.write, "a read-write race: {}", r.violations[0].message);
    // Any barrier ends the interval of a thread's own writes, a warp
    // barrier too (in all three engines): after one, the reads of the first
    // warp race with the second warp's writes.
    let (r, _) =
        run_out(&read_back("7", true, "barrier warp shared"), Launch::linear(64, 1), 65, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["data-race"]);
}

#[test]
fn many_threads_on_one_byte_stay_cheap_and_are_reported() {
    // 64 groups of 512 threads all write `out[0]`: the per-byte log stays
    // bounded (unbounded, this took minutes), and the race is still found.
    let (r, _) = run_out(WRITE_ALL, Launch::linear(512, 64), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r)[0], "data-race");
}

#[test]
fn warp_sync_suppresses_races_inside_a_warp() {
    let opts = ReplayOptions {
        warp_size: Some(8),
        ..ReplayOptions::default()
    };
    let (r, _) = run_out(WRITE_ALL, Launch::linear(8, 1), 1, &opts);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    let opts = ReplayOptions {
        warp_size: Some(4),
        ..ReplayOptions::default()
    };
    let (r, _) = run_out(WRITE_ALL, Launch::linear(8, 1), 1, &opts);
    assert_eq!(kinds(&r), vec!["data-race"]);
}

/// Group 0 writes `out[t]`; after `BARRIER`, every group reads it.
const PUBLISH: &str = r#"
language cuda
kernel fn0 "publish" link "publish" (v0 "out": ptr.global) entry block0 {
  v1: i64 = const 4
  v2: i32 = const 0
block0:
  v3: i32 = builtin local_id x
  v4: i32 = builtin group_id x
  v5: i64 = zext v3
  v6: i64 = mul v5, v1
  v7: ptr.global = ptradd v0, v6
  v8: i1 = icmp eq v4, v2
  br v8, block1, block2
block1:
  store v7, v3 align 4
  jump block2
block2:
  BARRIER
  v9: i32 = load v7 align 4
  return
}
"#;

#[test]
fn inter_group_race_on_global_memory() {
    // A group barrier does not order groups.
    let text = PUBLISH.replace("BARRIER", "barrier group global");
    let (r, _) = run_out(&text, Launch::linear(4, 2), 4, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["data-race"]);
    let ViolationKind::DataRace {
        first,
        second,
        inter_group,
        space,
    } = &r.violations[0].kind
    else {
        panic!()
    };
    assert!(inter_group);
    assert_eq!(*space, MemSpace::Global);
    assert_eq!(first.thread.group, [0, 0, 0]);
    assert_eq!(second.thread.group, [1, 0, 0]);
    assert!(first.write && !second.write);
    // Switching inter-group checks off hides it.
    let opts = ReplayOptions {
        check_inter_group_races: false,
        ..ReplayOptions::default()
    };
    let (r, _) = run_out(&text, Launch::linear(4, 2), 4, &opts);
    assert!(r.violations.is_empty());
}

#[test]
fn grid_barrier_orders_groups() {
    let text = PUBLISH.replace("BARRIER", "barrier grid global");
    let (r, out) = run_out(&text, Launch::linear(4, 3), 4, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(r.completed);
    assert_eq!(r.memory.read_i32s(out), vec![0, 1, 2, 3]);
}

/// Every thread atomically adds 1 to `out[0]`; `EXTRA` may add a plain load.
const ATOMICS: &str = r#"
language cuda
kernel fn0 "count" link "count" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 1
block0:
  v2: i32 = atomic add v0, v1
  EXTRA
  return
}
"#;

#[test]
fn atomics_do_not_race_with_atomics() {
    let text = ATOMICS.replace("EXTRA", "");
    let (r, out) = run_out(&text, Launch::linear(32, 4), 1, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.memory.read_i32s(out), vec![128]);
    let text = ATOMICS.replace("EXTRA", "v3: i32 = load v0 align 4");
    let (r, _) = run_out(&text, Launch::linear(4, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["data-race"]);
    let ViolationKind::DataRace { first, second, .. } = &r.violations[0].kind else {
        panic!()
    };
    assert!(
        first.atomic != second.atomic,
        "an atomic against a plain access"
    );
}

#[test]
fn barrier_under_thread_dependent_branch_diverges() {
    let text = r#"
language cuda
kernel fn0 "div" link "div" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 2
block0:
  v2: i32 = builtin local_id x
  v3: i1 = icmp ult v2, v1
  br v3, block1, block2
block1:
  barrier group shared
  jump block2
block2:
  return
}
"#;
    let (r, _) = run_out(text, Launch::linear(8, 2), 1, &ReplayOptions::default());
    assert_eq!(
        kinds(&r),
        vec!["barrier-divergence"],
        "reported once for both groups"
    );
    let ViolationKind::BarrierDivergence { scope, arrivals } = &r.violations[0].kind else {
        panic!()
    };
    assert_eq!(*scope, BarrierScope::Group);
    assert_eq!(arrivals.len(), 2);
    let at_barrier = arrivals.iter().find(|a| a.barrier.is_some()).unwrap();
    let exited = arrivals.iter().find(|a| a.barrier.is_none()).unwrap();
    assert_eq!((at_barrier.count, exited.count), (2, 6));
    assert!(r.completed);
}

/// A loop of `i < BOUND` iterations with a barrier in its body.
const LOOP_BARRIER: &str = r#"
language cuda
kernel fn0 "loop" link "loop" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
  v3: i32 = const 3
block0:
  v4: i32 = builtin local_id x
  jump block1(v1)
block1(v5: i32):
  v6: i1 = icmp ult v5, BOUND
  br v6, block2, block3
block2:
  barrier group shared
  v7: i32 = add v5, v2
  jump block1(v7)
block3:
  barrier group shared
  return
}
"#;

#[test]
fn barrier_in_loop_with_thread_dependent_trip_count_diverges() {
    let (r, _) = run_out(
        &LOOP_BARRIER.replace("BOUND", "v4"),
        Launch::linear(4, 1),
        1,
        &ReplayOptions::default(),
    );
    assert_eq!(kinds(&r), vec!["barrier-divergence"]);
    let ViolationKind::BarrierDivergence { arrivals, .. } = &r.violations[0].kind else {
        panic!()
    };
    // Thread 0 skips the loop and waits at the barrier after it while the
    // others wait at the barrier in the loop.
    assert_eq!(arrivals.len(), 2);
    assert!(arrivals.iter().all(|a| a.barrier.is_some()));
    // A uniform trip count is fine.
    let (r, _) = run_out(
        &LOOP_BARRIER.replace("BOUND", "v3"),
        Launch::linear(4, 1),
        1,
        &ReplayOptions::default(),
    );
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

#[test]
fn out_of_bounds_on_shared_array() {
    let text = r#"
language cuda
global0 = shared "small" size 16 align 4 elem_size 4
kernel fn0 "oob" link "oob" (v0 "out": ptr.global) entry block0 {
  v1: i64 = const 4
  v2: ptr.shared = global_addr global0
block0:
  v3: i32 = builtin local_id x
  v4: i64 = zext v3
  v5: i64 = mul v4, v1
  v6: ptr.shared = ptradd v2, v5
  store v6, v3 align 4
  return
}
"#;
    let (r, _) = run_out(text, Launch::linear(8, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["out-of-bounds"]);
    let v = &r.violations[0];
    let ViolationKind::OutOfBounds {
        object,
        offset,
        width,
        size,
        write,
    } = v.kind
    else {
        panic!()
    };
    assert_eq!((offset, width, size, write), (16, 4, 16, true));
    assert_eq!(r.memory.object(object).name, "small");
    assert_eq!(v.thread.local, [4, 0, 0]);
}

#[test]
fn null_dereference() {
    let text = r#"
language cuda
kernel fn0 "null" link "null" (v0 "out": ptr.global) entry block0 {
  v1: ptr.global = null
  v2: i64 = const 8
block0:
  v3: ptr.global = ptradd v1, v2
  v4: i32 = load v3 align 4
  store v0, v4 align 4
  return
}
"#;
    let (r, _) = run_out(text, Launch::linear(1, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["null-pointer"]);
    assert!(matches!(
        r.violations[0].kind,
        ViolationKind::NullDereference {
            offset: 8,
            write: false
        }
    ));
}

#[test]
fn division_by_zero_and_overflow() {
    let text = r#"
language cuda
kernel fn0 "div" link "div" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 100
  v2: i32 = const -2147483648
  v3: i32 = const -1
  v4: i32 = const 1
block0:
  v5: i32 = builtin local_id x
  v6: i32 = udiv v1, v5
  v7: i32 = sub v4, v5
  v8: i32 = mul v7, v3
  v9: i32 = add v8, v3
  v10: i32 = sdiv v2, v9
  return
}
"#;
    // Thread 0 divides by zero; thread 0's second division is INT_MIN / -1
    // (v9 = (1 - t) * -1 - 1 = t - 2, which is -1 for t = 1).
    let (r, _) = run_out(text, Launch::linear(2, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["division-by-zero", "overflow"]);
    assert_eq!(r.violations[0].thread.local, [0, 0, 0]);
    assert_eq!(r.violations[1].thread.local, [1, 0, 0]);
    assert!(r.completed);
}

#[test]
fn failing_assertion_and_assumption() {
    let text = r#"
language cuda
kernel fn0 "annot" link "annot" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 3
  v2: i32 = const 5
block0:
  v3: i32 = builtin local_id x
  v4: i1 = icmp ne v3, v1
  annot assert(v4)
  v5: i1 = icmp ne v3, v2
  annot assume(v5)
  annot requires(v5)
  return
}
"#;
    let (r, _) = run_out(text, Launch::linear(8, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["assertion"]);
    assert!(matches!(
        r.violations[0].kind,
        ViolationKind::AssertionFailed {
            annot: AnnotKind::Assert
        }
    ));
    assert_eq!(r.violations[0].thread.local, [3, 0, 0]);
    // Thread 5 violates the assumption: the run is infeasible for it, and
    // the `requires` after it is never checked.
    assert!(!r.is_feasible());
    assert_eq!(r.infeasible[0].thread.local, [5, 0, 0]);
    assert_eq!(r.threads_exited, 7);
}

#[test]
fn unsupported_annotation_values_are_flagged_not_reported() {
    let text = r#"
language cuda
kernel fn0 "other" link "other" (v0 "out": ptr.global) entry block0 {
block0:
  v1: i32 = builtin local_id x
  v2: i32 = annot_value other_int(v1)
  v3: i1 = icmp eq v1, v2
  v4: i1 = annot_value enabled()
  annot assert(v4)
  annot assert(v3)
  return
}
"#;
    let (r, _) = run_out(text, Launch::linear(4, 1), 1, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(r
        .unsupported
        .iter()
        .any(|(what, _)| what.contains("other_int")));
    assert!(r
        .unsupported
        .iter()
        .any(|(what, _)| what.contains("depends on")));
}

#[test]
fn constant_write_and_unreachable() {
    let text = r#"
language cuda
global0 = constant "k" size 4 align 4 init x"2a000000"
kernel fn0 "cw" link "cw" (v0 "out": ptr.global) entry block0 {
  v1: ptr.constant = global_addr global0
  v2: i32 = const 1
block0:
  v3: i32 = builtin local_id x
  v4: i32 = load v1 align 4
  store v0, v4 align 4
  store v1, v3 align 4
  v5: i1 = icmp eq v3, v2
  br v5, block1, block2
block1:
  unreachable
block2:
  return
}
"#;
    let (r, out) = run_out(text, Launch::linear(1, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["constant-write"]);
    assert_eq!(r.memory.read_i32s(out), vec![42]);
    let k = r.memory.by_name("k").unwrap();
    assert_eq!(r.memory.read_i32s(k), vec![42], "the write was dropped");
    let (r, _) = run_out(text, Launch::linear(2, 1), 1, &ReplayOptions::default());
    let unreachable = r
        .violations
        .iter()
        .find(|v| matches!(v.kind, ViolationKind::Unreachable))
        .unwrap();
    assert_eq!(unreachable.loc.inst, None, "a terminator");
    assert_eq!(unreachable.thread.local, [1, 0, 0]);
}

#[test]
fn runaway_loop_is_incomplete() {
    let text = r#"
language cuda
kernel fn0 "spin" link "spin" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 1
block0:
  jump block1(v1)
block1(v2: i32):
  v3: i32 = add v2, v1
  jump block1(v3)
}
"#;
    let opts = ReplayOptions {
        step_budget_per_thread: 10_000,
        ..ReplayOptions::default()
    };
    let (r, _) = run_out(text, Launch::linear(4, 2), 1, &opts);
    assert!(!r.completed);
    assert!(matches!(r.incomplete[0].0, IncompleteReason::StepBudget));
    assert!(r.steps <= 8 * 10_001);
    let opts = ReplayOptions {
        step_budget_total: 25_000,
        ..ReplayOptions::default()
    };
    let (r, _) = run_out(text, Launch::linear(4, 2), 1, &opts);
    assert!(!r.completed);
    assert!(r
        .incomplete
        .iter()
        .any(|(why, _)| *why == IncompleteReason::TotalStepBudget));
    assert!(r.steps <= 25_001);
}

#[test]
fn havoc_is_deterministic_or_from_the_oracle() {
    let text = r#"
language cuda
kernel fn0 "h" link "h" (v0 "out": ptr.global) entry block0 {
  v1: i64 = const 4
block0:
  v2: i32 = builtin local_id x
  v3: i64 = zext v2
  v4: i64 = mul v3, v1
  v5: ptr.global = ptradd v0, v4
  v6: i32 = havoc
  store v5, v6 align 4
  return
}
"#;
    let (a, oa) = run_out(text, Launch::linear(4, 1), 4, &ReplayOptions::default());
    let (b, ob) = run_out(text, Launch::linear(4, 1), 4, &ReplayOptions::default());
    assert_eq!(a.memory.read_i32s(oa), b.memory.read_i32s(ob));
    struct Fixed;
    impl HavocOracle for Fixed {
        fn havoc(&mut self, site: &HavocSite) -> u128 {
            assert_eq!(site.ty, Type::I32);
            100 + site.thread.local[0] as u128
        }
    }
    let m = module(text);
    let mut memory = Memory::new();
    let out = memory.alloc(MemSpace::Global, 16, None);
    let r = replay_with_oracle(
        &m,
        m.kernels().next().unwrap().0,
        &Launch::linear(4, 1),
        &[out],
        memory,
        &ReplayOptions::default(),
        &mut Fixed,
    )
    .unwrap();
    assert_eq!(
        r.memory.read_i32s(r.memory.target(out).unwrap()),
        vec![100, 101, 102, 103]
    );
}

#[test]
fn device_calls_with_private_arrays_and_returns() {
    let text = r#"
language cuda
device fn1 "twice" link "twice" (v0 "x": i32) -> i32 entry block0 {
  local0 = private "tmp" size 8 align 4
  v1: ptr.private = local_addr local0
  v2: i64 = const 4
block0:
  store v1, v0 align 4
  v3: ptr.private = ptradd v1, v2
  v4: i32 = load v1 align 4
  v5: i32 = add v4, v0
  store v3, v5 align 4
  v6: i32 = load v3 align 4
  return v6
}
kernel fn0 "k" link "k" (v0 "out": ptr.global) entry block0 {
  v1: i64 = const 4
block0:
  v2: i32 = builtin local_id x
  v3: i32 = call fn1(v2)
  v4: i32 = call fn1(v3)
  v5: i64 = zext v2
  v6: i64 = mul v5, v1
  v7: ptr.global = ptradd v0, v6
  store v7, v4 align 4
  return
}
"#;
    let (r, out) = run_out(text, Launch::linear(4, 1), 4, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.memory.read_i32s(out), vec![0, 4, 8, 12]);
    // Every call got its own private object, dead after the return.
    let locals: Vec<_> = r
        .memory
        .objects()
        .iter()
        .filter(|o| o.name == "tmp")
        .collect();
    assert_eq!(locals.len(), 8);
    assert!(locals.iter().all(|o| !o.live));
}

#[test]
fn bad_inputs_are_errors() {
    let m = module(WRITE_ALL);
    let k = m.kernels().next().unwrap().0;
    let opts = ReplayOptions::default();
    let err = replay(&m, k, &Launch::linear(1, 1), &[], Memory::new(), &opts).unwrap_err();
    assert_eq!(
        err,
        ReplayError::ArgumentCount {
            expected: 1,
            found: 0
        }
    );
    let err = replay(
        &m,
        k,
        &Launch::linear(0, 1),
        &[Val::NULL],
        Memory::new(),
        &opts,
    )
    .unwrap_err();
    assert!(matches!(err, ReplayError::BadLaunch(_)));
}

/// A use of `undef` is counted only when executed: thread 0 stores an
/// uninitialised value, the others a constant. `invalid_call` stops the
/// thread that executes it and is reported as a null-pointer violation.
#[test]
fn unspecified_uses_and_invalid_calls_are_recorded() {
    let text = r#"
language cuda
kernel fn0 "k" link "k" (v0 "out": ptr.global) entry block0 {
  v1: i32 = undef
  v2: i32 = const 0
  v3: i32 = const 7
  v4: i64 = const 4
  v20: ptr.global = null
block0:
  v10: i32 = builtin local_id x
  v11: i1 = icmp eq v10, v2
  br v11, block1, block2
block1:
  jump block3(v1)
block2:
  jump block3(v3)
block3(v12: i32):
  v13: i64 = zext v10
  v14: i64 = mul v13, v4
  v15: ptr.global = ptradd v0, v14
  store v15, v12 align 4
  return
}
"#;
    let opts = ReplayOptions::default();
    let (r, _) = run_out(text, Launch::linear(4, 1), 4, &opts);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    // One jump with an undefined argument, by thread 0 only.
    assert_eq!(r.unspecified_uses, 1);
    assert!(r.first_unspecified_use.is_some());

    let calling = text.replace("  store v15, v12 align 4\n  return", "  invalid_call v20\n  unreachable");
    let (r, _) = run_out(&calling, Launch::linear(4, 1), 4, &opts);
    assert_eq!(kinds(&r), vec!["null-pointer"]);
    assert!(r.violations[0].message.contains("null function pointer"), "{}", r.violations[0].message);
    assert!(r.completed);
}

#[test]
fn broken_no_wrap_promises_are_counted_and_the_run_goes_on() {
    // Thread t computes t * 2^30 with `mul nsw` (overflowing for t >= 2)
    // and the same product without the flag, and stores both: the run
    // wraps like the hardware, and counts only the flagged overflows.
    let text = r#"
language cuda
kernel fn0 "k" link "k" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const 1073741824
block0:
  v2: i32 = builtin local_id x
  v3: i32 = mul nsw v2, v1
  v4: i32 = mul v2, v1
  v5: i32 = add v3, v4
  store v0, v5 align 4
  return
}
"#;
    let (r, _) = run_out(text, Launch::linear(4, 1), 1, &ReplayOptions::default());
    assert_eq!(r.no_wrap_overflows, 2, "threads 2 and 3 overflow the flagged product");
    let (loc, thread) = r.first_no_wrap_overflow.expect("an overflow");
    assert!(thread.local[0] >= 2);
    assert!(loc.inst.is_some());
    assert!(r.completed);
    assert_eq!(r.threads_exited, 4);
}

/// Each thread of a group votes `t < LIMIT` with the collective `OP` after a
/// group barrier and writes the combined value to `out[group * size + t]`.
const VOTE: &str = r#"
language cuda
kernel fn0 "vote" link "vote" (v0 "out": ptr.global) entry block0 {
  v1: i64 = const 4
  v2: i32 = const LIMIT
block0:
  v3: i32 = builtin local_id x
  v4: i32 = builtin group_id x
  v5: i32 = builtin local_size x
  v6: i1 = icmp ult v3, v2
  v7: i32 = zext v6
  barrier group shared global
  v8: i32 = collective OP v7
  v9: i32 = mul v4, v5
  v10: i32 = add v9, v3
  v11: i64 = zext v10
  v12: i64 = mul v11, v1
  v13: ptr.global = ptradd v0, v12
  store v13, v8 align 4
  return
}
"#;

#[test]
fn group_collectives_combine_every_threads_operand() {
    // Five threads of each group of eight vote yes.
    for (op, expected) in [("or", 1), ("and", 0), ("count", 5)] {
        let text = VOTE.replace("LIMIT", "5").replace("OP", op);
        let (r, out) = run_out(&text, Launch::linear(8, 2), 16, &ReplayOptions::default());
        assert!(r.violations.is_empty(), "{op}: {:?}", r.violations);
        assert_eq!(r.memory.read_i32s(out), vec![expected; 16], "{op}");
    }
    // Nobody votes yes, or everybody does.
    for (limit, op, expected) in [("0", "or", 0), ("8", "and", 1), ("0", "count", 0)] {
        let text = VOTE.replace("LIMIT", limit).replace("OP", op);
        let (r, out) = run_out(&text, Launch::linear(8, 1), 8, &ReplayOptions::default());
        assert_eq!(r.memory.read_i32s(out), vec![expected; 8], "{op} with {limit} yes votes");
    }
}

#[test]
fn a_collective_must_follow_a_group_barrier() {
    let text = VOTE.replace("LIMIT", "5").replace("OP", "or").replace("  barrier group shared global\n", "");
    let m = parse_module(&text).expect("parses");
    let errors = verify_module(&m).expect_err("a collective without its barrier is invalid KIR");
    assert!(format!("{errors:?}").contains("group barrier"), "{errors:?}");
}

/// Lanes at or past `LIMIT` return; the others pass a warp barrier with
/// member mask `MASK`.
const EXIT_THEN_WARP_BARRIER: &str = r#"
language cuda
kernel fn0 "exit_sync" link "exit_sync" (v0 "out": ptr.global) entry block0 {
  v1: i32 = const LIMIT
  v2: i32 = const MASK
block0:
  v3: i32 = builtin local_id x
  v4: i1 = icmp ult v3, v1
  br v4, block1, block2
block1:
  barrier warp shared mask v2
  return
block2:
  return
}
"#;

#[test]
fn warp_barrier_mask_naming_an_exited_lane_is_reported() {
    let text = EXIT_THEN_WARP_BARRIER.replace("LIMIT", "16").replace("MASK", "4294967295");
    let (r, _) = run_out(&text, Launch::linear(32, 1), 1, &ReplayOptions::default());
    assert_eq!(kinds(&r), vec!["barrier-divergence"], "{:?}", r.violations);
    let ViolationKind::NamedLaneAbsent { arrivals } = &r.violations[0].kind else {
        panic!("{:?}", r.violations)
    };
    // The caller at the barrier, then a lane of the upper half, exited.
    assert!(arrivals[0].barrier.is_some());
    assert!(arrivals[1].barrier.is_none());
    assert!(arrivals[1].threads[0].local[0] >= 16);
    // A mask naming exactly the lanes that stay is fine, and so is a block
    // of 16 threads, whose warp has no lanes 16-31.
    let text = EXIT_THEN_WARP_BARRIER.replace("LIMIT", "16").replace("MASK", "65535");
    let (r, _) = run_out(&text, Launch::linear(32, 1), 1, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    let text = EXIT_THEN_WARP_BARRIER.replace("LIMIT", "16").replace("MASK", "4294967295");
    let (r, _) = run_out(&text, Launch::linear(16, 1), 1, &ReplayOptions::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}
