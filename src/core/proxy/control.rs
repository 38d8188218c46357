//! The control socket: a Unix socket per running proxy under the state directory's `proxies/`
//! (mode 0600, named for the proxy's pid). A watcher that connects gets a hello line, every kept
//! line of the session, then the live ones (JSON Lines); it may send commands back, one JSON
//! object a line: `{"break": "tools/call", "direction": "to_server"}`, `{"unbreak": "...",
//! "direction": ...}` (without a direction: every way),
//! `{"release": 3, "action": "send" | "drop" | "edit" | "error" | "delay", ...}`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc;

use super::breaks::{Verdict, Way, edited};
use super::hub::Hub;

/// The longest command line a watcher may send (an edited message included).
const MAX_COMMAND: u64 = 64 << 20;
/// Watchers attached at once; one more is closed at once.
const MAX_WATCHERS: usize = 32;

/// Where running proxies put their sockets.
pub fn dir() -> Option<PathBuf> {
    crate::dirs::state_dir().map(|d| d.join("proxies"))
}

/// The socket of the proxy with this pid.
pub fn socket_of(pid: u32) -> Option<PathBuf> {
    dir().map(|d| d.join(format!("{pid}.sock")))
}

/// The bound socket; its file is removed when the proxy ends.
pub struct Socket {
    pub path: PathBuf,
}

impl Drop for Socket {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Binds this process's socket and serves watchers from it until the runtime ends.
pub fn open(hub: Arc<Hub>) -> std::io::Result<Socket> {
    let dir = dir().ok_or_else(|| std::io::Error::other("no state directory (set HOME or MCPLENS_STATE_DIR)"))?;
    make_private_dir(&dir)?;
    let path = dir.join(format!("{}.sock", std::process::id()));
    // A socket left by an earlier process of the same pid (it died without cleaning up).
    let _ = std::fs::remove_file(&path);
    let listener = UnixListener::bind(&path)?;
    set_mode(&path, 0o600)?;
    tokio::spawn(accept(listener, hub));
    Ok(Socket { path })
}

fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    check_private_dir(dir)
}

/// The proxies' directory is trusted only when it is a real directory (not a symlink) of this
/// user: anyone else who could write there could put a socket of theirs in a proxy's place, or
/// take a proxy's socket away. One of this user's that others may enter is made 0700.
pub fn check_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let meta = std::fs::symlink_metadata(dir)?;
    let refuse = |why: &str| Err(std::io::Error::other(format!("{} {why}", dir.display())));
    if meta.file_type().is_symlink() {
        return refuse("is a symlink; the proxies' directory must be a directory of its own");
    }
    if !meta.is_dir() {
        return refuse("is not a directory");
    }
    if meta.uid() != own_uid() {
        return refuse(&format!("belongs to another user (uid {}); only one's own is trusted", meta.uid()));
    }
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Refuses a proxy's socket to connect to when its directory or the socket itself could be
/// another user's (see [`check_private_dir`]). A socket not there yet is for the connect to say.
pub fn check_socket(path: &Path) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && let Err(e) = check_private_dir(dir)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(e);
    }
    if std::fs::symlink_metadata(path).is_ok() && !is_own_socket(path) {
        let why = format!("{} is not a socket of this user's (a proxy's); not connecting", path.display());
        return Err(std::io::Error::other(why));
    }
    Ok(())
}

/// Whether `path` is a socket of this user's (what a proxy leaves), not a file, FIFO or symlink.
pub fn is_own_socket(path: &Path) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket() && m.uid() == own_uid())
}

fn own_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

async fn accept(listener: UnixListener, hub: Arc<Hub>) {
    loop {
        let Ok((conn, _)) = listener.accept().await else {
            // Out of descriptors, say: wait for some to be freed instead of spinning.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if hub.watchers() >= MAX_WATCHERS {
            tokio::spawn(refuse(conn));
            continue;
        }
        tokio::spawn(serve(conn, hub.clone()));
    }
}

/// One watcher too many is told why before its connection is closed.
async fn refuse(mut conn: UnixStream) {
    let why =
        json!({"event": "refused", "why": format!("{MAX_WATCHERS} watchers are attached already, the most at once")});
    let line = format!("{why}\n");
    let said = conn.write_all(line.as_bytes());
    let _ = tokio::time::timeout(Duration::from_secs(1), said).await;
}

/// One watcher: its commands read beside the lines written to it, until it goes.
async fn serve(conn: UnixStream, hub: Arc<Hub>) {
    let (read, mut write) = conn.into_split();
    let attached = hub.attach();
    let id = attached.id;
    let (said_tx, said_rx) = mpsc::channel::<String>(64);
    let commands = tokio::spawn(read_commands(read, hub.clone(), id, said_tx));
    let _ = write_lines(&mut write, &hub, attached, said_rx).await;
    commands.abort();
    hub.breaks.forget(id);
}

