//! The value at a path, found without building the whole answer as a tree: a pointer into the
//! reply's text is walked one level at a time (each level's members borrowed from the text), and
//! an envelope's list of records is counted, searched and indexed as it is held.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::Value;
use serde_json::value::RawValue;

use super::expect::show;
use super::model::JsonType;
use crate::envelope::{Data, Envelope};

/// What a check looks at: a value, the text of one in the reply (parsed only as far as a check
/// needs), or an envelope's list of records as held.
pub enum Subject<'a> {
    Ref(&'a Value),
    Owned(Value),
    Raw { text: &'a RawValue, max_depth: usize },
    Items(&'a Data),
}

impl Subject<'_> {
    /// The value itself (a list of records, or a value in the reply's text, is built whole:
    /// `equals` and `--update` ask for it).
    pub fn value(&self) -> Cow<'_, Value> {
        match self {
            Subject::Ref(v) => Cow::Borrowed(v),
            Subject::Owned(v) => Cow::Borrowed(v),
            Subject::Raw { text, max_depth } => {
                Cow::Owned(crate::json::depth::parse(text.get(), *max_depth).unwrap_or(Value::Null))
            }
            Subject::Items(d) => {
                Cow::Owned(Value::Array((0..d.item_count()).filter_map(|i| d.item(i).map(Cow::into_owned)).collect()))
            }
        }
    }

    pub fn json_type(&self) -> JsonType {
        match self {
            Subject::Items(_) => JsonType::Array,
            Subject::Raw { text, .. } => match text.get().as_bytes().first() {
                Some(b'{') => JsonType::Object,
                Some(b'[') => JsonType::Array,
                Some(b'"') => JsonType::String,
                Some(b't' | b'f') => JsonType::Boolean,
                Some(b'n') => JsonType::Null,
                _ => JsonType::of(&self.value()),
            },
            other => JsonType::of(&other.value()),
        }
    }

    pub fn length(&self) -> Option<u64> {
        match self {
            Subject::Items(d) => Some(d.item_count() as u64),
            Subject::Raw { text, .. } => match self.json_type() {
                JsonType::Array => elements(text).map(|e| e.len() as u64),
                JsonType::Object => members(text).map(|m| m.len() as u64),
                JsonType::String => self.string().map(|s| s.chars().count() as u64),
                _ => None,
            },
            other => super::expect::length(&other.value()),
        }
    }

    pub fn string(&self) -> Option<Cow<'_, str>> {
        match self {
            Subject::Ref(v) => v.as_str().map(Cow::Borrowed),
            Subject::Owned(v) => v.as_str().map(Cow::Borrowed),
            Subject::Raw { text, .. } if self.json_type() == JsonType::String => {
                serde_json::from_str::<String>(text.get()).ok().map(Cow::Owned)
            }
            Subject::Raw { .. } | Subject::Items(_) => None,
        }
    }

    /// Whether a list holds an element equal to `want` (elements parsed one at a time).
    pub fn has_element(&self, want: &Value) -> bool {
        let same = super::expect::same;
        match self {
            Subject::Items(d) => (0..d.item_count()).any(|i| d.item(i).is_some_and(|v| same(&v, want))),
            Subject::Raw { text, max_depth } => elements(text).is_some_and(|e| {
                e.iter().any(|x| crate::json::depth::parse::<Value>(x.get(), *max_depth).is_ok_and(|v| same(&v, want)))
            }),
            other => other.value().as_array().is_some_and(|a| a.iter().any(|x| same(x, want))),
        }
    }

    /// Whether an object has the member `key`.
    pub fn has_member(&self, key: &str) -> bool {
        match self {
            Subject::Raw { text, .. } => members(text).is_some_and(|m| m.contains_key(key)),
            Subject::Items(_) => false,
            other => other.value().get(key).is_some(),
        }
    }

    /// As a failure shows it: compact JSON, cut short.
    pub fn show(&self) -> String {
        match self {
            Subject::Items(d) => {
                let first = d.item(0).map(|v| show(&v)).unwrap_or_default();
                format!("[{first}, …] ({} items)", d.item_count())
            }
            // A big value is shown by the start of its text, not parsed whole.
            Subject::Raw { text, .. } if text.get().len() > 4096 => {
                crate::sanitize::line_head(text.get(), 120).into_owned()
            }
            other => show(&other.value()),
        }
    }
}

