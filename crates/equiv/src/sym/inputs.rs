//! The symbols both kernels share ([`Inputs`]): the launch, the scalar
//! arguments, the input buffers' initial contents, and the uninterpreted
//! functions that model float operations and calls without a body.

use super::*;

/// The symbols both kernels share: launch, arguments, input memory.
pub struct Inputs {
    pub st: TermStore,
    /// Threads per group (concrete; unused by the one-thread mode).
    pub group_size: [u32; 3],
    /// Threads per group as terms: literals, or `blockDim.*` constants in
    /// the one-thread mode of [`crate::param`].
    pub local_size: [TermId; 3],
    /// The one-thread mode: the local id of the one symbolic thread that is
    /// executed (`tid.*` constants). `None`: every thread of the group runs
    /// with concrete local ids.
    pub local_id: Option<[TermId; 3]>,
    /// Group id and number of groups in each dimension.
    pub group_id: [TermId; 3],
    pub num_groups: [TermId; 3],
    /// The scalar argument of each parameter index (None for pointers).
    pub scalars: Vec<Option<TermId>>,
    /// Initial contents of each pointer parameter's buffer, created on the
    /// first access with that access's element width.
    pub buffers: HashMap<usize, (u32, TermId)>,
    /// Float operations and math functions as uninterpreted functions.
    pub(super) funs: HashMap<String, lockstep_smt::FunId>,
    /// How float arithmetic is modelled.
    pub floats: FloatModel,
    /// What the encoding had to assume about floats and calls, for the
    /// report (see [`Inputs::float_assumptions`]).
    pub(super) used: FloatUse,
}

/// A read of an input buffer's element, as terms (see
/// [`Inputs::buffer_reads`]).
pub struct BufferRead {
    pub param: usize,
    pub bits: u32,
    /// The byte offset.
    pub offset: TermId,
    pub value: TermId,
}

/// Which kinds of float and call encodings a run used.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct FloatUse {
    /// Float operations as uninterpreted functions.
    pub(super) uninterpreted_ops: bool,
    /// Calls of functions without a body as uninterpreted functions.
    pub(super) uninterpreted_calls: bool,
    /// IEEE arithmetic in SMT-LIB's FloatingPoint theory.
    pub(super) ieee: bool,
}

impl Inputs {
    /// Symbols for a launch with `group_size` threads per group and
    /// `num_groups` groups (`None`: any number), and for the parameters of
    /// `params` (both kernels have parameters of the same types).
    pub fn new(group_size: [u32; 3], num_groups: [Option<u64>; 3], params: &[Type]) -> Inputs {
        let mut st = TermStore::new();
        let dims = ["x", "y", "z"];
        let num_groups = [0, 1, 2].map(|d| match num_groups[d] {
            Some(n) => st.bv_const(32, n as u128),
            None => st.declare_const(&format!("gridDim.{}", dims[d]), Sort::bv(32)),
        });
        let group_id = [0, 1, 2].map(|d| match st.as_bv(num_groups[d]).and_then(|v| v.to_u128()) {
            Some(1) => st.bv_const(32, 0),
            _ => st.declare_const(&format!("blockIdx.{}", dims[d]), Sort::bv(32)),
        });
        let scalars = params
            .iter()
            .enumerate()
            .map(|(i, ty)| match ty {
                Type::Int(w) if *w > 1 => Some(st.declare_const(&format!("arg{i}"), Sort::bv(*w as u32))),
                Type::Float(w) => Some(st.declare_const(&format!("arg{i}"), Sort::bv(*w as u32))),
                _ => None,
            })
            .collect();
        let local_size = group_size.map(|n| st.bv_const(32, n as u128));
        Inputs {
            st,
            group_size,
            local_size,
            local_id: None,
            group_id,
            num_groups,
            scalars,
            buffers: HashMap::new(),
            funs: HashMap::new(),
            floats: FloatModel::Uninterpreted,
            used: FloatUse::default(),
        }
    }

    /// Symbols for the one-thread mode: block sizes are literals where the
    /// launch fixes them and `blockDim.*` constants otherwise, and the local
    /// id is a `tid.*` constant in every dimension whose block size is not 1.
    pub fn new_param(group_size: [Option<u64>; 3], num_groups: [Option<u64>; 3], params: &[Type]) -> Inputs {
        let mut inp = Inputs::new([1; 3], num_groups, params);
        let dims = ["x", "y", "z"];
        inp.local_size = [0, 1, 2].map(|d| match group_size[d] {
            Some(n) => inp.st.bv_const(32, n as u128),
            None => inp.st.declare_const(&format!("blockDim.{}", dims[d]), Sort::bv(32)),
        });
        inp.local_id = Some([0, 1, 2].map(|d| match group_size[d] {
            Some(1) => inp.st.bv_const(32, 0),
            _ => inp.st.declare_const(&format!("tid.{}", dims[d]), Sort::bv(32)),
        }));
        inp
    }

    /// The launch constraints: each group id below its dimension, and each
    /// symbolic dimension within CUDA's limits.
    /// Makes the scalar arguments that `values` fixes (`--kernel-args`)
    /// literals, so that loops over them unroll like loops over constants.
    pub fn fix_scalars(&mut self, values: &[Option<u128>]) {
        for (i, v) in values.iter().enumerate() {
            if let (Some(v), Some(Some(t))) = (v, self.scalars.get(i)) {
                let w = self.st.sort_of(*t).bv_width().unwrap_or(32);
                let c = self.st.bv_const(w, v & lockstep_replay::value::mask(w));
                self.scalars[i] = Some(c);
            }
        }
    }

