//! A server as a child process: stdin/stdout carry the protocol through the wire tap, stderr goes
//! to the session log (never to the terminal, where it would write over the TUI).

use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::Command;
use tokio::sync::{mpsc, watch};

use super::log::{LogKind, SessionLog};
use super::target::StdioTarget;
use super::wire::WireTap;
use crate::error::{LensError, Result};

/// What is known about the child after it was started.
#[derive(Clone)]
pub struct ChildWatch {
    status: watch::Receiver<Option<ExitStatus>>,
    kill: Arc<Mutex<Option<tokio::sync::oneshot::Sender<()>>>>,
    closing: Arc<Closing>,
}

impl ChildWatch {
    /// The exit status, if the child has exited.
    pub fn status(&self) -> Option<ExitStatus> {
        *self.status.borrow()
    }

    /// Waits up to `within` for the child to exit, e.g. after its stdout closed.
    pub async fn wait_exit(&self, within: Duration) -> Option<ExitStatus> {
        let mut rx = self.status.clone();
        let _ = tokio::time::timeout(within, rx.wait_for(|s| s.is_some())).await;
        self.status()
    }

    /// Resolves when the child exits (never, if the exit cannot be observed).
    pub async fn exited(&self) -> Option<ExitStatus> {
        let mut rx = self.status.clone();
        let _ = rx.wait_for(|s| s.is_some()).await;
        self.status()
    }

    /// Closes the child's stdin (a server exits at the end of its input) and waits, up to
    /// `within`, until it is closed; its stdout is still read to its end. A headless command
    /// calls it once it has its last answer: the server then exits while the answer is printed.
    pub async fn end_input(&self, within: Duration) {
        self.closing.stdin.notify_one();
        let mut closed = self.closing.stdin_closed.subscribe();
        let _ = tokio::time::timeout(within, closed.wait_for(|c| *c)).await;
    }

    /// Kills the child (it is also killed when the session is dropped).
    pub fn kill(&self) {
        if let Some(tx) = self.kill.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = tx.send(());
        }
    }
}

/// What [`read_bounded_line`] keeps of a line over its limit: enough to find the message's id.
pub const OVERSIZED_HEAD: usize = 4096;

/// Reads one line of at most `max` bytes. A longer line is consumed to its end and reported as
/// `Err(len)`, so one oversized message cannot exhaust memory or desynchronise the stream; `buf`
/// then holds the line's first [`OVERSIZED_HEAD`] bytes.
pub async fn read_bounded_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<std::result::Result<(), usize>>> {
    read_long_line(reader, buf, max, || {}).await
}

/// A line at least this long is a long one for [`read_long_line`]'s `on_long`.
pub(super) const LONG_LINE: usize = 256 << 10;

/// As [`read_bounded_line`], calling `on_long` once when the line reaches [`LONG_LINE`] bytes.
async fn read_long_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
    mut on_long: impl FnMut(),
) -> std::io::Result<Option<std::result::Result<(), usize>>> {
    buf.clear();
    let mut line = super::line_reader::Line::default();
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok((line.total() > 0).then(|| line.answer()));
        }
        let (n, done) = line.take(chunk, buf, max, &mut on_long);
        reader.consume(n);
        if done {
            return Ok(Some(line.answer()));
        }
    }
}

pub(super) fn not_found(target: &StdioTarget) -> LensError {
    // A command with a slash is a file, looked for there and nowhere else.
    if target.command.contains('/') {
        return LensError::usage(format!("cannot start the server: file \"{}\" not found", target.command));
    }
    LensError::usage(format!(
        "cannot start the server: command \"{}\" not found (is it installed and on PATH?)",
        target.command
    ))
}

/// What the system would refuse to start (a NUL byte, `=` in an environment name, a working
/// directory that is not a directory) as a usage error naming it, before trying.
pub fn check_launch(target: &StdioTarget) -> Result<()> {
    let nul = |what: &str, s: &str| {
        if s.contains('\0') {
            Err(LensError::usage(format!("{what} {s:?} holds a NUL byte, which no process can be given")))
        } else {
            Ok(())
        }
    };
    nul("the command", &target.command)?;
    for a in &target.args {
        nul("the argument", a)?;
    }
    for (k, v) in &target.env {
        nul("the environment variable name", k)?;
        if k.is_empty() || k.contains('=') {
            return Err(LensError::usage(format!("{k:?} is not an environment variable name (empty, or holds '=')")));
        }
        nul(&format!("the value of {k}"), v)
            .map_err(|_| LensError::usage(format!("the value of the environment variable {k} holds a NUL byte")))?;
    }
    if let Some(dir) = &target.cwd {
        nul("the working directory", &dir.to_string_lossy())?;
        if dir.exists() && !dir.is_dir() {
            return Err(LensError::usage(format!(
                "cannot start the server: working directory {} is not a directory",
                dir.display()
            )));
        }
    }
    Ok(())
}

