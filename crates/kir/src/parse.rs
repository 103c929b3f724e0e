//! The parser of the KIR text form (see `text` for the syntax).
//!
//! Parsing runs in two phases. The first reads the text into KIR structures
//! whose entity ids are still the numbers written in the text (`v12` is
//! `ValueId(12)`), remembering where each reference was written. The second
//! renumbers every kind of entity densely in increasing order of its written
//! number and resolves each reference, reporting the position of the first
//! one that names nothing. Text produced by `print_module` is already dense,
//! so it parses back with the same ids and prints identically; hand-written
//! text may leave gaps or define blocks out of order.
//!
//! Instruction ids are never written: instructions are numbered in the order
//! they appear. Malformed input never panics; every error is a `ParseError`
//! with the 1-based line and column where it was found.

use std::collections::BTreeMap;
use std::fmt;

use crate::entity::{EntityRef, PrimaryMap, SecondaryMap};
use crate::ir::*;

/// A syntax or reference error in the text form.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub col: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a module printed by `print_module` (or written by hand in the same
/// syntax).
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let tokens = lex(text)?;
    let mut parser = Parser { tokens, pos: 0 };
    let raw = parser.module()?;
    resolve_module(raw)
}

/// A position in the text.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
struct Pos {
    line: u32,
    col: u32,
}

fn error<T>(pos: Pos, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line: pos.line, col: pos.col, message: message.into() })
}

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

#[derive(Clone, PartialEq, Debug)]
enum Tok {
    /// A word: keyword, entity reference (`v3`), type (`ptr.global`).
    Ident(String),
    /// An integer literal, decimal or `0x` hexadecimal, with its sign.
    Int {
        negative: bool,
        magnitude: u128,
    },
    Str(String),
    /// `x"0a0b"`: a byte string written in hexadecimal.
    Bytes(Vec<u8>),
    /// One of `( ) { } , : = @`.
    Punct(char),
    Arrow,
    Newline,
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int { negative, magnitude } => {
                format!("`{}{magnitude}`", if *negative { "-" } else { "" })
            }
            Tok::Str(_) => "a string".to_string(),
            Tok::Bytes(_) => "a byte string".to_string(),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Arrow => "`->`".to_string(),
            Tok::Newline => "end of line".to_string(),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    pos: Pos,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let (mut line, mut col) = (1u32, 1u32);
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, col };
        // `start` is where the token began; every branch below consumes
        // characters up to `i` and the column is advanced from the count.
        let start = i;
        match c {
            '\n' => {
                tokens.push(Token { tok: Tok::Newline, pos });
                i += 1;
                line += 1;
                col = 1;
                continue;
            }
            ' ' | '\t' | '\r' => i += 1,
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' | ')' | '{' | '}' | ',' | ':' | '=' | '@' => {
                tokens.push(Token { tok: Tok::Punct(c), pos });
                i += 1;
            }
            '-' if chars.get(i + 1) == Some(&'>') => {
                tokens.push(Token { tok: Tok::Arrow, pos });
                i += 2;
            }
            '-' | '0'..='9' => {
                let negative = c == '-';
                if negative {
                    i += 1;
                }
                let hex = chars.get(i) == Some(&'0') && matches!(chars.get(i + 1), Some('x' | 'X'));
                if hex {
                    i += 2;
                }
                let digits_start = i;
                while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let digits: String = chars[digits_start..i].iter().collect();
                let radix = if hex { 16 } else { 10 };
                let magnitude = match u128::from_str_radix(&digits, radix) {
                    Ok(m) => m,
                    Err(_) => {
                        let written: String = chars[start..i].iter().collect();
                        return error(pos, format!("invalid number `{written}`"));
                    }
                };
                tokens.push(Token { tok: Tok::Int { negative, magnitude }, pos });
            }
            '"' => {
                let (s, next) = lex_string(&chars, i, pos)?;
                tokens.push(Token { tok: Tok::Str(s), pos });
                i = next;
            }
            'x' if chars.get(i + 1) == Some(&'"') => {
                let (s, next) = lex_string(&chars, i + 1, Pos { line, col: col + 1 })?;
                let bytes = decode_hex(&s).ok_or_else(|| ParseError {
                    line,
                    col,
                    message: "a byte string needs an even number of hexadecimal digits".to_string(),
                })?;
                tokens.push(Token { tok: Tok::Bytes(bytes), pos });
                i = next;
            }
            c if is_ident_start(c) => {
                while i < chars.len() && is_ident_char(chars[i]) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                tokens.push(Token { tok: Tok::Ident(word), pos });
            }
            c => return error(pos, format!("unexpected character `{c}`")),
        }
        col += (i - start) as u32;
    }
    tokens.push(Token { tok: Tok::Newline, pos: Pos { line, col } });
    tokens.push(Token { tok: Tok::Eof, pos: Pos { line, col } });
    Ok(tokens)
}

