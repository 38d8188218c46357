//! Pretty-prints JSON text as it was sent: it re-indents the text's own tokens instead of parsing
//! into a value and serializing again, so numbers, escapes and key order stay byte for byte.
//! The tokens are [`crate::json`]'s (iterative: any depth is safe).

use crate::json::{Kind, Tokenizer};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Key,
    String,
    Number,
    Bool,
    Null,
    Punct,
    Space,
}

/// One output line: `(token kind, text)` pieces.
pub type Line = Vec<(Token, String)>;

/// Pretty-printed lines of `raw`, from its tokens. Text that stops being JSON is laid out up to
/// the fault, and the rest shown as it is, a line of it per line; the output is bounded by
/// `max_lines` (a last line says how much was left out).
pub fn lines(raw: &str, max_lines: usize) -> Vec<Line> {
    let mut out: Vec<Line> = vec![];
    let mut cur: Line = vec![];
    let push_line = |out: &mut Vec<Line>, cur: &mut Line, depth: usize| {
        out.push(std::mem::take(cur));
        cur.push((Token::Space, "  ".repeat(depth.min(64))));
    };
    let bound = |out: &mut Vec<Line>, at: usize| {
        let left = out.len() >= max_lines;
        if left {
            out.push(vec![(Token::Punct, format!("… ({} more bytes not shown)", raw.len().saturating_sub(at)))]);
        }
        left
    };
    // What came last: an opening (its line break waits: `{}` stays on one line) or a value (a
    // comma is owed before the next one).
    let (mut after_open, mut after_value) = (false, false);
    let mut read = 0usize;
    let mut toks = Tokenizer::new(raw);
    for tok in toks.by_ref() {
        let Ok(tok) = tok else { break };
        let close = tok.kind.is_close();
        if after_open && !close {
            push_line(&mut out, &mut cur, tok.depth);
        } else if after_value && !close {
            cur.push((Token::Punct, ",".into()));
            push_line(&mut out, &mut cur, tok.depth);
        } else if close && !after_open {
            push_line(&mut out, &mut cur, tok.depth);
        }
        if bound(&mut out, tok.start) {
            return out;
        }
        let text = tok.text(raw).to_string();
        let piece = match tok.kind {
            Kind::ObjectOpen | Kind::ArrayOpen | Kind::ObjectClose | Kind::ArrayClose => Token::Punct,
            Kind::Key => Token::Key,
            Kind::String => Token::String,
            Kind::Number => Token::Number,
            Kind::True | Kind::False => Token::Bool,
            Kind::Null => Token::Null,
        };
        cur.push((piece, text));
        if tok.kind == Kind::Key {
            cur.push((Token::Punct, ": ".into()));
        }
        after_open = tok.kind.is_open();
        after_value = !after_open && tok.kind != Kind::Key;
        read = tok.end;
    }
    // Not JSON from here on (or nothing but whitespace after the document).
    let rest = raw.get(read..).unwrap_or_default().trim_start_matches([' ', '\n', '\r', '\t']);
    if !rest.is_empty() {
        let indent = toks.depth();
        for (k, line) in rest.lines().enumerate() {
            if k > 0 || !cur.iter().all(|(t, _)| *t == Token::Space) {
                push_line(&mut out, &mut cur, indent);
            }
            if bound(&mut out, raw.len() - rest.len()) {
                return out;
            }
            cur.push((Token::Punct, line.to_string()));
        }
    }
    if !cur.iter().all(|(t, _)| *t == Token::Space) {
        out.push(cur);
    }
    out
}

/// The lines as plain text (for tests and exports).
pub fn to_string(lines: &[Line]) -> String {
    lines.iter().map(|l| l.iter().map(|(_, s)| s.as_str()).collect::<String>()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bytes_and_lays_out() {
        let raw = r#"{"b":1.50,"a":[9007199254740993,true,null,"x\"y"],"e":{},"f":[]}"#;
        let text = to_string(&lines(raw, 1000));
        assert_eq!(
            text,
            "{\n  \"b\": 1.50,\n  \"a\": [\n    9007199254740993,\n    true,\n    null,\n    \"x\\\"y\"\n  ],\n  \"e\": {},\n  \"f\": []\n}"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(v["a"][0].to_string(), "9007199254740993");
    }

    #[test]
    fn marks_keys_and_bounds_output() {
        let l = lines(r#"{"k":"v"}"#, 100);
        assert!(l[1].iter().any(|(t, s)| *t == Token::Key && s == "\"k\""));
        assert!(l[1].iter().any(|(t, s)| *t == Token::String && s == "\"v\""));
        let big = format!("[{}]", vec!["1"; 1000].join(","));
        let l = lines(&big, 10);
        assert_eq!(l.len(), 11);
        assert!(to_string(&l).contains("more bytes not shown"));
        let _ = lines("{{{{]]]]\"unterminated", 100);
    }

    #[test]
    fn lays_out_every_shape() {
        let raw = " {\"k\\\"é\" :\"v\\u00e9😀\",\"n\":[-1.5e+3,2E-2],\"e\":[{},[ ]],\"b\":[true,false,null]}\n";
        assert_eq!(
            to_string(&lines(raw, 100)),
            "{\n  \"k\\\"é\": \"v\\u00e9😀\",\n  \"n\": [\n    -1.5e+3,\n    2E-2\n  ],\n  \"e\": [\n    {},\n    []\n  ],\n  \"b\": [\n    true,\n    false,\n    null\n  ]\n}"
        );
        assert_eq!(to_string(&lines(" 1e5 ", 10)), "1e5");
        assert_eq!(to_string(&lines("[]", 10)), "[]");
        assert!(lines("  ", 10).is_empty());
    }

    #[test]
    fn broken_text_is_laid_out_up_to_the_fault_and_shown_after() {
        assert_eq!(to_string(&lines(r#"{"a": [1, tru"#, 100)), "{\n  \"a\": [\n    1\n    , tru");
        assert_eq!(to_string(&lines("[1] x\ny", 100)), "[\n  1\n]\nx\ny");
        assert_eq!(to_string(&lines("\"\\x\"", 100)), "\"\\x\"");
        let l = lines(&"[".repeat(50), 10);
        assert_eq!(l.len(), 11);
    }

    #[test]
    fn any_depth_without_overflow() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let l = lines(&deep, 1_000_000);
        assert_eq!(l.len(), 199_999);
        assert_eq!(lines(&deep[..100_000], 10).len(), 11);
    }
}