    pub fn launch_constraints(&mut self) -> Vec<TermId> {
        let limits = [0x7fff_ffffu128, 0xffff, 0xffff];
        let mut out = Vec::new();
        for d in 0..3 {
            let (g, n) = (self.group_id[d], self.num_groups[d]);
            let lt = self.st.bvult(g, n);
            out.push(lt);
            let max = self.st.bv_const(32, limits[d]);
            let le = self.st.bvule(n, max);
            out.push(le);
        }
        out
    }

    pub(super) fn buffer(&mut self, param: usize, bits: u32, loc: Option<SrcLoc>) -> Res<TermId> {
        if let Some(&(w, t)) = self.buffers.get(&param) {
            if w != bits {
                return unsupported(format!("buffer argument {param} is accessed with {w}- and {bits}-bit elements"), loc);
            }
            return Ok(t);
        }
        let t = self.st.declare_const(&format!("buffer{param}"), Sort::array(Sort::bv(64), Sort::bv(bits)));
        self.buffers.insert(param, (bits, t));
        Ok(t)
    }

    /// What a proof over these inputs assumes about floats and calls
    /// without a body, as sentences for the report.
    pub fn float_assumptions(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.used.uninterpreted_ops {
            out.push("floating-point operations are uninterpreted functions: + and * are commutative, nothing else is assumed (in particular not associativity)".to_string());
        }
        if self.used.ieee {
            out.push("floats are IEEE 754 values rounded to nearest even, exact to the bit; every NaN is the same value (NaN payloads are not compared); `a * b + c` rounds twice, as without FMA contraction (nvcc contracts by default: build with -fmad=false, clang with -ffp-contract=off)".to_string());
        }
        if self.used.uninterpreted_calls {
            out.push("functions without a body (math functions other than sqrt, fabs and fma under --float=ieee) are uninterpreted: the same arguments give the same result".to_string());
        }
        out
    }

    /// The reads of input buffer elements in `t`: each `select` on a
    /// buffer's initial contents, with its byte offset and value terms.
    pub fn buffer_reads(&self, t: TermId) -> Vec<BufferRead> {
        let bases: HashMap<TermId, (usize, u32)> = self.buffers.iter().map(|(&p, &(bits, arr))| (arr, (p, bits))).collect();
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if let lockstep_smt::TermKind::App(op, args) = self.st.kind(t) {
                if *op == lockstep_smt::Op::Select {
                    if let Some(&(param, bits)) = bases.get(&args[0]) {
                        out.push(BufferRead { param, bits, offset: args[1], value: t });
                    }
                }
                stack.extend(args.iter().copied());
            }
        }
        out
    }

    /// Does `t` apply a function that the encoding leaves uninterpreted
    /// (a float operation under [`FloatModel::Uninterpreted`], a call
    /// without a body)? The bits of an IEEE value do not count: a
    /// function of the value, they are never the source of a difference.
    pub fn uninterpreted_in(&self, t: TermId) -> bool {
        let syms = self.st.free_symbols(&[t]);
        syms.funs.iter().any(|&f| {
            let d = self.st.fun(f);
            !d.args.is_empty() && !d.name.starts_with("float.bits")
        })
    }

    /// The IEEE value of the `w`-bit float whose bits are `bits`.
    pub(super) fn float_value(&mut self, bits: TermId, w: u32) -> Option<TermId> {
        let (exponent, significand) = float_format(w)?;
        // The bits of a value computed here are `float.bits(x)`; reading
        // them back as a float gives `x` itself (whichever NaN pattern
        // the bits stand for, it reads back as NaN).
        if let lockstep_smt::TermKind::App(lockstep_smt::Op::Apply(f), args) = self.st.kind(bits) {
            if self.funs.get(&float_bits_name(w)) == Some(f) {
                return Some(args[0]);
            }
        }
        Some(self.st.fp(FpOp::FromBits { exponent, significand }, &[bits]))
    }

    /// The bits of the float value `x`: an uninterpreted function of the
    /// value, because SMT-LIB gives NaN no bit pattern. Being a function,
    /// equal values have equal bits, which is all a proof of equal outputs
    /// needs; that the real function is injective on non-NaN values is
    /// left out, which can only make a proof fail (the solver's candidate
    /// difference is then not confirmed by the interpreter), never succeed
    /// wrongly.
    pub(super) fn float_bits(&mut self, x: TermId, w: u32) -> TermId {
        self.uf(&float_bits_name(w), &[x], Sort::bv(w))
    }

    pub(super) fn uf(&mut self, name: &str, args: &[TermId], ret: Sort) -> TermId {
        let f = match self.funs.get(name) {
            Some(&f) => f,
            None => {
                let sorts: Vec<Sort> = args.iter().map(|&a| self.st.sort_of(a).clone()).collect();
                let f = self.st.declare_fun(name, &sorts, ret);
                self.funs.insert(name.to_string(), f);
                f
            }
        };
        self.st.apply(f, args)
    }
}

/// SMT-LIB's exponent and significand widths of a `w`-bit IEEE float.
pub(super) fn float_format(w: u32) -> Option<(u32, u32)> {
    match w {
        16 => Some((5, 11)),
        32 => Some((8, 24)),
        64 => Some((11, 53)),
        _ => None,
    }
}

/// A short tag of a sort for symbol names (`32`, `bool`).
pub(super) fn sort_tag(sort: &Sort) -> String {
    match sort.bv_width() {
        Some(w) => w.to_string(),
        None => "bool".to_string(),
    }
}

pub(super) fn float_bits_name(w: u32) -> String {
    format!("float.bits{w}")
}
