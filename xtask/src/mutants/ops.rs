//! Mutation operators on kernel source text: each turns a kernel into
//! variants with one introduced defect of a kind users make (a deleted
//! barrier, a relaxed bound, a dropped guard, an index shifted by one, a
//! thread-id term swapped, a write moved before a barrier, an atomic made
//! plain).
//!
//! The operators work on text, not on a parse: a mutant may not compile
//! (the harness counts it and moves on) and may not be defective (the
//! interpreter decides). What they must never do is change annotations
//! (`__assert`, `__invariant`, ...), comments or preprocessor lines: a
//! mutant is the same program with one fault. Everything here is pure and
//! deterministic, so the same kernel gives the same mutants in the same
//! order.
//!
//! This file has no dependencies: the CLI's tests include it by path to
//! run a small sample of the harness against the real binary.

/// One mutant: the operator, the 1-based line it changed, and the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    pub op: &'static str,
    pub line: usize,
    pub text: String,
}

/// The operators, by name, in the order mutants are listed.
pub const OPERATORS: [&str; 7] =
    ["delete-barrier", "relax-bound", "drop-guard", "shift-index", "swap-thread-id", "hoist-write", "remove-atomic"];

/// Every mutant of `src`, grouped by operator in `OPERATORS` order and by
/// position within each operator.
pub fn mutants(src: &str) -> Vec<Mutant> {
    let lines: Vec<&str> = src.split('\n').collect();
    let code = code_mask(src);
    let mut out = Vec::new();
    for op in OPERATORS {
        for (n, line) in lines.iter().enumerate() {
            if !mutable_line(line) {
                continue;
            }
            let start: usize = lines[..n].iter().map(|l| l.len() + 1).sum();
            let is_code = |k: usize| code.get(start + k).copied().unwrap_or(false);
            for new in mutate_line(op, &lines, n, &is_code) {
                let text = match new {
                    Edit::Line(l) => replace_line(&lines, n, &l),
                    Edit::Swap => swap_lines(&lines, n),
                };
                if text != src {
                    out.push(Mutant { op, line: n + 1, text });
                }
            }
        }
    }
    out
}

/// At most `per_kernel` mutants of `all`, spread over the operators
/// (round-robin over operators, each operator's sites in order), so that a
/// kernel with many subscripts does not fill its share with index shifts.
pub fn sample(all: Vec<Mutant>, per_kernel: usize) -> Vec<Mutant> {
    let mut by_op: Vec<std::collections::VecDeque<Mutant>> = OPERATORS.iter().map(|_| Default::default()).collect();
    for m in all {
        let k = OPERATORS.iter().position(|&o| o == m.op).unwrap_or(0);
        by_op[k].push_back(m);
    }
    let mut out = Vec::new();
    while out.len() < per_kernel && by_op.iter().any(|q| !q.is_empty()) {
        for q in by_op.iter_mut() {
            if out.len() < per_kernel {
                if let Some(m) = q.pop_front() {
                    out.push(m);
                }
            }
        }
    }
    out
}

enum Edit {
    /// The line replaced by this text.
    Line(String),
    /// The line swapped with the next one.
    Swap,
}

/// Annotation and specification calls: never mutated.
const ANNOTATIONS: [&str; 12] = [
    "__assert", "__invariant", "__requires", "__ensures", "__global_", "__assume", "__function_wide",
    "__candidate", "__barrier_invariant", "__axiom", "__non_temporal", "assert(",
];

/// Whether a line may be mutated at all: not a preprocessor line, not an
/// annotation, not a declaration of a function.
fn mutable_line(line: &str) -> bool {
    let t = line.trim_start();
    !(t.starts_with('#') || t.starts_with("//") || t.starts_with("/*") || t.starts_with('*'))
        && !ANNOTATIONS.iter().any(|a| line.contains(a))
        && !line.contains("__global__")
        && !line.contains("__kernel")
        && !line.contains("template")
}

