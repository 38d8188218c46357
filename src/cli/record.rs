//! `mcplens record`: a stdio proxy between any client and a server, keeping every message both
//! ways in the log export's JSON Lines (so `mcplens replay` serves it, and the TUI's export
//! replays too). The bytes pass as they are; only the file has the target's secrets masked.
//! `mcplens proxy` is the same proxy with the recording optional and watchers attached.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use super::{TargetArgs, err_line, output};
use crate::error::{LensError, Result};
use crate::mcp::log::{Edit, LogKind, LogLimits, Redactor, SessionLog, to_json_lines};
use crate::mcp::{StdioTarget, Target, stdio, wire};
#[cfg(unix)]
use crate::proxy::{Hub, Verdict};
use crate::sanitize;

/// The live proxy's hub (none where Unix sockets are not).
#[cfg(unix)]
pub(crate) type LiveHub = Option<Arc<Hub>>;
#[cfg(not(unix))]
pub(crate) type LiveHub = Option<std::convert::Infallible>;

/// One side's writer, shared: a message held at a breakpoint may be answered back to its sender.
/// None once that side is closed (taken out and dropped: the server sees its stdin end).
pub(crate) type Out = Arc<tokio::sync::Mutex<Option<Pin<Box<dyn AsyncWrite + Send>>>>>;

fn shared<W: AsyncWrite + Send + 'static>(w: W) -> Out {
    Arc::new(tokio::sync::Mutex::new(Some(Box::pin(w))))
}

fn closed() -> std::io::Error {
    std::io::Error::from(std::io::ErrorKind::BrokenPipe)
}

/// The recording file (when asked for), the watchers' hub (a live proxy), and the log that pairs
/// replies with requests (it keeps only the last few entries: the file and the hub have them).
pub(crate) struct Recorder {
    log: SessionLog,
    /// The recording file, locked from an entry's push to its write: the two directions note
    /// their messages at once, and the file (and the watchers) must get them in `seq` order, or
    /// a replay reads a falling `seq` as the start of another recording.
    file: Mutex<Option<File>>,
    hub: LiveHub,
    failed: std::sync::atomic::AtomicBool,
}

/// The recorder while it holds its file's lock: what it notes goes in the order it is noted.
struct Noting<'a> {
    rec: &'a Recorder,
    file: MutexGuard<'a, Option<File>>,
}

/// How much of a line longer than `--max-message-mb` the recording keeps (it is passed on whole).
const CUT_PREVIEW: usize = 4096;

impl Recorder {
    pub(crate) fn new(file: Option<File>, hub: LiveHub, secrets: Vec<String>) -> Arc<Self> {
        let limits = LogLimits { max_entries: 64, max_bytes: usize::MAX, max_entry_bytes: usize::MAX };
        let log = SessionLog::new(limits, Redactor::new(secrets));
        Arc::new(Recorder { log, file: Mutex::new(file), hub, failed: false.into() })
    }

    /// The watchers' hub, for a live proxy.
    #[cfg(unix)]
    pub(crate) fn hub(&self) -> Option<&Arc<Hub>> {
        self.hub.as_ref()
    }

    /// Takes the file's lock for a run of entries noted together.
    fn noting(&self) -> Noting<'_> {
        Noting { rec: self, file: self.file.lock().unwrap_or_else(|e| e.into_inner()) }
    }

    /// Notes mcplens's own account of something (a message dropped at a breakpoint).
    pub(crate) fn info(&self, text: &str) {
        self.noting().info(text);
    }

    /// Appends one message to the file.
    pub(crate) fn note(&self, kind: LogKind, line: &[u8]) {
        self.noting().note_edit(kind, line, None);
    }

    /// Notes a message a breakpoint held as its side sent it (so every message is in the
    /// recording, also one that never reached the other side), what became of it, and what went
    /// in its place: the edit (both marked, so a replay answers as the host was answered), or the
    /// answer back to its sender (paired with it as a reply). These entries follow one another,
    /// with nothing from the other direction between them.
    #[cfg(unix)]
    pub(crate) fn note_held(&self, kind: LogKind, line: &[u8], verdict: &Verdict) {
        let (to, back) = match kind {
            LogKind::Sent => ("the server", LogKind::Received),
            _ => ("the host", LogKind::Sent),
        };
        let what = held_message(line);
        let mut n = self.noting();
        match verdict {
            Verdict::Pass => n.note(kind, line),
            Verdict::Replace(edited) => {
                let original = n.note_edit(kind, line, Some(Edit::Original));
                n.info(&format!("{what} was held at a breakpoint and edited: {to} got the edit that follows instead"));
                n.note_edit(kind, edited.as_bytes(), Some(Edit::Of(original)));
            }
            Verdict::Drop => {
                n.note(kind, line);
                n.info(&format!("{what} was held at a breakpoint and dropped: it never reached {to}"));
            }
            Verdict::Answer(answer) => {
                n.note(kind, line);
                n.info(&format!(
                    "{what} was held at a breakpoint and answered with an error by a watcher: it never reached {to}"
                ));
                n.note(back, answer.as_bytes());
            }
            Verdict::Handled(done) => {
                n.note(kind, line);
                n.info(&format!(
                    "{what} was handled by the proxy, not passed on: it cancels the request {}, which was {} at a \
                     breakpoint and never reached {to}",
                    done.id, done.how
                ));
            }
        }
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
        let mut n = self.noting();
        let seq = n.push(kind, &note);
        n.write(seq);
    }
}

