//! One saved call carried out through the call service (the same as `mcplens call`): sent as
//! written (not checked against the input schema, so a test may check the server's refusal),
//! every page followed with `all_pages`, and read into what the checks need.

use std::time::Instant;

use serde_json::Value;

use super::expect::{Observed, PagesRead};
use super::model::SavedCall;
use crate::call::{Call, CallStatus, all_pages};
use crate::envelope::Envelope;
use crate::envelope::hints::Hint;
use crate::mcp::{CallOptions, Session};

/// How saved calls are run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// With `all_pages`: stop after this many pages.
    pub max_pages: usize,
    pub call: CallOptions,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { max_pages: 100, call: CallOptions::default() }
    }
}

/// Runs `saved` (its tool's descriptor and hint, if the server listed it and the user taught
/// one) and returns what came, ready for [`super::evaluate`].
pub async fn run(
    session: &Session,
    saved: &SavedCall,
    descriptor: Option<&Value>,
    hint: Option<&Hint>,
    opts: &RunOptions,
) -> Observed {
    let call = Call { tool: &saved.tool, arguments: saved.arguments.as_ref(), descriptor, hint };
    let started = Instant::now();
    let outcome = call.run(session, &opts.call, &mut |_| {}).await;
    let answer = match outcome.answer {
        Ok(a) => a,
        Err(e) => return Observed::failed(outcome.status, started.elapsed(), e.message),
    };
    let raw = answer.reply.raw.clone();
    let (envelope, status, pages) = if saved.all_pages {
        every_page(session, &call, answer.envelope, answer.status, opts).await
    } else {
        (answer.envelope, answer.status, None)
    };
    let elapsed = started.elapsed();
    Observed {
        status,
        response_type: Some(envelope.response_type),
        elapsed,
        error: None,
        raw: Some(raw),
        envelope: Some(envelope),
        output_schema: call.output_schema().map(crate::deep::clone_value),
        pages,
        max_depth: session.options().max_depth,
    }
}

/// Follows the pages after the first: the merged envelope, the status (`partial` when the list
/// was not read to its end) and what the pager read.
async fn every_page(
    session: &Session,
    call: &Call<'_>,
    first: Envelope,
    status: CallStatus,
    opts: &RunOptions,
) -> (Envelope, CallStatus, Option<PagesRead>) {
    if !first.has_more() {
        return (first, status, Some(PagesRead { pages: 1, complete: true, note: None }));
    }
    let (merged, report) = all_pages(session, call, vec![first], opts.max_pages, &opts.call, &mut |_| {}).await;
    let read = PagesRead { pages: report.count.pages, complete: report.complete(), note: report.stopped.note() };
    let status = if status == CallStatus::Ok && !read.complete { CallStatus::Partial } else { status };
    (merged, status, Some(read))
}
