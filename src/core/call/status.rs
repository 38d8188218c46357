//! How a call ended and what it was for, as types: the history, the TUI and the exit code read
//! these instead of comparing strings.

use serde::{Deserialize, Serialize};

use crate::error::{ErrorKind, LensError};

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallStatus {
    /// The tool answered and did not report an error.
    Ok,
    /// Every page was asked for but not every one came (a page cap, a failed page).
    Partial,
    /// The tool ran and reported an error (`isError`, or an answer read as an error).
    ToolError,
    /// The server answered with a JSON-RPC error.
    RpcError,
    /// No reply within the timeout.
    Timeout,
    /// The user cancelled the call.
    Cancelled,
    /// The server exited or closed the connection.
    ServerGone,
    /// Anything else that left no reply (an unreadable reply, a transport error).
    Failed,
}

impl CallStatus {
    /// The word the history file and the history pane use.
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Ok => "ok",
            CallStatus::Partial => "partial",
            CallStatus::ToolError => "tool error",
            CallStatus::RpcError => "rpc error",
            CallStatus::Timeout => "timeout",
            CallStatus::Cancelled => "cancelled",
            CallStatus::ServerGone => "server gone",
            CallStatus::Failed => "failed",
        }
    }

    /// The call did what was asked (a partial all-pages result is still a good answer).
    pub fn is_success(self) -> bool {
        matches!(self, CallStatus::Ok | CallStatus::Partial)
    }

    /// Why a call left no reply. `closed` says whether the session is gone after it.
    pub fn of_error(e: &LensError, closed: bool) -> CallStatus {
        match e.kind {
            ErrorKind::Cancelled => CallStatus::Cancelled,
            _ if closed => CallStatus::ServerGone,
            // As the session words a transport that ended mid-request (`Session::service_error`);
            // over HTTP the session is not marked closed by then.
            _ if e.message.contains(" closed the connection during ") => CallStatus::ServerGone,
            // The session words its own timeout this way (`Session::request`).
            _ if e.message.contains(" timed out after ") => CallStatus::Timeout,
            _ => CallStatus::Failed,
        }
    }

    /// Reads a status as written by any version: older files say `ok (all pages)`.
    pub fn parse(s: &str) -> (CallStatus, Option<Purpose>) {
        let (word, purpose) = match s.strip_suffix(" (all pages)") {
            Some(w) => (w, Some(Purpose::AllPages)),
            None => (s, None),
        };
        let status = match word {
            "ok" => CallStatus::Ok,
            "partial" => CallStatus::Partial,
            "tool error" => CallStatus::ToolError,
            "rpc error" => CallStatus::RpcError,
            "timeout" => CallStatus::Timeout,
            "cancelled" => CallStatus::Cancelled,
            "server gone" => CallStatus::ServerGone,
            _ => CallStatus::Failed,
        };
        (status, purpose)
    }
}

impl std::fmt::Display for CallStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for CallStatus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for CallStatus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(CallStatus::parse(&s).0)
    }
}

/// What a call was for: a new result, the next page of the shown one, or every page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    #[default]
    New,
    NextPage,
    AllPages,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_closed_mid_request_is_the_server_gone() {
        let e = LensError::connection("the server closed the connection during tools/call echo");
        assert_eq!(CallStatus::of_error(&e, false), CallStatus::ServerGone);
        let e = LensError::connection("tools/call echo timed out after 5s with no reply");
        assert_eq!(CallStatus::of_error(&e, false), CallStatus::Timeout);
    }

    #[test]
    fn every_status_reads_back_as_written() {
        use CallStatus::*;
        for s in [Ok, Partial, ToolError, RpcError, Timeout, Cancelled, ServerGone, Failed] {
            assert_eq!(CallStatus::parse(s.as_str()), (s, None));
        }
    }

    #[test]
    fn old_all_pages_statuses_are_read_as_a_status_and_a_purpose() {
        assert_eq!(CallStatus::parse("ok (all pages)"), (CallStatus::Ok, Some(Purpose::AllPages)));
        assert_eq!(CallStatus::parse("partial (all pages)"), (CallStatus::Partial, Some(Purpose::AllPages)));
        assert_eq!(CallStatus::parse("something new"), (CallStatus::Failed, None));
    }

    #[test]
    fn errors_are_told_apart() {
        let timeout = LensError::connection("tools/call x timed out after 60s with no reply");
        assert_eq!(CallStatus::of_error(&timeout, false), CallStatus::Timeout);
        assert_eq!(CallStatus::of_error(&timeout, true), CallStatus::ServerGone);
        assert_eq!(CallStatus::of_error(&LensError::cancelled(), true), CallStatus::Cancelled);
        assert_eq!(CallStatus::of_error(&LensError::connection("unreadable"), false), CallStatus::Failed);
    }
}
