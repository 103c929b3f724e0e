//! The prelude's half-precision operations (`__hadd`, `operator+` on
//! `__half`, `__hmul2`, ...), which `<cuda_fp16.h>` declares without
//! bodies, in the symbolic engine.
//!
//! `__half` and `__half2` are structs, so the operations receive their
//! operands by address: a by-value operand is a private copy made by a
//! `memcpy` just before the call ([`Executor::mem_copy`] records how many
//! bytes), and a `const __half &` operand of an operator is the address of
//! the element itself (its width in the mangled name). As in the
//! interpreter (`lockstep_replay::half`, whose naming of the operations
//! this module shares), each pointer operand is replaced by the bits it
//! points to, and the result lane `i` (the front-end calls `NAME.laneI`
//! once per 16-bit field) is computed from lane `i` of each `__half2`
//! operand (a `__half` operand serves every lane): addition, subtraction,
//! multiplication and division as the engine's 16-bit float operations
//! (uninterpreted and commutative by default, IEEE with `--float=ieee`),
//! negation and absolute value on the sign bit, and any other operation
//! as an uninterpreted function of the values read.

use super::*;

use lockstep_kir::FloatOp;
use lockstep_smt::{Op, TermKind};

impl Executor<'_> {
    /// The result of the call of `name` when it is a half operation of the
    /// prelude (`None` otherwise, for the generic model of external calls).
    pub(super) fn half_call(&mut self, p: &Path, inst: InstId, name: &str, args: &[ValueId], ty: Type, loc: Option<SrcLoc>) -> Res<Option<TermId>> {
        let (op, lane) = lockstep_replay::half::operation_and_lane(name);
        if op.is_empty() {
            return Ok(None);
        }
        let mut vals = Vec::new();
        for &a in args {
            let v = match self.val(p, a, loc)? {
                SV::Ptr { obj, off } => {
                    let lit = self.inp.st.as_bv(off).and_then(|v| v.to_u128());
                    let bytes = match self.copied.get(&obj) {
                        Some(&n) if lit == Some(0) => Some(n),
                        _ => {
                            let symbol = name.split('.').next().unwrap_or(name);
                            if symbol.starts_with("_Z") && symbol.contains("7__half2") {
                                Some(4)
                            } else if symbol.starts_with("_Z") && symbol.contains("6__half") {
                                Some(2)
                            } else {
                                None
                            }
                        }
                    };
                    let Some(n) = bytes.filter(|&n| n == 2 || n == 4) else {
                        return unsupported(format!("an operand of `{name}` whose size is not known"), loc);
                    };
                    self.read_bytes(p, inst, obj, off, n, loc)?
                }
                SV::Bv(t) => t,
                SV::Bool(_) => return unsupported(format!("a boolean operand of `{name}`"), loc),
            };
            vals.push(v);
        }
        let st = &mut self.inp.st;
        let lanes: Vec<TermId> = vals
            .iter()
            .map(|&v| match st.sort_of(v).bv_width() {
                Some(w) if w >= 32 && lane < 2 => st.extract(16 * lane as u32 + 15, 16 * lane as u32, v),
                Some(w) if w > 16 => st.extract(15, 0, v),
                _ => v,
            })
            .collect();
        if ty.bits() != 16 || lanes.iter().any(|&l| self.inp.st.sort_of(l).bv_width() != Some(16)) {
            // Conversions and comparisons: a function of the values.
            self.inp.used.uninterpreted_calls = true;
            return Ok(Some(self.inp.uf(&format!("ext.{name}"), &vals, Sort::bv(ty.bits()))));
        }
        let r = match (op.as_str(), &lanes[..]) {
            ("add", [x, y]) => self.float_op(FloatOp::Add, 16, vec![*x, *y]),
            ("sub" | "sub_or_neg", [x, y]) => self.float_op(FloatOp::Sub, 16, vec![*x, *y]),
            ("mul", [x, y]) => self.float_op(FloatOp::Mul, 16, vec![*x, *y]),
            ("div", [x, y]) => self.float_op(FloatOp::Div, 16, vec![*x, *y]),
            ("neg" | "sub_or_neg", [x]) => {
                let m = self.inp.st.bv_const(16, 0x8000);
                self.inp.st.bvxor(*x, m)
            }
            ("abs", [x]) => {
                let m = self.inp.st.bv_const(16, 0x7fff);
                self.inp.st.bvand(*x, m)
            }
            _ => {
                self.inp.used.uninterpreted_calls = true;
                let lane_name = format!("ext.half.{op}");
                self.inp.uf(&lane_name, &lanes, Sort::bv(16))
            }
        };
        Ok(Some(r))
    }

    /// The `n` bytes at `off` of `obj`, read in the object's element
    /// width, lowest address in the lowest bits.
    fn read_bytes(&mut self, p: &Path, inst: InstId, obj: usize, off: TermId, n: u128, loc: Option<SrcLoc>) -> Res<TermId> {
        let known = match (self.objs[obj].bits, &self.objs[obj].key) {
            (Some(b), _) => Some(b),
            (None, ObjKey::Param(i)) => self.inp.buffers.get(i).map(|b| b.0),
            _ => None,
        };
        let eb = known.unwrap_or(16);
        if eb % 8 != 0 || (n * 8) % u128::from(eb) != 0 {
            return unsupported("a half operand that is not a whole number of the object's elements", loc);
        }
        let mut out: Option<TermId> = None;
        for i in 0..(n * 8) / u128::from(eb) {
            let d = self.inp.st.bv_const(64, i * u128::from(eb / 8));
            let o = self.inp.st.bvadd(off, d);
            let v = self.load_at(p, inst, obj, o, Type::Int(eb as u16), loc)?;
            let v = self.under_path(p, v);
            out = Some(match out {
                None => v,
                Some(low) => self.inp.st.concat(v, low),
            });
        }
        out.map_or_else(|| unsupported("an empty half operand", loc), Ok)
    }

    /// `v` as path `p` sees it: a guarded write `ite(c, x, old)` whose
    /// condition the path's condition includes (the copy made on this
    /// path just before the call) is `x`.
    fn under_path(&self, p: &Path, v: TermId) -> TermId {
        let st = &self.inp.st;
        let TermKind::App(Op::Ite, args) = st.kind(v) else { return v };
        let [c, x, _] = args[..] else { return v };
        let holds = c == p.pc || matches!(st.kind(p.pc), TermKind::App(Op::And, cs) if cs.contains(&c)) || st.as_bool(c) == Some(true);
        if holds {
            x
        } else {
            v
        }
    }
}