async fn write_lines(
    w: &mut OwnedWriteHalf,
    hub: &Hub,
    mut a: super::hub::Attached,
    mut said: mpsc::Receiver<String>,
) -> std::io::Result<()> {
    let hello = json!({
        "event": "hello",
        "pid": std::process::id(),
        "target": hub.label,
        "watcher": a.id,
        "missed": a.missed,
    });
    w.write_all(format!("{hello}\n").as_bytes()).await?;
    for line in std::mem::take(&mut a.backlog) {
        w.write_all(line.as_bytes()).await?;
        w.write_all(b"\n").await?;
    }
    w.flush().await?;
    loop {
        let line: Arc<str> = tokio::select! {
            l = a.live.recv() => match l {
                Some(l) => {
                    a.took(&l);
                    l
                }
                None => break,
            },
            Some(s) = said.recv() => Arc::from(s),
        };
        w.write_all(line.as_bytes()).await?;
        w.write_all(b"\n").await?;
        w.flush().await?;
    }
    if a.overrun.load(Ordering::Relaxed) {
        let why = json!({"event": "detached", "why": "this watcher fell too far behind the session"});
        w.write_all(format!("{why}\n").as_bytes()).await?;
    }
    w.flush().await
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Command {
    #[serde(rename = "break")]
    set: Option<String>,
    direction: Option<String>,
    unbreak: Option<String>,
    release: Option<u64>,
    action: Option<String>,
    message: Option<Value>,
    code: Option<i64>,
    text: Option<String>,
    ms: Option<u64>,
}

async fn read_commands(read: OwnedReadHalf, hub: Arc<Hub>, id: u64, said: mpsc::Sender<String>) {
    let mut read = BufReader::new(read);
    let mut line = Vec::new();
    loop {
        line.clear();
        if (&mut read).take(MAX_COMMAND).read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            // The watcher closed its side: what it held goes on as it came.
            hub.breaks.forget(id);
            return;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let (answer, breaks) = match serde_json::from_slice::<Command>(&line) {
            Ok(c) => {
                let breaks = c.set.is_some() || c.unbreak.is_some();
                (apply(&hub, id, c), breaks)
            }
            Err(e) => (Err(format!("not a command: {e}")), false),
        };
        let said_back = match answer {
            // A breakpoint set or removed: the watcher is told which it has now.
            Ok(what) if breaks => json!({"event": "ok", "did": what, "breaks": hub.breaks.list(id)}),
            Ok(what) => json!({"event": "ok", "did": what}),
            Err(why) => json!({"event": "refused", "why": why}),
        };
        let _ = said.send(said_back.to_string()).await;
    }
}

fn apply(hub: &Arc<Hub>, id: u64, c: Command) -> Result<String, String> {
    if let Some(pattern) = c.set {
        let way = Way::of(c.direction.as_deref())?;
        if pattern.is_empty() {
            return Err("a breakpoint names a method or a tool".into());
        }
        hub.breaks.add(id, &pattern, way);
        return Ok(format!("break {}", way.shown(&pattern)));
    }
    if let Some(pattern) = c.unbreak {
        // Without a direction every breakpoint of that name goes; with one, that one only.
        let way = c.direction.as_deref().map(|d| Way::of(Some(d))).transpose()?;
        let shown = way.map_or_else(|| pattern.clone(), |w| w.shown(&pattern));
        if hub.breaks.remove(id, &pattern, way) == 0 {
            return Err(format!("this watcher has no breakpoint {shown}"));
        }
        return Ok(format!("unbreak {shown}"));
    }
    let Some(hold) = c.release else { return Err("expected break, unbreak or release".into()) };
    let verdict = match c.action.as_deref().unwrap_or("send") {
        "send" => Verdict::Pass,
        "drop" => Verdict::Drop,
        "edit" => Verdict::Replace(edited(c.message.as_ref().ok_or("edit needs a message")?)?),
        "error" => {
            let text = c.text.as_deref().unwrap_or("refused at a breakpoint");
            Verdict::Answer(hub.breaks.error_reply(hold, c.code.unwrap_or(-32000), text)?)
        }
        "delay" => {
            let ms = c.ms.unwrap_or(1000);
            let hub = hub.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                let _ = hub.breaks.release(hold, Verdict::Pass);
            });
            return Ok(format!("release {hold} in {ms} ms"));
        }
        other => return Err(format!("action {other:?}: expected send, drop, edit, error or delay")),
    };
    hub.breaks.release(hold, verdict)?;
    Ok(format!("release {hold}"))
}

/// The running proxies: pid, socket and the hello each answers with (its target, its pid).
/// Sockets no proxy answers on are removed.
pub async fn running() -> Vec<(u32, PathBuf, Value)> {
    let Some(dir) = dir() else { return Vec::new() };
    if check_private_dir(&dir).is_err() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let Some(pid) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".sock")) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else { continue };
        // Only a socket a proxy of this user's left is connected to, or removed when dead.
        if !is_own_socket(&path) {
            continue;
        }
        match UnixStream::connect(&path).await {
            Ok(conn) => out.push((pid, path, hello_of(conn).await)),
            Err(_) => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    out.sort_by_key(|(pid, _, _)| *pid);
    out
}

/// The first line a proxy sends (Null when it says nothing within a second).
async fn hello_of(conn: UnixStream) -> Value {
    let mut read = BufReader::new(conn);
    let mut line = Vec::new();
    let got =
        tokio::time::timeout(Duration::from_secs(1), (&mut read).take(1 << 16).read_until(b'\n', &mut line)).await;
    match got {
        Ok(Ok(n)) if n > 0 => serde_json::from_slice(&line).unwrap_or(Value::Null),
        _ => Value::Null,
    }
}
