//! The terminal UI: a model (`app`), views (`view`), a keymap, themes, and a worker task that owns
//! the MCP session so the UI never waits on I/O.

pub mod app;
pub mod fuzzy;
pub mod headless;
pub mod keymap;
pub mod schema_view;
pub mod theme;
pub mod view;

use std::io::IsTerminal;
use std::time::Duration;

use crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event, EventStream};
use crossterm::execute;
use futures::StreamExt;
use tokio::sync::mpsc;

use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;
use crate::mcp::wire::ServerEvent;
use crate::mcp::{ConnectOptions, Session, Target};
use app::{App, Cmd, Msg, SessionMsg};

/// Owns the session: connects, lists tools, follows list_changed, reports deaths, reconnects.
async fn worker(
    target: Target,
    options: ConnectOptions,
    mut cmds: mpsc::UnboundedReceiver<Cmd>,
    out: mpsc::UnboundedSender<Msg>,
) {
    let send = |m: SessionMsg| out.send(Msg::Session(m)).is_ok();
    loop {
        if !send(SessionMsg::Connecting) {
            return;
        }
        let session = match Session::connect(&target, options.clone()).await {
            Ok(s) => s,
            Err(e) => {
                if !send(SessionMsg::Failed { error: e.message, log: None }) {
                    return;
                }
                match cmds.recv().await {
                    Some(Cmd::Reconnect) => continue,
                    _ => return,
                }
            }
        };
        match session.list_tools().await {
            Ok(tools) => {
                let log = session.log().clone();
                if !send(SessionMsg::Connected { server: Box::new(session.server.clone()), tools, log }) {
                    session.close().await;
                    return;
                }
            }
            Err(e) => {
                let log = Some(session.log().clone());
                if !send(SessionMsg::Failed { error: e.message, log }) {
                    return;
                }
            }
        }
        let mut events = session.events();
        let child = session.child().cloned();
        let reconnect = loop {
            tokio::select! {
                cmd = cmds.recv() => match cmd {
                    Some(Cmd::Reconnect) => break true,
                    Some(Cmd::Quit) | None => break false,
                },
                ev = events.recv() => match ev {
                    Ok(ServerEvent::ToolListChanged) => {
                        if let Ok(tools) = session.list_tools().await {
                            send(SessionMsg::ToolsRefreshed(tools));
                        }
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => {}
                },
                status = async {
                    match &child {
                        Some(c) => c.exited().await,
                        None => std::future::pending().await,
                    }
                } => {
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
                    match cmds.recv().await {
                        Some(Cmd::Reconnect) => break true,
                        _ => break false,
                    }
                }
            }
        };
        session.close().await;
        if !reconnect {
            return;
        }
    }
}

fn restore_terminal() {
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Runs the TUI until the user quits; returns the exit code.
pub async fn run(target_args: TargetArgs, ui: UiArgs) -> i32 {
    let (target, options) = match (target_args.target(), target_args.connect_options()) {
        (Ok(t), Ok(o)) => (t, o),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("mcplens: error: {}", crate::sanitize::text(&e.message));
            return e.exit_code();
        }
    };
    if !std::io::stdout().is_terminal() {
        eprintln!("mcplens: the TUI needs a terminal; for scripts use `mcplens tools` or `mcplens call` (see --help)");
        return 2;
    }
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (theme, theme_error) = theme::Theme::load(ui.theme.as_deref(), no_color);
    let label = match &target {
        Target::Stdio(s) if s.args.first().map(String::as_str) == Some("demo-server") && s.args.len() == 1 => {
            "embedded demo server".to_string()
        }
        other => other.label(),
    };
    let mut app = App::new(theme, label);
    if let Some(e) = theme_error {
        app.notice = Some((e, true));
    }

    let mut terminal = ratatui::init();
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));

    let (msg_tx, mut msg_rx) = mpsc::unbounded_channel();
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let worker = tokio::spawn(worker(target, options, cmd_rx, msg_tx));
    let mut events = EventStream::new();
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();

    let mut code = 0;
    loop {
        if app.dirty {
            if let Err(e) = terminal.draw(|f| view::draw(f, &mut app)) {
                restore_terminal();
                eprintln!("mcplens: cannot draw: {e}");
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
        let msg = tokio::select! {
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) => Msg::Key(k),
                Some(Ok(Event::Mouse(m))) => Msg::Mouse(m),
                Some(Ok(Event::Resize(..))) => Msg::Resize,
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
        for cmd in app.update(msg) {
            match cmd {
                Cmd::Quit => quit = true,
                other => {
                    let _ = cmd_tx.send(other);
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
