//! The shared term context of an encoding: the hash-consed store, the
//! definitions that name subterms, and the cache of uninterpreted functions.
//!
//! The SMT printer writes terms without `let`, so a DAG with sharing would
//! print as an exponentially large tree. The encoder therefore *names* every
//! non-trivial term it keeps: `name(t)` returns a fresh constant `d` and
//! records the definition `d = t`, which is asserted once at the base level
//! of the solver. Every printed term then stays small.

use std::collections::HashMap;

use lockstep_smt::{BvValue, FunId, Sort, TermId, TermKind, TermStore};

/// A value of the encoding: KIR booleans are SMT Booleans, integers and
/// floats are bit-vectors (floats are only ever bits passed to uninterpreted
/// functions), and pointers are (object number: bv16, byte offset: bv64).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Val {
    B(TermId),
    V(TermId),
    P(TermId, TermId),
}

/// The width of an object number in the encoding.
pub const OBJ_BITS: u32 = 16;

pub struct Terms {
    pub st: TermStore,
    /// Definitions `d = t`, asserted at the solver's base level.
    pub defs: Vec<TermId>,
    funs: HashMap<String, FunId>,
    /// The known trailing zero bits of the names whose terms have some
    /// (see `TermStore::known_trailing_zeros`).
    name_zeros: HashMap<TermId, u32>,
}

impl Terms {
    pub fn new() -> Terms {
        Terms { st: TermStore::new(), defs: Vec::new(), funs: HashMap::new(), name_zeros: HashMap::new() }
    }

    /// How many low bits of `t` are zero in every model, as far as its
    /// shape and the terms its names stand for show.
    pub fn known_trailing_zeros(&self, t: TermId) -> u32 {
        self.st.known_trailing_zeros_with(t, &|c| self.name_zeros.get(&c).copied().unwrap_or(0))
    }

    /// A constant standing for `t`, unless `t` is already a literal or a
    /// symbol.
    pub fn name(&mut self, t: TermId) -> TermId {
        match self.st.kind(t) {
            TermKind::Bool(_) | TermKind::BitVec(_) | TermKind::Const(_) => t,
            _ => {
                let sort = self.st.sort_of(t).clone();
                let zeros = if sort.bv_width().is_some() { self.known_trailing_zeros(t) } else { 0 };
                let d = self.st.fresh_const("d", sort);
                if zeros > 0 {
                    self.name_zeros.insert(d, zeros);
                }
                let eq = self.st.eq(d, t);
                self.defs.push(eq);
                d
            }
        }
    }

    pub fn name_val(&mut self, v: Val) -> Val {
        match v {
            Val::B(t) => Val::B(self.name(t)),
            Val::V(t) => Val::V(self.name(t)),
            Val::P(b, o) => Val::P(self.name(b), self.name(o)),
        }
    }

    /// A bit-vector literal of any positive width (values wider than 128
    /// bits are zero-extended from `value`).
    pub fn bv(&mut self, width: u32, value: u128) -> TermId {
        let width = width.max(1);
        if width <= 128 {
            self.st.bv_const(width, value)
        } else {
            let v = BvValue::from_limbs(width, &[value as u64, (value >> 64) as u64]);
            self.st.bv_value(v)
        }
    }

    pub fn tt(&mut self) -> TermId {
        self.st.true_()
    }

    pub fn ff(&mut self) -> TermId {
        self.st.false_()
    }

    pub fn is_false(&self, t: TermId) -> bool {
        self.st.as_bool(t) == Some(false)
    }

    pub fn width(&self, t: TermId) -> u32 {
        self.st.sort_of(t).bv_width().unwrap_or(1)
    }

    /// Applies the uninterpreted function `name` (declared on first use).
    pub fn uf(&mut self, name: &str, args: &[TermId], ret: Sort) -> TermId {
        let sorts: Vec<Sort> = args.iter().map(|&a| self.st.sort_of(a).clone()).collect();
        let mut key: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        key = format!("uf_{key}");
        for s in sorts.iter().chain([&ret]) {
            key.push('_');
            key.push_str(&s.to_string().replace(|c: char| !c.is_ascii_alphanumeric(), ""));
        }
        let f = match self.funs.get(&key) {
            Some(&f) => f,
            None => {
                let f = self.st.declare_fun(&key, &sorts, ret);
                self.funs.insert(key, f);
                f
            }
        };
        if args.is_empty() {
            // A nullary "function" is a constant; applying it is the term itself.
            let sort = self.st.fun(f).ret.clone();
            return self.st.declare_const(&self.st.fun(f).name.clone(), sort);
        }
        self.st.apply(f, args)
    }

    /// `ite` over values of the same shape.
    pub fn ite_val(&mut self, c: TermId, a: Val, b: Val) -> Val {
        if a == b {
            return a;
        }
        match (a, b) {
            (Val::B(x), Val::B(y)) => Val::B(self.st.ite(c, x, y)),
            (Val::V(x), Val::V(y)) => Val::V(self.st.ite(c, x, y)),
            (Val::P(xb, xo), Val::P(yb, yo)) => {
                let b = self.st.ite(c, xb, yb);
                let o = self.st.ite(c, xo, yo);
                Val::P(b, o)
            }
            // Shapes differ only for ill-typed IR; keep the first.
            (a, _) => a,
        }
    }

    /// A Boolean as a 1-bit vector.
    pub fn bool_to_bv(&mut self, b: TermId) -> TermId {
        let one = self.bv(1, 1);
        let zero = self.bv(1, 0);
        self.st.ite(b, one, zero)
    }

    /// A 1-bit vector as a Boolean.
    pub fn bv_to_bool(&mut self, t: TermId) -> TermId {
        let w = self.width(t);
        let low = if w == 1 { t } else { self.st.extract(0, 0, t) };
        let one = self.bv(1, 1);
        self.st.eq(low, one)
    }

    /// The 64 bits of a pointer: object number in the top 16 bits, the low
    /// 48 bits of the offset below.
    pub fn encode_ptr(&mut self, base: TermId, off: TermId) -> TermId {
        let low = self.st.extract(47, 0, off);
        self.st.concat(base, low)
    }

    pub fn decode_ptr(&mut self, bits: TermId) -> Val {
        let base = self.st.extract(63, 48, bits);
        let low = self.st.extract(47, 0, bits);
        let off = self.st.zero_extend(16, low);
        Val::P(base, off)
    }

    /// Resizes a bit-vector to `width` by truncation or zero extension.
    pub fn resize(&mut self, t: TermId, width: u32) -> TermId {
        let w = self.width(t);
        match w.cmp(&width) {
            std::cmp::Ordering::Equal => t,
            std::cmp::Ordering::Greater => self.st.extract(width - 1, 0, t),
            std::cmp::Ordering::Less => self.st.zero_extend(width - w, t),
        }
    }
}
