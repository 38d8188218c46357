//! Call history, per server, in the user's state directory (`$MCPLENS_STATE_DIR`, else
//! `$XDG_STATE_HOME/mcplens`, else `~/.local/state/mcplens`): one JSON line per call, files with
//! mode 0600 in a directory with mode 0700. Secrets the user passed are redacted before writing.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::call::{CallStatus, Purpose};
use crate::dirs::{create_private_dir, open_private, server_key, state_dir};
use crate::mcp::log::Redactor;

/// Entries kept in memory and shown; older ones stay in the file.
const KEEP: usize = 500;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", from = "EntryLine")]
pub struct Entry {
    pub tool: String,
    pub arguments: Value,
    /// Seconds since the Unix epoch.
    pub at: u64,
    pub duration_ms: u64,
    /// Written as its word (`ok`, `tool error`...), as older versions wrote it.
    pub status: CallStatus,
    /// A new call, a next page or every page: only a new call's arguments prefill the form.
    #[serde(rename = "for")]
    pub purpose: Purpose,
}

/// An entry as any version wrote it: older ones have no `for` and may say `ok (all pages)`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EntryLine {
    tool: String,
    arguments: Value,
    at: u64,
    duration_ms: u64,
    status: String,
    #[serde(default, rename = "for")]
    purpose: Option<Purpose>,
}

impl From<EntryLine> for Entry {
    fn from(l: EntryLine) -> Entry {
        let (status, purpose) = CallStatus::parse(&l.status);
        let purpose = l.purpose.or(purpose).unwrap_or_default();
        Entry { tool: l.tool, arguments: l.arguments, at: l.at, duration_ms: l.duration_ms, status, purpose }
    }
}

#[derive(Debug, Clone, Default)]
pub struct History {
    path: Option<PathBuf>,
    pub entries: Vec<Entry>,
    /// Why the file could not be read or written, if it could not.
    pub problem: Option<String>,
}

impl History {
    /// Loads the history of the server named `label` (bad lines are skipped, never fatal).
    pub fn open(label: &str) -> History {
        match state_dir() {
            Some(dir) => History::open_in(&dir, label),
            None => History {
                problem: Some("no state directory (set HOME or MCPLENS_STATE_DIR)".into()),
                ..History::default()
            },
        }
    }

    /// The history of the server named `label`, to append to without reading what it holds (a
    /// headless call records itself; reading and parsing the last 500 calls first cost it more
    /// than the write).
    pub fn to_append(label: &str) -> History {
        match state_dir() {
            Some(dir) => History { path: Some(history_path(&dir, label)), ..History::default() },
            None => History::default(),
        }
    }

