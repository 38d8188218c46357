//! `mcplens watch`: the running proxies, or one proxy's session as it happens (JSON Lines on
//! stdout, the log export's format), with breakpoints driven from stdin.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::Notify;

use super::{err_line, out};
use crate::error::{LensError, Result};
use crate::proxy::control;
use crate::sanitize;

/// Holds waiting for a verdict, oldest first: a command without a number is for the oldest, and
/// waits for one when none is held (commands may be typed, or piped, ahead of the messages).
#[derive(Default)]
struct Holds {
    waiting: Mutex<VecDeque<u64>>,
    changed: Notify,
}

type Pending = Arc<Holds>;

impl Holds {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<u64>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The oldest hold no command was given for yet (waiting for one).
    async fn next(&self) -> u64 {
        loop {
            let notified = self.changed.notified();
            if let Some(h) = self.lock().pop_front() {
                return h;
            }
            notified.await;
        }
    }
}

/// `mcplens watch [PID] [--break METHOD|TOOL]...`
pub async fn watch(pid: Option<u32>, breaks: &[String]) -> Result<i32> {
    match pid {
        None => list().await,
        Some(pid) => attach(pid, breaks).await,
    }
}

/// Refuses a proxies' directory or socket another user could have put there.
fn trusted(path: &std::path::Path) -> Result<()> {
    control::check_socket(path)
        .map_err(|e| LensError::usage(format!("not watching: {}", sanitize::line(&e.to_string()))))
}

async fn list() -> Result<i32> {
    if let Some(dir) = control::dir() {
        trusted(&dir.join("x"))?;
    }
    let running = control::running().await;
    if running.is_empty() {
        out("no proxy is running (start one with `mcplens proxy -- <server>`)\n")?;
    }
    for (pid, _, hello) in running {
        let target = hello.get("target").and_then(Value::as_str).unwrap_or("?");
        out(&format!("{pid}\t{}\n", sanitize::line(target)))?;
    }
    Ok(0)
}

async fn attach(pid: u32, breaks: &[String]) -> Result<i32> {
    let path = control::socket_of(pid)
        .ok_or_else(|| LensError::usage("no state directory (set HOME or MCPLENS_STATE_DIR)"))?;
    trusted(&path)?;
    let conn = UnixStream::connect(&path).await.map_err(|e| {
        LensError::connection(format!("no proxy with pid {pid} answers ({e}); `mcplens watch` lists the running ones"))
    })?;
    let (read, mut write) = conn.into_split();
    for b in breaks {
        send(&mut write, &break_command(b)).await?;
    }
    let pending: Pending = Arc::default();
    // Without breakpoints the writing side is kept open but unused (closing it gives them up).
    let _idle = if breaks.is_empty() {
        Some(write)
    } else {
        tokio::spawn(commands_from_stdin(write, pending.clone()));
        None
    };
    let mut lines = BufReader::new(read).lines();
    let mut attached = false;
    while let Ok(Some(line)) = lines.next_line().await {
        match serde_json::from_str::<Value>(&line) {
            Ok(v) if !attached => attached = hello(&v, pid)?,
            Ok(v) if v.get("event").is_some() => event(&v, &pending),
            _ => out(&format!("{}\n", sanitize::json(&line)))?,
        }
    }
    if !attached {
        return Err(LensError::connection(format!("the proxy with pid {pid} closed the connection without a hello")));
    }
    err_line("mcplens watch: the proxy ended");
    Ok(0)
}

/// The proxy's first line: its hello (said on stderr), or why it will not be watched.
fn hello(v: &Value, pid: u32) -> Result<bool> {
    match v.get("event").and_then(Value::as_str) {
        Some("hello") => {
            event(v, &Pending::default());
            Ok(true)
        }
        Some("refused") => {
            let why = v.get("why").and_then(Value::as_str).unwrap_or("no reason given");
            Err(LensError::connection(format!(
                "the proxy with pid {pid} refused this watcher: {}",
                sanitize::line(why)
            )))
        }
        _ => Err(LensError::connection(format!("pid {pid}'s socket did not answer as a proxy does"))),
    }
}

/// `tools/call` (both ways), `>tools/call` (to the server only), `<tools/call` (to the host).
fn break_command(spec: &str) -> Value {
    let (direction, pattern) = match spec.as_bytes().first() {
        Some(b'>') => ("to_server", &spec[1..]),
        Some(b'<') => ("to_host", &spec[1..]),
        _ => ("both", spec),
    };
    json!({"break": pattern, "direction": direction})
}

async fn send(w: &mut OwnedWriteHalf, command: &Value) -> Result<()> {
    let line = format!("{command}\n");
    w.write_all(line.as_bytes()).await.map_err(|e| LensError::connection(format!("the proxy went away: {e}")))
}

