//! SMT-LIB2 printing of terms and declarations.
//!
//! Terms are printed as trees, without `let`, as long as the tree stays
//! small; a term whose tree would be much larger than its DAG (a chain of
//! floating-point updates unrolled twenty times, each reading the previous
//! values twice, doubles at every step) is printed with `let` bindings for
//! its shared subterms (`SharedTerms`), so that its text grows with the DAG.
//! Printing uses an explicit work stack, so arbitrarily deep terms (long
//! chains from symbolic execution) cannot overflow the Rust stack.

use std::borrow::Cow;
use std::collections::HashMap;
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
    match tree_exceeds(store, t, SHARE_ABOVE).then(|| SharedTerms::find(store, t)).flatten() {
        Some(shared) => shared.write(out, store, t),
        None => write_tree(out, store, t, &HashMap::new()),
    }
}

/// Whether `t`'s tree (a shared subterm counted once per use) has more
/// than `limit` nodes: a walk that stops as soon as it has seen that many,
/// so the common small term costs a few steps and no tables.
fn tree_exceeds(store: &TermStore, t: TermId, limit: u64) -> bool {
    let mut seen = 0u64;
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        seen += 1;
        if seen > limit {
            return true;
        }
        stack.extend_from_slice(children(store, u));
    }
    false
}

/// Tree size (nodes, counting a shared subterm once per use) above which a
/// term is printed with `let` bindings. Below it, terms print as before,
/// byte for byte, so the queries of ordinary kernels do not change.
const SHARE_ABOVE: u64 = 100_000;

/// The shared subterms of one large term that get `let` names, by level: a
/// subterm of level `k` mentions named subterms of lower levels only, so
/// each level is one parallel `let` inside the previous ones.
struct SharedTerms {
    names: HashMap<TermId, String>,
    levels: Vec<Vec<TermId>>,
}

impl SharedTerms {
    /// `None` when `t`'s tree is small enough to print as it is. Quantifier
    /// bodies are not looked into: a subterm naming a bound variable must
    /// stay inside its quantifier.
    fn find(store: &TermStore, t: TermId) -> Option<SharedTerms> {
        // Post-order over the DAG: tree sizes and how many parents use each
        // node.
        let mut size: HashMap<TermId, u64> = HashMap::new();
        let mut uses: HashMap<TermId, u32> = HashMap::new();
        let mut order = Vec::new();
        let mut stack = vec![(t, false)];
        while let Some((u, done)) = stack.pop() {
            if done {
                let own = 1 + children(store, u).iter().fold(0u64, |acc, c| acc.saturating_add(size[c]));
                size.insert(u, own);
                order.push(u);
                continue;
            }
            if size.contains_key(&u) {
                continue;
            }
            stack.push((u, true));
            for &c in children(store, u) {
                *uses.entry(c).or_insert(0) += 1;
                if !size.contains_key(&c) {
                    stack.push((c, false));
                }
            }
        }
        if size[&t] <= SHARE_ABOVE {
            return None;
        }
        // Name the subterms used twice or more that are not tiny; each gets
        // the level one above the named subterms below it.
        let mut below: HashMap<TermId, usize> = HashMap::new();
        let mut names = HashMap::new();
        let mut levels: Vec<Vec<TermId>> = Vec::new();
        for &u in &order {
            let under = children(store, u)
                .iter()
                .map(|c| if names.contains_key(c) { below[c] + 1 } else { below[c] })
                .max()
                .unwrap_or(0);
            below.insert(u, under);
            if u != t && uses.get(&u).copied().unwrap_or(0) >= 2 && size[&u] >= 4 {
                names.insert(u, format!("share%{}", names.len()));
                if levels.len() <= under {
                    levels.resize(under + 1, Vec::new());
                }
                levels[under].push(u);
            }
        }
        Some(SharedTerms { names, levels })
    }

    fn write(&self, out: &mut String, store: &TermStore, t: TermId) {
        for level in &self.levels {
            out.push_str("(let (");
            for (k, &u) in level.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                write!(out, "({} ", self.names[&u]).expect("writing to a String");
                write_tree(out, store, u, &self.names);
                out.push(')');
            }
            out.push_str(") ");
        }
        write_tree(out, store, t, &self.names);
        for _ in &self.levels {
            out.push(')');
        }
    }
}

/// The subterms `write_tree` prints for `t`, not looking into quantifiers.
fn children(store: &TermStore, t: TermId) -> &[TermId] {
    match store.kind(t) {
        TermKind::App(_, args) => args,
        TermKind::ConstArray(v) => std::slice::from_ref(v),
        _ => &[],
    }
}

/// Appends `t` as a tree to `out`, printing the subterms below it that
/// `names` names by their names (`t` itself is written out: it may be the
/// definition of a name).
fn write_tree(out: &mut String, store: &TermStore, t: TermId, names: &HashMap<TermId, String>) {
    let root = t;
    let mut stack = vec![Task::Term(t)];
    while let Some(task) = stack.pop() {
        let t = match task {
            Task::Text(s) => {
                out.push_str(s);
                continue;
            }
            Task::Term(t) => t,
        };
        if let Some(name) = names.get(&t).filter(|_| t != root) {
            out.push_str(name);
            continue;
        }
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
