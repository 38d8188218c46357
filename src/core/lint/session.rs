//! What a recorded session shows: each tool call's result or error, the pages of each listing,
//! the notifications sent. Read from a recording (`mcplens record`, or the TUI's log export).

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Finding, Subject};
use crate::replay::{Entry, Recording, Side};

/// One tools/call and its answer.
#[derive(Debug, Clone)]
pub struct CallFact {
    pub tool: String,
    pub result: Option<Value>,
    pub error: Option<Value>,
}

#[derive(Debug, Default)]
pub struct SessionFacts {
    pub calls: Vec<CallFact>,
    /// `(method, cursor)` for each nextCursor given again within one run of pages.
    pub repeated_cursors: Vec<(String, String)>,
    /// Notification methods the server sent.
    pub notifications: HashSet<String>,
}

/// What the client asked, by id, until the answer comes.
struct Asked {
    method: String,
    tool: Option<String>,
    first_page: bool,
}

/// The subject a recording holds: the server's handshake result, the last listing of tools, and
/// the session's facts.
pub fn from_recording(rec: &Recording, max_depth: usize) -> Subject {
    let mut subject = Subject::default();
    let mut facts = SessionFacts::default();
    let mut asked: HashMap<String, Asked> = HashMap::new();
    let mut chains: HashMap<String, HashSet<String>> = HashMap::new();
    let mut tools: Vec<Box<RawValue>> = vec![];
    for entry in &rec.entries {
        let m = match entry {
            Entry::Restart => {
                asked.clear();
                chains.clear();
                continue;
            }
            Entry::Message(m) => m,
        };
        let id = m.value.get("id").map(Value::to_string);
        let method = m.value.get("method").and_then(Value::as_str);
        match (m.side, id, method) {
            (Side::Client, Some(id), Some(method)) => {
                let params = m.value.get("params");
                let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str).map(str::to_string);
                let first_page = params.and_then(|p| p.get("cursor")).is_none();
                asked.insert(id, Asked { method: method.to_string(), tool, first_page });
            }
            (Side::Server, None, Some(method)) => {
                facts.notifications.insert(method.to_string());
            }
            (Side::Server, Some(id), None) => {
                let Some(q) = asked.remove(&id) else { continue };
                if crate::json_depth::depth(&m.raw) > max_depth {
                    continue;
                }
                if q.method.ends_with("/list") {
                    let Ok(page) = crate::json_depth::parse_borrowed::<Page>(&m.raw) else { continue };
                    listed(&q, page, &mut facts, &mut chains, &mut tools);
                    continue;
                }
                let Ok(reply) = crate::json_depth::parse::<Value>(&m.raw, max_depth) else { continue };
                answered(&q, reply, &mut subject, &mut facts);
            }
            _ => {}
        }
    }
    subject.tools = tools;
    subject.session = Some(facts);
    subject
}

fn answered(q: &Asked, mut reply: Value, subject: &mut Subject, facts: &mut SessionFacts) {
    let result = reply.get_mut("result").map(Value::take);
    match q.method.as_str() {
        "initialize" | "server/discover" => subject.server = result.or(subject.server.take()),
        "tools/call" => facts.calls.push(CallFact {
            tool: q.tool.clone().unwrap_or_default(),
            result,
            error: reply.get_mut("error").map(Value::take),
        }),
        _ => {}
    }
}

/// A page of a listing, its items kept as text.
#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow)]
    result: Option<PageResult<'a>>,
}

#[derive(Deserialize)]
struct PageResult<'a> {
    #[serde(rename = "nextCursor")]
    next_cursor: Option<Value>,
    #[serde(borrow, default)]
    tools: Option<Vec<&'a RawValue>>,
}

