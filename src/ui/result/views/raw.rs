//! The Raw view: the reply as the server sent it, as a tree; `d` shows the JSON that text
//! blocks carry as trees (a path there is one a hint can name).

use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use serde_json::Value;

use super::super::body::Body;
use super::super::text::TextView;
use super::super::view::{Answer, Draw, Focus, Kind, ResultView, tree_pointer};
use crate::ui::jsonview::JsonView;
use crate::ui::keymap::Command;
use crate::ui::msg::CallResult;
use crate::ui::theme::{Role, Theme};

pub const KIND: Kind = Kind { name: "Raw", build, shed: true };

struct Raw {
    body: Body,
    /// Text blocks that carry JSON are shown as trees (`d`).
    decoded: bool,
}

fn build(call: &CallResult, theme: &Theme) -> Box<dyn ResultView> {
    Box::new(Raw { body: body(call, false, theme), decoded: false })
}

fn body(call: &CallResult, decoded: bool, theme: &Theme) -> Body {
    match &call.reply {
        Some(r) if decoded => match decoded_reply(&r.raw) {
            Some(text) => Body::Tree(Box::new(JsonView::from_text(text, "reply (texts decoded)"))),
            None => Body::Tree(Box::new(JsonView::from_text(r.raw.clone(), "reply"))),
        },
        Some(r) => Body::Tree(Box::new(JsonView::from_text(r.raw.clone(), "reply"))),
        None => Body::Text(TextView::new(vec![Line::styled(
            match &call.envelope {
                Some(_) => format!(
                    "This list was gathered from several pages; each page's raw reply is in the log ({}).",
                    crate::ui::keymap::key(crate::ui::keymap::Scope::Any, crate::ui::keymap::Command::ToggleLog)
                ),
                None => "The call got no reply.".to_string(),
            },
            theme.paint(Role::Dim),
        )])),
    }
}

impl ResultView for Raw {
    fn focus_mut(&mut self) -> Focus<'_> {
        self.body.focus_mut()
    }

    fn typing(&self) -> bool {
        self.body.typing()
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &Draw) {
        self.body.draw(f, area, cx);
    }

    fn command(&mut self, cmd: Command, call: &CallResult, theme: &Theme) -> Answer {
        if cmd != Command::DecodeTexts || call.reply.is_none() {
            return Answer::NotMine;
        }
        self.decoded = !self.decoded;
        self.body = body(call, self.decoded, theme);
        Answer::Notice(match self.decoded {
            true => "Raw view: JSON carried in text blocks shown as trees (d: as sent)",
            false => "Raw view: the reply as sent",
        })
    }

    fn pointer(&mut self) -> Option<(String, Value)> {
        // The tree is the whole reply: the result is under `result`.
        match &self.body {
            Body::Tree(v) => tree_pointer(v, &[], true),
            _ => None,
        }
    }

    fn export(&self, call: &CallResult) -> Option<(&'static str, String)> {
        call.reply.as_ref().map(|r| ("raw", r.raw.to_string()))
    }
}

/// Replies larger than this are not decoded (the copy would cost its size several times over).
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
