//! The App's side of the docked panes (`components::docked`): which one is shown, the keys that
//! show and hide them, and what they hear of the session.

use crossterm::event::KeyEvent;

use super::app::{App, Pane};
use super::component::{Component, Ctx, Observed, offer};
use super::keymap::{self, Command};
use super::msg::Cmd;

impl App {
    /// The docked pane being shown, if any.
    pub(super) fn shown_docked(&self) -> Option<&dyn Component> {
        self.docked.get(self.shown?).map(|b| &**b)
    }

    /// Tells every docked pane and overlay what happened; returns the worker's share of what
    /// they answered.
    pub(crate) fn observe(&mut self, event: &Observed) -> Vec<Cmd> {
        let mut cx = Ctx::new(&self.theme);
        for pane in &mut self.docked {
            pane.observe(event, &mut cx);
        }
        self.overlays.observe(event, &mut cx);
        let effects = cx.effects;
        self.apply(effects)
    }

    /// The focused docked pane sees the key first; Esc hides it.
    pub(crate) fn docked_key(&mut self, k: &KeyEvent) -> Option<Vec<Cmd>> {
        let i = self.shown.filter(|_| self.focus == Pane::Docked)?;
        let mut cx = Ctx::new(&self.theme);
        let pane = self.docked.get_mut(i)?;
        let used = offer(&mut **pane, k, &mut cx);
        let effects = cx.effects;
        if let Some(cmds) = self.settle(used, effects) {
            return Some(cmds);
        }
        (keymap::lookup(k, self.scope()) == Some(Command::Back)).then(|| {
            self.hide_docked();
            vec![]
        })
    }

    /// A docked pane's `show` key, from any pane that does not bind the key itself: shows it
    /// focused, or hides it when it is shown.
    pub(crate) fn show_key(&mut self, k: &KeyEvent) -> bool {
        if keymap::lookup_own(k, self.scope()).is_some_and(|c| c != Command::Show) {
            return false;
        }
        let Some(i) = self.docked.iter().position(|p| keymap::lookup_own(k, p.scope()) == Some(Command::Show)) else {
            return false;
        };
        if self.shown == Some(i) {
            self.hide_docked();
        } else {
            self.shown = Some(i);
            self.focus = Pane::Docked;
        }
        self.relayout();
        true
    }

    fn hide_docked(&mut self) {
        self.shown = None;
        if self.focus == Pane::Docked {
            self.focus = Pane::Tools;
        }
        self.relayout();
    }

    /// `(keys, word)` of every docked pane's `show` binding, for the footer; not the ones whose
    /// key the focused pane binds to something else.
    pub(crate) fn docked_hints(&self) -> Vec<(String, String)> {
        let scope = self.scope();
        let taken = |key: &keymap::Key| keymap::keymap().own(scope).any(|b| b.has(key) && b.command != Command::Show);
        self.docked
            .iter()
            .flat_map(|p| {
                keymap::keymap().own(p.scope()).filter(|b| b.command == Command::Show).cloned().collect::<Vec<_>>()
            })
            .filter(|b| !b.keys.iter().any(taken))
            .filter_map(|b| Some((b.keys.first()?.label(), b.footer.clone()?)))
            .collect()
    }
}
