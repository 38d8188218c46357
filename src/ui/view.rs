//! Rendering. Reads the model; draws only what fits on screen (the tool list renders its visible
//! window, the log its last screenful).

use std::time::UNIX_EPOCH;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use tui_tree_widget::Tree;

use super::app::{App, Conn, Pane};
use super::keymap::{self, BINDINGS, EXTRA_HELP, Scope};
use crate::mcp::log::LogKind;
use crate::sanitize;

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

fn block<'a>(app: &App, title: Line<'a>, pane: Pane) -> Block<'a> {
    let focused = app.focus == pane && !app.show_help;
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused { BorderType::Thick } else { BorderType::Rounded })
        .border_style(app.theme.border(focused))
        .title(title.style(app.theme.title(focused)))
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

pub fn draw(f: &mut Frame, app: &mut App) {
    let area = f.area();
    f.render_widget(Block::default().style(app.theme.base()), area);
    let [top, main, footer] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(6), Constraint::Length(1)]).areas(area);
    draw_server(f, app, top);
    let (main, log) = if app.show_log {
        let [m, l] = Layout::vertical([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(main);
        (m, Some(l))
    } else {
        (main, None)
    };
    let [tools, right] = Layout::horizontal([Constraint::Percentage(34), Constraint::Percentage(66)]).areas(main);
    let result_h = if app.focus == Pane::Result {
        Constraint::Percentage(75)
    } else if app.result().is_some() || app.running.is_some() {
        Constraint::Percentage(50)
    } else {
        Constraint::Length(6)
    };
    let [schema, result] = Layout::vertical([Constraint::Min(6), result_h]).areas(right);
    app.areas.tools = tools;
    app.areas.schema = schema;
    app.areas.result = result;
    app.areas.log = log.unwrap_or_default();
    draw_tools(f, app, tools);
    if app.form.is_some() {
        draw_form(f, app, schema);
    } else {
        draw_schema(f, app, schema);
    }
    super::components::result::draw_pane(f, app, result);
    if let Some(l) = log {
        draw_log(f, app, l);
    }
    draw_footer(f, app, footer);
    if app.show_history {
        draw_history(f, app, area);
    }
    if app.show_help {
        draw_help(f, app, area);
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
    let focused = app.focus == Pane::Form && !app.show_help && !app.show_history;
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
            t.fg("error").add_modifier(Modifier::BOLD),
        ));
    }
    if let Some(m) = &form.message {
        info.push(Line::styled(sanitize::line(m).into_owned(), t.fg("warning")));
    }
    if let Some(p) = &form.schema_problem {
        info.push(Line::styled(sanitize::line(p).into_owned(), t.fg("warning")));
    }
    if form.raw.is_none()
        && let Some(field) = form.focused_field()
    {
        for h in field.hints() {
            info.push(Line::styled(sanitize::line(&h).into_owned(), t.fg("dim")));
        }
    }
    for e in form.loose_errors().into_iter().take(3) {
        info.push(Line::styled(format!("✖ {}", sanitize::line(e)), t.fg("error")));
    }
    if form.errors.is_empty() && form.raw.is_none() {
        info.push(Line::styled("✔ arguments valid", t.fg("ok")));
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
            RowKind::AddItem => spans.push(Span::styled("+ add item (Enter)", t.fg("key"))),
            RowKind::AddKey => {
                spans.push(Span::styled("+ add key: ", t.fg("key")));
                spans.push(Span::raw(sanitize::line(&form.new_key).into_owned()));
                if is_focus {
                    spans.push(Span::styled("▏", t.fg("match")));
                }
                spans.push(Span::styled("  (type a name, Enter)", t.fg("dim")));
            }
            RowKind::Field => {
                let Some(field) = crate::schema::form::field_at(&form.form.root, &row.path) else { continue };
                let key = if field.key.is_empty() {
                    "(arguments)".to_string()
                } else {
                    sanitize::line(&field.key).into_owned()
                };
                spans.push(Span::styled(key, t.fg("text").add_modifier(Modifier::BOLD)));
                if field.required {
                    spans.push(Span::styled("*", t.fg("required")));
                }
                spans.push(Span::styled(": ", t.fg("dim")));
                let (value, set) = super::form::FormState::display(field);
                if set || !value.is_empty() {
                    spans.push(Span::styled(
                        sanitize::line(&value).into_owned(),
                        t.fg(if set { "json_string" } else { "dim" }),
                    ));
                }
                if is_focus && field.is_text() {
                    spans.push(Span::styled("▏", t.fg("match")));
                }
                if !set && value.is_empty() {
                    spans.push(Span::styled(format!(" ({}; omitted)", kind_hint(field)), t.fg("dim")));
                }
                for e in form.errors_at(&row.path).into_iter().take(1) {
                    spans.push(Span::styled(
                        format!("  ✖ {}", sanitize::truncate(&sanitize::line(e), 120)),
                        t.fg("error"),
                    ));
                }
            }
        }
        let line = Line::from(spans);
        lines.push(if is_focus { line.style(t.selection()) } else { line });
    }
    if lines.is_empty() {
        lines.push(Line::styled("This tool takes no arguments: Ctrl-R runs it.", t.fg("dim")));
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

fn draw_history(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let r = overlay(f, area, area.width.saturating_sub(6).min(110), area.height.saturating_sub(6));
    let h = r.height;
    let n = app.history.entries.len();
    let mut lines: Vec<Line> = vec![];
    if n == 0 {
        lines.push(Line::styled("No calls yet for this server.", t.fg("dim")));
    }
    let rows = h.saturating_sub(2) as usize;
    let skip = app.history_cursor.saturating_sub(rows.saturating_sub(1));
    for (pos, e) in app.history.entries.iter().rev().enumerate().skip(skip).take(rows) {
        let secs = e.at % 86_400;
        let role = if e.status == "ok" { "ok" } else { "error" };
        let line = Line::from(vec![
            Span::styled(format!("{:02}:{:02}:{:02} ", secs / 3600, secs / 60 % 60, secs % 60), t.fg("dim")),
            Span::styled(format!("{:<10} ", sanitize::truncate(&e.status, 10)), t.fg(role)),
            Span::styled(format!("{:>7} ms ", e.duration_ms), t.fg("dim")),
            Span::styled(format!("{} ", sanitize::line(&e.tool)), t.fg("text").add_modifier(Modifier::BOLD)),
            Span::styled(
                sanitize::truncate(&sanitize::line(&e.arguments.to_string()), 200).into_owned(),
                t.fg("json_string"),
            ),
        ]);
        lines.push(if pos == app.history_cursor { line.style(t.selection()) } else { line });
    }
    let b = overlay_block(t, format!(" History: {n} call(s) · Enter reopen · r re-run · Esc close "));
    f.render_widget(Paragraph::new(lines).block(b), r);
}

fn draw_server(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![];
    match &app.conn {
        Conn::Connecting { since } => {
            let frame = (since.elapsed().as_millis() / 100) as usize % SPINNER.len();
            spans.push(Span::styled(format!(" {} connecting ", SPINNER[frame]), t.fg("warning")));
        }
        Conn::Connected => spans.push(Span::styled(" ● connected ", t.fg("ok"))),
        Conn::Down(_) => spans.push(Span::styled(" ✖ disconnected (R reconnects) ", t.fg("error"))),
    }
    if let Some(s) = &app.server {
        spans.push(Span::styled(sanitize::line(s.name()).into_owned(), t.fg("title").add_modifier(Modifier::BOLD)));
        spans.push(Span::raw(format!(" {}", sanitize::line(s.version()))));
        if let Some(title) = s.title() {
            spans.push(Span::styled(format!(" ({})", sanitize::line(title)), t.fg("dim")));
        }
        spans.push(Span::styled(format!(" · protocol {}", sanitize::line(s.protocol_version())), t.fg("dim")));
        let caps = s.capabilities();
        if !caps.is_empty() {
            spans.push(Span::styled(format!(" · {}", sanitize::line(&caps.join(", "))), t.fg("dim")));
        }
    }
    spans.push(Span::styled(format!(" · {}", sanitize::line(&app.target_label)), t.fg("dim")));
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.status()), area);
}

