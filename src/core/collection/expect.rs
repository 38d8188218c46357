//! What a call's answer was, and where it misses what was expected: a list of failures, each
//! with the path, what was expected and what came. Also the expectations an answer would meet
//! (`--update`, the TUI's save key).

use std::time::Duration;

use serde_json::Value;

use std::sync::Arc;

use super::lookup::{self, Subject};
use super::model::{At, Check, Expect, JsonType, Source};
use crate::call::CallStatus;
use crate::envelope::{Envelope, ResponseType};
use crate::sanitize;

/// How much of a value a failure shows.
const SHOWN: usize = 120;

/// A saved call's answer, as the checks read it.
#[derive(Debug)]
pub struct Observed {
    pub status: CallStatus,
    /// The envelope's response type; `None` when the call got no answer.
    pub response_type: Option<ResponseType>,
    /// The whole call, every page included.
    pub elapsed: Duration,
    /// Why there is no answer (no reply, a failed connection).
    pub error: Option<String>,
    /// The reply as received (the whole JSON-RPC message); with `all_pages`, the first page's.
    /// Paths without a prefix read its `result` (or `error`) member.
    pub raw: Option<Arc<String>>,
    /// The envelope; with `all_pages`, merged over the pages.
    pub envelope: Option<Envelope>,
    /// The tool's `outputSchema`, when it has one.
    pub output_schema: Option<Value>,
    /// With `all_pages`: what the pager read.
    pub pages: Option<PagesRead>,
    /// Deepest JSON read from `raw` (the session's `--max-depth`).
    pub max_depth: usize,
}

/// What the pager read for an `all_pages` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagesRead {
    pub pages: usize,
    /// The list was read to its end.
    pub complete: bool,
    /// Why it stopped early.
    pub note: Option<String>,
}

impl Observed {
    /// A call that got no answer.
    pub fn failed(status: CallStatus, elapsed: Duration, error: String) -> Observed {
        Observed {
            status,
            response_type: None,
            elapsed,
            error: Some(error),
            raw: None,
            envelope: None,
            output_schema: None,
            pages: None,
            max_depth: crate::json::depth::DEFAULT_MAX_DEPTH,
        }
    }

    /// The value at a path; `Err` when there is no answer to look in.
    pub fn at(&self, source: Source, pointer: &str) -> Result<Option<Subject<'_>>, NoAnswer> {
        match source {
            Source::Result => {
                let raw = self.raw.as_ref().ok_or(NoAnswer)?;
                Ok(lookup::result_at(raw, pointer, self.max_depth))
            }
            Source::Envelope => Ok(lookup::envelope_at(self.envelope.as_ref().ok_or(NoAnswer)?, pointer)),
        }
    }
}

/// The call got no answer to look a path up in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoAnswer;

/// One expectation missed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What was checked: `status`, `response_type`, `time_ms`, `output_schema`, `complete`, or
    /// a path as written (`/structuredContent/sum`, `envelope:/data/0/id`).
    pub path: String,
    pub expected: String,
    pub got: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: expected {}, got {}", self.path, self.expected, self.got)
    }
}

/// Longest part of a failure, in characters (an error message is the server's to make long).
const MAX_PART: usize = 500;

fn fail(path: impl Into<String>, expected: impl Into<String>, got: impl Into<String>) -> Failure {
    // Every part may hold server text: made one safe, bounded line here, for every screen (the
    // lines of a message of several, such as a server's last stderr lines, joined).
    let safe = |s: String| sanitize::line_head(&sanitize::joined(&s), MAX_PART).into_owned();
    Failure { path: safe(path.into()), expected: safe(expected.into()), got: safe(got.into()) }
}

