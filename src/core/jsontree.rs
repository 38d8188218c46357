//! A JSON document flattened once into rows (the jless approach): each row has its depth, its
//! parent, the last row of its subtree, and byte ranges of its key and value in the document's own
//! text. Folding skips a subtree in O(1); the screen touches only the rows it shows; nothing is
//! parsed or formatted again after the build. The tokenizer is iterative: any depth is safe.

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

/// Documents up to this size get every row at once; a larger one gets rows down to the depth at
/// which it would pass [`ROW_BUDGET`], and the containers there get theirs when unfolded.
const EAGER_BYTES: usize = 1 << 20;

/// Rows built at once for a large document (a row is 36 bytes).
const ROW_BUDGET: usize = 200_000;

/// How deep to build rows for `b[range]`: the deepest level at which the rows so far stay within
/// [`ROW_BUDGET`] (at least the root's children), or no limit for a small document.
fn depth_limit(b: &[u8], range: std::ops::Range<usize>) -> usize {
    if range.len() <= EAGER_BYTES {
        return usize::MAX;
    }
    // Values that begin at each depth: after `[` or `,` in an array, after `:` in an object.
    let mut counts: Vec<usize> = vec![1];
    let mut stack: Vec<bool> = vec![]; // true: array
    let mut expect_value = false;
    let mut i = range.start;
    let end = range.end.min(b.len());
    while i < end {
        let c = b[i];
        if expect_value && !matches!(c, b' ' | b'\n' | b'\r' | b'\t' | b']') {
            let d = stack.len();
            if counts.len() <= d {
                counts.resize(d + 1, 0);
            }
            counts[d] += 1;
        }
        if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            expect_value = false;
        }
        match c {
            b'"' => i = string_end(b, i).unwrap_or(end).saturating_sub(1),
            b'[' => {
                stack.push(true);
                expect_value = true;
            }
            b'{' => stack.push(false),
            b']' | b'}' => {
                stack.pop();
            }
            b',' => expect_value = stack.last() == Some(&true),
            b':' => expect_value = true,
            _ => {}
        }
        i += 1;
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

/// Past the container opening at `i`: the index after its close, and its number of children.
fn skip_container(b: &[u8], i: usize) -> Option<(usize, u32)> {
    let (mut depth, mut commas, mut empty, mut j) = (0usize, 0u32, true, i);
    while j < b.len() {
        match b[j] {
            b'"' => {
                empty = false;
                j = string_end(b, j)?;
                continue;
            }
            b'{' | b'[' => {
                if depth > 0 {
                    empty = false;
                }
                depth += 1;
            }
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some((j + 1, if empty { 0 } else { commas + 1 }));
                }
            }
            b',' if depth == 1 => commas += 1,
            b' ' | b'\n' | b'\r' | b'\t' => {}
            _ => empty = false,
        }
        j += 1;
    }
    None
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

