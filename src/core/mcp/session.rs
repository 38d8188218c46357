//! A live MCP session: connect, list every tool, call tools with timeout, progress and cancel.
//!
//! rmcp does the protocol (ids, initialize, notifications, cancellation); what the user sees is
//! read from the wire tap's raw copy of each reply.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http::{HeaderName, HeaderValue};
use rmcp::RoleClient;
use rmcp::model::{
    CancelledNotificationParam, ClientNotification, ClientRequest, Notification, PaginatedRequestParams,
    RequestOptionalParam,
};
use rmcp::service::ClientServiceExt;
use rmcp::service::{ClientInitializeError, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Map, Value};
use tokio::sync::broadcast::error::RecvError;

use super::asks::{AskDesk, Root};
use super::auth::{AuthOptions, Authorizer};
use super::client::LensClient;
use super::clock::{Deadline, within};
use super::era::{Era, Protocol, SERVER_INFO_META};
use super::http::TappedHttpClient;
use super::log::{LogKind, LogLimits, Redactor, SessionLog};
use super::stdio::{self, ChildWatch, describe_status};
use super::target::Target;
use super::tools::{ToolDescriptor, ToolList};
use super::wire::{ServerEvent, WireTap, id_key};
use crate::error::{LensError, Result};
use crate::skeleton::{Elisions, Scanned, SharedText, Syntax};

#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// For the handshake and for each request (reset by progress notifications).
    pub timeout: Duration,
    /// Where `timeout` was set, as said when it passes: `--timeout`, `MCPLENS_TIMEOUT`, or
    /// `the timeout in FILE` (the settings file).
    pub timeout_from: String,
    /// Largest single message accepted from the server.
    pub max_message: usize,
    pub log_limits: LogLimits,
    /// Most `tools/list` pages followed before stopping.
    pub max_list_pages: usize,
    /// Deepest JSON nesting accepted in a reply (`--max-depth`).
    pub max_depth: usize,
    /// The log to append to (a reconnect keeps its log); a new one when None.
    pub log: Option<SessionLog>,
    /// Who answers the server's elicitation and sampling requests; None declines them.
    pub asks: Option<AskDesk>,
    /// The roots offered to the server (`--root`); none means the capability is not offered.
    pub roots: Vec<Root>,
    /// Sent with `logging/setLevel` right after the handshake (`--log-level`).
    pub log_level: Option<super::log::Level>,
    /// Which protocol era and version to speak (`--protocol`).
    pub protocol: Protocol,
    /// In the modern era, open `subscriptions/listen` at connect for the lists the server says
    /// can change (the TUI does; a headless command, done in one request, need not wait for an
    /// acknowledgement it has no use for).
    pub listen: bool,
    /// How an HTTP server's OAuth login runs.
    pub auth: AuthOptions,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            timeout: Duration::from_secs(60),
            timeout_from: "--timeout".into(),
            max_message: 512 << 20,
            log_limits: LogLimits::default(),
            max_list_pages: 10_000,
            max_depth: crate::json_depth::DEFAULT_MAX_DEPTH,
            log: None,
            asks: None,
            roots: vec![],
            log_level: None,
            protocol: Protocol::Auto,
            listen: false,
            auth: AuthOptions::default(),
        }
    }
}

/// What the server said about itself in its `initialize` (legacy era) or `server/discover`
/// (modern era) reply, kept verbatim, and the version the session settled on.
#[derive(Debug, Clone, Default)]
pub struct ServerInfo {
    pub raw: Option<Arc<String>>,
    /// The `result` object of the initialize or discover reply.
    pub result: Value,
    /// The protocol version in use: the one `initialize` agreed, or the one picked from the
    /// discover reply's `supportedVersions`.
    pub negotiated: String,
    pub era: Era,
}

impl ServerInfo {
    fn from_raw(raw: Option<Arc<String>>) -> Self {
        let result = raw
            .as_deref()
            .and_then(|r| serde_json::from_str::<Value>(r).ok())
            .and_then(|mut v| v.get_mut("result").map(Value::take))
            .unwrap_or(Value::Null);
        let negotiated = result.get("protocolVersion").and_then(Value::as_str).unwrap_or("").to_string();
        ServerInfo { raw, result, era: Era::of(&negotiated), negotiated }
    }
    /// From an initialize or discover reply's text (tests, and a reply read back from a file).
    pub fn from_raw_text(text: &str) -> Self {
        Self::from_raw(Some(Arc::new(text.to_string())))
    }
    /// The version the session settled on (a discover reply names none of its own).
    fn settled(mut self, version: &str) -> Self {
        self.era = Era::of(version);
        self.negotiated = version.to_string();
        self
    }
    /// `serverInfo`, or in a discover reply `_meta["io.modelcontextprotocol/serverInfo"]`.
    fn info_str(&self, key: &str) -> Option<&str> {
        let info = self.result.get("serverInfo").or_else(|| self.result.get("_meta")?.get(SERVER_INFO_META));
        info.and_then(|s| s.get(key)).and_then(Value::as_str)
    }
    /// The versions a discover reply lists (`supportedVersions`); empty in the legacy era.
    pub fn supported_versions(&self) -> Vec<String> {
        let list = self.result.get("supportedVersions").and_then(Value::as_array);
        list.into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    }
    /// The discover reply's cache hint: `ttlMs` and `cacheScope`, as one line.
    pub fn cache_hint(&self) -> Option<String> {
        super::era::cache_hint(&self.result)
    }
    pub fn name(&self) -> &str {
        self.info_str("name").unwrap_or("(unnamed server)")
    }
    pub fn title(&self) -> Option<&str> {
        self.info_str("title")
    }
    pub fn version(&self) -> &str {
        self.info_str("version").unwrap_or("")
    }
    pub fn protocol_version(&self) -> &str {
        &self.negotiated
    }
    /// Whether the server declared the capability at `path` (`["resources", "subscribe"]`):
    /// present and neither `false` nor `null`.
    pub fn declares(&self, path: &[&str]) -> bool {
        let mut v = self.result.get("capabilities");
        for key in path {
            v = v.and_then(|x| x.get(*key));
        }
        !matches!(v, None | Some(Value::Null) | Some(Value::Bool(false)))
    }
    pub fn capabilities(&self) -> Vec<String> {
        self.result
            .get("capabilities")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }
    pub fn instructions(&self) -> Option<&str> {
        self.result.get("instructions").and_then(Value::as_str)
    }
}

