//! Deep JSON without deep recursion.
//!
//! `--max-depth` lets a server nest JSON as deep as memory allows, so nothing that walks a value
//! may need one native stack frame per level on a fixed stack. Our own walks call [`grow`] at
//! each level (the stack then grows on the heap, a segment at a time, as deep as needed); dropping
//! a value and serializing one, which serde_json does recursively, are done here instead; and the
//! threads that handle server data get a roomy stack ([`MAIN_STACK`]) as a net under recursion we
//! do not own (a library's).

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// Room left on the stack below which [`grow`] moves on to a new segment.
const RED_ZONE: usize = 128 << 10;
/// The size of each new stack segment.
const SEGMENT: usize = 2 << 20;

/// Runs `f`, first moving to a new stack segment if this one is nearly used up. Call it at each
/// level of a recursive walk over server data.
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Runs `f` with at least `room` bytes of stack left, moving to a new segment if needed: for a
/// library's recursion whose depth we have bounded first.
pub fn with_room<R>(room: usize, f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(room, room.saturating_mul(2), f)
}

/// The deepest nesting of arrays and objects in `value` (a scalar is 0), without recursion.
pub fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter().map(|i| (i, d + 1))),
            Value::Object(map) => stack.extend(map.values().map(|i| (i, d + 1))),
            _ => continue,
        }
        deepest = deepest.max(d + 1);
    }
    deepest
}

/// The stack of the thread that runs a command or the TUI, and of the runtime's workers: a net
/// under recursion we do not own (dropping a value, a library's walk), which costs memory only for
/// the pages used. Kept moderate, as it counts against an address-space limit (`ulimit -v`).
pub const MAIN_STACK: usize = 256 << 20;
pub const WORKER_STACK: usize = 64 << 20;

/// Drops `value` without recursion: serde_json's own drop takes a stack frame per level.
pub fn drop_value(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Serializes a value like serde_json does. A value nested deeper than [`SHALLOW`] is written
/// as JSON text on a heap stack first, then handed on as raw JSON: serde's recursion, even on a
/// grown stack, costs about a kilobyte a level.
pub struct Deep<'a>(pub &'a Value);

/// Nesting that serde_json's recursive writer handles on any thread's stack.
const SHALLOW: usize = 100;

impl Serialize for Deep<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !deeper_than(self.0, SHALLOW) {
            return self.0.serialize(s);
        }
        let raw = serde_json::value::RawValue::from_string(compact(self.0)).map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

/// Whether `value` nests deeper than `limit`, stopping as soon as it does.
fn deeper_than(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((v, d)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if d + 1 > limit {
            return true;
        }
        stack.extend(children.filter(|c| c.is_array() || c.is_object()).map(|c| (c, d + 1)));
    }
    false
}

/// `value` as compact JSON, as `serde_json::to_string` writes it, without recursion.
pub fn compact(value: &Value) -> String {
    enum Open<'a> {
        Array(std::slice::Iter<'a, Value>),
        Object(serde_json::map::Iter<'a>),
    }
    let mut out = String::new();
    let mut open: Vec<(Open<'_>, bool)> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Array(items) => {
                    out.push('[');
                    open.push((Open::Array(items.iter()), true));
                }
                Value::Object(map) => {
                    out.push('{');
                    open.push((Open::Object(map.iter()), true));
                }
                leaf => out.push_str(&serde_json::to_string(leaf).unwrap_or_default()),
            }
        }
        let Some((top, first)) = open.last_mut() else { return out };
        let item = match top {
            Open::Array(items) => items.next().map(|v| (None, v)),
            Open::Object(members) => members.next().map(|(k, v)| (Some(k), v)),
        };
        match item {
            Some((key, v)) => {
                if !std::mem::replace(first, false) {
                    out.push(',');
                }
                if let Some(k) = key {
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push(':');
                }
                next = Some(v);
            }
            None => {
                out.push(if matches!(top, Open::Array(_)) { ']' } else { '}' });
                open.pop();
            }
        }
    }
}

/// For `#[serde(serialize_with)]` on a field holding server JSON.
pub fn serialize<S: Serializer>(value: &Value, s: S) -> Result<S::Ok, S::Error> {
    Deep(value).serialize(s)
}

/// For `#[serde(serialize_with)]` on an optional map of server JSON.
pub fn serialize_members<S: Serializer>(members: &Option<Map<String, Value>>, s: S) -> Result<S::Ok, S::Error> {
    let Some(map) = members else { return s.serialize_none() };
    let mut m = s.serialize_map(Some(map.len()))?;
    for (k, v) in map {
        m.serialize_entry(k, &Deep(v))?;
    }
    m.end()
}

