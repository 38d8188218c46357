//! The same tokens as [`super::Tokenizer`], read without checking the syntax: for text whose
//! syntax serde_json has checked already (a parsed reply, a `RawValue`) or where it does not
//! matter (the depth measured before a parse). On JSON it yields exactly the tokenizer's tokens
//! (the fuzz checks compare them); on any other bytes it yields something and ends, without
//! panicking and with every span on character boundaries.
//!
//! It exists for speed: the checked tokenizer's grammar state costs a branch per token, and its
//! checks of escapes, numbers and literals a branch per byte; the users that read a reply many
//! times over need neither.

use super::tokenizer::{Kind, Stack, Token, quote_or_backslash, skip_unflagged};

mod windows;

#[derive(Debug)]
pub struct Skim<'a> {
    b: &'a [u8],
    i: usize,
    stack: Stack,
    /// The next string is an object key.
    key_next: bool,
    /// The innermost open container is an object (the stack's top, kept at hand).
    in_object: bool,
}

impl<'a> Skim<'a> {
    pub fn new(text: &'a str) -> Self {
        Skim { b: text.as_bytes(), i: 0, stack: Stack::default(), key_next: false, in_object: false }
    }

    /// Tokens of the contents of a container that opened just before `text` (an array if
    /// `array`), through its close, the one token at depth 0.
    pub fn inside(text: &'a str, array: bool) -> Self {
        let mut skim = Skim::new(text);
        skim.stack.push(array);
        skim.key_next = !array;
        skim.in_object = !array;
        skim
    }

    #[inline]
    fn open(&mut self, array: bool, start: usize) -> Token {
        let depth = self.stack.len;
        self.stack.push(array);
        self.key_next = !array;
        self.in_object = !array;
        self.i = start + 1;
        Token { kind: if array { Kind::ArrayOpen } else { Kind::ObjectOpen }, start, end: self.i, depth }
    }

    #[inline]
    fn close(&mut self, array: bool, start: usize) -> Token {
        self.stack.pop();
        // After a complete value, a string is a key if an object encloses it.
        self.in_object = self.stack.top() == Some(false);
        self.key_next = self.in_object;
        self.i = start + 1;
        Token {
            kind: if array { Kind::ArrayClose } else { Kind::ObjectClose },
            start,
            end: self.i,
            depth: self.stack.len,
        }
    }

    #[inline]
    fn scalar(&mut self, kind: Kind, start: usize, end: usize) -> Token {
        let depth = self.stack.len;
        self.i = end;
        self.key_next = kind != Kind::Key && self.in_object;
        Token { kind, start, end, depth }
    }
}

impl Iterator for Skim<'_> {
    type Item = Token;

    #[inline]
    fn next(&mut self) -> Option<Token> {
        loop {
            let start = self.i;
            let &c = self.b.get(start)?;
            let (kind, end) = match c {
                b'{' | b'[' => return Some(self.open(c == b'[', start)),
                b'}' | b']' => return Some(self.close(c == b']', start)),
                b'"' => (if self.key_next { Kind::Key } else { Kind::String }, string_end(self.b, start)),
                b'-' | b'0'..=b'9' => (Kind::Number, number_end(self.b, start)),
                b't' => (Kind::True, word_end(self.b, start, 4)),
                b'f' => (Kind::False, word_end(self.b, start, 5)),
                b'n' => (Kind::Null, word_end(self.b, start, 4)),
                // Whitespace, `,` and `:`, and in broken text anything else, one byte at a time.
                _ => {
                    self.i = start + 1;
                    continue;
                }
            };
            return Some(self.scalar(kind, start, end));
        }
    }
}

impl std::iter::FusedIterator for Skim<'_> {}

