//! An elicitation's requested schema held as the server sent it: the request's own text and an
//! index of the schema's properties (a name and a place a property), never a `Value` tree of the
//! whole. A property's facts are read when it is shown or checked; its choices are places in the
//! text ([`Choices`]). A schema of 100k properties took 70 times its bytes as a `Value` and a
//! form; a 1M-value enum 30 to 75 times.

use std::ops::Range;
use std::sync::Arc;

use serde_json::{Map, Value};

pub use super::ask_choices::Choices;
use super::ask_choices::offset;
use super::descriptor::object_members;

/// Schemas up to this many bytes are small: read whole, shown as the full form (a widget per
/// field and per choice, validation as you type) and validated whole. A bigger one is a window
/// over its text, its properties checked one by one.
pub const SMALL_SCHEMA: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct AskSchema(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    raw: Arc<String>,
    at: Range<usize>,
    props: Vec<Prop>,
    /// Required names that have no property.
    loose_required: Vec<String>,
    /// `additionalProperties: false`: no other names are allowed.
    closed: bool,
    /// `$defs` or `definitions`, for properties that refer to them.
    defs: Vec<(String, Range<usize>)>,
}

/// One property: its name, where its schema is in the text, and whether it is required.
#[derive(Debug)]
pub struct Prop {
    pub name: String,
    at: Range<usize>,
    pub required: bool,
}

/// What a property's schema says, read when it is shown.
#[derive(Debug, Default)]
pub struct PropInfo {
    pub types: Vec<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub default: Option<Value>,
    pub format: Option<String>,
    pub choices: Option<Choices>,
    /// An array of choices: several may be picked.
    pub multi: bool,
    /// The titles of an `enum`'s values (`enumNames`, the spec's older way to title them).
    pub names: Vec<String>,
}

impl PartialEq for AskSchema {
    fn eq(&self, other: &AskSchema) -> bool {
        self.text() == other.text()
    }
}

impl AskSchema {
    /// The schema `text`, a slice of the request `raw` (copied when it is not one).
    pub fn read(raw: &Arc<String>, text: &str) -> AskSchema {
        let (raw, at) = match offset(raw, text) {
            Some(start) => (raw.clone(), start..start + text.len()),
            None => (Arc::new(text.to_string()), 0..text.len()),
        };
        let mut inner = Inner { raw, at, props: vec![], loose_required: vec![], closed: false, defs: vec![] };
        inner.index();
        AskSchema(Arc::new(inner))
    }

