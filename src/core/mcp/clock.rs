//! Request clocks that stand still while the user is asked something (a login in the browser,
//! an elicitation): the handshake's and each request's timeout, and the wait on
//! `server/discover` before `--protocol auto` takes a server for a legacy one.

use std::time::Duration;

use super::wire::{ServerEvent, WireTap};

/// `fut` with a timeout that stands still while the user is asked something (a login).
pub(super) async fn within<F: std::future::Future>(
    tap: &WireTap,
    timeout: Duration,
    fut: F,
) -> std::result::Result<F::Output, ()> {
    let mut events = tap.subscribe();
    let mut clock = Deadline::new(timeout);
    tokio::pin!(fut);
    loop {
        tokio::select! {
            out = &mut fut => return Ok(out),
            ev = events.recv() => if let Ok(ServerEvent::Asking(open)) = ev { clock.asking(open) },
            _ = clock.expired() => return Err(()),
        }
    }
}

/// A request's timeout: restarted by progress, stopped while the user is asked something.
pub(super) struct Deadline {
    timeout: Duration,
    at: tokio::time::Instant,
    asking: usize,
}

impl Deadline {
    pub(super) fn new(timeout: Duration) -> Self {
        Deadline { timeout, at: tokio::time::Instant::now() + timeout, asking: 0 }
    }

    pub(super) fn restart(&mut self) {
        self.at = tokio::time::Instant::now() + self.timeout;
    }

    pub(super) fn asking(&mut self, open: bool) {
        self.asking = if open { self.asking + 1 } else { self.asking.saturating_sub(1) };
        self.restart();
    }

    pub(super) async fn expired(&self) {
        if self.asking > 0 {
            std::future::pending::<()>().await;
        }
        tokio::time::sleep_until(self.at).await;
    }
}
