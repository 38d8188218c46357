//! Keys map to named commands through one table, which also generates the help overlay and the
//! footer hints, so what is documented is exactly what is bound. The table is data: the embedded
//! `keymap.toml`, with a user's file laid over it once at start (`init`).

pub mod docs;
mod key;
mod load;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crossterm::event::KeyEvent;

pub use key::Key;

/// The embedded default keymap.
pub const DEFAULT: &str = include_str!("keymap.toml");

macro_rules! commands {
    ($($variant:ident = $name:literal),* $(,)?) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Command { $($variant),* }

        impl Command {
            pub const ALL: &[Command] = &[$(Command::$variant),*];

            /// The name a keymap file's `run` uses.
            pub fn name(self) -> &'static str {
                match self { $(Command::$variant => $name),* }
            }

            pub fn from_name(name: &str) -> Option<Command> {
                match name { $($name => Some(Command::$variant),)* _ => None }
            }
        }
    };
}

// Adding a command: a line here, its handling, and a line in keymap.toml.
commands! {
    Quit = "quit",
    ForceQuit = "force_quit",
    Help = "help",
    NextPane = "next_pane",
    PrevPane = "prev_pane",
    Up = "up",
    Down = "down",
    Expand = "expand",
    Collapse = "collapse",
    Top = "top",
    Bottom = "bottom",
    PageUp = "page_up",
    PageDown = "page_down",
    Filter = "filter",
    Open = "open",
    Back = "back",
    ToggleRaw = "toggle_raw",
    ToggleLog = "toggle_log",
    ExpandAll = "expand_all",
    CollapseAll = "collapse_all",
    Reconnect = "reconnect",
    CancelCall = "cancel_call",
    History = "history",
    // In a form.
    Run = "run",
    ToggleJson = "toggle_json",
    ToggleValidate = "toggle_validate",
    SetNull = "set_null",
    SetEmpty = "set_empty",
    ClearField = "clear_field",
    RemoveItem = "remove_item",
    MoveItemUp = "move_item_up",
    MoveItemDown = "move_item_down",
    NextField = "next_field",
    PrevField = "prev_field",
    Activate = "activate",
    Toggle = "toggle",
    Leave = "leave",
    // In the history.
    Rerun = "rerun",
    ShowResult = "show_result",
    // Results.
    NextView = "next_view",
    View1 = "view1",
    View2 = "view2",
    View3 = "view3",
    View4 = "view4",
    NextPage = "next_page",
    PrevPage = "prev_page",
    AllPages = "all_pages",
    Copy = "copy",
    CopyAs = "copy_as",
    Break = "break",
    Breaks = "breaks",
    Unbreak = "unbreak",
    Holds = "holds",
    HoldSend = "hold_send",
    HoldDrop = "hold_drop",
    HoldEdit = "hold_edit",
    HoldError = "hold_error",
    HoldDelay = "hold_delay",
    Export = "export",
    Search = "search",
    NextMatch = "next_match",
    PrevMatch = "prev_match",
    SwitchSide = "switch_side",
    MarkRecords = "mark_records",
    MarkNext = "mark_next",
    DecodeTexts = "decode_texts",
    Zoom = "zoom",
    // The log.
    LogDirection = "log_direction",
    LogLevel = "log_level",
    Paired = "paired",
    // A docked pane's key, from anywhere.
    Show = "show",
    // A server's request.
    Decline = "decline",
    // Resources, prompts and the rest of the session.
    Subscribe = "subscribe",
    OpenResource = "open_resource",
    NextSuggestion = "next_suggestion",
    PrevSuggestion = "prev_suggestion",
    TakeSuggestion = "take_suggestion",
    ServerLogLevel = "server_log_level",
    Ping = "ping",
    // The session's tasks.
    Tasks = "tasks",
    CancelTask = "cancel_task",
    // The server's skills (SEP-2640).
    Skills = "skills",
    // Roots, in the server info pane.
    AddRoot = "add_root",
    RemoveRoot = "remove_root",
    // Saved calls: the collection.
    SaveCall = "save_call",
    RunAll = "run_all",
    // Several servers side by side.
    ConnectServer = "connect_server",
    NextServer = "next_server",
    PrevServer = "prev_server",
    ServerNumber = "server_number",
    RunOnOther = "run_on_other",
    CompareTools = "compare_tools",
    CloseServer = "close_server",
}

/// Where a binding applies: a section of the keymap file. `Any` (the file's `[global]`) applies
/// everywhere, after the pane's own: a pane's binding for a key hides the global one. A section
/// is data: a component names its own (`Scope("info")`), and the embedded keymap gives its keys,
/// its title in the help and its place there; no list here needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scope(pub &'static str);