impl Noting<'_> {
    fn info(&mut self, text: &str) {
        let seq = self.push(LogKind::Info, text);
        self.write(seq);
    }

    #[cfg(unix)]
    fn note(&mut self, kind: LogKind, line: &[u8]) {
        self.note_edit(kind, line, None);
    }

    /// Appends one message to the file, marked when a breakpoint edited it or it is an edit; its
    /// entry's `seq`.
    fn note_edit(&mut self, kind: LogKind, line: &[u8], edit: Option<Edit>) -> u64 {
        let log = &self.rec.log;
        let text = String::from_utf8_lossy(line);
        let seq = wire::log_line(log, kind, text.trim_end());
        match edit {
            Some(Edit::Original) => log.mark_edited(seq),
            Some(Edit::Of(original)) => log.mark_edit_of(seq, original),
            None => {}
        }
        self.write(seq);
        seq
    }

    /// Pushes a plain entry; its `seq` (nothing else pushes while the lock is held).
    fn push(&mut self, kind: LogKind, text: &str) -> u64 {
        self.rec.log.push(kind, text);
        self.rec.log.pushed().saturating_sub(1)
    }

    /// Appends the log entry `seq` to the file and flushes it (a killed proxy keeps what it
    /// saw), and hands it to the watchers.
    fn write(&mut self, seq: u64) {
        let rec = self.rec;
        let Some(entry) = rec.log.get(seq) else { return };
        let json = to_json_lines(&rec.log, &[entry]);
        #[cfg(unix)]
        if let Some(hub) = &rec.hub {
            hub.publish(json.trim_end());
        }
        let Some(file) = self.file.as_mut() else { return };
        if let Err(e) = file.write_all(json.as_bytes()).and_then(|()| file.flush())
            && !rec.failed.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            err_line(&format!("mcplens record: cannot write the recording: {e}"));
        }
    }
}

