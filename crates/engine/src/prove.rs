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

/// How many times the prover's budget the wall clock allows when z3's work
/// is the budget (see `prove_config`).
const WALL_SAFETY: f64 = 1.5;

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
        // change verdicts; the wall clock is the safety net, at one and a half times the
        // budget (at the budget itself under `--timeout`, whose deadline
        // is the user's, and with cvc5, whose work is not counted).
        work_budget: config.prove_budget.filter(|_| !config.use_cvc5).map(|b| (b.as_millis() as u64).saturating_mul(lockstep_smt::Z3_WORK_PER_MS)),
        time_budget: config.prove_budget.map(|b| if config.deadline.is_none() && !config.use_cvc5 { b.mul_f64(WALL_SAFETY) } else { b }),
        solver_memory: Some(config.solver_memory()),
        solver_timer_factor: config.solver_timer_factor(),
        warp_size: config.warp_sync,
        daikon: config.daikon,
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
