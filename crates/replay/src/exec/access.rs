//! A thread's memory accesses: each is checked against its object's bounds
//! and space, logged for the race check (with the barrier epochs and
//! fences that order it), and carried out on the memory.

use lockstep_kir::*;

use crate::races::{Access, Epochs};
use crate::value::*;

use super::*;

impl Ctx<'_> {
    /// Checks an access of `width` bytes at `p`; returns the object and
    /// offset when it is valid, and reports it otherwise.
    pub(super) fn check_access(
        &mut self,
        th: &Thread,
        loc: Loc,
        p: Pointer,
        width: u64,
        write: bool,
    ) -> Option<(ObjId, u64)> {
        let Some(obj) = p.obj else {
            let kind = ViolationKind::NullDereference { offset: p.offset, write };
            self.violation(th, loc, kind, 20, |_| {
                format!("null pointer {} (offset {}) by {}", if write { "write" } else { "read" }, p.offset, th.id)
            });
            return None;
        };
        let Some(object) = self.memory.get(obj) else {
            // A pointer made from an integer (`(int *)-1`) may carry the id
            // of no object: it points nowhere, like any other integer that
            // is no object's address.
            let kind = ViolationKind::NullDereference { offset: p.encode() as i64, write };
            self.violation(th, loc, kind, 20, |_| {
                format!(
                    "{} through pointer 0x{:x}, which points to no object, by {}",
                    if write { "write" } else { "read" },
                    p.encode(),
                    th.id
                )
            });
            return None;
        };
        // The messages below name the object: they read it from the memory
        // `violation` hands them, since `object` borrows `self`.
        if self.opts.host_code && matches!(object.space, MemSpace::Global | MemSpace::Constant | MemSpace::Shared) {
            self.violation(th, loc, ViolationKind::DeviceMemoryFromHost { object: obj, write }, 24, |m| {
                format!("the host {} device memory `{}` directly", if write { "writes" } else { "reads" }, m.object(obj).name)
            });
            return None;
        }
        if !object.live {
            self.violation(th, loc, ViolationKind::DeadObject { object: obj, write }, 21, |m| {
                format!("access to `{}` after its function returned, by {}", m.object(obj).name, th.id)
            });
            return None;
        }
        let size = object.size();
        if p.offset < 0 || (p.offset as u64).checked_add(width).filter(|&end| end <= size).is_none() {
            let kind = ViolationKind::OutOfBounds { object: obj, offset: p.offset, width, size, write };
            self.violation(th, loc, kind, 22, |m| {
                format!(
                    "{}-byte {} at offset {} of `{}` ({} bytes) by {}",
                    width,
                    if write { "write" } else { "read" },
                    p.offset,
                    m.object(obj).name,
                    size,
                    th.id
                )
            });
            return None;
        }
        if write && object.space == MemSpace::Constant {
            self.violation(th, loc, ViolationKind::ConstantWrite { object: obj, offset: p.offset }, 23, |m| {
                format!("write to constant memory `{}` by {}", m.object(obj).name, th.id)
            });
            return None;
        }
        Some((obj, p.offset as u64))
    }

    /// Logs an access for race detection and reports the races it makes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn log_access(
        &mut self,
        th: &Thread,
        loc: Loc,
        obj: ObjId,
        offset: u64,
        width: u64,
        write: bool,
        atomic: bool,
    ) {
        let object = self.memory.object(obj);
        let per_group = match object.space {
            MemSpace::Shared => true,
            MemSpace::Global | MemSpace::Generic => false,
            MemSpace::Private | MemSpace::Constant => return,
        };
        if !atomic {
            self.note_touch(th, obj, write, per_group);
        }
        if self.observer.is_some() && th.frames.len() == 1 {
            if let Some(inst) = loc.inst {
                let now = crate::observe::CurrentEpochs {
                    grid: self.grid_epoch,
                    global: self.group_epoch(th.group, false),
                    shared: self.group_epoch(th.group, true),
                };
                let kind = if atomic { 2 } else { write as u8 };
                let frame = th.frames.last().expect("checked");
                if let Some(rec) = self.observer.as_mut() {
                    rec.access(th.index, th.lane, frame.func, inst, (obj, per_group), offset, width, kind, now, &frame.vals);
                }
            }
        }
        self.log_access_as(th.index, th.warp_epoch, loc, obj, offset, width, write, atomic, true);
    }

    /// `log_access` for the accesses of thread `index` (whose warp epoch is
    /// `warp_epoch`), made on its behalf: by itself (`by_thread`), or by an
    /// async copy it stands for. A copy's accesses happen at some time
    /// until the wait for its event, so its reads are never benign
    /// write-read races and its writes end the benign status of the
    /// thread's own writes of those bytes.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn log_access_as(
        &mut self,
        index: u32,
        warp_epoch: u32,
        loc: Loc,
        obj: ObjId,
        offset: u64,
        width: u64,
        write: bool,
        atomic: bool,
        by_thread: bool,
    ) {
        if !self.opts.check_races {
            return;
        }
        let object = self.memory.object(obj);
        let per_group = match object.space {
            MemSpace::Shared => true,
            MemSpace::Global | MemSpace::Generic => false,
            MemSpace::Private | MemSpace::Constant => return,
        };
        let size = object.size();
        let group = self.geometry.group_of(index);
        let thread_id = self.launch.thread_id(index);
        let mut access = Access {
            thread: index,
            loc,
            write,
            atomic,
            block_scoped: atomic && self.block_scoped_atomic,
            value: None,
            own: None,
            silent: false,
            grid_epoch: self.grid_epoch,
            group_epoch: self.group_epoch(group, per_group),
            warp_epoch,
        };
        let epochs = Epochs {
            grid: self.grid_epoch,
            group: &self.group_epochs,
            version: self.epoch_version,
            unfenced: &self.unfenced,
            warp_clocks: &self.warp_clocks,
        };
        let mut races = std::mem::take(&mut self.race_scratch);
        let tolerate_benign = self.opts.tolerate_benign_races
            && !self.writing_undetermined
            && (self.opts.benign_writes_from_memory
                || loc.inst.is_some_and(|i| self.infos[loc.func.index()].benign_candidates.contains(&i)));
        // A wide access races with the same earlier instruction on each of
        // its bytes; one report per earlier instruction is enough.
        let mut handled: Vec<Loc> = Vec::new();
        for byte in offset..offset + width {
            races.clear();
            if write && !atomic && tolerate_benign {
                let value = self.memory.byte(obj, byte);
                access.value = value;
                // The byte the store found there (`silent_prior`): under the
                // equality abstraction a write that left it unchanged is
                // invisible to reads.
                access.silent = self.opts.benign_writes_from_memory
                    && by_thread
                    && self
                        .silent_prior
                        .as_ref()
                        .and_then(|(start, bytes)| *bytes.get(byte.checked_sub(*start)? as usize)?)
                        .is_some_and(|prior| Some(prior) == value);
            }
            if !write && by_thread {
                access.own = self.own_writes.get(index, obj, byte);
            }
            self.races.record(
                obj,
                per_group,
                size,
                byte,
                access,
                &self.geometry,
                &epochs,
                &mut races,
            );
            for earlier in races.drain(..) {
                if handled.contains(&earlier.loc) {
                    continue;
                }
                handled.push(earlier.loc);
                let first = RaceAccess {
                    loc: earlier.loc,
                    thread: self.launch.thread_id(earlier.thread),
                    write: earlier.write,
                    atomic: earlier.atomic,
                    object: obj,
                    offset: byte,
                };
                let second = RaceAccess {
                    loc,
                    thread: thread_id,
                    write,
                    atomic,
                    object: obj,
                    offset: byte,
                };
                let (ka, kb) = (loc_key(Some(first.loc)), loc_key(Some(loc)));
                let key = (1, ka.min(kb), ka.max(kb));
                let inter_group = self.geometry.group_of(earlier.thread) != group;
                let space = self.memory.object(obj).space;
                let rw = |w: bool| if w { "write" } else { "read" };
                // Most racing accesses repeat a reported pair: build the
                // message only for a new one.
                let name = &self.memory.object(obj).name;
                self.report
                    .report(key, self.opts.max_violations, || {
                        let message = format!(
                            "{}{} race on `{}` byte {}: {} by {} at {} and {} by {} at {}",
                            if inter_group { "inter-group " } else { "" },
                            match (first.write, write) {
                                (true, true) => "write-write",
                                _ => "read-write",
                            },
                            name,
                            byte,
                            rw(first.write),
                            first.thread,
                            first.loc,
                            rw(write),
                            thread_id,
                            loc
                        );
                        ReplayViolation {
                            kind: ViolationKind::DataRace { first, second, inter_group, space },
                            loc,
                            thread: thread_id,
                            message,
                        }
                    });
            }
            if write {
                // Only the thread's own plain writes of values that may be
                // benign make its later reads of the byte benign.
                let own = if by_thread { access.value } else { None };
                self.own_writes.wrote(index, obj, byte, own);
            }
        }
        self.race_scratch = races;
    }

    /// Math functions that also store a result through a pointer (C's and
    /// OpenCL's `sincos`, `modf`, `fract`) on scalar floats: stores the
    /// second result (an access like any store) and returns the first.
    /// `None` for any other call.
    pub(super) fn output_pointer_math(
        &mut self,
        th: &Thread,
        loc: Loc,
        name: &str,
        vals: &[Val],
        types: &[Type],
        ret: Option<Type>,
    ) -> Option<Val> {
        let (&[x, out], &[Type::Float(w), Type::Ptr(_)], Some(Type::Float(rw))) = (vals, types, ret) else {
            return None;
        };
        if w != rw || !matches!(w, 32 | 64) {
            return None;
        }
        let v = float_to_f64(x.bits(), u32::from(w));
        let (first, second) = match crate::math::base_name(name).as_str() {
            "sincos" | "sincosf" => (v.sin(), v.cos()),
            "modf" | "modff" => (v - v.trunc(), v.trunc()),
            // OpenCL: the fraction, at most the largest value below 1.
            "fract" | "fractf" => {
                let below_one = if w == 32 { f64::from(1.0f32 - f32::EPSILON / 2.0) } else { 1.0 - f64::EPSILON / 2.0 };
                ((v - v.floor()).min(below_one), v.floor())
            }
            _ => return None,
        };
        let ty = Type::Float(w);
        self.store(th, loc, out.as_ptr(), Val::Bits(f64_to_float(second, u32::from(w))), ty, false);
        Some(Val::Bits(f64_to_float(first, u32::from(w))))
    }

    /// The group epoch that orders accesses to memory of this kind.
    pub(super) fn group_epoch(&self, group: u32, per_group: bool) -> u32 {
        if per_group {
            self.group_epochs[group as usize]
        } else {
            self.global_group_epochs[group as usize]
        }
    }

    /// Remembers that `th` accessed `obj`, for `__read`/`__write`.
    pub(super) fn note_touch(&mut self, th: &Thread, obj: ObjId, write: bool, per_group: bool) {
        if self.touched.is_none() {
            return;
        }
        let current = [self.group_epoch(th.group, false), self.group_epoch(th.group, true)];
        let grid_epoch = self.grid_epoch;
        let Some(touched) = self.touched.as_mut() else { return };
        let touch = Touch { obj, write, shared: per_group, grid_epoch, group_epoch: current[per_group as usize] };
        let list = touched.entry(th.index).or_default();
        // Accesses before a barrier that ordered them no longer count.
        list.retain(|t| t.grid_epoch == grid_epoch && t.group_epoch == current[t.shared as usize]);
        if !list.contains(&touch) {
            list.push(touch);
        }
    }

    /// GPUVerify's `__read(p)` / `__write(p)`: whether `th` read (wrote)
    /// the object `p` points into since the last barrier that orders that
    /// object's memory. GPUVerify logs accesses nondeterministically, so
    /// its predicate may also be false after an access; answering `true`
    /// then only makes `!__read(p)` fail where GPUVerify's can too.
    pub(super) fn accessed_since_barrier(&self, th: &Thread, p: Pointer, write: bool) -> bool {
        let Some((obj, object)) = p.obj.and_then(|obj| Some((obj, self.memory.get(obj)?))) else { return false };
        let per_group = match object.space {
            MemSpace::Shared => true,
            MemSpace::Global | MemSpace::Generic => false,
            MemSpace::Private | MemSpace::Constant => return false,
        };
        let group_epoch = self.group_epoch(th.group, per_group);
        self.touched.as_ref().and_then(|t| t.get(&th.index)).is_some_and(|list| {
            list.iter().any(|t| {
                t.obj == obj && t.write == write && t.grid_epoch == self.grid_epoch && t.group_epoch == group_epoch
            })
        })
    }

    /// Reads memory; a `specification` read (one that only feeds an
    /// annotation) is checked for safety but not logged for races.
    pub(super) fn load(&mut self, th: &Thread, loc: Loc, p: Pointer, ty: Type, atomic: bool, specification: bool) -> Val {
        let width = ty.store_size();
        let Some((obj, off)) = self.check_access(th, loc, p, width, atomic) else {
            return convert(Val::Bits(0), ty);
        };
        if !specification {
            self.log_access(th, loc, obj, off, width, atomic, atomic);
        }
        if !self.opts.track_definedness {
            self.memory.note_read(obj, off, width);
        }
        let mut buf = [0u8; 16];
        // `check_access` found the bytes inside the object; a type wider
        // than 16 bytes is read as its first 16.
        self.memory.read_at(obj, off, &mut buf[..width.min(16) as usize]);
        let bits = u128::from_le_bytes(buf) & mask(ty.bits());
        convert(Val::Bits(bits), ty)
    }

    pub(super) fn store(&mut self, th: &Thread, loc: Loc, p: Pointer, v: Val, ty: Type, atomic: bool) {
        let width = ty.store_size();
        let Some((obj, off)) = self.check_access(th, loc, p, width, true) else {
            return;
        };
        let bits = v.bits() & mask(ty.bits());
        let bytes = bits.to_le_bytes();
        // What the store overwrites, for the silent-write rule (see
        // `races::Access::silent`); only plain stores under the equality
        // abstraction need it.
        if self.opts.check_races && self.opts.benign_writes_from_memory && !atomic {
            let mut prior = vec![0u8; width as usize];
            // A byte the program never wrote (or wrote with a value the run
            // does not determine) holds no known value: the interpreter's
            // stand-in for it says nothing of what the hardware holds, so a
            // write over it may change it and is never silent.
            let undefined = self.memory.undefined_flags(obj, off, width as usize);
            self.silent_prior = self.memory.read_at(obj, off, &mut prior).then(|| {
                (off, prior.into_iter().zip(undefined).map(|(byte, undefined)| (!undefined).then_some(byte)).collect())
            });
        }
        self.memory.write(obj, off, &bytes[..width as usize]);
        // Logged after the write, so that the log can see the value written
        // (two writes of one value are a benign race).
        self.log_access(th, loc, obj, off, width, true, atomic);
        self.silent_prior = None;
    }

    pub(super) fn memcopy(&mut self, th: &Thread, loc: Loc, dst: Pointer, src: Pointer, len: u64) {
        if len == 0 {
            return;
        }
        let s = self.check_access(th, loc, src, len, false);
        let d = self.check_access(th, loc, dst, len, true);
        let (Some((so, soff)), Some((dobj, doff))) = (s, d) else {
            return;
        };
        self.log_access(th, loc, so, soff, len, false, false);
        // Copying through a buffer gives `memmove` semantics for overlaps.
        self.memory.copy_bytes(dobj, doff, so, soff, len);
        self.writing_undetermined = self.opts.track_definedness
            && self.memory.get(dobj).and_then(|o| o.undefined.as_ref()).is_some_and(|u| u.any(doff, len, true));
        self.log_access(th, loc, dobj, doff, len, true, false);
        self.writing_undetermined = false;
    }

    pub(super) fn memset(&mut self, th: &Thread, loc: Loc, dst: Pointer, byte: u8, len: u64) {
        if len == 0 {
            return;
        }
        let Some((obj, off)) = self.check_access(th, loc, dst, len, true) else {
            return;
        };
        self.memory.fill(obj, off, len, byte);
        self.log_access(th, loc, obj, off, len, true, false);
    }
}
