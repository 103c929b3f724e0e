//! Case splits of a loop's back-edge obligations on thread 1's logging
//! choices.
//!
//! Every logged access updates its race log with one nondeterministic
//! choice `c` (thread 1 logs this access or keeps what it had): each field
//! of the log becomes `ite(c, new, old)`, named. A race-log candidate
//! (`access-offset`, `init-bound` of a ghost, `no-access`...) checked on the
//! back edge is a formula over those fields, and its two cases are simple:
//! with `c` true the fields are the access just made and the candidate
//! usually folds to `true` (a logged offset `f(ghosts)` with the ghosts set
//! to the loop's current values is thread 1's offset itself, the same
//! term), and with `c` false they are the loop head's, where the candidate
//! is assumed, a propositional step. z3 does not see this: the fields are names, the offsets go
//! through uninterpreted products (`row * cols`), and its incremental core
//! does not apply congruence through the `ite` before it gives up (a
//! softmax kernel's row-loop and output-loop queries ran out of their work
//! limit and cost 4M units each in the bit-blasting fallback). Splitting
//! the obligation on the choices it depends on, with the names along the
//! way expanded, lets the term store's simplifier decide the first case.
//!
//! The split is Shannon's expansion, `p == ite(c, p[c := true], p[c :=
//! false])`, or `ite(c, p[c := true], p)`, equivalences: the obligation's
//! meaning, and so the proof, does not change. Only cases that fold are
//! split off (see `shannon`); otherwise `p` stays, whose names keep it
//! small.

use super::*;

/// The most choices one obligation is split on: the split can double the
/// obligation's size per choice when its cases do not fold.
const MAX_SPLITS: usize = 3;

/// The most terms a case may have and still count as folded (see
/// `shannon`).
const FOLDED_SIZE: usize = 24;

impl Enc<'_> {
    /// `p`, split on the logging choices that reach it through names (see
    /// the module's documentation); `p` itself when none does, or too many.
    pub(crate) fn split_on_log_choices(&mut self, p: TermId) -> TermId {
        if self.log_choices.is_empty() {
            return p;
        }
        let choices = self.choices_reaching(p);
        if choices.is_empty() || choices.len() > MAX_SPLITS {
            return p;
        }
        self.shannon(p, &choices)
    }

    /// `p` split on `choices` in turn: `ite(c, p[c := true], p[c :=
    /// false])` when both cases fold (to a literal, or to a term no larger
    /// than `p`: a ghost's bound `g >= start` becoming the loop's own `c >=
    /// start`, or the candidate over the loop head's log, which the head
    /// assumes), `ite(c, p[c := true], p)` when only the first does (with
    /// `c` true, `p` is its first case; otherwise it stays `p`), and `p`
    /// when neither does: a case whose expanded names did not fold would
    /// only make the obligation larger.
    fn shannon(&mut self, p: TermId, choices: &[TermId]) -> TermId {
        let Some((&c, rest)) = choices.split_first() else { return p };
        if self.st.as_bool(p).is_some() {
            return p;
        }
        let limit = dag_size(&self.st, p, FOLDED_SIZE).max(FOLDED_SIZE / 2);
        let mut cases = [p; 2];
        let mut folded = [false; 2];
        for (i, value) in [true, false].into_iter().enumerate() {
            let v = self.st.bool_const(value);
            let mut memo = HashMap::new();
            cases[i] = self.assign_choice(p, c, v, &mut memo);
            folded[i] = self.st.as_bool(cases[i]).is_some() || dag_size(&self.st, cases[i], FOLDED_SIZE) <= limit;
        }
        match folded {
            [true, true] => {
                let yes = self.shannon(cases[0], rest);
                let no = self.shannon(cases[1], rest);
                self.st.ite(c, yes, no)
            }
            [true, false] => {
                let yes = self.shannon(cases[0], rest);
                let no = self.shannon(p, rest);
                self.st.ite(c, yes, no)
            }
            _ => self.shannon(p, rest),
        }
    }

    /// `t` with the choice `c` replaced by `v`, in `t` and in the
    /// definitions of the names `t` mentions that `c` reaches (those names
    /// are replaced by their rewritten definitions; the others are kept).
    fn assign_choice(&mut self, t: TermId, c: TermId, v: TermId, memo: &mut HashMap<TermId, TermId>) -> TermId {
        if t == c {
            return v;
        }
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let r = match self.st.kind(t).clone() {
            TermKind::Const(_) => match self.named.get(&t).copied() {
                Some(def) if self.choices_reaching(def).contains(&c) => self.assign_choice(def, c, v, memo),
                _ => t,
            },
            TermKind::App(op, args) => {
                let new: Vec<TermId> = args.iter().map(|&a| self.assign_choice(a, c, v, memo)).collect();
                if new == args.to_vec() {
                    t
                } else {
                    self.st.app(op, &new)
                }
            }
            _ => t,
        };
        memo.insert(t, r);
        r
    }

    /// The logging choices that `t` mentions, directly or through the
    /// definitions of the names it mentions, in the order they were made.
    fn choices_reaching(&mut self, t: TermId) -> Vec<TermId> {
        if let Some(found) = self.choice_reach.get(&t) {
            return found.clone();
        }
        // An explicit stack: the names of a kernel chain deeply.
        let mut stack = vec![(t, false)];
        while let Some((u, children_done)) = stack.pop() {
            if self.choice_reach.contains_key(&u) {
                continue;
            }
            let children: Vec<TermId> = match self.st.kind(u) {
                TermKind::Const(_) => self.named.get(&u).copied().into_iter().collect(),
                TermKind::App(_, args) => args.to_vec(),
                _ => Vec::new(),
            };
            if !children_done {
                stack.push((u, true));
                for &ch in &children {
                    if !self.choice_reach.contains_key(&ch) {
                        stack.push((ch, false));
                    }
                }
                continue;
            }
            let mut found: Vec<TermId> = Vec::new();
            if self.log_choices.contains(&u) {
                found.push(u);
            }
            for ch in children {
                for &c in self.choice_reach.get(&ch).map(|v| v.as_slice()).unwrap_or(&[]) {
                    if !found.contains(&c) {
                        found.push(c);
                    }
                }
            }
            found.sort();
            self.choice_reach.insert(u, found);
        }
        self.choice_reach.get(&t).cloned().unwrap_or_default()
    }
}

/// The number of distinct terms in `t` (not looking through names), up to
/// `limit + 1`.
fn dag_size(st: &lockstep_smt::TermStore, t: TermId, limit: usize) -> usize {
    let mut seen = HashSet::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if seen.len() > limit {
            break;
        }
        if !seen.insert(u) {
            continue;
        }
        if let TermKind::App(_, args) = st.kind(u) {
            stack.extend(args.iter().copied());
        }
    }
    seen.len()
}
