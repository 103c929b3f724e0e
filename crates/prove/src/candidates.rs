//! Candidate loop invariants for Houdini, each produced by a tagged rule.
//!
//! Candidates are terms over the loop's havocked state (header parameters
//! and predicates of both threads, race logs and their ghosts) and over
//! values that are constant for the loop; the encoder instantiates them on
//! the entry, back-edge and post-loop states by substitution. A candidate is
//! only a guess: Houdini drops every one that is not inductive, so a wrong
//! rule costs precision, never soundness.
//!
//! Rules (GPUVerify's, section 4.3 of the seed chapter, adapted):
//!
//! | tag | candidate |
//! | --- | --- |
//! | `init-bound` | `x >= init`, `x <= init` (signed and unsigned) |
//! | `guard-bound` | `a <= b`, `a >= b` for loop conditions `a < b` etc.; `pe && stay => q`: a thread that reached the loop and passes its exit test is in it (in kernels that use `__enabled()`) |
//! | `stride` | `(x - init) % c == 0` for `x += c`, `x -= c`; `x % c == init % c` over an uninterpreted remainder when `c` is not a literal (a launch size, an argument) or a constant that is not a power of two (with facts for starts `base + k`, `k >= c`); `x % c == 0` for a constant `c > 1` when `x` does not start at 0; a negative literal step (`k--` is `k + -1`) counts as a step down by its magnitude |
//! | `linked-counters` | `(x - x0) * sy == (y - y0) * sx` for two counters stepping by constants `sx`, `sy` on the loop's one back edge (`k++` and `index += WIDTH`) |
//! | `pow2` | `x == 0 \|\| (x & (x - 1)) == 0` for `x *= 2`, `x /= 2`, shifts by one |
//! | `opposite-steps` | `x == x0 << k && y == y0 >> k` for some `k` up to the width, and the same with `y0 >> (k - 1) != 0` for `k > 0`, for a counter `x` doubled and a counter `y` halved on the loop's one back edge (a Blelloch scan's `stride <<= 1` with `active >>= 1`) |
//! | `last-iteration` | `HAS && SITE in loop && same_group => x == ghost_x << 1` (or `>> 1`), and `HAS && SITE not in loop && same_group => x == x0`, for a counter doubled (halved) on the loop's one back edge: a barrier in the body clears the log each time round |
//! | `uniform` | `x1 == x2`, `same_group => x1 == x2`, `q1 && q2 => x1 == x2`; `same_warp => x1 == x2` in loops of warp collectives |
//! | `pred-eq` | `q1 == q2`, `same_group => q1 == q2` (barriers in loops); `same_warp => q1 == q2` in loops of warp collectives (shuffle loops entered by whole warps, `if (warp == 0)`) |
//! | `no-access` | `!READ_HAS_OCCURRED_M` etc., and `same_group => !HAS` for `__shared__` objects |
//! | `access-offset` | `HAS && SITE == s => OFFSET == f_s(ghosts)` (and `VALUE == v_s(ghosts)` for writes that may be benign), `HAS && SITE == s => nowrap_s(ghosts)` (the no-wrap promises of the arithmetic of the site's address), `HAS && SITE == s => guards_s(ghosts)` (the conjuncts of thread 1's predicate at the site that name no loop's current state: a column guard `col < n` over values constant for the loop), `HAS => SITE in {...}` |
//! | `log-width` | `HAS => WIDTH in {...}`: the widths of the accesses that may have been logged (none: `!HAS`); `HAS => OFFSET % WIDTH == 0` for one power-of-two width |
//!
//! The rules `init-bound`, `guard-bound`, `stride`, `linked-counters` and
//! `pow2` are also
//! applied to the ghost copies of the loop counters in each log (guarded by
//! the log's `HAS`), under the same tag: the counters of the loop, of the
//! loops around it (with their `guard-bound` candidates too, which their
//! own lists only get once they are encoded, after this loop), and of the
//! loops inside it (where the candidate does not mention the inner loop's
//! own start, or mentions a start computed from values constant for this
//! loop: `Enc::expand_names`). Where the log may also hold
//! accesses from elsewhere (an earlier loop's, seen by a thread of another
//! group), each is also proposed guarded by the loop's sites (`HAS && SITE
//! in {...} => g`), and the counter candidates of an earlier loop are
//! proposed for the accesses logged at its sites.
//!
//! With inference off (`--no-infer`), only the `pred-eq` and `uniform`
//! candidates that the static uniformity analysis vouches for are proposed
//! (GPUVerify knows uniform loops without inferring anything), and the
//! `log-width` ones: GPUVerify's logs have no width (they hold element
//! indices), so a user's invariants about logged offsets cannot mention it
//! and would not be enough without it. Houdini still checks them all.

use std::collections::HashMap;

use lockstep_kir::{BinOp, InstId, InstKind, MemSpace, Terminator, ValueDef, ValueId};
use lockstep_smt::TermId;

use crate::encode::{Enc, LoopState, Sym};
use crate::race::AccessKind;

/// Every rule tag, for `--disable-rule` style options and reports.
pub const RULES: &[&str] =
    &["init-bound", "guard-bound", "stride", "linked-counters", "pow2", "opposite-steps", "last-iteration", "uniform", "pred-eq", "no-access", "access-offset", "log-width"];

/// A per-thread candidate about loop counters: `t[i]` is thread `i+1`'s
/// instance, over that thread's header parameters.
#[derive(Clone, Debug)]
pub struct ParamCand {
    pub tag: &'static str,
    pub text: String,
    pub t: [TermId; 2],
}

