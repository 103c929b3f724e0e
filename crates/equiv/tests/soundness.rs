//! The equivalence checker must never call two different kernels
//! `equivalent`. This test generates pairs of tree reductions (an
//! interleaved reference against strided rewrites, correct and mutated: the
//! combining operator, the partner's index, the guard and the loop's
//! counter), elementwise kernels (an expression against algebraic
//! rewrites and slips), in-place updates and vectorized loads, kernels
//! writing several elements per thread, vectors with a scalar tail and
//! grid-stride loops against one element per thread, loops with writes
//! whose trip count is symbolic (rows updated in place, two elements per
//! grid-stride iteration), and tiled
//! stencils (a tile and its halo, with slips in the halo's guard, source
//! and the neighbours read), checks each pair for any block and grid size, and
//! for every `equivalent` verdict runs both kernels in the interpreter on
//! many more launches and inputs than the checker's own testing: a
//! difference there is a soundness bug. Every `different` verdict must come
//! with a confirmed difference.
//!
//! The pairs are drawn from a fixed seed, so a failure reproduces.

use std::path::PathBuf;

use lockstep_equiv::{check, testing, EquivConfig, KernelRef, Verdict};
use lockstep_kir::Module;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

fn compile(dir: &std::path::Path, name: &str, source: &str) -> Module {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    match lockstep_frontend::load(&path, &lockstep_frontend::CompileOptions::default()) {
        Ok(l) => l.module,
        Err(e) => panic!("{name} does not compile: {e:?}\n{source}"),
    }
}

fn kernel(m: &Module) -> KernelRef<'_> {
    let (id, _) = m.kernels().next().expect("a kernel");
    KernelRef { module: m, kernel: id, file: "" }
}

/// The interleaved reduction with `op` combining `a` and `b`.
fn reduction(op: &str, partner: &str, guard: &str, header: &str, strided: bool) -> String {
    let combine = op.replace('A', "sdata[index]").replace('B', &format!("sdata[{partner}]"));
    let index = if strided { "2 * s * tid" } else { "tid" };
    format!(
        "#define MAX 2048\n\
         __global__ void reduce(int *out, const int *in) {{\n\
           __shared__ int sdata[MAX];\n\
           unsigned tid = threadIdx.x;\n\
           sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n\
           __syncthreads();\n\
           for ({header}) {{\n\
             unsigned index = {index};\n\
             if ({guard})\n\
               sdata[index] = {combine};\n\
             __syncthreads();\n\
           }}\n\
           if (tid == 0)\n\
             out[blockIdx.x] = sdata[0];\n\
         }}\n"
    )
}

/// An elementwise kernel computing `expr` of `x = in[i]`, `i` and `n`.
fn elementwise(expr: &str) -> String {
    format!(
        "__global__ void map(int *out, const int *in, int n) {{\n\
           int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
           if (i < n) {{\n\
             int x = in[i];\n\
             out[i] = {expr};\n\
           }}\n\
         }}\n"
    )
}

/// Runs both kernels on many launches with concrete sizes: the first
/// difference found, if any.
fn concrete_difference(a: KernelRef, b: KernelRef) -> Option<String> {
    // Up to 1024 threads: some mutations only show on large blocks.
    let sizes: &[u64] = &[1, 2, 3, 5, 8, 13, 16, 31, 32, 64, 100, 128, 256, 513, 1024];
    let launches: Vec<([u64; 2], [u64; 2])> = sizes.iter().flat_map(|&b| [1u64, 3].map(|g| ([b, 1], [g, 1]))).collect();
    concrete_difference_on(a, b, &launches)
}

/// [`concrete_difference`] on 2-D launches, square and not.
fn concrete_difference_2d(a: KernelRef, b: KernelRef) -> Option<String> {
    let blocks: &[[u64; 2]] = &[[1, 1], [2, 3], [3, 2], [4, 4], [8, 2], [5, 7], [16, 16], [32, 8]];
    let launches: Vec<([u64; 2], [u64; 2])> = blocks.iter().flat_map(|&b| [[1u64, 1], [2, 3], [3, 1]].map(|g| (b, g))).collect();
    concrete_difference_on(a, b, &launches)
}

fn concrete_difference_on(a: KernelRef, b: KernelRef, launches: &[([u64; 2], [u64; 2])]) -> Option<String> {
    for (i, &(block, grid)) in launches.iter().enumerate() {
        {
            let config = EquivConfig {
                group_size: [Some(block[0]), Some(block[1]), Some(1)],
                num_groups: [Some(grid[0]), Some(grid[1]), Some(1)],
                seed: 0x1234_5678 + i as u64 * 7919 + grid[0] + 31 * grid[1],
                test_steps: u64::MAX,
                test_budget: std::time::Duration::from_secs(5),
                ..EquivConfig::default()
            };
            let tested = testing::differential(a, Some(b), &config);
            if let Some(d) = tested.difference {
                return Some(format!("{d:?}"));
            }
        }
    }
    None
}

