//! Data-race detection: a per-byte log of the accesses of the current
//! barrier intervals.
//!
//! The replay runs threads in one deterministic order, but a race must be
//! found whatever order the hardware picks. So instead of comparing values,
//! every access to shared or global memory is logged per byte with the
//! thread, the instruction, whether it wrote and whether it was atomic, and
//! the *epochs* the thread was in: how many group barriers its group had
//! passed, how many grid barriers the grid had passed, and how many warp
//! barriers (`__syncwarp`) the thread had passed. Two accesses by different
//! threads to one byte race when at least one writes, not both are atomic,
//! and no barrier both threads passed lies between them, which the epochs
//! decide:
//!
//! - different grid epochs: a grid barrier separates them;
//! - same group: a group barrier separates them when the group epochs
//!   differ and the thread of the earlier access fenced the memory at one
//!   of the barriers in between (its accesses are then complete before any
//!   thread passes the barrier; GPUVerify resets the earlier thread's log
//!   when *its* flags fence the memory). A group epoch advances when some
//!   waiting thread's barrier fences the memory; the threads whose own
//!   flags did not are recorded as `Unfenced` at that barrier. Within one
//!   warp, a warp barrier separates them when the later thread waited at
//!   it for the earlier one (the earlier thread is in its mask; see
//!   `WarpClocks`), and under warp-synchronous execution threads of one
//!   warp never race;
//! - different groups (global memory only): they race, since groups
//!   synchronise only through grid barriers.
//!
//! Benign races follow the rule `lockstep_analysis::ghost` states for the
//! three engines, byte by byte: two plain writes of the same value by
//! value-tracked stores do not race; a read does not race with another
//! thread's such write when the reading thread itself wrote every byte of
//! the read since the last barrier it reached (any barrier: group, grid or
//! warp), with such a write, and the other write wrote, on that byte, the
//! value the reader's own latest write left there (GPUVerify's
//! `WRITE_READ_BENIGN_FLAG`); and, under the equality abstraction, a read
//! does not race with another thread's write that left the byte as it was
//! (`Access::silent`: it wrote back the value the byte held; a byte never
//! written, or holding an undetermined value, has no known value, so a
//! write over it is never silent). The read
//! then returns the same value in every interleaving: any other concurrent
//! write of a different value to that byte races with this read (or with
//! the reader's own write, or with the read that a write-back copied), and
//! is reported. The rule is the same whichever access the replay meets
//! first, because the read carries what its thread had written
//! (`Access::own`, from `OwnWrites`) and the write whether it changed the
//! byte.
//!
//! Entries that can no longer race with any future access (an older grid
//! epoch, or for `__shared__` memory an older group epoch, unless their
//! thread skipped a fence) are pruned lazily
//! when the byte is next touched. Private and constant memory are not logged:
//! the former belongs to one thread, and writes to the latter are reported as
//! violations of their own.
//!
//! The log is kept in pages of `PAGE` bytes allocated on first touch, so a
//! large buffer of which a kernel touches a little costs little.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::result::Loc;
use crate::value::ObjId;

/// The barriers at which a thread's flags did not fence a memory kind that
/// another thread's flags fenced (OpenCL's `barrier(flags)` with flags that
/// differ between work-items): per (thread, shared memory?), the group
/// epochs those barriers ended.
#[derive(Default)]
pub(crate) struct Unfenced {
    map: HashMap<(u32, bool), Vec<u32>>,
}

impl Unfenced {
    /// Records that `thread` did not fence `shared` (or global) memory at
    /// the barrier that ended group epoch `epoch`.
    pub fn record(&mut self, thread: u32, shared: bool, epoch: u32) {
        self.map.entry((thread, shared)).or_default().push(epoch);
    }

    /// Whether `thread` fenced the memory at one of the barriers ending the
    /// epochs `from..to`.
    fn fenced_between(&self, thread: u32, shared: bool, from: u32, to: u32) -> bool {
        match self.map.get(&(thread, shared)) {
            None => from < to,
            Some(skipped) => (from..to).any(|e| !skipped.contains(&e)),
        }
    }

