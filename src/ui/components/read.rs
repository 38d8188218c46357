//! A resource's contents over the panes: each content with its URI, MIME type and size; text as
//! text (JSON in the tree viewer or pretty, markdown coloured with every character kept), a blob
//! by size and type (what its bytes look like, an image's dimensions). `e` saves the content to a
//! file, `Tab` goes to the next content. A read from the server is read again when the server
//! says the resource was updated; an embedded resource (from a result or a prompt) is shown as
//! it came.

use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use serde_json::Value;

use super::value::ValueOverlay;
use crate::mcp::{ContentKind, ResourceContent};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Observed, Used};
use crate::ui::jsonview::JsonView;
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::ops::{ReadDone, Shared};
use crate::ui::result::text::{Search, TextView, Typed};
use crate::ui::theme::{Role, Theme};
use crate::ui::tree_place::TreePlace;

pub const SCOPE: Scope = Scope("resource");

pub use crate::ui::result::link::{Link, link_of, pick_link};

/// What `O` does with a link: a read for the worker, or the embedded resource shown at once.
pub fn open_link(link: Link, cx: &mut Ctx) {
    match link {
        Link::Read(uri) => {
            cx.notice(format!("reading {}", sanitize::line(&uri)), false);
            cx.cmd(Cmd::ReadResource { uri, refresh: false });
        }
        Link::Embedded(r) => cx.effects.push(Effect::Push(Box::new(ReadView::embedded(r, cx.theme)))),
    }
}

enum Body {
    Text(TextView),
    Tree(Box<JsonView>),
}

/// Where the reader is in a content's body: found again after the resource is read again.
enum Place {
    Text { top: usize, search: Search },
    Tree(Box<TreePlace>),
}

pub struct ReadView {
    uri: String,
    /// Read from the server (re-read on an update), or embedded in a result or a prompt.
    from_server: bool,
    contents: Arc<Vec<ResourceContent>>,
    /// Why there are no contents: the server's error or the connection's.
    error: Option<String>,
    warnings: Vec<String>,
    elapsed: Option<std::time::Duration>,
    cache: Option<String>,
    index: usize,
    /// JSON text shown as a tree (else pretty text).
    tree: bool,
    /// The shown blob's text, when it is text sent as base64 (`ResourceContent::blob_text`).
    blob_text: Option<Arc<str>>,
    body: Body,
    /// What happened since the view opened (an update, a re-read).
    note: Option<String>,
    rows: usize,
    theme: Theme,
}

fn looks_json(c: &ResourceContent) -> bool {
    let mime = c.mime_type().unwrap_or("").to_ascii_lowercase();
    let text = c.text().unwrap_or("").trim_start();
    mime.contains("json") || ((text.starts_with('{') || text.starts_with('[')) && mime.is_empty())
}

fn is_markdown(c: &ResourceContent) -> bool {
    let mime = c.mime_type().unwrap_or("").to_ascii_lowercase();
    mime.contains("markdown") || c.uri().is_some_and(|u| u.ends_with(".md"))
}

impl ReadView {
    /// A view of `contents` not laid out yet (`take` or `build` does that).
    fn blank(uri: String, from_server: bool, contents: Arc<Vec<ResourceContent>>, theme: &Theme) -> ReadView {
        ReadView {
            uri,
            from_server,
            contents,
            error: None,
            warnings: vec![],
            elapsed: None,
            cache: None,
            index: 0,
            tree: true,
            blob_text: None,
            body: Body::Text(TextView::new(vec![])),
            note: None,
            rows: 20,
            theme: theme.clone(),
        }
    }

    pub fn from_read(done: &ReadDone, theme: &Theme) -> ReadView {
        let mut v = ReadView::blank(done.uri.clone(), true, Arc::default(), theme);
        v.take(done);
        v
    }

    /// An embedded resource (`{"uri", "mimeType", "text" | "blob"}`), shown as it came.
    pub fn embedded(resource: Value, theme: &Theme) -> ReadView {
        let content = ResourceContent::from_value(resource);
        let uri = content.uri().unwrap_or("(no uri)").to_string();
        let mut v = ReadView::blank(uri, false, Arc::new(vec![content]), theme);
        v.build();
        v
    }

