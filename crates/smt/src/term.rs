//! The term builder: hash-consed SMT terms in an arena.
//!
//! A [`TermStore`] owns every term; a [`TermId`] is a `Copy` index into it.
//! Structurally identical terms are built only once, so id equality is term
//! equality and sharing is free. The store works without any solver attached.
//!
//! # Sort errors
//!
//! [`TermStore::try_app`] (and the other `try_` methods) check sorts and
//! return a [`SortError`]. The convenience builders (`and`, `bvadd`,
//! `select`, ...) call them and **panic** with the same message on a sort
//! error: the verifier builds terms from typed IR, so an ill-sorted term is a
//! bug in the caller, and making every construction fallible would bury the
//! encodings in `?`. Code that builds terms from untrusted input should use
//! the `try_` forms.
//!
//! # Simplification
//!
//! Unless the store was made with [`TermStore::without_simplification`],
//! construction performs cheap rewrites that are sound for all SMT-LIB
//! models: constant folding of Boolean and bit-vector operators on values up
//! to 128 bits (with SMT-LIB's total division semantics), neutral and
//! absorbing elements, `not (not x)`, `ite` with a constant condition or
//! equal branches, `x = x`, read-over-write on identical indices, and similar.
//! Independently of that setting, `and`/`or` with fewer than two arguments
//! become `true`/`false`/the argument, and `=>` with more than two arguments
//! is nested to the right, so every printed term is standard SMT-LIB.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::float::FpOp;
use crate::print;
use crate::sort::Sort;
use crate::value::{mask, to_signed, BvValue};

/// A term in a [`TermStore`]. Only meaningful for the store that made it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(u32);

impl TermId {
    /// The index of the term in its store (dense, in creation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A declared function symbol (constants are functions without arguments).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunId(u32);

/// The declaration of a free constant or uninterpreted function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunDecl {
    /// The symbol's name, unquoted.
    pub name: String,
    /// Argument sorts; empty for a constant.
    pub args: Vec<Sort>,
    /// Result sort.
    pub ret: Sort,
}

/// An operator of the core, bit-vector or array theory, or an uninterpreted
/// function application.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `not`, one Bool argument.
    Not,
    /// `and`, any number of Bool arguments.
    And,
    /// `or`, any number of Bool arguments.
    Or,
    /// `xor`, two or more Bool arguments.
    Xor,
    /// `=>`, two or more Bool arguments (right associative).
    Implies,
    /// `ite`: a Bool condition and two branches of the same sort.
    Ite,
    /// `=`: two or more arguments of the same sort.
    Eq,
    /// `distinct`: two or more arguments of the same sort.
    Distinct,
    /// `bvadd`.
    BvAdd,
    /// `bvsub`.
    BvSub,
    /// `bvmul`.
    BvMul,
    /// `bvudiv` (division by zero gives all ones).
    BvUdiv,
    /// `bvsdiv`.
    BvSdiv,
    /// `bvurem` (remainder by zero gives the dividend).
    BvUrem,
    /// `bvsrem` (sign follows the dividend).
    BvSrem,
    /// `bvshl`.
    BvShl,
    /// `bvlshr`.
    BvLshr,
    /// `bvashr`.
    BvAshr,
    /// `bvand`.
    BvAnd,
    /// `bvor`.
    BvOr,
    /// `bvxor`.
    BvXor,
    /// `bvnot`.
    BvNot,
    /// `bvneg`.
    BvNeg,
    /// `bvult`.
    BvUlt,
    /// `bvule`.
    BvUle,
    /// `bvugt`.
    BvUgt,
    /// `bvuge`.
    BvUge,
    /// `bvslt`.
    BvSlt,
    /// `bvsle`.
    BvSle,
    /// `bvsgt`.
    BvSgt,
    /// `bvsge`.
    BvSge,
    /// `concat`: the first argument becomes the high bits.
    Concat,
    /// `(_ extract hi lo)`, inclusive bit range.
    Extract {
        /// Highest bit kept.
        hi: u32,
        /// Lowest bit kept.
        lo: u32,
    },
    /// `(_ zero_extend n)`.
    ZeroExtend(u32),
    /// `(_ sign_extend n)`.
    SignExtend(u32),
    /// `select`: array, index.
    Select,
    /// `store`: array, index, element.
    Store,
    /// Application of a declared uninterpreted function with arguments.
    Apply(FunId),
    /// A FloatingPoint operator (see [`crate::float`]).
    Fp(FpOp),
}

impl Op {
    /// The SMT-LIB name of a non-indexed, built-in operator.
    pub(crate) fn builtin_name(&self) -> Option<&'static str> {
        use Op::*;
        Some(match self {
            Not => "not",
            And => "and",
            Or => "or",
            Xor => "xor",
            Implies => "=>",
            Ite => "ite",
            Eq => "=",
            Distinct => "distinct",
            BvAdd => "bvadd",
            BvSub => "bvsub",
            BvMul => "bvmul",
            BvUdiv => "bvudiv",
            BvSdiv => "bvsdiv",
            BvUrem => "bvurem",
            BvSrem => "bvsrem",
            BvShl => "bvshl",
            BvLshr => "bvlshr",
            BvAshr => "bvashr",
            BvAnd => "bvand",
            BvOr => "bvor",
            BvXor => "bvxor",
            BvNot => "bvnot",
            BvNeg => "bvneg",
            BvUlt => "bvult",
            BvUle => "bvule",
            BvUgt => "bvugt",
            BvUge => "bvuge",
            BvSlt => "bvslt",
            BvSle => "bvsle",
            BvSgt => "bvsgt",
            BvSge => "bvsge",
            Concat => "concat",
            Select => "select",
            Store => "store",
            Extract { .. } | ZeroExtend(_) | SignExtend(_) | Apply(_) | Fp(_) => return None,
        })
    }

    fn is_bv_binary(&self) -> bool {
        use Op::*;
        matches!(
            self,
            BvAdd
                | BvSub
                | BvMul
                | BvUdiv
                | BvSdiv
                | BvUrem
                | BvSrem
                | BvShl
                | BvLshr
                | BvAshr
                | BvAnd
                | BvOr
                | BvXor
        )
    }

    fn is_bv_compare(&self) -> bool {
        use Op::*;
        matches!(
            self,
            BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge
        )
    }
}

/// Which quantifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// `forall`.
    Forall,
    /// `exists`.
    Exists,
}

