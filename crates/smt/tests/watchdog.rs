//! The wall-clock watchdog and early-exit handling, tested with fake
//! "solvers": small shell scripts that answer `success` to every command
//! and misbehave on `check-sat`.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::scratch;
use lockstep_smt::{Error, SatResult, Solver, SolverConfig, SolverKind};

/// Writes an executable script that answers `success` to every line except
/// `check-sat`, where it runs `on_check_sat`.
fn fake_solver(name: &str, on_check_sat: &str) -> PathBuf {
    let path = scratch(name);
    let script = format!(
        "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) {on_check_sat} ;;\n    *) echo success ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn config(program: PathBuf) -> SolverConfig {
    let mut config = SolverConfig::new(SolverKind::Z3, Duration::from_millis(100));
    config.program = Some(program);
    config.watchdog_margin = Duration::from_millis(200);
    config
}

/// Starts a fake solver. Starting is set-up, not what these tests check,
/// and it can fail spuriously when the tests run in parallel: a script just
/// written may still be open for writing in a process another test is
/// forking ("text file busy"), and a loaded machine may miss the short
/// start-up deadline. So a failed start is retried a few times.
fn spawn(program: PathBuf) -> Solver {
    let mut last = None;
    for _ in 0..5 {
        match Solver::spawn(config(program.clone())) {
            Ok(s) => return s,
            Err(e) => last = Some(e),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the fake solver did not start: {last:?}")
}

#[test]
fn watchdog_kills_a_silent_solver_and_reports_timeout() {
    // `exec` makes the sleeping process the solver itself, so the kill reaches it.
    let mut s = spawn(fake_solver("silent", "exec sleep 30"));
    s.push().unwrap();
    let started = Instant::now();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unknown("timeout".into()));
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(300),
        "waited only {elapsed:?}"
    );
    assert!(elapsed < Duration::from_secs(3), "waited {elapsed:?}");
    assert!(!s.is_running());
    // Popping while stopped only changes bookkeeping; the next command restarts.
    s.pop().unwrap();
    assert!(!s.is_running());
    s.push().unwrap();
    assert!(s.is_running());
    assert_eq!(s.starts(), 2);
}

#[test]
fn early_exit_is_an_error_with_stderr() {
    let mut s = spawn(fake_solver("crashing", "echo boom >&2; exit 3"));
    match s.check_sat() {
        Err(Error::Exited { status, stderr, .. }) => {
            assert_eq!(status, Some(3));
            assert!(stderr.contains("boom"), "stderr: {stderr:?}");
        }
        other => panic!("expected an exit error, got {other:?}"),
    }
    assert!(!s.is_running());
}

#[test]
fn garbage_answers_are_errors() {
    let mut s = spawn(fake_solver("garbage", "echo maybe"));
    assert!(matches!(
        s.check_sat(),
        Err(Error::UnexpectedResponse { .. })
    ));
}

#[test]
fn a_cpu_meter_counts_its_solvers_cpu_time_running_and_ended() {
    use lockstep_smt::{CpuMeter, CpuStopwatch};
    // `check-sat` spins in the shell itself (builtins only), so the CPU
    // time is the solver process's own.
    let program = fake_solver("spinning", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo sat");
    let meter = CpuMeter::new();
    let stopwatch = CpuStopwatch::start(meter.clone());
    let mut cfg = config(program);
    cfg.timeout_per_query = Duration::from_secs(20);
    cfg.cpu_meter = Some(meter.clone());
    let mut s = Solver::spawn(cfg).expect("the fake solver starts");
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    let running = meter.solvers_time();
    assert!(running >= Duration::from_millis(30), "counted {running:?} for a running solver");
    drop(s);
    let ended = meter.solvers_time();
    assert!(ended >= running, "the ended solver's time was lost: {ended:?} after {running:?}");
    assert!(stopwatch.elapsed() >= running);
}

#[test]
fn the_cpu_timer_kills_a_spinning_solver_before_the_wall_backstop() {
    // The shell itself spins on `check-sat`, using CPU time and never
    // answering: z3 with a work limit that does not count what it does.
    // The query's limit is 100 ms, so the CPU timer is 300 ms of the
    // process's CPU time and the wall backstop (z3's timer, which a fake
    // solver ignores, plus the margin) 1.4 s.
    let mut s = spawn(fake_solver("spinning-forever", "while :; do :; done"));
    s.push().unwrap();
    let started = Instant::now();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unknown("timeout".into()));
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_millis(300), "waited only {elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "waited {elapsed:?}");
    assert!(!s.is_running());
    s.pop().unwrap();
}
