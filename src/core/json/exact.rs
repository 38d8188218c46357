//! Numbers exactly as a server wrote them, for `call --json`.
//!
//! A `serde_json::Value` holds a number as an f64, i64 or u64 (the `arbitrary_precision` feature
//! would keep the text, but rmcp's untagged enums break with it), so `123456789012345678901234567890`,
//! `-0`, `1.10` or `1e400` come out rewritten. The envelope stays built of such values, and
//! everything that reads it (the TUI, the pager, history) reads the approximation. Only the JSON
//! writer gets the digits back: the reply is read a second time inside [`reading_exact`], where
//! each number literal that would not be written back as sent becomes a *stand-in* string
//! (`"\u0000mcplens-number-<nonce>:<literal>"`), and normalized again into a *guide* envelope.
//! The writer then walks the envelope and the guide side by side ([`Guided`]): where the envelope
//! has a number and the guide, at the same place, a stand-in whose literal reads as that very
//! number, the literal is written; anything else is written from the envelope. So a stand-in is
//! never written, and a literal only ever replaces its own approximation.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

#[cfg(target_arch = "x86_64")]
use super::window::WINDOW;
use super::{Kind, Tokenizer};

thread_local! {
    static EXACT: Cell<bool> = const { Cell::new(false) };
    static STAND_INS: Cell<usize> = const { Cell::new(0) };
}

/// Runs `f` with every parse through `json_depth` on this thread turning inexact number literals
/// into stand-ins; returns what `f` returned and how many stand-ins were made.
pub fn reading_exact<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let was = EXACT.with(|e| e.replace(true));
    let before = STAND_INS.with(Cell::get);
    let r = f();
    EXACT.with(|e| e.set(was));
    let made = STAND_INS.with(Cell::get) - before;
    (r, made)
}

/// Whether parses on this thread make stand-ins (inside [`reading_exact`]).
pub(crate) fn active() -> bool {
    EXACT.with(Cell::get)
}

fn prefix() -> String {
    format!("\u{0}mcplens-number-{:016x}:", crate::skeleton::nonce())
}

/// Whether serde_json writes the number it reads from `literal` back as `literal`.
pub fn is_exact(literal: &str) -> bool {
    let b = literal.as_bytes();
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    // The common case, without a parse: a short integer (but `-0`, read as a float).
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) && literal != "-0" {
        return true;
    }
    serde_json::from_str::<serde_json::Number>(literal).is_ok_and(|n| n.to_string() == literal)
}

/// `text` with each inexact number literal as a stand-in string; None when it holds none (or is
/// not JSON: the parse that follows says why).
pub(crate) fn rewrite(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    let mut prefix_json = None;
    for tok in Tokenizer::new(text) {
        let tok = tok.ok()?;
        if tok.kind != Kind::Number || is_exact(tok.text(text)) {
            continue;
        }
        let p = prefix_json.get_or_insert_with(|| prefix().replace('\u{0}', "\\u0000"));
        out.push_str(&text[copied..tok.start]);
        out.push('"');
        out.push_str(p);
        out.push_str(tok.text(text));
        out.push('"');
        copied = tok.end;
        STAND_INS.with(|n| n.set(n.get() + 1));
    }
    prefix_json?;
    out.push_str(&text[copied..]);
    Some(out)
}

/// Whether a reply's text may hold a number literal that [`rewrite`] would make a stand-in,
/// in the reply itself or in any JSON its strings hold once unescaped (a text block's JSON, and
/// JSON within that). `false` is certain, so the reading with stand-ins can be skipped: one pass
/// over the bytes instead of a second parse and normalization of the whole reply.
///
/// A number token of any of those texts is a run of number bytes between delimiters; written
/// inside a string, its delimiters may be escapes (`\n`) or the string's quotes. Every such
/// run is checked with [`is_exact`]; a `\u00XX` escape of an ASCII byte (which could write a
/// digit or a delimiter) answers `true`, as does anything else this scan cannot read.
pub fn may_hold_inexact(text: &str) -> bool {
    may_hold_inexact_in(text, 0, text.len())
}

