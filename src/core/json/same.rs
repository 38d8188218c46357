//! Whether two JSON texts are one document written two ways, told from their token streams
//! without building either: a text block that repeats structuredContent with other spacing
//! (Python's `json.dumps` writes `", "` and `": "`, the structured side is compact) costs one
//! walk of each text, not two parsed trees.
//!
//! The answer is one-sided: `true` means that serde_json would read both into equal values;
//! `false` means only that the token streams differ (members in another order, `1.0` beside `1`,
//! a surrogate escape), and the caller compares parsed values then.

use super::{Kind, Tokenizer};

/// Whether `a` and `b` hold the same tokens, whitespace aside, strings compared by what they
/// hold. Both texts must be one JSON document each (a syntax error answers `false`).
pub fn same_tokens(a: &str, b: &str) -> bool {
    let (mut x, mut y) = (Tokenizer::new(a), Tokenizer::new(b));
    loop {
        let (p, q) = match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(Ok(p)), Some(Ok(q))) => (p, q),
            _ => return false,
        };
        if p.kind != q.kind {
            return false;
        }
        let (s, t) = (p.text(a), q.text(b));
        let equal = match p.kind {
            Kind::String | Kind::Key => s == t || same_string(s, t),
            Kind::Number => s == t,
            _ => true,
        };
        if !equal {
            return false;
        }
    }
}

/// Two string literals written differently (`"é"` and `"\u00e9"`, `"/"` and `"\/"`) that hold
/// the same text. A surrogate escape on either side says no: how a lone one is read is the
/// parser's business, and the caller's fallback asks it.
fn same_string(s: &str, t: &str) -> bool {
    if has_surrogate_escape(s) || has_surrogate_escape(t) {
        return false;
    }
    match (super::unescape(s), super::unescape(t)) {
        (Some(u), Some(v)) => u == v,
        _ => false,
    }
}

fn has_surrogate_escape(lit: &str) -> bool {
    let b = lit.as_bytes();
    b.windows(3).any(|w| w[0] == b'\\' && w[1] == b'u' && matches!(w[2], b'd' | b'D'))
}

#[cfg(test)]
mod tests {
    use super::same_tokens;
    use serde_json::Value;

    fn parsed_equal(a: &str, b: &str) -> bool {
        serde_json::from_str::<Value>(a).ok() == serde_json::from_str::<Value>(b).ok()
    }

    #[test]
    fn spacing_and_escapes_are_the_same_document() {
        let cases = [
            (r#"{"id": 1, "tags": ["x", "y"], "ok": true}"#, r#"{"id":1,"tags":["x","y"],"ok":true}"#),
            (r#"["caf\u00e9", "a\/b"]"#, r#"["café","a/b"]"#),
            ("[1.5e3, null, false]", "[1.5e3,null,false]"),
            (" \n{}\t", "{}"),
        ];
        for (a, b) in cases {
            assert!(same_tokens(a, b), "{a} vs {b}");
            assert!(parsed_equal(a, b), "{a} vs {b}");
        }
    }

    #[test]
    fn a_difference_or_an_undecided_case_answers_false() {
        let cases = [
            (r#"{"a": 1, "b": 2}"#, r#"{"b":2,"a":1}"#), // equal as values: the caller parses
            ("[1.0]", "[1]"),
            (r#"["x"]"#, r#"["y"]"#),
            ("[1, 2]", "[1]"),
            (r#"["\ud800"]"#, r#"["\ud800 "]"#),
            ("[1,", "[1,"),
            ("[true]", "[null]"),
        ];
        for (a, b) in cases {
            assert!(!same_tokens(a, b), "{a} vs {b}");
        }
    }
}
