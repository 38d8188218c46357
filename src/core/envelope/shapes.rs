//! Shapes of a list that hold no array: records in a map keyed by their ids (YOURLS's
//! `{"links": {"link_1": {...}, "link_2": {...}}}`), and a list tool's "nothing found" sentence.

use serde_json::{Map, Value};

/// Whether a map key reads as a record's id: it holds a digit (`link_3`, `42`, `1.0.0`), or a
/// member of the record says it (`{"abc": {"keyword": "abc"}}`) or ends a link with it
/// (`{"gh": {"shorturl": "https://sho.rt/gh"}}`).
fn id_like(key: &str, record: &Map<String, Value>) -> bool {
    let tail = format!("/{key}");
    key.chars().any(|c| c.is_ascii_digit())
        || record.values().filter_map(Value::as_str).any(|s| s == key || s.ends_with(&tail))
}

/// The records of `v` when it is a map of like records keyed by their ids.
pub fn keyed_records(v: &Value) -> Option<Vec<&Map<String, Value>>> {
    let m = v.as_object().filter(|m| !m.is_empty())?;
    let records: Vec<&Map<String, Value>> = m.values().map(Value::as_object).collect::<Option<_>>()?;
    let first = records.first()?;
    let alike =
        records.iter().all(|r| !r.is_empty() && first.keys().filter(|k| r.contains_key(*k)).count() * 2 >= first.len());
    let ids = m.iter().zip(&records).all(|((k, _), r)| id_like(k, r));
    (alike && ids).then_some(records)
}

/// The key of `obj`'s member that is a keyed map of records, the largest when there are several.
pub fn keyed_map_key(obj: &Map<String, Value>) -> Option<String> {
    obj.iter()
        .filter_map(|(k, v)| keyed_records(v).map(|r| (r.len(), k)))
        .max_by_key(|(n, _)| *n)
        .map(|(_, k)| k.clone())
}

/// The keyed map's records as an array (values as sent), and its keys.
pub fn into_records(v: Value) -> (Value, Value) {
    match v {
        Value::Object(m) => {
            let keys = m.keys().cloned().map(Value::String).collect();
            (Value::Array(m.into_iter().map(|(_, r)| r).collect()), Value::Array(keys))
        }
        other => (other, Value::Null),
    }
}

/// A short text that says a search or listing found nothing ("No search results found",
/// "No documentation libraries found matching your query.", "Found 0 tasks", "0 results").
pub fn says_nothing_found(text: &str) -> bool {
    static FORMS: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let t = text.trim();
    if t.is_empty() || t.len() > 240 || t.lines().count() > 3 {
        return false;
    }
    let re = FORMS.get_or_init(|| {
        regex::Regex::new(
            r"(?i)^(?:no\b[^.\n]{0,80}?\b(?:found|match(?:es|ed|ing)?|results?|available|exist)\b|found\s+(?:0|zero|no)\b|(?:there (?:are|were)\s+)?(?:0|zero|no)\s+(?:\w+\s+){0,2}(?:found|returned|matched|results?)\b|no\s+(?:\w+\s+){0,2}\w+s(?:\s+(?:for|in|on|at|yet|were|are)\b|\s*[.!]?\s*$)|nothing (?:found|matched|to show))",
        )
        .ok()
    });
    re.as_ref().is_some_and(|r| r.is_match(t))
}

/// A word that names many things (`alerts`, `tasks`), not `status` or `address`.
fn plural(word: &str) -> bool {
    word.len() > 3 && word.ends_with('s') && !["ss", "us", "is"].iter().any(|e| word.ends_with(e))
}

/// Whether a tool answers with a list: its name says it searches or lists, or names many things
/// (`get_alerts`), or it takes a paging argument, or its description says it returns a list.
pub fn list_shaped(words: &[String], descriptor: Option<&Value>) -> bool {
    const VERBS: &[&str] = &["search", "list", "find", "query", "lookup", "browse", "scan", "resolve"];
    let pages = descriptor
        .and_then(|d| d.get("inputSchema"))
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| p.keys().any(|k| super::position::kind_of(k).is_some()));
    let described = descriptor
        .and_then(|d| d.get("description"))
        .and_then(Value::as_str)
        .is_some_and(|d| d.to_ascii_lowercase().contains("list of"));
    words.iter().any(|w| VERBS.contains(&w.as_str())) || words.last().is_some_and(|w| plural(w)) || pages || described
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_keyed_by_id() {
        let links = json!({"link_3": {"shorturl": "a", "clicks": "4"}, "link_1": {"shorturl": "b", "clicks": "2"}});
        assert_eq!(keyed_records(&links).map(|r| r.len()), Some(2));
        let m = json!({"links": links, "results": []});
        assert_eq!(m.as_object().and_then(keyed_map_key).as_deref(), Some("links"));
        // An entity's nested objects are no records: their keys are field names.
        assert!(keyed_records(&json!({"owner": {"login": "a"}, "license": {"key": "mit"}})).is_none());
        assert!(keyed_records(&json!({"self": {"href": "x"}, "next": {"href": "y"}})).is_none());
        assert!(keyed_records(&json!({"abc": {"keyword": "abc", "url": "u"}})).is_some());
        assert!(
            keyed_records(&json!({"gh": {"shorturl": "https://sho.rt/gh"}, "rs": {"shorturl": "https://sho.rt/rs"}}))
                .is_some()
        );
    }

    #[test]
    fn nothing_found() {
        for t in [
            "No search results found",
            "No documentation libraries found matching your query.",
            "Found 0 tasks.",
            "0 results",
            "No matching issues.",
            "No active alerts for this state.",
            "No tasks",
        ] {
            assert!(says_nothing_found(t), "{t}");
        }
        assert!(list_shaped(&["get".into(), "alerts".into()], None));
        assert!(
            !list_shaped(&["get".into(), "status".into()], None)
                && !list_shaped(&["get".into(), "weather".into()], None)
        );
        for t in [
            "Now found it",
            "Notes: 3 found",
            "No.",
            "No problem, the file was saved",
            "Created 0 files in /tmp because the disk is full and the quota is exhausted; see the log",
        ] {
            assert!(!says_nothing_found(t), "{t}");
        }
    }
}
