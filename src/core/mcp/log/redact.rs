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
}

impl Redactor {
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Self {
        // Very short values (e.g. "1", "true") would redact half the log and protect nothing.
        let mut secrets: Vec<String> = secrets.into_iter().filter(|s| s.len() >= 4).collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Redactor { own: secrets }
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
        self.secrets().iter().any(|secret| s.contains(secret.as_str()))
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
        for secret in self.secrets().iter() {
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
            self.secrets().iter().flat_map(|s| text.match_indices(s.as_str()).map(|(i, m)| i..i + m.len())).collect();
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
