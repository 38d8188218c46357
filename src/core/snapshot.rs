//! Comparing two snapshots (`mcplens snapshot`): tools, resources, resource templates and prompts
//! added, removed and changed, and the server's capabilities, each change classified for callers
//! (see [`crate::schema::diff`]). Snapshots are read as JSON values: key order never counts.

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value};

use crate::schema::diff::{Change, Direction, Impact, diff, token};

pub mod target;

/// The largest snapshot file read (`diff`, the TUI's marks): a snapshot of a huge tools/list is
/// large, but not endless.
pub const MAX_SNAPSHOT: u64 = 512 << 20;

/// The lists of a snapshot, the key that names an item in each, and whether the item is a tool.
const LISTS: [(&str, &str); 4] =
    [("tools", "name"), ("resources", "uri"), ("resourceTemplates", "uriTemplate"), ("prompts", "name")];

/// Whether `doc` looks like a snapshot: an object with `mcplensSnapshot`.
pub fn check(doc: &Value) -> Result<(), String> {
    match doc.get("mcplensSnapshot") {
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Ok(()),
        Some(v) => Err(format!("snapshot format {} is not one mcplens reads (1)", crate::schema::tree::compact(v))),
        None => Err("not an mcplens snapshot (no \"mcplensSnapshot\" member)".into()),
    }
}

/// The name a server gives itself, which a snapshot records in its `server`: `serverInfo.name`
/// of an initialize result, or of `_meta["io.modelcontextprotocol/serverInfo"]` in a discover
/// reply (protocol 2026-07-28).
pub fn server_name(server: &Value) -> Option<&str> {
    let info = server.get("serverInfo").or_else(|| server.get("_meta")?.get(crate::mcp::era::SERVER_INFO_META));
    info?.get("name")?.as_str()
}

/// When two servers' results name different servers, the sentence saying so: a snapshot of
/// one server compared with another would mark every tool the two do not share.
pub fn other_server(old: &Value, new: &Value) -> Option<String> {
    match (server_name(old), server_name(new)) {
        (Some(o), Some(n)) if o != n => Some(format!(
            "the snapshot is of server \"{}\", this is \"{}\"",
            crate::sanitize::line(o),
            crate::sanitize::line(n)
        )),
        _ => None,
    }
}

/// Every change from `old` to `new`, breaking ones first, each group in path order.
pub fn compare(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = server(old.get("server"), new.get("server"));
    for (list, key) in LISTS {
        out.extend(items(list, key, old.get(list), new.get(list)));
    }
    out.sort_by(|a, b| a.impact.cmp(&b.impact).then_with(|| a.path.cmp(&b.path)));
    out
}

fn change(path: String, impact: Impact, what: impl Into<String>) -> Change {
    Change { path, impact, what: what.into() }
}

/// Capabilities removed (breaking) or added, and the other members of the server's result.
pub fn server(old: Option<&Value>, new: Option<&Value>) -> Vec<Change> {
    let (o, n) = (old.and_then(Value::as_object), new.and_then(Value::as_object));
    let empty = Map::new();
    let (o, n) = (o.unwrap_or(&empty), n.unwrap_or(&empty));
    let mut out = vec![];
    let caps = |m: &Map<String, Value>| m.get("capabilities").and_then(Value::as_object).cloned().unwrap_or_default();
    let (before, after) = (caps(o), caps(n));
    for (name, v) in &before {
        let path = format!("/server/capabilities/{}", token(name));
        match after.get(name) {
            None => out.push(change(path, Impact::Breaking, "capability removed")),
            Some(w) if w != v => out.push(change(path, Impact::Compatible, "capability options changed")),
            _ => {}
        }
    }
    for name in after.keys().filter(|k| !before.contains_key(*k)) {
        out.push(change(format!("/server/capabilities/{}", token(name)), Impact::Compatible, "capability added"));
    }
    for key in o.keys().chain(n.keys().filter(|k| !o.contains_key(*k))) {
        if key != "capabilities" && o.get(key) != n.get(key) {
            out.push(change(format!("/server/{}", token(key)), Impact::Compatible, "changed"));
        }
    }
    out
}

