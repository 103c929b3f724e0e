//! Preconditions of a kernel checked alone, from what its launch sites
//! pass: the kernel is checked for the argument values and launch sizes
//! its sites can produce, not for every value of every argument.
//!
//! At each site, a host value passed as an argument unchanged (a wrapper's
//! parameter, a load) *binds* that host value to the kernel parameter; one
//! passed as a launch size binds it to `blockDim` or `gridDim`. Every other
//! argument or size whose expression (`site_exprs`) uses only bound values
//! and constants becomes an equation: `BlockWidth == 80`, `pitch == width`,
//! `bdim == blockDim.x`, `gridDim.y == (h + 3) / 4`. An argument that uses
//! unbound host values still gives its known bits (`iw & ~3` is a multiple
//! of 4). A condition that holds at the site (an `assert` before the
//! launch) over bound values is kept as it is. The kernel then requires
//! the disjunction, over its sites, of the conjunction of each site's
//! facts, as a `Requires` at its entry that every engine assumes.
//!
//! Each parameter and size appears on the left of at most one equation of
//! a site, and the right sides use only bound values, which are otherwise
//! free: the equations alone always have a solution. A site that cannot be
//! read (its stub's operands do not match the kernel's parameters one for
//! one, as when the host ABI splits a struct) binds no parameter.
//!
//! Without relocatable device code, a kernel can be launched only from its
//! own translation unit, so its sites are all its launches; the caller
//! states the assumption in the report all the same.

use std::collections::HashMap;

use lockstep_kir::{
    AnnotKind, BinOp, BuiltinVar, CastOp, Function, InstKind, IntCC, MemSpace, Type, ValueId,
};

use crate::launch_sites::{HostArg, LaunchSite};
use crate::site_exprs::SiteExpr;

/// A kernel-side value a host value can be bound to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Leaf {
    Param(usize),
    Size(BuiltinVar, u8),
}

/// One fact of a site.
#[derive(Clone, Debug)]
enum Fact {
    /// The leaf equals the expression (its opaque values all bound).
    Equals(Leaf, SiteExpr),
    /// The leaf's bits under `mask` are `bits`.
    Bits(Leaf, u128, u128),
    /// The two leaves get the same host value (one that is not bound:
    /// `iw & ~3` passed twice).
    Same(Leaf, Leaf),
    /// A condition over bound values.
    Holds(SiteExpr),
}

/// The facts of one site, with the bindings they use.
struct SiteFacts {
    line: u32,
    bindings: HashMap<u32, Leaf>,
    facts: Vec<Fact>,
}

/// Whether the kernel parameter can take the stub operand as it is.
fn matches(param: Type, arg: &HostArg) -> bool {
    match (param, arg) {
        (Type::Int(w), HostArg::Int { width, .. }) => w as u32 == *width,
        (Type::Float(w), HostArg::Float { width }) => w as u32 == *width,
        (Type::Ptr(MemSpace::Private), HostArg::Ptr { by_value }) => *by_value,
        (Type::Ptr(_), HostArg::Ptr { by_value }) => !*by_value,
        // A function pointer is an integer in KIR (see `fnptr`).
        (Type::Int(64), HostArg::Ptr { by_value: false }) => true,
        _ => false,
    }
}

fn size_name(var: BuiltinVar, d: u8) -> String {
    let dim = ["x", "y", "z"][usize::from(d)];
    match var {
        BuiltinVar::LocalSize => format!("blockDim.{dim}"),
        _ => format!("gridDim.{dim}"),
    }
}

