//! The help overlay: every binding of the keymap, the focused pane's section first, keys in an
//! aligned column with the descriptions wrapped beside it; scrolls, and `/` filters it.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, EXTRA_HELP, Scope};
use crate::ui::line_input::{Edit, LineInput};
use crate::ui::scroll::{Scroll, page};
use crate::ui::theme::{Role, Theme};

/// One binding (or extra line) of the help, before layout.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    section: &'static str,
    keys: String,
    desc: String,
}

/// A laid-out row: a section title, or a key column (empty on continuation rows) and text.
#[derive(Debug, Clone, PartialEq)]
enum Row {
    Title(&'static str),
    Item { keys: String, text: String },
    Blank,
}

/// The widest key column; longer key lists get a row of their own.
const MAX_KEYS: usize = 22;

pub struct Help {
    entries: Vec<Entry>,
    rows: Vec<Row>,
    width: usize,
    scroll: Scroll,
    query: LineInput,
    typing: bool,
}

impl Help {
    /// The help as seen from `from`: its own section, what applies everywhere there, then the rest.
    pub fn new(from: Scope) -> Help {
        Help::with(entries(from))
    }

    /// The help of a screen that has only some of the keymap's sections (the watcher): the first
    /// of `sections`, what applies everywhere there, then the others, each binding only where
    /// `works(section, command)`; then the lines of [`EXTRA_HELP`] that `extra` names.
    pub fn of(sections: &[Scope], works: impl Fn(Scope, Command) -> bool, extra: &[&str]) -> Help {
        Help::with(entries_of(sections, works, extra))
    }

    fn with(entries: Vec<Entry>) -> Help {
        let mut help = Help {
            entries,
            rows: vec![],
            width: 80,
            scroll: Scroll::default(),
            query: LineInput::new(100),
            typing: false,
        };
        help.layout();
        help
    }

    fn shown(&self) -> Vec<&Entry> {
        let q = self.query.text().to_lowercase();
        self.entries
            .iter()
            .filter(|e| q.is_empty() || e.keys.to_lowercase().contains(&q) || e.desc.to_lowercase().contains(&q))
            .collect()
    }

    fn layout(&mut self) {
        let shown = self.shown();
        let col = shown.iter().map(|e| e.keys.chars().count()).filter(|&n| n <= MAX_KEYS).max().unwrap_or(0);
        let text_width = self.width.saturating_sub(col + 4).max(10);
        let mut rows = vec![];
        let mut section = "";
        for e in shown {
            if e.section != section {
                if !rows.is_empty() {
                    rows.push(Row::Blank);
                }
                rows.push(Row::Title(e.section));
                section = e.section;
            }
            let mut keys = e.keys.clone();
            if keys.chars().count() > col {
                rows.push(Row::Item { keys, text: String::new() });
                keys = String::new();
            }
            for line in wrap(&e.desc, text_width) {
                let pad = col.saturating_sub(keys.chars().count());
                rows.push(Row::Item { keys: format!("{keys}{}", " ".repeat(pad)), text: line });
                keys = String::new();
            }
        }
        if rows.is_empty() {
            rows.push(Row::Item { keys: String::new(), text: format!("nothing matches {:?}", self.query.text()) });
        }
        self.rows = rows;
        self.scroll.set_len(self.rows.len());
        self.scroll.scroll_by(0);
    }

    /// Scrolls the next (or previous) binding shown to the top: with a search kept, every
    /// binding shown matches it.
    fn scroll_to_binding(&mut self, forward: bool) {
        let starts = |i: &usize| matches!(&self.rows[*i], Row::Item { keys, .. } if !keys.trim().is_empty());
        let top = self.scroll.top;
        let found = if forward { (top + 1..self.rows.len()).find(starts) } else { (0..top).rev().find(starts) };
        if let Some(row) = found {
            self.scroll.scroll_by(row as isize - top as isize);
        }
    }

