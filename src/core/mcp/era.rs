//! The two protocol eras: the legacy one (an `initialize` handshake, versions up to 2025-11-25)
//! and the modern one (2026-07-28: `server/discover`, per-request `_meta`, results with a
//! `resultType`), which version `--protocol` asks for, and the error codes each era adds.

use std::fmt;
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

/// The modern era's one version.
pub const MODERN: &str = "2026-07-28";

/// The legacy versions mcplens offers in `initialize`, newest first.
pub const LEGACY: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26"];

/// Whether mcplens knows a protocol version a server answered with: one it offers, or
/// 2024-11-05, which it does not offer but speaks (the first version, still answered by servers
/// built on older SDKs).
pub fn known(version: &str) -> bool {
    version == MODERN || version == "2024-11-05" || LEGACY.contains(&version)
}

/// How long `auto` waits for an answer to `server/discover` before it takes the server for a
/// legacy one (some legacy servers say nothing to a request before `initialize`). A modern
/// server that starts slower than this is met in the legacy era; `--protocol 2026-07-28`
/// waits the whole `--timeout`.
pub const DISCOVER_WAIT: Duration = Duration::from_secs(5);

/// What `--protocol` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// `server/discover` first; a server that does not know it gets `initialize` (2025-11-25).
    #[default]
    Auto,
    /// Only `server/discover` (2026-07-28): a legacy server is an error.
    Modern,
    /// Only `initialize`, offering exactly this version.
    Legacy(&'static str),
}

impl Protocol {
    /// Every value `--protocol` takes, as the user types them.
    pub const NAMES: &[&str] = &["auto", MODERN, "2025-11-25", "2025-06-18", "2025-03-26"];

    pub fn parse(s: &str) -> Option<Protocol> {
        match s.trim() {
            "auto" => Some(Protocol::Auto),
            MODERN => Some(Protocol::Modern),
            v => LEGACY.iter().find(|l| **l == v).map(|l| Protocol::Legacy(l)),
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            Protocol::Auto => "auto",
            Protocol::Modern => MODERN,
            Protocol::Legacy(v) => v,
        }
    }
}

/// Which era a session speaks, read from the version it settled on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Era {
    #[default]
    Legacy,
    Modern,
}

impl Era {
    /// The era of a protocol version: every version from 2026-07-28 on is modern (dates
    /// compare as text).
    pub fn of(version: &str) -> Era {
        if version.len() == MODERN.len() && version >= MODERN { Era::Modern } else { Era::Legacy }
    }

    pub fn label(&self) -> &'static str {
        match self {
            Era::Legacy => "legacy (initialize)",
            Era::Modern => "modern (server/discover)",
        }
    }
}

impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Where a discover reply's `_meta` names the server.
pub const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

/// How rmcp opens the session for `protocol`.
pub fn lifecycle(protocol: Protocol) -> ClientLifecycleMode {
    let modern = || vec![ProtocolVersion::V_2026_07_28];
    match protocol {
        Protocol::Auto => {
            ClientLifecycleMode::Auto { preferred_versions: modern(), legacy_version: Some(legacy_version(LEGACY[0])) }
        }
        Protocol::Modern => ClientLifecycleMode::Discover { preferred_versions: modern() },
        Protocol::Legacy(_) => ClientLifecycleMode::Initialize,
    }
}

/// The handshake `protocol` makes, for error messages (a legacy server's "method not found"
/// under `--protocol 2026-07-28` says which request it did not know).
pub fn handshake_name(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Auto => "initialize",
        Protocol::Modern => "server/discover (--protocol 2026-07-28; auto falls back to initialize)",
        Protocol::Legacy(_) => "initialize",
    }
}

/// The version `initialize` offers.
pub fn legacy_version(v: &'static str) -> ProtocolVersion {
    match v {
        "2025-06-18" => ProtocolVersion::V_2025_06_18,
        "2025-03-26" => ProtocolVersion::V_2025_03_26,
        _ => ProtocolVersion::V_2025_11_25,
    }
}

/// A result's cache hint (2026-07-28: `ttlMs` and `cacheScope` on discover, list and read
/// results) as one line, e.g. `cache: ttlMs 60000, cacheScope public`; None when it has neither.
pub fn cache_hint(result: &serde_json::Value) -> Option<String> {
    let ttl = result.get("ttlMs");
    let scope = result.get("cacheScope");
    if ttl.is_none() && scope.is_none() {
        return None;
    }
    let text = |v: Option<&serde_json::Value>| match v {
        Some(serde_json::Value::String(s)) => crate::sanitize::truncate(s, 40).into_owned(),
        Some(v) => crate::sanitize::truncate(&v.to_string(), 40).into_owned(),
        None => "-".into(),
    };
    Some(format!("cache: ttlMs {}, cacheScope {}", text(ttl), text(scope)))
}

/// The name of an error code MCP added to JSON-RPC's (the modern era's three among them), for
/// error messages: a server's message seldom says what its code means. None for JSON-RPC's own
/// codes, whose messages do.
pub fn error_name(code: i64) -> Option<&'static str> {
    Some(match code {
        -32042 => "URL elicitation required",
        -32020 => "header mismatch",
        -32021 => "missing required client capability",
        -32022 => "unsupported protocol version",
        _ => return None,
    })
}

/// `JSON-RPC error CODE: MESSAGE`, with the code's name after it when MCP gave it one.
pub fn error_line(code: Option<i64>, message: &str) -> String {
    let shown = code.map(|c| c.to_string()).unwrap_or_else(|| "?".into());
    match code.and_then(error_name) {
        Some(name) => format!("JSON-RPC error {shown}: {message} ({name})"),
        None => format!("JSON-RPC error {shown}: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_values_parse_and_name_themselves() {
        for name in Protocol::NAMES {
            let p = Protocol::parse(name).unwrap_or_else(|| panic!("{name} does not parse"));
            assert_eq!(p.label(), *name);
        }
        assert_eq!(Protocol::parse("2024-11-05"), None);
        assert_eq!(Protocol::parse("2025-06-18"), Some(Protocol::Legacy("2025-06-18")));
    }

    #[test]
    fn eras_and_error_names() {
        assert_eq!(Era::of("2026-07-28"), Era::Modern);
        assert_eq!(Era::of("2027-01-01"), Era::Modern);
        assert_eq!(Era::of("2025-11-25"), Era::Legacy);
        assert_eq!(Era::of(""), Era::Legacy);
        assert_eq!(
            error_line(Some(-32021), "no sampling"),
            "JSON-RPC error -32021: no sampling (missing required client capability)"
        );
        assert_eq!(error_line(Some(-32601), "nope"), "JSON-RPC error -32601: nope");
        assert_eq!(error_line(None, "x"), "JSON-RPC error ?: x");
    }
}
