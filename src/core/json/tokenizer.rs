//! A pull tokenizer for JSON text: each token with its byte span and depth, syntax checked as
//! strictly as serde_json checks it (RFC 8259: no trailing commas, no leading zeros, no control
//! characters in strings, only the four JSON whitespace bytes, one document per text).
//!
//! It never recurses: the open containers are a bit stack on the heap, one bit per level, so a
//! server's 90,000-deep document costs 11 KB and no call stack. Tokens are spans into the text,
//! never copies; strings are unescaped only when asked ([`super::unescape`]).
//!
//! What it accepts is what `serde_json` accepts when it checks syntax without building anything
//! (`IgnoredAny`, as [`super::depth::validate_serde`] does): `\u` escapes need four hex digits but need
//! not pair their surrogates, and a number's magnitude is not checked.

use std::fmt;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    ObjectOpen,
    ObjectClose,
    ArrayOpen,
    ArrayClose,
    /// An object key: a string literal, quotes included (the `:` after it is not a token).
    Key,
    String,
    Number,
    True,
    False,
    Null,
}

impl Kind {
    /// Whether a token of this kind begins a value (an opening or a scalar).
    pub fn starts_value(self) -> bool {
        !matches!(self, Kind::ObjectClose | Kind::ArrayClose | Kind::Key)
    }

    pub fn is_open(self) -> bool {
        matches!(self, Kind::ObjectOpen | Kind::ArrayOpen)
    }

    pub fn is_close(self) -> bool {
        matches!(self, Kind::ObjectClose | Kind::ArrayClose)
    }
}

/// One token: its kind, its bytes `start..end` in the text, and how many containers enclose it
/// (a container's own open and close tokens are outside it: the root `{` is at depth 0, its keys
/// at depth 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    pub depth: usize,
}

impl Token {
    /// The token's text, as sent (a string or key with its quotes and escapes).
    pub fn text<'a>(&self, json: &'a str) -> &'a str {
        json.get(self.start..self.end).unwrap_or_default()
    }
}

/// The first syntax error: where, and what was wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    pub offset: usize,
    pub what: &'static str,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.offset)
    }
}

impl std::error::Error for Error {}

/// What the grammar allows next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Value,
    /// Right after `[`.
    ValueOrClose,
    /// Right after `{`. (After a `,` in an object the key is read at once, with the comma.)
    KeyOrClose,
    CommaOrClose,
    /// The document is complete: only whitespace may follow.
    End,
    /// An error was reported (or the end reached): nothing more.
    Done,
}

/// The open containers, one bit each (set: array).
#[derive(Debug, Default)]
pub(super) struct Stack {
    words: Vec<u64>,
    pub(super) len: usize,
}

impl Stack {
    #[inline]
    pub(super) fn push(&mut self, array: bool) {
        let (w, b) = (self.len / 64, self.len % 64);
        if w == self.words.len() {
            self.words.push(0);
        }
        if array {
            self.words[w] |= 1 << b;
        } else {
            self.words[w] &= !(1 << b);
        }
        self.len += 1;
    }

    /// The innermost container: `Some(true)` for an array.
    #[inline]
    pub(super) fn top(&self) -> Option<bool> {
        let i = self.len.checked_sub(1)?;
        Some(self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    pub(super) fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }
}

/// Tokens of one JSON text, in order; after an error (yielded once) it yields nothing.
#[derive(Debug)]
pub struct Tokenizer<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    expect: Expect,
    stack: Stack,
}

impl<'a> Tokenizer<'a> {
    pub fn new(text: &'a str) -> Self {
        Tokenizer { text, b: text.as_bytes(), i: 0, expect: Expect::Value, stack: Stack::default() }
    }

    /// The current nesting: containers open at this point.
    pub fn depth(&self) -> usize {
        self.stack.len
    }

    /// Where the next token will be looked for.
    pub fn offset(&self) -> usize {
        self.i
    }

    /// Right after an opening token: moves past the container's contents and its close without
    /// checking them, for a reader that needs only its extent and will read its contents checked
    /// later, if at all (the row model's folded containers). The close's end and the number of
    /// direct children; an error if the text ends first.
    pub fn skip_container(&mut self) -> Result<(usize, u32), Error> {
        let (base, array) = (self.i, self.stack.top() == Some(true));
        let mut children = 0u32;
        for tok in super::Skim::inside(self.text.get(base..).unwrap_or_default(), array) {
            if tok.depth == 0 {
                self.i = base + tok.end;
                self.stack.pop();
                self.expect = self.after_value();
                return Ok((self.i, children));
            }
            children += u32::from(tok.depth == 1 && tok.kind.starts_value());
        }
        self.expect = Expect::Done;
        Err(Error { offset: self.b.len(), what: "the text ends inside an object or array" })
    }

