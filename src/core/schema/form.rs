//! The form model: a tool's input schema as editable fields, and the argument object they build.
//!
//! Rules users of other clients keep reporting as bugs, kept here:
//! - an optional field left empty is *omitted*, never sent as `""`, `null`, `[]` or `{}`;
//! - an explicit empty value or `null` is still possible when the user means it;
//! - numbers are typed freely (decimals, negatives) and integers are exact (within 64 bits);
//! - `$ref` is resolved; a recursive schema expands one level at a time, on demand.

use serde_json::{Map, Number, Value};

use super::resolve::resolve;
use crate::deep::Owned;

/// Deeper than this, fields are not built until asked for (as if recursive).
const MAX_DEPTH: usize = 24;
/// Fields a form builds at once; past them, a field that would hold others is built when it is
/// opened (as a recursive one is). `$ref`s let a schema of two kilobytes name millions of fields
/// (a definition of twelve properties, each a `$ref` to another such, five deep): built whole,
/// it took 26 s and 317 MB. Fewer for a small schema: see [`super::tree::size_bound`].
const EAGER_FIELDS: usize = 10_000;

#[derive(Debug, PartialEq)]
pub enum Kind {
    Text,
    Integer,
    Number,
    Boolean,
    Enum(Vec<Value>),
    /// An array of enum values: multi-select.
    MultiEnum(Vec<Value>),
    Const(Value),
    Object,
    Array,
    /// `oneOf`/`anyOf`: the variants' labels; the chosen one's field is the only child.
    Variant(Vec<String>),
    /// A `$ref` back into a schema being built: expanded on demand.
    Recursive,
    /// Anything the fields cannot express: edited as JSON text.
    Json,
}

/// What the user has set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Nothing: the field is omitted.
    Unset,
    /// A value (the text, toggle, choice or children).
    Set,
    /// Explicit `null`.
    Null,
    /// Explicit empty value: `""`, `[]` or `{}`.
    Empty,
}

/// How typed text becomes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// What the form sends: numbers the fields hold (64-bit integers, floats).
    Sent,
    /// What the JSON mode shows: also a number typed beyond those, with the digits typed.
    Typed,
}

#[derive(Debug)]
pub struct Field {
    /// The property name, `[i]` for array items, or the variant's label.
    pub key: String,
    /// The resolved schema of this field.
    pub schema: Owned,
    pub kind: Kind,
    pub required: bool,
    pub nullable: bool,
    pub state: State,
    /// The edit buffer of Text, Integer, Number and Json fields.
    pub text: String,
    /// Boolean value, Enum choice index, or Variant choice index.
    pub choice: Option<usize>,
    /// MultiEnum choices.
    pub chosen: Vec<bool>,
    pub children: Vec<Field>,
    /// For objects with `additionalProperties`: the schema of extra values.
    pub additional: Option<Owned>,
    /// This field is an extra key/value row of its parent (its key is editable).
    pub extra: bool,
    /// A `Recursive` field left unbuilt because the form had built enough (see [`EAGER_FIELDS`]),
    /// not because its schema recurs.
    pub deferred: bool,
    depth: usize,
}

// Cloned by hand: schemas and values from a server can nest deeper than a derived clone's stack.
impl Clone for Kind {
    fn clone(&self) -> Kind {
        let values = |v: &[Value]| v.iter().map(crate::deep::clone_value).collect();
        match self {
            Kind::Text => Kind::Text,
            Kind::Integer => Kind::Integer,
            Kind::Number => Kind::Number,
            Kind::Boolean => Kind::Boolean,
            Kind::Enum(v) => Kind::Enum(values(v)),
            Kind::MultiEnum(v) => Kind::MultiEnum(values(v)),
            Kind::Const(c) => Kind::Const(crate::deep::clone_value(c)),
            Kind::Object => Kind::Object,
            Kind::Array => Kind::Array,
            Kind::Variant(labels) => Kind::Variant(labels.clone()),
            Kind::Recursive => Kind::Recursive,
            Kind::Json => Kind::Json,
        }
    }
}

impl Drop for Kind {
    fn drop(&mut self) {
        match self {
            Kind::Enum(v) | Kind::MultiEnum(v) => v.drain(..).for_each(crate::deep::drop_value),
            Kind::Const(c) => crate::deep::drop_value(std::mem::take(c)),
            _ => {}
        }
    }
}

