//! The HTTP side of each exchange, as one log entry: the request's method and URL, what it
//! carried (the JSON-RPC method, the SSE stream, the session's DELETE, an OAuth request), the
//! headers sent, the status, the response headers and the time to the response's head.
//!
//! Credentials never reach the log: the headers that carry them are masked by name, and every
//! other value goes through the log's redactor (the user's `--header` values, tokens learned).

use std::time::Duration;

use http::HeaderMap;

use super::log::{LogKind, MASK, Redactor, SessionLog};

/// The first line of every exchange's entry starts so (how the headless printer finds them).
pub const PREFIX: &str = "HTTP ";

/// Most characters of one header value shown (a huge cookie or link header).
const MAX_VALUE: usize = 300;

/// Headers whose values are credentials whatever they hold.
const SECRET_HEADERS: &[&str] = &["authorization", "proxy-authorization", "cookie", "set-cookie", "dpop"];

/// One exchange, for the log.
pub struct Exchange<'a> {
    pub method: &'a str,
    pub url: &'a str,
    /// What the request was for: a JSON-RPC method, "event stream", "end of session", ...
    pub what: &'a str,
    pub sent: &'a HeaderMap,
    /// The status line and response headers, or why there was no answer.
    pub answer: Result<(http::StatusCode, &'a HeaderMap), String>,
    pub elapsed: Duration,
}

impl Exchange<'_> {
    /// The entry's text: a summary line, then the headers each way.
    pub fn text(&self) -> String {
        self.text_redacted(&Redactor::default())
    }

    /// The entry's text with `redactor`'s secrets masked in each header value before a long one
    /// is cut (a cut secret would no longer be found whole).
    pub fn text_redacted(&self, redactor: &Redactor) -> String {
        let ms = self.elapsed.as_secs_f64() * 1000.0;
        let what = if self.what.is_empty() { String::new() } else { format!(" ({})", self.what) };
        let outcome = match &self.answer {
            Ok((status, _)) => format!("{status}"),
            Err(why) => format!("no answer: {why}"),
        };
        let mut s = format!("{PREFIX}{} {}{what} → {outcome} in {ms:.1} ms", self.method, self.url);
        s.push_str("\nrequest headers:");
        headers(&mut s, self.sent, redactor);
        if let Ok((_, received)) = &self.answer {
            s.push_str("\nresponse headers:");
            headers(&mut s, received, redactor);
        }
        s
    }

    /// Pushes the entry (redacted by the log). Always `info`: a failed exchange has its own
    /// warning where it is handled (the body of an HTTP error, a failed login), said once.
    pub fn log(&self, log: &SessionLog) {
        log.push(LogKind::Info, &self.text_redacted(log.redactor()));
    }
}

fn headers(out: &mut String, map: &HeaderMap, redactor: &Redactor) {
    if map.is_empty() {
        out.push_str(" (none)");
    }
    for (name, value) in map {
        let shown = if SECRET_HEADERS.contains(&name.as_str()) {
            std::borrow::Cow::Borrowed(MASK)
        } else {
            let v = String::from_utf8_lossy(value.as_bytes());
            let v = redactor.redact(&v);
            std::borrow::Cow::Owned(crate::sanitize::truncate(&v, MAX_VALUE).into_owned())
        };
        out.push_str(&format!("\n  {name}: {shown}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_masked_and_both_sides_are_shown() {
        let mut sent = HeaderMap::new();
        sent.insert("authorization", "Bearer abc.def".parse().unwrap());
        sent.insert("mcp-session-id", "s1".parse().unwrap());
        let mut got = HeaderMap::new();
        got.insert("set-cookie", "sid=123".parse().unwrap());
        got.insert("content-type", "application/json".parse().unwrap());
        let e = Exchange {
            method: "POST",
            url: "http://127.0.0.1:1/mcp",
            what: "tools/list",
            sent: &sent,
            answer: Ok((http::StatusCode::OK, &got)),
            elapsed: Duration::from_micros(12_340),
        };
        let text = e.text();
        assert!(text.starts_with("HTTP POST http://127.0.0.1:1/mcp (tools/list) → 200 OK in 12.3 ms\n"), "{text}");
        assert!(text.contains("\n  authorization: «redacted»"), "{text}");
        assert!(text.contains("\n  mcp-session-id: s1"), "{text}");
        assert!(text.contains("response headers:\n  set-cookie: «redacted»\n  content-type: application/json"));
        assert!(!text.contains("abc.def") && !text.contains("sid=123"));
        let failed = Exchange { answer: Err("connection refused".into()), ..e };
        assert!(failed.text().contains("→ no answer: connection refused"), "{}", failed.text());
        assert!(!failed.text().contains("response headers"));
    }
}
