//! The panes and overlays, one file each (see `component.rs` for the shape they share).

pub mod ask;
pub mod form;
pub mod help;
pub mod history;
pub mod info;
pub mod log;
pub mod log_entry;
pub mod picker;
pub mod result;
pub mod schema;
pub mod tasks;
pub mod tools;
pub mod value;

use crossterm::event::KeyEvent;

use crate::ui::app::{App, Cmd, Pane};
use crate::ui::component::{Component, Ctx, Observed, offer};
use crate::ui::keymap::{self, Command};

/// The docked panes. Each shows in the schema's place when its section's `show` key is pressed
/// (from any pane that does not take that key itself: the form types letters), and hides on the same key or Esc. A new docked pane is its file, its keymap
/// section with a `show` binding, and a line here: the App, the layout and the help know it
/// through this list.
pub fn docked() -> Vec<Box<dyn Component>> {
    vec![Box::new(info::InfoPane::default())]
}

impl App {
    /// The docked pane being shown, if any.
    pub fn shown_docked(&self) -> Option<&dyn Component> {
        self.docked.get(self.shown?).map(|b| &**b)
    }

    /// Tells every docked pane what happened.
    pub(crate) fn observe(&mut self, event: &Observed) {
        for pane in &mut self.docked {
            pane.observe(event);
        }
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

    /// A docked pane's `show` key, from anywhere: shows it focused, or hides it when it is shown.
    pub(crate) fn show_key(&mut self, k: &KeyEvent) -> bool {
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

    /// `(keys, word)` of every docked pane's `show` binding, for the footer.
    pub(crate) fn docked_hints(&self) -> Vec<(String, String)> {
        self.docked
            .iter()
            .flat_map(|p| keymap::footer(p.scope()).into_iter().filter(|(_, _, c)| *c == Command::Show))
            .map(|(keys, word, _)| (keys, word))
            .collect()
    }
}
