//! The log pane: one row per entry (time, direction, method, id, latency, level, a preview),
//! filters by direction, method and level, Enter opens the entry whole (`log_entry.rs`).
//!
//! The pane keeps the `seq`s of the entries its filters pass, extended with only the new entries
//! on each sync, and draws only the visible rows: a 20,000-entry log costs a screenful per frame.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::log_entry::EntryView;
pub use super::log_entry::clock;
use crate::mcp::log::{Level, LogEntry, LogKind, Role, SessionLog, to_json_lines};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::fuzzy;
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::line_input::{CURSOR, Edit, LineInput};
use crate::ui::msg::Cmd;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role as Paint, Theme};

/// Which way the shown messages went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    All,
    Sent,
    Received,
    /// Everything that is not a protocol message: stderr, warnings, mcplens's notes.
    Other,
}

impl Direction {
    fn next(self) -> Direction {
        match self {
            Direction::All => Direction::Sent,
            Direction::Sent => Direction::Received,
            Direction::Received => Direction::Other,
            Direction::Other => Direction::All,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Direction::All => "all",
            Direction::Sent => "sent →",
            Direction::Received => "received ←",
            Direction::Other => "other",
        }
    }
}

/// What the rows show.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub direction: Direction,
    /// Part of the method (or of the kind, for other entries): a substring, else fuzzy.
    pub method: LineInput,
    /// Only entries with a level at least this (server log messages, warnings).
    pub level: Option<Level>,
}

impl Filter {
    fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    pub fn passes(&self, e: &LogEntry) -> bool {
        let dir_ok = match self.direction {
            Direction::All => true,
            Direction::Sent => e.kind == LogKind::Sent,
            Direction::Received => e.kind == LogKind::Received,
            Direction::Other => !matches!(e.kind, LogKind::Sent | LogKind::Received),
        };
        let level_ok = self.level.is_none_or(|min| e.level().is_some_and(|l| l >= min));
        dir_ok && level_ok && self.method_ok(e)
    }

    fn method_ok(&self, e: &LogEntry) -> bool {
        let q = self.method.text().trim();
        if q.is_empty() {
            return true;
        }
        let name = method_of(e);
        name.to_lowercase().contains(&q.to_lowercase()) || fuzzy::subsequence(q, name).is_some()
    }

    /// The filters in words; `typing`: with the method's text cursor.
    fn describe(&self, typing: bool) -> String {
        let mut parts = vec![];
        if self.direction != Direction::All {
            parts.push(self.direction.label().to_string());
        }
        if !self.method.is_empty() {
            parts.push(format!("method ~ {}", self.method.view(40, typing)));
        }
        if let Some(l) = self.level {
            parts.push(format!("level ≥ {}", l.label()));
        }
        parts.join(" · ")
    }
}

/// The method of a protocol entry (a reply: its request's), else the entry's kind.
fn method_of(e: &LogEntry) -> &str {
    e.msg.as_ref().and_then(|m| m.method.as_deref()).unwrap_or(e.kind.label())
}

pub struct LogPane {
    log: Option<SessionLog>,
    /// The `seq`s of the entries the filter passes, oldest first.
    rows: Vec<u64>,
    /// The next `seq` to look at.
    next: u64,
    pub scroll: Scroll,
    /// Keep the cursor on the newest row as entries come (off once the user scrolls up).
    follow: bool,
    pub filter: Filter,
    /// Typing into the method filter.
    typing: bool,
    /// The screen's size at the last layout: the entry overlay wraps to it.
    screen: (u16, u16),
    /// Each drawn protocol entry's brief by `seq` (parsed once, when first drawn).
    briefs: std::cell::RefCell<std::collections::HashMap<u64, std::sync::Arc<str>>>,
}

/// The most briefs kept; past it they are made again as rows are drawn.
const BRIEFS_KEPT: usize = 4096;

impl Default for LogPane {
    fn default() -> Self {
        LogPane {
            log: None,
            rows: vec![],
            next: 0,
            scroll: Scroll::default(),
            follow: true,
            filter: Filter::default(),
            typing: false,
            screen: (80, 24),
            briefs: Default::default(),
        }
    }
}

impl LogPane {
    pub fn log(&self) -> Option<&SessionLog> {
        self.log.as_ref()
    }

    /// The session's log; the same log again (a reconnect) keeps the rows and the place.
    pub fn set_log(&mut self, log: SessionLog) {
        if self.log.as_ref().is_some_and(|l| l.same(&log)) {
            return;
        }
        self.log = Some(log);
        // Another log counts its entries anew.
        self.briefs.get_mut().clear();
        self.refilter();
    }

