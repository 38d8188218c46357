//! The App hands a key to the focused pane: the log and the result pane take theirs here (the
//! docked panes in `docked.rs`, the form in `input.rs`); what a pane leaves goes on to the
//! keymap's commands.

use crossterm::event::KeyEvent;

use super::app::App;
use super::component::{Ctx, offer};
use super::keymap::{Command, Scope};
use super::msg::Cmd;

impl App {
    /// A key for the log pane, if it used it: the method filter being typed first, then the
    /// pane's commands.
    pub(crate) fn log_key(&mut self, k: &KeyEvent) -> Option<Vec<Cmd>> {
        let mut cx = Ctx::new(&self.theme);
        let used = offer(&mut self.log, k, &mut cx);
        let effects = cx.effects;
        self.settle(used, effects)
    }
}

impl App {
    /// A key for the result pane, if it used it: the search prompt first, then its commands.
    pub(crate) fn result_key(&mut self, k: &KeyEvent) -> Option<Vec<Cmd>> {
        if self.results.is_empty() {
            return self.no_result_key(k);
        }
        let mut cx = Ctx::new(&self.theme);
        let used = offer(self.results.get_mut(self.page)?, k, &mut cx);
        let effects = cx.effects;
        self.settle(used, effects)
    }
}

impl App {
    /// A key in the result pane before any result: `/` says there is nothing to search, and
    /// the letters typed next (meant for the search) go nowhere rather than run commands.
    fn no_result_key(&mut self, k: &KeyEvent) -> Option<Vec<Cmd>> {
        use crossterm::event::{KeyCode, KeyModifiers};
        let letter =
            matches!(k.code, KeyCode::Char(_)) && !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if self.search_nothing {
            if letter {
                return Some(vec![]);
            }
            self.search_nothing = false;
            self.notice = None;
            if matches!(k.code, KeyCode::Esc | KeyCode::Enter | KeyCode::Backspace) {
                return Some(vec![]);
            }
        }
        if super::keymap::lookup(k, Scope::Result) == Some(Command::Search) {
            self.search_nothing = true;
            let msg = "no result yet, nothing to search: run a tool first (Esc)";
            self.notice = Some((msg.into(), false));
            return Some(vec![]);
        }
        None
    }
}