fn check_pair(dir: &std::path::Path, tag: &str, source_a: &str, source_b: &str) -> Verdict {
    check_pair_dims(dir, tag, source_a, source_b, 1)
}

/// [`check_pair`] on launches of `dims` (1 or 2) symbolic dimensions.
fn check_pair_dims(dir: &std::path::Path, tag: &str, source_a: &str, source_b: &str, dims: usize) -> Verdict {
    let ma = compile(dir, &format!("{tag}_a.cu"), source_a);
    let mb = compile(dir, &format!("{tag}_b.cu"), source_b);
    let y = if dims == 2 { None } else { Some(1) };
    let config = EquivConfig { group_size: [None, y, Some(1)], num_groups: [None, y, Some(1)], ..EquivConfig::default() };
    let o = check(kernel(&ma), Some(kernel(&mb)), &config);
    eprintln!("{tag}: {}", o.verdict.name());
    match o.verdict {
        Verdict::Equivalent => {
            let d = if dims == 2 { concrete_difference_2d(kernel(&ma), kernel(&mb)) } else { concrete_difference(kernel(&ma), kernel(&mb)) };
            if let Some(d) = d {
                panic!("{tag}: `equivalent`, but the interpreter finds a difference: {d}\n--- A\n{source_a}\n--- B\n{source_b}");
            }
        }
        Verdict::Different => {
            assert!(o.difference.is_some() || o.post_failure.is_some(), "{tag}: `different` without a confirmed difference: {o:?}");
        }
        Verdict::Unknown | Verdict::Rejected => {}
    }
    o.verdict
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-equiv-soundness-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn generated_reduction_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("reduce");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let reference_header = "unsigned s = 1; s < blockDim.x; s *= 2";
    let mut verdicts = Vec::new();
    for n in 0..12 {
        let op_a = rng.pick(&["A + B", "A ^ B", "A - B", "(A > B ? A : B)"]);
        // Each part of the rewrite is right more often than not, so that
        // both correct and mutated pairs come up.
        let op_b = if rng.below(4) == 0 { rng.pick(&["A + B", "A ^ B", "A - B", "B + A", "(A > B ? A : B)"]) } else { op_a };
        let partner = rng.pick(&["index + s", "index + s", "index + s", "index + s + 1", "s * tid + s"]);
        let guard = rng.pick(&["index < blockDim.x", "index < blockDim.x", "index < blockDim.x", "index + s < blockDim.x", "index <= blockDim.x"]);
        let header = rng.pick(&[reference_header, reference_header, "unsigned s = 1; s < blockDim.x; s <<= 1", "unsigned s = 1; s <= blockDim.x; s *= 2"]);
        let a = reduction(op_a, "tid + s", "tid % (2 * s) == 0", reference_header, false);
        let b = reduction(op_b, partner, guard, header, true);
        verdicts.push(check_pair(&dir, &format!("reduce{n}"), &a, &b));
    }
    // The generator's correct rewrites must be provable: otherwise this
    // test would pass by proving nothing.
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generated_elementwise_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("map");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // A reference expression, with rewrites that keep its value and slips
    // that do not (always or only for some inputs).
    let cases: &[(&str, &[&str])] = &[
        ("x * 8 + i", &["(x << 3) + i", "i + x * 8", "x * 8 + i + 1", "(x << 3) | i", "x * 8 - i"]),
        ("(x & 255) + (x >> 8)", &["(x % 256) + (x >> 8)", "(x & 255) + (x / 256)", "(x & 0xff) + (x >> 8)", "(x & 127) + (x >> 8)"]),
        ("x == 0x7fffffff ? x : x + 1", &["x + (x != 0x7fffffff)", "x + (x < 0x7ffffffe)", "x + 1"]),
        ("(x ^ i) - (x & i)", &["(x | i) - 2 * (x & i)", "(x ^ i) + (x & i)", "x - i"]),
        ("x * (i + 1)", &["x * i + x", "x + x * i", "x * i + 1"]),
    ];
    let mut verdicts = Vec::new();
    for (n, (reference, rewrites)) in cases.iter().enumerate() {
        for _ in 0..2 {
            let b = rewrites[rng.below(rewrites.len())];
            verdicts.push(check_pair(&dir, &format!("map{n}_{}", verdicts.len()), &elementwise(reference), &elementwise(b)));
        }
    }
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An in-place update of `y` from `x`: `body` is the statement run by
/// thread `i` when `guard` holds.
fn in_place(guard: &str, body: &str) -> String {
    format!(
        "__global__ void update(int *y, const int *x, int n) {{\n\
           int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
           if ({guard}) {{\n\
             {body}\n\
           }}\n\
         }}\n"
    )
}

