//! The session worker: owns the MCP session so the UI never waits on I/O. It connects, lists
//! the tools, follows `list_changed`, carries out the model's commands (through the one
//! dispatch, `dispatch.rs`, connected or not), reports a server's death and reconnects.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::dispatch::{Dispatch, Job};
use super::msg::{Cmd, Msg, SessionMsg, Withdrawn};
use super::{baseline, diagnose, mask, ops};
use crate::envelope::hints::Hints;
use crate::history::History;
use crate::mcp::asks::{Answer, ServerAsk};
use crate::mcp::log::{LogKind, Redactor, SessionLog};
use crate::mcp::wire::ServerEvent;
use crate::mcp::{Cancel, ConnectOptions, Session, Target};

/// The worker between sessions: what it connects to, and what outlives a reconnect (the log,
/// the requests waiting on the user, the command channel).
pub(crate) struct Worker {
    target: Target,
    options: ConnectOptions,
    snapshot: baseline::Source,
    dispatch: Dispatch,
    log: SessionLog,
    cmds: mpsc::UnboundedReceiver<Cmd>,
    pending: Pending,
}

/// One session's state while it serves.
struct Serving {
    session: Arc<Session>,
    known: Arc<Mutex<ops::Known>>,
    /// The call under way, which Ctrl-K cancels, and its task (`R` waits for it to end).
    current: Option<(Cancel, tokio::task::JoinHandle<()>)>,
    /// The server process has exited (its exit is reported once).
    dead: bool,
    waiting: Waiting,
}

/// What the worker does after a command or a session.
#[derive(PartialEq)]
enum Flow {
    Go,
    Reconnect,
    Quit,
}

impl Worker {
    pub fn new(
        target: Target,
        (options, snapshot): (ConnectOptions, baseline::Source),
        (history, hints): (Arc<Mutex<History>>, Arc<Mutex<Hints>>),
        cmds: mpsc::UnboundedReceiver<Cmd>,
        out: mpsc::UnboundedSender<Msg>,
    ) -> Worker {
        // One log for every session: a reconnect appends to it, so why the server died stays.
        let log = SessionLog::new(options.log_limits, Redactor::new(target.secrets()));
        mask::set(log.redactor().clone());
        let (desk, asks) = crate::mcp::asks::AskDesk::new();
        let mut auth = options.auth.clone();
        auth.notify = Some(login_notices(out.clone()));
        let options = ConnectOptions { log: Some(log.clone()), asks: Some(desk), listen: true, auth, ..options };
        let dispatch = Dispatch { history, hints, redactor: log.redactor().clone(), out };
        let pending = Pending { rx: asks, asks: HashMap::new() };
        Worker { target, options, snapshot, dispatch, log, cmds, pending }
    }

    fn send(&self, m: SessionMsg) -> bool {
        self.dispatch.out.send(Msg::Session(m)).is_ok()
    }

    /// Connects, serves, and again after each `R`, until the model quits.
    pub async fn run(mut self) {
        for attempt in 0.. {
            if attempt > 0 {
                self.log.mark_reconnect("reconnecting: a new session begins");
            }
            if !self.send(SessionMsg::Connecting) {
                return;
            }
            let flow = match Session::connect(&self.target, self.options.clone()).await {
                Ok(s) => self.connected(Arc::new(s)).await,
                Err(e) => self.down(e.message).await,
            };
            if flow == Flow::Quit {
                return;
            }
        }
    }

    /// Not connected: says why, then serves what needs no server until `R` or quit.
    async fn down(&mut self, error: String) -> Flow {
        if !self.send(SessionMsg::Failed { error, log: Some(self.log.clone()) }) {
            return Flow::Quit;
        }
        diagnose::after_failure(&self.target, &self.options, &self.log, &self.dispatch.out);
        loop {
            let Some(cmd) = self.cmds.recv().await else { return Flow::Quit };
            match self.dispatch.job(cmd, None) {
                Job::Reconnect => return Flow::Reconnect,
                Job::Quit => return Flow::Quit,
                _ => {}
            }
        }
    }