/// The items of one list by their key (an item without one is keyed by its position).
fn keyed<'a>(list: Option<&'a Value>, key: &str) -> Vec<(String, &'a Value)> {
    let items = list.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    items
        .iter()
        .enumerate()
        .map(|(i, v)| (v.get(key).and_then(Value::as_str).map_or_else(|| format!("#{i}"), str::to_string), v))
        .collect()
}

/// How an item of the old list and one of the new pair up.
#[derive(Debug, PartialEq)]
pub enum Paired<'k, T> {
    Removed(&'k str, T),
    Both(&'k str, T, T),
    Added(&'k str, T),
}

/// The items of two lists paired by key. Of items sharing a key on either side, those alike
/// (`print`, a hash agreeing with equality, is equal) are paired first, the rest in order (the
/// first left with the first left); those left over on either side are removed or added. So a
/// list compared with itself, or with its duplicates listed in another order, has no change, and
/// one of two dropped is one removal. A hash that collides only pairs two items that are then
/// compared in full. Old items come first, in their order, then the added ones in theirs. Keys
/// are looked up, not searched for, and `print` is asked only of items whose key repeats: lists of
/// 100k tools cost linear time.
pub fn pair<'k, K: AsRef<str>, T>(
    before: &'k [(K, T)],
    after: &'k [(K, T)],
    print: impl Fn(&T) -> u64,
) -> Vec<Paired<'k, &'k T>> {
    let mut waiting: HashMap<&str, VecDeque<usize>> = HashMap::with_capacity(after.len());
    for (i, (name, _)) in after.iter().enumerate() {
        waiting.entry(name.as_ref()).or_default().push_back(i);
    }
    let mut old_count: HashMap<&str, usize> = HashMap::with_capacity(before.len());
    for (name, _) in before {
        *old_count.entry(name.as_ref()).or_default() += 1;
    }
    let repeated =
        |name: &str| old_count.get(name).copied().unwrap_or(0) > 1 || waiting.get(name).is_some_and(|w| w.len() > 1);
    let mut taken = vec![false; after.len()];
    let mut partner: Vec<Option<usize>> = vec![None; before.len()];
    // Alike first, among the keys that repeat.
    let mut alike: HashMap<(&str, u64), VecDeque<usize>> = HashMap::new();
    for (i, (name, w)) in after.iter().enumerate().filter(|(_, (n, _))| repeated(n.as_ref())) {
        alike.entry((name.as_ref(), print(w))).or_default().push_back(i);
    }
    for (j, (name, v)) in before.iter().enumerate().filter(|(_, (n, _))| repeated(n.as_ref())) {
        if let Some(i) = alike.get_mut(&(name.as_ref(), print(v))).and_then(VecDeque::pop_front) {
            taken[i] = true;
            partner[j] = Some(i);
        }
    }
    let mut out = Vec::with_capacity(before.len().max(after.len()));
    for ((name, v), found) in before.iter().zip(partner) {
        let next = || {
            let queue = waiting.get_mut(name.as_ref())?;
            while let Some(i) = queue.pop_front() {
                if !taken[i] {
                    return Some(i);
                }
            }
            None
        };
        match found.or_else(next) {
            Some(i) => {
                taken[i] = true;
                out.push(Paired::Both(name.as_ref(), v, &after[i].1));
            }
            None => out.push(Paired::Removed(name.as_ref(), v)),
        }
    }
    let added = after.iter().zip(&taken).filter(|(_, taken)| !**taken);
    out.extend(added.map(|((name, v), _)| Paired::Added(name.as_ref(), v)));
    out
}

fn items(list: &str, key: &str, old: Option<&Value>, new: Option<&Value>) -> Vec<Change> {
    let (before, after) = (keyed(old, key), keyed(new, key));
    let mut out = vec![];
    for paired in pair(&before, &after, |v| crate::value_set::hash(v)) {
        let (name, impact, what) = match paired {
            Paired::Removed(name, _) => (name, Impact::Breaking, "removed"),
            Paired::Both(name, v, w) => {
                if v != w {
                    out.extend(item(list, &format!("/{list}/{}", token(name)), v, w));
                }
                continue;
            }
            Paired::Added(name, _) => (name, Impact::Compatible, "added"),
        };
        out.push(change(format!("/{list}/{}", token(name)), impact, format!("{} {what}", noun(list))));
    }
    out
}

pub(crate) fn noun(list: &str) -> &'static str {
    match list {
        "tools" => "tool",
        "resources" => "resource",
        "resourceTemplates" => "resource template",
        _ => "prompt",
    }
}