/// Lexes a string literal starting at the quote `chars[start]`, written at
/// `pos`. Returns the contents and the index after the closing quote. A
/// string never spans lines, so columns stay easy to count.
fn lex_string(chars: &[char], start: usize, pos: Pos) -> Result<(String, usize), ParseError> {
    let mut out = String::new();
    let mut i = start + 1;
    loop {
        let at = Pos { line: pos.line, col: pos.col + (i - start) as u32 };
        match chars.get(i) {
            None | Some('\n') => return error(pos, "unterminated string"),
            Some('"') => return Ok((out, i + 1)),
            Some('\\') => {
                i += 1;
                match chars.get(i) {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('r') => out.push('\r'),
                    Some('u') if chars.get(i + 1) == Some(&'{') => {
                        let digits_start = i + 2;
                        let mut j = digits_start;
                        while j < chars.len() && chars[j].is_ascii_hexdigit() {
                            j += 1;
                        }
                        let digits: String = chars[digits_start..j].iter().collect();
                        let c = (chars.get(j) == Some(&'}'))
                            .then(|| u32::from_str_radix(&digits, 16).ok())
                            .flatten()
                            .and_then(char::from_u32);
                        match c {
                            Some(c) => out.push(c),
                            None => return error(at, "invalid `\\u{...}` escape"),
                        }
                        i = j;
                    }
                    _ => return error(at, "unknown escape in string"),
                }
                i += 1;
            }
            Some(&c) => {
                out.push(c);
                i += 1;
            }
        }
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 == 1 || !s.is_ascii() {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect()
}

// ---------------------------------------------------------------------------
// Raw (unresolved) structures
// ---------------------------------------------------------------------------

/// A written entity reference: its number and where it was written.
#[derive(Copy, Clone, Debug)]
struct Ref {
    num: u32,
    pos: Pos,
}

/// A source location whose file is still a written number.
#[derive(Copy, Clone, Debug)]
struct RawLoc {
    file: Ref,
    line: u32,
    col: u32,
}

struct RawMemObject {
    obj: MemObject,
    loc: Option<RawLoc>,
}

/// How a value was defined in the text.
enum RawDef {
    Param(u32),
    /// A block parameter: the index of the block in `RawFunction::blocks`.
    BlockParam(usize, u32),
    /// An instruction result: the instruction's number (order of appearance).
    Inst(usize),
    Const(u128),
    Undef,
    Null,
    GlobalAddr(Ref),
    LocalAddr(Ref),
    /// An `orphan` line: the definition is kept exactly as written.
    Orphan(ValueDef),
}

struct RawValue {
    id: Ref,
    ty: Type,
    name: Option<String>,
    def: RawDef,
}

struct RawInst {
    /// The kind with operands (and callee) still holding written numbers.
    kind: InstKind,
    /// Where each operand was written, in the order of `InstKind::operands`.
    operand_pos: Vec<Pos>,
    callee_pos: Pos,
    result: Option<Ref>,
    loc: Option<RawLoc>,
    no_wrap: NoWrap,
    /// `rank` after a builtin (`Function::rank_reads`).
    rank_read: bool,
}

struct RawBlock {
    id: Ref,
    params: Vec<Ref>,
    insts: Vec<usize>,
    /// The terminator with written numbers, and positions of its operands
    /// (in `Terminator::operands` order) and of its targets.
    term: Terminator,
    term_operand_pos: Vec<Pos>,
    target_pos: Vec<Pos>,
    term_loc: Option<RawLoc>,
}

struct RawFunction {
    id: Ref,
    func: Function,
    entry: Ref,
    loc: Option<RawLoc>,
    locals: Vec<(Ref, RawMemObject)>,
    values: Vec<RawValue>,
    insts: Vec<RawInst>,
    blocks: Vec<RawBlock>,
}

struct RawModule {
    language: Language,
    files: Vec<(Ref, String)>,
    globals: Vec<(Ref, RawMemObject)>,
    functions: Vec<RawFunction>,
}

// ---------------------------------------------------------------------------
// Parser (phase one)
// ---------------------------------------------------------------------------

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

/// The keywords that start a terminator line.
const TERMINATORS: [&str; 4] = ["jump", "br", "return", "unreachable"];

impl Parser {
    fn peek(&self) -> &Token {
        // The token list always ends with `Eof`, and `next` never moves past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn here(&self) -> Pos {
        self.peek().pos
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn unexpected<T>(&self, expected: &str) -> Result<T, ParseError> {
        let t = self.peek();
        error(t.pos, format!("expected {expected}, found {}", t.tok.describe()))
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek().tok == Tok::Punct(c)
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<Pos, ParseError> {
        let pos = self.here();
        if self.eat_punct(c) {
            Ok(pos)
        } else {
            self.unexpected(&format!("`{c}`"))
        }
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(w) if w == word)
    }

    fn eat_keyword(&mut self, word: &str) -> bool {
        if self.is_keyword(word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_keyword(&mut self, word: &str) -> Result<(), ParseError> {
        if self.eat_keyword(word) {
            Ok(())
        } else {
            self.unexpected(&format!("`{word}`"))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Pos), ParseError> {
        match &self.peek().tok {
            Tok::Ident(w) => {
                let w = w.clone();
                Ok((w, self.next().pos))
            }
            _ => self.unexpected(what),
        }
    }

    fn string(&mut self, what: &str) -> Result<String, ParseError> {
        match &self.peek().tok {
            Tok::Str(s) => {
                let s = s.clone();
                self.next();
                Ok(s)
            }
            _ => self.unexpected(what),
        }
    }

    fn opt_string(&mut self) -> Option<String> {
        match &self.peek().tok {
            Tok::Str(s) => {
                let s = s.clone();
                self.next();
                Some(s)
            }
            _ => None,
        }
    }

    /// An unsigned integer literal that fits in `u64`.
    fn uint(&mut self, what: &str) -> Result<u64, ParseError> {
        match self.peek().tok {
            Tok::Int { negative: false, magnitude } => match u64::try_from(magnitude) {
                Ok(n) => {
                    self.next();
                    Ok(n)
                }
                Err(_) => error(self.here(), format!("{what} is too large")),
            },
            _ => self.unexpected(what),
        }
    }

    fn u32(&mut self, what: &str) -> Result<u32, ParseError> {
        let pos = self.here();
        let n = self.uint(what)?;
        u32::try_from(n).or_else(|_| error(pos, format!("{what} is too large")))
    }

    /// Requires the end of a line (after skipping nothing), then skips any
    /// blank lines that follow.
    fn end_line(&mut self) -> Result<(), ParseError> {
        match self.peek().tok {
            Tok::Newline => {
                self.skip_newlines();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ => self.unexpected("end of line"),
        }
    }

    fn skip_newlines(&mut self) {
        while self.peek().tok == Tok::Newline {
            self.pos += 1;
        }
    }

    /// A reference such as `v3` or `block1`: the prefix and a number.
    fn entity(&mut self, prefix: &str, what: &str) -> Result<Ref, ParseError> {
        match &self.peek().tok {
            Tok::Ident(w) => match parse_ref(w, prefix) {
                Some(num) => Ok(Ref { num, pos: self.next().pos }),
                None => self.unexpected(what),
            },
            _ => self.unexpected(what),
        }
    }

    fn value(&mut self) -> Result<Ref, ParseError> {
        self.entity(ValueId::PREFIX, "a value (`vN`)")
    }

    fn ty(&mut self) -> Result<Type, ParseError> {
        let (word, pos) = self.ident("a type")?;
        parse_type(&word).ok_or_else(|| ParseError {
            line: pos.line,
            col: pos.col,
            message: format!("unknown type `{word}`"),
        })
    }

    /// An optional `@fileN:LINE:COL` suffix.
    fn opt_loc(&mut self) -> Result<Option<RawLoc>, ParseError> {
        if !self.eat_punct('@') {
            return Ok(None);
        }
        let file = self.entity(FileId::PREFIX, "a file (`fileN`)")?;
        self.expect_punct(':')?;
        let line = self.u32("a line number")?;
        self.expect_punct(':')?;
        let col = self.u32("a column number")?;
        Ok(Some(RawLoc { file, line, col }))
    }

    fn module(&mut self) -> Result<RawModule, ParseError> {
        self.skip_newlines();
        self.expect_keyword("language")?;
        let (word, pos) = self.ident("a language")?;
        let language = match Language::from_name(&word) {
            Some(l) => l,
            None => return error(pos, format!("unknown language `{word}`")),
        };
        self.end_line()?;
        let mut module = RawModule { language, files: vec![], globals: vec![], functions: vec![] };
        loop {
            let tok = self.peek().tok.clone();
            match tok {
                Tok::Eof => return Ok(module),
                Tok::Ident(w) if parse_ref(&w, FileId::PREFIX).is_some() => {
                    let id = self.entity(FileId::PREFIX, "a file")?;
                    self.expect_punct('=')?;
                    let path = self.string("a file name")?;
                    module.files.push((id, path));
                    self.end_line()?;
                }
                Tok::Ident(w) if parse_ref(&w, GlobalId::PREFIX).is_some() => {
                    let id = self.entity(GlobalId::PREFIX, "a global")?;
                    self.expect_punct('=')?;
                    let obj = self.mem_object()?;
                    module.globals.push((id, obj));
                    self.end_line()?;
                }
                Tok::Ident(w) if w == "kernel" || w == "device" => {
                    let f = self.function()?;
                    module.functions.push(f);
                }
                _ => return self.unexpected("a file, global or function definition"),
            }
        }
    }

    /// The part of a memory object definition after `=`.
    fn mem_object(&mut self) -> Result<RawMemObject, ParseError> {
        let (word, pos) = self.ident("a memory space")?;
        let space = match MemSpace::from_name(&word) {
            Some(s) => s,
            None => return error(pos, format!("unknown memory space `{word}`")),
        };
        let name = self.string("the object's name")?;
        let mut obj = MemObject { name, space, size: None, align: 0, elem_size: None, init: None, loc: None };
        let mut align = None;
        loop {
            let pos = self.here();
            let field = match &self.peek().tok {
                Tok::Ident(w) => w.clone(),
                _ => break,
            };
            self.next();
            let duplicate = match field.as_str() {
                "size" => obj.size.replace(self.uint("a size")?).is_some(),
                "align" => align.replace(self.u32("an alignment")?).is_some(),
                "elem_size" => obj.elem_size.replace(self.uint("an element size")?).is_some(),
                "init" => match &self.peek().tok {
                    Tok::Bytes(b) => {
                        let b = b.clone();
                        self.next();
                        obj.init.replace(b).is_some()
                    }
                    _ => return self.unexpected("a byte string `x\"...\"`"),
                },
                _ => return error(pos, format!("unknown memory object field `{field}`")),
            };
            if duplicate {
                return error(pos, format!("field `{field}` given twice"));
            }
        }
        match align {
            Some(a) => obj.align = a,
            None => return self.unexpected("`align`"),
        }
        let loc = self.opt_loc()?;
        Ok(RawMemObject { obj, loc })
    }

    fn function(&mut self) -> Result<RawFunction, ParseError> {
        let (kind, _) = self.ident("`kernel` or `device`")?;
        let id = self.entity(FuncId::PREFIX, "a function (`fnN`)")?;
        let name = self.string("the function's name")?;
        self.expect_keyword("link")?;
        let link_name = self.string("the function's link name")?;
        let mut func = Function::new(name, link_name, kind == "kernel");
        // `Function::new` made an entry block; blocks are rebuilt from the text.
        func.blocks = PrimaryMap::new();
        let mut values = Vec::new();

        self.expect_punct('(')?;
        if !self.is_punct(')') {
            loop {
                let index = func.params.len() as u32;
                let (value, value_name, ty) = self.value_def()?;
                let name = if self.eat_keyword("name") {
                    self.string("a parameter name")?
                } else {
                    value_name.clone().unwrap_or_default()
                };
                let pointee = if self.eat_keyword("pointee") { Some(self.pointee()?) } else { None };
                // The value id is a placeholder until resolution.
                func.params.push(Param { name, ty, value: ValueId::from_u32(value.num), pointee });
                values.push(RawValue { id: value, ty, name: value_name, def: RawDef::Param(index) });
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        self.expect_punct(')')?;
        if self.eat_punct_arrow() {
            func.ret = Some(self.ty()?);
        }
        self.expect_keyword("entry")?;
        let entry = self.entity(BlockId::PREFIX, "a block (`blockN`)")?;
        let loc = self.opt_loc()?;
        self.expect_punct('{')?;
        self.end_line()?;

        let mut raw = RawFunction { id, func, entry, loc, locals: vec![], values, insts: vec![], blocks: vec![] };
        self.function_body(&mut raw)?;
        Ok(raw)
    }

    fn eat_punct_arrow(&mut self) -> bool {
        if self.peek().tok == Tok::Arrow {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `(elem_size N elem_type "T" const restrict)`, items in any order.
    fn pointee(&mut self) -> Result<PointeeInfo, ParseError> {
        self.expect_punct('(')?;
        let mut info = PointeeInfo::default();
        while !self.eat_punct(')') {
            let (word, pos) = self.ident("a pointee field or `)`")?;
            match word.as_str() {
                "elem_size" => info.elem_size = Some(self.uint("an element size")?),
                "elem_type" => info.elem_type = Some(self.string("an element type")?),
                "const" => info.is_const = true,
                "restrict" => info.is_restrict = true,
                _ => return error(pos, format!("unknown pointee field `{word}`")),
            }
        }
        Ok(info)
    }

    /// `vN ["name"]: TYPE`.
    fn value_def(&mut self) -> Result<(Ref, Option<String>, Type), ParseError> {
        let id = self.value()?;
        let name = self.opt_string();
        self.expect_punct(':')?;
        let ty = self.ty()?;
        Ok((id, name, ty))
    }

    /// Lines up to and including the closing `}`.
    fn function_body(&mut self, raw: &mut RawFunction) -> Result<(), ParseError> {
        // The block being filled, if its terminator has not been seen yet.
        let mut open: Option<usize> = None;
        loop {
            let tok = self.peek().tok.clone();
            let word = match tok {
                Tok::Punct('}') => {
                    if let Some(b) = open {
                        return error(self.here(), format!("block{} has no terminator", raw.blocks[b].id.num));
                    }
                    self.next();
                    return self.end_line();
                }
                Tok::Ident(w) => w,
                _ => return self.unexpected("an instruction, block or `}`"),
            };
            if parse_ref(&word, LocalId::PREFIX).is_some() {
                let id = self.entity(LocalId::PREFIX, "a local")?;
                self.expect_punct('=')?;
                let obj = self.mem_object()?;
                raw.locals.push((id, obj));
            } else if parse_ref(&word, BlockId::PREFIX).is_some() {
                if let Some(b) = open {
                    return error(self.here(), format!("block{} has no terminator", raw.blocks[b].id.num));
                }
                open = Some(self.block_header(raw)?);
            } else if TERMINATORS.contains(&word.as_str()) {
                let Some(b) = open.take() else {
                    return error(self.here(), "terminator outside a block");
                };
                self.terminator(&mut raw.blocks[b])?;
            } else if parse_ref(&word, ValueId::PREFIX).is_some() {
                // `vN ... = const ...` (no instruction) or `vN ... = inst`.
                let (id, name, ty) = self.value_def()?;
                self.expect_punct('=')?;
                if let Some(def) = self.constant_def(ty)? {
                    raw.values.push(RawValue { id, ty, name, def });
                } else {
                    let Some(b) = open else {
                        return error(self.here(), "instruction outside a block");
                    };
                    let index = raw.insts.len();
                    raw.values.push(RawValue { id, ty, name, def: RawDef::Inst(index) });
                    let inst = self.inst(Some(id))?;
                    raw.insts.push(inst);
                    raw.blocks[b].insts.push(index);
                }
            } else {
                let Some(b) = open else {
                    return error(self.here(), "instruction outside a block");
                };
                let index = raw.insts.len();
                let inst = self.inst(None)?;
                raw.insts.push(inst);
                raw.blocks[b].insts.push(index);
            }
            self.end_line()?;
        }
    }

    /// `blockN(params):`; returns the block's index in `raw.blocks`.
    fn block_header(&mut self, raw: &mut RawFunction) -> Result<usize, ParseError> {
        let id = self.entity(BlockId::PREFIX, "a block")?;
        let index = raw.blocks.len();
        let mut params = Vec::new();
        if self.eat_punct('(') {
            loop {
                let (value, name, ty) = self.value_def()?;
                raw.values.push(RawValue { id: value, ty, name, def: RawDef::BlockParam(index, params.len() as u32) });
                params.push(value);
                if !self.eat_punct(',') {
                    break;
                }
            }
            self.expect_punct(')')?;
        }
        self.expect_punct(':')?;
        raw.blocks.push(RawBlock {
            id,
            params,
            insts: vec![],
            term: Terminator::Unreachable,
            term_operand_pos: vec![],
            target_pos: vec![],
            term_loc: None,
        });
        Ok(index)
    }

    /// The definitions that are not instructions: `const`, `undef`, `null`,
    /// `global_addr`, `local_addr`, `orphan`. Returns `None` (consuming
    /// nothing) when the line is an instruction instead. Checks that the
    /// written type suits the definition.
    fn constant_def(&mut self, ty: Type) -> Result<Option<RawDef>, ParseError> {
        let (word, pos) = match &self.peek().tok {
            Tok::Ident(w) => (w.clone(), self.here()),
            _ => return Ok(None),
        };
        let needs_ptr = |what: &str| -> Result<(), ParseError> {
            if ty.is_ptr() {
                Ok(())
            } else {
                error(pos, format!("`{what}` needs a pointer type, not {ty}"))
            }
        };
        let def = match word.as_str() {
            "const" => {
                if ty.is_ptr() {
                    return error(pos, format!("`const` needs an integer or float type, not {ty}"));
                }
                self.next();
                let num_pos = self.here();
                let (negative, magnitude) = match self.peek().tok {
                    Tok::Int { negative, magnitude } => (negative, magnitude),
                    _ => return self.unexpected("a constant"),
                };
                self.next();
                RawDef::Const(const_bits(ty, negative, magnitude).ok_or_else(|| ParseError {
                    line: num_pos.line,
                    col: num_pos.col,
                    message: format!("constant {}{magnitude} does not fit in {ty}", if negative { "-" } else { "" }),
                })?)
            }
            "undef" => {
                self.next();
                RawDef::Undef
            }
            "null" => {
                needs_ptr("null")?;
                self.next();
                RawDef::Null
            }
            "global_addr" => {
                needs_ptr("global_addr")?;
                self.next();
                RawDef::GlobalAddr(self.entity(GlobalId::PREFIX, "a global (`globalN`)")?)
            }
            "local_addr" => {
                needs_ptr("local_addr")?;
                self.next();
                RawDef::LocalAddr(self.entity(LocalId::PREFIX, "a local (`localN`)")?)
            }
            "orphan" => {
                self.next();
                RawDef::Orphan(self.orphan()?)
            }
            _ => return Ok(None),
        };
        Ok(Some(def))
    }

    /// `param N`, `blockN param N` or `instN`, kept verbatim.
    fn orphan(&mut self) -> Result<ValueDef, ParseError> {
        if self.eat_keyword("param") {
            return Ok(ValueDef::Param(self.u32("a parameter index")?));
        }
        let (word, pos) = self.ident("`param`, a block or an instruction")?;
        if let Some(b) = parse_ref(&word, BlockId::PREFIX) {
            self.expect_keyword("param")?;
            return Ok(ValueDef::BlockParam(BlockId::from_u32(b), self.u32("a parameter index")?));
        }
        if let Some(i) = parse_ref(&word, InstId::PREFIX) {
            return Ok(ValueDef::Inst(InstId::from_u32(i)));
        }
        error(pos, format!("expected `param`, a block or an instruction, found `{word}`"))
    }

    /// A comma-separated list of values, recording positions.
    fn value_list(&mut self, pos: &mut Vec<Pos>) -> Result<Vec<ValueId>, ParseError> {
        let mut out = Vec::new();
        loop {
            let v = self.value()?;
            pos.push(v.pos);
            out.push(ValueId::from_u32(v.num));
            if !self.eat_punct(',') {
                return Ok(out);
            }
        }
    }

    /// A value list that may be empty: it ends at the end of the line or at
    /// a location suffix.
    fn bare_list(&mut self, pos: &mut Vec<Pos>) -> Result<Vec<ValueId>, ParseError> {
        if matches!(self.peek().tok, Tok::Newline | Tok::Eof | Tok::Punct('@')) {
            Ok(Vec::new())
        } else {
            self.value_list(pos)
        }
    }

    /// `(v1, v2)`, possibly empty.
    fn paren_list(&mut self, pos: &mut Vec<Pos>) -> Result<Vec<ValueId>, ParseError> {
        self.expect_punct('(')?;
        if self.eat_punct(')') {
            return Ok(Vec::new());
        }
        let out = self.value_list(pos)?;
        self.expect_punct(')')?;
        Ok(out)
    }

    /// Exactly `N` comma-separated values.
    fn fixed<const N: usize>(&mut self, pos: &mut Vec<Pos>) -> Result<[ValueId; N], ParseError> {
        let mut out = [ValueId::from_u32(0); N];
        for (i, slot) in out.iter_mut().enumerate() {
            if i > 0 {
                self.expect_punct(',')?;
            }
            let v = self.value()?;
            pos.push(v.pos);
            *slot = ValueId::from_u32(v.num);
        }
        Ok(out)
    }

    fn fence_flags(&mut self) -> FenceFlags {
        // The flags are written in this order when present.
        let shared = self.eat_keyword("shared");
        let global = self.eat_keyword("global");
        FenceFlags { shared, global }
    }

    fn align(&mut self) -> Result<u32, ParseError> {
        self.expect_keyword("align")?;
        self.u32("an alignment")
    }

    /// An instruction after its optional `RES =`, up to the end of the line.
    fn inst(&mut self, result: Option<Ref>) -> Result<RawInst, ParseError> {
        let (word, op_pos) = self.ident("an instruction")?;
        let mut pos = Vec::new();
        let mut callee_pos = Pos::default();
        let mut no_wrap = NoWrap::NONE;
        let mut rank_read = false;
        let kind = if let Some(op) = BinOp::from_name(&word) {
            // The flags are written in this order when present.
            no_wrap.unsigned = self.eat_keyword("nuw");
            no_wrap.signed = self.eat_keyword("nsw");
            if !no_wrap.is_none() && !NoWrap::applies_to(op) {
                return error(op_pos, format!("`{word}` takes no `nuw`/`nsw` flags"));
            }
            let [lhs, rhs] = self.fixed(&mut pos)?;
            InstKind::Binary { op, lhs, rhs }
        } else if let Some(op) = CastOp::from_name(&word) {
            let [arg] = self.fixed(&mut pos)?;
            InstKind::Cast { op, arg }
        } else if let Some(op) = FloatOp::from_name(&word) {
            InstKind::Float { op, args: self.bare_list(&mut pos)? }
        } else {
            match word.as_str() {
                "icmp" => {
                    let cc = self.named(IntCC::from_name, "an integer condition")?;
                    let [lhs, rhs] = self.fixed(&mut pos)?;
                    InstKind::Icmp { cc, lhs, rhs }
                }
                "fcmp" => {
                    let cc = self.named(FloatCC::from_name, "a float condition")?;
                    let [lhs, rhs] = self.fixed(&mut pos)?;
                    InstKind::Fcmp { cc, lhs, rhs }
                }
                "select" => {
                    let [cond, then_value, else_value] = self.fixed(&mut pos)?;
                    InstKind::Select { cond, then_value, else_value }
                }
                "ptradd" => {
                    let [base, offset] = self.fixed(&mut pos)?;
                    InstKind::PtrAdd { base, offset }
                }
                "load" => {
                    let [ptr] = self.fixed(&mut pos)?;
                    InstKind::Load { ptr, align: self.align()? }
                }
                "store" => {
                    let [ptr, value] = self.fixed(&mut pos)?;
                    InstKind::Store { ptr, value, align: self.align()? }
                }
                "atomic" | "atomic.block" => {
                    let scope = if word == "atomic.block" { AtomicScope::Block } else { AtomicScope::Device };
                    let op = self.named(AtomicOp::from_name, "an atomic operator")?;
                    let [ptr, value] = self.fixed(&mut pos)?;
                    InstKind::Atomic { op, ptr, value, scope }
                }
                "cmpxchg" | "cmpxchg.block" => {
                    let scope = if word == "cmpxchg.block" { AtomicScope::Block } else { AtomicScope::Device };
                    let [ptr, expected, new] = self.fixed(&mut pos)?;
                    InstKind::CmpXchg { ptr, expected, new, scope }
                }
                "memcpy" => {
                    let [dst, src, len] = self.fixed(&mut pos)?;
                    InstKind::MemCopy { dst, src, len }
                }
                "memset" => {
                    let [dst, byte, len] = self.fixed(&mut pos)?;
                    InstKind::MemSet { dst, byte, len }
                }
                "barrier" => {
                    let scope = self.named(BarrierScope::from_name, "a barrier scope")?;
                    let fence = self.fence_flags();
                    let mask = if self.eat_keyword("mask") {
                        let [m] = self.fixed(&mut pos)?;
                        Some(m)
                    } else {
                        None
                    };
                    InstKind::Barrier { scope, fence, mask }
                }
                "fence" => InstKind::Fence { fence: self.fence_flags() },
                "builtin" => {
                    let var = self.named(BuiltinVar::from_name, "a builtin variable")?;
                    let dim = match self.peek().tok.clone() {
                        Tok::Ident(w) if matches!(w.as_str(), "x" | "y" | "z") => {
                            self.next();
                            match w.as_str() {
                                "x" => 0,
                                "y" => 1,
                                _ => 2,
                            }
                        }
                        Tok::Int { negative: false, magnitude } if magnitude <= u8::MAX as u128 => {
                            self.next();
                            magnitude as u8
                        }
                        _ => return self.unexpected("a dimension (`x`, `y`, `z`)"),
                    };
                    rank_read = self.eat_keyword("rank");
                    InstKind::Builtin { var, dim }
                }
                "warp" => {
                    let op = self.named(WarpOp::from_name, "a warp operation")?;
                    InstKind::Warp { op, args: self.bare_list(&mut pos)? }
                }
                "collective" => {
                    let op = self.named(CollectiveOp::from_name, "a collective operation (`or`, `and`, `count`)")?;
                    let [arg] = self.fixed(&mut pos)?;
                    InstKind::Collective { op, arg }
                }
                "call" => {
                    let callee = self.entity(FuncId::PREFIX, "a function (`fnN`)")?;
                    callee_pos = callee.pos;
                    let args = self.paren_list(&mut pos)?;
                    InstKind::Call { callee: FuncId::from_u32(callee.num), args }
                }
                "call_external" => {
                    let name = self.string("the external function's name")?;
                    InstKind::CallExternal { name, args: self.paren_list(&mut pos)? }
                }
                "annot" => {
                    let kind = self.named(AnnotKind::from_name, "an annotation kind")?;
                    InstKind::Annot { kind, args: self.paren_list(&mut pos)? }
                }
                "annot_value" => {
                    let func = self.named(AnnotFn::from_name, "an annotation function")?;
                    InstKind::AnnotValue { func, args: self.paren_list(&mut pos)? }
                }
                "havoc" => InstKind::Havoc,
                "invalid_call" => {
                    let [target] = self.fixed(&mut pos)?;
                    InstKind::InvalidCall { target }
                }
                "nop" => InstKind::Nop { what: self.string("a description")? },
                _ => return error(op_pos, format!("unknown instruction `{word}`")),
            }
        };
        let loc = self.opt_loc()?;
        Ok(RawInst { kind, operand_pos: pos, callee_pos, result, loc, no_wrap, rank_read })
    }

    /// A word naming a variant of some operator enum.
    fn named<T>(&mut self, from_name: fn(&str) -> Option<T>, what: &str) -> Result<T, ParseError> {
        let (word, pos) = self.ident(what)?;
        match from_name(&word) {
            Some(x) => Ok(x),
            None => error(pos, format!("expected {what}, found `{word}`")),
        }
    }

    fn block_call(&mut self, block: &mut RawBlock) -> Result<BlockCall, ParseError> {
        let target = self.entity(BlockId::PREFIX, "a block (`blockN`)")?;
        block.target_pos.push(target.pos);
        let args = if self.is_punct('(') { self.paren_list(&mut block.term_operand_pos)? } else { Vec::new() };
        Ok(BlockCall { block: BlockId::from_u32(target.num), args })
    }

    fn terminator(&mut self, block: &mut RawBlock) -> Result<(), ParseError> {
        let (word, _) = self.ident("a terminator")?;
        block.term = match word.as_str() {
            "jump" => Terminator::Jump(self.block_call(block)?),
            "br" => {
                let cond = self.value()?;
                block.term_operand_pos.push(cond.pos);
                self.expect_punct(',')?;
                let then_dest = self.block_call(block)?;
                self.expect_punct(',')?;
                let else_dest = self.block_call(block)?;
                Terminator::Branch { cond: ValueId::from_u32(cond.num), then_dest, else_dest }
            }
            "return" => {
                if matches!(self.peek().tok, Tok::Newline | Tok::Eof | Tok::Punct('@')) {
                    Terminator::Return(None)
                } else {
                    let v = self.value()?;
                    block.term_operand_pos.push(v.pos);
                    Terminator::Return(Some(ValueId::from_u32(v.num)))
                }
            }
            _ => Terminator::Unreachable,
        };
        block.term_loc = self.opt_loc()?;
        Ok(())
    }
}

/// The number in `word` if it is `prefix` followed by decimal digits.
fn parse_ref(word: &str, prefix: &str) -> Option<u32> {
    let digits = word.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Reads a type name: `iN`, `fN` or `ptr.SPACE`.
pub(crate) fn parse_type(word: &str) -> Option<Type> {
    if let Some(space) = word.strip_prefix("ptr.") {
        return MemSpace::from_name(space).map(Type::Ptr);
    }
    let width = |digits: &str| -> Option<u16> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    };
    if let Some(digits) = word.strip_prefix('i') {
        return width(digits).map(Type::Int);
    }
    if let Some(digits) = word.strip_prefix('f') {
        return width(digits).map(Type::Float);
    }
    None
}

/// The bit pattern of a constant of type `ty`, or `None` if it does not fit:
/// non-negative constants must be below `2^bits`, negative ones at least
/// `-2^(bits-1)` (they are stored in two's complement, masked to the width).
fn const_bits(ty: Type, negative: bool, magnitude: u128) -> Option<u128> {
    let bits = ty.bits();
    if bits == 0 {
        return (magnitude == 0).then_some(0);
    }
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    if !negative {
        return (magnitude <= mask).then_some(magnitude);
    }
    let limit = 1u128 << (bits.min(128) - 1);
    (magnitude <= limit).then(|| magnitude.wrapping_neg() & mask)
}

// ---------------------------------------------------------------------------
// Resolution (phase two)
// ---------------------------------------------------------------------------

/// Dense renumbering of one kind of entity: written number -> index.
struct Numbering {
    map: BTreeMap<u32, usize>,
    what: &'static str,
    prefix: &'static str,
}

impl Numbering {
    /// Numbers the definitions `defs` in increasing order of their written
    /// numbers; a number defined twice is an error at its second definition.
    fn new(
        defs: impl IntoIterator<Item = Ref>,
        what: &'static str,
        prefix: &'static str,
    ) -> Result<Numbering, ParseError> {
        let mut map = BTreeMap::new();
        for r in defs {
            if map.insert(r.num, 0).is_some() {
                return error(r.pos, format!("{what} {prefix}{} is defined twice", r.num));
            }
        }
        for (index, slot) in map.values_mut().enumerate() {
            *slot = index;
        }
        Ok(Numbering { map, what, prefix })
    }

    fn get<K: EntityRef>(&self, r: Ref) -> Result<K, ParseError> {
        match self.map.get(&r.num) {
            Some(&i) => Ok(K::new(i)),
            None => error(r.pos, format!("unknown {} {}{}", self.what, self.prefix, r.num)),
        }
    }

    /// Resolves an id that still holds its written number.
    fn remap<K: EntityRef>(&self, raw: K, pos: Pos) -> Result<K, ParseError> {
        self.get(Ref { num: raw.index() as u32, pos })
    }
}

fn resolve_loc(files: &Numbering, loc: Option<RawLoc>) -> Result<Option<SrcLoc>, ParseError> {
    loc.map(|l| Ok(SrcLoc { file: files.get(l.file)?, line: l.line, col: l.col })).transpose()
}

fn resolve_mem_object(files: &Numbering, raw: RawMemObject) -> Result<MemObject, ParseError> {
    Ok(MemObject { loc: resolve_loc(files, raw.loc)?, ..raw.obj })
}

fn resolve_module(raw: RawModule) -> Result<Module, ParseError> {
    let mut module = Module::new(raw.language);
    let files = Numbering::new(raw.files.iter().map(|(r, _)| *r), "file", FileId::PREFIX)?;
    let globals = Numbering::new(raw.globals.iter().map(|(r, _)| *r), "global", GlobalId::PREFIX)?;
    let funcs = Numbering::new(raw.functions.iter().map(|f| f.id), "function", FuncId::PREFIX)?;

    // Entities are pushed in increasing order of their new index.
    let mut file_list = raw.files;
    file_list.sort_by_key(|(r, _)| r.num);
    for (_, path) in file_list {
        module.files.push(path);
    }
    let mut global_list = raw.globals;
    global_list.sort_by_key(|(r, _)| r.num);
    for (_, obj) in global_list {
        module.globals.push(resolve_mem_object(&files, obj)?);
    }
    let mut func_list = raw.functions;
    func_list.sort_by_key(|f| f.id.num);
    for f in func_list {
        let func = resolve_function(f, &files, &globals, &funcs)?;
        module.functions.push(func);
    }
    Ok(module)
}

fn resolve_function(
    raw: RawFunction,
    files: &Numbering,
    globals: &Numbering,
    funcs: &Numbering,
) -> Result<Function, ParseError> {
    let mut func = raw.func;
    let blocks = Numbering::new(raw.blocks.iter().map(|b| b.id), "block", BlockId::PREFIX)?;
    let locals = Numbering::new(raw.locals.iter().map(|(r, _)| *r), "local", LocalId::PREFIX)?;
    let values = Numbering::new(raw.values.iter().map(|v| v.id), "value", ValueId::PREFIX)?;

    func.entry = blocks.get(raw.entry)?;
    func.loc = resolve_loc(files, raw.loc)?;

    let mut local_list = raw.locals;
    local_list.sort_by_key(|(r, _)| r.num);
    for (_, obj) in local_list {
        func.locals.push(resolve_mem_object(files, obj)?);
    }

    for param in &mut func.params {
        param.value = values.remap(param.value, Pos::default())?;
    }

    // Values, in increasing order of their written number.
    let mut value_list: Vec<RawValue> = raw.values;
    value_list.sort_by_key(|v| v.id.num);
    for v in value_list {
        let def = match v.def {
            RawDef::Param(i) => ValueDef::Param(i),
            RawDef::BlockParam(b, i) => ValueDef::BlockParam(blocks.get(raw.blocks[b].id)?, i),
            RawDef::Inst(i) => ValueDef::Inst(InstId::new(i)),
            RawDef::Const(bits) => ValueDef::Const(bits),
            RawDef::Undef => ValueDef::Undef,
            RawDef::Null => ValueDef::Null,
            RawDef::GlobalAddr(g) => ValueDef::GlobalAddr(globals.get(g)?),
            RawDef::LocalAddr(l) => ValueDef::LocalAddr(locals.get(l)?),
            RawDef::Orphan(def) => def,
        };
        func.values.push(ValueData { ty: v.ty, def, name: v.name });
    }

    // Instructions, in order of appearance.
    let mut inst_locs = SecondaryMap::new();
    for (index, inst) in raw.insts.into_iter().enumerate() {
        let id = InstId::new(index);
        let mut kind = inst.kind;
        remap_operands(&mut kind, &inst.operand_pos, &values)?;
        if let InstKind::Call { callee, .. } = &mut kind {
            *callee = funcs.remap(*callee, inst.callee_pos)?;
        }
        let result = inst.result.map(|r| values.get(r)).transpose()?;
        if let Some(loc) = resolve_loc(files, inst.loc)? {
            inst_locs.set(id, Some(loc));
        }
        if !inst.no_wrap.is_none() {
            func.no_wrap.set(id, inst.no_wrap);
        }
        if inst.rank_read {
            func.rank_reads.set(id, true);
        }
        func.insts.push(InstData { kind, result });
    }
    func.inst_locs = inst_locs;

    // Blocks, in increasing order of their written number.
    let mut block_list = raw.blocks;
    block_list.sort_by_key(|b| b.id.num);
    let mut term_locs = SecondaryMap::new();
    for b in block_list {
        let params = b.params.iter().map(|&p| values.get(p)).collect::<Result<Vec<_>, _>>()?;
        let mut term = b.term;
        let mut operand_pos = b.term_operand_pos.iter();
        let mut target_pos = b.target_pos.iter();
        let mut remap_value = |v: &mut ValueId| -> Result<(), ParseError> {
            *v = values.remap(*v, operand_pos.next().copied().unwrap_or_default())?;
            Ok(())
        };
        let mut remap_call = |call: &mut BlockCall,
                              remap_value: &mut dyn FnMut(&mut ValueId) -> Result<(), ParseError>|
         -> Result<(), ParseError> {
            call.block = blocks.remap(call.block, target_pos.next().copied().unwrap_or_default())?;
            call.args.iter_mut().try_for_each(remap_value)
        };
        match &mut term {
            Terminator::Jump(call) => remap_call(call, &mut remap_value)?,
            Terminator::Branch { cond, then_dest, else_dest } => {
                remap_value(cond)?;
                remap_call(then_dest, &mut remap_value)?;
                remap_call(else_dest, &mut remap_value)?;
            }
            Terminator::Return(Some(v)) => remap_value(v)?,
            Terminator::Return(None) | Terminator::Unreachable => {}
        }
        let id = func.blocks.push(Block { params, insts: b.insts.into_iter().map(InstId::new).collect(), term });
        if let Some(loc) = resolve_loc(files, b.term_loc)? {
            term_locs.set(id, Some(loc));
        }
    }
    func.term_locs = term_locs;
    Ok(func)
}

/// Resolves the operands of an instruction, reporting the position of the
/// first unknown one.
fn remap_operands(kind: &mut InstKind, pos: &[Pos], values: &Numbering) -> Result<(), ParseError> {
    let mut failure = None;
    let mut index = 0;
    kind.map_operands(|v| {
        let p = pos.get(index).copied().unwrap_or_default();
        index += 1;
        match values.remap(v, p) {
            Ok(new) => new,
            Err(e) => {
                failure.get_or_insert(e);
                v
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_parse() {
        assert_eq!(parse_type("i1"), Some(Type::BOOL));
        assert_eq!(parse_type("i128"), Some(Type::Int(128)));
        assert_eq!(parse_type("f16"), Some(Type::Float(16)));
        assert_eq!(parse_type("ptr.constant"), Some(Type::Ptr(MemSpace::Constant)));
        for bad in ["i", "f", "i-1", "i99999", "ptr", "ptr.", "ptr.heap", "int", "i3 2", "I32"] {
            assert_eq!(parse_type(bad), None, "{bad}");
        }
    }

    #[test]
    fn constants_fit_their_width() {
        assert_eq!(const_bits(Type::I8, false, 255), Some(255));
        assert_eq!(const_bits(Type::I8, false, 256), None);
        assert_eq!(const_bits(Type::I8, true, 1), Some(0xff));
        assert_eq!(const_bits(Type::I8, true, 128), Some(0x80));
        assert_eq!(const_bits(Type::I8, true, 129), None);
        assert_eq!(const_bits(Type::BOOL, true, 1), Some(1));
        assert_eq!(const_bits(Type::Int(128), false, u128::MAX), Some(u128::MAX));
        assert_eq!(const_bits(Type::Int(128), true, 1), Some(u128::MAX));
        assert_eq!(const_bits(Type::Int(128), true, 1 << 127), Some(1 << 127));
        assert_eq!(const_bits(Type::Int(0), false, 0), Some(0));
    }

    #[test]
    fn lexer_tracks_positions() {
        let toks = lex("a  \"s\\\"t\" x\"0aff\"\n  -12 0x1F ->@").unwrap();
        let summary: Vec<(Tok, u32, u32)> = toks.into_iter().map(|t| (t.tok, t.pos.line, t.pos.col)).collect();
        assert_eq!(
            summary,
            vec![
                (Tok::Ident("a".into()), 1, 1),
                (Tok::Str("s\"t".into()), 1, 4),
                (Tok::Bytes(vec![0x0a, 0xff]), 1, 11),
                (Tok::Newline, 1, 18),
                (Tok::Int { negative: true, magnitude: 12 }, 2, 3),
                (Tok::Int { negative: false, magnitude: 31 }, 2, 7),
                (Tok::Arrow, 2, 12),
                (Tok::Punct('@'), 2, 14),
                (Tok::Newline, 2, 15),
                (Tok::Eof, 2, 15),
            ]
        );
    }
}
