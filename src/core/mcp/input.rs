//! `input_required` results (protocol 2026-07-28, SEP-2322): instead of asking mid-call, a
//! modern server answers `tools/call`, `prompts/get` or `resources/read` with the questions it
//! has (`inputRequests`: elicitation, sampling, roots) and an opaque `requestState`. mcplens puts
//! each question to the user through the same ask desk as a legacy server's requests (the TUI's
//! overlay, headless `--elicitation` / `--sampling-answer`), then sends the request again with
//! `inputResponses` and the `requestState` echoed byte for byte.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::asks::{Answer, ServerAsk};
use super::log::LogKind;
use super::session::{CallOptions, Progress, Session};
use super::wire::ServerEvent;
use crate::error::{LensError, Result};

/// Most rounds of questions one request may take (the SDKs' default): a server that keeps
/// asking cannot keep a call alive for ever.
pub const MAX_ROUNDS: usize = 10;

/// The methods whose results may be `input_required`.
pub const ASKING_METHODS: &[&str] = &["tools/call", "prompts/get", "resources/read"];

/// The `resultType` values mcplens knows: anything else is named in a warning.
pub const RESULT_TYPES: &[&str] = &["complete", "input_required", "task"];

/// The questions of an `input_required` result, in the server's order.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    /// Each request's key and the request object (`method` and `params`).
    pub requests: Vec<(String, Value)>,
    /// Echoed back as it came (a string by the spec; any JSON value is sent back unchanged).
    pub state: Option<Value>,
}

/// The search for `"resultType"` in a reply, keyed on the bytes of it that are rare in JSON.
static RESULT_TYPE: std::sync::LazyLock<memchr::memmem::Finder<'static>> = std::sync::LazyLock::new(|| {
    memchr::memmem::FinderBuilder::new().build_forward_with_ranker(JsonRank, b"\"resultType\"")
});

/// How common each byte is in JSON. The search's own ranking (of prose and code) takes `"` for
/// a rare byte and keys on it, and in escaped JSON text every few bytes is one; an upper-case
/// letter is the rarest here.
struct JsonRank;

impl memchr::arch::all::packedpair::HeuristicFrequencyRank for JsonRank {
    fn rank(&self, byte: u8) -> u8 {
        match byte {
            b'"' | b'\\' | b':' | b',' | b' ' | b'{' | b'}' | b'[' | b']' | b'0'..=b'9' => 255,
            b'a'..=b'z' => 200,
            b'A'..=b'Z' => 120,
            _ => 160,
        }
    }
}

/// The `resultType` of a reply's result, read without parsing the rest (None when absent).
pub fn result_type(raw: &str) -> Option<String> {
    // Most replies have none: skip the parse.
    RESULT_TYPE.find(raw.as_bytes())?;
    #[derive(Deserialize)]
    struct Typed {
        #[serde(rename = "resultType", default)]
        result_type: Option<Value>,
    }
    #[derive(Deserialize)]
    struct Message {
        #[serde(default)]
        result: Option<Typed>,
    }
    let message: Message = crate::json_depth::parse_borrowed(raw).ok()?;
    match message.result?.result_type? {
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    }
}

impl InputRequired {
    /// The questions in a reply whose result is `input_required`; None for any other reply.
    pub fn read(raw: &str) -> Option<InputRequired> {
        if result_type(raw).as_deref() != Some("input_required") {
            return None;
        }
        #[derive(Deserialize)]
        struct Asked<'a> {
            #[serde(rename = "inputRequests", borrow, default)]
            input_requests: Option<&'a RawValue>,
            #[serde(rename = "requestState", default)]
            request_state: Option<Value>,
        }
        #[derive(Deserialize)]
        struct Message<'a> {
            #[serde(borrow)]
            result: Asked<'a>,
        }
        let message: Message = crate::json_depth::parse_borrowed(raw).ok()?;
        let requests = message
            .result
            .input_requests
            .and_then(|r| crate::json_depth::parse::<Map<String, Value>>(r.get(), 512).ok())
            .unwrap_or_default();
        Some(InputRequired { requests: requests.into_iter().collect(), state: message.result.request_state })
    }

    /// The request's params for the next round: the first round's, with the answers and the
    /// state.
    pub fn retry_params(&self, first: &Value, responses: Map<String, Value>) -> Value {
        let mut params = first.as_object().cloned().unwrap_or_default();
        params.insert("inputResponses".into(), Value::Object(responses));
        match &self.state {
            Some(state) => params.insert("requestState".into(), state.clone()),
            None => params.remove("requestState"),
        };
        Value::Object(params)
    }
}

