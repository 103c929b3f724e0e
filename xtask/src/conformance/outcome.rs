//! Judging a run: reading lockstep's JSON report and classifying the result
//! against the suite's expectation.
//!
//! The JSON report and the exit status are a contract (DESIGN.md, "Command
//! line and machine output"); anything that breaks it, including an exit
//! status that disagrees with the reported verdict, counts as a crash.

use std::fmt;
use std::path::Path;

use serde_json::Value;

use super::exec::{Exit, RawRun};
use super::suite::{Expected, TestCase};

/// lockstep's top-level verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Verified,
    Errors,
    PossibleErrors,
    Unknown,
    Rejected,
}

impl Verdict {
    pub fn from_name(name: &str) -> Option<Verdict> {
        Some(match name {
            "verified" => Verdict::Verified,
            "errors" => Verdict::Errors,
            "possible-errors" => Verdict::PossibleErrors,
            "unknown" => Verdict::Unknown,
            "rejected" => Verdict::Rejected,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Errors => "errors",
            Verdict::PossibleErrors => "possible-errors",
            Verdict::Unknown => "unknown",
            Verdict::Rejected => "rejected",
        }
    }

    /// The exit status the contract prescribes for this verdict.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Verified => 0,
            Verdict::Errors | Verdict::PossibleErrors => 1,
            Verdict::Rejected => 2,
            Verdict::Unknown => 3,
        }
    }
}

/// The classification of one test. Exactly one applies to every test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Expected pass, got `verified`.
    Proved,
    /// Expected fail, got `errors` or `possible-errors`.
    Found,
    /// Expected a rejection and got `rejected`.
    RejectedOk,
    /// Expected a rejection that was a limitation of GPUVerify's own pipeline
    /// (BUGLE_ERROR, GPUVERIFYVCGEN_ERROR), and lockstep gave a clear,
    /// non-rejecting verdict. Such an expectation says nothing about the
    /// kernel, so any clear verdict agrees with it.
    LimitationOk,
    /// Expected fail, got `verified`: the worst outcome, an unsound answer.
    Missed,
    /// Expected pass, got `errors` or `possible-errors`.
    FalseAlarm,
    /// Got `unknown` (where a definite answer was expected).
    Unknown,
    /// Got `rejected` for an input that should have been accepted.
    Rejected,
    /// Expected a rejection of invalid input (Clang or command-line error)
    /// and got some other verdict.
    NotRejected,
    /// The binary died, exited with a status outside the contract, or printed
    /// something that is not the contracted JSON object.
    Crash,
    /// The wall-clock limit was reached.
    Timeout,
}

impl Outcome {
    /// Every outcome, in the order tables list them (agreeing ones first).
    pub const ALL: [Outcome; 11] = [
        Outcome::Proved,
        Outcome::Found,
        Outcome::RejectedOk,
        Outcome::LimitationOk,
        Outcome::Missed,
        Outcome::FalseAlarm,
        Outcome::Unknown,
        Outcome::Rejected,
        Outcome::NotRejected,
        Outcome::Crash,
        Outcome::Timeout,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Proved => "proved",
            Outcome::Found => "found",
            Outcome::RejectedOk => "rejected-ok",
            Outcome::LimitationOk => "limitation-ok",
            Outcome::Missed => "missed",
            Outcome::FalseAlarm => "false-alarm",
            Outcome::Unknown => "unknown",
            Outcome::Rejected => "rejected",
            Outcome::NotRejected => "not-rejected",
            Outcome::Crash => "crash",
            Outcome::Timeout => "timeout",
        }
    }

    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }

    /// Whether lockstep's answer agrees with the suite's expectation.
    pub fn agrees(self) -> bool {
        matches!(
            self,
            Outcome::Proved | Outcome::Found | Outcome::RejectedOk | Outcome::LimitationOk
        )
    }

    /// Whether this outcome fails a `--check` even when the test is in the
    /// baseline with a different outcome: these are never acceptable as a
    /// silent change.
    pub fn always_fatal(self) -> bool {
        matches!(self, Outcome::Missed | Outcome::Crash | Outcome::Timeout)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Padding flags apply, so tables can align outcome names.
        f.pad(self.name())
    }
}

