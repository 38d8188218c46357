//! A form over the panes for a resource template's variables or a prompt's arguments, built with
//! the tool form's fields (`FormState::for_schema`), with the server's `completion/complete`
//! suggestions under it as you type (when the server declares completions). Ctrl-R reads the URI
//! the template makes, or gets the prompt; the answer opens over this form, which stays to be
//! filled in again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use serde_json::{Map, Value, json};

use crate::mcp::{CompletionRef, Descriptor, ItemKind};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Observed, Used};
use crate::ui::form::{FormOutcome, FormState};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::ops::{self, CompletionAsk};
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("fill");

/// At most this many suggestions are listed under the form.
const SHOWN: usize = 8;

/// The rows of the suggestions' place above the values: its top border and the count line.
const FOOT_HEAD: u16 = 2;

/// How many of `s`'s values a place `height` rows high lists: what is left under its head, less
/// a row for the "… more" line when some are not listed.
fn fitting(s: &Suggestions, height: u16) -> usize {
    let room = usize::from(height.saturating_sub(FOOT_HEAD));
    let n = s.values.len().min(SHOWN);
    if n <= room && s.listed <= n { n } else { n.min(room.saturating_sub(1)) }
}

/// Every request's number, so an answer finds the field that asked (and a late one is dropped).
static SEQ: AtomicU64 = AtomicU64::new(1);

/// What the form fills in.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Template { name: String, uri_template: String },
    Prompt { name: String },
}

impl Target {
    fn reference(&self) -> CompletionRef {
        match self {
            Target::Template { uri_template, .. } => CompletionRef::Template(uri_template.clone()),
            Target::Prompt { name } => CompletionRef::Prompt(name.clone()),
        }
    }
}

/// The suggestions for one field.
#[derive(Default)]
struct Suggestions {
    field: String,
    values: Vec<String>,
    /// How many the server sent (`values` keeps the first of them).
    listed: usize,
    total: Option<u64>,
    has_more: bool,
    highlight: Option<usize>,
    /// Why there are none (the server's error).
    problem: Option<String>,
}

pub struct FillOverlay {
    target: Target,
    about: Vec<String>,
    form: Box<FormState>,
    /// A template's URI as far as the form's fields reach, for the line redrawn on every key.
    plan: Option<crate::mcp::uri_template::Plan>,
    /// The server declares the completions capability.
    completes: bool,
    /// The request in flight (its seq) and the field it is for.
    asked: Option<u64>,
    suggestions: Suggestions,
    /// How many suggestions the space under the form shows (from the last layout): the
    /// highlight moves among these only, so what Enter takes is always on screen.
    fits: usize,
    /// The focused row and its text when suggestions were last asked for.
    seen: (usize, String),
    problem: Option<String>,
}

/// The most fields a form holds: a template of 50,000 variables (or a prompt of as many
/// arguments) is no form anyone fills in, and built whole it froze the screen for seconds on
/// each key. The rest are left out (a template's undefined variable is left out of the URI, as
/// RFC 6570 says), and the form says how many.
pub const MAX_FIELDS: usize = 200;

/// How much of a template the form's heading shows.
const TEMPLATE_SHOWN: usize = 400;

/// How much of the URI it makes the heading shows.
const URI_SHOWN: usize = 400;

/// An object schema of string properties: a template's variables, or a prompt's arguments (the
/// first [`MAX_FIELDS`]); and, when there were more, how many (`None`: more, not counted).
pub fn schema_of(d: &Descriptor) -> (Value, Option<Option<usize>>) {
    let mut props = Map::new();
    let mut required = vec![];
    let more = match d.kind {
        ItemKind::Template => {
            // Variables of `{?...}` and `{&...}` expressions may be left out; the others make up
            // the path and are required.
            let (vars, more) = crate::mcp::uri_template::first_variables(d.uri().unwrap_or(""), MAX_FIELDS);
            for (v, optional) in vars {
                props.insert(v.clone(), json!({"type": "string", "description": "a variable of the URI template"}));
                if !optional {
                    required.push(Value::String(v));
                }
            }
            more.then_some(None)
        }
        _ => {
            let args = d.arguments();
            let more = args.len().checked_sub(MAX_FIELDS).filter(|n| *n > 0);
            for a in args.into_iter().take(MAX_FIELDS) {
                let mut p = json!({"type": "string"});
                if let Some(t) = &a.title {
                    p["title"] = Value::String(t.clone());
                }
                if let Some(desc) = &a.description {
                    p["description"] = Value::String(desc.clone());
                }
                if a.required {
                    required.push(Value::String(a.name.clone()));
                }
                props.insert(a.name, p);
            }
            more.map(Some)
        }
    };
    (json!({"type": "object", "properties": props, "required": required}), more)
}

