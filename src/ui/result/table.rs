//! A list's records as a table: columns from the first and last records' keys (measured once,
//! when the result arrives), nested values folded, rows read from the list only as they are shown.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use serde_json::Value;

use super::text::{Search, contains_ci};
use crate::envelope::Envelope;
use crate::sanitize;
use crate::ui::jsonview::JsonView;
use crate::ui::keymap::Command;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub struct Table {
    pub env: Arc<Envelope>,
    pub columns: Vec<(String, usize)>,
    /// The last column's widest value uncut (up to `LAST_MAX`): it takes the room the pane has
    /// left, so a description is not cut at 40 columns beside empty space.
    last_wide: usize,
    pub scroll: Scroll,
    /// A record opened with Enter.
    pub record: Option<JsonView>,
    pub search: Search,
}

fn cell(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) => format!("{{…{}}}", m.len()),
        Value::Array(a) => format!("[{}]", a.len()),
        other => other.to_string(),
    }
}

/// Record `i` of a table, `item` parsed, with its text read once for all the cells of its row
/// that need it.
struct Record<'a> {
    env: &'a Envelope,
    i: usize,
    item: &'a Value,
    members: OnceCell<Option<HashMap<String, String>>>,
}

impl<'a> Record<'a> {
    fn new(env: &'a Envelope, i: usize, item: &'a Value) -> Record<'a> {
        Record { env, i, item, members: OnceCell::new() }
    }

    /// A number cell as the server wrote it. A number that reads as a float (an integer past 64
    /// bits, `1.10`, `1e5`) holds only an approximation of its text: it is shown from the
    /// record's text, so that `100000000000000000002` is not `1e+20` like its neighbours.
    fn number(&self, key: &str, n: &serde_json::Number) -> String {
        if !n.is_f64() {
            return n.to_string();
        }
        let literal = match self.item {
            Value::Object(_) => self
                .members
                .get_or_init(|| member_literals(&self.env.data.item_text(self.i)?))
                .as_ref()
                .and_then(|m| m.get(key).cloned()),
            _ => self.env.data.item_text(self.i).map(|t| t.trim().to_string()),
        };
        literal.filter(|l| l.starts_with(|c: char| c == '-' || c.is_ascii_digit())).unwrap_or_else(|| n.to_string())
    }

    /// What the cell of `key` (`v`) shows, before it is cut to its column.
    fn cell(&self, key: &str, v: &Value) -> String {
        match v {
            Value::Number(n) => self.number(key, n),
            other => cell(other),
        }
    }
}

/// The members of the JSON object `record`, each as written (None when it is not one).
fn member_literals(record: &str) -> Option<HashMap<String, String>> {
    let members: HashMap<String, &serde_json::value::RawValue> = serde_json::from_str(record).ok()?;
    Some(members.into_iter().map(|(k, raw)| (k, raw.get().to_string())).collect())
}

/// What a list without records is called.
pub const EMPTY: &str = "empty list";

/// The most columns the last column takes when the pane has room.
const LAST_MAX: usize = 400;

fn widen(columns: &mut Vec<(String, usize)>, key: &str, width: usize) {
    if let Some(col) = columns.iter_mut().find(|(c, _)| c == key) {
        col.1 = col.1.max(width);
    } else if columns.len() < 40 {
        columns.push((key.to_string(), width.max(key.chars().count())));
    }
}

impl Table {
    pub fn new(env: Arc<Envelope>) -> Table {
        let mut columns: Vec<(String, usize)> = vec![];
        let n = env.item_count();
        // The first and the last records: widths of ids and counters grow towards the end.
        let tail = n.saturating_sub(200).max(200.min(n));
        let measured = || (0..200.min(n)).chain(tail..n).filter_map(|i| Some((i, env.data.item(i)?)));
        for (i, item) in measured() {
            let record = Record::new(&env, i, &item);
            match item.as_ref() {
                Value::Object(m) => {
                    for (k, v) in m {
                        widen(&mut columns, k, record.cell(k, v).chars().count().min(40));
                    }
                }
                other => widen(&mut columns, "value", record.cell("value", other).chars().count().min(60)),
            }
        }
        let last_wide = columns.last().map_or(0, |(key, w)| {
            let wide = measured().map(|(i, item)| {
                let record = Record::new(&env, i, &item);
                match item.as_ref() {
                    Value::Object(m) => m.get(key).map_or(0, |v| record.cell(key, v).chars().count().min(LAST_MAX)),
                    other => record.cell(key, other).chars().count().min(LAST_MAX),
                }
            });
            wide.max().unwrap_or(0).max(*w)
        });
        Table { env, columns, last_wide, scroll: Scroll::new(n), record: None, search: Search::default() }
    }