    /// Loads the history of `label` kept under `dir`.
    pub fn open_in(dir: &Path, label: &str) -> History {
        let path = history_path(dir, label);
        let mut h = History { path: Some(path.clone()), ..History::default() };
        match crate::capped_file::read_tail(&path, crate::capped_file::MAX_HISTORY_TAIL) {
            Ok((bytes, _)) => {
                let (entries, bad) = parse_lines(&bytes);
                h.entries = entries;
                if bad > 0 {
                    let lines = if bad == 1 { "line" } else { "lines" };
                    h.problem = Some(format!("{bad} unreadable {lines} of {} skipped", path.display()));
                }
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => h.problem = Some(format!("cannot read {}: {e}", path.display())),
        }
        h
    }

    /// Records a call in memory and on disk, secrets redacted.
    pub fn append(&mut self, mut entry: Entry, redactor: &Redactor) {
        let text = entry.arguments.to_string();
        let redacted = redactor.redact(&text);
        if redacted != text {
            entry.arguments = serde_json::from_str(&redacted).unwrap_or(Value::String(redacted.into_owned()));
        }
        if let Some(path) = &self.path {
            let written = path
                .parent()
                .map_or(Ok(()), create_private_dir)
                .and_then(|_| open_private(path, true))
                .and_then(|mut f| writeln!(f, "{}", serde_json::to_string(&entry).unwrap_or_default()));
            if let Err(e) = written {
                self.problem = Some(format!("cannot write {}: {e}", path.display()));
            }
        }
        self.entries.push(entry);
        if self.entries.len() > KEEP {
            self.entries.remove(0);
        }
    }

    /// The arguments of the last new call of `tool` (a page's arguments carry the pager's
    /// position, not what the user asked for).
    pub fn last_arguments(&self, tool: &str) -> Option<&Value> {
        self.entries.iter().rev().find(|e| e.tool == tool && e.purpose == Purpose::New).map(|e| &e.arguments)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

/// Where the history of the server named `label` is kept under `dir`.
fn history_path(dir: &Path, label: &str) -> PathBuf {
    dir.join("history").join(format!("{}.jsonl", server_key(label)))
}

/// The last `KEEP` entries of a history file's lines, and how many lines were not entries (not
/// UTF-8, not JSON, not an entry's shape): one bad line never hides the others.
fn parse_lines(bytes: &[u8]) -> (Vec<Entry>, usize) {
    let mut entries = Vec::new();
    let mut bad = 0;
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match std::str::from_utf8(line).ok().and_then(|l| serde_json::from_str::<Entry>(l).ok()) {
            Some(e) => entries.push(e),
            None => bad += 1,
        }
    }
    if entries.len() > KEEP {
        entries.drain(..entries.len() - KEEP);
    }
    (entries, bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_readable_and_distinct() {
        assert!(server_key("/usr/bin/node server.js").starts_with("node-server-js-"));
        assert_ne!(server_key("a b"), server_key("a_b"));
    }

    #[test]
    fn appends_privately_and_redacts() {
        let dir = std::env::temp_dir().join(format!("mcplens-hist-{}", std::process::id()));
        let path = dir.join("history").join("x.jsonl");
        let mut h = History { path: Some(path.clone()), ..History::default() };
        let redactor = Redactor::new(["sk-very-secret".to_string()]);
        h.append(
            Entry {
                tool: "t".into(),
                arguments: json!({"token": "sk-very-secret", "n": 1}),
                at: 1,
                duration_ms: 2,
                status: CallStatus::Ok,
                purpose: Purpose::New,
            },
            &redactor,
        );
        assert!(h.problem.is_none(), "{:?}", h.problem);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(!text.contains("sk-very-secret") && text.contains("«redacted»"), "{text}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode() & 0o777).unwrap_or(0);
            assert_eq!(mode, 0o600);
        }
        assert_eq!(h.last_arguments("t").map(|a| a["n"].clone()), Some(json!(1)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn entry(status: CallStatus, purpose: Purpose, offset: u64) -> Entry {
        Entry { tool: "t".into(), arguments: json!({"offset": offset}), at: 1, duration_ms: 2, status, purpose }
    }

    #[test]
    fn old_lines_still_load_and_new_ones_read_back() {
        let old = r#"{"tool":"t","arguments":{},"at":1,"durationMs":2,"status":"ok (all pages)"}"#;
        let e: Entry = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((e.status, e.purpose), (CallStatus::Ok, Purpose::AllPages));
        let old = r#"{"tool":"t","arguments":{},"at":1,"durationMs":2,"status":"rpc error"}"#;
        let e: Entry = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((e.status, e.purpose), (CallStatus::RpcError, Purpose::New));
        let new = entry(CallStatus::Partial, Purpose::NextPage, 3);
        let text = serde_json::to_string(&new).unwrap_or_default();
        assert!(text.contains(r#""status":"partial""#) && text.contains(r#""for":"next_page""#), "{text}");
        assert_eq!(serde_json::from_str::<Entry>(&text).ok(), Some(new));
    }

    #[test]
    fn one_bad_line_hides_nothing_else() {
        let good = serde_json::to_string(&entry(CallStatus::Ok, Purpose::New, 7)).unwrap_or_default();
        let mut bytes = format!("{good}\nnot json\n").into_bytes();
        bytes.extend_from_slice(b"{\"tool\":\"\xff\xfe\"}\n\n");
        bytes.extend_from_slice(good.as_bytes());
        let (entries, bad) = parse_lines(&bytes);
        assert_eq!((entries.len(), bad), (2, 2));
        let dir = std::env::temp_dir().join(format!("mcplens-hist-bad-{}", std::process::id()));
        let path = dir.join("history").join(format!("{}.jsonl", server_key("x")));
        let _ = std::fs::create_dir_all(dir.join("history"));
        let _ = std::fs::write(&path, &bytes);
        let h = History::open_in(&dir, "x");
        assert_eq!(h.entries.len(), 2);
        assert!(h.problem.as_deref().is_some_and(|p| p.starts_with("2 unreadable lines")), "{:?}", h.problem);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_form_is_prefilled_from_the_last_new_call_not_a_page() {
        let mut h = History::default();
        let redactor = Redactor::new(Vec::<String>::new());
        h.append(entry(CallStatus::Ok, Purpose::New, 0), &redactor);
        h.append(entry(CallStatus::Ok, Purpose::NextPage, 20), &redactor);
        h.append(entry(CallStatus::Ok, Purpose::AllPages, 40), &redactor);
        assert_eq!(h.last_arguments("t"), Some(&json!({"offset": 0})));
    }
}
