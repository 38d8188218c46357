//! Tasks headless: `call --task --no-wait` prints the task it started, `mcplens task
//! get|result|cancel ID` and `mcplens task list` ask the server about its tasks.

use serde_json::{Map, Value, json};

use super::args::{TaskAction, TaskArgs};
use super::connect::Opened;
use super::{out, raw_member, render, status_line};
use crate::call::Call;
use crate::error::{LensError, Result};
use crate::mcp::tasks::Task;
use crate::mcp::{CallOptions, Reply, ReplyBody, RpcError, Session, Target};
use crate::sanitize;

/// A task's status on stderr while it runs.
pub fn show(task: &Task, tty: bool) {
    status_line(&sanitize::line(&task.line()), tty);
}

/// Starts the tool as a task and prints what the server answered: the task (its id first), or
/// the error.
pub async fn start(
    opened: &Opened,
    tool: &str,
    arguments: Option<&Map<String, Value>>,
    json: bool,
    opts: &CallOptions,
) -> Result<i32> {
    let session = &opened.session;
    let reply = opened.answer(session.start_task(tool, arguments, opts)).await?;
    if let ReplyBody::Error(e) = &reply.body {
        return Err(LensError::tool(sanitize::joined(&Reply::error_summary(e)).into_owned()));
    }
    print(session, &reply, json, |r| Task::from_result(r).map(|t| vec![t]))
}

/// `mcplens task ...`
pub async fn command(t: &TaskArgs) -> Result<i32> {
    let mut options = t.target.connect_options()?;
    options.asks = Some(super::answer::Policy::new(&t.answers)?.start());
    super::connect::open_with(&t.target, options).await?.run(async |o| run(o, t).await).await
}

async fn run(opened: &Opened, t: &TaskArgs) -> Result<i32> {
    let session = &opened.session;
    let opts = CallOptions::default();
    let id = t.id.clone().unwrap_or_default();
    if !session.offers_tasks() && !matches!(t.action, TaskAction::List) {
        return Ok(not_offered("no tasks capability"));
    }
    let (method, params) = match t.action {
        TaskAction::Get => ("tasks/get", json!({"taskId": id})),
        TaskAction::Cancel => ("tasks/cancel", json!({"taskId": id})),
        TaskAction::List => return list(opened, t.json, &opts).await,
        TaskAction::Result => return result(opened, &id, t.json, &opts).await,
    };
    let reply = opened.answer(session.request_method(method, params, &opts, &mut |_| {})).await?;
    print(session, &reply, t.json, |r| Task::from_result(r).map(|t| vec![t]))
}

/// `tasks/list`, every page: `nextCursor` is followed until the server gives none, sends one it
/// sent before, or the page limit (`max_list_pages`) is reached; either stop is said on stderr.
/// With `--json` each page's result is a line of its own.
async fn list(opened: &Opened, json: bool, opts: &CallOptions) -> Result<i32> {
    let session = &opened.session;
    if let Some(why) = session.tasks_unlisted() {
        return none_listed(&why, json);
    }
    let mut seen = std::collections::HashSet::new();
    let mut cursor: Option<Value> = None;
    let mut pages = 0usize;
    let mut any = false;
    loop {
        let params = cursor.as_ref().map_or_else(|| json!({}), |c| json!({ "cursor": c }));
        let reply = opened.answer(session.request_method("tasks/list", params, opts, &mut |_| {})).await?;
        pages += 1;
        if let (ReplyBody::Error(e), 1) = (&reply.body, pages)
            && RpcError::from_value(e).is_method_not_found()
        {
            let why = format!("the server does not offer tasks ({})", Reply::error_summary(e));
            return none_listed(&sanitize::line(&why), json);
        }
        let next = match &reply.body {
            ReplyBody::Result(r) => r.get("nextCursor").filter(|c| !c.is_null() && c.as_str() != Some("")).cloned(),
            ReplyBody::Error(_) => None,
        };
        let last = next.is_none();
        let tasks = |r: &Value| Some(r.get("tasks")?.as_array()?.iter().filter_map(Task::from_result).collect());
        any |= page(session, &reply, json, last && !any, tasks)?;
        let Some(next) = next else { return Ok(0) };
        if !seen.insert(next.to_string()) {
            let shown = sanitize::line_head(&next.to_string(), 80).into_owned();
            super::err_line(&format!("tasks/list repeated the cursor {shown}; stopped after {pages} pages"));
            return Ok(0);
        }
        if pages >= session.options().max_list_pages {
            super::err_line(&format!("tasks/list: more pages; stopped after {pages} pages (the page limit)"));
            return Ok(0);
        }
        cursor = Some(next);
    }
}

