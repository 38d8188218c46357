//! A next position that no JSON field holds: named in prose ("call the fetch tool with a
//! start_index of 5000", "pass cursor=abc", "Page 1 of 3", "Showing 1-50 of 200"), or taught by a
//! hint. Prose is read only for the tool's own paging arguments, so a page that merely mentions
//! "page 2" is not paged unless the tool takes a page.

use regex::Regex;
use serde_json::Value;

use super::key_norm as norm;
use super::pager::candidates;
use super::{PageKind, Pagination};

/// The kind of position an argument of this name takes, if it is a paging argument.
pub fn kind_of(argument: &str) -> Option<PageKind> {
    let n = norm(argument);
    [PageKind::Offset, PageKind::Page, PageKind::Before, PageKind::Cursor, PageKind::After]
        .into_iter()
        .find(|k| candidates(*k).contains(&n))
}

fn properties(schema: Option<&Value>) -> Vec<(String, Option<String>)> {
    let Some(props) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else { return vec![] };
    props.iter().map(|(k, v)| (k.clone(), v.get("type").and_then(Value::as_str).map(str::to_string))).collect()
}

/// A paging argument of the tool named in `text` next to a value.
pub fn in_prose(text: &str, schema: Option<&Value>) -> Option<Pagination> {
    if let Some(p) = counted(text, schema) {
        return Some(p);
    }
    for (name, ty) in properties(schema) {
        let Some(kind) = kind_of(&name) else { continue };
        let numeric = matches!(ty.as_deref(), Some("integer" | "number")) || kind == PageKind::Offset;
        if let Some(value) = named_value(text, &name, numeric) {
            return Some(Pagination {
                kind: Some(kind),
                has_more: Some(true),
                next_offset: Some(value),
                argument: Some(name),
                ..Pagination::default()
            });
        }
    }
    None
}

