//! The JSON tree viewer every result view uses: folding, search with highlighted matches, the path
//! of the selected node, and the selected value's whole text (which the result shows in an
//! overlay). It draws only the rows on screen, walking the flat row model from the top row.
//!
//! Unlike the schema tree, this does not use tui-tree-widget: the widget takes the items of
//! every open node on each frame and flattens them all before drawing, so a result of 100,000
//! rows would cost 100,000 items per frame, and its nodes' text would be built up front; here a
//! frame costs the rows on screen, and a container's rows are built when it is first opened.

use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::keymap::Command;
use super::theme::{Role, Theme};
use crate::jsontree::{Folds, JsonTree, Kind};
use crate::sanitize;

/// Longest piece of a value drawn on a line; the rest is behind `o`.
const MAX_CELL: usize = 400;

pub struct JsonView {
    pub tree: Arc<JsonTree>,
    pub folds: Folds,
    pub cursor: usize,
    pub top: usize,
    pub height: usize,
    pub query: LineInput,
    /// The search prompt is open and takes typing.
    pub searching: bool,
    pub search_note: Option<String>,
}

use super::fuzzy::contains_ci;
use super::line_input::{Edit, LineInput};

impl JsonView {
    pub fn new(tree: Arc<JsonTree>) -> Self {
        let folds = Folds::initial(&tree);
        JsonView {
            tree,
            folds,
            cursor: 0,
            top: 0,
            height: 20,
            query: LineInput::default(),
            searching: false,
            search_note: None,
        }
    }

    pub fn from_text(text: impl Into<crate::skeleton::SharedText>, root: &str) -> Self {
        JsonView::new(Arc::new(JsonTree::build(text, root)))
    }

    /// A view of the document at `range` of a shared text.
    pub fn from_text_in(
        text: impl Into<crate::skeleton::SharedText>,
        range: std::ops::Range<usize>,
        root: &str,
    ) -> Self {
        JsonView::new(Arc::new(JsonTree::build_in(text, range, root)))
    }

    /// Keeps the cursor on screen, looking at no more than a screenful of rows.
    pub(crate) fn follow(&mut self) {
        self.top = self.window_top(self.height);
    }

    /// The first row of a `height`-row window that shows the cursor, starting from `top`.
    fn window_top(&self, height: usize) -> usize {
        let h = height.max(1);
        if self.cursor < self.top {
            return self.cursor;
        }
        let mut i = self.top;
        for _ in 0..h {
            if i == self.cursor {
                return self.top;
            }
            match self.folds.next(&self.tree, i) {
                Some(n) => i = n,
                None => break,
            }
        }
        // Below the window: put the cursor on the last line.
        let mut t = self.cursor;
        for _ in 1..h {
            match self.folds.prev(&self.tree, t) {
                Some(p) => t = p,
                None => break,
            }
        }
        t
    }

    fn step(&mut self, down: bool, n: usize) {
        for _ in 0..n {
            let next =
                if down { self.folds.next(&self.tree, self.cursor) } else { self.folds.prev(&self.tree, self.cursor) };
            match next {
                Some(c) => self.cursor = c,
                None => break,
            }
        }
    }

    /// Handles a navigation command; false if it is not the viewer's.
    pub fn command(&mut self, cmd: Command) -> bool {
        if self.tree.is_empty() {
            return false;
        }
        let page = self.height.saturating_sub(1).max(1);
        match cmd {
            Command::Down => self.step(true, 1),
            Command::Up => self.step(false, 1),
            Command::PageDown => self.step(true, page),
            Command::PageUp => self.step(false, page),
            Command::Top => self.cursor = 0,
            Command::Bottom => self.cursor = self.folds.last(&self.tree),
            Command::Expand => {
                if self.tree.is_container(self.cursor) {
                    if self.folds.is_folded(self.cursor) {
                        self.unfold(self.cursor);
                    } else {
                        self.step(true, 1);
                    }
                }
            }
            Command::Collapse => {
                if self.tree.is_container(self.cursor) && !self.folds.is_folded(self.cursor) && self.cursor != 0 {
                    self.folds.set(self.cursor, true);
                } else {
                    let p = self.tree.rows[self.cursor].parent as usize;
                    self.cursor = self.folds.lift(&self.tree, p);
                }
            }
            // On a value, Enter is the result's: it shows the value whole.
            Command::Activate if self.tree.is_container(self.cursor) => {
                if self.folds.is_folded(self.cursor) {
                    self.unfold(self.cursor);
                } else {
                    self.folds.set(self.cursor, true);
                }
            }
            Command::NextMatch => self.search(true),
            Command::PrevMatch => self.search(false),
            Command::ExpandAll => {
                if !self.tree.fully_loaded() {
                    // Rows are rebuilt: keep the cursor and the top on the same values.
                    let (cursor, top) = (self.value_start(self.cursor), self.value_start(self.top));
                    Arc::make_mut(&mut self.tree).load_all();
                    self.cursor = self.row_at(cursor);
                    self.top = self.row_at(top);
                }
                self.folds = Folds::initial(&self.tree);
                self.folds.all(&self.tree, false);
            }
            Command::CollapseAll => {
                self.folds.all(&self.tree, true);
                self.cursor = self.folds.lift(&self.tree, self.cursor);
            }
            _ => return false,
        }
        self.follow();
        true
    }

