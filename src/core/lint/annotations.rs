//! Tool annotations that contradict each other, and MCP Apps' `_meta.ui.resourceUri`.

use serde_json::Value;

use super::Finding;

pub fn check(tool: &str, desc: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let flag = |k: &str| desc.get("annotations").and_then(|a| a.get(k)).and_then(Value::as_bool);
    if flag("readOnlyHint") == Some(true) && flag("destructiveHint") == Some(true) {
        out.push(Finding::new(
            "annotations/contradiction",
            Some(tool),
            Some("/annotations/destructiveHint".into()),
            "readOnlyHint is true and destructiveHint is true: a tool that changes nothing destroys nothing (hosts that ask before destructive tools get two answers)",
        ));
    }
    if let Some(uri) = app_resource(desc)
        && !uri.starts_with("ui://")
    {
        out.push(Finding::new(
            "apps/resource-uri",
            Some(tool),
            Some("/_meta/ui/resourceUri".into()),
            format!("resourceUri {uri:?} is not a ui:// URI"),
        ));
    }
    if desc.pointer("/_meta/ui~1resourceUri").is_some() {
        out.push(Finding::new(
            "apps/deprecated-meta",
            Some(tool),
            Some("/_meta/ui~1resourceUri".into()),
            "the flat \"ui/resourceUri\" key is deprecated (SEP-1865): put it in _meta.ui.resourceUri",
        ));
    }
    if let Some(v) = desc.pointer("/_meta/ui/visibility") {
        let ok = v.as_array().is_some_and(|a| a.iter().all(|x| matches!(x.as_str(), Some("model" | "app"))));
        if !ok {
            out.push(Finding::new(
                "apps/visibility",
                Some(tool),
                Some("/_meta/ui/visibility".into()),
                format!("visibility is {}: a list of \"model\" and \"app\"", super::session::short(&v.to_string())),
            ));
        }
    }
    out
}

/// The UI resource an MCP App tool declares (`_meta.ui.resourceUri`, SEP-1865).
pub fn app_resource(desc: &Value) -> Option<&str> {
    desc.pointer("/_meta/ui/resourceUri").and_then(Value::as_str)
}
