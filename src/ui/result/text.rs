//! Styled text that wraps and scrolls (a text answer, the content blocks, an error), and the
//! search prompt the result views share: while it is open every printable key goes to the query.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub use crate::ui::fuzzy::contains_ci;
use crate::ui::keymap::Command;
use crate::ui::line_input::{Edit, LineInput};
use crate::ui::scroll::{Scroll, page};
use crate::ui::theme::{Role, Theme};

/// A query being typed or kept for n/N.
#[derive(Debug, Default, Clone)]
pub struct Search {
    pub query: LineInput,
    /// The prompt is open and takes typing.
    pub typing: bool,
    pub note: Option<String>,
}

/// What a key did to the prompt.
#[derive(Debug, PartialEq, Eq)]
pub enum Typed {
    /// Not for the prompt (it is closed).
    No,
    Edited,
    /// Enter: find the first match.
    Accepted,
}

impl Search {
    pub fn open(&mut self) {
        self.typing = true;
        self.query.clear();
        self.note = None;
    }

    pub fn key(&mut self, k: &KeyEvent) -> Typed {
        if !self.typing {
            return Typed::No;
        }
        if self.query.key(k) != Edit::NotMine {
            return Typed::Edited;
        }
        match k.code {
            KeyCode::Enter => {
                self.typing = false;
                return Typed::Accepted;
            }
            KeyCode::Esc => {
                self.typing = false;
                self.query.clear();
            }
            _ => {}
        }
        Typed::Edited
    }

    /// The prompt or the kept query, for a view's footer line.
    pub fn footer(&self, theme: &Theme) -> Vec<Span<'static>> {
        let mut out = vec![];
        let q = self.query.view(40, self.typing);
        if self.typing {
            let keys = crate::ui::keymap::search_keys();
            out.push(Span::styled(format!("  search: {q} ({keys})"), theme.paint(Role::Match)));
        } else if !self.query.is_empty() {
            out.push(Span::styled(format!("  /{q}  n next · N previous"), theme.paint(Role::Dim)));
        }
        if let Some(n) = &self.note {
            out.push(Span::styled(format!("  {n}"), theme.paint(Role::Warning)));
        }
        out
    }
}

/// The spans of `line` with each match of `query` reversed.
pub fn highlight(line: &Line<'static>, query: &str, theme: &Theme) -> Line<'static> {
    let q = query.to_ascii_lowercase();
    if q.is_empty() {
        return line.clone();
    }
    let mut spans = vec![];
    for s in &line.spans {
        let text = s.content.as_ref();
        let lower = text.to_ascii_lowercase();
        let mut at = 0;
        while let Some(pos) = lower[at..].find(&q) {
            let (start, end) = (at + pos, at + pos + q.len());
            if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                break;
            }
            spans.push(Span::styled(text[at..start].to_string(), s.style));
            spans.push(Span::styled(
                text[start..end].to_string(),
                theme.paint(Role::Match).add_modifier(Modifier::REVERSED),
            ));
            at = end;
        }
        spans.push(Span::styled(text[at..].to_string(), s.style));
    }
    Line::from(spans).style(line.style)
}

/// Lines (already sanitized and styled) shown from the `scroll.cursor`-th on, wrapped.
pub struct TextView {
    pub lines: Vec<Line<'static>>,
    pub scroll: Scroll,
    pub search: Search,
    /// The pane's rows at the last layout, for paging.
    pub height: usize,
}

impl TextView {
    pub fn new(lines: Vec<Line<'static>>) -> TextView {
        let mut scroll = Scroll::new(lines.len());
        // The cursor is the first line shown: a window of one row keeps `top` on it.
        scroll.set_height(1);
        TextView { lines, scroll, search: Search::default(), height: 20 }
    }

