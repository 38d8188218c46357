//! The session log: server stderr, protocol messages, notifications and warnings, with timestamps.
//!
//! Bounded by entry count and by bytes, so a chatty or hostile server cannot grow it without end.
//! Secrets the user passed (env values, header values) are redacted before anything is stored.
//! Protocol entries know their id, method and direction; a reply is paired with its request and
//! timed. One log lives across reconnects: a marker separates the sessions.

mod edits;
mod export;
mod message;
mod redact;
mod text;

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime};

pub use export::to_json_lines;
pub use message::{Edit, Level, MessageInfo, Role, Wire};
pub use redact::{MASK, Redactor, decode as decode_escapes, learn_secret};
pub use text::LogText;

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
    /// A new session begins in the same log (the user reconnected).
    Marker,
}

impl LogKind {
    pub fn label(self) -> &'static str {
        match self {
            LogKind::Stderr => "stderr",
            LogKind::Sent => "sent",
            LogKind::Received => "recv",
            LogKind::Warning => "warn",
            LogKind::Info => "info",
            LogKind::Marker => "----",
        }
    }
}

#[derive(Debug, Clone)]
pub struct LogEntry {
    /// Its place among every entry ever pushed: stays valid while older entries are dropped.
    pub seq: u64,
    pub at: SystemTime,
    pub kind: LogKind,
    /// Unsanitized text (sanitize when displaying); secrets already redacted. A message longer
    /// than `max_entry_bytes` is a preview here.
    pub text: LogText,
    /// A long reply as it came, shared with the tap's kept reply (not copied); not redacted yet:
    /// read it through `SessionLog::whole`.
    full: Option<Arc<String>>,
    /// For a protocol message (sent or received).
    pub msg: Option<MessageInfo>,
}

impl LogEntry {
    /// A server log message's level; mcplens's warnings count as `warning`.
    pub fn level(&self) -> Option<Level> {
        match self.kind {
            LogKind::Warning => Some(Level::Warning),
            _ => self.msg.as_ref().and_then(|m| m.level),
        }
    }

    /// Whether `text` is cut short of the message (see `SessionLog::whole`).
    pub fn is_preview(&self) -> bool {
        self.full.is_some()
    }
}

/// The most long replies whose full text the log keeps shared at once; older ones keep their
/// preview only, so the log cannot keep many large replies alive.
const MAX_FULL: usize = 4;
/// Requests waiting on a reply beyond this are forgotten (their replies then show unpaired).
const MAX_PENDING: usize = 4096;

/// A request waiting on its reply.
struct Pending {
    seq: u64,
    sent: Instant,
    method: Arc<str>,
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
    /// Requests waiting on replies, by id key: `[0]` ours, `[1]` the server's.
    pending: [HashMap<Arc<str>, Pending>; 2],
    /// Entries holding a full text, oldest first.
    full: VecDeque<u64>,
}

impl LogState {
    fn index(&self, seq: u64) -> Option<usize> {
        let first = self.entries.front()?.seq;
        let i = usize::try_from(seq.checked_sub(first)?).ok()?;
        (i < self.entries.len()).then_some(i)
    }

    fn get_mut(&mut self, seq: u64) -> Option<&mut LogEntry> {
        let i = self.index(seq)?;
        self.entries.get_mut(i)
    }

    /// Pairs a message with the request it answers, or records a request to pair later.
    fn pair(&mut self, seq: u64, sent_by_us: bool, info: &mut MessageInfo) {
        let Some(id) = info.id.clone() else { return };
        // A reply answers a request that went the other way.
        let side = usize::from(!sent_by_us);
        match info.role {
            Role::Request => {
                let pending = &mut self.pending[side];
                if pending.len() >= MAX_PENDING {
                    pending.clear();
                }
                let method = info.method.clone().unwrap_or_else(|| Arc::from(""));
                pending.insert(id, Pending { seq, sent: Instant::now(), method });
            }
            Role::Reply | Role::Error => {
                let Some(req) = self.pending[1 - side].remove(&id) else { return };
                info.reply_to = Some(req.seq);
                info.latency = Some(req.sent.elapsed());
                info.method = Some(req.method);
                if let Some(m) = self.get_mut(req.seq).and_then(|e| e.msg.as_mut()) {
                    m.reply = Some(seq);
                }
            }
            Role::Notification => {}
        }
    }
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
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

