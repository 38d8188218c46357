//! What a snapshot was taken of: the command line or the URL, recorded beside the server's own
//! result so that a snapshot found next to one server is not silently applied to another.
//!
//! Recorded as `"target": {"command": "npx", "args": [...]}` or `{"url": "https://host/mcp"}`.
//! Environment values and headers are never recorded (they hold secrets); a URL loses its
//! user name, password, query and fragment for the same reason. Files without `target` (written
//! before it was recorded) compare as they always did.

use serde_json::{Value, json};

use crate::mcp::Target;

/// The snapshot's `target` member for `target`.
pub fn recorded(target: &Target) -> Value {
    match target {
        Target::Stdio(s) => json!({"command": s.command, "args": s.args}),
        Target::Http(h) => json!({"url": bare_url(&h.url)}),
    }
}

/// A URL without what may be a secret in it: `user:password@`, the query and the fragment.
fn bare_url(url: &str) -> String {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    let url = &url[..end];
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let host_end = rest.find('/').unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

/// The target in a line: `npx -y server-x` (the command by its file name, as it is compared) or
/// the URL. A long one is cut in the middle: two targets differ as often at the end (a folder
/// given to the server) as at the start.
pub fn label(recorded: &Value) -> Option<String> {
    let text = if let Some(url) = recorded.get("url").and_then(Value::as_str) {
        url.to_string()
    } else {
        let command = file_name(recorded)?;
        let args = recorded.get("args").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let mut parts = vec![command.as_str()];
        parts.extend(args.iter().filter_map(Value::as_str));
        parts.join(" ")
    };
    Some(cut_middle(&crate::sanitize::line(&text), LABEL_MAX))
}

/// The most characters of a target said in a message.
const LABEL_MAX: usize = 100;

fn cut_middle(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max / 3).collect();
    let tail: String = text.chars().skip(n - (max - max / 3 - 1)).collect();
    format!("{head}…{tail}")
}

/// A command's file name: the same `npx` or `python3` found at another path is the same command.
fn file_name(v: &Value) -> Option<String> {
    let command = v.get("command").and_then(Value::as_str)?;
    Some(std::path::Path::new(command).file_name().map_or(command.to_string(), |n| n.to_string_lossy().into()))
}

/// Whether two recorded targets are one server. A command is compared by its file name, its
/// arguments exactly; a URL as recorded.
fn same(a: &Value, b: &Value) -> bool {
    match (a.get("url"), b.get("url")) {
        (Some(x), Some(y)) => x == y,
        (None, None) => file_name(a) == file_name(b) && a.get("args") == b.get("args"),
        _ => false,
    }
}

/// When a snapshot taken of one target is applied to another, the sentence saying so: "snapshot
/// taken of X, this is Y". None when they are the same, or the snapshot records no target.
pub fn other_target(snapshot: Option<&Value>, now: &Value) -> Option<String> {
    let then = snapshot.filter(|v| v.is_object())?;
    if same(then, now) {
        return None;
    }
    let (then, now) = (label(then)?, label(now)?);
    Some(format!("snapshot taken of \"{then}\", this is \"{now}\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::{HttpTarget, StdioTarget};

    fn stdio(command: &str, args: &[&str]) -> Value {
        let args = args.iter().map(|a| a.to_string()).collect();
        recorded(&Target::Stdio(StdioTarget { command: command.into(), args, env: vec![], cwd: None }))
    }

    #[test]
    fn another_command_or_url_is_said_and_the_same_one_found_elsewhere_is_not() {
        let memory = stdio("npx", &["-y", "@modelcontextprotocol/server-memory"]);
        let everything = stdio("npx", &["-y", "@modelcontextprotocol/server-everything"]);
        let why = other_target(Some(&memory), &everything).unwrap_or_default();
        assert_eq!(
            why,
            "snapshot taken of \"npx -y @modelcontextprotocol/server-memory\", \
             this is \"npx -y @modelcontextprotocol/server-everything\""
        );
        let elsewhere = stdio("/usr/local/bin/npx", &["-y", "@modelcontextprotocol/server-memory"]);
        assert_eq!(other_target(Some(&memory), &elsewhere), None);
        // A file written before the target was recorded compares as before.
        assert_eq!(other_target(None, &everything), None);
        assert_eq!(other_target(Some(&Value::Null), &everything), None);
        let url = recorded(&Target::Http(HttpTarget::new("http://127.0.0.1:3001/mcp", vec![])));
        assert!(other_target(Some(&url), &memory).is_some_and(|w| w.contains("127.0.0.1:3001/mcp")));
    }

    #[test]
    fn a_url_is_recorded_without_what_may_be_a_secret() {
        let url = |u: &str| recorded(&Target::Http(HttpTarget::new(u, vec![])))["url"].clone();
        assert_eq!(url("https://me:pw@host.example/mcp?key=s3cret#x"), json!("https://host.example/mcp"));
        assert_eq!(url("http://127.0.0.1:3001/mcp"), json!("http://127.0.0.1:3001/mcp"));
        assert_eq!(url("https://host/a@b/mcp"), json!("https://host/a@b/mcp"));
    }

    #[test]
    fn a_label_from_a_file_is_one_clean_line() {
        let hostile = json!({"command": "x\u{1b}[2J\nrm", "args": ["a", 3, "b"]});
        let shown = label(&hostile).unwrap_or_default();
        assert!(!shown.contains('\u{1b}') && !shown.contains('\n'), "{shown:?}");
        assert!(shown.ends_with("a b"), "{shown:?}");
        // Cut in the middle: the folder at the end that tells two targets apart stays.
        let long = stdio("/usr/bin/node", &[&format!("/{}/index.js", "deep/".repeat(40)), "/srv/data/b"]);
        let shown = label(&long).unwrap_or_default();
        assert!(shown.starts_with("node /deep/") && shown.ends_with("/index.js /srv/data/b"), "{shown}");
        assert!(shown.contains('…') && shown.chars().count() == LABEL_MAX, "{shown}");
        assert_eq!(label(&json!({"args": []})), None);
    }
}
