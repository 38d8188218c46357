//! Breakpoints: a watcher names a method or a tool, and the next messages that match (a request
//! or notification of that method, a `tools/call` of that tool, or the reply to one) are held
//! until the watcher sends them as they are, edited, drops them or answers them itself. The
//! direction holding a message waits behind it, so released messages keep their order. A request
//! dropped or answered at a breakpoint is settled: its cancellation goes no further.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::settled::{self, Settled, SettledList};
use crate::mcp::log::Redactor;

/// What becomes of a held message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Sent on as it came.
    Pass,
    /// Sent on as these bytes instead (one line of JSON).
    Replace(String),
    /// Never sent.
    Drop,
    /// Not sent; this line goes back to the message's sender (an error reply to a request).
    Answer(String),
    /// Not sent, and no breakpoint held it: a cancellation of the request the proxy settled
    /// itself (named here), which its receiver never got.
    Handled(Settled),
}

/// Which way a breakpoint looks: to the server, to the host, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    ToServer,
    ToHost,
    Both,
}

impl Way {
    /// From the control protocol's `direction` (none: both ways).
    pub fn of(direction: Option<&str>) -> Result<Way, String> {
        match direction {
            None | Some("both") => Ok(Way::Both),
            Some("to_server") => Ok(Way::ToServer),
            Some("to_host") => Ok(Way::ToHost),
            Some(other) => Err(format!("direction {other:?}: expected to_server, to_host or both")),
        }
    }

    /// How a breakpoint's name is written with its direction: `>echo`, `<echo`, `echo`.
    pub fn shown(self, pattern: &str) -> String {
        let mark = match self {
            Way::ToServer => ">",
            Way::ToHost => "<",
            Way::Both => "",
        };
        format!("{mark}{pattern}")
    }

    fn covers(self, to_server: bool) -> bool {
        match self {
            Way::Both => true,
            Way::ToServer => to_server,
            Way::ToHost => !to_server,
        }
    }
}

struct Rule {
    pattern: String,
    way: Way,
    owner: u64,
}

struct Held {
    owner: u64,
    tx: oneshot::Sender<Verdict>,
    /// The request's id, as sent, when the held message is a request (it can be answered).
    request_id: Option<Value>,
    to_server: bool,
    /// Cancellations of this request that came while it was held (over HTTP they need not wait
    /// behind it): each learns whether it was settled.
    cancels: Vec<oneshot::Sender<Option<Settled>>>,
}

impl Held {
    /// Says what became of the hold to its message and to the cancellations waiting on it; how it
    /// settled the request, if it did.
    fn release(self, verdict: Verdict) -> Result<Option<Settled>, Verdict> {
        let how = settled::how(&verdict);
        self.tx.send(verdict)?;
        let done =
            how.zip(self.request_id).map(|(how, id)| Settled { to_server: self.to_server, id: id.to_string(), how });
        for c in self.cancels {
            let _ = c.send(done.clone());
        }
        Ok(done)
    }
}

/// Requests seen while a breakpoint is set, by direction and id: the method (and tool) a reply
/// answers. Bounded: past it the oldest are forgotten (their replies no longer match).
const MAX_ASKED: usize = 10_000;

#[derive(Default)]
struct State {
    rules: Vec<Rule>,
    held: HashMap<u64, Held>,
    next_hold: u64,
    asked: HashMap<(bool, String), (String, Option<String>)>,
    settled: SettledList,
}

#[derive(Default)]
pub struct Breaks {
    rules: AtomicUsize,
    state: Mutex<State>,
}

/// What a message is: its method (or that of the request it answers), its tool, its id.
struct Seen {
    method: Option<String>,
    tool: Option<String>,
    request_id: Option<Value>,
}

impl Breaks {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn add(&self, owner: u64, pattern: &str, way: Way) {
        let mut s = self.lock();
        s.rules.push(Rule { pattern: pattern.to_string(), way, owner });
        self.rules.store(s.rules.len(), Ordering::Relaxed);
    }