impl FillOverlay {
    /// The form for a template or a prompt; `completes` when the server offers completions.
    pub fn new(d: &Descriptor, completes: bool) -> FillOverlay {
        let target = match d.kind {
            ItemKind::Template => {
                Target::Template { name: d.name().to_string(), uri_template: d.uri().unwrap_or("").to_string() }
            }
            _ => Target::Prompt { name: d.name().to_string() },
        };
        let mut about = vec![];
        if let Target::Template { uri_template, .. } = &target {
            about.push(format!("template {}", sanitize::line_head(uri_template, TEMPLATE_SHOWN)));
        }
        if let Some(desc) = d.description() {
            about.extend(sanitize::text(desc).lines().take(3).map(str::to_string));
        }
        let (schema, more) = schema_of(d);
        if let Some(more) = more {
            let what = if d.kind == ItemKind::Template { "variables" } else { "arguments" };
            let note = match more {
                Some(n) => format!("{} {what}: the first {MAX_FIELDS} are here; {n} more are left out", MAX_FIELDS + n),
                None => format!("over {MAX_FIELDS} {what}: the first {MAX_FIELDS} are here; the rest are left out"),
            };
            // First, where the heading is never cut off.
            about.insert(0, note);
        }
        let form = FormState::for_schema(d.name(), &schema, None);
        let plan = match &target {
            Target::Template { uri_template, .. } => {
                let fields = schema.get("properties").and_then(Value::as_object);
                Some(crate::mcp::uri_template::Plan::new(uri_template, |n| fields.is_some_and(|f| f.contains_key(n))))
            }
            Target::Prompt { .. } => None,
        };
        let mut fill = FillOverlay {
            target,
            about,
            form: Box::new(form),
            plan,
            completes,
            asked: None,
            suggestions: Suggestions::default(),
            fits: SHOWN,
            seen: (usize::MAX, String::new()),
            problem: None,
        };
        fill.form.reselect();
        fill
    }

    /// The first field's suggestions, asked for as the form opens.
    pub fn first_ask(&mut self) -> Option<Cmd> {
        self.ask_if_changed()
    }

    /// The focused field's name and text.
    fn focused(&self) -> Option<(String, String)> {
        let f = self.form.focused_field().filter(|f| f.is_text())?;
        Some((f.key.clone(), f.text.clone()))
    }

