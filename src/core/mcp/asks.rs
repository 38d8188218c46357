//! What a server asks of its client: elicitation (a form or a URL for the user), sampling (a
//! model's reply, typed by the user here) and roots.
//!
//! The wire tap keeps each such request as the server sent it and hands rmcp a stub, so a
//! schema rmcp's types would refuse still reaches the user whole. The client handler turns the
//! raw request into a [`ServerAsk`] and sends it to whoever answers (the TUI, or the headless
//! policy of `--elicitation` and `--sampling-answer`); no one answering means decline.

use std::path::Path;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};

pub use super::ask_schema::{AskSchema, Choices, PropInfo};

/// The server requests mcplens answers from what it kept on the wire, with the stub rmcp sees.
/// The most messages of a sampling request read and shown; the rest are counted.
pub const SHOWN_MESSAGES: usize = 100;

pub const KEPT: &[(&str, &str)] = &[
    ("elicitation/create", r#"{"mode":"form","message":"","requestedSchema":{"type":"object","properties":{}}}"#),
    ("sampling/createMessage", r#"{"messages":[],"maxTokens":1}"#),
];

/// A request from the server waiting on the user.
#[derive(Debug)]
pub struct ServerAsk {
    /// The JSON-RPC id as the log shows it.
    pub id: String,
    pub kind: AskKind,
    /// The whole request as the server sent it.
    pub raw: Arc<String>,
    reply: oneshot::Sender<Answer>,
}

/// A request as a front end shows it; the answer goes back by `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct AskView {
    pub id: String,
    pub kind: AskKind,
    pub raw: Arc<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AskKind {
    /// A form for the user: the requested schema becomes fields. Held as its text and an index
    /// of its properties, not as a `Value` (see [`AskSchema`]).
    Form { message: String, schema: AskSchema },
    /// A page for the user to open in a browser; the server learns the outcome on its own.
    Url { message: String, url: String, elicitation_id: String },
    /// A model's reply is wanted: the request's params (messages, system prompt, tools,
    /// preferences) as sent.
    /// `params` with only the first [`SHOWN_MESSAGES`] messages; `messages` counts them all.
    Sampling { params: Value, messages: usize },
}

/// What the user answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Elicitation accepted, with the form's content (`{}` for URL mode).
    Accept(Map<String, Value>),
    Decline,
    Cancel,
    /// A sampling reply: the text the user typed and the model name to report.
    Reply {
        text: String,
        model: String,
    },
}

impl ServerAsk {
    /// The request `raw` read (nested at most `max_depth` levels, as `--max-depth` allows
    /// everywhere else); why not when it cannot be.
    pub fn new(
        id: String,
        raw: Arc<String>,
        max_depth: usize,
    ) -> Result<(ServerAsk, oneshot::Receiver<Answer>), String> {
        let kind = AskKind::parse(&raw, max_depth)?;
        let (reply, rx) = oneshot::channel();
        Ok((ServerAsk { id, kind, raw, reply }, rx))
    }

    /// Sends the answer to the server (nothing happens if the request was already given up).
    pub fn answer(self, answer: Answer) {
        let _ = self.reply.send(answer);
    }

    /// The server withdrew the request (cancelled it, or the session ended): no answer is
    /// awaited any more.
    pub fn withdrawn(&self) -> bool {
        self.reply.is_closed()
    }

    /// What a front end shows, without the answer channel.
    pub fn view(&self) -> AskView {
        AskView { id: self.id.clone(), kind: self.kind.clone(), raw: self.raw.clone() }
    }

    pub fn method(&self) -> &'static str {
        self.kind.method()
    }

    /// One line on what is asked, for a status line or stderr (not sanitized: callers do).
    pub fn summary(&self) -> String {
        self.kind.summary()
    }
}

impl AskKind {
    /// One line on what is asked (not sanitized: callers do).
    pub fn summary(&self) -> String {
        match self {
            AskKind::Form { message, .. } => format!("the server asks: {message}"),
            AskKind::Url { message, url, .. } => {
                format!("the server asks you to open {url} ({}): {message}", crate::opener::destination(url))
            }
            AskKind::Sampling { messages: n, .. } => {
                let n = *n;
                format!("the server asks for a model's reply to {n} message{}", if n == 1 { "" } else { "s" })
            }
        }
    }
}