    /// Removes `owner`'s breakpoints on `pattern` that look `way` (any way: every one); how many
    /// there were.
    pub fn remove(&self, owner: u64, pattern: &str, way: Option<Way>) -> usize {
        let mut s = self.lock();
        let before = s.rules.len();
        s.rules.retain(|r| !(r.owner == owner && r.pattern == pattern && way.is_none_or(|w| w == r.way)));
        self.rules.store(s.rules.len(), Ordering::Relaxed);
        before - s.rules.len()
    }

    /// `owner`'s breakpoints, in the order they were set, each once, as [`Way::shown`] writes them.
    pub fn list(&self, owner: u64) -> Vec<String> {
        let s = self.lock();
        let mut shown: Vec<String> = Vec::new();
        for r in s.rules.iter().filter(|r| r.owner == owner) {
            let one = r.way.shown(&r.pattern);
            if !shown.contains(&one) {
                shown.push(one);
            }
        }
        shown
    }

    /// A watcher gone: its breakpoints go, and what it held is sent on as it came.
    pub fn forget(&self, owner: u64) {
        let mut s = self.lock();
        s.rules.retain(|r| r.owner != owner);
        self.rules.store(s.rules.len(), Ordering::Relaxed);
        let mine: Vec<u64> = s.held.iter().filter(|(_, h)| h.owner == owner).map(|(k, _)| *k).collect();
        for k in mine {
            if let Some(h) = s.held.remove(&k) {
                let _ = h.release(Verdict::Pass);
            }
        }
    }

    /// Releases hold `hold` with `verdict`; why not when it cannot be. A request it drops or
    /// answers is remembered as settled (unless a cancellation of it waits already).
    pub fn release(&self, hold: u64, verdict: Verdict) -> Result<(), String> {
        let mut s = self.lock();
        let held = s.held.remove(&hold).ok_or_else(|| format!("nothing is held as {hold}"))?;
        let waited = !held.cancels.is_empty();
        let done = held.release(verdict).map_err(|_| format!("hold {hold} was already released"))?;
        if let Some(done) = done.filter(|_| !waited) {
            s.settled.add(done);
        }
        Ok(())
    }

    /// When `line` cancels a request the proxy settled itself going the same way: that request.
    /// A cancellation of a request held now waits until it is released.
    pub(super) async fn settles(&self, to_server: bool, line: &[u8]) -> Option<Settled> {
        {
            let s = self.lock();
            if s.settled.is_empty() && s.held.is_empty() {
                return None;
            }
        }
        let id = settled::cancelled_id(line)?;
        let waiting = {
            let mut s = self.lock();
            if let Some(done) = s.settled.take(to_server, &id.to_string()) {
                return Some(done);
            }
            let held = s.held.values_mut().find(|h| h.to_server == to_server && h.request_id.as_ref() == Some(&id))?;
            let (tx, rx) = oneshot::channel();
            held.cancels.push(tx);
            rx
        };
        waiting.await.ok().flatten()
    }

    /// The error reply to held request `hold` (it stays held until released with it).
    pub fn error_reply(&self, hold: u64, code: i64, message: &str) -> Result<String, String> {
        let s = self.lock();
        let held = s.held.get(&hold).ok_or_else(|| format!("nothing is held as {hold}"))?;
        let id = held.request_id.clone().ok_or("the held message is not a request: it cannot be answered")?;
        Ok(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string())
    }

