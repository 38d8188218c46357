//! What the resources and prompts panes share: a list of descriptors (with headings) scrolled with
//! one cursor, and under it the selected descriptor exactly as the server sent it, in the JSON
//! tree viewer (`o` shows it whole, `y` copies it).

use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::value::ValueOverlay;
use crate::mcp::{Descriptor, Listing};
use crate::sanitize;
use crate::ui::component::{Ctx, Effect, Used};
use crate::ui::jsonview::JsonView;
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::line_input::{Edit, LineInput};
use crate::ui::msg::Cmd;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

#[derive(Clone)]
pub enum Row {
    /// A section's title (not an item: Enter does nothing there).
    Heading(String),
    Item(Arc<Descriptor>),
}

/// How a pane draws its list: whether it has the focus, each item's row, and the lines above the
/// selected descriptor.
pub struct ListDraw<'a> {
    /// The pane's keymap section, for the keys its hints name.
    pub scope: Scope,
    pub focused: bool,
    pub row: &'a dyn Fn(&Descriptor) -> Vec<Span<'static>>,
    pub facts: Vec<Line<'static>>,
}

#[derive(Default)]
pub struct ItemList {
    /// The rows shown: every row, or the headings and the items the filter keeps.
    pub rows: Vec<Row>,
    /// Every row as listed.
    all: Vec<Row>,
    /// `/`: items whose name, URI or description hold it as a subsequence (case-insensitive).
    pub filter: LineInput,
    /// Typing goes to the filter.
    pub filtering: bool,
    pub scroll: Scroll,
    /// The selected row's descriptor as a tree, built when the selection changes.
    detail: Option<(usize, JsonView)>,
    /// Lines the descriptor's area has above its tree (a pane's own facts about the item).
    pub facts: usize,
}

/// One section of the list: its heading (with the count and pages) and its items, or why there
/// are none.
pub fn section(rows: &mut Vec<Row>, title: &str, list: Option<&Result<Listing, String>>) {
    match list {
        None => rows.push(Row::Heading(format!("{title}: listing…"))),
        Some(Err(e)) => rows.push(Row::Heading(format!("{title}: the listing failed: {e}"))),
        Some(Ok(l)) if l.not_offered.is_some() => {
            rows.push(Row::Heading(format!("{title}: the server does not offer them")))
        }
        Some(Ok(l)) => {
            let pages = if l.pages == 1 { String::new() } else { format!(", {} pages", l.pages) };
            let warn = if l.warnings.is_empty() {
                String::new()
            } else {
                let log = crate::ui::keymap::key(crate::ui::keymap::Scope::Any, crate::ui::keymap::Command::ToggleLog);
                format!(" · {} warning(s) in the log ({log})", l.warnings.len())
            };
            rows.push(Row::Heading(format!("{title} ({}{pages}){warn}", l.items.len())));
            rows.extend(l.items.iter().map(|d| Row::Item(Arc::new(d.clone()))));
        }
    }
}

impl ItemList {
    /// New rows: the cursor stays where it was (on the first item when it was on none).
    pub fn set_rows(&mut self, rows: Vec<Row>) {
        self.all = rows;
        self.show_filtered();
    }

    /// The rows the filter keeps: every heading (a section says what it holds even when the filter
    /// keeps none of it), and the matching items.
    fn show_filtered(&mut self) {
        let q = self.filter.text().trim();
        let keep = |r: &Row| match r {
            Row::Heading(_) => true,
            Row::Item(d) => {
                q.is_empty()
                    || [Some(d.label()), d.uri(), d.description()]
                        .into_iter()
                        .flatten()
                        .any(|text| crate::ui::fuzzy::subsequence(q, text).is_some())
            }
        };
        self.rows = self.all.iter().filter(|r| keep(r)).cloned().collect();
        self.scroll.set_len(self.rows.len());
        if !matches!(self.rows.get(self.scroll.cursor), Some(Row::Item(_)))
            && let Some(i) = self.rows.iter().position(|r| matches!(r, Row::Item(_)))
        {
            self.scroll.select(i);
            // A fresh list shows from its first row (its heading).
            self.scroll.top = 0;
        }
        self.detail = None;
        self.sync();
    }

    pub fn selected(&self) -> Option<&Descriptor> {
        match self.rows.get(self.scroll.cursor)? {
            Row::Item(d) => Some(d),
            Row::Heading(_) => None,
        }
    }

    /// The tree of the selected descriptor, rebuilt when the selection moved.
    fn sync(&mut self) {
        let at = self.scroll.cursor;
        if self.detail.as_ref().is_some_and(|(i, _)| *i == at) {
            return;
        }
        self.detail = self.selected().map(|d| (at, JsonView::from_text(Arc::<str>::from(d.raw.get()), "descriptor")));
    }