/// A server whose tasks are not listed has none to show, as one without prompts has no prompts:
/// a warning, an empty list (`{"tasks": []}` with `--json`), exit 0.
fn none_listed(why: &str, json: bool) -> Result<i32> {
    super::err_line(&format!("warning: {why}"));
    out(if json { "{\"tasks\":[]}\n" } else { "no tasks\n" })?;
    Ok(0)
}

/// One page of `tasks/list`; whether it held a task. "no tasks" is said only when `say_none` (the
/// last page of a list with none).
fn page(
    session: &Session,
    reply: &Reply,
    json: bool,
    say_none: bool,
    tasks: impl Fn(&Value) -> Option<Vec<Task>>,
) -> Result<bool> {
    if json {
        print(session, reply, true, tasks)?;
        return Ok(true);
    }
    let result = match &reply.body {
        ReplyBody::Error(e) => return Err(unknown(session, e)),
        ReplyBody::Result(r) => r,
    };
    match tasks(result) {
        Some(list) if list.is_empty() => {
            if say_none {
                out("no tasks\n")?;
            }
            Ok(false)
        }
        Some(list) => {
            let lines: Vec<String> = list.iter().map(|t| sanitize::line(&t.line()).into_owned()).collect();
            out(&(lines.join("\n") + "\n"))?;
            Ok(true)
        }
        None => Err(LensError::connection("the reply holds no task list (no tasks array); --json shows it as sent")),
    }
}

/// The task's result, printed as `call` prints a tool's.
async fn result(opened: &Opened, id: &str, json: bool, opts: &CallOptions) -> Result<i32> {
    let session = &opened.session;
    let reply = opened.answer(session.task_result(id, opts, &mut |_| {})).await?;
    if let ReplyBody::Error(e) = &reply.body {
        return refused(session, e);
    }
    let call = Call { tool: "", arguments: None, descriptor: None, hint: None };
    let secret = super::output::has_secrets() && super::output::holds_secret(&reply.raw);
    let answer = call.read(reply);
    let mut envelope = answer.envelope;
    if json {
        super::write_json(&mut envelope, None, secret)?;
    } else {
        out(&render::envelope(&envelope))?;
    }
    Ok(answer.status.exit_code())
}

/// The reply as sent (`--json`) or its tasks, a line each; an error reply is exit 1.
fn print(session: &Session, reply: &Reply, json: bool, tasks: impl Fn(&Value) -> Option<Vec<Task>>) -> Result<i32> {
    let result = match &reply.body {
        ReplyBody::Error(e) => return refused(session, e),
        ReplyBody::Result(r) => r,
    };
    if json {
        out(&(raw_member(reply) + "\n"))?;
        return Ok(0);
    }
    match tasks(result) {
        Some(list) if list.is_empty() => out("no tasks\n")?,
        Some(list) => {
            let lines: Vec<String> = list.iter().map(|t| sanitize::line(&t.line()).into_owned()).collect();
            out(&(lines.join("\n") + "\n"))?;
        }
        None => return Err(LensError::connection("the reply holds no task (no taskId); --json shows it as sent")),
    }
    Ok(0)
}

/// Says that the server does not offer tasks (`why`: how it says so); exit 1, as for a task the
/// server does not know.
fn not_offered(why: &str) -> i32 {
    super::err_line(&format!("mcplens: the server does not offer tasks ({})", sanitize::line(why)));
    1
}

/// A server's error about a task: "method not found" is a server without tasks.
fn refused(session: &Session, e: &Value) -> Result<i32> {
    if RpcError::from_value(e).is_method_not_found() {
        return Ok(not_offered(&Reply::error_summary(e)));
    }
    Err(unknown(session, e))
}

/// A server's error about a task, with the usual cause spelt out.
fn unknown(session: &Session, e: &Value) -> LensError {
    LensError::tool(format!("{} ({})", sanitize::joined(&Reply::error_summary(e)), why_unknown(&session.target)))
}

/// Why a server may not know a task another command started: a task lives in the session that
/// made it, and each command has a session of its own.
fn why_unknown(target: &Target) -> &'static str {
    match target {
        Target::Stdio(_) => {
            "a task lives in the session that made it: a stdio server's tasks end with the command that started it"
        }
        Target::Http(_) => {
            "a task may live only in the session that made it: the command that started it ended its HTTP \
             session, and a server that keeps tasks per session cannot show them to another command's"
        }
    }
}
