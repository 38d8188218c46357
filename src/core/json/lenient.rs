//! What JSON allows and serde_json refuses: numbers beyond a 64-bit float (`1e400`) and lone
//! UTF-16 surrogates in string escapes (`"\ud800"`). RFC 8259 admits both (it leaves their meaning
//! to the reader), and servers send them; a parse that fails on one would make a whole reply or
//! tool list unreadable. Here such a text is rewritten for parsing only: a lone surrogate becomes
//! U+FFFD, a number beyond range the largest finite float of its sign (or zero). The text as sent
//! stays what `--raw`, `tools --json`, the log and the Raw view show.

use std::borrow::Cow;

use super::{Kind, Tokenizer};

/// What a rewrite replaced, to say so beside what is shown.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Approximated {
    pub numbers: usize,
    pub surrogates: usize,
}

impl Approximated {
    pub fn is_empty(&self) -> bool {
        self.numbers == 0 && self.surrogates == 0
    }

    /// "2 numbers beyond a 64-bit float and 1 lone surrogate", for a warning.
    pub fn describe(&self) -> String {
        let mut parts = vec![];
        if self.numbers > 0 {
            parts.push(format!("{} number{} beyond a 64-bit float", self.numbers, plural(self.numbers)));
        }
        if self.surrogates > 0 {
            parts.push(format!("{} lone UTF-16 surrogate{}", self.surrogates, plural(self.surrogates)));
        }
        parts.join(" and ")
    }

