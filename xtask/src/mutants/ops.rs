//! Mutation operators on kernel source text: each turns a kernel into
//! variants with one introduced defect of a kind users make (a deleted
//! barrier, a relaxed bound, a dropped guard, an index shifted by one, a
//! thread-id term swapped, a write moved before a barrier, a barrier moved
//! one statement up, an atomic made plain, a `volatile` dropped, a shift
//! amount or a launch size changed, one condition of a guard dropped).
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
pub const OPERATORS: [&str; 14] = [
    "delete-barrier",
    "relax-bound",
    "drop-guard",
    "shift-index",
    "swap-thread-id",
    "hoist-write",
    "remove-atomic",
    "raise-barrier",
    "drop-conjunct",
    "lower-index",
    "remove-volatile",
    "change-shift",
    "grow-launch",
    "flip-arith",
];

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
                    Edit::SwapUp => swap_lines(&lines, n - 1),
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
    /// The line swapped with the previous one.
    SwapUp,
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

/// Whether a line is a barrier call alone (`__syncthreads();`).
fn barrier_alone(line: &str, is_code: &dyn Fn(usize) -> bool) -> bool {
    let calls = barrier_calls(line, is_code);
    calls.len() == 1 && line.trim().trim_end_matches(';').trim().len() == calls[0].1 - calls[0].0
}

