use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;

fn event(k: &Key) -> KeyEvent {
    KeyEvent::new(k.code, k.mods)
}

#[test]
fn the_default_keymap_parses_and_binds_every_key_once_per_section() {
    let parsed = load::parse(DEFAULT).unwrap_or_else(|e| panic!("{e}"));
    assert!(parsed.iter().all(|p| p.command.is_some()), "no noop in the default");
    assert_eq!(Keymap::default_map().bindings.len(), parsed.len());
}

#[test]
fn every_key_the_help_lists_reaches_its_command() {
    let map = Keymap::default_map();
    for &scope in Scope::all() {
        for b in map.own(scope) {
            for k in &b.keys {
                assert_eq!(map.lookup(&event(k), scope), Some(b.command), "[{}] {}", scope.section(), b.label);
            }
        }
        for b in map.global_in(scope) {
            for k in &b.keys {
                assert_eq!(map.lookup(&event(k), scope), Some(b.command), "[{}] global {}", scope.section(), b.label);
            }
        }
    }
}

#[test]
fn a_pane_key_hides_the_global_one_in_the_footer() {
    let map = Keymap::default_map();
    let form = map.footer(Scope::Form);
    assert!(!form.iter().any(|(_, w, _)| w == "pane"), "{form:?}");
    assert!(form.iter().any(|(k, w, _)| k == "Tab" && w == "field"), "{form:?}");
    assert!(map.footer(Scope::Tools).iter().any(|(k, w, _)| k == "Tab" && w == "pane"));
    // The global Down (j / ↓) keeps only j in the form.
    let down = map.global_in(Scope::Form).into_iter().find(|b| b.command == Command::Down);
    assert_eq!(down.map(|b| b.label), Some("j".to_string()));
}

#[test]
fn every_command_but_noop_style_helpers_is_bound_somewhere() {
    let map = Keymap::default_map();
    for c in Command::ALL {
        assert!(map.bindings.iter().any(|b| b.command == *c), "{} is bound nowhere", c.name());
        assert_eq!(Command::from_name(c.name()), Some(*c));
    }
}

#[test]
fn a_user_file_replaces_unbinds_and_adds() {
    let user = r#"
        [global]
        keymap = [
          { on = "<C-q>", run = "quit", desc = "quit too" },
          { on = "q", run = "noop" },
          { on = "<Down>", run = "page_down" },
        ]
    "#;
    let map = Keymap::with_user(user).unwrap_or_else(|e| panic!("{e}"));
    let ev = |c, m| KeyEvent::new(c, m);
    assert_eq!(map.lookup(&ev(KeyCode::Char('q'), KeyModifiers::CONTROL), Scope::Tools), Some(Command::Quit));
    assert_eq!(map.lookup(&ev(KeyCode::Char('q'), KeyModifiers::NONE), Scope::Tools), None);
    assert_eq!(map.lookup(&ev(KeyCode::Down, KeyModifiers::NONE), Scope::Tools), Some(Command::PageDown));
    assert_eq!(map.lookup(&ev(KeyCode::Char('j'), KeyModifiers::NONE), Scope::Tools), Some(Command::Down));
    // The form's own Down still moves fields.
    assert_eq!(map.lookup(&ev(KeyCode::Down, KeyModifiers::NONE), Scope::Form), Some(Command::NextField));
}

#[test]
fn bad_user_files_are_named_errors() {
    for (body, want) in [
        ("[global]\nkeymap = [{ on = \"x\", run = \"fly\" }]", "[global] binding 1: run = \"fly\" names no command"),
        ("[global]\nkeymap = [{ on = \"<Dwn>\", run = \"down\" }]", "[global] binding 1: \"<Dwn>\" is not a key"),
        ("[globl]\nkeymap = []", "[globl] is not a section"),
        ("[form]\nkeymap = [{ on = \"x\", run = \"down\", dsc = \"\" }]", "line 2:"),
        ("[form]\nkeymap = [{ on = [], run = \"down\" }]", "binding 1: `on` lists no key"),
        (
            "[form]\nkeymap = [{ on = \"x\", run = \"down\" }, { on = [\"y\", \"x\"], run = \"up\" }]",
            "[form] binding 2: x is bound twice",
        ),
        ("[form", "line 1:"),
    ] {
        let e = Keymap::with_user(body).err().unwrap_or_default();
        assert!(e.contains(want), "{body}: {e}");
    }
}

#[test]
fn a_bad_or_missing_file_falls_back_with_a_message() {
    let (map, err) = load_user(Some(Path::new("/no/such/keymap.toml")));
    assert!(err.is_some_and(|e| e.contains("using the default")));
    assert_eq!(map.bindings.len(), Keymap::default_map().bindings.len());
}

#[test]
fn an_overlay_footer_offers_only_keys_that_work_over_it() {
    let words: Vec<String> = overlay_footer(Scope::LogEntry).into_iter().map(|(_, w)| w).collect();
    assert_eq!(words, ["paired", "copy", "close", "help", "quit"]);
}

#[test]
fn a_run_of_numbered_keys_is_written_once() {
    let l = |v: &[&str]| super::label_of(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(l(&["Alt-1", "Alt-2", "Alt-3", "Alt-4"]), "Alt-1…4");
    assert_eq!(l(&["1", "2"]), "1 / 2");
    assert_eq!(l(&["j", "↓"]), "j / ↓");
    assert_eq!(l(&["x", "F1", "F2", "F3", "Alt-9"]), "x / F1…3 / Alt-9");
}
