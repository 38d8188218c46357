//! `mcplens info`: the server as it introduced itself (the `initialize` or `server/discover`
//! result) and the protocol era and version in use.

use serde_json::value::RawValue;

use super::{TargetArgs, out};
use crate::error::Result;
use crate::mcp::ServerInfo;
use crate::sanitize;

/// `mcplens info [--json]`
pub async fn info(target: &TargetArgs, json: bool) -> Result<i32> {
    let opened = super::connect::open(target).await?;
    let server = &opened.session.server;
    let text = if json { result_as_sent(server) } else { readable(server) };
    opened.run(async |_| out(&text).map(|()| 0)).await
}

/// The initialize or discover reply's `result` member byte for byte (terminal controls escaped).
fn result_as_sent(s: &ServerInfo) -> String {
    #[derive(serde::Deserialize)]
    struct Reply<'a> {
        #[serde(borrow)]
        result: &'a RawValue,
    }
    let raw = s.raw.as_deref().and_then(|r| serde_json::from_str::<Reply>(r).ok().map(|m| m.result.get()));
    match raw {
        Some(r) => format!("{}\n", sanitize::json(r)),
        None => format!("{}\n", s.result),
    }
}

fn readable(s: &ServerInfo) -> String {
    let mut text = format!("server        {} {}\n", sanitize::line(s.name()), sanitize::line(s.version()));
    if let Some(title) = s.title() {
        text.push_str(&format!("title         {}\n", sanitize::line(title)));
    }
    text.push_str(&format!("protocol      {}\n", sanitize::line(s.protocol_version())));
    text.push_str(&format!("era           {}\n", s.era.label()));
    let supported = s.supported_versions();
    if !supported.is_empty() {
        text.push_str(&format!("offers        {}\n", sanitize::line(&supported.join(", "))));
    }
    if let Some(hint) = s.cache_hint() {
        text.push_str(&format!("discover      {}\n", sanitize::line(&hint)));
    }
    text.push_str("capabilities\n");
    match s.result.get("capabilities").and_then(|c| c.as_object()) {
        Some(caps) if !caps.is_empty() => {
            for (name, value) in caps {
                text.push_str(&format!("  {:<12}{}\n", sanitize::line(name), sanitize::line(&value.to_string())));
            }
        }
        _ => text.push_str("  (none declared)\n"),
    }
    match s.instructions() {
        Some(i) => {
            text.push_str("instructions\n");
            for line in sanitize::text(i).lines() {
                text.push_str(&format!("  {line}\n"));
            }
        }
        None => text.push_str("instructions  (none)\n"),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_and_as_sent() {
        let raw = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"x":{"a":1.50}},"serverInfo":{"name":"s\u001b[2J","version":"1"},"instructions":"one\ntwo"}}"#;
        let s = ServerInfo::from_raw_text(raw);
        let text = readable(&s);
        assert!(text.contains("protocol      2025-11-25"), "{text}");
        assert!(text.contains("  tools       {\"listChanged\":true}"), "{text}");
        assert!(text.contains("instructions\n  one\n  two\n"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        // As sent: the number written 1.50 and the escape stay as the server wrote them.
        let json = result_as_sent(&s);
        assert!(json.contains("1.50") && json.contains(r"s\u001b[2J"), "{json}");
    }
}
