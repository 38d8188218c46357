//! Input: keys, mouse and the commands they map to, for the app model in `app.rs`.

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use std::time::Instant;

use ratatui::layout::Position;

use super::app::{App, Pane};
use super::component::{Action, Ctx, Effect, Used};
use super::components::help::Help;
use super::components::history::HistoryOverlay;
use super::keymap::{self, Command, Scope};
use super::msg::{Cmd, Purpose, Running};
use super::result::{Page, ResultState, View};
use super::saved::RunMsg;
use crate::envelope::PageKind;

impl App {
    /// `]`, `[` and `A` on the shown result.
    pub(super) fn page_command(&mut self, cmd: Command) -> Vec<Cmd> {
        let Some(current) = self.result() else {
            self.notice = Some(("no result yet: run a tool first".into(), false));
            return vec![];
        };
        let tool = current.call.tool.clone();
        let env = current.call.envelope.clone();
        let args = current.call.arguments.clone();
        match cmd {
            Command::PrevPage => {
                if !self.panes.turn_page(false) {
                    self.notice = Some(("this is the first page".into(), false));
                }
                vec![]
            }
            Command::NextPage if self.panes.turn_page(true) => vec![],
            // Every page fetched already, the last one among them: gathered with no request.
            Command::AllPages if env.as_ref().is_none_or(|e| !e.has_more()) && self.panes.pages().len() > 1 => {
                self.gather(tool, args)
            }
            Command::NextPage | Command::AllPages => {
                let Some(env) = env.filter(|e| e.has_more()) else {
                    let shown = self.result().map(|r| (r.call.envelope.as_deref(), r.page.first_item));
                    let why = shown.map_or_else(|| "there are no more pages".into(), |(e, at)| no_next_page(e, at));
                    self.notice = Some((why, false));
                    return vec![];
                };
                let descriptor = self.panes.tools.find(&tool).map(|t| t.value().clone());
                let schema = descriptor.as_ref().and_then(|d| d.get("inputSchema")).cloned();
                let empty = serde_json::Map::new();
                let next =
                    crate::envelope::pager::next_arguments(schema.as_ref(), args.as_object().unwrap_or(&empty), &env);
                match next {
                    Err(why) => {
                        self.notice = Some((why, true));
                        vec![]
                    }
                    Ok(None) => vec![],
                    Ok(Some((next_args, _))) if cmd == Command::NextPage => {
                        self.start_call_for(tool, serde_json::Value::Object(next_args), Purpose::NextPage)
                    }
                    Ok(Some(_)) => self.gather(tool, args),
                }
            }
            _ => vec![],
        }
    }

    /// `A`: every page from the first, gathered into one list: the pages fetched so far, then
    /// the rest asked for from the last of them.
    fn gather(&mut self, tool: String, args: serde_json::Value) -> Vec<Cmd> {
        if self.running.is_some() {
            self.notice = Some((keymap::running_note(), true));
            return vec![];
        }
        let descriptor = self.panes.tools.find(&tool).map(|t| t.value().clone());
        let known: Vec<_> = self.panes.pages().iter().filter_map(|r| r.call.envelope.clone()).collect();
        let last_args = self.panes.pages().last().map_or_else(|| args.clone(), |r| r.call.arguments.clone());
        let first = self.panes.pages().first().map_or(args, |r| r.call.arguments.clone());
        self.running =
            Some(Running { tool: tool.clone(), started: Instant::now(), progress: None, purpose: Purpose::AllPages });
        vec![Cmd::AllPages { tool, arguments: last_args, first, descriptor, known }]
    }

    /// `S`: the overlay that saves the call on screen into the collection.
    fn save_call(&mut self) {
        let Some(r) = self.result() else {
            let save = keymap::key(Scope::Result, Command::SaveCall);
            self.notice = Some((format!("no result yet: run a tool first, then {save} saves the call"), false));
            return;
        };
        let n = self.panes.past().iter().filter(|(_, p)| p.tool == r.call.tool).count().max(1);
        let name = format!("{}{n}", r.call.tool);
        let file = self.collection_file.display().to_string();
        match super::components::save_call::SaveCallOverlay::new(&r.call, name, &file) {
            Ok(o) => self.panes.overlays.push(Box::new(o)),
            Err(e) => self.notice = Some((e, true)),
        }
    }