    pub fn command(&mut self, cmd: Command) -> bool {
        if self.lines.is_empty() {
            return false;
        }
        match cmd {
            Command::Down => self.scroll.down(1),
            Command::Up => self.scroll.up(1),
            Command::PageDown => self.scroll.down(page(self.height)),
            Command::PageUp => self.scroll.up(page(self.height)),
            Command::Top => self.scroll.first(),
            // The last screenful, not the last line alone at the top.
            Command::Bottom => self.scroll.select(self.lines.len().saturating_sub(self.height.max(1))),
            Command::NextMatch => self.find(true),
            Command::PrevMatch => self.find(false),
            _ => return false,
        }
        true
    }

    fn line_text(&self, i: usize) -> String {
        self.lines[i].spans.iter().map(|s| s.content.as_ref()).collect()
    }

    /// Moves to the next (or previous) line holding the query, wrapping once.
    pub fn find(&mut self, forward: bool) {
        let q = self.search.query.text().to_ascii_lowercase();
        let n = self.lines.len();
        if q.is_empty() || n == 0 {
            return;
        }
        let from = self.scroll.cursor;
        let hit = (1..=n)
            .map(|k| if forward { (from + k) % n } else { (from + n * 2 - k) % n })
            .find(|&i| contains_ci(&self.line_text(i), &q));
        match hit {
            Some(i) => {
                self.scroll.select(i);
                self.search.note = None;
            }
            None => self.search.note = Some(format!("no match for {:?}", self.search.query.text())),
        }
    }

    /// Enter in the prompt: the first match from the top line on (it included).
    pub fn find_first(&mut self) {
        let q = self.search.query.text().to_ascii_lowercase();
        if contains_ci(&self.line_text_or_empty(self.scroll.cursor), &q) {
            self.search.note = None;
            return;
        }
        self.find(true);
    }

    fn line_text_or_empty(&self, i: usize) -> String {
        if i < self.lines.len() { self.line_text(i) } else { String::new() }
    }

    /// Draws from the top line, wrapped, with a footer row for the search when there is one.
    pub fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme) {
        let foot = self.search.footer(theme);
        let rows = area.height.saturating_sub(u16::from(!foot.is_empty())) as usize;
        let body: Vec<Line> = self
            .lines
            .iter()
            .skip(self.scroll.cursor)
            .take(rows)
            .map(|l| highlight(l, self.search.query.text(), theme))
            .collect();
        f.render_widget(Paragraph::new(body).wrap(Wrap { trim: false }), Rect { height: rows as u16, ..area });
        if !foot.is_empty() && area.height > 0 {
            let at = Rect { y: area.y + area.height - 1, height: 1, ..area };
            f.render_widget(Paragraph::new(Line::from(foot)), at);
        }
    }

    /// All the text, for `o` and copying.
    pub fn text(&self) -> String {
        (0..self.lines.len()).map(|i| self.line_text(i)).collect::<Vec<_>>().join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn typing_goes_to_the_query_and_n_finds_the_next_line() {
        let mut v = TextView::new(["alpha", "beta", "export me", "gamma", "Export again"].map(Line::raw).to_vec());
        v.search.open();
        for c in "export".chars() {
            assert_eq!(v.search.key(&key(KeyCode::Char(c))), Typed::Edited, "e goes to the query");
        }
        assert_eq!(v.search.key(&key(KeyCode::Enter)), Typed::Accepted);
        v.find_first();
        assert_eq!(v.scroll.cursor, 2);
        v.command(Command::NextMatch);
        assert_eq!(v.scroll.cursor, 4);
        v.command(Command::NextMatch);
        assert_eq!(v.scroll.cursor, 2, "wraps");
        v.command(Command::PrevMatch);
        assert_eq!(v.scroll.cursor, 4);
        v.search.query.set("zzz");
        v.find(true);
        assert!(v.search.note.is_some());
        assert_eq!(v.search.key(&key(KeyCode::Char('q'))), Typed::No, "closed prompt takes nothing");
    }
}
