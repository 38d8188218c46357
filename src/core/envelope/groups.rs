//! Records written as groups of `- Key: value` bullets between rule lines (`---`, `----------`),
//! the way Context7's `resolve-library-id` and Terraform's `search_modules` answer. A group that
//! holds prose beside its bullets (a title, "Each result includes:") is a preamble or a legend:
//! it is the message, not a record. So is a first group whose values only describe the fields
//! that the records after it fill in.

use serde_json::{Map, Value};

/// A line of three or more `-`, `*`, `_` or `=` alone, or `--` (the C# SDK's weather sample).
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t == "--" || t.len() >= 3 && ['-', '*', '_', '='].iter().any(|r| t.chars().all(|c| c == *r))
}

/// `- Key: value` (or `* `, `• `, `**Key**:`, or a plain `Key: value` line), when the key reads
/// as a field name.
fn bullet_field(line: &str) -> Option<(String, String)> {
    let t = line.trim();
    let bullet = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")).or_else(|| t.strip_prefix("• "));
    // A plain line needs a value: `Each result includes:` introduces, it is no field.
    let (k, v) = match bullet {
        Some(item) => item.split_once(':')?,
        None => t.split_once(": ").filter(|(_, v)| !v.trim().is_empty())?,
    };
    let k = k.trim().trim_matches('*').trim_matches('`').trim();
    let named = k.chars().next().is_some_and(char::is_alphabetic);
    (named && k.len() <= 40 && k.split(' ').count() <= 4).then(|| (k.to_string(), v.trim().to_string()))
}

enum Group {
    /// Bullets, perhaps under a header line or two ("Available Libraries:").
    Record(Option<String>, Map<String, Value>),
    Prose(String),
}

/// Whether the line before a group's bullets announces a legend ("Each result includes:").
fn announces_legend(line: &str) -> bool {
    const CUES: &[&str] = &["each", "include", "field", "legend", "contain", "format", "column"];
    let l = line.trim().to_ascii_lowercase();
    l.ends_with(':') && CUES.iter().any(|c| l.contains(c))
}

/// One group's lines: a record when, after a header line or two, it is `Key: value` lines, a
/// line that is no field continuing the value before it (an alert's description over several
/// lines); else prose. A header that announces a legend makes the group prose.
fn read_group(lines: &[&str]) -> Option<Group> {
    let text = lines.join("\n");
    let lines: Vec<&str> = text.trim_matches('\n').lines().collect();
    let prose = || Some(Group::Prose(text.trim().to_string()));
    let start = lines.iter().position(|l| bullet_field(l).is_some())?;
    let header: Vec<&str> = lines[..start].iter().copied().filter(|l| !l.trim().is_empty()).collect();
    if header.len() > 2 || header.last().is_some_and(|l| announces_legend(l)) {
        return prose();
    }
    let mut m = Map::new();
    let mut last = String::new();
    for l in &lines[start..] {
        match bullet_field(l) {
            Some((k, v)) if !m.contains_key(&k) => {
                last = k.clone();
                m.insert(k, Value::String(v));
            }
            _ => {
                if let Some(Value::String(s)) = m.get_mut(&last) {
                    s.push('\n');
                    s.push_str(l.trim_end());
                }
            }
        }
    }
    for v in m.values_mut() {
        if let Value::String(s) = v {
            *s = s.trim_end().to_string();
        }
    }
    if m.len() < 2 {
        return prose();
    }
    let header = (!header.is_empty()).then(|| header.join("\n").trim().to_string());
    Some(Group::Record(header, m))
}

fn words(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.split_whitespace().count())
}

/// A first record that explains the fields of the others: the same keys, each value a phrase
/// ("The module ID (format: ...)") where most of the records hold a word or two.
fn is_legend(first: &Map<String, Value>, rest: &[Map<String, Value>]) -> bool {
    if rest.len() < 2 || !first.values().all(|v| words(v) >= 3) {
        return false;
    }
    let shared: Vec<&String> = first.keys().filter(|k| rest.iter().all(|r| r.contains_key(*k))).collect();
    let terse = shared
        .iter()
        .filter(|k| rest.iter().filter(|r| r.get(k.as_str()).is_some_and(|v| words(v) < 3)).count() * 2 > rest.len())
        .count();
    shared.len() * 2 >= first.len() && terse * 2 >= shared.len()
}

