//! The command line of a project run (`lockstep check PATH... -j N -p DIR`):
//! which arguments are inputs, which steer the run (parallelism, cache,
//! compile database, baseline), and which are the per-file flags every
//! file's check receives.
//!
//! A run with exactly one input file and none of the run's own options is
//! the single-file check of DESIGN.md, unchanged (`is_project_run`).

use std::path::PathBuf;

use crate::options::{self, Format};

/// Flags of `lockstep check` that take their value as the next argument
/// when written without `=` (`--blockDim 64`), so that the value is not
/// taken for an input path.
const VALUE_FLAGS: &[&str] = &[
    "-I", "-D", "-x", "--language", "--kernel", "--format", "--mode", "--solver", "--timeout", "--blockDim", "--local_size",
    "--gridDim", "--num_groups", "--global_size", "--global_offset", "--warp-sync", "--disable-rule", "--smt-log",
    "--cuda-path", "--cuda-headers", "--vcgen-opt", "--loop-unwind", "--kernel-args", "--kernel-arrays", "--boogie-file",
    "--clang-opt", "--memory-limit", "--kernel-jobs",
];

/// The run's own options, which no single-file check takes.
const RUN_FLAGS: &[&str] = &[
    "-j", "--jobs", "-p", "--compile-commands", "--no-cache", "--cache-dir", "--write-baseline", "--baseline", "--progress",
    "--config", "--no-config",
];

/// Whether the progress bar is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Progress {
    /// A bar on a terminal, plain lines elsewhere and under `CI=true`.
    #[default]
    Auto,
    /// Plain lines, one per file.
    Lines,
    /// Nothing until the summary.
    Off,
}

/// Everything a project run was asked to do.
#[derive(Clone, Debug, Default)]
pub struct ProjectArgs {
    /// Files and directories given on the command line.
    pub paths: Vec<PathBuf>,
    /// Checks run at once (`-j`); 0 is the number of cores.
    pub jobs: usize,
    /// `compile_commands.json` (`-p DIR` or `--compile-commands FILE`).
    pub compile_commands: Option<PathBuf>,
    pub no_cache: bool,
    pub cache_dir: Option<PathBuf>,
    /// `--write-baseline[=FILE]`: record the run's findings and exit 0.
    pub write_baseline: Option<Option<PathBuf>>,
    /// `--baseline=FILE`: findings recorded there do not fail the run.
    pub baseline: Option<PathBuf>,
    pub format: Format,
    pub progress: Progress,
    /// `--config=FILE`: this `lockstep.toml` instead of the one found by
    /// walking up from the inputs; `--no-config`: none.
    pub config: Option<PathBuf>,
    pub no_config: bool,
    /// The per-file flags, each in its `--flag=value` form (`-I`/`-D` as
    /// `-IDIR`/`-DNAME`), for every file's check.
    pub forwarded: Vec<String>,
}

/// Whether `args` (after `check`) ask for a project run rather than the
/// single-file check: several inputs, a directory, or one of the run's own
/// options.
pub fn is_project_run(args: &[String]) -> bool {
    let (positionals, run_flags) = scan(args);
    run_flags || positionals.len() > 1 || positionals.iter().any(|p| std::path::Path::new(p).is_dir())
}

/// The positional arguments, and whether a run flag is present.
fn scan(args: &[String]) -> (Vec<String>, bool) {
    let mut positionals = Vec::new();
    let mut run_flag = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let name = arg.split_once('=').map_or(arg.as_str(), |(n, _)| n);
        if RUN_FLAGS.contains(&name) || (arg.starts_with("-j") && arg[2..].parse::<usize>().is_ok()) {
            run_flag = true;
            if !arg.contains('=') && ["-j", "--jobs", "-p", "--compile-commands", "--cache-dir", "--baseline", "--config", "--progress"].contains(&name) {
                iter.next();
            }
        } else if VALUE_FLAGS.contains(&name) && !arg.contains('=') && arg.len() == name.len() {
            iter.next();
        } else if !arg.starts_with('-') || arg == "-" {
            positionals.push(arg.clone());
        }
    }
    (positionals, run_flag)
}