    fn take(&mut self, done: &ReadDone) {
        match &done.outcome {
            Ok(ok) => {
                self.contents = ok.contents.clone();
                self.warnings = ok.warnings.clone();
                self.elapsed = Some(ok.elapsed);
                self.cache = ok.cache.clone();
                self.error = None;
            }
            Err(e) => {
                self.contents = Arc::default();
                self.error = Some(e.clone());
            }
        }
        self.index = self.index.min(self.contents.len().saturating_sub(1));
        self.build();
    }

    /// A read again: the new contents, shown where the reader was (the same line, or the same
    /// JSON node with the same folds, and the search), as far as the new text has it.
    fn retake(&mut self, done: &ReadDone) {
        let (index, place) = (self.index, self.place());
        self.take(done);
        if self.index != index {
            return;
        }
        match (&mut self.body, place) {
            (Body::Text(t), Place::Text { top, search }) => {
                t.scroll.select(top);
                t.search = search;
            }
            (Body::Tree(v), Place::Tree(place)) => place.restore(v),
            _ => {}
        }
    }

    fn place(&self) -> Place {
        match &self.body {
            Body::Text(t) => Place::Text { top: t.scroll.cursor, search: t.search.clone() },
            Body::Tree(v) => Place::Tree(Box::new(TreePlace::of(v))),
        }
    }

    fn content(&self) -> Option<&ResourceContent> {
        self.contents.get(self.index)
    }

    /// The body of the shown content.
    fn build(&mut self) {
        self.blob_text = self.content().and_then(ResourceContent::blob_text).map(Arc::from);
        let theme = &self.theme;
        let Some(c) = self.content() else {
            let text = match &self.error {
                Some(e) => format!("The read failed: {}", sanitize::line(e)),
                None => "The resource has no contents.".to_string(),
            };
            let role = if self.error.is_some() { Role::Error } else { Role::Dim };
            self.body = Body::Text(TextView::new(vec![Line::styled(text, theme.paint(role))]));
            return;
        };
        // A blob that is text is shown as text is (the head says how it was sent).
        let (kind, text) = match &self.blob_text {
            Some(t) => (ContentKind::Text, Some(&**t)),
            None => (c.kind(), c.text()),
        };
        self.body = match (kind, text) {
            (ContentKind::Text, Some(t)) if looks_json(c) && self.tree && is_json(t) => {
                Body::Tree(Box::new(JsonView::from_text(Arc::<str>::from(t), "text")))
            }
            (ContentKind::Text, Some(t)) if looks_json(c) && is_json(t) => {
                Body::Text(TextView::new(crate::ui::result::json_lines(t, theme, 200_000)))
            }
            (ContentKind::Text, Some(t)) if is_markdown(c) => {
                Body::Text(TextView::new(crate::ui::result::markdown::lines(t, theme)))
            }
            (ContentKind::Text, Some(t)) => Body::Text(TextView::new(
                sanitize::text(t).lines().map(|l| Line::styled(l.to_string(), theme.paint(Role::Text))).collect(),
            )),
            (ContentKind::Blob, _) => Body::Text(TextView::new(blob_lines(c, theme))),
            _ => {
                let mut lines = vec![Line::styled(
                    "The content has neither a string text nor a string blob; as sent:",
                    theme.paint(Role::Warning),
                )];
                lines.extend(crate::ui::result::json_lines(&c.value.to_string(), theme, 5_000));
                Body::Text(TextView::new(lines))
            }
        };
        self.set_rows(self.rows);
    }

    fn set_rows(&mut self, rows: usize) {
        self.rows = rows;
        match &mut self.body {
            Body::Text(t) => t.height = rows.max(1),
            Body::Tree(v) => v.height = rows.max(1),
        }
    }

