//! Tool annotations that contradict each other, and MCP Apps' `_meta.ui.resourceUri`.

use serde_json::Value;

use super::Finding;

pub fn check(tool: &str, desc: &Value) -> Vec<Finding> {
    let mut out = vec![];
    if let Some(a) = desc.get("annotations") {
        let flag = |k: &str| a.get(k).and_then(Value::as_bool);
        if flag("readOnlyHint") == Some(true) {
            if flag("destructiveHint") == Some(true) {
                out.push(Finding::new(
                    "annotations/contradiction",
                    Some(tool),
                    Some("/annotations/destructiveHint".into()),
                    "readOnlyHint is true and destructiveHint is true: a tool that changes nothing destroys nothing (hosts that ask before destructive tools get two answers)",
                ));
            }
        }
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
    out
}

/// The UI resource an MCP App tool declares (`_meta.ui.resourceUri`, SEP-1865).
pub fn app_resource(desc: &Value) -> Option<&str> {
    desc.pointer("/_meta/ui/resourceUri").and_then(Value::as_str)
}
