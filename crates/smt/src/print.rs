//! SMT-LIB2 printing of terms and declarations.
//!
//! Terms are printed without `let`: a DAG with much sharing prints as a tree.
//! Printing uses an explicit work stack, so arbitrarily deep terms (long
//! chains from symbolic execution) cannot overflow the Rust stack.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use crate::term::{FunId, Op, Quantifier, TermId, TermKind, TermStore};

/// SMT-LIB 2.6 reserved words, which must be quoted to be used as symbols.
const RESERVED_WORDS: &[&str] = &[
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
    "assert",
    "check-sat",
    "check-sat-assuming",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "declare-fun",
    "declare-sort",
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "define-sort",
    "echo",
    "exit",
    "get-assertions",
    "get-assignment",
    "get-info",
    "get-model",
    "get-option",
    "get-proof",
    "get-unsat-assumptions",
    "get-unsat-core",
    "get-value",
    "pop",
    "push",
    "reset",
    "reset-assertions",
    "set-info",
    "set-logic",
    "set-option",
];

fn is_simple_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

/// Returns `name` as an SMT-LIB symbol: unchanged if it is a simple symbol,
/// otherwise between bars (`|a b|`). Names containing `|` or `\` cannot be
/// quoted; the term store refuses to declare them.
pub fn quote_symbol(name: &str) -> Cow<'_, str> {
    let simple = name.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && name.chars().all(is_simple_symbol_char)
        && !RESERVED_WORDS.contains(&name);
    if simple {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("|{name}|"))
    }
}

enum Task {
    Term(TermId),
    Text(&'static str),
}

/// Appends `t` in SMT-LIB2 syntax to `out`.
pub fn write_term(out: &mut String, store: &TermStore, t: TermId) {
    let mut stack = vec![Task::Term(t)];
    while let Some(task) = stack.pop() {
        let t = match task {
            Task::Text(s) => {
                out.push_str(s);
                continue;
            }
            Task::Term(t) => t,
        };
        match store.kind(t) {
            TermKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            TermKind::BitVec(v) => write!(out, "{v}").expect("writing to a String"),
            TermKind::Const(f) => out.push_str(&quote_symbol(&store.fun(*f).name)),
            TermKind::Var { name, .. } => out.push_str(&quote_symbol(name)),
            TermKind::App(op, args) => {
                out.push('(');
                match op {
                    Op::Extract { hi, lo } => write!(out, "(_ extract {hi} {lo})"),
                    Op::ZeroExtend(n) => write!(out, "(_ zero_extend {n})"),
                    Op::SignExtend(n) => write!(out, "(_ sign_extend {n})"),
                    Op::Apply(f) => out.write_str(&quote_symbol(&store.fun(*f).name)),
                    Op::Fp(f) => out.write_str(&f.head()),
                    op => out.write_str(op.builtin_name().expect("non-indexed builtin")),
                }
                .expect("writing to a String");
                stack.push(Task::Text(")"));
                for &a in args.iter().rev() {
                    stack.push(Task::Term(a));
                    stack.push(Task::Text(" "));
                }
            }
            TermKind::ConstArray(v) => {
                write!(out, "((as const {}) ", store.sort_of(t)).expect("writing to a String");
                stack.push(Task::Text(")"));
                stack.push(Task::Term(*v));
            }
            TermKind::Quant {
                quantifier,
                vars,
                body,
            } => {
                out.push_str(match quantifier {
                    Quantifier::Forall => "(forall (",
                    Quantifier::Exists => "(exists (",
                });
                for (i, &v) in vars.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    let TermKind::Var { name, sort } = store.kind(v) else {
                        unreachable!("quantifiers bind variables only")
                    };
                    write!(out, "({} {sort})", quote_symbol(name)).expect("writing to a String");
                }
                out.push_str(") ");
                stack.push(Task::Text(")"));
                stack.push(Task::Term(*body));
            }
        }
    }
}

/// `t` in SMT-LIB2 syntax.
pub fn term_to_string(store: &TermStore, t: TermId) -> String {
    let mut out = String::new();
    write_term(&mut out, store, t);
    out
}

/// The command that declares `f`: `(declare-const x S)` for a constant,
/// `(declare-fun f (S1 S2) R)` for a function.
pub fn declare_fun_command(store: &TermStore, f: FunId) -> String {
    let d = store.fun(f);
    let name = quote_symbol(&d.name);
    if d.args.is_empty() {
        format!("(declare-const {name} {})", d.ret)
    } else {
        let args: Vec<String> = d.args.iter().map(ToString::to_string).collect();
        format!("(declare-fun {name} ({}) {})", args.join(" "), d.ret)
    }
}

/// The command that declares the uninterpreted sort `name` (arity 0).
pub fn declare_sort_command(name: &str) -> String {
    format!("(declare-sort {} 0)", quote_symbol(name))
}

/// The declarations that `roots` need, sorts first, in first-use order.
pub fn declarations(store: &TermStore, roots: &[TermId]) -> Vec<String> {
    let free = store.free_symbols(roots);
    let sorts = free.sorts.iter().map(|s| declare_sort_command(s));
    sorts
        .chain(free.funs.iter().map(|&f| declare_fun_command(store, f)))
        .collect()
}

/// Displays a term; returned by [`TermStore::display`].
pub(crate) struct TermDisplay<'a> {
    pub(crate) store: &'a TermStore,
    pub(crate) term: TermId,
}

impl fmt::Display for TermDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&term_to_string(self.store, self.term))
    }
}
