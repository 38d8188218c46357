//! Whether two schemas can take one value: a `oneOf` refuses a value two of its options take,
//! so an `anyOf` becoming a `oneOf` (or the other way round) changes which values are taken
//! unless no two options overlap. Proven only from what is plain: types that share no value,
//! `const`/`enum` values apart, or objects that must hold one property whose schemas are apart
//! (a discriminated union: `{"kind": {"const": "cat"}}` and `{"kind": {"const": "dog"}}`). What
//! is not proven apart is taken to overlap.

use serde_json::Value;

use super::{names, types};
use crate::value_set::ValueIndex;

/// More options than this are not checked pair by pair (the pairs grow as the square).
pub(super) const MAX_CHECKED: usize = 256;

/// How deep into properties the proof looks.
const MAX_LEVELS: usize = 8;

/// How much one check may look at (options, values, required names): past it, what is left is
/// taken to overlap. Properties within properties would otherwise multiply the work.
const MAX_WORK: usize = 1 << 18;

/// The first two options (positions) not proven apart; None when no two can take one value.
/// `root` is the document they are in, for their `$ref`s. Past [`MAX_CHECKED`] options, the
/// first two.
pub(super) fn overlapping(options: &[&Value], root: &Value) -> Option<(usize, usize)> {
    if options.len() > MAX_CHECKED {
        return Some((0, 1));
    }
    let mut work = MAX_WORK;
    for i in 0..options.len() {
        for j in i + 1..options.len() {
            if !apart(options[i], options[j], root, 0, &mut work) {
                return Some((i, j));
            }
        }
    }
    None
}

/// Whether no value can pass both `a` and `b`, looking at no more than `work` allows.
fn apart(a: &Value, b: &Value, root: &Value, level: usize, work: &mut usize) -> bool {
    if level > MAX_LEVELS || *work == 0 {
        return false;
    }
    *work -= 1;
    let (a, b) = (follow(a, root), follow(b, root));
    let (ma, mb) = match (a, b) {
        (Value::Bool(false), _) | (_, Value::Bool(false)) => return true,
        (Value::Object(ma), Value::Object(mb)) => (ma, mb),
        _ => return false,
    };
    let common = shared_types(ma.get("type"), mb.get("type"));
    if common.is_empty() {
        return true;
    }
    let (va, vb) = (values(ma), values(mb));
    let listed = va.as_ref().map_or(0, Vec::len) + vb.as_ref().map_or(0, Vec::len);
    if listed > *work {
        *work = 0;
        return false;
    }
    *work -= listed;
    let refused = |vals: &[&Value], t: Option<&Value>| vals.iter().all(|v| !fits(v, t));
    let none_shared = |x: &[&Value], y: &[&Value]| {
        let index = ValueIndex::new(y.iter().copied());
        !x.iter().any(|v| index.contains(v))
    };
    match (&va, &vb) {
        (Some(x), Some(y)) if none_shared(x, y) => return true,
        (Some(x), _) if refused(x, mb.get("type")) => return true,
        (_, Some(y)) if refused(y, ma.get("type")) => return true,
        _ => {}
    }
    // Objects only: apart when one must hold a property whose schemas on the two sides are.
    if common.iter().all(|t| *t == "object") {
        let (pa, pb) = (ma.get("properties"), mb.get("properties"));
        let required: Vec<&str> = names(ma.get("required")).into_iter().chain(names(mb.get("required"))).collect();
        if required.len() > *work {
            *work = 0;
            return false;
        }
        *work -= required.len();
        return required.into_iter().any(|p| match (pa.and_then(|m| m.get(p)), pb.and_then(|m| m.get(p))) {
            (Some(x), Some(y)) => crate::deep::grow(|| apart(x, y, root, level + 1, work)),
            _ => false,
        });
    }
    false
}

/// A node that is only a local `$ref`, the node it points at (one step).
fn follow<'v>(v: &'v Value, root: &'v Value) -> &'v Value {
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => crate::schema::resolve::resolve(root, r).unwrap_or(v),
        None => v,
    }
}

