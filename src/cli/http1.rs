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

/// Why a request to one of mcplens's own HTTP servers listening at `local` is not served, if
/// it is not (the MCP transport's rule against DNS rebinding): on a loopback address a `Host` it
/// carries must name a loopback address with `local`'s port (a rebound name does not), and an
/// `Origin` it carries (a browser's page) must be a loopback one, whatever the address.
pub fn foreign(req: &Request, local: std::net::SocketAddr) -> Option<&'static str> {
    let header = |name: &str| req.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
    // A request without Host is no browser's (they always send one): a script's, let through.
    if local.ip().is_loopback()
        && let Some(host) = header("host")
    {
        let (name, port) = host.rsplit_once(':').unwrap_or((host, ""));
        if !is_loopback_name(name) || port != local.port().to_string() {
            return Some("the Host header names no loopback address of this server's");
        }
    }
    if let Some(origin) = header("origin") {
        let rest = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")).unwrap_or("");
        let name = match rest.rsplit_once(':') {
            Some((n, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => rest,
        };
        if !is_loopback_name(name) {
            return Some("requests from a web page of another origin are refused");
        }
    }
    None
}

fn is_loopback_name(name: &str) -> bool {
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost") || bare.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(headers: &[(&str, &str)]) -> Request {
        let headers = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Request { method: "POST".into(), target: "/mcp".into(), headers, body: vec![] }
    }

    #[test]
    fn only_loopback_hosts_and_origins_are_served() {
        let local: std::net::SocketAddr = ([127, 0, 0, 1], 8931).into();
        for ok in [
            &[("Host", "127.0.0.1:8931")][..],
            &[("host", "localhost:8931"), ("Origin", "http://localhost:6274")],
            &[("Host", "[::1]:8931")],
            &[],
        ] {
            assert_eq!(foreign(&req(ok), local), None, "{ok:?}");
        }
        for bad in [
            &[("Host", "evil.example:8931")][..],
            &[("Host", "127.0.0.1:80")],
            &[("Host", "127.0.0.1:8931"), ("Origin", "https://evil.example")],
            &[("Host", "127.0.0.1:8931"), ("Origin", "null")],
        ] {
            assert!(foreign(&req(bad), local).is_some(), "{bad:?}");
        }
        let anywhere: std::net::SocketAddr = ([0, 0, 0, 0], 8931).into();
        assert_eq!(foreign(&req(&[("Host", "box.lan:8931")]), anywhere), None);
    }
}