    /// The other fields' values, as the server's context for a completion.
    fn context(&self, except: &str) -> Vec<(String, String)> {
        let args = self.form.arguments().unwrap_or_default();
        let Some(obj) = args.as_object() else { return vec![] };
        obj.iter()
            .filter(|(k, _)| k.as_str() != except)
            .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string)))
            .collect()
    }

    /// A `completion/complete` for the focused field when it or its text changed.
    fn ask_if_changed(&mut self) -> Option<Cmd> {
        let (field, text) = self.focused().unwrap_or_default();
        let now = (self.form.focus, text.clone());
        if now == self.seen {
            return None;
        }
        self.seen = now;
        if field != self.suggestions.field {
            self.suggestions = Suggestions { field: field.clone(), ..Suggestions::default() };
        }
        self.suggestions.highlight = None;
        if !self.completes || field.is_empty() {
            return None;
        }
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        self.asked = Some(seq);
        let context = self.context(&field);
        Some(Cmd::Complete(CompletionAsk {
            seq,
            reference: self.target.reference(),
            argument: field,
            partial: text,
            context,
        }))
    }

    /// The URI the template makes of the values given (an empty value leaves its variable out).
    pub fn uri(&self) -> Option<String> {
        let Target::Template { uri_template, .. } = &self.target else { return None };
        Some(crate::mcp::uri_template::expand(uri_template, &self.values()))
    }

    /// The start of [`Self::uri`], as the heading shows it: its cost is that of the line shown,
    /// not of the template (a template of 50,000 variables took a second a key expanded whole).
    fn uri_head(&self) -> Option<String> {
        let (head, cut) = self.plan.as_ref()?.expand_head(&self.values(), URI_SHOWN);
        let shown = sanitize::line_head(&head, URI_SHOWN);
        Some(if cut && !shown.ends_with('…') { format!("{shown}…") } else { shown.into_owned() })
    }

    /// The fields' values as text.
    fn values(&self) -> HashMap<String, String> {
        let args = self.form.arguments().unwrap_or_default();
        args.as_object()
            .map(|o| {
                o.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect()
            })
            .unwrap_or_default()
    }

    /// Ctrl-R: the read of the URI, or the prompt's get (validated; Ctrl-V in the form sends
    /// anyway).
    fn submit(&mut self, cx: &mut Ctx) -> Used {
        if !self.form.no_validate && !self.form.errors.is_empty() {
            let anyway = keymap::key(Scope::Form, Command::ToggleValidate);
            self.problem = Some(format!("{} problem(s): fix them, or {anyway} to send anyway", self.form.errors.len()));
            return Used::Yes;
        }
        let args = match self.form.arguments() {
            Ok(a) => a,
            Err(e) => {
                self.problem = Some(e);
                return Used::Yes;
            }
        };
        match &self.target {
            Target::Template { .. } => {
                let uri = self.uri().unwrap_or_default();
                cx.notice(format!("reading {}", sanitize::line_head(&uri, URI_SHOWN)), false);
                cx.cmd(Cmd::ReadResource { uri, refresh: false });
            }
            Target::Prompt { name } => {
                cx.notice(format!("getting the prompt {}", sanitize::line(name)), false);
                cx.cmd(Cmd::GetPrompt { name: name.clone(), arguments: ops::string_arguments(&args) });
            }
        }
        Used::Yes
    }

    fn move_highlight(&mut self, down: bool) -> Used {
        let n = self.shown();
        if n == 0 {
            return Used::Yes;
        }
        self.suggestions.highlight = Some(match (self.suggestions.highlight, down) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        });
        Used::Yes
    }

    fn take(&mut self, cx: &mut Ctx) -> Used {
        let Some(v) = self.suggestions.highlight.and_then(|i| self.suggestions.values.get(i)).cloned() else {
            return Used::No;
        };
        self.form.set_focused_text(&v);
        if let Some(c) = self.ask_if_changed() {
            cx.cmd(c);
        }
        Used::Yes
    }

    /// The form's handling of a key; `None` when it is not the form's.
    fn form_key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Option<Used> {
        match self.form.handle_key(k) {
            FormOutcome::Run => Some(self.submit(cx)),
            FormOutcome::Leave => {
                cx.effects.push(Effect::Close);
                Some(Used::Yes)
            }
            FormOutcome::Handled => Some(Used::Yes),
            FormOutcome::NotMine => self.form.swallows(k).then_some(Used::Yes),
        }
    }
}

impl Component for FillOverlay {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn typing(&self) -> bool {
        true
    }

    fn hints(&self) -> Vec<(String, String)> {
        keymap::while_typing(keymap::overlay_footer(SCOPE))
    }

