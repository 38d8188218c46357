//! JSON skeletons: a big reply parsed without building its big arrays.
//!
//! A `serde_json::Value` costs 5-10x the bytes of the JSON text it came from, so a 100k-record
//! result held as a tree costs ten times its wire size. Normalizing it only needs the shape: the
//! keys, the scalars, and a sample of each long array. So a long array (more than [`SAMPLE`]
//! elements) is parsed as its first [`SAMPLE`] elements followed by one *sentinel* string that
//! names the array and says how many elements were left out; the byte spans of all its elements
//! are kept, and the envelope's records are then read straight from the text (see
//! [`Elisions::items`]). Anything that needs the whole array can [`Elisions::expand`] it back.
//!
//! Likewise a long `text` member (a content block holding megabytes of JSON) is left in the
//! text as a span and decoded once, when it is read ([`Elisions::text`]): parsing it in place
//! would hold it three times over (the reply, serde's scratch buffer, the string).
//!
//! The sentinel carries a random per-process nonce, so no server can forge one.

use std::borrow::Cow;
use std::hash::{BuildHasher, Hasher};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::json::{Kind, Skim};

/// Elements kept of a long array: enough for every shape heuristic of the normalizer.
pub const SAMPLE: usize = 64;

/// Texts shorter than this are parsed whole: a skeleton would save nothing worth its scan.
pub const MIN_TEXT: usize = 64 << 10;

/// `text` members longer than this (in bytes of JSON) are left in the text.
const LONG_TEXT: usize = 64 << 10;

const PREFIX: &str = "\u{0}mcplens-elided:";

pub(crate) fn nonce() -> u64 {
    static NONCE: OnceLock<u64> = OnceLock::new();
    *NONCE.get_or_init(|| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        h.write_u32(std::process::id());
        h.finish()
    })
}

/// A text that elided arrays point into: a reply as received, or a text block's JSON.
#[derive(Clone, Debug)]
pub enum SharedText {
    Str(Arc<str>),
    String(Arc<String>),
}

impl From<Arc<str>> for SharedText {
    fn from(s: Arc<str>) -> SharedText {
        SharedText::Str(s)
    }
}

impl From<Arc<String>> for SharedText {
    fn from(s: Arc<String>) -> SharedText {
        SharedText::String(s)
    }
}

impl Deref for SharedText {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            SharedText::Str(s) => s,
            SharedText::String(s) => s,
        }
    }
}

/// One long array: its text and the byte span of each element.
#[derive(Clone, Debug)]
pub struct Elided {
    pub text: SharedText,
    pub spans: Arc<Vec<[u32; 2]>>,
}

impl Elided {
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Element `i`'s JSON text, as sent.
    pub fn raw(&self, i: usize) -> Option<&str> {
        let [a, b] = *self.spans.get(i)?;
        self.text.get(a as usize..b as usize)
    }

    /// Element `i`, parsed.
    pub fn value(&self, i: usize) -> Option<Value> {
        crate::json_depth::parse(self.raw(i)?, usize::MAX).ok()
    }
}

/// The scan of a text (whose syntax is checked apart) made before it is read, on another
/// thread: what [`Elisions::parse_scanned`] takes.
pub struct Scanned {
    scan: Result<Scan, String>,
    /// Whether the text may hold a number a parse would rewrite
    /// (`json::exact::may_hold_inexact`), when that was looked at too: a reading in place of a
    /// long `text` member must know it first.
    inexact: Option<bool>,
}

impl Scanned {
    pub fn of(text: &str, max_depth: usize) -> Scanned {
        Scanned { scan: scan(text, max_depth, 0, 0), inexact: None }
    }

    /// This scan, with what `json::exact::may_hold_inexact` said of the same text.
    pub fn with_inexact(self, inexact: bool) -> Scanned {
        Scanned { inexact: Some(inexact), ..self }
    }

    /// The text with the long arrays' tails and the long text members left out (it holds every
    /// member of every object that is not inside them), when the scan left any out.
    pub fn skeleton(&self) -> Option<&str> {
        self.scan.as_ref().ok().filter(|s| !s.arrays.is_empty() || !s.strings.is_empty()).map(|s| s.skeleton.as_str())
    }
}

/// Whether a text's JSON syntax has been checked already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Checked,
    Unchecked,
}