/// The records of a text made of bullet groups between rule lines, and its prose (preamble,
/// legend, trailer) joined; `None` when the text is not made that way.
pub fn rule_separated(text: &str) -> Option<(Vec<Value>, String)> {
    let mut groups: Vec<Vec<&str>> = vec![vec![]];
    for line in text.lines() {
        match is_rule(line) {
            true => groups.push(vec![]),
            false => groups.last_mut()?.push(line),
        }
    }
    if groups.len() < 2 {
        return None;
    }
    let mut records: Vec<Map<String, Value>> = vec![];
    let mut prose: Vec<String> = vec![];
    let legend = groups.iter().any(|g| g.iter().any(|l| announces_legend(l)));
    for g in groups.iter().filter_map(|g| read_group(g)) {
        match g {
            Group::Record(header, m) => {
                prose.extend(header);
                records.push(m);
            }
            Group::Prose(p) => prose.push(p),
        }
    }
    if records.first().is_some_and(|f| is_legend(f, &records[1..])) {
        let legend = records.remove(0);
        let lines = legend.iter().map(|(k, v)| format!("- {k}: {}", v.as_str().unwrap_or_default()));
        prose.insert(0, lines.collect::<Vec<_>>().join("\n"));
    }
    // A rule line or two inside a document (front matter) makes no list: two records at least,
    // one only under a legend, and more records than prose.
    if records.is_empty() || records.len() < prose.len() || records.len() < 2 && !legend {
        return None;
    }
    Some((records.into_iter().map(Value::Object).collect(), prose.join("\n\n")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_header_above_the_first_record_is_prose() {
        let t = "Available Libraries:\n\n- Title: Axum\n- ID: /tokio-rs/axum\n----------\n- Title: Axum Login\n- ID: /m/axum-login";
        let (rows, rest) = rule_separated(t).unwrap_or_default();
        assert_eq!((rows.len(), rest.as_str()), (2, "Available Libraries:"));
        assert_eq!(rows[0], json!({"Title": "Axum", "ID": "/tokio-rs/axum"}));
    }

    #[test]
    fn groups_between_rules_with_a_preamble() {
        let t = "Results:\n\nEach result includes:\n- ID: the id\n- Name: the name\n\n----------\n\n- ID: /a/b\n- Name: b\n----------\n- ID: /c/d\n- Name: d";
        let (rows, rest) = rule_separated(t).unwrap_or_default();
        assert_eq!(rows, vec![json!({"ID": "/a/b", "Name": "b"}), json!({"ID": "/c/d", "Name": "d"})]);
        assert!(rest.starts_with("Results:") && rest.contains("Each result includes"), "{rest}");
    }

    #[test]
    fn a_legend_without_prose_is_not_a_record() {
        let t = "- id: The identifier of the thing\n- size: The size in bytes\n---\n- id: a1\n- size: 10\n---\n- id: b2\n- size: 20\n---\n";
        let (rows, rest) = rule_separated(t).unwrap_or_default();
        assert_eq!(rows.len(), 2);
        assert!(rest.contains("The identifier"), "{rest}");
    }

    #[test]
    fn a_document_with_rules_is_no_list() {
        assert!(rule_separated("# Title\n\nSome text.\n\n---\n\nMore text.\n\n---\n\nEnd.").is_none());
        assert!(rule_separated("- a: 1\n- b: 2").is_none());
        assert!(rule_separated("---\ntitle: Notes\ndate: 2026-01-02\n---\n# Notes\n\nBody text.").is_none());
    }

    #[test]
    fn plain_key_value_groups_with_values_over_several_lines() {
        let t = "Event: Winter Storm Warning\nArea: Bighorn Mountains\nDescription: * WHAT...Heavy snow.\n\n* WHERE...Bighorn Mountains.\n--\nEvent: Wind Advisory\nArea: Cody Foothills\nDescription: Gusts to 60 mph.";
        let (rows, rest) = rule_separated(t).unwrap_or_default();
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[0]["Description"], json!("* WHAT...Heavy snow.\n\n* WHERE...Bighorn Mountains."));
        assert_eq!(rest, "");
    }
}
