//! Opening a session for a headless command: `--log-level` applied, the server's log messages
//! printed on stderr while the command runs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use super::TargetArgs;
use super::err_line;
use crate::error::Result;
use crate::mcp::log::{LogKind, Redactor, SessionLog};
use crate::mcp::{ConnectOptions, Session};
use crate::sanitize;

/// A session, and the task printing on stderr what its log says to a person: the server's log
/// messages (with `--log-level`) and each HTTP exchange (with `--show-http`).
pub struct Opened {
    pub session: Session,
    printer: Option<tokio::task::JoinHandle<()>>,
    said: Arc<Said>,
}

/// What has been printed of a session's log.
struct Said {
    next: AtomicU64,
    /// Held while printing: the printer task and [`Opened::caught_up`] never print a line twice.
    printing: Mutex<()>,
    server_log: bool,
    /// `--show-http`: each HTTP exchange is printed too.
    http: bool,
}

impl Opened {
    /// Runs a command's work on the session, then ends it. The work prints its answer itself,
    /// before the server is stopped: a server that lingers after its input closes would
    /// otherwise hold the answer back for the stop's grace period.
    pub async fn run<T>(self, work: impl AsyncFnOnce(&Opened) -> T) -> T {
        let done = work(&self).await;
        self.close().await;
        done
    }

    /// Prints what the log holds that was not printed yet: called before a command prints its
    /// answer, so that the server's log messages sent before it come before it, as they did.
    pub fn caught_up(&self) {
        if self.printer.is_some() {
            print_new(self.session.log(), &self.said);
        }
    }

    /// Awaits a request, then prints what the log holds (as [`Opened::caught_up`]): the command
    /// prints the answer next, after the server's log messages sent before it.
    pub async fn answer<T>(&self, request: impl Future<Output = T>) -> T {
        let answer = request.await;
        self.caught_up();
        answer
    }

    /// As [`Opened::answer`], for a command's last request: the server's input is closed before
    /// the answer is printed, so that it exits while the answer is written, not after.
    pub async fn last_answer<T>(&self, request: impl Future<Output = T>) -> T {
        let answer = request.await;
        self.session.end_input().await;
        self.caught_up();
        answer
    }

    /// Ends the session, after printing the log messages that came last.
    pub async fn close(self) {
        let printer = self.printer.inspect(|p| p.abort());
        self.session.close().await;
        // After the close, so that its exchange (HTTP DELETE) is printed too.
        if printer.is_some() {
            print_new(self.session.log(), &self.said);
        }
    }
}

/// Connects to the target the arguments name.
pub async fn open(target: &TargetArgs) -> Result<Opened> {
    open_with(target, target.connect_options()?).await
}

/// Connects with options the command has added to (e.g. who answers the server's questions).
pub async fn open_with(target: &TargetArgs, mut options: ConnectOptions) -> Result<Opened> {
    warn_roots(target);
    let said = Arc::new(Said {
        next: AtomicU64::new(0),
        printing: Mutex::new(()),
        server_log: target.log_level.is_some(),
        http: target.show_http,
    });
    let to = target.target()?;
    let limits = options.log_limits;
    // Made here, not by the session, so that a connection that fails still shows what was said
    // (with --show-http, the exchanges that failed are the ones wanted).
    let log = options.log.get_or_insert_with(|| SessionLog::new(limits, Redactor::new(to.secrets()))).clone();
    let session = match Session::connect(&to, options).await {
        Ok(session) => session,
        Err(e) => {
            print_new(&log, &said);
            return Err(e);
        }
    };
    for w in &session.setup_warnings {
        err_line(&format!("warning: {}", sanitize::line(w)));
    }
    let printer = (said.server_log || said.http).then(|| {
        let (log, said) = (session.log().clone(), said.clone());
        tokio::spawn(async move {
            loop {
                print_new(&log, &said);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    });
    Ok(Opened { session, printer, said })
}

/// Says on stderr which roots are not directories here (they are offered all the same).
pub fn warn_roots(target: &TargetArgs) {
    for w in target.root_warnings() {
        err_line(&format!("warning: {}", sanitize::line(&w)));
    }
}

/// Prints the server log messages pushed since the last call, one line each on stderr, and with
/// `--show-http` each HTTP exchange (its lines indented).
fn print_new(log: &SessionLog, said: &Said) {
    let _printing = said.printing.lock().unwrap_or_else(|p| p.into_inner());
    let from = said.next.load(Ordering::Relaxed);
    let entries = log.since(from);
    if let Some(last) = entries.last() {
        said.next.store(last.seq + 1, Ordering::Relaxed);
    }
    for e in entries {
        if said.http && e.msg.is_none() && e.text.starts_with(crate::mcp::http_view::PREFIX) {
            for line in e.text.lines() {
                let indent = if line.starts_with(crate::mcp::http_view::PREFIX) { "" } else { "  " };
                err_line(&format!("{indent}{}", sanitize::line(line)));
            }
            continue;
        }
        if !said.server_log {
            continue;
        }
        let Some(m) = &e.msg else { continue };
        if e.kind != LogKind::Received || m.method.as_deref() != Some("notifications/message") {
            continue;
        }
        err_line(&server_log_line(&log.whole(&e), m.level.map(|l| l.label()), m.logger.as_deref()));
    }
}

/// `server log [level] logger: data`, sanitized.
fn server_log_line(message: &str, level: Option<&str>, logger: Option<&str>) -> String {
    let data = serde_json::from_str::<Value>(message).ok().and_then(|v| v.get("params")?.get("data").cloned());
    let text = match data {
        Some(Value::String(s)) => s,
        Some(v) => v.to_string(),
        // The whole message was no longer kept (a burst of long ones): what the preview holds,
        // and that it is cut.
        None => format!("{} (cut: only the start of this message was kept)", preview_data(message)),
    };
    let logger = logger.map(|l| format!(" {}:", sanitize::line(l))).unwrap_or_default();
    format!("server log [{}]{logger} {}", level.unwrap_or("?"), sanitize::line(&text))
}

/// The `data` part of a cut message's preview (the text from `"data":` on), or the whole preview.
fn preview_data(preview: &str) -> &str {
    preview.find(r#""data":"#).map_or(preview, |at| &preview[at + 7..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_are_sanitized() {
        let m = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a\u001b[2Jb"}}"#;
        assert_eq!(server_log_line(m, Some("info"), Some("db")), "server log [info] db: a\\x1b[2Jb");
        let m = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"k":1}}}"#;
        assert_eq!(server_log_line(m, Some("info"), None), r#"server log [info] {"k":1}"#);
    }
}
