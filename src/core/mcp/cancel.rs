//! Stopping a request under way, and why: the user (Ctrl-K, Ctrl-C) or a reconnect (`R`). The
//! why goes to the server as the reason of `notifications/cancelled`, and to the log.

use std::sync::{Arc, OnceLock};

use tokio_util::sync::CancellationToken;

/// Why a request is stopped when no reason is given: the user asked.
pub const BY_THE_USER: &str = "cancelled by the user";

/// Why the calls under way are stopped when the user reconnects.
pub const RECONNECTING: &str = "reconnecting";

/// A request's stop switch: clones share it, the first reason given stays.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    token: CancellationToken,
    why: Arc<OnceLock<String>>,
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stops, by the user's choice.
    pub fn cancel(&self) {
        self.cancel_for(BY_THE_USER);
    }

    /// Stops, for `why` (said to the server as the reason).
    pub fn cancel_for(&self, why: &str) {
        // Stopped already: the first reason is the one that stopped it.
        let _ = self.why.set(why.to_string());
        self.token.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Resolves once stopped.
    pub async fn cancelled(&self) {
        self.token.cancelled().await;
    }

    /// The reason the server is told.
    pub fn why(&self) -> &str {
        self.why.get().map_or(BY_THE_USER, String::as_str)
    }

    /// What the log says of request `what` stopped: "tools/call cancelled by the user",
    /// "tools/call cancelled: reconnecting".
    pub fn logged(&self, what: &str) -> String {
        match self.why() {
            BY_THE_USER => format!("{what} {BY_THE_USER}"),
            why => format!("{what} cancelled: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_reason_stays_and_the_user_is_the_default() {
        let c = Cancel::new();
        assert_eq!((c.is_cancelled(), c.why()), (false, BY_THE_USER));
        let shared = c.clone();
        shared.cancel_for(RECONNECTING);
        c.cancel();
        assert!(c.is_cancelled());
        assert_eq!(c.why(), RECONNECTING);
        assert_eq!(c.logged("tools/call"), "tools/call cancelled: reconnecting");
        let by_user = Cancel::new();
        by_user.cancel();
        assert_eq!(by_user.logged("tools/call"), "tools/call cancelled by the user");
    }
}
