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
    pub bytes: Vec<u8>,
    /// False once the frame that owned a private object has returned; any
    /// later access is reported.
    pub live: bool,
    /// Which bytes hold no defined value yet (`None`: all are defined).
    /// Only objects created with `alloc_undefined` (a host program's
    /// `malloc` and `cudaMalloc`) track this; see `Memory::undefined_reads`.
    pub undefined: Option<Vec<bool>>,
}

impl Object {
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
}

/// All memory objects of a replay, indexed by `ObjId`.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    objects: Vec<Object>,
    /// How many loads read a byte that was never written (of an object that
    /// tracks definedness). A program that reads undefined memory may behave
    /// differently on each run, so one replay of it is not every run.
    pub undefined_reads: u64,
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
        let mut bytes = vec![0u8; size as usize];
        if let Some(c) = contents {
            let n = c.len().min(bytes.len());
            bytes[..n].copy_from_slice(&c[..n]);
        }
        let id = ObjId(self.objects.len() as u32);
        self.objects.push(Object {
            name,
            space,
            origin,
            bytes,
            live: true,
            undefined: None,
        });
        id
    }

    /// Allocates a buffer of `size` bytes whose contents are undefined
    /// until written (as `malloc`'s are). The bytes read as `fill`.
    pub fn alloc_undefined(&mut self, name: &str, space: MemSpace, size: u64, fill: u8) -> Val {
        let id = self.alloc_object(name.to_string(), space, ObjOrigin::Buffer, size, None);
        let obj = &mut self.objects[id.0 as usize];
        obj.bytes.fill(fill);
        obj.undefined = Some(vec![true; size as usize]);
        Val::Ptr(Pointer::new(id, 0))
    }

    /// Records a read of `len` bytes at `offset` of `id` (counted in
    /// `undefined_reads` when one of them is undefined).
    pub fn note_read(&mut self, id: ObjId, offset: u64, len: u64) {
        if let Some(undef) = &self.objects[id.0 as usize].undefined {
            let (start, end) = (offset as usize, (offset + len) as usize);
            if undef.get(start..end).is_some_and(|r| r.iter().any(|&u| u)) {
                self.undefined_reads += 1;
            }
        }
    }

    /// Marks `len` bytes at `offset` of `id` defined (they were written).
    pub fn note_write(&mut self, id: ObjId, offset: u64, len: u64) {
        if let Some(undef) = &mut self.objects[id.0 as usize].undefined {
            let (start, end) = (offset as usize, (offset + len) as usize);
            if let Some(r) = undef.get_mut(start..end) {
                r.fill(false);
            }
        }
    }

    /// Writes `bytes` at `offset` of `id` (in bounds) and marks them defined.
    pub fn write(&mut self, id: ObjId, offset: u64, bytes: &[u8]) {
        let at = offset as usize;
        self.objects[id.0 as usize].bytes[at..at + bytes.len()].copy_from_slice(bytes);
        self.note_write(id, offset, bytes.len() as u64);
    }

    /// Sets `len` bytes at `offset` of `id` (in bounds) to `byte` and marks
    /// them defined.
    pub fn fill(&mut self, id: ObjId, offset: u64, len: u64, byte: u8) {
        let at = offset as usize;
        self.objects[id.0 as usize].bytes[at..at + len as usize].fill(byte);
        self.note_write(id, offset, len);
    }

    /// Copies `len` bytes from `src` to `dst` (both in bounds), with their
    /// definedness: a copy is not a use, so it reads nothing undefined.
    pub fn copy_bytes(&mut self, dst: ObjId, dst_off: u64, src: ObjId, src_off: u64, len: u64) {
        let (s, d, n) = (src_off as usize, dst_off as usize, len as usize);
        let data = self.objects[src.0 as usize].bytes[s..s + n].to_vec();
        let undef: Option<Vec<bool>> = self.objects[src.0 as usize].undefined.as_ref().map(|u| u[s..s + n].to_vec());
        let target = &mut self.objects[dst.0 as usize];
        target.bytes[d..d + n].copy_from_slice(&data);
        match (undef, &mut target.undefined) {
            (Some(from), Some(to)) => to[d..d + n].copy_from_slice(&from),
            (Some(from), None) if from.iter().any(|&u| u) => {
                let mut all = vec![false; target.bytes.len()];
                all[d..d + n].copy_from_slice(&from);
                target.undefined = Some(all);
            }
            (None, Some(to)) => to[d..d + n].fill(false),
            _ => {}
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
        let mut bytes = vec![fill; size as usize];
        if let Some(init) = &obj.init {
            let n = init.len().min(bytes.len());
            bytes[..n].copy_from_slice(&init[..n]);
        }
        self.alloc_object(
            obj.name.clone(),
            obj.space,
            ObjOrigin::Global(global),
            size,
            Some(&bytes),
        )
    }

    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    pub fn object(&self, id: ObjId) -> &Object {
        &self.objects[id.0 as usize]
    }

    pub fn object_mut(&mut self, id: ObjId) -> &mut Object {
        &mut self.objects[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The contents of an object.
    pub fn bytes(&self, id: ObjId) -> &[u8] {
        &self.objects[id.0 as usize].bytes
    }

    /// The object a pointer value points into, if any.
    pub fn target(&self, pointer: Val) -> Option<ObjId> {
        pointer
            .as_ptr()
            .obj
            .filter(|id| (id.0 as usize) < self.objects.len())
    }

    /// `len` bytes at `pointer`, if they lie inside a live object.
    pub fn read(&self, pointer: Val, len: u64) -> Option<&[u8]> {
        let p = pointer.as_ptr();
        let obj = self.objects.get(p.obj?.0 as usize)?;
        let start = usize::try_from(p.offset).ok()?;
        let end = start.checked_add(len as usize)?;
        obj.bytes.get(start..end)
    }

    /// The object's contents as little-endian `i32`s.
    pub fn read_i32s(&self, id: ObjId) -> Vec<i32> {
        self.bytes(id)
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// The object's contents as little-endian `f32`s.
    pub fn read_f32s(&self, id: ObjId) -> Vec<f32> {
        self.bytes(id)
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
