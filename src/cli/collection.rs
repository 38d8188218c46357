//! `mcplens test FILE`: the saved calls of a collection run against the target through the call
//! service, each answer checked against its expectations; results as text or TAP on stdout,
//! JUnit XML to a file; `--update` rewrites the expectations to what came now.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::{TestArgs, TestFormat};
use super::connect::{self, Opened};
use super::suite::{self, CaseResult};
use super::{answer, err_line, out};
use crate::call::CallStatus;
use crate::collection::{self, Collection, Expect, Observed, RunOptions, SavedCall};
use crate::envelope::hints::Hints;
use crate::error::{LensError, Result};
use crate::mcp::ToolList;
use crate::sanitize;

/// The exit code of a run in which at least one call missed its expectations.
pub const EXIT_FAILED: i32 = 6;

/// `mcplens test`
pub async fn test(a: &TestArgs) -> Result<i32> {
    let shown = a.file.display().to_string();
    let text = crate::capped_file::read_text(&a.file, collection::MAX_COLLECTION)
        .map_err(|e| LensError::usage(format!("{shown}: {e}")))?;
    let all = collection::parse(&text).map_err(|e| LensError::usage(format!("{shown}: {e}")))?;
    let calls = select(all, &a.only, &shown)?;
    let mut junit = a.junit.as_deref().map(Junit::open).transpose()?;
    let result = connect_and_run(a, &calls, text, &mut junit).await;
    if let Some(j) = junit {
        j.abandon();
    }
    result
}

async fn connect_and_run(a: &TestArgs, calls: &[SavedCall], text: String, junit: &mut Option<Junit>) -> Result<i32> {
    let mut conn = Conn { opened: Some(open(a).await?), lost: None };
    // Descriptors give output schemas and paging rules; without them the calls still run.
    let listed = conn.session_list().await.unwrap_or_else(|e| {
        err_line(&format!(
            "warning: tools/list failed ({}); calls run without descriptors",
            sanitize::line(&e.message)
        ));
        ToolList::default()
    });
    let result = run_all(a, calls, &listed, &mut conn, (text, junit)).await;
    conn.close().await;
    result
}

/// The `--junit` file, opened before the first call: a path that cannot be written is said
/// before the run, not after every call ran. Its old content stays until the results replace it.
struct Junit {
    path: PathBuf,
    file: std::fs::File,
    /// Made by this run: removed if the run ends before the results are written.
    created: bool,
}

impl Junit {
    fn open(path: &Path) -> Result<Junit> {
        let created = std::fs::symlink_metadata(path).is_err();
        let file = crate::dirs::open_for_write(std::fs::OpenOptions::new().write(true).create(true), path)
            .map_err(|e| LensError::output(format!("cannot write {}: {e}", path.display())))?;
        Ok(Junit { path: path.to_path_buf(), file, created })
    }

