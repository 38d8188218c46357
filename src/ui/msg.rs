//! The messages between the TUI's parts: what the model asks of the session worker (`Cmd`),
//! what comes back to the model (`Msg`, `SessionMsg`) and what they carry. Every part may
//! import this module; it imports none of them, so a component that sends a command does not
//! depend on the model that reads it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyEvent, MouseEvent};

use crate::collection::Failure;
use crate::envelope::Envelope;
use crate::history::Entry;
use crate::mcp::log::SessionLog;
use crate::mcp::{Completion, CompletionRef, Progress, PromptMessages, Reply, ResourceContent, ServerInfo, ToolList};

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
    /// The server asks the user something (elicitation, sampling).
    Asked(crate::mcp::asks::AskView),
    /// The server's request of this id can no longer be answered, and why.
    AskWithdrawn(String, Withdrawn),
    /// Resources, templates or prompts listed (every page), or why not.
    Listed {
        kind: crate::mcp::ItemKind,
        list: Result<crate::mcp::Listing, String>,
    },
    /// What a `list_changed` re-listing changed, in words (also in the log).
    ListChanged(String),
    ResourceRead(Box<ReadDone>),
    Subscribed {
        uri: String,
        on: bool,
        error: Option<String>,
    },
    /// `notifications/resources/updated` for this URI.
    ResourceUpdated(String),
    Completed(Box<CompletionDone>),
    PromptGot(Box<PromptDone>),
    LevelSet {
        level: crate::mcp::log::Level,
        error: Option<String>,
    },
    /// A plain request's answer in words (`requests.rs`); `error` when it failed.
    Answered {
        text: String,
        error: bool,
    },
    /// The session's tasks (asked for with `T`).
    Tasks(Vec<crate::mcp::task_ext::TaskEntry>),
    /// The server's skills (asked for with `I`), or why there are none to show.
    Skills(Result<crate::skills::SkillList, String>),
    /// A skill's SKILL.md loaded and verified, or why it was refused.
    SkillFile {
        uri: String,
        loaded: Box<Result<crate::skills::Fetched, String>>,
    },
    /// The tools compared with the saved snapshot (after each listing), or why the snapshot
    /// could not be read.
    Compared(super::baseline::Outcome),
    /// The collection file read (again), or why it could not be.
    Collection {
        file: String,
        loaded: Result<crate::collection::Collection, String>,
    },
    /// A saved call of the collection started or ended its run.
    SavedRun(RunMsg),
    /// The OAuth login state of an HTTP server changed (None: no login for this target).
    Login(Option<crate::mcp::auth::LoginState>),
}

/// A finished call: what was sent, what came back (verbatim and normalized), how long it took.
#[derive(Debug, Clone)]
pub struct CallResult {
    pub tool: String,
    pub arguments: serde_json::Value,
    /// Shared: results are kept in pages and in the history without copying the reply.
    pub reply: Option<Arc<Reply>>,
    pub envelope: Option<Arc<Envelope>>,
    /// The tool's outputSchema, to check structuredContent against.
    pub output_schema: Option<serde_json::Value>,
    /// Why there is no reply (timeout, cancel, server death).
    pub error: Option<String>,
    pub elapsed: Duration,
}

/// Why a call was made: a new result, the next page of the shown one, or every page.
pub use crate::call::Purpose;

/// Why a server's request can no longer be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawn {
    /// The server said so (`notifications/cancelled`, or it stopped waiting).
    ByServer,
    /// `R`: the connection it came on is closed for a new one.
    Reconnecting,
    /// The session ended.
    SessionEnded,
}

