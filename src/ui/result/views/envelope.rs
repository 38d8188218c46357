//! The Envelope view: below the header, a records table, a JSON tree, or the error.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::super::body::Body;
use super::super::build;
use super::super::view::{Draw, Focus, Kind, ResultView};
use crate::ui::msg::CallResult;
use crate::ui::theme::Theme;

pub const KIND: Kind = Kind { name: "Envelope", build, shed: false };

struct Envelope(Body);

fn build(call: &CallResult, theme: &Theme) -> Box<dyn ResultView> {
    Box::new(Envelope(build::envelope_body(call, theme)))
}

impl ResultView for Envelope {
    fn focus_mut(&mut self) -> Focus<'_> {
        self.0.focus_mut()
    }

    fn typing(&self) -> bool {
        self.0.typing()
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &Draw) {
        self.0.draw(f, area, cx);
    }

    fn back(&mut self) -> bool {
        self.0.back()
    }

    fn reads_envelope(&self) -> bool {
        true
    }
}