fn draw_tools(f: &mut Frame, app: &mut App, area: Rect) {
    let t = app.theme.clone();
    let title = if app.filter.is_empty() {
        format!(" Tools ({}) ", app.tools.len())
    } else {
        format!(" Tools ({}/{} match \"{}\") ", app.visible.len(), app.tools.len(), sanitize::line(&app.filter))
    };
    let b = block(app, Line::from(title), Pane::Tools);
    let inner = b.inner(area);
    f.render_widget(b, area);
    app.list_height = inner.height as usize;
    match &app.conn {
        Conn::Connecting { since } if app.tools.is_empty() => {
            let msg =
                format!("connecting to {} … {:.1}s", sanitize::line(&app.target_label), since.elapsed().as_secs_f32());
            f.render_widget(Paragraph::new(msg).style(t.fg("warning")).wrap(Wrap { trim: true }), inner);
            return;
        }
        Conn::Down(err) if app.tools.is_empty() => {
            let text = Text::from(vec![
                Line::styled("Could not connect:", t.fg("error").add_modifier(Modifier::BOLD)),
                Line::raw(""),
            ])
            .patch_style(Style::default());
            let mut lines = text.lines;
            for l in sanitize::text(err).lines() {
                lines.push(Line::styled(l.to_string(), t.fg("error")));
            }
            lines.push(Line::raw(""));
            lines.push(Line::styled("Press R to reconnect, L for the log, q to quit.", t.fg("dim")));
            f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
            return;
        }
        _ => {}
    }
    if app.visible.is_empty() {
        let msg = if app.tools.is_empty() {
            "This server lists no tools."
        } else {
            "No tool matches the filter (Esc clears it)."
        };
        f.render_widget(Paragraph::new(msg).style(t.fg("dim")), inner);
        return;
    }
    if app.cursor >= app.offset + app.list_height.max(1) {
        app.offset = app.cursor + 1 - app.list_height.max(1);
    }
    let rows: Vec<Line> = app
        .visible
        .iter()
        .enumerate()
        .skip(app.offset)
        .take(inner.height as usize)
        .map(|(pos, &i)| {
            let tool = &app.tools[i];
            let (mark, mark_style) = if tool.problem().is_some() {
                ("! ", t.fg("error"))
            } else if tool.destructive() {
                ("⚠ ", t.fg("warning"))
            } else if tool.read_only() {
                ("· ", t.fg("ok"))
            } else {
                ("  ", t.fg("dim"))
            };
            let name = sanitize::line(tool.name()).into_owned();
            let mut spans = vec![Span::styled(mark, mark_style)];
            match tool.title() {
                Some(title) => {
                    spans.push(Span::raw(sanitize::line(title).into_owned()));
                    spans.push(Span::styled(format!(" {name}"), t.fg("dim")));
                }
                None => spans.push(Span::raw(if name.is_empty() { "(no name)".to_string() } else { name })),
            }
            let line = Line::from(spans);
            if pos == app.cursor { line.style(t.selection()) } else { line }
        })
        .collect();
    f.render_widget(Paragraph::new(rows), inner);
}

