//! Hostile servers, files and clients against the CI features of issue 18 (record, replay, test,
//! diff), in the classes of issue 14: memory that must not grow with what a peer sends, secrets
//! that must not reach a file, exit codes that must say a write was lost, answers that must not
//! pass without an answer. Each test states its budget. Servers are inline Python (`-c`).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

const SECRET: &str = "sk-live-0123456789";
const MIB: u64 = 1 << 20;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcplens-hostile-ci-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// mcplens's own peak resident memory in bytes, as MCPLENS_REPORT_PEAK has it print on exit.
fn peak(o: &Output) -> u64 {
    let err = stderr(o);
    let kb = err.lines().find_map(|l| l.strip_prefix("mcplens-peak-rss ")).and_then(|v| {
        let v = v.trim_end_matches(" kB").trim();
        v.parse::<u64>().ok()
    });
    kb.unwrap_or_else(|| panic!("no peak memory report (did it crash?): {err}")) * 1024
}

/// A process's peak resident memory so far, in bytes (for one that runs until stopped).
fn peak_of(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).map(|v| v.trim_end_matches("kB").trim().to_string());
    kb.and_then(|v| v.parse::<u64>().ok()).unwrap_or_else(|| panic!("no VmHWM: {status}")) * 1024
}

fn run(mut c: Command) -> Output {
    c.env("MCPLENS_REPORT_PEAK", "1").stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("{e}"))
}

// ---- record ----

/// Budget: a server writing 200 MB on one line with no end is passed on byte for byte, the
/// recording keeps a preview and the length, mcplens's peak stays under 100 MiB (it held the
/// line: 3 GB in 8 s for an endless one).
#[test]
fn a_line_longer_than_a_message_is_passed_on_not_held() {
    let file = tmp("long.jsonl");
    let server = "import sys\nw=sys.stdout.buffer\nw.write(b'{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"')\nfor _ in range(3200): w.write(b'x'*65536)\nw.write(b'\"}\\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\\n')\nw.flush()";
    let mut c = Command::new(bin());
    c.args(["record", "--max-message-mb", "1", "-o"]).arg(&file).args(["--", "python3", "-c", server]);
    let o = run(c);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout.len(), 34 + 3200 * 65536 + 40, "every byte passed on");
    assert!(peak(&o) < 100 * MIB, "peak {} MiB", peak(&o) / MIB);
    let recorded = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), 2, "{}", &recorded[..recorded.len().min(300)]);
    assert!(lines[0].contains("209715237 bytes in all") && lines[0].len() < 8192, "{}", &lines[0][..200]);
    assert!(lines[1].contains(r#""id":2"#), "{}", lines[1]);
}

/// Budget: a recording that cannot be written (a full disk) exits 4, said once on stderr; the
/// session itself goes through (it said 0).
#[test]
fn a_recording_lost_to_a_full_disk_exits_4() {
    let server = "import sys\nfor l in sys.stdin: print('{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}', flush=True)";
    let mut c = Command::new(bin());
    c.args(["record", "-o", "/dev/full", "--", "python3", "-c", server]).stdin(Stdio::piped()).stdout(Stdio::piped());
    c.stderr(Stdio::piped());
    let mut child = c.spawn().unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"id\":2}\n");
    }
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_eq!(stderr(&o).matches("cannot write the recording").count(), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains(r#""result":{}"#), "the session went through: {}", stdout(&o));
}

// ---- replay ----

/// Budget: params nested 90,000 levels deep (`--max-depth` raised) are matched and answered,
/// no crash (they overflowed the stack).
#[test]
fn deep_params_are_replayed_without_a_crash() {
    let levels = 90_000;
    let deep = |leaf: u8| format!("{}{leaf}{}", "[".repeat(levels), "]".repeat(levels));
    let file = tmp("deep.jsonl");
    let text = format!(
        "{{\"kind\":\"sent\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{{\"a\":{}}}}}}}\n{{\"kind\":\"recv\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"ok\":1}}}}}}\n",
        deep(1)
    );
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let mut c = Command::new(bin());
    c.arg("replay").arg(&file).args(["--max-depth", "100000"]).stdin(Stdio::piped()).stdout(Stdio::piped());
    c.stderr(Stdio::piped());
    let mut child = c.spawn().unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut input) = child.stdin.take() {
        for (id, leaf) in [(2, 1), (3, 2)] {
            let ask =
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"m\",\"params\":{{\"a\":{}}}}}\n", deep(leaf));
            let _ = input.write_all(ask.as_bytes());
        }
    }
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first().copied(), Some(r#"{"jsonrpc":"2.0","id":2,"result":{"ok":1}}"#), "{out:.300}");
    assert!(lines.get(1).is_some_and(|l| l.contains("-32602") && l.len() < 2000), "{out:.300}");
}

