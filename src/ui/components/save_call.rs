//! Saving the call on screen into the collection (`S` on a result): its name, and which
//! expectations to keep, each a checkbox prefilled from the answer (status, responseType, a time
//! budget, the output schema holding, the item count, each top-level structuredContent member).
//! Enter asks the worker to write it; the expectations are made by the core (`expect_now`).

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::collection::{At, Check, Expect, Observed, SavedCall, Source};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::line_input::{Edit, LineInput};
use crate::ui::msg::{CallResult, Cmd};
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("save_call");

/// The most structuredContent members offered (a huge object is not a checklist).
const MAX_MEMBERS: usize = 20;
/// The longest name kept.
const MAX_NAME: usize = 200;

/// One expectation that can be kept.
#[derive(Debug, Clone, PartialEq)]
enum Keep {
    Status,
    ResponseType,
    TimeMs(u64),
    OutputSchema,
    ItemCount(u64),
    /// A path of the result (`/structuredContent/<member>`), checked equal to its value now.
    Path(String),
}

struct Row {
    keep: Keep,
    label: String,
    checked: bool,
}

pub struct SaveCallOverlay {
    file: String,
    name: LineInput,
    tool: String,
    arguments: Option<serde_json::Map<String, serde_json::Value>>,
    all_pages: bool,
    seen: Observed,
    rows: Vec<Row>,
    /// 0 is the name; 1.. the rows.
    cursor: usize,
    /// Members of structuredContent past [`MAX_MEMBERS`], not offered.
    more: usize,
}

/// A budget with room for a slower run: five times this call's time, at least a second, in
/// whole hundreds of milliseconds.
fn budget(took: std::time::Duration) -> u64 {
    let ms = (took.as_millis() as u64).saturating_mul(5).max(1000);
    ms.div_ceil(100) * 100
}

impl SaveCallOverlay {
    /// The overlay for `call` as it is on screen, or why it cannot be saved.
    pub fn new(call: &CallResult, name: String, file: &str) -> Result<SaveCallOverlay, String> {
        let seen = crate::ui::saved::observed(call).ok_or_else(|| match &call.error {
            Some(e) => format!("nothing to save: the call got no answer ({})", sanitize::line(e)),
            None => "nothing to save: the call got no answer".to_string(),
        })?;
        // A number kept as typed is saved as its digits (a stand-in means nothing to another process).
        let arguments = match crate::envelope::pager::without_stand_ins(&call.arguments) {
            serde_json::Value::Object(m) => Some(m),
            _ => None,
        };
        let mut overlay = SaveCallOverlay {
            file: file.to_string(),
            name: LineInput::new(MAX_NAME),
            tool: call.tool.clone(),
            arguments,
            all_pages: call.reply.is_none(),
            seen,
            rows: vec![],
            cursor: 0,
            more: 0,
        };
        overlay.name.set(&name);
        overlay.offer(call);
        Ok(overlay)
    }

    /// The expectations this answer can give, checked as they hold now.
    fn offer(&mut self, call: &CallResult) {
        let seen = &self.seen;
        let mut rows =
            vec![Row { keep: Keep::Status, label: format!("status is {}", seen.status.as_str()), checked: true }];
        if let Some(t) = seen.response_type {
            rows.push(Row {
                keep: Keep::ResponseType,
                label: format!("responseType is {}", t.as_str()),
                checked: true,
            });
        }
        let ms = budget(seen.elapsed);
        rows.push(Row {
            keep: Keep::TimeMs(ms),
            label: format!("takes at most {ms} ms (this call: {} ms)", seen.elapsed.as_millis()),
            // Off unless chosen: timing varies from machine to machine.
            checked: false,
        });
        if seen.output_schema.is_some() {
            let probe = Expect { output_schema: true, ..Expect::default() };
            let holds = crate::collection::evaluate(&probe, seen).is_empty();
            let label =
                format!("structuredContent fits the outputSchema{}", if holds { "" } else { " (it does not now)" });
            rows.push(Row { keep: Keep::OutputSchema, label, checked: holds });
        }
        if let Some(env) = call.envelope.as_ref().filter(|e| e.response_type == crate::envelope::ResponseType::List) {
            let n = env.item_count() as u64;
            rows.push(Row {
                keep: Keep::ItemCount(n),
                label: format!("envelope:/data holds {n} items"),
                checked: true,
            });
        }
        let structured = seen
            .raw
            .as_deref()
            .and_then(|raw| crate::collection::lookup::result_at(raw, "/structuredContent", seen.max_depth))
            .map(|s| s.value().into_owned());
        let members = structured.as_ref().and_then(serde_json::Value::as_object);
        for (key, value) in members.into_iter().flatten().take(MAX_MEMBERS) {
            let path = format!("/structuredContent/{}", crate::schema::diff::token(key));
            let label = format!("{path} equals {}", crate::collection::expect::show(value));
            rows.push(Row { keep: Keep::Path(path), label: sanitize::line(&label).into_owned(), checked: true });
        }
        self.more = members.map_or(0, |m| m.len().saturating_sub(MAX_MEMBERS));
        self.rows = rows;
    }