    fn search_key(&mut self, key: &KeyEvent) -> Used {
        match self.query.key(key) {
            Edit::Changed => {}
            Edit::Moved => return Used::Yes,
            Edit::NotMine => match key.code {
                KeyCode::Enter => self.typing = false,
                KeyCode::Esc => {
                    self.typing = false;
                    self.query.clear();
                }
                _ => return Used::No,
            },
        }
        self.layout();
        self.scroll.scroll_by(-(self.scroll.len as isize));
        Used::Yes
    }
}

fn entries_of(sections: &[Scope], works: impl Fn(Scope, Command) -> bool, extra: &[&str]) -> Vec<Entry> {
    let map = keymap::keymap();
    let entry = |section, b: &keymap::Binding| Entry { section, keys: b.label.clone(), desc: b.help.clone() };
    let mut out: Vec<Entry> = vec![];
    for (i, &scope) in sections.iter().enumerate() {
        out.extend(map.own(scope).filter(|b| works(scope, b.command)).map(|b| entry(scope.title(), b)));
        if i == 0 {
            let global = map.global_in(scope);
            out.extend(global.iter().filter(|b| works(Scope::Any, b.command)).map(|b| entry(Scope::Any.title(), b)));
        }
    }
    let extra = EXTRA_HELP.iter().filter(|(k, _)| extra.contains(k));
    out.extend(extra.map(|(k, h)| Entry { section: "Also", keys: k.to_string(), desc: h.to_string() }));
    out
}

fn entries(from: Scope) -> Vec<Entry> {
    let map = keymap::keymap();
    let entry = |section, b: &keymap::Binding| Entry { section, keys: b.label.clone(), desc: b.help.clone() };
    let mut out: Vec<Entry> = vec![];
    if from != Scope::Any {
        out.extend(map.own(from).map(|b| entry(from.title(), b)));
    }
    out.extend(map.global_in(from).iter().map(|b| entry(Scope::Any.title(), b)));
    for &scope in Scope::all().iter().filter(|&&s| s != from && s != Scope::Any) {
        out.extend(map.own(scope).map(|b| entry(scope.title(), b)));
    }
    out.extend(EXTRA_HELP.iter().map(|(k, h)| Entry { section: "Also", keys: k.to_string(), desc: h.to_string() }));
    out
}

/// Splits `text` into lines of at most `width` characters at spaces (a longer word is cut).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = vec![];
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        while word.chars().count() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let cut: String = word.chars().take(width).collect();
            word = word.chars().skip(width).collect();
            lines.push(cut);
        }
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

impl Component for Help {
    fn scope(&self) -> Scope {
        Scope::Help
    }

    fn typing(&self) -> bool {
        self.typing
    }

