//! What a re-listing changed: the items added, removed and changed (by name, a changed item is one
//! whose descriptor text differs), said in one line for the status bar and the log.

use std::collections::HashMap;

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

/// The difference from `old` to `new`, in each list's order. Two items of one name are paired
/// in order, so a duplicated name added is still seen.
pub fn diff(old: &[Entry], new: &[Entry]) -> Change {
    let mut before: HashMap<&str, Vec<&str>> = HashMap::new();
    for (name, raw) in old {
        before.entry(name.as_str()).or_default().push(raw.as_str());
    }
    let mut change = Change::default();
    for (name, raw) in new {
        match before.get_mut(name.as_str()).filter(|v| !v.is_empty()) {
            Some(raws) => {
                if raws.remove(0) != raw.as_str() {
                    change.changed.push(name.clone());
                }
            }
            None => change.added.push(name.clone()),
        }
    }
    let mut left: HashMap<&str, usize> = before.iter().map(|(k, v)| (*k, v.len())).collect();
    for (name, _) in old {
        if let Some(n) = left.get_mut(name.as_str())
            && *n > 0
        {
            *n -= 1;
            change.removed.push(name.clone());
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
        let many: Vec<Entry> = (0..9).map(|i| (format!("t{i}"), String::new())).collect();
        assert!(describe("tools", &diff(&[], &many)).ends_with("t5 and 3 more"));
    }
}