    /// When a breakpoint matches `line`: the hold's number, the event that tells watchers (the
    /// message whole, secrets masked), and where the verdict will come.
    pub(super) fn hold(
        &self,
        to_server: bool,
        line: &[u8],
        redactor: &Redactor,
    ) -> Option<(u64, String, oneshot::Receiver<Verdict>)> {
        if self.rules.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let text = std::str::from_utf8(line).ok()?.trim_end();
        let value: Value = serde_json::from_str(text).ok()?;
        let mut s = self.lock();
        let seen = s.see(to_server, &value);
        let rule = s.rules.iter().find(|r| {
            r.way.covers(to_server)
                && (seen.method.as_deref() == Some(r.pattern.as_str()) || seen.tool.as_deref() == Some(&r.pattern))
        })?;
        let (owner, pattern) = (rule.owner, rule.pattern.clone());
        s.next_hold += 1;
        let hold = s.next_hold;
        let (tx, rx) = oneshot::channel();
        s.held.insert(hold, Held { owner, tx, request_id: seen.request_id, to_server, cancels: Vec::new() });
        let event = json!({
            "event": "held",
            "hold": hold,
            "direction": if to_server { "to_server" } else { "to_host" },
            "matched": pattern,
            "line": redactor.redact(text),
        });
        Some((hold, event.to_string(), rx))
    }
}

impl State {
    /// Reads a message's method, tool and id; remembers a request so its reply can match too.
    fn see(&mut self, to_server: bool, v: &Value) -> Seen {
        let id = v.get("id").filter(|i| !i.is_null());
        let method = v.get("method").and_then(Value::as_str).map(str::to_string);
        let tool = v.pointer("/params/name").and_then(Value::as_str).map(str::to_string);
        match (id, method) {
            (Some(id), Some(method)) => {
                if self.asked.len() >= MAX_ASKED {
                    self.asked.clear();
                }
                self.asked.insert((to_server, id.to_string()), (method.clone(), tool.clone()));
                Seen { method: Some(method), tool, request_id: Some(id.clone()) }
            }
            (Some(id), None) => {
                let asked = self.asked.remove(&(!to_server, id.to_string()));
                let (method, tool) = asked.map_or((None, None), |(m, t)| (Some(m), t));
                Seen { method, tool, request_id: None }
            }
            (None, method) => Seen { method, tool, request_id: None },
        }
    }
}

/// The event that says what became of a hold.
pub(super) fn released_event(hold: u64, verdict: &Verdict) -> String {
    let how = match verdict {
        Verdict::Pass => "sent",
        Verdict::Replace(_) => "edited",
        Verdict::Drop => "dropped",
        Verdict::Answer(_) => "answered",
        Verdict::Handled(_) => "handled",
    };
    json!({"event": "released", "hold": hold, "as": how}).to_string()
}