    fn skipped_any(&self, thread: u32, shared: bool) -> bool {
        !self.map.is_empty() && self.map.contains_key(&(thread, shared))
    }
}

/// One logged access to one byte.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Access {
    /// The global linear index of the thread.
    pub thread: u32,
    pub loc: Loc,
    pub write: bool,
    pub atomic: bool,
    /// An atomic that is atomic only among the threads of its own block
    /// (`atomicAdd_block`, scope `cta`): it races with another block's
    /// atomics on the same byte, as a plain access would.
    pub block_scoped: bool,
    /// The byte a plain write left, when benign races are tolerated: two
    /// writes of the same value do not race (GPUVerify's default).
    pub value: Option<u8>,
    /// For a plain read: the byte the reading thread's own latest write
    /// left there, when that write came after the thread's last barrier and
    /// may be part of a benign race (see `OwnWrites`). A write of the same
    /// byte by another thread does not race with the read.
    pub own: Option<u8>,
    /// For a plain write whose value is tracked, under the equality
    /// abstraction (`ReplayOptions::benign_writes_from_memory`): the write
    /// left the byte as it was (it wrote back the value the byte held, as
    /// `v = A[0]; A[0] = v` does), so no read can tell whether it happened.
    pub silent: bool,
    pub grid_epoch: u32,
    pub group_epoch: u32,
    pub warp_epoch: u32,
}

impl Access {
    /// Whether `self` is a repeat of `other` that adds nothing to the log.
    fn same_as(&self, other: &Access) -> bool {
        self.thread == other.thread
            && self.loc == other.loc
            && self.atomic == other.atomic
            && self.block_scoped == other.block_scoped
            && self.grid_epoch == other.grid_epoch
            && self.group_epoch == other.group_epoch
            && self.warp_epoch == other.warp_epoch
            // A repeat with another value (or, for a read, after another
            // own write) can race where the first did not.
            && self.value == other.value
            && self.own == other.own
            && self.silent == other.silent
    }
}

/// The launch facts the conflict rule needs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Geometry {
    pub threads_per_group: u32,
    pub warp_lanes: u32,
    /// Threads of one warp are in lock-step and never race.
    pub warp_sync: bool,
    pub inter_group: bool,
}

impl Geometry {
    pub fn group_of(&self, thread: u32) -> u32 {
        thread / self.threads_per_group
    }

    fn warp_of(&self, thread: u32) -> u32 {
        (thread % self.threads_per_group) / self.warp_lanes
    }

    /// The race rule of the module documentation. `per_group` objects are
    /// only ever touched by one group, so threads of different groups never
    /// race on them.
    fn conflict(&self, a: &Access, b: &Access, per_group: bool, unfenced: &Unfenced, clocks: &WarpClocks) -> bool {
        if a.thread == b.thread || !(a.write || b.write) {
            return false;
        }
        // Two atomics do not race, unless one is block-scoped and the two
        // threads are in different blocks: then it is not atomic with
        // respect to the other.
        if a.atomic && b.atomic && !((a.block_scoped || b.block_scoped) && self.group_of(a.thread) != self.group_of(b.thread)) {
            return false;
        }
        if a.write && b.write && a.value.is_some() && a.value == b.value {
            return false;
        }
        // A benign write-read race (module documentation): the reader wrote
        // the byte itself and the other write left the same value, or the
        // write left the byte as it was.
        if a.write != b.write {
            let (read, write) = if a.write { (b, a) } else { (a, b) };
            if !read.atomic && !write.atomic && ((read.own.is_some() && read.own == write.value) || write.silent) {
                return false;
            }
        }
        if a.grid_epoch != b.grid_epoch {
            return false;
        }
        if self.group_of(a.thread) != self.group_of(b.thread) {
            return self.inter_group && !per_group;
        }
        if a.group_epoch != b.group_epoch {
            let (early, late) = if a.group_epoch < b.group_epoch { (a, b) } else { (b, a) };
            if unfenced.fenced_between(early.thread, per_group, early.group_epoch, late.group_epoch) {
                return false;
            }
        }
        if self.warp_of(a.thread) == self.warp_of(b.thread) && (self.warp_sync || clocks.ordered(self, a, b)) {
            return false;
        }
        true
    }

