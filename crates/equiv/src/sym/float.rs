//! Float arithmetic in the bounded and one-thread engines: uninterpreted
//! functions of the operands' bits ([`crate::FloatModel::Uninterpreted`]) or
//! SMT-LIB's FloatingPoint theory ([`crate::FloatModel::Ieee`]).

use super::*;

impl Executor<'_> {
    /// Float arithmetic: uninterpreted functions over the IEEE bits, or
    /// IEEE arithmetic under [`FloatModel::Ieee`]. Commutativity of `+`
    /// and `*` (which IEEE guarantees) is built in by ordering the
    /// arguments in both models (it also spares the solver from proving
    /// it, which takes Debian's z3 seconds); associativity, which IEEE does
    /// not guarantee, is not. Negation flips the sign bit, exactly as IEEE
    /// does.
    pub(super) fn float_op(&mut self, op: FloatOp, w: u32, mut args: Vec<TermId>) -> TermId {
        if op == FloatOp::Neg {
            let sign = self.inp.st.bv_const(w, 1u128 << (w - 1));
            return self.inp.st.bvxor(args[0], sign);
        }
        if matches!(op, FloatOp::Add | FloatOp::Mul) {
            args.sort();
        }
        let exact = match op {
            FloatOp::Add => Some(FpOp::Add),
            FloatOp::Sub => Some(FpOp::Sub),
            FloatOp::Mul => Some(FpOp::Mul),
            FloatOp::Div => Some(FpOp::Div),
            // LLVM's `frem` is C's `fmod` (the quotient truncated), not
            // SMT-LIB's `fp.rem` (the quotient rounded to nearest).
            FloatOp::Rem | FloatOp::Neg => None,
        };
        if let Some(fp) = exact {
            if let Some(r) = self.ieee_op(fp, w, &args) {
                return r;
            }
        }
        self.inp.used.uninterpreted_ops = true;
        self.inp.uf(&format!("{}{w}", op.name()), &args, Sort::bv(w))
    }

    /// `op` on the `w`-bit floats with bits `args`, in IEEE arithmetic,
    /// giving the result's bits; `None` unless floats are IEEE here.
    pub(super) fn ieee_op(&mut self, op: FpOp, w: u32, args: &[TermId]) -> Option<TermId> {
        if self.inp.floats != FloatModel::Ieee {
            return None;
        }
        let vals: Vec<TermId> = args.iter().map(|&a| self.inp.float_value(a, w)).collect::<Option<_>>()?;
        self.inp.used.ieee = true;
        let r = self.inp.st.fp(op, &vals);
        Some(self.inp.float_bits(r, w))
    }

    /// A float comparison in IEEE arithmetic (`None` unless floats are
    /// IEEE here): LLVM's ordered predicates are false on NaN, its
    /// unordered ones true.
    pub(super) fn ieee_compare(&mut self, cc: FloatCC, a: TermId, b: TermId) -> Option<TermId> {
        if self.inp.floats != FloatModel::Ieee {
            return None;
        }
        let w = self.inp.st.sort_of(a).bv_width()?;
        let (x, y) = (self.inp.float_value(a, w)?, self.inp.float_value(b, w)?);
        self.inp.used.ieee = true;
        let st = &mut self.inp.st;
        let nan_x = st.fp(FpOp::IsNaN, &[x]);
        let nan_y = st.fp(FpOp::IsNaN, &[y]);
        let unordered = st.or(&[nan_x, nan_y]);
        let ordered = st.not(unordered);
        let rel = |st: &mut TermStore, op: FpOp| st.fp(op, &[x, y]);
        Some(match cc {
            FloatCC::False => st.false_(),
            FloatCC::True => st.true_(),
            FloatCC::Ord => ordered,
            FloatCC::Uno => unordered,
            // fp.eq and the orderings are already false on NaN.
            FloatCC::Oeq => rel(st, FpOp::Eq),
            FloatCC::Ogt => rel(st, FpOp::Gt),
            FloatCC::Oge => rel(st, FpOp::Geq),
            FloatCC::Olt => rel(st, FpOp::Lt),
            FloatCC::Ole => rel(st, FpOp::Leq),
            FloatCC::One => {
                let eq = rel(st, FpOp::Eq);
                let ne = st.not(eq);
                st.and(&[ordered, ne])
            }
            FloatCC::Ueq | FloatCC::Ugt | FloatCC::Uge | FloatCC::Ult | FloatCC::Ule => {
                let op = match cc {
                    FloatCC::Ueq => FpOp::Eq,
                    FloatCC::Ugt => FpOp::Gt,
                    FloatCC::Uge => FpOp::Geq,
                    FloatCC::Ult => FpOp::Lt,
                    _ => FpOp::Leq,
                };
                let r = rel(st, op);
                st.or(&[unordered, r])
            }
            FloatCC::Une => {
                let eq = rel(st, FpOp::Eq);
                st.not(eq)
            }
        })
    }

    /// A conversion involving floats in IEEE arithmetic, on the bits `x`
    /// of a `fw`-bit value, to `tw` bits (`None` unless floats are IEEE
    /// here). Float-to-integer conversions truncate, as C's casts do; out
    /// of range, C leaves the result undefined and SMT-LIB unspecified.
    pub(super) fn ieee_cast(&mut self, op: CastOp, x: TermId, fw: u32, tw: u32) -> Option<TermId> {
        if self.inp.floats != FloatModel::Ieee {
            return None;
        }
        let value = match op {
            CastOp::FpToSi | CastOp::FpToUi => {
                let v = self.inp.float_value(x, fw)?;
                let to = if op == CastOp::FpToSi { FpOp::ToSigned(tw) } else { FpOp::ToUnsigned(tw) };
                self.inp.used.ieee = true;
                return Some(self.inp.st.fp(to, &[v]));
            }
            CastOp::SiToFp | CastOp::UiToFp => {
                let (exponent, significand) = float_format(tw)?;
                let to = if op == CastOp::SiToFp {
                    FpOp::FromSigned { exponent, significand }
                } else {
                    FpOp::FromUnsigned { exponent, significand }
                };
                self.inp.st.fp(to, &[x])
            }
            CastOp::FpExt | CastOp::FpTrunc => {
                let (exponent, significand) = float_format(tw)?;
                let v = self.inp.float_value(x, fw)?;
                self.inp.st.fp(FpOp::Convert { exponent, significand }, &[v])
            }
            _ => return None,
        };
        self.inp.used.ieee = true;
        Some(self.inp.float_bits(value, tw))
    }

    /// A call of a math function that IEEE defines exactly (`sqrt`, `fabs`,
    /// `fma`), in IEEE arithmetic on `w`-bit floats; `None` for any other
    /// function or model.
    pub(super) fn ieee_math(&mut self, name: &str, w: u32, args: &[TermId]) -> Option<TermId> {
        if self.inp.floats != FloatModel::Ieee || args.iter().any(|&a| self.inp.st.sort_of(a).bv_width() != Some(w)) {
            return None;
        }
        match (lockstep_replay::math::base_name(name).as_str(), args.len()) {
            ("sqrt", 1) => self.ieee_op(FpOp::Sqrt, w, args),
            ("fma", 3) => self.ieee_op(FpOp::Fma, w, args),
            // Clearing the sign bit is exactly what fabs does, NaN or not.
            ("fabs", 1) => {
                let keep = self.inp.st.bv_const(w, (1u128 << (w - 1)) - 1);
                Some(self.inp.st.bvand(args[0], keep))
            }
            _ => None,
        }
    }
}