/// The first `max` bytes (about: cut at a character boundary) of `value` as compact JSON, without
/// writing the rest: a one-line summary of a value of any size or depth.
pub fn to_string_prefix(value: &Value, max: usize) -> String {
    struct Capped(Vec<u8>, usize);
    impl std::io::Write for Capped {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            let room = self.1.saturating_sub(self.0.len());
            self.0.extend_from_slice(&data[..data.len().min(room)]);
            if data.len() > room {
                // Stops the serializer: the rest would be cut anyway.
                return Err(std::io::Error::other("full"));
            }
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped(Vec::new(), max);
    let _ = serde_json::to_writer(&mut out, &Deep(value));
    String::from_utf8_lossy(&out.0).into_owned()
}

/// A value held for long (a form's schema): dropped without recursion, cloned on a growing
/// stack, shown in `Debug` as its first bytes.
#[derive(Default)]
pub struct Owned(pub Value);

impl Owned {
    pub fn copy(v: &Value) -> Owned {
        Owned(clone_value(v))
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        drop_value(std::mem::take(&mut self.0));
    }
}

impl Clone for Owned {
    fn clone(&self) -> Owned {
        Owned::copy(&self.0)
    }
}

impl std::ops::Deref for Owned {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.0
    }
}

impl std::ops::DerefMut for Owned {
    fn deref_mut(&mut self) -> &mut Value {
        &mut self.0
    }
}

impl std::fmt::Debug for Owned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_string_prefix(&self.0, 200))
    }
}

/// Whether two values are equal (as `==` says), without recursion.
pub fn equal(a: &Value, b: &Value) -> bool {
    equal_with(a, b, |x, y| x == y)
}

/// Whether two values have the same shape, with `leaves` deciding whether two scalars are
/// equal, without recursion. Object members are matched by key, whatever their order.
pub fn equal_with(a: &Value, b: &Value, leaves: impl Fn(&Value, &Value) -> bool) -> bool {
    let mut stack = vec![(a, b)];
    while let Some(pair) = stack.pop() {
        match pair {
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => stack.extend(x.iter().zip(y)),
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (k, v) in x {
                    let Some(w) = y.get(k) else { return false };
                    stack.push((v, w));
                }
            }
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => return false,
            (x, y) if !leaves(x, y) => return false,
            _ => {}
        }
    }
    true
}

