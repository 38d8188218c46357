//! Whether an envelope's data only repeats its message: a server that sends its text answer
//! twice, as a text block and as structuredContent (filesystem's `read_text_file` sends
//! `{"content": <the text>}`), has said one thing, and a reader is shown it once.

use serde_json::Value;

use super::Envelope;

/// True when the message is not empty and the data is an object of strings only, each the
/// message itself, or together (joined by nothing or by newlines) the message.
pub fn data_repeats_message(e: &Envelope) -> bool {
    let Some(m) = e.message.as_deref().filter(|m| !m.trim().is_empty()) else { return false };
    let Value::Object(o) = e.data.json() else { return false };
    let Some(texts) = o.values().map(Value::as_str).collect::<Option<Vec<&str>>>().filter(|t| !t.is_empty()) else {
        return false;
    };
    texts.iter().all(|t| *t == m) || texts.concat() == m || texts.join("\n") == m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::normalize;
    use crate::mcp::ReplyBody;
    use serde_json::json;

    fn env(result: Value) -> Envelope {
        normalize("t", None, &ReplyBody::Result(result))
    }

    #[test]
    fn a_text_sent_again_as_structured_content_is_a_repeat() {
        // @modelcontextprotocol/server-filesystem 2026.8.31, dist/index.js lines 160-170 (read_text_file)
        // and 288-331 (write_file, edit_file, ...): the text, and {"content": text} beside it.
        let text = "line one\nline two\n";
        let fs = env(json!({"content": [{"type": "text", "text": text}], "structuredContent": {"content": text}}));
        assert!(data_repeats_message(&fs));
        // Structured data that says more than the text is not.
        let more = env(
            json!({"content": [{"type": "text", "text": "ok"}], "structuredContent": {"content": "ok", "size": 2}}),
        );
        assert!(!data_repeats_message(&more));
        let other = env(json!({"content": [{"type": "text", "text": "a"}], "structuredContent": {"note": "b"}}));
        assert!(!data_repeats_message(&other));
    }
}
