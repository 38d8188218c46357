//! A quick proof that arguments satisfy a plain input schema, without the `jsonschema` crate.
//!
//! Building a `jsonschema` validator first checks the schema against its meta-schema, and the
//! compiled meta-schema stays in memory for the rest of the process: most of an idle
//! process's memory. Most tool schemas use a handful of keywords (`type`, `properties`,
//! `required`, `enum`, `items`, bounds), and most arguments satisfy them. For those this module
//! proves the arguments valid; anything it does not know, or any doubt (a violation, an unknown
//! keyword, a keyword of the wrong shape, a float where an integer is asked), answers `false`,
//! and the caller asks `jsonschema`, whose messages say what is wrong. So the answer is
//! one-sided: `true` only where `jsonschema` would find no violation and accept the schema.

use serde_json::{Map, Value};

/// Deeper schemas are left to `jsonschema` (this module recurses per level).
const MAX_DEPTH: usize = 32;

/// The drafts whose `$schema` is read (SDKs built on zod name draft 7).
const DRAFTS: &[&str] = &[
    "http://json-schema.org/draft-06/schema#",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2020-12/schema",
];

/// Whether `instance` is proven to satisfy `schema`.
pub fn proves_valid(schema: &Value, instance: &Value) -> bool {
    check(schema, Some(instance), 0)
}

/// Whether `schema` is one this module reads, and `instance` (if any) satisfies it.
fn check(schema: &Value, instance: Option<&Value>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match schema {
        Value::Bool(b) => *b || instance.is_none(),
        Value::Object(s) => s.iter().all(|(k, x)| keyword(k, x, s, instance, depth)),
        _ => false,
    }
}

fn keyword(k: &str, x: &Value, s: &Map<String, Value>, v: Option<&Value>, depth: usize) -> bool {
    match k {
        // The keywords read here mean the same from draft 6 on (draft 4's bounds differ).
        "$schema" => depth == 0 && x.as_str().is_some_and(|d| DRAFTS.contains(&d)),
        "title" | "description" | "$comment" => x.is_string(),
        "default" => true,
        "examples" => x.is_array(),
        "deprecated" | "readOnly" | "writeOnly" => x.is_boolean(),
        "type" => type_names(x).is_some_and(|names| v.is_none_or(|v| names.iter().any(|n| is_type(v, n)))),
        "enum" => x.as_array().is_some_and(|a| v.is_none_or(|v| a.contains(v))),
        "const" => v.is_none_or(|v| x == v),
        "properties" => properties(x, v.and_then(Value::as_object), depth),
        "additionalProperties" => additional(x, s, v.and_then(Value::as_object), depth),
        "required" => required(x, v.and_then(Value::as_object)),
        "items" => {
            let elements = v.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            check(x, None, depth + 1) && elements.iter().all(|e| check(x, Some(e), depth + 1))
        }
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => bound(k, x, v),
        "minLength" | "maxLength" => count_bound(k, x, v.and_then(Value::as_str).map(|s| s.chars().count())),
        "minItems" | "maxItems" => count_bound(k, x, v.and_then(Value::as_array).map(Vec::len)),
        "minProperties" | "maxProperties" => count_bound(k, x, v.and_then(Value::as_object).map(Map::len)),
        _ => false,
    }
}

/// `type`'s names: one, or a non-empty list without repeats, each a JSON Schema type.
fn type_names(x: &Value) -> Option<Vec<&str>> {
    const TYPES: &[&str] = &["null", "boolean", "object", "array", "number", "string", "integer"];
    let names: Vec<&str> = match x {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    let unique = names.iter().enumerate().all(|(i, n)| !names[..i].contains(n));
    (!names.is_empty() && unique && names.iter().all(|n| TYPES.contains(n))).then_some(names)
}

fn is_type(v: &Value, name: &str) -> bool {
    match name {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        // `1.0` is an integer to 2020-12 but not to draft 4: left to jsonschema.
        "integer" => v.is_i64() || v.is_u64(),
        _ => false,
    }
}

fn properties(x: &Value, obj: Option<&Map<String, Value>>, depth: usize) -> bool {
    let Some(props) = x.as_object() else { return false };
    props.iter().all(|(name, sub)| check(sub, obj.and_then(|o| o.get(name)), depth + 1))
}

fn additional(x: &Value, s: &Map<String, Value>, obj: Option<&Map<String, Value>>, depth: usize) -> bool {
    let declared = s.get("properties").and_then(Value::as_object);
    let extra = obj.into_iter().flatten().filter(|(k, _)| !declared.is_some_and(|d| d.contains_key(*k)));
    check(x, None, depth + 1) && extra.into_iter().all(|(_, v)| check(x, Some(v), depth + 1))
}

fn required(x: &Value, obj: Option<&Map<String, Value>>) -> bool {
    let Some(names) = x.as_array().and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<&str>>>()) else {
        return false;
    };
    let unique = names.iter().enumerate().all(|(i, n)| !names[..i].contains(n));
    unique && obj.is_none_or(|o| names.iter().all(|n| o.contains_key(*n)))
}

/// A number as f64 when that is exact (integers beyond 2^53 are left to jsonschema).
fn exact_f64(v: &Value) -> Option<f64> {
    const EXACT: u64 = 1 << 53;
    match v.as_number() {
        Some(n) if n.is_f64() => n.as_f64(),
        Some(n) => n.as_i64().filter(|i| i.unsigned_abs() <= EXACT).map(|i| i as f64),
        None => None,
    }
}

fn bound(k: &str, x: &Value, v: Option<&Value>) -> bool {
    let Some(limit) = exact_f64(x) else { return false };
    let Some(v) = v.filter(|v| v.is_number()) else { return true };
    let Some(n) = exact_f64(v) else { return false };
    match k {
        "minimum" => n >= limit,
        "maximum" => n <= limit,
        "exclusiveMinimum" => n > limit,
        _ => n < limit,
    }
}

fn count_bound(k: &str, x: &Value, count: Option<usize>) -> bool {
    let Some(limit) = x.as_u64() else { return false };
    let Some(n) = count.map(|n| n as u64) else { return true };
    if k.starts_with("min") { n >= limit } else { n <= limit }
}

#[cfg(test)]
mod tests;
