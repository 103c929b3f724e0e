//! The memory of a replay: a flat list of byte-addressed objects.
//!
//! The caller creates buffers for pointer arguments with `Memory::alloc` and
//! may pre-create module globals (`instantiate_global`) to give them
//! contents, as a host program's `cudaMemcpyToSymbol` would. The replay
//! creates whatever else the kernel needs: the globals not created yet, one
//! instance of every `__shared__` global per group, and the private objects
//! of every call frame. The `Memory` handed back in `ReplayResult` holds the
//! final contents of all of them, so that callers can read a kernel's outputs.

use lockstep_kir::{FuncId, GlobalId, LocalId, MemSpace, Module};

use std::collections::BTreeMap;

use crate::pages::{Pages, PAGE_BYTES};
use crate::terms::{TermId, Terms};
use crate::value::{ObjId, Pointer, Val};

/// Who created an object and what it stands for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ObjOrigin {
    /// A buffer the caller allocated.
    Buffer,
    /// The single instance of a `__device__`/`__constant__` global.
    Global(GlobalId),
    /// One group's instance of a `__shared__` global (group as a linear index).
    Shared { global: GlobalId, group: u32 },
    /// A private object of one call frame of one thread (global linear
    /// thread index).
    Local {
        func: FuncId,
        local: LocalId,
        thread: u32,
    },
}

/// One memory object.
#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub space: MemSpace,
    pub origin: ObjOrigin,
    /// The contents, backed lazily (see `pages`): an object costs only the
    /// pages that were written. Changed only through `Memory`, which keeps
    /// the count of backed pages.
    pub bytes: Pages<u8>,
    /// False once the frame that owned a private object has returned; any
    /// later access is reported.
    pub live: bool,
    /// Which bytes hold no defined value yet (`None`: all are defined).
    /// Only objects created with `alloc_undefined` (a host program's
    /// `malloc` and `cudaMalloc`) track this; see `Memory::undefined_reads`.
    pub undefined: Option<Pages<bool>>,
}

impl Object {
    pub fn size(&self) -> u64 {
        self.bytes.len()
    }
}

/// The largest allocation the model backs: 64 GiB. A host program's
/// `malloc` or `cudaMalloc` of more fails as it would on a machine without
/// that much memory (NULL, `cudaErrorMemoryAllocation`); the pointer
/// encoding (`Pointer::encode`) also needs offsets well below 2^39.
pub const MAX_ALLOCATION_BYTES: u64 = 1 << 36;

/// The most memory all objects of a replay together may have written
/// (backed pages) by default (`ReplayOptions::memory_budget`): 512 MiB, half
/// of lockstep's default memory limit. A replay that writes more stops,
/// incomplete, rather than exhausting the verifier's machine.
pub const MAX_RESIDENT_BYTES: u64 = 1 << 29;

/// The resident memory of process `pid` (this process when `None`), in
/// bytes; `None` where the system does not say (only Linux's `/proc` is
/// read) or the process is gone.
pub fn resident_bytes(pid: Option<u32>) -> Option<u64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/statm"),
        None => "/proc/self/statm".to_string(),
    };
    let text = std::fs::read_to_string(path).ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    // 4 KiB pages on the platforms lockstep is built for; a larger page
    // would only make the figure an underestimate by a known factor.
    Some(pages.saturating_mul(4096))
}

/// Chunk size of copies between objects.
const COPY_CHUNK: u64 = PAGE_BYTES;