/// A held message as the log's note names it: `the tools/call request 2`, `the reply 2`.
#[cfg(unix)]
fn held_message(line: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(line).unwrap_or_default();
    let id = v.get("id").filter(|i| !i.is_null()).map(|i| format!(" {i}")).unwrap_or_default();
    match v.get("method").and_then(serde_json::Value::as_str) {
        Some(m) if id.is_empty() => format!("the {m} notification"),
        Some(m) => format!("the {m} request{id}"),
        None if id.is_empty() => "a message".into(),
        None => format!("the reply{id}"),
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

/// `mcplens record -o FILE -- <server>` (without a server: the embedded demo server), or
/// `--url URL` (streamable HTTP served on a loopback port)
pub async fn record(path: &Path, target: &TargetArgs) -> Result<i32> {
    let t = target.target()?;
    let file = create(path)?;
    let rec = Recorder::new(Some(file), None, t.secrets());
    match t {
        Target::Stdio(server) => proxy_stdio(start(&server)?, rec, target.max_message_mb).await,
        // Served on a loopback port it prints, as `mcplens proxy --url` is.
        Target::Http(server) => {
            let bound = super::proxy_http::bind(&server, "127.0.0.1:0").await?;
            super::proxy_http::serve(bound, &server, rec).await
        }
    }
}

/// The recording file, created (or replaced).
pub(crate) fn create(path: &Path) -> Result<File> {
    crate::dirs::create_file(path)
        .map_err(|e| LensError::output(format!("cannot write {}: {e}", sanitize::line(&path.display().to_string()))))
}

/// Starts `server` with its stdin and stdout piped (its stderr is the proxy's), or says why it
/// cannot be, as other commands say it.
pub(crate) fn start(server: &StdioTarget) -> Result<tokio::process::Child> {
    stdio::check_launch(server)?;
    let mut command = tokio::process::Command::new(&server.command);
    command.args(&server.args).envs(server.env.iter().cloned());
    if let Some(cwd) = &server.cwd {
        command.current_dir(cwd);
    }
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).kill_on_drop(true);
    command.spawn().map_err(|e| stdio::spawn_error(server, &e))
}

/// Runs the server `child` (see [`start`]) with this process's stdin and stdout passed to it
/// through `rec`, until one side ends or the proxy is told to stop.
pub(crate) async fn proxy_stdio(
    mut child: tokio::process::Child,
    rec: Arc<Recorder>,
    max_message_mb: usize,
) -> Result<i32> {
    let (Some(to_server), Some(from_server)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(LensError::connection("the server's stdin or stdout could not be opened"));
    };
    let max_line = max_message_mb.saturating_mul(1 << 20);
    let (to_server, to_host) = (shared(to_server), shared(tokio::io::stdout()));
    let mut up = tokio::spawn(pass(
        tokio::io::stdin(),
        Sides { to: to_server.clone(), back: to_host.clone() },
        rec.clone(),
        LogKind::Sent,
        max_line,
    ));
    let progress = Arc::new(Progress::default());
    let from_server = Counted { inner: from_server, progress: progress.clone() };
    let down = pass(from_server, Sides { to: to_host, back: to_server }, rec.clone(), LogKind::Received, max_line);
    tokio::pin!(down);
    let down = tokio::select! {
        down = &mut down => down,
        code = stop_requested() => {
            // A client stopping its server (SIGTERM after closing stdin, as MCP has it) stops
            // the real one: it would be left running, unseen, after the proxy.
            up.abort();
            let _ = child.kill().await;
            return Ok(code);
        }
        _ = &mut up => tokio::select! {
            down = &mut down => down,
            code = stop_requested() => {
                let _ = child.kill().await;
                return Ok(code);
            }
            why = host_gone(&progress, &HOST_GONE) => {
                let rest = Passing { down: down.as_mut(), progress: &progress };
                return Ok(stop_after_host(&mut child, &rec, why, rest).await);
            }
        },
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
            err_line(&format!("mcplens: the server exited ({s})"));
            Ok(3)
        }
        // The session went through, the recording did not (said when the first write failed).
        _ if rec.failed.load(std::sync::atomic::Ordering::Relaxed) => Ok(output::EXIT_WRITE_FAILED),
        _ => Ok(0),
    }
}

/// After the host has gone: how long the server is given to exit (as a host gives it), the pause
/// in what it writes that must come before it is stopped (a server still writing, a long answer
/// or a burst of lines, is not cut off), and how long it may go on writing before it is stopped
/// all the same.
struct HostGone {
    grace: Duration,
    quiet: Duration,
    writing: Duration,
}

const HOST_GONE: HostGone =
    HostGone { grace: stdio::STOP_GRACE.0, quiet: Duration::from_millis(300), writing: Duration::from_secs(30) };

/// How long the lines a stopped server wrote last are still passed on (a host that no longer
/// reads holds them).
const DRAIN: Duration = Duration::from_secs(5);

/// Why a server that outlived its input is stopped.
#[derive(Debug, PartialEq)]
enum Stop {
    /// It went quiet.
    Quiet,
    /// It was still writing when `HostGone::writing` ran out: this long after the host left.
    StillWriting(Duration),
}

impl Stop {
    /// What is said (on stderr and in the recording) as the server is stopped.
    fn said(&self) -> String {
        let gone = "the host closed its side and the server did not exit when its input closed";
        match self {
            Stop::Quiet => format!("{gone}: SIGTERM"),
            Stop::StillWriting(t) => format!(
                "{gone}, and was still writing {} s later: SIGTERM (what it wrote until then is passed on)",
                t.as_secs()
            ),
        }
    }
}

/// Resolves when a server that outlived its input is to be stopped: after the grace, once its
/// output has not moved for a while, or once it has written for too long.
async fn host_gone(progress: &Progress, t: &HostGone) -> Stop {
    tokio::time::sleep(t.grace).await;
    match tokio::time::timeout(t.writing, quiet_for(progress, t.quiet)).await {
        Ok(()) => Stop::Quiet,
        Err(_) => Stop::StillWriting(t.grace + t.writing),
    }
}

/// How far the server's output has got: the bytes read, and whether the proxy is waiting for
/// more, every line read before passed on.
#[derive(Default)]
struct Progress {
    read: AtomicU64,
    waiting: AtomicBool,
}

