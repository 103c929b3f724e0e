//! OpenCL's asynchronous group copies in the two-thread product: which
//! copies may still be in flight at each barrier.
//!
//! The front-end lowers `async_work_group_copy(dst, src, n, event)` to a
//! group collective (a barrier fencing nothing), a `MemCopy` by the group's
//! first work-item (zero bytes for the others) and the external call
//! `__lockstep_async_copy(dst, src, bytes, event)` that yields the copy's
//! event; `wait_group_events(n, events)` becomes a group collective and
//! `__lockstep_wait_group_events(n, events[0], ...)` with the events loaded
//! from the array the kernel passed (see `INTRINSICS.md`, and
//! `lockstep_replay`'s `async_copy` for the reference semantics).
//!
//! A copy stays in flight from its call until a wait for its event: a
//! barrier meanwhile does not complete it. The encoding models that with
//! the race logs (see `Enc::barrier`): the `MemCopy` logs the copy's read of
//! its source and write of its destination as the first work-item's
//! accesses at the call, and a barrier keeps (does not clear) a logged
//! access whose site is the `MemCopy` of a copy that may still be in flight
//! there. A copy's accesses therefore race with every access another
//! work-item makes from the copy's call until the first barrier after the
//! wait for its event: the wait is not a barrier, so what follows it in the
//! same barrier interval still races with the copy, as in the interpreter.
//!
//! This module finds, by a forward data-flow analysis of the (inlined)
//! kernel, which copies may be in flight at each barrier. Events travel
//! through the work-item's private memory (`event_t handles[2]`), so the
//! analysis tracks which copy's event each private 8-byte slot holds, with
//! strong updates for stores at constant offsets of a private local and
//! every slot forgotten on a write through a pointer it cannot place.
//! Events are named by the copy site whose *latest* execution created them
//! (with a zero event argument); a later execution of that site creates a
//! new event, and every fact naming the old one is forgotten. Per copy site
//! the analysis knows whether its latest execution may be in flight with a
//! known event (which a wait for that event completes), or whether some
//! execution may be in flight with an event no longer named (`Lost`: in
//! flight until the kernel ends, as far as the proof is concerned).
//!
//! A wait or a copy whose events the analysis cannot trace to copies (an
//! event chosen through a pointer that differs between paths, a count that
//! is not a constant) makes the kernel `Unknown`: the prover could neither
//! tell which copies the wait completes nor show that the work-items of a
//! group pass the same events (the interpreter's `NonUniformGroupCall`).
//! With every event traced, the events a group's work-items pass are the
//! same: each work-item's event names the latest execution of the same
//! copy site, and the barrier-divergence checks of the collectives make
//! the work-items of a group execute the same copies in the same order.
//! The other arguments of a copy are checked uniform by the encoding.

use std::collections::{BTreeMap, HashMap};

use lockstep_kir::{
    BlockId, CastOp, Function, InstId, InstKind, LocalId, MemSpace, SrcLoc, Terminator, Type, ValueDef, ValueId,
};

use lockstep_analysis::block_order::BlockOrder;

/// The external call that starts a copy and yields its event.
pub(crate) const ASYNC_COPY: &str = "__lockstep_async_copy";
/// The external call that waits for events.
pub(crate) const WAIT_EVENTS: &str = "__lockstep_wait_group_events";

/// What the encoding needs to know about a kernel's async copies.
#[derive(Default, Debug)]
pub(crate) struct AsyncCopies {
    /// The `MemCopy` of each copy, by the copy's `__lockstep_async_copy`
    /// call.
    pub memcopy_of: HashMap<InstId, InstId>,
    /// For each barrier: the `MemCopy` sites of the copies that may still be
    /// in flight when a work-item reaches it.
    pub in_flight: HashMap<InstId, Vec<InstId>>,
}

/// Why the copies cannot be modelled (the kernel becomes `Unknown`).
pub(crate) struct AsyncError {
    pub reason: String,
    pub at: Option<SrcLoc>,
}

