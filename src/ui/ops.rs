//! The worker's share of resources, prompts, completion, logging and ping: each command sent to
//! the server and its answer reported as a message. The TUI's worker spawns these; the headless
//! driver awaits them (the same code either way). Also: listing what the server offers, and
//! saying what a re-listing changed.

use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};
use tokio::sync::mpsc::UnboundedSender;

use super::changes::{self, Entry};
use super::msg::{Cmd, Msg, SessionMsg};
use crate::mcp::log::{Level, LogKind};
use crate::mcp::{CallOptions, ItemKind, Session};

/// Suggestions a form keeps of a completion (MCP allows 100 a response; a server may send more).
const KEPT_SUGGESTIONS: usize = 100;

pub use super::msg::{CompletionAsk, CompletionDone, PromptDone, PromptOk, ReadDone, ReadOk, Shared};

/// Which lists a `list_changed` notification asks to be read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ListKind {
    Tools,
    /// Resources and resource templates together.
    Resources,
    Prompts,
}

impl ListKind {
    pub const ALL: [ListKind; 3] = [ListKind::Tools, ListKind::Resources, ListKind::Prompts];

    fn items(self) -> &'static [ItemKind] {
        match self {
            ListKind::Tools => &[],
            ListKind::Resources => &[ItemKind::Resource, ItemKind::Template],
            ListKind::Prompts => &[ItemKind::Prompt],
        }
    }
}

/// The lists last sent to the app, by what they hold: a re-listing is compared with them.
#[derive(Default)]
pub struct Known {
    lists: std::collections::HashMap<&'static str, Vec<Entry>>,
    /// The saved snapshot each tools listing is compared with, if one was found.
    pub baseline: Option<Arc<super::baseline::Baseline>>,
}

impl Known {
    /// Remembers `entries` as the `what` list; returns what changed since the last one.
    pub fn replace(&mut self, what: &'static str, entries: Vec<Entry>) -> changes::Change {
        let old = self.lists.insert(what, entries).unwrap_or_default();
        changes::diff(&old, self.lists.get(what).map_or(&[][..], Vec::as_slice))
    }
}

/// What tells one descriptor text from another, without keeping a copy of it (a 60 MB list would
/// be held twice).
fn digest(raw: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    raw.hash(&mut h);
    format!("{:016x}:{}", h.finish(), raw.len())
}

pub fn tool_entries(list: &crate::mcp::ToolList) -> Vec<Entry> {
    list.tools.iter().map(|t| (t.listed_name().into_owned(), digest(t.raw.get()))).collect()
}

fn item_entries(list: &crate::mcp::Listing) -> Vec<Entry> {
    list.items.iter().map(|d| (d.label().to_string(), digest(d.raw.get()))).collect()
}

fn send(out: &UnboundedSender<Msg>, m: SessionMsg) {
    let _ = out.send(Msg::Session(m));
}

/// Reads the lists of `kinds` and reports each. With `changed`, what changed is said (status line
/// and log); without, the lists are only remembered (the first listing after connecting).
pub async fn relist(
    session: Arc<Session>,
    kinds: Vec<ListKind>,
    changed: bool,
    known: Arc<Mutex<Known>>,
    out: UnboundedSender<Msg>,
) {
    let mut said = vec![];
    for kind in kinds {
        if kind == ListKind::Tools {
            match session.list_tools().await {
                Ok(tools) => {
                    let change = known.lock().map(|mut k| k.replace("tools", tool_entries(&tools))).ok();
                    said.extend(change.map(|c| ("tools", c)));
                    let baseline = known.lock().ok().and_then(|k| k.baseline.clone());
                    let compared = baseline.map(|b| b.compare(&session.server, &session.target, &tools));
                    send(&out, SessionMsg::ToolsRefreshed(tools));
                    if let Some(c) = compared {
                        send(&out, SessionMsg::Compared(Ok(Arc::new(c))));
                    }
                }
                Err(e) => send(&out, SessionMsg::Notice(format!("tools/list failed: {}", e.message))),
            }
        }
        for &item in kind.items() {
            let list = session.list_all(item).await.map_err(|e| e.message);
            if let Ok(l) = &list {
                let change = known.lock().map(|mut k| k.replace(item.plural(), item_entries(l))).ok();
                said.extend(change.map(|c| (item.plural(), c)));
            }
            send(&out, SessionMsg::Listed { kind: item, list });
        }
    }
    if !changed {
        return;
    }
    // What changed, one line per list; "nothing changed" only when nothing did.
    let mut lines: Vec<String> =
        said.iter().filter(|(_, c)| !c.is_empty()).map(|(what, c)| changes::describe(what, c)).collect();
    if lines.is_empty() {
        let what: Vec<&str> = said.iter().map(|(what, _)| *what).collect();
        lines.push(changes::describe(&what.join(" and "), &changes::Change::default()));
    }
    for line in &lines {
        session.log().push(LogKind::Info, line);
    }
    send(&out, SessionMsg::ListChanged(lines.join(" · ")));
}

/// The lists the server offers besides its tools, read once after connecting.
pub fn offered(server: &crate::mcp::ServerInfo) -> Vec<ListKind> {
    let mut kinds = vec![];
    if server.declares(&["resources"]) {
        kinds.push(ListKind::Resources);
    }
    if server.declares(&["prompts"]) {
        kinds.push(ListKind::Prompts);
    }
    kinds
}

fn rpc_failed(e: &crate::mcp::RpcError) -> String {
    format!("the server answered {}", e.summary())
}

