//! A long reply's skeleton scan (see `crate::skeleton`) made on a second thread while the tap
//! parses the reply: the two walks of its bytes then take the time of one. The scan is kept
//! beside the reply it was made of (the very allocation, held), until the session reads it.

use std::sync::Arc;

use crate::json::valid::Meet;
use crate::skeleton::Scanned;

/// Lines shorter than this are scanned when they are read, on the reader's thread.
const LONG_LINE: usize = 1 << 20;

/// The scan waiting for its reply to be read: the reply, and the depth limit it was made under.
#[derive(Default)]
pub(super) struct Ahead {
    /// The session's depth limit; no scan is made ahead without one.
    pub(super) max_depth: Option<usize>,
    kept: Option<(Arc<String>, usize, Scanned)>,
}

impl Ahead {
    /// Keeps the scan of `raw` (made by [`beside_scan`]), in place of any not taken.
    pub(super) fn keep(&mut self, raw: &Arc<String>, scanned: Option<(usize, Scanned)>) {
        if let Some((max_depth, s)) = scanned {
            self.kept = Some((raw.clone(), max_depth, s));
        }
    }

    /// The scan of `raw` (this very text) under `max_depth`, if one was made ahead.
    pub(super) fn take(&mut self, raw: &Arc<String>, max_depth: usize) -> Option<Scanned> {
        match self.kept.take() {
            Some((r, d, s)) if Arc::ptr_eq(&r, raw) && d == max_depth => Some(s),
            other => {
                self.kept = other;
                None
            }
        }
    }

    /// What `read` makes of the skeleton of `raw` (this very text), if its scan was made ahead
    /// and left anything out.
    pub(super) fn read_skeleton<T>(&self, raw: &Arc<String>, read: impl FnOnce(&str) -> T) -> Option<T> {
        match &self.kept {
            Some((r, _, s)) if Arc::ptr_eq(r, raw) => s.skeleton().map(read),
            _ => None,
        }
    }

    /// Lets go of the scan of `raw`, a reply that will not be read (another's is kept).
    pub(super) fn drop_of(&mut self, raw: &Arc<String>) {
        if self.kept.as_ref().is_some_and(|(r, _, _)| Arc::ptr_eq(r, raw)) {
            self.kept = None;
        }
    }

    /// Lets go of a scan whose reply will not be read.
    pub(super) fn drop_unread(&mut self) {
        self.kept = None;
    }
}

/// `parse(line)`, and beside it, for a long line on a machine with a second core, the line's
/// skeleton scan under `max_depth` and its scan for inexact numbers (wasted only when the line
/// is not a reply that is kept).
pub(super) fn beside_scan<T>(
    line: &str,
    max_depth: Option<usize>,
    parse: impl FnOnce(Option<&Meet>) -> T,
) -> (T, Option<(usize, Scanned)>) {
    let Some(max_depth) = max_depth.filter(|_| line.len() >= LONG_LINE && crate::cores::two()) else {
        return (parse(None), None);
    };
    // The scan for inexact numbers is shared: each thread takes pieces of it once its own walk
    // is done, so neither waits for the other to scan alone. The skeleton scan is the shorter
    // walk: its thread then checks the rest of a long array ahead of the parse's walk first.
    let meet = Meet::default();
    let (parsed, scanned, inexact) = crate::json::exact::scan_beside(
        line,
        || parse(Some(&meet)),
        || {
            let scanned = Scanned::of(line, max_depth);
            meet.help(line);
            scanned
        },
    );
    (parsed, scanned.map(|s| (max_depth, s.with_inexact(inexact))))
}
