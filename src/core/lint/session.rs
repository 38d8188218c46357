//! What a recorded session shows: each tool call's result or error, the pages of each listing,
//! the notifications sent. Read from a recording (`mcplens record`, or the TUI's log export).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

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
    let mut tools: Vec<Value> = vec![];
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
                let Ok(reply) = crate::json_depth::parse::<Value>(&m.raw, max_depth) else { continue };
                answered(&q, reply, &mut subject, &mut facts, &mut chains, &mut tools);
            }
            _ => {}
        }
    }
    subject.tools = tools;
    subject.session = Some(facts);
    subject
}

fn answered(
    q: &Asked,
    mut reply: Value,
    subject: &mut Subject,
    facts: &mut SessionFacts,
    chains: &mut HashMap<String, HashSet<String>>,
    tools: &mut Vec<Value>,
) {
    let result = reply.get_mut("result").map(Value::take);
    match q.method.as_str() {
        "initialize" | "server/discover" => subject.server = result.or(subject.server.take()),
        "tools/call" => facts.calls.push(CallFact {
            tool: q.tool.clone().unwrap_or_default(),
            result,
            error: reply.get_mut("error").map(Value::take),
        }),
        m if m.ends_with("/list") => {
            let Some(result) = result else { return };
            let chain = chains.entry(m.to_string()).or_default();
            if q.first_page {
                chain.clear();
                if m == "tools/list" {
                    tools.clear();
                }
            }
            if let Some(c) = result.get("nextCursor").and_then(Value::as_str)
                && !chain.insert(c.to_string())
            {
                facts.repeated_cursors.push((m.to_string(), c.to_string()));
            }
            if m == "tools/list" {
                tools.extend(result.get("tools").and_then(Value::as_array).into_iter().flatten().cloned());
            }
        }
        _ => {}
    }
}

pub fn check(facts: &SessionFacts, subject: &Subject) -> Vec<Finding> {
    let mut out = vec![];
    let by_name: HashMap<&str, &Value> =
        subject.tools.iter().filter_map(|t| Some((t.get("name")?.as_str()?, t))).collect();
    for call in &facts.calls {
        let tool = by_name.get(call.tool.as_str());
        if let (Some(result), Some(schema)) =
            (&call.result, tool.and_then(|t| t.get("outputSchema")).filter(|s| s.is_object()))
        {
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
