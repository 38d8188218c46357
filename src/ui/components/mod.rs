//! The panes and overlays, one file each (see `component.rs` for the shape they share).

pub mod ask;
pub mod collection;
pub mod fill;
pub mod form;
pub mod help;
pub mod history;
pub mod info;
pub mod level;
pub mod line_input;
pub mod listed;
pub mod log;
mod log_brief;
pub mod log_entry;
pub mod picker;
pub mod prompt_view;
pub mod prompts;
pub mod quit_confirm;
pub mod read;
pub mod resources;
pub mod result;
pub mod save_call;
pub mod schema;
pub mod tasks;
pub mod tools;
pub mod uri_cut;
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
    vec![
        Box::new(info::InfoPane::default()),
        Box::new(resources::ResourcesPane::default()),
        Box::new(prompts::PromptsPane::default()),
        Box::new(collection::CollectionPane::default()),
    ]
}

impl App {
    /// The docked pane being shown, if any.
    pub fn shown_docked(&self) -> Option<&dyn Component> {
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
