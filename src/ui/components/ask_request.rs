//! What a server's request says, in its overlay: an elicitation's message, or a sampling
//! request's messages and settings. Wrapped to the overlay's width and scrolled by pages; when
//! rows are hidden a marker row says how many and which key shows them, so no part of what the
//! server asks is cut silently.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::sanitize;
use crate::ui::fit;
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::theme::{Role, Theme};

pub struct RequestText {
    /// The text made safe, one entry a line.
    lines: Vec<String>,
    /// The lines broken into rows of `width` columns (made again when the width changes).
    rows: Vec<String>,
    width: usize,
    /// The rows the area has, markers included.
    height: usize,
    /// The first row shown.
    top: usize,
    /// The keys named in the markers: a big form takes PageUp/PageDown for its fields, and its
    /// request scrolls with the other keys bound.
    last_keys: bool,
}

impl RequestText {
    /// `text`'s lines (each may hold line breaks; every control character is escaped).
    pub fn new(text: &[String]) -> RequestText {
        let lines = text.iter().flat_map(|t| sanitize::text(t).lines().map(str::to_string).collect::<Vec<_>>());
        RequestText { lines: lines.collect(), rows: vec![], width: 0, height: 1, top: 0, last_keys: false }
    }

    /// Names the second key of each scroll binding (Ctrl-F, not PageDown) in the markers.
    pub fn with_last_keys(mut self) -> RequestText {
        self.last_keys = true;
        self
    }

    /// How many rows the text takes at `width` columns.
    pub fn rows_at(&mut self, width: usize) -> usize {
        self.rewrap(width);
        self.rows.len()
    }

    /// The rows at the width last wrapped to.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// The area it is drawn in, from the layout: the rows are made again for a new width and
    /// the window kept within them.
    pub fn set_area(&mut self, area: Rect) {
        self.rewrap(area.width as usize);
        self.height = (area.height as usize).max(1);
        self.top = self.top.min(self.max_top());
    }

    fn rewrap(&mut self, width: usize) {
        let width = width.max(1);
        if width == self.width && !self.rows.is_empty() {
            return;
        }
        self.width = width;
        self.rows = self.lines.iter().flat_map(|l| wrap(l, width)).collect();
        if self.rows.is_empty() {
            self.rows.push(String::new());
        }
    }

    /// The last first row: the end of the text at the bottom, under the "above" marker.
    fn max_top(&self) -> usize {
        if self.rows.len() <= self.height { 0 } else { self.rows.len() + 1 - self.height }
    }

    /// Page moves, keeping a row of the last page in sight; false for any other command.
    pub fn command(&mut self, cmd: Command) -> bool {
        let page = crate::ui::scroll::page(self.height.saturating_sub(2).max(1));
        match cmd {
            Command::PageDown => self.top = (self.top + page).min(self.max_top()),
            Command::PageUp => self.top = self.top.saturating_sub(page),
            _ => return false,
        }
        true
    }

    /// Rows hidden (above, below) with the window where it is.
    fn hidden(&self) -> (usize, usize) {
        let above = self.top.min(self.rows.len());
        let room = self.height.saturating_sub(usize::from(above > 0));
        let left = self.rows.len() - above;
        let below = if left > room { left - room.saturating_sub(1) } else { 0 };
        (above, below)
    }

    pub fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, style: Style) {
        let (above, below) = self.hidden();
        let key = |cmd: Command| {
            if self.last_keys { keymap::key_last(Scope::Ask, cmd) } else { keymap::key(Scope::Ask, cmd) }
        };
        let marker = |text: String| fit::fit(Line::styled(text, theme.paint(Role::Key)), area.width as usize);
        let mut lines = vec![];
        if above > 0 {
            let word = if above == 1 { "line" } else { "lines" };
            lines.push(marker(format!("↑ {above} {word} above: {}", key(Command::PageUp))));
        }
        let room = (area.height as usize).saturating_sub(lines.len() + usize::from(below > 0));
        lines.extend(self.rows.iter().skip(self.top).take(room).map(|r| Line::styled(r.clone(), style)));
        if below > 0 {
            let more = if below == 1 { "more line" } else { "more lines" };
            lines.push(marker(format!("↓ {below} {more}: {}", key(Command::PageDown))));
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}

/// `line` in rows of at most `width` columns, broken after a space where the row has one (a
/// longer word is cut where the row ends).
fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut rows = vec![];
    let mut row = String::new();
    let mut used = 0;
    for c in line.chars() {
        let w = fit::columns(c);
        if used + w > width && !row.is_empty() {
            let cut = row.rfind(' ').map(|i| i + 1).filter(|&at| at < row.len());
            let rest = cut.map(|at| row.split_off(at)).unwrap_or_default();
            rows.push(std::mem::replace(&mut row, rest));
            used = row.chars().map(fit::columns).sum();
        }
        row.push(c);
        used += w;
    }
    rows.push(row);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_after_spaces_and_cuts_long_words() {
        assert_eq!(wrap("aaa bbb ccc", 7), ["aaa ", "bbb ccc"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("名前名前", 5), ["名前", "名前"]);
        for w in 1..12 {
            for row in wrap("the quick  brown fox jumps", w) {
                assert!(row.chars().map(fit::columns).sum::<usize>() <= w, "{row:?} at {w}");
            }
        }
    }

    fn paged(text: &[&str], width: u16, height: u16) -> RequestText {
        let mut r = RequestText::new(&text.iter().map(|t| t.to_string()).collect::<Vec<_>>());
        r.set_area(Rect::new(0, 0, width, height));
        r
    }

    #[test]
    fn pages_reach_the_last_row_and_stop_there() {
        let lines: Vec<String> = (0..20).map(|i| format!("line {i}")).collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut r = paged(&refs, 20, 5);
        assert_eq!(r.hidden(), (0, 16), "four rows shown, the fifth says what is below");
        for _ in 0..20 {
            r.command(Command::PageDown);
        }
        assert_eq!(r.hidden(), (16, 0), "the end under the marker of what is above");
        assert_eq!(r.rows.get(r.top + 3).map(String::as_str), Some("line 19"));
        for _ in 0..20 {
            r.command(Command::PageUp);
        }
        assert_eq!(r.top, 0);
        // Text that fits has no marker and does not move.
        let mut r = paged(&["one", "two"], 20, 5);
        r.command(Command::PageDown);
        assert_eq!((r.top, r.hidden()), (0, (0, 0)));
    }
}
