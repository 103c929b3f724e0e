//! The checks: the launch encoding, one solver query per property, and the
//! witnesses read back from the models.
//!
//! The base level of the solver holds the definitions of the encoding and
//! the launch constraints (ids below sizes, two distinct threads). Each
//! property then gets its own `push`/`check-sat`/`pop`, so that one run
//! reports every violation found. A property that occurs at several
//! instances of an instruction (loop iterations) is one query: the
//! disjunction over the instances. Races are checked once per unordered pair
//! of instructions: the two threads are symmetric, so "a in thread 1 and b in
//! thread 2" covers "b in thread 1 and a in thread 2".

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use lockstep_analysis::inline_calls;
use lockstep_diag::ViolationKind;
use lockstep_kir::{FuncId, Function, InstId, InstKind, MemSpace, Module, Type};
use lockstep_smt::{CpuMeter, CpuStopwatch, SatResult, Solver, SolverConfig, Sort, TermId};

use crate::encode::{Access, Exec, Launch, LoadRec, Setup, ThreadIds, Trace};
use crate::objects::Objects;
use crate::relevance::Relevance;
use crate::terms::{Terms, Val};
use crate::unroll::Unrolled;
use crate::{ConcreteWitness, FindConfig, FindOutcome, Found};

/// Instance pairs of one race query beyond this many are dropped (and the
/// search marked incomplete) to keep queries small.
const MAX_RACE_PAIRS: usize = 256;
/// Loads consulted for a witness's initial memory.
const MAX_WITNESS_LOADS: usize = 256;
/// Bytes of initial memory a witness reads back from the model. A load's
/// length comes from the program (a `memcpy` of a computed size), so the
/// bytes asked for are bounded, not the loads alone: a witness is cut
/// short rather than the search running past its deadline. A witness cut
/// short may fail to replay, which only loses a confirmation.
const MAX_WITNESS_BYTES: usize = 1 << 14;
/// Initialised globals larger than this start from arbitrary contents.
const MAX_INIT_BYTES: usize = 4096;

/// Runs the whole search (see [`crate::find_bugs`]).
pub fn run(module: &Module, kernel: FuncId, config: &FindConfig) -> FindOutcome {
    let mut out = FindOutcome { complete: true, ..FindOutcome::default() };
    let Some(orig) = module.functions.get(kernel) else {
        out.complete = false;
        out.notes.push(format!("{kernel} is not a function of the module"));
        return out;
    };
    let has_calls = orig
        .blocks
        .iter()
        .any(|(_, b)| b.insts.iter().any(|&i| matches!(orig.insts[i].kind, InstKind::Call { .. })));
    let func: Cow<Function> = if has_calls {
        match inline_calls(module, kernel) {
            Ok(inlined) => Cow::Owned(inlined.function),
            Err(e) => {
                out.complete = false;
                out.notes.push(format!("cannot inline: {e}"));
                return out;
            }
        }
    } else {
        Cow::Borrowed(orig)
    };
    let mut search = Search::new(module, kernel, &func, config, &mut out);
    search.run(&mut out);
    if has_calls {
        out.analysed = Some(func.into_owned());
    }
    out
}

struct Search<'a> {
    module: &'a Module,
    kernel: FuncId,
    func: &'a Function,
    config: &'a FindConfig,
    start: Instant,
    /// The CPU time of the search's thread and solver, for `total_cpu`.
    cpu: CpuStopwatch,
    terms: Terms,
    objs: Objects,
    launch: Launch,
    ids: [ThreadIds; 2],
    traces: [Trace; 2],
    constraints: Vec<TermId>,
    solver: Option<Solver>,
    /// Whether the question for a witness with small scalar arguments is
    /// still asked: after the first one the solver does not answer within
    /// its limit, the kernel's arithmetic makes it hard, and asking it again
    /// for every later finding would only cost that limit each time.
    ask_small: bool,
}

/// How large a scalar argument of a preferred witness may be (see
/// `small_scalar_args`): products of two such values and a thread index
/// stay far inside 32 bits.
const SMALL_WITNESS_BOUND: u128 = 1 << 10;

/// The most time the question for a witness with small arguments gets.
const SMALL_WITNESS_LIMIT: Duration = Duration::from_secs(2);

enum Answer {
    /// A witness, and where the search preferred one with small arguments,
    /// the solver's first witness too (the replay may confirm either).
    Sat(ConcreteWitness, Option<ConcreteWitness>),
    Unsat,
    Unknown(String),
}

fn dim_name(d: usize) -> char {
    ['x', 'y', 'z'][d]
}

impl<'a> Search<'a> {
    fn new(
        module: &'a Module,
        kernel: FuncId,
        func: &'a Function,
        config: &'a FindConfig,
        out: &mut FindOutcome,
    ) -> Search<'a> {
        let start = Instant::now();
        let cpu = CpuStopwatch::start(CpuMeter::new());
        let dag = Unrolled::compute(func, config.loop_unwind);
        if dag.truncated {
            out.complete = false;
            out.notes.push("the unrolled kernel was too large; some paths were not explored".into());
        }
        let objs = Objects::collect(module, func, &config.array_sizes);
        let rel = Relevance::compute(func, config.check_overflow);
        let mut terms = Terms::new();
        let mut constraints = Vec::new();