/// A value as a failure shows it: compact JSON, cut after [`SHOWN`] bytes.
pub fn show(v: &Value) -> String {
    let s = crate::deep::to_string_prefix(v, SHOWN + 1);
    if s.len() > SHOWN { format!("{}…", &s[..floor_char(&s, SHOWN)]) } else { s }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every expectation `seen` misses: status, response type, time, output schema, completeness,
/// then each path in the order of the file (its checks in the order equals, contains, matches,
/// length, type, exists).
pub fn evaluate(expect: &Expect, seen: &Observed) -> Vec<Failure> {
    let mut out = Vec::new();
    let no_answer = || match &seen.error {
        Some(e) => format!("no answer ({}: {e})", seen.status.as_str()),
        None => "no answer".to_string(),
    };
    if let Some(want) = expect.status
        && want != seen.status
    {
        let got = match &seen.error {
            Some(e) => format!("{} ({e})", seen.status.as_str()),
            None => seen.status.as_str().to_string(),
        };
        out.push(fail("status", want.as_str(), got));
    }
    // A call with no answer (cancelled, timed out, the server gone) misses even with no check;
    // only a call expected to end that way meets it.
    if seen.response_type.is_none() && expect.status.is_none() {
        out.push(fail("answer", "an answer", no_answer()));
    }
    if let Some(want) = expect.response_type
        && Some(want) != seen.response_type
    {
        out.push(fail(
            "response_type",
            want.as_str(),
            seen.response_type.map_or_else(no_answer, |t| t.as_str().into()),
        ));
    }
    if let Some(ms) = expect.time_ms
        && seen.elapsed > Duration::from_millis(ms)
    {
        out.push(fail("time_ms", format!("at most {ms} ms"), format!("{} ms", seen.elapsed.as_millis())));
    }
    if expect.output_schema {
        out.extend(output_schema(seen));
    }
    if expect.complete {
        match &seen.pages {
            Some(p) if p.complete => {}
            Some(p) => out.push(fail(
                "complete",
                "every page read",
                format!("{} page{}, {}", p.pages, plural(p.pages), p.note.as_deref().unwrap_or("stopped early")),
            )),
            None => out.push(fail("complete", "every page read", no_answer())),
        }
    }
    for at in &expect.at {
        out.extend(check_at(at, seen, &no_answer));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The result's `structuredContent` against the tool's `outputSchema`.
fn output_schema(seen: &Observed) -> Vec<Failure> {
    const WANT: &str = "structuredContent fitting the tool's outputSchema";
    let Ok(content) = seen.at(Source::Result, "/structuredContent") else {
        return vec![fail("output_schema", WANT, "no answer")];
    };
    let Some(schema) = &seen.output_schema else {
        return vec![fail("output_schema", WANT, "the tool has no outputSchema")];
    };
    let Some(content) = content else {
        return vec![fail("output_schema", WANT, "no structuredContent in the result")];
    };
    match crate::schema::validate::validate(schema, &content.value()) {
        Ok(v) => v
            .into_iter()
            .take(10)
            .map(|v| fail(format!("output_schema /structuredContent{}", v.path), "to fit the outputSchema", v.message))
            .collect(),
        Err(e) => vec![fail("output_schema", WANT, format!("the schema is not used: {e}"))],
    }
}

fn check_at(at: &At, seen: &Observed, no_answer: &dyn Fn() -> String) -> Vec<Failure> {
    let path = at.path();
    let Ok(value) = seen.at(at.source, &at.pointer) else {
        return vec![fail(path, describe(&at.checks[0]), no_answer())];
    };
    let mut out = Vec::new();
    for check in &at.checks {
        if let Some(got) = miss(check, value.as_ref()) {
            out.push(fail(path.clone(), describe(check), got));
        }
    }
    out
}

/// What a check asks for, in words.
fn describe(check: &Check) -> String {
    match check {
        Check::Equals(v) => format!("equals {}", show(v)),
        Check::Contains(v) => format!("contains {}", show(v)),
        Check::Matches(p) => format!("matches /{}/", p.text),
        Check::Length(n) => format!("length {n}"),
        Check::Type(t) => format!("type {}", t.as_str()),
        Check::Exists(true) => "a value here".into(),
        Check::Exists(false) => "nothing here".into(),
    }
}

/// What came instead, when `value` misses `check`.
fn miss(check: &Check, value: Option<&Subject>) -> Option<String> {
    let Some(v) = value else {
        return (*check != Check::Exists(false)).then(|| "nothing at this path".to_string());
    };
    let ok = match check {
        Check::Exists(want) => *want,
        Check::Equals(want) => same(&v.value(), want),
        Check::Contains(want) => contains(v, want),
        Check::Matches(p) => v.string().is_some_and(|s| p.is_match(&s)),
        Check::Length(n) => v.length() == Some(*n),
        Check::Type(t) => t.holds_type(v.json_type()),
    };
    if ok {
        return None;
    }
    Some(match check {
        Check::Length(_) => match v.length() {
            Some(n) => format!("length {n}"),
            None => format!("{} (a {}, which has no length)", v.show(), v.json_type().as_str()),
        },
        Check::Type(_) => format!("{} {}", v.json_type().as_str(), v.show()),
        _ => v.show(),
    })
}

/// Characters of a string, elements of an array, members of an object.
pub fn length(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => Some(s.chars().count() as u64),
        Value::Array(a) => Some(a.len() as u64),
        Value::Object(o) => Some(o.len() as u64),
        _ => None,
    }
}

fn contains(v: &Subject, want: &Value) -> bool {
    match (v.json_type(), want) {
        (JsonType::String, Value::String(w)) => v.string().is_some_and(|s| s.contains(w.as_str())),
        (JsonType::Array, _) => v.has_element(want),
        (JsonType::Object, Value::String(k)) => v.has_member(k),
        _ => false,
    }
}

/// Equal as JSON values, without recursion: numbers by value (`3` is `3.0`), objects whatever
/// their key order.
pub fn same(a: &Value, b: &Value) -> bool {
    crate::deep::equal_with(a, b, |x, y| match (x, y) {
        // Integers compare exactly; a float against anything compares by value.
        (Value::Number(x), Value::Number(y)) => x == y || ((x.is_f64() || y.is_f64()) && x.as_f64() == y.as_f64()),
        _ => x == y,
    })
}

/// The expectations `seen` meets, made from `old`: status and response type as they came, each
/// listed path's checks rewritten to the value there now (a `type`, `contains` or `matches` that
/// still holds is kept); the time budget, output schema and completeness checks kept as they were.
/// Also what changed, one line each.
pub fn observed_expect(old: &Expect, seen: &Observed) -> (Expect, Vec<String>) {
    let mut new = old.clone();
    let mut changes = Vec::new();
    if seen.error.is_none() || old.status.is_some() {
        new.status = Some(seen.status);
    }
    if old.status != new.status {
        changes.push(format!("status: {} -> {}", name_or_none(old.status.map(|s| s.as_str())), seen.status.as_str()));
    }
    if let Some(t) = seen.response_type {
        new.response_type = Some(t);
        if old.response_type != Some(t) {
            let was = name_or_none(old.response_type.map(|t| t.as_str()));
            changes.push(format!("response_type: {was} -> {}", t.as_str()));
        }
    }
    for at in &mut new.at {
        let Ok(value) = seen.at(at.source, &at.pointer) else { continue };
        let checks = checks_now(&at.checks, value.as_ref());
        if checks != at.checks {
            let was: Vec<String> = at.checks.iter().map(describe).collect();
            let now: Vec<String> = checks.iter().map(describe).collect();
            changes.push(sanitize::line(&format!("{}: {} -> {}", at.path(), was.join(", "), now.join(", "))).into());
            at.checks = checks;
        }
    }
    (new, changes)
}

/// Whether a check holds a value that `holds` finds text in (a secret of the target: written
/// into the collection, it would be kept in git and shown in CI). Only `equals` and `contains`
/// hold values that may come from the server.
pub fn check_holds(check: &Check, holds: &dyn Fn(&str) -> bool) -> bool {
    match check {
        Check::Equals(v) | Check::Contains(v) => holds(&crate::deep::compact(v)),
        _ => false,
    }
}

/// The paths of `expect` with a check holding what `holds` finds (see [`check_holds`]).
pub fn paths_holding(expect: &Expect, holds: &dyn Fn(&str) -> bool) -> Vec<String> {
    let at = expect.at.iter().filter(|a| a.checks.iter().any(|c| check_holds(c, holds)));
    at.map(At::path).collect()
}

fn name_or_none(s: Option<&str>) -> &str {
    s.unwrap_or("(none)")
}

/// The checks of one path rewritten to the value there now.
fn checks_now(old: &[Check], value: Option<&Subject>) -> Vec<Check> {
    let Some(v) = value else { return vec![Check::Exists(false)] };
    let mut out: Vec<Check> = Vec::new();
    for check in old {
        let now = match check {
            Check::Length(_) => v.length().map_or_else(|| Check::Equals(v.value().into_owned()), Check::Length),
            // A `number` that holds an integer now is kept: the next value may be 22.5.
            Check::Type(_) | Check::Contains(_) | Check::Matches(_) | Check::Exists(true)
                if miss(check, Some(v)).is_none() =>
            {
                check.clone()
            }
            Check::Type(_) => Check::Type(v.json_type()),
            _ => Check::Equals(v.value().into_owned()),
        };
        if !out.contains(&now) {
            out.push(now);
        }
    }
    out
}

/// Expectations for an answer on screen: its status and response type, and the value now at
/// each of `paths` (as written: `/structuredContent/x` or `envelope:/data/0`).
pub fn expect_now(seen: &Observed, paths: &[String]) -> Result<Expect, String> {
    let mut at = Vec::with_capacity(paths.len());
    for p in paths {
        let (source, pointer) = At::parse_path(p)?;
        let value = seen.at(source, &pointer).map_err(|_| format!("{}: no answer to read it in", sanitize::line(p)))?;
        let checks = checks_now(&[Check::Equals(Value::Null)], value.as_ref());
        at.push(At { source, pointer, checks });
    }
    Ok(Expect { status: Some(seen.status), response_type: seen.response_type, at, ..Expect::default() })
}