/// What `usable(var, d)` allows: the sizes the kernel reads and the check
/// leaves symbolic (a size fixed to a constant gets no equation, and one
/// the kernel ignores must stay unconstrained).
fn site_facts(
    func: &Function,
    site: &LaunchSite,
    usable: &dyn Fn(BuiltinVar, u8) -> bool,
) -> SiteFacts {
    let mut bindings: HashMap<u32, Leaf> = HashMap::new();
    let mut facts = Vec::new();
    let args_match = site.args.len() == func.params.len()
        && func
            .params
            .iter()
            .zip(&site.args)
            .all(|(p, a)| matches(p.ty, a));
    let arg_exprs: Vec<(Leaf, &SiteExpr)> = if args_match {
        site.args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                HostArg::Int { expr, .. } => Some((Leaf::Param(i), expr)),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut size_exprs: Vec<(Leaf, &SiteExpr)> = Vec::new();
    for (var, exprs) in [
        (BuiltinVar::LocalSize, &site.block_exprs),
        (BuiltinVar::NumGroups, &site.grid_exprs),
    ] {
        for d in 0..3u8 {
            if let (true, Some(e)) = (usable(var, d), &exprs[usize::from(d)]) {
                size_exprs.push((Leaf::Size(var, d), e));
            }
        }
    }
    // Bind first, then state what is left; arguments bind before sizes, so
    // that `bdim == blockDim.x` names the parameter the user wrote.
    let mut rest: Vec<(Leaf, &SiteExpr)> = Vec::new();
    for (leaf, e) in arg_exprs.into_iter().chain(size_exprs) {
        match e {
            SiteExpr::Opaque { id, .. } if !bindings.contains_key(id) => {
                bindings.insert(*id, leaf);
            }
            SiteExpr::Const { .. } | SiteExpr::Opaque { .. } => rest.push((leaf, e)),
            _ => match rest.iter().find(|(_, seen)| *seen == e) {
                Some(&(first, _)) => facts.push(Fact::Same(leaf, first)),
                None => rest.push((leaf, e)),
            },
        }
    }
    for (leaf, e) in rest {
        let mut used = Vec::new();
        e.opaques(&mut used);
        if used.iter().all(|id| bindings.contains_key(id)) {
            facts.push(Fact::Equals(leaf, e.clone()));
        } else {
            let (known, bits) = e.known_bits();
            if known != 0 {
                facts.push(Fact::Bits(leaf, known, bits));
            }
        }
    }
    for c in &site.conditions {
        let mut used = Vec::new();
        c.opaques(&mut used);
        if c.width() == 1 && !used.is_empty() && used.iter().all(|id| bindings.contains_key(id)) {
            facts.push(Fact::Holds(c.clone()));
        }
    }
    SiteFacts {
        line: site.line,
        bindings,
        facts,
    }
}

/// Builds the kernel-side values of facts in the entry block.
struct Emitter<'f> {
    func: &'f mut Function,
    sizes: HashMap<(u8, u8), ValueId>,
}