    /// The lines above the body: URI, MIME type, size, kind; which content; problems; news.
    fn head(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = vec![];
        match self.content() {
            Some(c) => {
                let mut parts = vec![sanitize::line(c.uri().unwrap_or("(no uri)")).into_owned()];
                parts.push(c.mime_type().map_or("(no mimeType)".into(), |m| sanitize::line(m).into_owned()));
                if let Some(n) = c.size() {
                    parts.push(crate::cli::items::human_size(n as u64));
                }
                parts.push(
                    match c.kind() {
                        ContentKind::Text => "text",
                        ContentKind::Blob => "blob",
                        ContentKind::Unknown => "neither text nor blob",
                    }
                    .into(),
                );
                if let Some(e) = self.elapsed {
                    parts.push(format!("{:.0} ms", e.as_secs_f64() * 1000.0));
                }
                if let Some(hint) = &self.cache {
                    parts.push(sanitize::line(hint).into_owned());
                }
                lines.push(Line::styled(parts.join(" · "), theme.paint(Role::Ok).add_modifier(Modifier::BOLD)));
                if let Some(t) = &self.blob_text {
                    let save = keymap::key(SCOPE, Command::Export);
                    let size = crate::cli::items::human_size(t.len() as u64);
                    lines.push(Line::styled(
                        format!("text sent as base64 ({size}); {save} saves its bytes"),
                        theme.paint(Role::Dim),
                    ));
                }
            }
            None => lines.push(Line::styled(
                sanitize::line(&self.uri).into_owned(),
                theme.paint(Role::Title).add_modifier(Modifier::BOLD),
            )),
        }
        if self.contents.len() > 1 {
            lines.push(Line::styled(
                format!(
                    "content {} of {} ({})",
                    self.index + 1,
                    self.contents.len(),
                    keymap::said(SCOPE, &[(Command::NextPane, "next"), (Command::PrevPane, "previous")])
                ),
                theme.paint(Role::Key),
            ));
        }
        if !self.warnings.is_empty() {
            lines.push(Line::styled(
                format!("⚠ the result breaks the MCP schema: {}", sanitize::line(&self.warnings.join("; "))),
                theme.paint(Role::Warning),
            ));
        }
        if let Some(n) = &self.note {
            lines.push(Line::styled(sanitize::line(n).into_owned(), theme.paint(Role::Match)));
        }
        if let Some(ui) = self.content().and_then(|c| crate::apps::meta::UiMeta::of(&c.value)) {
            lines.push(Line::styled("▣ MCP App view (_meta.ui; `mcplens app` opens it)", theme.paint(Role::Key)));
            for l in ui.describe() {
                lines.push(Line::styled(format!("  {}", sanitize::line(&l)), theme.paint(Role::Dim)));
            }
        }
        lines
    }

    fn shown_text(&self) -> Option<String> {
        match &self.body {
            Body::Tree(v) => v.selected_text().map(str::to_string),
            Body::Text(_) => match self.content()?.kind() {
                ContentKind::Text => self.content()?.text().map(str::to_string),
                _ => self.blob_text.as_deref().map(str::to_string),
            },
        }
    }

    fn search_key(&mut self, k: &KeyEvent) -> bool {
        match &mut self.body {
            Body::Tree(v) => v.search_key(k),
            Body::Text(t) => match t.search.key(k) {
                Typed::No => false,
                Typed::Edited => true,
                Typed::Accepted => {
                    t.find_first();
                    true
                }
            },
        }
    }

    fn navigate(&mut self, cmd: Command) -> bool {
        match &mut self.body {
            Body::Tree(v) => v.command(cmd),
            Body::Text(t) => t.command(cmd),
        }
    }

    fn step(&mut self, by: isize) {
        let n = self.contents.len();
        if n > 1 {
            self.index = (self.index as isize + by).rem_euclid(n as isize) as usize;
            self.build();
        }
    }

    pub fn uri(&self) -> &str {
        &self.uri
    }
}

fn is_json(t: &str) -> bool {
    crate::json_depth::parse::<serde::de::IgnoredAny>(t, crate::json_depth::DEFAULT_MAX_DEPTH).is_ok()
}

fn blob_lines(c: &ResourceContent, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![];
    let size = c.size().unwrap_or(0);
    let mut what = format!("binary, {}", crate::cli::items::human_size(size as u64));
    match (c.sniffed_type(), c.mime_type()) {
        (Some(s), Some(m)) if s != m => what.push_str(&format!("; its bytes look like {s}, not {}", sanitize::line(m))),
        (Some(s), None) => what.push_str(&format!("; its bytes look like {s}")),
        (Some(s), Some(_)) => what.push_str(&format!("; its bytes are {s}")),
        _ => {}
    }
    lines.push(Line::styled(what, theme.paint(Role::Text)));
    if c.mime_type().is_some_and(|m| m.starts_with("image/"))
        || c.sniffed_type().is_some_and(|s| s.starts_with("image/"))
    {
        // The dimensions are in the first bytes; a big blob is not decoded for them.
        let head: String =
            c.blob_base64().unwrap_or("").chars().filter(|c| !c.is_ascii_whitespace()).take(4096).collect();
        let whole = head.len() - head.len() % 4;
        use base64::Engine;
        if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(&head[..whole])
            && let Some((w, h)) = crate::ui::result::image_size(c.mime_type().unwrap_or(""), &bytes)
        {
            lines.push(Line::styled(format!("image {w}×{h}"), theme.paint(Role::Text)));
        }
    }
    if let Err(e) = c.bytes() {
        lines.push(Line::styled(sanitize::line(&e).into_owned(), theme.paint(Role::Error)));
    } else {
        lines.push(Line::styled(
            "e saves its bytes to a file (the path shows in the status line)",
            theme.paint(Role::Dim),
        ));
    }
    lines
}

