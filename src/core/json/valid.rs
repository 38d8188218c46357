//! The syntax check of a whole reply in one walk, and the top-level members it passes: what the
//! tap needs of each message it reads (is it JSON; its `id`, `method`, `result`...), without
//! serde_json's walk of every byte of a long `result` a token at a time.
//!
//! It accepts exactly the texts serde_json accepts as one document at any depth (the fuzz checks
//! compare them): RFC 8259 with no limit on nesting, `\u` escapes read as four hex digits without
//! a look at what they encode (as serde_json reads a string it skips). Nothing recurses: the open
//! containers are a byte each on a stack on the heap. Strings, where most of a reply's bytes are,
//! are passed sixteen bytes at a time on x86-64 (eight elsewhere).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// One member of the top-level object: its key as written (quotes and all) and its value's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member<'a> {
    pub key: &'a str,
    pub value: &'a str,
}

/// `text`'s top-level members if it is one JSON object; `Some(vec![])` for a valid document of
/// another kind is not told apart from `{}`, so a caller that cares looks at the first byte.
/// None when it is not JSON.
pub fn members(text: &str) -> Option<Vec<Member<'_>>> {
    members_with(text, None)
}

/// As [`members`], the walk sharing a long array with a second thread when `meet` is given
/// (see [`Meet`]).
pub fn members_with<'a>(text: &'a str, meet: Option<&Meet>) -> Option<Vec<Member<'a>>> {
    let mut out = vec![];
    let b = text.as_bytes();
    let mut member = |k: [usize; 2], v: [usize; 2]| {
        if let (Some(key), Some(value)) = (text.get(k[0]..k[1]), text.get(v[0]..v[1])) {
            out.push(Member { key, value });
        }
    };
    walk_from(b, ws(b, 0), Vec::new(), &mut member, meet)?;
    Some(out)
}

/// Whether `text` is one JSON document.
pub fn is_json(text: &str) -> bool {
    is_json_with(text, None)
}

/// As [`is_json`], the walk sharing a long array with a second thread when `meet` is given.
pub fn is_json_with(text: &str, meet: Option<&Meet>) -> bool {
    let b = text.as_bytes();
    walk_from(b, ws(b, 0), Vec::new(), &mut |_, _| {}, meet).is_some()
}

/// The walk: from `i`, where a value starts, inside the containers `open` (what closes each):
/// with none open, through the end of the text (where it ends); else until they have all
/// closed (just past the last close). At each element of an array, a `meet` may hand over the
/// rest of that array, checked already by a second thread.
#[inline(always)]
fn walk_from(
    b: &[u8],
    mut i: usize,
    mut open: Vec<u8>,
    member: &mut dyn FnMut([usize; 2], [usize; 2]),
    meet: Option<&Meet>,
) -> Option<usize> {
    let whole = open.is_empty();
    // The top-level member being read: its key's span and where its value starts.
    let mut key = [0usize; 2];
    let mut value_at = 0usize;
    loop {
        // A value starts at `i`.
        i = match b.get(i) {
            Some(b'{') => {
                let j = ws(b, i + 1);
                if b.get(j) == Some(&b'}') {
                    j + 1
                } else {
                    open.push(b'}');
                    let (k, v) = key_and_colon(b, j)?;
                    if open.len() == 1 {
                        (key, value_at) = (k, v);
                    }
                    i = v;
                    continue;
                }
            }
            Some(b'[') => {
                let j = ws(b, i + 1);
                if b.get(j) == Some(&b']') {
                    j + 1
                } else {
                    open.push(b']');
                    i = j;
                    continue;
                }
            }
            Some(b'"') => string_end(b, i)?,
            Some(b'-' | b'0'..=b'9') => number_end(b, i)?,
            Some(b't') if b.get(i..i + 4) == Some(b"true") => i + 4,
            Some(b'f') if b.get(i..i + 5) == Some(b"false") => i + 5,
            Some(b'n') if b.get(i..i + 4) == Some(b"null") => i + 4,
            _ => return None,
        };
        // A value ended at `i`: a comma and the next, or closes, or the end.
        loop {
            if open.len() == 1 && open[0] == b'}' {
                member(key, [value_at, i]);
            }
            i = ws(b, i);
            let Some(&close) = open.last() else { return (i == b.len()).then_some(i) };
            match b.get(i) {
                Some(b',') => {
                    let j = ws(b, i + 1);
                    if close == b']' {
                        match meet.map_or(Reached::No, |m| m.reached(j)) {
                            Reached::No => {}
                            // The rest of the array, through its close, is checked: on after it.
                            Reached::Closes(end) => {
                                open.pop();
                                i = end;
                                continue;
                            }
                            Reached::Broken => return None,
                        }
                        i = j;
                        break;
                    }
                    let (k, v) = key_and_colon(b, j)?;
                    if open.len() == 1 {
                        (key, value_at) = (k, v);
                    }
                    i = v;
                    break;
                }
                Some(&c) if c == close => {
                    open.pop();
                    i += 1;
                    if open.is_empty() && !whole {
                        return Some(i);
                    }
                }
                _ => return None,
            }
        }
    }
}