impl Clone for Field {
    fn clone(&self) -> Field {
        crate::deep::grow(|| Field {
            key: self.key.clone(),
            schema: self.schema.clone(),
            kind: self.kind.clone(),
            required: self.required,
            nullable: self.nullable,
            state: self.state,
            text: self.text.clone(),
            choice: self.choice,
            chosen: self.chosen.clone(),
            children: self.children.clone(),
            additional: self.additional.clone(),
            extra: self.extra,
            deferred: self.deferred,
            depth: self.depth,
        })
    }
}

/// The copy of its schema a field keeps. An object's children hold its properties: copying them
/// at every level would make nested objects quadratic.
fn kept_schema(s: &Value, kind: &Kind) -> Owned {
    match s {
        Value::Object(m) if *kind == Kind::Object => Owned(Value::Object(
            m.iter()
                .filter(|(k, _)| *k != "properties")
                .map(|(k, v)| (k.clone(), crate::deep::clone_value(v)))
                .collect(),
        )),
        other => Owned::copy(other),
    }
}

/// A value as compact JSON text, at any depth, a number kept as typed written as its digits.
fn json_text(v: &Value) -> String {
    let text = serde_json::to_string(&crate::deep::Deep(v)).unwrap_or_default();
    crate::mcp::wire::with_exact_literals(&text).into_owned()
}

/// Why text in a field is not a value of its kind.
pub fn parse_error(f: &Field) -> Option<String> {
    if f.state != State::Set {
        return None;
    }
    match f.kind {
        Kind::Integer
            if !f.text.trim().is_empty() && parse_integer(&f.text).or_else(|| f.whole_default()).is_none() =>
        {
            // Only digits past 64 bits are told of the JSON mode: it sends them, not other text.
            let digits = f.text.trim().trim_start_matches('-');
            Some(if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                "not an integer (64-bit: beyond that, use the JSON mode)".into()
            } else {
                "not an integer".into()
            })
        }
        Kind::Number if !f.text.trim().is_empty() && parse_number(&f.text).or_else(|| f.whole_default()).is_none() => {
            Some("not a number".into())
        }
        Kind::Json if !f.text.trim().is_empty() && json_value(&f.text).is_none() => Some("not valid JSON".into()),
        _ => None,
    }
}

/// Why the JSON mode cannot show the field's text: it is no value of the field's kind. A number
/// beyond what the fields send is one (the JSON mode keeps its digits), so it is not refused.
pub fn json_mode_error(f: &Field) -> Option<String> {
    parse_error(f)?;
    if f.value_in(Reading::Typed).is_some() {
        return None;
    }
    let what = match f.kind {
        Kind::Integer => "an integer",
        Kind::Number => "a number",
        _ => "valid JSON",
    };
    Some(format!("`{}` is not {what}", crate::sanitize::truncate(f.text.trim(), 40)))
}

/// A JSON field's text as a value, each number kept as typed (see `mcp::exact_numbers`).
fn json_value(text: &str) -> Option<Value> {
    crate::mcp::exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH).ok()
}

fn parse_integer(s: &str) -> Option<Value> {
    let s = s.trim();
    if let Ok(i) = s.parse::<i64>() {
        return Some(Value::from(i));
    }
    if let Ok(u) = s.parse::<u64>() {
        return Some(Value::from(u));
    }
    // "3.0" or "1e3" are integers too, written as numbers.
    let f: f64 = s.parse().ok()?;
    (f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15).then(|| Value::from(f as i64))
}

fn parse_number(s: &str) -> Option<Value> {
    let s = s.trim();
    if let Some(v) = parse_integer(s).filter(|_| !s.contains(['.', 'e', 'E'])) {
        return Some(v);
    }
    let normalized = if s.starts_with('.') {
        format!("0{s}")
    } else if s.starts_with("-.") {
        format!("-0{}", &s[1..])
    } else {
        s.to_string()
    };
    let f: f64 = normalized.parse().ok()?;
    Number::from_f64(f).map(Value::Number)
}

/// Typed text that is a JSON number the fields do not send (beyond 64 bits, or beyond a float):
/// that number with the digits typed, for the JSON mode.
fn typed_number(s: &str) -> Option<Value> {
    crate::mcp::exact_numbers::number(s.trim())
}

/// Digits, with an optional minus: an integer however long.
fn is_integer_literal(s: &str) -> bool {
    let digits = s.trim().strip_prefix('-').unwrap_or(s.trim());
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn types_of(schema: &Value) -> Vec<String> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => vec![],
    }
}

/// Whether a field of `schema` may hold other fields (through a `$ref`, properties, items or
/// variants).
fn holds_fields(schema: &Value) -> bool {
    let keys = ["$ref", "properties", "items", "oneOf", "anyOf", "allOf", "additionalProperties", "prefixItems"];
    schema.as_object().is_some_and(|m| keys.iter().any(|k| m.contains_key(*k)))
}

