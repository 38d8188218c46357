//! Tool descriptors exactly as the server sent them.
//!
//! Each descriptor keeps its original text (for `--json` and the raw view, byte for byte) beside
//! a parsed value (for the tree and the form). Nothing is converted into a typed model and back:
//! that is how other clients lose schema detail (seed 003).

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

#[derive(Debug, Clone)]
pub struct ToolDescriptor {
    /// The descriptor's JSON text exactly as it appeared in the server's reply.
    pub raw: Box<RawValue>,
    /// Parsed when first needed: listing 20,000 tools as JSON never needs it.
    value: OnceLock<Value>,
    /// Why the descriptor could not be read (too deep), if it could not.
    pub unreadable: Option<String>,
}

impl ToolDescriptor {
    pub fn from_raw(raw: &RawValue, max_depth: usize) -> Self {
        let depth = crate::json_depth::depth(raw.get());
        let unreadable = (depth > max_depth)
            .then(|| format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)"));
        let value = OnceLock::new();
        if unreadable.is_some() {
            let _ = value.set(Value::Null);
        }
        ToolDescriptor { raw: raw.to_owned(), value, unreadable }
    }

    /// The descriptor, parsed.
    pub fn value(&self) -> &Value {
        // The text is valid JSON within the depth limit (checked when it was read).
        self.value.get_or_init(|| crate::json_depth::parse(self.raw.get(), usize::MAX).unwrap_or_default())
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.value().get(key).and_then(Value::as_str)
    }

    pub fn name(&self) -> &str {
        self.str_field("name").unwrap_or("")
    }

    /// `title`, or the older `annotations.title`.
    pub fn title(&self) -> Option<&str> {
        self.str_field("title")
            .or_else(|| self.value().get("annotations").and_then(|a| a.get("title")).and_then(Value::as_str))
    }

    pub fn description(&self) -> Option<&str> {
        self.str_field("description")
    }

    pub fn input_schema(&self) -> Option<&Value> {
        self.value().get("inputSchema")
    }

    pub fn output_schema(&self) -> Option<&Value> {
        self.value().get("outputSchema")
    }

    fn hint(&self, key: &str) -> Option<bool> {
        self.value().get("annotations").and_then(|a| a.get(key)).and_then(Value::as_bool)
    }

    pub fn read_only(&self) -> bool {
        self.hint("readOnlyHint") == Some(true)
    }

    /// Destructive per the spec's default: a tool that is not read-only is destructive unless it
    /// says otherwise.
    pub fn destructive(&self) -> bool {
        !self.read_only() && self.hint("destructiveHint") == Some(true)
    }

    /// Why this descriptor is unusable, if it is (it is still listed, never dropped).
    pub fn problem(&self) -> Option<String> {
        if let Some(e) = &self.unreadable {
            return Some(format!("descriptor cannot be read: {e}"));
        }
        // The common case, read without building the descriptor.
        #[derive(Deserialize)]
        struct Probe<'a> {
            #[serde(borrow)]
            name: Option<&'a RawValue>,
            #[serde(borrow, rename = "inputSchema")]
            input_schema: Option<&'a RawValue>,
        }
        if let Ok(Probe { name: Some(name), input_schema: Some(schema) }) =
            crate::json_depth::parse_borrowed::<Probe>(self.raw.get())
            && name.get().starts_with('"')
            && name.get() != "\"\""
            && (schema.get().starts_with('{') || matches!(schema.get(), "true" | "false"))
        {
            return None;
        }
        let Some(obj) = self.value().as_object() else {
            return Some("descriptor is not a JSON object".into());
        };
        match obj.get("name") {
            Some(Value::String(s)) if !s.is_empty() => {}
            Some(Value::String(_)) => return Some("tool name is empty".into()),
            Some(_) => return Some("tool name is not a string".into()),
            None => return Some("tool has no name".into()),
        }
        match obj.get("inputSchema") {
            Some(Value::Object(_)) | Some(Value::Bool(_)) => None,
            Some(_) => Some("inputSchema is not a JSON Schema object".into()),
            None => Some("tool has no inputSchema".into()),
        }
    }
}

/// Every tool of a server, after following `nextCursor` to the end.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    pub tools: Vec<ToolDescriptor>,
    pub pages: usize,
    /// What went wrong along the way without stopping the listing (repeated cursor, ...).
    pub warnings: Vec<String>,
}

impl ToolList {
    pub fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.tools.iter().find(|t| t.name() == name)
    }
}
