//! The TUI's model and its update function. No I/O here: the update returns commands that the
//! session worker carries out, and the worker's answers come back as messages.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crossterm::event::{KeyEvent, KeyEventKind, MouseEvent};
use ratatui::layout::Rect;
use tui_tree_widget::{TreeItem, TreeState};

use super::form::FormState;
use super::fuzzy;
use super::keymap::Scope;
use super::result::{Page, ResultState};
use super::schema_view;
use super::theme::Theme;
use crate::envelope::Envelope;
use crate::history::{Entry, History};
use crate::mcp::log::SessionLog;
use crate::mcp::{Progress, Reply, ServerInfo, ToolDescriptor, ToolList};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Tools,
    Schema,
    Form,
    Result,
    Log,
}

#[derive(Debug, Clone)]
pub enum Conn {
    Connecting {
        since: Instant,
    },
    Connected,
    /// Could not connect, or the session ended; the message names the cause.
    Down(String),
}

/// What the session worker reports.
#[derive(Debug)]
pub enum SessionMsg {
    Connecting,
    Connected {
        server: Box<ServerInfo>,
        tools: ToolList,
        log: SessionLog,
    },
    ToolsRefreshed(ToolList),
    Failed {
        error: String,
        log: Option<SessionLog>,
    },
    Closed {
        reason: String,
    },
    Notice(String),
    CallProgress(Progress),
    CallDone(Box<CallResult>, Entry),
    /// All-pages progress: pages fetched, items so far, total if known.
    PagerProgress(usize, usize, Option<u64>),
    /// The shown result read again with a hint just taught.
    Retaught(Box<CallResult>),
}

/// A finished call: what was sent, what came back (verbatim and normalized), how long it took.
#[derive(Debug, Clone)]
pub struct CallResult {
    pub tool: String,
    pub arguments: serde_json::Value,
    /// Shared: results are kept in pages and in the history without copying the reply.
    pub reply: Option<std::sync::Arc<Reply>>,
    pub envelope: Option<std::sync::Arc<Envelope>>,
    /// The tool's outputSchema, to check structuredContent against.
    pub output_schema: Option<serde_json::Value>,
    /// Why there is no reply (timeout, cancel, server death).
    pub error: Option<String>,
    pub elapsed: Duration,
}

/// Why a call was made: a new result, the next page of the shown one, or every page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    New,
    NextPage,
    AllPages,
}

/// A call under way.
#[derive(Debug, Clone)]
pub struct Running {
    pub tool: String,
    pub started: Instant,
    pub progress: Option<Progress>,
    pub purpose: Purpose,
}

#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize,
    Session(SessionMsg),
    Tick,
}

/// Work for the session worker.
#[derive(Debug, Clone, PartialEq)]
pub enum Cmd {
    Quit,
    Reconnect,
    Call {
        tool: String,
        arguments: serde_json::Value,
        descriptor: Option<serde_json::Value>,
    },
    /// Gather every page after the known ones (the last known page's arguments are given).
    AllPages {
        tool: String,
        arguments: serde_json::Value,
        descriptor: Option<serde_json::Value>,
        known: Vec<std::sync::Arc<Envelope>>,
    },
    Cancel,
    /// Write to the clipboard through the terminal (OSC 52).
    Copy(String),
    /// Write `text` to a new file named after `name` in the exports directory.
    Export {
        name: String,
        text: String,
    },
    /// Save what the user taught as a hint, and read the shown result again with it.
    Teach {
        hint: crate::envelope::hints::Hint,
        call: Shown,
        descriptor: Option<serde_json::Value>,
    },
}

/// The result on screen, handed to the worker to be read again (compared by what was called).
#[derive(Debug, Clone)]
pub struct Shown(pub Box<CallResult>);

impl PartialEq for Shown {
    fn eq(&self, other: &Shown) -> bool {
        self.0.tool == other.0.tool && self.0.arguments == other.0.arguments
    }
}

/// The schema pane of the selected tool, built once per selection.
pub struct SchemaPane {
    pub tool: usize,
    /// The trees the items were built from (input, then output), for the detail of a node.
    pub roots: Vec<crate::schema::tree::SchemaNode>,
    pub items: Vec<TreeItem<'static, usize>>,
    pub state: TreeState<usize>,
    pub nodes: usize,
    pub raw: Option<Vec<crate::json_pretty::Line>>,
    pub raw_scroll: usize,
}

impl SchemaPane {
    /// The schema node under the tree's selection.
    pub fn selected_node(&self) -> Option<&crate::schema::tree::SchemaNode> {
        let path = self.state.selected();
        let (first, rest) = path.split_first()?;
        let mut node = self.roots.get(*first)?;
        for i in rest {
            node = node.children.get(*i)?;
        }
        Some(node)
    }
}

/// Where things were drawn last, for mouse hit-testing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Areas {
    pub tools: Rect,
    pub schema: Rect,
    pub result: Rect,
    pub log: Rect,
}