impl Emitter<'_> {
    fn inst(&mut self, kind: InstKind, ty: Type) -> ValueId {
        let entry = self.func.entry;
        self.func
            .append_inst(entry, kind, Some(ty), None)
            .1
            .expect("an instruction with a result type has a result")
    }

    fn leaf(&mut self, leaf: Leaf) -> ValueId {
        match leaf {
            Leaf::Param(i) => self.func.params[i].value,
            Leaf::Size(var, d) => {
                let key = (u8::from(var == BuiltinVar::NumGroups), d);
                if let Some(&v) = self.sizes.get(&key) {
                    return v;
                }
                let v = self.inst(InstKind::Builtin { var, dim: d }, Type::Int(32));
                self.sizes.insert(key, v);
                v
            }
        }
    }

    fn expr(&mut self, e: &SiteExpr, bindings: &HashMap<u32, Leaf>) -> ValueId {
        match e {
            SiteExpr::Const { width, bits } => self.func.const_int(Type::Int(*width as u16), *bits),
            SiteExpr::Opaque { id, .. } => self.leaf(bindings[id]),
            SiteExpr::Binary { op, lhs, rhs } => {
                let (l, r) = (self.expr(lhs, bindings), self.expr(rhs, bindings));
                self.inst(
                    InstKind::Binary {
                        op: *op,
                        lhs: l,
                        rhs: r,
                    },
                    Type::Int(lhs.width() as u16),
                )
            }
            SiteExpr::Icmp { cc, lhs, rhs } => {
                let (l, r) = (self.expr(lhs, bindings), self.expr(rhs, bindings));
                self.inst(
                    InstKind::Icmp {
                        cc: *cc,
                        lhs: l,
                        rhs: r,
                    },
                    Type::Int(1),
                )
            }
            SiteExpr::Cast { op, width, arg } => {
                let a = self.expr(arg, bindings);
                if arg.width() == *width {
                    return a;
                }
                self.inst(InstKind::Cast { op: *op, arg: a }, Type::Int(*width as u16))
            }
            SiteExpr::Select {
                cond,
                then_value,
                else_value,
            } => {
                let c = self.expr(cond, bindings);
                let t = self.expr(then_value, bindings);
                let f = self.expr(else_value, bindings);
                self.inst(
                    InstKind::Select {
                        cond: c,
                        then_value: t,
                        else_value: f,
                    },
                    Type::Int(then_value.width() as u16),
                )
            }
        }
    }

    /// `leaf == value`, converting the value to the leaf's width (a size is
    /// 32 bits; a host expression of a size may be wider or narrower).
    fn equals(&mut self, leaf: Leaf, value: ValueId) -> ValueId {
        let l = self.leaf(leaf);
        let value = self.resized(value, self.func.value_type(l).bits());
        self.inst(
            InstKind::Icmp {
                cc: IntCC::Eq,
                lhs: l,
                rhs: value,
            },
            Type::Int(1),
        )
    }

    fn resized(&mut self, v: ValueId, bits: u32) -> ValueId {
        let have = self.func.value_type(v).bits();
        if have == bits {
            return v;
        }
        let op = if have < bits {
            CastOp::Zext
        } else {
            CastOp::Trunc
        };
        self.inst(InstKind::Cast { op, arg: v }, Type::Int(bits as u16))
    }

    fn all(&mut self, op: BinOp, values: &[ValueId], empty: bool) -> ValueId {
        let Some((&first, rest)) = values.split_first() else {
            return self.func.const_int(Type::Int(1), u128::from(empty));
        };
        rest.iter().fold(first, |acc, &v| {
            self.inst(
                InstKind::Binary {
                    op,
                    lhs: acc,
                    rhs: v,
                },
                Type::Int(1),
            )
        })
    }

    fn fact(&mut self, fact: &Fact, bindings: &HashMap<u32, Leaf>) -> ValueId {
        match fact {
            Fact::Equals(leaf, e) => {
                let v = self.expr(e, bindings);
                self.equals(*leaf, v)
            }
            Fact::Bits(leaf, mask, bits) => {
                let l = self.leaf(*leaf);
                let ty = self.func.value_type(l);
                let m = self.func.const_int(ty, *mask);
                let b = self.func.const_int(ty, *bits);
                let masked = self.inst(
                    InstKind::Binary {
                        op: BinOp::And,
                        lhs: l,
                        rhs: m,
                    },
                    ty,
                );
                self.inst(
                    InstKind::Icmp {
                        cc: IntCC::Eq,
                        lhs: masked,
                        rhs: b,
                    },
                    Type::Int(1),
                )
            }
            Fact::Same(a, b) => {
                let v = self.leaf(*b);
                self.equals(*a, v)
            }
            Fact::Holds(e) => self.expr(e, bindings),
        }
    }
}

/// Prints an expression with bound values by their kernel-side names.
fn render(func: &Function, e: &SiteExpr, bindings: &HashMap<u32, Leaf>) -> String {
    let leaf = |l: Leaf| match l {
        Leaf::Param(i) => func.params[i].name.clone(),
        Leaf::Size(var, d) => size_name(var, d),
    };
    match e {
        SiteExpr::Const { width, bits } => {
            let signed = if *width > 1 && bits >> (width - 1) == 1 {
                Some(*bits as i128 - (1i128 << width))
            } else {
                None
            };
            match signed {
                Some(v) if v > -4096 => v.to_string(),
                _ if *bits > 0xffff => format!("{bits:#x}"),
                _ => bits.to_string(),
            }
        }
        SiteExpr::Opaque { id, .. } => bindings
            .get(id)
            .map_or_else(|| "?".to_string(), |&l| leaf(l)),
        SiteExpr::Binary { op, lhs, rhs } => {
            let sym = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::UDiv | BinOp::SDiv => "/",
                BinOp::URem | BinOp::SRem => "%",
                BinOp::Shl => "<<",
                BinOp::LShr | BinOp::AShr => ">>",
                BinOp::And => "&",
                BinOp::Or => "|",
                BinOp::Xor => "^",
            };
            format!(
                "({} {sym} {})",
                render(func, lhs, bindings),
                render(func, rhs, bindings)
            )
        }
        SiteExpr::Icmp { cc, lhs, rhs } => {
            let sym = match cc {
                IntCC::Eq => "==",
                IntCC::Ne => "!=",
                IntCC::Ult | IntCC::Slt => "<",
                IntCC::Ule | IntCC::Sle => "<=",
                IntCC::Ugt | IntCC::Sgt => ">",
                IntCC::Uge | IntCC::Sge => ">=",
            };
            format!(
                "{} {sym} {}",
                render(func, lhs, bindings),
                render(func, rhs, bindings)
            )
        }
        SiteExpr::Cast { arg, .. } => render(func, arg, bindings),
        SiteExpr::Select {
            cond,
            then_value,
            else_value,
        } => format!(
            "({} ? {} : {})",
            render(func, cond, bindings),
            render(func, then_value, bindings),
            render(func, else_value, bindings)
        ),
    }
}