impl Withdrawn {
    /// What the status line says when its overlay closes.
    pub fn note(self) -> &'static str {
        match self {
            Withdrawn::ByServer => "the server withdrew its request",
            Withdrawn::Reconnecting => {
                "reconnecting: the server's request from the old connection is closed unanswered"
            }
            Withdrawn::SessionEnded => "the session ended: the server's request is closed unanswered",
        }
    }
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
    /// Text pasted into the terminal (bracketed paste), as one piece.
    Paste(String),
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
        /// A new call or the next page: the history keeps only a new call's arguments for the form.
        purpose: Purpose,
    },
    /// Gather every page after the known ones (the last known page's arguments are given, and
    /// the first page's, which the history records: the list gathered starts there).
    AllPages {
        tool: String,
        arguments: serde_json::Value,
        first: serde_json::Value,
        descriptor: Option<serde_json::Value>,
        known: Vec<Arc<Envelope>>,
    },
    Cancel,
    /// Answer the server's request of this id.
    Answer {
        id: String,
        answer: crate::mcp::asks::Answer,
    },
    /// Open a URL (checked as http/https) in the browser.
    OpenUrl(String),
    /// Write to the clipboard through the terminal (OSC 52).
    Copy(String),
    /// The session's tasks, for the tasks overlay.
    Tasks,
    /// The server's skills, for the skills overlay.
    Skills,
    /// Load this skill (its SKILL.md, verified).
    LoadSkill(Box<crate::skills::Skill>),
    /// Cancel the task of this id.
    CancelTask(String),
    /// Offer these roots from now on (the server is told).
    SetRoots(Vec<crate::mcp::asks::Root>),
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
    /// `resources/read`; `refresh` re-reads an open view (an update arrived).
    ReadResource {
        uri: String,
        refresh: bool,
    },
    /// `resources/subscribe` (`on`) or `resources/unsubscribe`.
    Subscribe {
        uri: String,
        on: bool,
    },
    /// `completion/complete` (the worker waits a moment for more typing before sending).
    Complete(CompletionAsk),
    GetPrompt {
        name: String,
        arguments: serde_json::Map<String, serde_json::Value>,
    },
    SetLogLevel(crate::mcp::log::Level),
    /// A key's plain request to the server (`requests.rs` answers it).
    Request(super::keymap::Command),
    /// Write the call into the collection file (replacing one of its name), then read it again.
    SaveCall {
        file: std::path::PathBuf,
        call: crate::collection::SavedCall,
    },
    /// Read the collection file.
    LoadCollection(std::path::PathBuf),
    /// Run saved calls (with their tools' descriptors, when listed), each checked.
    RunSaved(Vec<(crate::collection::SavedCall, Option<serde_json::Value>)>),
    /// Save content `index` of a read to a file in the exports directory.
    Save {
        name: String,
        content: Shared,
        index: usize,
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

/// A `resources/read` answered (or not).
#[derive(Debug)]
pub struct ReadDone {
    pub uri: String,
    /// A re-read of a view already open (an update arrived), not a new view.
    pub refresh: bool,
    /// The contents, or why there are none (the server's error, or the connection's).
    pub outcome: Result<ReadOk, String>,
}

#[derive(Debug, Clone)]
pub struct ReadOk {
    /// Shared: a blob can be hundreds of MB, and a save hands it to the worker.
    pub contents: Arc<Vec<ResourceContent>>,
    pub warnings: Vec<String>,
    pub elapsed: Duration,
    /// The result's cache hint (2026-07-28), as one line.
    pub cache: Option<String>,
}

/// Contents handed to the worker to be saved (compared by identity: they can be big).
#[derive(Debug, Clone)]
pub struct Shared(pub Arc<Vec<ResourceContent>>);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A `completion/complete` to send; `seq` pairs the answer with the field that asked.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionAsk {
    pub seq: u64,
    pub reference: CompletionRef,
    pub argument: String,
    pub partial: String,
    pub context: Vec<(String, String)>,
}

#[derive(Debug)]
pub struct CompletionDone {
    pub seq: u64,
    pub outcome: Result<Completion, String>,
}

/// A `prompts/get` answered (or not).
#[derive(Debug)]
pub struct PromptDone {
    pub name: String,
    pub outcome: Result<PromptOk, String>,
}

#[derive(Debug)]
pub struct PromptOk {
    pub messages: PromptMessages,
    pub warnings: Vec<String>,
    pub elapsed: Duration,
}

/// A saved call's run, as the collection pane hears of it.
#[derive(Debug, Clone)]
pub enum RunMsg {
    Started(String),
    /// A call ran; `entry` is what the history got for it, `result` what it keeps to reopen.
    Done {
        name: String,
        failures: Vec<Failure>,
        elapsed: Duration,
        entry: Entry,
        result: Box<CallResult>,
    },
    /// The run is over; `not_run` were left when it was cancelled (Ctrl-K).
    Finished {
        not_run: Vec<String>,
    },
}
