//! The selected tool's input and output schemas as one foldable tree (or the raw JSON as sent).
//!
//! The tree is flattened here into the rows that are open, and scrolled with `Scroll`: drawing
//! reads those rows and writes nothing (tui-tree-widget keeps its scroll offset and last rows in
//! its state during rendering, which a pure draw cannot allow).

use std::cell::RefCell;
use std::collections::HashSet;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use tui_tree_widget::{Tree, TreeItem, TreeState};

use crate::mcp::ToolDescriptor;
use crate::sanitize;
use crate::schema::tree::{self, SchemaNode};
use crate::ui::component::{Component, Ctx, Used};
use crate::ui::keymap::{Command, Scope};
use crate::ui::schema_view::{EXPAND_ALL_BELOW, node_line};
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

/// One visible row: where its node sits (indices from a root down), how deep, and whether it
/// has children to fold.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    path: Vec<usize>,
    parent: bool,
}

pub struct SchemaPane {
    /// The tool's index in the list, to rebuild only when the selection changes.
    pub tool: usize,
    name: String,
    title: Option<String>,
    /// The description's first lines, cut to what a header can show: computed once, so a frame
    /// costs the same for a 60 MB description as for a short one.
    description: Vec<String>,
    problem: Option<String>,
    raw_text: String,
    roots: Vec<SchemaNode>,
    pub nodes: usize,
    /// The tree widget's state: which nodes are open, the selected one (a node's identifier is
    /// its path of child indices from a root), and the window's offset, which drawing moves to
    /// keep the selection in view (hence the cell: drawing takes the pane by reference).
    state: RefCell<TreeState<usize>>,
    /// The visible rows, in order, from the open nodes: what the keys move through. Rebuilt when
    /// a node opens or closes, not each frame.
    rows: Vec<Row>,
    pub scroll: Scroll,
    /// The schema as sent, pretty-printed, while `r` shows it.
    raw: Option<super::raw_rows::RawRows>,
    raw_scroll: Scroll,
    /// What changed in this tool since the saved snapshot (empty when nothing did, or when no
    /// snapshot was compared).
    since: Vec<SinceLine>,
}

/// A line of the "since the snapshot" section: a heading, or one change.
#[derive(Debug, Clone, PartialEq)]
enum SinceLine {
    New,
    Heading { changes: usize, breaking: usize },
    Change { breaking: bool, path: String, what: String },
    More(usize),
}

/// The most changes the header lists (the info pane, `i`, lists them all).
const SINCE_SHOWN: usize = 6;

/// The first [`HEAD_LINES`] lines of a description, each cut to [`HEAD_CHARS`] characters, made
/// safe for the terminal; "…" says there is more (the raw view, `r`, has it all). Only a prefix
/// of the text is read.
fn description_head(d: &str) -> Vec<String> {
    const HEAD_LINES: usize = 4;
    const HEAD_CHARS: usize = 1000;
    let mut end = d.len().min(HEAD_LINES * HEAD_CHARS * 4);
    while !d.is_char_boundary(end) {
        end -= 1;
    }
    let text = sanitize::text(&d[..end]);
    let mut lines: Vec<String> = text.lines().take(HEAD_LINES + 1).map(str::to_string).collect();
    let mut more = end < d.len() || lines.len() > HEAD_LINES;
    lines.truncate(HEAD_LINES);
    for l in &mut lines {
        if let Some((cut, _)) = l.char_indices().nth(HEAD_CHARS) {
            l.truncate(cut);
            more = true;
        }
    }
    if more && let Some(last) = lines.last_mut() {
        last.push_str(" …");
    }
    lines
}

impl SchemaPane {
    pub fn new(tool: usize, t: &ToolDescriptor) -> SchemaPane {
        let mut roots = vec![];
        for (label, schema) in [("input", t.input_schema()), ("output", t.output_schema())] {
            if let Some(schema) = schema {
                roots.push(tree::build_labeled(schema, label));
            }
        }
        let nodes = roots.iter().map(SchemaNode::count).sum();
        let mut pane = SchemaPane {
            tool,
            name: t.name().to_string(),
            title: t.title().map(str::to_string),
            description: crate::ui::app_marks::header(t)
                .into_iter()
                .chain(t.description().map(description_head).unwrap_or_default())
                .collect(),
            problem: t.problem(),
            raw_text: t.raw.get().to_string(),
            roots,
            nodes,
            state: RefCell::new(TreeState::default()),
            rows: vec![],
            scroll: Scroll::default(),
            raw: None,
            raw_scroll: Scroll::default(),
            since: vec![],
        };
        pane.open_to(if nodes < EXPAND_ALL_BELOW { usize::MAX } else { 2 });
        pane
    }