    /// After a pane was offered a key: nothing if it did not use it, else what it asked for.
    pub(crate) fn settle(&mut self, used: Used, effects: Vec<Effect>) -> Option<Vec<Cmd>> {
        if !used.yes() {
            return None;
        }
        self.notice = None;
        Some(self.apply(effects))
    }

    /// Carries out what components asked for; returns the worker's share.
    pub(crate) fn apply(&mut self, effects: Vec<Effect>) -> Vec<Cmd> {
        let mut cmds = vec![];
        for e in effects {
            match e {
                Effect::Cmd(c) => cmds.push(c),
                Effect::Notice(n, error) => self.notice = Some((n, error)),
                Effect::Close => {
                    self.panes.overlays.pop();
                }
                Effect::Push(c) => self.panes.overlays.push(c),
                Effect::App(a) => cmds.extend(self.act(a)),
            }
        }
        self.relayout();
        cmds
    }

    fn act(&mut self, a: Action) -> Vec<Cmd> {
        let risky = self.destructive_runs(&a);
        if !risky.is_empty() {
            let ask = super::components::confirm::Confirm::run(&risky, a);
            self.panes.overlays.push(Box::new(ask));
            return vec![];
        }
        self.act_asked(a)
    }

    /// The destructive tools a run from outside their form would call (the form asks itself).
    fn destructive_runs(&self, a: &Action) -> Vec<String> {
        let tools: Vec<&str> = match a {
            Action::Run { tool, .. } => vec![tool.as_str()],
            Action::RunSaved(calls) => calls.iter().map(|c| c.tool.as_str()).collect(),
            _ => return vec![],
        };
        let mut risky: Vec<String> = vec![];
        for t in tools.into_iter().filter(|t| self.panes.tools.find(t).is_some_and(|d| d.destructive())) {
            // A collection may call one tool several times: named once.
            if !risky.iter().any(|r| r == t) {
                risky.push(t.to_string());
            }
        }
        risky
    }

    /// An action that needs no question, or whose question was answered.
    fn act_asked(&mut self, a: Action) -> Vec<Cmd> {
        match a {
            Action::Confirmed(a) => self.act_asked(*a),
            Action::OpenForm { tool, arguments } => {
                if self.select_listed(&tool) {
                    self.open_form(arguments);
                }
                vec![]
            }
            Action::Run { tool, arguments } => {
                if self.select_listed(&tool) {
                    self.start_call(tool, arguments)
                } else {
                    vec![]
                }
            }
            Action::CopyAs { tool, arguments } => {
                self.copy_as(&tool, &arguments);
                vec![]
            }
            Action::ShowPast { at, tool } => {
                match self.panes.past().iter().rev().find(|(when, r)| *when == at && r.tool == tool) {
                    Some((_, r)) => {
                        let shown = ResultState::new(r.clone(), Page::first_of(r), &self.theme);
                        self.panes.show_result(shown);
                        self.panes.focus = Pane::Result;
                    }
                    None => {
                        self.notice = Some((
                            format!(
                                "only calls made in this session keep their result; {} reopens the form",
                                keymap::key(Scope::History, Command::Open)
                            ),
                            false,
                        ))
                    }
                }
                vec![]
            }
            Action::RunForm { tool, .. } if self.panes.tools.find(&tool).is_none() => {
                self.notice = Some((super::app::unlisted_note(&tool), true));
                vec![]
            }
            Action::RunForm { tool, arguments } => {
                let cmds = self.start_call(tool, arguments);
                // Sent: quitting no longer loses anything typed.
                if let (false, Some(f)) = (cmds.is_empty(), &mut self.panes.form) {
                    f.edited = false;
                }
                cmds
            }
            Action::Quit => {
                self.quit = true;
                vec![Cmd::Quit]
            }
            Action::LeaveForm => {
                self.panes.keep_form();
                self.panes.focus = Pane::Tools;
                vec![]
            }
            Action::Connect(_) => vec![],
            Action::RunSaved(calls) => {
                if !matches!(self.conn, super::app::Conn::Connected) {
                    // The pane marked them running: they were not.
                    let not_run = calls.into_iter().map(|c| c.name).collect();
                    let cmds = self.observe(&super::component::Observed::SavedRun(&RunMsg::Finished { not_run }));
                    self.notice = Some((keymap::not_connected_note(), true));
                    return cmds;
                }
                let with = calls
                    .into_iter()
                    .map(|c| {
                        let d = self.panes.tools.find(&c.tool).map(|t| t.value().clone());
                        (c, d)
                    })
                    .collect();
                vec![Cmd::RunSaved(with)]
            }
        }
    }