    fn key(&mut self, key: &KeyEvent, cx: &mut Ctx) -> Used {
        if self.typing {
            return self.search_key(key);
        }
        // Any key that means nothing here or everywhere closes the help.
        if keymap::lookup(key, Scope::Help).is_none() {
            cx.effects.push(Effect::Close);
            return Used::Yes;
        }
        Used::No
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        let page = page(self.scroll.height) as isize;
        match cmd {
            Command::Down => self.scroll.scroll_by(1),
            Command::Up => self.scroll.scroll_by(-1),
            Command::PageDown => self.scroll.scroll_by(page),
            Command::PageUp => self.scroll.scroll_by(-page),
            Command::Top => self.scroll.scroll_by(-(self.scroll.len as isize)),
            Command::Bottom => self.scroll.scroll_by(self.scroll.len as isize),
            Command::Search => {
                self.typing = true;
                self.query.clear();
                self.layout();
            }
            Command::NextMatch => self.scroll_to_binding(true),
            Command::PrevMatch => self.scroll_to_binding(false),
            Command::Back | Command::Help => cx.effects.push(Effect::Close),
            // Another command closes the help and then does what it says (q quits, L shows the log).
            _ => {
                cx.effects.push(Effect::Close);
                return Used::No;
            }
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        let width = area.width.saturating_sub(2) as usize;
        if width != self.width {
            self.width = width;
            self.layout();
        }
        self.scroll
            .set_height(area.height.saturating_sub(2 + u16::from(self.typing || !self.query.is_empty())) as usize);
        self.scroll.scroll_by(0);
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let height = area.height.saturating_sub(2 + u16::from(self.typing || !self.query.is_empty())) as usize;
        let top = self.scroll.top.min(self.rows.len().saturating_sub(height.max(1)));
        let mut lines: Vec<Line> = self.rows[top..(top + height).min(self.rows.len())]
            .iter()
            .map(|row| match row {
                Row::Title(t) => Line::styled(*t, theme.title(true)),
                Row::Item { keys, text } => Line::from(vec![
                    Span::raw("  "),
                    Span::styled(keys.clone(), theme.key()),
                    Span::raw("  "),
                    Span::raw(text.clone()),
                ]),
                Row::Blank => Line::raw(""),
            })
            .collect();
        if self.typing || !self.query.is_empty() {
            while lines.len() < height {
                lines.push(Line::raw(""));
            }
            let room = (area.width as usize).saturating_sub(12);
            lines.push(Line::from(vec![
                Span::styled(" search: ", theme.key()),
                self.query.span(room, self.typing, theme.paint(Role::Match)),
            ]));
        }
        let k = |cmd| keymap::key(Scope::Help, cmd);
        let title = format!(
            " Help · theme {} · {}/{} {}/{} scroll · {} search · any other key closes ",
            sanitize::line(&theme.name),
            k(Command::Down),
            k(Command::Up),
            k(Command::PageUp),
            k(Command::PageDown),
            k(Command::Search),
        );
        let block = crate::ui::component::overlay_block(theme, title, focused);
        f.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn hints(&self) -> Vec<(String, String)> {
        keymap::keymap()
            .own(Scope::Help)
            .filter_map(|b| Some((b.keys.first()?.label(), b.footer.clone()?)))
            .chain([(
                format!("{}/{}", keymap::key(Scope::Help, Command::Down), keymap::key(Scope::Help, Command::Up)),
                "scroll".to_string(),
            )])
            .collect()
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(116), area.height.saturating_sub(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    #[test]
    fn wrap_keeps_words_and_width() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), vec![""]);
    }

    #[test]
    fn keys_never_run_into_the_text_and_each_binding_is_listed_once() {
        let mut help = Help::new(Scope::Form);
        help.set_area(Rect::new(0, 0, 60, 30));
        for row in &help.rows {
            if let Row::Item { keys, text } = row {
                assert!(keys.chars().count() <= MAX_KEYS, "{keys}");
                assert!(text.chars().count() + keys.chars().count() + 4 <= 58 || text.is_empty(), "{keys}|{text}");
            }
        }
        let labels: Vec<&str> = help.entries.iter().map(|e| e.keys.as_str()).collect();
        assert_eq!(labels.iter().filter(|l| l.contains("Ctrl-↓")).count(), 1, "{labels:?}");
        // In the form, Tab is the form's: the global "next pane" lists only what still works.
        assert!(!help.entries.iter().any(|e| e.section == "Everywhere" && e.keys == "Tab"));
    }

    #[test]
    fn n_and_shift_n_move_between_bindings_and_keep_the_help_open() {
        let theme = Theme::default();
        let mut help = Help::new(Scope::Tools);
        help.set_area(Rect::new(0, 0, 100, 12));
        let mut cx = Ctx::new(&theme);
        assert!(help.command(Command::NextMatch, &mut cx).yes());
        let first = help.scroll.top;
        assert!(first > 0);
        assert!(matches!(&help.rows[first], Row::Item { keys, .. } if !keys.trim().is_empty()));
        help.command(Command::NextMatch, &mut cx);
        assert!(help.scroll.top > first);
        help.command(Command::PrevMatch, &mut cx);
        assert_eq!(help.scroll.top, first);
        assert!(cx.effects.is_empty());
    }

    #[test]
    fn search_filters_and_keys_close() {
        let theme = Theme::default();
        let mut help = Help::new(Scope::Tools);
        help.set_area(Rect::new(0, 0, 100, 30));
        let mut cx = Ctx::new(&theme);
        assert!(help.command(Command::Search, &mut cx).yes());
        for c in "clipboard".chars() {
            help.key(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), &mut cx);
        }
        assert!(help.rows.iter().any(|r| matches!(r, Row::Item { keys, .. } if keys.trim() == "y")), "{:?}", help.rows);
        // Only the bindings that copy, with their sections.
        assert!(
            help.rows.iter().all(|r| !matches!(r, Row::Item { text, .. } if !text.contains("clipboard"))),
            "{:?}",
            help.rows
        );
        assert!(cx.effects.is_empty());
        help.key(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE), &mut cx);
        assert!(help.key(&KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE), &mut cx).yes());
        assert!(matches!(cx.effects.as_slice(), [Effect::Close]));
    }
}
