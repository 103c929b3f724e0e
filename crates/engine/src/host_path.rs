//! The host's path condition, carried into a launch's proof.
//!
//! A launch whose scalar argument the run does not determine (the program
//! read it as input) goes to the prover with that argument open. Yet the
//! host usually constrains it before the launch (`if (n < 1 || n > 4)
//! return;`, a loop that asks again until the value is 1 or 2): every
//! execution that reaches the launch the way the run did satisfies the
//! branches it took. The host run records those branches as terms over the
//! values it read (`lockstep_replay::terms`); here the ones that depend on
//! nothing but one argument's own value become assumptions at the kernel's
//! entry, so that the prover checks the kernel for the values the program
//! can pass there, not for every value of the type.
//!
//! Dropping a branch only weakens the assumptions, so anything this module
//! cannot translate is left out.

use std::collections::{HashMap, HashSet};

use lockstep_host::LaunchRecord;
use lockstep_kir::{AnnotKind, CastOp, FuncId, Function, InstKind, Module, Type, ValueId};
use lockstep_replay::terms::{Node, TermId, Terms};

/// The most terms one branch may span to be translated.
const MAX_ATOM_TERMS: usize = 256;

/// A copy of `module` in which `kernel` assumes, on entry, the branches of
/// the host's path (`launch.path`) that constrain one of its undetermined
/// scalar arguments alone, and the range each undetermined integer
/// argument's term lies in (`Terms::int_range_of`, which holds in every
/// run), with the names of the arguments so constrained. `None` when
/// nothing applies.
///
/// The third part is a key of what was assumed: launches with equal keys
/// (and equal configurations) need one proof.
pub fn assume_host_path(module: &Module, kernel: FuncId, launch: &LaunchRecord, terms: &Terms) -> Option<(Module, Vec<String>, String)> {
    let func = &module.functions[kernel];
    // Per argument: the draw it is (possibly widened), and how to get the
    // draw back from the parameter.
    let mut leaves: Vec<(usize, TermId, Option<u32>)> = Vec::new();
    for (i, p) in func.params.iter().enumerate() {
        let (Type::Int(w), Some(&u), Some(&t)) = (p.ty, launch.arg_undefined.get(i), launch.arg_terms.get(i)) else {
            continue;
        };
        if u == 0 || t == 0 {
            continue;
        }
        match terms.node(t) {
            Some(Node::Fresh(_)) => leaves.push((i, t, None)),
            Some(Node::Cast(CastOp::Sext | CastOp::Zext, leaf, from, to)) if to == w as u32 && matches!(terms.node(leaf), Some(Node::Fresh(_))) => {
                leaves.push((i, leaf, Some(from)))
            }
            _ => {}
        }
    }
    // Per integer argument the run does not determine: the range its term
    // lies in in every run (`rand() % 4` is in [0, 3] whatever the seed),
    // when that is narrower than its type.
    let mut ranged: Vec<(usize, i128, i128)> = Vec::new();
    for (i, p) in func.params.iter().enumerate() {
        let (Type::Int(w), Some(&u), Some(&t)) = (p.ty, launch.arg_undefined.get(i), launch.arg_terms.get(i)) else {
            continue;
        };
        if u == 0 || t == 0 || !(2..=64).contains(&w) {
            continue;
        }
        let (min, max) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
        if let Some((lo, hi)) = terms.int_range_of(t).filter(|&(lo, hi)| min <= lo && lo <= hi && hi <= max && (lo, hi) != (min, max)) {
            ranged.push((i, lo, hi));
        }
    }
    if leaves.is_empty() && ranged.is_empty() {
        return None;
    }
    let mut module = module.clone();
    let func = &mut module.functions[kernel];
    let entry = func.entry;
    let mut at = 0usize;
    let mut names = Vec::new();
    let mut key = format!("{ranged:?}");
    for &(i, lo, hi) in &ranged {
        let param = func.params[i].value;
        let ty = func.params[i].ty;
        let mut emitter = Emitter { terms, leaf: 0, leaf_value: param, leaf_ty: ty, at: &mut at, memo: HashMap::new(), entry };
        for (cc, bound) in [(lockstep_kir::IntCC::Sge, lo), (lockstep_kir::IntCC::Sle, hi)] {
            let bound = func.const_int(ty, bound as u128);
            let holds = emitter.insert(func, InstKind::Icmp { cc, lhs: param, rhs: bound }, Type::BOOL);
            let (inst, _) = func.append_inst(entry, InstKind::Annot { kind: AnnotKind::Assume, args: vec![holds] }, None, func.loc);
            let insts = &mut func.blocks[entry].insts;
            insts.pop();
            insts.insert(*emitter.at, inst);
            *emitter.at += 1;
        }
        names.push(func.params[i].name.clone());
    }
    for (i, leaf, narrowed) in leaves {
        let atoms: Vec<(TermId, bool)> = launch.path.iter().copied().filter(|&(t, _)| depends_only_on(terms, t, leaf)).collect();
        if atoms.is_empty() {
            continue;
        }
        key.push_str(&format!(";{i}:{atoms:?}"));
        let param = func.params[i].value;
        let mut emitter = Emitter { terms, leaf, leaf_value: param, leaf_ty: func.params[i].ty, at: &mut at, memo: HashMap::new(), entry };
        if let Some(from) = narrowed {
            let narrow = emitter.insert(func, InstKind::Cast { op: CastOp::Trunc, arg: param }, Type::Int(from as u16));
            emitter.leaf_value = narrow;
            emitter.leaf_ty = Type::Int(from as u16);
        }
        let mut any = false;
        for (atom, taken) in atoms {
            let Some((cond, Type::Int(1))) = emitter.emit(func, atom, Some(Type::BOOL)) else { continue };
            let way = func.const_int(Type::BOOL, taken as u128);
            let holds = emitter.insert(func, InstKind::Icmp { cc: lockstep_kir::IntCC::Eq, lhs: cond, rhs: way }, Type::BOOL);
            let (inst, _) = func.append_inst(entry, InstKind::Annot { kind: AnnotKind::Assume, args: vec![holds] }, None, func.loc);
            let insts = &mut func.blocks[entry].insts;
            insts.pop();
            insts.insert(*emitter.at, inst);
            *emitter.at += 1;
            any = true;
        }
        if any && !names.contains(&func.params[i].name) {
            names.push(func.params[i].name.clone());
        }
    }
    (!names.is_empty()).then_some((module, names, key))
}

