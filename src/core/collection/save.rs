//! Writing a collection back: a call added or replaced by name, or one call's expectations
//! rewritten, with the rest of the file (comments, other calls, key order) kept as it was.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};

use super::load::MAX_COLLECTION;
use super::model::{Check, Expect, SavedCall};
use super::toml_json::{fits_toml, text, to_toml};
use crate::error::LensError;

/// What a new file starts with.
pub const HEADER: &str = "# mcplens collection: saved calls and what their answers should be (`mcplens test FILE`)\n";

/// The keys a path's checks are written with (all removed before new checks are written).
const CHECK_KEYS: [&str; 7] = ["equals", "equals_json", "contains", "matches", "length", "type", "exists"];

fn document(text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>().map_err(|e| e.to_string().trim_end().to_string())
}

fn calls(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables, String> {
    let item = doc.entry("call").or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    item.as_array_of_tables_mut().ok_or_else(|| "`call` is not an array of tables ([[call]])".to_string())
}

fn named<'a>(calls: &'a mut ArrayOfTables, name: &str) -> Option<&'a mut Table> {
    calls.iter_mut().find(|t| t.get("name").and_then(Item::as_str) == Some(name))
}

/// `text` with `call` added at the end, or in place of the call of the same name (the comments
/// above that call are kept).
pub fn upsert(text: &str, call: &SavedCall) -> Result<String, String> {
    let mut doc = document(text)?;
    let table = call_table(call);
    let list = calls(&mut doc)?;
    match named(list, &call.name) {
        Some(old) => {
            let decor = old.decor().clone();
            *old = table;
            *old.decor_mut() = decor;
        }
        None => list.push(table),
    }
    let out = doc.to_string();
    Ok(if text.trim().is_empty() { format!("{HEADER}{out}") } else { out })
}

/// `text` with the expectations of the call named `name` rewritten to `expect` (see
/// [`update_all`]).
pub fn update_expectations(text: &str, name: &str, expect: &Expect) -> Result<String, String> {
    update_all(text, &[(name.to_string(), expect.clone())])
}

/// `text` with the expectations of each named call rewritten: status and response type set,
/// each path's checks replaced in place; the time budget, output schema and completeness keys
/// and everything else left as written. One pass over the file whatever the number of calls (a
/// parse and a write per call took minutes for a few thousand).
pub fn update_all(text: &str, updates: &[(String, Expect)]) -> Result<String, String> {
    let mut doc = document(text)?;
    let list = calls(&mut doc)?;
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for (i, t) in list.iter().enumerate() {
        if let Some(name) = t.get("name").and_then(Item::as_str) {
            by_name.entry(name.to_string()).or_insert(i);
        }
    }
    for (name, expect) in updates {
        let call = by_name.get(name).and_then(|&i| list.get_mut(i));
        let call = call.ok_or_else(|| format!("no call named {:?}", crate::sanitize::line(name)))?;
        rewrite_expect(call, expect)?;
    }
    Ok(doc.to_string())
}

fn rewrite_expect(call: &mut Table, expect: &Expect) -> Result<(), String> {
    let table = call.entry("expect").or_insert(Item::Table(Table::new()));
    let table = table.as_table_mut().ok_or_else(|| "expect is not a table".to_string())?;
    if let Some(s) = expect.status {
        table.insert("status", value(s.as_str()));
    }
    if let Some(t) = expect.response_type {
        let key = if table.contains_key("responseType") { "responseType" } else { "response_type" };
        table.insert(key, value(t.as_str()));
    }
    let fits = table.get("at").and_then(Item::as_array_of_tables).is_some_and(|a| a.len() == expect.at.len());
    if !fits {
        table.remove("at");
        if !expect.at.is_empty() {
            table.insert("at", Item::ArrayOfTables(at_tables(expect)));
        }
        return Ok(());
    }
    if let Some(entries) = table.get_mut("at").and_then(Item::as_array_of_tables_mut) {
        for (entry, at) in entries.iter_mut().zip(&expect.at) {
            for key in CHECK_KEYS {
                entry.remove(key);
            }
            write_checks(entry, &at.checks);
        }
    }
    Ok(())
}

/// Adds `call` to the collection file at `path` (made if missing), or replaces the call of the
/// same name. The file is replaced whole (written beside it, then renamed).
pub fn save(path: &Path, call: &SavedCall) -> Result<(), LensError> {
    let shown = path.display();
    let text = match crate::capped_file::read_text(path, MAX_COLLECTION) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => String::new(),
        Err(e) => return Err(LensError::usage(format!("{shown}: {e}"))),
    };
    let new = upsert(&text, call).map_err(|e| LensError::usage(format!("{shown}: {e}")))?;
    write(path, &new)
}

/// Replaces the file at `path` with `text` (see [`super::replace`]: written beside it, then
/// renamed over it; a symlink followed, the permissions kept).
pub fn write(path: &Path, text: &str) -> Result<(), LensError> {
    super::replace::replace(path, text).map_err(|e| LensError::output(format!("cannot write {}: {e}", path.display())))
}

/// A call as a `[[call]]` table.
fn call_table(call: &SavedCall) -> Table {
    let mut t = Table::new();
    t.insert("name", value(text(&call.name)));
    t.insert("tool", value(text(&call.tool)));
    if let Some(args) = &call.arguments {
        let args = Value::Object(args.clone());
        if fits_toml(&args) {
            t.insert("arguments", value(to_toml(&args)));
        } else {
            t.insert("arguments_json", value(text(&json_text(&args))));
        }
    }
    if call.all_pages {
        t.insert("all_pages", value(true));
    }
    let e = &call.expect;
    let mut x = Table::new();
    if let Some(s) = e.status {
        x.insert("status", value(s.as_str()));
    }
    if let Some(r) = e.response_type {
        x.insert("response_type", value(r.as_str()));
    }
    if let Some(ms) = e.time_ms {
        x.insert("time_ms", value(i64::try_from(ms).unwrap_or(i64::MAX)));
    }
    if e.output_schema {
        x.insert("output_schema", value(true));
    }
    if e.complete {
        x.insert("complete", value(true));
    }
    if !e.at.is_empty() {
        x.insert("at", Item::ArrayOfTables(at_tables(e)));
    }
    if !x.is_empty() {
        t.insert("expect", Item::Table(x));
    }
    t
}

fn at_tables(e: &Expect) -> ArrayOfTables {
    let mut list = ArrayOfTables::new();
    for at in &e.at {
        let mut t = Table::new();
        t.insert("path", value(text(&at.path())));
        write_checks(&mut t, &at.checks);
        list.push(t);
    }
    list
}

fn write_checks(t: &mut Table, checks: &[Check]) {
    for c in checks {
        match c {
            Check::Equals(v) if fits_toml(v) => t.insert("equals", value(to_toml(v))),
            Check::Equals(v) => t.insert("equals_json", value(text(&json_text(v)))),
            Check::Contains(v) => t.insert("contains", value(to_toml(v))),
            Check::Matches(p) => t.insert("matches", value(text(&p.text))),
            Check::Length(n) => t.insert("length", value(i64::try_from(*n).unwrap_or(i64::MAX))),
            Check::Type(ty) => t.insert("type", value(ty.as_str())),
            Check::Exists(b) => t.insert("exists", value(*b)),
        };
    }
}

/// Compact JSON of a value of any depth.
fn json_text(v: &Value) -> String {
    crate::deep::grow(|| serde_json::to_string(v).unwrap_or_default())
}