impl Skim<'_> {
    /// Takes the bracket at `at` as the close of the innermost open container and reads on after
    /// it: for a caller that walked the container's contents itself (a page's tools, each read
    /// by the walk that reads the tool).
    pub fn close_at(&mut self, at: usize) -> Token {
        self.close(self.b.get(at) == Some(&b']'), at)
    }

    /// Reads on through the close of the container whose open bracket was the last token,
    /// without yielding the tokens inside it: for a part of a text of which only the extent
    /// matters (an element of a long array's tail), a walk of its bytes costs a fraction of one
    /// of its tokens. Returns the end of the container (the close token's) and how deep the
    /// containers inside it nest below it (0 when it holds none). In broken text it may stop at
    /// the text's end.
    pub fn finish_container(&mut self) -> (usize, usize) {
        let mut walk = windows::Walk::new(self.i);
        match walk.until_close(self.b) {
            Some(at) => (self.close(self.b.get(at) == Some(&b']'), at).end, walk.deepest),
            None => {
                self.i = self.b.len();
                (self.b.len(), walk.deepest)
            }
        }
    }

    /// As [`Self::finish_container`], and whether the container may hold a literal that
    /// `json::lenient` reads approximated (see [`may_be_inexact`]): `false` is certain. For a
    /// descriptor listed by the thousand, this decides from each literal's bytes as they are
    /// walked, where reading every number as a float and searching every string cost several
    /// times the walk.
    pub fn finish_container_noting(&mut self) -> (usize, usize, bool) {
        let b = self.b;
        let (mut i, mut open, mut deepest, mut suspect) = (self.i, 1usize, 0usize, false);
        while let Some(&c) = b.get(i) {
            match NOTING[c as usize] {
                QUOTE => {
                    let (end, s) = string_end_noting(b, i);
                    suspect |= s;
                    i = end;
                    continue;
                }
                NUMBER => {
                    let end = number_end(b, i);
                    suspect |= number_may_be_inexact(&b[i..end]);
                    i = end;
                    continue;
                }
                OPEN => {
                    deepest = deepest.max(open);
                    open += 1;
                }
                CLOSE => {
                    open -= 1;
                    if open == 0 {
                        return (self.close(c == b']', i).end, deepest, suspect);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.i = b.len();
        (b.len(), deepest, suspect)
    }
}

/// Whether a literal of `kind` may be one that `json::lenient` reads approximated; `false` is
/// certain. Only a number with an exponent, or of 300 bytes or more, can be beyond a 64-bit
/// float's range (without an exponent, fewer than 309 integer digits stay under its largest
/// value); only a string with a `\uD...` escape can hold a lone surrogate.
pub fn may_be_inexact(kind: Kind, literal: &str) -> bool {
    match kind {
        Kind::Number => number_may_be_inexact(literal.as_bytes()),
        Kind::String | Kind::Key => string_end_noting(literal.as_bytes(), 0).1,
        _ => false,
    }
}

#[inline]
fn number_may_be_inexact(run: &[u8]) -> bool {
    run.len() >= 300 || run.iter().any(|&c| c | 0x20 == b'e')
}

/// As [`string_end`], and whether the string holds a `\u` escape of a surrogate's range
/// (`\uD800`-`\uDFFF`, either case).
#[inline]
fn string_end_noting(b: &[u8], start: usize) -> (usize, bool) {
    let (mut i, mut suspect) = (start + 1, false);
    loop {
        i = skip_unflagged(b, i, quote_or_backslash);
        match b.get(i) {
            Some(b'"') => return (i + 1, suspect),
            Some(b'\\') => {
                suspect |= b.get(i + 1) == Some(&b'u') && b.get(i + 2).is_some_and(|&d| d | 0x20 == b'd');
                i += 2;
            }
            Some(_) => i += 1,
            None => return (b.len(), suspect),
        }
        if i >= b.len() {
            return (b.len(), suspect);
        }
    }
}

const QUOTE: u8 = 1;
const OPEN: u8 = 2;
const CLOSE: u8 = 3;
const NUMBER: u8 = 4;

/// What [`Skim::finish_container_noting`] makes of a byte outside strings: the quotes, the
/// brackets, and the bytes that start a number; anything else is passed.
const NOTING: [u8; 256] = {
    let mut t = OUTSIDE;
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = NUMBER;
        c += 1;
    }
    t[b'-' as usize] = NUMBER;
    t
};

/// The quotes and brackets, for [`NOTING`].
const OUTSIDE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = QUOTE;
    t[b'{' as usize] = OPEN;
    t[b'[' as usize] = OPEN;
    t[b'}' as usize] = CLOSE;
    t[b']' as usize] = CLOSE;
    t
};

/// Just past the closing quote of the string whose `"` is at `start`, or the text's end.
#[inline]
fn string_end(b: &[u8], start: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    let mut i = match windows::string_end(b, start + 1) {
        Ok(end) => return end,
        Err(at) => at,
    };
    #[cfg(not(target_arch = "x86_64"))]
    let mut i = start + 1;
    // Escaped JSON in a string has an escape every few bytes: the quotes and backslashes of a
    // word of eight are taken in turn without leaving it.
    while let Some(word) = b.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        let mut marks = quotes_and_backslashes(u64::from_le_bytes(word));
        let mut next = i + 8;
        while marks != 0 {
            let k = super::swar::first_at(marks);
            if b[i + k] == b'"' {
                return i + k + 1;
            }
            // A backslash: the byte after it is escaped, whatever it is.
            if k == 7 {
                next = i + 9;
                break;
            }
            marks &= !(0x8080u64 << (k * 8));
        }
        i = next;
    }
    loop {
        match b.get(i) {
            Some(b'"') => return i + 1,
            // The escaped byte is ASCII in JSON; in broken text it may start a character: the
            // end is a quote's or the text's, each on a boundary.
            Some(b'\\') => i += 2,
            Some(_) => i += 1,
            None => return b.len(),
        }
    }
}

