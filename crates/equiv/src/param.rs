//! The parameterized proof: equivalence for any block size and any number
//! of groups, at a cost that does not grow with either (PUG_para).
//!
//! Instead of executing every thread of a group ([`crate::sym`]), each
//! kernel is executed once, for ONE symbolic thread: its local id (`tid.*`),
//! group id (`blockIdx.*`), the block size (`blockDim.*`, unless the launch
//! fixes it) and the grid size are SMT constants. The run yields the
//! kernel's *conditional assignments* (CAs), barrier interval by barrier
//! interval: "in round r, when `guard(t)`, element `off(t)` of buffer or
//! shared variable X becomes `value(t)`", all terms over the thread `t`,
//! the scalar arguments and the input buffers (SMT arrays shared by both
//! kernels). Any other thread is the same terms with other constants
//! substituted for `t` (a *thread instance*, [`Inst`]).
//!
//! Reads of shared memory are placeholders during the run. Round by round,
//! a read of shared address `e(t)` in round r is resolved to the value that
//! the element's writer wrote in an earlier round: the writes of that
//! variable must all happen in one round q < r through one address term
//! `w`; the solver must prove that `w` is injective over the threads of a
//! group (no two threads write one element: race freedom of round q) and
//! that a *witness* thread `c(t)` of the same group writes `e(t)`
//! whenever `t` reads it. The read then has the value `value(c(t))`. No
//! thread may write the variable in round r itself (that would be a
//! read-write race, or a read of a value written in the same round, which
//! this encoding does not model).
//!
//! Outputs are compared per element without quantifiers: for each buffer,
//! each kernel writes it in one round through one address term. The solver
//! proves (1) injectivity of each kernel's address function over the whole
//! grid (the unique-writer premise: no write-write race on the output), (2)
//! for an arbitrary thread `t` of A that writes element `a`, that a witness
//! thread `c(t)` of B writes `a` too, with the same value, and (3) for an
//! arbitrary thread of B, that some thread of A writes the same element.
//! By (1), `c(t)` is *the* writer of `a` in B, so the final contents of `a`
//! agree; by (2) and (3) the two kernels write the same set of elements, so
//! elements neither writes keep their (shared) initial values. Solving
//! `w_B(t') = w_A(t)` for `t'` in general needs a quantifier alternation;
//! instead witnesses are drawn from a small family that covers the common
//! optimisations (identity, permutations of the local and group ids as in
//! tiled transposes, permutations of the global coordinates) and each is
//! checked by a quantifier-free query. When no candidate works, the proof
//! does not apply and the caller falls back to the bounded proof (concrete
//! block sizes) or `unknown`.
//!
//! Postconditions (`__ensures`, at the top of the kernel) are evaluated for
//! the one symbolic thread on the final memory (`Prover::check_post`):
//! a read of an output element is the value of its writer, a candidate
//! thread as above whose write the solver must show is the element read
//! (distinct threads writing distinct elements, proved grid-wide, makes it
//! *the* writer); when no candidate writes it the value is unconstrained,
//! so "some postcondition fails" being `unsat` also proves the writer
//! exists wherever the postcondition needs it. A satisfiable query gives a
//! model that the interpreter must confirm. This proves properties over
//! whole output arrays (a transpose's `out[i * height + j] == in[j * width
//! + i]`) for any block and grid size.
//!
//! Loops unroll while their conditions are literals, so a loop whose trip
//! count depends on a symbolic block size (a tree reduction) makes the
//! one-thread run give up. Such kernels are left to the bounded proof:
//! [`power_of_two_block_sizes`] proves from the preconditions that
//! `blockDim.x` is a power of two (at most eleven sizes up to 1024), and
//! the caller runs the bounded proof for each. Aligning the reduction loops
//! of two kernels (PUG_para's loop matching, an inductive argument over
//! rounds) is not implemented.
//!
//! Integers are exact 32-bit (or their C width) bit-vectors. Two launch
//! facts are assumed and reported: global ids do not wrap (gridDim ×
//! blockDim < 2^32 in each dimension) and the 32-bit additions and
//! multiplications that compute the addresses of writes do not wrap either
//! (otherwise two threads can write one element: a race).

use std::collections::{HashMap, HashSet};

use lockstep_kir::Type;
use lockstep_smt::{Op, SatResult, Solver, SolverConfig, Sort, TermId, TermKind, TermStore};

use crate::sym::{self, Assignment, Inputs, SharedRead, Target, ThreadRun};
use crate::{Candidate, EquivConfig, KernelRef};

/// What the parameterized proof concluded.
pub enum ParamOutcome {
    Proved { proved: Vec<String>, assumptions: Vec<String> },
    /// The proof does not apply (or a premise could not be proved); why, and where.
    NotApplicable(String, Option<(String, u32, u32)>),
    /// The solver found an input on which an output may differ; the block
    /// size it chose, for the interpreter to confirm.
    Model(Candidate, [u32; 3]),
}

/// One thread of the launch: local and group ids as terms.
#[derive(Clone, Copy, Debug)]
struct Inst {
    tid: [TermId; 3],
    bid: [TermId; 3],
}

/// A conditional assignment with its placeholders resolved.
#[derive(Clone, Debug)]
struct Ca {
    guard: TermId,
    off: TermId,
    value: TermId,
}

const DIMS: [&str; 3] = ["x", "y", "z"];
const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [1, 0, 2], [0, 2, 1], [2, 1, 0], [1, 2, 0], [2, 0, 1]];

struct Prover<'a> {
    inp: Inputs,
    solver: Solver,
    /// Thread-independent facts: launch limits, fixed arguments.
    base: Vec<TermId>,
    /// Per-thread facts over the base instance: `__requires` of both
    /// kernels, no wrap-around in write addresses.
    per_thread: Vec<TermId>,
    base_inst: Inst,
    config: &'a EquivConfig,
    /// `blockDim.x * blockDim.y * blockDim.z <= 1024`.
    block_product: TermId,
    /// What the current query is for (LOCKSTEP_EQUIV_TRACE).
    label: &'static str,
}

type Res<T> = Result<T, (String, Option<(String, u32, u32)>)>;

fn na<T>(why: impl Into<String>) -> Res<T> {
    Err((why.into(), None))
}

