//! The session core against the demo server: progress, cancellation and timeouts, each of which
//! must tell the server with notifications/cancelled.

mod common;

use std::time::Duration;

use mcplens::error::ErrorKind;
use mcplens::mcp::log::LogKind;
use mcplens::mcp::{CallOptions, Cancel, ConnectOptions, Session};
use serde_json::json;

fn args(v: serde_json::Value) -> Option<serde_json::Map<String, serde_json::Value>> {
    v.as_object().cloned()
}

fn sent_cancel(s: &Session) -> bool {
    s.log().entries().iter().any(|e| e.kind == LogKind::Sent && e.text.contains("notifications/cancelled"))
}

#[tokio::test]
async fn progress_arrives_for_its_call() {
    let s = Session::connect(&common::demo(), ConnectOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
    let mut seen = vec![];
    let r = s
        .call_tool("slow_task", args(json!({"steps": 3, "delay_ms": 20})), &CallOptions::default(), &mut |p| {
            seen.push(p.clone())
        })
        .await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(seen.iter().map(|p| p.progress).collect::<Vec<_>>(), vec![1.0, 2.0, 3.0]);
    assert_eq!(seen[2].message.as_deref(), Some("step 3 of 3"));
    s.close().await;
}

#[tokio::test]
async fn a_cancelled_call_tells_the_server() {
    let s = Session::connect(&common::demo(), ConnectOptions::default()).await.unwrap_or_else(|e| panic!("{e}"));
    let cancel = Cancel::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let opts = CallOptions { timeout: None, cancel: Some(cancel) };
    let started = std::time::Instant::now();
    let r = s.call_tool("slow_task", args(json!({"steps": 100, "delay_ms": 100})), &opts, &mut |_| {}).await;
    assert_eq!(r.err().map(|e| e.kind), Some(ErrorKind::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(sent_cancel(&s), "notifications/cancelled must be sent");
    // The session is still usable.
    let r = s.call_tool("echo", None, &CallOptions::default(), &mut |_| {}).await;
    assert!(r.is_ok());
    s.close().await;
}

#[tokio::test]
async fn a_call_that_never_answers_times_out_with_a_clear_message() {
    let opts = ConnectOptions { timeout: Duration::from_millis(600), ..ConnectOptions::default() };
    let s = Session::connect(&common::demo(), opts).await.unwrap_or_else(|e| panic!("{e}"));
    // One step of 3 s with no progress in between: the 0.6 s timeout fires first.
    let r = s
        .call_tool("slow_task", args(json!({"steps": 1, "delay_ms": 3000})), &CallOptions::default(), &mut |_| {})
        .await;
    let e = r.err().unwrap_or_else(|| panic!("expected a timeout"));
    assert_eq!(e.kind, ErrorKind::Connection);
    assert!(e.message.contains("timed out") && e.message.contains("notifications/cancelled"), "{}", e.message);
    assert!(sent_cancel(&s));
    // Progress resets the timeout: 6 steps of 300 ms each finish despite the 0.6 s timeout.
    let r = s
        .call_tool("slow_task", args(json!({"steps": 6, "delay_ms": 300})), &CallOptions::default(), &mut |_| {})
        .await;
    assert!(r.is_ok(), "progress must reset the timeout: {r:?}");
    s.close().await;
}