/// The long arrays left out of the skeletons of one reply (and of its text blocks).
#[derive(Clone, Debug, Default)]
pub struct Elisions {
    entries: Vec<Elided>,
    /// Long `text` members: the text and the span of each string literal.
    texts: Vec<(SharedText, [u32; 2])>,
    /// What the parse had to approximate (`1e400`, lone surrogates; see `json::lenient`).
    pub approximated: crate::json::lenient::Approximated,
    /// Whether the text may hold a number a parse would rewrite, when its scan ahead said.
    inexact: Option<bool>,
}

/// A sentinel of this process: its id and what follows (elements left out, or `text`).
fn sentinel_parts(v: &Value) -> Option<(usize, &str)> {
    let s = v.as_str()?.strip_prefix(PREFIX)?;
    let mut parts = s.splitn(3, ':');
    if u64::from_str_radix(parts.next()?, 16).ok()? != nonce() {
        return None;
    }
    Some((parts.next()?.parse().ok()?, parts.next()?))
}

/// The id of a long `text` member left in the text, if `v` is its sentinel.
fn text_sentinel(v: &Value) -> Option<usize> {
    sentinel_parts(v).and_then(|(id, what)| (what == "text").then_some(id))
}

/// The sentinel's `(entry, elements left out)`, if `v` is one of this process's array sentinels.
pub fn sentinel(v: &Value) -> Option<(usize, usize)> {
    sentinel_parts(v).and_then(|(id, rest)| Some((id, rest.parse().ok()?)))
}

/// The real length of an array that may hold sentinels.
pub fn array_len(a: &[Value]) -> usize {
    // Only the last element can be a sentinel, except in arrays the normalizer concatenated.
    a.iter().map(|v| sentinel(v).map_or(1, |(_, rest)| rest)).sum()
}

/// Whether an array of a skeleton holds sentinels.
pub fn has_sentinel(a: &[Value]) -> bool {
    a.iter().any(|v| sentinel(v).is_some())
}

impl Elisions {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether a long `text` member was left in the text (to be decoded when it is read).
    pub fn has_long_text(&self) -> bool {
        !self.texts.is_empty()
    }

    /// Whether the text may hold a number a parse would rewrite, if its scan ahead (on the
    /// thread beside the tap's parse) looked: `json::exact::may_hold_inexact` of it.
    pub fn known_inexact(&self) -> Option<bool> {
        self.inexact
    }

    pub fn get(&self, id: usize) -> Option<&Elided> {
        self.entries.get(id)
    }

    /// Parses `text` (a whole reply, or a text block holding JSON) as a skeleton. Arrays longer
    /// than [`SAMPLE`] are cut to a sample plus a sentinel; their elements' spans are kept here.
    /// `None` when the text is short (parse it whole) or too long for 32-bit spans.
    pub fn parse(&mut self, text: SharedText, max_depth: usize) -> Option<Result<Value, String>> {
        self.parse_with(text, max_depth, Syntax::Unchecked)
    }

    /// As `parse`, for a text whose JSON syntax is known to be valid (the wire tap parses every
    /// message before it keeps it), which saves a pass over it.
    pub fn parse_with(&mut self, text: SharedText, max_depth: usize, syntax: Syntax) -> Option<Result<Value, String>> {
        if text.len() < MIN_TEXT || text.len() >= u32::MAX as usize {
            return None;
        }
        Some(self.parse_any(text, max_depth, syntax))
    }

    /// As `parse_with` for a checked text whose scan was made ahead ([`Scanned::of`] of this
    /// very text under the same depth limit).
    pub fn parse_scanned(
        &mut self,
        text: SharedText,
        max_depth: usize,
        ahead: Scanned,
    ) -> Option<Result<Value, String>> {
        if text.len() < MIN_TEXT || text.len() >= u32::MAX as usize {
            return None;
        }
        // Its sentinels are numbered from zero: only a fresh set of elisions can take it.
        if !self.entries.is_empty() || !self.texts.is_empty() {
            return Some(self.parse_any(text, max_depth, Syntax::Checked));
        }
        self.inexact = ahead.inexact;
        Some(ahead.scan.and_then(|scan| self.take_scan(text, scan, max_depth)))
    }

