//! Test discovery and expectation parsing for the two peer suites.
//!
//! The suites live outside the repository (`../shared/conformance/`) and are
//! read as data: every expectation comes from the test's own header or
//! `test.desc`, never from its name.
//!
//! * `gpuverify/`: every folder holding `kernel.cu` or `kernel.cl` is a test.
//!   Line 1 of the kernel is the expected outcome, line 2 the command-line
//!   flags, and lines 3 and on, while they are `//` comments, are regular
//!   expressions expected in the error output.
//! * `esbmc-gpu/`: every folder holding `test.desc` is a test. Line 1 names the
//!   program, line 2 holds ESBMC-GPU's own flags (ignored), line 3 the
//!   expected verdict and line 4 the kind of failure.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// One of the peer suites under `$SHARED/conformance/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suite {
    GpuVerify,
    EsbmcGpu,
}

impl Suite {
    /// Every suite, in the order tables list them.
    pub const ALL: [Suite; 2] = [Suite::GpuVerify, Suite::EsbmcGpu];

    /// The suite's folder name, which is also its name on the command line and
    /// the first component of a baseline key.
    pub fn name(self) -> &'static str {
        match self {
            Suite::GpuVerify => "gpuverify",
            Suite::EsbmcGpu => "esbmc-gpu",
        }
    }

    pub fn from_name(name: &str) -> Option<Suite> {
        Suite::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the peer tool expected its input to be rejected.
///
/// The distinction matters because only some of these say something about
/// the kernel itself: a Clang or command-line error means the input is
/// invalid, whereas a Bugle or VC-generation error was a limitation of
/// GPUVerify's own pipeline and says nothing about whether the kernel is
/// correct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectKind {
    /// `//xfail:CLANG_ERROR`: the source does not compile.
    Clang,
    /// `//xfail:COMMAND_LINE_ERROR`: the flags are invalid.
    CommandLine,
    /// `//xfail:BUGLE_ERROR`: GPUVerify's LLVM-to-Boogie translator gave up.
    Bugle,
    /// `//xfail:GPUVERIFYVCGEN_ERROR`: GPUVerify's VC generator gave up.
    VcGen,
}

impl RejectKind {
    /// Whether the expectation records a limitation of the peer tool rather
    /// than a defect of the input, so that any clear verdict agrees with it.
    pub fn is_tool_limitation(self) -> bool {
        matches!(self, RejectKind::Bugle | RejectKind::VcGen)
    }

    /// The marker as written after `//xfail:`.
    pub fn marker(self) -> &'static str {
        match self {
            RejectKind::Clang => "CLANG_ERROR",
            RejectKind::CommandLine => "COMMAND_LINE_ERROR",
            RejectKind::Bugle => "BUGLE_ERROR",
            RejectKind::VcGen => "GPUVERIFYVCGEN_ERROR",
        }
    }
}

/// What the suite's authors expect a verifier to say about a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The kernel is correct and must be proved so.
    Pass,
    /// The kernel has a defect that must be reported.
    Fail,
    /// The input must be rejected with a clear error (see [`RejectKind`]).
    Rejected(RejectKind),
}

impl Expected {
    /// A short name for tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Expected::Pass => "pass",
            Expected::Fail => "fail",
            Expected::Rejected(_) => "rejected",
        }
    }
}

/// One discovered test with everything needed to run and judge it.
#[derive(Clone, Debug)]
pub struct TestCase {
    pub suite: Suite,
    /// The folder relative to the suite root, with `/` separators.
    pub id: String,
    /// The test's folder (absolute when the suite root is).
    pub dir: PathBuf,
    /// The file to check, relative to `dir`.
    pub file: String,
    /// The suite's flags to pass after the file, already substituted. The
    /// runner adds `-I <dir>` and `--format=json` itself.
    pub args: Vec<String>,
    pub expected: Expected,
    /// Violation kinds (lockstep's names) that count as the expected defect;
    /// empty when the suite does not say.
    pub expected_kinds: Vec<String>,
    /// Regular expressions expected in the error output (GPUVerify only).
    pub fragments: Vec<String>,
}

