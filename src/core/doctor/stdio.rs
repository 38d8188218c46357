//! The doctor's steps for a server started as a child process: the command found, the process
//! answering (or why not: it exited, with the tail of its stderr), each era's handshake.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

use super::{Step, Verdict, excerpt, handshake, probe_wait};
use crate::mcp::era::DISCOVER_WAIT;
use crate::mcp::stdio::{describe_status, read_bounded_line};
use crate::mcp::{ConnectOptions, StdioTarget};

/// Lines of stderr kept for the report.
const STDERR_TAIL: usize = 12;

/// What one request to a fresh process brought back.
#[derive(Default)]
struct Exchange {
    spawn_error: Option<String>,
    reply: Option<Value>,
    /// Lines on stdout that were not JSON-RPC (logs written to the wrong stream).
    noise: Vec<String>,
    exited: Option<String>,
    stderr: Vec<String>,
}

pub async fn probe(t: &StdioTarget, options: &ConnectOptions) -> Vec<Step> {
    let mut steps = vec![command_step(t)];
    if steps[0].verdict == Verdict::Fail {
        return steps;
    }
    let wait = probe_wait(options);
    let first = exchange(t, &handshake::initialize(), wait, options).await;
    let process = process_step(t, &first, wait);
    let started = process.verdict != Verdict::Fail;
    steps.push(process);
    if !started {
        return steps;
    }
    if let Some(reply) = &first.reply {
        steps.push(handshake::judge_legacy(reply));
    }
    let second = exchange(t, &handshake::discover(), wait.min(DISCOVER_WAIT), options).await;
    let mut modern = handshake::judge_modern(second.reply.as_ref()).sent(handshake::discover());
    if second.reply.is_none()
        && let Some(how) = &second.exited
    {
        modern.detail = format!("the process {how} before answering server/discover");
    }
    steps.push(modern);
    steps
}

fn command_step(t: &StdioTarget) -> Step {
    const TITLE: &str = "command found";
    match crate::mcp::stdio::check_command(t) {
        Ok(()) => Step::new("command", TITLE, Verdict::Pass, format!("{:?} can be started", t.command)),
        Err(e) => {
            let fix = if t.command.contains('/') {
                "check the path (relative paths are taken from --cwd, else from here) and that the file exists"
                    .to_string()
            } else {
                format!("install it, or give its full path; PATH is searched for {:?}", t.command)
            };
            Step::new("command", TITLE, Verdict::Fail, e.message).fix(fix)
        }
    }
}

fn process_step(t: &StdioTarget, x: &Exchange, wait: Duration) -> Step {
    const TITLE: &str = "process started and answered";
    let mut step = if let Some(e) = &x.spawn_error {
        Step::new("process", TITLE, Verdict::Fail, format!("cannot start {:?}: {e}", t.command))
            .fix("check that the file is an executable (its mode, its #! line) and that --cwd exists")
    } else if x.reply.is_some() {
        let verdict = if x.noise.is_empty() { Verdict::Pass } else { Verdict::Warn };
        let mut s = Step::new("process", TITLE, verdict, "the process started and answered initialize on stdout");
        if !x.noise.is_empty() {
            s.detail.push_str(&format!("; {} line(s) on stdout were not JSON-RPC", x.noise.len()));
            s = s.fix("write logs to stderr: stdout carries only JSON-RPC messages, one per line");
        }
        s
    } else if let Some(how) = &x.exited {
        Step::new("process", TITLE, Verdict::Fail, format!("the process {how} before answering initialize"))
            .fix(format!("run it yourself to see why: {} (its stderr is shown above)", shown_command(t)))
    } else {
        Step::new("process", TITLE, Verdict::Fail, format!("no answer to initialize within {:?}", wait))
            .fix("a stdio server reads JSON-RPC from stdin and answers on stdout, one message per line; check that it is not waiting for something else (a TTY, a port, a flag such as `stdio`)")
    };
    step.sent.push(handshake::initialize());
    step.received.extend(x.noise.iter().map(|l| format!("stdout (not JSON-RPC): {l}")));
    step.received.extend(x.stderr.iter().map(|l| format!("stderr: {l}")));
    step
}

fn shown_command(t: &StdioTarget) -> String {
    let mut parts = vec![t.command.clone()];
    parts.extend(t.args.iter().cloned());
    parts.join(" ")
}

/// Starts the server, sends `request` and reads stdout until its reply, the process's end, or
/// `wait`.
async fn exchange(t: &StdioTarget, request: &str, wait: Duration, options: &ConnectOptions) -> Exchange {
    let mut cmd = Command::new(&t.command);
    cmd.args(&t.args)
        .envs(t.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = &t.cwd {
        cmd.current_dir(dir);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Exchange { spawn_error: Some(e.to_string()), ..Exchange::default() },
    };
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let stderr_task = child.stderr.take().map(|e| tokio::spawn(keep_tail(e, tail.clone())));
    // Kept open until the end: some servers exit when stdin closes.
    let mut stdin = child.stdin.take();
    if let Some(pipe) = stdin.as_mut() {
        // A process that died already breaks the pipe: its exit says more than the write error.
        let _ = pipe.write_all(format!("{request}\n").as_bytes()).await;
        let _ = pipe.flush().await;
    }
    let mut x = Exchange::default();
    let _ = tokio::time::timeout(wait, read_reply(&mut child, &mut x, options)).await;
    if x.reply.is_none() {
        x.exited = match tokio::time::timeout(Duration::from_millis(500), child.wait()).await {
            Ok(Ok(status)) => Some(format!("exited ({})", describe_status(&status))),
            _ => None,
        };
    }
    if let Some(task) = stderr_task {
        // The last words of a dying process are the useful ones: give the pipe a moment.
        let _ = tokio::time::timeout(Duration::from_millis(500), task).await;
    }
    let _ = child.start_kill();
    drop(stdin);
    x.stderr = tail.lock().map(|t| t.iter().cloned().collect()).unwrap_or_default();
    x
}

async fn read_reply(child: &mut Child, x: &mut Exchange, options: &ConnectOptions) {
    let Some(stdout) = child.stdout.take() else { return };
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    while let Ok(Some(line)) = read_bounded_line(&mut reader, &mut buf, options.max_message).await {
        let text = String::from_utf8_lossy(&buf);
        if line.is_err() {
            x.noise.push(format!("a line of over {} bytes", options.max_message));
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        match crate::json_depth::parse::<Value>(text.trim(), options.max_depth) {
            Ok(msg) if handshake::is_reply(&msg) => {
                x.reply = Some(msg);
                return;
            }
            Ok(msg) if msg.get("jsonrpc").is_some() => {}
            _ => {
                if x.noise.len() < STDERR_TAIL {
                    x.noise.push(excerpt(&text, 200));
                }
            }
        }
    }
}

async fn keep_tail(stderr: tokio::process::ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    while let Ok(Some(_)) = read_bounded_line(&mut reader, &mut buf, 64 << 10).await {
        let line = excerpt(&String::from_utf8_lossy(&buf), 300);
        if let Ok(mut t) = tail.lock() {
            if t.len() == STDERR_TAIL {
                t.pop_front();
            }
            t.push_back(line);
        }
    }
}
