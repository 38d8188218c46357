//! A log entry's text: its own copy, or a reply the tap keeps, shared rather than copied.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Reads as a `str`. A received message short enough to be logged whole and holding no secret
/// is the same bytes as the reply the tap keeps: the entry shares that reply (a 1,234-tool
/// listing logged 0.4 MB of copies otherwise).
#[derive(Clone)]
pub struct LogText(Repr);

#[derive(Clone)]
enum Repr {
    Own(Arc<str>),
    Reply(Arc<String>),
}

impl LogText {
    /// The whole of `reply`, shared.
    pub fn shared(reply: &Arc<String>) -> Self {
        LogText(Repr::Reply(Arc::clone(reply)))
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Own(s) => s,
            Repr::Reply(s) => s.as_str(),
        }
    }
}

impl Deref for LogText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for LogText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for LogText {
    fn from(s: &str) -> Self {
        LogText(Repr::Own(Arc::from(s)))
    }
}

impl From<String> for LogText {
    fn from(s: String) -> Self {
        LogText(Repr::Own(Arc::from(s)))
    }
}

impl PartialEq for LogText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl fmt::Debug for LogText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for LogText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_reply_reads_as_its_text_and_is_not_copied() {
        let reply = Arc::new(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_string());
        let t = LogText::shared(&reply);
        assert_eq!(&*t, reply.as_str());
        assert!(std::ptr::eq(t.as_ptr(), reply.as_ptr()));
        assert_eq!(t, LogText::from(reply.as_str()));
    }
}