fn describe(func: &Function, site: &SiteFacts) -> String {
    let name = |l: Leaf| match l {
        Leaf::Param(i) => func.params[i].name.clone(),
        Leaf::Size(var, d) => size_name(var, d),
    };
    let parts: Vec<String> = site
        .facts
        .iter()
        .map(|f| match f {
            Fact::Equals(l, e) => {
                let text = render(func, e, &site.bindings);
                format!(
                    "{} == {}",
                    name(*l),
                    text.strip_prefix('(')
                        .and_then(|t| t.strip_suffix(')'))
                        .unwrap_or(&text)
                )
            }
            Fact::Bits(l, mask, bits) => format!("{} & {mask:#x} == {bits:#x}", name(*l)),
            Fact::Same(a, b) => format!("{} == {}", name(*a), name(*b)),
            Fact::Holds(e) => render(func, e, &site.bindings),
        })
        .collect();
    format!("line {}: {}", site.line, parts.join(", "))
}

/// Adds to `func` (a kernel) the precondition its launch `sites` establish,
/// and returns what it says, site by site, for the report; `None` when some
/// site establishes nothing (the kernel is then left as it is).
pub fn add_launch_preconditions(
    func: &mut Function,
    sites: &[LaunchSite],
    usable: &dyn Fn(BuiltinVar, u8) -> bool,
) -> Option<Vec<String>> {
    let per_site: Vec<SiteFacts> = sites.iter().map(|s| site_facts(func, s, usable)).collect();
    if per_site.is_empty() || per_site.iter().any(|s| s.facts.is_empty()) {
        return None;
    }
    let descriptions = per_site.iter().map(|s| describe(func, s)).collect();
    // A parameter every site passes as one constant is that constant in the
    // kernel's code (the precondition below still names it): engines
    // reason about `i * stride` precisely when `stride` is 2, not when it
    // is a symbol assumed to equal 2.
    for i in 0..func.params.len() {
        let value_at = |site: &SiteFacts| {
            site.facts.iter().find_map(|f| match f {
                Fact::Equals(Leaf::Param(p), SiteExpr::Const { bits, .. }) if *p == i => {
                    Some(*bits)
                }
                _ => None,
            })
        };
        let Some(first) = value_at(&per_site[0]) else {
            continue;
        };
        if per_site.iter().all(|s| value_at(s) == Some(first)) {
            let param = func.params[i].value;
            let constant = func.const_int(func.params[i].ty, first);
            func.replace_uses(param, constant);
        }
    }
    let entry = func.entry;
    let before = func.blocks[entry].insts.len();
    let mut emitter = Emitter {
        func,
        sizes: HashMap::new(),
    };
    let mut alternatives = Vec::new();
    for site in &per_site {
        let facts: Vec<ValueId> = site
            .facts
            .iter()
            .map(|f| emitter.fact(f, &site.bindings))
            .collect();
        let all = emitter.all(BinOp::And, &facts, true);
        alternatives.push(all);
    }
    let any = emitter.all(BinOp::Or, &alternatives, false);
    let loc = func.loc;
    func.append_inst(
        entry,
        InstKind::Annot {
            kind: AnnotKind::Requires,
            args: vec![any],
        },
        None,
        loc,
    );
    // The new instructions go before the entry block's own, in order.
    let insts = &mut func.blocks[entry].insts;
    let added: Vec<_> = insts.drain(before..).collect();
    insts.splice(0..0, added);
    Some(descriptions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel() -> Function {
        let module = lockstep_kir::parse_module(
            r#"
language cuda
kernel fn0 "k" link "k" (v0 "buf": ptr.global, v1 "n": i32, v2 "second": i32, v3 "stride": i32) entry block0 {
block0:
  return
}
"#,
        )
        .unwrap();
        module.functions.values().next().unwrap().clone()
    }

    fn int(expr: SiteExpr) -> HostArg {
        HostArg::Int { width: 32, expr }
    }

    fn site(line: u32, args: Vec<HostArg>) -> LaunchSite {
        LaunchSite {
            line,
            grid: [None, Some(1), Some(1)],
            block: [Some(128), Some(1), Some(1)],
            shared_bytes: Some(0),
            grid_exprs: [Some(SiteExpr::Opaque { width: 32, id: 9 }), None, None],
            block_exprs: [None, None, None],
            args,
            conditions: Vec::new(),
        }
    }

    const N: SiteExpr = SiteExpr::Opaque { width: 32, id: 0 };

    fn c(bits: u128) -> SiteExpr {
        SiteExpr::Const { width: 32, bits }
    }

    #[test]
    fn equations_over_bound_values_and_constants_become_a_precondition() {
        let mut f = kernel();
        let minus_one = SiteExpr::Binary {
            op: BinOp::Sub,
            lhs: Box::new(N),
            rhs: Box::new(c(1)),
        };
        let sites = [site(
            7,
            vec![
                HostArg::Ptr { by_value: false },
                int(N),
                int(minus_one),
                int(c(2)),
            ],
        )];
        let usable = |var: BuiltinVar, d: u8| var == BuiltinVar::NumGroups && d == 0;
        let facts =
            add_launch_preconditions(&mut f, &sites, &usable).expect("the site gives facts");
        assert_eq!(facts, ["line 7: second == n - 1, stride == 2"]);
        // The `Requires` is the entry block's last new instruction, before
        // the block's own (none here).
        let entry = &f.blocks[f.entry];
        let last = *entry.insts.last().unwrap();
        assert!(matches!(
            f.insts[last].kind,
            InstKind::Annot {
                kind: AnnotKind::Requires,
                ..
            }
        ));
        // `stride` is the constant 2 in the kernel's code: no instruction
        // outside the precondition reads the parameter.
        let stride = f.params[3].value;
        let readers = f
            .insts
            .values()
            .filter(|i| i.kind.operands().contains(&stride))
            .count();
        assert_eq!(
            readers, 1,
            "only the precondition's comparison reads `stride`"
        );
    }

    #[test]
    fn a_site_that_establishes_nothing_leaves_the_kernel_unrestricted() {
        let mut f = kernel();
        let first = site(
            3,
            vec![HostArg::Ptr { by_value: false }, int(N), int(N), int(c(2))],
        );
        // A site whose operands do not match the parameters (a struct the
        // ABI split) binds nothing, and its grid is an unbound value.
        let second = site(9, vec![HostArg::Other, int(N)]);
        let usable = |_: BuiltinVar, _: u8| true;
        assert!(add_launch_preconditions(&mut f, &[first, second], &usable).is_none());
        assert!(f.blocks[f.entry].insts.is_empty());
    }

    #[test]
    fn a_function_pointer_argument_keeps_the_others_aligned() {
        // KIR gives a function pointer parameter an integer; the host
        // passes a pointer in its place.
        let module = lockstep_kir::parse_module(
            r#"
language cuda
kernel fn0 "k" link "k" (v0 "op": i64, v1 "n": i32, v2 "width": i32) entry block0 {
block0:
  return
}
"#,
        )
        .unwrap();
        let mut f = module.functions.values().next().unwrap().clone();
        let sites = [site(5, vec![HostArg::Ptr { by_value: false }, int(N), int(N)])];
        let usable = |_: BuiltinVar, _: u8| false;
        let facts = add_launch_preconditions(&mut f, &sites, &usable).unwrap();
        assert_eq!(facts, ["line 5: width == n"]);
    }

    #[test]
    fn known_bits_of_an_unbound_value_are_kept() {
        let mut f = kernel();
        let masked = SiteExpr::Binary {
            op: BinOp::And,
            lhs: Box::new(SiteExpr::Opaque { width: 32, id: 5 }),
            rhs: Box::new(c(!3 & 0xffff_ffff)),
        };
        let sites = [site(
            4,
            vec![
                HostArg::Ptr { by_value: false },
                int(masked.clone()),
                int(masked),
                int(c(1)),
            ],
        )];
        let usable = |_: BuiltinVar, _: u8| false;
        let facts = add_launch_preconditions(&mut f, &sites, &usable).unwrap();
        assert_eq!(facts, ["line 4: second == n, n & 0x3 == 0x0, stride == 1"]);
    }
}
