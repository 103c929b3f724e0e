//! The session log: z3 re-runs it and gives the answers the session got.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{scratch, solver_with};
use lockstep_smt::{SatResult, SolverConfig, SolverKind, Sort, TermStore};

/// The answers a log records (`; -> ...`); the driver logs no `success`.
fn logged_answers(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| l.strip_prefix("; -> "))
        .map(str::to_string)
        .collect()
}

#[test]
fn z3_replays_the_session_log() {
    let path = scratch("replay.smt2");
    let mut st = TermStore::new();
    {
        let mut s =
            solver_with(SolverConfig::new(SolverKind::Z3, Duration::from_secs(10)).with_log(&path));
        let x = st.declare_const("x", Sort::bv(8));
        let y = st.declare_const("odd name", Sort::bv(8));
        let k = st.bv_const(8, 7);
        let e = st.eq(x, k);
        s.assert(&st, e).unwrap();
        s.push().unwrap();
        let sum = st.bvadd(x, y);
        let zero = st.bv_const(8, 0);
        let e = st.eq(sum, zero);
        s.assert(&st, e).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
        assert_eq!(s.get_value(&st, &[y]).unwrap()[0].as_u128(), Some(249));
        let x_is_y = st.eq(x, y);
        s.assert(&st, x_is_y).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
        // A restart shows up in the log as a reset and a replay.
        s.restart().unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
        s.pop().unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
        assert_eq!(s.get_value(&st, &[x]).unwrap()[0].as_u128(), Some(7));
        s.log_comment("end of test session").unwrap();
    }
    let log = std::fs::read_to_string(&path).unwrap();
    assert!(log.contains("(reset)"), "{log}");
    let expected = logged_answers(&log);
    assert_eq!(
        expected,
        [
            "sat",
            "((|odd name| #xf9))",
            "unsat",
            "unsat",
            "sat",
            "((x #x07))"
        ]
    );

    let out = Command::new("z3")
        .arg(&path)
        .output()
        .expect("z3 must be installed");
    assert!(
        out.status.success(),
        "z3 failed on the log: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed = String::from_utf8(out.stdout).unwrap();
    let replayed: Vec<String> = lockstep_smt::sexp::parse_all(&replayed)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .filter(|a| a != "success")
        .collect();
    assert_eq!(replayed, expected, "log:\n{log}");
}
