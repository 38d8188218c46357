//! `mcplens doctor` against HTTP endpoints that break the transport on purpose (fresh
//! adversary, round four): endless or huge headers, bodies that never end, an event stream whose
//! one event never ends, metadata documents too big. Each run ends within its budget with the
//! failing step named, no escape on the screen. Server: tests/servers/hostile_r4_http.py.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Guard, bin, free_port, python, script, stdout};

fn hostile(mode: &str) -> (Guard, String) {
    let port = free_port();
    let mut child = Command::new(python())
        .args([script("hostile_r4_http.py"), mode.to_string(), port.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut ready = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = BufReader::new(out).read_line(&mut ready);
    }
    (Guard(child), format!("http://127.0.0.1:{port}/mcp"))
}

/// doctor with a 5 s probe wait; its report and how long it took.
fn doctor(url: &str) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let o = Command::new(bin())
        .args(["doctor", "--timeout", "5", "--url", url])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (o, started.elapsed())
}

/// Budget: an event stream whose one event never ends (4 MiB read, then given up) is judged in
/// time linear in what was read: well within the two probes' waits (it took 14-22 s when each
/// chunk had every byte before it searched again), exit 3, the eras failing.
#[test]
fn an_endless_event_is_read_once() {
    let (_server, url) = hostile("endless_sse_data");
    let (o, took) = doctor(&url);
    let report = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{report}");
    assert!(report.contains("[FAIL] legacy era (initialize): the answer holds no JSON-RPC reply"), "{report}");
    assert!(took < Duration::from_secs(9), "took {took:?}:\n{report}");
}

/// Budget: endless headers, a 50 MB header, an endless JSON body, endless metadata documents:
/// each ends in 9 s with exit 3 and a FAIL, nothing of the server's raw control bytes shown.
#[test]
fn endless_heads_and_bodies_end_with_a_failing_step() {
    for mode in ["endless_headers", "huge_header", "endless_body", "huge_meta", "deep_meta"] {
        let (_server, url) = hostile(mode);
        let (o, took) = doctor(&url);
        let report = stdout(&o);
        assert_eq!(o.status.code(), Some(3), "{mode}: {report}");
        assert!(report.contains("[FAIL] "), "{mode}: {report}");
        assert!(took < Duration::from_secs(9), "{mode}: took {took:?}");
        assert!(!report.contains('\u{1b}'), "{mode}: {report}");
    }
}
