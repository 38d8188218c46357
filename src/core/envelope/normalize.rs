//! Raw `tools/call` answer to envelope: find the payload, unwrap wrappers, choose the primary
//! array, classify, lift status/message/error, detect pagination. Iterative and bounded.

use serde_json::{Map, Value, json};

use super::conventions::{self, Role};
use super::decode;
use super::key_norm as norm;
use super::pagination::Found;
use super::shapes;
use super::text;
use super::{Data, Envelope, ErrorInfo, RawItems, ResponseType, Status};
use crate::mcp::ReplyBody;
use crate::skeleton::{Elisions, SAMPLE, SharedText, array_len, has_sentinel, sentinel};
use std::sync::Arc;

/// Wrapper levels unwrapped at most (`{id, result: {weather: {data: ...}}}` is three).
const MAX_UNWRAP: usize = 8;

/// Keys that describe a response rather than carry its data (`conventions.toml`'s
/// `response_meta`).
fn is_meta_key(k: &str) -> bool {
    conventions::table().is(Role::ResponseMeta, &norm(k))
}

/// The words of a tool name: `discord_send_message`, `sendMessage`, `send-message`.
fn name_words(name: &str) -> Vec<String> {
    let mut words = vec![];
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

fn is_action_tool(name: &str, descriptor: Option<&Value>) -> bool {
    let read_only =
        descriptor.and_then(|d| d.get("annotations")).and_then(|a| a.get("readOnlyHint")).and_then(Value::as_bool);
    match read_only {
        Some(true) => false,
        Some(false) => true,
        None => {
            let t = conventions::table();
            match name_words(name).as_slice() {
                [only] if t.is(Role::ComputingVerb, only) => false,
                words => words.iter().any(|w| t.is(Role::ActionVerb, w)),
            }
        }
    }
}

fn is_catalog_tool(name: &str) -> bool {
    let w = name_words(name);
    w.windows(2).any(|p| (p[0] == "list" || p[0] == "get") && p[1] == "tools") || w.iter().any(|x| x == "listtools")
}

fn looks_like_tool(v: &Value) -> bool {
    // A tool's schema is an object; a table's `schema` is a name.
    v.get("name").is_some_and(Value::is_string)
        && ["inputSchema", "input_schema", "schema", "parameters", "inputschema"]
            .iter()
            .any(|k| v.get(*k).is_some_and(Value::is_object))
}

/// A one-record answer that only counts what a write changed (`[{'affected_rows': 2}]`).
fn only_counts_changes(items: &[Value]) -> bool {
    let t = conventions::table();
    matches!(items, [Value::Object(m)] if !m.is_empty() && m.iter().all(|(k, v)| v.is_u64() && t.is(Role::ChangeCount, &norm(k))))
}

fn is_record_array(a: &[Value]) -> bool {
    !a.is_empty() && a.iter().filter(|v| v.is_object()).count() * 2 >= a.len()
}

/// The key of the array that holds `obj`'s records, if `obj` is a list wrapper.
fn primary_array(obj: &Map<String, Value>) -> Option<String> {
    let table = conventions::table();
    let mut best: Option<(i64, usize, &String)> = None;
    for (k, v) in obj {
        let Value::Array(a) = v else { continue };
        let nk = norm(k);
        if table.is(Role::Echo, &nk) {
            continue;
        }
        let mut score = 0i64;
        if table.is(Role::Records, &nk) {
            score += 3;
        }
        if is_record_array(a) {
            score += 2;
        }
        if nk.ends_with('s') {
            score += 1;
        }
        if a.is_empty() && score < 3 {
            score -= 1;
        }
        if score <= 0 {
            continue;
        }
        let len = array_len(a);
        if best.is_none_or(|(s, n, _)| (score, len) > (s, n)) {
            best = Some((score, len, k));
        }
    }
    let (score, len, key) = best?;
    // Other keys that are not response metadata are fields of an entity: many of them, and the
    // object is one record that happens to hold an array, not a list.
    let entity_fields = obj.iter().filter(|(k, v)| *k != key && !is_meta_key(k) && !v.is_array()).count();
    if len == 0 && entity_fields >= 2 {
        // `{"thoughtNumber": 1, ..., "branches": []}`: state with an empty collection in it.
        return None;
    }
    // A well-known list key carries a wrapper with a few fields of its own; an object with many
    // fields of its own is one entity that happens to hold an array.
    ((score >= 3 && entity_fields <= 6) || entity_fields <= 3).then(|| key.clone())
}

/// Text blocks and the rest of `content`, in order.
struct Content {
    texts: Vec<Arc<String>>,
    others: Vec<Value>,
    /// What text blocks carried beside their text (annotations, `_meta`), with their index.
    text_fields: Vec<Value>,
}

/// Takes `content` apart (moving its texts, which may be megabytes, not copying them).
fn split_content(
    content: Option<Value>,
    meta: &mut Map<String, Value>,
    el: &mut Elisions,
    structured: Option<&Value>,
) -> Content {
    let mut c = Content { texts: vec![], others: vec![], text_fields: vec![] };
    match content {
        Some(Value::Array(mut blocks)) => {
            if has_sentinel(&blocks) {
                // Thousands of content blocks: each is needed, so the whole array is read.
                let mut all = Value::Array(std::mem::take(&mut blocks));
                el.expand(&mut all);
                blocks = match all {
                    Value::Array(a) => a,
                    _ => vec![],
                };
            }
            for (index, b) in blocks.into_iter().enumerate() {
                match b {
                    Value::Object(mut m)
                        if m.get("type").and_then(Value::as_str) == Some("text")
                            && m.get("text").is_some_and(Value::is_string) =>
                    {
                        if let Some(t) = m.shift_remove("text")
                            && !el.text_literal(&t).is_some_and(|lit| literal_repeats_structured(lit, structured, el))
                        {
                            // A long text is decoded from the reply only now, exactly once (and
                            // not at all when it only repeats a long list of structuredContent);
                            // in the reply's own buffer when nothing else holds the reply.
                            let text = match el.take_text(&t) {
                                Some(decoded) => decoded,
                                None => match t {
                                    Value::String(s) => s,
                                    _ => String::new(),
                                },
                            };
                            // A text that is one JSON string literal (`JSON.stringify("Failed to
                            // list customers")`) says that string.
                            let text = match text.trim() {
                                t if t.len() > 1 && t.starts_with('"') && t.ends_with('"') => {
                                    serde_json::from_str::<String>(t).unwrap_or(text)
                                }
                                _ => text,
                            };
                            match encoded_blocks(&text) {
                                // Content blocks sent as the JSON of a text (a FastMCP tool that
                                // returns `list[TextContent]`): they are the content.
                                Some(inner) => {
                                    for b in inner {
                                        match b.get("text").and_then(Value::as_str) {
                                            Some(t) if b.get("type").and_then(Value::as_str) == Some("text") => {
                                                c.texts.push(Arc::new(t.to_string()))
                                            }
                                            _ => c.others.push(b),
                                        }
                                    }
                                }
                                None => c.texts.push(Arc::new(text)),
                            }
                        }
                        m.shift_remove("type");
                        if !m.is_empty() {
                            m.insert("index".into(), Value::from(index));
                            c.text_fields.push(Value::Object(m));
                        }
                    }
                    other => c.others.push(other),
                }
            }
        }
        Some(other) => {
            meta.insert("content".into(), other);
        }
        None => {}
    }
    c
}

/// Whether two arrays hold the same content blocks, members set to null not counting (a pydantic
/// dump writes `"annotations": null` where the content left it out).
fn same_blocks(a: &Value, b: &Value) -> bool {
    let without_nulls = |v: &Value| match v {
        Value::Object(m) => {
            Value::Object(m.iter().filter(|(_, x)| !x.is_null()).map(|(k, x)| (k.clone(), x.clone())).collect())
        }
        other => other.clone(),
    };
    match (a.as_array(), b.as_array()) {
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && !x.is_empty()
                && x.iter().zip(y).all(|(p, q)| p.get("type").is_some() && without_nulls(p) == without_nulls(q))
        }
        _ => false,
    }
}

