//! A `serde_json::Value` built from tokens with a stack on the heap.
//!
//! serde's own build recurses once per nesting level; on a grown stack ([`super::depth`]) that
//! costs about 3 KB a level, so a 180 KB reply nested 90,000 deep took 300 MB. Built here, a
//! level costs what its `Value` holds.

use serde_json::{Map, Value};

use super::{Kind, Tokenizer};

/// A container being filled: an array, or an object with the key its next value goes under.
enum Open {
    Array(Vec<Value>),
    Object(Vec<(String, Value)>, String),
}

/// `text` as a `Value`, at any depth. `None` when the text is not one JSON document, or holds a
/// number or string serde_json refuses (`1e400`, a lone surrogate): the caller's parse then
/// reports the fault in serde_json's words.
pub fn value(text: &str) -> Option<Value> {
    let mut open: Vec<Open> = Vec::new();
    let mut root = None;
    for token in Tokenizer::new(text) {
        let token = token.ok()?;
        let piece = token.text(text);
        let done = match token.kind {
            Kind::ArrayOpen => {
                open.push(Open::Array(Vec::new()));
                continue;
            }
            Kind::ObjectOpen => {
                open.push(Open::Object(Vec::new(), String::new()));
                continue;
            }
            Kind::Key => {
                if let Some(Open::Object(_, key)) = open.last_mut() {
                    *key = serde_json::from_str(piece).ok()?;
                }
                continue;
            }
            Kind::ArrayClose | Kind::ObjectClose => match open.pop()? {
                // A one-member container per level is what deep documents are made of: room
                // for four would triple their cost.
                Open::Array(mut items) => {
                    items.shrink_to_fit();
                    Value::Array(items)
                }
                Open::Object(members, _) => {
                    let mut map = Map::with_capacity(members.len());
                    for (k, v) in members {
                        map.insert(k, v);
                    }
                    Value::Object(map)
                }
            },
            Kind::String => Value::String(serde_json::from_str(piece).ok()?),
            Kind::Number => serde_json::from_str(piece).ok()?,
            Kind::True => Value::Bool(true),
            Kind::False => Value::Bool(false),
            Kind::Null => Value::Null,
        };
        match open.last_mut() {
            Some(Open::Array(items)) => items.push(done),
            Some(Open::Object(members, key)) => members.push((std::mem::take(key), done)),
            // The tokens after the root can only be a fault (trailing text), said as an error.
            None => root = Some(done),
        }
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_what_serde_json_builds() {
        for text in [
            r#"{"a":[1,-0,2.5e3,"x\u00e9\n",true,false,null,{}],"b":{"c":[]},"a":7}"#,
            r#"  [ 123456789012345678901 , 1e-7, "\ud83d\ude00" ]  "#,
            "\"plain\"",
            "0",
        ] {
            let want: Value = serde_json::from_str(text).unwrap_or_default();
            assert_eq!(value(text), Some(want), "{text}");
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in ["", "[1,]", "{\"a\":1", "[1e400]", "[\"\\ud800\"]", "[1] 2", "{\"a\" 1}"] {
            assert_eq!(value(text), None, "{text}");
        }
    }

    #[test]
    fn any_depth() {
        let deep = format!("{}1{}", "[".repeat(200_000), "]".repeat(200_000));
        let v = value(&deep);
        assert_eq!(v.as_ref().map(crate::deep::depth), Some(200_000));
        if let Some(v) = v {
            crate::deep::drop_value(v);
        }
    }
}
