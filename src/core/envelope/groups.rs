//! Records written as groups of `- Key: value` bullets between rule lines (`---`, `----------`),
//! the way Context7's `resolve-library-id` and Terraform's `search_modules` answer. A group that
//! holds prose beside its bullets (a title, "Each result includes:") is a preamble or a legend:
//! it is the message, not a record. So is a first group whose values only describe the fields
//! that the records after it fill in.

use serde_json::{Map, Value};

/// A line of three or more `-`, `*`, `_` or `=` alone.
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && ['-', '*', '_', '='].iter().any(|r| t.chars().all(|c| c == *r))
}

/// `- Key: value` (or `* `, `• `, `**Key**:`), when the key reads as a field name.
fn bullet_field(line: &str) -> Option<(String, String)> {
    let t = line.trim();
    let item = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")).or_else(|| t.strip_prefix("• "))?;
    let (k, v) = item.split_once(':')?;
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

/// One group's lines: a record when, after a header line or two, every line is a bullet field
/// or an indented continuation of the one before; else prose.
fn read_group(lines: &[&str]) -> Option<Group> {
    let lines: Vec<&str> = lines.iter().copied().filter(|l| !l.trim().is_empty()).collect();
    let prose = || Some(Group::Prose(lines.join("\n").trim().to_string()));
    let start = lines.iter().position(|l| bullet_field(l).is_some())?;
    let header = &lines[..start];
    if start > 2 || header.last().is_some_and(|l| announces_legend(l)) {
        return prose();
    }
    let mut m = Map::new();
    let mut last = String::new();
    for l in &lines[start..] {
        if let Some((k, v)) = bullet_field(l) {
            last = k.clone();
            m.entry(k).or_insert(Value::String(v));
        } else if l.starts_with([' ', '\t'])
            && let Some(Value::String(s)) = m.get_mut(&last)
        {
            s.push('\n');
            s.push_str(l.trim());
        } else {
            return prose();
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
    // A rule line or two inside a document makes no list: the records must outnumber the prose.
    if records.is_empty() || records.len() < prose.len() || records.len() < 2 && prose.len() > 1 {
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
    }
}
