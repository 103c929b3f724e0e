//! Queue slots: `slot = atomicAdd(count, c); out[slot + j] = v` with `c` a
//! positive constant and `0 <= j < c`. An increment by `c` reserves the
//! range `[slot, slot + c)` of the counter's values, and the reservations
//! of distinct increments are disjoint (one location that only grows,
//! every atomic on it an increment by a positive constant, plain writes to
//! it concurrent with the increments being races the checks find). So two
//! threads' writes at slot sites of one counter, the same site or two
//! sites such as `out[slot]` and `out[slot + 1]` after an increment by 2,
//! go to distinct elements, in whichever iterations of a loop they happen:
//! a write-write pair of slot sites of one counter, writing one array
//! through the same base and element stride, is no race. Thread 1's
//! logged write may come from any earlier iteration, so this cannot be a
//! fact about two values of one iteration (which is what
//! `distinct_increments` gives outside loops); it is a fact about the
//! sites. It rests on the counter not wrapping around in one launch (every
//! reservation lies below its range's end, so `slot + j` does not wrap
//! either), which the report states; it applies to concrete launches only
//! (with sizes left open, more threads than the counter's range could each
//! increment it once, and the prover reports the race).
//!
//! Reservations of variable size (`pos = atomicAdd(total, k)`, then `out[pos
//! + j]` for `j < k`) are facts about the values instead
//! (`reservation_ranges`): two threads' executions of one such addition
//! outside loops own disjoint ranges `[pos, pos + k)`, and each range ends
//! at most at the counter's largest value plus one, under the stated
//! assumption that the additions never carry the counter that far. The
//! loop over the range needs nothing more: its guard-bound candidates over
//! the logged write's ghosts keep an earlier iteration's `j` below `k`.

use super::*;

