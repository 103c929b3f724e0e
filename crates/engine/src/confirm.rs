//! Confirmation of the bounded finder's witnesses by concrete replay.
//!
//! The finder reasons about two symbolic threads with approximations
//! (memory other threads write is arbitrary after a barrier), so a witness
//! is only a candidate until the interpreter, running the real launch with
//! the witness's inputs, sees the same violation at the same place. Only
//! the groups of the witness's threads run, so confirming a bug in a launch
//! of millions of threads costs a few groups. Findings whose witnesses ask
//! for the same run (the same launch, groups and inputs: common for a kernel
//! without parameters) share one replay, since the interpreter is
//! deterministic: a kernel with a long loop and several unconfirmed
//! findings paid for the same run once per finding. The replays of one
//! search share a budget of CPU time (the finder's own, see
//! `Replays::new`): a kernel whose runs end only on the step budget (a
//! loop on an unspecified value, say) cannot spend it once per finding and
//! witness. Findings left when it is spent stay unconfirmed, which only
//! weakens the report (the prover's verdict stands).

use std::time::{Duration, Instant};

use lockstep_diag::{Span, Violation};
use lockstep_find::{ConcreteWitness, Found, MemRef};
use lockstep_kir::{FuncId, Module};
use lockstep_replay::Launch;
use lockstep_smt::cpu::thread_cpu_time;

use crate::config::CheckConfig;
use crate::locate::span_of;
use crate::search::{run, Inputs, SearchOutcome};

/// Threads one confirming replay may run (the witness's groups only).
const MAX_CONFIRM_THREADS: u64 = 1 << 16;

/// Bytes of each buffer of unknown size when a witness is replayed a
/// second time (see `Replays::confirm`): as large as the interpreter
/// allocates, which covers any 32-bit index of 8-byte elements.
const CONFIRM_BUFFER_BYTES: u64 = lockstep_replay::memory::MAX_ALLOCATION_BYTES;

/// Replays of the findings of one bounded search, by the run they ask for.
pub struct Replays {
    runs: Vec<((Launch, Inputs), SearchOutcome)>,
    /// CPU time (this thread's, where the system tells it; else wall time)
    /// the replays may take together.
    budget: Duration,
    spent: Duration,
    /// Runs not made because the budget was spent.
    pub skipped: usize,
}

impl Replays {
    /// Replays that together take at most `budget` of CPU time (a run
    /// started within it finishes).
    pub fn new(budget: Duration) -> Replays {
        Replays { runs: Vec::new(), budget, spent: Duration::ZERO, skipped: 0 }
    }

    /// Replays `found`'s witness, then its fallback witness if it has one
    /// (or reuses the replay of an earlier finding that asked for the same
    /// run); returns the interpreter's violation when one reproduces the
    /// finding (same kind, at one of the finding's locations).
    pub fn confirm(&mut self, module: &Module, kernel: FuncId, config: &CheckConfig, found: &Found) -> Option<Violation> {
        std::iter::once(&found.witness)
            .chain(found.fallback_witness.as_ref())
            .find_map(|witness| self.confirm_witness(module, kernel, config, found, witness))
    }

    /// Replays one witness of `found` (see `confirm`).
    fn confirm_witness(&mut self, module: &Module, kernel: FuncId, config: &CheckConfig, found: &Found, witness: &ConcreteWitness) -> Option<Violation> {
        let key = replay_of(module, config, witness)?;
        if let Some(v) = self.replay(module, kernel, config, found, key.clone()) {
            return Some(v);
        }
        // The finder's buffers have no end where the user gave no size, and
        // a witness may reach past the replay's default buffer (a row-major
        // index at a large row): the replay then stops that thread at an
        // access it takes for an artefact of its inputs, before the race.
        // Such a witness is replayed once more with buffers as large as the
        // interpreter allocates (lazily: only touched pages cost memory).
        // A run in which no thread left such a buffer would only be repeated
        // (a long one at the cost of its whole step budget).
        if !self.run_of(&key).is_some_and(|outcome| outcome.left_chosen_buffer) {
            return None;
        }
        let (launch, inputs) = key;
        let large = Inputs { unsized_buffer_bytes: Some(CONFIRM_BUFFER_BYTES), ..inputs };
        self.replay(module, kernel, config, found, (launch, large))
    }

