//! The server as it introduced itself: name, version, the negotiated protocol, every capability
//! it declared (as sent), and its instructions. A docked pane: `i` shows it in place of the
//! schema, `i` or Esc hides it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::mcp::ServerInfo;
use crate::mcp::asks::Root;
use crate::sanitize;
use crate::schema::diff::{Change, Impact};
use crate::ui::baseline::{Compared, Mark};
use crate::ui::component::{Component, Ctx, Observed, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("info");

#[derive(Default)]
pub struct InfoPane {
    /// Built when the server is known, not while drawing; styled when drawn.
    rows: Vec<Row>,
    /// `cursor` is the first row shown.
    scroll: Scroll,
    /// The initialize result as sent (pretty), for `y`.
    copy: String,
    /// The text width at the last layout: rows wrap, so the last page starts where the rows
    /// below it fill the pane.
    width: usize,
    /// What the rows were built from: the server's info and the roots offered to it.
    server: Option<ServerInfo>,
    roots: Vec<Root>,
    /// The tools compared with the saved snapshot, once they are.
    since: Option<Compared>,
}

enum Row {
    Fact(&'static str, String),
    Heading(&'static str),
    Json(crate::json_pretty::Line),
    Text(String),
    /// A mark or label in a role's color, then text.
    Since(Role, String, String),
}

/// A line as rows of at most [`PIECE`] characters: a frame wraps only the rows on screen, so a
/// megabyte-long line costs a frame no more than a short one.
fn pieces(line: &str) -> Vec<String> {
    const PIECE: usize = 512;
    let mut out = vec![];
    let mut rest = line;
    while let Some((cut, _)) = rest.char_indices().nth(PIECE) {
        out.push(rest[..cut].to_string());
        rest = &rest[cut..];
    }
    out.push(rest.to_string());
    out
}

impl InfoPane {
    fn build(&mut self, s: &ServerInfo) {
        let mut rows = vec![
            Row::Fact("server", s.name().to_string()),
            Row::Fact("version", s.version().to_string()),
            Row::Fact("title", s.title().unwrap_or("(none)").to_string()),
            Row::Fact("protocol", s.protocol_version().to_string()),
            Row::Fact("era", s.era.label().to_string()),
        ];
        let supported = s.supported_versions();
        if !supported.is_empty() {
            rows.push(Row::Fact("offers", supported.join(", ")));
        }
        if let Some(hint) = s.cache_hint() {
            rows.push(Row::Fact("discover", hint));
        }
        rows.extend(self.since_rows());
        rows.push(Row::Heading("capabilities (as sent)"));
        let caps = s
            .result
            .get("capabilities")
            .map_or_else(|| "(none)".to_string(), |c| serde_json::to_string(&crate::deep::Deep(c)).unwrap_or_default());
        rows.extend(crate::json_pretty::lines(&caps, 20_000).into_iter().map(Row::Json));
        rows.push(Row::Heading("instructions"));
        match s.instructions() {
            Some(text) => rows.extend(sanitize::text(text).lines().flat_map(pieces).map(Row::Text)),
            None => rows.push(Row::Text("(the server sent none)".into())),
        }
        rows.push(Row::Heading("roots offered to the server"));
        if self.roots.is_empty() {
            rows.push(Row::Text("(none: --root PATH, \"roots\" in the config entry, or + here offers one)".into()));
        }
        for r in &self.roots {
            rows.push(Row::Fact("root", format!("{}  {}", r.name, r.uri)));
        }
        self.copy = crate::json_out::to_pretty_string(&crate::deep::Deep(&s.result));
        self.scroll = Scroll::new(rows.len());
        self.rows = rows;
    }

    /// What changed since the saved snapshot: the file, the counts, each removed tool, each
    /// changed tool with its changes, and the server's own changes.
    fn since_rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::Heading("since the saved snapshot")];
        let Some(c) = &self.since else {
            rows.push(Row::Text(format!(
                "(none compared: {} where the server runs, beside the config file, or here; --snapshot FILE)",
                crate::ui::baseline::FILE_NAME
            )));
            return rows;
        };
        rows.push(Row::Fact("file", c.file.clone()));
        if let Some(note) = &c.note {
            rows.push(Row::Fact("note", note.clone()));
        }
        rows.push(Row::Fact("tools", c.summary()));
        for name in &c.removed {
            rows.push(Row::Since(Role::Breaking, "− removed ".into(), name.clone()));
        }
        let mut names: Vec<(&String, &Mark)> = c.marks.iter().collect();
        names.sort_by(|a, b| a.1.cmp(b.1).then_with(|| a.0.cmp(b.0)));
        for (name, mark) in names {
            let (label, role) = match mark {
                Mark::Breaking => ("✗ breaking", Role::Breaking),
                Mark::Compatible => ("~ changed ", Role::Compatible),
                Mark::New => ("+ new     ", Role::Added),
            };
            rows.push(Row::Since(role, format!("{label} "), name.clone()));
            rows.extend(c.changes.get(name).into_iter().flatten().map(change_row));
        }
        if !c.server.is_empty() {
            rows.push(Row::Fact("server", format!("{} changed", c.server.len())));
            rows.extend(c.server.iter().map(change_row));
        }
        rows
    }

    /// The rows again from what is known (the server, the roots, the comparison).
    fn rebuild(&mut self) {
        if let Some(s) = self.server.take() {
            self.build(&s);
            self.server = Some(s);
        }
    }

    /// `+` offers the current directory as a root, `-` stops offering the last one; the worker
    /// tells the server (`Session::set_roots`).
    fn change_roots(&mut self, cmd: Command, cx: &mut Ctx) {
        let mut roots = self.roots.clone();
        if cmd == Command::AddRoot {
            let cwd = std::env::current_dir().unwrap_or_default();
            let root = Root::from_path(".", &cwd);
            if roots.contains(&root) {
                cx.notice(format!("{} is already a root", sanitize::line(&root.uri)), false);
                return;
            }
            roots.push(root);
        } else if roots.pop().is_none() {
            cx.notice("no root to remove", false);
            return;
        }
        cx.cmd(crate::ui::msg::Cmd::SetRoots(roots.clone()));
        self.observe(&Observed::Roots(&roots), cx);
    }

    /// The first row of the last page: as many rows from the end as fill the pane once wrapped.
    fn last_top(&self) -> usize {
        let width = self.width.max(1);
        let mut lines = 0;
        for (i, row) in self.rows.iter().enumerate().rev() {
            lines += self.line(row, &Theme::default()).width().max(1).div_ceil(width);
            if lines > self.scroll.height.max(1) {
                return i + 1;
            }
        }
        0
    }

    fn line(&self, row: &Row, t: &Theme) -> Line<'static> {
        match row {
            Row::Fact(k, v) => Line::from(vec![
                Span::styled(format!("{k:<10}"), t.paint(Role::Key)),
                Span::styled(sanitize::line(v).into_owned(), t.paint(Role::Text)),
            ]),
            Row::Heading(h) => Line::styled(h.to_string(), t.paint(Role::Title).add_modifier(Modifier::BOLD)),
            Row::Json(tokens) => Line::from(
                tokens
                    .iter()
                    .map(|(tok, txt)| {
                        Span::styled(sanitize::line(txt).into_owned(), crate::ui::result::token_style(t, *tok))
                    })
                    .collect::<Vec<_>>(),
            ),
            Row::Text(s) => Line::styled(s.clone(), t.paint(Role::Text)),
            Row::Since(role, label, text) => Line::from(vec![
                Span::styled(label.clone(), t.paint(*role)),
                Span::styled(sanitize::line(text).into_owned(), t.paint(Role::Text)),
            ]),
        }
    }
}

