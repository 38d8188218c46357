//! The tool list: every tool the server lists, filtered as you type, one selected.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::mcp::{ToolDescriptor, ToolList};
use crate::sanitize;
use crate::ui::baseline::{Compared, Mark};
use crate::ui::component::{Action, Component, Ctx, Used};
use crate::ui::fuzzy;
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::line_input::{Edit, LineInput};
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

/// What the list shows while it has no tools.
#[derive(Debug, Clone, Default)]
pub enum Status {
    #[default]
    Ready,
    Connecting {
        since: Instant,
        to: String,
    },
    Down(String),
}

#[derive(Default)]
pub struct ToolsPane {
    pub tools: Vec<ToolDescriptor>,
    pub pages: usize,
    pub warnings: Vec<String>,
    pub filter: LineInput,
    /// Typing goes to the filter.
    pub filtering: bool,
    /// Indices into `tools`, filtered and ordered.
    visible: Vec<usize>,
    pub scroll: Scroll,
    pub status: Status,
    /// What changed since the saved snapshot, when one was compared.
    pub since: Option<std::sync::Arc<Compared>>,
    /// Each tool's worst lint finding (`mcplens lint`).
    pub lint: crate::ui::lint_marks::Marks,
    /// The tools that declare an MCP App view.
    pub apps: std::collections::HashSet<String>,
}

impl ToolsPane {
    pub fn set(&mut self, list: ToolList) {
        self.tools = list.tools;
        self.lint = crate::ui::lint_marks::marks(&self.tools);
        self.apps = crate::ui::app_marks::app_tools(&self.tools);
        self.pages = list.pages;
        self.warnings = list.warnings;
        self.refilter();
    }

    pub fn selected(&self) -> Option<&ToolDescriptor> {
        self.selected_index().and_then(|i| self.tools.get(i))
    }

    /// The selected tool's index in `tools`.
    pub fn selected_index(&self) -> Option<usize> {
        self.visible.get(self.scroll.cursor).copied()
    }

