//! The two pages of the local web host (`mcplens app`): the host page, which answers the view's
//! `ui/*` requests and proxies its `tools/call` and `resources/read` to the live session, and
//! the sandbox proxy, served from another origin (another loopback port) under the view's CSP,
//! as SEP-1865's "Sandbox proxy" section requires of a web host.

/// The host page; it fetches `bootstrap` (the view and the call) relative to its own URL.
pub const HOST_HTML: &str = include_str!("host.html");

const SANDBOX_HTML: &str = include_str!("sandbox.html");

/// The sandbox page, which takes messages only from `host_origin` (`http://127.0.0.1:PORT`).
pub fn sandbox_html(host_origin: &str) -> String {
    // The origin is mcplens's own, never a server's: only digits, dots and the scheme.
    SANDBOX_HTML.replace("__HOST_ORIGIN__", host_origin)
}

/// The host page's own policy: its script, and frames from the sandbox's origin only.
pub fn host_policy(sandbox_origin: &str) -> String {
    format!(
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-src {sandbox_origin}; base-uri 'none'; form-action 'none'"
    )
}
