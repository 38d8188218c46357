//! Every page of a call: asks for the page after the last one until the list ends, and says in
//! a typed report how many pages came and why it stopped.

use std::collections::HashSet;

use super::{Call, CallStatus};
use crate::envelope::pager::{merge, merge_exact, next_arguments};
use crate::envelope::{Envelope, ResponseType};
use crate::mcp::{CallOptions, Session};

/// Pages fetched so far, the items they hold, and the total the server stated, if any.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageCount {
    pub pages: usize,
    pub items: usize,
    pub total: Option<u64>,
}

/// Why the pager stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// The last page said there is no more.
    LastPage,
    /// A list page came back empty.
    EmptyPage,
    /// The server gave a position it had given before (the text of that position).
    RepeatedPosition(String),
    /// The page cap was reached, after this many pages.
    MaxPages(usize),
    /// The answer says there is more but not how to ask for it.
    NoWayOn(String),
    /// A page got no reply.
    PageFailed { page: usize, message: String },
    /// A page answered an error.
    PageError { page: usize, message: String },
}

impl Stopped {
    /// Whether the list was read to its end.
    pub fn complete(&self) -> bool {
        matches!(self, Stopped::LastPage | Stopped::EmptyPage | Stopped::RepeatedPosition(_))
    }

    /// The note the merged envelope carries in `metadata.pager.notes`.
    pub fn note(&self) -> Option<String> {
        match self {
            Stopped::LastPage | Stopped::EmptyPage => None,
            Stopped::RepeatedPosition(p) => Some(format!("the server gave the position {p} twice; stopped there")),
            Stopped::MaxPages(n) => Some(format!("stopped after {n} pages (--max-pages)")),
            Stopped::NoWayOn(why) => Some(why.clone()),
            Stopped::PageFailed { page, message } => Some(format!("page {page} failed: {message}")),
            Stopped::PageError { page, message } => Some(format!("page {page} answered an error: {message}")),
        }
    }
}

/// What the pager did: how much it gathered and why it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagerReport {
    pub count: PageCount,
    pub stopped: Stopped,
}

impl PagerReport {
    pub fn complete(&self) -> bool {
        self.stopped.complete()
    }

    /// The status of the whole all-pages call.
    pub fn status(&self) -> CallStatus {
        if self.complete() { CallStatus::Ok } else { CallStatus::Partial }
    }
}

fn count(pages: &[Envelope]) -> PageCount {
    PageCount {
        pages: pages.len(),
        items: pages.iter().map(Envelope::item_count).sum(),
        total: pages.last().and_then(|p| p.summary.as_ref()).and_then(|s| s.total),
    }
}

/// Follows every page after the `known` ones (`call` carries the last known page's arguments;
/// up to `max_pages` pages in all) and returns one envelope whose data holds every item exactly
/// once (`partial` when the list was not read to its end, the reason in `metadata.pager`), and
/// the report. `on_page` hears of each page fetched.
pub async fn all_pages(
    session: &Session,
    call: &Call<'_>,
    known: Vec<Envelope>,
    max_pages: usize,
    opts: &CallOptions,
    on_page: &mut (dyn FnMut(&PageCount) + Send),
) -> (Envelope, PagerReport) {
    let mut pages = known;
    let stopped = follow(session, call, &mut pages, None, max_pages, opts, on_page).await;
    let report = PagerReport { count: count(&pages), stopped };
    let notes = report.stopped.note().into_iter().collect();
    (merge(pages, notes, report.complete()), report)
}

/// [`all_pages`] for `call --json`, which writes every number as the server wrote it: each page
/// is also read with stand-ins (`Call::exact_guide`; `known` carries the known pages' guides),
/// and the merged guide comes back too, None when no page held a number serde_json would rewrite.
pub async fn all_pages_exact(
    session: &Session,
    call: &Call<'_>,
    known: Vec<(Envelope, Option<Envelope>)>,
    max_pages: usize,
    opts: &CallOptions,
    on_page: &mut (dyn FnMut(&PageCount) + Send),
) -> (Envelope, Option<Envelope>, PagerReport) {
    let (mut pages, mut guides): (Vec<_>, Vec<_>) = known.into_iter().unzip();
    let stopped = follow(session, call, &mut pages, Some(&mut guides), max_pages, opts, on_page).await;
    let report = PagerReport { count: count(&pages), stopped };
    let notes = report.stopped.note().into_iter().collect();
    if guides.iter().all(Option::is_none) {
        return (merge(pages, notes, report.complete()), None, report);
    }
    // A page whose numbers are all written back as sent is its own guide.
    let guides = guides.into_iter().zip(&pages).map(|(g, p)| g.unwrap_or_else(|| p.clone())).collect();
    let (merged, guide) = merge_exact(pages, guides, notes, report.complete());
    (merged, Some(guide), report)
}

/// Asks for the page after the last of `pages` until one of the reasons to stop; with `guides`,
/// reads each page's guide into it too.
async fn follow(
    session: &Session,
    call: &Call<'_>,
    pages: &mut Vec<Envelope>,
    mut guides: Option<&mut Vec<Option<Envelope>>>,
    max_pages: usize,
    opts: &CallOptions,
    on_page: &mut (dyn FnMut(&PageCount) + Send),
) -> Stopped {
    let mut seen = HashSet::new();
    let mut args = call.arguments.cloned().unwrap_or_default();
    loop {
        let Some(last) = pages.last() else { return Stopped::LastPage };
        let (next, position) = match next_arguments(call.input_schema(), &args, last) {
            Ok(Some(n)) => n,
            Ok(None) => return Stopped::LastPage,
            Err(why) => return Stopped::NoWayOn(why),
        };
        if pages.len() >= max_pages.max(1) {
            return Stopped::MaxPages(pages.len());
        }
        let shown = crate::envelope::pager::shown_position(&position);
        if !seen.insert(shown.clone()) {
            return Stopped::RepeatedPosition(shown);
        }
        let page = pages.len() + 1;
        let this = call.with_arguments(&next);
        let (env, guide) = match this.send(session, opts, &mut |_| {}).await {
            Ok(reply) => {
                let guide = guides.is_some().then(|| this.exact_guide(&reply.raw, session.options().max_depth));
                let answer = if guides.is_some() { this.read_beside_guide(reply) } else { this.read(reply) };
                (answer.envelope, guide.flatten())
            }
            Err(e) => return Stopped::PageFailed { page, message: e.message },
        };
        if env.response_type == ResponseType::Error {
            let message = env.error.as_ref().and_then(|e| e.message.clone()).unwrap_or_default();
            return Stopped::PageError { page, message };
        }
        // A list page with no items ends the list; a page of text (a long document) has none.
        let empty = env.data.is_array() && env.item_count() == 0;
        pages.push(env);
        if let Some(g) = guides.as_deref_mut() {
            g.push(guide);
        }
        args = next;
        on_page(&count(pages));
        if empty {
            return Stopped::EmptyPage;
        }
    }
}
