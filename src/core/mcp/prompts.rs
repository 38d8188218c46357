//! Getting a prompt: its messages by role, every content block as sent.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::compact_reply::Problems;

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
    /// The message, its content blocks moved out of `v` (not copied: a prompt of 200,000
    /// messages must not be held twice).
    fn from_value(mut v: Value) -> Self {
        let role = v.get("role").and_then(Value::as_str).unwrap_or("").to_string();
        let content = match v.get_mut("content").map(Value::take) {
            Some(Value::Array(blocks)) => blocks,
            Some(Value::Null) | None => vec![],
            Some(block) => vec![block],
        };
        crate::deep::drop_value(v);
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

/// The result, read from its text one message at a time (see `compact_reply`): only the kept
/// messages are ever parsed, each once.
fn read(result: &str, max_depth: usize, problems: &mut Problems) -> std::result::Result<PromptMessages, String> {
    #[derive(Deserialize)]
    struct Outer<'a> {
        #[serde(default)]
        description: Option<Value>,
        #[serde(borrow, default)]
        messages: Option<&'a RawValue>,
    }
    let r: Outer = crate::json_depth::parse_borrowed(result)?;
    let description = r.description.as_ref().and_then(Value::as_str).map(str::to_string);
    let Some(Ok(raw)) = r.messages.map(|m| crate::json_depth::parse_borrowed::<Vec<&RawValue>>(m.get())) else {
        problems.push(|| "the result has no messages array".into());
        return Ok(PromptMessages { description, messages: vec![] });
    };
    let mut messages = Vec::with_capacity(raw.len());
    for (i, m) in raw.into_iter().enumerate() {
        let m: Value = crate::json_depth::parse(m.get(), max_depth)?;
        message_problems(&m, i, problems);
        messages.push(PromptMessage::from_value(m));
    }
    Ok(PromptMessages { description, messages })
}

fn message_problems(m: &Value, i: usize, out: &mut Problems) {
    match m.get("role").and_then(Value::as_str) {
        Some("user" | "assistant") => {}
        Some(r) => out.push(|| format!("messages[{i}] has the unknown role {r:?}")),
        None => out.push(|| format!("messages[{i}] has no role")),
    }
    match m.get("content") {
        Some(block @ Value::Object(_)) => {
            if let Some(p) = block_problem(block, &format!("messages[{i}].content")) {
                out.push(|| p);
            }
        }
        Some(Value::Array(blocks)) => {
            for (j, b) in blocks.iter().enumerate() {
                if let Some(p) = block_problem(b, &format!("messages[{i}].content[{j}]")) {
                    out.push(|| p);
                }
            }
        }
        _ => out.push(|| format!("messages[{i}] has no content object")),
    }
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
        let mut found = Problems::default();
        let max_depth = self.options().max_depth;
        let read = |result: &str| read(result, max_depth, &mut found);
        let mut answer = self.ask_compact("prompts/get", Some(params), opts, read).await?;
        self.warn(&format!("prompts/get {name}"), &mut answer, found.into_vec());
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_their_problems() {
        let r = json!({"description": "d", "messages": [
            {"role": "user", "content": {"type": "text", "text": "hi"}},
            {"role": "assistant", "content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}]},
            {"role": "system", "content": {"type": "hologram"}}
        ]});
        let mut p = Problems::default();
        let Ok(got) = read(&r.to_string(), 10, &mut p) else { panic!("not read") };
        assert_eq!(
            p.into_vec(),
            ["messages[2] has the unknown role \"system\"", "messages[2].content has the unknown type \"hologram\""]
        );
        assert_eq!(got.description.as_deref(), Some("d"));
        let m = &got.messages[1];
        assert_eq!((m.role.as_str(), m.content.len()), ("assistant", 1));
        let mut p = Problems::default();
        assert!(read("{}", 10, &mut p).is_ok_and(|g| g.messages.is_empty()));
        assert_eq!(p.into_vec(), ["the result has no messages array"]);
    }
}
