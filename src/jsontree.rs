//! A JSON document flattened once into rows (the jless approach): each row has its depth, its
//! parent, the last row of its subtree, and byte ranges of its key and value in the document's own
//! text. Folding skips a subtree in O(1); the screen touches only the rows it shows; nothing is
//! parsed or formatted again after the build. The tokenizer is iterative: any depth is safe.

use std::sync::Arc;

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
    pub text: Arc<str>,
    pub rows: Vec<Row>,
    /// The root's display name in paths ("data", "structuredContent", ...).
    pub root_name: String,
    /// Why the text stopped being JSON, if it did (rows up to there are kept).
    pub error: Option<String>,
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// The end of the string literal starting at `i` (which is a `"`), just past the closing quote.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

fn scalar_end(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t' | b':') {
        j += 1;
    }
    j
}

impl JsonTree {
    /// Flattens `text`. Text over 4 GiB is refused (offsets are 32-bit to keep rows small).
    pub fn build(text: Arc<str>, root_name: &str) -> JsonTree {
        let len = text.len();
        JsonTree::build_in(text, 0..len, root_name)
    }

    /// Flattens the document at `range` of `text` (a member of a reply), sharing the text
    /// rather than copying the member out of it.
    pub fn build_in(text: Arc<str>, range: std::ops::Range<usize>, root_name: &str) -> JsonTree {
        let mut tree = JsonTree { text: text.clone(), rows: Vec::new(), root_name: root_name.to_string(), error: None };
        if text.len() > u32::MAX as usize {
            tree.error = Some("the document is larger than 4 GiB".into());
            return tree;
        }
        let b = text.as_bytes().get(..range.end).unwrap_or_default();
        // Open containers: their row index.
        let mut stack: Vec<u32> = Vec::new();
        let mut i = skip_ws(b, range.start);
        let mut pending_key: Option<(u32, u32)> = None;
        loop {
            if i >= b.len() {
                if !stack.is_empty() {
                    tree.error = Some("the document ends inside an object or array".into());
                }
                break;
            }
            let parent = stack.last().copied();
            // Inside an object, a value is preceded by its key.
            if let Some(p) = parent
                && tree.rows[p as usize].kind == Kind::Object
                && pending_key.is_none()
                && b[i] != b'}'
            {
                if b[i] != b'"' {
                    tree.error = Some(format!("expected a key at byte {i}"));
                    break;
                }
                let Some(end) = string_end(b, i) else {
                    tree.error = Some("unterminated key".into());
                    break;
                };
                pending_key = Some((i as u32, (end - i) as u32));
                i = skip_ws(b, end);
                if i >= b.len() || b[i] != b':' {
                    tree.error = Some(format!("expected ':' at byte {i}"));
                    break;
                }
                i = skip_ws(b, i + 1);
                continue;
            }
            match b[i] {
                b'}' | b']' if pending_key.is_some() => {
                    tree.error = Some(format!("a key without a value at byte {i}"));
                    break;
                }
                b'}' | b']' => {
                    let Some(open) = stack.pop() else {
                        tree.error = Some(format!("unexpected '{}' at byte {i}", b[i] as char));
                        break;
                    };
                    let last = tree.rows.len() as u32 - 1;
                    let row = &mut tree.rows[open as usize];
                    row.end = last;
                    row.value_len = (i + 1) as u32 - row.value_start;
                    i = skip_ws(b, i + 1);
                    if i < b.len() && b[i] == b',' {
                        i = skip_ws(b, i + 1);
                    }
                    if stack.is_empty() {
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            let (key_start, key_len) = pending_key.take().unwrap_or((0, 0));
            let index = match parent {
                Some(p) if tree.rows[p as usize].kind == Kind::Array => tree.rows[p as usize].children,
                _ => 0,
            };
            if let Some(p) = parent {
                tree.rows[p as usize].children += 1;
            }
            let me = tree.rows.len() as u32;
            let depth = stack.len().min(u16::MAX as usize) as u16;
            let (kind, end) = match b[i] {
                b'{' => (Kind::Object, i + 1),
                b'[' => (Kind::Array, i + 1),
                b'"' => match string_end(b, i) {
                    Some(e) => (Kind::String, e),
                    None => {
                        tree.error = Some("unterminated string".into());
                        break;
                    }
                },
                b't' | b'f' => (Kind::Bool, scalar_end(b, i)),
                b'n' => (Kind::Null, scalar_end(b, i)),
                _ => (Kind::Number, scalar_end(b, i)),
            };
            if end == i {
                tree.error = Some(format!("unexpected '{}' at byte {i}", b[i] as char));
                break;
            }
            tree.rows.push(Row {
                depth,
                kind,
                parent: parent.unwrap_or(me),
                end: me,
                key_start,
                key_len,
                index,
                value_start: i as u32,
                value_len: (end - i) as u32,
                children: 0,
            });
            if matches!(kind, Kind::Object | Kind::Array) {
                stack.push(me);
                i = skip_ws(b, end);
                continue;
            }
            i = skip_ws(b, end);
            if i < b.len() && b[i] == b',' {
                i = skip_ws(b, i + 1);
            }
            if stack.is_empty() {
                break;
            }
        }
        tree
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

    /// `data[42].user.login`: the path from the root to row `i`.
    pub fn path(&self, i: usize) -> String {
        let mut parts = vec![];
        let mut cur = i;
        while let Some(r) = self.rows.get(cur) {
            if r.parent as usize == cur {
                break;
            }
            let parent = &self.rows[r.parent as usize];
            if parent.kind == Kind::Array {
                parts.push(format!("[{}]", r.index));
            } else {
                let k = self.key(r);
                let name = serde_json::from_str::<String>(k).unwrap_or_else(|_| k.to_string());
                let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
                parts.push(if plain { format!(".{name}") } else { format!("[{k}]") });
            }
            cur = r.parent as usize;
        }
        parts.reverse();
        format!("{}{}", self.root_name, parts.concat())
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
        let folded =
            tree.rows.iter().map(|r| big && r.depth >= 1 && matches!(r.kind, Kind::Object | Kind::Array)).collect();
        Folds { folded }
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
        JsonTree::build(Arc::from(s), "data")
    }

    #[test]
    fn a_member_of_a_shared_text_flattens_like_a_copy_of_it() {
        let member = r#"{"records": [{"id": 1, "tags": ["a"]}, {"id": 2}], "total": 2}"#;
        let whole = format!(r#"{{"jsonrpc":"2.0","result":{{"structuredContent":{member},"x":[1]}}}}"#);
        let start = whole.find(member).unwrap_or_default();
        let shared = JsonTree::build_in(Arc::from(whole.as_str()), start..start + member.len(), "sc");
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
