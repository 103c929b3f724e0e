//! Read-modify-write outputs in the parameterized proof: a kernel that reads
//! a buffer it also writes (an in-place update `y[i] = a * x[i] + y[i]`, an
//! accumulation `c[i] += ...`).
//!
//! The one symbolic thread reads such a buffer through its own view: the
//! input contents with its own earlier writes ([`sym::GlobalRead`]). That
//! view is the real one exactly when no *other* thread of the launch writes
//! an element the thread reads, in any barrier interval: a write in an
//! earlier interval would be seen, one in the same interval is a race, and
//! one in a later interval is refused too (simpler, and no common kernel
//! needs it). This module proves that fact per read and per assignment of
//! the kernel to the buffer, a quantifier-free query over two arbitrary
//! distinct threads of the grid; when it fails the proof does not apply
//! (`y[i] = y[i + 1] + ...` reads what thread `i + 1` writes).
//!
//! In an iterated loop (several rows per thread, `y[r] += ...` in a
//! grid-stride loop) the writer is a thread and an iteration: a read in
//! the iteration sees the buffer as the loop found it plus its own
//! iteration's writes, which is the real view when no other iteration, of
//! this thread or another, writes the element.
//!
//! A thread that writes element `i` and then reads element `i + 1` of the
//! same buffer (two elements per thread, in place) reads
//! `select(store(y, i, v), i + 1)`. The solver then has to split cases on
//! whether the two 64-bit offsets meet, inside every query that compares
//! values, and it times out on a `half2` update against the scalar one
//! ([`Prover::settle_own_reads`] removes such stores once, with one small
//! query per store and read).

use std::collections::{HashMap, HashSet};

use lockstep_smt::{Op, SatResult, TermId, TermKind};

use super::{na, Prover, Res};
use crate::sym::{Target, ThreadRun};
use crate::KernelRef;

