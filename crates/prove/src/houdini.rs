//! Solving: Houdini over the candidate invariants, then one query per proof
//! obligation.
//!
//! Definitions and the assumption tree are asserted once in the kernel's
//! main solver process (each assumption behind an activation literal);
//! every query is a `push`, the negated obligation, the obligation's path
//! literal and the guards of the surviving candidates, a `check-sat`, and
//! a `pop`. Houdini's rounds and the checks after them ask solvers that
//! hold only the slice of those assertions their path's queries need
//! (`slice`), one path at a time for Houdini and up to `CHECK_JOBS` paths
//! at once, each on a fresh solver, for the checks. Houdini drops every candidate
//! whose entry or preservation check is not proved (satisfiable, unknown or
//! failed alike: dropping is always sound), until nothing changes; the
//! surviving candidates are then assumed while the real obligations are
//! checked. A timeout or solver error on a real obligation makes the kernel
//! `Unknown`, never verified.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use lockstep_diag::ViolationKind;
use lockstep_kir::{EntityRef, InstId, Module};
use lockstep_smt::{CpuMeter, CpuStopwatch, SatResult, Solver, SolverConfig, TermId};

use crate::encode::{ObKind, Problem};
use crate::{AccessInfo, FailedCheck, KirLoc, ProveConfig, ProveOutcome, ThreadIds};

enum Answer {
    Proved,
    Failed(Vec<Option<u128>>),
    Unknown(String),
}

struct Session {
    p: Problem,
    negations: Vec<TermId>,
    /// Every assertion of the encoding (definitions and the assumption
    /// tree), which slices are cut from.
    base: Vec<TermId>,
    /// How slice sessions are started.
    slice_config: SolverConfig,
    /// The solver of the Houdini group asked last, holding only the slice
    /// of `base` that group's queries need (see `slice`).
    slice: Option<(usize, Solver)>,
    /// The z3 work (`rlimit` units) the session's queries have done, in
    /// every solver (see `ProveConfig::work_budget`).
    work: u64,
    /// Equalities that fix the kernel's symbolic launch sizes to one
    /// representative launch (empty when the sizes are constants): Houdini's
    /// rounds look there first for failing candidates (`failing_among`).
    representative_launch: Vec<TermId>,
}

/// The work `solver` did since it reported `before` (0 when it cannot tell,
/// or all of its count when it was restarted in between).
fn work_since(solver: &mut Solver, before: Option<u64>) -> u64 {
    match (before, solver.work_done().ok().flatten()) {
        (Some(b), Some(now)) if now >= b => now - b,
        (_, Some(now)) => now,
        _ => 0,
    }
}

/// Asks `solver` whether `neg` (a negated obligation) is satisfiable with
/// `assumptions`, in a scope of its own, and for a model the values of
/// `values`; returns the answer and the z3 work it took. `within` limits
/// the query to less than the session's per-query limit. A solver that
/// fails is restarted with its base assertions (the query's scope is
/// gone), and the answer is unknown.
fn ask(solver: &mut Solver, st: &lockstep_smt::TermStore, neg: TermId, assumptions: &[TermId], values: &[TermId], within: Option<Duration>) -> (Answer, u64) {
    let before = solver.work_done().ok().flatten();
    let result = (|| -> lockstep_smt::Result<Answer> {
        // The assumptions are asserted in the query's scope rather than
        // passed to `check-sat-assuming`: z3 only falls back to its fast
        // non-incremental solver for plain `check-sat`.
        solver.push()?;
        let query: Vec<TermId> = std::iter::once(neg).chain(assumptions.iter().copied()).collect();
        solver.assert_all(st, &query)?;
        let r = match within {
            Some(limit) => solver.check_sat_within(limit)?,
            None => solver.check_sat()?,
        };
        let ans = match r {
            SatResult::Unsat => Answer::Proved,
            SatResult::Sat => {
                let vals = if values.is_empty() {
                    Vec::new()
                } else {
                    solver.get_value(st, values)?.iter().map(|v| v.as_u128()).collect()
                };
                Answer::Failed(vals)
            }
            SatResult::Unknown(reason) => Answer::Unknown(format!("solver answered unknown ({reason})")),
        };
        solver.pop()?;
        Ok(ans)
    })();
    let work = work_since(solver, before);
    match result {
        Ok(a) => (a, work),
        Err(e) => {
            // Restarting replays the open scopes: the base assertions
            // survive, the query's scope is gone.
            let _ = solver.restart();
            while solver.depth() > 0 {
                if solver.pop().is_err() {
                    break;
                }
            }
            (Answer::Unknown(format!("solver failure: {e}")), work)
        }
    }
}

/// One real obligation to check after inference: its negation, the
/// literal of its path (when it has one) and the terms whose values a
/// failure reports.
struct Check {
    /// What the obligation says, for `LOCKSTEP_PROVE_DEBUG`.
    message: String,
    neg: TermId,
    ctx: Option<TermId>,
    values: Vec<TermId>,
}

/// Starts a solver for `config` (its log named by `suffix`) and asserts
/// `kept` into it; `fallback` as `Solver::fall_back_after` (none: z3's
/// incremental core only, once a scope is pushed).
fn start_slice(st: &lockstep_smt::TermStore, config: &SolverConfig, suffix: &str, kept: &[TermId], fallback: Option<Duration>) -> lockstep_smt::Result<Solver> {
    let mut sc = config.clone();
    sc.log_path = sc.log_path.map(|path| path.with_extension(format!("{suffix}.smt2")));
    let mut solver = Solver::spawn(sc)?;
    if let Some(after) = fallback {
        solver.fall_back_after(after)?;
    }
    solver.assert_all(st, kept)?;
    Ok(solver)
}