    /// What stands in for them where the value is shown.
    pub fn stand_ins(&self) -> &'static str {
        match (self.numbers > 0, self.surrogates > 0) {
            (true, true) => "shown as the largest float and U+FFFD",
            (true, false) => "shown as the largest float of its sign",
            _ => "shown as U+FFFD",
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `text` with what serde_json refuses replaced, and what was; None when the text is not JSON or
/// holds nothing to replace (its parse failed for another reason).
pub fn rewrite(text: &str) -> Option<(String, Approximated)> {
    let mut out = String::new();
    let mut copied = 0;
    let mut seen = Approximated::default();
    for tok in Tokenizer::new(text) {
        let tok = tok.ok()?;
        let literal = tok.text(text);
        let fixed = match tok.kind {
            Kind::Number => out_of_range(literal).map(|n| {
                seen.numbers += 1;
                Cow::Borrowed(n)
            }),
            Kind::String | Kind::Key => without_lone_surrogates(literal).map(|(fixed, n)| {
                seen.surrogates += n;
                fixed
            }),
            _ => None,
        };
        if let Some(fixed) = fixed {
            out.push_str(&text[copied..tok.start]);
            out.push_str(&fixed);
            copied = tok.end;
        }
    }
    if seen.is_empty() {
        return None;
    }
    out.push_str(&text[copied..]);
    Some((out, seen))
}

/// Whether a token's literal is one that [`rewrite`] would replace.
pub fn is_inexact(kind: Kind, literal: &str) -> bool {
    match kind {
        Kind::Number => out_of_range(literal).is_some(),
        Kind::String | Kind::Key => has_surrogate_escape(literal) && without_lone_surrogates(literal).is_some(),
        _ => false,
    }
}

/// The finite stand-in for a number literal a 64-bit float cannot hold, if it cannot.
fn out_of_range(literal: &str) -> Option<&'static str> {
    let v: f64 = literal.parse().ok()?;
    if v.is_finite() {
        return None;
    }
    Some(if literal.starts_with('-') { "-1.7976931348623157e308" } else { "1.7976931348623157e308" })
}

/// A cheap test before the exact one: most strings hold no `\uD8..`-`\uDF..` escape. It runs
/// on every string of every tool listed, most of them short: `memchr` on the backslash, where a
/// `memmem` finder would be built (a searcher set up) once per string.
fn has_surrogate_escape(literal: &str) -> bool {
    let b = literal.as_bytes();
    memchr::memchr_iter(b'\\', b)
        .any(|i| b.get(i + 1) == Some(&b'u') && b.get(i + 2).is_some_and(|c| c.eq_ignore_ascii_case(&b'd')))
}

/// The string literal with each unpaired surrogate escape as `\ufffd`, and how many there were;
/// None when it has none.
/// Escaped backslashes are skipped as pairs, so `\\ud800` (a backslash, then text) is left alone.
fn without_lone_surrogates(literal: &str) -> Option<(Cow<'static, str>, usize)> {
    if !has_surrogate_escape(literal) {
        return None;
    }
    let b = literal.as_bytes();
    let mut out = String::with_capacity(literal.len());
    let (mut i, mut copied, mut changed) = (0, 0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let unit = hex4(b, i + 2);
        match unit {
            Some(0xD800..=0xDBFF) => {
                let lo =
                    (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u')).then(|| hex4(b, i + 8)).flatten();
                if lo.is_some_and(|lo| (0xDC00..=0xDFFF).contains(&lo)) {
                    i += 12;
                    continue;
                }
            }
            Some(0xDC00..=0xDFFF) => {}
            _ => {
                i += 6;
                continue;
            }
        }
        out.push_str(&literal[copied..i]);
        out.push_str("\\ufffd");
        i += 6;
        copied = i;
        changed += 1;
    }
    if changed == 0 {
        return None;
    }
    out.push_str(&literal[copied..]);
    Some((Cow::Owned(out), changed))
}

/// `text` with each bare `NaN`, `Infinity` and `-Infinity` outside strings as `null`, and how many
/// there were; None when it has none. They are not JSON (RFC 8259 has no such numbers), but Python's
/// json.dumps writes them by default.
pub fn non_finite_as_null(text: &str) -> Option<(String, usize)> {
    let b = text.as_bytes();
    let mut out = String::new();
    let (mut i, mut copied, mut seen, mut in_string) = (0, 0, 0, false);
    while i < b.len() {
        if in_string {
            match b[i] {
                b'\\' => i += 2,
                b'"' => (in_string, i) = (false, i + 1),
                _ => i += 1,
            }
            continue;
        }
        if b[i] == b'"' {
            (in_string, i) = (true, i + 1);
            continue;
        }
        let word = [&b"NaN"[..], b"Infinity", b"-Infinity"].into_iter().find(|w| b[i..].starts_with(w));
        let standalone = |len: usize| {
            !b.get(i + len).is_some_and(u8::is_ascii_alphanumeric) && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
        };
        match word {
            // Only at ASCII bytes, so `i` is a char boundary.
            Some(w) if standalone(w.len()) => {
                out.push_str(&text[copied..i]);
                out.push_str("null");
                i += w.len();
                copied = i;
                seen += 1;
            }
            _ => i += 1,
        }
    }
    if seen == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some((out, seen))
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let s = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
    u32::from_str_radix(s, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_only_what_serde_json_refuses() {
        let text = r#"{"a": 1e400, "b": -1E999, "c": 1e-400, "d": 123456789012345678901234567890, "s": "x\ud800y"}"#;
        assert!(serde_json::from_str::<serde_json::Value>(text).is_err());
        let (fixed, seen) = rewrite(text).unwrap();
        assert_eq!(seen, Approximated { numbers: 2, surrogates: 1 });
        let v: serde_json::Value = serde_json::from_str(&fixed).unwrap();
        assert_eq!(v["a"].as_f64(), Some(f64::MAX));
        assert_eq!(v["b"].as_f64(), Some(f64::MIN));
        assert_eq!(v["s"], "x\u{fffd}y");
        assert_eq!(seen.describe(), "2 numbers beyond a 64-bit float and 1 lone UTF-16 surrogate");
    }

    #[test]
    fn pairs_and_escaped_backslashes_are_kept() {
        assert_eq!(without_lone_surrogates(r#""\ud83d\ude00""#), None);
        assert_eq!(without_lone_surrogates(r#""\\ud800""#), None);
        let fixed = |l| without_lone_surrogates(l).map(|(f, n)| (f.into_owned(), n));
        assert_eq!(fixed(r#""\ude00\ud83d""#), Some((r#""\ufffd\ufffd""#.into(), 2)));
        assert_eq!(fixed(r#""\ud83d\u0041""#), Some((r#""\ufffd\u0041""#.into(), 1)));
        assert_eq!(fixed(r#""\ud83d""#), Some((r#""\ufffd""#.into(), 1)));
        assert!(is_inexact(Kind::Key, r#""\uDBFF""#));
        assert!(!is_inexact(Kind::String, r#""\uD83D\uDE00""#));
    }

    #[test]
    fn bare_nan_and_infinity_become_null_outside_strings_only() {
        let text = r#"{"mean": NaN, "max": Infinity, "min":-Infinity, "s": "NaN \" Infinity", "NaNa": [NaN]}"#;
        let (fixed, n) = non_finite_as_null(text).unwrap();
        assert_eq!(n, 4);
        assert_eq!(fixed, r#"{"mean": null, "max": null, "min":null, "s": "NaN \" Infinity", "NaNa": [null]}"#);
        assert_eq!(non_finite_as_null(r#"{"a": "NaN", "b": 1}"#), None);
    }

    #[test]
    fn text_that_is_not_json_or_needs_nothing_is_left() {
        assert_eq!(rewrite(r#"{"a": 1e400"#), None);
        assert_eq!(rewrite(r#"{"a": 1.5}"#), None);
    }

    #[test]
    fn any_rewrite_parses() {
        for text in [r#"["\ud800", 1e999, {"\udfff": -1e999}]"#, r#""\\\ud800""#, r#"[1e309,"\ud800\ud800"]"#] {
            let (fixed, _) = rewrite(text).unwrap();
            assert!(serde_json::from_str::<serde_json::Value>(&fixed).is_ok(), "{text} -> {fixed}");
        }
    }
}
