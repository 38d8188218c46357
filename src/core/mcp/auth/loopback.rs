//! The loopback redirect listener (RFC 8252 §7.3): a one-shot HTTP server on 127.0.0.1 that
//! waits for the browser to come back with `?code=...&state=...`.
//!
//! Anything may connect to it, so every request is read with a cap and a deadline, and only a
//! request carrying the expected `state` ends the wait.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub const CALLBACK_PATH: &str = "/callback";
/// Longest request read: a callback URL is well under this.
const MAX_REQUEST: usize = 16 << 10;
/// How long one connection may take to send its request line.
const PER_CONNECTION: Duration = Duration::from_secs(10);

pub struct Listener {
    listener: TcpListener,
    pub redirect_uri: String,
}

/// What came back to the redirect URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callback {
    pub code: Option<String>,
    pub state: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl Listener {
    /// Listens on `port` (0: any free port) of 127.0.0.1.
    pub async fn bind(port: u16) -> Result<Listener, String> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port} for the login redirect: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        Ok(Listener { listener, redirect_uri: format!("http://127.0.0.1:{port}{CALLBACK_PATH}") })
    }

    /// Waits for the callback whose `state` is `state` (others are answered and ignored).
    pub async fn wait(&self, state: &str) -> Callback {
        loop {
            let Ok((stream, _)) = self.listener.accept().await else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            if let Some(cb) = serve_one(stream, state).await {
                return cb;
            }
        }
    }
}

async fn serve_one(mut stream: TcpStream, state: &str) -> Option<Callback> {
    let target = tokio::time::timeout(PER_CONNECTION, read_target(&mut stream)).await.ok().flatten();
    let callback = target.as_deref().and_then(parse_target);
    let ours = callback.as_ref().is_some_and(|c| c.state.as_deref() == Some(state));
    let (status, body) = match &callback {
        Some(c) if ours && c.error.is_none() => ("200 OK", "mcplens: logged in. You can close this window."),
        Some(_) if ours => ("200 OK", "mcplens: the login was refused; see the terminal."),
        Some(_) => ("400 Bad Request", "mcplens: this is not the login mcplens is waiting for."),
        None => ("404 Not Found", "mcplens: nothing here."),
    };
    let page = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(PER_CONNECTION, stream.write_all(page.as_bytes())).await;
    let _ = stream.shutdown().await;
    callback.filter(|_| ours)
}

/// The request target of a `GET` request line.
async fn read_target(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    while !buf.windows(2).any(|w| w == b"\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || buf.len() + n > MAX_REQUEST {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let line = String::from_utf8_lossy(&buf);
    let line = line.lines().next()?;
    let mut parts = line.split(' ');
    (parts.next()? == "GET").then_some(())?;
    parts.next().map(str::to_string)
}

fn parse_target(target: &str) -> Option<Callback> {
    let url = url::Url::parse(&format!("http://127.0.0.1{target}")).ok()?;
    if url.path() != CALLBACK_PATH {
        return None;
    }
    let mut cb = Callback { code: None, state: None, iss: None, error: None, error_description: None };
    for (k, v) in url.query_pairs() {
        let slot = match k.as_ref() {
            "code" => &mut cb.code,
            "state" => &mut cb.state,
            "iss" => &mut cb.iss,
            "error" => &mut cb.error,
            "error_description" => &mut cb.error_description,
            _ => continue,
        };
        slot.get_or_insert_with(|| v.into_owned());
    }
    Some(cb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_callback_query() {
        let cb = parse_target("/callback?code=abc&state=s%201&iss=http%3A%2F%2Fas").unwrap_or_else(|| panic!("none"));
        assert_eq!(cb.code.as_deref(), Some("abc"));
        assert_eq!(cb.state.as_deref(), Some("s 1"));
        assert_eq!(cb.iss.as_deref(), Some("http://as"));
        assert!(parse_target("/favicon.ico").is_none());
        assert!(parse_target("not a path").is_none());
    }

    #[tokio::test]
    async fn only_the_right_state_ends_the_wait() {
        let l = Listener::bind(0).await.unwrap_or_else(|e| panic!("{e}"));
        let base = l.redirect_uri.clone();
        let client = tokio::spawn(async move {
            let http = reqwest::Client::new();
            for q in ["?code=x&state=wrong", "?code=y&state=right"] {
                let _ = http.get(format!("{base}{q}")).send().await;
            }
        });
        let cb = tokio::time::timeout(Duration::from_secs(10), l.wait("right")).await;
        assert_eq!(cb.ok().and_then(|c| c.code).as_deref(), Some("y"));
        let _ = client.await;
    }
}
