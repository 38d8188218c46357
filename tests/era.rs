//! The two protocol eras side by side: `--protocol auto` meets a modern server (2026-07-28,
//! tests/servers/modern_server.py, a raw server of the project's) in its era and a legacy one
//! (server-everything, a server silent to `server/discover`) in theirs; a fixed version is
//! offered as given. In the modern era: `_meta` on every request, the `Mcp-Method` / `Mcp-Name`
//! headers over HTTP, `input_required` answered through the same answers as a legacy server's
//! requests and retried with `requestState`, SEP-2663 tasks, `subscriptions/listen`, cache hints,
//! the era's error codes named, and every message of both eras in the log.

mod common;

use std::time::{Duration, Instant};

use common::*;
use mcplens::mcp::era::{Era, Protocol};
use mcplens::mcp::log::LogKind;
use mcplens::mcp::wire::ServerEvent;
use mcplens::mcp::{CallOptions, ConnectOptions, Session, StdioTarget, Target};
use serde_json::{Value, json};

/// `mcplens ARGS -- python modern_server.py SERVER_ARGS`.
fn modern(args: &[&str], server_args: &[&str]) -> std::process::Output {
    let py = python().to_string_lossy().into_owned();
    let server = script("modern_server.py");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", &py, &server]);
    all.extend_from_slice(server_args);
    mcplens(&all)
}

/// The JSON text of a call's first content block, read back.
fn received(o: &std::process::Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    let env = json_out(o);
    let text = env["data"].as_str().map(str::to_string).unwrap_or_else(|| env["data"].to_string());
    serde_json::from_str(&text).unwrap_or(env["data"].clone())
}

fn modern_target(extra: &[&str]) -> Target {
    let mut args = vec![script("modern_server.py")];
    args.extend(extra.iter().map(|s| s.to_string()));
    Target::Stdio(StdioTarget { command: python().to_string_lossy().into_owned(), args, env: vec![], cwd: None })
}