    /// The rows shown, as headings and item labels (for tests).
    pub fn labels(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|r| match r {
                Row::Heading(h) => h.clone(),
                Row::Item(d) => d.label().to_string(),
            })
            .collect()
    }

    /// `/`: typing now goes to the filter.
    pub fn start_filter(&mut self) {
        self.filtering = true;
    }

    /// Clears the filter; false when there was none.
    pub fn clear_filter(&mut self) -> bool {
        let had = !self.filter.is_empty() || self.filtering;
        self.filter.clear();
        self.filtering = false;
        if had {
            self.show_filtered();
        }
        had
    }

    /// A key while the filter is typed: Enter keeps it, Esc clears it, arrows move.
    pub fn filter_key(&mut self, key: &crossterm::event::KeyEvent) -> Used {
        use crossterm::event::KeyCode;
        match self.filter.key(key) {
            Edit::Changed => self.show_filtered(),
            Edit::Moved => {}
            Edit::NotMine => match key.code {
                KeyCode::Enter => self.filtering = false,
                KeyCode::Esc => {
                    self.clear_filter();
                }
                KeyCode::Down => {
                    self.navigate(Command::Down);
                }
                KeyCode::Up => {
                    self.navigate(Command::Up);
                }
                _ => return Used::No,
            },
        }
        Used::Yes
    }

    /// What the pane's title says of the filter (empty without one).
    pub fn filter_note(&self) -> String {
        if self.filter.is_empty() && !self.filtering {
            return String::new();
        }
        let items = |rows: &[Row]| rows.iter().filter(|r| matches!(r, Row::Item(_))).count();
        format!(
            " · filter \"{}\" ({} of {})",
            self.filter.view(40, self.filtering),
            items(&self.rows),
            items(&self.all)
        )
    }

    /// Up, down, a page, top, bottom.
    pub fn navigate(&mut self, cmd: Command) -> bool {
        let before = self.scroll.cursor;
        if !self.scroll.navigate(cmd) {
            return false;
        }
        self.off_heading(self.scroll.cursor >= before);
        self.sync();
        true
    }

    /// Moves the cursor from a heading to the nearest item, in the direction it was going first
    /// (a heading has nothing to read or show; the screen still shows it above its items).
    fn off_heading(&mut self, down: bool) {
        let item = |i: &usize| matches!(self.rows.get(*i), Some(Row::Item(_)));
        let c = self.scroll.cursor;
        if item(&c) {
            return;
        }
        let (mut ahead, mut behind) = ((c + 1..self.rows.len()).find(item), (0..c).rev().find(item));
        if !down {
            std::mem::swap(&mut ahead, &mut behind);
        }
        if let Some(i) = ahead.or(behind) {
            self.scroll.select(i);
        }
    }

    /// `o`: the selected descriptor whole, re-indented from its own bytes.
    pub fn open(&self, cx: &mut Ctx) {
        match self.selected() {
            Some(d) => {
                let text = crate::json_pretty::to_string(&crate::json_pretty::lines(d.raw.get(), 50_000));
                let title = format!("{} as sent", d.kind.noun());
                cx.effects.push(Effect::Push(Box::new(ValueOverlay::new(&title, &text))));
            }
            None => cx.notice("no item here", false),
        }
    }

    /// `y`: the selected descriptor as sent.
    pub fn copy(&self, cx: &mut Ctx) {
        match self.selected() {
            Some(d) => {
                cx.notice(format!("copied the {} as sent (OSC 52)", d.kind.noun()), false);
                cx.cmd(Cmd::Copy(d.raw.get().to_string()));
            }
            None => cx.notice("no item here", false),
        }
    }

    /// The list's and the descriptor's areas inside the pane.
    pub fn split(area: Rect) -> [Rect; 2] {
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(area)
    }

    pub fn set_area(&mut self, area: Rect) {
        let [list, detail] = ItemList::split(area);
        self.scroll.set_height(list.height as usize);
        if let Some((_, v)) = &mut self.detail {
            v.height = (detail.height as usize).saturating_sub(1 + self.facts).max(1);
        }
    }

    /// The rows, each drawn by `item`; headings bold.
    pub fn draw_list(
        &self,
        f: &mut Frame,
        area: Rect,
        t: &Theme,
        focused: bool,
        item: impl Fn(&Descriptor) -> Vec<Span<'static>>,
    ) {
        let window = self.scroll.window(area.height as usize);
        let lines: Vec<Line> = self.rows[window.clone()]
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let line = match r {
                    Row::Heading(h) => {
                        Line::styled(sanitize::line(h).into_owned(), t.paint(Role::Title).add_modifier(Modifier::BOLD))
                    }
                    Row::Item(d) => crate::ui::fit::fit(Line::from(item(d)), area.width as usize),
                };
                if window.start + i == self.scroll.cursor && focused { line.style(t.selection()) } else { line }
            })
            .collect();
        f.render_widget(Paragraph::new(lines), area);
    }

    /// A whole pane: `note` alone when there is nothing to list (not connected, not offered),
    /// else the list above the selected descriptor.
    pub fn draw_pane(&self, f: &mut Frame, area: Rect, t: &Theme, note: Option<&str>, list: ListDraw) {
        if let Some(n) = note {
            f.render_widget(
                Paragraph::new(n).style(t.paint(Role::Dim)).wrap(ratatui::widgets::Wrap { trim: false }),
                area,
            );
            return;
        }
        let [top, detail] = ItemList::split(area);
        self.draw_list(f, top, t, list.focused, list.row);
        self.draw_detail(f, detail, t, (list.scope, list.facts));
    }

    /// Why a pane lists nothing, if it does not: not connected yet, or `undeclared` (the server
    /// does not declare the capability).
    pub fn not_listing(connected: bool, declared: bool, undeclared: &'static str) -> Option<&'static str> {
        if !connected {
            Some("Not connected yet.")
        } else if !declared {
            Some(undeclared)
        } else {
            None
        }
    }

    /// The selected descriptor below the list: `facts` lines, then the tree of what was sent.
    /// `scope` is the pane's keymap section (for the keys the title names).
    pub fn draw_detail(&self, f: &mut Frame, area: Rect, t: &Theme, at: (Scope, Vec<Line<'static>>)) {
        let (scope, facts) = at;
        let keys = keymap::said(scope, &[(Command::Open, "whole"), (Command::Copy, "copy")]);
        let b = Block::default()
            .borders(Borders::TOP)
            .border_style(t.border(false))
            .title(Line::from(format!(" as the server sent it ({keys}) ")).style(t.paint(Role::Dim)));
        let inner = b.inner(area);
        f.render_widget(b, area);
        let n = (facts.len() as u16).min(inner.height / 2);
        let [top, tree] = Layout::vertical([Constraint::Length(n), Constraint::Min(1)]).areas(inner);
        f.render_widget(Paragraph::new(facts), top);
        match &self.detail {
            Some((_, v)) => v.render(f, tree, t, false),
            None => {
                f.render_widget(Paragraph::new("Select an item to see its descriptor.").style(t.paint(Role::Dim)), tree)
            }
        }
    }
}

/// Cuts `s` (sanitized) to `w` characters and pads it to `w`.
pub fn cell(s: &str, w: usize) -> String {
    let s = sanitize::truncate(&sanitize::line(s), w).into_owned();
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(w.saturating_sub(n)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::ItemKind;

    fn item(uri: &str) -> Row {
        let raw = serde_json::value::RawValue::from_string(format!(r#"{{"uri":"{uri}","name":"{uri}"}}"#))
            .unwrap_or_else(|e| panic!("{e}"));
        Row::Item(Arc::new(Descriptor::from_raw(ItemKind::Resource, &raw, 100)))
    }

    #[test]
    fn the_cursor_steps_over_headings() {
        let mut l = ItemList::default();
        l.scroll.set_height(10);
        l.set_rows(vec![Row::Heading("a".into()), item("x:1"), Row::Heading("b".into()), item("x:2")]);
        assert_eq!(l.scroll.cursor, 1);
        l.navigate(Command::Down);
        assert_eq!(l.scroll.cursor, 3, "down over the heading");
        l.navigate(Command::Up);
        assert_eq!(l.scroll.cursor, 1, "up over the heading");
        l.navigate(Command::Up);
        assert_eq!(l.scroll.cursor, 1, "the top heading is not a stop");
        assert_eq!(l.scroll.top, 0, "and it stays on screen");
    }

    #[test]
    fn the_filter_keeps_headings_and_matching_items() {
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let mut l = ItemList::default();
        l.scroll.set_height(10);
        l.set_rows(vec![
            Row::Heading("a".into()),
            item("x:alpha"),
            item("x:beta"),
            Row::Heading("b".into()),
            item("x:gamma"),
        ]);
        l.start_filter();
        for c in "bta".chars() {
            l.filter_key(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        assert_eq!(l.rows.len(), 3, "both headings and x:beta");
        assert!(matches!(l.selected(), Some(d) if d.label() == "x:beta"));
        assert_eq!(l.filter_note(), " · filter \"bta▏\" (1 of 3)");
        l.filter_key(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        assert!(!l.filtering && l.filter_note().contains("(1 of 3)"));
        assert!(l.clear_filter());
        assert_eq!(l.rows.len(), 5);
    }
}
