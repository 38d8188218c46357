//! The saved snapshot (`mcplens snapshot`) the TUI compares a server with: where it is looked
//! for, reading it (a user's file: size and depth bounded, never a failure of the session), and
//! what changed since, by tool. The changes themselves come from the core's snapshot diff; here
//! they are only sorted by tool for the panes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::mcp::{ServerInfo, Target, ToolList};
use crate::schema::diff::{Change, Impact};
use crate::snapshot::MAX_SNAPSHOT;

/// The file `mcplens snapshot -o` is documented to write, looked for beside the server.
pub const FILE_NAME: &str = "mcp-snapshot.json";

/// Where the snapshot is: the file given (`--snapshot`), or the first of the places looked in
/// that holds one.
#[derive(Debug, Clone, Default)]
pub struct Source {
    pub given: Option<PathBuf>,
    pub candidates: Vec<PathBuf>,
}

impl Source {
    /// `--snapshot FILE`; else `mcp-snapshot.json` in the server's working directory (`--cwd`, the
    /// config entry's `cwd`), beside the config file, then in the current directory.
    pub fn new(given: Option<PathBuf>, server_cwd: Option<&Path>, config: Option<&Path>) -> Source {
        let config_dir = config.map(|c| match c.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        });
        let current = std::env::current_dir().ok();
        let mut candidates: Vec<PathBuf> = vec![];
        for dir in [server_cwd.map(Path::to_path_buf), config_dir, current].into_iter().flatten() {
            let file = dir.join(FILE_NAME);
            if !candidates.contains(&file) {
                candidates.push(file);
            }
        }
        Source { given, candidates }
    }

    /// The snapshot to compare with: none when none was given and none is found; an error (said
    /// on the status line) for a file that cannot be read or is not a snapshot.
    pub fn load(&self) -> Result<Option<Baseline>, String> {
        let path = match &self.given {
            Some(p) => p.clone(),
            None => match self.candidates.iter().find(|p| p.is_file()) {
                Some(p) => p.clone(),
                None => return Ok(None),
            },
        };
        let shown = crate::sanitize::line(&path.display().to_string()).into_owned();
        let text = crate::capped_file::read_text(&path, MAX_SNAPSHOT)
            .map_err(|e| format!("snapshot {shown} not compared: {e}"))?;
        let mut baseline = Baseline::parse(path, &text).map_err(|e| format!("snapshot {shown} not compared: {e}"))?;
        baseline.given = self.given.is_some();
        Ok(Some(baseline))
    }
}

/// What a snapshot file holds that the TUI compares: the server's result and each tool's text.
pub struct Baseline {
    pub path: PathBuf,
    /// Named with `--snapshot` (compared even when taken of another target) rather than found.
    pub given: bool,
    /// What the snapshot was taken of (`None` in files that do not say).
    target: Option<Value>,
    server: Value,
    /// Each tool's descriptor's text as the snapshot holds it.
    tools: Vec<String>,
}

#[derive(Deserialize)]
struct File<'a> {
    #[serde(rename = "mcplensSnapshot")]
    format: Option<Value>,
    #[serde(borrow)]
    target: Option<&'a RawValue>,
    #[serde(borrow)]
    server: Option<&'a RawValue>,
    #[serde(borrow, default)]
    tools: Vec<&'a RawValue>,
}

impl Drop for Baseline {
    fn drop(&mut self) {
        crate::deep::drop_value(std::mem::take(&mut self.server));
    }
}

/// Parses a descriptor or server text at any depth up to the default limit.
fn value(text: &str) -> Result<Value, String> {
    crate::json_depth::parse(text, crate::json_depth::DEFAULT_MAX_DEPTH)
}

impl Baseline {
    pub fn parse(path: PathBuf, text: &str) -> Result<Baseline, String> {
        let depth = crate::json_depth::depth(text);
        if depth > crate::json_depth::DEFAULT_MAX_DEPTH {
            return Err(format!("it nests JSON {depth} levels deep (the most read: 1000)"));
        }
        let file: File = crate::json_depth::parse_borrowed(text).map_err(|e| format!("not JSON: {e}"))?;
        let format = file.format.map_or_else(|| json!({}), |f| json!({"mcplensSnapshot": f}));
        crate::snapshot::check(&format)?;
        let server = match file.server {
            Some(raw) => value(raw.get())?,
            None => Value::Null,
        };
        let tools = file.tools.iter().map(|raw| raw.get().to_string()).collect();
        let target = file.target.and_then(|raw| value(raw.get()).ok());
        Ok(Baseline { path, given: false, target, server, tools })
    }

