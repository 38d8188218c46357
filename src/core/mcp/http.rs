//! Streamable HTTP with the wire tap inside.
//!
//! rmcp's own reqwest client parses JSON bodies straight into its typed model, which would lose
//! what the server sent. This client does the HTTP itself, shows every body and SSE event to the
//! tap as raw text, and gives rmcp only what the tap forwards.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::Sse;

use super::auth::{Authorizer, MAX_LOGINS_PER_REQUEST};
use super::log::{LogKind, SessionLog};
use super::wire::WireTap;

const SESSION_ID: &str = "Mcp-Session-Id";
const LAST_EVENT_ID: &str = "Last-Event-Id";
const EVENT_STREAM: &str = "text/event-stream";
const JSON: &str = "application/json";

/// Redirects followed for one request.
const MAX_REDIRECTS: usize = 10;

/// A request for `TappedHttpClient::send`.
struct Outgoing<'a> {
    method: reqwest::Method,
    uri: &'a str,
    session_id: Option<&'a str>,
    auth: Option<String>,
    custom: HashMap<HeaderName, HeaderValue>,
    body: Option<String>,
    extra: Vec<(&'static str, String)>,
    /// What the request is for, for its log entry (see `http_view`).
    what: String,
}

#[derive(Clone)]
pub struct TappedHttpClient {
    http: reqwest::Client,
    tap: Arc<WireTap>,
    max_message: usize,
    /// Logs in on a 401 and steps up on an `insufficient_scope` 403; None when the user gave
    /// the Authorization header themselves.
    auth: Option<Arc<Authorizer>>,
}

type HttpResult<T> = Result<T, StreamableHttpError<reqwest::Error>>;

impl TappedHttpClient {
    pub fn new(tap: Arc<WireTap>, max_message: usize) -> Self {
        // Redirects are followed by `send`, which knows which headers are the user's.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        TappedHttpClient { http, tap, max_message, auth: None }
    }

    pub fn with_auth(mut self, auth: Option<Arc<Authorizer>>) -> Self {
        self.auth = auth;
        self
    }

    /// The bearer token for a request: the authorizer's (refreshed if it expired), else what
    /// rmcp holds.
    async fn bearer(&self, rmcp_auth: Option<String>) -> Option<String> {
        match &self.auth {
            Some(a) => a.bearer().await.or(rmcp_auth),
            None => rmcp_auth,
        }
    }

