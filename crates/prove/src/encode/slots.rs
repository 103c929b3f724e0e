//! Queue slots: `slot = atomicAdd(count, 1); out[slot] = v`. The values a
//! counting increment returns are distinct (one location that only grows,
//! every atomic on it an increment by a positive constant, plain writes to
//! it concurrent with the increments being races the checks find), so two
//! threads' writes at such a site go to distinct elements, in whichever
//! iterations of a loop they happen: a write-write pair of one slot site is
//! no race. Thread 1's logged write may come from any earlier iteration,
//! so this cannot be a fact about two values of one iteration (which is
//! what `distinct_increments` gives outside loops); it is a fact about the
//! site. It rests on the counter not wrapping around in one launch, which
//! the report states; it applies to concrete launches only (with sizes
//! left open, more threads than the counter's range could each increment
//! it once, and the prover reports the race).

use super::*;

impl Enc<'_> {
    /// Whether `v` is the same pointer in every thread: a parameter or a
    /// global's address, not offset.
    fn uniform_root(&self, v: ValueId) -> bool {
        matches!(self.func.values[v].def, ValueDef::Param(_) | ValueDef::GlobalAddr(_))
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
    /// address is `base + ext(r) * k` (or `<< s`) with `base` the same
    /// pointer in every thread, `r` the result of a counting increment of a
    /// global counter whose address is the same in every thread, and the
    /// store no wider than `k` bytes.
    pub(crate) fn slot_site(&self, i: InstId) -> Option<usize> {
        let InstKind::Store { ptr, value, .. } = self.func.insts[i].kind else { return None };
        let width = self.func.value_type(value).store_size() as u128;
        let ValueDef::Inst(add) = self.func.values[ptr].def else { return None };
        let InstKind::PtrAdd { base, offset } = self.func.insts[add].kind else { return None };
        if !self.uniform_root(base) {
            return None;
        }
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
        let r = self.unextended(index);
        let ValueDef::Inst(atomic) = self.func.values[r].def else { return None };
        let kind = &self.func.insts[atomic].kind;
        let InstKind::Atomic { ptr: counter, .. } = kind else { return None };
        if !self.positive_increment(kind) || !self.uniform_root(*counter) {
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
        (self.objects[obj].space == MemSpace::Global && self.only_counting_atomics(obj)).then_some(obj)
    }
}