    /// The suggestion keys first (Enter only while one is highlighted), then the form.
    fn key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Used {
        let own = keymap::lookup_own(k, SCOPE);
        let used = match own {
            Some(Command::NextSuggestion) => self.move_highlight(true),
            Some(Command::PrevSuggestion) => self.move_highlight(false),
            Some(Command::TakeSuggestion) if !self.form.captures() && self.suggestions.highlight.is_some() => {
                self.take(cx)
            }
            _ => Used::No,
        };
        if used.yes() {
            return used;
        }
        let used = match self.form_key(k, cx) {
            Some(u) => u,
            None => match own {
                Some(cmd) => self.command(cmd, cx),
                None => Used::No,
            },
        };
        if used.yes() {
            self.problem = None;
            if let Some(c) = self.ask_if_changed() {
                cx.cmd(c);
            }
        }
        used
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Run => self.submit(cx),
            Command::Leave | Command::Back => {
                cx.effects.push(Effect::Close);
                Used::Yes
            }
            Command::NextSuggestion => self.move_highlight(true),
            Command::PrevSuggestion => self.move_highlight(false),
            Command::TakeSuggestion => self.take(cx),
            _ => Used::No,
        }
    }

    fn observe(&mut self, event: &Observed, _cx: &mut Ctx) {
        let Observed::Completed(done) = event else { return };
        if self.asked != Some(done.seq) {
            return;
        }
        self.asked = None;
        let s = &mut self.suggestions;
        s.highlight = None;
        match &done.outcome {
            Ok(c) => {
                s.values = c.values.clone();
                s.listed = c.listed.max(c.values.len());
                s.total = c.total;
                s.has_more = c.has_more;
                s.problem = None;
            }
            Err(e) => {
                s.values.clear();
                s.listed = 0;
                s.problem = Some(format!("completion/complete: {e}"));
            }
        }
    }

    fn set_area(&mut self, area: Rect) {
        let [_, body, foot] = self.split(Block::bordered().inner(area));
        self.form.follow(body);
        self.fits = fitting(&self.suggestions, foot.height);
        if self.suggestions.highlight.is_some_and(|h| h >= self.fits) {
            self.suggestions.highlight = None;
        }
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(110), area.height.saturating_sub(2).min(30))
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let (what, name) = match &self.target {
            Target::Template { name, .. } => ("Template", name),
            Target::Prompt { name } => ("Prompt", name),
        };
        let verb = if matches!(self.target, Target::Template { .. }) { "read" } else { "get" };
        let (run, next, prev, close) = (
            keymap::key(SCOPE, Command::Run),
            keymap::key(SCOPE, Command::NextSuggestion),
            keymap::key(SCOPE, Command::PrevSuggestion),
            keymap::key(SCOPE, Command::Leave),
        );
        let title =
            format!(" {what}: {} · {run} {verb} · {next}/{prev} suggestions · {close} close ", sanitize::line(name));
        let b = crate::ui::component::overlay_block(theme, title, focused);
        let inner = b.inner(area);
        f.render_widget(b, area);
        let [head, body, foot] = self.split(inner);
        f.render_widget(Paragraph::new(self.head_lines(theme)).wrap(Wrap { trim: false }), head);
        self.form.draw_inside(f, body, theme, focused);
        let sep = Block::default().borders(Borders::TOP).border_style(theme.border(false));
        f.render_widget(Paragraph::new(self.suggestion_lines(theme)).block(sep), foot);
    }
}