/// A progress notification for one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    /// Overrides the session's timeout for this call.
    pub timeout: Option<Duration>,
    pub cancel: Option<super::Cancel>,
}

/// A reply exactly as received, plus its parsed result or error object.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The whole JSON-RPC message, verbatim.
    pub raw: Arc<String>,
    pub elapsed: Duration,
    /// The `result` or `error` member; for a long reply a skeleton whose long arrays are left
    /// out (see `crate::skeleton`), their elements kept as spans of `raw` in `elisions`.
    pub body: ReplyBody,
    pub elisions: Elisions,
    /// Where the reply breaks the protocol's schema (also logged as warnings).
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum ReplyBody {
    /// The `result` member.
    Result(Value),
    /// The `error` member of a JSON-RPC error reply.
    Error(Value),
}

impl Reply {
    /// Reads a reply as received: a skeleton when it is long (see `crate::skeleton`).
    pub fn parse(raw: Arc<String>, elapsed: Duration, max_depth: usize) -> Result<Reply> {
        Self::parse_with(raw, elapsed, max_depth, Syntax::Unchecked)
    }

    pub(crate) fn parse_with(raw: Arc<String>, elapsed: Duration, max_depth: usize, syntax: Syntax) -> Result<Reply> {
        Self::parse_from(raw, elapsed, max_depth, |el, text| el.parse_with(text, max_depth, syntax))
    }

    /// As `parse_with` a checked reply, with its skeleton scan made ahead (see `wire_scan`).
    pub(crate) fn parse_scanned(
        raw: Arc<String>,
        elapsed: Duration,
        max_depth: usize,
        ahead: Scanned,
    ) -> Result<Reply> {
        Self::parse_from(raw, elapsed, max_depth, |el, text| el.parse_scanned(text, max_depth, ahead))
    }

    /// A reply read through `skeleton` (None when the reply is short: it is parsed whole).
    fn parse_from(
        raw: Arc<String>,
        elapsed: Duration,
        max_depth: usize,
        skeleton: impl FnOnce(&mut Elisions, SharedText) -> Option<std::result::Result<Value, String>>,
    ) -> Result<Reply> {
        let unreadable = |e: String| {
            LensError::connection(format!("the server's reply cannot be read: {e}; the raw reply is in the log"))
        };
        let mut elisions = Elisions::default();
        let mut members = match skeleton(&mut elisions, SharedText::String(raw.clone())) {
            Some(skeleton) => match skeleton.map_err(unreadable)? {
                Value::Object(m) => m,
                _ => return Err(unreadable("it is not a JSON object".into())),
            },
            None => {
                let (m, seen) =
                    crate::json_depth::parse_noting::<Map<String, Value>>(&raw, max_depth).map_err(unreadable)?;
                elisions.approximated = seen;
                m
            }
        };
        // `"result": null` is there, and breaks the MCP schema (said by `result_problems`); only a
        // missing member is no result. `"error": null` is no error.
        let parts = (members.shift_remove("result"), members.shift_remove("error").filter(|e| !e.is_null()));
        crate::deep::drop_value(Value::Object(members));

        let body = match parts {
            (_, Some(err)) => ReplyBody::Error(err),
            (Some(res), None) => ReplyBody::Result(res),
            (None, None) => return Err(LensError::connection("the server's reply has neither result nor error")),
        };
        Ok(Reply { raw, elapsed, body, elisions, warnings: vec![] })
    }

    /// What had to be approximated to read the reply (`1e400`, lone surrogates), said for the user.
    pub fn approximation_note(&self) -> Option<String> {
        let seen = self.elisions.approximated;
        (!seen.is_empty()).then(|| {
            format!(
                "the reply holds {}: {}; --raw and the Raw view have them as sent",
                seen.describe(),
                seen.stand_ins()
            )
        })
    }

    /// `code: message` of a JSON-RPC error reply.
    pub fn error_summary(err: &Value) -> String {
        let msg = err.get("message").and_then(Value::as_str).unwrap_or("(no message)");
        match err.get("code") {
            Some(c) if c.as_i64().is_none() => format!("JSON-RPC error {c}: {msg}"),
            c => super::era::error_line(c.and_then(Value::as_i64), msg),
        }
    }
}

