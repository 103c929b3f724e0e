//! Command-line parsing: lockstep's own options and GPUVerify's flags with
//! their meanings (DESIGN.md, "Command line").
//!
//! Parsing never exits the process; it returns a `UsageError` that `main`
//! renders as one clear line with exit status 2.

use std::fmt;
use std::path::PathBuf;

use lockstep_kir::Language;

/// One dimension list of a launch: `64`, `[16,16]`, `*` (unconstrained).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dims {
    /// Any size the hardware allows.
    Any,
    /// One to three sizes; `None` entries are `*`.
    Sizes(Vec<Option<u64>>),
}

impl Dims {
    /// The size in each of the three dimensions (missing ones are 1).
    pub fn three(&self) -> [Option<u64>; 3] {
        match self {
            Dims::Any => [None, None, None],
            Dims::Sizes(v) => [0, 1, 2].map(|i| if i < v.len() { v[i] } else { Some(1) }),
        }
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dims::Any => write!(f, "*"),
            Dims::Sizes(v) => {
                let parts: Vec<String> = v.iter().map(|d| d.map_or("*".to_string(), |n| n.to_string())).collect();
                write!(f, "[{}]", parts.join(","))
            }
        }
    }
}

/// How many threads run the kernel. `None` fields are unconstrained.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LaunchConfig {
    /// Threads per group (CUDA block, OpenCL work-group).
    pub group_size: Option<Dims>,
    /// Groups in the grid.
    pub num_groups: Option<Dims>,
    /// OpenCL `--global_offset`, per dimension: the dimensions it does not
    /// list have offset 0 (`parse_offsets`).
    pub global_offset: [u64; 3],
    /// OpenCL `--global_size`, as given (`num_groups` is derived from it).
    pub global_size: Option<Dims>,
}

pub use lockstep_engine::Mode;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Human,
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SolverKind {
    #[default]
    Z3,
    Cvc5,
}

