//! Broken and hostile servers, over stdio and HTTP: mcplens keeps working, loses nothing, keeps
//! the terminal safe, exits with the documented codes, and names every failure's cause.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

fn server(mode: &str) -> Vec<String> {
    vec!["--".into(), "python3".into(), script("misbehave.py"), mode.into()]
}

fn run(args: &[&str], mode: &str) -> std::process::Output {
    let mut full: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    full.extend(server(mode));
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    mcplens(&refs)
}

/// No byte that a terminal would act on: ESC, other C0 controls but newline/tab, C1, bidi.
fn assert_terminal_safe(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    for c in text.chars() {
        let bad = (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        assert!(!bad, "{what}: control character {c:?} reached the output:\n{text}");
    }
}

/// An HTTP mode of the misbehaving server on a free loopback port.
fn http_server(mode: &str) -> (Guard, String) {
    let port = free_port();
    let child = Command::new("python3")
        .arg(script("misbehave.py"))
        .arg(mode)
        .arg("--http")
        .arg(port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python3: {e}"));
    let guard = Guard(child);
    wait_for_port(port);
    (guard, format!("http://127.0.0.1:{port}/mcp"))
}

#[test]
fn crashes_name_the_exit_status_and_stderr() {
    let o = run(&["tools"], "crash-start");
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(err.contains("exit status 4") && err.contains("fatal: cannot load config"), "{err}");
    let o = run(&["call", "echo"], "crash-call");
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(
        err.contains("closed the connection during tools/call echo")
            && err.contains("exit status 5")
            && err.contains("panic: the tool blew up"),
        "{err}"
    );
}

#[test]
fn a_server_without_tools_lists_none() {
    let o = run(&["tools"], "no-tools");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // The listing on stdout, what went wrong on stderr.
    assert!(out.starts_with("0 tools") && !out.contains("does not offer"), "{out}");
    assert!(stderr(&o).contains("warning: the server does not offer tools"), "{}", stderr(&o));
    let o = run(&["call", "x"], "no-tools");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(r#"no tool named "x" on this server; the server lists no tools"#), "{}", stderr(&o));
}

/// A tool not found is answered with the names the server has (ten, and how many more), and with
/// the descriptors that could not be read, one of which may be the tool asked for.
#[test]
fn a_tool_not_found_names_what_the_server_has() {
    let se = server_everything().to_string_lossy().into_owned();
    let o = mcplens(&["call", "zzz", "--", "node", &se, "stdio"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(", and 6 more (`mcplens tools` lists them)"), "{}", stderr(&o));
    let o = mcplens(&["call", "t", "--", "python3", &script("hostile_deep.py"), "nested-schema", "900"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 tool descriptor it listed could not be read"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("did you mean:  "), "{}", stderr(&o));
}

#[test]
fn hangs_end_at_the_timeout() {
    let started = Instant::now();
    // Long enough for the server to start on a busy machine: the timeout bounds the handshake too.
    let o = run(&["call", "echo", "--timeout", "4.5"], "hang");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(stderr(&o).contains("timed out after 4.5s"), "{}", stderr(&o));
}

#[test]
fn junk_and_malformed_replies_do_not_hide_anything() {
    let o = run(&["tools", "--json"], "junk");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let tools = json_out(&o);
    // Every entry the server sent, the malformed ones too.
    assert_eq!(tools.as_array().map(Vec::len), Some(6));
    assert_eq!(tools[5]["name"], "good_two");
    let o = run(&["tools"], "junk");
    let out = stdout(&o);
    assert!(
        out.contains("good_one") && out.contains("good_two") && out.contains("! malformed: tool has no inputSchema"),
        "{out}"
    );
    // Scripts read the listing on stdout: the warnings are on stderr, as with --json.
    assert!(out.starts_with("6 tools (1 page)\n\n") && !out.contains("warning:"), "{out}");
    assert!(stderr(&o).contains("warning: tool #2 (): tool name is not a string"), "{}", stderr(&o));
    // A result with an object as text and an unknown content type: shown, with warnings.
    let o = run(&["call", "good_one", "--raw"], "junk");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let raw = json_out(&o);
    assert_eq!(raw["content"][1]["type"], "hologram");
    assert_eq!(raw["unexpectedTopLevel"], true);
    let o = run(&["call", "good_one", "--json"], "junk");
    let env = json_out(&o);
    assert_eq!(env["data"], serde_json::json!([{"id": 1}]));
    assert_eq!(env["metadata"]["content"][1]["type"], "hologram", "nothing is dropped");
    let err = stderr(&o);
    assert!(
        err.contains("text block whose text is not a string") && err.contains("unknown type \"hologram\""),
        "{err}"
    );
}

#[test]
fn huge_and_deep_replies() {
    // A 30 MB single-line result completes.
    let o = run(&["call", "echo", "--json", "--no-validate", "--arg", "mb=30"], "huge");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let env: Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
    let n = env["data"].as_array().map_or(0, Vec::len);
    assert!(n > 250_000, "{n}");
    // Over --max-message-mb: the limit named in mcplens's words, not as a JSON-RPC error.
    let o = run(&["call", "echo", "--no-validate", "--arg", "mb=3", "--max-message-mb", "1"], "huge");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("echo failed: the reply to tools/call is") && !err.contains("Mcp error"), "{err}");
    assert_eq!(env["summary"]["total"].as_u64(), Some(n as u64));
    // Over the message limit: a clear error, not a hang.
    let o = run(&["call", "echo", "--no-validate", "--arg", "mb=3", "--max-message-mb", "1", "--timeout", "3"], "huge");
    assert_eq!(o.status.code(), Some(3));
    // Deeper than the limit: a clear error naming the limit.
    let o = run(&["call", "echo", "--no-validate", "--arg", "depth=5000"], "deep");
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("5003 levels deep, over the limit of 1000 (--max-depth)"), "{}", stderr(&o));
    let o = run(&["call", "echo", "--json", "--no-validate", "--arg", "depth=5000", "--max-depth", "6000"], "deep");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn cycles_and_tens_of_thousands_of_tools() {
    let o = run(&["tools"], "cycle");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("(cycle: not expanded again)"));
    let o = run(&["tools", "--json"], "many");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o).as_array().map(Vec::len), Some(20_000));
}

#[test]
fn escape_sequences_never_reach_the_terminal() {
    let o = run(&["tools"], "escapes");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_terminal_safe(&o.stdout, "tools");
    assert!(stdout(&o).contains("\\x1b[2J"), "escapes are shown, visibly");
    for args in [vec!["call", "evil"], vec!["call", "evil", "--json"], vec!["call", "evil", "--raw"]] {
        let mut a = args.clone();
        a.push("--no-validate");
        let o = run(&a, "escapes");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_terminal_safe(&o.stdout, &format!("{args:?} stdout"));
        assert_terminal_safe(&o.stderr, &format!("{args:?} stderr"));
        if args.len() > 2 {
            // Still valid JSON, with the same meaning.
            let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"));
            assert!(v.to_string().contains("\\u001b"), "the escapes are kept as data, escaped");
        }
    }
    let o = run(&["tools", "--json"], "escapes");
    assert_terminal_safe(&o.stdout, "tools --json");
    // A server that fails with escapes in its stderr.
    let o = mcplens(&["tools", "--", "sh", "-c", "printf 'boom \\033]52;c;aGk=\\007 \\033[2J\\n' >&2; exit 9"]);
    assert_eq!(o.status.code(), Some(3));
    assert_terminal_safe(&o.stderr, "stderr of a dying server");
}

#[test]
fn secrets_never_appear_in_errors_or_history() {
    let dir = std::env::temp_dir().join(format!("mcplens-secrets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = Command::new(bin())
        .args(["call", "echo", "--no-validate", "-e", "API_TOKEN=sk-live-0123456789", "--", "python3"])
        .arg(script("misbehave.py"))
        .arg("crash-call")
        .env("MCPLENS_STATE_DIR", &dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(3));
    // The server's stderr quotes the token; the error quoting the stderr must not.
    let o2 = run(&["call", "echo", "--no-validate", "-e", "API_TOKEN=sk-live-0123456789"], "secrets");
    assert!(!stderr(&o2).contains("sk-live-0123456789"));
    let o3 = Command::new(bin())
        .args([
            "tools",
            "-e",
            "API_TOKEN=sk-live-0123456789",
            "--",
            "sh",
            "-c",
            "echo \"token=$API_TOKEN\" >&2; exit 1",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&o3.stderr).to_string();
    assert!(err.contains("token=«redacted»") && !err.contains("sk-live-0123456789"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_failures_over_http() {
    let (_s, url) = http_server("junk");
    let o = mcplens(&["tools", "--json", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o).as_array().map(Vec::len), Some(6));
    let o = mcplens(&["call", "good_one", "--raw", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["content"][1]["type"], "hologram");

    let (_s, url) = http_server("hang");
    let started = Instant::now();
    let o = mcplens(&["call", "echo", "--timeout", "1.5", "--url", &url]);
    assert_eq!(o.status.code(), Some(3));
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(stderr(&o).contains("timed out"), "{}", stderr(&o));

    let (_s, url) = http_server("crash-call");
    let o = mcplens(&["call", "echo", "--url", &url, "--timeout", "5"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));

    let (_s, url) = http_server("escapes");
    let o = mcplens(&["tools", "--url", &url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_terminal_safe(&o.stdout, "tools over HTTP");
}
