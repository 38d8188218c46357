//! Where a key goes: one router (`App::on_key`) decides once whether a key is typed text or a
//! command, after the overlay and the focused pane had their turn (the log and the result pane
//! take theirs here, the docked panes in `docked.rs`, the form in `input.rs`).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Pane};
use super::component::{Ctx, offer};
use super::input::is_text;
use super::keymap::{self, Command, Scope};
use super::msg::Cmd;

/// The most characters of one paste typed key by key: the one-line inputs that take them hold
/// far fewer, and each key costs a pass through the router.
const PASTE_TYPED_MAX: usize = 10_000;

impl App {
    /// The one router of keys: Ctrl-C, then the top overlay, then the focused pane; what holds
    /// a text cursor keeps every printable key it did not take; only then do the keymap's
    /// commands run.
    pub(super) fn on_key(&mut self, k: KeyEvent) -> Vec<Cmd> {
        if keymap::lookup_own(&k, Scope::Any) == Some(Command::ForceQuit) {
            return self.quit_or_ask(true);
        }
        if !self.panes.overlays.is_empty() {
            return self.overlay_key(k);
        }
        if let Some(cmds) = self.pane_key(&k) {
            return cmds;
        }
        if is_text(&k) && self.typing() {
            // A character for the text being typed that it did not take (a full filter): it
            // never falls through to the command its letter is bound to.
            self.dirty = false;
            return vec![];
        }
        if self.show_key(&k) {
            // The collection is read again each time its pane is shown: edits to the file count.
            let collection = self.shown_docked().is_some_and(|p| p.scope() == super::components::collection::SCOPE);
            return if collection { vec![Cmd::LoadCollection(self.collection_file.clone())] } else { vec![] };
        }
        let Some(cmd) = keymap::lookup(&k, self.scope()) else {
            self.dirty = false;
            return vec![];
        };
        self.command(cmd)
    }

    /// Pasted text goes where a typed key would: to whatever holds a text cursor, never to a
    /// command. The form takes it whole (its JSON editor keeps the line breaks); elsewhere it is
    /// typed key by key through the router, as one line. Where nothing holds a text cursor it
    /// goes nowhere, and the status line says so.
    pub(super) fn on_paste(&mut self, text: &str) -> Vec<Cmd> {
        if self.panes.overlays.is_empty()
            && self.panes.focus == Pane::Form
            && let Some(form) = self.panes.form.as_mut()
            && form.paste(text).is_some()
        {
            self.notice = None;
            self.relayout();
            return vec![];
        }
        if !self.typing() {
            self.notice = Some(("nothing here takes text: paste into a field, a filter or a search".into(), false));
            return vec![];
        }
        let mut cmds = vec![];
        let mut typed = 0;
        for c in text.chars() {
            let c = if matches!(c, '\n' | '\r' | '\t') { ' ' } else { c };
            if c.is_control() {
                continue;
            }
            if typed == PASTE_TYPED_MAX || !self.typing() {
                self.notice = Some((format!("paste cut after {typed} characters"), true));
                break;
            }
            cmds.extend(self.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
            typed += 1;
        }
        self.dirty = true;
        cmds
    }

    /// The top overlay sees the key first; one it does not use goes to the global bindings only.
    fn overlay_key(&mut self, k: KeyEvent) -> Vec<Cmd> {
        let mut cx = Ctx::new(&self.theme);
        let before = self.panes.overlays.len();
        // A key the overlay's own section binds is the overlay's, used or not: it never goes on
        // to the pane beneath (Esc there would clear a filter the user did not mean to touch).
        let own = self.panes.overlays.top().is_some_and(|top| keymap::lookup_own(&k, top.scope()).is_some());
        let used = self.panes.overlays.key(&k, &mut cx);
        let effects = cx.effects;
        let mut cmds = self.apply(effects);
        let closed = self.panes.overlays.len() < before;
        if !used.yes() && closed && !own {
            // The overlay closed on a global key (q, L): the key does its own work beneath.
            cmds.extend(self.on_key(k));
            // Even when that work is nothing, the overlay is gone from the screen.
            self.dirty = true;
        } else if closed {
            self.dirty = true;
        } else if !used.yes() && is_text(&k) && self.typing() {
            self.dirty = false;
        } else if !used.yes() {
            // Only what makes sense over any overlay: not pane moves or views under it.
            match keymap::lookup_own(&k, Scope::Any) {
                Some(
                    cmd @ (Command::Quit
                    | Command::ForceQuit
                    | Command::Help
                    | Command::Reconnect
                    | Command::CancelCall),
                ) => cmds.extend(self.command(cmd)),
                _ => self.dirty = false,
            }
        }
        cmds
    }

    /// The focused pane's turn at a key, reached through the pane collection: `Some` when it
    /// used it. What holds text (the tool list's filter, the form) takes the raw key and leaves
    /// its commands to the App; the log, the result and a docked pane take the key and then the
    /// command their keymap section binds it to; the schema takes commands only.
    fn pane_key(&mut self, k: &KeyEvent) -> Option<Vec<Cmd>> {
        let focus = self.panes.focus;
        if focus == Pane::Result && self.panes.pages().is_empty() {
            return self.no_result_key(k);
        }
        let mut cx = Ctx::new(&self.theme);
        let pane = self.panes.focused_mut()?;
        let used = match focus {
            Pane::Schema => return None,
            Pane::Tools | Pane::Form => pane.key(k, &mut cx),
            Pane::Log | Pane::Result | Pane::Docked => offer(pane, k, &mut cx),
        };
        let effects = cx.effects;
        if focus == Pane::Tools {
            // The filter may have moved the selection.
            self.sync_schema();
            return used.yes().then(Vec::new);
        }
        self.settle(used, effects).or_else(|| self.unused_key(focus, k))
    }

    /// A key the focused pane did not use that still means something there: past the form's
    /// last field (or before its first) Tab and Shift-Tab leave it for the next pane in the
    /// focus order; Esc hides a docked pane.
    fn unused_key(&mut self, focus: Pane, k: &KeyEvent) -> Option<Vec<Cmd>> {
        match (focus, keymap::lookup_own(k, Scope::Any)) {
            (Pane::Form, Some(cmd @ (Command::NextPane | Command::PrevPane))) => Some(self.command(cmd)),
            (Pane::Docked, _) if keymap::lookup(k, self.scope()) == Some(Command::Back) => {
                self.hide_docked();
                Some(vec![])
            }
            _ => None,
        }
    }
}

impl App {
    /// A key in the result pane before any result: `/` says there is nothing to search, and
    /// the letters typed next (meant for the search) go nowhere rather than run commands.
    fn no_result_key(&mut self, k: &KeyEvent) -> Option<Vec<Cmd>> {
        use crossterm::event::{KeyCode, KeyModifiers};
        let letter =
            matches!(k.code, KeyCode::Char(_)) && !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if self.panes.search_nothing {
            if letter {
                return Some(vec![]);
            }
            self.panes.search_nothing = false;
            self.notice = None;
            if matches!(k.code, KeyCode::Esc | KeyCode::Enter | KeyCode::Backspace) {
                return Some(vec![]);
            }
        }
        if super::keymap::lookup(k, Scope::Result) == Some(Command::Search) {
            self.panes.search_nothing = true;
            let back = keymap::key_name(KeyCode::Esc);
            self.notice = Some((format!("no result yet, nothing to search: run a tool first ({back})"), false));
            return Some(vec![]);
        }
        None
    }
}
