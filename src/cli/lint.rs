//! `mcplens lint`: findings about what the server lists (live, a snapshot file) or what a
//! recorded session shows (see `mcplens_core::lint`).

use std::path::Path;

use serde_json::Value;
use serde_json::value::RawValue;

use super::{TargetArgs, out};
use crate::error::{LensError, Result};
use crate::lint::{self, Finding, RULES, Severity, Subject};
use crate::sanitize;

/// Exit codes: the most severe finding.
pub const EXIT_WARNING: i32 = 7;
pub const EXIT_ERROR: i32 = 8;

/// Where the subject comes from.
pub struct Source<'a> {
    pub snapshot: Option<&'a Path>,
    pub recording: Option<&'a Path>,
}

/// `mcplens lint [--json] [--snapshot FILE | --recording FILE] [target]`
pub async fn lint(target: &TargetArgs, from: Source<'_>, json: bool) -> Result<i32> {
    let print = |(findings, tools): (Vec<Finding>, usize)| {
        out(&if json { as_json(&findings, tools) } else { readable(&findings, Some(tools)) })?;
        Ok(exit_code(&findings))
    };
    if let (Some(file), Some(given)) = (from.snapshot.or(from.recording), target.named_by()) {
        let option = if from.snapshot.is_some() { "--snapshot" } else { "--recording" };
        return Err(LensError::usage(format!(
            "lint {option} {} lints the file: the server given with {given} is not used; leave it out, \
             or leave {option} out to lint that server",
            file.display()
        )));
    }
    match (from.snapshot, from.recording) {
        (Some(path), _) => print(of_snapshot(path, target.max_depth)?),
        (None, Some(path)) => {
            let rec = crate::replay::read(path, target.max_depth).map_err(|e| LensError::usage(sanitize::line(&e)))?;
            let subject = lint::session::from_recording(&rec, target.max_depth);
            print((lint::lint(&subject, target.max_depth), subject.tools.len()))
        }
        (None, None) => {
            let opened = super::connect::open(target).await?;
            opened.run(async |o| live(o, target.max_depth).await.and_then(print)).await
        }
    }
}

/// `mcplens lint --server-json FILE [target]`
pub async fn server_json(target: &TargetArgs, file: &Path, json: bool) -> Result<i32> {
    let text = crate::capped_file::read_text(file, 4 << 20)
        .map_err(|e| LensError::usage(format!("cannot read {}: {e}", file.display())))?;
    let doc: Value = crate::json_depth::parse(&text, target.max_depth)
        .map_err(|e| LensError::usage(format!("{}: not JSON: {}", file.display(), sanitize::line(&e))))?;
    let mut findings = lint::server_json::check(&doc);
    let given = target.url.is_some() || target.config.is_some() || !target.command.is_empty();
    let print = |mut findings: Vec<Finding>| {
        findings.sort_by_key(|f| f.severity);
        out(&if json { as_json(&findings, 0) } else { readable(&findings, None) })?;
        Ok(exit_code(&findings))
    };
    if !given {
        return print(findings);
    }
    let opened = super::connect::open(target).await?;
    findings.extend(lint::server_json::compare(&doc, &opened.session.server.result));
    opened.run(async |_| print(findings)).await
}

pub(super) fn exit_code(findings: &[Finding]) -> i32 {
    match findings.iter().map(|f| f.severity).min() {
        Some(Severity::Error) => EXIT_ERROR,
        Some(Severity::Warning) => EXIT_WARNING,
        _ => 0,
    }
}

/// `mcplens lint --rules`: every rule with its severity and source.
pub fn rules() -> Result<i32> {
    let mut s = String::new();
    for r in RULES {
        s.push_str(&format!("{:<34} {:<8} {}\n{:<43} source: {}\n", r.id, r.severity.label(), r.summary, "", r.source));
    }
    out(&s)?;
    Ok(0)
}

