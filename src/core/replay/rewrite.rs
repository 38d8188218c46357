//! Changing one member of a recorded message's bytes and nothing else (the reply's id, the
//! progress token of a notification), so a replayed reply is the server's bytes.

use crate::skeleton::member_span;

/// `raw` with the value of its top-level member `key` replaced by `with`; none if it has none.
pub fn replace(raw: &str, key: &str, with: &str) -> Option<String> {
    let (start, end) = member_span(raw, key)?;
    Some(splice(raw, start, end, with))
}

/// `raw` with the value of `outer.inner` replaced by `with`; none if it has none.
pub fn replace_nested(raw: &str, outer: &str, inner: &str, with: &str) -> Option<String> {
    let (os, oe) = member_span(raw, outer)?;
    let (is, ie) = member_span(raw.get(os..oe)?, inner)?;
    Some(splice(raw, os + is, os + ie, with))
}

/// The text of `raw`'s top-level member `key`, as sent.
pub fn member<'a>(raw: &'a str, key: &str) -> Option<&'a str> {
    let (start, end) = member_span(raw, key)?;
    raw.get(start..end)
}

fn splice(raw: &str, start: usize, end: usize, with: &str) -> String {
    let mut out = String::with_capacity(raw.len() + with.len());
    out.push_str(&raw[..start]);
    out.push_str(with);
    out.push_str(&raw[end..]);
    out
}
