//! A long `text` member decoded in the reply's own buffer. Decoding a JSON string literal only
//! shrinks it (an escape of `n` bytes stands for at most `n` bytes of UTF-8), so the text can be
//! written over the bytes of the reply already read: a 116 MB reply whose text is 110 MB of
//! JSON then costs 116 MB, not the reply and a decoded copy of it at once. Only a reply that
//! nothing else holds any more is decoded so: its buffer becomes the text.

use std::sync::Arc;

use serde_json::Value;

use super::{
    Elisions, PARALLEL_DECODE, SHORT_ESCAPES, SharedText, escape_at, escape_near, first_backslash, text_sentinel,
};

impl Elisions {
    /// The long `text` member `v` stands for, decoded (as [`Elisions::text`]), for a caller
    /// that reads it once: when nothing but this member holds the reply any more (no caller,
    /// log or other member of it), it is decoded in the reply's own buffer, and the member
    /// cannot be read again. None when `v` is no long text's sentinel.
    pub fn take_text(&mut self, v: &Value) -> Option<String> {
        let (shared, span) = text_sentinel(v).and_then(|id| self.texts.get_mut(id))?;
        let taken = std::mem::replace(shared, SharedText::Str(Arc::from("")));
        match taken {
            SharedText::String(raw) => match Arc::try_unwrap(raw) {
                Ok(raw) => return unescape_in_place(raw, *span),
                Err(raw) => *shared = SharedText::String(raw),
            },
            other => *shared = other,
        }
        self.text(v).map(std::borrow::Cow::into_owned)
    }
}

/// `text` with its JSON string literal at `span` (quotes included) decoded into its start; the
/// rest of the buffer given back. None at a broken escape (the text is lost then: the reply's
/// syntax was checked before it was kept, so this does not happen).
fn unescape_in_place(text: String, [a, b]: [u32; 2]) -> Option<String> {
    let mut bytes = text.into_bytes();
    let (open, end) = (a as usize, (b as usize).checked_sub(1)?);
    if bytes.get(open) != Some(&b'"') || bytes.get(end) != Some(&b'"') || open >= end {
        return None;
    }
    let from = open + 1;
    let two_cores = crate::cores::two();
    let long = end - from >= PARALLEL_DECODE && two_cores;
    let mid = if long { escape_near(&bytes[from..end], (end - from) / 2).map(|m| from + m) } else { None };
    let Some(mid) = mid else {
        let len = unescape_within(&mut bytes[..end], from, 0)?;
        bytes.truncate(len);
        bytes.shrink_to_fit();
        return String::from_utf8(bytes).ok();
    };
    // A long literal is decoded in two halves on two threads, each in its own part of the
    // buffer (the second in place), each checked to be UTF-8 by its thread; the second is then
    // moved down to where the first ended.
    let (lo, hi) = bytes[..end].split_at_mut(mid);
    let decoded = |half: &mut [u8], from| {
        let n = unescape_within(half, from, 0)?;
        std::str::from_utf8(&half[..n]).is_ok().then_some(n)
    };
    let (first, second) = std::thread::scope(|s| {
        let second = s.spawn(|| decoded(hi, 0));
        (decoded(lo, from), second.join().ok().flatten())
    });
    let (first, second) = (first?, second?);
    bytes.copy_within(mid..mid + second, first);
    bytes.truncate(first + second);
    // For a buffer this size, a remap that gives the pages past the text back, not a copy.
    bytes.shrink_to_fit();
    // SAFETY: `bytes` is `bytes[..first]` as checked above, then the `second` bytes checked in
    // their place (`hi[..second]`) and copied after them unchanged: two UTF-8 texts one after
    // the other are one.
    Some(unsafe { String::from_utf8_unchecked(bytes) })
}

/// Decodes the escapes of `buf[from..]` (the inside of a string literal) into `buf` from `w`
/// on (`w <= from`: each byte is written where one was read already); where the text ends.
pub(super) fn unescape_within(buf: &mut [u8], from: usize, mut w: usize) -> Option<usize> {
    let mut i = from;
    // Escaped JSON has an escape every few bytes: a window of sixteen whose escapes are all of
    // one letter is decoded at once; else each word of eight is read once, and the plain bytes
    // before its first backslash are passed at once.
    loop {
        (i, w) = super::decode_windows::decode(buf, i, w);
        let Some(word) = buf.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) else { break };
        let plain = first_backslash(u64::from_le_bytes(word));
        if plain == 8 || i - w >= 8 {
            // Past the plain bytes, the word lands only on bytes read already (i - w >= 8), to
            // be written over by what follows.
            buf.get_mut(w..w + 8)?.copy_from_slice(&word);
        } else {
            buf.copy_within(i..i + plain, w);
        }
        (i, w) = (i + plain, w + plain);
        if plain < 8 {
            (i, w) = unescape_one(buf, i, w)?;
        }
    }
    while i < buf.len() {
        if buf[i] == b'\\' {
            (i, w) = unescape_one(buf, i, w)?;
        } else {
            buf[w] = buf[i];
            (i, w) = (i + 1, w + 1);
        }
    }
    Some(w)
}