fn variant_label(i: usize, v: &Value) -> String {
    if let Some(t) = v.get("title").and_then(Value::as_str) {
        return t.to_string();
    }
    if let Some(c) = v.get("const") {
        return format!("const {c}");
    }
    if let Some(r) = v.get("$ref").and_then(Value::as_str) {
        return super::resolve::ref_name(r).to_string();
    }
    match types_of(v).first() {
        Some(t) => format!("{t} #{}", i + 1),
        None => format!("variant #{}", i + 1),
    }
}

/// Builds fields against one root schema (for `$ref`).
pub struct Builder<'a> {
    root: &'a Value,
    refs: Vec<String>,
    /// Fields built so far.
    built: usize,
    /// Fields built at once, past which nested ones wait until opened.
    eager: usize,
}

impl<'a> Builder<'a> {
    pub fn new(root: &'a Value) -> Self {
        Builder { root, refs: vec![], built: 0, eager: super::tree::size_bound(root, EAGER_FIELDS) }
    }

    /// Follows `$ref` chains; `None` when one points back into the stack (recursion). The merged
    /// schema is `None` when there was no `$ref` to follow: the schema is used as it is.
    fn deref(&self, schema: &Value) -> Option<(Option<Owned>, Vec<String>)> {
        let mut merged: Option<Owned> = None;
        let mut followed = vec![];
        for _ in 0..32 {
            let s = merged.as_deref().unwrap_or(schema);
            let Some(r) = s.get("$ref").and_then(Value::as_str).map(str::to_string) else { break };
            if self.refs.contains(&r) || followed.contains(&r) {
                return None;
            }
            let Some(target) = resolve(self.root, &r) else { break };
            // Sibling keywords of the $ref (description, default) win over the target's.
            let mut next = Owned::copy(target);
            if let (Value::Object(m), Value::Object(siblings)) = (&mut *next, s) {
                for (k, v) in siblings {
                    if k != "$ref" {
                        m.insert(k.clone(), crate::deep::clone_value(v));
                    }
                }
            }
            followed.push(r);
            merged = Some(next);
        }
        Some((merged, followed))
    }

    pub fn field(&mut self, key: &str, schema: &Value, required: bool, depth: usize) -> Field {
        crate::deep::grow(|| self.field_here(key, schema, required, depth))
    }

    fn field_here(&mut self, key: &str, schema: &Value, required: bool, depth: usize) -> Field {
        let mut f = Field {
            key: key.to_string(),
            schema: Owned::default(),
            kind: Kind::Json,
            required,
            nullable: false,
            state: State::Unset,
            text: String::new(),
            choice: None,
            chosen: vec![],
            children: vec![],
            additional: None,
            extra: false,
            deferred: false,
            depth,
        };
        self.built += 1;
        if self.built > self.eager && depth > 0 && holds_fields(schema) {
            f.kind = Kind::Recursive;
            f.deferred = true;
            f.schema = Owned::copy(schema);
            return f;
        }
        let Some((merged, followed)) = (depth < MAX_DEPTH).then(|| self.deref(schema)).flatten() else {
            f.kind = Kind::Recursive;
            f.schema = Owned::copy(schema);
            return f;
        };
        let s = merged.as_deref().unwrap_or(schema);
        let mut types = types_of(s);
        f.nullable = types.iter().any(|t| t == "null") || s.get("nullable") == Some(&Value::Bool(true));
        types.retain(|t| t != "null");
        let pushed = followed.len();
        self.refs.extend(followed);
        f.kind = match self.kind_of(s, &types) {
            Ok(kind) => kind,
            Err(inner) => {
                // One level deeper: a chain of nullable wrappers is as deep as it is long.
                let inner = self.field(key, inner, required, depth + 1);
                self.refs.truncate(self.refs.len() - pushed);
                return Field { nullable: true, ..inner };
            }
        };
        match &f.kind {
            Kind::Object => self.object_fields(&mut f, s),
            Kind::MultiEnum(opts) => f.chosen = vec![false; opts.len()],
            _ => {}
        }
        f.schema = kept_schema(s, &f.kind);
        self.first_value(&mut f, s);
        self.refs.truncate(self.refs.len() - pushed);
        f
    }