    /// What changed from the snapshot to the server now (its result and its tools). Only the
    /// tools whose text differs are read and compared: a list of 20,000 tools with two changed
    /// costs two parses, not 40,000.
    pub fn compare(&self, server: &ServerInfo, target: &Target, list: &ToolList) -> Compared {
        let file = self.path.display().to_string();
        let other_target =
            crate::snapshot::target::other_target(self.target.as_ref(), &crate::snapshot::target::recorded(target));
        if let Some(why) = crate::snapshot::other_server(&self.server, &server.result) {
            let why = match &other_target {
                Some(t) => format!("{why} ({t})"),
                None => why,
            };
            return Compared { file, other_server: Some(why), ..Compared::default() };
        }
        // A snapshot found beside a server (not named with --snapshot) is only applied to the
        // target it was taken of: the same file is found by every server started in its folder.
        if let Some(why) = &other_target
            && !self.given
        {
            let why = format!("{why}; --snapshot {file} compares them anyway");
            return Compared { file, other_server: Some(why), ..Compared::default() };
        }
        Compared { note: other_target, ..self.changes(server, list) }
    }

    /// The changes from the snapshot's tools and server result to the server's now. Both lists
    /// stay text: a tool written alike on both sides is not read, a changed pair is read alone
    /// (see [`crate::snapshot_text::tools_changes`]).
    fn changes(&self, server: &ServerInfo, list: &ToolList) -> Compared {
        let max_depth = crate::json_depth::DEFAULT_MAX_DEPTH;
        let old: Vec<&RawValue> = self.tools.iter().filter_map(|t| raw(t)).collect();
        // In the snapshot's order (by name, then text), so that tools sharing a name pair as
        // `mcplens diff` pairs them, whatever order the server lists them in.
        let mut tools: Vec<&crate::mcp::ToolDescriptor> = list.tools.iter().collect();
        tools.sort_by(|a, b| a.name().cmp(b.name()).then_with(|| a.raw.get().cmp(b.raw.get())));
        // The snapshot holds the text with terminal controls escaped: compare it so.
        let texts: Vec<std::borrow::Cow<str>> = tools.iter().map(|t| crate::sanitize::json(t.raw.get())).collect();
        let new: Vec<&RawValue> =
            texts.iter().zip(&tools).map(|(text, t)| raw(text).unwrap_or_else(|| t.raw_value())).collect();
        let mut changes = crate::snapshot::server(Some(&self.server), Some(&server.result));
        changes.extend(crate::deep::grow(|| crate::snapshot_text::tools_changes(&old, &new, max_depth)));
        changes.sort_by(|a, b| a.impact.cmp(&b.impact).then_with(|| a.path.cmp(&b.path)));
        Compared::from_changes(self.path.display().to_string(), changes)
    }
}

/// `text` as one JSON value's text, at any depth (`None`: not JSON).
fn raw(text: &str) -> Option<&RawValue> {
    crate::json_depth::parse_borrowed(text).ok()
}

/// How a tool differs from the snapshot (in the order the info pane lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Breaking,
    Compatible,
    New,
}

/// The changes since the snapshot, by tool.
#[derive(Debug, Default, Clone)]
pub struct Compared {
    /// The snapshot file compared with, as given or found.
    pub file: String,
    pub marks: HashMap<String, Mark>,
    /// Each changed tool's changes, paths inside the tool (`/inputSchema/properties/q`).
    pub changes: HashMap<String, Vec<Change>>,
    /// Tools in the snapshot that the server no longer lists, by name.
    pub removed: Vec<String>,
    /// Changes to the server's result (capabilities, info), paths under `/server`.
    pub server: Vec<Change>,
    /// Why nothing was compared: the snapshot is of another server, or was found beside one
    /// target and taken of another (then nothing is marked).
    pub other_server: Option<String>,
    /// Compared, but said beside the changes: the snapshot named with `--snapshot` was taken of
    /// another target ("snapshot taken of X, this is Y").
    pub note: Option<String>,
}

/// A JSON-pointer token read back (`~1` is `/`, `~0` is `~`).
fn untoken(t: &str) -> String {
    t.replace("~1", "/").replace("~0", "~")
}

impl Compared {
    pub fn from_changes(file: String, changes: Vec<Change>) -> Compared {
        let mut c = Compared { file, ..Compared::default() };
        for change in changes {
            let Some(rest) = change.path.strip_prefix("/tools/") else {
                c.server.push(change);
                continue;
            };
            let (token, inside) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
            let name = untoken(token);
            match (inside.is_empty(), change.impact) {
                (true, Impact::Breaking) => c.removed.push(name),
                (true, Impact::Compatible) => c.mark(name, Mark::New),
                (false, impact) => {
                    c.mark(name.clone(), if impact == Impact::Breaking { Mark::Breaking } else { Mark::Compatible });
                    c.changes.entry(name).or_default().push(Change { path: inside.to_string(), ..change });
                }
            }
        }
        c.removed.sort();
        c
    }