    /// The pane's rows (inside its border) and the screen's size, from the last layout.
    pub fn set_layout(&mut self, rows: u16, screen: (u16, u16)) {
        self.scroll.set_height(rows as usize);
        self.screen = screen;
    }

    /// Takes in the entries logged since the last sync. Returns whether the rows changed.
    pub fn sync(&mut self) -> bool {
        let Some(log) = &self.log else { return false };
        let first = log.first_seq();
        let dropped = self.rows.partition_point(|&s| s < first);
        let fresh = log.since(self.next);
        if dropped == 0 && fresh.is_empty() {
            return false;
        }
        self.rows.drain(..dropped);
        if let Some(last) = fresh.last() {
            self.next = last.seq + 1;
        }
        self.rows.extend(fresh.iter().filter(|e| self.filter.passes(e)).map(|e| e.seq));
        let cursor = self.scroll.cursor.saturating_sub(dropped);
        self.scroll.set_len(self.rows.len());
        if self.follow {
            self.scroll.last();
        } else {
            self.scroll.top = self.scroll.top.saturating_sub(dropped);
            self.scroll.select(cursor);
        }
        true
    }

    /// The entry's brief (`log_brief`), made once.
    fn brief_of(&self, e: &LogEntry) -> Option<std::sync::Arc<str>> {
        let mut briefs = self.briefs.borrow_mut();
        if let Some(b) = briefs.get(&e.seq) {
            return Some(b.clone());
        }
        let b: std::sync::Arc<str> = super::log_brief::brief(e)?.into();
        if briefs.len() >= BRIEFS_KEPT {
            briefs.clear();
        }
        briefs.insert(e.seq, b.clone());
        Some(b)
    }

    fn refilter(&mut self) {
        self.rows.clear();
        self.next = self.log.as_ref().map_or(0, |l| l.first_seq());
        self.scroll = Scroll { height: self.scroll.height, ..Scroll::default() };
        self.follow = true;
        self.sync();
    }

    fn selected(&self) -> Option<LogEntry> {
        let seq = *self.rows.get(self.scroll.cursor)?;
        self.log.as_ref()?.get(seq)
    }

    pub fn is_typing(&self) -> bool {
        self.typing
    }

    fn open(&self, cx: &mut Ctx) {
        let (Some(log), Some(e)) = (&self.log, self.selected()) else {
            cx.notice("no entry here", false);
            return;
        };
        let width = self.screen.0.saturating_sub(6).clamp(20, 140);
        cx.effects.push(Effect::Push(Box::new(EntryView::new(log.clone(), &e, width, self.screen.1, cx.theme))));
    }

    fn export(&self, cx: &mut Ctx) {
        let Some(log) = &self.log else {
            cx.notice("nothing logged yet", false);
            return;
        };
        if self.rows.is_empty() {
            cx.notice("no entry passes the filters: nothing to export", true);
            return;
        }
        let entries = log.get_many(&self.rows);
        let name = if self.rows.len() == log.len() { "log" } else { "log-filtered" };
        cx.cmd(Cmd::Export { name: name.into(), text: to_json_lines(log, &entries) });
    }

    fn navigate(&mut self, cmd: Command) -> Used {
        if !self.scroll.navigate(cmd) {
            return Used::No;
        }
        self.follow = self.scroll.cursor + 1 >= self.scroll.len;
        Used::Yes
    }
}

impl Component for LogPane {
    fn scope(&self) -> Scope {
        Scope::Log
    }

