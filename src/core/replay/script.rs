//! Answering a client's requests from a recording.
//!
//! A request is matched by method and params compared as JSON values (key order ignored), leaving
//! out what differs between any two runs of the same request: the id, `_meta.progressToken` and
//! the `io.modelcontextprotocol/...` members of `_meta` the modern era puts in every request
//! (client info, protocol version, log level). `initialize` and `server/discover` match by method
//! only (their params name the client). The same request recorded several times is answered in
//! recorded order, then with the last one again.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;

use super::recording::{Entry, Recording, Side};
use super::rewrite::{self, Line};
use crate::deep::{self, Owned};
use crate::json_depth;

/// JSON-RPC's "method not found" and "invalid params".
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
/// Requests waiting on a reply while the recording is read; past this the oldest are forgotten.
const MAX_PENDING: usize = 4096;
/// How much of the closest recorded params an error message quotes.
const MAX_QUOTED: usize = 600;

/// What to send back for one message of the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// These lines, in order: recorded notifications, then the reply (absent when the recorded
    /// request was never answered, e.g. a `subscriptions/listen` held open).
    Lines { notes: Vec<Line>, reply: Option<Line> },
    /// Nothing: a notification, or a reply to a request of the server's.
    Silent,
}

/// One recorded request and what the server sent for it.
#[derive(Debug)]
struct Exchange {
    /// Notifications sent while it waited, as sent.
    notes: Vec<Arc<str>>,
    /// The reply (or error) as sent.
    reply: Option<Arc<str>>,
}

/// The recorded exchanges of one request (method and params), answered in turn.
#[derive(Debug)]
struct Group {
    params: Owned,
    exchanges: Vec<Exchange>,
    next: usize,
}

/// The groups of one method, found by their params' hash (a recording may hold a great many
/// different params for one method: a search through them all for each was quadratic).
#[derive(Debug, Default)]
struct Method {
    groups: Vec<Group>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl Method {
    fn find(&self, params: &Value, hash: u64) -> Option<usize> {
        let candidates = self.by_hash.get(&hash)?;
        candidates.iter().copied().find(|&i| self.groups.get(i).is_some_and(|g| deep::equal(&g.params, params)))
    }
}

#[derive(Debug, Default)]
pub struct Script {
    /// By method.
    groups: HashMap<String, Method>,
    /// Message entries of the recording that could not be replayed.
    pub skipped: usize,
}

/// A request being read from the recording, before its reply.
struct Open {
    id: String,
    method: String,
    params: Owned,
    /// The progress token as compact JSON.
    token: Option<String>,
    exchange: Exchange,
}

/// The requests waiting on a reply, in recorded order, found by id and by progress token without
/// a search (a recording of many unanswered requests made each message look through them all).
#[derive(Default)]
struct Pending {
    by_order: BTreeMap<u64, Open>,
    by_id: HashMap<String, u64>,
    by_token: HashMap<String, BTreeSet<u64>>,
    next: u64,
}

impl Pending {
    fn len(&self) -> usize {
        self.by_order.len()
    }

    fn push(&mut self, o: Open) {
        let at = self.next;
        self.next += 1;
        self.by_id.insert(o.id.clone(), at);
        if let Some(t) = &o.token {
            self.by_token.entry(t.clone()).or_default().insert(at);
        }
        self.by_order.insert(at, o);
    }

    fn take(&mut self, at: u64) -> Option<Open> {
        let o = self.by_order.remove(&at)?;
        if self.by_id.get(&o.id) == Some(&at) {
            self.by_id.remove(&o.id);
        }
        if let Some(t) = &o.token
            && let Some(set) = self.by_token.get_mut(t)
        {
            set.remove(&at);
            if set.is_empty() {
                self.by_token.remove(t);
            }
        }
        Some(o)
    }

    fn take_id(&mut self, id: &str) -> Option<Open> {
        let at = *self.by_id.get(id)?;
        self.take(at)
    }

    fn take_oldest(&mut self) -> Option<Open> {
        let at = *self.by_order.keys().next()?;
        self.take(at)
    }

    fn drain(&mut self) -> Vec<Open> {
        let all = std::mem::take(&mut self.by_order).into_values().collect();
        self.by_id.clear();
        self.by_token.clear();
        all
    }

