//! A request of the server's, over the panes until answered: an elicitation form built from
//! the requested schema (the tool form's fields, pickers and validation), a URL to open, or a
//! sampling request with the reply typed in. Ctrl-R accepts, Ctrl-O declines, Esc cancels; the
//! answer goes to the worker by the request's id.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use serde_json::{Map, Value};

use super::ask_form::AskForm;
use super::ask_request::RequestText;
use crate::mcp::asks::{self, Answer, AskKind, AskSchema, AskView};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Observed, Used};
use crate::ui::form::{FormOutcome, FormState};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::textarea::TextArea;
use crate::ui::theme::{Role, Theme};

/// The model a typed sampling reply reports: a person wrote it.
const MODEL: &str = "mcplens (typed by the user)";

enum Body {
    Form(Box<FormState>),
    /// A schema too big for the full form: a window over its fields.
    Big(Box<AskForm>),
    Url {
        url: String,
    },
    /// The reply being typed.
    Sampling {
        reply: TextArea,
    },
}

pub struct AskOverlay {
    id: String,
    method: &'static str,
    /// What the server asks in so many words: an elicitation's message, or the sampling
    /// request's messages and settings.
    text: RequestText,
    /// A sampling request summed up in a line, above it.
    summary: Option<String>,
    body: Body,
    /// Why the last Ctrl-R did not send.
    problem: Option<String>,
    /// Requests that came after this one, open once it is answered.
    waiting: usize,
}

impl AskOverlay {
    pub fn new(view: &AskView) -> AskOverlay {
        let (text, summary, body) = match &view.kind {
            AskKind::Form { message, schema } => {
                let body = form(schema);
                let text = RequestText::new(std::slice::from_ref(message));
                // A big form pages its fields with PageUp/PageDown: the message takes the others.
                let text = if matches!(body, Body::Big(_)) { text.with_last_keys() } else { text };
                (text, None, body)
            }
            AskKind::Url { message, url, .. } => {
                (RequestText::new(std::slice::from_ref(message)), None, Body::Url { url: url.clone() })
            }
            AskKind::Sampling { params, messages } => (
                RequestText::new(&asks::sampling_lines(params, *messages)),
                Some(view.kind.summary()),
                Body::Sampling { reply: TextArea::new("") },
            ),
        };
        AskOverlay { id: view.id.clone(), method: view.kind.method(), text, summary, body, problem: None, waiting: 0 }
    }

    fn answer(&self, answer: Answer, cx: &mut Ctx) -> Used {
        cx.cmd(Cmd::Answer { id: self.id.clone(), answer });
        cx.effects.push(Effect::Close);
        Used::Yes
    }

    /// Ctrl-R: the form's content (validated; Ctrl-V in the form sends it anyway), the typed
    /// reply, or consent to the URL.
    fn accept(&mut self, cx: &mut Ctx) -> Used {
        let answer = match &mut self.body {
            Body::Form(form) => {
                if !form.no_validate && !form.errors.is_empty() {
                    self.problem = Some(format!(
                        "{} problem(s) with the answer: fix them, or {} to send it anyway",
                        form.errors.len(),
                        keymap::key(Scope::Form, Command::ToggleValidate)
                    ));
                    return Used::Yes;
                }
                match form.arguments() {
                    Ok(Value::Object(content)) => Answer::Accept(content),
                    Ok(_) => Answer::Accept(Map::new()),
                    Err(e) => {
                        self.problem = Some(e);
                        return Used::Yes;
                    }
                }
            }
            Body::Big(form) => match big_answer(form) {
                Ok(content) => Answer::Accept(content),
                Err(problems) => {
                    form.notes = problems;
                    return Used::Yes;
                }
            },
            Body::Url { .. } => Answer::Accept(Map::new()),
            Body::Sampling { reply, .. } => {
                let text = reply.text();
                if text.trim().is_empty() {
                    let decline = keymap::key(Scope::Ask, Command::Decline);
                    self.problem = Some(format!("type the model's reply first ({decline} declines)"));
                    return Used::Yes;
                }
                Answer::Reply { text, model: MODEL.into() }
            }
        };
        self.answer(answer, cx)
    }

    fn url(&self) -> Option<&str> {
        match &self.body {
            Body::Url { url } => Some(url),
            _ => None,
        }
    }

    /// The body's own handling of a key; `None` when it is not the body's.
    fn body_key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Option<Used> {
        match &mut self.body {
            Body::Form(form) => match form.handle_key(k) {
                FormOutcome::Run => Some(self.accept(cx)),
                FormOutcome::Leave => Some(self.answer(Answer::Cancel, cx)),
                FormOutcome::Handled => Some(Used::Yes),
                FormOutcome::NotMine => {
                    let typed = form.swallows(k);
                    typed.then_some(Used::Yes)
                }
            },
            Body::Big(form) => match form.key(k) {
                FormOutcome::Run => Some(self.accept(cx)),
                FormOutcome::Leave => Some(self.answer(Answer::Cancel, cx)),
                FormOutcome::Handled => Some(Used::Yes),
                FormOutcome::NotMine => form.swallows(k).then_some(Used::Yes),
            },
            Body::Sampling { reply, .. } => reply.key(k).then_some(Used::Yes),
            Body::Url { .. } => None,
        }
    }
}

