//! Several servers in one TUI: one model (`App`) per connected server, each with its own session
//! worker, tools, log and history, and one of them on screen. The keys of the keymap's `[servers]`
//! section connect another server of the config file, switch, close, run the last call on another
//! server and compare two servers' tool lists; every other key goes to the model on screen, and
//! each worker's messages to its own model, shown or not.

mod compare;
mod others;
mod strip;

use crossterm::event::{KeyEvent, KeyEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use tokio::sync::mpsc;

use super::app::App;
use super::components::picker::Picker;
use super::keymap::{self, Command, Scope};
use super::msg::{CallResult, Cmd, Msg, SessionMsg};
use super::started::{Started, carry_out};
use super::theme::Theme;
use crate::cli::TargetArgs;
use crate::cli::args::UiArgs;

/// The keymap section of the keys that act on the servers, whatever pane has the focus.
pub(super) const SCOPE: Scope = Scope("servers");

/// One connected server.
struct Slot {
    /// Tags its worker's messages; stays the same when a server before it is closed.
    id: u64,
    /// The config entry's name (or the target's label).
    name: String,
    app: App,
    cmd_tx: mpsc::UnboundedSender<Cmd>,
    /// The last call that ended here: what "the same call on another server" repeats.
    last: Option<CallResult>,
}

/// What is shown over the server on screen, and takes the keys.
enum Overlay {
    /// Which server of the config file to connect (entry names, in the picker's order).
    Connect(Picker, Vec<String>),
    /// Which other server to run the call on, or compare tool lists with (slot ids).
    Other(Picker, Vec<u64>, Intent),
    Compare(compare::View),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Intent {
    RunCall,
    CompareTools,
}

/// A call run on another server, waiting for its answer to be compared with the first one.
struct Pending {
    to: u64,
    from_name: String,
    first: CallResult,
}

pub(crate) struct Servers {
    slots: Vec<Slot>,
    active: usize,
    next_id: u64,
    msg_tx: mpsc::UnboundedSender<(u64, Msg)>,
    /// The arguments the TUI was started with: `--config` names the file others come from.
    args: TargetArgs,
    ui: UiArgs,
    theme: Theme,
    /// How many servers the config file lists (the strip shows when there is a choice).
    listed: usize,
    overlay: Option<Overlay>,
    pending: Option<Pending>,
    workers: Vec<tokio::task::JoinHandle<()>>,
    size: Rect,
    dirty: bool,
}

impl Servers {
    /// The holder of `first`, the server the TUI started on; each worker's messages come to
    /// `msg_tx` tagged with its server.
    pub(super) fn new(
        first: Started,
        (args, ui): (TargetArgs, UiArgs),
        theme: Theme,
        msg_tx: mpsc::UnboundedSender<(u64, Msg)>,
    ) -> Servers {
        let listed = args.config.as_deref().and_then(|p| crate::mcp::config::choices(p).ok()).map_or(0, |c| c.len());
        let name = args.server.clone().unwrap_or_else(|| first.app.target_label.clone());
        let mut servers = Servers {
            slots: vec![],
            active: 0,
            next_id: 0,
            msg_tx,
            args,
            ui,
            theme,
            listed,
            overlay: None,
            pending: None,
            workers: vec![],
            size: Rect::default(),
            dirty: true,
        };
        servers.add(first, name);
        servers
    }

    /// Adds a started server and its worker's messages; it is not shown yet.
    fn add(&mut self, started: Started, name: String) {
        let Started { app, cmd_tx, mut msg_rx, worker } = started;
        let id = self.next_id;
        self.next_id += 1;
        let tx = self.msg_tx.clone();
        tokio::spawn(async move {
            while let Some(m) = msg_rx.recv().await {
                if tx.send((id, m)).is_err() {
                    break;
                }
            }
        });
        self.workers.push(worker);
        self.slots.push(Slot { id, name, app, cmd_tx, last: None });
    }

    /// A new terminal size: every server's model is laid out below the strip (when shown).
    pub(super) fn resize(&mut self, size: Rect) {
        self.size = size;
        let area = self.app_area();
        for s in &mut self.slots {
            s.app.resize(area);
        }
        self.dirty = true;
    }

    fn strip_shown(&self) -> bool {
        self.slots.len() > 1 || self.listed > 1
    }

    fn app_area(&self) -> Rect {
        match self.strip_shown() && self.size.height > 1 {
            true => Rect { y: self.size.y + 1, height: self.size.height - 1, ..self.size },
            false => self.size,
        }
    }

    fn shown(&mut self) -> &mut App {
        let i = self.active.min(self.slots.len().saturating_sub(1));
        &mut self.slots[i].app
    }

    pub(super) fn dirty(&self) -> bool {
        self.dirty || self.slots.get(self.active).is_some_and(|s| s.app.dirty)
    }

    pub(super) fn drawn(&mut self) {
        self.dirty = false;
        self.shown().dirty = false;
    }

    pub(super) fn tick_every(&self) -> Option<std::time::Duration> {
        self.slots.get(self.active).and_then(|s| s.app.tick_every())
    }

    /// The keys of what is shown over the server, which takes them: the footer says those.
    fn overlay_hints(&self) -> Option<Vec<(String, String)>> {
        use super::component::Component;
        Some(match self.overlay.as_ref()? {
            Overlay::Connect(p, _) | Overlay::Other(p, _, _) => p.hints(),
            Overlay::Compare(v) => v.hints(),
        })
    }

    pub(super) fn draw(&self, f: &mut Frame) {
        let Some(slot) = self.slots.get(self.active) else { return };
        let area = self.app_area();
        super::view::draw_in(f, &slot.app, area, self.overlay_hints().as_deref());
        if self.strip_shown() {
            strip::draw(f, Rect { height: 1, ..self.size }, &self.strip(), &self.theme);
        }
        match &self.overlay {
            Some(Overlay::Connect(p, _) | Overlay::Other(p, _, _)) => {
                use super::component::Component;
                let (w, h) = p.overlay_size(area);
                let r = super::view::centered(area, w, h);
                f.render_widget(ratatui::widgets::Clear, r);
                p.draw(f, r, &self.theme, true);
            }
            Some(Overlay::Compare(v)) => v.draw(f, area, &self.theme),
            None => {}
        }
        super::mask::buffer(f.buffer_mut());
    }

    fn strip<'a>(&'a self) -> Vec<strip::Item<'a>> {
        let shown = self.active;
        let item = |(i, s): (usize, &'a Slot)| strip::Item { name: &s.name, conn: &s.app.conn, shown: i == shown };
        self.slots.iter().enumerate().map(item).collect()
    }

    /// Feeds a batch of messages (a worker's, tagged; the terminal's, not) to the models and
    /// carries out their commands; true when the TUI quits.
    pub(super) fn update(&mut self, batch: Vec<(Option<u64>, Msg)>) -> bool {
        let mut quit = false;
        for (from, msg) in batch {
            quit |= match from {
                Some(id) => self.worker_said(id, msg),
                None => self.user_did(msg),
            };
        }
        quit
    }

    fn worker_said(&mut self, id: u64, msg: Msg) -> bool {
        // A closed server's last words are dropped.
        let Some(i) = self.slots.iter().position(|s| s.id == id) else { return false };
        if let Msg::Session(s) = &msg {
            self.observe(i, s);
        }
        let slot = &mut self.slots[i];
        let cmds = slot.app.update(msg);
        let quit = carry_out(&mut slot.app, cmds, &slot.cmd_tx);
        if i != self.active {
            // Not on screen: drawn when shown.
            slot.app.dirty = false;
        }
        quit
    }

    /// What the strip shows (the connection's state) and the calls to compare.
    fn observe(&mut self, i: usize, msg: &SessionMsg) {
        match msg {
            SessionMsg::Connecting | SessionMsg::Connected { .. } | SessionMsg::Failed { .. } => self.dirty = true,
            SessionMsg::Closed { .. } => self.dirty = true,
            SessionMsg::CallDone(result, _) => {
                let slot = &mut self.slots[i];
                slot.last = Some((**result).clone());
                let id = slot.id;
                if let Some(p) = self.pending.take_if(|p| p.to == id && p.first.tool == result.tool) {
                    let name = self.slots[i].name.clone();
                    let view = compare::View::calls((&p.from_name, &p.first), (&name, result));
                    self.overlay = Some(Overlay::Compare(view));
                    self.dirty = true;
                }
            }
            _ => {}
        }
    }

    fn user_did(&mut self, msg: Msg) -> bool {
        match &msg {
            Msg::Key(k) if k.kind != KeyEventKind::Release && self.key(k) => {
                self.dirty = true;
                return false;
            }
            // Nothing over the servers takes text: a paste must not reach the session beneath.
            Msg::Mouse(_) | Msg::Paste(_) if self.overlay.is_some() => return false,
            _ => {}
        }
        let i = self.active;
        let slot = &mut self.slots[i];
        let cmds = slot.app.update(msg);
        carry_out(&mut slot.app, cmds, &slot.cmd_tx)
    }

    /// A key for the servers or for what is shown over them; false: the model's key.
    fn key(&mut self, k: &KeyEvent) -> bool {
        if self.overlay.is_some() {
            return self.overlay_key(k);
        }
        let Some(cmd) = keymap::lookup_own(k, SCOPE) else { return false };
        match cmd {
            Command::ConnectServer => self.open_connect(),
            Command::NextServer => self.show(self.active + 1),
            Command::PrevServer => self.show(self.active + self.slots.len() - 1),
            Command::ServerNumber => match k.code {
                crossterm::event::KeyCode::Char(c) => match c.to_digit(10) {
                    Some(n) if n as usize <= self.slots.len() && n > 0 => self.show(n as usize - 1),
                    _ => self.notice(format!("no server {c}: {} connected", self.slots.len()), true),
                },
                _ => return false,
            },
            Command::RunOnOther => self.choose_other(Intent::RunCall),
            Command::CompareTools => self.choose_other(Intent::CompareTools),
            Command::CloseServer => self.close_shown(),
            _ => return false,
        }
        true
    }

    /// Shows server `i` (counted round).
    fn show(&mut self, i: usize) {
        self.active = i % self.slots.len().max(1);
        // Ticks go to the shown server only: its log catches up with what came while hidden.
        let app = self.shown();
        let _ = app.update(Msg::Tick);
        app.dirty = true;
    }

    /// A line in the shown server's status line.
    fn notice(&mut self, text: String, error: bool) {
        let app = self.shown();
        app.notice = Some((text, error));
        app.dirty = true;
    }

    /// Disconnects the shown server; the others stay. The only one stays too: `q` quits.
    fn close_shown(&mut self) {
        if self.slots.len() < 2 {
            let quit = keymap::key(Scope::Any, Command::Quit);
            self.notice(format!("the only server is not closed ({quit} quits)"), false);
            return;
        }
        let slot = self.slots.remove(self.active);
        let _ = slot.cmd_tx.send(Cmd::Quit);
        self.pending.take_if(|p| p.to == slot.id);
        self.active = self.active.min(self.slots.len() - 1);
        self.resize(self.size);
        let name = crate::sanitize::line(&slot.name).into_owned();
        self.notice(format!("{name} disconnected"), false);
    }

    /// Tells every worker to end; their tasks, to wait for.
    pub(super) fn quit_all(&mut self) -> Vec<tokio::task::JoinHandle<()>> {
        for s in &self.slots {
            let _ = s.cmd_tx.send(Cmd::Quit);
        }
        std::mem::take(&mut self.workers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::components::picker::Choice;

    fn footer(servers: &Servers) -> String {
        let mut term =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap_or_else(|e| panic!("{e}"));
        term.draw(|f| servers.draw(f)).unwrap_or_else(|e| panic!("{e}"));
        let text = crate::ui::headless::buffer_text(term.backend().buffer());
        text.lines().last().unwrap_or_default().to_string()
    }

    /// The footer names the keys of what takes them: over a servers' picker, the picker's, not
    /// those of the server's pane or overlay beneath.
    #[tokio::test]
    async fn under_a_servers_picker_the_footer_says_the_pickers_keys() {
        let theme = Theme::default();
        let (cmd_tx, _cmds) = mpsc::unbounded_channel();
        let (_said, msg_rx) = mpsc::unbounded_channel();
        let app = App::new(theme.clone(), "first".into());
        let first = Started { app, cmd_tx, msg_rx, worker: tokio::spawn(async {}) };
        let (msg_tx, _msgs) = mpsc::unbounded_channel();
        let mut servers = Servers::new(first, (TargetArgs::default(), UiArgs::default()), theme, msg_tx);
        servers.resize(Rect::new(0, 0, 120, 30));
        let beneath = footer(&servers);
        assert!(beneath.contains("? help"), "{beneath}");
        let choice = Choice {
            name: "second".into(),
            detail: "node second.js".into(),
            state: crate::ui::components::picker::State::Plain,
        };
        let picker = Picker::new("Connect another server of mcp.json", vec![choice]).closing();
        servers.overlay = Some(Overlay::Connect(picker, vec!["second".into()]));
        let over = footer(&servers);
        assert!(over.contains("↑↓ choose") && over.contains("Enter connect") && over.contains("q close"), "{over}");
        assert!(!over.contains("help"), "{over}");
        let picker = Picker::new("Run the same call on", Vec::new()).closing().choosing("run it there");
        servers.overlay = Some(Overlay::Other(picker, Vec::new(), Intent::RunCall));
        let over = footer(&servers);
        assert!(over.contains("Enter run it there") && !over.contains("connect"), "{over}");
    }
}