    /// Sends a POST, logging in on a 401 and stepping up on an `insufficient_scope` 403, at
    /// most `MAX_LOGINS_PER_REQUEST` times, so a server that never accepts cannot loop us.
    async fn send_authorized(&self, req: Outgoing<'_>) -> HttpResult<reqwest::Response> {
        let Some(auth) = self.auth.clone() else { return self.send(req).await.map_err(unreachable) };
        let Outgoing { method, uri, session_id, auth: rmcp_auth, custom, body, extra, what } = req;
        let mut token = self.bearer(rmcp_auth).await;
        let mut logins = 0;
        let mut nonce_retried = false;
        loop {
            let resp = self
                .send(Outgoing {
                    method: method.clone(),
                    uri,
                    session_id,
                    auth: token.clone(),
                    custom: custom.clone(),
                    body: body.clone(),
                    extra: extra.clone(),
                    what: what.clone(),
                })
                .await
                .map_err(unreachable)?;
            let status = resp.status();
            let challenge = resp
                .headers()
                .get(reqwest::header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let step_up = status == reqwest::StatusCode::FORBIDDEN
                && super::auth::Challenge::parse(&challenge).insufficient_scope();
            if !nonce_retried && super::auth::dpop::wants_nonce_again(&auth, uri, &resp, &challenge) {
                // A fresh proof with the nonce, once: not a login (RFC 9449 §9).
                nonce_retried = true;
                self.tap
                    .log()
                    .push(LogKind::Info, "HTTP 401 use_dpop_nonce: sending again with the server's DPoP nonce");
                continue;
            }
            if status != reqwest::StatusCode::UNAUTHORIZED && !step_up {
                return Ok(resp);
            }
            if logins >= MAX_LOGINS_PER_REQUEST {
                self.tap.log().push(
                    LogKind::Warning,
                    &format!("auth: HTTP {status} again after {logins} logins; giving up on this request"),
                );
                return Ok(resp);
            }
            logins += 1;
            let quoted = if challenge.is_empty() {
                String::new()
            } else {
                format!(" (WWW-Authenticate: {})", crate::sanitize::truncate(&challenge, 300))
            };
            self.tap.log().push(LogKind::Info, &format!("HTTP {status}{quoted}"));
            let next = if step_up {
                auth.insufficient_scope(&challenge).await
            } else {
                auth.unauthorized(token.as_deref(), &challenge).await
            };
            token = Some(next.map_err(|e| {
                StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!(
                    "HTTP {status}{quoted}: login failed: {e}"
                )))
            })?);
        }
    }

    /// Sends a request, following up to `MAX_REDIRECTS` redirects itself: the headers the user
    /// gave (`--header`, a config's `headers`) and the bearer token go only to the origin of the
    /// URL they were given for, never across a redirect to another one (reqwest would strip only
    /// Authorization and Cookie).
    async fn send(&self, req: Outgoing<'_>) -> Result<reqwest::Response, reqwest::Error> {
        let Outgoing { mut method, uri, session_id, auth, custom, mut body, extra, what } = req;
        let home = reqwest::Url::parse(uri).ok().map(|u| u.origin());
        let mut url = uri.to_string();
        let mut hops = 0;
        loop {
            let here = reqwest::Url::parse(&url).ok();
            let trusted = here.as_ref().map(reqwest::Url::origin) == home;
            let (auth, custom) = if trusted { (auth.clone(), custom.clone()) } else { (None, HashMap::new()) };
            let mut req = self.http.request(method.clone(), &url);
            if let Some(token) = auth {
                req = self.present(req, &method, &url, &token);
            }
            req = self.with_headers(req, session_id, custom);
            for (k, v) in &extra {
                req = req.header(*k, v);
            }
            if let Some(b) = &body {
                req = req.body(b.clone());
            }
            let resp = self.exchange(req, &method, &url, &what).await?;
            let location = resp.headers().get(reqwest::header::LOCATION).and_then(|v| v.to_str().ok());
            let next = match (here, location) {
                (Some(here), Some(loc)) if resp.status().is_redirection() => here.join(loc).ok(),
                _ => None,
            };
            let Some(next) = next.filter(|_| hops < MAX_REDIRECTS) else { return Ok(resp) };
            hops += 1;
            let status = resp.status();
            // As browsers and reqwest do: 301/302 turn a POST into a GET, 303 anything; 307 and
            // 308 resend the same request.
            if status == reqwest::StatusCode::SEE_OTHER
                || (method == reqwest::Method::POST
                    && matches!(status, reqwest::StatusCode::MOVED_PERMANENTLY | reqwest::StatusCode::FOUND))
            {
                method = reqwest::Method::GET;
                body = None;
            }
            let leaves = Some(next.origin()) != home;
            self.tap.log().push(
                LogKind::Info,
                &format!(
                    "HTTP {status}: redirected to {next}{}",
                    if leaves { " (another origin: the headers you gave are not sent there)" } else { "" }
                ),
            );
            url = next.to_string();
        }
    }

    /// Sends one request and logs the exchange (`http_view`): headers each way, status, time.
    async fn exchange(
        &self,
        req: reqwest::RequestBuilder,
        method: &reqwest::Method,
        url: &str,
        what: &str,
    ) -> Result<reqwest::Response, reqwest::Error> {
        let request = req.build()?;
        let mut pending = Unanswered {
            log: self.tap.log(),
            method,
            url,
            what,
            sent: request.headers().clone(),
            started: std::time::Instant::now(),
            done: false,
        };
        let result = self.http.execute(request).await;
        let answer = match &result {
            Ok(resp) => Ok((resp.status(), resp.headers())),
            Err(e) => Err(innermost(e)),
        };
        pending.done = true;
        let elapsed = pending.started.elapsed();
        super::http_view::Exchange { method: method.as_str(), url, what, sent: &pending.sent, answer, elapsed }
            .log(self.tap.log());
        result
    }

    fn with_headers(
        &self,
        mut req: reqwest::RequestBuilder,
        session_id: Option<&str>,
        custom: HashMap<HeaderName, HeaderValue>,
    ) -> reqwest::RequestBuilder {
        req = req.header(reqwest::header::ACCEPT, format!("{EVENT_STREAM}, {JSON}"));
        for (k, v) in custom {
            req = req.header(k, v);
        }
        if let Some(sid) = session_id {
            req = req.header(SESSION_ID, sid);
        }
        req
    }

    /// The token on a request: as the authorizer presents it (DPoP-bound ones with a fresh
    /// proof for this method and URL), else as a bearer token.
    fn present(
        &self,
        mut req: reqwest::RequestBuilder,
        method: &reqwest::Method,
        url: &str,
        token: &str,
    ) -> reqwest::RequestBuilder {
        match &self.auth {
            Some(a) => {
                for (k, v) in a.presentation(method.as_str(), url, token) {
                    req = req.header(k, v);
                }
                req
            }
            None => req.bearer_auth(token),
        }
    }

    /// Feeds SSE events through the tap, read tolerantly (`sse.rs`); events the tap drops keep
    /// their id (for resumption) but lose their data, which rmcp skips.
    fn tapped_events(&self, resp: reqwest::Response) -> BoxStream<'static, Result<Sse, SseError>> {
        let tap = self.tap.clone();
        let mut parser = super::sse::SseParser::new(self.max_message);
        resp.bytes_stream()
            .map(move |chunk| {
                let parsed = match chunk {
                    Ok(bytes) => parser.push(&bytes),
                    Err(e) => return vec![Err(SseError::Body(Box::new(e)))],
                };
                parsed
                    .into_iter()
                    .filter_map(|p| match p {
                        super::sse::Parsed::Warning(w) => {
                            tap.log().push(LogKind::Warning, &w);
                            None
                        }
                        super::sse::Parsed::Event(mut sse) => {
                            sse.data = sse.data.take().and_then(|d| tap.inbound(d));
                            Some(Ok(sse))
                        }
                    })
                    .collect()
            })
            .flat_map(futures::stream::iter)
            .boxed()
    }

    async fn read_body(&self, resp: reqwest::Response) -> HttpResult<String> {
        let mut body = Vec::new();
        let mut stream = resp.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(StreamableHttpError::Client)?;
            if body.len() + chunk.len() > self.max_message {
                return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: self.max_message });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(String::from_utf8_lossy(&body).into_owned())
    }
}

