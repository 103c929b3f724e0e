//! Integration tests that run z3 and cvc5: satisfiability, values, scopes,
//! models, errors, restarts and timeouts. Each scenario runs on both solvers.

mod common;

use std::time::{Duration, Instant};

use common::{solver, solver_with};
use lockstep_smt::{BvValue, FpOp, Error, SatResult, SolverConfig, SolverKind, Sort, TermStore, Value};

/// Runs the scenario `$body(kind)` once per solver, as separate tests.
macro_rules! both_solvers {
    ($($name:ident),* $(,)?) => {
        mod z3 { $( #[test] fn $name() { super::$name(lockstep_smt::SolverKind::Z3) } )* }
        mod cvc5 { $( #[test] fn $name() { super::$name(lockstep_smt::SolverKind::Cvc5) } )* }
    };
}

both_solvers!(
    sat_and_unsat_bit_vector_problems,
    get_value_parses_all_widths,
    push_pop_scopes_assertions_and_declarations,
    get_model_lists_constants_in_scope,
    hard_query_times_out_in_bounded_time,
    solver_errors_are_rust_errors,
    restart_replays_open_scopes,
    uninterpreted_sorts_functions_and_arrays,
    check_sat_assuming_uses_assumptions,
    floating_point_is_ieee,
    shared_subterms_print_with_let,
);

fn sat_and_unsat_bit_vector_problems(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let x = st.declare_const("x", Sort::bv(32));
    let one = st.bv_const(32, 1);
    let sum = st.bvadd(x, one);
    let wraps = st.bvult(sum, x);
    s.assert(&st, wraps).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    assert_eq!(
        s.get_value(&st, &[x]).unwrap(),
        vec![Value::BitVec(BvValue::new(32, 0xffff_ffff))]
    );

    // x + 1 < x and x != 0xffffffff has no solution.
    let max = st.bv_const(32, 0xffff_ffff);
    let is_max = st.eq(x, max);
    let not_max = st.not(is_max);
    s.assert(&st, not_max).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
}

fn get_value_parses_all_widths(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let mut wanted = Vec::new();
    for (name, width, value) in [
        ("a", 1u32, 1u128),
        ("b", 7, 0x55),
        ("c", 64, 0xdead_beef_0bad_f00d),
        ("d", 128, u128::MAX - 6),
    ] {
        let v = st.declare_const(name, Sort::bv(width));
        let k = st.bv_const(width, value);
        let e = st.eq(v, k);
        s.assert(&st, e).unwrap();
        wanted.push((v, BvValue::new(width, value)));
    }
    let wide = st.declare_const("wide", Sort::bv(200));
    let wide_k = st.bv_literal(&format!("#b1{}1", "0".repeat(198))).unwrap();
    let e = st.eq(wide, wide_k);
    s.assert(&st, e).unwrap();
    let flag = st.declare_const("flag", Sort::Bool);
    let c = st.declare_const("c", Sort::bv(64));
    let k = st.bv_const(64, 1);
    let c_big = st.bvugt(c, k);
    let e = st.eq(flag, c_big);
    s.assert(&st, e).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);

    let terms: Vec<_> = wanted.iter().map(|(t, _)| *t).collect();
    let values = s.get_value(&st, &terms).unwrap();
    for ((_, want), got) in wanted.iter().zip(&values) {
        assert_eq!(got.as_bv(), Some(want));
    }
    // Composite terms, Booleans and wide values.
    let d = terms[3];
    let d_low = st.extract(7, 0, d);
    let values = s.get_value(&st, &[flag, d_low, wide]).unwrap();
    assert_eq!(values[0], Value::Bool(true));
    assert_eq!(values[1].as_u128(), Some(0xf9));
    let w = values[2].as_bv().unwrap();
    assert_eq!(w.width(), 200);
    assert!(w.bit(199) && w.bit(0) && !w.bit(100));
}

fn push_pop_scopes_assertions_and_declarations(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let x = st.declare_const("x", Sort::bv(8));
    let y = st.declare_const("y", Sort::bv(8));
    let ten = st.bv_const(8, 10);
    let lt = st.bvult(x, ten);
    s.assert(&st, lt).unwrap();
    assert_eq!(s.depth(), 0);

    s.push().unwrap();
    assert_eq!(s.depth(), 1);
    // y is declared inside the scope, so pop forgets it.
    let xy = st.eq(x, y);
    let big = st.bvugt(y, ten);
    s.assert(&st, xy).unwrap();
    s.assert(&st, big).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
    s.pop().unwrap();
    assert_eq!(s.depth(), 0);
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);

    // Using y again must declare it again, transparently.
    s.push().unwrap();
    s.push().unwrap();
    let three = st_bv(&mut st, 8, 3);
    let y_is_3 = st.eq(y, three);
    s.assert(&st, y_is_3).unwrap();
    s.assert(&st, xy).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    assert_eq!(s.get_value(&st, &[x]).unwrap()[0].as_u128(), Some(3));
    s.pop_n(2).unwrap();
    assert!(matches!(
        s.pop(),
        Err(Error::InvalidPop {
            requested: 1,
            depth: 0
        })
    ));
}

fn st_bv(st: &mut TermStore, w: u32, v: u128) -> lockstep_smt::TermId {
    st.bv_const(w, v)
}

fn get_model_lists_constants_in_scope(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let x = st.declare_const("x", Sort::bv(16));
    let b = st.declare_const("flag b", Sort::Bool);
    let k = st.bv_const(16, 0x1234);
    let e = st.eq(x, k);
    s.assert(&st, e).unwrap();
    s.push().unwrap();
    s.assert(&st, b).unwrap();
    assert!(s.check_sat().unwrap().is_sat());
    let model = s.get_model().unwrap();
    assert_eq!(model.len(), 2);
    assert_eq!(
        model.get_const(&st, x).and_then(Value::as_u128),
        Some(0x1234)
    );
    assert_eq!(model.get("flag b"), Some(&Value::Bool(true)));
    s.pop().unwrap();
    assert!(s.check_sat().unwrap().is_sat());
    let model = s.get_model().unwrap();
    assert_eq!(model.iter().map(|(n, _)| n).collect::<Vec<_>>(), vec!["x"]);
}

/// Asserts that `p = x * y` with `1 < x, y` and no overflow: factoring a
/// 64-bit semiprime, far beyond what bit-blasting settles in 100 ms.
fn assert_factoring(st: &mut TermStore, s: &mut lockstep_smt::Solver) {
    let x = st.declare_const("x", Sort::bv(64));
    let y = st.declare_const("y", Sort::bv(64));
    let xw = st.zero_extend(64, x);
    let yw = st.zero_extend(64, y);
    let prod = st.bvmul(xw, yw);
    // 4294967291 * 4294967279, both prime.
    let p = st.bv_const(128, 4_294_967_291u128 * 4_294_967_279u128);
    let one = st.bv_const(64, 1);
    let e = st.eq(prod, p);
    let gx = st.bvugt(x, one);
    let gy = st.bvugt(y, one);
    for t in [e, gx, gy] {
        s.assert(st, t).unwrap();
    }
}

fn hard_query_times_out_in_bounded_time(kind: SolverKind) {
    let started = Instant::now();
    let mut st = TermStore::new();
    // Time alone limits the query here (the work limit has tests of its own).
    let mut config = SolverConfig::new(kind, Duration::from_millis(100));
    config.work_per_ms = None;
    let mut s = solver_with(config);
    s.push().unwrap();
    assert_factoring(&mut st, &mut s);
    assert_eq!(s.check_sat().unwrap(), SatResult::Unknown("timeout".into()));
    // The solver stays usable.
    s.pop().unwrap();
    let t = st.true_();
    s.assert(&st, t).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
}

fn solver_errors_are_rust_errors(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let x = st.declare_const("x", Sort::bv(8));
    // No check-sat yet, so there is no model to take values from.
    match s.get_value(&st, &[x]) {
        Err(Error::Solver { message, .. }) => assert!(!message.is_empty()),
        other => panic!("expected a solver error, got {other:?}"),
    }
    match s.set_option(":no-such-option-anywhere", "1") {
        Err(Error::Solver { .. } | Error::Unsupported { .. }) => {}
        other => panic!("expected an error for an unknown option, got {other:?}"),
    }
    // Asserting a non-Boolean is refused before it reaches the solver.
    assert!(matches!(s.assert(&st, x), Err(Error::Sort(_))));
    // The solver still works afterwards (restarted if it had to exit).
    let zero = st.bv_const(8, 0);
    let e = st.eq(x, zero);
    s.assert(&st, e).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
}

fn restart_replays_open_scopes(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let x = st.declare_const("x", Sort::bv(8));
    let y = st.declare_const("y", Sort::bv(8));
    let five = st.bv_const(8, 5);
    let e = st.eq(x, five);
    s.assert(&st, e).unwrap();
    s.push().unwrap();
    let sum = st.bvadd(x, x);
    let e = st.eq(y, sum);
    s.assert(&st, e).unwrap();
    s.restart().unwrap();
    assert_eq!(s.starts(), 2);
    assert_eq!(s.depth(), 1);
    assert!(s.check_sat().unwrap().is_sat());
    assert_eq!(s.get_value(&st, &[y]).unwrap()[0].as_u128(), Some(10));
    s.pop().unwrap();
    let e = st.eq(y, five);
    s.assert(&st, e).unwrap();
    assert!(s.check_sat().unwrap().is_sat());
}

fn uninterpreted_sorts_functions_and_arrays(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let float = Sort::uninterpreted("float");
    let fadd = st.declare_fun("fadd", &[float.clone(), float.clone()], float.clone());
    let a = st.declare_const("a", float.clone());
    let b = st.declare_const("b", float.clone());
    let ab = st.apply(fadd, &[a, b]);
    let ba = st.apply(fadd, &[b, a]);
    // Commutativity as a quantified axiom.
    let u = st.bound_var("u", float.clone());
    let v = st.bound_var("v", float);
    let uv = st.apply(fadd, &[u, v]);
    let vu = st.apply(fadd, &[v, u]);
    let comm_body = st.eq(uv, vu);
    let comm = st.forall(&[u, v], comm_body);
    s.assert(&st, comm).unwrap();
    let differ = st.distinct(&[ab, ba]);
    s.push().unwrap();
    s.assert(&st, differ).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
    s.pop().unwrap();

    let mem = st.declare_const("mem", Sort::array(Sort::bv(32), Sort::bv(8)));
    let i = st.declare_const("i", Sort::bv(32));
    let j = st.declare_const("j", Sort::bv(32));
    let k = st.bv_const(8, 42);
    let m2 = st.store(mem, i, k);
    let r = st.select(m2, j);
    let e = st.eq(r, k);
    let ne = st.distinct(&[i, j]);
    let zero8 = st.bv_const(8, 0);
    let c0 = st.const_array(Sort::bv(32), zero8);
    let e0 = st.eq(mem, c0);
    for t in [e, ne, e0] {
        s.assert(&st, t).unwrap();
    }
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
}

fn check_sat_assuming_uses_assumptions(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let p = st.declare_const("p", Sort::Bool);
    let q = st.declare_const("q", Sort::Bool);
    let pq = st.implies(p, q);
    s.assert(&st, pq).unwrap();
    let nq = st.not(q);
    assert_eq!(
        s.check_sat_assuming(&st, &[p, nq]).unwrap(),
        SatResult::Unsat
    );
    assert_eq!(s.check_sat_assuming(&st, &[p]).unwrap(), SatResult::Sat);
    assert_eq!(s.get_value(&st, &[q]).unwrap()[0], Value::Bool(true));
}

#[test]
fn conflicting_declarations_from_two_stores_are_errors() {
    let mut s = solver(SolverKind::Z3);
    let mut st1 = TermStore::new();
    let mut st2 = TermStore::new();
    let x1 = st1.declare_const("x", Sort::bv(8));
    let x2 = st2.declare_const("x", Sort::bv(16));
    let z1 = st1.bv_const(8, 0);
    let z2 = st2.bv_const(16, 0);
    let e1 = st1.eq(x1, z1);
    let e2 = st2.eq(x2, z2);
    s.assert(&st1, e1).unwrap();
    assert!(matches!(
        s.assert(&st2, e2),
        Err(Error::DeclarationConflict { .. })
    ));
}

#[test]
fn missing_solver_program_is_a_spawn_error() {
    let mut config = SolverConfig::new(SolverKind::Z3, Duration::from_secs(1));
    config.program = Some("/nonexistent/solver-binary".into());
    assert!(matches!(
        lockstep_smt::Solver::spawn(config),
        Err(Error::Spawn { .. })
    ));
}

/// IEEE arithmetic: `x * 2 == x + x` always (both round the same exact
/// value), and `(a + b) + c == a + (b + c)` does not hold.
fn floating_point_is_ieee(kind: SolverKind) {
    let mut st = TermStore::new();
    let float = |st: &mut TermStore, name: &str| {
        let bits = st.declare_const(name, Sort::bv(32));
        st.fp(FpOp::FromBits { exponent: 8, significand: 24 }, &[bits])
    };
    let (a, b, c) = (float(&mut st, "a"), float(&mut st, "b"), float(&mut st, "c"));
    let two_bits = st.bv_const(32, 2.0f32.to_bits() as u128);
    let two = st.fp(FpOp::FromBits { exponent: 8, significand: 24 }, &[two_bits]);
    let doubled = st.fp(FpOp::Mul, &[a, two]);
    let added = st.fp(FpOp::Add, &[a, a]);
    // SMT-LIB `=` on floats is identity (every NaN is the one NaN).
    let same = st.eq(doubled, added);
    let differs = st.not(same);
    let mut s = solver(kind);
    s.assert(&st, differs).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);

    let ab = st.fp(FpOp::Add, &[a, b]);
    // Debian's z3 4.8 needs about 8 s for this one (cvc5: 0.4 s), which is
    // why `lockstep equiv --float=ieee` prefers cvc5.
    if kind == SolverKind::Cvc5 {
        let left = st.fp(FpOp::Add, &[ab, c]);
        let bc = st.fp(FpOp::Add, &[b, c]);
        let right = st.fp(FpOp::Add, &[a, bc]);
        let assoc = st.eq(left, right);
        let not_assoc = st.not(assoc);
        let mut s = solver(kind);
        s.assert(&st, not_assoc).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    }

    // Conversions: (int)(float)7 == 7.
    let seven = st.bv_const(32, 7);
    let f = st.fp(FpOp::FromSigned { exponent: 8, significand: 24 }, &[seven]);
    let back = st.fp(FpOp::ToSigned(32), &[f]);
    let round_trip = st.eq(back, seven);
    let broken = st.not(round_trip);
    let mut s = solver(kind);
    s.assert(&st, broken).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Unsat);
}

