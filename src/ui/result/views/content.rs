//! The Content view: the content blocks in order, each with a heading.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::super::build::result_member;
use super::super::content_lines_at;
use super::super::text::TextView;
use super::super::view::{Draw, Focus, Kind, ResultView};
use crate::ui::msg::CallResult;
use crate::ui::theme::{Role, Theme};

pub const KIND: Kind = Kind { name: "Content", build, shed: true };

struct Content {
    text: TextView,
    /// The line each content block starts at.
    starts: Vec<usize>,
}

fn build(call: &CallResult, theme: &Theme) -> Box<dyn ResultView> {
    let content = result_member(call, "content").map(|c| serde_json::json!({"content": c}));
    let (lines, starts) = match content.or_else(|| result_member(call, "")) {
        Some(r) => content_lines_at(&r, theme),
        None => (vec![Line::styled("No reply to show (see the Envelope view).", theme.paint(Role::Dim))], vec![]),
    };
    Box::new(Content { text: TextView::new(lines), starts })
}

impl ResultView for Content {
    fn focus_mut(&mut self) -> Focus<'_> {
        Focus::Text(&mut self.text)
    }

    fn typing(&self) -> bool {
        self.text.search.typing
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &Draw) {
        self.text.draw(f, area, cx.theme);
    }

    /// The whole text: the blocks are what this view is for.
    fn copy_text(&mut self) -> Option<String> {
        Some(self.text.text())
    }

    fn block_position(&self) -> Option<(&[usize], usize)> {
        Some((&self.starts, self.text.scroll.cursor))
    }
}
