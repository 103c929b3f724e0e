//! Definedness tracking: which bits of a value are undetermined.
//!
//! A whole program's run (`lockstep_host`) picks one concrete value where
//! the program's behaviour leaves it open: an uninitialised variable,
//! memory never written, input, the clock. Copying such a value, adding to
//! it or storing it does not make the run differ from the program's other
//! runs in any way a verdict depends on; only a *use* does: a branch on it
//! (an assertion is one), an address computed from it, a division by it, a
//! call that acts on it. This is memcheck's rule, and it lets one run
//! decide a program whose undetermined values never reach such a use.
//!
//! With `ReplayOptions::track_definedness`, every value of a frame carries
//! a mask of its undetermined bits (`Frame::undef`), memory keeps one flag
//! per byte (`Object::undefined`), and each executed use is counted in
//! `ReplayResult::unspecified_uses` (and the static counting of `undef`
//! operands is off). The masks are exact for bitwise operations and shifts
//! by a determined amount, where the aggregate-building code of the
//! front-end needs them (a struct filled field by field from `undef`), and
//! all-or-nothing elsewhere, which errs only towards more uses.

use lockstep_kir::{BinOp, CastOp, EntityRef};

use crate::value::{mask, sext};

/// How many compared values a replay keeps (`ReplayResult::compared_values`).
pub const MAX_COMPARED: usize = 8;

/// The undetermined bits of `a op b` (width `w`), given those of the
/// operands (`ua`, `ub`) and their concrete bits.
pub fn binary(op: BinOp, a: u128, ua: u128, b: u128, ub: u128, w: u32) -> u128 {
    let full = mask(w);
    if ua == 0 && ub == 0 {
        return 0;
    }
    let out = match op {
        // A determined 0 (and) or 1 (or) fixes the result's bit.
        BinOp::And => (ua & ub) | (ua & b) | (ub & a),
        BinOp::Or => (ua & ub) | (ua & !b) | (ub & !a),
        BinOp::Xor => ua | ub,
        BinOp::Shl if ub == 0 => if b < w as u128 { ua << b } else { 0 },
        BinOp::LShr if ub == 0 => if b < w as u128 { ua >> b } else { 0 },
        BinOp::AShr if ub == 0 => {
            if b >= w as u128 {
                full
            } else {
                (sext(ua, w) as u128 >> b) | if ua >> (w - 1) & 1 == 1 { full & !(full >> b) } else { 0 }
            }
        }
        _ => full,
    };
    out & full
}

/// Whether `op` with an undetermined divisor is a use (it may trap).
pub fn divides(op: BinOp) -> bool {
    matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
}

/// The undetermined bits of a cast's result.
pub fn cast(op: CastOp, u: u128, from_bits: u32, to_bits: u32) -> u128 {
    if u == 0 {
        return 0;
    }
    let u = u & mask(from_bits);
    match op {
        CastOp::Zext | CastOp::Trunc | CastOp::Bitcast => u & mask(to_bits),
        CastOp::Sext => sext(u, from_bits) as u128 & mask(to_bits),
        _ => mask(to_bits.max(1)),
    }
}

/// The undetermined bits of each byte: a byte is undetermined when any of
/// its bits is.
pub fn byte_flags(u: u128, len: usize) -> Vec<bool> {
    (0..len).map(|i| i < 16 && (u >> (8 * i)) & 0xff != 0).collect()
}

