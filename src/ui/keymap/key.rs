//! Key notation, parsed and printed in one place: `<C-r>`, `<S-Tab>`, `<Down>`, `j`, `?` in files,
//! "Ctrl-R", "Shift-Tab", "↓" on screen.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key as bindings hold it: a character keeps its case and drops Shift (terminals disagree on
/// whether `G` comes with Shift), and Shift-Tab is `BackTab` alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const NAMES: &[(&str, KeyCode)] = &[
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Tab", KeyCode::Tab),
    ("BackTab", KeyCode::BackTab),
    ("Backspace", KeyCode::Backspace),
    ("Delete", KeyCode::Delete),
    ("Insert", KeyCode::Insert),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("Space", KeyCode::Char(' ')),
    ("lt", KeyCode::Char('<')),
    ("gt", KeyCode::Char('>')),
];

impl Key {
    pub fn new(code: KeyCode, mods: KeyModifiers) -> Key {
        let mods = mods & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        match code {
            KeyCode::Char(_) | KeyCode::BackTab => Key { code, mods: mods - KeyModifiers::SHIFT },
            KeyCode::Tab if mods.contains(KeyModifiers::SHIFT) => {
                Key { code: KeyCode::BackTab, mods: mods - KeyModifiers::SHIFT }
            }
            _ => Key { code, mods },
        }
    }

    pub fn from_event(e: &KeyEvent) -> Key {
        Key::new(e.code, e.modifiers)
    }

    /// Parses the file notation: one character, or `<[C-][A-][S-]Name>`.
    pub fn parse(text: &str) -> Result<Key, String> {
        let bad = || format!("{text:?} is not a key (write \"j\", \"G\", \"<C-r>\", \"<S-Tab>\", \"<Down>\"...)");
        let mut chars = text.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Ok(Key::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        let inner = text.strip_prefix('<').and_then(|t| t.strip_suffix('>')).ok_or_else(bad)?;
        let mut mods = KeyModifiers::NONE;
        let mut rest = inner;
        while rest.chars().count() > 2 {
            let m = match rest.get(..2) {
                Some("C-") => KeyModifiers::CONTROL,
                Some("A-") => KeyModifiers::ALT,
                Some("S-") => KeyModifiers::SHIFT,
                _ => break,
            };
            mods |= m;
            rest = &rest[2..];
        }
        let code = named(rest).ok_or_else(bad)?;
        Ok(Key::new(code, mods))
    }

    /// The file notation, which `parse` reads back.
    pub fn notation(&self) -> String {
        let name = match self.code {
            KeyCode::Char(c) if c != ' ' && c != '<' && c != '>' && self.mods.is_empty() => return c.to_string(),
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char('<') => "lt".to_string(),
            KeyCode::Char('>') => "gt".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            code => NAMES.iter().find(|(_, k)| *k == code).map_or("?", |(n, _)| *n).to_string(),
        };
        let mut out = String::from("<");
        for (m, p) in [(KeyModifiers::CONTROL, "C-"), (KeyModifiers::ALT, "A-"), (KeyModifiers::SHIFT, "S-")] {
            if self.mods.contains(m) {
                out.push_str(p);
            }
        }
        out.push_str(&name);
        out.push('>');
        out
    }

    /// How help and footer show the key: "Ctrl-R", "Shift-Tab", "↓", "G".
    pub fn label(&self) -> String {
        let name = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) if self.mods.contains(KeyModifiers::CONTROL) => c.to_uppercase().to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::BackTab => "Shift-Tab".into(),
            KeyCode::F(n) => format!("F{n}"),
            code => NAMES.iter().find(|(_, k)| *k == code).map_or("?", |(n, _)| *n).to_string(),
        };
        let mut out = String::new();
        for (m, p) in [(KeyModifiers::CONTROL, "Ctrl-"), (KeyModifiers::ALT, "Alt-"), (KeyModifiers::SHIFT, "Shift-")] {
            if self.mods.contains(m) {
                out.push_str(p);
            }
        }
        out.push_str(&name);
        out
    }
}

fn named(name: &str) -> Option<KeyCode> {
    if let Some(n) = name.strip_prefix('F').and_then(|n| n.parse::<u8>().ok()).filter(|n| (1..=24).contains(n)) {
        return Some(KeyCode::F(n));
    }
    if let Some(found) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Some(found.1);
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(KeyCode::Char(c)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_reads_well() {
        for (text, label) in [
            ("j", "j"),
            ("G", "G"),
            ("?", "?"),
            ("<C-r>", "Ctrl-R"),
            ("<S-Tab>", "Shift-Tab"),
            ("<Down>", "↓"),
            ("<C-Down>", "Ctrl-↓"),
            ("<Space>", "Space"),
            ("<PageUp>", "PgUp"),
            ("<F1>", "F1"),
            ("<A-x>", "Alt-x"),
            ("<lt>", "<"),
        ] {
            let k = Key::parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(k.label(), label, "{text}");
            assert_eq!(Key::parse(&k.notation()), Ok(k), "{text}");
        }
        for bad in ["", "<>", "<Dwn>", "jj", "<C-", "<Q-x>"] {
            assert!(Key::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn events_match_however_the_terminal_reports_shift() {
        let g = Key::parse("G").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Key::from_event(&KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT)), g);
        assert_eq!(Key::from_event(&KeyEvent::new(KeyCode::Char('G'), KeyModifiers::NONE)), g);
        let back = Key::parse("<S-Tab>").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Key::from_event(&KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)), back);
        assert_eq!(Key::from_event(&KeyEvent::new(KeyCode::Tab, KeyModifiers::SHIFT)), back);
    }
}
