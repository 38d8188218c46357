//! Reading resources, and subscribing to their updates.
//!
//! A read's contents are text (with a MIME type) or a base64 blob; a blob is decoded only when
//! its bytes are asked for. The same reading serves an embedded resource in a tool's result
//! (`ResourceContent::from_value` on the block's `resource`).

use serde_json::{Value, json};

use super::rpc::Answered;
use super::session::{CallOptions, Session};
use crate::error::Result;

/// One item of a read's `contents`, as sent.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceContent {
    pub value: Value,
}

/// What a content holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentKind {
    Text,
    Blob,
    /// Neither a string `text` nor a string `blob`.
    Unknown,
}

impl ResourceContent {
    pub fn from_value(value: Value) -> Self {
        ResourceContent { value }
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.value.get(key).and_then(Value::as_str)
    }

    pub fn uri(&self) -> Option<&str> {
        self.str_field("uri")
    }

    pub fn mime_type(&self) -> Option<&str> {
        self.str_field("mimeType")
    }

    pub fn kind(&self) -> ContentKind {
        match (self.text(), self.blob_base64()) {
            (Some(_), _) => ContentKind::Text,
            (None, Some(_)) => ContentKind::Blob,
            _ => ContentKind::Unknown,
        }
    }

    pub fn text(&self) -> Option<&str> {
        self.str_field("text")
    }

    /// The blob's base64 text, as sent.
    pub fn blob_base64(&self) -> Option<&str> {
        self.str_field("blob")
    }

    /// The blob's bytes, or why they cannot be decoded.
    pub fn bytes(&self) -> std::result::Result<Vec<u8>, String> {
        use base64::Engine;
        let Some(b64) = self.blob_base64() else { return Err("the content has no blob".into()) };
        // Line breaks inside base64 are common and harmless (a copy without them is made only
        // then: a blob can be hundreds of MB); anything else is an error.
        let clean: std::borrow::Cow<'_, [u8]> = if b64.bytes().any(|c| c.is_ascii_whitespace()) {
            b64.bytes().filter(|c| !c.is_ascii_whitespace()).collect::<Vec<u8>>().into()
        } else {
            b64.as_bytes().into()
        };
        let engine = if clean.ends_with(b"=") || clean.len().is_multiple_of(4) {
            &base64::engine::general_purpose::STANDARD
        } else {
            &base64::engine::general_purpose::STANDARD_NO_PAD
        };
        engine.decode(&clean).map_err(|e| format!("the blob is not valid base64: {e}"))
    }

    /// A blob that is text sent as base64: its `mimeType` names text and its bytes are UTF-8.
    /// The decoded text, as sent (not sanitized); `None` for any other content.
    pub fn blob_text(&self) -> Option<String> {
        if self.kind() != ContentKind::Blob || !self.mime_type().is_some_and(is_text_type) {
            return None;
        }
        String::from_utf8(self.bytes().ok()?).ok()
    }

    /// The content's size in bytes: the text's UTF-8 length, or the blob's decoded length.
    pub fn size(&self) -> Option<usize> {
        match self.kind() {
            ContentKind::Text => self.text().map(str::len),
            ContentKind::Blob => self.blob_base64().map(decoded_len),
            ContentKind::Unknown => None,
        }
    }

    /// The type the blob's first bytes show, whatever `mimeType` claims (only its start is
    /// decoded).
    pub fn sniffed_type(&self) -> Option<&'static str> {
        use base64::Engine;
        let head: Vec<u8> = self.blob_base64()?.bytes().filter(|c| !c.is_ascii_whitespace()).take(32).collect();
        let whole = head.len() - head.len() % 4;
        let engine = &base64::engine::general_purpose::STANDARD;
        let bytes = engine.decode(&head[..whole]).or_else(|_| engine.decode(&head[..whole.saturating_sub(4)])).ok()?;
        sniff(&bytes)
    }

    /// Where the content breaks the MCP schema.
    pub fn problems(&self, index: usize) -> Vec<String> {
        let mut out = vec![];
        let Some(obj) = self.value.as_object() else {
            return vec![format!("contents[{index}] is not a JSON object")];
        };
        if !obj.get("uri").is_some_and(Value::is_string) {
            out.push(format!("contents[{index}] has no string uri"));
        }
        match self.kind() {
            ContentKind::Unknown => out.push(format!("contents[{index}] has neither a string text nor a string blob")),
            ContentKind::Blob => {
                if let Err(e) = self.bytes() {
                    out.push(format!("contents[{index}]: {e}"));
                }
            }
            ContentKind::Text => {}
        }
        out
    }
}

