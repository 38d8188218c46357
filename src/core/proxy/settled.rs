//! Requests the proxy settled itself at a breakpoint: dropped, or answered in the other side's
//! place. The other side never got them, so a cancellation of one (`notifications/cancelled`) is
//! the proxy's to take: passed on, it would name a request its receiver never saw.

use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;

/// How many settled requests are remembered; past it the oldest are forgotten (a cancellation
/// of one of those is passed on, as any other).
const MAX_SETTLED: usize = 1024;

/// A request settled at a breakpoint: the way it was going, its id (as JSON text), and how it was
/// settled (`dropped`, `answered`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub to_server: bool,
    pub id: String,
    pub how: &'static str,
}

/// The settled requests, oldest first.
#[derive(Default)]
pub(super) struct SettledList(VecDeque<Settled>);

impl SettledList {
    pub(super) fn add(&mut self, s: Settled) {
        if self.0.len() >= MAX_SETTLED {
            self.0.pop_front();
        }
        self.0.push_back(s);
    }

    /// The settled request `id` that went the way `to_server` says, taken (it is cancelled once).
    pub(super) fn take(&mut self, to_server: bool, id: &str) -> Option<Settled> {
        let at = self.0.iter().position(|s| s.to_server == to_server && s.id == id)?;
        self.0.remove(at)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How a verdict settles a request: none when the request goes on to its receiver.
pub(super) fn how(verdict: &super::Verdict) -> Option<&'static str> {
    match verdict {
        super::Verdict::Drop => Some("dropped"),
        super::Verdict::Answer(_) => Some("answered"),
        _ => None,
    }
}

/// The id of the request `line` cancels, when it is a `notifications/cancelled`.
pub(super) fn cancelled_id(line: &[u8]) -> Option<Value> {
    #[derive(Deserialize)]
    struct Cancel {
        method: Option<String>,
        id: Option<Value>,
        params: Option<Params>,
    }
    #[derive(Deserialize)]
    struct Params {
        #[serde(rename = "requestId")]
        request_id: Option<Value>,
    }
    let c: Cancel = serde_json::from_slice(line).ok()?;
    if c.method.as_deref() != Some("notifications/cancelled") || c.id.is_some() {
        return None;
    }
    c.params?.request_id.filter(|i| !i.is_null())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancellation_names_its_request() {
        let c = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a-1"}}"#;
        assert_eq!(cancelled_id(c), Some(Value::from("a-1")));
        let c = br#"{"method":"notifications/cancelled","params":{"requestId":7,"reason":"x"}}"#;
        assert_eq!(cancelled_id(c), Some(Value::from(7)));
        assert_eq!(cancelled_id(br#"{"method":"notifications/progress","params":{"requestId":7}}"#), None);
        assert_eq!(cancelled_id(br#"{"method":"notifications/cancelled","params":{}}"#), None);
        assert_eq!(cancelled_id(b"[1,2]"), None);
    }

    #[test]
    fn the_list_is_bounded_and_each_is_taken_once() {
        let mut l = SettledList::default();
        for i in 0..MAX_SETTLED + 1 {
            l.add(Settled { to_server: true, id: i.to_string(), how: "dropped" });
        }
        assert!(l.take(true, "0").is_none(), "the oldest is forgotten past the bound");
        assert!(l.take(false, "1").is_none(), "the other way is another request");
        assert!(l.take(true, "1").is_some());
        assert!(l.take(true, "1").is_none());
    }
}
