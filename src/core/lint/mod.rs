//! `mcplens lint`: what a server sends that the specification forbids or discourages, or that a
//! host's documented limits would refuse or rewrite. Every rule names its source (a section of
//! the specification, or the host's own documentation) in `rules::RULES`; a finding carries the
//! rule's id, its severity, where it was found and what to change.
//!
//! The subject is what the server listed (live, or a snapshot file) and, from a recording, what
//! happened in a session (results, errors, pages, notifications).

mod annotations;
pub mod apps;
mod hosts;
mod names;
pub mod rules;
mod schema;
pub mod server_card;
pub mod server_json;
pub mod session;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

pub use apps::ViewRead;
pub use rules::{RULES, Rule, Severity};
pub use session::SessionFacts;

/// One problem found.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    /// The tool it is about, when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// A JSON pointer into the tool's descriptor (or the server's result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub message: String,
    pub source: &'static str,
}

impl Finding {
    pub fn new(rule: &'static str, tool: Option<&str>, at: Option<String>, message: impl Into<String>) -> Finding {
        let r = rules::rule(rule);
        debug_assert!(r.is_some(), "lint rule {rule} is not in RULES");
        Finding {
            rule,
            severity: r.map(|r| r.severity).unwrap_or(Severity::Warning),
            tool: tool.map(str::to_string),
            at,
            message: message.into(),
            source: r.map(|r| r.source).unwrap_or(""),
        }
    }
}

/// What is linted.
#[derive(Debug, Default)]
pub struct Subject {
    /// The server's initialize (or discover) result.
    pub server: Option<Value>,
    /// The tool descriptors, as sent.
    pub tools: Vec<Value>,
    /// What a recorded session shows, when the subject came from one.
    pub session: Option<SessionFacts>,
    /// The MCP Apps views the tools declare, as read (live lint only).
    pub views: Vec<ViewRead>,
}

/// Every finding, the most severe first, then by tool and rule.
pub fn lint(subject: &Subject) -> Vec<Finding> {
    let mut out = names::check(&subject.tools);
    out.extend(hosts::check(&subject.tools));
    for tool in &subject.tools {
        out.extend(tool_findings(tool));
    }
    for view in &subject.views {
        out.extend(apps::check_view(view));
    }
    if let Some(facts) = &subject.session {
        out.extend(session::check(facts, subject));
    }
    sorted(out)
}

/// Every finding about tools given as their texts (a snapshot's, a listing's): each is read,
/// checked and dropped in turn, so a list is never held as values all at once (a `Value` costs
/// 10 to 30 times its text). `views` as in [`Subject::views`].
pub fn lint_texts(tools: &[&RawValue], views: &[ViewRead], max_depth: usize) -> Vec<Finding> {
    let mut names = names::Names::default();
    let mut out = hosts::check_count(tools.len());
    for raw in tools {
        // Past the depth limit: left out, as a listing leaves it out.
        let Ok(tool) = crate::json_depth::parse::<Value>(raw.get(), max_depth) else { continue };
        out.extend(names.add(&tool));
        out.extend(tool_findings(&tool));
        crate::deep::drop_value(tool);
    }
    out.extend(names.repeated());
    for view in views {
        out.extend(apps::check_view(view));
    }
    sorted(out)
}

/// The findings about one tool's descriptor, its name's apart.
fn tool_findings(tool: &Value) -> Vec<Finding> {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    let mut out = schema::check(name, tool);
    out.extend(annotations::check(name, tool));
    out.extend(apps::check_tool(name, tool));
    out
}

/// The most severe first, then by tool and rule.
fn sorted(mut out: Vec<Finding>) -> Vec<Finding> {
    out.sort_by(|a, b| a.severity.cmp(&b.severity).then_with(|| a.tool.cmp(&b.tool)).then_with(|| a.rule.cmp(b.rule)));
    out
}

/// The findings about one tool (for the TUI's marks).
pub fn worst_for<'a>(findings: &'a [Finding], tool: &str) -> Option<&'a Finding> {
    findings.iter().filter(|f| f.tool.as_deref() == Some(tool)).min_by_key(|f| f.severity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Tools read one at a time from their texts give the findings the whole list gives.
    #[test]
    fn texts_are_linted_as_values_are() {
        let tools = vec![
            json!({"name": "get weather", "inputSchema": {"type": "object", "properties": {"q": {"type": "strin"}}}}),
            json!({"name": "dup", "inputSchema": {"type": "object", "additionalProperties": false}}),
            json!({"name": "dup", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}}),
            json!({"inputSchema": {"type": "object"}}),
            json!({"name": "x".repeat(70), "inputSchema": {"type": "array"}, "annotations": {"readOnlyHint": 1}}),
        ];
        let texts: Vec<String> = tools.iter().map(Value::to_string).collect();
        let raws: Vec<&RawValue> = texts.iter().filter_map(|t| serde_json::from_str(t).ok()).collect();
        let show = |f: Vec<Finding>| {
            f.iter().map(|f| format!("{} {:?} {:?} {}", f.rule, f.tool, f.at, f.message)).collect::<Vec<_>>()
        };
        let whole = show(lint(&Subject { tools, ..Subject::default() }));
        assert!(whole.len() > 5, "{whole:?}");
        assert_eq!(show(lint_texts(&raws, &[], 100)), whole);
    }
}