    fn write(mut self, xml: &str) -> Result<()> {
        use std::io::Write;
        let file = &mut self.file;
        // A FIFO or a device has no length to cut.
        let emptied = match file.metadata() {
            Ok(m) if m.is_file() => file.set_len(0),
            _ => Ok(()),
        };
        emptied
            .and_then(|()| file.write_all(xml.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| LensError::output(format!("cannot write {}: {e}", self.path.display())))
    }

    /// The run ended without results: an empty file it made is not left for CI to read.
    fn abandon(self) {
        if self.created {
            drop(self.file);
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The calls `--only` names (all without it), in file order.
fn select(all: Collection, only: &[String], shown: &str) -> Result<Vec<SavedCall>> {
    if all.calls.is_empty() {
        return Err(LensError::usage(format!("{shown}: no [[call]] in the file")));
    }
    if let Some(missing) = only.iter().find(|n| all.find(n).is_none()) {
        let names: Vec<String> = all.calls.iter().take(20).map(|c| format!("{:?}", sanitize::line(&c.name))).collect();
        return Err(LensError::usage(format!(
            "--only {:?}: no call of that name in {shown}; it has {}",
            sanitize::line(missing),
            names.join(", ")
        )));
    }
    Ok(all.calls.into_iter().filter(|c| only.is_empty() || only.contains(&c.name)).collect())
}

async fn open(a: &TestArgs) -> Result<Opened> {
    let mut options = a.target.connect_options()?;
    options.asks = Some(answer::Policy::new(&a.answers)?.start());
    connect::open_with(&a.target, options).await
}

/// The session the calls go through: opened again once after the server is lost, so one crash
/// fails one call, not the rest.
struct Conn {
    opened: Option<Opened>,
    /// Why the connection could not be made again (every later call fails with it).
    lost: Option<String>,
}

impl Conn {
    async fn session_list(&mut self) -> Result<ToolList> {
        match &self.opened {
            Some(o) => o.session.list_tools().await,
            None => Err(LensError::connection("not connected")),
        }
    }

    /// A live session, reconnecting if the last one ended; `Err` says why there is none.
    async fn live(&mut self, a: &TestArgs) -> std::result::Result<&Opened, String> {
        if let Some(why) = &self.lost {
            return Err(why.clone());
        }
        if self.opened.as_ref().is_some_and(|o| o.session.is_closed()) {
            if let Some(old) = self.opened.take() {
                old.close().await;
            }
            err_line("mcplens: the connection was lost; connecting again");
            match open(a).await {
                Ok(o) => self.opened = Some(o),
                Err(e) => {
                    let why = format!("not run: connecting again failed: {}", e.message);
                    self.lost = Some(why.clone());
                    return Err(why);
                }
            }
        }
        self.opened.as_ref().ok_or_else(|| "not connected".to_string())
    }

    async fn close(&mut self) {
        if let Some(o) = self.opened.take() {
            o.close().await;
        }
    }
}

async fn run_all(
    a: &TestArgs,
    calls: &[SavedCall],
    listed: &ToolList,
    conn: &mut Conn,
    (text, junit): (String, &mut Option<Junit>),
) -> Result<i32> {
    let mut hints = Hints::load_default(a.target.project_dir().as_deref());
    hints.aliases = a.target.server_names();
    for p in &hints.problems {
        err_line(&format!("warning: hints: {} (the built-in heuristics go on)", sanitize::line(p)));
    }
    let opts = RunOptions { max_pages: a.max_pages, ..RunOptions::default() };
    let started = Instant::now();
    if a.format == TestFormat::Tap {
        out(&suite::tap_header(calls.len()))?;
    }
    let mut updates = Vec::new();
    let mut results = Vec::with_capacity(calls.len());
    for (i, call) in calls.iter().enumerate() {
        let seen = match conn.live(a).await {
            Ok(o) => {
                let label = o.session.target.label();
                let hint = hints.find(&[o.session.server.name(), &label], &call.tool);
                let descriptor = listed.find(&call.tool).map(|t| t.value());
                collection::run(&o.session, call, descriptor, hint, &opts).await
            }
            Err(why) => Observed::failed(CallStatus::ServerGone, Duration::ZERO, why),
        };
        let result = check(a, call, &seen, &mut updates);
        out(&match a.format {
            TestFormat::Text => suite::text_case(&result),
            TestFormat::Tap => suite::tap_case(i + 1, &result),
        })?;
        results.push(result);
    }
    let elapsed = started.elapsed();
    let summary = suite::text_summary(&results, elapsed);
    out(&match a.format {
        TestFormat::Text => summary,
        TestFormat::Tap => format!("# {summary}"),
    })?;
    if a.update {
        write_updates(&a.file, &text, &updates, &results)?;
    }
    if let Some(file) = junit.take() {
        let name = a.file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // A file CI keeps and shows: the target's secrets are masked in it as on stdout, before
        // XML escaping could hide them from the mask.
        let xml = suite::junit(&name, &redacted(&results), elapsed);
        file.write(&super::output::redact(&xml))?;
    }
    Ok(if results.iter().all(CaseResult::passed) { 0 } else { EXIT_FAILED })
}

/// The results with the target's secrets masked in every name and message.
fn redacted(results: &[CaseResult]) -> Vec<CaseResult> {
    let mask = |s: &str| super::output::redact(s).into_owned();
    let failure = |f: &collection::Failure| collection::Failure {
        path: mask(&f.path),
        expected: mask(&f.expected),
        got: mask(&f.got),
    };
    results
        .iter()
        .map(|r| CaseResult {
            name: mask(&r.name),
            elapsed: r.elapsed,
            failures: r.failures.iter().map(failure).collect(),
            changes: r.changes.iter().map(|c| mask(c)).collect(),
        })
        .collect()
}

/// One call's result; with `--update`, its expectations rewritten first (kept in `updates`, the
/// file is written once at the end) and checked again (a time budget, output schema or
/// completeness check may still fail).
fn check(a: &TestArgs, call: &SavedCall, seen: &Observed, updates: &mut Vec<(String, Expect)>) -> CaseResult {
    let mut result = CaseResult { name: call.name.clone(), elapsed: seen.elapsed, ..CaseResult::default() };
    if !a.update {
        result.failures = collection::evaluate(&call.expect, seen);
        return result;
    }
    let (mut new, mut changes) = collection::observed_expect(&call.expect, seen);
    keep_secrets_out(&call.expect, &mut new, &mut changes);
    result.failures = collection::evaluate(&new, seen);
    if !changes.is_empty() {
        updates.push((call.name.clone(), new));
    }
    result.changes = changes;
    result
}

/// A path whose value now holds a secret of the target keeps its checks as written: rewritten,
/// the secret would go into the file, which is kept in git and read in CI. Said in its change
/// line; the call then fails on that path.
fn keep_secrets_out(old: &Expect, new: &mut Expect, changes: &mut Vec<String>) {
    let holds = |s: &str| super::output::holds_secret(s);
    for (at, was) in new.at.iter_mut().zip(&old.at) {
        if !at.checks.iter().any(|c| collection::check_holds(c, &holds)) {
            continue;
        }
        let path = sanitize::line(&at.path()).into_owned();
        at.checks.clone_from(&was.checks);
        changes.retain(|c| !c.starts_with(&format!("{path}: ")));
        changes.push(format!(
            "{path}: not rewritten: the value there holds a secret of the target (-e, -H, a config's env)"
        ));
    }
}

fn write_updates(path: &Path, text: &str, updates: &[(String, Expect)], results: &[CaseResult]) -> Result<()> {
    let changed = results.iter().filter(|r| !r.changes.is_empty()).count();
    if changed == 0 {
        err_line(&format!("{}: no expectation changed", path.display()));
        return Ok(());
    }
    let text =
        collection::update_all(text, updates).map_err(|e| LensError::usage(format!("{}: {e}", path.display())))?;
    collection::save::write(path, &text)?;
    err_line(&format!(
        "{}: updated the expectations of {changed} call{}",
        path.display(),
        if changed == 1 { "" } else { "s" }
    ));
    Ok(())
}