/// MCP content blocks written as a text's JSON (`[{"type": "text", "text": ...}]`), when every
/// element is one.
fn encoded_blocks(text: &str) -> Option<Vec<Value>> {
    let t = text.trim_start();
    if !(t.starts_with("[{") && t.len() < MAX_ENCODED_BLOCKS && t.contains("\"type\"")) {
        return None;
    }
    const TYPES: &[&str] = &["text", "image", "audio", "resource", "resource_link"];
    let Value::Array(blocks) = json_doc(t)? else { return None };
    let all = !blocks.is_empty()
        && blocks.iter().all(|b| match b.get("type").and_then(Value::as_str) {
            Some("text") => b.get("text").is_some_and(Value::is_string),
            Some(ty) => TYPES.contains(&ty),
            None => false,
        });
    all.then_some(blocks)
}

/// Texts longer than this are not read as encoded content blocks (a whole parse each).
const MAX_ENCODED_BLOCKS: usize = 4 << 20;

/// Parses a text block as a JSON object or array; a long one as a skeleton whose long arrays
/// stay in the text.
fn json_text_doc(t: &Arc<String>, el: &mut Elisions) -> Option<Value> {
    if !t.trim_start().starts_with(['{', '[']) {
        return None;
    }
    match el.parse(SharedText::String(t.clone()), crate::json_depth::DEFAULT_MAX_DEPTH) {
        Some(parsed) => parsed.ok().filter(|v| v.is_object() || v.is_array()),
        None => json_doc(t),
    }
}

