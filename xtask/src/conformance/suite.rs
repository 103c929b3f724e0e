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
//!   expected verdict and line 4 the kind of failure. Some of these labels
//!   are artefacts of ESBMC-GPU's loop bounds and two-thread model, so the
//!   suite's `truth.tsv` corrects them: where it lists a test, its `truth`
//!   column (`pass`, `fail` or `invalid`) is the expectation and test.desc's
//!   is kept only as the label it overrides.

use std::collections::{BTreeMap, BTreeSet};
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
    /// `invalid` in ESBMC-GPU's `truth.tsv`: the program is not valid
    /// C++/CUDA (or has no source at all), so it must be rejected.
    Invalid,
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
            RejectKind::Invalid => "invalid",
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
    /// The suite's own label when `truth.tsv` overrides it with a different
    /// expectation (ESBMC-GPU only); `None` when the label stands.
    pub label: Option<Expected>,
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

/// What discovery found in one suite.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    /// The runnable tests, sorted by id.
    pub cases: Vec<TestCase>,
    /// Folders that look like tests but whose expectation could not be read.
    pub malformed: Vec<Malformed>,
    /// Remarks worth printing (a `truth.tsv` row naming no test, say).
    pub notes: Vec<String>,
}

/// The name of ESBMC-GPU's corrections file, in the suite's root folder.
pub const TRUTH_FILE: &str = "truth.tsv";

/// Finds and parses every test of `suite` under `root` (the suite's folder).
///
/// Tests come back sorted by id. Folders whose header cannot be parsed are
/// returned separately so that one odd file does not stop the whole run.
pub fn discover(suite: Suite, root: &Path) -> std::io::Result<Discovery> {
    let mut dirs = Vec::new();
    collect_dirs(root, &mut dirs)?;
    let mut found = Discovery::default();
    // Only ESBMC-GPU's labels have corrections. A row that cannot be read
    // makes its test malformed rather than silently falling back to the
    // label the row was written to correct.
    let mut truth = BTreeMap::new();
    let mut bad_truth = BTreeMap::new();
    if suite == Suite::EsbmcGpu {
        let path = root.join(TRUTH_FILE);
        if path.is_file() {
            let text = String::from_utf8_lossy(&fs::read(&path)?).into_owned();
            let parsed = parse_truth(&text);
            truth = parsed.rows;
            bad_truth = parsed.errors;
        }
    }
    let mut used = BTreeSet::new();
    for dir in dirs {
        let id = relative_id(root, &dir);
        let parsed = match suite {
            Suite::GpuVerify => load_gpuverify(&dir, &id),
            Suite::EsbmcGpu => match bad_truth.get(&id) {
                Some(reason) if dir.join("test.desc").is_file() => {
                    Err(format!("{TRUTH_FILE}: {reason}"))
                }
                _ => {
                    let row = truth.get(&id);
                    if row.is_some() {
                        used.insert(id.clone());
                    }
                    load_esbmc(&dir, &id, row)
                }
            },
        };
        match parsed {
            Ok(Some(case)) => found.cases.push(case),
            Ok(None) => {}
            Err(reason) => found.malformed.push(Malformed {
                key: format!("{suite}/{id}"),
                reason,
            }),
        }
    }
    // A row for a test this copy of the suite does not have may belong to a
    // part of the suite held back from it, but it may also be a misspelt id,
    // which would leave the wrong label in force: say so either way.
    for id in truth.keys().filter(|id| !used.contains(*id)) {
        found
            .notes
            .push(format!("{suite}/{TRUTH_FILE} lists {id}, which is not a test here"));
    }
    found.cases.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(found)
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
        label: None,
    }))
}

/// Reads an ESBMC-GPU test if `dir` holds `test.desc`; `Ok(None)` otherwise.
///
/// `truth` is the test's row of `truth.tsv`, when it has one: its verdict
/// replaces test.desc's. test.desc's kind of failure is kept only when the
/// two agree, since a corrected label's kind describes a defect that ESBMC-GPU
/// claimed, not one the program has. A program the truth calls `invalid` is
/// a test even when its source file is missing: lockstep must reject it.
fn load_esbmc(dir: &Path, id: &str, truth: Option<&TruthRow>) -> Result<Option<TestCase>, String> {
    let desc_path = dir.join("test.desc");
    if !desc_path.is_file() {
        return Ok(None);
    }
    let bytes = fs::read(&desc_path).map_err(|e| format!("cannot read test.desc: {e}"))?;
    let desc =
        parse_test_desc(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("test.desc: {e}"))?;
    let (expected, kinds, label) = match truth {
        Some(row) if row.truth == desc.expected => (desc.expected, desc.kind, None),
        Some(row) => (row.truth, None, Some(desc.expected)),
        None => (desc.expected, desc.kind, None),
    };
    let expects_rejection = matches!(expected, Expected::Rejected(_));
    if !expects_rejection && !dir.join(&desc.file).is_file() {
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
        expected,
        expected_kinds: kinds.into_iter().map(str::to_string).collect(),
        fragments: Vec::new(),
        label,
    }))
}

/// One row of ESBMC-GPU's `truth.tsv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TruthRow {
    /// What the program does under CUDA and C++ semantics.
    pub truth: Expected,
    /// Why, with the line that decides it.
    pub reason: String,
}

/// The rows of `truth.tsv` by test id, and the rows that could not be read
/// (by test id too, when the id could be read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Truth {
    pub rows: BTreeMap<String, TruthRow>,
    pub errors: BTreeMap<String, String>,
}

