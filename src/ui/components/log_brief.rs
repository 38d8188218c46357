//! A protocol message in brief, for its row in the log: what a person looks for. A request says
//! its tool, URI or prompt and the arguments; a reply says its outcome (ok, `isError`, or the
//! error's code and message) and what it holds; a notification its params. The era's `_meta`
//! (protocol version, client info, progress tokens) is left to the entry's whole view.
//!
//! A message is parsed here only when its row is drawn (and the brief kept, see `LogPane`): the
//! log itself never parses, and a message longer than the log keeps is a preview that is no
//! JSON, said as such.

use serde_json::{Map, Value};

use crate::mcp::exact_numbers;
use crate::mcp::log::{LogEntry, Role};

/// Fewer characters than any row shows: the row cuts the rest with `…`.
const MAX: usize = 240;

/// The brief of a protocol entry; None for other entries (stderr, warnings), whose text is the row.
pub fn brief(e: &LogEntry) -> Option<String> {
    let m = e.msg.as_ref()?;
    let method = m.method.as_deref().unwrap_or_default();
    let Ok(v) = read(&e.text) else {
        let open = crate::ui::keymap::key(crate::ui::keymap::Scope::Log, crate::ui::keymap::Command::Open);
        return Some(match m.role {
            Role::Error => format!("error (a long reply: {open} shows it whole)"),
            Role::Reply => format!("ok (a long reply: {open} shows it whole)"),
            _ => format!("(a long message: {open} shows it whole)"),
        });
    };
    let out = match m.role {
        Role::Error => error(&v),
        Role::Reply => reply(method, v.get("result")),
        Role::Request | Role::Notification => request(method, v.get("params")),
    };
    crate::deep::drop_value(v);
    Some(out)
}

/// A message's text as JSON, each number as written: a float would round a typed
/// `123456789012345678901234567890` that went out whole.
fn read(text: &str) -> Result<Value, String> {
    exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH)
}

/// `code message` of an error reply.
fn error(v: &Value) -> String {
    let e = v.get("error");
    let code = e.and_then(|e| e.get("code")).map(short).unwrap_or_default();
    let message = e.and_then(|e| e.get("message")).and_then(Value::as_str).unwrap_or_default();
    format!("error {code} {message}").trim_end().to_string()
}

/// What a request or notification asks: the tool, URI or prompt named first, then the rest.
fn request(method: &str, params: Option<&Value>) -> String {
    let Some(p) = params.and_then(Value::as_object) else { return String::new() };
    if method == "notifications/progress"
        && let Some(brief) = progress(p)
    {
        return brief;
    }
    let mut rest = without_meta(p);
    let mut head = vec![];
    for key in ["name", "uri", "ref"] {
        if let Some(v) = rest.remove(key) {
            head.push(match (key, &v) {
                ("ref", Value::Object(r)) => r.get("name").or_else(|| r.get("uri")).map(text).unwrap_or_default(),
                (_, Value::String(s)) => s.clone(),
                _ => short(&v),
            });
        }
    }
    if method == "tools/call" || method == "prompts/get" {
        let args = rest.remove("arguments").unwrap_or(Value::Object(Map::new()));
        head.push(short(&args));
    }
    if !rest.is_empty() {
        head.push(short(&Value::Object(rest)));
    }
    cut(head.join(" "))
}

/// A progress notification as a person reads it: `2/5 step 2 of 5 (token 3)`.
fn progress(p: &Map<String, Value>) -> Option<String> {
    let number = |v: &Value| match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        _ => short(v),
    };
    let done = number(p.get("progress")?);
    let of = p.get("total").map(|t| format!("/{}", number(t))).unwrap_or_default();
    let message = p.get("message").and_then(Value::as_str).map(|m| format!(" {m}")).unwrap_or_default();
    let token = p.get("progressToken").map(|t| format!(" (token {})", text(t))).unwrap_or_default();
    Some(cut(format!("{done}{of}{message}{token}")))
}

/// A reply's outcome and what it holds: `isError` and its first text for a failed tool call,
/// else `ok` and the counts of its lists, `nextCursor` when there is more.
fn reply(method: &str, result: Option<&Value>) -> String {
    let Some(r) = result.and_then(Value::as_object) else { return "ok".into() };
    if r.get("isError") == Some(&Value::Bool(true)) {
        return cut(format!("isError {}", first_text(r).unwrap_or_default()));
    }
    let mut parts = vec!["ok".to_string()];
    // Modern-era servers stamp serverInfo into every result's `_meta` (the Python SDK's
    // `_stamp_server_info`): only the handshake's reply is said by it.
    let handshake = method == "server/discover" || method == "initialize";
    let meta_info = || r.get("_meta")?.get(crate::mcp::era::SERVER_INFO_META).filter(|_| handshake);
    if let Some(info) = r.get("serverInfo").or_else(meta_info) {
        let info = Some(info);
        let name = info.and_then(|i| i.get("name")).and_then(Value::as_str).unwrap_or_default();
        let version = info.and_then(|i| i.get("version")).and_then(Value::as_str).unwrap_or_default();
        parts.push(format!("{name} {version}").trim().to_string());
        if let Some(p) = r.get("protocolVersion").and_then(Value::as_str) {
            parts.push(format!("protocol {p}"));
        }
        if let Some(Value::Array(versions)) = r.get("supportedVersions") {
            let last = versions.iter().filter_map(Value::as_str).max().unwrap_or_default();
            parts.push(format!("{}, up to {last}", crate::ui::fit::count(versions.len(), "version", "versions")));
        }
        return cut(parts.join(" · "));
    }
    let rest = without_meta(r);
    for (key, v) in &rest {
        match v {
            Value::Array(a) => parts.push(format!("{} {key}", a.len())),
            _ if key == "structuredContent" => parts.push("structuredContent".into()),
            _ => {}
        }
    }
    if rest.get("nextCursor").is_some_and(|c| !c.is_null()) {
        parts.push("more (nextCursor)".into());
    }
    if method == "tools/call"
        && let Some(t) = first_text(r)
    {
        parts.push(t);
    } else if parts.len() == 1 && !rest.is_empty() {
        parts.push(short(&Value::Object(rest)));
    }
    cut(parts.join(" · "))
}

