//! `mcplens watch`: the running proxies, or one proxy's session as it happens (JSON Lines on
//! stdout, the log export's format), with breakpoints driven from stdin.

use std::collections::{BTreeSet, VecDeque};
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

/// The holds as this watcher knows them. A command without a number is for the oldest hold no
/// command was given for yet, and waits for one when none is held (commands may be typed, or
/// piped, ahead of the messages). It also waits until the proxy has answered the commands
/// before it: a refused command gives its hold back, and the next command is for that hold.
#[derive(Default)]
struct Holds {
    state: Mutex<HoldState>,
    changed: Notify,
}

#[derive(Default)]
struct HoldState {
    /// Held, no command given for them yet.
    waiting: BTreeSet<u64>,
    /// Held, a command given for them: they leave when released, or go back to `waiting` when
    /// the proxy refuses the command.
    commanded: BTreeSet<u64>,
    /// The commands sent and not answered yet, oldest first: the hold each was given for.
    unanswered: VecDeque<Option<u64>>,
}

type Pending = Arc<Holds>;

impl Holds {
    fn lock(&self) -> std::sync::MutexGuard<'_, HoldState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn held(&self, hold: u64) {
        let mut s = self.lock();
        if !s.commanded.contains(&hold) {
            s.waiting.insert(hold);
        }
        drop(s);
        self.changed.notify_waiters();
    }

    fn released(&self, hold: u64) {
        let mut s = self.lock();
        s.waiting.remove(&hold);
        s.commanded.remove(&hold);
    }

    /// A command is sent for `hold` (None: for no hold).
    fn sent(&self, hold: Option<u64>) {
        let mut s = self.lock();
        let claimed = hold.filter(|h| s.waiting.remove(h));
        if let Some(h) = claimed {
            s.commanded.insert(h);
        }
        s.unanswered.push_back(claimed);
    }

    /// The proxy answered the oldest command sent; a refused one gives its hold back.
    fn answered(&self, refused: bool) {
        let mut s = self.lock();
        if let Some(Some(h)) = s.unanswered.pop_front()
            && refused
            && s.commanded.remove(&h)
        {
            s.waiting.insert(h);
        }
        drop(s);
        self.changed.notify_waiters();
    }

    /// The oldest hold no command was given for, once every command sent is answered.
    async fn next(&self) -> u64 {
        loop {
            let notified = self.changed.notified();
            {
                let s = self.lock();
                if s.unanswered.is_empty()
                    && let Some(h) = s.waiting.first()
                {
                    return *h;
                }
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
    let pending: Pending = Arc::default();
    for b in breaks {
        send(&mut write, &break_command(b).map_err(LensError::usage)?).await?;
        pending.sent(None);
    }
    // Without breakpoints stdin is not read (a watcher in the background would be stopped by
    // the terminal for reading it); the writing side is kept open but unused.
    let _idle = if breaks.is_empty() {
        err_line("mcplens watch: only watching: commands are read from stdin when watch is given --break");
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

/// What a breakpoint looks like, for one that is not.
pub const BREAK_SHAPE: &str = "a breakpoint is a method or a tool name, after > for messages to the server only or < \
                               for those to the host only: tools/call, >echo, <sampling/createMessage";

/// `tools/call` (both ways), `>tools/call` (to the server only), `<tools/call` (to the host).
pub fn break_command(spec: &str) -> std::result::Result<Value, String> {
    let spec = spec.trim();
    let (direction, pattern) = match spec.as_bytes().first() {
        Some(b'>') => ("to_server", &spec[1..]),
        Some(b'<') => ("to_host", &spec[1..]),
        _ => ("both", spec),
    };
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return Err(format!("{spec:?} names nothing: {BREAK_SHAPE}"));
    }
    Ok(json!({"break": pattern, "direction": direction}))
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
            pending.held(hold);
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
            pending.released(hold);
            let how = v.get("as").and_then(Value::as_str).unwrap_or("?");
            err_line(&format!("released {hold}: {how}"));
        }
        "ok" => {
            pending.answered(false);
            err_line(&format!("mcplens watch: {}", sanitize::line(v.get("did").and_then(Value::as_str).unwrap_or(""))))
        }
        "refused" => {
            pending.answered(true);
            err_line(&format!("refused: {}", sanitize::line(v.get("why").and_then(Value::as_str).unwrap_or(""))))
        }
        "detached" => err_line("mcplens watch: detached by the proxy: this watcher fell too far behind"),
        _ => {}
    }
}

/// Which hold a command typed on stdin is for.
#[derive(Debug, PartialEq)]
enum For {
    /// The oldest held message no command was given for.
    Oldest,
    Hold(u64),
    /// None (a breakpoint), or as the command itself says (a JSON object typed as is).
    Itself,
}

/// Reads verdicts from stdin: `send`, `drop`, `edit {JSON}`, `error [CODE] [TEXT]`, `delay MS`,
/// `break X`, `unbreak X`, each optionally after a hold's number; a JSON object is sent as is.
/// A line that does not parse is said so at once and takes no hold.
async fn commands_from_stdin(mut w: OwnedWriteHalf, pending: Pending) {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let (target, mut command) = match parse_command(line.trim()) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(why) => {
                err_line(&format!("mcplens watch: {}", sanitize::line(&why)));
                continue;
            }
        };
        let hold = match target {
            For::Oldest => Some(pending.next().await),
            For::Hold(n) => Some(n),
            For::Itself => command.get("release").and_then(Value::as_u64),
        };
        if target != For::Itself
            && let (Some(h), Some(o)) = (hold, command.as_object_mut())
        {
            o.insert("release".into(), h.into());
        }
        pending.sent(hold);
        if send(&mut w, &command).await.is_err() {
            return;
        }
    }
    // Stdin closed: the breakpoints go, what is held is sent on as it came.
    err_line("mcplens watch: stdin closed; breakpoints removed, held messages sent on");
    let _ = w.shutdown().await;
}