/// Checks `checks` (the real obligations of one path) under `guards` on a
/// solver of their own, which holds only the slice of `base` they need
/// (`slice`): the answers, in order, and the z3 work they took. A fresh
/// solver per path makes each answer, and each model, depend only on the
/// path's own queries, whichever process asks and whatever ran beside it.
///
/// With z3, the path's solver runs only z3's incremental core, each check
/// limited to `CHECK_FALLBACK`'s work; a check it does not answer goes to
/// z3's bit-blasting tactic (`Solver::fall_back_after`) on a fresh solver
/// of its own, holding the slice of that one check, with the full limit.
/// The tactic costs about half as much in a process whose incremental
/// core never ran (see `Solver::fall_back_after`), and the answer still
/// depends only on the check itself.
fn check_path(st: &lockstep_smt::TermStore, base: &[TermId], config: &SolverConfig, key: usize, checks: &[Check], guards: &[TermId]) -> (Vec<Answer>, u64) {
    let mut roots: Vec<TermId> = guards.to_vec();
    for c in checks {
        roots.push(c.neg);
        roots.extend(c.ctx);
        roots.extend(c.values.iter().copied());
    }
    let kept = slice(st, base, &roots);
    let z3 = config.kind == lockstep_smt::SolverKind::Z3;
    // Without the tactic of a fresh solver to hand checks to (cvc5), the
    // path's solver falls back itself.
    let fallback = if z3 { None } else { Some(CHECK_FALLBACK) };
    let mut solver = match start_slice(st, config, &format!("checks{key}"), &kept, fallback) {
        Ok(solver) => solver,
        Err(e) => return (checks.iter().map(|_| Answer::Unknown(format!("solver failure: {e}"))).collect(), 0),
    };
    let within = z3.then_some(CHECK_FALLBACK);
    let mut work = 0;
    let debug = std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some();
    let t0 = std::time::Instant::now();
    let answers = checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut assumptions = guards.to_vec();
            assumptions.extend(c.ctx);
            let q0 = std::time::Instant::now();
            let (mut answer, mut w) = ask(&mut solver, st, c.neg, &assumptions, &c.values, within);
            if z3 && matches!(&answer, Answer::Unknown(r) if r.contains(lockstep_smt::WORK_LIMIT)) {
                let mut roots = assumptions.clone();
                roots.push(c.neg);
                roots.extend(c.values.iter().copied());
                let kept = slice(st, base, &roots);
                (answer, w) = match start_slice(st, config, &format!("checks{key}.{i}"), &kept, Some(Duration::ZERO)) {
                    Ok(mut fresh) => {
                        let (a, more) = ask(&mut fresh, st, c.neg, &assumptions, &c.values, None);
                        (a, w + more)
                    }
                    Err(e) => (Answer::Unknown(format!("solver failure: {e}")), w),
                };
            }
            if debug {
                let what = match &answer {
                    Answer::Proved => "proved".to_string(),
                    Answer::Failed(_) => "failed".to_string(),
                    Answer::Unknown(r) => format!("unknown ({r})"),
                };
                eprintln!("houdini: check on path {key}: {what}, {:.0} ms, z3 work {w}: {}", q0.elapsed().as_secs_f64() * 1000.0, c.message);
            }
            work += w;
            answer
        })
        .collect();
    if debug {
        eprintln!(
            "houdini: checks of path {key}: {} obligations, {} of {} assertions in the slice, {:.0} ms, z3 work {work}",
            checks.len(),
            kept.len(),
            base.len(),
            t0.elapsed().as_secs_f64() * 1000.0
        );
    }
    (answers, work)
}

/// How many solver processes check the real obligations at once, one path
/// each (see `Session::check_real`).
const CHECK_JOBS: usize = 2;

impl Session {
    /// Checks the real obligations `obs` (indices into the problem's
    /// obligations) under `guards`, the obligations of each path on a
    /// solver of its own holding the path's slice (`check_path`), up to
    /// `CHECK_JOBS` paths at once. Before each such wave, `over_budget`
    /// may stop the checks: the obligations not asked have no answer.
    /// An obligation whose condition is already true needs no solver, nor
    /// does one of a path in `held`, whose obligations were proved with no
    /// candidate assumed (`holds_without_invariants`): assuming more
    /// cannot make them fail.
    fn check_real(&mut self, obs: &[usize], held: &BTreeSet<Option<usize>>, guards: &[TermId], model_terms: &[TermId], over_budget: impl Fn(&Session) -> bool) -> Vec<Option<Answer>> {
        let mut answers: Vec<Option<Answer>> = obs.iter().map(|_| None).collect();
        let mut paths: std::collections::BTreeMap<Option<usize>, Vec<usize>> = Default::default();
        for (i, &ob) in obs.iter().enumerate() {
            let o = &self.p.obligations[ob];
            if self.p.st.as_bool(o.cond) == Some(true) || held.contains(&o.ctx) {
                answers[i] = Some(Answer::Proved);
            } else {
                paths.entry(o.ctx).or_default().push(i);
            }
        }
        let paths: Vec<(usize, Vec<usize>)> =
            paths.into_values().map(|members| (obs[members[0]], members)).collect();
        for wave in paths.chunks(CHECK_JOBS) {
            if over_budget(self) {
                break;
            }
            let jobs: Vec<(usize, Vec<Check>)> = wave
                .iter()
                .map(|(key, members)| {
                    let checks = members
                        .iter()
                        .map(|&i| {
                            let ob = obs[i];
                            let o = &self.p.obligations[ob];
                            let mut values = model_terms.to_vec();
                            if let ObKind::Race { off1, off2, site1, .. } = o.kind {
                                values.extend([off1, off2, site1]);
                            }
                            Check { message: o.message.clone(), neg: self.negations[ob], ctx: o.ctx.map(|c| self.p.nodes[c].0), values }
                        })
                        .collect();
                    (*key, checks)
                })
                .collect();
            let (st, base, config) = (&self.p.st, &self.base, &self.slice_config);
            let results: Vec<(Vec<Answer>, u64)> = std::thread::scope(|scope| {
                let handles: Vec<_> =
                    jobs.iter().map(|(key, checks)| scope.spawn(move || check_path(st, base, config, *key, checks, guards))).collect();
                handles
                    .into_iter()
                    .zip(&jobs)
                    .map(|(h, (_, checks))| {
                        h.join().unwrap_or_else(|_| (checks.iter().map(|_| Answer::Unknown("the check's thread failed".into())).collect(), 0))
                    })
                    .collect()
            });
            for ((_, members), (path_answers, work)) in wave.iter().zip(results) {
                self.work += work;
                for (&i, answer) in members.iter().zip(path_answers) {
                    answers[i] = Some(answer);
                }
            }
        }
        answers
    }
}

