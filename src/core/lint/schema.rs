//! A tool's input and output schemas: their type, their dialect, keywords of other drafts,
//! references outside the document, validity, and what Gemini CLI strips.

use serde_json::Value;

use super::Finding;

/// Schema levels walked: deeper schemas are rare and their keywords are checked by validation.
const MAX_WALK: usize = 64;
/// Findings of one kind kept per schema (a generated schema repeats the same keyword hundreds
/// of times; the first few say it).
const MAX_SAME: usize = 3;

/// Keywords that hold one subschema.
const ONE: &[&str] = &[
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "items",
];
/// Keywords that hold a list of subschemas.
const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords that hold a map of subschemas.
const MAP: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Keywords of drafts before 2020-12 that 2020-12 replaced, and what replaced them.
const OLD: &[(&str, &str)] = &[
    ("definitions", "$defs"),
    ("dependencies", "dependentRequired / dependentSchemas"),
    ("additionalItems", "items (with prefixItems)"),
    ("$recursiveRef", "$dynamicRef"),
    ("$recursiveAnchor", "$dynamicAnchor"),
];

pub fn check(tool: &str, desc: &Value) -> Vec<Finding> {
    let mut out = vec![];
    match desc.get("inputSchema") {
        Some(s) if s.get("type").and_then(Value::as_str) == Some("object") => out.extend(one(tool, "/inputSchema", s)),
        Some(s) => {
            let what = if s.is_object() { "its type is not \"object\"" } else { "it is not an object" };
            out.push(Finding::new(
                "input-schema/object",
                Some(tool),
                Some("/inputSchema".into()),
                format!("inputSchema: {what}"),
            ));
            if s.is_object() {
                out.extend(one(tool, "/inputSchema", s));
            }
        }
        None => {
            out.push(Finding::new("input-schema/object", Some(tool), Some("/inputSchema".into()), "no inputSchema"))
        }
    }
    if let Some(s) = desc.get("outputSchema").filter(|s| !s.is_null()) {
        if s.get("type").and_then(Value::as_str) != Some("object") {
            out.push(Finding::new(
                "output-schema/object",
                Some(tool),
                Some("/outputSchema".into()),
                "outputSchema: its type is not \"object\"",
            ));
        }
        if s.is_object() {
            out.extend(one(tool, "/outputSchema", s));
        }
    }
    out
}

/// The findings of one schema.
fn one(tool: &str, at: &str, schema: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let dialect = schema.get("$schema").and_then(Value::as_str);
    let modern = dialect.is_none_or(|d| d.contains("2020-12"));
    if let Some(d) = dialect.filter(|_| !modern) {
        out.push(Finding::new(
            "schema/dialect",
            Some(tool),
            Some(format!("{at}/$schema")),
            format!("$schema is {d:?}, not 2020-12"),
        ));
    }
    let mut walk = Walk { tool, out: vec![], modern, counts: [0; 3] };
    walk.visit(schema, at, 0);
    let remote = walk.counts[1] > 0;
    out.append(&mut walk.out);
    if !remote && let Err(e) = compiles(schema) {
        out.push(Finding::new(
            "schema/invalid",
            Some(tool),
            Some(at.into()),
            format!("the schema does not compile: {}", super::session::short(&e)),
        ));
    }
    if at == "/inputSchema" && contains_key(schema, "additionalProperties", 0) {
        out.push(Finding::new(
            "host/gemini-cli/schema-stripped",
            Some(tool),
            Some(at.into()),
            "Gemini CLI removes additionalProperties before the model sees the schema: it may send properties this schema forbids",
        ));
    }
    out
}

struct Walk<'a> {
    tool: &'a str,
    out: Vec<Finding>,
    modern: bool,
    /// Findings so far: old keywords, remote refs, (unused).
    counts: [usize; 3],
}

