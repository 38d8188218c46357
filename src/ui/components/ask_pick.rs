//! Picking an elicitation field's value among its choices when they are many: a window over the
//! matching choices, filtered by typing over their text, more read as the cursor goes down.
//! A 1M-value enum is one list of places, not a million rows.

use std::collections::BTreeSet;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use serde_json::Value;

use crate::mcp::asks::Choices;
use crate::sanitize;
use crate::ui::keymap::Command;
use crate::ui::line_input::{Edit, LineInput};
use crate::ui::theme::{Role, Theme};

/// How many matching choices are read at a time.
const BATCH: usize = 200;

pub struct ChoicePicker {
    pub prop: usize,
    name: String,
    choices: Choices,
    /// Several may be picked (an array of choices): which are.
    multi: Option<BTreeSet<usize>>,
    filter: LineInput,
    /// The matching choices read so far, in order.
    shown: Vec<usize>,
    cursor: usize,
    scroll: usize,
    /// Choices on screen, from the last layout.
    pub rows: usize,
}

/// What a key did in the picker.
pub enum Picked {
    /// Still picking.
    Open,
    /// Closed without a change.
    Closed,
    /// Closed with this value.
    Value(Value),
}

impl ChoicePicker {
    /// A picker for property `prop`; `current` is its value now (a multi-select's picks).
    pub fn new(prop: usize, name: &str, choices: Choices, multi: bool, current: Option<&Value>) -> ChoicePicker {
        let multi = multi.then(|| {
            let values = current.and_then(Value::as_array).into_iter().flatten();
            values.filter_map(|v| choices.position(v)).collect()
        });
        let mut p = ChoicePicker {
            prop,
            name: name.to_string(),
            choices,
            multi,
            filter: LineInput::default(),
            shown: vec![],
            cursor: 0,
            scroll: 0,
            rows: 10,
        };
        p.refilter();
        p
    }

    fn refilter(&mut self) {
        self.shown = self.choices.matching(self.filter.text(), 0, BATCH);
        (self.cursor, self.scroll) = (0, 0);
    }

    /// Moves by `by` rows, reading more matches when the cursor passes the last read.
    fn step(&mut self, by: isize) {
        let want = self.cursor.saturating_add_signed(by);
        while want >= self.shown.len() {
            let from = self.shown.last().map_or(0, |&i| i + 1);
            let more = self.choices.matching(self.filter.text(), from, BATCH);
            if more.is_empty() {
                break;
            }
            self.shown.extend(more);
        }
        self.cursor = want.min(self.shown.len().saturating_sub(1));
        self.scroll = self.scroll.min(self.cursor).max((self.cursor + 1).saturating_sub(self.rows));
    }

    pub fn key(&mut self, k: &KeyEvent) -> Picked {
        match k.code {
            KeyCode::Esc => return self.done(),
            KeyCode::Enter if self.multi.is_some() => return self.done(),
            KeyCode::Enter => {
                return self.shown.get(self.cursor).map_or(Picked::Closed, |&i| Picked::Value(self.choices.value(i)));
            }
            KeyCode::Char(' ') if self.multi.is_some() && k.modifiers == KeyModifiers::NONE => self.toggle(),
            _ if let Some(by) = self.movement(k) => self.step(by),
            _ => {
                if self.filter.key(k) == Edit::Changed {
                    self.refilter();
                }
            }
        }
        Picked::Open
    }

    /// How far a key that is not text moves the cursor: the list keys every list takes (a row,
    /// a page, the top, the bottom), by the keymap. Letters filter here, so only named keys and
    /// Ctrl keys move.
    fn movement(&self, k: &KeyEvent) -> Option<isize> {
        if crate::ui::input::is_text(k) {
            return None;
        }
        let page = crate::ui::scroll::page(self.rows) as isize;
        Some(match crate::ui::keymap::lookup(k, crate::ui::keymap::Scope::Any)? {
            Command::Up => -1,
            Command::Down => 1,
            Command::PageUp => -page,
            Command::PageDown => page,
            Command::Top => -(self.cursor as isize),
            // Every match read: the last one is the bottom.
            Command::Bottom => isize::MAX,
            _ => return None,
        })
    }

