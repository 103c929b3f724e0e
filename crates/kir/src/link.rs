//! Linking: appending one module's functions and memory objects to another.
//!
//! A CUDA program is compiled twice, once for the device (kernels) and once
//! for the host (`main`). The host-program model runs both in one
//! interpreter, which needs one module: the host module is appended to the
//! device module, so kernel ids stay those of the device module, and each
//! host shadow of a `__device__`/`__constant__` variable is unified with the
//! device variable of the same name (the host's `&symbol` is the device
//! object, as `cudaMemcpyToSymbol` expects).

use crate::ir::*;
use crate::entity::{EntityRef, SecondaryMap};

/// Where the appended module's entities went.
pub struct LinkMap {
    pub functions: SecondaryMap<FuncId, Option<FuncId>>,
    pub globals: SecondaryMap<GlobalId, Option<GlobalId>>,
}

impl LinkMap {
    pub fn function(&self, f: FuncId) -> FuncId {
        self.functions[f].expect("every function of the appended module is mapped")
    }
}

/// Appends `src` to `dst`. A global of `src` for which `unify` names a global
/// of `dst` becomes that global; every other global and every function is
/// copied. Source locations keep their files (interned again in `dst`).
pub fn append_module(
    dst: &mut Module,
    src: &Module,
    unify: impl Fn(&Module, &MemObject) -> Option<GlobalId>,
) -> LinkMap {
    let mut map = LinkMap { functions: SecondaryMap::new(), globals: SecondaryMap::new() };
    let files: Vec<FileId> = src.files.values().map(|path| dst.file(path)).collect();
    let remap_loc = |loc: Option<SrcLoc>| loc.map(|l| SrcLoc { file: files[l.file.index()], ..l });
    for (g, obj) in src.globals.iter() {
        let id = match unify(dst, obj) {
            Some(existing) => existing,
            None => dst.globals.push(MemObject { loc: remap_loc(obj.loc), ..obj.clone() }),
        };
        map.globals.set(g, Some(id));
    }
    // Function ids first, so that calls can be remapped in one pass.
    let base = dst.functions.len();
    for (i, f) in src.functions.keys().enumerate() {
        map.functions.set(f, Some(FuncId::new(base + i)));
    }
    for func in src.functions.values() {
        let mut copy = func.clone();
        copy.loc = remap_loc(func.loc);
        for local in copy.locals.values_mut() {
            local.loc = remap_loc(local.loc);
        }
        for value in copy.values.values_mut() {
            if let ValueDef::GlobalAddr(g) = value.def {
                value.def = ValueDef::GlobalAddr(map.globals[g].expect("mapped above"));
            }
        }
        for inst in copy.insts.values_mut() {
            if let InstKind::Call { callee, .. } = &mut inst.kind {
                *callee = map.function(*callee);
            }
        }
        let mut inst_locs = SecondaryMap::new();
        for (i, loc) in func.inst_locs.iter() {
            inst_locs.set(i, remap_loc(*loc));
        }
        copy.inst_locs = inst_locs;
        let mut term_locs = SecondaryMap::new();
        for (b, loc) in func.term_locs.iter() {
            term_locs.set(b, remap_loc(*loc));
        }
        copy.term_locs = term_locs;
        let mut undef_locs = SecondaryMap::new();
        for (v, loc) in func.undef_locs.iter() {
            undef_locs.set(v, remap_loc(*loc));
        }
        copy.undef_locs = undef_locs;
        dst.functions.push(copy);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_module, verify_module};

    #[test]
    fn appends_functions_and_unifies_named_globals() {
        let device = parse_module(
            r#"
language cuda
file0 = "k.cu"
global0 = global "g" size 4 align 4
kernel fn0 "k" link "k" (v0 "p": ptr.global) entry block0 {
  v1: i32 = const 1
block0:
  store v0, v1 align 4 @file0:2:3
  return
}
"#,
        )
        .unwrap();
        let host = parse_module(
            r#"
language cuda
file0 = "main.cu"
global0 = global "h" size 8 align 4
global1 = global "g" size 4 align 4
device fn0 "helper" link "helper" () entry block0 {
  v0: ptr.global = global_addr global1
  v1: i32 = const 2
block0:
  store v0, v1 align 4 @file0:7:1
  return
}
device fn1 "main" link "main" () entry block0 {
block0:
  call fn0() @file0:9:1
  return
}
"#,
        )
        .unwrap();
        let mut linked = device.clone();
        let map = append_module(&mut linked, &host, |dst, obj| {
            dst.globals.iter().find(|(_, g)| g.name == obj.name).map(|(id, _)| id)
        });
        verify_module(&linked).unwrap();
        assert_eq!(linked.functions.len(), 3);
        assert_eq!(linked.globals.len(), 2, "`g` is unified, `h` copied");
        let main = map.function(FuncId::new(1));
        assert_eq!(linked.functions[main].name, "main");
        let helper = &linked.functions[map.function(FuncId::new(0))];
        let addr = helper.values.values().find_map(|v| match v.def {
            ValueDef::GlobalAddr(g) => Some(g),
            _ => None,
        });
        assert_eq!(addr, Some(GlobalId::new(0)), "the host's `g` is the device's `g`");
        let call = linked.functions[main].insts.values().find_map(|i| match &i.kind {
            InstKind::Call { callee, .. } => Some(*callee),
            _ => None,
        });
        assert_eq!(call, Some(map.function(FuncId::new(0))));
        let loc = linked.functions[main].inst_locs.iter().find_map(|(_, l)| *l).unwrap();
        assert_eq!(linked.files[loc.file], "main.cu");
    }
}