/// Says an event of the proxy on stderr (the messages themselves go to stdout).
fn event(v: &Value, pending: &Pending) {
    let hold = v.get("hold").and_then(Value::as_u64).unwrap_or(0);
    match v.get("event").and_then(Value::as_str).unwrap_or("") {
        "hello" => {
            let target = v.get("target").and_then(Value::as_str).unwrap_or("?");
            let missed = v.get("missed").and_then(Value::as_u64).unwrap_or(0);
            let gap = if missed > 0 { format!(" ({missed} earliest messages no longer kept)") } else { String::new() };
            err_line(&format!("mcplens watch: attached to {}{gap}", sanitize::line(target)));
        }
        "held" => {
            pending.lock().push_back(hold);
            pending.changed.notify_waiters();
            let line = v.get("line").and_then(Value::as_str).unwrap_or("");
            let whole = serde_json::from_str::<Value>(line)
                .ok()
                .and_then(|m| serde_json::to_string_pretty(&m).ok())
                .unwrap_or_else(|| line.to_string());
            let dir = v.get("direction").and_then(Value::as_str).unwrap_or("?");
            err_line(&format!("held {hold} ({dir}):\n{}", sanitize::text(&whole)));
            err_line("  send | drop | edit JSON | error [CODE] [TEXT] | delay MS   (a number first picks a hold)");
        }
        "released" => {
            pending.lock().retain(|h| *h != hold);
            let how = v.get("as").and_then(Value::as_str).unwrap_or("?");
            err_line(&format!("released {hold}: {how}"));
        }
        "ok" => {
            err_line(&format!("mcplens watch: {}", sanitize::line(v.get("did").and_then(Value::as_str).unwrap_or(""))))
        }
        "refused" => {
            err_line(&format!("refused: {}", sanitize::line(v.get("why").and_then(Value::as_str).unwrap_or(""))))
        }
        "detached" => err_line("mcplens watch: detached by the proxy: this watcher fell too far behind"),
        _ => {}
    }
}

/// Reads verdicts from stdin: `send`, `drop`, `edit {JSON}`, `error [CODE] [TEXT]`, `delay MS`,
/// `break X`, `unbreak X`, each optionally after a hold's number; a JSON object is sent as is.
async fn commands_from_stdin(mut w: OwnedWriteHalf, pending: Pending) {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line = line.trim();
        let needs_hold =
            !line.is_empty() && !line.starts_with('{') && !line.starts_with("break") && !line.starts_with("unbreak");
        let numbered = line.split(' ').next().is_some_and(|w| w.parse::<u64>().is_ok());
        let oldest = if needs_hold && !numbered { Some(pending.next().await) } else { None };
        if numbered && let Some(n) = line.split(' ').next().and_then(|w| w.parse::<u64>().ok()) {
            pending.lock().retain(|h| *h != n);
        }
        match parse_command(line, oldest) {
            Ok(Some(c)) => {
                if send(&mut w, &c).await.is_err() {
                    return;
                }
            }
            Ok(None) => {}
            Err(why) => err_line(&format!("mcplens watch: {}", sanitize::line(&why))),
        }
    }
    // Stdin closed: the breakpoints go, what is held is sent on as it came.
    err_line("mcplens watch: stdin closed; breakpoints removed");
    let _ = w.shutdown().await;
}

fn parse_command(line: &str, oldest: Option<u64>) -> std::result::Result<Option<Value>, String> {
    if line.is_empty() {
        return Ok(None);
    }
    if line.starts_with('{') {
        return serde_json::from_str(line).map(Some).map_err(|e| format!("not JSON: {e}"));
    }
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    if word == "break" || word == "unbreak" {
        let spec = rest.trim();
        return Ok(Some(if word == "break" { break_command(spec) } else { json!({"unbreak": spec}) }));
    }
    let (hold, word, rest) = match word.parse::<u64>() {
        Ok(n) => {
            let (w, r) = rest.trim_start().split_once(' ').unwrap_or((rest.trim(), ""));
            (Some(n), w, r)
        }
        Err(_) => (oldest, word, rest),
    };
    let hold = hold.ok_or("nothing is held")?;
    let rest = rest.trim();
    Ok(Some(match word {
        "send" | "s" => json!({"release": hold, "action": "send"}),
        "drop" | "d" => json!({"release": hold, "action": "drop"}),
        "edit" | "e" => {
            let message: Value = serde_json::from_str(rest).map_err(|e| format!("the edit is not JSON: {e}"))?;
            json!({"release": hold, "action": "edit", "message": message})
        }
        "error" => {
            let (code, text) = match rest.split_once(' ').unwrap_or((rest, "")) {
                (c, t) if c.parse::<i64>().is_ok() => (c.parse::<i64>().unwrap_or(-32000), t),
                _ => (-32000, rest),
            };
            let text = if text.is_empty() { "refused at a breakpoint" } else { text };
            json!({"release": hold, "action": "error", "code": code, "text": text})
        }
        "delay" => {
            let ms: u64 = rest.parse().map_err(|_| "delay takes milliseconds")?;
            json!({"release": hold, "action": "delay", "ms": ms})
        }
        other => return Err(format!("{other:?}: expected send, drop, edit, error, delay, break or unbreak")),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_a_person_types_them() {
        assert_eq!(parse_command("send", Some(4)), Ok(Some(json!({"release": 4, "action": "send"}))));
        assert_eq!(parse_command("7 drop", Some(4)), Ok(Some(json!({"release": 7, "action": "drop"}))));
        assert_eq!(
            parse_command("error -32001 too slow", Some(1)),
            Ok(Some(json!({"release": 1, "action": "error", "code": -32001, "text": "too slow"})))
        );
        assert_eq!(
            parse_command("edit {\"a\":1}", Some(2)),
            Ok(Some(json!({"release": 2, "action": "edit", "message": {"a": 1}})))
        );
        assert!(parse_command("edit {oops", Some(2)).is_err());
        assert!(parse_command("send", None).is_err());
        assert_eq!(
            parse_command("break <tools/call", None),
            Ok(Some(json!({"break": "tools/call", "direction": "to_host"})))
        );
    }
}