impl Enc<'_> {
    fn rule_on(&self, tag: &str) -> bool {
        !self.config.no_infer && !self.config.disabled_rules.iter().any(|d| d == tag)
    }

    fn sym_term(s: Sym) -> TermId {
        match s {
            Sym::Bool(x) | Sym::Bv(x) => x,
            Sym::Ptr { off, .. } => off,
        }
    }

    /// The value of `v` if it is constant for loop `l` (defined outside it).
    fn loop_constant(&mut self, l: usize, v: ValueId, t: usize) -> Option<TermId> {
        if let ValueDef::Inst(i) = &self.func.values[v].def {
            // Thread-geometry builtins are the same wherever they are read.
            if let InstKind::Builtin { var, dim } = self.func.insts[*i].kind {
                let d = (dim as usize).min(2);
                let x = match var {
                    lockstep_kir::BuiltinVar::LocalId => self.lid[t][d],
                    lockstep_kir::BuiltinVar::GroupId => self.gid[t][d],
                    lockstep_kir::BuiltinVar::LocalSize => self.gs[d],
                    lockstep_kir::BuiltinVar::NumGroups => self.ng[d],
                    lockstep_kir::BuiltinVar::GlobalOffset => self.st.bv_const(32, self.config.global_offset[d] as u32 as u128),
                };
                let w = self.func.value_type(v).bits();
                let w0 = self.st.sort_of(x).bv_width().unwrap_or(32);
                return Some(if w == w0 { x } else if w > w0 { self.st.zero_extend(w - w0, x) } else { self.st.extract(w - 1, 0, x) });
            }
        }
        let outside = match &self.func.values[v].def {
            ValueDef::Inst(i) => {
                let b = self.func.blocks.iter().find(|(_, blk)| blk.insts.contains(i)).map(|(b, _)| b)?;
                !self.loops.loops[l].blocks.contains(&b)
            }
            ValueDef::BlockParam(b, _) => !self.loops.loops[l].blocks.contains(b),
            _ => true,
        };
        if !outside {
            // Pure arithmetic on loop constants is a loop constant (say,
            // `(int) get_local_size(0)` computed inside the loop).
            let ValueDef::Inst(i) = self.func.values[v].def else { return None };
            let sym = |_: &mut Self, x: TermId, ty: lockstep_kir::Type| {
                if ty == lockstep_kir::Type::BOOL {
                    Sym::Bool(x)
                } else {
                    Sym::Bv(x)
                }
            };
            return match self.func.insts[i].kind.clone() {
                InstKind::Cast { op, arg } => {
                    let from = self.func.value_type(arg);
                    if from.is_ptr() || from.is_float() {
                        return None;
                    }
                    let a = self.loop_constant(l, arg, t)?;
                    let a = sym(self, a, from);
                    let r = self.cast(op, a, from, self.func.value_type(v));
                    Some(Self::sym_term(r))
                }
                InstKind::Binary { op, lhs, rhs } => {
                    let ty = self.func.value_type(lhs);
                    let a = self.loop_constant(l, lhs, t)?;
                    let b = self.loop_constant(l, rhs, t)?;
                    let (a, b) = (sym(self, a, ty), sym(self, b, ty));
                    let r = self.binary(op, a, b);
                    Some(Self::sym_term(r))
                }
                _ => None,
            };
        }
        let s = self.val(t, v).ok()?;
        Some(Self::sym_term(s))
    }

    /// Candidates about the header parameters of loop `l` that depend only
    /// on the loop's shape (computed when the loop state is created).
    pub(crate) fn param_candidates(&mut self, l: usize) -> Vec<ParamCand> {
        let mut out = Vec::new();
        let header = self.loops.loops[l].header;
        let state = self.loop_data[l].state.clone().expect("loop state");
        let entry = self.loop_data[l].entry.clone().expect("loop entry");
        let params = self.func.blocks[header].params.clone();
        // The back-edge arguments of each parameter.
        let mut updates: Vec<Vec<ValueId>> = vec![Vec::new(); params.len()];
        for &b in &self.loops.loops[l].blocks.clone() {
            for call in self.func.blocks[b].term.block_calls() {
                if call.block == header {
                    for (k, &a) in call.args.iter().enumerate() {
                        updates[k].push(a);
                    }
                }
            }
        }
        // Per parameter, its step when its one back-edge value is it plus
        // or minus a literal (for `linked_counters`).
        let mut literal_steps: Vec<Option<TermId>> = vec![None; params.len()];
        // The parameters doubled and those halved on the back edge (for
        // `opposite_steps`).
        let mut doubled = Vec::new();
        let mut halved = Vec::new();
        for (k, &p) in params.iter().enumerate() {
            let Sym::Bv(_) = state.hp[0][k] else { continue };
            let x = [Self::sym_term(state.hp[0][k]), Self::sym_term(state.hp[1][k])];
            let init = [Self::sym_term(entry.hp[0][k]), Self::sym_term(entry.hp[1][k])];
            let name = self.func.values[p].name.clone().unwrap_or_else(|| format!("{p}"));
            if self.rule_on("init-bound") {
                type Cmp = fn(&mut lockstep_smt::TermStore, TermId, TermId) -> TermId;
                let cmps: [(&str, Cmp); 4] = [
                    (">=u", |s, a, b| s.bvuge(a, b)),
                    ("<=u", |s, a, b| s.bvule(a, b)),
                    (">=s", |s, a, b| s.bvsge(a, b)),
                    ("<=s", |s, a, b| s.bvsle(a, b)),
                ];
                for (txt, f) in cmps {
                    let t = [f(&mut self.st, x[0], init[0]), f(&mut self.st, x[1], init[1])];
                    out.push(ParamCand { tag: "init-bound", text: format!("{name} {txt} its initial value"), t });
                }
            }
            for &u in &updates[k] {
                let ValueDef::Inst(i) = self.func.values[u].def else { continue };
                let InstKind::Binary { op, lhs, rhs } = self.func.insts[i].kind else { continue };
                let other = if lhs == p {
                    rhs
                } else if rhs == p && matches!(op, BinOp::Add | BinOp::Mul) {
                    lhs
                } else {
                    continue;
                };
                let c = [self.loop_constant(l, other, 0), self.loop_constant(l, other, 1)];
                let (Some(mut c0), Some(mut c1)) = (c[0], c[1]) else { continue };
                let mut op = op;
                // `x + c` and `c + x` step alike; a negative literal step
                // (`k--` is `k + -1`) is a step down by its magnitude, whose
                // residues the candidates below are about (a remainder
                // modulo 0xffffffff says nothing).
                let stepped = lhs == p || op == BinOp::Add;
                if matches!(op, BinOp::Add | BinOp::Sub) && c0 == c1 && self.is_negative_literal(c0) {
                    op = if op == BinOp::Add { BinOp::Sub } else { BinOp::Add };
                    c0 = self.st.bvneg(c0);
                    c1 = c0;
                }
                let cst = self.st.as_bv(c0).and_then(|v| v.to_u128());
                if updates[k].len() == 1 && stepped && c0 == c1 && cst.is_some_and(|c| c != 0) {
                    literal_steps[k] = match op {
                        BinOp::Add => Some(c0),
                        BinOp::Sub => Some(self.st.bvneg(c0)),
                        _ => None,
                    };
                }
                if self.rule_on("stride") && matches!(op, BinOp::Add | BinOp::Sub) && stepped {
                    out.extend(self.zero_residue(&name, x, init, [c0, c1], op == BinOp::Add));
                }
                // A step that is not a literal (a launch size, an argument)
                // gets the congruence over the uninterpreted remainder too:
                // a bit-vector remainder by a symbolic divisor is what z3
                // does not finish.
                let congruence = cst.map_or(true, |c| c != 0 && !c.is_power_of_two());
                match op {
                    BinOp::Add | BinOp::Sub if self.rule_on("stride") && stepped && congruence => {
                        if cst.is_none() {
                            self.launch_facts(false);
                        }
                        out.push(self.stride_congruence(&name, x, init, [c0, c1], op == BinOp::Add));
                        self.loop_data[l].congruence_params.push(k);
                    }
                    BinOp::Add | BinOp::Sub if self.rule_on("stride") => {
                        let mut t = [c0; 2];
                        for (th, ci) in [(0, c0), (1, c1)] {
                            let d = self.st.bvsub(x[th], init[th]);
                            let r = self.st.bvurem(d, ci);
                            let w = self.st.sort_of(r).bv_width().unwrap_or(32);
                            let z = self.st.bv_const(w, 0);
                            t[th] = self.st.eq(r, z);
                        }
                        out.push(ParamCand { tag: "stride", text: format!("({name} - initial) % stride == 0"), t });
                    }
                    BinOp::Mul | BinOp::UDiv | BinOp::SDiv | BinOp::Shl | BinOp::LShr | BinOp::AShr
                        if cst == Some(if matches!(op, BinOp::Mul | BinOp::UDiv | BinOp::SDiv) { 2 } else { 1 }) =>
                    {
                        if self.rule_on("pow2") {
                            out.push(self.pow2(&name, x));
                        }
                        self.pow2_counters.extend(x);
                        // A signed halving (`int d; d >>= 1`) is a logical
                        // one while the value is not negative, as a counter
                        // tested `d > 0` is; the candidates below say
                        // logical shifts, and Houdini drops them where the
                        // two differ.
                        if updates[k].len() == 1 && (lhs == p || op == BinOp::Mul) {
                            match op {
                                BinOp::Mul | BinOp::Shl => doubled.push(k),
                                _ => halved.push(k),
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        if self.rule_on("linked-counters") {
            out.extend(self.linked_counters(&params, &literal_steps, &state, &entry));
        }
        self.loop_data[l].pow2_steps = doubled.iter().map(|&k| (k, true)).chain(halved.iter().map(|&k| (k, false))).collect();
        if self.rule_on("opposite-steps") {
            out.extend(self.opposite_steps(&params, &doubled, &halved, &state, &entry));
        }
        out
    }

    /// For a header parameter `x` doubled and a parameter `y` of the same
    /// width halved (logically) on the loop's one back edge, the states
    /// the pair can reach: after `k` iterations `x == x0 << k` and `y ==
    /// y0 >> k`, a disjunction over `k` from 0 to the width (both are
    /// then zero for good). It relates two counters that move in opposite
    /// power-of-two steps, as a Blelloch scan's `stride` (doubling) and
    /// `active` (halving) keep `stride * active == n / 2`, so that `t <
    /// active` bounds `stride * (2 * t + 2)`; the `pow2` candidates alone
    /// say nothing of the one counter at a bound of the other. A second
    /// candidate adds to each `k > 0` that `y` was not yet zero one
    /// iteration earlier, which holds where the loop runs only while `y`
    /// is not zero (`active > 0`) and pins the state the loop exits in
    /// (`active == 0` with `stride == 2 * n`, which the next loop starts
    /// from). Constant shifts only: the solver sees no product of two
    /// unknowns, which it does not finish in the budget.
    fn opposite_steps(
        &mut self,
        params: &[ValueId],
        doubled: &[usize],
        halved: &[usize],
        state: &LoopState,
        entry: &LoopState,
    ) -> Vec<ParamCand> {
        let mut out = Vec::new();
        let name = |enc: &Self, v: ValueId| enc.func.values[v].name.clone().unwrap_or_else(|| format!("{v}"));
        for &kx in doubled {
            for &ky in halved {
                let Some(w) = self.st.sort_of(Self::sym_term(state.hp[0][kx])).bv_width() else { continue };
                if Some(w) != self.st.sort_of(Self::sym_term(state.hp[0][ky])).bv_width() {
                    continue;
                }
                let any = Self::sym_term(state.hp[0][kx]);
                let (mut reach, mut until_zero) = ([any; 2], [any; 2]);
                for th in 0..2 {
                    let (x, y) = (Self::sym_term(state.hp[th][kx]), Self::sym_term(state.hp[th][ky]));
                    let (x0, y0) = (Self::sym_term(entry.hp[th][kx]), Self::sym_term(entry.hp[th][ky]));
                    let zero = self.st.bv_const(w, 0);
                    let mut plain = Vec::new();
                    let mut running = Vec::new();
                    for k in 0..=w {
                        let shift = self.st.bv_const(w, k as u128);
                        let xk = self.st.bvshl(x0, shift);
                        let yk = self.st.bvlshr(y0, shift);
                        let x_at = self.st.eq(x, xk);
                        let y_at = self.st.eq(y, yk);
                        let at_k = self.st.and(&[x_at, y_at]);
                        plain.push(at_k);
                        if k == 0 {
                            running.push(at_k);
                        } else {
                            let before = self.st.bv_const(w, k as u128 - 1);
                            let y_before = self.st.bvlshr(y0, before);
                            let stopped = self.st.eq(y_before, zero);
                            let was_running = self.st.not(stopped);
                            running.push(self.st.and(&[at_k, was_running]));
                        }
                    }
                    reach[th] = self.st.or(&plain);
                    until_zero[th] = self.st.or(&running);
                }
                let (nx, ny) = (name(self, params[kx]), name(self, params[ky]));
                out.push(ParamCand {
                    tag: "opposite-steps",
                    text: format!("{nx} doubles as {ny} halves, from their initial values"),
                    t: reach,
                });
                out.push(ParamCand {
                    tag: "opposite-steps",
                    text: format!("{nx} doubles as {ny} halves, from their initial values, until {ny} is zero"),
                    t: until_zero,
                });
            }
        }
        out
    }

    /// Whether `t` is a bit-vector literal with its sign bit set.
    fn is_negative_literal(&self, t: TermId) -> bool {
        self.st.as_bv(t).is_some_and(|v| v.width() > 0 && v.bit(v.width() - 1))
    }

    /// `(x - x0) * sy == (y - y0) * sx` for two header parameters `x`, `y`
    /// of one width that step by literals `sx`, `sy` (`steps`) on the
    /// loop's single back edge: counters that move in lockstep, like `k++` and
    /// `index += WIDTH` in `for (k = 0; k < K; k++) { c[index] = ...;
    /// index += WIDTH; }`. The bound on `k` then bounds `index`, which the
    /// stride candidates alone do not: without it, a thread's later rows
    /// could reach the rows of a thread of another block.
    fn linked_counters(&mut self, params: &[ValueId], steps: &[Option<TermId>], state: &LoopState, entry: &LoopState) -> Vec<ParamCand> {
        let mut counters = Vec::new();
        for (k, &p) in params.iter().enumerate() {
            if let Some(step) = steps[k] {
                let w = self.st.sort_of(step).bv_width();
                counters.push((k, p, step, w));
            }
        }
        let mut out = Vec::new();
        for (a, &(kx, px, sx, wx)) in counters.iter().enumerate() {
            for &(ky, py, sy, wy) in &counters[a + 1..] {
                if wx != wy {
                    continue;
                }
                let mut t = [sx; 2];
                for (th, slot) in t.iter_mut().enumerate() {
                    let dx = self.st.bvsub(Self::sym_term(state.hp[th][kx]), Self::sym_term(entry.hp[th][kx]));
                    let dy = self.st.bvsub(Self::sym_term(state.hp[th][ky]), Self::sym_term(entry.hp[th][ky]));
                    let lhs = self.st.bvmul(dx, sy);
                    let rhs = self.st.bvmul(dy, sx);
                    *slot = self.st.eq(lhs, rhs);
                }
                let name = |v: ValueId| self.func.values[v].name.clone().unwrap_or_else(|| format!("{v}"));
                let text = format!("{} and {} step in lockstep from their initial values", name(px), name(py));
                out.push(ParamCand { tag: "linked-counters", text, t });
            }
        }
        out
    }

    /// The stride candidate `x % c == init % c` for `x := x + c` or
    /// `x := x - c` with a constant `c` that is not a power of two, over an
    /// uninterpreted `stride_mod` in place of `bvurem`, with the facts about
    /// it that hold of `bvurem` and that the candidate's uses need: one
    /// step of the loop keeps the remainder when it does not wrap around,
    /// and a value below `c` is its own remainder. A bit-blasted division
    /// by a large constant that is not a power of two would otherwise be
    /// part of every query about the loop, and the solver's time would grow
    /// with the launch (a grid-stride loop's step is the number of threads).
    /// Sound: every fact holds of `bvurem`, so whatever the queries prove
    /// for every function satisfying them holds for `bvurem` too.
    fn stride_congruence(&mut self, name: &str, x: [TermId; 2], init: [TermId; 2], c: [TermId; 2], add: bool) -> ParamCand {
        let mut t = x;
        for th in 0..2 {
            let rem_x = self.stride_mod(x[th], c[th]);
            let rem_init = self.stride_mod(init[th], c[th]);
            t[th] = self.st.eq(rem_x, rem_init);
            let (stepped, no_wrap) = if add {
                let limit = self.st.bvnot(c[th]);
                (self.st.bvadd(x[th], c[th]), self.st.bvule(x[th], limit))
            } else {
                (self.st.bvsub(x[th], c[th]), self.st.bvuge(x[th], c[th]))
            };
            let rem_stepped = self.stride_mod(stepped, c[th]);
            let keeps = self.st.eq(rem_stepped, rem_x);
            let fact = self.st.implies(no_wrap, keeps);
            self.defs.push(fact);
            let mut values = vec![x[th], init[th]];
            // A start `base + k` with a literal `k >= c` (`960 + tid` for a
            // step of 96) has the remainder of `r = base + k % c`, when
            // neither sum wraps around, which is that of `r - c` when
            // `r >= c`; each is its own remainder when below `c` (with
            // `base < c`, one of them is).
            if let Some((fact, reduced)) = self.reduced_start(init[th], c[th]) {
                self.defs.push(fact);
                let lower = self.st.bvsub(reduced, c[th]);
                let rem_reduced = self.stride_mod(reduced, c[th]);
                let rem_lower = self.stride_mod(lower, c[th]);
                let big = self.st.bvuge(reduced, c[th]);
                let same = self.st.eq(rem_reduced, rem_lower);
                let fact = self.st.implies(big, same);
                self.defs.push(fact);
                values.extend([reduced, lower]);
            }
            for v in values {
                let rem = self.stride_mod(v, c[th]);
                let small = self.st.bvult(v, c[th]);
                let own = self.st.eq(rem, v);
                let fact = self.st.implies(small, own);
                self.defs.push(fact);
            }
        }
        ParamCand { tag: "stride", text: format!("{name} % stride == initial % stride"), t }
    }

    /// For `start = base + k` with literals `k >= c > 0`: the fact
    /// `base + k does not wrap => stride_mod(start, c) == stride_mod(base +
    /// k % c, c)`, and the term `base + k % c`.
    fn reduced_start(&mut self, start: TermId, c: TermId) -> Option<(TermId, TermId)> {
        let modulus = self.st.as_bv(c).and_then(|v| v.to_u128()).filter(|&m| m > 0)?;
        let sum = self.named.get(&start).copied().unwrap_or(start);
        let (base, k) = self.st.as_sum_with_constant(sum)?;
        let k_value = self.st.as_bv(k).and_then(|v| v.to_u128())?;
        if k_value < modulus {
            return None;
        }
        let w = self.st.sort_of(start).bv_width()?;
        let r = self.st.bv_const(w, k_value % modulus);
        let reduced = self.st.bvadd(base, r);
        // `base + k` does not wrap when `base <= ~k`.
        let limit = self.st.bvnot(k);
        let no_wrap = self.st.bvule(base, limit);
        let rem_start = self.stride_mod(start, c);
        let rem_reduced = self.stride_mod(reduced, c);
        let same = self.st.eq(rem_start, rem_reduced);
        Some((self.st.implies(no_wrap, same), reduced))
    }

    /// `stride_mod(x, c)`, the uninterpreted stand-in for `x % c`. The
    /// checks after Houdini see it expanded into constants and congruence
    /// lemmas (see `ackermann`): a loop has few of its applications.
    fn stride_mod(&mut self, x: TermId, c: TermId) -> TermId {
        let sort = self.st.sort_of(x).clone();
        let r = self.uf("stride_mod", &[x, c], sort);
        if let lockstep_smt::TermKind::App(lockstep_smt::Op::Apply(f), _) = *self.st.kind(r) {
            if !self.expand_funs.contains(&f) {
                self.expand_funs.push(f);
            }
        }
        r
    }

    /// `x % c == 0` for `x := x + c` or `x := x - c` with a constant step
    /// `c > 1`, unless `x` starts at zero (the candidates relative to the
    /// start say it then). A multiple of the step from a start that is
    /// itself a multiple (`j = i; j += n` inside `i = 0; i += n`) stays one,
    /// and unlike a candidate relative to the start, this also holds of an
    /// access logged in an earlier run of an inner loop, whose start was
    /// different. Houdini drops it at once where the start is no multiple.
    fn zero_residue(&mut self, name: &str, x: [TermId; 2], init: [TermId; 2], c: [TermId; 2], add: bool) -> Option<ParamCand> {
        let zero_start = init.iter().all(|&t| self.st.as_bv(t).is_some_and(|v| v.is_zero()));
        let step = self.st.as_bv(c[0]).and_then(|v| v.to_u128())?;
        if zero_start || step <= 1 || c[0] != c[1] {
            return None;
        }
        let w = self.st.sort_of(x[0]).bv_width().unwrap_or(32);
        let zero = self.st.bv_const(w, 0);
        let text = format!("{name} % stride == 0");
        if step.is_power_of_two() {
            let mut t = x;
            for th in 0..2 {
                let r = self.st.bvurem(x[th], c[th]);
                t[th] = self.st.eq(r, zero);
            }
            return Some(ParamCand { tag: "stride", text, t });
        }
        let mut cand = self.stride_congruence(name, x, [zero, zero], c, add);
        cand.text = text;
        Some(cand)
    }

    fn pow2(&mut self, name: &str, x: [TermId; 2]) -> ParamCand {
        let mut t = x;
        for th in 0..2 {
            let w = self.st.sort_of(x[th]).bv_width().unwrap_or(32);
            let z = self.st.bv_const(w, 0);
            let one = self.st.bv_const(w, 1);
            let m = self.st.bvsub(x[th], one);
            let a = self.st.bvand(x[th], m);
            let e1 = self.st.eq(x[th], z);
            let e2 = self.st.eq(a, z);
            t[th] = self.st.or(&[e1, e2]);
        }
        ParamCand { tag: "pow2", text: format!("{name} is zero or a power of two"), t }
    }

    /// Stride candidates found from the encoded back-edge values: the step
    /// of `x` is `f(0)` when the update is `x := f(x)` (Houdini checks that
    /// the guess is right). This sees through casts the KIR patterns of
    /// `param_candidates` miss, like `(int)((long) i + get_local_size(0))`.
    fn stride_from_terms(
        &mut self,
        l: usize,
        state: &LoopState,
        entry: &LoopState,
        back_args: &[[Vec<Sym>; 2]],
    ) -> Vec<ParamCand> {
        let mut out = Vec::new();
        if !self.rule_on("stride") {
            return out;
        }
        let mark = self.loop_data[l].mark;
        let header = self.loops.loops[l].header;
        for (k, &p) in self.func.blocks[header].params.clone().iter().enumerate() {
            // The congruence candidate already says what this rule would.
            if self.loop_data[l].congruence_params.contains(&k) {
                continue;
            }
            let (Sym::Bv(x0), Sym::Bv(x1)) = (state.hp[0][k], state.hp[1][k]) else { continue };
            let name = self.func.values[p].name.clone().unwrap_or_else(|| format!("{p}"));
            for args in back_args {
                let mut t = [x0; 2];
                let mut steps = [x0; 2];
                let mut inits = [x0; 2];
                let mut downs = [false; 2];
                let mut ok = true;
                for (th, x) in [(0, x0), (1, x1)] {
                    let Sym::Bv(f) = args[th][k] else {
                        ok = false;
                        break;
                    };
                    let w = self.st.sort_of(x).bv_width().unwrap_or(32);
                    let zero = self.st.bv_const(w, 0);
                    let map = HashMap::from([(x, zero)]);
                    let d = self.subst(f, &map);
                    if !self.allowed(d, mark) || self.st.as_bv(d).is_some_and(|v| v.is_zero()) || d == f {
                        ok = false;
                        break;
                    }
                    // A negative literal step is a step down by its
                    // magnitude (see `param_candidates`).
                    let down = self.is_negative_literal(d);
                    let d = if down { self.st.bvneg(d) } else { d };
                    downs[th] = down;
                    steps[th] = d;
                    let init = Self::sym_term(entry.hp[th][k]);
                    inits[th] = init;
                    let diff = if down { self.st.bvsub(init, x) } else { self.st.bvsub(x, init) };
                    let r = self.st.bvurem(diff, d);
                    t[th] = self.st.eq(r, zero);
                }
                if ok && downs[0] == downs[1] {
                    out.push(ParamCand { tag: "stride", text: format!("({name} - initial) % step == 0"), t });
                    out.extend(self.zero_residue(&name, [x0, x1], inits, steps, !downs[0]));
                }
            }
        }
        out
    }

    /// `pe && stay => q` for each thread: a thread that reached loop `l`
    /// (entry predicate `pe`) and whose exit test would keep it in the loop
    /// (`stay`, over its frozen header state) is still in it. True of a
    /// loop that is only left through that test, since a thread that left
    /// it froze with the test failing; it says of a thread outside the loop
    /// what its counters are (`!q => !pe || j >= n`), which an assertion
    /// about disabled threads (`__implies(j < n, __enabled())`) needs.
    /// Proposed only in kernels that use `__enabled()`, the one use found
    /// for it (no other conformance kernel needed it): it made Houdini's
    /// last round on `bench/kernels/race_free.cu` slower (0.7 s to 1.2 s)
    /// by changing z3's search.
    fn exit_candidates(&mut self, l: usize, out: &mut Vec<(&'static str, String, TermId)>) {
        if !self.rule_on("guard-bound") || !self.uses_enabled {
            return;
        }
        let mark = self.loop_data[l].mark;
        let state = self.loop_data[l].state.clone().expect("loop state");
        let Some(pe) = self.loop_data[l].pe else { return };
        let blocks = self.loops.loops[l].blocks.clone();
        for &b in &blocks {
            let Terminator::Branch { cond, then_dest, else_dest } = &self.func.blocks[b].term else { continue };
            let stays_on_true = match (blocks.contains(&then_dest.block), blocks.contains(&else_dest.block)) {
                (true, false) => true,
                (false, true) => false,
                _ => continue,
            };
            let (Some(Sym::Bool(c0)), Some(Sym::Bool(c1))) = (self.vals[0].get(cond).copied(), self.vals[1].get(cond).copied()) else {
                continue;
            };
            if !self.allowed(c0, mark) || !self.allowed(c1, mark) {
                continue;
            }
            let mut t = [c0, c1];
            for (th, slot) in t.iter_mut().enumerate() {
                let stay = if stays_on_true { *slot } else { self.st.not(*slot) };
                let reached = self.st.and(&[pe[th], stay]);
                *slot = self.st.implies(reached, state.q[th]);
            }
            let both = self.st.and(&t);
            let name = self.loc_text(*self.func.term_locs.get(b));
            out.push(("guard-bound", format!("a thread that reached the loop and passes its exit test at {name} is in it"), both));
        }
    }

    /// Candidates from the loop conditions (after the body is encoded).
    fn guard_candidates(&mut self, l: usize) -> Vec<ParamCand> {
        let mut out = Vec::new();
        if !self.rule_on("guard-bound") {
            return out;
        }
        let mark = self.loop_data[l].mark;
        let state = self.loop_data[l].state.clone().expect("loop state");
        let state_syms: Vec<TermId> = state.hp.iter().flatten().map(|&s| Self::sym_term(s)).collect();
        for &b in &self.loops.loops[l].blocks.clone() {
            let Terminator::Branch { cond, .. } = self.func.blocks[b].term else { continue };
            let ValueDef::Inst(i) = self.func.values[cond].def else { continue };
            let InstKind::Icmp { lhs, rhs, .. } = self.func.insts[i].kind else { continue };
            let (Some(a0), Some(b0), Some(a1), Some(b1)) = (
                self.vals[0].get(&lhs).copied(),
                self.vals[0].get(&rhs).copied(),
                self.vals[1].get(&lhs).copied(),
                self.vals[1].get(&rhs).copied(),
            ) else {
                continue;
            };
            let (Sym::Bv(a0), Sym::Bv(b0), Sym::Bv(a1), Sym::Bv(b1)) = (a0, b0, a1, b1) else { continue };
            let terms = [a0, b0, a1, b1];
            if !terms.iter().all(|&t| self.allowed(t, mark)) {
                continue;
            }
            let fs = self.st.free_symbols(&[a0, b0]);
            let depends = state_syms.iter().any(|s| match self.st.kind(*s) {
                lockstep_smt::TermKind::Const(f) => fs.funs.contains(f),
                _ => false,
            });
            if !depends {
                continue;
            }
            let name = self.loc_text(*self.func.inst_locs.get(i));
            // The condition itself: rarely inductive for the counter, but it
            // holds for the ghost copy of an access made inside the loop.
            if let (Some(Sym::Bool(c0)), Some(Sym::Bool(c1))) =
                (self.vals[0].get(&cond).copied(), self.vals[1].get(&cond).copied())
            {
                if self.allowed(c0, mark) && self.allowed(c1, mark) {
                    out.push(ParamCand { tag: "guard-bound", text: format!("the condition at {name} holds"), t: [c0, c1] });
                    let n = [self.st.not(c0), self.st.not(c1)];
                    out.push(ParamCand { tag: "guard-bound", text: format!("the condition at {name} fails"), t: n });
                }
            }
            type Cmp = fn(&mut lockstep_smt::TermStore, TermId, TermId) -> TermId;
            let cmps: [(&str, Cmp); 4] = [
                ("<=u", |s, a, b| s.bvule(a, b)),
                (">=u", |s, a, b| s.bvuge(a, b)),
                ("<=s", |s, a, b| s.bvsle(a, b)),
                (">=s", |s, a, b| s.bvsge(a, b)),
            ];
            for (txt, f) in cmps {
                let t = [f(&mut self.st, a0, b0), f(&mut self.st, a1, b1)];
                out.push(ParamCand { tag: "guard-bound", text: format!("operands of the condition at {name}: lhs {txt} rhs"), t });
            }
        }
        out
    }

    /// All candidates of loop `l`, as (tag, text, term over `state`).
    pub(crate) fn loop_candidates(
        &mut self,
        l: usize,
        state: &LoopState,
        entry: &LoopState,
        back_args: &[[Vec<Sym>; 2]],
    ) -> Vec<(&'static str, String, TermId)> {
        let mut out: Vec<(&'static str, String, TermId)> = Vec::new();
        if !self.config.disabled_rules.iter().any(|d| d == "log-width") {
            self.width_candidates(state, &mut out);
        }
        if self.config.no_infer {
            self.uniformity_candidates(l, state, &mut out);
            return out;
        }
        let mark = self.loop_data[l].mark;
        let guards = self.guard_candidates(l);
        let mut own = self.loop_data[l].param_cands.clone();
        own.extend(guards);
        own.extend(self.stride_from_terms(l, state, entry, back_args));
        // Two rules may propose one formula (the step found in the KIR and
        // in the encoded terms); Houdini need only check it once.
        let mut seen = std::collections::HashSet::new();
        own.retain(|pc| seen.insert(pc.t));
        // Loops around this one, encoded later, look at all of them (for
        // the ghost copies of this loop's counters in their logs).
        self.loop_data[l].param_cands = own.clone();
        for pc in &own {
            let t = self.st.and(&[pc.t[0], pc.t[1]]);
            out.push((pc.tag, pc.text.clone(), t));
        }
        self.exit_candidates(l, &mut out);
        // The `__syncwarp`s of this loop (`LogState::warp`): threads of one
        // warp that iterate together execute each as often as the other,
        // so that they meet at the same occurrence of it.
        let warp_here: Vec<(usize, InstId)> = state
            .logs
            .warp
            .iter()
            .enumerate()
            .filter(|(_, (i, _))| self.inst_block.get(i).is_some_and(|b| self.loops.loops[l].blocks.contains(b)))
            .map(|(w, (i, _))| (w, *i))
            .collect();
        // Loops with a warp intrinsic (a shuffle, a vote) need the same
        // facts for two threads of one warp, which must both take part: such
        // a loop is often entered by whole warps only (`if (warp == 0)`,
        // `if (threadIdx.x < 32)`), so its threads stay together per warp,
        // not per group, and a shuffle needs no more than that.
        let warp_ops = self.loops.loops[l]
            .blocks
            .iter()
            .any(|&b| self.func.blocks[b].insts.iter().any(|&i| matches!(self.func.insts[i].kind, InstKind::Warp { .. })));
        let same_warp = if warp_here.is_empty() && !warp_ops {
            None
        } else {
            let lanes = self.config.warp_size.unwrap_or(crate::encode::access::WARP_LANES);
            Some(self.same_warp(lanes))
        };
        // Two-thread candidates.
        let q = state.q;
        if self.rule_on("pred-eq") {
            let e = self.st.eq(q[0], q[1]);
            out.push(("pred-eq", "both threads are in the loop or neither is".into(), e));
            let g = self.st.implies(self.same_group, e);
            out.push(("pred-eq", "threads of one group are in the loop together".into(), g));
            if let Some(sw) = same_warp {
                let g = self.st.implies(sw, e);
                out.push(("pred-eq", "threads of one warp are in the loop together".into(), g));
            }
        }
        if self.rule_on("uniform") {
            let header = self.loops.loops[l].header;
            let params = self.func.blocks[header].params.clone();
            for (k, &p) in params.iter().enumerate() {
                let name = self.func.values[p].name.clone().unwrap_or_else(|| format!("{p}"));
                let e = self.eq_sym(state.hp[0][k], state.hp[1][k]);
                out.push(("uniform", format!("{name} is uniform"), e));
                let g = self.st.implies(self.same_group, e);
                out.push(("uniform", format!("{name} is uniform in a group"), g));
                if let Some(sw) = same_warp {
                    let g = self.st.implies(sw, e);
                    out.push(("uniform", format!("{name} is uniform in a warp"), g));
                }
                let both = self.st.and(&[q[0], q[1]]);
                let g = self.st.implies(both, e);
                out.push(("uniform", format!("{name} is uniform while both threads loop"), g));
            }
        }
        if let (true, Some(sw)) = (self.rule_on("uniform"), same_warp) {
            for &(w, i) in &warp_here {
                let [c1, c2] = state.logs.warp[w].1;
                let at = self.loc_text(*self.func.inst_locs.get(i));
                let e = self.st.eq(c1, c2);
                let what = if matches!(self.func.insts[i].kind, InstKind::Barrier { .. }) { "__syncwarp" } else { "warp operation" };
                out.push(("uniform", format!("both threads executed the {what} at {at} as often"), e));
                let g = self.st.implies(sw, e);
                out.push(("uniform", format!("threads of one warp executed the {what} at {at} as often"), g));
            }
        }
        // Race-log candidates.
        let nobj = state.logs.objs.len();
        if self.rule_on("no-access") {
            for m in 0..nobj {
                for k in AccessKind::ALL {
                    let n = self.st.not(state.logs.objs[m][k.index()].has);
                    let name = self.tracked_name(m);
                    out.push(("no-access", format!("no {} of `{name}` logged", k.name()), n));
                    // A log of `__shared__` memory only matters to a thread
                    // of the same group, and may be empty for those only:
                    // after a barrier in a branch on a group-uniform value,
                    // a thread of another group that took the other way
                    // still has its earlier access logged.
                    // (Only where the kind of access occurs at all: with
                    // none, the plain candidate always holds.)
                    let shared = self.objects.iter().any(|o| o.tracked == Some(m) && o.space == MemSpace::Shared);
                    if shared && self.sites.iter().any(|s| s.tracked == m && s.kind == k) {
                        let g = self.st.implies(self.same_group, n);
                        out.push(("no-access", format!("no {} of `{name}` logged for a thread of the same group", k.name()), g));
                    }
                    // A loop that synchronises a warp clears the logs for
                    // threads of one warp only.
                    if let (Some(sw), false) = (same_warp, warp_here.is_empty()) {
                        let g = self.st.implies(sw, n);
                        out.push(("no-access", format!("no {} of `{name}` logged for a thread of the same warp", k.name()), g));
                    }
                }
            }
        }
        let mut chain = vec![l];
        let mut cur = self.loops.loops[l].parent;
        while let Some(p) = cur {
            chain.push(p);
            cur = self.loops.loops[p].parent;
        }
        let ancestors: Vec<usize> = chain[1..].to_vec();
        // The loops inside this one too (encoded by now): a fact about an
        // inner loop's counter that does not depend on where that loop
        // started (`j % n == 0`) may also hold of the ghost copy of the
        // counter in a log carried around this loop. Their candidates that
        // mention the inner loop's own start are not `allowed` here.
        for inner in 0..self.loops.loops.len() {
            let mut up = self.loops.loops[inner].parent;
            while let Some(p) = up {
                if p == l {
                    chain.push(inner);
                    break;
                }
                up = self.loops.loops[p].parent;
            }
        }
        let sites = self.sites.clone();
        for m in 0..nobj {
            for k in AccessKind::ALL {
                let my_sites: Vec<_> = sites.iter().filter(|s| s.tracked == m && s.kind == k).cloned().collect();
                if my_sites.is_empty() {
                    continue;
                }
                let log = state.logs.objs[m][k.index()].clone();
                let oname = self.tracked_name(m);
                // Map thread 1's header parameters of a loop to this log's ghosts.
                let ghost_map = |enc: &Enc, loops: &[usize]| -> HashMap<TermId, TermId> {
                    let mut map = HashMap::new();
                    for &lp in loops {
                        let Some(st) = &enc.loop_data[lp].state else { continue };
                        for (j, s) in st.hp[0].iter().enumerate() {
                            if let Some(&slot) = enc.ghost_slot.get(&(lp, j)) {
                                map.insert(Self::sym_term(*s), log.ghosts[slot]);
                            }
                        }
                    }
                    map
                };
                if self.rule_on("access-offset") {
                    let mut in_set = Vec::new();
                    let mut seen = Vec::new();
                    for s in &my_sites {
                        let site = self.st.bv_const(32, s.inst.as_u32() as u128);
                        if !seen.contains(&s.inst) {
                            seen.push(s.inst);
                            in_set.push(self.st.eq(log.site, site));
                        }
                        let map = ghost_map(self, &s.loops);
                        let f = self.subst(s.off1, &map);
                        let w = self.subst(s.width1, &map);
                        if !self.allowed(f, mark) || !self.allowed(w, mark) {
                            continue;
                        }
                        let is_site = self.st.eq(log.site, site);
                        let pre = self.st.and(&[log.has, is_site]);
                        let e1 = self.st.eq(log.off, f);
                        let e2 = self.st.eq(log.width, w);
                        let e = self.st.and(&[e1, e2]);
                        let c = self.st.implies(pre, e);
                        let at = self.loc_text(*self.func.inst_locs.get(s.inst));
                        out.push(("access-offset", format!("a logged {} of `{oname}` at {at} has its offset", k.name()), c));
                        self.product_lemmas_of(f);
                        self.cell_lemmas_of(f, m, crate::encode::CellRole::First);
                        // The no-wrap promises of the arithmetic that
                        // computed the logged offset, over the same ghosts:
                        // the offset alone says `base + c` of an earlier
                        // iteration, and only with its promise does it stay
                        // in its own row (`base = row * n`, `0 <= c < n`).
                        let mut promises = Vec::new();
                        for &f in &s.no_wrap1 {
                            let g = self.subst(f, &map);
                            if self.allowed(g, mark) && self.st.as_bool(g) != Some(true) {
                                promises.push(g);
                            }
                        }
                        if !promises.is_empty() {
                            let all = self.st.and(&promises);
                            let c = self.st.implies(pre, all);
                            out.push((
                                "access-offset",
                                format!("a logged {} of `{oname}` at {at} kept the no-wrap promises of its address", k.name()),
                                c,
                            ));
                        }
                        // The conditions thread 1 executed the access
                        // under, over the same ghosts: a column guard `col
                        // < n` around `out[row * n + col]` is what keeps an
                        // earlier iteration's logged element in its row,
                        // and nothing else states it once the loop moves
                        // on (a guard over values constant for the loop is
                        // no loop condition). Conjuncts that still mention
                        // a loop's state (its predicate, a counter without a
                        // ghost copy) name the current iteration, not the
                        // logged one, and are left out.
                        let mut path = Vec::new();
                        for &c in &s.path1 {
                            let g = self.subst(c, &map);
                            let Some(g) = self.expand_names(g, mark) else { continue };
                            if self.st.as_bool(g) == Some(true) || path.contains(&g) || self.mentions_loop_state(g) {
                                continue;
                            }
                            path.push(g);
                        }
                        if !path.is_empty() {
                            let all = self.st.and(&path);
                            let c = self.st.implies(pre, all);
                            out.push((
                                "access-offset",
                                format!("a logged {} of `{oname}` at {at} was made under its guards", k.name()),
                                c,
                            ));
                        }
                        // The value of a write that may be benign.
                        if let Some(v) = s.val1 {
                            let v = self.subst(v, &map);
                            if self.allowed(v, mark) {
                                let e = self.st.eq(log.val, v);
                                let c = self.st.implies(pre, e);
                                out.push((
                                    "access-offset",
                                    format!("a logged {} of `{oname}` at {at} has its value", k.name()),
                                    c,
                                ));
                            }
                        }
                    }
                    let any = self.st.or(&in_set);
                    let c = self.st.implies(log.has, any);
                    out.push(("access-offset", format!("a logged {} of `{oname}` comes from a known site", k.name()), c));
                    // Only this loop's sites: holds when the log is empty on
                    // entry (say, cleared by a barrier just before).
                    let mut inner = Vec::new();
                    let mut seen_inner = Vec::new();
                    for s in my_sites.iter().filter(|s| s.loops.contains(&l)) {
                        if !seen_inner.contains(&s.inst) {
                            seen_inner.push(s.inst);
                            let site = self.st.bv_const(32, s.inst.as_u32() as u128);
                            inner.push(self.st.eq(log.site, site));
                        }
                    }
                    if !inner.is_empty() && seen_inner.len() < seen.len() {
                        let any = self.st.or(&inner);
                        let c = self.st.implies(log.has, any);
                        out.push(("access-offset", format!("a logged {} of `{oname}` comes from this loop", k.name()), c));
                    }
                }
                // Ghosted counter candidates of this loop and the loops around it.
                for &lp in &chain {
                    if !my_sites.iter().any(|s| s.loops.contains(&lp)) {
                        continue;
                    }
                    let mut pcs = if lp == l { own.clone() } else { self.loop_data[lp].param_cands.clone() };
                    // A loop around this one is encoded after it, so its
                    // own list does not hold its guard candidates yet; its
                    // header's condition is encoded by now, though, and it
                    // held when an access in its body was logged (`row <
                    // m` for the logged `out[row * n + col]` of an inner
                    // loop over columns, which keeps that row apart from
                    // another block's once the outer loop goes around).
                    if ancestors.contains(&lp) && self.loop_data[lp].state.is_some() {
                        let have: std::collections::HashSet<TermId> = pcs.iter().map(|pc| pc.t[0]).collect();
                        for pc in self.guard_candidates(lp) {
                            if !have.contains(&pc.t[0]) {
                                pcs.push(pc);
                            }
                        }
                    }
                    let map = ghost_map(self, &[lp]);
                    // When the log may also hold an access from outside
                    // loop `lp` (an earlier loop's, seen by a thread of
                    // another group), the candidates hold only for the
                    // accesses of `lp`'s sites: they are proposed both ways.
                    let mut inside = Vec::new();
                    for s in my_sites.iter().filter(|s| s.loops.contains(&lp)) {
                        if !inside.contains(&s.inst) {
                            inside.push(s.inst);
                        }
                    }
                    let mixed = my_sites.iter().any(|s| !s.loops.contains(&lp));
                    let from_lp = self.site_among(log.site, &inside);
                    let pre = self.st.and(&[log.has, from_lp]);
                    for pc in pcs {
                        let g = self.subst(pc.t[0], &map);
                        if g == pc.t[0] {
                            continue;
                        }
                        let Some(g) = self.expand_names(g, mark) else { continue };
                        let c = self.st.implies(log.has, g);
                        out.push((pc.tag, format!("for the logged {} of `{oname}`: {}", k.name(), pc.text), c));
                        if mixed {
                            let c = self.st.implies(pre, g);
                            out.push((pc.tag, format!("for the logged {} of `{oname}` in this loop: {}", k.name(), pc.text), c));
                        }
                    }
                    if lp == l && self.rule_on("last-iteration") {
                        out.extend(self.last_iteration(l, state, entry, &map, [log.has, from_lp], mixed, &oname, k));
                    }
                }
                // The counter candidates of a loop that is neither this
                // one nor around or inside it (an earlier loop, whose logged
                // accesses a thread of another group still sees here), for
                // an access logged at one of that loop's sites: the log may
                // also hold this loop's accesses, so each is guarded by the
                // site. The row a logged `m[base + c]` of an earlier loop
                // stays in needs that loop's bounds on its `c`.
                let mut seen_other = std::collections::HashSet::new();
                for s in &my_sites {
                    if s.loops.is_empty() || s.loops.iter().any(|lp| chain.contains(lp)) || !seen_other.insert(s.inst) {
                        continue;
                    }
                    let is_site = self.site_among(log.site, &[s.inst]);
                    let pre = self.st.and(&[log.has, is_site]);
                    let at = self.loc_text(*self.func.inst_locs.get(s.inst));
                    for &lp in &s.loops {
                        let map = ghost_map(self, &[lp]);
                        for pc in self.loop_data[lp].param_cands.clone() {
                            let g = self.subst(pc.t[0], &map);
                            if g == pc.t[0] || !self.allowed(g, mark) {
                                continue;
                            }
                            let c = self.st.implies(pre, g);
                            out.push((pc.tag, format!("for the logged {} of `{oname}` at {at}: {}", k.name(), pc.text), c));
                        }
                    }
                }
            }
        }
        out.retain(|(_, _, t)| self.st.as_bool(*t) != Some(true));
        out
    }

    /// For each counter `x` of loop `l` doubled (halved) on its one back
    /// edge: `HAS && SITE in loop && same_group => x == ghost_x << 1` (or
    /// `>> 1`), with `ghost_x` its value when thread 1's logged access of
    /// the loop was made, and, where the log may hold other sites' accesses
    /// (`mixed`), `HAS && SITE not in loop && same_group => x == x0`. Both
    /// say that a barrier in the body clears the logs of the threads of one
    /// group each time round: an access of the loop was logged in the
    /// previous iteration, and one from elsewhere (before the loop) only
    /// while the loop has not gone round. The exit state then bounds the
    /// last logged access (a scan's up-sweep ends with `active == 0`, so
    /// its last access was made with `active == 1`, by thread 0 only) and
    /// shows the accesses before the loop ordered, which the candidates
    /// over the ghosts alone do not: they hold of any earlier iteration.
    #[allow(clippy::too_many_arguments)]
    fn last_iteration(
        &mut self,
        l: usize,
        state: &LoopState,
        entry: &LoopState,
        ghosts: &HashMap<TermId, TermId>,
        [has, from_loop]: [TermId; 2],
        mixed: bool,
        object: &str,
        kind: AccessKind,
    ) -> Vec<(&'static str, String, TermId)> {
        let mut out = Vec::new();
        let header = self.loops.loops[l].header;
        let in_loop = self.st.and(&[has, from_loop, self.same_group]);
        let elsewhere = self.st.not(from_loop);
        let elsewhere = self.st.and(&[has, elsewhere, self.same_group]);
        for (j, doubled) in self.loop_data[l].pow2_steps.clone() {
            let now = Self::sym_term(state.hp[0][j]);
            let Some(&then) = ghosts.get(&now) else { continue };
            let Some(w) = self.st.sort_of(now).bv_width() else { continue };
            let p = self.func.blocks[header].params[j];
            let name = self.func.values[p].name.clone().unwrap_or_else(|| format!("{p}"));
            let one = self.st.bv_const(w, 1);
            let stepped = if doubled { self.st.bvshl(then, one) } else { self.st.bvlshr(then, one) };
            let same = self.st.eq(now, stepped);
            let c = self.st.implies(in_loop, same);
            let text = format!("the logged {} of `{object}` in this loop was made in the previous iteration ({name})", kind.name());
            out.push(("last-iteration", text, c));
            if mixed {
                let initial = self.st.eq(now, Self::sym_term(entry.hp[0][j]));
                let c = self.st.implies(elsewhere, initial);
                let text = format!("a logged {} of `{object}` from outside this loop means {name} is still at its initial value", kind.name());
                out.push(("last-iteration", text, c));
            }
        }
        out
    }

    /// Whether `t` mentions a symbol of some encoded loop's state (header
    /// parameters or predicates of either thread; its logs are allowed),
    /// which stands for the current iteration of that loop.
    fn mentions_loop_state(&self, t: TermId) -> bool {
        let fs = self.st.free_symbols(&[t]);
        self.loop_data.iter().filter_map(|d| d.state.as_ref()).any(|st| {
            st.hp.iter().flatten().map(|&x| Self::sym_term(x)).chain(st.q).any(|x| match self.st.kind(x) {
                lockstep_smt::TermKind::Const(f) => fs.funs.contains(f),
                _ => false,
            })
        })
    }

    /// Without inference, GPUVerify still knows the loops whose control is
    /// (group-)uniform from its static uniformity analysis. Here the static
    /// analysis only proposes: Houdini checks the candidates like any other.
    /// `log-width`: a logged access has the width of one of the sites that
    /// may have logged it (when all their widths are constants).
    fn width_candidates(&mut self, state: &LoopState, out: &mut Vec<(&'static str, String, TermId)>) {
        for m in 0..state.logs.objs.len() {
            for k in AccessKind::ALL {
                let widths: Vec<TermId> =
                    self.sites.iter().filter(|s| s.tracked == m && s.kind == k).map(|s| s.width1).collect();
                // No site at all: nothing can have been logged, `HAS =>
                // false` (with inference on, `no-access` proposes that).
                if widths.is_empty() && self.rule_on("no-access") {
                    continue;
                }
                if widths.iter().any(|&w| self.st.as_bv(w).is_none()) {
                    continue;
                }
                let log = state.logs.objs[m][k.index()].clone();
                let mut opts: Vec<TermId> = widths.iter().map(|&w| self.st.eq(log.width, w)).collect();
                opts.sort();
                opts.dedup();
                let any = self.st.or(&opts);
                let c = self.st.implies(log.has, any);
                let name = self.tracked_name(m);
                out.push(("log-width", format!("a logged {} of `{name}` has the width of one of its sites", k.name()), c));
                // Aligned accesses of one power-of-two width: the logged
                // offset is a multiple of it (GPUVerify's element indices
                // have this built in).
                if opts.len() == 1 && !widths.is_empty() {
                    let w = self.st.as_bv(widths[0]).and_then(|v| v.to_u128()).unwrap_or(0);
                    if w > 1 && w.is_power_of_two() {
                        let mask = self.st.bv_const(64, w - 1);
                        let low = self.st.bvand(log.off, mask);
                        let zero = self.st.bv_const(64, 0);
                        let e = self.st.eq(low, zero);
                        let c = self.st.implies(log.has, e);
                        out.push(("log-width", format!("a logged {} of `{name}` is aligned to its width", k.name()), c));
                    }
                }
            }
        }
    }

    fn uniformity_candidates(&mut self, l: usize, state: &LoopState, out: &mut Vec<(&'static str, String, TermId)>) {
        use lockstep_analysis::Uniformity;
        if self.uniformity.is_none() {
            self.uniformity = Some(lockstep_analysis::UniformityInfo::compute(self.module, self.func));
        }
        let info = self.uniformity.as_ref().expect("computed");
        let header = self.loops.loops[l].header;
        let body: Vec<_> = self.loops.loops[l].blocks.iter().copied().collect();
        // The loop's exits are decided alike by the threads of a group: the
        // branches that leave the loop (a thread-dependent branch that stays
        // inside the body, like a guarded access, does not let the threads
        // part).
        let control = info.control_level(header);
        let blocks = &self.loops.loops[l].blocks;
        let exits_level = body
            .iter()
            .filter(|&&b| self.func.blocks[b].term.successors().iter().any(|s| !blocks.contains(s)))
            .filter_map(|&b| info.branch_level(b))
            .chain(std::iter::once(control))
            .max()
            .unwrap_or(Uniformity::Uniform);
        if exits_level == Uniformity::Varying {
            return;
        }
        let params = self.func.blocks[header].params.clone();
        let levels: Vec<Uniformity> = params.iter().map(|&p| info.level(p)).collect();
        let q = state.q;
        let e = self.st.eq(q[0], q[1]);
        let g = self.st.implies(self.same_group, e);
        out.push(("pred-eq", "threads of one group are in the loop together (uniformity analysis)".into(), g));
        if exits_level == Uniformity::Uniform {
            out.push(("pred-eq", "both threads are in the loop or neither is (uniformity analysis)".into(), e));
        }
        for (k, &p) in params.iter().enumerate() {
            if levels[k] == Uniformity::Varying {
                continue;
            }
            let name = self.func.values[p].name.clone().unwrap_or_else(|| format!("{p}"));
            let e = self.eq_sym(state.hp[0][k], state.hp[1][k]);
            let g = self.st.implies(self.same_group, e);
            out.push(("uniform", format!("{name} is uniform in a group (uniformity analysis)"), g));
            if levels[k] == Uniformity::Uniform {
                out.push(("uniform", format!("{name} is uniform (uniformity analysis)"), e));
            }
        }
    }

    fn tracked_name(&self, m: usize) -> String {
        self.objects.iter().find(|o| o.tracked == Some(m)).map(|o| o.name.clone()).unwrap_or_default()
    }
}
