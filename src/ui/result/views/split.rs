//! The Split view: structuredContent beside _meta, as trees over the reply's own text (a 10 MB
//! structuredContent is not copied), with the outputSchema check below; `s` switches sides.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use serde_json::Value;
use serde_json::value::RawValue;

use super::super::CHECK_MAX;
use super::super::view::{Answer, Draw, Focus, Kind, ResultView, tree_pointer};
use crate::sanitize;
use crate::ui::jsonview::JsonView;
use crate::ui::keymap::Command;
use crate::ui::msg::CallResult;
use crate::ui::theme::{Role, Theme};

pub const KIND: Kind = Kind { name: "Split: structuredContent | _meta", build, shed: true };

/// structuredContent and _meta (absent ones are `None`), and the outputSchema check.
struct Split {
    left: Option<JsonView>,
    right: Option<JsonView>,
    check: Vec<Line<'static>>,
    /// _meta has the keys.
    right_side: bool,
    /// The result was gathered from several pages: it has no single reply to show sides of.
    gathered: bool,
}

fn build(call: &CallResult, theme: &Theme) -> Box<dyn ResultView> {
    #[derive(serde::Deserialize)]
    struct Parts<'a> {
        #[serde(borrow, rename = "structuredContent")]
        structured: Option<&'a RawValue>,
        #[serde(borrow, rename = "_meta")]
        meta: Option<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Reply<'a> {
        #[serde(borrow)]
        result: Option<Parts<'a>>,
    }
    let raw = call.reply.as_ref().map(|r| r.raw.clone()).unwrap_or_default();
    let parts = serde_json::from_str::<Reply>(&raw).ok().and_then(|r| r.result);
    let view = |rv: Option<&RawValue>, name: &str| {
        rv.map(|v| {
            let start = v.get().as_ptr() as usize - raw.as_ptr() as usize;
            JsonView::from_text_in(raw.clone(), start..start + v.get().len(), name)
        })
    };
    let structured = parts.as_ref().and_then(|p| p.structured);
    let left = view(structured, "structuredContent");
    let right = view(parts.as_ref().and_then(|p| p.meta), "_meta");
    let gathered = call.reply.is_none() && call.envelope.is_some();
    let check = match gathered && call.output_schema.is_some() {
        true => vec![Line::styled(
            "gathered from several pages: not checked against the outputSchema here (one page's Split view checks it)"
                .to_string(),
            theme.paint(Role::Dim),
        )],
        false => check(call, theme),
    };
    Box::new(Split { left, right, check, right_side: false, gathered })
}

/// The outputSchema check's lines: the check headless `call` warns with, each place it names
/// on a line of its own.
fn check(call: &CallResult, theme: &Theme) -> Vec<Line<'static>> {
    use crate::call::output_schema::{self, OutputCheck};
    let line = |text: String, role: Role| Line::styled(sanitize::line(&text).into_owned(), theme.paint(role));
    let Some(schema) = &call.output_schema else {
        return vec![line("the tool declares no outputSchema".into(), Role::Dim)];
    };
    let Some(reply) = &call.reply else {
        return vec![line("no reply: nothing to check against the outputSchema".into(), Role::Dim)];
    };
    let Some(found) = output_schema::check(schema, &reply.raw, CHECK_MAX) else {
        let why = "the result is an error (the outputSchema describes a success)";
        return vec![line(format!("not checked against the outputSchema: {why}"), Role::Dim)];
    };
    let head = found.headline();
    match &found {
        OutputCheck::Fits => vec![line(format!("✔ {head}"), Role::Ok)],
        OutputCheck::Breaks(v) => {
            let places = if v.len() == 1 { "1 place".to_string() } else { format!("{} places", v.len()) };
            let head = line(format!("✖ {head} in {places}:"), Role::Error);
            let each = v.iter().take(SHOWN).map(|x| line(format!("  {x}"), Role::Error));
            std::iter::once(head).chain(each).collect()
        }
        OutputCheck::Missing => vec![line(format!("✖ {head}"), Role::Error)],
        // Validating needs the parsed tree, ten times the text: not for a big result.
        OutputCheck::TooBig(_) => {
            vec![line(format!("{head} (mcplens call --json, then a validator, checks it)"), Role::Warning)]
        }
        OutputCheck::Unusable(_) => vec![line(head, Role::Warning)],
    }
}