pub struct Session {
    pub(crate) service: RunningService<RoleClient, LensClient>,
    tap: Arc<WireTap>,
    child: Option<ChildWatch>,
    pub server: ServerInfo,
    pub target: Target,
    options: ConnectOptions,
    /// What went wrong setting the session up without stopping it (a refused `--log-level`).
    pub setup_warnings: Vec<String>,
    /// Tool names no Rust string holds (a lone surrogate), by the name as read: the stand-in
    /// that sends the server's own literal back (`wire::exact_literal`).
    exact_names: std::sync::Mutex<HashMap<String, String>>,
    /// The roots offered now: the client handler answers `roots/list` from them.
    pub(crate) roots: Arc<std::sync::RwLock<Vec<Root>>>,
    /// The modern era's per-request state: log level and the open `subscriptions/listen`.
    pub(crate) modern: super::modern::ModernState,
    /// Every task run in this session (the TUI lists them).
    pub(crate) task_book: super::task_ext::TaskBook,
    /// The OAuth login of an HTTP server (None for stdio, or when the user gave the
    /// Authorization header).
    auth: Option<Arc<Authorizer>>,
}

impl Session {
    /// Opens a session. Under `--protocol auto`, a server that answered `server/discover` only
    /// after auto had given up on it (a slow start) refuses the `initialize` that followed: it
    /// is connected to again, in the modern era.
    pub async fn connect(target: &Target, options: ConnectOptions) -> Result<Session> {
        let log = match &options.log {
            Some(log) => log.clone(),
            None => SessionLog::new(options.log_limits, Redactor::new(target.secrets())),
        };
        let options = ConnectOptions { log: Some(log.clone()), ..options };
        let mut late = false;
        match Self::connect_once(target, options.clone(), &mut late).await {
            Err(_) if late && options.protocol == Protocol::Auto => {
                log.push(
                    LogKind::Info,
                    "server/discover was answered after auto gave up on it: connecting again, in the 2026-07-28 era",
                );
                let options = ConnectOptions { protocol: Protocol::Modern, ..options };
                Self::connect_once(target, options, &mut late).await
            }
            other => other,
        }
    }

    async fn connect_once(target: &Target, options: ConnectOptions, late: &mut bool) -> Result<Session> {
        let log = options.log.clone().unwrap_or_else(|| SessionLog::new(options.log_limits, Redactor::default()));
        let tap = WireTap::new(log.clone());
        tap.scan_ahead(options.max_depth);
        let roots = Arc::new(std::sync::RwLock::new(options.roots.clone()));
        let client =
            LensClient::new(tap.clone(), options.asks.clone(), roots.clone(), options.protocol, options.max_depth);
        if options.protocol == Protocol::Auto {
            tap.bound_discover(super::era::DISCOVER_WAIT.min(options.timeout / 2));
        }
        let Handshake { served, child, auth } = Self::handshake(target, &options, client, &tap).await?;
        let service = match served {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => {
                *late = tap.late_discover();
                let what = Self::refusal(target, &options, &tap, &e);
                return Err(LensError::connection(Self::failure_message(&log, child.as_ref(), what).await));
            }
            Err(()) => {
                if let Some(c) = &child {
                    c.kill();
                }
                let what =
                    format!("did not finish initializing within {:?} ({})", options.timeout, options.timeout_from);
                return Err(LensError::connection(Self::failure_message(&log, child.as_ref(), what).await));
            }
        };
        let version = service.peer().peer_info().map(|p| p.protocol_version.to_string()).unwrap_or_default();
        let server = ServerInfo::from_raw(tap.handshake_reply()).settled(&version);
        log.push(
            LogKind::Info,
            &format!(
                "connected to {} {} (protocol {}, {} era)",
                server.name(),
                server.version(),
                server.protocol_version(),
                if server.era == Era::Modern { "modern" } else { "legacy" }
            ),
        );
        let mut session = Session {
            service,
            tap,
            child,
            server,
            target: target.clone(),
            options,
            setup_warnings: vec![],
            exact_names: Default::default(),
            roots,
            modern: Default::default(),
            task_book: Default::default(),
            auth,
        };
        session.set_up().await;
        Ok(session)
    }

    /// Starts the transport (the child, or the HTTP client) and runs the handshake within the
    /// timeout.
    async fn handshake(
        target: &Target,
        options: &ConnectOptions,
        client: LensClient,
        tap: &Arc<WireTap>,
    ) -> Result<Handshake> {
        let lifecycle = super::era::lifecycle(options.protocol);
        match target {
            Target::Stdio(s) => {
                let (io, child) = stdio::spawn(s, tap.clone(), options.max_message)?;
                // rmcp caps a line at 16 MiB; mcplens's own cap (--max-message-mb) decides, and it
                // has already applied it. An initialize reply of 20 MiB was dropped here silently.
                let (read, write) = tokio::io::split(io);
                let io = rmcp::transport::async_rw::AsyncRwTransport::new_client(read, write)
                    .with_max_line_length(options.max_message.saturating_add(1));
                let serve = client.serve_with_lifecycle(io, lifecycle);
                let served = tokio::time::timeout(options.timeout, serve).await.map_err(|_| ());
                Ok(Handshake { served, child: Some(child), auth: None })
            }
            Target::Http(h) => {
                let mut config = StreamableHttpClientTransportConfig::with_uri(h.url.clone());
                config.custom_headers = parse_headers(&h.headers)?;
                let auth = (!h.has_authorization_header()).then(|| {
                    Authorizer::new(&h.url, h.oauth.clone(), options.auth.clone(), tap.clone(), options.timeout)
                });
                if let Some(why) = auth.as_ref().and_then(|a| a.unusable()) {
                    return Err(LensError::usage(why));
                }
                let transport = StreamableHttpClientTransport::with_client(
                    TappedHttpClient::new(tap.clone(), options.max_message).with_auth(auth.clone()),
                    config,
                );
                // The clock stands still while the user logs in (the authorizer says so).
                let serve = client.serve_with_lifecycle(transport, lifecycle);
                Ok(Handshake { served: within(tap, options.timeout, serve).await, child: None, auth })
            }
        }
    }