    fn select_listed(&mut self, tool: &str) -> bool {
        let found = self.select_tool(tool);
        if !found {
            self.notice = Some((format!("this server no longer lists {tool}"), true));
        }
        found
    }

    pub(super) fn command(&mut self, cmd: Command) -> Vec<Cmd> {
        self.notice = None;
        match cmd {
            Command::Quit => return self.quit_or_ask(false),
            Command::ForceQuit => return self.quit_or_ask(true),
            Command::Help => self.panes.overlays.push(Box::new(Help::new(self.scope()))),
            Command::Reconnect => return self.reconnect(),
            cmd if super::requests::handles(cmd) => return self.request(cmd),
            Command::ServerLogLevel => self.pick_server_level(),
            Command::CancelCall => {
                if self.running.is_some() || self.saved_running() {
                    return vec![Cmd::Cancel];
                }
                self.notice = Some(("no call is running".into(), false));
            }
            Command::History => self.panes.overlays.push(Box::new(HistoryOverlay::new(&self.history.entries))),
            Command::Tasks => return vec![Cmd::Tasks],
            Command::Skills => return vec![Cmd::Skills],
            Command::NextPage | Command::PrevPage | Command::AllPages => return self.page_command(cmd),
            Command::NextView | Command::View1 | Command::View2 | Command::View3 | Command::View4 => {
                self.show_view(cmd)
            }
            Command::MarkRecords | Command::MarkNext => return self.teach(cmd),
            Command::SaveCall => self.save_call(),
            Command::CopyAs => self.copy_shown_call(),
            Command::Zoom => self.panes.zoom = !self.panes.zoom,
            Command::ToggleLog => {
                self.panes.show_log = !self.panes.show_log;
                self.panes.focus = if self.panes.show_log { Pane::Log } else { Pane::Tools };
                self.panes.log.sync();
            }
            Command::NextPane | Command::PrevPane => self.panes.step_focus(cmd == Command::NextPane),
            Command::Filter => {
                self.panes.focus = Pane::Tools;
                self.panes.tools.filtering = true;
            }
            Command::Back => {
                let raw_schema = self.panes.schema.as_ref().is_some_and(|s| s.raw_shown());
                if self.panes.focus == Pane::Result && self.panes.form.is_some() {
                    self.panes.focus_form();
                    if let Some(f) = &mut self.panes.form {
                        f.park();
                    }
                } else if self.panes.focus == Pane::Schema && raw_schema {
                    self.navigate(Command::ToggleRaw);
                } else if self.panes.focus != Pane::Tools {
                    self.panes.focus = Pane::Tools;
                } else if self.panes.tools.clear_filter() {
                    self.sync_schema();
                } else {
                    self.dirty = false;
                }
            }
            Command::Open => self.open_form(None),
            Command::ToggleRaw | Command::ExpandAll | Command::CollapseAll if self.panes.focus == Pane::Schema => {
                self.navigate(cmd)
            }
            nav => self.navigate(nav),
        }
        vec![]
    }

    /// `R`: a new session. A call under way is cancelled first (the worker does it, and waits
    /// for it to end), and says so.
    fn reconnect(&mut self) -> Vec<Cmd> {
        if self.running.is_some() || self.saved_running() {
            self.reconnecting = true;
            self.notice = Some(("reconnecting: the call under way is cancelled first".into(), false));
        }
        vec![Cmd::Reconnect]
    }

