//! Two snapshots compared from their text (`mcplens diff`), never as two whole `Value` trees.
//!
//! A `serde_json::Value` costs 10 to 30 times the bytes it was read from, and a diff holds two
//! documents: 50,000 tools (8 MB a side) took 300 MB. Here each list stays text (`&RawValue`
//! slices of the file) and is keyed by name; an item written alike on both sides is equal without
//! being read, and a changed pair is read and compared one at a time, then dropped. Inside a
//! changed tool's schema, the property schemas written alike on both sides are left out of both
//! (a tool of 200,000 properties with one changed), when no `$ref` can look into them.
//! Whatever this reading does not take (a document serde_json refuses but mcplens reads
//! approximated) is compared the old way, whole (see [`crate::snapshot::compare`]).

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::raw_object::{Members, members};
use crate::schema::diff::{Change, ENUM_NOT_LISTED, Impact, token};
use crate::snapshot::{Paired, item as item_changes, pair, server as server_changes};

/// The lists of a snapshot and the key that names an item in each.
const LISTS: [(&str, &str); 4] =
    [("tools", "name"), ("resources", "uri"), ("resourceTemplates", "uriTemplate"), ("prompts", "name")];

/// Keywords under which a node is compared whole: its options are merged with its other
/// keywords, which must then be real values.
const OPTIONS: [&str; 3] = ["anyOf", "oneOf", "allOf"];

/// A snapshot's parts as slices of its text: the server's result read, each list's items not.
pub struct Snapshot<'a> {
    server: Value,
    /// What the snapshot was taken of (the command line or the URL), when it says.
    target: Option<Value>,
    lists: Vec<Vec<&'a RawValue>>,
    max_depth: usize,
}

#[derive(Deserialize)]
struct File<'a> {
    #[serde(rename = "mcplensSnapshot")]
    format: Option<Value>,
    #[serde(borrow)]
    server: Option<&'a RawValue>,
    #[serde(default)]
    target: Option<Value>,
    #[serde(borrow)]
    tools: Option<&'a RawValue>,
    #[serde(borrow)]
    resources: Option<&'a RawValue>,
    #[serde(borrow, rename = "resourceTemplates")]
    templates: Option<&'a RawValue>,
    #[serde(borrow)]
    prompts: Option<&'a RawValue>,
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        crate::deep::drop_value(std::mem::take(&mut self.server));
    }
}

impl<'a> Snapshot<'a> {
    /// Reads `text` as a snapshot; `None` when serde_json cannot take it as it is (the caller then
    /// reads it whole, approximated), an error when it is not a snapshot.
    pub fn read(text: &'a str, max_depth: usize) -> Option<Result<Snapshot<'a>, String>> {
        let depth = crate::json_depth::depth(text);
        if depth > max_depth {
            let e = format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)");
            return Some(Err(e));
        }
        let file: File = crate::json_depth::parse_borrowed(text).ok()?;
        let format = file.format.map_or_else(|| json!({}), |f| json!({ "mcplensSnapshot": f }));
        if let Err(e) = crate::snapshot::check(&format) {
            return Some(Err(e));
        }
        let server = match file.server {
            Some(raw) => crate::json_depth::parse(raw.get(), max_depth).ok()?,
            None => Value::Null,
        };
        let list = |raw: Option<&'a RawValue>| {
            raw.and_then(|r| crate::json_depth::parse_borrowed::<Vec<&'a RawValue>>(r.get()).ok()).unwrap_or_default()
        };
        let lists = vec![list(file.tools), list(file.resources), list(file.templates), list(file.prompts)];
        Some(Ok(Snapshot { server, target: file.target, lists, max_depth }))
    }

    /// The server's result (its initialize or discover result).
    pub fn server(&self) -> &Value {
        &self.server
    }

    /// What the snapshot was taken of, when it records it.
    pub fn target(&self) -> Option<&Value> {
        self.target.as_ref()
    }

    /// The tools, each as its text.
    pub fn tools(&self) -> &[&'a RawValue] {
        &self.lists[0]
    }
}