    /// The call with the checked expectations.
    fn saved_call(&self) -> Result<SavedCall, String> {
        let checked = |k: &dyn Fn(&Keep) -> bool| self.rows.iter().any(|r| r.checked && k(&r.keep));
        let paths: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.checked)
            .filter_map(|r| match &r.keep {
                Keep::Path(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let mut expect = crate::collection::expect::expect_now(&self.seen, &paths)?;
        if !checked(&|k| *k == Keep::Status) {
            expect.status = None;
        }
        if !checked(&|k| *k == Keep::ResponseType) {
            expect.response_type = None;
        }
        expect.output_schema = checked(&|k| *k == Keep::OutputSchema);
        for row in self.rows.iter().filter(|r| r.checked) {
            match row.keep {
                Keep::TimeMs(ms) => expect.time_ms = Some(ms),
                Keep::ItemCount(n) => expect.at.push(At {
                    source: Source::Envelope,
                    pointer: "/data".into(),
                    checks: vec![Check::Length(n)],
                }),
                _ => {}
            }
        }
        let mut call = SavedCall::new(self.name.text().trim(), &self.tool, self.arguments.clone());
        call.all_pages = self.all_pages;
        call.expect = expect;
        Ok(call)
    }

    fn save(&self, cx: &mut Ctx) {
        if self.name.text().trim().is_empty() {
            cx.notice("the call needs a name", true);
            return;
        }
        match self.saved_call() {
            Ok(call) => {
                cx.cmd(Cmd::SaveCall { file: self.file.clone().into(), call });
                cx.effects.push(Effect::Close);
            }
            Err(e) => cx.notice(format!("not saved: {}", sanitize::line(&e)), true),
        }
    }

    fn move_by(&mut self, down: bool) {
        let last = self.rows.len();
        self.cursor = if down { (self.cursor + 1).min(last) } else { self.cursor.saturating_sub(1) };
    }
}

impl Component for SaveCallOverlay {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn typing(&self) -> bool {
        self.cursor == 0
    }

    /// On the name, letters and Space type into it, so their commands are not offered there.
    fn hints(&self) -> Vec<(String, String)> {
        if self.cursor != 0 {
            return keymap::overlay_footer(SCOPE);
        }
        keymap::while_typing(keymap::overlay_footer_of(SCOPE, |c| c != Command::Toggle))
    }

    /// On the name, typing edits it.
    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.cursor != 0 || self.name.key(key) == Edit::NotMine {
            return Used::No;
        }
        Used::Yes
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            Command::Run => self.save(cx),
            Command::Toggle => {
                if let Some(row) = self.cursor.checked_sub(1).and_then(|i| self.rows.get_mut(i)) {
                    row.checked = !row.checked;
                }
            }
            Command::NextField | Command::Down => self.move_by(true),
            Command::PrevField | Command::Up => self.move_by(false),
            Command::Leave | Command::Back => cx.effects.push(Effect::Close),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        let h = (self.rows.len() as u16).saturating_add(7);
        (area.width.saturating_sub(4).min(100), h.min(area.height.saturating_sub(2)))
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        f.render_widget(Clear, area);
        let title = format!(" Save the call into {} ", crate::ui::saved::short_name(&self.file));
        let block = crate::ui::component::overlay_block(t, title, focused);
        let sel = |i: usize, line: Line<'static>| if i == self.cursor { line.style(t.selection()) } else { line };
        let mut lines = vec![
            Line::styled(format!("tool {}", sanitize::line(&self.tool)), t.paint(Role::Dim)),
            sel(
                0,
                Line::from(vec![
                    Span::styled("name ", t.paint(Role::Key)),
                    self.name.span(
                        (area.width as usize).saturating_sub(8),
                        self.cursor == 0,
                        t.paint(Role::Text).add_modifier(Modifier::BOLD),
                    ),
                ]),
            ),
            Line::styled("expect:", t.paint(Role::Title)),
        ];
        for (i, row) in self.rows.iter().enumerate() {
            let mark = if row.checked { "[x] " } else { "[ ] " };
            let line = Line::from(vec![
                Span::styled(mark, t.paint(if row.checked { Role::Ok } else { Role::Dim })),
                Span::styled(row.label.clone(), t.paint(Role::Text)),
            ]);
            lines.push(sel(i + 1, line));
        }
        if self.more > 0 {
            lines.push(Line::styled(
                format!("({} more structuredContent members not offered)", self.more),
                t.paint(Role::Dim),
            ));
        }
        lines.push(Line::styled(
            format!(
                "{} saves (a call of the same name is replaced) · {} checks · {}/{} move · {} cancels",
                keymap::key(SCOPE, Command::Run),
                keymap::key(SCOPE, Command::Toggle),
                keymap::key_last(SCOPE, Command::PrevField),
                keymap::key_last(SCOPE, Command::NextField),
                keymap::key(SCOPE, Command::Leave)
            ),
            t.paint(Role::Dim),
        ));
        // Wrapped: the keys' line is longer than a narrow screen.
        f.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }).block(block), area);
    }
}