    /// What the snapshot comparison says of this tool (`name`), for the header.
    pub fn set_since(&mut self, c: &crate::ui::baseline::Compared, name: &str) {
        use crate::schema::diff::Impact;
        use crate::ui::baseline::Mark;
        self.since.clear();
        if c.marks.get(name) == Some(&Mark::New) {
            self.since.push(SinceLine::New);
            return;
        }
        let Some(changes) = c.changes.get(name).filter(|ch| !ch.is_empty()) else { return };
        let breaking = changes.iter().filter(|ch| ch.impact == Impact::Breaking).count();
        self.since.push(SinceLine::Heading { changes: changes.len(), breaking });
        for ch in changes.iter().take(SINCE_SHOWN) {
            let (path, what) = (sanitize::line(&ch.path).into_owned(), sanitize::line(&ch.what).into_owned());
            self.since.push(SinceLine::Change { breaking: ch.impact == Impact::Breaking, path, what });
        }
        if changes.len() > SINCE_SHOWN {
            self.since.push(SinceLine::More(changes.len() - SINCE_SHOWN));
        }
    }

    fn since_line(line: &SinceLine, t: &Theme) -> Line<'static> {
        match line {
            SinceLine::New => Line::styled("+ new since the saved snapshot", t.paint(Role::Added)),
            SinceLine::Heading { changes, breaking } => Line::styled(
                format!(
                    "since the saved snapshot: {} ({breaking} breaking)",
                    crate::ui::result::count(*changes, "change", "changes")
                ),
                t.paint(if *breaking > 0 { Role::Breaking } else { Role::Compatible }),
            ),
            SinceLine::Change { breaking, path, what } => {
                let (label, role) =
                    if *breaking { ("BREAKING   ", Role::Breaking) } else { ("compatible ", Role::Compatible) };
                Line::from(vec![
                    Span::styled(format!("  {label}"), t.paint(role)),
                    Span::styled(path.clone(), t.paint(Role::Key)),
                    Span::styled(format!("  {what}"), t.paint(Role::Text)),
                ])
            }
            SinceLine::More(n) => {
                Line::styled(format!("  … {n} more (i: the server info lists them all)"), t.paint(Role::Dim))
            }
        }
    }

    /// The schema node under the cursor.
    pub fn selected_node(&self) -> Option<&SchemaNode> {
        self.node(&self.rows.get(self.scroll.cursor)?.path)
    }

    fn node(&self, path: &[usize]) -> Option<&SchemaNode> {
        let (first, rest) = path.split_first()?;
        let mut node = self.roots.get(*first)?;
        for i in rest {
            node = node.children.get(*i)?;
        }
        Some(node)
    }

    pub fn raw_shown(&self) -> bool {
        self.raw.is_some()
    }

    /// The pane's title: the tool's name, its title, and the mode.
    pub fn pane_title(&self) -> String {
        let mut title = format!(" {} ", sanitize::line(&self.name));
        if let Some(tt) = &self.title {
            title = format!(" {} — {} ", sanitize::line(&self.name), sanitize::line(tt));
        }
        if self.raw.is_some() {
            title.push_str("· raw JSON as sent ");
        }
        title
    }

    /// Opens every node with children down to `depth` levels (walked with a stack, not
    /// recursion: a schema's depth is the server's to choose).
    fn open_to(&mut self, depth: usize) {
        let mut stack: Vec<Vec<usize>> = (0..self.roots.len()).map(|i| vec![i]).collect();
        while let Some(path) = stack.pop() {
            let Some(node) = self.node(&path) else { continue };
            if node.children.is_empty() || path.len() > depth {
                continue;
            }
            for i in 0..node.children.len() {
                let mut child = path.clone();
                child.push(i);
                stack.push(child);
            }
            self.state.get_mut().open(path);
        }
        self.reflow();
    }

    /// The visible rows from the open set, keeping the cursor on the same node where it can.
    fn reflow(&mut self) {
        let keep = self.rows.get(self.scroll.cursor).map(|r| r.path.clone());
        let opened: HashSet<Vec<usize>> = self.state.get_mut().opened().clone();
        self.rows.clear();
        let mut stack: Vec<Vec<usize>> = (0..self.roots.len()).rev().map(|i| vec![i]).collect();
        while let Some(path) = stack.pop() {
            let Some(node) = self.node(&path) else { continue };
            let parent = !node.children.is_empty();
            if parent && opened.contains(&path) {
                for i in (0..node.children.len()).rev() {
                    let mut child = path.clone();
                    child.push(i);
                    stack.push(child);
                }
            }
            self.rows.push(Row { path, parent });
        }
        self.scroll.set_len(self.rows.len());
        if let Some(at) = keep.and_then(|k| self.rows.iter().position(|r| r.path == k)) {
            self.scroll.select(at);
        }
        self.sync_selection();
    }

    /// Tells the tree's state which row the cursor is on (the keys move the cursor).
    fn sync_selection(&mut self) {
        let path = self.rows.get(self.scroll.cursor).map(|r| r.path.clone()).unwrap_or_default();
        self.state.get_mut().select(path);
    }

    fn expand(&mut self) {
        let Some(row) = self.rows.get(self.scroll.cursor).cloned() else { return };
        if !row.parent {
            return;
        }
        if self.state.get_mut().open(row.path) {
            self.reflow();
        } else {
            self.scroll.down(1);
            self.sync_selection();
        }
    }

    /// Folds the node, or goes to its parent; false at a folded root (the focus may move on).
    fn collapse(&mut self) -> bool {
        let Some(row) = self.rows.get(self.scroll.cursor).cloned() else { return false };
        if row.parent && self.state.get_mut().close(&row.path) {
            self.reflow();
            return true;
        }
        let parent = &row.path[..row.path.len().saturating_sub(1)];
        match self.rows.iter().position(|r| r.path == parent).filter(|_| !parent.is_empty()) {
            Some(at) => {
                self.scroll.select(at);
                self.sync_selection();
                true
            }
            None => false,
        }
    }

    fn toggle(&mut self) {
        let Some(row) = self.rows.get(self.scroll.cursor).cloned() else { return };
        if row.parent {
            self.state.get_mut().toggle(row.path);
            self.reflow();
        }
    }

    fn toggle_raw(&mut self) {
        self.raw = match self.raw {
            Some(_) => None,
            None => Some(super::raw_rows::RawRows::new(crate::json_pretty::lines(&self.raw_text, 200_000))),
        };
        self.raw_scroll = Scroll::new(self.raw.as_ref().map_or(0, super::raw_rows::RawRows::len));
        self.raw_scroll.height = self.scroll.height;
    }

    /// Where the description, the tree and the selected node's detail go inside `area`.
    fn parts(&self, area: Rect, t: &Theme) -> (Rect, Rect, Rect) {
        let header = self.header(t);
        let width = area.width.max(1) as usize;
        let wrapped: usize = header.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
        let header_h = (wrapped as u16).min(area.height / 3);
        let [head, body] = Layout::vertical([Constraint::Length(header_h), Constraint::Min(1)]).areas(area);
        if self.raw.is_some() {
            return (head, body, Rect::default());
        }
        let detail_h =
            self.selected_node().map_or(0, |n| (node_line(n, t).width().max(1).div_ceil(width) as u16).min(4) + 1);
        let [tree, detail] = Layout::vertical([Constraint::Min(1), Constraint::Length(detail_h)]).areas(body);
        (head, tree, detail)
    }

    fn header(&self, t: &Theme) -> Vec<Line<'static>> {
        let mut header = vec![];
        if let Some(p) = &self.problem {
            header.push(Line::styled(format!("malformed descriptor: {}", sanitize::line(p)), t.paint(Role::Error)));
        }
        header.extend(self.since.iter().map(|l| Self::since_line(l, t)));
        if self.raw.is_none() {
            header.extend(self.description.iter().map(|l| Line::styled(l.clone(), t.paint(Role::Text))));
        }
        header
    }

    /// Sets the page sizes for a pane of `area` (called from the layout, not the draw).
    pub fn set_area(&mut self, area: Rect, t: &Theme) {
        let (_, tree, _) = self.parts(area, t);
        self.scroll.set_height(tree.height as usize);
        if let Some(raw) = &mut self.raw {
            // Rows cut again for the new width: the top row keeps showing the same place.
            let place = raw.place(self.raw_scroll.top);
            if raw.set_width(tree.width as usize) {
                self.raw_scroll.set_len(raw.len());
                self.raw_scroll.top = raw.row_of(place);
                self.raw_scroll.cursor = self.raw_scroll.top;
            }
        }
        self.raw_scroll.set_height(tree.height as usize);
        self.raw_scroll.scroll_by(0);
    }

    /// Selects the row at screen line `y` of a pane drawn in `area`; a click on the selected
    /// row folds or unfolds it.
    pub fn click(&mut self, area: Rect, y: u16, t: &Theme) {
        let (_, tree, _) = self.parts(area, t);
        if self.raw.is_some() || y < tree.y || y >= tree.bottom() {
            return;
        }
        let Some(path) = self.state.get_mut().rendered_at(Position::new(tree.x, y)).map(<[usize]>::to_vec) else {
            return;
        };
        match self.rows.iter().position(|r| r.path == path) {
            Some(at) if at == self.scroll.cursor => self.toggle(),
            Some(at) => {
                self.scroll.select(at);
                self.sync_selection();
            }
            None => {}
        }
    }

    /// The rows as the tree widget's items: every visible node, and under each closed one a
    /// blank stand-in child, so that it shows as closed without building what it hides (a frame
    /// costs the visible rows, not the schema). Built from the rows in order, without recursion.
    /// Each row is fitted to what the widget leaves it of `width` (see [`tree_room`]), as the
    /// widget clips a row silently.
    fn items(&self, t: &Theme, width: usize) -> Vec<TreeItem<'static, usize>> {
        // Open ancestors, each with the children gathered so far.
        let mut stack: Vec<(usize, Line<'static>, Vec<TreeItem<'static, usize>>)> = vec![];
        let mut roots = vec![];
        let close = |stack: &mut Vec<(usize, Line<'static>, Vec<TreeItem<'static, usize>>)>,
                     roots: &mut Vec<TreeItem<'static, usize>>| {
            if let Some((id, line, children)) = stack.pop() {
                let item = TreeItem::new(id, line.clone(), children).unwrap_or_else(|_| TreeItem::new_leaf(id, line));
                match stack.last_mut() {
                    Some(parent) => parent.2.push(item),
                    None => roots.push(item),
                }
            }
        };
        for (i, row) in self.rows.iter().enumerate() {
            while stack.len() >= row.path.len() {
                close(&mut stack, &mut roots);
            }
            let Some(node) = self.node(&row.path) else { continue };
            let id = row.path.last().copied().unwrap_or(0);
            let line = crate::ui::fit::fit(node_line(node, t), tree_room(width, row.path.len()));
            // Open: the next row is its first child.
            if self.rows.get(i + 1).is_some_and(|next| next.path.len() > row.path.len()) {
                stack.push((id, line, vec![]));
                continue;
            }
            let children = if row.parent { vec![TreeItem::new_leaf(usize::MAX, "")] } else { vec![] };
            let item = TreeItem::new(id, line.clone(), children).unwrap_or_else(|_| TreeItem::new_leaf(id, line));
            match stack.last_mut() {
                Some(parent) => parent.2.push(item),
                None => roots.push(item),
            }
        }
        while !stack.is_empty() {
            close(&mut stack, &mut roots);
        }
        roots
    }
}