/// Parses text as a JSON object or array.
fn json_doc(t: &str) -> Option<Value> {
    let t = t.trim();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    crate::json_depth::parse::<Value>(t, crate::json_depth::DEFAULT_MAX_DEPTH)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

/// A one-member object whose string carries JSON (in tags, a fence, after prose, or whole):
/// the wrapper some servers put around a formatted answer (`{"result": "prose <data>[...]</data>"}`).
/// Its key, and what the string carries; a string that carries no JSON stays as it is.
fn wrapped_string_payload(v: &Value) -> Option<(String, decode::Found)> {
    let (key, s) = v.as_object().filter(|m| m.len() == 1)?.iter().next()?;
    let s = s.as_str()?;
    let found = match json_doc(s) {
        Some(value) => decode::Found { value, prose: String::new(), steps: vec!["JSON".into()] },
        None => decode::json_in_text(s)?,
    };
    Some((key.clone(), found))
}

/// The member of a one-member `{"result": x}` (how FastMCP and others satisfy the rule that
/// structuredContent be an object), when x is not an object.
fn wrapped_result(sc: &Value) -> Option<&Value> {
    let m = sc.as_object().filter(|m| m.len() == 1)?;
    m.get("result").filter(|r| !r.is_object())
}

fn is_http_status(s: &str) -> bool {
    s.len() == 3 && s.starts_with(['4', '5']) && s.bytes().all(|b| b.is_ascii_digit())
}

/// A next cursor carried by the list's last record alone (korotovsky's Slack server writes its
/// CSV's cursor in a `Cursor` column of the last row): the same column is empty in the others.
fn cursor_in_last_record(data: &Value) -> Option<super::Pagination> {
    let rows = data.as_array()?;
    let (last, rest) = rows.split_last()?;
    let cursor_key = |k: &String| matches!(norm(k).as_str(), "cursor" | "nextcursor" | "nextpagetoken" | "nexttoken");
    let (key, value) =
        last.as_object()?.iter().find(|(k, v)| cursor_key(k) && v.as_str().is_some_and(|s| !s.is_empty()))?;
    let empty_elsewhere =
        rest.iter().all(|r| r.get(key).is_none_or(|v| v.is_null() || v.as_str().is_some_and(str::is_empty)));
    empty_elsewhere.then(|| super::Pagination {
        kind: Some(super::PageKind::Cursor),
        has_more: Some(true),
        next_offset: Some(value.clone()),
        ..super::Pagination::default()
    })
}

/// The value of a one-member object (`{"entities": [...]}` beside a text of just the array).
fn only_member(v: &Value) -> Option<&Value> {
    v.as_object().filter(|m| m.len() == 1).and_then(|m| m.values().next())
}

/// The compact JSON of `v`, a long array of the reply left in its text, as the slices it is made
/// of (brackets, elements as sent, commas); `None` for anything else.
fn long_array_parts<'a>(v: &Value, el: &'a Elisions) -> Option<impl Iterator<Item = &'a [u8]> + 'a> {
    let e = v.as_array().and_then(|a| a.last()).and_then(sentinel).and_then(|(id, _)| el.get(id))?;
    (0..e.len()).all(|i| e.raw(i).is_some()).then(|| {
        std::iter::once(&b"["[..])
            .chain((0..e.len()).flat_map(move |i| {
                let comma = (i > 0).then_some(&b","[..]);
                comma.into_iter().chain(std::iter::once(e.raw(i).unwrap_or_default().as_bytes()))
            }))
            .chain(std::iter::once(&b"]"[..]))
    })
}

/// structuredContent and its only member: where a repeated list may be.
fn structured_lists(sc: &Value) -> impl Iterator<Item = &Value> {
    [Some(sc), only_member(sc)].into_iter().flatten()
}

/// Whether `t` is, byte for byte, the compact JSON of a long array of structuredContent
/// (FastMCP's `{"result": [...]}` beside the same list as text). A plain comparison with the
/// elements' spans, instead of parsing the text and comparing the trees: for a big list that
/// parse costs as much as the rest of the call. Anything else says no, and the trees are compared.
fn text_repeats_long_array(t: &str, sc: &Value, el: &Elisions) -> bool {
    structured_lists(sc).any(|v| {
        long_array_parts(v, el).is_some_and(|parts| parts.flat_map(|p| p.iter().copied()).eq(t.trim().bytes()))
    })
}

/// The same for a long text still in the reply, as its JSON string literal, compared without
/// decoding it: then the text is never decoded at all.
fn literal_repeats_structured(lit: &str, structured: Option<&Value>, el: &Elisions) -> bool {
    let Some(sc) = structured else { return false };
    structured_lists(sc)
        .any(|v| long_array_parts(v, el).is_some_and(|mut parts| crate::skeleton::literal_equals(lit, &mut parts)))
        || literal_is_structured(lit, sc, el)
}

