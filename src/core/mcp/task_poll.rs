//! How often, and how long, a task is polled. The server names an interval, but a task that
//! stays as it is (`working` for ever, the same status message) would be polled at that rate
//! for ever: each poll that brings no change waits half as long again, up to [`MAX_WAIT`], and
//! after [`MAX_POLLS`] polls mcplens stops following the task and says so (it runs on at the
//! server, where `mcplens task get|cancel` still reach it).

use std::time::Duration;

use super::tasks::Task;

/// The longest wait between two polls of a task that does not change.
pub const MAX_WAIT: Duration = Duration::from_secs(10);
/// Polls of one task before mcplens stops following it (about five hours at [`MAX_WAIT`]).
pub const MAX_POLLS: usize = 2000;

#[derive(Default)]
pub struct Poller {
    polls: usize,
    wait: Duration,
    last: Option<(String, Option<String>)>,
}

impl Poller {
    /// The wait before the next poll of `task`; why not to poll again when the bound is reached.
    pub fn next(&mut self, task: &Task) -> Result<Duration, String> {
        self.polls += 1;
        if self.polls > MAX_POLLS {
            return Err(format!(
                "task {} is still {} after {MAX_POLLS} polls; mcplens stopped following it (it runs on at the server: mcplens task get|cancel {})",
                task.id, task.status, task.id
            ));
        }
        let now = (task.status.clone(), task.message.clone());
        let same = self.last.as_ref() == Some(&now);
        self.last = Some(now);
        self.wait = if same { (self.wait.mul_f64(1.5)).min(MAX_WAIT) } else { task.poll };
        self.wait = self.wait.max(task.poll);
        Ok(self.wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(status: &str, message: Option<&str>) -> Task {
        Task {
            id: "t".into(),
            status: status.into(),
            message: message.map(str::to_string),
            poll: Duration::from_millis(100),
        }
    }

    #[test]
    fn an_unchanging_task_is_polled_less_and_less_then_let_go() {
        let mut p = Poller::default();
        let waits: Vec<Duration> = (0..20).filter_map(|_| p.next(&task("working", None)).ok()).collect();
        assert_eq!(waits[0], Duration::from_millis(100));
        assert!(waits.windows(2).all(|w| w[1] >= w[0]) && waits[19] == MAX_WAIT, "{waits:?}");
        // A change starts again at the server's interval.
        assert_eq!(p.next(&task("working", Some("50%"))), Ok(Duration::from_millis(100)));
        let mut p = Poller::default();
        let stopped = (0..=MAX_POLLS).map(|_| p.next(&task("working", None))).last();
        assert!(matches!(stopped, Some(Err(e)) if e.contains("stopped following it")));
    }
}
