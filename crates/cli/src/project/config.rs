//! `lockstep.toml`: a project's configuration, found by walking up from the
//! inputs as rustfmt and ruff find theirs.
//!
//! ```toml
//! flags = ["--timeout=60"]          # every file's flags
//! include = ["include"]             # -I folders, relative to this file
//! defines = ["BLOCK=256"]
//! exclude = ["third_party", "**/*_generated.cu"]
//! cuda-path = "/usr/local/cuda"
//! baseline = "lockstep-baseline.json"
//! cache-dir = ".lockstep-cache"
//!
//! [[files]]                         # flags for the files a glob matches
//! path = "src/reduce*.cu"
//! flags = ["--blockDim=256", "--gridDim=64"]
//!
//! [[kernels]]                       # flags for one kernel (its own check)
//! file = "src/scan.cu"
//! name = "scan_block"
//! flags = ["--blockDim=512"]
//! ```
//!
//! Paths and globs are relative to the folder holding `lockstep.toml` (the
//! project root). An unknown key is an error, so that a typo does not
//! silently leave a setting out.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

/// The configuration file's name.
pub const FILE_NAME: &str = "lockstep.toml";

/// Flags for the files that one glob matches.
#[derive(Clone, Debug)]
pub struct FileFlags {
    pub glob: GlobSet,
    pub flags: Vec<String>,
}

/// Flags for one kernel of the files a glob matches: the kernel gets a
/// check of its own with them.
#[derive(Clone, Debug)]
pub struct KernelFlags {
    pub glob: GlobSet,
    pub name: String,
    pub flags: Vec<String>,
}

/// A project's configuration; the default is an empty one rooted at the
/// working directory.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The folder holding `lockstep.toml` (paths in it are relative to it).
    pub root: PathBuf,
    /// The file read, if any.
    pub file: Option<PathBuf>,
    /// Flags for every file (include paths and defines included, as `-I`
    /// and `-D` flags).
    pub flags: Vec<String>,
    pub exclude: Option<GlobSet>,
    pub files: Vec<FileFlags>,
    pub kernels: Vec<KernelFlags>,
    pub baseline: Option<PathBuf>,
    pub cache_dir: Option<PathBuf>,
}

/// Finds `lockstep.toml` in `start` or a folder above it.
pub fn find(start: &Path) -> Option<PathBuf> {
    let mut dir = if start.is_dir() { Some(start) } else { start.parent() };
    while let Some(d) = dir {
        let candidate = d.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

/// A glob set of `patterns` relative to `root`; a pattern also matches
/// everything below what it names (`third_party` excludes its files).
fn globs(root: &Path, key: &str, patterns: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        let full = if Path::new(p).is_absolute() || p.starts_with("**") { p.clone() } else { format!("{}/{p}", root.display()) };
        for pattern in [full.clone(), format!("{}/**", full.trim_end_matches('/'))] {
            builder.add(Glob::new(&pattern).map_err(|e| format!("{key}: bad pattern `{p}`: {e}"))?);
        }
    }
    builder.build().map_err(|e| format!("{key}: {e}"))
}

fn strings(value: &toml::Value, key: &str) -> Result<Vec<String>, String> {
    match value {
        toml::Value::String(s) => Ok(vec![s.clone()]),
        toml::Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| format!("`{key}` must be a list of strings")))
            .collect(),
        _ => Err(format!("`{key}` must be a string or a list of strings")),
    }
}

fn path_in(root: &Path, text: &str) -> PathBuf {
    let p = Path::new(text);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        root.join(p)
    }
}

/// Reads the configuration in `file`. Errors name the file and the key.
pub fn load(file: &Path) -> Result<Config, String> {
    let file = super::inputs::absolute(file);
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    parse(&text, &file).map_err(|e| format!("{}: {e}", file.display()))
}

