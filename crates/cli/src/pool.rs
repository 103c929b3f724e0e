//! Checking a file's kernels at once (`--kernel-jobs`): a map over a list
//! served by a few scoped threads, whose results come back in the list's
//! order, so that a report reads the same however many threads made it.
//!
//! Each kernel's check is independent of the others' (its own solver
//! processes, its own interpreter state); what they share is read-only
//! (the module, the options) or already safe to share (the registries of
//! child processes that Ctrl-C and the watchdogs stop).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f` applied to every item, with at most `jobs` items in progress at
/// once; the results are in the order of `items`. One job (or one item)
/// runs on the calling thread.
pub fn map_in_order<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = jobs.max(1).min(items.len());
    if workers <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(i) else { break };
                let result = f(item);
                if let Ok(mut slots) = results.lock() {
                    slots[i] = Some(result);
                }
            });
        }
    });
    // A worker that panicked has made the scope panic already, so every
    // slot is filled here.
    results.into_inner().unwrap_or_default().into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::map_in_order;

    #[test]
    fn results_keep_the_order_of_the_items_whatever_the_threads() {
        let items: Vec<u64> = (0..40).collect();
        for jobs in [1, 2, 3, 8, 100] {
            // Later items finish first, so an order by completion would differ.
            let out = map_in_order(&items, jobs, |&i| {
                std::thread::sleep(std::time::Duration::from_millis(40 - i));
                i * i
            });
            assert_eq!(out, items.iter().map(|i| i * i).collect::<Vec<_>>(), "jobs = {jobs}");
        }
    }

    #[test]
    fn at_most_jobs_items_run_at_once() {
        let running = std::sync::atomic::AtomicUsize::new(0);
        let most = std::sync::atomic::AtomicUsize::new(0);
        let items: Vec<u32> = (0..12).collect();
        map_in_order(&items, 3, |_| {
            let now = running.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            most.fetch_max(now, std::sync::atomic::Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(10));
            running.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        });
        let most = most.load(std::sync::atomic::Ordering::SeqCst);
        assert!(most <= 3, "{most} items ran at once with 3 jobs");
    }
}
