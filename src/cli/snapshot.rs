//! `mcplens snapshot`: what a server offers, as one JSON document a CI job can keep and diff.
//!
//! Every part is the server's own bytes (the initialize or discover `result`, each descriptor as
//! listed), only terminal controls written as `\u` escapes; the lists are sorted by name, URI or
//! URI template so two runs against the same server write the same bytes whatever order it
//! listed them in. Secrets of the target are masked (by `output::redact`), also in the file.

use std::path::Path;

use serde_json::value::RawValue;

use super::connect::open;
use super::{TargetArgs, err_line, out};
use crate::error::{LensError, Result};
use crate::mcp::{ItemKind, Listing, ServerInfo};
use crate::sanitize;

/// The format's version, the document's first member.
pub const FORMAT: u32 = 1;

/// `mcplens snapshot [-o FILE]`
pub async fn snapshot(target: &TargetArgs, output: Option<&Path>) -> Result<i32> {
    open(target).await?.run(async |o| take(&o.session).await.and_then(|text| write_snapshot(&text, output))).await
}

/// The snapshot into its file, or on stdout.
fn write_snapshot(text: &str, output: Option<&Path>) -> Result<i32> {
    match output {
        Some(path) if path != Path::new("-") => {
            crate::dirs::write_file(path, super::output::redact(text).as_bytes())
                .map_err(|e| LensError::output(format!("cannot write {}: {e}", path.display())))?;
        }
        _ => out(text)?,
    }
    Ok(0)
}

pub(crate) async fn take(session: &crate::mcp::Session) -> Result<String> {
    let tools = session.list_tools().await?;
    let target = crate::snapshot::target::recorded(&session.target).to_string();
    let mut parts =
        Parts { target: sanitize::json(&target).into_owned(), server: server_result(&session.server), lists: vec![] };
    let mut named: Vec<(String, &RawValue)> =
        tools.tools.iter().map(|t| (t.name().to_string(), t.raw_value())).collect();
    warn_all("tools", &tools.warnings);
    parts.lists.push(("tools", sorted(&mut named)));
    for kind in [ItemKind::Resource, ItemKind::Template, ItemKind::Prompt] {
        let list = session.list_all(kind).await?;
        warn_all(kind.plural(), &list.warnings);
        // A list the server does not offer is left out: absent, as its capability is.
        if list.not_offered.is_none() {
            parts.lists.push((member(kind), items(&list)));
        }
    }
    Ok(parts.write())
}

fn warn_all(what: &str, warnings: &[String]) {
    for w in warnings {
        err_line(&format!("warning: {what}: {}", sanitize::line(w)));
    }
}

/// The snapshot member a kind is kept under (the name MCP gives its list).
pub fn member(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Resource => "resources",
        ItemKind::Template => "resourceTemplates",
        ItemKind::Prompt => "prompts",
    }
}

fn items(list: &Listing) -> Vec<String> {
    let mut keyed: Vec<(String, &RawValue)> = list
        .items
        .iter()
        .map(|d| {
            let key = match d.kind {
                ItemKind::Prompt => d.name(),
                _ => d.uri().unwrap_or(d.name()),
            };
            (key.to_string(), &*d.raw)
        })
        .collect();
    sorted(&mut keyed)
}

/// The raw texts ordered by key, then by text (two items with one key keep a stable order).
fn sorted(keyed: &mut [(String, &RawValue)]) -> Vec<String> {
    keyed.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.get().cmp(b.1.get())));
    keyed.iter().map(|(_, raw)| sanitize::json(raw.get()).into_owned()).collect()
}

/// The initialize or discover reply's `result` member as sent.
fn server_result(s: &ServerInfo) -> String {
    #[derive(serde::Deserialize)]
    struct Reply<'a> {
        #[serde(borrow)]
        result: &'a RawValue,
    }
    let raw = s.raw.as_deref().and_then(|r| serde_json::from_str::<Reply>(r).ok().map(|m| m.result.get()));
    match raw {
        Some(r) => sanitize::json(r).into_owned(),
        None => s.result.to_string(),
    }
}

struct Parts {
    /// What the snapshot was taken of (the command line or URL, no secrets).
    target: String,
    server: String,
    lists: Vec<(&'static str, Vec<String>)>,
}

impl Parts {
    /// One item a line, so a snapshot kept in git diffs readably.
    fn write(&self) -> String {
        let mut s =
            format!("{{\n\"mcplensSnapshot\": {FORMAT},\n\"target\": {},\n\"server\": {},\n", self.target, self.server);
        for (i, (name, items)) in self.lists.iter().enumerate() {
            s.push_str(&format!("\"{name}\": ["));
            for (j, item) in items.iter().enumerate() {
                s.push_str(if j == 0 { "\n" } else { ",\n" });
                s.push_str(item);
            }
            s.push_str(if items.is_empty() { "]" } else { "\n]" });
            s.push_str(if i + 1 < self.lists.len() { ",\n" } else { "\n" });
        }
        s.push_str("}\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_document_is_json_in_a_stable_order() {
        let a: Box<RawValue> = serde_json::from_str(r#"{"name":"b","x":1.50}"#).unwrap();
        let b: Box<RawValue> = serde_json::from_str(r#"{"name":"a"}"#).unwrap();
        let mut keyed = vec![("b".to_string(), &*a), ("a".to_string(), &*b)];
        let parts = Parts {
            target: r#"{"command":"npx","args":["x"]}"#.into(),
            server: "{}".into(),
            lists: vec![("tools", sorted(&mut keyed)), ("prompts", vec![])],
        };
        let text = parts.write();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["tools"][0]["name"], "a");
        assert!(text.contains("1.50"), "{text}");
        assert_eq!(v["prompts"], serde_json::json!([]));
        assert_eq!(v["target"]["command"], "npx");
        assert!(text.starts_with("{\n\"mcplensSnapshot\": 1,\n\"target\": "), "{text}");
    }
}