    fn typing(&self) -> bool {
        self.is_typing()
    }

    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if !self.typing {
            return Used::No;
        }
        if matches!(keymap::lookup_own(key, Scope::Any), Some(Command::NextPane | Command::PrevPane)) {
            // Tab keeps the filter as typed (as Enter does) and goes on to the next pane.
            self.typing = false;
            return Used::No;
        }
        match self.filter.method.key(key) {
            Edit::Changed => self.refilter(),
            Edit::Moved => {}
            Edit::NotMine => match key.code {
                KeyCode::Enter => self.typing = false,
                KeyCode::Esc => {
                    self.typing = false;
                    self.filter.method.clear();
                    self.refilter();
                }
                KeyCode::Up | KeyCode::Down => return Used::No,
                _ => {}
            },
        }
        Used::Yes
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Open => self.open(cx),
            Command::Export => self.export(cx),
            Command::Filter => self.typing = true,
            Command::LogDirection => {
                self.filter.direction = self.filter.direction.next();
                self.refilter();
            }
            Command::LogLevel => {
                self.filter.level = match self.filter.level {
                    None => Some(Level::Debug),
                    Some(l) => l.next(),
                };
                self.refilter();
            }
            Command::Back if !self.filter.is_empty() => {
                self.filter = Filter::default();
                self.refilter();
            }
            other => return self.navigate(other),
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let block = crate::ui::component::frame(theme, crate::ui::fit::title(self.title(), area.width), focused);
        let inner = block.inner(area);
        f.render_widget(block, area);
        let Some(log) = &self.log else {
            f.render_widget(Paragraph::new("Nothing logged yet.").style(theme.paint(Paint::Dim)), inner);
            return;
        };
        let window = self.scroll.window(inner.height as usize);
        let start = window.start;
        let entries = log.get_many(self.rows.get(window).unwrap_or_default());
        if entries.is_empty() {
            let what = if self.filter.is_empty() { "Nothing logged yet." } else { "No entry passes the filters." };
            f.render_widget(Paragraph::new(what).style(theme.paint(Paint::Dim)), inner);
            return;
        }
        let columns = Columns { width: inner.width as usize, method: method_column(&entries) };
        let lines: Vec<Line> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let line = row(e, self.brief_of(e).as_deref(), theme, columns);
                if start + i == self.scroll.cursor && focused { line.style(theme.selection()) } else { line }
            })
            .collect();
        f.render_widget(Paragraph::new(crate::ui::fit::lines(lines, inner.width as usize)), inner);
    }

    fn hints(&self) -> Vec<(String, String)> {
        if self.typing {
            use crossterm::event::KeyCode;
            let name = crate::ui::keymap::key_name;
            return vec![(name(KeyCode::Enter), "keep filter".into()), (name(KeyCode::Esc), "clear".into())];
        }
        crate::ui::keymap::footer(Scope::Log).into_iter().map(|(keys, word, _)| (keys, word)).collect()
    }
}

impl LogPane {
    fn title(&self) -> String {
        let total = self.log.as_ref().map_or(0, |l| l.len());
        let mut title = if self.filter.is_empty() {
            format!(" Log ({total} entries")
        } else {
            format!(" Log ({} of {total} · {}", self.rows.len(), self.filter.describe(self.typing))
        };
        if self.typing && self.filter.method.is_empty() {
            title.push(CURSOR);
        }
        if !self.follow && !self.rows.is_empty() {
            title.push_str(&format!(" · row {} of {}, G follows", self.scroll.cursor + 1, self.rows.len()));
        }
        title.push_str(") ");
        title
    }
}

/// Most characters of a method name shown in a row: the longest the protocol defines
/// (`notifications/resources/list_changed`) whole; a server's own longer method is cut.
const MAX_METHOD: usize = 36;
/// The method column's least width: the common methods fit, and the id column starts where it
/// always did.
const METHOD_COLUMN: usize = 22;

/// The widths a row is laid out in: the pane's, and the method column's.
#[derive(Clone, Copy)]
struct Columns {
    width: usize,
    method: usize,
}

/// The method column of the rows shown: as wide as their longest method, so that a long one
/// does not push its row's id and latency out of line with the others'.
fn method_column(entries: &[LogEntry]) -> usize {
    let longest = entries.iter().map(|e| method_of(e).chars().count().min(MAX_METHOD)).max().unwrap_or(0);
    longest.max(METHOD_COLUMN)
}

