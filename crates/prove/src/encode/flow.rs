//! Control flow of the product: blocks in reverse postorder with one
//! predicate per thread, merging of block parameters over incoming edges,
//! and loop cutting at headers (invariant checks on entry and back edges,
//! havocked loop state, the state after the loop).

use super::*;

impl<'a> Enc<'a> {
    /// The region a block is encoded in: for a loop header, the loop around
    /// its loop; for other blocks, their innermost loop.
    pub(crate) fn region_of(&self, b: BlockId) -> Option<usize> {
        match self.loops.by_header.get(&b) {
            Some(&l) => self.loops.loops[l].parent,
            None => self.loops.innermost(b),
        }
    }

    pub(crate) fn encode_region(&mut self, region: Option<usize>) -> Res<()> {
        let mut blocks: Vec<BlockId> = Vec::new();
        if let Some(l) = region {
            blocks.push(self.loops.loops[l].header);
        }
        for &b in &self.cfg.rpo {
            if self.region_of(b) == region {
                blocks.push(b);
            }
        }
        for b in blocks {
            let header_of = self.loops.by_header.get(&b).copied();
            if let Some(l) = header_of.filter(|&l| Some(l) != region) {
                self.encode_loop(l)?;
                continue;
            }
            if header_of.is_none() {
                if b == self.func.entry {
                    let t = self.st.true_();
                    self.preds.insert(b, [t, t]);
                } else {
                    self.merge_incoming(b)?;
                }
            }
            self.encode_insts(b, Mode::Normal)?;
            self.encode_term(b)?;
        }
        Ok(())
    }

    /// Merges the recorded incoming edges of `b`: its predicates and
    /// parameters.
    pub(crate) fn merge_incoming(&mut self, b: BlockId) -> Res<[TermId; 2]> {
        let edges = self.incoming.remove(&b).unwrap_or_default();
        let params = self.func.blocks[b].params.clone();
        let mut preds = [self.st.false_(); 2];
        for t in 0..2 {
            let acts: Vec<TermId> = edges.iter().map(|e| e.act[t]).collect();
            let p = self.st.or(&acts);
            preds[t] = self.name(p);
            for (k, &pv) in params.iter().enumerate() {
                let mut acc: Option<Sym> = None;
                for e in edges.iter().rev() {
                    acc = Some(match acc {
                        None => e.args[t][k],
                        Some(rest) => self.ite_sym(e.act[t], e.args[t][k], rest),
                    });
                }
                let s = match acc {
                    Some(s) => self.name_sym(s),
                    None => self.fresh_sym(self.func.value_type(pv), "dead"),
                };
                self.vals[t].insert(pv, s);
            }
        }
        self.preds.insert(b, preds);
        Ok(preds)
    }

    pub(crate) fn add_edge(&mut self, from: BlockId, to: BlockId, edge: Edge) {
        if let Some(&l) = self.loops.by_header.get(&to) {
            if self.loops.loops[l].blocks.contains(&from) {
                self.back.entry(l).or_default().push(edge);
                return;
            }
        }
        if let Some(&r) = self.region_stack.last() {
            if !self.loops.loops[r].blocks.contains(&to) {
                // An exit of the loop being encoded: its post-loop state
                // provides the exit values (see `encode_loop`).
                return;
            }
        }
        self.incoming.entry(to).or_default().push(edge);
    }