    /// The outcome of the run of `key`, if it was replayed.
    fn run_of(&self, key: &(Launch, Inputs)) -> Option<&SearchOutcome> {
        self.runs.iter().find(|(k, _)| k == key).map(|(_, outcome)| outcome)
    }

    /// The violation of the run of `key` (replayed, or reused) that
    /// reproduces `found`.
    fn replay(&mut self, module: &Module, kernel: FuncId, config: &CheckConfig, found: &Found, key: (Launch, Inputs)) -> Option<Violation> {
        let at = match self.runs.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None if self.spent >= self.budget => {
                self.skipped += 1;
                return None;
            }
            None => {
                let wall = Instant::now();
                let cpu = thread_cpu_time();
                let outcome = run(module, kernel, config, &key.0, &key.1);
                self.spent += match (cpu, thread_cpu_time()) {
                    (Some(before), Some(after)) => after.saturating_sub(before),
                    _ => wall.elapsed(),
                };
                self.runs.push((key, outcome));
                self.runs.len() - 1
            }
        };
        let places: Vec<Span> = found.locs.iter().flatten().map(|l| span_of(module, *l)).collect();
        self.runs[at].1.violations.iter().find(|v| {
            v.kind == found.kind
                && (places.is_empty()
                    || v.primary.as_ref().is_some_and(|p| places.contains(p))
                    || v.related.iter().any(|r| places.contains(&r.span)))
        }).cloned()
    }
}

/// Replays `found`'s witness alone (see [`Replays::confirm`]), within the
/// finder's budget.
pub fn confirm(module: &Module, kernel: FuncId, config: &CheckConfig, found: &Found) -> Option<Violation> {
    Replays::new(config.find_budget).confirm(module, kernel, config, found)
}

/// The run that replays a witness: its launch and inputs, or
/// `None` when the witness is no behaviour of the program (a launch CUDA
/// refuses, another global size than the one given) or needs more threads
/// than a confirming replay may run.
fn replay_of(module: &Module, config: &CheckConfig, w: &ConcreteWitness) -> Option<(Launch, Inputs)> {
    let to_u32 = |d: [u64; 3]| d.map(|x| x.min(u32::MAX as u64) as u32);
    let launch = Launch {
        group_size: to_u32(w.group_size),
        num_groups: to_u32(w.num_groups),
        global_offset: config.global_offset.map(|o| o.min(u32::MAX as u64) as u32),
    };
    // A launch CUDA refuses (more than 1024 threads per block, say) is no
    // behaviour of the program, whatever the interpreter would do with it.
    if module.language == lockstep_kir::Language::Cuda && !launch.cuda_launchable() {
        return None;
    }
    // Nor is one whose global size is not the one given.
    let global = |d: usize| u64::from(launch.group_size[d]) * u64::from(launch.num_groups[d]);
    if (0..3).any(|d| config.global_size[d].is_some_and(|g| g != global(d))) {
        return None;
    }
    let mut groups: Vec<u32> = w
        .threads
        .iter()
        .map(|(_, g)| {
            let [gx, gy, gz] = to_u32(*g);
            gx + gy * launch.num_groups[0] + gz * launch.num_groups[0] * launch.num_groups[1]
        })
        .collect();
    groups.sort();
    groups.dedup();
    if groups.len() as u64 * launch.threads_per_group() > MAX_CONFIRM_THREADS {
        return None;
    }
    let inputs = Inputs {
        // Arguments the user fixed keep their values: a witness that needs
        // others (the finder may not know them) is not one for this launch.
        scalars: w
            .scalar_args
            .iter()
            .filter(|(i, _)| config.scalar_args.get(*i).copied().flatten().is_none())
            .copied()
            .collect(),
        bytes: w
            .memory
            .iter()
            .filter_map(|(at, offset, byte)| match at {
                MemRef::Param(i) => Some((*i, *offset, *byte)),
                _ => None,
            })
            .collect(),
        only_groups: Some(groups),
        globals: w
            .memory
            .iter()
            .filter_map(|(at, offset, byte)| match at {
                MemRef::Global(g) => Some((*g, *offset, *byte)),
                _ => None,
            })
            .collect(),
        undefined_value: 0,
        ..Inputs::default()
    };
    Some((launch, inputs))
}