/// `name of 5000`, `name=5000`, `name: "abc"`, `` `name`: abc ``.
fn named_value(text: &str, name: &str, numeric: bool) -> Option<Value> {
    let value = if numeric { r"(\d{1,18})\b" } else { r"([A-Za-z0-9_\-+/=.:]{1,512})" };
    let sep = if numeric { r"\s*(?:=|:|\bof\b|\bto\b|\bis\b|\bset to\b)\s*" } else { r"\s*(?:=|:)\s*" };
    let re = Regex::new(&format!(r#"\b{}\b[`'"*]*{sep}[`'"*]*{value}"#, regex::escape(name))).ok()?;
    let caps = re.captures(text)?;
    let raw = caps.get(1)?.as_str().trim_end_matches(['.', ',', ':']);
    if numeric {
        raw.parse::<u64>().ok().map(Value::from)
    } else {
        (!raw.is_empty()).then(|| Value::String(raw.to_string()))
    }
}

/// "Page 1 of 3" (with a page argument) and "Showing 1-50 of 200" (with an offset argument).
fn counted(text: &str, schema: Option<&Value>) -> Option<Pagination> {
    let props = properties(schema);
    let takes = |k: PageKind| props.iter().find(|(n, _)| kind_of(n) == Some(k)).map(|(n, _)| n.clone());
    if let Some(arg) = takes(PageKind::Page)
        && let Some(c) = Regex::new(r"(?i)\bpage\s+(\d{1,9})\s*(?:of|/)\s*(\d{1,9})\b").ok()?.captures(text)
    {
        let page: u64 = c[1].parse().ok()?;
        let total: u64 = c[2].parse().ok()?;
        let more = page < total;
        return Some(Pagination {
            kind: Some(PageKind::Page),
            page: Some(page),
            total_pages: Some(total),
            has_more: Some(more),
            next_offset: more.then(|| Value::from(page + 1)),
            argument: Some(arg),
            ..Pagination::default()
        });
    }
    if let Some(arg) = takes(PageKind::Offset)
        && let Some(c) =
            Regex::new(r"(?i)\bshowing\s+(\d{1,12})\s*(?:-|–|to)\s*(\d{1,12})\s+of\s+(\d{1,12})\b").ok()?.captures(text)
    {
        let first: u64 = c[1].parse().ok()?;
        let last: u64 = c[2].parse().ok()?;
        let total: u64 = c[3].parse().ok()?;
        let more = last < total;
        return Some(Pagination {
            kind: Some(PageKind::Offset),
            offset: Some(first.saturating_sub(1)),
            has_more: Some(more),
            next_offset: more.then(|| Value::from(last)),
            argument: Some(arg),
            ..Pagination::default()
        });
    }
    None
}

/// A list's total stated in prose: "Total results: 1342", "total: 57", "(1,204 total)",
/// "Showing 1-50 of 200". A count of what was returned ("Found 3 indices") is no total.
pub fn total_in_prose(text: &str) -> Option<u64> {
    const NUMBER: &str = r"(\d{1,3}(?:,\d{3})+|\d{1,15})\b";
    let forms = [
        format!(r"(?i)\btotal(?:\s+(?:results|count|hits|matches|items|records))?\s*[:=]\s*{NUMBER}"),
        format!(r"(?i)\b{NUMBER}\s+(?:results\s+|items\s+|records\s+)?(?:in\s+)?total\b"),
        format!(r"(?i)\bshowing\s+\d{{1,12}}\s*(?:-|–|to)\s*\d{{1,12}}\s+of\s+{NUMBER}"),
    ];
    forms.iter().find_map(|f| {
        let caps = Regex::new(f).ok()?.captures(text)?;
        caps.get(1)?.as_str().replace(',', "").parse().ok()
    })
}

/// "Found 37 issues": a count the text gives for what the tool found (which may be the whole
/// list or this page only: the caller takes it as a total only when it is larger than the page).
pub fn found_in_prose(text: &str) -> Option<u64> {
    static FORM: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
    let re =
        FORM.get_or_init(|| Regex::new(r"(?i)^\W{0,3}found\s+(\d{1,3}(?:,\d{3})+|\d{1,15})\s+[a-z]").ok()).as_ref()?;
    re.captures(text.trim_start())?.get(1)?.as_str().replace(',', "").parse().ok()
}

/// The pagination a hint describes: the position found at its path or by its pattern.
pub fn from_hint(position: Option<Value>, argument: Option<&str>) -> Pagination {
    let position = position.filter(|v| match v {
        Value::Null | Value::Bool(false) => false,
        Value::String(s) => !s.is_empty(),
        _ => true,
    });
    let kind = argument.and_then(kind_of).unwrap_or(match &position {
        Some(Value::Number(_)) => PageKind::Offset,
        _ => PageKind::Cursor,
    });
    Pagination {
        kind: Some(kind),
        has_more: Some(position.is_some()),
        next_offset: position,
        argument: argument.map(str::to_string),
        ..Pagination::default()
    }
}

/// The first group of `pattern` in any of `texts`, a number when it reads as one.
pub fn by_pattern(pattern: &str, texts: &[&str]) -> Option<Value> {
    let re = Regex::new(pattern).ok()?;
    texts.iter().find_map(|t| {
        let raw = re.captures(t)?.get(1)?.as_str().to_string();
        Some(raw.parse::<u64>().map(Value::from).unwrap_or(Value::String(raw)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_n_things() {
        assert_eq!(found_in_prose("Found 37 issues"), Some(37));
        assert_eq!(found_in_prose("Found 1,204 results for \"x\""), Some(1204));
        assert_eq!(found_in_prose("I found 3 issues"), None);
        assert_eq!(found_in_prose("Found issues: 3"), None);
    }
    use serde_json::json;

    #[test]
    fn totals_stated_in_prose() {
        assert_eq!(total_in_prose("Total results: 1342, showing 2."), Some(1342));
        assert_eq!(total_in_prose("Issues (1,204 total)"), Some(1204));
        assert_eq!(total_in_prose("total: 57"), Some(57));
        assert_eq!(total_in_prose("Showing 1-50 of 200 results"), Some(200));
        assert_eq!(total_in_prose("57 results in total"), Some(57));
        assert_eq!(total_in_prose("Found 3 indices:"), None);
        assert_eq!(total_in_prose("The total was paid in 3 installments"), None);
    }

    #[test]
    fn a_position_named_in_prose() {
        let schema = json!({"properties": {"url": {"type": "string"}, "max_length": {"type": "integer"}, "start_index": {"type": "integer"}}});
        let t = "<error>Content truncated. Call the fetch tool with a start_index of 5000 to get more content.</error>";
        let p = in_prose(t, Some(&schema)).unwrap_or_default();
        assert_eq!(
            (p.kind, p.has_more, p.next_offset, p.argument.as_deref()),
            (Some(PageKind::Offset), Some(true), Some(json!(5000)), Some("start_index"))
        );
        let schema = json!({"properties": {"cursor": {"type": "string"}}});
        let p = in_prose("More results: pass cursor=\"eyJwIjoyfQ==\".", Some(&schema)).unwrap_or_default();
        assert_eq!(p.next_offset, Some(json!("eyJwIjoyfQ==")));
        assert!(in_prose("The cursor parameter pages results.", Some(&schema)).is_none());
        assert!(in_prose("start_index of 5000", None).is_none());
    }

    #[test]
    fn counted_pages_need_a_paging_argument() {
        let schema = json!({"properties": {"page": {"type": "integer"}}});
        let p = in_prose("Page 1 of 3. Call again with page=2.", Some(&schema)).unwrap_or_default();
        assert_eq!((p.next_offset, p.has_more), (Some(json!(2)), Some(true)));
        let p = in_prose("Page 3 of 3", Some(&schema)).unwrap_or_default();
        assert_eq!((p.next_offset, p.has_more), (None, Some(false)));
        assert!(in_prose("Page 1 of 3", Some(&json!({"properties": {"q": {}}}))).is_none());
        let schema = json!({"properties": {"offset": {"type": "integer"}}});
        let p = in_prose("Showing 1-50 of 200 results", Some(&schema)).unwrap_or_default();
        assert_eq!((p.offset, p.next_offset), (Some(0), Some(json!(50))));
    }
}
