//! The quick reading of [`super::literal_holds`]: the literal and the structured side read in
//! step, byte against byte, with no canonical copy of either. The literal's plain bytes are
//! compared with the structured side's a word at a time; the reading stops only where the two
//! may differ yet mean the same: an escape in the literal (`\"` for a quote, `\u00e9` for `é`)
//! and whitespace between tokens on either side (`json.dumps`'s `", "` and `": "`).
//!
//! The answer is one-sided: `true` means the same document; `false` means only that this reading
//! cannot tell (a string escaped one way on one side and another way on the other, or a real
//! difference), and the caller then compares canonical forms.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{escape, hex4, is_word};
use crate::json::swar::{first_at, first_equal};
use crate::skeleton::SHORT_ESCAPES;

/// Whether `inner` (the inside of a JSON string literal, as the reply carries it), decoded, is a
/// JSON document with the same tokens as the JSON text made of `parts` (valid JSON), with the
/// strings of both written alike.
pub(super) fn same<'a>(inner: &[u8], parts: impl Iterator<Item = &'a [u8]>) -> bool {
    let slices: Vec<&[u8]> = parts.collect();
    if inner.len() >= HALVED
        && crate::cores::two()
        && let Some((k, at)) = split_point(inner, &slices)
    {
        // Each half read on a core of its own. A half that does not hold may only mean the
        // split was not where the sides meet (the same record twice in the data): read whole.
        // A half that does not hold stops the other: a structuredContent that wraps the list
        // the text holds (`{"result": [...]}`) meets it at the middle, and only its first half
        // differs, at its first byte.
        let given_up = AtomicBool::new(false);
        let half = |lit: &[u8], slices: &[&[u8]]| {
            let held = read(lit, slices, false, Some(&given_up));
            if !held {
                given_up.store(true, Ordering::Relaxed);
            }
            held
        };
        let (first, second) = std::thread::scope(|scope| {
            let second = scope.spawn(|| half(&inner[at..], &slices[k..]));
            (half(&inner[..at], &slices[..k]), second.join().unwrap_or(false))
        });
        if first && second {
            return true;
        }
    }
    read(inner, &slices, false, None)
}

/// Literals at least this long are read in two halves, one on a second core.
pub(super) const HALVED: usize = 1 << 20;

/// Records at most this long are tried as the place the two halves meet.
const MEETING_RECORD: usize = 64 << 10;

/// The most places of the literal tried as the start of the second half.
const TRIES: usize = 8192;

/// The most bytes of records read in all those tries: a server's records alike but for their
/// last bytes would otherwise have each try read a whole record.
const TRIED_BYTES: usize = 8 << 20;

/// `inner` read in step with `slices`; with `prefix`, the literal may go on after the slices end.
/// Stops, not holding, once `given_up` is set (looked at as each slice is begun).
fn read(inner: &[u8], slices: &[&[u8]], prefix: bool, given_up: Option<&AtomicBool>) -> bool {
    let structured = Structured { slices, next: 0, current: &[] };
    let mut r = InStep { lit: inner, at: 0, structured, in_string: false, last: b' ', prefix, given_up };
    r.read().unwrap_or(false)
}

/// Where the two sides may be split in two halves read apart: the first slice past the middle
/// of the structured side that starts a record after a comma (`k`), and the place in the literal
/// where that record starts (`at`), found near the same share of the literal's length by reading
/// the record there. A wrong guess is caught when the halves are read.
fn split_point(inner: &[u8], slices: &[&[u8]]) -> Option<(usize, usize)> {
    let total: usize = slices.iter().map(|s| s.len()).sum();
    let mut before = 0;
    let mut k = None;
    for (i, pair) in slices.windows(2).enumerate() {
        before += pair[0].len();
        let starts_record = matches!(pair[1].first(), Some(b'{' | b'['));
        if before >= total / 2 && pair[0].ends_with(b",") && starts_record {
            k = Some(i + 1);
            break;
        }
    }
    let k = k?;
    let record = slices[k];
    if record.len() > MEETING_RECORD {
        return None;
    }
    let guess = (before as u128 * inner.len() as u128 / total.max(1) as u128) as usize;
    let (head, tail) = inner.split_at(guess.min(inner.len()));
    let mut later = memchr::memchr_iter(record[0], tail).map(|i| guess + i);
    let mut earlier = memchr::memrchr_iter(record[0], head);
    let meets = |at: usize| at > 0 && read(&inner[at..], &[record], true, None);
    let tries = TRIES.min(TRIED_BYTES / record.len().max(1)).max(2);
    (0..tries / 2)
        .find_map(|_| {
            let a = later.next().filter(|&at| meets(at));
            a.or_else(|| earlier.next().filter(|&at| meets(at)))
        })
        .map(|at| (k, at))
}

