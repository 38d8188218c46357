//! `completion/complete`: suggestions for a prompt argument or a resource template variable.

use serde_json::{Map, Value, json};

use super::rpc::Answered;
use super::session::{CallOptions, Session};
use crate::error::Result;

/// What is being completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionRef {
    /// A prompt, by name.
    Prompt(String),
    /// A resource template, by its `uriTemplate`.
    Template(String),
}

impl CompletionRef {
    fn to_json(&self) -> Value {
        match self {
            CompletionRef::Prompt(name) => json!({ "type": "ref/prompt", "name": name }),
            CompletionRef::Template(uri) => json!({ "type": "ref/resource", "uri": uri }),
        }
    }
}

/// The server's suggestions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Completion {
    /// Each suggestion; a value that is not a string is shown as its JSON text (and warned about).
    pub values: Vec<String>,
    /// How many suggestions there are in all, when the server says.
    pub total: Option<u64>,
    pub has_more: bool,
}

fn read(result: &Value, problems: &mut Vec<String>) -> Completion {
    let Some(c) = result.get("completion") else {
        problems.push("the result has no completion object".into());
        return Completion::default();
    };
    let values = match c.get("values") {
        Some(Value::Array(vs)) => vs
            .iter()
            .map(|v| match v {
                Value::String(s) => s.clone(),
                other => {
                    problems.push(format!("a completion value is not a string: {other}"));
                    other.to_string()
                }
            })
            .collect(),
        _ => {
            problems.push("completion.values is not an array".into());
            vec![]
        }
    };
    if values.len() > 100 {
        problems.push(format!("{} values, over the 100 MCP allows", values.len()));
    }
    Completion {
        values,
        total: c.get("total").and_then(Value::as_u64),
        has_more: c.get("hasMore").and_then(Value::as_bool).unwrap_or(false),
    }
}

impl Session {
    /// Suggestions for `argument` (a prompt argument or template variable) given what was typed
    /// so far (`partial`) and the values already chosen for the others (`context`).
    pub async fn complete(
        &self,
        reference: &CompletionRef,
        argument: &str,
        partial: &str,
        context: &[(String, String)],
    ) -> Result<Answered<Completion>> {
        let mut params = json!({
            "ref": reference.to_json(),
            "argument": { "name": argument, "value": partial },
        });
        if !context.is_empty() {
            let args: Map<String, Value> = context.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
            params["context"] = json!({ "arguments": args });
        }
        let answer = self.ask("completion/complete", Some(params), &CallOptions::default()).await?;
        let mut problems = vec![];
        let mut answer = answer.map(|result| read(&result, &mut problems));
        self.warn(&format!("completion/complete {argument}"), &mut answer, problems);
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_are_read() {
        let mut p = vec![];
        let c = read(&json!({"completion": {"values": ["a", 2], "total": 9, "hasMore": true}}), &mut p);
        assert_eq!(c, Completion { values: vec!["a".into(), "2".into()], total: Some(9), has_more: true });
        assert_eq!(p, ["a completion value is not a string: 2"]);
        let mut p = vec![];
        assert_eq!(read(&json!({}), &mut p), Completion::default());
        assert_eq!(p.len(), 1);
        assert_eq!(
            CompletionRef::Template("x://{a}".into()).to_json(),
            json!({"type": "ref/resource", "uri": "x://{a}"})
        );
    }
}
