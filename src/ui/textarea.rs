//! A minimal multi-line text editor for the form's raw JSON mode. It edits each line as the
//! one-line inputs do (docs/text-input.md): words, Home/End and Ctrl-A/Ctrl-E, Ctrl-U and
//! Ctrl-W, and a view that scrolls sideways to keep the cursor on screen with `…` where a line
//! is cut.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::fit;
use crate::sanitize;

#[derive(Debug, Clone, Default)]
pub struct TextArea {
    pub lines: Vec<String>,
    pub row: usize,
    /// Cursor column in characters.
    pub col: usize,
    pub scroll: usize,
    /// The first character shown of every line: long lines scroll sideways with the cursor.
    pub left: usize,
}

fn byte_at(s: &str, col: usize) -> usize {
    s.char_indices().nth(col).map_or(s.len(), |(i, _)| i)
}

impl TextArea {
    pub fn new(text: &str) -> Self {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.is_empty() {
            lines.push(String::new());
        }
        TextArea { lines, row: 0, col: 0, scroll: 0, left: 0 }
    }

    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    fn len(&self, row: usize) -> usize {
        self.lines.get(row).map_or(0, |l| l.chars().count())
    }

    /// Handles an editing key; false when the key is not the editor's. Ctrl-A and Ctrl-E go to
    /// the line's start and end: Ctrl-E is the form's "set empty" only where a field has the
    /// focus, never in the editor. Ctrl-K is not taken (the app's "cancel the call" keeps it).
    pub fn key(&mut self, k: &KeyEvent) -> bool {
        let row = self.row.min(self.lines.len().saturating_sub(1));
        self.row = row;
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        let alt = k.modifiers.contains(KeyModifiers::ALT);
        match (k.code, ctrl, alt) {
            (KeyCode::Left, true, _) | (KeyCode::Char('b'), false, true) => self.word_left(),
            (KeyCode::Right, true, _) | (KeyCode::Char('f'), false, true) => self.word_right(),
            (KeyCode::Char('w'), true, false) | (KeyCode::Backspace, _, true) => {
                let to = word_start(&self.chars(row), self.col);
                self.delete_back_to(to);
            }
            (KeyCode::Char('u'), true, false) => self.delete_back_to(0),
            (KeyCode::Home, _, _) | (KeyCode::Char('a'), true, false) => self.col = 0,
            (KeyCode::End, _, _) | (KeyCode::Char('e'), true, false) => self.col = self.len(row),
            (_, false, false) => return self.plain_key(k.code),
            _ => return false,
        }
        true
    }

    fn chars(&self, row: usize) -> Vec<char> {
        self.lines.get(row).map_or(vec![], |l| l.chars().collect())
    }

    /// Deletes from character `to` to the cursor on its line; at the line's start, joins it to
    /// the line above as Backspace does, so the key is never dead.
    fn delete_back_to(&mut self, to: usize) {
        let row = self.row;
        let col = self.col.min(self.len(row));
        if col == 0 {
            self.plain_key(KeyCode::Backspace);
            return;
        }
        let Some(line) = self.lines.get_mut(row) else { return };
        let (from, end) = (byte_at(line, to.min(col)), byte_at(line, col));
        line.replace_range(from..end, "");
        self.col = to.min(col);
    }

    /// The start of the word before the cursor, or the end of the line above at a line's start.
    fn word_left(&mut self) {
        if self.col == 0 && self.row > 0 {
            self.row -= 1;
            self.col = self.len(self.row);
        } else {
            self.col = word_start(&self.chars(self.row), self.col.min(self.len(self.row)));
        }
    }

    /// The end of the word after the cursor, or the start of the line below at a line's end.
    fn word_right(&mut self) {
        let len = self.len(self.row);
        if self.col >= len && self.row + 1 < self.lines.len() {
            self.row += 1;
            self.col = 0;
        } else {
            self.col = word_end(&self.chars(self.row), self.col.min(len));
        }
    }