    /// The request a server notification belongs to: the latest with its progress token, or
    /// without one the latest of all.
    fn for_note(&mut self, token: Option<&str>) -> Option<&mut Open> {
        let at = match token {
            Some(t) => *self.by_token.get(t)?.iter().next_back()?,
            None => *self.by_order.keys().next_back()?,
        };
        self.by_order.get_mut(&at)
    }
}

impl Script {
    pub fn new(rec: Recording) -> Script {
        let mut script = Script { skipped: rec.skipped, ..Script::default() };
        let mut open = Pending::default();
        for entry in rec.entries {
            let m = match entry {
                Entry::Restart => {
                    open.drain().into_iter().for_each(|o| script.add(o));
                    continue;
                }
                Entry::Message(m) => m,
            };
            let method = m.value.get("method").and_then(Value::as_str);
            let id = m.value.get("id").map(id_key);
            match (m.side, method, id) {
                (Side::Client, Some(method), Some(id)) => {
                    if open.len() >= MAX_PENDING
                        && let Some(o) = open.take_oldest()
                    {
                        script.add(o);
                    }
                    // The same id again: a new session (recordings put one after another).
                    if let Some(o) = open.take_id(&id) {
                        script.add(o);
                    }
                    let params = m.value.get("params");
                    open.push(Open {
                        id,
                        method: method.to_string(),
                        params: match_key(method, params),
                        token: progress_token(params).map(deep::compact),
                        exchange: Exchange { notes: vec![], reply: None },
                    });
                }
                (Side::Server, None, Some(id)) => {
                    if let Some(mut o) = open.take_id(&id) {
                        o.exchange.reply = Some(Arc::from(m.raw));
                        script.add(o);
                    }
                }
                (Side::Server, Some(method), None) => {
                    let token = (method == "notifications/progress")
                        .then(|| m.value.get("params").and_then(|p| p.get("progressToken")))
                        .flatten()
                        .map(deep::compact);
                    if let Some(o) = open.for_note(token.as_deref()) {
                        o.exchange.notes.push(Arc::from(m.raw));
                    }
                }
                _ => {}
            }
        }
        open.drain().into_iter().for_each(|o| script.add(o));
        script
    }

    /// Files a finished exchange under its request, in recorded order. A request recorded
    /// without a reply (held open, or cut off when a session ended) is answered so (with its
    /// notifications only) only when no recording of it has a reply.
    fn add(&mut self, o: Open) {
        let method = self.groups.entry(o.method).or_default();
        let hash = canonical_hash(&o.params);
        let Some(g) = method.find(&o.params, hash).and_then(|i| method.groups.get_mut(i)) else {
            method.by_hash.entry(hash).or_default().push(method.groups.len());
            method.groups.push(Group { params: o.params, exchanges: vec![o.exchange], next: 0 });
            return;
        };
        let replied = |e: &Exchange| e.reply.is_some();
        match (o.exchange.reply.is_some(), g.exchanges.iter().any(replied)) {
            (false, _) => {}
            (true, false) => g.exchanges = vec![o.exchange],
            (true, true) => g.exchanges.push(o.exchange),
        }
    }