impl AskKind {
    pub fn method(&self) -> &'static str {
        match self {
            AskKind::Sampling { .. } => "sampling/createMessage",
            _ => "elicitation/create",
        }
    }

    /// Reads a kept request; why not when it is not JSON, too deep, or not one of [`KEPT`]'s
    /// methods. serde_json's own reader stops at 128 levels: a schema 62 levels deep was
    /// refused with nothing said under any `--max-depth`. Nothing is read into a `Value` tree
    /// whole: the schema stays text, and a sampling request's messages past the first few are
    /// counted only.
    fn parse(raw: &Arc<String>, max_depth: usize) -> Result<AskKind, String> {
        #[derive(serde::Deserialize)]
        struct Request<'a> {
            #[serde(default)]
            method: Option<String>,
            #[serde(borrow, default)]
            params: Option<&'a RawValue>,
        }
        let depth = crate::json_depth::depth(raw);
        if depth > max_depth {
            return Err(format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)"));
        }
        let request = crate::json_depth::parse_borrowed::<Request>(raw)?;
        let params = request.params.map_or("null", RawValue::get);
        match request.method.as_deref() {
            Some("sampling/createMessage") => Self::sampling(params, max_depth),
            Some("elicitation/create") => Ok(Self::elicitation(raw, params)),
            _ => Err("not an elicitation or sampling request".to_string()),
        }
    }

    /// A sampling request with its first [`SHOWN_MESSAGES`] messages parsed and the rest counted:
    /// a request of 200,000 messages is not held as a `Value` tree (15 times its bytes).
    fn sampling(params: &str, max_depth: usize) -> Result<AskKind, String> {
        let Some(members) = super::descriptor::object_members(params) else {
            return Ok(AskKind::Sampling { params: Value::Null, messages: 0 });
        };
        let mut map = Map::new();
        let mut count = 0;
        for (key, value) in members {
            let value = if key == "messages" && value.get().starts_with('[') {
                let all = crate::json_depth::parse_borrowed::<Vec<&RawValue>>(value.get())?;
                count = all.len();
                let shown = all.iter().take(SHOWN_MESSAGES).map(|m| crate::json_depth::parse(m.get(), max_depth));
                Value::Array(shown.collect::<Result<_, _>>()?)
            } else {
                crate::json_depth::parse(value.get(), max_depth)?
            };
            map.insert(key, value);
        }
        Ok(AskKind::Sampling { params: Value::Object(map), messages: count })
    }

    /// An elicitation (a form, or a URL in `"mode": "url"`); its schema a place in `raw`.
    fn elicitation(raw: &Arc<String>, params: &str) -> AskKind {
        let members = super::descriptor::object_members(params).unwrap_or_default();
        let field = |k: &str| members.iter().find(|(key, _)| key == k).map(|(_, v)| v.get());
        let text = |k: &str| field(k).and_then(|t| serde_json::from_str::<String>(t).ok()).unwrap_or_default();
        if text("mode") == "url" {
            return AskKind::Url { message: text("message"), url: text("url"), elicitation_id: text("elicitationId") };
        }
        let schema = field("requestedSchema").map_or_else(AskSchema::empty, |t| AskSchema::read(raw, t));
        AskKind::Form { message: text("message"), schema }
    }
}

/// The content an accepted form sends: every default the schema gives (SEP-1034: a client
/// applies defaults for fields the user leaves alone) with the user's own values laid over them.
/// Defaults are taken as written, not through the form model, so a default no field kind can
/// hold (an object, a number beyond 64 bits) is still sent.
pub fn with_defaults(schema: &AskSchema, given: &Map<String, Value>) -> Map<String, Value> {
    let mut content = schema.defaults();
    content.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
    content
}