/// The changes inside one item present on both sides.
pub(crate) fn item(list: &str, path: &str, old: &Value, new: &Value) -> Vec<Change> {
    let mut out = vec![];
    let empty = Map::new();
    let (o, n) = (old.as_object().unwrap_or(&empty), new.as_object().unwrap_or(&empty));
    for key in o.keys().chain(n.keys().filter(|k| !o.contains_key(*k))) {
        let (a, b) = (o.get(key), n.get(key));
        if a == b {
            continue;
        }
        let p = format!("{path}/{}", token(key));
        match (list, key.as_str(), a, b) {
            ("tools", "inputSchema", Some(a), Some(b)) => out.extend(diff(a, b, &p, Direction::Request)),
            ("tools", "inputSchema", _, _) => out.push(change(p, Impact::Breaking, "input schema added or removed")),
            // What the tool returns: a change that lets through what callers were promised
            // never comes breaks them.
            ("tools", "outputSchema", Some(a), Some(b)) => out.extend(diff(a, b, &p, Direction::Response)),
            // Callers that read structuredContent by the schema lose it.
            ("tools", "outputSchema", Some(_), None) => out.push(change(p, Impact::Breaking, "output schema removed")),
            ("tools", "outputSchema", None, _) => out.push(change(p, Impact::Compatible, "output schema added")),
            ("tools", "execution", _, _) if task_required(b) && !task_required(a) => {
                out.push(change(p, Impact::Breaking, "the tool now runs only as a task (taskSupport \"required\")"))
            }
            ("prompts", "arguments", _, _) => out.extend(arguments(&p, a, b)),
            _ => out.push(change(
                p,
                Impact::Compatible,
                if a.is_none() {
                    "added"
                } else if b.is_none() {
                    "removed"
                } else {
                    "changed"
                },
            )),
        }
    }
    out
}

fn task_required(execution: Option<&Value>) -> bool {
    execution.and_then(|e| e.get("taskSupport")).and_then(Value::as_str) == Some("required")
}

