//! The terminal UI: a model (`app`), views (`view`), a keymap, themes, and a worker task that owns
//! the MCP session so the UI never waits on I/O.

pub mod app;
pub mod app_marks;
pub mod baseline;
pub mod changes;
pub mod component;
pub mod components;
mod diagnose;
pub mod fit;
pub mod form;
pub mod fuzzy;
pub mod headless;
mod input;
mod items;
pub mod jsonview;
pub mod keymap;
pub mod lint_marks;
pub mod mask;
pub mod ops;
pub mod result;
pub mod saved;
pub mod schema_view;
pub mod scroll;
pub mod textarea;
pub mod theme;
pub mod view;
#[cfg(unix)]
pub mod watch_mode;

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event, EventStream};
use crossterm::execute;
use futures::StreamExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::call::{Call, CallStatus, Purpose};
use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;
use crate::dirs::now_secs;
use crate::envelope::hints::{Hint, Hints};
use crate::history::{Entry, History};
use crate::mcp::wire::ServerEvent;
use crate::mcp::{CallOptions, ConnectOptions, Session, Target};
use app::{App, CallResult, Cmd, Msg, SessionMsg};
use theme::Role;

/// Runs one call: progress and the outcome go to `out`, the history records it. Used by the
/// worker and by the headless driver.
pub async fn run_call(
    session: Arc<Session>,
    history: Arc<Mutex<History>>,
    call: (String, serde_json::Value, Option<serde_json::Value>),
    purpose: Purpose,
    cancel: CancellationToken,
    out: mpsc::UnboundedSender<Msg>,
) {
    run_taught_call(session, history, Arc::default(), call, purpose, cancel, out).await
}

/// The hint the user taught for this session's server and `tool`, if any.
fn hint_for(hints: &Mutex<Hints>, session: &Session, tool: &str) -> Option<Hint> {
    let label = session.target.label();
    let hints = hints.lock().ok()?;
    hints.find(&[session.server.name(), &label], tool).cloned()
}

/// `run_call`, reading the answer with what the user taught.
async fn run_taught_call(
    session: Arc<Session>,
    history: Arc<Mutex<History>>,
    hints: Arc<Mutex<Hints>>,
    call: (String, serde_json::Value, Option<serde_json::Value>),
    purpose: Purpose,
    cancel: CancellationToken,
    out: mpsc::UnboundedSender<Msg>,
) {
    let (tool, arguments, descriptor) = call;
    let hint = hint_for(&hints, &session, &tool);
    let args = arguments.as_object().cloned();
    let c = Call { tool: &tool, arguments: args.as_ref(), descriptor: descriptor.as_ref(), hint: hint.as_ref() };
    let progress_out = out.clone();
    let mut on_progress = move |p: &crate::mcp::Progress| {
        let _ = progress_out.send(Msg::Session(SessionMsg::CallProgress(p.clone())));
    };
    let opts = CallOptions { timeout: None, cancel: Some(cancel) };
    let outcome = c.run(&session, &opts, &mut on_progress).await;
    let (reply, envelope, error) = match outcome.answer {
        Ok(a) => (Some(Arc::new(a.reply)), Some(Arc::new(a.envelope)), None),
        Err(e) => (None, None, Some(e.message)),
    };
    let output_schema = c.output_schema().cloned();
    let result = CallResult { tool, arguments, reply, envelope, output_schema, error, elapsed: outcome.elapsed };
    record(&session, &history, result, (outcome.status, purpose), &out);
}

