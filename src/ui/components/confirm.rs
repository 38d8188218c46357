//! A question that one key answers yes and every other key no: quitting while a form holds
//! edits never sent (`q` where it is a command, Ctrl-C), and running a destructive tool again from
//! outside its form (the history's re-run, the collection's runs; the form asks its own). Each
//! asks in its own keymap section, whose `back` binding names the no.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::theme::{Role, Theme};

/// Quitting with unsent edits: `y` or `q` quits (Ctrl-C again too, as everywhere).
pub const QUIT: Scope = Scope("quit");
/// Running a destructive tool again: `y` runs.
pub const RUN: Scope = Scope("run_confirm");

pub struct Confirm {
    scope: Scope,
    /// The section's commands that answer yes.
    yes: &'static [Command],
    /// The title's question and the words for yes and no ("Quit?", "quit", "stay").
    title: (&'static str, &'static str, &'static str),
    /// What is at stake, then the question.
    warning: String,
    question: &'static str,
    /// What yes does; taken by the answer.
    then: Option<Action>,
    /// The status line's note when the answer is no.
    declined: &'static str,
    width: u16,
}

/// The names, each on one line, joined for a sentence.
fn names(tools: &[String]) -> String {
    tools.iter().map(|n| sanitize::line(n).into_owned()).collect::<Vec<_>>().join(", ")
}

impl Confirm {
    /// Before quitting with unsent edits in the forms of `tools`.
    pub fn quit(tools: &[String]) -> Confirm {
        let warning = format!("Unsent edits in the form of {}.", names(tools));
        Confirm {
            declined: "not quit: the form keeps its values",
            ..Confirm::quit_losing(warning, "Quitting loses them.")
        }
    }

    /// Before quitting while `warning` says what would be lost (a call under way, a dialog).
    pub fn quit_losing(warning: String, question: &'static str) -> Confirm {
        Confirm {
            scope: QUIT,
            yes: &[Command::Quit, Command::ForceQuit],
            title: ("Quit?", "quit", "stay"),
            warning,
            question,
            then: Some(Action::Quit),
            declined: "not quit",
            width: 64,
        }
    }

    /// Before `run`, which calls `tools`, marked destructive.
    pub fn run(tools: &[String], run: Action) -> Confirm {
        let verb = if tools.len() == 1 { "is" } else { "are" };
        Confirm {
            scope: RUN,
            yes: &[Command::Run],
            title: ("Run?", "run", "cancel"),
            warning: format!("{} {verb} marked destructive.", names(tools)),
            question: "Run again with the same arguments?",
            then: Some(Action::Confirmed(Box::new(run))),
            declined: "not run",
            width: 72,
        }
    }
}

impl Component for Confirm {
    fn scope(&self) -> Scope {
        self.scope
    }

    /// Every key is the question's: a yes key does what was asked, any other one declines.
    fn key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Used {
        cx.effects.push(Effect::Close);
        let yes = keymap::lookup_own(k, self.scope).is_some_and(|c| self.yes.contains(&c));
        match self.then.take() {
            Some(then) if yes => cx.action(then),
            _ => cx.notice(self.declined, false),
        }
        Used::Yes
    }

    fn command(&mut self, _cmd: Command, _cx: &mut Ctx) -> Used {
        Used::No
    }

    /// Only its own keys: every other one declines (the help's key too).
    fn hints(&self) -> Vec<(String, String)> {
        keymap::overlay_footer_of(self.scope, |c| c == Command::Back || self.yes.contains(&c))
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(self.width), 5.min(area.height))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let (ask, yes, no) = self.title;
        let title = format!(
            " {ask} · {} {yes} · {} {no} ",
            keymap::keys(self.scope, self.yes[0]),
            keymap::keys(self.scope, Command::Back)
        );
        let block = crate::ui::component::overlay_block(t, title, focused);
        let lines = vec![
            Line::styled(self.warning.clone(), t.paint(Role::Warning)),
            Line::styled(self.question, t.paint(Role::Text)),
        ];
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), area);
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyModifiers};

    use super::*;

    fn answer(c: &mut Confirm, code: KeyCode) -> Vec<Effect> {
        let theme = Theme::default();
        let mut cx = Ctx::new(&theme);
        assert!(c.key(&KeyEvent::new(code, KeyModifiers::NONE), &mut cx).yes());
        cx.effects
    }

    fn said(effects: &[Effect]) -> (bool, Option<&Action>, Option<&str>) {
        let closed = effects.iter().any(|e| matches!(e, Effect::Close));
        let action = effects.iter().find_map(|e| if let Effect::App(a) = e { Some(a) } else { None });
        let notice = effects.iter().find_map(|e| if let Effect::Notice(n, _) = e { Some(n.as_str()) } else { None });
        (closed, action, notice)
    }

    #[test]
    fn yes_does_what_was_asked_and_any_other_key_declines() {
        let run = Action::Run { tool: "drop".into(), arguments: serde_json::json!({}) };
        let effects = answer(&mut Confirm::run(&["drop".into()], run.clone()), KeyCode::Char('y'));
        assert_eq!(said(&effects), (true, Some(&Action::Confirmed(Box::new(run.clone()))), None));
        let effects = answer(&mut Confirm::run(&["drop".into()], run), KeyCode::Char('q'));
        assert_eq!(said(&effects), (true, None, Some("not run")));
        for quit in [KeyCode::Char('y'), KeyCode::Char('q')] {
            let effects = answer(&mut Confirm::quit(&["echo".into()]), quit);
            assert_eq!(said(&effects), (true, Some(&Action::Quit), None));
        }
        let effects = answer(&mut Confirm::quit(&["echo".into()]), KeyCode::Esc);
        assert_eq!(said(&effects), (true, None, Some("not quit: the form keeps its values")));
    }

    #[test]
    fn each_question_names_its_own_keys_in_its_footer() {
        let words = |c: &Confirm| c.hints().into_iter().map(|(_, w)| w).collect::<Vec<_>>();
        assert_eq!(words(&Confirm::quit(&[])), ["quit", "stay"]);
        let run = Action::Run { tool: "t".into(), arguments: serde_json::json!({}) };
        assert_eq!(words(&Confirm::run(&[], run)), ["run", "cancel"]);
    }
}