impl Component for ReadView {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn typing(&self) -> bool {
        match &self.body {
            Body::Tree(v) => v.searching,
            Body::Text(t) => t.search.typing,
        }
    }

    fn key(&mut self, k: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.search_key(k) { Used::Yes } else { Used::No }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Back | Command::Leave => cx.effects.push(Effect::Close),
            Command::NextPane => self.step(1),
            Command::PrevPane => self.step(-1),
            Command::NextView => {
                self.tree = !self.tree;
                self.build();
            }
            Command::Search => match &mut self.body {
                Body::Tree(v) => {
                    v.searching = true;
                    v.query.clear();
                    v.search_note = None;
                }
                Body::Text(t) => t.search.open(),
            },
            Command::Open => {
                let shown = match &self.body {
                    Body::Tree(v) => v.value_text(),
                    Body::Text(t) => Some((self.uri.clone(), t.text())),
                };
                if let Some((title, text)) = shown {
                    cx.effects.push(Effect::Push(Box::new(ValueOverlay::new(&title, &text))));
                }
            }
            Command::Export => match self.contents.get(self.index) {
                Some(_) => cx.cmd(Cmd::Save {
                    name: self.uri.rsplit('/').find(|s| !s.is_empty()).unwrap_or("resource").to_string(),
                    content: Shared(self.contents.clone()),
                    index: self.index,
                }),
                None => cx.notice("nothing to save", false),
            },
            Command::Copy => match self.shown_text() {
                Some(text) => {
                    cx.notice(format!("copied {} bytes to the clipboard (OSC 52)", text.len()), false);
                    cx.cmd(Cmd::Copy(text));
                }
                None => {
                    let save = keymap::key(SCOPE, Command::Export);
                    cx.notice(format!("nothing to copy: {save} saves a blob's bytes"), false)
                }
            },
            other => {
                if !self.navigate(other) {
                    return Used::No;
                }
            }
        }
        Used::Yes
    }

    fn observe(&mut self, event: &Observed, cx: &mut Ctx) {
        match event {
            Observed::Updated(uri) if self.from_server && *uri == self.uri => {
                self.note = Some(format!(
                    "{} the server says it was updated (notifications/resources/updated): reading it again…",
                    crate::ui::components::log::clock(std::time::SystemTime::now())
                ));
                cx.cmd(Cmd::ReadResource { uri: self.uri.clone(), refresh: true });
            }
            Observed::Reread(done) if self.from_server && done.uri == self.uri => {
                self.retake(done);
                self.note = Some(format!(
                    "{} read again after the server's update",
                    crate::ui::components::log::clock(std::time::SystemTime::now())
                ));
            }
            _ => {}
        }
    }

    fn set_area(&mut self, area: Rect) {
        let [_, body] = self.split(Block::bordered().inner(area));
        self.set_rows(body.height.saturating_sub(1) as usize);
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(120), area.height.saturating_sub(2))
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let what = if self.from_server { "Resource" } else { "Embedded resource" };
        let keys = keymap::said(SCOPE, &[(Command::Export, "save"), (Command::Back, "close")]);
        let title = format!(" {what}: {} · {keys} ", super::uri_cut::middle(&self.uri, 70));
        let b = crate::ui::component::overlay_block(theme, title, focused);
        let inner = b.inner(area);
        f.render_widget(b, area);
        let [head, body] = self.split(inner);
        f.render_widget(Paragraph::new(self.head(theme)).wrap(Wrap { trim: false }), head);
        match &self.body {
            Body::Text(t) => t.draw(f, body, theme),
            Body::Tree(v) => v.render(f, body, theme, focused),
        }
    }
}