impl Session {
    /// The paths (the `ctx` of their obligations) whose real obligations
    /// all hold with no candidate invariant assumed, and whether that is
    /// every path. The candidates' guards are left free, so an
    /// unsatisfiable answer covers the case where none holds: no candidate
    /// is trusted, and a path found here needs no check after inference.
    ///
    /// Each path is asked on a solver of its own holding only its slice
    /// (as `check_path` does), in path order, and the first path that does
    /// not hold ends the question: on a kernel that needs invariants, a
    /// path inside its first loop is soon found satisfiable, where one query
    /// over the disjunction of every path's failures, on the whole
    /// encoding, ran out of its limit (2.5M units of z3's work and 1.6 s on
    /// `bench/items59/softmax.cu` before this, for nothing). The paths
    /// share `HOLDS_LIMIT`'s work.
    fn holds_without_invariants(&mut self) -> (BTreeSet<Option<usize>>, bool) {
        let mut paths: std::collections::BTreeMap<Option<usize>, Vec<usize>> = Default::default();
        for ob in 0..self.p.obligations.len() {
            let o = &self.p.obligations[ob];
            if o.cand.is_none() && self.p.st.as_bool(o.cond) != Some(true) {
                paths.entry(o.ctx).or_default().push(ob);
            }
        }
        let mut held = BTreeSet::new();
        let debug = std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some();
        let t0 = std::time::Instant::now();
        let limit_work = HOLDS_LIMIT.as_millis() as u64 * lockstep_smt::Z3_WORK_PER_MS;
        let mut spent_work = 0u64;
        for (&ctx, obs) in &paths {
            // What is left of the limit: z3's work where it is counted,
            // else the time the question has taken.
            let spent = if self.slice_config.kind == lockstep_smt::SolverKind::Z3 {
                Duration::from_millis(spent_work / lockstep_smt::Z3_WORK_PER_MS)
            } else {
                t0.elapsed()
            };
            let left = HOLDS_LIMIT.saturating_sub(spent);
            if spent_work >= limit_work || left < HOLDS_MIN_SHARE {
                return (held, false);
            }
            let negs: Vec<TermId> = obs.iter().map(|&ob| self.negations[ob]).collect();
            let any = self.p.st.or(&negs);
            let ctx_lit = ctx.map(|c| self.p.nodes[c].0);
            let mut roots = vec![any];
            roots.extend(ctx_lit);
            let kept = slice(&self.p.st, &self.base, &roots);
            let key = ctx.map_or(0, |c| c + 1);
            let mut solver = match start_slice(&self.p.st, &self.slice_config, &format!("holds{key}"), &kept, Some(ROUND_FALLBACK)) {
                Ok(solver) => solver,
                Err(_) => return (held, false),
            };
            let q0 = std::time::Instant::now();
            let (answer, work) = ask(&mut solver, &self.p.st, any, &ctx_lit.into_iter().collect::<Vec<_>>(), &[], Some(left));
            spent_work += work;
            self.work += work;
            if debug {
                let what = match &answer {
                    Answer::Proved => "holds".to_string(),
                    Answer::Failed(_) => "fails".to_string(),
                    Answer::Unknown(r) => format!("unknown ({r})"),
                };
                eprintln!(
                    "houdini: without invariants, path {key}: {what}, {} obligations, {} of {} assertions in the slice, {:.0} ms, z3 work {work}",
                    obs.len(),
                    kept.len(),
                    self.base.len(),
                    q0.elapsed().as_secs_f64() * 1000.0
                );
            }
            match answer {
                Answer::Proved => {
                    held.insert(ctx);
                }
                _ => return (held, false),
            }
        }
        (held, true)
    }

    /// The solver for Houdini group `key`, whose obligations are `group`
    /// (all of them, live or not): the one asked last when it served the
    /// same group, else a new one holding the slice of the base that the
    /// group's queries need.
    fn slice_solver(&mut self, key: usize, group: &[usize]) -> lockstep_smt::Result<&mut Solver> {
        if self.slice.as_ref().map(|(k, _)| *k) != Some(key) {
            self.slice = None;
            let mut roots: Vec<TermId> = self.p.candidates.iter().map(|c| c.guard).collect();
            for &ob in group {
                let o = &self.p.obligations[ob];
                roots.push(self.negations[ob]);
                roots.extend(o.ctx.map(|c| self.p.nodes[c].0));
            }
            let kept = slice(&self.p.st, &self.base, &roots);
            if std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some() {
                eprintln!("houdini: group {key}'s solver: {} of {} assertions in the slice", kept.len(), self.base.len());
            }
            let mut sc = self.slice_config.clone();
            sc.log_path = sc.log_path.map(|path| path.with_extension(format!("houdini{key}.smt2")));
            let mut solver = Solver::spawn(sc)?;
            solver.fall_back_after(ROUND_FALLBACK)?;
            solver.assert_all(&self.p.st, &kept)?;
            self.slice = Some((key, solver));
        }
        Ok(&mut self.slice.as_mut().expect("just started").1)
    }