/// `first` and the messages already waiting behind it (a bounded batch), with each run of
/// progress reports cut to its last: a flood of progress notifications then costs one update and
/// one frame per batch, not one each, and a key waits for at most one batch.
fn with_waiting(first: Msg, rx: &mut mpsc::UnboundedReceiver<Msg>) -> Vec<Msg> {
    const BATCH: usize = 4096;
    let mut batch = vec![first];
    while batch.len() < BATCH {
        let Ok(next) = rx.try_recv() else { break };
        let superseded = matches!(
            (batch.last(), &next),
            (Some(Msg::Session(SessionMsg::CallProgress(_))), Msg::Session(SessionMsg::CallProgress(_)))
                | (Some(Msg::Session(SessionMsg::PagerProgress(..))), Msg::Session(SessionMsg::PagerProgress(..)))
        );
        if superseded {
            batch.pop();
        }
        batch.push(next);
    }
    batch
}

/// Writes a finished call into the history and reports it.
fn record(
    session: &Session,
    history: &Mutex<History>,
    result: CallResult,
    (status, purpose): (CallStatus, Purpose),
    out: &mpsc::UnboundedSender<Msg>,
) {
    let entry = Entry {
        tool: result.tool.clone(),
        arguments: crate::envelope::pager::without_stand_ins(&result.arguments),
        at: now_secs(),
        duration_ms: result.elapsed.as_millis() as u64,
        status,
        purpose,
    };
    if let Ok(mut h) = history.lock() {
        h.append(entry.clone(), session.log().redactor());
    }
    // A call may have logged in again or refreshed the token on the way.
    let _ = out.send(Msg::Session(SessionMsg::Login(session.auth().map(|a| a.state()))));
    let _ = out.send(Msg::Session(SessionMsg::CallDone(Box::new(result), entry)));
}

/// Gathers every page after the known ones and reports one merged result.
pub async fn run_all_pages(
    session: Arc<Session>,
    history: Arc<Mutex<History>>,
    hints: Arc<Mutex<Hints>>,
    call: (String, serde_json::Value, Option<serde_json::Value>),
    // The first page's arguments (what the history records) and the pages already fetched.
    (first, known): (serde_json::Value, Vec<Arc<crate::envelope::Envelope>>),
    cancel: CancellationToken,
    out: mpsc::UnboundedSender<Msg>,
) {
    let (tool, arguments, descriptor) = call;
    if known.is_empty() {
        return;
    }
    let hint = hint_for(&hints, &session, &tool);
    let started = Instant::now();
    let known: Vec<_> = known.iter().map(|e| (**e).clone()).collect();
    let args = arguments.as_object().cloned();
    let c = Call { tool: &tool, arguments: args.as_ref(), descriptor: descriptor.as_ref(), hint: hint.as_ref() };
    let opts = CallOptions { timeout: None, cancel: Some(cancel) };
    let progress_out = out.clone();
    let mut on_page = move |n: &crate::call::PageCount| {
        let _ = progress_out.send(Msg::Session(SessionMsg::PagerProgress(n.pages, n.items, n.total)));
    };
    let (merged, report) = crate::call::all_pages(&session, &c, known, 100, &opts, &mut on_page).await;
    let output_schema = c.output_schema().cloned();
    // The gathered list starts at the first page: its arguments are what a re-run needs.
    let result = CallResult {
        tool,
        arguments: first,
        reply: None,
        envelope: Some(Arc::new(merged)),
        output_schema,
        error: None,
        elapsed: started.elapsed(),
    };
    record(&session, &history, result, (report.status(), Purpose::AllPages), &out);
}

/// Writes an export (mode 0600, redacted) under the state directory; returns its path.
fn export(name: &str, text: &str, redactor: &crate::mcp::log::Redactor) -> Result<std::path::PathBuf, String> {
    ops::write_export(name, "json", redactor.redact(text).as_bytes())
}

