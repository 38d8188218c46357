//! A JSON document flattened once into rows (the jless approach): each row has its depth, its
//! parent, the last row of its subtree, and byte ranges of its key and value in the document's own
//! text. Folding skips a subtree in O(1); the screen touches only the rows it shows; nothing is
//! parsed or formatted again after the build. It is built from the tokens of [`crate::json`]'s
//! iterative tokenizer: any depth is safe.

use crate::json::{Kind as TokenKind, Skim, Token, Tokenizer};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

/// One node. Offsets are byte offsets into the tree's text.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub depth: u16,
    pub kind: Kind,
    /// A container whose children have rows (see [`JsonTree::load`]); always true for scalars.
    pub loaded: bool,
    /// Index of the parent row (the root's parent is itself).
    pub parent: u32,
    /// Index of the last row in this row's subtree (itself for leaves).
    pub end: u32,
    /// The object key (with its quotes), or none for array elements and the root.
    pub key_start: u32,
    pub key_len: u32,
    /// Position in the parent array, for array elements.
    pub index: u32,
    /// The value's whole text: a scalar, or a container from `{`/`[` to its `}`/`]`.
    pub value_start: u32,
    pub value_len: u32,
    /// Number of direct children of a container.
    pub children: u32,
}

#[derive(Debug, Clone)]
pub struct JsonTree {
    pub text: crate::skeleton::SharedText,
    pub rows: Vec<Row>,
    /// The root's display name in paths ("data", "structuredContent", ...).
    pub root_name: String,
    /// Why the text stopped being JSON, if it did (rows up to there are kept).
    pub error: Option<String>,
}

/// A syntax error of the document read from `start`, with its offset in the whole text.
fn located(e: crate::json::Error, start: usize) -> String {
    format!("{} at byte {}", e.what, e.offset + start)
}

/// Documents up to this size get every row at once; a larger one gets rows down to the depth at
/// which it would pass [`ROW_BUDGET`], and the containers there get theirs when unfolded.
const EAGER_BYTES: usize = 1 << 20;

/// Rows built at once for a large document (a row is 36 bytes).
const ROW_BUDGET: usize = 200_000;

/// How deep to build rows for `text[range]`: the deepest level at which the rows so far stay
/// within [`ROW_BUDGET`] (at least the root's children), or no limit for a small document.
fn depth_limit(text: &str, range: std::ops::Range<usize>) -> usize {
    if range.len() <= EAGER_BYTES {
        return usize::MAX;
    }
    // Values that begin at each depth. Only an estimate for the budget: the syntax is checked
    // by the build that follows, so it is not checked here.
    let mut counts: Vec<usize> = vec![];
    for tok in Skim::new(text.get(range).unwrap_or_default()) {
        if tok.kind.starts_value() {
            if counts.len() <= tok.depth {
                counts.resize(tok.depth + 1, 0);
            }
            counts[tok.depth] += 1;
        }
        if tok.depth == 0 && !tok.kind.is_open() {
            // The root is complete: what follows it is not this document's.
            break;
        }
    }
    let mut total = 0usize;
    for (d, n) in counts.iter().enumerate() {
        total += n;
        if total > ROW_BUDGET {
            return d.saturating_sub(1).max(1);
        }
    }
    usize::MAX
}

/// Where a flattened document sits: the first row's index, depth, parent, key and array index.
#[derive(Clone, Copy)]
struct Place {
    first: u32,
    depth: u16,
    parent: Option<u32>,
    key: (u32, u32),
    index: u32,
}

