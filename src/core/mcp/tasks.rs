//! Tools run as tasks (the tasks of protocol 2025-11-25): a `tools/call` with a `task` member
//! answers at once with a task, which is polled with `tasks/get` until it ends; `tasks/result`
//! then gives the tool's result (and, while the task needs input, carries the server's
//! elicitation and sampling requests). `tasks/cancel` stops it, `tasks/list` lists them.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::session::{CallOptions, Progress, Reply, ReplyBody, Session};
use crate::error::{LensError, Result};

/// A task as the server last described it.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub id: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled` (or what the server
    /// sent).
    pub status: String,
    pub message: Option<String>,
    /// How often the server wants to be polled.
    pub poll: Duration,
}

impl Task {
    /// The task in a result: `{"task": {...}}` (a task-augmented call) or the task's fields at
    /// the top (`tasks/get`, `tasks/cancel`).
    pub fn from_result(result: &Value) -> Option<Task> {
        let t = result.get("task").unwrap_or(result);
        let id = match t.get("taskId")? {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let text = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
        // 2025-11-25 says pollInterval, the extension (SEP-2663) pollIntervalMs.
        let poll = t.get("pollInterval").or_else(|| t.get("pollIntervalMs")).and_then(Value::as_f64).unwrap_or(1000.0);
        Some(Task {
            id,
            status: text("status").unwrap_or_else(|| "unknown".into()),
            message: text("statusMessage"),
            // A server's interval is bounded: no busy loop, no hour-long wait.
            poll: Duration::from_millis(poll.clamp(100.0, 10_000.0) as u64),
        })
    }

    /// The task will not change again.
    pub fn ended(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }

    /// One line: id, status and message (not sanitized: callers do).
    pub fn line(&self) -> String {
        let msg = self.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
        format!("task {} {}{msg}", self.id, self.status)
    }
}

/// The task in a reply, or why there is none (an error reply, or a server that ran the tool at
/// once and answered with its result).
fn task_of(reply: &Reply, what: &str) -> Result<Task> {
    match &reply.body {
        ReplyBody::Result(r) => Task::from_result(r)
            .ok_or_else(|| LensError::connection(format!("{what}: the reply holds no task (no taskId)"))),
        ReplyBody::Error(e) => Err(LensError::tool(format!("{what}: {}", Reply::error_summary(e)))),
    }
}

impl Session {
    /// Starts `tool` as a task; the reply is the server's answer (a task, or an error).
    pub async fn start_task(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
        opts: &CallOptions,
    ) -> Result<Reply> {
        let mut params = json!({"name": tool, "task": {}});
        if let Some(a) = arguments {
            params["arguments"] = Value::Object(a.clone());
        }
        self.request_method("tools/call", params, opts, &mut |_| {}).await
    }

    pub async fn get_task(&self, id: &str, opts: &CallOptions) -> Result<Task> {
        let reply = self.request_method("tasks/get", json!({"taskId": id}), opts, &mut |_| {}).await?;
        task_of(&reply, "tasks/get")
    }

    /// Cancels a task; the extension (SEP-2663) answers with a bare acknowledgement, read as the
    /// task now cancelled.
    pub async fn cancel_task(&self, id: &str, opts: &CallOptions) -> Result<Task> {
        let reply = self.request_method("tasks/cancel", json!({"taskId": id}), opts, &mut |_| {}).await?;
        let task = match (&reply.body, self.tasks_extension()) {
            (ReplyBody::Result(r), true) if r.get("taskId").is_none() => {
                Ok(Task { id: id.to_string(), status: "cancelled".into(), message: None, poll: Duration::from_secs(1) })
            }
            _ => task_of(&reply, "tasks/cancel"),
        }?;
        let tool = self.session_tasks().into_iter().find(|e| e.id == id).map(|e| e.tool).unwrap_or_default();
        self.task_book.note(&tool, &task);
        Ok(task)
    }

