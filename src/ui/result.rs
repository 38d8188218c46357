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

use super::jsonview::JsonView;
use super::keymap::Command;
use super::msg::CallResult;
use super::theme::{Role, Theme};
use crate::envelope::Envelope;
use crate::envelope::PageKind;
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

pub(crate) mod build;
pub mod link;
pub mod markdown;
pub mod table;
pub mod text;

use table::Table;
use text::{TextView, Typed};

pub use super::fit::count;

/// structuredContent larger than this is not validated in the TUI (the tree would cost ten
/// times its size).
const CHECK_MAX: usize = 4 << 20;

/// Over this size a reply's other views are dropped when they leave the screen (each costs a
/// row model of ~32 bytes per JSON node) and rebuilt when shown again (~20 ms per 100k records).
const SHED_OVER: usize = 1 << 20;

pub enum Body {
    Table(Box<Table>),
    Tree(Box<JsonView>),
    Text(TextView),
}

/// The Split view: structuredContent and _meta (absent ones are `None`), and the outputSchema check.
pub struct SplitView {
    pub left: Option<JsonView>,
    pub right: Option<JsonView>,
    pub check: Vec<Line<'static>>,
}

/// Where this result sits in a paged list.
#[derive(Debug, Clone, Copy, Default)]
pub struct Page {
    /// 0-based page number.
    pub index: usize,
    /// Items before this page.
    pub first_item: usize,
}

impl Page {
    /// Where a fresh call's result starts: a list read from `offset=20` shows items 21 on, and so
    /// do its `#` column, the next page and the gathered list.
    pub fn first_of(call: &CallResult) -> Page {
        Page { index: 0, first_item: start_offset(call).unwrap_or(0) }
    }
}

/// The item offset a call's result starts at: the offset argument the call sent (a gathered
/// list's pagination is its last page's, so the request is the surer word), else the offset the
/// answer reports. None when the result does not page by offset.
fn start_offset(call: &CallResult) -> Option<usize> {
    let env = call.envelope.as_deref()?;
    let p = env.pagination.as_ref()?;
    if p.kind.is_some_and(|k| k != PageKind::Offset) {
        return None;
    }
    let asked = call.arguments.as_object().and_then(|args| {
        let name = p
            .argument
            .clone()
            .filter(|a| args.contains_key(a))
            .or_else(|| crate::envelope::pager::position_argument(None, PageKind::Offset, args))?;
        match args.get(&name)? {
            Value::String(s) => s.trim().parse::<u64>().ok(),
            v => v.as_u64(),
        }
    });
    let gathered = env.metadata.as_ref().is_some_and(|m| m.get("pager").is_some());
    let reported = p.offset.filter(|_| !gathered);
    asked.or(reported).and_then(|n| usize::try_from(n).ok())
}

pub struct ResultState {
    pub call: CallResult,
    pub view: View,
    pub page: Page,
    /// For the views built later (a view is built the first time it is shown).
    theme: Theme,
    header: Vec<Line<'static>>,
    body: Option<Body>,
    split: Option<SplitView>,
    pub split_right: bool,
    content: Option<TextView>,
    /// The line each content block starts at in the Content view.
    content_starts: Vec<usize>,
    raw: Option<Body>,
    /// The Raw view shows the JSON that text blocks carry as trees (`d`).
    pub raw_decoded: bool,
}

