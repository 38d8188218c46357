//! The floor for scripts/bench-compare: a client that only writes JSON-RPC lines to a server's
//! stdin, reads the replies from its stdout, parses each once (serde_json, borrowing) and prints
//! each result as it came: no SDK, no validation, no envelope.
//!
//! Usage: bare_client list -- COMMAND ARGS...
//!        bare_client call TOOL ARGS_JSON -- COMMAND ARGS...

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow, rename = "nextCursor", default)]
    next_cursor: Option<&'a RawValue>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sep = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (mode, server) = (&args[..sep], &args[(sep + 1).min(args.len())..]);
    let Some((program, server_args)) = server.split_first() else {
        eprintln!("usage: bare_client list|call TOOL ARGS -- COMMAND ARGS...");
        std::process::exit(2);
    };
    let mut child = match Command::new(program).args(server_args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot start {program}: {e}");
            std::process::exit(3);
        }
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else { std::process::exit(3) };
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line = String::new();
    let mut next_id = 0u64;
    let mut request = |stdin: &mut std::process::ChildStdin,
                       reader: &mut BufReader<_>,
                       line: &mut String,
                       method: &str,
                       params: &str|
     -> bool {
        next_id += 1;
        let id = next_id.to_string();
        let _ = writeln!(stdin, r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#);
        let _ = stdin.flush();
        loop {
            line.clear();
            if reader.read_line(line).unwrap_or(0) == 0 {
                return false;
            }
            if let Ok(p) = serde_json::from_str::<Probe>(line)
                && p.id.is_some_and(|i| i.get() == id)
            {
                if let Some(r) = p.result {
                    let mut out = std::io::stdout().lock();
                    let _ = out.write_all(r.get().as_bytes());
                    let _ = out.write_all(b"\n");
                }
                return p.result.is_some();
            }
        }
    };
    let init = r#"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bare","version":"0"}}"#;
    if !request(&mut stdin, &mut reader, &mut line, "initialize", init) {
        std::process::exit(3);
    }
    let _ = writeln!(stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#);
    let ok = match mode.first().map(String::as_str) {
        Some("list") => {
            let mut cursor: Option<String> = None;
            loop {
                let params = match &cursor {
                    Some(c) => format!(r#"{{"cursor":{c}}}"#),
                    None => "{}".to_string(),
                };
                if !request(&mut stdin, &mut reader, &mut line, "tools/list", &params) {
                    break false;
                }
                #[derive(Deserialize)]
                struct R<'a> {
                    #[serde(borrow)]
                    result: Page<'a>,
                }
                cursor = serde_json::from_str::<R>(&line)
                    .ok()
                    .and_then(|r| r.result.next_cursor.map(|c| c.get().to_string()))
                    .filter(|c| c != "null");
                if cursor.is_none() {
                    break true;
                }
            }
        }
        Some("call") => {
            let tool = mode.get(1).cloned().unwrap_or_default();
            let arguments = mode.get(2).cloned().unwrap_or_else(|| "{}".into());
            request(
                &mut stdin,
                &mut reader,
                &mut line,
                "tools/call",
                &format!(r#"{{"name":"{tool}","arguments":{arguments}}}"#),
            )
        }
        _ => false,
    };
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    if std::env::var_os("MCPLENS_REPORT_PEAK").is_some() {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if let Some(l) = status.lines().find(|l| l.starts_with("VmHWM:")) {
            eprintln!("mcplens-peak-rss {}", l.trim_start_matches("VmHWM:").trim());
        }
    }
    std::process::exit(if ok { 0 } else { 1 });
}