    /// The warp of `thread` across the grid, and its lane in that warp.
    fn warp_and_lane(&self, thread: u32) -> (u64, u32) {
        let local = thread % self.threads_per_group;
        let warps_per_group = self.threads_per_group.div_ceil(self.warp_lanes) as u64;
        (self.group_of(thread) as u64 * warps_per_group + (local / self.warp_lanes) as u64, local % self.warp_lanes)
    }
}

/// What the warp barriers (`__syncwarp(mask)`) a thread passed tell about
/// the other lanes of its warp.
///
/// A warp whose every barrier so far was *whole* (every lane of the warp
/// that has not exited took part, each naming every other in its mask)
/// runs in lock-step: all its running lanes have passed the same number
/// of warp barriers, so an access at an older warp epoch is ordered before
/// every later access of the warp, which is what the scalar epoch says
/// (an exited lane counts as having arrived, as CUDA counts exited
/// threads at barriers). The first barrier that is not whole (lanes that
/// pass masks naming only their half of the warp, a lane elsewhere or at a
/// group barrier) turns the warp to vector clocks: per lane, the warp
/// epoch of each other lane that the lane has synchronised with, directly
/// or through a third lane. A lane is ordered after another's access only
/// when it waited for that lane (the other lane was in its mask) at a
/// barrier after the access. Only such warps pay for the clocks.
#[derive(Default)]
pub(crate) struct WarpClocks {
    /// Per warp (`Geometry::warp_and_lane`), per lane, per other lane: one
    /// more than the latest warp epoch of the other lane whose accesses
    /// the lane is ordered after.
    clocks: HashMap<u64, Vec<Vec<u32>>>,
}

/// A lane's part in one warp barrier instance.
pub(crate) struct WarpArrival {
    pub thread: u32,
    /// Its warp epoch before the barrier.
    pub epoch: u32,
    /// The lanes it waits for (bit `l`: lane `l`).
    pub mask: u128,
}

impl WarpClocks {
    /// Whether access `b` (being made now) is ordered after the earlier
    /// access `a` of another lane of its warp by the warp barriers between.
    fn ordered(&self, geometry: &Geometry, a: &Access, b: &Access) -> bool {
        let (warp, lane_b) = geometry.warp_and_lane(b.thread);
        match self.clocks.get(&warp) {
            None => a.warp_epoch != b.warp_epoch,
            Some(lanes) => {
                let lane_a = geometry.warp_and_lane(a.thread).1;
                lanes[lane_b as usize][lane_a as usize] > a.warp_epoch
            }
        }
    }

    /// Records one instance of a warp barrier: `arrivals` are the lanes
    /// that execute it, `exited` the (thread, final warp epoch) of the
    /// warp's lanes that have exited, and `whole` whether every other lane
    /// of the warp took part with masks naming each other. The caller then
    /// advances each arriving lane's warp epoch.
    pub fn synchronise(&mut self, geometry: &Geometry, arrivals: &[WarpArrival], exited: &[(u32, u32)], all: &[(u32, u32)], whole: bool) {
        let Some(first) = arrivals.first() else { return };
        let (warp, _) = geometry.warp_and_lane(first.thread);
        if whole && !self.clocks.contains_key(&warp) {
            return;
        }
        let n = geometry.warp_lanes as usize;
        let lanes = self.clocks.entry(warp).or_insert_with(|| {
            // Out of lock-step: each lane is ordered after every access
            // at an epoch below its own, as the scalar rule had it.
            let mut lanes = vec![vec![0; n]; n];
            for &(thread, epoch) in all {
                let lane = geometry.warp_and_lane(thread).1 as usize;
                lanes[lane].fill(epoch);
            }
            lanes
        });
        let lane_of = |t: u32| geometry.warp_and_lane(t).1 as usize;
        let mut joined = Vec::with_capacity(arrivals.len());
        for me in arrivals {
            let mut clock = lanes[lane_of(me.thread)].clone();
            let mut see = |lane: usize, epoch: u32| {
                if let Some(c) = clock.get_mut(lane) {
                    *c = (*c).max(epoch + 1);
                }
            };
            for other in arrivals {
                let lane = lane_of(other.thread);
                if other.thread == me.thread || (lane < 128 && me.mask >> lane & 1 != 0) {
                    see(lane, other.epoch);
                    for (k, &c) in lanes[lane].iter().enumerate() {
                        if c > 0 {
                            see(k, c - 1);
                        }
                    }
                }
            }
            for &(thread, epoch) in exited {
                see(lane_of(thread), epoch);
            }
            joined.push(clock);
        }
        for (me, clock) in arrivals.iter().zip(joined) {
            lanes[lane_of(me.thread)] = clock;
        }
    }
}