    /// What kind of field `s` makes (its `types` without "null"); Err(X) for `anyOf: [X, {type:
    /// null}]`, which is how many generators spell "nullable X".
    fn kind_of<'s>(&mut self, s: &'s Value, types: &[String]) -> Result<Kind, &'s Value> {
        let kind = if let Some(c) = s.get("const") {
            Kind::Const(crate::deep::clone_value(c))
        } else if let Some(Value::Array(opts)) = s.get("enum") {
            Kind::Enum(opts.iter().map(crate::deep::clone_value).collect())
        } else if let Some(consts) = titled_consts(s) {
            Kind::Enum(consts)
        } else if let Some(Value::Array(vs)) = s.get("oneOf").or_else(|| s.get("anyOf")) {
            let non_null: Vec<&Value> =
                vs.iter().filter(|v| v.get("type").and_then(Value::as_str) != Some("null")).collect();
            if non_null.len() == 1 && vs.len() == 2 {
                return Err(non_null[0]);
            }
            Kind::Variant(vs.iter().enumerate().map(|(i, v)| variant_label(i, v)).collect())
        } else {
            match types.first().map(String::as_str) {
                Some("string") => Kind::Text,
                Some("integer") => Kind::Integer,
                Some("number") => Kind::Number,
                Some("boolean") => Kind::Boolean,
                Some("object") => Kind::Object,
                Some("array") => self.array_kind(s),
                None if s.get("properties").is_some() => Kind::Object,
                None if s.get("items").is_some() => Kind::Array,
                _ => Kind::Json,
            }
        };
        let one_type =
            matches!(kind, Kind::Text | Kind::Integer | Kind::Number | Kind::Boolean | Kind::Object | Kind::Array);
        // "string or number" and the like: only JSON can say which.
        Ok(if types.len() > 1 && one_type { Kind::Json } else { kind })
    }

    /// An array of enum values (or titled consts) is a multi-select; any other, a list of items.
    fn array_kind(&mut self, s: &Value) -> Kind {
        let items = s.get("items").and_then(|i| Some((i, self.deref(i)?.0)));
        let items = items.as_ref().map(|(i, merged)| merged.as_deref().unwrap_or(i));
        match items.and_then(|i| i.get("enum")).and_then(Value::as_array) {
            Some(opts) => Kind::MultiEnum(opts.iter().map(crate::deep::clone_value).collect()),
            None => match items.and_then(titled_consts) {
                Some(consts) => Kind::MultiEnum(consts),
                None => Kind::Array,
            },
        }
    }

    /// An object's property fields, and what extra keys it takes.
    fn object_fields(&mut self, f: &mut Field, s: &Value) {
        // A set: a search of the list for each property was quadratic (50,000 required
        // properties froze the TUI for minutes).
        let req: std::collections::HashSet<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(Value::Object(props)) = s.get("properties") {
            for (name, p) in props {
                f.children.push(self.field(name, p, req.contains(name.as_str()), f.depth + 1));
            }
        }
        match s.get("additionalProperties") {
            Some(a @ Value::Object(_)) => f.additional = Some(Owned::copy(a)),
            Some(Value::Bool(true)) => f.additional = Some(Owned(Value::Object(Map::new()))),
            None if s.get("properties").is_none() => f.additional = Some(Owned(Value::Object(Map::new()))),
            _ => {}
        }
    }

    /// The value a field starts with: its default, else for a required array the items it needs.
    fn first_value(&mut self, f: &mut Field, s: &Value) {
        if let Some(d) = s.get("default").map(Owned::copy) {
            f.load(&d, self);
            // A default of `{}` is what the server assumes anyway: the field stays omitted, as
            // any optional field left empty.
            if f.state == State::Empty {
                f.state = State::Unset;
            }
        } else if f.kind == Kind::Array && f.required {
            // A required array that needs items starts with them, ready to fill in.
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0).min(3) as usize;
            for i in 0..min {
                let item = self.item(f, i);
                f.children.push(item);
            }
        }
    }

    /// A new item for an array field.
    pub fn item(&mut self, array: &Field, index: usize) -> Field {
        let items = Owned(array.schema.get("items").map(crate::deep::clone_value).unwrap_or(Value::Bool(true)));
        let mut f = self.field(&format!("[{index}]"), &items, true, array.depth + 1);
        if f.state == State::Unset && !matches!(f.kind, Kind::Object | Kind::Array | Kind::Variant(_)) {
            f.state = State::Set;
        }
        f
    }

    /// A new extra key/value row of an object with `additionalProperties`.
    pub fn extra(&mut self, object: &Field, key: &str) -> Field {
        let schema = object.additional.clone().unwrap_or(Owned(Value::Bool(true)));
        let mut f = self.field(key, &schema, false, object.depth + 1);
        f.extra = true;
        f
    }

    /// Expands a recursive field one level.
    pub fn expand(&mut self, f: &mut Field) {
        if f.kind != Kind::Recursive {
            return;
        }
        let saved = std::mem::take(&mut self.refs);
        let depth = if f.depth >= MAX_DEPTH { 0 } else { f.depth };
        self.built = 0;
        let mut built = self.field(&f.key, &f.schema, f.required, depth);
        self.refs = saved;
        built.extra = f.extra;
        built.depth = f.depth;
        *f = built;
    }

    /// The field for variant `i` of `f`.
    pub fn choose(&mut self, f: &mut Field, i: usize) {
        let variants = f.schema.get("oneOf").or_else(|| f.schema.get("anyOf")).and_then(Value::as_array);
        let Some(v) = variants.and_then(|vs| vs.get(i)).map(Owned::copy) else { return };
        let label = match &f.kind {
            Kind::Variant(labels) => labels.get(i).cloned().unwrap_or_default(),
            _ => String::new(),
        };
        let mut child = self.field(&label, &v, true, f.depth + 1);
        if child.state == State::Unset && matches!(child.kind, Kind::Const(_)) {
            child.state = State::Set;
        }
        f.choice = Some(i);
        f.children = vec![child];
        f.state = State::Set;
    }
}

