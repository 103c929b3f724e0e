//! CPU time: budgets that a busy machine does not shrink.
//!
//! An engine's budget in wall-clock time gives different verdicts on an
//! idle machine and on one running another job: the same queries take
//! twice as long when another process shares the core. The CPU time the
//! engine's own thread and its solver processes use does not grow with the
//! load, so the engines bound their work by it (z3's `rlimit` counts are
//! the first bound; CPU time is the safety net where work is not counted).
//!
//! * [`CpuMeter`]: shared by the solvers of one engine run (through
//!   [`SolverConfig::cpu_meter`](crate::SolverConfig::cpu_meter)); it adds
//!   up the CPU time of every process started with it, running or ended.
//! * [`CpuStopwatch`]: the calling thread's CPU time since it started plus
//!   its meter's, the clock an engine compares with its budget.
//!
//! Process CPU times are read from `/proc/PID/stat` (Linux). Where that
//! cannot be read, a process counts as no time and the callers' wall-clock
//! backstops bound the run.

use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The CPU time of the solver processes started with it, shared by clones.
#[derive(Clone, Debug, Default)]
pub struct CpuMeter(Arc<Mutex<MeterState>>);

#[derive(Debug, Default)]
struct MeterState {
    /// The CPU time of the processes that ended.
    ended: Duration,
    /// The processes running now.
    live: Vec<u32>,
}

impl CpuMeter {
    /// A meter that has counted nothing yet.
    pub fn new() -> CpuMeter {
        CpuMeter::default()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, MeterState> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts the process `pid` from now on.
    pub(crate) fn started(&self, pid: u32) {
        self.state().live.push(pid);
    }

    /// Moves the process `pid` to the ended ones, with the CPU time it used.
    /// Called while the process can still be read (before it is reaped).
    pub(crate) fn ending(&self, pid: u32) {
        let used = process_cpu_time(pid).unwrap_or_default();
        let mut state = self.state();
        if let Some(i) = state.live.iter().position(|&p| p == pid) {
            state.live.swap_remove(i);
            state.ended += used;
        }
    }

    /// The CPU time (user and system) of every process started with this
    /// meter, running or ended.
    pub fn solvers_time(&self) -> Duration {
        let state = self.state();
        state.ended + state.live.iter().filter_map(|&pid| process_cpu_time(pid)).sum::<Duration>()
    }
}

/// The calling thread's CPU time since [`CpuStopwatch::start`] plus the
/// CPU time of the solver processes counted by its meter.
#[derive(Debug)]
pub struct CpuStopwatch {
    thread_start: Option<Duration>,
    solvers_start: Duration,
    meter: CpuMeter,
}

impl CpuStopwatch {
    /// Starts counting from the meter's current total and the calling
    /// thread's CPU time now. [`CpuStopwatch::elapsed`] must be asked from
    /// the same thread.
    pub fn start(meter: CpuMeter) -> CpuStopwatch {
        CpuStopwatch { thread_start: thread_cpu_time(), solvers_start: meter.solvers_time(), meter }
    }

    /// The meter the stopwatch reads, to give the solvers it should count.
    pub fn meter(&self) -> &CpuMeter {
        &self.meter
    }

    /// The CPU time used since the start by this thread and the meter's
    /// solvers.
    pub fn elapsed(&self) -> Duration {
        let own = match (self.thread_start, thread_cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => Duration::ZERO,
        };
        own + self.meter.solvers_time().saturating_sub(self.solvers_start)
    }
}

/// The CPU time (user and system, with its waited-for children) the
/// process `pid` has used, from `/proc/PID/stat`; `None` where that cannot
/// be read.
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    cpu_time_of_stat(&text, clock_ticks_per_second()?)
}

/// The user and system time of a `/proc/PID/stat` line, its own and its
/// waited-for children's (fields 14 to 17, in clock ticks). The command
/// name (field 2) is in parentheses and may hold spaces, so the fields are
/// counted after its closing parenthesis.
fn cpu_time_of_stat(text: &str, ticks_per_second: u64) -> Option<Duration> {
    let rest = &text[text.rfind(')')? + 1..];
    // `rest` starts with field 3 (the state), so field N is at N - 3.
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = (14..=17).map(|n| fields.get(n - 3)?.parse::<u64>().ok()).sum::<Option<u64>>()?;
    if ticks_per_second == 0 {
        return None;
    }
    Some(Duration::from_nanos(ticks.saturating_mul(1_000_000_000 / ticks_per_second)))
}

fn clock_ticks_per_second() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads a configuration value.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        (ticks > 0).then_some(ticks as u64)
    }
    #[cfg(not(unix))]
    None
}

/// The CPU time the calling thread has used; `None` where the system does
/// not tell.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes only the timespec it is given.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
        ok.then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_command_name() {
        // A command name with a space and a parenthesis; utime 150, stime
        // 50, cutime 0, cstime 0 ticks at 100 per second: 2 s.
        let line = "4242 (z3 (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 150 50 0 0 20 0 1 0 1 2 3";
        assert_eq!(cpu_time_of_stat(line, 100), Some(Duration::from_secs(2)));
        assert_eq!(cpu_time_of_stat("4242 (z3) S 1", 100), None);
    }

    #[test]
    fn this_thread_and_this_process_use_cpu_time() {
        let start = thread_cpu_time();
        // Busy work the optimiser cannot drop.
        let mut x = 0u64;
        for i in 0..200_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        std::hint::black_box(x);
        if cfg!(target_os = "linux") {
            assert!(thread_cpu_time().unwrap() > start.unwrap());
            assert!(process_cpu_time(std::process::id()).unwrap() > Duration::ZERO);
        }
    }
}
