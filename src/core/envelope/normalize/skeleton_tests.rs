//! Long replies take the skeleton path (long arrays left in the text); every envelope here must
//! equal the one the full tree gives, item for item and byte for byte once serialized.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::{normalize_owned, normalize_reply};
use crate::envelope::{Data, Envelope, PageKind, ResponseType};
use crate::mcp::{Reply, ReplyBody};

/// Normalizes `result` both ways and checks they agree; returns the skeleton path's envelope.
fn both(tool: &str, result: Value) -> Envelope {
    let raw = json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string();
    let reply = Reply::parse(Arc::from(raw), Duration::ZERO, 1000).expect("reads");
    let fast = normalize_reply(tool, None, reply.body, reply.elisions);
    let full = normalize_owned(tool, None, ReplyBody::Result(result));
    let (a, b) = (crate::json_out::to_pretty_string(&fast), crate::json_out::to_pretty_string(&full));
    if a != b {
        let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        let near = |s: &str| s.get(at.saturating_sub(300)..(at + 300).min(s.len())).unwrap_or_default().to_string();
        panic!(
            "serialized envelopes differ at byte {at}:\n--- skeleton path\n{}\n--- full tree\n{}",
            near(&a),
            near(&b)
        );
    }
    assert!(fast == full, "envelopes differ");
    // What `call --json` writes: the records copied from the text.
    let written = crate::json_out::write_envelope(Vec::new(), &mut fast.clone()).expect("writes");
    assert!(String::from_utf8_lossy(&written) == b + "\n", "call --json's writer differs");
    fast
}

fn records(n: usize) -> Vec<Value> {
    (0..n).map(|i| json!({"id": i, "name": format!("record {i}"), "tags": ["a", i], "nested": {"k": [i]}})).collect()
}

fn is_raw(e: &Envelope) -> bool {
    matches!(e.data, Data::Items(_))
}

#[test]
fn structured_list_is_read_from_the_text() {
    let e = both(
        "list_records",
        json!({"content": [{"type": "text", "text": "5000 records"}],
               "structuredContent": {"records": records(5000), "offset": 0, "limit": 5000, "total": 12000}}),
    );
    assert!(is_raw(&e));
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 5000));
    let p = e.pagination.as_ref().expect("paged");
    assert_eq!((p.kind, p.has_more, p.next_offset.clone()), (Some(PageKind::Offset), Some(true), Some(json!(5000))));
    assert_eq!(e.data.item(4999).map(|v| v["name"].clone()), Some(json!("record 4999")));
}

#[test]
fn json_in_a_text_block_is_read_from_the_text() {
    let doc = json!({"items": records(3000), "nextCursor": "c2"});
    let e = both("search", json!({"content": [{"type": "text", "text": doc.to_string()}]}));
    assert!(is_raw(&e));
    assert_eq!(e.item_count(), 3000);
    // A bare array, pretty-printed.
    let pretty = serde_json::to_string_pretty(&records(2000)).unwrap_or_default();
    let e = both("search", json!({"content": [{"type": "text", "text": pretty}]}));
    assert!(is_raw(&e));
    assert_eq!(e.item_count(), 2000);
}

#[test]
fn a_text_repeating_structured_content_is_no_extra_payload() {
    let sc = json!({"result": records(2000)});
    // As SDK servers do: the structured result again as (pretty) JSON text.
    let text = serde_json::to_string_pretty(&sc).unwrap_or_default();
    let e = both("list_things", json!({"content": [{"type": "text", "text": text}], "structuredContent": sc}));
    assert!(is_raw(&e));
    assert!(e.metadata.as_ref().is_none_or(|m| !m.contains_key("textPayloads")));
    // A text that differs only past the sample is kept.
    let mut other = records(2000);
    other[1999]["name"] = json!("changed");
    let e = both(
        "list_things",
        json!({"content": [{"type": "text", "text": json!({"result": other}).to_string()}], "structuredContent": sc}),
    );
    assert!(e.metadata.as_ref().is_some_and(|m| m.contains_key("textPayloads")));
}

