//! The TUI's model and its update function. No I/O here: the update returns commands that the
//! session worker carries out, and the worker's answers come back as messages.

use std::time::{Duration, Instant};

use crossterm::event::KeyEventKind;
use ratatui::layout::Rect;

use super::components::schema::SchemaPane;
use super::components::tools::Status as ToolsStatus;
use super::form::FormState;
use super::keymap::Scope;
use super::panes::Panes;
use super::result::{Page, ResultState};
use super::theme::Theme;
use crate::history::History;
use crate::mcp::{Progress, ServerInfo, ToolDescriptor, ToolList};

#[derive(Debug, Clone)]
pub enum Conn {
    Connecting {
        since: Instant,
    },
    Connected,
    /// Could not connect, or the session ended; the message names the cause.
    Down(String),
}

pub use super::layout::{Areas, Pane};
pub use super::msg::{CallResult, Cmd, Msg, Purpose, Running, SessionMsg, Shown, Withdrawn};
pub use super::outline::{Outline, SetUp};

/// The model. Its fields are the UI's own (its modules read and change them); code outside the
/// UI drives it with `update` and sees it through `outline.rs` (state in brief, the panes it reads).
pub struct App {
    pub(super) theme: Theme,
    pub(super) target_label: String,
    pub(super) conn: Conn,
    pub(super) server: Option<ServerInfo>,
    /// The target as given, for `Y` (a call as a command).
    pub(super) copy_source: Option<crate::cli::as_command::CopySource>,
    /// The OAuth login state, shown in the server line.
    pub(super) login: Option<crate::mcp::auth::LoginState>,
    /// The panes and overlays, which one has the keys, and the one way to reach each.
    pub(super) panes: Panes,
    pub(super) notice: Option<(String, bool)>,
    /// Where the panes are, from `layout::layout` after each update (for mouse hits and pages).
    pub(super) areas: Areas,
    /// The terminal's size.
    pub(super) size: Rect,
    pub(super) dirty: bool,
    pub(super) quit: bool,
    pub(super) history: History,
    pub(super) running: Option<Running>,
    /// The level last set with `logging/setLevel` (the picker opens on it).
    pub(super) server_level: Option<crate::mcp::log::Level>,
    /// The collection file (`--collection`), where `S` saves the call on screen.
    pub(super) collection_file: std::path::PathBuf,
    /// `R` was pressed with a call under way: the worker cancels it before it reconnects, and
    /// its result says why.
    pub(super) reconnecting: bool,
}

impl App {
    pub fn new(theme: Theme, target_label: String) -> Self {
        let mut app = App {
            theme,
            target_label,
            conn: Conn::Connecting { since: Instant::now() },
            server: None,
            copy_source: None,
            login: None,
            panes: Panes::new(),
            notice: None,
            areas: Areas::default(),
            size: Rect::new(0, 0, 120, 40),
            dirty: true,
            quit: false,
            history: History::default(),
            running: None,
            server_level: None,
            collection_file: super::saved::DEFAULT_FILE.into(),
            reconnecting: false,
        };
        app.set_conn(Conn::Connecting { since: Instant::now() });
        app
    }

    pub fn result(&self) -> Option<&ResultState> {
        self.panes.result()
    }

    pub(super) fn result_mut(&mut self) -> Option<&mut ResultState> {
        self.panes.result_mut()
    }

    /// How soon the app wants a `Tick` (a spinner, or a visible log that may grow).
    pub(super) fn tick_every(&self) -> Option<Duration> {
        match self.conn {
            Conn::Connecting { .. } => Some(Duration::from_millis(100)),
            _ if self.running.is_some() => Some(Duration::from_millis(100)),
            _ if self.panes.show_log => Some(Duration::from_millis(250)),
            _ => None,
        }
    }

    pub fn selected_tool(&self) -> Option<&ToolDescriptor> {
        self.panes.tools.selected()
    }

    pub(super) fn scope(&self) -> Scope {
        self.panes.scope()
    }

    /// Builds the schema pane when the selected tool changed.
    pub(super) fn sync_schema(&mut self) {
        let Some(idx) = self.panes.tools.selected_index() else {
            self.panes.schema = None;
            return;
        };
        if self.panes.schema.as_ref().is_some_and(|s| s.tool == idx) {
            return;
        }
        let Some(tool) = self.panes.tools.tools.get(idx) else { return };
        let mut pane = SchemaPane::new(idx, tool);
        if let Some(c) = &self.panes.tools.since {
            pane.set_since(c, tool.name());
        }
        self.panes.schema = Some(pane);
        self.relayout();
    }