/// One logged access to one byte, as the log stores it: an `Access` with
/// its location replaced by an index into the log's table of locations
/// and its small fields packed, 24 bytes instead of 40.
#[derive(Copy, Clone, Default)]
struct Entry {
    thread: u32,
    loc: u32,
    grid_epoch: u32,
    group_epoch: u32,
    warp_epoch: u32,
    /// `PRESENT`, `WRITE`, `ATOMIC`, `HAS_VALUE`, `HAS_OWN`, `SILENT`.
    flags: u8,
    value: u8,
    own: u8,
}

// The log's cost per byte touched is this size: keep it small.
const _: () = assert!(std::mem::size_of::<Entry>() == 24);

const PRESENT: u8 = 1;
const WRITE: u8 = 2;
const ATOMIC: u8 = 4;
const HAS_VALUE: u8 = 8;
const HAS_OWN: u8 = 16;
const SILENT: u8 = 32;
const BLOCK_SCOPED: u8 = 64;

impl Entry {
    fn present(&self) -> bool {
        self.flags & PRESENT != 0
    }
}

/// The locations of logged accesses, each stored once (a kernel has few
/// instructions, and every entry names one).
#[derive(Default)]
struct LocTable {
    locs: Vec<Loc>,
    ids: HashMap<Loc, u32>,
    /// The last location looked up: the bytes of one access share it.
    last: Option<(Loc, u32)>,
}

impl LocTable {
    fn id(&mut self, loc: Loc) -> u32 {
        if let Some((l, id)) = self.last {
            if l == loc {
                return id;
            }
        }
        let next = self.locs.len() as u32;
        let id = *self.ids.entry(loc).or_insert(next);
        if id == next {
            self.locs.push(loc);
        }
        self.last = Some((loc, id));
        id
    }

    fn pack(&mut self, a: &Access) -> Entry {
        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
        Entry {
            thread: a.thread,
            loc: self.id(a.loc),
            grid_epoch: a.grid_epoch,
            group_epoch: a.group_epoch,
            warp_epoch: a.warp_epoch,
            flags: PRESENT
                | flag(a.write, WRITE)
                | flag(a.atomic, ATOMIC)
                | flag(a.value.is_some(), HAS_VALUE)
                | flag(a.own.is_some(), HAS_OWN)
                | flag(a.silent, SILENT)
                | flag(a.block_scoped, BLOCK_SCOPED),
            value: a.value.unwrap_or(0),
            own: a.own.unwrap_or(0),
        }
    }

    fn unpack(&self, e: &Entry) -> Access {
        Access {
            thread: e.thread,
            loc: self.locs[e.loc as usize],
            write: e.flags & WRITE != 0,
            atomic: e.flags & ATOMIC != 0,
            value: (e.flags & HAS_VALUE != 0).then_some(e.value),
            own: (e.flags & HAS_OWN != 0).then_some(e.own),
            silent: e.flags & SILENT != 0,
            block_scoped: e.flags & BLOCK_SCOPED != 0,
            grid_epoch: e.grid_epoch,
            group_epoch: e.group_epoch,
            warp_epoch: e.warp_epoch,
        }
    }
}

