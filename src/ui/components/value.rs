//! A value shown whole over the panes (`o` on a result): a long string wrapped, an object
//! pretty-printed, scrolled with j/k and PgUp/PgDn; Esc (or `o`, `q`) closes it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::scroll::{Scroll, page};
use crate::ui::theme::{Role, Theme};

pub struct ValueOverlay {
    title: String,
    lines: Vec<String>,
    /// `cursor` is the first line shown (wrapped lines scroll by their first row).
    scroll: Scroll,
    /// The rows inside the border at the last layout: how far a page moves.
    rows: usize,
}

impl ValueOverlay {
    /// `text` is untrusted: it is sanitized here, once.
    pub fn new(title: &str, text: &str) -> ValueOverlay {
        let lines: Vec<String> = sanitize::text(text).lines().map(str::to_string).collect();
        let mut scroll = Scroll::new(lines.len().max(1));
        scroll.set_height(1);
        ValueOverlay { title: sanitize::line(title).into_owned(), lines, scroll, rows: 20 }
    }

    pub fn first_line(&self) -> usize {
        self.scroll.cursor
    }

    pub fn text(&self) -> String {
        self.lines.join("\n")
    }
}

impl Component for ValueOverlay {
    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        let page_rows = page(self.rows);
        match cmd {
            Command::Down => self.scroll.down(1),
            Command::Up => self.scroll.up(1),
            Command::PageDown => self.scroll.down(page_rows),
            Command::PageUp => self.scroll.up(page_rows),
            Command::Top => self.scroll.first(),
            Command::Bottom => self.scroll.last(),
            Command::Back | Command::Open | Command::Activate | Command::Quit => cx.effects.push(Effect::Close),
            Command::Copy => cx.cmd(crate::ui::msg::Cmd::Copy(self.text())),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        self.rows = area.height.saturating_sub(2) as usize;
    }

    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let keys = keymap::said(
            Scope::Result,
            &[
                (Command::Down, "scroll"),
                (Command::PageDown, "page"),
                (Command::Copy, "copy"),
                (Command::Back, "closes"),
            ],
        );
        let title = format!(" {} · {keys} ", self.title);
        let b = crate::ui::component::overlay_block(theme, title, focused);
        let body: Vec<Line> = self
            .lines
            .iter()
            .skip(self.scroll.cursor)
            .take(area.height as usize)
            .map(|l| Line::styled(l.clone(), theme.paint(Role::Text)))
            .collect();
        f.render_widget(Paragraph::new(body).wrap(Wrap { trim: false }).block(b), area);
    }

    fn hints(&self) -> Vec<(String, String)> {
        keymap::pairs(Scope::Result, &[(Command::Down, "scroll"), (Command::Copy, "copy"), (Command::Back, "close")])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolls_and_closes() {
        let theme = Theme::default();
        let mut v = ValueOverlay::new("data.x", "a\nb\u{1b}[31m\nc");
        let mut cx = Ctx::new(&theme);
        assert!(v.command(Command::Bottom, &mut cx).yes());
        assert_eq!(v.first_line(), 2);
        assert!(!v.text().contains('\u{1b}'), "sanitized");
        assert!(v.command(Command::Back, &mut cx).yes());
        assert!(matches!(cx.effects.last(), Some(Effect::Close)));
    }
}