    /// Which of `obs` (live obligations of Houdini group `key`, whose
    /// obligations are `group`) fail under `guards`: the ones the model of
    /// "some of them fails" falsifies, each query limited to `limit`.
    fn failing_among(&mut self, key: usize, group: &[usize], obs: &[usize], guards: &[TermId], limit: Duration) -> Round {
        let obs: Vec<usize> =
            obs.iter().copied().filter(|&ob| self.p.st.as_bool(self.p.obligations[ob].cond) != Some(true)).collect();
        if obs.is_empty() {
            return Round::Hold;
        }
        let negs: Vec<TermId> = obs.iter().map(|&ob| self.negations[ob]).collect();
        let conds: Vec<TermId> = obs.iter().map(|&ob| self.p.obligations[ob].cond).collect();
        let any = self.p.st.or(&negs);
        let ctx = self.p.obligations[obs[0]].ctx.map(|c| self.p.nodes[c].0);
        let solver = match self.slice_solver(key, group) {
            Ok(_) => &mut self.slice.as_mut().expect("started").1,
            Err(_) => {
                self.slice = None;
                return Round::Unknown;
            }
        };
        let st = &self.p.st;
        let representative = &self.representative_launch;
        let before = solver.work_done().ok().flatten();
        let result = (|| -> lockstep_smt::Result<Round> {
            solver.push()?;
            let query: Vec<TermId> = std::iter::once(any).chain(guards.iter().copied()).chain(ctx).collect();
            solver.assert_all(st, &query)?;
            // A failing candidate shows up as readily at one launch size as
            // at a symbolic one, where products and remainders by the
            // block size make z3 slow to find a model. A model with the
            // sizes fixed is a model of the query (fixing a free symbol
            // only restricts it), so what fails there may be dropped, as
            // Houdini drops what fails in any model; when nothing fails
            // there, the query is asked as it is.
            if !representative.is_empty() {
                solver.push()?;
                solver.assert_all(st, representative)?;
                let found = match solver.check_sat_within(REPRESENTATIVE_LIMIT)? {
                    SatResult::Sat => {
                        let vals = solver.get_value(st, &conds)?;
                        let bad: Vec<usize> =
                            obs.iter().zip(vals.iter()).filter(|(_, v)| v.as_bool() != Some(true)).map(|(&o, _)| o).collect();
                        (!bad.is_empty()).then_some(bad)
                    }
                    _ => None,
                };
                solver.pop()?;
                if let Some(bad) = found {
                    solver.pop()?;
                    return Ok(Round::Fail(bad));
                }
            }
            let r = solver.check_sat_within(limit)?;
            let out = match r {
                SatResult::Unsat => Round::Hold,
                SatResult::Sat => {
                    let vals = solver.get_value(st, &conds)?;
                    let bad: Vec<usize> =
                        obs.iter().zip(vals.iter()).filter(|(_, v)| v.as_bool() != Some(true)).map(|(&o, _)| o).collect();
                    // A model in which every obligation holds contradicts
                    // the query; trusting it would settle the group with
                    // none dropped, so all of them count as failing.
                    Round::Fail(if bad.is_empty() { obs.clone() } else { bad })
                }
                SatResult::Unknown(_) => Round::Unknown,
            };
            solver.pop()?;
            Ok(out)
        })();
        self.work += work_since(solver, before);
        match result {
            Ok(Round::Unknown) | Err(_) => {
                // The slice's solver is started afresh for the next query.
                self.slice = None;
                Round::Unknown
            }
            Ok(answer) => answer,
        }
    }
}

/// How long (as z3 work, like every limit here) the question whether
/// every real obligation holds without invariants may take. It pays only
/// when it is answered unsatisfiable, which for the kernels it is for
/// (loops that touch no shared state) is quick; on a kernel that needs
/// invariants it runs out, and at 2 s it was 40% of the prover's work on a
/// grid-stride reduction with a warp tail (5.4M of 13.3M units on
/// `bench/items59/warp_tail_sum.cu`).
const HOLDS_LIMIT: Duration = Duration::from_millis(500);

/// The least share of `HOLDS_LIMIT` worth asking a path with: below it,
/// inference decides.
const HOLDS_MIN_SHARE: Duration = Duration::from_millis(20);

/// The answer to one Houdini query about some obligations of a group.
enum Round {
    /// None of them fails under the surviving candidates.
    Hold,
    /// These fail in the solver's model (a nonempty subset of the asked).
    Fail(Vec<usize>),
    /// The solver did not answer within the query's limit, or failed.
    Unknown,
}

/// The limit of one query of Houdini's rounds, as a share of the session's
/// per-query limit (`ProveConfig::query_timeout`): a query that does not
/// answer within it is split (see `solve`), and the halves, which mention
/// fewer obligations, get the same limit. Half leaves room in the default
/// budget (30 s of z3's work, 20 s per query) for a query that runs out and
/// the halves after it; a quarter was too short for the last round of a
/// strided loop over three arrays (the one that proves the survivors
/// inductive took 5.4 s), whose halves then found no budget left.
const ROUND_LIMIT_SHARE: u32 = 2;

/// How long z3's incremental core may work on a query of Houdini's rounds,
/// and on one of the checks after them, before z3 hands it to its
/// bit-blasting solver (see `Solver::fall_back_after`). The rounds profit
/// from what the incremental core learns: Houdini's last round on
/// `bench/kernels/race_free.cu` takes the core 0.25 s and the fallback 0.28 s
/// more after the wait. Measured on `race_free.cu` (2x1, 1024x65535,
/// 1000x1000, 3x1; `scripts/bench.sh`) and the conformance suites: these
/// values made the benchmark 10-25% faster at every size and left the
/// suites' times as they were (higher ones slowed kernels whose rounds the
/// core cannot answer, like `test_mod_invariants/local_direct`: 0.9 s at
/// 100 ms, 1.8 s at 1 s).
const ROUND_FALLBACK: Duration = Duration::from_millis(300);

/// How long a Houdini round may look for a failing candidate at the
/// representative launch (`Session::representative_launch`) before the
/// round's query is asked with the sizes symbolic. Taken as z3 work, like
/// every limit here, so the answer does not depend on the machine's load.
const REPRESENTATIVE_LIMIT: Duration = Duration::from_millis(500);

/// The launch at which Houdini's rounds first look for failing candidates
/// when the kernel's sizes are symbolic: a block of 64 threads in its first
/// symbolic dimension (1 in the others) and a grid of 4 blocks in its first
/// symbolic dimension (1 in the others), so that two threads of a group and
/// two groups both exist.
fn representative_launch(p: &mut Problem) -> Vec<TermId> {
    let mut fixes = Vec::new();
    for (sizes, first) in [(p.group_size, 64u128), (p.num_groups, 4u128)] {
        let mut value = first;
        for size in sizes {
            if p.st.as_bv(size).is_some() {
                continue;
            }
            let width = match p.st.sort_of(size) {
                lockstep_smt::Sort::BitVec(w) => *w,
                _ => continue,
            };
            let c = p.st.bv_const(width, value);
            fixes.push(p.st.eq(size, c));
            value = 1;
        }
    }
    fixes
}
const CHECK_FALLBACK: Duration = Duration::from_millis(200);

