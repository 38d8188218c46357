//! Numbers a server wrote that no `Value` holds as written (`12345678901234567890123`, `1e400`,
//! `1.10`), carried through mcplens whole: read as [`wire::exact_literal`] stand-ins, shown as
//! their literal, checked against a schema as the number they read as, and sent out again as the
//! server's own digits (the tap puts the literal back). An elicitation's defaults are read so.
//!
//! [`wire::exact_literal`]: super::wire::exact_literal

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::wire;
use crate::json::{Kind, Tokenizer};

/// JSON `text` read as a value, each number literal serde_json would rewrite held as its stand-in.
pub fn read(text: &str, max_depth: usize) -> Result<Value, String> {
    let mut out = String::new();
    let mut copied = 0;
    for tok in Tokenizer::new(text) {
        let Ok(tok) = tok else { break };
        let literal = tok.text(text);
        if tok.kind != Kind::Number || crate::json::exact::is_exact(literal) {
            continue;
        }
        out.push_str(&text[copied..tok.start]);
        out.push_str(&Value::String(wire::exact_literal(literal)).to_string());
        copied = tok.end;
    }
    if copied == 0 {
        return crate::json_depth::parse(text, max_depth);
    }
    out.push_str(&text[copied..]);
    crate::json_depth::parse(&out, max_depth)
}

/// A number written as `text` (what a user typed), its literal kept when serde_json would
/// rewrite it; None when the text is no JSON number.
pub fn number(text: &str) -> Option<Value> {
    let mut toks = Tokenizer::new(text);
    let one = matches!(toks.next(), Some(Ok(t)) if t.kind == Kind::Number && t.start == 0 && t.end == text.len());
    if !one || toks.next().is_some() {
        return None;
    }
    read(text, 1).ok()
}

/// The number literal `v` stands in for, if it is a stand-in of one.
pub fn literal(v: &Value) -> Option<String> {
    let l = wire::literal_of(v.as_str()?)?;
    l.starts_with(|c: char| c == '-' || c.is_ascii_digit()).then_some(l)
}

/// `v` for a person: a string unquoted, a number stand-in as its literal, anything else as JSON
/// with the literals in place.
pub fn shown(v: &Value) -> String {
    match (literal(v), v) {
        (Some(l), _) => l,
        (None, Value::String(s)) => s.clone(),
        (None, other) => wire::with_exact_literals(&other.to_string()).into_owned(),
    }
}

/// `content` with each number stand-in replaced by the number it reads as: what a schema's
/// checks see (`type: integer`, `maximum`). Borrowed when it holds none.
pub fn as_read(content: &Map<String, Value>) -> Cow<'_, Map<String, Value>> {
    if !content.values().any(holds_stand_in) {
        return Cow::Borrowed(content);
    }
    Cow::Owned(content.iter().map(|(k, v)| (k.clone(), value_as_read(v))).collect())
}

/// As [`as_read`], for any value.
pub fn value_as_read(v: &Value) -> Value {
    crate::deep::grow(|| match v {
        Value::String(_) => match literal(v) {
            Some(l) => crate::json_depth::parse(&l, 1).unwrap_or_else(|_| v.clone()),
            None => v.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(value_as_read).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), value_as_read(x))).collect()),
        other => other.clone(),
    })
}

/// Whether `v` holds a number stand-in anywhere.
pub fn holds_stand_in(v: &Value) -> bool {
    crate::deep::grow(|| match v {
        Value::String(s) => s.starts_with('\u{0}') && literal(v).is_some(),
        Value::Array(items) => items.iter().any(holds_stand_in),
        Value::Object(m) => m.values().any(holds_stand_in),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_number_beyond_64_bits_is_kept_shown_checked_and_sent_as_written() {
        let v = read(r#"{"i": 12345678901234567890123, "n": 1.10, "s": "1e400", "k": 7}"#, 10).unwrap_or_default();
        assert_eq!(shown(&v["i"]), "12345678901234567890123");
        assert_eq!(shown(&v["n"]), "1.10");
        assert_eq!((v["s"].clone(), v["k"].clone()), (json!("1e400"), json!(7)));
        assert_eq!(shown(&v), r#"{"i":12345678901234567890123,"n":1.10,"s":"1e400","k":7}"#);
        let m = v.as_object().cloned().unwrap_or_default();
        let read = as_read(&m);
        assert_eq!(read["i"], json!(1.2345678901234568e22));
        assert_eq!(read["k"], json!(7));
        assert!(holds_stand_in(&v) && !holds_stand_in(&Value::Object(read.into_owned())));
    }

    #[test]
    fn typed_numbers_are_read_whole_and_other_text_is_none() {
        assert_eq!(number("42"), Some(json!(42)));
        assert_eq!(number("98765432109876543210").as_ref().and_then(literal).as_deref(), Some("98765432109876543210"));
        for not in ["", " 1", "1 ", "x", "\"1\"", "[1]", "1 2"] {
            assert_eq!(number(not), None, "{not:?}");
        }
        // A string a server sent that looks like a stand-in without the nonce is a string.
        assert_eq!(literal(&json!("\u{0}mcplens-literal-0000000000000000:3132")), None);
    }
}
