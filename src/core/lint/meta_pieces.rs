//! A large schema checked against its dialect's meta-schema one node at a time: each node is
//! checked with its subschemas stood in for by `{}` (each checked in its turn), and the values
//! the meta-schema does not look into (`default`, `const`, `examples`, `enum`, unknown keywords)
//! by empty ones of the same type. The meta-schema applies itself to each subschema, so the pieces
//! pass exactly when the whole does, and no piece costs more than a small node's `Value`.

use serde_json::{Map, Value};

use super::spans::{Doc, Members, Node};

/// The bundled drafts whose meta-schemas differ in where subschemas are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    D4,
    D6,
    D7,
    D2019,
    D2020,
}

impl Draft {
    /// The draft a `$schema` names, as the validator reads it (anything else: the newest).
    pub fn of(dialect: Option<&str>) -> Draft {
        match dialect {
            Some(d) if d.contains("draft-04") => Draft::D4,
            Some(d) if d.contains("draft-06") => Draft::D6,
            Some(d) if d.contains("draft-07") => Draft::D7,
            Some(d) if d.contains("2019-09") => Draft::D2019,
            _ => Draft::D2020,
        }
    }
}

/// Where a keyword's value holds subschemas, in a draft's meta-schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// One subschema.
    One,
    /// An array of subschemas.
    List,
    /// An object whose members are subschemas.
    Map,
    /// A value the meta-schema constrains (kept as it is).
    Kept,
    /// A value the meta-schema does not look into (stood in for by an empty one).
    Free,
}

/// Keywords whose values the meta-schemas constrain, apart from subschemas.
const KEPT: &[&str] = &[
    "$schema",
    "$id",
    "id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "$comment",
    "title",
    "description",
    "deprecated",
    "readOnly",
    "writeOnly",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "type",
    "format",
    "contentEncoding",
    "contentMediaType",
];

/// Where `key` holds subschemas in `draft` (`items` as an array: a list where a draft allows it).
pub fn place(draft: Draft, key: &str, array: bool) -> Place {
    use Draft::*;
    let old = matches!(draft, D4 | D6 | D7);
    match key {
        "allOf" | "anyOf" | "oneOf" => Place::List,
        "items" if array && draft != D2020 => Place::List,
        "prefixItems" if draft == D2020 => Place::List,
        "properties" | "patternProperties" | "definitions" | "dependencies" => Place::Map,
        "$defs" | "dependentSchemas" if !old => Place::Map,
        "items" | "not" | "additionalProperties" => Place::One,
        "additionalItems" if draft != D2020 => Place::One,
        "contains" | "propertyNames" if draft != D4 => Place::One,
        "if" | "then" | "else" if !matches!(draft, D4 | D6) => Place::One,
        "unevaluatedItems" | "unevaluatedProperties" | "contentSchema" if !old => Place::One,
        k if KEPT.contains(&k) => Place::Kept,
        _ => Place::Free,
    }
}

/// Whether `raw` stands as a subschema checked on its own (an object; a boolean from draft 6).
pub fn is_subschema(draft: Draft, raw: Node<'_>) -> bool {
    match starts(raw) {
        b'{' => true,
        b't' | b'f' => draft != Draft::D4,
        _ => false,
    }
}

/// The node `members` as checked against the meta-schema, `$schema` the root's (`dialect`).
pub fn piece(draft: Draft, doc: &Doc<'_>, members: &Members<'_>, dialect: Option<&Value>, max_depth: usize) -> Value {
    let mut out = Map::new();
    for &(ref k, v) in members {
        let array = starts(v) == b'[';
        let value = match place(draft, k, array) {
            Place::Kept => parsed(v, max_depth),
            Place::Free => empty_of(v, max_depth),
            Place::One if is_subschema(draft, v) && starts(v) == b'{' => Value::Object(Map::new()),
            Place::One => empty_of(v, max_depth),
            Place::List if array => list(draft, doc, v, max_depth),
            Place::Map if starts(v) == b'{' => map(draft, doc, k, v, max_depth),
            Place::List | Place::Map => empty_of(v, max_depth),
        };
        out.insert(k.to_string(), value);
    }
    out.remove("$schema");
    if let Some(d) = dialect {
        out.insert("$schema".into(), d.clone());
    }
    Value::Object(out)
}

