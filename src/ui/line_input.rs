//! One line of text being typed: a filter, a search, a name, a form field. Every one-line input
//! of the TUI holds one of these, so each edits the same way: a cursor that moves by character
//! and by word, Home/End, Ctrl-U and Ctrl-W as in a shell, pasted text, and a view that scrolls
//! to keep the cursor on screen with `…` where text is cut.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui::text::Span;

/// What a key did to the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The text changed.
    Changed,
    /// Only the cursor moved.
    Moved,
    /// Not an editing key: the owner decides (Enter, Esc, Up, Tab...).
    NotMine,
}

/// The text cursor drawn after the text (and where it stands inside it).
pub const CURSOR: char = '▏';

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// Cursor position in characters.
    cursor: usize,
    /// The longest text kept, in characters (0: no bound): a pasted novel is not a query.
    max: usize,
}

/// The longest text an input keeps unless told otherwise: a pasted novel is not a query.
pub const DEFAULT_MAX: usize = 200;

impl Default for LineInput {
    fn default() -> Self {
        LineInput::new(DEFAULT_MAX)
    }
}

fn byte_at(s: &str, col: usize) -> usize {
    s.char_indices().nth(col).map_or(s.len(), |(i, _)| i)
}

impl LineInput {
    /// An empty input that keeps at most `max` characters (0: unbounded).
    pub fn new(max: usize) -> Self {
        LineInput { text: String::new(), cursor: 0, max }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The cursor's position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
    }