    fn parse_any(&mut self, text: SharedText, max_depth: usize, syntax: Syntax) -> Result<Value, String> {
        let (first_id, first_text) = (self.entries.len(), self.texts.len());
        let scan = if syntax == Syntax::Unchecked {
            check_and_scan(&text, max_depth, first_id, first_text)?
        } else {
            scan(&text, max_depth, first_id, first_text)?
        };
        self.take_scan(text, scan, max_depth)
    }

    /// The skeleton a scan of `text` made, parsed; the scan's spans kept.
    fn take_scan(&mut self, text: SharedText, scan: Scan, max_depth: usize) -> Result<Value, String> {
        // With nothing left out, the text itself is parsed (no copy of it is made).
        let skeleton = if scan.arrays.is_empty() && scan.strings.is_empty() { &text } else { scan.skeleton.as_str() };
        let (value, seen) = crate::json_depth::parse_noting::<Value>(skeleton, max_depth)?;
        self.approximated.numbers += seen.numbers;
        self.approximated.surrogates += seen.surrogates;
        for spans in scan.arrays {
            self.entries.push(Elided { text: text.clone(), spans: Arc::new(spans) });
        }
        for span in scan.strings {
            self.texts.push((text.clone(), span));
        }
        Ok(value)
    }

    /// The string `v` stands for: a long `text` member decoded from the text, or `v` itself.
    pub fn text<'a>(&self, v: &'a Value) -> Option<Cow<'a, str>> {
        match text_sentinel(v).and_then(|id| self.texts.get(id)) {
            Some((text, [a, b])) => Some(Cow::Owned(unescape(text.get(*a as usize..*b as usize)?)?)),
            None => v.as_str().map(Cow::Borrowed),
        }
    }

    /// The JSON string literal (quotes included) a long `text` member's sentinel stands for.
    pub fn text_literal(&self, v: &Value) -> Option<&str> {
        let (text, [a, b]) = text_sentinel(v).and_then(|id| self.texts.get(id))?;
        text.get(*a as usize..*b as usize)
    }

    /// An entry whose elements are the `key` member of the elements of entry `id` (GraphQL's
    /// `edges[].node`); elements without it are left out. Returns the new entry's sentinel.
    pub fn project(&mut self, id: usize, key: &str) -> Option<Value> {
        let e = self.entries.get(id)?.clone();
        let mut spans = Vec::with_capacity(e.len());
        for (i, [start, _]) in e.spans.iter().enumerate() {
            let Some(raw) = e.raw(i) else { continue };
            if let Some((a, b)) = member_span(raw, key) {
                spans.push([start + a as u32, start + b as u32]);
            }
        }
        let rest = spans.len().saturating_sub(SAMPLE);
        self.entries.push(Elided { text: e.text, spans: Arc::new(spans) });
        Some(Value::String(sentinel_text(self.entries.len() - 1, rest)))
    }

    /// Puts back every element left out anywhere in `v`, so `v` is the whole document again.
    pub fn expand(&self, v: &mut Value) {
        let mut stack: Vec<&mut Value> = vec![v];
        while let Some(cur) = stack.pop() {
            match cur {
                Value::Array(a) => {
                    if has_sentinel(a) {
                        let old = std::mem::take(a);
                        for x in old {
                            match sentinel(&x).and_then(|(id, _)| self.entries.get(id)) {
                                Some(e) => {
                                    a.extend((SAMPLE.min(e.len())..e.len()).map(|i| e.value(i).unwrap_or_default()))
                                }
                                None => a.push(x),
                            }
                        }
                    }
                    stack.extend(a.iter_mut());
                }
                Value::Object(m) => stack.extend(m.values_mut()),
                Value::String(_) => {
                    if let Some(Cow::Owned(s)) = self.text(cur) {
                        *cur = Value::String(s);
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether two skeletons are the same document: left-out elements are compared one pair at
    /// a time, never all parsed at once.
    pub fn same(&self, a: &Value, b: &Value) -> bool {
        let mut stack = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            match (x, y) {
                (Value::Array(p), Value::Array(q)) if !has_sentinel(p) && !has_sentinel(q) => {
                    if p.len() != q.len() {
                        return false;
                    }
                    stack.extend(p.iter().zip(q));
                }
                (Value::Array(p), Value::Array(q)) => {
                    if array_len(p) != array_len(q) {
                        return false;
                    }
                    for pair in self.elements(p).zip(self.elements(q)) {
                        match pair {
                            (Element::Value(x), Element::Value(y)) => stack.push((x, y)),
                            // The same text is the same value (the common case: a text block
                            // repeating structuredContent); else both are parsed and compared.
                            // Other spacing (json.dumps's `", "`) is compared token by token.
                            (Element::Raw(x), Element::Raw(y)) if x == y || crate::json::same::same_tokens(x, y) => {}
                            // Parsed from the text: no sentinels on this side, and nesting on
                            // the other is bounded by the depth limit the text was read under.
                            (x, y) => {
                                if !self.same(&x.value(), &y.value()) {
                                    return false;
                                }
                            }
                        }
                    }
                }
                (Value::Object(p), Value::Object(q)) => {
                    if p.len() != q.len() {
                        return false;
                    }
                    for (k, v) in p {
                        match q.get(k) {
                            Some(w) => stack.push((v, w)),
                            None => return false,
                        }
                    }
                }
                (Value::String(_), Value::String(_)) => {
                    if self.text(x) != self.text(y) {
                        return false;
                    }
                }
                _ if x == y => {}
                _ => return false,
            }
        }
        true
    }
}

/// An element of an array of a skeleton: in the tree, or left out (its text).
enum Element<'a> {
    Value(&'a Value),
    Raw(&'a str),
}

impl Element<'_> {
    fn value(&self) -> Cow<'_, Value> {
        match self {
            Element::Value(v) => Cow::Borrowed(v),
            Element::Raw(t) => Cow::Owned(crate::json_depth::parse(t, usize::MAX).unwrap_or_default()),
        }
    }
}

impl Elisions {
    /// The elements of an array of a skeleton, the left-out ones as their text.
    fn elements<'a>(&'a self, a: &'a [Value]) -> impl Iterator<Item = Element<'a>> + 'a {
        a.iter().flat_map(move |v| -> Box<dyn Iterator<Item = Element<'a>> + 'a> {
            match sentinel(v).and_then(|(id, _)| self.entries.get(id)) {
                Some(e) => {
                    Box::new((SAMPLE.min(e.len())..e.len()).map(move |i| Element::Raw(e.raw(i).unwrap_or("null"))))
                }
                None => Box::new(std::iter::once(Element::Value(v))),
            }
        })
    }
}

fn sentinel_text(id: usize, rest: impl std::fmt::Display) -> String {
    format!("{PREFIX}{:x}:{id}:{rest}", nonce())
}

/// A JSON string literal (quotes included) decoded; a lone surrogate becomes U+FFFD.
pub fn unescape(lit: &str) -> Option<String> {
    let inner = lit.strip_prefix('"')?.strip_suffix('"')?;
    // Decoded, a literal is never longer than itself: each part decodes into its own place.
    let mut out = vec![0u8; inner.len()];
    let two_cores = crate::cores::two();
    let mid =
        if inner.len() >= PARALLEL_DECODE && two_cores { escape_near(inner.as_bytes(), inner.len() / 2) } else { None };
    let w = match mid {
        // A long literal (a text block of megabytes) is decoded in two halves on two threads,
        // the second then moved down to where the first ended.
        Some(mid) => {
            let (first, second) = (inner.get(..mid)?, inner.get(mid..)?);
            let (lo, hi) = out.split_at_mut(mid);
            let (a, b) = std::thread::scope(|s| {
                let second = s.spawn(|| unescape_into(second, hi));
                (unescape_into(first, lo), second.join().ok().flatten())
            });
            let (a, b) = (a?, b?);
            out.copy_within(mid..mid + b, a);
            // The second half was written past where the text now ends: give those pages
            // back (for a buffer this size, a remap, not a copy).
            out.truncate(a + b);
            out.shrink_to_fit();
            a + b
        }
        None => unescape_into(inner, &mut out)?,
    };
    out.truncate(w);
    String::from_utf8(out).ok()
}

/// Literals at least this long are decoded on two threads.
const PARALLEL_DECODE: usize = 1 << 20;

/// The start of an escape at or after `from` where the literal's inside `b` can be cut in two
/// whose halves decode apart: a backslash after an even run of them (so it starts an escape),
/// not `\u` (which may be the second half of a surrogate pair).
fn escape_near(b: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        at += memchr::memchr(b'\\', b.get(at..)?)?;
        let before = b[..at].iter().rev().take_while(|&&c| c == b'\\').count();
        if before % 2 == 0 && b.get(at + 1).is_some_and(|&c| c != b'u' && c != b'\\') {
            return Some(at);
        }
        at += 1;
    }
}