impl Field {
    pub fn is_container(&self) -> bool {
        matches!(self.kind, Kind::Object | Kind::Array | Kind::Variant(_))
    }

    pub fn is_text(&self) -> bool {
        matches!(self.kind, Kind::Text | Kind::Integer | Kind::Number | Kind::Json)
    }

    /// The value this field contributes, or None to omit it.
    pub fn value(&self) -> Option<Value> {
        self.value_in(Reading::Sent)
    }

    fn value_in(&self, reading: Reading) -> Option<Value> {
        crate::deep::grow(|| self.value_here(reading))
    }

    fn value_here(&self, reading: Reading) -> Option<Value> {
        match self.state {
            State::Null => return Some(Value::Null),
            State::Empty => {
                return Some(match self.kind {
                    Kind::Object => Value::Object(Map::new()),
                    Kind::Array | Kind::MultiEnum(_) => Value::Array(vec![]),
                    _ => Value::String(String::new()),
                });
            }
            State::Unset => {
                // A required const is implied, and a container is there when something in it
                // is set; everything else unset is omitted.
                return match &self.kind {
                    Kind::Const(c) if self.required => Some(crate::deep::clone_value(c)),
                    Kind::Object => {
                        let m = self.object_value(reading);
                        (!m.is_empty()).then_some(Value::Object(m))
                    }
                    Kind::Array => {
                        let items = self.items_value(reading);
                        (!items.is_empty()).then_some(Value::Array(items))
                    }
                    Kind::Variant(_) => self.children.first().and_then(|c| c.value_in(reading)),
                    _ => None,
                };
            }
            State::Set => {}
        }
        match &self.kind {
            Kind::Text => Some(Value::String(self.text.clone())),
            Kind::Integer | Kind::Number => self.number_value(reading),
            Kind::Json => json_value(&self.text),
            Kind::Boolean => self.choice.map(|c| Value::Bool(c == 1)),
            Kind::Enum(opts) => self.choice.and_then(|c| opts.get(c)).map(crate::deep::clone_value),
            Kind::MultiEnum(opts) => Some(Value::Array(
                opts.iter()
                    .zip(&self.chosen)
                    .filter(|(_, on)| **on)
                    .map(|(o, _)| crate::deep::clone_value(o))
                    .collect(),
            )),
            Kind::Const(c) => Some(crate::deep::clone_value(c)),
            Kind::Object => {
                let m = self.object_value(reading);
                (!m.is_empty() || self.required).then_some(Value::Object(m))
            }
            Kind::Array => Some(Value::Array(self.items_value(reading))),
            Kind::Variant(_) => self.children.first().and_then(|c| c.value_in(reading)),
            Kind::Recursive => None,
        }
    }

    /// The schema's default when it is a number kept whole (an elicitation's default beyond 64
    /// bits, see `mcp::exact_numbers`) and the text still reads it: that number, sent as written.
    fn whole_default(&self) -> Option<Value> {
        let d = self.schema.get("default")?;
        let literal = crate::mcp::exact_numbers::literal(d)?;
        (literal == self.text.trim()).then(|| d.clone())
    }

    /// An integer or number field's text as its number; as the JSON mode reads it, also a number
    /// the fields do not send (beyond 64 bits, or beyond a float), with the digits typed.
    fn number_value(&self, reading: Reading) -> Option<Value> {
        let parsed = if self.kind == Kind::Integer { parse_integer(&self.text) } else { parse_number(&self.text) };
        parsed.or_else(|| self.whole_default()).or_else(|| {
            let typed = typed_number(&self.text).filter(|_| reading == Reading::Typed)?;
            (self.kind == Kind::Number || is_integer_literal(&self.text)).then_some(typed)
        })
    }