/// What a posted message is, for its exchange's log entry: its JSON-RPC method, or that it
/// answers the server.
fn what_of(message: &ClientJsonRpcMessage) -> String {
    match message {
        ClientJsonRpcMessage::Request(r) => r.request.method().to_string(),
        ClientJsonRpcMessage::Notification(n) => serde_json::to_value(&n.notification)
            .ok()
            .and_then(|v| v.get("method")?.as_str().map(str::to_string))
            .unwrap_or_else(|| "notification".into()),
        ClientJsonRpcMessage::Response(_) => "reply to the server's request".into(),
        ClientJsonRpcMessage::Error(_) => "error reply to the server's request".into(),
    }
}

fn content_type(resp: &reqwest::Response) -> String {
    resp.headers().get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase()
}

fn excerpt(body: &str) -> String {
    let one_line: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::sanitize::truncate(&one_line, 200).into_owned()
}

/// An error's innermost cause ("Connection refused (os error 111)").
fn innermost(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// A request that never got an answer, described by its innermost cause
/// ("Connection refused (os error 111)"), which is what a user can act on.
fn unreachable(e: reqwest::Error) -> StreamableHttpError<reqwest::Error> {
    StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!("could not connect: {}", innermost(&e))))
}

impl TappedHttpClient {
    /// Posts one message and reads the answer (a JSON body or an event stream) through the tap.
    async fn post_plain(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<StreamableHttpPostResponse> {
        let body = serde_json::to_string(&message)?;
        let body = self.tap.outbound(&body).into_owned();
        let expects_reply = matches!(message, ClientJsonRpcMessage::Request(_));
        let mut custom_headers = custom_headers;
        custom_headers.extend(self.param_headers(&message, &body));
        let resp = self
            .send_authorized(Outgoing {
                method: reqwest::Method::POST,
                uri: &uri,
                session_id: session_id.as_deref(),
                auth: auth_header,
                custom: custom_headers,
                body: Some(body),
                extra: vec![("Content-Type", JSON.to_string())],
                what: what_of(&message),
            })
            .await?;
        let status = resp.status();
        let new_session = resp.headers().get(SESSION_ID).and_then(|v| v.to_str().ok()).map(str::to_string);
        if status == reqwest::StatusCode::ACCEPTED || status == reqwest::StatusCode::NO_CONTENT {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == reqwest::StatusCode::NOT_FOUND && session_id.is_some() {
            return Err(StreamableHttpError::SessionExpired);
        }
        if status == reqwest::StatusCode::UNAUTHORIZED {
            return Err(self.unauthorized(&resp));
        }
        if !status.is_success() {
            return self.failed_post(resp, new_session).await;
        }
        self.read_reply(resp, expects_reply, new_session).await
    }

    /// A 401, said in words with the server's challenge: rmcp's AuthRequired would print as Rust
    /// type names.
    fn unauthorized(&self, resp: &reqwest::Response) -> StreamableHttpError<reqwest::Error> {
        let header = resp
            .headers()
            .get(reqwest::header::WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let challenge = if header.is_empty() {
            String::new()
        } else {
            format!(" (WWW-Authenticate: {})", crate::sanitize::truncate(&header, 300))
        };
        self.tap.log().push(LogKind::Warning, &format!("HTTP 401 Unauthorized{challenge}"));
        StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!(
            "HTTP 401 Unauthorized: the server wants credentials{challenge}; \
             log in with `mcplens auth login --url URL`, or give a token with --header \"Authorization: Bearer TOKEN\""
        )))
    }

    /// An error status: a JSON-RPC error in the body is the answer, anything else is an error.
    async fn failed_post(
        &self,
        resp: reqwest::Response,
        new_session: Option<String>,
    ) -> HttpResult<StreamableHttpPostResponse> {
        let status = resp.status();
        let ctype = content_type(&resp);
        let body = self.read_body(resp).await.unwrap_or_default();
        if ctype.starts_with(JSON)
            && let Some(fwd) = self.tap.inbound(body.clone())
            && let Ok(msg @ ServerJsonRpcMessage::Error(_)) = serde_json::from_str::<ServerJsonRpcMessage>(&fwd)
        {
            return Ok(StreamableHttpPostResponse::Json(msg, new_session));
        }
        self.tap.log().push(LogKind::Warning, &format!("HTTP {status}: {}", excerpt(&body)));
        Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!("HTTP {status}: {}", excerpt(&body)))))
    }

    /// A success status: an event stream, a JSON message, or (for a notification) nothing.
    async fn read_reply(
        &self,
        resp: reqwest::Response,
        expects_reply: bool,
        new_session: Option<String>,
    ) -> HttpResult<StreamableHttpPostResponse> {
        let ctype = content_type(&resp);
        if ctype.starts_with(EVENT_STREAM) {
            return Ok(StreamableHttpPostResponse::Sse(self.tapped_events(resp), new_session));
        }
        let body = self.read_body(resp).await?;
        if body.trim().is_empty() && !expects_reply {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if !ctype.starts_with(JSON) {
            return Err(StreamableHttpError::UnexpectedContentType(Some(ctype)));
        }
        let shown = excerpt(&body);
        match self.tap.inbound(body) {
            Some(fwd) => match serde_json::from_str::<ServerJsonRpcMessage>(&fwd) {
                Ok(msg) => Ok(StreamableHttpPostResponse::Json(msg, new_session)),
                Err(_) if !expects_reply => Ok(StreamableHttpPostResponse::Accepted),
                Err(e) => Err(StreamableHttpError::Deserialize(e)),
            },
            None if !expects_reply => Ok(StreamableHttpPostResponse::Accepted),
            None => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!(
                "the reply is not a JSON-RPC message: {shown}"
            )))),
        }
    }

    /// SEP-2243: the `x-mcp-header` parameters of a `tools/call`, as `Mcp-Param-*` headers,
    /// said in the log beside the request.
    fn param_headers(&self, message: &ClientJsonRpcMessage, body: &str) -> Vec<(HeaderName, HeaderValue)> {
        let ClientJsonRpcMessage::Request(_) = message else { return vec![] };
        #[derive(serde::Deserialize)]
        struct Call {
            method: String,
            #[serde(default)]
            params: Option<serde_json::Map<String, serde_json::Value>>,
        }
        let Ok(call) = serde_json::from_str::<Call>(body) else { return vec![] };
        let Some(params) = call.params.filter(|_| call.method == "tools/call") else { return vec![] };
        let Some(name) = params.get("name").and_then(serde_json::Value::as_str) else { return vec![] };
        let Some(Ok(annotated)) = self.tap.param_headers(name) else { return vec![] };
        let args = params.get("arguments").and_then(serde_json::Value::as_object);
        let pairs = super::param_headers::headers_for(&annotated, args);
        if !pairs.is_empty() {
            let shown: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let line = crate::sanitize::line(&shown.join(", ")).into_owned();
            let tool = crate::sanitize::line(name);
            self.tap.log().push(LogKind::Info, &format!("HTTP headers sent with tools/call {tool}: {line}"));
        }
        pairs
            .into_iter()
            .filter_map(|(k, v)| Some((HeaderName::from_bytes(k.as_bytes()).ok()?, HeaderValue::from_str(&v).ok()?)))
            .collect()
    }

    /// `server/discover` under `--protocol auto`: an HTTP 4xx (other than 401/403, which ask
    /// for credentials) or no answer within the bound says the server is a legacy one; rmcp is
    /// handed "method not found" so it falls back to `initialize`.
    async fn post_discover(
        &self,
        attempt: impl Future<Output = HttpResult<StreamableHttpPostResponse>>,
        wait: std::time::Duration,
    ) -> HttpResult<StreamableHttpPostResponse> {
        // The wait stands still while a login this answer asked for runs in the browser: a
        // login taking longer than the wait started a second one, on `initialize`.
        let why = match super::clock::within(&self.tap, wait, attempt).await {
            Err(_) => format!("no answer within {}s", wait.as_secs_f64()),
            Ok(Err(StreamableHttpError::UnexpectedServerResponse(msg)))
                if msg.starts_with("HTTP 4") && !msg.starts_with("HTTP 401") && !msg.starts_with("HTTP 403") =>
            {
                format!("the server answered {}", msg.split(':').next().unwrap_or("HTTP 4xx"))
            }
            Ok(other) => return other,
        };
        let line = self.tap.give_up_discover(&why).unwrap_or_default();
        match serde_json::from_str::<ServerJsonRpcMessage>(&line) {
            Ok(msg) => Ok(StreamableHttpPostResponse::Json(msg, None)),
            Err(e) => Err(StreamableHttpError::Deserialize(e)),
        }
    }
}