impl Prover<'_> {
    /// Shows, for kernel `k`, that no thread reads an element of a buffer
    /// that another thread of `k` writes. Returns the sentence for the
    /// proof's summary, or `None` when `k` reads no buffer it writes.
    pub(super) fn own_reads_only(&mut self, k: KernelRef, run: &ThreadRun, resolved: &HashMap<TermId, TermId>) -> Res<Option<String>> {
        let written: HashSet<usize> = run.cas.iter().filter_map(|c| if let Target::Param(p) = c.target { Some(p) } else { None }).collect();
        let reads: Vec<_> = run.global_reads.iter().filter(|r| written.contains(&r.param)).cloned().collect();
        if reads.is_empty() {
            return Ok(None);
        }
        let mut names: Vec<String> = Vec::new();
        for r in &reads {
            let name = k.func().params[r.param].name.clone();
            let pc = self.resolve(r.pc, resolved);
            let off = self.resolve(r.off, resolved);
            // The aligned loop's symbols stand for values of one group:
            // substituting another thread's ids would not give that
            // thread's values.
            let syms = self.inp.st.free_symbols(&[pc, off]);
            if r.in_loop || syms.funs.iter().any(|&f| self.inp.st.fun(f).name.starts_with("loop.")) {
                return Err((format!("`{}` reads the buffer `{name}` it writes inside its loop with a barrier", k.func().name), k.describe(r.loc)));
            }
            let writes: Vec<_> = run.cas.iter().filter(|c| c.target == Target::Param(r.param)).cloned().collect();
            for w in writes {
                let guard = self.resolve(w.guard, resolved);
                let woff = self.resolve(w.off, resolved);
                let syms = self.inp.st.free_symbols(&[guard, woff]);
                if syms.funs.iter().any(|&f| self.inp.st.fun(f).name.starts_with("loop.")) {
                    return Err((format!("`{}` writes `{name}` after its loop with a barrier, and also reads it", k.func().name), k.describe(r.loc)));
                }
                let t = self.base_inst;
                let u = self.fresh_inst("W", false);
                let mut facts = self.ctx(t);
                facts.extend(self.ctx(u));
                let mut same = Vec::new();
                for d in 0..3 {
                    same.push(self.inp.st.eq(t.tid[d], u.tid[d]));
                    same.push(self.inp.st.eq(t.bid[d], u.bid[d]));
                }
                // A read and a write in an iterated loop's iteration
                // ([`sym::LoopIteration`]): the writer is another one when
                // its thread or its iteration differs (the read sees only
                // its own iteration's writes). A read or a write outside
                // the loop belongs to the thread as a whole.
                if let (Some(q), Some(qt), Some(qu)) = (self.base_inst.q, t.q, u.q) {
                    if self.mentions(&[pc, off], q) && self.mentions(&[guard, woff], q) {
                        same.push(self.inp.st.eq(qt, qu));
                    }
                }
                let same = self.inp.st.and(&same);
                facts.push(self.inp.st.not(same));
                facts.push(pc);
                let gu = self.at(guard, u);
                facts.push(gu);
                if woff == off {
                    // The thread reads at its own write's address term:
                    // another thread writes the same element only if the
                    // address function takes one value at two threads.
                    // Its components (the injectivity proof's, with digit
                    // bounds proved for readers and writers alike) are
                    // linear where the address is not, which keeps the
                    // query easy.
                    let either = self.inp.st.or(&[pc, guard]);
                    let mut comps = Vec::new();
                    self.components(woff, either, &mut comps)?;
                    let mut eqs = Vec::new();
                    for c in comps {
                        let (ct, cu) = (self.at(c, t), self.at(c, u));
                        eqs.push(self.inp.st.eq(ct, cu));
                    }
                    let all = self.inp.st.and(&eqs);
                    facts.push(all);
                } else {
                    // Every access of a buffer has one width and an
                    // aligned offset (checked apart), so elements overlap
                    // only when their offsets are equal.
                    let ou = self.at(woff, u);
                    facts.push(self.inp.st.eq(off, ou));
                }
                self.label = "read of an element another thread writes";
                match self.sat(&facts)? {
                    SatResult::Unsat => {}
                    SatResult::Sat => {
                        return Err((
                            format!(
                                "`{}` reads an element of `{name}` that another thread may write, which the one-thread proof does not model",
                                k.func().name
                            ),
                            k.describe(r.loc),
                        ))
                    }
                    SatResult::Unknown(why) => {
                        return na(format!("proving that `{}` reads only elements of `{name}` no other thread writes: the solver gave up ({why})", k.func().name))
                    }
                }
            }
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let list = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
        if self.base_inst.q.is_some() {
            return Ok(Some(format!(
                "`{}`: no thread, nor iteration of its loop with writes, reads an element of {list} that another thread or iteration writes (each read sees the input or its own write)",
                k.func().name
            )));
        }
        Ok(Some(format!(
            "`{}`: no thread reads an element of {list} that another thread writes (each read sees the input or the thread's own write)",
            k.func().name
        )))
    }

    /// Reads of kernel `k`'s own writes that the thread's earlier stores
    /// cannot reach, settled once: `select(store(a, i, v), j)` becomes
    /// `select(a, j)` when the solver proves `i != j` for every thread of
    /// the launch that makes the read (its path condition, the per-thread
    /// facts), and `v` when `i` and `j` are the same term. Sound: the read
    /// only matters where its path condition holds, and there the two
    /// terms are equal; the queries that compare values then need no case
    /// split on the offsets. A store the solver cannot separate from the
    /// read stays.
    pub(super) fn settle_own_reads(&mut self, run: &mut ThreadRun, resolved: &HashMap<TermId, TermId>) -> Res<()> {
        let written: HashSet<usize> = run.cas.iter().filter_map(|c| if let Target::Param(p) = c.target { Some(p) } else { None }).collect();
        if !run.global_reads.iter().any(|r| written.contains(&r.param)) {
            return Ok(());
        }
        // The path conditions under which each read offset is read: a
        // select whose index no read records gets none (a weaker fact).
        let mut pcs: HashMap<TermId, Vec<TermId>> = HashMap::new();
        for r in run.global_reads.iter().filter(|r| written.contains(&r.param)) {
            let pc = self.resolve(r.pc, resolved);
            pcs.entry(r.off).or_default().push(pc);
        }
        let mut memo: HashMap<TermId, TermId> = HashMap::new();
        let mut cas = std::mem::take(&mut run.cas);
        let mut result = Ok(());
        for c in &mut cas {
            for t in [&mut c.guard, &mut c.off, &mut c.value] {
                match self.settle(*t, &pcs, &mut memo) {
                    Ok(n) => *t = n,
                    Err(e) => result = Err(e),
                }
            }
        }
        run.cas = cas;
        result
    }

    /// [`Self::settle_own_reads`] on one term.
    fn settle(&mut self, t: TermId, pcs: &HashMap<TermId, Vec<TermId>>, memo: &mut HashMap<TermId, TermId>) -> Res<TermId> {
        if let Some(&r) = memo.get(&t) {
            return Ok(r);
        }
        let TermKind::App(op, args) = self.inp.st.kind(t).clone() else { return Ok(t) };
        let mut new = Vec::with_capacity(args.len());
        for &a in &args {
            new.push(self.settle(a, pcs, memo)?);
        }
        let mut out = if new[..] == args[..] { t } else { self.inp.st.app(op.clone(), &new) };
        if matches!(op, Op::Select) && new.len() == 2 {
            let j = new[1];
            let mut array = new[0];
            loop {
                let TermKind::App(Op::Store, s) = self.inp.st.kind(array).clone() else { break };
                let [inner, i, v] = s[..] else { break };
                if i == j {
                    out = v;
                    break;
                }
                let base = self.base_inst;
                let mut facts = self.ctx(base);
                if let Some(p) = pcs.get(&args[1]).or_else(|| pcs.get(&j)) {
                    let any = self.inp.st.or(p);
                    facts.push(any);
                }
                facts.push(self.inp.st.eq(i, j));
                self.label = "own read past an own write";
                if self.sat(&facts)? != SatResult::Unsat {
                    break;
                }
                array = inner;
                out = self.inp.st.select(array, j);
            }
        }
        memo.insert(t, out);
        Ok(out)
    }
}
