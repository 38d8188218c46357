//! One test per example in the seeds, plus shapes of popular public MCP servers. Every envelope
//! produced here is validated against the envelope's own JSON Schema.

use serde_json::{Value, json};

use super::normalize;
use crate::envelope::{Envelope, PageKind, ResponseType, SCHEMA, Status};
use crate::mcp::ReplyBody;

fn check(e: &Envelope) {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap_or_default();
    let v = crate::schema::validate::validate(&schema, &e.to_json()).unwrap_or_else(|err| panic!("{err}"));
    assert!(v.is_empty(), "envelope breaks its schema: {v:?}\n{}", e.to_json());
}

fn norm(tool: &str, descriptor: Option<Value>, result: Value) -> Envelope {
    let e = normalize(tool, descriptor.as_ref(), &ReplyBody::Result(result));
    check(&e);
    e
}

fn text(payload: Value) -> Value {
    json!({"content": [{"type": "text", "text": payload.to_string()}]})
}

fn read_only() -> Option<Value> {
    Some(json!({"annotations": {"readOnlyHint": true}}))
}

#[test]
fn seed_000_list_example() {
    let e = norm(
        "discord_list_channels",
        None,
        text(json!({
            "toolName": "discord_list_channels", "responseType": "list",
            "data": [{"id": "123456789", "name": "general", "type": "text"}],
            "pagination": {"offset": 0, "limit": 50, "hasMore": true, "nextOffset": 50},
            "summary": {"total": 150, "returned": 50, "hasMore": true}
        })),
    );
    assert_eq!(e.response_type, ResponseType::List);
    assert_eq!(e.data, json!([{"id": "123456789", "name": "general", "type": "text"}]));
    let p = e.pagination.clone().unwrap_or_default();
    assert_eq!(
        (p.offset, p.limit, p.has_more, p.next_offset, p.kind),
        (Some(0), Some(50), Some(true), Some(json!(50)), Some(PageKind::Offset))
    );
    let s = e.summary.clone().unwrap_or_default();
    assert_eq!((s.total, s.returned, s.has_more), (Some(150), Some(1), Some(true)));
}

