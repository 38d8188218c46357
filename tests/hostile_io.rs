//! Hostile I/O, secrets and exit codes (issue 14): writes that fail, files that never end, secrets
//! a server sends back (plainly or JSON-escaped), redirects to other origins, and the smaller
//! protocol and usage cases. Each test states its budget: exit code, time, memory, and what must
//! not appear. Servers: tests/servers/hostile_io.py.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

const SECRET: &str = "sk-live-0123456789";

fn server(mode: &str) -> Vec<String> {
    vec!["--".into(), "python3".into(), script("hostile_io.py"), mode.into()]
}

fn cmd(args: &[&str], mode: &str) -> Command {
    let mut c = Command::new(bin());
    c.args(args).args(server(mode)).stdin(Stdio::null());
    c
}

fn run(args: &[&str], mode: &str) -> std::process::Output {
    cmd(args, mode).output().unwrap_or_else(|e| panic!("{e}"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcplens-hostile-io-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// The secret as a server may write it inside a JSON string: every character a `\u` escape.
fn escaped(s: &str) -> String {
    s.chars().map(|c| format!("\\u{:04x}", u32::from(c))).collect()
}

/// Budget: the secret appears on neither stream, plainly or escaped.
fn assert_no_secret(o: &std::process::Output, what: &str) {
    for (name, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(SECRET), "{what}: the secret reached {name}:\n{text}");
        assert!(!text.contains(&escaped(SECRET)), "{what}: the escaped secret reached {name}:\n{text}");
    }
}

/// Budget: nothing on stderr a panic would print.
fn assert_no_panic(o: &std::process::Output, what: &str) {
    let err = stderr(o);
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{what}: {err}");
    assert_ne!(o.status.code(), Some(101), "{what}: {err}");
}

// ---- writes ----

/// Budget: exit 141, nothing on stderr, within 30 s, when the reader of stdout goes away.
#[test]
fn a_closed_stdout_pipe_ends_quietly_with_141() {
    for args in [&["tools", "--json"][..], &["tools"], &["call", "tool_1", "--json"]] {
        let mut child =
            cmd(args, "big").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap_or_else(|e| panic!("{e}"));
        let mut first = [0u8; 16];
        if let Some(out) = child.stdout.as_mut() {
            let _ = out.read(&mut first);
        }
        // The reader goes away, as `| head -c 16` does.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        let what = format!("{args:?} | head -c 16");
        assert_no_panic(&o, &what);
        // `call` of a small result may have written all before the pipe closed.
        if args[0] == "tools" {
            assert_eq!(o.status.code(), Some(141), "{what}: {}", stderr(&o));
        } else {
            assert!(matches!(o.status.code(), Some(0 | 141)), "{what}: {:?}", o.status);
        }
        assert_eq!(stderr(&o), "", "{what}");
    }
}

/// Budget: a closed stderr (progress lines written into it) is exit 141, the result still
/// reaches stdout.
#[test]
fn a_closed_stderr_pipe_is_141_and_stdout_still_gets_the_answer() {
    let mut child = cmd(&["call", "leak", "-e", &format!("API_TOKEN={SECRET}")], "leak-progress")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    drop(child.stderr.take());
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_no_panic(&o, "call 2>closed pipe");
    assert_eq!(o.status.code(), Some(141));
    assert!(stdout(&o).contains("done"), "{}", stdout(&o));
}

fn to_dev_full(args: &[&str], mode: &str, stream: &str) -> std::process::Output {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap_or_else(|e| panic!("{e}"));
    let mut c = cmd(args, mode);
    if stream == "stdout" {
        c.stdout(full()).stderr(Stdio::piped());
    } else {
        c.stdout(Stdio::piped()).stderr(full());
    }
    c.output().unwrap_or_else(|e| panic!("{e}"))
}

/// Budget: output lost to a full disk is exit 4 with exactly one line on stderr naming it.
#[test]
fn a_full_disk_on_stdout_is_exit_4_with_one_line() {
    for args in [
        &["tools"][..],
        &["tools", "--json"],
        &["info"],
        &["info", "--json"],
        &["call", "tool_1"],
        &["call", "tool_1", "--json"],
        &["call", "tool_1", "--raw"],
    ] {
        let o = to_dev_full(args, "big", "stdout");
        let what = format!("{args:?} > /dev/full");
        assert_no_panic(&o, &what);
        assert_eq!(o.status.code(), Some(4), "{what}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("mcplens: output lost: cannot write to stdout:"), "{what}: {err}");
    }
    for args in [&["schema", "envelope"][..], &["--help"], &["call", "--help"], &["--version"]] {
        let o = Command::new(bin())
            .args(args)
            .stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap_or_else(|e| panic!("{e}")))
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_no_panic(&o, &format!("{args:?} > /dev/full"));
        assert_eq!(o.status.code(), Some(4), "{args:?} > /dev/full");
    }
}

/// Budget: progress lines lost to a full stderr are exit 4, no panic; the answer reaches stdout.
/// A usage error keeps its code 2 even when its message is lost.
#[test]
fn a_full_disk_on_stderr_is_exit_4_and_errors_keep_their_codes() {
    let o = to_dev_full(&["call", "leak"], "leak-progress", "stderr");
    assert_ne!(o.status.code(), Some(101), "progress 2> /dev/full panicked");
    assert_eq!(o.status.code(), Some(4));
    assert!(stdout(&o).contains("done"), "{}", stdout(&o));
    let o = to_dev_full(&["call", "no_such_tool"], "big", "stderr");
    assert_eq!(o.status.code(), Some(2));
    let o = to_dev_full(&["call", "leak"], "leak-error", "stderr");
    assert!(matches!(o.status.code(), Some(4)), "{:?}", o.status);
}

// ---- files ----

fn peak_kib(o: &std::process::Output) -> Option<u64> {
    let err = stderr(o);
    let line = err.lines().find(|l| l.starts_with("mcplens-peak-rss "))?;
    line.trim_start_matches("mcplens-peak-rss ").trim_end_matches(" kB").trim().parse().ok()
}

/// Budget: endless or huge files end at once (under 10 s), exit 2, peak memory under 200 MiB.
#[test]
fn endless_and_huge_files_end_at_once() {
    let dir = temp_dir("files");
    let huge = dir.join("huge.json");
    let file = std::fs::File::create(&huge).unwrap_or_else(|e| panic!("{e}"));
    file.set_len(17 << 20).unwrap_or_else(|e| panic!("{e}"));
    let binary = dir.join("binary.json");
    std::fs::write(&binary, b"{\"mcpServers\": {\"a\": {\"command\": \"\xff\xfe\"}}}")
        .unwrap_or_else(|e| panic!("{e}"));
    for (path, want) in [
        (Path::new("/dev/zero"), "not a regular file (a device)"),
        (huge.as_path(), "larger than 16 MiB"),
        (dir.as_path(), "not a regular file (a directory)"),
        (binary.as_path(), "not UTF-8"),
    ] {
        for sub in ["tools", "call"] {
            let mut args = vec![sub];
            if sub == "call" {
                args.push("x");
            }
            let started = Instant::now();
            let o = Command::new(bin())
                .args(&args)
                .arg("--config")
                .arg(path)
                .env("MCPLENS_REPORT_PEAK", "1")
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            let what = format!("{sub} --config {}", path.display());
            assert!(started.elapsed() < Duration::from_secs(10), "{what}: {:?}", started.elapsed());
            assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
            assert!(stderr(&o).contains(want), "{what}: {}", stderr(&o));
            assert!(peak_kib(&o).is_some_and(|k| k < 200 << 10), "{what}: peak {:?} KiB", peak_kib(&o));
        }
    }
    // The theme and the keymap: an error to show, the defaults used, at once.
    let started = Instant::now();
    let (_, err) = mcplens::ui::theme::Theme::load(Some("/dev/zero"), false);
    assert!(err.as_deref().is_some_and(|e| e.contains("not a regular file")), "{err:?}");
    let err = mcplens::ui::keymap::init(Some(Path::new("/dev/zero")));
    assert!(err.as_deref().is_some_and(|e| e.contains("not a regular file")), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `c` with its output piped, killed if it runs past `limit` (then the test fails).
fn run_bounded(mut c: Command, limit: Duration) -> std::process::Output {
    let mut child = c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
}

/// Budget: a FIFO given as any file mcplens reads (config, hints, theme, keymap, snapshot,
/// collection) is refused at once with a clear error: a plain open waits for a writer for ever.
#[test]
fn a_fifo_in_place_of_any_user_file_is_refused_at_once() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let f = fifo.to_str().unwrap_or_default();
    let started = Instant::now();
    for args in [vec!["tools", "--config", f], vec!["diff", f, f], vec!["test", f]] {
        let mut c = Command::new(bin());
        c.args(&args).stdin(Stdio::null());
        let o = run_bounded(c, Duration::from_secs(10));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file (a FIFO)"), "{args:?}: {}", stderr(&o));
    }
    let (_, err) = mcplens::ui::theme::Theme::load(Some(f), false);
    assert!(err.as_deref().is_some_and(|e| e.contains("not a regular file (a FIFO)")), "{err:?}");
    let err = mcplens::ui::keymap::init(Some(&fifo));
    assert!(err.as_deref().is_some_and(|e| e.contains("not a regular file (a FIFO)")), "{err:?}");
    let project = dir.join("project");
    let _ = std::fs::create_dir_all(&project);
    let made = Command::new("mkfifo").arg(project.join(".mcplens-hints.toml")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let hints = mcplens::envelope::hints::Hints::load_default(Some(&project));
    assert!(hints.problems.iter().any(|p| p.contains("not a regular file (a FIFO)")), "{:?}", hints.problems);
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Budget: no crash on a theme nested 100k levels deep; the default theme and an error.
#[test]
fn a_deep_theme_file_is_an_error_not_a_crash() {
    let dir = temp_dir("deep-theme");
    let path = dir.join("deep.toml");
    let depth = 100_000;
    std::fs::write(&path, format!("name = {}{}\n", "[".repeat(depth), "]".repeat(depth)))
        .unwrap_or_else(|e| panic!("{e}"));
    let (_, err) = mcplens::ui::theme::Theme::load(path.to_str(), false);
    assert!(err.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Budget: exit 0 for a VS Code style config (BOM, comments, trailing commas); exit 2 with the
/// line for an unclosed comment.
#[test]
fn configs_with_a_bom_comments_and_trailing_commas_are_read() {
    let dir = temp_dir("jsonc");
    let good = dir.join("mcp.json");
    let text = format!(
        "\u{feff}{{\n  // VS Code's mcp.json\n  \"servers\": {{\n    /* the demo */ \"demo\": {{\n      \"command\": {:?},\n      \"args\": [\"demo-server\", ],\n      \"env\": {{ \"NOTE\": \"a // not a comment /* nor this */\", }},\n    }},\n  }},\n}}\n",
        bin()
    );
    std::fs::write(&good, text).unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["tools", "--config", good.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("tools ("), "{}", stdout(&o));
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\n  \"servers\": {}\n  /* never closed\n}").unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["tools", "--config", bad.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 3: a /* comment is not closed"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Budget: one bad line (not UTF-8, not JSON, cut short) hides no other entry, and is named.
#[test]
fn a_bad_history_line_is_skipped_not_fatal() {
    use mcplens::dirs::server_key;
    use mcplens::history::History;
    let dir = temp_dir("history");
    let good = r#"{"tool":"t","arguments":{"n":1},"at":1,"durationMs":2,"status":"ok"}"#;
    let mut bytes = format!("{good}\n").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\xfd not text\n{\"tool\": \"cut sh\n");
    bytes.extend_from_slice(format!("{good}\n").as_bytes());
    std::fs::create_dir_all(dir.join("history")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("history").join(format!("{}.jsonl", server_key("srv"))), bytes)
        .unwrap_or_else(|e| panic!("{e}"));
    let h = History::open_in(&dir, "srv");
    assert_eq!(h.entries.len(), 2);
    assert!(h.problem.as_deref().is_some_and(|p| p.contains("2 unreadable lines")), "{:?}", h.problem);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- secrets ----

/// Budget: the secret (given with -e) appears on no output, plain or escaped, in the readable,
/// --json and --raw forms, for an error reply, progress lines, a log notification and stderr.
#[test]
fn secrets_stay_off_stdout_and_stderr() {
    let env = format!("API_TOKEN={SECRET}");
    for (mode, tool, code) in [
        ("leak-error", "leak", 1),
        ("leak-progress", "leak", 0),
        ("leak-log", "leak", 0),
        ("leak-escaped", "leak", 0),
        ("leak-escaped", "fail", 1),
    ] {
        for form in [None, Some("--json"), Some("--raw")] {
            let mut args = vec!["call", tool, "-e", &env];
            args.extend(form);
            let o = run(&args, mode);
            let what = format!("{mode} {args:?}");
            assert_eq!(o.status.code(), Some(code), "{what}: {}", stderr(&o));
            assert_no_secret(&o, &what);
            if mode == "leak-progress" {
                assert!(stderr(&o).contains("using «redacted»"), "{what}: {}", stderr(&o));
            }
            if form == Some("--raw") || form == Some("--json") {
                // Masking keeps the JSON valid.
                assert!(serde_json::from_slice::<serde_json::Value>(&o.stdout).is_ok(), "{what}: {}", stdout(&o));
            }
        }
    }
}

/// Budget: a config's env secret is kept off the outputs as -e's is.
#[test]
fn config_secrets_stay_off_the_outputs() {
    let dir = temp_dir("config-secret");
    let path = dir.join("mcp.json");
    let config = serde_json::json!({"mcpServers": {"s": {
        "command": "python3", "args": [script("hostile_io.py"), "leak-error"], "env": {"API_TOKEN": SECRET}
    }}});
    std::fs::write(&path, config.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = mcplens(&["call", "leak", "--config", path.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_no_secret(&o, "config env");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Budget: the session log and its export hold the secret neither plainly nor behind escapes.
#[test]
fn escaped_secrets_are_masked_in_the_log_and_its_export() {
    use mcplens::mcp::log::{decode_escapes, to_json_lines};
    use mcplens::mcp::{CallOptions, ConnectOptions, Session, StdioTarget, Target};
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let target = Target::Stdio(StdioTarget {
            command: "python3".into(),
            args: vec![script("hostile_io.py"), "leak-escaped".into()],
            env: vec![("API_TOKEN".into(), SECRET.into())],
            cwd: None,
        });
        let session = Session::connect(&target, ConnectOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
        for tool in ["leak", "fail"] {
            let _ = session.call_tool(tool, None, &CallOptions::default(), &mut |_| {}).await;
        }
        let entries = session.log().entries();
        for e in &entries {
            let whole = session.log().whole(e);
            assert!(!decode_escapes(&whole).contains(SECRET), "log entry: {whole}");
        }
        let export = to_json_lines(session.log(), &entries);
        assert!(export.contains("«redacted»"), "{export}");
        assert!(!decode_escapes(&export).contains(SECRET), "{export}");
        session.close().await;
    });
}

/// An HTTP mode of hostile_io.py on a free port; `extra` are more arguments.
fn http_server(mode: &str, host: &str, extra: &[&str]) -> (Guard, String, u16) {
    let port = free_port();
    let child = Command::new("python3")
        .arg(script("hostile_io.py"))
        .arg(mode)
        .arg("--http")
        .arg(port.to_string())
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python3: {e}"));
    let guard = Guard(child);
    wait_for_port(port);
    (guard, format!("http://{host}:{port}/mcp"), port)
}

fn recorded(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// Budget: after a 307 to another origin, no user header (X-Api-Key, Authorization) reaches it;
/// the call still works (exit 0). A redirect within the origin keeps them.
#[test]
fn user_headers_do_not_follow_a_redirect_to_another_origin() {
    let dir = temp_dir("redirect");
    let seen = dir.join("other-origin.jsonl");
    let seen_str = seen.to_string_lossy().into_owned();
    // "localhost" and "127.0.0.1" are different origins, as are two ports.
    let (_b, target, _) = http_server("record", "localhost", &["--record", &seen_str]);
    let (_a, url, _) = http_server("redirect", "127.0.0.1", &["--redirect-to", &target]);
    let o = mcplens(&[
        "call",
        "leak",
        "--url",
        &url,
        "-H",
        &format!("X-Api-Key: {SECRET}"),
        "-H",
        "Authorization: Bearer tok-abcdef123",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let requests = recorded(&seen);
    assert!(!requests.is_empty(), "the other origin saw no request");
    for r in &requests {
        assert!(r.get("x-api-key").is_none() && r.get("authorization").is_none(), "leaked to another origin: {r}");
    }
    assert_no_secret(&o, "redirect");

    let same = dir.join("same-origin.jsonl");
    let same_str = same.to_string_lossy().into_owned();
    let (_c, url, _) = http_server("redirect", "127.0.0.1", &["--redirect-to", "/moved", "--record", &same_str]);
    let o = mcplens(&["call", "leak", "--url", &url, "-H", &format!("X-Api-Key: {SECRET}")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let requests = recorded(&same);
    assert!(requests.len() >= 2 && requests.iter().all(|r| r["x-api-key"] == SECRET), "{requests:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Budget: a secret in a JSON-RPC error over HTTP (given as a header) stays off the outputs.
#[test]
fn header_secrets_stay_off_the_outputs_over_http() {
    let (_s, url, _) = http_server("leak-error", "127.0.0.1", &[]);
    for form in [None, Some("--json"), Some("--raw")] {
        let header = format!("X-Api-Key: {SECRET}");
        let mut args = vec!["call", "leak", "--url", &url, "-H", &header];
        args.extend(form);
        let o = mcplens(&args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_no_secret(&o, &format!("{args:?}"));
    }
}

// ---- the smaller points ----

/// Budget: exit 3, the challenge quoted, no Rust type names.
#[test]
fn a_401_shows_the_challenge_not_type_names() {
    let (_s, url, _) = http_server("auth", "127.0.0.1", &[]);
    for sub in ["tools", "info"] {
        let o = mcplens(&[sub, "--url", &url]);
        assert_eq!(o.status.code(), Some(3));
        let err = stderr(&o);
        assert!(err.contains("HTTP 401") && err.contains(r#"WWW-Authenticate: Bearer realm="mcp""#), "{err}");
        assert!(!err.contains("rmcp::") && !err.contains("Transport [") && !err.contains("Auth required"), "{err}");
    }
}

/// Budget: `"result": null` is shown as sent with a warning, exit 0; --raw prints `null`.
#[test]
fn a_null_result_is_shown_with_a_warning() {
    let o = run(&["call", "leak", "--raw"], "null-result");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "null");
    assert!(stderr(&o).contains("the result is null"), "{}", stderr(&o));
    let o = run(&["call", "leak", "--json"], "null-result");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(json_out(&o)["metadata"]["result"].is_null());
    let o = run(&["call", "leak"], "null-result");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Budget: exit 2 (usage), a message naming the problem, never 3.
#[test]
fn usage_problems_exit_2() {
    let dir = temp_dir("usage");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap_or_else(|e| panic!("{e}"));
    let file = file.to_string_lossy().into_owned();
    for (args, want) in [
        (vec!["tools", "--max-depth", "0"], "--max-depth must be at least 1"),
        (vec!["call", "x", "--max-depth", "0"], "--max-depth must be at least 1"),
        (vec!["tools", "--cwd", &file], "is not a directory"),
    ] {
        let o = run(&args, "big");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    for (env, want) in [
        (serde_json::json!({"A\u{0}B": "x"}), "NUL byte"),
        (serde_json::json!({"A=B": "x"}), "not an environment variable name"),
        (serde_json::json!({"A": format!("{SECRET}\u{0}")}), "NUL byte"),
    ] {
        let path = dir.join("env.json");
        let config = serde_json::json!({"mcpServers": {"s": {"command": "python3", "env": env}}});
        std::fs::write(&path, config.to_string()).unwrap_or_else(|e| panic!("{e}"));
        let o = mcplens(&["tools", "--config", path.to_str().unwrap_or_default()]);
        assert_eq!(o.status.code(), Some(2), "{env}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{env}: {}", stderr(&o));
        assert_no_secret(&o, "NUL in an env value");
    }
    let o = mcplens(&["tools", "-e", "A=x\u{1}", "--", "python3", "-c", "1"]);
    assert_ne!(o.status.code(), Some(101));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- fuzzing the loaders ----

mod loaders {
    use proptest::prelude::*;

    fn jsonish() -> impl Strategy<Value = Vec<u8>> {
        let pieces = prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\\",
            "/",
            "*",
            "//",
            "/*",
            "*/",
            "\n",
            " ",
            "\u{feff}",
            "\"servers\"",
            "\"mcpServers\"",
            "\"command\"",
            "\"args\"",
            "\"env\"",
            "\"url\"",
            "\"headers\"",
            "\"cwd\"",
            "\"http://x\"",
            "1e400",
            "-0",
            "null",
            "true",
            "\\u0000",
            "\\ud800",
            "é",
            "\u{0}",
            "${HOME}",
            "${X:-y}",
            "${",
        ]);
        prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat().into_bytes())
    }

    fn tomlish() -> impl Strategy<Value = Vec<u8>> {
        let pieces = prop::sample::select(vec![
            "name",
            "=",
            "\"",
            "'",
            "[",
            "]",
            "[[",
            "]]",
            "{",
            "}",
            ",",
            "\n",
            "#",
            " ",
            "text",
            "background",
            "\"#ff0000\"",
            "\"reset\"",
            "\"lightblue\"",
            "1",
            "1e400",
            "true",
            "\\",
            "\\u0000",
            "\u{feff}",
            "é",
        ]);
        prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat().into_bytes())
    }

    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![prop::collection::vec(any::<u8>(), 0..512), jsonish(), tomlish()]
    }

    fn file(bytes: &[u8]) -> std::path::PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("mcplens-fuzz-loaders-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("f{}", N.fetch_add(1, Ordering::Relaxed)));
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
        path
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Random bytes as a config file: an answer or a usage error, never a panic.
        #[test]
        fn config_loader_never_panics(b in bytes()) {
            let path = file(&b);
            for server in [None, Some("a")] {
                if let Err(e) = mcplens::mcp::config::load(&path, server) {
                    prop_assert_eq!(e.exit_code(), 2);
                }
            }
            let _ = mcplens::mcp::config::choices(&path);
            let _ = mcplens::jsonc::to_json(&String::from_utf8_lossy(&b));
            let _ = std::fs::remove_file(&path);
        }

        /// Random bytes as a theme file: a theme, with an error when it is not one; never a panic.
        #[test]
        fn theme_loader_never_panics(b in bytes()) {
            let path = file(&b);
            let _ = mcplens::ui::theme::Theme::load(path.to_str(), false);
            let _ = mcplens::ui::keymap::Keymap::with_user(&String::from_utf8_lossy(&b));
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Budget: a file named for output (`snapshot -o`, `test --junit`, `record -o`) that cannot be
/// written is output lost, exit 4, one line on stderr: a full disk or a directory not there.
/// (`record` writes nothing before a client speaks: only its file not opening is tried here;
/// `hostile_ci` has it on a full disk.)
#[test]
fn an_output_file_that_cannot_be_written_is_exit_4() {
    let dir = std::env::temp_dir().join(format!("mcplens-outfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let calls = dir.join("calls.toml");
    std::fs::write(&calls, "[[call]]\nname = \"e\"\ntool = \"echo\"\narguments = { message = \"x\" }\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let calls = calls.to_string_lossy().into_owned();
    let demo = bin();
    for out in ["/dev/full", "/nonexistent-mcplens-dir/out"] {
        for args in
            [vec!["snapshot", "-o", out], vec!["test", calls.as_str(), "--junit", out], vec!["record", "-o", out]]
                .into_iter()
                .filter(|a| a[0] != "record" || out != "/dev/full")
        {
            let o = Command::new(bin())
                .args(&args)
                .args(["--", demo, "demo-server"])
                .stdin(Stdio::null())
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            let what = format!("{args:?}");
            assert_no_panic(&o, &what);
            assert_eq!(o.status.code(), Some(4), "{what}: {}", stderr(&o));
            let err = stderr(&o);
            assert_eq!(err.lines().filter(|l| l.contains("cannot write")).count(), 1, "{what}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
