//! Proves every kernel of a CUDA/OpenCL file: `prove_file FILE [--blockDim=N|*] [--gridDim=N|*] [--log=PATH]`.
//! A development aid; the real command line is `lockstep check`.

use std::path::PathBuf;
use std::time::Duration;

use lockstep_frontend::{load, CompileOptions};
use lockstep_prove::{prove_kernel, ProveConfig};

fn size(s: &str) -> Option<u64> {
    s.trim_matches(|c| c == '[' || c == ']').split(',').next().and_then(|x| x.parse().ok())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut cfg = ProveConfig { query_timeout: Duration::from_secs(10), ..ProveConfig::default() };
    for a in &args[2..] {
        if let Some(v) = a.strip_prefix("--blockDim=").or(a.strip_prefix("--local_size=")) {
            cfg.group_size[0] = size(v);
        } else if let Some(v) = a.strip_prefix("--gridDim=").or(a.strip_prefix("--num_groups=")) {
            cfg.num_groups[0] = size(v);
        } else if let Some(v) = a.strip_prefix("--log=") {
            cfg.replay_log = Some(PathBuf::from(v));
        } else if a == "--no-infer" {
            cfg.no_infer = true;
        }
    }
    let m = load(&PathBuf::from(&args[1]), &CompileOptions::default()).expect("compiles").module;
    for (k, f) in m.kernels() {
        println!("{}: {:#?}", f.name, prove_kernel(&m, k, &cfg));
    }
}
