//! Replays of OpenCL group-level semantics: async copies and their events,
//! barriers whose flags differ between work-items, and GPUVerify's
//! `__read`/`__write` predicates.
//!
//! The `.kir` files under `tests/data` were produced by `lockstep check FILE
//! --local_size=64 --num_groups=2 --dump-kir` from the OpenCL kernels
//! quoted in each test.

use lockstep_kir::{parse_module, verify_module, AnnotKind, MemSpace, Module};
use lockstep_replay::*;

fn load(name: &str) -> Module {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    m
}

/// Replays `kernel` of `file` on 2 groups of 64 work-items with one
/// zero-filled buffer per pointer parameter (global or local).
fn run(file: &str, kernel: &str) -> ReplayResult {
    let m = load(file);
    let k = m.function_by_name(kernel).unwrap();
    let mut memory = Memory::new();
    let args: Vec<Val> = m.functions[k]
        .params
        .iter()
        .map(|p| {
            let space = match p.ty {
                lockstep_kir::Type::Ptr(MemSpace::Shared) => MemSpace::Shared,
                _ => MemSpace::Global,
            };
            memory.alloc(space, 4 * 1024, None)
        })
        .collect();
    let r = replay(&m, k, &Launch::linear(64, 2), &args, memory, &ReplayOptions::default()).unwrap();
    assert!(r.completed, "{kernel}: {:?}", r.incomplete);
    r
}

/// The names of the objects the races of `r` are on.
fn raced_objects(r: &ReplayResult) -> Vec<String> {
    let mut names: Vec<String> = r
        .races()
        .map(|v| match &v.kind {
            ViolationKind::DataRace { first, .. } => r.memory.object(first.object).name.clone(),
            _ => unreachable!(),
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// ```c
/// handles[0] = async_work_group_copy(my_p, p + N * get_group_id(0), N, 0);
/// handles[1] = async_work_group_copy(my_q, q + N * get_group_id(0), N, 0);
/// wait_group_events(1, handles);
/// barrier(CLK_LOCAL_MEM_FENCE);
/// p[get_global_id(0)] = my_p[get_local_id(0)] + my_q[get_local_id(0)];
/// ```
/// Only the copy into `my_p` was waited for: the one into `my_q` is still
/// in flight after the barrier. (The write of `p` races too: the barrier
/// fences only local memory, so it does not order the first copy's reads of
/// `p`, the first buffer.)
#[test]
fn a_wait_completes_only_the_copies_of_its_events() {
    let r = run("async_events.kir", "wait_one");
    assert_eq!(raced_objects(&r), vec!["buffer0".to_string(), "wait_one.my_q".to_string()]);
}

/// ```c
/// event_t handle = async_work_group_copy(my_p, p + ..., N, 0);
/// async_work_group_copy(my_q, q + ..., N, handle);
/// wait_group_events(1, &handle);
/// barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
/// p[get_global_id(0)] = my_p[get_local_id(0)] + my_q[get_local_id(0)];
/// ```
/// The second copy joins the first one's event, so one wait completes both.
#[test]
fn a_joined_event_completes_both_copies() {
    let r = run("async_events.kir", "wait_both");
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// ```c
/// event_t handle = async_work_group_copy(mine, p, N, 0);
/// barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
/// q[get_global_id(0)] = mine[get_local_id(0)];
/// wait_group_events(1, &handle);
/// ```
#[test]
fn a_barrier_does_not_complete_a_copy() {
    let r = run("async_events.kir", "in_flight");
    assert_eq!(raced_objects(&r), vec!["in_flight.mine".to_string()]);
}

/// ```c
/// event_t handle = async_work_group_copy(mine, p, N, 0);
/// wait_group_events(1, &handle);
/// q[get_global_id(0)] = mine[get_local_id(0)];
/// ```
/// A wait is not a barrier: another work-item's share of the copy may have
/// written what this one reads.
#[test]
fn a_wait_is_not_a_barrier() {
    let r = run("async_events.kir", "no_barrier_after_wait");
    assert_eq!(raced_objects(&r), vec!["no_barrier_after_wait.mine".to_string()]);
}

/// ```c
/// event_t *which = get_local_id(0) > 13 ? &b : &a;
/// wait_group_events(1, which);
/// ```
#[test]
fn waiting_for_different_events_is_reported() {
    let r = run("async_events.kir", "different_events");
    assert!(r
        .violations
        .iter()
        .any(|v| matches!(v.kind, ViolationKind::NonUniformGroupCall { what: "wait_group_events" })));
    assert!(r.violations.iter().all(|v| v.kind.name() == "barrier-divergence"));
}

/// ```c
/// x = get_local_id(0) == 0 ? CLK_LOCAL_MEM_FENCE : 0;
/// if (get_local_id(0) == 0) { y = p[0]; }
/// barrier(x);
/// if (get_local_id(0) == 1) { p[0] = 0; }
/// ```
/// The only reader fenced local memory, so its read is ordered before the
/// write (GPUVerify verifies this kernel).
#[test]
fn a_barrier_orders_the_accesses_of_work_items_whose_flags_fence_them() {
    let r = run("barrier_flags.kir", "fenced_read");
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// The same with every work-item reading `p[0]` before the barrier: the
/// reads of those whose flags are 0 race with the write.
#[test]
fn a_barrier_does_not_order_the_accesses_of_work_items_whose_flags_do_not() {
    let r = run("barrier_flags.kir", "unfenced_read");
    let races: Vec<_> = r.races().collect();
    assert!(!races.is_empty());
    for race in races {
        let ViolationKind::DataRace { first, second, .. } = &race.kind else { unreachable!() };
        // Work-item 0 fenced its read; the racing reader is another one.
        let reader = if first.write { second } else { first };
        assert_ne!(reader.thread.local[0], 0);
    }
}

/// ```c
/// p[get_global_id(0)] = q[get_global_id(0)];
/// __assert(__read(q)); __assert(!__write(q)); __assert(__write(p));
/// barrier(CLK_GLOBAL_MEM_FENCE);
/// __assert(!__read(q)); __assert(!__write(p));
/// ```
#[test]
fn access_predicates_follow_the_accesses_since_the_last_barrier() {
    let r = run("access_predicates.kir", "predicates");
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(r.unsupported.is_empty(), "{:?}", r.unsupported);
}

/// ```c
/// p[get_global_id(0)] = q[get_global_id(0)];
/// __assert(!__read(q));
/// ```
#[test]
fn a_read_falsifies_a_claim_of_no_read() {
    let r = run("access_predicates.kir", "read_claimed_absent");
    assert!(!r.violations.is_empty());
    assert!(r.violations.iter().all(|v| matches!(v.kind, ViolationKind::AssertionFailed { annot: AnnotKind::Assert })));
}