/// The shape of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// `true` or `false`.
    Bool(bool),
    /// A bit-vector literal.
    BitVec(BvValue),
    /// A declared free constant.
    Const(FunId),
    /// A variable to be bound by a quantifier.
    Var {
        /// The variable's name.
        name: String,
        /// The variable's sort.
        sort: Sort,
    },
    /// An operator applied to arguments.
    App(Op, Box<[TermId]>),
    /// A constant array `((as const (Array I E)) value)`; its sort is the term's sort.
    ConstArray(TermId),
    /// A quantified formula.
    Quant {
        /// Which quantifier.
        quantifier: Quantifier,
        /// The bound variables (terms of kind [`TermKind::Var`]).
        vars: Box<[TermId]>,
        /// The Boolean body.
        body: TermId,
    },
}

/// An ill-sorted term or an invalid declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortError {
    /// The operator or declaration concerned.
    pub op: String,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sort error in `{}`: {}", self.op, self.message)
    }
}

impl std::error::Error for SortError {}

/// Symbols that a declaration may not use because they are reserved words
/// or built-in operators of the theories this crate emits.
const RESERVED: &[&str] = &[
    "!",
    "_",
    "as",
    "let",
    "forall",
    "exists",
    "match",
    "par",
    "BINARY",
    "DECIMAL",
    "HEXADECIMAL",
    "NUMERAL",
    "STRING",
    "true",
    "false",
    "not",
    "and",
    "or",
    "xor",
    "=>",
    "ite",
    "=",
    "distinct",
    "bvadd",
    "bvsub",
    "bvmul",
    "bvudiv",
    "bvsdiv",
    "bvurem",
    "bvsrem",
    "bvsmod",
    "bvshl",
    "bvlshr",
    "bvashr",
    "bvand",
    "bvor",
    "bvxor",
    "bvnand",
    "bvnor",
    "bvxnor",
    "bvcomp",
    "bvnot",
    "bvneg",
    "bvult",
    "bvule",
    "bvugt",
    "bvuge",
    "bvslt",
    "bvsle",
    "bvsgt",
    "bvsge",
    "concat",
    "extract",
    "zero_extend",
    "sign_extend",
    "repeat",
    "rotate_left",
    "rotate_right",
    "select",
    "store",
    "const",
    "Bool",
    "Array",
    "BitVec",
    "FloatingPoint",
];

/// Checks that `name` can be declared: non-empty, quotable (no `|` or `\`),
/// not reserved, and not in the `.`/`@` namespaces that SMT-LIB keeps for solvers.
fn check_symbol(what: &str, name: &str) -> Result<(), SortError> {
    let err = |message: String| {
        Err(SortError {
            op: what.to_string(),
            message,
        })
    };
    if name.is_empty() {
        return err("empty symbol".into());
    }
    if name.contains(['|', '\\']) {
        return err(format!(
            "symbol {name:?} contains `|` or `\\` and cannot be printed"
        ));
    }
    if name.starts_with(['.', '@']) {
        return err(format!(
            "symbol {name:?} starts with `.` or `@`, which SMT-LIB reserves for solvers"
        ));
    }
    if RESERVED.contains(&name) {
        return err(format!("symbol {name:?} is reserved or built in"));
    }
    Ok(())
}

/// Checks that a sort is well formed (positive widths, valid names).
fn check_sort(what: &str, sort: &Sort) -> Result<(), SortError> {
    match sort {
        Sort::Bool => Ok(()),
        Sort::BitVec(0) => Err(SortError {
            op: what.into(),
            message: "bit-vector sort of width 0".into(),
        }),
        Sort::BitVec(_) => Ok(()),
        Sort::Array(i, e) => check_sort(what, i).and_then(|()| check_sort(what, e)),
        Sort::Uninterpreted(name) => check_symbol(what, name),
        Sort::Float {
            exponent,
            significand,
        } if *exponent < 2 || *significand < 2 => Err(SortError {
            op: what.into(),
            message: format!(
                "floating-point sort needs widths >= 2, got ({exponent}, {significand})"
            ),
        }),
        Sort::Float { .. } => Ok(()),
    }
}

struct Node {
    kind: TermKind,
    sort: Sort,
}

/// The uninterpreted sorts and function symbols that terms use, in first-use
/// order, as needed to declare them to a solver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FreeSymbols {
    /// Names of uninterpreted sorts.
    pub sorts: Vec<String>,
    /// Declared constants and functions.
    pub funs: Vec<FunId>,
}

/// The arena of hash-consed terms and declarations. See the module docs.
pub struct TermStore {
    nodes: Vec<Node>,
    index: HashMap<TermKind, TermId>,
    funs: Vec<FunDecl>,
    fun_index: HashMap<String, FunId>,
    simplify: bool,
    fresh_counter: u64,
}

impl Default for TermStore {
    fn default() -> Self {
        TermStore::new()
    }
}

impl fmt::Debug for TermStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TermStore")
            .field("terms", &self.nodes.len())
            .field("funs", &self.funs.len())
            .field("simplify", &self.simplify)
            .finish()
    }
}

/// The result of a sort check on an application: its sort.
type Checked = Result<Sort, SortError>;

impl TermStore {
    /// An empty store that simplifies at construction.
    pub fn new() -> TermStore {
        TermStore {
            nodes: Vec::new(),
            index: HashMap::new(),
            funs: Vec::new(),
            fun_index: HashMap::new(),
            simplify: true,
            fresh_counter: 0,
        }
    }

    /// An empty store that builds terms exactly as asked (apart from the
    /// arity normalisation described in the module docs). Useful to inspect
    /// encodings and to test the simplifier against a solver.
    pub fn without_simplification() -> TermStore {
        TermStore {
            simplify: false,
            ..TermStore::new()
        }
    }

    /// Whether construction simplifies.
    pub fn simplifies(&self) -> bool {
        self.simplify
    }

    /// The number of distinct terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no term has been built.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The shape of `t`.
    pub fn kind(&self, t: TermId) -> &TermKind {
        &self.nodes[t.index()].kind
    }

    /// The sort of `t`.
    pub fn sort_of(&self, t: TermId) -> &Sort {
        &self.nodes[t.index()].sort
    }

    /// The declaration of `f`.
    pub fn fun(&self, f: FunId) -> &FunDecl {
        &self.funs[f.0 as usize]
    }