    pub(crate) fn encode_term(&mut self, b: BlockId) -> Res<()> {
        let p = self.preds[&b];
        match self.func.blocks[b].term.clone() {
            Terminator::Jump(c) => {
                let args = self.call_args(&c.args)?;
                self.add_edge(b, c.block, Edge { act: p, args });
            }
            Terminator::Branch { cond, then_dest, else_dest } => {
                let c = [self.val_bool(0, cond)?, self.val_bool(1, cond)?];
                let mut then_act = [p[0]; 2];
                let mut else_act = [p[0]; 2];
                for t in 0..2 {
                    then_act[t] = self.st.and(&[p[t], c[t]]);
                    let nc = self.st.not(c[t]);
                    else_act[t] = self.st.and(&[p[t], nc]);
                }
                let a1 = self.call_args(&then_dest.args)?;
                let a2 = self.call_args(&else_dest.args)?;
                self.add_edge(b, then_dest.block, Edge { act: then_act, args: a1 });
                self.add_edge(b, else_dest.block, Edge { act: else_act, args: a2 });
            }
            Terminator::Return(_) => {}
            Terminator::Unreachable => {
                // No thread gets here: assume so.
                for t in 0..2 {
                    let n = self.st.not(p[t]);
                    self.assume(n);
                }
            }
        }
        Ok(())
    }

    /// The kinds of log (indexed by `AccessKind::index`) that the body of
    /// loop `l` may change: those of its accesses, and every kind if it has
    /// a barrier (which clears logs) or an instruction this list does not
    /// know (warp intrinsics, which touch no memory, are known). The logs
    /// of other kinds keep their values through the loop, as
    /// GPUVerify's loops only havoc the variables their body modifies; this
    /// matters most without inferred invariants (`--no-infer`), where a
    /// havocked atomic log of a loop without atomics would be unconstrained.
    pub(crate) fn loop_log_kinds(&self, l: usize) -> [bool; 3] {
        let mut changed = [false; 3];
        for &b in &self.loops.loops[l].blocks {
            for &i in &self.func.blocks[b].insts {
                match &self.func.insts[i].kind {
                    InstKind::Load { .. } => changed[AccessKind::Read.index()] = true,
                    InstKind::Store { .. } | InstKind::MemSet { .. } => changed[AccessKind::Write.index()] = true,
                    InstKind::MemCopy { .. } => {
                        changed[AccessKind::Read.index()] = true;
                        changed[AccessKind::Write.index()] = true;
                    }
                    InstKind::Atomic { .. } | InstKind::CmpXchg { .. } => changed[AccessKind::Atomic.index()] = true,
                    k if logs_nothing(k) => {}
                    _ => return [true; 3],
                }
            }
        }
        changed
    }

    /// Per tracked object, the kinds of log that loop `l` changes only by
    /// clearing them (its barriers), never by logging an access: no access
    /// of that kind in the body may reach the object (its pointer derives
    /// from another parameter or global). Such a log keeps what it holds
    /// through the loop, or loses it: `havoc_state` keeps its contents and
    /// only the flag that it holds something is fresh, implying the
    /// entry's. A softmax's reduction loop, which writes shared memory and
    /// synchronises, then leaves the log of the output's writes from the
    /// previous row as it was, instead of a log about which nothing is
    /// known because the writes that fill it come later in the row loop's
    /// body. Empty (nothing known) when the body has an instruction this
    /// does not know, or a call.
    pub(crate) fn loop_cleared_only(&self, l: usize, changed: [bool; 3]) -> Vec<[bool; 3]> {
        let n = self.logs.objs.len();
        let mut accessed = vec![[false; 3]; n];
        let mark = |enc: &Self, accessed: &mut Vec<[bool; 3]>, ptr: ValueId, k: AccessKind| {
            let obj = lockstep_analysis::pointers::static_root(enc.func, ptr).map(|r| enc.root_object(r));
            for (oi, o) in enc.objects.iter().enumerate() {
                let Some(m) = o.tracked else { continue };
                if obj.is_none_or(|x| x == oi) {
                    accessed[m][k.index()] = true;
                }
            }
        };
        for &b in &self.loops.loops[l].blocks {
            for &i in &self.func.blocks[b].insts {
                match &self.func.insts[i].kind {
                    InstKind::Load { ptr, .. } => mark(self, &mut accessed, *ptr, AccessKind::Read),
                    InstKind::Store { ptr, .. } => mark(self, &mut accessed, *ptr, AccessKind::Write),
                    InstKind::MemSet { dst, .. } => mark(self, &mut accessed, *dst, AccessKind::Write),
                    InstKind::MemCopy { dst, src, .. } => {
                        mark(self, &mut accessed, *dst, AccessKind::Write);
                        mark(self, &mut accessed, *src, AccessKind::Read);
                    }
                    InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => {
                        mark(self, &mut accessed, *ptr, AccessKind::Atomic)
                    }
                    InstKind::Barrier { .. } => {}
                    k if logs_nothing(k) => {}
                    _ => return Vec::new(),
                }
            }
        }
        accessed.iter().map(|a| std::array::from_fn(|k| changed[k] && !a[k])).collect()
    }

