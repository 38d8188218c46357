//! Whether a text block repeats structuredContent, told without decoding the text or parsing it:
//! the JSON string literal of the text (as it sits in the reply) is decoded on the fly and read
//! as JSON tokens, and compared with the tokens of the structured side (given as the slices of
//! compact JSON it is made of). A 13 MB text that repeats its records with Python's `", "`
//! spacing then costs one walk of each side: no decoded copy, no syntax check, no skeleton.
//!
//! Both sides are brought to one canonical form as they are read: whitespace between tokens
//! dropped, every string written with only `"`, `\` and control characters escaped (one way).
//! Equal canonical forms are the same document as serde_json reads it, and since the
//! structured side is valid JSON, a text with the same canonical form is valid JSON too:
//! whitespace inside a number or a literal (`tr ue`) is kept as a space, which no valid JSON's
//! canonical form holds, and a raw control character in a string stays raw, where valid JSON
//! has it escaped. The answer is one-sided: `false` also means "cannot tell cheaply" (a lone
//! surrogate, members in another order), and the caller compares parsed documents then.

/// Canonical bytes produced per side before the two are compared (bounds the buffers).
const CHUNK: usize = 64 << 10;

/// Whether the JSON string literal `lit` (quotes included), decoded, is a JSON document with the
/// same tokens as the JSON text made of the slices `parts` gives (each time it is called the
/// same), which must be valid JSON.
pub fn literal_holds<'a, I: Iterator<Item = &'a [u8]>>(lit: &str, parts: impl Fn() -> I) -> bool {
    let Some(inner) = lit.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else { return false };
    if opens_differ(inner.as_bytes(), parts()) {
        return false;
    }
    // Read in step first: with the strings written alike on both sides (the common case: the
    // same serializer's strings, only the spacing apart) that is the whole answer.
    if in_step::same(inner.as_bytes(), parts()) {
        return true;
    }
    let mut a = LiteralSide { inner: inner.as_bytes(), at: 0, canon: Canon::default(), decoded: Vec::new() };
    let mut parts = parts();
    let mut b = PartsSide { parts: &mut parts, current: &[], canon: Canon::default() };
    let two_cores = crate::cores::two();
    if inner.len() < PIPELINED || !two_cores {
        return same_canon(&mut a, &mut b);
    }
    // A long text: its side is read on a second thread, a few chunks ahead of the comparison
    // (each side costs about as much as the other).
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel(4);
        s.spawn(move || a.send_all(&tx));
        // The receiver is dropped before the scope ends: a sender still at work then stops.
        same_canon(&mut Received { rx, done: false, at_rest: false }, &mut b)
    })
}

/// Whether the two documents open differently (an array against an object, as FastMCP's
/// `{"result": [...]}` against the list's text): then they are not the same, told before either
/// reading begins (each costs a walk of the slices at least).
fn opens_differ<'a>(inner: &[u8], parts: impl Iterator<Item = &'a [u8]>) -> bool {
    let mut i = 0;
    // Whitespace before the document, plain or escaped.
    while let Some(len) = match (inner.get(i), inner.get(i + 1)) {
        (Some(b' '), _) => Some(1),
        (Some(b'\\'), Some(b'n' | b't' | b'r')) => Some(2),
        _ => None,
    } {
        i += len;
    }
    let text = match (inner.get(i), inner.get(i + 1)) {
        (Some(&c @ (b'[' | b'{')), _) => c,
        (Some(b'\\'), Some(b'"')) => b'"',
        _ => return false,
    };
    let structured = parts.flat_map(|p| p.iter()).find(|b| !b.is_ascii_whitespace());
    structured.is_some_and(|&c| matches!(c, b'[' | b'{' | b'"') && c != text)
}

/// Literals at least this long are read on a thread of their own.
const PIPELINED: usize = 1 << 20;