pub struct App {
    pub theme: Theme,
    pub target_label: String,
    pub conn: Conn,
    pub server: Option<ServerInfo>,
    pub tools: Vec<ToolDescriptor>,
    pub list_pages: usize,
    pub list_warnings: Vec<String>,
    pub filter: String,
    pub filtering: bool,
    /// Indices into `tools`, filtered and ordered.
    pub visible: Vec<usize>,
    pub cursor: usize,
    pub offset: usize,
    pub focus: Pane,
    pub show_help: bool,
    pub help_scroll: usize,
    pub show_log: bool,
    pub log: Option<SessionLog>,
    pub log_seen: u64,
    /// Lines scrolled up from the newest entry.
    pub log_scroll: usize,
    pub schema: Option<SchemaPane>,
    pub notice: Option<(String, bool)>,
    pub areas: Areas,
    pub dirty: bool,
    pub quit: bool,
    /// Height of the tool list's rows, from the last render.
    pub list_height: usize,
    pub form: Option<FormState>,
    /// Forms left with Esc, by tool name: reopening one keeps its values.
    pub kept_forms: HashMap<String, FormState>,
    pub history: History,
    pub show_history: bool,
    pub history_cursor: usize,
    pub running: Option<Running>,
    /// The pages of the shown result (one for an unpaged result), fetched once and kept.
    pub results: Vec<ResultState>,
    pub page: usize,
    /// Results of this session's calls, newest last, for the history view.
    pub past: Vec<(u64, CallResult)>,
    /// Overlays over the panes (a value shown whole); the top one sees keys first.
    pub overlays: super::component::Stack,
}

impl App {
    pub fn new(theme: Theme, target_label: String) -> Self {
        App {
            theme,
            target_label,
            conn: Conn::Connecting { since: Instant::now() },
            server: None,
            tools: vec![],
            list_pages: 0,
            list_warnings: vec![],
            filter: String::new(),
            filtering: false,
            visible: vec![],
            cursor: 0,
            offset: 0,
            focus: Pane::Tools,
            show_help: false,
            help_scroll: 0,
            show_log: false,
            log: None,
            log_seen: 0,
            log_scroll: 0,
            schema: None,
            notice: None,
            areas: Areas::default(),
            dirty: true,
            quit: false,
            list_height: 10,
            form: None,
            kept_forms: HashMap::new(),
            history: History::default(),
            show_history: false,
            history_cursor: 0,
            running: None,
            results: vec![],
            page: 0,
            past: vec![],
            overlays: super::component::Stack::default(),
        }
    }

    pub fn result(&self) -> Option<&ResultState> {
        self.results.get(self.page)
    }

    pub fn result_mut(&mut self) -> Option<&mut ResultState> {
        self.results.get_mut(self.page)
    }

    /// How soon the app wants a `Tick` (a spinner, or a visible log that may grow).
    pub fn tick_every(&self) -> Option<Duration> {
        match self.conn {
            Conn::Connecting { .. } => Some(Duration::from_millis(100)),
            _ if self.running.is_some() => Some(Duration::from_millis(100)),
            _ if self.show_log => Some(Duration::from_millis(250)),
            _ => None,
        }
    }

    pub fn selected_tool(&self) -> Option<&ToolDescriptor> {
        self.visible.get(self.cursor).and_then(|&i| self.tools.get(i))
    }

    pub fn scope(&self) -> Scope {
        if self.show_history {
            return Scope::History;
        }
        match self.focus {
            Pane::Tools => Scope::Tools,
            Pane::Schema => Scope::Schema,
            Pane::Form => Scope::Form,
            Pane::Log => Scope::Log,
            Pane::Result => Scope::Result,
        }
    }

    pub(super) fn panes(&self) -> Vec<Pane> {
        let mut p = vec![Pane::Tools, if self.form.is_some() { Pane::Form } else { Pane::Schema }, Pane::Result];
        if self.show_log {
            p.push(Pane::Log);
        }
        p
    }

    pub(super) fn refilter(&mut self) {
        let keep = self.selected_tool().map(|t| t.name().to_string());
        let mut scored: Vec<(i64, usize)> = self
            .tools
            .iter()
            .enumerate()
            .filter_map(|(i, t)| fuzzy::tool_score(&self.filter, t.name(), t.title(), t.description()).map(|s| (s, i)))
            .collect();
        if !self.filter.trim().is_empty() {
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        }
        self.visible = scored.into_iter().map(|(_, i)| i).collect();
        self.cursor = keep
            .and_then(|name| self.visible.iter().position(|&i| self.tools[i].name() == name))
            .filter(|_| self.filter.is_empty())
            .unwrap_or(0);
        self.offset = 0;
        self.sync_schema();
    }

    /// Builds the schema pane when the selected tool changed.
    pub(super) fn sync_schema(&mut self) {
        let Some(&idx) = self.visible.get(self.cursor) else {
            self.schema = None;
            return;
        };
        if self.schema.as_ref().is_some_and(|s| s.tool == idx) {
            return;
        }
        let tool = &self.tools[idx];
        let (roots, items, nodes, open) = schema_view::items(tool, &self.theme);
        let mut state = TreeState::default();
        for path in open {
            state.open(path);
        }
        state.select(vec![0]);
        self.schema = Some(SchemaPane { tool: idx, roots, items, state, nodes, raw: None, raw_scroll: 0 });
    }

