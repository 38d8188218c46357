//! The skills overlay (`I`): the skills the server serves (SEP-2640) with their description
//! and files, listed without reading any; Enter loads the selected skill's SKILL.md, verified
//! against its entry (size, sha256, frontmatter), and shows it, or says why it was refused.

use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use tokio::sync::mpsc;

use crate::mcp::Session;
use crate::sanitize;
use crate::skills::{Fetched, Files, Skill, SkillList};
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::{Cmd, Msg, SessionMsg};
use crate::ui::scroll::Scroll;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("skills");

/// The worker's side: the listing (only once the server declared the extension), or one skill
/// loaded. Each ends with a message for the app.
pub(crate) async fn work(session: Arc<Session>, cmd: Cmd, out: mpsc::UnboundedSender<Msg>) {
    let msg = match cmd {
        Cmd::Skills if !session.offers_skills() => SessionMsg::Skills(Err(format!(
            "the server does not declare the skills extension ({})",
            crate::skills::EXTENSION
        ))),
        Cmd::Skills => SessionMsg::Skills(session.list_skills().await.map_err(|e| e.message)),
        Cmd::LoadSkill(skill) => {
            let loaded = match session.load_skill(&skill).await {
                Ok(Ok(f)) => Ok(f),
                Ok(Err(refusal)) => Err(format!("not loaded: {}", refusal.message())),
                Err(e) => Err(e.message),
            };
            SessionMsg::SkillFile { uri: skill.uri.clone(), loaded: Box::new(loaded) }
        }
        _ => return,
    };
    let _ = out.send(Msg::Session(msg));
}

/// The list of skills.
pub struct SkillsOverlay {
    list: Result<SkillList, String>,
    scroll: Scroll,
}

impl SkillsOverlay {
    pub fn new(list: Result<SkillList, String>) -> SkillsOverlay {
        let n = list.as_ref().map_or(0, |l| l.skills.len());
        SkillsOverlay { list, scroll: Scroll::new(n) }
    }

    fn selected(&self) -> Option<&Skill> {
        self.list.as_ref().ok()?.skills.get(self.scroll.cursor)
    }

    fn rows(skill: &Skill, t: &Theme) -> Line<'static> {
        let files = match &skill.files {
            Files::Listed(f) => format!("{} file{}", f.len(), if f.len() == 1 { "" } else { "s" }),
            Files::Dynamic => "dynamic".into(),
            Files::Invalid(_) => "invalid entry".into(),
        };
        Line::from(vec![
            Span::styled(
                // The path, not the name alone: names need not be unique (SEP-2640 "Names").
                format!("{:<28} ", sanitize::truncate(&sanitize::line(skill.path()), 28)),
                t.paint(Role::Text).add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{:<10} ", files), t.paint(Role::Key)),
            Span::styled(
                sanitize::truncate(&sanitize::line(skill.description()), 200).into_owned(),
                t.paint(Role::Dim),
            ),
        ])
    }
}

impl Component for SkillsOverlay {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Open => {
                let Some(skill) = self.selected() else { return Used::Yes };
                cx.notice(format!("reading {} …", sanitize::line(&skill.uri)), false);
                cx.cmd(Cmd::LoadSkill(Box::new(skill.clone())));
            }
            Command::Back | Command::Skills => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(SCOPE, &[(Command::Open, "load and verify"), (Command::Back, "close")]);
        let lines: Vec<Line> = match &self.list {
            Err(why) => vec![Line::styled(sanitize::line(why).into_owned(), t.paint(Role::Warning))],
            Ok(list) => self.list_lines(list, area, t),
        };
        let n = self.list.as_ref().map_or(0, |l| l.skills.len());
        let block = crate::ui::component::overlay_block(t, format!(" Skills: {n} · {keys} "), focused);
        // Why there is no list is read whole; the list's rows end in … at the edge.
        let p = if self.list.is_err() {
            Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false })
        } else {
            let w = area.width.saturating_sub(2) as usize;
            Paragraph::new(lines.into_iter().map(|l| crate::ui::fit::fit(l, w)).collect::<Vec<_>>())
        };
        f.render_widget(p.block(block), area);
    }

    fn hints(&self) -> Vec<(String, String)> {
        keymap::overlay_footer(SCOPE)
    }

    fn set_area(&mut self, area: Rect) {
        // Two lines below the list: the selected skill's URI and files.
        self.scroll.set_height(area.height.saturating_sub(5) as usize);
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(6).min(120), area.height.saturating_sub(6))
    }
}