/// Whether a long text still in the reply is the JSON of structuredContent (or of its only
/// member) written another way (`json.dumps`'s spacing, `\u` escapes): compared token by token
/// as the literal is decoded (`json::twin`), so the text is neither decoded nor parsed. Not
/// for content blocks written as JSON (they are read as content), nor in the reading with
/// stand-ins for inexact numbers, which compares parsed documents as before.
fn literal_is_structured(lit: &str, sc: &Value, el: &Elisions) -> bool {
    let looks_like_blocks = |v: &Value| v.as_array().and_then(|a| a.first()).is_some_and(|b| b.get("type").is_some());
    !crate::json::exact::active()
        && structured_lists(sc).any(|v| {
            (v.is_object() || (v.is_array() && !looks_like_blocks(v)))
                && el.json_parts(v).is_some_and(|parts| {
                    crate::json::twin::literal_holds(lit, || parts.iter().flat_map(|p| p.slices()))
                })
        })
}

/// The key of a one-member structuredContent whose string repeats one of the text blocks.
fn repeated_text_key(sc: Option<&Value>, texts: &[Arc<String>]) -> Option<String> {
    let m = sc?.as_object().filter(|m| m.len() == 1)?;
    let (key, v) = m.iter().next()?;
    let s = v.as_str()?.trim();
    texts.iter().any(|t| t.trim() == s).then(|| key.clone())
}

struct Work {
    meta: Map<String, Value>,
    status: Option<Status>,
    message: Option<String>,
    error: Option<ErrorInfo>,
    /// Objects to read pagination from, closest first.
    scopes: Vec<Map<String, Value>>,
    source: String,
    /// The result said `isError: true`.
    is_error: bool,
}

fn status_of(v: &Value) -> Option<Status> {
    let word = v.as_str()?.to_lowercase();
    let t = conventions::table();
    [(Role::SuccessWord, Status::Success), (Role::ErrorWord, Status::Error), (Role::PartialWord, Status::Partial)]
        .into_iter()
        .find(|(role, _)| t.is(*role, &word))
        .map(|(_, status)| status)
}

/// An error code as the envelope allows it: a string or a number; any other JSON the server used
/// for a code is kept as its JSON text.
fn code_value(v: Value) -> Value {
    match v {
        Value::String(_) | Value::Number(_) | Value::Null => v,
        other => Value::String(other.to_string()),
    }
}

fn error_from(v: &Value) -> ErrorInfo {
    match v {
        Value::Object(m) => {
            let t = conventions::table();
            let code_at = t.member(Role::ErrorCode, m);
            let message_at = t.member(Role::ErrorMessage, m);
            let code = code_value(code_at.map(|(_, v)| v.clone()).unwrap_or(Value::Null));
            let message = message_at.map(|(_, m)| m.as_str().map(str::to_string).unwrap_or_else(|| m.to_string()));
            // The members read as the code and the message leave the details (a code read
            // from inside another member leaves that member alone).
            let mut details = m.clone();
            for (key, name) in [(code_at, t.names(Role::ErrorCode)), (message_at, t.names(Role::ErrorMessage))] {
                if let Some((k, _)) = key
                    && name.iter().any(|n| *n == norm(k))
                {
                    details.remove(k);
                }
            }
            let inner = t.member(Role::ErrorDetails, &details).map(|(k, _)| k.to_string());
            let details = match inner.and_then(|k| details.remove(&k)) {
                Some(d) if details.is_empty() => d,
                Some(d) => {
                    details.insert("details".into(), d);
                    Value::Object(details)
                }
                None if details.is_empty() => Value::Null,
                None => Value::Object(details),
            };
            ErrorInfo { code, message, details }
        }
        Value::String(s) => ErrorInfo { code: Value::Null, message: Some(s.clone()), details: Value::Null },
        other => ErrorInfo { code: Value::Null, message: Some(other.to_string()), details: Value::Null },
    }
}

/// Takes the first member of `m` playing `role` (left in place when read through a path).
fn take_member(m: &mut Map<String, Value>, t: &conventions::Table, role: Role) -> Option<Value> {
    let (key, value) = t.member(role, m).map(|(k, v)| (k.to_string(), v.clone()))?;
    if t.names(role).iter().any(|n| *n == norm(&key)) {
        m.remove(&key);
    }
    Some(value)
}

/// The key of a member of `m` playing `role` whose value `keep` accepts.
fn member_key(
    m: &Map<String, Value>,
    t: &conventions::Table,
    role: Role,
    keep: impl Fn(&Value) -> bool,
) -> Option<String> {
    m.iter().find(|(k, v)| t.is(role, &norm(k)) && keep(v)).map(|(k, _)| k.clone())
}

impl Work {
    /// Reads status, success, ok, message, error and incompleteness off one wrapper level.
    /// Returns true when the level is an error with no data.
    fn lift(&mut self, m: &mut Map<String, Value>, has_data: bool) -> bool {
        let t = conventions::table();
        let mut failed = self.lift_status(m, &t);
        failed |= self.lift_error_body(m, &t);
        failed |= self.lift_error_member(m, has_data, failed, &t);
        if failed {
            self.lift_bare_error(m, &t);
            self.code_from_http_status(m, &t);
        }
        if self.status.is_some()
            && self.message.is_none()
            && let Some(Value::String(msg)) = m.get("message")
        {
            self.message = Some(msg.clone());
            m.remove("message");
        }
        failed
    }

