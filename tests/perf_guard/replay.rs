//! A stdio MCP server that costs nothing: it answers from recorded results that
//! scripts/bench-shapes.py wrote, so that a benchmark measures the client's work alone. Shared
//! by examples/replay_server (the wall-time bench) and tests/perf_guard.rs (instruction counts).
//!
//! DIR holds `tools.jsonl` (one `tools/list` result a line; cursor "N" asks for line N) and,
//! optionally, `call.json` (the `tools/call` result, one line). Both are read once at start; each
//! answer is the recorded bytes written around the request's id, nothing parsed or built.

use std::io::{BufRead, Write};

use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: String,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
struct Params {
    #[serde(default)]
    cursor: Option<String>,
}

const INITIALIZE: &[u8] =
    br#"{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"replay","version":"0"}}"#;

/// Answers requests on stdin from the recordings in `dir` until stdin closes.
pub fn serve(dir: &std::path::Path) {
    let tools = std::fs::read(dir.join("tools.jsonl")).unwrap_or_default();
    let pages: Vec<&[u8]> = tools.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let call = std::fs::read(dir.join("call.json")).unwrap_or_default();
    let call = call.strip_suffix(b"\n").unwrap_or(&call);
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        let Ok(req) = serde_json::from_str::<Request>(&line) else { continue };
        let Some(id) = req.id else { continue };
        let result: &[u8] = match req.method.as_str() {
            "initialize" => INITIALIZE,
            "tools/list" => {
                let params: Params = req.params.and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default();
                let page = params.cursor.and_then(|c| c.parse::<usize>().ok()).unwrap_or(0);
                pages.get(page).copied().unwrap_or(br#"{"tools":[]}"#)
            }
            "tools/call" if !call.is_empty() => call,
            "ping" => b"{}",
            _ => {
                let _ = writeln!(
                    out,
                    r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32601,"message":"not found"}}}}"#,
                    id.get()
                );
                let _ = out.flush();
                continue;
            }
        };
        let _ = write!(out, r#"{{"jsonrpc":"2.0","id":{},"result":"#, id.get());
        let _ = out.write_all(result);
        let _ = out.write_all(b"}\n");
        let _ = out.flush();
    }
}
