//! A minimal multi-line text editor for the form's raw JSON mode.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Default)]
pub struct TextArea {
    pub lines: Vec<String>,
    pub row: usize,
    /// Cursor column in characters.
    pub col: usize,
    pub scroll: usize,
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
        TextArea { lines, row: 0, col: 0, scroll: 0 }
    }

    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    fn len(&self, row: usize) -> usize {
        self.lines.get(row).map_or(0, |l| l.chars().count())
    }

    /// Handles an editing key; false when the key is not the editor's.
    pub fn key(&mut self, k: &KeyEvent) -> bool {
        if k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
            return false;
        }
        let row = self.row.min(self.lines.len().saturating_sub(1));
        self.row = row;
        match k.code {
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
            KeyCode::Home => self.col = 0,
            KeyCode::End => self.col = self.len(row),
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

    /// Keeps the cursor row within a window of `height` rows.
    pub fn follow(&mut self, height: usize) {
        if self.row < self.scroll {
            self.scroll = self.row;
        } else if self.row >= self.scroll + height.max(1) {
            self.scroll = self.row + 1 - height.max(1);
        }
    }
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
