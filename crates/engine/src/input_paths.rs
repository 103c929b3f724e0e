//! Deciding a whole program for every input: its paths through what it
//! reads.
//!
//! One run of a program that reads input (`scanf`, `getchar`) is one
//! behaviour among many. Yet the run knows where its input mattered: every
//! value it read is a numbered draw with a term (`lockstep_host::inputs`),
//! every branch on such a value, in the host and in its kernels, is on the
//! path condition (`Terms::path`) with the way it took, and any other use
//! (an address, a divisor, a branch on a value without a term) is counted
//! as untracked (`ReplayResult::untracked_uses`). A run without untracked
//! uses, nondeterminism of another kind, or effects the model guessed is
//! *exact on its path*: every input that satisfies the path condition
//! makes the program take the same steps, on values that are the same
//! functions of the input, so the run's verdict (race detection on every
//! thread, assertions, API checks) holds for all of them.
//!
//! So the paths are enumerated as concolic testing does (DART's depth-first
//! search): for each branch of a run past the prefix it was solved for,
//! the solver is asked for input that takes the same ways before it and
//! the other way there (the terms translated to bit-vector formulas, each
//! draw within its range). An input it finds runs next, and must take the
//! path it was solved for; `unsat` shows that no input takes it. When
//! every query of every run has been answered and every run was exact,
//! the runs cover every input: the program is decided. A run that goes
//! wrong is a behaviour of the program, reported with its input.
//!
//! Anything else gives up (`Exploration::Incomplete`, with the reason),
//! and the caller keeps its one-run verdict: more paths than
//! `MAX_PATHS`, a solver that does not answer, a term the translation
//! does not cover (floats, shifts by input, division by input, a draw that
//! is not input), or a run that did not take its path.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use lockstep_host::inputs::{InputDraw, InputPlan};
use lockstep_host::ProgramRun;
use lockstep_kir::{BinOp, CastOp, FuncId, IntCC, Module};
use lockstep_replay::terms::{Node, TermId, Terms};
use lockstep_smt::{Op, SatResult, Solver, SolverConfig, SolverKind, Sort, TermStore};

use crate::config::CheckConfig;

/// The most runs (paths) one exploration makes.
pub const MAX_PATHS: usize = 64;

/// The most time one exploration takes, solver queries included.
const MAX_TIME: Duration = Duration::from_secs(10);

/// The time limit of one query.
const QUERY_LIMIT: Duration = Duration::from_secs(2);

/// The outcome of exploring a program's paths through its input.
pub enum Exploration {
    /// Every feasible path was run, each run exact on its path, and none
    /// went wrong: the runs, in the order made.
    Complete(Vec<ProgramRun>),
    /// A run went wrong: it is one of the program's behaviours, and its
    /// draws are the input that shows it.
    WentWrong(ProgramRun),
    /// The paths were not all covered: why.
    Incomplete(String),
}