/// Resolves once the proxy has waited for the server's output for `quiet`, with every line it
/// read passed on. Not merely nothing read: one read takes many short lines at once, and passing
/// them on to a host that reads slowly takes a while, during which nothing is read.
async fn quiet_for(progress: &Progress, quiet: Duration) {
    let mut last = progress.read.load(Ordering::Relaxed);
    let mut since = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = progress.read.load(Ordering::Relaxed);
        if now != last || !progress.waiting.load(Ordering::Relaxed) {
            (last, since) = (now, tokio::time::Instant::now());
        } else if since.elapsed() >= quiet {
            return;
        }
    }
}

/// The server's lines on their way to the host, and how far they have got.
struct Passing<'a, F> {
    down: Pin<&'a mut F>,
    progress: &'a Progress,
}

/// The server outlived its input: SIGTERM, then SIGKILL after a grace period. What it wrote before
/// it ended is still passed on and recorded, until its output ends or pauses (a child of its own
/// may hold it open). The session ended with the host, so it counts as ended well (unless the
/// recording failed).
async fn stop_after_host<F>(
    child: &mut tokio::process::Child,
    rec: &Recorder,
    why: Stop,
    mut rest: Passing<'_, F>,
) -> i32
where
    F: Future<Output = std::io::Result<()>>,
{
    let say = |what: &str| {
        rec.info(what);
        err_line(&format!("mcplens: {what}"));
    };
    if let Some(pid) = child.id() {
        say(&why.said());
        stdio::terminate(pid);
        let ended = async {
            if tokio::time::timeout(stdio::STOP_GRACE.1, child.wait()).await.is_err() {
                say("the server did not exit on SIGTERM: SIGKILL");
                let _ = child.kill().await;
            }
        };
        tokio::pin!(ended);
        // Passed on while it stops, then what is left once it has.
        tokio::select! {
            _ = rest.down.as_mut() => ended.await,
            () = &mut ended => drain(rest, &say).await,
        }
    }
    if rec.failed.load(Ordering::Relaxed) { output::EXIT_WRITE_FAILED } else { 0 }
}

/// A reader that counts what it has read, and says when it waits for more (to see whether a
/// server is still talking). Behind a `BufReader`, it is read only once the lines read before
/// have been taken.
struct Counted<R> {
    inner: R,
    progress: Arc<Progress>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Counted<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let n = buf.filled().len().saturating_sub(before);
        self.progress.read.fetch_add(n as u64, Ordering::Relaxed);
        self.progress.waiting.store(polled.is_pending(), Ordering::Relaxed);
        polled
    }
}

/// Passes on what a stopped server wrote last, until its output ends or pauses (a child of its
/// own may hold it open), at most for `DRAIN`.
async fn drain<F: Future<Output = std::io::Result<()>>>(mut rest: Passing<'_, F>, say: &impl Fn(&str)) {
    let ends = async {
        tokio::select! {
            _ = rest.down.as_mut() => {}
            () = quiet_for(rest.progress, HOST_GONE.quiet) => {}
        }
    };
    if tokio::time::timeout(DRAIN, ends).await.is_err() {
        let within = DRAIN.as_secs();
        say(&format!(
            "the server's last lines were not all passed on within {within} s of its end (the host did not take them, \
             or a process of its went on writing): the rest is not passed on nor recorded"
        ));
    }
}

/// Waits for SIGTERM or SIGINT; the exit code a shell gives a process they end (143, 130).
pub(crate) async fn stop_requested() -> i32 {
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

/// Where a side's messages go, and where an answer to one goes back.
struct Sides {
    to: Out,
    back: Out,
}

/// Copies lines from `from` to `to` byte for byte, noting each in the recording. A line longer
/// than `max_line` is passed on as it comes, only its beginning noted (an endless line must not
/// be held). A line a watcher's breakpoint holds waits for its verdict, and the lines after it
/// wait behind it. Ends at `from`'s end (closing `to`), or with the error of a write.
async fn pass<R>(from: R, sides: Sides, rec: Arc<Recorder>, kind: LogKind, max_line: usize) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
{
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    let limit = u64::try_from(max_line).unwrap_or(u64::MAX).saturating_add(1);
    loop {
        line.clear();
        // A read error is the end of that side, as an end of file is.
        if (&mut from).take(limit).read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            if let Some(mut to) = sides.to.lock().await.take() {
                let _ = to.shutdown().await;
            }
            return Ok(());
        }
        if line.len() > max_line && !line.ends_with(b"\n") {
            let mut guard = sides.to.lock().await;
            let to = guard.as_mut().ok_or_else(closed)?;
            to.write_all(&line).await?;
            let rest = pass_rest_of_line(&mut from, to).await?;
            rec.note_cut(kind, &line, (line.len() as u64).saturating_add(rest));
            to.flush().await?;
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            write_line(&sides.to, &line).await?;
            continue;
        }
        pass_message(&line, &sides, &rec, kind).await?;
    }
}

