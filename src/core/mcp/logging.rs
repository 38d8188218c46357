//! `logging/setLevel`: which server log messages (`notifications/message`) the server sends.

use serde_json::json;

use super::log::Level;
use super::rpc::Answered;
use super::session::{CallOptions, Session};
use crate::error::Result;

impl Session {
    /// Asks the server to send log messages at `level` and above (they arrive as
    /// `ServerEvent::LogMessage` and in the session log).
    /// In the modern era the level goes with every request instead (no request is sent here).
    pub async fn set_log_level(&self, level: Level) -> Result<Answered<()>> {
        if self.era() == super::era::Era::Modern {
            self.set_modern_log_level(level);
            return Ok(Answered::local(()));
        }
        let answer =
            self.ask("logging/setLevel", Some(json!({ "level": level.label() })), &CallOptions::default()).await?;
        Ok(answer.map(|_| ()))
    }
}
