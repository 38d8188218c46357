//! `mcplens diff OLD [NEW]`: two snapshots compared, each change classified breaking or
//! compatible for callers. Without NEW the new side is the live target (`-- <server>`, `--url`,
//! `--config`), snapshotted now. Exit 0 when nothing breaks, [`EXIT_BREAKING`] when something does.

use std::path::Path;

use serde_json::{Value, json};

use super::{TargetArgs, out};
use crate::error::{LensError, Result};
use crate::sanitize;
use crate::schema::diff::{Change, Impact};
use crate::snapshot_text::Snapshot;

/// The exit code of a diff holding at least one breaking change.
pub const EXIT_BREAKING: i32 = 5;

/// `mcplens diff`
pub async fn diff(old: &Path, new: Option<&Path>, target: &TargetArgs, json: bool, max_depth: usize) -> Result<i32> {
    if let (Some(new), Some(given)) = (new, target.named_by()) {
        return Err(LensError::usage(format!(
            "diff {} {} compares the two files: the server given with {given} is not used; leave it out, \
             or leave NEW out to compare {0} with that server",
            old.display(),
            new.display()
        )));
    }
    let before = read(old)?;
    let sides = Sides { old, new, json, max_depth };
    match new {
        Some(path) => compare_and_print(&before, &read(path)?, &sides),
        None => {
            let opened = super::connect::open(target).await?;
            let compare = |after: String| compare_and_print(&before, &after, &sides);
            opened.run(async |o| super::snapshot::take(&o.session).await.and_then(compare)).await
        }
    }
}

/// What is compared with what, and how the changes are printed.
struct Sides<'a> {
    old: &'a Path,
    /// None: the live server.
    new: Option<&'a Path>,
    json: bool,
    max_depth: usize,
}

/// The changes from `before` to `after`, printed; the exit code they make.
fn compare_and_print(before: &str, after: &str, sides: &Sides) -> Result<i32> {
    let Sides { old, new, json, max_depth } = *sides;
    let what = |p: Option<&Path>| p.map_or_else(|| "the live server".to_string(), |p| p.display().to_string());
    let changes = match (Snapshot::read(before, max_depth), Snapshot::read(after, max_depth)) {
        (Some(b), Some(a)) => {
            let (b, a) = (checked(b, &what(Some(old)))?, checked(a, &what(new))?);
            warn_other(b.server(), a.server(), (b.target(), a.target()));
            crate::snapshot_text::compare(&b, &a)
        }
        // A document serde_json refuses as it is (a number past its range): read whole, approximated.
        _ => whole(before, after, (&what(Some(old)), &what(new)), max_depth)?,
    };
    let breaking = changes.iter().filter(|c| c.impact == Impact::Breaking).count();
    out(&if json { as_json(&changes, breaking) } else { readable(&changes, breaking) })?;
    Ok(if breaking > 0 { EXIT_BREAKING } else { 0 })
}

fn read(path: &Path) -> Result<String> {
    crate::capped_file::read_text(path, crate::snapshot::MAX_SNAPSHOT)
        .map_err(|e| LensError::usage(format!("cannot read {}: {e}", path.display())))
}

fn checked<'a>(snapshot: std::result::Result<Snapshot<'a>, String>, what: &str) -> Result<Snapshot<'a>> {
    snapshot.map_err(|e| LensError::usage(format!("{}: {}", sanitize::line(what), sanitize::line(&e))))
}

fn whole(before: &str, after: &str, names: (&str, &str), max_depth: usize) -> Result<Vec<Change>> {
    let before = parse(before, names.0, max_depth)?;
    let after = parse(after, names.1, max_depth)?;
    if let (Some(o), Some(n)) = (before.get("server"), after.get("server")) {
        warn_other(o, n, (before.get("target"), after.get("target")));
    }
    let changes = crate::snapshot::compare(&before, &after);
    crate::deep::drop_value(before);
    crate::deep::drop_value(after);
    Ok(changes)
}

/// Says when the two sides are different servers, or the same server taken from different
/// targets.
fn warn_other(old: &Value, new: &Value, targets: (Option<&Value>, Option<&Value>)) {
    if let Some(why) = crate::snapshot::other_server(old, new) {
        // Said, not refused: a server may have been renamed between two releases.
        super::output::err_line(&format!("mcplens: warning: {why}: the changes are between two different servers"));
    } else if let Some(now) = targets.1
        && let Some(why) = crate::snapshot::target::other_target(targets.0, now)
    {
        // Said, not refused: the same server may be started another way, or moved.
        super::output::err_line(&format!("mcplens: note: {why}"));
    }
}

pub(crate) fn load(path: &Path, max_depth: usize) -> Result<Value> {
    parse(&read(path)?, &path.display().to_string(), max_depth)
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