/// Explores the paths of `main` (in `linked`, the device module with the
/// host appended) through its input.
pub fn explore(linked: &Module, main: FuncId, config: &CheckConfig, went_wrong: impl Fn(&ProgramRun) -> bool) -> Exploration {
    let start = Instant::now();
    let budget = config.time_left().map_or(MAX_TIME, |left| left.mul_f64(0.5).min(MAX_TIME));
    let mut solver: Option<Solver> = None;
    // Each entry: the input to run, how many branches of its path are
    // fixed (the prefix it was solved for, flipped branch included), and
    // that prefix.
    let mut stack: Vec<(InputPlan, Vec<(TermId, bool)>)> = vec![(InputPlan::default(), Vec::new())];
    let mut runs: Vec<ProgramRun> = Vec::new();
    while let Some((plan, prefix)) = stack.pop() {
        if runs.len() >= MAX_PATHS {
            return Exploration::Incomplete(format!("the program has more than {MAX_PATHS} paths through its input"));
        }
        if start.elapsed() > budget {
            return Exploration::Incomplete(format!("the exploration of the program's paths through its input ran out of time after {} paths", runs.len()));
        }
        let run = match lockstep_host::run_program_on(linked, main, plan, Some(config.memory_limit)) {
            Ok(run) => run,
            Err(e) => return Exploration::Incomplete(format!("the host program could not be run: {e:?}")),
        };
        let terms = &run.host.memory.terms;
        let path = terms.path.clone();
        // The run must take the path its input was solved for; the terms of
        // a common prefix are built in the same order, so they are the same.
        if path.len() < prefix.len() || path[..prefix.len()] != prefix[..] {
            return Exploration::Incomplete("a run did not take the path the solver chose its input for".into());
        }
        if went_wrong(&run) {
            return confirmed(linked, main, config, run, &went_wrong);
        }
        if let Some(why) = inexact(linked, &run) {
            return Exploration::Incomplete(why);
        }
        let draws = run.draws.clone().unwrap_or_default();
        let mut st = TermStore::new();
        let mut tr = Translator { terms, draws: &draws, st: &mut st, memo: HashMap::new(), consts: HashMap::new() };
        let mut atoms = Vec::new();
        for &(t, taken) in &path {
            let Some(atom) = tr.atom(t, taken) else {
                return Exploration::Incomplete("a branch on the program's input is outside what the solver is given (floating point, a shift or division by input, or a value that is not input)".into());
            };
            atoms.push(atom);
        }
        let domain = tr.domain();
        let names: Vec<(usize, lockstep_smt::TermId)> = tr.used_draws();
        for i in prefix.len()..path.len() {
            if start.elapsed() > budget {
                return Exploration::Incomplete(format!("the exploration of the program's paths through its input ran out of time after {} paths", runs.len() + 1));
            }
            if solver.is_none() {
                match Solver::spawn(solver_config(config)) {
                    Ok(s) => solver = Some(s),
                    Err(e) => return Exploration::Incomplete(format!("the solver could not be started: {e}")),
                }
            }
            let s = solver.as_mut().expect("started above");
            let flipped = st.app(Op::Not, &[atoms[i]]);
            let mut facts: Vec<lockstep_smt::TermId> = atoms[..i].to_vec();
            facts.push(flipped);
            facts.extend(domain.iter().copied());
            let answer = (|| -> Result<Option<Vec<(usize, u128)>>, String> {
                let err = |e: lockstep_smt::Error| e.to_string();
                s.push().map_err(err)?;
                // Every draw the path mentions gets a value, also those only
                // the branches past this one mention.
                s.declare(&st, &names.iter().map(|&(_, t)| t).collect::<Vec<_>>()).map_err(err)?;
                for &f in &facts {
                    s.assert(&st, f).map_err(err)?;
                }
                let out = match s.check_sat_within(QUERY_LIMIT).map_err(err)? {
                    SatResult::Sat => {
                        let values = s.get_value(&st, &names.iter().map(|&(_, t)| t).collect::<Vec<_>>()).map_err(err)?;
                        Some(names.iter().zip(values).filter_map(|(&(k, _), v)| v.as_u128().map(|v| (k, v))).collect())
                    }
                    SatResult::Unsat => None,
                    SatResult::Unknown(why) => {
                        // A solver that gives up leaves nothing to go on.
                        let _ = s.restart();
                        return Err(format!("it answered unknown ({why})"));
                    }
                };
                s.pop().map_err(err)?;
                Ok(out)
            })();
            match answer {
                Ok(Some(model)) => {
                    // The draws the query does not mention keep this run's
                    // values, so that the next run follows it up to the flip.
                    let mut values: Vec<u128> = draws.iter().map(|d| d.value).collect();
                    for (k, v) in model {
                        values[k] = v;
                    }
                    let mut next = path[..i].to_vec();
                    next.push((path[i].0, !path[i].1));
                    stack.push((InputPlan { values, no_rounds: false }, next));
                }
                Ok(None) => {}
                Err(e) => {
                    return Exploration::Incomplete(format!("the solver did not decide whether another path through the input is feasible: {e}"))
                }
            }
        }
        runs.push(run);
    }
    Exploration::Complete(runs)
}