/// An answer as the server reads it in `inputResponses`: an elicitation's result, or a sampling
/// reply. A declined sampling request has no result: it ends the call (None).
pub fn response(method: &str, url_mode: bool, answer: Answer) -> Option<Value> {
    Some(match (method, answer) {
        ("sampling/createMessage", Answer::Reply { text, model }) => json!({
            "role": "assistant",
            "content": {"type": "text", "text": text},
            "model": model,
            "stopReason": "endTurn",
        }),
        ("sampling/createMessage", _) => return None,
        (_, Answer::Accept(content)) if url_mode && content.is_empty() => json!({"action": "accept"}),
        (_, Answer::Accept(content)) => json!({"action": "accept", "content": content}),
        (_, Answer::Cancel) => json!({"action": "cancel"}),
        (_, Answer::Decline | Answer::Reply { .. }) => json!({"action": "decline"}),
    })
}

impl Session {
    /// Sends `method` with `params` (sent as given) and waits for the final reply: while the
    /// server answers `input_required`, its questions go to the user and the request is sent
    /// again with the answers. Every round is on the wire and in the log.
    pub(crate) async fn request_answering(
        &self,
        method: &str,
        params: Value,
        what: &str,
        opts: &CallOptions,
        on_progress: &mut (dyn FnMut(&Progress) + Send),
    ) -> Result<(Arc<String>, Duration)> {
        let first = params.clone();
        let mut params = params;
        let mut total = Duration::ZERO;
        for round in 0..=MAX_ROUNDS {
            let request =
                rmcp::model::ClientRequest::CustomRequest(rmcp::model::CustomRequest::new(method, Some(params)));
            let (raw, elapsed) = self.request_raw(request, what, opts, on_progress).await?;
            total += elapsed;
            // One search of the reply for its type: on a long reply it is a walk of every byte,
            // unless its skeleton was made (the result's own members are all in it).
            let result_type = self.tap().read_skeleton(&raw, result_type).unwrap_or_else(|| result_type(&raw));
            if let Some(t) = result_type.as_deref().filter(|t| !RESULT_TYPES.contains(t)) {
                let t = crate::sanitize::truncate(t, 80).into_owned();
                self.log()
                    .push(LogKind::Warning, &format!("{what}: the result's resultType {t:?} is not one MCP defines"));
            }
            if result_type.as_deref() != Some("input_required") {
                return Ok((raw, total));
            }
            let Some(asked) = InputRequired::read(&raw) else { return Ok((raw, total)) };
            if round == MAX_ROUNDS {
                return Err(LensError::connection(format!(
                    "{what}: the server still wants input after {MAX_ROUNDS} rounds; gave up"
                )));
            }
            self.log().push(
                LogKind::Info,
                &format!("{what}: input_required ({} question(s)), round {}", asked.requests.len(), round + 1),
            );
            let responses = self.answer_inputs(&asked, what, opts).await?;
            if asked.requests.is_empty() {
                // Only state: the server is still working; a short pause before asking again.
                tokio::time::sleep(Duration::from_millis(50 << round.min(2))).await;
            }
            params = asked.retry_params(&first, responses);
        }
        Err(LensError::connection(format!("{what}: no final reply")))
    }

