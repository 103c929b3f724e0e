//! The data types of KIR.
//!
//! KIR is a small SSA IR in the style of Cranelift: a `Module` owns
//! functions, memory objects and a source-file table; a `Function` owns its
//! blocks, instructions and values in typed arenas. Values are bit-vectors of
//! a fixed width, floats (opaque to the race engines), or pointers into a
//! named memory space. Control flow joins through block parameters, not phi
//! instructions. Everything GPU-specific — thread ids, barriers, atomics, warp
//! intrinsics, verification annotations — is a first-class instruction, so no
//! engine ever has to recognise a mangled function name.
//!
//! Source locations live in side tables (`Function::inst_locs`,
//! `Block::term_loc`) built from debug information by the front-end.

use crate::entity::{PrimaryMap, SecondaryMap};
use crate::entity;

entity!(
    /// A function (kernel or device function) of a module.
    FuncId, "fn");
entity!(
    /// A module-level memory object: `__shared__`/`__local`,
    /// `__device__`/`__global`, or `__constant__` variable.
    GlobalId, "global");
entity!(
    /// A private memory object of one function (an array or variable whose
    /// address is taken, which mem2reg/sroa could not promote).
    LocalId, "local");
entity!(
    /// A basic block.
    BlockId, "block");
entity!(
    /// An instruction.
    InstId, "inst");
entity!(
    /// An SSA value.
    ValueId, "v");
entity!(
    /// A source file named by a location.
    FileId, "file");

/// A memory space. `Generic` is a pointer whose space the front-end could not
/// resolve statically (for example a pointer parameter of a device function).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum MemSpace {
    /// Per-thread memory.
    Private,
    /// Per-group memory: CUDA `__shared__`, OpenCL `__local`.
    Shared,
    /// Device memory visible to every thread: CUDA global, OpenCL `__global`.
    Global,
    /// Read-only device memory: CUDA `__constant__`, OpenCL `__constant`.
    Constant,
    /// Unresolved; may be any of the above.
    Generic,
}

impl MemSpace {
    pub const ALL: [MemSpace; 5] =
        [MemSpace::Private, MemSpace::Shared, MemSpace::Global, MemSpace::Constant, MemSpace::Generic];

    pub fn name(self) -> &'static str {
        match self {
            MemSpace::Private => "private",
            MemSpace::Shared => "shared",
            MemSpace::Global => "global",
            MemSpace::Constant => "constant",
            MemSpace::Generic => "generic",
        }
    }

    pub fn from_name(name: &str) -> Option<MemSpace> {
        MemSpace::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The type of a value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    /// A bit-vector of the given width; `Int(1)` is a boolean.
    Int(u16),
    /// An IEEE float of the given width (16, 32 or 64).
    Float(u16),
    /// A pointer into the given space. Pointers are 64 bits wide in memory.
    Ptr(MemSpace),
}

impl Type {
    pub const BOOL: Type = Type::Int(1);
    pub const I8: Type = Type::Int(8);
    pub const I32: Type = Type::Int(32);
    pub const I64: Type = Type::Int(64);

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Type::Int(w) | Type::Float(w) => w as u32,
            Type::Ptr(_) => 64,
        }
    }

    /// Size in bytes when stored to memory (booleans take one byte).
    pub fn store_size(self) -> u64 {
        (self.bits() as u64).div_ceil(8)
    }

    pub fn is_int(self) -> bool {
        matches!(self, Type::Int(_))
    }

    pub fn is_float(self) -> bool {
        matches!(self, Type::Float(_))
    }

    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }
}

/// Where a value comes from.
#[derive(Clone, PartialEq, Debug)]
pub enum ValueDef {
    /// The function's parameter with this index.
    Param(u32),
    /// The block's parameter with this index.
    BlockParam(BlockId, u32),
    /// The result of an instruction.
    Inst(InstId),
    /// A constant; the low `ty.bits()` bits are meaningful. Float constants
    /// hold their IEEE bit pattern.
    Const(u128),
    /// An unspecified value (LLVM `undef`/`poison`): each use may differ.
    Undef,
    /// The address of a module-level memory object.
    GlobalAddr(GlobalId),
    /// The address of a private memory object of this function.
    LocalAddr(LocalId),
    /// The null pointer of a space (`ty` is the pointer type).
    Null,
}

#[derive(Clone, PartialEq, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
    /// The source-level name, when debug info or clang gave one.
    pub name: Option<String>,
}

/// Integer binary operators; operands and result share one integer type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// Integer comparisons; the result is `Int(1)`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum IntCC {
    Eq,
    Ne,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

/// Float operators. Race and memory-safety engines treat these as
/// uninterpreted functions; only equivalence checking may interpret them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
}

/// Float comparisons (LLVM's ordered and unordered predicates).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatCC {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