impl Component for AskOverlay {
    fn scope(&self) -> Scope {
        Scope::Ask
    }

    fn typing(&self) -> bool {
        !matches!(self.body, Body::Url { .. })
    }

    /// Decline first (no field takes Ctrl-O), the request's scrolling (a big form keeps
    /// PageUp/PageDown for its fields), then the form or the reply being typed, then this
    /// section's keys.
    fn key(&mut self, k: &KeyEvent, cx: &mut Ctx) -> Used {
        let own = keymap::lookup_own(k, Scope::Ask);
        if own == Some(Command::Decline) {
            return self.answer(Answer::Decline, cx);
        }
        let big_pages = matches!(self.body, Body::Big(_)) && matches!(k.code, KeyCode::PageUp | KeyCode::PageDown);
        if let Some(cmd @ (Command::PageUp | Command::PageDown)) = own
            && !big_pages
        {
            self.text.command(cmd);
            return Used::Yes;
        }
        if let Some(used) = self.body_key(k, cx) {
            self.problem = None;
            return used;
        }
        match own {
            Some(cmd) => self.command(cmd, cx),
            None => Used::No,
        }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Run => self.accept(cx),
            Command::Decline => self.answer(Answer::Decline, cx),
            Command::Leave | Command::Back => self.answer(Answer::Cancel, cx),
            Command::Open => match self.url().map(crate::opener::check_url) {
                Some(Ok(url)) => {
                    cx.cmd(Cmd::OpenUrl(url));
                    self.answer(Answer::Accept(Map::new()), cx)
                }
                Some(Err(e)) => {
                    self.problem = Some(e);
                    Used::Yes
                }
                None => Used::No,
            },
            Command::Copy => match self.url() {
                Some(url) => {
                    cx.cmd(Cmd::Copy(url.to_string()));
                    cx.notice("URL copied", false);
                    Used::Yes
                }
                None => Used::No,
            },
            _ => Used::No,
        }
    }

    /// The URL keys only when there is a URL.
    fn hints(&self) -> Vec<(String, String)> {
        let url = self.url().is_some();
        let hints = keymap::overlay_footer_of(Scope::Ask, |c| url || !matches!(c, Command::Open | Command::Copy));
        if url { hints } else { keymap::while_typing(hints) }
    }

    fn closes_on(&self, event: &Observed) -> bool {
        matches!(event, Observed::AskWithdrawn(id) if *id == self.id)
    }

    fn set_area(&mut self, area: Rect) {
        let inner = Block::bordered().inner(area);
        self.text.rows_at(inner.width as usize);
        let parts = self.parts(inner);
        self.text.set_area(parts.text);
        let body = parts.body;
        match &mut self.body {
            Body::Form(form) => form.follow(body),
            Body::Big(form) => form.set_rows(body.height as usize),
            Body::Sampling { reply } => {
                reply.follow(body.height.max(1) as usize);
                reply.follow_columns(body.width as usize);
            }
            Body::Url { .. } => {}
        }
    }

    fn set_waiting(&mut self, waiting: usize) {
        self.waiting = waiting;
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        let h = if self.url().is_some() { 12 } else { 36 };
        (area.width.saturating_sub(4).min(110), area.height.saturating_sub(2).min(h))
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let keys = keymap::said(
            Scope::Ask,
            &[(Command::Run, "accept"), (Command::Decline, "decline"), (Command::Leave, "cancel")],
        );
        let title = format!(" The server asks ({}) · {keys} ", self.method);
        let mut b = crate::ui::component::frame(theme, title, focused);
        if self.waiting > 0 {
            let said = match self.waiting {
                1 => " 1 more request waiting: it opens when this one is answered ".to_string(),
                n => format!(" {n} more requests waiting: the next opens when this one is answered "),
            };
            b = b.title_bottom(
                crate::ui::fit::title(said, area.width).style(theme.paint(Role::Warning)).right_aligned(),
            );
        }
        let inner = b.inner(area);
        f.render_widget(b, area);
        let parts = self.parts(inner);
        let mut head = vec![];
        if let Some(summary) = &self.summary {
            head.push(Line::styled(
                sanitize::line(summary).into_owned(),
                theme.paint(Role::Text).add_modifier(Modifier::BOLD),
            ));
        }
        if let Some(p) = &self.problem {
            head.push(Line::styled(format!("✖ {}", sanitize::line(p)), theme.paint(Role::Error)));
        }
        f.render_widget(Paragraph::new(head).wrap(Wrap { trim: false }), parts.head);
        let text_style = match self.body {
            Body::Sampling { .. } => theme.paint(Role::Text),
            _ => theme.paint(Role::Text).add_modifier(Modifier::BOLD),
        };
        self.text.draw(f, parts.text, theme, text_style);
        match &self.body {
            Body::Form(form) => form.draw_inside(f, parts.body, theme, focused),
            Body::Big(form) => form.draw(f, parts.body, theme),
            Body::Url { url } => draw_url(f, parts.body, theme, url),
            Body::Sampling { reply } => draw_sampling(f, (parts.sep, parts.body), theme, reply, focused),
        }
    }
}