    /// `status`, the success flags and the partial flags; true when they say it failed.
    fn lift_status(&mut self, m: &mut Map<String, Value>, t: &conventions::Table) -> bool {
        let mut failed = false;
        if let Some(s) = m.get("status").and_then(status_of) {
            // "success"/"error"/"partial" is the envelope's own word and moves there; any other
            // spelling ("ok", "healthy"...) stays in the data as the server wrote it.
            if m.get("status").and_then(Value::as_str).is_some_and(|v| matches!(v, "success" | "error" | "partial")) {
                m.remove("status");
            }
            failed |= s == Status::Error;
            self.status = self.status.or(Some(s));
        }
        while let Some(key) = member_key(m, t, Role::SuccessFlag, Value::is_boolean) {
            let ok = m.remove(&key).and_then(|v| v.as_bool()).unwrap_or(true);
            failed |= !ok;
            self.status = self.status.or(Some(if ok { Status::Success } else { Status::Error }));
        }
        let partial = member_key(m, t, Role::PartialFlag, |v| v.as_bool() == Some(true)).is_some();
        if partial && self.status != Some(Status::Error) {
            self.status = Some(Status::Partial);
        }
        failed
    }

    /// An error object as the body: Notion's and Stripe's `{"object": "error", ...}`, or a bare
    /// `{code, message}` under isError.
    fn lift_error_body(&mut self, m: &Map<String, Value>, t: &conventions::Table) -> bool {
        let typed = m.get("object").or_else(|| m.get("type")).and_then(Value::as_str) == Some("error");
        let bare =
            self.is_error && (t.member(Role::ErrorCode, m).is_some() || t.member(Role::ErrorMessage, m).is_some());
        let has_member = member_key(m, t, Role::ErrorMember, |v| !v.is_null()).is_some();
        if !(typed || bare) || self.error.is_some() || has_member {
            return false;
        }
        let mut body = m.clone();
        body.remove("object");
        if body.get("type").and_then(Value::as_str) == Some("error") {
            body.remove("type");
        }
        self.error = Some(error_from(&Value::Object(body)));
        true
    }

    /// An HTTP status beside the failure is its code when it has no other (GitHub's
    /// `"status": "422"`, `{"error": "...", "status_code": 404}`).
    fn code_from_http_status(&mut self, m: &Map<String, Value>, t: &conventions::Table) {
        let Some(e) = self.error.as_mut().filter(|e| e.code.is_null()) else { return };
        let is_status =
            |v: &Value| v.as_u64().is_some_and(|n| (400..600).contains(&n)) || v.as_str().is_some_and(is_http_status);
        if let Some(key) = member_key(m, t, Role::HttpStatus, is_status) {
            e.code = m.get(&key).cloned().unwrap_or(Value::Null);
        }
    }

    /// An `error` member, or the first of an `errors` list (GraphQL's beside partial `data` are
    /// the failure only when the result says isError); true when it is the failure.
    fn lift_error_member(
        &mut self,
        m: &mut Map<String, Value>,
        has_data: bool,
        failed: bool,
        t: &conventions::Table,
    ) -> bool {
        let member = member_key(m, t, Role::ErrorMember, |e| !e.is_null() && *e != Value::Bool(false));
        let listed = || {
            let key = member_key(m, t, Role::ErrorList, |v| v.as_array().is_some_and(|a| !a.is_empty()))?;
            m.get(&key).and_then(|v| v.get(0)).cloned()
        };
        let take_listed = self.error.is_none() && (!has_data || self.is_error);
        let Some(e) =
            member.as_ref().and_then(|k| m.get(k).cloned()).or_else(|| if take_listed { listed() } else { None })
        else {
            return false;
        };
        if let Some(k) = member_key(m, t, Role::ErrorMember, |_| true) {
            m.remove(&k);
        }
        if !has_data || failed || self.is_error {
            self.error = Some(error_from(&e));
            true
        } else {
            self.meta.insert("error".into(), e);
            false
        }
    }

    /// A failed level's own code and message, when no error object said them.
    fn lift_bare_error(&mut self, m: &mut Map<String, Value>, t: &conventions::Table) {
        let text = |v: Value| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
        if self.error.is_none() {
            let code = code_value(take_member(m, t, Role::ErrorCode).unwrap_or(Value::Null));
            let message = take_member(m, t, Role::ErrorMessage).map(text);
            self.error = Some(ErrorInfo { code, message, details: Value::Null });
        }
        if let Some(e) = &mut self.error
            && e.message.is_none()
        {
            e.message = take_member(m, t, Role::ErrorMessage).and_then(|v| v.as_str().map(str::to_string));
        }
    }
}

