//! What a server's request says, in its overlay: an elicitation's message, or a sampling
//! request's messages and settings. Wrapped to the overlay's width and scrolled by pages; when
//! rows are hidden a marker row says how many and which key shows them, so no part of what the
//! server asks is cut silently.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
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

/// `line` in rows of at most `width` columns, as a pager shows it: broken after a space, a
/// word that fits a row going to the next row whole; a word longer than a whole row goes on
/// where the row stands and is broken where each row ends. Nothing is left out but the one
/// space a break falls on; a character is never split from its combining marks, and a wide
/// character that does not fit in what is left of a row starts the next one.
fn wrap(line: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = Rows { rows: vec![], row: String::new(), used: 0, width };
    for word in line.split_inclusive(' ') {
        let w = columns(word.trim_end_matches(' '));
        if w <= width && rows.used + w > width {
            rows.push();
        }
        let span = Span::raw(word);
        for g in span.styled_graphemes(Style::default()) {
            rows.add(g.symbol);
        }
    }
    rows.rows.push(rows.row);
    rows.rows
}

/// The rows made so far and the one being filled.
struct Rows {
    rows: Vec<String>,
    row: String,
    /// The columns `row` takes.
    used: usize,
    width: usize,
}

impl Rows {
    /// Ends the row being filled (if anything is in it).
    fn push(&mut self) {
        if !self.row.is_empty() {
            self.rows.push(std::mem::take(&mut self.row));
            self.used = 0;
        }
    }

    /// One grapheme, on this row or, past its end, the next (a space at the break is dropped).
    fn add(&mut self, g: &str) {
        let w = columns(g);
        if self.used + w > self.width && !self.row.is_empty() {
            self.push();
            if g == " " {
                return;
            }
        }
        self.row.push_str(g);
        self.used += w;
    }
}

/// The columns `s` takes on screen, grapheme by grapheme, as a row is drawn.
fn columns(s: &str) -> usize {
    Span::raw(s).styled_graphemes(Style::default()).map(|g| Span::raw(g.symbol).width()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_after_spaces_and_cuts_long_words() {
        assert_eq!(wrap("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
        assert_eq!(wrap("aaa bbb ccc", 6), ["aaa ", "bbb ", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("名前名前", 5), ["名前", "名前"]);
        // The space a break falls on is the break.
        assert_eq!(wrap("aaaa bbb", 4), ["aaaa", "bbb"]);
        for w in 1..12 {
            for row in wrap("the quick  brown fox jumps", w) {
                assert!(columns(&row) <= w, "{row:?} at {w}");
            }
        }
    }

    #[test]
    fn a_word_longer_than_a_row_goes_on_where_the_row_stands() {
        // Not moved to a row of its own (which would leave "see " alone on the first).
        assert_eq!(wrap("see https://example.com/a/b/c/d", 12), ["see https://", "example.com/", "a/b/c/d"]);
        assert_eq!(wrap("abcdefgh ij", 5), ["abcde", "fgh ", "ij"]);
        // A word that fits a row still goes to the next row whole.
        assert_eq!(wrap("see example", 10), ["see ", "example"]);
    }

    #[test]
    fn wide_characters_are_never_split_nor_past_the_edge() {
        // 名 fits after "ab " (5 of 6 columns); 前 does not, and starts the next row.
        assert_eq!(wrap("ab 名前名前名前", 6), ["ab 名", "前名前", "名前"]);
        assert_eq!(wrap("名前名前", 3), ["名", "前", "名", "前"]);
    }

    #[test]
    fn combining_marks_stay_with_their_letter() {
        let line = "e\u{301}".repeat(10);
        let rows = wrap(&line, 4);
        assert_eq!(rows, ["e\u{301}".repeat(4), "e\u{301}".repeat(4), "e\u{301}".repeat(2)]);
        // A decomposed word longer than a row, after a short one: the first row is full.
        let rows = wrap(&format!("voila {}", "a\u{300}".repeat(9)), 8);
        assert_eq!(rows, [format!("voila {}", "a\u{300}".repeat(2)), "a\u{300}".repeat(7)]);
    }

    #[test]
    fn no_text_is_lost_and_no_row_passes_the_edge() {
        let lines = [
            "Please confirm https://example.com/a/very/long/path/that/never/ends before we go on.",
            "and then 名前名前名前名前名前名前名前名前 with é\u{301}é\u{301}e\u{301}e\u{301}e\u{301} done",
            "x  y   z    supercalifragilisticexpialidocious   end",
            "👩\u{200d}💻 coder ❤\u{fe0f} 🇫🇷 flags",
        ];
        for line in lines {
            for w in 2..40 {
                let rows = wrap(line, w);
                for row in &rows {
                    assert!(columns(row) <= w, "{row:?} at {w}");
                }
                // Only spaces a break fell on are gone.
                assert_eq!(rows.concat().replace(' ', ""), line.replace(' ', ""), "at {w}");
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
