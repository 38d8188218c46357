//! MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension, stable 2026-01-26): which
//! tools declare a `ui://` view, what a view's `_meta.ui` asks of its host (CSP domains,
//! permissions, a dedicated domain, a border), and the pages mcplens serves to run a view in a
//! browser the way the specification's web host does (`host_page`).

pub mod csp;
pub mod host_page;
pub mod meta;

pub use meta::{UiMeta, tool_resource, visibility};

/// The MIME type of an MCP App's HTML (`resources/read` MUST answer with it).
pub const MIME: &str = "text/html;profile=mcp-app";

/// The extension's identifier, as a client declares it in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The protocol version of the `ui/*` bridge this host speaks.
pub const BRIDGE_VERSION: &str = "2026-01-26";

/// Where the specification says what mcplens does and checks.
pub const SPEC: &str = "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx";

/// A resource URI that names an app's view.
pub fn is_ui_uri(uri: &str) -> bool {
    uri.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("ui://"))
}

/// A listed resource (or a read content) that is an MCP App's view: a `ui://` URI, or the
/// app MIME type.
pub fn is_app_resource(item: &serde_json::Value) -> bool {
    let uri = item.get("uri").and_then(serde_json::Value::as_str).unwrap_or("");
    let mime = item.get("mimeType").and_then(serde_json::Value::as_str).unwrap_or("");
    is_ui_uri(uri) || is_app_mime(mime)
}

/// `text/html;profile=mcp-app`, read as a MIME type is: case and spaces around `;` do not count.
pub fn is_app_mime(mime: &str) -> bool {
    let squeezed: String = mime.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    squeezed == MIME || squeezed == "text/html;profile=\"mcp-app\""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_mime_reads_like_a_mime_type() {
        assert!(is_app_mime("text/html;profile=mcp-app"));
        assert!(is_app_mime("Text/HTML; profile=mcp-app"));
        assert!(!is_app_mime("text/html"));
        assert!(is_ui_uri("ui://x/y.html") && is_ui_uri("UI://x") && !is_ui_uri("https://x"));
    }
}