    /// Marks a tool, the gravest mark kept: of two tools sharing a name, one changed and one
    /// added, the change is what the row says.
    fn mark(&mut self, name: String, mark: Mark) {
        let kept = self.marks.entry(name).or_insert(mark);
        *kept = (*kept).min(mark);
    }

    pub fn count(&self, mark: Mark) -> usize {
        self.marks.values().filter(|m| **m == mark).count()
    }

    /// The counts in words: "1 breaking, 2 changed compatibly, 1 new, 1 removed" (or "no tool
    /// changed").
    pub fn summary(&self) -> String {
        if let Some(why) = &self.other_server {
            return format!("not compared: {why}");
        }
        let parts: Vec<String> = [
            (self.count(Mark::Breaking), "with a breaking change"),
            (self.count(Mark::Compatible), "changed compatibly"),
            (self.count(Mark::New), "new"),
            (self.removed.len(), "removed"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if parts.is_empty() { "no tool changed".into() } else { parts.join(", ") }
    }
}

/// What the worker reports after comparing: the changes, or why the snapshot was not read.
pub type Outcome = Result<Arc<Compared>, String>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_sorted_by_tool() {
        let ch = |p: &str, i| Change { path: p.into(), impact: i, what: "x".into() };
        let c = Compared::from_changes(
            "f".into(),
            vec![
                ch("/tools/gone", Impact::Breaking),
                ch("/tools/a~1b/inputSchema/required", Impact::Breaking),
                ch("/tools/a~1b/description", Impact::Compatible),
                ch("/tools/c/description", Impact::Compatible),
                ch("/tools/n", Impact::Compatible),
                ch("/server/capabilities/x", Impact::Compatible),
            ],
        );
        assert_eq!(c.marks.get("a/b"), Some(&Mark::Breaking));
        assert_eq!(c.marks.get("c"), Some(&Mark::Compatible));
        assert_eq!(c.marks.get("n"), Some(&Mark::New));
        assert_eq!(c.removed, vec!["gone".to_string()]);
        assert_eq!(c.changes["a/b"][0].path, "/inputSchema/required");
        assert_eq!(c.server.len(), 1);
        assert_eq!(c.summary(), "1 with a breaking change, 1 changed compatibly, 1 new, 1 removed");
    }

    fn live(tools: &[&str]) -> (ServerInfo, ToolList) {
        let server = ServerInfo { raw: None, result: json!({}), negotiated: String::new(), era: Default::default() };
        let tools = tools
            .iter()
            .map(|t| {
                let raw = RawValue::from_string(t.to_string()).unwrap_or_else(|e| panic!("{e}"));
                crate::mcp::ToolDescriptor::from_raw(&raw, 64)
            })
            .collect();
        (server, ToolList { tools, ..ToolList::default() })
    }

    /// Two tools of one name, listed in another order than the snapshot's (which sorts them by
    /// text): nothing changed, as `mcplens diff` says; one of them gone is one removal.
    #[test]
    fn tools_sharing_a_name_pair_as_the_snapshot_sorts_them() {
        let plain = r#"{"name":"a","inputSchema":{"type":"object"}}"#;
        let strict = r#"{"name":"a","inputSchema":{"type":"object","required":["x"]}}"#;
        let file = format!(r#"{{"mcplensSnapshot": 1, "server": {{}}, "tools": [{strict}, {plain}]}}"#);
        let Ok(baseline) = Baseline::parse("x".into(), &file) else { panic!("not read") };
        let (server, list) = live(&[plain, strict]);
        let c = baseline.changes(&server, &list);
        assert!(c.marks.is_empty() && c.removed.is_empty(), "{c:?}");
        let (server, list) = live(&[plain]);
        let c = baseline.changes(&server, &list);
        assert!(c.marks.is_empty() && c.removed == ["a"], "{c:?}");
    }

    /// A tool changed and another of its name added: the row says the change.
    #[test]
    fn the_gravest_mark_of_a_name_is_kept() {
        let ch = |p: &str, i| Change { path: p.into(), impact: i, what: "x".into() };
        let changes = vec![ch("/tools/a/inputSchema/required/x", Impact::Breaking), ch("/tools/a", Impact::Compatible)];
        assert_eq!(Compared::from_changes("f".into(), changes).marks.get("a"), Some(&Mark::Breaking));
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        for text in ["", "[]", "{\"tools\": []}", "{\"mcplensSnapshot\": 2}", &"[".repeat(5000)] {
            assert!(Baseline::parse("x".into(), text).is_err(), "{text:.20}");
        }
        let ok = Baseline::parse("x".into(), r#"{"mcplensSnapshot": 1, "server": {}, "tools": [{"name": "t"}]}"#);
        assert_eq!(ok.map(|b| b.tools.len()).ok(), Some(1));
    }
}