/// For each byte of `src`, whether it is code (not inside a comment, a
/// string or a character literal).
fn code_mask(src: &str) -> Vec<bool> {
    let b = src.as_bytes();
    let mut mask = vec![true; b.len()];
    let mut i = 0;
    while i < b.len() {
        let (end, is_comment) = if b[i..].starts_with(b"//") {
            (b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p), true)
        } else if b[i..].starts_with(b"/*") {
            (find(b, i + 2, b"*/").map_or(b.len(), |p| p + 2), true)
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            let mut j = i + 1;
            while j < b.len() && b[j] != q && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            ((j + 1).min(b.len()), true)
        } else {
            (i + 1, false)
        };
        if is_comment {
            for m in &mut mask[i..end] {
                *m = false;
            }
        }
        i = end.max(i + 1);
    }
    mask
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    (from..b.len().saturating_sub(pat.len() - 1)).find(|&k| b[k..].starts_with(pat))
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The byte offsets where the identifier `word` starts in `line`, as a
/// whole word, in code.
fn word_sites(line: &str, word: &str, is_code: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = line[from..].find(word) {
        let k = from + p;
        let before_ok = k == 0 || !is_ident(b[k - 1]);
        let after_ok = b.get(k + word.len()).is_none_or(|&c| !is_ident(c));
        if before_ok && after_ok && is_code(k) {
            out.push(k);
        }
        from = k + word.len();
    }
    out
}