    pub fn set_height(&mut self, rows: usize) {
        // The header row and the footer row are not records.
        self.scroll.set_height(rows.saturating_sub(2));
    }

    pub fn command(&mut self, cmd: Command) -> bool {
        if let Some(r) = &mut self.record {
            return r.command(cmd);
        }
        if self.scroll.len == 0 {
            return false;
        }
        match cmd {
            Command::Down => self.scroll.down(1),
            Command::Up => self.scroll.up(1),
            Command::PageDown => self.scroll.page_down(),
            Command::PageUp => self.scroll.page_up(),
            Command::Top => self.scroll.first(),
            Command::Bottom => self.scroll.last(),
            Command::Activate | Command::Expand => {
                let at = self.scroll.cursor;
                let text = self.env.data.item_text(at).unwrap_or_default().into_owned();
                let mut v = JsonView::from_text(Arc::<str>::from(text), &format!("data[{at}]"));
                v.height = self.scroll.height.max(1);
                self.record = Some(v);
            }
            Command::NextMatch => self.find(true),
            Command::PrevMatch => self.find(false),
            _ => return false,
        }
        true
    }

    /// The next (or previous) record whose text holds the query, wrapping once. Records are
    /// read one at a time: a long list costs a scan, never a copy.
    pub fn find(&mut self, forward: bool) {
        self.find_from(self.scroll.cursor, forward, false);
    }

    /// Enter in the prompt: the first match from the cursor on (it included).
    pub fn find_first(&mut self) {
        self.find_from(self.scroll.cursor, true, true);
    }

    fn find_from(&mut self, from: usize, forward: bool, inclusive: bool) {
        let q = self.search.query.text().to_ascii_lowercase();
        let n = self.scroll.len;
        if q.is_empty() || n == 0 {
            return;
        }
        let steps = if inclusive { 0..n } else { 1..n + 1 };
        let hit = steps
            .map(|k| if forward { (from + k) % n } else { (from + n * 2 - k) % n })
            .find(|&i| self.env.data.item_text(i).is_some_and(|t| contains_ci(&t, &q)));
        match hit {
            Some(i) => {
                self.scroll.select(i);
                self.search.note = None;
            }
            None => self.search.note = Some(format!("no record holds {:?}", self.search.query.text())),
        }
    }

    /// The selected record's text (for `o` and copying).
    pub fn selected_text(&self) -> Option<String> {
        self.env.data.item_text(self.scroll.cursor).map(|s| s.into_owned())
    }

    /// Each column's width in a pane `width` columns wide: as measured, the last one fitted to
    /// the room left (up to its widest value).
    fn widths(&self, width: usize, num_w: usize) -> Vec<usize> {
        let mut ws: Vec<usize> = self.columns.iter().map(|(_, w)| *w).collect();
        let used: usize = num_w + 1 + ws.iter().map(|w| w + 1).sum::<usize>();
        if let Some(last) = ws.last_mut() {
            let room = width.saturating_sub(used - *last);
            // Narrower than measured when the pane is: the column cuts its values with `…`.
            *last = room.min(self.last_wide.max(*last)).max(4);
        }
        ws
    }