/// A run that went wrong, as a behaviour of the program: as it is when it
/// read only real input; otherwise (an input loop's round gave values, an
/// over-approximation of the rounds before) the run again with the same
/// values read, and no rounds, which must go wrong too.
fn confirmed(linked: &Module, main: FuncId, config: &CheckConfig, run: ProgramRun, went_wrong: &impl Fn(&ProgramRun) -> bool) -> Exploration {
    let draws = run.draws.as_deref().unwrap_or_default();
    if !draws.iter().any(|d| d.round) {
        return Exploration::WentWrong(run);
    }
    let values = draws.iter().filter(|d| !d.round).map(|d| d.value).collect();
    match lockstep_host::run_program_on(linked, main, InputPlan { values, no_rounds: true }, Some(config.memory_limit)) {
        Ok(real) if went_wrong(&real) => Exploration::WentWrong(real),
        _ => Exploration::Incomplete(
            "a run went wrong after an input loop's round gave its variables arbitrary values, and the same input without the round did not go wrong".into(),
        ),
    }
}

fn solver_config(config: &CheckConfig) -> SolverConfig {
    let mut c = SolverConfig::new(SolverKind::Z3, QUERY_LIMIT);
    c.memory_limit = Some(config.solver_memory());
    c.timer_factor = config.solver_timer_factor();
    c
}

/// Why the run is not exact on its path (see the module documentation),
/// or `None` when it is.
fn inexact(module: &Module, run: &ProgramRun) -> Option<String> {
    if let Some((reason, _)) = run.host.incomplete.first() {
        return Some(format!("a run of the host program stopped early ({reason:?})"));
    }
    if run.host.untracked_uses > 0 {
        return Some("the host program uses its input other than in branches (an address, a size, a divisor, or a value whose computation is not followed)".into());
    }
    if let Some((why, _)) = run.unknown_effects.first() {
        return Some(why.clone());
    }
    // Uses are judged above; any other source of nondeterminism (the
    // clock reaching a call, an unmodelled function, a value passed to a
    // call that acts on it) is not input.
    if let Some((why, _)) = run
        .nondeterminism
        .iter()
        .find(|(why, _)| !why.contains("uses a value the run does not determine") && !why.contains("reads memory that was never written"))
    {
        return Some(why.clone());
    }
    for launch in &run.launches {
        let name = &module.functions[launch.kernel].name;
        match &launch.outcome {
            Err(why) => return Some(format!("the launch of `{name}` was not run: {why}")),
            Ok(r) if !r.completed => return Some(format!("the launch of `{name}` did not run to completion")),
            Ok(r) if r.untracked_uses > 0 => {
                return Some(format!("the launch of `{name}` uses the program's input other than in branches (an address, a divisor, an atomic's operand...)"))
            }
            Ok(_) if crate::program::schedule_dependent(module, launch.kernel) => {
                return Some(format!("the kernel `{name}` uses the results of atomics"))
            }
            Ok(_) => {}
        }
    }
    None
}

/// Translates terms over a run's draws into bit-vector formulas.
struct Translator<'a> {
    terms: &'a Terms,
    draws: &'a [InputDraw],
    st: &'a mut TermStore,
    memo: HashMap<TermId, (lockstep_smt::TermId, u32)>,
    /// The constants of the draws used so far, by draw number.
    consts: HashMap<usize, lockstep_smt::TermId>,
}