/// Whether term `t` is a function of the draw `leaf` alone (and small
/// enough to translate).
fn depends_only_on(terms: &Terms, t: TermId, leaf: TermId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![t];
    let mut found = false;
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if seen.len() > MAX_ATOM_TERMS {
            return false;
        }
        if t == leaf {
            found = true;
            continue;
        }
        match terms.node(t) {
            None | Some(Node::Fresh(_)) => return false,
            Some(Node::Const(..)) => {}
            Some(Node::Bin(_, a, b, _) | Node::Cmp(_, a, b) | Node::Float(_, a, b, _)) => {
                stack.push(a);
                if b != 0 {
                    stack.push(b);
                }
            }
            Some(Node::Cast(_, a, _, _)) => stack.push(a),
            Some(Node::Select(c, a, b)) => stack.extend([c, a, b]),
        }
    }
    found
}

/// Translates terms over one draw into instructions at the kernel's entry.
struct Emitter<'t, 'a> {
    terms: &'t Terms,
    leaf: TermId,
    leaf_value: ValueId,
    leaf_ty: Type,
    at: &'a mut usize,
    memo: HashMap<TermId, (ValueId, Type)>,
    entry: lockstep_kir::BlockId,
}

impl Emitter<'_, '_> {
    fn insert(&mut self, func: &mut Function, kind: InstKind, ty: Type) -> ValueId {
        let loc = func.loc;
        let (inst, value) = func.append_inst(self.entry, kind, Some(ty), loc);
        let insts = &mut func.blocks[self.entry].insts;
        insts.pop();
        insts.insert(*self.at, inst);
        *self.at += 1;
        value.expect("an instruction with a result type has a value")
    }

    /// The value of term `t` (as type `want` for a constant), with its type.
    fn emit(&mut self, func: &mut Function, t: TermId, want: Option<Type>) -> Option<(ValueId, Type)> {
        if t == self.leaf {
            return Some((self.leaf_value, self.leaf_ty));
        }
        if let Some(&known) = self.memo.get(&t) {
            return Some(known);
        }
        let out = match self.terms.node(t)? {
            Node::Fresh(_) => return None,
            Node::Const(bits, w) => {
                let ty = want.unwrap_or(Type::Int(w as u16));
                (func.const_int(ty, bits), ty)
            }
            Node::Bin(op, a, b, w) => {
                let ty = Type::Int(w as u16);
                let (lhs, _) = self.emit(func, a, Some(ty))?;
                let (rhs, _) = self.emit(func, b, Some(ty))?;
                (self.insert(func, InstKind::Binary { op, lhs, rhs }, ty), ty)
            }
            Node::Cmp(cc, a, b) => {
                // The operand that is not a constant gives the type.
                let a_const = matches!(self.terms.node(a), Some(Node::Const(..)));
                let (first, second) = if a_const { (b, a) } else { (a, b) };
                let (x, ty) = self.emit(func, first, None)?;
                let (y, _) = self.emit(func, second, Some(ty))?;
                let (lhs, rhs) = if a_const { (y, x) } else { (x, y) };
                (self.insert(func, InstKind::Icmp { cc, lhs, rhs }, Type::BOOL), Type::BOOL)
            }
            Node::Cast(op, a, from, to) => {
                let (from_ty, to_ty) = match op {
                    CastOp::Zext | CastOp::Sext | CastOp::Trunc => (Type::Int(from as u16), Type::Int(to as u16)),
                    CastOp::SiToFp | CastOp::UiToFp => (Type::Int(from as u16), Type::Float(to as u16)),
                    CastOp::FpToSi | CastOp::FpToUi => (Type::Float(from as u16), Type::Int(to as u16)),
                    CastOp::FpExt | CastOp::FpTrunc => (Type::Float(from as u16), Type::Float(to as u16)),
                    _ => return None,
                };
                let (arg, ty) = self.emit(func, a, Some(from_ty))?;
                if ty != from_ty {
                    return None;
                }
                (self.insert(func, InstKind::Cast { op, arg }, to_ty), to_ty)
            }
            Node::Float(op, a, b, w) => {
                let ty = Type::Float(w as u16);
                let mut args = vec![self.emit(func, a, Some(ty))?.0];
                if b != 0 {
                    args.push(self.emit(func, b, Some(ty))?.0);
                }
                (self.insert(func, InstKind::Float { op, args }, ty), ty)
            }
            Node::Select(c, a, b) => {
                let (cond, _) = self.emit(func, c, Some(Type::BOOL))?;
                let (then_value, ty) = self.emit(func, a, want)?;
                let (else_value, _) = self.emit(func, b, Some(ty))?;
                (self.insert(func, InstKind::Select { cond, then_value, else_value }, ty), ty)
            }
        };
        self.memo.insert(t, out);
        Some(out)
    }
}
