//! Ctrl-C and SIGTERM during a single-file check: the clang and solver
//! processes the check started are killed and its scratch files removed
//! before it exits, since the children run apart from it (each in a process
//! group of its own) and would otherwise outlive it. The run then ends as a
//! `--timeout` does, with one report in the requested format (`unknown`,
//! saying it was interrupted), but with exit status 130 (128 + SIGINT, as
//! a shell reports a command that Ctrl-C stopped). A project run stops its
//! children with SIGTERM, which lands here.

/// Exit status of a check stopped by a signal (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// Installs `on_signal` as the handler of SIGINT and SIGTERM; a process that
/// already has one keeps it. `on_signal` must stop the children and exit.
pub fn install(on_signal: impl FnMut() + Send + 'static) {
    let _ = ctrlc::set_handler(on_signal);
}
