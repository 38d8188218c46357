//! Masking the secrets the user passed (env values, header values) in anything shown or saved,
//! and those learned while running (OAuth tokens and client secrets: see `learn_secret`).
//!
//! A server can send a secret JSON-escaped (`"sk-\u0031234"` reads as `sk-1234`), so the check
//! is made on the decoded text as well as on the raw text, and an escaped occurrence is masked
//! in the raw text (whole escapes at a time, so JSON stays JSON).

use std::borrow::Cow;
use std::ops::Range;

/// What a secret is replaced with.
pub const MASK: &str = "«redacted»";

/// Secrets learned while running (access and refresh tokens, registered client secrets): every
/// redactor of the process masks them too, since a token obtained by one session must not
/// surface in another's log, the history or an export.
static LEARNED: std::sync::RwLock<Vec<String>> = std::sync::RwLock::new(Vec::new());

/// Adds a secret every `Redactor` masks from now on.
pub fn learn_secret(secret: &str) {
    if secret.len() < 4 {
        return;
    }
    let mut learned = LEARNED.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !learned.iter().any(|s| s == secret) {
        learned.push(secret.to_string());
    }
}

/// Replaces each secret's occurrences with a fixed mask.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    own: Vec<String>,
    /// `own` and their base64 forms, longest first (made once: every shown line is checked).
    own_patterns: Vec<String>,
}

impl Redactor {
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Self {
        // Very short values (e.g. "1", "true") would redact half the log and protect nothing.
        let mut secrets: Vec<String> = secrets.into_iter().filter(|s| s.len() >= 4).collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        let own_patterns = with_encoded(secrets.iter());
        Redactor { own: secrets, own_patterns }
    }

    /// The user's secrets and the learned ones, longest first (so a secret holding another is
    /// masked whole).
    fn secrets(&self) -> Cow<'_, [String]> {
        let learned = LEARNED.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        if learned.is_empty() {
            return Cow::Borrowed(&self.own);
        }
        let mut all: Vec<String> = self.own.iter().chain(learned.iter()).cloned().collect();
        all.sort_by_key(|s| std::cmp::Reverse(s.len()));
        all.dedup();
        Cow::Owned(all)
    }

    /// The secrets and their base64 forms (see [`encoded_forms`]), longest first.
    fn patterns(&self) -> Cow<'_, [String]> {
        let learned = LEARNED.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        if learned.is_empty() {
            return Cow::Borrowed(&self.own_patterns);
        }
        Cow::Owned(with_encoded(self.own.iter().chain(learned.iter())))
    }

    /// Where a secret (or a base64 form) begins or ends in `text` cut short: a run of at least
    /// `min` of its first characters (the rest cut off at a column's edge) or of its last ones
    /// (the start wrapped onto the row above). Whole occurrences are found too.
    pub fn partial_ranges(&self, text: &str, min: usize) -> Vec<Range<usize>> {
        let mut found = vec![];
        for secret in self.patterns().iter().filter(|s| s.len() >= min) {
            let (head, tail) = (&secret[..floor(secret, min)], &secret[ceil(secret, secret.len() - min)..]);
            for (i, _) in text.match_indices(head) {
                let run = common_prefix(&text[i..], secret);
                found.push(i..i + run);
            }
            for (i, _) in text.match_indices(tail) {
                let end = i + tail.len();
                let run = common_suffix(&text[..end], secret);
                found.push(end - run..end);
            }
        }
        found.sort_by_key(|r| r.start);
        found
    }

    /// `s` redacted, and every run of 8 or more of a secret's first or last characters masked as
    /// well: for text that was cut short (an excerpt, a truncated value) before it reached here.
    pub fn redact_cut<'a>(&self, s: &'a str) -> Cow<'a, str> {
        let whole = self.redact(s);
        let ranges = self.partial_ranges(&whole, 8);
        if ranges.is_empty() {
            return whole;
        }
        let mut out = String::with_capacity(whole.len());
        let mut at = 0;
        for r in ranges {
            if r.start < at {
                at = at.max(r.end);
                continue;
            }
            out.push_str(&whole[at..r.start]);
            out.push_str(MASK);
            at = r.end;
        }
        out.push_str(&whole[at..]);
        Cow::Owned(out)
    }

    /// Where the secrets (or their base64 forms) occur in `text`, as byte ranges sorted and
    /// merged: for masking text already laid out (a screen row).
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        if self.is_empty() {
            return vec![];
        }
        self.matches(text)
    }

    /// At least the raw bytes one secret can take (each character as a `\uXXXX\uXXXX` pair).
    pub fn max_span(&self) -> usize {
        self.secrets().first().map_or(0, |s| s.len() * 12)
    }

    pub fn is_empty(&self) -> bool {
        self.secrets().is_empty()
    }

    /// Whether `s` holds a secret, as written or behind JSON escapes.
    pub fn finds(&self, s: &str) -> bool {
        !self.is_empty() && (self.in_text(s) || (s.contains('\\') && self.in_text(&decode(s))))
    }

    fn in_text(&self, s: &str) -> bool {
        self.patterns().iter().any(|secret| s.contains(secret.as_str()))
    }

    pub fn redact<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if self.is_empty() {
            return Cow::Borrowed(s);
        }
        let raw = self.redact_raw(s);
        if !raw.contains('\\') {
            return raw;
        }
        let decoded = decode(&raw);
        if !self.in_text(&decoded) {
            return raw;
        }
        Cow::Owned(self.redact_escaped(&raw, &decoded))
    }

    fn redact_raw<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if !self.in_text(s) {
            return Cow::Borrowed(s);
        }
        let mut out = s.to_string();
        for secret in self.patterns().iter() {
            out = out.replace(secret.as_str(), MASK);
        }
        Cow::Owned(out)
    }

    /// Masks the raw spans whose decoded text is a secret; `decoded` is `decode(raw)`.
    fn redact_escaped(&self, raw: &str, decoded: &str) -> String {
        let hidden = self.matches(decoded);
        let mut out = String::with_capacity(raw.len());
        let (mut at, mut d) = (0, 0);
        let mut next = hidden.iter().peekable();
        while at < raw.len() {
            let (end, c) = unit(raw, at);
            while next.peek().is_some_and(|m| m.end <= d) {
                next.next();
            }
            match next.peek() {
                Some(m) if m.start <= d => {
                    if m.start == d {
                        out.push_str(MASK);
                    }
                }
                _ => out.push_str(&raw[at..end]),
            }
            d += c.len_utf8();
            at = end;
        }
        out
    }

    /// Where the secrets occur in `text`, as ranges sorted and merged.
    fn matches(&self, text: &str) -> Vec<Range<usize>> {
        let mut found: Vec<Range<usize>> =
            self.patterns().iter().flat_map(|s| text.match_indices(s.as_str()).map(|(i, m)| i..i + m.len())).collect();
        found.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(found.len());
        for r in found {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        merged
    }
}

