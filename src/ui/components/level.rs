//! Picks the level the server sends its log messages at (`logging/setLevel`): `s` in the log.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

use crate::mcp::log::Level;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("server_level");

pub struct LevelPicker {
    scroll: Scroll,
    /// The server declared the logging capability.
    declared: bool,
}

impl LevelPicker {
    /// Opens on `current` (the level last set), else on info.
    pub fn new(current: Option<Level>, declared: bool) -> LevelPicker {
        let mut scroll = Scroll::new(Level::ALL.len());
        scroll.set_height(Level::ALL.len());
        scroll.select(Level::ALL.iter().position(|l| Some(*l) == current).unwrap_or(1));
        LevelPicker { scroll, declared }
    }
}

impl Component for LevelPicker {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Open | Command::Activate => {
                if let Some(level) = Level::ALL.get(self.scroll.cursor) {
                    cx.cmd(Cmd::SetLogLevel(*level));
                    cx.notice(format!("asking the server for log messages at {} and above", level.label()), false);
                }
                cx.effects.push(Effect::Close);
            }
            Command::Back | Command::Leave => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(64), (Level::ALL.len() as u16 + 5).min(area.height.saturating_sub(2)))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(SCOPE, &[(Command::Open, "set"), (Command::Back, "close")]);
        let block =
            crate::ui::component::overlay_block(t, format!(" Server log level (logging/setLevel) · {keys} "), focused);
        let mut lines = vec![Line::styled("The server sends messages at this level and above:", t.paint(Role::Dim))];
        if !self.declared {
            lines[0] = Line::styled(
                "The server declares no logging capability; it may refuse. At this level and above:",
                t.paint(Role::Warning),
            );
        }
        for (i, l) in Level::ALL.iter().enumerate() {
            let line = Line::styled(format!("  {}", l.label()), t.paint(Role::Text));
            lines.push(if i == self.scroll.cursor { line.style(t.selection()) } else { line });
        }
        // Wrapped: the undeclared capability's note is longer than the box (it has rows to spare).
        f.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }).block(block), area);
    }
}