    /// A key without Ctrl or Alt.
    fn plain_key(&mut self, code: KeyCode) -> bool {
        let row = self.row;
        match code {
            KeyCode::Char(c) => {
                let at = byte_at(&self.lines[row], self.col);
                self.lines[row].insert(at, c);
                self.col += 1;
            }
            KeyCode::Enter => {
                let at = byte_at(&self.lines[row], self.col);
                let rest = self.lines[row].split_off(at);
                let indent: String = self.lines[row].chars().take_while(|c| *c == ' ').collect();
                self.lines.insert(row + 1, format!("{indent}{rest}"));
                self.row += 1;
                self.col = indent.chars().count();
            }
            KeyCode::Backspace => {
                if self.col > 0 {
                    let at = byte_at(&self.lines[row], self.col - 1);
                    self.lines[row].remove(at);
                    self.col -= 1;
                } else if row > 0 {
                    let line = self.lines.remove(row);
                    self.row -= 1;
                    self.col = self.len(self.row);
                    self.lines[self.row].push_str(&line);
                }
            }
            KeyCode::Delete => {
                if self.col < self.len(row) {
                    let at = byte_at(&self.lines[row], self.col);
                    self.lines[row].remove(at);
                } else if row + 1 < self.lines.len() {
                    let next = self.lines.remove(row + 1);
                    self.lines[row].push_str(&next);
                }
            }
            KeyCode::Left => {
                if self.col > 0 {
                    self.col -= 1;
                } else if row > 0 {
                    self.row -= 1;
                    self.col = self.len(self.row);
                }
            }
            KeyCode::Right => {
                if self.col < self.len(row) {
                    self.col += 1;
                } else if row + 1 < self.lines.len() {
                    self.row += 1;
                    self.col = 0;
                }
            }
            KeyCode::Up => {
                self.row = row.saturating_sub(1);
                self.col = self.col.min(self.len(self.row));
            }
            KeyCode::Down => {
                self.row = (row + 1).min(self.lines.len() - 1);
                self.col = self.col.min(self.len(self.row));
            }
            KeyCode::Tab => {
                let at = byte_at(&self.lines[row], self.col);
                self.lines[row].insert_str(at, "  ");
                self.col += 2;
            }
            _ => return false,
        }
        true
    }

    /// Pasted text at the cursor, line breaks kept as they are (no indent added, unlike Enter);
    /// tabs become two spaces and other control characters are dropped (they would reach the
    /// screen).
    pub fn paste(&mut self, text: &str) {
        let row = self.row.min(self.lines.len().saturating_sub(1));
        let at = byte_at(&self.lines[row], self.col);
        let rest = self.lines[row].split_off(at);
        let mut pasted = text.replace("\r\n", "\n").replace('\r', "\n").replace('\t', "  ");
        pasted.retain(|c| c == '\n' || !c.is_control());
        let mut parts = pasted.split('\n');
        self.lines[row].push_str(parts.next().unwrap_or(""));
        let more: Vec<String> = parts.map(str::to_string).collect();
        let last = row + more.len();
        // One splice: a pasted file of many lines costs one move of the lines below.
        self.lines.splice(row + 1..row + 1, more);
        self.row = last;
        self.col = self.len(last);
        self.lines[last].push_str(&rest);
    }

    /// Keeps the cursor's column within a view `width` columns wide: the view scrolls sideways
    /// just enough, keeping a column for `…` on each side that is cut.
    pub fn follow_columns(&mut self, width: usize) {
        let chars = self.chars(self.row);
        let col = self.col.min(chars.len());
        self.left = self.left.min(col);
        let shown = |left: usize| {
            let cells: usize = chars.iter().take(col + 1).skip(left).map(|&c| fit::columns(safe(c))).sum();
            // The cursor past the line's end stands on a blank column.
            let cursor = usize::from(col >= chars.len());
            cells + cursor + usize::from(left > 0) + 1
        };
        while self.left < col && shown(self.left) > width {
            self.left += 1;
        }
    }

    /// The lines in view (`height` rows, `width` columns), scrolled sideways to `left`, with
    /// `…` where a line is cut; the cursor's cell drawn in `cursor` when it is given.
    pub fn view(&self, height: usize, width: usize, cursor: Option<Style>) -> Vec<Line<'static>> {
        self.lines
            .iter()
            .enumerate()
            .skip(self.scroll)
            .take(height)
            .map(|(i, l)| {
                let chars: Vec<char> = l.chars().map(safe).collect();
                let at = cursor.filter(|_| i == self.row).map(|style| (self.col.min(chars.len()), style));
                view_line(&chars, self.left, at, width)
            })
            .collect()
    }

    /// Keeps the cursor row within a window of `height` rows.
    pub fn follow(&mut self, height: usize) {
        if self.row < self.scroll {
            self.scroll = self.row;
        } else if self.row >= self.scroll + height.max(1) {
            self.scroll = self.row + 1 - height.max(1);
        }
    }
}

