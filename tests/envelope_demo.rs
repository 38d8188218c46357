//! `mcplens call --json` (the envelope) and `--all-pages` against the demo server's shapes. Every
//! envelope is validated against the schema `mcplens schema envelope` prints.

mod common;

use common::*;
use serde_json::{Value, json};

fn schema() -> Value {
    let o = mcplens(&["schema", "envelope"]);
    assert_eq!(o.status.code(), Some(0));
    json_out(&o)
}

fn envelope(args: &[&str]) -> (Value, i32) {
    let mut full = vec!["call"];
    full.extend_from_slice(args);
    full.push("--json");
    let o = mcplens(&full);
    let e = json_out(&o);
    let violations = mcplens::schema::validate::validate(&schema(), &e).unwrap_or_else(|err| panic!("{err}"));
    assert!(violations.is_empty(), "{args:?}: envelope breaks its schema: {violations:?}\n{e}");
    (e, o.status.code().unwrap_or(-1))
}

#[test]
fn every_demo_shape_normalizes() {
    let (e, code) = envelope(&["discord_list_channels", "--arg", "limit=50"]);
    assert_eq!((code, e["responseType"].clone(), e["data"].as_array().map(Vec::len)), (0, json!("list"), Some(50)));
    assert_eq!(e["pagination"]["nextOffset"], 50);
    assert_eq!(e["summary"], json!({"total": 150, "returned": 50, "hasMore": true}));

    let (e, _) = envelope(&["discord_read_channel", "--arg", "channel_id=general", "--arg", "limit=20"]);
    assert_eq!((e["responseType"].clone(), e["pagination"]["kind"].clone()), (json!("list"), json!("before")));

    let (e, code) = envelope(&["discord_send_message", "--arg", "channel_id=general", "--arg", "content=hi"]);
    assert_eq!((code, e["responseType"].clone(), e["status"].clone()), (0, json!("action"), json!("success")));
    assert_eq!(e["message"], "Message sent successfully");
    assert_eq!(e["data"]["channelId"], "general");

    let (e, code) = envelope(&["discord_send_message", "--arg", "channel_id=announcements", "--arg", "content=hi"]);
    assert_eq!((code, e["responseType"].clone()), (1, json!("error")));
    assert_eq!(e["error"]["code"], "PERMISSION_DENIED");
    assert_eq!(e["error"]["details"]["required"], "SEND_MESSAGES");

    let (e, _) = envelope(&["discord_get_user_info", "--arg", "user_id=ada0"]);
    assert_eq!((e["responseType"].clone(), e["data"]["username"].clone()), (json!("single"), json!("ada0")));

    let (e, _) = envelope(&["yourls_shorten_url", "--arg", "url=https://example.com"]);
    assert_eq!((e["responseType"].clone(), e["status"].clone()), (json!("action"), json!("success")));
    let (e, code) = envelope(&["yourls_shorten_url", "--arg", "url=https://sho.rt/abc"]);
    assert_eq!((code, e["error"]["code"].clone()), (1, json!("error:already_shortened")));
    assert_eq!(e["error"]["details"]["originalUrl"], "https://sho.rt/abc");
    let (e, _) = envelope(&["yourls_shorten_url", "--arg", "url=https://a.example", "--arg", "keyword=taken"]);
    assert_eq!(e["error"]["code"], "keyword_exists");

    let (e, _) = envelope(&["shop_search_products"]);
    assert_eq!((e["responseType"].clone(), e["data"].as_array().map(Vec::len)), (json!("list"), Some(10)));
    assert_eq!(e["metadata"]["uiType"], "shopify-products");
    assert_eq!(e["metadata"]["_meta"]["pagination"]["totalPages"], 9);
    assert_eq!(e["metadata"]["structuredContentData"].as_array().map(Vec::len), Some(5));
    assert_eq!(e["pagination"]["kind"], "page");

    let (e, _) = envelope(&["web_search", "--arg", "query=rust tui", "--arg", "maxResults=4"]);
    assert_eq!(
        (e["responseType"].clone(), e["data"].as_array().map(Vec::len), e["summary"]["total"].clone()),
        (json!("list"), Some(4), json!(1004))
    );
    let (e, _) = envelope(&["get_weather", "--arg", "city=Osaka"]);
    assert_eq!((e["responseType"].clone(), e["data"]["city"].clone()), (json!("single"), json!("Osaka")));
    let (e, code) = envelope(&["get_weather", "--arg", "city=Atlantis"]);
    assert_eq!((code, e["error"]["code"].clone()), (1, json!(404)));

    let (e, _) = envelope(&["mcp_list_tools"]);
    assert_eq!(e["responseType"], "tool_catalog");
    let (e, _) = envelope(&["server_status"]);
    assert_eq!((e["responseType"].clone(), e["data"]["status"].clone()), (json!("single"), json!("ok")));
    let (e, _) = envelope(&["get_image"]);
    assert_eq!((e["data"]["type"].clone(), e["message"].clone()), (json!("image"), json!("Caption: a gradient")));
    let (e, _) = envelope(&["get_resources"]);
    assert_eq!((e["responseType"].clone(), e["data"].as_array().map(Vec::len)), (json!("list"), Some(3)));
    let (e, code) = envelope(&["no_such_tool", "--no-validate"]);
    assert_eq!((code, e["responseType"].clone(), e["error"]["code"].clone()), (1, json!("error"), json!(-32602)));
}

#[test]
fn all_pages_fetches_every_item_exactly_once() {
    for (args, count, key) in [
        (vec!["discord_list_channels", "--arg", "limit=40"], 150, "id"),
        (vec!["discord_read_channel", "--arg", "channel_id=general", "--arg", "limit=45"], 230, "id"),
        (vec!["list_issues", "--arg", "first=9"], 64, "number"),
        (vec!["shop_search_products", "--arg", "pageSize=25"], 87, "id"),
        (vec!["generate_records", "--arg", "count=1000", "--arg", "limit=300"], 1000, "id"),
    ] {
        let mut a = args.clone();
        a.push("--all-pages");
        let (e, code) = envelope(&a);
        assert_eq!(code, 0, "{args:?}");
        let items = e["data"].as_array().cloned().unwrap_or_default();
        let ids: std::collections::HashSet<String> = items.iter().map(|i| i[key].to_string()).collect();
        assert_eq!((items.len(), ids.len()), (count, count), "{args:?}");
        assert_eq!(e["summary"]["returned"], count, "{args:?}");
        assert_eq!(e["summary"]["hasMore"], false, "{args:?}");
        assert_eq!(e["metadata"]["pager"]["complete"], true, "{args:?}");
    }
    // The other arguments stay as given on every page.
    let (e, _) = envelope(&["list_issues", "--arg", "first=5", "--arg", "states=[\"CLOSED\"]", "--all-pages"]);
    let items = e["data"].as_array().cloned().unwrap_or_default();
    assert!(items.len() == 22 && items.iter().all(|i| i["state"] == "CLOSED"), "{}", items.len());
    // The page cap stops early and says so.
    let (e, _) = envelope(&["discord_list_channels", "--arg", "limit=10", "--all-pages", "--max-pages", "3"]);
    assert_eq!((e["data"].as_array().map(Vec::len), e["status"].clone()), (Some(30), json!("partial")));
    assert_eq!(e["summary"]["hasMore"], true);
}