/// Whether `target`'s command can be started at all (exists, on PATH if it has no slash), so
/// the TUI can fail with the headless error and exit code before taking over the terminal.
pub fn check_command(target: &StdioTarget) -> Result<()> {
    check_launch(target)?;
    let cmd = std::path::Path::new(&target.command);
    let found = if target.command.contains('/') {
        let path = match &target.cwd {
            Some(dir) if cmd.is_relative() => dir.join(cmd),
            _ => cmd.to_path_buf(),
        };
        path.is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(cmd).is_file()))
    };
    if found { Ok(()) } else { Err(not_found(target)) }
}

/// A server started ahead of the session that speaks to it (see [`start_early`]).
enum Early {
    None,
    /// [`start_early`] is about to run on another thread.
    Coming,
    Started(Box<(StdioTarget, tokio::process::Child)>),
}

static EARLY: Mutex<Early> = Mutex::new(Early::None);
static EARLY_DONE: std::sync::Condvar = std::sync::Condvar::new();

/// Says that [`start_early`] will run, on another thread: the session's [`spawn`] waits for it
/// (a moment: it runs while the session is set up).
pub fn early_coming() {
    *EARLY.lock().unwrap_or_else(|e| e.into_inner()) = Early::Coming;
}

/// Starts `target`'s server now, for the session that connects to it next: a headless command
/// has it started as soon as its command line is read, so that the server's own start (its
/// loader, its runtime: a millisecond or more) overlaps the setting up of the session, not
/// follows it. Run within the session's runtime, and best on a thread other than the session's:
/// the child's exec goes on after the thread that started it is woken, and would wait behind it
/// on the same core. A server that cannot be started is left for [`spawn`] to try again and
/// report.
pub fn start_early(target: &StdioTarget) {
    let started = match check_launch(target).and_then(|()| start_child(target)) {
        Ok(child) => Early::Started(Box::new((target.clone(), child))),
        Err(_) => Early::None,
    };
    *EARLY.lock().unwrap_or_else(|e| e.into_inner()) = started;
    EARLY_DONE.notify_all();
}

/// The server [`start_early`] started, if it was started for `target`. One started for another
/// target is left where it is (its input closes when the process ends, and a server then exits).
fn take_early(target: &StdioTarget) -> Option<tokio::process::Child> {
    let early = EARLY.lock().unwrap_or_else(|e| e.into_inner());
    // Bounded, should the thread that said it would start the server never do it.
    let (mut early, _) = EARLY_DONE
        .wait_timeout_while(early, Duration::from_secs(5), |e| matches!(e, Early::Coming))
        .unwrap_or_else(|e| e.into_inner());
    match std::mem::replace(&mut *early, Early::None) {
        Early::Started(started) if started.0 == *target => Some(started.1),
        // Not this session's (only a test suite connects to several servers at once).
        other @ Early::Started(..) => {
            *early = other;
            None
        }
        _ => None,
    }
}

