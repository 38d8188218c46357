//! Resource, resource template and prompt descriptors exactly as the server sent them.
//!
//! Like `ToolDescriptor`: the original text is kept byte for byte (for `--json` and the raw
//! view) beside a value parsed when first needed; a malformed descriptor is marked, never dropped.

use std::borrow::Cow;
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

    /// The server capability that offers the list.
    pub fn capability(self) -> &'static str {
        match self {
            ItemKind::Resource | ItemKind::Template => "resources",
            ItemKind::Prompt => "prompts",
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
    /// What the listings show, read from the text when the descriptor arrived: 200,000
    /// resources listed must not hold 200,000 parsed descriptors (as tools, see `tools::Listed`).
    fields: Fields,
    /// The whole descriptor, parsed when a detail view first needs it.
    value: OnceLock<Value>,
    /// Why the descriptor could not be read (too deep), if it could not.
    pub unreadable: Option<String>,
}

/// The members a listing shows (each only when it is a string; `size` when a whole number), and
/// what breaks the MCP schema.
#[derive(Debug, Clone, Default)]
struct Fields {
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    id: Option<String>,
    mime_type: Option<String>,
    size: Option<u64>,
    problem: Option<String>,
}

/// A member's text, `null` included (serde's `Option` would read `null` as absent).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&'de RawValue as serde::Deserialize>::deserialize(d).map(Some)
}

/// The members [`Fields`] reads, as text.
#[derive(serde::Deserialize, Default)]
struct Head<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    name: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    title: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    description: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    uri: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present", rename = "uriTemplate")]
    uri_template: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present", rename = "mimeType")]
    mime_type: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    size: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    arguments: Option<&'a RawValue>,
}

impl<'a> Head<'a> {
    fn read(text: &'a str) -> Option<Head<'a>> {
        crate::json_depth::parse_borrowed(text).ok()
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        let member = match key {
            "name" => self.name,
            "title" => self.title,
            "description" => self.description,
            "uri" => self.uri,
            "uriTemplate" => self.uri_template,
            "mimeType" => self.mime_type,
            "size" => self.size,
            "arguments" => self.arguments,
            _ => None,
        };
        member.map(RawValue::get)
    }
}

/// A member's text as the string it holds, if it is a string (read as `value()` would read it).
fn string_of(text: &str) -> Option<String> {
    text.starts_with('"').then(|| crate::json_depth::parse::<String>(text, 1).ok()).flatten()
}

impl Fields {
    /// Read from the text; a descriptor the quick read refuses (a repeated member) is parsed
    /// whole once, and dropped.
    fn read(kind: ItemKind, text: &str) -> Fields {
        if !text.trim_start().starts_with('{') {
            return Fields { problem: Some("descriptor is not a JSON object".into()), ..Fields::default() };
        }
        match Head::read(text) {
            Some(head) => Fields::from_members(kind, &|k| head.get(k).map(Cow::Borrowed)),
            None => {
                let v: Value = crate::json_depth::parse(text, usize::MAX).unwrap_or_default();
                let f = Fields::from_members(kind, &|k| v.get(k).map(|m| Cow::Owned(crate::deep::compact(m))));
                crate::deep::drop_value(v);
                f
            }
        }
    }

    fn from_members<'a>(kind: ItemKind, get: &dyn Fn(&str) -> Option<Cow<'a, str>>) -> Fields {
        let string = |k: &str| get(k).and_then(|t| string_of(&t));
        Fields {
            name: string("name"),
            title: string("title"),
            description: string("description"),
            id: kind.id_key().and_then(string),
            mime_type: string("mimeType"),
            size: get("size").and_then(|t| serde_json::from_str::<u64>(&t).ok()),
            problem: problem(kind, get),
        }
    }
}

/// Why a descriptor (an object) breaks the MCP schema, from its members' text.
fn problem<'a>(kind: ItemKind, get: &dyn Fn(&str) -> Option<Cow<'a, str>>) -> Option<String> {
    let noun = kind.noun();
    let name = get("name");
    match name.as_deref().map(string_of) {
        Some(Some(s)) if !s.is_empty() => {}
        Some(Some(_)) => return Some(format!("{noun} name is empty")),
        Some(None) => return Some(format!("{noun} name is not a string")),
        None => return Some(format!("{noun} has no name")),
    }
    if let Some(key) = kind.id_key() {
        match get(key).as_deref().map(string_of) {
            Some(Some(s)) if !s.is_empty() => {}
            Some(Some(_)) => return Some(format!("{key} is empty")),
            Some(None) => return Some(format!("{key} is not a string")),
            None => return Some(format!("{noun} has no {key}")),
        }
    }
    if let Some(size) = get("size")
        && serde_json::from_str::<u64>(&size).is_err()
    {
        return Some("size is not a whole number of bytes".into());
    }
    if kind == ItemKind::Prompt {
        match get("arguments").as_deref() {
            None | Some("null") => {}
            Some(args) if args.starts_with('[') => {
                let args = crate::json_depth::parse_borrowed::<Vec<&RawValue>>(args).unwrap_or_default();
                if let Some(i) = args.iter().position(|a| !has_string_name(a.get())) {
                    return Some(format!("arguments[{i}] has no string name"));
                }
            }
            Some(_) => return Some("arguments is not an array".into()),
        }
    }
    None
}

