//! One server's model and its session worker, started; and where the commands its model
//! returns go. The main loop (`run.rs`) and the servers' strip (`servers/`) both start and
//! drive servers through these.

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::app::App;
use super::msg::{Cmd, Msg};
use super::terminal::osc52;
use super::worker::Worker;
use super::{baseline, component, keymap, mask, theme};
use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;
use crate::envelope::hints::Hints;
use crate::history::History;
use crate::mcp::{ConnectOptions, Target};

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
        let mut warnings = args.root_warnings();
        warnings.extend(args.config_warnings());
        if !warnings.is_empty() {
            app.notice = Some((warnings.join("\n"), true));
        }
        app.copy_source = Some(crate::cli::as_command::CopySource { args: args.clone(), secrets: target.secrets() });
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
    // Only this very binary's demo is the embedded one (not any command given a `demo-server`).
    let label = if *target == Target::demo() { "embedded demo server".to_string() } else { target.label() };
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
