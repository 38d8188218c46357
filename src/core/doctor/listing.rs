//! The last step: a real session (the same one every command opens) and its first listing.

use super::{Step, Verdict};
use crate::mcp::{ConnectOptions, Session, Target};

const TITLE: &str = "first listing (tools/list)";

pub async fn probe(target: &Target, mut options: ConnectOptions) -> Step {
    // A doctor never opens a browser or waits for a person.
    options.auth.no_browser = true;
    options.auth.open_browser = false;
    let session = match Session::connect(target, options).await {
        Ok(s) => s,
        Err(e) => {
            return Step::new("listing", TITLE, Verdict::Fail, format!("the session did not open: {}", e.message))
                .fix("the steps above passed on their own: read the session's error, and `mcplens info` with --log-level debug");
        }
    };
    let era = session.era().label();
    let version = session.server.protocol_version().to_string();
    let listed = session.list_tools().await;
    session.close().await;
    match listed {
        Ok(list) => {
            let detail =
                format!("{} tool(s) in {} page(s), over protocol {version} ({era})", list.tools.len(), list.pages);
            let mut step = Step::new("listing", TITLE, Verdict::Pass, detail);
            if !list.warnings.is_empty() {
                step.verdict = Verdict::Warn;
                step.received = list.warnings.clone();
                step = step.fix("see `mcplens lint` for what each warning means to hosts");
            }
            step
        }
        Err(e) => Step::new("listing", TITLE, Verdict::Fail, format!("tools/list failed: {}", e.message))
            .fix("answer tools/list with {\"tools\": [...]} (an empty list if the server has none)"),
    }
}