    /// What the server did when the handshake failed, in the words of its transport.
    fn refusal(target: &Target, options: &ConnectOptions, tap: &WireTap, e: &ClientInitializeError) -> String {
        let redactor = tap.log().redactor();
        match target {
            Target::Http(_) => {
                let cause = redactor.redact(&super::refusal::cause(e)).into_owned();
                if cause.starts_with("HTTP ") {
                    format!("at {} answered {cause}", target.label())
                } else if cause.starts_with("an ") {
                    format!("at {} answered with {cause}", target.label())
                } else {
                    format!("at {} could not be reached: {cause}", target.label())
                }
            }
            Target::Stdio(_) => format!(
                "failed during {}: {}",
                super::era::handshake_name(options.protocol),
                redactor.redact(&tap.refused().unwrap_or_else(|| e.to_string()))
            ),
        }
    }

    /// What follows a handshake: the era's cache hints checked, `--log-level` sent, listening
    /// started.
    async fn set_up(&mut self) {
        let version = &self.server.negotiated;
        if self.server.era == Era::Legacy && !super::era::known(version) {
            let msg = format!(
                "the server answered protocol version {:?}, which mcplens did not offer and does not know: going on as if it spoke {} (`mcplens doctor` fails this step)",
                crate::sanitize::line(version),
                super::era::LEGACY[0]
            );
            self.log().push(LogKind::Warning, &msg);
            self.setup_warnings.push(msg);
        }
        if self.server.era == Era::Modern {
            let fixed = super::cache_hint::problems(&self.server.result);
            self.setup_warnings.extend(fixed.into_iter().map(|p| format!("server/discover: {p}")));
        }
        if let Some(level) = self.options.log_level {
            self.apply_log_level(level).await;
        }
        if self.server.era == Era::Modern && self.options.listen {
            self.listen_at_start().await;
        }
    }

    /// Sends `--log-level`; a refusal is a warning, not a failed connection.
    async fn apply_log_level(&mut self, level: super::log::Level) {
        let refused = match self.set_log_level(level).await {
            Ok(answer) => answer.outcome.err().map(|e| e.summary()),
            Err(e) => Some(e.message),
        };
        if let Some(why) = refused {
            let msg = format!("logging/setLevel {}: the server answered {why}", level.label());
            self.log().push(LogKind::Warning, &msg);
            self.setup_warnings.push(msg);
        }
    }

    /// "the server exited (exit status 1)" plus its last stderr lines, for any failure.
    async fn failure_message(log: &SessionLog, child: Option<&ChildWatch>, what: String) -> String {
        let mut msg = format!("the server {what}");
        if let Some(c) = child
            && let Some(status) = c.wait_exit(Duration::from_millis(500)).await
        {
            msg.push_str(&format!("; it exited with {}", describe_status(&status)));
        }
        // Over HTTP, why the transport gave up (a refused login, a 403) is the last warning.
        if child.is_none()
            && let Some(w) = log.tail(LogKind::Warning, 1).pop()
            && w.starts_with("auth: ")
            // A refused login is already in the transport's error: said once.
            && !msg.contains(w.trim_start_matches("auth: ").trim_start_matches("login failed: "))
        {
            msg.push_str(&format!(" ({})", crate::sanitize::line(&w)));
        }
        let tail = log.tail(LogKind::Stderr, 10);
        if !tail.is_empty() {
            msg.push_str("\nlast lines of its stderr:");
            for line in tail {
                msg.push_str("\n  ");
                msg.push_str(&crate::sanitize::line(&line));
            }
        }
        msg
    }

    pub fn log(&self) -> &SessionLog {
        self.tap.log()
    }

    pub(crate) fn tap(&self) -> &Arc<WireTap> {
        &self.tap
    }

    /// The era the session speaks (see `ServerInfo::era`).
    pub fn era(&self) -> Era {
        self.server.era
    }

    /// The roots offered to the server now.
    pub fn roots(&self) -> Vec<Root> {
        self.roots.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The OAuth login of an HTTP server, if it has one.
    pub fn auth(&self) -> Option<&Arc<Authorizer>> {
        self.auth.as_ref()
    }

    /// The limits this session was opened with.
    pub fn options(&self) -> &ConnectOptions {
        &self.options
    }

    pub fn events(&self) -> tokio::sync::broadcast::Receiver<ServerEvent> {
        self.tap.subscribe()
    }

    pub fn child(&self) -> Option<&ChildWatch> {
        self.child.as_ref()
    }

    /// True once the transport is gone (the server exited or the connection dropped).
    pub fn is_closed(&self) -> bool {
        self.service.is_transport_closed() || self.child.as_ref().is_some_and(|c| c.status().is_some())
    }

    async fn service_error(&self, e: ServiceError, what: &str) -> LensError {
        match e {
            ServiceError::Timeout { timeout } => LensError::connection(format!(
                "{what} timed out after {timeout:?} with no reply (notifications/cancelled was sent); \
                 raise {} if the tool is just slow",
                self.options.timeout_from
            )),
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                let msg = Self::failure_message(
                    self.log(),
                    self.child.as_ref(),
                    format!("closed the connection during {what}"),
                )
                .await;
                LensError::connection(msg)
            }
            // The error mcplens itself ended the request with (a reply over the size limit):
            // its words alone, not rmcp's framing of an error reply.
            ServiceError::McpError(e) if self.tap.refused().is_some_and(|r| *r == *e.message) => {
                LensError::connection(format!("{what} failed: {}", self.log().redactor().redact(&e.message)))
            }
            other => LensError::connection(format!(
                "{what} failed: {}",
                self.log().redactor().redact(&super::refusal::of_request(&other))
            )),
        }
    }