    fn fail(&mut self, offset: usize, what: &'static str) -> Option<Result<Token, Error>> {
        self.expect = Expect::Done;
        Some(Err(Error { offset, what }))
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// What may follow a complete value.
    #[inline]
    fn after_value(&self) -> Expect {
        if self.stack.len == 0 { Expect::End } else { Expect::CommaOrClose }
    }

    #[inline]
    fn token(&self, kind: Kind, start: usize, depth: usize) -> Option<Result<Token, Error>> {
        Some(Ok(Token { kind, start, end: self.i, depth }))
    }

    #[inline]
    fn value(&mut self, allow_close: bool) -> Option<Result<Token, Error>> {
        let start = self.i;
        let depth = self.stack.len;
        let Some(&c) = self.b.get(start) else {
            return self.fail(start, "the text ends where a value was expected");
        };
        let kind = match c {
            b'{' | b'[' => {
                self.i += 1;
                self.stack.push(c == b'[');
                self.expect = if c == b'[' { Expect::ValueOrClose } else { Expect::KeyOrClose };
                return self.token(if c == b'[' { Kind::ArrayOpen } else { Kind::ObjectOpen }, start, depth);
            }
            b']' if allow_close => return self.close(c),
            b'"' => match string_end(self.b, start) {
                Ok(end) => {
                    self.i = end;
                    Kind::String
                }
                Err(e) => return self.fail(e.offset, e.what),
            },
            b'-' | b'0'..=b'9' => match number_end(self.b, start) {
                Ok(end) => {
                    self.i = end;
                    Kind::Number
                }
                Err(e) => return self.fail(e.offset, e.what),
            },
            b't' => return self.literal(b"true", Kind::True),
            b'f' => return self.literal(b"false", Kind::False),
            b'n' => return self.literal(b"null", Kind::Null),
            _ => return self.fail(start, "expected a value"),
        };
        self.expect = self.after_value();
        self.token(kind, start, depth)
    }

    fn literal(&mut self, word: &[u8], kind: Kind) -> Option<Result<Token, Error>> {
        let start = self.i;
        for (k, &w) in word.iter().enumerate() {
            match self.b.get(start + k) {
                Some(&c) if c == w => {}
                Some(_) => return self.fail(start + k, "expected a value"),
                None => return self.fail(start + k, "the text ends inside a literal"),
            }
        }
        self.i = start + word.len();
        self.expect = self.after_value();
        self.token(kind, start, self.stack.len)
    }

    #[inline]
    fn close(&mut self, c: u8) -> Option<Result<Token, Error>> {
        let start = self.i;
        let array = c == b']';
        if self.stack.top() != Some(array) {
            return self.fail(start, if array { "`]` closes an object" } else { "`}` closes an array" });
        }
        self.i += 1;
        self.stack.pop();
        self.expect = self.after_value();
        self.token(if array { Kind::ArrayClose } else { Kind::ObjectClose }, start, self.stack.len)
    }

    #[inline]
    fn key(&mut self, allow_close: bool) -> Option<Result<Token, Error>> {
        let start = self.i;
        match self.b.get(start) {
            Some(b'"') => {}
            Some(b'}') if allow_close => return self.close(b'}'),
            Some(_) => return self.fail(start, "expected an object key (a string)"),
            None => return self.fail(start, "the text ends where an object key was expected"),
        }
        let end = match string_end(self.b, start) {
            Ok(end) => end,
            Err(e) => return self.fail(e.offset, e.what),
        };
        self.i = end;
        self.skip_ws();
        match self.b.get(self.i) {
            Some(b':') => self.i += 1,
            Some(_) => return self.fail(self.i, "expected `:` after an object key"),
            None => return self.fail(self.i, "the text ends where `:` was expected"),
        }
        self.expect = Expect::Value;
        Some(Ok(Token { kind: Kind::Key, start, end, depth: self.stack.len }))
    }

    #[inline]
    fn comma_or_close(&mut self) -> Option<Result<Token, Error>> {
        match self.b.get(self.i) {
            Some(b',') => {
                self.i += 1;
                self.skip_ws();
                if self.stack.top() == Some(true) { self.value(false) } else { self.key(false) }
            }
            Some(&c @ (b']' | b'}')) => self.close(c),
            Some(_) => self.fail(self.i, "expected `,` or the end of the object or array"),
            None => self.fail(self.i, "the text ends inside an object or array"),
        }
    }
}

impl Iterator for Tokenizer<'_> {
    type Item = Result<Token, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.expect == Expect::Done {
            return None;
        }
        self.skip_ws();
        match self.expect {
            Expect::Value => self.value(false),
            Expect::ValueOrClose => self.value(true),
            Expect::KeyOrClose => self.key(true),
            Expect::CommaOrClose => self.comma_or_close(),
            Expect::End if self.i >= self.b.len() => {
                self.expect = Expect::Done;
                None
            }
            Expect::End => self.fail(self.i, "trailing characters after the document"),
            Expect::Done => None,
        }
    }
}