/// Flattens the document starting at `start` (within `text`), down to `limit` levels below it.
/// Rows are numbered from `at.first`. Returns the rows and why the text stopped being JSON.
fn flatten(text: &str, start: usize, at: Place, limit: usize) -> (Vec<Row>, Option<String>) {
    let mut rows: Vec<Row> = Vec::new();
    // Open containers: their row index.
    let mut stack: Vec<u32> = Vec::new();
    let mut pending_key: Option<(u32, u32)> = None;
    let mut toks = Tokenizer::new(text.get(start..).unwrap_or_default());
    let error = loop {
        let tok = match toks.next() {
            Some(Ok(tok)) => Token { start: tok.start + start, end: tok.end + start, ..tok },
            Some(Err(e)) => break Some(located(e, start)),
            None => break None,
        };
        let parent = stack.last().copied();
        match tok.kind {
            TokenKind::Key => {
                pending_key = Some((tok.start as u32, (tok.end - tok.start) as u32));
                continue;
            }
            TokenKind::ObjectClose | TokenKind::ArrayClose => {
                let Some(open) = stack.pop() else { break None };
                close(&mut rows, at.first, open, tok.end);
                if stack.is_empty() {
                    break None;
                }
                continue;
            }
            _ => {}
        }
        let me = at.first + rows.len() as u32;
        let ((key_start, key_len), index) = placed(&mut rows, at.first, parent, &mut pending_key, &at);
        let kind = row_kind(tok.kind);
        let mut row = Row {
            depth: (at.depth as usize + tok.depth).min(u16::MAX as usize) as u16,
            kind,
            loaded: true,
            parent: parent.or(at.parent).unwrap_or(me),
            end: me,
            key_start,
            key_len,
            index,
            value_start: tok.start as u32,
            value_len: (tok.end - tok.start) as u32,
            children: 0,
        };
        if tok.kind.is_open() && tok.depth >= limit {
            // Deep enough: the children get rows (their text checked) when this container is
            // unfolded; here only its extent and its direct children are counted.
            match toks.skip_container() {
                Ok((after, children)) => {
                    row.loaded = false;
                    row.children = children;
                    row.value_len = (after + start) as u32 - row.value_start;
                }
                Err(e) => break Some(located(e, start)),
            }
        } else if tok.kind.is_open() {
            rows.push(row);
            stack.push(me);
            continue;
        }
        rows.push(row);
        if stack.is_empty() {
            break None;
        }
    };
    // Nothing but whitespace is no document, and no fault either.
    let blank = rows.is_empty() && text.get(start..).is_none_or(|t| t.trim_matches(JSON_WS).is_empty());
    (rows, if blank { None } else { error })
}

const JSON_WS: [char; 4] = [' ', '\n', '\r', '\t'];

/// A container's row when its closing token (ending at `end`) is read: its last descendant row
/// and its text's length.
fn close(rows: &mut [Row], first: u32, open: u32, end: usize) {
    let last = first + rows.len() as u32 - 1;
    let row = &mut rows[(open - first) as usize];
    row.end = last;
    row.value_len = end as u32 - row.value_start;
}

/// A new row's key (under an object: the key just read) and index (under an array: its
/// position), counted in its parent's children; a top row takes the place it was given.
fn placed(
    rows: &mut [Row],
    first: u32,
    parent: Option<u32>,
    pending_key: &mut Option<(u32, u32)>,
    at: &Place,
) -> ((u32, u32), u32) {
    let Some(p) = parent else { return (at.key, at.index) };
    let parent_row = &mut rows[(p - first) as usize];
    let key = pending_key.take().unwrap_or((0, 0));
    let index = if parent_row.kind == Kind::Array { parent_row.children } else { 0 };
    parent_row.children += 1;
    (key, index)
}

fn row_kind(kind: TokenKind) -> Kind {
    match kind {
        TokenKind::ObjectOpen => Kind::Object,
        TokenKind::ArrayOpen => Kind::Array,
        TokenKind::String => Kind::String,
        TokenKind::True | TokenKind::False => Kind::Bool,
        TokenKind::Null => Kind::Null,
        _ => Kind::Number,
    }
}

impl JsonTree {
    /// Flattens `text`. Text over 4 GiB is refused (offsets are 32-bit to keep rows small).
    pub fn build(text: impl Into<crate::skeleton::SharedText>, root_name: &str) -> JsonTree {
        let text = text.into();
        let len = text.len();
        JsonTree::build_in(text, 0..len, root_name)
    }

