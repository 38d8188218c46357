//! Any tool's answer as one normalized envelope (seed 000), whatever shape it came in, and the
//! pager that calls a tool again for its next page.
//!
//! Nothing the server sent is lost: what is not mapped into an envelope field is kept under
//! `metadata` (the result's `_meta`, `uiType`/`uiMetadata`, prose, content items, wrapper fields).

pub mod conventions;
mod data;
pub mod decode;
mod groups;
pub mod hints;
mod normalize;
pub mod pager;
pub mod pagination;
pub mod position;
mod shapes;
pub mod start;
mod taught;
pub mod text;
pub mod twin;

use serde::Serialize;
use serde_json::{Map, Value};

pub use data::{Data, RawItems};
pub use normalize::{normalize, normalize_owned, normalize_reply};
pub use pagination::{PageKind, Pagination};
pub use taught::normalize_taught;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseType {
    List,
    Single,
    Action,
    ToolCatalog,
    Error,
}

impl ResponseType {
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseType::List => "list",
            ResponseType::Single => "single",
            ResponseType::Action => "action",
            ResponseType::ToolCatalog => "tool_catalog",
            ResponseType::Error => "error",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Success,
    Error,
    Partial,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub total: Option<u64>,
    pub returned: Option<u64>,
    pub has_more: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ErrorInfo {
    /// A string or a number, as the server gave it.
    #[serde(serialize_with = "crate::deep::serialize")]
    pub code: Value,
    pub message: Option<String>,
    #[serde(serialize_with = "crate::deep::serialize")]
    pub details: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    pub tool_name: String,
    pub response_type: ResponseType,
    /// An array for list and tool_catalog, an object for single and action, else null.
    pub data: Data,
    pub pagination: Option<Pagination>,
    pub summary: Option<Summary>,
    pub status: Option<Status>,
    pub message: Option<String>,
    pub error: Option<ErrorInfo>,
    #[serde(serialize_with = "crate::deep::serialize_members")]
    pub metadata: Option<Map<String, Value>>,
    /// `data` (a value, not a list's records) as JSON text with every number as the server
    /// wrote it, when reading it rewrote some (`100000000000000000001` reads as `1e20`): what a
    /// display of the data shows. A list keeps its numbers in its records' text instead
    /// ([`Data::Items`]); `--json` writes them from its guide.
    #[serde(skip)]
    pub data_exact: Option<std::sync::Arc<str>>,
}

impl Envelope {
    /// `data` as JSON text, its numbers as the server wrote them when they are known.
    pub fn data_text(&self) -> std::sync::Arc<str> {
        self.data_exact.clone().unwrap_or_else(|| self.data.json().to_string().into())
    }
}

impl Envelope {
    /// Number of items of a list (or catalog) envelope.
    pub fn item_count(&self) -> usize {
        self.data.item_count()
    }

    /// The items of a list (or catalog) envelope, one at a time (records read from text are
    /// parsed as they are reached).
    pub fn items(&self) -> impl Iterator<Item = std::borrow::Cow<'_, Value>> {
        (0..self.item_count()).filter_map(|i| self.data.item(i))
    }

    pub fn has_more(&self) -> bool {
        self.pagination.as_ref().and_then(|p| p.has_more).unwrap_or(false)
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A key as the conventions compare it: `next_cursor`, `nextCursor` and `next-cursor` are one.
pub(crate) fn key_norm(key: &str) -> String {
    // One pass into a string sized once: keys of every record of an answer come through here.
    let mut out = String::with_capacity(key.len());
    out.extend(key.chars().filter(|c| *c != '_' && *c != '-').map(|c| c.to_ascii_lowercase()));
    out
}

/// The envelope's JSON Schema (`mcplens schema envelope`).
pub const SCHEMA: &str = include_str!("envelope.schema.json");