    /// A fresh loop state shaped like `shape_hp` and `logs`; the logs of the
    /// kinds not in `changed` are kept as they are in `logs`.
    pub(crate) fn havoc_state(
        &mut self,
        l: usize,
        shape_hp: &[ValueId],
        logs: &LogState,
        prefix: &str,
        changed: [bool; 3],
        cleared_only: &[[bool; 3]],
    ) -> LoopState {
        let mut hp = [Vec::new(), Vec::new()];
        for t in 0..2 {
            for &p in shape_hp {
                let ty = self.func.value_type(p);
                let s = self.fresh_sym(ty, &format!("{prefix}_t{}", t + 1));
                hp[t].push(s);
            }
        }
        let q = [self.fresh(&format!("{prefix}_q1"), Sort::Bool), self.fresh(&format!("{prefix}_q2"), Sort::Bool)];
        let mut logs_out = logs.havoc(&mut self.st, prefix, !self.benign_sites.is_empty());
        // Log symbols are numbered too (they belong to the loop state).
        for t in logs_out.terms() {
            if let TermKind::Const(f) = self.st.kind(t) {
                self.seq.insert(*f, self.seq_counter);
                self.seq_counter += 1;
            }
        }
        // The kept logs are the terms from before the loop (with their
        // numbers from there: constants for the loop).
        for (m, kinds) in logs_out.objs.iter_mut().enumerate() {
            for k in 0..3 {
                if !changed[k] || (k == AccessKind::Read.index() && self.read_log_unused(m)) {
                    kinds[k] = logs.objs[m][k].clone();
                } else if cleared_only.get(m).is_some_and(|c| c[k]) {
                    // Only cleared in the loop: the same contents, and
                    // something logged only if it was on entry.
                    let has = kinds[k].has;
                    kinds[k] = logs.objs[m][k].clone();
                    kinds[k].has = has;
                    let was = self.st.implies(has, logs.objs[m][k].has);
                    self.assume(was);
                }
            }
        }
        // The occurrence counters of the `__syncwarp`s outside the loop keep
        // their values through it.
        for (w, (i, c)) in logs_out.warp.iter_mut().enumerate() {
            let inside = self.inst_block.get(i).is_some_and(|b| self.loops.loops[l].blocks.contains(b));
            if !inside {
                *c = logs.warp[w].1;
            }
        }
        LoopState { hp, q, logs: logs_out }
    }

    /// Substitutes the symbols of `from` by the terms of `to` in `t`.
    pub fn subst_state(&mut self, t: TermId, from: &LoopState, to: &LoopState) -> TermId {
        let map: HashMap<TermId, TermId> = from.terms().into_iter().zip(to.terms()).collect();
        self.subst(t, &map)
    }

    pub fn subst(&mut self, t: TermId, map: &HashMap<TermId, TermId>) -> TermId {
        let mut memo: HashMap<TermId, TermId> = HashMap::new();
        self.subst_rec(t, map, &mut memo)
    }

