//! Where a reader is in a JSON tree, by path rather than by row: found again in the tree built
//! from a new text of the same document (a resource read again after the server's update), whose
//! rows may have moved. The cursor, the top row, the containers folded or unfolded by hand, and
//! the search are kept; a path the new document lacks leaves the cursor on its nearest ancestor.

use std::collections::{HashMap, HashSet};

use super::jsonview::JsonView;
use super::line_input::LineInput;
use crate::jsontree::{Folds, Kind};

pub struct TreePlace {
    cursor: Vec<String>,
    top: Vec<String>,
    /// Containers whose fold differs from how the tree opens: folded (true) or open.
    folds: HashMap<Vec<String>, bool>,
    query: LineInput,
    searching: bool,
    search_note: Option<String>,
}

/// The most folds kept (a big tree unfolded whole has more): the others open as a new tree does.
const KEPT_FOLDS: usize = 5_000;

impl TreePlace {
    pub fn of(view: &JsonView) -> TreePlace {
        let tree = &view.tree;
        let initial = Folds::initial(tree);
        let folds = (0..tree.len())
            .filter(|&i| tree.is_container(i) && view.folds.is_folded(i) != initial.is_folded(i))
            .take(KEPT_FOLDS)
            .map(|i| (tree.segments(i), view.folds.is_folded(i)))
            .collect();
        TreePlace {
            cursor: tree.segments(view.cursor),
            top: tree.segments(view.top),
            folds,
            query: view.query.clone(),
            searching: view.searching,
            search_note: view.search_note.clone(),
        }
    }

    /// Puts `view` (a new tree) at this place, as far as its document has it.
    pub fn restore(self, view: &mut JsonView) {
        refold(view, &self.folds);
        let cursor = find(view, &self.cursor);
        let top = find(view, &self.top);
        view.cursor = view.folds.lift(&view.tree, cursor);
        view.top = view.folds.lift(&view.tree, top);
        view.query = self.query;
        view.searching = self.searching;
        view.search_note = self.search_note;
        view.follow();
    }
}

/// Folds and unfolds the containers at the kept paths, walking only the subtrees that lead to
/// one (and giving rows to those not built yet on the way).
fn refold(view: &mut JsonView, folds: &HashMap<Vec<String>, bool>) {
    if folds.is_empty() {
        return;
    }
    let leads: HashSet<&[String]> = folds.keys().flat_map(|p| (0..=p.len()).map(move |n| &p[..n])).collect();
    let mut i = 0;
    while let Some(row) = view.tree.rows.get(i).copied() {
        let path = view.tree.segments(i);
        if !leads.contains(path.as_slice()) {
            i = row.end as usize + 1;
            continue;
        }
        match folds.get(path.as_slice()) {
            _ if !view.tree.is_container(i) => {}
            Some(true) => view.folds.set(i, true),
            Some(false) => view.unfold(i),
            None => {
                view.load(i);
            }
        }
        i += 1;
    }
}

/// The row at `path`, or its deepest ancestor the tree has rows for.
fn find(view: &JsonView, path: &[String]) -> usize {
    let tree = &view.tree;
    let mut at = 0;
    for step in path {
        let Some(parent) = tree.rows.get(at).filter(|r| r.loaded && matches!(r.kind, Kind::Object | Kind::Array))
        else {
            break;
        };
        let mut child = at + 1;
        let mut found = None;
        while child <= parent.end as usize {
            let Some(r) = tree.rows.get(child) else { break };
            let name = if parent.kind == Kind::Array {
                r.index.to_string()
            } else {
                let key = tree.key(r);
                serde_json::from_str::<String>(key).unwrap_or_else(|_| key.to_string())
            };
            if name == *step {
                found = Some(child);
                break;
            }
            child = r.end as usize + 1;
        }
        match found {
            Some(c) => at = c,
            None => break,
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::keymap::Command;

    fn view(text: &str) -> JsonView {
        let mut v = JsonView::from_text(std::sync::Arc::<str>::from(text), "text");
        v.height = 5;
        v
    }

    #[test]
    fn the_cursor_folds_and_search_are_found_again_where_rows_moved() {
        let old = r#"{"a": {"x": 1, "y": 2}, "b": [10, 20, 30], "c": {"deep": {"k": "v"}}}"#;
        let mut v = view(old);
        // Fold "a", put the cursor on b[2], keep a search.
        v.cursor = 1;
        v.command(Command::Collapse);
        while v.path() != "text.b[2]" {
            assert!(v.command(Command::Down) && v.cursor < v.tree.len() - 1, "{}", v.path());
        }
        v.query.set("deep");
        let place = TreePlace::of(&v);
        // A key added before them: every row below moved.
        let new = r#"{"new": [1, 2, 3, 4], "a": {"x": 1, "y": 3}, "b": [10, 20, 30, 40], "c": {"deep": {"k": "w"}}}"#;
        let mut w = view(new);
        place.restore(&mut w);
        assert_eq!(w.path(), "text.b[2]");
        let a = find(&w, &["a".to_string()]);
        assert!(w.folds.is_folded(a), "a stays folded");
        assert_eq!(w.query.text(), "deep");
        // What is gone leaves the cursor on the nearest ancestor still there.
        let place = TreePlace::of(&w);
        let mut gone = view(r#"{"a": 1, "b": []}"#);
        place.restore(&mut gone);
        assert_eq!(gone.path(), "text.b");
    }
}
