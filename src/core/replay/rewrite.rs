//! Changing one member of a recorded message's bytes and nothing else (the reply's id, the
//! progress token of a notification), so a replayed reply is the server's bytes. The recorded
//! bytes are shared, never copied: a client asking many times for a large reply (or many clients
//! that never read their answers) holds only the changed member per answer.

use std::fmt;
use std::sync::Arc;

use crate::skeleton::member_span;

/// One line to send: recorded bytes with at most one span replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    raw: Arc<str>,
    /// The span of `raw` replaced by `with` (empty at 0: nothing replaced).
    start: usize,
    end: usize,
    with: String,
}

impl Line {
    /// A line of our own (an error reply).
    pub fn plain(text: String) -> Line {
        Line { raw: Arc::from(""), start: 0, end: 0, with: text }
    }

    /// `raw` as recorded.
    pub fn recorded(raw: &Arc<str>) -> Line {
        Line { raw: raw.clone(), start: 0, end: 0, with: String::new() }
    }

    /// The bytes, in order: before the span, the replacement, after it.
    pub fn parts(&self) -> [&[u8]; 3] {
        let before = self.raw.get(..self.start).unwrap_or_default();
        let after = self.raw.get(self.end..).unwrap_or_default();
        [before.as_bytes(), self.with.as_bytes(), after.as_bytes()]
    }

    pub fn len(&self) -> usize {
        self.parts().iter().map(|p| p.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn contains(&self, text: &str) -> bool {
        self.to_string().contains(text)
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in self.parts() {
            f.write_str(std::str::from_utf8(p).unwrap_or_default())?;
        }
        Ok(())
    }
}

impl PartialEq<&str> for Line {
    fn eq(&self, other: &&str) -> bool {
        let mut rest = other.as_bytes();
        for p in self.parts() {
            let Some(tail) = rest.strip_prefix(p) else { return false };
            rest = tail;
        }
        rest.is_empty()
    }
}

/// `raw` with the value of its top-level member `key` replaced by `with`; none if it has none.
pub fn replace(raw: &Arc<str>, key: &str, with: &str) -> Option<Line> {
    let (start, end) = member_span(raw, key)?;
    Some(Line { raw: raw.clone(), start, end, with: with.to_string() })
}

/// `raw` with the value of `outer.inner` replaced by `with`; none if it has none.
pub fn replace_nested(raw: &Arc<str>, outer: &str, inner: &str, with: &str) -> Option<Line> {
    let (os, oe) = member_span(raw, outer)?;
    let (is, ie) = member_span(raw.get(os..oe)?, inner)?;
    Some(Line { raw: raw.clone(), start: os + is, end: os + ie, with: with.to_string() })
}

/// The text of `raw`'s top-level member `key`, as sent.
pub fn member<'a>(raw: &'a str, key: &str) -> Option<&'a str> {
    let (start, end) = member_span(raw, key)?;
    raw.get(start..end)
}
