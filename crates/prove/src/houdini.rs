//! Solving: Houdini over the candidate invariants, then one query per proof
//! obligation.
//!
//! One solver process serves the whole kernel. Definitions and the
//! assumption tree are asserted once (each assumption behind an activation
//! literal); every query is a `push`, the negated obligation, the
//! obligation's path literal and the guards of the surviving candidates, a
//! `check-sat`, and a `pop`. Houdini drops every candidate
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
use lockstep_smt::{SatResult, Solver, SolverConfig, TermId};

use crate::encode::{ObKind, Problem};
use crate::{AccessInfo, FailedCheck, KirLoc, ProveConfig, ProveOutcome, ThreadIds};

enum Answer {
    Proved,
    Failed(Vec<Option<u128>>),
    Unknown(String),
}

struct Session {
    solver: Solver,
    p: Problem,
    negations: Vec<TermId>,
}

impl Session {
    fn query(&mut self, ob: usize, guards: &[TermId], values: &[TermId]) -> Answer {
        let o = &self.p.obligations[ob];
        let st = &self.p.st;
        if st.as_bool(o.cond) == Some(true) {
            return Answer::Proved;
        }
        let mut assumptions: Vec<TermId> = guards.to_vec();
        if let Some(c) = o.ctx {
            assumptions.push(self.p.nodes[c].0);
        }
        let neg = self.negations[ob];
        let solver = &mut self.solver;
        let result = (|| -> lockstep_smt::Result<Answer> {
            // The assumptions are asserted in the query's scope rather than
            // passed to `check-sat-assuming`: z3 only falls back to its fast
            // non-incremental solver for plain `check-sat`.
            solver.push()?;
            solver.assert(st, neg)?;
            for &a in &assumptions {
                solver.assert(st, a)?;
            }
            let r = solver.check_sat()?;
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
        match result {
            Ok(a) => a,
            Err(e) => {
                // Restarting replays the open scopes: the base assertions
                // survive, the query's scope is gone.
                let _ = self.solver.restart();
                while self.solver.depth() > 0 {
                    if self.solver.pop().is_err() {
                        break;
                    }
                }
                Answer::Unknown(format!("solver failure: {e}"))
            }
        }
    }
}

impl Session {
    /// Which of `obs` (sharing one path) fail under `guards`: the ones the
    /// model of "some of them fails" falsifies. Not proved ones count as
    /// failing when the solver cannot answer.
    /// Whether every real obligation holds with no candidate invariant
    /// assumed, asked as one query under a short limit. The candidates'
    /// guards are left free, so an unsatisfiable answer covers the case
    /// where none holds: no candidate is trusted.
    fn holds_without_invariants(&mut self) -> bool {
        let real: Vec<usize> = (0..self.p.obligations.len())
            .filter(|&ob| self.p.obligations[ob].cand.is_none() && self.p.st.as_bool(self.p.obligations[ob].cond) != Some(true))
            .collect();
        let mut cases = Vec::new();
        for &ob in &real {
            let neg = self.negations[ob];
            cases.push(match self.p.obligations[ob].ctx {
                Some(c) => self.p.st.and(&[self.p.nodes[c].0, neg]),
                None => neg,
            });
        }
        if cases.is_empty() {
            return true;
        }
        let any = self.p.st.or(&cases);
        let st = &self.p.st;
        let solver = &mut self.solver;
        let result = (|| -> lockstep_smt::Result<bool> {
            solver.push()?;
            solver.assert(st, any)?;
            // A quick question: when it is hard, inference decides.
            let r = solver.check_sat_within(std::time::Duration::from_secs(2))?;
            solver.pop()?;
            Ok(r == SatResult::Unsat)
        })();
        match result {
            Ok(holds) => holds,
            Err(_) => {
                let _ = self.solver.restart();
                false
            }
        }
    }

    fn failing_among(&mut self, obs: &[usize], guards: &[TermId]) -> Vec<usize> {
        let obs: Vec<usize> =
            obs.iter().copied().filter(|&ob| self.p.st.as_bool(self.p.obligations[ob].cond) != Some(true)).collect();
        if obs.is_empty() {
            return Vec::new();
        }
        let negs: Vec<TermId> = obs.iter().map(|&ob| self.negations[ob]).collect();
        let conds: Vec<TermId> = obs.iter().map(|&ob| self.p.obligations[ob].cond).collect();
        let any = self.p.st.or(&negs);
        let ctx = self.p.obligations[obs[0]].ctx.map(|c| self.p.nodes[c].0);
        let st = &self.p.st;
        let solver = &mut self.solver;
        let result = (|| -> lockstep_smt::Result<Option<Vec<usize>>> {
            solver.push()?;
            solver.assert(st, any)?;
            for &g in guards.iter().chain(ctx.iter()) {
                solver.assert(st, g)?;
            }
            let r = solver.check_sat()?;
            let out = match r {
                SatResult::Unsat => Some(Vec::new()),
                SatResult::Sat => {
                    let vals = solver.get_value(st, &conds)?;
                    let bad: Vec<usize> =
                        obs.iter().zip(vals.iter()).filter(|(_, v)| v.as_bool() != Some(true)).map(|(&o, _)| o).collect();
                    Some(bad)
                }
                SatResult::Unknown(_) => None,
            };
            solver.pop()?;
            Ok(out)
        })();
        match result {
            Ok(Some(bad)) => bad,
            _ => {
                let _ = self.solver.restart();
                while self.solver.depth() > 0 {
                    if self.solver.pop().is_err() {
                        break;
                    }
                }
                obs
            }
        }
    }
}

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
const CHECK_FALLBACK: Duration = Duration::from_millis(200);

impl Session {
    /// Starts a solver for `p` and asserts its definitions and assumption
    /// tree; the solver hands a query to its bit-blasting solver after
    /// `fallback`.
    fn start(mut p: Problem, config: &ProveConfig, log: Option<PathBuf>, fallback: Duration) -> Result<Session, String> {
        let mut sc = SolverConfig::new(config.solver, config.query_timeout);
        sc.memory_limit = config.solver_memory;
        if let Some(path) = log {
            sc = sc.with_log(path);
        }
        let mut solver = Solver::spawn(sc).map_err(|e| format!("cannot start the solver: {e}"))?;
        solver.fall_back_after(fallback).map_err(|e| format!("solver failure: {e}"))?;
        let negations: Vec<TermId> = (0..p.obligations.len()).map(|i| p.st.not(p.obligations[i].cond)).collect();
        let mut base: Vec<TermId> = p.defs.clone();
        for &(lit, term, parent) in &p.nodes {
            let body = match parent {
                Some(q) => p.st.and(&[term, p.nodes[q].0]),
                None => term,
            };
            base.push(p.st.implies(lit, body));
        }
        for t in base {
            solver.assert(&p.st, t).map_err(|e| format!("solver failure: {e}"))?;
        }
        Ok(Session { solver, p, negations })
    }
}

/// Runs Houdini and checks every obligation of `p`.
pub fn solve(module: &Module, mut p: Problem, config: &ProveConfig) -> ProveOutcome {
    let expand_funs = std::mem::take(&mut p.expand_funs);
    let mut s = match Session::start(p, config, config.replay_log.clone(), ROUND_FALLBACK) {
        Ok(s) => s,
        Err(reason) => return ProveOutcome::Unknown { reason, at: None },
    };
    let start = std::time::Instant::now();
    let over_budget = |start: std::time::Instant| config.time_budget.is_some_and(|b| start.elapsed() > b);

    // Houdini.
    let ncand = s.p.candidates.len();
    let mut alive = vec![true; ncand];
    if ncand > 0 && s.holds_without_invariants() {
        // Nothing to prove needs an inferred invariant (a kernel whose loops
        // touch no shared state, say): inference is skipped, and the checks
        // below run with no candidate assumed.
        alive.fill(false);
    }
    // Set LOCKSTEP_PROVE_DEBUG to see Houdini's decisions.
    let debug = std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some();
    // Candidate obligations are checked in groups that share a path: one
    // query asks whether any of them fails; the model tells which ones do,
    // and those candidates are dropped. A group is settled when its query
    // is unsatisfiable; anything else (unknown, errors) drops the whole
    // group one by one, which is always sound.
    let mut groups: std::collections::BTreeMap<Option<usize>, Vec<usize>> = Default::default();
    for (ob, o) in s.p.obligations.iter().enumerate() {
        if o.cand.is_some() {
            groups.entry(o.ctx).or_default().push(ob);
        }
    }
    loop {
        let mut changed = false;
        for obs in groups.values() {
            if over_budget(start) {
                return ProveOutcome::Unknown { reason: "time budget exceeded during invariant inference".into(), at: None };
            }
            let live: Vec<usize> =
                obs.iter().copied().filter(|&ob| alive[s.p.obligations[ob].cand.unwrap()]).collect();
            if live.is_empty() {
                continue;
            }
            let guards: Vec<TermId> = (0..ncand).filter(|&i| alive[i]).map(|i| s.p.candidates[i].guard).collect();
            let failing = s.failing_among(&live, &guards);
            for ob in failing {
                let c = s.p.obligations[ob].cand.unwrap();
                if alive[c] {
                    if debug {
                        eprintln!("houdini: dropped [{}] {} ({})", s.p.candidates[c].tag, s.p.candidates[c].text, s.p.obligations[ob].message);
                    }
                    alive[c] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let guards: Vec<TermId> = (0..ncand).filter(|&i| alive[i]).map(|i| s.p.candidates[i].guard).collect();
    if debug {
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
        let p = s.p;
        let log = config.replay_log.as_ref().map(|path| path.with_extension("checks.smt2"));
        s = match Session::start(p, config, log, CHECK_FALLBACK) {
            Ok(s) => s,
            Err(reason) => return ProveOutcome::Unknown { reason, at: None },
        };
    } else if let Err(e) = s.solver.fall_back_after(CHECK_FALLBACK) {
        return ProveOutcome::Unknown { reason: format!("solver failure: {e}"), at: None };
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
    for ob in 0..s.p.obligations.len() {
        if s.p.obligations[ob].cand.is_some() {
            continue;
        }
        if over_budget(start) && unknown.is_none() {
            unknown = Some(("time budget exceeded".into(), None));
            break;
        }
        let mut values = model_terms.clone();
        if let ObKind::Race { off1, off2, site1, .. } = s.p.obligations[ob].kind {
            values.extend([off1, off2, site1]);
        }
        let ans = s.query(ob, &guards, &values);
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

