//! `mcplens proxy` and `mcplens watch` with a real host stand-in (the official TypeScript SDK's
//! client, tests/hosts/sdk_host.cjs) and a real server (server-everything), over stdio and over
//! streamable HTTP: the session as without the proxy, a late watcher, breakpoints, a killed
//! watcher.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::{Guard, bin, root, server_everything, server_everything_http};
use serde_json::{Value, json};

/// A fresh state directory for the proxies' sockets (removed with the test).
struct State(PathBuf);

impl State {
    fn new(name: &str) -> State {
        let dir = std::env::temp_dir().join(format!("mcplens-proxy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        State(dir)
    }
}

impl Drop for State {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Lines of a child's stream, read on a thread.
fn lines_of(r: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// The next line that contains `what` (20 s at most); the lines before it are kept in `seen`.
fn wait_for(rx: &Receiver<String>, what: &str, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) if l.contains(what) => return l,
            Ok(l) => seen.push(l),
            Err(_) => panic!("no line with {what:?}; saw:\n{}", seen.join("\n")),
        }
    }
}

/// The SDK host, talking to its server through whatever `args` say.
struct Host {
    _child: Guard,
    stdin: ChildStdin,
    out: Receiver<String>,
    err: Receiver<String>,
}

impl Host {
    fn start(state: &State, args: &[&str]) -> Host {
        Host::start_with(state, args, &[])
    }

    fn start_with(state: &State, args: &[&str], env: &[(&str, &str)]) -> Host {
        let mut child = Command::new("node")
            .arg(root().join("tests/hosts/sdk_host.cjs"))
            .args(args)
            .env("MCPLENS_STATE_DIR", &state.0)
            .env("HOST_STDERR", "inherit")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start node: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let out = lines_of(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
        let err = lines_of(child.stderr.take().unwrap_or_else(|| panic!("no stderr")));
        let host = Host { _child: Guard(child), stdin, out, err };
        let hello = host.answer();
        assert!(hello.get("ok").is_some(), "the host did not connect: {hello}");
        host
    }

    fn answer(&self) -> Value {
        let line =
            self.out.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|e| panic!("no answer from the host: {e}"));
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    fn ask(&mut self, command: Value) -> Value {
        writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()).unwrap_or_else(|e| panic!("{e}"));
        self.answer()
    }

    fn echo(&mut self, text: &str) -> Value {
        self.ask(json!({"op": "call", "name": "echo", "arguments": {"message": text}, "timeout": 3000}))
    }

