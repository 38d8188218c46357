//! The form of one tool in the TUI: fields as rows, editing keys, pickers, the raw JSON mode kept
//! in sync both ways, and validation as you type with each error at its field.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

pub use super::form_picker::Picker;
use super::form_picker::PickerKey;
use super::keymap::Command;
use super::line_input::{Edit, LineInput};
use super::textarea::TextArea;
use crate::schema::form::{self, Field, Form, Kind, State, field_at, field_at_mut, parse_error};

/// What the form says when the user declines to run a destructive tool.
const NOT_RUN: &str = "not run";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Field,
    /// "+ add item" under an array.
    AddItem,
    /// "+ add key" under an object with additionalProperties; the row edits the new key.
    AddKey,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub path: Vec<usize>,
    pub depth: usize,
    pub kind: RowKind,
}

/// What a row can be given: typed text and the few keys rows use. The keymap's activate and
/// toggle commands arrive as `Enter` and a space, so a user who rebinds them gets the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    Char(char),
    Backspace,
    Enter,
    End,
    Right,
}

/// The key the form binds to `cmd`, for the messages it writes.
fn key(cmd: Command) -> String {
    super::keymap::key(super::keymap::Scope::Form, cmd)
}

/// The JSON mode's text as a value: a number beyond what a float holds as typed
/// (`123456789012345678901234567890`) goes out with the digits typed.
fn read_json(text: &str) -> Result<Value, String> {
    crate::mcp::exact_numbers::read(text, crate::json_depth::DEFAULT_MAX_DEPTH)
}

/// Arguments as the JSON mode's text: pretty, each number kept as typed.
fn json_text(args: &Value) -> String {
    let text = serde_json::to_string_pretty(&crate::deep::Deep(args)).unwrap_or_else(|_| "{}".into());
    crate::mcp::wire::with_exact_literals(&text).into_owned()
}

/// ` (name)` for a message naming a member; nothing when there is no name.
fn at_label(at: &str) -> String {
    if at.is_empty() { String::new() } else { format!(" ({at})") }
}

/// What a key did, for the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormOutcome {
    Handled,
    NotMine,
    Leave,
    Run,
}

pub struct FormState {
    pub tool: String,
    pub destructive: bool,
    pub form: Form,
    pub rows: Vec<Row>,
    pub focus: usize,
    pub scroll: usize,
    pub picker: Option<Picker>,
    pub raw: Option<TextArea>,
    /// The arguments the JSON mode opened with: the JSON still reads as them, the fields come
    /// back as they were.
    raw_from: Option<Value>,
    pub new_key: LineInput,
    /// The focused text field's editor (row, text and cursor): a cursor that moves inside the
    /// value. Made again from the field's text when the focus or the text changed elsewhere.
    line: Option<(usize, LineInput)>,
    /// Validation errors as (JSON pointer, message).
    pub errors: Vec<(String, String)>,
    pub schema_problem: Option<String>,
    pub no_validate: bool,
    pub message: Option<String>,
    /// What the focused row said of a key it does not take ("Enter adds an item"): about that
    /// row only, so gone when the focus moves.
    pub hint: Option<String>,
    /// Why the arguments were not sent (they do not parse, or break the schema): gone once
    /// they are valid, so it never stands beside "arguments valid".
    pub check: Option<String>,
    /// A destructive tool asked for confirmation; `y` runs it.
    pub confirm: bool,
    /// The row last typed into. Any other focused text field shows its value selected: a
    /// prefilled value is replaced by what is typed, not appended to.
    typed_at: Option<usize>,
    /// The focus came back from the result (Esc): no field takes text until one is chosen, so
    /// a letter meant for the pane left is not typed into a value.
    parked: bool,
    validator: Option<jsonschema::Validator>,
    /// The arguments were changed since the form was opened or last sent: quitting asks first.
    pub edited: bool,
    /// The server no longer lists the tool (a list_changed): the form says so and is not run.
    pub unlisted: bool,
}

fn flatten(f: &Field, path: &mut Vec<usize>, depth: usize, out: &mut Vec<Row>) {
    for (i, c) in f.children.iter().enumerate() {
        path.push(i);
        out.push(Row { path: path.clone(), depth, kind: RowKind::Field });
        if c.is_container() && c.state != State::Null && c.state != State::Empty {
            flatten(c, path, depth + 1, out);
        }
        path.pop();
    }
    match f.kind {
        Kind::Array => out.push(Row { path: path.clone(), depth, kind: RowKind::AddItem }),
        Kind::Object if f.additional.is_some() => out.push(Row { path: path.clone(), depth, kind: RowKind::AddKey }),
        _ => {}
    }
}

