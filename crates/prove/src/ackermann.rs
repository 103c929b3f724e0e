//! Eager Ackermann expansion: chosen uninterpreted functions of a problem
//! are replaced by fresh constants, one per distinct argument list, with a
//! congruence lemma for every pair of applications of one function:
//! equal arguments give equal results.
//!
//! Why: z3's incremental core merges two bit-vector terms that are equal
//! bit for bit only lazily, so it may never apply congruence to `f(a)` and
//! `f(b)` when `a = b` follows from bit-level reasoning (an access offset
//! `4 * zext(a)` equal to `4 * zext(b)`). The race check of a grid-stride
//! loop at a large launch (`bench/kernels/race_free.cu` at 1024x65535) is
//! such a query: z3's core did not answer it in 20 s and its bit-blasting
//! fallback took 0.17 s; with the lemmas spelled out, the core answers it
//! in 0.05 to 0.14 s.
//!
//! Sound and complete: the expansion is equisatisfiable with the original
//! problem (Ackermann's reduction), and each constant keeps a name of its
//! own, so a model of the expansion is one of the original.
//!
//! Only functions with few applications are worth it (the lemmas grow with
//! the square of their number); the encoder chooses them.

use std::collections::HashMap;

use lockstep_smt::{FunId, Op, TermId, TermKind, TermStore};

use crate::encode::Problem;

/// The most applications expanded: the lemmas grow with the square of
/// their number (the conformance suites' most is 29, with 118 lemmas).
const MAX_APPLICATIONS: usize = 200;

/// Expands the applications of `funs` in every term `p` asserts or checks
/// (its definitions, assumption tree and obligations), adding the
/// congruence lemmas to its definitions. Returns false, changing nothing,
/// when there are more than `MAX_APPLICATIONS` of them.
pub(crate) fn expand(p: &mut Problem, funs: &[FunId]) -> bool {
    if funs.is_empty() {
        return false;
    }
    let roots = p.defs.iter().chain(p.nodes.iter().map(|n| &n.1)).chain(p.obligations.iter().map(|o| &o.cond));
    if count_applications(&p.st, roots.copied(), funs) > MAX_APPLICATIONS {
        return false;
    }
    let mut ex = Expander { funs, memo: HashMap::new(), apps: Vec::new() };
    for i in 0..p.defs.len() {
        p.defs[i] = ex.rewrite(&mut p.st, p.defs[i]);
    }
    for i in 0..p.nodes.len() {
        p.nodes[i].1 = ex.rewrite(&mut p.st, p.nodes[i].1);
    }
    for i in 0..p.obligations.len() {
        p.obligations[i].cond = ex.rewrite(&mut p.st, p.obligations[i].cond);
    }
    let lemmas = ex.lemmas(&mut p.st);
    if std::env::var_os("LOCKSTEP_PROVE_DEBUG").is_some() {
        eprintln!("ackermann: {} applications, {} congruence lemmas", ex.apps.len(), lemmas.len());
    }
    p.defs.extend(lemmas);
    true
}

/// The number of distinct applications of `funs` in the terms `roots`.
fn count_applications(st: &TermStore, roots: impl Iterator<Item = TermId>, funs: &[FunId]) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<TermId> = roots.collect();
    let mut count = 0;
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if let TermKind::App(op, args) = st.kind(t) {
            if matches!(op, Op::Apply(f) if funs.contains(f)) {
                count += 1;
            }
            stack.extend(args.iter().copied());
        }
    }
    count
}

/// One application met: its function, its (rewritten) arguments, and the
/// constant that stands for it.
struct App {
    fun: FunId,
    args: Vec<TermId>,
    result: TermId,
}

struct Expander<'a> {
    funs: &'a [FunId],
    /// Rewritten form of every term visited.
    memo: HashMap<TermId, TermId>,
    apps: Vec<App>,
}

