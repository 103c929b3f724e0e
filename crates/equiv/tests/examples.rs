//! The example pairs of `examples/equiv/`: each pair's verdict, through the
//! front-end and both engines (the CLI's golden tests check the rendering).

use std::path::{Path, PathBuf};
use std::time::Instant;

use lockstep_equiv::{check, EquivConfig, KernelRef, Verdict};
use lockstep_kir::Module;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn load(name: &str) -> Module {
    let path = root().join("examples/equiv").join(name);
    match lockstep_frontend::load(&path, &lockstep_frontend::CompileOptions::default()) {
        Ok(l) => l.module,
        Err(e) => panic!("{name}: {e:?}"),
    }
}

fn kernel(m: &Module) -> KernelRef<'_> {
    let (id, _) = m.kernels().next().expect("a kernel");
    KernelRef { module: m, kernel: id, file: "" }
}

fn config(block: [u64; 3], grid: [Option<u64>; 3]) -> EquivConfig {
    EquivConfig { group_size: block.map(Some), num_groups: grid, ..EquivConfig::default() }
}

fn verdict(a: &str, b: Option<&str>, config: &EquivConfig) -> lockstep_equiv::Outcome {
    let ma = load(a);
    let mb = b.map(load);
    let start = Instant::now();
    let o = check(kernel(&ma), mb.as_ref().map(kernel), config);
    eprintln!("{a} vs {b:?}: {} in {:?}: {:?} {:?}", o.verdict.name(), start.elapsed(), o.reason, o.difference);
    o
}

const ANY: [Option<u64>; 3] = [None, None, Some(1)];

#[test]
fn transpose_naive_and_tiled_are_equivalent() {
    let o = verdict("transpose_naive.cu", Some("transpose_tiled.cu"), &config([8, 8, 1], ANY));
    assert_eq!(o.verdict, Verdict::Equivalent, "{o:?}");
}

#[test]
fn transpose_bug_is_different() {
    let o = verdict("transpose_naive.cu", Some("transpose_tiled_bug.cu"), &config([8, 8, 1], ANY));
    assert_eq!(o.verdict, Verdict::Different, "{o:?}");
}

#[test]
fn reductions_are_equivalent() {
    let c = config([64, 1, 1], [None, Some(1), Some(1)]);
    for b in ["reduce_strided.cu", "reduce_sequential.cu"] {
        let o = verdict("reduce_interleaved.cu", Some(b), &c);
        assert_eq!(o.verdict, Verdict::Equivalent, "{b}: {o:?}");
    }
}

#[test]
fn reduction_bugs_are_different() {
    let c = config([64, 1, 1], [None, Some(1), Some(1)]);
    for b in ["reduce_sequential_bug.cu", "reduce_strided_bug.cu"] {
        let o = verdict("reduce_interleaved.cu", Some(b), &c);
        assert_eq!(o.verdict, Verdict::Different, "{b}: {o:?}");
    }
}

#[test]
fn strength_reduction_is_equivalent_and_its_bug_different() {
    let c = config([64, 1, 1], [None, Some(1), Some(1)]);
    let o = verdict("weighted.cu", Some("weighted_sr.cu"), &c);
    assert_eq!(o.verdict, Verdict::Equivalent, "{o:?}");
    let o = verdict("weighted.cu", Some("weighted_sr_bug.cu"), &c);
    assert_eq!(o.verdict, Verdict::Different, "{o:?}");
}

#[test]
fn postconditions() {
    let c = config([8, 8, 1], ANY);
    let o = verdict("transpose_spec.cu", None, &c);
    assert_eq!(o.verdict, Verdict::Equivalent, "{o:?}");
    let o = verdict("transpose_tiled_spec.cu", None, &c);
    assert_eq!(o.verdict, Verdict::Equivalent, "{o:?}");
    let o = verdict("transpose_tiled_spec_bug.cu", None, &c);
    assert_eq!(o.verdict, Verdict::Different, "{o:?}");
}

#[test]
fn racy_kernel_is_never_equivalent() {
    let o = verdict("transpose_naive.cu", Some("transpose_tiled_nosync.cu"), &config([8, 8, 1], ANY));
    assert_ne!(o.verdict, Verdict::Equivalent, "{o:?}");
}