/// The undetermined bits of a value read from bytes with these flags.
pub fn from_byte_flags(flags: &[bool], bits: u32) -> u128 {
    let mut u = 0u128;
    for (i, &f) in flags.iter().enumerate().take(16) {
        if f {
            u |= 0xff << (8 * i);
        }
    }
    u & mask(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_fix_bits() {
        // An undetermined byte masked off by `and` is determined.
        assert_eq!(binary(BinOp::And, 0, 0xff, 0xff00, 0, 16), 0);
        assert_eq!(binary(BinOp::And, 0, 0xffff, 0x0f00, 0, 16), 0x0f00);
        // `or` with determined ones fixes those bits.
        assert_eq!(binary(BinOp::Or, 0, 0xffff, 0x00ff, 0, 16), 0xff00);
        // Shifting moves the undetermined bits; arithmetic spreads them.
        assert_eq!(binary(BinOp::Shl, 0, 0xff, 8, 0, 32), 0xff00);
        assert_eq!(binary(BinOp::Add, 0, 1, 0, 0, 32), 0xffff_ffff);
        assert_eq!(binary(BinOp::Add, 0, 0, 0, 0, 32), 0);
    }

    #[test]
    fn casts_keep_bits() {
        assert_eq!(cast(CastOp::Trunc, 0xff00, 32, 8), 0);
        assert_eq!(cast(CastOp::Zext, 0x80, 8, 32), 0x80);
        assert_eq!(cast(CastOp::Sext, 0x80, 8, 32), 0xffff_ff80);
        assert_eq!(cast(CastOp::SiToFp, 1, 32, 32), 0xffff_ffff);
    }

    #[test]
    fn bytes() {
        assert_eq!(byte_flags(0x0100, 4), vec![false, true, false, false]);
        assert_eq!(from_byte_flags(&[false, true], 16), 0xff00);
    }
}

/// The interpreter's side: per instruction, the undetermined bits of its
/// result and its uses, before it executes (`undefined_before`), and the
/// undetermined bytes it stores, after (`undefined_after`).
impl crate::exec::Ctx<'_> {
    pub(crate) fn undefined_before(
        &mut self,
        th: &crate::exec::Thread,
        func: &lockstep_kir::Function,
        data: &lockstep_kir::InstData,
        loc: crate::result::Loc,
    ) -> u128 {
        use lockstep_kir::InstKind;
        let frame = th.frames.last().expect("a running thread has a frame");
        let u = |v: &lockstep_kir::ValueId| frame.undef[v.index()];
        let bits = |v: &lockstep_kir::ValueId| frame.vals[v.index()].bits();
        let width = |v: &lockstep_kir::ValueId| func.values[*v].ty.bits();
        let result_width = data.result.map_or(64, |r| func.values[r].ty.bits());
        let full = mask(result_width);
        let any = |vs: &[lockstep_kir::ValueId]| vs.iter().any(|v| u(v) != 0);
        let mut used = false;
        let out = match &data.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let w = width(lhs);
                used = divides(*op) && u(rhs) != 0;
                binary(*op, bits(lhs) & mask(w), u(lhs), bits(rhs) & mask(w), u(rhs), w)
            }
            // A comparison whose outcome is the same in every run (two
            // computations of one value, or ranges that do not overlap;
            // see `terms`) is determined.
            InstKind::Icmp { .. } | InstKind::Fcmp { .. } if self.comparison_decided(frame, func, &data.kind) => 0,
            InstKind::Icmp { cc, lhs, rhs } => {
                // An undetermined value compared with a determined one: the
                // other side of the comparison, and its neighbours for an
                // ordering, are the values that may send it the other way.
                let w = width(lhs);
                let known = match (u(lhs) != 0, u(rhs) != 0) {
                    (true, false) => Some(bits(rhs) & mask(w)),
                    (false, true) => Some(bits(lhs) & mask(w)),
                    _ => None,
                };
                if let Some(k) = known {
                    let mut candidates = vec![k];
                    if !matches!(cc, lockstep_kir::IntCC::Eq | lockstep_kir::IntCC::Ne) {
                        candidates.extend([k.wrapping_add(1) & mask(w), k.wrapping_sub(1) & mask(w)]);
                    }
                    for c in candidates {
                        if self.compared_values.len() < MAX_COMPARED && !self.compared_values.contains(&c) {
                            self.compared_values.push(c);
                        }
                    }
                }
                (u(lhs) | u(rhs) != 0) as u128
            }
            InstKind::Fcmp { lhs, rhs, .. } => (u(lhs) | u(rhs) != 0) as u128,
            InstKind::Select { cond, then_value, else_value } => {
                if u(cond) != 0 {
                    full
                } else if frame.vals[cond.index()].as_bool() {
                    u(then_value)
                } else {
                    u(else_value)
                }
            }
            InstKind::Cast { op, arg } => cast(*op, u(arg), width(arg), result_width),
            InstKind::Float { args, .. } | InstKind::AnnotValue { args, .. } if any(args) => full,
            InstKind::PtrAdd { base, offset } if u(base) | u(offset) != 0 => mask(64),
            InstKind::Load { ptr, .. } => {
                used = u(ptr) != 0;
                self.bytes_undefined(frame.vals[ptr.index()], data.result.map_or(0, |r| func.values[r].ty.store_size()), result_width)
            }
            InstKind::Store { ptr, .. } => {
                used = u(ptr) != 0;
                0
            }
            InstKind::Atomic { ptr, value, .. } => {
                used = u(ptr) != 0;
                let ty = func.values[*value].ty;
                self.bytes_undefined(frame.vals[ptr.index()], ty.store_size(), ty.bits())
            }
            InstKind::CmpXchg { ptr, expected, .. } => {
                used = u(ptr) != 0 || u(expected) != 0;
                let ty = func.values[*expected].ty;
                self.bytes_undefined(frame.vals[ptr.index()], ty.store_size(), ty.bits())
            }
            InstKind::MemCopy { dst, src, len } => {
                used = u(dst) | u(src) | u(len) != 0;
                0
            }
            InstKind::MemSet { dst, len, .. } => {
                used = u(dst) | u(len) != 0;
                0
            }
            InstKind::Annot { args, .. } | InstKind::Warp { args, .. } => {
                used = any(args);
                0
            }
            InstKind::InvalidCall { target } => {
                used = u(target) != 0;
                0
            }
            // A value the model leaves open.
            InstKind::Havoc => full,
            _ => 0,
        };
        if used {
            self.met_unspecified(loc);
        }
        self.result_term = if out & full != 0 { self.term_of(th, func, data) } else { 0 };
        out & full
    }

    /// Whether the comparison `kind`, with an undetermined operand, comes
    /// out the same in every run (see `terms`).
    fn comparison_decided(&self, frame: &crate::exec::Frame, func: &lockstep_kir::Function, kind: &lockstep_kir::InstKind) -> bool {
        use crate::terms::{float_outcome_ranges, int_outcome_ranges, Terms};
        use lockstep_kir::InstKind;
        let terms = &self.memory.terms;
        let undetermined = |v: &lockstep_kir::ValueId| frame.undef[v.index()] != 0;
        let term = |v: &lockstep_kir::ValueId| if undetermined(v) { frame.sym[v.index()] } else { 0 };
        match kind {
            InstKind::Icmp { cc, lhs, rhs } => {
                let w = func.values[*lhs].ty.bits();
                if func.values[*lhs].ty.is_ptr() {
                    return false;
                }
                if Terms::int_outcome(*cc, term(lhs), term(rhs)).is_some() {
                    return true;
                }
                let range = |v: &lockstep_kir::ValueId| {
                    if undetermined(v) {
                        terms.int_range_of(term(v))
                    } else {
                        let x = sext(frame.vals[v.index()].bits() & mask(w), w);
                        Some((x, x))
                    }
                };
                matches!((range(lhs), range(rhs)), (Some(a), Some(b)) if int_outcome_ranges(*cc, a, b).is_some())
            }
            InstKind::Fcmp { cc, lhs, rhs } => {
                let w = func.values[*lhs].ty.bits();
                if terms.float_outcome(*cc, term(lhs), term(rhs), w).is_some() {
                    return true;
                }
                let range = |v: &lockstep_kir::ValueId| {
                    if undetermined(v) {
                        terms.float_range_of(term(v), w)
                    } else {
                        let bits = frame.vals[v.index()].bits();
                        let x = match w {
                            32 => f32::from_bits(bits as u32) as f64,
                            64 => f64::from_bits(bits as u64),
                            _ => return None,
                        };
                        x.is_finite().then_some((x, x))
                    }
                };
                matches!((range(lhs), range(rhs)), (Some(a), Some(b)) if float_outcome_ranges(*cc, a, b).is_some())
            }
            _ => false,
        }
    }

    /// The term of the undetermined result of `data` (see `terms`), before
    /// it executes; 0 when it has none.
    fn term_of(&mut self, th: &crate::exec::Thread, func: &lockstep_kir::Function, data: &lockstep_kir::InstData) -> crate::terms::TermId {
        use lockstep_kir::InstKind;
        let frame = th.frames.last().expect("a running thread has a frame");
        let terms = &mut self.memory.terms;
        // An operand's term: its own while it is undetermined, its bits
        // otherwise; pointers have none (an address differs per run).
        let mut t = |v: &lockstep_kir::ValueId| {
            let ty = func.values[*v].ty;
            if ty.is_ptr() {
                0
            } else if frame.undef[v.index()] != 0 {
                frame.sym[v.index()]
            } else {
                terms.constant(frame.vals[v.index()].bits() & mask(ty.bits()), ty.bits())
            }
        };
        let result_ty = data.result.map(|r| func.values[r].ty);
        if result_ty.is_none_or(|ty| ty.is_ptr()) {
            return 0;
        }
        match &data.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let (a, b) = (t(lhs), t(rhs));
                terms.binary(*op, a, b, func.values[*lhs].ty.bits())
            }
            InstKind::Icmp { cc, lhs, rhs } => {
                let (a, b) = (t(lhs), t(rhs));
                terms.compare(*cc, a, b)
            }
            InstKind::Cast { op, arg } => {
                let a = t(arg);
                terms.cast(*op, a, func.values[*arg].ty.bits(), result_ty.map_or(0, |ty| ty.bits()))
            }
            InstKind::Float { op, args } => {
                let a = args.first().map_or(0, &mut t);
                let b = args.get(1).map_or(0, &mut t);
                terms.float(*op, a, b, func.values[args[0]].ty.bits())
            }
            InstKind::Select { cond, then_value, else_value } => {
                if frame.undef[cond.index()] == 0 {
                    // The way taken is determined: the result is that value.
                    let chosen = if frame.vals[cond.index()].as_bool() { then_value } else { else_value };
                    t(chosen)
                } else {
                    let (c, a, b) = (t(cond), t(then_value), t(else_value));
                    terms.select(c, a, b)
                }
            }
            InstKind::Load { ptr, .. } => {
                // Memory keeps the term of a value stored whole; bytes that
                // were never written (or input) are a draw, which later
                // loads of the same bytes share until they are written.
                let p = frame.vals[ptr.index()].as_ptr();
                let len = result_ty.map_or(0, |ty| ty.store_size());
                let (Some(obj), Ok(off)) = (p.obj, u64::try_from(p.offset)) else {
                    return 0;
                };
                if let Some(known) = self.memory.tag_at(obj, off, len) {
                    return known;
                }
                let bits = result_ty.map_or(64, |ty| ty.bits());
                let undefined = self.bytes_undefined(frame.vals[ptr.index()], len, bits);
                let mut word = [0u8; 16];
                self.memory.read_at(obj, off, &mut word[..len.min(16) as usize]);
                let fresh = self.memory.terms.fresh_known(u128::from_le_bytes(word), undefined, bits);
                self.memory.tag(obj, off, len, fresh);
                fresh
            }
            // A value the model leaves open is a draw of its own.
            InstKind::Havoc => terms.fresh(),
            _ => 0,
        }
    }

    /// The undetermined bits of `len` bytes at `p` read as a value of
    /// `bits` bits.
    fn bytes_undefined(&self, p: crate::value::Val, len: u64, bits: u32) -> u128 {
        let p = p.as_ptr();
        let (Some(obj), Ok(off)) = (p.obj, u64::try_from(p.offset)) else {
            return 0;
        };
        let flags = self.memory.undefined_flags(obj, off, len.min(16) as usize);
        from_byte_flags(&flags, bits)
    }

    pub(crate) fn undefined_after(
        &mut self,
        th: &mut crate::exec::Thread,
        func: &lockstep_kir::Function,
        data: &lockstep_kir::InstData,
        result_undefined: u128,
    ) {
        use lockstep_kir::InstKind;
        let frame = th.frames.last_mut().expect("a running thread has a frame");
        // An external call's result was set with the call's outcome.
        if let (Some(r), false) = (data.result, matches!(data.kind, InstKind::CallExternal { .. })) {
            frame.undef[r.index()] = result_undefined;
            frame.sym[r.index()] = if result_undefined != 0 { self.result_term } else { 0 };
        }
        let u = |v: &lockstep_kir::ValueId| frame.undef[v.index()];
        let (ptr, stored, len) = match &data.kind {
            InstKind::Store { ptr, value, .. } => (ptr, u(value), func.values[*value].ty.store_size()),
            // An atomic stores a function of the old value and its operand.
            InstKind::Atomic { ptr, value, .. } => {
                let ty = func.values[*value].ty;
                (ptr, if u(value) | result_undefined != 0 { mask(ty.bits()) } else { 0 }, ty.store_size())
            }
            InstKind::CmpXchg { ptr, new, expected, .. } => {
                let ty = func.values[*expected].ty;
                (ptr, if u(new) | result_undefined != 0 { mask(ty.bits()) } else { 0 }, ty.store_size())
            }
            InstKind::MemSet { dst, byte, len } => {
                if u(byte) == 0 {
                    return;
                }
                let p = frame.vals[dst.index()].as_ptr();
                let n = frame.vals[len.index()].bits() as u64;
                if let (Some(obj), Ok(off)) = (p.obj, u64::try_from(p.offset)) {
                    self.memory.note_undefined_range(obj, off, n);
                }
                return;
            }
            _ => return,
        };
        if stored == 0 {
            return;
        }
        let p = frame.vals[ptr.index()].as_ptr();
        if let (Some(obj), Ok(off)) = (p.obj, u64::try_from(p.offset)) {
            self.memory.note_undefined(obj, off, &byte_flags(stored, len.min(16) as usize));
            // A plain store keeps the value's term with its bytes (an
            // atomic's stored value has none: it depends on the schedule).
            if let InstKind::Store { value, .. } = &data.kind {
                let term = frame.sym[value.index()];
                let in_bounds = self.memory.get(obj).is_some_and(|o| off.checked_add(len).is_some_and(|end| end <= o.size()));
                if in_bounds {
                    self.memory.tag(obj, off, len, term);
                }
            }
        }
    }
}

