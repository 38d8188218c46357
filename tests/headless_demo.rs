//! The headless commands against the embedded demo server, over a real stdio transport.

mod common;

use common::*;
use serde_json::{Value, json};

#[test]
fn tools_json_is_exactly_what_the_demo_server_sent() {
    let o = mcplens(&["tools", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = json_out(&o);
    // The bare client is the reference for what went over the wire.
    let mut bare = Bare::start(std::path::Path::new(bin()), &["demo-server"]);
    let sent = bare.all_tools();
    assert!(sent.len() > 8, "the demo pages tools/list, so several pages must have been followed");
    assert_eq!(listed, Value::Array(sent));
    // Key order is kept as sent (preserve_order): compare the first tool's keys in order.
    let keys: Vec<&str> = listed[0].as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(keys, ["name", "title", "description", "inputSchema", "annotations"]);
}

#[test]
fn tools_text_shows_every_nested_property_of_the_person_finder() {
    let o = mcplens(&["tools"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let section: String =
        text.split("\nfg_findPersons").nth(1).unwrap_or_default().split("\n\n").next().unwrap_or_default().to_string();
    for needle in [
        "queries*: array<PersonQuery>  minItems=1  maxItems=20",
        "[items]: object → #/$defs/PersonQuery  x-searchable=true  additionalProperties=false",
        "fg_id*: string  format=\"uuid\"",
        "role: string  enum=[\"engineer\",\"manager\",\"designer\",\"analyst\"]",
        "country: string  pattern=\"^[A-Z]{2}$\"",
        "oneOf[1] Fuzzy: object",
        "fuzziness*: number  minimum=0  maximum=1  default=0.3",
        "reports_to: PersonQuery → #/$defs/PersonQuery (cycle: not expanded again)",
        "limit: integer  minimum=1  maximum=100  default=10",
        "x-fg-version=\"2.1\"",
    ] {
        assert!(section.contains(needle), "missing {needle:?} in:\n{section}");
    }
}

#[test]
fn call_types_arguments_by_schema_and_validates_them() {
    let o =
        mcplens(&["call", "echo", "--arg", "message=hi", "--arg", "repeat=2", "--arg", "extra={\"k\":\"v\"}", "--raw"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json_out(&o);
    assert_eq!(r["structuredContent"]["arguments"], json!({"message": "hi", "repeat": 2, "extra": {"k": "v"}}));
    assert_eq!(r["content"][0]["text"], "hi hi");

    let o = mcplens(&["call", "fg_findPersons", "--args", r#"{"queries":[{"fg_id":"nope","role":"boss"}],"limit":0}"#]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    for needle in ["/queries/0/fg_id", "/queries/0/role", "/limit", "--no-validate"] {
        assert!(err.contains(needle), "{needle} not in {err}");
    }
    // --no-validate sends them anyway, and the server answers.
    let o =
        mcplens(&["call", "fg_findPersons", "--no-validate", "--raw", "--args", r#"{"queries":[{"fg_id":"nope"}]}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["structuredContent"]["queriesReceived"], json!([{"fg_id": "nope"}]));
}

#[test]
fn exit_codes_are_as_documented() {
    // 1: the tool reported an error.
    let o = mcplens(&["call", "discord_send_message", "--arg", "channel_id=announcements", "--arg", "content=hi"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("PERMISSION_DENIED"));
    // 1: a JSON-RPC error reply (unknown tool, sent anyway).
    let o = mcplens(&["call", "no_such_tool", "--no-validate"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("-32602"), "{}", stderr(&o));
    // 2: unknown tool, bad arguments, missing command, bad config.
    let o = mcplens(&["call", "no_such_tool"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no tool named"));
    assert_eq!(mcplens(&["call", "echo", "--args", "{oops"]).status.code(), Some(2));
    let o = mcplens(&["tools", "--", "/definitely/not/a/server"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not found"));
    assert_eq!(mcplens(&["tools", "--config", "/definitely/missing.json"]).status.code(), Some(2));
    // The TUI checks the command before taking over the terminal.
    let o = mcplens(&["--", "/definitely/not/a/server"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not found"), "{}", stderr(&o));
    // Without a terminal, the TUI says what to use instead.
    let o = mcplens(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("mcplens tools"), "{}", stderr(&o));
    // 3: the server died at start; its exit status and stderr are quoted.
    let o = mcplens(&["tools", "--", "sh", "-c", "echo 'fatal: no API key' >&2; exit 7"]);
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(err.contains("exit status 7") && err.contains("fatal: no API key"), "{err}");
    // 3: the server never answers.
    let o = mcplens(&["tools", "--timeout", "1", "--", "sleep", "30"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("within 1s"), "{}", stderr(&o));
}

#[test]
fn config_files_pick_a_server() {
    let dir = std::env::temp_dir().join(format!("mcplens-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let path = dir.join("mcp.json");
    let cfg = json!({"mcpServers": {
        "demo": {"command": bin(), "args": ["demo-server"], "env": {"DEMO_TOKEN": "secret-value-123"}},
        "other": {"url": "http://127.0.0.1:9/mcp"}
    }});
    std::fs::write(&path, cfg.to_string()).unwrap_or_default();
    let p = path.to_string_lossy().to_string();
    let o = mcplens(&["tools", "--config", &p]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("demo, other"), "{}", stderr(&o));
    let o = mcplens(&["tools", "--config", &p, "--server", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let o = mcplens(&["call", "server_status", "--config", &p, "--server", "demo", "--raw"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["structuredContent"]["status"], "ok");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn progress_is_reported_on_stderr() {
    let o = mcplens(&["call", "slow_task", "--arg", "steps=3", "--arg", "delay_ms=50"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("progress 1/3 step 1 of 3") && err.contains("progress 3/3"), "{err}");
    assert!(stdout(&o).contains("Finished 3 steps."));
}

#[test]
fn info_shows_the_server_as_it_introduced_itself() {
    // The legacy era's initialize result (tests/era.rs shows the demo's discover result).
    let o = mcplens(&["info", "--protocol", "2025-11-25"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("server        mcplens-demo") && text.contains("protocol      2025-11-25"), "{text}");
    assert!(text.contains("  tools       {}") && text.contains("instructions\n  Demo tools"), "{text}");
    // --json: the initialize result as sent, its members in the server's order.
    let o = mcplens(&["info", "--json", "--protocol", "2025-11-25"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_out(&o);
    let keys: Vec<&str> = v.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(keys, ["protocolVersion", "capabilities", "serverInfo", "instructions"]);
    assert_eq!(v["capabilities"], json!({"tools": {}}));
    assert_eq!(v["serverInfo"]["name"], "mcplens-demo");
}

#[test]
fn a_headless_call_reaches_the_history_the_tui_shows() {
    let dir = std::env::temp_dir().join(format!("mcplens-call-history-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(common::bin())
        .args(["call", "echo", "--args", r#"{"message":"from a script"}"#, "--", common::bin(), "demo-server"])
        .env("MCPLENS_STATE_DIR", &dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The TUI opens the history by the same target.
    let history = mcplens::history::History::open_in(&dir, &common::demo().label());
    let last = history.entries.last().unwrap_or_else(|| panic!("no entry in {}", dir.display()));
    assert_eq!((last.tool.as_str(), &last.arguments), ("echo", &serde_json::json!({"message": "from a script"})));
    assert_eq!(last.status, mcplens::call::CallStatus::Ok);
    assert_eq!(history.last_arguments("echo"), Some(&serde_json::json!({"message": "from a script"})));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server that neither exits when its input closes nor on SIGTERM is stopped only by the
/// SIGKILL that follows the grace periods. The answers of `tools`, `info`, the listings, `read`,
/// `prompt`, `complete`, `snapshot`, `lint` and `diff` are printed before that stop begins, as
/// `call`'s are: while the server still runs.
#[cfg(target_os = "linux")]
#[test]
fn answers_are_printed_before_a_lingering_server_is_stopped() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("mcplens-linger-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let everything = server_everything().to_string_lossy().into_owned();
    let snapshot = dir.join("before.json").to_string_lossy().into_owned();
    let o = mcplens(&["snapshot", "-o", &snapshot, "--", "node", &everything, "stdio"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let commands: [&[&str]; 9] = [
        &["tools"],
        &["info"],
        &["prompts"],
        &["read", "demo://resource/static/document/features.md"],
        &["prompt", "simple-prompt"],
        &["complete", "--prompt", "completable-prompt", "--arg", "department=E"],
        &["snapshot"],
        &["lint"],
        &["diff", &snapshot],
    ];
    // All at once: each waits out the grace periods at its end.
    let runs: Vec<_> = commands
        .iter()
        .enumerate()
        .map(|(i, args)| {
            let pid_file = dir.join(format!("pid{i}"));
            let script = format!(
                "echo $$ > '{}'; trap '' TERM; node '{everything}' stdio; while :; do sleep 1; done",
                pid_file.display(),
            );
            let child = Command::new(bin())
                .args(*args)
                .args(["--", "sh", "-c", &script])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{e}"));
            (args, pid_file, child)
        })
        .collect();
    // First each answer's first byte, while every server is still in its grace periods...
    let answered: Vec<_> = runs
        .into_iter()
        .map(|(args, pid_file, mut child)| {
            let mut out = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
            let mut first = [0u8; 1];
            out.read_exact(&mut first).unwrap_or_else(|e| panic!("{args:?}: no answer: {e}"));
            let pid = std::fs::read_to_string(&pid_file).unwrap_or_default();
            let alive = std::path::Path::new(&format!("/proc/{}", pid.trim())).exists();
            (args, alive, out, child)
        })
        .collect();
    // ...then the rest, as each command ends.
    for (args, alive, mut out, mut child) in answered {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
        let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(alive, "{args:?}: the answer came only after the server was stopped");
        assert_eq!(status.code(), Some(0), "{args:?}: {rest}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