/// The state of a copy site's executions.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Status {
    /// Every execution so far has completed (or none happened).
    Done,
    /// Earlier executions have completed; the latest may be in flight, with
    /// the event the latest execution of the given site created.
    Flight(usize),
    /// Some execution may be in flight with an event the analysis no longer
    /// names.
    Lost,
}

impl Status {
    fn join(self, other: Status) -> Status {
        match (self, other) {
            (Status::Done, x) | (x, Status::Done) => x,
            (Status::Flight(a), Status::Flight(b)) if a == b => Status::Flight(a),
            _ => Status::Lost,
        }
    }
}

/// The abstract state at a program point. Absent entries are unknown.
#[derive(Clone, PartialEq, Debug)]
struct State {
    /// (private local, byte offset) -> the site whose latest zero-event
    /// execution created the event that the 8 bytes there hold.
    slots: BTreeMap<(LocalId, i64), usize>,
    /// Per copy site: the event of its latest execution.
    latest: Vec<Option<usize>>,
    status: Vec<Status>,
    /// The events the block's parameters receive (on entry to a block:
    /// those every incoming edge agrees on; the inliner passes a callee's
    /// result that way).
    params: BTreeMap<ValueId, usize>,
}

impl State {
    fn join(&self, other: &State) -> State {
        let slots = self.slots.iter().filter(|(k, v)| other.slots.get(k) == Some(v)).map(|(k, v)| (*k, *v)).collect();
        let latest = self.latest.iter().zip(&other.latest).map(|(a, b)| if a == b { *a } else { None }).collect();
        let status = self.status.iter().zip(&other.status).map(|(a, b)| a.join(*b)).collect();
        let params = self.params.iter().filter(|(k, v)| other.params.get(k) == Some(v)).map(|(k, v)| (*k, *v)).collect();
        State { slots, latest, status, params }
    }

    /// The latest execution of `site` with a zero event creates a new event:
    /// every fact naming the previous one is forgotten, and the copies
    /// waiting on it can no longer be completed by name.
    fn new_generation(&mut self, site: usize, env: &mut HashMap<ValueId, usize>) {
        self.slots.retain(|_, e| *e != site);
        env.retain(|_, e| *e != site);
        for l in self.latest.iter_mut() {
            if *l == Some(site) {
                *l = None;
            }
        }
        for s in self.status.iter_mut() {
            if *s == Status::Flight(site) {
                *s = Status::Lost;
            }
        }
    }
}

/// Where a pointer may point, as far as private slots are concerned.
enum Place {
    /// At this byte offset of this private local.
    Slot(LocalId, i64),
    /// Somewhere in this private local.
    Local(LocalId),
    /// Not into private memory.
    Elsewhere,
    /// Anywhere, private memory included.
    Anywhere,
}

/// An event argument, traced.
enum Event {
    Zero,
    /// The event the latest zero-event execution of this site created.
    Of(usize),
    Unknown,
}

struct Analysis<'a> {
    func: &'a Function,
    /// Copy sites: (`__lockstep_async_copy` call, its `MemCopy`).
    sites: Vec<(InstId, InstId)>,
    site_of: HashMap<InstId, usize>,
}