/// As [`may_hold_inexact`], a long text scanned on two threads when there are two cores: for a
/// caller with nothing else to do meanwhile.
pub fn may_hold_inexact_on_two(text: &str) -> bool {
    if text.len() < (1 << 20) || !crate::cores::two() {
        return may_hold_inexact(text);
    }
    scan_beside(text, || (), || ()).2
}

/// `here()` on this thread and `there()` on a second one, each thread then scanning pieces of
/// the long `text` for inexact numbers until none is left ([`ScanShares`]). Returns what each
/// returned (None when `there` panicked) and what [`may_hold_inexact`] says of `text` (a scan
/// that failed says "maybe").
pub fn scan_beside<A, B: Send>(
    text: &str,
    here: impl FnOnce() -> A,
    there: impl FnOnce() -> B + Send,
) -> (A, Option<B>, bool) {
    let shares = ScanShares::new(text);
    std::thread::scope(|s| {
        let other = s.spawn(|| {
            let b = there();
            shares.take_part();
            b
        });
        let a = here();
        shares.take_part();
        let b = other.join().ok();
        let inexact = b.is_none() || shares.answer();
        (a, b, inexact)
    })
}

/// The scan of [`may_hold_inexact`] over a long text, cut into pieces that threads take in
/// turn once they are free: two threads whose own work ends at different times share it
/// without one waiting for the other (after the tap's parse and the skeleton scan, which take
/// unequal times, each thread scans pieces until none is left).
struct ScanShares<'a> {
    text: &'a str,
    next: AtomicUsize,
    found: AtomicBool,
}

/// The bytes of one piece: large enough that taking one costs nothing, small enough that the
/// two threads end within a millisecond of each other.
const PIECE: usize = 1 << 20;

impl<'a> ScanShares<'a> {
    pub fn new(text: &'a str) -> Self {
        ScanShares { text, next: AtomicUsize::new(0), found: AtomicBool::new(false) }
    }

    /// Scans pieces not yet taken until none is left, or one held an inexact number.
    fn take_part(&self) {
        let len = self.text.len();
        while !self.found.load(Ordering::Relaxed) {
            let from = self.next.fetch_add(1, Ordering::Relaxed).saturating_mul(PIECE);
            if from >= len {
                return;
            }
            // Pieces meet: their scans say what one scan of the whole says.
            if may_hold_inexact_in(self.text, from, from.saturating_add(PIECE).min(len)) {
                self.found.store(true, Ordering::Relaxed);
            }
        }
    }

    /// What [`may_hold_inexact`] says of the text; only once every `take_part` has returned.
    fn answer(&self) -> bool {
        self.found.load(Ordering::Relaxed)
    }
}