/// Unwraps JSON-RPC-like and single-payload wrappers; returns the innermost payload.
fn unwrap(mut cur: Value, w: &mut Work) -> Value {
    for _ in 0..MAX_UNWRAP {
        let Value::Object(mut m) = cur else { return cur };
        let has_result = m.get("result").is_some_and(|r| !r.is_null());
        let has_data = has_result || m.get("data").is_some_and(|d| !d.is_null());
        let has_records = primary_array(&m).is_some();
        let failed = w.lift(&mut m, has_data || has_records);
        if failed && !has_data {
            w.scopes.push(m.clone());
            // What is left of an error object is detail worth keeping.
            if let Some(e) = &mut w.error
                && e.details.is_null()
            {
                let t = conventions::table();
                let lifted = |k: &str| t.is(Role::ErrorCode, &norm(k)) || t.is(Role::ErrorMessage, &norm(k));
                let rest: Map<String, Value> = m.into_iter().filter(|(k, _)| !is_meta_key(k) && !lifted(k)).collect();
                if !rest.is_empty() {
                    e.details = Value::Object(rest);
                }
            }
            return Value::Null;
        }
        // {id, result: X} and {data: X, timestamp, source}: step into X, keep the rest.
        let inner_key = ["result", "data"].into_iter().find(|k| {
            m.get(*k).is_some_and(|v| v.is_object() || v.is_array())
                && m.keys().filter(|o| o.as_str() != *k).all(|o| {
                    is_meta_key(o) || m.get(o).is_some_and(|v| !v.is_object() && !v.is_array()) && m.len() <= 4
                })
        });
        // {searchResults: {...}}: exactly one key that is not response metadata, holding an object.
        let single_key = || {
            let sig: Vec<&String> = m.keys().filter(|k| !is_meta_key(k)).collect();
            match sig.as_slice() {
                [k] if m.get(*k).is_some_and(Value::is_object) && primary_array(&m).is_none() => Some((*k).clone()),
                _ => None,
            }
        };
        // {nameWithOwner, issues: {nodes, pageInfo}}: a few scalars beside one object that is a
        // list wrapper: step toward the list (an entity with a nested object is left alone).
        let toward_list = || {
            if primary_array(&m).is_some() {
                return None;
            }
            let objects: Vec<&String> = m.iter().filter(|(_, v)| v.is_object()).map(|(k, _)| k).collect();
            let scalars = m.values().filter(|v| !v.is_object() && !v.is_array()).count();
            match objects.as_slice() {
                [k] if scalars <= 3 && m.len() == scalars + 1 => {
                    m.get(*k).and_then(Value::as_object).and_then(primary_array).map(|_| (*k).clone())
                }
                _ => None,
            }
        };
        let Some(key) = inner_key.map(str::to_string).or_else(single_key).or_else(toward_list) else {
            return Value::Object(m);
        };
        let inner = m.remove(&key).unwrap_or(Value::Null);
        w.source.push_str(&format!(" → {key}"));
        for (k, v) in &m {
            w.meta.entry(k.clone()).or_insert_with(|| v.clone());
        }
        w.scopes.push(m);
        cur = inner;
    }
    cur
}

