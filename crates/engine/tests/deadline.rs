//! Every engine keeps the check's deadline (issue 17): kernels of the two
//! shapes the in-process fuzzer (`cargo xtask fuzz --kir`) found running
//! for more than a minute past a 10 s deadline. Each is checked under a
//! short deadline, in both modes that run the concrete search, and must
//! end within twice it, with the deadline named when it cut work short.

use std::time::{Duration, Instant};

use lockstep_engine::{check_kernel, CheckConfig, Mode};
use lockstep_kir::{parse_module, verify_module, Module};

fn module(text: &str) -> Module {
    let m = parse_module(text).expect("the reproducer parses");
    verify_module(&m).expect("the reproducer is valid IR");
    m
}

/// Checks every kernel of `text` under a `deadline` and returns how long it
/// took and the reports' debug text.
fn timed_check(text: &str, mode: Mode, deadline: Duration) -> (Duration, Vec<String>) {
    let m = module(text);
    let began = Instant::now();
    let mut reports = Vec::new();
    for (id, _) in m.kernels() {
        let config = CheckConfig {
            group_size: [Some(64), Some(1), Some(1)],
            num_groups: [Some(2), Some(1), Some(1)],
            mode,
            deadline: Some(Instant::now() + deadline),
            memory_limit: 512 << 20,
            ..CheckConfig::default()
        };
        let report = check_kernel(&m, id, &config);
        reports.push(format!("{report:?}"));
    }
    (began.elapsed(), reports)
}

fn keeps_deadline(text: &str) {
    for mode in [Mode::Find, Mode::Both] {
        // Under a shorter deadline the engines leave the solvers out
        // altogether, and the bounded search's witness is never asked for.
        let deadline = Duration::from_secs(6);
        let (took, reports) = timed_check(text, mode, deadline);
        // Twice the deadline, as the fuzzer's and the limit: the
        // test machine may be loaded.
        assert!(took <= 2 * deadline, "{mode:?} took {took:?} under a {deadline:?} deadline: {reports:?}");
    }
}

/// A loop whose counter counts down from 0 while `i < 100`: 2^31 iterations
/// per thread, which the concrete search's step budget allows for long
/// enough (tens of seconds under load) to miss the deadline, had the
/// interpreter not looked at it.
#[test]
fn an_endless_loop_stops_at_the_deadline() {
    keeps_deadline(include_str!("deadline/endless_loop.kir"));
}

/// A 4 GiB `memcpy` into a 4-byte private object: the bounded search's
/// witness asked the solver for every byte the copy read (2^32 of them).
#[test]
fn a_huge_memcpy_stops_at_the_deadline() {
    keeps_deadline(include_str!("deadline/huge_memcpy.kir"));
}

/// The concrete search alone (as the fuzzer runs it, and as the engine
/// runs it before the solvers) says that the deadline stopped it.
#[test]
fn the_concrete_search_names_the_deadline() {
    let m = module(include_str!("deadline/endless_loop.kir"));
    let (id, _) = m.kernels().next().expect("a kernel");
    let config = CheckConfig {
        group_size: [Some(64), Some(1), Some(1)],
        num_groups: [Some(2), Some(1), Some(1)],
        mode: Mode::Find,
        deadline: Some(Instant::now() + Duration::from_millis(500)),
        ..CheckConfig::default()
    };
    let began = Instant::now();
    let outcome = lockstep_engine::search::search(&m, id, &config);
    assert!(began.elapsed() < Duration::from_secs(2), "took {:?}", began.elapsed());
    assert!(outcome.notes.iter().any(|n| n.contains("time limit")), "{:?}", outcome.notes);
}
