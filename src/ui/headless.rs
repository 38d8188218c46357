//! Driving the app without a terminal: a real session feeds the model, frames are rendered on
//! ratatui's `TestBackend`. Used by the screen snapshot tests, the screenshot tool and benches.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::app::App;
use super::msg::{Msg, SessionMsg};
use super::theme::Theme;
use super::view;
use crate::error::Result;
use crate::mcp::{ConnectOptions, Session, Target};

/// Connects to `target`, lists its tools, and returns an app that has been told so.
pub async fn connected_app(target: &Target, theme: Theme, label: &str) -> Result<(App, Session)> {
    connected_app_with(target, ConnectOptions::default(), theme, label).await
}

/// As [`connected_app`], with options (a fixed protocol era).
pub async fn connected_app_with(
    target: &Target,
    options: ConnectOptions,
    theme: Theme,
    label: &str,
) -> Result<(App, Session)> {
    let session = std::sync::Arc::new(Session::connect(target, ConnectOptions { listen: true, ..options }).await?);
    let app = app_on(&session, theme, label).await?;
    let session = std::sync::Arc::try_unwrap(session).map_err(|_| crate::error::LensError::connection("shared"))?;
    Ok((app, session))
}

/// A new app on an open session, told what the worker tells it on connecting: the server, its
/// tools, then the resources, templates and prompts it offers.
pub async fn app_on(session: &std::sync::Arc<Session>, theme: Theme, label: &str) -> Result<App> {
    let tools = session.list_tools().await?;
    let mut app = App::new(theme, label.to_string());
    app.update(Msg::Session(SessionMsg::Connected {
        server: Box::new(session.server.clone()),
        tools,
        log: session.log().clone(),
    }));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let known = std::sync::Arc::new(std::sync::Mutex::new(super::ops::Known::default()));
    super::ops::relist(session.clone(), super::ops::offered(&session.server), false, known, tx).await;
    while let Ok(msg) = rx.try_recv() {
        app.update(msg);
    }
    Ok(app)
}

/// Waits `within` for the server's notifications and hands them to the app as the worker does:
/// updates at once, every `list_changed` of the wait read once at its end (with what changed).
/// The app's answers (a re-read) are carried out too.
pub async fn notifications(
    app: &mut App,
    session: &std::sync::Arc<Session>,
    events: &mut tokio::sync::broadcast::Receiver<crate::mcp::wire::ServerEvent>,
    known: std::sync::Arc<std::sync::Mutex<super::ops::Known>>,
    within: std::time::Duration,
) {
    use super::ops::ListKind;
    use crate::mcp::wire::ServerEvent;
    let deadline = tokio::time::Instant::now() + within;
    let mut kinds = vec![];
    while let Ok(Ok(ev)) = tokio::time::timeout_at(deadline, events.recv()).await {
        let kind = match ev {
            ServerEvent::ResourceUpdated { uri } => {
                let cmds = app.update(Msg::Session(SessionMsg::ResourceUpdated(uri)));
                execute(app, session, cmds).await;
                continue;
            }
            ServerEvent::ToolListChanged => ListKind::Tools,
            ServerEvent::ResourceListChanged => ListKind::Resources,
            ServerEvent::PromptListChanged => ListKind::Prompts,
            _ => continue,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if kinds.is_empty() {
        return;
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    super::ops::relist(session.clone(), kinds, true, known, tx).await;
    while let Ok(msg) = rx.try_recv() {
        app.update(msg);
    }
}

/// Carries out the app's commands the way the worker does (calls really go to the server), and
/// feeds every resulting message back into the app. Returns once the calls are done.
pub async fn execute(app: &mut App, session: &std::sync::Arc<Session>, cmds: Vec<super::msg::Cmd>) {
    let history = std::sync::Arc::new(std::sync::Mutex::new(app.history.clone()));
    let mut cmds = cmds;
    // What the app asks in answer (a re-read after an update) is carried out too, a few rounds.
    for _ in 0..4 {
        let more = execute_round(app, session, &history, cmds).await;
        if more.is_empty() {
            return;
        }
        cmds = more;
    }
}

async fn execute_round(
    app: &mut App,
    session: &std::sync::Arc<Session>,
    history: &std::sync::Arc<std::sync::Mutex<crate::history::History>>,
    cmds: Vec<super::msg::Cmd>,
) -> Vec<super::msg::Cmd> {
    use super::dispatch::{Dispatch, Job};
    let mut more = vec![];
    for cmd in cmds {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let redactor = session.log().redactor().clone();
        let dispatch = Dispatch { history: history.clone(), hints: Default::default(), redactor, out: tx };
        match dispatch.job(cmd, Some(session)) {
            Job::Work { task, .. } => task.await,
            Job::Complete(ask) => dispatch.complete(session.clone(), ask).await,
            _ => {}
        }
        while let Ok(msg) = rx.try_recv() {
            more.extend(app.update(msg));
        }
    }
    more
}

pub struct Screen {
    terminal: Terminal<TestBackend>,
}

impl Screen {
    pub fn new(width: u16, height: u16) -> Self {
        // TestBackend cannot fail to construct a terminal.
        let terminal = Terminal::new(TestBackend::new(width, height)).unwrap_or_else(|e| match e {});
        Screen { terminal }
    }

    pub fn render(&mut self, app: &mut App) -> &Buffer {
        let size = self.terminal.backend().buffer().area;
        if app.size != size {
            app.resize(size);
        }
        let _ = self.terminal.draw(|f| view::draw(f, app));
        self.terminal.backend().buffer()
    }

    /// Renders (widgets such as the tree act on the last render), then presses the key; returns
    /// the commands the app asked for.
    pub fn press(&mut self, app: &mut App, code: KeyCode) -> Vec<super::msg::Cmd> {
        let mods = match code {
            KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
            _ => KeyModifiers::NONE,
        };
        self.press_with(app, code, mods)
    }

    pub fn press_with(&mut self, app: &mut App, code: KeyCode, mods: KeyModifiers) -> Vec<super::msg::Cmd> {
        self.render(app);
        app.update(Msg::Key(KeyEvent::new(code, mods)))
    }

    /// Types each character of `text` as a key press.
    pub fn type_text(&mut self, app: &mut App, text: &str) {
        for c in text.chars() {
            self.press(app, KeyCode::Char(c));
        }
    }

    /// Presses Tab until `pane` has the focus, as a user does; false if Tab never gets there.
    pub fn focus(&mut self, app: &mut App, pane: super::layout::Pane) -> bool {
        // A form on the way takes a Tab per field.
        for _ in 0..100 {
            if app.outline().focus == pane {
                return true;
            }
            self.press(app, KeyCode::Tab);
        }
        app.outline().focus == pane
    }

    /// Types `text` over the open form's JSON text (the form must be in JSON mode, Ctrl-T) as a
    /// user would: to its end, erases it, types the new text.
    pub fn type_json(&mut self, app: &mut App, text: &str) {
        let old = app.form().and_then(|f| f.raw.as_ref()).map(|t| t.text()).unwrap_or_default();
        for _ in 0..old.lines().count() {
            self.press(app, KeyCode::Down);
        }
        self.press(app, KeyCode::End);
        for _ in 0..old.chars().count() {
            self.press(app, KeyCode::Backspace);
        }
        self.type_text(app, text);
    }

    /// The screen as text, one line per row, trailing spaces trimmed.
    pub fn text(&mut self, app: &mut App) -> String {
        buffer_text(self.render(app))
    }
}

pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