    /// A session: the first listing, then commands and the server's news until it ends.
    async fn connected(&mut self, session: Arc<Session>) -> Flow {
        let known = Arc::new(Mutex::new(ops::Known::default()));
        // Heard from before the first listing: a list_changed during it is not lost (it is read
        // again, once per burst).
        let events = session.events();
        if !self.first_listing(&session, &known).await {
            session.close().await;
            return Flow::Quit;
        }
        let child = session.child().cloned();
        let mut serving = Serving { session, known, current: None, dead: false, waiting: Waiting::default() };
        let flow = self.serve(&mut serving, events, child).await;
        if flow == Flow::Reconnect {
            stop_call(serving.current.take()).await;
        }
        serving.session.close().await;
        let why = if flow == Flow::Reconnect { Withdrawn::Reconnecting } else { Withdrawn::SessionEnded };
        for id in self.pending.drain() {
            self.send(SessionMsg::AskWithdrawn(id, why));
        }
        flow
    }

    /// Lists the tools and compares them with the snapshot; false when the model is gone.
    async fn first_listing(&mut self, session: &Arc<Session>, known: &Arc<Mutex<ops::Known>>) -> bool {
        // Read again at each connect: a snapshot written meanwhile counts after R.
        let base = match self.snapshot.load() {
            Ok(b) => b.map(Arc::new),
            Err(e) => {
                self.send(SessionMsg::Compared(Err(e)));
                None
            }
        };
        if let Ok(mut k) = known.lock() {
            k.baseline = base.clone();
        }
        let tools = match session.list_tools().await {
            Ok(tools) => tools,
            Err(e) => return self.send(SessionMsg::Failed { error: e.message, log: Some(session.log().clone()) }),
        };
        if let Ok(mut k) = known.lock() {
            k.replace("tools", ops::tool_entries(&tools));
        }
        self.send(SessionMsg::Login(session.auth().map(|a| a.state())));
        let compared = base.map(|b| b.compare(&session.server, &session.target, &tools));
        let log = session.log().clone();
        if !self.send(SessionMsg::Connected { server: Box::new(session.server.clone()), tools, log }) {
            return false;
        }
        // Only after `Connected`: the panes start empty when it arrives, so lists sent ahead of
        // it (answered while the tools were compared with a large snapshot, or while this thread
        // waited for a core) were wiped and showed "listing…" for good.
        let out = self.dispatch.out.clone();
        tokio::spawn(ops::relist(session.clone(), ops::offered(&session.server), false, known.clone(), out));
        if let Some(c) = compared {
            self.send(SessionMsg::Compared(Ok(Arc::new(c))));
        }
        true
    }

    /// Commands, the server's requests and notifications, the held-back work and the server's
    /// exit, until a reconnect or quit.
    async fn serve(
        &mut self,
        s: &mut Serving,
        mut events: tokio::sync::broadcast::Receiver<ServerEvent>,
        child: Option<crate::mcp::stdio::ChildWatch>,
    ) -> Flow {
        loop {
            let (relist_at, complete_at) = (s.waiting.relist_at(), s.waiting.complete_at());
            let flow = tokio::select! {
                _ = sleep_until(relist_at), if relist_at.is_some() => {
                    let kinds = s.waiting.take_relist();
                    let out = self.dispatch.out.clone();
                    tokio::spawn(ops::relist(s.session.clone(), kinds, true, s.known.clone(), out));
                    Flow::Go
                },
                _ = sleep_until(complete_at), if complete_at.is_some() => {
                    if let Some((field, ask)) = s.waiting.take_complete() {
                        let (task, done) = (self.dispatch.complete(s.session.clone(), ask), s.waiting.done.clone());
                        tokio::spawn(async move {
                            task.await;
                            let _ = done.send(field);
                        });
                    }
                    Flow::Go
                },
                field = s.waiting.answered.recv() => {
                    if let Some(field) = field {
                        s.waiting.completing.remove(&field);
                    }
                    Flow::Go
                },
                cmd = self.cmds.recv() => match cmd {
                    Some(cmd) => self.command(cmd, s),
                    None => Flow::Quit,
                },
                ask = self.pending.rx.recv() => {
                    if let Some(ask) = ask {
                        self.send(SessionMsg::Asked(ask.view()));
                        self.pending.asks.insert(ask.id.clone(), ask);
                    }
                    Flow::Go
                },
                ev = events.recv() => {
                    self.event(ev, &mut s.waiting);
                    Flow::Go
                },
                status = exited(child.as_ref()), if !s.dead => {
                    s.dead = true;
                    self.send(SessionMsg::Closed { reason: exit_reason(&s.session, status) });
                    Flow::Go
                },
            };
            if flow != Flow::Go {
                return flow;
            }
        }
    }

