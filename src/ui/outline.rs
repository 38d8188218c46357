//! What code that drives the app from outside (the headless screen, tests, the screenshot tool)
//! may see of it and set up: the state in brief as the user sees it, the panes it reads whole,
//! and the few things a session is set up with. Everything else it changes through keys and
//! messages (`App::update`), as the terminal does; the model's fields stay its own.

use std::path::PathBuf;

use super::app::App;
use super::components::tools::ToolsPane;
use super::form::FormState;
use super::keymap::Scope;
use super::layout::{Areas, Pane};
use super::msg::CallResult;
use crate::cli::as_command::CopySource;
use crate::history::History;

/// The app's state in brief: where the keys go, what lies over the panes, what is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// The pane that has the keys when no overlay is open.
    pub focus: Pane,
    /// The open overlays, bottom to top.
    pub overlays: Vec<Scope>,
    /// The docked pane shown in the schema's place.
    pub docked: Option<Scope>,
    pub log_shown: bool,
    /// The focused pane fills the screen.
    pub zoom: bool,
    /// The app asked to end.
    pub quit: bool,
    /// How many pages of the result are kept, and which one is shown (from 0).
    pub pages: usize,
    pub page: usize,
    /// The tool whose call is under way.
    pub running: Option<String>,
    /// The tool whose form is open.
    pub form: Option<String>,
    /// The status line's notice, and whether it reports an error.
    pub notice: Option<(String, bool)>,
    /// Where the panes are on the screen (as last laid out).
    pub areas: Areas,
}

/// What a session is set up with before it starts; what is left `None` stays as it is.
#[derive(Default)]
pub struct SetUp {
    /// The history that prefills forms and that `H` lists.
    pub history: Option<History>,
    /// Where `S` saves the call on screen and `K` reads saved calls.
    pub collection_file: Option<PathBuf>,
    /// The target as given, for `Y` (a call as a command).
    pub copy_source: Option<CopySource>,
}

impl App {
    /// The state in brief.
    pub fn outline(&self) -> Outline {
        Outline {
            focus: self.panes.focus,
            overlays: self.panes.overlays.layers().map(|o| o.scope()).collect(),
            docked: self.shown_docked().map(|d| d.scope()),
            log_shown: self.panes.show_log,
            zoom: self.panes.zoom,
            quit: self.quit,
            pages: self.panes.pages().len(),
            page: self.panes.page(),
            running: self.running.as_ref().map(|r| r.tool.clone()),
            form: self.panes.form.as_ref().map(|f| f.tool.clone()),
            notice: self.notice.clone(),
            areas: self.areas,
        }
    }

    /// The tool list pane: its tools, filter, cursor, and what the snapshot comparison found.
    pub fn tools(&self) -> &ToolsPane {
        &self.panes.tools
    }

    /// The open form: its rows, the focused field, the arguments it builds.
    pub fn form(&self) -> Option<&FormState> {
        self.panes.form.as_ref()
    }

    /// The calls made: the history (this session's and earlier ones), and the results of this
    /// session's calls kept for reopening, by the history entry's time, newest last.
    pub fn calls(&self) -> (&History, &[(u64, CallResult)]) {
        (&self.history, self.panes.past())
    }

    pub fn set_up(&mut self, s: SetUp) {
        if let Some(h) = s.history {
            self.history = h;
        }
        if let Some(f) = s.collection_file {
            self.collection_file = f;
        }
        if let Some(c) = s.copy_source {
            self.copy_source = Some(c);
        }
    }
}
