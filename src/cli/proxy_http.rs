//! `mcplens proxy --url URL`: streamable HTTP served to the host on a loopback port and each
//! request forwarded to the upstream server, headers (OAuth's `Authorization`, the session id)
//! passed through untouched both ways. Responses are streamed back as they come: a JSON body
//! whole, an event stream event by event. Every message is noted as the stdio proxy notes lines,
//! and breakpoints hold them alike.

use std::sync::Arc;

use futures::StreamExt;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

use super::err_line;
use super::http1::{Request, read_request};
use super::record::Recorder;
use crate::error::{LensError, Result};
use crate::mcp::HttpTarget;
use crate::mcp::log::LogKind;
use crate::proxy::Verdict;
use crate::sanitize;

const MAX_BODY: usize = 64 << 20;
/// Host connections served at once (a host holds a few: an event stream, a POST or two); one
/// past it is told 503 and closed.
const MAX_CONNECTIONS: usize = 256;
/// Headers that belong to one hop, not to the request or response.
const HOP: &[&str] = &[
    "host",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "te",
    "upgrade",
    "accept-encoding",
    "proxy-connection",
];

struct Upstream {
    client: reqwest::Client,
    /// The server's URL: the host's path and query replace its own (its userinfo is kept; its
    /// query too when the host sends none).
    base: reqwest::Url,
    /// Where the proxy listens (requests must be addressed to it).
    local: std::net::SocketAddr,
    /// Headers given with -H, added when the host did not send them.
    extra: Vec<(String, String)>,
    rec: Arc<Recorder>,
}

/// Where the proxy listens, bound, and the server's URL.
pub(crate) struct Bound {
    listener: TcpListener,
    url: reqwest::Url,
}

/// Binds the host's side: a bad `--url` or an address that cannot be listened on is said before
/// anything else is.
pub(crate) async fn bind(server: &HttpTarget, listen: &str) -> Result<Bound> {
    let url = reqwest::Url::parse(&server.url).map_err(|e| LensError::usage(format!("--url: {e}")))?;
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| LensError::usage(format!("--listen {}: {e}", sanitize::line(listen))))?;
    Ok(Bound { listener, url })
}

/// Serves until the proxy is stopped.
pub(crate) async fn serve(bound: Bound, server: &HttpTarget, rec: Arc<Recorder>) -> Result<i32> {
    let Bound { listener, url } = bound;
    let local = listener.local_addr().map_err(|e| LensError::connection(e.to_string()))?;
    err_line(&format!(
        "mcplens proxy: serving {} at http://{local}{}",
        sanitize::line(&crate::mcp::url_secrets::shown(&server.url)),
        sanitize::line(url.path())
    ));
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| LensError::connection(e.to_string()))?;
    let up = Arc::new(Upstream { client, base: url, local, extra: server.headers.clone(), rec });
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((mut conn, _)) = accepted else { continue };
                let Ok(slot) = slots.clone().try_acquire_owned() else {
                    tokio::spawn(async move { respond(&mut conn, "503 Service Unavailable", "text/plain", b"too many connections").await });
                    continue;
                };
                let up = up.clone();
                tokio::spawn(async move {
                    connection(conn, up).await;
                    drop(slot);
                });
            }
            code = super::record::stop_requested() => return Ok(code),
        }
    }
}

impl Upstream {
    /// The server's URL for the host's request target (a path, with or without a query).
    fn url_for(&self, target: &str) -> reqwest::Url {
        let mut url = self.base.clone();
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (target, self.base.query()),
        };
        let query = query.map(str::to_string);
        url.set_path(path);
        url.set_query(query.as_deref());
        url.set_fragment(None);
        url
    }
}

/// One host connection: requests one after the other until it closes.
async fn connection(mut conn: TcpStream, up: Arc<Upstream>) {
    let mut buf = Vec::new();
    while let Some(req) = read_request(&mut conn, &mut buf, None).await {
        if forward(&mut conn, &up, req).await.is_err() {
            return;
        }
    }
}

