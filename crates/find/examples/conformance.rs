//! Measures the bug finder on GPUVerify's conformance kernels.
//!
//! Usage: `cargo run --release -p lockstep-find --example conformance [DIR]`
//! where DIR defaults to `../shared/conformance/gpuverify` beside the
//! workspace. The kernels are read in place (never copied). For each kernel
//! the first line gives the expected outcome and the second the flags; the
//! program runs `find_bugs` on every kernel function of the file and prints:
//!
//! - how many `//xfail:NOT_ALL_VERIFIED` kernels get at least one violation
//!   (bugs found);
//! - how many `//pass` kernels get one (false alarms, which the concrete
//!   replay is meant to filter);
//! - the median and total time of the search per file (compilation excluded).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lockstep_find::{find_bugs, FindConfig};
use lockstep_frontend::{load, CompileOptions};

/// Parses `64`, `[64,64]`, `64,64` or `*` into up to three sizes.
fn sizes(text: &str) -> Option<[Option<u64>; 3]> {
    let inner = text.trim_start_matches('[').trim_end_matches(']');
    let mut out = [Some(1); 3];
    for (d, part) in inner.split(',').enumerate().take(3) {
        out[d] = if part.trim() == "*" { None } else { Some(part.trim().parse().ok()?) };
    }
    Some(out)
}

struct Flags {
    config: FindConfig,
    options: CompileOptions,
}

fn parse_flags(line: &str, dir: &Path) -> Flags {
    let mut config = FindConfig {
        query_timeout: Duration::from_secs(5),
        total_timeout: Duration::from_secs(30),
        max_violations: 4,
        ..FindConfig::default()
    };
    let mut options = CompileOptions::default();
    let mut global_size = None;
    let line = line.trim_start_matches("//").replace("${KERNEL_DIR}", &dir.display().to_string());
    for flag in line.split_whitespace() {
        let (name, value) = flag.split_once('=').unwrap_or((flag, ""));
        match name {
            "--blockDim" | "--local_size" => config.group_size = sizes(value).unwrap_or([None; 3]),
            "--gridDim" | "--num_groups" => config.num_groups = sizes(value).unwrap_or([None; 3]),
            "--global_size" => global_size = sizes(value),
            "--only-intra-group" => config.only_intra_group = true,
            "--only-divergence" => config.only_divergence = true,
            "--warp-sync" => config.warp_size = value.parse().ok(),
            "--loop-unwind" => config.loop_unwind = value.parse().unwrap_or(4),
            _ if flag.starts_with("-D") => options.defines.push(flag[2..].to_string()),
            _ if flag.starts_with("-I") => options.include_dirs.push(PathBuf::from(&flag[2..])),
            _ => {}
        }
    }
    if let Some(global) = global_size {
        for d in 0..3 {
            config.num_groups[d] = match (global[d], config.group_size[d]) {
                (Some(g), Some(l)) if l > 0 => Some((g / l).max(1)),
                _ => None,
            };
        }
    }
    Flags { config, options }
}

fn kernel_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            kernel_files(&p, out);
        } else if matches!(p.file_name().and_then(|n| n.to_str()), Some("kernel.cu" | "kernel.cl")) {
            out.push(p);
        }
    }
}

fn main() {
    let root = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/gpuverify")
    });
    let mut files = Vec::new();
    kernel_files(&root, &mut files);
    let (mut bugs, mut bug_hits, mut passes, mut false_alarms, mut incomplete) = (0, 0, 0, 0, 0);
    let mut times: Vec<Duration> = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let mut lines = text.lines();
        let expect = lines.next().unwrap_or("").trim().to_ascii_lowercase();
        let is_bug = expect == "//xfail:not_all_verified";
        let is_pass = expect == "//pass";
        if !is_bug && !is_pass {
            continue;
        }
        let flags = parse_flags(lines.next().unwrap_or(""), file.parent().unwrap());
        let rel = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        let module = match load(file, &flags.options) {
            Ok(l) => l.module,
            Err(e) => {
                println!("{rel}: not compiled ({})", format!("{e:?}").chars().take(80).collect::<String>());
                continue;
            }
        };
        let start = Instant::now();
        let mut found = Vec::new();
        let mut complete = true;
        for (kernel, _) in module.kernels() {
            let out = find_bugs(&module, kernel, &flags.config);
            complete &= out.complete;
            found.extend(out.violations.iter().map(|v| format!("{}: {}", v.kind.name(), v.message)));
        }
        let elapsed = start.elapsed();
        times.push(elapsed);
        if !complete {
            incomplete += 1;
        }
        let verdict = match (is_bug, found.is_empty()) {
            (true, false) => {
                bugs += 1;
                bug_hits += 1;
                "found"
            }
            (true, true) => {
                bugs += 1;
                "missed"
            }
            (false, false) => {
                passes += 1;
                false_alarms += 1;
                "FALSE ALARM"
            }
            (false, true) => {
                passes += 1;
                "clean"
            }
        };
        println!(
            "{rel}: {verdict} in {:.0} ms{}{}",
            elapsed.as_secs_f64() * 1000.0,
            if complete { "" } else { " (incomplete)" },
            found.first().map(|f| format!(" [{f}]")).unwrap_or_default()
        );
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let total: Duration = times.iter().sum();
    println!();
    println!("xfail:NOT_ALL_VERIFIED kernels with a violation: {bug_hits} of {bugs}");
    println!("pass kernels with a violation (false alarms):    {false_alarms} of {passes}");
    println!("searches cut by a bound or timeout: {incomplete}");
    println!(
        "median search time per file: {:.1} ms; total {:.1} s over {} files",
        median.as_secs_f64() * 1000.0,
        total.as_secs_f64(),
        times.len()
    );
}
