//! Deep JSON without deep recursion.
//!
//! `--max-depth` lets a server nest JSON as deep as memory allows, so nothing that walks a value
//! may need one native stack frame per level on a fixed stack. Our own walks call [`grow`] at
//! each level (the stack then grows on the heap, a segment at a time, as deep as needed); dropping
//! a value and serializing one, which serde_json does recursively, are done here instead; and the
//! threads that handle server data get a roomy stack ([`MAIN_STACK`]) as a net under recursion we
//! do not own (a library's).

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
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

/// Serializes a value like serde_json does, growing the stack as it goes deeper.
pub struct Deep<'a>(pub &'a Value);

impl Serialize for Deep<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        grow(|| match self.0 {
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Deep(item))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    m.serialize_entry(k, &Deep(v))?;
                }
                m.end()
            }
            leaf => leaf.serialize(s),
        })
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

/// A deep copy of `value`, without recursion.
pub fn clone_value(value: &Value) -> Value {
    grow(|| match value {
        Value::Array(items) => Value::Array(items.iter().map(clone_value).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), clone_value(v))).collect()),
        leaf => leaf.clone(),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

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
        drop_value(v);
        drop_value(copy);
        let a = deep_array(100_000);
        let text = serde_json::to_string(&Deep(&a)).unwrap_or_default();
        assert!(text.starts_with("[[[") && text.ends_with("]]]"));
        assert_eq!(depth(&a), 100_000);
        drop_value(a);
        assert_eq!(depth(&serde_json::json!({"a": [1, {"b": []}], "c": 2})), 4);
        assert_eq!(depth(&Value::from(1)), 0);
    }
}