    /// Flattens the document at `range` of `text` (a member of a reply), sharing the text
    /// rather than copying the member out of it. A large document gets rows down to a depth
    /// (see [`JsonTree::load`]).
    pub fn build_in(
        text: impl Into<crate::skeleton::SharedText>,
        range: std::ops::Range<usize>,
        root_name: &str,
    ) -> JsonTree {
        let text = text.into();
        let mut tree = JsonTree { text: text.clone(), rows: Vec::new(), root_name: root_name.to_string(), error: None };
        if text.len() > u32::MAX as usize {
            tree.error = Some("the document is larger than 4 GiB".into());
            return tree;
        }
        let doc = text.get(..range.end).unwrap_or_default();
        let limit = depth_limit(doc, range.start..range.end);
        let root = Place { first: 0, depth: 0, parent: None, key: (0, 0), index: 0 };
        (tree.rows, tree.error) = flatten(doc, range.start, root, limit);
        tree
    }

    /// Gives the children of container row `i` their rows (a large subtree again down to a
    /// depth). Returns how many rows were inserted after `i`; rows after it move down by that.
    pub fn load(&mut self, i: usize) -> usize {
        let Some(r) = self.rows.get(i).copied() else { return 0 };
        if r.loaded {
            return 0;
        }
        let start = r.value_start as usize;
        let end = start + r.value_len as usize;
        let doc = self.text.get(..end).unwrap_or_default();
        let parent = (r.parent as usize != i).then_some(r.parent);
        let at = Place { first: i as u32, depth: r.depth, parent, key: (r.key_start, r.key_len), index: r.index };
        let (sub, _) = flatten(doc, start, at, depth_limit(doc, start..end));
        if sub.is_empty() {
            return 0;
        }
        let k = (sub.len() - 1) as u32;
        for (j, row) in self.rows.iter_mut().enumerate() {
            if j == i {
                continue;
            }
            if row.end as usize >= i {
                row.end += k;
            }
            if row.parent as usize > i {
                row.parent += k;
            }
        }
        self.rows.splice(i..=i, sub);
        k as usize
    }

    /// Whether every container has its rows.
    pub fn fully_loaded(&self) -> bool {
        self.rows.iter().all(|r| r.loaded)
    }

    /// Every container's rows (what "expand all" needs); rows are rebuilt, not spliced.
    pub fn load_all(&mut self) {
        if self.fully_loaded() {
            return;
        }
        let Some(root) = self.rows.first().copied() else { return };
        let start = root.value_start as usize;
        let end = start + root.value_len as usize;
        let doc = self.text.get(..end).unwrap_or_default();
        let at = Place { first: 0, depth: 0, parent: None, key: (0, 0), index: 0 };
        (self.rows, self.error) = flatten(doc, start, at, usize::MAX);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn key(&self, r: &Row) -> &str {
        &self.text[r.key_start as usize..(r.key_start + r.key_len) as usize]
    }

    /// The value's whole text (a container's too).
    pub fn value(&self, r: &Row) -> &str {
        &self.text[r.value_start as usize..(r.value_start + r.value_len) as usize]
    }

    pub fn is_container(&self, i: usize) -> bool {
        self.rows.get(i).is_some_and(|r| matches!(r.kind, Kind::Object | Kind::Array))
    }

    /// The steps from the root to row `i`: an array index, or an object key (decoded) with its
    /// text as sent.
    fn steps(&self, i: usize) -> Vec<Result<u32, (String, &str)>> {
        let mut steps = vec![];
        let mut cur = i;
        while let Some(r) = self.rows.get(cur) {
            if r.parent as usize == cur {
                break;
            }
            let parent = &self.rows[r.parent as usize];
            if parent.kind == Kind::Array {
                steps.push(Ok(r.index));
            } else {
                let k = self.key(r);
                steps.push(Err((serde_json::from_str::<String>(k).unwrap_or_else(|_| k.to_string()), k)));
            }
            cur = r.parent as usize;
        }
        steps.reverse();
        steps
    }

    /// The keys and indices from the root to row `i` (a JSON pointer's segments).
    pub fn segments(&self, i: usize) -> Vec<String> {
        self.steps(i)
            .into_iter()
            .map(|s| match s {
                Ok(index) => index.to_string(),
                Err((name, _)) => name,
            })
            .collect()
    }

    /// `data[42].user.login`: the path from the root to row `i`.
    pub fn path(&self, i: usize) -> String {
        let parts: String = self
            .steps(i)
            .into_iter()
            .map(|s| match s {
                Ok(index) => format!("[{index}]"),
                Err((name, raw)) => {
                    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
                    if plain { format!(".{name}") } else { format!("[{raw}]") }
                }
            })
            .collect();
        format!("{}{parts}", self.root_name)
    }
}

/// Which containers are folded, and moving over the visible rows.
#[derive(Debug, Clone, Default)]
pub struct Folds {
    folded: Vec<bool>,
}

impl Folds {
    /// Small trees open fully; large ones open the root and its children only.
    pub fn initial(tree: &JsonTree) -> Folds {
        let big = tree.len() > 5_000;
        let folded = tree
            .rows
            .iter()
            .map(|r| !r.loaded || (big && r.depth >= 1 && matches!(r.kind, Kind::Object | Kind::Array)))
            .collect();
        Folds { folded }
    }