#[test]
fn long_graphql_edges_become_their_nodes() {
    let edges: Vec<Value> =
        (0..3000).map(|i| json!({"cursor": format!("cursor-{i}"), "node": {"number": i, "title": "t"}})).collect();
    let e = both(
        "list_issues",
        json!({"content": [], "structuredContent": {"data": {"repository": {"issues": {
            "edges": edges, "pageInfo": {"hasNextPage": true, "endCursor": "cursor-2999"}}}}}}),
    );
    assert!(is_raw(&e));
    assert_eq!(e.data.item(2999), Some(std::borrow::Cow::Owned(json!({"number": 2999, "title": "t"}))));
}

#[test]
fn shapes_that_need_the_whole_tree_still_agree() {
    // Thousands of content blocks.
    let blocks: Vec<Value> =
        (0..1000).map(|i| json!({"type": "text", "text": format!("line {i} ").repeat(10)})).collect();
    both("read_log", json!({"content": blocks}));
    // Several JSON texts whose arrays are concatenated.
    let a = Value::Array(records(800)).to_string();
    let b = Value::Array(records(900)).to_string();
    let e = both("search", json!({"content": [{"type": "text", "text": a}, {"type": "text", "text": b}]}));
    assert_eq!(e.item_count(), 1700);
    // One entity holding long arrays, and a _meta holding a longer list than the result.
    both(
        "get_user",
        json!({"structuredContent": {"login": "ada", "name": "Ada", "bio": "x", "company": "y",
        "blog": "z", "location": "w", "email": "e", "followers": records(1000), "repos": records(900)}}),
    );
    both("list_records", json!({"structuredContent": {"items": records(100)}, "_meta": {"items": records(2000)}}));
    // An error whose details hold a long array.
    both("fail", json!({"isError": true, "structuredContent": {"error": {"code": 1, "failed": records(1000)}}}));
    // Long arrays of scalars, and of arrays.
    let e = both("numbers", json!({"structuredContent": {"values": (0..20000).collect::<Vec<_>>()}}));
    assert!(is_raw(&e));
    both("matrix", json!({"structuredContent": {"rows": (0..3000).map(|i| json!([i, i + 1])).collect::<Vec<_>>()}}));
}

#[test]
fn a_long_list_laid_out_in_chunks_on_two_threads_is_written_as_one() {
    // Over a megabyte of JSON text (checked beside its scan) and over two chunks of records
    // (laid out two at a time), ending inside a chunk.
    let doc = json!({"items": records(20_003), "total": 20_003});
    let e = both("list_records", json!({"content": [{"type": "text", "text": doc.to_string()}]}));
    assert!(is_raw(&e));
    assert_eq!(e.item_count(), 20_003);
}

#[test]
fn a_long_text_that_breaks_json_is_text() {
    let broken = format!("{}, oops", json!({"items": records(20_000)}));
    let e = both("list_records", json!({"content": [{"type": "text", "text": broken}]}));
    assert!(!is_raw(&e));
}

#[test]
fn fastmcp_list_repeated_as_text_is_compared_not_parsed() {
    let list = Value::Array(records(3000));
    let same = serde_json::to_string(&list).unwrap_or_default();
    let e = both(
        "list_records",
        json!({"content": [{"type": "text", "text": same}], "structuredContent": {"result": list.clone()},
               "_meta": {"fastmcp": {"wrap_result": true}}}),
    );
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 3000));
    assert!(e.metadata.as_ref().is_none_or(|m| m.get("textPayloads").is_none()));
    // One record different: the text is no repeat, and both paths keep it.
    let mut other = records(3000);
    other[2999] = json!({"id": -1});
    let differs = serde_json::to_string(&other).unwrap_or_default();
    let e = both(
        "list_records",
        json!({"content": [{"type": "text", "text": differs}], "structuredContent": {"result": list}}),
    );
    assert!(e.metadata.as_ref().is_some_and(|m| m.get("textPayloads").is_some()));
}