#[allow(non_upper_case_globals)]
impl Scope {
    pub const Any: Scope = Scope("global");
    pub const Tools: Scope = Scope("tools");
    pub const Schema: Scope = Scope("schema");
    pub const Form: Scope = Scope("form");
    pub const History: Scope = Scope("history");
    pub const Result: Scope = Scope("result");
    pub const Log: Scope = Scope("log");
    pub const Help: Scope = Scope("help");
    pub const Picker: Scope = Scope("picker");
    pub const LogEntry: Scope = Scope("log_entry");
    pub const Ask: Scope = Scope("ask");

    /// Every section of the embedded keymap, in its order (the help's order).
    pub fn all() -> &'static [Scope] {
        static ALL: OnceLock<Vec<Scope>> = OnceLock::new();
        ALL.get_or_init(|| load::section_names(DEFAULT).into_iter().map(Scope).collect())
    }

    /// The heading of the section in the help (its `title` in the keymap file).
    pub fn title(self) -> &'static str {
        static TITLES: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
        let titles = TITLES.get_or_init(|| load::section_titles(DEFAULT));
        titles.iter().find(|(name, _)| *name == self.0).map_or(self.0, |(_, t)| t.as_str())
    }

    /// The section of the keymap file.
    pub fn section(self) -> &'static str {
        self.0
    }

    /// A section the embedded keymap has (a user's file may only change those).
    pub fn from_section(name: &str) -> Option<Scope> {
        Scope::all().iter().copied().find(|s| s.0 == name)
    }
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub keys: Vec<Key>,
    /// How the keys are written in help and footer ("j / ↓").
    pub label: String,
    pub command: Command,
    pub help: String,
    pub scope: Scope,
    /// Shown in the footer for its scope, with this short word.
    pub footer: Option<String>,
}

impl Binding {
    fn new(scope: Scope, keys: Vec<Key>, command: Command, help: String, footer: Option<String>) -> Binding {
        let label = label_of(&keys.iter().map(Key::label).collect::<Vec<_>>());
        Binding { keys, label, command, help, scope, footer }
    }

    pub fn has(&self, key: &Key) -> bool {
        self.keys.contains(key)
    }
}

/// Keys as help and footer write them: "j / ↓"; a run of three or more keys that differ only in
/// a last digit counting up is written once ("Alt-1…9"), so a row of nine keys stays short.
fn label_of(labels: &[String]) -> String {
    let digit = |l: &str| l.chars().last().and_then(|c| c.to_digit(10)).map(|d| (l[..l.len() - 1].to_string(), d));
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < labels.len() {
        let mut j = i + 1;
        if let Some((stem, first)) = digit(&labels[i]) {
            while j < labels.len() && digit(&labels[j]) == Some((stem.clone(), first + (j - i) as u32)) {
                j += 1;
            }
            if j - i >= 3 {
                out.push(format!("{stem}{first}…{}", first + (j - i - 1) as u32));
                i = j;
                continue;
            }
        }
        out.push(labels[i].clone());
        i += 1;
    }
    out.join(" / ")
}

/// Every binding of every section, in file order within a section.
#[derive(Debug, Clone)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

impl Keymap {
    /// The embedded default. It is checked by tests, so an error here is a bug of this build.
    pub fn default_map() -> Keymap {
        match load::parse(DEFAULT) {
            Ok(p) => Keymap { bindings: load::into_bindings(p) },
            Err(e) => {
                // Unreachable after the tests pass; still no panic in a user's terminal.
                crate::cli::output::err_line(&format!("mcplens: the built-in keymap is broken: {e}"));
                Keymap { bindings: vec![] }
            }
        }
    }

    /// The default with `user` (a keymap file's text) laid over it.
    pub fn with_user(user: &str) -> Result<Keymap, String> {
        let parsed = load::parse(user)?;
        Ok(Keymap { bindings: load::overlay(Keymap::default_map().bindings, parsed) })
    }

    /// The bindings `scope` lists, in order.
    pub fn own(&self, scope: Scope) -> impl Iterator<Item = &Binding> {
        self.bindings.iter().filter(move |b| b.scope == scope)
    }

    /// The global bindings that still apply in `scope`, without the keys `scope` binds itself;
    /// a global binding left with no key is hidden.
    pub fn global_in(&self, scope: Scope) -> Vec<Binding> {
        let own: Vec<Key> =
            if scope == Scope::Any { vec![] } else { self.own(scope).flat_map(|b| b.keys.clone()).collect() };
        self.own(Scope::Any)
            .filter_map(|b| {
                let keys: Vec<Key> = b.keys.iter().copied().filter(|k| !own.contains(k)).collect();
                (!keys.is_empty()).then(|| Binding::new(Scope::Any, keys, b.command, b.help.clone(), b.footer.clone()))
            })
            .collect()
    }

