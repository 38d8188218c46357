//! Records carried in text: CSV/TSV, markdown tables, bullet lists, items one a line, `Key: value`
//! blocks and records. Everything here is bounded by the input's size; nothing recurses.

use serde_json::{Map, Value};

fn split_csv_line(line: &str, sep: char) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().map(|s| s.trim().to_string()).collect()
}

/// The rows as records named by the header; None when that would drop a cell: a name given
/// twice (a record keeps one value a name), or a row longer than the header.
fn records(header: &[String], rows: &[Vec<String>]) -> Option<Vec<Value>> {
    if !distinct(header) || rows.iter().any(|r| r.len() > header.len()) {
        return None;
    }
    let record = |row: &Vec<String>| header.iter().cloned().zip(row.iter().cloned().map(Value::String)).collect();
    Some(rows.iter().map(|row| Value::Object(record(row))).collect())
}

/// Whether no name is given twice.
fn distinct(names: &[String]) -> bool {
    let mut seen = std::collections::HashSet::new();
    names.iter().all(|n| seen.insert(n.as_str()))
}

/// CSV or TSV with a header line: at least two columns and one row, every row the same width.
pub fn csv(text: &str) -> Option<Vec<Value>> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < 2 {
        return None;
    }
    let sep = if lines[0].contains('\t') { '\t' } else { ',' };
    let header = split_csv_line(lines[0], sep);
    if header.len() < 2 || header.iter().any(|h| h.is_empty() || h.len() > 64) {
        return None;
    }
    let rows: Vec<Vec<String>> = lines[1..].iter().map(|l| split_csv_line(l, sep)).collect();
    if rows.iter().any(|r| r.len() != header.len()) {
        return None;
    }
    records(&header, &rows)
}

fn table_cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    t.split('|').map(|c| c.trim().to_string()).collect()
}

/// A markdown table (header, `|---|` separator, rows), anywhere in the text; returns the records
/// and the prose around the table.
pub fn markdown_table(text: &str) -> Option<(Vec<Value>, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let sep_at = lines.iter().position(|l| {
        let t = l.trim();
        t.starts_with('|') && t.contains("---") && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
    })?;
    if sep_at == 0 {
        return None;
    }
    let header = table_cells(lines[sep_at - 1]);
    let mut end = sep_at + 1;
    while end < lines.len() && lines[end].trim().starts_with('|') {
        end += 1;
    }
    let rows: Vec<Vec<String>> = lines[sep_at + 1..end].iter().map(|l| table_cells(l)).collect();
    // A header and its separator with no rows is a table of nothing (a query that matched no
    // rows: greptimedb-mcp-server's _format_markdown), when every column is named and the
    // separator has one cell per column.
    let empty_ok = header.iter().all(|h| !h.is_empty()) && table_cells(lines[sep_at]).len() == header.len();
    if header.is_empty() || (rows.is_empty() && !empty_ok) {
        return None;
    }
    let prose: Vec<&str> = lines[..sep_at - 1].iter().chain(lines[end..].iter()).copied().collect();
    Some((records(&header, &rows)?, prose.join("\n").trim().to_string()))
}

/// A table aligned with spaces, as `kubectl get`, `docker ps` and `ps` print it: a header of
/// upper-case names set apart by two or more spaces, and rows cut at the header's column starts.
/// Returns the records and the prose after a blank line.
pub fn aligned_table(text: &str) -> Option<(Vec<Value>, String)> {
    let t = text.trim_matches('\n');
    let (body, tail) = t.split_once("\n\n").unwrap_or((t, ""));
    let mut lines = body.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next()?;
    let starts = column_starts(header)?;
    let names: Vec<String> = starts
        .iter()
        .enumerate()
        .map(|(i, &s)| header[s..starts.get(i + 1).copied().unwrap_or(header.len())].trim().to_string())
        .collect();
    if !distinct(&names) {
        return None;
    }
    let rows: Vec<Value> = lines
        .map(|row| {
            let mut m = Map::new();
            for (i, name) in names.iter().enumerate() {
                let end = if i + 1 < starts.len() { starts[i + 1] } else { usize::MAX };
                m.insert(name.clone(), Value::String(cell(row, starts[i], end).to_string()));
            }
            Value::Object(m)
        })
        .collect();
    (!rows.is_empty()).then(|| (rows, tail.trim().to_string()))
}