    fn row(&self, i: usize, item: &Value, at: (usize, usize), ws: &[usize], theme: &Theme) -> Line<'static> {
        let (num_w, first_item) = at;
        let mut spans = vec![Span::styled(format!("{:>num_w$} ", first_item + i + 1), theme.paint(Role::Dim))];
        let record = Record::new(&self.env, i, item);
        for ((c, _), w) in self.columns.iter().zip(ws) {
            let v = match item {
                Value::Object(m) => m.get(c),
                other if c == "value" => Some(other),
                _ => None,
            };
            let (text, role) = match v {
                None => (String::new(), Role::Dim),
                Some(Value::String(s)) => (s.clone(), Role::JsonString),
                Some(Value::Number(n)) => (record.number(c, n), Role::JsonNumber),
                Some(Value::Bool(b)) => (b.to_string(), Role::JsonBool),
                Some(Value::Null) => ("null".into(), Role::JsonNull),
                Some(other) => (cell(other), Role::Dim),
            };
            let shown = sanitize::truncate(&sanitize::line(&text), *w).into_owned();
            spans.push(Span::styled(format!("{shown:<w$} "), theme.paint(role)));
        }
        Line::from(spans)
    }

    /// A list without records: said plainly, with no header of columns that are not there and
    /// no record to open.
    fn draw_empty(&self, f: &mut Frame, area: Rect, theme: &Theme) {
        let line = Line::styled(format!("{EMPTY}: 0 records"), theme.paint(Role::Dim));
        let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
        f.render_widget(Paragraph::new(crate::ui::fit::fit(line, area.width as usize)), body);
        // A search typed here still shows what is being typed.
        let foot = Line::from(self.search.footer(theme));
        f.render_widget(Paragraph::new(crate::ui::fit::fit(foot, area.width as usize)), footer);
    }

    pub fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool, first_item: usize) {
        if let Some(r) = &self.record {
            r.render(f, area, theme, focused);
            return;
        }
        if self.scroll.len == 0 {
            self.draw_empty(f, area, theme);
            return;
        }
        let h = area.height.saturating_sub(2) as usize;
        let n = self.scroll.len;
        let num_w = (first_item + n).to_string().len().max(1);
        let ws = self.widths(area.width as usize, num_w);
        let mut head = vec![Span::styled(format!("{:>num_w$} ", "#"), theme.paint(Role::Dim))];
        for ((c, _), w) in self.columns.iter().zip(&ws) {
            head.push(Span::styled(
                format!("{:<w$} ", sanitize::truncate(&sanitize::line(c), *w)),
                theme.paint(Role::JsonKey).add_modifier(Modifier::BOLD),
            ));
        }
        let mut lines = vec![crate::ui::fit::fit(Line::from(head), area.width as usize)];
        for i in self.scroll.window(h) {
            let Some(item) = self.env.data.item(i) else { continue };
            let line = self.row(i, item.as_ref(), (num_w, first_item), &ws, theme);
            let line = super::text::highlight(&line, self.search.query.text(), theme);
            let line = crate::ui::fit::fit(line, area.width as usize);
            lines.push(if i == self.scroll.cursor && focused { line.style(theme.selection()) } else { line });
        }
        // The search prompt first: a narrow pane must not push what is being typed off its edge.
        let mut foot = self.search.footer(theme);
        if let Some(first) = foot.first_mut() {
            first.content = first.content.trim_start().to_string().into();
        }
        foot.push(Span::styled(
            format!(
                "data[{}] · {} · {} opens the record · {} shows it whole",
                self.scroll.cursor,
                super::count(self.columns.len(), "column", "columns"),
                crate::ui::keymap::key(crate::ui::keymap::Scope::Result, Command::Activate),
                crate::ui::keymap::key(crate::ui::keymap::Scope::Result, Command::Open)
            ),
            theme.paint(Role::Key),
        ));
        if foot.len() > 1 {
            foot.insert(foot.len() - 1, Span::raw("  "));
        }
        let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
        f.render_widget(Paragraph::new(lines), body);
        f.render_widget(Paragraph::new(crate::ui::fit::fit(Line::from(foot), area.width as usize)), footer);
    }
}

#[cfg(test)]
mod tests {
    /// A record's numbers are read back as written, whatever else the record holds.
    #[test]
    fn member_literals_are_read_as_written() {
        let record = r#"{"id": 2, "v": 100000000000000000002, "s": "x\"y", "f": 1.10, "e": -1e5}"#;
        let members = super::member_literals(record).unwrap_or_default();
        assert_eq!(members.get("v").map(String::as_str), Some("100000000000000000002"));
        assert_eq!(members.get("f").map(String::as_str), Some("1.10"));
        assert_eq!(members.get("e").map(String::as_str), Some("-1e5"));
        assert_eq!(members.get("missing"), None);
        assert_eq!(super::member_literals("[1, 2]"), None);
        assert_eq!(super::member_literals("{broken"), None);
    }
}
