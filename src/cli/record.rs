//! `mcplens record`: a stdio proxy between any client and a server, keeping every message both
//! ways in the log export's JSON Lines (so `mcplens replay` serves it, and the TUI's export
//! replays too). The bytes pass as they are; only the file has the target's secrets masked.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

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

impl Recorder {
    /// Appends one message and flushes it (a killed proxy keeps what it saw).
    fn note(&self, kind: LogKind, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let seq = wire::log_line(&self.log, kind, text.trim_end());
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

/// `mcplens record -o FILE -- <server>` (without a server: the embedded demo server)
pub async fn record(path: &Path, target: &TargetArgs) -> Result<i32> {
    let Target::Stdio(server) = target.target()? else {
        return Err(LensError::usage(
            "record proxies a server started as a command (-- <command>); --url is not yet supported",
        ));
    };
    let file = File::create(path)
        .map_err(|e| LensError::usage(format!("cannot write {}: {e}", sanitize::line(&path.display().to_string()))))?;
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
    let up = tokio::spawn(pass(tokio::io::stdin(), to_server, rec.clone(), LogKind::Sent));
    let down = pass(from_server, tokio::io::stdout(), rec.clone(), LogKind::Received).await;
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
        _ => Ok(0),
    }
}

/// Copies lines from `from` to `to` byte for byte, noting each in the recording. Ends at `from`'s
/// end (closing `to`), or with the error of a write.
async fn pass<R, W>(from: R, mut to: W, rec: Arc<Recorder>, kind: LogKind) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        // A read error is the end of that side, as an end of file is.
        if from.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            let _ = to.shutdown().await;
            return Ok(());
        }
        // Noted first: a client that has its answer may stop the proxy at once.
        if !line.iter().all(u8::is_ascii_whitespace) {
            rec.note(kind, &line);
        }
        to.write_all(&line).await?;
        to.flush().await?;
    }
}
