//! A server's `server.json` (the MCP Registry's format) against the registry's schema, and
//! against what the server says of itself when it is reachable.

use serde_json::Value;

use super::Finding;

/// The registry's schema for `server.json`, embedded as published.
pub const SCHEMA: &str = include_str!("server.schema.json");
/// Where the embedded schema comes from.
pub const SCHEMA_SOURCE: &str = "modelcontextprotocol/registry, commit 05f550bd699f93c3b06ba6fcbd95592115af56ae, docs/reference/server-json/server.schema.json";
/// The `$id` of the embedded schema: what a file validated against it names in `$schema`.
pub const SCHEMA_ID: &str = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

/// Violations reported, at most.
const MAX_VIOLATIONS: usize = 20;

/// The file against the schema (and the version it names).
pub fn check(doc: &Value) -> Vec<Finding> {
    let mut out = vec![];
    match doc.get("$schema").and_then(Value::as_str) {
        Some(s) if s == SCHEMA_ID => {}
        named => out.push(Finding::new(
            "server-json/schema-version",
            None,
            Some("/$schema".into()),
            format!(
                "the file names {}; it was checked against {SCHEMA_ID}",
                named.map(|s| format!("{:?}", super::session::short(s))).unwrap_or_else(|| "no $schema".into())
            ),
        )),
    }
    let schema: Value = match serde_json::from_str(SCHEMA) {
        Ok(s) => s,
        Err(_) => return out,
    };
    match crate::schema::validate::validate(&schema, doc) {
        Ok(violations) => {
            for v in violations.iter().take(MAX_VIOLATIONS) {
                let at = if v.path.is_empty() { "(root)".to_string() } else { v.path.clone() };
                out.push(Finding::new("server-json/schema", None, Some(at), super::session::short(&v.message)));
            }
        }
        Err(e) => out.push(Finding::new(
            "server-json/schema",
            None,
            None,
            format!("the schema cannot be used: {}", super::session::short(&e)),
        )),
    }
    out
}

/// The file against the server's own initialize (or discover) result.
pub fn compare(doc: &Value, server: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let declared = doc.get("version").and_then(Value::as_str);
    let actual = server
        .pointer("/serverInfo/version")
        .or_else(|| server.pointer("/_meta/io.modelcontextprotocol~1serverInfo/version"))
        .and_then(Value::as_str);
    if let (Some(d), Some(a)) = (declared, actual)
        && d != a
    {
        out.push(Finding::new(
            "server-json/version",
            None,
            Some("/version".into()),
            format!("server.json says version {d:?}; the server says {a:?} in serverInfo"),
        ));
    }
    out
}