/// A typed line as a control command (its hold filled in later), or why it is not one.
fn parse_command(line: &str) -> std::result::Result<Option<(For, Value)>, String> {
    if line.is_empty() {
        return Ok(None);
    }
    if line.starts_with('{') {
        let v = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        return Ok(Some((For::Itself, v)));
    }
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    match word {
        "break" => return Ok(Some((For::Itself, break_command(rest)?))),
        "unbreak" => return Ok(Some((For::Itself, json!({"unbreak": unbreak_pattern(rest)?})))),
        _ => {}
    }
    let (target, word, rest) = match word.parse::<u64>() {
        Ok(n) => {
            let (w, r) = rest.trim_start().split_once(' ').unwrap_or((rest.trim(), ""));
            (For::Hold(n), w, r)
        }
        Err(_) => (For::Oldest, word, rest),
    };
    Ok(Some((target, release_command(word, rest.trim())?)))
}

/// A breakpoint is removed by its name, whichever way it looks.
fn unbreak_pattern(spec: &str) -> std::result::Result<String, String> {
    let pattern = spec.trim().trim_start_matches(['>', '<']).trim();
    if pattern.is_empty() {
        return Err(format!("unbreak names nothing: {BREAK_SHAPE}"));
    }
    Ok(pattern.to_string())
}

/// What becomes of a hold, as typed (`send`, `edit {...}`, ...), without the hold's number.
fn release_command(word: &str, rest: &str) -> std::result::Result<Value, String> {
    Ok(match word {
        "send" | "s" => json!({"action": "send"}),
        "drop" | "d" => json!({"action": "drop"}),
        "edit" | "e" => {
            let message: Value = serde_json::from_str(rest).map_err(|e| format!("the edit is not JSON: {e}"))?;
            json!({"action": "edit", "message": message})
        }
        "error" => {
            let (code, text) = match rest.split_once(' ').unwrap_or((rest, "")) {
                (c, t) if c.parse::<i64>().is_ok() => (c.parse::<i64>().unwrap_or(-32000), t),
                _ => (-32000, rest),
            };
            let text = if text.is_empty() { "refused at a breakpoint" } else { text };
            json!({"action": "error", "code": code, "text": text})
        }
        "delay" => {
            let ms: u64 = rest.parse().map_err(|_| "delay takes milliseconds")?;
            json!({"action": "delay", "ms": ms})
        }
        other => return Err(format!("{other:?}: expected send, drop, edit, error, delay, break or unbreak")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_a_person_types_them() {
        assert_eq!(parse_command("send"), Ok(Some((For::Oldest, json!({"action": "send"})))));
        assert_eq!(parse_command("7 drop"), Ok(Some((For::Hold(7), json!({"action": "drop"})))));
        assert_eq!(
            parse_command("error -32001 too slow"),
            Ok(Some((For::Oldest, json!({"action": "error", "code": -32001, "text": "too slow"}))))
        );
        assert_eq!(
            parse_command("edit {\"a\":1}"),
            Ok(Some((For::Oldest, json!({"action": "edit", "message": {"a": 1}}))))
        );
        assert!(parse_command("edit {oops").is_err());
        assert_eq!(
            parse_command("break <tools/call"),
            Ok(Some((For::Itself, json!({"break": "tools/call", "direction": "to_host"}))))
        );
        assert_eq!(parse_command("unbreak >echo"), Ok(Some((For::Itself, json!({"unbreak": "echo"})))));
        assert!(parse_command("break").is_err() && parse_command("break >").is_err());
    }

    #[tokio::test]
    async fn a_refused_command_gives_its_hold_back() {
        let holds = Holds::default();
        holds.held(1);
        holds.held(2);
        assert_eq!(holds.next().await, 1);
        holds.sent(Some(1));
        holds.answered(true);
        assert_eq!(holds.next().await, 1, "refused: still the oldest held");
        holds.sent(Some(1));
        holds.answered(false);
        assert_eq!(holds.next().await, 2, "sent: the next command is for the next hold");
        // The release said before the answer: the hold is not given back.
        holds.sent(Some(2));
        holds.released(2);
        holds.answered(true);
        assert!(holds.lock().waiting.is_empty());
    }
}