/// Conversions between types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastOp {
    Zext,
    Sext,
    Trunc,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    FpExt,
    FpTrunc,
    /// Reinterprets the bits (int <-> float of the same width).
    Bitcast,
    PtrToInt,
    IntToPtr,
    /// Changes the memory space of a pointer, keeping its target.
    AddrSpaceCast,
}

/// The threads an atomic is atomic with respect to (CUDA's `_block` and
/// `_system` variants, NVVM's `cta`/`sys` scopes, `cuda::thread_scope`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum AtomicScope {
    /// Every thread of the launch (CUDA's default device scope; a system
    /// scope includes it, and the host is not modelled concurrently).
    #[default]
    Device,
    /// The threads of the accessing thread's own block only: two blocks
    /// updating one location with it race.
    Block,
}

impl AtomicScope {
    pub fn name(self) -> &'static str {
        match self {
            AtomicScope::Device => "device",
            AtomicScope::Block => "block",
        }
    }
}

/// Read-modify-write atomic operators.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AtomicOp {
    Xchg,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    FAdd,
    FSub,
    /// CUDA `atomicInc`: `old >= v ? 0 : old + 1`.
    UIncWrap,
    /// CUDA `atomicDec`: `old == 0 || old > v ? v : old - 1`.
    UDecWrap,
}

/// The threads a barrier synchronises.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BarrierScope {
    /// Every thread of the group (`__syncthreads`, OpenCL `barrier`).
    Group,
    /// Every thread of the grid (cooperative groups' grid sync).
    Grid,
    /// The threads of one warp (`__syncwarp`).
    Warp,
}

/// Which memory spaces a barrier or fence orders.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FenceFlags {
    pub shared: bool,
    pub global: bool,
}

/// Thread-geometry builtins. Each takes a dimension 0..3 and yields `Int(32)`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BuiltinVar {
    /// `threadIdx` / `get_local_id`.
    LocalId,
    /// `blockIdx` / `get_group_id`.
    GroupId,
    /// `blockDim` / `get_local_size`.
    LocalSize,
    /// `gridDim` / `get_num_groups`.
    NumGroups,
    /// OpenCL `get_global_offset`.
    GlobalOffset,
}

/// Warp-level intrinsics.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WarpOp {
    /// `__shfl_sync(mask, value, src_lane, width)`.
    Shfl,
    ShflUp,
    ShflDown,
    ShflXor,
    /// `__ballot_sync(mask, pred)`.
    Ballot,
    All,
    Any,
    /// `__activemask()`.
    ActiveMask,
    /// The lane id within the warp.
    LaneId,
    /// `__match_any_sync(mask, value)`: the lanes of `mask` taking part
    /// whose `value` equals the caller's.
    MatchAny,
}

impl WarpOp {
    /// Whether the operation takes a member mask as its first argument:
    /// the lanes CUDA requires to execute it with the caller (shuffles,
    /// votes and matches; not `__activemask` or the lane id).
    pub fn takes_member_mask(self) -> bool {
        !matches!(self, WarpOp::ActiveMask | WarpOp::LaneId)
    }
}

/// How a group collective combines one value from every thread of the
/// group (`__syncthreads_or`, `__syncthreads_and`, `__syncthreads_count`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CollectiveOp {
    /// 1 when the operand is nonzero in some thread of the group, else 0.
    Or,
    /// 1 when the operand is nonzero in every thread of the group, else 0.
    And,
    /// The number of threads of the group whose operand is nonzero.
    Count,
}

/// Annotations that state something and produce no value. Their arguments
/// are booleans (`Int(1)`), except `BarrierInvariant*` whose first argument is
/// the invariant and the rest the threads it is instantiated for.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AnnotKind {
    Assert,
    Assume,
    /// A precondition of the enclosing function.
    Requires,
    /// A postcondition of the enclosing function.
    Ensures,
    /// A loop invariant (placed in the loop header).
    Invariant,
    /// A loop invariant that must hold for every thread, not just the two
    /// modelled ones.
    GlobalInvariant,
    /// An invariant that holds at every loop head of the function.
    FunctionWideInvariant,
    /// A candidate offered to invariant inference; dropped if not inductive.
    CandidateInvariant,
    GlobalRequires,
    GlobalEnsures,
    GlobalAssert,
    /// `__barrier_invariant_N(expr, instantiation...)` checked at the next barrier.
    BarrierInvariant,
    /// `__barrier_invariant_binary_N(expr, (a, b)...)`.
    BarrierInvariantBinary,
    /// `__assert` on the array-access log: no-read / no-write claims.
    NoRead,
    NoWrite,
    /// `__requires_fresh_array(p)`.
    FreshArray,
    /// A candidate invariant stated once for the pair of threads.
    CandidateGlobalInvariant,
    /// A candidate invariant for every loop of the function.
    FunctionWideCandidateInvariant,
    /// `__axiom(e)`: assumed for every thread of every kernel.
    Axiom,
    /// An assertion the front-end places before a warp operation: the
    /// calling lane, or the lane a shuffle reads from, is in the operation's
    /// mask (CUDA leaves the operation undefined otherwise). Checked as
    /// `Assert` is, and reported as a misuse of the mask.
    WarpMask,
    /// In a specification function: a call may write the pointee's object.
    WritesTo,
    /// In a specification function: a call may read the pointee's object.
    ReadsFrom,
}