fn has_string_name(text: &str) -> bool {
    match Head::read(text) {
        Some(head) => head.name.is_some_and(|n| n.get().starts_with('"')),
        None if text.starts_with('{') => {
            let v: Value = crate::json_depth::parse(text, usize::MAX).unwrap_or_default();
            v.get("name").is_some_and(Value::is_string)
        }
        None => false,
    }
}

/// An object's members in order, their values as text (None when `text` is not an object).
pub(crate) fn object_members(text: &str) -> Option<Vec<(String, &RawValue)>> {
    crate::json_depth::parse_borrowed::<Members>(text).ok().map(|m| m.0)
}

/// An object's members in order, their values as text.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Members<'a>, M::Error> {
                let mut out = vec![];
                while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

impl Descriptor {
    pub fn from_raw(kind: ItemKind, raw: &RawValue, max_depth: usize) -> Self {
        let depth = crate::json_depth::depth(raw.get());
        let unreadable = (depth > max_depth)
            .then(|| format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)"));
        let value = OnceLock::new();
        let fields = match &unreadable {
            Some(e) => {
                let _ = value.set(Value::Null);
                Fields { problem: Some(format!("descriptor cannot be read: {e}")), ..Fields::default() }
            }
            None => Fields::read(kind, raw.get()),
        };
        Descriptor { kind, raw: raw.to_owned(), fields, value, unreadable }
    }

    /// The descriptor, parsed (kept from then on: for the detail view of one item).
    pub fn value(&self) -> &Value {
        // Valid JSON within the depth limit (checked when it was read).
        self.value.get_or_init(|| crate::json_depth::parse(self.raw.get(), usize::MAX).unwrap_or_default())
    }

    pub fn name(&self) -> &str {
        self.fields.name.as_deref().unwrap_or("")
    }

    pub fn title(&self) -> Option<&str> {
        self.fields.title.as_deref()
    }

    pub fn description(&self) -> Option<&str> {
        self.fields.description.as_deref()
    }

    /// A resource's `uri`, or a template's `uriTemplate`.
    pub fn uri(&self) -> Option<&str> {
        self.fields.id.as_deref()
    }

    pub fn mime_type(&self) -> Option<&str> {
        self.fields.mime_type.as_deref()
    }

    /// A resource's declared size in bytes.
    pub fn size(&self) -> Option<u64> {
        self.fields.size
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

    /// Each member's name and text, in order, read without parsing the values: the readable
    /// listing shows a few members of each of 200,000 items, each parsed alone.
    pub fn members(&self) -> Vec<(String, &RawValue)> {
        if self.unreadable.is_some() {
            return vec![];
        }
        object_members(self.raw.get()).unwrap_or_default()
    }

    /// A template's variables, in the order they appear.
    pub fn variables(&self) -> Vec<String> {
        match (self.kind, self.uri()) {
            (ItemKind::Template, Some(t)) => super::uri_template::variables(t),
            _ => vec![],
        }
    }

    /// A prompt's arguments (an argument without a string name is skipped; `problem` says so),
    /// read from the text one at a time (nothing parsed is kept).
    pub fn arguments(&self) -> Vec<PromptArgument> {
        if self.unreadable.is_some() {
            return vec![];
        }
        let text = |a: &Value, k: &str| a.get(k).and_then(Value::as_str).map(str::to_string);
        let argument = |a: &RawValue| {
            let a: Value = crate::json_depth::parse(a.get(), usize::MAX).ok()?;
            let arg = PromptArgument {
                name: text(&a, "name")?,
                title: text(&a, "title"),
                description: text(&a, "description"),
                required: a.get("required").and_then(Value::as_bool).unwrap_or(false),
            };
            crate::deep::drop_value(a);
            Some(arg)
        };
        let args = match Head::read(self.raw.get()) {
            Some(head) => head.arguments.map(|a| Cow::Borrowed(a.get())),
            None => self.value().get("arguments").map(|a| Cow::Owned(crate::deep::compact(a))),
        };
        let Some(args) = args.filter(|a| a.starts_with('[')) else { return vec![] };
        let items = crate::json_depth::parse_borrowed::<Vec<&RawValue>>(&args).unwrap_or_default();
        items.into_iter().filter_map(argument).collect()
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
        self.fields.problem.clone()
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
    /// Why the server offers none of this kind, when it does not: it declares no capability for
    /// it (it was not asked), or it answered "method not found".
    pub not_offered: Option<String>,
    /// The first page's cache hint (2026-07-28), as one line.
    pub cache: Option<String>,
}

impl Listing {
    pub fn new(kind: ItemKind) -> Self {
        Listing { kind, items: vec![], pages: 0, warnings: vec![], not_offered: None, cache: None }
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
