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
mod members;
mod meta_pieces;
mod names;
pub mod rules;
mod schema;
pub mod server_card;
pub mod server_json;
pub mod session;
mod spans;
mod text_shape;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use apps::ViewRead;
pub use rules::{RULES, Rule, Severity};
pub use session::SessionFacts;

/// One problem found.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    /// The tool it is about, when it is about one (null in JSON otherwise: every finding has
    /// the same members, for scripts).
    pub tool: Option<String>,
    /// A JSON pointer into the tool's descriptor (or the server's result), when the finding is
    /// about one place.
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
    /// The tool descriptors, as sent (each read in turn: see [`lint_texts`]).
    pub tools: Vec<Box<RawValue>>,
    /// What a recorded session shows, when the subject came from one.
    pub session: Option<SessionFacts>,
    /// The MCP Apps views the tools declare, as read (live lint only).
    pub views: Vec<ViewRead>,
}

/// Every finding, the most severe first, then by tool and rule.
pub fn lint(subject: &Subject, max_depth: usize) -> Vec<Finding> {
    let tools: Vec<&RawValue> = subject.tools.iter().map(|t| &**t).collect();
    let mut out = lint_texts(&tools, &subject.views, max_depth);
    if let Some(facts) = &subject.session {
        out.extend(session::check(facts, subject, max_depth));
    }
    sorted(out)
}

/// Every finding about tools given as their texts (a snapshot's, a listing's): each is read,
/// checked and dropped in turn, its schemas read from their text one node at a time, so neither
/// a list nor a schema is ever held as a `Value` (which costs 10 to 30 times its text). `views`
/// as in [`Subject::views`].
pub fn lint_texts(tools: &[&RawValue], views: &[ViewRead], max_depth: usize) -> Vec<Finding> {
    let mut names = names::Names::default();
    let mut out = hosts::check_count(tools.len());
    for raw in tools {
        // Past the depth limit: left out, as a listing leaves it out.
        if crate::json_depth::depth(raw.get()) > max_depth {
            continue;
        }
        let Some(tool) = Slim::of(raw, max_depth) else { continue };
        out.extend(names.add(&tool.desc));
        out.extend(tool_findings(&tool, max_depth));
        crate::deep::drop_value(tool.desc);
    }
    out.extend(names.repeated());
    for view in views {
        out.extend(apps::check_view(view));
    }
    sorted(out)
}

/// A tool's descriptor as the lint reads it: its members as a `Value` but for its schemas, which
/// stay text.
pub struct Slim {
    pub desc: Value,
    pub input: Option<Box<RawValue>>,
    pub output: Option<Box<RawValue>>,
}

impl Slim {
    /// `raw` read; `None` if it is not JSON within `max_depth`.
    pub fn of(raw: &RawValue, max_depth: usize) -> Option<Slim> {
        let Some(list) = members::of(raw) else { return Slim::of_value(raw, max_depth) };
        let mut slim = Slim { desc: Value::Null, input: None, output: None };
        let mut desc = Map::new();
        for (k, v) in list {
            match &*k {
                "inputSchema" => slim.input = Some(v.to_owned()),
                "outputSchema" => slim.output = Some(v.to_owned()),
                _ => {
                    let v = crate::json_depth::parse(v.get(), max_depth).unwrap_or(Value::Null);
                    desc.insert(k.into_owned(), v);
                }
            }
        }
        slim.desc = Value::Object(desc);
        Some(slim)
    }

    /// A descriptor the members reader refuses (not an object, or JSON read approximated).
    fn of_value(raw: &RawValue, max_depth: usize) -> Option<Slim> {
        let mut desc: Value = crate::json_depth::parse(raw.get(), max_depth).ok()?;
        let mut text = |key: &str| {
            let v = desc.as_object_mut()?.remove(key)?;
            let text = crate::deep::compact(&v);
            crate::deep::drop_value(v);
            RawValue::from_string(text).ok()
        };
        let (input, output) = (text("inputSchema"), text("outputSchema"));
        Some(Slim { desc, input, output })
    }
}

/// The findings about one tool's descriptor, its name's apart.
fn tool_findings(tool: &Slim, max_depth: usize) -> Vec<Finding> {
    let name = tool.desc.get("name").and_then(Value::as_str).unwrap_or("");
    let mut out = schema::check(name, tool.input.as_deref(), tool.output.as_deref(), max_depth);
    out.extend(annotations::check(name, &tool.desc));
    out.extend(apps::check_tool(name, &tool.desc));
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

    /// Each rule on a list of tools read from their texts, schemas included.
    #[test]
    fn texts_are_linted_tool_by_tool() {
        let tools = [
            json!({"name": "get weather", "inputSchema": {"type": "object", "properties": {"q": {"type": "strin"}}}}),
            json!({"name": "dup", "inputSchema": {"type": "object", "additionalProperties": false}}),
            json!({"name": "dup", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}}),
            json!({"inputSchema": {"type": "object"}}),
            json!({"name": "x".repeat(70), "inputSchema": {"type": "array"}, "annotations": {"readOnlyHint": 1}}),
            json!({"name": "o", "inputSchema": {"type": "object"}, "outputSchema": {"type": "string"}}),
            json!(5),
        ];
        let subject = Subject {
            tools: tools.iter().filter_map(|t| RawValue::from_string(t.to_string()).ok()).collect(),
            ..Subject::default()
        };
        let found: Vec<String> =
            lint(&subject, 100).iter().map(|f| format!("{} {}", f.rule, f.tool.as_deref().unwrap_or("-"))).collect();
        for want in [
            "schema/invalid get weather",
            "tool-name/characters get weather",
            "tool-name/unique dup",
            "host/gemini-cli/schema-stripped dup",
            "schema/dialect dup",
            "input-schema/object -",
            "input-schema/object xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "output-schema/object o",
        ] {
            assert!(found.iter().any(|f| f == want), "{want} not in {found:?}");
        }
    }
}