/// Annotation expressions that produce a value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AnnotFn {
    /// `__read(p)`: this thread has read `p` in the current barrier interval.
    Read,
    Write,
    /// `__read_offset_bytes(p)`: the byte offset of this thread's read.
    ReadOffset,
    WriteOffset,
    /// `__other_int(x)`: the value of `x` in the other modelled thread.
    OtherInt,
    OtherBool,
    OtherPtr,
    /// `__uniform_int(x)`: `x` is the same in both threads.
    UniformInt,
    UniformBool,
    DistinctInt,
    DistinctBool,
    /// `__enabled()`: this thread is executing the current statement.
    Enabled,
    /// `__implies(a, b)`.
    Implies,
    /// `__return_val_*()`: the function's return value, in `__ensures`.
    ReturnVal,
    /// `__old_*(x)`: the value of `x` on entry, in `__ensures`.
    Old,
    /// `__ptr_base(p)` / `__ptr_offset_bytes(p)` style pointer inspection.
    PtrBase,
    PtrOffset,
    /// `__same_group`, `__dim`-style helpers fall back to this when unknown.
    SameGroup,
    /// `__atomic_has_taken_value(p, offset, value)`: some atomic on `p`'s
    /// object at byte `offset` returned `value` (refined atomic abstraction).
    AtomicHasTakenValue,
}

/// Instructions. Each produces at most one value (`InstData::result`).
#[derive(Clone, PartialEq, Debug)]
pub enum InstKind {
    Binary { op: BinOp, lhs: ValueId, rhs: ValueId },
    Icmp { cc: IntCC, lhs: ValueId, rhs: ValueId },
    Select { cond: ValueId, then_value: ValueId, else_value: ValueId },
    Cast { op: CastOp, arg: ValueId },
    Float { op: FloatOp, args: Vec<ValueId> },
    Fcmp { cc: FloatCC, lhs: ValueId, rhs: ValueId },
    /// `base + offset` bytes; the result has the type of `base`. `offset` is
    /// a signed `Int(64)`.
    PtrAdd { base: ValueId, offset: ValueId },
    /// Loads a value of the result's type. The space is that of `ptr`'s type.
    Load { ptr: ValueId, align: u32 },
    Store { ptr: ValueId, value: ValueId, align: u32 },
    /// Atomic read-modify-write; yields the old value. `scope` says which
    /// threads it is atomic with respect to.
    Atomic { op: AtomicOp, ptr: ValueId, value: ValueId, scope: AtomicScope },
    /// Atomic compare-and-swap; yields the old value.
    CmpXchg { ptr: ValueId, expected: ValueId, new: ValueId, scope: AtomicScope },
    /// Copies `len` bytes (`memcpy`/`memmove` not split by the front-end).
    MemCopy { dst: ValueId, src: ValueId, len: ValueId },
    /// Sets `len` bytes to the low byte of `byte` (`memset`).
    MemSet { dst: ValueId, byte: ValueId, len: ValueId },
    /// A barrier of `scope`. `mask` is a warp barrier's member mask
    /// (`__syncwarp(mask)`): bit `l` names lane `l`, and a lane synchronises
    /// with another only if each is in the other's mask. `None` names every
    /// lane (and is the only form of the other scopes).
    Barrier { scope: BarrierScope, fence: FenceFlags, mask: Option<ValueId> },
    /// A memory fence without synchronisation (`__threadfence`, `mem_fence`).
    Fence { fence: FenceFlags },
    /// A thread-geometry builtin; `dim` is 0, 1 or 2.
    Builtin { var: BuiltinVar, dim: u8 },
    Warp { op: WarpOp, args: Vec<ValueId> },
    /// The value a group collective combines from every thread of the group
    /// (`op` over each thread's `arg`, an `Int(32)` equal in every thread
    /// of the group). It stands directly after a group barrier of the same
    /// block (the verifier checks it), and the pair is the collective: the
    /// barrier synchronises the group, orders memory and is where
    /// divergence is judged, and the threads that meet there combine their
    /// `arg` here. Engines that model the group's values compute or relate
    /// them; the others may treat the result as a fresh value.
    Collective { op: CollectiveOp, arg: ValueId },
    /// A call of a function of this module.
    Call { callee: FuncId, args: Vec<ValueId> },
    /// A call of a function with no body: math library functions and the
    /// like, modelled as uninterpreted functions of their arguments.
    CallExternal { name: String, args: Vec<ValueId> },
    /// An annotation statement.
    Annot { kind: AnnotKind, args: Vec<ValueId> },
    /// An annotation expression.
    AnnotValue { func: AnnotFn, args: Vec<ValueId> },
    /// A fresh unconstrained value of the result's type.
    Havoc,
    /// A call through the function pointer `target` that is the address of
    /// no function of the call's type (null, a data pointer, an address
    /// computed by arithmetic). The front-end lowers an indirect call as a
    /// comparison with every function of its type; this is what executes
    /// when none matches. Executing it is a violation in every engine (the
    /// call would jump nowhere), never a call of some function.
    InvalidCall { target: ValueId },
    /// `printf` and other side-effect-only calls that verification ignores,
    /// kept so that reports can mention them.
    Nop { what: String },
}

