//! End-to-end tests: small CUDA kernels compiled by the front-end, and KIR
//! text kernels, proved or refuted.

use std::path::PathBuf;
use std::time::Duration;

use lockstep_diag::ViolationKind;
use lockstep_frontend::{load, CompileOptions};
use lockstep_kir::Module;
use lockstep_prove::{prove_kernel, ProveConfig, ProveOutcome};

fn kernel_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kernels").join(name)
}

/// The front-end's per-process scratch directory is not safe for parallel
/// loads within one process (tests run on several threads), so loads are
/// serialised.
static LOAD: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn module(name: &str) -> Module {
    let _guard = LOAD.lock().unwrap_or_else(|e| e.into_inner());
    load(&kernel_path(name), &CompileOptions::default()).expect("kernel compiles").module
}

fn config(block: Option<u64>, grid: Option<u64>) -> ProveConfig {
    ProveConfig {
        group_size: [block, Some(1), Some(1)],
        num_groups: [grid, Some(1), Some(1)],
        dims: 1,
        query_timeout: Duration::from_secs(20),
        ..ProveConfig::default()
    }
}

fn prove(name: &str, kernel: &str, cfg: &ProveConfig) -> (Module, ProveOutcome) {
    let m = module(name);
    let k = m.function_by_name(kernel).expect("kernel exists");
    let out = prove_kernel(&m, k, cfg);
    (m, out)
}

fn assert_verified(out: &ProveOutcome) {
    assert!(matches!(out, ProveOutcome::Verified { .. }), "expected verified, got {out:#?}");
}

fn failed_kinds(out: &ProveOutcome) -> Vec<ViolationKind> {
    match out {
        ProveOutcome::Failed { violations } => violations.iter().map(|v| v.kind).collect(),
        other => panic!("expected a failed proof, got {other:#?}"),
    }
}

#[test]
fn thread_indexed_write_verifies_for_symbolic_launch() {
    let (_, out) = prove("ok_simple.cu", "fill", &config(None, None));
    assert_verified(&out);
    if let ProveOutcome::Verified { assumptions, proved, .. } = &out {
        assert!(assumptions.iter().any(|a| a.contains("do not alias")));
        assert!(assumptions.iter().any(|a| a.contains("terminates")));
        assert!(proved.iter().any(|p| p.contains("no data race on `A`")), "{proved:?}");
    }
}

#[test]
fn shared_tile_with_barrier_verifies() {
    let (_, out) = prove("ok_tile.cu", "rotate", &config(Some(64), Some(8)));
    assert_verified(&out);
}

#[test]
fn strided_loop_verifies() {
    let (_, out) = prove("ok_stride.cu", "stride", &config(Some(64), Some(1)));
    assert_verified(&out);
}

#[test]
fn strided_loop_needs_the_stride_rule() {
    let mut cfg = config(Some(64), Some(1));
    cfg.disabled_rules = vec!["stride".into()];
    let (_, out) = prove("ok_stride.cu", "stride", &cfg);
    assert!(!matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
    let mut cfg = config(Some(64), Some(1));
    cfg.no_infer = true;
    let (_, out) = prove("ok_stride.cu", "stride", &cfg);
    assert!(!matches!(out, ProveOutcome::Verified { .. }), "{out:#?}");
}

#[test]
fn tree_reduction_with_barrier_verifies() {
    let (_, out) = prove("ok_reduce.cu", "reduce", &config(Some(128), Some(4)));
    assert_verified(&out);
}

#[test]
fn write_to_one_cell_races_at_the_same_statement() {
    let (m, out) = prove("racy_const.cu", "same_cell", &config(Some(64), Some(1)));
    let ProveOutcome::Failed { violations } = &out else { panic!("{out:#?}") };
    let v = &violations[0];
    assert_eq!(v.kind, ViolationKind::DataRace);
    let first = v.first.as_ref().and_then(|a| a.at.as_ref()).and_then(|l| l.src).expect("first location");
    let second = v.second.as_ref().and_then(|a| a.at.as_ref()).and_then(|l| l.src).expect("second location");
    assert_eq!(first.line, 2);
    assert_eq!(second.line, 2);
    assert_eq!(v.object.as_deref(), Some("A"));
    assert_ne!(v.threads[0], v.threads[1]);
    let report = lockstep_prove::report::kernel_report(&m, m.function_by_name("same_cell").unwrap(), &out);
    assert_eq!(report.verdict, lockstep_diag::Verdict::PossibleErrors);
}

#[test]
fn reduction_without_barrier_races() {
    let (_, out) = prove("racy_reduce.cu", "reduce", &config(Some(128), Some(1)));
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace));
}