/// Decodes the inside of a JSON string literal into `out` (at least as long as `inner`);
/// returns how many bytes it wrote. The bytes are copied first and decoded where they are:
/// one decoding loop serves both this and a reply decoded in its own buffer.
fn unescape_into(inner: &str, out: &mut [u8]) -> Option<usize> {
    let out = out.get_mut(..inner.len())?;
    out.copy_from_slice(inner.as_bytes());
    in_place::unescape_within(out, 0, 0)
}

/// The escape at `b[i]` (a backslash): the character it stands for and its length.
#[inline]
fn escape_at(b: &[u8], i: usize) -> Option<(char, usize)> {
    Some(match *b.get(i + 1)? {
        b'"' => ('"', 2),
        b'\\' => ('\\', 2),
        b'/' => ('/', 2),
        b'b' => ('\u{8}', 2),
        b'f' => ('\u{c}', 2),
        b'n' => ('\n', 2),
        b'r' => ('\r', 2),
        b't' => ('\t', 2),
        b'u' => unicode_escape(b, i)?,
        _ => return None,
    })
}

/// The byte each two-byte escape stands for, by its second byte; 0 for any other.
pub(crate) const SHORT_ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// How many bytes of `word` (read little-endian: its first byte lowest) come before its first
/// backslash; 8 when it has none. The zero-byte test of `word` xor backslashes marks the first
/// backslash exactly (marks past it may be wrong, and are not looked at).
#[inline]
pub(crate) fn first_backslash(word: u64) -> usize {
    crate::json::swar::first_at(crate::json::swar::first_equal(word, b'\\'))
}