/// The copies of `func` and the copies that may be in flight at each
/// barrier (see the module docs).
pub(crate) fn analyse(func: &Function, cfg: &BlockOrder) -> Result<AsyncCopies, AsyncError> {
    let mut a = Analysis { func, sites: Vec::new(), site_of: HashMap::new() };
    for &b in &cfg.rpo {
        let insts = &func.blocks[b].insts;
        for (k, &i) in insts.iter().enumerate() {
            if let InstKind::CallExternal { name, args } = &func.insts[i].kind {
                if name == ASYNC_COPY {
                    let Some(m) = a.find_memcopy(&insts[..k], args) else {
                        return Err(AsyncError {
                            reason: "an async copy whose data movement lockstep cannot find".into(),
                            at: func.inst_locs[i],
                        });
                    };
                    a.site_of.insert(i, a.sites.len());
                    a.sites.push((i, m));
                }
            }
        }
    }
    let mut out = AsyncCopies::default();
    if a.sites.is_empty() {
        return Ok(out);
    }
    let n = a.sites.len();
    let entry_state =
        State { slots: BTreeMap::new(), latest: vec![None; n], status: vec![Status::Done; n], params: BTreeMap::new() };
    // Round-robin iteration in reverse postorder to the fixpoint. A block's
    // entry state only rises in a finite lattice (slots and events are
    // forgotten, statuses rise from `Done` to `Lost`), so it terminates.
    let mut ins: HashMap<BlockId, State> = HashMap::new();
    ins.insert(func.entry, entry_state.clone());
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &cfg.rpo {
            let Some(state) = ins.get(&b).cloned() else { continue };
            let (end, env, _) = a.transfer(b, state, None);
            let calls = match &func.blocks[b].term {
                Terminator::Jump(c) => vec![c],
                Terminator::Branch { then_dest, else_dest, .. } => vec![then_dest, else_dest],
                Terminator::Return(_) | Terminator::Unreachable => vec![],
            };
            for call in calls {
                let s = call.block;
                let mut out = end.clone();
                out.params = func.blocks[s]
                    .params
                    .iter()
                    .zip(&call.args)
                    .filter_map(|(&p, &arg)| match a.event(arg, &end, &env) {
                        Event::Of(e) => Some((p, e)),
                        _ => None,
                    })
                    .collect();
                let new = match ins.get(&s) {
                    Some(old) => old.join(&out),
                    None => out,
                };
                if ins.get(&s) != Some(&new) {
                    ins.insert(s, new);
                    changed = true;
                }
            }
        }
    }
    // A last pass over the fixpoint records the barriers' in-flight copies
    // and reports what cannot be traced.
    for &b in &cfg.rpo {
        let Some(state) = ins.get(&b).cloned() else { continue };
        let (_, _, err) = a.transfer(b, state, Some(&mut out));
        if let Some(e) = err {
            return Err(e);
        }
    }
    for &(call, m) in &a.sites {
        out.memcopy_of.insert(call, m);
    }
    Ok(out)
}