/// A page of a listing: its cursor followed, and for tools/list the tools kept as text.
fn listed(
    q: &Asked,
    page: Page<'_>,
    facts: &mut SessionFacts,
    chains: &mut HashMap<String, HashSet<String>>,
    tools: &mut Vec<Box<RawValue>>,
) {
    let Some(result) = page.result else { return };
    let m = q.method.as_str();
    let chain = chains.entry(m.to_string()).or_default();
    if q.first_page {
        chain.clear();
        if m == "tools/list" {
            tools.clear();
        }
    }
    if let Some(c) = result.next_cursor.as_ref().and_then(Value::as_str)
        && !chain.insert(c.to_string())
    {
        facts.repeated_cursors.push((m.to_string(), c.to_string()));
    }
    if m == "tools/list" {
        tools.extend(result.tools.into_iter().flatten().map(RawValue::to_owned));
    }
}

pub fn check(facts: &SessionFacts, subject: &Subject, max_depth: usize) -> Vec<Finding> {
    let mut out = vec![];
    let by_name = output_schemas(subject);
    // Each output schema read once, when a call needs it.
    let mut read: HashMap<&str, Option<Value>> = HashMap::new();
    for call in &facts.calls {
        let tool = by_name.get(call.tool.as_str());
        let schema = match tool {
            Some(Some(raw)) => read
                .entry(call.tool.as_str())
                .or_insert_with(|| {
                    crate::json_depth::parse::<Value>(raw.get(), max_depth).ok().filter(Value::is_object)
                })
                .as_ref(),
            _ => None,
        };
        if let (Some(result), Some(schema)) = (&call.result, schema) {
            out.extend(output_schema(&call.tool, result, schema));
        }
        if let (Some(e), Some(_)) = (&call.error, tool) {
            let code = e.get("code").and_then(Value::as_i64).unwrap_or(0);
            // -32601/-32602 are the protocol's own (unknown method, invalid params).
            if code != -32601 && code != -32602 {
                let msg = e.get("message").and_then(Value::as_str).unwrap_or("");
                out.push(Finding::new(
                    "result/tool-error-as-rpc-error",
                    Some(&call.tool),
                    None,
                    format!("the call was answered with JSON-RPC error {code} {:?}: the model never sees it; return a result with isError: true", short(msg)),
                ));
            }
        }
    }
    for (method, cursor) in &facts.repeated_cursors {
        out.push(Finding::new(
            "list/repeated-cursor",
            None,
            None,
            format!("{method} gave nextCursor {:?} twice in one run of pages", short(cursor)),
        ));
    }
    let declared =
        subject.server.as_ref().and_then(|s| s.pointer("/capabilities/tools/listChanged")).and_then(Value::as_bool);
    if declared == Some(true) && !facts.notifications.contains("notifications/tools/list_changed") {
        out.push(Finding::new(
            "list-changed/never-sent",
            None,
            Some("/capabilities/tools/listChanged".into()),
            "the server declares tools.listChanged and sent no notifications/tools/list_changed in this session",
        ));
    }
    out
}

/// Each tool's name and its outputSchema's text, read one level deep.
fn output_schemas(subject: &Subject) -> HashMap<String, Option<&RawValue>> {
    let mut out = HashMap::new();
    for tool in &subject.tools {
        let Some(m) = super::members::of(tool) else { continue };
        let Some(name) = super::members::get(&m, "name").and_then(super::members::string) else { continue };
        out.insert(name.into_owned(), super::members::get(&m, "outputSchema"));
    }
    out
}

/// A result against its tool's outputSchema (an error result need not conform).
fn output_schema(tool: &str, result: &Value, schema: &Value) -> Vec<Finding> {
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        return vec![];
    }
    let Some(sc) = result.get("structuredContent") else {
        return vec![Finding::new(
            "result/output-schema",
            Some(tool),
            Some("/outputSchema".into()),
            "a result without structuredContent, though the tool declares an outputSchema",
        )];
    };
    match crate::schema::validate::validate(schema, sc) {
        Ok(v) if v.is_empty() => vec![],
        Ok(v) => {
            let first: Vec<String> = v.iter().take(3).map(|x| x.to_string()).collect();
            vec![Finding::new(
                "result/output-schema",
                Some(tool),
                Some("/outputSchema".into()),
                format!("structuredContent does not conform: {}", short(&first.join("; "))),
            )]
        }
        Err(_) => vec![],
    }
}

/// At most 200 characters of a server's text.
pub fn short(s: &str) -> String {
    crate::sanitize::truncate(s, 200).into_owned()
}
