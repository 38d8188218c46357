//! `mcplens record`: a stdio proxy between any client and a server, keeping every message both
//! ways in the log export's JSON Lines (so `mcplens replay` serves it, and the TUI's export
//! replays too). The bytes pass as they are; only the file has the target's secrets masked.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use super::{TargetArgs, err_line, output};
use crate::error::{LensError, Result};
use crate::mcp::log::{LogKind, LogLimits, Redactor, SessionLog, to_json_lines};
use crate::mcp::{Target, wire};
use crate::sanitize;

/// The recording file and the log that pairs replies with requests (it keeps only the last few
/// entries: the file has them all).
struct Recorder {
    log: SessionLog,
    file: Mutex<File>,
    failed: std::sync::atomic::AtomicBool,
}

/// How much of a line longer than `--max-message-mb` the recording keeps (it is passed on whole).
const CUT_PREVIEW: usize = 4096;

impl Recorder {
    /// Appends one message to the file.
    fn note(&self, kind: LogKind, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let seq = wire::log_line(&self.log, kind, text.trim_end());
        self.write(seq);
    }

    /// Notes a line too long to hold: its beginning (secrets masked a little past the cut, so one
    /// across it is not half kept) and its length. A replay skips it as a preview.
    fn note_cut(&self, kind: LogKind, start: &[u8], total: u64) {
        let text = String::from_utf8_lossy(start);
        let redactor = self.log.redactor();
        let window = floor_boundary(&text, CUT_PREVIEW.saturating_add(redactor.max_span()));
        let redacted = redactor.redact(&text[..window]);
        let cut = floor_boundary(&redacted, CUT_PREVIEW);
        let note = format!(
            "{}… ({total} bytes in all: longer than --max-message-mb, passed on but not recorded)",
            &redacted[..cut]
        );
        self.log.push(kind, &note);
        self.write(self.log.pushed().saturating_sub(1));
    }

    /// Appends the log entry `seq` to the file and flushes it (a killed proxy keeps what it saw).
    fn write(&self, seq: u64) {
        let Some(entry) = self.log.get(seq) else { return };
        let json = to_json_lines(&self.log, &[entry]);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = file.write_all(json.as_bytes()).and_then(|()| file.flush())
            && !self.failed.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            err_line(&format!("mcplens record: cannot write the recording: {e}"));
        }
    }
}

/// The largest index up to `at` that is a character boundary of `s`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `mcplens record -o FILE -- <server>` (without a server: the embedded demo server)
pub async fn record(path: &Path, target: &TargetArgs) -> Result<i32> {
    let Target::Stdio(server) = target.target()? else {
        return Err(LensError::usage(
            "record proxies a server started as a command (-- <command>); --url is not yet supported",
        ));
    };
    let file = File::create(path)
        .map_err(|e| LensError::output(format!("cannot write {}: {e}", sanitize::line(&path.display().to_string()))))?;
    let limits = LogLimits { max_entries: 64, max_bytes: usize::MAX, max_entry_bytes: usize::MAX };
    let log = SessionLog::new(limits, Redactor::new(Target::Stdio(server.clone()).secrets()));
    let rec = Arc::new(Recorder { log, file: Mutex::new(file), failed: false.into() });

    let mut command = tokio::process::Command::new(&server.command);
    command.args(&server.args).envs(server.env.iter().cloned());
    if let Some(cwd) = &server.cwd {
        command.current_dir(cwd);
    }
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).kill_on_drop(true);
    let mut child = command.spawn().map_err(|e| {
        let what = format!("cannot start {}: {e}", sanitize::line(&server.command));
        if e.kind() == std::io::ErrorKind::NotFound { LensError::usage(what) } else { LensError::connection(what) }
    })?;
    let (Some(to_server), Some(from_server)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(LensError::connection("the server's stdin or stdout could not be opened"));
    };
    let max_line = target.max_message_mb.saturating_mul(1 << 20);
    let up = tokio::spawn(pass(tokio::io::stdin(), to_server, rec.clone(), LogKind::Sent, max_line));
    let down = tokio::select! {
        down = pass(from_server, tokio::io::stdout(), rec.clone(), LogKind::Received, max_line) => down,
        code = stop_requested() => {
            // A client stopping its server (SIGTERM after closing stdin, as MCP has it) stops
            // the real one: it would be left running, unseen, after the proxy.
            up.abort();
            let _ = child.kill().await;
            return Ok(code);
        }
    };
    up.abort();
    // The server closed its stdout: it is ending (or our client went away and we stop it).
    let status = match down {
        Ok(()) => child.wait().await.ok(),
        Err(_) => {
            let _ = child.kill().await;
            None
        }
    };
    if let Err(e) = down {
        return output::stdout_result(Err(e));
    }
    match status {
        Some(s) if !s.success() => {
            err_line(&format!("mcplens record: the server exited ({s})"));
            Ok(3)
        }
        // The session went through, the recording did not (said when the first write failed).
        _ if rec.failed.load(std::sync::atomic::Ordering::Relaxed) => Ok(output::EXIT_WRITE_FAILED),
        _ => Ok(0),
    }
}

/// Waits for SIGTERM or SIGINT; the exit code a shell gives a process they end (143, 130).
async fn stop_requested() -> i32 {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
            (Ok(mut term), Ok(mut int)) => tokio::select! {
                _ = term.recv() => 143,
                _ = int.recv() => 130,
            },
            _ => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        130
    }
}

/// Copies lines from `from` to `to` byte for byte, noting each in the recording. A line longer
/// than `max_line` is passed on as it comes, only its beginning noted (an endless line must not
/// be held). Ends at `from`'s end (closing `to`), or with the error of a write.
async fn pass<R, W>(from: R, mut to: W, rec: Arc<Recorder>, kind: LogKind, max_line: usize) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    let limit = u64::try_from(max_line).unwrap_or(u64::MAX).saturating_add(1);
    loop {
        line.clear();
        // A read error is the end of that side, as an end of file is.
        if (&mut from).take(limit).read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            let _ = to.shutdown().await;
            return Ok(());
        }
        if line.len() > max_line && !line.ends_with(b"\n") {
            to.write_all(&line).await?;
            let rest = pass_rest_of_line(&mut from, &mut to).await?;
            rec.note_cut(kind, &line, (line.len() as u64).saturating_add(rest));
            to.flush().await?;
            continue;
        }
        // Noted first: a client that has its answer may stop the proxy at once.
        if !line.iter().all(u8::is_ascii_whitespace) {
            rec.note(kind, &line);
        }
        to.write_all(&line).await?;
        to.flush().await?;
    }
}

/// Copies the rest of a line (through its newline, or to the end of `from`) as it comes, holding
/// no more than the reader's buffer; how many bytes it was.
async fn pass_rest_of_line<R, W>(from: &mut BufReader<R>, to: &mut W) -> std::io::Result<u64>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut passed = 0u64;
    loop {
        let Ok(chunk) = from.fill_buf().await else { return Ok(passed) };
        if chunk.is_empty() {
            return Ok(passed);
        }
        let (n, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        to.write_all(&chunk[..n]).await?;
        from.consume(n);
        passed = passed.saturating_add(n as u64);
        if ended {
            return Ok(passed);
        }
    }
}