/// One side of the comparison: JSON text brought to its canonical form a chunk at a time.
trait Side {
    /// Adds at least [`CHUNK`] canonical bytes to `out`, or all that are left; `Some(true)` when
    /// the text is used up, `None` when it cannot be compared (a lone surrogate).
    fn fill(&mut self, out: &mut Vec<u8>) -> Option<bool>;
    /// Not inside a string or an escape: the text may end here.
    fn at_rest(&self) -> bool;
}

/// Whether both sides read to the same canonical bytes, compared as they come.
fn same_canon(a: &mut impl Side, b: &mut impl Side) -> bool {
    let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
    loop {
        let (Some(a_done), Some(b_done)) = (a.fill(&mut out_a), b.fill(&mut out_b)) else { return false };
        let n = out_a.len().min(out_b.len());
        if out_a[..n] != out_b[..n] {
            return false;
        }
        out_a.drain(..n);
        out_b.drain(..n);
        if a_done && b_done {
            return out_a.is_empty() && out_b.is_empty() && a.at_rest() && b.at_rest();
        }
        if (a_done && out_a.is_empty() && !out_b.is_empty()) || (b_done && out_b.is_empty() && !out_a.is_empty()) {
            return false;
        }
    }
}

/// A chunk of a side read on another thread: its canonical bytes, whether the text is used up,
/// and whether it may end there; `None` when it cannot be compared.
type Chunk = Option<(Vec<u8>, bool, bool)>;

/// A side read on another thread, its chunks as they arrive.
struct Received {
    rx: std::sync::mpsc::Receiver<Chunk>,
    done: bool,
    at_rest: bool,
}

impl Side for Received {
    fn fill(&mut self, out: &mut Vec<u8>) -> Option<bool> {
        // As the other sides: only up to [`CHUNK`] bytes waiting. A chunk taken whatever was
        // left over let the bytes not yet compared pile up (megabytes, on a long text whose
        // chunks come out longer than the structured side's).
        while out.len() < CHUNK && !self.done {
            let (chunk, done, at_rest) = self.rx.recv().ok().flatten()?;
            out.extend_from_slice(&chunk);
            (self.done, self.at_rest) = (done, at_rest);
        }
        Some(self.done)
    }

    fn at_rest(&self) -> bool {
        self.at_rest
    }
}

/// The text side: the literal's escapes decoded, the result read by a [`Canon`].
struct LiteralSide<'a> {
    inner: &'a [u8],
    at: usize,
    canon: Canon,
    /// The literal decoded, a block at a time: the canonical reader then takes long slices,
    /// not the few bytes between two escapes.
    decoded: Vec<u8>,
}

impl LiteralSide<'_> {
    /// Reads the whole literal, each chunk sent as it is made, until the receiver hangs up.
    fn send_all(mut self, tx: &std::sync::mpsc::SyncSender<Chunk>) {
        loop {
            let mut out = Vec::with_capacity(CHUNK + 64);
            let chunk = self.fill(&mut out).map(|done| (out, done, self.canon.at_rest()));
            let last = !matches!(chunk, Some((_, false, _)));
            if tx.send(chunk).is_err() || last {
                return;
            }
        }
    }
}

impl Side for LiteralSide<'_> {
    fn at_rest(&self) -> bool {
        self.canon.at_rest()
    }

    fn fill(&mut self, out: &mut Vec<u8>) -> Option<bool> {
        while out.len() < CHUNK {
            let rest = self.inner.get(self.at..).unwrap_or_default();
            if rest.is_empty() {
                return Some(true);
            }
            self.decoded.clear();
            self.at += decode_block(rest, &mut self.decoded)?;
            self.canon.feed(&self.decoded, out)?;
        }
        Some(false)
    }
}

