//! What a project run shows while it works, on standard error (standard
//! output stays the report): a progress bar on a terminal (files done, the
//! file being checked, elapsed time, verdict counts so far), or one plain
//! line per file when standard error is not a terminal or `CI=true`.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lockstep_diag::Verdict;

use super::args::Progress;
use super::inputs::display;
use super::parallel::{Observer, Outcome};
use super::report::verdict_of;

/// Verdict counts so far, in the summary's order.
#[derive(Default, Clone, Copy)]
struct Counts {
    verified: usize,
    errors: usize,
    possible: usize,
    unknown: usize,
    rejected: usize,
}

impl Counts {
    fn add(&mut self, v: Verdict) {
        match v {
            Verdict::Verified => self.verified += 1,
            Verdict::Errors => self.errors += 1,
            Verdict::PossibleErrors => self.possible += 1,
            Verdict::Unknown => self.unknown += 1,
            Verdict::Rejected => self.rejected += 1,
        }
    }

    fn text(&self) -> String {
        format!(
            "{} verified, {} errors, {} possible, {} unknown, {} rejected",
            self.verified, self.errors, self.possible, self.unknown, self.rejected
        )
    }
}

/// The observer that shows a run's progress.
pub struct Display {
    bar: Option<ProgressBar>,
    lines: bool,
    total: usize,
    state: Mutex<(usize, Counts)>,
}

impl Display {
    /// A display for `total` files, in the form `mode` and the environment
    /// ask for.
    pub fn new(total: usize, mode: Progress) -> Display {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        let terminal = std::io::stderr().is_terminal();
        let (bar, lines) = match mode {
            Progress::Off => (None, false),
            Progress::Lines => (None, true),
            Progress::Auto if terminal && !ci => {
                let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
                bar.set_style(style);
                bar.enable_steady_tick(Duration::from_millis(200));
                (Some(bar), false)
            }
            Progress::Auto => (None, true),
        };
        Display { bar, lines, total, state: Mutex::new((0, Counts::default())) }
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Observer for Display {
    fn started(&self, file: &Path) {
        if let Some(bar) = &self.bar {
            let counts = self.state.lock().map(|s| s.1).unwrap_or_default();
            bar.set_message(format!("{} | {}", counts.text(), display(file)));
        }
    }

    fn finished(&self, outcome: &Outcome) {
        let verdict = verdict_of(&outcome.report);
        let (done, counts) = match self.state.lock() {
            Ok(mut s) => {
                s.0 += 1;
                s.1.add(verdict);
                (s.0, s.1)
            }
            Err(_) => return,
        };
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(format!("{} | {}", counts.text(), display(&outcome.file)));
        } else if self.lines {
            let how = if outcome.cached { "cached".to_string() } else { format!("{:.1} s", outcome.wall_ms as f64 / 1000.0) };
            let width = self.total.to_string().len();
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "[{done:>width$}/{}] {:<15} {:>8}  {}", self.total, verdict.name(), how, display(&outcome.file));
        }
    }
}