/// The structured side: its slices, one after the other.
struct Structured<'s, 'a> {
    slices: &'s [&'a [u8]],
    /// The slice after the current one.
    next: usize,
    current: &'a [u8],
}

impl<'a> Structured<'_, 'a> {
    /// The bytes not yet read of the current slice (the next non-empty one once it is used up);
    /// empty at the end.
    fn rest(&mut self) -> &'a [u8] {
        while self.current.is_empty() {
            let Some(&p) = self.slices.get(self.next) else { return &[] };
            self.current = p;
            self.next += 1;
        }
        self.current
    }

    fn advance(&mut self, n: usize) {
        self.current = self.current.get(n..).unwrap_or_default();
    }

    /// Copies the next bytes (across slices) into `head` without reading them; how many.
    fn peek(&mut self, head: &mut [u8]) -> usize {
        let mut n = 0;
        let later = self.slices.get(self.next..).unwrap_or_default();
        for p in std::iter::once(&self.current).chain(later) {
            let m = p.len().min(head.len() - n);
            head[n..n + m].copy_from_slice(&p[..m]);
            n += m;
            if n == head.len() {
                break;
            }
        }
        n
    }

    /// Reads `n` bytes, across slices.
    fn skip(&mut self, mut n: usize) {
        while n > 0 {
            let k = self.rest().len().min(n);
            if k == 0 {
                return;
            }
            self.advance(k);
            n -= k;
        }
    }

    /// Whether the side goes on with `bytes` (across slices), which are then read.
    fn eat(&mut self, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            let rest = self.rest();
            let n = rest.len().min(bytes.len());
            if n == 0 || rest[..n] != bytes[..n] {
                return false;
            }
            self.advance(n);
            bytes = &bytes[n..];
        }
        true
    }
}

/// The two sides read in step: `lit` up to `at`, and the structured side up to its current
/// slice; whether both are inside a string, and the last byte read on both.
struct InStep<'l, 's, 'a> {
    lit: &'l [u8],
    at: usize,
    structured: Structured<'s, 'a>,
    in_string: bool,
    last: u8,
    /// The literal may go on after the structured side ends (a record tried in it).
    prefix: bool,
    /// Set when the reading's answer is no longer wanted.
    given_up: Option<&'s AtomicBool>,
}

/// The literal's next character, decoded: a plain byte (of UTF-8, maybe of a longer character)
/// or an escape's character.
#[derive(Clone, Copy)]
enum Next {
    Plain(u8),
    Escaped(char),
}

/// A character inside a string, read: the quote that ends it, or a character of it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum InString {
    End,
    Char(char),
}