impl Session {
    /// Prepares the solving of `p`: its definitions and assumption tree as
    /// the base that every query's solver gets its slice of, and the
    /// configuration those solvers start with (`log` names their logs).
    /// No solver holds the whole base: every question is asked of a slice
    /// (`holds_without_invariants`, `slice_solver`, `check_path`).
    /// `meter` counts the CPU time of its solvers (`ProveConfig::cpu_budget`).
    fn start(mut p: Problem, config: &ProveConfig, log: Option<PathBuf>, meter: &CpuMeter) -> Session {
        let mut sc = SolverConfig::new(config.solver, config.query_timeout);
        sc.memory_limit = config.solver_memory;
        sc.timer_factor = config.solver_timer_factor;
        sc.cpu_meter = Some(meter.clone());
        sc.stop = config.stop.clone();
        if let Some(path) = log {
            sc = sc.with_log(path);
        }
        let negations: Vec<TermId> = (0..p.obligations.len()).map(|i| p.st.not(p.obligations[i].cond)).collect();
        let mut base: Vec<TermId> = p.defs.clone();
        for &(lit, term, parent) in &p.nodes {
            let body = match parent {
                Some(q) => p.st.and(&[term, p.nodes[q].0]),
                None => term,
            };
            base.push(p.st.implies(lit, body));
        }
        let representative_launch = representative_launch(&mut p);
        Session { p, negations, base, slice_config: sc, slice: None, work: 0, representative_launch }
    }
}

