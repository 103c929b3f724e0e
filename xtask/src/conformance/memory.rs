//! The memory a test's whole process tree holds and the CPU time it used:
//! the verifier and every process it started (clang, z3, cvc5), summed.
//!
//! `wait4` reports the peak of the largest single process only, and the
//! solvers run in process groups of their own, so the runner samples the
//! tree itself: every process whose chain of parents reaches the verifier,
//! read from `/proc`. Sampling misses peaks shorter than its period; the
//! figure is a lower bound of the true peak, and `wait4`'s single-process
//! peak is folded in so that it is never below that either.

use std::collections::HashMap;
use std::fs;
use std::time::Duration;

/// What a process tree holds and has used, summed over its processes.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeUsage {
    /// Resident set, in KiB.
    pub resident_kib: u64,
    /// CPU time (user and system) of the live processes and of the
    /// children they have waited for (a verifier's finished solvers and
    /// clang runs count in its own figure).
    pub cpu: Duration,
}

/// The resident set and CPU time of `root` and all its descendants
/// together; `None` where `/proc` cannot be read (not Linux) or `root` is
/// gone.
pub fn tree_usage(root: u32) -> Option<TreeUsage> {
    let mut parent_of: HashMap<u32, u32> = HashMap::new();
    let mut usage: HashMap<u32, TreeUsage> = HashMap::new();
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let (Some(stat), Some(kib)) = (Stat::read(pid), resident_kib(pid)) else {
            continue;
        };
        parent_of.insert(pid, stat.parent);
        usage.insert(pid, TreeUsage { resident_kib: kib, cpu: stat.cpu });
    }
    usage.get(&root)?;
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for (&pid, &parent) in &parent_of {
        children.entry(parent).or_default().push(pid);
    }
    let (mut total, mut stack) = (TreeUsage::default(), vec![root]);
    while let Some(pid) = stack.pop() {
        let own = usage.get(&pid).copied().unwrap_or_default();
        total.resident_kib += own.resident_kib;
        total.cpu += own.cpu;
        stack.extend(children.get(&pid).into_iter().flatten().copied());
    }
    Some(total)
}

/// What the runner reads of `/proc/PID/stat`.
struct Stat {
    parent: u32,
    cpu: Duration,
}

impl Stat {
    /// The parent's pid (the field after the state, which follows the
    /// parenthesised command name, itself free to hold spaces and
    /// parentheses) and the CPU time, own and of waited-for children
    /// (fields 14 to 17, in clock ticks).
    fn read(pid: u32) -> Option<Stat> {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
        // `fields[0]` is field 3 (the state).
        let parent = fields.get(1)?.parse().ok()?;
        let ticks: u64 = (14..=17).map(|n| fields.get(n - 3)?.parse::<u64>().ok()).sum::<Option<u64>>()?;
        Some(Stat { parent, cpu: Duration::from_secs_f64(ticks as f64 / clock_ticks_per_second() as f64) })
    }
}

/// The unit of `/proc`'s CPU times.
fn clock_ticks_per_second() -> u64 {
    extern "C" {
        fn sysconf(name: i32) -> i64;
    }
    // `_SC_CLK_TCK` on Linux.
    const SC_CLK_TCK: i32 = 2;
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { sysconf(SC_CLK_TCK) };
    u64::try_from(ticks).ok().filter(|&t| t > 0).unwrap_or(100)
}

/// The resident set, from `/proc/PID/statm` (in pages; 4 KiB pages are
/// assumed, as on every machine this runner targets).
fn resident_kib(pid: u32) -> Option<u64> {
    let statm = fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tree_holds_at_least_its_root() {
        if !cfg!(target_os = "linux") {
            return;
        }
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        let own = super::tree_usage(std::process::id()).unwrap().resident_kib;
        let alone = super::resident_kib(std::process::id()).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        // The child holds some memory of its own, so the tree holds more.
        assert!(own > alone && alone > 0, "tree {own} KiB, process {alone} KiB");
    }

    #[test]
    fn a_tree_counts_the_cpu_time_of_its_processes() {
        if !cfg!(target_os = "linux") {
            return;
        }
        // A child that spins for a while (a shell loop of builtins).
        let mut child = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done"])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(400));
        let used = super::tree_usage(child.id()).unwrap().cpu;
        let _ = child.kill();
        let _ = child.wait();
        assert!(used > std::time::Duration::ZERO, "the spinning child used {used:?}");
    }
}