    /// Shows the result in the view a number key names, or the next one.
    fn show_view(&mut self, cmd: Command) {
        let Some(r) = self.result_mut() else {
            self.notice = Some(("no result yet: run a tool first".into(), false));
            return;
        };
        let nth = match cmd {
            Command::View1 => View::nth(0),
            Command::View2 => View::nth(1),
            Command::View3 => View::nth(2),
            Command::View4 => View::nth(3),
            _ => None,
        };
        let view = nth.unwrap_or_else(|| r.view.next());
        r.set_view(view);
        self.panes.focus = Pane::Result;
    }

    /// Whether what has the keys holds a text cursor (a filter, a search, a form, a name being
    /// typed): the one place that says so, for the router and the footer.
    pub fn typing(&self) -> bool {
        self.panes.typing()
    }

    /// Quits, unless that loses something: a form's edits never sent, a call under way (and any
    /// request of the server's it is waiting on), or a call being saved; then asks first (asked
    /// already: quits). Ctrl-C (`forced`) asks only for a form's edits: it stops a call at once.
    pub(super) fn quit_or_ask(&mut self, forced: bool) -> Vec<Cmd> {
        use super::components::confirm::{Confirm, QUIT};
        let asking = self.panes.overlays.top().is_some_and(|t| t.scope() == QUIT);
        let unsent = self.panes.unsent_forms();
        let confirm = if asking {
            None
        } else if !unsent.is_empty() {
            Some(Confirm::quit(&unsent))
        } else if forced {
            None
        } else if let Some(r) = &self.running {
            let tool = crate::sanitize::line(&r.tool).into_owned();
            Some(Confirm::quit_losing(format!("{tool} is running."), "Quitting stops it."))
        } else if self.saved_running() {
            Some(Confirm::quit_losing("Saved calls are running.".into(), "Quitting stops them."))
        } else if self.panes.overlays.top().is_some_and(|t| t.scope() == super::components::save_call::SCOPE) {
            Some(Confirm::quit_losing("The call is not saved yet.".into(), "Quitting leaves it unsaved."))
        } else {
            None
        };
        match confirm {
            Some(c) => {
                self.panes.overlays.push(Box::new(c));
                vec![]
            }
            None => {
                self.quit = true;
                vec![Cmd::Quit]
            }
        }
    }

    /// `m` / `M` on a node of the Raw or Split tree: a hint for this server and tool.
    fn teach(&mut self, cmd: Command) -> Vec<Cmd> {
        use crate::envelope::hints::Hint;
        let server = self.server.as_ref().map(|s| s.name().to_string()).filter(|n| !n.is_empty());
        let tool = self.result().map(|r| r.call.tool.clone()).unwrap_or_default();
        let descriptor = self.panes.tools.find(&tool).map(|t| t.value().clone());
        let Some(r) = self.result_mut() else {
            self.notice = Some(("no result yet: run a tool first".into(), false));
            return vec![];
        };
        if r.call.reply.is_none() {
            self.notice =
                Some(("this result has no single reply to read (gathered pages): run the call again".into(), true));
            return vec![];
        }
        let Some((pointer, value)) = r.selected_pointer() else {
            self.notice = Some(("select a node of the result in the Raw (4) or Split (2) view first".into(), false));
            return vec![];
        };
        let mut hint =
            Hint { server: server.unwrap_or_else(|| "*".into()), tool: r.call.tool.clone(), ..Hint::default() };
        if cmd == Command::MarkRecords {
            hint.records = Some(pointer);
        } else {
            let schema = descriptor.as_ref().and_then(|d| d.get("inputSchema"));
            let kind = if value.is_number() { PageKind::Offset } else { PageKind::Cursor };
            let args = r.call.arguments.as_object().cloned().unwrap_or_default();
            hint.argument = crate::envelope::pager::position_argument(schema, kind, &args).or_else(|| {
                let props = schema.and_then(|s| s.get("properties")).and_then(|p| p.as_object())?;
                props.keys().find(|k| crate::envelope::position::kind_of(k).is_some()).cloned().or_else(|| {
                    // `page_key`, `resume_token`, `startMarker`: a name that says it pages.
                    const WORDS: &[&str] =
                        &["page", "cursor", "token", "offset", "start", "next", "after", "skip", "marker"];
                    props.keys().find(|k| WORDS.iter().any(|w| k.to_ascii_lowercase().contains(w))).cloned()
                })
            });
            hint.next = Some(pointer);
        }
        vec![Cmd::Teach { hint, call: super::msg::Shown(Box::new(r.call.clone())), descriptor }]
    }