/// Every change from `old` to `new`, breaking ones first, each group in path order (as
/// [`crate::snapshot::compare`]).
pub fn compare(old: &Snapshot, new: &Snapshot) -> Vec<Change> {
    let max_depth = old.max_depth.max(new.max_depth);
    let mut out = server_changes(Some(&old.server), Some(&new.server));
    for (i, (list, key)) in LISTS.iter().enumerate() {
        out.extend(list_changes(list, key, &old.lists[i], &new.lists[i], max_depth));
    }
    out.sort_by(|a, b| a.impact.cmp(&b.impact).then_with(|| a.path.cmp(&b.path)));
    out
}

/// The changes from one list of tools to another, each tool given as its text, read the way
/// [`compare`] reads a snapshot's (a pair written alike is not read; a changed pair is read alone
/// and thinned). For the TUI, which compares a server's tools with its snapshot.
pub fn tools_changes(old: &[&RawValue], new: &[&RawValue], max_depth: usize) -> Vec<Change> {
    list_changes("tools", "name", old, new, max_depth)
}

/// The items of one list by their key (an item without one is keyed by its position).
fn keyed<'a>(items: &[&'a RawValue], key: &str, max_depth: usize) -> Vec<(String, &'a RawValue)> {
    items
        .iter()
        .enumerate()
        .map(|(i, raw)| (key_of(raw, key, max_depth).unwrap_or_else(|| format!("#{i}")), *raw))
        .collect()
}

/// The item's `key` member when it is a string: read without reading the rest of the item.
fn key_of(raw: &RawValue, key: &str, max_depth: usize) -> Option<String> {
    #[derive(Deserialize)]
    struct Keys<'a> {
        #[serde(borrow)]
        name: Option<&'a RawValue>,
        #[serde(borrow)]
        uri: Option<&'a RawValue>,
        #[serde(borrow, rename = "uriTemplate")]
        template: Option<&'a RawValue>,
    }
    let Ok(keys) = crate::json_depth::parse_borrowed::<Keys>(raw.get()) else {
        // Not an object, or one with a key twice (the last counts, as for a Value): read whole.
        let v: Value = crate::json_depth::parse(raw.get(), max_depth).ok()?;
        let found = v.get(key).and_then(Value::as_str).map(str::to_string);
        crate::deep::drop_value(v);
        return found;
    };
    let member = match key {
        "uri" => keys.uri,
        "uriTemplate" => keys.template,
        _ => keys.name,
    };
    serde_json::from_str::<String>(member?.get()).ok()
}

/// Items sharing a name are paired alike first, then in order (see [`crate::snapshot::pair`]).
fn list_changes(list: &str, key: &str, old: &[&RawValue], new: &[&RawValue], max_depth: usize) -> Vec<Change> {
    let (before, after) = (keyed(old, key, max_depth), keyed(new, key, max_depth));
    let mut out = vec![];
    let noun = crate::snapshot::noun(list);
    for paired in pair(&before, &after, |raw| print(raw, max_depth)) {
        let (name, impact, what) = match paired {
            Paired::Removed(name, _) => (name, Impact::Breaking, "removed"),
            Paired::Both(name, v, w) => {
                if w.get() != v.get() {
                    out.extend(changed(list, &format!("/{list}/{}", token(name)), v, w, max_depth));
                }
                continue;
            }
            Paired::Added(name, _) => (name, Impact::Compatible, "added"),
        };
        out.push(Change { path: format!("/{list}/{}", token(name)), impact, what: format!("{noun} {what}") });
    }
    out
}

/// The changes inside an item whose text differs on the two sides.
fn changed(list: &str, path: &str, old: &RawValue, new: &RawValue, max_depth: usize) -> Vec<Change> {
    let (a, b) =
        if list == "tools" { tool_pair(old, new, max_depth) } else { (full(old, max_depth), full(new, max_depth)) };
    let out = if a != b { crate::deep::grow(|| item_changes(list, path, &a, &b)) } else { vec![] };
    crate::deep::drop_value(a);
    crate::deep::drop_value(b);
    out
}