/// All memory objects of a replay, indexed by `ObjId`.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    objects: Vec<Object>,
    /// How many loads read a byte that was never written (of an object that
    /// tracks definedness). A program that reads undefined memory may behave
    /// differently on each run, so one replay of it is not every run.
    pub undefined_reads: u64,
    /// Pages backed by real memory, over all objects (contents and
    /// definedness flags).
    resident_pages: i64,
    /// The terms of the run's undetermined values (see `terms`).
    pub terms: Terms,
    /// The term of the undetermined value stored at (object, offset), with
    /// its length in bytes; any write, copy or fill of those bytes drops it.
    tags: BTreeMap<(ObjId, u64), (TermId, u8)>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Allocates a buffer of `size` bytes in `space`, initialised with
    /// `contents` (zero-extended to `size`, truncated if longer); returns a
    /// pointer to its first byte.
    pub fn alloc(&mut self, space: MemSpace, size: u64, contents: Option<&[u8]>) -> Val {
        let name = format!("buffer{}", self.objects.len());
        Val::Ptr(Pointer::new(
            self.alloc_object(name, space, ObjOrigin::Buffer, size, contents),
            0,
        ))
    }

    /// Like `alloc`, with a name that reports will use.
    pub fn alloc_named(
        &mut self,
        name: &str,
        space: MemSpace,
        size: u64,
        contents: Option<&[u8]>,
    ) -> Val {
        Val::Ptr(Pointer::new(
            self.alloc_object(name.to_string(), space, ObjOrigin::Buffer, size, contents),
            0,
        ))
    }

    /// Allocates a buffer holding `values` as little-endian `i32`s.
    pub fn alloc_i32s(&mut self, space: MemSpace, values: &[i32]) -> Val {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.alloc(space, bytes.len() as u64, Some(&bytes))
    }

    /// Allocates a buffer holding `values` as little-endian `f32`s.
    pub fn alloc_f32s(&mut self, space: MemSpace, values: &[f32]) -> Val {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.alloc(space, bytes.len() as u64, Some(&bytes))
    }

    pub(crate) fn alloc_object(
        &mut self,
        name: String,
        space: MemSpace,
        origin: ObjOrigin,
        size: u64,
        contents: Option<&[u8]>,
    ) -> ObjId {
        self.alloc_filled(name, space, origin, size, 0, contents)
    }

    /// Allocates an object of `size` bytes reading as `fill`, with `init`
    /// (truncated to `size`) written at its start. Nothing is allocated
    /// for the bytes until they are written, so `size` may be anything.
    pub(crate) fn alloc_filled(
        &mut self,
        name: String,
        space: MemSpace,
        origin: ObjOrigin,
        size: u64,
        fill: u8,
        init: Option<&[u8]>,
    ) -> ObjId {
        let mut bytes = Pages::new(size, fill);
        if let Some(c) = init {
            let n = (c.len() as u64).min(size) as usize;
            self.resident_pages += bytes.write(0, &c[..n]).unwrap_or(0);
        }
        self.push(Object { name, space, origin, bytes, live: true, undefined: None })
    }

    /// Adds an object with the contents of `bytes` (a copy of another's).
    pub(crate) fn alloc_copy(&mut self, name: String, space: MemSpace, origin: ObjOrigin, bytes: Pages<u8>) -> ObjId {
        self.resident_pages += bytes.resident_pages() as i64;
        self.push(Object { name, space, origin, bytes, live: true, undefined: None })
    }

    fn push(&mut self, object: Object) -> ObjId {
        let id = ObjId(self.objects.len() as u32);
        self.objects.push(object);
        id
    }

    /// Allocates a buffer of `size` bytes whose contents are undefined
    /// until written (as `malloc`'s are). The bytes read as `fill`.
    pub fn alloc_undefined(&mut self, name: &str, space: MemSpace, size: u64, fill: u8) -> Val {
        let id = self.alloc_filled(name.to_string(), space, ObjOrigin::Buffer, size, fill, None);
        self.objects[id.0 as usize].undefined = Some(Pages::new(size, true));
        Val::Ptr(Pointer::new(id, 0))
    }

    /// True when the objects together have written more than `budget`
    /// bytes (`ReplayOptions::memory_budget`): the replay must stop.
    pub fn exhausted(&self, budget: u64) -> bool {
        (self.resident_pages.max(0) as u64).saturating_mul(PAGE_BYTES) > budget
    }

    /// Records a read of `len` bytes at `offset` of `id` (counted in
    /// `undefined_reads` when one of them is undefined).
    pub fn note_read(&mut self, id: ObjId, offset: u64, len: u64) {
        let undefined = self.get(id).and_then(|o| o.undefined.as_ref()).is_some_and(|u| u.any(offset, len, true));
        if undefined {
            self.undefined_reads += 1;
        }
    }

    /// Marks `len` bytes at `offset` of `id` defined (they were written).
    pub fn note_write(&mut self, id: ObjId, offset: u64, len: u64) {
        if let Some(undef) = self.objects.get_mut(id.0 as usize).and_then(|o| o.undefined.as_mut()) {
            self.resident_pages += undef.fill(offset, len, false).unwrap_or(0);
        }
    }

    /// Marks the bytes at `offset` of `id` whose flag is set undefined (a
    /// store of an undetermined value), starting to track the object's
    /// definedness if it did not.
    pub fn note_undefined(&mut self, id: ObjId, offset: u64, flags: &[bool]) {
        if !flags.iter().any(|&f| f) {
            return;
        }
        self.untag(id, offset, flags.len() as u64);
        let Some(obj) = self.objects.get_mut(id.0 as usize) else {
            return;
        };
        let size = obj.size();
        let undef = obj.undefined.get_or_insert_with(|| Pages::new(size, false));
        for (i, &f) in flags.iter().enumerate() {
            if f {
                self.resident_pages += undef.fill(offset + i as u64, 1, true).unwrap_or(0);
            }
        }
    }

    /// Marks `len` bytes at `offset` of `id` undefined (a `memset` with an
    /// undetermined byte).
    pub fn note_undefined_range(&mut self, id: ObjId, offset: u64, len: u64) {
        self.untag(id, offset, len);
        let Some(obj) = self.objects.get_mut(id.0 as usize) else {
            return;
        };
        let size = obj.size();
        let undef = obj.undefined.get_or_insert_with(|| Pages::new(size, false));
        self.resident_pages += undef.fill(offset, len, true).unwrap_or(0);
    }

    /// The definedness flags of `len` bytes at `offset` of `id` (true:
    /// undefined); all false for an object that does not track them.
    pub fn undefined_flags(&self, id: ObjId, offset: u64, len: usize) -> Vec<bool> {
        let mut flags = vec![false; len];
        if let Some(u) = self.get(id).and_then(|o| o.undefined.as_ref()) {
            if !u.read_into(offset, &mut flags) {
                flags.fill(false);
            }
        }
        flags
    }

    /// Writes `bytes` at `offset` of `id` and marks them defined; false
    /// (nothing written) when the range is not inside the object.
    pub fn write(&mut self, id: ObjId, offset: u64, bytes: &[u8]) -> bool {
        let Some(obj) = self.objects.get_mut(id.0 as usize) else {
            return false;
        };
        let Some(delta) = obj.bytes.write(offset, bytes) else {
            return false;
        };
        self.resident_pages += delta;
        self.note_write(id, offset, bytes.len() as u64);
        self.untag(id, offset, bytes.len() as u64);
        true
    }

    /// Sets `len` bytes at `offset` of `id` to `byte` and marks them
    /// defined; false (nothing written) when the range is not inside the
    /// object.
    pub fn fill(&mut self, id: ObjId, offset: u64, len: u64, byte: u8) -> bool {
        let Some(obj) = self.objects.get_mut(id.0 as usize) else {
            return false;
        };
        let Some(delta) = obj.bytes.fill(offset, len, byte) else {
            return false;
        };
        self.resident_pages += delta;
        self.note_write(id, offset, len);
        self.untag(id, offset, len);
        true
    }

    /// Copies `len` bytes from `src` to `dst`, with their definedness: a
    /// copy is not a use, so it reads nothing undefined. Overlapping ranges
    /// copy as `memmove` does. False (nothing copied) when a range is not
    /// inside its object.
    pub fn copy_bytes(&mut self, dst: ObjId, dst_off: u64, src: ObjId, src_off: u64, len: u64) -> bool {
        let (Some(s), Some(d)) = (self.get(src), self.get(dst)) else {
            return false;
        };
        let fits = |size: u64, off: u64| off.checked_add(len).is_some_and(|end| end <= size);
        if !fits(s.size(), src_off) || !fits(d.size(), dst_off) {
            return false;
        }
        // Definedness is tracked in the target as soon as an undefined byte
        // arrives there.
        let src_tracks = s.undefined.as_ref().is_some_and(|u| u.any(src_off, len, true));
        if src_tracks && d.undefined.is_none() {
            let size = d.size();
            self.objects[dst.0 as usize].undefined = Some(Pages::new(size, false));
        }
        // The terms of the values copied go with them (read before the
        // target's are dropped, for a copy within one object).
        let moved: Vec<(u64, (TermId, u8))> = if self.tags.is_empty() {
            Vec::new()
        } else {
            self.tags
                .range((src, src_off)..(src, src_off.saturating_add(len)))
                .filter(|(&(_, off), &(_, n))| off + n as u64 <= src_off + len)
                .map(|(&(_, off), &tag)| (off - src_off, tag))
                .collect()
        };
        self.untag(dst, dst_off, len);
        for (at, tag) in moved {
            self.tags.insert((dst, dst_off + at), tag);
        }
        // Chunks run backwards when the target lies after the source in the
        // same object, so that no chunk overwrites bytes still to be read.
        let chunks = len.div_ceil(COPY_CHUNK);
        let backwards = src == dst && dst_off > src_off;
        let mut data = vec![0u8; len.min(COPY_CHUNK) as usize];
        let mut flags = vec![false; data.len()];
        for k in 0..chunks {
            let k = if backwards { chunks - 1 - k } else { k };
            let at = k * COPY_CHUNK;
            let n = (len - at).min(COPY_CHUNK) as usize;
            let source = &self.objects[src.0 as usize];
            source.bytes.read_into(src_off + at, &mut data[..n]);
            let undefined = match &source.undefined {
                Some(u) => u.read_into(src_off + at, &mut flags[..n]),
                None => false,
            };
            if !undefined {
                flags[..n].fill(false);
            }
            let target = &mut self.objects[dst.0 as usize];
            let mut delta = target.bytes.write(dst_off + at, &data[..n]).unwrap_or(0);
            if let Some(u) = &mut target.undefined {
                delta += u.write(dst_off + at, &flags[..n]).unwrap_or(0);
            }
            self.resident_pages += delta;
        }
        true
    }

    /// Drops the terms of values stored in `len` bytes at `offset` of `id`
    /// (those bytes were written, or got contents the run does not know).
    fn untag(&mut self, id: ObjId, offset: u64, len: u64) {
        if self.tags.is_empty() || len == 0 {
            return;
        }
        // A tag covers at most 16 bytes: one that overlaps starts less than
        // 16 bytes before the range.
        let from = (id, offset.saturating_sub(15));
        let to = (id, offset.saturating_add(len));
        let gone: Vec<(ObjId, u64)> = self
            .tags
            .range(from..to)
            .filter(|(&(_, off), &(_, n))| off + n as u64 > offset)
            .map(|(&key, _)| key)
            .collect();
        for key in gone {
            self.tags.remove(&key);
        }
    }

    /// Records that the `len` bytes at `offset` of `id` hold the value of
    /// term `term` (just stored there).
    pub fn tag(&mut self, id: ObjId, offset: u64, len: u64, term: TermId) {
        if term != 0 && (1..=16).contains(&len) {
            self.tags.insert((id, offset), (term, len as u8));
        }
    }

    /// The term of the value of `len` bytes at `offset` of `id`, when one
    /// was stored there whole and not overwritten since.
    pub fn tag_at(&self, id: ObjId, offset: u64, len: u64) -> Option<TermId> {
        self.tags.get(&(id, offset)).filter(|&&(_, n)| n as u64 == len).map(|&(t, _)| t)
    }

    /// Drops the contents of an object whose frame returned.
    pub(crate) fn release(&mut self, id: ObjId) {
        self.untag(id, 0, u64::MAX >> 1);
        if let Some(obj) = self.objects.get_mut(id.0 as usize) {
            obj.live = false;
            let mut delta = obj.bytes.clear();
            if let Some(u) = &mut obj.undefined {
                delta += u.clear();
            }
            self.resident_pages += delta;
        }
    }

    /// Creates the single instance of a non-shared module global, with its
    /// `init` bytes, or `fill` bytes when it has none, unless it exists
    /// already. An unsized global gets `unsized_size` bytes. Returns its id.
    pub fn instantiate_global(
        &mut self,
        module: &Module,
        global: GlobalId,
        fill: u8,
        unsized_size: u64,
    ) -> ObjId {
        if let Some(id) = self.global(global) {
            return id;
        }
        let obj = &module.globals[global];
        let size = obj.size.unwrap_or(unsized_size);
        self.alloc_filled(obj.name.clone(), obj.space, ObjOrigin::Global(global), size, fill, obj.init.as_deref())
    }

    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    /// The object `id` (an id this memory handed out; see `get` for ids a
    /// program computed).
    pub fn object(&self, id: ObjId) -> &Object {
        &self.objects[id.0 as usize]
    }

    /// The object `id`, if there is one: a pointer made from an integer
    /// may carry any id.
    pub fn get(&self, id: ObjId) -> Option<&Object> {
        self.objects.get(id.0 as usize)
    }

    /// The object `id`, for changes that leave its contents alone (its
    /// contents change through `write`, `fill` and `copy_bytes`).
    pub fn object_mut(&mut self, id: ObjId) -> &mut Object {
        &mut self.objects[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The whole contents of an object, as a real allocation: for objects
    /// known to be small (test buffers, outputs compared byte for byte).
    pub fn contents(&self, id: ObjId) -> Vec<u8> {
        self.get(id).map(|o| o.bytes.to_vec()).unwrap_or_default()
    }

    /// The byte at `offset` of `id`, if it exists.
    pub fn byte(&self, id: ObjId, offset: u64) -> Option<u8> {
        self.get(id)?.bytes.get(offset)
    }

    /// Fills `out` with the bytes at `offset` of `id`; false when they are
    /// not inside the object.
    pub fn read_at(&self, id: ObjId, offset: u64, out: &mut [u8]) -> bool {
        self.get(id).is_some_and(|o| o.bytes.read_into(offset, out))
    }

    /// The object a pointer value points into, if any.
    pub fn target(&self, pointer: Val) -> Option<ObjId> {
        pointer
            .as_ptr()
            .obj
            .filter(|id| (id.0 as usize) < self.objects.len())
    }

    /// `len` bytes at `pointer`, if they lie inside an object.
    pub fn read(&self, pointer: Val, len: u64) -> Option<Vec<u8>> {
        let p = pointer.as_ptr();
        let obj = self.get(p.obj?)?;
        obj.bytes.read(u64::try_from(p.offset).ok()?, len)
    }

    /// The object's contents as little-endian `i32`s.
    pub fn read_i32s(&self, id: ObjId) -> Vec<i32> {
        self.contents(id)
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// The object's contents as little-endian `f32`s.
    pub fn read_f32s(&self, id: ObjId) -> Vec<f32> {
        self.contents(id)
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// The instance of a non-shared module global, if created.
    pub fn global(&self, global: GlobalId) -> Option<ObjId> {
        self.find(|o| o == &ObjOrigin::Global(global))
    }

    /// Group `group`'s (linear index) instance of a `__shared__` global.
    pub fn shared_instance(&self, global: GlobalId, group: u32) -> Option<ObjId> {
        self.find(|o| o == &ObjOrigin::Shared { global, group })
    }

    /// The first object named `name` (a buffer's or a global's name).
    pub fn by_name(&self, name: &str) -> Option<ObjId> {
        self.objects
            .iter()
            .position(|o| o.name == name)
            .map(|i| ObjId(i as u32))
    }

    fn find(&self, pred: impl Fn(&ObjOrigin) -> bool) -> Option<ObjId> {
        self.objects
            .iter()
            .position(|o| pred(&o.origin))
            .map(|i| ObjId(i as u32))
    }
}