async fn forward(conn: &mut TcpStream, up: &Upstream, mut req: Request) -> std::io::Result<()> {
    // Only a path goes to the server's origin (not a proxy's absolute URL to somewhere else).
    if !req.target.starts_with('/') {
        return respond(conn, "400 Bad Request", "text/plain", b"expected a path").await;
    }
    // A web page (DNS rebinding, a form posted cross-origin) must not reach the server with the
    // host's -H credentials added.
    if let Some(why) = super::http1::foreign(&req, up.local) {
        return respond(conn, "403 Forbidden", "text/plain", why.as_bytes()).await;
    }
    if !req.body.is_empty() {
        let verdict = check(up, true, &req.body).await;
        up.rec.note_held(LogKind::Sent, &req.body, &verdict);
        match verdict {
            Verdict::Pass => {}
            Verdict::Replace(edited) => req.body = edited.into_bytes(),
            // Never sent: the host's request gets no answer, as if lost on the way.
            Verdict::Drop => return Err(std::io::Error::other("dropped")),
            Verdict::Answer(answer) => return respond(conn, "200 OK", "application/json", answer.as_bytes()).await,
            // A notification the proxy took, accepted as the server accepts one.
            Verdict::Handled(_) => return respond(conn, "202 Accepted", "text/plain", b"").await,
        }
    }
    let back = Back::of(&req);
    let method = reqwest::Method::from_bytes(req.method.as_bytes()).unwrap_or(reqwest::Method::GET);
    let mut call = up.client.request(method, up.url_for(&req.target));
    for (name, value) in &req.headers {
        if !HOP.contains(&name.to_ascii_lowercase().as_str()) {
            call = call.header(name, value);
        }
    }
    for (name, value) in &up.extra {
        if !req.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            call = call.header(name, value);
        }
    }
    let response = match call.body(req.body).send().await {
        Ok(r) => r,
        Err(e) => {
            let why = format!("mcplens proxy: the server could not be reached: {e}");
            return respond(conn, "502 Bad Gateway", "text/plain", why.as_bytes()).await;
        }
    };
    relay(conn, up, &back, response).await
}

/// Where an answer to a server's request goes when the watcher answers it in the host's place:
/// the endpoint the host's request went to, with the host's session headers (session id,
/// protocol version, authorization), as the host itself would post its reply.
struct Back {
    target: String,
    headers: Vec<(String, String)>,
}

impl Back {
    fn of(req: &Request) -> Back {
        const NOT_CARRIED: &[&str] = &["content-type", "accept", "last-event-id"];
        let headers = req
            .headers
            .iter()
            .filter(|(n, _)| {
                let n = n.to_ascii_lowercase();
                !HOP.contains(&n.as_str()) && !NOT_CARRIED.contains(&n.as_str())
            })
            .cloned()
            .collect();
        Back { target: req.target.clone(), headers }
    }

    /// Posts `answer` to the server (noted with the request it answers); a failure goes to the
    /// record.
    async fn post(&self, up: &Upstream, answer: String) {
        let mut call = up
            .client
            .post(up.url_for(&self.target))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        for (name, value) in self.headers.iter().chain(up.extra.iter()) {
            call = call.header(name, value);
        }
        match call.body(answer).send().await {
            Ok(r) if r.status().is_success() => {}
            Ok(r) => up.rec.info(&format!("the server refused the watcher's answer: HTTP {}", r.status().as_u16())),
            Err(e) => up.rec.info(&format!("the watcher's answer could not reach the server: {e}")),
        }
    }
}

/// The upstream response, head first, then its body as it comes (chunked to the host).
async fn relay(conn: &mut TcpStream, up: &Upstream, back: &Back, response: reqwest::Response) -> std::io::Result<()> {
    let status = response.status();
    let mut head = format!("HTTP/1.1 {} {}\r\n", status.as_u16(), status.canonical_reason().unwrap_or(""));
    for (name, value) in response.headers() {
        if !HOP.contains(&name.as_str()) {
            head.push_str(&format!("{name}: {}\r\n", String::from_utf8_lossy(value.as_bytes())));
        }
    }
    let kind = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
    let no_body = status.as_u16() == 204 || status.as_u16() == 304;
    head.push_str(if no_body { "\r\n" } else { "transfer-encoding: chunked\r\n\r\n" });
    conn.write_all(head.as_bytes()).await?;
    if no_body {
        return conn.flush().await;
    }
    let mut body = response.bytes_stream();
    let mut framer = Framer::new(&kind);
    while let Some(chunk) = body.next().await {
        let Ok(chunk) = chunk else { break };
        framer.buf.extend_from_slice(&chunk);
        while let Some(piece) = framer.next_piece(false) {
            send_piece(conn, up, back, &framer, piece).await?;
        }
    }
    while let Some(piece) = framer.next_piece(true) {
        send_piece(conn, up, back, &framer, piece).await?;
    }
    conn.write_all(b"0\r\n\r\n").await?;
    conn.flush().await
}

/// A piece of a response body: a whole SSE event, a whole JSON body, or bytes passed untapped.
enum Piece {
    Message(Vec<u8>),
    Raw(Vec<u8>),
}

/// Cuts a response body into what is checked and noted (an event, a JSON body) and what passes.
struct Framer {
    sse: bool,
    json: bool,
    buf: Vec<u8>,
    /// How much of `buf` was searched for an event's end already: each byte is looked at once
    /// (a long event, searched again from its start at every chunk, took time in its square).
    searched: usize,
}

