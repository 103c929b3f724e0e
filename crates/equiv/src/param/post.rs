//! Postconditions (`__ensures`) for one arbitrary thread, evaluated on the
//! final memory with each read of an output resolved to its writer.

use super::*;

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
    pub(super) fn check_post(
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
                    self.label = "postcondition";
                    match self.model_small_first(&facts, t, what, false)? {
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
}