/// A watcher's edit, checked: JSON (an object or a batch), written on one line.
pub fn edited(message: &Value) -> Result<String, String> {
    match message {
        Value::Object(_) | Value::Array(_) => serde_json::to_string(message).map_err(|e| e.to_string()),
        _ => Err("an edited message must be a JSON object (or a batch array)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(b: &Breaks, to_server: bool, line: &str) -> Option<u64> {
        b.hold(to_server, line.as_bytes(), &Redactor::default()).map(|(h, _, _)| h)
    }

    #[test]
    fn a_tool_name_matches_its_call_and_the_reply_to_it() {
        let b = Breaks::default();
        b.add(1, "echo", Way::Both);
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}"#;
        assert!(held(&b, true, call).is_some());
        assert!(held(&b, false, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#).is_some());
        assert!(held(&b, false, r#"{"jsonrpc":"2.0","id":8,"result":{}}"#).is_none());
    }

    #[test]
    fn a_direction_limits_a_breakpoint() {
        let b = Breaks::default();
        b.add(1, "tools/list", Way::ToHost);
        assert!(held(&b, true, r#"{"id":1,"method":"tools/list"}"#).is_none());
        assert!(held(&b, false, r#"{"id":1,"result":{"tools":[]}}"#).is_some());
    }

    #[test]
    fn a_watchers_breakpoints_are_listed_and_removed_one_way_or_every_way() {
        let b = Breaks::default();
        b.add(1, "echo", Way::ToServer);
        b.add(1, "echo", Way::ToHost);
        b.add(1, "ping", Way::Both);
        b.add(1, "ping", Way::Both);
        b.add(2, "other", Way::Both);
        assert_eq!(b.list(1), [">echo", "<echo", "ping"]);
        assert_eq!(b.remove(1, "echo", Some(Way::ToHost)), 1);
        assert_eq!(b.list(1), [">echo", "ping"]);
        assert_eq!(b.remove(1, "ping", Some(Way::ToServer)), 0);
        assert_eq!(b.remove(1, "ping", None), 2);
        assert_eq!(b.list(1), [">echo"]);
        assert_eq!(b.list(2), ["other"]);
    }

    #[test]
    fn a_watcher_gone_releases_what_it_held_as_it_came() {
        let b = Breaks::default();
        b.add(3, "ping", Way::Both);
        let (_, _, mut rx) =
            b.hold(true, br#"{"id":1,"method":"ping"}"#, &Redactor::default()).unwrap_or_else(|| panic!());
        b.forget(3);
        assert_eq!(rx.try_recv().ok(), Some(Verdict::Pass));
        assert!(held(&b, true, r#"{"id":2,"method":"ping"}"#).is_none());
    }

    #[test]
    fn an_answer_keeps_the_request_id_as_sent() {
        let b = Breaks::default();
        b.add(1, "tools/call", Way::Both);
        let h = held(&b, true, r#"{"id":"a-1","method":"tools/call","params":{"name":"x"}}"#).unwrap_or_default();
        let reply = b.error_reply(h, -32000, "nope").unwrap_or_default();
        assert_eq!(reply, r#"{"jsonrpc":"2.0","id":"a-1","error":{"code":-32000,"message":"nope"}}"#);
    }

    /// Holds `line` going to the server; the hold and where its verdict comes.
    fn held_to_server(b: &Breaks, line: &str) -> (u64, oneshot::Receiver<Verdict>) {
        let (h, _, rx) = b.hold(true, line.as_bytes(), &Redactor::default()).unwrap_or_else(|| panic!("not held"));
        (h, rx)
    }

    const CANCEL_A1: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a-1"}}"#;

    #[tokio::test]
    async fn a_cancellation_of_a_request_dropped_or_answered_goes_no_further() {
        let b = Breaks::default();
        b.add(1, "tools/call", Way::Both);
        let call = r#"{"id":"a-1","method":"tools/call","params":{"name":"x"}}"#;
        for verdict in [Verdict::Drop, Verdict::Answer("{}".into())] {
            let (h, _rx) = held_to_server(&b, call);
            b.release(h, verdict).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(b.settles(false, CANCEL_A1).await, None, "the other way is another request");
            let done = b.settles(true, CANCEL_A1).await.unwrap_or_else(|| panic!("passed on"));
            assert_eq!(done.id, "\"a-1\"");
            assert_eq!(b.settles(true, CANCEL_A1).await, None, "taken once");
        }
        // A request sent on (as it came, or after a delay) was got: its cancellation goes on.
        let (h, _rx) = held_to_server(&b, call);
        b.release(h, Verdict::Pass).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.settles(true, CANCEL_A1).await, None);
    }

    #[tokio::test]
    async fn a_cancellation_of_a_held_request_waits_for_its_release() {
        let b = std::sync::Arc::new(Breaks::default());
        b.add(1, "tools/call", Way::Both);
        let call = r#"{"id":"a-1","method":"tools/call","params":{"name":"x"}}"#;
        for (verdict, handled) in [(Verdict::Drop, true), (Verdict::Pass, false)] {
            let (h, _rx) = held_to_server(&b, call);
            let waiting = tokio::spawn({
                let b = b.clone();
                async move { b.settles(true, CANCEL_A1).await }
            });
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            assert!(!waiting.is_finished(), "it waits for the held request");
            b.release(h, verdict).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(waiting.await.ok().flatten().is_some(), handled);
            // Handled once: a second cancellation is passed on.
            assert_eq!(b.settles(true, CANCEL_A1).await, None);
        }
    }

    #[test]
    fn an_edit_must_be_an_object() {
        assert!(edited(&json!(3)).is_err());
        assert_eq!(edited(&json!({"a": [1]})).ok().as_deref(), Some(r#"{"a":[1]}"#));
    }
}
