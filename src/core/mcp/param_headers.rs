//! Tool parameters mirrored into HTTP headers (SEP-2243, protocol 2026-07-28): a top-level
//! property of a tool's input schema annotated `"x-mcp-header": "Name"` is sent again, on the
//! `tools/call` POST, as the header `Mcp-Param-Name`, so gateways can route on it without
//! reading the body. A tool whose annotations break the rules (empty, not a header token,
//! duplicated ignoring case, on a property that is not a string, number, integer or boolean)
//! must not be called.

use base64::Engine;
use serde_json::{Map, Value};

/// The header prefix the annotation's name is put after.
pub const PREFIX: &str = "Mcp-Param-";

/// One annotated property and the header it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    pub property: String,
    /// The whole header name, `Mcp-Param-<annotation>`.
    pub header: String,
}

/// The annotated properties of an input schema, or why the tool must not be called.
pub fn annotations(input_schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let Some(props) = input_schema.get("properties").and_then(Value::as_object) else { return Ok(vec![]) };
    let mut out: Vec<ParamHeader> = Vec::new();
    for (property, schema) in props {
        let Some(annotation) = schema.get("x-mcp-header") else { continue };
        let name = annotation.as_str().ok_or_else(|| format!("x-mcp-header of {property:?} is not a string"))?;
        check_name(property, name)?;
        if !primitive(schema) {
            return Err(format!(
                "x-mcp-header {name:?} is on {property:?}, which is not a string, number, integer or boolean"
            ));
        }
        if out.iter().any(|p| p.header[PREFIX.len()..].eq_ignore_ascii_case(name)) {
            return Err(format!("x-mcp-header {name:?} is given twice (header names ignore case)"));
        }
        out.push(ParamHeader { property: property.clone(), header: format!("{PREFIX}{name}") });
    }
    Ok(out)
}

/// RFC 9110's token characters: visible ASCII but the delimiters.
fn check_name(property: &str, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(format!("x-mcp-header of {property:?} is empty"));
    }
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if !name.chars().all(token) {
        let shown = crate::sanitize::line(name).into_owned();
        return Err(format!("x-mcp-header {shown:?} of {property:?} is not a valid header name"));
    }
    Ok(())
}

fn primitive(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => matches!(t.as_str(), "string" | "number" | "integer" | "boolean"),
        _ => false,
    }
}

/// A value as its header carries it: numbers and booleans as their JSON text, strings as they
/// are when they are printable ASCII with no space or tab at either end, else
/// `=?base64?<UTF-8 in Base64>?=`. Null and absent values are left out, and so are objects and
/// arrays (the annotation rules keep them off annotated properties).
pub fn encode(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if plain(s) => Some(s.clone()),
        Value::String(s) => Some(format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(s))),
        _ => None,
    }
}

fn plain(s: &str) -> bool {
    let edge = |c: Option<char>| c.is_some_and(|c| c == ' ' || c == '\t');
    s.chars().all(|c| (' '..='~').contains(&c)) && !edge(s.chars().next()) && !edge(s.chars().last())
}

/// The headers for one call: each annotated property present in the arguments.
pub fn headers_for(params: &[ParamHeader], arguments: Option<&Map<String, Value>>) -> Vec<(String, String)> {
    let Some(args) = arguments else { return vec![] };
    params.iter().filter_map(|p| Some((p.header.clone(), encode(args.get(&p.property)?)?))).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_are_encoded_as_the_sep_says() {
        assert_eq!(encode(&json!("us-west1")).as_deref(), Some("us-west1"));
        assert_eq!(encode(&json!("us west 1")).as_deref(), Some("us west 1"));
        assert_eq!(encode(&json!("")).as_deref(), Some(""));
        assert_eq!(encode(&json!(42)).as_deref(), Some("42"));
        assert_eq!(encode(&json!(3.5)).as_deref(), Some("3.5"));
        assert_eq!(encode(&json!(false)).as_deref(), Some("false"));
        assert_eq!(encode(&json!(null)), None);
        assert_eq!(encode(&json!("Hello, 世界")).as_deref(), Some("=?base64?SGVsbG8sIOS4lueVjA==?="));
        assert_eq!(encode(&json!(" padded ")).as_deref(), Some("=?base64?IHBhZGRlZCA=?="));
        assert_eq!(encode(&json!("us-west1 ")).as_deref(), Some("=?base64?dXMtd2VzdDEg?="));
        assert_eq!(encode(&json!("line1\nline2")).as_deref(), Some("=?base64?bGluZTEKbGluZTI=?="));
        assert_eq!(encode(&json!("\tindented")).as_deref(), Some("=?base64?CWluZGVudGVk?="));
    }

    #[test]
    fn annotations_are_read_and_checked() {
        let ok = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "q": {"type": "string"}}});
        let got = annotations(&ok).unwrap_or_default();
        assert_eq!(got.iter().map(|p| p.header.as_str()).collect::<Vec<_>>(), ["Mcp-Param-Region", "Mcp-Param-N"]);
        let bad = |prop: Value| annotations(&json!({"type": "object", "properties": prop})).is_err();
        assert!(bad(json!({"a": {"type": "string", "x-mcp-header": ""}})));
        assert!(bad(json!({"a": {"type": "string", "x-mcp-header": "A B"}})));
        assert!(bad(json!({"a": {"type": "string", "x-mcp-header": "A:B"}})));
        assert!(bad(json!({"a": {"type": "string", "x-mcp-header": "Région"}})));
        assert!(bad(json!({"a": {"type": "string", "x-mcp-header": "A\u{1}"}})));
        assert!(bad(json!({"a": {"type": "object", "x-mcp-header": "A"}})));
        assert!(bad(json!({"a": {"type": "array", "x-mcp-header": "A"}})));
        assert!(bad(json!({"a": {"type": "null", "x-mcp-header": "A"}})));
        assert!(bad(json!({"a": {"type": "string", "x-mcp-header": 7}})));
        assert!(bad(
            json!({"a": {"type": "string", "x-mcp-header": "A"}, "b": {"type": "string", "x-mcp-header": "a"}})
        ));
    }

    #[test]
    fn only_present_non_null_values_become_headers() {
        let params = annotations(&json!({"properties": {
            "r": {"type": "string", "x-mcp-header": "Region"},
            "v": {"type": "boolean", "x-mcp-header": "Verbose"}}}))
        .unwrap_or_default();
        let args = json!({"r": "eu", "v": null});
        let got = headers_for(&params, args.as_object());
        assert_eq!(got, [("Mcp-Param-Region".to_string(), "eu".to_string())]);
    }
}