#[derive(Clone, PartialEq, Debug)]
pub struct InstData {
    pub kind: InstKind,
    /// The value this instruction defines, if any.
    pub result: Option<ValueId>,
}

/// A jump target with the arguments for the target's parameters.
#[derive(Clone, PartialEq, Debug)]
pub struct BlockCall {
    pub block: BlockId,
    pub args: Vec<ValueId>,
}

#[derive(Clone, PartialEq, Debug)]
pub enum Terminator {
    Jump(BlockCall),
    Branch { cond: ValueId, then_dest: BlockCall, else_dest: BlockCall },
    Return(Option<ValueId>),
    Unreachable,
}

impl Terminator {
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Jump(c) => vec![c.block],
            Terminator::Branch { then_dest, else_dest, .. } => vec![then_dest.block, else_dest.block],
            Terminator::Return(_) | Terminator::Unreachable => vec![],
        }
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct Block {
    pub params: Vec<ValueId>,
    pub insts: Vec<InstId>,
    pub term: Terminator,
}

/// A source position: file, 1-based line and column (0 when unknown).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SrcLoc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

/// Facts about what a pointer parameter points to, from debug info.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct PointeeInfo {
    /// The element type's size in bytes, when known.
    pub elem_size: Option<u64>,
    /// The element type as the source spells it, e.g. `float`.
    pub elem_type: Option<String>,
    /// Declared `const` (never written by the kernel).
    pub is_const: bool,
    /// Declared `restrict` / `__restrict__`.
    pub is_restrict: bool,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub value: ValueId,
    pub pointee: Option<PointeeInfo>,
}

/// A memory object of a module or function.
#[derive(Clone, PartialEq, Debug)]
pub struct MemObject {
    pub name: String,
    pub space: MemSpace,
    /// Size in bytes; `None` for an unsized array (CUDA `extern __shared__`).
    pub size: Option<u64>,
    pub align: u32,
    /// Element size in bytes, for reporting accesses as indices.
    pub elem_size: Option<u64>,
    /// Initial contents for `__constant__`/initialised globals; `None` means
    /// unspecified.
    pub init: Option<Vec<u8>>,
    pub loc: Option<SrcLoc>,
}

#[derive(Clone, Debug)]
pub struct Function {
    /// The source-level name (demangled), e.g. `matrixMul`.
    pub name: String,
    /// The symbol name in the compiled module, e.g. `_Z9matrixMulPfS_`.
    pub link_name: String,
    pub is_kernel: bool,
    pub params: Vec<Param>,
    pub ret: Option<Type>,
    pub blocks: PrimaryMap<BlockId, Block>,
    pub insts: PrimaryMap<InstId, InstData>,
    pub values: PrimaryMap<ValueId, ValueData>,
    pub locals: PrimaryMap<LocalId, MemObject>,
    /// The first block executed.
    pub entry: BlockId,
    pub loc: Option<SrcLoc>,
    /// Source location of each instruction (side table from debug info).
    pub inst_locs: SecondaryMap<InstId, Option<SrcLoc>>,
    /// Source location of each block's terminator.
    pub term_locs: SecondaryMap<BlockId, Option<SrcLoc>>,
    /// The no-wrap facts of integer `add`, `sub`, `mul` and `shl`
    /// instructions (LLVM's `nsw`/`nuw` flags, side table from the
    /// front-end). A missing entry says nothing: the operation wraps.
    pub no_wrap: SecondaryMap<InstId, NoWrap>,
    /// For an unspecified value (`ValueDef::Undef`) that is an
    /// uninitialised variable's: the variable's declaration (side table
    /// filled by the front-end for host code; see its `uninit_markers`).
    pub undef_locs: SecondaryMap<ValueId, Option<SrcLoc>>,
    /// `Builtin` reads of a `y` or `z` id or size that the front-end found
    /// inside a library's linear rank or size computation (cooperative
    /// groups' `thread_rank()`, tile construction), not in the user's own
    /// code: in a 1-D launch their dimension contributes nothing, so they
    /// do not make a kernel one written for 2-D or 3-D launches (side
    /// table from the front-end; printed `builtin local_id y rank`).
    pub rank_reads: SecondaryMap<InstId, bool>,
}