    /// After `tree.load(i)` inserted `k` rows after `i`: their folds (as `initial` would set
    /// them within the loaded subtree).
    pub fn loaded(&mut self, tree: &JsonTree, i: usize, k: usize) {
        let big = k > 5_000;
        let base = tree.rows.get(i).map_or(0, |r| r.depth);
        let new = tree
            .rows
            .get(i + 1..i + 1 + k)
            .unwrap_or_default()
            .iter()
            .map(|r| !r.loaded || (big && r.depth > base + 1 && matches!(r.kind, Kind::Object | Kind::Array)));
        let at = (i + 1).min(self.folded.len());
        self.folded.splice(at..at, new.collect::<Vec<_>>());
    }

    pub fn is_folded(&self, i: usize) -> bool {
        self.folded.get(i).copied().unwrap_or(false)
    }

    pub fn set(&mut self, i: usize, folded: bool) {
        if let Some(f) = self.folded.get_mut(i) {
            *f = folded;
        }
    }

    pub fn all(&mut self, tree: &JsonTree, folded: bool) {
        for (i, f) in self.folded.iter_mut().enumerate() {
            *f = folded && i > 0 && tree.is_container(i);
        }
    }

    pub fn next(&self, tree: &JsonTree, i: usize) -> Option<usize> {
        let r = tree.rows.get(i)?;
        let n = if self.is_folded(i) { r.end as usize + 1 } else { i + 1 };
        (n < tree.len()).then_some(n)
    }

    /// Row `i` if visible, else its outermost folded ancestor (the row that hides it).
    pub fn lift(&self, tree: &JsonTree, i: usize) -> usize {
        let mut cand = i;
        let mut cur = i;
        while let Some(r) = tree.rows.get(cur) {
            let p = r.parent as usize;
            if p == cur {
                break;
            }
            if self.is_folded(p) {
                cand = p;
            }
            cur = p;
        }
        cand
    }

    /// The visible row before `i`.
    pub fn prev(&self, tree: &JsonTree, i: usize) -> Option<usize> {
        (i > 0 && i < tree.len()).then(|| self.lift(tree, i - 1))
    }

    /// Unfolds every ancestor of `i`, so it becomes visible.
    pub fn reveal(&mut self, tree: &JsonTree, i: usize) {
        let mut cur = i;
        while let Some(r) = tree.rows.get(cur) {
            let p = r.parent as usize;
            if p == cur {
                break;
            }
            self.set(p, false);
            cur = p;
        }
    }