impl InStep<'_, '_, '_> {
    /// `Some(true)` once both sides are read to their ends alike; `None` where this reading
    /// cannot tell.
    fn read(&mut self) -> Option<bool> {
        let mut slice = 0;
        loop {
            let s = self.structured.rest();
            if self.structured.next != slice {
                slice = self.structured.next;
                if self.given_up.is_some_and(|g| g.load(Ordering::Relaxed)) {
                    return None;
                }
            }
            let before = self.at;
            let used = self.run(s)?;
            if used > 0 || self.at != before {
                self.structured.advance(used);
                continue;
            }
            if !self.step()? {
                return Some(true);
            }
        }
    }

    /// Reads on in the structured side's slice `s` through the bytes alike on both sides and the
    /// two places a serializer's spacing stops the reading at most: a quote (escaped in the
    /// literal; at a character's start it is the decoded text's own quote, never one of its
    /// escapes), and spaces between tokens. How many bytes of `s` it read; None where the
    /// reading cannot tell (spaces between two bytes of words). Its state in locals, so that the
    /// few bytes between two such places cost a few instructions.
    fn run(&mut self, s: &[u8]) -> Option<usize> {
        let lit = self.lit;
        let (mut at, mut j, mut in_string, mut last) = (self.at, 0, self.in_string, self.last);
        loop {
            let n = plain_alike(lit.get(at..).unwrap_or_default(), s.get(j..).unwrap_or_default());
            if n > 0 {
                (at, j) = (at + n, j + n);
                last = s[j - 1];
            }
            match (lit.get(at), lit.get(at + 1), s.get(j)) {
                (Some(b'\\'), Some(b'"'), Some(b'"')) => {
                    (in_string, at, j, last) = (!in_string, at + 2, j + 1, b'"');
                }
                (Some(b' '), ..) if !in_string => {
                    at += lit[at..].iter().take_while(|&&b| b == b' ').count();
                    if is_word(last) && lit.get(at).is_some_and(|&b| is_word(b)) {
                        return None;
                    }
                }
                _ => break,
            }
        }
        (self.at, self.in_string, self.last) = (at, in_string, last);
        Some(j)
    }

    /// Reads past one place where the sides differ in bytes, if they may still mean the same:
    /// `Some(false)` at the end of both.
    fn step(&mut self) -> Option<bool> {
        if self.in_string {
            return self.string_step().map(|()| true);
        }
        let next = self.next_char();
        if next.is_none() && self.at < self.lit.len() {
            return None; // a broken escape
        }
        let s = self.structured.rest().first().copied();
        if next.is_some_and(|(c, _)| is_space(c)) {
            return self.skip_literal_space().then_some(true);
        }
        if s.is_some_and(is_space_byte) {
            return self.skip_structured_space().then_some(true);
        }
        if s.is_none() && (next.is_none() || self.prefix) {
            return Some(false);
        }
        match (next?, s) {
            ((Next::Escaped('"'), len), Some(b'"')) => {
                self.at += len;
                self.structured.advance(1);
                self.in_string = true;
            }
            // A token's character written as an escape (`\u0031`): the structured side has it plain.
            ((Next::Escaped(ch), len), Some(_)) => {
                let mut utf8 = [0u8; 4];
                let bytes = ch.encode_utf8(&mut utf8).as_bytes();
                if !self.structured.eat(bytes) {
                    return None;
                }
                self.at += len;
                self.last = bytes[bytes.len() - 1];
            }
            _ => return None,
        }
        Some(true)
    }

    /// One character of a string on each side, decoded: the same character (written raw on one
    /// side and escaped on the other, or escaped two ways), or the string's end on both.
    fn string_step(&mut self) -> Option<()> {
        match (self.decoded_char()?, self.structured_char()?) {
            (InString::End, InString::End) => {
                self.in_string = false;
                self.last = b'"';
            }
            (InString::Char(a), InString::Char(b)) if a == b => {}
            _ => return None,
        }
        Some(())
    }

    /// The decoded text's next character inside a string, read: a quote ends the string, a
    /// backslash starts one of its escapes.
    fn decoded_char(&mut self) -> Option<InString> {
        let (c, len) = self.next_char()?;
        let start = self.at;
        self.at += len;
        match c {
            Next::Escaped('"') => Some(InString::End),
            Next::Escaped('\\') => self.decoded_escape().map(InString::Char),
            // A control character raw in a string is no JSON.
            Next::Escaped(ch) => (ch >= ' ').then_some(InString::Char(ch)),
            Next::Plain(b) if b < 0x80 => Some(InString::Char(char::from(b))),
            Next::Plain(b) => {
                let end = start + utf8_len(b);
                self.at = end;
                let ch = std::str::from_utf8(self.lit.get(start..end)?).ok()?.chars().next()?;
                Some(InString::Char(ch))
            }
        }
    }

    /// An escape of the decoded text, its backslash read: the character it stands for.
    fn decoded_escape(&mut self) -> Option<char> {
        let letter = match self.next_char()? {
            (Next::Plain(b), len) => {
                self.at += len;
                b
            }
            (Next::Escaped(ch), len) if ch == '"' || ch == '\\' => {
                self.at += len;
                ch as u8
            }
            _ => return None,
        };
        if letter != b'u' {
            return Some(char::from(SHORT_ESCAPES[usize::from(letter)])).filter(|&c| c != '\0');
        }
        let hi = self.decoded_hex()?;
        if !(0xd800..0xdc00).contains(&hi) {
            return char::from_u32(hi);
        }
        // The low half of a pair: a second escape of the decoded text, `\\u` in the literal.
        let low_start = self.lit.get(self.at..self.at + 3)?;
        if low_start != b"\\\\u" {
            return None;
        }
        self.at += 3;
        let lo = self.decoded_hex().filter(|lo| (0xdc00..0xe000).contains(lo))?;
        char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))
    }

    /// Four hex digits of the decoded text, plain in the literal.
    fn decoded_hex(&mut self) -> Option<u32> {
        let u = hex4(self.lit.get(self.at..self.at + 4)?)?;
        self.at += 4;
        Some(u)
    }

    /// The structured side's next character inside a string, read.
    fn structured_char(&mut self) -> Option<InString> {
        let mut head = [0u8; 12];
        let n = self.structured.peek(&mut head);
        let head = &head[..n];
        let (c, len) = match *head.first()? {
            b'"' => (InString::End, 1),
            b'\\' => escape(head).map(|(c, len)| (InString::Char(c), len))?,
            b => {
                let len = utf8_len(b);
                let ch = std::str::from_utf8(head.get(..len)?).ok()?.chars().next()?;
                (InString::Char(ch), len)
            }
        };
        self.structured.skip(len);
        Some(c)
    }

    /// Whitespace of the decoded text between tokens: skipped, unless it parts two bytes of words
    /// (`tr ue`, `1 2`), which the structured side, being valid JSON, cannot have.
    fn skip_literal_space(&mut self) -> bool {
        while let Some((_, len)) = self.next_char().filter(|&(c, _)| is_space(c)) {
            self.at += len;
        }
        let after = self.next_char().map(|(c, _)| c);
        !(is_word(self.last) && after.is_some_and(|c| matches!(c, Next::Plain(b) if is_word(b))))
    }

    /// The same for whitespace of the structured side.
    fn skip_structured_space(&mut self) -> bool {
        while self.structured.rest().first().is_some_and(|&b| is_space_byte(b)) {
            self.structured.advance(1);
        }
        let after = self.structured.rest().first().copied();
        !(is_word(self.last) && after.is_some_and(is_word))
    }

    fn next_char(&self) -> Option<(Next, usize)> {
        let rest = self.lit.get(self.at..)?;
        match *rest.first()? {
            b'\\' => escape(rest).map(|(c, len)| (Next::Escaped(c), len)),
            b => Some((Next::Plain(b), 1)),
        }
    }
}