/// One message: held when a breakpoint matches, then sent (as it came or edited), dropped, or
/// answered back. Noted first: a client that has its answer may stop the proxy at once.
async fn pass_message(line: &[u8], sides: &Sides, rec: &Recorder, kind: LogKind) -> std::io::Result<()> {
    #[cfg(unix)]
    if let Some(hub) = &rec.hub {
        let verdict = hub.check(kind == LogKind::Sent, line).await;
        rec.note_held(kind, line, &verdict);
        return match verdict {
            Verdict::Pass => write_line(&sides.to, line).await,
            Verdict::Replace(edited) => write_line(&sides.to, format!("{edited}\n").as_bytes()).await,
            Verdict::Drop | Verdict::Handled(_) => Ok(()),
            Verdict::Answer(answer) => {
                // Lost if that side is gone already: this side's session goes on.
                let _ = write_line(&sides.back, format!("{answer}\n").as_bytes()).await;
                Ok(())
            }
        };
    }
    rec.note(kind, line);
    write_line(&sides.to, line).await
}

async fn write_line(to: &Out, line: &[u8]) -> std::io::Result<()> {
    let mut guard = to.lock().await;
    let to = guard.as_mut().ok_or_else(closed)?;
    to.write_all(line).await?;
    to.flush().await
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

#[cfg(test)]
mod tests {
    use super::*;

    const SHORT: HostGone =
        HostGone { grace: Duration::ZERO, quiet: Duration::from_millis(300), writing: Duration::from_millis(1500) };

    /// A server whose output keeps coming, or that the proxy has not caught up with (its lines
    /// wait for a host that reads slowly), is not quiet; one the proxy waits for is.
    #[tokio::test]
    async fn a_server_is_stopped_when_the_proxy_has_waited_for_it_or_after_the_bound() {
        let waited = Progress::default();
        waited.waiting.store(true, Ordering::Relaxed);
        assert_eq!(host_gone(&waited, &SHORT).await, Stop::Quiet);
        // Behind: nothing is read while lines read before are still being passed on.
        let behind = Progress::default();
        assert_eq!(host_gone(&behind, &SHORT).await, Stop::StillWriting(SHORT.writing));
        // Still writing: every read brings more.
        let writing = Arc::new(Progress::default());
        writing.waiting.store(true, Ordering::Relaxed);
        let writer = writing.clone();
        let talk = tokio::spawn(async move {
            loop {
                writer.read.fetch_add(60, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let stop = host_gone(&writing, &SHORT).await;
        talk.abort();
        assert_eq!(stop, Stop::StillWriting(SHORT.writing));
        assert_eq!(
            Stop::StillWriting(HOST_GONE.grace + HOST_GONE.writing).said(),
            "the host closed its side and the server did not exit when its input closed, and was still writing 31 s \
             later: SIGTERM (what it wrote until then is passed on)"
        );
    }

    /// Both directions note their messages at once (the proxy passes each on its own thread):
    /// the file must have them in `seq` order, or a replay reads a falling `seq` as the start
    /// of another recording.
    #[test]
    fn messages_noted_at_once_from_both_sides_are_recorded_in_seq_order() {
        let path = std::env::temp_dir().join(format!("mcplens-record-order-{}.jsonl", std::process::id()));
        let file = create(&path).unwrap_or_else(|e| panic!("{e}"));
        let rec = Recorder::new(Some(file), None, Vec::new());
        let side = |kind: LogKind| {
            let rec = rec.clone();
            std::thread::spawn(move || {
                for i in 0..5000 {
                    rec.note(
                        kind,
                        format!("{{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{{\"i\":{i}}}}}").as_bytes(),
                    );
                    if i % 500 == 0 {
                        rec.info("a note");
                    }
                }
            })
        };
        let sides = [side(LogKind::Sent), side(LogKind::Received)];
        for s in sides {
            s.join().unwrap_or_else(|_| panic!("a side panicked"));
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        let seqs: Vec<u64> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).ok().and_then(|v| v["seq"].as_u64()).unwrap_or(0))
            .collect();
        assert_eq!(seqs.len(), 10_020);
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "seq falls in the recording");
        assert!(seqs.iter().enumerate().all(|(i, &s)| s == i as u64), "an entry written twice or lost");
    }
}