impl ReadView {
    fn split(&self, inner: Rect) -> [Rect; 2] {
        let head = self.head(&self.theme);
        let width = inner.width.max(1) as usize;
        let h: usize = head.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
        Layout::vertical([Constraint::Length((h as u16 + 1).min(inner.height / 2)), Constraint::Min(1)]).areas(inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_of(text: &str) -> ReadDone {
        let content = ResourceContent::from_value(json!({"uri": "a://t", "mimeType": "text/plain", "text": text}));
        let ok = crate::ui::msg::ReadOk {
            contents: Arc::new(vec![content]),
            warnings: vec![],
            elapsed: std::time::Duration::from_millis(1),
            cache: None,
        };
        ReadDone { uri: "a://t".into(), refresh: true, outcome: Ok(ok) }
    }

    #[test]
    fn a_text_read_again_keeps_its_line_and_search_within_the_new_length() {
        let theme = Theme::default();
        let lines = |n: usize| (0..n).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
        let mut v = ReadView::from_read(&read_of(&lines(100)), &theme);
        let Body::Text(t) = &mut v.body else { panic!("text") };
        t.scroll.select(40);
        t.search.query.set("line 4");
        v.retake(&read_of(&lines(120)));
        let Body::Text(t) = &v.body else { panic!("text") };
        assert_eq!((t.scroll.cursor, t.search.query.text()), (40, "line 4"));
        v.retake(&read_of(&lines(10)));
        let Body::Text(t) = &v.body else { panic!("text") };
        assert_eq!(t.scroll.cursor, 9, "the last line of a shorter text");
    }

    #[test]
    fn links_and_embedded_resources() {
        assert_eq!(link_of(&json!({"type": "resource_link", "uri": "a://x"})), Some(Link::Read("a://x".into())));
        assert_eq!(link_of(&json!({"type": "text", "text": "a://x"})), None);
        let theme = Theme::default();
        let v = ReadView::embedded(
            json!({"uri": "a://j", "mimeType": "application/json", "text": "{\"a\": 1.50}"}),
            &theme,
        );
        assert!(matches!(v.body, Body::Tree(_)));
        assert_eq!(v.shown_text().as_deref(), Some("{\"a\": 1.50}"), "the JSON as sent");
        let md = ReadView::embedded(json!({"uri": "a://m.md", "text": "# T\n\x1b[2Jx"}), &theme);
        let Body::Text(t) = &md.body else { panic!("text") };
        assert_eq!(t.text(), "# T\n\\x1b[2Jx");
    }

    fn head_text(v: &ReadView) -> String {
        let lines = v.head(&Theme::default());
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>() + "\n").collect()
    }

    /// A blob whose type is text and whose bytes are UTF-8 is shown as its text, escapes made
    /// visible; a JSON one in the tree; bytes that are not UTF-8 stay binary.
    #[test]
    fn a_text_blob_is_shown_as_text() {
        let theme = Theme::default();
        // "héllo \x1b[2Jx"
        let v =
            ReadView::embedded(json!({"uri": "a://t", "mimeType": "text/plain", "blob": "aMOpbGxvIBtbMkp4"}), &theme);
        let Body::Text(t) = &v.body else { panic!("text") };
        assert_eq!(t.text(), "héllo \\x1b[2Jx");
        assert!(head_text(&v).contains("\ntext sent as base64 (12 B); e saves its bytes\n"), "{}", head_text(&v));
        assert_eq!(v.shown_text().as_deref(), Some("héllo \x1b[2Jx"), "copied as sent");
        let json =
            ReadView::embedded(json!({"uri": "a://j", "mimeType": "application/json", "blob": "eyJhIjogMX0="}), &theme);
        assert!(matches!(json.body, Body::Tree(_)));
        let latin1 = ReadView::embedded(json!({"uri": "a://l", "mimeType": "text/plain", "blob": "Y2Fm6Q=="}), &theme);
        let Body::Text(t) = &latin1.body else { panic!("text") };
        assert!(t.text().starts_with("binary, 4 B"), "{}", t.text());
        assert!(!head_text(&latin1).contains("base64"), "{}", head_text(&latin1));
    }
}
