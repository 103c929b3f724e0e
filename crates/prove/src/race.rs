//! Quantifier-free race instrumentation (GPUVerify, section 4.2 of the seed
//! chapter): for every tracked memory object and access kind, thread 1 keeps
//! a log of at most one of its accesses — whether one is logged
//! (`READ_HAS_OCCURRED_M`), its byte offset, width and site — chosen
//! nondeterministically among its accesses since the last barrier. Thread 2
//! checks each of its accesses against the logs. Because the two threads are
//! arbitrary and symmetric, every racing pair is covered.
//!
//! Beyond GPUVerify's variables, each log also keeps *ghost* copies of the
//! loop-header parameters (of thread 1) current at the logged access. They
//! let invariants relate a logged offset to the loop counters that produced
//! it (`offset == f(ghost i)`, with `ghost i ≡ tid (mod stride)`), which is
//! how strided and loop-carried access patterns are proved race-free.
//!
//! Benign races (GPUVerify's `WRITE_READ_BENIGN_FLAG`, in the form the
//! interpreter and the finder share): two writes of the same value to the
//! same bytes by stores whose values may be benign do not race, and a read
//! does not race with such a write when its own thread's latest write of
//! those bytes since its last barrier was such a store of the same value.
//! Each thread's latest write of each tracked object since its last
//! barrier is kept in an [`Own`] slot; a read log records whether thread
//! 1's slot covered the logged read (and the value it held), so that a
//! later write by thread 2 can be checked against it. Under the equality
//! abstraction a write that leaves its bytes as they were races with no
//! read either (`benign`); a write log records whether it was one.

use lockstep_smt::{Sort, TermId, TermStore};

/// The kinds of access, which are also the kinds of log.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AccessKind {
    Read,
    Write,
    Atomic,
}

impl AccessKind {
    pub const ALL: [AccessKind; 3] = [AccessKind::Read, AccessKind::Write, AccessKind::Atomic];

    pub fn index(self) -> usize {
        match self {
            AccessKind::Read => 0,
            AccessKind::Write => 1,
            AccessKind::Atomic => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
        }
    }

    /// The logged kinds an access of this kind races with: reads race with
    /// writes and atomics, writes with everything, atomics with plain
    /// accesses (atomics do not race with atomics).
    pub fn conflicts(self) -> &'static [AccessKind] {
        match self {
            AccessKind::Read => &[AccessKind::Write, AccessKind::Atomic],
            AccessKind::Write => &[AccessKind::Read, AccessKind::Write, AccessKind::Atomic],
            AccessKind::Atomic => &[AccessKind::Read, AccessKind::Write],
        }
    }
}

/// One log: the state of `*_HAS_OCCURRED_M`, `*_OFFSET_M` and friends.
/// Two logs are equal when they are the same terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Log {
    /// Bool: an access is logged.
    pub has: TermId,
    /// bv64: its byte offset.
    pub off: TermId,
    /// bv64: its width in bytes.
    pub width: TermId,
    /// bv32: the (inlined) instruction that logged it.
    pub site: TermId,
    /// The value written (bv80: pointers are their 16-bit base above their
    /// 64-bit offset), for write logs whose site may take part in a benign
    /// race (see `Enc::benign_sites`); for read logs, the value thread 1's
    /// own latest write left at the logged read's bytes, when `own`.
    pub val: TermId,
    /// Bool, read logs only: thread 1 itself wrote exactly the logged read's
    /// bytes since its last barrier, by a store that may take part in a
    /// benign race, leaving `val` (see [`Own`]).
    pub own: TermId,
    /// Bool, write logs only: the logged write left its bytes as they were
    /// (under the equality abstraction, it wrote back the contents it found
    /// there; see `benign`), so it races with no read.
    pub silent: TermId,
    /// Ghost copies of the loop-header parameters at the logged access, one
    /// per ghost slot (see the module docs).
    pub ghosts: Vec<TermId>,
}

/// The logs of every tracked object, indexed by object then access kind.
#[derive(Clone, Debug)]
pub struct LogState {
    pub objs: Vec<[Log; 3]>,
    /// Per `__syncwarp` inside a loop, how many times each thread has
    /// executed it (bv32): two threads of one warp synchronise there only
    /// at the same occurrence (the interpreter's warp instances), which the
    /// loop cut would otherwise lose. Loop state, like the logs.
    pub warp: Vec<(lockstep_kir::InstId, [TermId; 2])>,
}

impl LogState {
    /// All terms of the state, in a fixed order (for substitution).
    pub fn terms(&self) -> Vec<TermId> {
        let mut out = Vec::new();
        for logs in &self.objs {
            for log in logs {
                out.extend([log.has, log.off, log.width, log.site, log.val, log.own, log.silent]);
                out.extend(log.ghosts.iter().copied());
            }
        }
        for (_, c) in &self.warp {
            out.extend(c.iter().copied());
        }
        out
    }