impl Expander<'_> {
    fn rewrite(&mut self, st: &mut TermStore, t: TermId) -> TermId {
        if let Some(&r) = self.memo.get(&t) {
            return r;
        }
        let r = match st.kind(t).clone() {
            TermKind::App(op, args) => {
                let new: Vec<TermId> = args.iter().map(|&a| self.rewrite(st, a)).collect();
                match op {
                    Op::Apply(f) if self.funs.contains(&f) => self.constant_for(st, f, new),
                    _ if new[..] == args[..] => t,
                    _ => st.app(op, &new),
                }
            }
            _ => t,
        };
        self.memo.insert(t, r);
        r
    }

    /// The constant standing for `f(args)`: the same one for the same
    /// arguments, since terms are hash-consed.
    fn constant_for(&mut self, st: &mut TermStore, fun: FunId, args: Vec<TermId>) -> TermId {
        if let Some(app) = self.apps.iter().find(|a| a.fun == fun && a.args == args) {
            return app.result;
        }
        let decl = st.fun(fun);
        let prefix = format!("{}!app", decl.name);
        let sort = decl.ret.clone();
        let result = st.fresh_const(&prefix, sort);
        self.apps.push(App { fun, args, result });
        result
    }

    /// `args(a) = args(b) => a = b` for every pair of applications of one
    /// function, except the ones the store folds to true (arguments that
    /// are distinct constants).
    fn lemmas(&self, st: &mut TermStore) -> Vec<TermId> {
        let mut out = Vec::new();
        for (i, a) in self.apps.iter().enumerate() {
            for b in self.apps[..i].iter().filter(|b| b.fun == a.fun) {
                let eqs: Vec<TermId> = a.args.iter().zip(&b.args).map(|(&x, &y)| st.eq(x, y)).collect();
                let same_args = st.and(&eqs);
                let same_result = st.eq(a.result, b.result);
                let lemma = st.implies(same_args, same_result);
                if st.as_bool(lemma) != Some(true) {
                    out.push(lemma);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_smt::{SatResult, Solver, SolverConfig, SolverKind, Sort};

    fn sat(st: &TermStore, facts: &[TermId]) -> SatResult {
        let config = SolverConfig::new(SolverKind::Z3, std::time::Duration::from_secs(10));
        let mut solver = Solver::spawn(config).expect("z3 runs");
        for &f in facts {
            solver.assert(st, f).unwrap();
        }
        solver.check_sat().unwrap()
    }

    /// The expansion answers as the function does: `x = y` with
    /// `f(x) != f(y)` is still unsatisfiable (through the lemma), and
    /// `x != y` with `f(x) != f(y)` still satisfiable. The same
    /// application gets the same constant.
    #[test]
    fn the_expansion_is_equisatisfiable() {
        let mut st = TermStore::new();
        let f = st.declare_fun("f", &[Sort::bv(8)], Sort::bv(8));
        let x = st.declare_const("x", Sort::bv(8));
        let y = st.declare_const("y", Sort::bv(8));
        let fx = st.apply(f, &[x]);
        let fy = st.apply(f, &[y]);
        let differ = st.distinct(&[fx, fy]);
        let same_arg = st.eq(x, y);
        let other_arg = st.not(same_arg);
        let funs = [f];
        assert_eq!(count_applications(&st, [differ, fx].into_iter(), &funs), 2);
        let mut ex = Expander { funs: &funs, memo: HashMap::new(), apps: Vec::new() };
        let differ_x = ex.rewrite(&mut st, differ);
        assert_eq!(ex.apps.len(), 2);
        let again = ex.rewrite(&mut st, fx);
        assert_eq!(again, ex.apps[0].result);
        let lemmas = ex.lemmas(&mut st);
        assert_eq!(lemmas.len(), 1);
        for (arg_fact, expected) in [(same_arg, SatResult::Unsat), (other_arg, SatResult::Sat)] {
            assert_eq!(sat(&st, &[differ, arg_fact]), expected);
            let mut facts = lemmas.clone();
            facts.extend([differ_x, arg_fact]);
            assert_eq!(sat(&st, &facts), expected);
        }
    }
}