/// Bytes per page of the log.
const PAGE: usize = 64;

/// Most accesses of one kind (reads, writes) remembered per byte.
const MAX_ENTRIES_PER_BYTE: usize = 6;

/// The log of one page of an object. A byte's reads (and its writes) are a
/// list of at most `MAX_ENTRIES_PER_BYTE` entries: the first is stored in
/// the page's array of its kind, allocated when the page first logs an
/// access of that kind, and the rest, which few bytes have, in the
/// object's `more` table. A vector add's input pages hold only reads and
/// its output pages only writes: 24 bytes per byte touched.
#[derive(Default)]
struct PageLog {
    /// Per byte, the epoch version at which its lists were last pruned;
    /// only for per-group objects, whose staleness depends on the group
    /// epochs (see `RaceLog::record`).
    stamps: Option<Box<[u64; PAGE]>>,
    /// For other objects, whose entries go stale only when the grid epoch
    /// changes: the grid epoch at which the page was last pruned.
    grid: u32,
    reads: Option<Box<[Entry; PAGE]>>,
    writes: Option<Box<[Entry; PAGE]>>,
    /// The bytes with entries in the object's `more` table, one bit each,
    /// so that the table is looked up only for them.
    more_mask: u64,
}

#[derive(Default)]
struct ObjectLog {
    /// Whether the object is per-group (`__shared__`): then entries of an
    /// older group epoch are stale.
    per_group: bool,
    pages: Vec<Option<Box<PageLog>>>,
    /// The pages of an object too large for a slot per page
    /// (`DENSE_LOG_BYTES`): a 4 GB `__shared__` array is cheap to
    /// allocate lazily, and its log must be too.
    sparse: HashMap<u64, Box<PageLog>, BuildHasherDefault<ByteHasher>>,
    /// The entries after the first of a byte's reads (`.0`) and writes
    /// (`.1`), by byte offset.
    more: HashMap<u64, (Vec<Entry>, Vec<Entry>), BuildHasherDefault<ByteHasher>>,
}

/// The largest object whose log keeps a slot for each of its pages.
const DENSE_LOG_BYTES: u64 = 1 << 24;

/// The access log of every logged object.
#[derive(Default)]
pub(crate) struct RaceLog {
    objects: Vec<ObjectLog>,
    locs: LocTable,
}

/// The epochs of the launch at the time of an access.
pub(crate) struct Epochs<'a> {
    pub grid: u32,
    /// The current group epoch of each group.
    pub group: &'a [u32],
    /// Changes whenever any epoch advances, so that a byte's log is pruned
    /// at most once per change.
    pub version: u64,
    pub unfenced: &'a Unfenced,
    pub warp_clocks: &'a WarpClocks,
}

/// A byte's list of one kind, taken out of the page and the `more` table
/// to be worked on as the `Vec` it stands for (at most
/// `MAX_ENTRIES_PER_BYTE` entries, on the stack).
struct List {
    items: [Entry; MAX_ENTRIES_PER_BYTE],
    len: usize,
}

impl List {
    fn load(first: &Entry, more: Option<&Vec<Entry>>) -> List {
        let mut list = List { items: [Entry::default(); MAX_ENTRIES_PER_BYTE], len: 0 };
        if first.present() {
            list.items[0] = *first;
            list.len = 1;
            for e in more.into_iter().flatten() {
                list.items[list.len] = *e;
                list.len += 1;
            }
        }
        list
    }

    fn as_slice(&self) -> &[Entry] {
        &self.items[..self.len]
    }

    /// Writes the list back: its first entry into the page, the rest into
    /// `more` (emptied, not removed, when there is none: the caller drops
    /// the table's slot when both kinds are empty).
    fn store(&self, first: &mut Entry, more: &mut Vec<Entry>) {
        *first = if self.len > 0 { self.items[0] } else { Entry::default() };
        more.clear();
        if self.len > 1 {
            more.extend_from_slice(&self.items[1..self.len]);
        }
    }