/// The full form for a small schema, a window over the fields for a big one (see
/// [`crate::mcp::ask_schema::SMALL_SCHEMA`]) or one that cannot be read whole.
fn form(schema: &AskSchema) -> Body {
    match schema.is_small().then(|| schema.form_value()) {
        Some(Ok(v)) => Body::Form(Box::new(FormState::for_schema("the server's request", &v, None))),
        _ => Body::Big(Box::new(AskForm::new(schema.clone()))),
    }
}

/// The big form's content, checked unless validation is off; else what is wrong.
fn big_answer(form: &mut AskForm) -> Result<Map<String, Value>, Vec<String>> {
    let content = form.content().map_err(|e| vec![e])?;
    let problems = form.problems(&content);
    if problems.is_empty() {
        return Ok(content);
    }
    let off = keymap::key(Scope::Form, Command::ToggleValidate);
    let mut said = vec![format!("{} problem(s) with the answer: fix them, or {off} to send it anyway", problems.len())];
    said.extend(problems.into_iter().take(2));
    Err(said)
}

/// Where each part of the overlay goes inside its frame.
struct Parts {
    /// A sampling request's summary, and the problem with the last Ctrl-R.
    head: Rect,
    text: Rect,
    /// The line that says how to type a sampling reply.
    sep: Rect,
    body: Rect,
}

impl AskOverlay {
    /// A sampling request: its summary and the problem, the request (up to two thirds of the
    /// room left), the reply below. Else the message (up to a third), the problem, the body.
    fn parts(&self, inner: Rect) -> Parts {
        let problem = u16::from(self.problem.is_some());
        let rows = self.text.row_count().min(usize::from(u16::MAX)) as u16;
        if matches!(self.body, Body::Sampling { .. }) {
            let [head, _, rest] =
                Layout::vertical([Constraint::Length(1 + problem), Constraint::Length(1), Constraint::Min(1)])
                    .areas(inner);
            let shown = rows.min(rest.height.saturating_sub(2) * 2 / 3).max(1);
            let [text, _, sep, body] = Layout::vertical([
                Constraint::Length(shown),
                Constraint::Length(1),
                Constraint::Length(1),
                Constraint::Min(1),
            ])
            .areas(rest);
            return Parts { head, text, sep, body };
        }
        let shown = rows.min(inner.height / 3).max(1);
        let [text, head, _, body] = Layout::vertical([
            Constraint::Length(shown),
            Constraint::Length(problem),
            Constraint::Length(1),
            Constraint::Min(1),
        ])
        .areas(inner);
        Parts { head, text, sep: Rect::default(), body }
    }
}

fn draw_url(f: &mut Frame, area: Rect, theme: &Theme, url: &str) {
    let key = |cmd: Command| Span::styled(keymap::key(Scope::Ask, cmd), theme.paint(Role::Key));
    let lines = vec![
        Line::from(vec![
            Span::styled("URL  ", theme.paint(Role::Dim)),
            Span::styled(sanitize::line(url).into_owned(), theme.paint(Role::JsonString)),
        ]),
        // The real host, and user info flagged (`https://good.com@evil.com` opens evil.com).
        Line::from(vec![
            Span::styled("     ", theme.paint(Role::Dim)),
            Span::styled(crate::opener::destination(url), theme.paint(Role::Dim)),
        ]),
        Line::raw(""),
        Line::from(vec![
            key(Command::Open),
            Span::raw(" opens it in the browser and accepts · "),
            key(Command::Copy),
            Span::raw(" copies it"),
        ]),
        Line::from(vec![
            key(Command::Run),
            Span::raw(" accepts without opening · "),
            key(Command::Decline),
            Span::raw(" declines · "),
            key(Command::Leave),
            Span::raw(" cancels"),
        ]),
        Line::styled(
            "The server learns the outcome of the page on its own; the call goes on when it does.",
            theme.paint(Role::Dim),
        ),
    ];
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

/// The line that says how to type the reply, and the reply.
fn draw_sampling(f: &mut Frame, (sep, edit): (Rect, Rect), theme: &Theme, reply: &TextArea, focused: bool) {
    f.render_widget(
        Paragraph::new(Line::styled(
            format!(
                "The model's reply (type it; {} is a new line, {} sends):",
                keymap::key_name(crossterm::event::KeyCode::Enter),
                keymap::key(Scope::Ask, Command::Run)
            ),
            theme.paint(Role::Dim),
        )),
        sep,
    );
    // Long lines scroll sideways to keep the cursor in view, as in the form's JSON editor.
    let cursor = focused.then(|| theme.selection());
    f.render_widget(Paragraph::new(reply.view(edit.height as usize, edit.width as usize, cursor)), edit);
}
