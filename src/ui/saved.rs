//! The TUI's share of saved calls (the core's `collection`): reading the collection file,
//! writing the call on screen into it, running its calls and checking them. The worker and the
//! headless driver both carry these out; the model only sends commands and reads messages.

use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use super::msg::{CallResult, Msg, SessionMsg};
use crate::call::{CallStatus, Purpose};
use crate::collection::{Collection, Observed, RunOptions, SavedCall};
use crate::dirs::now_secs;
use crate::envelope::hints::Hints;
use crate::history::{Entry, History};
use crate::mcp::log::Redactor;
use crate::mcp::{CallOptions, Cancel, Reply, Session};

/// The collection file when `--collection` names none (in the current directory).
pub const DEFAULT_FILE: &str = "mcplens-calls.toml";

/// A file's name for a title (a long path does not fit one; the status line says it whole).
pub fn short_name(file: &str) -> String {
    let name = Path::new(file).file_name().map(|n| n.to_string_lossy().into_owned());
    crate::sanitize::line(&name.unwrap_or_else(|| file.to_string())).into_owned()
}

pub use super::msg::RunMsg;

/// The collection read from `file` (a file not there yet is an empty collection).
pub fn load(file: &Path) -> SessionMsg {
    let loaded = if file.exists() {
        crate::collection::load(file).map_err(|e| crate::sanitize::line(&e.message).into_owned())
    } else {
        Ok(Collection::default())
    };
    SessionMsg::Collection { file: file.display().to_string(), loaded }
}

/// Writes `call` into `file` (replacing a call of its name); says where, and reads the file
/// again for the pane.
/// A call whose expectations hold a secret of the target (`redactor`'s) is not written: the file
/// is kept in git and read in CI.
pub fn save(file: &Path, call: &SavedCall, redactor: &Redactor) -> Vec<SessionMsg> {
    let shown = crate::sanitize::line(&file.display().to_string()).into_owned();
    let secret = crate::collection::paths_holding(&call.expect, &|s| redactor.finds(s));
    // A collection is a file to share (a repository, CI): a secret typed into an argument stays
    // out of it as it stays out of the history.
    let in_arguments =
        call.arguments.as_ref().is_some_and(|a| redactor.finds(&crate::deep::compact(&Value::Object(a.clone()))));
    if in_arguments {
        let said = "the call was not saved: its arguments hold a secret of the target (-e, -H, a config's env), \
                    and a collection is a file to share";
        return vec![SessionMsg::Notice(said.into())];
    }
    if !secret.is_empty() {
        let paths = crate::sanitize::line(&secret.join(", ")).into_owned();
        let said = format!(
            "the call was not saved: the value at {paths} holds a secret of the target (-e, -H, a config's env); uncheck it"
        );
        return vec![SessionMsg::Notice(said)];
    }
    let said = match crate::collection::save::save(file, call) {
        Ok(()) => format!(
            "saved call {:?} in {shown} ({}: the collection; mcplens test {shown})",
            crate::sanitize::line(&call.name),
            super::keymap::key(super::components::collection::SCOPE, super::keymap::Command::Show)
        ),
        Err(e) => format!("the call was not saved: {}", crate::sanitize::line(&e.message)),
    };
    vec![SessionMsg::Notice(said), load(file)]
}

