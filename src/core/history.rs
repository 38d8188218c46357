//! Call history, per server, in the user's state directory (`$MCPLENS_STATE_DIR`, else
//! `$XDG_STATE_HOME/mcplens`, else `~/.local/state/mcplens`): one JSON line per call, files with
//! mode 0600 in a directory with mode 0700. Secrets the user passed are redacted before writing.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::mcp::log::Redactor;

/// Entries kept in memory and shown; older ones stay in the file.
const KEEP: usize = 500;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub tool: String,
    pub arguments: Value,
    /// Seconds since the Unix epoch.
    pub at: u64,
    pub duration_ms: u64,
    /// `ok`, `tool error`, `rpc error`, `failed` or `cancelled`.
    pub status: String,
}

#[derive(Debug, Clone, Default)]
pub struct History {
    path: Option<PathBuf>,
    pub entries: Vec<Entry>,
    /// Why the file could not be read or written, if it could not.
    pub problem: Option<String>,
}

pub fn state_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("MCPLENS_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("mcplens"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state/mcplens"))
}

/// A file name for a server: readable, and unique per target label (FNV-1a of the whole label).
pub fn server_key(label: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let readable: String = label
        .rsplit('/')
        .next()
        .unwrap_or(label)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .take(40)
        .collect();
    format!("{}-{hash:016x}", readable.trim_matches('-'))
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Opens `path` for appending, creating it with mode 0600.
pub fn open_private(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).write(true);
    if append {
        opts.append(true);
    } else {
        opts.truncate(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let f = opts.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(f)
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

    /// Loads the history of `label` kept under `dir`.
    pub fn open_in(dir: &Path, label: &str) -> History {
        let path = dir.join("history").join(format!("{}.jsonl", server_key(label)));
        let mut h = History { path: Some(path.clone()), ..History::default() };
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                h.entries = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
                let n = h.entries.len();
                if n > KEEP {
                    h.entries.drain(..n - KEEP);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
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

    /// The arguments of the last call of `tool`.
    pub fn last_arguments(&self, tool: &str) -> Option<&Value> {
        self.entries.iter().rev().find(|e| e.tool == tool).map(|e| &e.arguments)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

pub fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
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
                status: "ok".into(),
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
}