fn floor(s: &str, at: usize) -> usize {
    (0..=at.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)
}

fn ceil(s: &str, at: usize) -> usize {
    (at..=s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(s.len())
}

/// Bytes `a` and `b` share at their starts, ending on a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    floor(a, n)
}

/// Bytes `a` and `b` share at their ends, starting on a character boundary.
fn common_suffix(a: &str, b: &str) -> usize {
    let n = a.bytes().rev().zip(b.bytes().rev()).take_while(|(x, y)| x == y).count();
    a.len() - ceil(a, a.len() - n)
}

/// `secrets` and their base64 forms, longest first, each once.
fn with_encoded<'s>(secrets: impl Iterator<Item = &'s String> + Clone) -> Vec<String> {
    let mut all: Vec<String> = secrets.clone().cloned().collect();
    all.extend(secrets.flat_map(|s| encoded_forms(s)));
    all.sort_by_key(|s| std::cmp::Reverse(s.len()));
    all.dedup();
    all
}

/// Secrets shorter than this are not looked for in base64: their encoded core is a few
/// characters that ordinary text holds by chance.
const MIN_ENCODED: usize = 8;

/// The base64 forms of `secret` that any base64 text holding it shows, whatever its place: at
/// each of the three byte alignments, the characters that come from the secret's bytes alone
/// (standard and URL-safe alphabets). A server that echoes a token base64-encoded (a Basic
/// header, a data URL) then has it masked too.
fn encoded_forms(secret: &str) -> Vec<String> {
    use base64::Engine;
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
    if secret.len() < MIN_ENCODED {
        return vec![];
    }
    let mut out = vec![];
    for lead in 0..3usize {
        let mut bytes = vec![0u8; lead];
        bytes.extend_from_slice(secret.as_bytes());
        // Character i covers bits 6i..6i+6; keep those wholly inside the secret's bits.
        let (first, end) = ((8 * lead).div_ceil(6), (8 * bytes.len()) / 6);
        for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
            let text = engine.encode(&bytes);
            if let Some(core) = text.get(first..end) {
                out.push(core.to_string());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `s` with JSON string escapes decoded (a lone surrogate becomes U+FFFD; a backslash that
/// starts no escape stays as it is).
pub fn decode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    while at < s.len() {
        let (end, c) = unit(s, at);
        out.push(c);
        at = end;
    }
    out
}

/// The character starting at byte `at` of `s`, decoding a JSON escape, and where it ends.
fn unit(s: &str, at: usize) -> (usize, char) {
    let b = s.as_bytes();
    if b[at] != b'\\' {
        let c = s[at..].chars().next().unwrap_or('\u{fffd}');
        return (at + c.len_utf8(), c);
    }
    let simple = match b.get(at + 1) {
        Some(b'n') => Some('\n'),
        Some(b't') => Some('\t'),
        Some(b'r') => Some('\r'),
        Some(b'b') => Some('\u{8}'),
        Some(b'f') => Some('\u{c}'),
        Some(b'"') => Some('"'),
        Some(b'\\') => Some('\\'),
        Some(b'/') => Some('/'),
        _ => None,
    };
    if let Some(c) = simple {
        return (at + 2, c);
    }
    let Some(high) = hex4(s, at) else { return (at + 1, '\\') };
    if (0xD800..0xDC00).contains(&high)
        && let Some(low) = hex4(s, at + 6).filter(|l| (0xDC00..0xE000).contains(l))
    {
        let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        return (at + 12, char::from_u32(c).unwrap_or('\u{fffd}'));
    }
    (at + 6, char::from_u32(high).unwrap_or('\u{fffd}'))
}

/// The code unit of a `\uXXXX` escape at byte `at`.
fn hex4(s: &str, at: usize) -> Option<u32> {
    let b = s.as_bytes();
    if b.get(at) != Some(&b'\\') || b.get(at + 1) != Some(&b'u') {
        return None;
    }
    let digits = s.get(at + 2..at + 6)?;
    if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r() -> Redactor {
        Redactor::new(["sk-1234".to_string(), "pass\"word".to_string()])
    }

    /// A secret base64-encoded, alone or inside a longer encoding at any byte alignment (a
    /// Basic header, a server's echo), in either alphabet, is masked; short secrets are not
    /// looked for in base64.
    #[test]
    fn base64_forms_of_a_secret_are_masked() {
        use base64::Engine;
        use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
        let secret = "tok-3f9a~c2>e7?b1";
        let r = Redactor::new([secret.to_string()]);
        for lead in ["", "u", "us", "user:"] {
            for text in [STANDARD.encode(format!("{lead}{secret}")), URL_SAFE_NO_PAD.encode(format!("{lead}{secret}!"))]
            {
                let out = r.redact(&text);
                assert!(out.contains(MASK), "{lead:?}: {text} -> {out}");
                assert!(!r.finds(&out), "{out}");
            }
        }
        let short = Redactor::new(["abcd".to_string()]);
        assert_eq!(short.redact(&STANDARD.encode("abcd")), STANDARD.encode("abcd"));
        assert_eq!(r.ranges(&format!("a {secret} b")), vec![2..2 + secret.len()]);
        // Cut at a column's edge, or wrapped: the part shown is found.
        assert_eq!(r.partial_ranges("│ \"tok-3f9a~c2│", 8), vec![5..16]);
        assert_eq!(r.partial_ranges("2>e7?b1\" x", 6), vec![0..7]);
    }

    #[test]
    fn raw_and_escaped_secrets_are_masked() {
        assert_eq!(r().redact("token sk-1234 here"), "token «redacted» here");
        let escaped = r#"{"t":"x sk-\u0031234 y","u":"\u0073\u006b-1234"}"#;
        let out = r().redact(escaped);
        assert_eq!(out, r#"{"t":"x «redacted» y","u":"«redacted»"}"#);
        assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok(), "{out}");
        assert_eq!(r().redact(r#""pass\"word""#), r#""«redacted»""#);
        // Other escapes around are kept as written.
        assert_eq!(r().redact(r#""a\n\u00e9 sk-123\u0034 \ud83d\ude00""#), r#""a\n\u00e9 «redacted» \ud83d\ude00""#);
    }

    #[test]
    fn nothing_to_mask_borrows() {
        assert!(matches!(r().redact(r#""a\u0031\\u0031""#), Cow::Borrowed(_)));
        assert!(matches!(Redactor::default().redact("sk-1234"), Cow::Borrowed(_)));
        // An escaped backslash before "u0031" is not an escape of "1".
        assert!(!r().finds(r#""sk-\\u0031234""#));
        assert!(r().finds(r#""sk-\u0031234""#));
    }

    #[test]
    fn odd_escapes_do_not_panic() {
        for s in [r"\", r"\u", r"\u12", r"\ud800", r"\ud800\u0041", r"\uZZZZ", "é\\", r"\udc00\ud800"] {
            let _ = r().redact(s);
            let _ = decode(s);
        }
        assert_eq!(decode(r"\ud800\u0041"), "\u{fffd}A");
    }
}
