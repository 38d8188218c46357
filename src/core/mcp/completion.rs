//! `completion/complete`: suggestions for a prompt argument or a resource template variable.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::compact_reply::Problems;

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
    /// How many values the server sent (`values` may keep only the first of them).
    pub listed: usize,
    /// How many suggestions there are in all, when the server says.
    pub total: Option<u64>,
    pub has_more: bool,
}

/// The completion, read from the result's text: a million values are held as a million strings,
/// not as a `Value` tree (see `compact_reply`).
/// The first `keep` values are kept, the others counted.
fn read(result: &str, keep: usize, problems: &mut Problems) -> std::result::Result<Completion, String> {
    #[derive(Deserialize)]
    struct Outer<'a> {
        #[serde(borrow, default)]
        completion: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Members<'a> {
        #[serde(borrow, default)]
        values: Option<&'a RawValue>,
        #[serde(default)]
        total: Option<Value>,
        #[serde(rename = "hasMore", default)]
        has_more: Option<Value>,
    }
    let r: Outer = crate::json_depth::parse_borrowed(result)?;
    let Some(Ok(c)) = r.completion.map(|c| crate::json_depth::parse_borrowed::<Members>(c.get())) else {
        problems.push(|| "the result has no completion object".into());
        return Ok(Completion::default());
    };
    let (values, listed) = match c.values.map(|v| crate::json_depth::parse_borrowed::<Vec<&RawValue>>(v.get())) {
        Some(Ok(vs)) => {
            let listed = vs.len();
            (vs.into_iter().take(keep).map(|v| value_text(v, problems)).collect(), listed)
        }
        _ => {
            problems.push(|| "completion.values is not an array".into());
            (vec![], 0)
        }
    };
    if listed > 100 {
        problems.push(|| format!("{listed} values, over the 100 MCP allows"));
    }
    Ok(Completion {
        values,
        listed,
        total: c.total.as_ref().and_then(Value::as_u64),
        has_more: c.has_more.as_ref().and_then(Value::as_bool).unwrap_or(false),
    })
}

/// A suggestion's text: a string as it reads, anything else as its JSON text.
fn value_text(v: &RawValue, problems: &mut Problems) -> String {
    if let Ok(s) = serde_json::from_str::<String>(v.get()) {
        return s;
    }
    let text = v.get().to_string();
    problems.push(|| format!("a completion value is not a string: {}", crate::sanitize::truncate(&text, 200)));
    text
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
        self.complete_kept(reference, argument, partial, context, usize::MAX).await
    }

    /// As [`Self::complete`], keeping only the first `keep` values (the others counted): a form
    /// shows a few, and a server may send a million.
    pub async fn complete_kept(
        &self,
        reference: &CompletionRef,
        argument: &str,
        partial: &str,
        context: &[(String, String)],
        keep: usize,
    ) -> Result<Answered<Completion>> {
        let mut params = json!({
            "ref": reference.to_json(),
            "argument": { "name": argument, "value": partial },
        });
        if !context.is_empty() {
            let args: Map<String, Value> = context.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
            params["context"] = json!({ "arguments": args });
        }
        let mut problems = Problems::default();
        let read = |result: &str| read(result, keep, &mut problems);
        let mut answer = self.ask_compact("completion/complete", Some(params), &CallOptions::default(), read).await?;
        self.warn(&format!("completion/complete {argument}"), &mut answer, problems.into_vec());
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_are_read() {
        let mut p = Problems::default();
        let c = read(r#"{"completion": {"values": ["a", 2, "\u00e9"], "total": 9, "hasMore": true}}"#, 9, &mut p);
        let values = vec!["a".into(), "2".into(), "é".into()];
        assert_eq!(c, Ok(Completion { values, listed: 3, total: Some(9), has_more: true }));
        let c = read(r#"{"completion": {"values": ["a", "b", "c"]}}"#, 2, &mut Problems::default());
        assert_eq!(c.map(|c| (c.values, c.listed)), Ok((vec!["a".into(), "b".into()], 3)));
        assert_eq!(p.into_vec(), ["a completion value is not a string: 2"]);
        let mut p = Problems::default();
        assert_eq!(read("{}", 9, &mut p), Ok(Completion::default()));
        assert_eq!(p.into_vec().len(), 1);
        let mut p = Problems::default();
        assert_eq!(read(r#"{"completion": {"values": {}}}"#, 9, &mut p), Ok(Completion::default()));
        assert_eq!(p.into_vec(), ["completion.values is not an array"]);
        assert_eq!(
            CompletionRef::Template("x://{a}".into()).to_json(),
            json!({"type": "ref/resource", "uri": "x://{a}"})
        );
    }
}
