//! The headless commands against real third-party servers: server-everything (npm) over stdio and
//! streamable HTTP, and a Python `mcp` SDK server that pages tools/list.

mod common;

use common::*;
use serde_json::{Value, json};

#[test]
fn server_everything_stdio_descriptors_are_exact() {
    let se = server_everything().to_string_lossy().into_owned();
    let o = mcplens(&["tools", "--json", "--", "node", &se, "stdio"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = json_out(&o);
    let mut bare = Bare::start(std::path::Path::new("node"), &[&se, "stdio"]);
    assert_eq!(listed, Value::Array(bare.all_tools()));
    // Fields rmcp's typed model does not know survive (server-everything sends `execution`).
    assert!(listed.as_array().is_some_and(|a| a.iter().any(|t| t.get("execution").is_some())), "{listed}");
}

#[test]
fn server_everything_stdio_calls() {
    let se = server_everything().to_string_lossy().into_owned();
    let o = mcplens(&["call", "get-sum", "--arg", "a=2", "--arg", "b=40", "--", "node", &se, "stdio"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("42"), "{}", stdout(&o));
    let o =
        mcplens(&["call", "get-structured-content", "--arg", "location=Chicago", "--raw", "--", "node", &se, "stdio"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(json_out(&o)["structuredContent"]["temperature"].is_number());
    let o = mcplens(&[
        "call",
        "trigger-long-running-operation",
        "--arg",
        "duration=1",
        "--arg",
        "steps=2",
        "--",
        "node",
        &se,
        "stdio",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("progress 2/2"), "{}", stderr(&o));
    // An image's base64 is said by its size in the readable output, kept whole in --json.
    let o = mcplens(&["call", "get-tiny-image", "--", "node", &se, "stdio"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("KiB of base64, not printed") && !stdout(&o).contains("iVBORw0KGgo"), "{}", stdout(&o));
    let o = mcplens(&["call", "get-tiny-image", "--json", "--", "node", &se, "stdio"]);
    assert!(stdout(&o).contains("\"iVBORw0KGgo"), "{}", stdout(&o));
}

#[test]
fn server_everything_over_streamable_http() {
    let se = server_everything().to_string_lossy().into_owned();
    let (_server, url) = server_everything_http();
    let o = mcplens(&["tools", "--json", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let over_http = json_out(&o);
    let mut bare = Bare::start(std::path::Path::new("node"), &[&se, "stdio"]);
    assert_eq!(over_http, Value::Array(bare.all_tools()), "HTTP must list exactly what the server sends");
    let o = mcplens(&["call", "echo", "--arg", "message=over http", "--url", &url, "--raw", "-H", "X-Test: 1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["content"][0]["text"], "Echo: over http");
}

#[test]
fn python_server_pages_of_tools_are_followed_and_exact() {
    let dir = std::env::temp_dir().join(format!("mcplens-py-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let dump = dir.join("dump.json").to_string_lossy().into_owned();
    let py = python().to_string_lossy().into_owned();
    let script = script("paged_tools.py");
    let o = mcplens(&[
        "tools",
        "--json",
        "--",
        &py,
        &script,
        "--tools",
        "1200",
        "--page-size",
        "100",
        "--banner",
        "--dump",
        &dump,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = json_out(&o);
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&dump).unwrap_or_default()).unwrap_or_default();
    assert_eq!(listed.as_array().map(Vec::len), Some(1200));
    assert_eq!(listed, sent);
    // An integer beyond 2^53 is kept digit for digit.
    assert!(stdout(&o).contains("9007199254740993"));
    let o = mcplens(&["tools", "--", &py, &script, "--tools", "250", "--page-size", "100"]);
    assert!(stdout(&o).starts_with("250 tools (3 pages)"), "{}", stdout(&o));
    let o = mcplens(&[
        "call",
        "tool_00007",
        "--raw",
        "--args",
        r#"{"items":[{"id":"0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c"}]}"#,
        "--",
        &py,
        &script,
        "--tools",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = json_out(&o)["content"][0]["text"].as_str().map(str::to_string).unwrap_or_default();
    assert_eq!(
        serde_json::from_str::<Value>(&text).ok(),
        Some(json!({"called": "tool_00007", "arguments": {"items": [{"id": "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c"}]}}))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