    fn retain(&mut self, keep: impl Fn(&Entry) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            if keep(&self.items[i]) {
                self.items[n] = self.items[i];
                n += 1;
            }
        }
        self.len = n;
    }

    fn remove_first(&mut self) {
        self.items.copy_within(1..self.len, 0);
        self.len -= 1;
    }

    fn push(&mut self, e: Entry) {
        self.items[self.len] = e;
        self.len += 1;
    }
}

impl RaceLog {
    /// Logs `access` to byte `byte` of `obj` and pushes every earlier access
    /// it races with onto `races`.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        obj: ObjId,
        per_group: bool,
        size: u64,
        byte: u64,
        access: Access,
        geometry: &Geometry,
        epochs: &Epochs,
        races: &mut Vec<Access>,
    ) {
        let index = obj.0 as usize;
        if self.objects.len() <= index {
            self.objects.resize_with(index + 1, ObjectLog::default);
        }
        let locs = &mut self.locs;
        let log = &mut self.objects[index];
        log.per_group = per_group;
        if byte >= size {
            return;
        }
        let page = byte / PAGE as u64;
        let fresh = || Box::new(PageLog { grid: epochs.grid, ..PageLog::default() });
        let page_log = if size > DENSE_LOG_BYTES {
            log.sparse.entry(page).or_insert_with(fresh)
        } else {
            if log.pages.is_empty() {
                log.pages.resize_with((size as usize).div_ceil(PAGE).max(1), || None);
            }
            let Some(slot) = log.pages.get_mut(page as usize) else {
                return;
            };
            slot.get_or_insert_with(fresh)
        };
        let at = (byte as usize) % PAGE;
        let stale = |a: &Entry| {
            a.grid_epoch != epochs.grid
                || (per_group
                    && a.group_epoch != epochs.group[geometry.group_of(a.thread) as usize]
                    && !epochs.unfenced.skipped_any(a.thread, true))
        };

        // Entries that can no longer race are pruned before the byte is
        // used. An entry of another object goes stale only when the grid
        // epoch changes, which makes it stale for good: the whole page is
        // pruned then, which removes what pruning each byte when it is
        // next touched would. A per-group object's entries also depend on
        // the group epochs and the fences skipped so far: each byte is
        // pruned when it is touched, as the version says.
        if per_group {
            let stamps = page_log.stamps.get_or_insert_with(|| Box::new([0; PAGE]));
            if stamps[at] != epochs.version {
                stamps[at] = epochs.version;
                prune_byte(page_log, &mut log.more, byte, at, &stale);
            }
        } else if page_log.grid != epochs.grid {
            page_log.grid = epochs.grid;
            let first = byte - at as u64;
            for i in 0..PAGE {
                prune_byte(page_log, &mut log.more, first + i as u64, i, &stale);
            }
        }

        let bit = 1u64 << at;
        let more = if page_log.more_mask & bit != 0 { log.more.get(&byte) } else { None };
        let writes = List::load(page_log.writes.as_ref().map_or(&Entry::default(), |w| &w[at]), more.map(|m| &m.1));
        for earlier in writes.as_slice() {
            let earlier = locs.unpack(earlier);
            if geometry.conflict(&earlier, &access, per_group, epochs.unfenced, epochs.warp_clocks) {
                races.push(earlier);
            }
        }
        if access.write {
            let reads = List::load(page_log.reads.as_ref().map_or(&Entry::default(), |r| &r[at]), more.map(|m| &m.0));
            for earlier in reads.as_slice() {
                let earlier = locs.unpack(earlier);
                if geometry.conflict(&earlier, &access, per_group, epochs.unfenced, epochs.warp_clocks) {
                    races.push(earlier);
                }
            }
        }
        // A thread that touches a byte repeatedly within one interval (a
        // loop without barriers) would otherwise grow the log without
        // bound; the last entry is the one it most likely repeats.
        let mut list = if access.write {
            writes
        } else {
            List::load(page_log.reads.as_ref().map_or(&Entry::default(), |r| &r[at]), more.map(|m| &m.0))
        };
        if list.as_slice().last().is_some_and(|last| access.same_as(&locs.unpack(last))) {
            return;
        }
        let entry = locs.pack(&access);
        // Bound the log, or thousands of threads touching one byte make
        // every access scan thousands of entries. Keeping the latest access
        // of each instruction still reports every racing instruction pair
        // (up to a few instructions per byte), which is what reports name.
        if list.len >= MAX_ENTRIES_PER_BYTE {
            match list.as_slice().iter().position(|a| a.loc == entry.loc) {
                Some(i) => list.items[i] = entry,
                None => {
                    list.remove_first();
                    list.push(entry);
                }
            }
        } else {
            list.push(entry);
        }
        let kind = if access.write { &mut page_log.writes } else { &mut page_log.reads };
        let first = &mut kind.get_or_insert_with(|| Box::new([Entry::default(); PAGE]))[at];
        if list.len <= 1 && page_log.more_mask & bit == 0 {
            *first = if list.len == 1 { list.items[0] } else { Entry::default() };
            return;
        }
        let slot = log.more.entry(byte).or_default();
        list.store(first, if access.write { &mut slot.1 } else { &mut slot.0 });
        if slot.0.is_empty() && slot.1.is_empty() {
            log.more.remove(&byte);
            page_log.more_mask &= !bit;
        } else {
            page_log.more_mask |= bit;
        }
    }
}

