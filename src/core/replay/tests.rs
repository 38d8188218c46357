use serde_json::Value;

use super::script::distance;
use super::*;
use crate::mcp::log::{LogKind, LogLimits, Redactor, SessionLog, to_json_lines};
use crate::mcp::wire::log_line;

/// A recording of `lines`, each `>` (client) or `<` (server) then the message, as the log
/// export writes it.
fn recording(lines: &[&str]) -> String {
    let log = SessionLog::new(LogLimits::default(), Redactor::default());
    for l in lines {
        let (kind, msg) = match l.split_at(1) {
            (">", m) => (LogKind::Sent, m),
            (_, m) => (LogKind::Received, m),
        };
        log_line(&log, kind, msg);
    }
    to_json_lines(&log, &log.entries())
}

fn script(lines: &[&str]) -> Script {
    Script::new(parse(&recording(lines), 100).unwrap_or_else(|e| panic!("{e}")))
}

fn reply(a: Answer) -> String {
    match a {
        Answer::Lines { reply: Some(r), .. } => r.to_string(),
        other => panic!("no reply: {other:?}"),
    }
}

#[test]
fn a_request_matches_by_method_and_params_as_values_and_gets_the_recorded_bytes() {
    let mut s = script(&[
        r#">{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"a":1,"b":[1,2]},"_meta":{"progressToken":3}}}"#,
        r#"<{"jsonrpc": "2.0", "id": 3, "result": {"n": 1.0, "big": 123456789012345678901234}}"#,
    ]);
    // Keys in another order, another id and token, the modern era's _meta: the same request.
    let asked = r#"{"jsonrpc":"2.0","id":"x-9","method":"tools/call","params":{"_meta":{"progressToken":"t","io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{"b":[1,2],"a":1},"name":"echo"}}"#;
    let r = reply(s.answer(asked, 100));
    assert_eq!(r, r#"{"jsonrpc": "2.0", "id": "x-9", "result": {"n": 1.0, "big": 123456789012345678901234}}"#);
}

#[test]
fn the_same_request_recorded_twice_is_answered_in_order_then_the_last_again() {
    let mut s = script(&[
        r#">{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#"<{"jsonrpc":"2.0","id":1,"result":{"tools":[],"v":1}}"#,
        r#">{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
        r#"<{"jsonrpc":"2.0","id":2,"result":{"tools":[],"v":2}}"#,
    ]);
    let ask = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
    let got: Vec<String> = (0..3).map(|_| reply(s.answer(ask, 100))).collect();
    assert!(got[0].contains("\"v\":1") && got[1].contains("\"v\":2") && got[2].contains("\"v\":2"), "{got:?}");
    assert!(got.iter().all(|r| r.contains("\"id\":7")));
}

#[test]
fn an_unrecorded_request_is_an_error_naming_the_method_and_the_closest_params() {
    let mut s = script(&[
        r#">{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"m":"hi"}}}"#,
        r#"<{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#">{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"other","arguments":{}}}"#,
        r#"<{"jsonrpc":"2.0","id":2,"result":{}}"#,
    ]);
    let r = reply(s.answer(
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"m":"ho"}}}"#,
        100,
    ));
    let v: Value = serde_json::from_str(&r).unwrap_or_default();
    assert_eq!(v["id"], 5);
    assert_eq!(v["error"]["code"], -32602);
    let msg = v["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("tools/call: no recorded reply matched") && msg.contains(r#""m":"hi""#), "{msg}");
    let r = reply(s.answer(r#"{"jsonrpc":"2.0","id":6,"method":"prompts/list"}"#, 100));
    assert!(r.contains("-32601") && r.contains("prompts/list: no recorded reply matched"), "{r}");
    // ping is always answered; notifications and replies to the server get nothing.
    assert!(reply(s.answer(r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#, 100)).contains(r#""result":{}"#));
    assert_eq!(s.answer(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, 100), Answer::Silent);
    assert_eq!(s.answer(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, 100), Answer::Silent);
}

#[test]
fn progress_and_log_notifications_come_before_the_reply_with_the_new_token() {
    let mut s = script(&[
        r#">{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":1}}}"#,
        r#"<{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#,
        r#"<{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#,
        r#"<{"jsonrpc":"2.0","id":1,"result":{"done":true}}"#,
    ]);
    let with =
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p4"}}}"#;
    let Answer::Lines { notes, reply: Some(r) } = s.answer(with, 100) else { panic!("no answer") };
    assert_eq!(notes.len(), 2);
    assert!(notes[0].contains(r#""progressToken":"p4""#), "{notes:?}");
    assert!(notes[1].contains("notifications/message"));
    assert_eq!(r, r#"{"jsonrpc":"2.0","id":4,"result":{"done":true}}"#);
    // Without a token of its own the request gets no progress.
    let Answer::Lines { notes, .. } =
        s.answer(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow"}}"#, 100)
    else {
        panic!("no answer")
    };
    assert_eq!(notes.len(), 1);
}

#[test]
fn initialize_matches_whatever_the_client_says_of_itself() {
    let mut s = script(&[
        r#">{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"a"}}}"#,
        r#"<{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"s"}}}"#,
    ]);
    let r =
        reply(s.answer(r#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"clientInfo":{"name":"b"}}}"#, 100));
    assert_eq!(r, r#"{"jsonrpc":"2.0","id":9,"result":{"serverInfo":{"name":"s"}}}"#);
    // No discover was recorded: method not found, so an auto client falls back to initialize.
    assert!(reply(s.answer(r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#, 100)).contains("-32601"));
}

#[test]
fn the_export_keeps_raw_bytes_only_when_the_message_would_not_reproduce_them() {
    let text =
        recording(&[r#">{"jsonrpc":"2.0","id":1,"method":"ping"}"#, r#"<{"jsonrpc": "2.0", "id": 1, "result": {}}"#]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines[0].contains("\"raw\""), "{}", lines[0]);
    // The exact bytes as the server sent them, as a JSON string.
    let raw = serde_json::to_string(r#"{"jsonrpc": "2.0", "id": 1, "result": {}}"#).unwrap_or_default();
    assert!(lines[1].contains(&format!("\"raw\":{raw}")), "{}", lines[1]);
}

#[test]
fn a_file_that_is_not_a_recording_is_an_error_naming_the_line() {
    let deep = format!(r#"{{"kind":"recv","message":{}{}}}"#, "[".repeat(5000), "]".repeat(5000));
    for (text, needle) in [
        ("not json\n", "line 1"),
        ("{\"kind\":\"info\",\"text\":\"x\"}\n[1]\n", "line 2 has no \"kind\""),
        ("{\"seq\":1}\n", "no \"kind\""),
        (deep.as_str(), "levels deep"),
        ("", "no JSON-RPC message"),
        ("{\"kind\":\"info\",\"text\":\"connected\"}\n", "no JSON-RPC message"),
    ] {
        match parse(text, 1000) {
            Err(e) => assert!(e.contains(needle), "{e:?} lacks {needle:?}"),
            Ok(_) => panic!("{needle}: accepted"),
        }
    }
    // A message the log kept only as a preview is skipped, and counted.
    let rec = parse(
        "{\"kind\":\"recv\",\"text\":\"{\\\"id\\\":1… (99 bytes in all)\"}\n{\"kind\":\"sent\",\"message\":{\"id\":1,\"method\":\"ping\"}}\n",
        10,
    );
    assert_eq!(rec.map(|r| r.skipped).ok(), Some(1));
}

#[test]
fn distance_counts_what_differs() {
    let a: Value = serde_json::json!({"name": "echo", "arguments": {"m": "hi", "n": [1, 2]}});
    let b: Value = serde_json::json!({"arguments": {"n": [1, 3, 4], "m": "hi"}, "name": "echo"});
    assert_eq!(distance(&a, &a), 0);
    assert_eq!(distance(&a, &b), 2);
    assert_eq!(distance(&a, &Value::Null), 1);
}

#[test]
fn a_request_cut_off_by_the_end_of_a_session_does_not_hide_a_recorded_reply() {
    let first = recording(&[r#">{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#]);
    let second = recording(&[
        r#">{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"<{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#,
    ]);
    let mut s = Script::new(parse(&format!("{first}{second}"), 100).unwrap_or_else(|e| panic!("{e}")));
    assert!(reply(s.answer(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, 100)).contains("tools"));
    // Held open (never answered) when nothing else was recorded.
    let mut s = Script::new(parse(&first, 100).unwrap_or_else(|e| panic!("{e}")));
    let held = s.answer(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, 100);
    assert_eq!(held, Answer::Lines { notes: vec![], reply: None });
}

/// Budget: a recording of 40,000 different params for one method and 40,000 requests never
/// answered is read in well under the 2 minutes each took (a search through every group, and
/// through every waiting request, for each message).
#[test]
fn many_different_requests_are_filed_without_a_search_through_the_others() {
    let mut text = String::new();
    for i in 0..40_000 {
        text.push_str(&format!(
            "{{\"seq\":{},\"kind\":\"sent\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"tools/call\",\"params\":{{\"i\":{i}}}}}}}\n",
            2 * i
        ));
        text.push_str(&format!(
            "{{\"seq\":{},\"kind\":\"recv\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":{i},\"result\":{{\"n\":{i}}}}}}}\n",
            2 * i + 1
        ));
    }
    for i in 0..40_000 {
        let seq = 80_000 + i;
        text.push_str(&format!(
            "{{\"seq\":{seq},\"kind\":\"sent\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":\"w{i}\",\"method\":\"m\",\"params\":{{\"i\":{i}}}}}}}\n"
        ));
    }
    let started = std::time::Instant::now();
    let mut s = Script::new(parse(&text, 100).unwrap_or_else(|e| panic!("{e}")));
    // A search per message took about 2 minutes on a quiet machine; filing each once takes well
    // under a second, and under 20 on a CI machine loaded by other tests. 60 s keeps them apart.
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{:?}", started.elapsed());
    assert_eq!(s.len(), 80_000);
    let r = reply(s.answer(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"i":39999}}"#, 100));
    assert_eq!(r, r#"{"jsonrpc":"2.0","id":1,"result":{"n":39999}}"#);
}

/// Params equal as JSON values find each other whatever their key order, `-0.0` and `0.0` alike.
#[test]
fn params_equal_as_values_are_the_same_request() {
    let mut s = script(&[
        r#">{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"x":1,"y":[0.0,-1]},"b":"s"}}"#,
        r#"<{"jsonrpc":"2.0","id":1,"result":{"ok":1}}"#,
    ]);
    let r =
        reply(s.answer(r#"{"jsonrpc":"2.0","id":2,"method":"m","params":{"b":"s","a":{"y":[-0.0,-1],"x":1}}}"#, 100));
    assert!(r.contains("\"ok\":1"), "{r}");
    let r =
        reply(s.answer(r#"{"jsonrpc":"2.0","id":3,"method":"m","params":{"b":"s","a":{"y":[-1,0.0],"x":1}}}"#, 100));
    assert!(r.contains("-32602"), "{r}");
}

/// A `raw` that is not JSON (an escape sequence in it, unescaped) is not sent: the entry's
/// `message` is.
#[test]
fn a_raw_that_is_not_json_gives_way_to_the_message() {
    let text = concat!(
        r#"{"kind":"sent","message":{"jsonrpc":"2.0","id":1,"method":"m"}}"#,
        "\n",
        r#"{"kind":"recv","message":{"jsonrpc":"2.0","id":1,"result":1},"raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\u001b[2J\"}"}"#,
        "\n"
    );
    let mut s = Script::new(parse(text, 100).unwrap_or_else(|e| panic!("{e}")));
    let r = reply(s.answer(r#"{"jsonrpc":"2.0","id":2,"method":"m"}"#, 100));
    assert_eq!(r, r#"{"jsonrpc":"2.0","id":2,"result":1}"#);
}

/// A recording where a proxy's breakpoint edited the call on its way to the server, then the
/// reply on its way to the host: each original followed by its edit, marked as the proxy marks
/// them.
fn edited_both_ways() -> String {
    let log = SessionLog::new(LogLimits::default(), Redactor::default());
    let call =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"sent"}}}"#;
    let original = log_line(&log, LogKind::Sent, call);
    log.mark_edited(original);
    let edit = log_line(&log, LogKind::Sent, &call.replace("\"sent\"", "\"edited\""));
    log.mark_edit_of(edit, original);
    let original = log_line(&log, LogKind::Received, r#"{"jsonrpc":"2.0","id":2,"result":{"said":"edited"}}"#);
    log.mark_edited(original);
    let edit = log_line(&log, LogKind::Received, r#"{"jsonrpc":"2.0","id":2,"result":{"said":"changed"}}"#);
    log.mark_edit_of(edit, original);
    to_json_lines(&log, &log.entries())
}

#[test]
fn an_exchange_edited_at_a_breakpoint_replays_as_the_host_saw_it() {
    let text = edited_both_ways();
    assert!(text.contains("\"edited\":true") && text.contains("\"edit_of\":0"), "{text}");
    let mut s = Script::new(parse(&text, 100).unwrap_or_else(|e| panic!("{e}")));
    // The call the host sent gets the reply the host got.
    let asked =
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"sent"}}}"#;
    assert_eq!(reply(s.answer(asked, 100)), r#"{"jsonrpc":"2.0","id":5,"result":{"said":"changed"}}"#);
    // The edit only the server saw is not a request the host made.
    let edit = asked.replace("\"sent\"", "\"edited\"");
    assert!(reply(s.answer(&edit, 100)).contains("no recorded reply matched"));
}
