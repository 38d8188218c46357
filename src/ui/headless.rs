//! Driving the app without a terminal: a real session feeds the model, frames are rendered on
//! ratatui's `TestBackend`. Used by the screen snapshot tests, the screenshot tool and benches.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::app::{App, Msg, SessionMsg};
use super::theme::Theme;
use super::view;
use crate::error::Result;
use crate::mcp::{ConnectOptions, Session, Target};

/// Connects to `target`, lists its tools, and returns an app that has been told so.
pub async fn connected_app(target: &Target, theme: Theme, label: &str) -> Result<(App, Session)> {
    let session = Session::connect(target, ConnectOptions { listen: true, ..ConnectOptions::default() }).await?;
    let tools = session.list_tools().await?;
    let mut app = App::new(theme, label.to_string());
    app.update(Msg::Session(SessionMsg::Connected {
        server: Box::new(session.server.clone()),
        tools,
        log: session.log().clone(),
    }));
    Ok((app, session))
}

/// Carries out the app's commands the way the worker does (calls really go to the server), and
/// feeds every resulting message back into the app. Returns once the calls are done.
pub async fn execute(app: &mut App, session: &std::sync::Arc<Session>, cmds: Vec<super::app::Cmd>) {
    let history = std::sync::Arc::new(std::sync::Mutex::new(app.history.clone()));
    for cmd in cmds {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let cancel = tokio_util::sync::CancellationToken::new();
        match cmd {
            super::app::Cmd::Call { tool, arguments, descriptor, purpose } => {
                let call = (tool, arguments, descriptor);
                super::run_call(session.clone(), history.clone(), call, purpose, cancel, tx).await;
            }
            super::app::Cmd::AllPages { tool, arguments, first, descriptor, known } => {
                super::run_all_pages(
                    session.clone(),
                    history.clone(),
                    Default::default(),
                    (tool, arguments, descriptor),
                    (first, known),
                    cancel,
                    tx,
                )
                .await;
            }
            cmd @ (super::app::Cmd::Tasks | super::app::Cmd::CancelTask(_) | super::app::Cmd::SetRoots(_)) => {
                super::session_cmd(session.clone(), cmd, tx).await;
            }
            _ => continue,
        }
        while let Ok(msg) = rx.try_recv() {
            app.update(msg);
        }
    }
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
    pub fn press(&mut self, app: &mut App, code: KeyCode) -> Vec<super::app::Cmd> {
        let mods = match code {
            KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
            _ => KeyModifiers::NONE,
        };
        self.press_with(app, code, mods)
    }

    pub fn press_with(&mut self, app: &mut App, code: KeyCode, mods: KeyModifiers) -> Vec<super::app::Cmd> {
        self.render(app);
        app.update(Msg::Key(KeyEvent::new(code, mods)))
    }

    /// Types each character of `text` as a key press.
    pub fn type_text(&mut self, app: &mut App, text: &str) {
        for c in text.chars() {
            self.press(app, KeyCode::Char(c));
        }
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