/// Removes the stale entries of one byte's lists (`at` in its page).
fn prune_byte(
    page: &mut PageLog,
    more: &mut HashMap<u64, (Vec<Entry>, Vec<Entry>), BuildHasherDefault<ByteHasher>>,
    byte: u64,
    at: usize,
    stale: &impl Fn(&Entry) -> bool,
) {
    let bit = 1u64 << at;
    let mut extra = if page.more_mask & bit != 0 { more.remove(&byte) } else { None };
    let (more_reads, more_writes) = match extra.as_mut() {
        Some((r, w)) => (Some(r), Some(w)),
        None => (None, None),
    };
    for (first, rest) in [(page.reads.as_mut().map(|r| &mut r[at]), more_reads), (page.writes.as_mut().map(|w| &mut w[at]), more_writes)] {
        let Some(first) = first else { continue };
        if !first.present() {
            continue;
        }
        let mut list = List::load(first, rest.as_deref());
        list.retain(|e| !stale(e));
        let mut spill = Vec::new();
        list.store(first, rest.unwrap_or(&mut spill));
        debug_assert!(spill.is_empty());
    }
    page.more_mask &= !bit;
    if let Some(extra) = extra {
        if !(extra.0.is_empty() && extra.1.is_empty()) {
            more.insert(byte, extra);
            page.more_mask |= bit;
        }
    }
}

/// What each thread wrote since the last barrier it reached (group, grid or
/// warp barrier), per byte of logged memory: the byte its latest write left
/// when that write was a plain write whose value may be part of a benign
/// race, `None` for any other write (atomics, copies, writes of values read
/// from memory). Reads look their bytes up to fill `Access::own`. A
/// thread's entries are dropped when it reaches a barrier or ends, so the
/// table holds the current intervals' writes of the threads still running.
#[derive(Default)]
pub(crate) struct OwnWrites {
    threads: HashMap<u32, HashMap<(ObjId, u64), Option<u8>, BuildHasherDefault<ByteHasher>>>,
}

impl OwnWrites {
    /// Records that `thread` wrote `byte` of `obj`, leaving `value` when the
    /// write may be part of a benign race.
    pub fn wrote(&mut self, thread: u32, obj: ObjId, byte: u64, value: Option<u8>) {
        self.threads.entry(thread).or_default().insert((obj, byte), value);
    }

    /// The byte `thread`'s latest write of `byte` of `obj` since its last
    /// barrier left, if that write may be part of a benign race.
    pub fn get(&self, thread: u32, obj: ObjId, byte: u64) -> Option<u8> {
        self.threads.get(&thread).and_then(|m| m.get(&(obj, byte)).copied().flatten())
    }

