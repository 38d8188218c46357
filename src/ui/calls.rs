//! The worker's share of tool calls: one call, every page of a paged one, a hint taught, an
//! export; each written to the history and reported to the model as messages. The TUI's worker
//! spawns these and the headless driver awaits them (the same code either way).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::mpsc;

use super::msg::{CallResult, Cmd, Msg, SessionMsg};
use crate::call::{Call, CallStatus, Purpose};
use crate::dirs::now_secs;
use crate::envelope::hints::{Hint, Hints};
use crate::history::{Entry, History};
use crate::mcp::{CallOptions, Cancel, Session};

/// Runs one call: progress and the outcome go to `out`, the history records it. Used by the
/// worker and by the headless driver.
pub async fn run_call(
    session: Arc<Session>,
    history: Arc<Mutex<History>>,
    call: (String, serde_json::Value, Option<serde_json::Value>),
    purpose: Purpose,
    cancel: Cancel,
    out: mpsc::UnboundedSender<Msg>,
) {
    run_taught_call(session, (history, Arc::default()), call, purpose, cancel, out).await
}

/// The hint the user taught for this session's server and `tool`, if any.
pub(crate) fn hint_for(hints: &Mutex<Hints>, session: &Session, tool: &str) -> Option<Hint> {
    let label = session.target.label();
    let hints = hints.lock().ok()?;
    hints.find(&[session.server.name(), &label], tool).cloned()
}

/// `run_call`, reading the answer with what the user taught.
pub(crate) async fn run_taught_call(
    session: Arc<Session>,
    (history, hints): (Arc<Mutex<History>>, Arc<Mutex<Hints>>),
    call: (String, serde_json::Value, Option<serde_json::Value>),
    purpose: Purpose,
    cancel: Cancel,
    out: mpsc::UnboundedSender<Msg>,
) {
    let (tool, arguments, descriptor) = call;
    let hint = hint_for(&hints, &session, &tool);
    let args = arguments.as_object().cloned();
    let c = Call { tool: &tool, arguments: args.as_ref(), descriptor: descriptor.as_ref(), hint: hint.as_ref() };
    let progress_out = out.clone();
    let mut on_progress = move |p: &crate::mcp::Progress| {
        let _ = progress_out.send(Msg::Session(SessionMsg::CallProgress(p.clone())));
    };
    let opts = CallOptions { timeout: None, cancel: Some(cancel) };
    let outcome = c.run(&session, &opts, &mut on_progress).await;
    let (reply, envelope, error) = match outcome.answer {
        Ok(a) => (Some(Arc::new(a.reply)), Some(Arc::new(a.envelope)), None),
        Err(e) => (None, None, Some(e.message)),
    };
    let output_schema = c.output_schema().cloned();
    let result = CallResult { tool, arguments, reply, envelope, output_schema, error, elapsed: outcome.elapsed };
    record(&session, &history, result, (outcome.status, purpose), &out);
}

/// Writes a finished call into the history and reports it.
fn record(
    session: &Session,
    history: &Mutex<History>,
    result: CallResult,
    (status, purpose): (CallStatus, Purpose),
    out: &mpsc::UnboundedSender<Msg>,
) {
    let entry = Entry {
        tool: result.tool.clone(),
        arguments: crate::envelope::pager::without_stand_ins(&result.arguments),
        at: now_secs(),
        duration_ms: result.elapsed.as_millis() as u64,
        status,
        purpose,
    };
    if let Ok(mut h) = history.lock() {
        h.append(entry.clone(), session.log().redactor());
    }
    // A call may have logged in again or refreshed the token on the way.
    let _ = out.send(Msg::Session(SessionMsg::Login(session.auth().map(|a| a.state()))));
    // A stdio server's exit is seen by the worker; an HTTP server gone is seen by the call that
    // found it gone, which says so.
    let gone = status == CallStatus::ServerGone || session.is_closed();
    let lost = (session.child().is_none() && gone).then(|| result.error.clone()).flatten();
    let _ = out.send(Msg::Session(SessionMsg::CallDone(Box::new(result), entry)));
    if let Some(error) = lost {
        let first = error.lines().next().unwrap_or_default().to_string();
        let _ = out.send(Msg::Session(SessionMsg::Closed { reason: first }));
    }
}

