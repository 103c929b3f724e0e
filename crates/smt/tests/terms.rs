//! Term builder tests that need no solver: printing, hash-consing,
//! simplification and sort checking.

use lockstep_smt::print::{declarations, quote_symbol, term_to_string};
use lockstep_smt::{BvValue, Op, Sort, TermKind, TermStore};

fn p(st: &TermStore, t: lockstep_smt::TermId) -> String {
    term_to_string(st, t)
}

#[test]
fn prints_terms_and_declarations() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(8));
    let y = st.declare_const("y", Sort::bv(8));
    let sum = st.bvadd(x, y);
    let hi = st.extract(7, 4, sum);
    let ext = st.zero_extend(8, hi);
    let c = st.bv_const(12, 5);
    let lt = st.bvult(ext, c);
    assert_eq!(
        p(&st, lt),
        "(bvult ((_ zero_extend 8) ((_ extract 7 4) (bvadd x y))) #x005)"
    );
    let odd = st.bv_const(3, 5);
    assert_eq!(p(&st, odd), "#b101");

    let mem = st.declare_const("shared mem", Sort::array(Sort::bv(32), Sort::bv(8)));
    let i = st.declare_const("i", Sort::bv(32));
    let v = st.select(mem, i);
    let f = st.declare_fun("f", &[Sort::bv(8)], Sort::Bool);
    let app = st.apply(f, &[v]);
    assert_eq!(p(&st, app), "(f (select |shared mem| i))");
    assert_eq!(
        declarations(&st, &[app, lt]),
        vec![
            "(declare-fun f ((_ BitVec 8)) Bool)",
            "(declare-const |shared mem| (Array (_ BitVec 32) (_ BitVec 8)))",
            "(declare-const i (_ BitVec 32))",
            "(declare-const x (_ BitVec 8))",
            "(declare-const y (_ BitVec 8))",
        ]
    );

    let zero = st.bv_const(8, 0);
    let ca = st.const_array(Sort::bv(32), zero);
    let stored = st.store(ca, i, y);
    assert_eq!(
        p(&st, stored),
        "(store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) i y)"
    );
}

#[test]
fn quotes_symbols_that_need_it() {
    assert_eq!(quote_symbol("x"), "x");
    assert_eq!(quote_symbol("a.b!c"), "a.b!c");
    assert_eq!(quote_symbol("a b"), "|a b|");
    assert_eq!(quote_symbol("1x"), "|1x|");
    assert_eq!(quote_symbol("assert"), "|assert|");
    assert_eq!(quote_symbol("x#1"), "|x#1|");
    assert_eq!(quote_symbol(""), "||");
}

#[test]
fn prints_uninterpreted_sorts_floats_and_quantifiers() {
    let mut st = TermStore::new();
    let float = Sort::uninterpreted("float");
    let a = st.declare_const("a", float.clone());
    let fadd = st.declare_fun("fadd", &[float.clone(), float.clone()], float.clone());
    let s = st.apply(fadd, &[a, a]);
    let e = st.eq(s, a);
    let decls = declarations(&st, &[e]);
    assert_eq!(decls[0], "(declare-sort float 0)");
    assert_eq!(Sort::float32().to_string(), "(_ FloatingPoint 8 24)");

    let i = st.bound_var("i", Sort::bv(4));
    let j = st.bound_var("j", Sort::bv(4));
    let le = st.bvule(i, j);
    let lt = st.bvult(i, j);
    let eq = st.eq(i, j);
    let or = st.or(&[lt, eq]);
    let body = st.eq(le, or);
    let q = st.forall(&[i, j], body);
    assert_eq!(
        p(&st, q),
        "(forall ((i (_ BitVec 4)) (j (_ BitVec 4))) (= (bvule i j) (or (bvult i j) (= i j))))"
    );
    let ex = st.exists(&[i], lt);
    assert_eq!(p(&st, ex), "(exists ((i (_ BitVec 4))) (bvult i j))");
    // Bound variables are not free symbols to declare.
    assert!(declarations(&st, &[q]).is_empty());
}