    /// The function declared under `name`, if any.
    pub fn lookup_fun(&self, name: &str) -> Option<FunId> {
        self.fun_index.get(name).copied()
    }

    /// All declarations, in declaration order.
    pub fn funs(&self) -> impl Iterator<Item = (FunId, &FunDecl)> {
        self.funs
            .iter()
            .enumerate()
            .map(|(i, d)| (FunId(i as u32), d))
    }

    /// The Boolean value of `t`, if it is a literal.
    pub fn as_bool(&self, t: TermId) -> Option<bool> {
        match self.kind(t) {
            TermKind::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The bit-vector value of `t`, if it is a literal.
    pub fn as_bv(&self, t: TermId) -> Option<&BvValue> {
        match self.kind(t) {
            TermKind::BitVec(v) => Some(v),
            _ => None,
        }
    }

    /// How many of the low bits of the bit-vector term `t` are zero in
    /// every model, as far as its shape shows: a lower bound (0 when
    /// nothing is known). Multiplication adds its factors' counts, shifts
    /// by a constant add the shift, sums keep the smaller count, and
    /// extensions keep their argument's. Used to see that an offset such as
    /// `4 * zext(i)` is a multiple of an access width without asking a
    /// solver.
    pub fn known_trailing_zeros(&self, t: TermId) -> u32 {
        self.known_trailing_zeros_with(t, &|_| 0)
    }

    /// `known_trailing_zeros`, with `constant` giving the count known of a
    /// free constant (for constants that name a term, as the bounded
    /// finder's definitions do).
    pub fn known_trailing_zeros_with(&self, t: TermId, constant: &dyn Fn(TermId) -> u32) -> u32 {
        self.trailing_zeros_memo(t, 16, constant, &mut HashMap::new())
    }

    /// `known_trailing_zeros` looking at most `depth` operators deep,
    /// remembering shared subterms' counts.
    fn trailing_zeros_memo(&self, t: TermId, depth: u32, constant: &dyn Fn(TermId) -> u32, memo: &mut HashMap<TermId, u32>) -> u32 {
        let w = self.sort_of(t).bv_width().unwrap_or(0);
        if depth == 0 || w == 0 {
            return 0;
        }
        if let Some(&known) = memo.get(&t) {
            return known;
        }
        let mut tz = |a: TermId| self.trailing_zeros_memo(a, depth - 1, constant, memo);
        let known = match self.kind(t) {
            TermKind::BitVec(v) => (0..w).find(|&i| v.bit(i)).unwrap_or(w),
            TermKind::Const(_) => constant(t),
            TermKind::App(op, args) => match (op, &args[..]) {
                (Op::BvMul, [a, b]) => tz(*a).saturating_add(tz(*b)),
                (Op::BvShl, [a, b]) => match self.small_bv(*b) {
                    Some(k) => tz(*a).saturating_add(u32::try_from(k).unwrap_or(u32::MAX)),
                    None => tz(*a),
                },
                (Op::BvAdd | Op::BvSub | Op::BvOr | Op::BvXor, [a, b]) => {
                    let x = tz(*a);
                    x.min(tz(*b))
                }
                (Op::BvAnd, [a, b]) => {
                    let x = tz(*a);
                    x.max(tz(*b))
                }
                (Op::BvNeg, [a]) => tz(*a),
                (Op::Ite, [_, a, b]) => {
                    let x = tz(*a);
                    x.min(tz(*b))
                }
                (Op::ZeroExtend(_) | Op::SignExtend(_), [a]) => tz(*a),
                (Op::Extract { lo, .. }, [a]) => tz(*a).saturating_sub(*lo),
                (Op::Concat, [hi, lo]) => {
                    let lw = self.sort_of(*lo).bv_width().unwrap_or(0);
                    let l = tz(*lo);
                    if l >= lw {
                        lw.saturating_add(tz(*hi))
                    } else {
                        l
                    }
                }
                _ => 0,
            },
            _ => 0,
        };
        let known = known.min(w);
        memo.insert(t, known);
        known
    }

    /// `t` printed in SMT-LIB2 syntax, without `let`.
    pub fn display(&self, t: TermId) -> impl fmt::Display + '_ {
        print::TermDisplay {
            store: self,
            term: t,
        }
    }

    fn intern(&mut self, kind: TermKind, sort: Sort) -> TermId {
        if let Some(&t) = self.index.get(&kind) {
            return t;
        }
        let id = TermId(u32::try_from(self.nodes.len()).expect("more than 2^32 terms"));
        self.nodes.push(Node {
            kind: kind.clone(),
            sort,
        });
        self.index.insert(kind, id);
        id
    }

    // ----- declarations -------------------------------------------------

    /// Declares a function symbol, or returns the existing one if `name` was
    /// declared with the same signature.
    pub fn try_declare_fun(
        &mut self,
        name: &str,
        args: &[Sort],
        ret: Sort,
    ) -> Result<FunId, SortError> {
        let what = format!("declaration of {name:?}");
        check_symbol(&what, name)?;
        for s in args.iter().chain([&ret]) {
            check_sort(&what, s)?;
        }
        if let Some(&f) = self.fun_index.get(name) {
            let d = &self.funs[f.0 as usize];
            if d.args == args && d.ret == ret {
                return Ok(f);
            }
            return Err(SortError {
                op: what,
                message: format!(
                    "already declared with a different signature ({:?}) -> {}",
                    d.args, d.ret
                ),
            });
        }
        let f = FunId(u32::try_from(self.funs.len()).expect("more than 2^32 declarations"));
        self.funs.push(FunDecl {
            name: name.to_string(),
            args: args.to_vec(),
            ret,
        });
        self.fun_index.insert(name.to_string(), f);
        Ok(f)
    }

    /// Declares an uninterpreted function. Panics on an invalid or
    /// conflicting declaration (see [`TermStore::try_declare_fun`]).
    pub fn declare_fun(&mut self, name: &str, args: &[Sort], ret: Sort) -> FunId {
        self.try_declare_fun(name, args, ret)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Declares a free constant and returns it as a term; declaring the same
    /// name and sort again returns the same term.
    pub fn try_declare_const(&mut self, name: &str, sort: Sort) -> Result<TermId, SortError> {
        let f = self.try_declare_fun(name, &[], sort.clone())?;
        Ok(self.intern(TermKind::Const(f), sort))
    }

    /// Declares a free constant. Panics on an invalid or conflicting declaration.
    pub fn declare_const(&mut self, name: &str, sort: Sort) -> TermId {
        self.try_declare_const(name, sort)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Declares a new constant whose name starts with `prefix` and differs
    /// from every name declared so far (`prefix!0`, `prefix!1`, ...).
    pub fn fresh_const(&mut self, prefix: &str, sort: Sort) -> TermId {
        loop {
            let name = format!("{prefix}!{}", self.fresh_counter);
            self.fresh_counter += 1;
            if !self.fun_index.contains_key(&name) {
                return self.declare_const(&name, sort);
            }
        }
    }

    /// Applies a FloatingPoint operator; panics on a sort error.
    pub fn fp(&mut self, op: FpOp, args: &[TermId]) -> TermId {
        self.app(Op::Fp(op), args)
    }

    /// Applies a declared function to arguments (see [`TermStore::try_app`]).
    pub fn apply(&mut self, f: FunId, args: &[TermId]) -> TermId {
        self.app(Op::Apply(f), args)
    }

    /// A variable for use in [`TermStore::forall`] / [`TermStore::exists`].
    pub fn try_bound_var(&mut self, name: &str, sort: Sort) -> Result<TermId, SortError> {
        let what = format!("bound variable {name:?}");
        check_symbol(&what, name)?;
        check_sort(&what, &sort)?;
        Ok(self.intern(
            TermKind::Var {
                name: name.to_string(),
                sort: sort.clone(),
            },
            sort,
        ))
    }

    /// A variable for use in quantifiers. Panics on an invalid name or sort.
    pub fn bound_var(&mut self, name: &str, sort: Sort) -> TermId {
        self.try_bound_var(name, sort)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    // ----- literals -----------------------------------------------------

    /// The literal `b`.
    pub fn bool_const(&mut self, b: bool) -> TermId {
        self.intern(TermKind::Bool(b), Sort::Bool)
    }

    /// `true`.
    pub fn true_(&mut self) -> TermId {
        self.bool_const(true)
    }

    /// `false`.
    pub fn false_(&mut self) -> TermId {
        self.bool_const(false)
    }

    /// The bit-vector literal `value mod 2^width`, for widths 1 to 128.
    pub fn bv_const(&mut self, width: u32, value: u128) -> TermId {
        self.bv_value(BvValue::new(width, value))
    }

    /// A bit-vector literal of any width.
    pub fn bv_value(&mut self, v: BvValue) -> TermId {
        let sort = Sort::BitVec(v.width());
        self.intern(TermKind::BitVec(v), sort)
    }

    /// A bit-vector literal from an SMT-LIB literal (`#b...`, `#x...`), for any width.
    pub fn bv_literal(&mut self, text: &str) -> Result<TermId, SortError> {
        let v = BvValue::parse_literal(text).ok_or_else(|| SortError {
            op: "bit-vector literal".into(),
            message: format!("cannot parse {text:?}"),
        })?;
        Ok(self.bv_value(v))
    }

    // ----- applications -------------------------------------------------

    /// Applies `op` to `args` after checking sorts; simplifies if enabled.
    pub fn try_app(&mut self, op: Op, args: &[TermId]) -> Result<TermId, SortError> {
        let sort = self.check(&op, args)?;
        // Arity normalisation, done in every mode so printed terms are standard.
        match op {
            Op::And | Op::Or if args.len() < 2 => {
                return Ok(match args.first() {
                    Some(&a) => a,
                    None => self.bool_const(op == Op::And),
                });
            }
            Op::Implies if args.len() > 2 => {
                let (last, init) = args.split_last().expect("checked arity");
                let mut acc = *last;
                for &a in init.iter().rev() {
                    acc = self.try_app(Op::Implies, &[a, acc])?;
                }
                return Ok(acc);
            }
            _ => {}
        }
        if self.simplify {
            if let Some(t) = self.simplify_app(&op, args) {
                return Ok(t);
            }
        }
        Ok(self.intern(TermKind::App(op, args.into()), sort))
    }

    /// Applies `op` to `args`; panics with the sort error's message if ill sorted.
    pub fn app(&mut self, op: Op, args: &[TermId]) -> TermId {
        self.try_app(op, args).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Computes the sort of `op(args)` or explains why it is ill sorted.
    fn check(&self, op: &Op, args: &[TermId]) -> Checked {
        let name = match op {
            Op::Apply(f) => self.fun(*f).name.clone(),
            Op::Extract { hi, lo } => format!("(_ extract {hi} {lo})"),
            Op::ZeroExtend(n) => format!("(_ zero_extend {n})"),
            Op::SignExtend(n) => format!("(_ sign_extend {n})"),
            Op::Fp(f) => f.head(),
            other => other
                .builtin_name()
                .expect("non-indexed builtin")
                .to_string(),
        };
        let err = |message: String| {
            Err(SortError {
                op: name.clone(),
                message,
            })
        };
        let sorts: Vec<&Sort> = args.iter().map(|&a| self.sort_of(a)).collect();
        let arity = |n: usize, exact: bool| -> Result<(), SortError> {
            if (exact && args.len() != n) || (!exact && args.len() < n) {
                let what = if exact { "exactly" } else { "at least" };
                return Err(SortError {
                    op: name.clone(),
                    message: format!("expects {what} {n} argument(s), got {}", args.len()),
                });
            }
            Ok(())
        };
        let all_bool = || -> Result<(), SortError> {
            match sorts.iter().position(|s| !s.is_bool()) {
                Some(i) => Err(SortError {
                    op: name.clone(),
                    message: format!("argument {i} has sort {}, expected Bool", sorts[i]),
                }),
                None => Ok(()),
            }
        };
        let all_same = || -> Result<(), SortError> {
            match sorts.iter().position(|s| *s != sorts[0]) {
                Some(i) => Err(SortError {
                    op: name.clone(),
                    message: format!(
                        "argument {i} has sort {}, but argument 0 has sort {}",
                        sorts[i], sorts[0]
                    ),
                }),
                None => Ok(()),
            }
        };
        let bv_width = |i: usize| -> Result<u32, SortError> {
            sorts[i].bv_width().ok_or_else(|| SortError {
                op: name.clone(),
                message: format!("argument {i} has sort {}, expected a bit-vector", sorts[i]),
            })
        };
        match op {
            Op::Not => {
                arity(1, true)?;
                all_bool()?;
                Ok(Sort::Bool)
            }
            Op::And | Op::Or => {
                all_bool()?;
                Ok(Sort::Bool)
            }
            Op::Xor | Op::Implies => {
                arity(2, false)?;
                all_bool()?;
                Ok(Sort::Bool)
            }
            Op::Ite => {
                arity(3, true)?;
                if !sorts[0].is_bool() {
                    return err(format!("condition has sort {}, expected Bool", sorts[0]));
                }
                if sorts[1] != sorts[2] {
                    return err(format!(
                        "branches have different sorts {} and {}",
                        sorts[1], sorts[2]
                    ));
                }
                Ok(sorts[1].clone())
            }
            Op::Eq | Op::Distinct => {
                arity(2, false)?;
                all_same()?;
                Ok(Sort::Bool)
            }
            op if op.is_bv_binary() || op.is_bv_compare() => {
                arity(2, true)?;
                bv_width(0)?;
                all_same()?;
                Ok(if op.is_bv_compare() {
                    Sort::Bool
                } else {
                    sorts[0].clone()
                })
            }
            Op::BvNot | Op::BvNeg => {
                arity(1, true)?;
                Ok(Sort::BitVec(bv_width(0)?))
            }
            Op::Concat => {
                arity(2, true)?;
                let (a, b) = (bv_width(0)?, bv_width(1)?);
                match a.checked_add(b) {
                    Some(w) => Ok(Sort::BitVec(w)),
                    None => err("result width overflows u32".into()),
                }
            }
            Op::Extract { hi, lo } => {
                arity(1, true)?;
                let w = bv_width(0)?;
                if lo > hi || *hi >= w {
                    return err(format!(
                        "bit range [{hi}:{lo}] is not within a {w}-bit argument"
                    ));
                }
                Ok(Sort::BitVec(hi - lo + 1))
            }
            Op::ZeroExtend(n) | Op::SignExtend(n) => {
                arity(1, true)?;
                match bv_width(0)?.checked_add(*n) {
                    Some(w) => Ok(Sort::BitVec(w)),
                    None => err("result width overflows u32".into()),
                }
            }
            Op::Select | Op::Store => {
                arity(if *op == Op::Select { 2 } else { 3 }, true)?;
                let Some((index, elem)) = sorts[0].array_parts() else {
                    return err(format!(
                        "argument 0 has sort {}, expected an array",
                        sorts[0]
                    ));
                };
                if sorts[1] != index {
                    return err(format!(
                        "index has sort {}, but the array is indexed by {index}",
                        sorts[1]
                    ));
                }
                if *op == Op::Select {
                    return Ok(elem.clone());
                }
                if sorts[2] != elem {
                    return err(format!(
                        "element has sort {}, but the array holds {elem}",
                        sorts[2]
                    ));
                }
                Ok(sorts[0].clone())
            }
            Op::Fp(f) => f.result_sort(&sorts).or_else(|m| err(m)),
            Op::Apply(f) => {
                let d = self.fun(*f);
                if d.args.is_empty() {
                    return err("is a constant; use the term returned by declare_const".into());
                }
                arity(d.args.len(), true)?;
                for (i, (s, want)) in sorts.iter().zip(&d.args).enumerate() {
                    if *s != want {
                        return err(format!("argument {i} has sort {s}, expected {want}"));
                    }
                }
                Ok(d.ret.clone())
            }
            _ => unreachable!("every operator is handled above"),
        }
    }

    /// A constant array indexed by `index` whose every element is `value`.
    pub fn try_const_array(&mut self, index: Sort, value: TermId) -> Result<TermId, SortError> {
        check_sort("const array", &index)?;
        let sort = Sort::array(index, self.sort_of(value).clone());
        Ok(self.intern(TermKind::ConstArray(value), sort))
    }

    /// A constant array; panics on an invalid index sort.
    pub fn const_array(&mut self, index: Sort, value: TermId) -> TermId {
        self.try_const_array(index, value)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A quantified formula over bound variables made by [`TermStore::bound_var`].
    pub fn try_quantifier(
        &mut self,
        quantifier: Quantifier,
        vars: &[TermId],
        body: TermId,
    ) -> Result<TermId, SortError> {
        let op = if quantifier == Quantifier::Forall {
            "forall"
        } else {
            "exists"
        };
        let err = |message: String| {
            Err(SortError {
                op: op.into(),
                message,
            })
        };
        if let Some(v) = vars
            .iter()
            .find(|&&v| !matches!(self.kind(v), TermKind::Var { .. }))
        {
            return err(format!("{} is not a bound variable", self.display(*v)));
        }
        if !self.sort_of(body).is_bool() {
            return err(format!(
                "body has sort {}, expected Bool",
                self.sort_of(body)
            ));
        }
        // Quantifying over no variable, or over a constant body, changes
        // nothing: SMT-LIB sorts are non-empty.
        if vars.is_empty() || (self.simplify && self.as_bool(body).is_some()) {
            return Ok(body);
        }
        Ok(self.intern(
            TermKind::Quant {
                quantifier,
                vars: vars.into(),
                body,
            },
            Sort::Bool,
        ))
    }

    /// `(forall (vars) body)`; panics if ill sorted.
    pub fn forall(&mut self, vars: &[TermId], body: TermId) -> TermId {
        self.try_quantifier(Quantifier::Forall, vars, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// `(exists (vars) body)`; panics if ill sorted.
    pub fn exists(&mut self, vars: &[TermId], body: TermId) -> TermId {
        self.try_quantifier(Quantifier::Exists, vars, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The uninterpreted sorts and declared symbols that `roots` use, each
    /// once, in depth-first first-use order. Bound variables are not included.
    pub fn free_symbols(&self, roots: &[TermId]) -> FreeSymbols {
        let mut out = FreeSymbols::default();
        let mut seen_terms = HashSet::new();
        let mut seen_funs = HashSet::new();
        let mut seen_sorts = HashSet::new();
        let mut stack: Vec<TermId> = roots.iter().rev().copied().collect();
        let mut add_sorts = |sort: &Sort, out: &mut FreeSymbols| {
            sort.for_each_uninterpreted(&mut |name| {
                if seen_sorts.insert(name.to_string()) {
                    out.sorts.push(name.to_string());
                }
            })
        };
        while let Some(t) = stack.pop() {
            if !seen_terms.insert(t) {
                continue;
            }
            add_sorts(self.sort_of(t), &mut out);
            match self.kind(t) {
                TermKind::Bool(_) | TermKind::BitVec(_) | TermKind::Var { .. } => {}
                TermKind::Const(f) | TermKind::App(Op::Apply(f), _) if !seen_funs.contains(f) => {
                    seen_funs.insert(*f);
                    let d = self.fun(*f);
                    for s in &d.args {
                        add_sorts(s, &mut out);
                    }
                    out.funs.push(*f);
                    if let TermKind::App(_, args) = self.kind(t) {
                        stack.extend(args.iter().rev());
                    }
                }
                TermKind::Const(_) => {}
                TermKind::App(_, args) => stack.extend(args.iter().rev()),
                TermKind::ConstArray(v) => stack.push(*v),
                TermKind::Quant { vars, body, .. } => {
                    stack.push(*body);
                    stack.extend(vars.iter());
                }
            }
        }
        out
    }
}

// ----- convenience builders ----------------------------------------------

macro_rules! binary_builders {
    ($($(#[$doc:meta])* $name:ident => $op:ident;)*) => {
        impl TermStore {
            $($(#[$doc])* pub fn $name(&mut self, a: TermId, b: TermId) -> TermId {
                self.app(Op::$op, &[a, b])
            })*
        }
    };
}

binary_builders! {
    /// `(xor a b)`.
    xor => Xor;
    /// `(=> a b)`.
    implies => Implies;
    /// `(= a b)`.
    eq => Eq;
    /// `(bvadd a b)`.
    bvadd => BvAdd;
    /// `(bvsub a b)`.
    bvsub => BvSub;
    /// `(bvmul a b)`.
    bvmul => BvMul;
    /// `(bvudiv a b)`.
    bvudiv => BvUdiv;
    /// `(bvsdiv a b)`.
    bvsdiv => BvSdiv;
    /// `(bvurem a b)`.
    bvurem => BvUrem;
    /// `(bvsrem a b)`.
    bvsrem => BvSrem;
    /// `(bvshl a b)`.
    bvshl => BvShl;
    /// `(bvlshr a b)`.
    bvlshr => BvLshr;
    /// `(bvashr a b)`.
    bvashr => BvAshr;
    /// `(bvand a b)`.
    bvand => BvAnd;
    /// `(bvor a b)`.
    bvor => BvOr;
    /// `(bvxor a b)`.
    bvxor => BvXor;
    /// `(bvult a b)`.
    bvult => BvUlt;
    /// `(bvule a b)`.
    bvule => BvUle;
    /// `(bvugt a b)`.
    bvugt => BvUgt;
    /// `(bvuge a b)`.
    bvuge => BvUge;
    /// `(bvslt a b)`.
    bvslt => BvSlt;
    /// `(bvsle a b)`.
    bvsle => BvSle;
    /// `(bvsgt a b)`.
    bvsgt => BvSgt;
    /// `(bvsge a b)`.
    bvsge => BvSge;
    /// `(concat a b)`: `a` supplies the high bits.
    concat => Concat;
    /// `(select array index)`.
    select => Select;
}

impl TermStore {
    /// `(not a)`.
    pub fn not(&mut self, a: TermId) -> TermId {
        self.app(Op::Not, &[a])
    }

    /// `(and args...)`; `true` for no argument.
    pub fn and(&mut self, args: &[TermId]) -> TermId {
        self.app(Op::And, args)
    }

    /// `(or args...)`; `false` for no argument.
    pub fn or(&mut self, args: &[TermId]) -> TermId {
        self.app(Op::Or, args)
    }

    /// `(ite c t e)`.
    pub fn ite(&mut self, c: TermId, t: TermId, e: TermId) -> TermId {
        self.app(Op::Ite, &[c, t, e])
    }

    /// `(distinct args...)`.
    pub fn distinct(&mut self, args: &[TermId]) -> TermId {
        self.app(Op::Distinct, args)
    }

    /// `(bvnot a)`.
    pub fn bvnot(&mut self, a: TermId) -> TermId {
        self.app(Op::BvNot, &[a])
    }

    /// `(bvneg a)`.
    pub fn bvneg(&mut self, a: TermId) -> TermId {
        self.app(Op::BvNeg, &[a])
    }

    /// `((_ extract hi lo) a)`.
    pub fn extract(&mut self, hi: u32, lo: u32, a: TermId) -> TermId {
        self.app(Op::Extract { hi, lo }, &[a])
    }

    /// `((_ zero_extend n) a)`.
    pub fn zero_extend(&mut self, n: u32, a: TermId) -> TermId {
        self.app(Op::ZeroExtend(n), &[a])
    }

    /// `((_ sign_extend n) a)`.
    pub fn sign_extend(&mut self, n: u32, a: TermId) -> TermId {
        self.app(Op::SignExtend(n), &[a])
    }

    /// `(store array index value)`.
    pub fn store(&mut self, array: TermId, index: TermId, value: TermId) -> TermId {
        self.app(Op::Store, &[array, index, value])
    }
}

// ----- simplification ------------------------------------------------------

/// Folds a binary bit-vector operator on values of width `w` (1 to 128),
/// following the SMT-LIB definitions, including division by zero.
pub(crate) fn fold_bv_binary(op: &Op, a: u128, b: u128, w: u32) -> u128 {
    let m = mask(w);
    let neg = |x: u128| x.wrapping_neg() & m;
    let msb = |x: u128| (x >> (w - 1)) & 1 == 1;
    let udiv = |s: u128, t: u128| s.checked_div(t).unwrap_or(m);
    let urem = |s: u128, t: u128| if t == 0 { s } else { s % t };
    let r = match op {
        Op::BvAdd => a.wrapping_add(b),
        Op::BvSub => a.wrapping_sub(b),
        Op::BvMul => a.wrapping_mul(b),
        Op::BvUdiv => udiv(a, b),
        Op::BvUrem => urem(a, b),
        Op::BvSdiv => match (msb(a), msb(b)) {
            (false, false) => udiv(a, b),
            (true, false) => neg(udiv(neg(a), b)),
            (false, true) => neg(udiv(a, neg(b))),
            (true, true) => udiv(neg(a), neg(b)),
        },
        Op::BvSrem => match (msb(a), msb(b)) {
            (false, false) => urem(a, b),
            (true, false) => neg(urem(neg(a), b)),
            (false, true) => urem(a, neg(b)),
            (true, true) => neg(urem(neg(a), neg(b))),
        },
        Op::BvShl if b >= w as u128 => 0,
        Op::BvShl => a << b,
        Op::BvLshr if b >= w as u128 => 0,
        Op::BvLshr => a >> b,
        Op::BvAshr if b >= w as u128 => {
            if msb(a) {
                m
            } else {
                0
            }
        }
        Op::BvAshr => (to_signed(a, w) >> b) as u128,
        Op::BvAnd => a & b,
        Op::BvOr => a | b,
        Op::BvXor => a ^ b,
        _ => unreachable!("not a binary bit-vector operator: {op:?}"),
    };
    r & m
}

/// Folds a bit-vector comparison on values of width `w` (1 to 128).
pub(crate) fn fold_bv_compare(op: &Op, a: u128, b: u128, w: u32) -> bool {
    let (sa, sb) = (to_signed(a, w), to_signed(b, w));
    match op {
        Op::BvUlt => a < b,
        Op::BvUle => a <= b,
        Op::BvUgt => a > b,
        Op::BvUge => a >= b,
        Op::BvSlt => sa < sb,
        Op::BvSle => sa <= sb,
        Op::BvSgt => sa > sb,
        Op::BvSge => sa >= sb,
        _ => unreachable!("not a bit-vector comparison: {op:?}"),
    }
}

impl TermStore {
    /// The value of a bit-vector literal of width at most 128.
    fn small_bv(&self, t: TermId) -> Option<u128> {
        self.as_bv(t).and_then(BvValue::small)
    }

    fn is_literal(&self, t: TermId) -> bool {
        matches!(self.kind(t), TermKind::Bool(_) | TermKind::BitVec(_))
    }

    /// `t` as `(base, k)` when it is `base + k` (or `k + base`) with `k` a
    /// nonzero bit-vector literal.
    pub fn as_sum_with_constant(&self, t: TermId) -> Option<(TermId, TermId)> {
        let &[x, y] = self.app_args(t, &Op::BvAdd)? else { return None };
        [(x, y), (y, x)].into_iter().find(|&(_, k)| self.as_bv(k).is_some_and(|v| !v.is_zero()))
    }

    fn app_args(&self, t: TermId, op: &Op) -> Option<&[TermId]> {
        match self.kind(t) {
            TermKind::App(o, args) if o == op => Some(args),
            _ => None,
        }
    }

    /// Returns a simpler equivalent of the well-sorted `op(args)`, or `None`
    /// to build it as is.
    fn simplify_app(&mut self, op: &Op, args: &[TermId]) -> Option<TermId> {
        match op {
            Op::Not => {
                let a = args[0];
                if let Some(b) = self.as_bool(a) {
                    return Some(self.bool_const(!b));
                }
                self.app_args(a, &Op::Not).map(|inner| inner[0])
            }
            Op::And | Op::Or => {
                let absorbing = *op == Op::Or;
                let mut kept = Vec::with_capacity(args.len());
                let mut seen = HashSet::new();
                for &a in args {
                    match self.as_bool(a) {
                        Some(b) if b == absorbing => return Some(self.bool_const(absorbing)),
                        Some(_) => {}
                        None => {
                            if seen.insert(a) {
                                kept.push(a);
                            }
                        }
                    }
                }
                // `x` together with `not x` decides the result.
                if kept.iter().any(|&a| {
                    self.app_args(a, &Op::Not)
                        .is_some_and(|x| seen.contains(&x[0]))
                }) {
                    return Some(self.bool_const(absorbing));
                }
                match kept.len() {
                    0 => Some(self.bool_const(!absorbing)),
                    1 => Some(kept[0]),
                    _ if kept.len() == args.len() => None,
                    _ => Some(self.intern(TermKind::App(op.clone(), kept.into()), Sort::Bool)),
                }
            }
            Op::Xor => {
                let mut parity = false;
                let mut kept = Vec::new();
                for &a in args {
                    match self.as_bool(a) {
                        Some(b) => parity ^= b,
                        None => kept.push(a),
                    }
                }
                if kept.len() == 2 && kept[0] == kept[1] {
                    kept.clear();
                }
                let base = match kept.len() {
                    0 => self.bool_const(false),
                    1 => kept[0],
                    _ if kept.len() == args.len() => return None,
                    _ => self.intern(TermKind::App(Op::Xor, kept.into()), Sort::Bool),
                };
                Some(if parity { self.not(base) } else { base })
            }
            Op::Implies => {
                let (a, b) = (args[0], args[1]);
                match (self.as_bool(a), self.as_bool(b)) {
                    (Some(true), _) => Some(b),
                    (Some(false), _) | (_, Some(true)) => Some(self.true_()),
                    (_, Some(false)) => Some(self.not(a)),
                    _ if a == b => Some(self.true_()),
                    _ => None,
                }
            }
            Op::Ite => {
                let (c, t, e) = (args[0], args[1], args[2]);
                if let Some(b) = self.as_bool(c) {
                    return Some(if b { t } else { e });
                }
                if t == e {
                    return Some(t);
                }
                match (self.as_bool(t), self.as_bool(e)) {
                    (Some(true), Some(false)) => return Some(c),
                    (Some(false), Some(true)) => return Some(self.not(c)),
                    _ => {}
                }
                let inner = self.app_args(c, &Op::Not).map(|x| x[0]);
                inner.map(|c| self.ite(c, e, t))
            }
            Op::Eq => {
                if args.iter().all(|&a| a == args[0]) {
                    return Some(self.true_());
                }
                if args.len() != 2 {
                    return None;
                }
                let (a, b) = (args[0], args[1]);
                // Literals are hash-consed, so two different literal ids are
                // two different values.
                if self.is_literal(a) && self.is_literal(b) {
                    return Some(self.false_());
                }
                // `x + k1 = x + k2` with different literals `k1`, `k2` (one
                // may be absent, standing for zero) never holds: addition of
                // a constant is a bijection modulo 2^w.
                let split = |t| self.as_sum_with_constant(t).map_or((t, None), |(base, k)| (base, Some(k)));
                let ((base_a, k_a), (base_b, k_b)) = (split(a), split(b));
                if base_a == base_b && k_a != k_b {
                    return Some(self.false_());
                }
                match (self.as_bool(a), self.as_bool(b)) {
                    (Some(true), _) => Some(b),
                    (_, Some(true)) => Some(a),
                    (Some(false), _) => Some(self.not(b)),
                    (_, Some(false)) => Some(self.not(a)),
                    _ => None,
                }
            }
            Op::Distinct => {
                let unique: HashSet<_> = args.iter().collect();
                if unique.len() < args.len() {
                    return Some(self.false_());
                }
                if args.iter().all(|&a| self.is_literal(a)) {
                    return Some(self.true_());
                }
                None
            }
            op if op.is_bv_binary() => self.simplify_bv_binary(op, args[0], args[1]),
            op if op.is_bv_compare() => {
                let (a, b) = (args[0], args[1]);
                let w = self.sort_of(a).bv_width().expect("checked");
                if let (Some(x), Some(y)) = (self.small_bv(a), self.small_bv(b)) {
                    return Some(self.bool_const(fold_bv_compare(op, x, y, w)));
                }
                if a == b {
                    let reflexive = matches!(op, Op::BvUle | Op::BvUge | Op::BvSle | Op::BvSge);
                    return Some(self.bool_const(reflexive));
                }
                None
            }
            Op::BvNot | Op::BvNeg => {
                let a = args[0];
                let w = self.sort_of(a).bv_width().expect("checked");
                if let Some(x) = self.small_bv(a) {
                    let r = if *op == Op::BvNot {
                        !x
                    } else {
                        x.wrapping_neg()
                    };
                    return Some(self.bv_const(w, r));
                }
                self.app_args(a, op).map(|inner| inner[0])
            }
            Op::Concat => {
                let (a, b) = (args[0], args[1]);
                let (wa, wb) = (self.sort_of(a).bv_width()?, self.sort_of(b).bv_width()?);
                match (self.small_bv(a), self.small_bv(b)) {
                    (Some(x), Some(y)) if wa + wb <= BvValue::MAX_SMALL_WIDTH => {
                        Some(self.bv_const(wa + wb, (x << wb) | y))
                    }
                    _ => None,
                }
            }
            Op::Extract { hi, lo } => {
                let a = args[0];
                let w = self.sort_of(a).bv_width().expect("checked");
                if *lo == 0 && *hi == w - 1 {
                    return Some(a);
                }
                if let Some(x) = self.small_bv(a) {
                    return Some(self.bv_const(hi - lo + 1, x >> lo));
                }
                // Nested extracts compose into one.
                if let TermKind::App(Op::Extract { lo: lo2, .. }, inner) = self.kind(a) {
                    let (lo2, inner) = (*lo2, inner[0]);
                    return Some(self.extract(hi + lo2, lo + lo2, inner));
                }
                None
            }
            Op::ZeroExtend(n) | Op::SignExtend(n) => {
                let a = args[0];
                if *n == 0 {
                    return Some(a);
                }
                let w = self.sort_of(a).bv_width().expect("checked");
                let x = self.small_bv(a)?;
                if w + n > BvValue::MAX_SMALL_WIDTH {
                    return None;
                }
                let v = if matches!(op, Op::SignExtend(_)) {
                    to_signed(x, w) as u128
                } else {
                    x
                };
                Some(self.bv_const(w + n, v))
            }
            Op::Select => {
                let (mut array, index) = (args[0], args[1]);
                // Read over write: skip stores to indices that are different
                // literals, stop at the first store to the same index.
                loop {
                    match self.kind(array) {
                        TermKind::ConstArray(v) => return Some(*v),
                        TermKind::App(Op::Store, st) => {
                            let (inner, i, v) = (st[0], st[1], st[2]);
                            if i == index {
                                return Some(v);
                            }
                            if self.is_literal(i) && self.is_literal(index) {
                                array = inner;
                                continue;
                            }
                        }
                        _ => {}
                    }
                    break;
                }
                (array != args[0]).then(|| self.select(array, index))
            }
            Op::Store => {
                let (array, index, value) = (args[0], args[1], args[2]);
                // Writing back what is already there changes nothing.
                match self.app_args(value, &Op::Select) {
                    Some(sel) if sel[0] == array && sel[1] == index => Some(array),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn simplify_bv_binary(&mut self, op: &Op, a: TermId, b: TermId) -> Option<TermId> {
        let w = self.sort_of(a).bv_width().expect("checked");
        let (x, y) = (self.small_bv(a), self.small_bv(b));
        if let (Some(x), Some(y)) = (x, y) {
            return Some(self.bv_const(w, fold_bv_binary(op, x, y, w)));
        }
        let zero = |v: Option<u128>| v == Some(0);
        let one = |v: Option<u128>| v == Some(1);
        let ones = |v: Option<u128>| w <= BvValue::MAX_SMALL_WIDTH && v == Some(mask(w));
        match op {
            Op::BvAdd | Op::BvOr | Op::BvXor if zero(x) => Some(b),
            Op::BvAdd | Op::BvSub | Op::BvOr | Op::BvXor | Op::BvShl | Op::BvLshr | Op::BvAshr
                if zero(y) =>
            {
                Some(a)
            }
            // `0 / 0` is all ones in SMT-LIB, so division is not in this list.
            Op::BvShl | Op::BvLshr | Op::BvAshr | Op::BvUrem | Op::BvSrem if zero(x) => Some(a),
            Op::BvMul | Op::BvAnd if zero(x) => Some(a),
            Op::BvMul | Op::BvAnd if zero(y) => Some(b),
            Op::BvMul if one(x) => Some(b),
            Op::BvMul | Op::BvUdiv | Op::BvSdiv if one(y) => Some(a),
            // `x & (2^k - 1)` of an `x` whose low k bits are known zero.
            Op::BvAnd
                if y.and_then(|m| m.checked_add(1))
                    .is_some_and(|m1| m1.is_power_of_two() && self.known_trailing_zeros(a) >= m1.trailing_zeros()) =>
            {
                Some(self.bv_value(BvValue::zero(w)))
            }
            Op::BvAnd if ones(x) => Some(b),
            Op::BvAnd if ones(y) => Some(a),
            Op::BvOr if ones(x) => Some(a),
            Op::BvOr if ones(y) => Some(b),
            Op::BvAnd | Op::BvOr if a == b => Some(a),
            Op::BvSub | Op::BvXor if a == b => Some(self.bv_value(BvValue::zero(w))),
            _ => None,
        }
    }
}
