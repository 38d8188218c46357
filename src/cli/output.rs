//! Every byte the headless commands write to stdout or stderr goes through here: a failed write
//! never panics, secrets the user passed are redacted, and a lost write decides the exit code.
//!
//! A closed pipe (`mcplens tools | head -1`) ends the command quietly with 141, what a shell
//! reports for a program killed by SIGPIPE; any other failed write (a full disk, an I/O error)
//! ends it with 4 and one line on stderr, since the answer did not arrive whole.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::{Mutex, OnceLock};

use crate::error::{LensError, Result};
use crate::mcp::log::Redactor;

/// The reader of stdout or stderr went away (a closed pipe).
pub const EXIT_CLOSED_PIPE: i32 = 141;
/// Output was lost: stdout or stderr could not be written (a full disk, an I/O error).
pub const EXIT_WRITE_FAILED: i32 = 4;

/// The first write that failed, kept to decide the exit code at the end.
#[derive(Debug, Clone, PartialEq)]
enum Failure {
    Closed,
    Failed(String),
}

static FAILURE: Mutex<Option<Failure>> = Mutex::new(None);
static REDACTOR: OnceLock<Redactor> = OnceLock::new();

/// The secrets of the target (env values, header values) to keep off stdout and stderr.
pub fn set_redactor(redactor: Redactor) {
    let _ = REDACTOR.set(redactor);
}

/// `text` with the target's secrets masked (as the log masks them).
pub fn redact(text: &str) -> Cow<'_, str> {
    // With no target's secrets there may still be learned ones (tokens).
    REDACTOR.get_or_init(Redactor::default).redact(text)
}

/// Whether the target has secrets to mask.
pub fn has_secrets() -> bool {
    !REDACTOR.get_or_init(Redactor::default).is_empty()
}

/// Whether `text` holds a secret (also written with JSON escapes).
pub fn holds_secret(text: &str) -> bool {
    REDACTOR.get_or_init(Redactor::default).finds(text)
}

fn record(e: &io::Error, stream: &str) -> LensError {
    let failure = if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::Failed(format!("cannot write to {stream}: {e}"))
    };
    let mut slot = FAILURE.lock().unwrap_or_else(|p| p.into_inner());
    if slot.is_none() {
        *slot = Some(failure);
    }
    LensError::output(format!("cannot write to {stream}: {e}"))
}

/// Output lost outside stdout and stderr (a file named with `-o` or `--junit`): said once by
/// `exit_code`, like a lost stdout, unless a failure was recorded first.
pub fn lost(message: &str) {
    let mut slot = FAILURE.lock().unwrap_or_else(|p| p.into_inner());
    if slot.is_none() {
        *slot = Some(Failure::Failed(message.to_string()));
    }
}

/// Maps a write's result on stdout to ours, recording a failure for the exit code.
pub fn stdout_result<T>(r: io::Result<T>) -> Result<T> {
    r.map_err(|e| record(&e, "stdout"))
}

/// Writes `text` to stdout, secrets redacted. A failure ends the command (see `exit_code`).
pub fn out(text: &str) -> Result<()> {
    let text = redact(text);
    stdout_result(write_stdout(text.as_bytes()))
}

