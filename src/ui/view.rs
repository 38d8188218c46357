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
use crate::json_pretty::Token;
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
    let [schema, result] = Layout::vertical([Constraint::Min(6), Constraint::Length(6)]).areas(right);
    app.areas.tools = tools;
    app.areas.schema = schema;
    app.areas.result = result;
    app.areas.log = log.unwrap_or_default();
    draw_tools(f, app, tools);
    draw_schema(f, app, schema);
    draw_result(f, app, result);
    if let Some(l) = log {
        draw_log(f, app, l);
    }
    draw_footer(f, app, footer);
    if app.show_help {
        draw_help(f, app, area);
    }
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

fn json_style(theme: &super::theme::Theme, tok: Token) -> Style {
    let role = match tok {
        Token::Key => "json_key",
        Token::String => "json_string",
        Token::Number => "json_number",
        Token::Bool => "json_bool",
        Token::Null => "json_null",
        Token::Punct | Token::Space => "dim",
    };
    theme.fg(role)
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
                        .map(|(tok, txt)| Span::styled(sanitize::line(txt).into_owned(), json_style(&t, *tok)))
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

fn draw_result(f: &mut Frame, app: &App, area: Rect) {
    let b = block(app, Line::from(" Result "), Pane::Result);
    let text = match &app.notice {
        Some((n, err)) => {
            Line::styled(sanitize::line(n).into_owned(), app.theme.fg(if *err { "error" } else { "dim" }))
        }
        None => Line::styled(
            "No result yet. Tools run from their forms (coming with the forms issue); `mcplens call` runs them headless.",
            app.theme.fg("dim"),
        ),
    };
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).block(b), area);
}

/// `HH:MM:SS.mmm` (UTC) without a calendar crate.
fn clock(at: std::time::SystemTime) -> String {
    let ms = at.duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}.{:03}", (s / 3600) % 24, (s / 60) % 60, s % 60, ms % 1000)
}

fn draw_log(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let entries = app.log.as_ref().map(|l| l.entries()).unwrap_or_default();
    let title = format!(
        " Log ({} entries{}) ",
        entries.len(),
        if app.log_scroll > 0 { format!(", {} up", app.log_scroll) } else { String::new() }
    );
    let b = block(app, Line::from(title), Pane::Log);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let h = inner.height as usize;
    let end = entries.len().saturating_sub(app.log_scroll);
    let start = end.saturating_sub(h);
    let lines: Vec<Line> = entries[start..end]
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
        for (k, h) in keymap::footer(app.footer_scope()) {
            spans.push(Span::styled(format!(" {k}"), t.key()));
            spans.push(Span::styled(format!(" {h} "), t.fg("dim")));
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
    let w = area.width.saturating_sub(8).min(96);
    let h = area.height.saturating_sub(4);
    let r = Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h };
    f.render_widget(Clear, r);
    let mut lines = vec![];
    for scope in [Scope::Tools, Scope::Schema, Scope::Any] {
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
    let b = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(t.border(true))
        .title(Line::from(" Help: every key ").style(t.title(true)))
        .style(t.base());
    f.render_widget(Paragraph::new(lines).scroll((app.help_scroll as u16, 0)).block(b), r);
}