/// modern_server.py on streamable HTTP; returns its URL.
fn modern_http() -> (Guard, String) {
    let port = free_port();
    let child = std::process::Command::new(python())
        .args([script("modern_server.py"), "--http".into(), port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python: {e}"));
    let guard = Guard(child);
    wait_for_port(port);
    (guard, format!("http://127.0.0.1:{port}/mcp"))
}

#[test]
fn auto_meets_a_modern_server_in_its_era_and_info_says_so() {
    for protocol in ["auto", "2026-07-28"] {
        let o = modern(&["info", "--protocol", protocol], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        for line in [
            "server        modern-server 1.0",
            "protocol      2026-07-28",
            "era           modern (server/discover)",
            "offers        2026-07-28",
            "discover      cache: ttlMs 60000, cacheScope public",
        ] {
            assert!(text.contains(line), "{line} missing:\n{text}");
        }
    }
    // --json: the discover result as sent.
    let v = json_out(&modern(&["info", "--json"], &[]));
    assert_eq!(v["supportedVersions"], json!(["2026-07-28"]));
    // A fixed legacy version is offered exactly; a modern-only server refuses it.
    let o = modern(&["info", "--protocol", "2025-11-25"], &[]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("Method not found: initialize"), "{}", stderr(&o));
    // The config entry's "protocol" key, and a bad value.
    let dir = std::env::temp_dir().join(format!("mcplens-era-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let config = dir.join("mcp.json");
    let entry = |p: &str| json!({"mcpServers": {"m": {"command": python(), "args": [script("modern_server.py"), "--dual"], "protocol": p}}});
    std::fs::write(&config, entry("2025-06-18").to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["info", "--config", &config.to_string_lossy()]);
    assert!(stdout(&o).contains("protocol      2025-06-18"), "{}{}", stdout(&o), stderr(&o));
    std::fs::write(&config, entry("2024-01-01").to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["info", "--config", &config.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("\"protocol\" must be one of auto, 2026-07-28"), "{}", stderr(&o));
    let o = mcplens(&["info", "--protocol", "2024-11-05"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn auto_falls_back_to_initialize_for_legacy_servers_and_fixed_versions_are_offered_as_given() {
    let se = server_everything().to_string_lossy().into_owned();
    let (_server, url) = server_everything_http();
    for target in [vec!["--", "node", &se, "stdio"], vec!["--url", &url]] {
        let run = |protocol: &str| {
            let mut args = vec!["info", "--protocol", protocol];
            args.extend(target.iter().copied());
            mcplens(&args)
        };
        let o = run("auto");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("protocol      2025-11-25\nera           legacy (initialize)"), "{}", stdout(&o));
        let o = run("2025-06-18");
        assert!(stdout(&o).contains("protocol      2025-06-18"), "{}{}", stdout(&o), stderr(&o));
        let o = run("2026-07-28");
        assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    }
    // A server that says nothing to server/discover: auto gives up on it after 5 s.
    let started = Instant::now();
    let o = modern(&["info"], &["--silent-discover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("era           legacy (initialize)"), "{}", stdout(&o));
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    // A modern server slower to start than that answers discover late and refuses initialize:
    // auto connects again, in the modern era.
    let o = modern(&["info"], &["--slow-start", "6"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("era           modern (server/discover)"), "{}", stdout(&o));
}

#[test]
fn input_required_is_answered_like_a_legacy_request_and_retried_with_the_state() {
    let o = modern(&["call", "ask_name", "--json", "--elicitation", "accept"], &[]);
    assert_eq!(received(&o), json!({"action": "accept", "content": {"name": "Ada"}}));
    assert!(stderr(&o).contains("the server asks: Your name?"), "{}", stderr(&o));
    let o = modern(&["call", "ask_name", "--json", "--elicitation-answer", r#"{"name":"Grace"}"#], &[]);
    assert_eq!(received(&o)["content"], json!({"name": "Grace"}));
    for action in ["decline", "cancel"] {
        let o = modern(&["call", "ask_name", "--json", "--elicitation", action], &[]);
        assert_eq!(received(&o)["action"], action);
    }
    let o = modern(&["call", "summarize", "--json", "--arg", "text=tides", "--sampling-answer", "Water moves."], &[]);
    assert_eq!(received(&o), json!({"model": "mcplens (typed by the user)", "text": "Water moves."}));
    assert!(stderr(&o).contains("user: Summarize: tides"), "{}", stderr(&o));
    // A declined sampling request has no answer to send: the call ends, said so, exit 1.
    let o = modern(&["call", "summarize", "--arg", "text=x", "--sampling-answer", "decline"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("the user declined the sampling request"), "{}", stderr(&o));
    let o = modern(&["call", "show_roots", "--json", "--root", "/tmp"], &[]);
    assert_eq!(received(&o), json!([{"uri": "file:///tmp", "name": "tmp"}]));
    // Over HTTP too.
    let (_server, url) = modern_http();
    let o = mcplens(&["call", "ask_name", "--json", "--elicitation", "accept", "--url", &url]);
    assert_eq!(received(&o)["action"], "accept");
}

#[test]
fn every_modern_request_carries_meta_and_over_http_the_method_and_name_headers() {
    let o = modern(&["call", "meta_seen", "--json", "--log-level", "debug"], &[]);
    let meta = &received(&o);
    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "mcplens");
    assert_eq!(meta["io.modelcontextprotocol/logLevel"], "debug");
    let caps = &meta["io.modelcontextprotocol/clientCapabilities"];
    assert!(caps["elicitation"]["form"].is_object() && caps["sampling"].is_object(), "{caps}");
    assert!(caps["extensions"]["io.modelcontextprotocol/tasks"].is_object(), "{caps}");
    assert_eq!(caps["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"][0], "text/html;profile=mcp-app", "{caps}");
    let (_server, url) = modern_http();
    let o = mcplens(&["call", "headers_seen", "--json", "--url", &url]);
    let headers = &received(&o);
    let get = |k: &str| {
        headers.as_object().and_then(|h| h.iter().find(|(n, _)| n.eq_ignore_ascii_case(k))).map(|x| x.1.clone())
    };
    assert_eq!(get("mcp-method"), Some(json!("tools/call")), "{headers}");
    assert_eq!(get("mcp-name"), Some(json!("headers_seen")), "{headers}");
    assert_eq!(get("mcp-protocol-version"), Some(json!("2026-07-28")), "{headers}");
    // The server checks Mcp-Method on every POST (tools/list, discover): the listing works.
    let o = mcplens(&["tools", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("cache: ttlMs 60000, cacheScope public"), "{}", stderr(&o));
}

#[test]
fn sep_2663_tasks_are_followed_to_their_inline_result_and_their_questions_answered() {
    let o = modern(&["call", "slow_job"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("job done"), "{}", stdout(&o));
    assert!(stderr(&o).contains("task task-1 working: step 1") && stderr(&o).contains("task task-1 completed"));
    let o = modern(&["call", "confirm_job", "--task", "--elicitation", "accept"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("confirmed:") && stdout(&o).contains("\"ok\": true"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("input_required") && err.contains("the server asks: Go ahead?"), "{err}");
}

#[test]
fn the_eras_error_codes_are_named() {
    let o = modern(&["call", "needs_cap"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("-32021: this tool needs the client's tasks capability (missing required client capability)")
    );
}

#[tokio::test]
async fn the_log_holds_every_message_of_both_eras_and_listen_brings_list_changes() {
    // Modern: discover, then subscriptions/listen opened for the server's listChanged (as the
    // TUI asks).
    let opts = ConnectOptions { listen: true, ..ConnectOptions::default() };
    let s = Session::connect(&modern_target(&[]), opts).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.era(), s.server.protocol_version()), (Era::Modern, "2026-07-28"));
    assert!(s.setup_warnings.is_empty(), "{:?}", s.setup_warnings);
    let mut events = s.events();
    let r = s.call_tool("touch", None, &CallOptions::default(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(r.raw.contains("touched"));
    let heard = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.recv().await {
                Ok(ServerEvent::ToolListChanged) => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    });
    assert_eq!(heard.await, Ok(true), "no tools/list_changed on the listen");
    let sent = |s: &Session, method: &str| {
        s.log()
            .entries()
            .iter()
            .any(|e| e.kind == LogKind::Sent && e.text.contains(&format!("\"method\":\"{method}\"")))
    };
    assert!(sent(&s, "server/discover") && sent(&s, "subscriptions/listen") && !sent(&s, "initialize"));
    let received = s.log().entries().iter().filter(|e| e.kind == LogKind::Received).count();
    assert!(received >= 4, "discover, acknowledged, the call's reply, the notification: {received}");
    assert!(s.ping().await.is_ok(), "the modern era's ping is a discover round trip");
    s.close().await;
    // Legacy through auto: the unanswered discover and the initialize that followed are both in
    // the log, and the discover given up is said so.
    let s = Session::connect(&modern_target(&["--silent-discover"]), ConnectOptions::default())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.era(), Era::Legacy);
    assert!(sent(&s, "server/discover") && sent(&s, "initialize"));
    let said = s.log().entries().iter().any(|e| e.text.contains("no answer within 5s; taken as a legacy server"));
    assert!(said, "the fallback is not in the log");
    s.close().await;
    // A fixed legacy version: no discover at all.
    let opts = ConnectOptions { protocol: Protocol::Legacy("2025-03-26"), ..ConnectOptions::default() };
    let s = Session::connect(&modern_target(&["--dual"]), opts).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.server.protocol_version(), "2025-03-26");
    assert!(!sent(&s, "server/discover") && s.log().entries().iter().any(|e| e.text.contains("\"2025-03-26\"")));
    s.close().await;
}

/// `mcplens ARGS -- python task_server.py` (2025-11-25 tasks, legacy era).
fn legacy_tasks(args: &[&str]) -> std::process::Output {
    let py = python().to_string_lossy().into_owned();
    let server = script("task_server.py");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", &py, &server]);
    mcplens(&all)
}

#[test]
fn the_2025_11_25_tasks_run_against_the_projects_task_server() {
    // taskSupport "required": run as a task by itself, polled to the end.
    let o = legacy_tasks(&["call", "brew", "--arg", "kind=coffee"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("your coffee is ready"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("brew requires a task: run as one") && err.contains("task t1 working: poll 2"), "{err}");
    // input_required: tasks/result carries the server's elicitation, answered headless.
    let o = legacy_tasks(&["call", "order", "--task", "--elicitation", "accept"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"size\": \"large\""), "{}", stdout(&o));
    assert!(stderr(&o).contains("task t1 input_required: which size?"), "{}", stderr(&o));
    let o = legacy_tasks(&["call", "order", "--task", "--no-wait"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "task t1 working\n"), "{}", stderr(&o));
    // The legacy server knows no discover: auto met it in its era.
    let o = legacy_tasks(&["info"]);
    assert!(stdout(&o).contains("era           legacy (initialize)"), "{}", stdout(&o));
}

#[tokio::test]
async fn both_kinds_of_task_go_into_the_sessions_task_book() {
    let target = Target::Stdio(StdioTarget {
        command: python().to_string_lossy().into_owned(),
        args: vec![script("task_server.py")],
        env: vec![],
        cwd: None,
    });
    let s = Session::connect(&target, ConnectOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(!s.tasks_extension());
    let r = s.run_task("brew", None, &CallOptions::default(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(r.raw.contains("your tea is ready"));
    let book = s.session_tasks();
    assert_eq!(book.len(), 1);
    assert_eq!((book[0].id.as_str(), book[0].tool.as_str(), book[0].status.as_str()), ("t1", "brew", "completed"));
    assert!(book[0].result.as_deref().is_some_and(|r| r.contains("your tea is ready")));
    s.close().await;
    let s = Session::connect(&modern_target(&[]), ConnectOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(s.tasks_extension());
    let r = s.run_task("slow_job", None, &CallOptions::default(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(r.raw.contains("job done"));
    let book = s.session_tasks();
    assert_eq!((book.len(), book[0].status.as_str()), (1, "completed"));
    s.close().await;
}

#[test]
fn a_hostile_modern_server_cannot_loop_a_call_or_reach_the_terminal() {
    // input_required for ever: ten rounds, then the call ends (exit 3) and says why.
    let o = modern(&["call", "loop_ask", "--elicitation", "accept"], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("still wants input after 10 rounds; gave up"), "{}", stderr(&o));
    assert_eq!(stderr(&o).matches("the server asks: again?").count(), 10);
    // Escapes in a question, a state that is not a string (sent back as it came), a request no
    // client answers and one that is no request: declined, nothing raw on the terminal.
    let o = modern(&["call", "odd_ask", "--json", "--elicitation", "accept"], &[]);
    let got = received(&o);
    assert_eq!(got["state"], json!({"not": ["a", "string"]}));
    assert_eq!(got["answers"]["esc"]["content"]["n"], "\u{1b}[31mred");
    assert_eq!(
        (got["answers"]["weird"]["action"].clone(), got["answers"]["junk"]["action"].clone()),
        (json!("decline"), json!("decline"))
    );
    assert!(!o.stderr.contains(&0x1b) && !o.stderr.contains(&0x07), "{:?}", stderr(&o));
    assert!(stderr(&o).contains(r"the server asks: \x1b[2Jwho\x07?"), "{}", stderr(&o));
}

/// A discover result whose cache hint is out of spec (ttlMs -1, an unknown cacheScope) connects,
/// with a warning: the connection failed with the result in Rust's debug form.
#[test]
fn a_cache_hint_out_of_spec_is_a_warning_not_a_failed_connection() {
    let o = modern(&["tools"], &["--bad-cache"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("echo"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("warning: server/discover: ttlMs -1 read as 0"), "{err}");
    assert!(err.contains(r#"cacheScope "shared" read as "private""#), "{err}");
    assert!(!err.contains("Object {") && !err.contains("String("), "{err}");
}

#[test]
fn cache_hints_of_lists_and_reads_are_shown() {
    for args in [&["resources"][..], &["read", "mem://note"][..]] {
        let o = modern(args, &[]);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("cache: ttlMs 60000, cacheScope public"), "{args:?}: {}", stderr(&o));
    }
}

/// A task that asks a new question on every poll is answered 10 times, then no longer followed,
/// with a word on why (it was polled every 0.1 s for ever).
#[test]
fn a_task_that_asks_on_every_poll_is_let_go_after_ten_answers() {
    let o = modern(&["call", "nag_job", "--elicitation", "accept"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("asks again after 10 answers; mcplens stopped following it"), "{}", stderr(&o));
}