/// Whether a line is one simple statement a barrier may be moved across:
/// it ends with `;`, is no barrier, and does not leave the block.
fn movable(line: &str, is_code: &dyn Fn(usize) -> bool) -> bool {
    let t = line.trim();
    let leaves = ["for", "return", "break", "continue", "goto", "case", "default", "else", "do"]
        .iter()
        .any(|w| t.starts_with(w) && !t[w.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'));
    t.ends_with(';')
        && !leaves
        && !t.contains('}')
        && mutable_line(line)
        && BARRIERS.iter().all(|b| !line.contains(b))
        && !line.is_empty()
        && is_code(line.len() - line.trim_start().len())
}

/// Whether the text before a subscript's `[` declares an array (`int a`,
/// `__shared__ float s`): two words or more, with no operator between them.
fn declares(before: &str) -> bool {
    let start = before.rfind(['=', '(', ',', ';', '{', '?', ':', '+', '-', '*', '&', '[', '!', '<', '>', '|', '/']).map_or(0, |p| p + 1);
    let words: Vec<&str> = before[start..].split_whitespace().collect();
    words.len() >= 2 && !matches!(words[0], "return" | "else" | "case" | "do")
}

/// Splits `text` at top-level occurrences of `sep` (outside brackets).
fn split_top<'a>(text: &'a str, sep: &str) -> Vec<&'a str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut k) = (0i32, 0, 0);
    while k < b.len() {
        match b[k] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && text[k..].starts_with(sep) => {
                out.push(&text[start..k]);
                k += sep.len();
                start = k;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    out.push(&text[start..]);
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
                    let arrow = prev == b'-' || prev == b'>' || next == b'>' || next == b'=';
                    if b[k] == b'>' && !arrow && !line.contains('<') && is_code(k) {
                        out.push(splice(k, k + 1, ">="));
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
        "shift-index" | "lower-index" => {
            let delta = if op == "shift-index" { "+ 1" } else { "- 1" };
            for k in 0..b.len() {
                if b[k] != b'[' || k == 0 || !(is_ident(b[k - 1]) || b[k - 1] == b']' || b[k - 1] == b')') || !is_code(k) {
                    continue;
                }
                let Some(close) = closing(line, k) else { continue };
                let inner = &line[k + 1..close];
                // Any subscript of an access, constant or not; shifting the
                // size in an array's declaration is no defect.
                if !inner.trim().is_empty() && !declares(&line[..k]) {
                    out.push(splice(k + 1, close, &format!("({inner}) {delta}")));
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
                ("threadIdx.z", "threadIdx.x"),
                ("blockIdx.y", "blockIdx.x"),
                ("blockDim.x", "blockDim.y"),
                ("get_local_id(2)", "get_local_id(0)"),
                ("get_global_id(1)", "get_global_id(0)"),
                ("get_group_id(1)", "get_group_id(0)"),
                ("get_local_size(0)", "get_local_size(1)"),
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
            // A barrier alone on its line, followed by a statement: the
            // statement moves before the barrier.
            if barrier_alone(line, is_code) && lines.get(n + 1).is_some_and(|next| movable(next, is_code)) {
                out.push(Edit::Swap);
            }
        }
        "raise-barrier" => {
            // A barrier alone on its line moves above the statement before it.
            if n > 0 && barrier_alone(line, is_code) && movable(lines[n - 1], is_code) {
                out.push(Edit::SwapUp);
            }
        }
        "drop-conjunct" => {
            for w in ["if", "while"] {
                for k in word_sites(line, w, is_code) {
                    let open = k + w.len() + line[k + w.len()..].len() - line[k + w.len()..].trim_start().len();
                    if b.get(open) != Some(&b'(') {
                        continue;
                    }
                    let Some(close) = closing(line, open) else { continue };
                    let parts = split_top(&line[open + 1..close], "&&");
                    if parts.len() < 2 {
                        continue;
                    }
                    for drop in 0..parts.len() {
                        let kept: Vec<&str> =
                            parts.iter().enumerate().filter(|&(i, _)| i != drop).map(|(_, p)| p.trim()).collect();
                        out.push(splice(open + 1, close, &kept.join(" && ")));
                    }
                }
            }
        }
        "remove-volatile" => {
            for k in word_sites(line, "volatile", is_code) {
                let end = k + "volatile".len();
                let end = end + line[end..].len() - line[end..].trim_start().len();
                out.push(splice(k, end, ""));
            }
        }
        "change-shift" => {
            // `x >> 1`, `s <<= 2`: the constant amount grows by one.
            for k in 0..b.len().saturating_sub(1) {
                let shift = (b[k] == b'>' && b[k + 1] == b'>') || (b[k] == b'<' && b[k + 1] == b'<');
                let part_of_launch = (k > 0 && b[k - 1] == b[k]) || b.get(k + 2) == Some(&b[k]);
                if !shift || part_of_launch || !is_code(k) {
                    continue;
                }
                let mut a = k + 2;
                if b.get(a) == Some(&b'=') {
                    a += 1;
                }
                while b.get(a) == Some(&b' ') {
                    a += 1;
                }
                let digits = b[a..].iter().take_while(|c| c.is_ascii_digit()).count();
                if digits == 0 || b.get(a + digits).is_some_and(|&c| is_ident(c) || c == b'.') {
                    continue;
                }
                if let Ok(v) = line[a..a + digits].parse::<u64>() {
                    out.push(splice(a, a + digits, &(v + 1).to_string()));
                }
            }
        }
        "grow-launch" => {
            // `k<<<grid, block>>>` (or ESBMC-GPU's `ESBMC_verify_kernel(k,
            // grid, block, ...)`): one more block, or twice the threads.
            let launch = line.find("<<<").filter(|&k| is_code(k)).and_then(|open| {
                let len = line[open + 3..].find(">>>")?;
                Some((open + 3, open + 3 + len, 0))
            });
            let esbmc = word_sites(line, "ESBMC_verify_kernel", is_code).first().and_then(|&k| {
                let open = k + "ESBMC_verify_kernel".len();
                (b.get(open) == Some(&b'(')).then_some(())?;
                Some((open + 1, closing(line, open)?, 1))
            });
            if let Some((from, to, skip)) = launch.or(esbmc) {
                let args = split_args(&line[from..to]);
                if args.len() >= skip + 2 {
                    let (g, t) = (args[skip].trim(), args[skip + 1].trim());
                    let head: String = args[..skip].iter().map(|a| format!("{a}, ")).collect();
                    let rest: String = args[skip + 2..].iter().map(|a| format!(",{a}")).collect();
                    for new in [format!("({g}) + 1, {t}"), format!("{g}, ({t}) * 2")] {
                        out.push(splice(from, to, &format!("{head}{new}{rest}")));
                    }
                }
            }
        }
        "flip-arith" => {
            // In an assignment's value, one `+` becomes `-`.
            let assign = (0..b.len()).find(|&k| {
                b[k] == b'=' && is_code(k) && b.get(k + 1) != Some(&b'=') && (k == 0 || !b"=!<>".contains(&b[k - 1]))
            });
            if let Some(eq) = assign.filter(|_| !line.trim_start().starts_with("for")) {
                for k in eq + 1..b.len() {
                    let (prev, next) = (b[k - 1], b.get(k + 1).copied().unwrap_or(b' '));
                    if b[k] == b'+' && prev != b'+' && next != b'+' && next != b'=' && is_code(k) {
                        out.push(splice(k, k + 1, "-"));
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
                    let third = args.get(2).map_or("0", |v| v.trim());
                    let new = update
                        .replace("{o}", "__old")
                        .replace("{v}", &format!("({val})"))
                        .replace("{w}", &format!("({third})"));
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
/// (`{o}` the old value, `{v}` the operand, `{w}` a third operand).
const ATOMICS: [(&str, &str); 22] = [
    ("atomicCAS", "({o} == {v} ? {w} : {o})"),
    ("atomicInc", "({o} >= {v} ? 0 : {o} + 1)"),
    ("atomicDec", "(({o} == 0 || {o} > {v}) ? {v} : {o} - 1)"),
    ("atomic_cmpxchg", "({o} == {v} ? {w} : {o})"),
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
        // s[t], a[t] (line 7), a[t], s[255 - t] (line 10), a[0] (line 11);
        // the declaration's size (line 4) is no access.
        assert_eq!(s.iter().map(|m| m.line).collect::<Vec<_>>(), vec![7, 7, 10, 10, 11]);
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
    fn barrier_moves_conjuncts_volatile_shifts_and_launches() {
        let src = "\
__device__ void f(volatile int *v, int *s, int t, int n) {
  s[t] = 1;
  __syncthreads();
  v[t] = s[t + 1];
  if (t < n && t % 2 == 0) s[t] = 0;
  for (int d = n >> 1; d > 0; d >>= 1) {}
}
int main() { f<<<4, 256>>>(0, 0, 0, 0); }
";
        let all = mutants(src);
        let by = |op: &str| all.iter().filter(|m| m.op == op).collect::<Vec<_>>();
        let raise = by("raise-barrier");
        assert_eq!(raise.len(), 1);
        assert!(raise[0].text.contains("  __syncthreads();\n  s[t] = 1;\n"));
        let conj = by("drop-conjunct");
        assert_eq!(conj.len(), 2);
        assert!(conj[0].text.contains("if (t % 2 == 0) s[t] = 0;") && conj[1].text.contains("if (t < n) s[t] = 0;"));
        // `volatile` on the function's line is kept (no declaration of a
        // function is mutated); this one is a parameter of a device function.
        assert_eq!(by("remove-volatile").len(), 1);
        assert!(by("remove-volatile")[0].text.contains("f(int *v"));
        let shifts = by("change-shift");
        assert_eq!(shifts.len(), 2);
        assert!(shifts[0].text.contains("n >> 2;") && shifts[1].text.contains("d >>= 2)"));
        let launch = by("grow-launch");
        assert_eq!(launch.len(), 2);
        assert!(launch[0].text.contains("f<<<(4) + 1, 256>>>") && launch[1].text.contains("f<<<4, (256) * 2>>>"));
        assert!(by("lower-index").iter().any(|m| m.text.contains("v[(t) - 1] = s[t + 1];")));
        assert!(by("relax-bound").iter().any(|m| m.text.contains("d >= 0;")));
        assert!(by("flip-arith").iter().any(|m| m.text.contains("v[t] = s[t - 1];")));
        let esbmc = mutants("  ESBMC_verify_kernel(k, 1, N, a, b);\n  atomicCAS(A, 2, 11);\n");
        assert!(esbmc.iter().any(|m| m.text.contains("ESBMC_verify_kernel(k, (1) + 1, N, a, b);")));
        assert!(esbmc.iter().any(|m| m.text.contains("ESBMC_verify_kernel(k, 1, (N) * 2, a, b);")));
        assert!(esbmc.iter().any(|m| m.text.contains("*__ptr = (__old == (2) ? (11) : __old);")));
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
