//! A call's result: the header above, then one of its views (listed in `views`: Envelope,
//! Split, Content, Raw), each built the first time it is shown.

use base64::Engine;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use serde_json::Value;

use super::jsonview::JsonView;
use super::keymap::Command;
use super::msg::CallResult;
use super::theme::{Role, Theme};
use crate::envelope::Envelope;
use crate::envelope::PageKind;
use crate::json_pretty::{self, Token};
use crate::sanitize;

/// Which of the views (`views::VIEWS`) is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View(usize);

/// The built-in views by name, for code that picks one (the number keys, benches).
#[allow(non_upper_case_globals)]
impl View {
    pub const Envelope: View = View(0);
    pub const Split: View = View(1);
    pub const Content: View = View(2);
    pub const Raw: View = View(3);
}

impl View {
    /// The `n`th view (from 0), if there are that many.
    pub fn nth(n: usize) -> Option<View> {
        (n < VIEWS.len()).then_some(View(n))
    }

    /// Every view, in cycling order.
    pub fn all() -> impl Iterator<Item = View> {
        (0..VIEWS.len()).map(View)
    }

    pub fn name(self) -> &'static str {
        VIEWS.get(self.0).map_or("", |k| k.name)
    }

    pub fn next(self) -> View {
        View((self.0 + 1) % VIEWS.len())
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

mod body;
pub(crate) mod build;
pub mod link;
pub mod markdown;
pub mod table;
pub mod text;
pub mod view;
mod views;

use text::Typed;
pub use view::Focus;
use view::{Answer, Draw, ResultView};
use views::VIEWS;

pub use super::fit::count;

/// structuredContent larger than this is not validated in the TUI (the tree would cost ten
/// times its size).
const CHECK_MAX: usize = 4 << 20;

/// Over this size a reply's other views are dropped when they leave the screen (each costs a
/// row model of ~32 bytes per JSON node) and rebuilt when shown again (~20 ms per 100k records).
const SHED_OVER: usize = 1 << 20;

/// Where this result sits in a paged list.
#[derive(Debug, Clone, Copy, Default)]
pub struct Page {
    /// 0-based page number.
    pub index: usize,
    /// Items before this page.
    pub first_item: usize,
}

impl Page {
    /// Where a fresh call's result starts: a list read from `offset=20` (or `page=3` of 10 a
    /// page) shows items 21 on, and so do its `#` column, the next page and the gathered list.
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
    if p.kind == Some(PageKind::Page) {
        return crate::envelope::start::page_start(env, call.arguments.as_object()?);
    }
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
    /// One slot per view in `VIEWS`: None until shown (or after it was shed).
    built: Vec<Option<Box<dyn ResultView>>>,
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
        // A gathered list is every page from where it started: no one page's number.
        if e.metadata.as_ref().is_none_or(|m| m.get("pager").is_none()) {
            let number = crate::envelope::start::page_number(e, page.first_item);
            parts.push(format!("page {}", number.map_or(page.index + 1, |n| n as usize)));
        }
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
        let built = VIEWS.iter().map(|_| None).collect();
        let mut r = ResultState { call, view: View::Envelope, page, theme: theme.clone(), header, built };
        r.ensure();
        r
    }

    /// The same reply read again (a hint was taught): a new header, the views that read the
    /// envelope built again, the others kept as they were (sides, decoding, scroll).
    pub fn read_again(&mut self, call: CallResult) {
        self.header = build::header(&call, self.page, &self.theme);
        self.call = call;
        for slot in &mut self.built {
            if slot.as_ref().is_some_and(|v| v.reads_envelope()) {
                *slot = None;
            }
        }
        self.ensure();
    }

    /// The lines above the view (for tests and the pane's layout).
    pub fn header(&self) -> &[Line<'static>] {
        &self.header
    }

    /// Shows `view`, building it if needed; for a big reply the views left behind give back
    /// their memory.
    pub fn set_view(&mut self, view: View) {
        if view != self.view && self.call.reply.as_ref().is_some_and(|r| r.raw.len() > SHED_OVER) {
            for (i, slot) in self.built.iter_mut().enumerate() {
                if i != view.0 && VIEWS[i].shed {
                    *slot = None;
                }
            }
        }
        self.view = view;
        self.ensure();
    }

    /// Builds the current view if it was not built yet.
    fn ensure(&mut self) {
        let (Some(slot), Some(kind)) = (self.built.get_mut(self.view.0), VIEWS.get(self.view.0)) else { return };
        if slot.is_none() {
            *slot = Some((kind.build)(&self.call, &self.theme));
        }
    }

    fn shown(&self) -> Option<&dyn ResultView> {
        self.built.get(self.view.0)?.as_deref()
    }

    fn shown_mut(&mut self) -> Option<&mut (dyn ResultView + 'static)> {
        self.built.get_mut(self.view.0)?.as_deref_mut()
    }

    /// The part of the current view that takes keys.
    pub fn focus_mut(&mut self) -> Focus<'_> {
        self.shown_mut().map_or(Focus::None, |v| v.focus_mut())
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

    /// A command only the shown view knows (`s`, `d`): what it did.
    pub fn view_command(&mut self, cmd: Command) -> Answer {
        let Some(v) = self.built.get_mut(self.view.0).and_then(|s| s.as_deref_mut()) else { return Answer::NotMine };
        v.command(cmd, &self.call, &self.theme)
    }

    /// The selected node of the shown tree as a JSON pointer into the result, with its value:
    /// what a hint taught here names.
    pub fn selected_pointer(&mut self) -> Option<(String, Value)> {
        self.shown_mut()?.pointer()
    }

    /// Esc: closes the search prompt, then an open record; false if there was neither.
    pub fn back(&mut self) -> bool {
        self.clear_search() || self.shown_mut().is_some_and(|v| v.back())
    }

    /// Esc first clears a search kept after Enter (its matches highlighted), as every filter
    /// and search does; false when none is kept.
    fn clear_search(&mut self) -> bool {
        match self.focus_mut() {
            Focus::Tree(v) if !v.query.is_empty() => {
                v.query.clear();
                v.search_note = None;
            }
            Focus::Table(t) if !t.search.query.is_empty() => {
                t.search.query.clear();
                t.search.note = None;
            }
            Focus::Text(t) if !t.search.query.is_empty() => {
                t.search.query.clear();
                t.search.note = None;
            }
            _ => return false,
        }
        true
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
        self.shown().is_some_and(|v| v.typing())
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
    /// Whether the view shows a list that has no records (nothing to select or open).
    pub fn empty_list(&mut self) -> bool {
        matches!(self.focus_mut(), Focus::Table(t) if t.scroll.len == 0)
    }

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

    /// Text to copy: what the view offers (the selected value), else the whole envelope's JSON.
    pub fn copy_text(&mut self) -> Option<String> {
        if let Some(text) = self.shown_mut().and_then(|v| v.copy_text()) {
            return Some(text);
        }
        self.call.envelope.as_ref().and_then(|e| serde_json::to_string(e.as_ref()).ok())
    }

    /// What `e` writes: what the view offers (Raw: the reply as sent), else the envelope; for a
    /// failed call the raw error reply, or a note of why there was no reply. `(file name, text)`.
    pub fn export(&self) -> (String, String) {
        let (kind, text) =
            match (self.shown().and_then(|v| v.export(&self.call)), &self.call.reply, &self.call.envelope) {
                (Some(own), _, _) => own,
                // Streamed from the records' text: no tree of a 100k-record list is built.
                (None, _, Some(env)) => ("envelope", crate::json_out::to_pretty_string(env.as_ref())),
                (None, Some(reply), None) => ("raw", reply.raw.to_string()),
                (None, None, None) => ("failed", self.failure_note()),
            };
        (format!("{}-{kind}", self.call.tool), text)
    }

    /// Why a call has no reply, as JSON.
    fn failure_note(&self) -> String {
        let why = self.call.error.as_deref().unwrap_or("no reason given");
        let note = serde_json::json!({
            "tool": self.call.tool,
            "arguments": self.call.arguments,
            "reply": null,
            "error": why,
            "elapsed_ms": self.call.elapsed.as_millis() as u64,
        });
        let text = serde_json::to_string_pretty(&note).unwrap_or_else(|_| why.to_string());
        crate::mcp::wire::with_exact_literals(&text).into_owned()
    }

    /// `O`: the resource the result names: in a view of the blocks the first from the top line
    /// shown on (else the last), in the others the first.
    pub fn resource_link(&self) -> Option<link::Link> {
        let content = build::result_member(&self.call, "content")?;
        let (starts, top) = self.shown().and_then(|v| v.block_position()).unwrap_or((&[], 0));
        let links: Vec<(usize, link::Link)> = content
            .as_array()?
            .iter()
            .enumerate()
            .filter_map(|(i, b)| Some((starts.get(i).copied().unwrap_or(0), link::link_of(b)?)))
            .collect();
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
        if let Some(v) = self.shown() {
            v.draw(f, body, &Draw { theme, focused, first_item: self.page.first_item });
        }
    }
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
