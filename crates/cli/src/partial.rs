//! What a check has decided so far, for the report a watchdog prints when
//! the run must end early (`--timeout`, `--memory-limit`, Ctrl-C).
//!
//! Without it, a file whose last kernel runs out of time would report one
//! `unknown` for the whole file and lose the verdicts, errors included, of
//! the kernels already checked. The check records the file's report as it
//! stands before the kernels are checked and each kernel's outcome as it
//! ends; the watchdog reports those, and every kernel still running or
//! waiting as `unknown` with the watchdog's reason.
//!
//! The state is process-wide, like the watchdogs that read it: a
//! single-file check is one process, and the watchdog is a thread that
//! cannot be handed the check's locals.

use std::sync::Mutex;

use lockstep_diag::{Diagnostic, KernelReport, Report};

/// One kernel's contribution to the report: its notes, its timing and its
/// report.
pub type KernelOutcome = (Vec<Diagnostic>, (String, f64), KernelReport);

struct State {
    /// The file's report before its kernels were checked.
    base: Report,
    /// The kernels in the file's order, each with its outcome once known.
    kernels: Vec<(String, Option<KernelOutcome>)>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn state() -> std::sync::MutexGuard<'static, Option<State>> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The check is about to check `names` (in the file's order), with `base`
/// as the file's report so far.
pub fn start(base: &Report, names: Vec<String>) {
    *state() = Some(State { base: base.clone(), kernels: names.into_iter().map(|n| (n, None)).collect() });
}

/// The `index`-th kernel's check has ended.
pub fn finished(index: usize, outcome: &KernelOutcome) {
    if let Some(slot) = state().as_mut().and_then(|s| s.kernels.get_mut(index)) {
        slot.1 = Some(outcome.clone());
    }
}

/// The report so far, with every kernel not yet decided `unknown` for
/// `why`; nothing when the check had not reached its kernels.
pub fn report(why: &str) -> Option<Report> {
    let guard = state();
    let s = guard.as_ref()?;
    let mut report = s.base.clone();
    for (name, outcome) in &s.kernels {
        match outcome {
            Some((notes, timing, kernel)) => {
                report.notes.extend(notes.iter().cloned());
                report.timings.push(timing.clone());
                crate::add_entry(&mut report, kernel.clone());
            }
            None => report.kernels.push(KernelReport::unknown(name, format!("{why}, before this kernel's check ended"), None)),
        }
    }
    Some(report)
}

#[cfg(test)]
mod tests {
    use lockstep_diag::{Diagnostic, KernelReport, Report, Verdict};

    #[test]
    fn a_stopped_check_keeps_the_verdicts_of_the_kernels_it_decided() {
        let mut base = Report::new("f.cu".to_string());
        base.notes.push(Diagnostic::note("before the kernels".to_string()));
        super::start(&base, vec!["first".into(), "second".into(), "third".into()]);
        let mut third = KernelReport::new("third".to_string());
        third.verdict = Verdict::Errors;
        third.assumptions.push("an assumption".into());
        super::finished(2, &(vec![Diagnostic::note("about third".to_string())], ("check third".into(), 1.0), third));
        let report = super::report("timed out after 5 s (--timeout)").expect("the kernels were reached");
        let verdicts: Vec<(&str, Verdict)> = report.kernels.iter().map(|k| (k.name.as_str(), k.verdict)).collect();
        assert_eq!(verdicts, [("first", Verdict::Unknown), ("second", Verdict::Unknown), ("third", Verdict::Errors)]);
        let why = &report.kernels[0].reason.as_ref().expect("a reason").0;
        assert!(why.starts_with("timed out after 5 s (--timeout), before"), "{why}");
        assert_eq!(report.notes.len(), 2);
        assert_eq!(report.assumptions, ["an assumption"]);
        assert_eq!(report.verdict(), Verdict::Errors);
    }
}
