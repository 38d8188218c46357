//! Tool names: the specification's rule (SEP-986) and the hosts' documented ones.

use std::collections::HashMap;

use serde_json::Value;

use super::Finding;

/// SEP-986: 1 to 128 characters.
const SPEC_MAX: usize = 128;
/// Gemini CLI cuts names longer than this.
const GEMINI_MAX: usize = 63;
/// OpenAI function names: at most this many.
const OPENAI_MAX: usize = 64;

fn spec_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

fn openai_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

#[cfg(test)]
pub fn check(tools: &[Value]) -> Vec<Finding> {
    let mut names = Names::default();
    let mut out: Vec<Finding> = tools.iter().flat_map(|t| names.add(t)).collect();
    out.extend(names.repeated());
    out
}

/// The names met so far, tool by tool (a list linted one tool at a time keeps only these).
#[derive(Default)]
pub struct Names {
    seen: HashMap<String, usize>,
}

impl Names {
    /// The findings about `tool`'s name, the name counted.
    pub fn add(&mut self, tool: &Value) -> Vec<Finding> {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            return vec![Finding::new(
                "input-schema/object",
                None,
                Some("/name".into()),
                "a tool without a name (a string)",
            )];
        };
        match self.seen.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                self.seen.insert(name.to_string(), 1);
            }
        }
        one(name)
    }

    /// A finding for each name more than one tool has.
    pub fn repeated(self) -> Vec<Finding> {
        let mut out = vec![];
        for (name, n) in self.seen.into_iter().filter(|(_, n)| *n > 1) {
            out.push(Finding::new(
                "tool-name/unique",
                Some(&name),
                Some("/name".into()),
                format!("{n} tools are named {name:?}: a call by name reaches only one of them"),
            ));
        }
        out
    }
}

fn one(name: &str) -> Vec<Finding> {
    let mut out = vec![];
    let at = || Some("/name".to_string());
    let len = name.chars().count();
    if len == 0 || len > SPEC_MAX {
        out.push(Finding::new(
            "tool-name/length",
            Some(name),
            at(),
            format!("the name has {len} characters (1 to {SPEC_MAX})"),
        ));
    }
    let bad: String = unique(name.chars().filter(|c| !spec_char(*c)));
    if !bad.is_empty() {
        out.push(Finding::new(
            "tool-name/characters",
            Some(name),
            at(),
            format!("the name holds {bad:?}; use only letters, digits, _ - ."),
        ));
    }
    if !bad.is_empty() || len > GEMINI_MAX {
        out.push(Finding::new(
            "host/gemini-cli/name",
            Some(name),
            at(),
            format!("Gemini CLI shows this tool as {:?}", gemini_name(name)),
        ));
    }
    let bad_openai: String = unique(name.chars().filter(|c| !openai_char(*c)));
    if !bad_openai.is_empty() || len > OPENAI_MAX {
        let why = if bad_openai.is_empty() {
            format!("{len} characters, over {OPENAI_MAX}")
        } else {
            format!("it holds {bad_openai:?}")
        };
        out.push(Finding::new(
            "host/openai/name",
            Some(name),
            at(),
            format!("not a valid OpenAI function name: {why}"),
        ));
    }
    out
}

/// Each character once, in order of first appearance.
fn unique(chars: impl Iterator<Item = char>) -> String {
    let mut out = String::new();
    for c in chars {
        if !out.contains(c) {
            out.push(c);
        }
    }
    out
}

/// The name Gemini CLI's documented sanitization gives: other characters become `_`, a name over
/// 63 characters keeps its start and end around `___`.
pub fn gemini_name(name: &str) -> String {
    let clean: Vec<char> = name.chars().map(|c| if spec_char(c) { c } else { '_' }).collect();
    if clean.len() <= GEMINI_MAX {
        return clean.into_iter().collect();
    }
    let keep = (GEMINI_MAX - 3) / 2;
    let head: String = clean[..keep].iter().collect();
    let tail: String = clean[clean.len() - (GEMINI_MAX - 3 - keep)..].iter().collect();
    format!("{head}___{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(names: &[&str]) -> Vec<&'static str> {
        let tools: Vec<Value> = names.iter().map(|n| json!({"name": n})).collect();
        check(&tools).into_iter().map(|f| f.rule).collect()
    }

    #[test]
    fn names_by_the_spec_and_the_hosts() {
        assert!(rules(&["get_weather", "DATA_EXPORT_v2", "a-b"]).is_empty());
        assert_eq!(rules(&["get weather"]), ["tool-name/characters", "host/gemini-cli/name", "host/openai/name"]);
        // Dots pass the spec and Gemini CLI, not OpenAI.
        assert_eq!(rules(&["admin.list"]), ["host/openai/name"]);
        let long = "x".repeat(129);
        assert_eq!(rules(&[&long]), ["tool-name/length", "host/gemini-cli/name", "host/openai/name"]);
        assert_eq!(rules(&[&"y".repeat(64)]), ["host/gemini-cli/name"]);
        assert_eq!(rules(&["", ""]).iter().filter(|r| **r == "tool-name/unique").count(), 1);
        assert_eq!(gemini_name("a b"), "a_b");
        assert_eq!(gemini_name(&"z".repeat(100)).chars().count(), 63);
    }
}