    pub(super) fn move_cursor(&mut self, to: isize) {
        let n = self.visible.len();
        if n == 0 {
            return;
        }
        self.cursor = to.clamp(0, n as isize - 1) as usize;
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + self.list_height.max(1) {
            self.offset = self.cursor + 1 - self.list_height.max(1);
        }
        self.sync_schema();
    }

    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        self.dirty = true;
        match msg {
            Msg::Key(k) if k.kind == KeyEventKind::Release => {
                self.dirty = false;
                vec![]
            }
            Msg::Key(k) => self.key(k),
            Msg::Mouse(m) => {
                self.mouse(m);
                vec![]
            }
            Msg::Resize => vec![],
            Msg::Tick => {
                if matches!(self.conn, Conn::Connecting { .. }) || self.running.is_some() {
                    return vec![];
                }
                let pushed = self.log.as_ref().map_or(0, |l| l.pushed());
                self.dirty = pushed != self.log_seen;
                self.log_seen = pushed;
                vec![]
            }
            Msg::Session(s) => {
                self.session(s);
                vec![]
            }
        }
    }

    fn session(&mut self, s: SessionMsg) {
        match s {
            SessionMsg::Connecting => self.conn = Conn::Connecting { since: Instant::now() },
            SessionMsg::Connected { server, tools, log } => {
                self.conn = Conn::Connected;
                self.server = Some(*server);
                self.log = Some(log);
                self.set_tools(tools);
            }
            SessionMsg::ToolsRefreshed(tools) => self.set_tools(tools),
            SessionMsg::Failed { error, log } => {
                if log.is_some() {
                    self.log = log;
                }
                self.conn = Conn::Down(error);
            }
            SessionMsg::Closed { reason } => self.conn = Conn::Down(reason),
            SessionMsg::Notice(n) => self.notice = Some((n, false)),
            SessionMsg::Retaught(call) => {
                let theme = self.theme.clone();
                if let Some(r) = self.result_mut()
                    && r.call.tool == call.tool
                {
                    let (view, page, decoded) = (r.view, r.page, r.raw_decoded);
                    let mut fresh = ResultState::new(*call, page, &theme);
                    fresh.raw_decoded = decoded;
                    fresh.set_view(view);
                    *r = fresh;
                }
            }
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
            SessionMsg::CallDone(result, entry) => {
                let purpose = self.running.take().map_or(Purpose::New, |r| r.purpose);
                self.history.entries.push(entry.clone());
                self.past.push((entry.at, (*result).clone()));
                if self.past.len() > 50 {
                    self.past.remove(0);
                }
                let paging = purpose == Purpose::NextPage && result.envelope.is_some();
                if paging {
                    let first_item = self
                        .result()
                        .map_or(0, |r| r.page.first_item + r.call.envelope.as_ref().map_or(0, |e| e.item_count()));
                    let page = Page { index: self.results.len(), first_item };
                    self.results.push(ResultState::new(*result, page, &self.theme));
                    self.page = self.results.len() - 1;
                } else {
                    self.results = vec![ResultState::new(*result, Page::default(), &self.theme)];
                    self.page = 0;
                }
                if let Some(view) = self.results.get(self.page.saturating_sub(1)).filter(|_| paging).map(|r| r.view)
                    && let Some(r) = self.result_mut()
                {
                    r.set_view(view);
                }
                self.focus = Pane::Result;
            }
        }
    }

    /// Opens the selected tool's form: the kept one, or one prefilled with `args`, the tool's last
    /// arguments, or its defaults.
    pub fn open_form(&mut self, args: Option<serde_json::Value>) {
        let Some(tool) = self.selected_tool().cloned() else { return };
        if let Some(old) = self.form.take() {
            self.kept_forms.insert(old.tool.clone(), old);
        }
        let kept = self.kept_forms.remove(tool.name());
        self.form = Some(match (args, kept) {
            (Some(a), _) => FormState::new(&tool, Some(&a)),
            (None, Some(f)) => f,
            (None, None) => FormState::new(&tool, self.history.last_arguments(tool.name())),
        });
        self.focus = Pane::Form;
    }

    pub(super) fn start_call(&mut self, tool_name: String, arguments: serde_json::Value) -> Vec<Cmd> {
        if self.running.is_some() {
            self.notice = Some(("a call is running; Ctrl-K cancels it".into(), true));
            return vec![];
        }
        if !matches!(self.conn, Conn::Connected) {
            self.notice = Some(("not connected: R reconnects".into(), true));
            return vec![];
        }
        let descriptor = self.tools.iter().find(|t| t.name() == tool_name).map(|t| t.value().clone());
        self.running =
            Some(Running { tool: tool_name.clone(), started: Instant::now(), progress: None, purpose: Purpose::New });
        self.notice = None;
        vec![Cmd::Call { tool: tool_name, arguments, descriptor }]
    }

    fn set_tools(&mut self, list: ToolList) {
        self.tools = list.tools;
        self.list_pages = list.pages;
        self.list_warnings = list.warnings;
        self.schema = None;
        self.refilter();
    }
}
