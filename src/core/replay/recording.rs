//! Reading a recording: the JSON Lines of `mcplens record` and of the TUI's log export (see
//! `mcp::log::to_json_lines`). The file is the user's and may be anything: its size is capped, each
//! line's nesting checked before it is parsed, and any line that is not an entry is an error
//! naming the line.

use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::capped_file::{self, ReadError};
use crate::deep::Owned;
use crate::json_depth;

/// The largest recording read (a replay keeps every message in memory, about twice its bytes).
pub const MAX_RECORDING: u64 = 256 << 20;

/// Who sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The client (`"kind": "sent"`: mcplens, or the client behind `mcplens record`).
    Client,
    /// The server (`"kind": "recv"`).
    Server,
}

/// One recorded JSON-RPC message: its bytes as sent, and its id, method and params.
#[derive(Debug, Clone)]
pub struct Message {
    pub side: Side,
    pub raw: String,
    /// Dropped without recursion: `--max-depth` may let params nest as deep as memory allows.
    pub value: Owned,
}

#[derive(Debug, Clone)]
pub enum Entry {
    Message(Message),
    /// A new session began (the TUI reconnected): ids start over.
    Restart,
}

#[derive(Debug, Default)]
pub struct Recording {
    pub entries: Vec<Entry>,
    /// Message entries that could not be replayed (the log kept a preview of a long message, or
    /// a line that was not JSON).
    pub skipped: usize,
}

/// Reads the recording at `path` (at most `MAX_RECORDING` bytes).
pub fn read(path: &Path, max_depth: usize) -> Result<Recording, String> {
    let shown = path.display();
    let too_large = |cap: u64| format!("{shown} is larger than {} MiB, the most a replay reads", cap >> 20);
    // A file that says it is too large is refused before a byte is read.
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > MAX_RECORDING) {
        return Err(too_large(MAX_RECORDING));
    }
    let text = capped_file::read_text(path, MAX_RECORDING).map_err(|e| match e {
        ReadError::Io(e) => format!("cannot read {shown}: {e}"),
        ReadError::TooLarge { cap } => too_large(cap),
        ReadError::NotText => format!("{shown} is not UTF-8 text, so not a recording"),
        e @ ReadError::NotRegular { .. } => format!("{shown}: {e}"),
    })?;
    parse(&text, max_depth).map_err(|e| format!("{shown}: {e}"))
}

/// One line of a recording; other members (`time`, `latency_ms`, ...) are skipped unread.
#[derive(Deserialize)]
struct Line {
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    message: Option<Box<RawValue>>,
    #[serde(default)]
    raw: Option<String>,
    /// A message a proxy's breakpoint edited on its way (the edit follows, `edit_of` it).
    #[serde(default)]
    edited: bool,
    #[serde(default)]
    edit_of: Option<u64>,
}

/// What the replay reads of a message: a reply's result is kept as bytes only (an 8 MB
/// recording parsed whole held 20 times its size).
#[derive(Deserialize)]
struct Slim {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Value>,
}

/// Parses a recording's text. An entry nests one level above its message, hence the `+ 1`.
pub fn parse(text: &str, max_depth: usize) -> Result<Recording, String> {
    let mut rec = Recording::default();
    let mut last_seq = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let at = n + 1;
        let entry: Line = json_depth::parse(line, max_depth.saturating_add(1))
            .map_err(|e| format!("line {at} is not an entry of a recording: {e}"))?;
        // Recordings put one after another: each starts its `seq` over, and its ids too.
        if entry.seq.is_some() && entry.seq <= last_seq {
            rec.entries.push(Entry::Restart);
        }
        last_seq = entry.seq.or(last_seq);
        let side = match entry.kind.as_deref() {
            Some("sent") => Side::Client,
            Some("recv") => Side::Server,
            Some("----") => {
                rec.entries.push(Entry::Restart);
                continue;
            }
            Some(_) => continue,
            None => return Err(format!("line {at} has no \"kind\", so it is not an entry of a recording")),
        };
        // Edited at a proxy's breakpoint: the replay answers as the host was answered, so it
        // keeps the request the host sent (not the edit the server got) and the reply the host
        // got (the edit, not the server's original).
        let host_never_saw = match side {
            Side::Client => entry.edit_of.is_some(),
            Side::Server => entry.edited,
        };
        if host_never_saw {
            continue;
        }
        match message(entry, max_depth) {
            Some((raw, value)) => rec.entries.push(Entry::Message(Message { side, raw, value })),
            None => rec.skipped += 1,
        }
    }
    if !rec.entries.iter().any(|e| matches!(e, Entry::Message(_))) {
        return Err("it holds no JSON-RPC message (not a recording, or an empty one)".into());
    }
    Ok(rec)
}

/// The entry's message bytes (`raw` when the export kept them, else `message`, which the export
/// wrote compactly, as it was sent) and its id, method and params; none for a message kept only
/// as text.
fn message(entry: Line, max_depth: usize) -> Option<(String, Owned)> {
    let message = entry.message?;
    let slim: Slim = json_depth::parse(message.get(), max_depth).ok()?;
    let raw = match entry.raw {
        // A message from an HTTP server may be pretty-printed: its line breaks can only be
        // whitespace between tokens (JSON escapes them in strings), and a replay writes one line.
        Some(raw) if raw.contains(['\n', '\r']) => raw.replace(['\n', '\r'], " "),
        Some(raw) => raw,
        None => message.get().to_string(),
    };
    // `raw` is what is sent; one that is not JSON (a control character in it, as no JSON text
    // holds one unescaped: an escape sequence for the client's terminal) gives way to `message`.
    let raw = if is_json(&raw) { raw } else { message.get().to_string() };
    let mut value = Map::new();
    for (k, v) in [("id", slim.id), ("method", slim.method.map(Value::String)), ("params", slim.params)] {
        if let Some(v) = v {
            value.insert(k.into(), v);
        }
    }
    Some((raw, Owned(Value::Object(value))))
}

/// Whether `text` is one JSON value (checked without building it, and without recursion).
fn is_json(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}
