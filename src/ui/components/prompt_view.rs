//! A prompt's messages over the panes, by role, every content block shown as the result pane's
//! Content view shows it (text as markdown, image and audio by type and size, embedded resources,
//! resource links). `O` reads a resource link or shows an embedded resource.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Block;

use super::read::{Link, link_of, open_link};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::ops::PromptDone;
use crate::ui::result::text::{TextView, Typed};
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("prompt");

pub struct PromptView {
    name: String,
    text: TextView,
    /// The resources the messages name, with the line each block starts at.
    links: Vec<(usize, Link)>,
}

/// The line that opens a message: its role, bold.
fn role_line(role: &str, theme: &Theme) -> Line<'static> {
    let role = if role.is_empty() { "(no role)".to_string() } else { sanitize::line(role).into_owned() };
    Line::styled(format!("── {role} ──"), theme.paint(Role::JsonKey).add_modifier(Modifier::BOLD))
}

impl PromptView {
    pub fn new(done: &PromptDone, theme: &Theme) -> PromptView {
        let mut lines = vec![];
        let mut links = vec![];
        match &done.outcome {
            Err(e) => lines.push(Line::styled(
                format!("prompts/get failed: {}", sanitize::line(e)),
                theme.paint(Role::Error).add_modifier(Modifier::BOLD),
            )),
            Ok(ok) => {
                let p = &ok.messages;
                lines.push(Line::styled(
                    format!(
                        "{} · {:.0} ms",
                        crate::ui::result::count(p.messages.len(), "message", "messages"),
                        ok.elapsed.as_secs_f64() * 1000.0
                    ),
                    theme.paint(Role::Ok).add_modifier(Modifier::BOLD),
                ));
                if !ok.warnings.is_empty() {
                    lines.push(Line::styled(
                        format!("⚠ the result breaks the MCP schema: {}", sanitize::line(&ok.warnings.join("; "))),
                        theme.paint(Role::Warning),
                    ));
                }
                if let Some(d) = &p.description {
                    lines
                        .extend(sanitize::text(d).lines().map(|l| Line::styled(l.to_string(), theme.paint(Role::Dim))));
                }
                lines.push(Line::raw(""));
                for m in &p.messages {
                    lines.push(role_line(&m.role, theme));
                    for (i, block) in m.content.iter().enumerate() {
                        if let Some(link) = link_of(block) {
                            links.push((lines.len(), link));
                        }
                        lines.extend(crate::ui::result::block_lines(i, block, theme));
                    }
                    lines.push(Line::raw(""));
                }
            }
        }
        PromptView { name: done.name.clone(), text: TextView::new(lines), links }
    }

    /// The first link from the top line shown on, else the last one.
    fn link(&self) -> Option<Link> {
        super::read::pick_link(&self.links, self.text.scroll.cursor)
    }
}

impl Component for PromptView {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn typing(&self) -> bool {
        self.text.search.typing
    }

    fn key(&mut self, k: &KeyEvent, _cx: &mut Ctx) -> Used {
        match self.text.search.key(k) {
            Typed::No => Used::No,
            Typed::Edited => Used::Yes,
            Typed::Accepted => {
                self.text.find_first();
                Used::Yes
            }
        }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Back | Command::Leave => cx.effects.push(Effect::Close),
            Command::Search => self.text.search.open(),
            Command::OpenResource => match self.link() {
                Some(link) => open_link(link, cx),
                None => cx.notice("these messages name no resource", false),
            },
            Command::Copy => {
                let text = self.text.text();
                cx.notice(format!("copied {} bytes to the clipboard (OSC 52)", text.len()), false);
                cx.cmd(Cmd::Copy(text));
            }
            other => {
                if !self.text.command(other) {
                    return Used::No;
                }
            }
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        self.text.height = Block::bordered().inner(area).height.max(1) as usize;
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let keys = keymap::said(SCOPE, &[(Command::OpenResource, "open resource"), (Command::Back, "close")]);
        let title = format!(" Prompt: {} · {keys} ", sanitize::line(&self.name));
        let b = crate::ui::component::overlay_block(theme, title, focused);
        let inner = b.inner(area);
        f.render_widget(b, area);
        self.text.draw(f, inner, theme);
    }
}