/// Saves a taught hint and reads the shown result again with it (what the hint now says, merged
/// with what was taught before for the same tool).
fn teach(hints: &Mutex<Hints>, hint: Hint, call: CallResult, descriptor: Option<serde_json::Value>) -> Vec<SessionMsg> {
    let Ok(mut all) = hints.lock() else { return vec![] };
    let (server, tool) = (hint.server.clone(), hint.tool.clone());
    let what = if hint.records.is_some() { "records" } else { "next position" };
    let argument = hint.argument.clone();
    let path = match all.save(hint) {
        Ok(p) => p,
        Err(e) => return vec![SessionMsg::Notice(format!("the hint was not saved: {e}"))],
    };
    let Some(merged) = all.find(&[&server], &tool).cloned() else { return vec![] };
    drop(all);
    let mut notice = format!("taught: {what} of {tool} (hint saved in {})", path.display());
    if what == "next position" {
        notice.push_str(&match argument {
            Some(a) => format!("; the next page sets {a}"),
            None => "; no input argument looks like a position: add `argument = \"...\"` to the hint".into(),
        });
    }
    let mut msgs = vec![SessionMsg::Notice(notice)];
    if let Some(reply) = &call.reply
        && let Ok(parsed) = crate::mcp::Reply::parse(reply.raw.clone(), reply.elapsed, usize::MAX)
    {
        let env =
            crate::envelope::normalize_taught(&tool, descriptor.as_ref(), parsed.body, parsed.elisions, Some(&merged));
        let mut call = call;
        call.envelope = Some(Arc::new(env));
        msgs.push(SessionMsg::Retaught(Box::new(call)));
    }
    msgs
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

/// Owns the session: connects, lists tools, follows list_changed, runs calls, reports deaths,
/// reconnects.
async fn worker(
    target: Target,
    (options, snapshot): (ConnectOptions, baseline::Source),
    stores: (Arc<Mutex<History>>, Arc<Mutex<Hints>>),
    mut cmds: mpsc::UnboundedReceiver<Cmd>,
    out: mpsc::UnboundedSender<Msg>,
) {
    let (history, hints) = stores;
    let send = |m: SessionMsg| out.send(Msg::Session(m)).is_ok();
    // One log for every session: a reconnect appends to it, so why the server died stays.
    let log = crate::mcp::log::SessionLog::new(options.log_limits, crate::mcp::log::Redactor::new(target.secrets()));
    mask::set(log.redactor().clone());
    let (desk, asks) = crate::mcp::asks::AskDesk::new();
    let mut pending = Pending { rx: asks, asks: HashMap::new() };
    // Login steps go to the status line, never to stderr under the screen.
    let notices = out.clone();
    let mut auth = options.auth.clone();
    auth.notify = Some(Arc::new(move |n| {
        use crate::mcp::auth::{LoginState, Notice};
        let state = match &n {
            Notice::Starting { .. } | Notice::OpenUrl { .. } => Some(LoginState::InProgress),
            Notice::LoggedIn { .. } | Notice::Refreshed | Notice::Failed(_) => None,
        };
        if let Some(st) = state {
            let _ = notices.send(Msg::Session(SessionMsg::Login(Some(st))));
        }
        let _ = notices.send(Msg::Session(SessionMsg::Notice(login_notice(n))));
    }));
    let options = ConnectOptions { log: Some(log.clone()), asks: Some(desk), listen: true, auth, ..options };
    for attempt in 0.. {
        if attempt > 0 {
            log.mark_reconnect("reconnecting: a new session begins");
        }
        if !send(SessionMsg::Connecting) {
            return;
        }
        let session = match Session::connect(&target, options.clone()).await {
            Ok(s) => Arc::new(s),
            Err(e) => {
                if !send(SessionMsg::Failed { error: e.message, log: Some(log.clone()) }) {
                    return;
                }
                diagnose::after_failure(&target, &options, &log, &out);
                loop {
                    match cmds.recv().await {
                        Some(Cmd::Reconnect) => break,
                        Some(Cmd::Call { .. }) => {
                            send(SessionMsg::Notice(keymap::not_connected_note()));
                        }
                        Some(Cmd::AllPages { .. }) => {
                            send(SessionMsg::Notice(keymap::not_connected_note()));
                        }
                        Some(Cmd::Export { name, text }) => {
                            let redactor = crate::mcp::log::Redactor::new(target.secrets());
                            send(SessionMsg::Notice(match export(&name, &text, &redactor) {
                                Ok(p) => format!("exported to {}", p.display()),
                                Err(e) => e,
                            }));
                        }
                        Some(Cmd::Teach { hint, call, descriptor }) => {
                            for m in teach(&hints, hint, *call.0, descriptor) {
                                send(m);
                            }
                        }
                        Some(Cmd::Save { name, content, index }) => {
                            let redactor = crate::mcp::log::Redactor::new(target.secrets());
                            send(SessionMsg::Notice(ops::save_content(&name, &content, index, &redactor)));
                        }
                        Some(Cmd::SaveCall { file, call }) => {
                            for m in saved::save(&file, &call, log.redactor()) {
                                send(m);
                            }
                        }
                        Some(Cmd::LoadCollection(file)) => {
                            send(saved::load(&file));
                        }
                        Some(cmd)
                            if ops::serves(&cmd)
                                || matches!(
                                    cmd,
                                    Cmd::Tasks | Cmd::CancelTask(_) | Cmd::SetRoots(_) | Cmd::RunSaved(_)
                                ) =>
                        {
                            send(SessionMsg::Notice("not connected: R reconnects".into()));
                        }
                        Some(Cmd::Cancel) | Some(Cmd::Copy(_)) | Some(Cmd::OpenUrl(_)) | Some(Cmd::Answer { .. }) => {}
                        Some(Cmd::Quit) | None => return,
                        Some(_) => {}
                    }
                }
                continue;
            }
        };
        let known = Arc::new(Mutex::new(ops::Known::default()));
        // Read again at each connect: a snapshot written meanwhile counts after R.
        let base = match snapshot.load() {
            Ok(b) => b.map(Arc::new),
            Err(e) => {
                send(SessionMsg::Compared(Err(e)));
                None
            }
        };
        if let Ok(mut k) = known.lock() {
            k.baseline = base.clone();
        }
        // Heard from before the first listing: a list_changed during it is not lost (it is read
        // again, once per burst).
        let mut events = session.events();
        match session.list_tools().await {
            Ok(tools) => {
                if let Ok(mut k) = known.lock() {
                    k.replace("tools", ops::tool_entries(&tools));
                }
                let offered = ops::offered(&session.server);
                tokio::spawn(ops::relist(session.clone(), offered, false, known.clone(), out.clone()));
                let log = session.log().clone();
                send(SessionMsg::Login(session.auth().map(|a| a.state())));
                let compared = base.map(|b| b.compare(&session.server, &tools));
                if !send(SessionMsg::Connected { server: Box::new(session.server.clone()), tools, log }) {
                    session.close().await;
                    return;
                }
                if let Some(c) = compared {
                    send(SessionMsg::Compared(Ok(Arc::new(c))));
                }
            }
            Err(e) => {
                let log = Some(session.log().clone());
                if !send(SessionMsg::Failed { error: e.message, log }) {
                    return;
                }
            }
        }
        let child = session.child().cloned();
        let mut current: Option<CancellationToken> = None;
        let mut dead = false;
        let mut waiting = Waiting::default();
        let reconnect = loop {
            let relist_at = waiting.relist_at();
            let complete_at = waiting.complete_at();
            tokio::select! {
                _ = sleep_until(relist_at), if relist_at.is_some() => {
                    let kinds = waiting.take_relist();
                    tokio::spawn(ops::relist(session.clone(), kinds, true, known.clone(), out.clone()));
                },
                _ = sleep_until(complete_at), if complete_at.is_some() => {
                    if let Some(ask) = waiting.complete.take() {
                        tokio::spawn(ops::carry_out(session.clone(), Cmd::Complete(ask.1), out.clone()));
                    }
                },
                cmd = cmds.recv() => match cmd {
                    Some(Cmd::Reconnect) => break true,
                    Some(Cmd::Quit) | None => break false,
                    Some(Cmd::Call { tool, arguments, descriptor, purpose }) => {
                        let cancel = CancellationToken::new();
                        current = Some(cancel.clone());
                        tokio::spawn(run_taught_call(session.clone(), history.clone(), hints.clone(), (tool, arguments, descriptor), purpose, cancel, out.clone()));
                    }
                    Some(Cmd::AllPages { tool, arguments, first, descriptor, known }) => {
                        let cancel = CancellationToken::new();
                        current = Some(cancel.clone());
                        tokio::spawn(run_all_pages(session.clone(), history.clone(), hints.clone(), (tool, arguments, descriptor), (first, known), cancel, out.clone()));
                    }
                    Some(Cmd::Cancel) => {
                        if let Some(c) = current.take() {
                            c.cancel();
                        }
                    }
                    Some(Cmd::Export { name, text }) => {
                        send(SessionMsg::Notice(match export(&name, &text, session.log().redactor()) {
                            Ok(p) => format!("exported to {}", p.display()),
                            Err(e) => e,
                        }));
                    }
                    Some(Cmd::Teach { hint, call, descriptor }) => {
                        for m in teach(&hints, hint, *call.0, descriptor) {
                            send(m);
                        }
                    }
                    Some(Cmd::Answer { id, answer }) => pending.answer(&id, answer),
                    Some(Cmd::SaveCall { file, call }) => {
                        for m in saved::save(&file, &call, log.redactor()) {
                            send(m);
                        }
                    }
                    Some(Cmd::LoadCollection(file)) => {
                        send(saved::load(&file));
                    }
                    Some(Cmd::RunSaved(calls)) => {
                        let cancel = CancellationToken::new();
                        current = Some(cancel.clone());
                        tokio::spawn(saved::run(session.clone(), (history.clone(), hints.clone()), calls, cancel, out.clone()));
                    }
                    // Typing asks at each key: only the last ask after a pause is sent.
                    Some(Cmd::Complete(ask)) => waiting.complete = Some((Instant::now() + COMPLETE_PAUSE, ask)),
                    Some(cmd) if ops::serves(&cmd) => {
                        tokio::spawn(ops::carry_out(session.clone(), cmd, out.clone()));
                    }
                    Some(cmd @ (Cmd::Tasks | Cmd::CancelTask(_) | Cmd::SetRoots(_))) => {
                        tokio::spawn(session_cmd(session.clone(), cmd, out.clone()));
                    }
                    Some(_) => {}
                },
                ask = pending.rx.recv() => if let Some(ask) = ask {
                    send(SessionMsg::Asked(ask.view()));
                    pending.asks.insert(ask.id.clone(), ask);
                },
                ev = events.recv() => match ev {
                    Ok(ServerEvent::ToolListChanged) => waiting.relist(ops::ListKind::Tools),
                    Ok(ServerEvent::ResourceListChanged) => waiting.relist(ops::ListKind::Resources),
                    Ok(ServerEvent::PromptListChanged) => waiting.relist(ops::ListKind::Prompts),
                    Ok(ServerEvent::ResourceUpdated { uri }) => {
                        send(SessionMsg::ResourceUpdated(uri));
                    }
                    // Notifications were lost: every list may have changed.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        for kind in ops::ListKind::ALL {
                            waiting.relist(kind);
                        }
                    }
                    Ok(ServerEvent::Asking(false)) => {
                        for id in pending.withdrawn() {
                            send(SessionMsg::AskWithdrawn(id));
                        }
                    }
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => {}
                },
                status = async {
                    match &child {
                        Some(c) => c.exited().await,
                        None => std::future::pending().await,
                    }
                }, if !dead => {
                    dead = true;
                    let tail = session.log().tail(crate::mcp::log::LogKind::Stderr, 8);
                    let mut reason = format!(
                        "the server exited ({})",
                        status.map(|s| crate::mcp::stdio::describe_status(&s)).unwrap_or_else(|| "status unknown".into())
                    );
                    if !tail.is_empty() {
                        reason.push_str("\nlast lines of its stderr:");
                        for l in tail {
                            reason.push_str("\n  ");
                            reason.push_str(&l);
                        }
                    }
                    send(SessionMsg::Closed { reason });
                }
            }
        };
        session.close().await;
        for id in pending.drain() {
            send(SessionMsg::AskWithdrawn(id));
        }
        if !reconnect {
            return;
        }
    }
}