/// Where each column of an aligned header starts; None unless it is one (two or more names, each
/// upper case, set apart by at least two spaces).
fn column_starts(header: &str) -> Option<Vec<usize>> {
    if !header.is_ascii() || header.starts_with(' ') {
        return None;
    }
    let mut starts = vec![0];
    let bytes = header.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            let run = bytes[i..].iter().take_while(|b| **b == b' ').count();
            if run >= 2 && i + run < bytes.len() {
                starts.push(i + run);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    let upper = |s: &str| s.chars().any(|c| c.is_ascii_uppercase()) && !s.chars().any(|c| c.is_ascii_lowercase());
    let names_ok = starts.iter().enumerate().all(|(k, &s)| {
        let end = starts.get(k + 1).copied().unwrap_or(header.len());
        upper(header[s..end].trim())
    });
    (starts.len() >= 2 && names_ok).then_some(starts)
}

/// The text of `row` between byte offsets `from` and `to`, kept to char boundaries.
fn cell(row: &str, from: usize, to: usize) -> &str {
    let from = row.floor_char_boundary(from.min(row.len()));
    let to = row.floor_char_boundary(to.min(row.len()));
    row.get(from..to).unwrap_or("").trim()
}

/// `key: value` pairs of one bullet item ("name: a, size: 3" or "**Name**: a | Size: 3").
fn pairs(item: &str) -> Option<Map<String, Value>> {
    let parts: Vec<&str> = if item.contains(" | ") { item.split(" | ").collect() } else { item.split(", ").collect() };
    let mut m = Map::new();
    for p in parts {
        let (k, v) = p.split_once(':')?;
        let k = k.trim().trim_matches('*').trim_matches('`').trim();
        // A key reads as a field name: `(ID: 42) ...` is a line that happens to hold a colon.
        let named = k.chars().next().is_some_and(char::is_alphabetic);
        if !named || k.len() > 40 || k.contains(' ') && k.split(' ').count() > 3 {
            return None;
        }
        // A key given twice: no record (it would keep one of the values).
        if m.insert(k.to_string(), Value::String(v.trim().trim_matches('`').to_string())).is_some() {
            return None;
        }
    }
    (!m.is_empty()).then_some(m)
}

/// A bullet list (`-`, `*`, `•` or `1.`) of two or more items: records when every item is
/// `key: value` pairs, strings otherwise. Returns the items and the prose outside the list.
pub fn bullet_list(text: &str) -> Option<(Vec<Value>, String)> {
    let mut items: Vec<String> = vec![];
    let mut prose = vec![];
    let mut in_fence = false;
    let mut in_item = false;
    for line in text.lines() {
        let t = line.trim_start();
        // Lines in a ``` fence are code (a YAML snapshot's `- ` lines are no bullets).
        if t.starts_with("```") {
            in_fence = !in_fence;
            prose.push(line);
            continue;
        }
        if in_fence {
            prose.push(line);
            continue;
        }
        let item =
            t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")).or_else(|| t.strip_prefix("• ")).or_else(|| {
                let digits = t.chars().take_while(char::is_ascii_digit).count();
                (digits > 0 && digits < 6).then(|| t[digits..].strip_prefix(". ")).flatten()
            });
        let indented = line.len() - t.len() >= 2;
        match item {
            Some(i) if !indented => {
                items.push(i.trim().to_string());
                in_item = true;
            }
            Some(_) => {} // nested bullets belong to their parent item
            None if t.is_empty() => {}
            // An indented line under an item goes on with it (a search hit's snippet).
            None if indented && in_item => {
                if let Some(last) = items.last_mut() {
                    last.push('\n');
                    last.push_str(t.trim_end());
                }
            }
            None => {
                prose.push(line);
                in_item = false;
            }
        }
    }
    if items.len() < 2 {
        return None;
    }
    let as_records: Option<Vec<Value>> = items.iter().map(|i| pairs(i).map(Value::Object)).collect();
    // `- Page URL: x` / `- Page Title: y`: one key each, all different, are the fields of one
    // thing described, not a list of records.
    if let Some(rows) = &as_records {
        let keys: std::collections::HashSet<&String> =
            rows.iter().filter_map(|r| r.as_object()?.keys().next()).collect();
        if rows.iter().all(|r| r.as_object().is_some_and(|m| m.len() == 1)) && keys.len() == rows.len() {
            return None;
        }
    }
    // Plain bullets are a list only when they are the text (a header line at most): bullets
    // inside prose, like a fetched web page, leave it prose.
    if as_records.is_none() && prose.len() > 1 {
        return None;
    }
    let values = as_records.unwrap_or_else(|| items.into_iter().map(Value::String).collect());
    Some((values, prose.join("\n").trim().to_string()))
}