#[test]
fn inter_group_race_on_global_memory() {
    let (_, out) = prove("racy_intergroup.cu", "per_thread", &config(Some(32), Some(2)));
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace));
    // One group only: no race.
    let (_, out) = prove("racy_intergroup.cu", "per_thread", &config(Some(32), Some(1)));
    assert_verified(&out);
}

#[test]
fn barrier_under_thread_dependent_condition_diverges() {
    let (_, out) = prove("divergent.cu", "diverge", &config(Some(64), Some(1)));
    assert!(failed_kinds(&out).contains(&ViolationKind::BarrierDivergence), "{out:#?}");
}

#[test]
fn assertions_are_checked() {
    let (_, out) = prove("asserts.cu", "holds", &config(Some(64), Some(1)));
    assert_verified(&out);
    let (_, out) = prove("asserts.cu", "fails", &config(Some(64), Some(1)));
    assert_eq!(failed_kinds(&out), vec![ViolationKind::Assertion]);
}

#[test]
fn user_invariants_are_checked_and_used() {
    let mut cfg = config(Some(64), Some(1));
    cfg.no_infer = true;
    let (_, out) = prove("user_invariant.cu", "counted", &cfg);
    assert_verified(&out);
    let (_, out) = prove("user_invariant.cu", "wrong", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::Invariant), "{out:#?}");
    // Without the invariant (and without inference) the assertion after the
    // loop cannot be proved.
    let (_, out) = prove("user_invariant.cu", "needed", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::Assertion), "{out:#?}");
}

#[test]
fn device_functions_are_inlined() {
    let (_, out) = prove("device_calls.cu", "ok", &config(Some(64), Some(4)));
    assert_verified(&out);
    let (m, out) = prove("device_calls.cu", "racy", &config(Some(64), Some(1)));
    let ProveOutcome::Failed { violations } = &out else { panic!("{out:#?}") };
    assert_eq!(violations[0].kind, ViolationKind::DataRace);
    // The access is reported at its place in the device function.
    let at = violations[0].at.as_ref().expect("location");
    assert_eq!(m.functions[at.func].name, "put");
    assert_eq!(at.src.map(|s| s.line), Some(2));
}

#[test]
fn constant_writes_and_null_accesses_are_reported() {
    let cfg = config(Some(64), Some(1));
    let (_, out) = prove("memory_safety.cu", "write_constant", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::ConstantWrite), "{out:#?}");
    let (_, out) = prove("memory_safety.cu", "read_constant", &cfg);
    assert_verified(&out);
    let (_, out) = prove("memory_safety.cu", "null_store", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::NullPointer), "{out:#?}");
}

#[test]
fn verified_outcome_names_the_rules_of_the_invariants_used() {
    let (_, out) = prove("ok_stride.cu", "stride", &config(Some(64), Some(1)));
    let ProveOutcome::Verified { invariants, .. } = &out else { panic!("{out:#?}") };
    let tags: Vec<&str> = invariants.iter().map(|(t, _)| t.as_str()).collect();
    assert!(tags.contains(&"stride"), "{tags:?}");
    assert!(tags.contains(&"access-offset"), "{tags:?}");
    assert!(tags.iter().all(|t| lockstep_prove::candidates::RULES.contains(t) || *t == "user"));
}

#[test]
fn barrier_in_a_loop_needs_predicate_equality() {
    // The tree reduction's barrier is in a loop: without the `pred-eq` and
    // `uniform` rules the threads' loop predicates are unrelated.
    let mut cfg = config(Some(128), Some(1));
    cfg.disabled_rules = vec!["pred-eq".into(), "uniform".into()];
    let (_, out) = prove("ok_reduce.cu", "reduce", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::BarrierDivergence), "{out:#?}");
}

