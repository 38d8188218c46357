//! MCP Apps (SEP-1865): `mcplens app` runs a view in headless Chromium through its local web
//! host (the official example server-basic-vanillajs from npm, and a hand-built view whose own
//! tools/call the bridge passes or refuses), the pages are guarded, and `mcplens lint` reads the
//! views a server declares.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

fn vanillajs() -> Vec<String> {
    let node = root().join("tests/peers/node_modules/node/bin/node");
    let server = root().join("tests/peers/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js");
    assert!(server.exists(), "{} is missing: run scripts/install-peers", server.display());
    vec![node.to_string_lossy().into_owned(), server.to_string_lossy().into_owned(), "--stdio".into()]
}

fn apps_server() -> Vec<String> {
    vec![python().to_string_lossy().into_owned(), script("apps_server.py")]
}

fn chromium() -> PathBuf {
    let found = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("chromium"))
        .find(|p| p.exists());
    found.unwrap_or_else(|| panic!("chromium is missing: run scripts/install-peers (Debian package chromium)"))
}

/// `mcplens app` running, its URL read from stdout and its stderr gathered line by line.
struct AppRun {
    _guard: Guard,
    url: String,
    lines: Arc<Mutex<Vec<String>>>,
}

impl AppRun {
    fn start(tool: Option<&str>, server: &[String]) -> AppRun {
        let mut args: Vec<String> = vec!["app".into(), "--no-open".into()];
        args.extend(tool.map(str::to_string));
        args.push("--".into());
        args.extend(server.iter().cloned());
        let mut child = Command::new(bin())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mcplens starts");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let guard = Guard(child);
        let lines = Arc::new(Mutex::new(vec![]));
        let sink = lines.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(l);
            }
        });
        let mut url = String::new();
        BufReader::new(stdout).read_line(&mut url).expect("the URL on stdout");
        assert!(url.starts_with("http://127.0.0.1:"), "no URL: {url:?} {:?}", lines.lock().unwrap());
        AppRun { _guard: guard, url: url.trim().to_string(), lines }
    }

    /// Waits (30 s at most) for a stderr line holding `needle`.
    fn wait_for(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(l) = self.lines.lock().unwrap().iter().find(|l| l.contains(needle)) {
                return l.clone();
            }
            assert!(Instant::now() < deadline, "no line with {needle:?} in:\n{:#?}", self.lines.lock().unwrap());
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn browse(&self) -> Guard {
        let profile = std::env::temp_dir().join(format!("mcplens-apps-chromium-{}", std::process::id()));
        let child = Command::new(chromium())
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(&self.url)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        Guard(child)
    }
}

#[test]
fn the_official_example_renders_in_chromium_and_its_call_is_answered() {
    let run = AppRun::start(None, &vanillajs());
    let _browser = run.browse();
    // The view (the Apps SDK's App) connected through the sandbox proxy.
    let init = run.wait_for("bridge app: ui/initialize ");
    assert!(init.contains("\"Get Time App\""), "{init}");
    run.wait_for("bridge app: ui/notifications/initialized");
    // The host's call of get-time went to the server and its result to the view.
    let result = run.wait_for("bridge host: ui/notifications/tool-result ");
    assert!(result.contains("\"structuredContent\":{\"time\":\"20"), "{result}");
    // The view laid itself out and said its size.
    let size = run.wait_for("bridge app: ui/notifications/size-changed ");
    let height: f64 =
        size.split("\"height\":").nth(1).and_then(|s| s.trim_end_matches('}').parse().ok()).unwrap_or(0.0);
    assert!(height > 50.0, "{size}");
}