/// Runs Houdini and checks every obligation of `p`.
pub fn solve(module: &Module, mut p: Problem, config: &ProveConfig, observer: Option<crate::Observer>) -> ProveOutcome {
    let expand_funs = std::mem::take(&mut p.expand_funs);
    // The CPU time of this thread and of every solver the session starts.
    let cpu = CpuStopwatch::start(CpuMeter::new());
    let mut s = Session::start(p, config, config.replay_log.clone(), cpu.meter());
    let start = std::time::Instant::now();
    // The budget is z3's work where it is known and CPU time otherwise (the
    // same on every run, however loaded the machine), with CPU time as the
    // safety net of work; the wall clock is the user's deadline or a
    // backstop far beyond either.
    let stopped = || config.stop.as_ref().is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed));
    let over_budget = |s: &Session, start: std::time::Instant| {
        stopped()
            || config.work_budget.is_some_and(|w| s.work > w)
            || config.cpu_budget.is_some_and(|b| cpu.elapsed() > b)
            || config.time_budget.is_some_and(|b| start.elapsed() > b)
    };

    // Houdini.
    let ncand = s.p.candidates.len();
    let mut alive = vec![true; ncand];
    let t_holds = std::time::Instant::now();
    if stopped() {
        return ProveOutcome::Unknown { reason: "the proof was stopped".into(), at: None };
    }
    // The paths whose obligations hold with no invariant assumed: the
    // checks after inference leave them out.
    let mut held_paths = BTreeSet::new();
    if ncand > 0 {
        let (held, all) = s.holds_without_invariants();
        held_paths = held;
        if all {
            // Nothing to prove needs an inferred invariant (a kernel whose
            // loops touch no shared state, say): inference is skipped.
            alive.fill(false);
        }
    }
    // Set LOCKSTEP_PROVE_DEBUG to see Houdini's decisions.
    let debug = std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some();
    if debug {
        eprintln!("houdini: without invariants: {:.0} ms, z3 work {}", t_holds.elapsed().as_secs_f64() * 1000.0, s.work);
    }
    // The Daikon filter: what a concrete run falsifies needs no query.
    if let Some(observe) = observer.filter(|_| config.daikon && alive.iter().any(|&a| a)) {
        let t0 = std::time::Instant::now();
        let dropped = crate::daikon::filter(module, &s.p, observe, &alive, config.only_intra_group);
        if debug {
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            match &dropped {
                None => eprintln!("houdini: daikon: no concrete run observed, {ms:.0} ms"),
                Some(d) => {
                    let mut per_tag: std::collections::BTreeMap<&str, usize> = Default::default();
                    for &c in d {
                        *per_tag.entry(s.p.candidates[c].tag.as_str()).or_default() += 1;
                        eprintln!("houdini: daikon dropped [{}] {}", s.p.candidates[c].tag, s.p.candidates[c].text);
                    }
                    eprintln!("houdini: daikon: {} of {ncand} candidates dropped, {ms:.0} ms", d.len());
                    for (tag, n) in per_tag {
                        eprintln!("houdini: daikon: tag {tag}: {n} dropped");
                    }
                }
            }
        }
        for c in dropped.into_iter().flatten() {
            alive[c] = false;
        }
    }
    // Candidate obligations are checked in groups that share a path: one
    // query asks whether any of them fails; the model tells which ones do,
    // and those candidates are dropped. A group is settled when its query
    // is unsatisfiable; a query the solver does not answer is split (see
    // below), and what stays unanswered is dropped, which is always sound.
    let mut groups: std::collections::BTreeMap<Option<usize>, Vec<usize>> = Default::default();
    for (ob, o) in s.p.obligations.iter().enumerate() {
        if o.cand.is_some() {
            groups.entry(o.ctx).or_default().push(ob);
        }
    }
    let groups: Vec<(Option<usize>, Vec<usize>)> = groups.into_iter().collect();
    let dependents = dependents(&s.p, &groups);
    if debug {
        eprintln!("houdini: {ncand} candidates, {} groups, {} obligations", groups.len(), s.p.obligations.len());
    }
    // A worklist: a group is asked again only when it may have changed,
    // that is, when a candidate it depends on was dropped (an unsatisfiable
    // query stays so with fewer obligations and the same assumptions), or
    // when its own last query dropped some of its obligations (the rest may
    // still fail). The first dirty group in the order of the paths goes
    // first, so a loop's invariants settle before the loops after it, whose
    // queries assume them, are asked.
    let mut dirty = vec![true; groups.len()];
    let mut queries = 0usize;
    // At least a second (or the whole limit when it is shorter), so that a
    // short `--timeout` still leaves z3 time for its fallback solver.
    let round_limit = (config.query_timeout / ROUND_LIMIT_SHARE).max(config.query_timeout.min(Duration::from_secs(1)));
    // Whether a query that ran out of its limit may still be split: while
    // the budget has room for another whole query (work where it is
    // counted, else time; deterministic where work is the budget). Past
    // that, the query's obligations are dropped at once, as GPUVerify does,
    // and what is left of the budget goes to the checks.
    let round_work = round_limit.as_millis() as u64 * lockstep_smt::Z3_WORK_PER_MS;
    let may_split = |s: &Session, start: std::time::Instant| match (config.work_budget, config.cpu_budget, config.time_budget) {
        (Some(w), _, _) => s.work.saturating_add(round_work) <= w,
        (None, Some(b), _) => cpu.elapsed() + round_limit <= b,
        (None, None, Some(b)) => start.elapsed() + round_limit <= b,
        (None, None, None) => true,
    };
    // Per group, the most obligations one query asks about: all of them
    // at first, halved each time a query of that size ran out of its limit,
    // so that later rounds do not pay for the same timeout again.
    let mut chunk = vec![usize::MAX; groups.len()];
    // Whether a group's last round dropped nothing (every part held). A
    // dirty group that held goes after the dirty groups that did not: the
    // candidates a failing group is still dropping would make it dirty
    // again, and an unsatisfiable query costs the most (an inner loop's
    // query held again after each of its outer loop's drops, 3 to 6 s each
    // on a grid-stride loop over rows). Houdini's answer, the largest
    // inductive subset, does not depend on the order in which it asks.
    let mut held = vec![false; groups.len()];
    while let Some(g) = (0..groups.len()).find(|&g| dirty[g] && !held[g]).or_else(|| dirty.iter().position(|&d| d)) {
        dirty[g] = false;
        held[g] = true;
        let obs = &groups[g].1;
        let live: Vec<usize> = obs.iter().copied().filter(|&ob| alive[s.p.obligations[ob].cand.unwrap()]).collect();
        if live.is_empty() {
            continue;
        }
        // The round's queries, each about a part of the live obligations.
        // A query that the solver does not answer is asked again as two
        // halves (GPUVerify's Houdini drops the whole set instead, and so
        // did this one: the verdict then depended on which query happened
        // to be slow); only an obligation still unanswered alone, or once
        // the budget has no room for another query, is dropped unproved.
        // Dropping is sound either way; splitting buys precision.
        let size = chunk[g].min(live.len()).max(1);
        let mut parts: Vec<Vec<usize>> = live.chunks(size).rev().map(|c| c.to_vec()).collect();
        while let Some(part) = parts.pop() {
            if over_budget(&s, start) {
                return ProveOutcome::Unknown { reason: "time budget exceeded during invariant inference".into(), at: None };
            }
            // Candidates dropped by an earlier part of this round are gone.
            let part: Vec<usize> = part.into_iter().filter(|&ob| alive[s.p.obligations[ob].cand.unwrap()]).collect();
            if part.is_empty() {
                continue;
            }
            let guards: Vec<TermId> = (0..ncand).filter(|&i| alive[i]).map(|i| s.p.candidates[i].guard).collect();
            let q0 = std::time::Instant::now();
            let w0 = s.work;
            let answer = s.failing_among(g, obs, &part, &guards, round_limit);
            queries += 1;
            let failing = match answer {
                Round::Hold => Vec::new(),
                Round::Fail(bad) => bad,
                Round::Unknown if part.len() > 1 && may_split(&s, start) => {
                    let half = part.len().div_ceil(2);
                    chunk[g] = chunk[g].min(half);
                    if debug {
                        eprintln!(
                            "houdini: query {queries} group {:?}: {} live, unknown, split, {:.0} ms",
                            groups[g].0,
                            part.len(),
                            q0.elapsed().as_secs_f64() * 1000.0
                        );
                    }
                    parts.push(part[half..].to_vec());
                    parts.push(part[..half].to_vec());
                    continue;
                }
                Round::Unknown => part.clone(),
            };
            if debug {
                eprintln!(
                    "houdini: query {queries} group {:?}: {} live, {} failing, {:.0} ms, z3 work {}",
                    groups[g].0,
                    part.len(),
                    failing.len(),
                    q0.elapsed().as_secs_f64() * 1000.0,
                    s.work - w0
                );
            }
            if !failing.is_empty() {
                held[g] = false;
            }
            for ob in failing {
                let c = s.p.obligations[ob].cand.unwrap();
                if alive[c] {
                    if debug {
                        eprintln!("houdini: dropped [{}] {} ({})", s.p.candidates[c].tag, s.p.candidates[c].text, s.p.obligations[ob].message);
                    }
                    alive[c] = false;
                    dirty[g] = true;
                    for &d in &dependents[c] {
                        dirty[d] = true;
                    }
                }
            }
        }
    }
    // The slice's solver is not needed any more.
    s.slice = None;
    let guards: Vec<TermId> = (0..ncand).filter(|&i| alive[i]).map(|i| s.p.candidates[i].guard).collect();
    if debug {
        eprintln!(
            "houdini: {queries} queries, {:.0} ms, {:.0} ms of CPU, {} z3 work",
            start.elapsed().as_secs_f64() * 1000.0,
            cpu.elapsed().as_secs_f64() * 1000.0,
            s.work
        );
        let mut per_tag: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
        for (i, c) in s.p.candidates.iter().enumerate() {
            let e = per_tag.entry(c.tag.as_str()).or_default();
            e.0 += 1;
            e.1 += alive[i] as usize;
        }
        for (tag, (n, kept)) in per_tag {
            eprintln!("houdini: tag {tag}: {kept} of {n} kept");
        }
        for i in (0..ncand).filter(|&i| alive[i]) {
            eprintln!("houdini: kept [{}] {}", s.p.candidates[i].tag, s.p.candidates[i].text);
        }
    }

    // The real obligations, each asked once. When the encoding used the
    // stride rule's uninterpreted remainder, they are asked in a second
    // session in which each application is a constant with congruence
    // lemmas (see `ackermann`): z3's incremental core did not answer the
    // race check of a grid-stride loop in 20 s otherwise, and its
    // bit-blasting fallback took 0.17 s (`race_free.cu` at 1024x65535).
    // Houdini keeps the function: with the lemmas it needed more rounds,
    // as the models z3 picked dropped fewer candidates at a time.
    if crate::ackermann::expand(&mut s.p, &expand_funs) {
        let spent = s.work;
        let p = s.p;
        let log = config.replay_log.as_ref().map(|path| path.with_extension("checks.smt2"));
        s = Session::start(p, config, log, cpu.meter());
        s.work = spent;
    }
    let p = &s.p;
    let mut model_terms: Vec<TermId> = Vec::new();
    for t in 0..2 {
        model_terms.extend(p.lid[t]);
        model_terms.extend(p.gid[t]);
    }
    model_terms.extend(p.group_size);
    model_terms.extend(p.num_groups);
    let mut failures = Vec::new();
    let mut unknown: Option<(String, Option<lockstep_kir::SrcLoc>)> = None;
    let mut proved: BTreeSet<String> = BTreeSet::new();
    let real: Vec<usize> = (0..s.p.obligations.len()).filter(|&ob| s.p.obligations[ob].cand.is_none()).collect();
    let answers = s.check_real(&real, &held_paths, &guards, &model_terms, |s| over_budget(s, start));
    for (&ob, ans) in real.iter().zip(answers) {
        // An obligation the budget left unasked makes the kernel unknown,
        // unless another one failed.
        let Some(ans) = ans else {
            unknown.get_or_insert(("time budget exceeded".into(), None));
            continue;
        };
        let p = &s.p;
        let o = &p.obligations[ob];
        let src = o.inst.and_then(|i| *p.func.inst_locs.get(i));
        match ans {
            Answer::Proved => {
                proved.insert(proved_text(module, p, ob));
            }
            Answer::Unknown(reason) => {
                if unknown.is_none() {
                    unknown = Some((format!("{reason} while checking: {}", o.message), src));
                }
            }
            Answer::Failed(vals) => failures.push(failed_check(p, ob, &vals)),
        }
    }
    if debug {
        eprintln!("houdini: checks done, {:.0} ms since the start of inference, z3 work {}", start.elapsed().as_secs_f64() * 1000.0, s.work);
    }
    if !failures.is_empty() {
        return ProveOutcome::Failed { violations: failures };
    }
    if let Some((reason, at)) = unknown {
        return ProveOutcome::Unknown { reason, at };
    }
    let p = &s.p;
    let invariants = (0..ncand)
        .filter(|&i| alive[i])
        .map(|i| (p.candidates[i].tag.clone(), p.candidates[i].text.clone()))
        .collect();
    ProveOutcome::Verified { proved: proved.into_iter().collect(), assumptions: p.assumptions.clone(), invariants }
}

