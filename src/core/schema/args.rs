//! Tool arguments from the command line: `--args JSON` or `--arg key=value`, typed by the schema.
//! A number serde_json would rewrite (`123456789012345678901234567890`, `1.10`) is kept as typed
//! (see `mcp::exact_numbers`): the server gets the digits the user wrote.

use serde_json::{Map, Value};

use super::resolve::resolve;
use crate::error::{LensError, Result};
use crate::mcp::exact_numbers;

/// `text` as JSON, each number kept as written.
fn read(text: &str) -> Option<Value> {
    exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH).ok()
}

/// Whether `v` is a number, a number kept as written included; `integer`: one with no fraction.
fn is_number(v: &Value, integer: bool) -> bool {
    let read;
    let v = match exact_numbers::literal(v) {
        Some(_) => {
            read = exact_numbers::value_as_read(v);
            &read
        }
        None => v,
    };
    v.is_number() && (!integer || v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0))
}

/// The schema of property `key` of `schema` (after following a `$ref` on either), if declared.
pub fn property_schema<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    let mut s = schema;
    for _ in 0..16 {
        match s.get("$ref").and_then(Value::as_str).and_then(|r| resolve(schema, r)) {
            Some(t) => s = t,
            None => break,
        }
    }
    let mut p = s.get("properties")?.get(key)?;
    for _ in 0..16 {
        match p.get("$ref").and_then(Value::as_str).and_then(|r| resolve(schema, r)) {
            Some(t) => p = t,
            None => break,
        }
    }
    Some(p)
}

fn declared_types(s: &Value) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    }
}

/// Reads `raw` as the type the property declares; JSON for objects and arrays.
pub fn typed_value(schema: Option<&Value>, key: &str, raw: &str) -> Result<Value> {
    let types = schema.map(declared_types).unwrap_or_default();
    let bad = |what: &str| LensError::usage(format!("--arg {key}={raw}: {what}"));
    if types.is_empty() {
        // Undeclared or untyped: JSON if it parses as a number, boolean, null, object or array.
        return Ok(match read(raw) {
            Some(v @ (Value::Bool(_) | Value::Object(_) | Value::Array(_))) => v,
            Some(v) if is_number(&v, false) => v,
            _ => Value::String(raw.to_string()),
        });
    }
    if types.contains(&"null") && raw == "null" {
        return Ok(Value::Null);
    }
    for t in &types {
        let v = match *t {
            "string" => return Ok(Value::String(raw.to_string())),
            "integer" => read(raw.trim()).filter(|v| is_number(v, true)),
            "number" => read(raw.trim()).filter(|v| is_number(v, false)),
            "boolean" => match raw.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" | "on" => Some(Value::Bool(true)),
                "false" | "no" | "0" | "off" => Some(Value::Bool(false)),
                _ => None,
            },
            "object" => read(raw).filter(Value::is_object),
            "array" => read(raw).filter(Value::is_array),
            _ => None,
        };
        if let Some(v) = v {
            return Ok(v);
        }
    }
    Err(bad(&format!("expected {} per the input schema", types.join(" or "))))
}

/// Builds the argument object from `--args` and `--arg` (later `--arg`s win over `--args`).
pub fn build(schema: Option<&Value>, args_json: Option<&str>, pairs: &[String]) -> Result<Option<Map<String, Value>>> {
    let mut out = match args_json {
        None => None,
        Some(text) => match exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH) {
            Ok(Value::Object(m)) => Some(m),
            Ok(other) => {
                let kind = match other {
                    Value::Array(_) => "an array",
                    Value::String(_) => "a string",
                    Value::Number(_) => "a number",
                    Value::Bool(_) => "a boolean",
                    _ => "null",
                };
                return Err(LensError::usage(format!("--args must be a JSON object, not {kind}")));
            }
            Err(e) => return Err(LensError::usage(format!("--args is not valid JSON: {e}"))),
        },
    };
    for pair in pairs {
        let Some((key, raw)) = pair.split_once('=') else {
            return Err(LensError::usage(format!("--arg {pair}: expected key=value")));
        };
        if key.is_empty() {
            return Err(LensError::usage(format!("--arg {pair}: the key is empty")));
        }
        let prop = schema.and_then(|s| property_schema(s, key));
        let value = typed_value(prop, key, raw)?;
        out.get_or_insert_with(Map::new).insert(key.to_string(), value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arg_types_follow_the_schema() {
        let schema = json!({"properties": {
            "n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
            "s": {"type": "string"}, "o": {"type": "object"}, "a": {"type": "array"}, "r": {"$ref": "#/$defs/N"},
            "ns": {"type": ["integer", "null"]}
        }, "$defs": {"N": {"type": "integer"}}});
        let args = build(
            Some(&schema),
            None,
            &[
                "n=42".into(),
                "x=-1.5".into(),
                "b=true".into(),
                "s=42".into(),
                "o={\"k\":1}".into(),
                "a=[1,2]".into(),
                "r=7".into(),
                "ns=null".into(),
                "free=3".into(),
            ],
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_default();
        assert_eq!(
            Value::Object(args),
            json!({"n": 42, "x": -1.5, "b": true, "s": "42", "o": {"k": 1}, "a": [1, 2], "r": 7, "ns": null, "free": 3})
        );
    }

    /// A number a float would round is kept as typed (a stand-in the wire puts back), and still
    /// checked as the type the schema declares.
    #[test]
    fn numbers_beyond_a_float_are_kept_as_typed() {
        let schema =
            json!({"properties": {"n": {"type": "integer"}, "x": {"type": "number"}, "o": {"type": "object"}}});
        let big = "123456789012345678901234567890";
        let pairs = [format!("n={big}"), "x=1.10".into(), format!("free={big}"), format!("o={{\"k\":[{big}]}}")];
        let args = build(Some(&schema), Some(&format!(r#"{{"a": {big}}}"#)), &pairs)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_default();
        let literal = |v: &Value| exact_numbers::literal(v).unwrap_or_default();
        assert_eq!((literal(&args["n"]), literal(&args["x"])), (big.to_string(), "1.10".to_string()));
        assert_eq!(
            (literal(&args["free"]), literal(&args["a"]), literal(&args["o"]["k"][0])),
            (big.into(), big.into(), big.into())
        );
        let err = build(Some(&schema), None, &[format!("x={big}x")]).err().map(|e| e.message).unwrap_or_default();
        assert!(err.contains("expected number"), "{err}");
    }

    #[test]
    fn bad_args_are_usage_errors() {
        let schema = json!({"properties": {"n": {"type": "integer"}}});
        for (json, pairs, want) in [
            (None, vec!["n=abc".to_string()], "expected integer"),
            (None, vec!["novalue".to_string()], "expected key=value"),
            (Some("[1]"), vec![], "must be a JSON object"),
            (Some("{oops"), vec![], "not valid JSON"),
        ] {
            let err = build(Some(&schema), json, &pairs).err().map(|e| e.message).unwrap_or_default();
            assert!(err.contains(want), "{err}");
        }
    }
}
