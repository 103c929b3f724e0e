//! The one diagnostic model of lockstep.
//!
//! Engines describe what they found with these types; the CLI renders them
//! (human text, JSON, SARIF). Nothing here knows an output format, and
//! nothing here depends on KIR, so every stage of the pipeline can report.
//!
//! Invariant: a `Verdict::Verified` kernel report carries the list of
//! properties proved and no violations; every `Violation` carries a kind, a
//! message and, when it is confirmed, a witness.

use std::fmt;

/// The outcome for a kernel or a whole file. Ordered from best to worst, so
/// the file's verdict is the maximum over its kernels.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Verdict {
    Verified,
    Unknown,
    PossibleErrors,
    Errors,
    Rejected,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Unknown => "unknown",
            Verdict::PossibleErrors => "possible-errors",
            Verdict::Errors => "errors",
            Verdict::Rejected => "rejected",
        }
    }

    /// The process exit status DESIGN.md assigns to the verdict.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Verified => 0,
            Verdict::Errors | Verdict::PossibleErrors => 1,
            Verdict::Rejected => 2,
            Verdict::Unknown => 3,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position in a source file: 1-based line and column (column 0 when only
/// the line is known, line 0 when the whole file is meant).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Span {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else if self.column > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// The kinds of defect lockstep reports (the JSON `kind` field).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ViolationKind {
    DataRace,
    BarrierDivergence,
    Assertion,
    Precondition,
    Postcondition,
    Invariant,
    OutOfBounds,
    NullPointer,
    DivisionByZero,
    Overflow,
    ConstantWrite,
    ApiMisuse,
}

impl ViolationKind {
    pub fn name(self) -> &'static str {
        match self {
            ViolationKind::DataRace => "data-race",
            ViolationKind::BarrierDivergence => "barrier-divergence",
            ViolationKind::Assertion => "assertion",
            ViolationKind::Precondition => "precondition",
            ViolationKind::Postcondition => "postcondition",
            ViolationKind::Invariant => "invariant",
            ViolationKind::OutOfBounds => "out-of-bounds",
            ViolationKind::NullPointer => "null-pointer",
            ViolationKind::DivisionByZero => "division-by-zero",
            ViolationKind::Overflow => "overflow",
            ViolationKind::ConstantWrite => "constant-write",
            ViolationKind::ApiMisuse => "api-misuse",
        }
    }
}

/// A secondary location of a violation, e.g. the other access of a race.
#[derive(Clone, PartialEq, Debug)]
pub struct Related {
    pub span: Span,
    pub label: String,
}

/// One thread of a witness.
#[derive(Clone, PartialEq, Debug)]
pub struct WitnessThread {
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
}

/// Concrete values that make a violation happen.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Witness {
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    pub threads: Vec<WitnessThread>,
    /// Scalar kernel arguments, by name.
    pub args: Vec<(String, String)>,
    /// Memory cells that matter, as (description, value).
    pub memory: Vec<(String, String)>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Violation {
    pub kind: ViolationKind,
    /// True when a concrete replay reproduced the violation.
    pub confirmed: bool,
    pub message: String,
    pub primary: Option<Span>,
    /// What happens at the primary location, e.g. "write by thread 1".
    pub primary_label: Option<String>,
    pub related: Vec<Related>,
    pub witness: Option<Witness>,
}

/// What was decided about one kernel and why.
#[derive(Clone, PartialEq, Debug)]
pub struct KernelReport {
    pub name: String,
    pub verdict: Verdict,
    pub violations: Vec<Violation>,
    /// For `verified`: the properties proved.
    pub proved: Vec<String>,
    /// For `verified`: what the proof assumed (no aliasing, termination...).
    pub assumptions: Vec<String>,
    /// For `unknown`: why, and where when a construct is to blame.
    pub reason: Option<(String, Option<Span>)>,
    /// The entry checked is not a kernel but a function no kernel calls,
    /// checked on its own for every caller (`--no-inline`).
    pub uncalled_function: bool,
}

impl KernelReport {
    /// A report with nothing decided yet (`unknown`, no reason, no
    /// findings), for an engine to fill in.
    pub fn new(name: impl Into<String>) -> KernelReport {
        KernelReport {
            name: name.into(),
            verdict: Verdict::Unknown,
            violations: Vec::new(),
            proved: Vec::new(),
            assumptions: Vec::new(),
            reason: None,
            uncalled_function: false,
        }
    }

    pub fn unknown(name: impl Into<String>, reason: impl Into<String>, span: Option<Span>) -> KernelReport {
        KernelReport { reason: Some((reason.into(), span)), ..KernelReport::new(name) }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A compiler-style message about the input or the command line.
#[derive(Clone, PartialEq, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Option<Span>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), span }
    }

    pub fn note(message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Note, message: message.into(), span: None }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.span {
            Some(span) => write!(f, "{span}: {}: {}", self.severity.name(), self.message),
            None => write!(f, "{}: {}", self.severity.name(), self.message),
        }
    }
}

/// Everything lockstep has to say about one input file.
#[derive(Clone, PartialEq, Debug)]
pub struct Report {
    pub file: String,
    pub kernels: Vec<KernelReport>,
    /// Assumptions every `verified` kernel rests on.
    pub assumptions: Vec<String>,
    /// Errors that made the input rejected (clang's, the command line's).
    pub errors: Vec<Diagnostic>,
    /// Warnings and notes (ignored flags, clang warnings).
    pub notes: Vec<Diagnostic>,
    pub elapsed_ms: u64,
    /// Time spent per phase (`clang`, `lower`, engine names), in
    /// milliseconds, in the order the phases ran.
    pub timings: Vec<(String, f64)>,
}

impl Report {
    pub fn new(file: impl Into<String>) -> Report {
        Report {
            file: file.into(),
            kernels: Vec::new(),
            assumptions: Vec::new(),
            errors: Vec::new(),
            notes: Vec::new(),
            elapsed_ms: 0,
            timings: Vec::new(),
        }
    }

    /// The worst kernel verdict; `rejected` when the input itself was
    /// rejected; `unknown` when there was no kernel to check, because
    /// nothing was verified.
    pub fn verdict(&self) -> Verdict {
        if !self.errors.is_empty() {
            return Verdict::Rejected;
        }
        self.kernels.iter().map(|k| k.verdict).max().unwrap_or(Verdict::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_verdict_is_the_worst_kernel_verdict() {
        let mut report = Report::new("k.cu");
        let mut ok = KernelReport::unknown("a", "x", None);
        ok.verdict = Verdict::Verified;
        report.kernels.push(ok);
        assert_eq!(report.verdict(), Verdict::Verified);
        report.kernels.push(KernelReport::unknown("b", "unsupported", None));
        assert_eq!(report.verdict(), Verdict::Unknown);
        report.errors.push(Diagnostic::error("bad", None));
        assert_eq!(report.verdict(), Verdict::Rejected);
    }

    #[test]
    fn a_file_without_kernels_is_not_verified() {
        assert_eq!(Report::new("empty.cu").verdict(), Verdict::Unknown);
    }

    #[test]
    fn exit_codes_follow_the_design() {
        assert_eq!(Verdict::Verified.exit_code(), 0);
        assert_eq!(Verdict::Errors.exit_code(), 1);
        assert_eq!(Verdict::PossibleErrors.exit_code(), 1);
        assert_eq!(Verdict::Rejected.exit_code(), 2);
        assert_eq!(Verdict::Unknown.exit_code(), 3);
    }
}