impl Analysis<'_> {
    /// The `MemCopy` the front-end emitted for the copy call with `args`:
    /// the last one before it in its block, on the same pointers.
    fn find_memcopy(&self, before: &[InstId], args: &[ValueId]) -> Option<InstId> {
        let arg_ptr = |k: usize| -> Option<ValueId> {
            let v = *args.get(k)?;
            match &self.func.values[v].def {
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::Cast { op: CastOp::PtrToInt, arg } => Some(*arg),
                    _ => None,
                },
                _ => None,
            }
        };
        if args.len() != 4 {
            return None;
        }
        let (dst, src) = (arg_ptr(0)?, arg_ptr(1)?);
        before.iter().rev().copied().find(|&i| {
            matches!(&self.func.insts[i].kind, InstKind::MemCopy { dst: d, src: s, .. } if *d == dst && *s == src)
        })
    }

    /// Runs block `b` from `state`: the state at its end and the events of
    /// its parameters and loads. With `record`, notes the in-flight copies
    /// at each barrier and returns the first untraceable event.
    fn transfer(
        &self,
        b: BlockId,
        mut state: State,
        mut record: Option<&mut AsyncCopies>,
    ) -> (State, HashMap<ValueId, usize>, Option<AsyncError>) {
        // Events of the block's parameters and of its loads (parameters and
        // loads of other blocks are not followed: a copy between there and
        // the use could make them stale without this block seeing it).
        let mut env: HashMap<ValueId, usize> = std::mem::take(&mut state.params).into_iter().collect();
        let mut error = None;
        for &i in &self.func.blocks[b].insts {
            let data = &self.func.insts[i];
            let untraceable = |what: &str| AsyncError {
                reason: format!("{what} whose events lockstep cannot trace to their copies"),
                at: self.func.inst_locs[i],
            };
            match &data.kind {
                InstKind::Load { ptr, .. } => {
                    if let (Some(r), Place::Slot(l, off)) = (data.result, self.place(*ptr)) {
                        if self.func.value_type(r).store_size() == 8 {
                            if let Some(&e) = state.slots.get(&(l, off)) {
                                env.insert(r, e);
                            }
                        }
                    }
                }
                InstKind::Store { ptr, value, .. } => {
                    let width = self.func.value_type(*value).store_size() as i64;
                    let place = self.place(*ptr);
                    Self::kill(&mut state, &place, Some(width));
                    if let (Place::Slot(l, off), 8, Event::Of(e)) = (place, width, self.event(*value, &state, &env)) {
                        state.slots.insert((l, off), e);
                    }
                }
                InstKind::MemCopy { dst, .. } | InstKind::MemSet { dst, .. } => {
                    Self::kill(&mut state, &self.place(*dst), None);
                }
                InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => {
                    Self::kill(&mut state, &self.place(*ptr), None);
                }
                InstKind::CallExternal { name, args } if name == ASYNC_COPY => {
                    let site = self.site_of[&i];
                    let created = match self.event(args[3], &state, &env) {
                        Event::Zero => {
                            state.new_generation(site, &mut env);
                            site
                        }
                        Event::Of(e) => e,
                        Event::Unknown => {
                            error.get_or_insert_with(|| untraceable("an async copy joining an event"));
                            state.status[site] = Status::Lost;
                            state.latest[site] = None;
                            continue;
                        }
                    };
                    state.status[site] = match state.status[site] {
                        Status::Done => Status::Flight(created),
                        _ => Status::Lost,
                    };
                    state.latest[site] = Some(created);
                }
                InstKind::CallExternal { name, args } if name == WAIT_EVENTS => {
                    let count = args.first().and_then(|&n| self.const_through_casts(n));
                    // A wait for every copy of the group (CUDA's
                    // `cooperative_groups::wait`): the count is all ones and
                    // no event is passed.
                    if count == Some(u128::from(u64::MAX)) && args.len() == 1 {
                        state.status.iter_mut().for_each(|s| *s = Status::Done);
                        continue;
                    }
                    if count != Some(args.len() as u128 - 1) {
                        error.get_or_insert_with(|| AsyncError {
                            reason: "a `wait_group_events` whose count is not a small constant".into(),
                            at: self.func.inst_locs[i],
                        });
                        continue;
                    }
                    let mut waited = Vec::new();
                    for &e in &args[1..] {
                        match self.event(e, &state, &env) {
                            Event::Zero => {}
                            Event::Of(e) => waited.push(e),
                            Event::Unknown => {
                                error.get_or_insert_with(|| untraceable("a `wait_group_events`"));
                            }
                        }
                    }
                    for s in state.status.iter_mut() {
                        if matches!(*s, Status::Flight(e) if waited.contains(&e)) {
                            *s = Status::Done;
                        }
                    }
                }
                InstKind::CallExternal { args, .. } => {
                    // A function without a body may write the private
                    // objects passed to it.
                    for &a in args {
                        if self.func.value_type(a).is_ptr() {
                            Self::kill(&mut state, &self.place(a), None);
                        }
                    }
                }
                InstKind::Barrier { .. } => {
                    if let Some(out) = record.as_deref_mut() {
                        let flying: Vec<InstId> = (0..self.sites.len())
                            .filter(|&s| state.status[s] != Status::Done)
                            .map(|s| self.sites[s].1)
                            .collect();
                        if !flying.is_empty() {
                            out.in_flight.insert(i, flying);
                        }
                    }
                }
                _ => {}
            }
        }
        let error = if record.is_some() { error } else { None };
        (state, env, error)
    }

    /// Forgets the slots a write of `width` bytes (unknown: `None`) at
    /// `place` may change.
    fn kill(state: &mut State, place: &Place, width: Option<i64>) {
        match *place {
            Place::Slot(l, off) => match width {
                Some(w) => state.slots.retain(|&(l2, o), _| l2 != l || o + 8 <= off || off + w <= o),
                None => state.slots.retain(|&(l2, _), _| l2 != l),
            },
            Place::Local(l) => state.slots.retain(|&(l2, _), _| l2 != l),
            Place::Elsewhere => {}
            Place::Anywhere => state.slots.clear(),
        }
    }

    /// Where pointer `v` may point (see `Place`).
    fn place(&self, mut v: ValueId) -> Place {
        let anywhere = |ty: Type| match ty {
            Type::Ptr(MemSpace::Private | MemSpace::Generic) => Place::Anywhere,
            Type::Ptr(_) => Place::Elsewhere,
            _ => Place::Anywhere,
        };
        let start = self.func.value_type(v);
        let mut off: Option<i64> = Some(0);
        for _ in 0..64 {
            match &self.func.values[v].def {
                ValueDef::LocalAddr(l) => {
                    if self.func.locals[*l].space != MemSpace::Private {
                        return Place::Elsewhere;
                    }
                    return match off {
                        Some(o) => Place::Slot(*l, o),
                        None => Place::Local(*l),
                    };
                }
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::PtrAdd { base, offset } => {
                        off = match (off, self.const_signed(*offset)) {
                            (Some(o), Some(c)) => o.checked_add(c),
                            _ => None,
                        };
                        v = *base;
                    }
                    InstKind::Cast { op: CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => v = *arg,
                    _ => return anywhere(start),
                },
                _ => return anywhere(start),
            }
        }
        anywhere(start)
    }

    /// The value of an integer constant, possibly behind integer casts
    /// (the front-end widens a count to 64 bits), zero-extended.
    fn const_through_casts(&self, mut v: ValueId) -> Option<u128> {
        for _ in 0..8 {
            match &self.func.values[v].def {
                ValueDef::Const(c) => return Some(*c),
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::Cast { op: CastOp::Zext, arg } => v = *arg,
                    _ => return None,
                },
                _ => return None,
            }
        }
        None
    }

    /// The value of an integer constant, sign-extended from its width.
    fn const_signed(&self, v: ValueId) -> Option<i64> {
        let ValueDef::Const(bits) = self.func.values[v].def else { return None };
        let Type::Int(w) = self.func.value_type(v) else { return None };
        let w = w as u32;
        if w == 0 || w > 64 {
            return None;
        }
        let shift = 64 - w;
        Some(((bits as u64) << shift) as i64 >> shift)
    }

    /// Which event the value `v` is, at a point with `state` and the block's
    /// loaded events `env`.
    fn event(&self, mut v: ValueId, state: &State, env: &HashMap<ValueId, usize>) -> Event {
        for _ in 0..64 {
            match &self.func.values[v].def {
                ValueDef::Const(0) | ValueDef::Null => return Event::Zero,
                ValueDef::Inst(i) => match &self.func.insts[*i].kind {
                    InstKind::Cast { op: CastOp::PtrToInt | CastOp::IntToPtr | CastOp::Bitcast | CastOp::AddrSpaceCast, arg } => {
                        v = *arg
                    }
                    InstKind::CallExternal { name, .. } if name == ASYNC_COPY => {
                        // An SSA value is the result of its definition's
                        // latest execution.
                        return match self.site_of.get(i).and_then(|&s| state.latest[s]) {
                            Some(e) => Event::Of(e),
                            None => Event::Unknown,
                        };
                    }
                    InstKind::Load { .. } => {
                        return match env.get(&v) {
                            Some(&e) => Event::Of(e),
                            None => Event::Unknown,
                        }
                    }
                    _ => return Event::Unknown,
                },
                ValueDef::BlockParam(..) => {
                    return match env.get(&v) {
                        Some(&e) => Event::Of(e),
                        None => Event::Unknown,
                    }
                }
                _ => return Event::Unknown,
            }
        }
        Event::Unknown
    }
}
