//! When a connection fails, the doctor (`mcplens_core::doctor`) takes it step by step in the
//! background; its steps go to the session log and the first failing one to the status line.

use tokio::sync::mpsc::UnboundedSender;

use super::msg::{Msg, SessionMsg};
use crate::mcp::log::{LogKind, SessionLog};
use crate::mcp::{ConnectOptions, Target};

pub fn after_failure(target: &Target, options: &ConnectOptions, log: &SessionLog, out: &UnboundedSender<Msg>) {
    let (target, log, out) = (target.clone(), log.clone(), out.clone());
    // Its own log and no questions: the doctor's probes must not mix into the session's.
    let options = ConnectOptions { log: None, asks: None, listen: false, ..options.clone() };
    tokio::spawn(async move {
        let report = crate::doctor::run(&target, options).await;
        for line in report.lines() {
            log.push(LogKind::Info, &line);
        }
        let notice = match report.steps.iter().find(|s| s.verdict == crate::doctor::Verdict::Fail) {
            Some(s) => format!("doctor: {} failed: {} (every step is in the log)", s.title, s.detail),
            None => "doctor: every step passes now (every step is in the log); R reconnects".to_string(),
        };
        let _ = out.send(Msg::Session(SessionMsg::Notice(crate::sanitize::line(&notice).into_owned())));
    });
}
