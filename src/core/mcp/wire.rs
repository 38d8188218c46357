//! The wire tap: sits between the transport and rmcp and sees every JSON-RPC message as raw text.
//!
//! rmcp's typed model drops what it does not know (unknown tool fields, extra result fields) and a
//! result with an unknown content type fails the whole call. So for the methods whose answers
//! mcplens shows (`tools/list`, `tools/call`) the tap keeps the server's reply verbatim and hands
//! rmcp a minimal stub in its place: rmcp still does ids, timeouts, progress and cancellation,
//! while every byte the user sees comes from what the server really sent.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::{broadcast, mpsc};

use super::log::{Level, LogKind, SessionLog, Wire};
use super::probe::Probe;

/// Something the server told us outside a reply.
#[derive(Debug, Clone)]
pub enum ServerEvent {
    Progress {
        token: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    ToolListChanged,
    /// A request of the server's waits on the user (true) or was answered (false): a call's
    /// timeout does not run while the user is asked.
    Asking(bool),
    /// `notifications/resources/updated`: the subscribed resource at `uri` changed (re-read it).
    ResourceUpdated {
        uri: String,
    },
    /// `notifications/resources/list_changed`: re-list resources and templates.
    ResourceListChanged,
    /// `notifications/prompts/list_changed`: re-list prompts.
    PromptListChanged,
    /// `notifications/message`: a server log message. `text` is its `data` as text, cut to
    /// `EVENT_TEXT_MAX` characters (the whole message is in the session log).
    LogMessage {
        level: Option<Level>,
        logger: Option<String>,
        text: String,
    },
    /// Any other notification, by method.
    Notification {
        method: String,
    },
}

/// The methods whose replies are kept raw and stubbed for rmcp. The methods after the tools' are
/// sent as rmcp custom requests, which take any result.
const STUBBED: &[(&str, &str)] = &[
    ("tools/list", r#"{"tools":[]}"#),
    ("tools/call", r#"{"content":[]}"#),
    ("resources/list", "{}"),
    ("resources/templates/list", "{}"),
    ("resources/read", "{}"),
    ("resources/subscribe", "{}"),
    ("resources/unsubscribe", "{}"),
    ("prompts/list", "{}"),
    ("prompts/get", "{}"),
    ("completion/complete", "{}"),
    ("logging/setLevel", "{}"),
    ("ping", "{}"),
    // After the handshake: the modern era's round trip (`mcplens ping`).
    ("server/discover", "{}"),
    // The tasks of 2025-11-25 (rmcp speaks only the later extension).
    ("tasks/get", "{}"),
    ("tasks/result", "{}"),
    ("tasks/list", "{}"),
    ("tasks/cancel", "{}"),
    // The tasks extension (SEP-2663) answers a delivered input with an acknowledgement.
    ("tasks/update", "{}"),
    // The skills extension (SEP-2640).
    ("skills/list", "{}"),
    ("skills/get", "{}"),
];

/// The most characters of server text an event carries (a flood of huge notifications must not
/// fill the event channel with copies; the log keeps them, bounded).
pub const EVENT_TEXT_MAX: usize = 4096;

/// A server log message's level and logger (`notifications/message`).
#[derive(Deserialize)]
struct LogParams<'a> {
    #[serde(borrow, default)]
    level: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    logger: Option<Cow<'a, str>>,
}

impl<'a> Probe<'a> {
    /// What the log keeps of the message (the params of a log message are small; nothing else
    /// is parsed again).
    fn wire(&self) -> Wire<'_> {
        let mut w =
            Wire { id: self.id, method: self.method.as_deref(), error: self.error.is_some(), ..Wire::default() };
        if w.method == Some("notifications/message")
            && let Some(p) = self.params.and_then(|p| serde_json::from_str::<LogParams>(p).ok())
        {
            w.level = p.level.as_deref().and_then(Level::parse);
            w.logger = p.logger.map(Cow::into_owned);
        }
        w
    }
}

/// What the tap does with a reply it matched to a request (see `WireTap::reply_route`).
enum Route {
    /// Passed on to rmcp as it came.
    Pass,
    /// This line goes to rmcp in its place.
    Line(String),
    /// Kept whole for the caller, a stub to rmcp.
    Keep { key: String, id_text: String, stub: &'static str },
    /// The handshake's answer: kept whole and passed on (`hint_fixed`: a discover result with
    /// its cache hint made to fit the spec, and what was wrong).
    Handshake { has_result: bool, hint_fixed: Option<(String, Vec<String>)> },
}

/// A reply line kept as the caller's raw text: trailing whitespace (the line's own newline) is
/// cut in place, not copied away.
fn kept_whole(line: String) -> Arc<String> {
    // Where the text starts is told by lengths: comparing the line with its trimmed self would
    // read every byte of a long reply.
    if line.len() != line.trim_start().len() {
        return Arc::new(line.trim().to_string());
    }
    let len = line.trim_end().len();
    let mut line = line;
    line.truncate(len);
    Arc::new(line)
}

/// Whether `b` holds `NaN` or `Infinity` anywhere: one walk over a reply of any size, not one a word.
fn has_non_finite_word(b: &[u8]) -> bool {
    memchr::memchr2_iter(b'N', b'I', b).any(|i| b[i..].starts_with(b"NaN") || b[i..].starts_with(b"Infinity"))
}

/// Logs one line of someone else's session (`mcplens record`'s proxy) as the tap logs its own:
/// a JSON-RPC message with what the log reads of it, anything else as plain text.
pub fn log_line(log: &SessionLog, kind: LogKind, line: &str) -> u64 {
    match Probe::read(line) {
        Ok(p) => log.push_message(kind, line, &p.wire()),
        Err(_) => {
            log.push(kind, line);
            log.pushed().saturating_sub(1)
        }
    }
}

/// A stand-in string for a JSON literal no Rust value holds as written: a string literal with a
/// lone surrogate (a tool's name), or a number literal serde_json would rewrite (a page position
/// of `123456789012345678901` or `1e2`). rmcp serializes the stand-in, and [`WireTap::outbound`]
/// puts the literal back, so the server gets its own bytes. The nonce keeps servers from forging
/// one.
pub fn exact_literal(literal: &str) -> String {
    let hex: String = literal.bytes().map(|b| format!("{b:02x}")).collect();
    format!("{}{hex}", literal_marker())
}

fn literal_marker() -> String {
    format!("\u{0}mcplens-literal-{:016x}:", crate::skeleton::nonce())
}

/// The literal an [`exact_literal`] stand-in holds, to show it (a note, a position): None for any
/// other string.
pub fn literal_of(stand_in: &str) -> Option<String> {
    decode_literal(stand_in.strip_prefix(literal_marker().as_str())?)
}

/// `line` with each [`exact_literal`] stand-in (as serde_json writes it) replaced by its literal.
pub fn with_exact_literals(line: &str) -> Cow<'_, str> {
    let marker = format!("\"{}", literal_marker().replace('\u{0}', "\\u0000"));
    if !line.contains(&marker) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(&marker) {
        let hex_start = at + marker.len();
        let Some(len) = rest[hex_start..].find('"') else { break };
        let literal = decode_literal(&rest[hex_start..hex_start + len]);
        out.push_str(&rest[..at]);
        match literal {
            Some(l) => out.push_str(&l),
            None => out.push_str(&rest[at..hex_start + len + 1]),
        }
        rest = &rest[hex_start + len + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The requests whose progress mcplens shows, which alone ask for it: the rest (a list's page,
/// a completion) answer at once, and a token on them only asks the server for work.
const WITH_PROGRESS: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

/// `line` without the `progressToken` rmcp puts in every request's `_meta` (and without the
/// `_meta` left empty), when the request is not one of [`WITH_PROGRESS`]; None to send it as is.
/// Runs before the literals go in: the stand-ins are still strings, which a parse keeps exactly.
fn without_progress_token(line: &str) -> Option<String> {
    if !line.contains("\"progressToken\"") {
        return None;
    }
    let probe = Probe::read(line).ok()?;
    if probe.id.is_none() || probe.method.as_deref().is_none_or(|m| WITH_PROGRESS.contains(&m)) {
        return None;
    }
    let mut v: serde_json::Value = serde_json::from_str(line).ok()?;
    let params = v.get_mut("params")?.as_object_mut()?;
    let meta = params.get_mut("_meta")?.as_object_mut()?;
    meta.remove("progressToken")?;
    if meta.is_empty() {
        params.remove("_meta");
    }
    serde_json::to_string(&v).ok()
}

/// The literal a stand-in's hex holds, if it is one JSON string or number literal.
fn decode_literal(hex: &str) -> Option<String> {
    let bytes: Option<Vec<u8>> =
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()).collect();
    let literal = String::from_utf8(bytes?).ok()?;
    let mut toks = crate::json::Tokenizer::new(&literal);
    let one = matches!(toks.next(), Some(Ok(t))
        if matches!(t.kind, crate::json::Kind::String | crate::json::Kind::Number) && t.end == literal.len());
    (one && toks.next().is_none()).then_some(literal)
}

/// The literal of a message's top-level `id` member, if the text (maybe cut short) shows one.
fn top_level_id(head: &str) -> Option<&str> {
    let mut key_is_id = false;
    for tok in crate::json::Tokenizer::new(head) {
        let tok = tok.ok()?;
        if tok.depth != 1 {
            continue;
        }
        match tok.kind {
            crate::json::Kind::Key => key_is_id = tok.text(head) == "\"id\"",
            crate::json::Kind::Number | crate::json::Kind::String if key_is_id => return Some(tok.text(head)),
            _ => key_is_id = false,
        }
    }
    None
}

/// True when a `server/discover` result is one (it lists `supportedVersions`).
fn discovered(result: Option<&str>) -> bool {
    #[derive(Deserialize)]
    struct Discover<'a> {
        #[serde(rename = "supportedVersions", borrow, default)]
        supported: Option<&'a RawValue>,
    }
    result.and_then(|r| crate::json_depth::parse_borrowed::<Discover>(r).ok()).is_some_and(|d| d.supported.is_some())
}

/// A JSON-RPC id as a map key: `1` and `"1"` are the same request (rmcp correlates them too).
pub fn id_key(raw: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(serde_json::Value::Number(n)) => n.to_string(),
        _ => raw.to_string(),
    }
}

#[derive(Default)]
struct TapState {
    /// Requests we sent and are waiting on: id key to method.
    pending: HashMap<String, String>,
    /// Raw replies kept for the caller, by id key.
    kept: HashMap<String, Arc<String>>,
    /// The span of the `result` of the reply kept last (which one, by a weak reference), as the
    /// check of its syntax found it: see [`WireTap::result_span`].
    last_result: Option<(std::sync::Weak<String>, std::ops::Range<usize>)>,
    /// The server's reply to `initialize` or `server/discover`, verbatim.
    handshake: Option<Arc<String>>,
    /// A `server/discover` not answered yet: its id key and its id as sent.
    discover: Option<(String, String)>,
    /// Requests given up (an unanswered `server/discover`, a request whose caller stopped
    /// waiting): a late reply is logged, not passed on (rmcp, past a discover, would take it for
    /// a broken handshake), nor kept.
    abandoned: HashSet<String>,
    /// A given-up `server/discover` was answered after all, with a discover result.
    late_discover: bool,
    /// Server requests answered from their raw text (`asks::KEPT`), by id key.
    asks: HashMap<String, Arc<String>>,
    /// Why the last reply over the size limit was refused (said when the handshake fails: rmcp's
    /// own message does not name it).
    refused: Option<String>,
    /// A long reply's skeleton scan, made while the reply was parsed here.
    ahead: super::wire_scan::Ahead,
}

pub struct WireTap {
    log: SessionLog,
    state: Mutex<TapState>,
    events: broadcast::Sender<ServerEvent>,
    /// How long an unanswered `server/discover` is waited on (`--protocol auto`), and where a
    /// line for rmcp can be put in (the stdio transport's): see `give_up_discover`.
    discover_wait: Mutex<Option<(Duration, Option<mpsc::WeakSender<String>>)>>,
    /// The `x-mcp-header` annotations of the tools listed (only tools that have some), for the
    /// HTTP transport to mirror on `tools/call` (see `param_headers`).
    param_headers: Mutex<HashMap<String, ParamHeaders>>,
    me: Weak<WireTap>,
}

/// A tool's annotated parameters, or why its annotations forbid calling it.
pub type ParamHeaders = Result<Vec<super::param_headers::ParamHeader>, String>;

impl WireTap {
    pub fn new(log: SessionLog) -> Arc<Self> {
        let (events, _) = broadcast::channel(1024);
        Arc::new_cyclic(|me| WireTap {
            log,
            state: Mutex::default(),
            events,
            discover_wait: Mutex::default(),
            param_headers: Mutex::default(),
            me: me.clone(),
        })
    }