    /// Whether both are the same log (a reconnect hands on the same one).
    pub fn same(&self, other: &SessionLog) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
    }

    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    pub fn push(&self, kind: LogKind, text: &str) {
        self.append(kind, text, None);
    }

    /// A JSON-RPC message sent (`LogKind::Sent`) or received, with what the tap read of it.
    /// Returns its `seq`, for `attach_full`.
    pub fn push_message(&self, kind: LogKind, text: &str, wire: &Wire) -> u64 {
        self.append(kind, text, Some(MessageInfo::new(wire)))
    }

    /// A message received whose text is the whole of `reply` (kept by the tap): logged whole,
    /// it shares `reply` rather than copying it.
    pub fn push_received(&self, reply: &Arc<String>, wire: &Wire) -> u64 {
        self.append_as(LogKind::Received, reply, Some(reply), Some(MessageInfo::new(wire)))
    }

    /// Whether a message of `len` bytes is kept as a preview (see [`Self::attach_full`]).
    pub fn is_long(&self, len: usize) -> bool {
        len > self.limits.max_entry_bytes
    }

    /// Keeps a long message's full text (shared, not copied) for the entry `seq`, whose text is
    /// a preview. Only the last few are kept.
    pub fn attach_full(&self, seq: u64, full: Arc<String>) {
        if full.len() <= self.limits.max_entry_bytes {
            return;
        }
        let mut st = self.lock();
        let Some(e) = st.get_mut(seq) else { return };
        e.full = Some(full);
        st.full.push_back(seq);
        while st.full.len() > MAX_FULL {
            if let Some(old) = st.full.pop_front()
                && let Some(e) = st.get_mut(old)
            {
                e.full = None;
            }
        }
    }

    /// Lets go of `full`, a long reply kept whole (see [`Self::attach_full`]) that its reader
    /// reads for the last time and may then take apart: its entry keeps its preview, as one
    /// the log no longer keeps whole.
    pub fn let_go(&self, full: &Arc<String>) {
        let mut st = self.lock();
        let seqs: Vec<u64> = st.full.iter().copied().collect();
        for seq in seqs {
            if let Some(e) = st.get_mut(seq)
                && e.full.as_ref().is_some_and(|f| Arc::ptr_eq(f, full))
            {
                e.full = None;
                st.full.retain(|&s| s != seq);
            }
        }
    }

    /// Gives entry `seq` the time (and, for a reply, the latency) another process logged it with:
    /// a watched proxy's session is logged again in the watcher's own log.
    pub fn restamp(&self, seq: u64, at: SystemTime, latency: Option<std::time::Duration>) {
        let mut st = self.lock();
        let Some(e) = st.get_mut(seq) else { return };
        e.at = at;
        if let (Some(m), Some(l)) = (e.msg.as_mut(), latency) {
            m.latency = Some(l);
        }
    }

    /// A new session begins in this log: a marker, and requests of the old one stop waiting
    /// (the new session reuses their ids).
    pub fn mark_reconnect(&self, what: &str) {
        self.append(LogKind::Marker, what, None);
        let mut st = self.lock();
        st.pending.iter_mut().for_each(HashMap::clear);
    }

    fn append(&self, kind: LogKind, text: &str, msg: Option<MessageInfo>) -> u64 {
        self.append_as(kind, text, None, msg)
    }

    /// `append`, with `text` shared from `reply` (its whole) when logged whole and unredacted.
    fn append_as(&self, kind: LogKind, text: &str, reply: Option<&Arc<String>>, msg: Option<MessageInfo>) -> u64 {
        let text: LogText = if text.len() > self.limits.max_entry_bytes {
            // Redacted a little past the cut first, so a secret across it is not half shown.
            let window = floor_boundary(text, self.limits.max_entry_bytes.saturating_add(self.redactor.max_span()));
            let redacted = self.redactor.redact(&text[..window]);
            let cut = floor_boundary(&redacted, self.limits.max_entry_bytes);
            LogText::from(format!("{}… ({} bytes in all)", &redacted[..cut], text.len()))
        } else {
            match (self.redactor.redact(text), reply) {
                (Cow::Borrowed(_), Some(reply)) => LogText::shared(reply),
                (redacted, _) => LogText::from(redacted.as_ref()),
            }
        };
        let mut st = self.lock();
        let seq = st.pushed;
        let mut msg = msg;
        if let Some(info) = &mut msg {
            st.pair(seq, kind == LogKind::Sent, info);
        }
        st.bytes += text.len();
        st.pushed += 1;
        st.entries.push_back(LogEntry { seq, at: SystemTime::now(), kind, text, full: None, msg });
        while st.entries.len() > self.limits.max_entries || st.bytes > self.limits.max_bytes {
            match st.entries.pop_front() {
                Some(old) => st.bytes -= old.text.len(),
                None => break,
            }
        }
        seq
    }

    /// The entry `seq`, if still kept.
    pub fn get(&self, seq: u64) -> Option<LogEntry> {
        let st = self.lock();
        st.index(seq).and_then(|i| st.entries.get(i)).cloned()
    }

    /// The entries `seqs` still kept, in that order (one lock for a screenful).
    pub fn get_many(&self, seqs: &[u64]) -> Vec<LogEntry> {
        let st = self.lock();
        seqs.iter().filter_map(|&s| st.index(s).and_then(|i| st.entries.get(i)).cloned()).collect()
    }

    /// Entries pushed at or after `seq` that are still kept, oldest first.
    pub fn since(&self, seq: u64) -> Vec<LogEntry> {
        let st = self.lock();
        let start = st.entries.front().map_or(0, |f| seq.saturating_sub(f.seq));
        let start = usize::try_from(start).unwrap_or(usize::MAX).min(st.entries.len());
        st.entries.range(start..).cloned().collect()
    }

    /// The `seq` of the oldest entry kept (or of the next one, when empty).
    pub fn first_seq(&self) -> u64 {
        let st = self.lock();
        st.entries.front().map_or(st.pushed, |e| e.seq)
    }

    /// The entry's whole text, redacted: its full message when the log kept it, else its text.
    pub fn whole(&self, e: &LogEntry) -> LogText {
        match &e.full {
            Some(full) => LogText::from(self.redactor.redact(full).as_ref()),
            None => e.text.clone(),
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

    /// The last `n` entries of one kind since the last reconnect, oldest first.
    pub fn tail(&self, kind: LogKind, n: usize) -> Vec<LogText> {
        let st = self.lock();
        let mut out: Vec<LogText> = st
            .entries
            .iter()
            .rev()
            .take_while(|e| e.kind != LogKind::Marker)
            .filter(|e| e.kind == kind)
            .take(n)
            .map(|e| e.text.clone())
            .collect();
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

    /// A received message logged whole shares the reply the tap keeps; one with a secret masked
    /// in it, or one cut to a preview, is a copy of its own.
    #[test]
    fn a_reply_logged_whole_is_shared_unless_masked_or_cut() {
        let limits = LogLimits { max_entry_bytes: 40, ..LogLimits::default() };
        let log = SessionLog::new(limits, Redactor::new(["sk-12345".to_string()]));
        let wire = Wire { id: Some("1"), ..Wire::default() };
        let plain = Arc::new(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_string());
        let masked = Arc::new(r#"{"id":1,"result":"sk-12345"}"#.to_string());
        let long = Arc::new(format!(r#"{{"id":1,"result":"{}"}}"#, "x".repeat(60)));
        let e = |seq| log.get(seq).map(|e| e.text).unwrap_or_else(|| LogText::from(""));
        let text = e(log.push_received(&plain, &wire));
        assert!(std::ptr::eq(text.as_ptr(), plain.as_ptr()), "shared");
        let text = e(log.push_received(&masked, &wire));
        assert_eq!(&*text, r#"{"id":1,"result":"«redacted»"}"#);
        let text = e(log.push_received(&long, &wire));
        assert!(text.ends_with("(80 bytes in all)") && !std::ptr::eq(text.as_ptr(), long.as_ptr()), "{text}");
    }

    #[test]
    fn redacts_secrets() {
        let log = SessionLog::new(LogLimits::default(), Redactor::new(["sk-12345".to_string(), "1".into()]));
        log.push(LogKind::Stderr, "token=sk-12345 id=1");
        assert_eq!(&*log.tail(LogKind::Stderr, 1)[0], "token=«redacted» id=1");
    }

    #[test]
    fn a_secret_across_the_preview_cut_is_not_half_shown() {
        let limits = LogLimits { max_entries: 10, max_bytes: 1 << 20, max_entry_bytes: 20 };
        let log = SessionLog::new(limits, Redactor::new(["sk-12345678".to_string()]));
        log.push(LogKind::Stderr, &format!("{}sk-12345678 and more text", "x".repeat(15)));
        log.push(LogKind::Stderr, &format!("{}sk-\\u0031\\u0032345678 and more", "x".repeat(15)));
        for line in log.tail(LogKind::Stderr, 2) {
            assert!(!line.contains("sk-1") && !line.contains("sk-\\u0031"), "{line}");
            assert!(line.starts_with("xxxxxxxxxxxxxxx«"), "{line}");
        }
    }

    fn wire<'a>(id: Option<&'a str>, method: Option<&'a str>) -> Wire<'a> {
        Wire { id, method, ..Wire::default() }
    }

    #[test]
    fn replies_pair_with_their_requests_and_are_timed() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        let req = log.push_message(LogKind::Sent, "{}", &wire(Some("7"), Some("tools/list")));
        log.push_message(LogKind::Received, "{}", &wire(None, Some("notifications/progress")));
        // The server's request with the same id does not answer ours.
        let srv = log.push_message(LogKind::Received, "{}", &wire(Some("7"), Some("roots/list")));
        let reply = log.push_message(LogKind::Received, "{}", &wire(Some("\"7\""), None));
        let ours = log.push_message(LogKind::Sent, "{}", &wire(Some("7"), None));
        let r = log.get(reply).and_then(|e| e.msg).unwrap();
        assert_eq!((r.role, r.reply_to, r.method.as_deref()), (Role::Reply, Some(req), Some("tools/list")));
        assert!(r.latency.is_some());
        assert_eq!(log.get(req).and_then(|e| e.msg).unwrap().reply, Some(reply));
        let o = log.get(ours).and_then(|e| e.msg).unwrap();
        assert_eq!((o.reply_to, o.method.as_deref()), (Some(srv), Some("roots/list")));
        // A second reply to the same id pairs with nothing.
        let again = log.push_message(LogKind::Received, "{}", &wire(Some("7"), None));
        assert_eq!(log.get(again).and_then(|e| e.msg).unwrap().reply_to, None);
    }

    #[test]
    fn a_reconnect_keeps_the_log_and_forgets_waiting_requests() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        log.push(LogKind::Stderr, "old crash");
        log.push_message(LogKind::Sent, "{}", &wire(Some("0"), Some("initialize")));
        log.mark_reconnect("reconnected");
        let reply = log.push_message(LogKind::Received, "{}", &wire(Some("0"), None));
        assert_eq!(log.get(reply).and_then(|e| e.msg).unwrap().reply_to, None);
        assert_eq!(log.len(), 4);
        assert!(log.tail(LogKind::Stderr, 8).is_empty(), "stderr of the old session is not the new one's");
        assert_eq!(&*log.entries()[0].text, "old crash");
    }

    #[test]
    fn seqs_survive_eviction_and_long_texts_are_shared() {
        let limits = LogLimits { max_entries: 3, max_bytes: 1000, max_entry_bytes: 8 };
        let log = SessionLog::new(limits, Redactor::new(["secret-1".to_string()]));
        for i in 0..5 {
            log.push(LogKind::Info, &format!("{i}"));
        }
        assert_eq!((log.first_seq(), log.get(1).is_none()), (2, true));
        assert_eq!(log.get_many(&[4, 2, 9]).iter().map(|e| e.seq).collect::<Vec<_>>(), vec![4, 2]);
        assert_eq!(log.since(3).len(), 2);
        let full = Arc::new(r#"{"token":"secret-1","x":1}"#.to_string());
        let seq = log.push_message(LogKind::Received, &full, &wire(Some("1"), None));
        log.attach_full(seq, full.clone());
        let e = log.get(seq).unwrap();
        assert!(e.is_preview() && e.text.ends_with("(26 bytes in all)"));
        assert_eq!(&*log.whole(&e), r#"{"token":"«redacted»","x":1}"#);
        for _ in 0..MAX_FULL {
            let s = log.push_message(LogKind::Received, &full, &wire(None, None));
            log.attach_full(s, full.clone());
        }
        assert!(log.get(seq).is_none_or(|e| !e.is_preview()), "only the last few full texts are kept");
    }

    #[test]
    fn a_reply_let_go_is_held_no_more() {
        let limits = LogLimits { max_entries: 10, max_bytes: 1000, max_entry_bytes: 8 };
        let log = SessionLog::new(limits, Redactor::new(Vec::<String>::new()));
        let one = Arc::new(r#"{"x":"the first reply"}"#.to_string());
        let two = Arc::new(r#"{"x":"the second reply"}"#.to_string());
        let (a, b) = (
            log.push_message(LogKind::Received, &one, &wire(Some("1"), None)),
            log.push_message(LogKind::Received, &two, &wire(Some("2"), None)),
        );
        log.attach_full(a, one.clone());
        log.attach_full(b, two.clone());
        log.let_go(&one);
        assert_eq!((Arc::strong_count(&one), Arc::strong_count(&two)), (1, 2));
        assert!(log.get(b).is_some_and(|e| e.is_preview()));
        assert!(log.get(a).is_some_and(|e| e.text.starts_with(r#"{"x":"t"#)), "the preview stays");
    }

    #[test]
    fn levels_order_and_export_is_json_lines() {
        assert!(Level::parse("Warning") > Level::parse("info"));
        assert_eq!(Level::Emergency.next(), None);
        let log = SessionLog::new(LogLimits::default(), Redactor::new(["hunter22".to_string()]));
        let w = Wire { method: Some("notifications/message"), level: Some(Level::Error), ..Wire::default() };
        log.push_message(LogKind::Received, r#"{"params":{"data":"pw hunter22"}}"#, &w);
        log.push(LogKind::Stderr, "plain hunter22");
        let out = to_json_lines(&log, &log.entries());
        let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["level"], "error");
        assert_eq!(lines[0]["message"]["params"]["data"], "pw «redacted»");
        assert_eq!(lines[1]["text"], "plain «redacted»");
        assert_eq!(log.entries()[0].level(), Some(Level::Error));
    }
}
