//! Local `$ref` resolution (`#`, `#/$defs/X`, `#/definitions/X`, any JSON pointer into the root).
//!
//! Remote references are never fetched: mcplens does no network I/O on a schema's say-so.

use serde_json::Value;

/// Decodes one JSON-pointer token (`~1` is `/`, `~0` is `~`, plus percent-encoding from URIs).
fn unescape(token: &str) -> String {
    let token = percent_decode(token);
    token.replace("~1", "/").replace("~0", "~")
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(h);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Finds what `reference` points at inside `root`, for local references only.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    if !pointer.starts_with('/') {
        // A plain-name fragment (`#foo`) refers to an `$anchor`.
        return find_anchor(root, pointer, 0);
    }
    let mut node = root;
    for token in pointer[1..].split('/') {
        let token = unescape(token);
        node = match node {
            Value::Object(m) => m.get(&token)?,
            Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn find_anchor<'a>(node: &'a Value, anchor: &str, depth: usize) -> Option<&'a Value> {
    if depth > 64 {
        return None;
    }
    match node {
        Value::Object(m) => {
            if m.get("$anchor").and_then(Value::as_str) == Some(anchor) {
                return Some(node);
            }
            m.values().find_map(|v| find_anchor(v, anchor, depth + 1))
        }
        Value::Array(a) => a.iter().find_map(|v| find_anchor(v, anchor, depth + 1)),
        _ => None,
    }
}

/// A short display name for a reference: `#/$defs/PersonQuery` is `PersonQuery`.
pub fn ref_name(reference: &str) -> &str {
    reference.rsplit('/').next().filter(|s| !s.is_empty()).unwrap_or(reference)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_pointers_and_anchors() {
        let root = json!({
            "$defs": {"A": {"type": "string"}, "a/b": {"type": "integer"}, "C": {"$anchor": "cee", "type": "null"}},
            "definitions": {"Old": {"type": "boolean"}},
            "items": [{"type": "number"}]
        });
        assert_eq!(resolve(&root, "#/$defs/A"), Some(&json!({"type": "string"})));
        assert_eq!(resolve(&root, "#/$defs/a~1b"), Some(&json!({"type": "integer"})));
        assert_eq!(resolve(&root, "#/definitions/Old"), Some(&json!({"type": "boolean"})));
        assert_eq!(resolve(&root, "#/items/0"), Some(&json!({"type": "number"})));
        assert_eq!(resolve(&root, "#cee").and_then(|v| v.get("type")), Some(&json!("null")));
        assert_eq!(resolve(&root, "#"), Some(&root));
        assert_eq!(resolve(&root, "https://example.com/s.json"), None);
        assert_eq!(resolve(&root, "#/$defs/Missing"), None);
        assert_eq!(ref_name("#/$defs/PersonQuery"), "PersonQuery");
    }
}