    /// The tool's result of a task (the server holds it until the task ends).
    pub async fn task_result(
        &self,
        id: &str,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Result<Reply> {
        self.request_method("tasks/result", json!({"taskId": id}), opts, on_progress).await
    }

    /// Whether the server says it runs tools as tasks: 2025-11-25's `tasks` capability, or the
    /// tasks extension (always spoken in the modern era).
    pub fn offers_tasks(&self) -> bool {
        let declared = self.server.result.pointer("/capabilities/tasks").is_some_and(|t| !t.is_null());
        declared || self.tasks_extension()
    }

    /// Why `tasks/list` is not asked, when it is not: the server offers no tasks, or offers them
    /// without `list` in its `tasks` capability (the tasks extension has no `tasks/list`).
    pub fn tasks_unlisted(&self) -> Option<String> {
        let tasks = self.server.result.pointer("/capabilities/tasks");
        if tasks.and_then(|t| t.get("list")).is_some() {
            return None;
        }
        Some(if self.offers_tasks() {
            "the server does not list its tasks (no tasks.list in its capabilities)".into()
        } else {
            "the server does not offer tasks (no tasks capability)".into()
        })
    }

    /// Runs `tool` as a task to its end: starts it, polls it (each status to `on_status`), and
    /// returns its result. A task that needs input is handed to `tasks/result`, during which the
    /// server asks (elicitation, sampling) through the session's ask desk. Cancelling `opts`
    /// cancels the task.
    pub async fn run_task(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
        opts: &CallOptions,
        on_status: &mut (dyn FnMut(&Task) + Send),
    ) -> Result<Reply> {
        if self.tasks_extension() {
            // The extension's server decides: a plain call, followed if it becomes a task.
            return self.call_tool_following(tool, arguments.cloned(), opts, &mut |_| {}, Some(on_status)).await;
        }
        let started = self.start_task(tool, arguments, opts).await?;
        let mut task = match &started.body {
            // A server may answer a task-augmented call with an error, or run it at once.
            ReplyBody::Error(_) => return Ok(started),
            ReplyBody::Result(r) if r.get("task").is_none() => return Ok(started),
            ReplyBody::Result(_) => task_of(&started, "tools/call")?,
        };
        self.task_book.note(tool, &task);
        on_status(&task);
        let cancel = opts.cancel.clone().unwrap_or_default();
        let mut poller = super::task_poll::Poller::default();
        while !task.ended() && task.status != "input_required" {
            let wait = poller.next(&task).map_err(LensError::tool)?;
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = cancel.cancelled() => {
                    let plain = CallOptions { timeout: opts.timeout, cancel: None };
                    if let Ok(t) = self.cancel_task(&task.id, &plain).await {
                        on_status(&t);
                    }
                    return Err(LensError::cancelled());
                }
            }
            task = self.get_task(&task.id, opts).await?;
            self.task_book.note(tool, &task);
            on_status(&task);
        }
        let reply = self.task_result(&task.id, opts, &mut |_| {}).await?;
        self.task_book.finish(&task.id, reply.raw.clone());
        Ok(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_read_from_a_created_result_or_a_status() {
        let created = json!({"task": {"taskId": "t1", "status": "working", "pollInterval": 5, "ttl": 60000}});
        let t = Task::from_result(&created).unwrap_or_else(|| panic!("no task"));
        assert_eq!((t.id.as_str(), t.status.as_str(), t.poll), ("t1", "working", Duration::from_millis(100)));
        let got = json!({"taskId": 7, "status": "completed", "statusMessage": "done", "pollInterval": 1e12});
        let t = Task::from_result(&got).unwrap_or_else(|| panic!("no task"));
        assert_eq!((t.id.as_str(), t.ended(), t.poll), ("7", true, Duration::from_secs(10)));
        assert_eq!(t.line(), "task 7 completed: done");
        assert!(Task::from_result(&json!({"content": []})).is_none());
    }
}