/// The part of the shown view that takes keys.
pub enum Focus<'a> {
    Tree(&'a mut JsonView),
    Table(&'a mut Table),
    Text(&'a mut TextView),
    None,
}

/// Whether the body's search prompt (or its open record's) takes the keys.
fn body_typing(b: Option<&Body>) -> bool {
    match b {
        Some(Body::Table(t)) => match &t.record {
            Some(r) => r.searching,
            None => t.search.typing,
        },
        Some(Body::Tree(v)) => v.searching,
        Some(Body::Text(t)) => t.search.typing,
        None => false,
    }
}

fn body_focus(b: Option<&mut Body>) -> Focus<'_> {
    match b {
        Some(Body::Table(t)) => match t.record.is_some() {
            true => t.record.as_mut().map_or(Focus::None, Focus::Tree),
            false => Focus::Table(t),
        },
        Some(Body::Tree(v)) => Focus::Tree(v),
        Some(Body::Text(t)) => Focus::Text(t),
        None => Focus::None,
    }
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

pub(crate) fn image_size(mime: &str, data: &[u8]) -> Option<(u32, u32)> {
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

pub(crate) fn human_bytes(n: usize) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MB", n as f64 / (1 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

/// A server's text, styled, every character kept (see `markdown`).
fn markdown(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    markdown::lines(text, theme)
}

/// The content blocks' lines, and the line each block starts at.
pub(crate) fn content_lines_at(result: &Value, theme: &Theme) -> (Vec<Line<'static>>, Vec<usize>) {
    let mut out = vec![];
    let mut starts = vec![];
    let Some(blocks) = result.get("content").and_then(Value::as_array) else {
        out.push(Line::styled("This result has no content array.", theme.paint(Role::Dim)));
        return (out, starts);
    };
    if blocks.is_empty() {
        out.push(Line::styled("The content array is empty.", theme.paint(Role::Dim)));
    }
    for (i, b) in blocks.iter().enumerate() {
        starts.push(out.len());
        out.extend(block_lines(i, b, theme));
        out.push(Line::raw(""));
    }
    (out, starts)
}

/// Whether a text is a JSON object or array, checked without building it: a 10 MB text's tree
/// would cost fifteen times its size for a view that shows its first 5,000 lines.
fn is_json_document(text: &str) -> bool {
    text.trim_start().starts_with(['{', '[']) && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// One content block (`i` counts from 0): a heading (number, type, what it holds), its
/// annotations, then its body.
pub(crate) fn block_lines(i: usize, b: &Value, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![];
    let kind = b.get("type").and_then(Value::as_str).unwrap_or("(no type)");
    let s = |k: &str| b.get(k).and_then(Value::as_str).map(|v| sanitize::line(v).into_owned());
    let mut head = format!("#{} {}", i + 1, sanitize::line(kind));
    let mut body: Vec<Line<'static>> = vec![];
    match kind {
        "text" => match b.get("text") {
            Some(Value::String(t)) => {
                head.push_str(&format!(" · {} chars", t.chars().count()));
                if is_json_document(t) {
                    head.push_str(" · JSON");
                    body = json_lines(t, theme, 5_000);
                } else {
                    body = markdown(t, theme);
                }
            }
            other => body.push(Line::styled(
                format!("text is not a string: {}", sanitize::line(&other.map(|v| v.to_string()).unwrap_or_default())),
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
                Err(e) => body.push(Line::styled(format!("data is not valid base64: {e}"), theme.paint(Role::Warning))),
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
        out.push(Line::styled(format!("  annotations: {}", sanitize::line(&a.to_string())), theme.paint(Role::Dim)));
    }
    out.extend(body);
    out
}

impl ResultState {
    pub fn new(call: CallResult, page: Page, theme: &Theme) -> ResultState {
        let header = build::header(&call, page, theme);
        let mut r = ResultState {
            call,
            view: View::Envelope,
            page,
            theme: theme.clone(),
            header,
            body: None,
            split: None,
            split_right: false,
            content: None,
            content_starts: vec![],
            raw: None,
            raw_decoded: false,
        };
        r.ensure();
        r
    }

    /// The lines above the view (for tests and the pane's layout).
    pub fn header(&self) -> &[Line<'static>] {
        &self.header
    }

    /// Shows `view`, building it if needed; for a big reply the views left behind give back
    /// their memory.
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
        self.ensure();
    }

    /// Builds the current view if it was not built yet.
    fn ensure(&mut self) {
        let theme = &self.theme;
        match self.view {
            View::Envelope if self.body.is_none() => self.body = Some(build::envelope_body(&self.call, theme)),
            View::Split if self.split.is_none() => self.split = Some(build::split(&self.call, theme)),
            View::Content if self.content.is_none() => {
                let (text, starts) = build::content(&self.call, theme);
                self.content = Some(text);
                self.content_starts = starts;
            }
            View::Raw if self.raw.is_none() => self.raw = Some(build::raw(&self.call, self.raw_decoded, theme)),
            _ => {}
        }
    }

    /// The part of the current view that takes keys.
    pub fn focus_mut(&mut self) -> Focus<'_> {
        match self.view {
            View::Envelope => body_focus(self.body.as_mut()),
            View::Raw => body_focus(self.raw.as_mut()),
            View::Content => self.content.as_mut().map_or(Focus::None, Focus::Text),
            View::Split => {
                let Some(s) = self.split.as_mut() else { return Focus::None };
                let side = if self.split_right { s.right.as_mut() } else { s.left.as_mut() };
                side.map_or(Focus::None, Focus::Tree)
            }
        }
    }

    /// The JSON viewer under focus in the current view, if it is one.
    pub fn viewer(&mut self) -> Option<&mut JsonView> {
        match self.focus_mut() {
            Focus::Tree(v) => Some(v),
            _ => None,
        }
    }

    /// Rows of the pane's body at the last layout: paging moves by this.
    pub fn set_height(&mut self, rows: usize) {
        let header = self.header.len();
        let body = rows.saturating_sub(header).max(1);
        match self.focus_mut() {
            Focus::Tree(v) => v.height = body.saturating_sub(1).max(1),
            Focus::Table(t) => t.set_height(body),
            Focus::Text(t) => t.height = body,
            Focus::None => {}
        }
    }

    /// `d`: the Raw view with the JSON that text blocks carry shown as trees, or as sent.
    pub fn toggle_decoded(&mut self) -> Option<bool> {
        if self.view != View::Raw || self.call.reply.is_none() {
            return None;
        }
        self.raw_decoded = !self.raw_decoded;
        self.raw = None;
        self.ensure();
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

    /// Esc: closes the search prompt, then an open record; false if there was neither.
    pub fn back(&mut self) -> bool {
        if let (View::Envelope, Some(Body::Table(t))) = (self.view, self.body.as_mut())
            && t.record.as_ref().is_some_and(|r| !r.searching)
        {
            t.record = None;
            return true;
        }
        false
    }

    /// `/`: opens the search prompt of the shown view; false where there is nothing to search.
    pub fn open_search(&mut self) -> bool {
        match self.focus_mut() {
            Focus::Tree(v) => {
                v.searching = true;
                v.query.clear();
                v.search_note = None;
            }
            Focus::Table(t) => t.search.open(),
            Focus::Text(t) => t.search.open(),
            Focus::None => return false,
        }
        true
    }

    /// Whether a search prompt is open (it takes every printable key).
    pub fn search_open(&self) -> bool {
        match self.view {
            View::Envelope => body_typing(self.body.as_ref()),
            View::Raw => body_typing(self.raw.as_ref()),
            View::Content => self.content.as_ref().is_some_and(|t| t.search.typing),
            View::Split => self
                .split
                .as_ref()
                .and_then(|s| if self.split_right { s.right.as_ref() } else { s.left.as_ref() })
                .is_some_and(|v| v.searching),
        }
    }

    /// A key while the search prompt is open; false when no prompt is open.
    pub fn search_key(&mut self, k: &crossterm::event::KeyEvent) -> bool {
        match self.focus_mut() {
            Focus::Tree(v) => v.search_key(k),
            Focus::Table(t) => match t.search.key(k) {
                Typed::No => false,
                Typed::Edited => true,
                Typed::Accepted => {
                    t.find_first();
                    true
                }
            },
            Focus::Text(t) => match t.search.key(k) {
                Typed::No => false,
                Typed::Edited => true,
                Typed::Accepted => {
                    t.find_first();
                    true
                }
            },
            Focus::None => false,
        }
    }

    /// Navigation and search commands of the shown view; false if it has no use for `cmd`.
    pub fn navigate(&mut self, cmd: Command) -> bool {
        match self.focus_mut() {
            Focus::Tree(v) => v.command(cmd),
            Focus::Table(t) => t.command(cmd),
            Focus::Text(t) => t.command(cmd),
            Focus::None => false,
        }
    }

    /// `o`: the selected value whole, with a title: a tree's node, a table's record, a text
    /// view's whole text.
    pub fn value_text(&mut self) -> Option<(String, String)> {
        let name = self.view.name();
        match self.focus_mut() {
            Focus::Tree(v) => v.value_text(),
            Focus::Table(t) => {
                let text = t.selected_text()?;
                let pretty = crate::json_pretty::to_string(&crate::json_pretty::lines(&text, 50_000));
                Some((format!("data[{}]", t.scroll.cursor), pretty))
            }
            Focus::Text(t) => Some((name.to_string(), t.text())),
            Focus::None => None,
        }
    }

    /// Text to copy: the selected value, or the whole view's JSON.
    pub fn copy_text(&mut self) -> Option<String> {
        let content = self.view == View::Content;
        match self.focus_mut() {
            Focus::Tree(v) => return v.selected_text().map(str::to_string),
            Focus::Table(t) => return t.selected_text(),
            Focus::Text(t) if content => return Some(t.text()),
            _ => {}
        }
        self.call.envelope.as_ref().and_then(|e| serde_json::to_string(e.as_ref()).ok())
    }

    /// What `e` writes: the reply as sent (Raw view), else the envelope; for a failed call the
    /// raw error reply, or a note of why there was no reply. `(file name, text)`.
    pub fn export(&self) -> (String, String) {
        let (kind, text) = match (self.view, &self.call.reply, &self.call.envelope) {
            (View::Raw, Some(reply), _) => ("raw", reply.raw.to_string()),
            // Streamed from the records' text: no tree of a 100k-record list is built.
            (_, _, Some(env)) => ("envelope", crate::json_out::to_pretty_string(env.as_ref())),
            (_, Some(reply), None) => ("raw", reply.raw.to_string()),
            (_, None, None) => {
                let why = self.call.error.as_deref().unwrap_or("no reason given");
                let note = serde_json::json!({
                    "tool": self.call.tool,
                    "arguments": self.call.arguments,
                    "reply": null,
                    "error": why,
                    "elapsed_ms": self.call.elapsed.as_millis() as u64,
                });
                ("failed", serde_json::to_string_pretty(&note).unwrap_or_else(|_| why.to_string()))
            }
        };
        (format!("{}-{kind}", self.call.tool), text)
    }

    /// `O`: the resource the result names: in the Content view the first from the top line
    /// shown on (else the last), in the others the first.
    pub fn resource_link(&self) -> Option<link::Link> {
        let content = build::result_member(&self.call, "content")?;
        let links: Vec<(usize, link::Link)> = content
            .as_array()?
            .iter()
            .enumerate()
            .filter_map(|(i, b)| Some((self.content_starts.get(i).copied().unwrap_or(0), link::link_of(b)?)))
            .collect();
        let top = match (&self.content, self.view) {
            (Some(t), View::Content) => t.scroll.cursor,
            _ => 0,
        };
        link::pick_link(&links, top)
    }

    /// Whether the result has a page after this one to fetch.
    pub fn has_next_page(&self) -> bool {
        self.call.envelope.as_ref().is_some_and(|e| e.has_more())
    }

    /// Draws the header and the shown view from what was built; builds nothing.
    pub fn render(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let width = area.width.max(1) as usize;
        let wrapped: usize = self.header.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
        let header_h = (wrapped as u16).min(area.height / 2).max(1);
        let [head, body] = Layout::vertical([Constraint::Length(header_h), Constraint::Min(1)]).areas(area);
        f.render_widget(Paragraph::new(self.header.clone()).wrap(Wrap { trim: false }), head);
        let first_item = self.page.first_item;
        let draw_body = |f: &mut Frame, b: &Option<Body>| match b {
            Some(Body::Table(t)) => t.draw(f, body, theme, focused, first_item),
            Some(Body::Tree(v)) => v.render(f, body, theme, focused),
            Some(Body::Text(t)) => t.draw(f, body, theme),
            None => {}
        };
        match self.view {
            View::Envelope => draw_body(f, &self.body),
            View::Raw => draw_body(f, &self.raw),
            View::Content => {
                if let Some(t) = &self.content {
                    t.draw(f, body, theme);
                }
            }
            View::Split => {
                if let Some(s) = &self.split {
                    self.draw_split(f, body, s, theme, focused);
                }
            }
        }
    }

    fn draw_split(&self, f: &mut Frame, body: Rect, s: &SplitView, theme: &Theme, focused: bool) {
        let check_h = (s.check.len() as u16).min(4);
        let [panes, chk] = Layout::vertical([Constraint::Min(3), Constraint::Length(check_h)]).areas(body);
        let [l, r] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(panes);
        for (side, view, name, is_right) in [(l, &s.left, "structuredContent", false), (r, &s.right, "_meta", true)] {
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
        f.render_widget(Paragraph::new(s.check.clone()), chk);
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
