use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::*;

fn reply(message: Value) -> Reply {
    let mut m = json!({"jsonrpc": "2.0", "id": 1});
    if let (Some(m), Some(parts)) = (m.as_object_mut(), message.as_object()) {
        m.extend(parts.clone());
    }
    Reply::parse(Arc::new(m.to_string()), Duration::ZERO, usize::MAX).unwrap_or_else(|e| panic!("{e}"))
}

fn call<'a>(tool: &'a str, args: &'a Map<String, Value>, descriptor: Option<&'a Value>) -> Call<'a> {
    Call { tool, arguments: Some(args), descriptor, hint: None }
}

#[test]
fn a_reply_is_read_into_the_envelope_with_its_status() {
    let args = Map::new();
    let c = call("t", &args, None);
    let ok = c.read(reply(json!({"result": {"content": [{"type": "text", "text": "hi"}]}})));
    assert_eq!((ok.status, ok.rpc_error.is_none()), (CallStatus::Ok, true));
    assert!(ok.reply.raw.contains("hi") && matches!(ok.reply.body, ReplyBody::Result(Value::Null)));

    let tool_error = c.read(reply(json!({"result": {"isError": true, "content": [{"type": "text", "text": "no"}]}})));
    assert_eq!(tool_error.status, CallStatus::ToolError);
    assert_eq!(tool_error.status.exit_code(), 1);

    let rpc = c.read(reply(json!({"error": {"code": -32602, "message": "unknown tool"}})));
    assert_eq!((rpc.status, rpc.envelope.response_type), (CallStatus::RpcError, ResponseType::Error));
    assert_eq!(rpc.rpc_error.map(|e| e["code"].clone()), Some(json!(-32602)));
}

#[test]
fn the_request_places_a_list_that_states_only_its_total() {
    let descriptor = json!({"inputSchema": {"properties": {"offset": {"type": "integer"}}}});
    let args = json!({"offset": 0}).as_object().cloned().unwrap_or_default();
    let c = call("t", &args, Some(&descriptor));
    let a = c.read(reply(json!({"result": {"structuredContent": {"items": [{"id": 1}, {"id": 2}], "total": 5}}})));
    assert!(a.envelope.has_more());
    let next = crate::envelope::pager::next_arguments(c.input_schema(), &args, &a.envelope).ok().flatten();
    assert_eq!(next.map(|(a, _)| Value::Object(a)), Some(json!({"offset": 2})));
}

#[test]
fn a_taught_hint_reads_the_answer() {
    let args = Map::new();
    let hint = Hint { tool: "t".into(), records: Some("/content/0/text".into()), ..Hint::default() };
    let c = Call { hint: Some(&hint), ..call("t", &args, None) };
    let a = c.read(reply(json!({"result": {"content": [{"type": "text", "text": "a\nb\nc"}]}})));
    assert_eq!((a.envelope.response_type, a.envelope.item_count()), (ResponseType::List, 3));
}

#[test]
fn the_pager_says_why_it_stopped() {
    let report = |stopped| PagerReport { count: PageCount { pages: 3, items: 30, total: None }, stopped };
    assert_eq!(report(Stopped::LastPage).status(), CallStatus::Ok);
    assert_eq!(report(Stopped::RepeatedPosition("\"x\"".into())).status(), CallStatus::Ok);
    let capped = report(Stopped::MaxPages(3));
    assert_eq!(
        (capped.status(), capped.stopped.note()),
        (CallStatus::Partial, Some("stopped after 3 pages (--max-pages)".into()))
    );
    let failed = Stopped::PageFailed { page: 4, message: "timed out".into() };
    assert_eq!(failed.note().as_deref(), Some("page 4 failed: timed out"));
    assert!(!failed.complete());
}

/// A reply as the server wrote it (numbers no `json!` holds).
fn raw_reply(text: &str) -> Reply {
    Reply::parse(Arc::new(text.to_string()), Duration::ZERO, usize::MAX).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_position_serde_json_would_rewrite_goes_back_as_written() {
    let descriptor = json!({"inputSchema": {"properties": {"offset": {"type": "integer"}, "cursor": {}}}});
    let args = Map::new();
    let c = call("t", &args, Some(&descriptor));
    for (member, literal) in [
        ("nextOffset", "123456789012345678901"),
        ("nextOffset", "1e2"),
        ("next_cursor", "-0"),
        ("next_cursor", "1.0000000000000000001"),
    ] {
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"structuredContent":{{"items":[{{"a":1}}],"{member}":{literal}}}}}}}"#
        );
        let a = c.read(raw_reply(&text));
        let p = a.envelope.pagination.clone().unwrap_or_default();
        assert_eq!(p.exact_position.as_deref(), Some(literal), "{text}");
        let next = crate::envelope::pager::next_arguments(c.input_schema(), &args, &a.envelope);
        let (next, position) = next.ok().flatten().unwrap_or_default();
        let arg = if member == "nextOffset" { "offset" } else { "cursor" };
        let sent = next.get(arg).and_then(Value::as_str).and_then(crate::mcp::wire::literal_of);
        assert_eq!(sent.as_deref(), Some(literal), "{next:?}");
        assert_eq!(crate::envelope::pager::shown_position(&position), literal);
    }
    // Without the literal (a reply read elsewhere), such a position is not sent at all.
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"items":[1],"nextOffset":1e2}}}"#;
    let mut env = c.read(raw_reply(text)).envelope;
    if let Some(p) = env.pagination.as_mut() {
        p.exact_position = None;
    }
    let why = crate::envelope::pager::next_arguments(c.input_schema(), &args, &env).err().unwrap_or_default();
    assert!(why.contains("cannot send back exactly") && why.contains("100"), "{why}");
}