/// Starts the child (or takes the one [`start_early`] started for `target`) and returns the end
/// of a duplex pipe that rmcp should be served over.
pub fn spawn(target: &StdioTarget, tap: Arc<WireTap>, max_message: usize) -> Result<(DuplexStream, ChildWatch)> {
    let mut child = match take_early(target) {
        Some(child) => child,
        None => {
            check_launch(target)?;
            start_child(target)?
        }
    };
    let log = tap.log().clone();
    log.push(LogKind::Info, &format!("started {} (pid {})", target.command, child.id().unwrap_or(0)));

    let (stdin, stdout, stderr) = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
        (Some(i), Some(o), Some(e)) => (i, o, e),
        _ => return Err(LensError::connection("the server's stdio pipes could not be opened")),
    };
    let (rmcp_side, our_side) = tokio::io::duplex(1 << 16);
    let (from_rmcp, to_rmcp) = tokio::io::split(our_side);
    let to_rmcp = feed_rmcp(to_rmcp);
    tap.set_injector(to_rmcp.downgrade());

    let closing = Arc::new(Closing::default());
    let reading = pump_server_stdout(stdout, tap.clone(), to_rmcp, max_message);
    let stdout_closing = closing.clone();
    tokio::spawn(async move {
        tokio::select! {
            () = reading => {}
            () = stdout_closing.stdout.notified() => {}
        }
    });
    tokio::spawn(pump_server_stdin(from_rmcp, stdin, tap, closing.clone()));
    let stderr_read = tokio::spawn(drain_stderr(stderr, log.clone()));

    let (status_tx, status_rx) = watch::channel(None);
    let (kill_tx, kill_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(watch_exit(child, kill_rx, closing.clone(), stderr_read, status_tx, log));
    Ok((rmcp_side, ChildWatch { status: status_rx, kill: Arc::new(Mutex::new(Some(kill_tx))), closing }))
}

/// Spawns the command with its three pipes, turning a failure into the error a user can act on.
fn start_child(target: &StdioTarget) -> Result<tokio::process::Child> {
    let mut cmd = Command::new(&target.command);
    cmd.args(&target.args)
        .envs(target.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = &target.cwd {
        cmd.current_dir(dir);
    }
    cmd.spawn().map_err(|e| spawn_error(target, &e))
}

/// Why `target` could not be started, as a user can act on it (a command not on PATH, a file
/// not found, not executable).
pub fn spawn_error(target: &StdioTarget, e: &std::io::Error) -> LensError {
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            if target.cwd.as_ref().is_some_and(|d| !d.is_dir()) {
                LensError::usage(format!(
                    "cannot start the server: working directory {} does not exist",
                    target.cwd.as_ref().map(|d| d.display().to_string()).unwrap_or_default()
                ))
            } else {
                not_found(target)
            }
        }
        std::io::ErrorKind::NotADirectory | std::io::ErrorKind::InvalidInput => {
            LensError::usage(format!("cannot start the server \"{}\": {e}", target.command))
        }
        std::io::ErrorKind::PermissionDenied => LensError::usage(format!(
            "cannot start the server: permission denied running \"{}\" (is it executable?)",
            target.command
        )),
        _ => LensError::connection(format!("cannot start the server \"{}\": {e}", target.command)),
    }
}

/// Server stdout -> tap -> rmcp, one bounded line at a time.
async fn pump_server_stdout(
    stdout: tokio::process::ChildStdout,
    tap: Arc<WireTap>,
    to_rmcp: mpsc::Sender<String>,
    max_message: usize,
) {
    let pipe = super::pipe_size::Pipe::of(&stdout);
    let mut reader = super::line_reader::LineReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        let mut widened = false;
        let read = reader.read_line(&mut buf, max_message, || widened = pipe.widen()).await;
        if widened {
            pipe.narrow();
        }
        match read {
            Ok(None) | Err(_) => break,
            Ok(Some(Err(len))) => {
                if let Some(refusal) = tap.oversized(&String::from_utf8_lossy(&buf), len, max_message)
                    && to_rmcp.send(refusal).await.is_err()
                {
                    break;
                }
            }
            Ok(Some(Ok(()))) => {
                if let Some(fwd) = tap.inbound(take_line(&mut buf, reader.utf8_checked()))
                    && to_rmcp.send(fwd).await.is_err()
                {
                    break;
                }
            }
        }
    }
}

