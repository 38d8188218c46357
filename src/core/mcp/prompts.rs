//! Getting a prompt: its messages by role, every content block as sent.

use serde_json::{Map, Value, json};

use super::rpc::Answered;
use super::session::{CallOptions, Session};
use crate::error::Result;

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// `user` or `assistant` (any other string is kept, and warned about).
    pub role: String,
    /// The content blocks: MCP sends one; a list is accepted too.
    pub content: Vec<Value>,
}

impl PromptMessage {
    fn from_value(v: &Value) -> Self {
        let role = v.get("role").and_then(Value::as_str).unwrap_or("").to_string();
        let content = match v.get("content") {
            Some(Value::Array(blocks)) => blocks.iter().map(crate::deep::clone_value).collect(),
            Some(Value::Null) | None => vec![],
            Some(block) => vec![crate::deep::clone_value(block)],
        };
        PromptMessage { role, content }
    }
}

/// What `prompts/get` returned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PromptMessages {
    pub description: Option<String>,
    pub messages: Vec<PromptMessage>,
}

/// The content block types MCP defines.
pub const CONTENT_TYPES: &[&str] = &["text", "image", "audio", "resource", "resource_link"];

fn problems(result: &Value) -> Vec<String> {
    let mut out = vec![];
    let Some(messages) = result.get("messages").and_then(Value::as_array) else {
        return vec!["the result has no messages array".into()];
    };
    for (i, m) in messages.iter().enumerate() {
        match m.get("role").and_then(Value::as_str) {
            Some("user" | "assistant") => {}
            Some(r) => out.push(format!("messages[{i}] has the unknown role {r:?}")),
            None => out.push(format!("messages[{i}] has no role")),
        }
        match m.get("content") {
            Some(block @ Value::Object(_)) => out.extend(block_problem(block, &format!("messages[{i}].content"))),
            Some(Value::Array(blocks)) => {
                for (j, b) in blocks.iter().enumerate() {
                    out.extend(block_problem(b, &format!("messages[{i}].content[{j}]")));
                }
            }
            _ => out.push(format!("messages[{i}] has no content object")),
        }
    }
    out
}

fn block_problem(block: &Value, at: &str) -> Option<String> {
    match block.get("type").and_then(Value::as_str) {
        None => Some(format!("{at} has no type")),
        Some(t) if !CONTENT_TYPES.contains(&t) => Some(format!("{at} has the unknown type {t:?}")),
        Some("text") if !block.get("text").is_some_and(Value::is_string) => {
            Some(format!("{at} is a text block whose text is not a string"))
        }
        Some(t @ ("image" | "audio")) if !block.get("data").is_some_and(Value::is_string) => {
            Some(format!("{at} is an {t} block without base64 data"))
        }
        _ => None,
    }
}

impl Session {
    /// `prompts/get` with `arguments` sent as given (MCP wants string values).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        opts: &CallOptions,
    ) -> Result<Answered<PromptMessages>> {
        let mut params = json!({ "name": name });
        if !arguments.is_empty() {
            params["arguments"] = Value::Object(arguments);
        }
        let answer = self.ask("prompts/get", Some(params), opts).await?;
        let found = answer.outcome.as_ref().map(problems).unwrap_or_default();
        let mut answer = answer.map(|result| PromptMessages {
            description: result.get("description").and_then(Value::as_str).map(str::to_string),
            messages: result
                .get("messages")
                .and_then(Value::as_array)
                .map(|m| m.iter().map(PromptMessage::from_value).collect())
                .unwrap_or_default(),
        });
        self.warn(&format!("prompts/get {name}"), &mut answer, found);
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_their_problems() {
        let r = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "hi"}},
            {"role": "assistant", "content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}]},
            {"role": "system", "content": {"type": "hologram"}}
        ]});
        assert_eq!(
            problems(&r),
            ["messages[2] has the unknown role \"system\"", "messages[2].content has the unknown type \"hologram\""]
        );
        let m = PromptMessage::from_value(&r["messages"][1]);
        assert_eq!((m.role.as_str(), m.content.len()), ("assistant", 1));
        assert_eq!(problems(&json!({})), ["the result has no messages array"]);
    }
}