    /// Sends `request` and waits for its reply, read (see `Reply::parse`).
    async fn request(
        &self,
        request: ClientRequest,
        what: &str,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Result<Reply> {
        let (raw, elapsed) = self.request_raw(request, what, opts, on_progress).await?;
        self.read_reply(raw, elapsed)
    }

    /// A reply taken from the tap, read; with its skeleton scan when the tap made it already.
    fn read_reply(&self, raw: Arc<String>, elapsed: Duration) -> Result<Reply> {
        // The tap kept it only after parsing it.
        match self.tap.take_scan(&raw, self.options.max_depth) {
            Some(ahead) => Reply::parse_scanned(raw, elapsed, self.options.max_depth, ahead),
            None => Reply::parse_with(raw, elapsed, self.options.max_depth, Syntax::Checked),
        }
    }

    /// Sends `request` and waits for its raw reply, forwarding progress and honouring cancel.
    pub(crate) async fn request_raw(
        &self,
        request: ClientRequest,
        what: &str,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Result<(Arc<String>, Duration)> {
        let mut events = self.tap.subscribe();
        let timeout = opts.timeout.unwrap_or(self.options.timeout);
        let started = Instant::now();
        let handle = self.service.peer().send_cancellable_request(request, self.request_options()).await;
        let handle = match handle {
            Ok(h) => h,
            Err(e) => return Err(self.service_error(e, what).await),
        };
        let id = id_key(&serde_json::to_string(&handle.id).unwrap_or_default());
        // Dropped unanswered (a page asked for ahead and not wanted after all, a view closed),
        // the request's reply is not kept for anyone.
        let _unwaited = Unwaited { tap: &self.tap, id: &id };
        let token = id_key(&serde_json::to_string(&handle.progress_token.0).unwrap_or_default());
        let request_id = handle.id.clone();
        let peer = handle.peer.clone();
        let response = handle.await_response();
        tokio::pin!(response);
        let cancel = opts.cancel.clone().unwrap_or_default();
        // Our own clock, not rmcp's: progress restarts it and it stands still while the user
        // answers a question of the server's (elicitation, sampling).
        let mut clock = Deadline::new(timeout);
        loop {
            tokio::select! {
                // A reply that came is the answer, whatever else is ready; a cancel is never
                // held back by a stream of progress.
                biased;
                r = &mut response => {
                    // Progress the server sent before its reply may still be queued: deliver it.
                    while let Ok(ev) = events.try_recv() {
                        if let ServerEvent::Progress { token: t, progress, total, message } = ev
                            && t == token
                        {
                            on_progress(&Progress { progress, total, message });
                        }
                    }
                    return match r {
                        Ok(_) => match self.tap.take_reply(&id) {
                            Some(raw) => Ok((raw, started.elapsed())),
                            None => Err(LensError::connection(format!("{what}: the reply was not captured"))),
                        },
                        Err(ServiceError::McpError(_)) if self.tap.peek_reply(&id).is_some() => {
                            match self.tap.take_reply(&id) {
                                Some(raw) => Ok((raw, started.elapsed())),
                                None => Err(LensError::connection(format!("{what}: the reply was not captured"))),
                            }
                        }
                        Err(e) => {
                            self.tap.forget(&id);
                            Err(self.service_error(e, what).await)
                        }
                    };
                }
                _ = cancel.cancelled() => {
                    // Read off the wire already, not yet handed over: the answer, not dropped.
                    if let Some(raw) = self.tap.take_reply(&id) {
                        return Ok((raw, started.elapsed()));
                    }
                    self.give_up(&peer, &id, request_id, cancel.why()).await;
                    self.log().push(LogKind::Info, &cancel.logged(what));
                    return Err(LensError::cancelled());
                }
                ev = events.recv() => match ev {
                    Ok(ServerEvent::Progress { token: t, progress, total, message }) if t == token => {
                        clock.restart();
                        on_progress(&Progress { progress, total, message });
                    }
                    Ok(ServerEvent::Asking(open)) => clock.asking(open),
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => {}
                },
                _ = clock.expired() => {
                    self.give_up(&peer, &id, request_id, "timed out").await;
                    return Err(self.service_error(ServiceError::Timeout { timeout }, what).await);
                }
            }
        }
    }

    /// Stops waiting on request `id` and tells the server why (`notifications/cancelled`).
    async fn give_up(&self, peer: &rmcp::Peer<RoleClient>, id: &str, request_id: rmcp::model::RequestId, why: &str) {
        self.tap.forget(id);
        let note = Notification::new(CancelledNotificationParam::new(Some(request_id), Some(why.into())));
        let _ = peer.send_notification(ClientNotification::CancelledNotification(note)).await;
    }

    /// Every tool, following `nextCursor` to the end; a repeated cursor stops the walk.
    pub async fn list_tools(&self) -> Result<ToolList> {
        let mut list = ToolList::default();
        let mut seen = HashSet::new();
        let mut cursor: Option<String> = None;
        // The next page, asked for while this one is read (with the cursor it was asked with).
        let mut ahead: Option<(String, PageAsked<'_>)> = None;
        loop {
            let what = format!("tools/list (page {})", list.pages + 1);
            let raw = match ahead.take().filter(|(asked, _)| cursor.as_ref() == Some(asked)) {
                Some((_, page)) => page.await?,
                None => self.tools_page_raw(cursor.clone(), list.pages + 1).await?,
            };
            list.pages += 1;
            // The server answers the next page's request while this one is read, when its cursor
            // is the result's first or last member (read from there, the tools not walked). At
            // most one request is in flight, as before.
            if let Some(next) =
                self.tap.result_span(&raw).and_then(|r| raw.get(r)).and_then(super::tools_page::edge_cursor)
                && !seen.contains(next)
                && list.pages < self.options.max_list_pages
            {
                let page = self.ask_ahead(self.tools_page_raw(Some(next.to_string()), list.pages + 1)).await;
                ahead = Some((next.to_string(), page));
            }
            let next = match self.take_tools_page(&raw, &what, &mut list)? {
                ToolsPageEnd::NoTools => return Ok(list),
                ToolsPageEnd::Next(next) => next,
            };
            cursor = match self.next_tools_cursor(next, &what, &mut list) {
                Some(c) => Some(c),
                None => break,
            };
            if let Some(c) = &cursor
                && !seen.insert(c.clone())
            {
                let msg = format!("tools/list repeated the cursor {c:?}; stopped after {} pages", list.pages);
                self.warn_in(&mut list, msg);
                break;
            }
            if list.pages >= self.options.max_list_pages {
                let msg = format!("tools/list stopped after {} pages (the page limit)", list.pages);
                self.warn_in(&mut list, msg);
                break;
            }
        }
        Ok(list)
    }

    /// One `tools/list` page, asked for with `cursor`: the reply as the server wrote it.
    async fn tools_page_raw(&self, cursor: Option<String>, page: usize) -> Result<Arc<String>> {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        let request = ClientRequest::ListToolsRequest(RequestOptionalParam::with_param(params));
        let what = format!("tools/list (page {page})");
        Ok(self.request_raw(request, &what, &CallOptions::default(), &mut |_| {}).await?.0)
    }

    /// `page`, started: polled, and the tasks that write a request to the server let run (on a
    /// runtime of one thread they run only when this task waits), so that the request is on its
    /// way before the caller goes on with other work. Awaited later for the reply.
    async fn ask_ahead<'a>(&self, page: impl Future<Output = Result<Arc<String>>> + Send + 'a) -> PageAsked<'a> {
        let mut page: PageAsked<'a> = Box::pin(page);
        // rmcp's service task takes the request, then the stdin pump writes it.
        for _ in 0..3 {
            tokio::select! {
                biased;
                done = &mut page => return Box::pin(std::future::ready(done)),
                () = tokio::task::yield_now() => {}
            }
        }
        page
    }

    /// Adds one `tools/list` reply's tools to `list` and says whether the walk goes on.
    fn take_tools_page(&self, raw: &Arc<String>, what: &str, list: &mut ToolList) -> Result<ToolsPageEnd> {
        // A plain page is read in one walk of each tool; anything else is parsed.
        let page = match super::tools_page::read(raw, self.options.max_depth) {
            Some(page) => page,
            None => match self.parse_tools_page(raw, what, list)? {
                Ok(page) => page,
                Err(end) => return Ok(end),
            },
        };
        if list.pages == 1 {
            let mut hint = Map::new();
            hint.extend(page.ttl.map(|t| ("ttlMs".to_string(), t)));
            hint.extend(page.scope.map(|s| ("cacheScope".to_string(), s)));
            list.cache = super::era::cache_hint(&Value::Object(hint));
        }
        list.tools.reserve(page.tools.len());
        // A descriptor's text is a part of the page's: one search of the page spares one of
        // each descriptor on a page that maps no parameter to a header (nearly every page).
        let headers = super::tools::mentions_param_header(raw);
        for tool in page.tools {
            self.add_tool(tool, headers, list);
        }
        Ok(ToolsPageEnd::Next(page.next_cursor))
    }

    /// A page that is not plain, parsed: its tools as a plain page's, or how the walk ends.
    fn parse_tools_page(
        &self,
        raw: &Arc<String>,
        what: &str,
        list: &mut ToolList,
    ) -> Result<std::result::Result<super::tools_page::Page, ToolsPageEnd>> {
        // The tap checked its syntax; each descriptor keeps its exact bytes.
        let message: super::tools_page::ToolsMessage = crate::json_depth::parse_borrowed(raw.as_str())
            .map_err(|e| LensError::connection(format!("{what}: the result is not a tools/list result: {e}")))?;
        if let Some(err) = &message.error {
            // A server without tools says so with "method not found": that is no tools, not a
            // broken connection.
            if list.pages == 1 && err.get("code").and_then(Value::as_i64) == Some(-32601) {
                let msg = format!("the server does not offer tools ({})", Reply::error_summary(err));
                self.warn_in(list, msg);
                return Ok(Err(ToolsPageEnd::NoTools));
            }
            return Err(LensError::connection(format!("{what}: the server answered {}", Reply::error_summary(err))));
        }
        let Some(page) = message.result else {
            return Err(LensError::connection(format!("{what}: the server's reply has neither result nor error")));
        };
        let Some(tools) = page.tools else {
            return Err(LensError::connection(format!("{what}: the result has no \"tools\" array")));
        };
        let max_depth = self.options.max_depth;
        // Each descriptor's text is a part of the reply, shared with it.
        let tools = tools.into_iter().map(|tool| ToolDescriptor::in_page(raw, tool.get(), max_depth).0).collect();
        Ok(Ok(super::tools_page::Page { tools, next_cursor: page.next_cursor, ttl: page.ttl, scope: page.scope }))
    }

    /// One descriptor into `list`, noting its exact name, its parameter headers (when its page
    /// `may_map_headers`) and its problems.
    fn add_tool(&self, tool: ToolDescriptor, may_map_headers: bool, list: &mut ToolList) {
        if may_map_headers && super::tools::mentions_param_header(tool.raw.get()) {
            self.note_param_headers(&tool);
        }
        if let Some(literal) = tool.name_literal() {
            let mut names = self.exact_names.lock().unwrap_or_else(|p| p.into_inner());
            names.insert(tool.name().to_string(), super::wire::exact_literal(literal));
        }
        if let Some(problem) = tool.problem() {
            let msg = format!("tool #{} ({}): {problem}", list.tools.len() + 1, crate::sanitize::line(tool.name()));
            self.warn_in(list, msg);
        }
        list.tools.push(tool);
    }

    /// The cursor to send for the next page, or None at the end of the list.
    fn next_tools_cursor(&self, next: Option<Value>, what: &str, list: &mut ToolList) -> Option<String> {
        match next {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                let msg = format!("{what}: nextCursor is not a string ({other}); sent back as text");
                self.warn_in(list, msg);
                Some(other.to_string())
            }
        }
    }

