//! A call's result in four views, each built once (lazily, the first time it is shown):
//! Envelope (header, then a records table, a JSON tree, or the error), Split (structuredContent
//! beside _meta, with the outputSchema check), Content (the blocks in order), Raw (the reply as
//! the server sent it).

use std::sync::Arc;

use base64::Engine;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use serde_json::Value;
use serde_json::value::RawValue;

use super::app::CallResult;
use super::jsonview::JsonView;
use super::keymap::Command;
use super::theme::{Role, Theme};
use crate::envelope::{Envelope, ResponseType};
use crate::json_pretty::{self, Token};
use crate::sanitize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Envelope,
    Split,
    Content,
    Raw,
}

impl View {
    pub const ALL: [View; 4] = [View::Envelope, View::Split, View::Content, View::Raw];

    pub fn name(self) -> &'static str {
        match self {
            View::Envelope => "Envelope",
            View::Split => "Split: structuredContent | _meta",
            View::Content => "Content",
            View::Raw => "Raw",
        }
    }

    pub fn next(self) -> View {
        let i = View::ALL.iter().position(|v| *v == self).unwrap_or(0);
        View::ALL[(i + 1) % View::ALL.len()]
    }
}

pub fn token_style(theme: &Theme, tok: Token) -> ratatui::style::Style {
    theme.paint(match tok {
        Token::Key => Role::JsonKey,
        Token::String => Role::JsonString,
        Token::Number => Role::JsonNumber,
        Token::Bool => Role::JsonBool,
        Token::Null => Role::JsonNull,
        Token::Punct | Token::Space => Role::Dim,
    })
}

