//! The pane collection: every pane and overlay the App shows, which one has the keys, and the
//! one way to reach a pane by its id (`Panes::get` / `Panes::get_mut`). Keys, commands, the
//! scope, typing and the focus order all find their pane through it, so a pane added here is
//! reached everywhere by one arm of `get`.

use std::collections::HashMap;

use super::component::{Component, Stack};
use super::components::log::LogPane;
use super::components::schema::SchemaPane;
use super::components::tools::ToolsPane;
use super::form::FormState;
use super::keymap::Scope;
use super::layout::Pane;
use super::msg::CallResult;
use super::result::ResultState;

pub(super) struct Panes {
    /// The pane that has the keys when no overlay is open.
    pub(super) focus: Pane,
    /// The focused pane fills the screen.
    pub(super) zoom: bool,
    /// Overlays (help, history, a value shown whole), newest on top; they see keys first.
    pub(super) overlays: Stack,
    /// The tool list pane.
    pub(super) tools: ToolsPane,
    /// The selected tool's schema (built when the selection changes).
    pub(super) schema: Option<SchemaPane>,
    pub(super) form: Option<FormState>,
    /// Forms left with Esc, by tool name: reopening one keeps its values.
    pub(super) kept_forms: HashMap<String, FormState>,
    /// The pages of the shown result (one for an unpaged result), fetched once and kept.
    pub(super) results: Vec<ResultState>,
    pub(super) page: usize,
    /// Results of this session's calls, newest last, for the history view.
    pub(super) past: Vec<(u64, CallResult)>,
    /// `/` was pressed in the result pane with no result: the letters typed next are the
    /// search's (there is nothing to search; they must not run commands), until a key that is
    /// no letter.
    pub(super) search_nothing: bool,
    pub(super) show_log: bool,
    /// The log pane, with the session's log (one across reconnects).
    pub(super) log: LogPane,
    /// The docked panes (`components::docked`), and which one is shown.
    pub(super) docked: Vec<Box<dyn Component>>,
    pub(super) shown: Option<usize>,
}

impl Panes {
    pub(super) fn new() -> Self {
        Panes {
            focus: Pane::Tools,
            zoom: false,
            overlays: Stack::default(),
            tools: ToolsPane::default(),
            schema: None,
            form: None,
            kept_forms: HashMap::new(),
            results: vec![],
            page: 0,
            past: vec![],
            search_nothing: false,
            show_log: false,
            log: LogPane::default(),
            docked: super::components::docked(),
            shown: None,
        }
    }

    /// The pane `id` names, when it is there to be shown: the one routing table from a pane's
    /// id to the component that answers its keys, commands, scope and typing.
    pub(super) fn get(&self, id: Pane) -> Option<&dyn Component> {
        match id {
            Pane::Tools => Some(&self.tools),
            Pane::Schema => self.schema.as_ref().map(|s| s as &dyn Component),
            Pane::Form => self.form.as_ref().map(|f| f as &dyn Component),
            Pane::Result => self.results.get(self.page).map(|r| r as &dyn Component),
            Pane::Log => self.show_log.then_some(&self.log as &dyn Component),
            Pane::Docked => self.docked.get(self.shown?).map(|b| &**b),
        }
    }

    /// `get`, for changing the pane.
    pub(super) fn get_mut(&mut self, id: Pane) -> Option<&mut (dyn Component + 'static)> {
        match id {
            Pane::Tools => Some(&mut self.tools),
            Pane::Schema => self.schema.as_mut().map(|s| s as &mut (dyn Component + 'static)),
            Pane::Form => self.form.as_mut().map(|f| f as &mut (dyn Component + 'static)),
            Pane::Result => self.results.get_mut(self.page).map(|r| r as &mut (dyn Component + 'static)),
            Pane::Log => self.show_log.then_some(&mut self.log as &mut (dyn Component + 'static)),
            Pane::Docked => self.docked.get_mut(self.shown?).map(|b| &mut **b),
        }
    }

    /// The focused pane (beneath any overlay).
    pub(super) fn focused(&self) -> Option<&dyn Component> {
        self.get(self.focus)
    }

    pub(super) fn focused_mut(&mut self) -> Option<&mut (dyn Component + 'static)> {
        self.get_mut(self.focus)
    }

    /// Whether the pane `id` has the keys: it is focused and no overlay lies over it.
    pub(super) fn has_keys(&self, id: Pane) -> bool {
        self.focus == id && self.overlays.is_empty()
    }

    /// The keymap section the keys are read in: the top overlay's, else the focused pane's
    /// (an empty schema or result place still reads its own section).
    pub(super) fn scope(&self) -> Scope {
        if let Some(top) = self.overlays.top() {
            return top.scope();
        }
        match (self.focused(), self.focus) {
            (Some(p), _) => p.scope(),
            (None, Pane::Schema) => Scope::Schema,
            (None, Pane::Form) => Scope::Form,
            (None, Pane::Result) => Scope::Result,
            (None, Pane::Log) => Scope::Log,
            (None, _) => Scope::Tools,
        }
    }

    /// Whether what has the keys holds a text cursor (a filter, a search, a form, a name being
    /// typed): the one place that says so, for the router and the footer.
    pub(super) fn typing(&self) -> bool {
        match self.overlays.top() {
            Some(top) => top.typing(),
            None => self.focused().is_some_and(|p| p.typing()),
        }
    }

    /// The focus order, the same in every state: the tool list, then what stands in the
    /// schema's place (a docked pane, the form, or the schema), the result, and the log when it
    /// is shown. Tab and Shift-Tab walk it round; in the form they walk its fields first and
    /// leave it past the last (or before the first).
    pub(super) fn order(&self) -> Vec<Pane> {
        let mut p = vec![Pane::Tools, self.middle(), Pane::Result];
        if self.show_log {
            p.push(Pane::Log);
        }
        p
    }

    /// What stands in the schema's place: a docked pane, the form, or the schema.
    pub(super) fn middle(&self) -> Pane {
        if self.shown.is_some() {
            Pane::Docked
        } else if self.form.is_some() {
            Pane::Form
        } else {
            Pane::Schema
        }
    }

    /// The docked pane being shown, if any.
    pub(super) fn shown_docked(&self) -> Option<&dyn Component> {
        self.get(Pane::Docked)
    }
}