    pub fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.tools.iter().find(|t| t.listed().name == name)
    }

    pub fn visible_len(&self) -> usize {
        self.visible.len()
    }

    /// Selects the tool named `name`, clearing a filter that hides it; false if it is not listed.
    pub fn select_name(&mut self, name: &str) -> bool {
        if !self.visible.iter().any(|&i| self.tools[i].listed().name == name) {
            self.filter.clear();
            self.refilter();
        }
        match self.visible.iter().position(|&i| self.tools[i].listed().name == name) {
            Some(pos) => {
                self.scroll.select(pos);
                true
            }
            None => false,
        }
    }

    /// Selects the row shown at `row` of the pane (a mouse click).
    pub fn click(&mut self, row: usize, height: usize) {
        let at = self.scroll.window(height).start + row;
        if at < self.visible.len() {
            self.scroll.select(at);
        }
    }

    pub fn clear_filter(&mut self) -> bool {
        let had = !self.filter.is_empty();
        self.filter.clear();
        self.filtering = false;
        if had {
            self.refilter();
        }
        had
    }

    fn refilter(&mut self) {
        let keep = self.selected().map(|t| t.listed().name.clone());
        // Without a filter every tool is shown in order, and none is read: a descriptor is parsed
        // when its row is drawn (20,000 tools parsed at once cost several times the list's size).
        // A filter reads each tool's name, title and description head from its text (`listed`).
        let mut scored: Vec<(i64, usize)> = if self.filter.text().trim().is_empty() {
            (0..self.tools.len()).map(|i| (0, i)).collect()
        } else {
            self.tools
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    let l = t.listed();
                    fuzzy::tool_score(self.filter.text(), &l.name, l.title.as_deref(), l.description.as_deref())
                        .map(|s| (s, i))
                })
                .collect()
        };
        if !self.filter.text().trim().is_empty() {
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        }
        self.visible = scored.into_iter().map(|(_, i)| i).collect();
        self.scroll.set_len(self.visible.len());
        let at = keep
            .and_then(|name| self.visible.iter().position(|&i| self.tools[i].listed().name == name))
            .filter(|_| self.filter.is_empty())
            .unwrap_or(0);
        self.scroll.top = 0;
        self.scroll.select(at);
    }

    fn filter_key(&mut self, key: &KeyEvent) -> Used {
        match self.filter.key(key) {
            Edit::Changed => self.refilter(),
            Edit::Moved => {}
            Edit::NotMine => match key.code {
                KeyCode::Enter => self.filtering = false,
                KeyCode::Esc => {
                    self.clear_filter();
                }
                KeyCode::Down => self.scroll.down(1),
                KeyCode::Up => self.scroll.up(1),
                _ => return Used::No,
            },
        }
        Used::Yes
    }

    fn title(&self) -> String {
        if self.filter.is_empty() && !self.filtering {
            format!(" Tools ({}){} ", self.tools.len(), self.since_title())
        } else {
            format!(" Tools ({}/{} match \"{}\") ", self.visible.len(), self.tools.len(), self.filter.view(40, false))
        }
    }

    /// The counts since the snapshot, short, for the title (the info pane has them in words).
    fn since_title(&self) -> String {
        let Some(c) = &self.since else { return String::new() };
        if c.other_server.is_some() {
            return " · snapshot of another server".into();
        }
        let parts: Vec<String> = [
            (c.count(Mark::Breaking), "✗"),
            (c.count(Mark::Compatible), "~"),
            (c.count(Mark::New), "+"),
            (c.removed.len(), "−"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, mark)| format!("{mark}{n}"))
        .collect();
        if parts.is_empty() { " · as snapshot".into() } else { format!(" {}", parts.join(" ")) }
    }

    /// The snapshot mark of a tool: breaking, changed compatibly, new; blank when unchanged or
    /// when no snapshot was compared.
    fn since_mark(&self, name: &str, t: &Theme) -> Option<Span<'static>> {
        let c = self.since.as_ref()?;
        Some(match c.marks.get(name) {
            Some(Mark::Breaking) => Span::styled("✗ ", t.paint(Role::Breaking).add_modifier(Modifier::BOLD)),
            Some(Mark::Compatible) => Span::styled("~ ", t.paint(Role::Compatible)),
            Some(Mark::New) => Span::styled("+ ", t.paint(Role::Added).add_modifier(Modifier::BOLD)),
            None => Span::raw("  "),
        })
    }

    /// The list's title for the pane's frame.
    pub fn pane_title(&self) -> String {
        self.title()
    }

    fn status_lines(&self, t: &Theme) -> Option<Vec<Line<'static>>> {
        if !self.tools.is_empty() {
            return None;
        }
        Some(match &self.status {
            Status::Connecting { since, to } => vec![Line::styled(
                format!("connecting to {} … {:.1}s", sanitize::line(to), since.elapsed().as_secs_f32()),
                t.paint(Role::Warning),
            )],
            Status::Down(err) => {
                let mut lines = vec![
                    Line::styled("Could not connect:", t.paint(Role::Error).add_modifier(Modifier::BOLD)),
                    Line::raw(""),
                ];
                lines.extend(sanitize::text(err).lines().map(|l| Line::styled(l.to_string(), t.paint(Role::Error))));
                lines.push(Line::raw(""));
                lines.push(Line::styled("Press R to reconnect, L for the log, q to quit.", t.paint(Role::Dim)));
                lines
            }
            Status::Ready => vec![Line::styled("This server lists no tools.", t.paint(Role::Dim))],
        })
    }

    /// One row: a mark, the name in full (it is what calls use), then the title, dimmed, as
    /// far as it fits.
    fn row(&self, tool: &ToolDescriptor, t: &Theme) -> Line<'static> {
        // Read from the descriptor's text (`listed`): drawing rows parses no descriptor.
        let listed = tool.listed();
        let (mark, mark_style) = if tool.problem().is_some() {
            ("! ", t.paint(Role::Error))
        } else if listed.destructive {
            ("⚠ ", t.paint(Role::Warning))
        } else if listed.read_only {
            ("· ", t.paint(Role::Ok))
        } else {
            ("  ", t.paint(Role::Dim))
        };
        // No row is wider than a terminal: a longer name or title is not laid out every frame.
        let name = sanitize::line_head(&listed.name, 1000).into_owned();
        let mut spans: Vec<Span> = self.since_mark(&listed.name, t).into_iter().collect();
        spans.push(Span::styled(mark, mark_style));
        if name.is_empty() {
            spans.push(Span::styled("(no name)", t.paint(Role::Error)));
        } else {
            spans.push(Span::styled(name, t.paint(Role::Text).add_modifier(Modifier::BOLD)));
        }
        if self.apps.contains(&listed.name) {
            spans.push(Span::styled(crate::ui::app_marks::MARK, t.paint(Role::Match)));
        }
        if let Some((severity, rule)) = self.lint.get(&listed.name) {
            let role = if *severity == crate::lint::Severity::Error { Role::Error } else { Role::Warning };
            spans.push(Span::styled(format!(" ⚑ {rule}"), t.paint(role)));
        }
        if let Some(title) = listed.title.as_deref().filter(|tt| !tt.trim().is_empty()) {
            spans.push(Span::styled(format!("  {}", sanitize::line_head(title, 1000)), t.paint(Role::Dim)));
        }
        Line::from(spans)
    }
}