/// The scan of [`may_hold_inexact`] over the tokens starting in `from..to`, looking at the
/// bytes around them in the whole `text`. Scans of two ranges that meet say what one scan of
/// both says: a run of number bytes that crosses their border is read whole by the first; the
/// second, starting inside it, sees a token that cannot start there (after a number byte).
///
/// Only a run of number bytes that could be an inexact literal is looked at: one with a `.`,
/// `e` or `E` after a digit, sixteen digits or more, or a `0` after a `-` (an exact literal has
/// none of these: it is an integer of at most fifteen digits, not `-0`). Words of eight bytes
/// without such a byte, or a backslash before `u`, are passed at once: most digits of a reply
/// are ids, counts and the digits of its strings.
fn may_hold_inexact_in(text: &str, from: usize, to: usize) -> bool {
    let b = text.as_bytes();
    let to = to.min(b.len());
    let mut i = from;
    // Sixteen bytes at a time where the processor compares them at once (see `json::window`),
    // then a word of eight at a time: the same marks, looked at the same way.
    #[cfg(target_arch = "x86_64")]
    while let Some(window) = b.get(i..i + WINDOW).filter(|_| i < to).and_then(|c| <&[u8; WINDOW]>::try_from(c).ok()) {
        let before = i.checked_sub(1).map_or(b' ', |p| b[p]);
        let mut marks = super::window::number_marks(window, before);
        let mut next = i + WINDOW;
        while marks != 0 {
            let p = i + marks.trailing_zeros() as usize;
            let after = match look_at(text, from, to, p) {
                Look::Inexact => return true,
                Look::Past => return false,
                Look::From(after) => after,
            };
            if after >= i + WINDOW {
                next = after;
                break;
            }
            marks &= !0u32 << (after - i);
        }
        i = next;
    }
    while let Some(word) = b.get(i..i + 8).filter(|_| i < to).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        let before = i.checked_sub(1).map_or(b' ', |p| b[p]);
        let mut marks = suspect_marks(u64::from_le_bytes(word), before);
        let mut next = i + 8;
        while marks != 0 {
            let p = i + super::swar::first_at(marks);
            let after = match look_at(text, from, to, p) {
                Look::Inexact => return true,
                Look::Past => return false,
                Look::From(after) => after,
            };
            if after >= i + 8 {
                next = after;
                break;
            }
            marks &= !0u64 << ((after - i) * 8);
        }
        i = next;
    }
    // A run that goes on past the last word looked at may hold what makes it inexact there.
    if i > from && b.get(i).is_some_and(|&c| is_number_byte(c)) && is_number_byte(b[i - 1]) {
        match look_at(text, from, to, i) {
            Look::Inexact => return true,
            Look::Past => return false,
            Look::From(after) => i = after,
        }
    }
    // The last bytes, one at a time.
    while i < to {
        i = if matches!(b[i], b'0'..=b'9' | b'-' | b'\\') {
            match past_mark(text, i) {
                Some(after) => after,
                None => return true,
            }
        } else {
            i + 1
        };
    }
    false
}

/// What a look at a suspect byte found.
enum Look {
    /// An inexact literal may be there.
    Inexact,
    /// No token starts in the range from here on.
    Past,
    /// The scan goes on from here.
    From(usize),
}

/// A look at `p`, a byte [`suspect_marks`] marked, for the scan of the tokens starting in
/// `from..to`: a backslash, or a byte of a run of number bytes, looked at from the run's start.
#[inline(always)]
fn look_at(text: &str, from: usize, to: usize, p: usize) -> Look {
    let b = text.as_bytes();
    let start = if b[p] == b'\\' { p } else { run_start(b, from, p) };
    if start >= to {
        return Look::Past;
    }
    if start < from {
        // A run that started before the range is the range before's to read; none starts in it.
        let end = b.get(p..to).and_then(|r| r.iter().position(|&d| !is_number_byte(d))).map(|n| p + n);
        return end.map_or(Look::Past, Look::From);
    }
    match past_mark(text, start) {
        None => Look::Inexact,
        Some(after) => Look::From(after.max(p + 1)),
    }
}

/// Where the run of number bytes holding `p` starts, looking back no further than the range's
/// start: `from - 1` when the run goes on before it.
#[inline(always)]
fn run_start(b: &[u8], from: usize, p: usize) -> usize {
    let mut s = p;
    while s > from && is_number_byte(b[s - 1]) {
        s -= 1;
    }
    if s == from && s > 0 && is_number_byte(b[s - 1]) { s - 1 } else { s }
}

/// The bytes of `w` where an inexact literal may be, as high bits: a `.`, `e` or `E` after a
/// digit, a `0` after a `-`, every byte of a word of digits (a run of sixteen holds one
/// whatever its place), and a backslash before `u` (see [`past_mark`]). `before` is the byte
/// before the word. Bytes are looked at with their high bit cleared, so that no sum carries into
/// the next byte.
#[inline(always)]
fn suspect_marks(w: u64, before: u8) -> u64 {
    use super::swar::{HIGH, equal, low_at_least};
    let digit = low_at_least(w, b'0') & !low_at_least(w, b'9' + 1) & !w & HIGH;
    // One in the last byte is marked, its next byte unseen here.
    let backslash = equal(w, b'\\') & ((equal(w, b'u') >> 8) | (0x80 << 56));
    // A literal's `.` or `e` is followed by a digit: a word without one holds no suspect byte.
    if digit == 0 && backslash == 0 {
        return 0;
    }
    let after_digit = (digit << 8) | if before.is_ascii_digit() { 0x80 } else { 0 };
    let after_minus = (equal(w, b'-') << 8) | if before == b'-' { 0x80 } else { 0 };
    let point_or_e = equal(w, b'.') | equal(w | (0x20 * super::swar::ONES), b'e');
    let all_digits = if digit == HIGH { HIGH } else { 0 };
    (point_or_e & after_digit) | (equal(w, b'0') & after_minus) | all_digits | backslash
}