/// The assertions of `base` that a query over `roots` needs: its cone of
/// influence. Asserting fewer assertions than all of them is always sound
/// (an unsatisfiable query stays unsatisfiable with more of them); this
/// slice also loses nothing, because what it leaves out can be satisfied
/// whatever the kept assertions say:
///
/// - a definition `x = t` (the encoder's names) whose `x` occurs in no kept
///   assertion and no root: `x` takes the value of `t` (names are defined
///   before they are used, so the left-out ones can be given values in
///   order);
/// - an implication `lit => a` or a negation `not lit` (the assumption
///   tree's nodes, the gates of the loops' invariants), whose literal occurs
///   in no kept assertion and no root: `lit` is false.
///
/// Every other assertion is kept. A left-out assertion of the first two
/// shapes whose symbol occurs in another left-out one is satisfied in the
/// same way, since that one is left out too.
fn slice(st: &lockstep_smt::TermStore, base: &[TermId], roots: &[TermId]) -> Vec<TermId> {
    use lockstep_smt::{Op, TermKind};
    let key_of = |t: TermId| -> Option<lockstep_smt::FunId> {
        let konst = |x: TermId| match st.kind(x) {
            TermKind::Const(f) => Some(*f),
            _ => None,
        };
        match st.kind(t) {
            TermKind::App(Op::Eq, args) if args.len() == 2 => konst(args[0]).or_else(|| konst(args[1])),
            TermKind::App(Op::Implies, args) if args.len() == 2 => konst(args[0]),
            TermKind::App(Op::Not, args) => konst(args[0]),
            _ => None,
        }
    };
    let mut keyed: std::collections::HashMap<lockstep_smt::FunId, Vec<usize>> = Default::default();
    let mut kept = vec![false; base.len()];
    let mut stack: Vec<TermId> = roots.to_vec();
    for (i, &t) in base.iter().enumerate() {
        match key_of(t) {
            Some(f) => keyed.entry(f).or_default().push(i),
            None => {
                kept[i] = true;
                stack.push(t);
            }
        }
    }
    let mut seen = vec![false; st.len()];
    while let Some(t) = stack.pop() {
        if std::mem::replace(&mut seen[t.index()], true) {
            continue;
        }
        match st.kind(t) {
            TermKind::Const(f) => {
                for i in keyed.remove(f).into_iter().flatten() {
                    kept[i] = true;
                    stack.push(base[i]);
                }
            }
            TermKind::App(_, args) => stack.extend(args.iter().copied()),
            TermKind::ConstArray(x) => stack.push(*x),
            TermKind::Quant { body, .. } => stack.push(*body),
            _ => {}
        }
    }
    base.iter().zip(kept).filter(|(_, k)| *k).map(|(&t, _)| t).collect()
}

/// For each candidate, the groups (indices into `groups`) whose queries it
/// may affect: those whose path passes through one of the nodes gating its
/// assumptions (`Candidate::gates`). Every other query leaves the
/// candidate's guard free to be false, so dropping the candidate cannot
/// change its answer. A candidate without known gates affects every group.
fn dependents(p: &Problem, groups: &[(Option<usize>, Vec<usize>)]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); p.candidates.len()];
    let mut gated: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for (c, cand) in p.candidates.iter().enumerate() {
        if cand.gates.is_empty() {
            out[c] = (0..groups.len()).collect();
        }
        for &n in &cand.gates {
            gated.entry(n).or_default().push(c);
        }
    }
    for (g, (ctx, _)) in groups.iter().enumerate() {
        let mut node = *ctx;
        while let Some(n) = node {
            for &c in gated.get(&n).into_iter().flatten() {
                if out[c].last() != Some(&g) {
                    out[c].push(g);
                }
            }
            node = p.nodes[n].2;
        }
    }
    out
}