/// One entry as one row: time, arrow, method, id, latency or level, then the message in brief
/// (a protocol entry) or its text.
fn row<'a>(e: &LogEntry, brief: Option<&str>, t: &Theme, columns: Columns) -> Line<'a> {
    let (arrow, role) = match e.kind {
        LogKind::Sent => ("→", Paint::JsonKey),
        LogKind::Received => ("←", Paint::JsonString),
        LogKind::Stderr => (" ", Paint::Text),
        LogKind::Warning => ("!", Paint::Warning),
        LogKind::Info => ("·", Paint::Ok),
        LogKind::Marker => ("═", Paint::Match),
    };
    let mut spans = vec![
        Span::styled(format!("{} ", clock(e.at)), t.paint(Paint::Dim)),
        Span::styled(format!("{arrow} "), t.paint(role).add_modifier(Modifier::BOLD)),
    ];
    let method = sanitize::truncate(method_of(e), MAX_METHOD);
    let pad = columns.method;
    spans.push(Span::styled(format!("{:<pad$} ", sanitize::line(&method)), t.paint(role)));
    let mut meta = String::new();
    if let Some(m) = &e.msg {
        if let Some(id) = &m.id {
            meta.push_str(&format!("#{} ", sanitize::line(&sanitize::truncate(id, 12))));
        }
        if let Some(l) = m.latency {
            meta.push_str(&format!("{} ", latency(l)));
        }
    }
    spans.push(Span::styled(format!("{meta:<10}"), t.paint(Paint::Dim)));
    if let Some(level) = e.msg.as_ref().and_then(|m| m.level) {
        let style = if level >= Level::Warning { t.paint(Paint::Warning) } else { t.paint(Paint::Dim) };
        spans.push(Span::styled(format!("{} ", level.label()), style.add_modifier(Modifier::BOLD)));
    }
    if let Some(logger) = e.msg.as_ref().and_then(|m| m.logger.as_deref()) {
        spans
            .push(Span::styled(format!("[{}] ", sanitize::line(&sanitize::truncate(logger, 20))), t.paint(Paint::Dim)));
    }
    // Cut by characters here only to bound the work; the row is fitted to the pane by its
    // columns when drawn (escapes and wide characters take more than one).
    let used: usize = spans.iter().map(Span::width).sum();
    let room = columns.width.saturating_sub(used).max(1);
    let text = sanitize::truncate(brief.unwrap_or(&e.text), room);
    // An error reply's brief says "error" itself (with its code): painted as one, not said twice.
    let error = e.msg.as_ref().is_some_and(|m| m.role == Role::Error);
    let style = match e.kind {
        LogKind::Warning => t.paint(Paint::Warning),
        _ if error => t.paint(Paint::Error),
        _ => t.paint(Paint::Text),
    };
    // An entry of several lines (an HTTP exchange with its headers) is one row: its lines joined.
    spans.push(Span::styled(sanitize::joined(&text).into_owned(), style));
    Line::from(spans)
}

fn latency(d: std::time::Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.1}ms")
    } else if ms < 10_000.0 {
        format!("{ms:.0}ms")
    } else {
        format!("{:.1}s", ms / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::log::{LogLimits, Redactor, Wire};

    #[test]
    fn a_row_shows_the_protocols_longest_method_whole() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        for method in ["notifications/resources/list_changed", "notifications/tools/list_changed"] {
            log.push_message(LogKind::Received, "{}", &Wire { method: Some(method), ..Wire::default() });
        }
        for e in log.entries() {
            let columns = Columns { width: 120, method: METHOD_COLUMN };
            let text: String =
                row(&e, None, &Theme::default(), columns).spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(text.contains(method_of(&e)) && !text.contains('…'), "{text}");
        }
    }

    /// An HTTP exchange's entry (a summary line, then the headers) is one row, no `\n` in it.
    #[test]
    fn an_entry_of_several_lines_is_one_row_of_its_lines_joined() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        log.push(LogKind::Info, "HTTP POST http://h/mcp → 200 OK in 1.0 ms\nrequest headers:\n  accept: a\n  x: b");
        let e = log.entries().pop().unwrap_or_else(|| panic!("no entry"));
        let columns = Columns { width: 200, method: METHOD_COLUMN };
        let text: String = row(&e, None, &Theme::default(), columns).spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(
            text.ends_with("HTTP POST http://h/mcp → 200 OK in 1.0 ms · request headers: accept: a · x: b"),
            "{text}"
        );
    }

    #[test]
    fn rows_keep_their_ids_in_one_column_when_a_method_is_long() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        for method in ["resources/templates/list", "tools/list", "notifications/resources/list_changed"] {
            log.push_message(LogKind::Sent, "{}", &Wire { method: Some(method), id: Some("7"), ..Wire::default() });
        }
        let entries = log.entries();
        let columns = Columns { width: 120, method: method_column(&entries) };
        let at: Vec<Option<usize>> = entries
            .iter()
            .map(|e| {
                let text: String =
                    row(e, None, &Theme::default(), columns).spans.iter().map(|s| s.content.as_ref()).collect();
                text.find("#7").map(|b| text[..b].chars().count())
            })
            .collect();
        assert!(at[0].is_some() && at.iter().all(|a| *a == at[0]), "{at:?}");
    }
}
