//! What a tool and a view declare in `_meta.ui` (SEP-1865, "UI Resource Format" and "Resource
//! Discovery"). Everything here comes from a server: read leniently (a wrong type is left out
//! and linted, never a panic), and said back through `sanitize` by whoever prints it.

use serde_json::Value;

/// The view a tool declares: `_meta.ui.resourceUri`, else the deprecated flat
/// `_meta["ui/resourceUri"]` that hosts still read.
pub fn tool_resource(desc: &Value) -> Option<&str> {
    desc.pointer("/_meta/ui/resourceUri")
        .and_then(Value::as_str)
        .or_else(|| desc.pointer("/_meta/ui~1resourceUri").and_then(Value::as_str))
}

/// Who may call the tool: `_meta.ui.visibility`, `["model", "app"]` when omitted.
pub fn visibility(desc: &Value) -> Vec<String> {
    match desc.pointer("/_meta/ui/visibility").and_then(Value::as_array) {
        Some(v) => v.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        None => vec!["model".into(), "app".into()],
    }
}

/// The four CSP lists a view may declare.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Csp {
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
    pub base_uri: Vec<String>,
}

/// A view's `_meta.ui`: what it asks of the host that renders it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UiMeta {
    /// None when `csp` is omitted: the host then uses the restrictive default.
    pub csp: Option<Csp>,
    /// The permission names asked for (`camera`, `microphone`, `geolocation`, `clipboardWrite`).
    pub permissions: Vec<String>,
    pub domain: Option<String>,
    pub prefers_border: Option<bool>,
}

/// The permissions the specification names, with the Permission Policy feature each maps to.
pub const PERMISSIONS: &[(&str, &str)] = &[
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboardWrite", "clipboard-write"),
];

impl UiMeta {
    /// From an object holding `_meta` (a read content or a listed resource). A content's
    /// `_meta.ui` is the one the specification defines; the listing's is read when the content
    /// has none.
    pub fn of(item: &Value) -> Option<UiMeta> {
        item.pointer("/_meta/ui").filter(|v| v.is_object()).map(UiMeta::from_ui)
    }

    fn from_ui(ui: &Value) -> UiMeta {
        let list = |key: &str| -> Vec<String> {
            ui.get("csp")
                .and_then(|c| c.get(key))
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default()
        };
        let csp = ui.get("csp").filter(|c| c.is_object()).map(|_| Csp {
            connect: list("connectDomains"),
            resource: list("resourceDomains"),
            frame: list("frameDomains"),
            base_uri: list("baseUriDomains"),
        });
        let permissions =
            ui.get("permissions").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        UiMeta {
            csp,
            permissions,
            domain: ui.get("domain").and_then(Value::as_str).map(str::to_string),
            prefers_border: ui.get("prefersBorder").and_then(Value::as_bool),
        }
    }

    /// The Permission Policy `allow` attribute for the view's iframe: the known permissions
    /// only (an unknown name could smuggle another feature in).
    pub fn allow_attribute(&self) -> String {
        PERMISSIONS
            .iter()
            .filter(|(name, _)| self.permissions.iter().any(|p| p == name))
            .map(|(_, feature)| *feature)
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Lines for a detail pane or a report (unsanitized: the caller sanitizes).
    pub fn describe(&self) -> Vec<String> {
        let mut out = vec![];
        match &self.csp {
            None => {
                out.push("csp: none declared (the restrictive default: no outside connections or resources)".into())
            }
            Some(c) => {
                for (name, list) in [
                    ("connectDomains", &c.connect),
                    ("resourceDomains", &c.resource),
                    ("frameDomains", &c.frame),
                    ("baseUriDomains", &c.base_uri),
                ] {
                    if !list.is_empty() {
                        out.push(format!("csp {name}: {}", list.join(" ")));
                    }
                }
            }
        }
        if !self.permissions.is_empty() {
            out.push(format!("permissions: {}", self.permissions.join(", ")));
        }
        if let Some(d) = &self.domain {
            out.push(format!("domain: {d}"));
        }
        if let Some(b) = self.prefers_border {
            out.push(format!("prefersBorder: {b}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_nested_key_first_and_the_flat_one_after() {
        let both = json!({"_meta": {"ui": {"resourceUri": "ui://a"}, "ui/resourceUri": "ui://b"}});
        assert_eq!(tool_resource(&both), Some("ui://a"));
        assert_eq!(tool_resource(&json!({"_meta": {"ui/resourceUri": "ui://b"}})), Some("ui://b"));
        assert_eq!(tool_resource(&json!({"name": "x"})), None);
        assert_eq!(visibility(&json!({})), ["model", "app"]);
        assert_eq!(visibility(&json!({"_meta": {"ui": {"visibility": ["app"]}}})), ["app"]);
    }

    #[test]
    fn ui_meta_keeps_what_it_can_read() {
        let c = json!({"_meta": {"ui": {"csp": {"connectDomains": ["https://api.x.com", 3]},
            "permissions": {"camera": {}, "clipboardWrite": {}, "usb": {}}, "domain": "a.example", "prefersBorder": true}}});
        let m = UiMeta::of(&c).unwrap();
        assert_eq!(m.csp.as_ref().unwrap().connect, ["https://api.x.com"]);
        assert_eq!(m.allow_attribute(), "camera; clipboard-write");
        assert_eq!(m.prefers_border, Some(true));
        assert!(m.describe().iter().any(|l| l == "domain: a.example"));
        assert_eq!(UiMeta::of(&json!({"_meta": {"ui": 3}})), None);
    }
}
