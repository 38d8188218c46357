//! Resources, resource templates, prompts, completions, subscriptions, logging and ping, headless
//! and through the core, against the project's Python SDK server (tests/servers/resources_server.py)
//! and npm's server-everything over stdio and streamable HTTP. A bare JSON-RPC client is the
//! reference for what the servers really sent.

mod common;

use std::path::Path;
use std::time::Duration;

use common::*;
use mcplens::mcp::log::Level;
use mcplens::mcp::wire::ServerEvent;
use mcplens::mcp::{CallOptions, CompletionRef, ConnectOptions, Session, StdioTarget, Target};
use serde_json::{Value, json};

fn py_server() -> Vec<String> {
    vec![python().to_string_lossy().into_owned(), script("resources_server.py")]
}

/// mcplens with `args`, then `--` and the Python server. The legacy era: these tests compare
/// results whole and use `resources/subscribe`, `logging/setLevel` and `ping`, which the modern
/// era replaced (tests/era.rs covers it).
fn on_py(args: &[&str]) -> std::process::Output {
    let server = py_server();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--protocol", "2025-11-25"]);
    all.push("--");
    all.extend(server.iter().map(String::as_str));
    mcplens(&all)
}

fn bare_py() -> Bare {
    let server = py_server();
    Bare::start(Path::new(&server[0]), &[&server[1]])
}

fn no_escapes(o: &std::process::Output) {
    assert!(!o.stdout.contains(&0x1b) && !o.stdout.contains(&0x07), "stdout holds terminal controls:\n{}", stdout(o));
    assert!(!o.stderr.contains(&0x1b), "stderr holds terminal controls:\n{}", stderr(o));
}