/// The hash of the value `raw` writes, as the whole comparison hashes it (asked only of items
/// whose name repeats).
fn print(raw: &RawValue, max_depth: usize) -> u64 {
    let v = full(raw, max_depth);
    let h = crate::value_set::hash(&v);
    crate::deep::drop_value(v);
    h
}

/// `raw` read whole; text that cannot be read stands as what was wrong, so it shows as changed.
fn full(raw: &RawValue, max_depth: usize) -> Value {
    crate::json_depth::parse(raw.get(), max_depth).unwrap_or_else(|e| json!({ "unreadable": e }))
}

/// Two versions of a tool, their schemas read by [`schema_pair`], the rest whole.
fn tool_pair(old: &RawValue, new: &RawValue, max_depth: usize) -> (Value, Value) {
    let (Some(o), Some(n)) = (members(old), members(new)) else {
        return (full(old, max_depth), full(new, max_depth));
    };
    pairs(&o, &n, max_depth, |key, a, b| match key {
        "inputSchema" | "outputSchema" => Some(schema_pair(a, b, max_depth)),
        _ => Some((full(a, max_depth), full(b, max_depth))),
    })
}

/// Two objects built member by member: a member on both sides is read by `pair` (left out of
/// both when it says `None`), one on a side only whole.
fn pairs<'a>(
    o: &Members<'a>,
    n: &Members<'a>,
    max_depth: usize,
    pair: impl Fn(&str, &'a RawValue, &'a RawValue) -> Option<(Value, Value)>,
) -> (Value, Value) {
    let (mut a, mut b) = (Map::new(), Map::new());
    for (k, raw) in &o.0 {
        match n.get(k) {
            Some(other) => {
                if let Some((x, y)) = pair(k, raw, other) {
                    a.insert(k.clone(), x);
                    b.insert(k.clone(), y);
                }
            }
            None => {
                a.insert(k.clone(), full(raw, max_depth));
            }
        }
    }
    for (k, raw) in n.0.iter().filter(|(k, _)| !o.contains_key(k)) {
        b.insert(k.clone(), full(raw, max_depth));
    }
    (Value::Object(a), Value::Object(b))
}

/// Two versions of a schema, for [`crate::schema::diff`]. A property schema written alike on both
/// sides holds no change, so it is left out of both (the comparison of `required` and of new
/// properties only asks whether a name is on one side and not the other). That is sound only when
/// nothing can point into it, so it is done only where neither side has a `$ref` (nor a `\u`
/// escape that could spell one), and not below a node with options (their keywords are merged
/// with the node's).
pub fn schema_pair(old: &RawValue, new: &RawValue, max_depth: usize) -> (Value, Value) {
    let may_refer = |r: &RawValue| r.get().contains("$ref") || r.get().contains("\\u");
    if may_refer(old) || may_refer(new) {
        return (full(old, max_depth), full(new, max_depth));
    }
    thin(old, new, max_depth, 0)
}

/// `level`: the schema's nesting below the tool's. Past the levels the comparison classifies, the
/// rest is read whole: thinning reads each level's members, walking all below it, so a schema
/// nested thousands of levels deep cost the square of its depth.
fn thin(old: &RawValue, new: &RawValue, max_depth: usize, level: usize) -> (Value, Value) {
    if level > crate::schema::diff::MAX_DEPTH {
        return (full(old, max_depth), full(new, max_depth));
    }
    let (Some(o), Some(n)) = (members(old), members(new)) else {
        return (full(old, max_depth), full(new, max_depth));
    };
    if OPTIONS.iter().any(|k| o.contains_key(k) || n.contains_key(k)) {
        return (full(old, max_depth), full(new, max_depth));
    }
    let not_listed = std::cell::Cell::new((0, 0));
    // A `const` beside an enum picks among its values: a value on both lists still counts.
    let with_const = o.contains_key("const") || n.contains_key("const");
    let (mut a, mut b) = pairs(&o, &n, max_depth, |key, a, b| match key {
        "properties" => Some(properties(a, b, max_depth, level)),
        "items" | "additionalProperties" => Some(crate::deep::grow(|| thin(a, b, max_depth, level + 1))),
        "enum" if !with_const => {
            let ((x, more_x), (y, more_y)) = enum_pair(a, b, max_depth);
            not_listed.set((more_x, more_y));
            Some((x, y))
        }
        _ => Some((full(a, max_depth), full(b, max_depth))),
    });
    for (side, more) in [(&mut a, not_listed.get().0), (&mut b, not_listed.get().1)] {
        if let (Value::Object(m), true) = (side, more > 0) {
            m.insert(ENUM_NOT_LISTED.into(), more.into());
        }
    }
    (a, b)
}