impl std::iter::FusedIterator for Tokenizer<'_> {}

/// Checks that `text` is one JSON document; the first error if not.
pub fn check(text: &str) -> Result<(), Error> {
    Tokenizer::new(text).try_for_each(|t| t.map(|_| ()))
}

/// The bytes of `x` that are `"`, `\\` or a control character, as their high bits (eight bytes at
/// once). Only the lowest flag is exact (a borrow can flag the byte above a true one), which is
/// the only one read.
#[inline]
fn specials(x: u64) -> u64 {
    super::swar::first_below(x, 0x20) | quote_or_backslash(x)
}

/// The bytes of `x` that are `"` or `\\`, as high bits; only the lowest is exact.
#[inline]
pub(super) fn quote_or_backslash(x: u64) -> u64 {
    super::swar::first_equal(x, b'"') | super::swar::first_equal(x, b'\\')
}

/// From `i`, eight bytes at a time, to the first byte `flags` marks; stops before the last
/// chunk shorter than eight, which the caller reads byte by byte.
#[inline(always)]
pub(super) fn skip_unflagged(b: &[u8], mut i: usize, flags: impl Fn(u64) -> u64) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let m = flags(u64::from_le_bytes(w));
        if m != 0 {
            return i + super::swar::first_at(m);
        }
        i += 8;
    }
    i
}

/// The end (just past the closing quote) of the string literal whose `"` is at `start`.
#[inline]
pub fn string_end(b: &[u8], start: usize) -> Result<usize, Error> {
    let mut i = start + 1;
    loop {
        // Plain runs eight bytes at a time, up to the first special byte.
        i = skip_unflagged(b, i, specials);
        let Some(&c) = b.get(i) else {
            return Err(Error { offset: i, what: "the text ends inside a string" });
        };
        match c {
            b'"' => return Ok(i + 1),
            b'\\' => i = escape_end(b, i)?,
            0..0x20 => return Err(Error { offset: i, what: "a control character inside a string" }),
            _ => i += 1,
        }
    }
}

/// Past the escape whose `\` is at `i`.
fn escape_end(b: &[u8], i: usize) -> Result<usize, Error> {
    match b.get(i + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
        Some(b'u') => {
            for k in i + 2..i + 6 {
                match b.get(k) {
                    Some(h) if h.is_ascii_hexdigit() => {}
                    Some(_) => return Err(Error { offset: k, what: "a \\u escape needs four hex digits" }),
                    None => return Err(Error { offset: k, what: "the text ends inside a string" }),
                }
            }
            Ok(i + 6)
        }
        Some(_) => Err(Error { offset: i + 1, what: "an invalid escape in a string" }),
        None => Err(Error { offset: i + 1, what: "the text ends inside a string" }),
    }
}

/// Past the digits from `i` on; an error unless there is at least one.
#[inline]
fn digits(b: &[u8], mut i: usize) -> Result<usize, Error> {
    let first = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if i == first {
        return Err(Error { offset: i, what: "a number needs a digit here" });
    }
    Ok(i)
}

/// The end of the number starting at `start` (`-`? int frac? exp?, RFC 8259).
#[inline]
pub fn number_end(b: &[u8], start: usize) -> Result<usize, Error> {
    let mut i = start + usize::from(b.get(start) == Some(&b'-'));
    if b.get(i) == Some(&b'0') {
        i += 1;
        if b.get(i).is_some_and(u8::is_ascii_digit) {
            return Err(Error { offset: i, what: "a number cannot have a leading zero" });
        }
    } else {
        i = digits(b, i)?;
    }
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1)?;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        i = digits(b, i)?;
    }
    Ok(i)
}

#[cfg(test)]
mod tests;