/// The offset of the parenthesis (or bracket) closing the one at `open`.
fn closing(line: &str, open: usize) -> Option<usize> {
    let b = line.as_bytes();
    let (o, c) = match b.get(open)? {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        _ => return None,
    };
    let mut depth = 0;
    for (k, &x) in b.iter().enumerate().skip(open) {
        if x == o {
            depth += 1;
        } else if x == c {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// Splits a call's argument list (the text between its parentheses) at
/// top-level commas.
fn split_args(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (k, c) in args.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&args[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&args[start..]);
    out
}

const BARRIERS: [&str; 4] = ["__syncthreads", "barrier", "work_group_barrier", "__syncwarp"];

/// The barrier calls of a line: (start of the name, end of the call).
fn barrier_calls(line: &str, is_code: &dyn Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for name in BARRIERS {
        for k in word_sites(line, name, is_code) {
            let open = k + name.len() + line[k + name.len()..].len() - line[k + name.len()..].trim_start().len();
            if line.as_bytes().get(open) == Some(&b'(') {
                if let Some(close) = closing(line, open) {
                    out.push((k, close + 1));
                }
            }
        }
    }
    out.sort();
    out
}

fn mutate_line(op: &str, lines: &[&str], n: usize, is_code: &dyn Fn(usize) -> bool) -> Vec<Edit> {
    let line = lines[n];
    let b = line.as_bytes();
    let splice = |from: usize, to: usize, with: &str| Edit::Line(format!("{}{}{}", &line[..from], with, &line[to..]));
    let mut out = Vec::new();
    match op {
        "delete-barrier" => {
            for (k, end) in barrier_calls(line, is_code) {
                out.push(splice(k, end, "(void)0"));
            }
        }
        "relax-bound" => {
            let control = ["if", "for", "while"].iter().any(|w| !word_sites(line, w, is_code).is_empty());
            if control && !line.contains("_cast<") {
                for k in 0..b.len() {
                    let next = b.get(k + 1).copied().unwrap_or(b' ');
                    let prev = if k > 0 { b[k - 1] } else { b' ' };
                    if b[k] == b'<' && next != b'<' && next != b'=' && prev != b'<' && is_code(k) {
                        out.push(splice(k, k + 1, "<="));
                    }
                }
            }
        }
        "drop-guard" => {
            for k in word_sites(line, "if", is_code) {
                let open = k + 2 + line[k + 2..].len() - line[k + 2..].trim_start().len();
                if b.get(open) == Some(&b'(') {
                    if let Some(close) = closing(line, open) {
                        out.push(splice(open, close + 1, "(1)"));
                    }
                }
            }
        }
        "shift-index" => {
            for k in 0..b.len() {
                if b[k] != b'[' || k == 0 || !(is_ident(b[k - 1]) || b[k - 1] == b']' || b[k - 1] == b')') || !is_code(k) {
                    continue;
                }
                let Some(close) = closing(line, k) else { continue };
                let inner = &line[k + 1..close];
                // A subscript that names a variable (declarations use
                // constants, and shifting a constant index of a declaration
                // is no defect).
                if inner.bytes().any(|c| c.is_ascii_lowercase()) {
                    out.push(splice(k + 1, close, &format!("({inner}) + 1")));
                }
            }
        }
        "swap-thread-id" => {
            for (from, to) in [
                ("threadIdx.x", "threadIdx.y"),
                ("threadIdx.y", "threadIdx.x"),
                ("blockIdx.x", "blockIdx.y"),
                ("get_local_id(0)", "get_local_id(1)"),
                ("get_local_id(1)", "get_local_id(0)"),
                ("get_global_id(0)", "get_global_id(1)"),
                ("get_group_id(0)", "get_group_id(1)"),
            ] {
                let head = &from[..from.find(['.', '(']).unwrap_or(from.len())];
                for k in word_sites(line, head, is_code) {
                    if line[k..].starts_with(from) {
                        out.push(splice(k, k + from.len(), to));
                    }
                }
            }
        }
        "hoist-write" => {
            // A barrier alone on its line, followed by a plain assignment:
            // the write moves before the barrier.
            let calls = barrier_calls(line, is_code);
            let alone = calls.len() == 1 && line.trim().trim_end_matches(';').trim().len() == calls[0].1 - calls[0].0;
            if alone {
                if let Some(next) = lines.get(n + 1) {
                    let t = next.trim();
                    let assigns = t.ends_with(';')
                        && t.contains('=')
                        && !t.contains("==")
                        && !t.starts_with("for")
                        && !t.starts_with("return")
                        && mutable_line(next);
                    if assigns {
                        out.push(Edit::Swap);
                    }
                }
            }
        }
        "remove-atomic" => {
            for (name, update) in ATOMICS {
                for k in word_sites(line, name, is_code) {
                    let open = k + name.len();
                    if b.get(open) != Some(&b'(') {
                        continue;
                    }
                    let Some(close) = closing(line, open) else { continue };
                    let args = split_args(&line[open + 1..close]);
                    let ptr = args[0].trim();
                    let val = args.get(1).map_or("1", |v| v.trim());
                    let new = update.replace("{o}", "__old").replace("{v}", &format!("({val})"));
                    // A plain read and write with the atomic's result (the
                    // old value); `__auto_type` is clang's in C and C++.
                    let plain = format!(
                        "({{ __auto_type __ptr = ({ptr}); __auto_type __old = *__ptr; *__ptr = {new}; __old; }})"
                    );
                    out.push(splice(k, close + 1, &plain));
                }
            }
        }
        _ => {}
    }
    out
}

/// Atomic functions of CUDA and OpenCL and the plain update each makes
/// (`{o}` the old value, `{v}` the operand).
const ATOMICS: [(&str, &str); 18] = [
    ("atomicAdd", "{o} + {v}"),
    ("atomicSub", "{o} - {v}"),
    ("atomicOr", "{o} | {v}"),
    ("atomicAnd", "{o} & {v}"),
    ("atomicXor", "{o} ^ {v}"),
    ("atomicMax", "({o} > {v} ? {o} : {v})"),
    ("atomicMin", "({o} < {v} ? {o} : {v})"),
    ("atomicExch", "{v}"),
    ("atomic_add", "{o} + {v}"),
    ("atomic_sub", "{o} - {v}"),
    ("atomic_or", "{o} | {v}"),
    ("atomic_and", "{o} & {v}"),
    ("atomic_xor", "{o} ^ {v}"),
    ("atomic_inc", "{o} + 1"),
    ("atomic_dec", "{o} - 1"),
    ("atom_add", "{o} + {v}"),
    ("atom_inc", "{o} + 1"),
    ("atomic_xchg", "{v}"),
];

fn replace_line(lines: &[&str], n: usize, new: &str) -> String {
    let mut v: Vec<&str> = lines.to_vec();
    v[n] = new;
    v.join("\n")
}

fn swap_lines(lines: &[&str], n: usize) -> String {
    let mut v: Vec<&str> = lines.to_vec();
    v.swap(n, n + 1);
    v.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = "\
#include <x.h>
// a comment: __syncthreads(); a[i] if (x < y)
__global__ void k(int *a, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t < n) {
    s[t] = a[t];
  }
  __syncthreads();
  a[t] = s[255 - t];
  atomicAdd(&a[0], 1);
  __assert(t < 256);
}
";

    fn of(op: &str) -> Vec<Mutant> {
        mutants(KERNEL).into_iter().filter(|m| m.op == op).collect()
    }

    #[test]
    fn each_operator_changes_one_site_and_leaves_comments_and_annotations() {
        let d = of("delete-barrier");
        assert_eq!(d.len(), 1);
        assert!(d[0].text.contains("  (void)0;\n") && d[0].text.contains("// a comment: __syncthreads();"));
        let r = of("relax-bound");
        assert_eq!(r.len(), 1);
        assert!(r[0].text.contains("if (t <= n)") && r[0].text.contains("__assert(t < 256)"));
        assert_eq!(of("drop-guard")[0].line, 6);
        assert!(of("drop-guard")[0].text.contains("if (1) {"));
        let s = of("shift-index");
        // s[t], a[t] (line 7), a[t], s[255 - t] (line 10), a[0] is a constant.
        assert_eq!(s.iter().map(|m| m.line).collect::<Vec<_>>(), vec![7, 7, 10, 10]);
        assert!(s[0].text.contains("s[(t) + 1] = a[t];"));
        assert!(!s.iter().any(|m| m.text.contains("s[(256) + 1]")));
        assert!(of("swap-thread-id")[0].text.contains("int t = threadIdx.y;"));
        let h = of("hoist-write");
        assert_eq!(h.len(), 1);
        assert!(h[0].text.contains("  a[t] = s[255 - t];\n  __syncthreads();\n"));
        let a = of("remove-atomic");
        assert_eq!(a.len(), 1);
        assert!(a[0].text.contains("({ __auto_type __ptr = (&a[0]); __auto_type __old = *__ptr; *__ptr = __old + (1); __old; });"));
    }

    #[test]
    fn sampling_is_deterministic_and_spreads_over_operators() {
        let first = sample(mutants(KERNEL), 5);
        assert_eq!(first, sample(mutants(KERNEL), 5));
        let ops: Vec<&str> = first.iter().map(|m| m.op).collect();
        assert_eq!(ops, vec!["delete-barrier", "relax-bound", "drop-guard", "shift-index", "swap-thread-id"]);
    }

    #[test]
    fn opencl_barriers_and_atomics() {
        let src = "__kernel void k(__global int *p) {\n  p[get_local_id(0)] = 1;\n  barrier(CLK_LOCAL_MEM_FENCE);\n  atomic_inc(p);\n}\n";
        let all = mutants(src);
        assert!(all.iter().any(|m| m.op == "delete-barrier" && m.text.contains("  (void)0;")));
        assert!(all.iter().any(|m| m.op == "swap-thread-id" && m.text.contains("p[get_local_id(1)]")));
        assert!(all.iter().any(|m| m.op == "remove-atomic" && m.text.contains("*__ptr = __old + 1;")));
    }
}