/// `Key: value` of one line, when the key reads as a field name.
fn field(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(": ").or_else(|| line.strip_suffix(':').map(|k| (k, "")))?;
    let k = k.trim();
    let ok = !k.is_empty()
        && k.len() <= 40
        && k.split(' ').count() <= 3
        && !k.starts_with(['-', '*', '#', ' '])
        && k.chars().next().is_some_and(char::is_alphabetic);
    ok.then_some((k, v.trim()))
}

/// Records that each start with the same `Key: value` line (git log's `Commit:` blocks, search
/// results' `Title:` blocks), whose values may run over several lines; a header line or two
/// before the first record is prose.
pub fn keyed_records(text: &str) -> Option<(Vec<Value>, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| field(l).is_some_and(|(_, v)| !v.is_empty()))?;
    if lines[..first].iter().filter(|l| !l.trim().is_empty()).count() > 2 {
        return None;
    }
    let (lead, _) = field(lines[first])?;
    let starts = lines.iter().filter(|l| field(l).is_some_and(|(k, _)| k == lead)).count();
    if starts < 2 {
        return None;
    }
    let mut records: Vec<Map<String, Value>> = vec![];
    let mut last_key: Option<String> = None;
    for l in &lines[first..] {
        match field(l) {
            Some((k, v)) if k == lead => {
                records.push(Map::new());
                records.last_mut()?.insert(k.to_string(), Value::String(v.to_string()));
                last_key = Some(k.to_string());
            }
            Some((k, v)) if !records.last()?.contains_key(k) => {
                records.last_mut()?.insert(k.to_string(), Value::String(v.to_string()));
                last_key = Some(k.to_string());
            }
            _ => {
                // A value that runs over several lines.
                let key = last_key.as_ref()?;
                if let Some(Value::String(v)) = records.last_mut()?.get_mut(key) {
                    v.push('\n');
                    v.push_str(l);
                }
            }
        }
    }
    if records.iter().any(|r| r.len() < 2) {
        return None;
    }
    let out = records
        .into_iter()
        .map(|mut r| {
            for v in r.values_mut() {
                if let Value::String(s) = v {
                    *s = s.trim().to_string();
                }
            }
            Value::Object(r)
        })
        .collect();
    Some((out, lines[..first].join("\n").trim().to_string()))
}

/// The most fields a block of `Key: value` lines is read as one record with: a record's fields
/// are a small set of names; thousands of `row N: ...` lines are a document (a file read).
const MAX_RECORD_FIELDS: usize = 64;

/// A block of `Key: value` lines (two or more, every non-empty line), as one record. A key given
/// twice (mail headers' `Received:`) makes it no record: a record would keep one of its values.
pub fn key_value_block(text: &str) -> Option<Map<String, Value>> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if lines.len() < 2 || lines.len() > MAX_RECORD_FIELDS {
        return None;
    }
    let mut m = Map::new();
    for l in lines {
        let (k, v) = l.split_once(": ")?;
        let k = k.trim();
        if k.is_empty() || k.len() > 40 || k.split(' ').count() > 3 || k.starts_with(['-', '*', '#']) {
            return None;
        }
        if m.insert(k.to_string(), Value::String(v.trim().to_string())).is_some() {
            return None;
        }
    }
    Some(m)
}

/// What may follow the data read out of a text (JSON after prose, a list of lines): nothing, or
/// a short closing remark ("Showing 1 row.", "Total: 3 files"). More is the rest of a longer
/// text the data is one part of (a file among the files read): read out, it would leave a hole
/// in that text, and the rest would stand as if it were only a remark.
pub fn closing_remark(trailer: &str) -> bool {
    trailer.len() <= 200 && trailer.lines().filter(|l| !l.trim().is_empty()).count() <= 2
}

