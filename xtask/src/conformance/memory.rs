//! The memory a test's whole process tree holds: the verifier and every
//! process it started (clang, z3, cvc5), summed.
//!
//! `wait4` reports the peak of the largest single process only, and the
//! solvers run in process groups of their own, so the runner samples the
//! tree itself: every process whose chain of parents reaches the verifier,
//! read from `/proc`. Sampling misses peaks shorter than its period; the
//! figure is a lower bound of the true peak, and `wait4`'s single-process
//! peak is folded in so that it is never below that either.

use std::collections::HashMap;
use std::fs;

/// The resident set of `root` and all its descendants together, in KiB;
/// `None` where `/proc` cannot be read (not Linux) or `root` is gone.
pub fn tree_resident_kib(root: u32) -> Option<u64> {
    let mut parent_of: HashMap<u32, u32> = HashMap::new();
    let mut resident: HashMap<u32, u64> = HashMap::new();
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let (Some(parent), Some(kib)) = (parent_pid(pid), resident_kib(pid)) else {
            continue;
        };
        parent_of.insert(pid, parent);
        resident.insert(pid, kib);
    }
    resident.get(&root)?;
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for (&pid, &parent) in &parent_of {
        children.entry(parent).or_default().push(pid);
    }
    let (mut total, mut stack) = (0u64, vec![root]);
    while let Some(pid) = stack.pop() {
        total += resident.get(&pid).copied().unwrap_or(0);
        stack.extend(children.get(&pid).into_iter().flatten().copied());
    }
    Some(total)
}

/// The parent's pid, from `/proc/PID/stat` (the field after the state,
/// which follows the parenthesised command name, itself free to hold
/// spaces and parentheses).
fn parent_pid(pid: u32) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
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
        let own = super::tree_resident_kib(std::process::id()).unwrap();
        let alone = super::resident_kib(std::process::id()).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        // The child holds some memory of its own, so the tree holds more.
        assert!(own > alone && alone > 0, "tree {own} KiB, process {alone} KiB");
    }
}