impl Walk<'_> {
    fn visit(&mut self, s: &Value, at: &str, depth: usize) {
        let Some(obj) = s.as_object() else { return };
        if depth > MAX_WALK {
            return;
        }
        if self.modern {
            for (k, instead) in OLD {
                if obj.contains_key(*k) {
                    self.note(
                        0,
                        "schema/draft-keyword",
                        format!("{at}/{k}"),
                        format!("{k} is not a 2020-12 keyword (use {instead}); validators ignore it"),
                    );
                }
            }
            if obj.get("items").is_some_and(Value::is_array) {
                self.note(
                    0,
                    "schema/draft-keyword",
                    format!("{at}/items"),
                    "items as an array is the tuple form of older drafts (2020-12: prefixItems)".into(),
                );
            }
        }
        if let Some(r) = obj.get("$ref").and_then(Value::as_str)
            && !r.starts_with('#')
        {
            self.note(1, "schema/remote-ref", format!("{at}/$ref"), format!("$ref {r:?} points outside the schema"));
        }
        for (k, v) in obj {
            let path = format!("{at}/{}", crate::schema::diff::token(k));
            if MAP.contains(&k.as_str()) {
                for (name, sub) in v.as_object().into_iter().flatten() {
                    self.visit(sub, &format!("{path}/{}", crate::schema::diff::token(name)), depth + 1);
                }
            } else if LIST.contains(&k.as_str()) && v.is_array() {
                for (i, sub) in v.as_array().into_iter().flatten().enumerate() {
                    self.visit(sub, &format!("{path}/{i}"), depth + 1);
                }
            } else if ONE.contains(&k.as_str()) {
                self.visit(v, &path, depth + 1);
            }
        }
    }

    fn note(&mut self, kind: usize, rule: &'static str, at: String, message: String) {
        self.counts[kind] += 1;
        if self.counts[kind] <= MAX_SAME {
            self.out.push(Finding::new(rule, Some(self.tool), Some(at), message));
        }
    }
}

fn contains_key(v: &Value, key: &str, depth: usize) -> bool {
    if depth > MAX_WALK {
        return false;
    }
    match v {
        Value::Object(o) => o.contains_key(key) || o.values().any(|x| contains_key(x, key, depth + 1)),
        Value::Array(a) => a.iter().any(|x| contains_key(x, key, depth + 1)),
        _ => false,
    }
}

/// Schemas with more nodes than this are checked against their meta-schema instead of compiled:
/// a compiled validator costs about 40 times the schema's text, past the memory a hostile
/// listing may cost (10 times its bytes).
const COMPILED_NODES: usize = 20_000;

/// Whether `schema` can be used for validation: compiled when small; when large, checked against
/// its dialect's meta-schema, which holds nothing per node.
fn compiles(schema: &Value) -> Result<(), String> {
    if nodes_over(schema, COMPILED_NODES) {
        let depth = crate::deep::depth(schema);
        if depth > crate::schema::validate::VALIDATED_DEPTH {
            return Err(format!("the schema nests {depth} levels deep"));
        }
        let checked = crate::deep::with_room(crate::schema::validate::ROOM, || {
            jsonschema::meta::validate(schema).map_err(|e| format!("the schema cannot be used for validation: {e}"))
        });
        return checked;
    }
    crate::schema::validate::validator(schema).map(|_| ())
}

/// Whether `value` holds more than `max` values, counted without recursion and stopping at `max`.
fn nodes_over(value: &Value, max: usize) -> bool {
    let mut stack = vec![value];
    let mut seen = 0;
    while let Some(v) = stack.pop() {
        seen += 1;
        if seen > max {
            return true;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod size_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_large_schema_is_checked_against_its_meta_schema_without_compiling() {
        let props: serde_json::Map<String, Value> =
            (0..30_000).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect();
        let good = json!({"type": "object", "properties": props});
        assert!(nodes_over(&good, COMPILED_NODES));
        assert_eq!(compiles(&good), Ok(()));
        let mut bad = good.clone();
        bad["properties"]["p7"] = json!({"type": 5});
        assert!(compiles(&bad).is_err());
        assert!(compiles(&json!({"type": 5})).is_err());
        assert!(!nodes_over(&json!({"type": "object"}), COMPILED_NODES));
    }
}