    /// A warning both in the log and in the tool list's warnings.
    fn warn_in(&self, list: &mut ToolList, msg: String) {
        self.log().push(LogKind::Warning, &msg);
        list.warnings.push(msg);
    }

    /// Where a `tools/call` result breaks the MCP schema (mcplens still shows it; rmcp would not).
    pub fn result_problems(result: &Value) -> Vec<String> {
        let mut out = vec![];
        let Some(obj) = result.as_object() else {
            let what = if result.is_null() { "null" } else { "not a JSON object" };
            return vec![format!("the result is {what}, not a CallToolResult object")];
        };
        match obj.get("content") {
            None => out.push("the result has no content array".into()),
            Some(Value::Array(blocks)) => {
                const KNOWN: &[&str] = &["text", "image", "audio", "resource", "resource_link"];
                for (i, b) in blocks.iter().enumerate() {
                    if crate::skeleton::sentinel(b).is_some() {
                        // Blocks past the skeleton's sample are not checked one by one.
                        continue;
                    }
                    match b.get("type").and_then(Value::as_str) {
                        None => out.push(format!("content[{i}] has no type")),
                        Some("text") if !b.get("text").is_some_and(Value::is_string) => {
                            out.push(format!("content[{i}] is a text block whose text is not a string"))
                        }
                        Some(t @ ("image" | "audio")) if !b.get("data").is_some_and(Value::is_string) => {
                            out.push(format!("content[{i}] is an {t} block without base64 data"))
                        }
                        Some(t) if !KNOWN.contains(&t) => out.push(format!("content[{i}] has the unknown type {t:?}")),
                        _ => {}
                    }
                }
            }
            Some(_) => out.push("content is not an array".into()),
        }
        if obj.get("isError").is_some_and(|v| !v.is_boolean()) {
            out.push("isError is not a boolean".into());
        }
        out
    }

