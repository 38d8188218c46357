//! Why a handshake over HTTP failed, in words a user can act on. rmcp's own errors name its
//! transport's Rust types, and in auto mode (`server/discover`, then `initialize`) hide both
//! causes behind "discover and legacy initialize both failed".

use rmcp::service::ClientInitializeError;

/// The cause of a failed handshake: the server's answer (an HTTP status with its body, a content
/// type) or why no answer came, with what to check when that is known.
pub(super) fn cause(e: &ClientInitializeError) -> String {
    with_hint(plain(e))
}

/// A request's transport error (after the handshake), read the same way.
pub(super) fn of_request(e: &(dyn std::error::Error + 'static)) -> String {
    with_hint(transport(&e.to_string()))
}

fn with_hint(text: String) -> String {
    match hint(&text) {
        Some(hint) => format!("{text}; {hint}"),
        None => text,
    }
}

/// The cause without a hint. In auto mode the legacy `initialize`'s cause is said first, since a
/// server that answers neither is most often a legacy one; `server/discover`'s too when it is not
/// the JSON-RPC error that sent mcplens on to `initialize` (the method unknown, or a 404 read as
/// such) and differs.
fn plain(e: &ClientInitializeError) -> String {
    match e {
        ClientInitializeError::LegacyFallbackFailed { discover, fallback } => {
            let (discover, fallback) = (plain(discover), plain(fallback));
            if discover == fallback || discover.starts_with("JSON-RPC error") {
                fallback
            } else {
                format!("{fallback} (and to server/discover: {discover})")
            }
        }
        ClientInitializeError::TransportError { error, .. } => transport(&error.error.to_string()),
        other => transport(&other.to_string()),
    }
}

/// A transport error's text without rmcp's framing ("unexpected server response: ", the
/// "when send initialize request" context).
fn transport(text: &str) -> String {
    let text = text.split_once("unexpected server response: ").map_or(text, |(_, rest)| rest);
    let text = text.split(", when send").next().unwrap_or(text);
    match text.strip_prefix("Unexpected content type: ") {
        Some(ct) => content_type(ct),
        None => text.to_string(),
    }
}

/// rmcp's `Some("text/html; charset=utf-8")` as the media type alone.
fn content_type(debug: &str) -> String {
    let ct = debug.trim_start_matches("Some(").trim_end_matches(')').trim_matches('"');
    let media = ct.split(';').next().unwrap_or(ct).trim();
    match media {
        "None" | "" => "an answer with no content type (not application/json or text/event-stream)".to_string(),
        m if m.eq_ignore_ascii_case("text/html") => "an HTML page, not an MCP endpoint".to_string(),
        m => format!("an answer of type {m} (not application/json or text/event-stream)"),
    }
}

/// What to check, for the causes whose fix is known (as `mcplens doctor` says them).
fn hint(text: &str) -> Option<&'static str> {
    if text.starts_with("HTTP 404") || text.starts_with("HTTP 405") || text.starts_with("an HTML page") {
        Some(
            "check the path: streamable HTTP servers usually serve /mcp (`mcplens doctor` takes the connection step by step)",
        )
    } else if text.starts_with("could not connect") && text.contains("invalid HTTP") {
        Some("something answered on that port, but not in HTTP: is it the server's HTTP port?")
    } else if text.starts_with("could not connect") {
        Some("is the server running, and is the URL right?")
    } else if text.starts_with("HTTP ") || text.starts_with("an answer") {
        Some("`mcplens doctor` takes the connection step by step")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_are_named_by_their_media_type() {
        assert_eq!(content_type(r#"Some("text/html; charset=utf-8")"#), "an HTML page, not an MCP endpoint");
        assert!(content_type(r#"Some("text/plain")"#).contains("type text/plain"));
        assert!(content_type("None").contains("no content type"));
    }

    #[test]
    fn rmcp_framing_is_cut_and_a_hint_added() {
        let t =
            transport("unexpected server response: HTTP 404 Not Found: Cannot POST /x, when send initialize request");
        assert_eq!(t, "HTTP 404 Not Found: Cannot POST /x");
        assert!(hint(&t).is_some_and(|h| h.contains("/mcp")));
        assert!(hint("could not connect: Connection refused").is_some_and(|h| h.contains("running")));
        assert_eq!(hint("connection closed: eof"), None);
    }
}