    /// One command while connected: the dispatch says what it comes to.
    fn command(&mut self, cmd: Cmd, s: &mut Serving) -> Flow {
        match self.dispatch.job(cmd, Some(&s.session)) {
            Job::Reconnect => return Flow::Reconnect,
            Job::Quit => return Flow::Quit,
            Job::Work { task, cancel } => {
                let task = tokio::spawn(task);
                if let Some(c) = cancel {
                    s.current = Some((c, task));
                }
            }
            Job::Cancel => {
                if let Some((c, _)) = s.current.take() {
                    c.cancel();
                }
            }
            Job::Answer { id, answer } => self.pending.answer(&id, answer),
            // Typing asks at each key: only the last ask after a pause is sent, and only once its
            // field's request under way (if any) is answered.
            Job::Complete(ask) => s.waiting.complete = Some((Instant::now() + COMPLETE_PAUSE, ask)),
            Job::Done => {}
        }
        Flow::Go
    }

    /// A notification from the server: lists to read again, a resource updated, a request
    /// withdrawn.
    fn event(&mut self, ev: Result<ServerEvent, RecvError>, waiting: &mut Waiting) {
        match ev {
            Ok(ServerEvent::ToolListChanged) => waiting.relist(ops::ListKind::Tools),
            Ok(ServerEvent::ResourceListChanged) => waiting.relist(ops::ListKind::Resources),
            Ok(ServerEvent::PromptListChanged) => waiting.relist(ops::ListKind::Prompts),
            Ok(ServerEvent::ResourceUpdated { uri }) => {
                self.send(SessionMsg::ResourceUpdated(uri));
            }
            // Notifications were lost: every list may have changed.
            Err(RecvError::Lagged(_)) => ops::ListKind::ALL.into_iter().for_each(|k| waiting.relist(k)),
            Ok(ServerEvent::Asking(false)) => {
                for id in self.pending.withdrawn() {
                    self.send(SessionMsg::AskWithdrawn(id, Withdrawn::ByServer));
                }
            }
            Ok(_) | Err(RecvError::Closed) => {}
        }
    }
}

/// How long `R` waits for the call it cancels to end (its `notifications/cancelled` sent, its
/// result recorded) before the session closes under it.
const CANCEL_WAIT: Duration = Duration::from_secs(3);

/// Cancels the call under way, as Ctrl-K does but for the reconnect (the server is told so), and
/// waits for it to end: a reconnect neither leaves the server working on a call nobody waits for
/// nor drops a reply already read.
async fn stop_call(current: Option<(Cancel, tokio::task::JoinHandle<()>)>) {
    let Some((cancel, task)) = current else { return };
    if task.is_finished() {
        return;
    }
    cancel.cancel_for(crate::mcp::cancel::RECONNECTING);
    let _ = tokio::time::timeout(CANCEL_WAIT, task).await;
}

/// Waits for the server process to exit (never, for a server that is no child of ours).
async fn exited(child: Option<&crate::mcp::stdio::ChildWatch>) -> Option<std::process::ExitStatus> {
    match child {
        Some(c) => c.exited().await,
        None => std::future::pending().await,
    }
}

/// Why the session ended, with the last lines the server wrote to stderr.
fn exit_reason(session: &Session, status: Option<std::process::ExitStatus>) -> String {
    let tail = session.log().tail(LogKind::Stderr, 8);
    let status = status.map(|s| crate::mcp::stdio::describe_status(&s)).unwrap_or_else(|| "status unknown".into());
    let mut reason = format!("the server exited ({status})");
    if !tail.is_empty() {
        reason.push_str("\nlast lines of its stderr:");
        for l in tail {
            reason.push_str("\n  ");
            reason.push_str(&l);
        }
    }
    reason
}

/// Login steps go to the status line, never to stderr under the screen.
fn login_notices(out: mpsc::UnboundedSender<Msg>) -> crate::mcp::auth::Notify {
    Arc::new(move |n| {
        use crate::mcp::auth::{LoginState, Notice};
        let state = match &n {
            Notice::Starting { .. } | Notice::OpenUrl { .. } => Some(LoginState::InProgress),
            Notice::LoggedIn { .. } | Notice::Refreshed | Notice::Failed(_) => None,
        };
        if let Some(st) = state {
            let _ = out.send(Msg::Session(SessionMsg::Login(Some(st))));
        }
        let _ = out.send(Msg::Session(SessionMsg::Notice(login_notice(n))));
    })
}