/// What the source language promises about one integer operation's result:
/// with `signed` (LLVM `nsw`), the mathematical result of the operands read
/// as signed integers fits the type (C/C++ signed overflow is undefined
/// behaviour, so clang sets it on signed arithmetic only); with `unsigned`
/// (`nuw`), the same for the operands read as unsigned integers. An
/// execution where the promise fails has undefined behaviour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct NoWrap {
    pub signed: bool,
    pub unsigned: bool,
}

impl NoWrap {
    pub const NONE: NoWrap = NoWrap { signed: false, unsigned: false };

    pub fn is_none(self) -> bool {
        !self.signed && !self.unsigned
    }

    /// Whether the flags may be set on operator `op` (LLVM's overflowing
    /// binary operators).
    pub fn applies_to(op: BinOp) -> bool {
        matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl)
    }
}

impl Function {
    /// An empty function whose entry block returns immediately.
    pub fn new(name: impl Into<String>, link_name: impl Into<String>, is_kernel: bool) -> Function {
        let mut blocks = PrimaryMap::new();
        let entry = blocks.push(Block { params: vec![], insts: vec![], term: Terminator::Return(None) });
        Function {
            name: name.into(),
            link_name: link_name.into(),
            is_kernel,
            params: Vec::new(),
            ret: None,
            blocks,
            insts: PrimaryMap::new(),
            values: PrimaryMap::new(),
            locals: PrimaryMap::new(),
            entry,
            loc: None,
            inst_locs: SecondaryMap::new(),
            term_locs: SecondaryMap::new(),
            no_wrap: SecondaryMap::new(),
            rank_reads: SecondaryMap::new(),
            undef_locs: SecondaryMap::new(),
        }
    }

    pub fn value_type(&self, v: ValueId) -> Type {
        self.values[v].ty
    }

    /// The values used as operands by a terminator or by an instruction
    /// whose kind `counts`.
    pub fn used_values(&self, counts: impl Fn(&InstKind) -> bool) -> std::collections::HashSet<ValueId> {
        let mut used = std::collections::HashSet::new();
        for inst in self.insts.values().filter(|i| counts(&i.kind)) {
            inst.kind.for_each_operand(|v| {
                used.insert(v);
            });
        }
        for block in self.blocks.values() {
            used.extend(block.term.operands());
        }
        used
    }

    /// Creates a value with the given definition.
    pub fn make_value(&mut self, ty: Type, def: ValueDef) -> ValueId {
        self.values.push(ValueData { ty, def, name: None })
    }

    pub fn const_int(&mut self, ty: Type, bits: u128) -> ValueId {
        let mask = if ty.bits() >= 128 { u128::MAX } else { (1u128 << ty.bits()) - 1 };
        self.make_value(ty, ValueDef::Const(bits & mask))
    }

    /// Adds a parameter to the function; returns its value.
    pub fn add_param(&mut self, name: impl Into<String>, ty: Type, pointee: Option<PointeeInfo>) -> ValueId {
        let index = self.params.len() as u32;
        let name = name.into();
        let value = self.values.push(ValueData { ty, def: ValueDef::Param(index), name: Some(name.clone()) });
        self.params.push(Param { name, ty, value, pointee });
        value
    }

    /// Adds an empty block ending in `unreachable`.
    pub fn add_block(&mut self) -> BlockId {
        self.blocks.push(Block { params: vec![], insts: vec![], term: Terminator::Unreachable })
    }

    pub fn add_block_param(&mut self, block: BlockId, ty: Type) -> ValueId {
        let index = self.blocks[block].params.len() as u32;
        let v = self.make_value(ty, ValueDef::BlockParam(block, index));
        self.blocks[block].params.push(v);
        v
    }

    /// Appends an instruction to `block`; `result` gives the type of the
    /// value it defines, if any. Returns the instruction and its value.
    pub fn append_inst(
        &mut self,
        block: BlockId,
        kind: InstKind,
        result: Option<Type>,
        loc: Option<SrcLoc>,
    ) -> (InstId, Option<ValueId>) {
        let inst = self.insts.next_key();
        let result = result.map(|ty| self.make_value(ty, ValueDef::Inst(inst)));
        let pushed = self.insts.push(InstData { kind, result });
        debug_assert_eq!(pushed, inst);
        self.blocks[block].insts.push(inst);
        if loc.is_some() {
            self.inst_locs.set(inst, loc);
        }
        (inst, result)
    }

