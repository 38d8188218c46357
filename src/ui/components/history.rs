//! The history overlay: this server's past calls, newest first, to reopen, re-run or show.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::history::Entry;
use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub struct HistoryOverlay {
    /// Newest first.
    entries: Vec<Entry>,
    scroll: Scroll,
}

impl HistoryOverlay {
    pub fn new(entries: &[Entry]) -> HistoryOverlay {
        let entries: Vec<Entry> = entries.iter().rev().cloned().collect();
        let scroll = Scroll::new(entries.len());
        HistoryOverlay { entries, scroll }
    }

    fn selected(&self) -> Option<&Entry> {
        self.entries.get(self.scroll.cursor)
    }

    fn row(e: &Entry, t: &Theme) -> Line<'static> {
        let secs = e.at % 86_400;
        let role = if e.status.is_success() { Role::Ok } else { Role::Error };
        let purpose = match e.purpose {
            crate::call::Purpose::New => "",
            crate::call::Purpose::NextPage => "next page",
            crate::call::Purpose::AllPages => "all pages",
        };
        Line::from(vec![
            Span::styled(format!("{:02}:{:02}:{:02} ", secs / 3600, secs / 60 % 60, secs % 60), t.paint(Role::Dim)),
            Span::styled(format!("{:<11} ", e.status.as_str()), t.paint(role)),
            Span::styled(format!("{purpose:<10} "), t.paint(Role::Dim)),
            Span::styled(format!("{:>7} ms ", e.duration_ms), t.paint(Role::Dim)),
            Span::styled(format!("{} ", sanitize::line(&e.tool)), t.paint(Role::Text).add_modifier(Modifier::BOLD)),
            Span::styled(
                sanitize::truncate(&sanitize::line(&e.arguments.to_string()), 200).into_owned(),
                t.paint(Role::JsonString),
            ),
        ])
    }
}

impl Component for HistoryOverlay {
    fn scope(&self) -> Scope {
        Scope::History
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Open | Command::Rerun | Command::ShowResult | Command::CopyAs => {
                let Some(e) = self.selected().cloned() else { return Used::Yes };
                cx.effects.push(Effect::Close);
                cx.action(match cmd {
                    Command::Open => Action::OpenForm { tool: e.tool, arguments: Some(e.arguments) },
                    Command::Rerun => Action::Run { tool: e.tool, arguments: e.arguments },
                    Command::CopyAs => Action::CopyAs { tool: e.tool, arguments: e.arguments },
                    _ => Action::ShowPast { at: e.at, tool: e.tool },
                });
            }
            Command::Back | Command::History => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let n = self.entries.len();
        let keys = keymap::said(
            Scope::History,
            &[
                (Command::Open, "reopen"),
                (Command::Rerun, "re-run"),
                (Command::ShowResult, "result"),
                (Command::Back, "close"),
            ],
        );
        let title = format!(" History: {n} call{} · {keys} ", plural(n));
        let block = crate::ui::component::overlay_block(t, title, focused);
        let inner = block.inner(area);
        let mut lines: Vec<Line> = vec![];
        if n == 0 {
            lines.push(Line::styled("No calls yet for this server.", t.paint(Role::Dim)));
        }
        for i in self.scroll.window(inner.height as usize) {
            let Some(e) = self.entries.get(i) else { continue };
            let line = crate::ui::fit::fit(Self::row(e, t), inner.width as usize);
            lines.push(if i == self.scroll.cursor { line.style(t.selection()) } else { line });
        }
        f.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn set_area(&mut self, area: Rect) {
        self.scroll.set_height(area.height.saturating_sub(2) as usize);
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(6).min(110), area.height.saturating_sub(6))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
