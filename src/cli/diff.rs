//! `mcplens diff OLD [NEW]`: two snapshots compared, each change classified breaking or
//! compatible for callers. Without NEW the new side is the live target (`-- <server>`, `--url`,
//! `--config`), snapshotted now. Exit 0 when nothing breaks, [`EXIT_BREAKING`] when something does.

use std::path::Path;

use serde_json::{Value, json};

use super::{TargetArgs, out};
use crate::error::{LensError, Result};
use crate::sanitize;
use crate::schema::diff::{Change, Impact};

/// The exit code of a diff holding at least one breaking change.
pub const EXIT_BREAKING: i32 = 5;

/// `mcplens diff`
pub async fn diff(old: &Path, new: Option<&Path>, target: &TargetArgs, json: bool, max_depth: usize) -> Result<i32> {
    let before = load(old, max_depth)?;
    let after = match new {
        Some(path) => load(path, max_depth)?,
        None => {
            let opened = super::connect::open(target).await?;
            let taken = super::snapshot::take(&opened.session).await;
            opened.close().await;
            parse(&taken?, "the live server", max_depth)?
        }
    };
    if let (Some(o), Some(n)) = (before.get("server"), after.get("server"))
        && let Some(why) = crate::snapshot::other_server(o, n)
    {
        // Said, not refused: a server may have been renamed between two releases.
        super::output::err_line(&format!("mcplens: warning: {why}: the changes are between two different servers"));
    } else if let Some(now) = after.get("target")
        && let Some(why) = crate::snapshot::target::other_target(before.get("target"), now)
    {
        // Said, not refused: the same server may be started another way, or moved.
        super::output::err_line(&format!("mcplens: note: {why}"));
    }
    let changes = crate::snapshot::compare(&before, &after);
    let breaking = changes.iter().filter(|c| c.impact == Impact::Breaking).count();
    out(&if json { as_json(&changes, breaking) } else { readable(&changes, breaking) })?;
    crate::deep::drop_value(before);
    crate::deep::drop_value(after);
    Ok(if breaking > 0 { EXIT_BREAKING } else { 0 })
}

pub(crate) fn load(path: &Path, max_depth: usize) -> Result<Value> {
    let text = crate::capped_file::read_text(path, crate::snapshot::MAX_SNAPSHOT)
        .map_err(|e| LensError::usage(format!("cannot read {}: {e}", path.display())))?;
    parse(&text, &path.display().to_string(), max_depth)
}

fn parse(text: &str, what: &str, max_depth: usize) -> Result<Value> {
    let doc: Value = crate::json::depth::parse(text, max_depth)
        .map_err(|e| LensError::usage(format!("{}: not JSON: {}", sanitize::line(what), sanitize::line(&e))))?;
    if let Err(e) = crate::snapshot::check(&doc) {
        crate::deep::drop_value(doc);
        return Err(LensError::usage(format!("{}: {}", sanitize::line(what), sanitize::line(&e))));
    }
    Ok(doc)
}

/// One line a change: its impact, path and what it is; then the counts.
fn readable(changes: &[Change], breaking: usize) -> String {
    let mut s = String::new();
    for c in changes {
        let label = if c.impact == Impact::Breaking { "BREAKING  " } else { "compatible" };
        s.push_str(&format!("{label}  {}  {}\n", sanitize::line(&c.path), sanitize::line(&c.what)));
    }
    let compatible = changes.len() - breaking;
    if changes.is_empty() {
        s.push_str("no changes\n");
    } else {
        s.push_str(&format!("{breaking} breaking, {compatible} compatible\n"));
    }
    s
}

fn as_json(changes: &[Change], breaking: usize) -> String {
    let list: Vec<Value> =
        changes.iter().map(|c| json!({"path": c.path, "impact": c.impact.label(), "change": c.what})).collect();
    let doc = json!({"breaking": breaking, "compatible": changes.len() - breaking, "changes": list});
    format!("{}\n", sanitize::json(&doc.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_lines_are_safe() {
        let c =
            vec![Change { path: "/tools/a\u{1b}[2J".into(), impact: Impact::Breaking, what: "tool removed".into() }];
        let text = readable(&c, 1);
        assert!(!text.contains('\u{1b}') && text.ends_with("1 breaking, 0 compatible\n"), "{text}");
        assert!(!as_json(&c, 1).contains('\u{1b}'));
    }
}
