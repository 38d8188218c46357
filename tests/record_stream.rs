//! `mcplens record` when the host leaves while the server still writes
//! (tests/servers/stream_after_reply.py: a reply, then 20,000 short notifications, and it does
//! not exit when its input closes): every line reaches the host and the recording before the
//! server is stopped.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;

const COUNT: u64 = 20_000;

/// The host calls `stream`, leaves (closes the proxy's input) as the reply comes, and is busy for
/// a while before it reads on: the proxy waits on it, with nothing read from the server. Then every
/// notification comes, in order, and only then is the server stopped.
#[test]
fn every_line_a_server_streams_after_the_host_left_is_passed_on_before_it_is_stopped() {
    let dir = std::env::temp_dir().join(format!("mcplens-record-stream-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let rec = dir.join("rec.jsonl");
    let mut proxy = Command::new(bin())
        .args(["record", "-o", &rec.to_string_lossy(), "--"])
        .arg(python())
        .arg(script("stream_after_reply.py"))
        .env("MCPLENS_STATE_DIR", dir.join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut to = proxy.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    let mut from = BufReader::new(proxy.stdout.take().unwrap_or_else(|| panic!("no stdout")));
    let mut line = String::new();
    let mut say = |m: &str| to.write_all(format!("{m}\n").as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    say(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    say(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    say(&format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"stream","arguments":{{"count":{COUNT}}}}}}}"#
    ));
    while !line.contains(r#""id":2"#) {
        line.clear();
        assert!(from.read_line(&mut line).unwrap_or(0) > 0, "no reply to the call");
    }
    drop(to);
    // Busy: the proxy's grace (1.5 s) and pause (0.3 s) pass while it waits on the host.
    std::thread::sleep(Duration::from_millis(2500));
    let mut next = 0u64;
    for l in from.lines() {
        let l = l.unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value = serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}"));
        assert_eq!(v["params"]["data"]["i"], next, "a line lost or out of order: {l}");
        next += 1;
    }
    let status = proxy.wait().unwrap_or_else(|e| panic!("{e}"));
    let mut err = String::new();
    let _ = std::io::Read::read_to_string(&mut proxy.stderr.take().unwrap_or_else(|| panic!("no stderr")), &mut err);
    assert_eq!(next, COUNT, "the host got {next} of {COUNT}: {err}");
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.contains("did not exit when its input closed: SIGTERM") && !err.contains("still writing"), "{err}");
    let recorded = std::fs::read_to_string(&rec).unwrap_or_default();
    assert_eq!(
        recorded.lines().filter(|l| l.contains("notifications/message")).count() as u64,
        COUNT,
        "the recording lacks lines"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
