//! Ctrl-C and SIGTERM during a single-file check: the clang and solver
//! processes the check started are killed before it exits, since they run
//! apart from it (clang in a process group of its own) and would otherwise
//! outlive it. A project run stops its children with SIGTERM, which lands
//! here.

/// Exit status of a check stopped by a signal (128 + SIGINT).
const INTERRUPTED: i32 = 130;

/// Installs the handler; a process that already has one keeps it.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        lockstep_frontend::driver::kill_running_compilers();
        lockstep_smt::solver::kill_running_solvers();
        std::process::exit(INTERRUPTED);
    });
}
