//! One log entry whole, in an overlay: a header (direction, method, id, time, latency, level),
//! then the message pretty-printed (JSON) or its text, wrapped and scrollable; `p` opens the
//! paired request or reply, `y` copies the message. Secrets stay redacted (the log's text).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::json_pretty::{self, Token};
use crate::mcp::log::{LogEntry, LogKind, LogText, Role, SessionLog};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::scroll::{Scroll, page};
use crate::ui::theme::{Role as Paint, Theme};

/// The most lines a message is laid out in (a bigger one says what was left out).
const MAX_LINES: usize = 200_000;

pub struct EntryView {
    log: SessionLog,
    title: String,
    /// Header and body, wrapped to `width`.
    lines: Vec<Line<'static>>,
    /// The whole message, redacted, for `y`.
    whole: LogText,
    paired: Option<u64>,
    width: u16,
    screen_h: u16,
    scroll: Scroll,
}

impl EntryView {
    /// `width`: the text's width inside the border; `screen_h`: the screen's height.
    pub fn new(log: SessionLog, e: &LogEntry, width: u16, screen_h: u16, t: &Theme) -> EntryView {
        let whole = log.whole(e);
        let mut lines = header(e, whole.len(), t);
        lines.push(Line::raw(""));
        let w = width.max(8) as usize;
        if e.msg.is_some() {
            for l in json_pretty::lines(&whole, MAX_LINES) {
                let spans = l.into_iter().map(|(tok, s)| (t.paint(token_role(tok)), sanitize::line(&s).into_owned()));
                wrap(spans.collect(), w, &mut lines);
            }
        } else {
            for l in sanitize::text(&whole).lines().take(MAX_LINES) {
                wrap(vec![(t.paint(Paint::Text), l.to_string())], w, &mut lines);
            }
        }
        let height = screen_h.saturating_sub(4) as usize;
        let mut scroll = Scroll::new(lines.len());
        scroll.set_height(height);
        let what = match e.kind {
            LogKind::Sent => "sent",
            LogKind::Received => "received",
            _ => e.kind.label(),
        };
        let method = e.msg.as_ref().and_then(|m| m.method.as_deref()).unwrap_or("");
        let title = format!(" Log entry: {what} {} ", sanitize::line(&sanitize::truncate(method, 40)));
        let paired = e.msg.as_ref().and_then(|m| m.paired());
        EntryView { log, title, lines, whole, paired, width, screen_h, scroll }
    }

    fn open_paired(&self, cx: &mut Ctx) {
        match self.paired.and_then(|seq| self.log.get(seq)) {
            Some(p) => {
                let view = EntryView::new(self.log.clone(), &p, self.width, self.screen_h, cx.theme);
                cx.effects.push(Effect::Close);
                cx.effects.push(Effect::Push(Box::new(view)));
            }
            None if self.paired.is_some() => cx.notice("the paired entry is no longer in the log", false),
            None => cx.notice("this entry has no paired request or reply", false),
        }
    }
}

fn token_role(t: Token) -> Paint {
    match t {
        Token::Key => Paint::JsonKey,
        Token::String => Paint::JsonString,
        Token::Number => Paint::JsonNumber,
        Token::Bool => Paint::JsonBool,
        Token::Null => Paint::JsonNull,
        Token::Punct | Token::Space => Paint::Dim,
    }
}