fn elements(text: &RawValue) -> Option<Vec<&RawValue>> {
    crate::deep::grow(|| serde_json::from_str(text.get())).ok()
}

fn members(text: &RawValue) -> Option<BTreeMap<String, &RawValue>> {
    crate::deep::grow(|| serde_json::from_str(text.get())).ok()
}

/// The pointer's tokens, `~1` and `~0` read as `/` and `~`.
fn tokens(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")).collect()
}

/// The text of the value at `pointer` in the JSON text `text`; `None` when there is none.
pub fn raw_at<'a>(text: &'a str, pointer: &str) -> Option<&'a RawValue> {
    let mut here: &'a RawValue = crate::deep::grow(|| serde_json::from_str(text)).ok()?;
    for token in tokens(pointer) {
        here = crate::deep::grow(|| step(here, &token))?;
    }
    Some(here)
}

/// One level down: a member of an object or an element of an array, borrowed from the text.
fn step<'a>(here: &'a RawValue, token: &str) -> Option<&'a RawValue> {
    let text = here.get();
    match text.trim_start().as_bytes().first() {
        // The last of duplicate keys wins, as when the reply was parsed.
        Some(b'{') => members(here)?.get(token).copied(),
        Some(b'[') => elements(here)?.get(array_index(token)?).copied(),
        _ => None,
    }
}

/// An array index as RFC 6901 writes it: digits, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    (digits && (token == "0" || !token.starts_with('0'))).then(|| token.parse().ok()).flatten()
}

/// The reply's result (`result`, or `error` for a JSON-RPC error reply) at `pointer`.
pub fn result_at<'a>(raw: &'a str, pointer: &str, max_depth: usize) -> Option<Subject<'a>> {
    let member = raw_at(raw, "/error").or_else(|| raw_at(raw, "/result"))?;
    raw_at(member.get(), pointer).map(|text| Subject::Raw { text, max_depth })
}

/// The envelope (as `call --json` prints it) at `pointer`.
pub fn envelope_at<'a>(env: &'a Envelope, pointer: &str) -> Option<Subject<'a>> {
    let tokens = tokens(pointer);
    let Some((first, rest)) = tokens.split_first() else {
        return Some(Subject::Owned(env.to_json()));
    };
    if first != "data" {
        let member = crate::deep::grow(|| member(env, first))?;
        return descend(member, rest).map(Subject::Owned);
    }
    match (&env.data, rest.split_first()) {
        (Data::Items(_), None) => Some(Subject::Items(&env.data)),
        (Data::Items(_), Some((index, rest))) => {
            let item = env.data.item(array_index(index)?)?.into_owned();
            descend(item, rest).map(Subject::Owned)
        }
        (Data::Value(v), _) => {
            let mut v = v;
            for t in rest {
                v = match v {
                    Value::Object(o) => o.get(t.as_str())?,
                    Value::Array(a) => a.get(array_index(t)?)?,
                    _ => return None,
                };
            }
            Some(Subject::Ref(v))
        }
    }
}

/// A member of the envelope other than `data`, as JSON.
fn member(env: &Envelope, name: &str) -> Option<Value> {
    let json = |v: Result<Value, serde_json::Error>| v.ok();
    match name {
        "toolName" => Some(Value::String(env.tool_name.clone())),
        "responseType" => Some(Value::String(env.response_type.as_str().into())),
        "pagination" => json(serde_json::to_value(&env.pagination)),
        "summary" => json(serde_json::to_value(&env.summary)),
        "status" => json(serde_json::to_value(env.status)),
        "message" => Some(env.message.clone().map_or(Value::Null, Value::String)),
        "error" => json(serde_json::to_value(&env.error)),
        "metadata" => env.metadata.as_ref().map(|m| Value::Object(m.clone())),
        _ => None,
    }
}

fn descend(mut v: Value, rest: &[String]) -> Option<Value> {
    for t in rest {
        v = match v {
            Value::Object(mut o) => o.remove(t.as_str())?,
            Value::Array(mut a) => {
                let i = array_index(t)?;
                if i >= a.len() {
                    return None;
                }
                a.swap_remove(i)
            }
            _ => return None,
        };
    }
    Some(v)
}
