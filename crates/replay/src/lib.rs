//! lockstep-replay: the concrete interpreter of KIR.
//!
//! It runs a kernel for every thread of a launch, with concrete arguments
//! and memory, and reports what goes wrong: data races (intra-group on
//! shared and global memory, inter-group on global memory), barrier
//! divergence, out-of-bounds and null accesses, division by zero, failing
//! assertions, writes to constant memory and `unreachable`. It is the
//! reference semantics the symbolic engines are tested against, and the
//! tool that confirms their witnesses: a witness is confirmed when replaying
//! its launch, arguments and memory reproduces the violation.
//!
//! Races are found independently of the interpreter's schedule (see
//! `races`), so one deterministic run decides whether the given inputs
//! race. Every replay terminates: per-thread and total step budgets turn
//! runaway loops into an incomplete result.
//!
//! ```
//! use lockstep_kir::{parse_module, MemSpace};
//! use lockstep_replay::{replay, Launch, Memory, ReplayOptions, Val};
//!
//! let module = parse_module(r#"
//! language cuda
//! kernel fn0 "k" link "k" (v0 "out": ptr.global) entry block0 {
//!   v1: i64 = const 4
//! block0:
//!   v2: i32 = builtin local_id x
//!   v3: i64 = zext v2
//!   v4: i64 = mul v3, v1
//!   v5: ptr.global = ptradd v0, v4
//!   store v5, v2 align 4
//!   return
//! }
//! "#).unwrap();
//! let kernel = module.function_by_name("k").unwrap();
//! let mut memory = Memory::new();
//! let out = memory.alloc(MemSpace::Global, 4 * 8, None);
//! let result = replay(&module, kernel, &Launch::linear(8, 1), &[out], memory, &ReplayOptions::default()).unwrap();
//! assert!(result.violations.is_empty() && result.completed);
//! let obj = result.memory.target(out).unwrap();
//! assert_eq!(result.memory.read_i32s(obj), vec![0, 1, 2, 3, 4, 5, 6, 7]);
//! ```
//!
//! Modules:
//! - `value`: concrete values and the pointer encoding;
//! - `memory`: memory objects, created by the caller and by the replay;
//! - `options`: the launch, the options, `havoc` oracles;
//! - `result`: violations and the replay's outcome;
//! - `exec`: execution of one thread (instruction semantics);
//! - `sched`: the schedule, barriers and warp intrinsics;
//! - `races`: the schedule-independent race detector;
//! - `async_copy`: OpenCL's asynchronous group copies and their events;
//! - `math`: external (math library) functions.

mod async_copy;
pub mod definedness;
mod exec;
pub mod half;
mod observe;
pub mod pages;
pub mod terms;
pub mod math;
pub mod memory;
pub mod options;
mod races;
pub mod result;
mod sched;
pub mod value;

pub use memory::{Memory, ObjOrigin, Object};
pub use options::{ExternalCall, ExternalOutcome, HavocOracle, HavocSite, Launch, ReplayOptions, SeededHavoc};
pub use result::{
    Arrival, IncompleteReason, Loc, RaceAccess, ReplayError, ReplayResult, ReplayViolation,
    ThreadEvent, ThreadId, ViolationKind,
};
pub use sched::{replay, replay_with_oracle};
pub use value::{ObjId, Pointer, Val};
