//! The strip above the server on screen: every connected server with its number and its
//! connection's state, the shown one marked, and the keys that act on the servers.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::ui::app::Conn;
use crate::ui::keymap::{self, Command};
use crate::ui::theme::{Role, Theme};

pub(super) struct Item<'a> {
    pub name: &'a str,
    pub conn: &'a Conn,
    pub shown: bool,
}

/// The strip's hints: the keys a user needs first.
const HINTED: [Command; 4] = [Command::NextServer, Command::ConnectServer, Command::RunOnOther, Command::CompareTools];

pub(super) fn draw(f: &mut Frame, area: Rect, items: &[Item<'_>], t: &Theme) {
    let mut spans = vec![];
    for (i, item) in items.iter().enumerate() {
        let (mark, role) = match item.conn {
            Conn::Connected => ("●", Role::Ok),
            Conn::Connecting { .. } => ("…", Role::Warning),
            Conn::Down(_) => ("✖", Role::Error),
        };
        let name = crate::sanitize::line_head(item.name, 40);
        let style = if item.shown { t.selection().add_modifier(Modifier::BOLD) } else { t.status() };
        spans.push(Span::styled(format!(" {} {name} ", i + 1), style));
        spans.push(Span::styled(mark.to_string(), t.paint(role)));
        spans.push(Span::raw(" "));
    }
    let hints = keymap::footer(super::SCOPE).into_iter().filter(|(_, _, c)| HINTED.contains(c)).map(|(k, w, _)| (k, w));
    let room = (area.width as usize).saturating_sub(Line::from(spans.clone()).width());
    spans.extend(crate::ui::fit::whole_hints(hints, room, (t.key(), t.paint(Role::Dim))));
    let line = crate::ui::fit::fit(Line::from(spans), area.width as usize);
    f.render_widget(Paragraph::new(line).style(t.status()), area);
}
