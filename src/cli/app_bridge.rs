//! The local web host of `mcplens app`: two loopback listeners (the host page, and the sandbox
//! proxy on another port, so on another origin as SEP-1865 requires), a random path segment
//! that a page elsewhere cannot guess (it could otherwise call tools through the session), a
//! `Host` check against DNS rebinding, and the view's own CSP on the sandbox page.

use std::time::Duration;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

use super::http1::{self, Request};
use super::{err_line, out};
use crate::apps::{self, UiMeta, csp, host_page};
use crate::error::{LensError, Result};
use crate::mcp::{CallOptions, ReplyBody, Session};
use crate::sanitize;

/// What the host page runs.
pub struct View {
    pub tool: Value,
    pub name: String,
    pub arguments: Value,
    pub html: String,
    pub meta: Option<UiMeta>,
    /// The tools the view may call (visibility includes "app").
    pub app_tools: Vec<String>,
}

struct Host {
    view: View,
    token: String,
    host_authority: String,
    sandbox_authority: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Host,
    Sandbox,
}

/// Serves until Ctrl-C (or the session ends); the URL goes to stdout.
pub async fn serve(session: &Session, view: View, port: Option<u16>, open_browser: bool) -> Result<i32> {
    let bind = |p: u16| async move {
        TcpListener::bind(("127.0.0.1", p))
            .await
            .map_err(|e| LensError::usage(format!("cannot listen on 127.0.0.1:{p}: {e}")))
    };
    let host_l = bind(port.unwrap_or(0)).await?;
    let sandbox_l = bind(0).await?;
    let authority = |l: &TcpListener| l.local_addr().map(|a| format!("127.0.0.1:{}", a.port())).unwrap_or_default();
    let token = crate::mcp::auth::grant::random_token(18).map_err(LensError::usage)?;
    let host = Host { view, token, host_authority: authority(&host_l), sandbox_authority: authority(&sandbox_l) };
    let url = format!("http://{}/{}/", host.host_authority, host.token);
    out(&format!("{url}\n"))?;
    err_line(&format!("serving the view of {} (Ctrl-C stops)", sanitize::line(&host.view.name)));
    if open_browser && let Err(e) = crate::opener::open_url(&url) {
        err_line(&format!("mcplens: {}", sanitize::line(&e)));
    }
    let mut conns = FuturesUnordered::new();
    loop {
        tokio::select! {
            Ok((s, _)) = host_l.accept() => conns.push(connection(s, Side::Host, &host, session)),
            Ok((s, _)) = sandbox_l.accept() => conns.push(connection(s, Side::Sandbox, &host, session)),
            Some(()) = conns.next(), if !conns.is_empty() => {}
            _ = tokio::signal::ctrl_c() => break,
        }
        if session.is_closed() {
            return Err(LensError::connection("the server closed the session"));
        }
    }
    Ok(0)
}

/// One keep-alive connection, its requests answered in turn.
async fn connection(mut conn: TcpStream, side: Side, host: &Host, session: &Session) {
    let mut buf = Vec::new();
    while let Some(req) = http1::read_request(&mut conn, &mut buf, Some(Duration::from_secs(60))).await {
        let (status, kind, extra, body) = route(&req, side, host, session).await;
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: origin\r\n{extra}\r\n",
            body.len()
        );
        if conn.write_all(head.as_bytes()).await.is_err() || conn.write_all(&body).await.is_err() || closes(&req) {
            return;
        }
    }
}

/// The client asked to close the connection after this answer.
fn closes(req: &Request) -> bool {
    req.headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("connection") && v.eq_ignore_ascii_case("close"))
}

type Response = (&'static str, &'static str, String, Vec<u8>);

fn not_found() -> Response {
    ("404 Not Found", "text/plain", String::new(), b"not found".to_vec())
}

