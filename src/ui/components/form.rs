//! The form pane: a tool's arguments as rows built from its input schema, the JSON editor,
//! and the pickers. Keys and commands go through `FormState` (`ui/form.rs`); drawing here reads
//! the state and writes nothing: the window follows the focus in `set_area`, called by the
//! layout after each update.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::sanitize;
use crate::ui::component::{Action, Component, Ctx, Used};
use crate::ui::form::{FormOutcome, FormState, RowKind};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::line_input::CURSOR;
use crate::ui::theme::{Role, Theme};

/// One line under the rows: the focused field's hints, its errors, messages.
struct Info {
    text: String,
    role: Role,
    bold: bool,
}

impl FormState {
    fn info(&self) -> Vec<Info> {
        let line = |text: String, role: Role| Info { text, role, bold: false };
        let mut info = vec![];
        if self.confirm {
            let text = format!("{} is marked destructive. Run it? y / N", sanitize::line(&self.tool));
            info.push(Info { text, role: Role::Error, bold: true });
        }
        if self.unlisted {
            let text = format!("✖ the server no longer lists {}: not run", sanitize::line(&self.tool));
            info.push(Info { text, role: Role::Error, bold: true });
            info.push(line(crate::ui::app::unlisted_choices(), Role::Warning));
        }
        for m in [&self.message, &self.hint, &self.check].into_iter().flatten() {
            info.push(line(sanitize::line(m).into_owned(), Role::Warning));
        }
        if let Some(p) = &self.schema_problem {
            info.push(line(sanitize::line(p).into_owned(), Role::Warning));
        }
        if self.raw.is_none()
            && let Some(field) = self.focused_field()
        {
            for h in field.hints() {
                info.push(line(sanitize::line(&h).into_owned(), Role::Dim));
            }
        }
        for e in self.loose_errors().into_iter().take(3) {
            info.push(line(format!("✖ {}", sanitize::line(e)), Role::Error));
        }
        if self.errors.is_empty() && self.raw.is_none() {
            info.push(line("✔ arguments valid".into(), Role::Ok));
        }
        info
    }

    /// The rows' area and the info area inside the pane's border.
    fn split(&self, inner: Rect, info_len: usize) -> [Rect; 2] {
        let info_h = (info_len as u16 + 1).min(inner.height / 2).max(2);
        Layout::vertical([Constraint::Min(1), Constraint::Length(info_h)]).areas(inner)
    }

    /// A key for the form: its own bindings first, then typing (pickers and confirmations
    /// take every key while open).
    pub fn handle_key(&mut self, k: &KeyEvent) -> FormOutcome {
        if self.captures() {
            self.edit_key(k)
        } else if let Some(done) = self.parked_key(k) {
            done
        } else if let Some(cmd) = keymap::lookup_own(k, Scope::Form) {
            match self.form_command(cmd) {
                FormOutcome::NotMine => self.edit_key(k),
                other => other,
            }
        } else {
            self.edit_key(k)
        }
    }