/// The line read into `buf` as a string, leaving a buffer for the next line; its first
/// `checked` bytes are known to be UTF-8 (see `LineReader::utf8_checked`).
fn take_line(buf: &mut Vec<u8>, checked: usize) -> String {
    // The line goes to the tap as it is (moved, not copied); the next line is read into a new
    // buffer, as large as this line up to a long read's width (a line of similar size then does
    // not grow it step by step). The doubling's slack is given back: for a large buffer a
    // remap, otherwise the end of the block split off, not a copy.
    let next = Vec::with_capacity(buf.len().min(NEXT_LINE_ROOM));
    let mut taken = std::mem::replace(buf, next);
    if taken.capacity() > taken.len() + taken.len() / 8 {
        taken.shrink_to_fit();
    }
    // The strict check is several times faster than the lossy one on valid text.
    let checked = checked.min(taken.len());
    if std::str::from_utf8(&taken[checked..]).is_ok() {
        // SAFETY: `taken[..checked]` was checked as it was read and the rest just now, each part
        // whole characters; UTF-8 text followed by UTF-8 text is UTF-8 text.
        return unsafe { String::from_utf8_unchecked(taken) };
    }
    String::from_utf8(taken).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The most room a new line's buffer starts with (see `take_line`).
const NEXT_LINE_ROOM: usize = 1 << 20;

/// rmcp -> tap -> server stdin, until the session stops the server (`Closing`).
async fn pump_server_stdin(
    from_rmcp: tokio::io::ReadHalf<DuplexStream>,
    mut stdin: tokio::process::ChildStdin,
    tap: Arc<WireTap>,
    closing: Arc<Closing>,
) {
    let mut reader = BufReader::new(from_rmcp);
    let (mut buf, mut out) = (Vec::new(), Vec::new());
    loop {
        let read = tokio::select! {
            r = read_bounded_line(&mut reader, &mut buf, usize::MAX) => r,
            () = closing.stdin.notified() => break,
        };
        let Ok(Some(Ok(()))) = read else { break };
        let line = String::from_utf8_lossy(&buf);
        let line = tap.outbound(&line);
        if write_line(&mut stdin, line.as_bytes(), &mut out).await.is_err() {
            break;
        }
        crate::heap::map_ahead();
    }
    drop(stdin);
    closing.stdin_closed.send_replace(true);
}

/// Server stderr -> log, line by line, so the pipe never fills and blocks the server.
async fn drain_stderr(stderr: tokio::process::ChildStderr, log: SessionLog) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        match read_bounded_line(&mut reader, &mut buf, 64 << 10).await {
            Ok(None) | Err(_) => break,
            Ok(Some(Err(len))) => log.push(LogKind::Stderr, &format!("({len}-byte stderr line skipped)")),
            Ok(Some(Ok(()))) => {
                let line = String::from_utf8_lossy(&buf);
                log.push(LogKind::Stderr, line.trim_end_matches(['\n', '\r']));
            }
        }
    }
}

/// Waits for the child to exit or to be stopped, then tells its status.
async fn watch_exit(
    mut child: tokio::process::Child,
    kill_rx: tokio::sync::oneshot::Receiver<()>,
    closing: Arc<Closing>,
    stderr_read: tokio::task::JoinHandle<()>,
    status_tx: watch::Sender<Option<ExitStatus>>,
    log: SessionLog,
) {
    let status = tokio::select! {
        s = child.wait() => s.ok(),
        _ = kill_rx => stop(&mut child, &closing, &log).await,
    };
    // Its last stderr lines are logged before the exit is told: a failure quotes them. A process
    // that left its stderr open to another (a child of its own) is not waited for.
    let _ = tokio::time::timeout(STDERR_AFTER_EXIT, stderr_read).await;
    if let Some(s) = status {
        log.push(LogKind::Info, &format!("server exited: {}", describe_status(&s)));
    }
    let _ = status_tx.send(status);
}

/// How long the end of a server's stderr is waited for once it has exited.
const STDERR_AFTER_EXIT: Duration = Duration::from_millis(500);

/// How long a server is given to exit after its stdin closes, then after SIGTERM.
pub const STOP_GRACE: (Duration, Duration) = (Duration::from_millis(1500), Duration::from_millis(1500));

/// The session stops the server: the writer closes its stdin (a server exits at the end of its
/// input) and the reader stops reading its stdout, so a server blocked writing (a flood of its
/// own requests) gets EPIPE rather than waiting for a reader through the grace periods.
#[derive(Default)]
struct Closing {
    stdin: tokio::sync::Notify,
    stdout: tokio::sync::Notify,
    /// Set once the writer has let go of the child's stdin.
    stdin_closed: watch::Sender<bool>,
}

/// Stops the child as hosts do: its pipes closed (a server exits at the end of its input), then
/// SIGTERM if it is still running after a grace period, then SIGKILL after another.
async fn stop(child: &mut tokio::process::Child, closing: &Closing, log: &SessionLog) -> Option<ExitStatus> {
    closing.stdin.notify_one();
    closing.stdout.notify_one();
    if let Ok(s) = tokio::time::timeout(STOP_GRACE.0, child.wait()).await {
        return s.ok();
    }
    if let Some(pid) = child.id() {
        log.push(LogKind::Info, "the server did not exit when its input closed: SIGTERM");
        terminate(pid);
        if let Ok(s) = tokio::time::timeout(STOP_GRACE.1, child.wait()).await {
            return s.ok();
        }
    }
    log.push(LogKind::Info, "the server did not exit on SIGTERM: SIGKILL");
    let _ = child.start_kill();
    child.wait().await.ok()
}