/// Runs `calls` one after the other through the call service, each checked against its
/// expectations and written to the history like any call; reports each start and end, and
/// stops at `cancel` (Ctrl-K), naming the calls left.
pub async fn run(
    session: Arc<Session>,
    (history, hints): (Arc<Mutex<History>>, Arc<Mutex<Hints>>),
    calls: Vec<(SavedCall, Option<Value>)>,
    cancel: Cancel,
    out: UnboundedSender<Msg>,
) {
    let send = |m: RunMsg| out.send(Msg::Session(SessionMsg::SavedRun(m))).is_ok();
    let label = session.target.label();
    let mut calls = calls.into_iter();
    while let Some((saved, descriptor)) = calls.next() {
        if cancel.is_cancelled() {
            let not_run = std::iter::once(saved.name).chain(calls.map(|(c, _)| c.name)).collect();
            send(RunMsg::Finished { not_run });
            return;
        }
        if !send(RunMsg::Started(saved.name.clone())) {
            return;
        }
        let hint = hints.lock().ok().and_then(|h| h.find(&[session.server.name(), &label], &saved.tool).cloned());
        let call = CallOptions { timeout: None, cancel: Some(cancel.clone()) };
        let opts = RunOptions { call, ..RunOptions::default() };
        let seen = crate::collection::run(&session, &saved, descriptor.as_ref(), hint.as_ref(), &opts).await;
        let failures = crate::collection::evaluate(&saved.expect, &seen);
        let entry = history_entry(&saved, &seen);
        if let Ok(mut h) = history.lock() {
            h.append(entry.clone(), session.log().redactor());
        }
        let (elapsed, result) = (seen.elapsed, Box::new(kept_result(&saved, seen)));
        if !send(RunMsg::Done { name: saved.name, failures, elapsed, entry, result }) {
            return;
        }
    }
    send(RunMsg::Finished { not_run: vec![] });
}

/// A saved call's arguments as a call sends them (none is an empty object).
fn arguments_of(saved: &SavedCall) -> Value {
    saved.arguments.clone().map_or(Value::Object(Default::default()), Value::Object)
}

/// The run as the history reopens it (`o`): the reply read again, or for every page gathered
/// the merged envelope alone, as `A` keeps it.
fn kept_result(saved: &SavedCall, seen: Observed) -> CallResult {
    let reply = match (&seen.raw, saved.all_pages) {
        (Some(raw), false) => Reply::parse(raw.clone(), seen.elapsed, seen.max_depth).ok().map(Arc::new),
        _ => None,
    };
    CallResult {
        tool: saved.tool.clone(),
        arguments: arguments_of(saved),
        reply,
        envelope: seen.envelope.map(Arc::new),
        output_schema: seen.output_schema,
        error: seen.error,
        elapsed: seen.elapsed,
    }
}

/// What the history keeps of a saved call's run: a new call, or every page for one that
/// gathers them.
fn history_entry(saved: &SavedCall, seen: &Observed) -> Entry {
    Entry {
        tool: saved.tool.clone(),
        arguments: arguments_of(saved),
        at: now_secs(),
        duration_ms: seen.elapsed.as_millis() as u64,
        status: seen.status,
        purpose: if saved.all_pages { Purpose::AllPages } else { Purpose::New },
    }
}

/// The call on screen read as the checks read an answer; `None` for a call that got none.
pub fn observed(call: &CallResult) -> Option<Observed> {
    let envelope = call.envelope.as_ref()?;
    let status = match &call.reply {
        Some(reply) => crate::call::reply_status(reply),
        // Every page gathered: the merged list has no single reply.
        None => CallStatus::Ok,
    };
    let depth = crate::json_depth::DEFAULT_MAX_DEPTH;
    Some(Observed {
        status,
        response_type: Some(envelope.response_type),
        elapsed: call.elapsed,
        error: None,
        raw: call.reply.as_ref().map(|r| r.raw.clone()),
        // No check offered reads the envelope (the item count is read from the call's own).
        envelope: None,
        output_schema: call.output_schema.as_ref().map(crate::deep::clone_value),
        pages: None,
        max_depth: depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(m: &[SessionMsg]) -> String {
        match m.first() {
            Some(SessionMsg::Notice(n)) => n.clone(),
            _ => String::new(),
        }
    }

    #[test]
    fn no_secret_of_the_target_is_saved_in_arguments_or_expectations() {
        let dir = std::env::temp_dir().join(format!("mcplens-saved-{}", std::process::id()));
        let file = dir.join("calls.toml");
        let redactor = Redactor::new(["sekrit12345".to_string()]);
        let args = |v: &str| serde_json::json!({"message": v}).as_object().cloned();
        let typed = SavedCall::new("typed", "echo", args("sekrit12345"));
        assert!(notice(&save(&file, &typed, &redactor)).contains("its arguments hold a secret"));
        assert!(!file.exists());
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let plain = SavedCall::new("plain", "echo", args("hello"));
        let said = notice(&save(&file, &plain, &redactor));
        assert!(said.starts_with("saved call \"plain\""), "{said}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
