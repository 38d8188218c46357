//! The one error type the core returns, with the exit code each kind maps to.

use std::fmt;

/// What went wrong, in the terms of the documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad usage, arguments, config file or a command that cannot be found: exit 2.
    Usage,
    /// The server did not start, died, timed out or broke the protocol: exit 3.
    Connection,
    /// The tool ran and reported an error: exit 1.
    Tool,
    /// The user cancelled the call.
    Cancelled,
    /// The answer could not be written to stdout or stderr (disk full, I/O error, closed pipe);
    /// the headless commands pick the exit code (4, or 141 for a closed pipe).
    Output,
}

#[derive(Debug, Clone)]
pub struct LensError {
    pub kind: ErrorKind,
    pub message: String,
}

impl LensError {
    pub fn usage(message: impl Into<String>) -> Self {
        LensError { kind: ErrorKind::Usage, message: message.into() }
    }
    pub fn connection(message: impl Into<String>) -> Self {
        LensError { kind: ErrorKind::Connection, message: message.into() }
    }
    pub fn tool(message: impl Into<String>) -> Self {
        LensError { kind: ErrorKind::Tool, message: message.into() }
    }
    pub fn output(message: impl Into<String>) -> Self {
        LensError { kind: ErrorKind::Output, message: message.into() }
    }
    pub fn cancelled() -> Self {
        LensError { kind: ErrorKind::Cancelled, message: "cancelled".into() }
    }

    pub fn exit_code(&self) -> i32 {
        match self.kind {
            ErrorKind::Tool => 1,
            ErrorKind::Usage => 2,
            ErrorKind::Connection | ErrorKind::Cancelled => 3,
            ErrorKind::Output => 4,
        }
    }
}

impl fmt::Display for LensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LensError {}

pub type Result<T> = std::result::Result<T, LensError>;