/// Runs the parameterized proof of `a` against `b` (and of the
/// postconditions of both), or, when `b` is `None`, of `a`'s postconditions.
pub fn prove(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> ParamOutcome {
    match prove_inner(a, b, config) {
        Ok(o) => o,
        Err((why, loc)) => ParamOutcome::NotApplicable(why, loc),
    }
}

/// The block sizes (`blockDim.x`; `blockDim.y` and `.z` fixed by the
/// launch) that the preconditions of the kernels allow, when the solver
/// proves them all powers of two: `__requires((blockDim.x & (blockDim.x -
/// 1)) == 0)` in either kernel, with CUDA's limit of 1024 threads per
/// block, leaves at most eleven. The caller proves each size with the
/// bounded proof, which together covers every launch the preconditions
/// allow. `Err` says why the set is not finite (or not known).
pub fn power_of_two_block_sizes(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Result<Vec<u32>, String> {
    let (Some(y), Some(z)) = (config.group_size[1], config.group_size[2]) else {
        return Err("the block size is symbolic in more than one dimension".into());
    };
    if config.group_size[0].is_some() {
        return Err("the block size is concrete".into());
    }
    let kernels: Vec<KernelRef> = std::iter::once(a).chain(b).collect();
    let mut funcs = Vec::new();
    for k in &kernels {
        let f = lockstep_analysis::inline_calls(k.module, k.kernel)
            .map_err(|e| format!("cannot inline the calls of `{}`: {e}", k.func().name))?;
        funcs.push(f.function);
    }
    let params: Vec<Type> = funcs[0].params.iter().map(|p| p.ty).collect();
    let mut inp = Inputs::new_param(config.group_size, config.num_groups, &params);
    let solver = Solver::spawn(SolverConfig::new(config.solver, config.query_timeout)).map_err(|e| format!("cannot start the solver: {e}"))?;
    let base_inst = Inst { tid: inp.local_id.expect("one-thread inputs"), bid: inp.group_id };
    let tru = inp.st.true_();
    let mut pr = Prover { inp, solver, base: Vec::new(), per_thread: Vec::new(), base_inst, config, label: "", block_product: tru };
    pr.launch_facts();
    for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
        let reqs = sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp)
            .run_preconditions()
            .map_err(|u| format!("the preconditions of `{}`: {}", k.func().name, u.what))?;
        pr.per_thread.extend(reqs);
    }
    let rest = (y * z).max(1);
    let sizes: Vec<u32> = (0..=10).map(|k| 1u32 << k).filter(|&p| p as u64 * rest <= 1024).collect();
    let bd = pr.inp.local_size[0];
    let is_size: Vec<TermId> = sizes
        .iter()
        .map(|&p| {
            let c = pr.inp.st.bv_const(32, p as u128);
            pr.inp.st.eq(bd, c)
        })
        .collect();
    let any = pr.inp.st.or(&is_size);
    let t = pr.base_inst;
    let mut facts = pr.ctx(t);
    facts.push(pr.inp.st.not(any));
    pr.label = "power-of-two block";
    match pr.sat(&facts) {
        Ok(SatResult::Unsat) => Ok(sizes),
        Ok(SatResult::Sat) => Err("the preconditions do not restrict blockDim.x to powers of two".into()),
        Ok(SatResult::Unknown(why)) => Err(format!("the solver gave up on the block sizes ({why})")),
        Err((why, _)) => Err(why),
    }
}

fn prove_inner(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Res<ParamOutcome> {
    let inline = |k: KernelRef| {
        lockstep_analysis::inline_calls(k.module, k.kernel)
            .map(|i| i.function)
            .map_err(|e| (format!("cannot inline the calls of `{}`: {e}", k.func().name), None))
    };
    let kernels: Vec<KernelRef> = std::iter::once(a).chain(b).collect();
    let funcs: Vec<lockstep_kir::Function> = kernels.iter().map(|k| inline(*k)).collect::<Res<_>>()?;
    let params: Vec<Type> = funcs[0].params.iter().map(|p| p.ty).collect();
    let inp = Inputs::new_param(config.group_size, config.num_groups, &params);
    let mut sconf = SolverConfig::new(config.solver, config.query_timeout);
    if let Some(path) = std::env::var_os("LOCKSTEP_EQUIV_LOG") {
        sconf = sconf.with_log(path);
    }
    let solver = Solver::spawn(sconf)
        .map_err(|e| (format!("cannot start the solver: {e}"), None))?;
    let base_inst = Inst { tid: inp.local_id.expect("one-thread inputs"), bid: inp.group_id };
    let mut inp = inp;
    let tru = inp.st.true_();
    let mut pr = Prover { inp, solver, base: Vec::new(), per_thread: Vec::new(), base_inst, config, label: "", block_product: tru };
    pr.launch_facts();

    let mut runs: Vec<ThreadRun> = Vec::new();
    for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
        let r = sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp)
            .run_param()
            .map_err(|u| (format!("`{}`: {}", k.func().name, u.what), k.describe(u.loc)))?;
        runs.push(r);
    }
    // Equalities between launch symbols that a precondition states
    // (`blockDim.x == blockDim.y`) are applied to every term, so that
    // addresses equal under the precondition are also equal as terms
    // (which the witness search relies on). Sound: the precondition is
    // assumed, and it stays among the facts.
    let eqs = pr.precondition_equalities(runs.iter().flat_map(|r| r.requires.iter().copied()).collect());
    if !eqs.is_empty() {
        // Block dimensions stated equal: their product is at most 1024,
        // so each is at most 32 (two equal) or 10 (three): a linear fact
        // that spares the solver the multiplication.
        for d in 0..3 {
            let bd = pr.inp.local_size[d];
            let equal = (0..3).filter(|&e| {
                let o = pr.inp.local_size[e];
                o == bd || eqs.get(&o) == Some(&bd) || eqs.get(&bd) == Some(&o) || (eqs.get(&bd).is_some() && eqs.get(&bd) == eqs.get(&o))
            });
            let max = match equal.count() {
                2 => 32,
                3 => 10,
                _ => continue,
            };
            let m = pr.inp.st.bv_const(32, max);
            let f = pr.inp.st.bvule(bd, m);
            pr.base.push(f);
        }
        for r in &mut runs {
            pr.rewrite_run(r, &eqs);
        }
    }
    for r in &runs {
        pr.per_thread.extend(r.requires.iter().copied());
    }

    // A kernel that reads a buffer either kernel writes could read another
    // thread's write: the CAs do not model that.
    let writes = |r: &ThreadRun| -> HashSet<usize> {
        r.cas.iter().filter_map(|c| if let Target::Param(p) = c.target { Some(p) } else { None }).collect()
    };
    let written: HashSet<usize> = runs.iter().flat_map(writes).collect();
    for (k, r) in kernels.iter().zip(&runs) {
        if let Some(p) = r.reads.iter().find(|p| written.contains(p)) {
            return na(format!("`{}` reads the buffer `{}`, which is also written", k.func().name, k.func().params[*p].name));
        }
    }
    let mut outputs: Vec<usize> = written.iter().copied().collect();
    outputs.sort();
    if outputs.is_empty() {
        return na("neither kernel writes a buffer argument");
    }

    // No wrap-around in the addresses of writes (a stated assumption),
    // for the threads that do write. A guard that depends on a shared read
    // (still a placeholder) gives no assumption at all: weaker, not wrong.
    for c in runs.iter().flat_map(|r| r.cas.iter()) {
        let syms = pr.inp.st.free_symbols(&[c.guard]);
        if syms.funs.iter().any(|&f| pr.inp.st.fun(f).name.contains(".read.")) {
            continue;
        }
        let nw = no_wrap(&mut pr.inp.st, &[c.off]);
        if nw.is_empty() {
            continue;
        }
        let all = pr.inp.st.and(&nw);
        let f = pr.inp.st.implies(c.guard, all);
        pr.per_thread.push(f);
    }

    // Misaligned accesses would break the element model.
    let mis: Vec<TermId> = runs.iter().flat_map(|r| r.misaligned.iter()).copied().collect();
    if !mis.is_empty() {
        let any = pr.inp.st.or(&mis);
        let t = pr.base_inst;
        let mut facts = pr.ctx(t);
        facts.push(any);
        if pr.sat(&facts)? != SatResult::Unsat {
            return na("an access may be misaligned");
        }
    }

    let mut proved = Vec::new();
    let mut resolved = Vec::new();
    for (k, r) in kernels.iter().zip(&runs) {
        resolved.push(pr.resolve_shared(*k, r, &mut proved)?);
    }
    if let Some(b) = b {
        if let Some(model) = pr.compare_outputs(a, b, &runs, &resolved, &outputs, &mut proved)? {
            return Ok(ParamOutcome::Model(model.0, model.1));
        }
    }
    for i in 0..kernels.len() {
        if runs[i].obligations.is_empty() {
            continue;
        }
        if let Some(model) = pr.check_post(kernels[i], &runs[i], &resolved[i], &mut proved)? {
            return Ok(ParamOutcome::Model(model.0, model.1));
        }
    }
    if proved.is_empty() {
        return na("nothing to prove");
    }
    let block = match concrete(config.group_size) {
        Some(g) => format!("blockDim=[{}]", g.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
        None => "any block size".to_string(),
    };
    let grid = match concrete(config.num_groups) {
        Some(g) => format!("gridDim=[{}]", g.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
        None => "any number of groups".to_string(),
    };
    let mut assumptions = vec![
        format!("the launch has {block} and {grid}, and global thread ids fit in 32 bits (gridDim × blockDim < 2^32 in each dimension)"),
        "the 32-bit additions and multiplications that compute the indices of writes do not wrap around".to_string(),
        "every access is within its buffer (no out-of-bounds access)".to_string(),
        "pointer arguments do not alias".to_string(),
        "integer division by zero does not happen".to_string(),
    ];
    if pr.inp.st.funs().any(|(_, f)| f.name.starts_with('f') || f.name.starts_with("ext.")) {
        assumptions.push(
            "floating-point operations are uninterpreted functions: + and * are commutative, nothing else is assumed (in particular not associativity)"
                .to_string(),
        );
    }
    Ok(ParamOutcome::Proved { proved, assumptions })
}

fn concrete(dims: [Option<u64>; 3]) -> Option<Vec<u64>> {
    let v: Option<Vec<u64>> = dims.iter().copied().collect();
    let mut v = v?;
    while v.len() > 1 && v.last() == Some(&1) {
        v.pop();
    }
    Some(v)
}

/// Conditions under which no 32-bit `+` or `*` inside `roots` wraps
/// around. Additions of a literal with its top bit set are subtractions
/// after [`sym`]'s normalisation (`x - 1` is `x + 0xffffffff`) and are left
/// exact: assuming they do not wrap would exclude every input.
fn no_wrap(st: &mut TermStore, roots: &[TermId]) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<TermId> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let TermKind::App(op, args) = st.kind(t).clone() else { continue };
        stack.extend(args.iter().copied());
        if st.sort_of(t).bv_width() != Some(32) || args.len() != 2 {
            continue;
        }
        let (x, y) = (args[0], args[1]);
        let top = |st: &TermStore, v: TermId| st.as_bv(v).and_then(|b| b.to_u128()).is_some_and(|c| c >> 31 == 1);
        match op {
            Op::BvAdd if !top(st, x) && !top(st, y) => {
                // No carry out: the sum is at least an operand.
                out.push(st.bvuge(t, x));
            }
            Op::BvMul => {
                let (x64, y64) = (st.zero_extend(32, x), st.zero_extend(32, y));
                let prod = st.bvmul(x64, y64);
                let high = st.extract(63, 32, prod);
                let zero = st.bv_const(32, 0);
                out.push(st.eq(high, zero));
            }
            _ => {}
        }
    }
    out
}

