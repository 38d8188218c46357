//! The one call service: sends `tools/call`, reads the reply into the envelope (with what the
//! user taught), says how the call ended, and follows the pages. `mcplens call` and the TUI's
//! runs, next pages and all-pages all go through here.

pub mod output_schema;
mod pages;
mod status;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

pub use pages::{PageCount, PagerReport, Stopped, all_pages, all_pages_exact};
pub use status::{CallStatus, Purpose};

use crate::envelope::hints::Hint;
use crate::envelope::pager::infer_from_request;
use crate::envelope::{Data, Envelope, RawItems, ResponseType, normalize_taught};
use crate::error::LensError;
use crate::json::exact;
use crate::mcp::{CallOptions, Progress, Reply, ReplyBody, Session};

/// One call of a tool: what is sent, and what the answer is read with.
#[derive(Clone, Copy)]
pub struct Call<'a> {
    pub tool: &'a str,
    /// `None` sends no `arguments` member at all.
    pub arguments: Option<&'a Map<String, Value>>,
    /// The tool's descriptor (its input and output schemas), when the server listed it.
    pub descriptor: Option<&'a Value>,
    /// What the user taught about this tool's answers.
    pub hint: Option<&'a Hint>,
}

/// A reply read: the envelope, the reply itself (its body taken apart into the envelope), and
/// how the call ended.
#[derive(Debug)]
pub struct Answer {
    pub envelope: Envelope,
    /// The reply as received: `raw`, `elapsed` and `warnings`; its parsed body is now the
    /// envelope's (left `null` here, so a big result is not held twice).
    pub reply: Reply,
    /// The `error` member of a JSON-RPC error reply.
    pub rpc_error: Option<Value>,
    pub status: CallStatus,
}

/// A call carried out: the answer, or why there is none.
#[derive(Debug)]
pub struct Outcome {
    pub status: CallStatus,
    pub answer: Result<Answer, LensError>,
    pub elapsed: Duration,
}