/// Flattens the document starting at `start` (within `b`), down to `limit` levels below it.
/// Rows are numbered from `at.first`. Returns the rows and why the text stopped being JSON.
fn flatten(b: &[u8], start: usize, at: Place, limit: usize) -> (Vec<Row>, Option<String>) {
    let mut rows: Vec<Row> = Vec::new();
    let mut error = None;
    let local = |p: u32| (p - at.first) as usize;
    // Open containers: their row index.
    let mut stack: Vec<u32> = Vec::new();
    let mut i = skip_ws(b, start);
    let mut pending_key: Option<(u32, u32)> = None;
    loop {
        if i >= b.len() {
            if !stack.is_empty() {
                error = Some("the document ends inside an object or array".into());
            }
            break;
        }
        let parent = stack.last().copied();
        // Inside an object, a value is preceded by its key.
        if let Some(p) = parent
            && rows[local(p)].kind == Kind::Object
            && pending_key.is_none()
            && b[i] != b'}'
        {
            if b[i] != b'"' {
                error = Some(format!("expected a key at byte {i}"));
                break;
            }
            let Some(end) = string_end(b, i) else {
                error = Some("unterminated key".into());
                break;
            };
            pending_key = Some((i as u32, (end - i) as u32));
            i = skip_ws(b, end);
            if i >= b.len() || b[i] != b':' {
                error = Some(format!("expected ':' at byte {i}"));
                break;
            }
            i = skip_ws(b, i + 1);
            continue;
        }
        match b[i] {
            b'}' | b']' if pending_key.is_some() => {
                error = Some(format!("a key without a value at byte {i}"));
                break;
            }
            b'}' | b']' => {
                let Some(open) = stack.pop() else {
                    error = Some(format!("unexpected '{}' at byte {i}", b[i] as char));
                    break;
                };
                let last = at.first + rows.len() as u32 - 1;
                let row = &mut rows[local(open)];
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
        let me = at.first + rows.len() as u32;
        let (key_start, key_len) = match parent {
            None => at.key,
            Some(_) => pending_key.take().unwrap_or((0, 0)),
        };
        let index = match parent {
            Some(p) if rows[local(p)].kind == Kind::Array => rows[local(p)].children,
            Some(_) => 0,
            None => at.index,
        };
        if let Some(p) = parent {
            rows[local(p)].children += 1;
        }
        let depth = (at.depth as usize + stack.len()).min(u16::MAX as usize) as u16;
        let (kind, end) = match b[i] {
            b'{' => (Kind::Object, i + 1),
            b'[' => (Kind::Array, i + 1),
            b'"' => match string_end(b, i) {
                Some(e) => (Kind::String, e),
                None => {
                    error = Some("unterminated string".into());
                    break;
                }
            },
            b't' | b'f' => (Kind::Bool, scalar_end(b, i)),
            b'n' => (Kind::Null, scalar_end(b, i)),
            _ => (Kind::Number, scalar_end(b, i)),
        };
        if end == i {
            error = Some(format!("unexpected '{}' at byte {i}", b[i] as char));
            break;
        }
        let container = matches!(kind, Kind::Object | Kind::Array);
        let mut row = Row {
            depth,
            kind,
            loaded: true,
            parent: parent.or(at.parent).unwrap_or(me),
            end: me,
            key_start,
            key_len,
            index,
            value_start: i as u32,
            value_len: (end - i) as u32,
            children: 0,
        };
        let mut next = end;
        if container && stack.len() >= limit {
            // Deep enough: the children get rows when this container is unfolded.
            let Some((after, children)) = skip_container(b, i) else {
                error = Some("the document ends inside an object or array".into());
                break;
            };
            row.loaded = false;
            row.children = children;
            row.value_len = (after - i) as u32;
            next = after;
        } else if container {
            rows.push(row);
            stack.push(me);
            i = skip_ws(b, end);
            continue;
        }
        rows.push(row);
        i = skip_ws(b, next);
        if i < b.len() && b[i] == b',' {
            i = skip_ws(b, i + 1);
        }
        if stack.is_empty() {
            break;
        }
    }
    (rows, error)
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
        let b = text.as_bytes().get(..range.end).unwrap_or_default();
        let limit = depth_limit(b, range.start..range.end);
        let root = Place { first: 0, depth: 0, parent: None, key: (0, 0), index: 0 };
        (tree.rows, tree.error) = flatten(b, range.start, root, limit);
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
        let b = self.text.as_bytes().get(..end).unwrap_or_default();
        let parent = (r.parent as usize != i).then_some(r.parent);
        let at = Place { first: i as u32, depth: r.depth, parent, key: (r.key_start, r.key_len), index: r.index };
        let (sub, _) = flatten(b, start, at, depth_limit(b, start..end));
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
        let b = self.text.as_bytes().get(..end).unwrap_or_default();
        let at = Place { first: 0, depth: 0, parent: None, key: (0, 0), index: 0 };
        (self.rows, self.error) = flatten(b, start, at, usize::MAX);
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
