//! The parser rejects malformed text with the line and column of the fault.

use lockstep_kir::*;

/// Parses `text`, which must fail, and returns the error.
fn fail(text: &str) -> ParseError {
    match parse_module(text) {
        Ok(m) => panic!("parsed unexpectedly:\n{}", print_module(&m)),
        Err(e) => e,
    }
}

/// Asserts the error's position and that its message contains `needle`.
fn assert_error(text: &str, line: u32, col: u32, needle: &str) {
    let e = fail(text);
    assert_eq!((e.line, e.col), (line, col), "wrong position for {e}");
    assert!(e.message.contains(needle), "message {:?} lacks {needle:?}", e.message);
    // Display puts the position first, like a compiler.
    assert!(e.to_string().starts_with(&format!("{line}:{col}: ")));
}

/// A one-function module whose entry block holds `body` (lines indented by
/// two spaces); the body starts on line 4.
fn kernel(body: &str) -> String {
    format!(
        "language cuda\nglobal0 = shared \"s\" size 16 align 4\nkernel fn0 \"k\" link \"k\" (v0 \"n\": i32, v1 \"p\": ptr.global) entry block0 {{\nblock0:\n{body}\n}}\n"
    )
}

#[test]
fn bad_token() {
    assert_error(&kernel("  v2: i32 = $add v0, v0\n  return"), 5, 13, "unexpected character `$`");
    assert_error(&kernel("  v2: i32 = add v0 v0\n  return"), 5, 20, "expected `,`, found `v0`");
    assert_error(&kernel("  v2: i32 = frobnicate v0\n  return"), 5, 13, "unknown instruction `frobnicate`");
    assert_error(&kernel("  v2: i32 = add v0, v0 extra\n  return"), 5, 24, "expected end of line");
    assert_error(&kernel("  v2: i32 = const 12q\n  return"), 5, 19, "invalid number `12q`");
    assert_error(&kernel("  v2: i32 = icmp around v0, v0\n  return"), 5, 18, "expected an integer condition");
    assert_error(&kernel("  v2: i32 = builtin local_id w\n  return"), 5, 30, "expected a dimension");
    assert_error("lingo cuda\n", 1, 1, "expected `language`");
    assert_error("language fortran\n", 1, 10, "unknown language `fortran`");
    assert_error("language cuda\nfile0 = \"a.cu\n", 2, 9, "unterminated string");
    assert_error("language cuda\nfile0 = \"a\\q\"\n", 2, 11, "unknown escape");
    assert_error("language cuda\nglobal0 = shared \"s\" align 4 init x\"abc\"\n", 2, 35, "even number");
    assert_error("language cuda\nglobal0 = shared \"s\" size 4\n", 2, 28, "expected `align`");
    assert_error("language cuda\nglobal0 = heap \"s\" align 4\n", 2, 11, "unknown memory space `heap`");
    assert_error("language cuda\nwhat\n", 2, 1, "expected a file, global or function definition");
}

#[test]
fn unknown_references() {
    assert_error(&kernel("  v2: i32 = add v0, v9\n  return"), 5, 21, "unknown value v9");
    assert_error(&kernel("  jump block7"), 5, 8, "unknown block block7");
    assert_error(&kernel("  v2: i32 = call fn4(v0)\n  return"), 5, 18, "unknown function fn4");
    assert_error(&kernel("  v2: ptr.shared = global_addr global3\n  return"), 5, 32, "unknown global global3");
    assert_error(&kernel("  return @file2:1:1"), 5, 11, "unknown file file2");
    assert_error(&kernel("  br v0, block0(v5), block0"), 5, 17, "unknown value v5");
    assert_error(&kernel("  return v8"), 5, 10, "unknown value v8");
    // Definitions twice.
    assert_error(&kernel("  v0: i32 = const 1\n  return"), 5, 3, "value v0 is defined twice");
    assert_error(&kernel("  return\nblock0:\n  return"), 6, 1, "block block0 is defined twice");
}

#[test]
fn wrong_type_annotations() {
    assert_error(&kernel("  v2: i32x = havoc\n  return"), 5, 7, "unknown type `i32x`");
    assert_error(&kernel("  v2: ptr.heap = havoc\n  return"), 5, 7, "unknown type `ptr.heap`");
    assert_error(&kernel("  v2: ptr.global = const 5\n  return"), 5, 20, "`const` needs an integer or float type");
    assert_error(&kernel("  v2: i8 = const 300\n  return"), 5, 18, "constant 300 does not fit in i8");
    assert_error(&kernel("  v2: i8 = const -129\n  return"), 5, 18, "does not fit in i8");
    assert_error(&kernel("  v2: i32 = null\n  return"), 5, 13, "`null` needs a pointer type, not i32");
    assert_error(&kernel("  v2: i64 = global_addr global0\n  return"), 5, 13, "`global_addr` needs a pointer type");
    assert_error("language cuda\ndevice fn0 \"f\" link \"f\" () -> int entry block0 {\n", 2, 31, "unknown type `int`");
}

#[test]
fn structural_errors() {
    assert_error(&kernel("  v2: i32 = add v0, v0"), 6, 1, "block0 has no terminator");
    assert_error(&kernel("  return\n  v2: i32 = add v0, v0"), 6, 13, "instruction outside a block");
    assert_error(
        "language cuda\nkernel fn0 \"k\" link \"k\" () entry block0 {\n  return\n}\n",
        3,
        3,
        "terminator outside a block",
    );
    // Input that stops in the middle of a function.
    assert_error("language cuda\nkernel fn0 \"k\" link \"k\" (", 2, 26, "expected a value");
    assert_error(
        "language cuda\nkernel fn0 \"k\" link \"k\" () entry block0 {\nblock0:\n  return\n",
        5,
        1,
        "expected an instruction, block or `}`",
    );
}

#[test]
fn garbage_never_panics() {
    // Every prefix of a valid module, and a few mutilations of it, must give
    // an error or a module, never a panic.
    let text = "language cuda\nfile0 = \"a.cu\"\nglobal0 = shared \"s\" size 16 align 4 init x\"00\"\n\
kernel fn0 \"k\" link \"k\" (v0 \"n\": i32 pointee(const)) -> i32 entry block0 @file0:1:2 {\n\
  local0 = private \"l\" align 4\n  v1: i32 = const -1\nblock0:\n  v2: i1 = icmp eq v0, v1 @file0:3:4\n\
  br v2, block1(v0), block1(v1)\nblock1(v3: i32):\n  return v3\n}\n";
    parse_module(text).unwrap();
    let chars: Vec<char> = text.chars().collect();
    for end in 0..chars.len() {
        let prefix: String = chars[..end].iter().collect();
        let _ = parse_module(&prefix);
        let mut cut = chars.clone();
        cut.remove(end);
        let _ = parse_module(&cut.iter().collect::<String>());
        let mut doubled = chars.clone();
        doubled.insert(end, chars[end]);
        let _ = parse_module(&doubled.iter().collect::<String>());
    }
    for junk in ["", "\"", "x\"", "-", "0x", "@", "v", "block", "fn99999999999", "v4294967296: i32 = const 1"] {
        let _ = parse_module(junk);
        let _ = parse_module(&kernel(junk));
    }
}