fn draw_schema(f: &mut Frame, app: &mut App, area: Rect) {
    let t = app.theme.clone();
    let Some(tool) = app.selected_tool().cloned() else {
        let b = block(app, Line::from(" Schema "), Pane::Schema);
        f.render_widget(Paragraph::new("Select a tool to see its schemas.").style(t.fg("dim")).block(b), area);
        return;
    };
    let raw_mode = app.schema.as_ref().is_some_and(|s| s.raw.is_some());
    let mut title = format!(" {} ", sanitize::line(tool.name()));
    if let Some(tt) = tool.title() {
        title = format!(" {} — {} ", sanitize::line(tool.name()), sanitize::line(tt));
    }
    if raw_mode {
        title.push_str("· raw JSON as sent ");
    }
    let b = block(app, Line::from(title), Pane::Schema);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let mut header: Vec<Line> = vec![];
    if let Some(p) = tool.problem() {
        header.push(Line::styled(format!("malformed descriptor: {p}"), t.fg("error")));
    }
    if !raw_mode && let Some(d) = tool.description() {
        for l in sanitize::text(d).lines().take(4) {
            header.push(Line::styled(l.to_string(), t.fg("text")));
        }
    }
    let width = inner.width.max(1) as usize;
    let wrapped: usize = header.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
    let header_h = (wrapped as u16).min(inner.height / 3);
    let [head, body] = Layout::vertical([Constraint::Length(header_h), Constraint::Min(1)]).areas(inner);
    if header_h > 0 {
        f.render_widget(Paragraph::new(header).wrap(Wrap { trim: false }), head);
    }
    let Some(s) = &mut app.schema else { return };
    if let Some(raw) = &s.raw {
        let lines: Vec<Line> = raw
            .iter()
            .skip(s.raw_scroll)
            .take(body.height as usize)
            .map(|l| {
                Line::from(
                    l.iter()
                        .map(|(tok, txt)| {
                            Span::styled(sanitize::line(txt).into_owned(), super::result::token_style(&t, *tok))
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        f.render_widget(Paragraph::new(lines), body);
        return;
    }
    // The selected node in full under the tree: long lines are cut at the pane's edge.
    let detail = s.selected_node().map(|n| super::schema_view::node_line(n, &t));
    let detail_h =
        detail.as_ref().map_or(0, |l| (l.width().max(1).div_ceil(body.width.max(1) as usize) as u16).min(4) + 1);
    let [tree_area, detail_area] = Layout::vertical([Constraint::Min(1), Constraint::Length(detail_h)]).areas(body);
    if let Ok(tree) = Tree::new(&s.items) {
        let tree = tree
            .highlight_style(t.selection())
            .node_closed_symbol("▸ ")
            .node_open_symbol("▾ ")
            .node_no_children_symbol("  ");
        f.render_stateful_widget(tree, tree_area, &mut s.state);
    }
    if let Some(line) = detail {
        let block = Block::default().borders(Borders::TOP).border_style(t.border(false));
        f.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }).block(block), detail_area);
    }
}

/// `HH:MM:SS.mmm` (UTC) without a calendar crate.
fn clock(at: std::time::SystemTime) -> String {
    let ms = at.duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}.{:03}", (s / 3600) % 24, (s / 60) % 60, s % 60, ms % 1000)
}

fn draw_log(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let total = app.log.as_ref().map_or(0, |l| l.len());
    let title = format!(
        " Log ({} entries{}) ",
        total,
        if app.log_scroll > 0 { format!(", {} up", app.log_scroll) } else { String::new() }
    );
    let b = block(app, Line::from(title), Pane::Log);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let entries = app.log.as_ref().map(|l| l.window(app.log_scroll, inner.height as usize)).unwrap_or_default();
    let lines: Vec<Line> = entries
        .iter()
        .map(|e| {
            let role = match e.kind {
                LogKind::Stderr => "text",
                LogKind::Sent => "json_key",
                LogKind::Received => "json_string",
                LogKind::Warning => "warning",
                LogKind::Info => "ok",
            };
            let text = sanitize::truncate(&e.text, 2000).into_owned();
            Line::from(vec![
                Span::styled(format!("{} ", clock(e.at)), t.fg("dim")),
                Span::styled(format!("{:<6} ", e.kind.label()), t.fg(role).add_modifier(Modifier::BOLD)),
                Span::styled(
                    sanitize::line(&text).into_owned(),
                    t.fg(if e.kind == LogKind::Warning { "warning" } else { "text" }),
                ),
            ])
        })
        .collect();
    if lines.is_empty() {
        f.render_widget(Paragraph::new("Nothing logged yet.").style(t.fg("dim")), inner);
    } else {
        f.render_widget(Paragraph::new(lines), inner);
    }
}

fn draw_footer(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![];
    if app.filtering {
        spans.push(Span::styled(" filter: ", t.key()));
        spans.push(Span::raw(sanitize::line(&app.filter).into_owned()));
        spans.push(Span::styled("▏", t.fg("match")));
        spans.push(Span::styled("  Enter accept · Esc clear", t.fg("dim")));
    } else {
        let has_result = app.result().is_some();
        let next_page = app.page + 1 < app.results.len() || app.result().is_some_and(|r| r.has_next_page());
        for (k, h, cmd) in keymap::footer(app.scope()) {
            if !has_result && cmd == keymap::Command::NextView || !next_page && cmd == keymap::Command::NextPage {
                continue;
            }
            spans.push(Span::styled(format!(" {k}"), t.key()));
            spans.push(Span::styled(format!(" {h} "), t.fg("dim")));
        }
        if app.running.is_some() {
            spans.push(Span::styled(" Ctrl-K", t.key()));
            spans.push(Span::styled(" cancel call ", t.fg("dim")));
        }
        if let Some(s) = &app.schema
            && app.focus == Pane::Schema
        {
            spans.push(Span::styled(format!(" {} nodes", s.nodes), t.fg("dim")));
        }
        if !app.list_warnings.is_empty() {
            spans.push(Span::styled(
                format!("  {} listing warning(s): see the log (L)", app.list_warnings.len()),
                t.fg("warning"),
            ));
        }
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(t.status()), area);
}

fn draw_help(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let r = overlay(f, area, area.width.saturating_sub(4).min(116), area.height.saturating_sub(2));
    let mut lines = vec![];
    for scope in [Scope::Tools, Scope::Schema, Scope::Form, Scope::Result, Scope::History, Scope::Any] {
        lines.push(Line::styled(scope.title(), t.title(true)));
        for b in BINDINGS.iter().filter(|b| b.scope == scope) {
            lines.push(Line::from(vec![Span::styled(format!("  {:<12}", b.label), t.key()), Span::raw(b.help)]));
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled("Also", t.title(true)));
    for (k, h) in EXTRA_HELP {
        lines.push(Line::from(vec![Span::styled(format!("  {k:<16}"), t.key()), Span::raw(*h)]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(format!("  theme: {} · any other key closes this help", t.name), t.fg("dim")));
    let b = overlay_block(t, " Help: every key · j/k PgUp/PgDn scroll · any other key closes ".into());
    f.render_widget(Paragraph::new(lines).scroll((app.help_scroll as u16, 0)).block(b), r);
}
