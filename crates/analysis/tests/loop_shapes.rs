//! Tests of `loop_shapes`: which loops are summarisable (no barrier, no
//! writes, one exit at the header), iterable (the same, with writes) or
//! the single barrier loop.

mod common;

use common::*;
use lockstep_analysis::loop_shapes::LoopShapes;

/// A row loop that writes (`for r < m: { for k < n: s += a[k]; p[r] = s }`)
/// around an inner loop that only reads, then a loop with a barrier.
const ROWS_THEN_BARRIER: &str = r#"
language cuda
kernel fn0 "k" link "k" (v0 "m": i32, v1 "n": i32, v2 "p": ptr.global) entry block0 {
  v3: i32 = const 0
  v4: i32 = const 1
block0:
  jump block1(v3)
block1(v5 "r": i32):
  v6: i1 = icmp slt v5, v0
  br v6, block2(v3, v3), block5(v3)
block2(v7 "k": i32, v8 "s": i32):
  v9: i1 = icmp slt v7, v1
  br v9, block3, block4
block3:
  v10: i32 = add v8, v7
  v11: i32 = add v7, v4
  jump block2(v11, v10)
block4:
  v12: i64 = sext v5
  v13: ptr.global = ptradd v2, v12
  store v13, v8 align 4
  v14: i32 = add v5, v4
  jump block1(v14)
block5(v15 "i": i32):
  v16: i1 = icmp slt v15, v0
  br v16, block6, block7
block6:
  barrier group shared
  v17: i32 = add v15, v4
  jump block5(v17)
block7:
  return
}
"#;

#[test]
fn rows_inner_and_barrier_loops_are_told_apart() {
    let m = module(ROWS_THEN_BARRIER);
    let (_, f) = func(&m, "k");
    let shapes = LoopShapes::compute(f);
    assert_eq!(shapes.loops().len(), 3);
    // The inner loop only reads: summarisable, not iterable.
    let pure = shapes.pure_single_exit();
    assert_eq!(pure.len(), 1);
    assert!(pure[&b(2)].contains(&b(3)));
    // The row loop writes: iterable, with the inner loop's blocks.
    let writing = shapes.writing_single_exit();
    assert_eq!(writing.len(), 1);
    let rows = &writing[&b(1)];
    for blk in [1, 2, 3, 4] {
        assert!(rows.contains(&b(blk)), "block{blk}");
    }
    // The loop with a barrier is neither, and is the single barrier loop.
    assert!(!pure.contains_key(&b(5)) && !writing.contains_key(&b(5)));
    let lp = shapes.single_barrier_loop().expect("one barrier loop");
    assert_eq!(lp.header, b(5));
}

#[test]
fn a_loop_left_from_its_body_is_neither_summarisable_nor_iterable() {
    // for (i = 0; i < n; i++) { if (p[i] == 0) break; p[i] = 1; }: the
    // `break` leaves from the body.
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32, v1 "p": ptr.global) entry block0 {
  v2: i32 = const 0
  v3: i32 = const 1
block0:
  jump block1(v2)
block1(v4 "i": i32):
  v5: i1 = icmp slt v4, v0
  br v5, block2, block4
block2:
  v6: i64 = sext v4
  v7: ptr.global = ptradd v1, v6
  v8: i32 = load v7 align 4
  v9: i1 = icmp eq v8, v2
  br v9, block4, block3
block3:
  store v7, v3 align 4
  v10: i32 = add v4, v3
  jump block1(v10)
block4:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let shapes = LoopShapes::compute(f);
    assert_eq!(shapes.loops().len(), 1);
    assert!(!shapes.loops()[0].exits_at_header);
    assert!(shapes.pure_single_exit().is_empty());
    assert!(shapes.writing_single_exit().is_empty());
    assert!(shapes.single_barrier_loop().is_none());
}
