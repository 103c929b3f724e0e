//! Embeds every file of `prelude/` into the binary, so that an installed
//! `lockstep` needs no header directory beside it.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prelude");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = Vec::new();
    // Headers in folders (`cooperative_groups/reduce.h`, the toolkit models
    // under `toolkit_models/cuda/__barrier/`) keep their relative path as
    // their name.
    let mut dirs = vec![(dir.clone(), String::new())];
    while let Some((d, prefix)) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            println!("cargo:rerun-if-changed={}", path.display());
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if path.is_dir() {
                dirs.push((path, format!("{name}/")));
            } else if path.is_file() && (name.ends_with(".h") || !name.contains('.')) {
                names.push(name);
            }
        }
    }
    names.sort();
    let mut out = String::from("/// The prelude headers: (file name, contents).\npub const PRELUDE_FILES: &[(&str, &str)] = &[\n");
    for name in &names {
        writeln!(out, "    ({name:?}, include_str!({:?})),", dir.join(name).display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("prelude_files.rs");
    std::fs::write(dest, out).unwrap();
}