    /// The proxy's pid, from what it says on stderr (the host passes its server's stderr on).
    fn proxy_pid(&self) -> u32 {
        let said = wait_for(&self.err, "mcplens watch ", &mut Vec::new());
        let pid = said.rsplit(' ').next().unwrap_or_default().trim_end_matches('`');
        pid.parse().unwrap_or_else(|e| panic!("{e}: {said}"))
    }
}

/// `mcplens watch PID [ARGS]` with its stdin, stdout and stderr.
struct Watcher {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<String>,
    err: Receiver<String>,
}

impl Watcher {
    fn attach(state: &State, pid: u32, args: &[&str]) -> Watcher {
        let mut child = Command::new(bin())
            .arg("watch")
            .arg(pid.to_string())
            .args(args)
            .env("MCPLENS_STATE_DIR", &state.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        let stdin = child.stdin.take();
        let out = lines_of(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
        let err = lines_of(child.stderr.take().unwrap_or_else(|| panic!("no stderr")));
        let w = Watcher { child, stdin, out, err };
        wait_for(&w.err, "attached to", &mut Vec::new());
        w
    }

    fn say(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap_or_else(|| panic!("no stdin"));
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).unwrap_or_else(|e| panic!("{e}"));
    }

    /// Log entries (JSON lines on stdout) until one has `method` and `kind`.
    fn entries_until(&self, kind: &str, method: &str) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let line = wait_for(&self.out, "", &mut Vec::new());
            let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let done = v["kind"] == kind && v["method"] == method;
            seen.push(v);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn everything_stdio() -> Vec<String> {
    vec!["node".into(), server_everything().to_string_lossy().into_owned(), "stdio".into()]
}

fn through_proxy(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["stdio".to_string(), bin().to_string(), "proxy".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push("--".into());
    args.extend(everything_stdio());
    args
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn the_host_gets_the_same_answers_through_the_proxy_and_the_recording_has_them() {
    let state = State::new("same");
    let mut straight_args = vec!["stdio".to_string()];
    straight_args.extend(everything_stdio());
    let mut straight = Host::start(&state, &strs(&straight_args));
    let rec = state.0.join("rec.jsonl");
    let rec_arg = rec.to_string_lossy().into_owned();
    let mut proxied = Host::start(&state, &strs(&through_proxy(&["-o", &rec_arg])));
    for text in ["hello", "ünïcode ✓", "{\"not\": \"json\"}"] {
        assert_eq!(proxied.echo(text), straight.echo(text));
    }
    assert_eq!(proxied.ask(json!({"op": "list"})), straight.ask(json!({"op": "list"})));
    let recorded = std::fs::read_to_string(&rec).unwrap_or_default();
    let calls = recorded.lines().filter(|l| l.contains("\"method\":\"tools/call\"")).count();
    assert_eq!(calls, 6, "three calls and their replies:\n{recorded}");
}

#[test]
fn a_late_watcher_sees_the_whole_session_and_killing_it_harms_nothing() {
    let state = State::new("late");
    let mut host = Host::start(&state, &strs(&through_proxy(&[])));
    let pid = host.proxy_pid();
    assert_eq!(host.echo("before")["ok"]["content"][0]["text"], "Echo: before");
    let watcher = Watcher::attach(&state, pid, &[]);
    let seen = watcher.entries_until("recv", "tools/call");
    let methods: Vec<&str> = seen.iter().filter_map(|e| e["method"].as_str()).collect();
    assert_eq!(&methods[..3], ["initialize", "initialize", "notifications/initialized"], "{seen:?}");
    assert_eq!(seen.last().map(|e| e["message"]["result"]["content"][0]["text"].clone()), Some(json!("Echo: before")));
    // Live now.
    assert_eq!(host.echo("during")["ok"]["content"][0]["text"], "Echo: during");
    let live = watcher.entries_until("recv", "tools/call");
    assert_eq!(live[0]["message"]["params"]["arguments"]["message"], "during");
    // A watcher killed mid-session: the host goes on.
    drop(watcher);
    assert_eq!(host.echo("after")["ok"]["content"][0]["text"], "Echo: after");
    let listed = Command::new(bin()).arg("watch").env("MCPLENS_STATE_DIR", &state.0).output();
    let listed = String::from_utf8_lossy(&listed.map(|o| o.stdout).unwrap_or_default()).into_owned();
    assert!(listed.starts_with(&format!("{pid}\t")), "{listed}");
}

#[test]
fn a_breakpoint_holds_edits_drops_and_answers() {
    let state = State::new("break");
    let mut host = Host::start(&state, &strs(&through_proxy(&[])));
    let pid = host.proxy_pid();
    let mut w = Watcher::attach(&state, pid, &["--break", ">echo"]);
    wait_for(&w.err, "break >echo", &mut Vec::new());
    // Commands given ahead wait for the holds they are for.
    w.say(r#"edit {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"edited"}}}"#);
    w.say("drop");
    w.say("error -32001 too slow");
    w.say("send");
    let edited = host.echo("one");
    // The SDK numbers its requests: initialize was 0, this call is 1 (the edit keeps that id).
    assert_eq!(edited["ok"]["content"][0]["text"], "Echo: edited", "{edited}");
    let dropped = host.echo("two");
    assert!(dropped["error"].as_str().is_some_and(|e| e.contains("timed out")), "{dropped}");
    let answered = host.echo("three");
    assert!(answered["error"].as_str().is_some_and(|e| e.contains("too slow")), "{answered}");
    assert_eq!(host.echo("four")["ok"]["content"][0]["text"], "Echo: four");
    let mut said = Vec::new();
    wait_for(&w.err, "released 4: sent", &mut said);
    let said = said.join("\n");
    assert!(said.contains("released 1: edited") && said.contains("released 2: dropped"), "{said}");
    // A message held when its watcher is killed goes on as it came.
    w.stdin.take();
    drop(w);
    let mut w = Watcher::attach(&state, pid, &["--break", "<echo"]);
    wait_for(&w.err, "break <echo", &mut Vec::new());
    let killer = std::thread::spawn(move || {
        wait_for(&w.err, "held", &mut Vec::new());
        w.say("");
        drop(w);
    });
    assert_eq!(host.echo("five")["ok"]["content"][0]["text"], "Echo: five");
    killer.join().unwrap_or_else(|_| panic!("the watcher thread failed"));
}

/// `mcplens proxy ARGS` serving over HTTP: the process (stopped when dropped), its pid, the
/// local URL it says it serves at, and its stderr (kept open while the proxy runs).
fn http_proxy(state: &State, args: &[&str]) -> (Guard, u32, String, Receiver<String>) {
    let mut proxy = Command::new(bin())
        .arg("proxy")
        .args(args)
        .env("MCPLENS_STATE_DIR", &state.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let err = lines_of(proxy.stderr.take().unwrap_or_else(|| panic!("no stderr")));
    let pid = proxy.id();
    let serving = wait_for(&err, "serving", &mut Vec::new());
    let local = serving.rsplit(' ').next().unwrap_or_default().to_string();
    (Guard(proxy), pid, local, err)
}

#[test]
fn the_http_proxy_passes_the_session_and_its_headers() {
    let state = State::new("http");
    let (_server, url) = server_everything_http();
    let rec = state.0.join("rec.jsonl");
    let (_proxy, _, local, _err) = http_proxy(&state, &["--url", &url, "-o", &rec.to_string_lossy()]);
    assert!(local.starts_with("http://127.0.0.1:") && local.ends_with("/mcp"), "{local}");
    let mut straight = Host::start(&state, &["http", &url]);
    let mut proxied = Host::start(&state, &["http", &local]);
    assert_eq!(proxied.echo("over http"), straight.echo("over http"));
    assert_eq!(proxied.ask(json!({"op": "list"})), straight.ask(json!({"op": "list"})));
    let recorded = std::fs::read_to_string(&rec).unwrap_or_default();
    assert!(recorded.contains("\"kind\":\"recv\",\"id\":\"1\",\"method\":\"tools/call\""), "{recorded}");
}

/// The pids of a process's children (Linux's /proc lists them by the thread that started them).
fn children_of(pid: u32) -> Vec<u32> {
    let threads = std::fs::read_dir(format!("/proc/{pid}/task")).map(|d| d.flatten().collect()).unwrap_or(Vec::new());
    threads
        .iter()
        .flat_map(|t| {
            std::fs::read_to_string(t.path().join("children"))
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[test]
fn a_server_that_ignores_its_input_closing_does_not_outlive_the_host() {
    let state = State::new("host-gone");
    // A server that reads its input to the end and then stays (as some real ones do).
    let stays = "import sys, time\nsys.stdin.read()\ntime.sleep(300)";
    let mut proxy = Command::new(bin())
        .args(["proxy", "--", "python3", "-c", stays])
        .env("MCPLENS_STATE_DIR", &state.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let err = lines_of(proxy.stderr.take().unwrap_or_else(|| panic!("no stderr")));
    wait_for(&err, "mcplens watch ", &mut Vec::new());
    let started = Instant::now();
    let mut servers = children_of(proxy.id());
    while servers.is_empty() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        servers = children_of(proxy.id());
    }
    assert_eq!(servers.len(), 1, "expected the server as the proxy's one child: {servers:?}");
    // The host goes away: its end of the proxy's stdin closes.
    drop(proxy.stdin.take());
    let said = wait_for(&err, "SIGTERM", &mut Vec::new());
    assert!(said.contains("did not exit when its input closed"), "{said}");
    let started = Instant::now();
    while proxy.try_wait().ok().flatten().is_none() {
        assert!(started.elapsed() < Duration::from_secs(20), "the proxy outlived its host");
        std::thread::sleep(Duration::from_millis(100));
    }
    let server = servers[0];
    assert!(!std::path::Path::new(&format!("/proc/{server}")).exists(), "the server outlived the proxy");
}

#[test]
fn over_http_a_watcher_answers_the_servers_request_in_the_hosts_place() {
    let state = State::new("http-answer");
    let (_server, url) = server_everything_http();
    let (_proxy, pid, local, _err) = http_proxy(&state, &["--url", &url]);
    let mut host = Host::start_with(&state, &["http", &local], &[("HOST_SAMPLING", "1")]);
    let mut w = Watcher::attach(&state, pid, &["--break", "<sampling/createMessage"]);
    wait_for(&w.err, "break <sampling/createMessage", &mut Vec::new());
    let answerer = std::thread::spawn(move || {
        wait_for(&w.err, "held", &mut Vec::new());
        w.say("error -32001 no model behind this host");
        w
    });
    let call =
        json!({"op": "call", "name": "trigger-sampling-request", "arguments": {"prompt": "hi"}, "timeout": 15000});
    let answer = host.ask(call).to_string();
    let _w = answerer.join().unwrap_or_else(|_| panic!("the watcher thread failed"));
    assert!(answer.contains("no model behind this host"), "the server did not get the watcher's answer: {answer}");
    assert!(!answer.contains("from the host"), "the host answered a held request: {answer}");
}

/// The JSON-RPC reply in what curl printed: a JSON body, or the data of the SSE event with it.
fn reply_in(printed: &str) -> Value {
    printed
        .lines()
        .map(|l| l.strip_prefix("data: ").unwrap_or(l))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v.get("id") == Some(&json!(1)))
        .unwrap_or_else(|| panic!("no reply in:\n{printed}"))
}

fn curl_answer(url: &str, tool: &str, arg: &str) -> (Value, Value) {
    let printed = common::mcplens(&["call", tool, "--arg", arg, "--url", url, "--print-curl"]);
    let script = common::stdout(&printed);
    assert!(printed.status.success() && (script.starts_with("curl") || script.starts_with("SID=")), "{printed:?}");
    let ran = Command::new("sh").arg("-c").arg(&script).output().unwrap_or_else(|e| panic!("{e}"));
    let by_hand = reply_in(&String::from_utf8_lossy(&ran.stdout));
    let called = common::mcplens(&["call", tool, "--arg", arg, "--url", url, "--raw"]);
    (by_hand["result"].clone(), common::json_out(&called))
}

#[test]
fn a_printed_curl_command_run_by_hand_gets_the_same_answer() {
    // The legacy era (server-everything): the handshake, then the call.
    let (_server, url) = server_everything_http();
    let (by_hand, called) = curl_answer(&url, "echo", "message=by hand");
    assert_eq!(by_hand, called);
    // The modern era: one request.
    let port = common::free_port();
    let modern = Command::new(common::python())
        .args([&common::script("modern_server.py"), "--http", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let _modern = Guard(modern);
    common::wait_for_port(port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let printed =
        common::stdout(&common::mcplens(&["call", "echo", "--arg", "text=hi", "--url", &url, "--print-curl"]));
    assert_eq!(printed.lines().count(), 1, "{printed}");
    let (by_hand, called) = curl_answer(&url, "echo", "text=one request");
    assert_eq!(by_hand, called);
}

/// Says `line` to the watcher once its stderr has a line with `after`.
fn say_after(w: &mut Watcher, after: &str, line: &str) {
    wait_for(&w.err, after, &mut Vec::new());
    w.say(line);
}

#[test]
fn a_refused_edit_leaves_the_message_held_for_the_next_command() {
    let state = State::new("refused-edit");
    let mut host = Host::start(&state, &strs(&through_proxy(&[])));
    let pid = host.proxy_pid();
    let mut w = Watcher::attach(&state, pid, &["--break", ">echo"]);
    wait_for(&w.err, "mcplens watch: break", &mut Vec::new());
    let watcher = std::thread::spawn(move || {
        say_after(&mut w, "held 1", "edit {not json");
        say_after(&mut w, "the edit is not JSON", r#"edit "str""#);
        say_after(&mut w, "refused: an edited message", "send");
        // Refused again, then stdin closed: the message goes on as it came.
        say_after(&mut w, "held 2", "edit {still not json");
        wait_for(&w.err, "the edit is not JSON", &mut Vec::new());
        w.stdin.take();
        wait_for(&w.err, "stdin closed", &mut Vec::new());
        w
    });
    let call = |text: &str| json!({"op": "call", "name": "echo", "arguments": {"message": text}, "timeout": 15000});
    assert_eq!(host.ask(call("one"))["ok"]["content"][0]["text"], "Echo: one");
    assert_eq!(host.ask(call("two"))["ok"]["content"][0]["text"], "Echo: two");
    let _w = watcher.join().unwrap_or_else(|_| panic!("the watcher thread failed"));
}

/// The recorded entries (JSON Lines) of `path`.
fn recorded(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// The entries after the one recording the echo call of `text`, that one first.
fn from_call<'a>(entries: &'a [Value], text: &str) -> &'a [Value] {
    let at = entries
        .iter()
        .position(|e| e["kind"] == "sent" && e["message"]["params"]["arguments"]["message"] == text)
        .unwrap_or_else(|| panic!("the call of {text:?} is not recorded: {entries:#?}"));
    &entries[at..]
}

/// A request dropped or answered at a breakpoint is in the recording and in what the watcher
/// prints, with what became of it; an answer is paired with it.
fn dropped_and_answered_requests_are_recorded(host: &mut Host, pid: u32, state: &State, rec: &std::path::Path) {
    let mut w = Watcher::attach(state, pid, &["--break", ">echo"]);
    wait_for(&w.err, "mcplens watch: break", &mut Vec::new());
    w.say("drop");
    w.say("error -32603 boom");
    let dropped = host.ask(json!({"op": "call", "name": "echo", "arguments": {"message": "lost"}, "timeout": 2000}));
    assert!(dropped.get("error").is_some(), "{dropped}");
    let answered = host.echo("answered");
    assert!(answered.to_string().contains("boom"), "{answered}");
    let printed = w.entries_until("recv", "tools/call");
    let entries = recorded(rec);
    for (seen, what) in [(&printed, "printed"), (&entries, "recorded")] {
        let lost = from_call(seen, "lost");
        assert!(
            lost[1]["kind"] == "info" && lost[1]["text"].as_str().is_some_and(|t| t.contains("dropped")),
            "{what}: {lost:#?}"
        );
        let answered = from_call(seen, "answered");
        let reply = answered.iter().find(|e| e["kind"] == "recv").unwrap_or_else(|| panic!("{what}: {answered:#?}"));
        assert_eq!(reply["reply_to"], answered[0]["seq"], "{what}: {answered:#?}");
        assert_eq!(reply["method"], "tools/call", "{what}: {reply}");
        assert_eq!(reply["message"]["error"]["message"], "boom", "{what}: {reply}");
        assert!(
            answered[1]["kind"] == "info" && answered[1]["text"].as_str().is_some_and(|t| t.contains("answered")),
            "{what}: {answered:#?}"
        );
    }
}

#[test]
fn requests_dropped_or_answered_at_a_breakpoint_are_recorded_over_stdio() {
    let state = State::new("rec-held");
    let rec = state.0.join("rec.jsonl");
    let mut host = Host::start(&state, &strs(&through_proxy(&["-o", &rec.to_string_lossy()])));
    let pid = host.proxy_pid();
    dropped_and_answered_requests_are_recorded(&mut host, pid, &state, &rec);
}

#[test]
fn requests_dropped_or_answered_at_a_breakpoint_are_recorded_over_http() {
    let state = State::new("rec-held-http");
    let (_server, url) = server_everything_http();
    let rec = state.0.join("rec.jsonl");
    let (_proxy, pid, local, _err) = http_proxy(&state, &["--url", &url, "-o", &rec.to_string_lossy()]);
    let mut host = Host::start(&state, &["http", &local]);
    dropped_and_answered_requests_are_recorded(&mut host, pid, &state, &rec);
}

#[test]
fn a_late_watcher_is_shown_only_what_is_held_now() {
    let state = State::new("late-holds");
    let mut host = Host::start(&state, &strs(&through_proxy(&[])));
    let pid = host.proxy_pid();
    let mut first = Watcher::attach(&state, pid, &["--break", ">echo"]);
    wait_for(&first.err, "mcplens watch: break", &mut Vec::new());
    first.say("send");
    assert_eq!(host.echo("one")["ok"]["content"][0]["text"], "Echo: one");
    let caller = std::thread::spawn(move || {
        let two = host.ask(json!({"op": "call", "name": "echo", "arguments": {"message": "two"}, "timeout": 15000}));
        (host, two)
    });
    wait_for(&first.err, "held 2", &mut Vec::new());
    let late = Watcher::attach(&state, pid, &[]);
    let mut before = Vec::new();
    wait_for(&late.err, "held 2", &mut before);
    assert!(!before.iter().any(|l| l.contains("held 1")), "a hold released long ago shown as held: {before:?}");
    first.say("send");
    let (_host, two) = caller.join().unwrap_or_else(|_| panic!("the host thread failed"));
    assert_eq!(two["ok"]["content"][0]["text"], "Echo: two");
    wait_for(&late.err, "released 2: sent", &mut Vec::new());
}

#[test]
fn the_cancellation_of_a_dropped_request_never_reaches_the_server() {
    let state = State::new("cancel-dropped");
    let rec = state.0.join("rec.jsonl");
    // The server's stdin copied to a file: what it got.
    let got = state.0.join("server-got.jsonl");
    let server = format!("tee -a '{}' | node '{}' stdio", got.display(), server_everything().display());
    let rec_arg = rec.to_string_lossy().into_owned();
    let mut host = Host::start(&state, &["stdio", bin(), "proxy", "-o", &rec_arg, "--", "sh", "-c", &server]);
    let pid = host.proxy_pid();
    let mut w = Watcher::attach(&state, pid, &["--break", ">echo"]);
    wait_for(&w.err, "mcplens watch: break", &mut Vec::new());
    w.say("drop");
    w.say("send");
    let lost = host.ask(json!({"op": "call", "name": "echo", "arguments": {"message": "lost"}, "timeout": 1500}));
    assert!(lost["error"].as_str().is_some_and(|e| e.contains("timed out")), "{lost}");
    // The host cancels the call it gave up on before it makes the next one.
    assert_eq!(host.echo("after")["ok"]["content"][0]["text"], "Echo: after");
    let got = std::fs::read_to_string(&got).unwrap_or_default();
    assert!(got.contains("\"after\""), "the server's input was not copied: {got}");
    assert!(!got.contains("lost") && !got.contains("notifications/cancelled"), "the server got:\n{got}");
    let printed = w.entries_until("recv", "tools/call");
    for (seen, what) in [(&printed, "printed"), (&recorded(&rec), "recorded")] {
        assert_cancellation_handled(seen, what);
    }
}

/// The host's cancellation is in `seen`, followed by the note that the proxy handled it.
fn assert_cancellation_handled(seen: &[Value], what: &str) {
    let at = seen
        .iter()
        .position(|e| e["method"] == "notifications/cancelled")
        .unwrap_or_else(|| panic!("{what}: no cancellation: {seen:#?}"));
    let said = seen.get(at + 1).and_then(|e| e["text"].as_str()).unwrap_or_default();
    assert!(said.contains("handled by the proxy") && said.contains("dropped"), "{what}: {seen:#?}");
}

#[test]
fn over_http_the_cancellation_of_a_held_request_waits_and_goes_no_further_once_it_is_dropped() {
    let state = State::new("cancel-dropped-http");
    let (_server, url) = server_everything_http();
    let rec = state.0.join("rec.jsonl");
    let (_proxy, pid, local, _err) = http_proxy(&state, &["--url", &url, "-o", &rec.to_string_lossy()]);
    let mut host = Host::start(&state, &["http", &local]);
    let mut w = Watcher::attach(&state, pid, &["--break", ">echo"]);
    wait_for(&w.err, "mcplens watch: break", &mut Vec::new());
    // The host gives up while its call is held, and posts its cancellation (accepted, 202).
    let lost = host.ask(json!({"op": "call", "name": "echo", "arguments": {"message": "lost"}, "timeout": 1000}));
    assert!(lost["error"].as_str().is_some_and(|e| e.contains("timed out")), "{lost}");
    w.say("drop");
    wait_for(&w.err, "released 1: dropped", &mut Vec::new());
    assert_eq!(host.ask(json!({"op": "ping"})), json!({"ok": {}}));
    let printed = w.entries_until("recv", "ping");
    assert_cancellation_handled(&printed, "printed");
}

#[test]
fn watch_tui_holds_at_the_breakpoints_given_with_break() {
    let state = State::new("tui-break");
    let mut host = Host::start(&state, &strs(&through_proxy(&[])));
    let pid = host.proxy_pid();
    let cmd = format!(
        "MCPLENS_STATE_DIR='{}' {} watch {pid} --tui --break '>echo' --break '<never/sent'; echo EXITED=$?; sleep 30",
        state.0.display(),
        bin()
    );
    let t = common::Tmux::start(&format!("mcplens-watch-tui-{}", std::process::id()), 120, 40, &cmd);
    // Every breakpoint given is named, not only the last one confirmed.
    t.wait_for("breakpoints >echo · <never/sent", 20);
    // B lists them; d removes the chosen one, and the header follows.
    t.keys(&["B"]);
    t.wait_for("messages to the host", 20);
    t.keys(&["j", "d", "Escape"]);
    let screen = t.wait_for("breakpoints >echo   B lists them", 20);
    let header = screen.lines().next().unwrap_or_default();
    assert!(!header.contains("never/sent"), "{screen}");
    let caller = std::thread::spawn(move || {
        let call = json!({"op": "call", "name": "echo", "arguments": {"message": "held"}, "timeout": 20000});
        host.ask(call)
    });
    t.wait_for("Held 1 (to_server, matched echo)", 20);
    t.keys(&["x"]);
    t.wait_for("Answer hold 1 with an error", 20);
    t.keys(&["Enter"]);
    let answer = caller.join().unwrap_or_else(|_| panic!("the host thread failed"));
    assert!(answer["error"].as_str().is_some_and(|e| e.contains("refused at a breakpoint")), "{answer}");
    t.keys(&["q"]);
    t.wait_for("EXITED=0", 20);
}

/// In the TUI watcher `?` opens the help with the watch views' keys (the footer offers it), and
/// `y` in an entry copies it, as the help and docs/proxy.md say.
#[test]
fn watch_tui_help_lists_the_watch_keys_and_y_copies_an_entry() {
    let state = State::new("tui-help");
    let host = Host::start(&state, &strs(&through_proxy(&[])));
    let pid = host.proxy_pid();
    let cmd =
        format!("MCPLENS_STATE_DIR='{}' {} watch {pid} --tui; echo EXITED=$?; sleep 30", state.0.display(), bin());
    let t = common::Tmux::start(&format!("mcplens-watch-help-{}", std::process::id()), 120, 40, &cmd);
    t.wait_for("attached to", 20);
    t.keys(&["?"]);
    let help = t.wait_for("The breakpoints set (B while watching)", 20);
    assert!(help.contains("Watching a proxy") && !help.contains("Tool list"), "{help}");
    t.keys(&["q"]);
    t.wait_for("? help  q quit", 20);
    t.keys(&["g", "Enter"]);
    t.wait_for("Log entry:", 20);
    t.keys(&["y"]);
    t.wait_for("to the clipboard (OSC 52)", 20);
    // Apart: Escape with a letter right after it reads as Alt and the letter.
    t.keys(&["Escape"]);
    t.wait_for("b break", 20);
    t.keys(&["q"]);
    t.wait_for("EXITED=0", 20);
}

#[test]
fn an_exchange_edited_at_a_breakpoint_is_recorded_as_each_side_saw_it_and_replays_as_the_host_did() {
    let state = State::new("rec-edit");
    let rec = state.0.join("rec.jsonl");
    let rec_arg = rec.to_string_lossy().into_owned();
    let mut host = Host::start(&state, &strs(&through_proxy(&["-o", &rec_arg])));
    let pid = host.proxy_pid();
    let mut w = Watcher::attach(&state, pid, &["--break", "echo"]);
    wait_for(&w.err, "mcplens watch: break", &mut Vec::new());
    // The call on its way to the server, then its reply on its way to the host.
    w.say(r#"edit {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"edited"}}}"#);
    w.say(r#"edit {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"changed on its way"}]}}"#);
    assert_eq!(host.echo("sent")["ok"]["content"][0]["text"], "changed on its way");
    let printed = w.entries_until("recv", "tools/call");
    let printed_edit = w.entries_until("recv", "tools/call");
    let entries = recorded(&rec);
    // A notification the server sends meanwhile (its tool list changed) may come between.
    let exchange: Vec<&Value> = from_call(&entries, "sent")
        .iter()
        .filter(|e| {
            !(e["kind"] == "recv"
                && e["id"].is_null()
                && e["method"].as_str().is_some_and(|m| m.starts_with("notifications/")))
        })
        .collect();
    let [call, said, edit, reply, _, reply_edit] = &exchange[..6] else { panic!("{exchange:#?}") };
    assert_eq!((&call["kind"], &call["edited"]), (&json!("sent"), &json!(true)), "{exchange:#?}");
    assert!(said["text"].as_str().is_some_and(|t| t.contains("the server got the edit that follows")), "{said}");
    assert_eq!(edit["edit_of"], call["seq"], "{exchange:#?}");
    assert_eq!(edit["message"]["params"]["arguments"]["message"], "edited");
    assert_eq!((&reply["edited"], &reply["reply_to"]), (&json!(true), &edit["seq"]), "{exchange:#?}");
    assert_eq!(reply["message"]["result"]["content"][0]["text"], "Echo: edited");
    assert_eq!((&reply_edit["edit_of"], &reply_edit["reply_to"]), (&reply["seq"], &edit["seq"]), "{exchange:#?}");
    assert_eq!(reply_edit["method"], "tools/call");
    // The watcher printed the same entries.
    assert_eq!(printed.iter().chain(&printed_edit).filter(|e| e.get("edited") == Some(&json!(true))).count(), 2);
    // Replayed, the call the host made gets the answer the host got.
    drop(host);
    let mut replayed = Host::start(&state, &["stdio", bin(), "replay", &rec_arg]);
    assert_eq!(replayed.echo("sent")["ok"]["content"][0]["text"], "changed on its way");
    let unsent = replayed.echo("edited");
    assert!(unsent["error"].as_str().is_some_and(|e| e.contains("no recorded reply matched")), "{unsent}");
}