    pub(crate) fn subst_rec(&mut self, t: TermId, map: &HashMap<TermId, TermId>, memo: &mut HashMap<TermId, TermId>) -> TermId {
        if let Some(&r) = map.get(&t) {
            return r;
        }
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let r = match self.st.kind(t).clone() {
            TermKind::App(op, args) => {
                let new: Vec<TermId> = args.iter().map(|&a| self.subst_rec(a, map, memo)).collect();
                if new.iter().zip(args.iter()).all(|(a, b)| a == b) {
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

    /// Whether every free symbol of `t` is a constant for the body of a loop
    /// whose symbols below `mark` are constants.
    pub fn allowed(&self, t: TermId, mark: usize) -> bool {
        let fs = self.st.free_symbols(&[t]);
        fs.funs.iter().all(|f| self.seq.get(f).is_none_or(|&s| s < mark))
    }

    /// `t` with the names (`Enc::name`) defined after `mark` replaced by
    /// what they name, when that leaves only symbols from before `mark`
    /// (an equal term, since each name is defined equal to its term), or
    /// `None`. An inner loop's start `threadIdx.x + 1`, computed in the
    /// body of the loop around it, is named there, yet it is the same in
    /// every iteration of that loop; a candidate about a ghost copy of the
    /// inner counter needs it.
    pub(crate) fn expand_names(&mut self, t: TermId, mark: usize) -> Option<TermId> {
        if self.allowed(t, mark) {
            return Some(t);
        }
        // The names below `t` defined after `mark`, with what they name
        // (whose own names are visited in turn); a bounded walk.
        let mut map: HashMap<TermId, TermId> = HashMap::new();
        let mut stack = vec![t];
        let mut seen = std::collections::HashSet::new();
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            if seen.len() > 4096 {
                return None;
            }
            match self.st.kind(u).clone() {
                TermKind::Const(f) => {
                    if self.seq.get(&f).is_none_or(|&s| s < mark) {
                        continue;
                    }
                    let def = *self.named.get(&u)?;
                    map.insert(u, def);
                    stack.push(def);
                }
                TermKind::App(_, args) => stack.extend(args),
                _ => {}
            }
        }
        // Substituting a name's term may bring in the next level's names.
        let mut cur = t;
        for _ in 0..=map.len() {
            let next = self.subst(cur, &map);
            if next == cur {
                break;
            }
            cur = next;
        }
        self.allowed(cur, mark).then_some(cur)
    }

    pub(crate) fn encode_loop(&mut self, l: usize) -> Res<()> {
        let header = self.loops.loops[l].header;
        let hparams = self.func.blocks[header].params.clone();
        // Entry: merge the edges from outside the loop.
        let pe = self.merge_incoming(header)?;
        let entry = LoopState {
            hp: [
                hparams.iter().map(|&p| self.vals[0][&p]).collect(),
                hparams.iter().map(|&p| self.vals[1][&p]).collect(),
            ],
            q: pe,
            logs: self.logs.clone(),
        };
        let ctx_entry = self.cur;

        // The havocked state of the body pass.
        let body_lit = self.st.fresh_const("inv_body", Sort::Bool);
        self.assume(body_lit);
        let body_node = self.cur.expect("the body literal is a node of its own");
        let changed = self.loop_log_kinds(l);
        let cleared_only = self.loop_cleared_only(l, changed);
        let state = self.havoc_state(l, &hparams, &entry.logs, &format!("L{l}"), changed, &cleared_only);
        let mark = self.seq_counter;
        for t in 0..2 {
            let imp = self.st.implies(state.q[t], pe[t]);
            self.assume(imp);
            for (k, &p) in hparams.iter().enumerate() {
                self.vals[t].insert(p, state.hp[t][k]);
            }
        }
        self.loop_data[l].state = Some(state.clone());
        self.loop_data[l].entry = Some(entry.clone());
        self.loop_data[l].mark = mark;
        self.loop_data[l].pe = Some(pe);
        self.loop_data[l].param_cands = self.param_candidates(l);
        self.logs = state.logs.clone();
        // The threads' own-write slots are not part of the loop state: a
        // loop that may write or synchronise starts each iteration, and
        // ends, knowing nothing about them (which is sound: they only ever
        // make races benign).
        let may_write = changed[AccessKind::Write.index()] || changed[AccessKind::Atomic.index()];
        if may_write {
            self.clear_own();
        }
        self.preds.insert(header, state.q);

        self.region_stack.push(l);
        self.encode_region(Some(l))?;
        self.region_stack.pop();

        // The back-edge state: threads that do not take a back edge freeze.
        let ctx_end = self.cur;
        let backs = self.back.remove(&l).unwrap_or_default();
        let mut next = state.clone();
        next.logs = self.logs.clone();
        // The logs kept through the loop must have come back unchanged;
        // otherwise `loop_log_kinds` missed a way of changing them and
        // keeping them would be unsound.
        for (m, kinds) in state.logs.objs.iter().enumerate() {
            for k in 0..3 {
                let kept = !changed[k] || (k == AccessKind::Read.index() && self.read_log_unused(m));
                let mut back = next.logs.objs[m][k].clone();
                if cleared_only.get(m).is_some_and(|c| c[k]) {
                    // Only the flag may change (it is what a barrier clears).
                    back.has = kinds[k].has;
                }
                if (kept || cleared_only.get(m).is_some_and(|c| c[k])) && kinds[k] != back {
                    return err("internal: a loop changed a race log its instructions should not change", None);
                }
            }
        }
        for t in 0..2 {
            let acts: Vec<TermId> = backs.iter().map(|e| e.act[t]).collect();
            let q = self.st.or(&acts);
            next.q[t] = self.name(q);
            for k in 0..hparams.len() {
                let mut acc = state.hp[t][k];
                for e in backs.iter().rev() {
                    acc = self.ite_sym(e.act[t], e.args[t][k], acc);
                }
                next.hp[t][k] = self.name_sym(acc);
            }
        }

        // Invariants: candidates (guarded) and user invariants.
        let back_args: Vec<[Vec<Sym>; 2]> = backs.iter().map(|e| e.args.clone()).collect();
        let cands = self.loop_candidates(l, &state, &entry, &back_args);
        let mut body_conj = Vec::new();
        let mut checks: Vec<(TermId, Option<usize>, Option<InstId>, String)> = Vec::new();
        let first_cand = self.candidates.len();
        for (tag, text, term) in cands {
            let guard = self.st.fresh_const("cand", Sort::Bool);
            self.candidates.push(Candidate { tag: tag.to_string(), text: text.clone(), guard, gates: vec![body_node], term: Some(term) });
            let ci = self.candidates.len() - 1;
            let g = self.st.implies(guard, term);
            body_conj.push(g);
            checks.push((term, Some(ci), None, text));
        }
        for (is_cand, text, term, inst) in self.loop_data[l].user.clone() {
            if is_cand {
                let guard = self.st.fresh_const("cand", Sort::Bool);
                self.candidates.push(Candidate { tag: "user".into(), text: text.clone(), guard, gates: vec![body_node], term: Some(term) });
                let ci = self.candidates.len() - 1;
                let g = self.st.implies(guard, term);
                body_conj.push(g);
                checks.push((term, Some(ci), Some(inst), text));
            } else {
                body_conj.push(term);
                checks.push((term, None, Some(inst), text));
            }
        }
        let conj = self.st.and(&body_conj);
        let d = self.st.implies(body_lit, conj);
        self.defs.push(d);
        let made = first_cand..self.candidates.len();
        self.record_daikon_loop(l, &state, &entry, pe, made);
        let loop_loc = self.loc_text(*self.func.term_locs.get(header));
        // When no thread reaches the loop, its invariants need not hold on
        // entry: the state after it is then the entry state itself (below),
        // and nothing is assumed about it.
        let any_enter = self.st.or(&[pe[0], pe[1]]);
        for (term, cand, inst, text) in &checks {
            let e = self.subst_state(*term, &state, &entry);
            let e = self.st.implies(any_enter, e);
            let p = self.subst_state(*term, &state, &next);
            let p = self.split_on_log_choices(p);
            self.obligations.push(Obligation {
                cond: e,
                ctx: ctx_entry,
                kind: ObKind::Invariant { entry: true },
                inst: *inst,
                message: format!("loop invariant `{text}` (loop at {loop_loc}) may not hold on entry"),
                cand: *cand,
            });
            self.obligations.push(Obligation {
                cond: p,
                ctx: ctx_end,
                kind: ObKind::Invariant { entry: false },
                inst: *inst,
                message: format!("loop invariant `{text}` (loop at {loop_loc}) may not be maintained"),
                cand: *cand,
            });
        }

        // After the loop: a fresh state satisfying the invariants, with both
        // threads out of the loop.
        self.cur = ctx_entry;
        let post_lit = self.st.fresh_const("inv_post", Sort::Bool);
        self.assume(post_lit);
        // The candidates' assumptions after the loop are gated by this
        // node's literal too (see `Candidate::gates`).
        let post_node = self.cur.expect("the post literal is a node of its own");
        for (_, cand, _, _) in &checks {
            if let Some(ci) = cand {
                self.candidates[*ci].gates.push(post_node);
            }
        }
        let mut post = self.havoc_state(l, &hparams, &entry.logs, &format!("P{l}"), changed, &cleared_only);
        for t in 0..2 {
            let nq = self.st.not(post.q[t]);
            self.assume(nq);
        }
        // The race logs after the loop: as on entry if thread 1 did not
        // reach it, because they are thread 1's: every change to them (its
        // logged accesses, the clearing at a barrier it passes) is guarded
        // by thread 1's predicate.
        let enter1 = pe[0];
        for (m, kinds) in post.logs.objs.iter_mut().enumerate() {
            for k in 0..3 {
                if !changed[k] {
                    continue;
                }
                let before = &entry.logs.objs[m][k];
                let log = &mut kinds[k];
                let pick = |enc: &mut Self, after: TermId, before: TermId| {
                    let t = enc.st.ite(enter1, after, before);
                    enc.name(t)
                };
                log.has = pick(self, log.has, before.has);
                log.off = pick(self, log.off, before.off);
                log.width = pick(self, log.width, before.width);
                log.site = pick(self, log.site, before.site);
                log.val = pick(self, log.val, before.val);
                log.own = pick(self, log.own, before.own);
                for (g, &b) in log.ghosts.iter_mut().zip(&before.ghosts) {
                    *g = pick(self, *g, b);
                }
            }
        }
        let mut post_conj = Vec::new();
        for (term, cand, _, _) in &checks {
            let s = self.subst_state(*term, &state, &post);
            let s = self.st.implies(any_enter, s);
            post_conj.push(match cand {
                Some(ci) => {
                    let g = self.candidates[*ci].guard;
                    self.st.implies(g, s)
                }
                None => s,
            });
        }
        let conj = self.st.and(&post_conj);
        let d = self.st.implies(post_lit, conj);
        self.defs.push(d);
        self.logs = post.logs.clone();
        if may_write {
            self.clear_own();
        }

        // Values of the header after the loop: the frozen parameters, and
        // the header's instructions re-evaluated on them.
        for t in 0..2 {
            for (k, &p) in hparams.iter().enumerate() {
                self.vals[t].insert(p, post.hp[t][k]);
            }
        }
        self.encode_insts(header, Mode::Pure)?;
        // Everything else defined in the loop and used after it is havocked.
        let body = self.loops.loops[l].blocks.clone();
        let used_outside = self.used_outside(&body);
        for v in used_outside {
            let def_block = self.def_block(v);
            if def_block == Some(header) {
                continue;
            }
            let ty = self.func.value_type(v);
            for t in 0..2 {
                let s = self.fresh_sym(ty, "after_loop");
                self.vals[t].insert(v, s);
            }
        }
        // Exit edges: each thread that entered leaves by exactly one.
        let mut exits: Vec<(BlockId, usize, BlockId)> = Vec::new();
        for &x in &body {
            for (k, s) in self.func.blocks[x].term.successors().into_iter().enumerate() {
                if !body.contains(&s) {
                    exits.push((x, k, s));
                }
            }
        }
        let mut ex: Vec<[TermId; 2]> = Vec::new();
        for _ in &exits {
            ex.push([self.fresh("exit1", Sort::Bool), self.fresh("exit2", Sort::Bool)]);
        }
        for t in 0..2 {
            let all: Vec<TermId> = ex.iter().map(|e| e[t]).collect();
            let any = self.st.or(&all);
            let e = self.st.eq(any, pe[t]);
            self.assume(e);
            for i in 0..all.len() {
                for j in i + 1..all.len() {
                    let both = self.st.and(&[all[i], all[j]]);
                    let n = self.st.not(both);
                    self.assume(n);
                }
            }
        }
        for (e, &(x, k, s)) in exits.iter().enumerate() {
            let term = self.func.blocks[x].term.clone();
            let call = term.block_calls()[k].clone();
            let mut args = [Vec::new(), Vec::new()];
            for t in 0..2 {
                if x == header {
                    if let Terminator::Branch { cond, .. } = term {
                        let c = self.val_bool(t, cond)?;
                        let c = if k == 0 { c } else { self.st.not(c) };
                        let imp = self.st.implies(ex[e][t], c);
                        self.assume(imp);
                    }
                    for &a in &call.args {
                        let v = self.val(t, a)?;
                        args[t].push(v);
                    }
                } else {
                    for &a in &call.args {
                        let s = self.fresh_sym(self.func.value_type(a), "exit_arg");
                        args[t].push(s);
                    }
                }
            }
            self.add_edge(x, s, Edge { act: ex[e], args });
        }
        Ok(())
    }

    pub(crate) fn def_block(&self, v: ValueId) -> Option<BlockId> {
        match &self.func.values[v].def {
            ValueDef::BlockParam(b, _) => Some(*b),
            ValueDef::Inst(i) => self.inst_block.get(i).copied(),
            _ => None,
        }
    }

    pub(crate) fn used_outside(&self, body: &std::collections::BTreeSet<BlockId>) -> Vec<ValueId> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for &b in &self.cfg.rpo {
            if body.contains(&b) {
                continue;
            }
            let block = &self.func.blocks[b];
            let mut ops: Vec<ValueId> = block.term.operands();
            for &i in &block.insts {
                ops.extend(self.func.insts[i].kind.operands());
            }
            for v in ops {
                if let Some(db) = self.def_block(v) {
                    if body.contains(&db) && seen.insert(v) {
                        out.push(v);
                    }
                }
            }
        }
        out
    }
}

/// Whether an instruction of a loop body neither logs an access nor clears
/// a log, as the loop summaries above know it: computation, fences, warp
/// intrinsics (which touch no memory), annotations and the calls that
/// reach no kernel memory. (A group vote's barrier is the `Barrier` before
/// its `Collective`.) Anything else makes them give up.
fn logs_nothing(kind: &InstKind) -> bool {
    kind.is_pure_computation()
        || matches!(
            kind,
            InstKind::Fence { .. }
                | InstKind::Warp { .. }
                | InstKind::Collective { .. }
                | InstKind::Nop { .. }
                | InstKind::Havoc
                | InstKind::InvalidCall { .. }
                | InstKind::CallExternal { .. }
                | InstKind::Annot { .. }
                | InstKind::AnnotValue { .. }
        )
}
