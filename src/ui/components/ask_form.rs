//! An elicitation form over a big requested schema (over [`SMALL_SCHEMA`] bytes): a window of
//! rows over the schema's properties, each read from the text when it is drawn; values kept
//! only for the fields the user set; choices picked in [`ChoicePicker`]. Its memory is a small
//! multiple of the schema's bytes, where the full form's (a widget per field and per choice,
//! validation as you type) reached 75 times them. The answer is checked on Ctrl-R.
//!
//! [`SMALL_SCHEMA`]: crate::mcp::ask_schema::SMALL_SCHEMA

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use serde_json::{Map, Value};

use super::ask_pick::{ChoicePicker, Picked, cut};
use crate::mcp::asks::{AskSchema, PropInfo};
use crate::mcp::exact_numbers;
use crate::sanitize;
use crate::ui::form::FormOutcome;
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::line_input::LineInput;
use crate::ui::theme::{Role, Theme};

pub struct AskForm {
    schema: AskSchema,
    /// The values the user set, by property.
    set: BTreeMap<usize, Value>,
    /// The focused field's text being typed (text, number and JSON fields).
    typing: Option<(usize, LineInput)>,
    focus: usize,
    scroll: usize,
    /// Rows on screen, from the last layout.
    rows: usize,
    picker: Option<ChoicePicker>,
    /// Send even what breaks the schema (Ctrl-V, as in the full form).
    pub no_validate: bool,
    /// What the last Ctrl-R found wrong, or a word on the last key.
    pub notes: Vec<String>,
    /// The facts of the fields read lately (those on screen), so a frame reads each once.
    infos: RefCell<HashMap<usize, Rc<PropInfo>>>,
}

/// The most fields whose facts are kept read.
const KEPT_INFOS: usize = 256;

impl AskForm {
    pub fn new(schema: AskSchema) -> AskForm {
        AskForm {
            schema,
            set: BTreeMap::new(),
            typing: None,
            focus: 0,
            scroll: 0,
            rows: 10,
            picker: None,
            no_validate: false,
            notes: vec![],
            infos: RefCell::default(),
        }
    }

    /// Field `i`'s facts, read once while it stays in view.
    fn info(&self, i: usize) -> Rc<PropInfo> {
        let mut infos = self.infos.borrow_mut();
        if let Some(info) = infos.get(&i) {
            return info.clone();
        }
        if infos.len() >= KEPT_INFOS {
            infos.clear();
        }
        let info = Rc::new(self.schema.info(i));
        infos.insert(i, info.clone());
        info
    }

    /// The rows the body has: a heading, the fields, and up to three notes.
    pub fn set_rows(&mut self, height: usize) {
        self.rows = height.saturating_sub(4).max(1);
        if let Some(p) = &mut self.picker {
            p.rows = height.saturating_sub(5).max(1);
        }
    }

    fn len(&self) -> usize {
        self.schema.props().len()
    }

    /// The content to send: the schema's defaults with what the user set over them; the
    /// fields whose text is no value of their type, by name.
    pub fn content(&mut self) -> Result<Map<String, Value>, String> {
        self.commit()?;
        let mut content = self.schema.defaults();
        for (&i, v) in &self.set {
            if let Some(p) = self.schema.props().get(i) {
                content.insert(p.name.clone(), v.clone());
            }
        }
        Ok(content)
    }

    /// What is wrong with `content` (nothing when validation is off).
    pub fn problems(&self, content: &Map<String, Value>) -> Vec<String> {
        if self.no_validate {
            return vec![];
        }
        match self.schema.problems(content) {
            Ok(v) => v.iter().map(ToString::to_string).collect(),
            Err(e) => vec![e],
        }
    }

    /// The typed text made the field's value (an empty text unsets it).
    fn commit(&mut self) -> Result<(), String> {
        let Some((i, input)) = self.typing.take() else { return Ok(()) };
        let text = input.text().to_string();
        if text.is_empty() {
            self.set.remove(&i);
            return Ok(());
        }
        match typed(&self.info(i), &text) {
            Ok(v) => {
                self.set.insert(i, v);
                Ok(())
            }
            Err(e) => {
                let name = self.schema.props().get(i).map_or("?", |p| p.name.as_str());
                let why = format!("{name}: {e}");
                self.typing = Some((i, input));
                Err(why)
            }
        }
    }

