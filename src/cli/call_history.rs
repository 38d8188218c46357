//! `mcplens call` writes each call into the history the TUI reads for the same server (the same
//! file, the same entry, secrets masked the same way): a call tried in a script is there to
//! re-run from the TUI's history.

use std::time::Instant;

use serde_json::{Map, Value};

use crate::call::{CallStatus, Purpose};
use crate::dirs::now_secs;
use crate::history::{Entry, History};
use crate::mcp::Session;

/// Appends the call to the server's history file. A history that cannot be written costs the
/// call nothing: the TUI says why when it opens the same file.
pub fn record(
    session: &Session,
    tool: &str,
    arguments: Option<&Map<String, Value>>,
    started: Instant,
    (status, purpose): (CallStatus, Purpose),
) {
    let arguments = Value::Object(arguments.cloned().unwrap_or_default());
    let entry = Entry {
        tool: tool.to_string(),
        arguments: crate::envelope::pager::without_stand_ins(&arguments),
        at: now_secs(),
        duration_ms: started.elapsed().as_millis() as u64,
        status,
        purpose,
    };
    History::to_append(&session.target.label()).append(entry, session.log().redactor());
}