/// Whether the JSON string literal `lit` (quotes included) decodes to exactly the bytes of
/// `parts`, one after the other, decoded on the fly: a megabyte-long text is compared without a
/// decoded copy of it, its runs between escapes a slice at a time.
pub fn literal_equals(lit: &str, parts: &mut dyn Iterator<Item = &[u8]>) -> bool {
    let Some(inner) = lit.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else { return false };
    let mut expected = Expected { parts, current: &[] };
    let b = inner.as_bytes();
    let mut i = 0usize;
    let mut utf8 = [0u8; 4];
    while i < b.len() {
        let run = memchr::memchr(b'\\', &b[i..]).unwrap_or(b.len() - i);
        if !expected.eat(&b[i..i + run]) {
            return false;
        }
        i += run;
        if i >= b.len() {
            break;
        }
        let Some((ch, len)) = escape_at(b, i) else { return false };
        i += len;
        if !expected.eat(ch.encode_utf8(&mut utf8).as_bytes()) {
            return false;
        }
    }
    expected.current.is_empty() && std::iter::from_fn(|| expected.parts.next()).all(<[u8]>::is_empty)
}

/// The bytes a literal is compared with, as the slices they come in.
struct Expected<'a, 'p> {
    parts: &'p mut dyn Iterator<Item = &'a [u8]>,
    current: &'a [u8],
}

impl<'a> Expected<'a, '_> {
    /// Whether the next bytes are `bytes`, consuming them.
    fn eat(&mut self, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            while self.current.is_empty() {
                match self.parts.next() {
                    Some(p) => self.current = p,
                    None => return false,
                }
            }
            let n = bytes.len().min(self.current.len());
            if bytes[..n] != self.current[..n] {
                return false;
            }
            bytes = &bytes[n..];
            self.current = &self.current[n..];
        }
        true
    }
}

