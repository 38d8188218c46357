//! The doctor's steps for a streamable HTTP server: the transport (status, content type,
//! redirects, TLS), each era's handshake, and the login when the server answers 401.

use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use url::Url;

use super::{Step, Verdict, excerpt, handshake, login, probe_wait};
use crate::mcp::era::{DISCOVER_WAIT, MODERN};
use crate::mcp::{ConnectOptions, HttpTarget};

/// Redirects followed (307 and 308 only: they keep the POST).
const MAX_HOPS: usize = 5;
/// Most of a reply read: a handshake's reply is a few KiB.
const MAX_BODY: usize = 4 << 20;

/// One HTTP answer, read far enough to hold the probe's reply.
pub struct Answer {
    pub url: String,
    pub status: u16,
    pub content_type: String,
    pub www_authenticate: Option<String>,
    pub session_id: Option<String>,
    pub body: String,
    pub reply: Option<Value>,
    /// Each redirect followed: "307 → URL".
    pub hops: Vec<String>,
    /// A redirect not followed (301, 302, 303): its status and where it pointed.
    pub refused_hop: Option<(u16, String)>,
}

pub async fn probe(t: &HttpTarget, options: &ConnectOptions) -> Vec<Step> {
    const TITLE: &str = "HTTP transport";
    match Url::parse(&t.url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => {}
        Ok(u) => {
            return vec![
                Step::new("transport", TITLE, Verdict::Fail, format!("{:?} is not an http(s) URL", u.scheme()))
                    .fix("streamable HTTP servers are reached at an http:// or https:// URL, often ending in /mcp"),
            ];
        }
        Err(e) => {
            return vec![
                Step::new("transport", TITLE, Verdict::Fail, format!("the URL cannot be read: {e}"))
                    .fix("give the full URL, e.g. http://127.0.0.1:3000/mcp"),
            ];
        }
    }
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_else(|_| reqwest::Client::new());
    let wait = probe_wait(options);
    let init = handshake::initialize();
    let first = post(&client, t, &t.url, &init, &[], wait, options.max_depth).await;
    let mut steps = vec![transport_step(&first, &init, wait)];
    let Ok(answer) = first else { return steps };
    if answer.status == 401 {
        steps.extend(login::probe(t, &answer, options).await);
        return steps;
    }
    if steps[0].verdict == Verdict::Fail {
        return steps;
    }
    steps.push(legacy_step(&answer, &init));
    if let Some(id) = &answer.session_id {
        // The probe's session is not needed any more; a server that keeps sessions frees it.
        let _ = tokio::time::timeout(
            Duration::from_secs(2),
            client.delete(&answer.url).header("Mcp-Session-Id", id).headers(user_headers(t)).send(),
        )
        .await;
    }
    let disc = handshake::discover();
    let extra = [("MCP-Protocol-Version", MODERN), ("Mcp-Method", "server/discover")];
    let second = post(&client, t, &answer.url, &disc, &extra, wait.min(DISCOVER_WAIT), options.max_depth).await;
    let reply = second.as_ref().ok().and_then(|a| a.reply.clone());
    let mut modern = handshake::judge_modern(reply.as_ref()).sent(format!("POST {} {disc}", answer.url));
    if reply.is_none()
        && let Ok(a) = &second
    {
        modern.detail = format!("HTTP {} ({}) and no JSON-RPC reply to server/discover", a.status, a.content_type);
        modern.received.push(excerpt(&a.body, 300));
    }
    steps.push(modern);
    steps
}

fn legacy_step(answer: &Answer, init: &str) -> Step {
    match &answer.reply {
        Some(reply) => handshake::judge_legacy(reply).sent(format!("POST {} {init}", answer.url)),
        None => Step::new(
            "legacy",
            "legacy era (initialize)",
            Verdict::Fail,
            "the answer holds no JSON-RPC reply to initialize",
        )
        .received(excerpt(&answer.body, 300))
        .fix("answer the POST with the JSON-RPC response, as application/json or as an event of a text/event-stream"),
    }
}

fn user_headers(t: &HttpTarget) -> reqwest::header::HeaderMap {
    let mut map = reqwest::header::HeaderMap::new();
    for (k, v) in &t.headers {
        if let (Ok(k), Ok(v)) =
            (reqwest::header::HeaderName::from_bytes(k.as_bytes()), reqwest::header::HeaderValue::from_str(v))
        {
            map.append(k, v);
        }
    }
    map
}