impl Component for ToolsPane {
    fn typing(&self) -> bool {
        self.filtering
    }
    fn scope(&self) -> Scope {
        Scope::Tools
    }

    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.filtering { self.filter_key(key) } else { Used::No }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Filter => self.filtering = true,
            Command::Back if !self.filter.is_empty() => {
                self.clear_filter();
            }
            Command::Open => match self.selected() {
                Some(tool) => cx.action(Action::OpenForm { tool: tool.name().to_string(), arguments: None }),
                None => return Used::No,
            },
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, _focused: bool) {
        if let Some(lines) = self.status_lines(t) {
            f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
            return;
        }
        if self.visible.is_empty() {
            let msg = format!("No tool matches the filter ({} clears it).", keymap::key(Scope::Tools, Command::Back));
            f.render_widget(Paragraph::new(msg).style(t.paint(Role::Dim)).wrap(Wrap { trim: false }), area);
            return;
        }
        let window = self.scroll.window(area.height as usize);
        let rows: Vec<Line> = window
            .clone()
            .filter_map(|pos| {
                let tool = self.tools.get(*self.visible.get(pos)?)?;
                let line = crate::ui::fit::fit(self.row(tool, t), area.width as usize);
                Some(if pos == self.scroll.cursor { line.style(t.selection()) } else { line })
            })
            .collect();
        f.render_widget(Paragraph::new(rows), area);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;
    use serde_json::json;

    fn pane(names: &[&str]) -> ToolsPane {
        let tools = names
            .iter()
            .map(|n| {
                let raw = json!({"name": n, "inputSchema": {"type": "object"}}).to_string();
                let raw = serde_json::value::RawValue::from_string(raw).unwrap_or_else(|e| panic!("{e}"));
                ToolDescriptor::from_raw(&raw, 64)
            })
            .collect();
        let mut p = ToolsPane::default();
        p.set(ToolList { tools, pages: 1, warnings: vec![], cache: None });
        p.scroll.set_height(3);
        p
    }

    #[test]
    fn filtering_keeps_typed_letters_out_of_the_commands() {
        let theme = Theme::default();
        let mut cx = Ctx::new(&theme);
        let mut p = pane(&["list_issues", "get_issue", "search_code"]);
        p.command(Command::Filter, &mut cx);
        for c in "issue".chars() {
            assert!(p.key(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), &mut cx).yes());
        }
        assert_eq!(p.visible_len(), 2);
        p.key(&KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE), &mut cx);
        assert_eq!((p.visible_len(), p.filtering), (3, false));
    }

    #[test]
    fn select_name_clears_a_filter_that_hides_it() {
        let mut p = pane(&["a", "b", "c", "d", "e"]);
        p.filter.set("a");
        p.refilter();
        assert!(p.select_name("e"));
        assert_eq!((p.selected().map(|t| t.name().to_string()), p.filter.text()), (Some("e".into()), ""));
        assert!(!p.select_name("zz"));
    }

    /// Filtering and drawing rows read each tool from its text: no descriptor is parsed (20,000
    /// parsed at once cost several times the list's size).
    #[test]
    fn filtering_and_drawing_rows_parse_no_descriptor() {
        let theme = Theme::default();
        let mut p = pane(&["list_issues", "get_issue", "search_code", "issue_x"]);
        p.filter.set("issue");
        p.refilter();
        assert_eq!(p.visible_len(), 3);
        let rows: Vec<_> = p.visible.iter().map(|&i| p.row(&p.tools[i], &theme)).collect();
        assert_eq!(rows.len(), 3);
        assert!(p.select_name("search_code"));
        assert!(p.tools.iter().all(|t| !t.is_parsed()));
    }
}