    /// The no-wrap facts of instruction `inst` (none for any instruction
    /// that is not an integer `add`, `sub`, `mul` or `shl`, whatever the
    /// side table holds, so that a pass that rewrites an instruction in
    /// place can never leave a stale promise on another operation).
    pub fn no_wrap_of(&self, inst: InstId) -> NoWrap {
        match self.insts.get(inst).map(|d| &d.kind) {
            Some(InstKind::Binary { op, .. }) if NoWrap::applies_to(*op) => *self.no_wrap.get(inst),
            _ => NoWrap::NONE,
        }
    }

    pub fn set_terminator(&mut self, block: BlockId, term: Terminator, loc: Option<SrcLoc>) {
        self.blocks[block].term = term;
        if loc.is_some() {
            self.term_locs.set(block, loc);
        }
    }

    /// Replaces every use of `from` (by instructions and terminators) with
    /// `to`, which must have the same type.
    pub fn replace_uses(&mut self, from: ValueId, to: ValueId) {
        let swap = |v: ValueId| if v == from { to } else { v };
        for inst in self.insts.values_mut() {
            inst.kind.map_operands(swap);
        }
        for block in self.blocks.values_mut() {
            match &mut block.term {
                Terminator::Branch { cond, .. } => *cond = swap(*cond),
                Terminator::Return(Some(v)) => *v = swap(*v),
                _ => {}
            }
            for call in block.term.block_calls_mut() {
                for a in &mut call.args {
                    *a = swap(*a);
                }
            }
        }
    }

    /// The block that contains each instruction, computed on demand.
    pub fn inst_blocks(&self) -> SecondaryMap<InstId, Option<BlockId>> {
        let mut map = SecondaryMap::new();
        for (b, block) in self.blocks.iter() {
            for &i in &block.insts {
                map.set(i, Some(b));
            }
        }
        map
    }
}

/// A compiled translation unit.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// `cuda` or `opencl`.
    pub language: Language,
    pub files: PrimaryMap<FileId, String>,
    pub globals: PrimaryMap<GlobalId, MemObject>,
    pub functions: PrimaryMap<FuncId, Function>,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Language {
    #[default]
    Cuda,
    OpenCl,
}

impl Language {
    pub fn name(self) -> &'static str {
        match self {
            Language::Cuda => "cuda",
            Language::OpenCl => "opencl",
        }
    }
}

impl Module {
    pub fn new(language: Language) -> Module {
        Module { language, ..Module::default() }
    }

    /// Interns a file name.
    pub fn file(&mut self, path: &str) -> FileId {
        if let Some((id, _)) = self.files.iter().find(|(_, p)| p.as_str() == path) {
            return id;
        }
        self.files.push(path.to_string())
    }

    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions.iter().filter(|(_, f)| f.is_kernel)
    }

    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().find(|(_, f)| f.name == name || f.link_name == name).map(|(id, _)| id)
    }
}

/// Declares the text-form names of a fieldless enum: `name()` gives the
/// spelling used by the text form and reports, `from_name()` reads it back,
/// and `ALL` lists every variant (so tests and parsers can enumerate them).
macro_rules! enum_names {
    ($ty:ident { $($variant:ident => $name:expr),* $(,)? }) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The spelling of this variant in the text form.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),*
                }
            }

            /// The variant spelled `name` in the text form, if any.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

enum_names!(BinOp {
    Add => "add", Sub => "sub", Mul => "mul", UDiv => "udiv", SDiv => "sdiv",
    URem => "urem", SRem => "srem", Shl => "shl", LShr => "lshr", AShr => "ashr",
    And => "and", Or => "or", Xor => "xor",
});

enum_names!(IntCC {
    Eq => "eq", Ne => "ne", Ult => "ult", Ule => "ule", Ugt => "ugt", Uge => "uge",
    Slt => "slt", Sle => "sle", Sgt => "sgt", Sge => "sge",
});

// Float operators are spelled with an `f` prefix so that they never collide
// with the integer operators in the text form.
enum_names!(FloatOp {
    Add => "fadd", Sub => "fsub", Mul => "fmul", Div => "fdiv", Rem => "frem", Neg => "fneg",
});

enum_names!(FloatCC {
    False => "false", Oeq => "oeq", Ogt => "ogt", Oge => "oge", Olt => "olt", Ole => "ole",
    One => "one", Ord => "ord", Ueq => "ueq", Ugt => "ugt", Uge => "uge", Ult => "ult",
    Ule => "ule", Une => "une", Uno => "uno", True => "true",
});

enum_names!(CastOp {
    Zext => "zext", Sext => "sext", Trunc => "trunc", FpToUi => "fptoui", FpToSi => "fptosi",
    UiToFp => "uitofp", SiToFp => "sitofp", FpExt => "fpext", FpTrunc => "fptrunc",
    Bitcast => "bitcast", PtrToInt => "ptrtoint", IntToPtr => "inttoptr",
    AddrSpaceCast => "addrspacecast",
});

