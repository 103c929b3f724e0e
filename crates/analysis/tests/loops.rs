//! Tests of `loops`: natural loops, nesting, latches, exits, irreducibility.

mod common;

use common::*;
use lockstep_analysis::loops::analyze;
use lockstep_kir::BlockId;

fn sorted(bs: &[BlockId]) -> Vec<BlockId> {
    let mut out = bs.to_vec();
    out.sort();
    out
}

#[test]
fn nested_loops_with_carried_values_writes_and_barriers() {
    // for (i = 0; i < n; i++) { for (j = 0; j < n; j++) { p[j] = i; } barrier; }
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
  br v5, block2(v2), block5
block2(v6 "j": i32):
  v7: i1 = icmp slt v6, v0
  br v7, block3, block4
block3:
  v8: i64 = sext v6
  v9: ptr.global = ptradd v1, v8
  store v9, v4 align 4
  v10: i32 = add v6, v3
  jump block2(v10)
block4:
  barrier group shared
  v11: i32 = add v4, v3
  jump block1(v11)
block5:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let (_, _, li) = analyze(f);
    assert!(li.is_reducible());
    assert_eq!(li.len(), 2);
    let outer = li.loop_with_header(b(1)).expect("outer loop");
    let inner = li.loop_with_header(b(2)).expect("inner loop");
    let (o, i) = (li.get(outer), li.get(inner));
    // Blocks are in reverse postorder: the header first.
    assert_eq!(o.blocks[0], b(1));
    assert_eq!(sorted(&o.blocks), blocks(&[1, 2, 3, 4]));
    assert_eq!(i.blocks, blocks(&[2, 3]));
    assert_eq!(o.latches, blocks(&[4]));
    assert_eq!(i.latches, blocks(&[3]));
    assert_eq!(o.exits, vec![(b(1), b(5))]);
    assert_eq!(i.exits, vec![(b(2), b(4))]);
    assert_eq!((o.parent, o.depth), (None, 1));
    assert_eq!((i.parent, i.depth), (Some(outer), 2));
    assert_eq!(o.carried, vec![v(4)]);
    assert_eq!(i.carried, vec![v(6)]);
    // The store is in both loops; the barrier only in the outer one.
    assert_eq!(o.writes.len(), 1);
    assert_eq!(i.writes, o.writes);
    assert_eq!(o.barriers.len(), 1);
    assert!(i.barriers.is_empty());
    assert_eq!(li.innermost(b(3)), Some(inner));
    assert_eq!(li.innermost(b(4)), Some(outer));
    assert_eq!(li.innermost(b(5)), None);
    assert_eq!(li.depth(b(3)), 2);
    assert_eq!(li.depth(b(0)), 0);
    assert_eq!(li.ancestors(inner).collect::<Vec<_>>(), vec![inner, outer]);
}

#[test]
fn loop_with_two_latches_is_one_loop() {
    // while (i < n) { if (c) { i += 1; continue; } i += 2; }
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32, v1 "c": i1) entry block0 {
  v2: i32 = const 0
  v3: i32 = const 1
  v4: i32 = const 2
block0:
  jump block1(v2)
block1(v5: i32):
  v6: i1 = icmp slt v5, v0
  br v6, block2, block5
block2:
  br v1, block3, block4
block3:
  v7: i32 = add v5, v3
  jump block1(v7)
block4:
  v8: i32 = add v5, v4
  jump block1(v8)
block5:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let (_, _, li) = analyze(f);
    assert_eq!(li.len(), 1);
    let (_, l) = li.loops().next().unwrap();
    assert_eq!(l.header, b(1));
    assert_eq!(sorted(&l.latches), blocks(&[3, 4]));
    assert_eq!(l.blocks.len(), 4);
    assert_eq!(l.exits, vec![(b(1), b(5))]);
    assert_eq!(l.carried, vec![v(5)]);
}