/// Classifies a verdict against an expectation. Process-level failures
/// (crash, timeout) are decided before a verdict exists and never reach here.
pub fn classify(expected: Expected, verdict: Verdict) -> Outcome {
    match (expected, verdict) {
        (Expected::Rejected(_), Verdict::Rejected) => Outcome::RejectedOk,
        (Expected::Rejected(kind), _) if kind.is_tool_limitation() => Outcome::LimitationOk,
        (_, Verdict::Rejected) => Outcome::Rejected,
        (Expected::Rejected(_), _) => Outcome::NotRejected,
        (_, Verdict::Unknown) => Outcome::Unknown,
        (Expected::Pass, Verdict::Verified) => Outcome::Proved,
        (Expected::Pass, _) => Outcome::FalseAlarm,
        (Expected::Fail, Verdict::Verified) => Outcome::Missed,
        (Expected::Fail, _) => Outcome::Found,
    }
}

/// One violation as read from the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub kind: String,
    pub confirmed: bool,
    /// The violation rendered the way GPUVerify prints diagnostics
    /// (`kernel.cu:8:3: error: message`, then related locations), so that
    /// GPUVerify's expected fragments can be matched against it.
    pub text: String,
}

/// The parts of lockstep's JSON report the runner uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub verdict: Verdict,
    pub violations: Vec<Violation>,
    /// The report's `error` field, when it is a non-empty string.
    pub error: Option<String>,
    /// The first kernel's `reason.message` (why it is `unknown`).
    pub reason: Option<String>,
    /// Front-end time (`timings_ms.clang + timings_ms.lower`), when reported.
    pub frontend_ms: Option<f64>,
}

/// Parses stdout as the contracted single JSON object.
pub fn parse_report(stdout: &str) -> Result<Report, String> {
    let value: Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("stdout is not one JSON object: {e}"))?;
    let object = value
        .as_object()
        .ok_or("stdout is JSON but not an object")?;
    let verdict_name = object
        .get("verdict")
        .and_then(Value::as_str)
        .ok_or("report has no string \"verdict\"")?;
    let verdict = Verdict::from_name(verdict_name)
        .ok_or_else(|| format!("report has unknown verdict {verdict_name:?}"))?;
    let mut violations = Vec::new();
    let kernels = object.get("kernels").and_then(Value::as_array);
    // The first kernel's reason explains an `unknown` verdict.
    let mut reason = None;
    for kernel in kernels.into_iter().flatten() {
        if reason.is_none() {
            reason = kernel
                .get("reason")
                .and_then(|r| r.get("message"))
                .and_then(Value::as_str)
                .map(str::to_string);
        }
        let list = kernel.get("violations").and_then(Value::as_array);
        for violation in list.into_iter().flatten() {
            violations.push(read_violation(violation));
        }
    }
    let error = object
        .get("error")
        .and_then(Value::as_str)
        .filter(|e| !e.trim().is_empty())
        .map(str::to_string);
    let timing = |phase: &str| object.get("timings_ms").and_then(|t| t.get(phase)).and_then(Value::as_f64);
    let frontend_ms = match (timing("clang"), timing("lower")) {
        (Some(c), Some(l)) => Some(c + l),
        _ => None,
    };
    Ok(Report {
        verdict,
        violations,
        error,
        reason,
        frontend_ms,
    })
}

fn read_violation(v: &Value) -> Violation {
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let confirmed = v.get("confirmed").and_then(Value::as_bool).unwrap_or(false);
    let message = v.get("message").and_then(Value::as_str).unwrap_or("");
    let mut text = format!("{}error: {message}\n", location_prefix(v.get("primary")));
    for related in v
        .get("related")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let note = related
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("related location");
        text.push_str(&format!("{}note: {note}\n", location_prefix(Some(related))));
    }
    Violation {
        kind,
        confirmed,
        text,
    }
}