/// `c`, or `?` for a character that must not reach the terminal: one column for one
/// character, so the cursor stays where it is.
fn safe(c: char) -> char {
    let mut buf = [0u8; 4];
    match sanitize::line(c.encode_utf8(&mut buf)) {
        std::borrow::Cow::Borrowed(_) => c,
        std::borrow::Cow::Owned(_) => '?',
    }
}

/// One line from character `left`, fitted to `width` with `…` on each side cut; `at` is the
/// cursor's character and its style.
fn view_line(chars: &[char], left: usize, at: Option<(usize, Style)>, width: usize) -> Line<'static> {
    let cut_left = left > 0 && !chars.is_empty();
    let rest: Vec<char> = chars.iter().skip(left).copied().collect();
    let mut spans = vec![];
    if cut_left {
        spans.push(Span::raw("…"));
    }
    match at {
        Some((col, style)) => {
            let col = col.saturating_sub(left).min(rest.len());
            spans.push(Span::raw(rest[..col].iter().collect::<String>()));
            let cur = rest.get(col).map_or(" ".to_string(), char::to_string);
            spans.push(Span::styled(cur, style));
            spans.push(Span::raw(rest.iter().skip(col + 1).collect::<String>()));
        }
        None => spans.push(Span::raw(rest.iter().collect::<String>())),
    }
    fit::fit(Line::from(spans), width)
}

/// Where the word before character `at` starts (spaces and punctuation before it skipped), as
/// the one-line inputs do.
fn word_start(chars: &[char], at: usize) -> usize {
    let mut i = at.min(chars.len());
    while i > 0 && !chars[i - 1].is_alphanumeric() {
        i -= 1;
    }
    while i > 0 && chars[i - 1].is_alphanumeric() {
        i -= 1;
    }
    i
}