#[test]
fn writes_of_equal_memory_independent_values_are_benign() {
    let cfg = config(Some(256), Some(1));
    for k in ["flag_const", "same_quotient", "flag_in_loop"] {
        let (_, out) = prove("benign.cu", k, &cfg);
        assert_verified(&out);
    }
    for k in ["different_values", "two_constants", "from_memory", "from_memory_same", "value_in_loop"] {
        let (_, out) = prove("benign.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
    // Across groups too.
    let (_, out) = prove("benign.cu", "flag_const", &config(None, None));
    assert_verified(&out);
}

#[test]
fn equality_abstraction_makes_all_equal_writes_benign() {
    let mut cfg = config(Some(256), Some(1));
    cfg.equality_abstraction = true;
    // `from_memory`: no thread writes B[0], so every thread of the group
    // reads one value from it (the equality abstraction).
    for k in ["from_memory_same", "from_memory"] {
        let (_, out) = prove("benign.cu", k, &cfg);
        assert_verified(&out);
    }
    for k in ["from_memory_elsewhere", "two_constants", "different_values"] {
        let (_, out) = prove("benign.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
}

#[test]
fn a_read_of_a_value_its_thread_wrote_itself_is_a_benign_race() {
    let cfg = config(Some(256), Some(1));
    let (_, out) = prove("benign.cu", "read_back_own", &cfg);
    assert_verified(&out);
    // Thread 0 did not write A[0]; and a barrier (a warp barrier too) ends
    // the interval of a thread's own write.
    for k in ["read_back_other", "read_back_after_barrier"] {
        let (_, out) = prove("benign.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
}

#[test]
fn loads_that_only_feed_annotations_are_not_accesses() {
    let cfg = config(Some(64), Some(1));
    let (_, out) = prove("benign.cu", "spec_read", &cfg);
    assert_verified(&out);
    let (_, out) = prove("benign.cu", "real_read", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
}

#[test]
fn callee_postconditions_are_checked_at_returns_and_modularly() {
    let cfg = config(Some(64), Some(1));
    for k in ["ensures_ok", "ensures_ptr", "ensures_distinct"] {
        let (_, out) = prove("contracts.cu", k, &cfg);
        assert_verified(&out);
    }
    for k in ["ensures_modular", "ensures_fails"] {
        let (_, out) = prove("contracts.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::Postcondition), "{k}: {out:#?}");
    }
}

#[test]
fn memory_the_kernel_never_writes_reads_the_same_for_all_threads() {
    let cfg = config(Some(64), Some(4));
    let (_, out) = prove("benign.cu", "from_unwritten", &cfg);
    assert_verified(&out);
    let (_, out) = prove("benign.cu", "perm_from_unwritten", &cfg);
    assert_verified(&out);
    for k in ["from_written", "index_from_unwritten"] {
        let (_, out) = prove("benign.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
}

#[test]
fn uniform_loops_need_no_inference() {
    let mut cfg = config(Some(16), Some(16));
    cfg.no_infer = true;
    let (_, out) = prove("uniform_loops.cu", "group_bound", &cfg);
    assert_verified(&out);
    let (_, out) = prove("uniform_loops.cu", "thread_bound", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::BarrierDivergence), "{out:#?}");
}

#[test]
fn function_wide_invariants_are_checked_at_every_loop() {
    let mut cfg = config(Some(32), Some(4));
    cfg.no_infer = true;
    let (_, out) = prove("function_wide.cu", "both_loops", &cfg);
    assert_verified(&out);
    if let ProveOutcome::Verified { proved, .. } = &out {
        // Two function-wide invariants at two loops, and the loop's own.
        assert!(proved.iter().filter(|p| p.contains("loop invariant at")).count() >= 3, "{proved:?}");
    }
    let (_, out) = prove("function_wide.cu", "violated", &cfg);
    let kinds = failed_kinds(&out);
    assert!(kinds.contains(&ViolationKind::Invariant), "{out:#?}");
    let ProveOutcome::Failed { violations } = &out else { unreachable!() };
    let v = violations.iter().find(|v| v.kind == ViolationKind::Invariant).unwrap();
    // Reported at the function-wide invariant's own line.
    assert_eq!(v.at.as_ref().and_then(|l| l.src).map(|s| s.line), Some(25), "{v:#?}");
    // One that reads memory is not silently dropped...
    let (_, out) = prove("function_wide.cu", "reads_memory", &cfg);
    let ProveOutcome::Unknown { reason, .. } = &out else { panic!("{out:#?}") };
    assert!(reason.contains("function-wide invariant"), "{reason}");
    // ...but a candidate is.
    let (_, out) = prove("function_wide.cu", "candidate_reads_memory", &cfg);
    assert_verified(&out);
}

#[test]
fn warp_sync_orders_the_threads_of_a_warp() {
    let mut cfg = config(Some(128), Some(1));
    let (_, out) = prove("warp_sync.cu", "scan_warp", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
    cfg.warp_size = Some(32);
    let (_, out) = prove("warp_sync.cu", "scan_warp", &cfg);
    assert_verified(&out);
    if let ProveOutcome::Verified { assumptions, .. } = &out {
        assert!(assumptions.iter().any(|a| a.contains("warp-synchronous")), "{assumptions:?}");
    }
    // Smaller warps split the scan's lanes: races again.
    cfg.warp_size = Some(2);
    let (_, out) = prove("warp_sync.cu", "scan_warp", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
    cfg.warp_size = Some(32);
    let (_, out) = prove("warp_sync.cu", "across_warps", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
}

#[test]
fn external_calls_may_take_private_pointers_only() {
    let cfg = config(Some(64), Some(2));
    let (_, out) = prove("external_calls.cu", "by_value", &cfg);
    assert_verified(&out);
    if let ProveOutcome::Verified { assumptions, .. } = &out {
        assert!(assumptions.iter().any(|a| a.contains("`bar` (no body)")), "{assumptions:?}");
    }
    let (_, out) = prove("external_calls.cu", "global_pointer", &cfg);
    let ProveOutcome::Unknown { reason, .. } = &out else { panic!("{out:#?}") };
    assert!(reason.contains("without a body"), "{reason}");
}

#[test]
fn barrier_invariants_are_checked_then_assumed() {
    let cfg = config(Some(128), Some(4));
    for k in ["own_value", "neighbour", "distinct"] {
        let (_, out) = prove("barrier_invariants.cl", k, &cfg);
        assert_verified(&out);
    }
    // A violated invariant is reported at its own line, as a failed check.
    for (k, line) in [("wrong_value", 32), ("not_distinct", 38), ("unknown_neighbour", 47)] {
        let (_, out) = prove("barrier_invariants.cl", k, &cfg);
        let ProveOutcome::Failed { violations } = &out else { panic!("{k}: {out:#?}") };
        let v = &violations[0];
        assert!(v.message.contains("barrier invariant"), "{k}: {v:#?}");
        assert_eq!(v.at.as_ref().and_then(|l| l.src).map(|s| s.line), Some(line), "{k}");
    }
    // What the invariants do not give is not assumed.
    for k in ["not_instantiated", "out_of_range", "stale"] {
        let (_, out) = prove("barrier_invariants.cl", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::Assertion), "{k}: {out:#?}");
    }
}

#[test]
fn races_around_a_loop_nobody_enters_are_found() {
    let cfg = config(Some(64), Some(1));
    for k in ["skipped_loop", "skipped_loop2", "skipped_loop3", "logger_skips_loop", "logger_skips_loop_shared"] {
        let (_, out) = prove("skipped_loops.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
}

#[test]
fn inference_sees_through_inner_loops_and_barriers() {
    let (_, out) = prove("inference.cl", "read_after_inner_loop", &config(Some(32), Some(1)));
    assert_verified(&out);
    let (_, out) = prove("inference.cl", "group_dependent_loops", &config(Some(32), Some(32)));
    assert_verified(&out);
    let mut cfg = config(Some(1024), Some(1));
    cfg.no_infer = true;
    let (_, out) = prove("inference.cl", "uniform_loop_with_guarded_body", &cfg);
    if let ProveOutcome::Failed { .. } = &out {
        assert!(!failed_kinds(&out).contains(&ViolationKind::BarrierDivergence), "{out:#?}");
    }
}

#[test]
fn callee_global_postconditions_are_checked_at_returns() {
    let cfg = config(Some(64), Some(4));
    let (_, out) = prove("global_ensures.cl", "holds", &cfg);
    assert_verified(&out);
    let (_, out) = prove("global_ensures.cl", "fails", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::Postcondition), "{out:#?}");
}

#[test]
fn counting_increments_return_distinct_values() {
    let cfg = config(Some(64), Some(2));
    let (_, out) = prove("atomic_counters.cu", "counter", &cfg);
    assert_verified(&out);
    if let ProveOutcome::Verified { assumptions, .. } = &out {
        assert!(assumptions.iter().any(|a| a.contains("atomic increments")), "{assumptions:?}");
    }
    for k in ["add_tid", "add_and_sub", "shared_counter"] {
        let (_, out) = prove("atomic_counters.cu", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
    // Without a concrete launch the increments could wrap around.
    let (_, out) = prove("atomic_counters.cu", "counter", &config(None, Some(2)));
    assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
}

#[test]
fn constant_initialised_private_arrays_read_their_initial_contents() {
    let cfg = config(Some(10), Some(1));
    let (_, out) = prove("const_private.cl", "initialised", &cfg);
    assert_verified(&out);
    let (_, out) = prove("const_private.cl", "assert_initial", &cfg);
    assert_verified(&out);
    let (_, out) = prove("const_private.cl", "overwritten", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::Precondition), "{out:#?}");
}

#[test]
fn invariants_split_by_the_compiler_are_checked_at_the_header() {
    let mut cfg = config(Some(64), Some(1));
    cfg.no_infer = true;
    let (_, out) = prove("split_invariants.cl", "violated", &cfg);
    let ProveOutcome::Failed { violations } = &out else { panic!("{out:#?}") };
    assert!(violations.iter().any(|v| v.kind == ViolationKind::Invariant), "{violations:#?}");
    cfg.no_infer = false;
    let (_, out) = prove("split_invariants.cl", "holds", &cfg);
    assert_verified(&out);
}

#[test]
fn async_copies_stay_in_flight_until_their_wait() {
    let cfg = config(Some(64), Some(128));
    for k in ["waited", "barrier_before_wait", "joined", "in_loop", "write_back", "through_helper"] {
        let (_, out) = prove("async_copies.cl", k, &cfg);
        assert!(matches!(out, ProveOutcome::Verified { .. }), "{k}: expected verified, got {out:#?}");
    }
    for k in ["read_before_wait", "overwritten_handle", "write_back_same_range", "waited_on_one_path"] {
        let (_, out) = prove("async_copies.cl", k, &cfg);
        assert!(failed_kinds(&out).contains(&ViolationKind::DataRace), "{k}: {out:#?}");
    }
    let (_, out) = prove("async_copies.cl", "non_uniform_source", &cfg);
    assert!(failed_kinds(&out).contains(&ViolationKind::BarrierDivergence), "{out:#?}");
    let (_, out) = prove("async_copies.cl", "non_uniform_wait", &cfg);
    let ProveOutcome::Unknown { reason, .. } = &out else { panic!("{out:#?}") };
    assert!(reason.contains("cannot trace"), "{reason}");
}

/// `race::overlap` with a constant power-of-two width compares aligned
/// accesses of that width by offset equality; z3 confirms that this is the
/// byte-range formula `(o2 - o1) <u w1 || (o1 - o2) <u w2` for every
/// offset and logged width, aligned or not.
#[test]
fn overlap_of_aligned_accesses_is_the_byte_range_formula() {
    use lockstep_smt::{SatResult, Solver, SolverConfig, Sort, TermStore};
    let mut st = TermStore::new();
    let o1 = st.declare_const("o1", Sort::bv(64));
    let w1 = st.declare_const("w1", Sort::bv(64));
    let i = st.declare_const("i", Sort::bv(32));
    let j = st.declare_const("j", Sort::bv(64));
    let wide = st.zero_extend(32, i);
    let mut cases = Vec::new();
    for width in [1u128, 2, 4, 8, 16] {
        let w2 = st.bv_const(64, width);
        let k = st.bv_const(64, width);
        // An offset known to be aligned, and one that may not be.
        let aligned = st.bvmul(wide, k);
        for o2 in [aligned, j] {
            for exact_empty in [false, true] {
                let fast = lockstep_prove::race::overlap(&mut st, o1, w1, o2, w2, exact_empty);
                let d21 = st.bvsub(o2, o1);
                let d12 = st.bvsub(o1, o2);
                let a = st.bvult(d21, w1);
                let b = st.bvult(d12, w2);
                let mut bytes = st.or(&[a, b]);
                if exact_empty {
                    let zero = st.bv_const(64, 0);
                    let e1 = st.eq(w1, zero);
                    let n1 = st.not(e1);
                    bytes = st.and(&[n1, bytes]);
                }
                cases.push(st.distinct(&[fast, bytes]));
            }
        }
    }
    let any = st.or(&cases);
    let mut s = Solver::spawn(SolverConfig::new(lockstep_smt::SolverKind::Z3, Duration::from_secs(30))).expect("z3");
    s.assert(&st, any).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
}

#[test]
fn warp_masks_must_name_only_lanes_that_take_part() {
    for kernel in ["sync_names_exited", "vote_names_exited"] {
        let (_, out) = prove("warp_exit_masks.cu", kernel, &config(Some(64), Some(2)));
        assert!(failed_kinds(&out).contains(&ViolationKind::BarrierDivergence), "{kernel}: {out:#?}");
    }
    for kernel in ["sync_names_stayers", "vote_names_stayers"] {
        let (_, out) = prove("warp_exit_masks.cu", kernel, &config(Some(64), Some(2)));
        assert_verified(&out);
    }
}
