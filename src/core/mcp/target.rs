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

    /// Values that must never be shown: env values and header values the user passed.
    pub fn secrets(&self) -> Vec<String> {
        match self {
            Target::Stdio(s) => s.env.iter().map(|(_, v)| v.clone()).collect(),
            Target::Http(h) => h
                .headers
                .iter()
                .flat_map(|(_, v)| {
                    // "Bearer abc" leaks "abc" just as well: redact the token part too.
                    let mut out = vec![v.clone()];
                    if let Some((_, token)) = v.split_once(' ') {
                        out.push(token.to_string());
                    }
                    out
                })
                .collect(),
        }
    }

    /// A short human name for the target (no secrets: env and headers are left out).
    pub fn label(&self) -> String {
        match self {
            Target::Stdio(s) => {
                let mut parts = vec![s.command.clone()];
                parts.extend(s.args.iter().cloned());
                parts.join(" ")
            }
            Target::Http(h) => h.url.clone(),
        }
    }
}
