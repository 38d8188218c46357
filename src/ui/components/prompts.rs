//! The server's prompts (every page) with their arguments, a docked pane: `p` shows it in place
//! of the schema. Below the list, the selected prompt's arguments (required ones marked `*`) and
//! its descriptor as sent. Enter opens a form for the arguments (a prompt without any is got at
//! once); the messages it returns open over the panes.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::fill::FillOverlay;
use super::listed::{ItemList, ListDraw, cell, section};
use crate::mcp::{Descriptor, ItemKind, Listing};
use crate::sanitize;
use crate::ui::component::{Component, Ctx, Effect, Observed, Used};
use crate::ui::keymap::{self, Command, Scope};
use crate::ui::msg::Cmd;
use crate::ui::theme::{Role, Theme};

pub const SCOPE: Scope = Scope("prompts");

#[derive(Default)]
pub struct PromptsPane {
    list: ItemList,
    connected: bool,
    declared: bool,
    completes: bool,
    prompts: Option<Result<Listing, String>>,
}

impl PromptsPane {
    fn activate(&mut self, cx: &mut Ctx) {
        let Some(d) = self.list.selected() else { return };
        if d.arguments().is_empty() {
            cx.notice(format!("getting the prompt {}", sanitize::line(d.name())), false);
            cx.cmd(Cmd::GetPrompt { name: d.name().to_string(), arguments: serde_json::Map::new() });
            return;
        }
        let mut fill = FillOverlay::new(d, self.completes);
        if let Some(c) = fill.first_ask() {
            cx.cmd(c);
        }
        cx.effects.push(Effect::Push(Box::new(fill)));
    }

    fn row(d: &Descriptor, t: &Theme) -> Vec<Span<'static>> {
        let name = if d.name().is_empty() { "(no name)" } else { d.name() };
        let args = d.arguments();
        let required = args.iter().filter(|a| a.required).count();
        let mut spans = vec![
            Span::styled(if d.problem().is_some() { "! " } else { "  " }.to_string(), t.paint(Role::Error)),
            Span::styled(cell(name, 24), t.paint(Role::Text).add_modifier(Modifier::BOLD)),
            Span::styled(
                format!(
                    " {:<16}",
                    format!("{} ({required} req.)", crate::ui::result::count(args.len(), "arg", "args"))
                ),
                t.paint(Role::Dim),
            ),
        ];
        if let Some(title) = d.title() {
            spans.push(Span::styled(format!(" {}", sanitize::line(title)), t.paint(Role::JsonString)));
        }
        spans
    }

    /// The selected prompt's description and arguments above its descriptor.
    fn facts(&self, t: &Theme) -> Vec<Line<'static>> {
        let Some(d) = self.list.selected() else { return vec![] };
        let mut out = vec![];
        if let Some(p) = d.problem() {
            out.push(Line::styled(format!("! malformed: {}", sanitize::line(&p)), t.paint(Role::Error)));
        }
        if let Some(desc) = d.description() {
            out.push(Line::styled(sanitize::line(desc).into_owned(), t.paint(Role::Text)));
        }
        let args = d.arguments();
        if args.is_empty() {
            let get = keymap::key(SCOPE, Command::Activate);
            out.push(Line::styled(format!("no arguments · {get} gets it"), t.paint(Role::Key)));
        }
        for a in args {
            let about = [a.title.as_deref(), a.description.as_deref()].into_iter().flatten().collect::<Vec<_>>();
            out.push(Line::from(vec![
                Span::styled(format!("  {}", cell(&a.name, 18)), t.paint(Role::JsonKey)),
                Span::styled(
                    if a.required { "* required  " } else { "  optional  " },
                    t.paint(if a.required { Role::Required } else { Role::Dim }),
                ),
                Span::styled(sanitize::line(&about.join(" — ")).into_owned(), t.paint(Role::Dim)),
            ]));
        }
        out
    }
}

impl Component for PromptsPane {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn typing(&self) -> bool {
        self.list.filtering
    }

    fn title(&self) -> String {
        let n = self.prompts.as_ref().and_then(|r| r.as_ref().ok()).map_or(0, |l| l.items.len());
        let (get, show, back) = (
            keymap::key(SCOPE, Command::Activate),
            keymap::key(SCOPE, Command::Show),
            keymap::key(SCOPE, Command::Back),
        );
        format!(" Prompts ({n}){} · {get} get · {show} or {back} hides ", self.list.filter_note())
    }

    fn observe(&mut self, event: &Observed, _cx: &mut Ctx) {
        match event {
            Observed::Server(s) => {
                *self = PromptsPane {
                    connected: true,
                    declared: s.declares(&["prompts"]),
                    completes: s.declares(&["completions"]),
                    ..PromptsPane::default()
                };
                self.rebuild();
            }
            Observed::Listed { kind: ItemKind::Prompt, list } => {
                self.prompts = Some((*list).clone());
                self.rebuild();
            }
            _ => {}
        }
    }

    fn key(&mut self, key: &KeyEvent, _cx: &mut Ctx) -> Used {
        if self.list.filtering { self.list.filter_key(key) } else { Used::No }
    }

    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used {
        match cmd {
            cmd if self.list.navigate(cmd) => {}
            Command::Filter => self.list.start_filter(),
            Command::Back if self.list.clear_filter() => {}
            Command::Activate => self.activate(cx),
            Command::Open => self.list.open(cx),
            Command::Copy => self.list.copy(cx),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        self.list.facts = self.facts(&Theme::default()).len();
        self.list.set_area(area);
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        let note = ItemList::not_listing(
            self.connected,
            self.declared,
            "The server declares no prompts capability: it offers no prompts.",
        );
        let list = ListDraw { scope: SCOPE, focused, row: &|d| PromptsPane::row(d, t), facts: self.facts(t) };
        self.list.draw_pane(f, area, t, note, list);
    }
}

impl PromptsPane {
    fn rebuild(&mut self) {
        let mut rows = vec![];
        section(&mut rows, "Prompts", self.prompts.as_ref());
        self.list.set_rows(rows);
    }

    /// The rows as listed (for tests): headings and prompt names.
    pub fn labels(&self) -> Vec<String> {
        self.list.labels()
    }
}