impl FillOverlay {
    fn head_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines: Vec<Line> =
            self.about.iter().map(|l| Line::styled(sanitize::line(l).into_owned(), theme.paint(Role::Dim))).collect();
        if let Some(uri) = self.uri_head() {
            lines.push(Line::from(vec![
                Span::styled("reads  ", theme.paint(Role::Key)),
                Span::styled(uri, theme.paint(Role::JsonString)),
            ]));
        }
        if let Some(p) = &self.problem {
            lines.push(Line::styled(format!("✖ {}", sanitize::line(p)), theme.paint(Role::Error)));
        }
        lines
    }

    fn suggestion_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let s = &self.suggestions;
        if !self.completes {
            return vec![Line::styled(
                "The server declares no completions capability: no suggestions.",
                theme.paint(Role::Dim),
            )];
        }
        if let Some(p) = &s.problem {
            return vec![Line::styled(sanitize::line(p).into_owned(), theme.paint(Role::Warning))];
        }
        if s.field.is_empty() {
            return vec![];
        }
        let field = sanitize::line(&s.field).into_owned();
        if s.values.is_empty() {
            let what = if self.asked.is_some() { "asking the server…" } else { "none" };
            return vec![Line::styled(format!("suggestions for {field}: {what}"), theme.paint(Role::Dim))];
        }
        let mut count = crate::ui::result::count(s.listed, "suggestion", "suggestions");
        match (s.total, s.has_more) {
            (Some(t), more) if t as usize != s.listed || more => count.push_str(&format!(" of {t}")),
            (None, true) => count.push_str(", more on the server"),
            _ => {}
        }
        let mut lines = vec![Line::styled(
            format!(
                "{count} for {field} ({}/{} highlight, {} takes):",
                keymap::key(SCOPE, Command::NextSuggestion),
                keymap::key(SCOPE, Command::PrevSuggestion),
                keymap::key(SCOPE, Command::TakeSuggestion)
            ),
            theme.paint(Role::Dim),
        )];
        let shown = self.shown();
        for (i, v) in s.values.iter().take(shown).enumerate() {
            let line = Line::styled(format!("  {}", sanitize::line(v)), theme.paint(Role::JsonString));
            lines.push(if s.highlight == Some(i) { line.style(theme.selection()) } else { line });
        }
        if s.listed > shown {
            lines.push(Line::styled(
                format!("  … {} more: type to narrow", s.listed - shown),
                theme.paint(Role::Dim).add_modifier(Modifier::ITALIC),
            ));
        }
        lines
    }

    /// The description and URI above, the form, the suggestions below (as many rows as they
    /// need, up to half the box).
    fn split(&self, inner: Rect) -> [Rect; 3] {
        let head = (self.about.len() + usize::from(self.plan.is_some()) + usize::from(self.problem.is_some())) as u16;
        let n = self.suggestions.values.len().min(SHOWN);
        let more = self.suggestions.listed > n;
        let foot = (n as u16 + FOOT_HEAD + u16::from(more)).min(inner.height / 2).max(2);
        Layout::vertical([Constraint::Length(head.min(inner.height / 4)), Constraint::Min(3), Constraint::Length(foot)])
            .areas(inner)
    }

    /// How many suggestions are listed: those that fit under the form with the "… more" line
    /// when there are more.
    fn shown(&self) -> usize {
        self.suggestions.values.len().min(SHOWN).min(self.fits)
    }

    pub fn target(&self) -> &Target {
        &self.target
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    fn desc(kind: ItemKind, text: &str) -> Descriptor {
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
        Descriptor::from_raw(kind, &raw, 50)
    }

    #[test]
    fn a_template_makes_a_form_of_its_variables_and_a_uri() {
        let d = desc(ItemKind::Template, r#"{"name":"rows","uriTemplate":"db://{table}/rows{?column,limit}"}"#);
        assert_eq!(
            schema_of(&d).0,
            json!({"type": "object", "required": ["table"], "properties": {
                "table": {"type": "string", "description": "a variable of the URI template"},
                "column": {"type": "string", "description": "a variable of the URI template"},
                "limit": {"type": "string", "description": "a variable of the URI template"}}})
        );
        let theme = Theme::default();
        let mut fill = FillOverlay::new(&d, true);
        let ask = fill.first_ask();
        assert!(matches!(&ask, Some(Cmd::Complete(a)) if a.argument == "table" && a.partial.is_empty()), "{ask:?}");
        let mut cx = Ctx::new(&theme);
        for c in "orders".chars() {
            fill.key(&KeyEvent::new(crossterm::event::KeyCode::Char(c), crossterm::event::KeyModifiers::NONE), &mut cx);
        }
        assert_eq!(fill.uri().as_deref(), Some("db://orders/rows"));
        let asks = cx.effects.iter().filter(|e| matches!(e, Effect::Cmd(Cmd::Complete(_)))).count();
        assert_eq!(asks, 6, "one per change: the worker debounces");
        let p = desc(ItemKind::Prompt, r#"{"name":"p","arguments":[{"name":"a","required":true},{"name":"b"}]}"#);
        assert_eq!(schema_of(&p).0["required"], json!(["a"]));
    }

    #[test]
    fn the_suggestions_listed_are_those_that_fit_with_the_more_line() {
        let s = |n: usize, listed: usize| Suggestions {
            values: (0..n).map(|i| format!("v{i}")).collect(),
            listed,
            ..Suggestions::default()
        };
        // Head (2 rows) + 8 values + "… more".
        assert_eq!(fitting(&s(100, 100), 11), SHOWN);
        assert_eq!(fitting(&s(100, 100), 10), 7);
        assert_eq!(fitting(&s(100, 100), 5), 2);
        assert_eq!(fitting(&s(3, 3), 5), 3);
        assert_eq!(fitting(&s(3, 5), 5), 2);
        assert_eq!(fitting(&s(100, 100), 2), 0);
    }

    #[test]
    fn a_template_of_50k_variables_makes_a_form_of_the_first_few() {
        let vars: Vec<String> = (0..50_000).map(|i| format!("v{i}")).collect();
        let template = format!("file:///{{{}}}{{?{}}}", vars[..25_000].join(","), vars[25_000..].join(","));
        let d = desc(ItemKind::Template, &json!({"name": "wide", "uriTemplate": template}).to_string());
        let (schema, more) = schema_of(&d);
        assert_eq!(more, Some(None));
        assert_eq!(schema["properties"].as_object().map(Map::len), Some(MAX_FIELDS));
        let fill = FillOverlay::new(&d, false);
        assert!(fill.about.iter().all(|l| l.chars().count() < 500), "a line of the heading is not cut");
        let note = format!("over {MAX_FIELDS} variables: the first {MAX_FIELDS} are here; the rest are left out");
        assert!(fill.about.contains(&note), "{:?}", fill.about);
    }
}