/// A login step in words for the status line; the URL in full (sanitized), since the browser
/// may not have opened.
fn login_notice(n: crate::mcp::auth::Notice) -> String {
    use crate::mcp::auth::Notice;
    use crate::sanitize::line;
    match n {
        Notice::Starting { server } => format!("login: {} asks for a login (OAuth)…", line(&server)),
        Notice::OpenUrl { url, opened: Ok(()) } => format!("login: opened in your browser, waiting: {}", line(&url)),
        Notice::OpenUrl { url, opened: Err(_) } => format!("login: open this URL in a browser: {}", line(&url)),
        Notice::LoggedIn { scope, how } => {
            format!("login: logged in ({how}{})", scope.map(|s| format!(", scopes {}", line(&s))).unwrap_or_default())
        }
        Notice::Refreshed => "login: token refreshed".into(),
        Notice::Failed(e) => format!("login failed: {}", line(&e)),
    }
}
/// How long after a `list_changed` the lists are read again: a burst (server-everything sends
/// four `tools/list_changed` as it starts) is read once.
const RELIST_PAUSE: Duration = Duration::from_millis(120);

/// How long typing must pause before a `completion/complete` is sent.
const COMPLETE_PAUSE: Duration = Duration::from_millis(150);

/// Work the worker holds back a moment: lists to read again, the last completion asked for.
struct Waiting {
    relist: Vec<ops::ListKind>,
    /// Set by the first notification of a burst: a steady stream still re-lists.
    relist_due: Option<Instant>,
    /// The last completion asked for (the latest text of its field), and when it may be sent.
    complete: Option<(Instant, super::msg::CompletionAsk)>,
    /// The fields whose `completion/complete` is under way: the next ask for one waits for the
    /// answer (a template's reference may be megabytes, sent with every request).
    completing: HashSet<u64>,
    /// Each field whose request was answered (or failed), sent by the task that made it.
    done: mpsc::UnboundedSender<u64>,
    answered: mpsc::UnboundedReceiver<u64>,
}

impl Default for Waiting {
    fn default() -> Waiting {
        let (done, answered) = mpsc::unbounded_channel();
        Waiting { relist: vec![], relist_due: None, complete: None, completing: HashSet::new(), done, answered }
    }
}

impl Waiting {
    fn relist(&mut self, kind: ops::ListKind) {
        if !self.relist.contains(&kind) {
            self.relist.push(kind);
        }
        self.relist_due.get_or_insert_with(|| Instant::now() + RELIST_PAUSE);
    }

    fn relist_at(&self) -> Option<Instant> {
        self.relist_due
    }

    fn take_relist(&mut self) -> Vec<ops::ListKind> {
        self.relist_due = None;
        let mut kinds = std::mem::take(&mut self.relist);
        kinds.sort();
        kinds
    }

    /// When the completion held back may be sent: after the pause, and once its field's request
    /// under way (if any) is answered.
    fn complete_at(&self) -> Option<Instant> {
        let (at, ask) = self.complete.as_ref()?;
        (!self.completing.contains(&field_of(ask))).then_some(*at)
    }

    /// The completion to send now, its field counted as under way.
    fn take_complete(&mut self) -> Option<(u64, super::msg::CompletionAsk)> {
        let (_, ask) = self.complete.take()?;
        let field = field_of(&ask);
        self.completing.insert(field);
        Some((field, ask))
    }
}

/// The field a completion is for: its reference and argument, hashed.
fn field_of(ask: &super::msg::CompletionAsk) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match &ask.reference {
        crate::mcp::CompletionRef::Prompt(name) => (0u8, name).hash(&mut h),
        crate::mcp::CompletionRef::Template(uri) => (1u8, uri).hash(&mut h),
    }
    ask.argument.hash(&mut h);
    h.finish()
}

/// Sleeps until `at` (a branch that waits on nothing is disabled by its `if`).
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// The server's requests waiting on the user, by id.
struct Pending {
    rx: mpsc::UnboundedReceiver<ServerAsk>,
    asks: HashMap<String, ServerAsk>,
}

impl Pending {
    fn answer(&mut self, id: &str, answer: Answer) {
        if let Some(ask) = self.asks.remove(id) {
            ask.answer(answer);
        }
    }

    /// The requests the server gave up on, forgotten.
    fn withdrawn(&mut self) -> Vec<String> {
        let ids: Vec<String> = self.asks.iter().filter(|(_, a)| a.withdrawn()).map(|(id, _)| id.clone()).collect();
        for id in &ids {
            self.asks.remove(id);
        }
        ids
    }

    /// Every request, forgotten (the session ended: no answer can reach the server).
    fn drain(&mut self) -> Vec<String> {
        self.asks.drain().map(|(id, _)| id).collect()
    }
}