#[test]
fn an_offset_no_u64_holds_gives_no_computed_next_offset() {
    let descriptor = json!({"inputSchema": {"properties": {"offset": {"type": "integer"}}}});
    let args = Map::new();
    let c = call("t", &args, Some(&descriptor));
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"items":[1,2],"offset":123456789012345678901,"hasMore":true}}}"#;
    let env = c.read(raw_reply(text)).envelope;
    let why = crate::envelope::pager::next_arguments(c.input_schema(), &args, &env).err().unwrap_or_default();
    assert!(why.contains("cannot add to exactly"), "{why}");
}

#[test]
fn merged_pages_keep_items_that_differ_only_beyond_a_floats_digits() {
    let args = Map::new();
    let c = call("t", &args, None);
    let page = |n: &str| {
        let text = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"structuredContent":{{"items":[{{"n":{n}}}]}}}}}}"#);
        let raw = Arc::new(text);
        let guide = c.exact_guide(&raw, usize::MAX);
        (c.read(Reply::parse(raw, Duration::ZERO, usize::MAX).unwrap_or_else(|e| panic!("{e}"))).envelope, guide)
    };
    let (a, ga) = page("123456789012345678901");
    let (b, gb) = page("123456789012345678902");
    let (g1, g2) = (ga.unwrap_or_else(|| a.clone()), gb.unwrap_or_else(|| b.clone()));
    let (mut merged, mut guide) = crate::envelope::pager::merge_exact(vec![a, b], vec![g1, g2], vec![], true);
    assert_eq!(merged.item_count(), 2, "not duplicates");
    let out = crate::json_out::write_envelope_exact(Vec::new(), &mut merged, &mut guide).unwrap_or_default();
    let out = String::from_utf8_lossy(&out);
    assert!(out.contains("123456789012345678901") && out.contains("123456789012345678902"), "{out}");
}

#[test]
fn a_short_lists_records_keep_the_numbers_as_the_server_wrote_them() {
    let args = Map::new();
    let c = call("t", &args, None);
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"items":[{"v":100000000000000000001,"f":1.10},{"v":2,"f":1e5}]}}}"#;
    let env = c.read(raw_reply(text)).envelope;
    assert_eq!(env.data.item_text(0).as_deref(), Some(r#"{"v":100000000000000000001,"f":1.10}"#));
    assert_eq!(env.data.item_text(1).as_deref(), Some(r#"{"v":2,"f":1e5}"#));
    // A list of numbers that serde_json writes back as sent stays a list of values.
    let plain = c.read(raw_reply(r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"items":[{"v":1.5}]}}}"#));
    assert!(matches!(plain.envelope.data, Data::Value(_)));
}

#[test]
fn an_objects_numbers_are_kept_as_the_server_wrote_them_beside_its_value() {
    let args = Map::new();
    let c = call("t", &args, None);
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"id":100000000000000000007,"owner":{"id":100000000000000000008},"balance":1.10,"name":"a"}}}"#;
    let env = c.read(raw_reply(text)).envelope;
    let exact = env.data_exact.as_deref().unwrap_or_else(|| panic!("no exact text: {:?}", env.data));
    let read: Value = serde_json::from_str(exact).unwrap_or_else(|e| panic!("{e}: {exact}"));
    assert_eq!(&read, env.data.json(), "the same data");
    for literal in ["100000000000000000007", "100000000000000000008", "1.10", r#""name":"a""#] {
        assert!(exact.contains(literal), "{literal}: {exact}");
    }
    assert_eq!(&*env.data_text(), exact);
    // Data that serde_json writes back as sent has no text beside it.
    let plain = c.read(raw_reply(r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"id":7,"f":1.5}}}"#));
    assert_eq!(plain.envelope.data_exact, None);
}