/// Parses `truth.tsv`: tab-separated columns test, suite, label, truth,
/// lockstep's verdict when reviewed, reason; a first row naming the columns
/// is a header. Only the test and truth columns decide anything.
pub fn parse_truth(text: &str) -> Truth {
    let mut truth = Truth::default();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let columns: Vec<&str> = line.split('\t').map(str::trim).collect();
        if index == 0 && columns.first() == Some(&"test") {
            continue;
        }
        let id = columns[0].trim_matches('/').to_string();
        let verdict = columns.get(3).copied().unwrap_or("");
        let expected = match verdict {
            "pass" => Expected::Pass,
            "fail" => Expected::Fail,
            "invalid" => Expected::Rejected(RejectKind::Invalid),
            _ => {
                truth.errors.insert(
                    id,
                    format!("line {}: truth {verdict:?} is not pass, fail or invalid", index + 1),
                );
                continue;
            }
        };
        let row = TruthRow {
            truth: expected,
            reason: columns.get(5).copied().unwrap_or("").to_string(),
        };
        if truth.rows.insert(id.clone(), row).is_some() {
            truth
                .errors
                .insert(id, format!("line {}: the test is listed twice", index + 1));
        }
    }
    // A test listed twice has no single truth.
    for id in truth.errors.keys() {
        truth.rows.remove(id);
    }
    truth
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
        let Discovery {
            cases, malformed, ..
        } = discover(Suite::GpuVerify, &root).unwrap();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["CUDA/a", "CUDA/group/b"]);
        assert_eq!(cases[0].key(), "gpuverify/CUDA/a");
        assert_eq!(malformed.len(), 1);
        assert_eq!(malformed[0].key, "gpuverify/OpenCL/bad");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn truth_rows_parse_with_header_crlf_and_errors() {
        let text = "test\tsuite\tlabel\ttruth\tlockstep_verdict\tjustification\r\n\
            a/one\ttrain\tpass\tfail\terrors\t[label-wrong] line 3\r\n\
            b/two\ttrain\tfail\tinvalid\trejected\tline 1 is ill-formed\n\
            c/three\ttrain\tpass\tmaybe\tunknown\tx\n\
            d/four\ttrain\tpass\tpass\tverified\tfirst\n\
            d/four\ttrain\tpass\tfail\terrors\tsecond\n";
        let t = parse_truth(text);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows["a/one"].truth, Expected::Fail);
        assert_eq!(t.rows["a/one"].reason, "[label-wrong] line 3");
        assert_eq!(
            t.rows["b/two"].truth,
            Expected::Rejected(RejectKind::Invalid)
        );
        assert!(t.errors["c/three"].contains("not pass, fail or invalid"));
        assert!(t.errors["d/four"].contains("twice"));
        assert!(!RejectKind::Invalid.is_tool_limitation());
    }

    #[test]
    fn truth_overrides_test_desc_and_drops_its_kind() {
        let root = std::env::temp_dir().join(format!("xtask-truth-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let desc_fail = "main.cu\n--unwind 2\n^VERIFICATION FAILED$\n#W/W data race$\n";
        let desc_pass = "main.cu\n--unwind 2\n^VERIFICATION SUCCESSFUL$\n";
        for (id, desc, source) in [
            ("s/relabelled", desc_fail, true),
            ("s/confirmed", desc_fail, true),
            ("s/no_source", desc_pass, false),
            ("s/missing_source", desc_pass, false),
            ("s/bad_row", desc_pass, true),
            ("s/unlisted", desc_pass, true),
        ] {
            fs::create_dir_all(root.join(id)).unwrap();
            fs::write(root.join(id).join("test.desc"), desc).unwrap();
            if source {
                fs::write(root.join(id).join("main.cu"), "int main() {}\n").unwrap();
            }
        }
        fs::write(
            root.join(TRUTH_FILE),
            "test\tsuite\tlabel\ttruth\tlockstep_verdict\tjustification\n\
             s/relabelled\ttrain\tfail\tpass\tverified\tno race\n\
             s/confirmed\ttrain\tfail\tfail\terrors\trace\n\
             s/no_source\ttrain\tpass\tinvalid\trejected\tno main.cu\n\
             s/bad_row\ttrain\tpass\tperhaps\tunknown\t?\n\
             s/elsewhere\ttest\tpass\tfail\terrors\theld back\n",
        )
        .unwrap();
        let found = discover(Suite::EsbmcGpu, &root).unwrap();
        let by_id = |id: &str| found.cases.iter().find(|c| c.id == id).unwrap();
        let relabelled = by_id("s/relabelled");
        assert_eq!(relabelled.expected, Expected::Pass);
        assert_eq!(relabelled.label, Some(Expected::Fail));
        assert!(relabelled.expected_kinds.is_empty());
        let confirmed = by_id("s/confirmed");
        assert_eq!(confirmed.expected, Expected::Fail);
        assert_eq!(confirmed.label, None);
        assert_eq!(confirmed.expected_kinds, ["data-race"]);
        let no_source = by_id("s/no_source");
        assert_eq!(no_source.expected, Expected::Rejected(RejectKind::Invalid));
        assert_eq!(no_source.label, Some(Expected::Pass));
        assert_eq!(by_id("s/unlisted").expected, Expected::Pass);
        let malformed: Vec<&str> = found.malformed.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(
            malformed,
            ["esbmc-gpu/s/bad_row", "esbmc-gpu/s/missing_source"]
        );
        assert_eq!(found.notes.len(), 1);
        assert!(found.notes[0].contains("s/elsewhere"));
        fs::remove_dir_all(&root).unwrap();
    }
}