/// Words of a tool's name that say it answers with a collection.
const LISTING_WORDS: &[&str] =
    &["list", "search", "find", "ls", "glob", "grep", "query", "branches", "tags", "files", "tables", "keys"];

/// One item a line: `[FILE] a.txt` / `[DIR] src` lines, paths, one-word names (a branch list, a
/// table list), or short lines from a tool whose name says it lists. A header line ending in `:`
/// and a trailing block after a blank line (`Total: 3 files`) are kept as prose.
pub fn item_lines(text: &str, tool_words: &[String]) -> Option<(Vec<Value>, String)> {
    let t = text.trim_matches('\n');
    let (body, tail) = match t.split_once("\n\n") {
        Some((b, rest)) if !rest.trim().is_empty() => (b, rest.trim()),
        _ => (t, ""),
    };
    if !closing_remark(tail) {
        return None;
    }
    let mut lines: Vec<&str> = body.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    let header = match lines.first() {
        Some(h) if lines.len() > 1 && h.ends_with(':') && !h.starts_with(['[', '/', '*', '-']) => Some(lines.remove(0)),
        _ => None,
    };
    if lines.is_empty() || lines.iter().any(|l| l.len() > 400 || is_sentence(l)) {
        return None;
    }
    let tagged = lines.iter().all(|l| tag(l).is_some());
    let paths = lines.iter().all(|l| looks_like_path(l.trim()));
    let words =
        lines.len() >= 2 && lines.iter().all(|l| l.trim().trim_start_matches("* ").split_whitespace().count() == 1);
    let named = lines.len() >= 2 && tool_words.iter().any(|w| LISTING_WORDS.contains(&w.as_str()));
    if !(tagged || paths || words || named) {
        return None;
    }
    let items = lines.iter().map(|l| Value::String(l.trim().to_string())).collect();
    let prose = [header.unwrap_or(""), tail].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>();
    Some((items, prose.join("\n\n")))
}

/// A line that reads as a sentence of prose rather than an item.
fn is_sentence(line: &str) -> bool {
    let l = line.trim();
    l.split_whitespace().count() > 6 && l.ends_with(['.', '!', '?']) && !looks_like_path(l)
}

/// `[FILE]` in `[FILE] a.txt`.
fn tag(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('[')?;
    let (t, after) = rest.split_once(']')?;
    (!t.is_empty()
        && t.len() <= 16
        && t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !after.trim().is_empty())
    .then_some(t)
}

fn looks_like_path(l: &str) -> bool {
    let windows = l.len() > 2 && l.as_bytes()[1] == b':' && matches!(l.as_bytes()[2], b'\\' | b'/');
    (l.starts_with('/') || l.starts_with("./") || l.starts_with("~/") || windows) && !l.contains("  ")
}

/// Text that only reports a failure ("Error: ...", "Failed to ...").
pub fn is_failure_text(text: &str) -> bool {
    let first = text.trim_start().lines().next().unwrap_or("").trim().to_ascii_lowercase();
    // "Database error: ...", "API error: ...": a few words naming what failed, then `error:`.
    let named_error = first.split_once(" error:").is_some_and(|(what, _)| {
        !what.is_empty()
            && what.len() <= 30
            && what.split(' ').count() <= 3
            && what.chars().all(|c| c.is_alphabetic() || c == ' ')
    });
    named_error || super::conventions::table().starts(super::conventions::Role::FailurePrefix, &first)
}