/// How many bytes `lit` and `s` start with alike, none a backslash of the literal (an escape,
/// read apart), sixteen at a time on x86-64, eight elsewhere and for the last bytes.
fn plain_alike(lit: &[u8], s: &[u8]) -> usize {
    let n = lit.len().min(s.len());
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    while let (Some(a), Some(b)) = (window_at(lit, i), window_at(s, i)) {
        let stops = crate::json::window::unalike(a, b);
        if stops != 0 {
            return i + stops.trailing_zeros() as usize;
        }
        i += crate::json::window::WINDOW;
    }
    while i + 8 <= n {
        let (Ok(a), Ok(b)) = (<[u8; 8]>::try_from(&lit[i..i + 8]), <[u8; 8]>::try_from(&s[i..i + 8])) else { break };
        let a = u64::from_le_bytes(a);
        let differ = a ^ u64::from_le_bytes(b);
        let stop =
            first_at(first_equal(a, b'\\')).min(if differ == 0 { 8 } else { differ.trailing_zeros() as usize / 8 });
        i += stop;
        if stop < 8 {
            return i;
        }
    }
    while i < n && lit[i] == s[i] && lit[i] != b'\\' {
        i += 1;
    }
    i
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn window_at(b: &[u8], i: usize) -> Option<&[u8; crate::json::window::WINDOW]> {
    b.get(i..i + crate::json::window::WINDOW)?.try_into().ok()
}

/// JSON's whitespace, as a character of the decoded text.
fn is_space(c: Next) -> bool {
    match c {
        Next::Plain(b) => is_space_byte(b),
        Next::Escaped(ch) => ch.is_ascii() && is_space_byte(ch as u8),
    }
}

fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The length of the UTF-8 character whose first byte is `b` (1 for a byte that starts none, so
/// that the decoding that follows refuses it).
fn utf8_len(b: u8) -> usize {
    match b {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}