/// Whether the external function `name` only writes output: what a
/// program prints is not checked, so the values it prints, and whether it
/// prints them at all, decide no verdict. (`sprintf` and `snprintf` write
/// memory and are not output; `printf`'s `%n`, which would, is not
/// modelled.)
pub fn is_output_only(name: &str) -> bool {
    (name.contains("printf") && !name.contains("sprintf"))
        || matches!(name, "puts" | "fputs" | "putchar" | "fputc" | "putc" | "fwrite" | "perror" | "fflush")
}

/// Whether `kind` only writes output: a call of an output function, or
/// what verification ignores (the front end lowers `printf` to a `Nop`).
fn prints(kind: &lockstep_kir::InstKind) -> bool {
    match kind {
        lockstep_kir::InstKind::CallExternal { name, .. } => is_output_only(name),
        lockstep_kir::InstKind::Nop { .. } => true,
        _ => false,
    }
}

/// Whether a load through `ptr` of `result`'s type reads within a local
/// variable of `func`, from its start.
fn reads_within_local(func: &lockstep_kir::Function, ptr: lockstep_kir::ValueId, result: Option<lockstep_kir::ValueId>) -> bool {
    let lockstep_kir::ValueDef::LocalAddr(local) = func.values[ptr].def else { return false };
    let Some(result) = result else { return false };
    let bytes = (func.value_type(result).bits() as u64).div_ceil(8);
    func.locals.get(local).and_then(|l| l.size).is_some_and(|size| bytes <= size)
}