/// Two enums cut to what the comparison reports: a value in both lists (as a value: neither key
/// order nor escapes count) is neither removed nor added, so it is left out of both (one
/// kept, so that neither list becomes empty); of the rest, the first
/// [`MAX_LISTED`](crate::schema::diff::MAX_LISTED) a side are kept and the others counted under
/// [`ENUM_NOT_LISTED`]. Values are read one at a time and held as hashes: two enums of 200,000
/// values, all changed, no longer stand as 400,000 values at once.
fn enum_pair(old: &RawValue, new: &RawValue, max_depth: usize) -> ((Value, u64), (Value, u64)) {
    fn list(r: &RawValue) -> Option<Vec<&RawValue>> {
        crate::json_depth::parse_borrowed(r.get()).ok()
    }
    let (Some(o), Some(n)) = (list(old), list(new)) else {
        return ((full(old, max_depth), 0), (full(new, max_depth), 0));
    };
    let (in_old, in_new) = (Hashed::new(&o, max_depth), Hashed::new(&n, max_depth));
    let anchor = o.iter().find(|r| in_new.contains(r)).map(|r| full(r, max_depth));
    let kept = |l: &[&RawValue], other: &Hashed| -> (Value, u64) {
        let mut values: Vec<Value> = anchor.iter().cloned().collect();
        let mut not_listed = 0u64;
        for r in l.iter().filter(|r| !other.contains(r)) {
            if values.len() < crate::schema::diff::MAX_LISTED + usize::from(anchor.is_some()) {
                values.push(full(r, max_depth));
            } else {
                not_listed += 1;
            }
        }
        (Value::Array(values), not_listed)
    };
    (kept(&o, &in_new), kept(&n, &in_old))
}

/// The text inside a JSON string written without escapes: the string itself, so two such are
/// equal as values exactly when their texts are.
fn plain_string(r: &RawValue) -> Option<&str> {
    let t = r.get();
    let inner = t.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

/// A list of values as their texts and their hashes ([`crate::value_set::hash`]), sorted: 16
/// bytes a value beside its text, where a `Value` costs 50 and more. Plain strings (most enums)
/// are hashed and compared from their text, the others read one at a time.
struct Hashed<'a> {
    items: &'a [&'a RawValue],
    by_hash: Vec<(u64, usize)>,
    max_depth: usize,
}

impl<'a> Hashed<'a> {
    fn new(items: &'a [&'a RawValue], max_depth: usize) -> Self {
        let mut by_hash: Vec<(u64, usize)> =
            items.iter().enumerate().map(|(i, r)| (hash_of(r, max_depth), i)).collect();
        by_hash.sort_unstable();
        Hashed { items, by_hash, max_depth }
    }

    /// Whether a value equal to `r`'s is in the list (equal hashes compared as values).
    fn contains(&self, r: &RawValue) -> bool {
        let h = hash_of(r, self.max_depth);
        let start = self.by_hash.partition_point(|(x, _)| *x < h);
        self.by_hash[start..].iter().take_while(|(x, _)| *x == h).any(|(_, i)| self.equal(r, self.items[*i]))
    }

    fn equal(&self, a: &RawValue, b: &RawValue) -> bool {
        if let (Some(x), Some(y)) = (plain_string(a), plain_string(b)) {
            return x == y;
        }
        let (v, w) = (full(a, self.max_depth), full(b, self.max_depth));
        let equal = v == w;
        crate::deep::drop_value(v);
        crate::deep::drop_value(w);
        equal
    }
}