    /// A `server/discover` unanswered after `wait` is given up (see `give_up_discover`).
    pub fn bound_discover(&self, wait: Duration) {
        let mut w = self.discover_wait.lock().unwrap_or_else(|e| e.into_inner());
        *w = Some((wait, w.take().and_then(|(_, tx)| tx)));
    }

    /// The transport's way of handing rmcp a line of our own (the stdio transport sets it).
    /// Weak: the tap must not keep rmcp's input open after the server's output ended.
    pub fn set_injector(&self, tx: mpsc::WeakSender<String>) {
        let mut w = self.discover_wait.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, slot)) = w.as_mut() {
            *slot = Some(tx);
        }
    }

    /// True when a `server/discover` given up on was answered later with a discover result.
    pub fn late_discover(&self) -> bool {
        self.lock().late_discover
    }

    /// How long `server/discover` is waited on, when bounded.
    pub fn discover_bound(&self) -> Option<Duration> {
        self.discover_wait.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(|(d, _)| *d)
    }

    /// Stops waiting on an unanswered `server/discover` and returns the reply rmcp gets in its
    /// place: "method not found", which makes `--protocol auto` fall back to `initialize`. The
    /// log says why; a late reply from the server is logged and dropped.
    pub fn give_up_discover(&self, why: &str) -> Option<String> {
        let (key, id) = {
            let mut st = self.lock();
            let (key, id) = st.discover.take()?;
            st.pending.remove(&key);
            st.abandoned.insert(key.clone());
            (key, id)
        };
        self.log.push(LogKind::Info, &format!("server/discover (id {key}): {why}; taken as a legacy server"));
        let message = serde_json::to_string(&format!("mcplens: {why}")).unwrap_or_default();
        Some(format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":{message}}}}}"#))
    }

    /// Starts the clock on a `server/discover` just sent, when a bound and an injector are set.
    fn time_discover(&self) {
        let Some((wait, Some(tx))) = self.discover_wait.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
            return;
        };
        let me = self.me.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let why = format!("no answer within {}s", wait.as_secs_f64());
            if let (Some(line), Some(tx)) = (me.upgrade().and_then(|tap| tap.give_up_discover(&why)), tx.upgrade()) {
                let _ = tx.send(line).await;
            }
        });
    }

    fn lock(&self) -> MutexGuard<'_, TapState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn log(&self) -> &SessionLog {
        &self.log
    }

    /// Notes a listed tool's `x-mcp-header` annotations.
    pub fn set_param_headers(&self, tool: &str, headers: ParamHeaders) {
        self.param_headers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(tool.to_string(), headers);
    }

    /// A listed tool's `x-mcp-header` annotations; None when it has none (or was not listed).
    pub fn param_headers(&self, tool: &str) -> Option<ParamHeaders> {
        self.param_headers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(tool).cloned()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<ServerEvent> {
        self.events.subscribe()
    }

    /// Where the `result` of `raw` (a reply just taken from here, the last one kept) is in it:
    /// what the check of its syntax found, for a reader that needs one of its members before it
    /// reads the rest (`tools/list`'s next cursor).
    pub fn result_span(&self, raw: &Arc<String>) -> Option<std::ops::Range<usize>> {
        match &self.lock().last_result {
            // The very reply (not another made since at the same address, once it was freed).
            Some((of, span)) if std::ptr::eq(of.as_ptr(), Arc::as_ptr(raw)) => Some(span.clone()),
            _ => None,
        }
    }

    /// The raw reply to request `id`, once it arrived. Taking it frees it.
    pub fn take_reply(&self, id: &str) -> Option<Arc<String>> {
        self.lock().kept.remove(id)
    }

    /// Long replies are scanned for their skeleton under `max_depth` as they are parsed here.
    pub fn scan_ahead(&self, max_depth: usize) {
        self.lock().ahead.max_depth = Some(max_depth);
    }

    /// The skeleton scan of `raw` (a reply taken from here) under `max_depth`, if it was made
    /// while the reply was parsed.
    pub fn take_scan(&self, raw: &Arc<String>, max_depth: usize) -> Option<crate::skeleton::Scanned> {
        self.lock().ahead.take(raw, max_depth)
    }

    /// What `read` makes of the skeleton of `raw` (a reply taken from here), if one was made
    /// while the reply was parsed: a long reply's members outside its long arrays and texts,
    /// without a walk of all its bytes.
    pub fn read_skeleton<T>(&self, raw: &Arc<String>, read: impl FnOnce(&str) -> T) -> Option<T> {
        self.lock().ahead.read_skeleton(raw, read)
    }

    /// The server's reply to `initialize` or `server/discover`, verbatim.
    pub fn handshake_reply(&self) -> Option<Arc<String>> {
        self.lock().handshake.clone()
    }

    /// The server's request `id` as it sent it (elicitation, sampling). Taking it frees it.
    pub fn take_ask(&self, id: &str) -> Option<Arc<String>> {
        self.lock().asks.remove(id)
    }

    /// Tells every listener (the call waiting on its reply among them).
    pub fn emit(&self, event: ServerEvent) {
        let _ = self.events.send(event);
    }

    /// The raw reply to `id` without taking it.
    pub fn peek_reply(&self, id: &str) -> Option<Arc<String>> {
        self.lock().kept.get(id).cloned()
    }

    /// Lets go of the request `id` whose caller stopped waiting (see `Session::request_raw`):
    /// its reply, kept already or still to come, is not kept for anyone. Nothing, once the
    /// reply was taken.
    pub fn abandon(&self, id: &str) {
        let mut st = self.lock();
        if st.pending.remove(id).is_some() {
            st.abandoned.insert(id.to_string());
        }
        if let Some(raw) = st.kept.remove(id) {
            st.ahead.drop_of(&raw);
        }
    }

    /// Stop waiting on `id` (timed out or cancelled): a late reply is then logged, not kept.
    pub fn forget(&self, id: &str) {
        let mut st = self.lock();
        st.pending.remove(id);
        st.kept.remove(id);
        st.ahead.drop_unread();
    }

    /// A message mcplens is about to send, as it is sent (see [`exact_literal`]).
    pub fn outbound<'a>(&self, line: &'a str) -> Cow<'a, str> {
        let line = match without_progress_token(line) {
            Some(stripped) => Cow::Owned(with_exact_literals(&stripped).into_owned()),
            None => with_exact_literals(line),
        };
        self.log_outbound(&line);
        line
    }

    fn log_outbound(&self, line: &str) {
        let Ok(p) = Probe::read(line) else {
            self.log.push(LogKind::Sent, line.trim_end());
            return;
        };
        self.log.push_message(LogKind::Sent, line.trim_end(), &p.wire());
        let (Some(id), Some(method)) = (p.id, p.method) else { return };
        let key = id_key(id);
        let mut st = self.lock();
        match method.as_ref() {
            "server/discover" if st.handshake.is_none() => st.discover = Some((key.clone(), id.to_string())),
            // rmcp gave up on discover itself and fell back: a late answer must not reach it.
            "initialize" => {
                if let Some((old, _)) = st.discover.take() {
                    st.pending.remove(&old);
                    st.abandoned.insert(old);
                }
            }
            _ => {}
        }
        // Only the handshake's discover is timed (a later one is `ping`'s).
        let timed = method == "server/discover" && st.handshake.is_none();
        st.pending.insert(key, method.into_owned());
        drop(st);
        if timed {
            self.time_discover();
        }
    }

    /// A message from the server. Returns what rmcp should see, or None to drop it. The line is
    /// taken, not borrowed: a reply the caller waits on is kept as it came, without a copy (a copy
    /// of a 100 MB line would be a second 100 MB at once).
    pub fn inbound(&self, line: String) -> Option<String> {
        self.inbound_as(line, None)
    }

    /// A line that is not JSON-RPC but for bare `NaN`/`Infinity` (Python's json.dumps writes them
    /// unless told not to) rewritten with `null` for them, as JavaScript and pydantic write them,
    /// and said so; dropped, it left the request it answers to time out as if unanswered. Only a
    /// line that did not parse is searched: on every other line that would be one more walk.
    fn non_finite_as_null(&self, line: &str) -> Option<String> {
        if !has_non_finite_word(line.as_bytes()) {
            return None;
        }
        let (fixed, n) = crate::json::lenient::non_finite_as_null(line)?;
        Probe::read(fixed.trim()).ok()?;
        self.log.push(
            LogKind::Warning,
            &format!(
                "server sent {n} NaN or Infinity, which JSON does not have; read as null (the log has the line as sent, --raw has null)"
            ),
        );
        Some(fixed)
    }

    /// As [`Self::inbound`]; `sent` is the line as the server wrote it when `line` is a rewrite of it,
    /// for the log.
    fn inbound_as(&self, line: String, sent: Option<&str>) -> Option<String> {
        let start = line.trim_start();
        if start.is_empty() {
            return None;
        }
        if start.starts_with('[') {
            let trimmed = start.trim_end();
            self.log.push(LogKind::Received, trimmed);
            self.log.push(LogKind::Warning, "server sent a JSON-RPC batch; MCP no longer allows batches");
            return Some(trimmed.to_string());
        }
        // Made here, not only for a reply kept: the log shares it too.
        let raw = kept_whole(line);
        let trimmed = raw.as_str();
        let logged = sent.map_or(trimmed, str::trim);
        let depth = self.lock().ahead.max_depth;
        let (probe, scanned) = super::wire_scan::beside_scan(trimmed, depth, |meet| Probe::read_meeting(trimmed, meet));
        let probe = match probe {
            Ok(p) => p,
            Err(_)
                if sent.is_none()
                    && let Some(fixed) = self.non_finite_as_null(trimmed) =>
            {
                return self.inbound_as(fixed, Some(trimmed));
            }
            Err(e) => {
                self.log.push(
                    LogKind::Warning,
                    &format!("server wrote a line that is not a JSON-RPC message ({e}), skipped: {trimmed}"),
                );
                return None;
            }
        };
        let seq = match sent {
            None => self.log.push_received(&raw, &probe.wire()),
            Some(_) => self.log.push_message(LogKind::Received, logged, &probe.wire()),
        };
        if let Some(method) = probe.method.as_deref() {
            return Some(self.inbound_message(method, &probe, (trimmed, logged), seq));
        }
        match self.reply_route(&probe)? {
            Route::Pass => Some(trimmed.to_string()),
            Route::Line(line) => Some(line),
            Route::Keep { key, id_text, stub } => {
                let span = probe.result.map(|r| {
                    let at = r.as_ptr() as usize - trimmed.as_ptr() as usize;
                    at..at + r.len()
                });
                self.log.attach_full(seq, raw.clone());
                let mut st = self.lock();
                st.last_result = span.map(|span| (Arc::downgrade(&raw), span));
                st.ahead.keep(&raw, scanned);
                st.kept.insert(key, Arc::clone(&raw));
                drop(st);
                Some(format!(r#"{{"jsonrpc":"2.0","id":{id_text},"result":{stub}}}"#))
            }
            Route::Handshake { has_result, hint_fixed } => {
                if has_result {
                    self.lock().handshake = Some(raw.clone());
                }
                match hint_fixed {
                    Some((fixed, what)) => {
                        let what = what.join("; ");
                        self.log.push(LogKind::Warning, &format!("server/discover: a cache hint out of spec: {what}"));
                        Some(fixed)
                    }
                    None => Some(raw.to_string()),
                }
            }
        }
    }

    /// A request or notification of the server's (`trimmed` as read, `logged` as sent): what rmcp
    /// should see of it.
    fn inbound_message(&self, method: &str, probe: &Probe, (trimmed, logged): (&str, &str), seq: u64) -> String {
        // A long server log message is kept whole for a while, so that `--log-level`
        // headless can print it whole (the entry's text is a preview).
        if method == "notifications/message" && self.log.is_long(logged.len()) {
            self.log.attach_full(seq, Arc::new(logged.to_string()));
        }
        match probe.id {
            None => self.notification(method, probe.params),
            Some(id) => {
                if let Some((_, stub)) = super::asks::KEPT.iter().find(|(m, _)| *m == method) {
                    self.lock().asks.insert(id_key(id), Arc::new(trimmed.to_string()));
                    return format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{stub}}}"#);
                }
            }
        }
        trimmed.to_string()
    }

    /// What becomes of a reply: matched to the request it answers, or dropped (None) with a
    /// word in the log.
    fn reply_route(&self, probe: &Probe) -> Option<Route> {
        let Some(id) = probe.id else {
            self.log.push(LogKind::Warning, "server sent a message with neither method nor id");
            return None;
        };
        if probe.result.is_none() && probe.error.is_none() {
            self.log.push(LogKind::Warning, "server sent a reply with neither result nor error");
        }
        let (key, id_text) = (id_key(id), id.to_string());
        let mut st = self.lock();
        if st.abandoned.remove(&key) {
            st.late_discover |= probe.error.is_none() && discovered(probe.result);
            drop(st);
            self.log.push(LogKind::Info, &format!("a late answer to id {key}, given up before: not passed on"));
            return None;
        }
        let Some(method) = st.pending.remove(&key) else {
            drop(st);
            // Not passed on: over HTTP rmcp would take it as the answer of the stream it came on
            // and end the request that stream was for.
            self.log.push(
                LogKind::Warning,
                &format!("server replied to id {key}, which no request is waiting on; skipped"),
            );
            return None;
        };
        let stub = STUBBED.iter().find(|(m, _)| *m == method).map(|(_, stub)| *stub);
        let handshake = method == "initialize" || (method == "server/discover" && st.handshake.is_none());
        if method == "server/discover" && handshake {
            st.discover = None;
            if probe.error.is_none() && !discovered(probe.result) {
                drop(st);
                return Some(self.legacy_discover(&id_text));
            }
        }
        drop(st);
        match stub {
            Some(stub) if !handshake => Some(Route::Keep { key, id_text, stub }),
            None if !handshake => Some(Route::Pass),
            _ => {
                let hint_fixed = (method == "server/discover" && probe.error.is_none())
                    .then(|| super::cache_hint::tolerated(probe.result, &id_text))
                    .flatten();
                Some(Route::Handshake { has_result: probe.result.is_some(), hint_fixed })
            }
        }
    }

    /// A legacy server that answers any method with a result (`{}`): not a discover result, so
    /// `auto` goes on to initialize (the log has what it sent).
    fn legacy_discover(&self, id_text: &str) -> Route {
        if self.discover_bound().is_none() {
            return Route::Pass;
        }
        self.log.push(
            LogKind::Info,
            "server/discover: the answer is no discover result (no supportedVersions); taken as a legacy server",
        );
        Route::Line(format!(
            r#"{{"jsonrpc":"2.0","id":{id_text},"error":{{"code":-32601,"message":"mcplens: not a discover result"}}}}"#
        ))
    }

    /// Why the last reply over the size limit was refused, if one was.
    pub fn refused(&self) -> Option<String> {
        self.lock().refused.clone()
    }

    /// A message over the size limit was skipped; `head` is its beginning. When it answers a
    /// request mcplens is waiting on, returns an error reply for rmcp to end that request with
    /// (rather than waiting for the timeout).
    pub fn oversized(&self, head: &str, len: usize, max: usize) -> Option<String> {
        let what = format!("server sent a {len}-byte message, over the {max}-byte limit (--max-message-mb)");
        let Some(id) = top_level_id(head) else {
            self.log.push(LogKind::Warning, &format!("{what}; it was skipped"));
            return None;
        };
        let method = self.lock().pending.remove(&id_key(id));
        let Some(method) = method else {
            self.log.push(LogKind::Warning, &format!("{what}; it was skipped"));
            return None;
        };
        let message = format!("the reply to {method} is {len} bytes, over the limit of {max} (raise --max-message-mb)");
        self.lock().refused = Some(message.clone());
        self.log.push(LogKind::Warning, &format!("{what}: the reply to {method} (id {id}); it was skipped"));
        let error = serde_json::json!({"code": -32603, "message": message});
        Some(format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#))
    }

    fn notification(&self, method: &str, params: Option<&str>) {
        let params: serde_json::Value =
            params.and_then(|p| serde_json::from_str(p).ok()).unwrap_or(serde_json::Value::Null);
        let event = match method {
            "notifications/progress" => {
                let token = match params.get("progressToken") {
                    Some(serde_json::Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                };
                ServerEvent::Progress {
                    token,
                    progress: params.get("progress").and_then(|v| v.as_f64()).unwrap_or(0.0),
                    total: params.get("total").and_then(|v| v.as_f64()),
                    message: params.get("message").and_then(|v| v.as_str()).map(str::to_string),
                }
            }
            "notifications/tools/list_changed" => ServerEvent::ToolListChanged,
            "notifications/resources/list_changed" => ServerEvent::ResourceListChanged,
            "notifications/prompts/list_changed" => ServerEvent::PromptListChanged,
            "notifications/resources/updated" => ServerEvent::ResourceUpdated {
                uri: crate::sanitize::truncate(
                    params.get("uri").and_then(|v| v.as_str()).unwrap_or(""),
                    EVENT_TEXT_MAX,
                )
                .into_owned(),
            },
            "notifications/message" => {
                let text = match params.get("data") {
                    Some(serde_json::Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                };
                ServerEvent::LogMessage {
                    level: params.get("level").and_then(|v| v.as_str()).and_then(Level::parse),
                    logger: params
                        .get("logger")
                        .and_then(|v| v.as_str())
                        .map(|l| crate::sanitize::truncate(l, 200).into_owned()),
                    text: crate::sanitize::truncate(&text, EVENT_TEXT_MAX).into_owned(),
                }
            }
            other => ServerEvent::Notification { method: other.to_string() },
        };
        // No subscriber is fine: events are also in the log.
        let _ = self.events.send(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::log::{LogLimits, Redactor};

    fn tap() -> Arc<WireTap> {
        WireTap::new(SessionLog::new(LogLimits::default(), Redactor::default()))
    }

    #[test]
    fn only_requests_whose_progress_is_shown_ask_for_it() {
        let t = tap();
        let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"progressToken":2}}}"#;
        assert_eq!(t.outbound(list), r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#);
        let dated = r#"{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{"_meta":{"progressToken":3,"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"ref":{}}}"#;
        let sent = t.outbound(dated);
        assert!(!sent.contains("progressToken") && sent.contains("protocolVersion"), "{sent}");
        let call =
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"progressToken":4},"name":"x"}}"#;
        assert_eq!(t.outbound(call), call);
    }

    #[test]
    fn stubs_tool_results_and_keeps_raw() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}"#);
        let raw = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"hologram","x":1}],"extra":true}}"#;
        let fwd = t.inbound(raw.to_string()).unwrap_or_default();
        assert_eq!(fwd, r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#);
        assert_eq!(t.take_reply("3").as_deref().map(String::as_str), Some(raw));
        assert!(t.take_reply("3").is_none());
    }

    /// A long reply is scanned for its skeleton while the tap parses it; read with that scan it
    /// is the reply read from scratch, and the scan serves only its own reply and depth limit.
    #[test]
    fn a_long_reply_is_read_with_the_scan_made_while_it_was_parsed() {
        use crate::mcp::{Reply, ReplyBody};
        use crate::skeleton::Syntax;
        let t = tap();
        t.scan_ahead(64);
        t.outbound(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}"#);
        let items: Vec<serde_json::Value> =
            (0..40_000).map(|i| serde_json::json!({"id": i, "tags": ["a", i]})).collect();
        let text = serde_json::to_string(&serde_json::json!({"items": items, "next": "c2"})).unwrap_or_default();
        let result =
            serde_json::json!({"content": [{"type": "text", "text": text}], "structuredContent": {"items": items}});
        let line = serde_json::json!({"jsonrpc": "2.0", "id": 5, "result": result}).to_string();
        assert!(line.len() > 1 << 20);
        t.inbound(format!(" {line}\n"));
        let raw = t.take_reply("5").unwrap_or_default();
        if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
            // One core: nothing is scanned ahead.
            return assert!(t.take_scan(&raw, 64).is_none());
        }
        assert!(t.take_scan(&raw, 63).is_none(), "another depth limit");
        assert!(t.take_scan(&Arc::new(raw.to_string()), 64).is_none(), "another text");
        let ahead = t.take_scan(&raw, 64).expect("scanned while parsed");
        assert!(t.take_scan(&raw, 64).is_none(), "taken once");
        let body = |r: Reply| match r.body {
            ReplyBody::Result(v) => (v.to_string().replace(&format!("{:x}", crate::skeleton::nonce()), ""), r.elisions),
            ReplyBody::Error(_) => (String::new(), r.elisions),
        };
        let (scanned, el) = body(Reply::parse_scanned(raw.clone(), Duration::ZERO, 64, ahead).unwrap());
        let (fresh, _) = body(Reply::parse_with(raw.clone(), Duration::ZERO, 64, Syntax::Checked).unwrap());
        assert_eq!(scanned, fresh);
        assert_eq!(el.get(0).and_then(|e| e.raw(39_999)), Some(r#"{"id":39999,"tags":["a",39999]}"#));
        // Its long text is there to be decoded: the scan ahead also searched it for numbers a
        // parse would rewrite (there are none).
        assert_eq!(el.known_inexact(), Some(crate::json::exact::may_hold_inexact(&raw)));
        assert_eq!(el.known_inexact(), Some(false));
    }

    /// A long reply's result members are read from the skeleton its scan made, without a walk
    /// of its bytes: a `resultType` after a long list (and one inside a record, which is not the
    /// result's) reads as in the whole reply.
    #[test]
    fn a_long_replys_result_type_is_read_from_its_skeleton() {
        use crate::mcp::input::result_type;
        let t = tap();
        t.scan_ahead(64);
        let records: Vec<serde_json::Value> =
            (0..40_000).map(|i| serde_json::json!({"id": i, "resultType": "not this one"})).collect();
        for (k, tail) in [(5, serde_json::json!("input_required")), (6, serde_json::Value::Null)] {
            t.outbound(&format!(r#"{{"jsonrpc":"2.0","id":{k},"method":"tools/call","params":{{"name":"x"}}}}"#));
            let mut result = serde_json::json!({"content": [], "structuredContent": {"records": records}});
            if !tail.is_null() {
                result["resultType"] = tail;
            }
            let line = serde_json::json!({"jsonrpc": "2.0", "id": k, "result": result}).to_string();
            t.inbound(format!("{line}\n"));
            let raw = t.take_reply(&k.to_string()).unwrap_or_default();
            let whole = result_type(&raw);
            assert_eq!(whole.is_some(), k == 5);
            let from_skeleton = t.read_skeleton(&raw, result_type);
            if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
                assert_eq!(from_skeleton, Some(whole), "id {k}");
            }
            assert_eq!(t.read_skeleton(&Arc::new(raw.to_string()), result_type), None, "another text");
        }
    }

    #[test]
    fn exact_literals_go_out_as_the_server_sent_them() {
        let t = tap();
        let name = exact_literal(r#""sur\ud800""#);
        let line = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name}});
        let sent = t.outbound(&line.to_string()).into_owned();
        assert!(sent.contains(r#""name":"sur\ud800""#), "{sent}");
        let forged = r#"{"name":"\u0000mcplens-literal-0000000000000000:2278"}"#;
        assert_eq!(t.outbound(forged), forged);
        assert_eq!(decode_literal("2278"), None);
    }

    #[test]
    fn number_literals_go_out_bare_and_exact() {
        let t = tap();
        for literal in ["123456789012345678901", "1e2", "-0", "1.0000000000000000001"] {
            let args = serde_json::json!({"offset": exact_literal(literal), "q": "x"});
            let line =
                serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": args}});
            let sent = t.outbound(&line.to_string()).into_owned();
            assert!(sent.contains(&format!(r#""offset":{literal},"#)), "{sent}");
            assert_eq!(literal_of(&exact_literal(literal)).as_deref(), Some(literal));
        }
        // Two literals, or a literal and more, are no literal.
        for not_one in ["1 2", "1,", "[1]", "01", "1e"] {
            let hex: String = not_one.bytes().map(|b| format!("{b:02x}")).collect();
            assert_eq!(decode_literal(&hex), None, "{not_one}");
        }
        assert_eq!(literal_of("123"), None);
    }

    #[test]
    fn an_oversized_reply_ends_its_request_at_once() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}"#);
        let refusal = t.oversized(r#"{"jsonrpc":"2.0","id":9,"result":{"instructions":"xxxx"#, 20 << 20, 16 << 20);
        let refusal = refusal.unwrap_or_default();
        assert!(refusal.contains(r#""id":9"#) && refusal.contains("raise --max-message-mb"), "{refusal}");
        assert_eq!(t.oversized(r#"{"result":{"a":1},"id":9"#, 20 << 20, 16 << 20), None, "answered once");
        assert_eq!(t.oversized(r#"{"jsonrpc":"2.0","method":"notifications/message""#, 9, 1), None);
    }

    #[test]
    fn string_and_number_ids_match() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
        assert!(t.inbound(r#"{"jsonrpc":"2.0","id":"7","result":{"tools":[]}}"#.to_string()).is_some());
        assert!(t.take_reply("7").is_some());
    }

    #[test]
    fn junk_is_dropped_and_logged() {
        let t = tap();
        assert!(t.inbound("Server starting on stdio...".to_string()).is_none());
        let log = t.log().entries();
        assert!(log.iter().any(|e| e.kind == LogKind::Warning && e.text.contains("Server starting")));
    }

    #[test]
    fn a_reply_with_nan_is_read_with_null_and_said_and_logged_as_sent() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x"}}"#);
        // As Python's json.dumps writes float("nan") and float("inf"), its default.
        let sent = r#"{"jsonrpc": "2.0", "id": 4, "result": {"structuredContent": {"mean": NaN, "max": Infinity}}}"#;
        assert!(t.inbound(sent.to_string()).is_some(), "answered, not left to time out");
        let kept = t.take_reply("4").unwrap_or_default();
        assert!(kept.contains(r#"{"mean": null, "max": null}"#), "{kept}");
        let log = t.log().entries();
        assert!(log.iter().any(|e| e.kind == LogKind::Warning && e.text.contains("2 NaN or Infinity")), "{log:?}");
        assert!(log.iter().any(|e| e.kind == LogKind::Received && e.text.contains("NaN")), "{log:?}");
    }

    #[test]
    fn unknown_ids_are_warned_about_and_not_passed_on() {
        let t = tap();
        assert!(t.inbound(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#.to_string()).is_none());
        assert!(t.log().entries().iter().any(|e| e.kind == LogKind::Warning && e.text.contains("id 99")));
    }

    #[test]
    fn server_asks_are_kept_whole_and_rmcp_gets_a_stub_it_reads() {
        let t = tap();
        let raw = r#"{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"deep":{"type":"object"}}}}}"#;
        let fwd = t.inbound(raw.to_string()).unwrap_or_default();
        assert!(serde_json::from_str::<rmcp::model::ServerJsonRpcMessage>(&fwd).is_ok(), "{fwd}");
        assert_eq!(t.take_ask("e1").as_deref().map(String::as_str), Some(raw));
        let sampling = r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"new"}}]}}"#;
        let fwd = t.inbound(sampling.to_string()).unwrap_or_default();
        assert!(serde_json::from_str::<rmcp::model::ServerJsonRpcMessage>(&fwd).is_ok(), "{fwd}");
        assert!(t.take_ask("7").is_some());
        let roots = r#"{"jsonrpc":"2.0","id":8,"method":"roots/list"}"#;
        assert_eq!(t.inbound(roots.to_string()).as_deref(), Some(roots));
        assert!(t.take_ask("8").is_none());
    }

    #[test]
    fn progress_becomes_an_event() {
        let t = tap();
        let mut rx = t.subscribe();
        t.inbound(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2,"total":4}}"#.to_string());
        match rx.try_recv() {
            Ok(ServerEvent::Progress { token, progress, total, .. }) => {
                assert_eq!(token, "1");
                assert_eq!(progress, 2.0);
                assert_eq!(total, Some(4.0));
            }
            other => panic!("expected progress, got {other:?}"),
        }
    }

    #[test]
    fn resource_and_log_notifications_become_events() {
        let t = tap();
        let mut rx = t.subscribe();
        t.inbound(
            r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a://b"}}"#.to_string(),
        );
        t.inbound(r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#.to_string());
        let long = "x".repeat(EVENT_TEXT_MAX * 2);
        t.inbound(format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"error","data":"{long}"}}}}"#
        ));
        assert!(matches!(rx.try_recv(), Ok(ServerEvent::ResourceUpdated { uri }) if uri == "a://b"));
        assert!(matches!(rx.try_recv(), Ok(ServerEvent::PromptListChanged)));
        match rx.try_recv() {
            Ok(ServerEvent::LogMessage { level, text, .. }) => {
                assert_eq!(level, Some(Level::Error));
                assert_eq!(text.chars().count(), EVENT_TEXT_MAX);
            }
            other => panic!("expected a log message, got {other:?}"),
        }
    }

    #[test]
    fn resource_replies_are_kept_and_stubbed() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"x://y"}}"#);
        let raw = r#"{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"x://y","text":"t","x":1}]}}"#;
        assert_eq!(t.inbound(raw.to_string()).as_deref(), Some(r#"{"jsonrpc":"2.0","id":4,"result":{}}"#));
        assert_eq!(t.take_reply("4").as_deref().map(String::as_str), Some(raw));
    }

    /// The span of the result is told for the reply it was found in, and for no other.
    #[test]
    fn the_result_span_is_of_the_reply_kept_last() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{}}"#);
        let line = r#"{"jsonrpc":"2.0","id":8,"result":{"tools":[],"nextCursor":"n"}}"#;
        t.inbound(line.to_string());
        let raw = t.take_reply("8").unwrap_or_default();
        let span = t.result_span(&raw).unwrap_or_default();
        assert_eq!(&raw[span], r#"{"tools":[],"nextCursor":"n"}"#);
        assert_eq!(t.result_span(&Arc::new(line.to_string())), None);
    }

    /// The log's entry of a reply kept is the kept text itself, not a copy (as read: without
    /// the whitespace around it).
    #[test]
    fn a_kept_reply_is_logged_without_a_copy() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#);
        t.inbound(" {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]}} \r".to_string());
        let raw = t.take_reply("3").unwrap_or_default();
        let logged = t.log().entries().into_iter().rfind(|e| e.kind == LogKind::Received).map(|e| e.text);
        assert_eq!(raw.as_str(), r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#);
        assert!(logged.is_some_and(|l| std::ptr::eq(l.as_ptr(), raw.as_ptr())));
    }

    /// A request its caller stopped waiting on (a page asked for ahead, not wanted after all)
    /// leaves nothing kept: neither a reply that came before nor one that comes after.
    #[test]
    fn an_abandoned_request_leaves_no_reply_kept() {
        let t = tap();
        let page = |id: u32| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[]}}}}"#);
        t.outbound(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}"#);
        t.inbound(page(5));
        t.abandon("5");
        assert!(t.peek_reply("5").is_none());
        t.outbound(r#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{}}"#);
        t.abandon("6");
        assert_eq!(t.inbound(page(6)), None, "not passed on");
        assert!(t.peek_reply("6").is_none());
        assert!(t.log().entries().iter().any(|e| e.text.contains("a late answer to id 6")));
        // Once taken, a reply is the caller's: abandoning then changes nothing.
        t.outbound(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#);
        t.inbound(page(7));
        assert!(t.take_reply("7").is_some());
        t.abandon("7");
        assert!(t.lock().abandoned.is_empty());
    }

    #[test]
    fn log_messages_carry_level_and_logger_and_replies_their_method() {
        let t = tap();
        t.outbound(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#);
        t.inbound(
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":"x"}}"#
                .to_string(),
        );
        t.inbound(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#.to_string());
        let e = t.log().entries();
        let m = e[1].msg.clone().unwrap_or_else(|| panic!("no info"));
        assert_eq!((m.level, m.logger.as_deref()), (Some(Level::Error), Some("db")));
        let r = e[2].msg.clone().unwrap_or_else(|| panic!("no info"));
        assert_eq!((r.method.as_deref(), r.reply_to), (Some("tools/call"), Some(e[0].seq)));
    }
}
