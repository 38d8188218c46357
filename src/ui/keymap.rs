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
    CancelCall,
    History,
    // In a form.
    Run,
    ToggleJson,
    ToggleValidate,
    SetNull,
    SetEmpty,
    ClearField,
    RemoveItem,
    MoveItemUp,
    MoveItemDown,
    NextField,
    PrevField,
    Activate,
    Toggle,
    Leave,
    // In the history.
    Rerun,
    ShowResult,
    // Results.
    NextView,
    View1,
    View2,
    View3,
    View4,
    NextPage,
    PrevPage,
    AllPages,
    Copy,
    Export,
    Search,
    NextMatch,
    PrevMatch,
    SwitchSide,
    MarkRecords,
    MarkNext,
    DecodeTexts,
    Zoom,
}

/// Where a binding applies. `Any` bindings apply everywhere, after the pane's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Any,
    Tools,
    Schema,
    Form,
    History,
    Result,
    Log,
    Picker,
}

impl Scope {
    pub fn title(self) -> &'static str {
        match self {
            Scope::Any => "Everywhere",
            Scope::Tools => "Tool list",
            Scope::Schema => "Schema tree",
            Scope::Form => "Form (typing edits the focused field)",
            Scope::History => "History (H)",
            Scope::Result => "Result",
            Scope::Log => "Log",
            Scope::Picker => "Server picker (a config file with several servers)",
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
    bind!(Tools, "Enter", Open, "open the tool's form (prefilled with its last arguments)", Some("form"), [KeyCode::Enter => NONE]),
    bind!(Schema, "r", ToggleRaw, "show the schema as the raw JSON the server sent", Some("raw JSON"), [KeyCode::Char('r') => NONE]),
    bind!(Schema, "E", ExpandAll, "expand every node", None, [KeyCode::Char('E') => SHIFT, KeyCode::Char('E') => NONE]),
    bind!(Schema, "C", CollapseAll, "collapse every node", None, [KeyCode::Char('C') => SHIFT, KeyCode::Char('C') => NONE]),
    bind!(Form, "Ctrl-R", Run, "run the tool with these arguments (destructive tools ask first)", Some("run"), [KeyCode::Char('r') => CTRL]),
    bind!(Form, "Tab / ↓", NextField, "next field", None, [KeyCode::Tab => NONE, KeyCode::Down => NONE]),
    bind!(Form, "Shift-Tab / ↑", PrevField, "previous field", None, [KeyCode::BackTab => SHIFT, KeyCode::BackTab => NONE, KeyCode::Up => NONE]),
    bind!(Form, "Space", Toggle, "toggle a boolean, open a picker (enum, multi-select, oneOf)", None, [KeyCode::Char(' ') => NONE]),
    bind!(Form, "Enter", Activate, "pick, add an array item, add a key, expand a recursive field", None, [KeyCode::Enter => NONE]),
    bind!(Form, "Ctrl-T", ToggleJson, "raw JSON mode for the whole argument object (synced both ways)", Some("JSON"), [KeyCode::Char('t') => CTRL]),
    bind!(Form, "Ctrl-V", ToggleValidate, "turn validation off (send arguments that break the schema) or on", None, [KeyCode::Char('v') => CTRL]),
    bind!(Form, "Ctrl-N", SetNull, "set the field to an explicit null", None, [KeyCode::Char('n') => CTRL]),
    bind!(Form, "Ctrl-E", SetEmpty, "set the field to an explicit empty value (\"\", [], {})", None, [KeyCode::Char('e') => CTRL]),
    bind!(Form, "Ctrl-D", ClearField, "clear the field (it is then omitted)", None, [KeyCode::Char('d') => CTRL]),
    bind!(Form, "Ctrl-X", RemoveItem, "remove the array item or added key", None, [KeyCode::Char('x') => CTRL]),
    bind!(Form, "Ctrl-↑ / Ctrl-↓", MoveItemUp, "move the array item up (Ctrl-↓: down)", None, [KeyCode::Up => CTRL]),
    bind!(Form, "Ctrl-↓", MoveItemDown, "move the array item down", None, [KeyCode::Down => CTRL]),
    bind!(Form, "Esc", Leave, "leave the form (its values are kept)", Some("back"), [KeyCode::Esc => NONE]),
    bind!(History, "Enter", Open, "reopen the call's form, prefilled", Some("reopen"), [KeyCode::Enter => NONE]),
    bind!(History, "r", Rerun, "run the call again now", Some("re-run"), [KeyCode::Char('r') => NONE]),
    bind!(History, "o", ShowResult, "show the call's result (calls made in this session)", Some("result"), [KeyCode::Char('o') => NONE]),
    bind!(Result, "/", Search, "search keys and values (n next, N previous); matches are highlighted", Some("search"), [KeyCode::Char('/') => NONE]),
    bind!(Result, "n", NextMatch, "next match", None, [KeyCode::Char('n') => NONE]),
    bind!(Result, "N", PrevMatch, "previous match", None, [KeyCode::Char('N') => SHIFT, KeyCode::Char('N') => NONE]),
    bind!(Result, "Enter", Activate, "fold or unfold; open a record of the table; show a long value whole", None, [KeyCode::Enter => NONE]),
    bind!(Result, "o", Open, "show the selected value whole (long strings, big objects)", None, [KeyCode::Char('o') => NONE]),
    bind!(Result, "s", SwitchSide, "Split view: switch between structuredContent and _meta", None, [KeyCode::Char('s') => NONE]),
    bind!(Result, "E", ExpandAll, "unfold everything", None, [KeyCode::Char('E') => SHIFT, KeyCode::Char('E') => NONE]),
    bind!(Result, "C", CollapseAll, "fold everything", None, [KeyCode::Char('C') => SHIFT, KeyCode::Char('C') => NONE]),
    bind!(Result, "d", DecodeTexts, "Raw view: show the JSON that text blocks carry as trees (d again: as sent)", None, [KeyCode::Char('d') => NONE]),
    bind!(Result, "m", MarkRecords, "teach: the selected node (Raw or Split tree) holds the records; saved as a hint, result read again", None, [KeyCode::Char('m') => NONE]),
    bind!(Result, "M", MarkNext, "teach: the selected node is the next page's position; saved as a hint", None, [KeyCode::Char('M') => SHIFT, KeyCode::Char('M') => NONE]),
    bind!(Result, "y", Copy, "copy the selected value (or the record) to the clipboard (OSC 52)", Some("copy"), [KeyCode::Char('y') => NONE]),
    bind!(Result, "e", Export, "export the result to a file (Raw view: the reply as sent; else the envelope)", Some("export"), [KeyCode::Char('e') => NONE]),
    bind!(Any, "v", NextView, "next result view: Envelope, Split, Content, Raw", Some("view"), [KeyCode::Char('v') => NONE]),
    bind!(Any, "1", View1, "Envelope view: header, then a table of records, a JSON tree, or the error", None, [KeyCode::Char('1') => NONE]),
    bind!(Any, "2", View2, "Split view: structuredContent beside _meta, with the outputSchema check", None, [KeyCode::Char('2') => NONE]),
    bind!(Any, "3", View3, "Content view: the content blocks in order", None, [KeyCode::Char('3') => NONE]),
    bind!(Any, "4", View4, "Raw view: the reply exactly as the server sent it", None, [KeyCode::Char('4') => NONE]),
    bind!(Any, "]", NextPage, "next page of a paged result (fetched once, then kept)", Some("next page"), [KeyCode::Char(']') => NONE]),
    bind!(Any, "[", PrevPage, "previous page (already fetched, not fetched again)", None, [KeyCode::Char('[') => NONE]),
    bind!(Any, "A", AllPages, "fetch every page into one list (progress; Ctrl-K cancels)", None, [KeyCode::Char('A') => SHIFT, KeyCode::Char('A') => NONE]),
    bind!(Any, "Ctrl-K", CancelCall, "cancel the running call (the server is told)", None, [KeyCode::Char('k') => CTRL]),
    bind!(Any, "H", History, "history of this server's calls", Some("history"), [KeyCode::Char('H') => SHIFT, KeyCode::Char('H') => NONE]),
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
    bind!(Any, "z", Zoom, "zoom: the focused pane fills the screen (z again: back)", Some("zoom"), [KeyCode::Char('z') => NONE]),
    bind!(Any, "L", ToggleLog, "show or hide the log (stderr, notifications, protocol messages)", Some("log"), [KeyCode::Char('L') => SHIFT, KeyCode::Char('L') => NONE]),
    bind!(Any, "R", Reconnect, "reconnect: restart the session (after the server died)", None, [KeyCode::Char('R') => SHIFT, KeyCode::Char('R') => NONE]),
    bind!(Any, "Esc", Back, "close the overlay, clear the filter, or go back", None, [KeyCode::Esc => NONE]),
    bind!(Any, "?", Help, "this help", Some("help"), [KeyCode::Char('?') => NONE, KeyCode::Char('?') => SHIFT, KeyCode::F(1) => NONE]),
    bind!(Any, "q", Quit, "quit (Ctrl-C always quits)", Some("quit"), [KeyCode::Char('q') => NONE, KeyCode::Char('c') => CTRL]),
];

/// The command `key` means among `scope`'s own bindings only.
pub fn lookup_own(key: &KeyEvent, scope: Scope) -> Option<Command> {
    BINDINGS
        .iter()
        .filter(|b| b.scope == scope)
        .find(|b| b.keys.iter().any(|(code, mods)| *code == key.code && *mods == key.modifiers))
        .map(|b| b.command)
}

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
pub fn footer(scope: Scope) -> Vec<(&'static str, &'static str, Command)> {
    BINDINGS
        .iter()
        .filter(|b| b.scope == scope || b.scope == Scope::Any)
        .filter_map(|b| b.footer.map(|word| (b.label, word, b.command)))
        .collect()
}

/// Extra keys that are not commands of the table (mouse, text input), for the help overlay.
pub const EXTRA_HELP: &[(&str, &str)] = &[
    ("mouse click", "select a tool or a schema node, focus a pane"),
    ("mouse wheel", "scroll the pane under the pointer"),
    ("typing (filter)", "edit the filter; Backspace deletes, Enter accepts, Esc clears"),
    (
        "typing (form)",
        "edit the focused text or number field: a value shown selected is replaced by what you type (End or → keeps it and types after it); an emptied field is omitted",
    ),
    ("+ add key rows", "type the new key's name, then Enter"),
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