impl Translator<'_> {
    /// The formula "the branch on `t` went the way `taken` says".
    fn atom(&mut self, t: TermId, taken: bool) -> Option<lockstep_smt::TermId> {
        let (bv, w) = self.bv(t)?;
        if w != 1 {
            return None;
        }
        let way = self.st.bv_const(1, taken as u128);
        Some(self.st.app(Op::Eq, &[bv, way]))
    }

    /// The range constraints of the draws used.
    fn domain(&mut self) -> Vec<lockstep_smt::TermId> {
        let mut out = Vec::new();
        let mut used: Vec<(usize, lockstep_smt::TermId)> = self.consts.iter().map(|(&k, &t)| (k, t)).collect();
        used.sort();
        for (k, c) in used {
            let d = &self.draws[k];
            let w = d.width;
            if w == 0 || w > 64 {
                continue;
            }
            let (min, max) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
            if d.min > min {
                let b = self.st.bv_const(w, d.min as u128 & lockstep_replay::value::mask(w));
                out.push(self.st.app(Op::BvSge, &[c, b]));
            }
            if d.max < max {
                let b = self.st.bv_const(w, d.max as u128 & lockstep_replay::value::mask(w));
                out.push(self.st.app(Op::BvSle, &[c, b]));
            }
        }
        out
    }

    /// The draws the formulas mention, with their constants.
    fn used_draws(&self) -> Vec<(usize, lockstep_smt::TermId)> {
        let mut out: Vec<(usize, lockstep_smt::TermId)> = self.consts.iter().map(|(&k, &t)| (k, t)).collect();
        out.sort();
        out
    }

    /// Term `t` as a bit-vector, with its width (a comparison is one bit).
    fn bv(&mut self, t: TermId) -> Option<(lockstep_smt::TermId, u32)> {
        if let Some(&known) = self.memo.get(&t) {
            return Some(known);
        }
        let out = match self.terms.node(t)? {
            Node::Fresh(_) => {
                // Only input draws: any other is a value the exploration
                // does not choose.
                let k = self.draws.iter().position(|d| d.term == t)?;
                let w = self.draws[k].width;
                if w == 0 || w > 128 {
                    return None;
                }
                let c = self.st.declare_const(&format!("input{k}"), Sort::BitVec(w));
                self.consts.insert(k, c);
                (c, w)
            }
            Node::Const(bits, w) => {
                if w == 0 || w > 128 {
                    return None;
                }
                (self.st.bv_const(w, bits & lockstep_replay::value::mask(w)), w)
            }
            Node::Bin(op, a, b, w) => {
                let (x, wa) = self.bv(a)?;
                let (y, wb) = self.bv(b)?;
                if wa != w || wb != w {
                    return None;
                }
                let divisor = match self.terms.node(b)? {
                    Node::Const(bits, _) => Some(bits & lockstep_replay::value::mask(w)),
                    _ => None,
                };
                let op = match op {
                    BinOp::Add => Op::BvAdd,
                    BinOp::Sub => Op::BvSub,
                    BinOp::Mul => Op::BvMul,
                    BinOp::And => Op::BvAnd,
                    BinOp::Or => Op::BvOr,
                    BinOp::Xor => Op::BvXor,
                    // Division and shifts only by constants the interpreter
                    // and the solver agree on: no division by 0 (or a signed
                    // one by -1), no shift by the width or more.
                    BinOp::UDiv | BinOp::URem if divisor.is_some_and(|d| d != 0) => {
                        if op == BinOp::UDiv { Op::BvUdiv } else { Op::BvUrem }
                    }
                    BinOp::SDiv | BinOp::SRem if divisor.is_some_and(|d| d != 0 && d != lockstep_replay::value::mask(w)) => {
                        if op == BinOp::SDiv { Op::BvSdiv } else { Op::BvSrem }
                    }
                    BinOp::Shl | BinOp::LShr | BinOp::AShr if divisor.is_some_and(|d| d < w as u128) => match op {
                        BinOp::Shl => Op::BvShl,
                        BinOp::LShr => Op::BvLshr,
                        _ => Op::BvAshr,
                    },
                    _ => return None,
                };
                (self.st.app(op, &[x, y]), w)
            }
            Node::Cmp(cc, a, b) => {
                let (x, wa) = self.bv(a)?;
                let (y, wb) = self.bv(b)?;
                if wa != wb {
                    return None;
                }
                let cmp = match cc {
                    IntCC::Eq => self.st.app(Op::Eq, &[x, y]),
                    IntCC::Ne => {
                        let eq = self.st.app(Op::Eq, &[x, y]);
                        self.st.app(Op::Not, &[eq])
                    }
                    IntCC::Ult => self.st.app(Op::BvUlt, &[x, y]),
                    IntCC::Ule => self.st.app(Op::BvUle, &[x, y]),
                    IntCC::Ugt => self.st.app(Op::BvUgt, &[x, y]),
                    IntCC::Uge => self.st.app(Op::BvUge, &[x, y]),
                    IntCC::Slt => self.st.app(Op::BvSlt, &[x, y]),
                    IntCC::Sle => self.st.app(Op::BvSle, &[x, y]),
                    IntCC::Sgt => self.st.app(Op::BvSgt, &[x, y]),
                    IntCC::Sge => self.st.app(Op::BvSge, &[x, y]),
                };
                let (one, zero) = (self.st.bv_const(1, 1), self.st.bv_const(1, 0));
                (self.st.app(Op::Ite, &[cmp, one, zero]), 1)
            }
            Node::Cast(op, a, from, to) => {
                let (x, w) = self.bv(a)?;
                if w != from || to == 0 || to > 128 {
                    return None;
                }
                match op {
                    CastOp::Zext if to >= from => (if to == from { x } else { self.st.app(Op::ZeroExtend(to - from), &[x]) }, to),
                    CastOp::Sext if to >= from => (if to == from { x } else { self.st.app(Op::SignExtend(to - from), &[x]) }, to),
                    CastOp::Trunc if to <= from => (if to == from { x } else { self.st.app(Op::Extract { hi: to - 1, lo: 0 }, &[x]) }, to),
                    _ => return None,
                }
            }
            Node::Select(c, a, b) => {
                let (cond, wc) = self.bv(c)?;
                let (x, wa) = self.bv(a)?;
                let (y, wb) = self.bv(b)?;
                if wc != 1 || wa != wb {
                    return None;
                }
                let one = self.st.bv_const(1, 1);
                let holds = self.st.app(Op::Eq, &[cond, one]);
                (self.st.app(Op::Ite, &[holds, x, y]), wa)
            }
            Node::Float(..) => return None,
        };
        self.memo.insert(t, out);
        Some(out)
    }
}