/// `replay FILE --http` on a free port, once it listens; stopped when the guard drops.
fn serve_http_replay(file: &std::path::Path) -> (Guard, u16) {
    let port = free_port();
    let mut c = Command::new(bin());
    c.arg("replay").arg(file).args(["--http", &format!("127.0.0.1:{port}")]);
    let child =
        c.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap_or_else(|e| panic!("{e}"));
    let guard = Guard(child);
    wait_for_port(port);
    (guard, port)
}

/// A ping (id 9) sent on `s` and what came back: the whole answer, read until its body or a
/// refusal is there (the head and the body may come in two reads), the connection's end, or 10 s.
fn ping_answer(s: &mut TcpStream) -> String {
    let ping = r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;
    let _ = s.write_all(format!("POST /mcp HTTP/1.1\r\ncontent-length: {}\r\n\r\n{ping}", ping.len()).as_bytes());
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let mut text = String::new();
    let mut got = [0u8; 512];
    while !(text.contains(r#""id":9"#) || text.contains("too many")) {
        match s.read(&mut got) {
            Ok(n) if n > 0 => text.push_str(&String::from_utf8_lossy(&got[..n])),
            _ => break,
        }
    }
    text
}

/// Budget: 20 clients each pipelining 20 requests for a 20 MB reply and never reading add
/// under 100 MiB to the replay's peak (each answer was a copy of the reply: 20 x 20 MB and
/// more), and a new client is still answered.
#[test]
fn clients_that_never_read_cost_no_copies_of_the_reply() {
    let file = tmp("big.jsonl");
    let pad = "x".repeat(20 << 20);
    let text = format!(
        "{{\"kind\":\"sent\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}}}\n{{\"kind\":\"recv\",\"message\":{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"tools\":[],\"pad\":\"{pad}\"}}}}}}\n"
    );
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let (guard, port) = serve_http_replay(&file);
    let before = peak_of(guard.0.id());
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
    let request = format!("POST /mcp HTTP/1.1\r\ncontent-length: {}\r\n\r\n{body}", body.len());
    let mut idle = Vec::new();
    for _ in 0..20 {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
        let _ = s.write_all(request.repeat(20).as_bytes());
        idle.push(s);
    }
    std::thread::sleep(Duration::from_secs(3));
    let after = peak_of(guard.0.id());
    assert!(after < before + 100 * MIB, "peak {} MiB -> {} MiB", before / MIB, after / MIB);
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    let said = ping_answer(&mut s);
    assert!(said.contains(r#""id":9"#), "{said}");
    drop(idle);
}

/// Budget: clients beyond 64 at once are told 503 and closed (each may hold a 64 MiB body);
/// when one leaves, the next is served.
#[test]
fn clients_beyond_the_cap_are_told_503() {
    let file = tmp("cap.jsonl");
    let text = "{\"kind\":\"sent\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}\n{\"kind\":\"recv\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}\n";
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let (_guard, port) = serve_http_replay(&file);
    let answer = ping_answer;
    // Each holds its slot: it was answered once and stays open.
    let mut held: Vec<TcpStream> = (0..64)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
            let said = answer(&mut s);
            assert!(said.starts_with("HTTP/1.1 200") && said.contains(r#""id":9"#), "{said}");
            s
        })
        .collect();
    let mut late = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    let said = answer(&mut late);
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    held.pop();
    std::thread::sleep(Duration::from_millis(300));
    let mut next = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    let said = answer(&mut next);
    assert!(said.contains(r#""id":9"#), "{said}");
}

// ---- test ----

fn collection(name: &str, text: &str) -> PathBuf {
    let file = tmp(name);
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    file
}

/// Budget: `--update` against a server that echoes the target's secret (JSON-escaped) writes
/// no secret into the collection; the paths holding it keep their checks and fail (exit 6).
#[test]
fn update_writes_no_secret_into_the_collection() {
    let file = collection(
        "leak.toml",
        "[[call]]\nname = \"leak\"\ntool = \"leak\"\narguments = { x = \"a\" }\n[[call.expect.at]]\npath = \"/structuredContent/k\"\nequals = \"before\"\n[[call.expect.at]]\npath = \"/content/0/type\"\nequals = \"image\"\n",
    );
    let mut c = Command::new(bin());
    c.arg("test").arg(&file).arg("--update").arg("-e").arg(format!("API_TOKEN={SECRET}"));
    c.args(["--", "python3", &script("hostile_io.py"), "leak-escaped"]);
    let o = run(c);
    assert_eq!(o.status.code(), Some(6), "{}{}", stdout(&o), stderr(&o));
    let written = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
    let escaped: String = SECRET.chars().map(|c| format!("\\u{:04x}", u32::from(c))).collect();
    assert!(!written.contains(SECRET) && !written.to_lowercase().contains(&escaped), "{written}");
    assert!(written.contains("equals = \"before\"") && written.contains("equals = \"text\""), "{written}");
    assert!(stdout(&o).contains("/structuredContent/k: not rewritten"), "{}", stdout(&o));
    assert!(!stdout(&o).contains(SECRET) && !stderr(&o).contains(SECRET));
}

/// Budget: a call that gets no answer fails though it expects nothing; one
/// expecting `status = "timeout"` passes. Under 30 s.
#[test]
fn no_answer_is_no_pass() {
    let file = collection(
        "hang.toml",
        "[[call]]\nname = \"expects nothing\"\ntool = \"hang\"\n\n[[call]]\nname = \"expects the timeout\"\ntool = \"hang\"\n[call.expect]\nstatus = \"timeout\"\n",
    );
    let server = "import sys, json\nfor l in sys.stdin:\n  m = json.loads(l)\n  if 'id' not in m or m.get('method') == 'tools/call': continue\n  r = {'protocolVersion': '2025-06-18', 'capabilities': {'tools': {}}, 'serverInfo': {'name': 'h', 'version': '1'}} if m['method'] == 'initialize' else {'tools': []}\n  print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': r}), flush=True)";
    let started = Instant::now();
    let mut c = Command::new(bin());
    c.arg("test").arg(&file).args(["--timeout", "4", "--", "python3", "-c", server]);
    let o = run(c);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(o.status.code(), Some(6), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("FAIL  expects nothing") && out.contains("answer: expected an answer, got no answer"),
        "{out}"
    );
    assert!(out.contains("ok    expects the timeout"), "{out}");
}

// ---- diff ----

/// Budget: an endless or a huge snapshot file ends at once (under 10 s), exit 2, mcplens's peak
/// under the 512 MiB cap and a little (/dev/zero took 17 GB in 30 s and went on).
#[test]
fn endless_and_huge_snapshot_files_end_at_once() {
    let huge = tmp("huge.json");
    let f = std::fs::File::create(&huge).unwrap_or_else(|e| panic!("{e}"));
    f.set_len(600 * MIB).unwrap_or_else(|e| panic!("{e}"));
    for (path, cap) in [(PathBuf::from("/dev/zero"), 600 * MIB), (huge.clone(), 50 * MIB)] {
        let started = Instant::now();
        let mut c = Command::new(bin());
        c.arg("diff").arg(&path).arg(&path);
        let o = run(c);
        assert!(started.elapsed() < Duration::from_secs(10), "{path:?}: {:?}", started.elapsed());
        assert_eq!(o.status.code(), Some(2), "{path:?}: {}", stderr(&o));
        let want = if path.starts_with("/dev") { "not a regular file (a device)" } else { "larger than 512 MiB" };
        assert!(stderr(&o).contains(want), "{path:?}: {}", stderr(&o));
        assert!(peak(&o) < cap, "{path:?}: peak {} MiB", peak(&o) / MIB);
    }
    let _ = std::fs::remove_file(&huge);
}

/// Whether process `pid` still runs (a zombie, ended but not yet reaped, does not).
fn alive(pid: &str) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status.lines().any(|l| l.starts_with("State:") && !l.contains("Z (zombie)"))
}

/// Budget: a client stopping `record` with SIGTERM (MCP's stdio shutdown, after closing stdin)
/// stops the server behind it, within 5 s, exit 143 (the server was left running).
#[test]
fn stopping_the_proxy_stops_the_server() {
    let pid_file = tmp("server.pid");
    let server = format!(
        "import os, sys, time\nopen({:?}, 'w').write(str(os.getpid()))\nsys.stdin.read()\ntime.sleep(300)",
        pid_file.display().to_string()
    );
    let mut c = Command::new(bin());
    c.args(["record", "-o"]).arg(tmp("stopped.jsonl")).args(["--", "python3", "-c", &server]);
    let mut child = c.stdin(Stdio::null()).stdout(Stdio::null()).spawn().unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let mut server_pid = String::new();
    while server_pid.is_empty() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        server_pid = std::fs::read_to_string(&pid_file).unwrap_or_default();
    }
    assert!(alive(&server_pid), "the server did not start");
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(143));
    let stopped = Instant::now();
    while alive(&server_pid) && stopped.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(&server_pid), "the server {server_pid} still runs");
}

/// Budget: `--update` of 1,500 calls that all changed takes under 30 s (the file was parsed and
/// written again for each call: 2,000 took 153 s) and writes every one.
#[test]
fn update_of_many_calls_is_one_pass_over_the_file() {
    let calls: String = (0..1500)
        .map(|i| format!("[[call]]\nname = \"c{i}\"\ntool = \"nope\"\n[call.expect]\nstatus = \"ok\"\n"))
        .collect();
    let file = collection("many.toml", &calls);
    let started = Instant::now();
    let mut c = Command::new(bin());
    c.arg("test").arg(&file).arg("--update");
    let o = run(c);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written.matches("status = \"rpc error\"").count(), 1500);
    assert!(stderr(&o).contains("updated the expectations of 1500 calls"), "{}", stderr(&o));
}

/// Budget: a collection of 130,000 small calls (just under the 4 MiB cap) is read in under 30 s
/// (each call's line was counted from the start of the file: over 5 minutes), and a TOML error
/// on a 200 KB line quotes it cut short (the whole line went to stderr).
#[test]
fn large_and_one_line_collections_are_read_at_once() {
    let calls: String = (0..130_000).map(|i| format!("[[call]]\nname=\"c{i}\"\ntool=\"t\"\n")).collect();
    let file = collection("large.toml", &calls);
    let started = Instant::now();
    let mut c = Command::new(bin());
    c.arg("test").arg(&file).args(["--only", "nope"]);
    let o = run(c);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no call of that name"), "{}", stderr(&o));
    let deep = format!(
        "[[call]]\nname=\"a\"\ntool=\"t\"\narguments = {{ a = {}{} }}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let file = collection("one-line.toml", &deep);
    let mut c = Command::new(bin());
    c.arg("test").arg(&file);
    let o = run(c);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 4") && stderr(&o).len() < 2000, "{} bytes", stderr(&o).len());
}
