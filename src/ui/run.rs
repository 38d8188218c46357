//! The TUI's main loop: the terminal's events and the worker's messages go into the model, the
//! model's commands go to the worker (or to the terminal: the clipboard, a browser), the screen
//! is drawn again when the model changed.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc;

use super::app::App;
use super::msg::{Cmd, Msg, SessionMsg};
use super::servers::Servers;
use super::terminal::{osc52, restore_terminal, start_terminal};
use super::worker::Worker;
use super::{baseline, component, keymap, mask, pick, theme};
use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;
use crate::envelope::hints::Hints;
use crate::history::History;
use crate::mcp::{ConnectOptions, Target};

/// Runs the TUI until the user quits; returns the exit code.
pub async fn run(target_args: TargetArgs, ui: UiArgs) -> i32 {
    let no_color = !crate::cli::output::color_wanted(true);
    let (theme, theme_error) = theme::Theme::load(ui.theme.as_deref(), no_color);
    let pick::Chosen { args, target, options, terminal } = match pick::chosen(target_args, &theme).await {
        Ok(c) => c,
        Err(code) => return code,
    };
    if !std::io::stdout().is_terminal() {
        crate::cli::output::err_line(
            "mcplens: the TUI needs a terminal; for scripts use `mcplens tools` or `mcplens call` (see --help)",
        );
        return 2;
    }
    let mut terminal = terminal.unwrap_or_else(start_terminal);
    let (msg_tx, msg_rx) = mpsc::unbounded_channel();
    let first = Started::new((theme.clone(), theme_error), (&args, target, options), &ui);
    let mut servers = Servers::new(first, (args, ui), theme, msg_tx);
    if let Ok(size) = terminal.size() {
        servers.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height));
    }
    let code = event_loop(&mut terminal, &mut servers, msg_rx).await;
    let workers = servers.quit_all();
    restore_terminal();
    let _ = tokio::time::timeout(Duration::from_secs(3), futures::future::join_all(workers)).await;
    code
}

/// One server's model and its session worker, started.
pub(super) struct Started {
    pub app: App,
    pub cmd_tx: mpsc::UnboundedSender<Cmd>,
    pub msg_rx: mpsc::UnboundedReceiver<Msg>,
    pub worker: tokio::task::JoinHandle<()>,
}

impl Started {
    /// Starts the session with `target` (which `args` name), its model told what went wrong
    /// reading the theme, keymap or history.
    pub(super) fn new(
        (theme, theme_error): (theme::Theme, Option<String>),
        (args, target, options): (&TargetArgs, Target, ConnectOptions),
        ui: &UiArgs,
    ) -> Started {
        let (mut app, history) = model(theme, theme_error, (&target, &options), ui);
        let hints = hints(args, &mut app);
        app.copy_source = Some(super::copy_as::CopySource { args: args.clone(), secrets: target.secrets() });
        let (msg_tx, msg_rx) = mpsc::unbounded_channel();
        let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
        let server_cwd = match &target {
            Target::Stdio(s) => s.cwd.clone(),
            Target::Http(_) => None,
        };
        let snapshot = baseline::Source::new(ui.snapshot.clone(), server_cwd.as_deref(), args.config.as_deref());
        let worker = Worker::new(target, (options, snapshot), (history, hints), cmd_rx, msg_tx);
        Started { app, cmd_tx, msg_rx, worker: tokio::spawn(worker.run()) }
    }
}

/// The model for `target`, with what went wrong reading the theme, keymap or history in its
/// status line; and the history the worker writes to.
fn model(
    theme: theme::Theme,
    theme_error: Option<String>,
    (target, options): (&Target, &ConnectOptions),
    ui: &UiArgs,
) -> (App, Arc<Mutex<History>>) {
    let label = match target {
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
    if let Some(e) = theme_error {
        app.notice = Some((e, true));
    }
    if let Some(e) = keymap::init(ui.keymap.as_deref()) {
        app.notice = Some((e, true));
    }
    (app, Arc::new(Mutex::new(history)))
}

/// The hints taught for this project and the user's; a hints file that cannot be read is a
/// warning in the status line.
fn hints(args: &TargetArgs, app: &mut App) -> Arc<Mutex<Hints>> {
    let mut hints = Hints::load_default(args.project_dir().as_deref());
    hints.aliases = args.server_names();
    for p in &hints.problems {
        app.notice = Some((format!("hints: {p} (the built-in heuristics go on)"), true));
    }
    Arc::new(Mutex::new(hints))
}

/// Draws, waits for the next event or message, updates; until the user quits (0), the terminal
/// goes away or cannot be drawn on (3).
async fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    servers: &mut Servers,
    mut msg_rx: mpsc::UnboundedReceiver<(u64, Msg)>,
) -> i32 {
    let mut events = EventStream::new();
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    loop {
        if servers.dirty() {
            if let Err(e) = terminal.draw(|f| servers.draw(f)) {
                restore_terminal();
                crate::cli::output::err_line(&format!("mcplens: cannot draw: {e}"));
                return 3;
            }
            servers.drawn();
        }
        let tick = servers.tick_every();
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
        let batch = tokio::select! {
            biased;
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) => vec![(None, Msg::Key(k))],
                Some(Ok(Event::Paste(text))) => vec![(None, Msg::Paste(text))],
                Some(Ok(Event::Mouse(m))) => vec![(None, Msg::Mouse(m))],
                Some(Ok(Event::Resize(w, h))) => {
                    servers.resize(ratatui::layout::Rect::new(0, 0, w, h));
                    continue;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return 0,
            },
            m = msg_rx.recv() => match m {
                Some(m) => with_waiting(m, &mut msg_rx),
                None => continue,
            },
            _ = tokio::time::sleep(tick.unwrap_or(Duration::from_secs(3600))), if tick.is_some() => {
                vec![(None, Msg::Tick)]
            }
            _ = terminated => return 0,
        };
        if servers.update(batch) {
            return 0;
        }
    }
}

/// Carries out the commands of one server's model: the terminal's own (the clipboard, a
/// browser) here, the rest by its worker; true when the model quits.
pub(super) fn carry_out(app: &mut App, cmds: Vec<Cmd>, cmd_tx: &mpsc::UnboundedSender<Cmd>) -> bool {
    let mut quit = false;
    for cmd in cmds {
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
    quit || app.quit
}

/// `first` and the messages already waiting behind it (a bounded batch, each tagged with the
/// server it came from), with each server's run of progress reports cut to its last: a flood of
/// progress notifications then costs one update and one frame per batch, not one each, and a key
/// waits for at most one batch.
fn with_waiting(first: (u64, Msg), rx: &mut mpsc::UnboundedReceiver<(u64, Msg)>) -> Vec<(Option<u64>, Msg)> {
    const BATCH: usize = 4096;
    let mut batch = vec![(Some(first.0), first.1)];
    while batch.len() < BATCH {
        let Ok((from, next)) = rx.try_recv() else { break };
        let superseded = batch.last().is_some_and(|(id, last)| {
            *id == Some(from)
                && matches!(
                    (last, &next),
                    (Msg::Session(SessionMsg::CallProgress(_)), Msg::Session(SessionMsg::CallProgress(_)))
                        | (Msg::Session(SessionMsg::PagerProgress(..)), Msg::Session(SessionMsg::PagerProgress(..)))
                )
        });
        if superseded {
            batch.pop();
        }
        batch.push((Some(from), next));
    }
    batch
}
