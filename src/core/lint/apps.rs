//! MCP Apps (SEP-1865, 2026-01-26): what a tool declares (`_meta.ui.resourceUri`, visibility)
//! and, when the views were read, what each `ui://` resource answers (it exists, its MIME type,
//! its content, its `_meta.ui`).

use serde_json::Value;

use super::Finding;
use crate::apps::{self, csp};

/// A view read for the lint: its URI, the tools that declare it, and the `resources/read`
/// result (or why there is none).
#[derive(Debug, Clone)]
pub struct ViewRead {
    pub uri: String,
    pub tools: Vec<String>,
    pub read: Result<Value, String>,
}

pub fn check_tool(tool: &str, desc: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let nested = desc.pointer("/_meta/ui/resourceUri");
    let flat = desc.pointer("/_meta/ui~1resourceUri");
    for (at, v) in [("/_meta/ui/resourceUri", nested), ("/_meta/ui~1resourceUri", flat)] {
        if let Some(v) = v
            && !v.as_str().is_some_and(apps::is_ui_uri)
        {
            let msg = format!("resourceUri {} is not a ui:// URI", super::session::short(&v.to_string()));
            out.push(Finding::new("apps/resource-uri", Some(tool), Some(at.into()), msg));
        }
    }
    // The SDK writes both keys for hosts that read only the old one: that is no finding.
    match (nested, flat) {
        (None, Some(_)) => out.push(Finding::new(
            "apps/deprecated-meta",
            Some(tool),
            Some("/_meta/ui~1resourceUri".into()),
            "the flat \"ui/resourceUri\" key is deprecated (SEP-1865): put it in _meta.ui.resourceUri",
        )),
        (Some(a), Some(b)) if a != b => out.push(Finding::new(
            "apps/deprecated-meta",
            Some(tool),
            Some("/_meta/ui~1resourceUri".into()),
            "the deprecated \"ui/resourceUri\" names another view than _meta.ui.resourceUri: hosts that read the old key show another view",
        )),
        _ => {}
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

/// The findings about one view, given to each tool that declares it.
pub fn check_view(view: &ViewRead) -> Vec<Finding> {
    let mut out = vec![];
    match &view.read {
        Err(why) => out.push(Finding::new(
            "apps/view-missing",
            None,
            None,
            format!("{}: resources/read failed: {why}", view.uri),
        )),
        Ok(result) => out.extend(check_contents(view, result)),
    }
    let tools = if view.tools.is_empty() { vec![None] } else { view.tools.iter().map(|t| Some(t.as_str())).collect() };
    tools
        .into_iter()
        .flat_map(|t| out.iter().map(move |f| Finding { tool: t.map(str::to_string), ..f.clone() }))
        .collect()
}

fn check_contents(view: &ViewRead, result: &Value) -> Vec<Finding> {
    let contents = result.get("contents").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let Some(content) =
        contents.iter().find(|c| c.get("uri").and_then(Value::as_str) == Some(&view.uri)).or(contents.first())
    else {
        return vec![Finding::new(
            "apps/view-missing",
            None,
            None,
            format!("{}: resources/read answered no contents", view.uri),
        )];
    };
    let mut out = vec![];
    let mime = content.get("mimeType").and_then(Value::as_str).unwrap_or("");
    if !apps::is_app_mime(mime) {
        let msg = format!("{}: mimeType is {mime:?}, not {}", view.uri, apps::MIME);
        out.push(Finding::new("apps/view-mime", None, Some("/contents/0/mimeType".into()), msg));
    }
    let text = content.get("text").and_then(Value::as_str).is_some_and(|t| !t.trim().is_empty());
    let blob = content.get("blob").and_then(Value::as_str).is_some_and(|b| !b.trim().is_empty());
    if !text && !blob {
        let msg = format!("{}: the content has neither text nor blob", view.uri);
        out.push(Finding::new("apps/view-content", None, Some("/contents/0".into()), msg));
    }
    if let Some(ui) = content.pointer("/_meta/ui") {
        out.extend(check_ui_meta(&view.uri, ui));
    }
    out
}

fn check_ui_meta(uri: &str, ui: &Value) -> Vec<Finding> {
    let mut out = vec![];
    let at = |k: &str| Some(format!("/contents/0/_meta/ui/{k}"));
    let wrong =
        |k: &str, what: &str| Finding::new("apps/meta-type", None, at(k), format!("{uri}: _meta.ui.{k} is not {what}"));
    if ui.get("domain").is_some_and(|d| !d.is_string()) {
        out.push(wrong("domain", "a string"));
    }
    if ui.get("prefersBorder").is_some_and(|d| !d.is_boolean()) {
        out.push(wrong("prefersBorder", "a boolean"));
    }
    match ui.get("permissions") {
        Some(Value::Object(m)) => {
            for k in m.keys().filter(|k| !apps::meta::PERMISSIONS.iter().any(|(n, _)| n == k)) {
                let msg = format!(
                    "{uri}: permission {k:?} is not one the specification names (camera, microphone, geolocation, clipboardWrite): hosts ignore it"
                );
                out.push(Finding::new("apps/permissions", None, at("permissions"), msg));
            }
        }
        Some(_) => out.push(wrong("permissions", "an object")),
        None => {}
    }
    match ui.get("csp") {
        Some(Value::Object(m)) => {
            for (key, list) in m {
                out.extend(check_csp_list(uri, key, list));
            }
        }
        Some(_) => out.push(wrong("csp", "an object")),
        None => {}
    }
    out
}

fn check_csp_list(uri: &str, key: &str, list: &Value) -> Vec<Finding> {
    let at = Some(format!("/contents/0/_meta/ui/csp/{key}"));
    let Some(items) = list.as_array() else {
        return vec![Finding::new(
            "apps/meta-type",
            None,
            at,
            format!("{uri}: _meta.ui.csp.{key} is not a list of origins"),
        )];
    };
    let mut out = vec![];
    for item in items {
        let why = match item.as_str() {
            None => Some("it is not a string"),
            Some(s) if csp::rejected(s).is_some() => csp::rejected(s),
            Some(s) if !s.contains("://") => Some("it is not an origin (scheme://host[:port])"),
            Some(_) => None,
        };
        if let Some(why) = why {
            let shown = super::session::short(&item.to_string());
            let msg = format!("{uri}: csp.{key} entry {shown} is left out of the policy a careful host builds: {why}");
            out.push(Finding::new("apps/csp-origin", None, at.clone(), msg));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(f: &[Finding]) -> Vec<&str> {
        f.iter().map(|f| f.rule).collect()
    }

    #[test]
    fn both_keys_agreeing_is_no_finding_and_differing_is() {
        let same = json!({"_meta": {"ui": {"resourceUri": "ui://a"}, "ui/resourceUri": "ui://a"}});
        assert!(check_tool("t", &same).is_empty());
        let differ = json!({"_meta": {"ui": {"resourceUri": "ui://a"}, "ui/resourceUri": "ui://b"}});
        assert_eq!(rules(&check_tool("t", &differ)), ["apps/deprecated-meta"]);
    }

    #[test]
    fn a_view_is_checked_for_each_tool_that_declares_it() {
        let view = ViewRead {
            uri: "ui://v".into(),
            tools: vec!["a".into(), "b".into()],
            read: Ok(json!({"contents": [{"uri": "ui://v", "mimeType": "text/html", "text": "<html></html>",
                "_meta": {"ui": {"csp": {"connectDomains": ["api.x.com", "https://ok.com"]}, "permissions": {"usb": {}}}}}]})),
        };
        let f = check_view(&view);
        assert_eq!(f.len(), 6, "{f:#?}");
        assert!(rules(&f).contains(&"apps/view-mime") && rules(&f).contains(&"apps/csp-origin"));
        assert!(rules(&f).contains(&"apps/permissions"));
        let missing = ViewRead { uri: "ui://gone".into(), tools: vec![], read: Err("-32002 not found".into()) };
        assert_eq!(rules(&check_view(&missing)), ["apps/view-missing"]);
    }
}
