//! A small S-expression parser for solver responses.
//!
//! Solvers answer with SMT-LIB2 S-expressions: symbols (plain or `|quoted|`),
//! keywords, numerals and bit-vector literals (all kept as [`SExpr::Atom`]),
//! string literals (with `""` as the escaped quote), and lists. The driver
//! receives output in arbitrary chunks, so [`parse_prefix`] reports an
//! incomplete expression as `Ok(None)` rather than as an error.

use std::fmt;

/// An S-expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SExpr {
    /// A symbol, keyword, numeral or literal such as `#b01`; quoted symbols
    /// are stored without their bars.
    Atom(String),
    /// A string literal, unescaped.
    Str(String),
    /// A parenthesised list.
    List(Vec<SExpr>),
}

impl SExpr {
    /// An atom.
    pub fn atom(text: impl Into<String>) -> SExpr {
        SExpr::Atom(text.into())
    }

    /// The atom's text, if this is an atom.
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            SExpr::Atom(a) => Some(a),
            _ => None,
        }
    }

    /// The items, if this is a list.
    pub fn as_list(&self) -> Option<&[SExpr]> {
        match self {
            SExpr::List(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is the atom `text`.
    pub fn is_atom(&self, text: &str) -> bool {
        self.as_atom() == Some(text)
    }

    /// The message if this is a solver error, `(error "message")`.
    pub fn as_error(&self) -> Option<String> {
        match self.as_list()? {
            [head, rest @ ..] if head.is_atom("error") => Some(
                rest.iter()
                    .map(|e| match e {
                        SExpr::Str(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => None,
        }
    }
}

/// Prints the expression on one line in SMT-LIB syntax.
impl fmt::Display for SExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SExpr::Atom(a) => {
                let plain = !a.is_empty()
                    && a.chars()
                        .all(|c| c.is_ascii_graphic() && !matches!(c, '(' | ')' | '|' | '"' | ';'));
                if plain {
                    f.write_str(a)
                } else {
                    write!(f, "|{a}|")
                }
            }
            SExpr::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            SExpr::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A malformed S-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the problem in the input.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed S-expression at byte {}: {}",
            self.offset, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses the first complete S-expression in `input`.
///
/// Returns the expression and the number of bytes consumed, or `Ok(None)` if
/// `input` holds only whitespace, comments, or the beginning of an
/// expression. An atom that reaches the end of `input` counts as incomplete,
/// because more of it may still arrive; solvers end every answer with a
/// newline. The parser uses an explicit stack, so deep nesting cannot
/// overflow the Rust stack.
pub fn parse_prefix(input: &[u8]) -> Result<Option<(SExpr, usize)>, ParseError> {
    let mut stack: Vec<Vec<SExpr>> = Vec::new();
    let mut i = 0;
    loop {
        // Skip whitespace and `;` comments.
        while i < input.len() {
            match input[i] {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b';' => match input[i..].iter().position(|&b| b == b'\n') {
                    Some(n) => i += n + 1,
                    None => return Ok(None),
                },
                _ => break,
            }
        }
        if i >= input.len() {
            return Ok(None);
        }
        let item = match input[i] {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
                continue;
            }
            b')' => {
                let Some(items) = stack.pop() else {
                    return Err(ParseError {
                        offset: i,
                        message: "unbalanced ')'".into(),
                    });
                };
                i += 1;
                SExpr::List(items)
            }
            b'"' => {
                let mut text = Vec::new();
                let mut j = i + 1;
                loop {
                    match input.get(j) {
                        None => return Ok(None),
                        Some(b'"') if input.get(j + 1) == Some(&b'"') => {
                            text.push(b'"');
                            j += 2;
                        }
                        // A closing quote at the very end might be the first
                        // half of an escaped `""`; wait for more input.
                        Some(b'"') if j + 1 == input.len() => return Ok(None),
                        Some(b'"') => break,
                        Some(&b) => {
                            text.push(b);
                            j += 1;
                        }
                    }
                }
                i = j + 1;
                SExpr::Str(String::from_utf8_lossy(&text).into_owned())
            }
            b'|' => match input[i + 1..].iter().position(|&b| b == b'|') {
                None => return Ok(None),
                Some(n) => {
                    let text = String::from_utf8_lossy(&input[i + 1..i + 1 + n]).into_owned();
                    i += n + 2;
                    SExpr::Atom(text)
                }
            },
            _ => {
                let start = i;
                while i < input.len()
                    && !matches!(
                        input[i],
                        b' ' | b'\t' | b'\r' | b'\n' | b'(' | b')' | b'"' | b'|' | b';'
                    )
                {
                    i += 1;
                }
                if i == input.len() {
                    return Ok(None);
                }
                SExpr::Atom(String::from_utf8_lossy(&input[start..i]).into_owned())
            }
        };
        match stack.last_mut() {
            Some(list) => list.push(item),
            None => return Ok(Some((item, i))),
        }
    }
}

/// Parses every S-expression in a complete text.
pub fn parse_all(text: &str) -> Result<Vec<SExpr>, ParseError> {
    // A trailing newline terminates a final atom, which `parse_prefix` would
    // otherwise treat as possibly incomplete.
    let input = format!("{text}\n");
    let bytes = input.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some((e, n)) = parse_prefix(&bytes[pos..])? {
        out.push(e);
        pos += n;
    }
    if bytes[pos..].iter().any(|b| !b.is_ascii_whitespace()) {
        // Leftover text that is not a complete expression: find out whether
        // it is only a comment, otherwise it is an unterminated expression.
        let rest = String::from_utf8_lossy(&bytes[pos..]);
        if rest
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';'))
        {
            return Err(ParseError {
                offset: pos,
                message: "unterminated expression".into(),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_solver_answers() {
        let v =
            parse_all("sat\n((x #x05)\n ((bvadd x #x01) #x06))\n(:reason-unknown \"time\"\"out\")")
                .unwrap();
        assert_eq!(v.len(), 3);
        assert!(v[0].is_atom("sat"));
        assert_eq!(v[1].to_string(), "((x #x05) ((bvadd x #x01) #x06))");
        assert_eq!(v[2].as_list().unwrap()[1], SExpr::Str("time\"out".into()));
    }

    #[test]
    fn quoted_symbols_and_comments() {
        let v = parse_all("; hello\n(|a b| c) ; trailing\n").unwrap();
        assert_eq!(
            v,
            vec![SExpr::List(vec![SExpr::atom("a b"), SExpr::atom("c")])]
        );
        assert_eq!(v[0].to_string(), "(|a b| c)");
    }

    #[test]
    fn incomplete_input_waits() {
        assert_eq!(parse_prefix(b"(a (b").unwrap(), None);
        assert_eq!(parse_prefix(b"sa").unwrap(), None);
        assert_eq!(parse_prefix(b"\"abc").unwrap(), None);
        assert_eq!(parse_prefix(b"   ").unwrap(), None);
        let (e, n) = parse_prefix(b"sat\nunsat\n").unwrap().unwrap();
        assert!(e.is_atom("sat"));
        assert_eq!(n, 3);
    }

    #[test]
    fn errors_are_recognised() {
        let e = parse_all("(error \"line 1: oops\")").unwrap();
        assert_eq!(e[0].as_error().as_deref(), Some("line 1: oops"));
        assert!(parse_all(")").is_err());
        assert!(parse_all("(a").is_err());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let text = format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000));
        let v = parse_all(&text).unwrap();
        assert_eq!(v.len(), 1);
        // Dropping a deeply nested value recurses; forget it to keep the test
        // about the parser.
        std::mem::forget(v);
    }
}