    /// Everything inside the border: the rows, then the focused field's hints and the errors.
    /// The text cursor shows only while the pane has the focus (`focused`).
    pub fn draw_inside(&self, f: &mut Frame, inner: Rect, theme: &Theme, focused: bool) {
        let info = self.info();
        let [rows_area, info_area] = self.split(inner, info.len());
        let lines: Vec<Line> = info
            .into_iter()
            .map(|i| {
                let style = theme.paint(i.role);
                Line::styled(i.text, if i.bold { style.add_modifier(Modifier::BOLD) } else { style })
            })
            .collect();
        let sep = Block::default().borders(Borders::TOP).border_style(theme.border(false));
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(sep), info_area);
        self.draw_rows(f, rows_area, theme, focused);
    }

    /// Keeps the focused row (or the editor's cursor) in view, for rows drawn inside `inner`.
    pub fn follow(&mut self, inner: Rect) {
        let [rows, _] = self.split(inner, self.info().len());
        let h = (rows.height as usize).max(1);
        if let Some(ta) = &mut self.raw {
            ta.follow(h);
            ta.follow_columns(rows.width as usize);
        }
        if let Some(p) = &mut self.picker {
            let rows = picker_box(p, rows).height.saturating_sub(2);
            p.set_height(usize::from(rows));
        }
        if self.focus < self.scroll {
            self.scroll = self.focus;
        } else if self.focus >= self.scroll + h {
            self.scroll = self.focus + 1 - h;
        }
    }

    /// What the form's outcome asks of the app.
    fn settle(&mut self, outcome: FormOutcome, cx: &mut Ctx) -> Used {
        match outcome {
            FormOutcome::Handled => {}
            FormOutcome::Run => match self.arguments() {
                Ok(arguments) => cx.action(Action::RunForm { tool: self.tool.clone(), arguments }),
                Err(e) => self.check = Some(e),
            },
            FormOutcome::Leave => cx.action(Action::LeaveForm),
            FormOutcome::NotMine => return Used::No,
        }
        Used::Yes
    }

    fn draw_rows(&self, f: &mut Frame, rows_area: Rect, theme: &Theme, focused: bool) {
        if let Some(ta) = &self.raw {
            let cursor = focused.then(|| theme.selection());
            let lines = ta.view(rows_area.height as usize, rows_area.width as usize, cursor);
            f.render_widget(Paragraph::new(lines), rows_area);
            return;
        }
        let width = rows_area.width as usize;
        let mut lines = vec![];
        for (i, row) in self.rows.iter().enumerate().skip(self.scroll).take(rows_area.height as usize) {
            let is_focus = i == self.focus;
            let cursor = is_focus && focused;
            let mut spans = vec![Span::raw("  ".repeat(row.depth.min(30)))];
            match row.kind {
                RowKind::AddItem => {
                    spans.push(Span::styled(format!("+ add item ({})", key(Command::Activate)), theme.paint(Role::Key)))
                }
                RowKind::AddKey => self.add_key_spans(&mut spans, cursor, theme),
                RowKind::Field => {
                    let Some(field) = crate::schema::form::field_at(&self.form.root, &row.path) else { continue };
                    self.field_spans(&mut spans, field, &row.path, (cursor, width), theme);
                }
            }
            let line = Line::from(spans);
            lines.push(if is_focus { line.style(theme.selection()) } else { line });
        }
        if lines.is_empty() {
            // A tool no longer listed is not run: the info under the rows says what to do instead.
            let text = if self.unlisted {
                "This tool takes no arguments.".to_string()
            } else {
                format!("This tool takes no arguments: {} runs it.", key(Command::Run))
            };
            lines.push(Line::styled(text, theme.paint(Role::Dim)));
        }
        f.render_widget(Paragraph::new(crate::ui::fit::lines(lines, width)), rows_area);
        if let Some(p) = &self.picker {
            draw_picker(f, p, rows_area, theme, focused);
        }
    }

    /// "+ add key: " and the name being typed.
    fn add_key_spans(&self, spans: &mut Vec<Span<'static>>, cursor: bool, theme: &Theme) {
        spans.push(Span::styled("+ add key: ", theme.paint(Role::Key)));
        spans.push(Span::styled(self.new_key.view(60, cursor), theme.paint(Role::Text)));
        spans.push(Span::styled(format!("  (type a name, {})", key(Command::Activate)), theme.paint(Role::Dim)));
    }

    /// A field's row after its indent: key, required mark, value (with the text cursor when
    /// focused), the omitted hint and its first error. `at` is (the row shows the text cursor:
    /// focused in a focused pane, the row's width).
    fn field_spans(
        &self,
        spans: &mut Vec<Span<'static>>,
        field: &crate::schema::form::Field,
        path: &[usize],
        at: (bool, usize),
        theme: &Theme,
    ) {
        let (cursor, width) = at;
        let name =
            if field.key.is_empty() { "(arguments)".to_string() } else { sanitize::line(&field.key).into_owned() };
        spans.push(Span::styled(name, theme.paint(Role::Text).add_modifier(Modifier::BOLD)));
        if field.required {
            spans.push(Span::styled("*", theme.paint(Role::Required)));
        }
        spans.push(Span::styled(": ", theme.paint(Role::Dim)));
        let (value, set) = FormState::display(field);
        let room = width.saturating_sub(spans.iter().map(Span::width).sum::<usize>() + 1).max(8);
        match self.cursor_view(room).filter(|_| cursor) {
            Some(view) => spans.push(Span::styled(view, theme.paint(Role::JsonString))),
            None => {
                if set || !value.is_empty() {
                    let explicit = FormState::explicit(field);
                    let mut style = match (explicit, set) {
                        (true, _) => theme.paint(Role::JsonNull).add_modifier(Modifier::ITALIC),
                        (false, true) => theme.paint(Role::JsonString),
                        (false, false) => theme.paint(Role::Dim),
                    };
                    if cursor && (self.selected_value() || explicit) {
                        // Selected: the first key typed replaces it.
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    spans.push(Span::styled(sanitize::line(&value).into_owned(), style));
                }
                if cursor && field.is_text() && !self.parked() {
                    spans.push(Span::styled(CURSOR.to_string(), theme.paint(Role::Match)));
                }
            }
        }
        if !set && value.is_empty() {
            spans.push(Span::styled(format!(" ({}; omitted)", kind_hint(field)), theme.paint(Role::Dim)));
        }
        for e in self.errors_at(path).into_iter().take(1) {
            spans.push(Span::styled(
                format!("  ✖ {}", sanitize::truncate(&sanitize::line(e), 120)),
                theme.paint(Role::Error),
            ));
        }
    }
}

