//! Resource, resource template and prompt descriptors exactly as the server sent them.
//!
//! Like `ToolDescriptor`: the original text is kept byte for byte (for `--json` and the raw
//! view) beside a value parsed when first needed; a malformed descriptor is marked, never dropped.

use std::sync::OnceLock;

use serde_json::Value;
use serde_json::value::RawValue;

/// What a listing holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Resource,
    Template,
    Prompt,
}

impl ItemKind {
    /// The list method.
    pub fn method(self) -> &'static str {
        match self {
            ItemKind::Resource => "resources/list",
            ItemKind::Template => "resources/templates/list",
            ItemKind::Prompt => "prompts/list",
        }
    }

    /// The result member holding the page's items.
    pub fn key(self) -> &'static str {
        match self {
            ItemKind::Resource => "resources",
            ItemKind::Template => "resourceTemplates",
            ItemKind::Prompt => "prompts",
        }
    }

    /// The descriptor member that identifies an item besides its name.
    fn id_key(self) -> Option<&'static str> {
        match self {
            ItemKind::Resource => Some("uri"),
            ItemKind::Template => Some("uriTemplate"),
            ItemKind::Prompt => None,
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            ItemKind::Resource => "resource",
            ItemKind::Template => "resource template",
            ItemKind::Prompt => "prompt",
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            ItemKind::Resource => "resources",
            ItemKind::Template => "resource templates",
            ItemKind::Prompt => "prompts",
        }
    }

    /// The members the readable views show by name; any other is shown as an extra field.
    pub fn known_fields(self) -> &'static [&'static str] {
        match self {
            ItemKind::Resource => &["uri", "name", "title", "description", "mimeType", "size", "annotations", "icons"],
            ItemKind::Template => &["uriTemplate", "name", "title", "description", "mimeType", "annotations", "icons"],
            ItemKind::Prompt => &["name", "title", "description", "arguments", "icons"],
        }
    }
}

/// One argument a prompt takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct Descriptor {
    pub kind: ItemKind,
    /// The descriptor's JSON text exactly as it appeared in the server's reply.
    pub raw: Box<RawValue>,
    value: OnceLock<Value>,
    /// Why the descriptor could not be read (too deep), if it could not.
    pub unreadable: Option<String>,
}

impl Descriptor {
    pub fn from_raw(kind: ItemKind, raw: &RawValue, max_depth: usize) -> Self {
        let depth = crate::json_depth::depth(raw.get());
        let unreadable = (depth > max_depth)
            .then(|| format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)"));
        let value = OnceLock::new();
        if unreadable.is_some() {
            let _ = value.set(Value::Null);
        }
        Descriptor { kind, raw: raw.to_owned(), value, unreadable }
    }

    /// The descriptor, parsed.
    pub fn value(&self) -> &Value {
        // Valid JSON within the depth limit (checked when it was read).
        self.value.get_or_init(|| crate::json_depth::parse(self.raw.get(), usize::MAX).unwrap_or_default())
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.value().get(key).and_then(Value::as_str)
    }

    pub fn name(&self) -> &str {
        self.str_field("name").unwrap_or("")
    }

    pub fn title(&self) -> Option<&str> {
        self.str_field("title")
    }

    pub fn description(&self) -> Option<&str> {
        self.str_field("description")
    }

    /// A resource's `uri`, or a template's `uriTemplate`.
    pub fn uri(&self) -> Option<&str> {
        self.kind.id_key().and_then(|k| self.str_field(k))
    }

    pub fn mime_type(&self) -> Option<&str> {
        self.str_field("mimeType")
    }

    /// A resource's declared size in bytes.
    pub fn size(&self) -> Option<u64> {
        self.value().get("size").and_then(Value::as_u64)
    }

    pub fn annotations(&self) -> Option<&Value> {
        self.value().get("annotations")
    }

    pub fn icons(&self) -> &[Value] {
        self.value().get("icons").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
    }

    pub fn meta(&self) -> Option<&Value> {
        self.value().get("_meta")
    }

    /// The members the readable views do not show by name (unknown fields, `_meta`), in order.
    pub fn extra_fields(&self) -> Vec<(&str, &Value)> {
        let known = self.kind.known_fields();
        match self.value().as_object() {
            Some(obj) => {
                obj.iter().filter(|(k, _)| !known.contains(&k.as_str())).map(|(k, v)| (k.as_str(), v)).collect()
            }
            None => vec![],
        }
    }

    /// A template's variables, in the order they appear.
    pub fn variables(&self) -> Vec<String> {
        match (self.kind, self.uri()) {
            (ItemKind::Template, Some(t)) => super::uri_template::variables(t),
            _ => vec![],
        }
    }

    /// A prompt's arguments (an argument without a string name is skipped; `problem` says so).
    pub fn arguments(&self) -> Vec<PromptArgument> {
        let Some(args) = self.value().get("arguments").and_then(Value::as_array) else { return vec![] };
        let text = |a: &Value, k: &str| a.get(k).and_then(Value::as_str).map(str::to_string);
        args.iter()
            .filter_map(|a| {
                Some(PromptArgument {
                    name: text(a, "name")?,
                    title: text(a, "title"),
                    description: text(a, "description"),
                    required: a.get("required").and_then(Value::as_bool).unwrap_or(false),
                })
            })
            .collect()
    }