#[test]
fn seed_000_single_action_error_and_catalog_examples() {
    let e = norm(
        "discord_get_user_info",
        read_only(),
        text(
            json!({"toolName": "discord_get_user_info", "responseType": "single", "data": {"id": "123456789", "username": "user123", "discriminator": "0001", "avatar": "https://..."}}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::Single);
    assert_eq!(e.data["username"], "user123");

    let e = norm(
        "discord_send_message",
        None,
        text(
            json!({"toolName": "discord_send_message", "responseType": "action", "data": {"messageId": "987654321", "channelId": "123456789", "timestamp": "2024-01-01T12:00:00Z"}, "status": "success", "message": "Message sent successfully"}),
        ),
    );
    assert_eq!((e.response_type, e.status), (ResponseType::Action, Some(Status::Success)));
    assert_eq!(e.message.as_deref(), Some("Message sent successfully"));
    assert_eq!(e.data["messageId"], "987654321");

    let e = norm(
        "discord_send_message",
        None,
        text(
            json!({"toolName": "discord_send_message", "responseType": "error", "status": "error", "message": "Failed to send message", "error": {"code": "PERMISSION_DENIED", "message": "You do not have permission to send messages in this channel", "details": {}}}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::Error);
    let err = e.error.clone().unwrap_or_default();
    assert_eq!(err.code, json!("PERMISSION_DENIED"));
    assert_eq!(err.message.as_deref(), Some("You do not have permission to send messages in this channel"));
    assert_eq!(e.status, Some(Status::Error));

    let e = norm(
        "mcp_list_tools",
        None,
        text(
            json!({"toolName": "mcp_list_tools", "responseType": "tool_catalog", "data": [{"name": "discord_read_channel", "description": "Read messages", "schema": {"type": "object"}}]}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::ToolCatalog);
    assert_eq!(e.data[0]["name"], "discord_read_channel");
}

#[test]
fn seed_001_yourls_success_and_error() {
    let e = norm(
        "shorten_url",
        None,
        text(
            json!({"status": "success", "shorturl": "https://example.com/abc", "url": "https://example.com", "title": "Example"}),
        ),
    );
    assert_eq!((e.response_type, e.status), (ResponseType::Action, Some(Status::Success)));
    assert_eq!(
        e.data,
        json!({"shorturl": "https://example.com/abc", "url": "https://example.com", "title": "Example"})
    );

    let mut r = text(
        json!({"status": "error", "message": "This URL appears to be a shortened URL already.", "code": "error:already_shortened", "originalUrl": "https://example.com/abc"}),
    );
    r["isError"] = json!(true);
    let e = norm("shorten_url", None, r);
    assert_eq!(e.response_type, ResponseType::Error);
    let err = e.error.clone().unwrap_or_default();
    assert_eq!(err.code, json!("error:already_shortened"));
    assert_eq!(err.message.as_deref(), Some("This URL appears to be a shortened URL already."));
    assert_eq!(err.details, json!({"originalUrl": "https://example.com/abc"}));
}

#[test]
fn seed_002_structured_content_against_meta() {
    let products: Vec<Value> =
        (0..10).map(|i| json!({"id": format!("p{i}"), "title": format!("Product {i}"), "price": 10 + i})).collect();
    let e = norm(
        "shopify_search",
        read_only(),
        json!({
            "uiType": "shopify-products",
            "uiMetadata": {"component": "ProductGrid", "version": "1.0", "provider": "shopify"},
            "content": [{"type": "text", "text": "Found 87 products."}],
            "structuredContent": {"totalCount": 87, "priceRange": {"min": 10, "max": 100, "currency": "USD"}, "topProducts": products[..5], "categories": ["Electronics", "Clothing"]},
            "_meta": {"products": products, "filters": {"categories": ["Electronics"]}, "sortOptions": [{"value": "price", "label": "Price"}], "pagination": {"page": 1, "pageSize": 10, "totalPages": 9, "totalItems": 87}}
        }),
    );
    assert_eq!(e.response_type, ResponseType::List);
    assert_eq!(e.item_count(), 10, "the full list from _meta");
    let meta = e.metadata.clone().unwrap_or_default();
    assert_eq!(meta["uiType"], "shopify-products");
    assert_eq!(meta["uiMetadata"]["component"], "ProductGrid");
    assert!(meta["_meta"]["filters"].is_object(), "nothing from _meta is lost");
    assert_eq!(meta["structuredContentData"].as_array().map(Vec::len), Some(5));
    assert_eq!(e.message.as_deref(), Some("Found 87 products."));
    let p = e.pagination.clone().unwrap_or_default();
    assert_eq!(
        (p.kind, p.page, p.total_pages, p.next_offset),
        (Some(PageKind::Page), Some(1), Some(9), Some(json!(2)))
    );
    assert_eq!(e.summary.and_then(|s| s.total), Some(87));
}

#[test]
fn seed_004_json_rpc_wrappers() {
    let e = norm(
        "web_search",
        read_only(),
        text(
            json!({"id": "search-1", "result": {"searchResults": {"query": "ml", "totalResults": 1234, "results": [{"link": "https://a", "title": "A", "source": "a", "snippet": "s", "timestamp": "t"}, {"link": "https://b", "title": "B", "source": "b", "snippet": "s", "timestamp": "t"}], "timestamp": "t", "source": "Mock"}, "success": true}}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::List);
    assert_eq!(e.item_count(), 2);
    assert_eq!(e.data[1]["title"], "B");
    assert_eq!(e.summary.as_ref().and_then(|s| s.total), Some(1234));
    assert_eq!(e.status, Some(Status::Success));
    assert_eq!(e.metadata.as_ref().map(|m| m["id"].clone()), Some(json!("search-1")));

    let e = norm(
        "get_weather",
        read_only(),
        text(
            json!({"id": "w1", "result": {"weather": {"data": {"city": "Berlin", "temperature": 7.5, "humidity": 80}, "timestamp": "t", "source": "Demo"}, "success": true}}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::Single);
    assert_eq!(e.data, json!({"city": "Berlin", "temperature": 7.5, "humidity": 80}));
    assert_eq!(
        e.metadata.as_ref().map(|m| m["source"].clone()),
        Some(json!("content[0].text → JSON → result → weather → data"))
    );

    let e = norm(
        "get_weather",
        read_only(),
        text(json!({"id": "w2", "error": {"code": 404, "message": "City not found"}})),
    );
    assert_eq!(e.response_type, ResponseType::Error);
    let err = e.error.clone().unwrap_or_default();
    assert_eq!((err.code, err.message.as_deref()), (json!(404), Some("City not found")));

    let e = norm(
        "list_tools",
        None,
        text(
            json!({"id": "t", "result": {"tools": [{"name": "web_search", "description": "d", "inputSchema": {"type": "object"}}], "count": 1}}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::ToolCatalog);

    let e = norm(
        "server_status",
        read_only(),
        text(
            json!({"id": "s", "result": {"status": "healthy", "timestamp": "t", "toolsCount": 7, "claudeStatus": "ok"}}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::Single);
    assert_eq!(e.data["toolsCount"], 7);
}

#[test]
fn protocol_errors_are_error_envelopes() {
    let e = normalize("nope", None, &ReplyBody::Error(json!({"code": -32602, "message": "Unknown tool: nope"})));
    check(&e);
    assert_eq!(e.response_type, ResponseType::Error);
    assert_eq!(e.error.as_ref().map(|x| x.code.clone()), Some(json!(-32602)));
    assert_eq!(e.message.as_deref(), Some("Unknown tool: nope"));
}

#[test]
fn popular_server_shapes() {
    // GitHub search: items, total_count, incomplete_results.
    let e = norm(
        "search_repositories",
        read_only(),
        text(
            json!({"total_count": 2, "incomplete_results": true, "items": [{"id": 1, "full_name": "a/b"}, {"id": 2, "full_name": "c/d"}]}),
        ),
    );
    assert_eq!((e.response_type, e.status), (ResponseType::List, Some(Status::Partial)));
    assert_eq!(e.summary.as_ref().and_then(|s| s.total), Some(2));
    // Notion: results, next_cursor, has_more.
    let e = norm(
        "notion_search",
        None,
        text(
            json!({"object": "list", "results": [{"id": "x", "object": "page"}], "next_cursor": "c2", "has_more": true}),
        ),
    );
    let p = e.pagination.clone().unwrap_or_default();
    assert_eq!(
        (e.response_type, p.kind, p.next_offset),
        (ResponseType::List, Some(PageKind::Cursor), Some(json!("c2")))
    );
    // Slack: ok, messages, response_metadata.next_cursor.
    let e = norm(
        "slack_get_channel_history",
        None,
        text(
            json!({"ok": true, "messages": [{"ts": "1", "text": "hi"}], "has_more": true, "response_metadata": {"next_cursor": "bmV4dA=="}}),
        ),
    );
    assert_eq!(e.pagination.and_then(|p| p.next_offset), Some(json!("bmV4dA==")));
    // GraphQL (Linear, GitHub): data.x.y.nodes with pageInfo.
    let e = norm(
        "list_issues",
        read_only(),
        text(
            json!({"data": {"repository": {"issues": {"totalCount": 64, "nodes": [{"number": 1}, {"number": 2}], "pageInfo": {"hasNextPage": true, "endCursor": "Y3Vy"}}}}}),
        ),
    );
    let p = e.pagination.clone().unwrap_or_default();
    assert_eq!(
        (e.response_type, e.item_count(), p.kind, p.after.as_deref()),
        (ResponseType::List, 2, Some(PageKind::After), Some("Y3Vy"))
    );
    assert_eq!(e.summary.and_then(|s| s.total), Some(64));
    // GraphQL edges.
    let e = norm(
        "q",
        read_only(),
        text(
            json!({"data": {"search": {"edges": [{"node": {"id": 1}, "cursor": "a"}], "pageInfo": {"hasNextPage": false, "endCursor": "a"}}}}),
        ),
    );
    assert_eq!(e.data, json!([{"id": 1}]));
    // GraphQL errors with no data.
    let e = norm(
        "q",
        read_only(),
        text(
            json!({"data": null, "errors": [{"message": "Field 'x' doesn't exist", "extensions": {"code": "undefinedField"}}]}),
        ),
    );
    assert_eq!(e.response_type, ResponseType::Error);
    assert_eq!(e.error.and_then(|x| x.message), Some("Field 'x' doesn't exist".into()));
}

#[test]
fn popular_server_shapes_in_text() {
    // A database server: a JSON array of rows in one text block.
    let e = norm("query", None, text(json!([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])));
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
    // A file system server: a listing as text lines.
    let e = norm(
        "list_directory",
        read_only(),
        json!({"content": [{"type": "text", "text": "- [FILE] a.txt\n- [DIR] src\n- [FILE] README.md"}]}),
    );
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 3));
    // Web fetch: markdown prose is a single whose message is the text.
    let e = norm(
        "fetch",
        read_only(),
        json!({"content": [{"type": "text", "text": "# Example Domain\n\nThis domain is for use in examples."}]}),
    );
    assert_eq!(
        (e.response_type, e.message.as_deref()),
        (ResponseType::Single, Some("# Example Domain\n\nThis domain is for use in examples."))
    );
    // Brave-style search: one `Key: value` block per result.
    let e = norm(
        "brave_web_search",
        read_only(),
        json!({"content": [{"type": "text", "text": "Title: A\nDescription: first\nURL: https://a"}, {"type": "text", "text": "Title: B\nDescription: second\nURL: https://b"}]}),
    );
    assert_eq!((e.response_type, e.data[1]["URL"].clone()), (ResponseType::List, json!("https://b")));
    // Error text without isError, and a success that merely mentions an error.
    let e = norm(
        "fetch",
        read_only(),
        json!({"content": [{"type": "text", "text": "Failed to fetch https://x: HTTP 404"}]}),
    );
    assert_eq!(e.response_type, ResponseType::Error);
    let e = norm(
        "fetch",
        read_only(),
        json!({"content": [{"type": "text", "text": "Fetched 3 pages. Note: error pages were skipped."}]}),
    );
    assert_eq!(e.response_type, ResponseType::Single);
}

#[test]
fn text_shapes_and_content_items() {
    let e = norm("export", read_only(), json!({"content": [{"type": "text", "text": "id,name\n1,a\n2,b"}]}));
    assert_eq!(e.data, json!([{"id": "1", "name": "a"}, {"id": "2", "name": "b"}]));
    let e = norm("q", read_only(), json!({"content": [{"type": "text", "text": "| a | b |\n|---|---|\n| 1 | 2 |"}]}));
    assert_eq!(e.data, json!([{"a": "1", "b": "2"}]));
    let e =
        norm("q", read_only(), json!({"content": [{"type": "text", "text": "Results:\n```json\n[{\"x\": 1}]\n```"}]}));
    assert_eq!((e.response_type, e.message.as_deref()), (ResponseType::List, Some("Results:")));
    // One JSON document per block.
    let e = norm(
        "q",
        read_only(),
        json!({"content": [{"type": "text", "text": "{\"id\": 1}"}, {"type": "text", "text": "{\"id\": 2}"}]}),
    );
    assert_eq!(e.data, json!([{"id": 1}, {"id": 2}]));
    // Images, links and resources are never dropped.
    let e = norm(
        "get_image",
        read_only(),
        json!({"content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}, {"type": "text", "text": "a caption"}]}),
    );
    assert_eq!(
        (e.response_type, e.data["type"].clone(), e.message.as_deref()),
        (ResponseType::Single, json!("image"), Some("a caption"))
    );
    let e = norm(
        "links",
        read_only(),
        json!({"content": [{"type": "resource_link", "uri": "a://1", "name": "1"}, {"type": "resource_link", "uri": "a://2", "name": "2"}, {"type": "hologram", "x": 1}]}),
    );
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 3));
    let e = norm(
        "mixed",
        read_only(),
        json!({"content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}], "structuredContent": {"a": 1}}),
    );
    assert_eq!(e.metadata.map(|m| m["content"][0]["type"].clone()), Some(json!("image")));
    // structuredContent wrapping a primitive or a JSON string under "result".
    let e = norm("count", read_only(), json!({"content": [], "structuredContent": {"result": 42}}));
    assert_eq!(e.data, json!({"result": 42}));
    let e = norm("rows", read_only(), json!({"content": [], "structuredContent": {"result": "[{\"a\":1}]"}}));
    assert_eq!(e.data, json!([{"a": 1}]));
    // Protocol 2026-07-28: structuredContent may be any JSON value.
    let e = norm("rows", read_only(), json!({"content": [], "structuredContent": [1, 2, 3]}));
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 3));
}

#[test]
fn nothing_is_lost() {
    let e = norm(
        "t",
        read_only(),
        json!({"content": [{"type": "text", "text": "{\"items\": [1], \"query\": \"q\", \"took\": 3}"}], "_meta": {"trace": "abc"}, "extraTop": {"x": 1}}),
    );
    let meta = e.metadata.unwrap_or_default();
    assert_eq!(meta["_meta"], json!({"trace": "abc"}));
    assert_eq!(meta["extraTop"], json!({"x": 1}));
    assert_eq!(meta["query"], "q");
    assert_eq!(meta["took"], 3);
}

#[test]
fn the_demo_servers_answers() {
    // The demo server's own answer functions, through the same normalizer.
    let tools = mcplens_demo::catalog::tools();
    let desc = |n: &str| tools.iter().find(|t| t["name"] == n).cloned();
    let r = mcplens_demo::answer("discord_read_channel", &json!({"channel_id": "general", "limit": 50}));
    let e = norm("discord_read_channel", desc("discord_read_channel"), r);
    let p = e.pagination.clone().unwrap_or_default();
    assert_eq!((e.response_type, e.item_count(), p.kind), (ResponseType::List, 50, Some(PageKind::Before)));
    let r = mcplens_demo::answer("yourls_shorten_url", &json!({"url": "https://sho.rt/x"}));
    let e = norm("yourls_shorten_url", desc("yourls_shorten_url"), r);
    assert_eq!(e.error.map(|x| x.code), Some(json!("error:already_shortened")));
    let r = mcplens_demo::answer("discord_send_message", &json!({"channel_id": "announcements", "content": "x"}));
    let e = norm("discord_send_message", desc("discord_send_message"), r);
    assert_eq!(e.error.map(|x| x.code), Some(json!("PERMISSION_DENIED")));
    let r = mcplens_demo::answer("discord_delete_message", &json!({"channel_id": "c", "message_id": "m"}));
    let e = norm("discord_delete_message", desc("discord_delete_message"), r);
    assert_eq!((e.response_type, e.status), (ResponseType::Action, Some(Status::Success)));
}

#[test]
fn arbitrary_and_deep_values_do_not_panic() {
    let mut deep = json!({"a": 1});
    for _ in 0..120 {
        deep = json!({"result": deep, "x": [deep.clone()]});
        if deep.to_string().len() > 1 << 20 {
            break;
        }
    }
    for v in [
        json!(null),
        json!(1),
        json!("s"),
        json!([]),
        json!({"content": "nope"}),
        json!({"content": [1, null, {"type": 3}]}),
        json!({"structuredContent": null}),
        json!({"isError": "yes"}),
        deep,
    ] {
        let e = normalize("t", None, &ReplyBody::Result(v.clone()));
        check(&e);
        let _ = normalize("t", None, &ReplyBody::Error(v));
    }
}

#[test]
fn seed_004_remaining_endpoints() {
    // get_random_user: result.users.data is the list.
    let e = norm(
        "get_random_user",
        read_only(),
        text(
            json!({"id": "u1", "result": {"users": {"data": [{"name": "Ada", "email": "a@x", "location": "London", "picture": null}, {"name": "Grace", "email": "g@x", "location": "NYC", "picture": "https://p"}], "timestamp": "t", "source": "randomuser"}, "success": true}}),
        ),
    );
    assert_eq!((e.response_type, e.item_count(), e.status), (ResponseType::List, 2, Some(Status::Success)));
    assert_eq!(e.data[1]["name"], "Grace");
    // get_time: result.time.data is one object.
    let e = norm(
        "get_time",
        read_only(),
        text(
            json!({"id": "t1", "result": {"time": {"data": {"timezone": "UTC", "datetime": "2024-01-15T10:30:00.000Z", "date": "2024-01-15", "time": "10:30:00", "dayOfWeek": "Monday", "utcOffset": 0}, "timestamp": "t", "source": "clock"}, "success": true}}),
        ),
    );
    assert_eq!((e.response_type, e.data["dayOfWeek"].clone()), (ResponseType::Single, json!("Monday")));
    // http_get: result.httpResponse is one object; its headers stay inside it.
    let e = norm(
        "http_get",
        read_only(),
        text(
            json!({"id": "h1", "result": {"httpResponse": {"url": "https://example.com", "html": "<html></html>", "title": "Example", "statusCode": 200, "headers": {"content-type": "text/html"}, "timestamp": "t"}, "success": true}}),
        ),
    );
    assert_eq!(
        (e.response_type, e.data["statusCode"].clone(), e.data["headers"]["content-type"].clone()),
        (ResponseType::Single, json!(200), json!("text/html"))
    );
    // A failed http_get: success false with an error object.
    let e = norm(
        "http_get",
        read_only(),
        text(
            json!({"id": "h2", "result": {"success": false, "error": {"code": 500, "message": "Internal Server Error"}}}),
        ),
    );
    assert_eq!((e.response_type, e.error.map(|x| x.code)), (ResponseType::Error, Some(json!(500))));
}

#[test]
fn prose_with_bullets_and_entities_with_arrays_stay_single() {
    // A fetched web page: headings, paragraphs and a few bullets is prose, not a list.
    let page = "# Rust\n\nRust is a language.\n\nIt has:\n- speed\n- safety\n\nMore paragraphs follow here.\nAnd another line.";
    let e = norm("fetch", read_only(), json!({"content": [{"type": "text", "text": page}]}));
    assert_eq!((e.response_type, e.message.as_deref()), (ResponseType::Single, Some(page)));
    // A list with a one-line header is still a list.
    let e = norm("list_dir", read_only(), json!({"content": [{"type": "text", "text": "Files:\n- a.txt\n- b.txt"}]}));
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
    // A user with many fields and a `projects` array is one user.
    let user = json!({"login": "ada", "name": "Ada", "company": "A", "blog": "b", "location": "L", "bio": "x", "followers": 3, "following": 1, "projects": [{"id": 1}, {"id": 2}]});
    let e = norm("get_user", read_only(), json!({"content": [], "structuredContent": user}));
    assert_eq!((e.response_type, e.data["login"].clone()), (ResponseType::Single, json!("ada")));
}

#[test]
fn key_value_records_in_one_block() {
    let log = "Commit history:\n\nCommit: 1a2b3c\nAuthor: Ada <ada@example.org>\nDate: 2026-11-01\nMessage: Fix the parser\n\nCommit: 4d5e6f\nAuthor: Grace <grace@example.org>\nDate: 2026-10-30\nMessage: Add paging";
    let e = norm("git_log", read_only(), json!({"content": [{"type": "text", "text": log}]}));
    assert_eq!(
        (e.response_type, e.item_count(), e.message.as_deref()),
        (ResponseType::List, 2, Some("Commit history:"))
    );
    assert_eq!(e.data[1]["Message"], "Add paging");
}

#[test]
fn a_one_string_wrapper_around_json_is_read_through() {
    // The string carries JSON in a fence after prose: the records, the prose the message.
    let inner = "Found 2 rows:\n```json\n[{\"id\": 1}, {\"id\": 2}]\n```";
    let e = norm("query", None, json!({"content": [{"type": "text", "text": json!({"output": inner}).to_string()}]}));
    check(&e);
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
    assert_eq!(e.message.as_deref(), Some("Found 2 rows:"));
    let source = e.metadata.as_ref().map(|m| m["source"].to_string()).unwrap_or_default();
    assert!(source.contains("JSON → output"), "{source}");
    // A string that carries no JSON leaves the object as sent.
    let e = norm("delete", None, json!({"content": [{"type": "text", "text": "{\"message\": \"Deleted 3 rows\"}"}]}));
    check(&e);
    assert_eq!(e.data, json!({"message": "Deleted 3 rows"}));
}

#[test]
fn content_restated_or_encoded_is_read_once() {
    // Content blocks written as a text's JSON, and again in structuredContent with null members.
    let inner = "[{'n': 1}, {'n': 2}]";
    let blocks = json!([{"type": "text", "text": inner, "annotations": null}]);
    let e = norm("run", None, json!({"content": [{"type": "text", "text": blocks.to_string()}]}));
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
    let e = norm(
        "run",
        None,
        json!({"content": [{"type": "text", "text": inner}], "structuredContent": {"result": blocks}}),
    );
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
    // A table's `schema` is a name: these are no tools.
    let e = norm(
        "list_objects",
        None,
        text(json!([{"schema": "public", "name": "t1"}, {"schema": "public", "name": "t2"}])),
    );
    assert_eq!(e.response_type, ResponseType::List);
    // A write's counts alone: an action whose data is the counts.
    let e = norm("run", None, text(json!([{"rowcount": 3}])));
    assert_eq!(e.response_type, ResponseType::Action);
    assert_eq!(e.data, json!({"rowcount": 3}));
    // "<what> error:" reports a failure.
    let e = norm("run", None, json!({"content": [{"type": "text", "text": "API error: rate limited"}]}));
    assert_eq!(e.response_type, ResponseType::Error);
}

#[test]
fn an_error_inside_a_block_that_breaks_the_schema_is_an_error() {
    // A text block whose `text` is an object holding `error`, marked `metadata.error: true`.
    let block = json!({"type": "text", "text": {"error": {"type": "NotFound", "message": "Issue ENG-9 not found", "details": {"id": "ENG-9"}}}, "metadata": {"error": true}});
    let e = norm("get_issue", read_only(), json!({"content": [block]}));
    assert_eq!((e.response_type, e.status), (ResponseType::Error, Some(Status::Error)));
    let err = e.error.clone().unwrap_or_default();
    assert_eq!((err.code, err.message.as_deref()), (json!("NotFound"), Some("Issue ENG-9 not found")));
    // The same block shape carrying data, unmarked, is no error.
    let fine = json!({"type": "text", "text": {"id": "ENG-9"}});
    assert_ne!(norm("get_issue", read_only(), json!({"content": [fine]})).response_type, ResponseType::Error);
}

#[test]
fn graphql_errors_under_is_error_name_the_failure() {
    let body = json!({"data": {"product": null}, "errors": [{"message": "Product not found", "path": ["product"], "extensions": {"code": "NOT_FOUND"}}]});
    let mut r = text(body.clone());
    r["isError"] = json!(true);
    let e = norm("GetProduct", None, r);
    let err = e.error.clone().unwrap_or_default();
    assert_eq!((err.code, err.message.as_deref()), (json!("NOT_FOUND"), Some("Product not found")));
    // Without isError, errors beside data are kept, not the status.
    assert_eq!(norm("GetProduct", None, text(body)).status, Some(Status::Success));
}

#[test]
fn nothing_found_from_a_list_tool_is_an_empty_list() {
    let e = norm("search_docs", read_only(), json!({"content": [{"type": "text", "text": "No search results found"}]}));
    assert_eq!(
        (e.response_type, e.item_count(), e.message.as_deref()),
        (ResponseType::List, 0, Some("No search results found"))
    );
    // FastMCP wraps a returned string as structuredContent {"result": ...}.
    let wrapped = json!({"content": [{"type": "text", "text": "No results found"}], "structuredContent": {"result": "No results found"}});
    assert_eq!(norm("search_docs", read_only(), wrapped).item_count(), 0);
    // Not a list tool: the sentence is a single's message.
    let e = norm("get_weather", read_only(), json!({"content": [{"type": "text", "text": "No data found"}]}));
    assert_eq!(e.response_type, ResponseType::Single);
}

#[test]
fn records_keyed_by_id_are_a_list() {
    let body = json!({"links": {"link_3": {"shorturl": "https://s/c", "clicks": "9"}, "link_1": {"shorturl": "https://s/a", "clicks": "2"}}, "results": [], "total": 4});
    let e = norm("stats", read_only(), text(body));
    assert_eq!((e.response_type, e.item_count()), (ResponseType::List, 2));
    assert_eq!(e.summary.and_then(|s| s.total), Some(4));
    assert_eq!(e.metadata.and_then(|m| m.get("recordKeys").cloned()), Some(json!(["link_3", "link_1"])));
}
