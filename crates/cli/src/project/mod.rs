//! Project runs: `lockstep check PATH... [-j N] [-p BUILD_DIR]` checks every
//! CUDA and OpenCL file of a project in one command, for CI and editors.
//!
//! - `inputs`: the files (directories walked, `.gitignore` honoured);
//! - `config`: `lockstep.toml`, found by walking up from the inputs;
//! - `compile_commands`: each file's flags from a compilation database;
//! - `parallel`: the work queue, one child `lockstep check FILE
//!   --format=json` per file, Ctrl-C;
//! - `cache`: reports reused while the file and its headers are unchanged;
//! - `suppress`: in-source suppressions and the baseline;
//! - `progress`, `summary`, `sarif`: what the run shows and prints.
//!
//! One input file without any of the run's own options is the single-file
//! check of DESIGN.md, unchanged; `is_project_run` tells them apart.

pub mod args;
pub mod cache;
pub mod compile_commands;
pub mod config;
pub mod inputs;
pub mod parallel;
pub mod progress;
pub mod report;
pub mod sarif;
pub mod summary;
pub mod suppress;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::options::Format;
pub use args::is_project_run;
use parallel::{Job, Run};

/// Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells use).
const INTERRUPTED: i32 = 130;

/// Reports a command-line or configuration error in the format asked for.
fn fail(message: &str, format: Format) -> i32 {
    match format {
        Format::Human => eprintln!("error: {message}"),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&json!({"verdict": "rejected", "files": [], "error": message})).unwrap_or_default()
        ),
        Format::Sarif => {
            let invocation = json!({"executionSuccessful": false, "toolExecutionNotifications": [{"level": "error", "message": {"text": message}}]});
            println!("{}", crate::render::sarif_log(&[], Vec::new(), invocation, json!({"verdict": "rejected"})));
        }
    }
    2
}

/// The project configuration for the inputs: `--config`, else the
/// `lockstep.toml` found from the first input (or the working directory).
fn configuration(p: &args::ProjectArgs) -> Result<config::Config, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?;
    let default = config::Config { root: cwd.clone(), ..config::Config::default() };
    if p.no_config {
        return Ok(default);
    }
    if let Some(file) = &p.config {
        return config::load(file);
    }
    let start = p.paths.first().map(|f| inputs::absolute(f)).or_else(|| p.compile_commands.as_ref().map(|c| inputs::absolute(c))).unwrap_or(cwd);
    match config::find(&start) {
        Some(file) => config::load(&file),
        None => Ok(default),
    }
}

/// The user's cache folder for results of files outside any project.
fn user_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("lockstep").join("results")
}

/// The longest `--timeout` among the runs' flags, for the parent's own
/// limit on a child (which the child's watchdog should never reach).
fn longest_timeout(jobs: &[Job]) -> Option<Duration> {
    let mut longest: Option<u64> = None;
    for job in jobs {
        let mut per_file = 0u64;
        for run in &job.runs {
            let t = run.args.iter().rev().find_map(|a| a.strip_prefix("--timeout=")).and_then(|t| t.parse::<u64>().ok());
            match t {
                Some(t) if t > 0 => per_file += t,
                _ => return None,
            }
        }
        longest = Some(longest.unwrap_or(0).max(per_file));
    }
    // The child's own limit, plus time to start, report and stop clang.
    longest.map(|t| Duration::from_secs(t + 30))
}