/// Carries out one of the commands this module serves; returns the command back if it is not
/// one of them.
pub async fn carry_out(session: Arc<Session>, cmd: Cmd, out: UnboundedSender<Msg>) -> Option<Cmd> {
    match cmd {
        Cmd::ReadResource { uri, refresh } => {
            let outcome = match session.read_resource(&uri, &CallOptions::default()).await {
                Ok(a) => match a.outcome {
                    Ok(read) => Ok(ReadOk {
                        contents: Arc::new(read.contents),
                        warnings: a.warnings,
                        elapsed: a.elapsed,
                        cache: read.cache,
                    }),
                    Err(e) => Err(rpc_failed(&e)),
                },
                Err(e) => Err(e.message),
            };
            send(&out, SessionMsg::ResourceRead(Box::new(ReadDone { uri, refresh, outcome })));
        }
        Cmd::Subscribe { uri, on } => {
            let answer =
                if on { session.subscribe_resource(&uri).await } else { session.unsubscribe_resource(&uri).await };
            let error = match answer {
                Ok(a) => a.outcome.err().map(|e| rpc_failed(&e)),
                Err(e) => Some(e.message),
            };
            send(&out, SessionMsg::Subscribed { uri, on, error });
        }
        Cmd::Complete(ask) => {
            // A form shows a few suggestions: the rest are counted, not kept.
            let answer = session
                .complete_kept(&ask.reference, &ask.argument, &ask.partial, &ask.context, KEPT_SUGGESTIONS)
                .await;
            let outcome = match answer {
                Ok(a) => a.outcome.map_err(|e| rpc_failed(&e)),
                Err(e) => Err(e.message),
            };
            send(&out, SessionMsg::Completed(Box::new(CompletionDone { seq: ask.seq, outcome })));
        }
        Cmd::GetPrompt { name, arguments } => {
            let outcome = match session.get_prompt(&name, arguments, &CallOptions::default()).await {
                Ok(a) => match a.outcome {
                    Ok(messages) => Ok(PromptOk { messages, warnings: a.warnings, elapsed: a.elapsed }),
                    Err(e) => Err(rpc_failed(&e)),
                },
                Err(e) => Err(e.message),
            };
            send(&out, SessionMsg::PromptGot(Box::new(PromptDone { name, outcome })));
        }
        Cmd::SetLogLevel(level) => {
            let error = match session.set_log_level(level).await {
                Ok(a) => a.outcome.err().map(|e| rpc_failed(&e)),
                Err(e) => Some(e.message),
            };
            send(&out, SessionMsg::LevelSet { level, error });
        }
        other => return Some(other),
    }
    None
}

/// A file name's extension for a MIME type.
fn extension(mime: Option<&str>, blob: bool) -> &'static str {
    let m = mime.unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match m.as_str() {
        "application/json" => "json",
        "text/markdown" => "md",
        "text/csv" => "csv",
        "text/html" => "html",
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "application/pdf" => "pdf",
        "audio/wav" => "wav",
        m if m.ends_with("+json") => "json",
        m if m.starts_with("text/") => "txt",
        _ if blob => "bin",
        _ => "txt",
    }
}

/// Writes content `index` to a new file in the exports directory: text as sent (redacted, as
/// every export is), a blob's bytes decoded. Returns the notice to show.
pub fn save_content(name: &str, content: &Shared, index: usize, redactor: &crate::mcp::log::Redactor) -> String {
    let Some(c) = content.0.get(index) else { return "nothing to save".into() };
    let blob = c.kind() == crate::mcp::ContentKind::Blob;
    let bytes = match c.kind() {
        crate::mcp::ContentKind::Text => redactor.redact(c.text().unwrap_or_default()).into_owned().into_bytes(),
        crate::mcp::ContentKind::Blob => match c.bytes() {
            Ok(b) => b,
            Err(e) => return format!("not saved: {e}"),
        },
        crate::mcp::ContentKind::Unknown => return "not saved: the content has neither text nor blob".into(),
    };
    match write_export(name, extension(c.mime_type(), blob), &bytes) {
        Ok(p) => format!("saved {} to {}", crate::cli::items::human_size(bytes.len() as u64), p.display()),
        Err(e) => e,
    }
}

/// Writes `bytes` (mode 0600) to a new file named after `name` under the state directory's
/// exports; returns its path.
pub fn write_export(name: &str, ext: &str, bytes: &[u8]) -> Result<std::path::PathBuf, String> {
    use std::io::Write;
    let dir = crate::dirs::state_dir().ok_or("no state directory (set HOME or MCPLENS_STATE_DIR)")?.join("exports");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .take(60)
        .collect();
    let path = dir.join(format!("{safe}-{}.{ext}", crate::dirs::now_secs()));
    let mut f = crate::dirs::open_private(&path, false).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    f.write_all(bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Prompt arguments as sent: every value a string, as MCP wants.
pub fn string_arguments(args: &Value) -> Map<String, Value> {
    args.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    let s = match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (k.clone(), Value::String(s))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The level labels, least severe first (the level picker's rows).
pub fn level_labels() -> Vec<&'static str> {
    Level::ALL.iter().map(|l| l.label()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_and_extensions() {
        let s = crate::mcp::ServerInfo::from_raw_text(
            r#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"resources":{"subscribe":true},"prompts":{},"logging":null}}}"#,
        );
        assert!(s.declares(&["resources", "subscribe"]));
        assert!(s.declares(&["prompts"]));
        assert!(!s.declares(&["prompts", "listChanged"]));
        assert!(!s.declares(&["logging"]));
        assert_eq!(offered(&s), [ListKind::Resources, ListKind::Prompts]);
        assert_eq!(
            [extension(Some("application/json"), false), extension(Some("image/png"), true), extension(None, true)],
            ["json", "png", "bin"]
        );
        assert_eq!(string_arguments(&serde_json::json!({"a": "x", "n": 3})), {
            let mut m = Map::new();
            m.insert("a".into(), "x".into());
            m.insert("n".into(), "3".into());
            m
        });
    }
}