/// The character a `\uXXXX` escape at `i` stands for (a surrogate pair takes two), and the
/// escape's length; a lone surrogate is U+FFFD, as `unescape` has it.
fn unicode_escape(inner: &[u8], i: usize) -> Option<(char, usize)> {
    let hex = |at: usize| {
        let h = std::str::from_utf8(inner.get(at..at + 4)?).ok()?;
        u32::from_str_radix(h, 16).ok()
    };
    let hi = hex(i + 2)?;
    if (0xd800..0xdc00).contains(&hi)
        && inner.get(i + 6..i + 8) == Some(b"\\u")
        && let Some(lo) = hex(i + 8).filter(|lo| (0xdc00..0xe000).contains(lo))
    {
        let c = char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)).unwrap_or('\u{fffd}');
        return Some((c, 12));
    }
    Some((char::from_u32(hi).unwrap_or('\u{fffd}'), 6))
}

/// The span of member `key`'s value within one object's JSON text (the last, if repeated, as a
/// parse has it); none if the text is not one JSON object.
pub(crate) fn member_span(raw: &str, key: &str) -> Option<(usize, usize)> {
    let (mut found, mut start, mut wanted) = (None, None, false);
    // The elements were checked with the reply they came in.
    for (n, tok) in Skim::new(raw).enumerate() {
        if n == 0 && tok.kind != Kind::ObjectOpen {
            return None;
        }
        if tok.depth != 1 {
            continue;
        }
        match tok.kind {
            Kind::Key => {
                let lit = tok.text(raw);
                // Most keys have no escape: compared as they are, without decoding.
                wanted = match lit.get(1..lit.len() - 1) {
                    Some(inner) if !inner.contains('\\') => inner == key,
                    _ => unescape(lit).is_some_and(|k| k == key),
                };
            }
            kind if kind.is_open() && wanted => start = Some(tok.start),
            kind if kind.is_close() => {
                if let Some(s) = start.take() {
                    found = Some((s, tok.end));
                }
            }
            _ if wanted => found = Some((tok.start, tok.end)),
            _ => {}
        }
        if tok.kind != Kind::Key {
            wanted = false;
        }
    }
    found
}

pub(crate) struct Scan {
    pub(crate) skeleton: String,
    /// Element spans of each elided array, in the order their sentinels were numbered.
    pub(crate) arrays: Vec<Vec<[u32; 2]>>,
    /// Spans of the long `text` members left out, likewise.
    pub(crate) strings: Vec<[u32; 2]>,
}

enum Frame {
    Object {
        /// The member being read is `text`.
        in_text: bool,
    },
    Array {
        /// Element spans; not kept inside a part that is being skipped.
        spans: Vec<[u32; 2]>,
        count: usize,
        /// Where the current element started.
        open: Option<usize>,
        track: bool,
    },
}

/// A value begins at `at`: the enclosing array notes where.
fn begin(stack: &mut [Frame], at: usize) {
    if let Some(Frame::Array { open, .. }) = stack.last_mut()
        && open.is_none()
    {
        *open = Some(at);
    }
}

/// A value ended at `at`: the enclosing array records its span and counts it.
fn end(stack: &mut [Frame], at: usize) {
    if let Some(Frame::Array { spans, count, open, track }) = stack.last_mut()
        && let Some(start) = open.take()
    {
        if *track {
            spans.push([start as u32, at as u32]);
        }
        *count += 1;
    }
}

/// The syntax check and the scan of an unchecked text; over a megabyte, the check runs on a
/// second thread (each costs about as much as the other). The scan reads any bytes without
/// panicking, so it need not wait: a syntax error wins over whatever it found.
fn check_and_scan(text: &str, max_depth: usize, first_id: usize, first_text: usize) -> Result<Scan, String> {
    let two_cores = crate::cores::two();
    if text.len() < (1 << 20) || !two_cores {
        crate::json_depth::validate(text)?;
        return scan(text, max_depth, first_id, first_text);
    }
    // The scan is the shorter: its thread then checks the rest of a long array ahead of the
    // check, which takes it over when it gets there.
    let meet = crate::json::valid::Meet::default();
    let (checked, scanned) = std::thread::scope(|s| {
        let check = s.spawn(|| crate::json::depth::validate_with(text, Some(&meet)));
        let scanned = scan(text, max_depth, first_id, first_text);
        meet.help(text);
        (check.join().unwrap_or_else(|_| Err("the syntax check failed".into())), scanned)
    });
    checked?;
    scanned
}