/// A kernel that handles four elements per thread: `body` uses `t`
/// (the thread's global id) and `n` (a multiple of four when `requires`).
fn four_per_thread(requires: bool, body: &str) -> String {
    let pre = if requires { "__requires(n % 4 == 0);" } else { "" };
    format!(
        "__global__ void quad(int *out, const int *in, unsigned n) {{\n\
           {pre}\n\
           unsigned t = blockIdx.x * blockDim.x + threadIdx.x;\n\
           {body}\n\
         }}\n"
    )
}

#[test]
fn generated_in_place_and_vectorized_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("inplace");
    let mut rng = Rng(0x3c6e_f372_fe94_f82b);
    let mut verdicts = Vec::new();
    // In place: the reference and rewrites that keep its value, slips, and
    // reads of elements other threads write.
    let reference = in_place("i < n", "y[i] = 3 * x[i] + y[i];");
    let rewrites: &[(&str, &str)] = &[
        ("i < n", "y[i] = y[i] + x[i] * 3;"),
        ("i < n", "y[i] += x[i]; y[i] += 2 * x[i];"),
        ("i < n", "int v = y[i]; v += x[i] << 1; y[i] = v + x[i];"),
        ("n > i", "y[i] = (x[i] << 1) + y[i] + x[i];"),
        ("i < n", "y[i] = 3 * x[i] - y[i];"),
        ("i < n", "y[i] += 3 * x[i]; y[i] += y[i] & 1;"),
        ("i + 1 < n", "y[i] = 3 * x[i] + y[i + 1];"),
        ("i < n", "y[i] = 3 * x[i] + y[i ^ 1];"),
        ("i <= n", "y[i] = 3 * x[i] + y[i];"),
        ("i < n && i > 0", "y[i] = 3 * x[i] + y[i - 1];"),
    ];
    // Every case, in an order drawn from the seed.
    let mut order: Vec<usize> = (0..rewrites.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k + 1));
    }
    for n in order {
        let (guard, body) = rewrites[n];
        verdicts.push(check_pair(&dir, &format!("inplace{n}"), &reference, &in_place(guard, body)));
    }
    // Four elements per thread: a scalar loop against int4 loads and
    // stores, with the tail right or wrong, lanes in or out of order.
    let scalar = "for (unsigned j = 0; j < 4; j++) { unsigned i = 4 * t + j; if (i < n) out[i] = in[i] * 5 + 1; }";
    let vectors: &[(bool, &str)] = &[
        (true, "if (4 * t < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = v.x * 5 + 1; v.y = v.y * 5 + 1; v.z = v.z * 5 + 1; v.w = v.w * 5 + 1; reinterpret_cast<int4 *>(out)[t] = v; }"),
        (true, "if (4 * t + 3 < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = 5 * v.x + 1; v.y = 5 * v.y + 1; v.z = 5 * v.z + 1; v.w = 5 * v.w + 1; reinterpret_cast<int4 *>(out)[t] = v; }"),
        (true, "if (4 * t < n) { out[4 * t] = in[4 * t] * 5 + 1; out[4 * t + 1] = in[4 * t + 1] * 5 + 1; out[4 * t + 2] = in[4 * t + 2] * 5 + 1; out[4 * t + 3] = in[4 * t + 3] * 5 + 1; }"),
        (true, "if (4 * t < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = v.x * 5 + 1; v.y = v.z * 5 + 1; v.z = v.y * 5 + 1; v.w = v.w * 5 + 1; reinterpret_cast<int4 *>(out)[t] = v; }"),
        (true, "if (4 * t < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = v.x * 5 + 1; v.y = v.y * 5 + 1; v.z = v.z * 5 + 1; v.w = v.w * 5; reinterpret_cast<int4 *>(out)[t] = v; }"),
        (false, "if (4 * t + 3 < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = v.x * 5 + 1; v.y = v.y * 5 + 1; v.z = v.z * 5 + 1; v.w = v.w * 5 + 1; reinterpret_cast<int4 *>(out)[t] = v; }"),
        (true, "if (4 * t < n) { out[4 * t] = in[4 * t] * 5 + 1; out[4 * t + 1] = in[4 * t + 1] * 5 + 1; out[4 * t + 2] = in[4 * t + 2] * 5 + 1; out[4 * t + 4] = in[4 * t + 3] * 5 + 1; }"),
    ];
    for (n, &(requires, body)) in vectors.iter().enumerate() {
        let a = four_per_thread(requires, scalar);
        let b = four_per_thread(requires, body);
        verdicts.push(check_pair(&dir, &format!("quad{n}"), &a, &b));
    }
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A three-point stencil `out[i] = w0 * in[i] + w1 * in[i + 1] + w2 * in[i + 2]`
/// computed from a `__shared__` tile: each thread loads its element, the
/// first `halo` threads load the elements past the block's end from
/// `halo_src` (`i + blockDim.x` when right), and each thread reads its
/// neighbours at `reads` from the tile.
fn tiled_stencil(halo: &str, halo_src: &str, reads: [&str; 3]) -> String {
    format!(
        "#define MAX 1024\n\
         __global__ void stencil(int *out, const int *in) {{\n\
           __requires(blockDim.x >= 2);\n\
           __shared__ int tile[MAX + 2];\n\
           unsigned t = threadIdx.x;\n\
           unsigned i = blockIdx.x * blockDim.x + t;\n\
           tile[t] = in[i];\n\
           if ({halo})\n\
             tile[blockDim.x + t] = in[{halo_src}];\n\
           __syncthreads();\n\
           out[i] = tile[{}] + 2 * tile[{}] + 3 * tile[{}];\n\
         }}\n",
        reads[0], reads[1], reads[2]
    )
}

