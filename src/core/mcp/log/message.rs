//! What the log knows of a JSON-RPC message beyond its text: direction, id, method, its pair and
//! the latency, and for a server log message (`notifications/message`) its level and logger.

use std::sync::Arc;
use std::time::Duration;

/// A server log message's severity (RFC 5424, as MCP names them), least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl Level {
    pub const ALL: [Level; 8] = [
        Level::Debug,
        Level::Info,
        Level::Notice,
        Level::Warning,
        Level::Error,
        Level::Critical,
        Level::Alert,
        Level::Emergency,
    ];

    pub fn parse(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.label().eq_ignore_ascii_case(s))
    }

    pub fn label(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Notice => "notice",
            Level::Warning => "warning",
            Level::Error => "error",
            Level::Critical => "critical",
            Level::Alert => "alert",
            Level::Emergency => "emergency",
        }
    }

    /// The next level up, or None after the last (a filter cycles through them).
    pub fn next(self) -> Option<Level> {
        Level::ALL.into_iter().find(|l| *l > self)
    }
}

/// What a JSON-RPC message is, from its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Request,
    Notification,
    Reply,
    Error,
}

/// The fields the wire tap read from a message's start, handed to the log (the log never parses
/// a message itself: a 100 MB reply is read once, by the tap).
#[derive(Debug, Clone, Default)]
pub struct Wire<'a> {
    /// The id's raw JSON text.
    pub id: Option<&'a str>,
    pub method: Option<&'a str>,
    pub error: bool,
    pub level: Option<Level>,
    pub logger: Option<String>,
}

/// A message changed at a breakpoint of `mcplens proxy` on its way: the one its side sent, or
/// the edit the other side got in its place (naming the original's entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    Original,
    Of(u64),
}

/// A protocol entry's account of its message.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageInfo {
    pub role: Role,
    /// The id as a key (`1` and `"1"` alike).
    pub id: Option<Arc<str>>,
    /// The method; a reply gets its request's.
    pub method: Option<Arc<str>>,
    /// For a reply: its request's entry (`seq`).
    pub reply_to: Option<u64>,
    /// For a request: its reply's entry, once it came.
    pub reply: Option<u64>,
    /// For a reply: the time since its request.
    pub latency: Option<Duration>,
    pub level: Option<Level>,
    pub logger: Option<Arc<str>>,
    pub edit: Option<Edit>,
}

impl MessageInfo {
    pub(super) fn new(wire: &Wire) -> MessageInfo {
        let role = match (wire.method.is_some(), wire.id.is_some()) {
            (true, true) => Role::Request,
            (true, false) => Role::Notification,
            _ if wire.error => Role::Error,
            _ => Role::Reply,
        };
        MessageInfo {
            role,
            id: wire.id.map(|raw| Arc::from(crate::mcp::wire::id_key(raw))),
            method: wire.method.map(Arc::from),
            reply_to: None,
            reply: None,
            latency: None,
            level: wire.level,
            logger: wire.logger.as_deref().map(Arc::from),
            edit: None,
        }
    }

    pub fn is_reply(&self) -> bool {
        matches!(self.role, Role::Reply | Role::Error)
    }

    /// The entry this one pairs with (a request's reply, a reply's request).
    pub fn paired(&self) -> Option<u64> {
        self.reply_to.or(self.reply)
    }
}