/// The columns the tree widget leaves a row's text at `depth` (1 for a root) in a pane `width`
/// wide: two per level below the root, then two for the fold symbol (`▸ `, or blank).
fn tree_room(width: usize, depth: usize) -> usize {
    width.saturating_sub(depth.saturating_sub(1) * 2 + 2)
}

impl Component for SchemaPane {
    fn scope(&self) -> Scope {
        Scope::Schema
    }

    fn command(&mut self, cmd: Command, _cx: &mut Ctx) -> Used {
        if let Some(_raw) = &self.raw {
            let s = &mut self.raw_scroll;
            match cmd {
                Command::Down => s.scroll_by(1),
                Command::Up => s.scroll_by(-1),
                Command::Top => s.scroll_by(isize::MIN / 2),
                Command::Bottom => s.scroll_by(isize::MAX / 2),
                Command::PageDown => s.scroll_by(crate::ui::scroll::page(s.height) as isize),
                Command::PageUp => s.scroll_by(-(crate::ui::scroll::page(s.height) as isize)),
                Command::ToggleRaw | Command::Back => self.toggle_raw(),
                _ => return Used::No,
            }
            return Used::Yes;
        }
        match cmd {
            cmd if self.scroll.navigate(cmd) => self.sync_selection(),
            Command::Expand => self.expand(),
            Command::Collapse => return if self.collapse() { Used::Yes } else { Used::No },
            Command::Activate => self.toggle(),
            Command::ExpandAll => self.open_to(usize::MAX),
            Command::CollapseAll => {
                self.state.get_mut().close_all();
                self.reflow();
            }
            Command::ToggleRaw => self.toggle_raw(),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, _focused: bool) {
        let (head, tree, detail) = self.parts(area, t);
        if head.height > 0 {
            f.render_widget(Paragraph::new(self.header(t)).wrap(Wrap { trim: false }), head);
        }
        if let Some(raw) = &self.raw {
            let top = self.raw_scroll.top.min(raw.len().saturating_sub(tree.height as usize));
            let lines = raw.draw(top..(top + tree.height as usize).min(raw.len()), t);
            f.render_widget(Paragraph::new(lines), tree);
            return;
        }
        if self.roots.is_empty() {
            f.render_widget(Paragraph::new("this tool has no input schema").style(t.paint(Role::Warning)), tree);
            return;
        }
        let items = self.items(t, tree.width as usize);
        if let Ok(widget) = Tree::new(&items) {
            let widget = widget.highlight_style(t.selection()).node_closed_symbol("▸ ").node_open_symbol("▾ ");
            f.render_stateful_widget(widget, tree, &mut self.state.borrow_mut());
        }
        if let Some(n) = self.selected_node() {
            let block = Block::default().borders(Borders::TOP).border_style(t.border(false));
            f.render_widget(Paragraph::new(node_line(n, t)).wrap(Wrap { trim: false }).block(block), detail);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pane(schema: serde_json::Value) -> SchemaPane {
        let raw = json!({"name": "t", "inputSchema": schema}).to_string();
        let raw = serde_json::value::RawValue::from_string(raw).unwrap_or_else(|e| panic!("{e}"));
        let mut p = SchemaPane::new(0, &ToolDescriptor::from_raw(&raw, 10_000));
        p.set_area(Rect::new(0, 0, 80, 20), &Theme::default());
        p
    }

    fn labels(p: &SchemaPane) -> Vec<String> {
        p.rows.iter().filter_map(|r| p.node(&r.path)).map(|n| n.label.clone()).collect()
    }

    #[test]
    fn folds_unfolds_and_walks_to_the_parent() {
        let theme = Theme::default();
        let mut cx = Ctx::new(&theme);
        let mut p = pane(
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}, "c": {"type": "integer"}}}),
        );
        assert_eq!(labels(&p), ["input", "a", "b", "c"]);
        p.command(Command::Down, &mut cx);
        p.command(Command::Collapse, &mut cx);
        assert_eq!(labels(&p), ["input", "a", "c"]);
        p.command(Command::Expand, &mut cx);
        p.command(Command::Expand, &mut cx);
        assert_eq!(p.selected_node().map(|n| n.label.as_str()), Some("b"));
        // h on a leaf goes to its parent; on a folded root it is not used (the focus moves on).
        p.command(Command::Collapse, &mut cx);
        assert_eq!(p.selected_node().map(|n| n.label.as_str()), Some("a"));
        p.command(Command::CollapseAll, &mut cx);
        assert_eq!(labels(&p), ["input"]);
        assert_eq!(p.command(Command::Collapse, &mut cx), Used::No);
        p.command(Command::ExpandAll, &mut cx);
        assert_eq!(labels(&p).len(), 4);
    }

    #[test]
    fn a_deep_schema_opens_without_recursion_and_clicks_select_rows() {
        let mut schema = json!({"type": "string"});
        for _ in 0..200 {
            schema = json!({"type": "object", "properties": {"x": schema}});
        }
        let mut p = pane(schema);
        let theme = Theme::default();
        let mut cx = Ctx::new(&theme);
        p.command(Command::ExpandAll, &mut cx);
        p.command(Command::Bottom, &mut cx);
        assert!(p.rows.len() > 2);
        let area = Rect::new(0, 0, 80, 20);
        p.command(Command::Top, &mut cx);
        // A click selects what the tree widget drew at that line.
        let mut term =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 20)).unwrap_or_else(|e| panic!("{e}"));
        term.draw(|f| p.draw(f, area, &theme, true)).unwrap_or_else(|e| panic!("{e}"));
        p.click(area, p.parts(area, &theme).1.y + 1, &theme);
        assert_eq!(p.scroll.cursor, 1);
        // On the selected row, a click folds it.
        term.draw(|f| p.draw(f, area, &theme, true)).unwrap_or_else(|e| panic!("{e}"));
        p.click(area, p.parts(area, &theme).1.y + 1, &theme);
        assert_eq!(p.rows.len(), 2);
    }
}