    fn object_value(&self, reading: Reading) -> Map<String, Value> {
        self.children.iter().filter_map(|c| c.value_in(reading).map(|v| (c.key.clone(), v))).collect()
    }

    fn items_value(&self, reading: Reading) -> Vec<Value> {
        self.children.iter().filter_map(|c| c.value_in(reading)).collect()
    }

    /// Makes the field contribute nothing, down to its last child: a field cleared (Ctrl-D), or a
    /// member absent from the arguments loaded, is absent from what the form builds, not sent
    /// anyway as a default, a value typed or an item under it.
    pub fn omit(&mut self) {
        crate::deep::grow(|| self.omit_here())
    }

    fn omit_here(&mut self) {
        self.state = State::Unset;
        self.text.clear();
        self.choice = None;
        self.chosen.iter_mut().for_each(|c| *c = false);
        if matches!(self.kind, Kind::Variant(_)) {
            // The chosen variant's const would be implied: no variant is chosen.
            self.children.clear();
            return;
        }
        self.children.retain(|c| !c.extra);
        self.children.iter_mut().for_each(Field::omit);
        if self.kind == Kind::Array {
            // An item that still holds a value (an implied const) would be sent.
            self.children.retain(|c| c.value().is_none());
            for (i, c) in self.children.iter_mut().enumerate() {
                c.key = format!("[{i}]");
            }
        }
    }

    /// Fills the field from `v`. Returns false where the fields cannot hold `v` (the JSON mode can).
    pub fn load(&mut self, v: &Value, b: &mut Builder) -> bool {
        crate::deep::grow(|| self.load_here(v, b))
    }

    fn load_here(&mut self, v: &Value, b: &mut Builder) -> bool {
        if v.is_null() {
            self.state = State::Null;
            return true;
        }
        self.state = State::Set;
        match (&self.kind, v) {
            (Kind::Text, Value::String(s)) => self.text = s.clone(),
            (Kind::Integer | Kind::Number, Value::Number(n)) => self.text = n.to_string(),
            (Kind::Integer | Kind::Number, v @ Value::String(_)) if crate::mcp::exact_numbers::literal(v).is_some() => {
                self.text = crate::mcp::exact_numbers::shown(v);
            }
            (Kind::Boolean, Value::Bool(x)) => self.choice = Some(usize::from(*x)),
            (Kind::Enum(opts), v) => match opts.iter().position(|o| crate::deep::equal(o, v)) {
                Some(i) => self.choice = Some(i),
                None => return false,
            },
            (Kind::MultiEnum(opts), Value::Array(items)) => {
                let has = |list: &[Value], v: &Value| list.iter().any(|x| crate::deep::equal(x, v));
                self.chosen = opts.iter().map(|o| has(items, o)).collect();
                if items.iter().any(|i| !has(opts, i)) {
                    return false;
                }
            }
            (Kind::Const(c), v) => return crate::deep::equal(c, v),
            (Kind::Object, Value::Object(m)) => {
                let ok = self.load_object(m, b);
                // An optional object is sent as `{}` only as an explicit empty value.
                if m.is_empty() && !self.required {
                    self.state = State::Empty;
                }
                return ok;
            }
            (Kind::Array, Value::Array(items)) => return self.load_items(items, b),
            (Kind::Variant(labels), v) => {
                let n = labels.len();
                return self.load_variant(n, v, b);
            }
            (Kind::Recursive, v) => {
                b.expand(self);
                if self.kind == Kind::Recursive {
                    return false;
                }
                return self.load(v, b);
            }
            (Kind::Json, v) => self.text = json_text(v),
            (Kind::Text, other) => {
                self.text = json_text(other);
                return false;
            }
            _ => {
                self.kind = Kind::Json;
                self.text = json_text(v);
            }
        }
        true
    }

    /// An object's members into its fields; a member without one becomes an added key where the
    /// object takes them.
    fn load_object(&mut self, m: &Map<String, Value>, b: &mut Builder) -> bool {
        self.children.retain(|c| !c.extra);
        for c in &mut self.children {
            c.omit();
        }
        let mut ok = true;
        for (k, val) in m {
            if let Some(c) = self.children.iter_mut().find(|c| &c.key == k) {
                ok &= c.load(val, b);
            } else if self.additional.is_some() {
                let mut extra = b.extra(self, k);
                ok &= extra.load(val, b);
                self.children.push(extra);
            } else {
                ok = false;
            }
        }
        ok
    }