impl SkillsOverlay {
    fn list_lines(&self, list: &SkillList, area: Rect, t: &Theme) -> Vec<Line<'static>> {
        let mut lines = vec![];
        if list.skills.is_empty() {
            lines.push(Line::styled("The server lists no skills.", t.paint(Role::Dim)));
        }
        for i in self.scroll.window(area.height.saturating_sub(5) as usize) {
            let Some(s) = list.skills.get(i) else { continue };
            let line = Self::rows(s, t);
            lines.push(if i == self.scroll.cursor { line.style(t.selection()) } else { line });
        }
        if let Some(s) = self.selected() {
            lines.push(Line::raw(""));
            lines.push(Line::styled(sanitize::line(&s.uri).into_owned(), t.paint(Role::Key)));
            let problems = s.problems();
            let detail = match problems.first() {
                Some(p) => (format!("⚠ {p}"), Role::Warning),
                None => (file_list(s), Role::Dim),
            };
            lines.push(Line::styled(sanitize::line(&detail.0).into_owned(), t.paint(detail.1)));
        }
        lines
    }
}

fn file_list(s: &Skill) -> String {
    match &s.files {
        Files::Listed(files) => {
            let names: Vec<&str> = files
                .iter()
                .map(|f| f.uri.strip_prefix(s.root()).and_then(|p| p.strip_prefix('/')).unwrap_or(&f.uri))
                .collect();
            let total = s.total_size().unwrap_or(0);
            sanitize::truncate(&format!("{total} bytes: {}", names.join(" ")), 400).into_owned()
        }
        Files::Dynamic => "resources: dynamic (nothing to verify against)".into(),
        Files::Invalid(why) => why.clone(),
    }
}

/// `text` in lines of at most about `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

/// One loaded skill file: the verification said, then the text; or why it was refused.
pub struct SkillFileOverlay {
    title: String,
    lines: Vec<(Role, String)>,
    scroll: Scroll,
}

impl SkillFileOverlay {
    pub fn new(uri: &str, loaded: &Result<Fetched, String>) -> SkillFileOverlay {
        let mut lines = vec![];
        match loaded {
            Err(why) => lines.extend(wrap(why, 100).into_iter().map(|l| (Role::Error, l))),
            Ok(f) => {
                let check = match (f.verified, f.frontmatter.is_some()) {
                    (true, true) => "verified: size, sha256, frontmatter",
                    (true, false) => "verified: size, sha256",
                    (false, _) => "size and digest NOT verified: the skill's resources are dynamic",
                };
                lines.push((
                    if f.verified { Role::Ok } else { Role::Warning },
                    format!("{} bytes · {check}", f.bytes.len()),
                ));
                lines.push((Role::Dim, String::new()));
                let text = f.content.text().map(|t| sanitize::text(t).into_owned());
                let text = text.unwrap_or_else(|| "(binary content)".into());
                lines.extend(text.lines().take(20_000).map(|l| (Role::Text, l.to_string())));
            }
        }
        let scroll = Scroll::new(lines.len());
        SkillFileOverlay { title: sanitize::line(uri).into_owned(), lines, scroll }
    }
}

impl Component for SkillFileOverlay {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.scroll.navigate(cmd) => {}
            Command::Back | Command::Open | Command::Skills => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let back = keymap::key(SCOPE, Command::Back);
        let block = crate::ui::component::overlay_block(t, format!(" Skill {} · {back} back ", self.title), focused);
        let shown: Vec<Line> = self
            .scroll
            .window(area.height.saturating_sub(2) as usize)
            .filter_map(|i| self.lines.get(i))
            .map(|(role, text)| Line::styled(sanitize::line(text).into_owned(), t.paint(*role)))
            .collect();
        f.render_widget(Paragraph::new(shown).block(block), area);
    }

    fn hints(&self) -> Vec<(String, String)> {
        keymap::pairs(SCOPE, &[(Command::Down, "scroll"), (Command::Back, "back")])
    }

    fn set_area(&mut self, area: Rect) {
        self.scroll.set_height(area.height.saturating_sub(2) as usize);
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(6).min(120), area.height.saturating_sub(4))
    }
}