        // Launch sizes: concrete, or symbolic and small.
        let max = config.max_symbolic_size.max(1);
        let size = |t: &mut Terms, c: &mut Vec<TermId>, given: Option<u64>, name: String| -> TermId {
            match given {
                Some(v) => t.bv(32, v as u128),
                None => {
                    let s = t.st.declare_const(&name, Sort::bv(32));
                    let one = t.bv(32, 1);
                    let hi = t.bv(32, max as u128);
                    let lo_ok = t.st.bvule(one, s);
                    let hi_ok = t.st.bvule(s, hi);
                    c.push(lo_ok);
                    c.push(hi_ok);
                    s
                }
            }
        };
        let group_size: [TermId; 3] = std::array::from_fn(|d| {
            size(&mut terms, &mut constraints, config.group_size[d], format!("group_size_{}", dim_name(d)))
        });
        let num_groups: [TermId; 3] = std::array::from_fn(|d| {
            size(&mut terms, &mut constraints, config.num_groups[d], format!("num_groups_{}", dim_name(d)))
        });
        // A given global size is the group size times the number of groups
        // (both small here, so the 64-bit product cannot wrap).
        for d in 0..3 {
            if let Some(global) = config.global_size[d] {
                let gs = terms.st.zero_extend(32, group_size[d]);
                let ng = terms.st.zero_extend(32, num_groups[d]);
                let product = terms.st.bvmul(gs, ng);
                let g = terms.bv(64, global as u128);
                let exact = terms.st.eq(product, g);
                constraints.push(exact);
            }
        }
        // CUDA runs at most 1024 threads per block, at most 1024 along x
        // and y and 64 along z: a witness outside these is a launch CUDA
        // refuses, which the replay cannot confirm. With each size bounded
        // first, the product below cannot wrap.
        let symbolic_block = config.group_size.iter().any(|d| d.is_none());
        if module.language == lockstep_kir::Language::Cuda && symbolic_block {
            for (d, most) in [(0, 1024u128), (1, 1024), (2, 64)] {
                let limit = terms.bv(32, most);
                let within = terms.st.bvule(group_size[d], limit);
                constraints.push(within);
            }
            let xy = terms.st.bvmul(group_size[0], group_size[1]);
            let xyz = terms.st.bvmul(xy, group_size[2]);
            let limit = terms.bv(32, 1024);
            let within = terms.st.bvule(xyz, limit);
            constraints.push(within);
        }

        // Two threads with symbolic ids below the sizes.
        let mut ids = Vec::new();
        for t in 1..=2 {
            let local: [TermId; 3] =
                std::array::from_fn(|d| terms.st.declare_const(&format!("t{t}_local_{}", dim_name(d)), Sort::bv(32)));
            let group: [TermId; 3] =
                std::array::from_fn(|d| terms.st.declare_const(&format!("t{t}_group_{}", dim_name(d)), Sort::bv(32)));
            for d in 0..3 {
                let a = terms.st.bvult(local[d], group_size[d]);
                let b = terms.st.bvult(group[d], num_groups[d]);
                constraints.push(a);
                constraints.push(b);
            }
            ids.push(ThreadIds { local, group });
        }
        let ids = [ids[0], ids[1]];
        let eqs: Vec<TermId> = (0..3).map(|d| terms.st.eq(ids[0].group[d], ids[1].group[d])).collect();
        let same_group = terms.st.and(&eqs);
        let same_group = terms.name(same_group);
        let leqs: Vec<TermId> = (0..3).map(|d| terms.st.eq(ids[0].local[d], ids[1].local[d])).collect();
        let same_local = terms.st.and(&leqs);
        let same_thread = terms.st.and(&[same_group, same_local]);
        let distinct = terms.st.not(same_thread);
        constraints.push(distinct);
        if config.only_intra_group {
            constraints.push(same_group);
        }

        // Parameters: scalars are symbolic, pointers point to their object.
        let mut args = Vec::new();
        for (i, p) in func.params.iter().enumerate() {
            let v = match p.ty {
                Type::Ptr(_) => {
                    let id = objs.id_of(crate::objects::MemRef::Param(i));
                    let b = terms.bv(crate::terms::OBJ_BITS, id as u128);
                    let o = terms.bv(64, 0);
                    Val::P(b, o)
                }
                Type::Int(1) => Val::B(terms.st.declare_const(&format!("arg{i}"), Sort::Bool)),
                Type::Int(w) | Type::Float(w) => Val::V(terms.st.declare_const(&format!("arg{i}"), Sort::bv(w as u32))),
            };
            args.push(v);
        }

        // Initial contents of global and constant objects, shared by both threads.
        let arr_sort = Sort::array(Sort::bv(64), Sort::bv(8));
        let mut init = vec![None];
        for id in objs.ids() {
            let info = objs.get(id);
            let a = match info.space {
                MemSpace::Global | MemSpace::Constant => match &info.init {
                    Some(bytes) if bytes.len() <= MAX_INIT_BYTES => {
                        let zero = terms.bv(8, 0);
                        let mut arr = terms.st.const_array(Sort::bv(64), zero);
                        for (k, &b) in bytes.iter().enumerate() {
                            if b != 0 {
                                let a = terms.bv(64, k as u128);
                                let v = terms.bv(8, b as u128);
                                arr = terms.st.store(arr, a, v);
                                if k % 64 == 63 {
                                    arr = terms.name(arr);
                                }
                            }
                        }
                        Some(terms.name(arr))
                    }
                    _ => Some(terms.st.declare_const(&format!("init{id}"), arr_sort.clone())),
                },
                _ => None,
            };
            init.push(a);
        }
        let global_offset = config.global_offset.map(|o| terms.bv(32, o as u32 as u128));
        let launch = Launch { group_size, num_groups, global_offset, same_group, args, init };