    /// How many requests (method and params) the recording answers.
    pub fn len(&self) -> usize {
        self.groups.values().map(|m| m.groups.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The answer to one line from the client.
    pub fn answer(&mut self, line: &str, max_depth: usize) -> Answer {
        let value: Owned = match json_depth::parse(line, max_depth) {
            Ok(v) => Owned(v),
            Err(e) => {
                return Answer::Lines {
                    notes: vec![],
                    reply: Some(Line::plain(error("null", -32700, &format!("parse error: {e}")))),
                };
            }
        };
        let (Some(method), Some(id)) = (value.get("method").and_then(Value::as_str), rewrite::member(line, "id"))
        else {
            return Answer::Silent;
        };
        let params = value.get("params");
        let key = match_key(method, params);
        let token = progress_token(params).map(deep::compact);
        let Some(groups) = self.groups.get_mut(method) else {
            if method == "ping" {
                return reply_only(format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}"));
            }
            let msg = format!("{method}: no recorded reply matched (the recording has no {method} request)");
            return reply_only(error(id, METHOD_NOT_FOUND, &msg));
        };
        let Some(g) = groups.find(&key, canonical_hash(&key)).and_then(|i| groups.groups.get_mut(i)) else {
            let closest = groups.groups.iter().min_by_key(|g| distance(&g.params, &key));
            // A little more than is quoted, so the cut below marks it.
            let closest = closest.map(|g| deep::to_string_prefix(&g.params, MAX_QUOTED + 4));
            return reply_only(unmatched(id, method, closest));
        };
        let Some(ex) = g.exchanges.get(g.next.min(g.exchanges.len().saturating_sub(1))) else {
            return Answer::Silent;
        };
        g.next = g.next.saturating_add(1);
        let notes = ex.notes.iter().filter_map(|n| retoken(n, token.as_deref())).collect();
        let reply = ex.reply.as_ref().map(|r| rewrite::replace(r, "id", id).unwrap_or_else(|| Line::recorded(r)));
        Answer::Lines { notes, reply }
    }
}

fn reply_only(line: String) -> Answer {
    Answer::Lines { notes: vec![], reply: Some(Line::plain(line)) }
}

/// A recorded notification for a new request: its progress token made the request's; a progress
/// notification is left out when the request asked for none.
fn retoken(note: &Arc<str>, token: Option<&str>) -> Option<Line> {
    match rewrite::replace_nested(note, "params", "progressToken", token.unwrap_or("null")) {
        Some(_) if token.is_none() => None,
        Some(changed) => Some(changed),
        None => Some(Line::recorded(note)),
    }
}

fn unmatched(id: &str, method: &str, closest: Option<String>) -> String {
    let mut msg = format!("{method}: no recorded reply matched these params");
    if let Some(mut c) = closest {
        if c.len() > MAX_QUOTED {
            let mut cut = MAX_QUOTED;
            while !c.is_char_boundary(cut) {
                cut -= 1;
            }
            c.truncate(cut);
            c.push('…');
        }
        msg.push_str(&format!("; the closest recorded params: {c}"));
    }
    error(id, INVALID_PARAMS, &msg)
}

/// A JSON-RPC error reply to the request whose id is `id` (its JSON text).
fn error(id: &str, code: i64, message: &str) -> String {
    let message = Value::from(message);
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{code},\"message\":{message}}}}}")
}

/// An id as a key: its JSON text, so `1` and `"1"` differ as JSON-RPC has them.
fn id_key(id: &Value) -> String {
    deep::compact(id)
}

fn progress_token(params: Option<&Value>) -> Option<&Value> {
    params?.get("_meta")?.get("progressToken")
}

/// What a request is matched by: its params without what changes between runs.
fn match_key(method: &str, params: Option<&Value>) -> Owned {
    if matches!(method, "initialize" | "server/discover") {
        return Owned(Value::Null);
    }
    let Some(params) = params else { return Owned(Value::Null) };
    let mut params = Owned::copy(params);
    if let Some(obj) = params.as_object_mut() {
        if let Some(Value::Object(meta)) = obj.get_mut("_meta") {
            meta.retain(|k, _| k != "progressToken" && !k.starts_with("io.modelcontextprotocol/"));
            if meta.is_empty() {
                obj.remove("_meta");
            }
        }
        if obj.is_empty() {
            return Owned(Value::Null);
        }
    }
    params
}

/// A hash of `value` that values equal as JSON (`==`: key order aside) share, without recursion.
fn canonical_hash(value: &Value) -> u64 {
    enum Item<'a> {
        Value(&'a Value),
        Key(&'a str),
        Close,
    }
    let mut h = DefaultHasher::new();
    let mut todo = vec![Item::Value(value)];
    while let Some(item) = todo.pop() {
        let v = match item {
            Item::Key(k) => {
                k.hash(&mut h);
                continue;
            }
            Item::Close => {
                0xffu8.hash(&mut h);
                continue;
            }
            Item::Value(v) => v,
        };
        match v {
            Value::Array(items) => {
                (1u8, items.len()).hash(&mut h);
                todo.push(Item::Close);
                todo.extend(items.iter().rev().map(Item::Value));
            }
            Value::Object(map) => {
                (2u8, map.len()).hash(&mut h);
                let mut members: Vec<(&String, &Value)> = map.iter().collect();
                members.sort_unstable_by(|a, b| b.0.cmp(a.0));
                todo.push(Item::Close);
                for (k, v) in members {
                    todo.push(Item::Value(v));
                    todo.push(Item::Key(k));
                }
            }
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => (3u8, u).hash(&mut h),
                (_, Some(i), _) => (4u8, i).hash(&mut h),
                // -0.0 == 0.0, so they hash alike.
                (_, _, Some(f)) => (5u8, if f == 0.0 { 0 } else { f.to_bits() }).hash(&mut h),
                _ => 6u8.hash(&mut h),
            },
            leaf => (7u8, leaf.to_string()).hash(&mut h),
        }
    }
    h.finish()
}

/// How unlike two params are: the members and elements that differ, counted without recursion.
pub(super) fn distance(a: &Value, b: &Value) -> usize {
    let mut todo = vec![(a, b)];
    let mut d = 0usize;
    while let Some((a, b)) = todo.pop() {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, v) in x {
                    match y.get(k) {
                        Some(w) => todo.push((v, w)),
                        None => d += 1,
                    }
                }
                d += y.keys().filter(|k| !x.contains_key(*k)).count();
            }
            (Value::Array(x), Value::Array(y)) => {
                todo.extend(x.iter().zip(y));
                d += x.len().abs_diff(y.len());
            }
            (a, b) if a != b => d += 1,
            _ => {}
        }
    }
    d
}