/// One pass over `text`'s tokens (iterative, any depth): copies it into a skeleton, leaving out
/// every element past [`SAMPLE`] of any array, and records the spans of the long arrays'
/// elements. The text's syntax must have been checked (`json_depth::validate`, whose message is
/// the one shown), so the scan reads tokens without checking them; on broken text it ends
/// without panic.
pub(crate) fn scan(text: &str, max_depth: usize, first_id: usize, first_text: usize) -> Result<Scan, String> {
    let mut out = String::with_capacity(1 << 12);
    let (mut arrays, mut strings): (Vec<Vec<[u32; 2]>>, Vec<[u32; 2]>) = (vec![], vec![]);
    let (mut copied, mut stack, mut skim) = (0usize, Vec::<Frame>::new(), Skim::new(text));
    // Depth of the array whose tail is being skipped; nothing inside it is tracked.
    let mut skipping: Option<usize> = None;
    while let Some(tok) = skim.next() {
        match tok.kind {
            Kind::Key => {
                if let Some(Frame::Object { in_text }) = stack.last_mut() {
                    *in_text = tok.text(text) == "\"text\"";
                }
                continue;
            }
            Kind::ObjectClose | Kind::ArrayClose => {
                let depth = stack.len();
                if let Some(Frame::Array { spans, count, .. }) = stack.pop()
                    && skipping == Some(depth)
                {
                    push_sentinel(&mut out, true, sentinel_text(first_id + arrays.len(), count - SAMPLE));
                    copied = tok.start;
                    skipping = None;
                    arrays.push(spans);
                }
                end(&mut stack, tok.end);
                continue;
            }
            _ => {}
        }
        // A value begins.
        let depth = stack.len();
        if let Some(Frame::Array { spans, count, track: true, .. }) = stack.last()
            && *count == SAMPLE
            && skipping.is_none()
        {
            // Keep the sample; leave out the rest of this array, up to its `]`.
            let kept = spans.last().map_or(copied, |&[_, e]| e as usize);
            out.push_str(text.get(copied..kept).unwrap_or_default());
            skipping = Some(depth);
        }
        begin(&mut stack, tok.start);
        match tok.kind {
            Kind::ObjectOpen | Kind::ArrayOpen => {
                if skipping == Some(depth) {
                    // An element of a long array's tail: only its extent is kept, and how deep
                    // it nests (the deepest container inside it is at `depth + inner`).
                    let (at, inner) = skim.finish_container();
                    within_depth(depth + inner, max_depth)?;
                    end(&mut stack, at);
                    continue;
                }
                within_depth(depth, max_depth)?;
                stack.push(if tok.kind == Kind::ObjectOpen {
                    Frame::Object { in_text: false }
                } else {
                    Frame::Array { spans: vec![], count: 0, open: None, track: skipping.is_none() }
                });
            }
            kind => {
                if kind == Kind::String
                    && let Some(Frame::Object { in_text: true }) = stack.last()
                    && skipping.is_none()
                    && tok.end - tok.start > LONG_TEXT
                {
                    // A long text member: left in the text, decoded when it is read.
                    out.push_str(text.get(copied..tok.start).unwrap_or_default());
                    push_sentinel(&mut out, false, sentinel_text(first_text + strings.len(), "text"));
                    copied = tok.end;
                    strings.push([tok.start as u32, tok.end as u32]);
                }
                end(&mut stack, tok.end);
            }
        }
    }
    if !arrays.is_empty() || !strings.is_empty() {
        out.push_str(text.get(copied..).unwrap_or_default());
    }
    Ok(Scan { skeleton: out, arrays, strings })
}

/// A sentinel's JSON string into the skeleton (after a comma: the last of an array's sample).
fn push_sentinel(out: &mut String, comma: bool, sentinel: String) {
    if comma {
        out.push(',');
    }
    out.push_str(&serde_json::to_string(&sentinel).unwrap_or_default());
}

/// A container opened at `depth` is within the limit.
fn within_depth(depth: usize, max_depth: usize) -> Result<(), String> {
    if depth >= max_depth {
        return Err(format!("it nests JSON more than {max_depth} levels deep, over the limit (--max-depth)"));
    }
    Ok(())
}

mod decode_windows;
mod in_place;
mod parts;
pub use parts::Part;

#[cfg(test)]
mod tests;
