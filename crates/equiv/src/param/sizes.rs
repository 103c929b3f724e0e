//! Which block sizes the preconditions allow, when they leave finitely
//! many (powers of two up to 1024): the bounded proof then runs for each.

use super::*;

/// The block sizes (`blockDim.x`; `blockDim.y` and `.z` fixed by the
/// launch) that the preconditions of the kernels allow, when the solver
/// proves them all powers of two: `__requires((blockDim.x & (blockDim.x -
/// 1)) == 0)` in either kernel, with CUDA's limit of 1024 threads per
/// block, leaves at most eleven. The caller proves each size with the
/// bounded proof, which together covers every launch the preconditions
/// allow. `Err` says why the set is not finite (or not known).
pub fn power_of_two_block_sizes(a: KernelRef, b: Option<KernelRef>, config: &EquivConfig) -> Result<Vec<u32>, String> {
    let (Some(y), Some(z)) = (config.group_size[1], config.group_size[2]) else {
        return Err("the block size is symbolic in more than one dimension".into());
    };
    if config.group_size[0].is_some() {
        return Err("the block size is concrete".into());
    }
    let kernels: Vec<KernelRef> = std::iter::once(a).chain(b).collect();
    let mut funcs = Vec::new();
    for k in &kernels {
        let f = lockstep_analysis::inline_calls(k.module, k.kernel)
            .map_err(|e| format!("cannot inline the calls of `{}`: {e}", k.func().name))?;
        funcs.push(f.function);
    }
    let params: Vec<Type> = funcs[0].params.iter().map(|p| p.ty).collect();
    let mut inp = Inputs::new_param(config.group_size, config.num_groups, &params);
    inp.fix_scalars(&config.scalar_args);
    inp.floats = config.floats;
    let solver = Solver::spawn(config.solver_config(config.query_timeout)).map_err(|e| format!("cannot start the solver: {e}"))?;
    let base_inst = Inst { tid: inp.local_id.expect("one-thread inputs"), bid: inp.group_id, q: None };
    let tru = inp.st.true_();
    let mut pr = Prover { inp, solver, base: Vec::new(), per_thread: Vec::new(), base_inst, config, label: "", block_product: tru, shifts: HashMap::new(), shift_memo: HashMap::new(), cover_used: false, digit_memo: HashMap::new(), iter_loops: Vec::new(), query_log: None, log_seq: 0 };
    pr.launch_facts();
    for (i, (k, f)) in kernels.iter().zip(&funcs).enumerate() {
        let reqs = sym::Executor::new(k.module, f, ["a", "b"][i], &mut pr.inp)
            .run_preconditions()
            .map_err(|u| format!("the preconditions of `{}`: {}", k.func().name, u.what))?;
        pr.per_thread.extend(reqs);
    }
    let rest = (y * z).max(1);
    let bd = pr.inp.local_size[0];
    if let Some(sizes) = sizes_by_folding(&mut pr.inp.st, &pr.per_thread, bd, 1024 / rest as u32) {
        return sizes;
    }
    let sizes: Vec<u32> = (0..=10).map(|k| 1u32 << k).filter(|&p| p as u64 * rest <= 1024).collect();
    let is_size: Vec<TermId> = sizes
        .iter()
        .map(|&p| {
            let c = pr.inp.st.bv_const(32, p as u128);
            pr.inp.st.eq(bd, c)
        })
        .collect();
    let any = pr.inp.st.or(&is_size);
    let t = pr.base_inst;
    let mut facts = pr.ctx(t);
    facts.push(pr.inp.st.not(any));
    pr.label = "power-of-two block";
    match pr.sat(&facts) {
        Ok(SatResult::Unsat) => {
            // Only the sizes the preconditions allow (`blockDim.x >= 64`):
            // the others have no launch to compare.
            let queries: Vec<Vec<TermId>> = is_size
                .iter()
                .map(|&is| {
                    let mut f = facts.clone();
                    f.pop();
                    f.push(is);
                    f
                })
                .collect();
            pr.label = "allowed block size";
            let answers = match pr.sat_many(&queries) {
                Ok(a) => a,
                Err((why, _)) => return Err(why),
            };
            Ok(sizes.iter().zip(answers).filter(|(_, r)| *r != SatResult::Unsat).map(|(&s, _)| s).collect())
        }
        Ok(SatResult::Sat) => Err("the preconditions do not restrict blockDim.x to powers of two".into()),
        Ok(SatResult::Unknown(why)) => Err(format!("the solver gave up on the block sizes ({why})")),
        Err((why, _)) => Err(why),
    }
}

/// The block sizes without the solver, when the preconditions that mention
/// `blockDim.x` fold to literals for every size from 1 to `max` (the launch
/// limit): `Some(Ok)` with the allowed sizes when they are all powers of
/// two, `Some(Err)` when some other size is allowed, `None` when a
/// precondition does not fold (it also mentions an argument or a thread
/// id), and the solver decides.
///
/// A size is excluded only when a precondition is false for it, which no
/// launch of that size satisfies; preconditions that do not mention
/// `blockDim.x` are the same for every size and are left out, so a size may
/// be kept that contradictory preconditions would exclude, which only adds
/// a proof.
fn sizes_by_folding(st: &mut TermStore, reqs: &[TermId], bd: TermId, max: u32) -> Option<Result<Vec<u32>, String>> {
    let mentions: Vec<TermId> = reqs.iter().copied().filter(|&r| st.free_symbols(&[r]).funs.iter().any(|&f| st.fun(f).name == "blockDim.x")).collect();
    if mentions.is_empty() || st.as_bv(bd).is_some() {
        return None;
    }
    let mut sizes = Vec::new();
    for x in 1..=max {
        let value = st.bv_const(32, x as u128);
        let values = HashMap::from([(bd, value)]);
        match fold_under(st, &mentions, &values)? {
            true if x.is_power_of_two() => sizes.push(x),
            true => return Some(Err(format!("the preconditions allow blockDim.x = {x}, not a power of two"))),
            false => {}
        }
    }
    crate::trace(&format!("block sizes by evaluating the preconditions: {sizes:?}"));
    Some(Ok(sizes))
}