#[test]
fn generated_tiled_stencil_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("stencil");
    let mut rng = Rng(0xbb67_ae85_84ca_a73b);
    let naive = "#define MAX 1024\n\
                 __global__ void stencil(int *out, const int *in) {\n\
                   __requires(blockDim.x >= 2);\n\
                   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n\
                   out[i] = in[i] + 2 * in[i + 1] + 3 * in[i + 2];\n\
                 }\n";
    let mut verdicts = Vec::new();
    for n in 0..12 {
        // Each part is right more often than not.
        let halo = rng.pick(&["t < 2", "t < 2", "t < 2", "t < 1", "t < 2 && blockDim.x < 512", "t <= 2"]);
        let src = rng.pick(&["i + blockDim.x", "i + blockDim.x", "i + blockDim.x", "i + blockDim.x + 1", "i + blockDim.x + (blockDim.x >= 256)"]);
        let last = rng.pick(&["t + 2", "t + 2", "t + 2", "t + 1", "t ^ 2"]);
        eprintln!("stencil{n}: halo `{halo}` from `{src}`, last neighbour `{last}`");
        let b = tiled_stencil(halo, src, ["t", "t + 1", last]);
        verdicts.push(check_pair(&dir, &format!("stencil{n}"), naive, &b));
    }
    let right = tiled_stencil("t < 2", "i + blockDim.x", ["t", "t + 1", "t + 2"]);
    verdicts.push(check_pair(&dir, "stencil_right", naive, &right));
    // The halo is not loaded for blocks of 512 threads or more, whose
    // last threads then read uninitialised tile elements: never equivalent
    // (testing with small blocks sees no difference).
    let large = tiled_stencil("t < 2 && blockDim.x < 512", "i + blockDim.x", ["t", "t + 1", "t + 2"]);
    let v = check_pair(&dir, "stencil_no_halo_when_large", naive, &large);
    assert_ne!(v, Verdict::Equivalent, "a tile whose halo large blocks do not load was called equivalent");
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A row sum of `T` elements per thread over `n` columns: `body` adds to
/// `sum` from `in[r * n + ...]`.
fn row_sum(ty: &str, body: &str) -> String {
    format!(
        "__global__ void rowsum({ty} *out, const {ty} *in, unsigned n) {{\n\
           unsigned r = blockIdx.x * blockDim.x + threadIdx.x;\n\
           {ty} sum = 0;\n\
           {body}\n\
           out[r] = sum;\n\
         }}\n"
    )
}

/// The row sum unrolled by `u`: the unrolled loop runs while `cond` (over
/// `k`, `u` and `n`), each of its iterations adds the terms `adds` (each
/// an expression over `k`), and the remainder loop starts at `rest`.
fn unrolled(u: usize, cond: &str, adds: &str, rest: &str) -> String {
    format!(
        "unsigned k = 0;\n\
         for (; {cond}; k += {u}) {{ {adds} }}\n\
         for (unsigned j = {rest}; j < n; j++) sum += in[r * n + j];"
    )
}

/// In-order additions `sum += in[r * n + k + d]` for `d` in `0..u`.
fn in_order(u: usize) -> String {
    (0..u).map(|d| format!("sum += in[r * n + k + {d}];")).collect::<Vec<_>>().join(" ")
}