    /// An object schema without properties (a request that names none).
    pub fn empty() -> AskSchema {
        let raw = Arc::new(r#"{"type":"object","properties":{}}"#.to_string());
        AskSchema::read(&raw.clone(), &raw)
    }

    /// The schema as sent.
    pub fn text(&self) -> &str {
        self.0.raw.get(self.0.at.clone()).unwrap_or_default()
    }

    pub fn is_small(&self) -> bool {
        self.text().len() <= SMALL_SCHEMA
    }

    /// The whole schema read (for a small one: see [`SMALL_SCHEMA`]).
    pub fn value(&self) -> Result<Value, String> {
        crate::json_depth::parse(self.text(), usize::MAX)
    }

    pub fn props(&self) -> &[Prop] {
        &self.0.props
    }

    /// The schema of property `i` as sent.
    pub fn prop_text(&self, i: usize) -> &str {
        let at = self.0.props.get(i).map_or(0..0, |p| p.at.clone());
        self.0.raw.get(at).unwrap_or_default()
    }

    /// What property `i`'s schema says.
    pub fn info(&self, i: usize) -> PropInfo {
        let mut info = PropInfo::default();
        let text = |v: &serde_json::value::RawValue| serde_json::from_str::<String>(v.get()).ok();
        for (key, v) in object_members(self.prop_text(i)).unwrap_or_default() {
            match key.as_str() {
                "type" => info.types = types(v.get()),
                "title" => info.title = text(v),
                "description" => info.description = text(v),
                "format" => info.format = text(v),
                "default" => info.default = super::exact_numbers::read(v.get(), usize::MAX).ok(),
                "enum" => info.choices = Choices::index(&self.0.raw, v.get(), false).or(info.choices),
                "enumNames" => info.names = serde_json::from_str(v.get()).unwrap_or_default(),
                "oneOf" | "anyOf" if info.choices.is_none() => {
                    info.choices = Choices::index(&self.0.raw, v.get(), true)
                }
                "items" => {
                    if let Some(c) = self.item_choices(v.get()) {
                        (info.choices, info.multi) = (Some(c), true);
                    }
                }
                _ => {}
            }
        }
        info
    }

    fn item_choices(&self, items: &str) -> Option<Choices> {
        let members = object_members(items)?;
        let list = |k: &str| members.iter().find(|(key, _)| key == k).map(|(_, v)| v.get());
        let plain = list("enum").and_then(|l| Choices::index(&self.0.raw, l, false));
        plain.or_else(|| list("anyOf").or(list("oneOf")).and_then(|l| Choices::index(&self.0.raw, l, true)))
    }

    /// Every default the properties give (SEP-1034: sent for fields the user leaves alone),
    /// taken as written: a number no `Value` holds is kept whole (see [`super::exact_numbers`]).
    pub fn defaults(&self) -> Map<String, Value> {
        let props = self.0.props.iter().enumerate();
        props.filter_map(|(i, p)| Some((p.name.clone(), self.default_of(i)?))).collect()
    }

    fn default_of(&self, i: usize) -> Option<Value> {
        let members = object_members(self.prop_text(i))?;
        let (_, v) = members.into_iter().find(|(k, _)| k == "default")?;
        super::exact_numbers::read(v.get(), crate::json_depth::DEFAULT_MAX_DEPTH).ok()
    }

    /// The whole schema read for a form (a small one), each property's default as
    /// [`Self::defaults`] reads it: the form shows and sends a number beyond 64 bits whole.
    pub fn form_value(&self) -> Result<Value, String> {
        let mut v = self.value()?;
        if let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) {
            for (name, d) in self.defaults() {
                if let Some(p) = props.get_mut(&name).and_then(Value::as_object_mut) {
                    p.insert("default".into(), d);
                }
            }
        }
        Ok(v)
    }

    /// A schema of the properties named in `names` only, read (what the user typed, for
    /// [`crate::schema::args::build`]).
    pub fn subset(&self, names: &[&str]) -> Value {
        let mut props = Map::new();
        for (i, p) in self.0.props.iter().enumerate().filter(|(_, p)| names.contains(&p.name.as_str())) {
            let schema = crate::json_depth::parse(self.prop_text(i), usize::MAX).unwrap_or(Value::Bool(true));
            props.insert(p.name.clone(), schema);
        }
        serde_json::json!({"type": "object", "properties": props})
    }

    pub(crate) fn loose_required(&self) -> &[String] {
        &self.0.loose_required
    }

    pub(crate) fn closed(&self) -> bool {
        self.0.closed
    }

    /// The schema's `$defs` and `definitions`, read, for a property that refers to them.
    pub(crate) fn defs(&self) -> Map<String, Value> {
        let read =
            |at: &Range<usize>| self.0.raw.get(at.clone()).and_then(|t| crate::json_depth::parse(t, usize::MAX).ok());
        self.0.defs.iter().filter_map(|(k, at)| Some((k.clone(), read(at)?))).collect()
    }
}