/// An exchange under way. Dropped unanswered (the session ended while the request waited, as
/// an event stream's GET may), it is still logged, so that the HTTP view misses no request.
struct Unanswered<'a> {
    log: &'a SessionLog,
    method: &'a reqwest::Method,
    url: &'a str,
    what: &'a str,
    sent: http::HeaderMap,
    started: std::time::Instant,
    done: bool,
}

impl Drop for Unanswered<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        super::http_view::Exchange {
            method: self.method.as_str(),
            url: self.url,
            what: self.what,
            sent: &self.sent,
            answer: Err("the session ended first".into()),
            elapsed: self.started.elapsed(),
        }
        .log(self.log);
    }
}

impl StreamableHttpClient for TappedHttpClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<StreamableHttpPostResponse> {
        let discover = matches!(&message, ClientJsonRpcMessage::Request(r)
            if matches!(r.request, rmcp::model::ClientRequest::DiscoverRequest(_)));
        let attempt = self.post_plain(uri, message, session_id, auth_header, custom_headers);
        match self.tap.discover_bound().filter(|_| discover) {
            Some(wait) => self.post_discover(attempt, wait).await,
            None => attempt.await,
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<()> {
        let req = Outgoing {
            method: reqwest::Method::DELETE,
            uri: &uri,
            session_id: Some(&session_id),
            auth: self.bearer(auth_header).await,
            custom: custom_headers,
            body: None,
            extra: vec![],
            what: "end of session".into(),
        };
        // Servers may not support DELETE; a session left to expire is harmless.
        let _ = self.send(req).await;
        Ok(())
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<BoxStream<'static, Result<Sse, SseError>>> {
        let req = Outgoing {
            method: reqwest::Method::GET,
            uri: &uri,
            session_id: session_id.as_deref(),
            auth: self.bearer(auth_header).await,
            custom: custom_headers,
            body: None,
            what: if last_event_id.is_some() { "event stream, resumed" } else { "event stream" }.into(),
            extra: last_event_id.map(|id| (LAST_EVENT_ID, id)).into_iter().collect(),
        };
        let resp = self.send(req).await.map_err(unreachable)?;
        if resp.status() == reqwest::StatusCode::METHOD_NOT_ALLOWED {
            return Err(StreamableHttpError::ServerDoesNotSupportSse);
        }
        if !resp.status().is_success() {
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!(
                "HTTP {} on the event stream",
                resp.status()
            ))));
        }
        let ctype = content_type(&resp);
        if !ctype.starts_with(EVENT_STREAM) {
            return Err(StreamableHttpError::UnexpectedContentType(Some(ctype)));
        }
        Ok(self.tapped_events(resp))
    }
}