/// The records of a list wrapper (its array, or a map of records keyed by their ids), the
/// wrapper's other fields (where paging is read), and whether the payload is a list.
fn choose_records(
    mut data: Value,
    from_text: bool,
    w: &mut Work,
    el: &mut Elisions,
) -> (Value, Option<Map<String, Value>>, bool) {
    if !from_text && shapes::keyed_records(&data).is_some_and(|r| r.len() >= 2) {
        // The payload itself is `{"link_1": {...}, "link_2": {...}}`.
        let (items, keys) = shapes::into_records(data);
        w.meta.insert("recordKeys".into(), keys);
        w.source.push_str(" → records keyed by id");
        return (items, None, true);
    }
    let Value::Object(m) = &mut data else {
        let is_list = data.is_array();
        return (data, None, is_list);
    };
    let array_key = if from_text { None } else { primary_array(m) };
    let no_records = array_key.as_ref().is_none_or(|k| m.get(k).and_then(Value::as_array).is_some_and(Vec::is_empty));
    let entity_fields = |key: &str| m.iter().filter(|(k, v)| *k != key && !is_meta_key(k) && !v.is_array()).count();
    let keyed = match no_records && !from_text {
        true => shapes::keyed_map_key(m).filter(|k| entity_fields(k) <= 3),
        false => None,
    };
    let Some(key) = keyed.clone().or(array_key) else { return (data, None, false) };
    let mut m = std::mem::take(m);
    let mut items = m.remove(&key).unwrap_or(Value::Null);
    w.source.push_str(&format!(" → {key}"));
    if keyed.is_some() {
        let (records, keys) = shapes::into_records(items);
        w.meta.insert("recordKeys".into(), keys);
        items = records;
    } else if key == "edges"
        && let Value::Array(edges) = &items
        && edges.iter().all(|e| e.get("node").is_some() || sentinel(e).is_some())
    {
        // A long list of edges: the rest of the nodes are read from the text.
        items = Value::Array(
            edges
                .iter()
                .filter_map(|e| match sentinel(e) {
                    Some((id, _)) => el.project(id, "node"),
                    None => e.get("node").cloned(),
                })
                .collect(),
        );
    }
    for (k, v) in &m {
        if !is_meta_key(k) || !matches!(norm(k).as_str(), "pagination" | "pageinfo" | "summary") {
            w.meta.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    (items, Some(m), true)
}

/// A content block that reports a failure though the result does not say isError: a text block
/// whose `text` is an object holding `error` (against the schema), or one marked
/// `metadata.error: true` (jerhadf/linear-mcp-server index.ts 1041-1106 sends both; corpus
/// `jerhadf-linear-mcp-server/create_issue_validation_error.json`).
fn block_error(blocks: &[Value]) -> Option<ErrorInfo> {
    blocks.iter().find_map(|b| {
        let body = b.get("text").filter(|t| t.is_object())?;
        let marked =
            ["metadata", "_meta"].iter().any(|k| b.get(*k).and_then(|m| m.get("error")) == Some(&Value::Bool(true)));
        match body.get("error").filter(|e| !e.is_null() && **e != Value::Bool(false)) {
            Some(e) => Some(error_from(e)),
            None if marked => Some(error_from(body)),
            None => None,
        }
    })
}

/// Output-schema members that count this page only ("The total number of tasks in this page"),
/// as `key_norm` writes them: no total is read from them.
fn page_count_keys(descriptor: Option<&Value>) -> Vec<String> {
    let t = conventions::table();
    let props =
        descriptor.and_then(|d| d.get("outputSchema")).and_then(|s| s.get("properties")).and_then(Value::as_object);
    let counts_page = |p: &Value| {
        let d = p.get("description").and_then(Value::as_str).unwrap_or_default().to_lowercase();
        t.mentions(Role::PageCountPhrase, &d)
    };
    props.map(|ps| ps.iter().filter(|(_, p)| counts_page(p)).map(|(k, _)| norm(k)).collect()).unwrap_or_default()
}

/// Normalizes one `tools/call` answer. `descriptor` is the tool's descriptor, when known.
pub fn normalize(tool_name: &str, descriptor: Option<&Value>, body: &ReplyBody) -> Envelope {
    normalize_owned(tool_name, descriptor, body.clone())
}

/// Scalars and small objects of `v` (one level): what pagination detection reads, without a
/// copy of the data.
fn scan_copy(v: &Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => scan_copy_map(m),
        _ => Map::new(),
    }
}

fn scan_copy_map(m: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    {
        for (k, x) in m {
            match x {
                Value::Array(_) => {}
                Value::Object(inner) if inner.len() <= 64 => {
                    let small: Map<String, Value> = inner
                        .iter()
                        .filter(|(_, y)| !y.is_array() && !y.is_object())
                        .map(|(a, b)| (a.clone(), b.clone()))
                        .collect();
                    out.insert(k.clone(), Value::Object(small));
                }
                Value::Object(_) => {}
                other => {
                    out.insert(k.clone(), other.clone());
                }
            }
        }
    }
    out
}

/// Normalizes one `tools/call` answer, taking it apart instead of copying it (a 100 MB result
/// is not duplicated). `descriptor` is the tool's descriptor, when known.
pub fn normalize_owned(tool_name: &str, descriptor: Option<&Value>, body: ReplyBody) -> Envelope {
    normalize_reply(tool_name, descriptor, body, Elisions::default())
}

/// Normalizes a reply parsed as a skeleton (`Reply::body` with its `elisions`): a long list
/// becomes records read from the reply's text, never a tree.
pub fn normalize_reply(tool_name: &str, descriptor: Option<&Value>, body: ReplyBody, mut el: Elisions) -> Envelope {
    let mut env = normalize_in(tool_name, descriptor, body, &mut el);
    // Whatever else holds left-out elements (metadata, error details) gets them back.
    if let Some(m) = &mut env.metadata {
        for v in m.values_mut() {
            el.expand(v);
        }
    }
    if let Some(e) = &mut env.error {
        el.expand(&mut e.details);
    }
    env.data = match std::mem::take(&mut env.data) {
        Data::Value(v) => finish_data(v, &el),
        other => other,
    };
    env
}

/// A list that is exactly one long array of the text becomes records read from the text.
fn finish_data(mut v: Value, el: &Elisions) -> Data {
    if let Value::Array(a) = &v
        && a.len() == SAMPLE + 1
        && let Some((id, _)) = a.last().and_then(sentinel)
        && !has_sentinel(&a[..SAMPLE])
        && let Some(e) = el.get(id)
    {
        return Data::Items(RawItems::from_elided(e.clone()));
    }
    el.expand(&mut v);
    Data::Value(v)
}

fn normalize_in(tool_name: &str, descriptor: Option<&Value>, body: ReplyBody, el: &mut Elisions) -> Envelope {
    let result = match body {
        ReplyBody::Error(err) => return rpc_error(tool_name, &err),
        ReplyBody::Result(r) => r,
    };
    let mut w = Work {
        meta: Map::new(),
        status: None,
        message: None,
        error: None,
        scopes: vec![],
        source: String::new(),
        is_error: false,
    };
    // 1. Where is the payload?
    let mut parts = payload::take_apart(result, &mut w, el);
    let has_structured = parts.structured.is_some();
    let mut p = payload::find_payload(&mut parts, tool_name, &mut w, el);

    // 2. Unwrap wrappers and read status, errors and the rest.
    let data = match p.value.take() {
        Some(v) => unwrap(v, &mut w),
        None => Value::Null,
    };

    // 3. Choose the records of a list; an Agentman-style _meta may hold the full list.
    let (data, list_scope, is_list) = choose_records(data, p.from_text_records, &mut w, el);
    let mut r = finish::Reading { data, is_list };
    finish::full_list_in_meta(&mut r, has_structured, &mut w);

    // 4. Content items that are not text, and prose.
    let others = &parts.content.others;
    finish::place_content(&mut r, others, p.prose_text.as_ref(), &mut w);
    finish::nothing_found(&mut r, &p, others.is_empty(), tool_name, descriptor, &mut w);

    // 5. Classify, and settle the status and the error.
    let response_type = finish::classify(&r, p.failure_text, tool_name, descriptor, &w);
    finish::settle(response_type, &mut r.data, p.prose_text.as_ref(), &mut w);

    // 6. Pagination and totals.
    let scopes = finish::Scopes { list: list_scope.as_ref(), structured: parts.structured_scan.as_ref() };
    let (pagination, summary) = finish::paging(&r.data, scopes, &p, descriptor, &w);
    if !w.source.is_empty() {
        w.meta.insert("source".into(), Value::String(w.source.trim_start_matches(" → ").to_string()));
    }
    Envelope {
        tool_name: tool_name.to_string(),
        response_type,
        data: Data::Value(r.data),
        pagination,
        summary,
        status: w.status,
        message: w.message,
        error: w.error,
        metadata: (!w.meta.is_empty()).then_some(w.meta),
        data_exact: None,
    }
}

/// Records in prose: a markdown table, CSV, a bullet list, or several `Key: value` blocks; and
/// the name of the form they were written in.
pub(super) fn records_from_prose(prose: &[String], tool: &str) -> Option<(Vec<Value>, String, &'static str)> {
    if prose.len() == 1
        && let Some((rows, rest)) = super::groups::rule_separated(&prose[0])
    {
        return Some((rows, rest, "bullet groups between rule lines"));
    }
    if prose.len() > 1 {
        let blocks: Option<Vec<Value>> = prose.iter().map(|p| text::key_value_block(p).map(Value::Object)).collect();
        if let Some(b) = blocks {
            return Some((b, String::new(), "Key: value blocks"));
        }
    }
    if prose.len() == 1
        && let Some((rows, header)) = text::keyed_records(&prose[0])
    {
        return Some((rows, header, "Key: value records"));
    }
    if prose.len() == 1 {
        // One block of `Key: value` records separated by blank lines (search results), perhaps
        // under a one-line header.
        let mut chunks: Vec<&str> = prose[0].split("\n\n").map(str::trim).filter(|c| !c.is_empty()).collect();
        let header = match chunks.first() {
            Some(h) if !h.contains('\n') && text::key_value_block(h).is_none() => Some(chunks.remove(0).to_string()),
            _ => None,
        };
        if chunks.len() >= 2 {
            let blocks: Option<Vec<Value>> =
                chunks.iter().map(|c| text::key_value_block(c).map(Value::Object)).collect();
            if let Some(b) = blocks {
                return Some((b, header.unwrap_or_default(), "Key: value blocks"));
            }
        }
    }
    let all = prose.join("\n\n");
    if let Some((rows, rest)) = text::markdown_table(&all) {
        return Some((rows, rest, "markdown table"));
    }
    if let Some(rows) = text::csv(&all) {
        return Some((rows, String::new(), "CSV"));
    }
    if prose.len() == 1
        && let Some((rows, rest)) = text::aligned_table(&all)
    {
        return Some((rows, rest, "table aligned with spaces"));
    }
    if let Some((rows, rest)) = text::bullet_list(&all) {
        return Some((rows, rest, "bullets"));
    }
    if prose.len() == 1 && text::key_value_block(&all).is_none() {
        return text::item_lines(&all, &name_words(tool)).map(|(rows, rest)| (rows, rest, "lines"));
    }
    None
}

fn rpc_error(tool_name: &str, err: &Value) -> Envelope {
    let info = error_from(err);
    let mut meta = Map::new();
    meta.insert("source".into(), json!("JSON-RPC error reply"));
    Envelope {
        tool_name: tool_name.to_string(),
        response_type: ResponseType::Error,
        data: Data::default(),
        pagination: None,
        summary: None,
        status: Some(Status::Error),
        message: info.message.clone(),
        error: Some(info),
        metadata: Some(meta),
        data_exact: None,
    }
}

mod finish;
mod payload;

#[cfg(test)]
mod skeleton_tests;
#[cfg(test)]
mod tests;