/// Gathers every page after the known ones and reports one merged result.
pub async fn run_all_pages(
    session: Arc<Session>,
    (history, hints): (Arc<Mutex<History>>, Arc<Mutex<Hints>>),
    call: (String, serde_json::Value, Option<serde_json::Value>),
    // The first page's arguments (what the history records) and the pages already fetched.
    (first, known): (serde_json::Value, Vec<Arc<crate::envelope::Envelope>>),
    cancel: Cancel,
    out: mpsc::UnboundedSender<Msg>,
) {
    let (tool, arguments, descriptor) = call;
    if known.is_empty() {
        return;
    }
    let hint = hint_for(&hints, &session, &tool);
    let started = Instant::now();
    let known: Vec<_> = known.iter().map(|e| (**e).clone()).collect();
    let args = arguments.as_object().cloned();
    let c = Call { tool: &tool, arguments: args.as_ref(), descriptor: descriptor.as_ref(), hint: hint.as_ref() };
    let opts = CallOptions { timeout: None, cancel: Some(cancel) };
    let progress_out = out.clone();
    let mut on_page = move |n: &crate::call::PageCount| {
        let _ = progress_out.send(Msg::Session(SessionMsg::PagerProgress(n.pages, n.items, n.total)));
    };
    let (merged, report) = crate::call::all_pages(&session, &c, known, 100, &opts, &mut on_page).await;
    let output_schema = c.output_schema().cloned();
    // The gathered list starts at the first page: its arguments are what a re-run needs.
    let result = CallResult {
        tool,
        arguments: first,
        reply: None,
        envelope: Some(Arc::new(merged)),
        output_schema,
        error: None,
        elapsed: started.elapsed(),
    };
    record(&session, &history, result, (report.status(), Purpose::AllPages), &out);
}

/// Writes an export (mode 0600, redacted) under the state directory; returns its path.
pub(crate) fn export(
    name: &str,
    text: &str,
    redactor: &crate::mcp::log::Redactor,
) -> Result<std::path::PathBuf, String> {
    super::ops::write_export(name, "json", redactor.redact(text).as_bytes())
}

/// Saves a taught hint and reads the shown result again with it (what the hint now says, merged
/// with what was taught before for the same tool).
pub(crate) fn teach(
    hints: &Mutex<Hints>,
    hint: Hint,
    call: CallResult,
    descriptor: Option<serde_json::Value>,
) -> Vec<SessionMsg> {
    let Ok(mut all) = hints.lock() else { return vec![] };
    let (server, tool) = (hint.server.clone(), hint.tool.clone());
    let what = if hint.records.is_some() { "records" } else { "next position" };
    let argument = hint.argument.clone();
    let path = match all.save(hint) {
        Ok(p) => p,
        Err(e) => return vec![SessionMsg::Notice(format!("the hint was not saved: {e}"))],
    };
    let Some(merged) = all.find(&[&server], &tool).cloned() else { return vec![] };
    drop(all);
    let mut notice = format!("taught: {what} of {tool} (hint saved in {})", path.display());
    if what == "next position" {
        notice.push_str(&match argument {
            Some(a) => format!("; the next page sets {a}"),
            None => "; no input argument looks like a position: add `argument = \"...\"` to the hint".into(),
        });
    }
    let mut msgs = vec![SessionMsg::Notice(notice)];
    if let Some(reply) = &call.reply
        && let Ok(parsed) = crate::mcp::Reply::parse(reply.raw.clone(), reply.elapsed, usize::MAX)
    {
        let env =
            crate::envelope::normalize_taught(&tool, descriptor.as_ref(), parsed.body, parsed.elisions, Some(&merged));
        let mut call = call;
        call.envelope = Some(Arc::new(env));
        msgs.push(SessionMsg::Retaught(Box::new(call)));
    }
    msgs
}

/// The worker's small session commands: the task list, a task cancelled, the roots changed.
/// Each ends with a message for the app.
pub(crate) async fn session_cmd(session: Arc<Session>, cmd: Cmd, out: mpsc::UnboundedSender<Msg>) {
    let msg = match cmd {
        Cmd::Tasks => SessionMsg::Tasks(session.session_tasks()),
        Cmd::CancelTask(id) => {
            SessionMsg::Notice(match session.cancel_task(&id, &crate::mcp::CallOptions::default()).await {
                Ok(t) => crate::sanitize::line(&t.line()).into_owned(),
                Err(e) => format!("tasks/cancel {}: {}", crate::sanitize::line(&id), e.message),
            })
        }
        Cmd::SetRoots(roots) => {
            let n = roots.len();
            SessionMsg::Notice(match session.set_roots(roots).await {
                Ok(()) => format!("{n} root{} offered now; the server was told", if n == 1 { "" } else { "s" }),
                Err(e) => format!("roots changed here, but {e}"),
            })
        }
        _ => return,
    };
    let _ = out.send(Msg::Session(msg));
}
