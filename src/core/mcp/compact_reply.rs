//! Replies read straight into the form mcplens keeps, never through a whole `Value` tree.
//!
//! A `serde_json::Value` costs 10 to 30 times the bytes it was read from; a server can send a
//! list of a million items, and mcplens holds each reply at a bounded multiple of its bytes (10x
//! plus a fixed amount). So a reply whose result is server-sized is read member by member from its
//! text: the items stay text (`&RawValue`) until each is read into what is kept, one at a time.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::rpc::{Answered, RpcError};
use super::session::{CallOptions, Session};
use crate::error::{LensError, Result};

/// The most schema problems kept for one result: the rest are counted in one line.
pub const MAX_PROBLEMS: usize = 20;

/// Problems found in a result, the first [`MAX_PROBLEMS`] kept and the rest counted: a server
/// that breaks the schema a million times gets one line saying so, not a million.
#[derive(Debug, Default)]
pub struct Problems {
    kept: Vec<String>,
    more: usize,
}

impl Problems {
    pub fn push(&mut self, problem: impl FnOnce() -> String) {
        if self.kept.len() < MAX_PROBLEMS {
            self.kept.push(problem());
        } else {
            self.more += 1;
        }
    }

    pub fn into_vec(mut self) -> Vec<String> {
        if self.more > 0 {
            self.kept.push(format!("and {} more problems of the same kind", self.more));
        }
        self.kept
    }
}

/// A reply's `result` as text, or its `error`; `None` when the text cannot be read without
/// approximating (then the caller takes the `Value` path, which can).
fn members(raw: &str, max_depth: usize) -> Option<std::result::Result<std::result::Result<&str, RpcError>, String>> {
    #[derive(Deserialize)]
    struct Members<'a> {
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
        #[serde(borrow, default)]
        error: Option<&'a RawValue>,
    }
    let m: Members = crate::json_depth::parse_borrowed(raw).ok()?;
    let depth = crate::json_depth::depth(raw);
    if depth > max_depth {
        return Some(Err(format!("it nests JSON {depth} levels deep, over the limit of {max_depth} (--max-depth)")));
    }
    match (m.result, m.error.filter(|e| e.get() != "null")) {
        (_, Some(err)) => {
            let err: Value = crate::json_depth::parse(err.get(), max_depth).ok()?;
            Some(Ok(Err(RpcError::from_value(&err))))
        }
        (Some(result), None) => Some(Ok(Ok(result.get()))),
        (None, None) => Some(Err("it has neither result nor error".into())),
    }
}

impl Session {
    /// As `ask`, with the result read from its text by `read` (see the module's doc).
    pub(crate) async fn ask_compact<T>(
        &self,
        method: &str,
        params: Option<Value>,
        opts: &CallOptions,
        read: impl FnOnce(&str) -> std::result::Result<T, String>,
    ) -> Result<Answered<T>> {
        let (raw, elapsed) = self.send_raw(method, params, method, opts).await?;
        let cannot = |e: String| LensError::connection(format!("{method}: the server's reply cannot be read: {e}"));
        let outcome = match members(&raw, self.options().max_depth) {
            Some(Ok(Ok(result))) => Ok(read(result).map_err(cannot)?),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(e)) => return Err(cannot(e)),
            // Text the quick read refuses (a lone surrogate): read approximated as a value.
            None => match super::rpc::read_reply(&raw, self.options().max_depth).map_err(cannot)? {
                Ok(v) => Ok(read(&crate::deep::compact(&v)).map_err(cannot)?),
                Err(e) => Err(e),
            },
        };
        Ok(Answered { raw, elapsed, outcome, warnings: vec![] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_errors_are_found_in_the_text() {
        let ok = members(r#"{"jsonrpc":"2.0","id":1,"result":{"a": [1]}}"#, 10);
        assert!(matches!(ok, Some(Ok(Ok(r#"{"a": [1]}"#)))), "{ok:?}");
        let err = members(r#"{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32002,"message":"gone"}}"#, 10);
        let Some(Ok(Err(e))) = err else { panic!("expected an error reply: {err:?}") };
        assert_eq!(e.summary(), "JSON-RPC error -32002: gone");
        assert!(matches!(members(r#"{"jsonrpc":"2.0","id":1}"#, 10), Some(Err(_))));
        assert!(matches!(members(r#"{"result":[[[[1]]]]}"#, 3), Some(Err(_))));
        // Kept as text: what reads it decides (a lenient parse of each item).
        assert!(matches!(members("{\"result\":1e400}", 10), Some(Ok(Ok("1e400")))));
        assert!(members("{\"result\":1,}", 10).is_none());
    }

    #[test]
    fn problems_past_the_limit_are_counted() {
        let mut p = Problems::default();
        for i in 0..MAX_PROBLEMS + 5 {
            p.push(|| format!("p{i}"));
        }
        let v = p.into_vec();
        assert_eq!(v.len(), MAX_PROBLEMS + 1);
        assert_eq!(v[MAX_PROBLEMS], "and 5 more problems of the same kind");
    }
}
