//! The HTTP/1.1 requests that mcplens's own loopback servers read (`replay --http`, `proxy
//! --url`): a head of at most 64 KiB and a `Content-Length` body of at most 64 MiB; a chunked body
//! is refused with 411, a larger one with 413.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const MAX_HEAD: usize = 64 << 10;
pub const MAX_BODY: usize = 64 << 20;

pub struct Request {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Reads one request; `buf` keeps what was read past it. None when the connection ends, breaks
/// the rules, or (with `idle`) sends nothing for that long.
pub async fn read_request(conn: &mut TcpStream, buf: &mut Vec<u8>, idle: Option<Duration>) -> Option<Request> {
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if buf.len() > MAX_HEAD || !read_more(conn, buf, idle).await {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut first = head.lines().next().unwrap_or_default().split(' ');
    let (method, target) = (first.next()?.to_string(), first.next().unwrap_or_default().to_string());
    let mut headers = Vec::new();
    let mut length = 0usize;
    for line in head.lines().skip(1) {
        let Some((name, value)) = line.split_once(':') else { continue };
        let (name, value) = (name.trim().to_string(), value.trim().to_string());
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse().ok()?;
        } else if name.eq_ignore_ascii_case("transfer-encoding") && !value.eq_ignore_ascii_case("identity") {
            refuse(conn, "411 Length Required", b"send a Content-Length").await;
            return None;
        }
        headers.push((name, value));
    }
    if length > MAX_BODY {
        refuse(conn, "413 Content Too Large", b"").await;
        return None;
    }
    while buf.len() < head_end + length {
        if !read_more(conn, buf, idle).await {
            return None;
        }
    }
    let body = buf[head_end..head_end + length].to_vec();
    buf.drain(..head_end + length);
    Some(Request { method, target, headers, body })
}

async fn refuse(conn: &mut TcpStream, status: &str, body: &[u8]) {
    let head = format!("HTTP/1.1 {status}\r\ncontent-type: text/plain\r\ncontent-length: {}\r\n\r\n", body.len());
    let _ = conn.write_all(head.as_bytes()).await;
    let _ = conn.write_all(body).await;
    let _ = conn.flush().await;
}

/// Reads what comes next into `buf`; false when the connection ended, broke, or was idle too long.
async fn read_more(conn: &mut TcpStream, buf: &mut Vec<u8>, idle: Option<Duration>) -> bool {
    let mut chunk = [0u8; 16 << 10];
    let read = match idle {
        Some(limit) => tokio::time::timeout(limit, conn.read(&mut chunk)).await.unwrap_or(Ok(0)),
        None => conn.read(&mut chunk).await,
    };
    match read {
        Ok(n) if n > 0 => {
            buf.extend_from_slice(&chunk[..n]);
            true
        }
        _ => false,
    }
}