/// The JSON types both `type` keywords allow (integers shared by `number` and `integer`).
fn shared_types(a: Option<&Value>, b: Option<&Value>) -> Vec<&'static str> {
    let (ta, tb) = (types(a), types(b));
    let allows = |set: &std::collections::HashSet<String>, t: &str| {
        set.contains(t) || (t == "integer" && set.contains("number"))
    };
    super::ALL_TYPES.into_iter().filter(|t| allows(&ta, t) && allows(&tb, t)).collect()
}

/// The values `const` and `enum` allow, when either is written.
fn values(m: &serde_json::Map<String, Value>) -> Option<Vec<&Value>> {
    let listed = m.get("enum").and_then(Value::as_array);
    match (m.get("const"), listed) {
        (None, None) => None,
        (Some(c), None) => Some(vec![c]),
        (None, Some(a)) => Some(a.iter().collect()),
        (Some(c), Some(a)) => Some(a.iter().filter(|v| *v == c).collect()),
    }
}

/// Whether value `v` passes a `type` keyword.
fn fits(v: &Value, t: Option<&Value>) -> bool {
    let allowed = types(t);
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let integer = v.as_f64().is_some_and(|f| f.fract() == 0.0);
    allowed.contains(kind) || (integer && allowed.contains("integer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs_apart(options: Value) -> bool {
        let list: Vec<&Value> = options.as_array().unwrap().iter().collect();
        overlapping(&list, &options).is_none()
    }

    #[test]
    fn options_proven_apart() {
        assert!(pairs_apart(json!([{"type": "string"}, {"type": "integer"}, {"type": "null"}])));
        assert!(pairs_apart(json!([{"const": "a"}, {"enum": ["b", "c"]}, {"type": "integer"}])));
        // A discriminated union: each must hold `kind`, and the kinds differ.
        let cat = json!({"type": "object", "properties": {"kind": {"const": "cat"}}, "required": ["kind"]});
        let dog =
            json!({"type": "object", "properties": {"kind": {"enum": ["dog"]}, "bark": {}}, "required": ["kind"]});
        assert!(pairs_apart(json!([cat, dog])));
        let root = json!({"$defs": {"cat": cat, "dog": dog}});
        let by_ref = [&json!({"$ref": "#/$defs/cat"}), &json!({"$ref": "#/$defs/dog"})];
        assert_eq!(overlapping(&by_ref, &root), None);
    }

    #[test]
    fn options_that_may_overlap() {
        assert!(!pairs_apart(json!([{"type": "string"}, {"type": "string", "maxLength": 3}])));
        assert!(!pairs_apart(json!([{"type": "number"}, {"type": "integer"}])));
        assert!(!pairs_apart(json!([{"enum": [1, 2]}, {"type": "integer"}])));
        assert!(!pairs_apart(json!([{}, {"type": "null"}])));
        // `kind` optional on both sides: an object without it passes both.
        let a = json!({"type": "object", "properties": {"kind": {"const": "a"}}});
        let b = json!({"type": "object", "properties": {"kind": {"const": "b"}}});
        assert!(!pairs_apart(json!([a, b])));
        // Not only objects: a string passes both.
        let c = json!({"properties": {"kind": {"const": "c"}}, "required": ["kind"]});
        let d = json!({"properties": {"kind": {"const": "d"}}, "required": ["kind"]});
        assert!(!pairs_apart(json!([c, d])));
        assert_eq!(
            overlapping(&[&json!({"type": "string"}), &json!({"type": "null"}), &json!({})], &json!({})),
            Some((0, 2))
        );
    }

    #[test]
    fn properties_within_properties_stay_cheap() {
        // Each level requires 40 properties, each the level below: 40^8 paths, cut by the work
        // bound (taken to overlap, as nothing was proven).
        let mut defs = serde_json::Map::new();
        defs.insert("L0".into(), json!({"type": "object", "properties": {"k": {"const": 1}}, "required": ["k"]}));
        let names: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        for l in 1..=8 {
            let below = json!({ "$ref": format!("#/$defs/L{}", l - 1) });
            let props: serde_json::Map<String, Value> = names.iter().map(|n| (n.clone(), below.clone())).collect();
            defs.insert(format!("L{l}"), json!({"type": "object", "properties": props, "required": names}));
        }
        let root = json!({ "$defs": defs });
        let top = json!({"$ref": "#/$defs/L8"});
        let started = std::time::Instant::now();
        assert!(overlapping(&[&top, &top], &root).is_some());
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
    }
}
