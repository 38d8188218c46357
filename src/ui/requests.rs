//! Requests that a key sends to the server as they are, each answered in the status line. Adding
//! one is its keymap entry (`keymap.toml` and `Command`) and its handler here, one line in
//! `handler` naming it: the model, the worker and the headless driver know it from this table.

use std::sync::Arc;

use futures::future::BoxFuture;
use tokio::sync::mpsc::UnboundedSender;

use super::keymap::Command;
use super::msg::{Msg, SessionMsg};
use crate::mcp::Session;

/// What a request's answer says in the status line, and whether it is an error.
type Said = (String, bool);

type Handler = fn(Arc<Session>) -> BoxFuture<'static, Said>;

/// The handler of `command`, if it is a plain request.
fn handler(command: Command) -> Option<Handler> {
    match command {
        Command::Ping => Some(|s| Box::pin(ping(s))),
        _ => None,
    }
}

/// Whether `command` is a request this table answers.
pub fn handles(command: Command) -> bool {
    handler(command).is_some()
}

/// Sends `command`'s request and reports what it says.
pub async fn run(command: Command, session: Arc<Session>, out: UnboundedSender<Msg>) {
    let Some(h) = handler(command) else { return };
    let (text, error) = h(session).await;
    let _ = out.send(Msg::Session(SessionMsg::Answered { text, error }));
}

/// `ping`: the round-trip time.
async fn ping(session: Arc<Session>) -> Said {
    match session.ping().await {
        Ok(rtt) => (format!("pong: {:.2} ms round trip (ping)", rtt.as_secs_f64() * 1000.0), false),
        Err(e) => (format!("ping failed: {}", e.message), true),
    }
}