/// `check_sat_within` gives one query a shorter limit; the queries after
/// it, and a restarted process, have the session's again.
#[test]
fn z3_check_sat_within_limits_one_query() {
    let started = Instant::now();
    let mut st = TermStore::new();
    let mut config = SolverConfig::new(SolverKind::Z3, Duration::from_secs(30));
    config.work_per_ms = None;
    let mut s = solver_with(config);
    s.push().unwrap();
    assert_factoring(&mut st, &mut s);
    assert_eq!(s.check_sat_within(Duration::from_millis(100)).unwrap(), SatResult::Unknown("timeout".into()));
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    s.pop().unwrap();
    s.restart().unwrap();
    let t = st.true_();
    s.assert(&st, t).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
}

/// z3's work limit ends a hard query with the same answer on every run,
/// long before its time limit, whatever the machine's load; the queries
/// after it have the whole limit again.
#[test]
fn z3_work_limit_is_deterministic() {
    for _ in 0..2 {
        let started = Instant::now();
        let mut st = TermStore::new();
        let mut config = SolverConfig::new(SolverKind::Z3, Duration::from_secs(30));
        config.work_per_ms = Some(1);
        let mut s = solver_with(config);
        s.push().unwrap();
        assert_factoring(&mut st, &mut s);
        assert_eq!(s.check_sat().unwrap(), SatResult::Unknown(lockstep_smt::WORK_LIMIT.into()));
        assert_eq!(s.check_sat_within(Duration::from_secs(1)).unwrap(), SatResult::Unknown(lockstep_smt::WORK_LIMIT.into()));
        assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
        s.pop().unwrap();
        let t = st.true_();
        s.assert(&st, t).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    }
}

