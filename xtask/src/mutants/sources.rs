//! Where the harness takes its kernels from: the conformance suites' `pass`
//! tests, the repository's examples and goldens that expect `verified`
//! (with the flags of their `// flags:` header), and the CUDA samples
//! corpus (each file checked whole, so that its kernels take the sizes
//! their launch sites use). Only kernels lockstep then verifies are
//! mutated; the expectation here only picks candidates.

use std::fs;
use std::path::{Path, PathBuf};

use crate::conformance::suite::{discover, Expected, Suite, TestCase};

/// One candidate kernel file and how to run it.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name the figures and the log use (`gpuverify/...`,
    /// `golden/name.cu`, `samples/...`).
    pub key: String,
    pub case: TestCase,
    /// Whether a mutant needs a copy of the whole folder (headers, inputs)
    /// or only its own file.
    pub whole_dir: bool,
}

/// The suites' `pass` tests.
pub fn suites(shared: &Path, suites: &[Suite], filter: Option<&str>) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    for &suite in suites {
        let dir = shared.join("conformance").join(suite.name());
        let found = discover(suite, &dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        out.extend(
            found
                .cases
                .into_iter()
                .filter(|c| c.expected == Expected::Pass)
                .filter(|c| filter.is_none_or(|f| c.key().contains(f)))
                .map(|c| Source { key: c.key(), case: c, whole_dir: true }),
        );
    }
    Ok(out)
}

/// The header value `// key: value` of a golden or example kernel.
fn header(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix(&format!("// {key}:")).map(|v| v.trim().to_string()))
}

/// The examples and goldens whose header expects `verified`.
pub fn goldens(root: &Path, filter: Option<&str>) -> Vec<Source> {
    let mut out = Vec::new();
    for sub in ["examples", "crates/cli/tests/golden"] {
        let dir = root.join(sub);
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            if !matches!(path.extension().and_then(|x| x.to_str()), Some("cu" | "cl")) {
                continue;
            }
            let Ok(text) = fs::read_to_string(&path) else { continue };
            if header(&text, "expect").as_deref() != Some("verified") {
                continue;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let key = format!("golden/{name}");
            if filter.is_some_and(|f| !key.contains(f)) {
                continue;
            }
            let args = header(&text, "flags").unwrap_or_default().split_whitespace().map(String::from).collect();
            out.push(Source { key, case: case(dir.clone(), name, args), whole_dir: false });
        }
    }
    out
}

/// The CUDA samples corpus's `.cu` files, each checked whole with the
/// corpus's common headers and a lockstep time limit of its own.
pub fn samples(shared: &Path, filter: Option<&str>) -> Vec<Source> {
    let root = shared.join("corpora/cuda-samples");
    let common = root.join("Common");
    let mut files = Vec::new();
    collect_cu(&root.join("Samples"), &mut files, 0);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else { continue };
        let rel = path.strip_prefix(&root).unwrap_or(&path).to_string_lossy().into_owned();
        let key = format!("samples/{rel}");
        if filter.is_some_and(|f| !key.contains(f)) {
            continue;
        }
        let args = vec!["-I".into(), common.to_string_lossy().into_owned(), "--timeout=10".into()];
        out.push(Source { key, case: case(dir.to_path_buf(), name.to_string(), args), whole_dir: true });
    }
    out
}

fn collect_cu(dir: &Path, out: &mut Vec<PathBuf>, depth: u32) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() && depth < 4 {
            collect_cu(&p, out, depth + 1);
        } else if p.extension().and_then(|x| x.to_str()) == Some("cu") {
            out.push(p);
        }
    }
}

/// A test case outside the suites (its `suite` field is not read: the
/// source's key names it).
fn case(dir: PathBuf, file: String, args: Vec<String>) -> TestCase {
    TestCase {
        suite: Suite::GpuVerify,
        id: file.clone(),
        dir,
        file,
        args,
        expected: Expected::Pass,
        expected_kinds: Vec::new(),
        fragments: Vec::new(),
        label: None,
    }
}
