//! Rendering. Reads the model; draws only what fits on screen (the tool list renders its visible
//! window, the log its last screenful).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use super::app::{App, Areas, Conn, Pane};
use super::component::Component;
use super::keymap;
use super::theme::Role;
use crate::sanitize;

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

fn block<'a>(app: &App, title: Line<'a>, pane: Pane) -> Block<'a> {
    let focused = app.focus == pane && app.overlays.is_empty();
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused { BorderType::Thick } else { BorderType::Rounded })
        .border_style(app.theme.border(focused))
        .title(title.style(app.theme.title(focused)))
}

/// A `w`×`h` rectangle centered in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// A `w`×`h` rectangle centered in `area`, cleared for an overlay.
fn overlay(f: &mut Frame, area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    let r = Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h };
    f.render_widget(Clear, r);
    r
}

/// The frame of an overlay (help, history, picker).
fn overlay_block<'a>(t: &super::theme::Theme, title: String) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(t.border(true))
        .title(Line::from(title).style(t.title(true)))
        .style(t.base())
}

/// Where each pane goes on a screen of `area`; a pane not shown gets an empty rectangle. Pure:
/// the update uses it for mouse hits and page sizes, the draw to place the panes.
pub fn layout(app: &App, area: Rect) -> Areas {
    let [top, main, footer] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(3), Constraint::Length(1)]).areas(area);
    let mut a = Areas { top, footer, ..Areas::default() };
    if app.zoom {
        match app.focus {
            Pane::Tools => a.tools = main,
            Pane::Schema | Pane::Form => a.schema = main,
            Pane::Result => a.result = main,
            Pane::Log => a.log = main,
        }
        return a;
    }
    let main = if app.show_log {
        let [m, l] = Layout::vertical([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(main);
        a.log = l;
        m
    } else {
        main
    };
    let [tools, right] = Layout::horizontal([Constraint::Percentage(34), Constraint::Percentage(66)]).areas(main);
    // The focused one of schema/form and result gets the room; a result left from an earlier
    // call does not squeeze the form being filled in.
    let has_result = app.result().is_some() || app.running.is_some();
    let result_h = match app.focus {
        Pane::Result => Constraint::Percentage(75),
        Pane::Form | Pane::Schema if has_result => Constraint::Percentage(30),
        _ if has_result => Constraint::Percentage(50),
        _ => Constraint::Length(6),
    };
    let [schema, result] = Layout::vertical([Constraint::Min(6), result_h]).areas(right);
    (a.tools, a.schema, a.result) = (tools, schema, result);
    a
}

pub fn draw(f: &mut Frame, app: &mut App) {
    let area = f.area();
    f.render_widget(Block::default().style(app.theme.base()), area);
    let a = layout(app, area);
    draw_server(f, app, a.top);
    if !a.tools.is_empty() {
        draw_tools(f, app, a.tools);
    }
    if a.schema.is_empty() {
    } else if app.form.is_some() {
        draw_form(f, app, a.schema);
    } else {
        draw_schema(f, app, a.schema);
    }
    if !a.result.is_empty() {
        super::components::result::draw_pane(f, app, a.result);
    }
    if !a.log.is_empty() {
        draw_log(f, app, a.log);
    }
    draw_footer(f, app, a.footer);
    // Bottom first; each was told its area by `App::relayout`.
    for layer in app.overlays.layers() {
        let (w, h) = layer.overlay_size(area);
        let r = overlay(f, area, w, h);
        layer.draw(f, r, &app.theme, true);
    }
    for layer in app.overlays.layers() {
        let (w, h) = layer.overlay_size(area);
        let r = overlay(f, area, w, h);
        layer.draw(f, r, &app.theme, true);
    }
}

fn kind_hint(f: &crate::schema::form::Field) -> String {
    use crate::schema::form::Kind;
    let base = match &f.kind {
        Kind::Text => {
            f.schema.get("format").and_then(|v| v.as_str()).map_or("string".to_string(), |fm| format!("string, {fm}"))
        }
        Kind::Integer => "integer".into(),
        Kind::Number => "number".into(),
        Kind::Boolean => "boolean: Space toggles".into(),
        Kind::Enum(o) => format!("one of {}: Space picks", o.len()),
        Kind::MultiEnum(o) => format!("any of {}: Space picks", o.len()),
        Kind::Const(_) => "const".into(),
        Kind::Object => "object".into(),
        Kind::Array => format!("array, {} item(s)", f.children.len()),
        Kind::Variant(v) => format!("one of {} variants: Space picks", v.len()),
        Kind::Recursive => "recursive".into(),
        Kind::Json => "JSON".into(),
    };
    if f.nullable { format!("{base} or null") } else { base }
}

fn draw_form(f: &mut Frame, app: &mut App, area: Rect) {
    use super::form::RowKind;
    let t = app.theme.clone();
    let Some(form) = &mut app.form else { return };
    let focused = app.focus == Pane::Form && app.overlays.is_empty();
    let mut title = format!(" Form: {} · Ctrl-R run · Ctrl-T JSON · Esc back ", sanitize::line(&form.tool));
    if form.raw.is_some() {
        title.push_str("· JSON mode ");
    }
    if form.no_validate {
        title.push_str("· validation OFF ");
    }
    let b = Block::default()
        .borders(Borders::ALL)
        .border_type(if focused { BorderType::Thick } else { BorderType::Rounded })
        .border_style(t.border(focused))
        .title(Line::from(title).style(t.title(focused)));
    let inner = b.inner(area);
    f.render_widget(b, area);

    // Bottom: the focused field's hints, its errors, and messages.
    let mut info: Vec<Line> = vec![];
    if form.confirm {
        info.push(Line::styled(
            format!("{} is marked destructive. Run it? y / N", sanitize::line(&form.tool)),
            t.paint(Role::Error).add_modifier(Modifier::BOLD),
        ));
    }
    if let Some(m) = &form.message {
        info.push(Line::styled(sanitize::line(m).into_owned(), t.paint(Role::Warning)));
    }
    if let Some(p) = &form.schema_problem {
        info.push(Line::styled(sanitize::line(p).into_owned(), t.paint(Role::Warning)));
    }
    if form.raw.is_none()
        && let Some(field) = form.focused_field()
    {
        for h in field.hints() {
            info.push(Line::styled(sanitize::line(&h).into_owned(), t.paint(Role::Dim)));
        }
    }
    for e in form.loose_errors().into_iter().take(3) {
        info.push(Line::styled(format!("✖ {}", sanitize::line(e)), t.paint(Role::Error)));
    }
    if form.errors.is_empty() && form.raw.is_none() {
        info.push(Line::styled("✔ arguments valid", t.paint(Role::Ok)));
    }
    let info_h = (info.len() as u16 + 1).min(inner.height / 2).max(2);
    let [rows_area, info_area] = Layout::vertical([Constraint::Min(1), Constraint::Length(info_h)]).areas(inner);
    let sep = Block::default().borders(Borders::TOP).border_style(t.border(false));
    f.render_widget(Paragraph::new(info).wrap(Wrap { trim: false }).block(sep), info_area);

    let h = rows_area.height as usize;
    if let Some(ta) = &mut form.raw {
        ta.follow(h);
        let lines: Vec<Line> = ta
            .lines
            .iter()
            .enumerate()
            .skip(ta.scroll)
            .take(h)
            .map(|(i, l)| {
                if i == ta.row {
                    let col = ta.col.min(l.chars().count());
                    let (a, b): (String, String) = (l.chars().take(col).collect(), l.chars().skip(col).collect());
                    let mut bs = b.chars();
                    let cur = bs.next().map_or(" ".to_string(), |c| c.to_string());
                    Line::from(vec![
                        Span::raw(sanitize::line(&a).into_owned()),
                        Span::styled(sanitize::line(&cur).into_owned(), t.selection()),
                        Span::raw(sanitize::line(&bs.collect::<String>()).into_owned()),
                    ])
                } else {
                    Line::raw(sanitize::line(l).into_owned())
                }
            })
            .collect();
        f.render_widget(Paragraph::new(lines), rows_area);
        return;
    }
    if form.focus < form.scroll {
        form.scroll = form.focus;
    } else if form.focus >= form.scroll + h.max(1) {
        form.scroll = form.focus + 1 - h.max(1);
    }
    let mut lines = vec![];
    for (i, row) in form.rows.iter().enumerate().skip(form.scroll).take(h) {
        let indent = "  ".repeat(row.depth.min(30));
        let is_focus = i == form.focus;
        let mut spans = vec![Span::raw(indent)];
        match row.kind {
            RowKind::AddItem => spans.push(Span::styled("+ add item (Enter)", t.paint(Role::Key))),
            RowKind::AddKey => {
                spans.push(Span::styled("+ add key: ", t.paint(Role::Key)));
                spans.push(Span::raw(sanitize::line(&form.new_key).into_owned()));
                if is_focus {
                    spans.push(Span::styled("▏", t.paint(Role::Match)));
                }
                spans.push(Span::styled("  (type a name, Enter)", t.paint(Role::Dim)));
            }
            RowKind::Field => {
                let Some(field) = crate::schema::form::field_at(&form.form.root, &row.path) else { continue };
                let key = if field.key.is_empty() {
                    "(arguments)".to_string()
                } else {
                    sanitize::line(&field.key).into_owned()
                };
                spans.push(Span::styled(key, t.paint(Role::Text).add_modifier(Modifier::BOLD)));
                if field.required {
                    spans.push(Span::styled("*", t.paint(Role::Required)));
                }
                spans.push(Span::styled(": ", t.paint(Role::Dim)));
                let (value, set) = super::form::FormState::display(field);
                if set || !value.is_empty() {
                    let mut style = t.paint(if set { Role::JsonString } else { Role::Dim });
                    if is_focus && form.selected_value() {
                        // Selected: the first key typed replaces it.
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    spans.push(Span::styled(sanitize::line(&value).into_owned(), style));
                }
                if is_focus && field.is_text() {
                    spans.push(Span::styled("▏", t.paint(Role::Match)));
                }
                if !set && value.is_empty() {
                    spans.push(Span::styled(format!(" ({}; omitted)", kind_hint(field)), t.paint(Role::Dim)));
                }
                for e in form.errors_at(&row.path).into_iter().take(1) {
                    spans.push(Span::styled(
                        format!("  ✖ {}", sanitize::truncate(&sanitize::line(e), 120)),
                        t.paint(Role::Error),
                    ));
                }
            }
        }
        let line = Line::from(spans);
        lines.push(if is_focus { line.style(t.selection()) } else { line });
    }
    if lines.is_empty() {
        lines.push(Line::styled("This tool takes no arguments: Ctrl-R runs it.", t.paint(Role::Dim)));
    }
    f.render_widget(Paragraph::new(lines), rows_area);
    if let Some(p) = &form.picker {
        let w = p.options.iter().map(|o| o.chars().count()).max().unwrap_or(10) as u16 + 8;
        let r = overlay(f, rows_area, w, p.options.len() as u16 + 2);
        let hgt = r.height;
        let skip = p.cursor.saturating_sub(hgt.saturating_sub(3) as usize);
        let items: Vec<Line> = p
            .options
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(i, o)| {
                let mark = match &p.multi {
                    Some(on) => {
                        if on.get(i).copied().unwrap_or(false) {
                            "[x] "
                        } else {
                            "[ ] "
                        }
                    }
                    None => "",
                };
                let l = Line::raw(format!("{mark}{}", sanitize::line(o)));
                if i == p.cursor { l.style(t.selection()) } else { l }
            })
            .collect();
        let hint = if p.multi.is_some() { " Space toggles · Enter done " } else { " Enter picks · Esc cancels " };
        let b = overlay_block(&t, hint.to_string());
        f.render_widget(Paragraph::new(items).block(b), r);
    }
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
        Conn::Down(_) => spans.push(Span::styled(" ✖ disconnected (R reconnects) ", t.paint(Role::Error))),
    }
    if let Some(s) = &app.server {
        spans.push(Span::styled(
            sanitize::line(s.name()).into_owned(),
            t.paint(Role::Title).add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {}", sanitize::line(s.version()))));
        if let Some(title) = s.title() {
            spans.push(Span::styled(format!(" ({})", sanitize::line(title)), t.paint(Role::Dim)));
        }
        spans.push(Span::styled(format!(" · protocol {}", sanitize::line(s.protocol_version())), t.paint(Role::Dim)));
        let caps = s.capabilities();
        if !caps.is_empty() {
            spans.push(Span::styled(format!(" · {}", sanitize::line(&caps.join(", "))), t.paint(Role::Dim)));
        }
    }
    spans.push(Span::styled(format!(" · {}", sanitize::line(&app.target_label)), t.paint(Role::Dim)));
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.status()), area);
}