impl Inner {
    /// Finds the properties, the required names and the few root facts a check needs.
    fn index(&mut self) {
        let raw = self.raw.clone();
        let text = raw.get(self.at.clone()).unwrap_or_default();
        let place = |s: &str| offset(&raw, s).map(|start| start..start + s.len());
        let mut required = vec![];
        for (key, v) in object_members(text).unwrap_or_default() {
            match key.as_str() {
                "properties" => {
                    for (name, p) in object_members(v.get()).unwrap_or_default() {
                        let at = place(p.get()).unwrap_or(0..0);
                        self.props.push(Prop { name, at, required: false });
                    }
                }
                "required" => required = crate::json_depth::parse_borrowed::<Vec<String>>(v.get()).unwrap_or_default(),
                "additionalProperties" => self.closed = v.get() == "false",
                "$defs" | "definitions" => self.defs.extend(place(v.get()).map(|at| (key, at))),
                _ => {}
            }
        }
        let mut wanted: std::collections::HashSet<String> = required.into_iter().collect();
        for p in &mut self.props {
            p.required = wanted.remove(&p.name);
        }
        self.loose_required = wanted.into_iter().collect();
        self.loose_required.sort();
    }
}

/// A `type` as sent: a name or a list of names.
fn types(text: &str) -> Vec<String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::String(t)) => vec![t],
        Ok(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(v: Value) -> AskSchema {
        let raw = Arc::new(v.to_string());
        AskSchema::read(&raw.clone(), &raw)
    }

    #[test]
    fn properties_are_indexed_in_order_with_their_facts_read_on_demand() {
        let s = schema(json!({"type": "object", "required": ["b", "gone"], "additionalProperties": false,
            "properties": {"a": {"type": "string", "title": "A", "default": "x"},
                "b": {"type": ["integer", "null"], "enum": [1, 2]},
                "c": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "P"}]}}}}));
        let names: Vec<(&str, bool)> = s.props().iter().map(|p| (p.name.as_str(), p.required)).collect();
        assert_eq!(names, [("a", false), ("b", true), ("c", false)]);
        assert_eq!(s.loose_required(), ["gone"]);
        assert!(s.closed() && s.is_small());
        let a = s.info(0);
        assert_eq!((a.types, a.title, a.default), (vec!["string".to_string()], Some("A".into()), Some(json!("x"))));
        let b = s.info(1);
        assert_eq!((b.types.len(), b.choices.map(|c| c.len())), (2, Some(2)));
        let c = s.info(2);
        assert!(c.multi && c.choices.is_some_and(|c| c.label(0) == "P"));
        assert_eq!(Value::Object(s.defaults()), json!({"a": "x"}));
        assert_eq!(s.subset(&["b"])["properties"], json!({"b": {"type": ["integer", "null"], "enum": [1, 2]}}));
        assert_eq!(
            s,
            schema(json!({"type": "object", "required": ["b", "gone"], "additionalProperties": false,
            "properties": {"a": {"type": "string", "title": "A", "default": "x"},
                "b": {"type": ["integer", "null"], "enum": [1, 2]},
                "c": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "P"}]}}}}))
        );
    }

    #[test]
    fn a_default_beyond_64_bits_is_read_whole_for_the_answer_the_prompt_and_the_form() {
        let raw = Arc::new(r#"{"properties":{"i":{"type":"integer","default":12345678901234567890123}}}"#.to_string());
        let s = AskSchema::read(&raw.clone(), &raw);
        let shown = |v: &Value| crate::mcp::exact_numbers::shown(v);
        assert_eq!(shown(&Value::Object(s.defaults())), r#"{"i":12345678901234567890123}"#);
        assert_eq!(s.info(0).default.as_ref().map(shown).as_deref(), Some("12345678901234567890123"));
        let form = s.form_value().unwrap_or_default();
        assert_eq!(shown(&form["properties"]["i"]["default"]), "12345678901234567890123");
        // Checked as the number it reads as: an integer, within no maximum it passes.
        assert_eq!(s.problems(&s.defaults()).map(|v| v.len()), Ok(0));
    }

    #[test]
    fn a_schema_that_is_no_object_has_no_properties() {
        for text in ["[1]", "true", "{\"properties\": 3}"] {
            let raw = Arc::new(text.to_string());
            let s = AskSchema::read(&raw.clone(), &raw);
            assert!(s.props().is_empty(), "{text}");
        }
        assert_eq!(AskSchema::empty().text(), r#"{"type":"object","properties":{}}"#);
    }
}
