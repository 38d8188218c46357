//! Secrets off the screen: the one place every string the TUI draws passes is the frame's
//! buffer, so each frame is checked there, row by row, after every pane and overlay has drawn
//! and before the terminal is written. A server that echoes the bearer token (`--client-
//! credentials`) or an `-e` value back has it masked in every view (Envelope, Split, Raw, the
//! value overlay, the log pane, a form, the title), as `mcplens call` masks it on stdout. The
//! clipboard (OSC 52) is masked through [`text`].
//!
//! A secret drawn cut short (a narrow column, a wrapped line) is masked too: a run of at least
//! [`PARTIAL`] of its first or last bytes counts (a shorter remnant stays visible).

use std::borrow::Cow;
use std::sync::RwLock;

use ratatui::buffer::Buffer;

use crate::mcp::log::Redactor;

/// A secret's first or last this many bytes, drawn with the rest cut off (a column too narrow,
/// a line wrapped), are masked as the whole secret is.
const PARTIAL: usize = 8;

/// The session's secrets (`-e` values, header values, learned tokens).
static REDACTOR: RwLock<Option<Redactor>> = RwLock::new(None);

/// The secrets to mask from now on (a new target brings its own).
pub fn set(redactor: Redactor) {
    *REDACTOR.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(redactor);
}

fn with<R>(f: impl FnOnce(&Redactor) -> R) -> R {
    let held = REDACTOR.read().unwrap_or_else(std::sync::PoisonError::into_inner);
    // Without a target's secrets, tokens learned while running are still masked.
    match held.as_ref() {
        Some(r) => f(r),
        None => f(&Redactor::default()),
    }
}

/// `s` with every secret masked (for the clipboard).
pub fn text(s: &str) -> Cow<'_, str> {
    with(|r| match r.redact(s) {
        Cow::Borrowed(_) => Cow::Borrowed(s),
        Cow::Owned(o) => Cow::Owned(o),
    })
}

/// Masks every secret drawn in `buf`: each cell of an occurrence becomes `*`.
pub fn buffer(buf: &mut Buffer) {
    with(|r| {
        if r.is_empty() {
            return;
        }
        let area = buf.area;
        for y in area.top()..area.bottom() {
            mask_row(buf, r, y);
        }
    });
}

fn mask_row(buf: &mut Buffer, r: &Redactor, y: u16) {
    let area = buf.area;
    // The row's text, and for each byte the cell it came from.
    let mut row = String::new();
    let mut cell_of: Vec<u16> = vec![];
    for x in area.left()..area.right() {
        let symbol = buf[(x, y)].symbol();
        row.push_str(symbol);
        cell_of.extend(std::iter::repeat_n(x, symbol.len()));
    }
    for range in r.partial_ranges(&row, PARTIAL) {
        let (Some(&first), Some(&last)) = (cell_of.get(range.start), cell_of.get(range.end.saturating_sub(1))) else {
            continue;
        };
        for x in first..=last {
            buf[(x, y)].set_symbol("*");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn a_secret_drawn_anywhere_in_a_row_is_starred() {
        let r = Redactor::new(["sk-live-9f8e7d".to_string()]);
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 2));
        buf.set_string(2, 0, "token: sk-live-9f8e7d ok", ratatui::style::Style::default());
        buf.set_string(0, 1, "日本 sk-live-9f8e7d", ratatui::style::Style::default());
        for y in 0..2 {
            mask_row(&mut buf, &r, y);
        }
        let row = |y: u16| (0..40).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>();
        assert_eq!(row(0).trim_end(), "  token: ************** ok");
        assert!(row(1).contains("**************") && !row(1).contains("sk-live"), "{}", row(1));
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 1));
        buf.set_string(0, 0, "│ \"sk-live-9f8│ x", ratatui::style::Style::default());
        mask_row(&mut buf, &r, 0);
        let row = (0..20).map(|x| buf[(x, 0)].symbol().to_string()).collect::<String>();
        assert_eq!(row.trim_end(), "│ \"***********│ x");
    }
}