    fn load_items(&mut self, items: &[Value], b: &mut Builder) -> bool {
        self.children.clear();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            let mut f = b.item(self, i);
            ok &= f.load(item, b);
            self.children.push(f);
        }
        ok
    }

    /// The first of the `n` variants that holds the value without loss.
    fn load_variant(&mut self, n: usize, v: &Value, b: &mut Builder) -> bool {
        for i in 0..n {
            let mut probe = self.clone();
            b.choose(&mut probe, i);
            if let Some(child) = probe.children.first_mut()
                && child.load(v, b)
                && child.value().is_some_and(|got| crate::deep::equal(&got, v))
            {
                *self = probe;
                return true;
            }
        }
        self.state = State::Unset;
        false
    }

    /// Short hints for the focused field: format, constraints, description.
    pub fn hints(&self) -> Vec<String> {
        let mut out = vec![];
        if let Some(d) = self.schema.get("description").and_then(Value::as_str) {
            out.push(d.to_string());
        }
        let mut facts = vec![];
        for k in [
            "format",
            "pattern",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "uniqueItems",
            "default",
            "examples",
        ] {
            match self.schema.get(k) {
                Some(v) if crate::mcp::exact_numbers::literal(v).is_some() => {
                    facts.push(format!("{k}={}", crate::mcp::exact_numbers::shown(v)));
                }
                Some(v) => facts.push(format!("{k}={}", super::tree::compact(v))),
                None => {}
            }
        }
        if let Some(f) = self.schema.get("format").and_then(Value::as_str) {
            let example = match f {
                "email" => Some("name@example.com"),
                "uri" | "url" => Some("https://example.com/path"),
                "uuid" => Some("0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c"),
                "date" => Some("2026-11-21"),
                "date-time" => Some("2026-11-21T09:30:00Z"),
                "time" => Some("09:30:00"),
                _ => None,
            };
            if let Some(e) = example {
                facts.push(format!("e.g. {e}"));
            }
        }
        // SEP-2243: the value also travels as an HTTP header on the call.
        if let Some(h) = self.schema.get("x-mcp-header").and_then(Value::as_str) {
            facts.push(format!("sent as header {}{}", crate::mcp::param_headers::PREFIX, crate::sanitize::line(h)));
        }
        if !facts.is_empty() {
            out.push(facts.join("  "));
        }
        out
    }
}

/// `oneOf`/`anyOf` whose every member is a `const` (with a title, as elicitation's titled enums
/// and many generators write a labelled choice): the consts, a choice of values like `enum`.
fn titled_consts(s: &Value) -> Option<Vec<Value>> {
    let members = s.get("oneOf").or_else(|| s.get("anyOf"))?.as_array()?;
    let consts: Option<Vec<Value>> = members.iter().map(|m| m.get("const").cloned()).collect();
    consts.filter(|c| !c.is_empty())
}

/// The labels a choice shows: each option's `title` (`oneOf`/`anyOf` of consts, or the legacy
/// `enumNames`), else the value itself.
pub fn option_labels(f: &Field) -> Vec<String> {
    let plain = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let (opts, schema) = match &f.kind {
        Kind::Enum(o) => (o, &*f.schema),
        Kind::MultiEnum(o) => (o, f.schema.get("items").unwrap_or(&f.schema)),
        _ => return vec![],
    };
    let members = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array);
    let names = schema.get("enumNames").and_then(Value::as_array);
    opts.iter()
        .enumerate()
        .map(|(i, v)| {
            let title = members
                .and_then(|m| m.iter().find(|m| m.get("const") == Some(v)))
                .and_then(|m| m.get("title"))
                .or_else(|| names.and_then(|n| n.get(i)))
                .and_then(Value::as_str);
            match title {
                Some(t) if *t != plain(v) => format!("{t} ({})", plain(v)),
                _ => plain(v),
            }
        })
        .collect()
}

/// A whole form: the root object field of a tool's input schema.
#[derive(Debug, Clone)]
pub struct Form {
    pub schema: Owned,
    pub root: Field,
}

impl Form {
    pub fn new(schema: &Value) -> Form {
        let mut b = Builder::new(schema);
        let mut root = b.field("", schema, true, 0);
        if root.kind != Kind::Object {
            // A non-object root schema (`oneOf` of objects, or nonsense): still a form.
            root.required = true;
        }
        Form { schema: Owned::copy(schema), root }
    }