    /// What identifies the item to the user: a resource's URI, else its name.
    pub fn label(&self) -> &str {
        if self.unreadable.is_some() {
            return "(unreadable)";
        }
        match self.kind {
            ItemKind::Resource => self.uri().unwrap_or_else(|| self.name()),
            _ => self.name(),
        }
    }

    /// Why this descriptor breaks the MCP schema, if it does (it is still listed).
    pub fn problem(&self) -> Option<String> {
        if let Some(e) = &self.unreadable {
            return Some(format!("descriptor cannot be read: {e}"));
        }
        let Some(obj) = self.value().as_object() else {
            return Some("descriptor is not a JSON object".into());
        };
        let noun = self.kind.noun();
        match obj.get("name") {
            Some(Value::String(s)) if !s.is_empty() => {}
            Some(Value::String(_)) => return Some(format!("{noun} name is empty")),
            Some(_) => return Some(format!("{noun} name is not a string")),
            None => return Some(format!("{noun} has no name")),
        }
        if let Some(key) = self.kind.id_key() {
            match obj.get(key) {
                Some(Value::String(s)) if !s.is_empty() => {}
                Some(Value::String(_)) => return Some(format!("{key} is empty")),
                Some(_) => return Some(format!("{key} is not a string")),
                None => return Some(format!("{noun} has no {key}")),
            }
        }
        if let Some(size) = obj.get("size")
            && !size.is_u64()
        {
            return Some("size is not a whole number of bytes".into());
        }
        if self.kind == ItemKind::Prompt {
            match obj.get("arguments") {
                None | Some(Value::Null) => {}
                Some(Value::Array(args)) => {
                    if let Some(i) = args.iter().position(|a| !a.get("name").is_some_and(Value::is_string)) {
                        return Some(format!("arguments[{i}] has no string name"));
                    }
                }
                Some(_) => return Some("arguments is not an array".into()),
            }
        }
        None
    }
}

/// Every item of one kind, after following `nextCursor` to the end.
#[derive(Debug, Clone)]
pub struct Listing {
    pub kind: ItemKind,
    pub items: Vec<Descriptor>,
    pub pages: usize,
    /// What went wrong along the way without stopping the listing (repeated cursor, malformed
    /// descriptors, the method not offered).
    pub warnings: Vec<String>,
    /// The server answered "method not found" (it does not offer this kind at all).
    pub unsupported: bool,
    /// The first page's cache hint (2026-07-28), as one line.
    pub cache: Option<String>,
}

impl Listing {
    pub fn new(kind: ItemKind) -> Self {
        Listing { kind, items: vec![], pages: 0, warnings: vec![], unsupported: false, cache: None }
    }

    /// The item with this name, or (resources, templates) this URI or URI template.
    pub fn find(&self, key: &str) -> Option<&Descriptor> {
        self.items.iter().find(|d| d.uri() == Some(key)).or_else(|| self.items.iter().find(|d| d.name() == key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(kind: ItemKind, text: &str) -> Descriptor {
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
        Descriptor::from_raw(kind, &raw, 50)
    }

    #[test]
    fn problems_are_named() {
        let ok = desc(ItemKind::Resource, r#"{"uri":"file:///a","name":"a","size":3,"x-extra":1}"#);
        assert_eq!(ok.problem(), None);
        assert_eq!(ok.size(), Some(3));
        assert_eq!(ok.extra_fields().len(), 1);
        let p = |k, t| desc(k, t).problem().unwrap_or_default();
        assert_eq!(p(ItemKind::Resource, r#"{"name":"a"}"#), "resource has no uri");
        assert_eq!(
            p(ItemKind::Resource, r#"{"uri":"x:/","name":"a","size":-1}"#),
            "size is not a whole number of bytes"
        );
        assert_eq!(p(ItemKind::Template, r#"{"name":"t","uriTemplate":7}"#), "uriTemplate is not a string");
        assert_eq!(p(ItemKind::Prompt, r#"{"name":"p","arguments":[{"x":1}]}"#), "arguments[0] has no string name");
        assert_eq!(p(ItemKind::Prompt, "[1]"), "descriptor is not a JSON object");
        let deep = format!(r#"{{"name":"d","x":{}{}}}"#, "[".repeat(60), "]".repeat(60));
        assert!(p(ItemKind::Prompt, &deep).contains("61 levels"));
    }

    #[test]
    fn prompt_arguments_and_template_variables() {
        let d = desc(
            ItemKind::Prompt,
            r#"{"name":"p","arguments":[{"name":"a","required":true},{"name":"b","description":"B"},{"x":1}]}"#,
        );
        let args = d.arguments();
        assert_eq!(args.len(), 2);
        assert!(args[0].required && !args[1].required);
        let t = desc(ItemKind::Template, r#"{"name":"t","uriTemplate":"db://{table}/rows{?limit,offset}"}"#);
        assert_eq!(t.variables(), ["table", "limit", "offset"]);
        assert_eq!(t.label(), "t");
    }
}
