//! The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`, what rmcp 3.9 speaks), beside
//! the tasks of 2025-11-25 (`tasks.rs`). The client declares the extension; a server then may
//! answer any `tools/call` with `resultType: "task"`. `tasks/get` is polled, and carries the
//! tool's result (or error) inline once the task ends, and the server's questions while it is
//! `input_required`: they are answered through the ask desk and sent with `tasks/update`.
//! `tasks/cancel` stops it. There is no `tasks/result` and no `tasks/list`.
//!
//! Which tasks a session speaks: the extension in the modern era, or when a legacy-era server
//! declares it; the 2025-11-25 tasks otherwise.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::era::Era;
use super::input::InputRequired;
use super::session::{CallOptions, Reply, ReplyBody, Session};
use super::tasks::Task;
use crate::error::{LensError, Result};
use crate::skeleton::Syntax;

/// The key servers declare the extension under (in `capabilities.extensions`).
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// A task of this session, for the TUI's list: what ran it, where it stands, how it ended.
#[derive(Debug, Clone)]
pub struct TaskEntry {
    pub id: String,
    pub tool: String,
    pub status: String,
    pub message: Option<String>,
    pub started: Instant,
    /// The final reply: the tool's result (or error), once the task ended.
    pub result: Option<Arc<String>>,
}

/// The session's tasks, newest last.
#[derive(Debug, Default)]
pub struct TaskBook(Mutex<Vec<TaskEntry>>);

impl TaskBook {
    pub fn all(&self) -> Vec<TaskEntry> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Records the task's status (a new task is added).
    pub fn note(&self, tool: &str, task: &Task) {
        let mut book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match book.iter_mut().find(|e| e.id == task.id) {
            Some(e) => {
                e.status = task.status.clone();
                e.message = task.message.clone();
            }
            None => book.push(TaskEntry {
                id: task.id.clone(),
                tool: tool.to_string(),
                status: task.status.clone(),
                message: task.message.clone(),
                started: Instant::now(),
                result: None,
            }),
        }
    }

    pub fn finish(&self, id: &str, result: Arc<String>) {
        let mut book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = book.iter_mut().find(|e| e.id == id) {
            e.result = Some(result);
        }
    }
}

impl Session {
    /// The session's tasks so far (both kinds), oldest first.
    pub fn session_tasks(&self) -> Vec<TaskEntry> {
        self.task_book.all()
    }

    /// True when tasks are the extension's (SEP-2663), not 2025-11-25's.
    pub fn tasks_extension(&self) -> bool {
        let declared = self.server.result.pointer("/capabilities/extensions").and_then(|e| e.get(EXTENSION));
        self.era() == Era::Modern || declared.is_some()
    }

    /// Follows a task the server made of a `tools/call` (`resultType: "task"`) to its end and
    /// returns the tool's result as a reply. Each status goes to `on_status`; questions are put
    /// to the user and answered with `tasks/update`; cancelling `opts` cancels the task.
    pub(crate) async fn follow_task(
        &self,
        tool: &str,
        created: &Value,
        opts: &CallOptions,
        on_status: &mut (dyn FnMut(&Task) + Send),
    ) -> Result<Reply> {
        let mut task = Task::from_result(created)
            .ok_or_else(|| LensError::connection("tools/call: a task result without taskId"))?;
        let cancel = opts.cancel.clone().unwrap_or_default();
        let mut answered = 0usize;
        let mut poller = super::task_poll::Poller::default();
        loop {
            self.task_book.note(tool, &task);
            on_status(&task);
            if task.ended() {
                return Err(LensError::tool(format!("task {} ended {} with no result", task.id, task.status)));
            }
            if task.status == "input_required" && answered >= super::input::MAX_ROUNDS {
                return Err(LensError::tool(format!(
                    "task {} asks again after {answered} answers; mcplens stopped following it (it runs on at the server: mcplens task cancel {})",
                    task.id, task.id
                )));
            }
            let wait = poller.next(&task).map_err(LensError::tool)?;
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = cancel.cancelled() => {
                    let plain = CallOptions { timeout: opts.timeout, cancel: None };
                    if let Ok(t) = self.cancel_task(&task.id, &plain).await {
                        self.task_book.note(tool, &t);
                        on_status(&t);
                    }
                    return Err(LensError::cancelled());
                }
            }
            let raw = self.send_raw("tasks/get", Some(json!({"taskId": task.id})), "tasks/get", opts).await?.0;
            let got = Reply::parse_with(raw.clone(), Duration::ZERO, self.options().max_depth, Syntax::Checked)?;
            let ReplyBody::Result(result) = &got.body else {
                return Ok(got);
            };
            task = Task::from_result(result)
                .ok_or_else(|| LensError::connection("tasks/get: the reply holds no task (no taskId)"))?;
            if let Some(reply) = self.ended_task(&task, &raw)? {
                self.task_book.note(tool, &task);
                // The list shows the tasks/get reply that carried the result, as sent.
                self.task_book.finish(&task.id, raw.clone());
                on_status(&task);
                return Ok(reply);
            }
            if task.status == "input_required" && answered < super::input::MAX_ROUNDS {
                answered += 1;
                self.task_book.note(tool, &task);
                on_status(&task);
                let asked = InputRequired::from_task(result);
                let responses = self.answer_inputs(&asked, "tasks/get", opts).await?;
                let params = json!({"taskId": task.id, "inputResponses": responses});
                self.send_raw("tasks/update", Some(params), "tasks/update", opts).await?;
            }
        }
    }

    /// The tool's reply of a task that ended with a result or an error inline (None while it
    /// runs). A cancelled task is an error of its own.
    fn ended_task(&self, task: &Task, raw: &str) -> Result<Option<Reply>> {
        #[derive(Deserialize)]
        struct Inline<'a> {
            #[serde(borrow, default)]
            result: Option<&'a RawValue>,
            #[serde(borrow, default)]
            error: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct Message<'a> {
            #[serde(borrow)]
            result: Inline<'a>,
        }
        if !task.ended() {
            return Ok(None);
        }
        if task.status == "cancelled" {
            return Err(LensError::cancelled());
        }
        let message: Message = crate::json_depth::parse_borrowed(raw)
            .map_err(|e| LensError::connection(format!("tasks/get: the reply cannot be read: {e}")))?;
        let text = match (message.result.result, message.result.error) {
            (Some(r), _) => format!(r#"{{"jsonrpc":"2.0","id":null,"result":{}}}"#, r.get()),
            (None, Some(e)) => format!(r#"{{"jsonrpc":"2.0","id":null,"error":{}}}"#, e.get()),
            (None, None) => {
                return Err(LensError::connection(format!(
                    "tasks/get: task {} is {} but carries neither result nor error",
                    task.id, task.status
                )));
            }
        };
        Reply::parse_with(Arc::new(text), Duration::ZERO, self.options().max_depth, Syntax::Checked).map(Some)
    }
}

impl InputRequired {
    /// The questions of an `input_required` task (`inputRequests` beside the task's fields).
    pub fn from_task(result: &Value) -> InputRequired {
        let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
        InputRequired { requests: requests.into_iter().collect(), state: None }
    }
}