#[test]
fn while_loop_with_break_has_two_exits() {
    // while (i < n) { if (p[i] == 0) break; i++; } return i;
    let m = module(
        r#"
language cuda
device fn0 "f" link "f" (v0 "n": i32, v1 "p": ptr.global) -> i32 entry block0 {
  v2: i32 = const 0
  v3: i32 = const 1
block0:
  jump block1(v2)
block1(v4: i32):
  v5: i1 = icmp slt v4, v0
  br v5, block2, block4(v4)
block2:
  v6: i64 = sext v4
  v7: ptr.global = ptradd v1, v6
  v8: i32 = load v7 align 4
  v9: i1 = icmp eq v8, v2
  br v9, block4(v4), block3
block3:
  v10: i32 = add v4, v3
  jump block1(v10)
block4(v11: i32):
  return v11
}
"#,
    );
    let (_, f) = func(&m, "f");
    let (_, _, li) = analyze(f);
    assert_eq!(li.len(), 1);
    let (_, l) = li.loops().next().unwrap();
    assert_eq!(l.blocks, blocks(&[1, 2, 3]));
    assert_eq!(l.latches, blocks(&[3]));
    assert_eq!(l.exits, vec![(b(1), b(4)), (b(2), b(4))]);
    assert!(l.writes.is_empty());
}

#[test]
fn irreducible_cycle_is_reported_not_forced_into_a_loop() {
    // Two entries into the cycle block1 <-> block2.
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "c": i1, v1 "d": i1) entry block0 {
block0:
  br v0, block1, block2
block1:
  br v1, block2, block3
block2:
  jump block1
block3:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let (_, _, li) = analyze(f);
    assert!(!li.is_reducible());
    assert!(li.is_empty(), "neither block of the cycle dominates the other");
    let regions = li.irreducible();
    assert_eq!(regions.len(), 1);
    let mut bs = regions[0].blocks.clone();
    bs.sort();
    assert_eq!(bs, blocks(&[1, 2]));
    let mut entries = regions[0].entries.clone();
    entries.sort();
    assert_eq!(entries, blocks(&[1, 2]));
    assert_eq!(regions[0].retreating_edges.len(), 1);
}

#[test]
fn self_loop_and_unreachable_cycle() {
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "c": i1) entry block0 {
block0:
  jump block1
block1:
  br v0, block1, block2
block2:
  return
block3:
  jump block4
block4:
  jump block3
}
"#,
    );
    let (_, f) = func(&m, "k");
    let (_, _, li) = analyze(f);
    assert!(li.is_reducible());
    assert_eq!(li.len(), 1, "the dead cycle is no loop");
    let (_, l) = li.loops().next().unwrap();
    assert_eq!((l.header, l.latches.clone(), l.blocks.clone()), (b(1), blocks(&[1]), blocks(&[1])));
    assert_eq!(li.innermost(b(3)), None);
}

#[test]
fn loops_of_real_cuda() {
    // Kernel `k` of calls.cu: for i { for j { if (s[j] == 7) break; ... } }
    let m = fixture("calls.kir");
    let (_, f) = func(&m, "k");
    let (_, _, li) = analyze(f);
    assert!(li.is_reducible());
    assert_eq!(li.len(), 2);
    let outer = li.loop_with_header(b(3)).unwrap();
    let inner = li.loop_with_header(b(6)).unwrap();
    assert_eq!(li.get(inner).parent, Some(outer));
    assert_eq!(li.get(inner).latches, blocks(&[9]));
    assert_eq!(li.get(outer).latches, blocks(&[12]));
    // The inner loop exits by its test and by the `break`.
    let mut exits = li.get(inner).exits.clone();
    exits.sort();
    assert_eq!(exits, vec![(b(6), b(11)), (b(7), b(10))]);
    assert_eq!(li.get(outer).carried, vec![v(3)]);
    assert_eq!(li.get(inner).carried, vec![v(4)]);
    assert_eq!(li.get(inner).writes.len(), 1);

    // racy_reduction.cu: one loop, no barrier inside it.
    let m = fixture("racy_reduction.kir");
    let (_, f) = func(&m, "sum");
    let (_, _, li) = analyze(f);
    assert_eq!(li.len(), 1);
    let (_, l) = li.loops().next().unwrap();
    assert_eq!(l.header, b(1));
    assert!(l.barriers.is_empty());
    assert_eq!(l.writes.len(), 1);
}
