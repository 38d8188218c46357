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
use super::terminal::{osc52, restore_terminal, start_terminal};
use super::worker::Worker;
use super::{baseline, component, keymap, mask, pick, theme, view};
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
    let (mut app, history) = model(theme, theme_error, (&target, &options), &ui);
    let hints = hints(&args, &mut app);
    app.copy_source = Some(super::copy_as::CopySource { args: args.clone(), secrets: target.secrets() });
    let mut terminal = terminal.unwrap_or_else(start_terminal);
    if let Ok(size) = terminal.size() {
        app.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height));
    }
    let (msg_tx, msg_rx) = mpsc::unbounded_channel();
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let server_cwd = match &target {
        Target::Stdio(s) => s.cwd.clone(),
        Target::Http(_) => None,
    };
    let snapshot = baseline::Source::new(ui.snapshot.clone(), server_cwd.as_deref(), args.config.as_deref());
    let worker = Worker::new(target, (options, snapshot), (history, hints), cmd_rx, msg_tx);
    let worker = tokio::spawn(worker.run());
    let code = event_loop(&mut terminal, &mut app, msg_rx, &cmd_tx).await;
    let _ = cmd_tx.send(Cmd::Quit);
    drop(cmd_tx);
    restore_terminal();
    let _ = tokio::time::timeout(Duration::from_secs(3), worker).await;
    code
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
    app: &mut App,
    mut msg_rx: mpsc::UnboundedReceiver<Msg>,
    cmd_tx: &mpsc::UnboundedSender<Cmd>,
) -> i32 {
    let mut events = EventStream::new();
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    loop {
        if app.dirty {
            if let Err(e) = terminal.draw(|f| view::draw(f, app)) {
                restore_terminal();
                crate::cli::output::err_line(&format!("mcplens: cannot draw: {e}"));
                return 3;
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
                Some(Ok(Event::Paste(text))) => Msg::Paste(text),
                Some(Ok(Event::Mouse(m))) => Msg::Mouse(m),
                Some(Ok(Event::Resize(w, h))) => {
                    app.resize(ratatui::layout::Rect::new(0, 0, w, h));
                    continue;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return 0,
            },
            m = msg_rx.recv() => match m {
                Some(m) => m,
                None => continue,
            },
            _ = tokio::time::sleep(tick.unwrap_or(Duration::from_secs(3600))), if tick.is_some() => Msg::Tick,
            _ = terminated => return 0,
        };
        if update(app, with_waiting(msg, &mut msg_rx), cmd_tx) {
            return 0;
        }
    }
}

/// Feeds a batch of messages to the model and carries out its commands; true when it quits.
fn update(app: &mut App, batch: Vec<Msg>, cmd_tx: &mpsc::UnboundedSender<Cmd>) -> bool {
    let mut quit = false;
    for msg in batch {
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
    quit || app.quit
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