    /// Replaces the text (a value loaded, a suggestion taken); the cursor goes to its end.
    pub fn set(&mut self, text: &str) {
        self.clear();
        self.paste(text);
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// Inserts `c` at the cursor; control characters are never kept (they would reach the
    /// screen). False when refused.
    pub fn insert(&mut self, c: char) -> bool {
        if c.is_control() || (self.max > 0 && self.len() >= self.max) {
            return false;
        }
        let at = byte_at(&self.text, self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
        true
    }

    /// Pasted text, as one line: line breaks and tabs become spaces, other control characters
    /// are dropped, and what passes the bound is cut.
    pub fn paste(&mut self, s: &str) -> Edit {
        let mut changed = false;
        for c in s.chars() {
            let c = if matches!(c, '\n' | '\r' | '\t') { ' ' } else { c };
            changed |= self.insert(c);
        }
        if changed { Edit::Changed } else { Edit::NotMine }
    }

    /// Handles an editing key. Home and End do what they do in shells, and Ctrl-A as Home; Ctrl-E
    /// and Ctrl-K are not taken (the form's "set empty" and the global "cancel the call" keep
    /// them).
    pub fn key(&mut self, k: &KeyEvent) -> Edit {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        let alt = k.modifiers.contains(KeyModifiers::ALT);
        match (k.code, ctrl, alt) {
            (KeyCode::Char(c), false, false) => {
                if self.insert(c) {
                    Edit::Changed
                } else {
                    Edit::Moved
                }
            }
            (KeyCode::Backspace, _, false) => self.delete_back(1),
            (KeyCode::Delete, false, false) => self.delete_forward(),
            (KeyCode::Left, false, false) => self.move_to(self.cursor.saturating_sub(1)),
            (KeyCode::Right, false, false) => self.move_to(self.cursor + 1),
            (KeyCode::Left, true, _) | (KeyCode::Char('b'), false, true) => self.move_to(self.word_start()),
            (KeyCode::Right, true, _) | (KeyCode::Char('f'), false, true) => self.move_to(self.word_end()),
            (KeyCode::Home, _, _) | (KeyCode::Char('a'), true, false) => self.move_to(0),
            (KeyCode::End, _, _) => self.move_to(self.len()),
            (KeyCode::Char('u'), true, false) => self.delete_back(self.cursor),
            (KeyCode::Char('w'), true, false) | (KeyCode::Backspace, _, true) => {
                self.delete_back(self.cursor - self.word_start())
            }
            _ => Edit::NotMine,
        }
    }

    fn move_to(&mut self, to: usize) -> Edit {
        self.cursor = to.min(self.len());
        Edit::Moved
    }

    fn delete_back(&mut self, n: usize) -> Edit {
        let n = n.min(self.cursor);
        if n == 0 {
            return Edit::Moved;
        }
        let (from, to) = (byte_at(&self.text, self.cursor - n), byte_at(&self.text, self.cursor));
        self.text.replace_range(from..to, "");
        self.cursor -= n;
        Edit::Changed
    }

    fn delete_forward(&mut self) -> Edit {
        if self.cursor >= self.len() {
            return Edit::Moved;
        }
        let at = byte_at(&self.text, self.cursor);
        self.text.remove(at);
        Edit::Changed
    }

    /// Where the word before the cursor starts (spaces before it skipped), as shells do.
    fn word_start(&self) -> usize {
        let chars: Vec<char> = self.text.chars().take(self.cursor).collect();
        let mut i = chars.len();
        while i > 0 && !chars[i - 1].is_alphanumeric() {
            i -= 1;
        }
        while i > 0 && chars[i - 1].is_alphanumeric() {
            i -= 1;
        }
        i
    }

    /// Where the word after the cursor ends.
    fn word_end(&self) -> usize {
        let rest: Vec<char> = self.text.chars().skip(self.cursor).collect();
        let mut i = 0;
        while i < rest.len() && !rest[i].is_alphanumeric() {
            i += 1;
        }
        while i < rest.len() && rest[i].is_alphanumeric() {
            i += 1;
        }
        self.cursor + i
    }

    /// The text as it shows in `width` columns with the cursor (`▏`) in it when `typing`: the
    /// part around the cursor, cut with `…` on the side(s) that do not fit. Control characters
    /// show as `?` (none are inserted, but a value set from outside may hold one).
    pub fn view(&self, width: usize, typing: bool) -> String {
        let chars: Vec<char> = self.text.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
        // Typing, the window follows the cursor; else it shows the text's head.
        let at = if typing { self.cursor.min(chars.len()) } else { 0 };
        let mut cells: Vec<(char, usize)> = chars.iter().map(|&c| (c, super::fit::columns(c))).collect();
        if typing {
            cells.insert(at, (CURSOR, 1));
        }
        let total: usize = cells.iter().map(|c| c.1).sum();
        if total <= width {
            return cells.into_iter().map(|c| c.0).collect();
        }
        window(&cells, at, width)
    }

    /// The view as a span in `style`.
    pub fn span(&self, width: usize, typing: bool, style: Style) -> Span<'static> {
        Span::styled(self.view(width, typing), style)
    }
}

/// The columns of `cells` that fit in `width` around index `at`, with `…` where cut.
fn window(cells: &[(char, usize)], at: usize, width: usize) -> String {
    if width < 2 {
        return "…".chars().take(width).collect();
    }
    // Grow a window from the cursor: rightwards first (what follows the cursor), then left.
    let (mut lo, mut hi) = (at, at);
    let mut used = 0;
    let room = |lo: usize, hi: usize, used: usize| {
        let marks = usize::from(lo > 0) + usize::from(hi < cells.len());
        width.saturating_sub(used + marks)
    };
    loop {
        let grew_right = hi < cells.len() && cells[hi].1 <= room(lo, hi + 1, used);
        if grew_right {
            used += cells[hi].1;
            hi += 1;
        }
        let grew_left = lo > 0 && cells[lo - 1].1 <= room(lo - 1, hi, used);
        if grew_left {
            used += cells[lo - 1].1;
            lo -= 1;
        }
        if !grew_right && !grew_left {
            break;
        }
    }
    let mut out = String::new();
    if lo > 0 {
        out.push('…');
    }
    out.extend(cells[lo..hi].iter().map(|c| c.0));
    if hi < cells.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(i: &mut LineInput, code: KeyCode, m: KeyModifiers) -> Edit {
        i.key(&KeyEvent::new(code, m))
    }

    fn typed(s: &str) -> LineInput {
        let mut i = LineInput::new(0);
        for c in s.chars() {
            press(&mut i, KeyCode::Char(c), KeyModifiers::NONE);
        }
        i
    }

    #[test]
    fn typing_moving_and_deleting_edit_at_the_cursor() {
        let mut i = typed("hello world");
        assert_eq!(press(&mut i, KeyCode::Home, KeyModifiers::NONE), Edit::Moved);
        press(&mut i, KeyCode::Right, KeyModifiers::CONTROL);
        press(&mut i, KeyCode::Char('!'), KeyModifiers::NONE);
        assert_eq!(i.text(), "hello! world");
        press(&mut i, KeyCode::Delete, KeyModifiers::NONE);
        assert_eq!(i.text(), "hello!world");
        press(&mut i, KeyCode::End, KeyModifiers::NONE);
        press(&mut i, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(i.text(), "hello!");
        press(&mut i, KeyCode::Left, KeyModifiers::NONE);
        press(&mut i, KeyCode::Char('u'), KeyModifiers::CONTROL);
        assert_eq!((i.text(), i.cursor()), ("!", 0));
        // Keys that are not editing keys are the owner's.
        for code in [KeyCode::Enter, KeyCode::Esc, KeyCode::Up, KeyCode::Tab] {
            assert_eq!(press(&mut i, code, KeyModifiers::NONE), Edit::NotMine);
        }
        for c in ['r', 'e', 'k', 'c'] {
            assert_eq!(press(&mut i, KeyCode::Char(c), KeyModifiers::CONTROL), Edit::NotMine);
        }
    }

    #[test]
    fn ctrl_a_goes_to_the_start_as_home_does() {
        let mut i = typed("hello");
        assert_eq!(press(&mut i, KeyCode::Char('a'), KeyModifiers::CONTROL), Edit::Moved);
        press(&mut i, KeyCode::Char('>'), KeyModifiers::NONE);
        assert_eq!((i.text(), i.cursor()), (">hello", 1));
    }

    /// Random keys against a model (the text as characters and a cursor): the input never
    /// panics, keeps its cursor inside the text, and edits where the model says.
    #[test]
    fn random_keys_edit_as_the_model_says() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let keys = prop_oneof![
            "[a-zé名 .-]".prop_map(|s: String| KeyCode::Char(s.chars().next().unwrap_or('a'))),
            Just(KeyCode::Backspace),
            Just(KeyCode::Delete),
            Just(KeyCode::Left),
            Just(KeyCode::Right),
            Just(KeyCode::Home),
            Just(KeyCode::End),
        ];
        let mut runner = TestRunner::new(Config { cases: 200, failure_persistence: None, ..Config::default() });
        let result = runner.run(&proptest::collection::vec(keys, 0..40), |codes| {
            let mut i = LineInput::new(12);
            let (mut model, mut at): (Vec<char>, usize) = (vec![], 0);
            for code in codes {
                i.key(&KeyEvent::new(code, KeyModifiers::NONE));
                match code {
                    KeyCode::Char(c) if model.len() < 12 => {
                        model.insert(at, c);
                        at += 1;
                    }
                    KeyCode::Backspace if at > 0 => {
                        at -= 1;
                        model.remove(at);
                    }
                    KeyCode::Delete if at < model.len() => {
                        model.remove(at);
                    }
                    KeyCode::Left => at = at.saturating_sub(1),
                    KeyCode::Right => at = (at + 1).min(model.len()),
                    KeyCode::Home => at = 0,
                    KeyCode::End => at = model.len(),
                    _ => {}
                }
                prop_assert_eq!(i.text(), model.iter().collect::<String>());
                prop_assert_eq!(i.cursor(), at);
                let view = i.view(6, true);
                prop_assert!(Span::raw(view.clone()).width() <= 6, "{}", view);
                prop_assert!(view.contains(CURSOR), "{}", view);
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("{e}");
        }
    }

    #[test]
    fn multibyte_text_edits_by_character() {
        let mut i = typed("名前é");
        press(&mut i, KeyCode::Left, KeyModifiers::NONE);
        press(&mut i, KeyCode::Backspace, KeyModifiers::NONE);
        assert_eq!(i.text(), "名é");
        press(&mut i, KeyCode::Backspace, KeyModifiers::ALT);
        assert_eq!(i.text(), "é");
    }

    #[test]
    fn paste_is_one_line_without_control_characters_and_bounded() {
        let mut i = LineInput::new(8);
        assert_eq!(i.paste("a\nb\x1b[2Jc\tdefghij"), Edit::Changed);
        assert_eq!(i.text(), "a b[2Jc ");
        assert_eq!(i.paste("more"), Edit::NotMine);
    }

    #[test]
    fn the_view_keeps_the_cursor_on_screen_with_ellipses() {
        let mut i = typed("abcdefghijklmnopqrstuvwxyz");
        assert_eq!(i.view(30, true), "abcdefghijklmnopqrstuvwxyz▏");
        assert_eq!(i.view(10, true), "…stuvwxyz▏");
        for _ in 0..13 {
            press(&mut i, KeyCode::Left, KeyModifiers::NONE);
        }
        let v = i.view(10, true);
        assert_eq!(v.chars().count(), 10, "{v}");
        assert!(v.starts_with('…') && v.ends_with('…') && v.contains("m▏n"), "{v}");
        press(&mut i, KeyCode::Home, KeyModifiers::NONE);
        assert_eq!(i.view(10, true), "▏abcdefgh…");
        assert_eq!(i.view(10, false), "abcdefghi…");
        // Wide characters count their columns.
        let wide = typed("名前名前名前");
        assert!(Span::raw(wide.view(7, true)).width() <= 7);
    }
}