/// What the program read in `run`, for a witness: each draw it saw, in
/// order.
pub fn input_text(draws: &[InputDraw]) -> Option<String> {
    let seen: Vec<String> = draws
        .iter()
        .filter(|d| d.used)
        .map(|d| format!("{} is {}", d.what, lockstep_replay::value::sext(d.value, d.width.max(1))))
        .collect();
    (!seen.is_empty()).then(|| seen.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_kir::FloatOp;

    fn draw(term: TermId) -> InputDraw {
        InputDraw { term, width: 32, min: i128::MIN, max: i128::MAX, value: 0, what: "x".into(), used: true, round: false }
    }

    #[test]
    fn a_branch_on_input_is_solved_for_its_other_way() {
        let mut terms = Terms::default();
        let x = terms.fresh();
        let square = terms.binary(BinOp::Mul, x, x, 32);
        let c49 = terms.constant(49, 32);
        let is_49 = terms.compare(IntCC::Eq, square, c49);
        let draws = vec![draw(x)];
        let mut st = TermStore::new();
        let mut tr = Translator { terms: &terms, draws: &draws, st: &mut st, memo: HashMap::new(), consts: HashMap::new() };
        // The run took the `false` way; the other way needs x * x == 49.
        let atom = tr.atom(is_49, false).expect("translated");
        let names = tr.used_draws();
        assert_eq!(names.len(), 1);
        let flipped = st.app(Op::Not, &[atom]);
        let mut solver = Solver::spawn(SolverConfig::new(SolverKind::Z3, QUERY_LIMIT)).expect("z3");
        solver.assert(&st, flipped).expect("assert");
        assert_eq!(solver.check_sat().expect("answer"), SatResult::Sat);
        let v = solver.get_value(&st, &[names[0].1]).expect("value")[0].as_u128().expect("a number") as u32;
        assert_eq!(v.wrapping_mul(v), 49);
    }

    #[test]
    fn what_the_solver_would_not_model_exactly_is_not_translated() {
        let mut terms = Terms::default();
        let x = terms.fresh();
        let other = terms.fresh();
        let draws = vec![draw(x)];
        // A float computation, a shift by input, and a draw that is not input.
        let f = terms.cast(CastOp::SiToFp, x, 32, 32);
        let g = terms.float(FloatOp::Add, f, f, 32);
        let shifted = terms.binary(BinOp::Shl, x, x, 32);
        let zero = terms.constant(0, 32);
        let by_shift = terms.compare(IntCC::Eq, shifted, zero);
        let by_other = terms.compare(IntCC::Eq, other, zero);
        let by_x = terms.compare(IntCC::Eq, x, zero);
        let mut st = TermStore::new();
        let mut tr = Translator { terms: &terms, draws: &draws, st: &mut st, memo: HashMap::new(), consts: HashMap::new() };
        assert!(tr.bv(g).is_none());
        assert!(tr.atom(by_shift, true).is_none());
        assert!(tr.atom(by_other, true).is_none());
        // A comparison of the draw itself is translated.
        assert!(tr.atom(by_x, true).is_some());
    }
}
