//! The result pane: a call's result in its four views (the model is `ui::result::ResultState`,
//! built when the result arrives or a view is first shown). Keys here: search, n/N, `o` (the
//! value whole, in an overlay), copy, export, `d`, `s`, and the shown view's navigation. The
//! app keeps paging, teaching and the switch between views.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::value::ValueOverlay;
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::{Cmd, Purpose, Running};
use crate::ui::result::ResultState;
use crate::ui::result::view::Answer;
use crate::ui::theme::{Role, Theme};

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

impl Component for ResultState {
    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn typing(&self) -> bool {
        self.search_open()
    }

    /// While a search prompt is open, every key but Ctrl-C goes to it.
    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.search_key(key) { Used::Yes } else { Used::No }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match self.view_command(cmd) {
            Answer::NotMine => {}
            Answer::Done => return Used::Yes,
            Answer::Notice(n) => {
                cx.notice(n, false);
                return Used::Yes;
            }
        }
        match cmd {
            Command::Search => {
                if !self.open_search() {
                    cx.notice("nothing to search in this view", false);
                }
            }
            Command::Open => self.open_value(cx),
            Command::Copy => match self.copy_text() {
                Some(text) => {
                    cx.notice(format!("copied {} bytes to the clipboard (OSC 52)", text.len()), false);
                    cx.cmd(Cmd::Copy(text));
                }
                None => cx.notice("nothing to copy here", false),
            },
            Command::Export => {
                let (name, text) = self.export();
                cx.cmd(Cmd::Export { name, text });
            }
            Command::DecodeTexts => cx.notice("d works in the Raw view (4) of a result with a reply", false),
            Command::OpenResource => match self.resource_link() {
                Some(link) => super::read::open_link(link, cx),
                None => cx.notice("this result has no resource_link or embedded resource", false),
            },
            Command::SwitchSide => cx.notice("s switches sides in the Split view (2)", false),
            Command::Back => return if self.back() { Used::Yes } else { Used::No },
            // Enter on a value (not a fold, not a record) shows it whole, as `o` does.
            Command::Activate => {
                if !self.navigate(cmd) {
                    self.open_value(cx);
                }
            }
            other => return if self.navigate(other) { Used::Yes } else { Used::No },
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        self.render(f, area, theme, focused);
    }
}

impl ResultState {
    fn open_value(&mut self, cx: &mut Ctx) {
        match self.value_text() {
            Some((title, text)) => cx.effects.push(Effect::Push(Box::new(ValueOverlay::new(&title, &text)))),
            None if self.empty_list() => {
                cx.notice(format!("{}: no record to open", crate::ui::result::table::EMPTY), false)
            }
            None => cx.notice("nothing selected to show", false),
        }
    }
}

/// What the result pane draws, handed over by the view: the fetched pages and the shown one,
/// the call under way, the status line's notice.
pub struct Drawn<'a> {
    pub pages: &'a [ResultState],
    pub page: usize,
    pub running: Option<&'a Running>,
    pub notice: Option<&'a (String, bool)>,
    pub focused: bool,
}

impl Drawn<'_> {
    fn result(&self) -> Option<&ResultState> {
        self.pages.get(self.page)
    }
}

/// The pane's title: the tool being run while a call runs, else the shown result's.
fn title(app: &Drawn) -> String {
    if let Some(run) = app.running {
        let was = app.result().map(|r| format!(" · below: {}", sanitize::line(&r.call.tool))).unwrap_or_default();
        return format!(" Result: {} · running…{was} ", sanitize::line(&run.tool));
    }
    match app.result() {
        Some(r) => {
            // Which of the pages fetched in this session is shown: not the server's page number,
            // which the header gives (a call may start at any offset).
            let pages = if app.pages.len() > 1 {
                format!(" · {} of {} fetched", app.page + 1, app.pages.len())
            } else {
                String::new()
            };
            let next = keymap::key(Scope::Result, Command::NextView);
            let views = [Command::View1, Command::View4].map(|c| keymap::key(Scope::Result, c));
            let keys = format!("{next} next, {}…{}", views[0], views[1]);
            format!(" Result: {} · {} ({keys}){pages} ", sanitize::line(&r.call.tool), r.view.name())
        }
        None => " Result ".to_string(),
    }
}

