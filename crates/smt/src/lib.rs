//! SMT support for lockstep: hash-consed terms, SMT-LIB2 printing, and a
//! driver for solver processes.
//!
//! This crate is the bottom of the pipeline (see `DESIGN.md`): it knows
//! nothing about kernels, and it is the only crate that spawns processes.
//!
//! * [`term`]: the [`TermStore`] arena of hash-consed, sort-checked terms,
//!   with cheap simplification at construction; usable without a solver.
//! * [`sort`]: [`Sort`]s (Bool, bit-vectors, arrays, uninterpreted, float).
//! * [`float`]: FloatingPoint operators ([`FpOp`]), rounding to nearest even.
//! * [`value`]: bit-vector constants of any width and solver [`Value`]s.
//! * [`print`](mod@print): SMT-LIB2 text for terms and declarations.
//! * [`sexp`]: the S-expression parser for solver answers.
//! * [`cpu`]: CPU time of solver processes and threads ([`CpuMeter`],
//!   [`CpuStopwatch`]), for budgets that load does not shrink.
//! * [`solver`]: the [`Solver`] process driver (z3, cvc5) with scopes,
//!   timeouts, a watchdog, restarts and a replayable log.
//!
//! Missing solver output is never success: a solver that times out yields
//! [`SatResult::Unknown`], every other failure an [`Error`].
//!
//! ```
//! use std::time::Duration;
//! use lockstep_smt::{SatResult, Solver, SolverConfig, SolverKind, Sort, TermStore};
//!
//! let mut st = TermStore::new();
//! let x = st.declare_const("x", Sort::bv(32));
//! let one = st.bv_const(32, 1);
//! let sum = st.bvadd(x, one);
//! let wraps = st.bvult(sum, x);
//!
//! let mut solver = Solver::spawn(SolverConfig::new(SolverKind::Z3, Duration::from_secs(5)))?;
//! solver.assert(&st, wraps)?; // declares x by itself
//! assert_eq!(solver.check_sat()?, SatResult::Sat);
//! let v = solver.get_value(&st, &[x])?;
//! assert_eq!(v[0].as_u128(), Some(0xffff_ffff));
//! # Ok::<(), lockstep_smt::Error>(())
//! ```

pub mod cpu;
pub mod error;
pub mod eval;
pub mod float;
pub mod print;
pub mod sexp;
pub mod solver;
pub mod sort;
pub mod term;
pub mod value;

pub use cpu::{CpuMeter, CpuStopwatch};
pub use error::{Error, Result};
pub use float::FpOp;
pub use sexp::SExpr;
pub use solver::{Model, SatResult, Solver, SolverConfig, SolverKind, TIMER_FACTOR, WORK_LIMIT, Z3_WORK_PER_MS};
pub use sort::Sort;
pub use term::{
    FreeSymbols, FunDecl, FunId, Op, Quantifier, SortError, TermId, TermKind, TermStore,
};
pub use value::{BvValue, Value};
pub use eval::{eval, Concrete};