enum_names!(AtomicOp {
    Xchg => "xchg", Add => "add", Sub => "sub", And => "and", Or => "or", Xor => "xor",
    Max => "max", Min => "min", UMax => "umax", UMin => "umin", FAdd => "fadd", FSub => "fsub",
    UIncWrap => "uinc_wrap", UDecWrap => "udec_wrap",
});

enum_names!(BarrierScope { Group => "group", Grid => "grid", Warp => "warp" });

enum_names!(CollectiveOp { Or => "or", And => "and", Count => "count" });

enum_names!(BuiltinVar {
    LocalId => "local_id", GroupId => "group_id", LocalSize => "local_size",
    NumGroups => "num_groups", GlobalOffset => "global_offset",
});

enum_names!(WarpOp {
    Shfl => "shfl", ShflUp => "shfl_up", ShflDown => "shfl_down", ShflXor => "shfl_xor",
    Ballot => "ballot", All => "all", Any => "any", ActiveMask => "active_mask",
    LaneId => "lane_id", MatchAny => "match_any",
});

enum_names!(AnnotKind {
    Assert => "assert", Assume => "assume", Requires => "requires", Ensures => "ensures",
    Invariant => "invariant", GlobalInvariant => "global_invariant",
    FunctionWideInvariant => "function_wide_invariant",
    CandidateInvariant => "candidate_invariant", GlobalRequires => "global_requires",
    GlobalEnsures => "global_ensures", GlobalAssert => "global_assert",
    BarrierInvariant => "barrier_invariant",
    BarrierInvariantBinary => "barrier_invariant_binary", NoRead => "no_read",
    NoWrite => "no_write", FreshArray => "fresh_array",
    CandidateGlobalInvariant => "candidate_global_invariant",
    FunctionWideCandidateInvariant => "function_wide_candidate_invariant", Axiom => "axiom",
    WritesTo => "writes_to", ReadsFrom => "reads_from", WarpMask => "warp_mask",
});

enum_names!(AnnotFn {
    Read => "read", Write => "write", ReadOffset => "read_offset", WriteOffset => "write_offset",
    OtherInt => "other_int", OtherBool => "other_bool", OtherPtr => "other_ptr",
    UniformInt => "uniform_int", UniformBool => "uniform_bool", DistinctInt => "distinct_int",
    DistinctBool => "distinct_bool", Enabled => "enabled", Implies => "implies",
    ReturnVal => "return_val", Old => "old", PtrBase => "ptr_base", PtrOffset => "ptr_offset",
    SameGroup => "same_group", AtomicHasTakenValue => "atomic_has_taken_value",
});

impl Language {
    /// The language spelled `name` (as `Language::name` spells it), if any.
    pub fn from_name(name: &str) -> Option<Language> {
        [Language::Cuda, Language::OpenCl].into_iter().find(|l| l.name() == name)
    }
}

impl InstKind {
    /// Whether the instruction only computes its result from its operands
    /// (and the thread's geometry): no memory access, no effect, nothing
    /// collective. Analyses that follow values through computations use it.
    pub fn is_pure_computation(&self) -> bool {
        matches!(
            self,
            InstKind::Binary { .. }
                | InstKind::Icmp { .. }
                | InstKind::Select { .. }
                | InstKind::Cast { .. }
                | InstKind::Float { .. }
                | InstKind::Fcmp { .. }
                | InstKind::PtrAdd { .. }
                | InstKind::Builtin { .. }
        )
    }

    /// The values this instruction reads, in the order the text form prints
    /// them (which is the order of the fields).
    pub fn operands(&self) -> Vec<ValueId> {
        let mut out = Vec::new();
        self.for_each_operand(|v| out.push(v));
        out
    }

