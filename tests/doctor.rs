//! `mcplens doctor` against servers built to fail at one step each (tests/servers/doctor_fail.py,
//! a command that exits, a command not found, nothing listening) and against real servers that
//! pass every step (the demo, server-everything over stdio and streamable HTTP).

mod common;

use common::*;
use serde_json::Value;

/// `mcplens doctor --json ARGS`: the exit code and the report.
fn doctor(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["doctor", "--json", "--timeout", "10"];
    all.extend_from_slice(args);
    let o = mcplens(&all);
    (o.status.code(), json_out(&o))
}

fn step<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["steps"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["id"] == id))
        .unwrap_or_else(|| panic!("no step {id}: {report:#}"))
}

/// The report names `id` as the first failing step, with a fix, and exits 3.
fn fails_at(code: Option<i32>, report: &Value, id: &str) {
    assert_eq!(code, Some(3), "{report:#}");
    assert_eq!(report["first_failure"], id, "{report:#}");
    assert!(step(report, id)["fix"].as_str().is_some_and(|f| !f.is_empty()), "{report:#}");
    assert_eq!(step(report, "listing")["verdict"], "skip", "{report:#}");
}

fn passes(code: Option<i32>, report: &Value) {
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["ok"], true);
    assert_eq!(step(report, "listing")["verdict"], "pass", "{report:#}");
}

fn fail_server() -> (Guard, String) {
    let port = free_port();
    let child = std::process::Command::new(python())
        .args([script("doctor_fail.py"), "--http".into(), port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python: {e}"));
    let guard = Guard(child);
    wait_for_port(port);
    (guard, format!("http://127.0.0.1:{port}"))
}

#[test]
fn the_demo_and_server_everything_pass_every_step() {
    let (code, r) = doctor(&[]);
    passes(code, &r);
    assert_eq!(step(&r, "modern")["verdict"], "pass");
    let se = server_everything().to_string_lossy().into_owned();
    let (code, r) = doctor(&["--", "node", &se, "stdio"]);
    passes(code, &r);
    assert_eq!(step(&r, "legacy")["verdict"], "pass");
    // A legacy server: the modern era is only a warning.
    assert_eq!(step(&r, "modern")["verdict"], "warn");
    let (_guard, url) = server_everything_http();
    let (code, r) = doctor(&["--url", &url]);
    passes(code, &r);
    assert_eq!(step(&r, "transport")["verdict"], "pass");
}

#[test]
fn a_command_not_found_and_a_command_that_exits_are_named_with_their_stderr() {
    let (code, r) = doctor(&["--", "mcplens-no-such-command"]);
    fails_at(code, &r, "command");
    let (code, r) = doctor(&["--", "sh", "-c", "echo 'fatal: API_KEY is not set' >&2; exit 7"]);
    fails_at(code, &r, "process");
    let p = step(&r, "process");
    assert!(p["detail"].as_str().is_some_and(|d| d.contains("exit status 7")), "{r:#}");
    assert!(p["received"].to_string().contains("fatal: API_KEY is not set"), "{r:#}");
}

#[test]
fn a_wrong_protocol_version_fails_the_legacy_handshake_on_stdio_and_http() {
    let py = python().to_string_lossy().into_owned();
    let (code, r) = doctor(&["--", &py, &script("doctor_fail.py"), "--stdio-badversion"]);
    fails_at(code, &r, "legacy");
    assert!(step(&r, "legacy")["detail"].as_str().is_some_and(|d| d.contains("1999-01-01")), "{r:#}");
    let (_guard, base) = fail_server();
    let (code, r) = doctor(&["--url", &format!("{base}/badversion")]);
    fails_at(code, &r, "legacy");
}

#[test]
fn http_failures_are_named_at_the_transport() {
    let (_guard, base) = fail_server();
    for (path, says) in [("/nothing", "HTTP 404"), ("/html", "HTML page"), ("/moved", "302")] {
        let (code, r) = doctor(&["--url", &format!("{base}{path}")]);
        fails_at(code, &r, "transport");
        assert!(step(&r, "transport")["detail"].as_str().is_some_and(|d| d.contains(says)), "{path}: {r:#}");
    }
    let port = free_port();
    let (code, r) = doctor(&["--url", &format!("http://127.0.0.1:{port}/mcp")]);
    fails_at(code, &r, "transport");
    assert!(step(&r, "transport")["fix"].as_str().is_some_and(|f| f.contains("nothing listens")), "{r:#}");
    // A working endpoint of the same server passes.
    let (code, r) = doctor(&["--url", &format!("{base}/mcp")]);
    passes(code, &r);
}

#[test]
fn bad_authorization_server_metadata_is_named_with_where_it_came_from() {
    let (_guard, base) = fail_server();
    let (code, r) = doctor(&["--url", &format!("{base}/auth/mcp")]);
    fails_at(code, &r, "login.server");
    assert_eq!(step(&r, "login.resource")["verdict"], "pass", "{r:#}");
    let s = step(&r, "login.server");
    let detail = s["detail"].as_str().unwrap_or_default();
    for want in ["/.well-known/oauth-authorization-server/as", "no token_endpoint", "S256", "issuer"] {
        assert!(detail.contains(want), "{want}: {r:#}");
    }
    assert!(s["sent"].to_string().contains("GET "), "{r:#}");
}

#[test]
fn the_text_report_names_the_first_failing_step() {
    let o = mcplens(&["doctor", "--", "mcplens-no-such-command"]);
    assert_eq!(o.status.code(), Some(3));
    let text = stdout(&o);
    assert!(text.contains("[FAIL] command found"), "{text}");
    assert!(text.contains("first failing step: command found"), "{text}");
}

/// The other commands say what the doctor would, in a line: the cause of a failed HTTP
/// connection with what to check, the exchanges with --show-http, and a protocol version
/// mcplens does not know as a warning (the session goes on).
#[test]
fn commands_name_the_cause_of_a_failed_connection() {
    let (_guard, base) = fail_server();
    for (path, says) in [("/nothing", "answered HTTP 404 Not Found"), ("/html", "answered with an HTML page")] {
        let o = mcplens(&["tools", "--timeout", "10", "--url", &format!("{base}{path}")]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "{path}: {err}");
        assert!(err.contains(says) && err.contains("check the path"), "{path}: {err}");
        assert!(!err.contains("rmcp::") && !err.contains("both failed"), "{path}: {err}");
    }
    let o = mcplens(&["tools", "--show-http", "--timeout", "10", "--url", &format!("{base}/nothing")]);
    assert!(stderr(&o).contains("(initialize) → 404 Not Found"), "{}", stderr(&o));
    let py = python().to_string_lossy().into_owned();
    for target in [
        vec!["--url".to_string(), format!("{base}/badversion")],
        vec!["--".into(), py, script("doctor_fail.py"), "--stdio-badversion".into()],
    ] {
        let args: Vec<&str> =
            ["tools", "--timeout", "10"].into_iter().chain(target.iter().map(String::as_str)).collect();
        let o = mcplens(&args);
        assert_eq!(o.status.code(), Some(0), "{target:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(r#"protocol version "1999-01-01", which mcplens did not offer"#), "{}", stderr(&o));
    }
}
