//! The tasks overlay (`T`): every task this session ran (2025-11-25 tasks and the extension's),
//! newest first, with its id, tool, status and age; Enter shows a finished task's result, `c`
//! cancels the selected one.

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::mcp::task_ext::TaskEntry;
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("tasks");

pub struct TasksOverlay {
    /// Newest first.
    tasks: Vec<TaskEntry>,
    scroll: Scroll,
    /// When the list was taken: ages are counted to it (drawing reads no clock).
    now: Instant,
    /// The selected task's result, pretty, while it is shown (Enter); Esc goes back to the list.
    detail: Option<(String, Vec<crate::json_pretty::Line>, Scroll)>,
}

impl TasksOverlay {
    pub fn new(tasks: Vec<TaskEntry>, now: Instant) -> TasksOverlay {
        let tasks: Vec<TaskEntry> = tasks.into_iter().rev().collect();
        let scroll = Scroll::new(tasks.len());
        TasksOverlay { tasks, scroll, now, detail: None }
    }

    fn selected(&self) -> Option<&TaskEntry> {
        self.tasks.get(self.scroll.cursor)
    }

    fn row(&self, e: &TaskEntry, t: &Theme) -> Line<'static> {
        let role = match e.status.as_str() {
            "completed" => Role::Ok,
            "failed" | "cancelled" => Role::Error,
            _ => Role::Warning,
        };
        let age = self.now.saturating_duration_since(e.started).as_secs();
        let message = e.message.as_deref().map(|m| format!("  {}", sanitize::line(m))).unwrap_or_default();
        Line::from(vec![
            Span::styled(format!("{:<24} ", sanitize::truncate(&sanitize::line(&e.id), 24)), t.paint(Role::Key)),
            Span::styled(
                format!("{:<22} ", sanitize::truncate(&sanitize::line(&e.tool), 22)),
                t.paint(Role::Text).add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{:<15} ", sanitize::truncate(&e.status, 15)), t.paint(role)),
            Span::styled(format!("{:>5}s", age), t.paint(Role::Dim)),
            Span::styled(sanitize::truncate(&message, 200).into_owned(), t.paint(Role::Dim)),
        ])
    }

    /// Shows the selected task's result (or says there is none yet).
    fn open(&mut self, cx: &mut Ctx) {
        let Some(e) = self.selected() else { return };
        let Some(raw) = &e.result else {
            cx.notice(format!("task {} has no result yet ({})", sanitize::line(&e.id), e.status), false);
            return;
        };
        let lines = crate::json_pretty::lines(raw, 20_000);
        let scroll = Scroll::new(lines.len());
        self.detail = Some((e.id.clone(), lines, scroll));
    }

    fn draw_detail(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        let Some((id, lines, scroll)) = &self.detail else { return };
        let back = keymap::key(SCOPE, Command::Back);
        let title = format!(" Task {} · result as sent · {back} back ", sanitize::line(id));
        let block = crate::ui::component::overlay_block(t, title, focused);
        let inner = block.inner(area);
        let shown: Vec<Line> = scroll
            .window(inner.height as usize)
            .filter_map(|i| lines.get(i))
            .map(|tokens| {
                Line::from(
                    tokens
                        .iter()
                        .map(|(tok, txt)| {
                            Span::styled(sanitize::line(txt).into_owned(), crate::ui::result::token_style(t, *tok))
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        f.render_widget(Paragraph::new(shown).block(block), area);
    }
}

impl Component for TasksOverlay {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        if let Some((_, _, scroll)) = &mut self.detail {
            match cmd {
                cmd if scroll.navigate(cmd) => {}
                Command::Back | Command::Open => self.detail = None,
                Command::Tasks => cx.effects.push(Effect::Close),
                _ => return Used::No,
            }
            return Used::Yes;
        }
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Open => self.open(cx),
            Command::CancelTask => {
                let Some(e) = self.selected() else { return Used::Yes };
                if matches!(e.status.as_str(), "completed" | "failed" | "cancelled") {
                    cx.notice(format!("task {} already ended ({})", sanitize::line(&e.id), e.status), false);
                    return Used::Yes;
                }
                cx.cmd(Cmd::CancelTask(e.id.clone()));
                cx.effects.push(Effect::Close);
            }
            Command::Back | Command::Tasks => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        if self.detail.is_some() {
            return self.draw_detail(f, area, t, focused);
        }
        let n = self.tasks.len();
        let keys = keymap::said(
            SCOPE,
            &[(Command::Open, "result"), (Command::CancelTask, "cancel"), (Command::Back, "close")],
        );
        let block = crate::ui::component::overlay_block(t, format!(" Tasks: {n} in this session · {keys} "), focused);
        let inner = block.inner(area);
        let mut lines: Vec<Line> = vec![];
        if n == 0 {
            lines.push(Line::styled(
                "No tasks yet: a tool run as a task (taskSupport, or a server that makes one) shows here.",
                t.paint(Role::Dim),
            ));
        }
        for i in self.scroll.window(inner.height as usize) {
            let Some(e) = self.tasks.get(i) else { continue };
            let line = self.row(e, t);
            let line = crate::ui::fit::fit(line, inner.width as usize);
            lines.push(if i == self.scroll.cursor { line.style(t.selection()) } else { line });
        }
        // Wrapped: the empty list's note is longer than a narrow screen (rows are cut above).
        f.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }).block(block), area);
    }

    fn hints(&self) -> Vec<(String, String)> {
        match self.detail {
            Some(_) => keymap::pairs(
                SCOPE,
                &[(Command::Down, "scroll"), (Command::PageDown, "page"), (Command::Back, "back to the list")],
            ),
            None => crate::ui::keymap::overlay_footer(SCOPE),
        }
    }

    fn set_area(&mut self, area: Rect) {
        let height = area.height.saturating_sub(2) as usize;
        self.scroll.set_height(height);
        if let Some((_, _, scroll)) = &mut self.detail {
            scroll.set_height(height);
        }
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(6).min(110), area.height.saturating_sub(6))
    }
}
