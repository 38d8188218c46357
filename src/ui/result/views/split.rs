//! The Split view: structuredContent beside _meta, as trees over the reply's own text (a 10 MB
//! structuredContent is not copied), with the outputSchema check below; `s` switches sides.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use serde_json::Value;
use serde_json::value::RawValue;

use super::super::CHECK_MAX;
use super::super::build::result_member;
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
        false => check(call, structured.map_or(0, |s| s.get().len()), theme),
    };
    Box::new(Split { left, right, check, right_side: false, gathered })
}

/// The outputSchema check's lines.
fn check(call: &CallResult, sc_len: usize, theme: &Theme) -> Vec<Line<'static>> {
    // Validating needs the parsed tree, ten times the text: not for a big result.
    let checkable = sc_len <= CHECK_MAX;
    let sc = call.output_schema.as_ref().filter(|_| checkable).and_then(|_| result_member(call, "structuredContent"));
    let line = |text: String, role: Role| Line::styled(text, theme.paint(role));
    match (&call.output_schema, &sc) {
        (Some(_), None) if !checkable => vec![line(
            format!(
                "structuredContent is {:.1} MB: not checked against the outputSchema here \
                     (mcplens call --json, then a validator, checks it)",
                sc_len as f64 / (1 << 20) as f64
            ),
            Role::Warning,
        )],
        (Some(schema), Some(sc)) => match crate::schema::validate::validate(schema, sc) {
            Ok(v) if v.is_empty() => vec![line("✔ structuredContent matches the tool's outputSchema".into(), Role::Ok)],
            Ok(v) => {
                let head = format!("✖ structuredContent breaks the outputSchema in {} place(s):", v.len());
                let places = v.iter().take(5).map(|x| line(format!("  {x}"), Role::Error));
                std::iter::once(line(head, Role::Error)).chain(places).collect()
            }
            Err(e) => vec![line(sanitize::line(&e).into_owned(), Role::Warning)],
        },
        (Some(_), None) => {
            vec![line("✖ the tool has an outputSchema but sent no structuredContent".into(), Role::Error)]
        }
        (None, _) => vec![line("the tool declares no outputSchema".into(), Role::Dim)],
    }
}

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