pub fn json_lines(text: &str, theme: &Theme, max: usize) -> Vec<Line<'static>> {
    json_pretty::lines(text, max)
        .into_iter()
        .map(|l| {
            Line::from(
                l.into_iter()
                    .map(|(tok, s)| Span::styled(sanitize::line(&s).into_owned(), token_style(theme, tok)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

/// A list's records as a table: columns from the records' keys, nested values folded.
pub struct Table {
    pub env: Arc<Envelope>,
    pub columns: Vec<(String, usize)>,
    pub cursor: usize,
    pub top: usize,
    pub height: usize,
    /// A record opened with Enter.
    pub record: Option<JsonView>,
}

fn cell(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) => format!("{{…{}}}", m.len()),
        Value::Array(a) => format!("[{}]", a.len()),
        other => other.to_string(),
    }
}

impl Table {
    fn new(env: Arc<Envelope>) -> Table {
        let mut columns: Vec<(String, usize)> = vec![];
        let n = env.item_count();
        // The first and the last records: widths of ids and counters grow towards the end.
        let tail = n.saturating_sub(200).max(200.min(n));
        for item in (0..200.min(n)).chain(tail..n).filter_map(|i| env.data.item(i)) {
            match item.as_ref() {
                Value::Object(m) => {
                    for (k, v) in m {
                        let w = cell(v).chars().count().min(40);
                        if let Some(col) = columns.iter_mut().find(|(c, _)| c == k) {
                            col.1 = col.1.max(w);
                        } else if columns.len() < 40 {
                            columns.push((k.clone(), w.max(k.chars().count())));
                        }
                    }
                }
                other => {
                    let w = cell(other).chars().count().min(60);
                    if let Some(col) = columns.iter_mut().find(|(c, _)| c == "value") {
                        col.1 = col.1.max(w);
                    } else {
                        columns.push(("value".into(), w.max(5)));
                    }
                }
            }
        }
        Table { env, columns, cursor: 0, top: 0, height: 10, record: None }
    }

    fn command(&mut self, cmd: Command) -> bool {
        if let Some(r) = &mut self.record {
            return r.command(cmd);
        }
        let n = self.env.item_count();
        if n == 0 {
            return false;
        }
        let page = self.height.saturating_sub(1).max(1);
        self.cursor = match cmd {
            Command::Down => self.cursor + 1,
            Command::Up => self.cursor.saturating_sub(1),
            Command::PageDown => self.cursor + page,
            Command::PageUp => self.cursor.saturating_sub(page),
            Command::Top => 0,
            Command::Bottom => n - 1,
            Command::Activate | Command::Open | Command::Expand => {
                let text = self.env.data.item_text(self.cursor).unwrap_or_default().into_owned();
                self.record = Some(JsonView::from_text(Arc::<str>::from(text), &format!("data[{}]", self.cursor)));
                return true;
            }
            _ => return false,
        }
        .min(n - 1);
        true
    }

    fn render(&mut self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool, first_item: usize) {
        if let Some(r) = &mut self.record {
            r.render(f, area, theme, focused);
            return;
        }
        self.height = area.height.saturating_sub(2) as usize;
        let h = self.height.max(1);
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + h {
            self.top = self.cursor + 1 - h;
        }
        let n = self.env.item_count();
        let num_w = (first_item + n).to_string().len().max(1);
        let mut head = vec![Span::styled(format!("{:>num_w$} ", "#"), theme.paint(Role::Dim))];
        for (c, w) in &self.columns {
            head.push(Span::styled(
                format!("{:<w$} ", sanitize::truncate(&sanitize::line(c), *w)),
                theme.paint(Role::JsonKey).add_modifier(Modifier::BOLD),
            ));
        }
        let mut lines = vec![Line::from(head)];
        for (i, item) in (self.top..n.min(self.top + h)).filter_map(|i| Some((i, self.env.data.item(i)?))) {
            let item = item.as_ref();
            let mut spans = vec![Span::styled(format!("{:>num_w$} ", first_item + i + 1), theme.paint(Role::Dim))];
            for (c, w) in &self.columns {
                let v = match item {
                    Value::Object(m) => m.get(c),
                    other if c == "value" => Some(other),
                    _ => None,
                };
                let (text, role) = match v {
                    None => (String::new(), Role::Dim),
                    Some(Value::String(s)) => (s.clone(), Role::JsonString),
                    Some(Value::Number(n)) => (n.to_string(), Role::JsonNumber),
                    Some(Value::Bool(b)) => (b.to_string(), Role::JsonBool),
                    Some(Value::Null) => ("null".into(), Role::JsonNull),
                    Some(other) => (cell(other), Role::Dim),
                };
                let shown = sanitize::truncate(&sanitize::line(&text), *w).into_owned();
                spans.push(Span::styled(format!("{shown:<w$} "), theme.paint(role)));
            }
            let line = Line::from(spans);
            lines.push(if i == self.cursor && focused { line.style(theme.selection()) } else { line });
        }
        let foot = format!("data[{}] · {} columns · Enter opens the record", self.cursor, self.columns.len());
        let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
        f.render_widget(Paragraph::new(lines), body);
        f.render_widget(Paragraph::new(Line::styled(foot, theme.paint(Role::Key))), footer);
    }
}

/// structuredContent larger than this is not validated in the TUI (the tree would cost ten
/// times its size).
const CHECK_MAX: usize = 4 << 20;

/// Over this size a reply's other views are dropped when they leave the screen (each costs a
/// row model of ~32 bytes per JSON node) and rebuilt when shown again (~20 ms per 100k records).
const SHED_OVER: usize = 1 << 20;

pub enum Body {
    Table(Box<Table>),
    Tree(Box<JsonView>),
    Lines(Vec<Line<'static>>, usize),
}

/// Where this result sits in a paged list.
#[derive(Debug, Clone, Copy, Default)]
pub struct Page {
    /// 0-based page number.
    pub index: usize,
    /// Items before this page.
    pub first_item: usize,
}

pub struct ResultState {
    pub call: CallResult,
    pub view: View,
    pub page: Page,
    header: Vec<Line<'static>>,
    body: Option<Body>,
    split: Option<(Option<JsonView>, Option<JsonView>, Vec<Line<'static>>)>,
    pub split_right: bool,
    content: Option<(Vec<Line<'static>>, usize)>,
    raw: Option<Body>,
    /// The Raw view shows the JSON that text blocks carry as trees (`d`).
    pub raw_decoded: bool,
}

/// `list · success · items 51–100 of 150 · page 2 · ] next`
pub fn header_text(e: &Envelope, page: Page) -> String {
    let mut parts = vec![e.response_type.as_str().to_string()];
    if let Some(s) = e.status {
        parts.push(format!("{s:?}").to_lowercase());
    }
    let returned = e.summary.as_ref().and_then(|s| s.returned).unwrap_or(0) as usize;
    let total = e.summary.as_ref().and_then(|s| s.total);
    if e.data.is_array() {
        let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
        if returned == 0 {
            parts.push(format!("no items{of}"));
        } else {
            parts.push(format!("items {}–{}{of}", page.first_item + 1, page.first_item + returned));
        }
    }
    if let Some(p) = &e.pagination {
        parts.push(format!("page {}", page.index + 1));
        match p.has_more {
            Some(true) => parts.push("] next · A all pages".into()),
            _ => parts.push("last page".into()),
        }
        if page.index > 0 {
            parts.push("[ previous".into());
        }
    }
    if let Some(pager) = e.metadata.as_ref().and_then(|m| m.get("pager")) {
        parts.push(format!("gathered from {} pages", pager["pages"]));
    }
    parts.join(" · ")
}

fn image_size(mime: &str, data: &[u8]) -> Option<(u32, u32)> {
    let be32 = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    if data.len() >= 24 && data.starts_with(b"\x89PNG") {
        return Some((be32(&data[16..20]), be32(&data[20..24])));
    }
    if data.len() >= 10 && data.starts_with(b"GIF8") {
        return Some((
            u32::from(u16::from_le_bytes([data[6], data[7]])),
            u32::from(u16::from_le_bytes([data[8], data[9]])),
        ));
    }
    if mime.contains("jpeg") || data.starts_with(&[0xFF, 0xD8]) {
        let mut i = 2;
        while i + 9 < data.len() {
            if data[i] != 0xFF {
                return None;
            }
            let marker = data[i + 1];
            let len = usize::from(u16::from_be_bytes([data[i + 2], data[i + 3]]));
            if (0xC0..=0xC3).contains(&marker) {
                let h = u16::from_be_bytes([data[i + 5], data[i + 6]]);
                let w = u16::from_be_bytes([data[i + 7], data[i + 8]]);
                return Some((u32::from(w), u32::from(h)));
            }
            i += 2 + len;
        }
    }
    None
}

fn human_bytes(n: usize) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MB", n as f64 / (1 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

/// Terminal rendering of markdown: headings, emphasis, bullets, code, as plain styled lines.
fn markdown(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![];
    let mut in_code = false;
    for raw in sanitize::text(text).lines() {
        let l = raw.trim_end();
        if l.trim_start().starts_with("```") {
            in_code = !in_code;
            out.push(Line::styled("  ────", theme.paint(Role::Dim)));
            continue;
        }
        if in_code {
            out.push(Line::styled(format!("  {l}"), theme.paint(Role::JsonString)));
            continue;
        }
        if let Some(h) = l.strip_prefix('#') {
            let level = 1 + h.chars().take_while(|c| *c == '#').count();
            let title = h.trim_start_matches('#').trim();
            let style = theme.paint(Role::Title).add_modifier(Modifier::BOLD);
            out.push(Line::styled(if level == 1 { title.to_uppercase() } else { title.to_string() }, style));
            continue;
        }
        let (bullet, rest) = match l.trim_start().strip_prefix("- ").or_else(|| l.trim_start().strip_prefix("* ")) {
            Some(r) => ("  • ", r),
            None => ("", l),
        };
        let mut spans = vec![Span::styled(bullet.to_string(), theme.paint(Role::Key))];
        // **bold** and `code` spans.
        let mut bold = false;
        let mut code = false;
        let mut cur = String::new();
        let mut chars = rest.chars().peekable();
        let flush = |cur: &mut String, spans: &mut Vec<Span<'static>>, bold: bool, code: bool| {
            if !cur.is_empty() {
                let mut st = theme.paint(if code { Role::JsonString } else { Role::Text });
                if bold {
                    st = st.add_modifier(Modifier::BOLD);
                }
                spans.push(Span::styled(std::mem::take(cur), st));
            }
        };
        while let Some(c) = chars.next() {
            if c == '*' && chars.peek() == Some(&'*') && !code {
                chars.next();
                flush(&mut cur, &mut spans, bold, code);
                bold = !bold;
            } else if c == '`' {
                flush(&mut cur, &mut spans, bold, code);
                code = !code;
            } else {
                cur.push(c);
            }
        }
        flush(&mut cur, &mut spans, bold, code);
        out.push(Line::from(spans));
    }
    out
}

fn content_lines(result: &Value, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![];
    let Some(blocks) = result.get("content").and_then(Value::as_array) else {
        out.push(Line::styled("This result has no content array.", theme.paint(Role::Dim)));
        return out;
    };
    if blocks.is_empty() {
        out.push(Line::styled("The content array is empty.", theme.paint(Role::Dim)));
    }
    for (i, b) in blocks.iter().enumerate() {
        let kind = b.get("type").and_then(Value::as_str).unwrap_or("(no type)");
        let s = |k: &str| b.get(k).and_then(Value::as_str).map(|v| sanitize::line(v).into_owned());
        let mut head = format!("#{} {}", i + 1, sanitize::line(kind));
        let mut body: Vec<Line<'static>> = vec![];
        match kind {
            "text" => match b.get("text") {
                Some(Value::String(t)) => {
                    head.push_str(&format!(" · {} chars", t.chars().count()));
                    match serde_json::from_str::<Value>(t) {
                        Ok(Value::Object(_) | Value::Array(_)) => {
                            head.push_str(" · JSON");
                            body = json_lines(t, theme, 5_000);
                        }
                        _ => body = markdown(t, theme),
                    }
                }
                other => body.push(Line::styled(
                    format!(
                        "text is not a string: {}",
                        sanitize::line(&other.map(|v| v.to_string()).unwrap_or_default())
                    ),
                    theme.paint(Role::Warning),
                )),
            },
            "image" | "audio" => {
                let mime = s("mimeType").unwrap_or_else(|| "?".into());
                let data = b.get("data").and_then(Value::as_str).unwrap_or("");
                let bytes = base64::engine::general_purpose::STANDARD.decode(data.trim());
                head.push_str(&format!(" · {mime}"));
                match bytes {
                    Ok(bytes) => {
                        head.push_str(&format!(" · {}", human_bytes(bytes.len())));
                        if kind == "image"
                            && let Some((w, h)) = image_size(&mime, &bytes)
                        {
                            head.push_str(&format!(" · {w}×{h}"));
                        }
                    }
                    Err(e) => {
                        body.push(Line::styled(format!("data is not valid base64: {e}"), theme.paint(Role::Warning)))
                    }
                }
            }
            "resource_link" => {
                head.push_str(&format!(" · {}", s("uri").unwrap_or_default()));
                for k in ["name", "title", "mimeType", "description", "size"] {
                    if let Some(v) = b.get(k) {
                        body.push(Line::styled(
                            format!("  {k}: {}", sanitize::line(&crate::schema::tree::compact(v))),
                            theme.paint(Role::Text),
                        ));
                    }
                }
            }
            "resource" => {
                let r = b.get("resource").cloned().unwrap_or(Value::Null);
                let rs = |k: &str| r.get(k).and_then(Value::as_str).map(|v| sanitize::line(v).into_owned());
                head.push_str(&format!(
                    " · {} · {}",
                    rs("uri").unwrap_or_default(),
                    rs("mimeType").unwrap_or_else(|| "?".into())
                ));
                if let Some(t) = r.get("text").and_then(Value::as_str) {
                    body = markdown(t, theme);
                } else if let Some(blob) = r.get("blob").and_then(Value::as_str) {
                    body.push(Line::styled(
                        format!("  binary, about {}", human_bytes(blob.len() / 4 * 3)),
                        theme.paint(Role::Dim),
                    ));
                }
            }
            _ => body = json_lines(&b.to_string(), theme, 2_000),
        }
        out.push(Line::styled(head, theme.paint(Role::Title).add_modifier(Modifier::BOLD)));
        if let Some(a) = b.get("annotations") {
            out.push(Line::styled(
                format!("  annotations: {}", sanitize::line(&a.to_string())),
                theme.paint(Role::Dim),
            ));
        }
        out.extend(body);
        out.push(Line::raw(""));
    }
    out
}

impl ResultState {
    pub fn new(call: CallResult, page: Page, theme: &Theme) -> ResultState {
        let mut header = vec![];
        let took = format!("{:.0} ms", call.elapsed.as_secs_f64() * 1000.0);
        match &call.envelope {
            None => header.push(Line::styled(
                format!(
                    "{} failed after {took}: {}",
                    sanitize::line(&call.tool),
                    sanitize::line(call.error.as_deref().unwrap_or("no reply"))
                ),
                theme.paint(Role::Error).add_modifier(Modifier::BOLD),
            )),
            Some(env) => {
                let role = if env.response_type == ResponseType::Error { Role::Error } else { Role::Ok };
                header.push(Line::from(vec![
                    Span::styled(header_text(env, page), theme.paint(role).add_modifier(Modifier::BOLD)),
                    Span::styled(format!("  ({took})"), theme.paint(Role::Dim)),
                ]));
                if let Some(source) = env.metadata.as_ref().and_then(|m| m.get("source")).and_then(Value::as_str) {
                    let records = match env.data.is_array() {
                        true => {
                            format!(", {} record{}", env.item_count(), if env.item_count() == 1 { "" } else { "s" })
                        }
                        false => String::new(),
                    };
                    header.push(Line::styled(
                        format!("from {}{records}", sanitize::line(source)),
                        theme.paint(Role::Dim),
                    ));
                }
                if let Some(w) = call.reply.as_ref().map(|r| &r.warnings).filter(|w| !w.is_empty()) {
                    header.push(Line::styled(
                        format!(
                            "⚠ the result breaks the MCP schema: {} (all in the log, L; Raw view: 4)",
                            sanitize::line(&w.join("; "))
                        ),
                        theme.paint(Role::Warning),
                    ));
                }
                if let Some(err) = &env.error {
                    let code = if err.code.is_null() { String::new() } else { format!("{} ", err.code) };
                    header.push(Line::styled(
                        format!("✖ error {code}{}", sanitize::line(err.message.as_deref().unwrap_or(""))),
                        theme.paint(Role::Error).add_modifier(Modifier::BOLD),
                    ));
                } else if let Some(m) = env.message.as_ref().filter(|_| !env.data.is_null()) {
                    for l in sanitize::text(m).lines().take(3) {
                        header.push(Line::styled(l.to_string(), theme.paint(Role::Text)));
                    }
                }
            }
        }
        ResultState {
            call,
            view: View::Envelope,
            page,
            header,
            body: None,
            split: None,
            split_right: false,
            content: None,
            raw: None,
            raw_decoded: false,
        }
    }

    /// One member of the reply's `result` (or of its JSON-RPC `error`), parsed from the raw text
    /// on demand: the parsed reply itself was taken apart by the envelope.
    fn result_member(&self, key: &str) -> Option<Value> {
        #[derive(serde::Deserialize)]
        struct Outer<'a> {
            #[serde(borrow, default)]
            result: Option<&'a RawValue>,
            #[serde(borrow, default)]
            error: Option<&'a RawValue>,
        }
        let raw = &self.call.reply.as_ref()?.raw;
        let outer: Outer = serde_json::from_str(raw).ok()?;
        let body = outer.result.or(outer.error)?;
        if key.is_empty() {
            return crate::json_depth::parse(body.get(), crate::json_depth::DEFAULT_MAX_DEPTH).ok();
        }
        let members: std::collections::HashMap<&str, &RawValue> = serde_json::from_str(body.get()).ok()?;
        crate::json_depth::parse(members.get(key)?.get(), crate::json_depth::DEFAULT_MAX_DEPTH).ok()
    }

    /// Shows `view`; for a big reply the views left behind give back their memory.
    pub fn set_view(&mut self, view: View) {
        if view != self.view && self.call.reply.as_ref().is_some_and(|r| r.raw.len() > SHED_OVER) {
            if view != View::Split {
                self.split = None;
            }
            if view != View::Content {
                self.content = None;
            }
            if view != View::Raw {
                self.raw = None;
            }
        }
        self.view = view;
    }

    /// Builds the current view if it was not built yet.
    fn ensure(&mut self, theme: &Theme) {
        match self.view {
            View::Envelope if self.body.is_none() => {
                self.body = Some(match &self.call.envelope {
                    None => Body::Lines(vec![], 0),
                    Some(env) if env.response_type == ResponseType::Error => {
                        let mut lines = vec![];
                        if let Some(err) = &env.error {
                            lines.push(Line::styled(format!("code: {}", err.code), theme.paint(Role::Error)));
                            lines.push(Line::styled(
                                format!("message: {}", sanitize::line(err.message.as_deref().unwrap_or(""))),
                                theme.paint(Role::Error),
                            ));
                            if !err.details.is_null() {
                                lines.push(Line::styled("details:", theme.paint(Role::Error)));
                                lines.extend(json_lines(&err.details.to_string(), theme, 5_000));
                            }
                        }
                        Body::Lines(lines, 0)
                    }
                    Some(env) if env.data.is_array() => Body::Table(Box::new(Table::new(env.clone()))),
                    // A text answer (most servers send one): what the server said, whole.
                    Some(env) if env.data.is_null() && env.message.is_some() => {
                        Body::Lines(markdown(env.message.as_deref().unwrap_or(""), theme), 0)
                    }
                    Some(env) => {
                        Body::Tree(Box::new(JsonView::from_text(Arc::<str>::from(env.data.json().to_string()), "data")))
                    }
                });
            }
            View::Split if self.split.is_none() => {
                #[derive(serde::Deserialize)]
                struct Parts<'a> {
                    #[serde(borrow, rename = "structuredContent")]
                    structured: Option<&'a RawValue>,
                    #[serde(borrow, rename = "_meta")]
                    meta: Option<&'a RawValue>,
                }
                #[derive(serde::Deserialize)]
                struct Reply<'a> {
                    #[serde(borrow)]
                    result: Option<Parts<'a>>,
                }
                let raw = self.call.reply.as_ref().map(|r| r.raw.clone()).unwrap_or_default();
                let parts = serde_json::from_str::<Reply>(&raw).ok().and_then(|r| r.result);
                // Views over the reply's own text: a 10 MB structuredContent is not copied.
                let view = |rv: Option<&RawValue>, name: &str| {
                    rv.map(|v| {
                        let start = v.get().as_ptr() as usize - raw.as_ptr() as usize;
                        JsonView::from_text_in(raw.clone(), start..start + v.get().len(), name)
                    })
                };
                let left = view(parts.as_ref().and_then(|p| p.structured), "structuredContent");
                let right = view(parts.as_ref().and_then(|p| p.meta), "_meta");
                let mut check = vec![];
                let sc_len = parts.as_ref().and_then(|p| p.structured).map_or(0, |s| s.get().len());
                // Validating needs the parsed tree, ten times the text: not for a big result.
                let checkable = sc_len <= CHECK_MAX;
                let sc = self
                    .call
                    .output_schema
                    .as_ref()
                    .filter(|_| checkable)
                    .and_then(|_| self.result_member("structuredContent"));
                match (&self.call.output_schema, &sc) {
                    (Some(_), None) if !checkable => check.push(Line::styled(
                        format!(
                            "structuredContent is {:.1} MB: not checked against the outputSchema here \
                             (mcplens call --json, then a validator, checks it)",
                            sc_len as f64 / (1 << 20) as f64
                        ),
                        theme.paint(Role::Warning),
                    )),
                    (Some(schema), Some(sc)) => match crate::schema::validate::validate(schema, sc) {
                        Ok(v) if v.is_empty() => check.push(Line::styled(
                            "✔ structuredContent matches the tool's outputSchema",
                            theme.paint(Role::Ok),
                        )),
                        Ok(v) => {
                            check.push(Line::styled(
                                format!("✖ structuredContent breaks the outputSchema in {} place(s):", v.len()),
                                theme.paint(Role::Error),
                            ));
                            for x in v.iter().take(5) {
                                check.push(Line::styled(format!("  {x}"), theme.paint(Role::Error)));
                            }
                        }
                        Err(e) => check.push(Line::styled(sanitize::line(&e).into_owned(), theme.paint(Role::Warning))),
                    },
                    (Some(_), None) => check.push(Line::styled(
                        "✖ the tool has an outputSchema but sent no structuredContent",
                        theme.paint(Role::Error),
                    )),
                    (None, _) => check.push(Line::styled("the tool declares no outputSchema", theme.paint(Role::Dim))),
                }
                self.split = Some((left, right, check));
            }
            View::Content if self.content.is_none() => {
                let content = self.result_member("content").map(|c| serde_json::json!({"content": c}));
                let lines = match content.or_else(|| self.result_member("")) {
                    Some(r) => content_lines(&r, theme),
                    None => vec![Line::styled("No reply to show (see the Envelope view).", theme.paint(Role::Dim))],
                };
                self.content = Some((lines, 0));
            }
            View::Raw if self.raw.is_none() => {
                self.raw = Some(match &self.call.reply {
                    Some(r) if self.raw_decoded => match decoded_reply(&r.raw) {
                        Some(text) => Body::Tree(Box::new(JsonView::from_text(text, "reply (texts decoded)"))),
                        None => Body::Tree(Box::new(JsonView::from_text(r.raw.clone(), "reply"))),
                    },
                    Some(r) => Body::Tree(Box::new(JsonView::from_text(r.raw.clone(), "reply"))),
                    None => Body::Lines(
                        vec![Line::styled(
                            match &self.call.envelope {
                                Some(_) => {
                                    "This list was gathered from several pages; each page's raw reply is in the log (L)."
                                }
                                None => "The call got no reply.",
                            },
                            theme.paint(Role::Dim),
                        )],
                        0,
                    ),
                });
            }
            _ => {}
        }
    }

    /// The JSON viewer under focus in the current view, if it is one.
    pub fn viewer(&mut self) -> Option<&mut JsonView> {
        match self.view {
            View::Envelope => match self.body.as_mut()? {
                Body::Tree(v) => Some(v),
                Body::Table(t) => t.record.as_mut(),
                Body::Lines(..) => None,
            },
            View::Split => {
                let (l, r, _) = self.split.as_mut()?;
                if self.split_right { r.as_mut() } else { l.as_mut() }
            }
            View::Raw => match self.raw.as_mut()? {
                Body::Tree(v) => Some(v),
                _ => None,
            },
            View::Content => None,
        }
    }

    /// `d`: the Raw view with the JSON that text blocks carry shown as trees, or as sent.
    pub fn toggle_decoded(&mut self) -> Option<bool> {
        if self.view != View::Raw || self.call.reply.is_none() {
            return None;
        }
        self.raw_decoded = !self.raw_decoded;
        self.raw = None;
        Some(self.raw_decoded)
    }

    /// The selected node of the Raw or Split tree as a JSON pointer into the result, with its
    /// value: what a hint taught here names.
    pub fn selected_pointer(&mut self) -> Option<(String, Value)> {
        let prefix: Vec<String> = match self.view {
            View::Raw => vec![],
            View::Split if self.split_right => vec!["_meta".into()],
            View::Split => vec!["structuredContent".into()],
            _ => return None,
        };
        let raw_view = self.view == View::Raw;
        let v = self.viewer()?;
        let mut segs = v.segments();
        if raw_view {
            // The Raw tree is the whole reply: the result is under `result`.
            if segs.first().map(String::as_str) != Some("result") {
                return None;
            }
            segs.remove(0);
        }
        let value = v.selected_text().and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null);
        let pointer: String =
            prefix.into_iter().chain(segs).map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1"))).collect();
        Some((pointer, value))
    }

    /// Closes an open record or popup; false if there was none.
    pub fn back(&mut self) -> bool {
        if let Some(v) = self.viewer()
            && (v.popup.is_some() || v.searching)
        {
            v.popup = None;
            v.searching = false;
            return true;
        }
        if let (View::Envelope, Some(Body::Table(t))) = (self.view, self.body.as_mut())
            && t.record.is_some()
        {
            t.record = None;
            return true;
        }
        false
    }

    pub fn command(&mut self, cmd: Command) -> bool {
        if let Some(v) = self.viewer()
            && v.popup.is_some()
        {
            return v.popup_command(Some(cmd));
        }
        match self.view {
            View::Envelope => match &mut self.body {
                Some(Body::Table(t)) => t.command(cmd),
                Some(Body::Tree(v)) => v.command(cmd),
                Some(Body::Lines(l, s)) => scroll_lines(l.len(), s, cmd),
                None => false,
            },
            View::Content => match &mut self.content {
                Some((l, s)) => scroll_lines(l.len(), s, cmd),
                None => false,
            },
            View::Split | View::Raw => match self.viewer() {
                Some(v) => v.command(cmd),
                None => match &mut self.raw {
                    Some(Body::Lines(l, s)) if self.view == View::Raw => scroll_lines(l.len(), s, cmd),
                    _ => false,
                },
            },
        }
    }

    /// Text to copy: the selected value, or the whole view's JSON.
    pub fn copy_text(&mut self) -> Option<String> {
        if let Some(v) = self.viewer() {
            return v.selected_text().map(str::to_string);
        }
        if let (View::Envelope, Some(Body::Table(t))) = (self.view, &self.body) {
            return t.env.data.item_text(t.cursor).map(|s| s.into_owned());
        }
        self.call.envelope.as_ref().and_then(|e| serde_json::to_string(e.as_ref()).ok())
    }

    pub fn render(&mut self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        self.ensure(theme);
        let width = area.width.max(1) as usize;
        let wrapped: usize = self.header.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
        let header_h = (wrapped as u16).min(area.height / 2).max(1);
        let [head, body] = Layout::vertical([Constraint::Length(header_h), Constraint::Min(1)]).areas(area);
        f.render_widget(Paragraph::new(self.header.clone()).wrap(Wrap { trim: false }), head);
        let first_item = self.page.first_item;
        match self.view {
            View::Envelope => match &mut self.body {
                Some(Body::Table(t)) => t.render(f, body, theme, focused, first_item),
                Some(Body::Tree(v)) => v.render(f, body, theme, focused),
                Some(Body::Lines(l, s)) => f.render_widget(
                    Paragraph::new(
                        l[(*s).min(l.len())..].iter().take(body.height as usize).cloned().collect::<Vec<_>>(),
                    )
                    .wrap(Wrap { trim: false }),
                    body,
                ),
                None => {}
            },
            View::Split => {
                let Some((left, right, check)) = &mut self.split else { return };
                let check_h = (check.len() as u16).min(4);
                let [panes, chk] = Layout::vertical([Constraint::Min(3), Constraint::Length(check_h)]).areas(body);
                let [l, r] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(panes);
                for (side, view, name, is_right) in [(l, left, "structuredContent", false), (r, right, "_meta", true)] {
                    let active = focused && self.split_right == is_right;
                    let b = Block::default()
                        .borders(Borders::ALL)
                        .border_style(theme.border(active))
                        .title(Line::from(format!(" {name} ")).style(theme.title(active)));
                    let inner = b.inner(side);
                    f.render_widget(b, side);
                    match view {
                        Some(v) => v.render(f, inner, theme, active),
                        None => f.render_widget(
                            Paragraph::new(vec![Line::raw("absent"), Line::raw(format!("this result has no {name}"))])
                                .style(theme.paint(Role::Dim))
                                .wrap(Wrap { trim: false }),
                            inner,
                        ),
                    }
                }
                f.render_widget(Paragraph::new(check.clone()), chk);
            }
            View::Content => {
                if let Some((l, s)) = &self.content {
                    f.render_widget(
                        Paragraph::new(l.iter().skip(*s).take(body.height as usize).cloned().collect::<Vec<_>>())
                            .wrap(Wrap { trim: false }),
                        body,
                    );
                }
            }
            View::Raw => match &mut self.raw {
                Some(Body::Tree(v)) => v.render(f, body, theme, focused),
                Some(Body::Lines(l, _)) => f.render_widget(
                    Paragraph::new(l.iter().take(body.height as usize).cloned().collect::<Vec<_>>()),
                    body,
                ),
                _ => {}
            },
        }
    }
}

/// Replies larger than this are not decoded for the Raw view (the copy would cost its size
/// several times over).
const DECODE_MAX: usize = 16 << 20;

/// The reply with each text block that carries JSON replaced by that JSON: a path in this tree
/// is a path a hint can name (hints read such texts the same way).
fn decoded_reply(raw: &str) -> Option<Arc<str>> {
    if raw.len() > DECODE_MAX {
        return None;
    }
    let mut reply: Value = crate::json_depth::parse(raw, usize::MAX).ok()?;
    let blocks = reply.pointer_mut("/result/content")?.as_array_mut()?;
    let mut any = false;
    for b in blocks {
        if let Some(t) = b.get_mut("text")
            && let Some(v) = t.as_str().and_then(crate::envelope::hints::decoded)
        {
            *t = v;
            any = true;
        }
    }
    any.then(|| serde_json::to_string(&reply).ok().map(Arc::from)).flatten()
}

fn scroll_lines(n: usize, s: &mut usize, cmd: Command) -> bool {
    *s = match cmd {
        Command::Down => *s + 1,
        Command::Up => s.saturating_sub(1),
        Command::PageDown => *s + 20,
        Command::PageUp => s.saturating_sub(20),
        Command::Top => 0,
        Command::Bottom => n.saturating_sub(1),
        _ => return false,
    }
    .min(n.saturating_sub(1));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_dimensions_from_headers() {
        let png = base64::engine::general_purpose::STANDARD
            .decode(crate::demo::answer("get_image", &Value::Null)["content"][0]["data"].as_str().unwrap_or(""))
            .unwrap_or_default();
        assert_eq!(image_size("image/png", &png), Some((16, 16)));
        assert_eq!(image_size("image/gif", b"GIF89a\x20\x00\x10\x00rest"), Some((32, 16)));
    }
}
