//! The HTTP exchanges of a login (metadata, registration, token requests): bounded, timed,
//! never following redirects, each logged in the session log with its secrets redacted.

use std::time::Duration;

use serde_json::Value;

use crate::mcp::log::{LogKind, SessionLog};

/// Largest body read from an authorization server: metadata and tokens are a few KiB.
const MAX_BODY: usize = 1 << 20;

/// An answer: its status and its body, read as JSON when it is JSON.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub json: Option<Value>,
    pub text: String,
    /// The `DPoP-Nonce` header, when the server sent one.
    pub dpop_nonce: Option<String>,
}

impl Answer {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The OAuth `error` code of an error answer.
    pub fn error(&self) -> Option<&str> {
        self.json.as_ref().and_then(|j| j.get("error")).and_then(Value::as_str)
    }

    /// `error: error_description` of an OAuth error answer, else the status and a body excerpt.
    pub fn describe(&self) -> String {
        let field = |k: &str| self.json.as_ref().and_then(|j| j.get(k)).and_then(Value::as_str);
        match (field("error"), field("error_description")) {
            (Some(e), Some(d)) => format!("HTTP {}: {e}: {d}", self.status),
            (Some(e), None) => format!("HTTP {}: {e}", self.status),
            _ => format!("HTTP {}: {}", self.status, excerpt(&self.text)),
        }
    }
}

fn excerpt(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::sanitize::line(&crate::sanitize::truncate(&one_line, 200)).into_owned()
}

#[derive(Clone)]
pub struct Fetcher {
    http: reqwest::Client,
    log: SessionLog,
    timeout: Duration,
}

impl Fetcher {
    pub fn new(log: SessionLog, timeout: Duration) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        Fetcher { http, log, timeout }
    }

    pub fn log(&self) -> &SessionLog {
        &self.log
    }

    pub async fn get(&self, url: &str) -> Result<Answer, String> {
        self.send(self.http.get(url).header(reqwest::header::ACCEPT, "application/json"), "GET", url).await
    }

    /// POSTs a form with `headers` (`Authorization: Basic` when the client authenticates so, a
    /// `DPoP` proof).
    pub async fn post_form(
        &self,
        url: &str,
        form: &[(&str, &str)],
        headers: &[(&str, String)],
    ) -> Result<Answer, String> {
        let mut req = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(form_body(form));
        for (k, v) in headers {
            req = req.header(*k, v);
        }
        self.send(req, "POST", url).await
    }

    pub async fn post_json(&self, url: &str, json: &Value) -> Result<Answer, String> {
        let req = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(json.to_string());
        self.send(req, "POST", url).await
    }

    async fn send(&self, req: reqwest::RequestBuilder, method: &str, url: &str) -> Result<Answer, String> {
        let shown = crate::sanitize::line(url).into_owned();
        let request = req.build().map_err(|e| self.fail(&format!("{method} {shown}: {}", innermost(&e))))?;
        let sent = request.headers().clone();
        let started = std::time::Instant::now();
        let resp = match tokio::time::timeout(self.timeout, self.http.execute(request)).await {
            Err(_) => return Err(self.fail(&format!("{method} {shown}: no answer within {}s", self.timeout.as_secs()))),
            Ok(Err(e)) => return Err(self.fail(&format!("{method} {shown}: {}", innermost(&e)))),
            Ok(Ok(r)) => r,
        };
        let answer = Ok((resp.status(), resp.headers()));
        let elapsed = started.elapsed();
        crate::mcp::http_view::Exchange { method, url, what: "authorization", sent: &sent, answer, elapsed }
            .log(&self.log);
        let status = resp.status().as_u16();
        let dpop_nonce =
            resp.headers().get(super::dpop::NONCE_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
        let text = match tokio::time::timeout(self.timeout, read_capped(resp)).await {
            Ok(Ok(t)) => t,
            Ok(Err(e)) => return Err(self.fail(&format!("{method} {shown}: HTTP {status}: {e}"))),
            Err(_) => return Err(self.fail(&format!("{method} {shown}: the body did not arrive in time"))),
        };
        let json = crate::json_depth::parse::<Value>(&text, 64).ok();
        let answer = Answer { status, json, text, dpop_nonce };
        // The caller learns the secrets a token answer holds before this is logged: see
        // `learn_token_secrets`.
        self.log.push(LogKind::Info, &format!("auth: {method} {shown} → HTTP {status}"));
        Ok(answer)
    }

    /// Logs the body of an answer (after its secrets were learned by the redactor).
    pub fn log_body(&self, what: &str, answer: &Answer) {
        self.log.push(LogKind::Info, &format!("auth: {what}: {}", excerpt(&answer.text)));
    }

    fn fail(&self, msg: &str) -> String {
        self.log.push(LogKind::Warning, &format!("auth: {msg}"));
        msg.to_string()
    }
}

/// Built apart: the serializer is not `Send` and must not live across an await.
fn form_body(form: &[(&str, &str)]) -> String {
    let mut body = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in form {
        body.append_pair(k, v);
    }
    body.finish()
}

async fn read_capped(resp: reqwest::Response) -> Result<String, String> {
    use futures::StreamExt;
    let mut body = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| innermost(&e))?;
        if body.len() + chunk.len() > MAX_BODY {
            return Err(format!("the body is over {MAX_BODY} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    format!("could not connect: {cause}")
}