#[test]
fn a_views_own_tool_calls_are_passed_to_the_session_unless_visibility_forbids() {
    let run = AppRun::start(Some("dashboard"), &apps_server());
    let _browser = run.browse();
    let result = run.wait_for("bridge host: ui/notifications/tool-result ");
    assert!(result.contains("Dashboard of 3 items"), "{result}");
    // `refresh` is app-only: the bridge called it on the server for the view.
    run.wait_for("refresh answered: refreshed 1");
    // `secret` is model-only: the host refused the view's call (SEP-1865, Visibility).
    let refused = run.wait_for("secret refused: ");
    assert!(refused.contains("visibility"), "{refused}");
    assert!(!run.lines.lock().unwrap().iter().any(|l| l.contains("secret answered")));
}

/// One HTTP/1.1 GET; the whole answer (head and body).
fn get(authority: &str, path: &str, host_header: &str) -> String {
    let mut s = TcpStream::connect(authority).expect("connect");
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = vec![];
    let _ = s.read_to_end(&mut buf);
    out.push_str(&String::from_utf8_lossy(&buf));
    out
}

#[test]
fn the_pages_are_guarded_and_the_sandbox_carries_the_views_csp() {
    let run = AppRun::start(Some("dashboard"), &apps_server());
    let rest = run.url.trim_start_matches("http://");
    let (authority, path) = rest.split_once('/').unwrap();
    let path = format!("/{path}");
    assert!(get(authority, "/", authority).starts_with("HTTP/1.1 404"), "no page without the token");
    assert!(get(authority, &path, "evil.example:80").starts_with("HTTP/1.1 421"), "a foreign Host is refused");
    let page = get(authority, &path, authority);
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("Content-Security-Policy: default-src 'none'"), "{page}");
    let boot = get(authority, &format!("{path}bootstrap"), authority);
    let body: Value = serde_json::from_str(boot.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["tool"]["name"], "dashboard");
    assert_eq!(body["prefersBorder"], true);
    let sandbox = body["sandboxUrl"].as_str().unwrap().trim_start_matches("http://").to_string();
    let (sandbox_authority, sandbox_path) = sandbox.split_once('/').unwrap();
    assert_ne!(sandbox_authority, authority, "the sandbox has another origin");
    let page = get(sandbox_authority, &format!("/{sandbox_path}"), sandbox_authority);
    let csp = page.lines().find(|l| l.starts_with("Content-Security-Policy:")).unwrap_or_default();
    assert!(csp.contains("connect-src https://api.example.com;"), "{csp}");
    assert!(csp.contains("frame-src 'none'") && csp.contains("object-src 'none'"), "{csp}");
}

fn lint_json(server: &[String]) -> (Option<i32>, Value) {
    let mut args = vec!["lint", "--json", "--"];
    args.extend(server.iter().map(String::as_str));
    let o = mcplens(&args);
    (o.status.code(), json_out(&o))
}

#[test]
fn lint_finds_nothing_in_the_official_example_and_each_view_rule_on_its_case() {
    let (code, r) = lint_json(&vanillajs());
    assert_eq!(code, Some(0), "{r:#}");
    assert_eq!(r["findings"].as_array().map(Vec::len), Some(0), "{r:#}");
    let (code, r) = lint_json(&apps_server());
    assert_eq!(code, Some(8), "{r:#}");
    let got: Vec<String> = r["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap_or(""), f["tool"].as_str().unwrap_or("-")))
        .collect();
    for want in [
        "apps/view-missing broken_view",
        "apps/view-mime plain_view",
        "apps/csp-origin plain_view",
        "apps/permissions plain_view",
    ] {
        assert!(got.iter().any(|g| g == want), "{want} missing from {got:#?}");
    }
    assert!(!got.iter().any(|g| g.ends_with(" dashboard")), "the good view has no finding: {got:#?}");
}

#[test]
fn a_tool_without_a_view_is_a_usage_error_naming_those_with_one() {
    let mut args = vec!["app", "--no-open", "secret", "--"];
    let server = apps_server();
    args.extend(server.iter().map(String::as_str));
    let o = mcplens(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("tools with one: dashboard, broken_view, plain_view"), "{}", stderr(&o));
}
