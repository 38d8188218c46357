//! The TUI's main loop: the terminal's events and the worker's messages go into the model, the
//! model's commands go to the worker (or to the terminal: the clipboard, a browser), the screen
//! is drawn again when the model changed.

use std::io::IsTerminal;
use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc;

use super::msg::{Msg, SessionMsg};
use super::servers::Servers;
use super::started::Started;
use super::terminal::{restore_terminal, start_terminal};
use super::{pick, theme};
use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;

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
