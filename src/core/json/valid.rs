//! The syntax check of a whole reply in one walk, and the top-level members it passes: what the
//! tap needs of each message it reads (is it JSON; its `id`, `method`, `result`...), without
//! serde_json's walk of every byte of a long `result` a token at a time.
//!
//! It accepts exactly the texts serde_json accepts as one document at any depth (the fuzz checks
//! compare them): RFC 8259 with no limit on nesting, `\u` escapes read as four hex digits without
//! a look at what they encode (as serde_json reads a string it skips). Nothing recurses: the open
//! containers are a byte each on a stack on the heap. Strings, where most of a reply's bytes are,
//! are passed sixteen bytes at a time on x86-64 (eight elsewhere).

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
    let mut out = vec![];
    walk(text.as_bytes(), &mut |k: [usize; 2], v: [usize; 2]| {
        if let (Some(key), Some(value)) = (text.get(k[0]..k[1]), text.get(v[0]..v[1])) {
            out.push(Member { key, value });
        }
    })
    .then_some(out)
}

/// Whether `text` is one JSON document.
pub fn is_json(text: &str) -> bool {
    walk(text.as_bytes(), &mut |_, _| {})
}

/// The walk: a value expected, then what may follow it, until the text ends. `member` is told
/// the span of each key of the top-level object and of its value.
fn walk(b: &[u8], member: &mut dyn FnMut([usize; 2], [usize; 2])) -> bool {
    // What closes each open container: `}` or `]`.
    let mut open: Vec<u8> = Vec::new();
    let mut i = ws(b, 0);
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
                    let Some((k, v)) = key_and_colon(b, j) else { return false };
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
            Some(b'"') => match string_end(b, i) {
                Some(end) => end,
                None => return false,
            },
            Some(b'-' | b'0'..=b'9') => match number_end(b, i) {
                Some(end) => end,
                None => return false,
            },
            Some(b't') if b.get(i..i + 4) == Some(b"true") => i + 4,
            Some(b'f') if b.get(i..i + 5) == Some(b"false") => i + 5,
            Some(b'n') if b.get(i..i + 4) == Some(b"null") => i + 4,
            _ => return false,
        };
        // A value ended at `i`: a comma and the next, or closes, or the end.
        loop {
            if open.len() == 1 && open[0] == b'}' {
                member(key, [value_at, i]);
            }
            i = ws(b, i);
            let Some(&close) = open.last() else { return i == b.len() };
            match b.get(i) {
                Some(b',') => {
                    let j = ws(b, i + 1);
                    if close == b']' {
                        i = j;
                        break;
                    }
                    let Some((k, v)) = key_and_colon(b, j) else { return false };
                    if open.len() == 1 {
                        (key, value_at) = (k, v);
                    }
                    i = v;
                    break;
                }
                Some(&c) if c == close => {
                    open.pop();
                    i += 1;
                }
                _ => return false,
            }
        }
    }
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