#[test]
fn generated_loop_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("loops");
    let mut verdicts = Vec::new();
    // Rewrites that keep the value (for integers), and slips: a remainder
    // loop that starts over, a missed element, a step that skips columns,
    // an off-by-one bound that reads the next row, and reassociation, which
    // keeps an integer sum but not a float one.
    let reassociated4 = "sum += (in[r * n + k] + in[r * n + k + 1]) + (in[r * n + k + 2] + in[r * n + k + 3]);";
    let cases: Vec<(&str, String)> = vec![
        ("int", unrolled(4, "k + 4 <= n", &in_order(4), "k")),
        ("int", unrolled(2, "k + 1 < n", &in_order(2), "k")),
        ("int", unrolled(3, "k + 3 <= n", &in_order(3), "k")),
        ("int", unrolled(4, "k + 4 <= n", reassociated4, "k")),
        ("int", unrolled(4, "k + 4 <= n", &in_order(4), "0")),
        ("int", unrolled(4, "k + 4 <= n", &in_order(3), "k")),
        ("int", unrolled(3, "k + 4 <= n", &in_order(4), "k")),
        ("int", unrolled(2, "k + 2 <= n", &in_order(2), "k + 1")),
        ("int", "for (unsigned k = 0; k <= n; k++) sum += in[r * n + k];".to_string()),
        ("float", unrolled(4, "k + 4 <= n", &in_order(4), "k")),
        ("float", unrolled(4, "k + 4 <= n", reassociated4, "k")),
    ];
    for (n, (ty, body)) in cases.iter().enumerate() {
        verdicts.push(check_pair(&dir, &format!("loop{n}"), &row_sum(ty, ROW_SUM), &row_sum(ty, body)));
    }
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    // The float sum reassociated must never be proved equivalent (checked
    // above by the interpreter when it is; here as a verdict too).
    assert_ne!(verdicts[10], Verdict::Equivalent, "a reassociated float sum was proved equivalent");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kernel of a launch that covers the input (`n` at most the thread
/// count): `body` uses `t` (the thread's global id), `stride` (the thread
/// count) and `n`.
fn covering(body: &str) -> String {
    format!(
        "__global__ void map(int *out, const int *in, unsigned n) {{\n\
           __requires(n <= blockDim.x * gridDim.x);\n\
           unsigned t = blockIdx.x * blockDim.x + threadIdx.x;\n\
           unsigned stride = blockDim.x * gridDim.x;\n\
           {body}\n\
         }}\n"
    )
}

#[test]
fn generated_cover_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("cover");
    let mut rng = Rng(0x510e_527f_ade6_82d1);
    // One element per thread against several per thread, vector accesses
    // with a scalar tail and grid-stride loops: address terms that do not
    // pair one to one, right and with slips (a skipped or extra element,
    // a wrong start, swapped lanes, a wrong source).
    let reference = covering("if (t < n) out[t] = 5 * in[t] + 1;");
    let rewrites: &[&str] = &[
        "unsigned i = 2 * t; if (i < n) out[i] = 5 * in[i] + 1; if (i + 1 < n) out[i + 1] = 5 * in[i + 1] + 1;",
        "unsigned i = 2 * t; if (i < n) out[i] = 5 * in[i] + 1; if (i + 2 < n) out[i + 1] = 5 * in[i + 1] + 1;",
        "unsigned i = 2 * t; if (i < n) out[i] = 5 * in[i] + 1; if (i + 1 < n) out[i + 1] = 5 * in[i] + 1;",
        "unsigned i = 2 * t + 1; if (i < n) out[i] = 5 * in[i] + 1; if (i + 1 < n) out[i + 1] = 5 * in[i + 1] + 1;",
        "if (2 * t + 1 < n) { int2 v = reinterpret_cast<const int2 *>(in)[t]; v.x = 5 * v.x + 1; v.y = 5 * v.y + 1; reinterpret_cast<int2 *>(out)[t] = v; } else if (2 * t < n) out[2 * t] = 5 * in[2 * t] + 1;",
        "if (2 * t + 1 < n) { int2 v = reinterpret_cast<const int2 *>(in)[t]; v.x = 5 * v.x + 1; v.y = 5 * v.y + 1; reinterpret_cast<int2 *>(out)[t] = v; }",
        "if (2 * t + 1 < n) { int2 v = reinterpret_cast<const int2 *>(in)[t]; int2 w; w.x = 5 * v.y + 1; w.y = 5 * v.x + 1; reinterpret_cast<int2 *>(out)[t] = w; } else if (2 * t < n) out[2 * t] = 5 * in[2 * t] + 1;",
        "if (2 * t + 1 < n) { int2 v = reinterpret_cast<const int2 *>(in)[t]; v.x = 5 * v.x + 1; v.y = 5 * v.y + 1; reinterpret_cast<int2 *>(out)[t] = v; } else if (2 * t < n) out[2 * t + 1] = 5 * in[2 * t] + 1;",
        "if (4 * t + 3 < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = 5 * v.x + 1; v.y = 5 * v.y + 1; v.z = 5 * v.z + 1; v.w = 5 * v.w + 1; reinterpret_cast<int4 *>(out)[t] = v; } else { for (unsigned i = 4 * t; i < n; i++) out[i] = 5 * in[i] + 1; }",
        "if (4 * t + 3 < n) { int4 v = reinterpret_cast<const int4 *>(in)[t]; v.x = 5 * v.x + 1; v.y = 5 * v.y + 1; v.z = 5 * v.z + 1; v.w = 5 * v.w + 1; reinterpret_cast<int4 *>(out)[t] = v; } else { for (unsigned i = 4 * t; i + 1 < n; i++) out[i] = 5 * in[i] + 1; }",
        "for (unsigned i = t; i < n; i += stride) out[i] = 5 * in[i] + 1;",
        "for (unsigned i = t + 1; i < n; i += stride) out[i] = 5 * in[i] + 1;",
        "for (unsigned i = t; i < n; i += stride) out[i] = 5 * in[i] + (i == 7);",
    ];
    let mut order: Vec<usize> = (0..rewrites.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k + 1));
    }
    let mut verdicts = Vec::new();
    for n in order {
        verdicts.push(check_pair(&dir, &format!("cover{n}"), &reference, &covering(rewrites[n])));
    }
    let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
    eprintln!(
        "cover pairs: {} equivalent, {} different, {} unknown",
        count(Verdict::Equivalent),
        count(Verdict::Different),
        count(Verdict::Unknown)
    );
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kernel over an `m` x `n` row-major matrix on a 2-D launch that covers
/// it, with `row` and `col` the thread's global ids.
fn matrix(body: &str) -> String {
    format!(
        "__global__ void mat(int *out, const int *in, unsigned m, unsigned n) {{\n\
           __requires(m <= blockDim.y * gridDim.y);\n\
           __requires(n <= blockDim.x * gridDim.x);\n\
           unsigned row = blockIdx.y * blockDim.y + threadIdx.y;\n\
           unsigned col = blockIdx.x * blockDim.x + threadIdx.x;\n\
           {body}\n\
         }}\n"
    )
}

