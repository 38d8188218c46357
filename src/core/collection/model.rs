//! A collection as read: named calls, each with its arguments and expectations. Every field has
//! been checked when one of these exists (names unique, regexes compiled, paths well formed).

use std::time::Duration;

use serde_json::{Map, Value};

use crate::call::CallStatus;
use crate::envelope::ResponseType;

/// The calls of one collection file, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collection {
    pub calls: Vec<SavedCall>,
}

impl Collection {
    pub fn find(&self, name: &str) -> Option<&SavedCall> {
        self.calls.iter().find(|c| c.name == name)
    }
}

/// One named call and what its answer should be.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedCall {
    /// Unique within the file.
    pub name: String,
    pub tool: String,
    /// `None` sends no `arguments` member.
    pub arguments: Option<Map<String, Value>>,
    /// Fetch every page (the pager) and check the merged envelope.
    pub all_pages: bool,
    pub expect: Expect,
    /// The line of the call's `name` in its file (1-based), when it was read from one.
    pub line: Option<usize>,
}

impl SavedCall {
    pub fn new(name: impl Into<String>, tool: impl Into<String>, arguments: Option<Map<String, Value>>) -> Self {
        SavedCall {
            name: name.into(),
            tool: tool.into(),
            arguments,
            all_pages: false,
            expect: Expect::default(),
            line: None,
        }
    }
}

/// What a call's answer should be; a field left out is not checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect {
    /// How the call ended (the call service's status).
    pub status: Option<CallStatus>,
    /// The envelope's `responseType`.
    pub response_type: Option<ResponseType>,
    /// The call (all its pages) took at most this long.
    pub time_ms: Option<u64>,
    /// The result's `structuredContent` fits the tool's `outputSchema`.
    pub output_schema: bool,
    /// Every page was read (needs `all_pages`): the pager reached the end of the list.
    pub complete: bool,
    /// Values at paths of the result or of the envelope.
    pub at: Vec<At>,
}

impl Expect {
    pub fn time_budget(&self) -> Option<Duration> {
        self.time_ms.map(Duration::from_millis)
    }
}

/// Which document a path points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The tool's result as the server sent it (the reply's `result`, or `error` for a JSON-RPC
    /// error reply); with `all_pages`, the first page's. Paths written as plain JSON pointers.
    Result,
    /// The normalized envelope (as `mcplens call --json` prints it); with `all_pages`, the
    /// merged one. Paths written `envelope:/data/0/id`.
    Envelope,
}

/// The prefix that marks an envelope path.
pub const ENVELOPE_PREFIX: &str = "envelope:";

/// Checks of the value at one path.
#[derive(Debug, Clone, PartialEq)]
pub struct At {
    pub source: Source,
    /// A JSON pointer (RFC 6901): "" for the whole document, else starting with `/`.
    pub pointer: String,
    pub checks: Vec<Check>,
}

impl At {
    /// The path as written in the file.
    pub fn path(&self) -> String {
        match self.source {
            Source::Result => self.pointer.clone(),
            Source::Envelope => format!("{ENVELOPE_PREFIX}{}", self.pointer),
        }
    }

    /// Reads a path as written: `envelope:<pointer>` or `<pointer>`.
    pub fn parse_path(path: &str) -> Result<(Source, String), String> {
        let (source, pointer) = match path.strip_prefix(ENVELOPE_PREFIX) {
            Some(p) => (Source::Envelope, p),
            None => (Source::Result, path),
        };
        if !(pointer.is_empty() || pointer.starts_with('/')) {
            return Err(format!(
                "path {:?}: a JSON pointer starts with / (\"/structuredContent/sum\", \"envelope:/data/0\")",
                crate::sanitize::line_head(path, 80)
            ));
        }
        Ok((source, pointer.to_string()))
    }
}

/// One check of a value.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// Equal as JSON values (key order and `1` vs `1.0` aside).
    Equals(Value),
    /// A string holding this text, an array holding an element equal to this value, or an
    /// object holding this key.
    Contains(Value),
    /// A string the regular expression finds a match in.
    Matches(Pattern),
    /// A string's characters, an array's elements or an object's members.
    Length(u64),
    Type(JsonType),
    /// Whether the path is there at all.
    Exists(bool),
}

impl Check {
    /// The key it is written with in the file.
    pub fn key(&self) -> &'static str {
        match self {
            Check::Equals(_) => "equals",
            Check::Contains(_) => "contains",
            Check::Matches(_) => "matches",
            Check::Length(_) => "length",
            Check::Type(_) => "type",
            Check::Exists(_) => "exists",
        }
    }
}

/// Largest `matches` pattern, in bytes, and the most memory its compiled form may take.
pub const MAX_PATTERN: usize = 4096;
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A compiled regular expression and its text.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub text: String,
    regex: regex::Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Pattern {
    /// Compiles `text` with a size limit: a file's regex cannot take the memory or time it likes.
    pub fn new(text: &str) -> Result<Pattern, String> {
        if text.len() > MAX_PATTERN {
            return Err(format!("the pattern is {} bytes long; at most {MAX_PATTERN}", text.len()));
        }
        regex::RegexBuilder::new(text)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map(|regex| Pattern { text: text.to_string(), regex })
            .map_err(|e| format!("not a usable regular expression: {}", crate::sanitize::text(&e.to_string())))
    }

    pub fn is_match(&self, s: &str) -> bool {
        self.regex.is_match(s)
    }
}

/// A JSON type name, as `type` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Boolean,
    /// A number without a fraction (also counts as a `number`).
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub const NAMES: [&'static str; 7] = ["null", "boolean", "integer", "number", "string", "array", "object"];

    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    pub fn parse(s: &str) -> Option<JsonType> {
        Some(match s {
            "null" => JsonType::Null,
            "boolean" => JsonType::Boolean,
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "string" => JsonType::String,
            "array" => JsonType::Array,
            "object" => JsonType::Object,
            _ => return None,
        })
    }

    /// The most precise type of `v` (`integer` for whole numbers).
    pub fn of(v: &Value) -> JsonType {
        match v {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => JsonType::Integer,
            Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.is_finite()) => JsonType::Integer,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    /// Whether `v` is of this type (an integer is a number too).
    pub fn holds(self, v: &Value) -> bool {
        self.holds_type(JsonType::of(v))
    }

    /// Whether a value of type `actual` is of this type.
    pub fn holds_type(self, actual: JsonType) -> bool {
        actual == self || (self == JsonType::Number && actual == JsonType::Integer)
    }
}

/// Reads a status as the file writes it: one of the call service's status names.
pub fn parse_status(s: &str) -> Result<CallStatus, String> {
    let (status, purpose) = CallStatus::parse(s);
    if purpose.is_none() && status.as_str() == s {
        return Ok(status);
    }
    Err(format!("status {:?}: expected one of {}", crate::sanitize::line_head(s, 40), STATUS_NAMES.join(", ")))
}

pub const STATUS_NAMES: [&str; 8] =
    ["ok", "partial", "tool error", "rpc error", "timeout", "cancelled", "server gone", "failed"];

/// Reads a response type by its envelope name.
pub fn parse_response_type(s: &str) -> Result<ResponseType, String> {
    use ResponseType::*;
    [List, Single, Action, ToolCatalog, Error].into_iter().find(|t| t.as_str() == s).ok_or_else(|| {
        format!(
            "response_type {:?}: expected one of list, single, action, tool_catalog, error",
            crate::sanitize::line_head(s, 40)
        )
    })
}
