//! Asks before quitting while a form holds arguments that were edited and never sent: `q` (where
//! it is a command) and Ctrl-C both come here first; Ctrl-C again, or the section's quit key,
//! quits. Any other key closes the question and the session goes on.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("quit");

pub struct QuitConfirm {
    /// The tools whose forms hold unsent edits.
    tools: Vec<String>,
}

impl QuitConfirm {
    pub fn new(tools: Vec<String>) -> QuitConfirm {
        QuitConfirm { tools }
    }
}

impl Component for QuitConfirm {
    fn scope(&self) -> Scope {
        SCOPE
    }

    /// Every key is the question's: its quit key quits, any other one stays.
    fn key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Used {
        match keymap::lookup_own(k, SCOPE) {
            Some(Command::Quit | Command::ForceQuit) => cx.action(Action::Quit),
            _ => {
                cx.effects.push(Effect::Close);
                cx.notice("not quit: the form keeps its values", false);
            }
        }
        Used::Yes
    }

    fn command(&mut self, _cmd: Command, _cx: &mut Ctx) -> Used {
        Used::No
    }

    /// Only its own keys: every other one stays (the help's key too).
    fn hints(&self) -> Vec<(String, String)> {
        keymap::overlay_footer_of(SCOPE, |c| matches!(c, Command::Quit | Command::Back))
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(64), 5.min(area.height))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let title = format!(
            " Quit? · {} quit · {} stay ",
            keymap::keys(SCOPE, Command::Quit),
            keymap::keys(SCOPE, Command::Back)
        );
        let block = crate::ui::component::overlay_block(t, title, focused);
        let names: Vec<String> = self.tools.iter().map(|n| sanitize::line(n).into_owned()).collect();
        let lines = vec![
            Line::styled(format!("Unsent edits in the form of {}.", names.join(", ")), t.paint(Role::Warning)),
            Line::styled("Quitting loses them.", t.paint(Role::Text)),
        ];
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), area);
    }
}
