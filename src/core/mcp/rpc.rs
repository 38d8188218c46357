//! Requests sent as plain JSON (method and params as mcplens writes them) and their replies as
//! the server sent them.
//!
//! rmcp carries each request (ids, timeout, cancel); the wire tap keeps the reply verbatim and
//! hands rmcp a stub (see `wire::STUBBED`), so rmcp's typed model never drops or refuses what a
//! server sends. A JSON-RPC error reply is an answer too (`Answered::outcome`), not a failure of
//! the connection.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ClientRequest, CustomRequest};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::session::{CallOptions, Session};
use crate::error::{LensError, Result};

/// The `error` member of a JSON-RPC error reply.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: Option<i64>,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn from_value(v: &Value) -> Self {
        RpcError {
            code: v.get("code").and_then(Value::as_i64),
            message: v.get("message").and_then(Value::as_str).unwrap_or("(no message)").to_string(),
            data: v.get("data").cloned(),
        }
    }

    /// "method not found": the server does not offer the method at all.
    pub fn is_method_not_found(&self) -> bool {
        self.code == Some(-32601)
    }

    /// `JSON-RPC error CODE: MESSAGE` (unsanitized).
    pub fn summary(&self) -> String {
        super::era::error_line(self.code, &self.message)
    }
}

/// A reply: the whole message as sent, how long it took, and what it says.
#[derive(Debug, Clone)]
pub struct Answered<T> {
    /// The whole JSON-RPC message, verbatim.
    pub raw: Arc<String>,
    pub elapsed: Duration,
    /// What the result holds, or the server's JSON-RPC error.
    pub outcome: std::result::Result<T, RpcError>,
    /// Where the result breaks the MCP schema (it is still shown; also logged as warnings).
    pub warnings: Vec<String>,
}

impl<T> Answered<T> {
    /// The `result` (or `error`) member exactly as sent; the whole message if it has neither.
    pub fn member_raw(&self) -> &str {
        #[derive(Deserialize)]
        struct Members<'a> {
            #[serde(borrow, default)]
            result: Option<&'a RawValue>,
            #[serde(borrow, default)]
            error: Option<&'a RawValue>,
        }
        match crate::json_depth::parse_borrowed::<Members>(&self.raw) {
            Ok(Members { error: Some(e), .. }) => e.get(),
            Ok(Members { result: Some(r), .. }) => r.get(),
            _ => self.raw.as_str(),
        }
    }

    /// An answer given here, with nothing sent (the modern era's log level).
    pub fn local(value: T) -> Self {
        Answered { raw: Arc::new(String::new()), elapsed: Duration::ZERO, outcome: Ok(value), warnings: vec![] }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answered<U> {
        Answered { raw: self.raw, elapsed: self.elapsed, outcome: self.outcome.map(f), warnings: self.warnings }
    }
}

impl Session {
    /// Sends `method` with `params` exactly as given and waits for the raw reply.
    pub(crate) async fn send_raw(
        &self,
        method: &str,
        params: Option<Value>,
        what: &str,
        opts: &CallOptions,
    ) -> Result<(Arc<String>, Duration)> {
        if super::input::ASKING_METHODS.contains(&method) {
            let params = params.unwrap_or_else(|| Value::Object(Default::default()));
            return self.request_answering(method, params, what, opts, &mut |_| {}).await;
        }
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        self.request_raw(request, what, opts, &mut |_| {}).await
    }

    /// Sends `method` and reads its reply's `result` (or `error`) as a JSON value.
    pub(crate) async fn ask(&self, method: &str, params: Option<Value>, opts: &CallOptions) -> Result<Answered<Value>> {
        let (raw, elapsed) = self.send_raw(method, params, method, opts).await?;
        let outcome = read_reply(&raw, self.options().max_depth)
            .map_err(|e| LensError::connection(format!("{method}: the server's reply cannot be read: {e}")))?;
        Ok(Answered { raw, elapsed, outcome, warnings: vec![] })
    }

    /// Records a result's departures from the MCP schema in the log and on the answer.
    pub(crate) fn warn<T>(&self, what: &str, answer: &mut Answered<T>, problems: Vec<String>) {
        for p in problems {
            self.log().push(super::log::LogKind::Warning, &format!("{what}: the result breaks the MCP schema: {p}"));
            answer.warnings.push(p);
        }
    }

    /// `ping`: the round-trip time of one request the server must answer at once.
    /// The modern era has no `ping`: its round trip is `server/discover`'s.
    pub async fn ping(&self) -> Result<Duration> {
        let method = if self.era() == super::era::Era::Modern { "server/discover" } else { "ping" };
        let answer = self.ask(method, None, &CallOptions::default()).await?;
        match answer.outcome {
            Ok(_) => Ok(answer.elapsed),
            Err(e) => Err(LensError::connection(format!("ping: the server answered {}", e.summary()))),
        }
    }
}

/// A reply's `result`, or its `error` read as an `RpcError`.
pub(crate) fn read_reply(
    raw: &str,
    max_depth: usize,
) -> std::result::Result<std::result::Result<Value, RpcError>, String> {
    let mut parts: Map<String, Value> = crate::json_depth::parse(raw, max_depth)?;
    let (result, error) = (parts.shift_remove("result"), parts.shift_remove("error").filter(|e| !e.is_null()));
    crate::deep::drop_value(Value::Object(parts));
    match (result, error) {
        (_, Some(err)) => Ok(Err(RpcError::from_value(&err))),
        (Some(result), None) => Ok(Ok(result)),
        (None, None) => Err("it has neither result nor error".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_and_errors_are_read() {
        let ok = read_reply(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#, 10);
        assert_eq!(ok, Ok(Ok(serde_json::json!({"a": 1}))));
        let err = read_reply(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"gone"}}"#, 10);
        let Ok(Err(e)) = err else { panic!("expected an error reply") };
        assert_eq!(e.summary(), "JSON-RPC error -32002: gone");
        assert!(read_reply(r#"{"jsonrpc":"2.0","id":1}"#, 10).is_err());
        assert!(read_reply(r#"{"result":[[[[1]]]]}"#, 3).is_err());
    }

    #[test]
    fn the_member_is_kept_as_sent() {
        let a = Answered {
            raw: Arc::new(r#"{"jsonrpc":"2.0","id":1,"result":{"n": 1.50}}"#.to_string()),
            elapsed: Duration::ZERO,
            outcome: Ok(()),
            warnings: vec![],
        };
        assert_eq!(a.member_raw(), r#"{"n": 1.50}"#);
    }
}
