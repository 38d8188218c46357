//! The server's resources and resource templates (every page), a docked pane: `r` shows it in
//! place of the schema. Each row has the name, URI, MIME type and size; below, the selected
//! descriptor as sent. Enter reads a resource (or opens a template's form), `s` subscribes to its
//! updates; a subscribed resource is marked `●`, and each update the server announces adds to
//! its `✱` count.

use std::collections::{HashMap, HashSet};

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

pub const SCOPE: Scope = Scope("resources");

/// How many of a template's variables its line names before it counts the rest.
const VARIABLES_SHOWN: usize = 20;

#[derive(Default)]
pub struct ResourcesPane {
    list: ItemList,
    /// Connected to a server that declares resources (and what else it declares).
    connected: bool,
    declared: bool,
    subscribable: bool,
    completes: bool,
    resources: Option<Result<Listing, String>>,
    templates: Option<Result<Listing, String>>,
    subscribed: HashSet<String>,
    /// Updates announced (`notifications/resources/updated`) by URI.
    updates: HashMap<String, usize>,
    /// The pane's width: the URI column comes before the MIME type and size, and takes the room
    /// the longest URI needs where there is as much.
    width: usize,
    longest_uri: usize,
}

impl ResourcesPane {
    fn rebuild(&mut self) {
        let mut rows = vec![];
        section(&mut rows, "Resources", self.resources.as_ref());
        section(&mut rows, "Resource templates", self.templates.as_ref());
        self.longest_uri = rows
            .iter()
            .filter_map(|r| match r {
                super::listed::Row::Item(d) => d.uri().map(|u| sanitize::line(u).chars().count()),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        self.list.set_rows(rows);
    }

    fn activate(&mut self, cx: &mut Ctx) {
        let Some(d) = self.list.selected() else { return };
        match (d.kind, d.uri()) {
            (_, None) => cx.notice(format!("this {} has no URI to read", d.kind.noun()), true),
            (ItemKind::Template, Some(_)) => {
                let mut fill = FillOverlay::new(d, self.completes);
                if let Some(c) = fill.first_ask() {
                    cx.cmd(c);
                }
                cx.effects.push(Effect::Push(Box::new(fill)));
            }
            (_, Some(uri)) => {
                cx.notice(format!("reading {}", sanitize::line(uri)), false);
                cx.cmd(Cmd::ReadResource { uri: uri.to_string(), refresh: false });
            }
        }
    }

    fn subscribe(&mut self, cx: &mut Ctx) {
        let Some(d) = self.list.selected() else { return };
        let Some(uri) = d.uri().filter(|_| d.kind == ItemKind::Resource) else {
            cx.notice("only a resource (not a template) can be subscribed to", false);
            return;
        };
        if !self.subscribable {
            cx.notice("the server does not declare resources.subscribe: it sends no updates", true);
            return;
        }
        let on = !self.subscribed.contains(uri);
        let verb = if on { "subscribing to" } else { "unsubscribing from" };
        cx.notice(format!("{verb} {}", sanitize::line(uri)), false);
        cx.cmd(Cmd::Subscribe { uri: uri.to_string(), on });
    }

    /// The URI column's width: the longest URI's, or what the mark and name columns leave when
    /// that is less (the MIME type and size after it are then cut at the pane's edge: the URI
    /// tells rows apart, they do not). Never less than a short URI needs.
    fn uri_width(&self) -> usize {
        const BEFORE: usize = 3 + 2 + 22 + 1;
        // The border and the space before the MIME type.
        let room = self.width.saturating_sub(BEFORE + 3);
        self.longest_uri.min(room).max(12)
    }

    /// A resource's or a template's row.
    fn row(&self, d: &Descriptor, t: &Theme) -> Vec<Span<'static>> {
        let uri = d.uri().unwrap_or("(no uri)");
        let mark = match (self.subscribed.contains(uri), self.updates.get(uri)) {
            (_, Some(n)) => format!("✱{n:<2}"),
            (true, None) => "●  ".to_string(),
            (false, None) => "   ".to_string(),
        };
        let name = if d.name().is_empty() { "(no name)" } else { d.name() };
        let mut spans = vec![
            Span::styled(mark, t.paint(Role::Match).add_modifier(Modifier::BOLD)),
            crate::ui::app_marks::problem_or_view(d, t),
            Span::styled(cell(name, 22), t.paint(Role::Text).add_modifier(Modifier::BOLD)),
            Span::raw(" "),
            Span::styled(super::uri_cut::cell(uri, self.uri_width()), t.paint(Role::JsonString)),
            Span::raw(" "),
            Span::styled(cell(d.mime_type().unwrap_or(""), 18), t.paint(Role::Dim)),
        ];
        if let Some(size) = d.size() {
            spans.push(Span::styled(format!(" {}", crate::cli::items::human_size(size)), t.paint(Role::Dim)));
        }
        spans
    }

    /// Facts about the selected item above its descriptor.
    fn facts(&self, t: &Theme) -> Vec<Line<'static>> {
        let Some(d) = self.list.selected() else { return vec![] };
        let mut out = vec![];
        if let Some(p) = d.problem() {
            out.push(Line::styled(format!("! malformed: {}", sanitize::line(&p)), t.paint(Role::Error)));
        }
        let uri = d.uri().unwrap_or("");
        match d.kind {
            ItemKind::Template => {
                let (vars, more) = crate::mcp::uri_template::first_variables(uri, VARIABLES_SHOWN);
                let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
                let vars = match (names.is_empty(), more) {
                    (true, _) => "(none)".to_string(),
                    (false, true) => format!("{}, and more", names.join(", ")),
                    (false, false) => names.join(", "),
                };
                out.push(Line::styled(
                    format!(
                        "variables: {} · {}: a form for them",
                        sanitize::line(&vars),
                        keymap::key(SCOPE, Command::Activate)
                    ),
                    t.paint(Role::Key),
                ));
            }
            _ if self.subscribed.contains(uri) => {
                let n = self.updates.get(uri).copied().unwrap_or(0);
                out.push(Line::styled(
                    format!(
                        "● subscribed · {} announced · s unsubscribes",
                        crate::ui::result::count(n, "update", "updates")
                    ),
                    t.paint(Role::Match),
                ));
            }
            _ => {}
        }
        out
    }
}