/// The places a broken result names below its headline.
const SHOWN: usize = 5;

impl Split {
    /// What an empty side says: a gathered list has each page's sides in that page's reply.
    fn absent(&self, name: &str) -> Vec<Line<'static>> {
        if !self.gathered {
            return vec![Line::raw("absent"), Line::raw(format!("this result has no {name}"))];
        }
        let log = crate::ui::keymap::key(crate::ui::keymap::Scope::Any, Command::ToggleLog);
        vec![
            Line::raw("gathered from several pages"),
            Line::raw(format!("each page's {name}, if it sent one, is in that page's reply in the log ({log})")),
        ]
    }

    fn side(&self) -> Option<&JsonView> {
        if self.right_side { self.right.as_ref() } else { self.left.as_ref() }
    }
}

impl ResultView for Split {
    fn focus_mut(&mut self) -> Focus<'_> {
        let side = if self.right_side { self.right.as_mut() } else { self.left.as_mut() };
        side.map_or(Focus::None, Focus::Tree)
    }

    fn typing(&self) -> bool {
        self.side().is_some_and(|v| v.searching)
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &Draw) {
        let theme = cx.theme;
        let check_h = (self.check.len() as u16).min(4);
        let [panes, chk] = Layout::vertical([Constraint::Min(3), Constraint::Length(check_h)]).areas(area);
        let [l, r] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(panes);
        for (at, view, name, is_right) in
            [(l, &self.left, "structuredContent", false), (r, &self.right, "_meta", true)]
        {
            let active = cx.focused && self.right_side == is_right;
            let b = Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border(active))
                .title(crate::ui::fit::title(format!(" {name} "), at.width).style(theme.title(active)));
            let inner = b.inner(at);
            f.render_widget(b, at);
            match view {
                Some(v) => v.render(f, inner, theme, active),
                None => f.render_widget(
                    Paragraph::new(self.absent(name)).style(theme.paint(Role::Dim)).wrap(Wrap { trim: false }),
                    inner,
                ),
            }
        }
        f.render_widget(Paragraph::new(crate::ui::fit::lines(self.check.clone(), chk.width as usize)), chk);
    }

    fn command(&mut self, cmd: Command, _call: &CallResult, _theme: &Theme) -> Answer {
        if cmd != Command::SwitchSide {
            return Answer::NotMine;
        }
        self.right_side = !self.right_side;
        Answer::Done
    }

    fn pointer(&mut self) -> Option<(String, Value)> {
        let prefix = if self.right_side { "_meta" } else { "structuredContent" };
        tree_pointer(self.side()?, &[prefix], false)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::ui::result::build::tests::call;

    fn said(result: Value) -> String {
        let lines = check(&call(result), &Theme::default());
        lines.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    /// The Split view says what headless `call` warns of, in its words, and nothing of a result
    /// the schema does not describe.
    #[test]
    fn the_check_is_the_one_headless_call_makes() {
        let text = json!([{"type": "text", "text": "x"}]);
        assert_eq!(said(json!({"content": text, "structuredContent": {"n": 1}})), "✔ structuredContent fits the tool's outputSchema");
        assert_eq!(
            said(json!({"content": text, "structuredContent": {"n": "x"}})),
            "✖ structuredContent breaks the tool's outputSchema in 1 place:\n  /n: \"x\" is not of type \"integer\""
        );
        let missing = "✖ the tool declares an outputSchema but the result has no structuredContent";
        assert_eq!(said(json!({"content": text})), missing);
        assert_eq!(said(json!({"content": text, "structuredContent": null})), missing);
        let error = said(json!({"content": text, "isError": true}));
        assert_eq!(error, "not checked against the outputSchema: the result is an error (the outputSchema describes a success)");
    }
}
