//! Measures the prover on GPUVerify's test suite (read-only, from
//! `../shared/conformance/gpuverify`). Ignored by default; run with
//! `cargo test --release -p lockstep-prove --test conformance -- --ignored --nocapture`.
//! `GPUVERIFY_FILTER=substring` restricts the kernels.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lockstep_frontend::{load, CompileOptions};
use lockstep_prove::{prove_kernel, ProveConfig, ProveOutcome};

fn sizes(v: &str) -> Vec<Option<u64>> {
    v.trim_matches(|c| c == '[' || c == ']').split(',').map(|x| x.trim().parse().ok()).collect()
}

fn find_kernels(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            find_kernels(&p, out);
        } else if matches!(p.file_name().and_then(|n| n.to_str()), Some("kernel.cu" | "kernel.cl")) {
            out.push(p);
        }
    }
}

#[test]
#[ignore]
fn gpuverify_suite() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/gpuverify");
    let mut files = Vec::new();
    find_kernels(&root, &mut files);
    let filter = std::env::var("GPUVERIFY_FILTER").unwrap_or_default();
    let mut table: std::collections::BTreeMap<(String, String), usize> = Default::default();
    let mut unsound = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap().display().to_string();
        if !rel.contains(&filter) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let mut lines = text.lines();
        let expect = lines.next().unwrap_or("").trim().to_lowercase();
        let flags = lines.next().unwrap_or("").trim_start_matches("//").to_string();
        let expect = if expect.starts_with("//pass") {
            "pass"
        } else if expect.contains("not_all_verified") {
            "xfail"
        } else {
            continue;
        };
        let dir = f.parent().unwrap().to_path_buf();
        let mut cfg = ProveConfig {
            query_timeout: Duration::from_secs(5),
            time_budget: Some(Duration::from_secs(30)),
            ..ProveConfig::default()
        };
        let mut opts = CompileOptions { include_dirs: vec![dir.clone()], ..CompileOptions::default() };
        let (mut local, mut groups, mut global) = (None, None, None);
        for flag in flags.split_whitespace() {
            let flag = flag.replace("${KERNEL_DIR}", &dir.display().to_string());
            let (k, v) = flag.split_once('=').unwrap_or((flag.as_str(), ""));
            match k {
                "--blockDim" | "--local_size" => local = Some(sizes(v)),
                "--gridDim" | "--num_groups" => groups = Some(sizes(v)),
                "--global_size" => global = Some(sizes(v)),
                "--only-divergence" => cfg.only_divergence = true,
                "--only-intra-group" => cfg.only_intra_group = true,
                "--no-infer" => cfg.no_infer = true,
                "--equality-abstraction" => cfg.equality_abstraction = true,
                "--check-array-bounds" => cfg.check_array_bounds = true,
                "--invariants-as-candidates" => cfg.invariants_as_candidates = true,
                "--no-annotations" => cfg.no_annotations = true,
                "--only-requires" => cfg.only_requires = true,
                _ if k.starts_with("-D") => opts.defines.push(flag[2..].to_string()),
                _ if k.starts_with("-I") => opts.include_dirs.push(PathBuf::from(&flag[2..])),
                _ => {}
            }
        }
        let local = local.unwrap_or_else(|| vec![None]);
        let groups = match (groups, &global) {
            (Some(g), _) => g,
            (None, Some(gl)) => gl.iter().zip(local.iter().chain(std::iter::repeat(&None))).map(|(g, l)| match (g, l) {
                (Some(g), Some(l)) if *l > 0 => Some(g / l),
                _ => None,
            }).collect(),
            (None, None) => vec![None],
        };
        cfg.dims = local.len().max(groups.len()).clamp(1, 3) as u8;
        for d in 0..3 {
            cfg.group_size[d] = if d < cfg.dims as usize { local.get(d).copied().unwrap_or(Some(1)) } else { Some(1) };
            cfg.num_groups[d] = if d < cfg.dims as usize { groups.get(d).copied().unwrap_or(Some(1)) } else { Some(1) };
        }
        let start = Instant::now();
        let verdict = match load(&f, &opts) {
            Err(_) => "frontend-error".to_string(),
            Ok(loaded) => {
                let m = loaded.module;
                let mut worst = if m.kernels().next().is_none() { "unknown" } else { "verified" };
                let mut why = String::new();
                for (k, _) in m.kernels() {
                    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| prove_kernel(&m, k, &cfg)));
                    let v = match out {
                        Ok(ProveOutcome::Verified { .. }) => "verified",
                        Ok(ProveOutcome::Failed { violations }) => {
                            why = violations.first().map(|v| v.message.clone()).unwrap_or_default();
                            "failed"
                        }
                        Ok(ProveOutcome::Unknown { reason, .. }) => {
                            why = reason;
                            "unknown"
                        }
                        Err(_) => "panic",
                    };
                    let rank = |s: &str| ["verified", "unknown", "failed", "panic"].iter().position(|x| *x == s).unwrap();
                    if rank(v) > rank(worst) {
                        worst = v;
                    }
                }
                if worst != "verified" {
                    println!("{rel}: expected {expect}, got {worst}: {why} ({} ms)", start.elapsed().as_millis());
                } else {
                    println!("{rel}: expected {expect}, got {worst} ({} ms)", start.elapsed().as_millis());
                }
                worst.to_string()
            }
        };
        if expect == "xfail" && verdict == "verified" {
            unsound.push(rel.clone());
        }
        *table.entry((expect.to_string(), verdict)).or_default() += 1;
    }
    println!("\n== summary ==");
    for ((e, v), n) in &table {
        println!("{e:6} {v:15} {n}");
    }
    println!("xfail kernels reported verified: {}", unsound.len());
    for u in &unsound {
        println!("  {u}");
    }
}