impl Prover<'_> {
    /// The postconditions of kernel `k` for an arbitrary thread `t` of any
    /// launch: each read of a written buffer on the final memory is the
    /// value of the element's writer. Distinct threads must write distinct
    /// elements of the buffer (proved, grid-wide), so a candidate thread
    /// `c` ([`Self::candidates`]) that writes the element read is *the*
    /// writer and the element holds `value(c)`; when no candidate writes it
    /// the value is unconstrained (the initial contents, or another
    /// thread's write: an over-approximation). The read is therefore
    /// `ite(writes(c1), value(c1), ite(writes(c2), value(c2), .. fresh))`,
    /// and an `unsat` answer for "some postcondition of `t` fails" proves
    /// them all, which requires the writer to exist wherever the value
    /// matters. Candidates whose address term is syntactically the one read
    /// are tried alone first (a smaller query), then all of them. `Some`:
    /// the solver's model, for the interpreter to confirm.
    fn check_post(
        &mut self,
        k: KernelRef,
        run: &ThreadRun,
        resolved: &HashMap<TermId, TermId>,
        proved: &mut Vec<String>,
    ) -> Res<Option<(Candidate, [u32; 3])>> {
        let name = k.func().name.clone();
        let t = self.base_inst;
        let mut cas: HashMap<usize, Ca> = HashMap::new();
        for r in &run.post_reads {
            if cas.contains_key(&r.param) {
                continue;
            }
            let pname = k.func().params[r.param].name.clone();
            let Some(ca) = self.output_ca(k, run, resolved, r.param)? else {
                return Err((format!("a postcondition of `{name}` reads `{pname}`, which is written but not through a conditional assignment"), k.describe(r.loc)));
            };
            if self.inp.st.sort_of(ca.value) != self.inp.st.sort_of(r.placeholder) {
                return Err((format!("a postcondition of `{name}` reads `{pname}` with another element width than its writes"), k.describe(r.loc)));
            }
            if !self.injective(&ca, false)? {
                return na(format!(
                    "the solver cannot prove that distinct threads of `{name}` write distinct elements of `{pname}` (a write-write race, or index arithmetic that wraps around)"
                ));
            }
            cas.insert(r.param, ca);
        }
        let violated: Vec<TermId> = run.obligations.iter().map(|o| o.violated).collect();
        let violated = self.inp.st.or(&violated);
        let violated = self.resolve(violated, resolved);
        let cands = self.candidates(t, false);
        // Per read: the candidates whose address term is the one read.
        let mut matching: Vec<Vec<Inst>> = Vec::new();
        for r in &run.post_reads {
            let off = cas[&r.param].off;
            let addr = self.resolve(r.off, resolved);
            matching.push(cands.iter().copied().filter(|c| self.at(off, *c) == addr).collect());
        }
        let first_complete = matching.iter().all(|m| !m.is_empty());
        let all_match = matching.iter().all(|m| m.len() == cands.len());
        let attempts: Vec<bool> = match (first_complete, all_match) {
            (true, false) => vec![true, false],
            (true, true) => vec![true],
            (false, _) => vec![false],
        };
        let mut gave_up = None;
        for (n, &only_matching) in attempts.iter().enumerate() {
            let last = n + 1 == attempts.len();
            let mut facts = self.ctx(t);
            let mut map = HashMap::new();
            for (i, r) in run.post_reads.iter().enumerate() {
                let ca = cas[&r.param].clone();
                let addr = self.resolve(r.off, resolved);
                let chosen = if only_matching { matching[i].clone() } else { cands.clone() };
                let sort = self.inp.st.sort_of(r.placeholder).clone();
                let mut v = self.inp.st.fresh_const(&format!("{name}.unwritten"), sort);
                for c in chosen.iter().rev() {
                    let valid = self.valid(*c);
                    let guard = self.at(ca.guard, *c);
                    let off = self.at(ca.off, *c);
                    let same = self.inp.st.eq(off, addr);
                    let writes = self.inp.st.and(&[valid, guard, same]);
                    let value = self.at(ca.value, *c);
                    v = self.inp.st.ite(writes, value, v);
                    let f = self.if_valid(*c);
                    facts.push(f);
                }
                map.insert(r.placeholder, v);
            }
            let goal = substitute(&mut self.inp.st, violated, &map, &mut HashMap::new());
            facts.push(goal);
            self.label = "postcondition";
            let answer = self.sat_light(&facts)?;
            match answer {
                SatResult::Unsat => {
                    let mut lines: Vec<u32> = run.obligations.iter().filter_map(|o| o.loc.map(|l| l.line)).collect();
                    lines.sort();
                    lines.dedup();
                    let at = lines.iter().map(|l| format!("line {l}")).collect::<Vec<_>>().join(", ");
                    let mut bufs: Vec<String> = cas.keys().map(|p| format!("`{}`", k.func().params[*p].name)).collect();
                    bufs.sort();
                    let how = if bufs.is_empty() {
                        String::new()
                    } else {
                        format!(": each element of {} they read holds the value of its unique writer, which exists", bufs.join(", "))
                    };
                    proved.push(format!("the postconditions of `{name}` ({at}) hold for every thread{how}"));
                    return Ok(None);
                }
                SatResult::Sat if last => {
                    // A model with a small launch and small arguments
                    // first, which the interpreter can run; then any.
                    let what = format!("the solver found inputs on which a postcondition of `{name}` may fail");
                    let mut small = facts.clone();
                    let goal = small.pop().expect("the goal");
                    small.push(self.small_bounds());
                    small.push(goal);
                    self.label = "postcondition (small)";
                    if let (SatResult::Sat, Some(c)) = self.sat_then(&small, |pr| pr.candidate(t, what.clone()))? {
                        return Ok(Some(c));
                    }
                    self.label = "postcondition";
                    match self.sat_then(&facts, |pr| pr.candidate(t, what))? {
                        (SatResult::Unsat, _) => {
                            // Proved after all (the first query was a
                            // weaker one): fall through to the report.
                        }
                        (SatResult::Sat, Some(c)) => return Ok(Some(c)),
                        (SatResult::Unknown(why), _) => {
                            return na(format!("checking the postconditions of `{name}`: the solver gave up ({why})"))
                        }
                        _ => return na(format!("a postcondition of `{name}` may fail")),
                    }
                    let mut lines: Vec<u32> = run.obligations.iter().filter_map(|o| o.loc.map(|l| l.line)).collect();
                    lines.sort();
                    lines.dedup();
                    let at = lines.iter().map(|l| format!("line {l}")).collect::<Vec<_>>().join(", ");
                    proved.push(format!("the postconditions of `{name}` ({at}) hold for every thread"));
                    return Ok(None);
                }
                SatResult::Sat => {}
                SatResult::Unknown(why) => gave_up = Some(why),
            }
        }
        na(format!(
            "checking the postconditions of `{name}`: {}",
            match gave_up {
                Some(why) => format!("the solver gave up ({why})"),
                None => "no model".into(),
            }
        ))
    }

    /// The equivalence of the outputs (see the module docs): `Some` with a
    /// model when the solver finds inputs on which an output may differ.
    fn compare_outputs(
        &mut self,
        a: KernelRef,
        b: KernelRef,
        runs: &[ThreadRun],
        resolved: &[HashMap<TermId, TermId>],
        outputs: &[usize],
        proved: &mut Vec<String>,
    ) -> Res<Option<(Candidate, [u32; 3])>> {
        for &p in outputs {
            let name = a.func().params[p].name.clone();
            let ca = self.output_ca(a, &runs[0], &resolved[0], p)?;
            let cb = self.output_ca(b, &runs[1], &resolved[1], p)?;
            let (Some(ca), Some(cb)) = (ca, cb) else {
                return na(format!("only one of the kernels writes `{name}`"));
            };
            if self.inp.st.sort_of(ca.value) != self.inp.st.sort_of(cb.value) {
                return na(format!("the kernels write `{name}` with elements of different widths"));
            }
            for (k, c) in [(a, &ca), (b, &cb)] {
                if !self.injective(c, false)? {
                    return na(format!(
                        "the solver cannot prove that distinct threads of `{}` write distinct elements of `{name}` (a write-write race, or index arithmetic that wraps around)",
                        k.func().name
                    ));
                }
            }
            // A ⊆ B, with values.
            let t = self.fresh_inst("A", false);
            let Some(w) = self.witness(t, &ca, &cb)? else {
                return na(format!(
                    "cannot find, for an arbitrary thread of `{}` that writes `{name}`, the thread of `{}` that writes the same element",
                    a.func().name,
                    b.func().name
                ));
            };
            let va = self.at(ca.value, t);
            let vb = self.at(cb.value, w);
            let ga = self.at(ca.guard, t);
            let same = self.inp.st.eq(va, vb);
            let differ = self.inp.st.not(same);
            // First without the context and with nonlinear arithmetic
            // abstracted: enough when the values agree as expressions.
            let abstracted = abstract_nonlinear(&mut self.inp.st, differ, &mut HashMap::new());
            self.label = "value (abstracted)";
            let quick = self.sat(&[abstracted])? == SatResult::Unsat;
            self.label = "value";
            let mut facts = self.ctx(t);
            facts.push(ga);
            facts.extend(self.ctx(w));
            facts.push(differ);
            match if quick {
                (SatResult::Unsat, None)
            } else {
                self.sat_then(&facts, |pr| pr.candidate(t, format!("the solver found inputs on which `{name}` may differ")))?
            } {
                (SatResult::Unsat, _) => {}
                (SatResult::Sat, Some(c)) => return Ok(Some(c)),
                (SatResult::Unknown(why), _) => return na(format!("comparing the values written to `{name}`: the solver gave up ({why})")),
                (SatResult::Sat, None) => return na(format!("the values written to `{name}` may differ")),
            }
            // B ⊆ A.
            let u = self.fresh_inst("B", false);
            if self.witness(u, &cb, &ca)?.is_none() {
                return na(format!(
                    "cannot find, for an arbitrary thread of `{}` that writes `{name}`, the thread of `{}` that writes the same element",
                    b.func().name,
                    a.func().name
                ));
            }
            proved.push(format!(
                "`{name}`: distinct threads of each kernel write distinct elements, and every element one kernel writes the other writes with the same value"
            ));
        }
        Ok(None)
    }

    fn launch_facts(&mut self) {
        let st = &mut self.inp.st;
        let grid_max = [0x7fff_ffffu128, 0xffff, 0xffff];
        let block_max = [1024u128, 1024, 64];
        for d in 0..3 {
            let (bd, gd) = (self.inp.local_size[d], self.inp.num_groups[d]);
            let one = st.bv_const(32, 1);
            let bmax = st.bv_const(32, block_max[d]);
            let gmax = st.bv_const(32, grid_max[d]);
            let f = [st.bvuge(bd, one), st.bvule(bd, bmax), st.bvuge(gd, one), st.bvule(gd, gmax)];
            self.base.extend(f);
            // Global ids fit in 32 bits.
            let (b64, g64) = (st.zero_extend(32, bd), st.zero_extend(32, gd));
            let total = st.bvmul(b64, g64);
            let lim = st.bv_const(64, 1u128 << 32);
            self.base.push(st.bvult(total, lim));
        }
        let (x, y, z) = (self.inp.local_size[0], self.inp.local_size[1], self.inp.local_size[2]);
        let xy = st.bvmul(x, y);
        let xyz = st.bvmul(xy, z);
        let max = st.bv_const(32, 1024);
        self.block_product = st.bvule(xyz, max);
        self.base.push(self.block_product);
        for (i, v) in self.config.scalar_args.iter().enumerate() {
            if let (Some(v), Some(Some(t))) = (v, self.inp.scalars.get(i)) {
                let w = st.sort_of(*t).bv_width().unwrap_or(32);
                let c = st.bv_const(w, v & lockstep_replay::value::mask(w));
                self.base.push(st.eq(*t, c));
            }
        }
    }

    /// A new thread: fresh local ids; fresh group ids unless `same_group`.
    /// Components that the launch fixes (literals) stay literals.
    fn fresh_inst(&mut self, tag: &str, same_group: bool) -> Inst {
        let b = self.base_inst;
        let st = &mut self.inp.st;
        let mut fresh = |t: TermId, name: String| if st.as_bv(t).is_some() { t } else { st.fresh_const(&name, Sort::bv(32)) };
        let tid = [0, 1, 2].map(|d| fresh(b.tid[d], format!("{tag}.tid.{}", DIMS[d])));
        let bid = if same_group { b.bid } else { [0, 1, 2].map(|d| fresh(b.bid[d], format!("{tag}.blockIdx.{}", DIMS[d]))) };
        Inst { tid, bid }
    }

    /// `t` (a term over the base thread) for thread `i`.
    fn at(&mut self, t: TermId, i: Inst) -> TermId {
        let mut map = HashMap::new();
        for d in 0..3 {
            map.insert(self.base_inst.tid[d], i.tid[d]);
            map.insert(self.base_inst.bid[d], i.bid[d]);
        }
        map.retain(|k, v| k != v);
        if map.is_empty() {
            return t;
        }
        substitute(&mut self.inp.st, t, &map, &mut HashMap::new())
    }

    /// Thread `i` is a thread of the launch and the per-thread facts hold for it.
    fn ctx(&mut self, i: Inst) -> Vec<TermId> {
        let mut out = self.base.clone();
        out.push(self.valid(i));
        for f in self.per_thread.clone() {
            out.push(self.at(f, i));
        }
        out
    }

    /// Thread `i` is a thread of the launch.
    fn valid(&mut self, i: Inst) -> TermId {
        let mut out = Vec::new();
        for d in 0..3 {
            let (bd, gd) = (self.inp.local_size[d], self.inp.num_groups[d]);
            out.push(self.inp.st.bvult(i.tid[d], bd));
            out.push(self.inp.st.bvult(i.bid[d], gd));
        }
        self.inp.st.and(&out)
    }

    /// The per-thread facts (assumed for every thread of the launch) for a
    /// thread `i` that may or may not be one: `valid(i) => facts(i)`.
    fn if_valid(&mut self, i: Inst) -> TermId {
        let mut facts = Vec::new();
        for f in self.per_thread.clone() {
            facts.push(self.at(f, i));
        }
        let all = self.inp.st.and(&facts);
        let v = self.valid(i);
        self.inp.st.implies(v, all)
    }

    /// A background fact that is expensive to bit-blast: a 64-bit product
    /// of non-literals (the launch limits, the no-wrap assumptions for
    /// multiplications) or the block's thread count.
    fn heavy(&self, f: TermId) -> bool {
        f == self.block_product || has_nonlinear(&self.inp.st, f)
    }

    /// Is the conjunction of `facts` satisfiable? First without the
    /// [`Self::heavy`] facts, except the last one, which is the goal: dropping hypotheses only weakens the query, so an
    /// `unsat` answer stands, and most queries do not need them; they are
    /// expensive to bit-blast.
    fn sat(&mut self, facts: &[TermId]) -> Res<SatResult> {
        // The last fact is the goal (the negated claim): always kept.
        let n = facts.len();
        let light: Vec<TermId> =
            facts.iter().enumerate().filter(|&(i, &f)| i + 1 == n || !self.heavy(f)).map(|(_, &f)| f).collect();
        if light.len() < facts.len() {
            if let Ok(SatResult::Unsat) = self.sat_timed(&light) {
                return Ok(SatResult::Unsat);
            }
        }
        self.sat_timed(facts)
    }

    /// As [`Self::sat`], but only the query without the heavy facts: an
    /// `unsat` answer stands; `sat` may not be one of the full query.
    fn sat_light(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let n = facts.len();
        let light: Vec<TermId> =
            facts.iter().enumerate().filter(|&(i, &f)| i + 1 == n || !self.heavy(f)).map(|(_, &f)| f).collect();
        self.sat_timed(&light)
    }

    /// Small launches and arguments, for models the interpreter can run.
    fn small_bounds(&mut self) -> TermId {
        let st = &mut self.inp.st;
        let mut c = Vec::new();
        for d in 0..3 {
            let max = st.bv_const(32, 32);
            c.push(st.bvule(self.inp.num_groups[d], max));
        }
        for s in self.inp.scalars.iter().flatten() {
            if let Some(w) = st.sort_of(*s).bv_width() {
                if (16..=64).contains(&w) {
                    let max = st.bv_const(w, 8192);
                    c.push(st.bvule(*s, max));
                }
            }
        }
        st.and(&c)
    }

    fn sat_timed(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let start = std::time::Instant::now();
        let r = self.sat_inner(facts);
        if std::env::var_os("LOCKSTEP_EQUIV_TRACE").is_some() {
            eprintln!("param query ({}): {:?} in {:?}", self.label, r.as_ref().ok(), start.elapsed());
        }
        r
    }

    fn sat_inner(&mut self, facts: &[TermId]) -> Res<SatResult> {
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        // A fresh process per query, without `push`: once a scope is
        // opened, z3 answers with its incremental core, which skips the
        // bit-vector preprocessing that makes these queries easy
        // (measured: a value comparison that a fresh z3 refutes in 20 ms
        // timed out after 10 s in a scope). Starting z3 costs ~15 ms.
        self.solver = Solver::spawn(self.solver.config().clone()).map_err(err)?;
        for &f in facts {
            self.solver.assert(&self.inp.st, f).map_err(err)?;
        }
        self.solver.check_sat().map_err(err)
    }

    /// As [`Self::sat`], and when satisfiable, `model` reads the model
    /// before the query is popped.
    fn sat_then<T>(&mut self, facts: &[TermId], model: impl FnOnce(&mut Self) -> Res<T>) -> Res<(SatResult, Option<T>)> {
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        // A fresh process per query, without `push`: once a scope is
        // opened, z3 answers with its incremental core, which skips the
        // bit-vector preprocessing that makes these queries easy
        // (measured: a value comparison that a fresh z3 refutes in 20 ms
        // timed out after 10 s in a scope). Starting z3 costs ~15 ms.
        self.solver = Solver::spawn(self.solver.config().clone()).map_err(err)?;
        for &f in facts {
            self.solver.assert(&self.inp.st, f).map_err(err)?;
        }
        let r = match self.solver.check_sat() {
            Ok(r) => r,
            Err(e) => {
                let _ = self.solver.restart();
                return Err(err(e));
            }
        };
        let m = if r == SatResult::Sat { model(self).ok() } else { None };
        Ok((r, m))
    }

    /// Are the elements that `c` writes distinct for distinct threads (of
    /// one group when `same_group`, of the grid otherwise)?
    fn injective(&mut self, c: &Ca, same_group: bool) -> Res<bool> {
        let (t1, t2) = (self.fresh_inst("i1", same_group), self.fresh_inst("i2", same_group));
        let mut facts = self.ctx(t1);
        facts.extend(self.ctx(t2));
        let mut diff = Vec::new();
        for d in 0..3 {
            diff.push(self.inp.st.eq(t1.tid[d], t2.tid[d]));
            diff.push(self.inp.st.eq(t1.bid[d], t2.bid[d]));
        }
        let same = self.inp.st.and(&diff);
        facts.push(self.inp.st.not(same));
        let (g1, g2) = (self.at(c.guard, t1), self.at(c.guard, t2));
        facts.extend([g1, g2]);
        let mut comps = Vec::new();
        self.components(c.off, c.guard, &mut comps)?;
        for k in comps {
            let (k1, k2) = (self.at(k, t1), self.at(k, t2));
            facts.push(self.inp.st.eq(k1, k2));
        }
        self.label = "injective";
        match self.sat(&facts)? {
            SatResult::Unsat => Ok(true),
            SatResult::Sat => Ok(false),
            SatResult::Unknown(why) => na(format!("proving that writes go to distinct elements: the solver gave up ({why})")),
        }
    }

    /// `a = b` between two thread-independent constants, from the
    /// unconditional conjuncts of the preconditions: a map from one to the other.
    fn precondition_equalities(&mut self, reqs: Vec<TermId>) -> HashMap<TermId, TermId> {
        let mut map: HashMap<TermId, TermId> = HashMap::new();
        let mut stack = reqs;
        while let Some(r) = stack.pop() {
            match self.inp.st.kind(r).clone() {
                TermKind::App(Op::And, args) => stack.extend(args.iter().copied()),
                TermKind::App(Op::Eq, args) if args.len() == 2 => {
                    let is_const = |st: &TermStore, t: TermId| matches!(st.kind(t), TermKind::Const(_));
                    let (x, y) = (args[0], args[1]);
                    if !is_const(&self.inp.st, x) || !is_const(&self.inp.st, y) || self.thread_dependent(r) {
                        continue;
                    }
                    // Follow existing mappings so that the map has no chains.
                    let root = |m: &HashMap<TermId, TermId>, mut t: TermId| {
                        while let Some(&n) = m.get(&t) {
                            t = n;
                        }
                        t
                    };
                    let (rx, ry) = (root(&map, x), root(&map, y));
                    if rx != ry {
                        let (keep, drop) = if rx < ry { (rx, ry) } else { (ry, rx) };
                        map.insert(drop, keep);
                    }
                }
                _ => {}
            }
        }
        let keys: Vec<TermId> = map.keys().copied().collect();
        for k in keys {
            let mut t = map[&k];
            while let Some(&n) = map.get(&t) {
                t = n;
            }
            map.insert(k, t);
        }
        map
    }

    fn rewrite_run(&mut self, run: &mut ThreadRun, map: &HashMap<TermId, TermId>) {
        let mut memo = HashMap::new();
        let st = &mut self.inp.st;
        let mut f = |t: &mut TermId| *t = substitute(st, *t, map, &mut memo);
        for c in &mut run.cas {
            f(&mut c.guard);
            f(&mut c.off);
            f(&mut c.value);
        }
        for r in &mut run.shared_reads {
            f(&mut r.pc);
            f(&mut r.off);
        }
        run.misaligned.iter_mut().for_each(&mut f);
        for o in &mut run.obligations {
            f(&mut o.violated);
        }
        for r in &mut run.post_reads {
            f(&mut r.pc);
            f(&mut r.off);
        }
    }

    /// Does `t` mention the thread's ids?
    fn thread_dependent(&self, t: TermId) -> bool {
        let ids: Vec<TermId> = self.base_inst.tid.iter().chain(&self.base_inst.bid).copied().collect();
        let syms = self.inp.st.free_symbols(&[t]);
        syms.funs.iter().any(|&f| ids.iter().any(|&i| matches!(self.inp.st.kind(i), TermKind::Const(g) if *g == f)))
    }

    /// Splits the address term `f` (over the base thread, which writes when
    /// `guard`) into components such that two writing threads with equal
    /// `f` have equal components: the injectivity query then compares the
    /// components, which are linear where `f` is not (`x * height + y`
    /// with `y < height` determines `x` and `y`, as digits of a number do).
    /// Each step is justified by a fact about bit-vectors: adding a
    /// constant is a bijection; a multiplication or addition that does not
    /// wrap (assumed for 32-bit index arithmetic, bounded for 64-bit
    /// offsets) can be undone; `s * h + r` with `r < h` (proved by the
    /// solver) and `h` the same for every thread determines `s` and `r`.
    fn components(&mut self, f: TermId, guard: TermId, out: &mut Vec<TermId>) -> Res<()> {
        if !self.thread_dependent(f) {
            return Ok(());
        }
        let width = self.inp.st.sort_of(f).bv_width().unwrap_or(0);
        let lit = |st: &TermStore, t: TermId| st.as_bv(t).and_then(|v| v.to_u128());
        let kind = self.inp.st.kind(f).clone();
        let TermKind::App(op, args) = kind else {
            out.push(f);
            return Ok(());
        };
        match (&op, &args[..]) {
            (Op::ZeroExtend(_) | Op::SignExtend(_), [g]) => return self.components(*g, guard, out),
            (Op::BvAdd, [g, c]) | (Op::BvAdd, [c, g]) if lit(&self.inp.st, *c).is_some() => {
                return self.components(*g, guard, out)
            }
            (Op::BvMul, [g, c]) | (Op::BvMul, [c, g]) if lit(&self.inp.st, *c).is_some_and(|v| v != 0) => {
                let fits = width == 32 || (width == 64 && bound64(&self.inp.st, f).is_some());
                if fits {
                    return self.components(*g, guard, out);
                }
            }
            (Op::BvAdd, [x, y]) => {
                for (m, r) in [(*x, *y), (*y, *x)] {
                    let TermKind::App(Op::BvMul, margs) = self.inp.st.kind(m).clone() else { continue };
                    let [p, q] = margs[..] else { continue };
                    for (s, h) in [(p, q), (q, p)] {
                        if self.thread_dependent(h) {
                            continue;
                        }
                        let fits = width == 32 || (width == 64 && bound64(&self.inp.st, f).is_some());
                        if !fits {
                            continue;
                        }
                        // r < h for every writing thread?
                        let t = self.base_inst;
                        let mut facts = self.ctx(t);
                        facts.push(guard);
                        let below = self.inp.st.bvult(r, h);
                        self.label = "digit bound";
                        facts.push(self.inp.st.not(below));
                        if self.sat(&facts)? == SatResult::Unsat {
                            self.components(s, guard, out)?;
                            return self.components(r, guard, out);
                        }
                    }
                }
            }
            _ => {}
        }
        out.push(f);
        Ok(())
    }

    /// Candidate writers for thread `t`: identity first, then permutations
    /// of local ids (within the group), of group ids, and of the global
    /// coordinates `blockIdx * blockDim + tid`.
    fn candidates(&mut self, t: Inst, same_group: bool) -> Vec<Inst> {
        let active = |x: TermId, st: &TermStore| st.as_bv(x).is_none();
        let st = &self.inp.st;
        let tid_active: Vec<bool> = (0..3).map(|d| active(self.base_inst.tid[d], st)).collect();
        let bid_active: Vec<bool> = (0..3).map(|d| active(self.base_inst.bid[d], st)).collect();
        // A permutation is useful when it moves active components onto active ones.
        let fits = |p: &[usize; 3], act: &[bool]| (0..3).all(|d| act[d] == act[p[d]]);
        let mut out = Vec::new();
        for pt in PERMS.iter().filter(|p| fits(p, &tid_active)) {
            let bperms: Vec<&[usize; 3]> =
                if same_group { vec![&PERMS[0]] } else { PERMS.iter().filter(|p| fits(p, &bid_active)).collect() };
            for pb in bperms {
                out.push(Inst { tid: pt.map(|d| t.tid[d]), bid: pb.map(|d| t.bid[d]) });
            }
        }
        if !same_group {
            let both: Vec<bool> = (0..3).map(|d| tid_active[d] || bid_active[d]).collect();
            for p in PERMS.iter().skip(1).filter(|p| fits(p, &both)) {
                let st = &mut self.inp.st;
                let global: Vec<TermId> = (0..3)
                    .map(|d| {
                        let m = st.bvmul(t.bid[d], self.inp.local_size[d]);
                        st.bvadd(m, t.tid[d])
                    })
                    .collect();
                let mut c = Inst { tid: t.tid, bid: t.bid };
                for d in 0..3 {
                    let x = global[p[d]];
                    c.bid[d] = st.bvudiv(x, self.inp.local_size[d]);
                    c.tid[d] = st.bvurem(x, self.inp.local_size[d]);
                }
                out.push(c);
            }
        }
        out
    }

    /// A thread (from [`Self::candidates`]) that writes, with `to`, the
    /// element that thread `t` writes with `from`, whenever `t` writes.
    fn witness(&mut self, t: Inst, from: &Ca, to: &Ca) -> Res<Option<Inst>> {
        let g = self.at(from.guard, t);
        let a = self.at(from.off, t);
        self.find_writer(t, g, a, to, false)
    }

    fn find_writer(&mut self, t: Inst, when: TermId, addr: TermId, to: &Ca, same_group: bool) -> Res<Option<Inst>> {
        let mut gave_up = None;
        // Candidates whose address is syntactically the one sought first:
        // a refuted candidate costs a satisfiable (slow) nonlinear query.
        let mut cands = self.candidates(t, same_group);
        let mut matches = Vec::new();
        for c in &cands {
            matches.push(self.at(to.off, *c) == addr);
        }
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by_key(|&i| !matches[i]);
        cands = order.into_iter().map(|i| cands[i]).collect();
        for c in cands {
            self.label = "witness";
            let mut facts = self.ctx(t);
            facts.push(when);
            facts.push(self.if_valid(c));
            let mut ok = vec![self.valid(c)];
            ok.push(self.at(to.guard, c));
            let w = self.at(to.off, c);
            ok.push(self.inp.st.eq(w, addr));
            let ok = self.inp.st.and(&ok);
            facts.push(self.inp.st.not(ok));
            match self.sat(&facts)? {
                SatResult::Unsat => return Ok(Some(c)),
                SatResult::Sat => {}
                SatResult::Unknown(why) => gave_up = Some(why),
            }
        }
        match gave_up {
            Some(why) => na(format!("looking for the thread that writes an element: the solver gave up ({why})")),
            None => Ok(None),
        }
    }

    /// Resolves the shared reads of one kernel round by round (see the
    /// module docs); returns the value of each placeholder, as a term over
    /// the base thread.
    fn resolve_shared(&mut self, k: KernelRef, run: &ThreadRun, proved: &mut Vec<String>) -> Res<HashMap<TermId, TermId>> {
        let mut resolved: HashMap<TermId, TermId> = HashMap::new();
        let mut reads: Vec<&SharedRead> = run.shared_reads.iter().collect();
        reads.sort_by_key(|r| r.interval);
        let mut unique: HashSet<lockstep_kir::GlobalId> = HashSet::new();
        for r in reads {
            let name = k.module.globals[r.global].name.clone();
            let target = Target::Shared(r.global);
            if run.cas.iter().any(|c| c.target == target && c.interval == r.interval) {
                return Err((
                    format!("`{}` reads `{name}` in the barrier interval in which it is written", k.func().name),
                    k.describe(r.loc),
                ));
            }
            let writes: Vec<&Assignment> = run.cas.iter().filter(|c| c.target == target && c.interval < r.interval).collect();
            let Some(first) = writes.first() else {
                return Err((format!("`{}` reads `{name}` before any thread writes it", k.func().name), k.describe(r.loc)));
            };
            if writes.iter().any(|c| c.interval != first.interval) {
                return Err((format!("`{}` writes `{name}` in several barrier intervals", k.func().name), k.describe(r.loc)));
            }
            let Some(w) = self.merge(&writes, &resolved) else {
                return Err((format!("`{}` writes `{name}` through several address terms", k.func().name), k.describe(r.loc)));
            };
            if unique.insert(r.global) && !self.injective(&w, true)? {
                return Err((
                    format!("the solver cannot prove that distinct threads of `{}` write distinct elements of `{name}`", k.func().name),
                    k.describe(r.loc),
                ));
            }
            let pc = self.resolve(r.pc, &resolved);
            let off = self.resolve(r.off, &resolved);
            let t = self.base_inst;
            let Some(c) = self.find_writer(t, pc, off, &w, true)? else {
                return Err((
                    format!(
                        "cannot find, for an arbitrary thread of `{}`, the thread that wrote the element of `{name}` it reads",
                        k.func().name
                    ),
                    k.describe(r.loc),
                ));
            };
            let v = self.at(w.value, c);
            resolved.insert(r.placeholder, v);
        }
        if !unique.is_empty() {
            let mut names: Vec<String> = unique.iter().map(|g| format!("`{}`", k.module.globals[*g].name)).collect();
            names.sort();
            proved.push(format!(
                "`{}`: every read of {} reads the value of the unique thread that wrote the element in an earlier barrier interval",
                k.func().name,
                names.join(", ")
            ));
        }
        Ok(resolved)
    }

    fn resolve(&mut self, t: TermId, resolved: &HashMap<TermId, TermId>) -> TermId {
        if resolved.is_empty() {
            return t;
        }
        substitute(&mut self.inp.st, t, resolved, &mut HashMap::new())
    }

    /// Merges assignments with one address term into one (value chosen by
    /// guard); `None` when they use several address terms.
    fn merge(&mut self, cas: &[&Assignment], resolved: &HashMap<TermId, TermId>) -> Option<Ca> {
        let first = cas.first()?;
        if cas.iter().any(|c| c.off != first.off) {
            return None;
        }
        let mut guard = self.resolve(first.guard, resolved);
        let mut value = self.resolve(first.value, resolved);
        for c in &cas[1..] {
            let g = self.resolve(c.guard, resolved);
            let v = self.resolve(c.value, resolved);
            value = self.inp.st.ite(g, v, value);
            guard = self.inp.st.or(&[guard, g]);
        }
        let off = self.resolve(first.off, resolved);
        Some(Ca { guard, off, value })
    }

    /// The one assignment of kernel `k` to buffer `p`, resolved; `None`
    /// when `k` does not write `p`.
    fn output_ca(&mut self, k: KernelRef, run: &ThreadRun, resolved: &HashMap<TermId, TermId>, p: usize) -> Res<Option<Ca>> {
        let name = &k.func().params[p].name;
        let cas: Vec<&Assignment> = run.cas.iter().filter(|c| c.target == Target::Param(p)).collect();
        let Some(first) = cas.first() else { return Ok(None) };
        if cas.iter().any(|c| c.interval != first.interval) {
            return na(format!("`{}` writes `{name}` in several barrier intervals", k.func().name));
        }
        let Some(ca) = self.merge(&cas, resolved) else {
            return na(format!("`{}` writes `{name}` through several address terms", k.func().name));
        };
        // Everything must be a term over the thread, the launch and the
        // inputs: anything else (an unresolved read, private memory, an
        // undefined value) is outside the encoding.
        let syms = self.inp.st.free_symbols(&[ca.guard, ca.off, ca.value]);
        for f in syms.funs {
            let d = self.inp.st.fun(f);
            let ok = !d.args.is_empty()
                || ["tid.", "blockIdx.", "blockDim.", "gridDim.", "arg", "buffer"].iter().any(|p| d.name.starts_with(p));
            if !ok {
                return na(format!("the value `{}` writes to `{name}` depends on `{}`, which the one-thread proof does not model", k.func().name, d.name));
            }
        }
        Ok(Some(ca))
    }

    /// A model of the last satisfiable query, as a candidate for the
    /// interpreter, with the block size the solver chose.
    fn candidate(&mut self, t: Inst, what: String) -> Res<(Candidate, [u32; 3])> {
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        let mut terms: Vec<TermId> = Vec::new();
        terms.extend(t.bid);
        terms.extend(self.inp.num_groups);
        terms.extend(self.inp.local_size);
        let scalars: Vec<TermId> = self.inp.scalars.iter().flatten().copied().collect();
        terms.extend(&scalars);
        let values = self.solver.get_value(&self.inp.st, &terms).map_err(err)?;
        let num = |i: usize| values.get(i).and_then(|v| v.as_u128()).unwrap_or(1) as u64;
        let mut k = 9;
        let mut sc = Vec::new();
        for s in &self.inp.scalars {
            sc.push(s.map(|_| {
                let v = values.get(k).and_then(|v| v.as_u128()).unwrap_or(0);
                k += 1;
                v
            }));
        }
        let group = [num(6) as u32, num(7) as u32, num(8) as u32];
        Ok((Candidate { what, group_id: [num(0), num(1), num(2)], num_groups: [num(3), num(4), num(5)], scalars: sc }, group))
    }
}