#[test]
fn hash_consing_shares_identical_terms() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(32));
    let x_again = st.declare_const("x", Sort::bv(32));
    assert_eq!(x, x_again);
    let one = st.bv_const(32, 1);
    let a = st.bvadd(x, one);
    let n = st.len();
    let b = st.bvadd(x, one);
    assert_eq!(a, b);
    assert_eq!(st.len(), n, "no new node for an existing term");
    let c = st.bvadd(one, x);
    assert_ne!(a, c, "argument order is kept");
    assert_eq!(
        st.bv_const(32, 1 + (1 << 32)),
        one,
        "literals are taken modulo 2^width"
    );
    let wide1 = st.bv_literal(&format!("#x{}", "0".repeat(40))).unwrap();
    let wide2 = st.bv_value(BvValue::zero(160));
    assert_eq!(wide1, wide2);
    assert_eq!(st.sort_of(wide1), &Sort::bv(160));
}

#[test]
fn fresh_constants_are_distinct() {
    let mut st = TermStore::new();
    st.declare_const("t!0", Sort::Bool);
    let a = st.fresh_const("t", Sort::Bool);
    let b = st.fresh_const("t", Sort::Bool);
    assert_ne!(a, b);
    assert_eq!(p(&st, a), "t!1");
    assert_eq!(p(&st, b), "t!2");
}

#[test]
fn simplifies_boolean_structure() {
    let mut st = TermStore::new();
    let a = st.declare_const("a", Sort::Bool);
    let b = st.declare_const("b", Sort::Bool);
    let (t, f) = (st.true_(), st.false_());
    assert_eq!(st.and(&[a, t]), a);
    assert_eq!(st.and(&[a, f, b]), f);
    assert_eq!(st.and(&[]), t);
    assert_eq!(st.or(&[]), f);
    assert_eq!(st.or(&[f, a, f]), a);
    assert_eq!(st.or(&[a, t]), t);
    let na = st.not(a);
    assert_eq!(st.not(na), a);
    assert_eq!(st.and(&[a, b, na]), f);
    assert_eq!(st.or(&[na, a]), t);
    let ab = st_and(&mut st, a, b);
    assert_eq!(p(&st, ab), "(and a b)");
    assert_eq!(st.and(&[a, a, b]), st.and(&[a, b]));
    let x = st.declare_const("x", Sort::bv(8));
    let y = st.declare_const("y", Sort::bv(8));
    assert_eq!(st.ite(t, x, y), x);
    assert_eq!(st.ite(f, x, y), y);
    assert_eq!(st.ite(a, x, x), x);
    assert_eq!(st.ite(a, t, f), a);
    assert_eq!(st.ite(a, f, t), na);
    let swapped = st.ite(na, x, y);
    assert_eq!(p(&st, swapped), "(ite a y x)");
    assert_eq!(st.implies(f, a), t);
    assert_eq!(st.implies(t, a), a);
    assert_eq!(st.implies(a, f), na);
    assert_eq!(st.xor(a, t), na);
    assert_eq!(st.xor(a, a), f);
    assert_eq!(st.eq(x, x), t);
    assert_eq!(st.eq(a, t), a);
    let c = st.app(Op::Implies, &[a, b, t]);
    assert_eq!(c, t, "a => (b => true) folds");
    let xz = x_is_zero(&mut st, x);
    let d = st.app(Op::Implies, &[a, b, xz]);
    assert_eq!(p(&st, d), "(=> a (=> b (= x #x00)))");
}

fn st_and(
    st: &mut TermStore,
    a: lockstep_smt::TermId,
    b: lockstep_smt::TermId,
) -> lockstep_smt::TermId {
    st.and(&[a, b])
}

fn x_is_zero(st: &mut TermStore, x: lockstep_smt::TermId) -> lockstep_smt::TermId {
    let z = st.bv_const(8, 0);
    st.eq(x, z)
}