/// What the log knows of the entry, above its text.
fn header(e: &LogEntry, whole_len: usize, t: &Theme) -> Vec<Line<'static>> {
    let field = |k: &str, v: String| {
        Line::from(vec![Span::styled(format!("{k:<9}"), t.paint(Paint::Dim)), Span::styled(v, t.paint(Paint::Text))])
    };
    let mut out = vec![field("time", format!("{} UTC", clock(e.at))), field("kind", e.kind.label().into())];
    let Some(m) = &e.msg else { return out };
    let role = match m.role {
        Role::Request => "request",
        Role::Notification => "notification",
        Role::Reply => "reply",
        Role::Error => "error reply",
    };
    out.push(field("message", role.into()));
    if let Some(method) = &m.method {
        out.push(field("method", sanitize::line(method).into_owned()));
    }
    if let Some(id) = &m.id {
        out.push(field("id", sanitize::line(id).into_owned()));
    }
    if let Some(l) = m.latency {
        out.push(field("latency", format!("{:.1} ms after its request", l.as_secs_f64() * 1000.0)));
    }
    if let Some(level) = m.level {
        let logger = m.logger.as_deref().map(|l| format!(" (logger {})", sanitize::line(l))).unwrap_or_default();
        out.push(field("level", format!("{}{logger}", level.label())));
    }
    let paired = match (m.reply_to, m.reply) {
        (Some(_), _) => Some("p: its request"),
        (_, Some(_)) => Some("p: its reply"),
        _ if m.role == Role::Request => Some("no reply yet"),
        _ => None,
    };
    if let Some(p) = paired {
        out.push(Line::from(Span::styled(format!("{:<9}{p}", ""), t.paint(Paint::Key))));
    }
    if whole_len > 4096 {
        out.push(field("size", format!("{whole_len} bytes")));
    }
    out.push(Line::from(Span::styled(
        format!("{:<9}y copies the message (secrets stay redacted)", ""),
        t.paint(Paint::Dim),
    )));
    out
}

/// Lays styled pieces out in rows of at most `w` characters.
fn wrap(pieces: Vec<(ratatui::style::Style, String)>, w: usize, out: &mut Vec<Line<'static>>) {
    let mut row: Vec<Span<'static>> = vec![];
    let mut used = 0usize;
    for (style, text) in pieces {
        let mut rest = text.as_str();
        while !rest.is_empty() {
            if used == w {
                out.push(Line::from(std::mem::take(&mut row)));
                used = 0;
            }
            let take = rest.char_indices().nth(w - used).map_or(rest.len(), |(i, _)| i);
            let (head, tail) = rest.split_at(take);
            used += head.chars().count();
            row.push(Span::styled(head.to_string(), style));
            rest = tail;
        }
    }
    out.push(Line::from(row));
}

impl Component for EntryView {
    fn scope(&self) -> Scope {
        Scope::LogEntry
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        let h = self.scroll.height.max(1) as isize;
        match cmd {
            Command::Down => self.scroll.scroll_by(1),
            Command::Up => self.scroll.scroll_by(-1),
            Command::PageDown => self.scroll.scroll_by(page(h as usize) as isize),
            Command::PageUp => self.scroll.scroll_by(-(page(h as usize) as isize)),
            Command::Top => self.scroll.scroll_by(-(self.lines.len() as isize)),
            Command::Bottom => self.scroll.scroll_by(self.lines.len() as isize),
            Command::Paired => self.open_paired(cx),
            Command::Copy => {
                cx.notice(format!("copied {} bytes to the clipboard (OSC 52)", self.whole.len()), false);
                cx.cmd(Cmd::Copy(self.whole.to_string()));
            }
            Command::Back | Command::Open => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (self.width.saturating_add(2).min(area.width), area.height.saturating_sub(2))
    }

    fn set_area(&mut self, area: Rect) {
        self.scroll.set_height(area.height.saturating_sub(2) as usize);
    }

    fn draw(&self, f: &mut Frame, r: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, r);
        let inner_h = r.height.saturating_sub(2) as usize;
        let top = self.scroll.top.min(self.lines.len().saturating_sub(inner_h));
        let end = (top + inner_h).min(self.lines.len());
        let more = if end < self.lines.len() || top > 0 {
            format!(" lines {}–{} of {} ", top + 1, end, self.lines.len())
        } else {
            String::new()
        };
        let block = crate::ui::component::overlay_block(t, self.title.clone(), focused)
            .title_bottom(Line::from(more).style(t.paint(Paint::Dim).add_modifier(Modifier::ITALIC)));
        let inner = block.inner(r);
        f.render_widget(block, r);
        let shown: Vec<Line> = self.lines.get(top..end).unwrap_or_default().to_vec();
        f.render_widget(Paragraph::new(shown), inner);
    }
}

/// `HH:MM:SS.mmm` (UTC) without a calendar crate.
pub fn clock(at: std::time::SystemTime) -> String {
    let ms = at.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}.{:03}", (s / 3600) % 24, (s / 60) % 60, s % 60, ms % 1000)
}