/// Runs a project check; returns the exit status.
pub fn run(raw: &[String]) -> i32 {
    let started = Instant::now();
    let format_asked = crate::requested_format(raw);
    let p = match args::parse(raw) {
        Ok(p) => p,
        Err(e) => return fail(&e, format_asked),
    };
    let config = match configuration(&p) {
        Ok(c) => c,
        Err(e) => return fail(&e, p.format),
    };
    let mut notes: Vec<String> = Vec::new();
    if let Some(file) = &config.file {
        notes.push(format!("configuration: {}", inputs::display(file)));
    }
    // The compilation database gives files and their flags.
    let mut db: BTreeMap<PathBuf, compile_commands::Entry> = BTreeMap::new();
    let mut db_order = Vec::new();
    if let Some(path) = &p.compile_commands {
        match compile_commands::load(path) {
            Ok(entries) => {
                let mut ignored = BTreeSet::new();
                for e in entries {
                    ignored.extend(e.ignored.iter().cloned());
                    db_order.push(e.file.clone());
                    db.insert(e.file.clone(), e);
                }
                if !ignored.is_empty() {
                    notes.push(format!(
                        "{}: options lockstep ignores (code generation, not meaning): {}",
                        inputs::display(path),
                        ignored.into_iter().collect::<Vec<_>>().join(" ")
                    ));
                }
            }
            Err(e) => return fail(&e, p.format),
        }
    }
    let files = if p.paths.is_empty() {
        db_order.into_iter().filter(|f| !config.is_excluded(f)).collect()
    } else {
        match inputs::collect(&p.paths, &config) {
            Ok(f) => f,
            Err(e) => return fail(&e, p.format),
        }
    };
    if p.compile_commands.is_some() && !p.paths.is_empty() {
        let outside = files.iter().filter(|f| !db.contains_key(*f)).count();
        if outside > 0 {
            notes.push(format!("{outside} files are not in the compilation database: they are checked with the default flags"));
        }
    }
    if files.is_empty() {
        notes.push("no .cu or .cl file in the inputs: nothing was checked".into());
    }
    let jobs_list: Vec<Job> = files
        .iter()
        .map(|file| {
            let from_config = config.flags_for(file);
            let from_db = db.get(file).map(|e| e.flags.clone()).unwrap_or_default();
            let flags = args::merge_flags(&[&from_config, &from_db, &p.forwarded]);
            let mut runs = vec![Run { kernel: None, args: flags.clone() }];
            for k in config.kernels_for(file) {
                runs.push(Run { kernel: Some(k.name.clone()), args: args::merge_flags(&[&flags, &k.flags]) });
            }
            Job { file: file.clone(), runs }
        })
        .collect();
    let jobs = if p.jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { p.jobs };
    let cache = (!p.no_cache).then(|| {
        let dir = p.cache_dir.clone().or_else(|| config.cache_dir.clone()).unwrap_or_else(|| match &config.file {
            Some(_) => config.root.join(".lockstep-cache"),
            None => user_cache_dir(),
        });
        let cuda_path = p.forwarded.iter().rev().find_map(|f| f.strip_prefix("--cuda-path=")).map(PathBuf::from);
        cache::Cache::new(dir, cuda_path.as_deref())
    });
    let baseline_path = p.baseline.clone().or_else(|| config.baseline.clone()).or_else(|| {
        let default = config.root.join("lockstep-baseline.json");
        (config.file.is_some() && default.is_file()).then_some(default)
    });
    let baseline = match (&baseline_path, &p.write_baseline) {
        (Some(path), None) => match suppress::load_baseline(path) {
            Ok(b) => b,
            Err(e) => return fail(&e, p.format),
        },
        _ => BTreeSet::new(),
    };

    let interrupt = Arc::new(parallel::Interrupt::default());
    {
        let interrupt = interrupt.clone();
        // A second handler cannot be installed (the LSP server may have
        // one): the run then stops only with its process.
        let _ = ctrlc::set_handler(move || interrupt.stop());
    }
    let display = progress::Display::new(jobs_list.len(), p.progress);
    let deadline = longest_timeout(&jobs_list);
    let mut outcomes = parallel::run_all(jobs_list, jobs, cache.as_ref(), deadline, &interrupt, &display);
    display.finish();
    let interrupted = interrupt.stopped.load(std::sync::atomic::Ordering::SeqCst);
    outcomes.sort_by(|a, b| a.file.cmp(&b.file));

    let mut findings = BTreeSet::new();
    for o in &mut outcomes {
        findings.extend(suppress::apply(&mut o.report, &o.file, &config.root, &baseline));
    }
    if let Some(target) = &p.write_baseline {
        let path = target.clone().or(baseline_path).unwrap_or_else(|| config.root.join("lockstep-baseline.json"));
        // Findings suppressed in the source need no baseline entry.
        let unsuppressed: BTreeSet<String> = findings;
        if let Err(e) = suppress::write_baseline(&path, &unsuppressed) {
            return fail(&e, p.format);
        }
        eprintln!("wrote {} findings to {}", unsuppressed.len(), inputs::display(&path));
        notes.push(format!("baseline written: {}", inputs::display(&path)));
    }
    let summary = summary::Summary { outcomes: &outcomes, elapsed_ms: started.elapsed().as_millis() as u64, jobs, interrupted, notes: &notes };
    let text = match p.format {
        Format::Human => summary.human(),
        Format::Json => summary.json(),
        Format::Sarif => sarif::log(&summary),
    };
    println!("{}", text.trim_end());
    if interrupted {
        return INTERRUPTED;
    }
    if p.write_baseline.is_some() {
        return 0;
    }
    summary.verdict().exit_code()
}

/// Whether `path` is a project's file (used by the language server to
/// find the configuration of a file it checks).
pub fn config_for(path: &Path) -> Option<config::Config> {
    config::find(path).and_then(|f| config::load(&f).ok())
}
