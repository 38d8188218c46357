//! `mcplens record` and `mcplens replay`: sessions recorded through the proxy (against the demo
//! server and server-everything) and a log exported from a session's log replay so that
//! `tools --json` and `call --raw` / `--json` print the live bytes, over stdio and over HTTP; an
//! unrecorded call gets the documented error; a hostile recording exits 2.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::*;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcplens-ci-replay-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// Each headless command's output against `target` (the arguments after the command's own).
fn outputs(commands: &[&[&str]], target: &[&str]) -> Vec<Vec<u8>> {
    commands
        .iter()
        .map(|c| {
            let args: Vec<&str> = c.iter().chain(target).copied().collect();
            let o = mcplens(&args);
            assert!(matches!(o.status.code(), Some(0 | 1)), "{args:?}: {:?} {}", o.status, stderr(&o));
            o.stdout
        })
        .collect()
}

/// Runs each command through `mcplens record` into one recording, and returns it.
fn record(commands: &[&[&str]], server: &[&str], name: &str) -> PathBuf {
    let file = tmp(name);
    let mut all = String::new();
    for (i, c) in commands.iter().enumerate() {
        let part = tmp(&format!("{name}.{i}"));
        let part_s = part.to_string_lossy().into_owned();
        let mut target = vec!["--", bin(), "record", "-o", part_s.as_str()];
        if !server.is_empty() {
            target.push("--");
            target.extend(server);
        }
        outputs(&[c], &target);
        all.push_str(&std::fs::read_to_string(&part).unwrap_or_default());
    }
    std::fs::write(&file, all).unwrap_or_else(|e| panic!("{e}"));
    file
}