/// The scan of [`may_hold_inexact`] at `p`, a digit, `-` or backslash: where it goes on, or
/// None when a number [`rewrite`] would make a stand-in may be there.
// Inlined: a call for each mark cost a fifth of the scan.
#[inline(always)]
fn past_mark(text: &str, p: usize) -> Option<usize> {
    let b = text.as_bytes();
    if b[p] == b'\\' {
        // `\u0030` writes a digit, `\u002c` a delimiter, in the JSON the string holds.
        let writes_ascii =
            b.get(p + 1..p + 4) == Some(b"u00") && b.get(p + 4).is_some_and(|d| (b'0'..=b'7').contains(d));
        return (!writes_ascii).then_some(p + 1);
    }
    // A run of number bytes: no token can start inside it (its bytes are no delimiters), so it
    // is looked at once, as a whole.
    let end = p + b[p..].iter().position(|&d| !is_number_byte(d)).unwrap_or(b.len() - p);
    if token_may_start(b, p) && token_may_end(b, end) && !short_integer(&b[p..end]) {
        let run = text.get(p..end).unwrap_or_default();
        if is_number_literal(run) && !is_exact(run) {
            return None;
        }
    }
    Some(end)
}

/// A run that [`is_exact`] takes as exact without a parse: an integer of at most 15 digits
/// (but `-0`). The common number, told apart without a look at the grammar.
fn short_integer(run: &[u8]) -> bool {
    let digits = run.strip_prefix(b"-").unwrap_or(run);
    !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) && run != b"-0"
}

/// Whether `s` is one JSON number literal: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number_literal(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    let digits = |i: usize| b.get(i..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
    let int = digits(0);
    if int == 0 || (int > 1 && b[0] == b'0') {
        return false;
    }
    let mut i = int;
    if b.get(i) == Some(&b'.') {
        let frac = digits(i + 1);
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

/// Whether a number token of some nested JSON text could begin at `i`: after a delimiter, raw
/// or escaped (`\n`, `\t`, `\r`), or a string's quote.
fn token_may_start(b: &[u8], i: usize) -> bool {
    match i.checked_sub(1).map(|p| (b[p], p)) {
        None => true,
        Some((b' ' | b'\t' | b'\n' | b'\r' | b'[' | b',' | b':' | b'"', _)) => true,
        Some((b'n' | b't' | b'r', p)) => p > 0 && b[p - 1] == b'\\',
        Some(_) => false,
    }
}

/// Whether a number token of some nested JSON text could end at `end`.
fn token_may_end(b: &[u8], end: usize) -> bool {
    b.get(end).is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b'"' | b'\\'))
}

/// The literal a stand-in string holds.
fn literal_of(s: &str) -> Option<&str> {
    s.strip_prefix(prefix().as_str()).filter(|l| !l.is_empty() && l.bytes().all(is_number_byte))
}

fn is_number_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
}

/// The literal `guide` (a stand-in) holds for the number `n`, if it reads as `n`: how a value
/// read from a guide envelope (the pager's next position) is tied to its approximation.
pub fn literal_for<'a>(n: &serde_json::Number, guide: &'a Value) -> Option<&'a str> {
    guide.as_str().and_then(literal_of).filter(|l| reads_as(l, n))
}

/// Whether `literal` reads as `n` (a number beyond range as the largest float of its sign, as
/// `json::lenient` reads it).
fn reads_as(literal: &str, n: &serde_json::Number) -> bool {
    let Ok(mut v) = literal.parse::<f64>() else { return false };
    if v.is_infinite() {
        v = f64::MAX.copysign(v);
    }
    n.as_f64().is_some_and(|x| x == v)
}

