//! OpenCL's asynchronous group copies and their events.
//!
//! The front-end lowers `async_work_group_copy` to a group collective (a
//! barrier that orders no memory), a `MemCopy` by the group's first
//! work-item (the data movement, with its accesses logged at the call), and
//! the external call `__lockstep_async_copy(dst, src, bytes, event)` with
//! the pointers as integers; `wait_group_events(n, events)` becomes a group
//! collective and `__lockstep_wait_group_events(n, events[0], ...)` (see
//! `INTRINSICS.md`). This module gives those two calls their meaning:
//!
//! - A copy is one operation of the group. The `k`-th copy call of every
//!   work-item of a group is the group's `k`-th copy; its arguments must be
//!   the same in every work-item, or the call is a `NonUniformGroupCall`.
//! - A copy returns its event: the given one when it is not zero (the copy
//!   joins that event), else a new one.
//! - Until some work-item waits for its event, a copy is *in flight*: it may
//!   still be reading its source and writing its destination, so every
//!   barrier the group passes meanwhile logs its accesses again, in the new
//!   barrier interval (a barrier does not complete a copy).
//! - The group's `k`-th wait completes the copies of the events it names
//!   (every copy of the group when the count is not a constant). Its
//!   accesses are logged once more in the interval of the wait: a wait is
//!   not a barrier, so a work-item touching what another work-item's share
//!   of the copy touched needs a barrier after the wait (GPUVerify's
//!   semantics). The events waited for must be the same in every
//!   work-item.
//!
//! The copy's accesses are logged as the group's first work-item's (the one
//! that moved the data), so that work-item's own accesses never race with
//! the copy: a missed race at worst, never a false one.

use crate::exec::{Ctx, Thread};
use crate::result::{Loc, ViolationKind};
use crate::value::{Pointer, Val};

/// The external call that starts a copy and yields its event.
pub(crate) const ASYNC_COPY: &str = "__lockstep_async_copy";
/// The external call that waits for events.
pub(crate) const WAIT_EVENTS: &str = "__lockstep_wait_group_events";

/// Events the replay makes up are tagged so that they never equal a small
/// integer a kernel might pass as an event of its own.
const EVENT_TAG: u64 = 0x4c53_0000_0000_0000;

/// One copy of a group.
#[derive(Clone, Debug)]
pub(crate) struct AsyncCopy {
    /// The arguments as the first work-item passed them: destination and
    /// source (encoded pointers), bytes, event.
    args: [u64; 4],
    event: u64,
    /// The work-item whose accesses the copy's are logged as.
    copier: u32,
    copier_warp_epoch: u32,
    loc: Loc,
    /// A wait for its event happened.
    done: bool,
}

/// The copies and waits of one group.
#[derive(Clone, Debug, Default)]
pub(crate) struct AsyncGroup {
    copies: Vec<AsyncCopy>,
    /// The events of each wait, as the first work-item passed them; `None`
    /// for a wait for every copy.
    waits: Vec<Option<Vec<u64>>>,
}

impl Ctx<'_> {
    /// `__lockstep_async_copy(dst, src, bytes, event)` by `th`: returns the
    /// copy's event.
    pub(crate) fn async_copy(&mut self, th: &mut Thread, loc: Loc, args: &[Val]) -> Val {
        let bits = |i: usize| args.get(i).map_or(0, |v| match v {
            Val::Ptr(p) => p.encode(),
            other => other.bits() as u64,
        });
        let call = [bits(0), bits(1), bits(2), bits(3)];
        let k = th.async_copies as usize;
        th.async_copies += 1;
        let first = self.launch.threads_per_group() as u32 * th.group;
        let group = self.async_groups.entry(th.group).or_default();
        if let Some(copy) = group.copies.get(k) {
            let (same, event) = (copy.args == call, copy.event);
            if !same {
                self.violation(th, loc, ViolationKind::NonUniformGroupCall { what: "async_work_group_copy" }, 30, |_| {
                    format!(
                        "`async_work_group_copy` called with arguments that differ between work-items of a group (by {})",
                        th.id
                    )
                });
            }
            return Val::Bits(event as u128);
        }
        let event = if call[3] != 0 { call[3] } else { EVENT_TAG | (k as u64 + 1) };
        let copy = AsyncCopy { args: call, event, copier: first, copier_warp_epoch: th.warp_epoch, loc, done: false };
        group.copies.push(copy);
        Val::Bits(event as u128)
    }

    /// `__lockstep_wait_group_events(n, events...)` by `th`. Without events,
    /// a count other than 0 (all ones for CUDA's `cooperative_groups::wait`,
    /// or a count that is not a small constant) waits for every copy.
    pub(crate) fn wait_group_events(&mut self, th: &mut Thread, loc: Loc, args: &[Val]) {
        let count = args.first().map_or(0, |v| v.bits() as u64);
        let events: Option<Vec<u64>> = (args.len() > 1 || count == 0)
            .then(|| args[1..].iter().map(|v| v.bits() as u64).collect());
        let k = th.async_waits as usize;
        th.async_waits += 1;
        let group = self.async_groups.entry(th.group).or_default();
        if let Some(first) = group.waits.get(k) {
            if *first != events {
                self.violation(th, loc, ViolationKind::NonUniformGroupCall { what: "wait_group_events" }, 31, |_| {
                    format!(
                        "`wait_group_events` called with events that differ between work-items of a group (by {})",
                        th.id
                    )
                });
            }
            return;
        }
        group.waits.push(events.clone());
        let waited: Vec<AsyncCopy> = group
            .copies
            .iter_mut()
            .filter(|c| !c.done && events.as_ref().is_none_or(|e| e.contains(&c.event)))
            .map(|c| {
                c.done = true;
                c.clone()
            })
            .collect();
        for copy in &waited {
            self.log_copy(copy);
        }
    }

    /// Logs the accesses of the copies of group `group` still in flight,
    /// after the group passed a barrier.
    pub(crate) fn relog_copies_in_flight(&mut self, group: u32) {
        let Some(g) = self.async_groups.get(&group) else { return };
        let in_flight: Vec<AsyncCopy> = g.copies.iter().filter(|c| !c.done).cloned().collect();
        for copy in &in_flight {
            self.log_copy(copy);
        }
    }

    /// Logs a copy's read of its source and write of its destination as its
    /// copier's, in the current barrier intervals. A range outside its
    /// object was reported by the `MemCopy` and is not logged.
    fn log_copy(&mut self, copy: &AsyncCopy) {
        let [dst, src, len, _] = copy.args;
        if len == 0 {
            return;
        }
        for (at, write) in [(src, false), (dst, true)] {
            let p = Pointer::decode(at);
            let Some((obj, size)) = p.obj.and_then(|obj| Some((obj, self.memory.get(obj)?.size()))) else { continue };
            if p.offset < 0 || (p.offset as u64).checked_add(len).is_none_or(|end| end > size) {
                continue;
            }
            self.log_access_as(copy.copier, copy.copier_warp_epoch, copy.loc, obj, p.offset as u64, len, write, false, false);
        }
    }
}
