use super::proves_valid;
use serde_json::{Value, json};

/// What jsonschema says: `Some(no violations)`, or `None` when it refuses the schema.
fn jsonschema_valid(schema: &Value, instance: &Value) -> Option<bool> {
    let v = jsonschema::options().should_validate_formats(true).build(schema).ok()?;
    Some(v.is_valid(instance))
}

#[test]
fn plain_schemas_and_good_arguments_are_proven() {
    let schema = json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "where", "minLength": 1},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
            "mode": {"type": "string", "enum": ["fast", "full"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
            "opt": {"type": ["string", "null"]}
        },
        "required": ["path"],
        "additionalProperties": false
    });
    for args in
        [json!({"path": "a"}), json!({"path": "é", "limit": 5, "mode": "fast", "tags": ["x", "y"], "opt": null})]
    {
        assert!(proves_valid(&schema, &args), "{args}");
        assert_eq!(jsonschema_valid(&schema, &args), Some(true));
    }
    assert!(proves_valid(&json!({"type": "object"}), &json!({})));
    // @modelcontextprotocol/server-filesystem 2026.8.31, read_text_file's inputSchema as listed
    // (zod's JSON Schema names draft 7).
    let fs = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
        "path": {"type": "string"},
        "tail": {"description": "If provided, returns only the last N lines of the file", "type": "number"},
        "head": {"description": "If provided, returns only the first N lines of the file", "type": "number"}},
        "required": ["path"]});
    assert!(proves_valid(&fs, &json!({"path": "/tmp/a", "head": 3})));
    assert_eq!(jsonschema_valid(&fs, &json!({"path": "/tmp/a", "head": 3})), Some(true));
    assert!(!proves_valid(&fs, &json!({"head": 3})));
    assert!(proves_valid(&json!(true), &json!({"x": 1})));
}

#[test]
fn doubt_is_left_to_jsonschema() {
    let cases = [
        // violations
        (json!({"type": "object", "required": ["a"]}), json!({})),
        (json!({"properties": {"n": {"type": "integer"}}}), json!({"n": "1"})),
        (json!({"properties": {"n": {"maximum": 3}}}), json!({"n": 4})),
        (json!({"properties": {"n": {"exclusiveMinimum": 3}}}), json!({"n": 3})),
        (json!({"properties": {"s": {"maxLength": 1}}}), json!({"s": "éé"})),
        (json!({"additionalProperties": false}), json!({"x": 1})),
        (json!({"properties": {"e": {"enum": [1, 2]}}}), json!({"e": 3})),
        (json!({"properties": {"a": {"items": {"type": "string"}}}}), json!({"a": [1]})),
        (json!(false), json!({})),
        // what this module does not read, or reads no further
        (json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}), json!({})),
        (json!({"properties": {"n": {"type": "integer"}}}), json!({"n": 1.0})),
        (json!({"properties": {"f": {"type": "string", "format": "email"}}}), json!({"f": "x"})),
        (json!({"$ref": "#/$defs/a", "$defs": {"a": {}}}), json!({})),
        (json!({"anyOf": [{}]}), json!({})),
        (json!({"properties": {"n": {"maximum": 9007199254740993u64}}}), json!({"n": 1})),
        // schemas jsonschema refuses
        (json!({"type": "strin"}), json!("x")),
        (json!({"required": "a"}), json!({})),
        (json!({"required": ["a", "a"]}), json!({"a": 1})),
        (json!({"properties": {"unused": {"type": 5}}}), json!({})),
        (json!({"minLength": -1}), json!("x")),
        (json!({"type": []}), json!(1)),
    ];
    for (schema, args) in cases {
        assert!(!proves_valid(&schema, &args), "{schema} {args}");
    }
}

#[test]
fn what_is_proven_jsonschema_accepts() {
    // Each demo tool's schema with arguments made from its own defaults, enums and types: where
    // the quick check proves them, jsonschema agrees.
    let mut proven = 0;
    for tool in mcplens_demo::catalog::tools() {
        let schema = &tool["inputSchema"];
        for args in [json!({}), sample(schema)] {
            if proves_valid(schema, &args) {
                proven += 1;
                assert_eq!(jsonschema_valid(schema, &args), Some(true), "{} {args}", tool["name"]);
            }
        }
    }
    assert!(proven > 10, "{proven}");
}

/// Arguments that fill each property with a value of its declared kind.
fn sample(schema: &Value) -> Value {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return json!({}) };
    let mut out = serde_json::Map::new();
    for (k, p) in props {
        let v = if let Some(e) = p.get("enum").and_then(|e| e.get(0)) {
            e.clone()
        } else if let Some(d) = p.get("default") {
            d.clone()
        } else {
            match p.get("type").and_then(Value::as_str) {
                Some("string") => json!("x"),
                Some("integer") => json!(1),
                Some("number") => json!(1.5),
                Some("boolean") => json!(true),
                Some("array") => json!([]),
                Some("object") => json!({}),
                _ => json!(null),
            }
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}