/// The running call's line: spinner, what, how long, progress.
fn running_line(app: &Drawn, t: &Theme) -> Option<Line<'static>> {
    let run = app.running?;
    let secs = run.started.elapsed().as_secs_f32();
    let frame = (run.started.elapsed().as_millis() / 100) as usize % SPINNER.len();
    let what = match run.purpose {
        Purpose::New => "running",
        Purpose::NextPage => "fetching the next page of",
        Purpose::AllPages => "fetching every page of",
    };
    let mut spans = vec![
        Span::styled(
            format!("{} {what} {} ", SPINNER[frame], sanitize::line(&run.tool)),
            t.paint(Role::Warning).add_modifier(Modifier::BOLD),
        ),
        Span::styled(format!("{secs:.1}s "), t.paint(Role::Dim)),
    ];
    if let Some(p) = &run.progress {
        match p.total.filter(|t| *t > 0.0) {
            Some(total) => {
                let frac = (p.progress / total).clamp(0.0, 1.0);
                let w = 20usize;
                let done = (frac * w as f64).round() as usize;
                spans.push(Span::styled(format!("[{}{}] ", "█".repeat(done), "░".repeat(w - done)), t.paint(Role::Ok)));
                spans.push(Span::raw(format!("{}/{} ", p.progress, total)));
            }
            None => spans.push(Span::raw(format!("progress {} ", p.progress))),
        }
        if let Some(m) = &p.message {
            spans.push(Span::styled(sanitize::line(m).into_owned(), t.paint(Role::Text)));
        }
    }
    spans.push(Span::styled(format!("  {} cancels", keymap::key(Scope::Any, Command::CancelCall)), t.paint(Role::Key)));
    Some(Line::from(spans))
}

/// The result pane: its frame, the notice and the running call, then the shown result.
pub fn draw_pane(f: &mut Frame, app: &Drawn, area: Rect, t: &Theme) {
    let focused = app.focused;
    let title = crate::ui::fit::fit(Line::from(title(app)), area.width.saturating_sub(2) as usize);
    let b = crate::ui::component::frame(t, title, focused);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let mut lines: Vec<Line> = vec![];
    if let Some((n, err)) = app.notice {
        let role = t.paint(if *err { Role::Error } else { Role::Dim });
        // A message of several lines (a server's last stderr lines) keeps them.
        lines.extend(n.lines().map(|l| Line::styled(sanitize::line(l).into_owned(), role)));
    }
    lines.extend(running_line(app, t));
    if app.result().is_none() && app.running.is_none() && app.notice.is_none() {
        let (open, run) = (keymap::key(Scope::Tools, Command::Open), keymap::key(Scope::Form, Command::Run));
        let text = format!("No result yet: {open} on a tool opens its form, {run} runs it.");
        lines.push(Line::styled(text, t.paint(Role::Dim)));
    }
    // Wrapped, so that a long notice is read whole; beside a result it takes a third at most.
    let w = (inner.width as usize).max(1);
    let wrapped: usize = lines.iter().map(|l| l.width().div_ceil(w).max(1)).sum();
    let cap = if app.result().is_some() { (inner.height / 3).max(lines.len() as u16).max(2) } else { inner.height };
    let status_h = (wrapped as u16).min(cap).min(inner.height);
    let [status, body] = Layout::vertical([Constraint::Length(status_h), Constraint::Min(0)]).areas(inner);
    f.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }), status);
    if let Some(r) = app.result() {
        r.draw(f, body, t, focused);
    }
}