impl TestCase {
    /// The key that names this test in the baseline: `suite/id`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.suite, self.id)
    }
}

/// A folder that looks like a test but whose expectation could not be read.
#[derive(Clone, Debug)]
pub struct Malformed {
    pub key: String,
    pub reason: String,
}

/// Finds and parses every test of `suite` under `root` (the suite's folder).
///
/// Tests come back sorted by id. Folders whose header cannot be parsed are
/// returned separately so that one odd file does not stop the whole run.
pub fn discover(suite: Suite, root: &Path) -> std::io::Result<(Vec<TestCase>, Vec<Malformed>)> {
    let mut dirs = Vec::new();
    collect_dirs(root, &mut dirs)?;
    let mut cases = Vec::new();
    let mut malformed = Vec::new();
    for dir in dirs {
        let id = relative_id(root, &dir);
        let parsed = match suite {
            Suite::GpuVerify => load_gpuverify(&dir, &id),
            Suite::EsbmcGpu => load_esbmc(&dir, &id),
        };
        match parsed {
            Ok(Some(case)) => cases.push(case),
            Ok(None) => {}
            Err(reason) => malformed.push(Malformed {
                key: format!("{suite}/{id}"),
                reason,
            }),
        }
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    Ok((cases, malformed))
}

/// Collects `dir` and every folder below it. Symbolic links are not followed,
/// so a link cycle cannot make discovery loop.
fn collect_dirs(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    out.push(dir.to_path_buf());
    let mut children = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            children.push(entry.path());
        }
    }
    children.sort();
    for child in children {
        collect_dirs(&child, out)?;
    }
    Ok(())
}

