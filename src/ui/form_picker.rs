//! A form field's picker (an enum, a multi-select, a oneOf's variants): its options, the ones a
//! filter leaves, and a cursor that moves as in every list (`Scroll::navigate`: a row, a page,
//! the top, the bottom). `/` starts a filter typed over the options' text.

use crossterm::event::{KeyCode, KeyEvent};

use super::keymap::{self, Command, Scope};
use super::line_input::LineInput;
use super::scroll::Scroll;

#[derive(Debug, Clone)]
pub struct Picker {
    pub options: Vec<String>,
    /// Multi-select (arrays of enums): which options are on, by option.
    pub multi: Option<Vec<bool>>,
    /// The options the filter leaves, as indices into `options`, in order.
    shown: Vec<usize>,
    /// The cursor over `shown`, and the window drawn.
    pub scroll: Scroll,
    pub filter: LineInput,
    /// Typed keys go to the filter (after `/`, until Enter or Esc).
    pub filtering: bool,
}

/// What a key did in the picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerKey {
    /// Still picking.
    Open,
    /// Closed without a change.
    Cancel,
    /// The option under the cursor (a single choice) or the options on (a multi-select).
    Pick,
}

impl Picker {
    /// A picker over `options`, its cursor on option `at`.
    pub fn new(options: Vec<String>, at: usize, multi: Option<Vec<bool>>) -> Picker {
        let shown = (0..options.len()).collect();
        let mut scroll = Scroll::new(options.len());
        scroll.select(at);
        Picker { options, multi, shown, scroll, filter: LineInput::default(), filtering: false }
    }

    /// The option under the cursor, as an index into `options` (None when the filter leaves
    /// none).
    pub fn chosen(&self) -> Option<usize> {
        self.shown.get(self.scroll.cursor).copied()
    }

    /// The options drawn in `height` rows: (index into `options`, it has the cursor).
    pub fn window(&self, height: usize) -> impl Iterator<Item = (usize, bool)> + '_ {
        let cursor = self.scroll.cursor;
        self.scroll.window(height).filter_map(move |row| Some((*self.shown.get(row)?, row == cursor)))
    }

    /// How many options the filter leaves.
    pub fn shown_len(&self) -> usize {
        self.shown.len()
    }

    /// The rows the picker's box shows (for the page keys).
    pub fn set_height(&mut self, rows: usize) {
        self.scroll.set_height(rows);
    }

    pub fn key(&mut self, k: &KeyEvent) -> PickerKey {
        if self.filtering {
            return self.filter_key(k);
        }
        // The form's own keys, so a user's keymap moves them here too; the rest as in every list.
        let cmd = match keymap::lookup(k, Scope::Form) {
            Some(Command::NextField) => Some(Command::Down),
            Some(Command::PrevField) => Some(Command::Up),
            other => other,
        };
        match cmd {
            Some(cmd) if self.scroll.navigate(cmd) => {}
            Some(Command::Toggle) if self.multi.is_some() => self.toggle(),
            // A filter that leaves no option: nothing to pick, the picker stays.
            Some(Command::Activate | Command::Toggle) if self.multi.is_none() && self.chosen().is_none() => {}
            Some(Command::Activate | Command::Toggle) => return PickerKey::Pick,
            Some(Command::Leave) if !self.filter.is_empty() => self.set_filter(|f| f.clear()),
            Some(Command::Leave) => return PickerKey::Cancel,
            _ if starts_filter(k) => self.filtering = true,
            _ => {}
        }
        PickerKey::Open
    }

    /// A key while the filter is typed: Enter keeps it, Esc clears it, the arrows and the page
    /// keys still move; the rest edits it.
    fn filter_key(&mut self, k: &KeyEvent) -> PickerKey {
        match k.code {
            KeyCode::Enter => self.filtering = false,
            KeyCode::Esc => {
                self.filtering = false;
                self.set_filter(LineInput::clear);
            }
            KeyCode::Up | KeyCode::Down | KeyCode::PageUp | KeyCode::PageDown => {
                if let Some(cmd) = keymap::lookup(k, Scope::Any) {
                    self.scroll.navigate(cmd);
                }
            }
            _ => self.set_filter(|f| {
                f.key(k);
            }),
        }
        PickerKey::Open
    }

    /// Changes the filter; when its text changed, the shown options follow, the cursor staying
    /// on the option it was on if that one is still shown.
    fn set_filter(&mut self, change: impl FnOnce(&mut LineInput)) {
        let before = self.filter.text().to_string();
        change(&mut self.filter);
        if self.filter.text() == before {
            return;
        }
        let was = self.chosen();
        let needle = self.filter.text().to_lowercase();
        self.shown = (0..self.options.len())
            .filter(|&i| needle.is_empty() || self.options.get(i).is_some_and(|o| o.to_lowercase().contains(&needle)))
            .collect();
        self.scroll.set_len(self.shown.len());
        self.scroll.select(was.and_then(|w| self.shown.iter().position(|&i| i == w)).unwrap_or(0));
    }

    fn toggle(&mut self) {
        if let (Some(on), Some(i)) = (&mut self.multi, self.shown.get(self.scroll.cursor))
            && let Some(b) = on.get_mut(*i)
        {
            *b = !*b;
        }
    }
}

