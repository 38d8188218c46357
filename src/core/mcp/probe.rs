//! What the tap reads of every message the server sends: its top-level `id`, `method`,
//! `result`, `error` and `params`, as the text the server wrote (the method decoded).
//!
//! A message is read in one walk that checks its syntax and passes its top-level members
//! (`json::valid`): serde_json, reading the same into borrowed raw values, walks a long `result` a
//! token at a time to check it, and on a long reply that was the longest walk the tap made. What
//! the walk leaves to serde_json, which reads it as it always did and words any fault: a message
//! that is not JSON or not an object, a key or a method written with escapes, a member it knows
//! given twice (serde_json refuses that), a method that is not a string.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// A message's members as the tap reads them; `null` reads as absent, as serde_json reads it
/// into an `Option`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Probe<'a> {
    pub(super) id: Option<&'a str>,
    pub(super) method: Option<Cow<'a, str>>,
    pub(super) result: Option<&'a str>,
    pub(super) error: Option<&'a str>,
    pub(super) params: Option<&'a str>,
}

#[derive(Deserialize)]
struct Parsed<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

impl<'a> Probe<'a> {
    /// `line` read as a JSON-RPC message, or serde_json's word on why it is not one.
    pub(super) fn read(line: &'a str) -> Result<Probe<'a>, serde_json::Error> {
        Probe::read_meeting(line, None)
    }

    /// As [`Self::read`], its walk sharing a long array with a second thread (see
    /// `json::valid::Meet`).
    pub(super) fn read_meeting(
        line: &'a str,
        meet: Option<&crate::json::valid::Meet>,
    ) -> Result<Probe<'a>, serde_json::Error> {
        match Probe::walked(line, meet) {
            Some(p) => Ok(p),
            None => Probe::parsed(line),
        }
    }

    fn parsed(line: &'a str) -> Result<Probe<'a>, serde_json::Error> {
        let p: Parsed = serde_json::from_str(line)?;
        Ok(Probe {
            id: p.id.map(RawValue::get),
            method: p.method,
            result: p.result.map(RawValue::get),
            error: p.error.map(RawValue::get),
            params: p.params.map(RawValue::get),
        })
    }

    /// The message from one walk of it, when the walk can say all that serde_json would.
    fn walked(line: &'a str, meet: Option<&crate::json::valid::Meet>) -> Option<Probe<'a>> {
        if !line.trim_start().starts_with('{') {
            return None;
        }
        let mut probe = Probe::default();
        let mut seen = [false; 5];
        for m in crate::json::valid::members_with(line, meet)? {
            let at = match m.key {
                "\"id\"" => 0,
                "\"method\"" => 1,
                "\"result\"" => 2,
                "\"error\"" => 3,
                "\"params\"" => 4,
                key if key.contains('\\') => return None,
                _ => continue,
            };
            if std::mem::replace(&mut seen[at], true) {
                return None;
            }
            let value = (m.value != "null").then_some(m.value);
            match at {
                0 => probe.id = value,
                1 => {
                    probe.method = match value {
                        Some(v) => Some(Cow::Borrowed(plain_string(v)?)),
                        None => None,
                    }
                }
                2 => probe.result = value,
                3 => probe.error = value,
                _ => probe.params = value,
            }
        }
        Some(probe)
    }
}

/// The characters of a string literal written without escapes; None for any other literal.
fn plain_string(literal: &str) -> Option<&str> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::fuzzing::Mix;

    /// The walk reads what serde_json reads, or leaves the message to it.
    fn same_as_serde(line: &str) -> bool {
        let walked = Probe::walked(line, None);
        let parsed = Probe::parsed(line);
        if let Some(w) = &walked {
            assert_eq!(Some(w), parsed.as_ref().ok(), "{line:?}");
        }
        walked.is_some()
    }

    /// A long reply read while a second thread checks its long array ahead (as the tap reads
    /// one beside its skeleton scan) reads as serde_json reads it, met or not.
    #[test]
    fn a_long_reply_read_with_help_reads_the_same() {
        let records: Vec<String> =
            (0..60_000).map(|i| format!(r#"{{"id": {i}, "name": "n{i}", "t": [1, 2]}}"#)).collect();
        for tail in ["]}}", "}}}"] {
            let line = format!(r#"{{"jsonrpc": "2.0", "id": 7, "result": {{"items": [{}{tail}"#, records.join(", "));
            let meet = crate::json::valid::Meet::default();
            let read = std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    meet.help(&line);
                });
                Probe::read_meeting(&line, Some(&meet))
            });
            assert_eq!(read.ok(), Probe::parsed(&line).ok(), "{tail}");
        }
    }

    #[test]
    fn reads_messages_as_serde_json_does() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\"b"}]}}"#,
            r#" {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}} "#,
            r#"{"id": "x", "error": {"code": -32601, "message": "no"}}"#,
            r#"{"id": null, "method": null, "result": null, "error": null, "params": null}"#,
            r#"{"other": {"id": 3}, "id": [1, {"a": 2}]}"#,
            "{}",
        ] {
            assert!(same_as_serde(line), "left to serde: {line}");
        }
        for line in [
            r#"{"id": 1, "id": 2}"#,
            r#"{"id": null, "id": 2}"#,
            r#"{"\u0069d": 1}"#,
            r#"{"method": "a\/b", "id": 1}"#,
            r#"{"method": 5}"#,
            "[1]",
            r#"{"id": 1,}"#,
            "nul",
            "",
        ] {
            assert!(!same_as_serde(line), "walked: {line}");
        }
    }

    #[test]
    fn reads_random_messages_as_serde_json_does() {
        let pieces = [
            "\"id\": 1",
            "\"id\": \"s\"",
            "\"id\": null",
            "\"method\": \"m\"",
            "\"method\": \"\\u0041\"",
            "\"method\": 2",
            "\"result\": {\"a\": [1, \"}\"]}",
            "\"error\": {}",
            "\"params\": []",
            "\"x\": 1",
            "\"\\u0069d\": 1",
            ", ",
            ",",
            " ",
            "{",
            "}",
            "null",
        ];
        let mut mix = Mix::new(0x9e37_79b9_7f4a_7c15);
        let mut walked = 0;
        for _ in 0..50_000 {
            walked += usize::from(same_as_serde(&format!("{{{}}}", mix.text(&pieces, 10))));
        }
        assert!(walked > 1_000, "{walked} walked");
    }
}