fn label(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl FormState {
    pub fn new(tool: &crate::mcp::ToolDescriptor, previous: Option<&Value>) -> Self {
        let schema = tool.input_schema().cloned().unwrap_or_else(|| serde_json::json!({"type": "object"}));
        let mut s = FormState::for_schema(tool.name(), &schema, previous);
        s.destructive = tool.destructive();
        s
    }

    /// A form for any object schema (a tool's input, a server's elicitation); `name` is what
    /// the form fills in.
    pub fn for_schema(name: &str, schema: &Value, previous: Option<&Value>) -> Self {
        let mut form = Form::new(schema);
        let (mut message, mut raw) = (None, None);
        if let Some(prev) = previous
            && let Some(at) = FormState::misfit(&mut form, prev)
        {
            // The fields would send something else: the arguments stay as they were, in JSON.
            message = Some(format!("the last arguments do not all fit the fields{}: shown as JSON", at_label(&at)));
            raw = Some(TextArea::new(&json_text(prev)));
        }
        let (validator, schema_problem) = match crate::schema::validate::validator(schema) {
            Ok(v) => (Some(v), None),
            Err(e) => (None, Some(format!("not validated: {e}"))),
        };
        let mut s = FormState {
            tool: name.to_string(),
            destructive: false,
            form,
            rows: vec![],
            focus: 0,
            scroll: 0,
            picker: None,
            raw,
            raw_from: None,
            new_key: LineInput::default(),
            line: None,
            errors: vec![],
            schema_problem,
            no_validate: false,
            message,
            hint: None,
            check: None,
            confirm: false,
            typed_at: None,
            parked: false,
            validator,
            edited: false,
            unlisted: false,
        };
        s.rebuild();
        s
    }

    fn rebuild(&mut self) {
        let mut rows = vec![];
        if matches!(self.form.root.kind, Kind::Variant(_)) {
            // A oneOf at the root: its picker is the first row.
            rows.push(Row { path: vec![], depth: 0, kind: RowKind::Field });
            flatten(&self.form.root, &mut vec![], 1, &mut rows);
        } else {
            flatten(&self.form.root, &mut vec![], 0, &mut rows);
        }
        self.rows = rows;
        self.focus = self.focus.min(self.rows.len().saturating_sub(1));
        self.validate();
    }

    /// The arguments to send: the raw JSON text in JSON mode (each number kept as typed, see
    /// `mcp::exact_numbers`), else what the fields build.
    pub fn arguments(&self) -> Result<Value, String> {
        match &self.raw {
            Some(t) => match read_json(&t.text()) {
                Ok(v @ Value::Object(_)) => Ok(v),
                Ok(_) => Err("the arguments must be a JSON object".into()),
                Err(e) => Err(format!("not valid JSON: {e}")),
            },
            None => Ok(self.form.arguments()),
        }
    }

    pub fn validate(&mut self) {
        self.errors.clear();
        let args = match self.arguments() {
            Ok(a) => a,
            Err(e) => {
                self.errors.push((String::new(), e));
                return;
            }
        };
        self.validate_args(&args);
        if self.errors.is_empty() {
            self.check = None;
        }
    }

    fn validate_args(&mut self, args: &Value) {
        if let Some(v) = &self.validator {
            for e in crate::schema::validate::violations(v, args, 100) {
                self.errors.push((e.path, e.message));
            }
        }
        if self.raw.is_none() {
            for r in &self.rows {
                if let Some(f) = field_at(&self.form.root, &r.path)
                    && let Some(p) = parse_error(f)
                {
                    self.errors.push((form::pointer(&self.form.root, &r.path), p));
                }
            }
        }
    }

    pub fn focused(&self) -> Option<&Row> {
        self.rows.get(self.focus)
    }

    pub fn focused_field(&self) -> Option<&Field> {
        self.focused().filter(|r| r.kind == RowKind::Field).and_then(|r| field_at(&self.form.root, &r.path))
    }

    /// Errors that belong to the field at `path`.
    pub fn errors_at(&self, path: &[usize]) -> Vec<&str> {
        let p = form::pointer(&self.form.root, path);
        self.errors.iter().filter(|(at, _)| *at == p && !p.is_empty()).map(|(_, m)| m.as_str()).collect()
    }

    /// Errors not shown at any row (root-level, or at fields not on screen).
    pub fn loose_errors(&self) -> Vec<&str> {
        let shown: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.kind == RowKind::Field)
            .map(|r| form::pointer(&self.form.root, &r.path))
            .collect();
        self.errors.iter().filter(|(at, _)| at.is_empty() || !shown.contains(at)).map(|(_, m)| m.as_str()).collect()
    }

    fn edit(&mut self, f: impl FnOnce(&mut Field)) {
        let Some(path) = self.focused().filter(|r| r.kind == RowKind::Field).map(|r| r.path.clone()) else { return };
        if let Some(field) = field_at_mut(&mut self.form.root, &path) {
            f(field);
            self.edited = true;
        }
        self.validate();
    }

    /// Null, an empty value or nothing for the focused field; on a "+ add item" or "+ add key"
    /// row, for the list or object the row adds to (an emptied list there is that list), the
    /// arguments themselves left alone.
    fn set_value(&mut self, f: impl FnOnce(&mut Field)) {
        let row = self.focused().filter(|r| r.kind == RowKind::Field || !r.path.is_empty());
        let Some(path) = row.map(|r| r.path.clone()) else { return };
        if let Some(field) = field_at_mut(&mut self.form.root, &path) {
            f(field);
            self.edited = true;
        }
        self.rebuild();
    }

    fn structural(&mut self, path: &[usize], f: impl FnOnce(&mut Field, &mut form::Builder)) {
        self.form.with_builder(f, path);
        self.edited = true;
        self.rebuild();
    }

    fn open_picker(&mut self) {
        let Some(f) = self.focused_field() else { return };
        self.picker = match &f.kind {
            Kind::Enum(_) => {
                let mut options = form::option_labels(f);
                options.insert(0, "(none: omit)".into());
                Some(Picker::new(options, f.choice.map_or(0, |c| c + 1), None))
            }
            Kind::MultiEnum(_) => Some(Picker::new(form::option_labels(f), 0, Some(f.chosen.clone()))),
            Kind::Variant(labels) => {
                let mut options = labels.clone();
                options.insert(0, "(none: omit)".into());
                Some(Picker::new(options, f.choice.map_or(0, |c| c + 1), None))
            }
            _ => None,
        };
    }

    fn pick(&mut self) {
        let Some(p) = self.picker.take() else { return };
        let Some(path) = self.focused().map(|r| r.path.clone()) else { return };
        let kind = self.focused_field().map(|f| f.kind.clone());
        // Nothing under the cursor (a filter that leaves no option): nothing picked.
        let chosen = p.chosen();
        match (kind, p.multi) {
            (Some(Kind::MultiEnum(_)), Some(on)) => self.edit(|f| {
                f.chosen = on;
                f.state = State::Set;
            }),
            (Some(Kind::Enum(_)), _) if chosen.is_some() => self.edit(|f| {
                f.choice = chosen.and_then(|c| c.checked_sub(1));
                f.state = if f.choice.is_some() { State::Set } else { State::Unset };
            }),
            (Some(Kind::Variant(_)), _) => match chosen {
                Some(0) => self.structural(&path, |f, _| {
                    f.choice = None;
                    f.children.clear();
                    f.state = State::Unset;
                }),
                Some(i) => self.structural(&path, |f, b| b.choose(f, i - 1)),
                None => {}
            },
            _ => {}
        }
    }

    fn picker_key(&mut self, k: &KeyEvent) -> FormOutcome {
        let Some(p) = &mut self.picker else { return FormOutcome::NotMine };
        match p.key(k) {
            PickerKey::Open => {}
            PickerKey::Cancel => self.picker = None,
            PickerKey::Pick => self.pick(),
        }
        FormOutcome::Handled
    }

    /// Whether the focused field's value is shown selected: set, and not typed into since the
    /// focus came to it, so typing replaces it.
    pub fn selected_value(&self) -> bool {
        !self.parked
            && self.typed_at != Some(self.focus)
            && self.focused_field().is_some_and(|f| f.is_text() && f.state == State::Set && !f.text.is_empty())
    }

    /// Puts `text` in the focused text field (a suggestion taken), as if typed: more typing
    /// goes after it.
    pub fn set_focused_text(&mut self, text: &str) {
        if !self.focused_field().is_some_and(Field::is_text) {
            return;
        }
        self.typed_at = Some(self.focus);
        self.edit(|f| {
            f.text = text.to_string();
            f.state = if text.is_empty() { State::Unset } else { State::Set };
        });
    }

    /// The form is shown again (reopened, or the focus came back to it): the focused value is
    /// selected again, so what is typed replaces it.
    pub fn reselect(&mut self) {
        self.typed_at = None;
    }

    /// The focus comes back from the result (Esc): the form as it was, no field in edit mode
    /// until one is chosen (Enter, or a key that moves).
    pub fn park(&mut self) {
        self.reselect();
        self.hint = None;
        self.parked = true;
    }

    /// Whether no field takes text: the focus came back from the result and none is chosen yet.
    pub fn parked(&self) -> bool {
        self.parked
    }

    /// A key while parked: typed text waits (the row says how to start), Enter starts editing
    /// the focused field, any other key ends the parking and does what it does. None: not parked
    /// any more, the key goes on.
    pub(crate) fn parked_key(&mut self, k: &KeyEvent) -> Option<FormOutcome> {
        if !self.parked {
            return None;
        }
        let plain = !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if plain && matches!(k.code, KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete) {
            self.hint = Some(format!("{} to type in this field", key(Command::Activate)));
            return Some(FormOutcome::Handled);
        }
        self.parked = false;
        self.hint = None;
        let activate = super::keymap::lookup_own(k, super::keymap::Scope::Form) == Some(Command::Activate);
        activate.then_some(FormOutcome::Handled)
    }

    /// The focus comes to the form from the pane before it (`forward`: onto the first row) or
    /// after it (onto the last); the value there is selected, so typing replaces it.
    pub fn enter(&mut self, forward: bool) {
        self.focus = if forward { 0 } else { self.rows.len().saturating_sub(1) };
        self.hint = None;
        self.parked = false;
        self.reselect();
    }

    /// Moves the focus one row; `false` at the edge (the pane keys then leave the form).
    fn step(&mut self, by: isize) -> bool {
        let to = self.focus as isize + by;
        if to < 0 || to >= self.rows.len() as isize {
            return false;
        }
        self.move_focus(by);
        true
    }

    fn move_focus(&mut self, by: isize) {
        let n = self.rows.len() as isize;
        if n > 0 {
            self.focus = (self.focus as isize + by).clamp(0, n - 1) as usize;
            self.typed_at = None;
            self.hint = None;
        }
    }

    /// Switches between the fields and the JSON mode. Neither way drops what the user entered:
    /// what one side cannot show keeps the user where they are, with the field named.
    fn toggle_raw(&mut self) {
        match self.raw.take() {
            None => self.open_json(),
            Some(t) => self.close_json(t),
        }
        self.validate();
    }

    /// The fields as JSON; refused, with the focus on it, while a field holds text that is no
    /// value of its kind (`5x` in an integer): the JSON could only drop it.
    fn open_json(&mut self) {
        let unshown = self.rows.iter().enumerate().find_map(|(i, r)| {
            let f = field_at(&self.form.root, &r.path).filter(|_| r.kind == RowKind::Field)?;
            Some((i, form::label(&self.form.root, &r.path), form::json_mode_error(f)?))
        });
        if let Some((i, label, why)) = unshown {
            let (clear, json) = (key(Command::ClearField), key(Command::ToggleJson));
            self.message = Some(format!("{label}: {why}; fix it or clear it ({clear}) before {json}"));
            self.focus = i;
            self.typed_at = None;
            self.hint = None;
            return;
        }
        let args = self.form.json_arguments();
        self.raw = Some(TextArea::new(&json_text(&args)));
        self.raw_from = Some(args);
        self.message = None;
    }

    /// Back to the fields: as they were when the JSON is still what they showed (nothing typed in
    /// them is lost, nor an item added and still empty), else built from the JSON, which they
    /// must then hold whole.
    fn close_json(&mut self, t: TextArea) {
        match read_json(&t.text()) {
            Ok(v) if self.raw_from.as_ref().is_some_and(|from| crate::deep::equal(from, &v)) => {
                self.raw_from = None;
                self.message = None;
                self.rebuild();
            }
            Ok(v @ Value::Object(_)) => {
                let mut fresh = Form::new(&self.form.schema);
                match FormState::misfit(&mut fresh, &v) {
                    None => {
                        self.form = fresh;
                        self.raw_from = None;
                        self.message = None;
                        self.rebuild();
                    }
                    Some(at) => {
                        let at = at_label(&at);
                        self.message =
                            Some(format!("these arguments cannot all be shown as fields{at}; staying in JSON mode"));
                        self.raw = Some(t);
                    }
                }
            }
            Ok(_) => {
                self.message = Some("the arguments must be a JSON object".into());
                self.raw = Some(t);
            }
            Err(e) => {
                let json = key(Command::ToggleJson);
                self.message = Some(format!("not valid JSON ({e}); fix it or {json} again after fixing"));
                self.raw = Some(t);
            }
        }
    }

    /// Loads `args` into `form`; where the fields would not send them as they are, the first
    /// member they miss (`Some("")`: somewhere not named). A number beyond 64 bits, which the
    /// fields show but do not send, is one.
    fn misfit(form: &mut Form, args: &Value) -> Option<String> {
        let loaded = form.load(args);
        form::first_difference(args, &form.arguments()).or_else(|| (!loaded).then(String::new))
    }

    /// Removes or moves the array item / extra row under focus.
    fn item_op(&mut self, op: i32) {
        let Some(path) = self.focused().filter(|r| r.kind == RowKind::Field).map(|r| r.path.clone()) else { return };
        let Some((&last, parent)) = path.split_last() else { return };
        let Some(p) = field_at(&self.form.root, parent) else { return };
        let is_item = p.kind == Kind::Array || p.children.get(last).is_some_and(|c| c.extra);
        if !is_item {
            self.message = Some("only array items and added keys can be removed or moved".into());
            return;
        }
        self.structural(parent, |p, _| {
            match op {
                0 => {
                    p.children.remove(last);
                }
                -1 if last > 0 => p.children.swap(last, last - 1),
                1 if last + 1 < p.children.len() => p.children.swap(last, last + 1),
                _ => {}
            }
            for (i, c) in p.children.iter_mut().enumerate() {
                if p.kind == Kind::Array {
                    c.key = format!("[{i}]");
                }
            }
        });
        if op != 0 {
            self.move_focus(op as isize * self.subtree_rows(&path) as isize);
        }
    }

    fn subtree_rows(&self, path: &[usize]) -> usize {
        self.rows.iter().filter(|r| r.path.starts_with(path) && r.path.len() == path.len()).count().max(1)
    }

    /// True when keys should go to the form first: a confirmation, a picker, or typing.
    pub fn captures(&self) -> bool {
        self.confirm || self.picker.is_some()
    }

    /// Whether `k` is the form's whatever row has the focus: in a form every plain character is
    /// text (typed into the field, or into the first one under a header row), never a command.
    /// F1, Ctrl keys and the other named keys still reach theirs.
    pub fn swallows(&self, k: &crossterm::event::KeyEvent) -> bool {
        use crossterm::event::{KeyCode, KeyModifiers};
        matches!(k.code, KeyCode::Char(_)) && !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    }

    /// A command from the keymap's form bindings.
    pub fn form_command(&mut self, cmd: Command) -> FormOutcome {
        self.parked = false;
        let in_raw = self.raw.is_some();
        match cmd {
            Command::Run => return self.run_request(),
            Command::ToggleJson => self.toggle_raw(),
            Command::ToggleValidate => {
                self.no_validate = !self.no_validate;
                // A run refused for validation errors answers validation that is off now.
                self.check = None;
                self.message = Some(
                    if self.no_validate { "validation off: arguments are sent as they are" } else { "validation on" }
                        .into(),
                );
            }
            Command::Leave => return FormOutcome::Leave,
            // In JSON mode the editor owns every other key.
            _ if in_raw => return FormOutcome::NotMine,
            Command::SetNull => self.set_value(|f| f.state = State::Null),
            Command::SetEmpty => self.set_value(|f| {
                f.state = State::Empty;
                f.text.clear();
            }),
            Command::ClearField => self.set_value(Field::omit),
            Command::RemoveItem => self.item_op(0),
            Command::MoveItemUp => self.item_op(-1),
            Command::MoveItemDown => self.item_op(1),
            Command::NextField if !self.step(1) => return FormOutcome::NotMine,
            Command::PrevField if !self.step(-1) => return FormOutcome::NotMine,
            Command::NextField | Command::PrevField => {}
            Command::Activate => return self.act(Input::Enter),
            Command::Toggle => return self.act(Input::Char(' ')),
            _ => return FormOutcome::NotMine,
        }
        FormOutcome::Handled
    }

    /// Typing, the JSON editor, pickers and confirmations. `NotMine` goes back to the app.
    pub fn edit_key(&mut self, k: &KeyEvent) -> FormOutcome {
        if self.confirm {
            self.confirm = false;
            return if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.message = None;
                FormOutcome::Run
            } else {
                self.message = Some(NOT_RUN.into());
                FormOutcome::Handled
            };
        }
        if self.picker.is_some() {
            return self.picker_key(k);
        }
        if let Some(t) = &mut self.raw {
            if t.key(k) {
                // A message about the text before this edit (a refused run) is stale now.
                self.message = None;
                self.edited = true;
                self.validate();
                return FormOutcome::Handled;
            }
            return FormOutcome::NotMine;
        }
        if let Some(done) = self.line_key(k) {
            return done;
        }
        if k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
            return FormOutcome::NotMine;
        }
        let input = match k.code {
            KeyCode::Char(c) => Input::Char(c),
            KeyCode::Backspace => Input::Backspace,
            KeyCode::Enter => Input::Enter,
            KeyCode::End => Input::End,
            KeyCode::Right => Input::Right,
            _ => return FormOutcome::NotMine,
        };
        self.act(input)
    }

    /// An editing key on a row that holds a text cursor (a text field, "+ add key"): the line
    /// editor takes it. None when the key is not an editing key (Enter, arrows up and down...).
    fn line_key(&mut self, k: &KeyEvent) -> Option<FormOutcome> {
        let row = self.focused()?.clone();
        if row.kind == RowKind::AddKey {
            return (self.new_key.key(k) != Edit::NotMine).then_some(FormOutcome::Handled);
        }
        if row.kind != RowKind::Field || !self.focused_field().is_some_and(Field::is_text) {
            return None;
        }
        let plain = !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let typed = plain && matches!(k.code, KeyCode::Char(_) | KeyCode::Backspace);
        // A value shown selected (or an explicit null/empty) is replaced by what is typed.
        let replace = typed && (self.selected_value() || self.focused_field().is_some_and(|f| f.state != State::Set));
        let mut line = self.editor();
        if replace {
            line.clear();
        }
        let edit = match line.key(k) {
            Edit::Moved if replace => Edit::Changed,
            e => e,
        };
        if edit == Edit::NotMine {
            return None;
        }
        self.keep_line(line, edit == Edit::Changed);
        Some(FormOutcome::Handled)
    }

    /// The focused text field's editor after an edit; its text becomes the field's value.
    fn keep_line(&mut self, line: LineInput, changed: bool) {
        self.typed_at = Some(self.focus);
        if changed {
            let text = line.text().to_string();
            self.edit(|f| {
                f.state = if text.is_empty() { State::Unset } else { State::Set };
                f.text = text;
            });
        }
        self.line = Some((self.focus, line));
    }

    /// Pasted text, whole, where the focus holds a text cursor: the JSON editor (line breaks
    /// kept), a text field or the new key's name (as one line). None when the focused row takes
    /// no text as it stands (a header row, a choice): the paste is then typed key by key.
    pub fn paste(&mut self, text: &str) -> Option<FormOutcome> {
        if self.confirm || self.picker.is_some() {
            return None;
        }
        // A paste is meant for where it goes.
        self.parked = false;
        if let Some(t) = &mut self.raw {
            t.paste(text);
            self.message = None;
            self.edited = true;
            self.validate();
            return Some(FormOutcome::Handled);
        }
        let row = self.focused()?.clone();
        if row.kind == RowKind::AddKey {
            self.new_key.paste(text);
            return Some(FormOutcome::Handled);
        }
        if row.kind != RowKind::Field || !self.focused_field().is_some_and(Field::is_text) {
            return None;
        }
        // As with a typed key, a value shown selected (or an explicit null/empty) is replaced.
        let replace = self.selected_value() || self.focused_field().is_some_and(|f| f.state != State::Set);
        let mut line = self.editor();
        if replace {
            line.clear();
        }
        let changed = line.paste(text) == Edit::Changed || replace;
        self.keep_line(line, changed);
        Some(FormOutcome::Handled)
    }

    /// The focused text field's editor: the one kept, if it still holds the field's text, else
    /// a new one with the cursor after the text.
    fn editor(&self) -> LineInput {
        let text = self.focused_field().filter(|f| f.state == State::Set).map_or("", |f| f.text.as_str());
        match &self.line {
            Some((at, line)) if *at == self.focus && line.text() == text => line.clone(),
            _ => {
                let mut line = LineInput::new(0);
                line.set(text);
                line
            }
        }
    }

    /// The focused text field's value with its cursor, as it fits in `width` columns; None when
    /// the value is shown selected (the first key typed replaces it), the row takes no text or
    /// none does (parked).
    pub fn cursor_view(&self, width: usize) -> Option<String> {
        let text = self.focused_field().is_some_and(|f| f.is_text() && !FormState::explicit(f));
        if self.parked || self.selected_value() || !text {
            return None;
        }
        Some(self.editor().view(width, true))
    }

    /// What `input` does on the focused row (a key typed, or the keymap's activate/toggle).
    fn act(&mut self, input: Input) -> FormOutcome {
        let Some(row) = self.focused().cloned() else { return FormOutcome::NotMine };
        self.row_key(input, &row)
    }

    fn row_key(&mut self, input: Input, row: &Row) -> FormOutcome {
        match row.kind {
            RowKind::AddItem => {
                if matches!(input, Input::Enter | Input::Char(' ') | Input::Char('+')) {
                    let path = row.path.clone();
                    self.structural(&path, |arr, b| {
                        let item = b.item(arr, arr.children.len());
                        arr.children.push(item);
                        arr.state = State::Set;
                    });
                    // Focus the new item, which sits just above the add row.
                    let n = self.rows.iter().position(|r| r.kind == RowKind::AddItem && r.path == path).unwrap_or(0);
                    let item_path = {
                        let mut p = path.clone();
                        p.push(field_at(&self.form.root, &path).map_or(0, |f| f.children.len().saturating_sub(1)));
                        p
                    };
                    self.focus =
                        self.rows.iter().position(|r| r.path == item_path && r.kind == RowKind::Field).unwrap_or(n);
                    return FormOutcome::Handled;
                }
                if matches!(input, Input::Char(_)) {
                    self.hint = Some(format!("{} adds an item; letters type in its fields", key(Command::Activate)));
                    return FormOutcome::Handled;
                }
                FormOutcome::NotMine
            }
            RowKind::AddKey => match input {
                Input::Char(c) => {
                    self.new_key.insert(c);
                    FormOutcome::Handled
                }
                Input::Enter => {
                    let key = self.new_key.text().to_string();
                    self.new_key.clear();
                    if key.is_empty() {
                        self.message = Some(format!("type the new key's name, then {}", self::key(Command::Activate)));
                        return FormOutcome::Handled;
                    }
                    let path = row.path.clone();
                    let exists =
                        field_at(&self.form.root, &path).is_some_and(|o| o.children.iter().any(|c| c.key == key));
                    if exists {
                        self.message = Some(format!("{key:?} is already there"));
                        return FormOutcome::Handled;
                    }
                    self.structural(&path, |o, b| {
                        let f = b.extra(o, &key);
                        o.children.push(f);
                    });
                    FormOutcome::Handled
                }
                _ => FormOutcome::NotMine,
            },
            RowKind::Field => self.field_key(input),
        }
    }

    fn field_key(&mut self, input: Input) -> FormOutcome {
        let Some(f) = self.focused_field() else { return FormOutcome::NotMine };
        let kind = f.kind.clone();
        let path = self.focused().map(|r| r.path.clone()).unwrap_or_default();
        match (&kind, input) {
            (Kind::Text | Kind::Integer | Kind::Number | Kind::Json, Input::Enter) => self.move_focus(1),
            // Typed text and End or → (which keep a selected value and type after it) go to the
            // line editor, as the keys themselves do.
            (Kind::Text | Kind::Integer | Kind::Number | Kind::Json, input) => {
                let code = match input {
                    Input::Char(c) => KeyCode::Char(c),
                    Input::Backspace => KeyCode::Backspace,
                    Input::End => KeyCode::End,
                    Input::Right | Input::Enter => KeyCode::Right,
                };
                return self.line_key(&KeyEvent::new(code, KeyModifiers::NONE)).unwrap_or(FormOutcome::NotMine);
            }
            (Kind::Boolean, Input::Char(' ') | Input::Enter) => {
                // Space flips true and false; from omitted it gives the opposite of the default
                // (what the server would assume). Ctrl-D omits the field again.
                let default_true = f.schema.get("default") == Some(&Value::Bool(true));
                self.edit(|f| {
                    (f.state, f.choice) = match (f.state, f.choice) {
                        (State::Set, Some(c)) => (State::Set, Some(1 - c.min(1))),
                        _ => (State::Set, Some(usize::from(!default_true))),
                    };
                });
            }
            (Kind::Enum(_) | Kind::MultiEnum(_) | Kind::Variant(_), Input::Char(' ') | Input::Enter) => {
                self.open_picker()
            }
            (Kind::Recursive, Input::Char(' ') | Input::Enter) => self.structural(&path, |f, b| b.expand(f)),
            (Kind::Array, Input::Enter | Input::Char(' ')) => {
                let add_row = self.rows.iter().position(|r| r.kind == RowKind::AddItem && r.path == path);
                if let Some(i) = add_row {
                    self.focus = i;
                    return self.act(Input::Enter);
                }
            }
            (Kind::Object, Input::Enter | Input::Char(' ')) => self.move_focus(1),
            (Kind::Const(_), Input::Char(' ') | Input::Enter) => self.edit(|f| {
                f.state = if f.state == State::Set { State::Unset } else { State::Set };
            }),
            (_, Input::Char(c)) => return self.type_below(c, &path),
            _ => return FormOutcome::NotMine,
        }
        FormOutcome::Handled
    }

    /// A letter typed on a row that takes no text (a nested object's or an array item's header,
    /// a boolean, a picker): it goes to the first text field under the row, as if the user had
    /// moved there first; with none, the row says what it takes. Never a command: in a form,
    /// letters type. The field's value was not shown selected (the header had the focus), so the
    /// letter goes after it: what the user typed there before is never silently replaced.
    fn type_below(&mut self, c: char, path: &[usize]) -> FormOutcome {
        let below = self.rows.iter().enumerate().skip(self.focus + 1).find(|(_, r)| {
            r.kind == RowKind::Field
                && r.path.starts_with(path)
                && field_at(&self.form.root, &r.path).is_some_and(Field::is_text)
        });
        match below.map(|(i, _)| i) {
            Some(i) => {
                self.focus = i;
                self.typed_at = Some(i);
                self.hint = None;
                self.field_key(Input::Char(c))
            }
            None => {
                let what = self.focused_field().map_or_else(String::new, |f| FormState::takes(&f.kind));
                self.hint = Some(format!("this row takes no text: {what}"));
                FormOutcome::Handled
            }
        }
    }

    /// What a row that takes no text answers to, in a word.
    fn takes(kind: &Kind) -> String {
        let (toggle, activate) = (key(Command::Toggle), key(Command::Activate));
        match kind {
            Kind::Boolean => format!("{toggle} toggles it"),
            Kind::Enum(_) | Kind::MultiEnum(_) | Kind::Variant(_) => format!("{toggle} picks a value"),
            Kind::Recursive => format!("{activate} expands it"),
            Kind::Array => format!("{activate} adds an item"),
            Kind::Const(_) => format!("{toggle} sets or clears it"),
            _ => "its fields are below".into(),
        }
    }

    fn run_request(&mut self) -> FormOutcome {
        // What the last attempt ended with ("not run") is about that attempt, not this one.
        if self.message.as_deref() == Some(NOT_RUN) {
            self.message = None;
        }
        if let Err(e) = self.arguments() {
            self.check = Some(e);
            return FormOutcome::Handled;
        }
        if !self.no_validate && !self.errors.is_empty() {
            self.check = Some(format!(
                "{} validation error(s): fix them, or {} to send anyway",
                self.errors.len(),
                key(Command::ToggleValidate)
            ));
            return FormOutcome::Handled;
        }
        if self.destructive {
            self.confirm = true;
            return FormOutcome::Handled;
        }
        FormOutcome::Run
    }

    /// Whether the field holds a value the user chose to send as it is (Ctrl-N's null, Ctrl-E's
    /// empty value): shown as that value, not as text, and replaced by what is typed.
    pub fn explicit(f: &Field) -> bool {
        matches!(f.state, State::Null | State::Empty)
    }

    /// The focused row's text for display: value, or a placeholder.
    pub fn display(f: &Field) -> (String, bool) {
        match f.state {
            State::Null => return ("null".into(), true),
            State::Empty => {
                let e = match f.kind {
                    Kind::Object => "{}",
                    Kind::Array | Kind::MultiEnum(_) => "[]",
                    _ => "\"\"",
                };
                return (format!("{e} (explicit empty)"), true);
            }
            _ => {}
        }
        // A container is sent when something in it is: show that, not its own (untouched) state.
        let unset = f.state == State::Unset && !(f.is_container() && f.value().is_some());
        let text = match &f.kind {
            Kind::Text | Kind::Integer | Kind::Number | Kind::Json => {
                if unset {
                    String::new()
                } else {
                    f.text.clone()
                }
            }
            Kind::Boolean => match (unset, f.choice) {
                (false, Some(1)) => "[x] true".into(),
                (false, Some(_)) => "[ ] false".into(),
                _ => String::new(),
            },
            Kind::Enum(_) => f.choice.and_then(|c| form::option_labels(f).get(c).cloned()).unwrap_or_default(),
            Kind::MultiEnum(_) => {
                let labels = form::option_labels(f);
                let on: Vec<String> =
                    labels.into_iter().zip(&f.chosen).filter(|(_, on)| **on).map(|(o, _)| o).collect();
                if on.is_empty() && unset { String::new() } else { format!("[{}]", on.join(", ")) }
            }
            Kind::Const(c) => {
                if unset && !f.required {
                    format!("({} when set)", label(c))
                } else {
                    label(c)
                }
            }
            Kind::Variant(labels) => f.choice.and_then(|c| labels.get(c)).cloned().unwrap_or_default(),
            Kind::Object => String::new(),
            Kind::Array => format!("{} item(s)", f.children.len()),
            Kind::Recursive if f.deferred => format!("▸ {} expands (folded: a large form)", key(Command::Activate)),
            Kind::Recursive => format!("▸ {} expands (recursive schema)", key(Command::Activate)),
        };
        (text, !unset)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::mcp::exact_numbers;

    fn press(form: &mut FormState, code: KeyCode, mods: KeyModifiers) {
        form.handle_key(&KeyEvent::new(code, mods));
    }

    fn ctrl(form: &mut FormState, c: char) {
        press(form, KeyCode::Char(c), KeyModifiers::CONTROL);
    }

    fn type_text(form: &mut FormState, text: &str) {
        text.chars().for_each(|c| press(form, KeyCode::Char(c), KeyModifiers::NONE));
    }

    /// Focuses the row of the field named `key` (the first one, from the top).
    fn go(form: &mut FormState, key: &str) {
        let at = form
            .rows
            .iter()
            .position(|r| r.kind == RowKind::Field && field_at(&form.form.root, &r.path).is_some_and(|f| f.key == key));
        form.focus = at.unwrap_or_else(|| panic!("no field {key}"));
        form.reselect();
    }

    fn text_of(form: &FormState, key: &str) -> String {
        let row = form.rows.iter().find(|r| field_at(&form.form.root, &r.path).is_some_and(|f| f.key == key));
        row.and_then(|r| field_at(&form.form.root, &r.path)).map(|f| f.text.clone()).unwrap_or_default()
    }

    fn json_shown(form: &FormState) -> Option<Value> {
        form.raw.as_ref().and_then(|t| read_json(&t.text()).ok())
    }

    fn nested() -> Value {
        json!({"type": "object", "properties": {
            "count": {"type": "integer"},
            "opts": {"type": "object", "properties": {
                "limit": {"type": "integer", "minimum": 1, "default": 10},
                "match": {"enum": ["exact", "fuzzy"], "default": "exact"}
            }},
            "tags": {"type": "array", "items": {"type": "string"}}
        }})
    }

    /// `5x` in an integer field: Ctrl-T says which field and why, and leaves the form as it was
    /// (the text kept, the focus on it), where before the JSON mode showed the arguments without
    /// it and coming back emptied the field. Once fixed, the switch goes through.
    #[test]
    fn text_the_json_mode_cannot_show_keeps_the_form_and_names_the_field() {
        let mut form = FormState::for_schema("t", &nested(), None);
        go(&mut form, "limit");
        type_text(&mut form, "5x");
        go(&mut form, "count");
        ctrl(&mut form, 't');
        assert!(form.raw.is_none(), "stays on the fields: {:?}", form.raw.as_ref().map(TextArea::text));
        assert_eq!(
            form.message.as_deref(),
            Some("opts.limit: `5x` is not an integer; fix it or clear it (Ctrl-D) before Ctrl-T")
        );
        assert_eq!(form.focused_field().map(|f| f.key.as_str()), Some("limit"), "the focus goes to it");
        assert_eq!(text_of(&form, "limit"), "5x");
        // Shown selected: what is typed replaces it.
        type_text(&mut form, "7");
        ctrl(&mut form, 't');
        assert_eq!(json_shown(&form), Some(json!({"opts": {"limit": 7, "match": "exact"}})));
        ctrl(&mut form, 't');
        assert!(form.raw.is_none());
        assert_eq!(form.arguments(), Ok(json!({"opts": {"limit": 7, "match": "exact"}})));
    }

    /// Form -> JSON -> form, the JSON untouched: the fields come back as they were, a number
    /// beyond 64 bits typed (which the JSON shows with its digits) and an item added and still
    /// empty among them.
    #[test]
    fn the_fields_come_back_as_they_were_when_the_json_is_untouched() {
        let mut form = FormState::for_schema("t", &nested(), None);
        let big = "123456789012345678901234567890";
        go(&mut form, "count");
        type_text(&mut form, big);
        go(&mut form, "tags");
        press(&mut form, KeyCode::Enter, KeyModifiers::NONE);
        let before = (form.rows.len(), form.form.arguments());
        ctrl(&mut form, 't');
        let shown = form.raw.as_ref().map(TextArea::text).unwrap_or_default();
        assert!(shown.contains(&format!("\"count\": {big}")), "{shown}");
        assert!(shown.contains("\"limit\": 10") && shown.contains("\"match\": \"exact\""), "defaults shown: {shown}");
        ctrl(&mut form, 't');
        assert!(form.raw.is_none(), "{:?}", form.message);
        assert_eq!((form.rows.len(), form.form.arguments()), before);
        assert_eq!(text_of(&form, "count"), big);
    }

    /// A call reopened with arguments the fields cannot all hold (`zz`, no field of the tool):
    /// the form opens in JSON mode with them as they were, where before it showed the fields and
    /// said Ctrl-T would show them as JSON, which then showed the fields' arguments, `zz` gone.
    #[test]
    fn last_arguments_the_fields_cannot_hold_open_as_json() {
        let last = json!({"count": 3, "zz": [1]});
        let mut form = FormState::for_schema("t", &nested(), Some(&last));
        assert_eq!(json_shown(&form), Some(last));
        assert_eq!(form.message.as_deref(), Some("the last arguments do not all fit the fields (zz): shown as JSON"));
        ctrl(&mut form, 't');
        assert!(form.raw.is_some(), "still JSON: {:?}", form.message);
        let fits = json!({"count": 3, "opts": {}});
        let form = FormState::for_schema("t", &nested(), Some(&fits));
        assert_eq!((form.raw.is_none(), form.message.clone(), form.arguments()), (true, None, Ok(fits)));
    }

    /// Ctrl-D omits the field, whatever is under it: a list emptied by Ctrl-X (Ctrl-D on its
    /// "+ add item" row, where the focus is left, did nothing, and `[]` was sent), a list with
    /// items, an object whose fields hold defaults (both still sent after Ctrl-D).
    #[test]
    fn ctrl_d_leaves_the_field_out_of_the_arguments() {
        let mut form = FormState::for_schema("t", &nested(), None);
        go(&mut form, "tags");
        press(&mut form, KeyCode::Enter, KeyModifiers::NONE);
        ctrl(&mut form, 'x');
        assert_eq!(form.arguments().map(|a| a["tags"].clone()), Ok(json!([])));
        assert_eq!(form.focused().map(|r| r.kind), Some(RowKind::AddItem));
        ctrl(&mut form, 'd');
        assert_eq!(form.arguments(), Ok(json!({"opts": {"limit": 10, "match": "exact"}})));
        go(&mut form, "tags");
        press(&mut form, KeyCode::Enter, KeyModifiers::NONE);
        type_text(&mut form, "a");
        go(&mut form, "tags");
        ctrl(&mut form, 'd');
        go(&mut form, "opts");
        ctrl(&mut form, 'd');
        assert_eq!(form.arguments(), Ok(json!({})));
        // Ctrl-E on the add row: the list's explicit empty value.
        form.focus = form.rows.iter().position(|r| r.kind == RowKind::AddItem).unwrap_or_default();
        ctrl(&mut form, 'e');
        assert_eq!(form.arguments(), Ok(json!({"tags": []})));
    }

    /// JSON edited to leave out a nested member whose fields hold defaults: the fields take it
    /// (those defaults omitted), where before they sent the defaults anyway and so kept the
    /// JSON mode, saying the arguments could not be shown.
    #[test]
    fn json_without_a_nested_default_goes_back_to_the_fields() {
        let mut form = FormState::for_schema("t", &nested(), None);
        ctrl(&mut form, 't');
        form.raw = Some(TextArea::new(r#"{"count": 3}"#));
        ctrl(&mut form, 't');
        assert!(form.raw.is_none(), "{:?}", form.message);
        assert_eq!(form.arguments(), Ok(json!({"count": 3})));
        assert_eq!((text_of(&form, "limit"), form.rows.len()), (String::new(), 6), "opts' rows are there, empty");
        // What the fields cannot hold keeps the JSON mode, named.
        ctrl(&mut form, 't');
        form.raw = Some(TextArea::new(r#"{"opts": {"limit": 2, "match": "other"}}"#));
        ctrl(&mut form, 't');
        assert!(form.raw.is_some());
        assert_eq!(
            form.message.as_deref(),
            Some("these arguments cannot all be shown as fields (opts.match); staying in JSON mode")
        );
    }

    /// The JSON mode sends a number a float would round with the digits typed; the fields, which
    /// hold 64-bit integers, leave it in JSON mode.
    #[test]
    fn the_json_mode_keeps_a_typed_number_whole() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "o": {"type": "object"}}});
        let mut form = FormState::for_schema("t", &schema, None);
        let big = "123456789012345678901234567890";
        form.raw = Some(TextArea::new(&format!(r#"{{"n": {big}, "o": {{"k": [{big}]}}}}"#)));
        let args = form.arguments().unwrap_or_default();
        let literal = |v: &Value| exact_numbers::literal(v).unwrap_or_default();
        assert_eq!((literal(&args["n"]), literal(&args["o"]["k"][0])), (big.to_string(), big.to_string()));
        form.validate();
        assert!(form.errors.is_empty(), "checked as the integer it reads as: {:?}", form.errors);
        form.toggle_raw();
        assert!(form.raw.as_ref().is_some_and(|t| t.text().contains(big)), "{:?}", form.message);
    }
}