/// cvc5's work limit (`--rlimit-per`) ends a hard query long before its
/// time limit, as `work limit`, on every run.
#[test]
fn cvc5_work_limit_is_deterministic() {
    for _ in 0..2 {
        let started = Instant::now();
        let mut st = TermStore::new();
        let mut config = SolverConfig::new(SolverKind::Cvc5, Duration::from_secs(30));
        config.work_per_ms = Some(1);
        let mut s = solver_with(config);
        s.push().unwrap();
        assert_factoring(&mut st, &mut s);
        assert_eq!(s.check_sat().unwrap(), SatResult::Unknown(lockstep_smt::WORK_LIMIT.into()));
        assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
        s.pop().unwrap();
        let t = st.true_();
        s.assert(&st, t).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    }
}

/// With a fallback, a query the incremental core does not settle within
/// its share of the work goes to the bit-blasting tactic, and the model is
/// the same on every run: which solver answers depends on work, not time.
#[test]
fn z3_fallback_after_work_gives_the_same_model_every_time() {
    let mut models = Vec::new();
    for _ in 0..3 {
        let mut st = TermStore::new();
        let mut s = solver_with(SolverConfig::new(SolverKind::Z3, Duration::from_secs(10)));
        s.fall_back_after(Duration::from_millis(1)).unwrap();
        let x = st.declare_const("x", Sort::bv(32));
        let y = st.declare_const("y", Sort::bv(32));
        let f = st.declare_fun("f", &[Sort::bv(32)], Sort::bv(32));
        let fx = st.apply(f, &[x]);
        let bound = st.bv_const(32, 0x1000);
        let small = st.bvult(x, bound);
        s.assert(&st, small).unwrap();
        s.push().unwrap();
        let prod = st.bvmul(x, y);
        let target = st.bv_const(32, 0x1234_5679);
        let e = st.eq(prod, target);
        let g = st.eq(fx, y);
        s.assert(&st, e).unwrap();
        s.assert(&st, g).unwrap();
        assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
        models.push(s.get_value(&st, &[x, y]).unwrap());
        s.pop().unwrap();
    }
    assert!(models.windows(2).all(|w| w[0] == w[1]), "{models:?}");
}

/// A chain `z(k+1) = f(z(k), z(k))` forty deep has a tree of 2^40 nodes:
/// it prints with `let` bindings, small, and both solvers read it.
fn shared_subterms_print_with_let(kind: SolverKind) {
    let mut st = TermStore::new();
    let mut s = solver(kind);
    let x = st.declare_const("x", Sort::bv(32));
    let f = st.declare_fun("f", &[Sort::bv(32), Sort::bv(32)], Sort::bv(32));
    let mut z = x;
    for _ in 0..40 {
        z = st.apply(f, &[z, z]);
    }
    let below = st.bvult(z, x);
    let text = lockstep_smt::print::term_to_string(&st, below);
    assert!(text.len() < 10_000 && text.contains("(let "), "{} bytes", text.len());
    s.assert(&st, below).unwrap();
    assert_eq!(s.check_sat().unwrap(), SatResult::Sat);
    // A small term prints as a tree, as before.
    let small = st.apply(f, &[x, x]);
    let small = st.bvult(small, x);
    assert_eq!(lockstep_smt::print::term_to_string(&st, small), "(bvult (f x x) x)");
}
