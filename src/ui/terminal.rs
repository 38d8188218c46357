//! The terminal the TUI takes over: raw mode, the mouse and bracketed paste on, restored on the
//! way out and on a panic; the clipboard through the terminal.

use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::execute;

/// Puts `text` on the clipboard through the terminal (OSC 52), which works over SSH too.
pub(crate) fn osc52(text: &str) {
    use base64::Engine;
    use std::io::Write;
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "\x1b]52;c;{b64}\x07");
    let _ = out.flush();
}

pub(crate) fn restore_terminal() {
    let _ = execute!(std::io::stdout(), DisableBracketedPaste, DisableMouseCapture);
    ratatui::restore();
}

pub(crate) fn start_terminal() -> ratatui::DefaultTerminal {
    let terminal = ratatui::init();
    // A paste arrives as one event, not as key presses: its line breaks would be Enter and its
    // letters commands wherever no text cursor is.
    let _ = execute!(std::io::stdout(), EnableMouseCapture, EnableBracketedPaste);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
    terminal
}
