//! Makes text that came from a server safe to put on a terminal.
//!
//! Every byte a server sends is untrusted: an escape sequence in a tool description could clear the
//! screen, retitle the window or write the clipboard (OSC 52). Nothing is dropped silently: each
//! control character is shown as a visible escape (`\x1b`, `\u{202e}`), so what the server sent
//! stays readable and debuggable.

use std::borrow::Cow;
use std::fmt::Write;

/// True for characters that must never reach a terminal as themselves.
pub(crate) fn is_unsafe(c: char) -> bool {
    match c {
        // C0 controls and DEL; newline and tab are handled by the caller's choice of function.
        '\u{0}'..='\u{1f}' | '\u{7f}' => true,
        // C1 controls (8-bit CSI, OSC, ...).
        '\u{80}'..='\u{9f}' => true,
        // Bidirectional overrides and isolates (Trojan Source), plus line/paragraph separators.
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}' => true,
        // Zero-width characters that can hide text, and the BOM.
        '\u{200b}'..='\u{200f}' | '\u{feff}' => true,
        _ => false,
    }
}

fn escape_char(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x100 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// One line of text: every control character, including newlines and tabs, is escaped.
pub fn line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            escape_char(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Compact JSON text with every unsafe character (C0/C1 controls, bidi controls: see
/// [`is_unsafe`]) written as a `\uXXXX` escape, as snapshots are. serde_json escapes only C0, so a
/// string holding U+009B (CSI) or U+202E went into a file raw, and a `cat` of it ran it. The JSON
/// reads back the same: outside strings compact JSON holds no such character.
pub fn json_escaped(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_unsafe) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe(c) {
            for unit in c.encode_utf16(&mut [0u16; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The first `max` characters of `s` as one safe line ([`line`]), "…" when there was more: for
/// server strings drawn every frame, whose length the server chooses.
pub fn line_head(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => line(s),
        Some((cut, _)) => Cow::Owned(format!("{}…", line(&s[..cut]))),
    }
}

/// Multi-line text: newlines are kept, tabs become spaces, every other control is escaped.
pub fn text(s: &str) -> Cow<'_, str> {
    let keep = |c: char| c == '\n' || c == '\t';
    if !s.chars().any(|c| is_unsafe(c) && !keep(c)) {
        if s.contains('\t') {
            return Cow::Owned(s.replace('\t', "    "));
        }
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            c if is_unsafe(c) => escape_char(&mut out, c),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A message of several lines as one line (a status line has room for one): each line made safe
/// as by [`line`], the lines joined with " · ".
pub fn joined(s: &str) -> Cow<'_, str> {
    if !s.contains('\n') {
        return line(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for l in s.lines().map(str::trim).filter(|l| !l.is_empty()) {
        // A line that introduces the next ("last lines of its stderr:") runs on into it.
        let sep = if out.is_empty() {
            ""
        } else if out.ends_with(':') {
            " "
        } else {
            " · "
        };
        out.push_str(sep);
        out.push_str(&line(l));
    }
    Cow::Owned(out)
}

/// JSON text made safe for a terminal without changing its meaning: characters that could act as
/// terminal controls (which valid JSON can only hold inside strings) become `\uXXXX` escapes, and
/// carriage returns between tokens are dropped. The result parses to the same value.
pub fn json(s: &str) -> Cow<'_, str> {
    // Printable ASCII, newlines and tabs (nearly all JSON) need no look at characters. (No early
    // exit, so the loop vectorizes.)
    if s.bytes().fold(true, |ok, b| ok & ((0x20..0x7f).contains(&b) | (b == b'\n') | (b == b'\t'))) {
        return Cow::Borrowed(s);
    }
    if !s.chars().any(|c| c == '\r' || (is_unsafe(c) && c != '\n' && c != '\t')) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '\r' => {}
            '\n' | '\t' => out.push(c),
            c if is_unsafe(c) => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Cuts `s` to at most `max` characters, marking the cut with an ellipsis.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((at, _)) => {
            let keep = s[..at].char_indices().nth(max.saturating_sub(1)).map_or(at, |(i, _)| i);
            Cow::Owned(format!("{}…", &s[..keep]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_of_several_lines_is_joined_into_one_safe_line() {
        let m = "exited with exit status 5\nlast lines of its stderr:\n  panic: \u{1b}[2J boom\n\n  second";
        assert_eq!(joined(m), "exited with exit status 5 · last lines of its stderr: panic: \\x1b[2J boom · second");
        assert_eq!(joined("one \t line"), "one \\t line");
    }

    #[test]
    fn json_text_gets_escapes_for_unsafe_characters_and_reads_back_the_same() {
        let v = serde_json::json!({"k\u{9b}": "a\u{202e}b\u{85}c\u{1b}"});
        let text = serde_json::to_string(&v).unwrap_or_default();
        let safe = json_escaped(&text);
        assert!(!safe.chars().any(is_unsafe), "{safe}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&safe).ok(), Some(v));
    }

    #[test]
    fn escapes_csi_osc_and_bidi() {
        assert_eq!(line("a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(line("\x1b]52;c;SGVsbG8=\x07"), "\\x1b]52;c;SGVsbG8=\\x07");
        assert_eq!(line("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(line("\u{9b}31m"), "\\x9b31m");
        assert_eq!(line("two\nlines"), "two\\nlines");
    }

    #[test]
    fn text_keeps_newlines() {
        assert_eq!(text("a\nb\x07"), "a\nb\\x07");
        assert_eq!(text("a\tb"), "a    b");
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(line("héllo wörld"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_stays_equal_but_safe() {
        let raw = "{\"a\":\"x\u{9b}2J\u{202e}y\u{7f}\"}\r\n";
        let safe = json(raw);
        assert!(!safe.chars().any(|c| is_unsafe(c) && c != '\n'));
        let a: serde_json::Value = serde_json::from_str(raw).unwrap_or_default();
        let b: serde_json::Value = serde_json::from_str(&safe).unwrap_or_default();
        assert_eq!(a, b);
        assert!(a.is_object());
    }

    #[test]
    fn truncates_on_char_boundaries() {
        assert_eq!(truncate("héllo", 3), "hé…");
        assert_eq!(truncate("hi", 3), "hi");
    }
}