/// For a branch on an undetermined condition: when both ways only compute
/// or print (no memory access, except, on a way that prints, a read of one
/// of the function's own variables; no division, further branch, or call
/// other than output: `is_output_only`) before they meet in one block, the block they
/// meet in and the indices of its parameters that the two ways may set
/// differently. Taking either way then differs only in those parameters,
/// which become undetermined, and in what is printed, and the branch is no
/// use (`if (a[i] != b[i]) count++;` with undetermined elements makes
/// `count` undetermined, nothing more; `if (scanf(...) == 1) printf(...);`
/// prints or does not).
pub fn branch_join(
    func: &lockstep_kir::Function,
    then_dest: &lockstep_kir::BlockCall,
    else_dest: &lockstep_kir::BlockCall,
) -> Option<(lockstep_kir::BlockId, Vec<usize>)> {
    use lockstep_kir::{InstKind, Terminator};
    // The edges into the meeting block a way can take: the way itself, and
    // the jump at the end of its block when that block only computes.
    let edges = |dest: &lockstep_kir::BlockCall| {
        let mut out = vec![(dest.block, dest.args.clone())];
        let block = &func.blocks[dest.block];
        let allowed = |i: &lockstep_kir::InstId| {
            let data = &func.insts[*i];
            let kind = &data.kind;
            (kind.is_pure_computation() && !matches!(kind, InstKind::Binary { op, .. } if divides(*op)))
                || prints(kind)
                // The value output leaves open (`printf`'s result).
                || matches!(kind, InstKind::Havoc)
                || matches!(kind, InstKind::Load { ptr, .. } if reads_within_local(func, *ptr, data.result))
        };
        // Reading a variable of the function itself cannot fault and changes
        // nothing, but it is allowed only on a way that prints (`printf("%d",
        // k)` reads `k` when `&k` was passed to `scanf`): a way that only
        // computes from such reads (the right side of `c != 1 && c != 2`)
        // stays a use, so that the host's path condition keeps the whole
        // test (`host_path`), not a join's undetermined result.
        // (Once every instruction is allowed, any load is such a read.)
        let loads = |i: &lockstep_kir::InstId| matches!(func.insts[*i].kind, InstKind::Load { .. });
        let computes_only = block.insts.iter().all(allowed)
            && (!block.insts.iter().any(loads) || block.insts.iter().any(|i| prints(&func.insts[*i].kind)));
        if let (true, Terminator::Jump(call)) = (computes_only, &block.term) {
            if call.block != dest.block {
                out.push((call.block, call.args.clone()));
            }
        }
        out
    };
    let (a, b) = (edges(then_dest), edges(else_dest));
    for (block_a, args_a) in &a {
        for (block_b, args_b) in &b {
            if block_a != block_b {
                continue;
            }
            // Meeting in a way's own block (a triangle) is fine; meeting in
            // the block of both ways directly is a plain two-edge branch.
            let differing = args_a.iter().zip(args_b).enumerate().filter(|(_, (x, y))| x != y).map(|(i, _)| i).collect();
            return Some((*block_a, differing));
        }
    }
    None
}