/// What kind of JSON `node` is, from its first byte.
pub fn starts(node: Node<'_>) -> u8 {
    node.text.trim_start().bytes().next().unwrap_or(b' ')
}

fn parsed(raw: Node<'_>, max_depth: usize) -> Value {
    crate::json_depth::parse(raw.text, max_depth).unwrap_or(Value::Null)
}

/// An empty value of the type `raw` has (a scalar as it is).
fn empty_of(raw: Node<'_>, max_depth: usize) -> Value {
    match starts(raw) {
        b'{' => Value::Object(Map::new()),
        b'[' => Value::Array(vec![]),
        _ => parsed(raw, max_depth),
    }
}

/// An array of subschemas: the first element that is not one, and `{}` for those that are (each
/// checked on its own), so that an empty array stays empty and a wrong element stays wrong.
fn list(draft: Draft, doc: &Doc<'_>, raw: Node<'_>, max_depth: usize) -> Value {
    let items = doc.elements(raw).unwrap_or_default();
    let mut out = vec![];
    if let Some(wrong) = items.iter().find(|v| !is_subschema(draft, **v)) {
        out.push(empty_of(*wrong, max_depth));
    }
    if items.iter().any(|v| is_subschema(draft, *v)) {
        out.push(Value::Object(Map::new()));
    }
    Value::Array(out)
}

/// An object of subschemas: its members that are not subschemas (of `dependencies`, the lists of
/// names; of others, the first wrong one); `patternProperties` keeps every name (the meta-schema
/// checks that each is a regular expression).
fn map(draft: Draft, doc: &Doc<'_>, key: &str, raw: Node<'_>, max_depth: usize) -> Value {
    let Some(list) = doc.members(raw) else { return Value::Object(Map::new()) };
    let mut out = Map::new();
    let mut wrong = 0;
    for &(ref name, v) in &list {
        if is_subschema(draft, v) {
            if key == "patternProperties" {
                out.insert(name.to_string(), Value::Object(Map::new()));
            }
        } else if key == "dependencies" && starts(v) == b'[' {
            out.insert(name.to_string(), parsed(v, max_depth));
        } else if wrong == 0 {
            wrong += 1;
            out.insert(name.to_string(), empty_of(v, max_depth));
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn whole_and_pieces(schema: &Value) -> (bool, bool) {
        let text = schema.to_string();
        let whole = jsonschema::meta::validate(schema).is_ok();
        (whole, super::super::schema::meta_by_pieces(&text, 200).is_ok())
    }

    /// The pieces pass exactly when the whole does, in each draft, for right and wrong schemas.
    #[test]
    fn pieces_agree_with_the_whole() {
        let drafts = [
            None,
            Some("http://json-schema.org/draft-04/schema#"),
            Some("http://json-schema.org/draft-07/schema#"),
            Some("https://json-schema.org/draft/2019-09/schema"),
        ];
        let bodies = [
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"items": {"minimum": 1}}}}),
            json!({"type": "object", "properties": {"a": {"type": "strin"}}}),
            json!({"properties": {"a": {"properties": {"b": {"minLength": -1}}}}}),
            json!({"anyOf": []}),
            json!({"anyOf": [{}, 5]}),
            json!({"items": [{"type": "string"}, {"type": 3}]}),
            json!({"dependencies": {"a": ["b", "b"], "c": {"type": "x"}}}),
            json!({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}),
            json!({"properties": {"a": true, "b": false}}),
            json!({"$defs": {"a": {"type": 5}}, "default": {"type": 5}, "enum": [{"type": 5}]}),
            json!({"if": {"type": "nope"}, "x-free": {"type": 5}}),
            json!({"required": ["a", "a"]}),
            json!({"not": {"not": {"not": {"enum": 5}}}}),
            json!({"prefixItems": [{"type": 7}]}),
            json!({"contentSchema": {"type": 7}}),
        ];
        for d in drafts {
            for body in &bodies {
                let mut s = body.clone();
                if let (Some(d), Some(o)) = (d, s.as_object_mut()) {
                    o.insert("$schema".into(), json!(d));
                }
                let (whole, pieces) = whole_and_pieces(&s);
                assert_eq!(whole, pieces, "{s}");
            }
        }
    }
}
