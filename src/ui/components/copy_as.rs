//! `Y` on a result or a history entry: the call as something to paste elsewhere (the
//! `mcplens call` command line, a `curl` request for an HTTP server, or the JSON-RPC message),
//! each shown before it is copied, the target's secrets masked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("copy_as");

/// One form of the call: its name, and its text or why it does not apply.
pub struct Choice {
    pub name: &'static str,
    pub text: Result<String, String>,
}

pub struct CopyAs {
    tool: String,
    choices: Vec<Choice>,
    scroll: Scroll,
}

impl CopyAs {
    pub fn new(tool: String, choices: Vec<Choice>) -> CopyAs {
        let mut scroll = Scroll::new(choices.len());
        scroll.set_height(choices.len());
        CopyAs { tool, choices, scroll }
    }

    fn chosen(&self) -> Option<&Choice> {
        self.choices.get(self.scroll.cursor)
    }
}

impl Component for CopyAs {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Open | Command::Activate | Command::Copy => match self.chosen().map(|c| (c.name, &c.text)) {
                Some((name, Ok(text))) => {
                    cx.cmd(Cmd::Copy(text.clone()));
                    cx.notice(format!("copied {} as {name} (OSC 52; secrets masked)", self.tool), false);
                    cx.effects.push(Effect::Close);
                }
                Some((name, Err(why))) => cx.notice(format!("{name}: {why}"), true),
                None => {}
            },
            Command::Back | Command::Leave => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(100), area.height.saturating_sub(2).min(18))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(SCOPE, &[(Command::Open, "copy"), (Command::Back, "close")]);
        let title = format!(" Copy {} as · {keys} ", sanitize::line(&self.tool));
        let block = crate::ui::component::overlay_block(t, title, focused);
        let mut lines = Vec::new();
        for (i, c) in self.choices.iter().enumerate() {
            let role = if c.text.is_ok() { Role::Text } else { Role::Dim };
            let line = Line::styled(format!("  {}", c.name), t.paint(role));
            lines.push(if i == self.scroll.cursor { line.style(t.selection()) } else { line });
        }
        lines.push(Line::raw(""));
        match self.chosen().map(|c| &c.text) {
            Some(Ok(text)) => {
                lines.extend(sanitize::text(text).lines().map(|l| Line::styled(l.to_string(), t.paint(Role::Text))))
            }
            Some(Err(why)) => lines.push(Line::styled(sanitize::line(why).into_owned(), t.paint(Role::Dim))),
            None => {}
        }
        f.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), area);
    }
}