    /// Sends any request by method name, its reply kept as sent (for the methods the tap keeps:
    /// see `wire::STUBBED`). What rmcp has no type for (the tasks of 2025-11-25, a task-augmented
    /// call) goes this way.
    pub async fn request_method(
        &self,
        method: &str,
        params: Value,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Result<Reply> {
        let request = ClientRequest::CustomRequest(rmcp::model::CustomRequest::new(method, Some(params)));
        self.request(request, method, opts, on_progress).await
    }

    /// A listed tool's `x-mcp-header` annotations, for the HTTP transport; a tool whose
    /// annotations break SEP-2243's rules is said in the log and is not called.
    fn note_param_headers(&self, tool: &ToolDescriptor) {
        let found = super::param_headers::annotations(tool.input_schema().unwrap_or(&Value::Null));
        if let Err(why) = &found {
            let name = crate::sanitize::line(tool.name());
            self.log().push(LogKind::Warning, &format!("tool {name}: {why}; it will not be called (SEP-2243)"));
        }
        self.tap.set_param_headers(tool.name(), found);
    }

    /// Calls a tool; arguments are sent as given. A JSON-RPC error reply is a `Reply` too. A
    /// task the server makes of the call (the extension's `resultType: "task"`) is followed to
    /// its end, its statuses given as progress.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Result<Reply> {
        self.call_tool_following(name, arguments, opts, on_progress, None).await
    }

