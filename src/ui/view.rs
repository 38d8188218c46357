//! Rendering. Reads the model; draws only what fits on screen (the tool list renders its visible
//! window, the log its last screenful).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::app::{App, Areas, Conn, Pane};
use super::component::Component;
pub use super::component::{centered, overlay_block};
use super::keymap;
use super::theme::Role;
use crate::sanitize;

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

fn block<'a>(app: &App, title: Line<'a>, pane: Pane, keys: bool) -> Block<'a> {
    super::component::frame(&app.theme, title, keys && app.panes.has_keys(pane))
}

/// A pane's title as it fits on its top border: cut with `…` (a tool name, a snapshot's note).
fn titled(title: impl Into<String>, area: Rect) -> Line<'static> {
    super::fit::fit(Line::from(title.into()), area.width.saturating_sub(2) as usize)
}

/// Where each pane goes for `app` on a screen of `area`.
pub fn layout(app: &App, area: Rect) -> Areas {
    super::layout::layout(app.shape(), area)
}

pub fn draw(f: &mut Frame, app: &App) {
    draw_in(f, app, f.area(), None);
}

/// Draws `app` in `area` of the frame (the screen below the servers' strip, when several
/// servers are connected). `over`: the keys of what is drawn over the app and takes the keys
/// (a servers' picker), said in the footer; then nothing of the app is drawn focused.
pub fn draw_in(f: &mut Frame, app: &App, area: Rect, over: Option<&[(String, String)]>) {
    let keys = over.is_none();
    f.render_widget(Block::default().style(app.theme.base()), area);
    let has_keys = |pane| keys && app.panes.has_keys(pane);
    let a = layout(app, area);
    draw_server(f, app, a.top);
    if !a.tools.is_empty() {
        draw_tools(f, app, a.tools, keys);
    }
    if a.schema.is_empty() {
    } else if let Some(p) = app.shown_docked() {
        let b = block(app, titled(p.title(), a.schema), Pane::Docked, keys);
        let inner = b.inner(a.schema);
        f.render_widget(b, a.schema);
        p.draw(f, inner, &app.theme, has_keys(Pane::Docked));
    } else if let Some(form) = &app.panes.form {
        form.draw(f, a.schema, &app.theme, has_keys(Pane::Form));
    } else {
        draw_schema(f, app, a.schema, keys);
    }
    if !a.result.is_empty() {
        let drawn = super::components::result::Drawn {
            pages: app.panes.pages(),
            page: app.panes.page(),
            running: app.running.as_ref(),
            notice: app.notice.as_ref(),
            focused: has_keys(Pane::Result),
        };
        super::components::result::draw_pane(f, &drawn, a.result, &app.theme);
    }
    if !a.log.is_empty() {
        app.panes.log.draw(f, a.log, &app.theme, has_keys(Pane::Log));
    }
    match over {
        Some(hints) => draw_footer_over(f, app, a.footer, hints),
        None => draw_footer(f, app, a.footer),
    }
    // Each layer was told its area by `App::relayout`.
    app.panes.overlays.draw(f, area, &app.theme, keys);
    // Last, so that nothing drawn escapes it.
    super::mask::buffer(f.buffer_mut());
}