/// A long text's syntax check shared by two threads: one walks it from the start; the other,
/// once free, picks an element of a long array halfway between where the walk is and the end,
/// and checks the rest of that array from there ([`Meet::help`]). If the walk then comes to
/// that very element, as an element of an array, it takes the other's answer and goes on after
/// the array; a guess that was wrong (inside a string, or a member of an object) is never come
/// to, and the walk goes on alone. Either way it says what one walk says.
pub struct Meet {
    /// Where the walk is: the last element of an array it came to.
    at: AtomicUsize,
    /// The element the helper checks the rest of the array from; `usize::MAX` before it picks.
    from: AtomicUsize,
    /// The helper's answer, once it has one; `Reached::No` when it gave up.
    answer: Mutex<Option<Reached>>,
    told: Condvar,
}

/// Less than this left after the walk, the helper does not start.
const HELP_FROM: usize = 1 << 20;

#[derive(Clone, Copy)]
enum Reached {
    No,
    Closes(usize),
    Broken,
}

impl Default for Meet {
    fn default() -> Self {
        Meet {
            at: AtomicUsize::new(0),
            from: AtomicUsize::new(usize::MAX),
            answer: Mutex::new(None),
            told: Condvar::new(),
        }
    }
}

impl Meet {
    /// The walk is at `j`, an element of an array: the rest of the array if the helper checked
    /// it from there (waiting for its answer).
    #[inline(always)]
    fn reached(&self, j: usize) -> Reached {
        self.at.store(j, Ordering::Relaxed);
        if j != self.from.load(Ordering::Relaxed) {
            return Reached::No;
        }
        let Ok(mut answer) = self.answer.lock() else { return Reached::No };
        // Blocked, not spinning: the helper's core is the other one, and a count of
        // instructions (the performance guard's) does not depend on how long it waited.
        loop {
            match *answer {
                Some(reached) => return reached,
                None => match self.told.wait(answer) {
                    Ok(a) => answer = a,
                    Err(_) => return Reached::No,
                },
            }
        }
    }

    /// The helper's part (see [`Meet`]) of the walk of `text` made with this meet.
    pub fn help(&self, text: &str) {
        // Whatever happens here (a guess found nothing, a panic), a walk waiting at the
        // element picked goes on alone.
        struct Answer<'a>(&'a Meet, Reached);
        impl Drop for Answer<'_> {
            fn drop(&mut self) {
                self.0.tell(self.1);
            }
        }
        let mut answer = Answer(self, Reached::No);
        let b = text.as_bytes();
        let at = self.at.load(Ordering::Relaxed);
        let Some(left) = b.len().checked_sub(at).filter(|&left| at > 0 && left >= HELP_FROM) else { return };
        let Some(from) = element_near(b, at + left / 2) else { return };
        answer.1 = self.check_from(b, from);
    }

    fn tell(&self, answer: Reached) {
        if let Ok(mut a) = self.answer.lock() {
            *a = Some(answer);
        }
        self.told.notify_all();
    }

    /// Checks the rest of an array from `from`, where an element of it would start: the answer.
    fn check_from(&self, b: &[u8], from: usize) -> Reached {
        self.from.store(from, Ordering::Relaxed);
        match walk_from(b, from, vec![b']'], &mut |_, _| {}, None) {
            Some(end) => Reached::Closes(end),
            None => Reached::Broken,
        }
    }
}

/// A likely element of an array of containers at or after `from`: a `{` or `[` after a comma
/// after a `}` or `]` (spaces between), within 64 KB.
fn element_near(b: &[u8], from: usize) -> Option<usize> {
    let window = b.get(from..b.len().min(from + (64 << 10)))?;
    let mut k = 0;
    while let Some(c) = memchr::memchr(b',', window.get(k..)?) {
        let comma = from + k + c;
        let before = b[..comma].iter().rev().find(|&&c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t'));
        let next = ws_run(b, comma + 1);
        if matches!(before, Some(b'}' | b']')) && matches!(b.get(next), Some(b'{' | b'[')) {
            return Some(next);
        }
        k += c + 1;
    }
    None
}

/// A key at `i`, its colon, and the spaces after: the key's span and where its value starts.
#[inline(always)]
fn key_and_colon(b: &[u8], i: usize) -> Option<([usize; 2], usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let end = string_end(b, i)?;
    let colon = ws(b, end);
    (b.get(colon) == Some(&b':')).then(|| ([i, end], ws(b, colon + 1)))
}

/// Past JSON's whitespace from `i`. None and one space (compact JSON, and Python's `", "` and
/// `": "`) are told by a compare each.
#[inline(always)]
fn ws(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(&c) if c > b' ' => i,
        Some(b' ') if b.get(i + 1).is_some_and(|&c| c > b' ') => i + 1,
        _ => ws_run(b, i),
    }
}

fn ws_run(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = b.get(i) {
        i += 1;
    }
    i
}