        // The interpreter's value-tracked stores (`lockstep_analysis::ghost`),
        // decided on the module's kernel as the interpreter decides them: a
        // kernel with calls keeps the memory-independent stores only.
        let original = &module.functions[kernel];
        let calls = original.insts.values().any(|d| matches!(d.kind, InstKind::Call { .. }));
        let value_tracked = if calls {
            std::collections::HashSet::new()
        } else {
            lockstep_analysis::ghost::value_tracked_stores(module, original)
        };
        let setup = Setup {
            value_tracked: &value_tracked,
            func,
            dag: &dag,
            objs: &objs,
            rel: &rel,
            launch: &launch,
            check_overflow: config.check_overflow,
            warp_size: config.warp_size.unwrap_or(32),
            equality_abstraction: config.equality_abstraction,
        };
        let t1 = Exec::new(&setup, &mut terms, ids[0], "t1", true).run();
        let t2 = Exec::new(&setup, &mut terms, ids[1], "t2", false).run();
        for n in t1.notes.iter().chain(&t2.notes) {
            if !out.notes.contains(n) {
                out.notes.push(n.clone());
            }
        }
        // Two updates of one location that change it are serialised: they
        // return different old values.
        for x in &t1.accesses {
            let Some((ox, cx)) = x.atomic_old else { continue };
            for y in &t2.accesses {
                let Some((oy, cy)) = y.atomic_old else { continue };
                if terms.width(ox) != terms.width(oy) {
                    continue;
                }
                let mut same_obj = Vec::new();
                for &(o, bx) in &x.objs {
                    if let Some(&(_, by)) = y.objs.iter().find(|(p, _)| *p == o) {
                        let sync = if objs.get(o).space == MemSpace::Shared { same_group } else { terms.tt() };
                        same_obj.push(terms.st.and(&[bx, by, sync]));
                    }
                }
                let on = terms.st.or(&same_obj);
                let same_off = terms.st.eq(x.off, y.off);
                let both = terms.st.and(&[x.pc, y.pc, cx, cy, on, same_off]);
                let eq = terms.st.eq(ox, oy);
                let differ = terms.st.not(eq);
                let c = terms.st.implies(both, differ);
                constraints.push(c);
            }
        }
        Search {
            module,
            kernel,
            func,
            config,
            start,
            cpu,
            terms,
            objs,
            launch,
            ids,
            traces: [t1, t2],
            constraints,
            solver: None,
            ask_small: true,
        }
    }

    fn run(&mut self, out: &mut FindOutcome) {
        let skip = &self.config.skip_kinds;
        let races = !self.config.only_divergence && !skip.contains(&ViolationKind::DataRace);
        let divergence = !skip.contains(&ViolationKind::BarrierDivergence);
        // With nothing left to ask (every kind of check skipped, or none of
        // the kernel's checks of a kind still looked for), no solver is
        // started: the search is complete without a query.
        if !races && !divergence && !self.traces[0].checks.iter().any(|c| !skip.contains(&c.kind)) {
            return;
        }
        if let Err(e) = self.start_solver() {
            out.complete = false;
            out.notes.push(format!("solver failed: {e}"));
            return;
        }
        self.property_checks(out);
        if races {
            self.race_checks(out);
        }
        if divergence {
            self.divergence_checks(out);
            self.warp_participation_checks(out);
        }
        self.bound_check(out);
    }

    fn start_solver(&mut self) -> lockstep_smt::Result<()> {
        let mut cfg = SolverConfig::new(self.config.solver, self.config.query_timeout);
        cfg.memory_limit = self.config.solver_memory;
        cfg.timer_factor = self.config.solver_timer_factor;
        cfg.cpu_meter = Some(self.cpu.meter().clone());
        if let Some(path) = &self.config.replay_log {
            cfg = cfg.with_log(path.clone());
        }
        let mut solver = Solver::spawn(cfg)?;
        // The finder's questions are one-shot (a race or an assertion at a
        // time, mostly unsatisfiable): the incremental core rarely answers
        // the hard ones, and the sooner z3 gives them to its bit-blasting
        // solver the better (a kernel of 42 race checks at 1024 x 1024
        // threads: 27 s without the fallback, 4.0 s after 100 ms, 1.7 s
        // after 20 ms). The prover's Houdini rounds profit from the
        // incremental core longer (see `lockstep_prove`'s `houdini`).
        solver.fall_back_after(std::time::Duration::from_millis(20))?;
        // Definitions go in as a few large conjunctions: one round trip each.
        let mut all = std::mem::take(&mut self.terms.defs);
        all.extend(self.constraints.iter().copied());
        for chunk in all.chunks(2000) {
            let conj = self.terms.st.and(chunk);
            solver.assert(&self.terms.st, conj)?;
        }
        self.solver = Some(solver);
        Ok(())
    }

    /// Whether the search may go on; records why not.
    fn may_continue(&self, out: &mut FindOutcome) -> bool {
        if out.violations.len() >= self.config.max_violations {
            if out.complete {
                out.complete = false;
                out.notes.push(format!("stopped after {} violations", self.config.max_violations));
            }
            return false;
        }
        if self.start.elapsed() > self.config.total_timeout || self.config.total_cpu.is_some_and(|b| self.cpu.elapsed() > b) {
            if !out.notes.iter().any(|n| n.starts_with("total time limit")) {
                out.complete = false;
                out.notes.push("total time limit reached; some checks were not run".into());
            }
            return false;
        }
        self.solver.is_some()
    }

    /// Asks whether `cond` is satisfiable; on `sat`, reads a witness for the
    /// threads in `threads` (0, 1) using the loads of those threads.
    fn query(&mut self, cond: TermId, threads: &[usize]) -> Answer {
        self.query_within(cond, threads, None)
    }

    /// `query` with a shorter limit than the session's, when given.
    fn query_within(&mut self, cond: TermId, threads: &[usize], limit: Option<Duration>) -> Answer {
        // Definitions created after the solver started (none today, but
        // cheap to handle) go in with the query.
        let extra = std::mem::take(&mut self.terms.defs);
        let small = if self.ask_small { self.small_scalar_args() } else { None };
        let mut small_unanswered = false;
        let solver = self.solver.as_mut().expect("solver started");
        let result = (|| -> lockstep_smt::Result<Answer> {
            if !extra.is_empty() {
                let conj = self.terms.st.and(&extra);
                solver.assert(&self.terms.st, conj)?;
            }
            solver.push()?;
            solver.assert(&self.terms.st, cond)?;
            let checked = match limit {
                Some(limit) => solver.check_sat_within(limit)?,
                None => solver.check_sat()?,
            };
            // A witness with small scalar arguments first, where one exists:
            // the search leaves products of two unknowns free to wrap (see
            // `assume_no_wrap`), so a first model may take `row * n` past
            // the signed range, which is undefined behaviour the replay
            // does not confirm; small values are also easier to read. The
            // first model's witness is read before that question (which
            // replaces the model) and kept as a fallback, since the
            // search's approximations may make either one unconfirmable.
            // Only satisfiable queries that need a witness pay for this.
            let answer = match checked {
                SatResult::Sat => {
                    let first = Self::witness(solver, &mut self.terms, &self.launch, &self.ids, &self.traces, self.func, threads)?;
                    let mut preferred = None;
                    if let (Some(small), false) = (small, threads.is_empty()) {
                        solver.push()?;
                        solver.assert(&self.terms.st, small)?;
                        let small_limit = limit.unwrap_or(SMALL_WITNESS_LIMIT).min(SMALL_WITNESS_LIMIT);
                        match solver.check_sat_within(small_limit)? {
                            SatResult::Sat => {
                                preferred = Some(Self::witness(solver, &mut self.terms, &self.launch, &self.ids, &self.traces, self.func, threads)?);
                            }
                            SatResult::Unknown(_) => small_unanswered = true,
                            SatResult::Unsat => {}
                        }
                        solver.pop()?;
                    }
                    match preferred {
                        Some(small) if small != first => Answer::Sat(small, Some(first)),
                        _ => Answer::Sat(first, None),
                    }
                }
                SatResult::Unsat => Answer::Unsat,
                SatResult::Unknown(r) => Answer::Unknown(r),
            };
            solver.pop()?;
            Ok(answer)
        })();
        if small_unanswered {
            self.ask_small = false;
        }
        match result {
            Ok(a) => a,
            Err(e) => {
                // A broken solver process is restarted with the base
                // assertions so that later checks still run.
                let msg = format!("solver error: {e}");
                if solver.restart().is_err() {
                    self.solver = None;
                }
                Answer::Unknown(msg)
            }
        }
    }

    /// Every scalar argument of the kernel (an integer of 8 bits or more)
    /// between 0 and `SMALL_WITNESS_BOUND`: sizes, strides and counts, the
    /// usual scalar arguments, are small and not negative in the runs
    /// users make (a negative one makes most indices negative, and the
    /// witness an out-of-bounds access before the race it was asked for);
    /// `None` when the kernel has no such argument.
    fn small_scalar_args(&mut self) -> Option<TermId> {
        let mut bounds = Vec::new();
        for (i, a) in self.launch.args.iter().enumerate() {
            let (Type::Int(_), Val::V(t)) = (&self.func.params[i].ty, a) else { continue };
            let w = self.terms.width(*t);
            if w < 8 {
                continue;
            }
            let bound = self.terms.bv(w, SMALL_WITNESS_BOUND);
            bounds.push(self.terms.st.bvule(*t, bound));
        }
        (!bounds.is_empty()).then(|| self.terms.st.and(&bounds))
    }

    fn witness(
        solver: &mut Solver,
        terms: &mut Terms,
        launch: &Launch,
        ids: &[ThreadIds; 2],
        traces: &[Trace; 2],
        func: &Function,
        threads: &[usize],
    ) -> lockstep_smt::Result<ConcreteWitness> {
        let mut asked: Vec<TermId> = Vec::new();
        asked.extend(launch.group_size);
        asked.extend(launch.num_groups);
        for &t in threads {
            asked.extend(ids[t].local);
            asked.extend(ids[t].group);
        }
        let mut scalar_idx = Vec::new();
        for (i, a) in launch.args.iter().enumerate() {
            match (func.params[i].ty, a) {
                (Type::Ptr(_), _) => {}
                (_, Val::V(t)) | (_, Val::B(t)) => {
                    scalar_idx.push(i);
                    asked.push(*t);
                }
                _ => {}
            }
        }
        let loads: Vec<&LoadRec> =
            threads.iter().flat_map(|&t| traces[t].loads.iter()).take(MAX_WITNESS_LOADS).collect();
        for l in &loads {
            asked.push(l.cond);
            asked.push(l.off);
        }
        let values = solver.get_value(&terms.st, &asked)?;
        let num = |k: usize| values.get(k).and_then(|v| v.as_u128().or_else(|| v.as_bool().map(u128::from)));
        let mut w = ConcreteWitness::default();
        for d in 0..3 {
            w.group_size[d] = num(d).unwrap_or(1) as u64;
            w.num_groups[d] = num(3 + d).unwrap_or(1) as u64;
        }
        let mut k = 6;
        for _ in threads {
            let local = [0, 1, 2].map(|d| num(k + d).unwrap_or(0) as u64);
            let group = [0, 1, 2].map(|d| num(k + 3 + d).unwrap_or(0) as u64);
            w.threads.push((local, group));
            k += 6;
        }
        for &i in &scalar_idx {
            w.scalar_args.push((i, num(k).unwrap_or(0)));
            k += 1;
        }
        // The bytes the witness paths read from initial global memory.
        let mut cells: BTreeSet<(u16, u64)> = BTreeSet::new();
        for l in &loads {
            let taken = values.get(k).and_then(|v| v.as_bool()).unwrap_or(false);
            let off = num(k + 1);
            k += 2;
            if let (true, Some(off)) = (taken, off) {
                for i in 0..l.len {
                    if cells.len() >= MAX_WITNESS_BYTES {
                        break;
                    }
                    cells.insert((l.obj, (off as u64).wrapping_add(i)));
                }
            }
        }
        let cells: Vec<(u16, u64)> = cells.into_iter().filter(|(o, _)| launch.init[*o as usize].is_some()).collect();
        if !cells.is_empty() {
            let selects: Vec<TermId> = cells
                .iter()
                .map(|&(o, off)| {
                    let a = terms.bv(64, off as u128);
                    terms.st.select(launch.init[o as usize].unwrap(), a)
                })
                .collect();
            let bytes = solver.get_value(&terms.st, &selects)?;
            for (&(o, off), v) in cells.iter().zip(bytes) {
                w.memory.push((crate::objects::MemRef::Param(usize::MAX), off, v.as_u128().unwrap_or(0) as u8));
                // The object is patched below (kept apart so the closure above
                // does not need the object table).
                let last = w.memory.last_mut().unwrap();
                last.0 = crate::objects::MemRef::Param(o as usize);
            }
        }
        Ok(w)
    }

    /// Maps the provisional object numbers of a witness to their `MemRef`s.
    fn fix_memory(&self, w: &mut ConcreteWitness) {
        for cell in &mut w.memory {
            if let crate::objects::MemRef::Param(o) = cell.0 {
                cell.0 = self.objs.get(o as u16).mem;
            }
        }
    }

    fn found(&self, kind: ViolationKind, message: String, insts: &[InstId], mut witness: ConcreteWitness, fallback: Option<ConcreteWitness>) -> Found {
        self.fix_memory(&mut witness);
        let fallback_witness = fallback.map(|mut w| {
            self.fix_memory(&mut w);
            w
        });
        Found {
            kind,
            message,
            sites: insts.iter().map(|&i| (self.kernel, i)).collect(),
            locs: insts.iter().map(|&i| self.func.inst_locs.get(i).as_ref().copied()).collect(),
            witness,
            fallback_witness,
        }
    }

    fn unknown(&self, out: &mut FindOutcome, what: &str, reason: &str) {
        out.complete = false;
        let note = format!("{what}: no answer ({reason})");
        if !out.notes.contains(&note) {
            out.notes.push(note);
        }
    }

    // ----- properties of one thread -------------------------------------------

    fn property_checks(&mut self, out: &mut FindOutcome) {
        let mut grouped: BTreeMap<(u8, InstId, String), (ViolationKind, Vec<TermId>)> = BTreeMap::new();
        for c in self.traces[0].checks.iter().filter(|c| !self.config.skip_kinds.contains(&c.kind)) {
            let order = match c.kind {
                ViolationKind::Assertion | ViolationKind::Invariant => 0,
                ViolationKind::OutOfBounds => 1,
                ViolationKind::NullPointer => 2,
                ViolationKind::DivisionByZero => 3,
                ViolationKind::ConstantWrite => 4,
                _ => 5,
            };
            grouped.entry((order, c.inst, c.message.clone())).or_insert((c.kind, Vec::new())).1.push(c.cond);
        }
        for ((_, inst, message), (kind, conds)) in grouped {
            if !self.may_continue(out) {
                return;
            }
            let cond = self.terms.st.or(&conds);
            if self.terms.is_false(cond) {
                continue;
            }
            match self.query(cond, &[0]) {
                Answer::Sat(w, fallback) => {
                    let f = self.found(kind, message, &[inst], w, fallback);
                    out.violations.push(f);
                }
                Answer::Unsat => {}
                Answer::Unknown(r) => self.unknown(out, kind.name(), &r),
            }
        }
    }

    // ----- data races -----------------------------------------------------------

    fn race_checks(&mut self, out: &mut FindOutcome) {
        let mut by_inst: [BTreeMap<InstId, Vec<usize>>; 2] = [BTreeMap::new(), BTreeMap::new()];
        for t in 0..2 {
            for (k, a) in self.traces[t].accesses.iter().enumerate() {
                by_inst[t].entry(a.inst).or_default().push(k);
            }
        }
        let insts: Vec<InstId> = by_inst[0].keys().copied().collect();
        for (ai, &i) in insts.iter().enumerate() {
            for &j in &insts[ai..] {
                let (Some(xs), Some(ys)) = (by_inst[0].get(&i), by_inst[1].get(&j)) else { continue };
                let (x0, y0) = (&self.traces[0].accesses[xs[0]], &self.traces[1].accesses[ys[0]]);
                let (x_write, y_write) = (x0.write, y0.write);
                let both_atomic = x0.atomic && y0.atomic;
                // Two atomics race only when one is block-scoped and the
                // threads are in different blocks (`race_condition`).
                if !(x0.write || y0.write) || (x0.atomic && y0.atomic && !(x0.block_scoped || y0.block_scoped)) {
                    continue;
                }
                let objs_x: BTreeSet<u16> = xs.iter().flat_map(|&k| self.traces[0].accesses[k].objs.iter().map(|o| o.0)).collect();
                let objs_y: BTreeSet<u16> = ys.iter().flat_map(|&k| self.traces[1].accesses[k].objs.iter().map(|o| o.0)).collect();
                let common: Vec<u16> = objs_x
                    .intersection(&objs_y)
                    .copied()
                    .filter(|&o| self.race_checked(o))
                    .collect();
                if common.is_empty() {
                    continue;
                }
                if !self.may_continue(out) {
                    return;
                }
                let mut disjuncts = Vec::new();
                let mut dropped = false;
                'pairs: for &kx in xs {
                    for &ky in ys {
                        if disjuncts.len() >= MAX_RACE_PAIRS {
                            dropped = true;
                            break 'pairs;
                        }
                        let x = self.traces[0].accesses[kx].clone();
                        let y = self.traces[1].accesses[ky].clone();
                        let c = self.race_condition(&x, &y, i == j);
                        if !self.terms.is_false(c) {
                            disjuncts.push(c);
                        }
                    }
                }
                if dropped {
                    out.complete = false;
                    let note = "some race checks were limited to the first loop iterations".to_string();
                    if !out.notes.contains(&note) {
                        out.notes.push(note);
                    }
                }
                if disjuncts.is_empty() {
                    continue;
                }
                let cond = self.terms.st.or(&disjuncts);
                match self.query(cond, &[0, 1]) {
                    Answer::Sat(w, fallback) => {
                        let both_write = x_write && y_write;
                        let what = match (both_atomic, both_write) {
                            (true, _) => "atomic-atomic (block-scoped)",
                            (false, true) => "write-write",
                            (false, false) => "read-write",
                        };
                        let names: Vec<&str> = common.iter().map(|&o| self.objs.get(o).name.as_str()).collect();
                        let message = format!("{what} data race on `{}`", names.join("` or `"));
                        let f = self.found(ViolationKind::DataRace, message, &[i, j], w, fallback);
                        out.violations.push(f);
                    }
                    Answer::Unsat => {}
                    Answer::Unknown(r) => self.unknown(out, "data race", &r),
                }
            }
        }
    }

    /// Whether races on object `o` are looked for (`--vcgen-opt=/checkArrays:`
    /// names the only ones that are).
    fn race_checked(&self, o: u16) -> bool {
        self.config.race_arrays.as_ref().is_none_or(|names| names.iter().any(|n| lockstep_kir::object_named(&self.objs.get(o).name, n)))
    }

    fn race_condition(&mut self, x: &Access, y: &Access, same_inst: bool) -> TermId {
        let checked: Vec<u16> = x.objs.iter().map(|&(o, _)| o).filter(|&o| self.race_checked(o)).collect();
        let t = &mut self.terms;
        let sg = self.launch.same_group;
        // Same group: no barrier fencing the object's space lies between the
        // accesses. Different groups: no grid barrier does.
        let shared_eq = t.st.eq(x.shared_count, y.shared_count);
        let intra = t.st.and(&[sg, shared_eq]);
        let global_eq = t.st.eq(x.global_count, y.global_count);
        let intra_global = t.st.and(&[sg, global_eq]);
        let grid_eq = t.st.eq(x.grid_count, y.grid_count);
        let nsg = t.st.not(sg);
        let inter = t.st.and(&[nsg, grid_eq]);
        let global_sync = t.st.or(&[intra_global, inter]);
        let x_end = t.st.bvadd(x.off, x.len);
        let y_end = t.st.bvadd(y.off, y.len);
        let mut per_obj = Vec::new();
        for &(o, cx) in &x.objs {
            let Some(&(_, cy)) = y.objs.iter().find(|(p, _)| *p == o) else { continue };
            if !checked.contains(&o) {
                continue;
            }
            let sync = match self.objs.get(o).space {
                MemSpace::Shared => intra,
                _ => global_sync,
            };
            let mut conds = vec![cx, cy, sync];
            // Accesses outside an object of known size are out-of-bounds
            // violations of their own; the bytes they would touch do not
            // exist, so they race with nothing (and a witness built on them
            // would not replay).
            if let Some(size) = self.objs.get(o).size {
                let size = t.bv(64, size as u128);
                for (off, end) in [(x.off, x_end), (y.off, y_end)] {
                    conds.push(t.st.bvult(off, size));
                    conds.push(t.st.bvule(end, size));
                }
            }
            per_obj.push(t.st.and(&conds));
        }
        let on_obj = t.st.or(&per_obj);
        let mut parts = vec![x.pc, y.pc, on_obj];
        if x.atomic && y.atomic {
            // A block-scoped atomic is atomic with respect to its own
            // block's threads only.
            parts.push(nsg);
        }
        // Two accesses of one power-of-two width `w` at offsets whose shape
        // shows them to be multiples of `w` (`4 * (gid + 1)`) overlap
        // exactly when the offsets are equal. Solvers refute that equality
        // at once, but can take seconds on the two comparisons of sums
        // below, the more the larger the launch.
        let granule = match (t.st.as_bv(x.len).and_then(|v| v.to_u128()), t.st.as_bv(y.len).and_then(|v| v.to_u128())) {
            (Some(a), Some(b)) if a == b && a.is_power_of_two() => {
                let bits = a.trailing_zeros();
                t.known_trailing_zeros(x.off) >= bits && t.known_trailing_zeros(y.off) >= bits
            }
            _ => false,
        };
        if granule {
            parts.push(t.st.eq(x.off, y.off));
        } else {
            parts.push(t.st.bvult(x.off, y_end));
            parts.push(t.st.bvult(y.off, x_end));
        }
        // Writing the same value at the same place is a benign race.
        if let (Some(vx), Some(vy)) = (x.value, y.value) {
            if t.width(vx) == t.width(vy) {
                let same_off = t.st.eq(x.off, y.off);
                let same_val = t.st.eq(vx, vy);
                let benign = t.st.and(&[same_off, same_val]);
                parts.push(t.st.not(benign));
            }
        }
        // A benign write-read race: the reader itself wrote the bytes since
        // its last barrier, and the other thread's store writes the same
        // bits at the same place (the replay's rule, see its `races`).
        let pair = match (x.write, y.write) {
            (false, true) => Some((x, y)),
            (true, false) => Some((y, x)),
            _ => None,
        };
        if let Some((r, w)) = pair {
            // Or, under the equality abstraction, the write leaves its bytes
            // as they were (the rule of `lockstep_analysis::ghost`).
            if let (Some(silent), false, false) = (w.silent, r.atomic, w.atomic) {
                parts.push(t.st.not(silent));
            }
            if let (Some((own_ok, own_bits)), Some(v), false, false) = (r.own, w.value, r.atomic, w.atomic) {
                if t.width(own_bits) == t.width(v) {
                    let same_off = t.st.eq(r.off, w.off);
                    let same_len = t.st.eq(r.len, w.len);
                    let same_val = t.st.eq(own_bits, v);
                    let benign = t.st.and(&[own_ok, same_off, same_len, same_val]);
                    parts.push(t.st.not(benign));
                }
            }
        }
        if let Some(ws) = self.config.warp_size {
            // Threads of one warp run in lock-step: only the same
            // instruction writing in both can conflict.
            if !(same_inst && x.write && y.write) {
                let w = t.bv(32, ws.max(1) as u128);
                let l1 = linear(t, &self.ids[0], &self.launch);
                let l2 = linear(t, &self.ids[1], &self.launch);
                let w1 = t.st.bvudiv(l1, w);
                let w2 = t.st.bvudiv(l2, w);
                let same_warp_id = t.st.eq(w1, w2);
                let same_warp = t.st.and(&[sg, same_warp_id]);
                parts.push(t.st.not(same_warp));
            }
        }
        t.st.and(&parts)
    }

    // ----- barrier divergence -------------------------------------------------

    fn divergence_checks(&mut self, out: &mut FindOutcome) {
        let mut by_inst: BTreeMap<InstId, Vec<usize>> = BTreeMap::new();
        for (k, e) in self.traces[0].barriers.iter().enumerate() {
            by_inst.entry(e.inst).or_default().push(k);
        }
        for (inst, events) in by_inst {
            if !self.may_continue(out) {
                return;
            }
            let mut disjuncts = Vec::new();
            for k in events {
                let e1 = self.traces[0].barriers[k].clone();
                let mut parts = vec![e1.pc, self.launch.same_group];
                // Thread 2 does not reach this barrier instance as its
                // barrier number `count`...
                for e2 in &self.traces[1].barriers {
                    if e2.inst == e1.inst && e2.node == e1.node {
                        let same = self.terms.st.eq(e2.count, e1.count);
                        let there = self.terms.st.and(&[e2.pc, same]);
                        parts.push(self.terms.st.not(there));
                    }
                }
                // ...and its path was not cut before it got that far.
                for c in &self.traces[1].cuts {
                    let early = self.terms.st.bvule(c.count, e1.count);
                    let cut = self.terms.st.and(&[c.pc, early]);
                    parts.push(self.terms.st.not(cut));
                }
                disjuncts.push(self.terms.st.and(&parts));
            }
            let message = "barrier divergence: two threads of one group do not reach this barrier together";
            self.divergence_query(out, inst, &disjuncts, message, "barrier divergence");
        }
    }

    /// Asks whether some disjunct of `disjuncts` (a divergence at `inst`)
    /// holds, and records the finding (`message`) or why the search could
    /// not tell (`what`).
    fn divergence_query(&mut self, out: &mut FindOutcome, inst: InstId, disjuncts: &[TermId], message: &str, what: &str) {
        let cond = self.terms.st.or(disjuncts);
        if self.terms.is_false(cond) {
            return;
        }
        match self.query(cond, &[0, 1]) {
            Answer::Sat(w, fallback) => {
                let f = self.found(ViolationKind::BarrierDivergence, message.to_string(), &[inst], w, fallback);
                out.violations.push(f);
            }
            Answer::Unsat => {}
            Answer::Unknown(r) => self.unknown(out, what, &r),
        }
    }

    /// Looks for a warp operation whose member mask names the lane of a
    /// thread of the same warp that reaches no operation of its family on
    /// its whole path (it has exited, say, before a full-mask reduction):
    /// CUDA requires every lane a mask names to take part. Occurrences are
    /// not matched (a lane that takes part fewer times is not looked for),
    /// so every finding is a lane that never takes part, which the replay
    /// then confirms.
    fn warp_participation_checks(&mut self, out: &mut FindOutcome) {
        let mut by_inst: BTreeMap<InstId, Vec<usize>> = BTreeMap::new();
        for (k, e) in self.traces[0].warp_ops.iter().enumerate() {
            by_inst.entry(e.inst).or_default().push(k);
        }
        for (inst, events) in by_inst {
            if !self.may_continue(out) {
                return;
            }
            let t = &mut self.terms;
            let ws = self.config.warp_size.unwrap_or(32).max(1);
            let w = t.bv(32, ws as u128);
            let l1 = linear(t, &self.ids[0], &self.launch);
            let l2 = linear(t, &self.ids[1], &self.launch);
            let (w1, w2) = (t.st.bvudiv(l1, w), t.st.bvudiv(l2, w));
            let same_warp_id = t.st.eq(w1, w2);
            let same_warp = t.st.and(&[self.launch.same_group, same_warp_id]);
            let lane2 = t.st.bvurem(l2, w);
            let mut disjuncts = Vec::new();
            for k in events {
                let e1 = self.traces[0].warp_ops[k].clone();
                let mut parts = vec![e1.pc, same_warp];
                if let Some(m) = e1.mask {
                    let shifted = t.st.bvlshr(m, lane2);
                    let one = t.bv(32, 1);
                    let bit = t.st.bvand(shifted, one);
                    parts.push(t.st.eq(bit, one));
                }
                // Thread 2 reaches no operation of the family...
                for e2 in self.traces[1].warp_ops.iter().filter(|e2| e2.family == e1.family) {
                    parts.push(t.st.not(e2.pc));
                }
                // ...on a path that was not cut.
                for c in &self.traces[1].cuts {
                    parts.push(t.st.not(c.pc));
                }
                disjuncts.push(t.st.and(&parts));
            }
            let message = "warp divergence: the mask of this warp operation names a lane that never executes it";
            self.divergence_query(out, inst, &disjuncts, message, "warp participation");
        }
    }

    /// Decides whether some feasible path of the first thread reached the
    /// unwinding bound (then the search is incomplete).
    fn bound_check(&mut self, out: &mut FindOutcome) {
        if !out.complete || self.solver.is_none() {
            return;
        }
        let conds: Vec<TermId> = self.traces[0].cuts.iter().filter(|c| c.bound).map(|c| c.pc).collect();
        if conds.is_empty() {
            return;
        }
        let cond = self.terms.st.or(&conds);
        // The answer only decides a note (whether the search was complete),
        // so it gets a short limit: on kernels whose memory the solver finds
        // hard, this query alone could otherwise take the full one.
        match self.query_within(cond, &[], Some(Duration::from_secs(1))) {
            Answer::Unsat => {}
            Answer::Sat(..) => {
                out.complete = false;
                out.notes.push(format!(
                    "some paths run a loop more than {} times and were cut (raise loop_unwind)",
                    self.config.loop_unwind
                ));
            }
            Answer::Unknown(r) => self.unknown(out, "loop bound", &r),
        }
        let _ = self.module;
    }
}

/// The linear local id of a thread.
fn linear(t: &mut Terms, ids: &ThreadIds, launch: &Launch) -> TermId {
    let [x, y, z] = ids.local;
    let [sx, sy, _] = launch.group_size;
    let sxy = t.st.bvmul(sx, sy);
    let a = t.st.bvmul(y, sx);
    let b = t.st.bvmul(z, sxy);
    let s = t.st.bvadd(x, a);
    t.st.bvadd(s, b)
}
