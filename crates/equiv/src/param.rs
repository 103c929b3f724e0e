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
//! Loops unroll while their conditions are literals. A loop with a barrier
//! whose trip count depends on a symbolic block size (a tree reduction)
//! makes the one-thread run give up; the two kernels' loops are then
//! *aligned* (PUG_para's loop matching, [`sym::LoopRun`]): each thread runs
//! into the loop, through one arbitrary iteration, and out of it, with the
//! loop counter and the `__shared__` contents at the iteration's start and
//! after the loop as symbols both kernels share. `check_aligned_loops`
//! proves the induction that justifies the sharing: the loops run the same
//! iterations (counters that start, step and stop alike; counter invariants
//! inferred Houdini-style restrict the arbitrary iteration to reachable
//! counters), both kernels enter the loop with the same shared contents,
//! and an iteration that starts from the same contents ends with the same
//! contents. Loops that do not align (a reduction counting down against
//! one counting up) are left to the bounded proof:
//! [`power_of_two_block_sizes`] proves from the preconditions that
//! `blockDim.x` is a power of two (at most eleven sizes up to 1024), and
//! the caller runs the bounded proof for each.
//!
//! A loop without a barrier whose trip count is symbolic (a row sum over
//! `n` columns, and the same loop unrolled with a remainder loop) is
//! summarised instead ([`sym::LoopSummary`]): `summaries` proves that every
//! such loop of both kernels computes one recurrence, so that the values
//! after the loops are the recurrence's at the counters they stop at.
//!
//! Integers are exact 32-bit (or their C width) bit-vectors. Two launch
//! facts are assumed and reported: global ids do not wrap (gridDim ×
//! blockDim < 2^32 in each dimension) and the 32-bit additions and
//! multiplications that compute the addresses of writes do not wrap either
//! (otherwise two threads can write one element: a race).

mod inplace;
mod iterations;
mod loops;
mod post;
mod cover;
mod several;
mod shifts;
mod sizes;
mod solve;
mod summaries;
mod terms;
mod witness;

pub use sizes::power_of_two_block_sizes;
pub(crate) use terms::{abstract_nonlinear, abstract_nonlinear_uf};
pub use terms::substitute;
use terms::{affine_index, bound64, fold_under, has_nonlinear, has_product, row_major, magnitude64, no_wrap, sample_points};

use std::collections::{HashMap, HashSet};

use lockstep_kir::Type;
use lockstep_smt::{Op, SatResult, Solver, Sort, TermId, TermKind, TermStore};

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
    /// The iteration of a kernel's iterated loop ([`sym::LoopIteration`]),
    /// part of the thread's identity when some kernel has one.
    q: Option<TermId>,
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
    /// Loop counters proved non-zero powers of two, and the shifts that
    /// stand for them in every query ([`shifts`]).
    shifts: HashMap<TermId, TermId>,
    shift_memo: HashMap<TermId, TermId>,
    /// An output was compared element by element ([`cover`]), which
    /// assumes that the conditions of its writes do not wrap around.
    cover_used: bool,
    /// Row-major forms of write addresses proved to have their column
    /// below the width, by address and guard ([`Prover::digits`]).
    digit_memo: HashMap<(TermId, TermId), Option<terms::RowMajor>>,
    /// The kernels' iterated loops with an unsigned counter
    /// ([`sym::LoopIteration`]), for the candidate writers of [`cover`]
    /// that invert a grid-stride counter.
    iter_loops: Vec<sym::LoopIteration>,
    /// How many solver processes the proof has started, which numbers
    /// their logs (`LOCKSTEP_EQUIV_LOG=PATH` writes `PATH.N` per process,
    /// so that each query can be timed with the solver alone).
    query_log: Option<std::path::PathBuf>,
    log_seq: usize,
}

/// The limit of a digit-bound query ([`Prover::digits`]), in milliseconds
/// of the solver's work: those that hold take 20-60 ms.
const DIGIT_LIMIT_MS: u64 = 500;

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