/// Everything `lockstep check` was asked to do. Passed explicitly to every
/// stage; there is no global configuration.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub file: PathBuf,
    pub language: Option<Language>,
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// `--cuda-path=DIR`: the CUDA toolkit whose headers CUDA files use.
    pub cuda_path: Option<PathBuf>,
    /// `--cuda-headers=auto|prelude|toolkit`: which headers CUDA files are
    /// compiled against (see `lockstep_frontend::CudaHeaders`).
    pub cuda_headers: lockstep_frontend::CudaHeaders,
    /// Check only these kernels (all when empty).
    pub kernels: Vec<String>,
    pub launch: LaunchConfig,
    pub format: Format,
    pub dump_kir: bool,
    pub mode: Mode,
    pub solver: SolverKind,
    /// Whole-run wall-clock limit in seconds.
    pub timeout_secs: Option<u64>,
    /// When the run must end (`--timeout` after its start); set by the
    /// driver, not parsed.
    pub deadline: Option<std::time::Instant>,
    /// `--memory-limit` in MiB, when given (the engines' default otherwise).
    pub memory_limit_mib: Option<u64>,
    /// `--kernel-jobs=N`: how many of the file's kernels are checked at
    /// once; 0 (the default) is the number of cores.
    pub kernel_jobs: usize,
    pub only_divergence: bool,
    pub only_intra_group: bool,
    pub check_array_bounds: bool,
    pub equality_abstraction: bool,
    pub warp_sync: Option<u32>,
    pub no_infer: bool,
    /// `--no-daikon`: keep the candidates a concrete run falsifies.
    pub no_daikon: bool,
    /// `--cross-check`: a proof is re-done with the other solver.
    pub cross_check: bool,
    pub loop_unwind: Option<u32>,
    pub kernel_args: Vec<String>,
    pub kernel_arrays: Vec<String>,
    pub no_inline: bool,
    pub no_annotations: bool,
    pub only_requires: bool,
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--vcgen-opt=/checkArrays:A,B`: races are checked on
    /// these arrays only.
    pub race_arrays: Option<Vec<String>>,
    /// Invariant-inference rules turned off (`--disable-rule=TAG`).
    pub disabled_rules: Vec<String>,
    /// A directory that receives one SMT-LIB2 replay file per solver
    /// session (`--smt-log=DIR`).
    pub smt_log: Option<PathBuf>,
    /// What a compatibility flag did, for a note in the report.
    pub flag_notes: Vec<String>,
    /// Flags accepted for compatibility that change nothing here.
    pub ignored: Vec<String>,
    /// GPUVerify's `--boogie-file`: Boogie axioms (about functions declared
    /// with `DECLARE_UF_*`), which lockstep does not read.
    pub axioms_file: Option<String>,
}

/// A command-line error: one line, exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(msg.into()))
}

/// GPUVerify flags that only steer GPUVerify's own internals (Boogie, its
/// VC generator, its inference engine's scheduling). They are accepted so
/// that existing scripts keep working, and reported in a note.
const IGNORED_FLAGS: &[&str] = &[
    "--vcgen-op", "--boogie-opt", "--infer-info", "--debug",
    "--k-induction-depth", "--cruncher-opt",
    "--time", "--time-as-csv", "--verbose", "--silent", "--stop-at-opt", "--stop-at-gbpl", "--stop-at-bpl",
    "--keep-temps", "--no-benign", "--no-barrier-access-checks", "--no-constant-write-checks", "--no-loop-predicate-invariants",
    "--no-smart-predication", "--no-source-loc-infer", "--no-uniformity-analysis", "--asymmetric-asserts",
    "--staged-inference", "--parallel-inference", "--dynamic-analysis", "--scheduling", "--infer-config-file",
    "--race-instrumenter", "--array-equalities", "--math-int", "--atomic", "--memout", "--call-site-analysis",
    "--gen-smt2", "--bugle-lang", "--bugle-opt", "--opt-opt", "--prover", "--relational-inference",
    "--show-stats", "--print-kernel-summary", "--disable-timeout", "--no-refined-atomics", "--solver-opt",
];

/// Parses a dimension value: `64`, `[16,16]`, `[16, 16, 1]`, `*`, `[*,8]`.
pub fn parse_dims(flag: &str, text: &str) -> Result<Dims, UsageError> {
    let t = text.trim();
    if t == "*" {
        return Ok(Dims::Any);
    }
    let inner = match t.strip_prefix('[') {
        Some(rest) => match rest.strip_suffix(']') {
            Some(inner) => inner,
            None => return err(format!("{flag}: missing `]` in `{text}`")),
        },
        None => t,
    };
    let mut dims = Vec::new();
    for part in inner.split(',') {
        let p = part.trim();
        if p == "*" {
            dims.push(None);
            continue;
        }
        match p.parse::<u64>() {
            Ok(0) => return err(format!("{flag}: dimensions must be positive, got `{text}`")),
            Ok(n) => dims.push(Some(n)),
            Err(_) => return err(format!("{flag}: expected a positive number, `*` or a list like [16,16], got `{text}`")),
        }
    }
    if dims.is_empty() || dims.len() > 3 {
        return err(format!("{flag}: between one and three dimensions are allowed, got `{text}`"));
    }
    Ok(Dims::Sizes(dims))
}

/// Parses `--global_offset`'s value: `N` or `[a,b,c]`, one to three offsets
/// in the order of the dimensions, as GPUVerify reads it. Unlike a size, an
/// offset may be 0, and a dimension the value does not list has offset 0
/// (a size would be 1 there): `--global_offset=64` offsets dimension 0 only.
/// A symbolic offset (`*`) is not supported.
pub fn parse_offsets(flag: &str, text: &str) -> Result<[u64; 3], UsageError> {
    let t = text.trim();
    let inner = match t.strip_prefix('[') {
        Some(rest) => match rest.strip_suffix(']') {
            Some(inner) => inner,
            None => return err(format!("{flag}: missing `]` in `{text}`")),
        },
        None => t,
    };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return err(format!("{flag}: between one and three offsets are allowed, got `{text}`"));
    }
    let mut out = [0; 3];
    for (d, p) in parts.iter().enumerate() {
        match p.parse::<u64>() {
            Ok(n) if n <= u32::MAX as u64 => out[d] = n,
            _ => return err(format!("{flag}: expected a number below 2^32 or a list like [64,0], got `{text}`")),
        }
    }
    Ok(out)
}

/// Reads the value of `--flag=value` or `--flag value`.
fn take_value(flag: &str, inline: Option<&str>, rest: &mut std::slice::Iter<'_, String>) -> Result<String, UsageError> {
    if let Some(v) = inline {
        return Ok(v.to_string());
    }
    match rest.next() {
        Some(v) => Ok(v.clone()),
        None => err(format!("{flag} needs a value")),
    }
}

fn parse_number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, UsageError> {
    text.trim().parse().map_err(|_| UsageError(format!("{flag}: expected a number, got `{text}`")))
}

/// Parses the arguments after `lockstep check`.
pub fn parse_check(args: &[String]) -> Result<CheckOptions, UsageError> {
    let mut o = CheckOptions::default();
    let mut file: Option<PathBuf> = None;
    let mut global_size: Option<Dims> = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg.as_str(), None),
        };
        match flag {
            "-I" => o.include_dirs.push(PathBuf::from(take_value("-I", None, &mut iter)?)),
            "-D" => o.defines.push(take_value("-D", None, &mut iter)?),
            _ if flag.starts_with("-I") && flag.len() > 2 => o.include_dirs.push(PathBuf::from(&arg[2..])),
            _ if flag.starts_with("-D") && flag.len() > 2 => o.defines.push(arg[2..].to_string()),
            "-x" | "--language" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.language = Some(match v.as_str() {
                    "cuda" | "cu" => Language::Cuda,
                    "opencl" | "cl" => Language::OpenCl,
                    other => return err(format!("{flag}: unknown language `{other}` (expected cuda or opencl)")),
                });
            }
            "--kernel" => o.kernels.push(take_value(flag, inline, &mut iter)?),
            "--format" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.format = match v.as_str() {
                    "human" => Format::Human,
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    other => return err(format!("--format: unknown format `{other}` (expected human, json or sarif)")),
                };
            }
            "--dump-kir" => o.dump_kir = true,
            "--mode" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.mode = match v.as_str() {
                    "prove" => Mode::Prove,
                    "find" => Mode::Find,
                    "both" => Mode::Both,
                    other => return err(format!("--mode: unknown mode `{other}` (expected prove, find or both)")),
                };
            }
            "--solver" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.solver = match v.as_str() {
                    "z3" => SolverKind::Z3,
                    "cvc5" | "cvc4" => SolverKind::Cvc5,
                    other => return err(format!("--solver: unknown solver `{other}` (expected z3 or cvc5)")),
                };
            }
            "--timeout" => {
                let v = take_value(flag, inline, &mut iter)?;
                let secs: u64 = parse_number(flag, &v)?;
                // GPUVerify uses 0 for "no timeout".
                o.timeout_secs = (secs > 0).then_some(secs);
            }
            "--kernel-jobs" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.kernel_jobs = parse_number(flag, &v)?;
                if o.kernel_jobs == 0 {
                    return err("--kernel-jobs: at least one kernel must be checked at a time");
                }
            }
            "--memory-limit" => {
                let v = take_value(flag, inline, &mut iter)?;
                let mib: u64 = parse_number(flag, &v)?;
                if !(256..=1 << 30).contains(&mib) {
                    return err(format!("--memory-limit: {mib} MiB is outside 256 MiB ..= 1 PiB"));
                }
                o.memory_limit_mib = Some(mib);
            }
            "--blockDim" | "--local_size" => {
                let v = take_value(flag, inline, &mut iter)?;
                if o.launch.group_size.is_some() {
                    return err(format!("{flag}: the group size was given twice (--blockDim and --local_size mean the same)"));
                }
                o.launch.group_size = Some(parse_dims(flag, &v)?);
            }
            "--gridDim" | "--num_groups" => {
                let v = take_value(flag, inline, &mut iter)?;
                if o.launch.num_groups.is_some() {
                    return err(format!("{flag}: the number of groups was given twice (--gridDim and --num_groups mean the same)"));
                }
                o.launch.num_groups = Some(parse_dims(flag, &v)?);
            }
            "--global_size" => {
                let v = take_value(flag, inline, &mut iter)?;
                global_size = Some(parse_dims(flag, &v)?);
            }
            "--global_offset" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.launch.global_offset = parse_offsets(flag, &v)?;
            }
            "--only-divergence" => o.only_divergence = true,
            "--only-intra-group" => o.only_intra_group = true,
            "--check-array-bounds" => o.check_array_bounds = true,
            "--equality-abstraction" => o.equality_abstraction = true,
            "--adversarial-abstraction" => o.equality_abstraction = false,
            "--warp-sync" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.warp_sync = Some(parse_number(flag, &v)?);
            }
            "--no-infer" => o.no_infer = true,
            "--no-daikon" => o.no_daikon = true,
            "--cross-check" => o.cross_check = true,
            "--disable-rule" => {
                let v = take_value(flag, inline, &mut iter)?;
                for tag in v.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                    if !lockstep_engine::INFERENCE_RULES.contains(&tag) {
                        return err(format!(
                            "--disable-rule: unknown rule `{tag}` (the rules are {})",
                            lockstep_engine::INFERENCE_RULES.join(", ")
                        ));
                    }
                    o.disabled_rules.push(tag.to_string());
                }
            }
            "--smt-log" => o.smt_log = Some(PathBuf::from(take_value(flag, inline, &mut iter)?)),
            "--cuda-path" => o.cuda_path = Some(PathBuf::from(take_value(flag, inline, &mut iter)?)),
            "--cuda-headers" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.cuda_headers = match v.as_str() {
                    "auto" => lockstep_frontend::CudaHeaders::Auto,
                    "prelude" => lockstep_frontend::CudaHeaders::Prelude,
                    "toolkit" => lockstep_frontend::CudaHeaders::Toolkit,
                    other => return err(format!("--cuda-headers: unknown choice `{other}` (expected auto, prelude or toolkit)")),
                };
            }
            // GPUVerify's `--only-log` instruments accesses without checking
            // them: no race is reported, everything else is checked.
            "--only-log" => {
                o.only_divergence = true;
                o.flag_notes.push("`--only-log`: data races are not checked (GPUVerify's meaning)".into());
            }
            // `--vcgen-opt` passes options to GPUVerify's VC generator; the
            // one that changes what is checked, `/checkArrays:A,B`, is
            // honoured, the others are internals.
            "--vcgen-opt" => {
                let v = take_value(flag, inline, &mut iter)?;
                match v.strip_prefix("/checkArrays:") {
                    Some(list) => {
                        let names: Vec<String> = list.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect();
                        o.flag_notes.push(format!("`{arg}`: data races are checked only on {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")));
                        o.race_arrays.get_or_insert_with(Vec::new).extend(names);
                    }
                    None => o.ignored.push(format!("--vcgen-opt={v}")),
                }
            }
            "--no-annotations" => o.no_annotations = true,
            "--only-requires" => o.only_requires = true,
            "--invariants-as-candidates" => o.invariants_as_candidates = true,
            "--loop-unwind" => {
                let v = take_value(flag, inline, &mut iter)?;
                o.loop_unwind = Some(parse_number(flag, &v)?);
            }
            "--kernel-args" => o.kernel_args.push(take_value(flag, inline, &mut iter)?),
            "--kernel-arrays" => o.kernel_arrays.push(take_value(flag, inline, &mut iter)?),
            "--boogie-file" => o.axioms_file = Some(take_value(flag, inline, &mut iter)?),
            "--no-inline" | "--inline" => o.no_inline = flag == "--no-inline",
            "--clang-opt" => {
                // Pass preprocessor definitions and include paths on to
                // clang; anything else would change how clang compiles in
                // ways the lowering is not prepared for.
                let v = take_value(flag, inline, &mut iter)?;
                for word in v.split_whitespace() {
                    if let Some(d) = word.strip_prefix("-D") {
                        o.defines.push(d.to_string());
                    } else if let Some(i) = word.strip_prefix("-I") {
                        o.include_dirs.push(PathBuf::from(i));
                    } else {
                        o.ignored.push(format!("--clang-opt={word}"));
                    }
                }
            }
            _ if IGNORED_FLAGS.contains(&flag) => o.ignored.push(arg.clone()),
            _ if flag.starts_with('-') && flag.len() > 1 => {
                return err(format!("unknown option `{arg}` (see `lockstep --help`)"));
            }
            _ => {
                if file.is_some() {
                    return err(format!("more than one input file (`{}` and `{arg}`)", file.unwrap().display()));
                }
                file = Some(PathBuf::from(arg));
            }
        }
    }
    o.file = match file {
        Some(f) => f,
        None => return err("no input file (usage: lockstep check FILE [options])"),
    };
    if let Some(global) = global_size {
        resolve_global_size(&mut o.launch, global)?;
    }
    let language = o.language.or_else(|| lockstep_frontend::language_of(&o.file));
    check_launch_limits(&mut o, language)?;
    Ok(o)
}

/// CUDA's launch limits (every device since compute capability 2.0).
const CUDA_MAX_BLOCK: [u64; 3] = [1024, 1024, 64];
const CUDA_MAX_BLOCK_THREADS: u64 = 1024;
const CUDA_MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// Refuses launch sizes no device can run, or that the engines could not
/// hold without wrapping (which would make checks vacuous: a block of 2^32
/// threads held in 32 bits is a block of none).
///
/// CUDA: grids as CUDA allows (x below 2^31, y and z below 65536). Blocks
/// beyond CUDA's 1024 threads are accepted with a note, as GPUVerify
/// accepts them (its test suite checks blocks of 2048 threads), as long as
/// each dimension and the block's thread count fit 32 bits. OpenCL: sizes
/// fit `size_t` by parsing; the total number of work-items must fit 64 bits,
/// and lockstep holds each dimension in 32 bits, as every device does.
fn check_launch_limits(o: &mut CheckOptions, language: Option<Language>) -> Result<(), UsageError> {
    let cuda = language == Some(Language::Cuda);
    let (block_flag, grid_flag) = match (cuda, o.launch.global_size.is_some()) {
        (true, _) => ("--blockDim", "--gridDim"),
        // The number of groups was derived from the global size.
        (false, true) => ("--local_size", "--global_size (its number of groups)"),
        (false, false) => ("--local_size", "--num_groups"),
    };
    let sizes = |d: &Option<Dims>| d.as_ref().map_or([None; 3], Dims::three);
    let (block, grid) = (sizes(&o.launch.group_size), sizes(&o.launch.num_groups));
    let axis = ["x", "y", "z"];
    if cuda {
        for (d, n) in grid.iter().enumerate() {
            if let Some(n) = *n {
                if n > CUDA_MAX_GRID[d] {
                    return err(format!(
                        "--gridDim: {n} blocks in {} is more than CUDA launches (x at most 2^31-1, y and z at most 65535)",
                        axis[d]
                    ));
                }
            }
        }
    }
    for (flag, dims) in [(block_flag, block), (grid_flag, grid), ("--global_offset", o.launch.global_offset.map(Some))] {
        for (d, n) in dims.iter().enumerate() {
            if let Some(n) = *n {
                if n > u32::MAX as u64 {
                    return err(format!("{flag}: {n} in {} is more than a launch can have (at most 2^32-1 in each dimension)", axis[d]));
                }
            }
        }
    }
    if cuda {
        let known: Vec<u64> = block.iter().flatten().copied().collect();
        let threads: u128 = known.iter().map(|&n| n as u128).product();
        if threads > u32::MAX as u128 {
            return err(format!("--blockDim: a block of {threads} threads is more than a launch can have (CUDA's limit is {CUDA_MAX_BLOCK_THREADS})"));
        }
        let beyond = threads > CUDA_MAX_BLOCK_THREADS as u128 || block.iter().zip(CUDA_MAX_BLOCK).any(|(n, max)| n.is_some_and(|n| n > max));
        if beyond {
            o.flag_notes.push(format!(
                "`--blockDim`: no CUDA device runs this block (at most {CUDA_MAX_BLOCK_THREADS} threads, x and y at most 1024, z at most 64); it is checked as given, as GPUVerify does"
            ));
        }
    } else {
        let total: Option<u64> = block.iter().chain(&grid).flatten().try_fold(1u64, |n, &d| n.checked_mul(d));
        if total.is_none() {
            return err(format!("{block_flag} and {grid_flag}: the total number of work-items does not fit in 64 bits (size_t)"));
        }
    }
    Ok(())
}

/// OpenCL's `--global_size` gives the total number of work-items; the number
/// of groups follows from the group size, which it must be a multiple of.
fn resolve_global_size(launch: &mut LaunchConfig, global: Dims) -> Result<(), UsageError> {
    if launch.num_groups.is_some() {
        return err("--global_size and --num_groups cannot both be given");
    }
    let Some(local) = &launch.group_size else {
        return err("--global_size needs --local_size");
    };
    launch.global_size = Some(global.clone());
    let (Dims::Sizes(l), Dims::Sizes(g)) = (local, &global) else {
        // A symbolic side: the number of groups is symbolic too, in as many
        // dimensions as the sizes given (`--local_size=* --global_size=1024`
        // is a one-dimensional launch).
        let dims = match (local, &global) {
            (Dims::Sizes(v), _) | (_, Dims::Sizes(v)) => Some(v.len()),
            _ => None,
        };
        match dims {
            Some(n) => {
                launch.num_groups = Some(Dims::Sizes(vec![None; n]));
                if *local == Dims::Any {
                    launch.group_size = Some(Dims::Sizes(vec![None; n]));
                }
            }
            None => launch.num_groups = Some(Dims::Any),
        }
        return Ok(());
    };
    if l.len() != g.len() {
        return err(format!("--local_size {local} and --global_size {global} have different numbers of dimensions"));
    }
    let mut groups = Vec::new();
    for (ls, gs) in l.iter().zip(g) {
        groups.push(match (ls, gs) {
            (Some(ls), Some(gs)) => {
                if gs % ls != 0 {
                    return err(format!("--global_size {global} is not a multiple of --local_size {local}"));
                }
                Some(gs / ls)
            }
            _ => None,
        });
    }
    launch.num_groups = Some(Dims::Sizes(groups));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_gpuverify_sizing_flags() {
        let o = parse_check(&args("k.cu --blockDim=[16,16] --gridDim=[4,4] --no-inline")).unwrap();
        assert_eq!(o.launch.group_size, Some(Dims::Sizes(vec![Some(16), Some(16)])));
        assert_eq!(o.launch.num_groups, Some(Dims::Sizes(vec![Some(4), Some(4)])));
        assert!(o.no_inline);
        let o = parse_check(&args("k.cl --local_size=64 --num_groups=*")).unwrap();
        assert_eq!(o.launch.num_groups, Some(Dims::Any));
    }

    #[test]
    fn global_offset_lists_dimensions_from_the_first() {
        let o = parse_check(&args("k.cl --local_size=64 --global_offset=64")).unwrap();
        assert_eq!(o.launch.global_offset, [64, 0, 0]);
        let o = parse_check(&args("k.cl --local_size=[8,8] --global_offset=[0,16]")).unwrap();
        assert_eq!(o.launch.global_offset, [0, 16, 0]);
        let o = parse_check(&args("k.cl --local_size=8")).unwrap();
        assert_eq!(o.launch.global_offset, [0, 0, 0]);
        assert!(parse_check(&args("k.cl --global_offset=*")).is_err());
        assert!(parse_check(&args("k.cl --global_offset=[1,2,3,4]")).is_err());
    }

    #[test]
    fn global_size_gives_the_number_of_groups() {
        let o = parse_check(&args("k.cl --local_size=[8,8] --global_size=[64,32]")).unwrap();
        assert_eq!(o.launch.num_groups, Some(Dims::Sizes(vec![Some(8), Some(4)])));
    }

    #[test]
    fn reports_gpuverify_consistency_errors() {
        assert!(parse_check(&args("k.cl --local_size=8 --global_size=12")).unwrap_err().0.contains("multiple"));
        assert!(parse_check(&args("k.cl --local_size=8 --global_size=16 --num_groups=2")).is_err());
        assert!(parse_check(&args("k.cl --global_size=16")).is_err());
        // GPUVerify accepts sizes of different dimensionality: missing
        // dimensions are 1.
        assert!(parse_check(&args("k.cu --blockDim=[2,2] --gridDim=4")).is_ok());
        assert!(parse_check(&args("k.cu --blockDim=0")).is_err());
        assert!(parse_check(&args("k.cu --blockDim=[1,2,3,4]")).is_err());
        assert!(parse_check(&args("k.cu --blockDim=[4")).is_err());
    }

    #[test]
    fn launch_sizes_beyond_the_limits_are_rejected() {
        // A block of 2^32 threads would wrap to none in 32 bits.
        let e = parse_check(&args("k.cu --blockDim=4294967296 --gridDim=1")).unwrap_err().0;
        assert!(e.contains("--blockDim") && e.contains("2^32-1"), "{e}");
        let e = parse_check(&args("k.cu --blockDim=32 --gridDim=99999999999")).unwrap_err().0;
        assert!(e.contains("--gridDim") && e.contains("2^31-1"), "{e}");
        assert!(parse_check(&args("k.cu --blockDim=32 --gridDim=18446744073709551615")).is_err());
        assert!(parse_check(&args("k.cu --blockDim=32 --gridDim=[1,65536]")).is_err());
        assert!(parse_check(&args("k.cu --blockDim=[65536,65536] --gridDim=1")).is_err());
        assert!(parse_check(&args("k.cu --blockDim=32 --gridDim=[2147483647,65535,65535]")).is_ok());
        // GPUVerify's tests check blocks larger than CUDA runs: a note.
        let o = parse_check(&args("k.cu --blockDim=2048 --gridDim=64")).unwrap();
        assert!(o.flag_notes.iter().any(|n| n.contains("no CUDA device")), "{:?}", o.flag_notes);
        // OpenCL: 64-bit totals, 32-bit dimensions.
        assert!(parse_check(&args("k.cl --local_size=[65536,65536,65536] --num_groups=[65536,65536,65536]")).is_err());
        let e = parse_check(&args("k.cl --local_size=8 --global_size=68719476736")).unwrap_err().0;
        assert!(e.starts_with("--global_size"), "{e}");
        assert!(parse_check(&args("k.cl --local_size=1024 --num_groups=4194304")).is_ok());
    }

    #[test]
    fn rejects_unknown_flags_and_missing_files() {
        assert_eq!(parse_check(&args("k.cu --frobnicate")).unwrap_err().0, "unknown option `--frobnicate` (see `lockstep --help`)");
        assert!(parse_check(&args("--blockDim=4")).unwrap_err().0.contains("no input file"));
        assert!(parse_check(&args("a.cu b.cu")).is_err());
        assert!(parse_check(&args("k.cu --format=xml")).is_err());
    }

    #[test]
    fn accepts_include_and_define_forms() {
        let o = parse_check(&args("k.cu -I inc -Iother -D A=1 -DB --clang-opt=-DC")).unwrap();
        assert_eq!(o.include_dirs, vec![PathBuf::from("inc"), PathBuf::from("other")]);
        assert_eq!(o.defines, vec!["A=1", "B", "C"]);
    }

    #[test]
    fn internal_gpuverify_flags_are_ignored_with_a_note() {
        let o = parse_check(&args("k.cu --boogie-file=x.bpl --vcgen-op=/foo --vcgen-opt=/bar")).unwrap();
        assert_eq!(o.ignored.len(), 2);
        // Axioms are not an internal detail: they are kept, for a note and
        // for the verdict (see `without_confirmation`).
        assert_eq!(o.axioms_file.as_deref(), Some("x.bpl"));
    }

    #[test]
    fn gpuverify_flags_that_change_what_is_checked_are_honoured() {
        let o = parse_check(&args("k.cl --only-log --vcgen-opt=/checkArrays:A,B")).unwrap();
        assert!(o.only_divergence);
        assert_eq!(o.race_arrays, Some(vec!["A".to_string(), "B".to_string()]));
        assert_eq!(o.flag_notes.len(), 2);
        assert!(o.ignored.is_empty());
        let o = parse_check(&args("k.cl --local_size=* --global_size=1024")).unwrap();
        assert_eq!(o.launch.group_size, Some(Dims::Sizes(vec![None])));
        assert_eq!(o.launch.num_groups, Some(Dims::Sizes(vec![None])));
        assert_eq!(o.launch.global_size, Some(Dims::Sizes(vec![Some(1024)])));
    }
}
