//! The session log: server stderr, protocol messages, notifications and warnings, with timestamps.
//!
//! Bounded by entry count and by bytes, so a chatty or hostile server cannot grow it without end.
//! Secrets the user passed (env values, header values) are redacted before anything is stored.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

/// What produced a log entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// A line the server wrote to stderr.
    Stderr,
    /// A JSON-RPC message mcplens sent.
    Sent,
    /// A JSON-RPC message the server sent.
    Received,
    /// Something the server did that breaks the protocol or looks wrong.
    Warning,
    /// mcplens's own account of what happened (connected, exited, ...).
    Info,
}

impl LogKind {
    pub fn label(self) -> &'static str {
        match self {
            LogKind::Stderr => "stderr",
            LogKind::Sent => "sent",
            LogKind::Received => "recv",
            LogKind::Warning => "warn",
            LogKind::Info => "info",
        }
    }
}

#[derive(Debug, Clone)]
pub struct LogEntry {
    pub at: SystemTime,
    pub kind: LogKind,
    /// Unsanitized text (sanitize when displaying); secrets already redacted.
    pub text: Arc<str>,
}

/// Limits on what the log keeps.
#[derive(Debug, Clone, Copy)]
pub struct LogLimits {
    pub max_entries: usize,
    pub max_bytes: usize,
    /// A single entry longer than this is stored as a preview with its full length noted.
    pub max_entry_bytes: usize,
}

impl Default for LogLimits {
    fn default() -> Self {
        LogLimits { max_entries: 20_000, max_bytes: 32 << 20, max_entry_bytes: 64 << 10 }
    }
}

#[derive(Default)]
struct LogState {
    entries: VecDeque<LogEntry>,
    bytes: usize,
    /// Total entries ever pushed, so a viewer can tell what it has not seen yet.
    pushed: u64,
}

/// Replaces each secret's occurrences with a fixed mask.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Self {
        // Very short values (e.g. "1", "true") would redact half the log and protect nothing.
        let mut secrets: Vec<String> = secrets.into_iter().filter(|s| s.len() >= 4).collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Redactor { secrets }
    }

    pub fn redact<'a>(&self, s: &'a str) -> std::borrow::Cow<'a, str> {
        if !self.secrets.iter().any(|secret| s.contains(secret.as_str())) {
            return std::borrow::Cow::Borrowed(s);
        }
        let mut out = s.to_string();
        for secret in &self.secrets {
            out = out.replace(secret.as_str(), "«redacted»");
        }
        std::borrow::Cow::Owned(out)
    }
}

#[derive(Clone)]
pub struct SessionLog {
    state: Arc<Mutex<LogState>>,
    limits: LogLimits,
    redactor: Arc<Redactor>,
}

impl std::fmt::Debug for SessionLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SessionLog({} entries)", self.lock().entries.len())
    }
}

impl SessionLog {
    pub fn new(limits: LogLimits, redactor: Redactor) -> Self {
        SessionLog { state: Arc::default(), limits, redactor: Arc::new(redactor) }
    }

    fn lock(&self) -> MutexGuard<'_, LogState> {
        // A panic while holding the lock cannot leave the log inconsistent, so keep going.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    pub fn push(&self, kind: LogKind, text: &str) {
        let text = if text.len() > self.limits.max_entry_bytes {
            let mut cut = self.limits.max_entry_bytes;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}… ({} bytes in all)", &text[..cut], text.len())
        } else {
            text.to_string()
        };
        let text: Arc<str> = Arc::from(self.redactor.redact(&text).as_ref());
        let mut st = self.lock();
        st.bytes += text.len();
        st.pushed += 1;
        st.entries.push_back(LogEntry { at: SystemTime::now(), kind, text });
        while st.entries.len() > self.limits.max_entries || st.bytes > self.limits.max_bytes {
            match st.entries.pop_front() {
                Some(old) => st.bytes -= old.text.len(),
                None => break,
            }
        }
    }

    /// All entries kept, oldest first.
    pub fn entries(&self) -> Vec<LogEntry> {
        self.lock().entries.iter().cloned().collect()
    }

    /// How many entries are kept now.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// At most `n` entries ending `from_end` entries before the newest, oldest first: what a
    /// screen shows, without copying the rest.
    pub fn window(&self, from_end: usize, n: usize) -> Vec<LogEntry> {
        let st = self.lock();
        let end = st.entries.len().saturating_sub(from_end);
        let start = end.saturating_sub(n);
        st.entries.range(start..end).cloned().collect()
    }

    /// How many entries were ever pushed (grows monotonically).
    pub fn pushed(&self) -> u64 {
        self.lock().pushed
    }

    /// The last `n` entries of one kind, oldest first.
    pub fn tail(&self, kind: LogKind, n: usize) -> Vec<Arc<str>> {
        let st = self.lock();
        let mut out: Vec<Arc<str>> =
            st.entries.iter().rev().filter(|e| e.kind == kind).take(n).map(|e| e.text.clone()).collect();
        out.reverse();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_by_entries_and_bytes() {
        let log =
            SessionLog::new(LogLimits { max_entries: 3, max_bytes: 1000, max_entry_bytes: 10 }, Redactor::default());
        for i in 0..5 {
            log.push(LogKind::Info, &format!("line {i}"));
        }
        let e = log.entries();
        assert_eq!(e.len(), 3);
        assert_eq!(&*e[0].text, "line 2");
        log.push(LogKind::Stderr, "a very long line indeed");
        assert!(log.tail(LogKind::Stderr, 1)[0].starts_with("a very lon…"));
    }

    #[test]
    fn redacts_secrets() {
        let log = SessionLog::new(LogLimits::default(), Redactor::new(["sk-12345".to_string(), "1".into()]));
        log.push(LogKind::Stderr, "token=sk-12345 id=1");
        assert_eq!(&*log.tail(LogKind::Stderr, 1)[0], "token=«redacted» id=1");
    }
}
