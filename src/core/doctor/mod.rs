//! `mcplens doctor`: the connection taken step by step (the process or the HTTP transport, the
//! protocol version each era negotiates, the login, the first listing), each step with what was
//! sent, what came back and a verdict, and for the first failing step what to do about it.
//!
//! The probes speak raw JSON-RPC themselves instead of going through the session, so that a
//! server that breaks a step is seen breaking it (a session would only report that it could not
//! connect); the last step is a real session's first listing.

mod handshake;
mod http;
mod listing;
mod login;
mod stdio;

use std::time::Duration;

use serde::Serialize;

use crate::mcp::{ConnectOptions, Target};

/// How a step went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    /// Works, but something is off (or one era only).
    Warn,
    Fail,
    /// Not run: an earlier step failed, or it needs a person (the browser step of a login).
    Skip,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Warn => "warn",
            Verdict::Fail => "FAIL",
            Verdict::Skip => "skip",
        }
    }
}

/// One step of the connection.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// A short stable id (`command`, `process`, `transport`, `legacy`, `modern`, `login.*`, `listing`).
    pub id: String,
    pub title: String,
    pub verdict: Verdict,
    /// What the verdict rests on, in a sentence.
    pub detail: String,
    /// What was sent (a request line, a method and URL).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sent: Vec<String>,
    /// What came back (a status, headers, a reply, the tail of stderr).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub received: Vec<String>,
    /// What to do about a failure or a warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Step {
    pub fn new(id: &str, title: &str, verdict: Verdict, detail: impl Into<String>) -> Step {
        Step {
            id: id.into(),
            title: title.into(),
            verdict,
            detail: detail.into(),
            sent: vec![],
            received: vec![],
            fix: None,
        }
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Step {
        self.fix = Some(fix.into());
        self
    }

    pub fn sent(mut self, line: impl Into<String>) -> Step {
        self.sent.push(line.into());
        self
    }

    pub fn received(mut self, line: impl Into<String>) -> Step {
        self.received.push(line.into());
        self
    }
}

/// Every step, in order.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub target: String,
    /// True when no step failed.
    pub ok: bool,
    /// The id of the first failing step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_failure: Option<String>,
    pub steps: Vec<Step>,
}

impl Report {
    fn new(target: &Target, mut steps: Vec<Step>) -> Report {
        // What a server sends back may hold a secret given with -e, -H or in the URL, whole or
        // cut short in an excerpt: none reaches the report.
        let redactor = crate::mcp::log::Redactor::new(target.secrets());
        for s in &mut steps {
            let texts = [&mut s.title, &mut s.detail].into_iter().chain(&mut s.sent).chain(&mut s.received);
            for t in texts.chain(s.fix.as_mut()) {
                *t = redactor.redact_cut(t).into_owned();
            }
        }
        let first_failure = steps.iter().find(|s| s.verdict == Verdict::Fail).map(|s| s.id.clone());
        Report { target: target.label(), ok: first_failure.is_none(), first_failure, steps }
    }

    /// The report as text lines (sanitized: every server string is shown inert).
    pub fn lines(&self) -> Vec<String> {
        let clean = |s: &str| crate::sanitize::line(s).into_owned();
        let mut out = vec![format!("doctor: {}", clean(&self.target))];
        for s in &self.steps {
            out.push(format!("[{}] {}: {}", s.verdict.label(), clean(&s.title), clean(&s.detail)));
            out.extend(s.sent.iter().map(|l| format!("    > {}", clean(l))));
            out.extend(s.received.iter().map(|l| format!("    < {}", clean(l))));
            if let Some(f) = &s.fix {
                out.push(format!("    fix: {}", clean(f)));
            }
        }
        out.push(match self.steps.iter().find(|s| s.verdict == Verdict::Fail) {
            Some(s) => format!("first failing step: {}", clean(&s.title)),
            None => "every step passed".to_string(),
        });
        out
    }
}

/// How long one probe waits for an answer: the session's timeout, at most 20 s (a doctor that
/// hangs a minute on a silent server is no help).
fn probe_wait(options: &ConnectOptions) -> Duration {
    options.timeout.min(Duration::from_secs(20))
}

/// Takes the connection to `target` step by step.
pub async fn run(target: &Target, options: ConnectOptions) -> Report {
    let mut steps = match target {
        Target::Stdio(t) => stdio::probe(t, &options).await,
        Target::Http(t) => http::probe(t, &options).await,
    };
    handshake::reconcile_eras(&mut steps);
    if steps.iter().any(|s| s.verdict == Verdict::Fail) {
        steps.push(Step::new("listing", "first listing (tools/list)", Verdict::Skip, "not tried: a step above failed"));
    } else if steps.iter().any(|s| s.id == "login.token" && s.verdict == Verdict::Skip) {
        steps.push(Step::new("listing", "first listing (tools/list)", Verdict::Skip, "not tried: it needs a login"));
    } else {
        steps.push(listing::probe(target, options).await);
    }
    Report::new(target, steps)
}

/// At most `n` characters of a server's text, on one line.
fn excerpt(text: &str, n: usize) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::sanitize::truncate(&one, n).into_owned()
}