/// The length base64 text decodes to, counted without decoding (whitespace skipped).
pub fn decoded_len(b64: &str) -> usize {
    let chars = b64.bytes().filter(|c| !c.is_ascii_whitespace()).count();
    let pad = b64.bytes().rev().filter(|c| !c.is_ascii_whitespace()).take_while(|c| *c == b'=').count().min(2);
    let data = chars - pad;
    data / 4 * 3 + [0, 0, 1, 2][data % 4]
}

/// Whether a MIME type names text: `text/*`, JSON and XML (also as a `+json` or `+xml`
/// suffix); parameters such as `; charset=utf-8` aside.
pub fn is_text_type(mime: &str) -> bool {
    let essence = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let Some((kind, sub)) = essence.split_once('/') else { return false };
    kind == "text" || ["json", "xml"].iter().any(|t| sub == *t || sub.ends_with(&format!("+{t}")))
}

/// A few well-known signatures, so a blob's type can be shown when `mimeType` is missing or wrong.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"GIF87a", "image/gif"),
        (b"GIF89a", "image/gif"),
        (b"%PDF-", "application/pdf"),
        (b"PK\x03\x04", "application/zip"),
        (b"\x1f\x8b", "application/gzip"),
        (b"OggS", "audio/ogg"),
        (b"ID3", "audio/mpeg"),
        (b"fLaC", "audio/flac"),
    ];
    if let Some((_, t)) = SIGNATURES.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Some(t);
    }
    match bytes {
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'A', b'V', b'E', ..] => Some("audio/wav"),
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Some("image/webp"),
        _ => None,
    }
}

/// What `resources/read` returned.
#[derive(Debug, Clone, Default)]
pub struct ReadContents {
    pub contents: Vec<ResourceContent>,
    /// The result's cache hint (2026-07-28), as one line.
    pub cache: Option<String>,
}

impl Session {
    /// `resources/read`: the resource's contents, each as sent.
    pub async fn read_resource(&self, uri: &str, opts: &CallOptions) -> Result<Answered<ReadContents>> {
        let answer = self.ask("resources/read", Some(json!({ "uri": uri })), opts).await?;
        let mut problems = vec![];
        let mut answer = answer.map(|mut result| {
            let cache = super::era::cache_hint(&result);
            // Moved out, not cloned: a blob can be hundreds of MB.
            let contents = match result.get_mut("contents").map(Value::take) {
                Some(Value::Array(items)) => items.into_iter().map(ResourceContent::from_value).collect(),
                Some(_) => {
                    problems.push("contents is not an array".to_string());
                    vec![]
                }
                None => {
                    problems.push("the result has no contents array".to_string());
                    vec![]
                }
            };
            ReadContents { contents, cache }
        });
        if let Ok(read) = &answer.outcome {
            problems.extend(read.contents.iter().enumerate().flat_map(|(i, c)| c.problems(i)));
        }
        self.warn(&format!("resources/read {uri}"), &mut answer, problems);
        Ok(answer)
    }