#[test]
fn generated_inplace_and_matrix_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("inplace2d");
    let mut verdicts = Vec::new();
    // In place, several elements per thread: a thread reads an element
    // after writing its neighbour (right, and with slips that read the
    // updated neighbour or a neighbour's input).
    let reference = covering("if (t < n) out[t] += 5 * in[t];");
    let rewrites: &[&str] = &[
        "unsigned i = 2 * t; if (i < n) out[i] += 5 * in[i]; if (i + 1 < n) out[i + 1] += 5 * in[i + 1];",
        "unsigned i = 2 * t; if (i < n) out[i] += 5 * in[i]; if (i + 1 < n) out[i + 1] = out[i] + 5 * in[i + 1];",
        "unsigned i = 2 * t; if (i < n) out[i] += 5 * in[i]; if (i + 1 < n) out[i + 1] += 5 * in[i];",
        "unsigned i = 2 * t; if (i + 1 < n) { out[i + 1] += 5 * in[i + 1]; out[i] += 5 * in[i]; } else if (i < n) out[i] += 5 * in[i];",
    ];
    for (k, r) in rewrites.iter().enumerate() {
        verdicts.push(check_pair(&dir, &format!("inplace{k}"), &reference, &covering(r)));
    }
    // Row-major matrices of any width: several columns or rows per thread,
    // right and with slips (a wrong column, a row too many, the width
    // taken from the wrong argument).
    let reference = matrix("if (row < m && col < n) out[row * n + col] = 3 * in[row * n + col] + 1;");
    let rewrites: &[&str] = &[
        "unsigned c = 2 * col; if (row < m) for (unsigned j = 0; j < 2; j++) if (c + j < n) out[row * n + c + j] = 3 * in[row * n + c + j] + 1;",
        "unsigned c = 2 * col; if (row < m) for (unsigned j = 0; j < 2; j++) if (c + j < n) out[row * n + c + j] = 3 * in[row * n + c] + 1;",
        "unsigned r = 2 * row; if (col < n) { if (r < m) out[r * n + col] = 3 * in[r * n + col] + 1; if (r + 1 < m) out[(r + 1) * n + col] = 3 * in[(r + 1) * n + col] + 1; }",
        "unsigned r = 2 * row; if (col < n) { if (r < m) out[r * n + col] = 3 * in[r * n + col] + 1; if (r + 1 <= m) out[(r + 1) * n + col] = 3 * in[(r + 1) * n + col] + 1; }",
        "if (row < m && col < n) out[row * m + col] = 3 * in[row * m + col] + 1;",
        "if (col < n && row < m) out[col + n * row] = 1 + in[n * row + col] * 3;",
    ];
    for (k, r) in rewrites.iter().enumerate() {
        verdicts.push(check_pair_dims(&dir, &format!("matrix{k}"), &reference, &matrix(r), 2));
    }
    let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
    eprintln!(
        "in-place and matrix pairs: {} equivalent, {} different, {} unknown",
        count(Verdict::Equivalent),
        count(Verdict::Different),
        count(Verdict::Unknown)
    );
    assert!(verdicts.contains(&Verdict::Equivalent), "no pair was proved equivalent: {verdicts:?}");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pieces of `rows_per_thread` kernels the generated tests share: the
