//! Tasks headless: `call --task --no-wait` prints the task it started, `mcplens task
//! get|result|cancel ID` and `mcplens task list` ask the server about its tasks.

use serde_json::{Map, Value, json};

use super::args::{TaskAction, TaskArgs};
use super::{out, raw_member, render, status_line};
use crate::call::Call;
use crate::error::{LensError, Result};
use crate::mcp::tasks::Task;
use crate::mcp::{CallOptions, Reply, ReplyBody, Session};
use crate::sanitize;

/// A task's status on stderr while it runs.
pub fn show(task: &Task, tty: bool) {
    status_line(&sanitize::line(&task.line()), tty);
}

/// Starts the tool as a task and prints what the server answered: the task (its id first), or
/// the error.
pub async fn start(
    session: &Session,
    tool: &str,
    arguments: Option<&Map<String, Value>>,
    json: bool,
    opts: &CallOptions,
) -> Result<i32> {
    let reply = session.start_task(tool, arguments, opts).await?;
    print(&reply, json, |r| Task::from_result(r).map(|t| vec![t]))
}

/// `mcplens task ...`
pub async fn command(t: &TaskArgs) -> Result<i32> {
    let mut options = t.target.connect_options()?;
    options.asks = Some(super::answer::Policy::new(&t.answers)?.start());
    let session = Session::connect(&t.target.target()?, options).await?;
    let result = run(&session, t).await;
    session.close().await;
    result
}

async fn run(session: &Session, t: &TaskArgs) -> Result<i32> {
    let opts = CallOptions::default();
    let id = t.id.clone().unwrap_or_default();
    let (method, params) = match t.action {
        TaskAction::Get => ("tasks/get", json!({"taskId": id})),
        TaskAction::Cancel => ("tasks/cancel", json!({"taskId": id})),
        TaskAction::List => ("tasks/list", json!({})),
        TaskAction::Result => return result(session, &id, t.json, &opts).await,
    };
    let reply = session.request_method(method, params, &opts, &mut |_| {}).await?;
    print(&reply, t.json, |r| match t.action {
        TaskAction::List => Some(r.get("tasks")?.as_array()?.iter().filter_map(Task::from_result).collect()),
        _ => Task::from_result(r).map(|t| vec![t]),
    })
}

/// The task's result, printed as `call` prints a tool's.
async fn result(session: &Session, id: &str, json: bool, opts: &CallOptions) -> Result<i32> {
    let reply = session.task_result(id, opts, &mut |_| {}).await?;
    if let ReplyBody::Error(e) = &reply.body {
        return Err(unknown(e));
    }
    let call = Call { tool: "", arguments: None, descriptor: None, hint: None };
    let answer = call.read(reply);
    let mut envelope = answer.envelope;
    if json {
        let _ = crate::json_out::write_envelope(std::io::stdout().lock(), &mut envelope);
    } else {
        out(&render::envelope(&envelope))?;
    }
    Ok(answer.status.exit_code())
}

/// The reply as sent (`--json`) or its tasks, a line each; an error reply is exit 1.
fn print(reply: &Reply, json: bool, tasks: impl Fn(&Value) -> Option<Vec<Task>>) -> Result<i32> {
    let result = match &reply.body {
        ReplyBody::Error(e) => return Err(unknown(e)),
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

/// A server's error about a task, with the usual cause spelt out.
fn unknown(e: &Value) -> LensError {
    LensError::tool(format!(
        "{} (a task lives in the session that made it: a stdio server's tasks end with the command that started it)",
        sanitize::line(&Reply::error_summary(e))
    ))
}