/// The keys an open picker names in its title.
fn picker_hint(p: &crate::ui::form::Picker) -> String {
    let (toggle, pick, leave) = (key(Command::Toggle), key(Command::Activate), key(Command::Leave));
    let filter = crate::ui::form_picker::filter_key();
    if p.multi.is_some() {
        format!(" {toggle} toggles · {pick} done · {filter} filters ")
    } else {
        format!(" {pick} picks · {leave} cancels · {filter} filters ")
    }
}

/// Where an open picker's box goes over the rows: wide enough for its title when the rows have
/// the room, as high as the options the filter leaves (one row at least, for "no option
/// matches"; the filter is on its bottom edge). Its top stays where the box of every option
/// has it, so a filter typed pulls the bottom edge up and one cleared lets it down again.
fn picker_box(p: &crate::ui::form::Picker, rows_area: Rect) -> Rect {
    let widest = p.options.iter().map(|o| Span::raw(o.as_str()).width()).max().unwrap_or(10) + 8;
    let title = Span::raw(picker_hint(p)).width() + 2;
    let w = widest.max(title).min(usize::from(u16::MAX)) as u16;
    let rows = |n: usize| u16::try_from(n).unwrap_or(u16::MAX).saturating_add(2);
    let every = crate::ui::component::centered(rows_area, w, rows(p.options.len()));
    Rect { height: every.height.min(rows(p.shown_len().max(1))), ..every }
}

/// An open picker's options in its box over the rows; the filter and where the cursor is in a
/// long list on its bottom edge.
fn draw_picker(f: &mut Frame, p: &crate::ui::form::Picker, rows_area: Rect, theme: &Theme, focused: bool) {
    let r = picker_box(p, rows_area);
    f.render_widget(Clear, r);
    let rows = usize::from(r.height.saturating_sub(2));
    let width = usize::from(r.width.saturating_sub(2));
    let items: Vec<Line> = p
        .window(rows)
        .map(|(i, at_cursor)| {
            let mark = match &p.multi {
                Some(on) if on.get(i).copied().unwrap_or(false) => "[x] ",
                Some(_) => "[ ] ",
                None => "",
            };
            let option = p.options.get(i).map_or("", String::as_str);
            let l = crate::ui::fit::fit(Line::raw(format!("{mark}{}", sanitize::line(option))), width);
            if at_cursor { l.style(theme.selection()) } else { l }
        })
        .collect();
    let mut b = crate::ui::component::overlay_block(theme, crate::ui::fit::title(picker_hint(p), r.width), focused);
    if let Some(bottom) = picker_bottom(p, rows) {
        b = b.title_bottom(crate::ui::fit::title(bottom, r.width).style(theme.paint(Role::Dim)));
    }
    let empty = items.is_empty();
    f.render_widget(Paragraph::new(items).block(b), r);
    if empty && rows > 0 {
        let inner = Rect { x: r.x + 1, y: r.y + 1, width: r.width.saturating_sub(2), height: 1 };
        f.render_widget(Paragraph::new("no option matches").style(theme.paint(Role::Dim)), inner);
    }
}