    /// `resources/subscribe`: the server then sends `notifications/resources/updated` for `uri`
    /// (see `ServerEvent::ResourceUpdated`).
    /// In the modern era the URI joins the open `subscriptions/listen` instead.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<Answered<()>> {
        if self.era() == super::era::Era::Modern {
            return self.listen_answer(uri, true).await;
        }
        let answer = self.ask("resources/subscribe", Some(json!({ "uri": uri })), &CallOptions::default()).await?;
        Ok(answer.map(|_| ()))
    }

    /// `resources/unsubscribe`.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<Answered<()>> {
        if self.era() == super::era::Era::Modern {
            return self.listen_answer(uri, false).await;
        }
        let answer = self.ask("resources/unsubscribe", Some(json!({ "uri": uri })), &CallOptions::default()).await?;
        Ok(answer.map(|_| ()))
    }
}

impl Session {
    /// A modern-era (un)subscribe as an answer: a listen the server refused is its error.
    async fn listen_answer(&self, uri: &str, on: bool) -> Result<Answered<()>> {
        let mut answer = Answered::local(());
        if let Err(why) = self.listen_resource(uri, on).await {
            answer.outcome =
                Err(super::rpc::RpcError { code: None, message: format!("subscriptions/listen: {why}"), data: None });
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_blobs() {
        let t = ResourceContent::from_value(json!({"uri": "a://t", "mimeType": "text/plain", "text": "héllo"}));
        assert_eq!((t.kind(), t.size(), t.mime_type()), (ContentKind::Text, Some(6), Some("text/plain")));
        assert!(t.problems(0).is_empty());
        let png = "iVBORw0KGgoAAAANSUhEUg==";
        let b = ResourceContent::from_value(json!({"uri": "a://b", "blob": png}));
        assert_eq!((b.kind(), b.size(), b.sniffed_type()), (ContentKind::Blob, Some(16), Some("image/png")));
        let wrapped = ResourceContent::from_value(json!({"uri": "a://b", "blob": "aGVs\nbG8="}));
        assert_eq!(wrapped.bytes().ok().as_deref(), Some(&b"hello"[..]));
        let bad = ResourceContent::from_value(json!({"uri": "a://b", "blob": "!!!"}));
        assert!(bad.problems(2)[0].starts_with("contents[2]: the blob is not valid base64"));
        assert_eq!(
            [decoded_len("aGVsbG8="), decoded_len("aGVsbG8"), decoded_len("aGVs"), decoded_len("")],
            [5, 5, 3, 0]
        );
        let none = ResourceContent::from_value(json!({"text": 5}));
        assert_eq!(none.problems(0).len(), 2);
    }

    #[test]
    fn a_blob_of_a_text_type_holding_utf8_is_text() {
        let blob =
            |mime: &str, b64: &str| ResourceContent::from_value(json!({"uri": "a://b", "mimeType": mime, "blob": b64}));
        // "héllo" and "{}".
        assert_eq!(blob("text/plain", "aMOpbGxv").blob_text().as_deref(), Some("héllo"));
        assert_eq!(blob("Text/Markdown; charset=utf-8", "aMOpbGxv").blob_text().as_deref(), Some("héllo"));
        assert_eq!(blob("application/json", "e30=").blob_text().as_deref(), Some("{}"));
        assert_eq!(blob("application/vnd.api+json", "e30=").blob_text().as_deref(), Some("{}"));
        assert_eq!(blob("image/svg+xml", "e30=").blob_text().as_deref(), Some("{}"));
        // Not UTF-8 (a lone 0xff), another type, no type, bad base64, or text already: none.
        assert_eq!(blob("text/plain", "/w==").blob_text(), None);
        assert_eq!(blob("application/octet-stream", "aMOpbGxv").blob_text(), None);
        assert_eq!(blob("application/jsonish", "e30=").blob_text(), None);
        assert_eq!(ResourceContent::from_value(json!({"blob": "e30="})).blob_text(), None);
        assert_eq!(blob("text/plain", "!!!").blob_text(), None);
        let text = ResourceContent::from_value(json!({"mimeType": "text/plain", "text": "x", "blob": "e30="}));
        assert_eq!(text.blob_text(), None);
    }
}