/// Decodes the escapes of the start of `s` (a string literal's inside) into `into`, about
/// [`CHUNK`] bytes of it, never stopping inside an escape; how many bytes of `s` were read. None
/// at a lone surrogate or a broken escape.
fn decode_block(s: &[u8], into: &mut Vec<u8>) -> Option<usize> {
    use crate::skeleton::{SHORT_ESCAPES, first_backslash};
    let mut i = 0;
    let mut utf8 = [0u8; 4];
    into.reserve(CHUNK + 8);
    while i < s.len() && into.len() < CHUNK {
        // Eight bytes at a time: escaped JSON has an escape every few bytes, so the word is
        // written whole and cut back to the plain bytes before its first backslash.
        if let Some(word) = s.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
            let plain = first_backslash(u64::from_le_bytes(word));
            let len = into.len();
            into.extend_from_slice(&word);
            into.truncate(len + plain);
            i += plain;
            if plain == 8 {
                continue;
            }
        } else if s[i] != b'\\' {
            into.push(s[i]);
            i += 1;
            continue;
        }
        // An escape: the two-byte ones by a table look-up.
        let short = SHORT_ESCAPES[usize::from(*s.get(i + 1)?)];
        if short != 0 {
            into.push(short);
            i += 2;
            continue;
        }
        let (c, len) = escape(&s[i..])?;
        into.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        i += len;
    }
    Some(i)
}

/// The structured side: its slices, read by a [`Canon`].
struct PartsSide<'a, 'p> {
    parts: &'p mut dyn Iterator<Item = &'a [u8]>,
    current: &'a [u8],
    canon: Canon,
}

impl Side for PartsSide<'_, '_> {
    fn at_rest(&self) -> bool {
        self.canon.at_rest()
    }

    fn fill(&mut self, out: &mut Vec<u8>) -> Option<bool> {
        while out.len() < CHUNK {
            if self.current.is_empty() {
                match self.parts.next() {
                    Some(p) => self.current = p,
                    None => return Some(true),
                }
                continue;
            }
            let n = self.current.len().min(CHUNK);
            self.canon.feed(&self.current[..n], out)?;
            self.current = &self.current[n..];
        }
        Some(false)
    }
}

/// The escape at the start of `s` (a backslash): the character and the escape's length. A
/// surrogate pair is one character; a lone surrogate or a broken escape is `None`.
fn escape(s: &[u8]) -> Option<(char, usize)> {
    let c = match *s.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hi = hex4(s.get(2..6)?)?;
            if !(0xd800..0xe000).contains(&hi) {
                return Some((char::from_u32(hi)?, 6));
            }
            let lo = (hi < 0xdc00 && s.get(6..8) == Some(b"\\u")).then(|| hex4(s.get(8..12)?)).flatten()?;
            if !(0xdc00..0xe000).contains(&lo) {
                return None;
            }
            return Some((char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))?, 12));
        }
        _ => return None,
    };
    Some((c, 2))
}

fn hex4(h: &[u8]) -> Option<u32> {
    h.iter().try_fold(0u32, |acc, &b| Some(acc * 16 + (b as char).to_digit(16)?))
}

/// Where a [`Canon`] is in its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Between,
    InString,
    /// After a backslash in a string.
    Escape,
    /// In a `\u` escape: the hex digits read so far and their value.
    Hex(u8, u32),
}

/// Reads JSON text a slice at a time and writes its canonical form (see the module's comment).
#[derive(Debug, Default)]
struct Canon {
    state: State,
    /// The last byte written between strings belongs to a number or a literal.
    word: bool,
    /// Whitespace was skipped since the last byte written.
    space: bool,
    /// A high surrogate escape that waits for its low half.
    high: Option<u32>,
}

impl Canon {
    /// Not inside a string or an escape: the text may end here.
    fn at_rest(&self) -> bool {
        self.state == State::Between
    }