/// An upper bound of a 64-bit offset built from zero-extended 32-bit
/// values, literals, `+` and `*`, when the bound shows that the term
/// cannot wrap around; `None` otherwise.
fn bound64(st: &TermStore, t: TermId) -> Option<u128> {
    let limit = u64::MAX as u128;
    if let Some(v) = st.as_bv(t).and_then(|v| v.to_u128()) {
        return Some(v);
    }
    let TermKind::App(op, args) = st.kind(t) else { return None };
    let b = match (op, &args[..]) {
        (Op::ZeroExtend(n), [g]) => {
            let w = st.sort_of(*g).bv_width()?;
            let _ = n;
            if w > 32 {
                return None;
            }
            (1u128 << w) - 1
        }
        (Op::BvAdd, [x, y]) => bound64(st, *x)?.checked_add(bound64(st, *y)?)?,
        (Op::BvMul, [x, y]) => bound64(st, *x)?.checked_mul(bound64(st, *y)?)?,
        _ => return None,
    };
    (b <= limit).then_some(b)
}

/// Does `t` multiply, divide or take the remainder of two 64-bit non-literals?
fn has_nonlinear(st: &TermStore, t: TermId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if let TermKind::App(op, args) = st.kind(x) {
            let lit = |y: TermId| st.as_bv(y).is_some();
            let wide = st.sort_of(x).bv_width() == Some(64);
            if wide && matches!(op, Op::BvMul | Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem) && args.iter().all(|&a| !lit(a)) {
                return true;
            }
            stack.extend(args.iter().copied());
        }
    }
    false
}