/// How long after a `list_changed` the lists are read again: a burst (server-everything sends
/// four `tools/list_changed` as it starts) is read once.
const RELIST_PAUSE: Duration = Duration::from_millis(120);

/// How long typing must pause before a `completion/complete` is sent.
const COMPLETE_PAUSE: Duration = Duration::from_millis(150);

/// Work the worker holds back a moment: lists to read again, the last completion asked for.
#[derive(Default)]
struct Waiting {
    relist: Vec<ops::ListKind>,
    /// Set by the first notification of a burst: a steady stream still re-lists.
    relist_due: Option<Instant>,
    complete: Option<(Instant, ops::CompletionAsk)>,
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

    fn complete_at(&self) -> Option<Instant> {
        self.complete.as_ref().map(|(at, _)| *at)
    }
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
    rx: mpsc::UnboundedReceiver<crate::mcp::asks::ServerAsk>,
    asks: HashMap<String, crate::mcp::asks::ServerAsk>,
}

impl Pending {
    fn answer(&mut self, id: &str, answer: crate::mcp::asks::Answer) {
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

/// Puts `text` on the clipboard through the terminal (OSC 52), which works over SSH too.
fn osc52(text: &str) {
    use base64::Engine;
    use std::io::Write;
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "\x1b]52;c;{b64}\x07");
    let _ = out.flush();
}

pub(crate) fn restore_terminal() {
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
}

pub(crate) fn start_terminal() -> ratatui::DefaultTerminal {
    let terminal = ratatui::init();
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
    terminal
}

fn restore_if(terminal: &Option<ratatui::DefaultTerminal>) {
    if terminal.is_some() {
        restore_terminal();
    }
}

/// The servers of the `--config` file when it lists more than one and `--server` names none.
fn several_servers(args: &TargetArgs) -> Option<Vec<crate::mcp::config::Choice>> {
    let path = args.config.as_ref().filter(|_| args.server.is_none())?;
    crate::mcp::config::choices(path).ok().filter(|c| c.len() > 1)
}

/// The target and options `args` name, once its command is known to start.
fn startable(args: &TargetArgs) -> crate::error::Result<(Target, crate::mcp::ConnectOptions)> {
    let (target, options) = (args.target()?, args.connect_options()?);
    if let Target::Stdio(s) = &target {
        crate::mcp::stdio::check_command(s)?;
    }
    Ok((target, options))
}

/// Shows the config's servers until one is chosen (its name) or the user quits (`None`);
/// `(last, problem)`: the entry picked before and why it could not start.
async fn pick_server(
    terminal: &mut ratatui::DefaultTerminal,
    theme: &theme::Theme,
    args: &TargetArgs,
    choices: Vec<crate::mcp::config::Choice>,
    (last, problem): (Option<String>, Option<String>),
) -> Option<String> {
    use component::{Action, Component, Ctx, Effect};
    let file = args.config.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let names: Vec<String> = choices.iter().map(|c| c.name.clone()).collect();
    let mut picker = components::picker::Picker::servers(&file, choices);
    if let Some(i) = last.and_then(|l| names.iter().position(|n| *n == l)) {
        picker.select(i);
    }
    let mut notice = problem.map(|p| {
        let name = names.get(picker.cursor()).map_or("", String::as_str);
        let why = p.strip_prefix("cannot start the server: ").unwrap_or(&p);
        crate::sanitize::line(&format!("{name} cannot start: {why}")).into_owned()
    });
    let mut events = EventStream::new();
    loop {
        let drawn = terminal.draw(|f| {
            let area = f.area();
            f.render_widget(ratatui::widgets::Block::default().style(theme.base()), area);
            let (w, h) = picker.overlay_size(area);
            let r = view::centered(area, w, h);
            picker.draw(f, r, theme, true);
            if let Some(n) = &notice {
                let line = ratatui::layout::Rect { y: area.bottom().saturating_sub(1), height: 1, ..area };
                f.render_widget(ratatui::widgets::Paragraph::new(n.as_str()).style(theme.paint(Role::Error)), line);
            }
        });
        if drawn.is_err() {
            return None;
        }
        let key = match events.next().await {
            Some(Ok(Event::Key(k))) if k.kind != crossterm::event::KeyEventKind::Release => k,
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        };
        let mut cx = Ctx::new(theme);
        let used = picker.key(&key, &mut cx).yes()
            || keymap::lookup(&key, picker.scope()).is_some_and(|c| picker.command(c, &mut cx).yes());
        if !used && matches!(keymap::lookup(&key, picker.scope()), Some(keymap::Command::Quit | keymap::Command::Back))
        {
            return None;
        }
        for e in cx.effects {
            match e {
                Effect::App(Action::Connect(i)) => return names.get(i).cloned(),
                Effect::Notice(n, _) => notice = Some(crate::sanitize::line(&n).into_owned()),
                _ => {}
            }
        }
    }
}

/// Runs the TUI until the user quits; returns the exit code.
pub async fn run(mut target_args: TargetArgs, ui: UiArgs) -> i32 {
    let no_color = !crate::cli::output::color_wanted(true);
    let (theme, theme_error) = theme::Theme::load(ui.theme.as_deref(), no_color);
    // A config file with several servers and no --server: the user picks one on screen; one
    // that cannot start says why and the picker comes back.
    let mut terminal = None;
    let picking = several_servers(&target_args);
    let mut problem = None;
    let (target, options) = loop {
        if let Some(choices) = &picking {
            if !std::io::stdout().is_terminal() {
                crate::cli::output::err_line(
                    "mcplens: the config file has several servers; pick one with --server NAME",
                );
                return 2;
            }
            let term = terminal.get_or_insert_with(start_terminal);
            let last = target_args.server.take();
            match pick_server(term, &theme, &target_args, choices.clone(), (last, problem.take())).await {
                Some(name) => target_args.server = Some(name),
                None => {
                    restore_terminal();
                    return 0;
                }
            }
        }
        match startable(&target_args) {
            Ok(found) => break found,
            Err(e) if picking.is_some() => problem = Some(e.message),
            Err(e) => {
                restore_if(&terminal);
                crate::cli::output::err_line(&format!("mcplens: error: {}", crate::sanitize::text(&e.message)));
                return e.exit_code();
            }
        }
    };
    if !std::io::stdout().is_terminal() {
        crate::cli::output::err_line(
            "mcplens: the TUI needs a terminal; for scripts use `mcplens tools` or `mcplens call` (see --help)",
        );
        return 2;
    }
    let label = match &target {
        Target::Stdio(s) if s.args.first().map(String::as_str) == Some("demo-server") && s.args.len() == 1 => {
            "embedded demo server".to_string()
        }
        other => other.label(),
    };
    let mut app = App::new(theme, label);
    if let Some(c) = &ui.collection {
        app.collection_file = c.clone();
    }
    app.observe(&component::Observed::Roots(&options.roots));
    let history = History::open(&target.label());
    if let Some(p) = &history.problem {
        app.notice = Some((format!("history: {p}"), true));
    }
    app.history = history.clone();
    let history = Arc::new(Mutex::new(history));
    if let Some(e) = theme_error {
        app.notice = Some((e, true));
    }
    if let Some(e) = keymap::init(ui.keymap.as_deref()) {
        app.notice = Some((e, true));
    }

    let mut terminal = match terminal {
        Some(t) => t,
        None => start_terminal(),
    };
    if let Ok(size) = terminal.size() {
        app.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height));
    }

    let (msg_tx, mut msg_rx) = mpsc::unbounded_channel();
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let mut hints = Hints::load_default(target_args.project_dir().as_deref());
    hints.aliases = target_args.server_names();
    for p in &hints.problems {
        app.notice = Some((format!("hints: {p} (the built-in heuristics go on)"), true));
    }
    let hints = Arc::new(Mutex::new(hints));
    let server_cwd = match &target {
        Target::Stdio(s) => s.cwd.clone(),
        Target::Http(_) => None,
    };
    let snapshot = baseline::Source::new(ui.snapshot.clone(), server_cwd.as_deref(), target_args.config.as_deref());
    let worker = tokio::spawn(worker(target, (options, snapshot), (history, hints), cmd_rx, msg_tx));
    let mut events = EventStream::new();
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();

    let mut code = 0;
    loop {
        if app.dirty {
            if let Err(e) = terminal.draw(|f| view::draw(f, &app)) {
                restore_terminal();
                crate::cli::output::err_line(&format!("mcplens: cannot draw: {e}"));
                code = 3;
                break;
            }
            app.dirty = false;
        }
        let tick = app.tick_every();
        #[cfg(unix)]
        let terminated = async {
            match term.as_mut() {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminated = std::future::pending::<()>();
        // Keys first: under a flood of server messages the user can still cancel or quit.
        let msg = tokio::select! {
            biased;
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) => Msg::Key(k),
                Some(Ok(Event::Mouse(m))) => Msg::Mouse(m),
                Some(Ok(Event::Resize(w, h))) => {
                    app.resize(ratatui::layout::Rect::new(0, 0, w, h));
                    continue;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => break,
            },
            m = msg_rx.recv() => match m {
                Some(m) => m,
                None => continue,
            },
            _ = tokio::time::sleep(tick.unwrap_or(Duration::from_secs(3600))), if tick.is_some() => Msg::Tick,
            _ = terminated => break,
        };
        let mut quit = false;
        for msg in with_waiting(msg, &mut msg_rx) {
            for cmd in app.update(msg) {
                match cmd {
                    Cmd::Quit => quit = true,
                    Cmd::Copy(text) => osc52(&mask::text(&text)),
                    Cmd::OpenUrl(url) => {
                        if let Err(e) = crate::opener::open_url(&url) {
                            app.notice = Some((format!("not opened: {e}"), true));
                        }
                    }
                    other => {
                        let _ = cmd_tx.send(other);
                    }
                }
            }
        }
        if quit || app.quit {
            code = 0;
            break;
        }
    }
    let _ = cmd_tx.send(Cmd::Quit);
    drop(cmd_tx);
    restore_terminal();
    let _ = tokio::time::timeout(Duration::from_secs(3), worker).await;
    code
}

/// The worker's small session commands: the task list, a task cancelled, the roots changed.
/// Each ends with a message for the app.
pub(crate) async fn session_cmd(session: Arc<Session>, cmd: Cmd, out: mpsc::UnboundedSender<Msg>) {
    let msg = match cmd {
        Cmd::Tasks => SessionMsg::Tasks(session.session_tasks()),
        Cmd::CancelTask(id) => {
            SessionMsg::Notice(match session.cancel_task(&id, &crate::mcp::CallOptions::default()).await {
                Ok(t) => crate::sanitize::line(&t.line()).into_owned(),
                Err(e) => format!("tasks/cancel {}: {}", crate::sanitize::line(&id), e.message),
            })
        }
        Cmd::SetRoots(roots) => {
            let n = roots.len();
            SessionMsg::Notice(match session.set_roots(roots).await {
                Ok(()) => format!("{n} root{} offered now; the server was told", if n == 1 { "" } else { "s" }),
                Err(e) => format!("roots changed here, but {e}"),
            })
        }
        _ => return,
    };
    let _ = out.send(Msg::Session(msg));
}
