//! The result cache of project runs: a file's report is reused when nothing
//! it depends on has changed.
//!
//! An entry is found by a key over what is fixed before the check runs
//! (the file's path, its flags, the lockstep binary and version, the clang
//! and CUDA toolkit it compiles with), and holds the SHA-256 of the file
//! and of every header it includes, as clang lists them (`-M`). It is
//! reused only when each of those files still has that content, as ccache's
//! "direct mode" does: touching a file without changing it re-checks
//! nothing, and changing a header re-checks exactly the files that include
//! it. Entries are written atomically (a temporary file renamed), so that
//! concurrent runs never read half an entry.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// The cache's folder and the contents hashed so far in this run (a header
/// many files include is read once).
pub struct Cache {
    dir: PathBuf,
    hashes: Mutex<HashMap<PathBuf, Option<String>>>,
    /// What identifies the checker: binary, version, clang, toolkit.
    tool: String,
}

/// The recorded hash of a dependency that does not exist.
const ABSENT: &str = "absent";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The identity of a file without reading it: path, size and modification
/// time (for the binary and clang, which change when they are replaced).
fn stamp(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) => {
            let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
            format!("{}:{}:{mtime}", path.display(), m.len())
        }
        Err(_) => format!("{}:missing", path.display()),
    }
}

impl Cache {
    /// A cache in `dir`, for checks run by this binary with the toolkit
    /// `cuda_path` names (or the one lockstep would find).
    pub fn new(dir: PathBuf, cuda_path: Option<&Path>) -> Cache {
        let exe = std::env::current_exe().map(|e| stamp(&e)).unwrap_or_default();
        let clang = lockstep_frontend::driver::find_clang().map(|c| stamp(&c)).unwrap_or_default();
        let toolkit = match lockstep_frontend::toolkit::find_toolkit(cuda_path) {
            Ok(Some(t)) => format!("{}:{}", stamp(&t.root.join("include/cuda.h")), t.version),
            _ => "none".into(),
        };
        let tool = format!("lockstep {} | {exe} | {clang} | {toolkit}", env!("CARGO_PKG_VERSION"));
        Cache { dir, hashes: Mutex::new(HashMap::new()), tool }
    }

    /// The SHA-256 of `path`'s content, or `None` when it cannot be read.
    fn content_hash(&self, path: &Path) -> Option<String> {
        if let Some(h) = self.hashes.lock().ok().and_then(|m| m.get(path).cloned()) {
            return h;
        }
        let h = std::fs::read(path).ok().map(|bytes| hex(&Sha256::digest(&bytes)));
        if let Ok(mut m) = self.hashes.lock() {
            m.insert(path.to_path_buf(), h.clone());
        }
        h
    }