/// A sampling request as lines for a person: system prompt, each message by role with every
/// content type named, then the model preferences, limits and tools. Not sanitized: callers do.
/// `messages` counts the request's messages, of which `params` holds the first few.
pub fn sampling_lines(params: &Value, messages: usize) -> Vec<String> {
    let mut out = vec![];
    if let Some(s) = params.get("systemPrompt").and_then(Value::as_str) {
        out.push(format!("system: {s}"));
    }
    for m in params.get("messages").and_then(Value::as_array).into_iter().flatten() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("?");
        let blocks = match m.get("content") {
            Some(Value::Array(a)) => a.iter().map(content_text).collect::<Vec<_>>(),
            Some(c) => vec![content_text(c)],
            None => vec![String::new()],
        };
        out.push(format!("{role}: {}", blocks.join(" ")));
    }
    let shown = params.get("messages").and_then(Value::as_array).map_or(0, Vec::len);
    if messages > shown {
        out.push(format!("… and {} more messages, not shown", messages - shown));
    }
    let mut facts = vec![];
    for key in ["maxTokens", "temperature", "stopSequences", "includeContext", "toolChoice"] {
        if let Some(v) = params.get(key) {
            facts.push(format!("{key} {}", compact(v)));
        }
    }
    if let Some(p) = params.get("modelPreferences") {
        facts.push(format!("modelPreferences {}", compact(p)));
    }
    if !facts.is_empty() {
        out.push(facts.join(" · "));
    }
    if let Some(tools) = params.get("tools").and_then(Value::as_array) {
        let names: Vec<&str> = tools.iter().map(|t| t.get("name").and_then(Value::as_str).unwrap_or("?")).collect();
        out.push(format!("tools: {}", names.join(", ")));
    }
    out
}

fn content_text(c: &Value) -> String {
    let field = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default();
    match field("type") {
        "text" => field("text").to_string(),
        kind @ ("image" | "audio") => {
            format!("[{kind} {}, {} bytes]", field("mimeType"), field("data").len() / 4 * 3)
        }
        "tool_use" => format!("[tool_use {} {}]", field("name"), c.get("input").map(compact).unwrap_or_default()),
        "tool_result" => format!("[tool_result for {}]", field("toolUseId")),
        "" => compact(c),
        other => format!("[{other}]"),
    }
}

/// JSON on one line, cut at 200 characters.
fn compact(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// Where asks go. Cloned into the client handler; the receiver belongs to the front end.
#[derive(Debug, Clone)]
pub struct AskDesk {
    tx: mpsc::UnboundedSender<ServerAsk>,
}

impl AskDesk {
    pub fn new() -> (AskDesk, mpsc::UnboundedReceiver<ServerAsk>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (AskDesk { tx }, rx)
    }

    /// Hands the ask over; false when no one listens (the ask is then dropped: a decline).
    pub fn send(&self, ask: ServerAsk) -> bool {
        self.tx.send(ask).is_ok()
    }
}

/// A root the client offers (`roots/list`): a `file://` URI and a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub uri: String,
    pub name: String,
}

impl Root {
    /// A root from a path as the user typed it: made absolute against `base`, turned into a
    /// `file://` URI (percent-encoding what a URI cannot hold), named by its last component.
    pub fn from_path(path: &str, base: &Path) -> Root {
        let p = Path::new(path);
        let abs = if p.is_absolute() { p.to_path_buf() } else { base.join(p) };
        let abs = abs.canonicalize().unwrap_or(abs);
        let text = abs.to_string_lossy();
        let name = abs.file_name().map_or_else(|| text.to_string(), |n| n.to_string_lossy().into_owned());
        Root { uri: format!("file://{}", encode_path(&text)), name }
    }
}

fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ask(raw: &str) -> AskKind {
        ServerAsk::new("1".into(), Arc::new(raw.into()), 1000)
            .map(|(a, _)| a.kind)
            .unwrap_or(AskKind::Sampling { params: Value::String("not an ask".into()), messages: 0 })
    }

    #[test]
    fn requests_are_read_by_mode_and_method() {
        let form = ask(r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"hi",
            "requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}}"#);
        assert!(matches!(&form, AskKind::Form { message, .. } if message == "hi"));
        let url = ask(r#"{"id":2,"method":"elicitation/create","params":{"mode":"url","message":"log in",
            "url":"https://example.com/x","elicitationId":"e1"}}"#);
        assert_eq!(
            url,
            AskKind::Url { message: "log in".into(), url: "https://example.com/x".into(), elicitation_id: "e1".into() }
        );
        let s = ask(r#"{"id":3,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":9}}"#);
        assert!(matches!(s, AskKind::Sampling { .. }));
        assert!(ServerAsk::new("4".into(), Arc::new(r#"{"id":4,"method":"roots/list"}"#.into()), 9).is_err());
        assert!(ServerAsk::new("5".into(), Arc::new("not json".into()), 9).is_err());
        // Deeper than serde_json's own 128 levels: read under --max-depth, refused past it.
        let mut deep = json!({"type": "string"});
        for _ in 0..100 {
            deep = json!({"type": "object", "properties": {"x": deep}});
        }
        let raw = json!({"id": 6, "method": "elicitation/create", "params": {"message": "m", "requestedSchema": deep}});
        let raw = Arc::new(raw.to_string());
        assert!(ServerAsk::new("6".into(), raw.clone(), 1000).is_ok());
        let why = ServerAsk::new("6".into(), raw, 100).err().unwrap_or_default();
        assert!(why.contains("over the limit of 100 (--max-depth)"), "{why}");
    }

    #[test]
    fn a_form_without_schema_is_an_empty_form() {
        let k = ask(r#"{"id":1,"method":"elicitation/create","params":{"message":"ok?"}}"#);
        assert_eq!(k, AskKind::Form { message: "ok?".into(), schema: AskSchema::empty() });
    }

    #[test]
    fn defaults_cover_every_kind_and_the_user_overrides_them() {
        let schema = serde_json::json!({"type":"object","properties":{
            "name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},
            "score":{"type":"number","default":95.5},"status":{"type":"string","enum":["a","b"],"default":"b"},
            "ok":{"type":"boolean","default":true},"none":{"type":"string"}}});
        let raw = Arc::new(schema.to_string());
        let schema = AskSchema::read(&raw.clone(), &raw);
        let d = schema.defaults();
        assert_eq!(
            Value::Object(d),
            serde_json::json!({"name":"John Doe","age":30,"score":95.5,"status":"b","ok":true})
        );
        let given = serde_json::json!({"age": 5, "none": "n"});
        let c = with_defaults(&schema, given.as_object().unwrap_or(&Map::new()));
        assert_eq!((c["age"].clone(), c["none"].clone(), c["ok"].clone()), (5.into(), "n".into(), true.into()));
    }

    #[test]
    fn sampling_shows_every_content_type_and_the_preferences() {
        let p = serde_json::json!({"systemPrompt":"be brief","maxTokens":50,
            "messages":[{"role":"user","content":{"type":"text","text":"hi"}},
                {"role":"user","content":[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"weird"}]}],
            "modelPreferences":{"hints":[{"name":"claude"}]},"tools":[{"name":"t1"},{"name":"t2"}]});
        let lines = sampling_lines(&p, 2);
        assert_eq!(lines[0], "system: be brief");
        assert_eq!(lines[1], "user: hi");
        assert_eq!(lines[2], "user: [image image/png, 3 bytes] [weird]");
        assert!(lines[3].starts_with("maxTokens 50 · modelPreferences"), "{}", lines[3]);
        assert_eq!(lines[4], "tools: t1, t2");
        assert!(sampling_lines(&Value::Null, 0).is_empty());
    }

    #[test]
    fn a_long_sampling_request_shows_its_first_messages_and_counts_the_rest() {
        let one = r#"{"role":"user","content":{"type":"text","text":"m"}}"#;
        let messages = vec![one; SHOWN_MESSAGES + 3].join(",");
        let raw = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{{"maxTokens":5,"messages":[{messages}]}}}}"#
        );
        let raw = Arc::new(raw);
        let Ok(AskKind::Sampling { params, messages }) = AskKind::parse(&raw, 64) else { panic!("not read") };
        assert_eq!(messages, SHOWN_MESSAGES + 3);
        let lines = sampling_lines(&params, messages);
        assert_eq!(lines.len(), SHOWN_MESSAGES + 2, "{lines:?}");
        assert_eq!(lines[SHOWN_MESSAGES], "… and 3 more messages, not shown");
        assert_eq!(lines[SHOWN_MESSAGES + 1], "maxTokens 5");
        assert!(AskKind::parse(&raw, 2).is_err());
    }

    #[test]
    fn roots_are_file_uris_named_by_their_last_part() {
        let r = Root::from_path("/no such dir/a b%", Path::new("/"));
        assert_eq!(r, Root { uri: "file:///no%20such%20dir/a%20b%25".into(), name: "a b%".into() });
        let rel = Root::from_path("x", Path::new("/nowhere"));
        assert_eq!(rel.uri, "file:///nowhere/x");
    }
}