fn prove_inner(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Res<ParamOutcome> {
    let inline = |k: KernelRef| {
        lockstep_analysis::inline_calls(k.module, k.kernel)
            .map(|i| i.function)
            .map_err(|e| (format!("cannot inline the calls of `{}`: {e}", k.func().name), None))
    };
    let kernels: Vec<KernelRef> = std::iter::once(a).chain(b).collect();
    let funcs: Vec<lockstep_kir::Function> = kernels.iter().map(|k| inline(*k)).collect::<Res<_>>()?;
    let params: Vec<Type> = funcs[0].params.iter().map(|p| p.ty).collect();
    let mut inp = Inputs::new_param(config.group_size, config.num_groups, &params);
    inp.fix_scalars(&config.scalar_args);
    inp.floats = config.floats;
    let mut sconf = config.solver_config(config.query_timeout);
    let query_log = std::env::var_os("LOCKSTEP_EQUIV_LOG").map(std::path::PathBuf::from);
    if let Some(path) = &query_log {
        sconf = sconf.with_log(path);
    }
    let solver = Solver::spawn(sconf)
        .map_err(|e| (format!("cannot start the solver: {e}"), None))?;
    let base_inst = Inst { tid: inp.local_id.expect("one-thread inputs"), bid: inp.group_id, q: None };
    let tru = inp.st.true_();
    let mut pr = Prover { inp, solver, base: Vec::new(), per_thread: Vec::new(), base_inst, config, label: "", block_product: tru, shifts: HashMap::new(), shift_memo: HashMap::new(), cover_used: false, digit_memo: HashMap::new(), iter_loops: Vec::new(), query_log, log_seq: 0 };
    pr.launch_facts();

    // Loop branches are pruned with the launch facts and, so that a
    // grid-stride index cannot wrap around, at most 2^31 threads in each
    // dimension (an assumption, reported when a path was dropped).
    let mut prune_facts = pr.base.clone();
    let t = pr.base_inst;
    prune_facts.push(pr.valid(t));
    for d in 0..3 {
        let st = &mut pr.inp.st;
        let (bd, gd) = (pr.inp.local_size[d], pr.inp.num_groups[d]);
        let (b64, g64) = (st.zero_extend(32, bd), st.zero_extend(32, gd));
        let total = st.bvmul(b64, g64);
        let lim = st.bv_const(64, 1u128 << 31);
        prune_facts.push(st.bvule(total, lim));
        // The same facts on the 32-bit terms kernels compute (in both
        // operand orders), which stay linear once the pruner abstracts
        // the products: the grid's size is at most 2^31, and a global id
        // is below it.
        let lim32 = st.bv_const(32, 1u128 << 31);
        for total in [st.bvmul(bd, gd), st.bvmul(gd, bd)] {
            prune_facts.push(st.bvule(total, lim32));
            for base in [st.bvmul(t.bid[d], bd), st.bvmul(bd, t.bid[d])] {
                let last = st.app(lockstep_smt::Op::BvSub, &[total, bd]);
                prune_facts.push(st.bvule(base, last));
                for gid in [st.bvadd(base, t.tid[d]), st.bvadd(t.tid[d], base)] {
                    prune_facts.push(st.bvult(gid, total));
                }
            }
        }
    }
    let mut runs: Vec<ThreadRun> = Vec::new();
    let mut failed = None;
    for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
        // A short timeout: a path the solver cannot drop quickly is kept.
        let quick = config.solver_config(config.query_timeout.min(std::time::Duration::from_secs(2)));
        let pruner = sym::Pruner::new(f, quick, prune_facts.clone());
        match sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp).with_pruning(pruner).run_param() {
            Ok(r) => runs.push(r),
            Err(u) => {
                failed = Some((format!("`{}`: {}", k.func().name, u.what), k.describe(u.loc)));
                break;
            }
        }
    }
    crate::trace(&format!("one-thread runs: {}", if failed.is_some() { "failed" } else { "done" }));
    // A loop without a barrier whose trip count is symbolic: summarise it
    // (one arbitrary iteration, related to the other kernel's loops by
    // `summaries`) instead of unrolling it.
    if failed.is_some() {
        let mut again: Vec<ThreadRun> = Vec::new();
        for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
            let quick = config.solver_config(config.query_timeout.min(std::time::Duration::from_secs(2)));
            let pruner = sym::Pruner::new(f, quick, prune_facts.clone());
            match sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp).with_pruning(pruner).with_summaries().run_param() {
                Ok(r) => again.push(r),
                Err(_) => break,
            }
        }
        crate::trace(&format!("one-thread runs with loop summaries: {}", if again.len() == kernels.len() { "done" } else { "failed" }));
        if again.len() == kernels.len() && again.iter().any(|r| !r.summaries.is_empty()) {
            runs = again;
            failed = None;
        }
    }
    // A loop with writes whose trip count is symbolic (a grid-stride loop
    // over rows, each with an inner loop): each iteration as a thread of
    // its own (`sym/iterate.rs`), with summaries inside it.
    if failed.is_some() && b.is_some() {
        let mut again: Vec<ThreadRun> = Vec::new();
        for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
            let quick = config.solver_config(config.query_timeout.min(std::time::Duration::from_secs(2)));
            let pruner = sym::Pruner::new(f, quick, prune_facts.clone());
            match sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp).with_pruning(pruner).with_summaries().with_iterations().run_param() {
                Ok(r) => again.push(r),
                Err(u) => {
                    crate::trace(&format!("one-thread run with iterated loops: `{}`: {}", k.func().name, u.what));
                    break;
                }
            }
        }
        crate::trace(&format!("one-thread runs with iterated loops: {}", if again.len() == kernels.len() { "done" } else { "failed" }));
        if again.len() == kernels.len() && again.iter().any(|r| r.iteration.is_some()) {
            runs = again;
            failed = None;
            pr.iterated(&kernels, &runs)?;
        }
    }
    if let Some(why) = failed {
        // A loop with a barrier whose trip count is symbolic cannot be
        // unrolled: align the two kernels' loops instead (PUG_para).
        if b.is_none() || !funcs.iter().all(|f| sym::barrier_loop(f).is_some()) {
            return Err(why);
        }
        runs.clear();
        for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
            let r = sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp).run_param_aligned().map_err(|u| {
                (format!("{}; aligning its loop with a barrier: `{}`: {}", why.0, k.func().name, u.what), k.describe(u.loc))
            })?;
            runs.push(r);
        }
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
    let mut proved = Vec::new();
    pr.check_signed_counters(&kernels, &runs, &mut proved)?;
    let summary_assumptions = pr.check_summaries(&kernels, &runs, &mut proved)?;

    // A kernel that reads a buffer it writes reads it through the one
    // thread's own view, which `own_reads_only` justifies below (after the
    // shared reads are resolved). A buffer only the other kernel writes is
    // an input of this one.
    let writes = |r: &ThreadRun| -> HashSet<usize> {
        r.cas.iter().filter_map(|c| if let Target::Param(p) = c.target { Some(p) } else { None }).collect()
    };
    let written: HashSet<usize> = runs.iter().flat_map(writes).collect();
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

    let mut resolved = Vec::new();
    for (k, r) in kernels.iter().zip(&runs) {
        resolved.push(pr.resolve_shared(*k, r, &mut proved)?);
    }
    for ((k, r), res) in kernels.iter().zip(&runs).zip(&resolved) {
        if let Some(line) = pr.own_reads_only(*k, r, res)? {
            proved.push(line);
        }
    }
    for (r, res) in runs.iter_mut().zip(&resolved) {
        pr.settle_own_reads(r, res)?;
    }
    let aligned = runs.iter().any(|r| r.aligned.is_some());
    if let (Some(b), true) = (b, aligned) {
        if let Some(model) = pr.check_aligned_loops(a, b, &runs, &resolved, &mut proved)? {
            return Ok(ParamOutcome::Model(model.0, model.1));
        }
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
    if runs.iter().any(|r| r.pruned > 0) {
        assumptions.push("the grid has at most 2^31 threads in each dimension (a loop's index stepping by the grid's size does not wrap around)".to_string());
    }
    if pr.cover_used {
        assumptions.push("the 32-bit additions and multiplications in the conditions under which a thread writes an output element do not wrap around".to_string());
    }
    if aligned {
        assumptions.push(
            "no thread reads a `__shared__` element before some thread of its group writes it (the aligned-loop proof compares what the kernels write, not uninitialised contents)"
                .to_string(),
        );
    }
    assumptions.extend(summary_assumptions);
    let (lines, iter_assumptions) = pr.iteration_lines(&kernels, &runs);
    proved.splice(0..0, lines);
    assumptions.extend(iter_assumptions);
    assumptions.extend(pr.inp.float_assumptions());
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

impl Prover<'_> {
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
            let several = |r: &ThreadRun| {
                let offs: HashSet<TermId> = r.cas.iter().filter(|c| c.target == Target::Param(p)).map(|c| c.off).collect();
                offs.len() > 1
            };
            if several(&runs[0]) || several(&runs[1]) {
                if let Some(c) = self.compare_several(a, b, &runs[..2], &resolved[..2], p)? {
                    return Ok(Some(c));
                }
                proved.push(format!(
                    "`{name}`: distinct writes (thread and address) of each kernel write distinct elements, and every element one kernel writes the other writes with the same value"
                ));
                continue;
            }
            let ca = self.output_ca(a, &runs[0], &resolved[0], p)?;
            let cb = self.output_ca(b, &runs[1], &resolved[1], p)?;
            let (Some(ca), Some(cb)) = (ca, cb) else {
                return na(format!("only one of the kernels writes `{name}`"));
            };
            if let Some(c) = self.compare_cas(a, b, &name, &ca, &cb, false)? {
                return Ok(Some(c));
            }
            proved.push(format!(
                "`{name}`: distinct threads of each kernel write distinct elements, and every element one kernel writes the other writes with the same value"
            ));
        }
        Ok(None)
    }

    /// Do the conditional assignments `ca` of `a` and `cb` of `b` (one
    /// address term each) write the same elements of `name` with the same
    /// values? Each must write distinct elements from distinct threads (of
    /// one group when `same_group`, for `__shared__` memory; of the grid
    /// otherwise), and every element one writes the other must write, with
    /// the same value. `Ok(Some(..))` is a model in which a value differs.
    fn compare_cas(&mut self, a: KernelRef, b: KernelRef, name: &str, ca: &Ca, cb: &Ca, same_group: bool) -> Res<Option<(Candidate, [u32; 3])>> {
        if self.inp.st.sort_of(ca.value) != self.inp.st.sort_of(cb.value) {
            return na(format!("the kernels write `{name}` with elements of different widths"));
        }
        let queries = vec![self.injectivity_query(ca, same_group)?, self.injectivity_query(cb, same_group)?];
        self.label = "injective";
        for (k, r) in [a, b].into_iter().zip(self.sat_many(&queries)?) {
            match r {
                SatResult::Unsat => {}
                SatResult::Sat => {
                    return na(format!(
                        "the solver cannot prove that distinct threads of `{}` write distinct elements of `{name}` (a write-write race, or index arithmetic that wraps around)",
                        k.func().name
                    ))
                }
                SatResult::Unknown(why) => return na(format!("proving that writes go to distinct elements: the solver gave up ({why})")),
            }
        }
        let no_writer = |from: KernelRef, to: KernelRef| {
            na(format!(
                "cannot find, for an arbitrary thread of `{}` that writes `{name}`, the thread of `{}` that writes the same element",
                from.func().name,
                to.func().name
            ))
        };
        // A ⊆ B, with values.
        let t = self.fresh_inst("A", same_group);
        let Some(w) = self.witness(t, ca, cb, same_group)? else {
            return no_writer(a, b);
        };
        let va = self.at(ca.value, t);
        let vb = self.at(cb.value, w);
        let ga = self.at(ca.guard, t);
        let same = self.inp.st.eq(va, vb);
        let differ = self.inp.st.not(same);
        // B ⊆ A: its candidate writers, the first of which is checked
        // together with the values.
        let u = self.fresh_inst("B", same_group);
        let (gu, addr) = (self.at(cb.guard, u), self.at(cb.off, u));
        let (writers, writer_queries) = self.writer_queries(u, gu, addr, ca, same_group);
        // First without the context and with nonlinear arithmetic
        // abstracted: enough when the values agree as expressions.
        let abstracted = abstract_nonlinear(&mut self.inp.st, differ, &mut HashMap::new());
        self.label = "value (abstracted)";
        let quick = self.sat(&[abstracted])? == SatResult::Unsat;
        let mut facts = self.ctx(t);
        facts.push(ga);
        facts.extend(self.ctx(w));
        facts.push(differ);
        let mut first_writer = None;
        let value = if quick {
            SatResult::Unsat
        } else {
            self.label = "value and writer";
            let mut batch = vec![facts.clone()];
            batch.extend(writer_queries.first().cloned());
            // With an iterated loop, products abstracted first (fresh
            // constants, or functions of their operands): the values agree
            // once the per-thread facts are known, without the 64-bit
            // products of the iteration's counter; only `unsat` answers of
            // the abstraction count, the rest are asked again in full.
            // (Not otherwise: a value that really differs would pay for
            // two more rounds, as a reassociated sum did, 2 s more.)
            let answers = if self.base_inst.q.is_some() { self.sat_many_abstracted(&batch)? } else { self.sat_many(&batch)? };
            first_writer = answers.get(1).cloned();
            answers[0].clone()
        };
        match value {
            SatResult::Unsat => {}
            SatResult::Sat => {
                // A model, for the interpreter to confirm (rare: ask again).
                self.label = "value";
                return match self.model_small_first(&facts, t, format!("the solver found inputs on which `{name}` may differ"), true)? {
                    (SatResult::Sat, Some(mut c)) => {
                        c.0.opaque = self.inp.uninterpreted_in(differ);
                        Ok(Some(c))
                    }
                    _ => na(format!("the values written to `{name}` may differ")),
                };
            }
            SatResult::Unknown(why) => return na(format!("comparing the values written to `{name}`: the solver gave up ({why})")),
        }
        if self.pick_writer(&writers, &writer_queries, first_writer)?.is_none() {
            return no_writer(b, a);
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
        let q = b.q.map(|_| st.fresh_const(&format!("{tag}.iter.q"), Sort::bv(32)));
        Inst { tid, bid, q }
    }

    /// `t` (a term over the base thread) for thread `i`.
    fn at(&mut self, t: TermId, i: Inst) -> TermId {
        let mut map = HashMap::new();
        for d in 0..3 {
            map.insert(self.base_inst.tid[d], i.tid[d]);
            map.insert(self.base_inst.bid[d], i.bid[d]);
        }
        if let (Some(b), Some(q)) = (self.base_inst.q, i.q) {
            map.insert(b, q);
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

    /// Are the elements that `c` writes distinct for distinct threads (of
    /// one group when `same_group`, of the grid otherwise)?
    fn injective(&mut self, c: &Ca, same_group: bool) -> Res<bool> {
        let facts = self.injectivity_query(c, same_group)?;
        self.label = "injective";
        match self.sat(&facts)? {
            SatResult::Unsat => Ok(true),
            SatResult::Sat => Ok(false),
            SatResult::Unknown(why) => na(format!("proving that writes go to distinct elements: the solver gave up ({why})")),
        }
    }

    /// The query whose unsatisfiability shows that distinct threads (of
    /// one group when `same_group`) write distinct elements with `c`.
    fn injectivity_query(&mut self, c: &Ca, same_group: bool) -> Res<Vec<TermId>> {
        let (t1, t2) = (self.fresh_inst("i1", same_group), self.fresh_inst("i2", same_group));
        let mut facts = self.ctx(t1);
        facts.extend(self.ctx(t2));
        let mut diff = Vec::new();
        for d in 0..3 {
            diff.push(self.inp.st.eq(t1.tid[d], t2.tid[d]));
            diff.push(self.inp.st.eq(t1.bid[d], t2.bid[d]));
        }
        // Two iterations of one thread are distinct writers too, when the
        // writes depend on the iteration.
        if let (Some(b), Some(q1), Some(q2)) = (self.base_inst.q, t1.q, t2.q) {
            if self.mentions(&[c.guard, c.off, c.value], b) {
                diff.push(self.inp.st.eq(q1, q2));
            }
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
        Ok(facts)
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
        // An iteration of an iterated loop is part of the thread.
        let ids: Vec<TermId> = self.base_inst.tid.iter().chain(&self.base_inst.bid).chain(&self.base_inst.q).copied().collect();
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
                // Multiplying by a literal is injective when it cannot
                // wrap: unsigned (zero-extended indices) or signed
                // (sign-extended `int` indices, the usual `int i =
                // blockIdx.x * blockDim.x + threadIdx.x`).
                let st = &self.inp.st;
                let fits = width == 32 || (width == 64 && (bound64(st, f).is_some() || magnitude64(st, f).is_some()));
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

    /// The row-major form of the address `off` of a write made when
    /// `guard` holds ([`terms::row_major`]), with its column proved below
    /// its width for every writing thread: then two such addresses with
    /// the same chain and width are equal exactly when their rows and
    /// columns are (digits of one number, under the stated assumption that
    /// the index arithmetic of writes does not wrap around).
    fn digits(&mut self, off: TermId, guard: TermId) -> Res<Option<terms::RowMajor>> {
        if let Some(d) = self.digit_memo.get(&(off, guard)) {
            return Ok(d.clone());
        }
        let ids: HashSet<lockstep_smt::FunId> = self
            .base_inst
            .tid
            .iter()
            .chain(&self.base_inst.bid)
            .filter_map(|&i| match self.inp.st.kind(i) {
                TermKind::Const(f) => Some(*f),
                _ => None,
            })
            .collect();
        let uniform = |st: &TermStore, t: TermId| !st.free_symbols(&[t]).funs.iter().any(|f| ids.contains(f));
        let mut out = None;
        // A width that is a launch size (`blockIdx.x * blockDim.x`, a
        // global id) is rarely the matrix's: tried last, since refuting
        // its digit bound takes the solver long.
        let launch: Vec<TermId> = self.inp.local_size.iter().chain(&self.inp.num_groups).copied().collect();
        let mut forms = row_major(&mut self.inp.st, off, &uniform);
        forms.sort_by_key(|rm| launch.contains(&rm.width));
        for rm in forms {
            let t = self.base_inst;
            let mut facts = self.ctx(t);
            facts.push(guard);
            let below = self.inp.st.bvult(rm.col, rm.width);
            facts.push(self.inp.st.not(below));
            self.label = "digit bound";
            // Only a fast path depends on the answer: a short limit.
            if self.sat_within(&facts, std::time::Duration::from_millis(DIGIT_LIMIT_MS))? == SatResult::Unsat {
                out = Some(rm);
                break;
            }
        }
        self.digit_memo.insert((off, guard), out.clone());
        Ok(out)
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
                let v = self.read_of_several(k, &name, r, &writes, &resolved, unique.insert(r.global))?;
                resolved.insert(r.placeholder, v);
                continue;
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
        self.in_encoding(k, name, &ca)?;
        Ok(Some(ca))
    }

    /// Everything must be a term over the thread, the launch and the
    /// inputs: anything else (an unresolved read, private memory, an
    /// undefined value) is outside the encoding.
    fn in_encoding(&mut self, k: KernelRef, name: &str, ca: &Ca) -> Res<()> {
        let syms = self.inp.st.free_symbols(&[ca.guard, ca.off, ca.value]);
        for f in syms.funs {
            let d = self.inp.st.fun(f);
            let ok = !d.args.is_empty()
                || ["tid.", "blockIdx.", "blockDim.", "gridDim.", "arg", "buffer"].iter().any(|p| d.name.starts_with(p))
                // The aligned loop's symbols: its proof (done before the
                // outputs are compared) makes them common to both kernels.
                || d.name.starts_with("loop.")
                // The iteration of an iterated loop: part of the thread.
                || (d.name == "iter.q" && self.base_inst.q.is_some());
            if !ok {
                return na(format!("the value `{}` writes to `{name}` depends on `{}`, which the one-thread proof does not model", k.func().name, d.name));
            }
        }
        Ok(())
    }

    /// A model of the last satisfiable query, as a candidate for the
    /// interpreter, with the block size the solver chose.
    /// A model of the last satisfiable query, as a candidate for the
    /// interpreter, with the block size the solver chose and the input
    /// elements that `goal` reads.
    fn candidate(&mut self, t: Inst, what: String, goal: TermId) -> Res<(Candidate, [u32; 3])> {
        let err = |e: lockstep_smt::Error| (format!("solver error: {e}"), None);
        let mut terms: Vec<TermId> = Vec::new();
        terms.extend(t.bid);
        terms.extend(self.inp.num_groups);
        terms.extend(self.inp.local_size);
        let scalars: Vec<TermId> = self.inp.scalars.iter().flatten().copied().collect();
        terms.extend(&scalars);
        let reads = self.inp.buffer_reads(goal);
        for r in &reads {
            terms.extend([r.offset, r.value]);
        }
        let terms = self.prepare(&terms);
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
        let mut cells = Vec::new();
        for r in &reads {
            if let (Some(off), Some(v)) = (values.get(k).and_then(|v| v.as_u128()), values.get(k + 1).and_then(|v| v.as_u128())) {
                cells.push((r.param, off as u64, v, r.bits));
            }
            k += 2;
        }
        let group = [num(6) as u32, num(7) as u32, num(8) as u32];
        let candidate =
            Candidate { what, group_id: [num(0), num(1), num(2)], num_groups: [num(3), num(4), num(5)], scalars: sc, cells, opaque: false };
        Ok((candidate, group))
    }
}