    /// `call_tool`, with a task's statuses to `on_status`.
    pub(crate) async fn call_tool_following(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
        on_status: Option<&mut (dyn FnMut(&super::tasks::Task) + Send)>,
    ) -> Result<Reply> {
        if let Some(Err(why)) = self.tap.param_headers(name) {
            return Err(LensError::usage(format!(
                "tool {} is not called: {why} (SEP-2243: a tool with invalid x-mcp-header annotations must not be called)",
                crate::sanitize::line(name)
            )));
        }
        // A name no Rust string holds goes out as the server's own literal (`wire::exact_literal`).
        let sent = self.exact_names.lock().unwrap_or_else(|p| p.into_inner()).get(name).cloned();
        let mut params = serde_json::json!({ "name": sent.as_deref().unwrap_or(name) });
        if let Some(args) = arguments {
            params["arguments"] = Value::Object(args);
        }
        let what = format!("tools/call {name}");
        let (raw, elapsed) = self.request_answering("tools/call", params, &what, opts, on_progress).await?;
        let mut reply = self.read_reply(raw, elapsed)?;
        if let ReplyBody::Result(r) = &reply.body
            && r.get("resultType").and_then(Value::as_str) == Some("task")
            && self.tasks_extension()
        {
            let created = r.clone();
            // Without a listener of its own, each status is a step of progress.
            let mut polls = 0.0;
            let mut as_progress = |t: &super::tasks::Task| {
                polls += 1.0;
                on_progress(&Progress { progress: polls, total: None, message: Some(t.line()) });
            };
            reply = match on_status {
                Some(f) => self.follow_task(name, &created, opts, f).await?,
                None => self.follow_task(name, &created, opts, &mut as_progress).await?,
            };
        }
        if let Some(note) = reply.approximation_note() {
            self.log().push(LogKind::Warning, &format!("tools/call {name}: {note}"));
        }
        if let ReplyBody::Result(r) = &reply.body {
            reply.warnings = Self::result_problems(r);
            for w in &reply.warnings {
                self.log().push(LogKind::Warning, &format!("tools/call {name}: the result breaks the MCP schema: {w}"));
            }
        }
        Ok(reply)
    }

    /// Tells a server run as a child that no more requests come (its stdin closed) without
    /// stopping it: it exits while the caller goes on with the answers it has, and
    /// [`Self::close`] then waits less. Its stdout is still read to the end. Over HTTP, nothing.
    pub async fn end_input(&self) {
        if let Some(c) = &self.child {
            c.end_input(END_INPUT_WAIT).await;
        }
    }

    /// Ends the session and stops the server. Over HTTP it waits, a bounded time, for the
    /// transport to close: the session's DELETE then goes out, and every exchange under way is
    /// logged, before a headless command exits.
    pub async fn close(&self) {
        if let Some(c) = &self.child {
            c.kill();
        }
        self.service.cancellation_token().cancel();
        match &self.child {
            // Each grace period, and a little for the kill.
            Some(c) => {
                let grace = super::stdio::STOP_GRACE.0 + super::stdio::STOP_GRACE.1 + Duration::from_millis(500);
                let _ = c.wait_exit(grace).await;
            }
            None => {
                let deadline = tokio::time::Instant::now() + CLOSE_WAIT;
                while !self.service.peer().is_transport_closed() && tokio::time::Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }
}

/// A request's waiting: when it ends, the tap lets go of what the request would leave behind
/// (see `WireTap::abandon`; nothing once its reply was taken).
struct Unwaited<'a> {
    tap: &'a WireTap,
    id: &'a str,
}

impl Drop for Unwaited<'_> {
    fn drop(&mut self) {
        self.tap.abandon(self.id);
    }
}

/// The longest [`Session::end_input`] waits for the server's stdin to close (a write blocked on a
/// server that does not read holds it open; the close deals with that server).
const END_INPUT_WAIT: Duration = Duration::from_millis(50);

/// The longest an HTTP session's close waits for its transport (a DELETE the server never
/// answers must not hold a command up for long).
const CLOSE_WAIT: Duration = Duration::from_secs(2);

fn parse_headers(headers: &[(String, String)]) -> Result<std::collections::HashMap<HeaderName, HeaderValue>> {
    headers
        .iter()
        .map(|(k, v)| {
            let name = HeaderName::try_from(k.as_str())
                .map_err(|_| LensError::usage(format!("invalid HTTP header name {k:?}")))?;
            let value = HeaderValue::try_from(v.as_str()).map_err(|_| {
                let why = super::target::header_value_problem(v).unwrap_or("is not valid");
                LensError::usage(format!(
                    "the value of HTTP header {k} {why}: a header value is one line of printable characters"
                ))
            })?;
            Ok((name, value))
        })
        .collect()
}

/// A `tools/list` page asked for, its reply still to come.
type PageAsked<'a> = std::pin::Pin<Box<dyn Future<Output = Result<Arc<String>>> + Send + 'a>>;

/// What one `tools/list` page says of the walk.
enum ToolsPageEnd {
    /// The server offers no tools (it answered "method not found").
    NoTools,
    /// The page's `nextCursor`, as sent.
    Next(Option<Value>),
}

/// A handshake's outcome (Err: the timeout passed) with what was started for it.
struct Handshake {
    served: std::result::Result<std::result::Result<RunningService<RoleClient, LensClient>, ClientInitializeError>, ()>,
    child: Option<ChildWatch>,
    auth: Option<Arc<Authorizer>>,
}