    pub fn lookup_own(&self, key: &KeyEvent, scope: Scope) -> Option<Command> {
        let k = Key::from_event(key);
        self.own(scope).find(|b| b.has(&k)).map(|b| b.command)
    }

    pub fn lookup(&self, key: &KeyEvent, scope: Scope) -> Option<Command> {
        self.lookup_own(key, scope).or_else(|| self.lookup_own(key, Scope::Any))
    }

    /// `(keys, word, command)` footer hints in `scope`: its own, then the global ones it does
    /// not hide. The first key stands for the binding.
    pub fn footer(&self, scope: Scope) -> Vec<(String, String, Command)> {
        let global = if scope == Scope::Any { vec![] } else { self.global_in(scope) };
        self.own(scope)
            .chain(global.iter())
            .filter_map(|b| Some((b.keys.first()?.label(), b.footer.clone()?, b.command)))
            .collect()
    }
}

static KEYMAP: OnceLock<Keymap> = OnceLock::new();

/// Loads the user's keymap over the default, once, before the first key. `path` is `--keymap`;
/// without it the config directory's `keymap.toml` is read if it exists. A bad file never stops
/// mcplens: the default is used and the returned message goes to the status line.
pub fn init(path: Option<&Path>) -> Option<String> {
    let (map, err) = load_user(path);
    let _ = KEYMAP.set(map);
    err
}

fn load_user(path: Option<&Path>) -> (Keymap, Option<String>) {
    let Some(file) = path.map(Path::to_path_buf).or_else(user_file) else { return (Keymap::default_map(), None) };
    let text = match crate::capped_file::read_text(&file, crate::capped_file::MAX_THEME) {
        Ok(t) => t,
        Err(e) if path.is_none() && e.is_not_found() => {
            return (Keymap::default_map(), None);
        }
        Err(e) => return (Keymap::default_map(), Some(format!("keymap {}: {e}; using the default", file.display()))),
    };
    match Keymap::with_user(&text) {
        Ok(map) => (map, None),
        Err(e) => (Keymap::default_map(), Some(format!("keymap {}: {e}; using the default", file.display()))),
    }
}

/// `keymap.toml` in the config directory (`$MCPLENS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcplens`,
/// else `~/.config/mcplens`).
pub fn user_file() -> Option<PathBuf> {
    crate::dirs::config_dir().map(|d| d.join("keymap.toml"))
}

/// The keymap in force: the one `init` loaded, else the default (tests, headless screens).
pub fn keymap() -> &'static Keymap {
    KEYMAP.get_or_init(Keymap::default_map)
}

/// Every binding in force.
pub fn bindings() -> &'static [Binding] {
    &keymap().bindings
}

/// The command `key` means among `scope`'s own bindings only.
pub fn lookup_own(key: &KeyEvent, scope: Scope) -> Option<Command> {
    keymap().lookup_own(key, scope)
}

/// The command `key` means in `scope` (the scope's own bindings win over `Any`).
pub fn lookup(key: &KeyEvent, scope: Scope) -> Option<Command> {
    keymap().lookup(key, scope)
}

/// How the keys that run `cmd` in `scope` are written ("Ctrl-R", "y / q"): the scope's own
/// binding, else the global one. Text on screen that names a key asks here, so a user's keymap
/// changes it too.
pub fn keys(scope: Scope, cmd: Command) -> String {
    let map = keymap();
    let found = map.own(scope).find(|b| b.command == cmd).map(|b| b.label.clone());
    found.or_else(|| map.global_in(scope).into_iter().find(|b| b.command == cmd).map(|b| b.label)).unwrap_or_else(
        || {
            // Unbound by the user's keymap: say so rather than name a key that does nothing.
            format!("({} unbound)", cmd.name())
        },
    )
}

/// The first key that runs `cmd` in `scope` ("Ctrl-R"), for short hints.
pub fn key(scope: Scope, cmd: Command) -> String {
    let map = keymap();
    let own = map.own(scope).find(|b| b.command == cmd).and_then(|b| b.keys.first().map(Key::label));
    own.or_else(|| {
        map.global_in(scope).into_iter().find(|b| b.command == cmd).and_then(|b| b.keys.first().map(Key::label))
    })
    .unwrap_or_else(|| format!("({} unbound)", cmd.name()))
}

/// How a key the text inputs handle themselves (Enter, Esc, Backspace) is written on screen.
pub fn key_name(code: crossterm::event::KeyCode) -> String {
    Key::new(code, crossterm::event::KeyModifiers::NONE).label()
}