    fn toggle(&mut self) {
        if let (Some(set), Some(&i)) = (&mut self.multi, self.shown.get(self.cursor))
            && !set.remove(&i)
        {
            set.insert(i);
        }
    }

    /// Esc, or Enter on a multi-select: its picks are the value; a single choice is unchanged.
    fn done(&self) -> Picked {
        match &self.multi {
            Some(set) => Picked::Value(Value::Array(set.iter().map(|&i| self.choices.value(i)).collect())),
            None => Picked::Closed,
        }
    }

    pub fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme) {
        let rows = (area.height as usize).saturating_sub(2).max(1);
        let name = crate::ui::keymap::key_name;
        let (space, enter, esc) = (name(KeyCode::Char(' ')), name(KeyCode::Enter), name(KeyCode::Esc));
        let keys = if self.multi.is_some() {
            format!("{space} picks, {enter} or {esc} ends")
        } else {
            format!("{enter} picks, {esc} leaves")
        };
        let mut lines = vec![
            Line::from(vec![
                Span::styled(format!("{}: ", cut(&self.name)), theme.paint(Role::JsonKey)),
                Span::styled(
                    format!("{} choices · type to filter · {keys}", self.choices.len()),
                    theme.paint(Role::Dim),
                ),
            ]),
            Line::from(vec![Span::styled("filter ", theme.paint(Role::Dim)), Span::raw(self.filter.view(60, true))]),
        ];
        for (row, &i) in self.shown.iter().enumerate().skip(self.scroll).take(rows) {
            let mark = match &self.multi {
                Some(set) if set.contains(&i) => "[x] ",
                Some(_) => "[ ] ",
                None => "",
            };
            let text = format!("{mark}{}", cut(&self.choices.label(i)));
            let style = if row == self.cursor { theme.selection() } else { theme.paint(Role::Text) };
            lines.push(Line::styled(text, style));
        }
        if self.shown.is_empty() {
            lines.push(Line::styled("no choice matches", theme.paint(Role::Dim)));
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}

/// The longest value or hint drawn on a row of the ask's form or picker, in characters.
const SHOWN_CHARS: usize = 200;

/// At most [`SHOWN_CHARS`] characters, on one line.
pub(super) fn cut(s: &str) -> String {
    let line = sanitize::line(s);
    match line.char_indices().nth(SHOWN_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn picker(n: usize) -> ChoicePicker {
        let values: Vec<String> = (0..n).map(|i| format!("\"v{i}\"")).collect();
        let raw = Arc::new(format!(r#"{{"type":"object","properties":{{"c":{{"enum":[{}]}}}}}}"#, values.join(",")));
        let schema = crate::mcp::asks::AskSchema::read(&raw, &raw);
        let choices = schema.info(0).choices.unwrap_or_else(|| panic!("no choices"));
        ChoicePicker::new(0, "c", choices, false, None)
    }

    fn press(p: &mut ChoicePicker, code: KeyCode, mods: KeyModifiers) -> Option<Value> {
        match p.key(&KeyEvent::new(code, mods)) {
            Picked::Value(v) => Some(v),
            _ => None,
        }
    }

    #[test]
    fn the_list_keys_reach_the_bottom_past_the_choices_read_so_far() {
        let mut p = picker(3000);
        press(&mut p, KeyCode::End, KeyModifiers::NONE);
        assert_eq!(press(&mut p, KeyCode::Enter, KeyModifiers::NONE), Some(Value::from("v2999")));
        press(&mut p, KeyCode::Home, KeyModifiers::NONE);
        press(&mut p, KeyCode::Char('f'), KeyModifiers::CONTROL);
        press(&mut p, KeyCode::PageDown, KeyModifiers::NONE);
        press(&mut p, KeyCode::Char('b'), KeyModifiers::CONTROL);
        // A page is the rows shown less one.
        assert_eq!(press(&mut p, KeyCode::Enter, KeyModifiers::NONE), Some(Value::from("v9")));
        // Letters filter here: G is typed, not the bottom.
        press(&mut p, KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(p.filter.text(), "G");
    }
}