impl Framer {
    fn new(kind: &str) -> Self {
        Framer {
            sse: kind.starts_with("text/event-stream"),
            json: kind.starts_with("application/json"),
            buf: Vec::new(),
            searched: 0,
        }
    }

    fn next_piece(&mut self, at_end: bool) -> Option<Piece> {
        if self.buf.is_empty() {
            return None;
        }
        let whole = if self.sse {
            // A blank line (at most 4 bytes) may straddle the previous chunk's end.
            let from = self.searched.saturating_sub(3);
            self.searched = self.buf.len();
            event_end(&self.buf[from..]).map(|end| from + end)
        } else if self.json && at_end {
            Some(self.buf.len())
        } else {
            None
        };
        match whole {
            Some(end) => {
                self.searched = 0;
                Some(Piece::Message(self.buf.drain(..end).collect()))
            }
            // Too long to hold, not tapped, or cut short at the end: passed on as it is.
            None if at_end || self.buf.len() > MAX_BODY || !(self.sse || self.json) => {
                self.searched = 0;
                Some(Piece::Raw(std::mem::take(&mut self.buf)))
            }
            None => None,
        }
    }
}

/// Where the first event of an SSE stream ends (after its blank line).
fn event_end(buf: &[u8]) -> Option<usize> {
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|at| at + 2);
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|at| at + 4);
    match (lf, crlf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// An SSE event's data (its `data:` lines joined), None for a comment or an event without data.
fn event_data(event: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(event);
    let data: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| d.strip_prefix(' ').unwrap_or(d))
        .collect();
    let joined = data.join("\n");
    (!joined.trim().is_empty()).then_some(joined)
}

/// An event with its data replaced (its other fields, such as `id:`, kept).
fn with_data(event: &[u8], data: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(event);
    let mut out = String::new();
    for l in text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)) {
        if !l.is_empty() && !l.starts_with("data:") {
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str(&format!("data: {data}\n\n"));
    out.into_bytes()
}

async fn send_piece(
    conn: &mut TcpStream,
    up: &Upstream,
    back: &Back,
    framer: &Framer,
    piece: Piece,
) -> std::io::Result<()> {
    let bytes = match piece {
        Piece::Raw(b) => b,
        Piece::Message(b) => match to_host(up, back, framer, b).await {
            Some(b) => b,
            None => return Ok(()),
        },
    };
    if bytes.is_empty() {
        return Ok(());
    }
    conn.write_all(format!("{:x}\r\n", bytes.len()).as_bytes()).await?;
    conn.write_all(&bytes).await?;
    conn.write_all(b"\r\n").await?;
    conn.flush().await
}

/// A message of the server's, checked at the breakpoints and noted: what goes on to the host
/// (None: nothing does).
async fn to_host(up: &Upstream, back: &Back, framer: &Framer, piece: Vec<u8>) -> Option<Vec<u8>> {
    let data = if framer.sse { event_data(&piece) } else { Some(String::from_utf8_lossy(&piece).into_owned()) };
    let Some(data) = data else { return Some(piece) };
    let verdict = check(up, false, data.as_bytes()).await;
    up.rec.note_held(LogKind::Received, data.as_bytes(), &verdict);
    match verdict {
        Verdict::Pass => Some(piece),
        // The server's request answered in the host's place: it never reaches the host.
        Verdict::Answer(answer) => {
            back.post(up, answer).await;
            None
        }
        Verdict::Replace(edited) if framer.sse => Some(with_data(&piece, &edited)),
        Verdict::Replace(edited) => Some(edited.into_bytes()),
        Verdict::Drop | Verdict::Handled(_) => None,
    }
}

async fn check(up: &Upstream, to_server: bool, message: &[u8]) -> Verdict {
    match up.rec.hub() {
        Some(hub) => hub.check(to_server, message).await,
        None => Verdict::Pass,
    }
}

async fn respond(conn: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n", body.len());
    conn.write_all(head.as_bytes()).await?;
    conn.write_all(body).await?;
    conn.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_cut_at_their_blank_line_either_way() {
        assert_eq!(event_end(b"data: 1\n\ndata: 2"), Some(9));
        assert_eq!(event_end(b"data: 1\r\n\r\n"), Some(11));
        assert_eq!(event_end(b"data: 1\n"), None);
    }

    #[test]
    fn an_event_data_joins_its_lines_and_skips_comments() {
        assert_eq!(event_data(b"event: message\r\ndata: {\"a\":1}\r\n\r\n").as_deref(), Some("{\"a\":1}"));
        assert_eq!(event_data(b": ping\n\n"), None);
        assert_eq!(event_data(b"id: 1\ndata:\n\n"), None);
        assert_eq!(with_data(b"id: 7\ndata: x\n\n", "{}"), b"id: 7\ndata: {}\n\n".to_vec());
    }
}
