//! Where the server is: a child process over stdio, or a streamable HTTP endpoint.

use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdioTarget {
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpTarget {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// How to log in when the server asks (flags or the config entry's `"oauth"`).
    pub oauth: super::auth::OAuthConfig,
}

impl HttpTarget {
    pub fn new(url: impl Into<String>, headers: Vec<(String, String)>) -> Self {
        HttpTarget { url: url.into(), headers, oauth: Default::default() }
    }

    /// Whether the user gave the Authorization header themselves (then mcplens does not log in).
    pub fn has_authorization_header(&self) -> bool {
        self.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("authorization"))
    }
}

/// Why `value` cannot be sent as an HTTP header's value, if it cannot: a header value is one
/// line of printable characters (tabs allowed). Never quotes the value: it is often a secret.
pub fn header_value_problem(value: &str) -> Option<&'static str> {
    if value.contains(['\r', '\n']) {
        return Some("holds a line break");
    }
    value.bytes().any(|b| (b < b' ' && b != b'\t') || b == 0x7f).then_some("holds a control character")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Stdio(StdioTarget),
    Http(HttpTarget),
}

impl Target {
    /// The embedded demo server: this very binary, run as `mcplens demo-server`.
    pub fn demo() -> Target {
        let command =
            std::env::current_exe().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "mcplens".to_string());
        Target::Stdio(StdioTarget { command, args: vec!["demo-server".into()], env: vec![], cwd: None })
    }

    /// Values that must never be shown: env values, header values and the URL's credentials the
    /// user passed.
    pub fn secrets(&self) -> Vec<String> {
        match self {
            Target::Stdio(s) => s.env.iter().map(|(_, v)| v.clone()).collect(),
            Target::Http(h) => h
                .oauth
                .client
                .client_secret
                .iter()
                .cloned()
                .chain(h.headers.iter().flat_map(|(_, v)| {
                    // "Bearer abc" leaks "abc" just as well: redact the token part too.
                    let mut out = vec![v.clone()];
                    if let Some((_, token)) = v.split_once(' ') {
                        out.push(token.to_string());
                    }
                    out
                }))
                .chain(super::url_secrets::credentials(&h.url))
                .collect(),
        }
    }

    /// A short human name for the target (no secrets: env and headers are left out, a URL's
    /// credentials masked).
    pub fn label(&self) -> String {
        match self {
            Target::Stdio(s) => {
                let mut parts = vec![s.command.clone()];
                parts.extend(s.args.iter().cloned());
                parts.join(" ")
            }
            Target::Http(h) => super::url_secrets::shown(&h.url),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_value_is_one_line_of_printable_characters() {
        assert_eq!(header_value_problem("Bearer abc.def-_~+/="), None);
        assert_eq!(header_value_problem("a\tb é"), None);
        assert_eq!(header_value_problem("a\nb"), Some("holds a line break"));
        assert_eq!(header_value_problem("a\r"), Some("holds a line break"));
        assert_eq!(header_value_problem("a\u{0}b"), Some("holds a control character"));
        assert_eq!(header_value_problem("a\u{7f}"), Some("holds a control character"));
    }
}