    /// The entry's path for a check of `file` with `args`.
    fn entry_path(&self, file: &Path, args: &[String]) -> PathBuf {
        let mut h = Sha256::new();
        for part in [self.tool.as_str(), &file.display().to_string()].into_iter().chain(args.iter().map(String::as_str)) {
            h.update(part.as_bytes());
            h.update([0]);
        }
        let key = hex(&h.finalize());
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The cached report of a check of `file` with `args`, with its exit
    /// status, when every file it depends on is unchanged.
    pub fn lookup(&self, file: &Path, args: &[String]) -> Option<(Value, i32)> {
        let text = std::fs::read_to_string(self.entry_path(file, args)).ok()?;
        let entry: Value = serde_json::from_str(&text).ok()?;
        for dep in entry.get("deps")?.as_array()? {
            let path = Path::new(dep.get(0)?.as_str()?);
            if self.content_hash(path).as_deref().unwrap_or(ABSENT) != dep.get(1)?.as_str()? {
                return None;
            }
        }
        Some((entry.get("report")?.clone(), entry.get("exit")?.as_i64()? as i32))
    }

    /// Records the report of a check of `file` with `args`, whose
    /// dependencies are `deps` (the file itself among them). Failing to
    /// write is not an error: the next run checks again.
    pub fn store(&self, file: &Path, args: &[String], deps: &[PathBuf], report: &Value, exit: i32) {
        let mut listed = Vec::new();
        for d in deps {
            // A header clang did not find (or one that cannot be read) is
            // recorded as absent: if it appears, the file is checked again.
            let h = self.content_hash(d).unwrap_or_else(|| ABSENT.to_string());
            listed.push(json!([d.display().to_string(), h]));
        }
        let entry = json!({"tool": self.tool, "deps": listed, "report": report, "exit": exit});
        let path = self.entry_path(file, args);
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        // Keep the cache out of version control and out of the walk of the
        // project's sources.
        let ignore = self.dir.join(".gitignore");
        if !ignore.exists() {
            let _ = std::fs::write(&ignore, "*\n");
        }
        let tmp = parent.join(format!(".tmp-{}-{:?}", std::process::id(), std::thread::current().id()));
        if std::fs::write(&tmp, entry.to_string()).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// The files `file` includes, with itself, as clang's preprocessor lists
/// them (`-M -MG`: a header it cannot find is listed, not an error), with
/// the file's include folders and definitions (`include_dirs`, `defines`)
/// and lockstep's own headers. `None` when clang fails: the result is then
/// not cached, since an unlisted header could change it unseen.
pub fn dependencies(file: &Path, include_dirs: &[PathBuf], defines: &[String], language: Option<lockstep_kir::Language>) -> Option<Vec<PathBuf>> {
    let clang = lockstep_frontend::driver::find_clang()?;
    let language = language.or_else(|| lockstep_frontend::language_of(file))?;
    let mut cmd = std::process::Command::new(clang);
    match language {
        lockstep_kir::Language::Cuda => cmd.args(["-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_70"]),
        lockstep_kir::Language::OpenCl => cmd.args(["-x", "cl", "-cl-std=CL1.2", "--target=spir64"]),
    };
    cmd.args(["-M", "-MG", "-w"]);
    if let Some(parent) = file.parent() {
        cmd.arg("-I").arg(parent);
    }
    for d in include_dirs {
        cmd.arg("-I").arg(d);
    }
    if let Ok(prelude) = lockstep_frontend::driver::prelude_dir() {
        cmd.arg("-idirafter").arg(prelude);
    }
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.arg(file);
    let output = lockstep_frontend::driver::run_with_deadline(&mut cmd, std::time::Duration::from_secs(60)).ok()??;
    if !output.status.success() {
        return None;
    }
    let mut deps = parse_make_rule(&String::from_utf8_lossy(&output.stdout));
    for d in &mut deps {
        if d.is_relative() {
            *d = super::inputs::absolute(&std::env::current_dir().ok()?.join(&*d));
        }
    }
    if !deps.iter().any(|d| d == file) {
        deps.insert(0, file.to_path_buf());
    }
    Some(deps)
}

/// The prerequisites of a make rule as `clang -M` prints it.
fn parse_make_rule(text: &str) -> Vec<PathBuf> {
    let joined = text.replace("\\\n", " ");
    let Some((_, prerequisites)) = joined.split_once(": ") else { return Vec::new() };
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = prerequisites.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                word.push(' ');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    out.push(PathBuf::from(std::mem::take(&mut word)));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(PathBuf::from(word));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clangs_dependency_rules() {
        let rule = "a.o: /p/a.cu /p/inc/x\\ y.h \\\n  /p/inc/z.h\n";
        assert_eq!(parse_make_rule(rule), vec![PathBuf::from("/p/a.cu"), PathBuf::from("/p/inc/x y.h"), PathBuf::from("/p/inc/z.h")]);
    }

    #[test]
    fn an_entry_is_reused_until_a_dependency_changes() {
        let dir = std::env::temp_dir().join(format!("lockstep-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (file, header) = (dir.join("k.cu"), dir.join("h.h"));
        std::fs::write(&file, "#include \"h.h\"\n").unwrap();
        std::fs::write(&header, "// v1\n").unwrap();
        let args = vec!["--timeout=5".to_string()];
        let cache = Cache::new(dir.join("cache"), None);
        assert!(cache.lookup(&file, &args).is_none());
        cache.store(&file, &args, &[file.clone(), header.clone()], &json!({"verdict": "verified"}), 0);
        assert_eq!(cache.lookup(&file, &args).unwrap().1, 0);
        // Other flags are another entry.
        assert!(cache.lookup(&file, &["--timeout=6".to_string()]).is_none());
        // A new run (fresh hashes) sees the header's new content.
        std::fs::write(&header, "// v2\n").unwrap();
        assert!(Cache::new(dir.join("cache"), None).lookup(&file, &args).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