/// The key that starts a list's filter (the tool list's, `/` unless rebound).
fn starts_filter(k: &KeyEvent) -> bool {
    keymap::lookup_own(k, Scope::Tools) == Some(Command::Filter)
}

/// How the filter key is written, for the picker's title.
pub fn filter_key() -> String {
    keymap::key(Scope::Tools, Command::Filter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn press(p: &mut Picker, code: KeyCode) -> PickerKey {
        p.key(&KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn picker(n: usize) -> Picker {
        let mut p = Picker::new((0..n).map(|i| format!("v{i}")).collect(), 0, None);
        p.set_height(10);
        p
    }

    #[test]
    fn the_list_keys_move_by_a_row_a_page_and_to_either_end() {
        let mut p = picker(3000);
        press(&mut p, KeyCode::End);
        assert_eq!(p.chosen(), Some(2999));
        press(&mut p, KeyCode::Home);
        assert_eq!(p.chosen(), Some(0));
        press(&mut p, KeyCode::Char('G'));
        assert_eq!(p.chosen(), Some(2999));
        press(&mut p, KeyCode::Char('g'));
        press(&mut p, KeyCode::PageDown);
        assert_eq!(p.chosen(), Some(9));
        p.key(&KeyEvent::new(KeyCode::Char('f'), KeyModifiers::CONTROL));
        assert_eq!(p.chosen(), Some(18));
        press(&mut p, KeyCode::PageUp);
        press(&mut p, KeyCode::Char('j'));
        press(&mut p, KeyCode::Down);
        press(&mut p, KeyCode::Tab);
        assert_eq!(p.chosen(), Some(12));
        press(&mut p, KeyCode::Char('k'));
        assert_eq!(p.chosen(), Some(11));
        assert_eq!(press(&mut p, KeyCode::Enter), PickerKey::Pick);
    }

    #[test]
    fn a_filter_typed_after_the_slash_leaves_the_options_holding_it() {
        let mut p = picker(3000);
        press(&mut p, KeyCode::Char('/'));
        for c in "V299".chars() {
            press(&mut p, KeyCode::Char(c));
        }
        // v299, v2990 … v2999.
        assert_eq!(p.shown_len(), 11);
        press(&mut p, KeyCode::Down);
        assert_eq!(p.chosen(), Some(2990));
        // Enter keeps the filter; letters move again, and Enter picks.
        assert_eq!(press(&mut p, KeyCode::Enter), PickerKey::Open);
        press(&mut p, KeyCode::Char('G'));
        assert_eq!(p.chosen(), Some(2999));
        // Esc clears the kept filter first, the cursor staying on its option; then cancels.
        assert_eq!(press(&mut p, KeyCode::Esc), PickerKey::Open);
        assert_eq!((p.shown_len(), p.chosen()), (3000, Some(2999)));
        assert_eq!(press(&mut p, KeyCode::Esc), PickerKey::Cancel);
    }

    #[test]
    fn nothing_matching_leaves_nothing_to_pick_or_toggle() {
        let mut p = Picker::new(vec!["a".into(), "b".into()], 0, Some(vec![false, false]));
        press(&mut p, KeyCode::Char('/'));
        press(&mut p, KeyCode::Char('z'));
        assert_eq!((p.shown_len(), p.chosen()), (0, None));
        press(&mut p, KeyCode::Enter);
        press(&mut p, KeyCode::Char(' '));
        assert_eq!(p.multi, Some(vec![false, false]));
        press(&mut p, KeyCode::Esc);
        press(&mut p, KeyCode::Down);
        press(&mut p, KeyCode::Char(' '));
        assert_eq!(p.multi, Some(vec![false, true]));
    }
}