/// Sends SIGTERM (elsewhere there is no such signal: the kill that follows ends it).
pub fn terminate(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours; the pid is our
        // own child's, not yet reaped (we hold the Child and have not seen it exit).
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// The lines rmcp reads, written by one task: the server's (through the tap) and, before the
/// handshake, one of the tap's own (`WireTap::give_up_discover`). rmcp sees the end of its input
/// once every sender is gone.
fn feed_rmcp<W: AsyncWrite + Unpin + Send + 'static>(mut to_rmcp: W) -> mpsc::Sender<String> {
    let (tx, mut rx) = mpsc::channel::<String>(4);
    tokio::spawn(async move {
        while let Some(line) = rx.recv().await {
            if to_rmcp.write_all(line.as_bytes()).await.is_err() || to_rmcp.write_all(b"\n").await.is_err() {
                break;
            }
        }
        let _ = to_rmcp.shutdown().await;
    });
    tx
}

/// Writes `line` and its newline in one write (`out` is room reused from line to line): written
/// apart, the server would wake for the line, find it unfinished and sleep again, on every request.
async fn write_line<W: AsyncWrite + Unpin>(w: &mut W, line: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
    out.clear();
    out.extend_from_slice(line);
    if !line.ends_with(b"\n") {
        out.push(b'\n');
    }
    let written = w.write_all(out).await;
    // A long request's room is not kept for the short ones that follow.
    if out.capacity() > 1 << 16 {
        *out = Vec::new();
    }
    written?;
    w.flush().await
}