fn loc_text(module: &Module, loc: Option<lockstep_kir::SrcLoc>) -> String {
    match loc {
        Some(l) => {
            let file = module.files.get(l.file).map(|s| s.as_str()).unwrap_or("?");
            let file = file.rsplit('/').next().unwrap_or(file);
            format!("{file}:{}:{}", l.line, l.col)
        }
        None => "an unknown location".into(),
    }
}

fn proved_text(module: &Module, p: &Problem, ob: usize) -> String {
    let o = &p.obligations[ob];
    let at = loc_text(module, o.inst.and_then(|i| *p.func.inst_locs.get(i)));
    match &o.kind {
        ObKind::Race { obj, .. } => {
            let obj = &p.objects[*obj];
            format!("no data race on `{}` ({})", obj.name, obj.space.name())
        }
        ObKind::Divergence => "no barrier divergence".into(),
        ObKind::Annotation(ViolationKind::Precondition) => format!("precondition at {at} holds"),
        ObKind::Annotation(ViolationKind::NullPointer) => "no access through a null pointer".into(),
        ObKind::Annotation(ViolationKind::ConstantWrite) => "no write to constant memory".into(),
        ObKind::Annotation(ViolationKind::OutOfBounds) => "no out-of-bounds access to an array of known size".into(),
        ObKind::Annotation(_) if o.message.starts_with("barrier invariant") => {
            format!("barrier invariant at {at} holds at its barrier")
        }
        ObKind::Annotation(_) if o.message.starts_with("the mask of the warp operation") => {
            format!("the warp operation at {at} names its lanes in its mask")
        }
        ObKind::Annotation(_) => format!("assertion at {at} holds"),
        ObKind::Invariant { .. } => format!("loop invariant at {at} holds"),
    }
}

fn kir_loc(p: &Problem, inst: InstId) -> KirLoc {
    let (func, orig) = p.origin.get(&inst).copied().unwrap_or((p.kernel, inst));
    KirLoc { func, inst: orig, src: *p.func.inst_locs.get(inst) }
}

fn failed_check(p: &Problem, ob: usize, vals: &[Option<u128>]) -> FailedCheck {
    let o = &p.obligations[ob];
    let v = |i: usize| vals.get(i).copied().flatten().map(|x| x as u64);
    let mut threads = [ThreadIds::default(), ThreadIds::default()];
    for (t, th) in threads.iter_mut().enumerate() {
        for d in 0..3 {
            th.local_id[d] = v(t * 6 + d).unwrap_or(0);
            th.group_id[d] = v(t * 6 + 3 + d).unwrap_or(0);
        }
    }
    let sizes = |base: usize| -> Option<[u64; 3]> { Some([v(base)?, v(base + 1)?, v(base + 2)?]) };
    let (group_size, num_groups) = if vals.len() >= 18 { (sizes(12), sizes(15)) } else { (None, None) };
    let at = o.inst.map(|i| kir_loc(p, i));
    let (kind, first, second, object) = match &o.kind {
        ObKind::Race { obj, k1, k2, .. } => {
            let site = v(20).map(|s| InstId::from_u32(s as u32));
            let site = site.filter(|s| s.index() < p.func.insts.len());
            (
                ViolationKind::DataRace,
                Some(AccessInfo { at: site.map(|s| kir_loc(p, s)), kind: k1.name(), byte_offset: v(18) }),
                Some(AccessInfo { at: at.clone(), kind: k2.name(), byte_offset: v(19) }),
                Some(p.objects[*obj].name.clone()),
            )
        }
        ObKind::Divergence => (ViolationKind::BarrierDivergence, None, None, None),
        ObKind::Annotation(k) => (*k, None, None, None),
        ObKind::Invariant { .. } => (ViolationKind::Invariant, None, None, None),
    };
    FailedCheck { kind, message: o.message.clone(), at, first, second, object, threads, group_size, num_groups }
}


#[cfg(test)]
mod tests {
    use super::slice;
    use lockstep_smt::{Sort, TermStore};

    /// The slice keeps the definitions and gated implications that the
    /// roots reach, transitively, and every assertion of another shape;
    /// it leaves out names and gates nothing kept mentions.
    #[test]
    fn slice_keeps_the_cone_of_influence() {
        let mut st = TermStore::new();
        let x = st.fresh_const("x", Sort::bv(32));
        let y = st.fresh_const("y", Sort::bv(32));
        let z = st.fresh_const("z", Sort::bv(32));
        let one = st.bv_const(32, 1);
        // n1 = x + 1 (reached), n2 = z + 1 (not reached).
        let n1 = st.fresh_const("n1", Sort::bv(32));
        let e1 = st.bvadd(x, one);
        let d1 = st.eq(n1, e1);
        let n2 = st.fresh_const("n2", Sort::bv(32));
        let e2 = st.bvadd(z, one);
        let d2 = st.eq(n2, e2);
        // A gate on the path and one off it.
        let on = st.fresh_const("on", Sort::Bool);
        let off = st.fresh_const("off", Sort::Bool);
        let c1 = st.bvult(y, n1);
        let g1 = st.implies(on, c1);
        let c2 = st.bvult(y, n2);
        let g2 = st.implies(off, c2);
        // An assertion of no known shape is always kept.
        let other = st.bvult(z, one);
        let base = vec![d1, d2, g1, g2, other];
        let root = st.and(&[on, c1]);
        let kept = slice(&st, &base, &[root]);
        assert!(kept.contains(&d1) && kept.contains(&g1) && kept.contains(&other));
        assert!(!kept.contains(&g2));
        // `other` mentions z, but only a name's own symbol pulls its
        // definition in: n2 stays out.
        assert!(!kept.contains(&d2));
        // Reaching n2 through a root pulls its definition in.
        let root2 = st.bvult(n2, y);
        let kept2 = slice(&st, &base, &[root2]);
        assert!(kept2.contains(&d2) && !kept2.contains(&d1));
    }
}
