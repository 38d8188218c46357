//! The messages of one proxied session, kept for watchers that attach late and handed to the
//! watchers attached now, without ever making the host wait for one of them.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use tokio::sync::mpsc::{self, error::TrySendError};

use super::breaks::Breaks;
use crate::mcp::log::Redactor;

/// How many lines (log entries and proxy events) the proxy keeps from the session's start for a
/// watcher that attaches late. Past either bound the oldest are forgotten and a late watcher is
/// told how many it missed.
pub const BACKLOG_LINES: usize = 20_000;
pub const BACKLOG_BYTES: usize = 64 << 20;
/// How many lines a watcher may fall behind by. A watcher further behind is detached (and told
/// so when it reads its last line): the host's messages never wait for it.
pub const WATCHER_QUEUE: usize = 4096;
/// How many bytes of lines a watcher may fall behind by (4,096 long lines would otherwise be
/// held for a stopped watcher: gigabytes). A single longer line is handed to a watcher that
/// has taken every line before it.
pub const WATCHER_BYTES: usize = 64 << 20;

/// What a watcher gets when it attaches: every kept line so far, then the live ones.
pub struct Attached {
    pub id: u64,
    pub backlog: Vec<Arc<str>>,
    /// Lines forgotten before the backlog's first (past the bounds).
    pub missed: u64,
    pub live: mpsc::Receiver<Arc<str>>,
    /// Set when the watcher fell too far behind and was detached.
    pub overrun: Arc<AtomicBool>,
    /// Bytes of the lines in `live` not taken yet (see [`Attached::took`]).
    pub queued: Arc<AtomicUsize>,
}

impl Attached {
    /// Says that `line` was taken from `live` (it no longer counts against the watcher).
    pub fn took(&self, line: &str) {
        let _ = self.queued.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |q| Some(q.saturating_sub(line.len())));
    }
}

struct Slot {
    tx: mpsc::Sender<Arc<str>>,
    overrun: Arc<AtomicBool>,
    queued: Arc<AtomicUsize>,
}

#[derive(Default)]
struct Inner {
    backlog: VecDeque<Arc<str>>,
    bytes: usize,
    missed: u64,
    watchers: Vec<Slot>,
    /// The `held` event of each message held now. Not in the backlog: a watcher that attaches
    /// late is told what is held when it attaches, not every hold since the start.
    holding: BTreeMap<u64, Arc<str>>,
}

pub struct Hub {
    inner: Mutex<Inner>,
    next_watcher: AtomicU64,
    pub breaks: Breaks,
    /// The target as the proxy shows it (no secrets).
    pub label: String,
    pub started: SystemTime,
    pub redactor: Redactor,
}