    fn feed(&mut self, mut bytes: &[u8], out: &mut Vec<u8>) -> Option<()> {
        while let Some((&c, rest)) = bytes.split_first() {
            if self.state == State::InString && self.high.is_none() {
                // The common case: a run of plain string bytes, copied at once.
                let run = string_run(bytes);
                out.extend_from_slice(&bytes[..run]);
                bytes = &bytes[run..];
                let Some((&c, rest)) = bytes.split_first() else { break };
                self.string_byte(c, out)?;
                bytes = rest;
                continue;
            }
            if self.state == State::Between && c > b' ' && c != b'"' {
                // A run of tokens without whitespace or strings (`, `, `1}`), copied at once:
                // only its first byte can follow skipped whitespace.
                let run = token_run(bytes);
                if self.word && self.space && is_word(c) {
                    out.push(b' ');
                }
                out.extend_from_slice(&bytes[..run]);
                (self.word, self.space) = (is_word(bytes[run - 1]), false);
                bytes = &bytes[run..];
                continue;
            }
            match self.state {
                State::Between => self.between(c, out),
                State::InString => self.string_byte(c, out)?,
                State::Escape => self.escaped(c, out)?,
                State::Hex(n, acc) => {
                    let acc = acc * 16 + (c as char).to_digit(16)?;
                    self.state = State::Hex(n + 1, acc);
                    if n == 3 {
                        self.state = State::InString;
                        self.code_point(acc, out)?;
                    }
                }
            }
            bytes = rest;
        }
        Some(())
    }

    fn between(&mut self, c: u8, out: &mut Vec<u8>) {
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => self.space = true,
            _ => {
                let word = is_word(c);
                if word && self.word && self.space {
                    out.push(b' ');
                }
                out.push(c);
                (self.word, self.space) = (word, false);
                if c == b'"' {
                    self.state = State::InString;
                }
            }
        }
    }

    fn string_byte(&mut self, c: u8, out: &mut Vec<u8>) -> Option<()> {
        if self.high.is_some() && c != b'\\' {
            return None;
        }
        match c {
            b'\\' => self.state = State::Escape,
            b'"' => {
                out.push(b'"');
                self.state = State::Between;
            }
            _ => out.push(c),
        }
        Some(())
    }

    fn escaped(&mut self, c: u8, out: &mut Vec<u8>) -> Option<()> {
        if c == b'u' {
            self.state = State::Hex(0, 0);
            return Some(());
        }
        if self.high.is_some() {
            return None;
        }
        let ch = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            _ => return None,
        };
        self.state = State::InString;
        write_char(ch, out);
        Some(())
    }

    /// A `\u` escape's value: a character, or half of a surrogate pair.
    fn code_point(&mut self, u: u32, out: &mut Vec<u8>) -> Option<()> {
        let ch = match (self.high.take(), u) {
            (None, 0xd800..=0xdbff) => {
                self.high = Some(u);
                return Some(());
            }
            (Some(hi), 0xdc00..=0xdfff) => char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (u - 0xdc00))?,
            (None, _) => char::from_u32(u)?,
            (Some(_), _) => return None,
        };
        write_char(ch, out);
        Some(())
    }
}

/// How many bytes `b` starts with before a quote or a backslash, eight at a time: the plain
/// bytes of a string.
fn string_run(b: &[u8]) -> usize {
    use super::tokenizer::{quote_or_backslash, skip_unflagged};
    let i = skip_unflagged(b, 0, quote_or_backslash);
    i + b[i..].iter().position(|&c| c == b'"' || c == b'\\').unwrap_or(b.len() - i)
}

/// How many bytes `b` starts with before a quote, whitespace or a control character, eight at
/// a time: a run of tokens between strings.
fn token_run(b: &[u8]) -> usize {
    use super::swar::{first_below, first_equal};
    let i = super::tokenizer::skip_unflagged(b, 0, |w| first_below(w, b' ' + 1) | first_equal(w, b'"'));
    i + b[i..].iter().position(|&c| c <= b' ' || c == b'"').unwrap_or(b.len() - i)
}

/// A byte of a number or of `true`, `false`, `null`.
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.')
}

/// A character of a string, written canonically: `"`, `\` and control characters escaped.
fn write_char(ch: char, out: &mut Vec<u8>) {
    match ch {
        '"' => out.extend_from_slice(b"\\\""),
        '\\' => out.extend_from_slice(b"\\\\"),
        c if (c as u32) < 0x20 => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
        c => out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
    }
}

mod in_step;

#[cfg(test)]
mod tests;