/// POSTs `body`, following 307/308 redirects, and reads the answer until the probe's reply.
async fn post(
    client: &reqwest::Client,
    t: &HttpTarget,
    url: &str,
    body: &str,
    extra: &[(&str, &str)],
    wait: Duration,
    max_depth: usize,
) -> Result<Answer, String> {
    let mut url = url.to_string();
    let mut hops = vec![];
    let go = async {
        for _ in 0..=MAX_HOPS {
            let mut req = client
                .post(&url)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .headers(user_headers(t))
                .body(body.to_string());
            for (k, v) in extra {
                req = req.header(*k, *v);
            }
            let resp = req.send().await.map_err(|e| innermost(&e))?;
            let status = resp.status().as_u16();
            let location = resp.headers().get("location").and_then(|v| v.to_str().ok()).map(str::to_string);
            if let (300..=399, Some(loc)) = (status, &location) {
                let next =
                    Url::parse(&url).and_then(|u| u.join(loc)).map_err(|e| format!("redirect to {loc:?}: {e}"))?;
                if !matches!(status, 307 | 308) {
                    let mut a = read(resp, &url, max_depth).await;
                    a.refused_hop = Some((status, next.to_string()));
                    return Ok(a);
                }
                hops.push(format!("{status} → {next}"));
                url = next.to_string();
                continue;
            }
            return Ok(read(resp, &url, max_depth).await);
        }
        Err(format!("more than {MAX_HOPS} redirects"))
    };
    let mut answer = match tokio::time::timeout(wait, go).await {
        Ok(r) => r?,
        Err(_) => return Err(format!("no answer within {:?}", wait)),
    };
    answer.hops = hops;
    Ok(answer)
}

/// Reads an answer's body up to the probe's reply (an event stream may stay open after it).
async fn read(resp: reqwest::Response, url: &str, max_depth: usize) -> Answer {
    let header = |k: &str| resp.headers().get(k).and_then(|v| v.to_str().ok()).map(str::to_string);
    let mut a = Answer {
        url: url.to_string(),
        status: resp.status().as_u16(),
        content_type: header("content-type").unwrap_or_default(),
        www_authenticate: header("www-authenticate"),
        session_id: header("mcp-session-id"),
        body: String::new(),
        reply: None,
        hops: vec![],
        refused_hop: None,
    };
    let sse = a.content_type.starts_with("text/event-stream");
    let mut bytes = Vec::new();
    let mut events = Events::default();
    let mut stream = resp.bytes_stream();
    while let Some(Ok(chunk)) = stream.next().await {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_BODY {
            break;
        }
        if sse && let Some(r) = events.reply(&bytes, max_depth) {
            a.reply = Some(r);
            break;
        }
    }
    if sse && a.reply.is_none() {
        // The last event, ended by the end of the body rather than a blank line.
        a.reply = sse_reply(&String::from_utf8_lossy(&bytes[events.from..]), max_depth);
    }
    a.body = String::from_utf8_lossy(&bytes).into_owned();
    if a.reply.is_none() && a.content_type.starts_with("application/json") {
        a.reply = crate::json_depth::parse::<Value>(a.body.trim(), max_depth).ok().filter(handshake::is_reply);
    }
    a
}

/// Where reading an event stream has got to: each byte is looked at once for the blank line
/// that ends an event, and each event parsed once (a stream of many events, or one endless
/// event, costs time in its length, not its square).
#[derive(Default)]
struct Events {
    /// Where the event not yet ended starts.
    from: usize,
    /// Where the search for its end resumes.
    searched: usize,
}

impl Events {
    /// The probe's reply among the events ended since the last call.
    fn reply(&mut self, bytes: &[u8], max_depth: usize) -> Option<Value> {
        loop {
            let start = self.searched.max(self.from);
            let Some((at, len)) = event_end(&bytes[start..]) else {
                // A terminator may straddle the next chunk: look again from 3 bytes back.
                self.searched = bytes.len().saturating_sub(3).max(self.from);
                return None;
            };
            let event = String::from_utf8_lossy(&bytes[self.from..start + at]).into_owned();
            self.from = start + at + len;
            self.searched = self.from;
            if let Some(reply) = sse_reply(&event, max_depth) {
                return Some(reply);
            }
        }
    }
}

/// The first blank line in `bytes` (`\n\n`, `\r\n\r\n` or `\r\r`): where, and how long.
fn event_end(bytes: &[u8]) -> Option<(usize, usize)> {
    (0..bytes.len()).find_map(|i| {
        let rest = &bytes[i..];
        [&b"\r\n\r\n"[..], b"\n\n", b"\r\r"].iter().find(|t| rest.starts_with(t)).map(|t| (i, t.len()))
    })
}

