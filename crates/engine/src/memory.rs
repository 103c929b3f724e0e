//! The memory budget of a check (`--memory-limit`): how much this process
//! and its solvers use now.
//!
//! The engines keep within the budget by construction where they can (each
//! solver runs under an address-space limit, the interpreter stops when a
//! kernel has written its share); the driver also looks at what the process
//! really holds between engines, and the CLI's watchdog at what the run and
//! its solvers hold together, so that a budget that is spent ends the check
//! `unknown` with the reason, never in the operating system's out-of-memory
//! killer.

pub use lockstep_replay::memory::resident_bytes;

/// What this process and the solvers it runs hold now, in bytes.
pub fn run_resident_bytes() -> u64 {
    let solvers: u64 = lockstep_smt::solver::running_solvers().into_iter().filter_map(|pid| resident_bytes(Some(pid))).sum();
    resident_bytes(None).unwrap_or(0).saturating_add(solvers)
}

/// Why an engine must not start: this process already holds more than
/// `limit` bytes.
pub fn spent(limit: u64) -> Option<String> {
    let used = resident_bytes(None)?;
    (used > limit).then(|| format!("the memory limit of {} MiB is spent (lockstep holds {} MiB; --memory-limit)", limit >> 20, used >> 20))
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_process_holds_some_memory() {
        if cfg!(target_os = "linux") {
            let used = super::resident_bytes(None).unwrap();
            assert!(used > 0 && used < 1 << 40, "{used}");
            assert!(super::spent(1 << 50).is_none());
            assert!(super::spent(1).is_some());
        }
    }
}
