//! TOML values to JSON and back. TOML has no null; JSON that TOML cannot hold is written as a
//! JSON string under a `_json` key instead (`arguments_json`, `equals_json`).

use std::fmt::Write;

use serde_json::{Map, Number, Value};

use crate::sanitize::is_unsafe;

/// Deepest JSON value written as TOML; deeper ones go into a `_json` string. The TOML parsers
/// refuse nesting much past this, so what is written can be read back.
const TOML_DEPTH: usize = 32;

/// A TOML value as JSON (dates and times become their text). TOML's parser bounds the depth.
pub fn to_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.iter().map(to_json).collect()),
        toml::Value::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
    }
}

/// Whether `v` can be written as TOML and read back as the same JSON: no null, integers within
/// i64, finite floats, not too deep.
pub fn fits_toml(v: &Value) -> bool {
    fn fits(v: &Value, depth: usize) -> bool {
        if depth > TOML_DEPTH {
            return false;
        }
        match v {
            Value::Null => false,
            Value::Number(n) => n.is_i64() || (!n.is_u64() && n.as_f64().is_some_and(f64::is_finite)),
            Value::Bool(_) | Value::String(_) => true,
            Value::Array(a) => a.iter().all(|x| fits(x, depth + 1)),
            // A key TOML would write with a terminal control in it goes into the JSON form.
            Value::Object(o) => o.iter().all(|(k, x)| !k.chars().any(is_unsafe) && fits(x, depth + 1)),
        }
    }
    fits(v, 0)
}

/// A JSON value as an inline TOML value; only for values that [`fits_toml`].
pub fn to_toml(v: &Value) -> toml_edit::Value {
    match v {
        Value::Null => toml_edit::Value::from(""),
        Value::Bool(b) => toml_edit::Value::from(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml_edit::Value::from(i),
            None => toml_edit::Value::from(n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => text(s),
        Value::Array(a) => toml_edit::Value::Array(a.iter().map(to_toml).collect()),
        Value::Object(o) => toml_edit::Value::InlineTable(inline(o)),
    }
}

fn inline(o: &Map<String, Value>) -> toml_edit::InlineTable {
    let mut t = toml_edit::InlineTable::new();
    for (k, v) in o {
        t.insert(k, to_toml(v));
    }
    t
}

/// A TOML string. One holding a character that must not reach a terminal (a C1 control, a
/// bidirectional override: `cat` or `git diff` of the file would show it) is written with `\u`
/// escapes, as the snapshot file writes them; TOML reads them back as the same text.
pub fn text(s: &str) -> toml_edit::Value {
    if !s.chars().any(is_unsafe) {
        return toml_edit::Value::from(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out.parse().unwrap_or_else(|_| toml_edit::Value::from(s))
}