/// Parses the text of a `lockstep.toml` at `file`.
pub fn parse(text: &str, file: &Path) -> Result<Config, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.message().to_string())?;
    let root = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut config = Config { root: root.clone(), file: Some(file.to_path_buf()), ..Config::default() };
    let mut includes = Vec::new();
    let mut defines = Vec::new();
    for (key, value) in &table {
        match key.as_str() {
            "flags" => config.flags.extend(strings(value, key)?),
            "include" => includes = strings(value, key)?,
            "defines" => defines = strings(value, key)?,
            "exclude" => config.exclude = Some(globs(&root, key, &strings(value, key)?)?),
            "cuda-path" => config.flags.push(format!("--cuda-path={}", path_in(&root, value.as_str().ok_or("`cuda-path` must be a string")?).display())),
            "baseline" => config.baseline = Some(path_in(&root, value.as_str().ok_or("`baseline` must be a string")?)),
            "cache-dir" => config.cache_dir = Some(path_in(&root, value.as_str().ok_or("`cache-dir` must be a string")?)),
            "files" | "kernels" => {
                let entries = value.as_array().ok_or_else(|| format!("`{key}` must be an array of tables ([[{key}]])"))?;
                for entry in entries {
                    let t = entry.as_table().ok_or_else(|| format!("`{key}` must be an array of tables ([[{key}]])"))?;
                    let glob_key = if key == "files" { "path" } else { "file" };
                    let mut glob = None;
                    let mut flags = Vec::new();
                    let mut name = None;
                    for (k, v) in t {
                        match k.as_str() {
                            k2 if k2 == glob_key => glob = Some(globs(&root, k2, &strings(v, k2)?)?),
                            "flags" => flags = strings(v, "flags")?,
                            "name" if key == "kernels" => name = Some(v.as_str().ok_or("`name` must be a string")?.to_string()),
                            other => return Err(format!("[[{key}]]: unknown key `{other}`")),
                        }
                    }
                    let glob = glob.ok_or_else(|| format!("[[{key}]]: missing `{glob_key}`"))?;
                    if key == "files" {
                        config.files.push(FileFlags { glob, flags });
                    } else {
                        let name = name.ok_or("[[kernels]]: missing `name`")?;
                        config.kernels.push(KernelFlags { glob, name, flags });
                    }
                }
            }
            other => return Err(format!("unknown key `{other}`")),
        }
    }
    // Include folders come first, as `-I` given before the other flags.
    let mut flags: Vec<String> = includes.iter().map(|i| format!("-I{}", path_in(&root, i).display())).collect();
    flags.extend(defines.iter().map(|d| format!("-D{d}")));
    flags.append(&mut config.flags);
    config.flags = flags;
    // Every list of flags is checked now, as a file's check would read it,
    // so that a typo is one error at the start rather than one per file.
    let lists = std::iter::once(&config.flags).chain(config.files.iter().map(|f| &f.flags)).chain(config.kernels.iter().map(|k| &k.flags));
    for list in lists {
        let mut probe = vec!["probe.cu".to_string()];
        probe.extend(list.iter().cloned());
        crate::options::parse_check(&probe).map_err(|e| format!("a flag: {}", e.0))?;
    }
    Ok(config)
}

impl Config {
    /// Whether the configuration excludes `path` (absolute).
    pub fn is_excluded(&self, path: &Path) -> bool {
        self.exclude.as_ref().is_some_and(|g| g.is_match(path))
    }

    /// The flags for `path`: the project's, then those of every `[[files]]`
    /// entry that matches it, in order.
    pub fn flags_for(&self, path: &Path) -> Vec<String> {
        let mut out = self.flags.clone();
        for f in &self.files {
            if f.glob.is_match(path) {
                out.extend(f.flags.iter().cloned());
            }
        }
        out
    }

    /// The kernels of `path` with flags of their own.
    pub fn kernels_for(&self, path: &Path) -> Vec<&KernelFlags> {
        self.kernels.iter().filter(|k| k.glob.is_match(path)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_flags_globs_and_kernels() {
        let text = r#"
flags = ["--timeout=60"]
include = ["inc"]
defines = ["N=4"]
exclude = ["third_party"]
[[files]]
path = "src/*.cu"
flags = ["--blockDim=64"]
[[kernels]]
file = "src/a.cu"
name = "k"
flags = ["--blockDim=32"]
"#;
        let c = parse(text, Path::new("/p/lockstep.toml")).unwrap();
        assert_eq!(c.flags, vec!["-I/p/inc", "-DN=4", "--timeout=60"]);
        assert!(c.is_excluded(Path::new("/p/third_party/x/y.cu")));
        assert!(!c.is_excluded(Path::new("/p/src/y.cu")));
        assert_eq!(c.flags_for(Path::new("/p/src/a.cu")).last().unwrap(), "--blockDim=64");
        assert_eq!(c.kernels_for(Path::new("/p/src/a.cu")).len(), 1);
        assert!(c.kernels_for(Path::new("/p/src/b.cu")).is_empty());
    }

    #[test]
    fn typos_are_errors() {
        assert!(parse("flag = []", Path::new("/p/lockstep.toml")).unwrap_err().contains("unknown key `flag`"));
        assert!(parse("flags = [\"--frobnicate\"]", Path::new("/p/lockstep.toml")).is_err());
        assert!(parse("[[files]]\nflags = []", Path::new("/p/lockstep.toml")).unwrap_err().contains("missing `path`"));
    }
}