    /// Calls `f` on every operand, in the order of `operands`.
    pub fn for_each_operand(&self, mut f: impl FnMut(ValueId)) {
        match self {
            InstKind::Binary { lhs, rhs, .. }
            | InstKind::Icmp { lhs, rhs, .. }
            | InstKind::Fcmp { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            InstKind::Select { cond, then_value, else_value } => {
                f(*cond);
                f(*then_value);
                f(*else_value);
            }
            InstKind::Cast { arg, .. } => f(*arg),
            InstKind::PtrAdd { base, offset } => {
                f(*base);
                f(*offset);
            }
            InstKind::Load { ptr, .. } => f(*ptr),
            InstKind::Collective { arg, .. } => f(*arg),
            InstKind::InvalidCall { target } => f(*target),
            InstKind::Store { ptr, value, .. } | InstKind::Atomic { ptr, value, .. } => {
                f(*ptr);
                f(*value);
            }
            InstKind::CmpXchg { ptr, expected, new, .. } => {
                f(*ptr);
                f(*expected);
                f(*new);
            }
            InstKind::MemCopy { dst, src, len } => {
                f(*dst);
                f(*src);
                f(*len);
            }
            InstKind::MemSet { dst, byte, len } => {
                f(*dst);
                f(*byte);
                f(*len);
            }
            InstKind::Float { args, .. }
            | InstKind::Warp { args, .. }
            | InstKind::Call { args, .. }
            | InstKind::CallExternal { args, .. }
            | InstKind::Annot { args, .. }
            | InstKind::AnnotValue { args, .. } => args.iter().copied().for_each(f),
            InstKind::Barrier { mask, .. } => mask.iter().copied().for_each(f),
            InstKind::Fence { .. }
            | InstKind::Builtin { .. }
            | InstKind::Havoc
            | InstKind::Nop { .. } => {}
        }
    }

    /// The pointer through which the instruction writes memory: stores,
    /// atomics, and the destination of copies and sets. (Calls may write
    /// through their arguments too; callers that care look at them.)
    pub fn written_pointer(&self) -> Option<ValueId> {
        match self {
            InstKind::Store { ptr, .. } | InstKind::Atomic { ptr, .. } | InstKind::CmpXchg { ptr, .. } => Some(*ptr),
            InstKind::MemCopy { dst, .. } | InstKind::MemSet { dst, .. } => Some(*dst),
            _ => None,
        }
    }

    /// Rewrites every operand in place with `f`, in the order of `operands`.
    pub fn map_operands(&mut self, mut f: impl FnMut(ValueId) -> ValueId) {
        match self {
            InstKind::Binary { lhs, rhs, .. }
            | InstKind::Icmp { lhs, rhs, .. }
            | InstKind::Fcmp { lhs, rhs, .. } => {
                *lhs = f(*lhs);
                *rhs = f(*rhs);
            }
            InstKind::Select { cond, then_value, else_value } => {
                *cond = f(*cond);
                *then_value = f(*then_value);
                *else_value = f(*else_value);
            }
            InstKind::Cast { arg, .. } => *arg = f(*arg),
            InstKind::PtrAdd { base, offset } => {
                *base = f(*base);
                *offset = f(*offset);
            }
            InstKind::Load { ptr, .. } => *ptr = f(*ptr),
            InstKind::Collective { arg, .. } => *arg = f(*arg),
            InstKind::InvalidCall { target } => *target = f(*target),
            InstKind::Store { ptr, value, .. } | InstKind::Atomic { ptr, value, .. } => {
                *ptr = f(*ptr);
                *value = f(*value);
            }
            InstKind::CmpXchg { ptr, expected, new, .. } => {
                *ptr = f(*ptr);
                *expected = f(*expected);
                *new = f(*new);
            }
            InstKind::MemCopy { dst, src, len } => {
                *dst = f(*dst);
                *src = f(*src);
                *len = f(*len);
            }
            InstKind::MemSet { dst, byte, len } => {
                *dst = f(*dst);
                *byte = f(*byte);
                *len = f(*len);
            }
            InstKind::Float { args, .. }
            | InstKind::Warp { args, .. }
            | InstKind::Call { args, .. }
            | InstKind::CallExternal { args, .. }
            | InstKind::Annot { args, .. }
            | InstKind::AnnotValue { args, .. } => {
                for a in args.iter_mut() {
                    *a = f(*a);
                }
            }
            InstKind::Barrier { mask, .. } => {
                if let Some(m) = mask {
                    *m = f(*m);
                }
            }
            InstKind::Fence { .. }
            | InstKind::Builtin { .. }
            | InstKind::Havoc
            | InstKind::Nop { .. } => {}
        }
    }
}

impl Terminator {
    /// The values this terminator reads: the branch condition, the returned
    /// value, and the arguments passed to successor blocks, in text order.
    pub fn operands(&self) -> Vec<ValueId> {
        match self {
            Terminator::Jump(c) => c.args.clone(),
            Terminator::Branch { cond, then_dest, else_dest } => {
                let mut out = vec![*cond];
                out.extend(&then_dest.args);
                out.extend(&else_dest.args);
                out
            }
            Terminator::Return(v) => v.iter().copied().collect(),
            Terminator::Unreachable => Vec::new(),
        }
    }

    /// The jump targets of this terminator with their arguments.
    pub fn block_calls(&self) -> Vec<&BlockCall> {
        match self {
            Terminator::Jump(c) => vec![c],
            Terminator::Branch { then_dest, else_dest, .. } => vec![then_dest, else_dest],
            Terminator::Return(_) | Terminator::Unreachable => Vec::new(),
        }
    }

    /// The jump targets of this terminator, to change their arguments.
    pub fn block_calls_mut(&mut self) -> Vec<&mut BlockCall> {
        match self {
            Terminator::Jump(c) => vec![c],
            Terminator::Branch { then_dest, else_dest, .. } => vec![then_dest, else_dest],
            Terminator::Return(_) | Terminator::Unreachable => Vec::new(),
        }
    }
}