    /// Puts each question of an `input_required` result to the user, one after the other.
    /// Cancelling `opts` while a question is open withdraws it and ends the request.
    pub(crate) async fn answer_inputs(
        &self,
        asked: &InputRequired,
        what: &str,
        opts: &CallOptions,
    ) -> Result<Map<String, Value>> {
        let cancel = opts.cancel.clone().unwrap_or_default();
        let mut responses = Map::new();
        for (key, request) in &asked.requests {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            if method == "roots/list" {
                responses.insert(key.clone(), self.client_roots());
                continue;
            }
            let url_mode = request.get("params").and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("url");
            let answer = tokio::select! {
                a = self.ask_user(key, request) => a,
                _ = cancel.cancelled() => {
                    self.tap().emit(ServerEvent::Asking(false));
                    self.log().push(LogKind::Info, &cancel.logged(what));
                    return Err(LensError::cancelled());
                }
            };
            let Some(value) = response(method, url_mode, answer) else {
                return Err(LensError::tool(format!(
                    "{what}: the user declined the sampling request, so the request was not sent again"
                )));
            };
            responses.insert(key.clone(), value);
        }
        Ok(responses)
    }

    /// One question through the ask desk; no one to ask is a decline (as for a legacy request).
    async fn ask_user(&self, key: &str, request: &Value) -> Answer {
        let method = request.get("method").and_then(Value::as_str).unwrap_or("?");
        let message = json!({"jsonrpc": "2.0", "id": key, "method": method, "params": request.get("params")});
        let raw = Arc::new(serde_json::to_string(&crate::deep::Deep(&message)).unwrap_or_default());
        let (ask, rx) = match ServerAsk::new(key.to_string(), raw, self.options().max_depth) {
            Ok(read) => read,
            Err(why) => {
                let msg = format!("input request {key:?} ({method}) cannot be answered ({why}): declined");
                self.log().push(LogKind::Warning, &msg);
                return Answer::Decline;
            }
        };
        let desk = self.options().asks.as_ref();
        if !desk.is_some_and(|d| d.send(ask)) {
            self.log().push(LogKind::Warning, &format!("{method}: declined (nothing here can answer it)"));
            return Answer::Decline;
        }
        self.tap().emit(ServerEvent::Asking(true));
        let answer = rx.await.unwrap_or(Answer::Cancel);
        self.tap().emit(ServerEvent::Asking(false));
        answer
    }

    /// `roots/list`'s result for the roots offered now.
    fn client_roots(&self) -> Value {
        let roots: Vec<Value> = self.roots().iter().map(|r| json!({"uri": r.uri, "name": r.name})).collect();
        json!({"roots": roots})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_required_result_is_read_and_retried_with_answers_and_state() {
        let raw = r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required",
            "inputRequests":{"who":{"method":"elicitation/create","params":{"message":"m"}},
            "roots":{"method":"roots/list"}},"requestState":"s1"}}"#;
        let asked = InputRequired::read(raw).unwrap_or_else(|| panic!("not read"));
        assert_eq!(asked.requests.len(), 2);
        assert_eq!(asked.state, Some(json!("s1")));
        let first = json!({"name": "t", "arguments": {"a": 1}, "requestState": "old"});
        let mut answers = Map::new();
        answers.insert("who".into(), json!({"action": "decline"}));
        let next = asked.retry_params(&first, answers);
        assert_eq!(
            next,
            json!({"name":"t","arguments":{"a":1},"requestState":"s1","inputResponses":{"who":{"action":"decline"}}})
        );
        assert!(InputRequired::read(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).is_none());
        assert_eq!(result_type(r#"{"id":1,"result":{"resultType":"task"}}"#).as_deref(), Some("task"));
        assert_eq!(result_type(r#"{"id":1,"result":{"resultType":7}}"#).as_deref(), Some("7"));
    }

    #[test]
    fn answers_become_results_and_a_declined_sampling_has_none() {
        let accept = Answer::Accept(Map::new());
        assert_eq!(response("elicitation/create", true, accept.clone()), Some(json!({"action": "accept"})));
        assert_eq!(response("elicitation/create", false, accept), Some(json!({"action": "accept", "content": {}})));
        assert_eq!(response("elicitation/create", false, Answer::Cancel), Some(json!({"action": "cancel"})));
        assert_eq!(response("sampling/createMessage", false, Answer::Decline), None);
        let reply = Answer::Reply { text: "hi".into(), model: "m".into() };
        assert_eq!(
            response("sampling/createMessage", false, reply).map(|v| v["content"]["text"].clone()),
            Some(json!("hi"))
        );
    }
}