    /// The tools compared with the saved snapshot: the list marks them, the schema pane and the
    /// info pane say what changed. A snapshot that cannot be read is a warning only.
    fn compared(&mut self, outcome: super::baseline::Outcome) -> Vec<Cmd> {
        match outcome {
            Ok(c) => {
                let file = crate::sanitize::line(&c.file).into_owned();
                if let Some(why) = &c.other_server {
                    self.notice = Some((format!("snapshot {file} not compared: {why}"), true));
                } else if let Some(why) = &c.note {
                    self.notice = Some((format!("snapshot {file} compared: {why}"), false));
                }
                self.panes.tools.since = Some(c.clone());
                self.panes.schema = None;
                self.sync_schema();
                self.observe(&super::component::Observed::Compared(&c))
            }
            Err(e) => {
                self.notice = Some((e, true));
                vec![]
            }
        }
    }

    /// Selects the tool named `name` (clearing a filter that hides it); false if not listed.
    pub(super) fn select_tool(&mut self, name: &str) -> bool {
        let found = self.panes.tools.select_name(name);
        self.sync_schema();
        found
    }

    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        let focus = self.panes.focus;
        let cmds = self.update_in(msg);
        self.panes.keep_focus_shown();
        if self.panes.focus != focus {
            // Zoom shows the focused pane: it ends when the focus moves on.
            self.panes.zoom = false;
        }
        self.relayout();
        cmds
    }

    /// What the layout depends on.
    pub(super) fn shape(&self) -> super::layout::Shape {
        super::layout::Shape {
            zoom: self.panes.zoom,
            focus: self.panes.focus,
            show_log: self.panes.show_log,
            has_result: self.result().is_some() || self.running.is_some(),
        }
    }

    /// A new terminal size.
    pub(super) fn resize(&mut self, size: Rect) {
        self.size = size;
        self.dirty = true;
        self.relayout();
    }

    /// The panes' places for this state, and the page sizes that follow from them.
    pub(super) fn relayout(&mut self) {
        self.areas = super::layout::layout(self.shape(), self.size);
        self.panes.tools.scroll.set_height(self.areas.tools.height.saturating_sub(2) as usize);
        let screen = self.size;
        self.panes.overlays.set_areas(|c| {
            let (w, h) = c.overlay_size(screen);
            super::component::centered(screen, w, h)
        });
        self.panes.overlays.count_waiting();
        let screen = (self.size.width, self.size.height);
        self.panes.log.set_layout(self.areas.log.height.saturating_sub(2), screen);
        let rows = self.areas.result.height.saturating_sub(2) as usize;
        let status = usize::from(self.running.is_some() || self.notice.is_some());
        if let Some(r) = self.panes.result_mut() {
            r.set_height(rows.saturating_sub(status));
        }
        // The form draws its own border; a docked pane is drawn inside the App's.
        if let Some(form) = self.panes.get_mut(Pane::Form) {
            form.set_area(self.areas.schema);
        }
        let inner = inner_of(self.areas.schema);
        if let Some(p) = self.panes.get_mut(Pane::Docked) {
            p.set_area(inner);
        }
        if let Some(s) = &mut self.panes.schema {
            s.set_area(inner, &self.theme);
        }
    }

    fn update_in(&mut self, msg: Msg) -> Vec<Cmd> {
        self.dirty = true;
        match msg {
            Msg::Key(k) if k.kind == KeyEventKind::Release => {
                self.dirty = false;
                vec![]
            }
            Msg::Key(k) => self.on_key(k),
            Msg::Paste(text) => self.on_paste(&text),
            Msg::Mouse(m) => {
                self.mouse(m);
                vec![]
            }
            Msg::Resize => vec![],
            Msg::Tick => {
                let grew = self.panes.log.sync();
                if matches!(self.conn, Conn::Connecting { .. }) || self.running.is_some() {
                    return vec![];
                }
                self.dirty = grew && self.panes.show_log;
                vec![]
            }
            Msg::Session(s) => self.session(s),
        }
    }

    fn session(&mut self, s: SessionMsg) -> Vec<Cmd> {
        match s {
            SessionMsg::Connecting => {
                self.reconnecting = false;
                self.set_conn(Conn::Connecting { since: Instant::now() });
            }
            SessionMsg::Connected { server, tools, log } => return self.connected(*server, tools, log),
            SessionMsg::ToolsRefreshed(tools) => self.set_tools(tools),
            SessionMsg::Failed { error, log } => {
                if let Some(log) = log {
                    self.panes.log.set_log(log);
                }
                self.set_conn(Conn::Down(error));
            }
            SessionMsg::Closed { reason } => self.set_conn(Conn::Down(reason)),
            SessionMsg::Notice(n) => self.notice = Some((n, false)),
            SessionMsg::Asked(view) => {
                self.panes.overlays.queue(Box::new(super::components::ask::AskOverlay::new(&view)));
                self.relayout();
            }
            SessionMsg::Tasks(tasks) => {
                let now = std::time::Instant::now();
                self.panes.overlays.push(Box::new(super::components::tasks::TasksOverlay::new(tasks, now)));
                self.relayout();
            }
            SessionMsg::Skills(list) => {
                self.panes.overlays.push(Box::new(super::components::skills::SkillsOverlay::new(list)));
                self.relayout();
            }
            SessionMsg::SkillFile { uri, loaded } => {
                self.panes.overlays.push(Box::new(super::components::skills::SkillFileOverlay::new(&uri, &loaded)));
                self.relayout();
            }
            SessionMsg::Login(state) => self.login = state,
            SessionMsg::Compared(outcome) => return self.compared(outcome),
            SessionMsg::Collection { file, loaded } => {
                return self.observe(&super::component::Observed::Collection { file: &file, loaded: &loaded });
            }
            SessionMsg::SavedRun(mut m) => {
                if let super::saved::RunMsg::Done { entry, result, .. } = &mut m {
                    if self.reconnecting && entry.status == crate::call::CallStatus::Cancelled {
                        result.error = Some(RECONNECT_CANCELLED.into());
                    }
                    self.history.entries.push(entry.clone());
                    self.panes.keep_past(entry.at, (**result).clone());
                }
                return self.observe(&super::component::Observed::SavedRun(&m));
            }
            SessionMsg::AskWithdrawn(id, why) => {
                self.panes.overlays.close_on(&super::component::Observed::AskWithdrawn(&id));
                self.notice = Some((why.note().into(), false));
                self.relayout();
            }
            SessionMsg::Retaught(call) => self.retaught(*call),
            SessionMsg::CallProgress(p) => {
                if let Some(r) = &mut self.running {
                    r.progress = Some(p);
                }
            }
            SessionMsg::PagerProgress(pages, items, total) => {
                if let Some(r) = &mut self.running {
                    r.progress = Some(Progress {
                        progress: items as f64,
                        total: total.map(|t| t as f64),
                        message: Some(format!("page {pages}: {}", super::result::count(items, "item", "items"))),
                    });
                }
            }
            SessionMsg::CallDone(result, entry) => self.call_done(*result, entry),
            other => return self.item_session(other),
        }
        vec![]
    }

    /// The session is up: the server's info to the panes, its tools listed, the collection read.
    fn connected(&mut self, server: ServerInfo, tools: ToolList, log: crate::mcp::log::SessionLog) -> Vec<Cmd> {
        self.set_conn(Conn::Connected);
        // Whatever was said of the session before (the error that ended it) is over.
        if self.server.is_some() {
            let n = tools.tools.len();
            let again = format!("connected again: {n} tool{}", if n == 1 { "" } else { "s" });
            // A server's request closed by the reconnection is still said: a quick reconnection
            // would otherwise replace that note before it is read.
            let closed = self.notice.as_ref().is_some_and(|(n, _)| n == super::msg::Withdrawn::Reconnecting.note());
            let text = if closed {
                format!("{again} (the server's request from the old connection was closed unanswered)")
            } else {
                again
            };
            self.notice = Some((text, false));
        }
        let mut cmds = self.observe(&super::component::Observed::Server(&server));
        self.server = Some(server);
        self.panes.log.set_log(log);
        self.set_tools(tools);
        cmds.push(Cmd::LoadCollection(self.collection_file.clone()));
        cmds
    }

    /// The shown result read again with a hint just taught, in the view it was shown in.
    fn retaught(&mut self, call: CallResult) {
        if let Some(r) = self.result_mut()
            && r.call.tool == call.tool
        {
            r.read_again(call);
        }
    }

    /// A call ended: a new result, or the next page after the shown one; the history keeps it.
    fn call_done(&mut self, mut result: CallResult, entry: crate::history::Entry) {
        let purpose = self.running.take().map_or(Purpose::New, |r| r.purpose);
        if self.reconnecting && entry.status == crate::call::CallStatus::Cancelled {
            result.error = Some(RECONNECT_CANCELLED.into());
        }
        self.history.entries.push(entry.clone());
        self.panes.keep_past(entry.at, result.clone());
        let paging = purpose == Purpose::NextPage && result.envelope.is_some();
        if paging {
            let first_item =
                self.result().map_or(0, |r| r.page.first_item + r.call.envelope.as_ref().map_or(0, |e| e.item_count()));
            let page = Page { index: self.panes.pages().len(), first_item };
            self.panes.add_page(ResultState::new(result, page, &self.theme));
        } else {
            let page = Page::first_of(&result);
            self.panes.show_result(ResultState::new(result, page, &self.theme));
        }
        self.panes.focus = Pane::Result;
    }

    /// Opens the selected tool's form: the kept one, or one prefilled with `args`, the tool's last
    /// arguments, or its defaults.
    pub(super) fn open_form(&mut self, args: Option<serde_json::Value>) {
        let Some(tool) = self.selected_tool().cloned() else {
            self.notice = Some((self.nothing_selected(), false));
            return;
        };
        self.panes.keep_form();
        let kept = self.panes.kept_form(tool.name());
        self.panes.form = Some(match (args, kept) {
            (Some(a), _) => FormState::new(&tool, Some(&a)),
            (None, Some(mut f)) => {
                f.reselect();
                f
            }
            (None, None) => FormState::new(&tool, self.history.last_arguments(tool.name())),
        });
        self.mark_unlisted_form();
        self.panes.focus_form();
    }

    /// Why Enter on the tool list opens nothing: the filter hides every tool, or there is none.
    fn nothing_selected(&self) -> String {
        let tools = &self.panes.tools;
        if tools.tools.is_empty() {
            return "no tool to open: the server lists none".into();
        }
        let clear = super::keymap::key(super::keymap::Scope::Tools, super::keymap::Command::Back);
        format!("no tool matches the filter \"{}\" ({clear} clears it)", tools.filter.text())
    }

    pub(super) fn start_call(&mut self, tool_name: String, arguments: serde_json::Value) -> Vec<Cmd> {
        self.start_call_for(tool_name, arguments, Purpose::New)
    }

    pub(super) fn start_call_for(
        &mut self,
        tool_name: String,
        arguments: serde_json::Value,
        purpose: Purpose,
    ) -> Vec<Cmd> {
        if self.running.is_some() {
            self.notice = Some((super::keymap::running_note(), true));
            return vec![];
        }
        if !matches!(self.conn, Conn::Connected) {
            self.notice = Some((super::keymap::not_connected_note(), true));
            return vec![];
        }
        let descriptor = self.panes.tools.find(&tool_name).map(|t| t.value().clone());
        self.running = Some(Running { tool: tool_name.clone(), started: Instant::now(), progress: None, purpose });
        self.notice = None;
        vec![Cmd::Call { tool: tool_name, arguments, descriptor, purpose }]
    }

    /// The connection's state, which the tool list also shows while it has no tools.
    /// Whether a docked pane has calls under way (the collection's run: Ctrl-K stops it).
    pub fn saved_running(&self) -> bool {
        self.panes.docked().any(|c| c.busy())
    }

    fn set_conn(&mut self, conn: Conn) {
        self.panes.tools.status = match &conn {
            Conn::Connecting { since } => ToolsStatus::Connecting { since: *since, to: self.target_label.clone() },
            Conn::Down(why) => ToolsStatus::Down(why.clone()),
            Conn::Connected => ToolsStatus::Ready,
        };
        self.conn = conn;
    }

    fn set_tools(&mut self, list: ToolList) {
        self.panes.tools.status = ToolsStatus::Ready;
        self.panes.tools.set(list);
        self.panes.schema = None;
        self.sync_schema();
        self.mark_unlisted_form();
    }

    /// The open form's tool, once the server no longer lists it: the form stays (its values
    /// are the user's) and says so; `Ctrl-R` does not run it (`unlisted_note`). Listed again, it
    /// runs again.
    fn mark_unlisted_form(&mut self) {
        let Some(f) = &mut self.panes.form else { return };
        let unlisted = self.panes.tools.find(&f.tool).is_none();
        if unlisted && !f.unlisted {
            self.notice = Some((unlisted_note(&f.tool), true));
        } else if !unlisted && f.unlisted {
            self.notice = Some((format!("this server lists {} again", f.tool), false));
        }
        f.unlisted = unlisted;
    }
}

/// What the result of a call `R` cancelled says (a single call's, or a collection run's).
const RECONNECT_CANCELLED: &str = "cancelled: reconnecting";

/// What is said of a form whose tool the server no longer lists.
pub(super) fn unlisted_note(tool: &str) -> String {
    format!("this server no longer lists {tool}: not run (the form keeps its values). {}", unlisted_choices())
}

/// What the user can do about a form whose tool the server no longer lists: pick another tool,
/// or reconnect to read the list again (`R` is typed in a form, so it is pressed from the list).
pub(super) fn unlisted_choices() -> String {
    use super::keymap::{Command, Scope, key};
    let (back, reconnect) = (key(Scope::Form, Command::Leave), key(Scope::Any, Command::Reconnect));
    format!("{back} goes back to the tool list to pick another tool or reconnect ({reconnect})")
}

/// The inside of a pane's border.
pub fn inner_of(area: Rect) -> Rect {
    ratatui::widgets::Block::bordered().inner(area)
}
