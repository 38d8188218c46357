//! The TUI's peak memory on a big table: the demo server's `generate_records` answers an 8 MB
//! list over stdio, the app shows it (the Envelope view's table), then every other view in turn,
//! a frame drawn for each. The work runs in a child process (this test binary run again) so that
//! its peak resident size (`VmHWM`) is its own; the peak over what the process held once connected
//! must stay within twice the reply plus a fixed few MB.

mod common;

use std::sync::Arc;

use crossterm::event::KeyCode;
use mcplens::ui::app::Cmd;
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;
use serde_json::json;

/// About 80 bytes a record: ~8 MB.
const RECORDS: u64 = 105_000;
/// What may come on top of twice the reply: allocator slack, the frame buffers, one record's tree.
const FIXED_MB: f64 = 6.0;
const CHILD: &str = "MCPLENS_MEMORY_CHILD";
/// Set, the records come as JSON in a text block (the figures are printed; the bound is the
/// structured table's).
const AS_TEXT: &str = "MCPLENS_MEMORY_AS_TEXT";

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse().ok()).unwrap_or(0)
}

/// Resets `VmHWM` to the current resident size (Linux 4.0+).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The child's work: connect, show the table, every view, and print the figures.
#[test]
fn child_shows_a_big_table() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let (mut app, session) =
            connected_app(&common::demo(), Theme::default(), "demo").await.unwrap_or_else(|e| panic!("{e}"));
        let session = Arc::new(session);
        let mut screen = Screen::new(120, 40);
        screen.render(&mut app);
        let base = status_kb("VmRSS:");
        let t0 = std::time::Instant::now();
        reset_peak();
        let call = Cmd::Call {
            tool: "generate_records".into(),
            arguments: json!({"count": RECORDS, "as_text": std::env::var_os(AS_TEXT).is_some()}),
            descriptor: None,
            purpose: mcplens::call::Purpose::New,
        };
        execute(&mut app, &session, vec![call]).await;
        screen.render(&mut app);
        let reply = app.result().and_then(|r| r.call.reply.as_ref()).map_or(0, |r| r.raw.len());
        let table = status_kb("VmHWM:");
        eprintln!("{:.1?} table shown: rss {} kB, peak {table} kB", t0.elapsed(), status_kb("VmRSS:"));
        for _ in 0..4 {
            screen.press(&mut app, KeyCode::Char('v'));
            screen.render(&mut app);
            let name = app.result().map_or("", |r| r.view.name());
            eprintln!("{:.1?} {name}: rss {} kB, peak {} kB", t0.elapsed(), status_kb("VmRSS:"), status_kb("VmHWM:"));
        }
        println!("figures: base_kb={base} reply_bytes={reply} table_peak_kb={table} peak_kb={}", status_kb("VmHWM:"));
    });
}

fn figure(out: &str, name: &str) -> f64 {
    out.split_whitespace()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in the child's output:\n{out}"))
}

#[test]
fn peak_memory_on_an_8mb_table_stays_within_twice_the_reply() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("{e}"));
    let out = std::process::Command::new(exe)
        .args(["child_shows_a_big_table", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the child failed:\n{text}");
    let mb = |kb: f64| kb / 1024.0;
    let reply = figure(&text, "reply_bytes") / (1 << 20) as f64;
    let over_table = mb(figure(&text, "table_peak_kb") - figure(&text, "base_kb"));
    let over = mb(figure(&text, "peak_kb") - figure(&text, "base_kb"));
    println!("{text}");
    println!("reply {reply:.1} MB; peak over the connected app: table {over_table:.1} MB, every view {over:.1} MB");
    assert!(reply > 7.0, "the reply is {reply:.1} MB, not the 8 MB table meant");
    let bound = 2.0 * reply + FIXED_MB;
    if std::env::var_os(AS_TEXT).is_some() {
        return;
    }
    assert!(over <= bound, "peak {over:.1} MB over the connected app, more than 2 × {reply:.1} + {FIXED_MB} MB");
}