impl Hub {
    pub fn new(label: String, redactor: Redactor) -> Arc<Self> {
        Arc::new(Hub {
            inner: Mutex::default(),
            next_watcher: AtomicU64::new(1),
            breaks: Breaks::default(),
            label,
            started: SystemTime::now(),
            redactor,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps `line` (one JSON object, no newline) and hands it to every watcher that keeps up.
    pub fn publish(&self, line: &str) {
        let line: Arc<str> = Arc::from(line);
        let mut g = self.lock();
        g.bytes = g.bytes.saturating_add(line.len());
        g.backlog.push_back(line.clone());
        while g.backlog.len() > BACKLOG_LINES || g.bytes > BACKLOG_BYTES {
            let Some(old) = g.backlog.pop_front() else { break };
            g.bytes = g.bytes.saturating_sub(old.len());
            g.missed = g.missed.saturating_add(1);
        }
        g.hand_out(&line);
    }

    /// Says that hold `hold` began or ended (`event`: held, or released and how) to the watchers
    /// attached now; while it lasts, a watcher that attaches is told it began.
    fn announce(&self, hold: u64, began: bool, event: &str) {
        let line: Arc<str> = Arc::from(event);
        let mut g = self.lock();
        if began {
            g.holding.insert(hold, line.clone());
        } else {
            g.holding.remove(&hold);
        }
        g.hand_out(&line);
    }

    /// A new watcher: the backlog and the live lines, with nothing lost or doubled between them.
    pub fn attach(&self) -> Attached {
        let (tx, live) = mpsc::channel(WATCHER_QUEUE);
        let overrun = Arc::new(AtomicBool::new(false));
        let queued = Arc::new(AtomicUsize::new(0));
        let id = self.next_watcher.fetch_add(1, Ordering::Relaxed);
        let mut g = self.lock();
        g.watchers.push(Slot { tx, overrun: overrun.clone(), queued: queued.clone() });
        let backlog = g.backlog.iter().chain(g.holding.values()).cloned().collect();
        Attached { id, backlog, missed: g.missed, live, overrun, queued }
    }

    /// How many watchers are attached.
    pub fn watchers(&self) -> usize {
        let mut g = self.lock();
        g.watchers.retain(|w| !w.tx.is_closed());
        g.watchers.len()
    }

    /// How many lines were published in all.
    pub fn published(&self) -> u64 {
        let g = self.lock();
        g.missed.saturating_add(g.backlog.len() as u64)
    }

    /// Holds a message passing in one direction while a watcher's breakpoint matches it: said to
    /// the watchers, then waits for a watcher's verdict (a watcher gone releases it as is). A
    /// cancellation of a request settled at a breakpoint is handled here, never passed on.
    pub async fn check(&self, to_server: bool, line: &[u8]) -> Verdict {
        if let Some(done) = self.breaks.settles(to_server, line).await {
            return Verdict::Handled(done);
        }
        let Some((hold, event, rx)) = self.breaks.hold(to_server, line, &self.redactor) else {
            return Verdict::Pass;
        };
        self.announce(hold, true, &event);
        let verdict = rx.await.unwrap_or(Verdict::Pass);
        self.announce(hold, false, &super::breaks::released_event(hold, &verdict));
        verdict
    }
}

impl Inner {
    /// Hands `line` to every watcher that keeps up; one further behind than its bounds is
    /// detached (and told so).
    fn hand_out(&mut self, line: &Arc<str>) {
        self.watchers.retain(|w| {
            // One line of any size is handed over; a watcher holding lines already may hold
            // no more than the bound.
            let before = w.queued.fetch_add(line.len(), Ordering::Relaxed);
            if before > 0 && before.saturating_add(line.len()) > WATCHER_BYTES {
                w.overrun.store(true, Ordering::Relaxed);
                return false;
            }
            match w.tx.try_send(line.clone()) {
                Ok(()) => true,
                Err(TrySendError::Full(_)) => {
                    w.overrun.store(true, Ordering::Relaxed);
                    false
                }
                Err(TrySendError::Closed(_)) => false,
            }
        });
    }
}

pub use super::breaks::Verdict;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_watcher_gets_the_backlog_then_the_live_lines() {
        let hub = Hub::new("t".into(), Redactor::default());
        hub.publish("{\"a\":1}");
        let mut w = hub.attach();
        hub.publish("{\"a\":2}");
        assert_eq!(w.backlog.len(), 1);
        assert_eq!(w.live.try_recv().ok().as_deref(), Some("{\"a\":2}"));
    }

    #[test]
    fn a_watcher_that_falls_behind_is_detached_and_the_host_goes_on() {
        let hub = Hub::new("t".into(), Redactor::default());
        let w = hub.attach();
        for i in 0..WATCHER_QUEUE + 10 {
            hub.publish(&format!("{{\"n\":{i}}}"));
        }
        assert!(w.overrun.load(Ordering::Relaxed));
        assert_eq!(hub.watchers(), 0);
    }

    #[test]
    fn a_watcher_further_behind_than_its_bytes_is_detached() {
        let hub = Hub::new("t".into(), Redactor::default());
        let w = hub.attach();
        let line = "x".repeat(1 << 20);
        for _ in 0..(WATCHER_BYTES >> 20) {
            hub.publish(&line);
        }
        assert!(!w.overrun.load(Ordering::Relaxed));
        // Taking a line frees its bytes; one more than the bound detaches.
        let mut w = w;
        let took = w.live.try_recv().unwrap_or_else(|_| Arc::from(""));
        w.took(&took);
        hub.publish(&line);
        assert!(!w.overrun.load(Ordering::Relaxed));
        hub.publish(&line);
        assert!(w.overrun.load(Ordering::Relaxed));
        assert_eq!(hub.watchers(), 0);
        // A line over the bound reaches a watcher that is not behind.
        let w = hub.attach();
        hub.publish(&"y".repeat(WATCHER_BYTES + 1));
        assert!(!w.overrun.load(Ordering::Relaxed));
    }

    #[test]
    fn a_late_watcher_is_told_only_of_the_holds_that_last() {
        let hub = Hub::new("t".into(), Redactor::default());
        hub.announce(1, true, "held 1");
        hub.announce(1, false, "released 1");
        hub.announce(2, true, "held 2");
        hub.publish("{\"a\":1}");
        let w = hub.attach();
        let backlog: Vec<&str> = w.backlog.iter().map(|l| l.as_ref()).collect();
        assert_eq!(backlog, ["{\"a\":1}", "held 2"]);
        hub.announce(2, false, "released 2");
        assert!(hub.attach().backlog.len() == 1);
    }

    #[test]
    fn the_backlog_is_bounded_and_counts_what_it_forgot() {
        let hub = Hub::new("t".into(), Redactor::default());
        for i in 0..BACKLOG_LINES + 5 {
            hub.publish(&format!("{i}"));
        }
        let w = hub.attach();
        assert_eq!(w.backlog.len(), BACKLOG_LINES);
        assert_eq!(w.missed, 5);
    }
}
