//! Analyses of KIR that the verification engines share.
//!
//! Every analysis reads a `Function` (and, where memory objects or callees
//! matter, its `Module`) and returns its facts in side tables
//! (`SecondaryMap`s keyed by KIR ids) or small structs beside the IR; none of
//! them writes into the IR. The one transformation, `inline` (with its
//! variant `inline::in_place`), builds a new `Function` and leaves its input
//! untouched.
//!
//! The analyses build on each other in this order:
//!
//! - `cfg`: successors, predecessors, reverse postorder, reachability;
//! - `dom`: dominator and post-dominator trees over a `Cfg`;
//! - `loops`: natural loops, their nesting, and irreducible regions;
//! - `block_order`: the three above as an encoder walks them (reverse
//!   postorder positions, reachable predecessors, loops numbered outer
//!   first);
//! - `loop_shapes`: each natural loop's shape for engines that run one
//!   arbitrary iteration (a barrier, writes, one exit at the header);
//! - `launch_steps`: loop counters stepped by the launch's sizes (block- and
//!   grid-stride loops);
//! - `uniformity`: which values and branches are the same in every thread;
//! - `pointers`: the parameter, global or local a pointer is derived from;
//! - `atomics`: the counters that only grow by atomic additions;
//! - `memory`, `relevance`: the prover's pre-analyses (read-only by-value
//!   arguments, written memory, read consistency, constant-initialised
//!   locals, control relevance);
//! - `inline`: replaces every `Call` of a kernel by the callee's body, so
//!   that the analyses above see the whole kernel; `inline::in_place` is the
//!   prover's variant, which keeps the kernel's ids and checks callees'
//!   postconditions instead of assuming them.
//!
//! Invariant: the analyses accept any function that passes
//! `lockstep_kir::verify_function` and never panic on it. Facts about blocks
//! that are unreachable from the entry are defined but trivial (such blocks
//! have no dominators, belong to no loop, and are never divergent).

pub mod atomics;
pub mod block_order;
pub mod cfg;
pub mod dimensions;
pub mod dom;
pub mod ghost;
pub mod inline;
pub mod input_loops;
pub mod launch_steps;
pub mod loop_shapes;
pub mod loops;
pub mod memory;
pub mod observe;
pub mod pointers;
pub mod relevance;
pub mod uniformity;
pub mod unspecified;

pub use cfg::Cfg;
pub use dom::{DomTree, PostDomTree};
pub use inline::{inline_calls, inline_module, DroppedEnsures, InlineError, Inlined};
pub use loops::{IrreducibleRegion, Loop, LoopId, LoopInfo};
pub use uniformity::{BarrierSite, Uniformity, UniformityInfo};