fn draw_server(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![];
    match &app.conn {
        Conn::Connecting { since } => {
            let frame = (since.elapsed().as_millis() / 100) as usize % SPINNER.len();
            spans.push(Span::styled(format!(" {} connecting ", SPINNER[frame]), t.paint(Role::Warning)));
        }
        Conn::Connected => spans.push(Span::styled(" ● connected ", t.paint(Role::Ok))),
        Conn::Down(_) => {
            let again = keymap::key(keymap::Scope::Any, keymap::Command::Reconnect);
            spans.push(Span::styled(format!(" ✖ disconnected ({again} reconnects) "), t.paint(Role::Error)))
        }
    }
    if let Some(login) = login_label(app.login.as_ref()) {
        spans.push(login);
    }
    if let Some(s) = &app.server {
        spans.push(Span::styled(
            sanitize::line_head(s.name(), 200).into_owned(),
            t.paint(Role::Title).add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {}", sanitize::line_head(s.version(), 200))));
        if let Some(title) = s.title() {
            spans.push(Span::styled(format!(" ({})", sanitize::line_head(title, 200)), t.paint(Role::Dim)));
        }
        spans.push(Span::styled(format!(" · protocol {}", sanitize::line(s.protocol_version())), t.paint(Role::Dim)));
        let caps = s.capabilities();
        if !caps.is_empty() {
            spans.push(Span::styled(format!(" · {}", sanitize::line(&caps.join(", "))), t.paint(Role::Dim)));
        }
    }
    spans.push(Span::styled(format!(" · {}", sanitize::line(&app.target_label)), t.paint(Role::Dim)));
    let line = super::fit::fit(Line::from(spans), area.width as usize);
    f.render_widget(Paragraph::new(line).style(t.status()), area);
}

/// What the footer says after the hints: the schema's node count, listing warnings.
fn footer_tail(app: &App) -> Vec<Span<'static>> {
    let t = &app.theme;
    let mut spans = vec![];
    if let Some(s) = &app.panes.schema
        && app.panes.focus == Pane::Schema
    {
        spans.push(Span::styled(format!(" {} nodes", s.nodes), t.paint(Role::Dim)));
    }
    if !app.panes.tools.warnings.is_empty() {
        let log = keymap::key(keymap::Scope::Any, keymap::Command::ToggleLog);
        spans.push(Span::styled(
            format!("  {} listing warning(s): see the log ({log})", app.panes.tools.warnings.len()),
            t.paint(Role::Warning),
        ));
    }
    spans
}

fn tail_width(tail: &[Span<'static>]) -> usize {
    tail.iter().map(Span::width).sum()
}

/// The login state of an HTTP server that asked for one (nothing for the others).
fn login_label(state: Option<&crate::mcp::auth::LoginState>) -> Option<Span<'static>> {
    use crate::mcp::auth::LoginState;
    let text = match state? {
        LoginState::None => return None,
        LoginState::InProgress => "⚿ logging in… ".to_string(),
        LoginState::LoggedIn { expires_at: Some(t), .. } => {
            let left = t.saturating_sub(crate::dirs::now_secs());
            if left == 0 {
                "⚿ token expired ".to_string()
            } else if left < 60 {
                "⚿ logged in (under a minute left) ".to_string()
            } else {
                format!("⚿ logged in ({} min left) ", left / 60)
            }
        }
        LoginState::LoggedIn { expires_at: None, .. } => "⚿ logged in ".to_string(),
    };
    Some(Span::raw(text))
}

fn draw_tools(f: &mut Frame, app: &App, area: Rect, keys: bool) {
    let b = block(app, titled(app.panes.tools.pane_title(), area), Pane::Tools, keys);
    let inner = b.inner(area);
    f.render_widget(b, area);
    app.panes.tools.draw(f, inner, &app.theme, app.panes.focus == Pane::Tools);
}

fn draw_schema(f: &mut Frame, app: &App, area: Rect, keys: bool) {
    let Some(s) = &app.panes.schema else {
        let b = block(app, Line::from(" Schema "), Pane::Schema, keys);
        let msg = Paragraph::new("Select a tool to see its schemas.").style(app.theme.paint(Role::Dim)).block(b);
        f.render_widget(msg, area);
        return;
    };
    let b = block(app, titled(s.pane_title(), area), Pane::Schema, keys);
    let inner = b.inner(area);
    f.render_widget(b, area);
    s.draw(f, inner, &app.theme, app.panes.focus == Pane::Schema);
}

/// The footer while something drawn over the app takes the keys: its keys, after the notice
/// (the result pane, where notices show, may be under it).
fn draw_footer_over(f: &mut Frame, app: &App, area: Rect, hints: &[(String, String)]) {
    let t = &app.theme;
    let mut spans = vec![];
    if let Some((n, err)) = &app.notice {
        let role = if *err { Role::Error } else { Role::Match };
        spans.push(Span::styled(format!(" {} ", sanitize::joined(n)), t.paint(role).add_modifier(Modifier::BOLD)));
        spans.push(Span::styled("·", t.paint(Role::Dim)));
    }
    let room = (area.width as usize).saturating_sub(Line::from(spans.clone()).width());
    spans.extend(super::fit::whole_hints(hints.iter().cloned(), room, (t.key(), t.paint(Role::Dim))));
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.status()), area);
}

fn draw_footer(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![];
    if app.panes.tools.filtering {
        spans.push(Span::styled(" filter: ", t.key()));
        let room = (area.width as usize).saturating_sub(40).max(10);
        spans.push(Span::raw(app.panes.tools.filter.view(room, true)));
        // The filter's keys are the text input's own (Enter keeps, Esc clears), named as the help does.
        let (keep, clear) =
            (keymap::key_name(crossterm::event::KeyCode::Enter), keymap::key_name(crossterm::event::KeyCode::Esc));
        spans.push(Span::styled(format!("  {keep} accept · {clear} clear"), t.paint(Role::Dim)));
    } else {
        let has_result = app.result().is_some();
        let next_page = app.panes.has_fetched_next() || app.result().is_some_and(|r| r.has_next_page());
        let hints: Vec<(String, String)> = match app.panes.overlays.top() {
            Some(top) => top.hints(),
            None if app.panes.focus == Pane::Log && app.panes.log.is_typing() => app.panes.log.hints(),
            None => keymap::footer(app.scope())
                .into_iter()
                .filter(|(_, _, cmd)| match cmd {
                    keymap::Command::NextView => has_result,
                    keymap::Command::NextPage => next_page,
                    _ => true,
                })
                .map(|(k, h, _)| (k, h))
                .collect(),
        };
        // The result pane, where notices show, is under the overlay: the footer says it.
        if let (Some((n, err)), false) = (&app.notice, app.panes.overlays.is_empty()) {
            let role = if *err { Role::Error } else { Role::Match };
            spans.push(Span::styled(format!(" {} ", sanitize::joined(n)), t.paint(role).add_modifier(Modifier::BOLD)));
            spans.push(Span::styled("·", t.paint(Role::Dim)));
        }
        // In the form, letters type: a plain character key (a docked pane's, `H`, `q`, `?`) does
        // not reach its command there, so the footer does not offer it; F1 still opens the help.
        let typing = app.panes.overlays.is_empty() && app.typing();
        let hints = if typing { keymap::while_typing(hints) } else { hints };
        let mut docked = if app.panes.overlays.is_empty() && !typing { app.docked_hints() } else { vec![] };
        docked.retain(|d| !hints.contains(d));
        // First, where a narrow footer does not cut it off: the one way to stop what runs.
        if app.running.is_some() || app.saved_running() {
            spans.push(Span::styled(
                format!(" {}", keymap::key(keymap::Scope::Any, keymap::Command::CancelCall)),
                t.key(),
            ));
            spans.push(Span::styled(" cancel call ", t.paint(Role::Dim)));
        }
        let tail = footer_tail(app);
        let room = (area.width as usize).saturating_sub(Line::from(spans.clone()).width() + tail_width(&tail));
        spans.extend(super::fit::whole_hints(hints.into_iter().chain(docked), room, (t.key(), t.paint(Role::Dim))));
        spans.extend(tail);
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.status()), area);
}
