//! What the Envelope and Raw views show below the header: a records table, a JSON tree, or text.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::table::Table;
use super::text::TextView;
use super::view::{Draw, Focus};
use crate::ui::jsonview::JsonView;

pub enum Body {
    Table(Box<Table>),
    Tree(Box<JsonView>),
    Text(TextView),
}

impl Body {
    /// The part that takes keys: an open record's tree, else the body.
    pub fn focus_mut(&mut self) -> Focus<'_> {
        match self {
            Body::Table(t) => match t.record.is_some() {
                true => t.record.as_mut().map_or(Focus::None, Focus::Tree),
                false => Focus::Table(t),
            },
            Body::Tree(v) => Focus::Tree(v),
            Body::Text(t) => Focus::Text(t),
        }
    }

    /// Whether the body's search prompt (or its open record's) takes the keys.
    pub fn typing(&self) -> bool {
        match self {
            Body::Table(t) => match &t.record {
                Some(r) => r.searching,
                None => t.search.typing,
            },
            Body::Tree(v) => v.searching,
            Body::Text(t) => t.search.typing,
        }
    }

    /// Closes an open record (not while its search prompt is open).
    pub fn back(&mut self) -> bool {
        if let Body::Table(t) = self
            && t.record.as_ref().is_some_and(|r| !r.searching)
        {
            t.record = None;
            return true;
        }
        false
    }

    pub fn draw(&self, f: &mut Frame, area: Rect, cx: &Draw) {
        match self {
            Body::Table(t) => t.draw(f, area, cx.theme, cx.focused, cx.first_item),
            Body::Tree(v) => v.render(f, area, cx.theme, cx.focused),
            Body::Text(t) => t.draw(f, area, cx.theme),
        }
    }
}