/// The probe's reply among the events of an event stream.
pub fn sse_reply(text: &str, max_depth: usize) -> Option<Value> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.split("\n\n").find_map(|event| {
        let data: Vec<&str> =
            event.lines().filter_map(|l| l.strip_prefix("data:")).map(|d| d.strip_prefix(' ').unwrap_or(d)).collect();
        let msg = crate::json_depth::parse::<Value>(&data.join("\n"), max_depth).ok()?;
        handshake::is_reply(&msg).then_some(msg)
    })
}

fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

fn transport_step(answer: &Result<Answer, String>, init: &str, wait: Duration) -> Step {
    const TITLE: &str = "HTTP transport";
    let a = match answer {
        Ok(a) => a,
        Err(e) => return unreachable_step(e, wait).sent(format!("POST {init}")),
    };
    let mut step = judge_answer(a);
    step.sent.push(format!("POST {} {init}", a.url));
    step.received.extend(a.hops.iter().map(|h| format!("redirect {h}")));
    step.received.push(format!("HTTP {} content-type {:?}", a.status, a.content_type));
    if step.verdict != Verdict::Pass && !a.body.is_empty() {
        step.received.push(excerpt(&a.body, 300));
    }
    step.title = TITLE.into();
    step
}

fn unreachable_step(e: &str, wait: Duration) -> Step {
    let lower = e.to_ascii_lowercase();
    let fix = if lower.contains("certificate") || lower.contains("tls") || lower.contains("ssl") {
        "the TLS handshake failed: check the server's certificate (expired, self-signed, wrong host name) or use http:// for a local server"
    } else if lower.contains("refused") {
        "nothing listens at that address and port: start the server, or check the port"
    } else if lower.contains("dns") || lower.contains("lookup") || lower.contains("resolve") {
        "the host name cannot be resolved: check its spelling"
    } else if lower.starts_with("no answer") {
        return Step::new("transport", "HTTP transport", Verdict::Fail, format!("no answer within {:?}", wait)).fix(
            "the server took the connection but did not answer the POST: check that it handles POST on this path",
        );
    } else {
        "check that the URL is right and the server is reachable from here"
    };
    Step::new("transport", "HTTP transport", Verdict::Fail, format!("could not connect: {e}")).fix(fix)
}

/// The verdict on the status and content type of the answer to the first POST.
fn judge_answer(a: &Answer) -> Step {
    let fail = |d: String, fix: &str| Step::new("transport", "", Verdict::Fail, d).fix(fix);
    let ct = a.content_type.to_ascii_lowercase();
    if let Some((status, to)) = &a.refused_hop {
        return fail(
            format!("HTTP {status} redirect to {to}: clients turn the POST into a GET on a {status}"),
            &format!("give the final URL (--url {to}), or redirect with 307/308, which keep the POST"),
        );
    }
    match a.status {
        401 => Step::new("transport", "", Verdict::Pass, "HTTP 401: the server asks for a login (see the login steps)"),
        404 | 405 => fail(
            format!("HTTP {}: no MCP endpoint at this path", a.status),
            "check the path: streamable HTTP servers usually serve /mcp (SSE-only servers of 2024-11-05 serve /sse, which mcplens does not speak)",
        ),
        403 => fail(
            "HTTP 403: the server refuses this client".into(),
            "check the headers (-H) and the Origin the server allows",
        ),
        406 => fail(
            "HTTP 406: the server refused the Accept header".into(),
            "accept `application/json, text/event-stream` on POST, as the transport requires",
        ),
        400..=499 => fail(
            format!("HTTP {}: the server refused the initialize POST", a.status),
            "read the answer's body (shown above)",
        ),
        500..=599 => fail(
            format!("HTTP {}: the server failed on initialize", a.status),
            "read the server's logs and the body shown above",
        ),
        _ if ct.starts_with("text/html") => fail(
            format!("HTTP {}: an HTML page answered, not an MCP endpoint", a.status),
            "this URL serves a web page: find the MCP endpoint's path (often /mcp)",
        ),
        200..=299 if ct.starts_with("application/json") || ct.starts_with("text/event-stream") => {
            let mut s = Step::new("transport", "", Verdict::Pass, format!("HTTP {} {}", a.status, a.content_type));
            if let Some(id) = &a.session_id {
                s.detail.push_str(&format!("; session {}", excerpt(id, 40)));
            }
            s
        }
        200..=299 if a.body.trim().is_empty() => fail(
            format!("HTTP {} with an empty body: no reply to initialize", a.status),
            "answer a request's POST with its response (application/json or text/event-stream)",
        ),
        _ => fail(
            format!("HTTP {} with content type {:?}", a.status, a.content_type),
            "answer with Content-Type application/json or text/event-stream",
        ),
    }
}