    pub fn key(&mut self, k: &KeyEvent) -> FormOutcome {
        if let Some(picker) = &mut self.picker {
            match picker.key(k) {
                Picked::Open => {}
                Picked::Closed => self.picker = None,
                Picked::Value(v) => {
                    self.set.insert(picker.prop, v);
                    self.picker = None;
                }
            }
            return FormOutcome::Handled;
        }
        if let Some(outcome) = self.moved(k) {
            return outcome;
        }
        match keymap::lookup_own(k, Scope::Form) {
            Some(cmd) => self.command(cmd),
            None => self.type_key(k),
        }
    }

    /// Plain letters are the form's even where nothing takes them (a choice field): they must
    /// not reach the app's own keys (q quits).
    pub fn swallows(&self, k: &KeyEvent) -> bool {
        matches!(k.code, KeyCode::Char(_)) && !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    }

    /// Keys that move the focus by more than a row.
    fn moved(&mut self, k: &KeyEvent) -> Option<FormOutcome> {
        let page = self.rows.saturating_sub(1).max(1);
        let to = match k.code {
            KeyCode::PageDown => self.focus.saturating_add(page),
            KeyCode::PageUp => self.focus.saturating_sub(page),
            KeyCode::Home if k.modifiers.contains(KeyModifiers::CONTROL) => 0,
            KeyCode::End if k.modifiers.contains(KeyModifiers::CONTROL) => self.len(),
            _ => return None,
        };
        Some(self.go(to))
    }

    fn go(&mut self, to: usize) -> FormOutcome {
        if let Err(e) = self.commit() {
            self.notes = vec![e];
            return FormOutcome::Handled;
        }
        self.focus = to.min(self.len().saturating_sub(1));
        self.scroll = self.scroll.min(self.focus).max((self.focus + 1).saturating_sub(self.rows));
        FormOutcome::Handled
    }

    fn command(&mut self, cmd: Command) -> FormOutcome {
        self.notes.clear();
        match cmd {
            Command::Run => return FormOutcome::Run,
            Command::Leave => return FormOutcome::Leave,
            Command::NextField => return self.go(self.focus + 1),
            Command::PrevField => return self.go(self.focus.saturating_sub(1)),
            Command::Toggle | Command::Activate => self.activate(),
            Command::ClearField | Command::SetEmpty => {
                self.typing = None;
                self.set.remove(&self.focus);
            }
            Command::SetNull => {
                self.typing = None;
                self.set.insert(self.focus, Value::Null);
            }
            Command::ToggleValidate => {
                self.no_validate = !self.no_validate;
                let word =
                    if self.no_validate { "validation off: the answer is sent as it is" } else { "validation on" };
                self.notes = vec![word.into()];
            }
            _ => return FormOutcome::NotMine,
        }
        FormOutcome::Handled
    }