/// The first text block's text, to see what a call answered at a glance.
fn first_text(r: &Map<String, Value>) -> Option<String> {
    let blocks = r.get("content")?.as_array()?;
    let text = blocks.iter().find_map(|b| b.get("text").and_then(Value::as_str))?;
    Some(crate::sanitize::truncate(text, MAX).into_owned())
}

/// The object without `_meta` (the era's request metadata, progress tokens): shown whole in the entry.
fn without_meta(m: &Map<String, Value>) -> Map<String, Value> {
    m.iter().filter(|(k, _)| *k != "_meta").map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// A string as it reads, anything else as JSON.
fn text(v: &Value) -> String {
    match exact_numbers::literal(v) {
        Some(l) => l,
        None => v.as_str().map_or_else(|| short(v), str::to_string),
    }
}

/// Compact JSON, only its first bytes written, numbers as they were written.
fn short(v: &Value) -> String {
    crate::mcp::wire::with_exact_literals(&crate::deep::to_string_prefix(v, 4 * MAX)).into_owned()
}

fn cut(s: String) -> String {
    crate::sanitize::truncate(&s, MAX).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(method: &str, params: Value) -> String {
        request(method, Some(&params))
    }

    #[test]
    fn requests_say_the_tool_or_uri_and_the_arguments_never_the_meta() {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "progressToken": 3});
        let call = req("tools/call", json!({"_meta": meta, "name": "echo", "arguments": {"message": "hi"}}));
        assert_eq!(call, r#"echo {"message":"hi"}"#);
        assert_eq!(req("resources/read", json!({"_meta": meta, "uri": "file:///a.txt"})), "file:///a.txt");
        assert_eq!(req("tools/list", json!({"_meta": meta})), "");
        let complete = req(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "x"}}),
        );
        assert_eq!(complete, r#"p {"argument":{"name":"a","value":"x"}}"#);
        // The demo's slow_task (src/demo) and server-everything's long-running operation send these.
        let step = json!({"progressToken": 3, "progress": 2.0, "total": 5.0, "message": "step 2 of 5"});
        assert_eq!(req("notifications/progress", step), "2/5 step 2 of 5 (token 3)");
        let bare = json!({"progressToken": "t-1", "progress": 0.5});
        assert_eq!(req("notifications/progress", bare), "0.5 (token t-1)");
    }

    #[test]
    fn numbers_are_said_as_they_went_out() {
        let sent = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":123456789012345678901234567890,"b":1.10}}}"#;
        let v = read(sent).unwrap_or_default();
        assert_eq!(request("tools/call", v.get("params")), r#"add {"a":123456789012345678901234567890,"b":1.10}"#);
        let step = r#"{"params":{"progressToken":98765432109876543210,"progress":1}}"#;
        let v = read(step).unwrap_or_default();
        assert_eq!(request("notifications/progress", v.get("params")), "1 (token 98765432109876543210)");
    }

    #[test]
    fn replies_say_the_outcome() {
        let failed = json!({"content": [{"type": "text", "text": "no such user"}], "isError": true});
        assert_eq!(reply("tools/call", Some(&failed)), "isError no such user");
        let ok = json!({"content": [{"type": "text", "text": "hi"}], "structuredContent": {"a": 1}, "_meta": {}});
        assert_eq!(reply("tools/call", Some(&ok)), "ok · 1 content · structuredContent · hi");
        let list = json!({"tools": [{}, {}], "nextCursor": "c2"});
        assert_eq!(reply("tools/list", Some(&list)), "ok · 2 tools · more (nextCursor)");
        let dated = json!({"supportedVersions": ["2025-11-25", "2026-07-28"], "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "demo", "version": "1.0"}}});
        assert_eq!(reply("server/discover", Some(&dated)), "ok · demo 1.0 · 2 versions, up to 2026-07-28");
        assert_eq!(reply("ping", Some(&json!({}))), "ok");
        let one = json!({"supportedVersions": ["2026-07-28"], "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fastmcp-forms", "version": "4.1.0"}}});
        assert_eq!(reply("server/discover", Some(&one)), "ok · fastmcp-forms 4.1.0 · 1 version, up to 2026-07-28");
        // mcp-server-git on the Python SDK (mcp 2.3.0, mcp/server/runner.py `_stamp_server_info`)
        // stamps serverInfo into every 2026-era result: a call's reply still says what it holds.
        let stamp = json!({"io.modelcontextprotocol/serverInfo": {"name": "mcp-git", "version": "2026.10.19"}});
        let call = json!({"content": [{"type": "text", "text": "Commit history:"}], "isError": false, "resultType": "complete", "_meta": stamp});
        assert_eq!(reply("tools/call", Some(&call)), "ok · 1 content · Commit history:");
        let prompts = json!({"prompts": [{}, {}], "resultType": "complete", "_meta": stamp});
        assert_eq!(reply("prompts/list", Some(&prompts)), "ok · 2 prompts");
        assert_eq!(error(&json!({"error": {"code": -32602, "message": "Unknown tool"}})), "error -32602 Unknown tool");
    }
}
