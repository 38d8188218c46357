//! A tool's result against the tool's `outputSchema`. The spec: a tool that declares one MUST
//! return `structuredContent` that conforms to it. A result that is the tool's error
//! (`isError: true`) or a JSON-RPC error is not checked: the schema describes success.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::schema::validate::{self, Violation};

/// What the check found.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputCheck {
    Fits,
    /// structuredContent breaks the schema at these places.
    Breaks(Vec<Violation>),
    /// The tool declares an outputSchema, the result has no structuredContent.
    Missing,
    /// structuredContent of this many bytes, over the size checked (reading it would cost ten
    /// times its size).
    TooBig(usize),
    /// The schema cannot be used to validate: why.
    Unusable(String),
}

/// The places named in a one-line warning; the rest are counted.
const NAMED: usize = 3;

/// `reply` (a JSON-RPC reply's text) against `schema`; None when there is nothing to check (an
/// error, or no result object). structuredContent over `max` bytes is not read.
pub fn check(schema: &Value, reply: &str, max: usize) -> Option<OutputCheck> {
    #[derive(Deserialize)]
    struct Reply<'a> {
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Result<'a> {
        #[serde(borrow, default, rename = "structuredContent")]
        structured: Option<&'a RawValue>,
        #[serde(default, rename = "isError")]
        is_error: Option<Value>,
    }
    let result = crate::json_depth::parse_borrowed::<Reply>(reply).ok()?.result?;
    let result = crate::json_depth::parse_borrowed::<Result>(result.get()).ok()?;
    if result.is_error == Some(Value::Bool(true)) {
        return None;
    }
    let Some(sc) = result.structured.filter(|s| s.get() != "null") else { return Some(OutputCheck::Missing) };
    if sc.get().len() > max {
        return Some(OutputCheck::TooBig(sc.get().len()));
    }
    let value: Value = match crate::json_depth::parse(sc.get(), usize::MAX) {
        Ok(v) => v,
        Err(e) => return Some(OutputCheck::Unusable(format!("structuredContent cannot be read: {e}"))),
    };
    Some(match validate::validate(schema, &value) {
        Ok(v) if v.is_empty() => OutputCheck::Fits,
        Ok(v) => OutputCheck::Breaks(v),
        Err(e) => OutputCheck::Unusable(e),
    })
}

impl OutputCheck {
    /// What the check found, in one line (not sanitized: callers do). A result that breaks the
    /// schema is named without its places: [`OutputCheck::warning`] and the TUI's Split view
    /// add them each their own way.
    pub fn headline(&self) -> String {
        match self {
            OutputCheck::Fits => "structuredContent fits the tool's outputSchema".into(),
            OutputCheck::Breaks(_) => "structuredContent breaks the tool's outputSchema".into(),
            OutputCheck::Missing => "the tool declares an outputSchema but the result has no structuredContent".into(),
            OutputCheck::TooBig(n) => format!(
                "structuredContent is {:.1} MB: not checked against the outputSchema here",
                *n as f64 / (1 << 20) as f64
            ),
            OutputCheck::Unusable(why) => format!("not checked against the outputSchema: {why}"),
        }
    }

    /// One line on a result that breaks the tool's outputSchema (not sanitized: callers do);
    /// None when it fits or was not checked.
    pub fn warning(&self) -> Option<String> {
        match self {
            OutputCheck::Breaks(v) => {
                let named: Vec<String> = v.iter().take(NAMED).map(ToString::to_string).collect();
                let more = v.len().saturating_sub(NAMED);
                let more = if more > 0 { format!("; and {more} more") } else { String::new() };
                Some(format!("{}: {}{more}", self.headline(), named.join("; ")))
            }
            OutputCheck::Missing => Some(self.headline()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn checked(result: Value) -> Option<OutputCheck> {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        check(&schema, &json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string(), 1000)
    }

    #[test]
    fn a_result_is_checked_against_the_output_schema_unless_it_is_an_error() {
        let text = json!([{"type": "text", "text": "x"}]);
        assert_eq!(checked(json!({"content": text, "structuredContent": {"n": 1}})), Some(OutputCheck::Fits));
        let bad = checked(json!({"content": text, "structuredContent": {"n": "x"}}));
        let said = bad.and_then(|c| c.warning()).unwrap_or_default();
        assert_eq!(said, "structuredContent breaks the tool's outputSchema: /n: \"x\" is not of type \"integer\"");
        let none = checked(json!({"content": text})).and_then(|c| c.warning()).unwrap_or_default();
        assert!(none.contains("no structuredContent"), "{none}");
        assert_eq!(checked(json!({"content": text, "isError": true})), None);
        assert_eq!(check(&json!({}), r#"{"id":1,"error":{"code":1,"message":"m"}}"#, 10), None);
        let big = checked(json!({"content": text, "structuredContent": {"n": "x".repeat(2000)}}));
        assert!(matches!(big, Some(OutputCheck::TooBig(_))), "{big:?}");
        assert_eq!(big.and_then(|c| c.warning()), None);
    }
}