    /// Forgets `thread`'s writes: it reached a barrier, or ended.
    pub fn forget(&mut self, thread: u32) {
        self.threads.remove(&thread);
    }
}

/// A small multiplicative hasher for the (object, byte) keys of
/// `OwnWrites`, which are looked up on every logged access of a thread
/// that wrote since its last barrier; the standard library's SipHash costs
/// more than the rest of such an access.
#[derive(Default)]
pub(crate) struct ByteHasher(u64);

impl ByteHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for ByteHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> Geometry {
        Geometry { threads_per_group: 64, warp_lanes: 32, warp_sync: false, inter_group: false }
    }

    fn access(thread: u32, warp_epoch: u32) -> Access {
        Access {
            thread,
            loc: Loc { func: lockstep_kir::FuncId::from_u32(0), block: lockstep_kir::BlockId::from_u32(0), inst: None },
            write: true,
            atomic: false,
            block_scoped: false,
            value: None,
            own: None,
            silent: false,
            grid_epoch: 0,
            group_epoch: 0,
            warp_epoch,
        }
    }

    fn arrive(threads: std::ops::Range<u32>, epoch: u32, mask: u128) -> Vec<WarpArrival> {
        threads.map(|thread| WarpArrival { thread, epoch, mask }).collect()
    }

    #[test]
    fn a_whole_warp_barrier_keeps_lock_step() {
        let g = geometry();
        let mut clocks = WarpClocks::default();
        let all: Vec<(u32, u32)> = (0..32).map(|t| (t, 0)).collect();
        clocks.synchronise(&g, &arrive(0..32, 0, u128::MAX), &[], &all, true);
        assert!(clocks.clocks.is_empty(), "a whole barrier needs no clocks");
        assert!(clocks.ordered(&g, &access(3, 0), &access(20, 1)));
        assert!(!clocks.ordered(&g, &access(3, 1), &access(20, 1)));
    }

    #[test]
    fn half_warp_masks_order_only_their_own_half() {
        let g = geometry();
        let mut clocks = WarpClocks::default();
        let all: Vec<(u32, u32)> = (0..32).map(|t| (t, 0)).collect();
        let mut arrivals = arrive(0..16, 0, 0x0000_ffff);
        arrivals.extend(arrive(16..32, 0, 0xffff_0000));
        clocks.synchronise(&g, &arrivals, &[], &all, false);
        // Lane 1 waited for lane 0, lane 16 did not.
        assert!(clocks.ordered(&g, &access(0, 0), &access(1, 1)));
        assert!(!clocks.ordered(&g, &access(0, 0), &access(16, 1)));
        assert!(!clocks.ordered(&g, &access(17, 0), &access(2, 1)));
        // A later whole barrier orders everything before it.
        let arrivals = arrive(0..32, 1, u128::MAX);
        clocks.synchronise(&g, &arrivals, &[], &all, true);
        assert!(clocks.ordered(&g, &access(0, 1), &access(16, 2)));
        assert!(!clocks.ordered(&g, &access(0, 2), &access(16, 2)));
    }

    #[test]
    fn order_passes_through_a_third_lane() {
        let g = geometry();
        let mut clocks = WarpClocks::default();
        let all: Vec<(u32, u32)> = (0..32).map(|t| (t, 0)).collect();
        // Lanes 0 and 1 meet, then lanes 1 and 2 (lane 0 is elsewhere).
        clocks.synchronise(&g, &arrive(0..2, 0, 0b011), &[], &all, false);
        clocks.synchronise(&g, &[WarpArrival { thread: 1, epoch: 1, mask: 0b110 }, WarpArrival { thread: 2, epoch: 0, mask: 0b110 }], &[], &all, false);
        assert!(clocks.ordered(&g, &access(0, 0), &access(2, 1)), "lane 2 learnt of lane 0 through lane 1");
        assert!(!clocks.ordered(&g, &access(0, 1), &access(2, 1)), "but not of lane 0's later accesses");
        assert!(!clocks.ordered(&g, &access(3, 0), &access(2, 1)), "nor of a lane nobody met");
    }
}
