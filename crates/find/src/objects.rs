//! The memory objects a kernel can touch, numbered for the encoding.
//!
//! Every pointer of the encoding is a pair (object number, byte offset).
//! Object 0 is the null object; the others are the kernel's pointer
//! parameters (which are assumed not to alias each other), the module's
//! `__shared__`, `__device__` and `__constant__` variables, and the private
//! memory objects of the kernel.

use lockstep_analysis::memory::written_memory;
use lockstep_analysis::pointers::Root;
use lockstep_kir::{Function, GlobalId, LocalId, MemSpace, Module, Type};

/// A memory object as the witness names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemRef {
    /// The object a pointer parameter points to, by parameter index.
    Param(usize),
    /// A module-level variable.
    Global(GlobalId),
    /// A private object of the kernel (per thread).
    Local(LocalId),
}

/// One object of the table.
#[derive(Clone, Debug)]
pub struct ObjInfo {
    pub mem: MemRef,
    pub name: String,
    /// Where the object lives; pointer parameters take their pointer's space
    /// (`Global` when the front-end left it generic).
    pub space: MemSpace,
    /// The size in bytes, when known.
    pub size: Option<u64>,
    /// Known initial contents (initialised globals and constants).
    pub init: Option<Vec<u8>>,
    /// Whether some instruction of the kernel may write the object. An
    /// object no thread writes keeps its contents across barriers: a read
    /// after a barrier sees the bytes the witness gives it, not what other
    /// threads may have left there.
    pub written: bool,
}

/// The objects of one kernel; index 0 is null and has no `ObjInfo`.
#[derive(Clone, Debug, Default)]
pub struct Objects {
    pub objs: Vec<ObjInfo>,
}

impl Objects {
    /// Numbers the objects of `func` (already inlined) in `module`.
    /// `array_sizes` gives the sizes of pointer parameters by name.
    pub fn collect(module: &Module, func: &Function, array_sizes: &[(String, u64)]) -> Objects {
        let mut objs = Vec::new();
        let written = written_memory(func);
        for (i, p) in func.params.iter().enumerate() {
            if let Type::Ptr(space) = p.ty {
                let space = match space {
                    MemSpace::Generic | MemSpace::Private => MemSpace::Global,
                    s => s,
                };
                let size = array_sizes.iter().find(|(n, _)| *n == p.name).map(|(_, s)| *s);
                let written = written.may_write(Some(Root::Param(i as u32)), space);
                objs.push(ObjInfo { mem: MemRef::Param(i), name: p.name.clone(), space, size, init: None, written });
            }
        }
        for (g, obj) in module.globals.iter() {
            // A CUDA `__device__`/`__constant__` variable's initialiser is
            // only its contents until the host writes it (cudaMemcpyToSymbol):
            // a kernel checked alone sees any contents, as the prover does.
            // OpenCL program-scope constants cannot change.
            let host_writable = module.language == lockstep_kir::Language::Cuda
                && matches!(obj.space, MemSpace::Global | MemSpace::Constant);
            objs.push(ObjInfo {
                mem: MemRef::Global(g),
                name: obj.name.clone(),
                space: obj.space,
                size: obj.size,
                init: if host_writable { None } else { obj.init.clone() },
                written: written.may_write(Some(Root::Global(g)), obj.space),
            });
        }
        for (l, obj) in func.locals.iter() {
            objs.push(ObjInfo {
                mem: MemRef::Local(l),
                name: obj.name.clone(),
                space: MemSpace::Private,
                size: obj.size,
                init: None,
                written: true,
            });
        }
        Objects { objs }
    }

    /// The number of an object (1-based; 0 is null).
    pub fn id_of(&self, mem: MemRef) -> u16 {
        self.objs.iter().position(|o| o.mem == mem).map_or(0, |i| i as u16 + 1)
    }

    /// The object with number `id` (which must not be 0).
    pub fn get(&self, id: u16) -> &ObjInfo {
        &self.objs[id as usize - 1]
    }

    /// Every object number except null.
    pub fn ids(&self) -> impl Iterator<Item = u16> {
        1..=self.objs.len() as u16
    }

    /// The objects a pointer of type `Ptr(space)` may point to.
    pub fn candidates(&self, space: MemSpace) -> Vec<u16> {
        self.ids()
            .filter(|&id| space == MemSpace::Generic || self.get(id).space == space)
            .collect()
    }
}