/// `file:line:column: ` for a location object, with the file reduced to its
/// base name as GPUVerify prints it; empty when there is no location.
fn location_prefix(location: Option<&Value>) -> String {
    let Some(location) = location.filter(|l| l.is_object()) else {
        return String::new();
    };
    let file = location.get("file").and_then(Value::as_str).unwrap_or("");
    let base = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut prefix = base;
    for key in ["line", "column"] {
        if let Some(n) = location.get(key).and_then(Value::as_u64) {
            prefix.push_str(&format!(":{n}"));
        }
    }
    if prefix.is_empty() {
        prefix
    } else {
        prefix + ": "
    }
}

/// Whether one expected GPUVerify fragment appears in the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentMatch {
    pub pattern: String,
    pub matched: bool,
}

/// The judged result of one test.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub outcome: Outcome,
    pub verdict: Option<Verdict>,
    /// Why the outcome is what it is, in a line: the crash reason, the
    /// report's error, or the first violation.
    pub detail: String,
    /// The kinds of all reported violations, in report order.
    pub kinds: Vec<String>,
    /// Whether a defect was confirmed by concrete replay (verdict `errors`,
    /// or any violation marked confirmed).
    pub confirmed: bool,
    /// Whether a reported kind is one the suite expects; `None` when the
    /// suite does not say which kind, or nothing was reported.
    pub kind_match: Option<bool>,
    pub fragments: Vec<FragmentMatch>,
    /// The front-end time lockstep reported, in milliseconds.
    pub frontend_ms: Option<f64>,
}

/// Judges one run of `case`.
pub fn judge(case: &TestCase, run: &RawRun) -> Judgement {
    let failure = |outcome: Outcome, detail: String| Judgement {
        outcome,
        verdict: None,
        detail,
        kinds: Vec::new(),
        confirmed: false,
        kind_match: None,
        fragments: match_fragments(&case.fragments, ""),
        frontend_ms: None,
    };
    let code = match &run.exit {
        Exit::Code(code) => *code,
        Exit::TimedOut => return failure(Outcome::Timeout, "wall-clock limit reached".to_string()),
        Exit::Signal(signal) => {
            return failure(
                Outcome::Crash,
                format!("killed by signal {signal}{}", stderr_hint(&run.stderr)),
            )
        }
        Exit::SpawnFailed(e) => return failure(Outcome::Crash, format!("could not run: {e}")),
    };
    let report = match parse_report(&run.stdout) {
        Ok(report) => report,
        Err(e) => {
            return failure(
                Outcome::Crash,
                format!("exit status {code}, {e}{}", stderr_hint(&run.stderr)),
            )
        }
    };
    if report.verdict.exit_code() != code {
        return failure(
            Outcome::Crash,
            format!(
                "exit status {code} contradicts verdict {} (expected {})",
                report.verdict.name(),
                report.verdict.exit_code()
            ),
        );
    }

    let outcome = classify(case.expected, report.verdict);
    let kinds: Vec<String> = report.violations.iter().map(|v| v.kind.clone()).collect();
    let confirmed =
        report.verdict == Verdict::Errors || report.violations.iter().any(|v| v.confirmed);
    let kind_match = if case.expected_kinds.is_empty() || kinds.is_empty() {
        None
    } else {
        Some(kinds.iter().any(|k| case.expected_kinds.contains(k)))
    };
    let mut text: String = report.violations.iter().map(|v| v.text.as_str()).collect();
    if let Some(error) = &report.error {
        text.push_str(error);
        text.push('\n');
    }
    let detail = match (report.violations.first(), &report.error) {
        (Some(v), _) => format!("{}: {}", v.kind, v.text.lines().next().unwrap_or("")),
        (None, Some(error)) => error.lines().next().unwrap_or("").to_string(),
        (None, None) => match &report.reason {
            Some(reason) => format!("{}: {reason}", report.verdict.name()),
            None => format!("verdict {}", report.verdict.name()),
        },
    };
    Judgement {
        outcome,
        verdict: Some(report.verdict),
        detail,
        kinds,
        confirmed,
        kind_match,
        fragments: match_fragments(&case.fragments, &text),
        frontend_ms: report.frontend_ms,
    }
}

