//! The recorded replies of scripts/bench-shapes.py (the ones scripts/bench-compare serves), read
//! as mcplens reads them: each `tools/list` page into descriptors and the `--json` listing, each
//! `tools/call` reply into its envelope. The bytes come from files, the same on every machine;
//! what is timed is the client's work alone, with no process, pipe or server around it.
//!
//! `cargo bench` reads the full-size replies from target/bench-shapes (written once, shared with
//! scripts/bench-compare); under `cargo test` a hundredth of each, in target/bench-shapes-0.01.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use criterion::Criterion;
use mcplens::envelope::normalize_reply;
use mcplens::mcp::{Reply, ToolDescriptor};
use serde_json::value::RawValue;

const LISTINGS: &[&str] = &["tools", "tools20k"];
const CALLS: &[&str] = &["structured", "both", "text", "fastmcp"];

/// The directory of the recorded replies at the size this run wants, written when missing.
fn recorded(full: bool) -> Option<PathBuf> {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let (dir, scale) =
        if full { (target.join("bench-shapes"), "1") } else { (target.join("bench-shapes-0.01"), "0.01") };
    if dir.join(".done").exists() {
        return Some(dir);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-shapes.py");
    let _ = std::fs::remove_dir_all(&dir);
    let status = std::process::Command::new("python3").arg(script).arg(&dir).arg(scale).status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("bench shapes: python3 scripts/bench-shapes.py failed; the recorded shapes are left out");
        return None;
    }
    std::fs::write(dir.join(".done"), "").ok()?;
    Some(dir)
}

#[derive(serde::Deserialize)]
struct Page<'a> {
    #[serde(borrow)]
    tools: Vec<&'a RawValue>,
}

/// Every page read into descriptors, and the listing `tools --json` writes.
fn list(pages: &[String]) -> usize {
    let mut out = String::from("[");
    let mut kept = Vec::new();
    for page in pages {
        let Ok(page) = serde_json::from_str::<Page>(page) else { continue };
        for raw in page.tools {
            let tool = ToolDescriptor::from_raw(raw, 1000);
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&mcplens::sanitize::json(tool.raw.get()));
            kept.push(tool);
        }
    }
    out.push(']');
    black_box(kept.len() + out.len())
}

/// `{"jsonrpc": ..., "result": <call.json>}`: the message as the server writes it.
fn call_message(dir: &Path) -> Option<Arc<String>> {
    let result = std::fs::read_to_string(dir.join("call.json")).ok()?;
    Some(Arc::new(format!(r#"{{"jsonrpc":"2.0","id":2,"result":{}}}"#, result.trim_end())))
}

pub fn bench_shapes(c: &mut Criterion, full: bool) {
    let Some(dir) = recorded(full) else { return };
    let mut g = c.benchmark_group("shapes");
    g.sample_size(10);
    for shape in LISTINGS {
        let text = std::fs::read_to_string(dir.join(shape).join("tools.jsonl")).unwrap_or_default();
        let pages: Vec<String> = text.lines().map(str::to_string).collect();
        g.bench_function(format!("list_{shape}"), |b| b.iter(|| list(&pages)));
    }
    for shape in CALLS {
        let Some(message) = call_message(&dir.join(shape)) else { continue };
        g.bench_function(format!("call_{shape}"), |b| {
            b.iter(|| {
                let reply = Reply::parse(message.clone(), Duration::ZERO, 1000).expect("the recorded reply reads");
                black_box(normalize_reply("echo", None, reply.body, reply.elisions))
            })
        });
    }
    g.finish();
}