/// [`crate::value_set::hash`] of the value `r` writes.
fn hash_of(r: &RawValue, max_depth: usize) -> u64 {
    if let Some(s) = plain_string(r) {
        return crate::value_set::hash_str(s);
    }
    let v = full(r, max_depth);
    let h = crate::value_set::hash(&v);
    crate::deep::drop_value(v);
    h
}

/// A `properties` map on both sides: members alike are left out of both, changed ones thinned in
/// turn.
fn properties(old: &RawValue, new: &RawValue, max_depth: usize, level: usize) -> (Value, Value) {
    let (Some(o), Some(n)) = (members(old), members(new)) else {
        return (full(old, max_depth), full(new, max_depth));
    };
    let thinned = |a: &RawValue, b: &RawValue| crate::deep::grow(|| thin(a, b, max_depth, level + 1));
    pairs(&o, &n, max_depth, |_, a, b| (a.get() != b.get()).then(|| thinned(a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(old: &Value, new: &Value) -> (Vec<Change>, Vec<Change>) {
        let (a, b) = (old.to_string(), new.to_string());
        let (Some(Ok(x)), Some(Ok(y))) = (Snapshot::read(&a, 1000), Snapshot::read(&b, 1000)) else {
            panic!("not read");
        };
        (compare(&x, &y), crate::snapshot::compare(old, new))
    }

    fn snap(tools: Value) -> Value {
        json!({"mcplensSnapshot": 1, "server": {"serverInfo": {"name": "s"}}, "tools": tools,
               "resources": [{"uri": "a://x"}], "resourceTemplates": [], "prompts": []})
    }

    /// The same changes as the whole comparison, on schemas that exercise each rule.
    #[test]
    fn read_from_text_it_finds_what_the_whole_comparison_finds() {
        let props = |extra: Value| {
            let mut p =
                json!({"a": {"type": "string"}, "b": {"type": "object", "properties": {"c": {"maxLength": 3}}}});
            if let (Some(m), Value::Object(e)) = (p.as_object_mut(), extra) {
                m.extend(e);
            }
            p
        };
        let tool = |p: Value, req: Value| json!({"name": "t", "inputSchema": {"type": "object", "properties": p, "required": req}});
        let cases = [
            (tool(props(json!({})), json!([])), tool(props(json!({"n": {"type": "string"}})), json!(["n"]))),
            (
                tool(props(json!({})), json!(["a"])),
                tool(props(json!({"b": {"type": "object", "properties": {"c": {"maxLength": 2}}}})), json!([])),
            ),
            (
                tool(props(json!({})), json!([])),
                json!({"name": "t", "inputSchema": {"anyOf": [{"type": "object", "properties": props(json!({}))}, {"type": "null"}]}}),
            ),
            (
                json!({"name": "t", "inputSchema": {"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}}),
                json!({"name": "t", "inputSchema": {"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "integer"}}}}),
            ),
            (
                tool(props(json!({})), json!([])),
                json!({"name": "t", "description": "d", "inputSchema": {"properties": props(json!({})), "type": "object", "required": []}}),
            ),
        ];
        for (old, new) in cases {
            let (text, whole) = both(&snap(json!([old, {"name": "u"}])), &snap(json!([{"name": "v"}, new])));
            assert_eq!(text, whole, "{old} -> {new}");
            assert!(!text.is_empty());
        }
    }

    #[test]
    fn tools_sharing_a_name_are_paired_in_order() {
        let plain = json!({"name": "a", "inputSchema": {"type": "object"}});
        let strict = json!({"name": "a", "inputSchema": {"type": "object", "required": ["x"]}});
        let (two, one) = (snap(json!([plain, strict])), snap(json!([plain])));
        assert_eq!(both(&two, &two).0, vec![]);
        let (text, whole) = both(&two, &one);
        assert_eq!(text, whole);
        assert_eq!(
            text.iter().map(|c| (c.path.as_str(), c.what.as_str())).collect::<Vec<_>>(),
            [("/tools/a", "tool removed")]
        );
    }

    #[test]
    fn enums_are_compared_without_the_values_they_share() {
        let with = |e: Value| {
            snap(json!([{"name": "t", "inputSchema": {"properties": {"p": {"enum": e, "type": "string"}}}}]))
        };
        let pairs = [
            (json!(["a", "b", "c"]), json!(["c", "b", "a"])),
            (json!(["a", "b", "c"]), json!(["c", "a", "d"])),
            (json!([1, {"x": 1, "y": 2}]), json!([1.0, {"y": 2, "x": 1}, 1])),
            (json!(["a"]), json!(["b"])),
            (json!(["a", "b"]), json!(["a"])),
            (json!([]), json!(["a"])),
        ];
        for (old, new) in pairs {
            let (text, whole) = both(&with(old.clone()), &with(new.clone()));
            assert_eq!(text, whole, "{old} -> {new}");
        }
        // More changed than a change lists: the text counts as the whole comparison does (1.0 is
        // not 1 to serde_json; key order does not count).
        let old: Vec<Value> =
            (0..300).map(|i| json!(format!("v{i}"))).chain([json!(1), json!({"a": 1, "b": 2})]).collect();
        let new: Vec<Value> =
            (200..500).map(|i| json!(format!("v{i}"))).chain([json!(1.0), json!({"b": 2, "a": 1})]).collect();
        let (text, whole) = both(&with(json!(old)), &with(json!(new)));
        assert_eq!(text, whole);
        assert!(text[0].what.ends_with("\"v49\" and 151 more"), "{:?}", text[0]);
        assert!(text[1].what.ends_with("\"v349\" and 151 more"), "{:?}", text[1]);
        let many: Vec<Value> = (0..50_000).map(|i| json!(format!("v{i}"))).collect();
        let reversed: Vec<Value> = many.iter().rev().cloned().collect();
        assert!(both(&with(json!(many)), &with(json!(reversed))).0.is_empty());
    }

    /// A `const` beside an enum picks one of its values: the values both enums hold still count.
    #[test]
    fn an_enum_beside_a_const_is_read_whole() {
        let with = |p: Value| snap(json!([{"name": "t", "inputSchema": {"properties": {"p": p}}}]));
        let (picked, listed) = (json!({"const": "a", "enum": ["a", "b"]}), json!({"enum": ["a", "b"]}));
        let (text, whole) = both(&with(picked), &with(listed));
        assert_eq!(text, whole);
        assert_eq!(
            text.iter().map(|c| c.what.as_str()).collect::<Vec<_>>(),
            [r#"value added: "b" (const "a", enum ["a","b"] -> enum ["a","b"])"#]
        );
    }

    /// A string written with an escape is the same value as one written without.
    #[test]
    fn enum_values_are_compared_as_values_not_texts() {
        let raw = |t: &'static str| -> &'static RawValue { serde_json::from_str(t).unwrap_or_else(|e| panic!("{e}")) };
        let ((a, more_a), (b, more_b)) = enum_pair(raw(r#"["a\/b", "x", 2]"#), raw(r#"["a/b", "y", 2]"#), 10);
        assert_eq!((a, more_a), (json!(["a/b", "x"]), 0));
        assert_eq!((b, more_b), (json!(["a/b", "y"]), 0));
    }

    #[test]
    fn a_property_list_of_30k_with_one_changed_is_compared_cheaply() {
        let mut p: Map<String, Value> = (0..30_000).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect();
        let old = snap(json!([{"name": "t", "inputSchema": {"type": "object", "properties": p.clone()}}]));
        p.insert("p7".into(), json!({"type": "integer"}));
        let new = snap(json!([{"name": "t", "inputSchema": {"type": "object", "properties": p}}]));
        let (text, whole) = both(&old, &new);
        assert_eq!(text, whole);
        assert_eq!(text.len(), 1, "{text:?}");
        assert_eq!(text[0].path, "/tools/t/inputSchema/properties/p7/type");
    }
}