    /// A fresh, unconstrained state of the same shape. Logged values (and
    /// the own-write flags of read logs) only change in write and read
    /// logs, and only when `values_change` (some store may be part of a
    /// benign race); otherwise they are kept.
    pub fn havoc(&self, st: &mut TermStore, prefix: &str, values_change: bool) -> LogState {
        let objs = self
            .objs
            .iter()
            .enumerate()
            .map(|(m, logs)| {
                let mk = |st: &mut TermStore, k: usize, log: &Log| Log {
                    has: st.fresh_const(&format!("{prefix}_has_{m}_{k}"), Sort::Bool),
                    off: st.fresh_const(&format!("{prefix}_off_{m}_{k}"), Sort::bv(64)),
                    width: st.fresh_const(&format!("{prefix}_w_{m}_{k}"), Sort::bv(64)),
                    site: st.fresh_const(&format!("{prefix}_site_{m}_{k}"), Sort::bv(32)),
                    val: if values_change && k != AccessKind::Atomic.index() {
                        let sort = st.sort_of(log.val).clone();
                        st.fresh_const(&format!("{prefix}_val_{m}_{k}"), sort)
                    } else {
                        log.val
                    },
                    own: if values_change && k == AccessKind::Read.index() {
                        st.fresh_const(&format!("{prefix}_own_{m}_{k}"), Sort::Bool)
                    } else {
                        log.own
                    },
                    silent: if values_change && k == AccessKind::Write.index() {
                        st.fresh_const(&format!("{prefix}_silent_{m}_{k}"), Sort::Bool)
                    } else {
                        log.silent
                    },
                    ghosts: log
                        .ghosts
                        .iter()
                        .map(|&g| {
                            let sort = st.sort_of(g).clone();
                            st.fresh_const(&format!("{prefix}_ghost_{m}_{k}"), sort)
                        })
                        .collect(),
                };
                [mk(st, 0, &logs[0]), mk(st, 1, &logs[1]), mk(st, 2, &logs[2])]
            })
            .collect();
        let warp = self
            .warp
            .iter()
            .enumerate()
            .map(|(w, (i, _))| {
                let c = [
                    st.fresh_const(&format!("{prefix}_warpocc_{w}_t1"), Sort::bv(32)),
                    st.fresh_const(&format!("{prefix}_warpocc_{w}_t2"), Sort::bv(32)),
                ];
                (*i, c)
            })
            .collect();
        LogState { objs, warp }
    }
}

/// One thread's latest write of a tracked object since its last barrier,
/// when it was a store that may take part in a benign race: `has` (Bool),
/// its byte offset and width (bv64) and the value it wrote (bv80, as
/// `Log::val`). Any other write by the thread to the object, and any
/// barrier, clears `has`. The slot only ever describes the thread's very
/// latest write of the object, so when it covers a read's bytes exactly,
/// those bytes hold its value unless another thread wrote them since.
#[derive(Clone, Debug)]
pub struct Own {
    pub has: TermId,
    pub off: TermId,
    pub width: TermId,
    pub val: TermId,
}

/// Whether the byte ranges `[o1, o1 + w1)` and `[o2, o2 + w2)` overlap,
/// modulo 2^64 (exact for wrapped offsets too).
///
/// When `w2` is a constant power of two `w` and both accesses are `w`
/// bytes wide at offsets that are multiples of `w` (the usual case: two
/// elements of one array), the ranges overlap exactly when the offsets are
/// equal, and the formula says so in a branch of its own. That is the same
/// relation, but solvers refute `4 * i == 4 * j` from `i != j` much faster
/// than the two 64-bit subtractions and comparisons of the general formula,
/// and the general formula's cost grows with the launch's id bounds (the
/// grid-stride loop race check of `bench/kernels/race_free.cu` at 1024
/// threads by 65535 groups: z3 took 0.23 s with it alone, 0.08 s with the
/// equality). The alignment of an offset whose shape shows it
/// (`4 * zext(i)`) is folded away when the term is built.
///
/// With `exact_empty`, an empty range is no access and overlaps nothing.
/// Without it, an empty range inside the other still counts as
/// overlapping: a cheaper formula, imprecise only for zero-length accesses
/// (an over-approximation, so sound). Kernels with OpenCL async copies need
/// the exact one: the front-end gives the work-items other than the first
/// zero-byte shares of each copy (see `async_copy`), which must not race
/// with the first one's.
pub fn overlap(st: &mut TermStore, o1: TermId, w1: TermId, o2: TermId, w2: TermId, exact_empty: bool) -> TermId {
    let d21 = st.bvsub(o2, o1);
    let d12 = st.bvsub(o1, o2);
    let a = st.bvult(d21, w1);
    let b = st.bvult(d12, w2);
    let mut either = st.or(&[a, b]);
    let granule = st.as_bv(w2).and_then(|v| v.to_u128()).filter(|w| w.is_power_of_two() && *w > 1);
    if let Some(w) = granule {
        let mask = st.bv_const(64, w - 1);
        let zero = st.bv_const(64, 0);
        let m1 = st.bvand(o1, mask);
        let m2 = st.bvand(o2, mask);
        let a1 = st.eq(m1, zero);
        let a2 = st.eq(m2, zero);
        let same_w = st.eq(w1, w2);
        let g = st.and(&[same_w, a1, a2]);
        let same = st.eq(o1, o2);
        either = st.ite(g, same, either);
    }
    if !exact_empty {
        return either;
    }
    let zero = st.bv_const(64, 0);
    let e1 = st.eq(w1, zero);
    let e2 = st.eq(w2, zero);
    let n1 = st.not(e1);
    let n2 = st.not(e2);
    st.and(&[n1, n2, either])
}
