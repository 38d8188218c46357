//! Keys map to named commands through one table, which also generates the help overlay and the
//! footer hints, so what is documented is exactly what is bound.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Quit,
    Help,
    NextPane,
    PrevPane,
    Up,
    Down,
    Expand,
    Collapse,
    Top,
    Bottom,
    PageUp,
    PageDown,
    Filter,
    Open,
    Back,
    ToggleRaw,
    ToggleLog,
    ExpandAll,
    CollapseAll,
    Reconnect,
}

/// Where a binding applies. `Any` bindings apply everywhere, after the pane's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Any,
    Tools,
    Schema,
    Log,
}

impl Scope {
    pub fn title(self) -> &'static str {
        match self {
            Scope::Any => "Everywhere",
            Scope::Tools => "Tool list",
            Scope::Schema => "Schema tree",
            Scope::Log => "Log",
        }
    }
}

pub struct Binding {
    pub keys: &'static [(KeyCode, KeyModifiers)],
    /// How the keys are written in help and footer.
    pub label: &'static str,
    pub command: Command,
    pub help: &'static str,
    pub scope: Scope,
    /// Shown in the footer for its scope, with this short word.
    pub footer: Option<&'static str>,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;

macro_rules! bind {
    ($scope:ident, $label:expr, $cmd:ident, $help:expr, $footer:expr, [$($code:expr => $mods:expr),+ $(,)?]) => {
        Binding { keys: &[$(($code, $mods)),+], label: $label, command: Command::$cmd, help: $help, scope: Scope::$scope, footer: $footer }
    };
}

pub static BINDINGS: &[Binding] = &[
    bind!(Tools, "/", Filter, "filter tools as you type (fuzzy: name, title, description)", Some("filter"), [KeyCode::Char('/') => NONE]),
    bind!(Tools, "Enter", Open, "open the tool (its schema; its form once forms land)", Some("open"), [KeyCode::Enter => NONE]),
    bind!(Schema, "r", ToggleRaw, "show the schema as the raw JSON the server sent", Some("raw JSON"), [KeyCode::Char('r') => NONE]),
    bind!(Schema, "E", ExpandAll, "expand every node", None, [KeyCode::Char('E') => SHIFT, KeyCode::Char('E') => NONE]),
    bind!(Schema, "C", CollapseAll, "collapse every node", None, [KeyCode::Char('C') => SHIFT, KeyCode::Char('C') => NONE]),
    bind!(Any, "j / ↓", Down, "move down", None, [KeyCode::Char('j') => NONE, KeyCode::Down => NONE]),
    bind!(Any, "k / ↑", Up, "move up", None, [KeyCode::Char('k') => NONE, KeyCode::Up => NONE]),
    bind!(Any, "l / →", Expand, "expand the node (schema), or go to the schema (tools)", None, [KeyCode::Char('l') => NONE, KeyCode::Right => NONE]),
    bind!(Any, "h / ←", Collapse, "collapse the node, or go to its parent", None, [KeyCode::Char('h') => NONE, KeyCode::Left => NONE]),
    bind!(Any, "g / Home", Top, "go to the top", None, [KeyCode::Char('g') => NONE, KeyCode::Home => NONE]),
    bind!(Any, "G / End", Bottom, "go to the bottom", None, [KeyCode::Char('G') => SHIFT, KeyCode::Char('G') => NONE, KeyCode::End => NONE]),
    bind!(Any, "PgUp", PageUp, "one page up", None, [KeyCode::PageUp => NONE, KeyCode::Char('b') => CTRL]),
    bind!(Any, "PgDn", PageDown, "one page down", None, [KeyCode::PageDown => NONE, KeyCode::Char('f') => CTRL]),
    bind!(Any, "Tab", NextPane, "next pane", Some("pane"), [KeyCode::Tab => NONE]),
    bind!(Any, "Shift-Tab", PrevPane, "previous pane", None, [KeyCode::BackTab => SHIFT, KeyCode::BackTab => NONE]),
    bind!(Any, "L", ToggleLog, "show or hide the log (stderr, notifications, protocol messages)", Some("log"), [KeyCode::Char('L') => SHIFT, KeyCode::Char('L') => NONE]),
    bind!(Any, "R", Reconnect, "reconnect: restart the session (after the server died)", None, [KeyCode::Char('R') => SHIFT, KeyCode::Char('R') => NONE]),
    bind!(Any, "Esc", Back, "close the overlay, clear the filter, or go back", None, [KeyCode::Esc => NONE]),
    bind!(Any, "?", Help, "this help", Some("help"), [KeyCode::Char('?') => NONE, KeyCode::Char('?') => SHIFT, KeyCode::F(1) => NONE]),
    bind!(Any, "q", Quit, "quit (Ctrl-C always quits)", Some("quit"), [KeyCode::Char('q') => NONE, KeyCode::Char('c') => CTRL]),
];

/// The command `key` means in `scope` (the scope's own bindings win over `Any`).
pub fn lookup(key: &KeyEvent, scope: Scope) -> Option<Command> {
    let matches = |b: &&Binding| b.keys.iter().any(|(code, mods)| *code == key.code && *mods == key.modifiers);
    BINDINGS
        .iter()
        .filter(|b| b.scope == scope)
        .find(matches)
        .or_else(|| BINDINGS.iter().filter(|b| b.scope == Scope::Any).find(matches))
        .map(|b| b.command)
}

/// `(keys, help)` hints for the footer in `scope`.
pub fn footer(scope: Scope) -> Vec<(&'static str, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.scope == scope || b.scope == Scope::Any)
        .filter_map(|b| b.footer.map(|word| (b.label, word)))
        .collect()
}

/// Extra keys that are not commands of the table (mouse, text input), for the help overlay.
pub const EXTRA_HELP: &[(&str, &str)] = &[
    ("mouse click", "select a tool or a schema node, focus a pane"),
    ("mouse wheel", "scroll the pane under the pointer"),
    ("typing (filter)", "edit the filter; Backspace deletes, Enter accepts, Esc clears"),
    ("Ctrl-C", "quit, from anywhere (also while filtering)"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_a_binding_and_lookup_finds_it() {
        for b in BINDINGS {
            for (code, mods) in b.keys {
                let key = KeyEvent::new(*code, *mods);
                let scope = if b.scope == Scope::Any { Scope::Log } else { b.scope };
                assert_eq!(lookup(&key, scope), Some(b.command), "{}", b.label);
            }
        }
        assert_eq!(lookup(&KeyEvent::new(KeyCode::Char('r'), NONE), Scope::Tools), None);
    }
}