/// The high bit of each byte of `w` that is `"` or `\`, every one exact: bytes are looked at
/// with their high bit cleared, so that no sum carries into the next byte.
#[inline]
fn quotes_and_backslashes(w: u64) -> u64 {
    super::swar::equal(w, b'"') | super::swar::equal(w, b'\\')
}

/// Past the bytes a number may hold.
#[inline]
fn number_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') = b.get(i) {
        i += 1;
    }
    i
}

/// Past a literal of `len` bytes, or as far as its ASCII letters go in broken text.
#[inline]
fn word_end(b: &[u8], start: usize, len: usize) -> usize {
    let mut i = start + 1;
    while i < start + len && b.get(i).is_some_and(u8::is_ascii_lowercase) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Tokenizer;

    fn same_as_checked(text: &str) {
        let checked: Vec<Token> = Tokenizer::new(text).map(|t| t.expect("test JSON is valid")).collect();
        assert_eq!(Skim::new(text).collect::<Vec<_>>(), checked, "{text}");
    }

    #[test]
    fn yields_the_checked_tokens_on_json() {
        for text in [
            " 1 ",
            r#"{"a": [1, -2.5e+3, true, false, null, "s"], "b\"[": {"c": {}}, "d": []}"#,
            r#"[{"k": "v"}, ["x", {"y": [[]]}], "\u00e9\\", {"": ""}]"#,
            "{\"k\":{\"k\":{\"k\":\"v\"},\"k2\":[\"not a key\",{\"key\":0}]},\"after\":1}",
        ] {
            same_as_checked(text);
        }
        same_as_checked(&format!("{}1{}", "[{\"a\":".repeat(50_000), "}]".repeat(50_000)));
    }

    /// A container finished at once ends where its tokens would have, and the tokens after it
    /// are the same.
    #[test]
    fn finishing_a_container_skips_to_its_close() {
        let text = r#"[{"a": [1, {"b": "]}\"["}], "c": {}}, [[["x"]]], {}, "s", 2]"#;
        let all: Vec<Token> = Skim::new(text).collect();
        for (n, open) in all.iter().enumerate().filter(|(_, t)| t.kind.is_open() && t.depth == 1) {
            let mut skim = Skim::new(text);
            let upto: Vec<Token> = skim.by_ref().take(n + 1).collect();
            assert_eq!(upto.last(), Some(open));
            let (end, deep) = skim.finish_container();
            let close = all.iter().skip(n).find(|t| t.kind.is_close() && t.depth == 1).copied();
            assert_eq!(Some(end), close.map(|t| t.end), "{open:?}");
            let inner = all.iter().skip(n + 1).take_while(|t| t.start < end);
            assert_eq!(deep, inner.filter(|t| t.kind.is_open()).map(|t| t.depth - 1).max().unwrap_or(0), "{open:?}");
            let rest: Vec<Token> = skim.collect();
            assert_eq!(rest, all.iter().filter(|t| t.start >= end).copied().collect::<Vec<_>>());
            // Noting what it holds, it ends in the same place.
            let mut noting = Skim::new(text);
            noting.by_ref().take(n + 1).for_each(drop);
            assert_eq!(noting.finish_container_noting(), (end, deep, false));
            assert_eq!(noting.collect::<Vec<_>>(), rest);
        }
        let mut broken = Skim::new("[[\"a");
        broken.next();
        broken.next();
        assert_eq!(broken.finish_container(), (4, 0));
        assert_eq!(broken.next(), None);
    }

    /// Strings dense with escapes (and broken ones) end where a walk of one byte at a time
    /// ends them, wherever the words of eight fall.
    #[test]
    fn string_ends_agree_with_one_byte_at_a_time() {
        let one_at_a_time = |b: &[u8], mut i: usize| loop {
            i += 1;
            match b.get(i) {
                Some(b'"') => return i + 1,
                Some(b'\\') => i += 1,
                Some(_) => {}
                None => return b.len(),
            }
        };
        let pieces = ["\\\"", "\\\\", "a", "é", "\"", "\\", "]", "#", "\\u00e9", "bcdefghij", "\u{1}"];
        let mut mix = crate::json::fuzzing::Mix::new(0x2545_f491_4f6c_dd1du64);
        for _ in 0..3000 {
            let t = mix.text(&pieces, 40);
            let b = t.as_bytes();
            for start in (0..b.len()).filter(|&i| b[i] == b'"') {
                assert_eq!(string_end(b, start), one_at_a_time(b, start), "{t:?} from {start}");
            }
        }
    }

    /// The walk sixteen bytes at a time ends where the walk of one token at a time ends, and
    /// finds the same depth, wherever the windows fall: long strings, escapes (a backslash at
    /// a window's last byte too), brackets inside strings, broken text.
    #[test]
    fn windowed_walk_agrees_with_the_token_walk() {
        let pieces = [
            "{",
            "}",
            "[",
            "]",
            "\"",
            "\"abcdefghijklmnopqrstu\"",
            "\"[{\"",
            "\"\\\"]\"",
            "\\",
            "\\\\",
            ", ",
            "1",
            "é",
            "\"\\u00e9x\"",
            "                ",
            "\"k\": ",
        ];
        let mut mix = crate::json::fuzzing::Mix::new(0x5851_f42d_4c95_7f2du64);
        for _ in 0..20_000 {
            let t = mix.text(&pieces, 30);
            let b = t.as_bytes();
            for start in (0..b.len()).filter(|&i| matches!(b[i], b'{' | b'[')) {
                let (mut windowed, mut noting) = (Skim::new(&t), Skim::new(&t));
                for s in [&mut windowed, &mut noting] {
                    s.i = start;
                    s.next();
                }
                let (end, deep) = windowed.finish_container();
                let (end2, deep2, _) = noting.finish_container_noting();
                assert_eq!((end, deep), (end2, deep2), "{t:?} from {start}");
                assert_eq!(windowed.collect::<Vec<_>>(), noting.collect::<Vec<_>>(), "{t:?} from {start}");
            }
        }
    }

    #[test]
    fn broken_text_ends_on_boundaries() {
        for text in ["\"é\\", "[\"a\\é", "]]}}", "tru", "{\"a\" \"b\" \"c\"}", "nul\u{1F600}", "-é", "\"\\\u{1F600}\""]
        {
            for t in Skim::new(text) {
                assert!(text.get(t.start..t.end).is_some(), "{t:?} of {text:?}");
            }
        }
    }
}
