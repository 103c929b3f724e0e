//! CUDA's rules for the masks of warp operations, lowered to assertions.
//!
//! A `*_sync` warp operation (`__shfl*_sync`, `__ballot_sync` and the other
//! votes, `__syncwarp`, `__match_*_sync`, `__reduce_*_sync`) names in its
//! mask the lanes that take part. The Programming Guide leaves two misuses
//! undefined: a calling lane that is not in the mask it passes, and a
//! shuffle that reads from a lane outside the mask (whose value is then
//! undefined). Both are properties of one thread, so they are lowered here
//! to KIR assertions (`AnnotKind::WarpMask`) placed before the operation:
//! every engine (interpreter, finder, prover) checks them as it checks a
//! user's `assert`, and reports them as a misuse of the mask at the
//! operation's source location. Whether
//! the lane a shuffle reads from actually executes the shuffle relates two
//! threads; the interpreter and the prover check that on the `Warp`
//! instruction itself.

use lockstep_kir::*;

use crate::lower::CallLowering;

fn bin<L: CallLowering>(l: &mut L, op: BinOp, lhs: ValueId, rhs: ValueId) -> ValueId {
    let ty = l.type_of(lhs);
    l.emit_inst(InstKind::Binary { op, lhs, rhs }, Some(ty)).expect("result")
}

fn cmp<L: CallLowering>(l: &mut L, cc: IntCC, lhs: ValueId, rhs: ValueId) -> ValueId {
    l.emit_inst(InstKind::Icmp { cc, lhs, rhs }, Some(Type::BOOL)).expect("result")
}

/// Whether bit `lane` (taken modulo 32, so that the shift is always defined)
/// of `mask` is set.
fn in_mask<L: CallLowering>(l: &mut L, mask: ValueId, lane: ValueId) -> ValueId {
    let i32 = Type::I32;
    let thirty_one = l.int_const(i32, 31);
    let one = l.int_const(i32, 1);
    let zero = l.int_const(i32, 0);
    let amount = bin(l, BinOp::And, lane, thirty_one);
    let shifted = bin(l, BinOp::LShr, mask, amount);
    let bit = bin(l, BinOp::And, shifted, one);
    cmp(l, IntCC::Ne, bit, zero)
}

fn assert<L: CallLowering>(l: &mut L, cond: ValueId) {
    l.emit_inst(InstKind::Annot { kind: AnnotKind::WarpMask, args: vec![cond] }, None);
}

/// Asserts that the calling lane is in `mask` (every `*_sync` operation).
pub(crate) fn check_caller_in_mask<L: CallLowering>(l: &mut L, mask: ValueId) {
    let mask = l.coerce_to(mask, Type::I32);
    let lane = l.emit_inst(InstKind::Warp { op: WarpOp::LaneId, args: vec![] }, Some(Type::I32)).expect("result");
    let ok = in_mask(l, mask, lane);
    assert(l, ok);
}

/// The lane a shuffle reads from, and whether it reads another lane at all
/// (a source outside the caller's segment gives the caller its own value),
/// as the interpreter computes them: `width` is the segment width (a value
/// outside 1..=32 counts as 32), `arg` the source lane, delta or xor mask.
pub(crate) fn shuffle_source<L: CallLowering>(l: &mut L, op: WarpOp, arg: ValueId, width: ValueId) -> Option<(ValueId, ValueId)> {
    let i32 = Type::I32;
    let arg = l.coerce_to(arg, i32);
    let width = l.coerce_to(width, i32);
    let one = l.int_const(i32, 1);
    let thirty_two = l.int_const(i32, 32);
    let lane = l.emit_inst(InstKind::Warp { op: WarpOp::LaneId, args: vec![] }, Some(i32)).expect("result");
    // A width of 0 or above 32 is not a segment; the interpreter takes the
    // whole warp, and so does this (it also keeps the remainders below
    // from dividing by zero).
    let less_one = bin(l, BinOp::Sub, width, one);
    let valid = cmp(l, IntCC::Ult, less_one, thirty_two);
    let width = l.emit_inst(InstKind::Select { cond: valid, then_value: width, else_value: thirty_two }, Some(i32)).expect("result");
    let lane_in = bin(l, BinOp::URem, lane, width);
    let seg = bin(l, BinOp::Sub, lane, lane_in);
    let t = l.int_const(Type::BOOL, 1);
    Some(match op {
        WarpOp::Shfl => {
            let off = bin(l, BinOp::URem, arg, width);
            (bin(l, BinOp::Add, seg, off), t)
        }
        WarpOp::ShflUp => {
            let reads = cmp(l, IntCC::Uge, lane_in, arg);
            (bin(l, BinOp::Sub, lane, arg), reads)
        }
        WarpOp::ShflDown => {
            let room = bin(l, BinOp::Sub, width, lane_in);
            let reads = cmp(l, IntCC::Ult, arg, room);
            (bin(l, BinOp::Add, lane, arg), reads)
        }
        WarpOp::ShflXor => {
            let src = bin(l, BinOp::Xor, lane, arg);
            let src_in = bin(l, BinOp::URem, src, width);
            let src_seg = bin(l, BinOp::Sub, src, src_in);
            (src, cmp(l, IntCC::Eq, src_seg, seg))
        }
        _ => return None,
    })
}

/// Asserts the caller and, for a shuffle, the lane it reads from are in
/// `mask`. `args` are the `Warp` instruction's: mask, value, source lane
/// (or delta, or xor mask), width.
pub(crate) fn check_shuffle<L: CallLowering>(l: &mut L, op: WarpOp, args: &[ValueId]) {
    let Some(&mask) = args.first() else { return };
    check_caller_in_mask(l, mask);
    let (Some(&arg), Some(&width)) = (args.get(2), args.get(3)) else { return };
    let mask = l.coerce_to(mask, Type::I32);
    let Some((src, reads)) = shuffle_source(l, op, arg, width) else { return };
    let src_ok = in_mask(l, mask, src);
    let not_reads = {
        let t = l.int_const(Type::BOOL, 1);
        bin(l, BinOp::Xor, reads, t)
    };
    let ok = bin(l, BinOp::Or, not_reads, src_ok);
    assert(l, ok);
}

/// The mask checks of a warp operation lowered to `Warp { op, args }`:
/// shuffles get both, votes the caller's.
pub(crate) fn check_warp_op<L: CallLowering>(l: &mut L, op: WarpOp, args: &[ValueId]) {
    match op {
        WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => check_shuffle(l, op, args),
        WarpOp::Ballot | WarpOp::All | WarpOp::Any | WarpOp::MatchAny => {
            if let Some(&mask) = args.first() {
                check_caller_in_mask(l, mask);
            }
        }
        WarpOp::ActiveMask | WarpOp::LaneId => {}
    }
}