/// The picker's bottom edge: the filter (being typed, or kept), and the cursor's place when the
/// options do not all fit.
fn picker_bottom(p: &crate::ui::form::Picker, rows: usize) -> Option<String> {
    let mut parts = vec![];
    if p.filtering || !p.filter.is_empty() {
        parts.push(format!("/{}", p.filter.view(40, p.filtering)));
    }
    let n = p.shown_len();
    if n > rows || !p.filter.is_empty() {
        let at = if n == 0 { 0 } else { p.scroll.cursor + 1 };
        parts.push(format!("{at} of {n}"));
    }
    (!parts.is_empty()).then(|| format!(" {} ", parts.join(" · ")))
}

impl Component for FormState {
    fn scope(&self) -> Scope {
        Scope::Form
    }

    /// In a form letters always type (see `swallows`).
    fn typing(&self) -> bool {
        true
    }

    /// The form's own bindings first, then typing; while a field takes text, keys bound
    /// elsewhere are typed, not run (Ctrl keys still reach the app).
    fn key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Used {
        match self.handle_key(k) {
            FormOutcome::NotMine if self.swallows(k) => Used::Yes,
            other => self.settle(other, cx),
        }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        let outcome = self.form_command(cmd);
        self.settle(outcome, cx)
    }

    /// Moves the window to keep the focused row (or the editor's cursor) in view.
    fn set_area(&mut self, area: Rect) {
        self.follow(Block::bordered().inner(area));
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let (run, json, back) = (key(Command::Run), key(Command::ToggleJson), key(Command::Leave));
        let run = if self.unlisted { String::new() } else { format!("{run} run · ") };
        let mut title = format!(" Form: {} · {run}{json} JSON · {back} back ", sanitize::line(&self.tool));
        if self.raw.is_some() {
            title.push_str("· JSON mode ");
        }
        if self.no_validate {
            title.push_str("· validation OFF ");
        }
        let title = crate::ui::fit::fit(Line::from(title), area.width.saturating_sub(2) as usize);
        let b = crate::ui::component::frame(theme, title, focused);
        let inner = b.inner(area);
        f.render_widget(b, area);
        self.draw_inside(f, inner, theme, focused);
    }
}

/// The key the form binds to `cmd`, for the hints it writes.
fn key(cmd: Command) -> String {
    keymap::key(Scope::Form, cmd)
}

fn kind_hint(f: &crate::schema::form::Field) -> String {
    use crate::schema::form::Kind;
    let base = match &f.kind {
        Kind::Text => {
            f.schema.get("format").and_then(|v| v.as_str()).map_or("string".to_string(), |fm| format!("string, {fm}"))
        }
        Kind::Integer => "integer".into(),
        Kind::Number => "number".into(),
        Kind::Boolean => format!("boolean: {} toggles", key(Command::Toggle)),
        Kind::Enum(o) => format!("one of {}: {} picks", o.len(), key(Command::Toggle)),
        Kind::MultiEnum(o) => format!("any of {}: {} picks", o.len(), key(Command::Toggle)),
        Kind::Const(_) => "const".into(),
        Kind::Object => "object".into(),
        Kind::Array => format!("array, {} item(s)", f.children.len()),
        Kind::Variant(v) => format!("one of {} variants: {} picks", v.len(), key(Command::Toggle)),
        Kind::Recursive if f.deferred => "folded".into(),
        Kind::Recursive => "recursive".into(),
        Kind::Json => "JSON".into(),
    };
    if f.nullable { format!("{base} or null") } else { base }
}
