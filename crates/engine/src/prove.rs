//! The prover's part of a check: runs `lockstep_prove` and turns its
//! outcome into report material.

use lockstep_diag::{Span, Violation};
use lockstep_kir::{FuncId, Module};
use lockstep_prove::{prove_kernel_observed, prove_uncalled_function, ProveConfig, ProveOutcome, SolverKind};

use crate::config::CheckConfig;
use crate::locate::span_of;

pub enum Proof {
    Verified { proved: Vec<String>, assumptions: Vec<String> },
    /// Failed checks: possible errors until a replay confirms them.
    Alarms(Vec<Violation>),
    Unknown { reason: String, span: Option<Span> },
}

pub fn prove(module: &Module, kernel: FuncId, config: &CheckConfig) -> Proof {
    // The Daikon filter's runs: the search's launch, on the function the
    // prover encodes (see `search::observe`).
    let observe = |m: &Module, k: FuncId, plan: &lockstep_analysis::observe::ObservePlan| crate::search::observe(m, k, config, plan);
    proof(module, prove_kernel_observed(module, kernel, &prove_config(module, kernel, config), Some(&observe)))
}

/// The prover's check of `func`, a function no kernel calls, for every
/// caller (see `lockstep_prove::prove_uncalled_function`).
pub fn prove_uncalled(module: &Module, func: FuncId, config: &CheckConfig) -> Proof {
    proof(module, prove_uncalled_function(module, func, &prove_config(module, func, config)))
}

/// How many times the prover's budget its CPU time may be when z3's work is
/// the budget (see `prove_config`): the work limit decides, CPU time is the
/// safety net for what work does not count.
const CPU_SAFETY: f64 = 2.0;

/// How many times the prover's budget the wall clock allows without a
/// deadline: a backstop for a machine so loaded that even CPU time says
/// little, far beyond what the budgets allow on a machine that runs.
const WALL_BACKSTOP: u32 = 6;

fn prove_config(module: &Module, kernel: FuncId, config: &CheckConfig) -> ProveConfig {
    ProveConfig {
        group_size: config.group_size,
        num_groups: config.num_groups,
        global_size: config.global_size,
        dims: config.work_dim,
        global_offset: config.global_offset,
        solver: if config.use_cvc5 { SolverKind::Cvc5 } else { SolverKind::Z3 },
        query_timeout: config.query_timeout,
        only_divergence: config.only_divergence,
        race_arrays: config.race_arrays.clone(),
        only_intra_group: config.only_intra_group,
        no_infer: config.no_infer,
        disabled_rules: config.disabled_rules.clone(),
        equality_abstraction: config.equality_abstraction,
        replay_log: config.smt_log(&module.functions[kernel].name, "prove"),
        check_array_bounds: config.check_array_bounds,
        param_sizes: config.array_sizes.clone(),
        // The prover's budget is z3's work, as much as z3 does in the
        // budget's time on an idle core, so that a loaded machine does not
        // change verdicts; CPU time (the prover's and its solvers') is the
        // safety net, at twice the budget, and the budget itself with cvc5,
        // whose work is not counted. Under `--timeout` the user's deadline
        // is wall-clock time and it decides; otherwise the wall clock is
        // only a backstop.
        work_budget: config.prove_budget.filter(|_| !config.use_cvc5).map(|b| (b.as_millis() as u64).saturating_mul(lockstep_smt::Z3_WORK_PER_MS)),
        cpu_budget: config.prove_budget.filter(|_| config.deadline.is_none()).map(|b| if config.use_cvc5 { b } else { b.mul_f64(CPU_SAFETY) }),
        time_budget: config.prove_budget.map(|b| if config.deadline.is_none() { b * WALL_BACKSTOP } else { b }),
        solver_memory: Some(config.solver_memory()),
        solver_timer_factor: config.solver_timer_factor(),
        warp_size: config.warp_sync,
        daikon: config.daikon,
        stop: config.stop_prover.clone(),
        // Annotation switches are applied to the module before any engine
        // runs (`annotations`), so the prover sees the rewritten kernel.
        ..ProveConfig::default()
    }
}

fn proof(module: &Module, outcome: ProveOutcome) -> Proof {
    match outcome {
        ProveOutcome::Verified { mut proved, assumptions, invariants } => {
            if !invariants.is_empty() {
                let mut rules: Vec<&str> = invariants.iter().map(|(rule, _)| rule.as_str()).collect();
                rules.sort();
                rules.dedup();
                proved.push(format!("with {} inferred loop invariants (rules: {})", invariants.len(), rules.join(", ")));
            }
            Proof::Verified { proved, assumptions }
        }
        ProveOutcome::Failed { violations } => {
            Proof::Alarms(violations.iter().map(|check| lockstep_prove::report::violation(module, check)).collect())
        }
        ProveOutcome::Unknown { reason, at } => Proof::Unknown { reason, span: at.map(|s| span_of(module, s)) },
    }
}