/// The last non-empty line of stderr, as a hint for crash reports.
fn stderr_hint(stderr: &str) -> String {
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(line) => format!("; stderr: {}", line.trim()),
        None => String::new(),
    }
}

/// Matches GPUVerify's fragments, which are Python regular expressions, in
/// `text`. A fragment that is not a valid pattern for `regex-lite` is
/// matched as a literal string instead, so a syntax difference cannot turn
/// into a spurious result either way silently: it just degrades to a
/// stricter check.
pub fn match_fragments(fragments: &[String], text: &str) -> Vec<FragmentMatch> {
    fragments
        .iter()
        .map(|pattern| {
            let matched = match regex_lite::Regex::new(pattern) {
                Ok(regex) => regex.is_match(text),
                Err(_) => text.contains(pattern.as_str()),
            };
            FragmentMatch {
                pattern: pattern.clone(),
                matched,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::suite::{RejectKind, Suite};
    use std::path::PathBuf;
    use std::time::Duration;

    #[test]
    fn classification_table() {
        use Outcome::*;
        use Verdict as V;
        let pass = Expected::Pass;
        let fail = Expected::Fail;
        let clang = Expected::Rejected(RejectKind::Clang);
        let bugle = Expected::Rejected(RejectKind::Bugle);
        let invalid = Expected::Rejected(RejectKind::Invalid);
        let cases = [
            (pass, V::Verified, Proved),
            (pass, V::Errors, FalseAlarm),
            (pass, V::PossibleErrors, FalseAlarm),
            (pass, V::Unknown, Unknown),
            (pass, V::Rejected, Rejected),
            (fail, V::Errors, Found),
            (fail, V::PossibleErrors, Found),
            (fail, V::Verified, Missed),
            (fail, V::Unknown, Unknown),
            (fail, V::Rejected, Rejected),
            (clang, V::Rejected, RejectedOk),
            (clang, V::Verified, NotRejected),
            (clang, V::Errors, NotRejected),
            (clang, V::Unknown, NotRejected),
            (bugle, V::Rejected, RejectedOk),
            (bugle, V::Verified, LimitationOk),
            (bugle, V::PossibleErrors, LimitationOk),
            (bugle, V::Unknown, LimitationOk),
            // A program truth.tsv calls invalid must be rejected: any
            // verdict about it, even `unknown`, accepted something invalid.
            (invalid, V::Rejected, RejectedOk),
            (invalid, V::Verified, NotRejected),
            (invalid, V::Errors, NotRejected),
            (invalid, V::Unknown, NotRejected),
        ];
        for (expected, verdict, outcome) in cases {
            assert_eq!(
                classify(expected, verdict),
                outcome,
                "{expected:?} {verdict:?}"
            );
        }
        let agreeing: Vec<_> = Outcome::ALL.into_iter().filter(|o| o.agrees()).collect();
        assert_eq!(agreeing, [Proved, Found, RejectedOk, LimitationOk]);
        for outcome in Outcome::ALL {
            assert_eq!(Outcome::from_name(outcome.name()), Some(outcome));
        }
    }

    fn case(expected: Expected, kinds: &[&str], fragments: &[&str]) -> TestCase {
        TestCase {
            suite: Suite::GpuVerify,
            id: "t".into(),
            dir: PathBuf::from("/t"),
            file: "kernel.cl".into(),
            args: vec![],
            expected,
            expected_kinds: kinds.iter().map(|s| s.to_string()).collect(),
            fragments: fragments.iter().map(|s| s.to_string()).collect(),
            label: None,
        }
    }

    fn run(exit: Exit, stdout: &str) -> RawRun {
        RawRun {
            exit,
            stdout: stdout.to_string(),
            stderr: "panicked at src/main.rs\n".to_string(),
            wall: Duration::from_millis(5),
            max_rss_kib: None,
            max_tree_rss_kib: None,
        }
    }

    const RACE_REPORT: &str = r#"{"file":"kernel.cl","verdict":"errors","kernels":[{"name":"k","verdict":"errors",
        "violations":[{"kind":"data-race","confirmed":true,"message":"possible write-write race on p[1]",
        "primary":{"file":"/abs/kernel.cl","line":7,"column":5},
        "related":[{"file":"/abs/kernel.cl","line":9,"column":5}],"witness":{}}]}],
        "assumptions":[],"elapsed_ms":3,"error":null}"#;

    #[test]
    fn judge_found_with_kind_and_fragments() {
        let c = case(
            Expected::Fail,
            &["data-race"],
            &[
                r"kernel.cl:7:[\d]+:[\s]+error:[\s]+possible write-write race on p\[[\d]+]",
                "read-write race",
            ],
        );
        let j = judge(&c, &run(Exit::Code(1), RACE_REPORT));
        assert_eq!(j.outcome, Outcome::Found);
        assert_eq!(j.verdict, Some(Verdict::Errors));
        assert!(j.confirmed);
        assert_eq!(j.kind_match, Some(true));
        assert_eq!(j.kinds, ["data-race"]);
        assert_eq!(
            j.fragments.iter().map(|f| f.matched).collect::<Vec<_>>(),
            [true, false]
        );
        assert!(j
            .detail
            .starts_with("data-race: kernel.cl:7:5: error: possible"));

        let c = case(Expected::Fail, &["null-pointer"], &[]);
        assert_eq!(
            judge(&c, &run(Exit::Code(1), RACE_REPORT)).kind_match,
            Some(false)
        );
    }

    #[test]
    fn judge_contract_violations_are_crashes() {
        let c = case(Expected::Pass, &[], &[]);
        let verified = r#"{"file":"k","verdict":"verified","kernels":[],"assumptions":[],"elapsed_ms":1,"error":null}"#;
        assert_eq!(
            judge(&c, &run(Exit::Code(0), verified)).outcome,
            Outcome::Proved
        );
        // Exit status must match the verdict.
        let j = judge(&c, &run(Exit::Code(1), verified));
        assert_eq!(j.outcome, Outcome::Crash);
        assert!(j.detail.contains("contradicts"));
        // Not JSON, two objects, unknown verdict, exit code outside the contract.
        for stdout in [
            "thread 'main' panicked",
            "{}{}",
            r#"{"verdict":"fine"}"#,
            "[1]",
        ] {
            assert_eq!(
                judge(&c, &run(Exit::Code(0), stdout)).outcome,
                Outcome::Crash,
                "{stdout}"
            );
        }
        assert_eq!(judge(&c, &run(Exit::Code(101), "")).outcome, Outcome::Crash);
        let j = judge(&c, &run(Exit::Signal(11), ""));
        assert_eq!(j.outcome, Outcome::Crash);
        assert!(j.detail.contains("signal 11") && j.detail.contains("panicked"));
        assert_eq!(
            judge(&c, &run(Exit::TimedOut, "")).outcome,
            Outcome::Timeout
        );
        assert_eq!(
            judge(&c, &run(Exit::SpawnFailed("x".into()), "")).outcome,
            Outcome::Crash
        );
    }

    #[test]
    fn judge_unknown_and_rejected_use_error_as_detail() {
        let c = case(Expected::Pass, &[], &[]);
        let unknown = r#"{"file":"k","verdict":"unknown","kernels":[],"assumptions":[],"elapsed_ms":1,"error":"solver timeout\nmore"}"#;
        let j = judge(&c, &run(Exit::Code(3), unknown));
        assert_eq!(j.outcome, Outcome::Unknown);
        assert_eq!(j.detail, "solver timeout");
        assert!(!j.confirmed);
        assert_eq!(j.kind_match, None);
    }

    #[test]
    fn invalid_fragment_patterns_fall_back_to_literal_text() {
        let m = match_fragments(&["a(b".to_string(), "x+y".to_string()], "see a(b here, xxy");
        assert_eq!(
            m.iter().map(|f| f.matched).collect::<Vec<_>>(),
            [true, true]
        );
    }
}