/// A prompt's arguments: one removed or newly required is breaking.
fn arguments(path: &str, old: Option<&Value>, new: Option<&Value>) -> Vec<Change> {
    let (before, after) = (keyed(old, "name"), keyed(new, "name"));
    let required = |v: &Value| v.get("required").and_then(Value::as_bool).unwrap_or(false);
    let mut out = vec![];
    for paired in pair(&before, &after, |v| crate::value_set::hash(v)) {
        let (name, impact, what) = match paired {
            Paired::Removed(name, _) => (name, Impact::Breaking, "argument removed"),
            Paired::Both(name, v, w) if required(w) && !required(v) => {
                (name, Impact::Breaking, "argument now required")
            }
            Paired::Both(name, v, w) if w != v => (name, Impact::Compatible, "argument changed"),
            Paired::Both(..) => continue,
            Paired::Added(name, w) if required(w) => (name, Impact::Breaking, "new required argument"),
            Paired::Added(name, _) => (name, Impact::Compatible, "new optional argument"),
        };
        out.push(change(format!("{path}/{}", token(name)), impact, what));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_server_is_named_in_either_era_and_another_name_is_said() {
        let legacy = json!({"serverInfo": {"name": "memory", "version": "1"}});
        let dated = json!({"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "memory", "version": "2"}}});
        let other = json!({"serverInfo": {"name": "filesystem\u{1b}[2J"}});
        assert_eq!(server_name(&dated), Some("memory"));
        assert_eq!(other_server(&legacy, &dated), None, "same server, other version and era");
        let why = other_server(&legacy, &other).unwrap_or_default();
        assert!(why.contains("\"memory\"") && !why.contains('\u{1b}'), "{why}");
        // A snapshot without a name cannot be told apart: compared as before.
        assert_eq!(other_server(&json!({}), &other), None);
    }

    fn snap(tools: Value, prompts: Value) -> Value {
        json!({"mcplensSnapshot": 1, "server": {"capabilities": {"tools": {}, "prompts": {}}}, "tools": tools,
               "resources": [{"uri": "a://x", "name": "x"}], "resourceTemplates": [], "prompts": prompts})
    }

    /// 30k tools in another order, one changed and one renamed; a 60k-value enum reversed
    /// (a search of the other list per item was quadratic: 24.5 s for 100k tools). Sizes are
    /// kept to what a debug build makes in seconds; quadratic work would still take minutes.
    #[test]
    fn large_lists_are_compared_by_lookup() {
        let tool = |i: usize| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}});
        let old: Vec<Value> = (0..30_000).map(tool).collect();
        let mut new: Vec<Value> = old.iter().rev().cloned().collect();
        new[0] = json!({"name": "t29999", "inputSchema": {"type": "object", "required": ["q"]}});
        new[1] = tool(30_000);
        let c = compare(&snap(json!(old), json!([])), &snap(json!(new), json!([])));
        let paths: Vec<&str> = c.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["/tools/t29998", "/tools/t29999/inputSchema/required/q", "/tools/t30000"], "{c:?}");
        let values: Vec<Value> = (0..60_000).map(|i| json!(format!("v{i}"))).collect();
        let reversed: Vec<Value> = values.iter().rev().cloned().collect();
        let with = |e: Vec<Value>| json!([{"name": "t", "inputSchema": {"properties": {"p": {"enum": e}}}}]);
        assert!(compare(&snap(with(values.clone()), json!([])), &snap(with(reversed), json!([]))).is_empty());
        // All changed: the change names 50 values and counts the rest.
        let others: Vec<Value> = (0..60_000).map(|i| json!(format!("w{i}"))).collect();
        let c = compare(&snap(with(values), json!([])), &snap(with(others), json!([])));
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(c[0].what.ends_with("and 59950 more") && c[0].what.len() < 2000, "{}", c[0].what);
    }

    #[test]
    fn tools_and_prompts_added_removed_changed() {
        let t =
            |max: u32| json!({"name": "t", "inputSchema": {"type": "object", "properties": {"q": {"maxLength": max}}}});
        let old = snap(
            json!([t(9), {"name": "gone", "inputSchema": {}}]),
            json!([{"name": "p", "arguments": [{"name": "a"}]}]),
        );
        let new = snap(
            json!([{"name": "new", "inputSchema": {}}, t(5)]),
            json!([{"name": "p", "arguments": [{"name": "a", "required": true}]}]),
        );
        let c: Vec<(String, Impact)> = compare(&old, &new).into_iter().map(|c| (c.path, c.impact)).collect();
        assert_eq!(
            c,
            vec![
                ("/prompts/p/arguments/a".into(), Impact::Breaking),
                ("/tools/gone".into(), Impact::Breaking),
                ("/tools/t/inputSchema/properties/q/maxLength".into(), Impact::Breaking),
                ("/tools/new".into(), Impact::Compatible),
            ]
        );
        assert!(compare(&old, &old).is_empty());
        assert!(check(&old).is_ok() && check(&json!({})).is_err());
    }

    /// Items sharing a name are paired alike first, then in order: a list compared with itself
    /// has no change, one of two dropped is one removal.
    #[test]
    fn items_sharing_a_name_are_paired_in_order() {
        let plain = json!({"name": "a", "inputSchema": {"type": "object"}});
        let strict = json!({"name": "a", "inputSchema": {"type": "object", "required": ["x"]}});
        let arg = |req: bool| json!({"name": "q", "required": req});
        let both = snap(json!([plain, strict]), json!([{"name": "p", "arguments": [arg(false), arg(true)]}]));
        assert_eq!(compare(&both, &both), vec![]);
        let one = snap(json!([plain]), json!([{"name": "p", "arguments": [arg(false)]}]));
        let c: Vec<(String, Impact, String)> =
            compare(&both, &one).into_iter().map(|c| (c.path, c.impact, c.what)).collect();
        assert_eq!(
            c,
            vec![
                ("/prompts/p/arguments/q".into(), Impact::Breaking, "argument removed".into()),
                ("/tools/a".into(), Impact::Breaking, "tool removed".into()),
            ]
        );
        let c: Vec<(String, String)> = compare(&one, &both).into_iter().map(|c| (c.path, c.what)).collect();
        assert_eq!(
            c,
            vec![
                ("/prompts/p/arguments/q".into(), "new required argument".into()),
                ("/tools/a".into(), "tool added".into())
            ]
        );
        let print = |v: &u64| *v;
        assert_eq!(
            pair(&[("a", 1), ("a", 3)], &[("a", 3)], print),
            vec![Paired::Removed("a", &1), Paired::Both("a", &3, &3)]
        );
        let (old, new) = (vec![("a", 1), ("b", 2), ("a", 3)], vec![("a", 4), ("c", 5), ("a", 3), ("a", 6)]);
        assert_eq!(
            pair(&old, &new, print),
            vec![
                Paired::Both("a", &1, &4),
                Paired::Removed("b", &2),
                Paired::Both("a", &3, &3),
                Paired::Added("c", &5),
                Paired::Added("a", &6)
            ]
        );
    }

    #[test]
    fn capabilities_and_output_schemas() {
        let mut old = snap(json!([{"name": "t", "outputSchema": {"type": "object"}}]), json!([]));
        let new = snap(json!([{"name": "t"}]), json!([]));
        old["server"]["capabilities"]["resources"] = json!({});
        let c: Vec<(String, Impact)> = compare(&old, &new).into_iter().map(|c| (c.path, c.impact)).collect();
        assert_eq!(
            c,
            vec![
                ("/server/capabilities/resources".into(), Impact::Breaking),
                ("/tools/t/outputSchema".into(), Impact::Breaking)
            ]
        );
    }

    /// The same change breaks callers in an input schema and not in an output schema, and the
    /// other way round.
    #[test]
    fn input_and_output_schemas_are_read_each_its_own_way() {
        let t = |schema: Value| json!([{"name": "t", "inputSchema": schema.clone(), "outputSchema": schema, "description": "d"}]);
        let e = |values: Value| json!({"type": "object", "properties": {"mode": {"enum": values}}});
        let old = snap(t(e(json!(["a"]))), json!([]));
        let new = snap(t(e(json!(["a", "b"]))), json!([]));
        let c: Vec<(String, Impact)> = compare(&old, &new).into_iter().map(|c| (c.path, c.impact)).collect();
        assert_eq!(
            c,
            vec![
                ("/tools/t/outputSchema/properties/mode/enum".into(), Impact::Breaking),
                ("/tools/t/inputSchema/properties/mode/enum".into(), Impact::Compatible),
            ]
        );
        let c: Vec<(String, Impact)> = compare(&new, &old).into_iter().map(|c| (c.path, c.impact)).collect();
        assert_eq!(
            c,
            vec![
                ("/tools/t/inputSchema/properties/mode/enum".into(), Impact::Breaking),
                ("/tools/t/outputSchema/properties/mode/enum".into(), Impact::Compatible),
            ]
        );
    }
}