    /// Unfolds container row `i`, giving its children rows first if they have none yet.
    pub(crate) fn unfold(&mut self, i: usize) {
        self.load(i);
        self.folds.set(i, false);
    }

    /// Gives container row `i` its children's rows (a large document has rows only down to a
    /// depth); rows after it move down. Returns how many rows were added.
    pub(crate) fn load(&mut self, i: usize) -> usize {
        if self.tree.rows.get(i).is_none_or(|r| r.loaded) {
            return 0;
        }
        let k = Arc::make_mut(&mut self.tree).load(i);
        self.folds.loaded(&self.tree, i, k);
        if self.cursor > i {
            self.cursor += k;
        }
        if self.top > i {
            self.top += k;
        }
        k
    }

    fn value_start(&self, i: usize) -> u32 {
        self.tree.rows.get(i).map_or(0, |r| r.value_start)
    }

    /// The row whose value starts at `at` (rows are in document order).
    fn row_at(&self, at: u32) -> usize {
        self.tree.rows.partition_point(|r| r.value_start < at).min(self.tree.len().saturating_sub(1))
    }

    /// The selected value whole, with its path: a string decoded, a container pretty-printed
    /// (up to 50,000 lines). Not sanitized: the overlay that shows it does that.
    pub fn value_text(&self) -> Option<(String, String)> {
        let r = self.tree.rows.get(self.cursor)?;
        let raw = self.tree.value(r);
        let text = match r.kind {
            Kind::String => serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_string()),
            Kind::Object | Kind::Array => crate::json_pretty::to_string(&crate::json_pretty::lines(raw, 50_000)),
            _ => raw.to_string(),
        };
        Some((self.tree.path(self.cursor), text))
    }

    /// The selected value's text as sent (for copying).
    pub fn selected_text(&self) -> Option<&str> {
        self.tree.rows.get(self.cursor).map(|r| self.tree.value(r))
    }

    pub fn path(&self) -> String {
        self.tree.path(self.cursor)
    }

    /// The selected node's keys and indices from the root.
    pub fn segments(&self) -> Vec<String> {
        self.tree.segments(self.cursor)
    }

    /// Finds the next (or previous) row whose key or scalar value contains the query.
    pub fn search(&mut self, forward: bool) {
        let q = self.query.text().to_ascii_lowercase();
        if q.is_empty() {
            return;
        }
        let hit = |tree: &JsonTree, i: usize| {
            let r = &tree.rows[i];
            contains_ci(tree.key(r), &q)
                || (!matches!(r.kind, Kind::Object | Kind::Array) && contains_ci(tree.value(r), &q))
        };
        // Row by row from the cursor, wrapping once. A container without rows yet whose text
        // holds the query gets them, and the search goes on inside it.
        let mut start = self.cursor;
        let mut i = self.cursor;
        let mut found = None;
        loop {
            let n = self.tree.len();
            i = if forward { (i + 1) % n } else { (i + n - 1) % n };
            if !self.tree.rows[i].loaded && contains_ci(self.tree.value(&self.tree.rows[i]), &q) {
                let k = self.load(i);
                if start > i {
                    start += k;
                }
                if !forward && k > 0 {
                    // Backwards, the subtree comes before its container: step in from past it.
                    i += k + 1;
                    continue;
                }
            }
            if hit(&self.tree, i) {
                found = Some(i);
                break;
            }
            if i == start {
                break;
            }
        }
        match found {
            Some(i) => {
                self.folds.reveal(&self.tree, i);
                self.cursor = i;
                self.search_note = None;
                self.follow();
            }
            None => self.search_note = Some(format!("no match for {:?}", self.query.text())),
        }
    }

    /// Typing into the search prompt; false when the key is not for it.
    pub fn search_key(&mut self, k: &crossterm::event::KeyEvent) -> bool {
        use crossterm::event::KeyCode;
        if !self.searching {
            return false;
        }
        if self.query.key(k) != Edit::NotMine {
            return true;
        }
        match k.code {
            KeyCode::Enter => {
                self.searching = false;
                self.search(true);
            }
            KeyCode::Esc => {
                self.searching = false;
                self.query.clear();
            }
            _ => {}
        }
        true
    }

    fn highlight(&self, text: String, style: ratatui::style::Style, theme: &Theme) -> Vec<Span<'static>> {
        let q = self.query.text().to_ascii_lowercase();
        if q.is_empty() || !contains_ci(&text, &q) {
            return vec![Span::styled(text, style)];
        }
        let mut out = vec![];
        let lower = text.to_ascii_lowercase();
        let mut at = 0;
        while let Some(pos) = lower[at..].find(&q) {
            let start = at + pos;
            let end = start + q.len();
            if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                break;
            }
            out.push(Span::styled(text[at..start].to_string(), style));
            out.push(Span::styled(
                text[start..end].to_string(),
                theme.paint(Role::Match).add_modifier(Modifier::REVERSED),
            ));
            at = end;
        }
        out.push(Span::styled(text[at..].to_string(), style));
        out
    }

    fn row_line(&self, i: usize, theme: &Theme) -> Line<'static> {
        let r = &self.tree.rows[i];
        let mut spans = vec![Span::raw("  ".repeat((r.depth as usize).min(40)))];
        let container = matches!(r.kind, Kind::Object | Kind::Array);
        let folded = self.folds.is_folded(i);
        spans.push(Span::styled(
            if !container {
                "  "
            } else if folded {
                "▸ "
            } else {
                "▾ "
            },
            theme.paint(Role::Dim),
        ));
        let parent = &self.tree.rows[r.parent as usize];
        if r.parent as usize != i {
            let key = if parent.kind == Kind::Array {
                format!("[{}]", r.index)
            } else {
                sanitize::line(self.tree.key(r)).into_owned()
            };
            spans.extend(self.highlight(key, theme.paint(Role::JsonKey), theme));
            spans.push(Span::styled(": ", theme.paint(Role::Dim)));
        }
        let (text, role) = match r.kind {
            Kind::Object => {
                let keys = super::fit::count(r.children as usize, "key", "keys");
                (if folded { format!("{{…}} {keys}") } else { format!("{{ {keys}") }, Role::Dim)
            }
            Kind::Array => {
                let items = super::fit::count(r.children as usize, "item", "items");
                (if folded { format!("[…] {items}") } else { format!("[ {items}") }, Role::Dim)
            }
            Kind::String => (self.tree.value(r).to_string(), Role::JsonString),
            Kind::Number => (self.tree.value(r).to_string(), Role::JsonNumber),
            Kind::Bool => (self.tree.value(r).to_string(), Role::JsonBool),
            Kind::Null => (self.tree.value(r).to_string(), Role::JsonNull),
        };
        let shown = sanitize::line(&sanitize::truncate(&text, MAX_CELL)).into_owned();
        spans.extend(self.highlight(shown, theme.paint(role), theme));
        if text.chars().count() > MAX_CELL {
            spans.push(Span::styled(
                format!(
                    "  ({} chars: {} shows it whole)",
                    text.chars().count(),
                    crate::ui::keymap::key(crate::ui::keymap::Scope::Result, crate::ui::keymap::Command::Open)
                ),
                theme.paint(Role::Dim),
            ));
        }
        Line::from(spans)
    }

    /// Draws the tree into `area` (with a one-line footer: the path, search state), from the
    /// rows on screen only.
    pub fn render(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        if area.height == 0 {
            return;
        }
        let height = area.height.saturating_sub(1) as usize;
        let mut lines = Vec::with_capacity(height + 1);
        let mut i = Some(self.window_top(height)).filter(|_| !self.tree.is_empty());
        while let Some(row) = i {
            if lines.len() >= height {
                break;
            }
            let line = self.row_line(row, theme);
            lines.push(if row == self.cursor && focused { line.style(theme.selection()) } else { line });
            i = self.folds.next(&self.tree, row);
        }
        if self.tree.is_empty() {
            lines.push(Line::styled("(empty)", theme.paint(Role::Dim)));
        }
        let mut foot = vec![Span::styled(sanitize::line(&self.path()).into_owned(), theme.paint(Role::Key))];
        if self.searching {
            // The prompt first: a long path must not push what is being typed off the edge.
            let prompt = format!("search: {} ({})  ", self.query.view(40, true), super::keymap::search_keys());
            foot.insert(0, Span::styled(prompt, theme.paint(Role::Match)));
        } else if !self.query.is_empty() {
            foot.push(Span::styled(
                format!("  /{}  n next · N previous", self.query.view(40, false)),
                theme.paint(Role::Dim),
            ));
        }
        if let Some(n) = &self.search_note {
            foot.push(Span::styled(format!("  {n}"), theme.paint(Role::Warning)));
        }
        if let Some(e) = &self.tree.error {
            foot.push(Span::styled(format!("  not valid JSON: {e}"), theme.paint(Role::Error)));
        }
        foot.push(Span::styled(
            format!("  {}", super::fit::count(self.tree.len(), "row", "rows")),
            theme.paint(Role::Dim),
        ));
        let body = Rect { height: area.height - 1, ..area };
        let foot_area = Rect { y: area.y + area.height - 1, height: 1, ..area };
        f.render_widget(Paragraph::new(super::fit::lines(lines, area.width as usize)), body);
        f.render_widget(Paragraph::new(super::fit::fit(Line::from(foot), area.width as usize)), foot_area);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_folds_and_searches() {
        let text: Arc<str> = Arc::from(r#"{"users": [{"login": "ada"}, {"login": "grace", "bio": "COBOL"}], "n": 2}"#);
        let mut v = JsonView::from_text(text, "data");
        v.height = 10;
        v.command(Command::Down);
        assert_eq!(v.path(), "data.users");
        v.command(Command::Collapse);
        v.command(Command::Down);
        assert_eq!(v.path(), "data.n");
        v.query.set("cobol");
        v.search(true);
        assert_eq!(v.path(), "data.users[1].bio");
        assert_eq!(v.selected_text(), Some("\"COBOL\""));
        v.command(Command::Bottom);
        assert_eq!(v.path(), "data.n");
        v.command(Command::CollapseAll);
        v.command(Command::Top);
        v.command(Command::Bottom);
        assert_eq!(v.path(), "data.n");
    }

    #[test]
    fn a_large_document_loads_rows_as_it_is_unfolded_and_searched() {
        let records: Vec<String> = (0..30_000)
            .map(|i| format!(r#"{{"id": {i}, "name": "r{i}", "tags": ["a", {{"deep": [{i}, "needle-{i}"]}}]}}"#))
            .collect();
        let text = format!(r#"{{"records": [{}], "total": 30000}}"#, records.join(","));
        let mut v = JsonView::from_text(Arc::<str>::from(text.as_str()), "sc");
        v.height = 20;
        assert!(!v.tree.fully_loaded());
        let rows = v.tree.len();
        // Search finds a value below the rows built so far, going forward and back.
        v.query.set("needle-29990");
        v.search(true);
        assert_eq!(v.path(), "sc.records[29990].tags[1].deep[1]");
        assert!(v.tree.len() > rows);
        // (The value's text has its quotes: `needle-5"` matches one value only.)
        v.query.set("needle-5\"");
        v.search(false);
        assert_eq!(v.path(), "sc.records[5].tags[1].deep[1]");
        v.query.set("needle-50\"");
        v.search(true);
        assert_eq!(v.path(), "sc.records[50].tags[1].deep[1]");
        v.search(true);
        assert_eq!(v.path(), "sc.records[50].tags[1].deep[1]", "the only match, found again after wrapping");
        // Unfolding a container without rows gives it rows; the cursor stays on it.
        v.command(Command::Top);
        v.command(Command::Bottom);
        assert_eq!(v.path(), "sc.total");
        v.command(Command::Up);
        let at = v.path();
        v.command(Command::Expand);
        assert_eq!(v.path(), at);
        v.command(Command::Down);
        assert!(v.path().starts_with(&at), "{}", v.path());
        // Expand all builds the rest and keeps the cursor's value.
        let before = v.selected_text().map(str::to_string);
        v.command(Command::ExpandAll);
        assert!(v.tree.fully_loaded());
        assert_eq!(v.selected_text().map(str::to_string), before);
        v.command(Command::Bottom);
        assert_eq!(v.path(), "sc.total");
    }
}