impl<'a> Call<'a> {
    pub fn input_schema(&self) -> Option<&'a Value> {
        self.descriptor.and_then(|d| d.get("inputSchema"))
    }

    pub fn output_schema(&self) -> Option<&'a Value> {
        self.descriptor.and_then(|d| d.get("outputSchema"))
    }

    /// The same call with other arguments (the next page's).
    pub fn with_arguments(&self, arguments: &'a Map<String, Value>) -> Call<'a> {
        Call { arguments: Some(arguments), ..*self }
    }

    /// Sends the call; the reply as received.
    pub async fn send(
        &self,
        session: &Session,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> crate::error::Result<Reply> {
        if !self.requires_task() {
            return session.call_tool(self.tool, self.arguments.cloned(), opts, on_progress).await;
        }
        // The task's status stands in for progress: each poll is a step, its line the message.
        let mut polls = 0.0;
        let on_status = &mut |t: &crate::mcp::tasks::Task| {
            polls += 1.0;
            on_progress(&Progress { progress: polls, total: None, message: Some(t.line()) });
        };
        session.run_task(self.tool, self.arguments, opts, on_status).await
    }

    /// The tool says it can only run as a task (`execution.taskSupport: "required"`).
    pub fn requires_task(&self) -> bool {
        self.descriptor.and_then(|d| d.pointer("/execution/taskSupport")).and_then(Value::as_str) == Some("required")
    }

    /// The envelope of `raw` read again with its inexact number literals as stand-ins: the guide
    /// `json_out::write_envelope_exact` writes the digits back from. None when every number of
    /// the reply is written back as sent anyway (or it cannot be read). Never shown or sent.
    pub fn exact_guide(&self, raw: &std::sync::Arc<String>, max_depth: usize) -> Option<Envelope> {
        // Most replies hold no number serde_json would rewrite: one scan, not a second reading.
        if !crate::json::exact::may_hold_inexact(raw) {
            return None;
        }
        self.exact_reading(raw, max_depth)
    }

    /// Reads a reply (as [`Self::read`]) and, with `exact` (the depth limit), its guide (as
    /// [`Self::exact_guide`]). The scan for numbers serde_json would rewrite walks every byte
    /// of the reply and needs nothing the reading makes, so on a long reply it runs on a second
    /// thread while the reply is read.
    ///
    /// With `exact`, the reply is read for the last time: a long text that nothing else holds
    /// (the session's log let go of it, see `SessionLog::let_go`) is decoded in the reply's own
    /// buffer, and the answer then holds no raw reply.
    pub fn read_with_guide(&self, reply: Reply, exact: Option<usize>) -> (Answer, Option<Envelope>) {
        let Some(max_depth) = exact else { return (self.read(reply), None) };
        let inexact = || reply.elisions.known_inexact().unwrap_or_else(|| exact::may_hold_inexact_on_two(&reply.raw));
        if reply.elisions.has_long_text() && !inexact() {
            // The reply is not needed again (no guide to read from it): nothing may hold it
            // while its text is decoded, so the scan came first: beside the tap's parse of a
            // long reply, else here on both cores, not beside the reading.
            return (self.read_last(reply), None);
        }
        let raw = reply.raw.clone();
        let two_cores = crate::cores::two();
        let (inexact, answer) = if let Some(known) = reply.elisions.known_inexact() {
            (known, self.read_beside_guide(reply))
        } else if raw.len() < (1 << 20) || !two_cores {
            (crate::json::exact::may_hold_inexact(&raw), self.read_beside_guide(reply))
        } else {
            // The reading is the shorter walk: its thread then takes its share of the scan. A
            // scan that failed says "maybe": the reading with stand-ins decides.
            let (answer, _, inexact) = exact::scan_beside(&raw, || self.read_beside_guide(reply), || ());
            (inexact, answer)
        };
        let guide = if inexact { self.exact_reading(&raw, max_depth) } else { None };
        (answer, guide)
    }

    /// The guide of a reply that may hold numbers serde_json would rewrite: the reply read
    /// again with stand-ins for them.
    fn exact_reading(&self, raw: &std::sync::Arc<String>, max_depth: usize) -> Option<Envelope> {
        let (envelope, stand_ins) = crate::json::exact::reading_exact(|| {
            let reply = Reply::parse(raw.clone(), Duration::ZERO, max_depth).ok()?;
            Some(self.read(reply).envelope)
        });
        envelope.filter(|_| stand_ins > 0)
    }

    /// A next position serde_json would rewrite (`123456789012345678901`, `1e2`) is looked up as
    /// the server wrote it, in the reply read again with stand-ins (see `json::exact`), so the
    /// pager sends those very bytes back. Costs a second reading only for such a position.
    fn find_exact_position(&self, envelope: &mut Envelope, raw: &std::sync::Arc<String>) {
        let Some(p) = envelope.pagination.as_mut().filter(|p| p.position_is_inexact()) else { return };
        if crate::json::exact::active() {
            return;
        }
        let Some(serde_json::Value::Number(n)) = &p.next_offset else { return };
        // The reply was read within the session's depth limit already; stand-ins nest no deeper.
        let guide = self.exact_guide(raw, usize::MAX);
        let literal = guide.as_ref().and_then(|g| g.pagination.as_ref()).and_then(|g| g.next_offset.as_ref());
        p.exact_position = literal.and_then(|g| crate::json::exact::literal_for(n, g)).map(str::to_string);
    }

    /// Reads a reply into the envelope and says how the call ended.
    pub fn read(&self, reply: Reply) -> Answer {
        self.read_keeping(reply, Keep::Raw)
    }

    /// As [`Self::read`], for a caller that reads the reply's guide too (`call --json`): the
    /// numbers are written from the guide, so a list's records stay parsed values.
    fn read_beside_guide(&self, reply: Reply) -> Answer {
        self.read_keeping(reply, Keep::RawForGuide)
    }

    /// As [`Self::read`], for a caller that needs nothing of the raw reply afterwards: the
    /// answer's `reply.raw` is empty, and a long text is decoded in place when it can be.
    fn read_last(&self, reply: Reply) -> Answer {
        self.read_keeping(reply, Keep::Nothing)
    }

    fn read_keeping(&self, reply: Reply, keep: Keep) -> Answer {
        let rpc_error = match &reply.body {
            ReplyBody::Error(e) => Some(e.clone()),
            ReplyBody::Result(_) => None,
        };
        let reported = reply_status(&reply);
        // The envelope takes the parsed reply apart; a long list's records stay in the raw text.
        let Reply { raw, elapsed, body, elisions, warnings } = reply;
        // Not held while the envelope is read, so that a long text can take the reply's buffer.
        // Without it no next position is looked up exactly: one that needs it is a number
        // `may_hold_inexact` finds, and such a reply is read keeping its raw text.
        let raw = if keep != Keep::Nothing {
            raw
        } else {
            drop(raw);
            Arc::default()
        };
        let mut envelope = normalize_taught(self.tool, self.descriptor, body, elisions, self.hint);
        let empty = Map::new();
        infer_from_request(&mut envelope, self.input_schema(), self.arguments.unwrap_or(&empty));
        self.find_exact_position(&mut envelope, &raw);
        if keep == Keep::Raw {
            exact_data(self, &mut envelope, &raw);
        }
        let status = match reported {
            CallStatus::Ok if envelope.response_type == ResponseType::Error => CallStatus::ToolError,
            other => other,
        };
        let reply =
            Reply { raw, elapsed, body: ReplyBody::Result(Value::Null), elisions: Default::default(), warnings };
        Answer { envelope, reply, rpc_error, status }
    }

    /// Sends the call and reads its reply.
    pub async fn run(
        &self,
        session: &Session,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Outcome {
        let started = Instant::now();
        let sent = self.send(session, opts, on_progress).await;
        let elapsed = started.elapsed();
        match sent {
            Ok(reply) => {
                let answer = self.read(reply);
                Outcome { status: answer.status, answer: Ok(answer), elapsed }
            }
            Err(e) => Outcome { status: CallStatus::of_error(&e, session.is_closed()), answer: Err(e), elapsed },
        }
    }
}

/// What a reading keeps of the raw reply, and for what.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The raw reply, and a list's records as the server wrote their numbers.
    Raw,
    /// The raw reply, for a guide read from it afterwards.
    RawForGuide,
    /// Nothing: a long text may be decoded in the reply's own buffer.
    Nothing,
}

/// The numbers of a short reply as the server wrote them, when it holds some that serde_json
/// would rewrite (`100000000000000000001`, `1.10`): a list's records are kept as text with those
/// numbers, as a long list's are read from the reply's text (the table, a record opened, the
/// pages and the printed envelope then show the digits sent, whatever the list's length); any
/// other data is kept beside its value as text with them (`Envelope::data_exact`).
fn exact_data(call: &Call, envelope: &mut Envelope, raw: &Arc<String>) {
    if raw.is_empty() || exact::active() || envelope.data.is_null() {
        return;
    }
    let Data::Value(value) = &envelope.data else { return };
    // The reply was read within the session's depth limit already; stand-ins nest no deeper.
    let Some(guide) = call.exact_guide(raw, usize::MAX) else { return };
    let Data::Value(guide) = &guide.data else { return };
    match (value, guide) {
        (Value::Array(records), Value::Array(guides)) => {
            envelope.data = Data::Items(RawItems::from_guided(records, guides));
        }
        (value, guide) => {
            let text = serde_json::to_string(&exact::Guided { value, guide: Some(guide) });
            envelope.data_exact = text.ok().map(Arc::from);
        }
    }
}

/// How a call ended, from its reply alone (before it is read into an envelope): a JSON-RPC
/// error, a result marked `isError`, or ok.
pub fn reply_status(reply: &Reply) -> CallStatus {
    match &reply.body {
        ReplyBody::Error(_) => CallStatus::RpcError,
        ReplyBody::Result(r) if r.get("isError").and_then(Value::as_bool) == Some(true) => CallStatus::ToolError,
        ReplyBody::Result(_) => CallStatus::Ok,
    }
}

impl CallStatus {
    /// The exit code of `mcplens call` for a call that got a reply (see the README).
    pub fn exit_code(self) -> i32 {
        match self {
            CallStatus::Ok | CallStatus::Partial => 0,
            CallStatus::ToolError | CallStatus::RpcError => 1,
            CallStatus::Cancelled | CallStatus::Timeout | CallStatus::ServerGone | CallStatus::Failed => 3,
        }
    }
}

#[cfg(test)]
mod tests;