/// `t` with every multiplication, division and remainder of two
/// non-literal operands replaced by a fresh constant (the same one for the
/// same term). The result is implied by `t` being satisfiable, so an
/// `unsat` answer for it is one for `t`; it avoids nonlinear bit-vector
/// arithmetic when the facts at stake do not need it.
fn abstract_nonlinear(st: &mut TermStore, t: TermId, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let lit = |st: &TermStore, x: TermId| st.as_bv(x).is_some();
            let nonlinear = matches!(op, Op::BvMul | Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem)
                && args.len() == 2
                && !lit(st, args[0])
                && !lit(st, args[1]);
            if nonlinear {
                let sort = st.sort_of(t).clone();
                st.fresh_const("nonlinear", sort)
            } else {
                let new: Vec<TermId> = args.iter().map(|&a| abstract_nonlinear(st, a, memo)).collect();
                if new[..] == args[..] {
                    t
                } else {
                    st.app(op, &new)
                }
            }
        }
        _ => t,
    };
    memo.insert(t, r);
    r
}

/// `t` with the constants in `map` replaced.
pub fn substitute(st: &mut TermStore, t: TermId, map: &HashMap<TermId, TermId>, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if let Some(&r) = map.get(&t) {
        return r;
    }
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = match st.kind(t).clone() {
        TermKind::App(op, args) => {
            let new: Vec<TermId> = args.iter().map(|&a| substitute(st, a, map, memo)).collect();
            if new[..] == args[..] {
                t
            } else {
                st.app(op, &new)
            }
        }
        TermKind::ConstArray(v) => {
            let nv = substitute(st, v, map, memo);
            if nv == v {
                t
            } else {
                let index = st.sort_of(t).array_parts().expect("array").0.clone();
                st.const_array(index, nv)
            }
        }
        _ => t,
    };
    memo.insert(t, r);
    r
}