/// `value` serialized as serde_json does, but each number for which `guide` holds the stand-in
/// of its literal written as that literal.
pub struct Guided<'a> {
    pub value: &'a Value,
    pub guide: Option<&'a Value>,
}

impl Serialize for Guided<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::deep::grow(|| match (self.value, self.guide) {
            (Value::Number(n), Some(Value::String(g))) => match literal_of(g).filter(|l| reads_as(l, n)) {
                Some(l) => match serde_json::value::RawValue::from_string(l.to_owned()) {
                    Ok(raw) => raw.serialize(s),
                    Err(_) => n.serialize(s),
                },
                None => n.serialize(s),
            },
            (Value::Array(a), g) => {
                let g = g.and_then(Value::as_array);
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for (i, v) in a.iter().enumerate() {
                    seq.serialize_element(&Guided { value: v, guide: g.and_then(|g| g.get(i)) })?;
                }
                seq.end()
            }
            (Value::Object(m), g) => {
                let g = g.and_then(Value::as_object);
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, &Guided { value: v, guide: g.and_then(|g| g.get(k)) })?;
                }
                map.end()
            }
            (v, _) => v.serialize(s),
        })
    }
}

#[cfg(test)]
mod tests {
    /// The scan passes words of eight and looks only at the bytes that may make a literal
    /// inexact: over every range, it says what a scan of one byte at a time says, on texts dense
    /// with digits, escapes, exact and inexact numbers and runs that are no numbers, every word
    /// border falling everywhere.
    #[test]
    fn a_word_at_a_time_says_what_one_byte_at_a_time_says() {
        let one_at_a_time = |t: &str, from: usize, to: usize| {
            let (b, mut i) = (t.as_bytes(), from);
            while i < to {
                if !matches!(b[i], b'0'..=b'9' | b'-' | b'\\') {
                    i += 1;
                    continue;
                }
                match super::past_mark(t, i) {
                    Some(after) => i = after,
                    None => return true,
                }
            }
            false
        };
        let pieces = [
            "1",
            "-",
            "\\",
            "\\u0031",
            "1.10",
            " ",
            "\"",
            ",",
            "ab",
            "12345678901234567890",
            "\\n",
            "é",
            "e5",
            "1.5",
            "-0",
            "0",
            "2026-01-05",
            "1234567890123456",
            "123456789012345",
            "e",
            "E",
            ".",
            "+",
            "9",
            "[",
            "]",
        ];
        let mut mix = crate::json::fuzzing::Mix::new(0x9e37_79b9_7f4a_7c15u64);
        let (mut said, mut texts) = (0, 0);
        while texts < 3000 {
            let t = mix.text(&pieces, 30);
            texts += 1;
            let n = t.len();
            let ends = (0..=n).map(|k| (k, n)).chain((0..=n).map(|k| (0, k)));
            let inner = (0..=n).step_by(3).flat_map(|a| (a..=n).step_by(5).map(move |z| (a, z)));
            for (from, to) in ends.chain(inner) {
                let want = one_at_a_time(&t, from, to);
                assert_eq!(super::may_hold_inexact_in(&t, from, to), want, "{t:?} {from}..{to}");
                said += usize::from(want);
            }
        }
        assert!(said > 1000, "the texts hold inexact numbers too");
    }

    use super::*;

    #[test]
    fn exact_literals() {
        for l in ["0", "-1", "12", "1.5", "123456789012345", "18446744073709551615", "-9223372036854775808"] {
            assert!(is_exact(l), "{l}");
        }
        for l in ["-0", "1.10", "1e5", "1E400", "123456789012345678901234567890", "0.1e1", "1e-400", "-0.0e0"] {
            assert!(!is_exact(l), "{l}");
        }
    }