#[test]
fn folds_bit_vector_constants() {
    let mut st = TermStore::new();
    let c = |st: &mut TermStore, w, v| st.bv_const(w, v);
    let (a, b) = (c(&mut st, 8, 200), c(&mut st, 8, 100));
    let sum = st.bvadd(a, b);
    assert_eq!(st.as_bv(sum).and_then(BvValue::to_u128), Some(44));
    let m5 = c(&mut st, 8, (-5i8) as u8 as u128);
    let two = c(&mut st, 8, 2);
    let zero = c(&mut st, 8, 0);
    let q = st.bvsdiv(m5, two);
    assert_eq!(st.as_bv(q).unwrap().to_i128(), Some(-2));
    let r = st.bvsrem(m5, two);
    assert_eq!(st.as_bv(r).unwrap().to_i128(), Some(-1));
    let d0 = st.bvudiv(a, zero);
    assert_eq!(
        st.as_bv(d0).unwrap().to_u128(),
        Some(255),
        "x / 0 is all ones"
    );
    let r0 = st.bvurem(a, zero);
    assert_eq!(r0, a, "x % 0 is x");
    let sh = st.bvashr(m5, two);
    assert_eq!(st.as_bv(sh).unwrap().to_i128(), Some(-2));
    let big = c(&mut st, 8, 9);
    let sh_all = st.bvshl(a, big);
    assert_eq!(sh_all, zero);
    let lt = st.bvslt(m5, two);
    assert_eq!(st.as_bool(lt), Some(true));
    let ult = st.bvult(m5, two);
    assert_eq!(st.as_bool(ult), Some(false));
    let cat = st.concat(a, b);
    assert_eq!(st.as_bv(cat).unwrap().to_u128(), Some(200 << 8 | 100));
    let ex = st.extract(11, 8, cat);
    assert_eq!(st.as_bv(ex).unwrap().to_u128(), Some(200 & 0xf));
    let se = st.sign_extend(8, m5);
    assert_eq!(st.as_bv(se).unwrap().to_i128(), Some(-5));
    let big128 = c(&mut st, 128, u128::MAX);
    let one128 = c(&mut st, 128, 1);
    let wrap = st.bvadd(big128, one128);
    assert_eq!(st.as_bv(wrap).unwrap().to_u128(), Some(0));
    let neg = st.bvneg(one128);
    assert_eq!(neg, big128);
}

#[test]
fn applies_bit_vector_identities() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(16));
    let zero = st.bv_const(16, 0);
    let one = st.bv_const(16, 1);
    let ones = st.bv_const(16, 0xffff);
    assert_eq!(st.bvadd(x, zero), x);
    assert_eq!(st.bvmul(x, one), x);
    assert_eq!(st.bvmul(zero, x), zero);
    assert_eq!(st.bvand(x, ones), x);
    assert_eq!(st.bvor(x, ones), ones);
    assert_eq!(st.bvsub(x, x), zero);
    assert_eq!(st.bvxor(x, x), zero);
    let nx = st.bvnot(x);
    assert_eq!(st.bvnot(nx), x);
    assert_eq!(st.extract(15, 0, x), x);
    let inner = st.extract(11, 4, x);
    let outer = st.extract(5, 2, inner);
    assert_eq!(p(&st, outer), "((_ extract 9 6) x)");
    let le = st.bvule(x, x);
    assert_eq!(st.as_bool(le), Some(true));
    // 0 / x is not 0 when x is 0, so it must stay.
    let d = st.bvudiv(zero, x);
    assert_eq!(p(&st, d), "(bvudiv #x0000 x)");
}

#[test]
fn simplifies_arrays() {
    let mut st = TermStore::new();
    let arr = Sort::array(Sort::bv(8), Sort::bv(8));
    let m = st.declare_const("m", arr);
    let i = st.declare_const("i", Sort::bv(8));
    let v = st.declare_const("v", Sort::bv(8));
    let k1 = st.bv_const(8, 1);
    let k2 = st.bv_const(8, 2);
    let m1 = st.store(m, i, v);
    assert_eq!(st.select(m1, i), v);
    let m2 = st.store(m, k1, v);
    let m3 = st.store(m2, k2, i);
    let r = st.select(m3, k1);
    assert_eq!(r, v, "read over two writes to different literal indices");
    let unknown = st.select(m3, i);
    assert_eq!(
        p(&st, unknown),
        "(select (store (store m #x01 v) #x02 i) i)"
    );
    let old = st.select(m, i);
    assert_eq!(st.store(m, i, old), m);
    let ca = st.const_array(Sort::bv(8), k2);
    assert_eq!(st.select(ca, i), k2);
}

