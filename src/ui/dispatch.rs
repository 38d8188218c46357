//! What each of the model's commands comes to, decided in one place: the TUI's worker spawns
//! the work (connected or not), the headless driver awaits it. A new request to the server is a
//! handler here (or in `requests.rs`, for a key's plain request) and nowhere else on this side.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tokio::sync::mpsc::UnboundedSender;

use super::msg::{Cmd, CompletionAsk, Msg, SessionMsg};
use super::{calls, keymap, ops, requests, saved};
use crate::envelope::hints::Hints;
use crate::history::History;
use crate::mcp::asks::Answer;
use crate::mcp::log::Redactor;
use crate::mcp::{Cancel, Session};

/// What a command asks of whoever holds the session.
pub(crate) enum Job {
    /// Work for the session; `cancel` is set for a call, which Ctrl-K stops.
    Work {
        task: BoxFuture<'static, ()>,
        cancel: Option<Cancel>,
    },
    Reconnect,
    Quit,
    /// Stop the call under way.
    Cancel,
    /// The user's answer to the server's request of this id.
    Answer {
        id: String,
        answer: Answer,
    },
    /// A completion, sent once typing pauses (`Dispatch::complete` makes it work).
    Complete(CompletionAsk),
    /// Done already (a notice sent, a file written), or nothing to do here.
    Done,
}

/// Turns commands into jobs: where the history and hints are kept, how secrets are masked in
/// what is written, and where the answers go.
#[derive(Clone)]
pub(crate) struct Dispatch {
    pub history: Arc<Mutex<History>>,
    pub hints: Arc<Mutex<Hints>>,
    pub redactor: Redactor,
    pub out: UnboundedSender<Msg>,
}

impl Dispatch {
    fn send(&self, m: SessionMsg) {
        let _ = self.out.send(Msg::Session(m));
    }

    /// The one dispatch: `session` is None while not connected (files are still written; a
    /// request to the server says so).
    pub fn job(&self, cmd: Cmd, session: Option<&Arc<Session>>) -> Job {
        match cmd {
            Cmd::Quit => Job::Quit,
            Cmd::Reconnect => Job::Reconnect,
            Cmd::Cancel => Job::Cancel,
            Cmd::Answer { id, answer } => Job::Answer { id, answer },
            // The terminal's own: the TUI's loop carries them out before they reach here.
            Cmd::Copy(_) | Cmd::OpenUrl(_) => Job::Done,
            Cmd::Export { name, text } => {
                self.send(SessionMsg::Notice(match calls::export(&name, &text, &self.redactor) {
                    Ok(p) => format!("exported to {}", p.display()),
                    Err(e) => e,
                }));
                Job::Done
            }
            Cmd::Teach { hint, call, descriptor } => {
                calls::teach(&self.hints, hint, *call.0, descriptor).into_iter().for_each(|m| self.send(m));
                Job::Done
            }
            Cmd::Save { name, content, index } => {
                self.send(SessionMsg::Notice(ops::save_content(&name, &content, index, &self.redactor)));
                Job::Done
            }
            Cmd::SaveCall { file, call } => {
                saved::save(&file, &call, &self.redactor).into_iter().for_each(|m| self.send(m));
                Job::Done
            }
            Cmd::LoadCollection(file) => {
                self.send(saved::load(&file));
                Job::Done
            }
            cmd => match session {
                Some(s) => self.session_job(cmd, s.clone()),
                None => {
                    self.send(SessionMsg::Notice(keymap::not_connected_note()));
                    Job::Done
                }
            },
        }
    }

    /// A command that needs the server.
    fn session_job(&self, cmd: Cmd, session: Arc<Session>) -> Job {
        let out = self.out.clone();
        let stores = (self.history.clone(), self.hints.clone());
        let cancel = Cancel::new();
        let (task, call): (BoxFuture<'static, ()>, bool) = match cmd {
            Cmd::Complete(ask) => return Job::Complete(ask),
            Cmd::Request(command) => (Box::pin(requests::run(command, session, out)), false),
            Cmd::Call { tool, arguments, descriptor, purpose } => {
                let call = (tool, arguments, descriptor);
                (Box::pin(calls::run_taught_call(session, stores, call, purpose, cancel.clone(), out)), true)
            }
            Cmd::AllPages { tool, arguments, first, descriptor, known } => {
                let call = (tool, arguments, descriptor);
                (Box::pin(calls::run_all_pages(session, stores, call, (first, known), cancel.clone(), out)), true)
            }
            Cmd::RunSaved(calls) => (Box::pin(saved::run(session, stores, calls, cancel.clone(), out)), true),
            cmd @ (Cmd::Tasks | Cmd::CancelTask(_) | Cmd::SetRoots(_)) => {
                (Box::pin(calls::session_cmd(session, cmd, out)), false)
            }
            cmd @ (Cmd::Skills | Cmd::LoadSkill(_)) => {
                (Box::pin(super::components::skills::work(session, cmd, out)), false)
            }
            cmd => (
                Box::pin(async move {
                    let _ = ops::carry_out(session, cmd, out).await;
                }),
                false,
            ),
        };
        Job::Work { task, cancel: call.then_some(cancel) }
    }

    /// The work of a completion held back by `Job::Complete`.
    pub fn complete(&self, session: Arc<Session>, ask: CompletionAsk) -> BoxFuture<'static, ()> {
        let out = self.out.clone();
        Box::pin(async move {
            let _ = ops::carry_out(session, Cmd::Complete(ask), out).await;
        })
    }
}