    /// The arguments the form builds (an object; `{}` when nothing is set).
    pub fn arguments(&self) -> Value {
        match self.root.value() {
            Some(v @ Value::Object(_)) => v,
            Some(other) => other,
            None => Value::Object(Map::new()),
        }
    }

    /// The arguments as the JSON mode shows them: as [`Form::arguments`], with each number typed
    /// beyond what the fields send kept as typed (see [`json_mode_error`] for text that is none).
    pub fn json_arguments(&self) -> Value {
        match self.root.value_in(Reading::Typed) {
            Some(v) => v,
            None => Value::Object(Map::new()),
        }
    }

    /// Fills the form from an argument object; false when some part could not be shown as fields.
    pub fn load(&mut self, args: &Value) -> bool {
        let schema = self.schema.clone();
        let mut b = Builder::new(&schema);
        let ok = self.root.load(args, &mut b);
        self.root.state = State::Set;
        ok
    }

    /// A builder for structural edits (add item, choose variant, expand).
    pub fn with_builder<R>(&mut self, f: impl FnOnce(&mut Field, &mut Builder) -> R, path: &[usize]) -> Option<R> {
        let schema = self.schema.clone();
        let mut b = Builder::new(&schema);
        let field = field_at_mut(&mut self.root, path)?;
        Some(f(field, &mut b))
    }
}

pub fn field_at<'a>(root: &'a Field, path: &[usize]) -> Option<&'a Field> {
    let mut f = root;
    for i in path {
        f = f.children.get(*i)?;
    }
    Some(f)
}

pub fn field_at_mut<'a>(root: &'a mut Field, path: &[usize]) -> Option<&'a mut Field> {
    let mut f = root;
    for i in path {
        f = f.children.get_mut(*i)?;
    }
    Some(f)
}

/// The field at `path` as a person names it: its keys from the root, as the rows show them
/// (`queries[0].match.fuzziness`); a variant's label is left out, as the arguments have none.
pub fn label(root: &Field, path: &[usize]) -> String {
    let mut out = String::new();
    for (parent, _, c) in steps(root, path) {
        match parent.kind {
            Kind::Variant(_) => {}
            Kind::Array => out.push_str(&c.key),
            _ => joined(&mut out, &c.key),
        }
    }
    out
}

/// The steps from `root` down `path`, as far as it leads: each field passed, the index taken in
/// it, and the child that index names.
fn steps<'a>(root: &'a Field, path: &'a [usize]) -> impl Iterator<Item = (&'a Field, usize, &'a Field)> + 'a {
    let mut at = Some(root);
    path.iter().map_while(move |&i| {
        let parent = at?;
        let child = parent.children.get(i)?;
        at = Some(child);
        Some((parent, i, child))
    })
}

fn joined(out: &mut String, key: &str) {
    if !out.is_empty() && !key.starts_with('[') {
        out.push('.');
    }
    out.push_str(key);
}

/// Where `got` first differs from `want`, named as [`label`] names a field; `Some("")` when the
/// two differ at their root. For the JSON mode to say which member the fields could not hold.
pub fn first_difference(want: &Value, got: &Value) -> Option<String> {
    crate::deep::grow(|| match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let mut keys = w.keys().chain(g.keys().filter(|k| !w.contains_key(*k)));
            keys.find_map(|k| {
                let inner = match (w.get(k), g.get(k)) {
                    (Some(a), Some(b)) => first_difference(a, b)?,
                    _ => String::new(),
                };
                Some(prefixed(k.clone(), &inner))
            })
        }
        (Value::Array(w), Value::Array(g)) => (0..w.len().max(g.len())).find_map(|i| {
            let inner = match (w.get(i), g.get(i)) {
                (Some(a), Some(b)) => first_difference(a, b)?,
                _ => String::new(),
            };
            Some(prefixed(format!("[{i}]"), &inner))
        }),
        _ => (!crate::deep::equal(want, got)).then(String::new),
    })
}

fn prefixed(mut head: String, rest: &str) -> String {
    if !rest.is_empty() {
        joined(&mut head, rest);
    }
    head
}

/// The JSON pointer of the field at `path` (for matching validation errors to fields).
pub fn pointer(root: &Field, path: &[usize]) -> String {
    let mut out = String::new();
    for (parent, i, c) in steps(root, path) {
        match parent.kind {
            Kind::Variant(_) => {}
            Kind::Array => {
                out.push_str(&format!("/{}", parent.children[..i].iter().filter(|x| x.value().is_some()).count()))
            }
            _ => out.push_str(&format!("/{}", c.key.replace('~', "~0").replace('/', "~1"))),
        }
    }
    out
}

#[cfg(test)]
mod tests;