impl Enc<'_> {
    /// For an `atomicAdd` `i` (in block `b`) of a value that is not a
    /// constant (constants are `distinct_increments`' and the slot sites')
    /// outside loops, whose old value may decide an address or a branch, on a counter whose every write is an atomic addition
    /// (`add_only_counters`) and whose races are all checked, with `out`
    /// the two threads' old values: assumes that the ranges `[old, old +
    /// v)` of the two threads' executions on one location are disjoint and
    /// end at most at `2^w`. Each thread executes the addition at most
    /// once, so two threads make two distinct executions, and those own
    /// consecutive, disjoint ranges of the counter's values as long as no
    /// addition carries it past its largest value (with a negative value
    /// or past `2^w - 1`, the ranges wrap around and may meet): that is
    /// the assumption the report states.
    pub(crate) fn reservation_ranges(&mut self, i: InstId, b: BlockId, out: [Option<Sym>; 2]) -> Res<()> {
        let InstKind::Atomic { op: lockstep_kir::AtomicOp::Add, ptr, value, .. } = self.func.insts[i].kind else { return Ok(()) };
        let Type::Int(w) = self.func.value_type(value) else { return Ok(()) };
        if w >= 64 || matches!(self.func.values[value].def, ValueDef::Const(_)) || self.loops.innermost(b).is_some() {
            return Ok(());
        }
        // Only where the old value may decide an address or a branch: the
        // ranges are said nowhere else, and the assumption is not made
        // for a sum whose old value is stored or unused.
        let relevant = self.func.insts[i].result.is_some_and(|r| self.control_relevant.contains(&r));
        let Some(obj) = self.static_object(ptr) else { return Ok(()) };
        if !relevant || !self.add_only_counters.contains(&obj) || !self.every_race_checked_on(obj) {
            return Ok(());
        }
        let (Some(Sym::Bv(r1)), Some(Sym::Bv(r2))) = (out[0], out[1]) else { return Ok(()) };
        let (Sym::Ptr { base: b1, off: o1 }, Sym::Ptr { base: b2, off: o2 }) = (self.val(0, ptr)?, self.val(1, ptr)?) else {
            return Ok(());
        };
        let p = self.preds[&b];
        let limit = self.st.bv_const(w as u32 + 1, 1u128 << w);
        let mut ends = [r1; 2];
        for (t, r) in [(0, r1), (1, r2)] {
            let v = self.val_bv(t, value)?;
            let (r_wide, v_wide) = (self.resize(r, w as u32 + 1, false), self.resize(v, w as u32 + 1, false));
            ends[t] = self.st.bvadd(r_wide, v_wide);
            // The thread's own range ends at most at the counter's range.
            let fits = self.st.bvule(ends[t], limit);
            let fact = self.st.implies(p[t], fits);
            self.assume(fact);
        }
        let (r1_wide, r2_wide) = (self.resize(r1, w as u32 + 1, false), self.resize(r2, w as u32 + 1, false));
        let first = self.st.bvule(ends[0], r2_wide);
        let second = self.st.bvule(ends[1], r1_wide);
        let disjoint = self.st.or(&[first, second]);
        let same_base = self.st.eq(b1, b2);
        let same_off = self.st.eq(o1, o2);
        let mut same = vec![p[0], p[1], same_base, same_off];
        if self.objects[obj].space == MemSpace::Shared {
            same.push(self.same_group);
        }
        let same = self.st.and(&same);
        let fact = self.st.implies(same, disjoint);
        self.assume(fact);
        let text = format!(
            "the values atomicAdd adds to `{}` in one launch are not negative and never carry it past its largest value, so two executions' ranges [old, old + value) are disjoint",
            self.objects[obj].name
        );
        if !self.assumptions.contains(&text) {
            self.assumptions.push(text);
        }
        Ok(())
    }

    /// `v` as the same pointer in every thread: a parameter or a global's
    /// address (its definition), offset by constants only (a field of a
    /// struct parameter, `&q->items`), with the sum of those constants.
    fn uniform_root(&self, mut v: ValueId) -> Option<(ValueDef, u128)> {
        let mut offset_sum = 0u128;
        loop {
            match &self.func.values[v].def {
                def @ (ValueDef::Param(_) | ValueDef::GlobalAddr(_)) => return Some((def.clone(), offset_sum)),
                ValueDef::Inst(i) => match self.func.insts[*i].kind {
                    InstKind::PtrAdd { base, offset } => {
                        let ValueDef::Const(c) = self.func.values[offset].def else { return None };
                        offset_sum = offset_sum.wrapping_add(c);
                        v = base;
                    }
                    _ => return None,
                },
                _ => return None,
            }
        }
    }

    /// The value `v` with integer extensions looked through.
    fn unextended(&self, mut v: ValueId) -> ValueId {
        while let ValueDef::Inst(i) = self.func.values[v].def {
            match self.func.insts[i].kind {
                InstKind::Cast { op: CastOp::Sext | CastOp::Zext, arg } => v = arg,
                _ => break,
            }
        }
        v
    }

    /// Whether every atomic that may reach object `obj` adds a positive
    /// constant, and no compare-and-swap does.
    pub(crate) fn only_counting_atomics(&self, obj: usize) -> bool {
        for block in self.func.blocks.values() {
            for &j in &block.insts {
                let k = &self.func.insts[j].kind;
                let p = match k {
                    InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => *ptr,
                    _ => continue,
                };
                let reaches = self.atomic_may_reach(p, obj);
                if reaches && !self.positive_increment(k) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `k` is an integer `atomic add` of a positive constant.
    fn positive_increment(&self, k: &InstKind) -> bool {
        let InstKind::Atomic { op: lockstep_kir::AtomicOp::Add, value, .. } = k else { return false };
        let Type::Int(w) = self.func.value_type(*value) else { return false };
        let ValueDef::Const(c) = self.func.values[*value].def else { return false };
        signed_const(c, w as u32) > 0
    }

    /// If store `i` writes at a queue slot, the counter object's index: its
    /// address is `base + ext(r + j) * k` or `base + (zext(r) + j) * k`
    /// (`<< s` for `* k`; `j` absent or a constant below the increment) with
    /// `base` the same pointer in every thread, `r` the result of a counting
    /// increment by `c > j` of a global counter whose address is the same
    /// in every thread, and the store no wider than `k` bytes.
    pub(crate) fn slot_site(&self, i: InstId) -> Option<usize> {
        self.slot_layout(i).map(|l| l.counter)
    }

    /// What makes store `i` a queue-slot write (see `slot_site`): the
    /// counter and the layout of the array it writes.
    fn slot_layout(&self, i: InstId) -> Option<SlotLayout> {
        let InstKind::Store { ptr, value, .. } = self.func.insts[i].kind else { return None };
        let width = self.func.value_type(value).store_size() as u128;
        let ValueDef::Inst(add) = self.func.values[ptr].def else { return None };
        let InstKind::PtrAdd { base, offset } = self.func.insts[add].kind else { return None };
        let base = self.uniform_root(base)?;
        let ValueDef::Inst(scale) = self.func.values[offset].def else { return None };
        let (index, stride) = match self.func.insts[scale].kind {
            InstKind::Binary { op: BinOp::Mul, lhs, rhs } => match (&self.func.values[lhs].def, &self.func.values[rhs].def) {
                (_, &ValueDef::Const(k)) => (lhs, k),
                (&ValueDef::Const(k), _) => (rhs, k),
                _ => return None,
            },
            InstKind::Binary { op: BinOp::Shl, lhs, rhs } => match self.func.values[rhs].def {
                ValueDef::Const(s) if s < 32 => (lhs, 1u128 << s),
                _ => return None,
            },
            _ => return None,
        };
        if width > stride || stride >= 1 << 32 {
            return None;
        }
        let (r, j) = self.reservation_offset(index)?;
        let ValueDef::Inst(atomic) = self.func.values[r].def else { return None };
        let kind = &self.func.insts[atomic].kind;
        let InstKind::Atomic { ptr: counter, value: inc, .. } = kind else { return None };
        if !self.positive_increment(kind) || self.uniform_root(*counter).is_none() {
            return None;
        }
        // The written element lies in the increment's own reservation.
        let Type::Int(w) = self.func.value_type(*inc) else { return None };
        let ValueDef::Const(c) = self.func.values[*inc].def else { return None };
        if j >= signed_const(c, w as u32) as i128 {
            return None;
        }
        // With sizes left open the launch may have more threads than the
        // counter has values, and the increments may wrap around even
        // outside loops; the rule is kept to concrete launches, where only
        // loops can make that many increments.
        let dims = self.config.dims.clamp(1, 3) as usize;
        if (0..dims).any(|d| self.config.group_size[d].is_none() || self.config.num_groups[d].is_none()) {
            return None;
        }
        let obj = self.static_object(*counter)?;
        (self.objects[obj].space == MemSpace::Global && self.only_counting_atomics(obj)).then_some(SlotLayout { counter: obj, base, stride })
    }

    /// An index `ext(r + j)` or `zext(r) + j` (with `j` a non-negative
    /// constant, 0 when absent) as `(r, j)`. Extensions are injective, and
    /// `r + j` does not wrap while `j` is below `r`'s increment (the
    /// counter's values do not wrap, see the module docs), so distinct
    /// `(r, j)` of disjoint reservations are distinct indices.
    fn reservation_offset(&self, index: ValueId) -> Option<(ValueId, i128)> {
        let constant = |v: ValueId| match self.func.values[v].def {
            ValueDef::Const(c) => match self.func.value_type(v) {
                Type::Int(w) => Some(signed_const(c, w as u32) as i128),
                _ => None,
            },
            _ => None,
        };
        let plus = |v: ValueId| -> Option<(ValueId, i128)> {
            let ValueDef::Inst(a) = self.func.values[v].def else { return None };
            let InstKind::Binary { op: BinOp::Add, lhs, rhs } = self.func.insts[a].kind else { return None };
            match (constant(lhs), constant(rhs)) {
                (_, Some(j)) if j >= 0 => Some((lhs, j)),
                (Some(j), _) if j >= 0 => Some((rhs, j)),
                _ => None,
            }
        };
        let inner = self.unextended(index);
        if let Some((r, j)) = plus(inner) {
            if inner != index || self.unextended(r) == r {
                // `ext(r + j)`, or `r + j` in the counter's own width.
                return Some((r, j));
            }
            // `zext(r) + j` in the wider type: only a zero extension keeps
            // `r`'s order, which the non-wrapping argument needs.
            let ValueDef::Inst(x) = self.func.values[r].def else { return None };
            return match self.func.insts[x].kind {
                InstKind::Cast { op: CastOp::Zext, arg } => Some((arg, j)),
                _ => None,
            };
        }
        Some((inner, 0))
    }

    /// The stores of the function at slot sites of the same counter as
    /// slot site `i`, writing the same array with the same element stride
    /// (so that distinct slots are distinct elements), in order. Sites of
    /// one counter writing through bases or strides that differ (`out[r]`
    /// and `(out + 1)[r]`, an `int` and a byte view of one buffer) can
    /// meet at distinct slots, and are not paired.
    pub(crate) fn slot_sites_like(&self, i: InstId) -> Vec<InstId> {
        let Some(layout) = self.slot_layout(i) else { return Vec::new() };
        let mut sites = Vec::new();
        for block in self.func.blocks.values() {
            for &j in &block.insts {
                if matches!(self.func.insts[j].kind, InstKind::Store { .. }) && self.slot_layout(j).as_ref() == Some(&layout) {
                    sites.push(j);
                }
            }
        }
        sites.sort();
        sites
    }
}

/// A queue-slot write's counter object and array layout: its base (the
/// root pointer and a constant byte offset) and its element stride.
#[derive(PartialEq)]
struct SlotLayout {
    counter: usize,
    base: (ValueDef, u128),
    stride: u128,
}