    /// The scan is a superset of the stand-ins: wherever a reading with stand-ins makes one, it
    /// says so, in the text itself and in JSON held by its strings, escaped once or twice.
    #[test]
    fn the_scan_finds_every_literal_a_stand_in_would_replace() {
        let inner = r#"{"a": [1, 2.5, 1e400], "b": "x"}"#;
        let once = serde_json::to_string(inner).unwrap_or_default();
        let twice = serde_json::to_string(&format!(r#"{{"t": {once}}}"#)).unwrap_or_default();
        let texts = [
            r#"{"a": 123456789012345678901234567890}"#.to_string(),
            "[-0]".into(),
            "[1.10]".into(),
            format!(r#"{{"content": [{{"type": "text", "text": {once}}}]}}"#),
            format!(r#"{{"content": [{{"type": "text", "text": {twice}}}]}}"#),
            r#"{"text": "1e5"}"#.into(),
            r#"{"text": "[\n1e5\n]"}"#.into(),
            r#"{"text": "[\u00311]"}"#.into(),
            // After runs of digits no token starts in, and after short integers.
            r#"{"mail": "u12345@example.com", "n": [12, 1.10]}"#.into(),
            r#"{"v": "x-5-", "n": -0}"#.into(),
            r#"{"text": "[7,\n123456789012345678901]"}"#.into(),
        ];
        for t in &texts {
            assert!(may_hold_inexact(t), "{t}");
        }
        // Exact numbers, and inexact-looking runs that no JSON text could hold as a token.
        for t in [
            r#"{"id": 12, "score": 1.5, "big": 18446744073709551615, "n": [0, -3]}"#,
            r#"{"date": "2026-01-05", "mail": "u12@example.com", "b64": "A1e5B+0.10/x", "v": "v1.10"}"#,
            r#"{"text": "{\"records\": [{\"id\": 1, \"s\": 2.25}], \"caf\u00e9\": 3}"}"#,
        ] {
            assert!(!may_hold_inexact(t), "{t}");
            let (_, made) = reading_exact(|| crate::json_depth::parse::<Value>(t, 100));
            assert_eq!(made, 0, "{t}");
        }
    }

    /// A text scanned in two parts says what one scan says, wherever the border falls: in a run
    /// of digits, an escape, a delimiter of a number held by a string.
    #[test]
    fn a_scan_in_two_parts_says_what_one_scan_says() {
        let tokens =
            ["123456789012345678901", "1234567890", "-0", "1.10", "\\u0031", "\\n1e5\\n", ", 12,", "\\\\u0031"];
        let texts = tokens.iter().flat_map(|t| [format!("{{\"t\": \"ab {t} cd\"}}"), format!("[7,{t}]")]);
        for text in texts {
            let whole = may_hold_inexact(&text);
            for mid in 0..=text.len() {
                let parts = may_hold_inexact_in(&text, 0, mid) || may_hold_inexact_in(&text, mid, text.len());
                assert_eq!(parts, whole, "{text} {mid}");
            }
        }
        let long = format!("[{}1.10]", "1, ".repeat(1 << 19));
        assert!(may_hold_inexact_on_two(&long) && !may_hold_inexact_on_two(&long.replace("1.10", "2")));
    }

    #[test]
    fn a_guide_gives_back_the_literals_and_nothing_else() {
        let text = r#"{"a": 123456789012345678901234567890, "b": [-0, 1.10, 7], "c": 1e400, "s": "1e400"}"#;
        let (exact, made) = reading_exact(|| crate::json_depth::parse::<Value>(text, 100));
        assert_eq!(made, 4);
        let exact = exact.unwrap_or_default();
        let approx: Value = crate::json_depth::parse(text, 100).unwrap_or_default();
        let out = serde_json::to_string(&Guided { value: &approx, guide: Some(&exact) }).unwrap_or_default();
        assert_eq!(out, r#"{"a":123456789012345678901234567890,"b":[-0,1.10,7],"c":1e400,"s":"1e400"}"#);
        // A stand-in where the value is no number, or another number, is not written.
        let forged = serde_json::json!({"a": exact["a"].clone(), "b": exact["c"].clone()});
        let other = serde_json::json!({"a": "x", "b": 5});
        let out = serde_json::to_string(&Guided { value: &other, guide: Some(&forged) }).unwrap_or_default();
        assert_eq!(out, r#"{"a":"x","b":5}"#);
    }
}
