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
    kept_forms: HashMap<String, FormState>,
    /// The pages of the shown result (one for an unpaged result), fetched once and kept.
    results: Vec<ResultState>,
    page: usize,
    /// Results of this session's calls, newest last, for the history view.
    past: Vec<(u64, CallResult)>,
    /// `/` was pressed in the result pane with no result: the letters typed next are the
    /// search's (there is nothing to search; they must not run commands), until a key that is
    /// no letter.
    pub(super) search_nothing: bool,
    pub(super) show_log: bool,
    /// The log pane, with the session's log (one across reconnects).
    pub(super) log: LogPane,
    /// The docked panes (`components::docked`), and which one is shown.
    docked: Vec<Box<dyn Component>>,
    shown: Option<usize>,
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

    /// Tab (`forward`) or Shift-Tab: the next pane in the focus order, round; a form entered
    /// gets its first field (or its last, going back).
    pub(super) fn step_focus(&mut self, forward: bool) {
        // Leaving the tool list keeps its filter as typed (as Enter does): the filter's prompt
        // must not stay open over another pane, where letters run commands.
        self.tools.filtering = false;
        let panes = self.order();
        let at = panes.iter().position(|p| *p == self.focus).unwrap_or(0);
        let n = panes.len();
        self.focus = panes[if forward { (at + 1) % n } else { (at + n - 1) % n }];
        if let (Pane::Form, Some(f)) = (self.focus, &mut self.form) {
            f.enter(forward);
        }
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

    /// The shown page of the result.
    pub(super) fn result(&self) -> Option<&ResultState> {
        self.results.get(self.page)
    }

    pub(super) fn result_mut(&mut self) -> Option<&mut ResultState> {
        self.results.get_mut(self.page)
    }

    /// The result's pages fetched so far, and which one is shown (from 0).
    pub(super) fn pages(&self) -> &[ResultState] {
        &self.results
    }

    pub(super) fn page(&self) -> usize {
        self.page
    }

    /// A new result: its only page, shown.
    pub(super) fn show_result(&mut self, r: ResultState) {
        self.results = vec![r];
        self.page = 0;
    }

    /// A page fetched after the last, shown in the view the last one was shown in.
    pub(super) fn add_page(&mut self, mut r: ResultState) {
        if let Some(view) = self.results.last().map(|l| l.view) {
            r.set_view(view);
        }
        self.results.push(r);
        self.page = self.results.len() - 1;
    }

    /// Whether a page after the shown one was fetched already.
    pub(super) fn has_fetched_next(&self) -> bool {
        self.page + 1 < self.results.len()
    }

    /// Shows the page before (false on the first) or after (false past the last fetched).
    pub(super) fn turn_page(&mut self, forward: bool) -> bool {
        match forward {
            true if self.has_fetched_next() => self.page += 1,
            false if self.page > 0 => self.page -= 1,
            _ => return false,
        }
        true
    }

    /// Every docked pane, shown or not (they all hear of the session).
    pub(super) fn docked(&self) -> impl Iterator<Item = &dyn Component> {
        self.docked.iter().map(|b| &**b)
    }

    pub(super) fn docked_mut(&mut self) -> impl Iterator<Item = &mut Box<dyn Component>> {
        self.docked.iter_mut()
    }

    /// Shows the docked pane `i` focused, or hides it when it is shown.
    pub(super) fn toggle_docked(&mut self, i: usize) {
        if self.shown == Some(i) {
            self.hide_docked();
        } else {
            self.shown = Some(i);
            self.focus = Pane::Docked;
        }
    }

    /// Gives the keys to the open form, which takes the schema's place from a docked pane shown
    /// there (its key shows it again): the pane with the keys is always the one on screen.
    pub(super) fn focus_form(&mut self) {
        if self.form.is_some() {
            self.shown = None;
            self.focus = Pane::Form;
        }
    }

    /// Whatever moved the focus last, the pane with the keys is one on screen: a focus left in
    /// the schema's place goes to what stands there (a docked pane, the form, or the schema).
    pub(super) fn keep_focus_shown(&mut self) {
        let middle = self.middle();
        if matches!(self.focus, Pane::Schema | Pane::Form | Pane::Docked) && self.focus != middle {
            self.focus = middle;
        }
    }

    /// Hides the docked pane; the focus it had goes to the tool list.
    pub(super) fn hide_docked(&mut self) {
        self.shown = None;
        if self.focus == Pane::Docked {
            self.focus = Pane::Tools;
        }
    }

    /// Leaves the open form; its values are kept for when its tool's form opens again.
    pub(super) fn keep_form(&mut self) {
        if let Some(f) = self.form.take() {
            self.kept_forms.insert(f.tool.clone(), f);
        }
    }

    /// The form kept for `tool`, taken out to be shown again.
    pub(super) fn kept_form(&mut self, tool: &str) -> Option<FormState> {
        self.kept_forms.remove(tool)
    }

    /// The tools whose forms, open or kept, hold edits never sent, by name.
    pub(super) fn unsent_forms(&self) -> Vec<String> {
        let mut unsent: Vec<String> =
            self.form.iter().chain(self.kept_forms.values()).filter(|f| f.edited).map(|f| f.tool.clone()).collect();
        unsent.sort();
        unsent
    }

    /// A result the history can reopen: the last fifty are kept.
    pub(super) fn keep_past(&mut self, at: u64, result: CallResult) {
        self.past.push((at, result));
        if self.past.len() > 50 {
            self.past.remove(0);
        }
    }

    /// This session's results, by the history entry's time, newest last.
    pub(super) fn past(&self) -> &[(u64, CallResult)] {
        &self.past
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pane_not_there_is_not_reached_and_its_place_keeps_its_scope() {
        let mut p = Panes::new();
        assert!(p.get(Pane::Tools).is_some());
        for id in [Pane::Schema, Pane::Form, Pane::Result, Pane::Log, Pane::Docked] {
            assert!(p.get(id).is_none(), "{id:?}");
            assert!(p.get_mut(id).is_none(), "{id:?}");
        }
        p.focus = Pane::Result;
        assert_eq!(p.scope(), Scope::Result);
        assert!(!p.typing());
        p.focus = Pane::Docked;
        assert_eq!(p.scope(), Scope::Tools);
    }

    #[test]
    fn the_log_is_reached_only_while_shown_and_joins_the_focus_order() {
        let mut p = Panes::new();
        assert_eq!(p.order(), [Pane::Tools, Pane::Schema, Pane::Result]);
        p.show_log = true;
        assert!(p.get(Pane::Log).is_some());
        assert_eq!(p.order(), [Pane::Tools, Pane::Schema, Pane::Result, Pane::Log]);
        p.focus = Pane::Log;
        assert_eq!(p.scope(), Scope::Log);
        assert!(p.has_keys(Pane::Log));
        assert!(!p.has_keys(Pane::Tools));
    }

    #[test]
    fn a_shown_docked_pane_stands_in_the_schemas_place() {
        let mut p = Panes::new();
        p.shown = Some(0);
        assert_eq!(p.middle(), Pane::Docked);
        p.focus = Pane::Docked;
        let docked = p.get(Pane::Docked).map(|d| d.scope());
        assert_eq!(Some(p.scope()), docked);
        assert_eq!(p.shown_docked().map(|d| d.scope()), docked);
    }

    #[test]
    fn the_tool_lists_filter_is_typing() {
        let mut p = Panes::new();
        assert!(!p.typing());
        p.tools.filtering = true;
        assert!(p.typing());
        assert_eq!(p.scope(), Scope::Tools);
    }
}