/// The escape at `buf[i]` written at `w` (`w <= i`); where reading and writing go on.
#[inline(always)]
fn unescape_one(buf: &mut [u8], i: usize, w: usize) -> Option<(usize, usize)> {
    // The two-byte escapes (all but `\u`), a table look-up: escaped JSON is mostly `\"`.
    let short = SHORT_ESCAPES[usize::from(*buf.get(i + 1)?)];
    if short != 0 {
        buf[w] = short;
        return Some((i + 2, w + 1));
    }
    let (c, len) = escape_at(buf, i)?;
    let n = c.len_utf8();
    // `w + n <= i + len`: the escape's bytes are read already.
    c.encode_utf8(buf.get_mut(w..w + n)?);
    Some((i + len, w + n))
}

#[cfg(test)]
mod tests {
    use super::super::{MIN_TEXT, unescape};
    use super::*;
    use serde_json::json;

    /// `lit` inside a reply-like text, with bytes before and after it.
    fn decoded_in_place(lit: &str, before: usize) -> Option<String> {
        let text = format!("{}{lit},\"after\":1}}", "{".repeat(before));
        unescape_in_place(text, [before as u32, (before + lit.len()) as u32])
    }

    #[test]
    fn decoding_in_place_agrees_with_a_decoded_copy() {
        for piece in ["\"", "\\", "\n", "é", "€", "😀", "\u{1}", "/"] {
            for before in [0, 1, 7, 8, 9, 33] {
                let s = format!("{}{piece}b{piece}", "a".repeat(before));
                let lit = serde_json::to_string(&s).unwrap_or_default();
                assert_eq!(decoded_in_place(&lit, before).as_deref(), Some(s.as_str()), "{lit}");
                let u = format!("\"{}\\u00e9\\ud83d\\ude00\\ud800{}\"", "c".repeat(before), "d".repeat(before));
                assert_eq!(decoded_in_place(&u, before), unescape(&u), "{u}");
            }
        }
        assert_eq!(decoded_in_place("\"bad \\x\"", 3), None);
        assert_eq!(unescape_in_place("\"a\"".into(), [1, 3]), None, "not a literal");
    }

    /// Escaped JSON, an escape every few bytes, decodes in place wherever the literal starts
    /// (the bytes read run ahead of those written by 0 to 19 at first).
    #[test]
    fn dense_escapes_decode_in_place_at_any_offset() {
        let s = format!("{}é😀/\u{1}", "{\"id\": 12, \"name\": \"a\\\\b\"}\n".repeat(5));
        let lit = serde_json::to_string(&s).unwrap_or_default();
        for before in 0..20 {
            assert_eq!(decoded_in_place(&lit, before).as_deref(), Some(s.as_str()), "{before}");
        }
    }

    /// A literal of megabytes is decoded in two halves, the second in place where it is.
    #[test]
    fn a_long_literal_decodes_in_halves_in_place() {
        let half = PARALLEL_DECODE / 2;
        for tail in ["\\\\\\\"x", "\\ud83d\\ude00\\n", "\\ud800\\\"", "\\\\u0041\\u00e9é", "\\t"] {
            let lit = format!("\"{}{}{}\"", "a".repeat(half + 3), tail.repeat(40), "b".repeat(half));
            assert_eq!(decoded_in_place(&lit, 40), unescape(&lit), "{tail}");
        }
    }

    fn reply_with_long_text(long: &str) -> (Arc<String>, Elisions, Value) {
        let doc = json!({"content": [{"type": "text", "text": long}], "isError": false});
        let raw = Arc::new(doc.to_string());
        let mut e = Elisions::default();
        let v = e.parse(SharedText::String(raw.clone()), 100).and_then(Result::ok).unwrap_or_default();
        (raw, e, v)
    }

    #[test]
    fn a_text_is_taken_in_place_only_when_nothing_else_holds_the_reply() {
        let long = format!("{}\"quoted\" é\n\u{1}", "line of text ".repeat(MIN_TEXT / 8));
        let (raw, mut e, v) = reply_with_long_text(&long);
        let t = &v["content"][0]["text"];
        // Held here too: decoded into a copy, the reply left as it is.
        assert_eq!(e.take_text(t).as_deref(), Some(long.as_str()));
        assert!(e.text_literal(t).is_some());
        assert!(raw.contains("line of text"));
        // Held by the member alone: the reply's buffer becomes the text, which is then taken.
        drop(raw);
        assert_eq!(e.take_text(t).as_deref(), Some(long.as_str()));
        assert_eq!(e.text_literal(t), None);
        assert_eq!(e.take_text(&json!("short")), None, "no long text's sentinel");
    }
}
