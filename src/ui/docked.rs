//! The App's side of the docked panes (`components::docked`): which one is shown, the keys that
//! show and hide them, and what they hear of the session.

use crossterm::event::KeyEvent;

use super::app::App;
use super::component::{Component, Ctx, Observed};
use super::keymap::{self, Command};
use super::msg::Cmd;

impl App {
    /// The docked pane being shown, if any.
    pub(super) fn shown_docked(&self) -> Option<&dyn Component> {
        self.panes.shown_docked()
    }

    /// Tells every docked pane and overlay what happened; returns the worker's share of what
    /// they answered.
    pub(crate) fn observe(&mut self, event: &Observed) -> Vec<Cmd> {
        let mut cx = Ctx::new(&self.theme);
        for pane in self.panes.docked_mut() {
            pane.observe(event, &mut cx);
        }
        self.panes.overlays.observe(event, &mut cx);
        let effects = cx.effects;
        self.apply(effects)
    }

    /// A docked pane's `show` key, from any pane that does not bind the key itself: shows it
    /// focused, or hides it when it is shown.
    pub(crate) fn show_key(&mut self, k: &KeyEvent) -> bool {
        if keymap::lookup_own(k, self.scope()).is_some_and(|c| c != Command::Show) {
            return false;
        }
        let Some(i) = self.panes.docked().position(|p| keymap::lookup_own(k, p.scope()) == Some(Command::Show)) else {
            return false;
        };
        self.panes.toggle_docked(i);
        self.relayout();
        true
    }

    pub(super) fn hide_docked(&mut self) {
        self.panes.hide_docked();
        self.relayout();
    }

    /// `(keys, word)` of every docked pane's `show` binding, for the footer; not the ones whose
    /// key the focused pane binds to something else.
    pub(crate) fn docked_hints(&self) -> Vec<(String, String)> {
        let scope = self.scope();
        let taken = |key: &keymap::Key| keymap::keymap().own(scope).any(|b| b.has(key) && b.command != Command::Show);
        self.panes
            .docked()
            .flat_map(|p| {
                keymap::keymap().own(p.scope()).filter(|b| b.command == Command::Show).cloned().collect::<Vec<_>>()
            })
            .filter(|b| !b.keys.iter().any(taken))
            .filter_map(|b| Some((b.keys.first()?.label(), b.footer.clone()?)))
            .collect()
    }
}