    /// The last visible row.
    pub fn last(&self, tree: &JsonTree) -> usize {
        self.lift(tree, tree.len().saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(s: &str) -> JsonTree {
        JsonTree::build(std::sync::Arc::<str>::from(s), "data")
    }

    /// Over the eager size and the row budget: 30k records of 8 nodes.
    fn big_doc() -> String {
        let records: Vec<String> = (0..30_000)
            .map(|i| format!(r#"{{"id": {i}, "name": "record {i}", "tags": ["a", {{"deep": [{i}, "needle{i}"]}}]}}"#))
            .collect();
        format!(r#"{{"records": [{}], "total": 30000, "tail": {{"x": [1, 2]}}}}"#, records.join(", "))
    }

    /// Every row of `part` is the row of `full` that starts at the same byte, with the same
    /// parent, and its subtree ends where its value does.
    fn consistent(part: &JsonTree, full: &JsonTree) {
        let at = |t: &JsonTree, start: u32| t.rows.partition_point(|r| r.value_start < start);
        for r in &part.rows {
            let f = full.rows[at(full, r.value_start)];
            assert_eq!(
                (r.depth, r.kind, part.key(r), part.value(r), r.index, r.children),
                (f.depth, f.kind, full.key(&f), full.value(&f), f.index, f.children)
            );
            let p = part.rows[r.parent as usize].value_start;
            assert_eq!(p, full.rows[f.parent as usize].value_start);
            // The subtree's last row is inside its value, and the row after it is past it.
            let (from, to) = (r.value_start, r.value_start + r.value_len);
            let last = part.rows[r.end as usize].value_start;
            assert!(last >= from && last < to);
            if let Some(next) = part.rows.get(r.end as usize + 1) {
                assert!(next.value_start >= to);
            }
        }
    }

    #[test]
    fn a_large_document_gets_rows_lazily_and_loading_them_matches_an_eager_build() {
        let text = big_doc();
        assert!(text.len() > EAGER_BYTES);
        let lazy = tree(&text);
        assert!(lazy.error.is_none());
        assert!(!lazy.fully_loaded());
        let mut full = lazy.clone();
        full.load_all();
        assert!(full.fully_loaded() && full.len() > lazy.len(), "{} {}", full.len(), lazy.len());
        consistent(&lazy, &full);
        // Containers loaded one at a time, from the back, the front and the middle.
        let mut part = lazy.clone();
        for pick in 0..60 {
            let unloaded: Vec<usize> = (0..part.len()).filter(|&i| !part.rows[i].loaded).collect();
            let Some(&i) = (match pick % 3 {
                0 => unloaded.last(),
                1 => unloaded.first(),
                _ => unloaded.get(unloaded.len() / 2),
            }) else {
                break;
            };
            let before = part.len();
            let k = part.load(i);
            assert_eq!(part.len(), before + k);
            assert!(part.rows[i].loaded);
        }
        consistent(&part, &full);
    }

    #[test]
    fn a_member_of_a_shared_text_flattens_like_a_copy_of_it() {
        let member = r#"{"records": [{"id": 1, "tags": ["a"]}, {"id": 2}], "total": 2}"#;
        let whole = format!(r#"{{"jsonrpc":"2.0","result":{{"structuredContent":{member},"x":[1]}}}}"#);
        let start = whole.find(member).unwrap_or_default();
        let shared = JsonTree::build_in(std::sync::Arc::<str>::from(whole.as_str()), start..start + member.len(), "sc");
        let copy = tree(member);
        assert_eq!((shared.len(), shared.error.is_none()), (copy.len(), true));
        for (a, b) in shared.rows.iter().zip(&copy.rows) {
            assert_eq!((shared.key(a), shared.value(a), a.depth, a.end), (copy.key(b), copy.value(b), b.depth, b.end));
        }
    }

    #[test]
    fn rows_with_ranges_and_paths() {
        let t = tree(r#"{"a": [1, {"b": "x\"y"}], "c d": null, "e": {}}"#);
        assert!(t.error.is_none(), "{:?}", t.error);
        assert_eq!(t.len(), 7);
        assert_eq!(t.key(&t.rows[1]), "\"a\"");
        assert_eq!(t.value(&t.rows[1]), r#"[1, {"b": "x\"y"}]"#);
        assert_eq!(t.value(&t.rows[4]), r#""x\"y""#);
        assert_eq!(t.path(4), "data.a[1].b");
        assert_eq!(t.path(5), r#"data["c d"]"#);
        assert_eq!((t.rows[1].end, t.rows[1].children), (4, 2));
        assert_eq!(t.value(&t.rows[6]), "{}");
    }

    #[test]
    fn rows_of_every_shape() {
        let t = tree(
            " {\"k\\\"é\": \"v\\u00e9\\n😀\", \"n\": [-1.5e+3, 0, 2E-2], \"e\": [{}, []], \"b\": [true, false, null]} ",
        );
        assert!(t.error.is_none(), "{:?}", t.error);
        let shown: Vec<(u16, Kind, &str, &str)> =
            t.rows.iter().map(|r| (r.depth, r.kind, t.key(r), t.value(r))).filter(|r| !r.3.starts_with('{')).collect();
        assert_eq!(
            shown,
            vec![
                (1, Kind::String, "\"k\\\"é\"", "\"v\\u00e9\\n😀\""),
                (1, Kind::Array, "\"n\"", "[-1.5e+3, 0, 2E-2]"),
                (2, Kind::Number, "", "-1.5e+3"),
                (2, Kind::Number, "", "0"),
                (2, Kind::Number, "", "2E-2"),
                (1, Kind::Array, "\"e\"", "[{}, []]"),
                (2, Kind::Array, "", "[]"),
                (1, Kind::Array, "\"b\"", "[true, false, null]"),
                (2, Kind::Bool, "", "true"),
                (2, Kind::Bool, "", "false"),
                (2, Kind::Null, "", "null"),
            ]
        );
        assert_eq!(t.path(1), "data[\"k\\\"é\"]");
        assert_eq!((t.rows[6].children, t.rows[7].children, t.rows[8].children, t.rows[9].children), (2, 0, 0, 3));
        // A scalar document, and whitespace (no document, no fault).
        let s = tree(" 1e5 ");
        assert_eq!((s.len(), s.value(&s.rows[0]), s.error.is_none()), (1, "1e5", true));
        assert!(tree(" \n").is_empty() && tree(" \n").error.is_none());
    }

    #[test]
    fn truncated_and_invalid_text_keeps_the_rows_before_the_fault() {
        let t = tree(r#"{"a": [1, 2], "b": [3, "#);
        assert_eq!(t.len(), 6);
        assert!(t.error.as_deref().is_some_and(|e| e.contains("byte 23")), "{:?}", t.error);
        for bad in ["[tru]", "[1.]", "[01]", "{\"a\":1,}", "[\"\\x\"]", "{1: 2}", "[1 2]", "[\"a\u{1}\"]"] {
            assert!(tree(bad).error.is_some(), "{bad}");
        }
    }

    #[test]
    fn folding_moves_over_visible_rows() {
        let t = tree(r#"[{"x": 1, "y": 2}, {"x": 3}, 4]"#);
        let mut f = Folds { folded: vec![false; t.len()] };
        f.set(1, true);
        assert_eq!(f.next(&t, 1), Some(4));
        assert_eq!(f.prev(&t, 4), Some(1));
        assert_eq!(f.last(&t), 6);
        f.all(&t, true);
        assert_eq!(f.next(&t, 0), Some(1));
        f.reveal(&t, 5);
        assert!(!f.is_folded(4));
    }

    #[test]
    fn deep_and_broken_text_is_safe() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let t = tree(&deep);
        assert_eq!(t.len(), 100_000);
        assert!(t.error.is_none());
        assert_eq!(t.path(3), "data[0][0][0]");
        for bad in ["{", "[1,", "{\"a\" 1}", "}", "\"abc", "{\"a\":}"] {
            let t = tree(bad);
            assert!(t.error.is_some(), "{bad}");
        }
    }
}