impl Component for ResourcesPane {
    fn scope(&self) -> Scope {
        SCOPE
    }

    fn typing(&self) -> bool {
        self.list.filtering
    }

    fn title(&self) -> String {
        let n =
            |l: &Option<Result<Listing, String>>| l.as_ref().and_then(|r| r.as_ref().ok()).map_or(0, |l| l.items.len());
        let subs = if self.subscribed.is_empty() {
            String::new()
        } else {
            format!(" · {} subscribed", self.subscribed.len())
        };
        format!(
            " Resources ({}) · templates ({}){subs}{} · {} read · {} or {} hides ",
            n(&self.resources),
            n(&self.templates),
            self.list.filter_note(),
            keymap::key(SCOPE, Command::Activate),
            keymap::key(SCOPE, Command::Show),
            keymap::key(SCOPE, Command::Back)
        )
    }

    fn observe(&mut self, event: &Observed, _cx: &mut Ctx) {
        match event {
            Observed::Server(s) => {
                *self = ResourcesPane {
                    connected: true,
                    declared: s.declares(&["resources"]),
                    subscribable: s.declares(&["resources", "subscribe"]),
                    completes: s.declares(&["completions"]),
                    ..ResourcesPane::default()
                };
                self.rebuild();
            }
            Observed::Listed { kind: ItemKind::Resource, list } => {
                self.resources = Some((*list).clone());
                self.rebuild();
            }
            Observed::Listed { kind: ItemKind::Template, list } => {
                self.templates = Some((*list).clone());
                self.rebuild();
            }
            Observed::Subscribed { uri, on } => {
                if *on {
                    self.subscribed.insert(uri.to_string());
                } else {
                    self.subscribed.remove(*uri);
                }
            }
            Observed::Updated(uri) => *self.updates.entry(uri.to_string()).or_default() += 1,
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
            Command::Subscribe => self.subscribe(cx),
            Command::Copy => self.list.copy(cx),
            _ => return Used::No,
        }
        Used::Yes
    }

    fn set_area(&mut self, area: Rect) {
        self.width = area.width as usize;
        self.list.facts = self.facts(&Theme::default()).len();
        self.list.set_area(area);
    }

    fn draw(&self, f: &mut Frame, area: Rect, t: &Theme, focused: bool) {
        let note = ItemList::not_listing(
            self.connected,
            self.declared,
            "The server declares no resources capability: it offers no resources or templates.",
        );
        let list = ListDraw { scope: SCOPE, focused, row: &|d| self.row(d, t), facts: self.facts(t) };
        self.list.draw_pane(f, area, t, note, list);
    }
}

impl ResourcesPane {
    /// The rows as listed (for tests): headings and item labels.
    pub fn labels(&self) -> Vec<String> {
        self.list.labels()
    }
}
