//! A Server Card (`application/mcp-server-card+json`, SEP-2127, the experimental
//! `server-card` extension): the document against its schema, and against what the live server
//! says of itself ("Consistency with Runtime Behavior": the card is advisory, and its identity,
//! versions and descriptive fields SHOULD NOT contradict the server's).
//!
//! A card lists no tools, resources or prompts (the format leaves them to runtime listing), so
//! there is nothing of that kind to compare.

use serde_json::{Value, json};

use super::Finding;

/// The extension's schema, embedded as published.
pub const SCHEMA: &str = include_str!("server-card.schema.json");
/// Where the embedded schema comes from.
pub const SCHEMA_SOURCE: &str = "modelcontextprotocol/experimental-ext-server-card, commit 8924e08682b4a936e6464b57845ec2ff17dc8776, schema.json (#/$defs/ServerCard)";
/// The media type a card is asked for and served with.
pub const MEDIA_TYPE: &str = "application/mcp-server-card+json";

const MAX_VIOLATIONS: usize = 20;

/// The card against the schema's `ServerCard` definition.
pub fn check(card: &Value) -> Vec<Finding> {
    let Ok(mut schema) = serde_json::from_str::<Value>(SCHEMA) else { return vec![] };
    // The published file only defines; the card is its `ServerCard`.
    if let Some(root) = schema.as_object_mut() {
        root.insert("$ref".into(), json!("#/$defs/ServerCard"));
    }
    match crate::schema::validate::validate(&schema, card) {
        Ok(violations) => violations
            .iter()
            .take(MAX_VIOLATIONS)
            .map(|v| {
                let at = if v.path.is_empty() { "(root)".to_string() } else { v.path.clone() };
                Finding::new("server-card/schema", None, Some(at), super::session::short(&v.message))
            })
            .collect(),
        Err(e) => vec![Finding::new(
            "server-card/schema",
            None,
            None,
            format!("the schema cannot be used: {}", super::session::short(&e)),
        )],
    }
}

/// The card against the server's initialize (or discover) result.
pub fn compare(card: &Value, server: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let info = |k: &str| {
        server
            .pointer(&format!("/serverInfo/{k}"))
            .or_else(|| server.pointer(&format!("/_meta/io.modelcontextprotocol~1serverInfo/{k}")))
            .and_then(Value::as_str)
    };
    for (key, rule) in [("version", "server-card/version"), ("title", "server-card/title")] {
        if let (Some(declared), Some(actual)) = (card.get(key).and_then(Value::as_str), info(key))
            && declared != actual
        {
            let msg = format!("the card's {key} is {declared:?}; the server reports {actual:?}");
            out.push(Finding::new(rule, None, Some(format!("/{key}")), msg));
        }
    }
    out.extend(protocol(card, server));
    out
}

/// The protocol version the session negotiated, against the versions the card's remotes list.
fn protocol(card: &Value, server: &Value) -> Vec<Finding> {
    let listed: Vec<&str> = card
        .get("remotes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("supportedProtocolVersions").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let negotiated = server.get("protocolVersion").and_then(Value::as_str);
    let discovered: Vec<&str> = server
        .get("supportedVersions")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let runtime: Vec<&str> = negotiated.into_iter().chain(discovered).collect();
    if listed.is_empty() || runtime.is_empty() || runtime.iter().any(|v| listed.contains(v)) {
        return vec![];
    }
    let msg = format!("the card's remotes support {}; the server speaks {}", listed.join(", "), runtime.join(", "));
    vec![Finding::new("server-card/protocol", None, Some("/remotes".into()), msg)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_is_checked_as_a_server_card() {
        let good = json!({"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
            "name": "com.example/weather", "version": "1.0.0", "description": "Weather"});
        assert!(check(&good).is_empty(), "{:#?}", check(&good));
        let bad = json!({"name": "no-slash", "version": "1.0.0", "description": "x"});
        assert!(check(&bad).iter().all(|f| f.rule == "server-card/schema"));
        assert!(check(&bad).len() >= 2, "{:#?}", check(&bad));
    }

    #[test]
    fn runtime_values_that_contradict_the_card_are_said() {
        let card = json!({"version": "1.0.0", "title": "Weather", "remotes": [{"type": "streamable-http", "url": "https://x/mcp",
            "supportedProtocolVersions": ["2025-06-18"]}]});
        let server = json!({"protocolVersion": "2025-11-25", "serverInfo": {"name": "w", "version": "1.1.0", "title": "Weather"}});
        let rules: Vec<&str> = compare(&card, &server).iter().map(|f| f.rule).collect();
        assert_eq!(rules, ["server-card/version", "server-card/protocol"]);
    }
}