/// Writes `text` to stdout and flushes it. A long text goes to the descriptor itself (see
/// [`RawStdout`]): stdout's line buffer would search each write from its end for its last
/// newline, and a JSON listing has none but its last (a 0.4 MB listing: a few percent of its
/// command's instructions).
fn write_stdout(text: &[u8]) -> io::Result<()> {
    if text.len() >= 8 << 10 {
        return RawStdout::new()?.write_all(text);
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(text).and_then(|()| stdout.flush())
}

/// Stdout written without its line buffer, for a long output written in large pieces of its own:
/// the line buffer cuts each write at its last newline and holds the rest back until the next,
/// two calls to the system for every piece (on a 100k-record envelope, 168 more writes of a few
/// bytes each, which cost time when stdout is a file). Whatever stdout held is written first.
pub struct RawStdout {
    // Held for as long as the descriptor is written to, so no other print comes between.
    _lock: io::StdoutLock<'static>,
    #[cfg(unix)]
    file: std::mem::ManuallyDrop<std::fs::File>,
}

impl RawStdout {
    pub fn new() -> io::Result<RawStdout> {
        let mut lock = io::stdout().lock();
        lock.flush()?;
        #[cfg(unix)]
        {
            use std::os::fd::{AsRawFd, FromRawFd};
            // SAFETY: the descriptor is stdout's, open for the life of the process and held
            // locked here; the file is never dropped (ManuallyDrop), so it is not closed. A
            // duplicate would cost two calls to the system for each write.
            let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(lock.as_raw_fd()) });
            Ok(RawStdout { _lock: lock, file })
        }
        #[cfg(not(unix))]
        Ok(RawStdout { _lock: lock })
    }
}

impl Write for RawStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        #[cfg(unix)]
        return (&*self.file).write(buf);
        #[cfg(not(unix))]
        self._lock.write(buf)
    }

    /// One call to the system for all of `bufs` (the layout's chunks, see `json_out`).
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        #[cfg(unix)]
        return (&*self.file).write_vectored(bufs);
        #[cfg(not(unix))]
        self._lock.write_vectored(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        #[cfg(not(unix))]
        self._lock.flush()?;
        Ok(())
    }
}

/// Writes `text` to stderr as it is, secrets redacted. A failure is recorded and the command goes
/// on (what it has to say on stdout may still arrive), but its exit code says output was lost.
pub fn err_raw(text: &str) {
    let text = redact(text);
    let mut stderr = io::stderr().lock();
    if let Err(e) = stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush()) {
        record(&e, "stderr");
    }
}

/// One line on stderr (see `err_raw`).
pub fn err_line(text: &str) {
    err_raw(&format!("{text}\n"));
}

/// The exit code once the command is done: `code`, unless a write was lost on a run that would
/// say it went through (0, or 1 for an answer that is the tool's error): then 141 for a closed
/// pipe, quietly, or 4 with one line on stderr (which may itself be lost). A usage (2) or
/// connection (3) failure keeps its code: it says more than the lost message about it.
pub fn exit_code(code: i32) -> i32 {
    let failure = FAILURE.lock().unwrap_or_else(|p| p.into_inner()).clone();
    match failure {
        None => code,
        Some(_) if code > 1 => code,
        Some(Failure::Closed) => EXIT_CLOSED_PIPE,
        Some(Failure::Failed(msg)) => {
            let _ = writeln!(io::stderr().lock(), "mcplens: output lost: {msg}");
            EXIT_WRITE_FAILED
        }
    }
}

/// Whether to colour what goes to a stream, by the common conventions: `NO_COLOR` (set and not
/// empty) never, `CLICOLOR_FORCE` (set, not empty, not 0) always, `CLICOLOR=0` never, else only
/// on a terminal.
pub fn color_wanted(is_terminal: bool) -> bool {
    color_by(|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()), is_terminal)
}

fn color_by(var: impl Fn(&str) -> Option<String>, is_terminal: bool) -> bool {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return false;
    }
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    if set("CLICOLOR").is_some_and(|v| v == "0") {
        return false;
    }
    is_terminal
}

#[cfg(test)]
mod color_tests {
    use super::color_by;

    fn with(vars: &[(&str, &str)], tty: bool) -> bool {
        color_by(|n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.to_string()), tty)
    }

    #[test]
    fn no_color_wins_then_force_then_the_terminal() {
        assert!(with(&[], true));
        assert!(!with(&[], false));
        assert!(!with(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], true));
        assert!(with(&[("NO_COLOR", "")], true));
        assert!(with(&[("CLICOLOR_FORCE", "1")], false));
        assert!(!with(&[("CLICOLOR_FORCE", "0")], false));
        assert!(!with(&[("CLICOLOR", "0")], true));
    }
}
