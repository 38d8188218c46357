//! Helpers shared by the integration tests: the built binary, the real test servers, and a bare
//! JSON-RPC client that is the independent reference for "what the server really sent".
#![allow(dead_code)]

pub mod demo_app;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mcplens")
}

/// The embedded demo server as a target, started from the built binary.
pub fn demo() -> mcplens::mcp::Target {
    mcplens::mcp::Target::Stdio(mcplens::mcp::StdioTarget {
        command: bin().into(),
        args: vec!["demo-server".into()],
        env: vec![],
        cwd: None,
    })
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs mcplens with `args`; stdin is closed.
/// Its state (the history `call` writes) goes to a directory of the test run's, not the user's.
pub fn mcplens(args: &[&str]) -> Output {
    let state = std::env::temp_dir().join(format!("mcplens-test-state-{}", std::process::id()));
    Command::new(bin())
        .args(args)
        .env("MCPLENS_STATE_DIR", state)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin()))
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn json_out(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\nstderr:\n{}", stdout(o), stderr(o)))
}

fn need(path: PathBuf) -> PathBuf {
    assert!(path.exists(), "{} is missing: run scripts/install-peers (scripts/test does it for you)", path.display());
    path
}

/// What mcplens declares (servers such as server-everything list tools by the client's
/// capabilities), so the bare client is shown the same tools.
fn bare_capabilities() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}})
}

/// server-everything's entry point (installed by scripts/install-peers).
pub fn server_everything() -> PathBuf {
    need(root().join("tests/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"))
}

/// The Python with the `mcp` SDK (installed by scripts/install-peers).
pub fn python() -> PathBuf {
    need(root().join(".ci/venv/bin/python"))
}

pub fn script(name: &str) -> String {
    need(root().join("tests/servers").join(name)).to_string_lossy().into_owned()
}

/// A child that is killed when the test ends, pass or fail.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(38_999)
}

/// server-everything on streamable HTTP, bound to loopback only; returns its /mcp URL.
pub fn server_everything_http() -> (Guard, String) {
    let port = free_port();
    let child = Command::new("node")
        .arg("--require")
        .arg(root().join("tests/peers/loopback.cjs"))
        .arg(server_everything())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start node: {e}"));
    let guard = Guard(child);
    wait_for_port(port);
    (guard, format!("http://127.0.0.1:{port}/mcp"))
}

/// Waits (20 s at most) until something listens on the loopback `port`.
pub fn wait_for_port(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nothing listened on port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A bare JSON-RPC client over a child's stdio: no SDK, just lines. What it reads is what the
/// server sent.
pub struct Bare {
    child: Guard,
    reader: BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl Bare {
    pub fn start(program: &Path, args: &[&str]) -> Bare {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let out = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let mut bare = Bare { child: Guard(child), reader: BufReader::new(out), next_id: 1 };
        bare.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": bare_capabilities(), "clientInfo": {"name": "bare", "version": "0"}}),
        );
        bare.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        bare
    }

    fn send(&mut self, msg: &Value) {
        let stdin = self.child.0.stdin.as_mut().unwrap_or_else(|| panic!("no stdin"));
        writeln!(stdin, "{msg}").and_then(|_| stdin.flush()).unwrap_or_else(|e| panic!("write: {e}"));
    }

    /// Sends a request and returns its `result`, skipping notifications and non-JSON lines.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.reader.read_line(&mut line).unwrap_or(0);
            assert!(n > 0, "server closed stdout while waiting for {method}");
            let Ok(v) = serde_json::from_str::<Value>(&line) else { continue };
            if v.get("id") == Some(&json!(id)) {
                return v.get("result").cloned().unwrap_or_else(|| panic!("{method} failed: {v}"));
            }
        }
    }

    /// Every tool, following nextCursor.
    pub fn all_tools(&mut self) -> Vec<Value> {
        let mut tools = vec![];
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let r = self.request("tools/list", params);
            tools.extend(r["tools"].as_array().cloned().unwrap_or_default());
            match r.get("nextCursor").and_then(Value::as_str) {
                Some(c) => cursor = Some(c.to_string()),
                None => return tools,
            }
        }
    }
}

impl Bare {
    /// Every item of a paged list method (`resources/list` and `resources`, ...), following
    /// nextCursor; the cursor is sent back as it came.
    pub fn all_items(&mut self, method: &str, key: &str) -> Vec<Value> {
        let mut items = vec![];
        let mut cursor: Option<Value> = None;
        loop {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let r = self.request(method, params);
            items.extend(r[key].as_array().cloned().unwrap_or_default());
            match r.get("nextCursor") {
                Some(c) if !c.is_null() => cursor = Some(c.clone()),
                _ => return items,
            }
        }
    }
}

/// A tmux session on a tmux server of its own (`-L`): tests running at once never share, start
/// or stop one another's server (a session started while another test's server was shutting
/// down was lost, and its screen read empty).
pub struct Tmux {
    socket: String,
    name: String,
}

impl Tmux {
    /// Starts `cmd` in a detached session `width`×`height`, retrying a start that tmux refused.
    pub fn start(tag: &str, width: u16, height: u16, cmd: &str) -> Tmux {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("mcplens-test-{}-{n}", std::process::id());
        let tmux = Tmux { socket, name: tag.to_string() };
        let (w, h) = (width.to_string(), height.to_string());
        for attempt in 0.. {
            let o = tmux.command(&["new-session", "-d", "-s", tag, "-x", &w, "-y", &h, cmd]);
            if o.status.success() {
                return tmux;
            }
            let why = String::from_utf8_lossy(&o.stderr).into_owned();
            assert!(attempt < 3, "tmux could not start a session: {why}");
            std::thread::sleep(Duration::from_millis(300));
        }
        unreachable!()
    }

    fn command(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("tmux is needed for this test: {e}"))
    }

    /// Sends keys (tmux key names: "Enter", "C-r", or text).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        self.command(&args);
    }

    /// What the pane shows now.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.command(&["capture-pane", "-p", "-t", &self.name]).stdout).into_owned()
    }

    /// Waits (`secs` at most) until the pane shows `needle`, and returns the screen.
    pub fn wait_for(&self, needle: &str, secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {needle:?}; screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.command(&["kill-server"]);
    }
}
