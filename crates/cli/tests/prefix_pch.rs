//! The precompiled leading includes of CUDA files (`frontend::prefix_pch`)
//! change nothing but the time a check takes: a file whose own folder holds
//! a header of the same name as one the shared precompiled header read is
//! compiled with its own header, not with the one a file in another folder
//! precompiled.

mod common;

use std::path::Path;
use std::process::Command;

use common::json;

/// A program whose host asserts what `WHICH` is: 1 unless the `cuda.h` it
/// includes says otherwise.
const PROGRAM: &str = "#include <stdio.h>\n#include \"cuda.h\"\n\n#ifndef WHICH\n#define WHICH 1\n#endif\n\n__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }\n\nint main() {\n  int *d;\n  cudaMalloc((void **)&d, 2 * sizeof(int));\n  k<<<1, 2>>>(d);\n  assert(WHICH == 1);\n  return 0;\n}\n";

fn check_in(cache: &Path, file: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["check", file.to_str().unwrap(), "--format=json"])
        .env("XDG_CACHE_HOME", cache)
        .output()
        .expect("lockstep runs");
    json(&out)
}

#[test]
fn a_local_header_is_never_replaced_by_a_precompiled_one() {
    let base = std::env::temp_dir().join(format!("lockstep-prefix-pch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let cache = base.join("cache");
    let (plain, local) = (base.join("plain"), base.join("local"));
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::create_dir_all(&plain).unwrap();
    std::fs::create_dir_all(&local).unwrap();
    std::fs::write(plain.join("main.cu"), PROGRAM).unwrap();
    std::fs::write(local.join("main.cu"), PROGRAM).unwrap();
    // The local header's guard is the prelude's: a file that loaded the
    // prelude's `cuda.h` precompiled would skip it.
    std::fs::write(
        local.join("cuda.h"),
        "#ifndef LOCKSTEP_INC_CUDA_H\n#define LOCKSTEP_INC_CUDA_H\n#define WHICH 2\n#include <cuda_runtime.h>\n#include <assert.h>\n#endif\n",
    )
    .unwrap();

    // The first check precompiles `<stdio.h>` and the prelude's `cuda.h`.
    let report = check_in(&cache, &plain.join("main.cu"));
    assert_eq!(report["verdict"], "verified", "{report:#}");
    let built = std::fs::read_dir(cache.join("lockstep/pch/prefix")).map(|d| d.flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".pch")).count()).unwrap_or(0);
    assert_eq!(built, 2, "one precompiled header per side");
    // Twice: the second check loads them.
    let report = check_in(&cache, &plain.join("main.cu"));
    assert_eq!(report["verdict"], "verified", "{report:#}");

    // The same includes in a folder with its own `cuda.h`: that header is
    // the one compiled, and its `WHICH` makes the assertion fail.
    let report = check_in(&cache, &local.join("main.cu"));
    assert_eq!(report["verdict"], "errors", "{report:#}");
    let _ = std::fs::remove_dir_all(&base);
}