#[test]
fn python_every_resource_template_and_prompt_is_listed_as_sent() {
    let mut bare = bare_py();
    for (cmd, method, key, n) in [
        ("resources", "resources/list", "resources", 25),
        ("templates", "resources/templates/list", "resourceTemplates", 3),
        ("prompts", "prompts/list", "prompts", 3),
    ] {
        let o = on_py(&[cmd, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        let listed = json_out(&o);
        assert_eq!(listed.as_array().map(Vec::len), Some(n), "{cmd}");
        assert_eq!(listed, Value::Array(bare.all_items(method, key)), "{cmd} --json must be what the server sent");
    }
    // Annotations, icons and _meta survive.
    let o = on_py(&["resources", "--json"]);
    let notes = &json_out(&o)[2];
    assert_eq!(notes["_meta"]["vendor/tag"]["rank"], 2);
    assert_eq!(notes["icons"][0]["mimeType"], "image/png");

    let o = on_py(&["resources"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("25 resources (3 pages)\n"), "{text}");
    assert!(text.contains("res://item/000  pixel.png        image/png         69 B"), "{text}");
    assert!(text.contains("res://item/024"), "{text}");
    assert!(text.contains("evil\\x1b[2Jname"), "{text}");
    no_escapes(&o);
    let o = on_py(&["templates"]);
    assert!(stdout(&o).contains("table-rows    db://{table}/rows{?column}"), "{}", stdout(&o));
    assert!(stdout(&o).contains("variables: table, column"), "{}", stdout(&o));
    let o = on_py(&["prompts"]);
    assert!(stdout(&o).starts_with("3 prompts (3 pages)\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains("greet — Greeting\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains("      name   required  Who to greet\n"), "{}", stdout(&o));
}

#[test]
fn python_reads_text_blobs_and_templates() {
    let mut bare = bare_py();
    let o = on_py(&["read", "res://item/001", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o), bare.request("resources/read", json!({"uri": "res://item/001"})));
    let o = on_py(&["read", "res://item/001"]);
    assert!(stdout(&o).starts_with("res://item/001  application/json  "), "{}", stdout(&o));

    // A blob to the terminal (here a pipe, readable mode): size and type, never the bytes.
    let o = on_py(&["read", "res://item/000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("res://item/000  image/png  69 B  blob\n"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("PNG"), "{}", stdout(&o));
    // With -o, its bytes.
    let dir = std::env::temp_dir().join(format!("mcplens-res-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let file = dir.join("pixel.png");
    let o = on_py(&["read", "res://item/000", "-o", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sent = bare.request("resources/read", json!({"uri": "res://item/000"}));
    let b64 = sent["contents"][0]["blob"].as_str().unwrap_or_default().to_string();
    use base64::Engine;
    let expected = base64::engine::general_purpose::STANDARD.decode(b64).unwrap_or_default();
    assert_eq!(std::fs::read(&file).unwrap_or_default(), expected);
    assert!(expected.starts_with(b"\x89PNG"));
    assert!(stderr(&o).contains("wrote 69 B to"), "{}", stderr(&o));

    // --raw to a pipe: the text exactly as sent; readable: escapes shown, not run.
    let o = on_py(&["read", "res://item/003", "--raw"]);
    assert_eq!(stdout(&o), "before\x1b[31mred\x1b[0m after\x07");
    let o = on_py(&["read", "res://item/003"]);
    assert!(stdout(&o).contains("before\\x1b[31mred"), "{}", stdout(&o));
    no_escapes(&o);

    // A template filled with --arg; two contents, -o needs --index.
    let o = on_py(&["read", "db://{table}/rows{?column}", "--arg", "table=orders", "--arg", "column=id"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("db://orders/rows?column=id  application/json"), "{}", stdout(&o));
    assert!(stdout(&o).contains("db://orders/rows?column=id#csv  text/csv  8 B  blob"), "{}", stdout(&o));
    let csv = dir.join("rows.csv");
    let o = on_py(&["read", "db://orders/rows", "-o", &csv.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = on_py(&["read", "db://orders/rows", "-o", &csv.to_string_lossy(), "--index", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(&csv).unwrap_or_default(), b"a,b\n1,2\n");
    let o = on_py(&["read", "users://{user}/profile", "--arg", "nobody=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // A resource that is not there: the server's JSON-RPC error, exit 1.
    let o = on_py(&["read", "res://nope"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("JSON-RPC error -32002: Resource not found: res://nope"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A blob whose mimeType is text and whose bytes are UTF-8 is shown as its text, escapes made
/// visible, with a line saying how it was sent; --json and --raw keep it as sent; a text type
/// whose bytes are not UTF-8 stays binary.
#[test]
fn python_a_text_blob_is_shown_as_text_and_kept_as_sent_with_json_and_raw() {
    let o = on_py(&["read", "res://blob/text"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "res://blob/text  text/plain  29 B  blob\n(text sent as base64, 29 B; --json shows it as sent)\n\
         héllo \\x1b[2Jcleared\\x07\nline two\n"
    );
    no_escapes(&o);
    let mut bare = bare_py();
    let o = on_py(&["read", "res://blob/text", "--json"]);
    assert_eq!(json_out(&o), bare.request("resources/read", json!({"uri": "res://blob/text"})));
    assert!(stdout(&o).contains("\"blob\":"), "{}", stdout(&o));
    let o = on_py(&["read", "res://blob/text", "--raw"]);
    assert_eq!(o.stdout, "héllo \x1b[2Jcleared\x07\nline two\n".as_bytes());
    let o = on_py(&["read", "res://blob/latin1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "res://blob/latin1  text/plain  4 B  blob\n(binary, not printed: -o FILE saves its bytes, --json shows the base64)\n"
    );
    // The CSV export beside a table's rows is text too.
    let o = on_py(&["read", "db://orders/rows"]);
    assert!(
        stdout(&o).ends_with("8 B  blob\n(text sent as base64, 8 B; --json shows it as sent)\na,b\n1,2\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn python_prompts_with_arguments_and_every_content_type() {
    let mut bare = bare_py();
    let o = on_py(&["prompt", "greet", "--arg", "name=Ann", "--arg", "style=formal"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "A greeting\n\n[user]\n  Good day, Ann.\n");
    // A required argument missing: a usage error before anything is sent; sent anyway, the
    // server's own error (exit 1).
    let o = on_py(&["prompt", "greet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("needs name"), "{}", stderr(&o));
    let o = on_py(&["prompt", "greet", "--no-validate"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = on_py(&["prompt", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it has: greet, review, plain"), "{}", stderr(&o));

    let o = on_py(&["prompt", "review", "--arg", "code=x = 1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sent = bare.request("prompts/get", json!({"name": "review", "arguments": {"code": "x = 1"}}));
    assert_eq!(json_out(&o), sent);
    let o = on_py(&["prompt", "review", "--arg", "code=x = 1"]);
    let text = stdout(&o);
    for part in [
        "[user]\n  Review this code:\n  x = 1\n",
        "  image  image/png  69 B\n",
        "  audio  audio/wav  16 B\n",
        "  resource  res://item/002  text/markdown\n    # Notes\n",
        "  resource  res://item/000  image/png\n    blob  69 B\n",
        "[assistant]\n  resource_link  res://item/001  config.json  application/json\n",
    ] {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
}

#[test]
fn python_completions_for_prompts_and_templates() {
    let o = on_py(&["complete", "--prompt", "greet", "--arg", "name=al"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "2 values\nalice\nalbert\n");
    let o = on_py(&["complete", "--template", "users://{user}/profile", "--arg", "user=u"]);
    assert!(stdout(&o).starts_with("100 values (of 150; more available)\nuser000\n"), "{}", stdout(&o));
    // The context narrows a variable by another's value.
    let o = on_py(&[
        "complete",
        "--template",
        "db://{table}/rows{?column}",
        "--arg",
        "column=",
        "--context",
        "table=orders",
    ]);
    assert_eq!(stdout(&o), "3 values\nid\ntotal\nplaced_at\n");
    let o = on_py(&["complete", "--template", "db://{table}/rows{?column}", "--arg", "column=", "--json"]);
    assert_eq!(json_out(&o)["completion"]["values"], json!([]));
    let o = mcplens(&["complete", "--arg", "x=1"]);
    assert_eq!(o.status.code(), Some(2), "--prompt or --template is required");
}

#[test]
fn python_ping_and_log_level() {
    let o = on_py(&["ping", "--count", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("pong from resources-server in "), "{}", stdout(&o));
    assert!(stdout(&o).contains("2 pings: min "), "{}", stdout(&o));
    let o = on_py(&[
        "call",
        "log",
        "--arg",
        "level=error",
        "--arg",
        "message=disk \u{1b}[2J full",
        "--log-level",
        "warning",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("logged"), "{}", stdout(&o));
    assert!(stderr(&o).contains("server log [error] resources_server: disk \\x1b[2J full"), "{}", stderr(&o));
    no_escapes(&o);
    // A 70 KB message (past the log's 64 KiB preview) is printed whole: there is no log to see.
    let long = format!("message=start{}\u{9b}end", "x".repeat(70_000));
    let o = on_py(&["call", "log", "--arg", "level=error", "--arg", &long, "--log-level", "warning"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(&format!("start{}\\x9bend", "x".repeat(70_000))), "{}", &err[..err.len().min(300)]);
    assert!(!err.contains("see the log"), "{}", &err[..err.len().min(300)]);
    no_escapes(&o);
    let o = on_py(&["call", "log", "--arg", "level=info", "--arg", "message=x", "--log-level", "error"]);
    assert!(stdout(&o).contains("below the level"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("server log"), "{}", stderr(&o));
    let o = on_py(&["ping", "--log-level", "loud"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Every command that talks to the server prints its log messages, `info` too.
    for cmd in [&["info"][..], &["ping"], &["resources"]] {
        let o = on_py(&[cmd, &["--log-level", "info"]].concat());
        assert_eq!(o.status.code(), Some(0), "{cmd:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("server log [info] resources_server: level set to info"),
            "{cmd:?}: {}",
            stderr(&o)
        );
    }
}

async fn next_event(
    events: &mut tokio::sync::broadcast::Receiver<ServerEvent>,
    want: fn(&ServerEvent) -> bool,
) -> ServerEvent {
    let wait = async {
        loop {
            match events.recv().await {
                Ok(ev) if want(&ev) => return ev,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(e) => panic!("events closed: {e}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait).await.unwrap_or_else(|_| panic!("no such event within 10 s"))
}

#[tokio::test]
async fn python_subscriptions_list_changes_and_log_messages_reach_the_caller() {
    let server = py_server();
    let target = Target::Stdio(StdioTarget {
        command: server[0].clone(),
        args: vec![server[1].clone()],
        env: vec![],
        cwd: None,
    });
    let opts = ConnectOptions {
        log_level: Some(Level::Warning),
        protocol: mcplens::mcp::era::Protocol::Legacy("2025-11-25"),
        ..ConnectOptions::default()
    };
    let s = Session::connect(&target, opts).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(s.setup_warnings.is_empty(), "{:?}", s.setup_warnings);
    let mut events = s.events();
    let call = |name: &'static str, args: Value| {
        let s = &s;
        async move {
            let r = s.call_tool(name, args.as_object().cloned(), &CallOptions::default(), &mut |_| {}).await;
            r.unwrap_or_else(|e| panic!("{e}")).raw.to_string()
        }
    };

    let sub = s.subscribe_resource("res://item/005").await.unwrap_or_else(|e| panic!("{e}"));
    assert!(sub.outcome.is_ok(), "{:?}", sub.outcome);
    assert!(call("touch", json!({"uri": "res://item/005"})).await.contains("updated res://item/005"));
    let ev = next_event(&mut events, |e| matches!(e, ServerEvent::ResourceUpdated { .. })).await;
    assert!(matches!(ev, ServerEvent::ResourceUpdated { uri } if uri == "res://item/005"));
    let read = s.read_resource("res://item/005", &CallOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
    let contents = read.outcome.unwrap_or_else(|e| panic!("{e:?}")).contents;
    assert_eq!(contents[0].text(), Some("contents of res://item/005"));
    let unsub = s.unsubscribe_resource("res://item/005").await.unwrap_or_else(|e| panic!("{e}"));
    assert!(unsub.outcome.is_ok());
    assert!(call("touch", json!({"uri": "res://item/005"})).await.contains("not subscribed"));

    assert!(call("add_resource", json!({})).await.contains("26 resources"));
    next_event(&mut events, |e| matches!(e, ServerEvent::ResourceListChanged)).await;
    let list = s.list_resources().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((list.items.len(), list.pages), (26, 3));

    call("log", json!({"level": "critical", "message": "on fire"})).await;
    let ev = next_event(&mut events, |e| matches!(e, ServerEvent::LogMessage { .. })).await;
    let ServerEvent::LogMessage { level, logger, text } = ev else { unreachable!() };
    assert_eq!((level, logger.as_deref(), text.as_str()), (Some(Level::Critical), Some("resources_server"), "on fire"));

    let completion = s
        .complete(&CompletionRef::Template("db://{table}/rows{?column}".into()), "table", "ord", &[])
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(completion.outcome.map(|c| c.values), Ok(vec!["orders".to_string(), "order_items".to_string()]));
    let rtt = s.ping().await.unwrap_or_else(|e| panic!("{e}"));
    assert!(rtt < Duration::from_secs(10));
    s.close().await;
}

fn se_stdio() -> Vec<String> {
    vec!["node".into(), server_everything().to_string_lossy().into_owned(), "stdio".into()]
}

/// mcplens with `args` against server-everything over stdio.
fn on_se(args: &[&str]) -> std::process::Output {
    let server = se_stdio();
    let mut all: Vec<&str> = args.to_vec();
    all.push("--");
    all.extend(server.iter().map(String::as_str));
    mcplens(&all)
}

#[test]
fn server_everything_stdio_every_resource_is_listed_and_read() {
    let se = server_everything().to_string_lossy().into_owned();
    let mut bare = Bare::start(Path::new("node"), &[&se, "stdio"]);
    let o = on_se(&["resources", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = json_out(&o);
    assert_eq!(listed, Value::Array(bare.all_items("resources/list", "resources")));
    let uris: Vec<String> =
        listed.as_array().into_iter().flatten().filter_map(|r| r["uri"].as_str().map(str::to_string)).collect();
    assert!(uris.len() >= 7, "{listed}");
    for uri in &uris {
        let o = on_se(&["read", uri, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{uri}: {}", stderr(&o));
        assert_eq!(json_out(&o), bare.request("resources/read", json!({"uri": uri})), "{uri}");
    }
    for (cmd, method, key) in
        [("templates", "resources/templates/list", "resourceTemplates"), ("prompts", "prompts/list", "prompts")]
    {
        let o = on_se(&[cmd, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        assert_eq!(json_out(&o), Value::Array(bare.all_items(method, key)), "{cmd}");
    }
    let o = on_se(&["resources"]);
    assert!(stdout(&o).starts_with(&format!("{} resources (1 page)\n", uris.len())), "{}", stdout(&o));
}

#[test]
fn server_everything_stdio_templates_prompts_completions_ping() {
    let o = on_se(&["read", "demo://resource/dynamic/blob/{resourceId}", "--arg", "resourceId=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("demo://resource/dynamic/blob/3  "), "{}", stdout(&o));
    assert!(stdout(&o).contains(" blob"), "{}", stdout(&o));
    let o = on_se(&["complete", "--template", "demo://resource/dynamic/text/{resourceId}", "--arg", "resourceId=1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().skip(1).any(|l| l == "1"), "{}", stdout(&o));
    let o =
        on_se(&["complete", "--prompt", "completable-prompt", "--arg", "name=", "--context", "department=Engineering"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("Alice"), "{}", stdout(&o));
    let o = on_se(&["prompt", "args-prompt", "--arg", "city=Paris"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("[user]\n") && stdout(&o).contains("Paris"), "{}", stdout(&o));
    let o = on_se(&["prompt", "resource-prompt", "--arg", "resourceType=Text", "--arg", "resourceId=2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(json_out(&o)["messages"].as_array().is_some_and(|m| m.iter().any(|m| m["content"]["type"] == "resource")));
    let o = on_se(&["ping"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("pong from "), "{}", stdout(&o));
}

#[test]
fn server_everything_over_streamable_http() {
    let se = server_everything().to_string_lossy().into_owned();
    let (_server, url) = server_everything_http();
    let mut bare = Bare::start(Path::new("node"), &[&se, "stdio"]);
    for (cmd, method, key) in [
        ("resources", "resources/list", "resources"),
        ("templates", "resources/templates/list", "resourceTemplates"),
        ("prompts", "prompts/list", "prompts"),
    ] {
        let o = mcplens(&[cmd, "--json", "--url", &url]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        assert_eq!(json_out(&o), Value::Array(bare.all_items(method, key)), "{cmd} over HTTP");
    }
    let uri = "demo://resource/static/document/architecture.md";
    let o = mcplens(&["read", uri, "--json", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o), bare.request("resources/read", json!({"uri": uri})));
    let o = mcplens(&["prompt", "args-prompt", "--arg", "city=Oslo", "--url", &url]);
    assert!(stdout(&o).contains("Oslo"), "{}", stdout(&o));
    let o = mcplens(&["complete", "--prompt", "completable-prompt", "--arg", "department=", "--url", &url]);
    assert!(stdout(&o).contains("Engineering"), "{}", stdout(&o));
    let o = mcplens(&["ping", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("pong from "), "{}", stdout(&o));
}

#[test]
fn python_a_big_blob_is_saved_within_a_small_multiple_of_its_size() {
    let dir = std::env::temp_dir().join(format!("mcplens-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let file = dir.join("big.bin");
    let server = py_server();
    let o = std::process::Command::new(bin())
        .args(["read", "res://big", "-o", &file.to_string_lossy(), "--", &server[0], &server[1], "--blob-mb", "32"])
        .env("MCPLENS_REPORT_PEAK", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let expected: Vec<u8> = (0..=255u8).cycle().take(32 << 20).collect();
    assert!(std::fs::read(&file).unwrap_or_default() == expected, "the saved bytes differ");
    let peak_kb: u64 = stderr(&o)
        .lines()
        .find_map(|l| l.strip_prefix("mcplens-peak-rss "))
        .and_then(|v| v.trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak reported: {}", stderr(&o)));
    // The message is 43 MiB of base64; measured about 3x that (raw reply, parsed value, bytes).
    assert!(peak_kb < 10 * 32 * 1024, "peak {peak_kb} kB for a 32 MiB blob");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_malformed_descriptors_are_marked_not_dropped() {
    let args = ["--", &python().to_string_lossy(), &script("resources_server.py"), "--malformed", "--resources", "3"]
        .map(|s| s.to_string());
    let run = |cmd: &[&str]| mcplens(&cmd.iter().copied().chain(args.iter().map(String::as_str)).collect::<Vec<_>>());
    let o = run(&["resources", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = json_out(&o);
    assert_eq!(listed.as_array().map(Vec::len), Some(7), "{listed}");
    assert_eq!(listed[1]["uri"], 5);
    let o = run(&["resources", "--max-depth", "20"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (text, err) = (stdout(&o), stderr(&o));
    // The listing on stdout, each warning on stderr (as with --json).
    assert!(text.starts_with("7 resources (1 page)\n\n") && !text.contains("warning:"), "{text}");
    assert!(err.contains("warning: resource #1 (no-uri): resource has no uri\n"), "{err}");
    assert!(text.contains("(no uri)        no-uri\n    ! malformed: resource has no uri\n    x-extra: 1\n"), "{text}");
    assert!(text.contains("! malformed: uri is not a string"), "{text}");
    assert!(
        err.contains("resource #4 ((unreadable)): descriptor cannot be read: it nests JSON 61 levels deep"),
        "{err}"
    );
    no_escapes(&o);
    // A cursor that never changes stops the walk with a warning, not a hang.
    let o = run(&["prompts"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: prompts/list repeated the cursor \"again\"; stopped after 2 pages"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("warning:"), "{}", stdout(&o));
    // With --json too: stdout holds the list alone.
    let o = run(&["prompts", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: prompts/list repeated the cursor \"again\""), "{}", stderr(&o));
    assert!(json_out(&o).is_array());
}

/// A server that declares neither resources nor prompts (tests/servers/headless_edges.py
/// tools-only: tools and logging, and `{}` to any other request) is not asked for them: each listing says plainly
/// that it offers none, a snapshot leaves them out, nothing is a warning, and no list request goes
/// out.
#[tokio::test]
async fn a_server_without_resources_or_prompts_is_not_asked_for_them() {
    let (py, server) = (python().to_string_lossy().into_owned(), script("headless_edges.py"));
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--", &py, &server, "tools-only"]);
        mcplens(&all)
    };
    for (cmd, noun, capability) in [
        ("resources", "resources", "resources"),
        ("templates", "resource templates", "resources"),
        ("prompts", "prompts", "prompts"),
    ] {
        let o = run(&[cmd]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("the server offers no {noun}: it declares no {capability} capability\n"));
        assert_eq!(stderr(&o), "", "{cmd}");
        assert_eq!(stdout(&run(&[cmd, "--json"])), "[]\n", "{cmd}");
    }
    let o = run(&["prompt", "greet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("the server offers no prompts: it declares no prompts capability"), "{}", stderr(&o));
    let o = run(&["snapshot"]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
    let snap = json_out(&o);
    assert!(snap["tools"].is_array(), "{snap}");
    for absent in ["resources", "resourceTemplates", "prompts"] {
        assert!(snap.get(absent).is_none(), "{absent} recorded: {snap}");
    }

    let target = Target::Stdio(StdioTarget {
        command: py.clone(),
        args: vec![server.clone(), "tools-only".into()],
        env: vec![],
        cwd: None,
    });
    let s = Session::connect(&target, ConnectOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
    for list in [s.list_resources().await, s.list_resource_templates().await, s.list_prompts().await] {
        let list = list.unwrap_or_else(|e| panic!("{e}"));
        assert!(list.not_offered.is_some() && list.warnings.is_empty() && list.pages == 0, "{list:?}");
    }
    let sent: Vec<String> =
        s.log().entries().iter().filter_map(|e| Some(e.msg.as_ref()?.method.as_deref()?.to_string())).collect();
    assert!(!sent.iter().any(|m| m.starts_with("resources/") || m.starts_with("prompts/")), "{sent:?}");
    assert!(sent.iter().any(|m| m == "initialize"), "{sent:?}");
}