/// The HTTP status an error message states: at its start with a reason ("400 Bad Request: ..."),
/// or after "HTTP" or "status" ("HTTP 404", "failed with status code 503"). Only 4xx and 5xx.
pub fn http_status_in(message: &str) -> Option<u16> {
    static FORMS: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let re = FORMS
        .get_or_init(|| {
            regex::Regex::new(
                r"(?i)^\W{0,3}(?:error:?\s*)?([45]\d\d)\s+[a-z]|\b(?:http(?:\s+error)?|status(?:\s+code)?)\s*:?\s*([45]\d\d)\b",
            )
            .ok()
        })
        .as_ref()?;
    let caps = re.captures(message)?;
    caps.get(1).or_else(|| caps.get(2))?.as_str().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullets_whose_colon_follows_no_field_name_are_strings() {
        let (items, _) = bullet_list("- (ID: 1) **[ada]** hi\n- (ID: 2) **[bob]** yo").unwrap_or_default();
        assert_eq!(items, vec![json!("(ID: 1) **[ada]** hi"), json!("(ID: 2) **[bob]** yo")]);
        let (items, _) = bullet_list("- name: a, size: 1\n- name: b, size: 2").unwrap_or_default();
        assert_eq!(items[0], json!({"name": "a", "size": "1"}));
    }

    #[test]
    fn http_status_stated_in_an_error() {
        assert_eq!(http_status_in("400 Bad Request: \"{<EOL> ...}\""), Some(400));
        assert_eq!(http_status_in("Error: 404 Not Found"), Some(404));
        assert_eq!(http_status_in("Request failed with status code 503"), Some(503));
        assert_eq!(http_status_in("HTTP 429 Too Many Requests"), Some(429));
        assert_eq!(http_status_in("HTTP error: 401"), Some(401));
        assert_eq!(http_status_in("Found 404 files"), None);
        assert_eq!(http_status_in("200 OK"), None);
        assert_eq!(http_status_in("line 500 is too long"), None);
    }
    use serde_json::json;

    #[test]
    fn csv_and_tsv() {
        assert_eq!(
            csv("id,name\n1,\"Lovelace, Ada\"\n2,Grace\n"),
            Some(vec![json!({"id": "1", "name": "Lovelace, Ada"}), json!({"id": "2", "name": "Grace"})])
        );
        assert_eq!(csv("a\tb\n1\t2").map(|r| r.len()), Some(1));
        assert_eq!(csv("Hello, world.\nHow are you, today, friend?"), None);
    }

    #[test]
    fn markdown_tables_with_prose() {
        let t = "Found 2 repos:\n\n| name | stars |\n|---|---:|\n| mcplens | 10 |\n| rmcp | 900 |\n\nDone.";
        let (rows, prose) = markdown_table(t).unwrap_or_default();
        assert_eq!(rows, vec![json!({"name": "mcplens", "stars": "10"}), json!({"name": "rmcp", "stars": "900"})]);
        assert_eq!(prose, "Found 2 repos:\n\n\nDone.");
    }

    #[test]
    fn a_markdown_table_with_no_rows_is_an_empty_list() {
        let (rows, prose) = markdown_table("| host | ts |\n| --- | --- |").expect("a table of nothing");
        assert!(rows.is_empty());
        assert_eq!(prose, "");
        // A separator that does not match the header's columns is not a table.
        assert_eq!(markdown_table("| host | ts |\n| --- |"), None);
    }

    #[test]
    fn an_indented_line_under_a_numbered_item_goes_on_with_it() {
        let t = "1. Basics [basics]\n   The first snippet.\n\n2. Context [context]\n   The second snippet.";
        let (rows, rest) = bullet_list(t).unwrap_or_default();
        assert_eq!(
            rows,
            vec![json!("Basics [basics]\nThe first snippet."), json!("Context [context]\nThe second snippet.")]
        );
        assert_eq!(rest, "");
    }

    #[test]
    fn bullets_of_records_and_of_strings() {
        let (rows, prose) =
            bullet_list("Issues:\n- number: 1, title: Crash\n- number: 2, title: Typo").unwrap_or_default();
        assert_eq!(rows, vec![json!({"number": "1", "title": "Crash"}), json!({"number": "2", "title": "Typo"})]);
        assert_eq!(prose, "Issues:");
        let (rows, _) = bullet_list("* a.txt\n* b.txt\n* c/").unwrap_or_default();
        assert_eq!(rows, vec![json!("a.txt"), json!("b.txt"), json!("c/")]);
        assert!(bullet_list("- only one").is_none());
        assert!(bullet_list("- Page URL: https://x\n- Page Title: X").is_none(), "fields of one thing");
        assert!(bullet_list("Code:\n```yaml\n- a\n- b\n```").is_none(), "lines in a fence are code");
    }

    #[test]
    fn records_led_by_one_key() {
        let t = "Commit history:\nCommit: 'abc'\nAuthor: Ada\nMessage: fix\n\nbody\n\n\nCommit: 'def'\nAuthor: Bob\nMessage: add\n";
        let (rows, prose) = keyed_records(t).unwrap_or_default();
        assert_eq!(rows[0], json!({"Commit": "'abc'", "Author": "Ada", "Message": "fix\n\nbody"}));
        assert_eq!((rows.len(), prose.as_str()), (2, "Commit history:"));
        assert!(keyed_records("Note: one\nmore text\nNote: two").is_none());
        assert!(keyed_records("Name: Ada\nRole: admin").is_none());
    }

    #[test]
    fn lines_of_items() {
        let none: Vec<String> = vec![];
        let (items, prose) = item_lines("[FILE] a.txt\n[DIR] src", &none).unwrap_or_default();
        assert_eq!((items, prose.as_str()), (vec![json!("[FILE] a.txt"), json!("[DIR] src")], ""));
        let t = "[FILE] a.txt      6 B\n[DIR] src   \n\nTotal: 1 files, 1 directories\nCombined size: 6 B";
        let (items, prose) = item_lines(t, &none).unwrap_or_default();
        assert_eq!(items.len(), 2);
        assert_eq!(prose, "Total: 1 files, 1 directories\nCombined size: 6 B");
        assert_eq!(item_lines("/tmp/x/a.txt", &none).map(|(i, _)| i.len()), Some(1));
        assert_eq!(item_lines("* main\n  feature-x", &none).map(|(i, _)| i.len()), Some(2));
        assert!(item_lines("Hello there.\nThis is a page of prose with words.", &none).is_none());
        assert!(item_lines("No matches found", &["search".to_string()]).is_none());
        let words = vec!["list".to_string(), "things".to_string()];
        assert_eq!(
            item_lines("Found 2:\nred apple\ngreen pear", &words).map(|(i, p)| (i.len(), p)),
            Some((2, "Found 2:".into()))
        );
    }

    #[test]
    fn tables_aligned_with_spaces() {
        let t = "APIVERSION   KIND        NAME          STATUS   AGE   LABELS\nv1           Namespace   default       Active   10d   a=b\nv1           Namespace   kube-system   Active   10d   \n";
        let (rows, prose) = aligned_table(t).unwrap_or_default();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[1],
            json!({"APIVERSION": "v1", "KIND": "Namespace", "NAME": "kube-system", "STATUS": "Active", "AGE": "10d", "LABELS": ""})
        );
        assert_eq!(prose, "");
        assert!(aligned_table("Hello  there\nhow are you").is_none());
        assert!(aligned_table("NAME\nx").is_none());
    }

    #[test]
    fn failure_text_is_only_a_leading_report() {
        assert!(is_failure_text("Error: repository not found"));
        assert!(is_failure_text("Failed to fetch https://x: 404"));
        assert!(!is_failure_text("Fetched 10 items. Note: the error log was truncated."));
        assert!(!is_failure_text("Errors found: 0"));
    }

    #[test]
    fn key_value_blocks() {
        assert_eq!(
            key_value_block("Title: Rust\nURL: https://rust-lang.org\nDescription: A language"),
            Some(
                json!({"Title": "Rust", "URL": "https://rust-lang.org", "Description": "A language"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default()
            )
        );
        assert!(key_value_block("Just a sentence: with a colon in it that goes on and on").is_none());
        // No value dropped: a key given twice, and a document of numbered lines, are no record.
        assert!(key_value_block("Received: from x\nReceived: from y\nSubject: hi").is_none());
        let rows: String = (0..100).map(|i| format!("row {i}: the quick brown fox\n")).collect();
        assert!(key_value_block(&rows).is_none());
    }

    #[test]
    fn tables_that_would_drop_a_cell_are_not_read_as_tables() {
        assert!(csv("a,a\n1,2\n").is_none());
        assert!(csv("a,b\n1,2\n").is_some());
        assert!(markdown_table("| a | a |\n|---|---|\n| 1 | 2 |").is_none());
        assert!(markdown_table("| a | b |\n|---|---|\n| 1 | 2 | 3 |").is_none());
        assert!(markdown_table("| a | b |\n|---|---|\n| 1 | 2 |").is_some());
        assert!(bullet_list("- a: 1, a: 2\n- a: 3, b: 4").is_none_or(|(items, _)| items.iter().all(|i| i.is_string())));
    }
}