/// Where the word after character `at` ends.
fn word_end(chars: &[char], at: usize) -> usize {
    let mut i = at.min(chars.len());
    while i < chars.len() && !chars[i].is_alphanumeric() {
        i += 1;
    }
    while i < chars.len() && chars[i].is_alphanumeric() {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(t: &mut TextArea, code: KeyCode) {
        t.key(&KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn edits_across_lines() {
        let mut t = TextArea::new("{\n}");
        press(&mut t, KeyCode::End);
        press(&mut t, KeyCode::Enter);
        for c in "\"a\": 1".chars() {
            press(&mut t, KeyCode::Char(c));
        }
        assert_eq!(t.text(), "{\n\"a\": 1\n}");
        press(&mut t, KeyCode::Home);
        press(&mut t, KeyCode::Backspace);
        assert_eq!(t.text(), "{\"a\": 1\n}");
        assert!(!t.key(&KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)));
    }

    fn press_with(t: &mut TextArea, code: KeyCode, m: KeyModifiers) -> bool {
        t.key(&KeyEvent::new(code, m))
    }

    fn text_of(l: &Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn the_one_line_editing_keys_work_on_each_line() {
        let mut t = TextArea::new("{}");
        press(&mut t, KeyCode::End);
        assert!(press_with(&mut t, KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!((t.text().as_str(), t.col), ("", 0));
        let mut t = TextArea::new("{\n  \"name\": \"Ada Lovelace\"\n}");
        press(&mut t, KeyCode::Down);
        press(&mut t, KeyCode::End);
        press_with(&mut t, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(t.text(), "{\n  \"name\": \"Ada \n}");
        press_with(&mut t, KeyCode::Backspace, KeyModifiers::ALT);
        assert_eq!(t.text(), "{\n  \"name\": \"\n}");
        press_with(&mut t, KeyCode::Left, KeyModifiers::CONTROL);
        assert_eq!(t.col, 3);
        press_with(&mut t, KeyCode::Char('f'), KeyModifiers::ALT);
        assert_eq!(t.col, 7);
        press_with(&mut t, KeyCode::Char('b'), KeyModifiers::ALT);
        press_with(&mut t, KeyCode::Right, KeyModifiers::CONTROL);
        assert_eq!(t.col, 7);
        press(&mut t, KeyCode::Home);
        press_with(&mut t, KeyCode::Left, KeyModifiers::CONTROL);
        assert_eq!((t.row, t.col), (0, 1));
        // At a line's start the word and line deletions join the line to the one above.
        press(&mut t, KeyCode::Down);
        press(&mut t, KeyCode::Home);
        press_with(&mut t, KeyCode::Char('u'), KeyModifiers::CONTROL);
        assert_eq!(t.text(), "{  \"name\": \"\n}");
        // The form's and the app's Ctrl keys stay theirs.
        for c in ['k', 'r', 't'] {
            assert!(!press_with(&mut t, KeyCode::Char(c), KeyModifiers::CONTROL));
        }
    }

    #[test]
    fn ctrl_a_and_ctrl_e_go_to_the_lines_start_and_end() {
        let mut t = TextArea::new("{\n  \"a\": 1\n}");
        press(&mut t, KeyCode::Down);
        press(&mut t, KeyCode::Right);
        assert!(press_with(&mut t, KeyCode::Char('e'), KeyModifiers::CONTROL));
        assert_eq!((t.row, t.col), (1, 8));
        assert!(press_with(&mut t, KeyCode::Char('a'), KeyModifiers::CONTROL));
        assert_eq!((t.row, t.col), (1, 0));
        // They move only: nothing is typed, and the line stays where it was.
        assert_eq!(t.text(), "{\n  \"a\": 1\n}");
    }

    #[test]
    fn a_long_line_scrolls_sideways_to_the_cursor_with_ellipses() {
        let long = format!("{{\"data\": \"{}\"}}", "abcdefghij".repeat(5));
        let mut t = TextArea::new(&format!("{long}\nshort"));
        let style = Some(Style::default());
        t.follow_columns(20);
        let view: Vec<String> = t.view(2, 20, style).iter().map(text_of).collect();
        assert_eq!(view, ["{\"data\": \"abcdefghi…", "short"]);
        press(&mut t, KeyCode::End);
        t.follow_columns(20);
        let lines = t.view(2, 20, style);
        let view: Vec<String> = lines.iter().map(text_of).collect();
        assert_eq!(view[0], "…fghijabcdefghij\"} ");
        assert!(lines.iter().all(|l| l.width() <= 20), "{view:?}");
        // The cursor in the middle: cut on both sides, the cursor's cell still shown.
        for _ in 0..30 {
            press(&mut t, KeyCode::Left);
        }
        t.follow_columns(20);
        let row = text_of(&t.view(1, 20, style)[0]);
        assert!(row.starts_with('…') && row.ends_with('…'), "{row}");
        // Wide characters count their columns, and tiny views never panic.
        let mut t = TextArea::new(&"名前".repeat(20));
        press(&mut t, KeyCode::End);
        for w in [0, 1, 2, 3, 10] {
            t.follow_columns(w);
            let l = t.view(1, w, style);
            assert!(w < 2 || l[0].width() <= w, "{:?}", text_of(&l[0]));
        }
        t.follow_columns(10);
        assert!(t.view(1, 10, style)[0].width() <= 10);
    }

    #[test]
    fn a_paste_keeps_its_lines_and_drops_control_characters() {
        let mut t = TextArea::new("{\n}");
        press(&mut t, KeyCode::End);
        t.paste("\r\n  \"a\": 1,\r\n  \"b\":\t\"x\u{1b}[2J\"\n");
        assert_eq!(t.text(), "{\n  \"a\": 1,\n  \"b\":  \"x[2J\"\n\n}");
        // The cursor stands after the pasted text, where typing goes on.
        press(&mut t, KeyCode::Char('z'));
        assert_eq!(t.text(), "{\n  \"a\": 1,\n  \"b\":  \"x[2J\"\nz\n}");
        let mut t = TextArea::new("ab");
        press(&mut t, KeyCode::Right);
        t.paste("1");
        assert_eq!((t.text().as_str(), t.row, t.col), ("a1b", 0, 2));
    }
}