fn draw_tools(f: &mut Frame, app: &App, area: Rect) {
    let b = block(app, Line::from(app.list.pane_title()), Pane::Tools);
    let inner = b.inner(area);
    f.render_widget(b, area);
    app.list.draw(f, inner, &app.theme, app.focus == Pane::Tools);
}

fn draw_schema(f: &mut Frame, app: &App, area: Rect) {
    let Some(s) = &app.schema else {
        let b = block(app, Line::from(" Schema "), Pane::Schema);
        let msg = Paragraph::new("Select a tool to see its schemas.").style(app.theme.paint(Role::Dim)).block(b);
        f.render_widget(msg, area);
        return;
    };
    let b = block(app, Line::from(s.pane_title()), Pane::Schema);
    let inner = b.inner(area);
    f.render_widget(b, area);
    s.draw(f, inner, &app.theme, app.focus == Pane::Schema);
}

fn draw_log(f: &mut Frame, app: &App, area: Rect) {
    let focused = app.focus == Pane::Log && app.overlays.is_empty();
    app.log.draw(f, area, &app.theme, focused);
}

fn draw_footer(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![];
    if app.list.filtering {
        spans.push(Span::styled(" filter: ", t.key()));
        spans.push(Span::raw(sanitize::line(&app.list.filter).into_owned()));
        spans.push(Span::styled("▏", t.paint(Role::Match)));
        spans.push(Span::styled("  Enter accept · Esc clear", t.paint(Role::Dim)));
    } else {
        let has_result = app.result().is_some();
        let next_page = app.page + 1 < app.results.len() || app.result().is_some_and(|r| r.has_next_page());
        let hints: Vec<(String, String)> = match app.overlays.top() {
            Some(top) => top.hints(),
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
        for (k, h) in hints {
            spans.push(Span::styled(format!(" {k}"), t.key()));
            spans.push(Span::styled(format!(" {h} "), t.paint(Role::Dim)));
        }
        if app.running.is_some() {
            spans.push(Span::styled(" Ctrl-K", t.key()));
            spans.push(Span::styled(" cancel call ", t.paint(Role::Dim)));
        }
        if let Some(s) = &app.schema
            && app.focus == Pane::Schema
        {
            spans.push(Span::styled(format!(" {} nodes", s.nodes), t.paint(Role::Dim)));
        }
        if !app.list.warnings.is_empty() {
            spans.push(Span::styled(
                format!("  {} listing warning(s): see the log (L)", app.list.warnings.len()),
                t.paint(Role::Warning),
            ));
        }
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.status()), area);
}
