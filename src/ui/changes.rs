//! What a re-listing changed: the items added, removed and changed (by name, a changed item is one
//! whose descriptor text differs), said in one line for the status bar and the log.

use crate::snapshot::Paired;

/// One listed item: what names it to the user, and its descriptor exactly as sent.
pub type Entry = (String, String);

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Change {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
}

impl Change {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The difference from `old` to `new`: removed and changed in the old list's order, added in
/// the new one's. Items sharing a name are paired as `mcplens diff` pairs them (alike first, then
/// in order: see [`crate::snapshot::pair`]), so a duplicated name added is still seen.
pub fn diff(old: &[Entry], new: &[Entry]) -> Change {
    let mut change = Change::default();
    for paired in crate::snapshot::pair(old, new, |raw| mcplens_core::value_set::hash_str(raw)) {
        match paired {
            Paired::Removed(name, _) => change.removed.push(name.to_string()),
            Paired::Both(name, a, b) if a != b => change.changed.push(name.to_string()),
            Paired::Both(..) => {}
            Paired::Added(name, _) => change.added.push(name.to_string()),
        }
    }
    change
}

/// At most this many names of each kind are written out.
const NAMES: usize = 6;

fn names(list: &[String]) -> String {
    let shown: Vec<String> = list.iter().take(NAMES).map(|n| crate::sanitize::truncate(n, 60).into_owned()).collect();
    let more = list.len().saturating_sub(NAMES);
    let mut s = shown.join(", ");
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    s
}

/// `tools changed (list_changed): 2 added: a, b; 1 removed: c` (`what` is the plural noun).
pub fn describe(what: &str, c: &Change) -> String {
    if c.is_empty() {
        return format!("{what} list_changed: re-listed, nothing changed");
    }
    let mut parts = vec![];
    for (n, verb) in [(&c.added, "added"), (&c.removed, "removed"), (&c.changed, "changed")] {
        if !n.is_empty() {
            parts.push(format!("{} {verb}: {}", n.len(), names(n)));
        }
    }
    format!("{what} changed (list_changed): {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(items: &[(&str, &str)]) -> Vec<Entry> {
        items.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn added_removed_and_changed_by_name() {
        let old = e(&[("a", "1"), ("b", "2"), ("c", "3"), ("dup", "x")]);
        let new = e(&[("a", "1"), ("c", "33"), ("d", "4"), ("dup", "x"), ("dup", "x")]);
        let c = diff(&old, &new);
        assert_eq!(c.added, ["d", "dup"]);
        assert_eq!(c.removed, ["b"]);
        assert_eq!(c.changed, ["c"]);
        assert_eq!(describe("tools", &c), "tools changed (list_changed): 2 added: d, dup; 1 removed: b; 1 changed: c");
        assert_eq!(describe("prompts", &diff(&old, &old)), "prompts list_changed: re-listed, nothing changed");
        // Two of one name, paired in order: the list re-listed alike is no change.
        let twice = e(&[("dup", "x"), ("dup", "y")]);
        assert!(diff(&twice, &twice).is_empty());
        assert_eq!(diff(&twice, &e(&[("dup", "x")])).removed, ["dup"]);
        let many: Vec<Entry> = (0..9).map(|i| (format!("t{i}"), String::new())).collect();
        assert!(describe("tools", &diff(&[], &many)).ends_with("t5 and 3 more"));
    }
}