/// Parses a project run's arguments (after `check`).
pub fn parse(args: &[String]) -> Result<ProjectArgs, String> {
    let mut p = ProjectArgs::default();
    let mut iter = args.iter();
    let value = |flag: &str, inline: Option<&str>, iter: &mut std::slice::Iter<'_, String>| -> Result<String, String> {
        match inline {
            Some(v) => Ok(v.to_string()),
            None => iter.next().cloned().ok_or_else(|| format!("{flag} needs a value")),
        }
    };
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg.as_str(), None),
        };
        match flag {
            "-j" | "--jobs" => {
                let v = value(flag, inline, &mut iter)?;
                p.jobs = v.parse().map_err(|_| format!("{flag}: expected a number of jobs, got `{v}`"))?;
            }
            _ if flag.starts_with("-j") && flag[2..].parse::<usize>().is_ok() => p.jobs = flag[2..].parse().unwrap_or(0),
            "-p" => p.compile_commands = Some(PathBuf::from(value(flag, inline, &mut iter)?).join("compile_commands.json")),
            "--compile-commands" => p.compile_commands = Some(PathBuf::from(value(flag, inline, &mut iter)?)),
            "--no-cache" => p.no_cache = true,
            "--cache-dir" => p.cache_dir = Some(PathBuf::from(value(flag, inline, &mut iter)?)),
            "--write-baseline" => p.write_baseline = Some(inline.map(PathBuf::from)),
            "--baseline" => p.baseline = Some(PathBuf::from(value(flag, inline, &mut iter)?)),
            "--config" => p.config = Some(PathBuf::from(value(flag, inline, &mut iter)?)),
            "--no-config" => p.no_config = true,
            "--progress" => {
                p.progress = match value(flag, inline, &mut iter)?.as_str() {
                    "auto" => Progress::Auto,
                    "lines" => Progress::Lines,
                    "off" | "none" => Progress::Off,
                    other => return Err(format!("--progress: unknown choice `{other}` (expected auto, lines or off)")),
                }
            }
            "--format" => {
                p.format = match value(flag, inline, &mut iter)?.as_str() {
                    "human" => Format::Human,
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    other => return Err(format!("--format: unknown format `{other}` (expected human, json or sarif)")),
                }
            }
            "--dump-kir" => return Err("--dump-kir prints one file's kernel IR: give it one file".into()),
            "-I" | "-D" => p.forwarded.push(format!("{flag}{}", value(flag, None, &mut iter)?)),
            "-x" | "--language" => p.forwarded.push(format!("--language={}", value(flag, inline, &mut iter)?)),
            _ if VALUE_FLAGS.contains(&flag) && flag.starts_with("--") => p.forwarded.push(format!("{flag}={}", value(flag, inline, &mut iter)?)),
            _ if flag.starts_with('-') && flag.len() > 1 => p.forwarded.push(arg.clone()),
            _ => p.paths.push(PathBuf::from(arg)),
        }
    }
    // The per-file flags are checked once, up front, as a file's check
    // would read them, so that a mistyped flag is one error, not one per file.
    let mut probe = vec!["probe.cu".to_string()];
    probe.extend(p.forwarded.iter().cloned());
    options::parse_check(&probe).map_err(|e| e.0)?;
    if p.paths.is_empty() && p.compile_commands.is_none() {
        return Err("no input (usage: lockstep check PATH... [options], or -p BUILD_DIR)".into());
    }
    Ok(p)
}

/// The name of a per-file flag (`--blockDim` of `--blockDim=64`, `-I` of
/// `-Iinc`), for merging layers of flags.
pub fn flag_name(flag: &str) -> &str {
    if flag.starts_with("--") {
        return flag.split_once('=').map_or(flag, |(n, _)| n);
    }
    flag.get(..2).unwrap_or(flag)
}

/// Flags that add to each other rather than replace (`-I`, `-D`...).
const ACCUMULATING: &[&str] = &["-I", "-D", "--kernel", "--kernel-args", "--kernel-arrays", "--disable-rule", "--clang-opt", "--vcgen-opt"];

/// Merges layers of per-file flags, later layers first in precedence: a
/// flag that takes one value (`--blockDim`, `--timeout`) keeps its last
/// value, flags that accumulate (`-I`, `-D`) keep every occurrence.
pub fn merge_flags(layers: &[&[String]]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for layer in layers {
        for flag in layer.iter() {
            let name = flag_name(flag);
            if !ACCUMULATING.contains(&name) {
                out.retain(|f| flag_name(f) != name);
            }
            if !out.contains(flag) || !ACCUMULATING.contains(&name) {
                out.push(flag.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn one_file_without_run_options_is_a_single_check() {
        assert!(!is_project_run(&args("k.cu --blockDim 64 --gridDim=4 -I inc")));
        assert!(is_project_run(&args("a.cu b.cu")));
        assert!(is_project_run(&args("k.cu -j 2")));
        assert!(is_project_run(&args("-p build")));
        assert!(is_project_run(&args("k.cu --no-cache")));
    }

    #[test]
    fn per_file_flags_are_normalised_and_merged() {
        let p = parse(&args("src -I inc --blockDim 64 -j2 -x cuda --timeout=5")).unwrap();
        assert_eq!(p.paths, vec![PathBuf::from("src")]);
        assert_eq!(p.jobs, 2);
        assert_eq!(p.forwarded, args("-Iinc --blockDim=64 --language=cuda --timeout=5"));
        let merged = merge_flags(&[&args("--timeout=5 -Ia"), &args("--timeout=9 -Ib -Ia")]);
        assert_eq!(merged, args("-Ia --timeout=9 -Ib"));
        assert!(parse(&args("src --frobnicate")).unwrap_err().contains("--frobnicate"));
        assert!(parse(&args("src --dump-kir")).is_err());
    }
}