async fn route(req: &Request, side: Side, host: &Host, session: &Session) -> Response {
    let authority = if side == Side::Host { &host.host_authority } else { &host.sandbox_authority };
    let host_header = req.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("host")).map(|(_, v)| v.as_str());
    if host_header != Some(authority.as_str()) {
        return ("421 Misdirected Request", "text/plain", String::new(), b"wrong Host".to_vec());
    }
    let path = req.target.split('?').next().unwrap_or("");
    let Some(rest) = path.strip_prefix('/').and_then(|p| p.strip_prefix(host.token.as_str())) else {
        return not_found();
    };
    let sandbox_origin = format!("http://{}", host.sandbox_authority);
    let host_origin = format!("http://{}", host.host_authority);
    match (side, req.method.as_str(), rest) {
        (Side::Host, "GET", "/") => {
            let policy = format!("Content-Security-Policy: {}\r\n", host_page::host_policy(&sandbox_origin));
            ("200 OK", "text/html; charset=utf-8", policy, host_page::HOST_HTML.as_bytes().to_vec())
        }
        (Side::Host, "GET", "/bootstrap") => {
            let b = bootstrap(host, &format!("{sandbox_origin}/{}/sandbox.html", host.token));
            ("200 OK", "application/json", String::new(), b.to_string().into_bytes())
        }
        (Side::Host, "POST", "/rpc") => {
            let answer = rpc(&req.body, host, session).await;
            ("200 OK", "application/json", String::new(), answer.into_bytes())
        }
        (Side::Host, "POST", "/event") => {
            event(&req.body);
            ("200 OK", "application/json", String::new(), b"{}".to_vec())
        }
        (Side::Sandbox, "GET", "/sandbox.html") => {
            let policy = csp::policy(host.view.meta.as_ref().and_then(|m| m.csp.as_ref()));
            let body = host_page::sandbox_html(&host_origin).into_bytes();
            ("200 OK", "text/html; charset=utf-8", format!("Content-Security-Policy: {policy}\r\n"), body)
        }
        _ => not_found(),
    }
}

/// What the host page needs: the view, the call, and what the view asked for.
fn bootstrap(host: &Host, sandbox_url: &str) -> Value {
    let v = &host.view;
    let meta = v.meta.clone().unwrap_or_default();
    let csp = meta.csp.as_ref().map(|c| {
        json!({
            "connectDomains": csp::usable(&c.connect),
            "resourceDomains": csp::usable(&c.resource),
            "frameDomains": csp::usable(&c.frame),
            "baseUriDomains": csp::usable(&c.base_uri),
        })
    });
    let permissions: serde_json::Map<String, Value> = apps::meta::PERMISSIONS
        .iter()
        .filter(|(n, _)| meta.permissions.iter().any(|p| p == n))
        .map(|(n, _)| (n.to_string(), json!({})))
        .collect();
    json!({
        "sandboxUrl": sandbox_url,
        "bridgeVersion": apps::BRIDGE_VERSION,
        "version": env!("CARGO_PKG_VERSION"),
        "tool": v.tool,
        "arguments": v.arguments,
        "html": v.html,
        "csp": csp,
        "permissions": permissions,
        "allow": meta.allow_attribute(),
        "prefersBorder": meta.prefers_border,
    })
}

/// A line of the bridge's traffic, as the host page saw it, on stderr.
fn event(body: &[u8]) {
    let Ok(v) = serde_json::from_slice::<Value>(body) else { return };
    let dir = v.get("dir").and_then(Value::as_str).unwrap_or("?");
    let what = v.get("what").and_then(Value::as_str).unwrap_or("");
    err_line(&format!("bridge {}: {}", sanitize::line(dir), sanitize::line_head(what, 300)));
}

/// A request of the host page (`from: "host"`, the user's call) or of the view (`from: "app"`)
/// passed to the session; the answer is `{"result": ...}` or `{"error": ...}` as the server
/// sent it.
async fn rpc(body: &[u8], host: &Host, session: &Session) -> String {
    let Ok(req) = serde_json::from_slice::<Value>(body) else { return error(-32700, "not JSON") };
    let from_app = req.get("from").and_then(Value::as_str) != Some("host");
    let method = req.get("method").and_then(Value::as_str).unwrap_or("");
    let params = req.get("params").cloned().unwrap_or(Value::Null);
    let opts = CallOptions::default();
    let reply = match method {
        "tools/call" => {
            let name = params.get("name").and_then(Value::as_str).unwrap_or("");
            if from_app && !host.view.app_tools.iter().any(|t| t == name) {
                let why = format!(
                    "tool {name:?} is not listed with \"app\" in its visibility: the host rejects the view's call (SEP-1865)"
                );
                err_line(&format!("bridge: {}", sanitize::line(&why)));
                return error(-32000, &why);
            }
            let args = params.get("arguments").and_then(Value::as_object).cloned();
            session.call_tool(name, args, &opts, &mut |_| {}).await
        }
        "resources/read" => session.request_method("resources/read", params, &opts, &mut |_| {}).await,
        _ => return error(-32601, &format!("the bridge does not pass {method} to the server")),
    };
    match reply {
        Ok(r) => {
            let member = super::raw_member(&r);
            let key = if matches!(r.body, ReplyBody::Error(_)) { "error" } else { "result" };
            format!("{{\"{key}\":{member}}}")
        }
        Err(e) => error(-32603, &e.message),
    }
}

fn error(code: i64, message: &str) -> String {
    json!({ "error": { "code": code, "message": message } }).to_string()
}
