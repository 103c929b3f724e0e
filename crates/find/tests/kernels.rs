//! End-to-end tests: small CUDA kernels compiled by the front-end and
//! searched with concrete or symbolic launches.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lockstep_diag::ViolationKind;
use lockstep_find::{find_bugs, FindConfig, FindOutcome, MemRef};
use lockstep_frontend::{load, CompileOptions};
use lockstep_kir::Module;

fn kernel_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kernels").join(name)
}

/// The front-end's scratch files are not safe to share between concurrent
/// compilations in one process, so tests compile one at a time.
static COMPILE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn compile(path: &std::path::Path) -> Module {
    let _guard = COMPILE.lock().unwrap_or_else(|p| p.into_inner());
    load(path, &CompileOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", path.display())).module
}

fn config(block: [u64; 3], grid: [u64; 3]) -> FindConfig {
    FindConfig {
        group_size: block.map(Some),
        num_groups: grid.map(Some),
        query_timeout: Duration::from_secs(20),
        ..FindConfig::default()
    }
}

fn search_module(module: &Module, config: &FindConfig) -> FindOutcome {
    let (kernel, _) = module.kernels().next().expect("a kernel");
    find_bugs(module, kernel, config)
}

fn search(name: &str, block: [u64; 3], grid: [u64; 3]) -> FindOutcome {
    let module = compile(&kernel_path(name));
    let out = search_module(&module, &config(block, grid));
    eprintln!("{name}: {out:#?}");
    out
}

fn kinds(out: &FindOutcome) -> Vec<ViolationKind> {
    out.violations.iter().map(|v| v.kind).collect()
}

#[test]
fn write_write_race_on_one_element() {
    let out = search("write_write.cu", [32, 1, 1], [1, 1, 1]);
    let race = out.violations.iter().find(|v| v.kind == ViolationKind::DataRace).expect("a race");
    assert!(race.message.contains("write-write"), "{}", race.message);
    let w = &race.witness;
    assert_eq!(w.threads.len(), 2);
    assert_ne!(w.threads[0], w.threads[1]);
    assert!(w.threads.iter().all(|(l, g)| l[0] < 32 && g[0] == 0));
}

#[test]
fn read_write_race_with_the_neighbour() {
    let out = search("neighbour.cu", [64, 1, 1], [1, 1, 1]);
    let race = out.violations.iter().find(|v| v.kind == ViolationKind::DataRace).expect("a race");
    let w = &race.witness;
    let (a, b) = (w.threads[0].0[0], w.threads[1].0[0]);
    assert!(a + 1 == b || b + 1 == a, "threads {a} and {b} are not neighbours");
}

#[test]
fn missing_barrier_in_a_reduction() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/racy_reduction.cu");
    let module = compile(&path);
    let out = search_module(&module, &config([128, 1, 1], [1, 1, 1]));
    assert!(kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
    let race = out.violations.iter().find(|v| v.kind == ViolationKind::DataRace).unwrap();
    assert!(race.message.contains("partial"), "{}", race.message);
}

#[test]
fn inter_group_race_on_global_memory() {
    let out = search("inter_group.cu", [32, 1, 1], [4, 1, 1]);
    let race = out.violations.iter().find(|v| v.kind == ViolationKind::DataRace).expect("a race");
    let w = &race.witness;
    assert_ne!(w.threads[0].1, w.threads[1].1, "the threads should be in different groups");
    // With one group there is no race.
    let out = search("inter_group.cu", [32, 1, 1], [1, 1, 1]);
    assert!(out.violations.is_empty(), "{out:#?}");
}

#[test]
fn race_free_kernels_have_no_violation() {
    for name in ["own_element.cu", "tile.cu"] {
        let out = search(name, [64, 1, 1], [2, 1, 1]);
        assert!(out.violations.is_empty(), "{name}: {out:#?}");
    }
    // The strided loop indexes by the local id only: race-free in one group
    // (with two groups, both would update the same elements).
    let out = search("strided_loop.cu", [64, 1, 1], [1, 1, 1]);
    assert!(out.violations.is_empty(), "{out:#?}");
    let out = search("strided_loop.cu", [64, 1, 1], [2, 1, 1]);
    assert!(kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
}

#[test]
fn barrier_divergence() {
    let out = search("divergent.cu", [32, 1, 1], [1, 1, 1]);
    let d = out.violations.iter().find(|v| v.kind == ViolationKind::BarrierDivergence).expect("divergence");
    let w = &d.witness;
    let (a, b) = (w.threads[0].0[0], w.threads[1].0[0]);
    assert!((a < 16) != (b < 16), "threads {a} and {b} do not diverge");
}

#[test]
fn assertion_failing_for_one_argument_value() {
    let out = search("assert_input.cu", [8, 1, 1], [1, 1, 1]);
    let a = out.violations.iter().find(|v| v.kind == ViolationKind::Assertion).expect("an assertion failure");
    assert_eq!(a.witness.scalar_args.iter().find(|(i, _)| *i == 1).map(|(_, v)| *v), Some(1234567));
}

#[test]
fn assertion_failing_for_one_memory_value() {
    let out = search("memory_assert.cu", [8, 1, 1], [1, 1, 1]);
    let a = out.violations.iter().find(|v| v.kind == ViolationKind::Assertion).expect("an assertion failure");
    let w = &a.witness;
    let t = w.threads[0].0[0];
    let bytes: Vec<u8> = (0..4)
        .map(|k| {
            w.memory
                .iter()
                .find(|(m, off, _)| *m == MemRef::Param(0) && *off == t * 4 + k)
                .map(|c| c.2)
                .expect("the byte read is in the witness")
        })
        .collect();
    assert_eq!(i32::from_le_bytes(bytes.try_into().unwrap()), 42);
}

#[test]
fn shared_array_out_of_bounds() {
    let out = search("shared_oob.cu", [64, 1, 1], [1, 1, 1]);
    let oob = out.violations.iter().find(|v| v.kind == ViolationKind::OutOfBounds).expect("out of bounds");
    assert_eq!(oob.witness.threads[0].0[0], 63);
    // No race: the read is after the barrier.
    assert!(!kinds(&out).contains(&ViolationKind::DataRace), "{out:#?}");
}

#[test]
fn division_by_zero_argument() {
    let out = search("div_zero.cu", [8, 1, 1], [1, 1, 1]);
    let d = out.violations.iter().find(|v| v.kind == ViolationKind::DivisionByZero).expect("division by zero");
    assert_eq!(d.witness.scalar_args.iter().find(|(i, _)| *i == 1).map(|(_, v)| *v), Some(0));
}

#[test]
fn symbolic_sizes_pick_a_small_launch() {
    let module = compile(&kernel_path("neighbour.cu"));
    let config = FindConfig { query_timeout: Duration::from_secs(20), ..FindConfig::default() };
    let out = search_module(&module, &config);
    let race = out.violations.iter().find(|v| v.kind == ViolationKind::DataRace).expect("a race");
    assert!(race.witness.group_size.iter().all(|&s| (1..=64).contains(&s)));
}

#[test]
fn cost_does_not_grow_with_the_launch() {
    let module = compile(&kernel_path("tile.cu"));
    let time = |block: u64, grid: u64| {
        let start = Instant::now();
        let out = search_module(&module, &config([block, 1, 1], [grid, 1, 1]));
        (start.elapsed(), out)
    };
    // The tile kernel assumes 64 threads per group; both launches below
    // stay race-free in the modelled part, and what matters is the time.
    let (small, _) = time(32, 1);
    let (large, _) = time(1024, 4096);
    eprintln!("32x1: {small:?}, 1024x4096: {large:?}");
    assert!(large < small * 4 + Duration::from_secs(1), "32x1 took {small:?}, 1024x4096 took {large:?}");
}

#[test]
fn atomic_slots_and_benign_writes_are_not_races() {
    for name in ["atomic_slot.cu", "same_value.cu"] {
        let out = search(name, [32, 1, 1], [2, 1, 1]);
        assert!(out.violations.is_empty(), "{name}: {out:#?}");
    }
}

/// The kinds a proof of the kernel rules out, as the engine passes them.
const PROVED: [ViolationKind; 6] = [
    ViolationKind::DataRace,
    ViolationKind::BarrierDivergence,
    ViolationKind::Assertion,
    ViolationKind::Invariant,
    ViolationKind::NullPointer,
    ViolationKind::ConstantWrite,
];

#[test]
fn skipped_kinds_are_not_looked_for_and_the_others_still_are() {
    // A race and nothing else: skipping races leaves nothing to ask.
    let module = compile(&kernel_path("write_write.cu"));
    let out = search_module(&module, &FindConfig { skip_kinds: PROVED.to_vec(), ..config([32, 1, 1], [1, 1, 1]) });
    assert!(out.violations.is_empty() && out.complete, "{out:#?}");
    // A failing assertion is skipped once assertions are proved.
    let module = compile(&kernel_path("assert_input.cu"));
    let out = search_module(&module, &FindConfig { skip_kinds: PROVED.to_vec(), ..config([32, 1, 1], [1, 1, 1]) });
    assert!(!kinds(&out).contains(&ViolationKind::Assertion), "{out:#?}");
    // Bounds and division by zero are not among the proved kinds: the
    // finder still finds them.
    let module = compile(&kernel_path("shared_oob.cu"));
    let out = search_module(&module, &FindConfig { skip_kinds: PROVED.to_vec(), ..config([64, 1, 1], [1, 1, 1]) });
    assert!(kinds(&out).contains(&ViolationKind::OutOfBounds), "{out:#?}");
    let module = compile(&kernel_path("div_zero.cu"));
    let out = search_module(&module, &FindConfig { skip_kinds: PROVED.to_vec(), ..config([8, 1, 1], [1, 1, 1]) });
    assert!(kinds(&out).contains(&ViolationKind::DivisionByZero), "{out:#?}");
}