/// One change of a tool or of the server: its impact, path and what it is.
fn change_row(c: &Change) -> Row {
    let (label, role) = if c.impact == Impact::Breaking {
        ("    BREAKING   ", Role::Breaking)
    } else {
        ("    compatible ", Role::Compatible)
    };
    Row::Since(role, label.into(), format!("{}  {}", c.path, c.what))
}

impl Component for InfoPane {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn title(&self) -> String {
        let (show, back) = (keymap::key(SCOPE, Command::Show), keymap::key(SCOPE, Command::Back));
        format!(" Server info ({show} or {back} hides it) ")
    }

    fn observe(&mut self, event: &Observed, _cx: &mut Ctx) {
        match event {
            Observed::Server(s) => {
                self.build(s);
                self.server = Some((*s).clone());
            }
            Observed::Roots(r) => {
                self.roots = r.to_vec();
                self.rebuild();
            }
            Observed::Compared(c) => {
                self.since = Some((*c).clone());
                self.rebuild();
            }
            _ => {}
        }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {
                // The cursor is the first row: it stops where the last row reaches the bottom.
                self.scroll.cursor = self.scroll.cursor.min(self.last_top());
            }
            Command::Copy if !self.copy.is_empty() => {
                cx.cmd(crate::ui::msg::Cmd::Copy(self.copy.clone()));
                cx.notice("copied the initialize result to the clipboard (OSC 52)", false);
            }
            Command::AddRoot | Command::RemoveRoot => self.change_roots(cmd, cx),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        self.scroll.set_height(area.height as usize);
        self.width = area.width as usize;
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, _focused: bool) {
        if self.rows.is_empty() {
            f.render_widget(Paragraph::new("Not connected yet.").style(t.paint(Role::Dim)), area);
            return;
        }
        let top = self.scroll.cursor.min(self.rows.len().saturating_sub(1));
        // Wrapped rows take more than one line: `take` by lines is an upper bound.
        let lines: Vec<Line> = self.rows[top..].iter().take(area.height as usize).map(|r| self.line(r, t)).collect();
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_what_the_server_declared_and_scrolls() {
        let raw = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"x-odd":{"\u001b[31m":1}},"serverInfo":{"name":"s","version":"1"},"instructions":"Use\nwell"}}"#;
        let info = ServerInfo::from_raw_text(raw);
        let mut p = InfoPane::default();
        p.observe(&Observed::Server(&info), &mut Ctx::new(&Theme::default()));
        let t = Theme::default();
        let text: Vec<String> =
            p.rows.iter().map(|r| p.line(r, &t).spans.iter().map(|s| s.content.to_string()).collect()).collect();
        assert!(text.iter().any(|l| l.contains("protocol") && l.contains("2025-11-25")), "{text:?}");
        assert!(text.iter().any(|l| l.contains("\"listChanged\": true")), "{text:?}");
        assert!(text.iter().all(|l| !l.contains('\u{1b}')), "{text:?}");
        let tail: Vec<&str> = text.iter().rev().take(5).rev().map(String::as_str).collect();
        assert_eq!(tail[..4], ["instructions", "Use", "well", "roots offered to the server"], "{text:?}");
        assert!(tail[4].starts_with("(none: --root PATH"), "{text:?}");
        p.observe(&Observed::Roots(&[Root { uri: "file:///w".into(), name: "w".into() }]), &mut Ctx::new(&t));
        let last = p.rows.last().map(|r| p.line(r, &t).spans.iter().map(|s| s.content.to_string()).collect::<String>());
        assert_eq!(last.as_deref().map(str::trim_end), Some("root      w  file:///w"));
        assert_eq!(pieces(&"é".repeat(1100)).iter().map(|p| p.chars().count()).collect::<Vec<_>>(), [512, 512, 76]);
        p.set_area(Rect::new(0, 0, 40, 5));
        let mut cx = Ctx::new(&t);
        p.command(Command::Bottom, &mut cx);
        assert!(p.scroll.cursor > 0);
    }
}
