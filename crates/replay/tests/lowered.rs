//! Replays of kernels lowered from real CUDA and OpenCL source.
//!
//! The `.kir` files under `tests/data` were produced by `lockstep check FILE
//! --dump-kir` from `examples/` and from small kernels quoted in each test,
//! so that these tests need neither clang nor the front-end.

use std::time::Instant;

use lockstep_kir::{parse_module, verify_module, MemSpace, Module};
use lockstep_replay::*;

fn load(name: &str) -> Module {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    m
}

#[test]
fn racy_reduction_races_on_partial() {
    let m = load("racy_reduction.kir");
    let kernel = m.function_by_name("sum").unwrap();
    let mut memory = Memory::new();
    let input = memory.alloc_i32s(MemSpace::Global, &(0..128).collect::<Vec<_>>());
    let out = memory.alloc(MemSpace::Global, 4, None);
    let r = replay(
        &m,
        kernel,
        &Launch::linear(128, 1),
        &[input, out],
        memory,
        &ReplayOptions::default(),
    )
    .unwrap();
    assert!(r.completed);
    let races: Vec<_> = r.races().collect();
    assert!(!races.is_empty());
    for race in &races {
        let ViolationKind::DataRace {
            first,
            second,
            inter_group,
            ..
        } = &race.kind
        else {
            unreachable!()
        };
        assert!(!inter_group);
        assert_eq!(r.memory.object(first.object).name, "partial");
        assert_eq!(first.object, second.object);
    }
    // The race is the loop body's read of partial[t + stride] against
    // another thread's write of partial[t], both on source line 18.
    let func = &m.functions[kernel];
    let line = |loc: Loc| func.inst_locs.get(loc.inst.unwrap()).map(|l| l.line);
    assert!(races.iter().any(|v| line(v.loc) == Some(18)));
    assert!(r.violations.iter().all(|v| v.kind.name() == "data-race"));
}

#[test]
fn race_free_stencil_has_no_violations_and_computes_the_stencil() {
    let m = load("race_free_stencil.kir");
    let kernel = m.function_by_name("stencil").unwrap();
    let n = 1000;
    let input: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
    let mut memory = Memory::new();
    let inp = memory.alloc_f32s(MemSpace::Global, &input);
    let out = memory.alloc(MemSpace::Global, 4 * n as u64, None);
    let args = [inp, out, Val::i32(n)];
    let r = replay(
        &m,
        kernel,
        &Launch::linear(256, 4),
        &args,
        memory,
        &ReplayOptions::default(),
    )
    .unwrap();
    assert!(r.violations.is_empty(), "{:#?}", r.violations);
    assert!(r.completed);
    assert_eq!(r.threads_exited, 1024);
    let at = |i: i64| {
        if (0..n as i64).contains(&i) {
            input[i as usize]
        } else {
            0.0
        }
    };
    let expected: Vec<f32> = (0..n as i64)
        .map(|i| (at(i - 1) + at(i) + at(i + 1)) / 3.0)
        .collect();
    assert_eq!(r.memory.read_f32s(r.memory.target(out).unwrap()), expected);
}

#[test]
fn opencl_divergent_barrier() {
    let m = load("divergent_barrier.kir");
    let kernel = m.function_by_name("halves").unwrap();
    let mut memory = Memory::new();
    // `__local` buffers are per group: the replay gives each group a copy.
    let scratch = memory.alloc_named("scratch", MemSpace::Shared, 4 * 64, None);
    let data = memory.alloc_i32s(MemSpace::Global, &(0..256).collect::<Vec<_>>());
    let r = replay(
        &m,
        kernel,
        &Launch::linear(64, 4),
        &[scratch, data],
        memory,
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(r.violations.len(), 1, "{:#?}", r.violations);
    let ViolationKind::BarrierDivergence { arrivals, .. } = &r.violations[0].kind else {
        panic!()
    };
    let waiting = arrivals.iter().find(|a| a.barrier.is_some()).unwrap();
    assert_eq!(waiting.count, 32);
    assert_eq!(
        r.memory
            .objects()
            .iter()
            .filter(|o| o.name.starts_with("scratch"))
            .count(),
        4
    );
}

#[test]
fn warp_shuffle_reduction() {
    let m = load("warp_and_calls.kir");
    let kernel = m.function_by_name("warp_sum").unwrap();
    for warp_size in [None, Some(32)] {
        let mut memory = Memory::new();
        let input = memory.alloc_i32s(MemSpace::Global, &(0..64).collect::<Vec<_>>());
        let out = memory.alloc(MemSpace::Global, 8, None);
        let opts = ReplayOptions {
            warp_size,
            ..ReplayOptions::default()
        };
        let r = replay(
            &m,
            kernel,
            &Launch::linear(64, 1),
            &[input, out],
            memory,
            &opts,
        )
        .unwrap();
        assert!(r.violations.is_empty(), "{:#?}", r.violations);
        assert_eq!(
            r.memory.read_i32s(r.memory.target(out).unwrap()),
            vec![496, 1520],
            "warp size {warp_size:?}"
        );
    }
}

#[test]
fn device_function_with_private_array_and_math_call() {
    let m = load("warp_and_calls.kir");
    let kernel = m.function_by_name("calls").unwrap();
    let mut memory = Memory::new();
    let buf = memory.alloc_i32s(
        MemSpace::Global,
        &(0..32).map(|t| 10 * t).collect::<Vec<_>>(),
    );
    let out = memory.alloc(MemSpace::Global, 4 * 32, None);
    let r = replay(
        &m,
        kernel,
        &Launch::linear(32, 1),
        &[buf, out],
        memory,
        &ReplayOptions::default(),
    )
    .unwrap();
    assert!(r.violations.is_empty(), "{:#?}", r.violations);
    let expected: Vec<i32> = (0..32)
        .map(|t: i32| 10 * t + t % 4 + (t as f32).sqrt() as i32)
        .collect();
    assert_eq!(r.memory.read_i32s(r.memory.target(out).unwrap()), expected);
}

/// 256 threads x 4 groups, 100 iterations with two barriers each. Also the
/// performance check: run `cargo test --release -p lockstep-replay --test
/// lowered -- --nocapture` to see the time.
#[test]
fn iterated_smoothing_1024_threads() {
    let m = load("iterate.kir");
    let kernel = m.function_by_name("iterate").unwrap();
    let input: Vec<f32> = (0..1024).map(|i| i as f32).collect();
    let mut memory = Memory::new();
    let data = memory.alloc_f32s(MemSpace::Global, &input);
    let start = Instant::now();
    let r = replay(
        &m,
        kernel,
        &Launch::linear(256, 4),
        &[data],
        memory,
        &ReplayOptions::default(),
    )
    .unwrap();
    let elapsed = start.elapsed();
    println!(
        "1024 threads x 100 iterations: {} steps in {:?}",
        r.steps, elapsed
    );
    assert!(r.violations.is_empty(), "{:#?}", r.violations);
    assert!(r.completed);
    // The same computation on the host, group by group.
    let mut expected = input.clone();
    for group in expected.chunks_mut(256) {
        for _ in 0..100 {
            let s = group.to_vec();
            for t in 0..256 {
                group[t] = 0.5 * (s[t] + s[(t + 1) % 256]);
            }
        }
    }
    assert_eq!(r.memory.read_f32s(r.memory.target(data).unwrap()), expected);
}