/// Past the number at `i`, if its grammar holds (what follows it is the caller's to judge).
#[inline(always)]
fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |b: &[u8], mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(b, i + 1),
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        let end = digits(b, i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let end = digits(b, i);
        if end == i {
            return None;
        }
        i = end;
    }
    Some(i)
}

/// Past the closing quote of the string whose opening quote is at `start`, if the string is
/// well formed: no control character, every escape one of JSON's.
#[inline(always)]
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    'windows: while let Some(marks) = specials_at(b, i) {
        if marks.backslashes == 0 {
            let stops = marks.quotes | marks.controls;
            if stops == 0 {
                i += STEP;
                continue;
            }
            let k = stops.trailing_zeros() as usize;
            return (marks.quotes >> k & 1 == 1).then_some(i + k + 1);
        }
        if let Some((stops, width)) = one_letter_escapes(b, i, &marks) {
            if stops == 0 {
                i += width;
                continue;
            }
            let k = stops.trailing_zeros() as usize;
            return (marks.quotes >> k & 1 == 1).then_some(i + k + 1);
        }
        let mut marks = marks.quotes | marks.backslashes | marks.controls;
        while marks != 0 {
            let k = marks.trailing_zeros() as usize;
            match b[i + k] {
                b'"' => return Some(i + k + 1),
                b'\\' => {
                    let past = escape_end(b, i + k)?;
                    if past >= i + STEP {
                        i = past;
                        continue 'windows;
                    }
                    // The escape's own bytes (an escaped quote or backslash) are passed.
                    marks &= !((1u32 << (past - i)) - 1);
                }
                _ => return None,
            }
        }
        i += STEP;
    }
    loop {
        match b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i = escape_end(b, i)?,
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
}

/// A window of a string whose escapes are all of one letter (`\"`, `\n`...; escaped JSON is
/// written so), none of them a backslash escaped: its stops (an unescaped quote, a control
/// character) and how many of its bytes it passes (all but a backslash in its last byte, whose
/// escape the next window reads). None for any other: `\u` escapes, `\\`, faults.
#[inline(always)]
fn one_letter_escapes(b: &[u8], i: usize, marks: &Marks) -> Option<(u32, usize)> {
    let slashes = marks.backslashes;
    if slashes & (slashes << 1) != 0 {
        return None;
    }
    let width = if slashes >> (STEP - 1) & 1 == 1 { STEP - 1 } else { STEP };
    let escaped = (slashes << 1) & ((1 << width) - 1);
    // Most often every escape is `\"`: the other letters are looked for only when one is not.
    if escaped & !marks.quotes != 0 && escaped & !one_letter_at(b, i) != 0 {
        return None;
    }
    Some((((marks.quotes & !escaped) | marks.controls) & ((1 << width) - 1), width))
}

/// Past the escape whose backslash is at `i`, if it is one of JSON's.
#[inline(always)]
fn escape_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 2),
        b'u' => b.get(i + 2..i + 6)?.iter().all(u8::is_ascii_hexdigit).then_some(i + 6),
        _ => None,
    }
}

#[cfg(target_arch = "x86_64")]
const STEP: usize = 16;
#[cfg(not(target_arch = "x86_64"))]
const STEP: usize = 8;

/// The quotes, backslashes and control characters of a window of a string (bit `k` for byte
/// `i + k`).
#[derive(Debug, PartialEq)]
struct Marks {
    quotes: u32,
    backslashes: u32,
    controls: u32,
}

/// The marks of the `STEP` bytes from `i`, if that many are left.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn specials_at(b: &[u8], i: usize) -> Option<Marks> {
    let v = super::window::Lanes::at(b, i)?;
    Some(Marks { quotes: v.eq(b'"'), backslashes: v.eq(b'\\'), controls: v.controls() })
}

/// The bytes of the window from `i` that may follow a backslash as a one-letter escape.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn one_letter_at(b: &[u8], i: usize) -> u32 {
    let Some(v) = super::window::Lanes::at(b, i) else { return 0 };
    b"\"\\/bfnrt".iter().fold(0, |m, &c| m | v.eq(c))
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn specials_at(b: &[u8], i: usize) -> Option<Marks> {
    specials_in_word(b, i)
}

/// Elsewhere the escapes are read one by one.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn one_letter_at(_: &[u8], _: usize) -> u32 {
    0
}

/// The marks of the eight bytes from `i` (a word at once), if that many are left.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn specials_in_word(b: &[u8], i: usize) -> Option<Marks> {
    use super::swar::{HIGH, ONES, equal};
    let w = u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?);
    // One bit a byte, as the x86-64 masks have them.
    let bits = |marks: u64| (0..8).filter(|k| marks >> (8 * k + 7) & 1 == 1).fold(0, |m, k| m | 1 << k);
    // Bytes below 0x20 with their high bit clear: a control character.
    let controls = !((w & !HIGH) + 0x60 * ONES) & !w & HIGH;
    Some(Marks { quotes: bits(equal(w, b'"')), backslashes: bits(equal(w, b'\\')), controls: bits(controls) })
}

#[cfg(test)]
mod tests;