/// The last key that runs `cmd` in `scope` ("↓" of "j / ↓"): the arrow rather than the letter.
pub fn key_last(scope: Scope, cmd: Command) -> String {
    let map = keymap();
    let own = map.own(scope).find(|b| b.command == cmd).and_then(|b| b.keys.last().map(Key::label));
    own.or_else(|| {
        map.global_in(scope).into_iter().find(|b| b.command == cmd).and_then(|b| b.keys.last().map(Key::label))
    })
    .unwrap_or_else(|| format!("({} unbound)", cmd.name()))
}

/// "Enter get · Esc close": for each command, the key that runs it in `scope` and what it does,
/// for titles and lines that name keys.
pub fn said(scope: Scope, what: &[(Command, &str)]) -> String {
    what.iter().map(|(cmd, word)| format!("{} {word}", key(scope, *cmd))).collect::<Vec<_>>().join(" · ")
}

/// `(key, word)` footer pairs for `scope`, in the given order (a component whose footer is not
/// its section's: a scrolling view, a detail).
pub fn pairs(scope: Scope, what: &[(Command, &str)]) -> Vec<(String, String)> {
    what.iter().map(|(cmd, word)| (keys(scope, *cmd), (*word).to_string())).collect()
}

/// The keys of a search prompt, which the prompt handles itself: "Enter finds, Esc cancels".
pub fn search_keys() -> String {
    use crossterm::event::KeyCode;
    format!("{} finds, {} cancels", key_name(KeyCode::Enter), key_name(KeyCode::Esc))
}

/// The notice when a call is asked for while one runs.
pub fn running_note() -> String {
    format!("a call is running; {} cancels it", key(Scope::Any, Command::CancelCall))
}

/// The notice when something needs the server and the session is down.
pub fn not_connected_note() -> String {
    format!("not connected: {} reconnects", key(Scope::Any, Command::Reconnect))
}

/// `(keys, word, command)` hints for the footer in `scope`.
pub fn footer(scope: Scope) -> Vec<(String, String, Command)> {
    keymap().footer(scope)
}

/// The footer over an overlay: its own keys, and of the global ones only those that still work
/// over an overlay (help, quit); the others would do nothing there.
pub fn overlay_footer(scope: Scope) -> Vec<(String, String)> {
    overlay_footer_of(scope, |_| true)
}

/// `overlay_footer` with only the commands `keep` allows (an overlay whose keys depend on
/// what it shows).
pub fn overlay_footer_of(scope: Scope, keep: impl Fn(Command) -> bool) -> Vec<(String, String)> {
    footer(scope)
        .into_iter()
        .filter(|(_, _, cmd)| {
            matches!(cmd, Command::Help | Command::Quit) || keymap().own(scope).any(|b| b.command == *cmd)
        })
        .filter(|(_, _, cmd)| keep(*cmd))
        .map(|(keys, word, _)| (keys, word))
        .collect()
}

/// Footer hints where letters type into a field: a plain character key does not reach its
/// command there, so it is not offered; F1 still opens the help.
pub fn while_typing(mut hints: Vec<(String, String)>) -> Vec<(String, String)> {
    hints.retain(|(k, _)| k.chars().count() > 1);
    hints.push(("F1".into(), "help".into()));
    hints
}

/// Extra keys that are not commands of the table (mouse, text input), for the help overlay.
pub const EXTRA_HELP: &[(&str, &str)] = &[
    ("mouse click", "select a tool or a schema node, focus a pane"),
    ("mouse wheel", "scroll the pane under the pointer"),
    ("typing (filter)", "edit the filter; Backspace deletes, Enter accepts, Esc clears"),
    (
        "editing text",
        "Home or Ctrl-A: the start; End: the end (Ctrl-E too in the JSON editor, Ctrl-T); Ctrl-←/→, Alt-b/f: a word; Ctrl-W, Alt-Backspace: delete a word; Ctrl-U: delete to the start",
    ),
    (
        "typing (form)",
        "edit the focused text or number field: a value shown selected is replaced by what you type (End or → keeps it and types after it); an emptied field is omitted",
    ),
    ("+ add key rows", "type the new key's name, then Enter"),
    ("! ⚠ · in list", "a malformed descriptor; a destructive tool; a read-only tool"),
    (
        "✗ ~ + in list",
        "since the saved snapshot (mcp-snapshot.json, --snapshot FILE): a breaking change, a compatible change, a new tool; the title counts them (− removed); the schema pane shows the tool's changes, the server info (i) all of them and the removed tools",
    ),
];

#[cfg(test)]
mod tests;