/// A deep copy of `value`. serde_json's clone recurses once per level on whatever stack it is
/// on; a value nested deeper than [`SHALLOW`] is copied through its text, read back on a heap stack.
pub fn clone_value(value: &Value) -> Value {
    if !deeper_than(value, SHALLOW) {
        return value.clone();
    }
    crate::json::build::value(&compact(value)).unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn compact_writes_what_serde_json_writes() {
        let v: Value = serde_json::from_str(
            r#"{"a":[1,-0.0,2.5e30,"x\u00e9\n\u001b",true,false,null,{},[]],"b":{"c\"":[[{"d":1}]]},"e":1e-7}"#,
        )
        .unwrap_or_default();
        assert_eq!(compact(&v), serde_json::to_string(&v).unwrap_or_default());
        assert_eq!(compact(&Value::Null), "null");
    }

    #[test]
    fn deep_values_serialize_as_shallow_ones_do() {
        for levels in [SHALLOW - 1, SHALLOW, SHALLOW + 1, 150_000] {
            let v = deep_object(levels);
            let text = serde_json::to_string(&Deep(&v)).unwrap_or_default();
            assert_eq!(text.len(), compact(&v).len(), "{levels}");
            assert!(text.starts_with(r#"{"a":{"a":"#) && text.ends_with("}}"), "{levels}");
            drop_value(v);
        }
        assert!(deeper_than(&deep_array(3), 2) && !deeper_than(&deep_array(3), 3));
    }

    /// `[[[...1...]]]`, `depth` levels deep, built without recursion.
    pub fn deep_array(depth: usize) -> Value {
        let mut v = Value::from(1);
        for _ in 0..depth {
            v = Value::Array(vec![v]);
        }
        v
    }

    /// `{"a":{"a":...1...}}`, `depth` levels deep.
    pub fn deep_object(depth: usize) -> Value {
        let mut v = Value::from(1);
        for _ in 0..depth {
            let mut m = serde_json::Map::new();
            m.insert("a".into(), v);
            v = Value::Object(m);
        }
        v
    }

    #[test]
    fn drops_serializes_and_clones_100k_levels() {
        let v = deep_object(100_000);
        let text = serde_json::to_string(&Deep(&v)).unwrap_or_default();
        assert_eq!(text.len(), 100_000 * 6 + 1);
        let copy = clone_value(&v);
        assert!(equal(&v, &copy));
        let shorter = deep_object(99_999);
        assert!(!equal(&v, &shorter));
        drop_value(shorter);
        drop_value(v);
        drop_value(copy);
        let a = deep_array(100_000);
        let text = serde_json::to_string(&Deep(&a)).unwrap_or_default();
        assert!(text.starts_with("[[[") && text.ends_with("]]]"));
        assert_eq!(depth(&a), 100_000);
        assert_eq!(to_string_prefix(&a, 10), "[[[[[[[[[[");
        drop_value(a);
        assert_eq!(depth(&serde_json::json!({"a": [1, {"b": []}], "c": 2})), 4);
        assert_eq!(depth(&Value::from(1)), 0);
    }
}

/// Every walk of server JSON, at 100,000 levels, on a test thread's small stack (2 MiB): parsing,
/// the reply and its envelope, the schema tree, the form model, validation, pretty output.
#[cfg(test)]
mod walks {
    use std::sync::Arc;
    use std::time::Duration;

    use serde_json::Value;

    use super::tests::deep_array;
    use super::*;

    const LEVELS: usize = 100_000;

    fn deep_text(open: &str, leaf: &str, close: &str) -> String {
        format!("{}{leaf}{}", open.repeat(LEVELS), close.repeat(LEVELS))
    }

    #[test]
    fn parses_and_checks() {
        for text in [deep_text("[", "1", "]"), deep_text(r#"{"a":"#, "1", "}")] {
            assert_eq!(crate::json_depth::depth(&text), LEVELS);
            assert!(crate::json_depth::parse::<Value>(&text, LEVELS - 1).is_err());
            let v: Value = crate::json_depth::parse(&text, LEVELS).unwrap_or_default();
            assert_eq!(depth(&v), LEVELS);
            drop_value(v);
            assert!(crate::json_depth::validate(&text).is_ok());
        }
    }

    #[test]
    fn a_reply_becomes_an_envelope_and_pretty_text() {
        let deep = deep_text("[", "1", "]");
        let raw =
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"structuredContent":{{"deep":{deep}}}}}}}"#);
        let reply = crate::mcp::Reply::parse(Arc::new(raw), Duration::ZERO, LEVELS + 10);
        let Ok(reply) = reply else { panic!("{:?}", reply.err()) };
        let call = crate::call::Call { tool: "t", arguments: None, descriptor: None, hint: None };
        let mut envelope = call.read(reply).envelope;
        let text = crate::json_out::to_pretty_string(&envelope);
        // Indentation stops at 32 levels: the output stays a small multiple of the input.
        assert!(text.len() < 4 * deep.len(), "{} bytes", text.len());
        assert!(text.contains("[[[[[[1]]]]]]"));
        let out = crate::json_out::write_envelope(Vec::new(), &mut envelope).unwrap_or_default();
        assert!(out.len() < 4 * deep.len());
        if let crate::envelope::Data::Value(v) = std::mem::take(&mut envelope.data) {
            drop_value(v);
        }
    }

    #[test]
    fn schema_tree_form_and_validation() {
        let objects = deep_text(r#"{"type":"object","properties":{"n":"#, r#"{"type":"string"}"#, "}}");
        let anyofs = deep_text(r#"{"anyOf":[{"type":"null"},"#, r#"{"type":"string"}"#, "]}");
        let facts = format!(
            r#"{{"type":"object","x-deep":{},"enum":[{}]}}"#,
            deep_text("[", "1", "]"),
            deep_text("[", "2", "]")
        );
        for text in [objects, anyofs, facts] {
            // Owned: a failed assertion unwinds through its (iterative) drop.
            let schema = Owned(crate::json_depth::parse(&text, usize::MAX).unwrap_or_default());
            let tree = crate::schema::tree::build(&schema);
            let lines = crate::schema::text::lines(&tree, 0).len();
            assert!(lines <= 2 * crate::schema::tree::MAX_DEPTH + 2, "{lines} lines");
            let mut form = crate::schema::form::Form::new(&schema);
            let _ = form.arguments();
            let other = Owned(deep_array(LEVELS));
            let _ = form.load(&other);
            let err = crate::schema::validate::validate(&schema, &Value::Null).err().unwrap_or_default();
            assert!(err.contains("levels deep"), "{err}");
            drop(form);
        }
    }
}
