//! The TUI's peak memory on a big table: an 8 MB list of records answered over stdio, shown by
//! the app (the Envelope view's table), then every other view in turn, a frame drawn for each.
//! The app runs in a child process (this test binary run again) so that its peak resident size
//! (`VmHWM`) is its own; the server is a third process that only writes the recorded reply
//! (perf_guard/replay.rs), so that the test spends its time on the client. The peak over what
//! the app held once connected must stay within twice the reply plus a fixed few MB.
//!
//! `MCPLENS_MEMORY_AS_TEXT=1 cargo test --test tui_memory -- --nocapture` prints the figures
//! for the same records sent as JSON in a text block instead.

mod common;

#[path = "perf_guard/replay.rs"]
mod replay;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crossterm::event::KeyCode;
use mcplens::mcp::{StdioTarget, Target};
use mcplens::ui::app::Cmd;
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;
use serde_json::json;

/// Records of about 80 bytes: ~8 MB.
const RECORDS: usize = 112_000;
/// What may come on top of twice the reply: allocator slack, the frame buffers, one record's tree.
const FIXED_MB: f64 = 6.0;
/// The child's role: `app` shows the reply, `server` serves it from the directory given.
const ROLE: &str = "MCPLENS_MEMORY_ROLE";
const DIR: &str = "MCPLENS_MEMORY_DIR";
const AS_TEXT: &str = "MCPLENS_MEMORY_AS_TEXT";

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse().ok()).unwrap_or(0)
}

/// Resets `VmHWM` to the current resident size (Linux 4.0+).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The `tools/call` result the server answers: the records in structuredContent (or as JSON
/// text), the shape of the demo server's `generate_records`.
fn write_recording(dir: &Path, as_text: bool) {
    let mut records = String::with_capacity(RECORDS * 90);
    records.push('[');
    for i in 0..RECORDS {
        if i > 0 {
            records.push(',');
        }
        records.push_str(&format!(
            r#"{{"id":{i},"name":"person {i}","score":{},"active":{},"tags":["t{}"]}}"#,
            i * 7 % 1000,
            i % 2 == 0,
            i % 5
        ));
    }
    records.push(']');
    let payload = format!(r#"{{"records":{records},"offset":0,"total":{RECORDS},"hasMore":false}}"#);
    let result = match as_text {
        true => json!({"content": [{"type": "text", "text": payload}]}).to_string(),
        false => {
            format!(r#"{{"content":[{{"type":"text","text":"{RECORDS} records"}}],"structuredContent":{payload}}}"#)
        }
    };
    let written =
        std::fs::write(dir.join("call.json"), result).and_then(|_| std::fs::write(dir.join("tools.jsonl"), ""));
    written.unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
}

fn me() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|e| panic!("{e}"))
}

/// This binary as the server: libtest's own lines on stdout are skipped by the client.
fn server(dir: &Path) -> Target {
    let args = ["child_role", "--exact", "--nocapture", "--quiet"].map(String::from).to_vec();
    let env = vec![(ROLE.into(), "server".into()), (DIR.into(), dir.display().to_string())];
    Target::Stdio(StdioTarget { command: me().display().to_string(), args, env, cwd: None })
}

/// The child's work, by its role.
#[test]
fn child_role() {
    match std::env::var(ROLE).as_deref() {
        Ok("server") => replay::serve(Path::new(&std::env::var(DIR).unwrap_or_default())),
        Ok("app") => show_the_table(Path::new(&std::env::var(DIR).unwrap_or_default())),
        _ => {}
    }
}

/// Connect, show the table, every view, and print the figures.
fn show_the_table(dir: &Path) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let (mut app, session) =
            connected_app(&server(dir), Theme::default(), "replay").await.unwrap_or_else(|e| panic!("{e}"));
        let session = Arc::new(session);
        let mut screen = Screen::new(120, 40);
        screen.render(&mut app);
        let base = status_kb("VmRSS:");
        reset_peak();
        let call = Cmd::Call {
            tool: "records".into(),
            arguments: json!({}),
            descriptor: None,
            purpose: mcplens::call::Purpose::New,
        };
        execute(&mut app, &session, vec![call]).await;
        screen.render(&mut app);
        let reply = app.result().and_then(|r| r.call.reply.as_ref()).map_or(0, |r| r.raw.len());
        let table = status_kb("VmHWM:");
        eprintln!("table: rss {} kB, peak {table} kB (connected: {base} kB)", status_kb("VmRSS:"));
        for _ in 1..mcplens::ui::result::View::all().count() {
            screen.press(&mut app, KeyCode::Char('v'));
            screen.render(&mut app);
            let name = app.result().map_or("", |r| r.view.name());
            eprintln!("{name}: rss {} kB, peak {} kB", status_kb("VmRSS:"), status_kb("VmHWM:"));
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
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    let as_text = std::env::var_os(AS_TEXT).is_some();
    let dir = std::env::temp_dir().join(format!("mcplens-tui-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    write_recording(&dir, as_text);
    let out = std::process::Command::new(me())
        .args(["child_role", "--exact", "--nocapture", "--test-threads=1"])
        .env(ROLE, "app")
        .env(DIR, &dir)
        .env("MCPLENS_STATE_DIR", dir.join("state"))
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the child failed:\n{text}");
    let mb = |kb: f64| kb / 1024.0;
    let reply = figure(&text, "reply_bytes") / (1 << 20) as f64;
    let over_table = mb(figure(&text, "table_peak_kb") - figure(&text, "base_kb"));
    let over = mb(figure(&text, "peak_kb") - figure(&text, "base_kb"));
    println!(
        "{text}reply {reply:.1} MB; peak over the connected app: table {over_table:.1} MB, every view {over:.1} MB"
    );
    assert!(reply > 7.5, "the reply is {reply:.1} MB, not the 8 MB table meant");
    if as_text {
        return;
    }
    let bound = 2.0 * reply + FIXED_MB;
    assert!(over <= bound, "peak {over:.1} MB over the connected app, more than 2 × {reply:.1} + {FIXED_MB} MB");
}
