//! The two handshakes the doctor sends (legacy `initialize`, modern `server/discover`) and how
//! their replies are judged.

use serde_json::{Value, json};

use super::{Step, Verdict, excerpt};
use crate::mcp::era::{LEGACY, MODERN};

/// The id of every probe request (one request per connection).
pub const ID: u64 = 1;

fn client_info() -> Value {
    json!({"name": "mcplens-doctor", "version": env!("CARGO_PKG_VERSION")})
}

/// A legacy `initialize` offering the newest legacy version.
pub fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": ID, "method": "initialize", "params": {
        "protocolVersion": LEGACY[0], "capabilities": {}, "clientInfo": client_info()}})
    .to_string()
}

/// A modern `server/discover`, with the `_meta` every 2026-07-28 request carries.
pub fn discover() -> String {
    json!({"jsonrpc": "2.0", "id": ID, "method": "server/discover", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": client_info(),
        "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string()
}

/// True when `msg` is the reply to the probe (not a notification or a request of the server's).
pub fn is_reply(msg: &Value) -> bool {
    msg.get("id").and_then(Value::as_u64) == Some(ID) && (msg.get("result").is_some() || msg.get("error").is_some())
}

const LEGACY_TITLE: &str = "legacy era (initialize)";
const MODERN_TITLE: &str = "modern era (server/discover, 2026-07-28)";

/// The verdict on the reply to `initialize`.
pub fn judge_legacy(reply: &Value) -> Step {
    let received = excerpt(&reply.to_string(), 300);
    let step = |v, d: String| Step::new("legacy", LEGACY_TITLE, v, d).received(received.clone());
    if let Some(e) = reply.get("error") {
        return step(Verdict::Fail, format!("the server refused initialize: {}", rpc_error(e)))
            .fix("answer `initialize` (every client of protocol 2025-11-25 and before opens with it)");
    }
    let result = reply.get("result").unwrap_or(&Value::Null);
    let Some(version) = result.get("protocolVersion").and_then(Value::as_str) else {
        return step(Verdict::Fail, "the initialize result has no protocolVersion".into())
            .fix("put the protocol version you speak in the result's protocolVersion");
    };
    // 2024-11-05 is not offered but spoken (older SDKs' servers answer it): a session goes on.
    if !crate::mcp::era::known(version) || version == MODERN {
        return step(Verdict::Fail, format!("the server answered protocol version {version:?}, which mcplens did not offer and does not know"))
            .fix(format!(
                "answer with the version the client offered ({}) when you support it, else with the newest you support; clients know {}",
                LEGACY[0],
                LEGACY.join(", ")
            ));
    }
    let name = result.pointer("/serverInfo/name").and_then(Value::as_str);
    let mut detail = if version == LEGACY[0] {
        format!("protocol {version} negotiated")
    } else {
        format!("protocol {version} negotiated (mcplens offered {}; the server chose an older one)", LEGACY[0])
    };
    match name {
        Some(n) => detail.push_str(&format!("; server {n:?}")),
        None => {
            return step(Verdict::Warn, format!("{detail}; the result has no serverInfo.name"))
                .fix("name the server in serverInfo (name and version are required by the schema)");
        }
    }
    step(Verdict::Pass, detail)
}

/// The verdict on the reply to `server/discover` (None: no answer in time).
pub fn judge_modern(reply: Option<&Value>) -> Step {
    let Some(reply) = reply else {
        return Step::new("modern", MODERN_TITLE, Verdict::Fail, "no answer to server/discover").fix(
            "a legacy server should answer unknown methods with -32601 (method not found) rather than stay silent",
        );
    };
    let received = excerpt(&reply.to_string(), 300);
    let step = |v, d: String| Step::new("modern", MODERN_TITLE, v, d).received(received.clone());
    if let Some(e) = reply.get("error") {
        let code = e.get("code").and_then(Value::as_i64);
        let verdict = if code == Some(-32601) { Verdict::Warn } else { Verdict::Fail };
        return step(verdict, format!("the server does not speak 2026-07-28: {}", rpc_error(e)))
            .fix("to speak the modern era, answer server/discover with supportedVersions including 2026-07-28");
    }
    let versions: Vec<&str> = reply
        .pointer("/result/supportedVersions")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if versions.contains(&MODERN) {
        step(Verdict::Pass, format!("supported versions: {}", versions.join(", ")))
    } else {
        step(Verdict::Fail, format!("the discover result lists supportedVersions {versions:?}, without {MODERN}"))
            .fix(format!("list the versions you speak in supportedVersions; {MODERN} is the one mcplens speaks there"))
    }
}

fn rpc_error(e: &Value) -> String {
    let code = e.get("code").map(Value::to_string).unwrap_or_else(|| "?".into());
    let msg = e.get("message").and_then(Value::as_str).unwrap_or("");
    format!("error {code} {}", excerpt(msg, 200))
}

/// A server needs one era, not both: when one passes, the other's failure is only a warning
/// (a client of that era cannot connect), and a legacy server silent to `server/discover`
/// is the common case.
pub fn reconcile_eras(steps: &mut [Step]) {
    // A legacy warning is a working handshake; a modern one is "not spoken".
    let legacy = steps.iter().any(|s| s.id == "legacy" && matches!(s.verdict, Verdict::Pass | Verdict::Warn));
    let modern = steps.iter().any(|s| s.id == "modern" && s.verdict == Verdict::Pass);
    for s in steps.iter_mut() {
        let other_ok = match s.id.as_str() {
            "legacy" => modern,
            "modern" => legacy,
            _ => false,
        };
        if other_ok && s.verdict == Verdict::Fail {
            s.verdict = Verdict::Warn;
            s.detail.push_str(" (the other era works; clients of this one cannot connect)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answered(version: &str) -> Step {
        judge_legacy(&json!({"result": {"protocolVersion": version, "serverInfo": {"name": "s"}}}))
    }

    /// As a session does: 2024-11-05 (older SDKs' servers answer it) passes as an older version;
    /// one mcplens does not know, or the modern era's in `initialize`, fails.
    #[test]
    fn versions_are_judged_as_a_session_takes_them() {
        let old = answered("2024-11-05");
        assert_eq!(old.verdict, Verdict::Pass, "{}", old.detail);
        assert!(old.detail.contains("chose an older one"), "{}", old.detail);
        assert_eq!(answered(LEGACY[0]).verdict, Verdict::Pass);
        assert_eq!(answered("1999-01-01").verdict, Verdict::Fail);
        assert_eq!(answered(MODERN).verdict, Verdict::Fail);
    }
}
