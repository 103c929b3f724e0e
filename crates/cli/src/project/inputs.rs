//! The files a project run checks: the `.cu` and `.cl` files named or found
//! below the directories given, honouring `.gitignore`, `.ignore` and the
//! configuration's excluded paths, as ripgrep and ruff do (the `ignore`
//! crate's walker).

use std::path::{Path, PathBuf};

use super::config::Config;

/// Whether `path` names a kernel source by its extension.
pub fn is_kernel_source(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("cu" | "cl"))
}

/// Every kernel source named by `paths` (a file is taken as given, whatever
/// its extension; a directory is walked), without the excluded ones, in a
/// stable order and without repeats. A path that does not exist is an error.
pub fn collect(paths: &[PathBuf], config: &Config) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_file() || (path.exists() && !path.is_dir()) {
            // A file named on the command line is checked even where an
            // ignore file would skip it: the user asked for it.
            out.push(absolute(path));
            continue;
        }
        if !path.is_dir() {
            return Err(format!("{}: no such file or directory", path.display()));
        }
        let mut found = Vec::new();
        let walker = ignore::WalkBuilder::new(path)
            .hidden(true)
            .git_ignore(true)
            .git_global(false)
            .git_exclude(true)
            // A project need not be a git repository for its .gitignore to
            // count (ruff and ripgrep's behaviour outside git as well).
            .require_git(false)
            .build();
        for entry in walker {
            let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
            if entry.file_type().is_some_and(|t| t.is_file()) && is_kernel_source(entry.path()) {
                let p = absolute(entry.path());
                if !config.is_excluded(&p) {
                    found.push(p);
                }
            }
        }
        found.sort();
        out.extend(found);
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    Ok(out)
}

/// `path` made absolute against the working directory, with `.` parts
/// removed (no symbolic link is resolved: the user's names are kept).
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to the working directory (`../x/y.cu` when it lies
/// beside it), as a compiler names files in its messages; absolute when
/// that would climb more than three folders.
pub fn display(path: &Path) -> String {
    let Ok(cwd) = std::env::current_dir() else { return path.display().to_string() };
    if let Ok(rel) = path.strip_prefix(&cwd) {
        return rel.display().to_string();
    }
    let (a, b): (Vec<_>, Vec<_>) = (cwd.components().collect(), path.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let up = a.len() - common;
    if common <= 1 || up > 3 {
        return path.display().to_string();
    }
    let mut rel = PathBuf::new();
    for _ in 0..up {
        rel.push("..");
    }
    for part in &b[common..] {
        rel.push(part);
    }
    rel.display().to_string()
}
