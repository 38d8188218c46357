//! Asks before a call runs again from outside its form (the history's re-run, the collection's
//! runs) when a tool it calls is marked destructive: the form asks the same before its own run.
//! `y` runs; any other key closes the question and nothing runs.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("run_confirm");

pub struct RunConfirm {
    /// The destructive tools the run calls.
    tools: Vec<String>,
    /// What runs on `y`.
    run: Option<Action>,
}

impl RunConfirm {
    pub fn new(tools: Vec<String>, run: Action) -> RunConfirm {
        RunConfirm { tools, run: Some(run) }
    }
}

impl Component for RunConfirm {
    fn scope(&self) -> Scope {
        SCOPE
    }

    /// Every key is the question's: its run key runs, any other one cancels.
    fn key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Used {
        cx.effects.push(Effect::Close);
        match (keymap::lookup_own(k, SCOPE), self.run.take()) {
            (Some(Command::Run), Some(run)) => cx.action(Action::Confirmed(Box::new(run))),
            _ => cx.notice("not run", false),
        }
        Used::Yes
    }

    fn command(&mut self, _cmd: Command, _cx: &mut Ctx) -> Used {
        Used::No
    }

    fn hints(&self) -> Vec<(String, String)> {
        keymap::overlay_footer_of(SCOPE, |c| matches!(c, Command::Run | Command::Back))
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(72), 5.min(area.height))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let title = format!(
            " Run? · {} run · {} cancel ",
            keymap::keys(SCOPE, Command::Run),
            keymap::keys(SCOPE, Command::Back)
        );
        let block = crate::ui::component::overlay_block(t, title, focused);
        let names: Vec<String> = self.tools.iter().map(|n| sanitize::line(n).into_owned()).collect();
        let lines = vec![
            Line::styled(
                format!("{} {} marked destructive.", names.join(", "), if names.len() == 1 { "is" } else { "are" }),
                t.paint(Role::Warning),
            ),
            Line::styled("Run again with the same arguments?", t.paint(Role::Text)),
        ];
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), area);
    }
}