    /// A command for the focused pane, through the pane collection; what a pane does not use
    /// may move the focus (Right from the tool list into the schema, Left back out).
    pub(super) fn navigate(&mut self, cmd: Command) {
        let focus = self.panes.focus;
        let used = match focus {
            // The form took its keys already (`App::pane_key`).
            Pane::Form => false,
            Pane::Result => self.result_mut().is_some_and(|r| r.navigate(cmd)),
            _ => {
                let mut cx = Ctx::new(&self.theme);
                self.panes.focused_mut().is_some_and(|p| p.command(cmd, &mut cx).yes())
            }
        };
        match focus {
            Pane::Tools if used => self.sync_schema(),
            Pane::Tools if cmd == Command::Expand => self.panes.focus = self.panes.middle(),
            Pane::Schema if !used && cmd == Command::Collapse => self.panes.focus = Pane::Tools,
            _ if !used => self.dirty = false,
            _ => {}
        }
    }

    pub(super) fn mouse(&mut self, m: MouseEvent) {
        let at = Position::new(m.column, m.row);
        let pane = [
            (Pane::Tools, self.areas.tools),
            // The schema's place holds the schema, the form or a docked pane.
            (self.panes.middle(), self.areas.schema),
            (Pane::Result, self.areas.result),
            (Pane::Log, self.areas.log),
        ]
        .into_iter()
        .find(|(_, r)| r.contains(at))
        .map(|(p, _)| p);
        let Some(pane) = pane else {
            self.dirty = false;
            return;
        };
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.panes.focus = pane;
                match pane {
                    Pane::Tools => {
                        let row = m.row.saturating_sub(self.areas.tools.y + 1) as usize;
                        if m.row > self.areas.tools.y {
                            self.panes.tools.click(row, self.areas.tools.height.saturating_sub(2) as usize);
                            self.sync_schema();
                        }
                    }
                    Pane::Schema => {
                        if let Some(s) = &mut self.panes.schema {
                            s.click(super::app::inner_of(self.areas.schema), m.row, &self.theme);
                        }
                    }
                    _ => {}
                }
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = matches!(m.kind, MouseEventKind::ScrollDown);
                let saved = self.panes.focus;
                self.panes.focus = pane;
                for _ in 0..3 {
                    self.navigate(if down { Command::Down } else { Command::Up });
                }
                self.panes.focus = saved;
            }
            _ => self.dirty = false,
        }
    }
}

/// A printable character with no Ctrl or Alt: text, where text is being typed.
pub(super) fn is_text(k: &KeyEvent) -> bool {
    matches!(k.code, crossterm::event::KeyCode::Char(c) if !c.is_control())
        && !k.modifiers.intersects(crossterm::event::KeyModifiers::CONTROL | crossterm::event::KeyModifiers::ALT)
}

/// Why `]` has nothing to fetch: the last page (`first_item` is where the page on screen starts),
/// or a list that says it holds more than it sent but gives no way (offset, cursor, page) to ask
/// for the rest.
fn no_next_page(env: Option<&crate::envelope::Envelope>, first_item: usize) -> String {
    let summary = env.and_then(|e| e.summary.as_ref());
    let seen = |returned: u64| (first_item as u64).saturating_add(returned);
    match summary.and_then(|s| Some((s.total?, s.returned?))) {
        Some((total, returned)) if total > seen(returned) => format!(
            "no next page: the server says {total} in all and sent items {}–{}, but gives no offset, cursor or \
             page to ask for more (a larger limit argument may return more)",
            first_item + 1,
            seen(returned)
        ),
        Some((total, _)) => format!("this is the last page: {total} in all"),
        _ => "there are no more pages".into(),
    }
}