/// The findings about a snapshot's tools (and how many there are), each tool read in turn.
fn of_snapshot(path: &Path, max_depth: usize) -> Result<(Vec<Finding>, usize)> {
    let text = crate::capped_file::read_text(path, crate::snapshot::MAX_SNAPSHOT)
        .map_err(|e| LensError::usage(format!("cannot read {}: {e}", path.display())))?;
    match crate::snapshot_text::Snapshot::read(&text, max_depth) {
        Some(Ok(snapshot)) => Ok((lint::lint_texts(snapshot.tools(), &[], max_depth), snapshot.tools().len())),
        Some(Err(e)) => Err(LensError::usage(format!("{}: {}", sanitize::line(&path.display().to_string()), e))),
        // A document serde_json refuses as it is (a number past its range): read whole, approximated.
        None => {
            let doc = super::diff::load(path, max_depth)?;
            let tools = doc.get("tools").and_then(Value::as_array).into_iter().flatten();
            let tools = tools.filter_map(|t| RawValue::from_string(crate::deep::compact(t)).ok()).collect();
            crate::deep::drop_value(doc);
            let subject = Subject { tools, ..Subject::default() };
            Ok((lint::lint(&subject, max_depth), subject.tools.len()))
        }
    }
}

/// The findings about the live server's tools and the views they declare.
async fn live(opened: &super::connect::Opened, max_depth: usize) -> Result<(Vec<Finding>, usize)> {
    let list = opened.session.list_tools().await?;
    super::warn_list(&list.warnings);
    let tools: Vec<&serde_json::value::RawValue> = list.tools.iter().map(|t| t.raw_value()).collect();
    let views = read_views(&opened.session, &tools, max_depth).await;
    Ok((lint::lint_texts(&tools, &views, max_depth), tools.len()))
}

/// Views read for the lint, at most this many (a server could declare thousands).
const MAX_VIEWS: usize = 50;

/// Each distinct `ui://` view the tools declare, read as a host reads it.
async fn read_views(
    session: &crate::mcp::Session,
    tools: &[&serde_json::value::RawValue],
    max_depth: usize,
) -> Vec<lint::ViewRead> {
    let mut views: Vec<lint::ViewRead> = vec![];
    for raw in tools {
        // Its schemas are not read: they may be most of a listing's bytes.
        let Some(t) = lint::Slim::of(raw, max_depth) else { continue };
        let name = t.desc.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let uri = crate::apps::tool_resource(&t.desc).filter(|u| crate::apps::is_ui_uri(u)).map(str::to_string);
        crate::deep::drop_value(t.desc);
        let Some(uri) = uri else { continue };
        if let Some(v) = views.iter_mut().find(|v| v.uri == uri) {
            v.tools.push(name);
        } else if views.len() < MAX_VIEWS {
            views.push(lint::ViewRead { uri, tools: vec![name], read: Err(String::new()) });
        }
    }
    for v in &mut views {
        v.read = super::app::read_result(session, &v.uri).await;
    }
    views
}

pub(super) fn readable(findings: &[Finding], tools: Option<usize>) -> String {
    let mut s = String::new();
    let mut used: Vec<(&str, &str)> = vec![];
    for f in findings {
        let mut place = String::new();
        if let Some(t) = &f.tool {
            place.push_str(&format!(" tool {:?}", sanitize::line(t)));
        }
        if let Some(at) = &f.at {
            place.push_str(&format!(" {}", sanitize::line(at)));
        }
        s.push_str(&format!("{:<8} {}{place}: {}\n", f.severity.label(), f.rule, sanitize::line(&f.message)));
        if !used.iter().any(|(r, _)| *r == f.rule) {
            used.push((f.rule, f.source));
        }
    }
    let count = |sev| findings.iter().filter(|f| f.severity == sev).count();
    s.push_str(&format!(
        "{} error(s), {} warning(s), {} info(s){}\n",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
        tools.map(|n| format!(" in {n} tool(s)")).unwrap_or_default()
    ));
    if !used.is_empty() {
        s.push_str("sources:\n");
        for (rule, source) in used {
            s.push_str(&format!("  {rule}: {source}\n"));
        }
    }
    s
}

pub(super) fn as_json(findings: &[Finding], tools: usize) -> String {
    let doc = serde_json::json!({"tools": tools, "findings": findings});
    let text = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".into());
    format!("{}\n", sanitize::json(&text))
}