/// first row (the thread's global id), a row's sum, and the sum with its
/// loop unrolled by two with a remainder loop.
const ROW_GID: &str = "blockIdx.x * blockDim.x + threadIdx.x";
const ROW_SUM: &str = "for (unsigned k = 0; k < n; k++) sum += in[r * n + k];";
const ROW_SUM_UNROLLED: &str = "unsigned k = 0; for (; k + 2 <= n; k += 2) { sum += in[r * n + k]; sum += in[r * n + k + 1]; } for (; k < n; k++) sum += in[r * n + k];";

/// A row sum with several rows per thread for any launch: a grid-stride
/// loop over the rows (`init`, `cond` and `step` over `r`, `m` and
/// `stride`), each row summed by `inner` into `sum` and stored by `store`.
fn rows_per_thread(init: &str, cond: &str, step: &str, inner: &str, store: &str) -> String {
    format!(
        "__global__ void rows(int *out, const int *in, unsigned m, unsigned n) {{\n\
           unsigned stride = blockDim.x * gridDim.x;\n\
           for (unsigned r = {init}; {cond}; r += {step}) {{\n\
             int sum = 0;\n\
             {inner}\n\
             {store}\n\
           }}\n\
         }}\n"
    )
}

#[test]
fn generated_rows_per_thread_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("rows");
    let (gid, plain, unrolled2) = (ROW_GID, ROW_SUM, ROW_SUM_UNROLLED);
    let store = "out[r] = sum;";
    let reference = rows_per_thread(gid, "r < m", "stride", plain, store);
    // Rewrites that keep the values (the same loop, the inner loop
    // unrolled), and slips: a row bound one short, a stride that skips
    // rows, a block-sized stride (rows computed twice, racing with equal
    // values), a first row one off, an inner loop one short, a remainder
    // loop that starts over, a sum that starts at one, rows stored in
    // reverse, two rows stored in one element.
    let cases: Vec<String> = vec![
        rows_per_thread(gid, "r < m", "stride", plain, store),
        rows_per_thread(gid, "r < m", "stride", unrolled2, store),
        rows_per_thread(gid, "r + 1 < m", "stride", plain, store),
        rows_per_thread(gid, "r < m", "2 * stride", plain, store),
        rows_per_thread(gid, "r < m", "blockDim.x", plain, store),
        rows_per_thread(&format!("{gid} + 1"), "r < m", "stride", plain, store),
        rows_per_thread(gid, "r < m", "stride", "for (unsigned k = 0; k + 1 < n; k++) sum += in[r * n + k];", store),
        rows_per_thread(gid, "r < m", "stride", "unsigned k = 0; for (; k + 2 <= n; k += 2) { sum += in[r * n + k]; sum += in[r * n + k + 1]; } for (k = 0; k < n; k++) sum += in[r * n + k];", store),
        rows_per_thread(gid, "r < m", "stride", &format!("sum = 1; {plain}"), store),
        rows_per_thread(gid, "r < m", "stride", plain, "out[m - 1 - r] = sum;"),
        rows_per_thread(gid, "r < m", "stride", plain, "out[r / 2] = sum;"),
        // The inner loop unrolled with the remainder as an `if` (the
        // recurrence's instance at the exit counter), right and one short.
        rows_per_thread(gid, "r < m", "stride", "unsigned k = 0; for (; k + 2 <= n; k += 2) { sum += in[r * n + k]; sum += in[r * n + k + 1]; } if (k < n) sum += in[r * n + k];", store),
        rows_per_thread(gid, "r < m", "stride", "unsigned k = 0; for (; k + 2 <= n; k += 2) { sum += in[r * n + k]; sum += in[r * n + k + 1]; } if (k + 1 < n) sum += in[r * n + k];", store),
    ];
    let mut verdicts = Vec::new();
    for (k, b) in cases.iter().enumerate() {
        let tag = format!("rows{k}");
        let verdict = check_pair(&dir, &tag, &reference, b);
        verdicts.push(verdict);
        // The parameterized proof alone (testing runs beside it in
        // `check` and may find a difference first) must not prove a pair
        // that the interpreter shows different. For a pair `check` called
        // equivalent, `check_pair` has already run the same interpreter
        // check (same launches, same seeds) and found no difference, so
        // the proof alone could not fail it: skipped, which halves the
        // interpreter's share of this test (most of its time).
        if verdict == Verdict::Equivalent {
            continue;
        }
        assert_proof_alone_agrees(&dir, &tag, &reference, b);
    }
    eprintln!("rows-per-thread pairs: {verdicts:?}");
    assert_eq!(verdicts[0], Verdict::Equivalent, "the same rows-per-thread kernel is not proved equivalent to itself");
    assert_eq!(verdicts[1], Verdict::Equivalent, "the unrolled inner loop is not proved equivalent");
    assert_eq!(verdicts[11], Verdict::Equivalent, "the unrolled inner loop with an `if` remainder is not proved equivalent");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The parameterized proof alone, for any block and grid size (testing
/// runs beside it in `check` and may find a difference first), must not
/// prove a pair `a`, `b` that the interpreter shows different.
fn assert_proof_alone_agrees(dir: &std::path::Path, tag: &str, a: &str, b: &str) {
    let ma = compile(dir, &format!("{tag}_pa.cu"), a);
    let mb = compile(dir, &format!("{tag}_pb.cu"), b);
    let config = EquivConfig { group_size: [None, Some(1), Some(1)], num_groups: [None, Some(1), Some(1)], ..EquivConfig::default() };
    if let lockstep_equiv::param::ParamOutcome::Proved { .. } = lockstep_equiv::param::prove(kernel(&ma), Some(kernel(&mb)), &config) {
        eprintln!("{tag}: the proof alone: proved");
        if let Some(d) = concrete_difference(kernel(&ma), kernel(&mb)) {
            panic!("{tag}: the proof alone proves the pair, but the interpreter finds a difference: {d}\n--- B\n{b}");
        }
    }
}

/// A kernel for any launch (no precondition): `body` uses `gid` (the
/// thread's global id), `stride` (the thread count) and `n`.
fn any_launch(body: &str) -> String {
    format!(
        "__global__ void map(int *out, const int *in, unsigned n) {{\n\
           unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;\n\
           unsigned stride = blockDim.x * gridDim.x;\n\
           {body}\n\
         }}\n"
    )
}

#[test]
fn generated_iteration_pairs_are_never_wrongly_equivalent() {
    let dir = temp_dir("iterations");
    // Loops with writes whose trip count is symbolic, in the rules that
    // know the iteration symbol: rows updated in place (reads of the
    // buffer an iteration writes) and grid-stride loops writing two
    // elements per iteration (elements whose writer is another iteration
    // of another thread), right and with slips (the old value
    // subtracted, a lane's source, a last odd element dropped, pairs
    // skipped, a signed counter that may overflow). Few pairs: each
    // equivalent one costs an interpreter check on thirty launches.
    let (gid, plain, unrolled2) = (ROW_GID, ROW_SUM, ROW_SUM_UNROLLED);
    let reference = rows_per_thread(gid, "r < m", "stride", plain, "out[r] += sum;");
    let mut pairs: Vec<(String, String, String)> = [
        rows_per_thread(gid, "r < m", "stride", unrolled2, "out[r] = sum + out[r];"),
        rows_per_thread(gid, "r < m", "stride", plain, "out[r] = sum - out[r];"),
    ]
    .into_iter()
    .enumerate()
    .map(|(k, b)| (format!("inplace_rows{k}"), reference.clone(), b))
    .collect();
    let reference = any_launch("for (unsigned i = gid; i < n; i += stride) out[i] = 5 * in[i] + 1;");
    let rewrites: &[&str] = &[
        "for (unsigned i = gid; i < n / 2 + n % 2; i += stride) { unsigned j = 2 * i; out[j] = 5 * in[j] + 1; if (j + 1 < n) out[j + 1] = 5 * in[j + 1] + 1; }",
        "for (unsigned i = gid; i < n / 2 + n % 2; i += stride) { unsigned j = 2 * i; out[j] = 5 * in[j] + 1; if (j + 1 < n) out[j + 1] = 5 * in[j] + 1; }",
        "for (unsigned i = gid; i < n / 2; i += stride) { unsigned j = 2 * i; out[j] = 5 * in[j] + 1; out[j + 1] = 5 * in[j + 1] + 1; }",
        "for (unsigned i = gid; i < n / 2 + n % 2; i += 2 * stride) { unsigned j = 2 * i; out[j] = 5 * in[j] + 1; if (j + 1 < n) out[j + 1] = 5 * in[j + 1] + 1; }",
        "for (int i = gid; i < (int)n; i += stride) out[i] = 5 * in[i] + 1;",
    ];
    for (k, b) in rewrites.iter().enumerate() {
        pairs.push((format!("stride_pairs{k}"), reference.clone(), any_launch(b)));
    }
    let mut verdicts = Vec::new();
    for (tag, a, b) in &pairs {
        let verdict = check_pair(&dir, tag, a, b);
        verdicts.push(verdict);
        // The proof alone, as in the rows test: a pair `check` called
        // equivalent has had the interpreter's check already.
        if verdict == Verdict::Equivalent {
            continue;
        }
        assert_proof_alone_agrees(&dir, tag, a, b);
    }
    eprintln!("iteration pairs: {verdicts:?}");
    assert_eq!(verdicts[0], Verdict::Equivalent, "rows updated in place, unrolled, are not proved equivalent");
    assert_eq!(verdicts[2], Verdict::Equivalent, "two elements per grid-stride iteration are not proved equivalent");
    assert!(verdicts.contains(&Verdict::Different), "no pair was found different: {verdicts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