#[test]
fn without_simplification_builds_what_is_asked() {
    let mut st = TermStore::without_simplification();
    let one = st.bv_const(8, 1);
    let sum = st.bvadd(one, one);
    assert_eq!(p(&st, sum), "(bvadd #x01 #x01)");
    let t = st.true_();
    let n = st.not(t);
    let nn = st.not(n);
    assert_eq!(p(&st, nn), "(not (not true))");
    // Arity normalisation still happens.
    assert_eq!(st.and(&[]), t);
    assert_eq!(st.or(&[n]), n);
}

#[test]
fn sort_errors_are_reported() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(8));
    let y = st.declare_const("y", Sort::bv(16));
    let b = st.declare_const("b", Sort::Bool);
    let e = st.try_app(Op::BvAdd, &[x, y]).unwrap_err();
    assert_eq!(e.op, "bvadd");
    assert!(e.message.contains("(_ BitVec 16)"), "{e}");
    assert!(st.try_app(Op::And, &[b, x]).is_err());
    assert!(st.try_app(Op::Ite, &[x, b, b]).is_err());
    assert!(st.try_app(Op::Ite, &[b, x, y]).is_err());
    assert!(st.try_app(Op::Extract { hi: 8, lo: 0 }, &[x]).is_err());
    assert!(st.try_app(Op::Extract { hi: 2, lo: 3 }, &[x]).is_err());
    assert!(st.try_app(Op::Not, &[b, b]).is_err());
    assert!(st.try_app(Op::Eq, &[x]).is_err());
    assert!(st.try_app(Op::Select, &[x, x]).is_err());
    let f = st.declare_fun("f", &[Sort::bv(8)], Sort::Bool);
    assert!(st.try_app(Op::Apply(f), &[y]).is_err());
    assert!(st.try_app(Op::Apply(f), &[]).is_err());
    assert!(
        st.try_declare_const("x", Sort::bv(9)).is_err(),
        "redeclaration with another sort"
    );
    assert!(
        st.try_declare_const("and", Sort::Bool).is_err(),
        "builtin name"
    );
    assert!(
        st.try_declare_const("a|b", Sort::Bool).is_err(),
        "unquotable name"
    );
    assert!(
        st.try_declare_const("z", Sort::bv(0)).is_err(),
        "zero width"
    );
    let v = st.bound_var("v", Sort::Bool);
    assert!(st
        .try_quantifier(lockstep_smt::Quantifier::Forall, &[x], b)
        .is_err());
    assert!(st
        .try_quantifier(lockstep_smt::Quantifier::Forall, &[v], x)
        .is_err());
    assert!(matches!(st.kind(v), TermKind::Var { .. }));
}

#[test]
#[should_panic(expected = "sort error in `bvmul`")]
fn convenience_builders_panic_on_sort_errors() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(8));
    let b = st.declare_const("b", Sort::Bool);
    st.bvmul(x, b);
}

#[test]
fn sort_of_reports_sorts() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(8));
    let m = st.declare_const("m", Sort::array(Sort::bv(32), Sort::bv(8)));
    let i = st.bv_const(32, 3);
    let c = st.concat(x, x);
    let sel = st.select(m, i);
    let cmp = st.bvslt(x, sel);
    assert_eq!(st.sort_of(c), &Sort::bv(16));
    assert_eq!(st.sort_of(sel), &Sort::bv(8));
    assert_eq!(st.sort_of(cmp), &Sort::Bool);
    let se = st.sign_extend(24, x);
    assert_eq!(st.sort_of(se).bv_width(), Some(32));
}

#[test]
fn deep_terms_print_without_recursion() {
    let mut st = TermStore::new();
    let x = st.declare_const("x", Sort::bv(32));
    let mut t = x;
    for _ in 0..200_000 {
        t = st.bvmul(t, x);
    }
    let text = p(&st, t);
    assert!(text.starts_with("(bvmul (bvmul"));
    assert_eq!(st.free_symbols(&[t]).funs.len(), 1);
}
