//! Tests of `cfg` and `dom` on hand-written KIR.

mod common;

use common::*;
use lockstep_analysis::dom::ControlDeps;
use lockstep_analysis::{Cfg, DomTree, PostDomTree};

/// An if-then-else diamond followed by a loop, plus an unreachable block.
const DIAMOND: &str = r#"
language cuda
kernel fn0 "k" link "k" (v0 "n": i32) entry block0 {
  v1: i32 = const 0
  v2: i32 = const 1
block0:
  v3: i1 = icmp slt v0, v1
  br v3, block1, block2
block1:
  jump block3(v1)
block2:
  jump block3(v2)
block3(v4: i32):
  jump block4(v4)
block4(v5: i32):
  v6: i1 = icmp slt v5, v0
  v7: i32 = add v5, v2
  br v6, block4(v7), block5
block5:
  return
block6:
  jump block5
}
"#;

#[test]
fn cfg_edges_order_and_reachability() {
    let m = module(DIAMOND);
    let (_, f) = func(&m, "k");
    let cfg = Cfg::compute(f);
    assert_eq!(cfg.succs(b(0)), blocks(&[1, 2]).as_slice());
    assert_eq!(cfg.preds(b(3)), blocks(&[1, 2]).as_slice());
    // block4 loops to itself; its predecessors are block3 and block4.
    assert_eq!(cfg.preds(b(4)), blocks(&[3, 4]).as_slice());
    // The dead block6 is a predecessor of block5 but not a reachable one.
    assert_eq!(cfg.preds(b(5)), blocks(&[4, 6]).as_slice());
    assert_eq!(cfg.reachable_preds(b(5)).collect::<Vec<_>>(), blocks(&[4]));
    assert!(!cfg.is_reachable(b(6)));
    assert_eq!(cfg.reachable_blocks(), blocks(&[0, 1, 2, 3, 4, 5]));
    let rpo = cfg.rpo();
    assert_eq!(rpo[0], b(0));
    assert_eq!(rpo.len(), 6);
    // Every forward edge goes forward in reverse postorder.
    for &x in rpo {
        for &s in cfg.succs(x) {
            if !(x == b(4) && s == b(4)) {
                assert!(cfg.rpo_index(x) < cfg.rpo_index(s), "{x} -> {s}");
            }
        }
    }
    assert!(cfg.is_retreating(b(4), b(4)));
    assert_eq!(cfg.exit_blocks(f).collect::<Vec<_>>(), blocks(&[5]));
}

#[test]
fn dominators_and_post_dominators_of_a_diamond() {
    let m = module(DIAMOND);
    let (_, f) = func(&m, "k");
    let cfg = Cfg::compute(f);
    let dom = DomTree::compute(&cfg);
    assert_eq!(dom.idom(b(0)), None);
    assert_eq!(dom.idom(b(1)), Some(b(0)));
    assert_eq!(dom.idom(b(3)), Some(b(0)));
    assert_eq!(dom.idom(b(5)), Some(b(4)));
    assert!(dom.dominates(b(0), b(5)));
    assert!(dom.dominates(b(3), b(3)));
    assert!(!dom.strictly_dominates(b(3), b(3)));
    assert!(!dom.dominates(b(1), b(3)));
    // Unreachable blocks take no part in dominance.
    assert!(!dom.dominates(b(6), b(6)));
    assert!(!dom.dominates(b(0), b(6)));
    assert_eq!(dom.idom(b(6)), None);
    assert_eq!(dom.dominators(b(5)).collect::<Vec<_>>(), blocks(&[5, 4, 3, 0]));
    let mut kids: Vec<_> = dom.children(b(0)).collect();
    kids.sort();
    assert_eq!(kids, blocks(&[1, 2, 3]));

    let pdom = PostDomTree::compute(f, &cfg);
    // The diamond reconverges at block3.
    assert_eq!(pdom.ipdom(b(0)), Some(b(3)));
    assert_eq!(pdom.ipdom(b(1)), Some(b(3)));
    assert_eq!(pdom.ipdom(b(4)), Some(b(5)));
    assert_eq!(pdom.ipdom(b(5)), None);
    assert!(pdom.post_dominates(b(5), b(0)));
    assert!(pdom.post_dominates(b(3), b(2)));
    assert!(!pdom.post_dominates(b(1), b(0)));

    let cd = ControlDeps::compute(&cfg, &pdom);
    assert_eq!(cd.deps(b(1)), blocks(&[0]).as_slice());
    assert_eq!(cd.deps(b(2)), blocks(&[0]).as_slice());
    assert!(cd.deps(b(3)).is_empty());
    // The loop test controls whether block4 runs again.
    assert_eq!(cd.deps(b(4)), blocks(&[4]).as_slice());
}

#[test]
fn early_return_has_no_reconvergence_point() {
    // `if (c) return; ...`: the arms never meet before the exit.
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" () entry block0 {
  v1: i32 = const 4
block0:
  v0: i32 = builtin local_id x
  v2: i1 = icmp ult v0, v1
  br v2, block1, block2
block1:
  return
block2:
  barrier group shared
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let cfg = Cfg::compute(f);
    let pdom = PostDomTree::compute(f, &cfg);
    assert_eq!(pdom.ipdom(b(0)), None);
    assert!(pdom.reaches_exit(b(0)));
    assert!(!pdom.post_dominates(b(2), b(0)));
}

#[test]
fn infinite_loops_count_as_exits_for_post_dominance() {
    let m = module(
        r#"
language cuda
kernel fn0 "k" link "k" (v0 "c": i1) entry block0 {
block0:
  br v0, block1, block2
block1:
  jump block1
block2:
  return
}
"#,
    );
    let (_, f) = func(&m, "k");
    let cfg = Cfg::compute(f);
    let pdom = PostDomTree::compute(f, &cfg);
    assert!(!pdom.reaches_exit(b(1)));
    assert!(pdom.reaches_exit(b(0)));
    assert_eq!(pdom.ipdom(b(1)), None);
    assert!(pdom.post_dominates(b(1), b(1)));
    assert!(!pdom.post_dominates(b(2), b(1)));
    // Threads spinning in block1 never reach block2, so block2 is not where
    // the branch reconverges.
    assert_eq!(pdom.ipdom(b(0)), None);
    assert!(!pdom.post_dominates(b(2), b(0)));
}

#[test]
fn dominators_agree_with_the_verifier_on_real_cuda() {
    for name in ["racy_reduction.kir", "calls.kir"] {
        let m = fixture(name);
        for (_, f) in m.functions.iter() {
            let cfg = Cfg::compute(f);
            let ours = DomTree::compute(&cfg);
            let theirs = lockstep_kir::Dominators::compute(f);
            for x in cfg.blocks() {
                assert_eq!(ours.idom(x), theirs.idom(x), "{name} {} {x}", f.name);
                for y in cfg.blocks() {
                    assert_eq!(ours.dominates(x, y), theirs.dominates(x, y), "{name} {x} {y}");
                }
            }
        }
    }
}