    /// Space or Enter: a boolean toggles, choices open their picker.
    fn activate(&mut self) {
        let i = self.focus;
        let info = self.info(i);
        let name = self.schema.props().get(i).map_or("", |p| p.name.as_str());
        if let Some(choices) = info.choices.clone() {
            self.typing = None;
            self.picker = Some(ChoicePicker::new(i, name, choices, info.multi, self.set.get(&i)));
        } else if info.types.iter().any(|t| t == "boolean") {
            let now = self.set.get(&i).or(info.default.as_ref()).and_then(Value::as_bool).unwrap_or(false);
            self.set.insert(i, Value::Bool(!now));
        } else if let Some(t) = &mut self.typing {
            t.1.insert(' ');
        } else {
            self.type_key(&KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE));
        }
    }

    /// A key typed into the focused field, its text started from the value it has.
    fn type_key(&mut self, k: &KeyEvent) -> FormOutcome {
        if self.typing.as_ref().is_none_or(|(i, _)| *i != self.focus) {
            if !matches!(k.code, KeyCode::Char(_) | KeyCode::Backspace) || self.info(self.focus).choices.is_some() {
                return FormOutcome::NotMine;
            }
            let mut input = LineInput::new(0);
            if let Some(v) = self.set.get(&self.focus) {
                input.set(&plain(v));
            }
            self.typing = Some((self.focus, input));
        }
        let edit = self.typing.as_mut().map(|(_, input)| input.key(k));
        if edit.is_some_and(|e| e != crate::ui::line_input::Edit::NotMine) {
            return FormOutcome::Handled;
        }
        FormOutcome::NotMine
    }

    pub fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme) {
        let notes = self.notes.len().min(3) as u16;
        let rows = Rect { height: area.height.saturating_sub(1 + notes), y: area.y + 1, ..area };
        let foot = Rect { y: rows.y + rows.height, height: notes, ..area };
        let head = Rect { height: 1, ..area };
        if let Some(picker) = &self.picker {
            picker.draw(f, Rect { height: area.height.saturating_sub(notes), ..area }, theme);
        } else {
            f.render_widget(Paragraph::new(self.heading(theme)), head);
            let lines: Vec<Line> =
                (self.scroll..self.len()).take(rows.height as usize).map(|i| self.row(i, theme)).collect();
            f.render_widget(Paragraph::new(lines), rows);
        }
        let notes: Vec<Line> = self
            .notes
            .iter()
            .take(3)
            .map(|n| Line::styled(format!("✖ {}", cut(n)), theme.paint(Role::Error)))
            .collect();
        f.render_widget(Paragraph::new(notes), foot);
    }

    fn heading(&self, theme: &Theme) -> Line<'static> {
        let required = self.schema.props().iter().filter(|p| p.required).count();
        let name = crate::ui::keymap::key_name;
        let ctrl_home = crate::ui::keymap::Key::new(KeyCode::Home, KeyModifiers::CONTROL).label();
        let text = format!(
            "{} fields ({required} required, {} set) · field {} of {} · {}/{}, {ctrl_home}/{} move by pages",
            self.len(),
            self.set.len(),
            self.focus + 1,
            self.len(),
            name(KeyCode::PageUp),
            name(KeyCode::PageDown),
            name(KeyCode::End),
        );
        Line::styled(text, theme.paint(Role::Dim))
    }

    fn row(&self, i: usize, theme: &Theme) -> Line<'static> {
        let Some(p) = self.schema.props().get(i) else { return Line::raw("") };
        let info = self.info(i);
        let focused = i == self.focus;
        let name_style = if focused { theme.selection() } else { theme.paint(Role::JsonKey) };
        let mut spans = vec![Span::styled(sanitize::line(&p.name).into_owned(), name_style)];
        if p.required {
            spans.push(Span::styled("*", theme.paint(Role::Required)));
        }
        spans.push(Span::raw(": "));
        match (&self.typing, self.set.get(&i)) {
            (Some((at, input)), _) if *at == i => spans.push(Span::raw(input.view(80, focused))),
            (_, Some(v)) => spans.push(Span::styled(cut(&plain(v)), theme.paint(Role::JsonString))),
            _ => {}
        }
        spans.push(Span::styled(
            format!("  ({})", cut(&hint(&info, self.set.contains_key(&i)))),
            theme.paint(Role::Dim),
        ));
        Line::from(spans)
    }
}

/// A field's type, choices and default, for its row.
fn hint(info: &PropInfo, set: bool) -> String {
    let mut parts = vec![];
    match &info.choices {
        Some(c) => parts.push(format!("one of {}: {} picks", c.len(), crate::ui::keymap::key_name(KeyCode::Char(' ')))),
        None if info.types.is_empty() => parts.push("any JSON".into()),
        None => parts.push(info.types.join(" or ")),
    }
    match &info.default {
        Some(d) if !set => parts.push(format!("default {}", plain(d))),
        None if !set => parts.push("omitted".into()),
        _ => {}
    }
    if let Some(d) = info.description.as_ref().or(info.title.as_ref()) {
        parts.push(d.clone());
    }
    parts.join("; ")
}

/// The value the text typed into a field of this type stands for.
fn typed(info: &PropInfo, text: &str) -> Result<Value, String> {
    let is = |t: &str| info.types.iter().any(|x| x == t);
    if is("string") {
        return Ok(Value::String(text.to_string()));
    }
    if is("integer")
        && let Ok(n) = text.trim().parse::<i64>()
    {
        return Ok(Value::from(n));
    }
    // A number no `Value` holds as typed (beyond 64 bits) is sent as typed.
    if let Some(v) = exact_numbers::number(text.trim()).filter(|v| exact_numbers::literal(v).is_some()) {
        let integer = exact_numbers::literal(&v).is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit() || b == b'-'));
        if is("number") || (is("integer") && integer) {
            return Ok(v);
        }
    }
    if is("number")
        && let Some(n) = text.trim().parse::<f64>().ok().and_then(serde_json::Number::from_f64)
    {
        return Ok(Value::Number(n));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) => Ok(v),
        Err(_) if info.types.is_empty() => Ok(Value::String(text.to_string())),
        Err(_) => Err(format!("{text:?} is not a value of type {}", info.types.join(" or "))),
    }
}

/// A value for a person: a number kept whole as its digits (see [`exact_numbers::shown`]).
fn plain(v: &Value) -> String {
    exact_numbers::shown(v)
}