fn relative_id(root: &Path, dir: &Path) -> String {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// Reads a GPUVerify test if `dir` holds a kernel; `Ok(None)` otherwise.
fn load_gpuverify(dir: &Path, id: &str) -> Result<Option<TestCase>, String> {
    // No folder holds both today; if one ever does, CUDA wins, as it is the
    // first name GPUVerify's own runner looks for.
    let file = ["kernel.cu", "kernel.cl"]
        .into_iter()
        .find(|name| dir.join(name).is_file());
    let Some(file) = file else { return Ok(None) };
    let bytes = fs::read(dir.join(file)).map_err(|e| format!("cannot read {file}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let header = parse_gpuverify_header(&text, &dir.to_string_lossy())
        .map_err(|e| format!("{file}: {e}"))?;
    Ok(Some(TestCase {
        suite: Suite::GpuVerify,
        id: id.to_string(),
        dir: dir.to_path_buf(),
        file: file.to_string(),
        args: header.args,
        expected: header.expected,
        expected_kinds: header.expected_kinds,
        fragments: header.fragments,
    }))
}

/// Reads an ESBMC-GPU test if `dir` holds `test.desc`; `Ok(None)` otherwise.
fn load_esbmc(dir: &Path, id: &str) -> Result<Option<TestCase>, String> {
    let desc_path = dir.join("test.desc");
    if !desc_path.is_file() {
        return Ok(None);
    }
    let bytes = fs::read(&desc_path).map_err(|e| format!("cannot read test.desc: {e}"))?;
    let desc =
        parse_test_desc(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("test.desc: {e}"))?;
    if !dir.join(&desc.file).is_file() {
        return Err(format!(
            "test.desc names {}, which does not exist",
            desc.file
        ));
    }
    Ok(Some(TestCase {
        suite: Suite::EsbmcGpu,
        id: id.to_string(),
        dir: dir.to_path_buf(),
        file: desc.file,
        // ESBMC-GPU's flags steer ESBMC (unwinding, malloc model) and mean
        // nothing to lockstep. The runner adds `-I <test folder>` to every
        // test, which is all these programs need for their headers.
        args: Vec::new(),
        expected: desc.expected,
        expected_kinds: desc.kind.into_iter().map(str::to_string).collect(),
        fragments: Vec::new(),
    }))
}

/// The parsed header of a GPUVerify kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuVerifyHeader {
    pub expected: Expected,
    pub args: Vec<String>,
    pub fragments: Vec<String>,
    pub expected_kinds: Vec<String>,
}

/// Parses lines 1, 2 and the `//` lines after them, substituting
/// `${KERNEL_DIR}` in the flags with `kernel_dir`.
pub fn parse_gpuverify_header(text: &str, kernel_dir: &str) -> Result<GpuVerifyHeader, String> {
    // Lines may end with `\r` (some kernels were committed with CRLF).
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let first = lines.next().ok_or("empty file")?;
    let marker = first
        .trim()
        .strip_prefix("//")
        .ok_or_else(|| format!("line 1 is not an expectation comment: {first:?}"))?
        .trim();
    let expected = match marker.to_ascii_lowercase().as_str() {
        "pass" => Expected::Pass,
        "xfail:not_all_verified" => Expected::Fail,
        "xfail:clang_error" => Expected::Rejected(RejectKind::Clang),
        "xfail:command_line_error" => Expected::Rejected(RejectKind::CommandLine),
        "xfail:bugle_error" => Expected::Rejected(RejectKind::Bugle),
        "xfail:gpuverifyvcgen_error" => Expected::Rejected(RejectKind::VcGen),
        _ => return Err(format!("unknown expectation on line 1: {first:?}")),
    };

    let mut args = Vec::new();
    let mut fragments = Vec::new();
    if let Some(flags) = lines.next().and_then(|l| l.trim().strip_prefix("//")) {
        args = flags
            .split_whitespace()
            .map(|a| a.replace("${KERNEL_DIR}", kernel_dir))
            .collect();
        for line in lines {
            let Some(fragment) = line.trim_start().strip_prefix("//") else {
                break;
            };
            // An empty `//` line carries no expectation (it would match
            // anything), so it is skipped rather than counted as matched.
            if !fragment.trim().is_empty() {
                fragments.push(fragment.to_string());
            }
        }
    }
    let expected_kinds = if expected == Expected::Fail {
        kinds_from_fragments(&fragments)
    } else {
        Vec::new()
    };
    Ok(GpuVerifyHeader {
        expected,
        args,
        fragments,
        expected_kinds,
    })
}

/// Infers the expected violation kinds from GPUVerify's message fragments.
///
/// GPUVerify does not state the kind of defect separately, but its messages
/// are fixed phrases, so the phrase identifies the kind. This is used only to
/// report whether lockstep found the same kind of defect; it never decides an
/// outcome.
pub fn kinds_from_fragments(fragments: &[String]) -> Vec<String> {
    const PHRASES: &[(&str, &str)] = &[
        ("race", "data-race"),
        ("barrier divergence", "barrier-divergence"),
        ("null pointer", "null-pointer"),
        ("out-of-bounds", "out-of-bounds"),
        ("constant memory", "constant-write"),
        ("assertion might not hold", "assertion"),
        ("invariant", "invariant"),
        ("precondition", "precondition"),
        ("postcondition", "postcondition"),
    ];
    let mut kinds: Vec<String> = Vec::new();
    for fragment in fragments {
        let lower = fragment.to_ascii_lowercase();
        for (phrase, kind) in PHRASES {
            if lower.contains(phrase) && !kinds.iter().any(|k| k == kind) {
                kinds.push(kind.to_string());
            }
        }
    }
    kinds
}

/// The parsed content of an ESBMC-GPU `test.desc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestDesc {
    pub file: String,
    pub expected: Expected,
    /// The expected violation kind in lockstep's vocabulary, when line 4 names
    /// one that lockstep distinguishes.
    pub kind: Option<&'static str>,
}

/// Parses a `test.desc`.
pub fn parse_test_desc(text: &str) -> Result<TestDesc, String> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r').trim())
        .collect();
    let file = match lines.first() {
        Some(f) if !f.is_empty() => f.to_string(),
        _ => "main.cu".to_string(),
    };
    let verdict = lines.get(2).copied().unwrap_or("");
    let expected = match verdict {
        // ESBMC-GPU's suite spells it wrongly once; the intent is clear.
        "^VERIFICATION SUCCESSFUL$" | "^VERIFICATION SUCESSFUL$" => Expected::Pass,
        "^VERIFICATION FAILED$" => Expected::Fail,
        _ => return Err(format!("unknown verdict on line 3: {verdict:?}")),
    };
    let kind = match lines.get(3).copied().unwrap_or("") {
        "#W/W data race$" | "#R/W data race$" => Some("data-race"),
        "#assertion$" => Some("assertion"),
        "#NULL pointer$" => Some("null-pointer"),
        "#array bounds violated$" | "#Access to object out of bounds$" => Some("out-of-bounds"),
        "#constant memory$" => Some("constant-write"),
        _ => None,
    };
    Ok(TestDesc {
        file,
        expected,
        kind: if expected == Expected::Fail {
            kind
        } else {
            None
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpuverify_pass_header_with_crlf_and_kernel_dir() {
        let text = "//PASS\r\n//--blockDim=64 --gridDim=64 --boogie-file=${KERNEL_DIR}/axioms.bpl --no-inline\r\n\r\n__global__ void k() {}\r\n";
        let h = parse_gpuverify_header(text, "/suite/t").unwrap();
        assert_eq!(h.expected, Expected::Pass);
        assert_eq!(
            h.args,
            [
                "--blockDim=64",
                "--gridDim=64",
                "--boogie-file=/suite/t/axioms.bpl",
                "--no-inline"
            ]
        );
        assert!(h.fragments.is_empty());
        assert!(h.expected_kinds.is_empty());
    }

    #[test]
    fn gpuverify_fail_header_collects_fragments_until_code() {
        let text = "//xfail:NOT_ALL_VERIFIED\n//--local_size=64 --num_groups=64\n//kernel.cl:[\\s]+error:[\\s]+possible write-write race on p\\[[\\d]+]\n//\n//error: possible null pointer access\n\n//not a fragment\n";
        let h = parse_gpuverify_header(text, "/d").unwrap();
        assert_eq!(h.expected, Expected::Fail);
        assert_eq!(h.args, ["--local_size=64", "--num_groups=64"]);
        assert_eq!(
            h.fragments,
            [
                "kernel.cl:[\\s]+error:[\\s]+possible write-write race on p\\[[\\d]+]",
                "error: possible null pointer access"
            ]
        );
        assert_eq!(h.expected_kinds, ["data-race", "null-pointer"]);
    }

    #[test]
    fn gpuverify_reject_markers() {
        for (marker, kind) in [
            ("CLANG_ERROR", RejectKind::Clang),
            ("COMMAND_LINE_ERROR", RejectKind::CommandLine),
            ("BUGLE_ERROR", RejectKind::Bugle),
            ("GPUVERIFYVCGEN_ERROR", RejectKind::VcGen),
        ] {
            let text = format!("//xfail:{marker}\n//--blockDim=32 --gridDim=1\n");
            let h = parse_gpuverify_header(&text, "/d").unwrap();
            assert_eq!(h.expected, Expected::Rejected(kind));
            assert_eq!(kind.marker(), marker);
        }
        assert!(!RejectKind::Clang.is_tool_limitation());
        assert!(!RejectKind::CommandLine.is_tool_limitation());
        assert!(RejectKind::Bugle.is_tool_limitation());
        assert!(RejectKind::VcGen.is_tool_limitation());
    }

    #[test]
    fn gpuverify_header_without_flags_line() {
        let h =
            parse_gpuverify_header("//pass\n__kernel void k() {}\n//late comment\n", "/d").unwrap();
        assert_eq!(h.expected, Expected::Pass);
        assert!(h.args.is_empty());
        assert!(h.fragments.is_empty());
    }

    #[test]
    fn gpuverify_bad_headers_are_errors() {
        assert!(parse_gpuverify_header("", "/d").is_err());
        assert!(parse_gpuverify_header("#include <x.h>\n", "/d").is_err());
        assert!(parse_gpuverify_header("//xfail:SOMETHING_ELSE\n//\n", "/d").is_err());
    }

    #[test]
    fn test_desc_pass_fail_and_kinds() {
        let d = parse_test_desc(
            "main.cu\n--unwind 10\n^VERIFICATION SUCCESSFUL$\n#VERIFICATION SUCCESSFUL$\n",
        )
        .unwrap();
        assert_eq!(
            d,
            TestDesc {
                file: "main.cu".into(),
                expected: Expected::Pass,
                kind: None
            }
        );

        let d = parse_test_desc(
            "main.cu\r\n--unwind 10 -I ~/libraries/ \r\n^VERIFICATION SUCESSFUL$\r\n",
        )
        .unwrap();
        assert_eq!(d.expected, Expected::Pass);

        for (line4, kind) in [
            ("#W/W data race$", Some("data-race")),
            ("#R/W data race$", Some("data-race")),
            ("#assertion$", Some("assertion")),
            ("#NULL pointer$", Some("null-pointer")),
            ("#array bounds violated$", Some("out-of-bounds")),
            ("#Access to object out of bounds$", Some("out-of-bounds")),
            ("#constant memory$", Some("constant-write")),
            ("#VERIFICATION FAILED$", None),
        ] {
            let d = parse_test_desc(&format!("other.cu\n--x\n^VERIFICATION FAILED$\n{line4}\n"))
                .unwrap();
            assert_eq!(d.file, "other.cu");
            assert_eq!(d.expected, Expected::Fail);
            assert_eq!(d.kind, kind, "{line4}");
        }
        // A failure without line 4 has no known kind.
        let d = parse_test_desc("main.cu\n\n^VERIFICATION FAILED$").unwrap();
        assert_eq!(d.kind, None);
    }

    #[test]
    fn test_desc_unknown_verdict_is_an_error() {
        assert!(parse_test_desc("main.cu\n--x\n^VERIFICATION MAYBE$\n").is_err());
        assert!(parse_test_desc("main.cu\n").is_err());
    }

    #[test]
    fn discovery_finds_nested_tests_and_reports_malformed_ones() {
        let root = std::env::temp_dir().join(format!("xtask-discover-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("CUDA/a")).unwrap();
        fs::create_dir_all(root.join("CUDA/group/b")).unwrap();
        fs::create_dir_all(root.join("OpenCL/bad")).unwrap();
        fs::create_dir_all(root.join("empty")).unwrap();
        fs::write(
            root.join("CUDA/a/kernel.cu"),
            "//pass\n//--blockDim=2 --gridDim=1\n",
        )
        .unwrap();
        fs::write(
            root.join("CUDA/group/b/kernel.cu"),
            "//xfail:NOT_ALL_VERIFIED\n//--blockDim=2\n",
        )
        .unwrap();
        fs::write(root.join("OpenCL/bad/kernel.cl"), "int x;\n").unwrap();
        let (cases, malformed) = discover(Suite::GpuVerify, &root).unwrap();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["CUDA/a", "CUDA/group/b"]);
        assert_eq!(cases[0].key(), "gpuverify/CUDA/a");
        assert_eq!(malformed.len(), 1);
        assert_eq!(malformed[0].key, "gpuverify/OpenCL/bad");
        fs::remove_dir_all(&root).unwrap();
    }
}