/// `mcplens replay FILE --http 127.0.0.1:0`, and the URL it printed.
fn replay_http(file: &Path) -> (Guard, String) {
    let child = Command::new(bin())
        .args(["replay", &file.to_string_lossy(), "--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut guard = Guard(child);
    let mut line = String::new();
    if let Some(err) = guard.0.stderr.take() {
        let _ = BufReader::new(err).read_line(&mut line);
    }
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_default().to_string();
    assert!(url.ends_with("/mcp"), "no URL in {line:?}");
    (guard, url)
}

/// Live, over a stdio replay and over an HTTP replay: the same bytes.
fn assert_replays(commands: &[&[&str]], live: &[Vec<u8>], file: &Path) {
    let f = file.to_string_lossy().into_owned();
    let stdio = outputs(commands, &["--", bin(), "replay", &f]);
    let (_server, url) = replay_http(file);
    let http = outputs(commands, &["--url", &url]);
    for (i, c) in commands.iter().enumerate() {
        assert!(!live[i].is_empty(), "{c:?} printed nothing live");
        assert_eq!(String::from_utf8_lossy(&stdio[i]), String::from_utf8_lossy(&live[i]), "{c:?} over stdio");
        assert_eq!(String::from_utf8_lossy(&http[i]), String::from_utf8_lossy(&live[i]), "{c:?} over HTTP");
    }
}

const DEMO: &[&[&str]] = &[
    &["tools", "--json"],
    &["call", "echo", "--arg", "message=hi", "--raw"],
    &["call", "echo", "--arg", "message=hi", "--json"],
    &["call", "slow_task", "--arg", "steps=2", "--arg", "delay_ms=1", "--raw"],
];

#[test]
fn a_demo_session_recorded_through_the_proxy_replays_byte_for_byte() {
    let live = outputs(DEMO, &[]);
    let file = record(DEMO, &[], "demo.jsonl");
    assert_replays(DEMO, &live, &file);

    // What the replay has no reply for: the documented error, naming the closest recorded call.
    let f = file.to_string_lossy().into_owned();
    let o = mcplens(&["call", "echo", "--arg", "message=ho", "--raw", "--", bin(), "replay", &f]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("-32602") && out.contains("tools/call: no recorded reply matched"), "{out}");
    assert!(out.contains(r#"\"message\":\"hi\""#), "the closest params are quoted: {out}");
    // A method the recording never saw: method not found.
    let o = mcplens(&["read", "demo://none", "--", bin(), "replay", &f]);
    let said = stdout(&o) + &stderr(&o);
    assert!(said.contains("-32601: resources/read: no recorded reply matched"), "{said}");
    // The recorded server declares no prompts: it is not asked for them.
    let o = mcplens(&["prompts", "--", bin(), "replay", &f]);
    assert_eq!(stdout(&o), "the server offers no prompts: it declares no prompts capability\n", "{}", stderr(&o));
}

#[test]
fn a_server_everything_session_replays_byte_for_byte() {
    let se = server_everything().to_string_lossy().into_owned();
    let server = ["node", se.as_str(), "stdio"];
    let commands: &[&[&str]] = &[
        &["tools", "--json"],
        &["call", "echo", "--arg", "message=hi", "--raw"],
        &["call", "echo", "--arg", "message=hi", "--json"],
        &["call", "get-sum", "--arg", "a=1", "--arg", "b=2", "--raw"],
    ];
    let mut target = vec!["--"];
    target.extend(server);
    let live = outputs(commands, &target);
    let file = record(commands, &server, "everything.jsonl");
    assert_replays(commands, &live, &file);
}

#[test]
fn secrets_given_with_e_are_masked_in_the_recording() {
    let file = tmp("secret.jsonl");
    let f = file.to_string_lossy().into_owned();
    let o = mcplens(&[
        "tools",
        "--json",
        "--",
        bin(),
        "record",
        "-o",
        &f,
        "-e",
        "TOKEN=sk-secret-1234",
        "--",
        bin(),
        "demo-server",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(text.lines().count() >= 4 && !text.contains("sk-secret-1234"));
}

#[test]
fn a_log_exported_from_a_session_replays() {
    let commands: &[&[&str]] = &[&["tools", "--json"], &["call", "echo", "--arg", "message=hi", "--raw"]];
    let live = outputs(commands, &[]);
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    let text = rt.block_on(async {
        let s = mcplens::mcp::Session::connect(&demo(), Default::default()).await.unwrap_or_else(|e| panic!("{e}"));
        s.list_tools().await.unwrap_or_else(|e| panic!("{e}"));
        let args = serde_json::json!({"message": "hi"}).as_object().cloned();
        let opts = mcplens::mcp::CallOptions::default();
        s.call_tool("echo", args, &opts, &mut |_| {}).await.unwrap_or_else(|e| panic!("{e}"));
        let log = s.log().clone();
        // The TUI's export: the same function on the same log.
        mcplens::mcp::log::to_json_lines(&log, &log.entries())
    });
    let file = tmp("exported.jsonl");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    assert_replays(commands, &live, &file);
}

#[test]
fn a_hostile_recording_is_a_clear_error_with_exit_2() {
    let deep = format!("{{\"kind\":\"recv\",\"message\":{}{}}}\n", "[".repeat(200_000), "]".repeat(200_000));
    let huge = tmp("huge.jsonl");
    let f = std::fs::File::create(&huge).unwrap_or_else(|e| panic!("{e}"));
    f.set_len(300 << 20).unwrap_or_else(|e| panic!("{e}"));
    let cases: Vec<(PathBuf, &str)> = vec![
        (tmp("junk.jsonl"), "is not an entry"),
        (tmp("deep.jsonl"), "levels deep"),
        (tmp("binary.jsonl"), "not UTF-8"),
        (huge, "larger than 256 MiB"),
        (tmp("missing.jsonl"), "cannot read"),
    ];
    let _ = std::fs::write(&cases[0].0, "hello\nworld\n");
    let _ = std::fs::write(&cases[1].0, deep);
    let _ = std::fs::write(&cases[2].0, [0xff, 0xfe, 0x00, 0x41]);
    for (path, needle) in &cases {
        let o = mcplens(&["replay", &path.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(2), "{path:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{path:?}: {needle:?} not in {}", stderr(&o));
    }
    let _ = std::fs::remove_file(&cases[3].0);
}
