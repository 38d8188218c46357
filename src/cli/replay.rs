//! `mcplens replay FILE`: a recording served as an MCP server, over stdio or streamable HTTP
//! (a small HTTP/1.1 server of its own: POST answers as JSON, or as an SSE stream when recorded
//! notifications come before the reply; a notification gets 202; GET has no stream, 405).

use std::path::Path;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use super::{err_line, output};
use crate::error::{LensError, Result};
use crate::replay::{self, Answer, Script};
use crate::sanitize;

/// The longest request head and body the HTTP side reads.
use super::http1::MAX_BODY;
/// Clients served at once: each may hold a body up to `MAX_BODY`, so the bound is on memory
/// too. One past it is told 503 and closed.
const MAX_CONNECTIONS: usize = 64;
/// How long a connection may send nothing, within a request or between two, before it is closed.
const IDLE: std::time::Duration = std::time::Duration::from_secs(60);

type Shared = Arc<Mutex<Script>>;

/// `mcplens replay FILE [--http ADDR]`
pub async fn replay(file: &Path, http: Option<&str>, max_depth: usize) -> Result<i32> {
    let recording = replay::read(file, max_depth).map_err(|e| LensError::usage(sanitize::line(&e).into_owned()))?;
    let script = Script::new(recording);
    if script.skipped > 0 {
        err_line(&format!(
            "mcplens replay: {} recorded message(s) cannot be replayed (cut short in the log, or not JSON)",
            script.skipped
        ));
    }
    let script = Arc::new(Mutex::new(script));
    match http {
        Some(addr) => serve_http(addr, script, max_depth).await,
        None => serve_stdio(script, max_depth).await,
    }
}

fn answer(script: &Shared, line: &str, max_depth: usize) -> Answer {
    script.lock().unwrap_or_else(|e| e.into_inner()).answer(line, max_depth)
}

async fn serve_stdio(script: Shared, max_depth: usize) -> Result<i32> {
    let mut input = BufReader::new(tokio::io::stdin());
    let mut stdout = tokio::io::stdout();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut input).take(MAX_BODY as u64).read_until(b'\n', &mut line).await.unwrap_or(0);
        if n == 0 {
            return Ok(0);
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let Answer::Lines { notes, reply } = answer(&script, text.trim(), max_depth) else { continue };
        let mut parts: Vec<&[u8]> = Vec::new();
        for l in notes.iter().chain(reply.iter()) {
            parts.extend(l.parts());
            parts.push(b"\n");
        }
        output::stdout_result(write_parts(&mut stdout, &parts).await)?;
    }
}

/// Writes `parts` one after the other (the recorded bytes are never copied into one buffer) and
/// flushes.
async fn write_parts<W: AsyncWrite + Unpin>(to: &mut W, parts: &[&[u8]]) -> std::io::Result<()> {
    for p in parts {
        to.write_all(p).await?;
    }
    to.flush().await
}

async fn serve_http(addr: &str, script: Shared, max_depth: usize) -> Result<i32> {
    let listener =
        TcpListener::bind(addr).await.map_err(|e| LensError::usage(format!("--http {}: {e}", sanitize::line(addr))))?;
    let local = listener.local_addr().map_err(|e| LensError::connection(e.to_string()))?;
    err_line(&format!("mcplens replay: serving at http://{local}/mcp"));
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((mut conn, _)) = accepted else { continue };
                match slots.clone().try_acquire_owned() {
                    Ok(slot) => {
                        let script = script.clone();
                        tokio::spawn(async move {
                            connection(conn, local, script, max_depth).await;
                            drop(slot);
                        });
                    }
                    Err(_) => {
                        tokio::spawn(async move {
                            let busy: &[u8] = b"too many clients at once";
                            respond(&mut conn, "503 Service Unavailable", "text/plain", &[busy]).await
                        });
                    }
                }
            }
            _ = tokio::signal::ctrl_c() => return Ok(0),
        }
    }
}

/// One client connection: requests one after the other (keep-alive) until it closes.
async fn connection(mut conn: TcpStream, local: std::net::SocketAddr, script: Shared, max_depth: usize) {
    let mut buf = Vec::new();
    while let Some(req) = super::http1::read_request(&mut conn, &mut buf, Some(IDLE)).await {
        let super::http1::Request { method, body, .. } = &req;
        let answered = match method.as_str() {
            // A web page's request (DNS rebinding, another origin) is not served.
            _ if let Some(why) = super::http1::foreign(&req, local) => {
                respond(&mut conn, "403 Forbidden", "text/plain", &[why.as_bytes()]).await
            }
            "POST" => match std::str::from_utf8(body) {
                Ok(text) => post(&mut conn, answer(&script, text.trim(), max_depth)).await,
                Err(_) => respond(&mut conn, "400 Bad Request", "text/plain", &[b"not UTF-8"]).await,
            },
            // A session's end: nothing to forget.
            "DELETE" => respond(&mut conn, "200 OK", "text/plain", &[]).await,
            _ => respond(&mut conn, "405 Method Not Allowed", "text/plain", &[b"a replay answers POST only"]).await,
        };
        if !answered {
            return;
        }
    }
}

/// Writes the answer to a POST; false when the connection is done.
async fn post(conn: &mut TcpStream, answer: Answer) -> bool {
    match answer {
        Answer::Silent => respond(conn, "202 Accepted", "text/plain", &[]).await,
        Answer::Lines { notes, reply: Some(reply) } if notes.is_empty() => {
            respond(conn, "200 OK", "application/json", &reply.parts()).await
        }
        Answer::Lines { notes, reply } => {
            let mut events: Vec<&[u8]> = Vec::new();
            for l in notes.iter().chain(reply.iter()) {
                events.push(b"event: message\ndata: ");
                events.extend(l.parts());
                events.push(b"\n\n");
            }
            if reply.is_some() {
                return respond(conn, "200 OK", "text/event-stream", &events).await;
            }
            // Recorded without a reply (a request held open): the stream stays open until the
            // client closes it.
            let head: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";
            if conn.write_all(head).await.is_ok() && write_parts(conn, &events).await.is_ok() {
                let mut sink = [0u8; 1024];
                while matches!(conn.read(&mut sink).await, Ok(n) if n > 0) {}
            }
            false
        }
    }
}

async fn respond(conn: &mut TcpStream, status: &str, kind: &str, body: &[&[u8]]) -> bool {
    let length: usize = body.iter().map(|p| p.len()).sum();
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {length}\r\n\r\n");
    conn.write_all(head.as_bytes()).await.is_ok() && write_parts(conn, body).await.is_ok()
}