/// "exit status 1", "killed by signal 9", in words a user can act on.
pub fn describe_status(s: &ExitStatus) -> String {
    if let Some(code) = s.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server started early is the one the session for its target takes, once; a session
    /// for another target starts its own and leaves it.
    #[tokio::test]
    async fn a_server_started_early_is_taken_by_the_session_for_its_target() {
        let sh = |script: &str| StdioTarget {
            command: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: vec![],
            cwd: None,
        };
        let (target, other) = (sh("cat # started early"), sh("cat # another"));
        early_coming();
        let handle = tokio::runtime::Handle::current();
        let starting = target.clone();
        std::thread::spawn(move || {
            let _within = handle.enter();
            start_early(&starting);
        });
        let taken = tokio::task::spawn_blocking(move || (take_early(&other).is_none(), take_early(&target)))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(taken.0, "a session for another target took the server started early");
        let child = taken.1.unwrap_or_else(|| panic!("the server started early was not taken"));
        assert!(child.id().is_some(), "the server started early is not running");
    }

    /// A line is taken as the text it holds whatever part of it was checked as it was read,
    /// an invalid byte read as U+FFFD as before.
    #[test]
    fn a_line_is_taken_whole_however_much_was_checked() {
        for line in ["plain", "é😀 mixed", "bad \u{FFFD} kept"] {
            for bytes in [line.as_bytes().to_vec(), [line.as_bytes(), b"\xff!"].concat()] {
                let want = String::from_utf8_lossy(&bytes).into_owned();
                // Every length `LineReader::utf8_checked` could say: a prefix of whole characters.
                for checked in (0..=bytes.len()).filter(|&c| std::str::from_utf8(&bytes[..c]).is_ok()) {
                    assert_eq!(take_line(&mut bytes.clone(), checked), want, "{line:?} checked {checked}");
                }
            }
        }
    }

    fn shell(script: &str) -> (DuplexStream, ChildWatch) {
        use super::super::log::{LogLimits, Redactor};
        let target =
            StdioTarget { command: "sh".into(), args: vec!["-c".into(), script.into()], env: vec![], cwd: None };
        let tap = WireTap::new(SessionLog::new(LogLimits::default(), Redactor::default()));
        spawn(&target, tap, 1 << 20).unwrap_or_else(|e| panic!("{}", e.message))
    }

    /// A long line is said once, when it reaches the mark, and a short one never.
    #[tokio::test]
    async fn a_long_line_is_said_once() {
        let text = format!("{}\nshort\n{}", "a".repeat(3 * LONG_LINE), "b".repeat(LONG_LINE + 1));
        let mut r = tokio::io::BufReader::with_capacity(1000, text.as_bytes());
        let mut buf = Vec::new();
        for (len, said) in [(3 * LONG_LINE, 1), (5, 0), (LONG_LINE + 1, 1)] {
            let mut times = 0;
            let read = read_long_line(&mut r, &mut buf, usize::MAX, || times += 1).await;
            assert!(matches!(read, Ok(Some(Ok(())))));
            assert_eq!((buf.trim_ascii_end().len(), times), (len, said));
        }
    }

    /// The server's stdout pipe is widened for a long message and narrowed again after it.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_pipe_is_widened_and_narrowed() {
        let mut child = Command::new("sh")
            .args(["-c", "sleep 5"])
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        let Some(stdout) = child.stdout.take() else { panic!("no stdout") };
        // SAFETY: a query of a descriptor the test holds open.
        let width = || unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(&stdout), libc::F_GETPIPE_SZ) };
        let pipe = super::super::pipe_size::Pipe::of(&stdout);
        assert_eq!(width(), 64 << 10);
        // A user over the quota is refused: then the width stays as it was.
        if pipe.widen() {
            assert_eq!(width(), 1 << 20);
        }
        pipe.narrow();
        assert_eq!(width(), 64 << 10);
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_server_is_stopped_by_closing_its_input_then_sigterm_then_sigkill() {
        use std::os::unix::process::ExitStatusExt;
        let grace = STOP_GRACE.0 + STOP_GRACE.1 + Duration::from_secs(2);
        // Exits at the end of its input: never signalled.
        let (_io, reads) = shell("cat >/dev/null; exit 0");
        reads.kill();
        let s = reads.wait_exit(grace).await.unwrap_or_else(|| panic!("still running"));
        assert_eq!((s.code(), s.signal()), (Some(0), None));
        // Reads no input but ends on SIGTERM.
        let (_io, sleeps) = shell("exec sleep 30");
        sleeps.kill();
        let s = sleeps.wait_exit(grace).await.unwrap_or_else(|| panic!("still running"));
        assert_eq!(s.signal(), Some(libc::SIGTERM));
        // Ignores SIGTERM too: killed.
        let (_io, stubborn) = shell("trap '' TERM; while :; do sleep 0.1; done");
        stubborn.kill();
        let s = stubborn.wait_exit(grace).await.unwrap_or_else(|| panic!("still running"));
        assert_eq!(s.signal(), Some(libc::SIGKILL));
    }

    /// Its input ended, the server exits by itself, and what it writes after is still read.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_server_told_its_input_ended_exits_and_is_still_heard() {
        use std::os::unix::process::ExitStatusExt;
        use tokio::io::AsyncReadExt;
        let last = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bye"}}"#;
        let (mut io, child) = shell(&format!("cat >/dev/null; echo '{last}'; exit 0"));
        child.end_input(Duration::from_secs(5)).await;
        let s = child.wait_exit(Duration::from_secs(10)).await.unwrap_or_else(|| panic!("still running"));
        assert_eq!((s.code(), s.signal()), (Some(0), None));
        let mut heard = String::new();
        let read = tokio::time::timeout(Duration::from_secs(10), io.read_to_string(&mut heard)).await;
        assert!(matches!(read, Ok(Ok(_))), "{read:?}");
        assert_eq!(heard.trim_end(), last);
    }

    #[tokio::test]
    async fn bounded_lines() {
        let data = b"short\nthis line is far too long\nok\nlast".to_vec();
        let mut r = BufReader::with_capacity(4, &data[..]);
        let mut buf = Vec::new();
        assert!(matches!(read_bounded_line(&mut r, &mut buf, 10).await, Ok(Some(Ok(())))));
        assert_eq!(buf, b"short\n");
        assert!(matches!(read_bounded_line(&mut r, &mut buf, 10).await, Ok(Some(Err(26)))));
        assert!(matches!(read_bounded_line(&mut r, &mut buf, 10).await, Ok(Some(Ok(())))));
        assert_eq!(buf, b"ok\n");
        assert!(matches!(read_bounded_line(&mut r, &mut buf, 10).await, Ok(Some(Ok(())))));
        assert_eq!(buf, b"last");
        assert!(matches!(read_bounded_line(&mut r, &mut buf, 10).await, Ok(None)));
    }
}
